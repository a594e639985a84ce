//! The durable event log: the [`Log`] trait and its sled backend, [`SledLog`].
//!
//! A game is a tree of branches; each branch stores only its *own* events
//! (those after its fork seq), so a fork is one small record whatever the
//! length of the game. Reading seq `n` of a branch walks its ancestry: when
//! `n <= fork_seq` the event belongs to the parent (or further up). Seqs are
//! per branch, gap-free, from 1 (the creation). Every event carries the hash
//! of the one before it in the branch's history; a fork's first own event
//! chains to its parent's event at the fork seq.
//!
//! The log is in three parts beside this trait and the types it speaks:
//! [`names`] checks the names and ids its keys hold, [`sled`] is the sled
//! backend ([`SledLog`]: its key layout, its group commit, its files and
//! their durability) and [`postgres`] the PostgreSQL one ([`postgres::PgLog`]).
//! What both backends share is here: placing drafts on a branch (hashing
//! them), walking a branch's history through its ancestry, and reading a
//! stored event into the current schema.

use std::borrow::Cow;
use std::ops::ControlFlow;
use std::sync::Arc;
use tabletape_engine::hex_text;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;
use tabletape_engine::{EngineError, Game, Snapshot, StoredFacts};
use tabletape_events::{Actor, Body, Event, FactText, MAIN_BRANCH, SCHEMA_VERSION};

use crate::error::StoreError;
use crate::seal::event_hash;
use crate::upcast::upcast;

mod names;
pub mod postgres;
mod sled;

pub use self::sled::{clear_holder, note_holder, SledLog, CACHE_CAPACITY, HOLDER_FILE};
pub use names::{
    breaks_lines, check_game_id, check_name, folded_name, is_route_word, normalised_name,
};

/// An event before the log places it: everything but seq and the hash chain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Draft {
    pub recorded_at_ms: u64,
    pub actor: Actor,
    /// The event's secret salt (see [`crate::seal`]); [`Draft::new`] draws one.
    pub salt: String,
    pub body: Body,
}

impl Draft {
    /// A draft with a fresh random salt.
    pub fn new(recorded_at_ms: u64, actor: Actor, body: Body) -> Result<Draft, StoreError> {
        let mut salt = [0u8; crate::seal::SALT_BYTES];
        getrandom::fill(&mut salt).map_err(|e| StoreError::Random(e.to_string()))?;
        Ok(Draft {
            recorded_at_ms,
            actor,
            salt: hex_text::of(salt),
            body,
        })
    }
}

/// What an append wrote: the seq and hash of each event, in order. Kept under
/// the idempotency key so a retry is answered with the original receipt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Receipt {
    pub first_seq: u64,
    pub hashes: Vec<String>,
    /// True when this is the stored receipt of an earlier append with the same key.
    #[serde(default)]
    pub retried: bool,
}

impl Receipt {
    /// The seq of the last event written.
    pub fn last_seq(&self) -> u64 {
        self.first_seq + self.hashes.len() as u64 - 1
    }
}

/// The result of an append: the receipt, and the events written (empty on a retry).
#[derive(Debug, Clone, PartialEq)]
pub struct Appended {
    pub receipt: Receipt,
    pub events: Vec<Event>,
}

/// A branch: a name, where it forked from, and its head. Forking copies no events.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BranchRecord {
    pub name: String,
    /// `None` for `main`.
    pub parent: Option<String>,
    /// The last seq shared with the parent; `None` for `main`.
    pub fork_seq: Option<u64>,
    pub created_at_ms: u64,
    /// The seed of the branch's reseed event, if it was forked with one.
    #[serde(default)]
    pub reseed: Option<u64>,
    /// Creation order within the game (main is 0).
    pub order: u64,
    /// The seq of the branch's last event (its fork seq if it has none of its own).
    pub head_seq: u64,
    /// The hash of the event at `head_seq`.
    #[serde(default)]
    pub head_hash: String,
    /// Whether play left this branch by taking back its last event.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub taken_back: bool,
}

impl BranchRecord {
    /// `main` as a game's creation makes it: event 1 (hashed `hash`) its head.
    pub(crate) fn main_of(meta: &GameMeta, hash: &str, order: u64) -> BranchRecord {
        BranchRecord {
            name: MAIN_BRANCH.to_string(),
            parent: None,
            fork_seq: None,
            created_at_ms: meta.created_at_ms,
            reseed: None,
            order,
            head_seq: 1,
            head_hash: hash.to_string(),
            taken_back: false,
        }
    }
}

/// What the store knows about a game besides its events.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameMeta {
    pub game: String,
    pub kind: String,
    pub players: Vec<String>,
    pub created_at_ms: u64,
    pub public: bool,
    /// SHA-256 hex of the owner's token; the token itself is never stored.
    pub owner_token_hash: String,
    /// SHA-256 hex of each seat's token, by seat.
    pub seat_token_hashes: Vec<String>,
    /// Whether `main` has ended, as the journal last marked it: listings
    /// read it instead of folding every game.
    #[serde(default)]
    pub over: bool,
    /// The game's current line: the branch ordinary play continues on
    /// (`main` when `None`). Taking back a mistake moves it to a fork.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current: Option<String>,
    /// The game's title, copied from its creation for listings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// A branch's head as a writer last saw it: the seq of its last event and
/// that event's hash, which the next event chains on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Head<'a> {
    pub seq: u64,
    pub hash: &'a str,
}

/// The durable log of every game. One trait so another backend (networked)
/// can replace sled without touching the journal, the engine or the interfaces.
pub trait Log: Send + Sync {
    /// Writes a new game atomically: its metadata, its `main` branch and seq 1.
    /// Fails with [`StoreError::GameExists`] if the id is taken.
    fn create_game(&self, meta: &GameMeta, created: Draft) -> Result<Appended, StoreError>;

    fn game(&self, game: &str) -> Result<Option<GameMeta>, StoreError>;

    /// Every game, by id.
    fn games(&self) -> Result<Vec<GameMeta>, StoreError>;

    /// At most `max` games with ids after `after` (from the first when
    /// `None`), by id: a listing reads a page without loading every record.
    fn games_after(&self, after: Option<&str>, max: usize) -> Result<Vec<GameMeta>, StoreError>;

    /// The SHA-256 hex of the store's admin token, if one was set.
    fn admin_token_hash(&self) -> Result<Option<String>, StoreError>;

    /// Sets (or replaces) the hash of the store's admin token, durably.
    fn set_admin_token_hash(&self, hash: &str) -> Result<(), StoreError>;

    /// Sets the hash of the store's admin token unless one is set; whether
    /// it did. (One process holds a sled store, so checking first is enough.)
    fn first_admin_token_hash(&self, hash: &str) -> Result<bool, StoreError> {
        if self.admin_token_hash()?.is_some() {
            return Ok(false);
        }
        self.set_admin_token_hash(hash)?;
        Ok(true)
    }

    /// Makes `branch` the game's current line and marks `from` taken back,
    /// durably, in one step, if `from`'s head is still `head` (else
    /// [`StoreError::Conflict`], nothing changed). From then on no action is
    /// written on `from`, even by an appender that found it open before.
    fn take_back(
        &self,
        game: &str,
        from: &str,
        head: Head<'_>,
        branch: &str,
    ) -> Result<(), StoreError>;

    /// Records that `main` of `game` has ended (an ended game stays ended:
    /// its events never change).
    fn mark_over(&self, game: &str) -> Result<(), StoreError>;

    fn branch(&self, game: &str, branch: &str) -> Result<Option<BranchRecord>, StoreError>;

    /// A game's branches in creation order (`main` first).
    fn branches(&self, game: &str) -> Result<Vec<BranchRecord>, StoreError>;

    /// Appends `drafts` to the end of a branch atomically, chaining their hashes.
    /// A stale `expected_seq` fails with [`StoreError::Conflict`]; a known
    /// `idempotency_key` returns the original receipt (`retried`) and writes nothing.
    /// Returns only once the events are on stable storage.
    fn append(
        &self,
        game: &str,
        branch: &str,
        expected_seq: Option<u64>,
        idempotency_key: Option<&str>,
        drafts: Vec<Draft>,
    ) -> Result<Appended, StoreError>;

    /// [`Log::append`] onto the head the writer knows (from its last
    /// write), without reading the branch first: on a networked log the
    /// append is then its one round trip. `None`, with nothing written,
    /// when the branch is not at that head any more, has been taken back
    /// (closed to play), or has `idempotency_key` used already: the writer
    /// reads the branch again and goes the long way.
    fn append_on(
        &self,
        game: &str,
        branch: &str,
        head: Head<'_>,
        idempotency_key: Option<&str>,
        drafts: Vec<Draft>,
    ) -> Result<Option<Appended>, StoreError> {
        // A local log's reads cost next to nothing: look, then append.
        match self.branch(game, branch)? {
            Some(record) if !record.taken_back && record.head_hash == head.hash => {}
            _ => return Ok(None),
        }
        match self.append(game, branch, Some(head.seq), idempotency_key, drafts) {
            Ok(appended) if appended.receipt.retried => Ok(None),
            Ok(appended) => Ok(Some(appended)),
            Err(StoreError::Conflict { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The receipt stored under an idempotency key, if any.
    fn receipt(
        &self,
        game: &str,
        branch: &str,
        idempotency_key: &str,
    ) -> Result<Option<Receipt>, StoreError>;

    /// Creates branch `name` sharing `from`'s first `at` events, in O(1). With
    /// `first`, that draft is appended atomically as the branch's first own event.
    fn fork(
        &self,
        game: &str,
        from: &str,
        at: u64,
        name: &str,
        created_at_ms: u64,
        first: Option<Draft>,
    ) -> Result<BranchRecord, StoreError>;

    /// The branch's linear history from `from_seq` to `to_seq` (inclusive; the head
    /// when `None`), walking the ancestry for seqs at or before each fork.
    fn read(
        &self,
        game: &str,
        branch: &str,
        from_seq: u64,
        to_seq: Option<u64>,
    ) -> Result<Vec<Event>, StoreError>;

    /// [`Log::read`] as a fold needs it: a store may hand over accepted
    /// actions by their facts alone, without building the whole event.
    fn read_steps(
        &self,
        game: &str,
        branch: &str,
        from_seq: u64,
        to_seq: Option<u64>,
    ) -> Result<Vec<FoldStep>, StoreError> {
        Ok(self
            .read(game, branch, from_seq, to_seq)?
            .into_iter()
            .map(|e| FoldStep::Event(Box::new(e)))
            .collect())
    }

    /// Caches a folded state at `seq` of a branch's history.
    fn put_snapshot(&self, game: &str, branch: &str, snapshot: &Snapshot)
        -> Result<(), StoreError>;

    /// The cached state with the greatest seq `<= at` in the branch's history.
    fn snapshot_at_or_before(
        &self,
        game: &str,
        branch: &str,
        at: u64,
    ) -> Result<Option<Snapshot>, StoreError>;

    /// Drops every cached snapshot; returns how many were dropped.
    fn drop_snapshots(&self) -> Result<u64, StoreError>;

    /// Stages part of an import: writes `events` (each under its own
    /// branch) without making anything visible. Called chunk by chunk so an
    /// import never holds a whole history; [`Log::import_game`] commits, and
    /// [`Log::discard_import`] removes what a failed import staged.
    fn import_events(&self, game: &str, events: &[Staged]) -> Result<(), StoreError>;

    /// Stages a snapshot of an import: stored under `branch`, which must own
    /// the snapshot's seq (it is not looked up: the game is not committed).
    fn import_snapshot(
        &self,
        game: &str,
        branch: &str,
        snapshot: &Snapshot,
    ) -> Result<(), StoreError>;

    /// The event stored under exactly this branch at `seq` (its own events
    /// only, no ancestry), whether or not its game is committed: an import
    /// uses it to find the event a branch forked from.
    fn own_event(&self, game: &str, branch: &str, seq: u64) -> Result<Option<Event>, StoreError>;

    /// Commits an import whose events were staged with [`Log::import_events`]:
    /// writes the branches (their heads as given in each record) and then the
    /// game record, which makes the game visible. Fails if the game exists.
    fn import_game(&self, meta: &GameMeta, branches: &[BranchRecord]) -> Result<(), StoreError> {
        self.import_branches(&meta.game, branches)?;
        self.commit_import(meta)
    }

    /// Stages an import's branches and heads: its history can then be read
    /// (to check it) though the game stays invisible until [`Log::commit_import`].
    fn import_branches(&self, game: &str, branches: &[BranchRecord]) -> Result<(), StoreError>;

    /// Makes a staged import visible by writing its game record, durably.
    /// Fails if the game exists.
    fn commit_import(&self, meta: &GameMeta) -> Result<(), StoreError>;

    /// Readies the store for an import of `game`, which has no record yet,
    /// before anything of it is staged.
    fn begin_import(&self, _game: &str) -> Result<(), StoreError> {
        Ok(())
    }

    /// Removes everything staged for an import of `game` that was not
    /// committed. Does nothing to a committed game.
    fn discard_import(&self, game: &str) -> Result<(), StoreError>;

    /// Calls `on_change` with a game's id whenever a write changes one of
    /// its branches, in any process sharing the store (with `""` when
    /// anything may have changed). A store that one process holds (sled)
    /// tells nothing: that process knows its own writes.
    fn watch(&self, _on_change: Arc<dyn Fn(&str) + Send + Sync>) {}

    /// Whether the store answers now (a database that is down does not).
    /// An embedded store is there while its process is.
    fn healthy(&self) -> Result<(), StoreError> {
        Ok(())
    }
}

/// How often an append without an expected seq chains its events again
/// when other appends keep moving the head before its group is written.
pub(crate) const APPEND_RETRIES: usize = 16;

pub(crate) fn to_json<T: Serialize>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).expect("store records serialize")
}

pub(crate) fn from_json<T: serde::de::DeserializeOwned>(
    what: &str,
    raw: &[u8],
) -> Result<T, StoreError> {
    serde_json::from_slice(raw).map_err(|e| StoreError::corrupt(what, e))
}

/// One event of a history as a fold needs it (see [`Log::read_steps`]).
#[derive(Debug)]
pub enum FoldStep {
    /// An accepted action of the current schema: who acted and the JSON
    /// text of its facts, for `Game::apply_facts`.
    Facts {
        seq: u64,
        actor: Actor,
        facts: Box<RawValue>,
    },
    /// An accepted action stored with its facts' compact form (see the
    /// engine's `compact`): who acted and those facts.
    Compact {
        seq: u64,
        actor: Actor,
        facts: Box<[u8]>,
    },
    /// Any other event, whole.
    Event(Box<Event>),
}

impl FoldStep {
    /// Folds this step into `game`; returns its seq.
    pub fn apply_to(&self, game: &mut Game) -> Result<u64, EngineError> {
        match self {
            FoldStep::Facts { seq, actor, facts } => {
                game.apply_facts(*seq, *actor, StoredFacts::Json(facts.get()))?;
                Ok(*seq)
            }
            FoldStep::Compact { seq, actor, facts } => {
                game.apply_facts(*seq, *actor, StoredFacts::Compact(facts))?;
                Ok(*seq)
            }
            FoldStep::Event(event) => {
                game.apply(event)?;
                Ok(event.seq)
            }
        }
    }
}

/// Folds a branch's events into `game`, from the one after `game`'s seq up
/// to `to`, as read with [`Log::read_steps`] `chunk` at a time (read ahead:
/// see [`read_ahead`]); `folded` is called after each event with the game
/// as it then stands.
pub fn fold_steps<E: From<StoreError> + From<EngineError>>(
    log: &dyn Log,
    (game_id, branch): (&str, &str),
    game: &mut Game,
    to: u64,
    chunk: u64,
    mut folded: impl FnMut(&Game),
) -> Result<(), E> {
    read_ahead(
        (game.seq() + 1, to, chunk),
        |lo, hi| log.read_steps(game_id, branch, lo, Some(hi)),
        |steps| -> Result<_, E> {
            for step in steps? {
                step.apply_to(game)?;
                folded(game);
            }
            Ok(ControlFlow::Continue(()))
        },
    )?;
    match game.seq() == to {
        true => Ok(()),
        false => Err(StoreError::corrupt(
            format!("branch `{branch}` of game `{game_id}`"),
            format_args!("its events stop at seq {}, before {to}", game.seq()),
        )
        .into()),
    }
}

/// Reads `from..=to` with `read`, `chunk` seqs at a time, and hands each
/// chunk (or why it could not be read) to `each` in order, until `each`
/// breaks or fails. A read that failed is the last chunk handed over.
///
/// More than one chunk is read ahead: [`READERS`] threads read chunks in
/// turn (the first, the third, .. on one; the second, the fourth, .. on the
/// other) while this thread takes them in order. Reading (sled's pages; a
/// database's round trip and its server's work) costs more than what a
/// fold, a check or an export does with the events, so the work spreads
/// over the cores instead of taking turns on one. A reader holds the chunk
/// it read until it is taken, so three chunks at most are in memory (a
/// buffer of one more per reader was 6% faster and held 60 MB more on a
/// 50,000-event export). A single chunk is read in the caller's thread: a
/// thread is not worth starting for it.
pub(crate) fn read_ahead<T: Send, R: Send, E>(
    (from, to, chunk): (u64, u64, u64),
    read: impl Fn(u64, u64) -> Result<Vec<T>, R> + Sync,
    mut each: impl FnMut(Result<Vec<T>, R>) -> Result<ControlFlow<()>, E>,
) -> Result<(), E> {
    if to < from {
        return Ok(());
    }
    let chunk = chunk.max(1);
    let chunks = (to - from) / chunk + 1;
    let range = |i: u64| {
        let lo = from + i * chunk;
        (lo, to.min(lo + (chunk - 1)))
    };
    if chunks == 1 {
        return each(read(from, to)).map(drop);
    }
    std::thread::scope(|scope| {
        let (read, range) = (&read, &range);
        let readers: Vec<_> = (0..READERS)
            .map(|r| {
                let (ahead, chunks_read) = std::sync::mpsc::sync_channel(0);
                scope.spawn(move || {
                    for i in (r..chunks).step_by(READERS as usize) {
                        let (lo, hi) = range(i);
                        let chunk = read(lo, hi);
                        let failed = chunk.is_err();
                        // A taker that stopped has hung up: nothing more
                        // to read.
                        if ahead.send(chunk).is_err() || failed {
                            break;
                        }
                    }
                });
                chunks_read
            })
            .collect();
        for i in 0..chunks {
            // A reader stops early only after sending its failed read.
            let chunk = readers[(i % READERS) as usize]
                .recv()
                .expect("a reader sends each of its chunks");
            let failed = chunk.is_err();
            if each(chunk)?.is_break() || failed {
                break;
            }
        }
        Ok(())
    })
}

/// Threads reading ahead of a long read (see [`read_ahead`]).
const READERS: u64 = 2;

#[derive(Deserialize)]
pub(crate) struct FoldBody<'a> {
    #[serde(rename = "type", borrow)]
    pub(crate) kind: Cow<'a, str>,
    #[serde(borrow, default)]
    pub(crate) facts: Option<&'a RawValue>,
}

/// Parses a stored event, bringing it to the current schema first.
pub(crate) fn decode_event(raw: &[u8]) -> Result<Event, String> {
    decode_event_as_read(raw).map(|(event, _)| event)
}

/// [`decode_event`], and whether the event read as it is: of the current
/// schema, nothing upcast.
pub(crate) fn decode_event_as_read(raw: &[u8]) -> Result<(Event, bool), String> {
    // An event of the current schema is read straight into its type, in one
    // pass; anything else (an older one, or one that does not read) goes
    // through a JSON value to be upcast, or to say what is wrong with it.
    if let Ok(event) = serde_json::from_slice::<Event>(raw) {
        if event.schema_version == SCHEMA_VERSION {
            return Ok((event, true));
        }
    }
    let value: Value = serde_json::from_slice(raw).map_err(|e| format!("not JSON: {e}"))?;
    let version = match value.get("schema_version") {
        None => 0,
        Some(v) => v
            .as_u64()
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| format!("schema_version is not a version number: {v}"))?,
    };
    let value = upcast(value, version).map_err(|e| e.to_string())?;
    serde_json::from_value(value)
        .map(|event| (event, false))
        .map_err(|e| format!("not an event: {e}"))
}

/// Writes every fact of `event` in its canonical form (see [`FactText`]);
/// whether any was not. For text from outside the store: a fact written
/// with its keys in another order, or spaced, is the same fact, but its
/// commitment is to the canonical text.
pub(crate) fn canonical_facts(event: &mut Event) -> bool {
    let Body::ActionAccepted(accepted) = &mut event.body else {
        return false;
    };
    let mut changed = false;
    for fact in &mut accepted.facts {
        // Too deep to read: left as it is, for the hash to refuse.
        let Ok(value) = fact.value() else {
            continue;
        };
        let canonical = FactText::of(&value);
        if canonical != *fact {
            *fact = canonical;
            changed = true;
        }
    }
    changed
}

/// An event an import stages (see [`Log::import_events`]), with the JSON
/// text it was read from when that text reads as it is (the current
/// schema, nothing upcast). A store that keeps events as JSON may keep
/// that text rather than write the event again: it reads back to the same
/// event, every field known, and reads and exports write events anew.
pub struct Staged {
    pub event: Event,
    pub json: Option<String>,
}

/// Places drafts after `(head, head_hash)`, chaining their hashes.
pub(crate) fn place(
    game: &str,
    branch: &str,
    head: u64,
    head_hash: &str,
    key: Option<&str>,
    drafts: Vec<Draft>,
) -> Vec<Event> {
    let mut prev_hash = head_hash.to_string();
    let mut events = Vec::with_capacity(drafts.len());
    for (i, draft) in drafts.into_iter().enumerate() {
        let mut event = Event {
            game: game.to_string(),
            branch: branch.to_string(),
            seq: head + 1 + i as u64,
            recorded_at_ms: draft.recorded_at_ms,
            actor: draft.actor,
            schema_version: SCHEMA_VERSION,
            idempotency_key: key.map(str::to_string),
            prev_hash: std::mem::take(&mut prev_hash),
            hash: String::new(),
            salt: draft.salt,
            body: draft.body,
        };
        event.hash = event_hash(&event);
        prev_hash = event.hash.clone();
        events.push(event);
    }
    events
}

/// Whether `bodies` hold an action: play, which a line taken back refuses
/// (notes, names and dice shares it still takes).
pub(crate) fn plays<'a>(bodies: impl IntoIterator<Item = &'a Body>) -> bool {
    bodies
        .into_iter()
        .any(|body| matches!(body, Body::ActionAccepted(_)))
}

/// The drafts `events` were placed from, for placing again on a head that
/// moved: the bodies move back, uncopied.
pub(crate) fn unplace(events: Vec<Event>) -> Vec<Draft> {
    events
        .into_iter()
        .map(|e| Draft {
            recorded_at_ms: e.recorded_at_ms,
            actor: e.actor,
            salt: e.salt,
            body: e.body,
        })
        .collect()
}

/// The parts of a branch's history `from..=to`, oldest first, as (the
/// branch that owns them, first seq, last seq): a branch owns the seqs after
/// its fork seq, and those up to it are its parent's (and so on up).
/// `parent_of` reads a branch's record by name.
pub(crate) fn history_segments(
    branch: BranchRecord,
    from: u64,
    to: u64,
    mut parent_of: impl FnMut(&str) -> Result<BranchRecord, StoreError>,
) -> Result<Vec<(String, u64, u64)>, StoreError> {
    let mut segments = Vec::new();
    let mut rec = branch;
    let mut hi = to;
    loop {
        let lower = rec.fork_seq.unwrap_or(0);
        if hi > lower {
            segments.push((rec.name.clone(), from.max(lower + 1), hi));
        }
        match &rec.parent {
            Some(parent) if from <= lower => {
                hi = hi.min(lower);
                rec = parent_of(parent)?;
            }
            _ => break,
        }
    }
    segments.reverse();
    Ok(segments)
}

/// Checks that a fork of `from` (whose head is `head`) at `at` shares at
/// least the creation and no more than there is.
pub(crate) fn check_fork_seq(game: &str, from: &str, at: u64, head: u64) -> Result<(), StoreError> {
    if at == 0 || at > head {
        return Err(StoreError::NoSuchSeq {
            game: game.to_string(),
            branch: from.to_string(),
            seq: at,
            head,
        });
    }
    Ok(())
}

pub(crate) fn check_drafts(drafts: &[Draft], first_seq: u64) -> Result<(), StoreError> {
    for (i, d) in drafts.iter().enumerate() {
        let seq = first_seq + i as u64;
        if matches!(d.body, Body::GameCreated(_)) != (seq == 1) {
            return Err(StoreError::InvalidEvent {
                seq,
                why: "a game is created by its seq 1 and only there".into(),
            });
        }
        if d.salt.len() != 2 * crate::seal::SALT_BYTES {
            return Err(StoreError::InvalidEvent {
                seq,
                why: "a new event needs a salt (Draft::new draws one)".into(),
            });
        }
    }
    Ok(())
}
