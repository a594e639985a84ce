//! What the commands ask of a store, whether they hold it or a server does.
//!
//! [`Table`] is the journal calls `commands` makes. A store the CLI can open
//! answers them itself ([`Journal`]); a store held by a running `tabletape
//! serve` answers them through that server ([`crate::remote::Remote`]), so
//! every command prints the same either way.

use std::io::{BufRead, Write};

use tabletape_engine::{LegalAction, Narrative, Viewer};
use tabletape_events::{Body, Seat, MAIN_BRANCH};
use tabletape_store::{
    Access, ActRequest, Acted, BackedUp, BranchInfo, Comparison, Created, GameSummary, Imported,
    Journal, NameRequest, NewGame, NoteRequest, ReplayStep, Restored, ShareRequest, ShownEvent,
    StateView, Undone, VerifyReport,
};

use crate::error::CliError;

type Result<T> = std::result::Result<T, CliError>;

/// The journal calls the commands make, in the journal's own types.
pub trait Table {
    fn create(&self, req: NewGame) -> Result<Created>;
    /// The players of a game, in seat order.
    fn players(&self, game: &str) -> Result<Vec<String>>;
    /// The game's title, if the table gave it one.
    fn title(&self, game: &str) -> Result<Option<String>>;
    /// The game's current line (where commands go without `--branch`).
    fn current_line(&self, game: &str) -> Result<String>;
    /// Takes back the last event of the current line.
    fn undo(&self, game: &str) -> Result<Undone>;
    /// `given`, or the game's current line.
    fn line(&self, game: &str, given: Option<String>) -> Result<String> {
        match given {
            Some(branch) => Ok(branch),
            None => self.current_line(game),
        }
    }
    fn legal(&self, game: &str, branch: &str, seat: Option<Seat>) -> Result<Vec<LegalAction>>;
    /// Whether the branch's head has ended the game (an unknown game or
    /// branch is an error).
    fn is_over(&self, game: &str, branch: &str) -> Result<bool>;
    fn act(&self, game: &str, req: ActRequest) -> Result<Acted>;
    /// Every game of the store, by id.
    fn games(&self) -> Result<Vec<GameSummary>>;
    /// A branch's events, from the first to the head, as `viewer` sees them.
    fn events_as(&self, game: &str, branch: &str, viewer: Viewer) -> Result<Vec<ShownEvent>>;
    fn state(&self, game: &str, branch: &str, at: Option<u64>, viewer: Viewer)
        -> Result<StateView>;
    fn replay(
        &self,
        game: &str,
        branch: &str,
        to: Option<u64>,
        viewer: Viewer,
    ) -> Result<Vec<ReplayStep>>;
    fn fork(
        &self,
        game: &str,
        from: &str,
        at: u64,
        name: Option<&str>,
        reseed: Option<u64>,
        by: Access,
    ) -> Result<BranchInfo>;
    fn branches_as(&self, game: &str, viewer: Viewer) -> Result<Vec<BranchInfo>>;
    fn narrate_as(&self, game: &str, branch: &str, viewer: Viewer) -> Result<Narrative>;
    /// The story with every other line told as a variation where it parts.
    fn narrate_with_variations(
        &self,
        game: &str,
        branch: &str,
        viewer: Viewer,
    ) -> Result<Narrative>;
    /// Writes a note on a moment of a branch, as `by`.
    fn note(&self, game: &str, req: NoteRequest, by: Access) -> Result<Acted>;
    /// Names a branch at the table, as `by`.
    fn name_branch(&self, game: &str, req: NameRequest, by: Access) -> Result<Acted>;
    /// Adds one step of a seat's share to the dice, as `by`.
    fn share(&self, game: &str, req: ShareRequest, by: Access) -> Result<Acted>;
    /// Two lines side by side, as `viewer` may know them.
    fn compare(&self, game: &str, a: &str, b: &str, viewer: Viewer) -> Result<Comparison>;
    /// Refuses an export to `viewer` while a branch it would hold is in play.
    fn check_export(&self, game: &str, branch: Option<&str>, viewer: Viewer) -> Result<()>;
    /// Writes the owner's export as JSON Lines; returns the events written.
    fn export(&self, game: &str, branch: Option<&str>, out: &mut dyn Write) -> Result<u64>;
    fn import(&self, input: &mut dyn BufRead) -> Result<Imported>;
    /// Every branch of one game (or of every game), fully checked.
    fn verify(&self, game: Option<&str>) -> Result<Vec<VerifyReport>>;
    fn verify_as(&self, game: &str, viewer: Viewer) -> Result<Vec<VerifyReport>>;
    fn backup(&self, out: &mut dyn Write) -> Result<BackedUp>;
    fn restore(&self, input: &mut dyn BufRead) -> Result<Restored>;
}

impl Table for Journal {
    fn create(&self, req: NewGame) -> Result<Created> {
        Ok(Journal::create(self, req)?)
    }

    fn current_line(&self, game: &str) -> Result<String> {
        Ok(Journal::current_line(self, game)?)
    }

    fn undo(&self, game: &str) -> Result<Undone> {
        // The CLI on a local store is the owner at the table.
        Ok(Journal::undo(self, game, Access::Owner)?)
    }

    fn players(&self, game: &str) -> Result<Vec<String>> {
        let first = self.events(game, MAIN_BRANCH, 1, Some(1))?;
        match first.first().map(|e| &e.body) {
            Some(Body::GameCreated(created)) => Ok(created.players.clone()),
            _ => Ok(Vec::new()),
        }
    }

    fn title(&self, game: &str) -> Result<Option<String>> {
        let first = self.events(game, MAIN_BRANCH, 1, Some(1))?;
        match first.first().map(|e| &e.body) {
            Some(Body::GameCreated(created)) => Ok(created.title.clone()),
            _ => Ok(None),
        }
    }

    fn legal(&self, game: &str, branch: &str, seat: Option<Seat>) -> Result<Vec<LegalAction>> {
        Ok(Journal::legal(self, game, branch, seat)?)
    }

    fn is_over(&self, game: &str, branch: &str) -> Result<bool> {
        Ok(self.game_at(game, branch, None)?.is_over())
    }

    fn act(&self, game: &str, req: ActRequest) -> Result<Acted> {
        Ok(Journal::act(self, game, req)?)
    }

    fn games(&self) -> Result<Vec<GameSummary>> {
        Ok(Journal::games(self)?)
    }

    fn events_as(&self, game: &str, branch: &str, viewer: Viewer) -> Result<Vec<ShownEvent>> {
        Ok(Journal::events_as(self, game, branch, 1, None, viewer)?)
    }

    fn state(
        &self,
        game: &str,
        branch: &str,
        at: Option<u64>,
        viewer: Viewer,
    ) -> Result<StateView> {
        Ok(Journal::state(self, game, branch, at, viewer)?)
    }

    fn replay(
        &self,
        game: &str,
        branch: &str,
        to: Option<u64>,
        viewer: Viewer,
    ) -> Result<Vec<ReplayStep>> {
        Ok(Journal::replay(self, game, branch, to, viewer)?)
    }

    fn fork(
        &self,
        game: &str,
        from: &str,
        at: u64,
        name: Option<&str>,
        reseed: Option<u64>,
        by: Access,
    ) -> Result<BranchInfo> {
        Ok(Journal::fork(self, game, from, at, name, reseed, by)?)
    }

    fn branches_as(&self, game: &str, viewer: Viewer) -> Result<Vec<BranchInfo>> {
        Ok(Journal::branches_as(self, game, viewer)?)
    }

    fn narrate_as(&self, game: &str, branch: &str, viewer: Viewer) -> Result<Narrative> {
        Ok(Journal::narrate_as(self, game, branch, viewer)?)
    }

    fn narrate_with_variations(
        &self,
        game: &str,
        branch: &str,
        viewer: Viewer,
    ) -> Result<Narrative> {
        Ok(Journal::narrate_with_variations(
            self, game, branch, viewer,
        )?)
    }

    fn note(&self, game: &str, req: NoteRequest, by: Access) -> Result<Acted> {
        Ok(Journal::note(self, game, req, by)?)
    }

    fn name_branch(&self, game: &str, req: NameRequest, by: Access) -> Result<Acted> {
        Ok(Journal::name_branch(self, game, req, by)?)
    }

    fn share(&self, game: &str, req: ShareRequest, by: Access) -> Result<Acted> {
        Ok(Journal::share(self, game, req, by)?)
    }

    fn compare(&self, game: &str, a: &str, b: &str, viewer: Viewer) -> Result<Comparison> {
        Ok(Journal::compare(self, game, a, b, viewer)?)
    }

    fn check_export(&self, game: &str, branch: Option<&str>, viewer: Viewer) -> Result<()> {
        Ok(Journal::check_export(self, game, branch, viewer)?)
    }

    fn export(&self, game: &str, branch: Option<&str>, out: &mut dyn Write) -> Result<u64> {
        Ok(Journal::export(self, game, branch, out)?)
    }

    fn import(&self, input: &mut dyn BufRead) -> Result<Imported> {
        Ok(Journal::import(self, input)?)
    }

    fn verify(&self, game: Option<&str>) -> Result<Vec<VerifyReport>> {
        Ok(Journal::verify(self, game)?)
    }

    fn verify_as(&self, game: &str, viewer: Viewer) -> Result<Vec<VerifyReport>> {
        Ok(Journal::verify_as(self, game, viewer)?)
    }

    fn backup(&self, out: &mut dyn Write) -> Result<BackedUp> {
        Ok(Journal::backup(self, out)?)
    }

    fn restore(&self, input: &mut dyn BufRead) -> Result<Restored> {
        Ok(Journal::restore(self, input)?)
    }
}
