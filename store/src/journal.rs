//! The journal service: what the CLI and the HTTP API call.
//!
//! Every write goes decide-then-append: the branch is folded (from the nearest
//! snapshot), the engine decides the action against that state, and only an
//! accepted decision is appended, with the folded head as the expected seq. A
//! rejected action writes nothing.
//!
//! Cost. Writes (`act`, `act_batch`, `import`) leave a snapshot of the folded
//! state every `snapshot_every` events ([`SNAPSHOT_EVERY`] by default), so a
//! fold at any seq restores the nearest snapshot and folds at most that many
//! events; a fold that passes a missing one (after `drop_snapshots`) writes
//! it again. Long reads go `FOLD_CHUNK` (4,096) events at a time (fold, verify,
//! export) and an import is written as it is read, so memory does not grow
//! with a game's length. The last folded head of each recently used branch
//! is kept in memory behind an `Arc`: readers share it, and a writer takes it
//! out and moves it on, so the hot path never copies a game.
//!
//! Export limit. An export is one stored event per line, and a branch is
//! known to an import only by its events: a branch with no events of its own
//! is not exported, and a branch forked from it comes back as a fork of the
//! nearest ancestor that owns the fork seq (same seq, same history; only the
//! parent's name differs).

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use tabletape_engine::{
    ContentError, Deadline, DynRules, EngineError, Game, LegalAction, Narrative, PlayResult,
    Rejection, Snapshot, Viewer,
};
use tabletape_events::{Actor, Body, DiceMode, Event, GameCreated, Seat, MAIN_BRANCH};
use thiserror::Error;

use crate::diff::diff;

mod dice;
mod study;
mod transfer;
mod verify;
use crate::error::StoreError;
use crate::log::{
    breaks_lines, check_game_id, decode_event, BranchRecord, Draft, FoldStep, GameMeta, Log,
    Receipt,
};
use crate::seal::{check_shown, event_hash, ShownEvent};
pub use dice::{commitment_to, new_share, ShareRequest};
pub use study::{Comparison, Difference, LineOutcome, NameRequest, NoteRequest};

/// A snapshot is written every this many events (see the module docs).
pub const SNAPSHOT_EVERY: u64 = 1000;

/// How many times creating a game draws another random id after a clash.
const RACE_RETRIES: usize = 8;

/// The attempts of an append without an expected seq: as many as it takes,
/// since each race it loses is another writer's append going through (so
/// no such write ever answers a conflict). Once there are many, they are
/// spaced out a little, so a crowd of writers on one branch thins out.
pub(crate) fn race_attempts() -> impl Iterator<Item = u64> {
    (0u64..).inspect(|&attempt| {
        if attempt >= 8 {
            std::thread::sleep(std::time::Duration::from_micros(
                20 * attempt.min(500) + (now_ms() % 7) * 10,
            ));
        }
    })
}

/// The most games one page of a listing holds.
pub const GAMES_PAGE_MAX: usize = 200;

/// How many generated `fork-N` names a fork tries before giving up.
const FORK_NAME_TRIES: usize = 64;

/// At most this many branch heads are kept folded in memory.
const HEAD_CACHE_MAX: usize = 256;

/// Events read per batch while folding, verifying or exporting, to bound
/// memory on long games.
const FOLD_CHUNK: u64 = 4096;

/// Events an import holds in memory before writing them.
const IMPORT_CHUNK: usize = 4096;

/// Folded branch heads by (game, branch), shared by readers.
type HeadCache = HashMap<(String, String), Arc<Game>>;

/// The journal over one log. Cheap to clone; clones share the log.
#[derive(Clone)]
pub struct Journal {
    log: Arc<dyn Log>,
    /// The last folded head of recently used branches: (game, branch) -> game.
    /// Events never change once written, so a cached fold at seq n stays right
    /// and only needs the events after n.
    heads: Arc<Mutex<HeadCache>>,
    /// The creation of recently used games (without their content pack,
    /// which a restore does not need), so a restore from a snapshot need not
    /// read and decode event 1. A committed game's creation never changes.
    creations: Arc<Mutex<HashMap<String, Arc<GameCreated>>>>,
    /// Each kind's bundled content pack as the kind reads it, worked out
    /// once: a new game with the bundled pack copies it instead of parsing
    /// and checking the same 30 KB again.
    bundled: Arc<Mutex<HashMap<&'static str, Value>>>,
    /// Held by an import from its first line to its commit or clean-up, so
    /// two imports of one id never interleave: a failed one's clean-up
    /// could otherwise remove what the other staged.
    importing: Arc<Mutex<()>>,
    snapshot_every: u64,
}

/// A request to start a game.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct NewGame {
    pub kind: String,
    pub players: Vec<String>,
    /// A random seed is drawn when none is given.
    #[serde(default)]
    pub seed: Option<u64>,
    #[serde(default)]
    pub dice: DiceMode,
    #[serde(default)]
    pub options: BTreeMap<String, Value>,
    /// A table's own content pack; the kind's bundled pack when `None`.
    #[serde(default)]
    pub pack: Option<PackSource>,
    #[serde(default)]
    pub public: bool,
    /// The table's name for the game: one line of 1 to 120 characters.
    #[serde(default)]
    pub title: Option<String>,
    /// The game id the table chooses (`duel`): 1 to 64 ASCII letters,
    /// digits, `-`, `_` or `.`; refused when taken. Drawn at random
    /// (`g-3f9a1c2e`) when left out.
    #[serde(default)]
    pub id: Option<String>,
}

/// A table's own content pack and the file it came from (named in errors).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PackSource {
    pub file: String,
    pub json: Value,
}

/// A new game: its id, its seed and the tokens that open it. Tokens are shown
/// only here; the store keeps their hashes.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Created {
    pub game: String,
    pub seed: u64,
    pub owner_token: String,
    pub seats: Vec<SeatToken>,
    pub seq: u64,
    pub narration: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SeatToken {
    #[schema(value_type = u32)]
    pub seat: Seat,
    pub player: String,
    pub token: String,
}

/// One action to record.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ActRequest {
    pub branch: String,
    /// Who submits: the owner, or a seat's token holder.
    pub actor: Actor,
    /// The seat acting; `None` when the owner acts for the table.
    #[serde(default)]
    pub by: Option<Seat>,
    pub action: Value,
    #[serde(default)]
    pub expect_seq: Option<u64>,
    #[serde(default)]
    pub idempotency_key: Option<String>,
}

/// The receipt of a recorded action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Acted {
    pub seq: u64,
    pub hash: String,
    pub narration: Vec<String>,
    /// Whether the game ended with this event.
    pub over: bool,
    /// True when an idempotency key matched an earlier append: nothing new was written.
    pub retried: bool,
}

/// Who holds a token for a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    Owner,
    Seat(Seat),
    /// No token, on a public game.
    Public,
}

impl Access {
    /// What this holder may see.
    pub fn viewer(self) -> Viewer {
        match self {
            Access::Owner => Viewer::Owner,
            Access::Seat(s) => Viewer::Seat(s),
            Access::Public => Viewer::Public,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct GameSummary {
    pub game: String,
    /// The table's name for the game, if it was given one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub kind: String,
    pub players: Vec<String>,
    pub created_at_ms: u64,
    /// The head seq of `main`.
    pub seq: u64,
    pub branches: usize,
    /// Whether `main` has ended.
    pub over: bool,
    pub public: bool,
    /// The game's seed, for a viewer who may see it (the owner, or anyone
    /// once `main` is over).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The commitment to the seed made at creation (see `seal`): once the
    /// seed is out, anyone can check it is the seed the game began with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed_commitment: Option<String>,
    /// The current line: the branch ordinary play continues on.
    #[serde(default = "main_branch")]
    pub current: String,
    /// Who made the dice of the line in play (left out of listings, which
    /// fold nothing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<DiceReport>,
}

fn main_branch() -> String {
    MAIN_BRANCH.to_string()
}

/// Who made a line's dice, and where the seats' shares stand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct DiceReport {
    pub made_by: tabletape_engine::dice::DiceMakers,
    /// Whether seats may still add their shares (no action yet).
    pub open: bool,
    /// The seats that have committed to a share, and those that have
    /// revealed it.
    #[schema(value_type = Vec<u32>)]
    pub committed: Vec<Seat>,
    #[schema(value_type = Vec<u32>)]
    pub revealed: Vec<Seat>,
    /// The seq of the share that completed the key, when every seat's is in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keyed_at: Option<u64>,
}

impl DiceReport {
    pub fn of(dice: &tabletape_engine::dice::Dice) -> DiceReport {
        let seats = |has: fn(&tabletape_engine::dice::Share) -> bool| {
            dice.shares
                .iter()
                .enumerate()
                .filter(|(_, s)| has(s))
                .map(|(i, _)| i as Seat)
                .collect()
        };
        DiceReport {
            made_by: dice.makers(),
            open: dice.open,
            committed: seats(|s| s.commitment.is_some()),
            revealed: seats(|s| s.contribution.is_some()),
            keyed_at: dice.keyed_at,
        }
    }
}

/// The heads events are judged on, one per branch: an event is shown as the
/// branch it belongs to shows it (see [`Journal::events_as`]).
#[derive(Default)]
struct Judges {
    heads: Vec<(String, Arc<Game>)>,
}

impl Judges {
    fn head(&mut self, journal: &Journal, game: &str, branch: &str) -> Result<&Game, JournalError> {
        let i = match self.heads.iter().position(|(b, _)| b == branch) {
            Some(i) => i,
            None => {
                self.heads
                    .push((branch.to_string(), journal.fold(game, branch, None)?));
                self.heads.len() - 1
            }
        };
        Ok(&self.heads[i].1)
    }
}

/// Which games a listing may show.
#[derive(Debug, Clone, Copy)]
pub enum Listing<'a> {
    /// Every game (the store's admin, or its owner at the terminal).
    Everything,
    /// The public games and those the token (if any) opens.
    For { token: Option<&'a str> },
}

/// A page of a listing of games.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct GamesPage {
    pub games: Vec<GameSummary>,
    /// The id to list after for the next page; `None` on the last page.
    pub next: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct StateView {
    pub game: String,
    pub branch: String,
    pub seq: u64,
    pub kind: String,
    pub over: bool,
    pub chapter: String,
    pub view: Value,
    pub text: String,
    /// A time limit running at this seq (London Dread's planning phase).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<Deadline>,
    /// How the game ended, once it is over: winners and scores.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<PlayResult>,
}

/// What a take-back did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Undone {
    pub game: String,
    /// The line play left, now marked taken back.
    pub taken_back: String,
    /// The seq taken back.
    pub seq: u64,
    /// The new current line, forked just before it.
    pub current: String,
    pub head_seq: u64,
}

/// One event as a live follower of a game receives it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Followed {
    pub seq: u64,
    /// The chapter the event falls into.
    pub chapter: String,
    pub narration: Vec<String>,
    /// Whether the game is over after it.
    pub over: bool,
    /// The time limit running after it, so every follower counts down to
    /// the same moment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<Deadline>,
    pub event: ShownEvent,
}

/// One event of a replay and what it changed.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ReplayStep {
    pub seq: u64,
    #[schema(value_type = crate::schema_doc::ActorSchema)]
    pub actor: Actor,
    pub recorded_at_ms: u64,
    /// The chapter the event falls into.
    pub chapter: String,
    /// The action as submitted; `None` for the creation and reseeds.
    pub action: Option<Value>,
    pub narration: Vec<String>,
    /// Readable differences of the state view before and after
    /// (`seats[1].body_points: 10 -> 7`).
    pub changes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct BranchInfo {
    pub name: String,
    pub parent: Option<String>,
    pub fork_seq: Option<u64>,
    pub head_seq: u64,
    /// Whether the branch opens with a reseed (its chance is its own).
    #[serde(default)]
    pub reseeded: bool,
    /// The reseed's seed, for a viewer who may see it.
    pub reseed: Option<u64>,
    pub created_at_ms: u64,
    /// Whether play left this branch by taking back its last event.
    #[serde(default)]
    pub taken_back: bool,
    /// The branch's name at the table and what it is about, if named.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The notes and bookmarks written on this branch's own events, as
    /// the reader may see them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<tabletape_engine::notes::NoteMark>,
}

#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Imported {
    pub game: String,
    pub events: u64,
    pub branches: Vec<String>,
    /// Fresh tokens for the imported game; empty when a restore kept the
    /// game's own (see `backup`).
    pub owner_token: String,
    pub seats: Vec<SeatToken>,
}

/// The outcome of verifying one branch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct VerifyReport {
    pub game: String,
    pub branch: String,
    /// Events checked (the branch's whole history, or up to the problem).
    pub events: u64,
    pub problem: Option<Problem>,
    /// Which check was made.
    #[serde(default)]
    pub check: Check,
    /// For a game recorded under an earlier version of its kind's rules:
    /// the events today's rules would decide differently. They are not
    /// faults: the stored facts are the record, and fold as they are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub earlier_rules: Option<EarlierRules>,
}

/// What `verify` found of a game recorded under earlier rules.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct EarlierRules {
    /// The rules version the game was recorded under.
    pub recorded: u32,
    /// The version this build decides by.
    pub today: u32,
    /// Each event today's rules would decide differently, and how.
    pub decided_differently: Vec<Problem>,
}

/// One branch's check: how many events held, the first fault, and what
/// earlier rules account for.
struct BranchCheck {
    events: u64,
    problem: Option<Problem>,
    earlier_rules: Option<EarlierRules>,
}

/// How far a verification could go for its viewer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Check {
    /// Every hash and link, and every action re-decided to the same facts
    /// and draws: the owner's check, and anyone's once the game is over.
    #[default]
    Full,
    /// The chain a seat or the public sees: every part it may see against
    /// its commitment, every hash, every link.
    VisibleChain,
}

/// The first bad event of a branch and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Problem {
    pub seq: u64,
    pub what: String,
}

/// Errors of the journal, by what the caller should do about them.
#[derive(Debug, Error)]
pub enum JournalError {
    /// Against the rules (CLI exit 1, HTTP 422). Nothing was written.
    #[error("rejected: {0}")]
    Rejected(Rejection),
    /// The expected seq is stale (CLI exit 1, HTTP 409).
    #[error("conflict: expected seq {expected} but the head is {head}")]
    Conflict { expected: u64, head: u64 },
    /// Unknown game, branch or seq (CLI exit 2, HTTP 404).
    #[error("not found: {0}")]
    NotFound(String),
    /// Malformed input, unknown kind, bad pack or options (CLI exit 2, HTTP 400).
    #[error("bad input: {0}")]
    BadInput(String),
    /// Token missing or wrong (HTTP 401/403).
    #[error("forbidden: {0}")]
    Forbidden(String),
    #[error("store: {0}")]
    Store(StoreError),
    #[error("engine: {0}")]
    Engine(EngineError),
}

impl JournalError {
    /// A short stable code for machine output (`{"error": code}`).
    pub fn code(&self) -> &'static str {
        match self {
            JournalError::Rejected(_) => "rejected",
            JournalError::Conflict { .. } => "conflict",
            JournalError::NotFound(_) => "not_found",
            JournalError::BadInput(_) => "bad_input",
            JournalError::Forbidden(_) => "forbidden",
            JournalError::Store(_) => "store",
            JournalError::Engine(_) => "engine",
        }
    }
}

impl From<StoreError> for JournalError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Conflict { expected, head } => JournalError::Conflict { expected, head },
            e @ (StoreError::UnknownGame(_)
            | StoreError::UnknownBranch { .. }
            | StoreError::NoSuchSeq { .. }) => JournalError::NotFound(e.to_string()),
            e @ (StoreError::GameExists(_)
            | StoreError::BranchExists { .. }
            | StoreError::BadName { .. }) => JournalError::BadInput(e.to_string()),
            e => JournalError::Store(e),
        }
    }
}

impl From<EngineError> for JournalError {
    fn from(e: EngineError) -> Self {
        JournalError::Engine(e)
    }
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

fn random<const N: usize>() -> Result<[u8; N], JournalError> {
    let mut buf = [0u8; N];
    getrandom::fill(&mut buf).map_err(|e| StoreError::Random(e.to_string()))?;
    Ok(buf)
}

fn random_seed() -> Result<u64, JournalError> {
    Ok(u64::from_le_bytes(random::<8>()?))
}

/// A fresh access token: 32 random bytes, hex.
fn new_token() -> Result<String, JournalError> {
    Ok(hex::encode(random::<32>()?))
}

/// Tokens are stored only as this hash.
fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// "Ann", "Ann and Bo", "Ann, Bo and Cy".
fn and_list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The narration of a game's creation (the engine narrates only actions).
/// The seed is told only to a viewer who may see it (the owner, or anyone
/// once the game is over); others are told that it is sealed.
fn creation_lines(created: &GameCreated, viewer: Viewer) -> Vec<String> {
    let title = tabletape_engine::kind(&created.kind)
        .map_or_else(|| created.kind.clone(), |k| k.info().title.to_string());
    let draws =
        tabletape_engine::kind(&created.kind).is_none_or(|k| k.draws_chance(&created.options));
    let dice = match created.dice {
        _ if !draws => "",
        DiceMode::Digital => "; Tabletape rolls the dice",
        DiceMode::Physical => "; the table rolls its own dice",
    };
    let seed = if viewer == Viewer::Owner {
        format!("seed {}", created.seed)
    } else {
        "the seed is sealed until the game ends".to_string()
    };
    vec![format!(
        "A game of {title} begins for {} ({seed}{dice}).",
        and_list(&created.players),
    )]
}

fn created_of(event: &Event) -> Result<&GameCreated, JournalError> {
    match &event.body {
        Body::GameCreated(c) => Ok(c),
        _ => Err(JournalError::Store(StoreError::BadEvent {
            game: event.game.clone(),
            branch: event.branch.clone(),
            seq: event.seq,
            why: "the first event of a game is not its creation".into(),
        })),
    }
}

fn branch_info(r: BranchRecord) -> BranchInfo {
    BranchInfo {
        name: r.name,
        parent: r.parent,
        fork_seq: r.fork_seq,
        head_seq: r.head_seq,
        reseeded: r.reseed.is_some(),
        reseed: r.reseed,
        created_at_ms: r.created_at_ms,
        taken_back: r.taken_back,
        title: None,
        description: None,
        notes: Vec::new(),
    }
}

/// Refuses an action that still holds a placeholder from `legal`
/// (`"<avatar of Bo>"`): the table meant to put its own words there.
fn check_no_placeholder(action: &Value) -> Result<(), JournalError> {
    match tabletape_engine::placeholders(action).into_iter().next() {
        None => Ok(()),
        Some((path, placeholder)) => Err(JournalError::Rejected(Rejection::new(
            "action.placeholder",
            format!(
                "`{path}` still holds the placeholder {placeholder:?} from `legal`: put the table's own words or value there"
            ),
        ))),
    }
}

/// The longest idempotency key, in bytes.
pub const IDEMPOTENCY_KEY_MAX: usize = 200;

/// An idempotency key is 1 to 200 visible ASCII characters, wherever it
/// comes from (a header or the request body): an empty one would make every
/// later keyed action answer the first one's receipt.
fn check_idempotency_key(key: &str) -> Result<(), JournalError> {
    if key.is_empty()
        || key.len() > IDEMPOTENCY_KEY_MAX
        || !key.bytes().all(|b| b.is_ascii_graphic())
    {
        return Err(JournalError::BadInput(format!(
            "idempotency_key: 1 to {IDEMPOTENCY_KEY_MAX} visible ASCII characters (no spaces), not {:?}",
            key.chars().take(40).collect::<String>()
        )));
    }
    Ok(())
}

/// The longest player name, in characters.
pub const PLAYER_NAME_MAX: usize = 64;

/// Checks the players' names: each is shown in every narration and state,
/// so none may be empty, overlong, or hold a control character or a line
/// break (which would split a line of the story or move a terminal's cursor).
fn check_players(players: &[String]) -> Result<(), String> {
    for (i, name) in players.iter().enumerate() {
        let why = if name.trim().is_empty() {
            "is empty"
        } else if name.chars().count() > PLAYER_NAME_MAX {
            "is longer than 64 characters"
        } else if name.chars().any(breaks_lines) {
            "contains a control character or a line break"
        } else {
            continue;
        };
        return Err(format!("players[{i}]: the name of player {} {why}", i + 1));
    }
    Ok(())
}

/// The longest title a game may have, in characters.
pub const TITLE_MAX: usize = 120;

/// A game's title as given, trimmed: one line of 1 to [`TITLE_MAX`]
/// characters. (`None` stays `None`.)
fn check_title(title: Option<String>) -> Result<Option<String>, String> {
    let Some(title) = title else {
        return Ok(None);
    };
    let title = title.trim().to_string();
    let why = if title.is_empty() {
        "is empty"
    } else if title.chars().count() > TITLE_MAX {
        "is longer than 120 characters"
    } else if title.chars().any(breaks_lines) {
        "contains a control character or a line break"
    } else {
        return Ok(Some(title));
    };
    Err(format!("title: the game's title {why}"))
}

/// The seat an action is decided for: a seat's token holder acts only as
/// that seat; the owner acts as any seat or for the whole table.
/// Refuses play on a line that was taken back: it shares its dice and
/// hidden cards to come with the line that replaced it, so playing on there
/// would turn up that line's future.
fn check_playable(record: &BranchRecord) -> Result<(), JournalError> {
    if !record.taken_back {
        return Ok(());
    }
    Err(JournalError::Rejected(Rejection::new(
        "line.taken_back",
        format!(
            "line `{}` was taken back and is closed to play (it shares the dice to come with the line that replaced it): fork it to play it another way",
            record.name
        ),
    )))
}

/// The seat an actor is; `None` for the owner.
fn seat_of(actor: Actor) -> Option<Seat> {
    match actor {
        Actor::Seat(s) => Some(s),
        Actor::Owner => None,
    }
}

fn acting_seat(actor: Actor, by: Option<Seat>) -> Result<Option<Seat>, JournalError> {
    match (actor, by) {
        (Actor::Seat(s), Some(b)) if b != s => Err(JournalError::Forbidden(format!(
            "seat {s} cannot act as seat {b}"
        ))),
        (Actor::Seat(s), _) => Ok(Some(s)),
        (Actor::Owner, by) => Ok(by),
    }
}

pub(crate) fn io_error(what: &str, source: std::io::Error) -> JournalError {
    JournalError::Store(StoreError::Io {
        path: what.into(),
        source,
    })
}

impl Journal {
    /// Opens (or creates) the sled store at `path`.
    pub fn open(path: &Path) -> Result<Journal, JournalError> {
        let log = crate::log::SledLog::open(path)?;
        Ok(Journal::with_log(Arc::new(log)))
    }

    /// Opens (or creates) the store at `at`: a sled directory or a
    /// PostgreSQL database.
    pub fn open_at(at: &crate::Location) -> Result<Journal, JournalError> {
        Ok(Journal::with_log(at.open_log()?))
    }

    /// A journal over any log backend.
    pub fn with_log(log: Arc<dyn Log>) -> Journal {
        Journal {
            log,
            heads: Arc::default(),
            creations: Arc::default(),
            bundled: Arc::default(),
            importing: Arc::default(),
            snapshot_every: SNAPSHOT_EVERY,
        }
    }

    /// Writes a snapshot every `n` events instead of every
    /// [`SNAPSHOT_EVERY`] (tests use small values to exercise the cache).
    pub fn with_snapshot_every(mut self, n: u64) -> Journal {
        self.snapshot_every = n.max(1);
        self
    }

    /// The log underneath.
    pub fn log(&self) -> &Arc<dyn Log> {
        &self.log
    }

    fn meta(&self, game: &str) -> Result<GameMeta, JournalError> {
        self.log
            .game(game)?
            .ok_or_else(|| JournalError::NotFound(format!("no game `{game}`")))
    }

    fn record(&self, game: &str, branch: &str) -> Result<BranchRecord, JournalError> {
        self.meta(game)?;
        self.branch_record(game, branch)
    }

    /// [`Journal::record`] for a caller that has read the game's record.
    fn branch_record(&self, game: &str, branch: &str) -> Result<BranchRecord, JournalError> {
        self.log.branch(game, branch)?.ok_or_else(|| {
            JournalError::NotFound(format!("game `{game}` has no branch `{branch}`"))
        })
    }

    fn check_seat(meta: &GameMeta, seat: Option<Seat>) -> Result<(), JournalError> {
        match seat {
            Some(s) if s as usize >= meta.players.len() => Err(JournalError::BadInput(format!(
                "seat {s} is not at this table: game `{}` has seats 0 to {}",
                meta.game,
                meta.players.len() - 1
            ))),
            _ => Ok(()),
        }
    }

    fn cache_key(game: &str, branch: &str) -> (String, String) {
        (game.to_string(), branch.to_string())
    }

    /// The cached fold of a branch, shared (no copy is made).
    fn cache_get(&self, game: &str, branch: &str) -> Option<Arc<Game>> {
        let heads = self.heads.lock().unwrap_or_else(PoisonError::into_inner);
        heads.get(&Self::cache_key(game, branch)).cloned()
    }

    /// Takes the cached fold of a branch out of the cache if it is at or
    /// before `at`, for a caller that will move it on: unshared, it is moved
    /// rather than copied. A later fold stays cached for others.
    fn cache_take(&self, game: &str, branch: &str, at: u64) -> Option<Arc<Game>> {
        let key = Self::cache_key(game, branch);
        let mut heads = self.heads.lock().unwrap_or_else(PoisonError::into_inner);
        if heads.get(&key)?.seq() > at {
            return None;
        }
        heads.remove(&key)
    }

    /// Caches a fold of a branch unless a later one is cached already.
    fn cache_put(&self, game: &str, branch: &str, folded: Arc<Game>) {
        let key = Self::cache_key(game, branch);
        let mut heads = self.heads.lock().unwrap_or_else(PoisonError::into_inner);
        match heads.get(&key) {
            Some(cached) if cached.seq() > folded.seq() => return,
            Some(_) => {}
            None if heads.len() >= HEAD_CACHE_MAX => heads.clear(),
            None => {}
        }
        heads.insert(key, folded);
    }

    /// The creation of a committed game, from the cache or its event 1.
    fn creation(&self, game: &str, branch: &str) -> Result<Arc<GameCreated>, JournalError> {
        let lock = || {
            self.creations
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
        };
        if let Some(created) = lock().get(game) {
            return Ok(Arc::clone(created));
        }
        let first = self.log.read(game, branch, 1, Some(1))?;
        let created = Arc::new(tabletape_engine::without_pack(created_of(&first[0])?));
        let mut creations = lock();
        if creations.len() >= HEAD_CACHE_MAX {
            creations.clear();
        }
        creations.insert(game.to_string(), Arc::clone(&created));
        Ok(created)
    }

    /// Caches `folded` as a snapshot of the branch at its seq. A snapshot is
    /// only a cache, so failing to write one is logged, not returned.
    fn keep_snapshot(&self, game: &str, branch: &str, snapshot: &Snapshot) {
        if let Err(e) = self.log.put_snapshot(game, branch, snapshot) {
            tracing::warn!(game, branch, seq = snapshot.seq, "snapshot not cached: {e}");
        }
    }

    /// Whether a snapshot belongs at `seq`: every `snapshot_every` events,
    /// so a fold at any seq starts at most that many events back.
    fn snapshot_due(&self, seq: u64) -> bool {
        seq.is_multiple_of(self.snapshot_every)
    }

    /// Folds a branch up to `at` (its head when `None`), starting from the
    /// closest of: the cached head, the nearest snapshot, the creation. The
    /// events are read `FOLD_CHUNK` at a time, so memory stays bounded
    /// however long the history. A fold of the head is cached (shared).
    fn fold(&self, game: &str, branch: &str, at: Option<u64>) -> Result<Arc<Game>, JournalError> {
        let (folded, head) = self.fold_from(game, branch, None, at, false)?;
        if folded.seq() == head {
            self.cache_put(game, branch, Arc::clone(&folded));
        }
        Ok(folded)
    }

    /// [`Journal::fold`] for a caller that will change the game (a writer, a
    /// replay): the cached head is taken, not shared, so it is not copied
    /// unless some reader still holds it. Nothing is cached.
    fn fold_owned(&self, game: &str, branch: &str, at: Option<u64>) -> Result<Game, JournalError> {
        let (folded, _) = self.fold_from(game, branch, None, at, true)?;
        Ok(Arc::try_unwrap(folded).unwrap_or_else(|shared| Game::clone(&shared)))
    }

    /// [`Journal::fold_owned`] of the head, for a writer that has just read
    /// the branch's record (on a networked store, one read fewer).
    fn fold_head_owned(&self, game: &str, record: BranchRecord) -> Result<Game, JournalError> {
        let branch = record.name.clone();
        let (folded, _) = self.fold_from(game, &branch, Some(record), None, true)?;
        Ok(Arc::try_unwrap(folded).unwrap_or_else(|shared| Game::clone(&shared)))
    }

    /// The fold behind [`Journal::fold`] and [`Journal::fold_owned`]; also
    /// returns the branch's head seq.
    fn fold_from(
        &self,
        game: &str,
        branch: &str,
        record: Option<BranchRecord>,
        at: Option<u64>,
        take: bool,
    ) -> Result<(Arc<Game>, u64), JournalError> {
        let record = match record {
            Some(record) => record,
            None => self.record(game, branch)?,
        };
        let head = record.head_seq;
        let at = at.unwrap_or(head);
        if at == 0 || at > head {
            return Err(JournalError::NotFound(format!(
                "branch `{branch}` of game `{game}` has no seq {at}: its events run from 1 to {head}"
            )));
        }
        let cached = if take {
            self.cache_take(game, branch, at)
        } else {
            self.cache_get(game, branch)
        };
        let cached = cached.filter(|g| g.seq() <= at);
        if let Some(g) = cached.as_ref().filter(|g| g.seq() == at) {
            return Ok((Arc::clone(g), head));
        }
        let best = cached.as_ref().map_or(0, |g| g.seq());
        let mut restored = None;
        if let Some(snapshot) = self.log.snapshot_at_or_before(game, branch, at)? {
            if snapshot.seq > best {
                match Game::resume(self.creation(game, branch)?, &snapshot) {
                    Ok(g) => restored = Some(g),
                    // A snapshot is only a cache: one this build cannot
                    // read is skipped and the events are folded instead.
                    Err(e) => {
                        tracing::warn!(game, branch, seq = snapshot.seq, "unusable snapshot: {e}")
                    }
                }
            }
        }
        let mut folded = match (restored, cached) {
            (Some(g), _) => g,
            (None, Some(g)) => Arc::try_unwrap(g).unwrap_or_else(|shared| Game::clone(&shared)),
            (None, None) => Game::from_first(&self.log.read(game, branch, 1, Some(1))?[0])?,
        };
        while folded.seq() < at {
            let upto = at.min(folded.seq() + FOLD_CHUNK);
            for step in self
                .log
                .read_steps(game, branch, folded.seq() + 1, Some(upto))?
            {
                let seq = match step {
                    FoldStep::Facts { seq, actor, facts } => {
                        folded.apply_facts(seq, actor, facts.get())?;
                        seq
                    }
                    FoldStep::Event(event) => {
                        folded.apply(&event)?;
                        event.seq
                    }
                };
                if self.snapshot_due(seq) {
                    self.keep_snapshot(game, branch, &folded.snapshot());
                }
            }
        }
        Ok((Arc::new(folded), head))
    }

    /// The receipts of an earlier append, rebuilt from the log.
    fn replayed_receipt(
        &self,
        game: &str,
        branch: &str,
        receipt: &Receipt,
        viewer: Viewer,
    ) -> Result<Vec<Acted>, JournalError> {
        let mut folded = self.fold_owned(game, branch, Some(receipt.first_seq - 1))?;
        let events = self
            .log
            .read(game, branch, receipt.first_seq, Some(receipt.last_seq()))?;
        let mut acted = Vec::with_capacity(events.len());
        for event in &events {
            let narration = folded.apply_as(event, viewer)?;
            acted.push(Acted {
                seq: event.seq,
                hash: event.hash.clone(),
                narration,
                over: folded.is_over(),
                retried: true,
            });
        }
        Ok(acted)
    }

    /// The kind's bundled pack as it reads it (see `bundled`).
    fn bundled_pack(&self, kind: &'static dyn DynRules) -> Result<Value, ContentError> {
        let name = kind.info().kind;
        let bundled = || self.bundled.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(pack) = bundled().get(name) {
            return Ok(pack.clone());
        }
        let pack = kind.canonical_pack(&kind.default_pack(), "<bundled>")?;
        bundled().insert(name, pack.clone());
        Ok(pack)
    }

    /// Starts a game: checks kind, options, pack and players by laying the
    /// game out before anything is written, then writes its creation at seq 1.
    pub fn create(&self, req: NewGame) -> Result<Created, JournalError> {
        let kind = tabletape_engine::kind(&req.kind).ok_or_else(|| {
            JournalError::BadInput(EngineError::UnknownKind(req.kind.clone()).to_string())
        })?;
        check_players(&req.players).map_err(JournalError::BadInput)?;
        // What is stored is the kind's own reading of the pack and options,
        // written back: exactly what every later read gets.
        let pack = match &req.pack {
            Some(source) => kind.canonical_pack(&source.json, &source.file),
            None => self.bundled_pack(kind),
        }
        .map_err(|e| JournalError::BadInput(format!("content pack {e}")))?;
        let options = kind
            .canonical_options(&req.options)
            .map_err(|e| JournalError::BadInput(e.to_string()))?;
        let seed = match req.seed {
            Some(seed) => seed,
            None => random_seed()?,
        };
        let created = GameCreated {
            title: check_title(req.title).map_err(JournalError::BadInput)?,
            kind: req.kind,
            players: req.players,
            seed,
            dice: req.dice,
            options,
            pack,
            public: req.public,
            rules_version: Some(kind.rules_version()),
            chance_version: Some(tabletape_engine::dice::CHANCE_VERSION),
        };
        let started = Game::start(&created).map_err(|e| JournalError::BadInput(e.to_string()))?;
        let owner_token = new_token()?;
        let mut seats = Vec::with_capacity(created.players.len());
        for (seat, player) in created.players.iter().enumerate() {
            seats.push(SeatToken {
                seat: seat as Seat,
                player: player.clone(),
                token: new_token()?,
            });
        }
        let narration = creation_lines(&created, Viewer::Owner);
        let created_at_ms = now_ms();
        let draft = Draft::new(
            created_at_ms,
            Actor::Owner,
            Body::GameCreated(created.clone()),
        )?;
        if let Some(id) = &req.id {
            check_game_id(id).map_err(|e| JournalError::BadInput(e.to_string()))?;
        }
        for _ in 0..RACE_RETRIES {
            let game = match &req.id {
                Some(id) => id.clone(),
                None => format!("g-{}", hex::encode(random::<4>()?)),
            };
            let meta = GameMeta {
                title: created.title.clone(),
                game: game.clone(),
                kind: created.kind.clone(),
                players: created.players.clone(),
                created_at_ms,
                public: created.public,
                owner_token_hash: token_hash(&owner_token),
                seat_token_hashes: seats.iter().map(|s| token_hash(&s.token)).collect(),
                over: false,
                current: None,
            };
            match self.log.create_game(&meta, draft.clone()) {
                Err(StoreError::GameExists(_)) if req.id.is_some() => {
                    return Err(JournalError::BadInput(format!(
                        "game id `{game}` is taken: choose another, or leave `id` out for a random one"
                    )))
                }
                // Ids are random: a taken one is simply drawn again.
                Err(StoreError::GameExists(_)) => continue,
                Err(e) => return Err(e.into()),
                Ok(_) => {
                    self.cache_put(&game, MAIN_BRANCH, Arc::new(started));
                    return Ok(Created {
                        game,
                        seed,
                        owner_token,
                        seats,
                        seq: 1,
                        narration,
                    });
                }
            }
        }
        Err(JournalError::Store(StoreError::Random(
            "could not draw an unused game id".into(),
        )))
    }

    /// Records one action: decides it against the folded branch and appends
    /// it. A rejection writes nothing; a known idempotency key returns the
    /// original receipt with `retried` set.
    pub fn act(&self, game: &str, req: ActRequest) -> Result<Acted, JournalError> {
        let branch = req.branch.as_str();
        let meta = self.meta(game)?;
        // Read once here and folded from below: no second read of the head.
        let mut record = Some(self.branch_record(game, branch)?);
        check_playable(record.as_ref().expect("just read"))?;
        let by = acting_seat(req.actor, req.by)?;
        Self::check_seat(&meta, by)?;
        check_no_placeholder(&req.action)?;
        if let Some(key) = &req.idempotency_key {
            check_idempotency_key(key)?;
        }
        // A seat acting reads the narration as that seat may know it.
        let viewer = by.map_or(Viewer::Owner, Viewer::Seat);
        let key = req.idempotency_key.as_deref();
        if let Some(key) = key {
            if let Some(receipt) = self.log.receipt(game, branch, key)? {
                self.check_retry(game, branch, key, &receipt, &req)?;
                return self.last_acted(game, branch, &receipt, viewer);
            }
        }
        let actor = by.map_or(req.actor, Actor::Seat);
        let mut lost_race = None;
        for _ in race_attempts() {
            let mut folded = match record.take() {
                Some(record) => self.fold_head_owned(game, record)?,
                None => self.fold_owned(game, branch, None)?,
            };
            let head = folded.seq();
            if let Some(expected) = req.expect_seq {
                if expected != head {
                    self.cache_put(game, branch, Arc::new(folded));
                    return Err(JournalError::Conflict { expected, head });
                }
            }
            let now = now_ms();
            let decided = folded
                .decide_at(by, &req.action, viewer, now)
                .map_err(JournalError::Rejected);
            let decision = match decided {
                Ok(decision) => decision,
                Err(rejected) => {
                    // Deciding changed nothing: the fold is still the head's.
                    self.cache_put(game, branch, Arc::new(folded));
                    return Err(rejected);
                }
            };
            let draft = Draft::new(now, actor, Body::ActionAccepted(decision.body))?;
            match self.append_counted(game, branch, head, key, vec![draft]) {
                Ok(appended) if appended.receipt.retried => {
                    let key = key.expect("only a keyed append is retried");
                    self.check_retry(game, branch, key, &appended.receipt, &req)?;
                    return self.last_acted(game, branch, &appended.receipt, viewer);
                }
                Ok(appended) => {
                    let event = &appended.events[0];
                    folded.accept(decision.next)?;
                    if self.snapshot_due(event.seq) {
                        self.keep_snapshot(game, branch, &folded.snapshot());
                    }
                    let over = folded.is_over();
                    self.note_over(game, branch, over);
                    self.cache_put(game, branch, Arc::new(folded));
                    return Ok(Acted {
                        seq: event.seq,
                        hash: event.hash.clone(),
                        narration: decision.narration,
                        over,
                        retried: false,
                    });
                }
                Err(StoreError::Conflict { expected, head }) if req.expect_seq.is_none() => {
                    // Still a right fold at its seq: the retry folds on from it.
                    self.cache_put(game, branch, Arc::new(folded));
                    lost_race = Some(JournalError::Conflict { expected, head });
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(lost_race.expect("the loop ran at least once"))
    }

    /// Appends on `head`, counting for the operator's metrics what was
    /// written and each race lost to another writer.
    fn append_counted(
        &self,
        game: &str,
        branch: &str,
        head: u64,
        key: Option<&str>,
        drafts: Vec<Draft>,
    ) -> Result<crate::Appended, StoreError> {
        let appended = self.log.append(game, branch, Some(head), key, drafts);
        match &appended {
            Ok(a) if !a.receipt.retried => {
                metrics::counter!("tabletape_events_appended_total")
                    .increment(a.events.len() as u64);
            }
            Err(StoreError::Conflict { .. }) => {
                metrics::counter!("tabletape_append_conflicts_total").increment(1);
            }
            _ => {}
        }
        appended
    }

    /// How many branch folds are cached (a gauge for the operator).
    pub fn cached_folds(&self) -> usize {
        self.heads
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Refuses a request that reuses an idempotency key for something else:
    /// a retry must be the same action by the same actor, or answering it
    /// with the first receipt would silently drop it.
    fn check_retry(
        &self,
        game: &str,
        branch: &str,
        key: &str,
        receipt: &Receipt,
        req: &ActRequest,
    ) -> Result<(), JournalError> {
        let stored = self
            .log
            .read(game, branch, receipt.first_seq, Some(receipt.first_seq))?;
        // Actions are stored in their canonical form; compare in that form.
        let asked = tabletape_engine::kind(&self.meta(game)?.kind)
            .and_then(|k| k.canonical_action(&req.action).ok());
        let same = stored.first().is_some_and(|e| {
            let actor = req.by.map_or(req.actor, Actor::Seat);
            e.actor == actor
                && matches!(&e.body, Body::ActionAccepted(a) if Some(&a.action) == asked.as_ref())
        });
        if same {
            Ok(())
        } else {
            Err(JournalError::Rejected(Rejection::new(
                "idempotency.key_reused",
                format!(
                    "idempotency key `{key}` was already used for another request (seq {}); use a new key for a new action",
                    receipt.first_seq
                ),
            )))
        }
    }

    fn last_acted(
        &self,
        game: &str,
        branch: &str,
        receipt: &Receipt,
        viewer: Viewer,
    ) -> Result<Acted, JournalError> {
        let mut acted = self.replayed_receipt(game, branch, receipt, viewer)?;
        Ok(acted.pop().expect("a receipt lists at least one event"))
    }

    /// Decides every action in order against the evolving state and appends them all atomically
    /// (all or nothing); the receipt lists each event's seq and narration.
    pub fn act_batch(
        &self,
        game: &str,
        branch: &str,
        actor: Actor,
        by: Option<Seat>,
        actions: Vec<Value>,
        expect_seq: Option<u64>,
    ) -> Result<Vec<Acted>, JournalError> {
        if actions.is_empty() {
            return Err(JournalError::BadInput(
                "a batch needs at least one action".into(),
            ));
        }
        let meta = self.meta(game)?;
        check_playable(&self.branch_record(game, branch)?)?;
        let by = acting_seat(actor, by)?;
        Self::check_seat(&meta, by)?;
        let actor = by.map_or(actor, Actor::Seat);
        let viewer = by.map_or(Viewer::Owner, Viewer::Seat);
        for (i, action) in actions.iter().enumerate() {
            check_no_placeholder(action).map_err(|e| match e {
                JournalError::Rejected(r) => JournalError::Rejected(Rejection::new(
                    r.rule,
                    format!("action {} of {}: {}", i + 1, actions.len(), r.message),
                )),
                other => other,
            })?;
        }
        let mut lost_race = None;
        for _ in race_attempts() {
            // Taken from the cache: a rejected or lost batch leaves it folded
            // past the head, so it goes back only once the append commits.
            let mut folded = self.fold_owned(game, branch, None)?;
            let head = folded.seq();
            if let Some(expected) = expect_seq {
                if expected != head {
                    self.cache_put(game, branch, Arc::new(folded));
                    return Err(JournalError::Conflict { expected, head });
                }
            }
            let mut drafts = Vec::with_capacity(actions.len());
            let mut told = Vec::with_capacity(actions.len());
            // Snapshots due within the batch, written once it commits.
            let mut snapshots = Vec::new();
            for (i, action) in actions.iter().enumerate() {
                let now = now_ms();
                let decision = folded.decide_at(by, action, viewer, now).map_err(|r| {
                    JournalError::Rejected(Rejection::new(
                        r.rule,
                        format!("action {} of {}: {}", i + 1, actions.len(), r.message),
                    ))
                })?;
                let draft = Draft::new(now, actor, Body::ActionAccepted(decision.body))?;
                // The next action is decided against this one's outcome.
                let seq = decision.next.seq();
                folded.accept(decision.next)?;
                if self.snapshot_due(seq) {
                    snapshots.push(folded.snapshot());
                }
                told.push((decision.narration, folded.is_over()));
                drafts.push(draft);
            }
            match self.append_counted(game, branch, head, None, drafts) {
                Ok(appended) => {
                    for snapshot in &snapshots {
                        self.keep_snapshot(game, branch, snapshot);
                    }
                    self.note_over(game, branch, folded.is_over());
                    self.cache_put(game, branch, Arc::new(folded));
                    return Ok(appended
                        .events
                        .iter()
                        .zip(told)
                        .map(|(event, (narration, over))| Acted {
                            seq: event.seq,
                            hash: event.hash.clone(),
                            narration,
                            over,
                            retried: false,
                        })
                        .collect());
                }
                Err(StoreError::Conflict { expected, head }) if expect_seq.is_none() => {
                    lost_race = Some(JournalError::Conflict { expected, head });
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(lost_race.expect("the loop ran at least once"))
    }

    /// Makes sure the store has an admin token: returns a newly drawn one
    /// (to show once; only its hash is kept) when none was set, `None` when
    /// one exists already.
    pub fn ensure_admin_token(&self) -> Result<Option<String>, JournalError> {
        if self.log.admin_token_hash()?.is_some() {
            return Ok(None);
        }
        let token = new_token()?;
        // Servers starting together on one database: only the first one's
        // token is kept, and only it is shown.
        if !self.log.first_admin_token_hash(&token_hash(&token))? {
            return Ok(None);
        }
        Ok(Some(token))
    }

    /// Sets the admin token (from `--admin-token-file`), replacing any other.
    pub fn set_admin_token(&self, token: &str) -> Result<(), JournalError> {
        let token = token.trim();
        if token.len() < 16 || token.chars().any(|c| c.is_control() || c.is_whitespace()) {
            return Err(JournalError::BadInput(
                "an admin token is at least 16 visible characters with no spaces".into(),
            ));
        }
        Ok(self.log.set_admin_token_hash(&token_hash(token))?)
    }

    /// Whether `token` is the store's admin token.
    pub fn is_admin(&self, token: Option<&str>) -> Result<bool, JournalError> {
        let Some(token) = token else { return Ok(false) };
        Ok(self
            .log
            .admin_token_hash()?
            .is_some_and(|h| h == token_hash(token)))
    }

    /// Who holds `token` for `game`: its owner, a seat, or (no token, public
    /// game) the public.
    pub fn access(&self, game: &str, token: Option<&str>) -> Result<Access, JournalError> {
        let meta = self.meta(game)?;
        let Some(token) = token else {
            return if meta.public {
                Ok(Access::Public)
            } else {
                Err(JournalError::Forbidden(format!(
                    "game `{game}` is private: a token is needed"
                )))
            };
        };
        let hash = token_hash(token);
        if hash == meta.owner_token_hash {
            return Ok(Access::Owner);
        }
        match meta.seat_token_hashes.iter().position(|h| *h == hash) {
            Some(seat) => Ok(Access::Seat(seat as Seat)),
            None => Err(JournalError::Forbidden(format!(
                "that token does not open game `{game}`"
            ))),
        }
    }

    /// The access of the store's operator (a caller the server vouches for,
    /// such as the CLI beside a running `serve`): the owner of every game
    /// the store holds.
    pub fn operator_access(&self, game: &str) -> Result<Access, JournalError> {
        self.meta(game)?;
        Ok(Access::Owner)
    }

    /// Refuses a viewer that names a seat not at `game`'s table.
    pub fn check_viewer(&self, game: &str, viewer: Viewer) -> Result<(), JournalError> {
        match viewer {
            Viewer::Seat(seat) => Self::check_seat(&self.meta(game)?, Some(seat)),
            _ => Ok(()),
        }
    }

    /// Every game in the store, by id, from stored records (no game is
    /// folded): for the owner of the store at its own terminal.
    pub fn games(&self) -> Result<Vec<GameSummary>, JournalError> {
        let mut out = Vec::new();
        let mut after: Option<String> = None;
        loop {
            let page = self.list_games(Listing::Everything, after.as_deref(), GAMES_PAGE_MAX)?;
            out.extend(page.games);
            match page.next {
                Some(next) => after = Some(next),
                None => return Ok(out),
            }
        }
    }

    /// A page of the games `listing` may see, by id, after `after`: at most
    /// `limit` (capped at [`GAMES_PAGE_MAX`]) summaries read from stored
    /// records, never folds, and the id to ask for the next page from.
    pub fn list_games(
        &self,
        listing: Listing<'_>,
        after: Option<&str>,
        limit: usize,
    ) -> Result<GamesPage, JournalError> {
        let limit = limit.clamp(1, GAMES_PAGE_MAX);
        let token_hash = match listing {
            Listing::For { token: Some(t) } => Some(token_hash(t)),
            _ => None,
        };
        let mut games = Vec::new();
        let mut cursor = after.map(str::to_string);
        let mut exhausted = false;
        while games.len() < limit && !exhausted {
            let metas = self.log.games_after(cursor.as_deref(), GAMES_PAGE_MAX)?;
            exhausted = metas.len() < GAMES_PAGE_MAX;
            for meta in metas {
                cursor = Some(meta.game.clone());
                let visible = match listing {
                    Listing::Everything => true,
                    Listing::For { .. } => {
                        meta.public
                            || token_hash.as_ref().is_some_and(|h| {
                                *h == meta.owner_token_hash || meta.seat_token_hashes.contains(h)
                            })
                    }
                };
                if visible {
                    games.push(self.listed(meta)?);
                    if games.len() == limit {
                        break;
                    }
                }
            }
        }
        // A full page may be the last one; the next then comes back empty.
        let next = if games.len() == limit {
            games.last().map(|g| g.game.clone())
        } else {
            None
        };
        Ok(GamesPage { games, next })
    }

    /// A listing's row: the record, `main`'s head and the branch count.
    fn listed(&self, meta: GameMeta) -> Result<GameSummary, JournalError> {
        let branches = self.log.branches(&meta.game)?;
        let seq = branches
            .iter()
            .find(|b| b.name == MAIN_BRANCH)
            .map_or(0, |b| b.head_seq);
        Ok(GameSummary {
            title: meta.title,
            game: meta.game,
            kind: meta.kind,
            players: meta.players,
            created_at_ms: meta.created_at_ms,
            seq,
            branches: branches.len(),
            over: meta.over,
            public: meta.public,
            seed: None,
            seed_commitment: None,
            current: meta.current.unwrap_or_else(main_branch),
            dice: None,
        })
    }

    /// Marks a game over in its record once its line in play has ended,
    /// for listings. Only a cache of what the fold says, so a failure is
    /// logged.
    fn note_over(&self, game: &str, branch: &str, over: bool) {
        if !over || !self.current_line(game).is_ok_and(|line| line == branch) {
            return;
        }
        if let Err(e) = self.log.mark_over(game) {
            tracing::warn!(game, "not marked over: {e}");
        }
    }

    /// One game's summary as `viewer` may know it, from its record and the
    /// folds of `main`'s head and of its line in play (cached).
    pub fn summary(&self, game: &str, viewer: Viewer) -> Result<GameSummary, JournalError> {
        let meta = self.meta(game)?;
        let branches = self.log.branches(game)?.len();
        let main = self.fold(game, MAIN_BRANCH, None)?;
        let line = meta.current.clone().unwrap_or_else(main_branch);
        let current = self.fold(game, &line, None)?;
        let over = current.is_over();
        if !meta.over {
            // A crash between an ending append and its mark leaves it unmarked.
            self.note_over(game, &line, over);
        }
        let viewer = if over { Viewer::Owner } else { viewer };
        let first = self.events_as(game, MAIN_BRANCH, 1, Some(1), viewer)?;
        Ok(GameSummary {
            title: meta.title,
            game: meta.game,
            kind: meta.kind,
            players: meta.players,
            created_at_ms: meta.created_at_ms,
            seq: main.seq(),
            branches,
            over,
            public: meta.public,
            seed: (viewer == Viewer::Owner).then(|| main.created().seed),
            dice: Some(DiceReport::of(current.dice_state())),
            seed_commitment: first
                .first()
                .and_then(|e| e.seed_commitment())
                .map(str::to_string),
            current: meta.current.unwrap_or_else(main_branch),
        })
    }

    /// The branch's events from `from_seq` to `to_seq` (inclusive, clamped to the head).
    pub fn events(
        &self,
        game: &str,
        branch: &str,
        from_seq: u64,
        to_seq: Option<u64>,
    ) -> Result<Vec<Event>, JournalError> {
        self.record(game, branch)?;
        Ok(self.log.read(game, branch, from_seq, to_seq)?)
    }

    /// [`Journal::events`] as `viewer` may know them: each seat sees only its
    /// own secrets, and no one but the owner sees a seed or an event's salt,
    /// until the game is over (its line in play has ended). Each event is
    /// judged on the head of the branch it belongs to, so a fork shows what
    /// it shares with its parent as the parent does. Every event carries the
    /// seals of its parts, so any viewer can check the chain it sees with
    /// [`crate::seal::check_shown`].
    pub fn events_as(
        &self,
        game: &str,
        branch: &str,
        from_seq: u64,
        to_seq: Option<u64>,
        viewer: Viewer,
    ) -> Result<Vec<ShownEvent>, JournalError> {
        let events = self.events(game, branch, from_seq, to_seq)?;
        let viewer = self.effective_viewer(game, viewer)?;
        if viewer == Viewer::Owner {
            return Ok(events.iter().map(ShownEvent::full).collect());
        }
        let mut judges = Judges::default();
        events
            .iter()
            .map(|e| {
                let redacted = judges
                    .head(self, game, &e.branch)?
                    .redact_event(e, viewer)?;
                Ok(ShownEvent::partial(e, &redacted))
            })
            .collect()
    }

    /// Who `viewer` counts as in `game`: everyone sees what the owner sees
    /// once the game's line in play has ended, on every line; before that,
    /// no line opens anything, a finished fork included (it shares its past,
    /// and perhaps its hidden cards, with the line in play).
    fn effective_viewer(&self, game: &str, viewer: Viewer) -> Result<Viewer, JournalError> {
        if viewer == Viewer::Owner || self.game_over(game)? {
            return Ok(Viewer::Owner);
        }
        Ok(viewer)
    }

    /// Whether the game is over: whether its line in play (its current line)
    /// has ended. Forks that end decide nothing.
    pub fn game_over(&self, game: &str) -> Result<bool, JournalError> {
        let line = self.current_line(game)?;
        Ok(self.fold(game, &line, None)?.is_over())
    }

    /// The game folded to `at` (the head when `None`).
    pub fn game_at(&self, game: &str, branch: &str, at: Option<u64>) -> Result<Game, JournalError> {
        Ok(Game::clone(&*self.fold(game, branch, at)?))
    }

    pub fn legal(
        &self,
        game: &str,
        branch: &str,
        seat: Option<Seat>,
    ) -> Result<Vec<LegalAction>, JournalError> {
        Self::check_seat(&self.meta(game)?, seat)?;
        Ok(self.fold(game, branch, None)?.legal_at(seat, now_ms()))
    }

    pub fn state(
        &self,
        game: &str,
        branch: &str,
        at: Option<u64>,
        viewer: Viewer,
    ) -> Result<StateView, JournalError> {
        let folded = self.fold(game, branch, at)?;
        let viewer = self.effective_viewer(game, viewer)?;
        Ok(StateView {
            game: game.to_string(),
            branch: branch.to_string(),
            seq: folded.seq(),
            kind: folded.kind_name().to_string(),
            over: folded.is_over(),
            chapter: folded.chapter(),
            view: folded.view(viewer),
            text: folded.render(viewer),
            deadline: folded.deadline(),
            result: folded.result(),
        })
    }

    /// The events of a branch after seq `after`, each with its narration and
    /// as `viewer` may know them: what a live follower of the game is sent.
    pub fn follow(
        &self,
        game: &str,
        branch: &str,
        after: u64,
        viewer: Viewer,
    ) -> Result<Vec<Followed>, JournalError> {
        let head = self.record(game, branch)?.head_seq;
        if after >= head {
            return Ok(Vec::new());
        }
        let viewer = self.effective_viewer(game, viewer)?;
        let shown = self.events_as(game, branch, after + 1, None, viewer)?;
        let mut folded = self.fold_owned(game, branch, Some(after.max(1)))?;
        let events = self.log.read(game, branch, after + 1, None)?;
        let mut out = Vec::with_capacity(events.len());
        for (event, shown) in events.iter().zip(shown) {
            let chapter = folded.chapter();
            let narration = if event.seq == 1 {
                creation_lines(created_of(event)?, viewer)
            } else {
                folded.apply_as(event, viewer)?
            };
            out.push(Followed {
                seq: event.seq,
                chapter,
                narration,
                over: folded.is_over(),
                deadline: folded.deadline(),
                event: shown,
            });
        }
        Ok(out)
    }

    /// The branch at `at` (its head when `None`) drawn as SVG for `viewer`.
    pub fn board_svg(
        &self,
        game: &str,
        branch: &str,
        at: Option<u64>,
        viewer: Viewer,
    ) -> Result<String, JournalError> {
        let folded = self.fold(game, branch, at)?;
        let viewer = self.effective_viewer(game, viewer)?;
        Ok(folded.render_svg(viewer))
    }

    /// One step per event up to `to` (the head when `None`), with what each changed.
    pub fn replay(
        &self,
        game: &str,
        branch: &str,
        to: Option<u64>,
        viewer: Viewer,
    ) -> Result<Vec<ReplayStep>, JournalError> {
        let head = self.record(game, branch)?.head_seq;
        let to = to.unwrap_or(head);
        if to == 0 || to > head {
            return Err(JournalError::NotFound(format!(
                "branch `{branch}` of game `{game}` has no seq {to}: its events run from 1 to {head}"
            )));
        }
        let events = self.log.read(game, branch, 1, Some(to))?;
        let viewer = self.effective_viewer(game, viewer)?;
        let mut judges = Judges::default();
        let first = &events[0];
        let mut folded = Game::from_first(first)?;
        let mut steps = vec![ReplayStep {
            seq: 1,
            actor: first.actor,
            recorded_at_ms: first.recorded_at_ms,
            chapter: folded.chapter(),
            action: None,
            narration: creation_lines(created_of(first)?, viewer),
            changes: Vec::new(),
        }];
        let mut before = folded.view(viewer);
        for event in &events[1..] {
            let chapter = folded.chapter();
            let narration = folded.apply_as(event, viewer)?;
            let after = folded.view(viewer);
            let shown = judges
                .head(self, game, &event.branch)?
                .redact_event(event, viewer)?;
            steps.push(ReplayStep {
                seq: event.seq,
                actor: event.actor,
                recorded_at_ms: event.recorded_at_ms,
                chapter,
                action: match &shown.body {
                    Body::ActionAccepted(a) => Some(a.action.clone()),
                    _ => None,
                },
                narration,
                changes: diff(&before, &after),
            });
            before = after;
        }
        Ok(steps)
    }

    /// Forks `from` after its seq `at`, copying nothing. The name defaults to
    /// the first free `fork-N`; with `reseed`, the new branch opens with a
    /// reseed event so its chance differs from the parent's from here on.
    ///
    /// Only the owner may inherit the parent's future: a fork made by a seat
    /// that names no reseed is reseeded from fresh, secret randomness (kept
    /// for the owner), so no seat can draw on a fork to learn what the
    /// parent's dice and decks will give.
    pub fn fork(
        &self,
        game: &str,
        from: &str,
        at: u64,
        name: Option<&str>,
        reseed: Option<u64>,
        by: Access,
    ) -> Result<BranchInfo, JournalError> {
        let head = self.record(game, from)?.head_seq;
        if at == 0 || at > head {
            return Err(JournalError::NotFound(format!(
                "branch `{from}` of game `{game}` has no seq {at} to fork at: its events run from 1 to {head}"
            )));
        }
        let over_at = self.fold(game, from, Some(at))?.is_over();
        let (actor, reseed) = match by {
            Access::Owner => (Actor::Owner, reseed),
            Access::Seat(seat) if reseed.is_none() && !over_at => {
                (Actor::Seat(seat), Some(random_seed()?))
            }
            Access::Seat(seat) => (Actor::Seat(seat), reseed),
            Access::Public => {
                return Err(JournalError::Forbidden(
                    "forking needs the owner's or a seat's token".into(),
                ))
            }
        };
        if reseed.is_some() && over_at {
            // The reseed is the new branch's first event: the game must go on there.
            return Err(JournalError::BadInput(format!(
                "the game is over at seq {at}; a reseed there would change nothing"
            )));
        }
        let now = now_ms();
        let first = reseed
            .map(|seed| Draft::new(now, actor, Body::Reseeded { seed }))
            .transpose()?;
        if let Some(name) = name {
            // One name, however it is written: `MAIN` or `Main` may not sit
            // beside `main`, nor letters composed otherwise.
            let name = crate::log::normalised_name(name);
            let folded = crate::log::folded_name(&name);
            if let Some(other) = self
                .log
                .branches(game)?
                .into_iter()
                .find(|b| b.name != name && crate::log::folded_name(&b.name) == folded)
            {
                return Err(JournalError::BadInput(format!(
                    "branch name `{name}` differs from the branch `{}` only in case or in how its letters are written: choose another",
                    other.name
                )));
            }
            let record = self.log.fork(game, from, at, &name, now, first)?;
            return Ok(self.shown_branch(game, record, by.viewer()));
        }
        // A generated name is the first free `fork-N`; a concurrent fork may
        // take it between the look and the write, so a taken one is skipped.
        let mut taken: Vec<String> = self
            .log
            .branches(game)?
            .into_iter()
            .map(|b| b.name)
            .collect();
        for _ in 0..FORK_NAME_TRIES {
            let name = (1..)
                .map(|n| format!("fork-{n}"))
                .find(|n| !taken.contains(n))
                .expect("some fork-N is free");
            match self.log.fork(game, from, at, &name, now, first.clone()) {
                Ok(record) => return Ok(self.shown_branch(game, record, by.viewer())),
                Err(StoreError::BranchExists { .. }) => taken.push(name),
                Err(e) => return Err(e.into()),
            }
        }
        Err(JournalError::BadInput(format!(
            "every fork name tried was taken by a concurrent fork ({FORK_NAME_TRIES} tries): name the branch"
        )))
    }

    /// A branch record as `viewer` may know it: a reseed's seed is shown to
    /// the owner, or to anyone once the game is over.
    fn shown_branch(&self, game: &str, r: BranchRecord, viewer: Viewer) -> BranchInfo {
        let reseeded = r.reseed.is_some();
        let head = self.fold(game, &r.name, None).ok();
        let viewer = self.effective_viewer(game, viewer).unwrap_or(viewer);
        let shows_seed = viewer == Viewer::Owner;
        let own_from = r.fork_seq.unwrap_or(0);
        let mut info = branch_info(r);
        info.reseeded = reseeded;
        if !shows_seed {
            info.reseed = None;
        }
        if let Some(head) = head {
            if let Some(named) = head.line_title(&info.name) {
                info.title = Some(named.title.clone());
                info.description = named.description.clone();
            }
            info.notes = head
                .notes_as(viewer)
                .into_iter()
                .filter(|n| n.seq > own_from)
                .collect();
        }
        info
    }

    /// The game's current line: the branch ordinary play continues on
    /// (`main` until a take-back moves it).
    pub fn current_line(&self, game: &str) -> Result<String, JournalError> {
        Ok(self.meta(game)?.current.unwrap_or_else(main_branch))
    }

    /// `given`, or the game's current line when no branch is named.
    pub fn line(&self, game: &str, given: Option<String>) -> Result<String, JournalError> {
        match given {
            Some(branch) => Ok(branch),
            None => self.current_line(game),
        }
    }

    /// Takes back the last action of the current line without deleting
    /// anything: the line is forked just before that action, the fork
    /// becomes the current line, and the old line stays in the tree marked
    /// taken back (closed to play: it shares the dice and hidden cards to
    /// come with the new line). Notes written after the action are kept on
    /// the new line, unless they are about the action taken back. The fork
    /// keeps the old line's dice: the action recorded again meets the same
    /// rolls. Open to the owner, and to the seat that recorded the action.
    ///
    /// Refused once the game is over (everything it hid is out), and for an
    /// action that showed what lay hidden or started a clock (see
    /// `Rules::cannot_take_back`): the owner of a game whose chance is not
    /// Tabletape's (the table's own dice, or none) may still correct it.
    pub fn undo(&self, game: &str, by: Access) -> Result<Undone, JournalError> {
        let line = self.current_line(game)?;
        let record = self.record(game, &line)?;
        let head = record.head_seq;
        if self.fold(game, &line, None)?.is_over() {
            return Err(JournalError::Rejected(Rejection::new(
                "undo.game_over",
                "the game is over and everything it hid is out: taking back would play on with every secret known; fork it to play another way",
            )));
        }
        // The last action, and the annotations written after it.
        let mut seq = head;
        let mut after = Vec::new();
        let taken = loop {
            let event = match seq {
                0 | 1 => None,
                _ => self.log.read(game, &line, seq, Some(seq))?.pop(),
            };
            match event {
                Some(e) if matches!(e.body, Body::ActionAccepted(_)) => break e,
                Some(e) if matches!(e.body, Body::Noted(_) | Body::BranchNamed(_)) => {
                    after.push(e);
                    seq -= 1;
                }
                _ => {
                    return Err(JournalError::BadInput(format!(
                        "nothing to take back: line `{line}` of game `{game}` holds no action after its last fork, share or creation"
                    )))
                }
            }
        };
        let seq = taken.seq;
        match (by, taken.actor) {
            (Access::Owner, _) => {}
            (Access::Seat(s), Actor::Seat(a)) if s == a => {}
            _ => {
                return Err(JournalError::Forbidden(format!(
                    "seq {seq} was not recorded by this seat: the owner or the seat that recorded it may take it back"
                )))
            }
        }
        let before = self.fold(game, &line, Some(seq - 1))?;
        // Where Tabletape holds no random secret (the table's own dice, or a
        // game without chance), the owner referees the record and may still
        // correct it.
        let correcting = by == Access::Owner && !before.dice_state().rolls;
        if let Body::ActionAccepted(accepted) = &taken.body {
            if let Some(refused) = before
                .cannot_take_back(&accepted.facts)
                .filter(|_| !correcting)
            {
                return Err(JournalError::Rejected(refused));
            }
        }
        let taken_names: Vec<String> = self
            .log
            .branches(game)?
            .into_iter()
            .map(|b| b.name)
            .collect();
        let now = now_ms();
        let mut forked = None;
        for n in 1..=FORK_NAME_TRIES {
            let name = format!("{line}~{n}");
            if taken_names.contains(&name) {
                continue;
            }
            match self.log.fork(game, &line, seq - 1, &name, now, None) {
                Ok(record) => {
                    forked = Some(record);
                    break;
                }
                Err(StoreError::BranchExists { .. }) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        let record = forked.ok_or_else(|| {
            JournalError::BadInput("every take-back name was taken: name a fork yourself".into())
        })?;
        // Notes about moments the new line still has go with it, by the
        // same hands; a note about the action taken back stays where it was.
        let kept: Vec<Draft> = after
            .iter()
            .rev()
            .filter(|e| match &e.body {
                Body::Noted(note) => note.at < seq,
                _ => false,
            })
            .map(|e| Draft::new(now, e.actor, e.body.clone()))
            .collect::<Result<_, _>>()?;
        let mut head_seq = seq - 1;
        if !kept.is_empty() {
            let appended = self
                .log
                .append(game, &record.name, Some(seq - 1), None, kept)?;
            head_seq = appended.events.last().map_or(head_seq, |e| e.seq);
        }
        self.log.take_back(game, &line, &record.name)?;
        Ok(Undone {
            game: game.to_string(),
            taken_back: line,
            seq,
            current: record.name,
            head_seq,
        })
    }

    /// The narration of a branch's events after seq `after`, as `viewer`
    /// may know it (a fork's reseed, say).
    pub fn narrate_since(
        &self,
        game: &str,
        branch: &str,
        after: u64,
        viewer: Viewer,
    ) -> Result<Vec<String>, JournalError> {
        let viewer = self.effective_viewer(game, viewer)?;
        let mut folded = self.fold_owned(game, branch, Some(after))?;
        let mut lines = Vec::new();
        for event in self.log.read(game, branch, after + 1, None)? {
            lines.extend(folded.apply_as(&event, viewer)?);
        }
        Ok(lines)
    }

    /// A game's branches in creation order (`main` first), as the owner sees them.
    pub fn branches(&self, game: &str) -> Result<Vec<BranchInfo>, JournalError> {
        self.branches_as(game, Viewer::Owner)
    }

    /// A game's branches as `viewer` may know them (see `shown_branch`).
    pub fn branches_as(&self, game: &str, viewer: Viewer) -> Result<Vec<BranchInfo>, JournalError> {
        self.meta(game)?;
        Ok(self
            .log
            .branches(game)?
            .into_iter()
            .map(|r| self.shown_branch(game, r, viewer))
            .collect())
    }

    pub fn narrate(&self, game: &str, branch: &str) -> Result<Narrative, JournalError> {
        self.narrate_as(game, branch, Viewer::Owner)
    }

    /// The story as `viewer` may know it (everything, once the game is over).
    pub fn narrate_as(
        &self,
        game: &str,
        branch: &str,
        viewer: Viewer,
    ) -> Result<Narrative, JournalError> {
        self.narrate_told(game, branch, viewer, Vec::new())
    }

    /// The story, with `variations` told beside the moments they part at.
    fn narrate_told(
        &self,
        game: &str,
        branch: &str,
        viewer: Viewer,
        variations: Vec<tabletape_engine::narrative::Variation>,
    ) -> Result<Narrative, JournalError> {
        let meta = self.meta(game)?;
        let events = self.events(game, branch, 1, None)?;
        let kind = tabletape_engine::kind(&meta.kind)
            .map_or_else(|| meta.kind.clone(), |k| k.info().title.to_string());
        let viewer = self.effective_viewer(game, viewer)?;
        let (mut narrative, folded) = Narrative::tell_with(&kind, &events, viewer, variations)?;
        // The table's own title, else the one the game gives itself
        // ("Nowa against Brakka"), else the kind's.
        let own = meta.title.clone().or_else(|| folded.story_title());
        // A branch is called by the name the table gave it, if any.
        let line = match folded.line_title(branch) {
            Some(named) => format!("branch {branch}, \"{}\"", named.title),
            None => format!("branch {branch}"),
        };
        narrative.title = match (own, branch == MAIN_BRANCH) {
            (Some(own), true) => format!("{own} ({kind}, game {game})"),
            (Some(own), false) => format!("{own} ({kind}, game {game}, {line})"),
            (None, true) => format!("{kind}: game {game}"),
            (None, false) => format!("{kind}: game {game}, {line}"),
        };
        Ok(narrative)
    }
}
