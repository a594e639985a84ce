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
//! Layout (sled trees; keys use `0` bytes as separators, which names may not contain):
//! `games` id -> [`GameMeta`]; `branches` game/branch -> [`BranchRecord`];
//! `heads` game/branch -> head seq (8 bytes, big-endian) + head hash;
//! `events` game/branch/seq -> the event's JSON; `idempotency`
//! game/branch/key -> [`Receipt`]; `snapshots` game/branch/seq -> a cached
//! [`Snapshot`] (droppable; stored under the branch that owns that seq, so
//! every descendant shares it).
//!
//! Appends are written in groups (see [`commit`]): each appender chains and
//! encodes its events outside any lock, then one leader checks and writes
//! every queued append (its events, its receipt, its head last, so a crash
//! keeps all of an append or none of it that a reader can reach), flushes
//! and syncs once. A creation or a fork is one sled transaction. An import
//! is staged instead (events in batches, then branches and heads) and
//! committed by writing the game record last.
//!
//! Memory. sled's page cache is capped at [`CACHE_CAPACITY`] (64 MiB, not
//! sled's default 1 GiB); reads never return more than the range asked for.
//!
//! Durability. sled 0.34's `flush()` ends in `sync_file_range` on Linux, which
//! does not force the drive's write cache, so a write is acknowledged only
//! after `flush()` *and* an `fdatasync` of sled's log file `db` (and of its
//! blob files, when sled made any); the directory and `conf` are synced once
//! at open. Appends share that sync through their groups; a creation, fork or
//! import shares it through a ticket: each takes a ticket from a counter
//! under a mutex after its transaction commits. If no sync is running it
//! becomes the leader: it notes the last ticket issued, syncs, and marks
//! every ticket up to that one as synced. Otherwise it waits on a condvar
//! until the synced mark reaches its ticket, or until the running sync ends
//! without covering it, when it leads the next one.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::ops::Bound;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError, RwLock};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;
use sha2::{Digest, Sha256};
use sled::transaction::{abort, TransactionError};
use sled::Transactional;
use tabletape_engine::Snapshot;
use tabletape_events::{Actor, Body, Event, MAIN_BRANCH, SCHEMA_VERSION};

use crate::error::StoreError;
use crate::seal::event_hash;
use crate::upcast::upcast;

mod commit;
pub mod postgres;

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
            salt: hex::encode(salt),
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
    /// durably, in one step.
    fn take_back(&self, game: &str, from: &str, branch: &str) -> Result<(), StoreError>;

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
    fn import_events(&self, game: &str, events: &[Event]) -> Result<(), StoreError>;

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

/// The sled backend.
pub struct SledLog {
    path: PathBuf,
    /// The open database; replaced by a fresh opening when a write fault
    /// (a full disk) has left sled unable to write (see [`Unsynced`]).
    sled: RwLock<Option<Arc<Sled>>>,
    sync: GroupCommit,
    /// sled's log file, kept open for the sync of each group (sled never
    /// replaces it, not even when it is reopened after a fault).
    db_file: File,
    /// Appends waiting for, or being written in, a group (see [`commit`]).
    groups: commit::Groups,
    /// What failed writes left in sled's memory that readers must not see.
    unsynced: Mutex<Unsynced>,
    /// Whether `unsynced` holds anything: readers look here first, so the
    /// usual path takes no lock.
    faulted: AtomicBool,
}

/// One opening of the sled database and its trees.
struct Sled {
    db: sled::Db,
    games: sled::Tree,
    branches: sled::Tree,
    heads: sled::Tree,
    events: sled::Tree,
    idempotency: sled::Tree,
    snapshots: sled::Tree,
    /// Content packs by their SHA-256, each stored once however many games
    /// use it (see [`encode_stored`]). Never pruned: a pack is small next
    /// to one copy per game, and a game deleted may share it.
    packs: sled::Tree,
    /// Store-wide settings: the admin token's hash.
    settings: sled::Tree,
}

/// The key of the admin token's hash in `settings`.
const ADMIN_TOKEN_KEY: &[u8] = b"admin_token_hash";

/// The group-commit state: tickets issued to committed appenders, and how
/// far the syncs have got.
#[derive(Default)]
struct GroupCommit {
    state: Mutex<SyncState>,
    synced_cv: Condvar,
}

#[derive(Default)]
struct SyncState {
    issued: u64,
    synced: u64,
    syncing: bool,
}

const SEP: u8 = 0;

/// How often an append without an expected seq chains its events again
/// when other appends keep moving the head before its group is written.
pub(crate) const APPEND_RETRIES: usize = 16;

/// sled's page cache, in bytes. sled's default is 1 GiB, which a long game
/// fills (every event read or written passes through it) on top of what the
/// process needs. 64 MiB keeps recent pages hot: on the million-event bench
/// it cut the peak by about 200 MiB against 256 MiB for some 7% slower
/// exports. Reads past it go to the OS page cache.
pub const CACHE_CAPACITY: u64 = 64 * 1024 * 1024;

/// Whether `c` would break a line or a terminal: a control character (NUL,
/// C0, DEL, C1 such as U+0085) or a line or paragraph separator.
pub fn breaks_lines(c: char) -> bool {
    c.is_control() || c == '\u{2028}' || c == '\u{2029}'
}

/// Whether `c` is an invisible format character (a zero-width space or
/// joiner, a bidirectional control, a byte order mark): two names that
/// differ only by one would look the same.
fn invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}')
}

/// A branch name as it is kept: in Unicode NFC, so that names written
/// with other code points for the same letters are one name.
pub fn normalised_name(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    name.nfc().collect()
}

/// The form two branch names are compared in: names equal in it may not
/// sit side by side (`main`, `MAIN`).
pub fn folded_name(name: &str) -> String {
    normalised_name(name).to_lowercase()
}

/// Checks a branch name (or other free-form name the key layout holds): one
/// line, in NFC, with no invisible characters and no space at either end.
pub fn check_name(what: &'static str, name: &str) -> Result<(), StoreError> {
    let why = if name.trim().is_empty() {
        "it is empty"
    } else if name.len() > 200 {
        "it is longer than 200 bytes"
    } else if name.chars().any(breaks_lines) {
        "it contains a control character or a line break"
    } else if name.chars().any(invisible) {
        "it contains an invisible character (a zero-width or bidirectional control)"
    } else if name.trim() != name {
        "it begins or ends with a space"
    } else if normalised_name(name) != name {
        "it is not in Unicode NFC (compose its accents)"
    } else {
        return Ok(());
    };
    Err(StoreError::BadName {
        what,
        name: name.to_string(),
        why,
    })
}

/// Ids the API's routes use beside `/games/{id}`.
const RESERVED_IDS: &[&str] = &["import"];

/// Checks a game id: 1 to 64 ASCII letters, digits, `-`, `_` or `.`, not
/// starting with `.` and not a route's own word, so an id is safe in a URL
/// path, a header and a file name as it is.
pub fn check_game_id(game: &str) -> Result<(), StoreError> {
    let why = if game.is_empty() {
        "it is empty"
    } else if game.len() > 64 {
        "it is longer than 64 characters"
    } else if game.starts_with('.') {
        "it starts with `.`"
    } else if RESERVED_IDS.contains(&game.to_ascii_lowercase().as_str()) {
        "it is the name of a route (`/games/import`), so the game could not be reached by it"
    } else if !game
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        "only ASCII letters, digits, `-`, `_` and `.` may be used"
    } else {
        return Ok(());
    };
    Err(StoreError::BadName {
        what: "game id",
        name: game.to_string(),
        why,
    })
}

fn branch_key(game: &str, branch: &str) -> Vec<u8> {
    let mut k = Vec::with_capacity(game.len() + branch.len() + 1);
    k.extend_from_slice(game.as_bytes());
    k.push(SEP);
    k.extend_from_slice(branch.as_bytes());
    k
}

fn game_prefix(game: &str) -> Vec<u8> {
    let mut k = game.as_bytes().to_vec();
    k.push(SEP);
    k
}

fn seq_key(game: &str, branch: &str, seq: u64) -> Vec<u8> {
    let mut k = branch_key(game, branch);
    k.push(SEP);
    k.extend_from_slice(&seq.to_be_bytes());
    k
}

fn idem_key(game: &str, branch: &str, key: &str) -> Vec<u8> {
    let mut k = branch_key(game, branch);
    k.push(SEP);
    k.extend_from_slice(key.as_bytes());
    k
}

fn encode_head(seq: u64, hash: &str) -> Vec<u8> {
    let mut v = seq.to_be_bytes().to_vec();
    v.extend_from_slice(hash.as_bytes());
    v
}

fn decode_head(raw: &[u8]) -> Result<(u64, String), StoreError> {
    if raw.len() < 8 {
        return Err(StoreError::corrupt("branch head", "shorter than 8 bytes"));
    }
    let seq = u64::from_be_bytes(raw[..8].try_into().expect("8 bytes"));
    let hash =
        std::str::from_utf8(&raw[8..]).map_err(|e| StoreError::corrupt("branch head hash", e))?;
    Ok((seq, hash.to_string()))
}

pub(crate) fn to_json<T: Serialize>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).expect("store records serialize")
}

pub(crate) fn from_json<T: serde::de::DeserializeOwned>(
    what: &str,
    raw: &[u8],
) -> Result<T, StoreError> {
    serde_json::from_slice(raw).map_err(|e| StoreError::corrupt(what, e))
}

/// The first byte of a stored creation whose content pack is kept once in
/// `packs` under its SHA-256 (every game of a box shares one copy): then
/// the pack's 32-byte hash, then the event's JSON with a null pack. No JSON
/// starts with this byte, so a stored event says by itself which it is.
const SHARED_PACK: u8 = 0x01;

/// The bytes an event is stored as: JSON, except that a creation's pack is
/// stored once per content (in `packs`, written here if new) and the event
/// refers to it. The event and its hash are unchanged: reading puts the
/// pack back.
fn encode_stored(s: &Sled, event: &Event) -> Result<Vec<u8>, StoreError> {
    let Body::GameCreated(created) = &event.body else {
        return Ok(to_json(event));
    };
    let pack = to_json(&created.pack);
    let hash: [u8; 32] = Sha256::digest(&pack).into();
    if !s.packs.contains_key(hash)? {
        s.packs.insert(hash, pack)?;
    }
    let mut bare = event.clone();
    if let Body::GameCreated(created) = &mut bare.body {
        created.pack = Value::Null;
    }
    let mut out = Vec::with_capacity(64 + 33);
    out.push(SHARED_PACK);
    out.extend_from_slice(&hash);
    serde_json::to_writer(&mut out, &bare).expect("events serialize");
    Ok(out)
}

/// Reads an event as stored (see [`encode_stored`]).
fn decode_stored(s: &Sled, raw: &[u8]) -> Result<Event, String> {
    let Some((&SHARED_PACK, rest)) = raw.split_first() else {
        return decode_event(raw);
    };
    if rest.len() < 32 {
        return Err("a shared-pack creation shorter than its pack's hash".into());
    }
    let (hash, json) = rest.split_at(32);
    let mut event = decode_event(json)?;
    let pack = s
        .packs
        .get(hash)
        .map_err(|e| format!("its content pack cannot be read: {e}"))?
        .ok_or_else(|| format!("its content pack {} is missing", hex::encode(hash)))?;
    let Body::GameCreated(created) = &mut event.body else {
        return Err("a shared pack on an event that is not a creation".into());
    };
    created.pack = serde_json::from_slice(&pack).map_err(|e| format!("its content pack: {e}"))?;
    Ok(event)
}

/// Reads one stored event as a `T`, with its seq.
type Decode<T> = fn(&Sled, &[u8]) -> Result<(T, u64), String>;

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
    /// Any other event, whole.
    Event(Box<Event>),
}

/// What a fold reads of a stored event; the rest (the action, draws,
/// hashes) is skipped, not parsed.
#[derive(Deserialize)]
struct FoldRead<'a> {
    seq: u64,
    actor: Actor,
    schema_version: u32,
    #[serde(borrow)]
    body: FoldBody<'a>,
}

#[derive(Deserialize)]
pub(crate) struct FoldBody<'a> {
    #[serde(rename = "type", borrow)]
    pub(crate) kind: Cow<'a, str>,
    #[serde(borrow, default)]
    pub(crate) facts: Option<&'a RawValue>,
}

/// Reads a stored event as a [`FoldStep`]: an accepted action of the current
/// schema by its facts alone, anything else whole.
fn decode_step(s: &Sled, raw: &[u8]) -> Result<(FoldStep, u64), String> {
    if let Ok(read) = serde_json::from_slice::<FoldRead<'_>>(raw) {
        if let (SCHEMA_VERSION, "action_accepted", Some(facts)) =
            (read.schema_version, &*read.body.kind, read.body.facts)
        {
            let step = FoldStep::Facts {
                seq: read.seq,
                actor: read.actor,
                facts: facts.to_owned(),
            };
            return Ok((step, read.seq));
        }
    }
    let event = decode_stored(s, raw)?;
    let seq = event.seq;
    Ok((FoldStep::Event(Box::new(event)), seq))
}

/// Parses a stored event, bringing it to the current schema first.
pub(crate) fn decode_event(raw: &[u8]) -> Result<Event, String> {
    // An event of the current schema is read straight into its type, in one
    // pass; anything else (an older one, or one that does not read) goes
    // through a JSON value to be upcast, or to say what is wrong with it.
    if let Ok(event) = serde_json::from_slice::<Event>(raw) {
        if event.schema_version == SCHEMA_VERSION {
            return Ok(event);
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
    serde_json::from_value(value).map_err(|e| format!("not an event: {e}"))
}

/// Whether the append a receipt records reached the branch's head at
/// `head_seq` and is still its history there: a crash can keep a receipt
/// whose head it lost (see [`commit`]), and the seqs may hold other events
/// by now.
fn receipt_reached(
    s: &Sled,
    game: &str,
    branch: &str,
    head_seq: u64,
    receipt: &Receipt,
) -> Result<bool, StoreError> {
    if receipt.last_seq() > head_seq {
        return Ok(false);
    }
    let Some(raw) = s.events.get(seq_key(game, branch, receipt.last_seq()))? else {
        return Ok(false);
    };
    let event = decode_stored(s, &raw).map_err(|why| StoreError::BadEvent {
        game: game.to_string(),
        branch: branch.to_string(),
        seq: receipt.last_seq(),
        why,
    })?;
    Ok(receipt.hashes.last() == Some(&event.hash))
}

/// Places drafts after `(head, head_hash)`, chaining their hashes.
pub(crate) fn place(
    game: &str,
    branch: &str,
    head: u64,
    head_hash: &str,
    key: Option<&str>,
    drafts: &[Draft],
) -> Vec<Event> {
    let mut prev_hash = head_hash.to_string();
    let mut events = Vec::with_capacity(drafts.len());
    for (i, draft) in drafts.iter().enumerate() {
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
            salt: draft.salt.clone(),
            body: draft.body.clone(),
        };
        event.hash = event_hash(&event);
        prev_hash = event.hash.clone();
        events.push(event);
    }
    events
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

/// Turns a transaction result into ours.
fn tx<T>(r: Result<T, TransactionError<StoreError>>) -> Result<T, StoreError> {
    r.map_err(|e| match e {
        TransactionError::Abort(e) => e,
        TransactionError::Storage(e) => StoreError::Sled(e),
    })
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Fsyncs every file under `dir`, then `dir` itself (so new names are durable too).
fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    for entry in std::fs::read_dir(dir).map_err(io_err(dir))? {
        let entry = entry.map_err(io_err(dir))?;
        let path = entry.path();
        let kind = entry.file_type().map_err(io_err(&path))?;
        if kind.is_dir() {
            sync_dir(&path)?;
        } else if kind.is_file() {
            match File::open(&path) {
                Ok(f) => f.sync_all().map_err(io_err(&path))?,
                // sled removes old snapshot files while we walk; a file that is
                // gone holds nothing that needs to be durable.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(io_err(&path)(e)),
            }
        }
    }
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(io_err(dir))
}

/// What one group commit must make durable, and no more: sled's log file
/// `db` (sled's `flush` only starts its write-back, so it gets a real
/// `fdatasync`) and, when sled has any, its blob files (values too large
/// for a segment). The directory and `conf` change only at open, which
/// syncs the whole store once. One `fdatasync` instead of a walk that
/// opened and synced every file and directory on every group.
fn sync_group(dir: &Path, db: &File) -> Result<(), StoreError> {
    db.sync_data().map_err(io_err(&dir.join("db")))?;
    let blobs = dir.join("blobs");
    match std::fs::read_dir(&blobs) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                sync_dir(&blobs)?;
            }
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(io_err(&blobs)(e)),
    }
}

/// The file in a store directory where a serving process says who it is,
/// so another process that finds the store locked can name the holder.
pub const HOLDER_FILE: &str = "holder.txt";

/// Says in the store at `path` who holds it (`tabletape serve, pid 41, on
/// 127.0.0.1:7878`), until [`clear_holder`].
pub fn note_holder(path: &Path, who: &str) -> Result<(), StoreError> {
    let file = path.join(HOLDER_FILE);
    std::fs::write(&file, who).map_err(io_err(&file))
}

/// Removes what [`note_holder`] wrote.
pub fn clear_holder(path: &Path) {
    let _ = std::fs::remove_file(path.join(HOLDER_FILE));
}

/// How long `open` waits for a lock that a just-closed handle still holds.
const LOCK_WAIT_MS: u64 = 2_000;

/// What writes that reached sled's memory but failed to reach the disk
/// left behind. sled refuses every write after such a fault, so nothing
/// builds on them; readers see the store as it was before them, and
/// [`SledLog::recover`] removes them once the disk takes writes again.
#[derive(Debug, Default)]
struct Unsynced {
    /// Set at the first failed sync, cleared by a recovery.
    broken: Option<String>,
    /// Branches with failed appends: the head (seq, hash) before the first.
    heads: HashMap<(String, String), (u64, String)>,
    /// Games whose creation or import failed to sync.
    games: HashSet<String>,
    /// Branches whose fork failed to sync.
    branches: HashSet<(String, String)>,
}

/// Free room a recovery wants before it reopens the store: a sled segment
/// and a little more.
const RECOVERY_ROOM_BYTES: usize = 1024 * 1024;

/// Removes from a fresh opening whatever writes that failed to sync did
/// reach the files: events past each branch's last synced head (and their
/// receipts), games created and branches forked without a sync.
fn undo_unsynced(s: &Sled, unsynced: &Unsynced) -> Result<(), StoreError> {
    for ((game, branch), (seq, hash)) in &unsynced.heads {
        let bkey = branch_key(game, branch);
        let mut batch = sled::Batch::default();
        for key in s
            .events
            .range(seq_key(game, branch, seq + 1)..=seq_key(game, branch, u64::MAX))
            .keys()
        {
            batch.remove(key?);
        }
        s.events.apply_batch(batch)?;
        if s.heads.contains_key(&bkey)? {
            s.heads.insert(bkey.as_slice(), encode_head(*seq, hash))?;
        }
        let mut prefix = bkey.clone();
        prefix.push(SEP);
        for item in s.idempotency.scan_prefix(&prefix) {
            let (key, raw) = item?;
            let receipt: Receipt = from_json("idempotency receipt", &raw)?;
            if receipt.last_seq() > *seq {
                s.idempotency.remove(key)?;
            }
        }
    }
    for (game, branch) in &unsynced.branches {
        let bkey = branch_key(game, branch);
        s.branches.remove(&bkey)?;
        s.heads.remove(&bkey)?;
        let mut prefix = bkey.clone();
        prefix.push(SEP);
        for tree in [&s.events, &s.idempotency, &s.snapshots] {
            for key in tree.scan_prefix(&prefix).keys() {
                tree.remove(key?)?;
            }
        }
    }
    for game in &unsynced.games {
        s.games.remove(game.as_bytes())?;
        for tree in [
            &s.events,
            &s.branches,
            &s.heads,
            &s.idempotency,
            &s.snapshots,
        ] {
            for key in tree.scan_prefix(game_prefix(game)).keys() {
                tree.remove(key?)?;
            }
        }
    }
    Ok(())
}

/// Opens the sled database at `path`, with a message for each way that fails.
fn open_sled(path: &Path) -> Result<Sled, StoreError> {
    let config = sled::Config::new()
        .path(path)
        .cache_capacity(CACHE_CAPACITY);
    // sled releases its file lock from a background thread after the last
    // handle drops, so a reopen right after a close (a restart, a test) can
    // briefly find the lock still held: wait for it rather than fail.
    let mut waited_ms = 0;
    let db = loop {
        match config.open() {
            Err(sled::Error::Io(e)) if e.to_string().contains("could not acquire lock") => {
                if waited_ms >= LOCK_WAIT_MS {
                    return Err(StoreError::Locked {
                        path: path.to_path_buf(),
                        holder: std::fs::read_to_string(path.join(HOLDER_FILE))
                            .ok()
                            .map(|h| h.trim().to_string())
                            .filter(|h| !h.is_empty()),
                    });
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
                waited_ms += 20;
            }
            Err(sled::Error::Corruption { at, .. }) => {
                return Err(StoreError::Damaged {
                    path: path.to_path_buf(),
                    detail: match at {
                        Some(at) => format!("corrupt data at {at:?}"),
                        None => "a checksum or a log position does not match".into(),
                    },
                })
            }
            Err(sled::Error::Io(e)) => return Err(io_err(path)(e)),
            other => break other?,
        }
    };
    Ok(Sled {
        games: db.open_tree("games")?,
        branches: db.open_tree("branches")?,
        heads: db.open_tree("heads")?,
        events: db.open_tree("events")?,
        idempotency: db.open_tree("idempotency")?,
        snapshots: db.open_tree("snapshots")?,
        packs: db.open_tree("packs")?,
        settings: db.open_tree("settings")?,
        db,
    })
}

/// Makes a store readable by its owner only: the directory (so whatever
/// sled writes in it later is closed to others too) and each file already
/// there. A store holds every game's seed and every player's secrets.
fn owner_only(path: &Path) -> Result<(), StoreError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let set = |p: &Path, mode: u32| {
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).map_err(io_err(p))
        };
        set(path, 0o700)?;
        let mut dirs = vec![path.to_path_buf()];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).map_err(io_err(&dir))? {
                let entry = entry.map_err(io_err(&dir))?;
                let p = entry.path();
                if entry.file_type().map_err(io_err(&p))?.is_dir() {
                    set(&p, 0o700)?;
                    dirs.push(p);
                } else {
                    set(&p, 0o600)?;
                }
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

impl SledLog {
    /// Opens (creating if needed) the database directory at `path`.
    pub fn open(path: &Path) -> Result<SledLog, StoreError> {
        let sled = open_sled(path)?;
        // The store's names (`db`, `conf`, the directory) are made durable
        // once here; each group commit then syncs only what it wrote.
        sled.db.flush()?;
        sync_dir(path)?;
        owner_only(path)?;
        let db = path.join("db");
        let db_file = File::open(&db).map_err(io_err(&db))?;
        Ok(SledLog {
            db_file,
            sled: RwLock::new(Some(Arc::new(sled))),
            path: path.to_path_buf(),
            sync: GroupCommit::default(),
            groups: commit::Groups::default(),
            unsynced: Mutex::default(),
            faulted: AtomicBool::new(false),
        })
    }

    /// The database as now opened; reopened first if a recovery could not
    /// finish (see [`SledLog::recover`]).
    fn sled(&self) -> Result<Arc<Sled>, StoreError> {
        if let Some(sled) = &*self.sled.read().unwrap_or_else(PoisonError::into_inner) {
            return Ok(Arc::clone(sled));
        }
        self.recover()?;
        self.sled
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
            .ok_or_else(|| StoreError::Unwritable {
                path: self.path.clone(),
                cause: "the store could not be reopened".into(),
            })
    }

    fn unsynced(&self) -> std::sync::MutexGuard<'_, Unsynced> {
        self.unsynced.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Before a write: when a fault left sled unable to write, reopens the
    /// store once the disk has room again and removes what the failed writes
    /// left; while it has none, refuses the write with the fault's cause.
    fn writable(&self) -> Result<(), StoreError> {
        if !self.faulted.load(Ordering::SeqCst) {
            return Ok(());
        }
        let cause = match &self.unsynced().broken {
            None => return Ok(()),
            Some(cause) => cause.clone(),
        };
        self.recover().map_err(|e| StoreError::Unwritable {
            path: self.path.clone(),
            cause: format!("{cause}; recovery: {e}"),
        })
    }

    /// Reopens sled from its files and undoes there what failed to sync.
    fn recover(&self) -> Result<(), StoreError> {
        // A probe file says whether the disk takes writes again.
        let probe = self.path.join("room.probe");
        let room = std::fs::write(&probe, vec![0u8; RECOVERY_ROOM_BYTES])
            .and_then(|()| File::open(&probe)?.sync_all());
        let _ = std::fs::remove_file(&probe);
        room.map_err(io_err(&probe))?;
        let mut slot = self.sled.write().unwrap_or_else(PoisonError::into_inner);
        let mut unsynced = self.unsynced();
        if unsynced.broken.is_none() {
            return Ok(()); // another writer recovered first
        }
        if let Some(old) = slot.take() {
            // Readers hold the old opening only for one call; sled's file
            // lock goes with the last handle, so wait for them to finish.
            for _ in 0..500 {
                if Arc::strong_count(&old) == 1 {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            drop(old);
        }
        let reopened = Arc::new(open_sled(&self.path)?);
        *slot = Some(Arc::clone(&reopened));
        undo_unsynced(&reopened, &unsynced)?;
        reopened.db.flush()?;
        sync_dir(&self.path)?;
        *unsynced = Unsynced::default();
        self.faulted.store(false, Ordering::SeqCst);
        tracing::info!(path = %self.path.display(), "the store writes again after a fault");
        Ok(())
    }

    /// Notes what a write that failed to sync left in sled's memory.
    fn failed(&self, e: &StoreError, note: impl FnOnce(&mut Unsynced)) {
        let mut unsynced = self.unsynced();
        self.faulted.store(true, Ordering::SeqCst);
        if unsynced.broken.is_none() {
            unsynced.broken = Some(e.to_string());
            tracing::error!(path = %self.path.display(), "a write did not reach the disk: {e}");
        }
        note(&mut unsynced);
    }

    /// `(seq, hash)` of a branch's head as readers may see it.
    fn visible_head(&self, game: &str, branch: &str, stored: (u64, String)) -> (u64, String) {
        if !self.faulted.load(Ordering::SeqCst) {
            return stored;
        }
        let unsynced = self.unsynced();
        match unsynced.heads.get(&(game.to_string(), branch.to_string())) {
            Some((seq, hash)) if *seq < stored.0 => (*seq, hash.clone()),
            _ => stored,
        }
    }

    /// Whether a game or branch exists only in sled's memory after a fault.
    fn hidden(&self, game: &str, branch: Option<&str>) -> bool {
        if !self.faulted.load(Ordering::SeqCst) {
            return false;
        }
        let unsynced = self.unsynced();
        unsynced.games.contains(game)
            || branch.is_some_and(|b| {
                unsynced
                    .branches
                    .contains(&(game.to_string(), b.to_string()))
            })
    }

    /// Returns once everything committed so far is on stable storage, sharing
    /// one sync among concurrent callers (see the module docs).
    fn durable(&self) -> Result<(), StoreError> {
        // After a fault nothing is acknowledged until a recovery: a sync
        // that succeeded now could cover writes built on a failed one.
        if let Some(cause) = &self.unsynced().broken {
            return Err(StoreError::Unwritable {
                path: self.path.clone(),
                cause: cause.clone(),
            });
        }
        let mut state = self
            .sync
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        state.issued += 1;
        let ticket = state.issued;
        loop {
            if state.synced >= ticket {
                return Ok(());
            }
            if state.syncing {
                state = self
                    .sync
                    .synced_cv
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
                continue;
            }
            state.syncing = true;
            let covers = state.issued;
            drop(state);
            let result = self.sync_now();
            state = self
                .sync
                .state
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            state.syncing = false;
            if result.is_ok() {
                state.synced = state.synced.max(covers);
            }
            self.sync.synced_cv.notify_all();
            result?;
        }
    }

    fn sync_now(&self) -> Result<(), StoreError> {
        let s = self.sled()?;
        s.db.flush()?;
        sync_group(&self.path, &self.db_file)
    }

    fn head(&self, game: &str, branch: &str) -> Result<(u64, String), StoreError> {
        let s = self.sled()?;
        match s.heads.get(branch_key(game, branch))? {
            Some(raw) if !self.hidden(game, Some(branch)) => {
                Ok(self.visible_head(game, branch, decode_head(&raw)?))
            }
            _ => Err(self.missing(game, branch)?),
        }
    }

    /// The error for a branch that is not there: an unknown game or branch.
    fn missing(&self, game: &str, branch: &str) -> Result<StoreError, StoreError> {
        let s = self.sled()?;
        Ok(
            if s.games.contains_key(game.as_bytes())? && !self.hidden(game, None) {
                StoreError::UnknownBranch {
                    game: game.to_string(),
                    branch: branch.to_string(),
                }
            } else {
                StoreError::UnknownGame(game.to_string())
            },
        )
    }

    fn record(&self, game: &str, branch: &str) -> Result<BranchRecord, StoreError> {
        self.branch(game, branch)?
            .map_or_else(|| Err(self.missing(game, branch)?), Ok)
    }

    /// The branch owning `seq` in `branch`'s history.
    fn owner(&self, game: &str, branch: &str, seq: u64) -> Result<String, StoreError> {
        let mut rec = self.record(game, branch)?;
        while let (Some(fork_seq), Some(parent)) = (rec.fork_seq, &rec.parent) {
            if seq > fork_seq {
                break;
            }
            rec = self.record(game, &parent.clone())?;
        }
        Ok(rec.name)
    }

    /// A branch's linear history from `from_seq` to `to_seq` (the head when
    /// `None`), walking the ancestry, each event read by `decode`.
    fn read_with<T>(
        &self,
        game: &str,
        branch: &str,
        from_seq: u64,
        to_seq: Option<u64>,
        decode: Decode<T>,
    ) -> Result<Vec<T>, StoreError> {
        let (head, _) = self.head(game, branch)?;
        let from = from_seq.max(1);
        let to = to_seq.map_or(head, |t| t.min(head));
        if from > to {
            return Ok(Vec::new());
        }
        let segments = history_segments(self.record(game, branch)?, from, to, |parent| {
            self.record(game, parent)
        })?;
        let mut out = Vec::with_capacity((to - from + 1) as usize);
        for (name, lo, hi) in segments {
            self.read_own(game, &name, (lo, hi), decode, &mut out)?;
        }
        Ok(out)
    }

    /// Own events of one branch with seqs in `lo..=hi`, checked gap-free,
    /// each read by `decode` (which also gives its seq).
    fn read_own<T>(
        &self,
        game: &str,
        branch: &str,
        (lo, hi): (u64, u64),
        decode: Decode<T>,
        out: &mut Vec<T>,
    ) -> Result<(), StoreError> {
        let s = self.sled()?;
        let mut expect = lo;
        for item in s
            .events
            .range(seq_key(game, branch, lo)..=seq_key(game, branch, hi))
        {
            let (_, raw) = item?;
            let (event, seq) = decode(&s, &raw).map_err(|why| StoreError::BadEvent {
                game: game.to_string(),
                branch: branch.to_string(),
                seq: expect,
                why,
            })?;
            if seq != expect {
                return Err(StoreError::BadEvent {
                    game: game.to_string(),
                    branch: branch.to_string(),
                    seq: expect,
                    why: format!("missing: the next stored event says seq {seq}"),
                });
            }
            out.push(event);
            expect += 1;
        }
        if expect != hi + 1 {
            return Err(StoreError::BadEvent {
                game: game.to_string(),
                branch: branch.to_string(),
                seq: expect,
                why: "missing from the log".into(),
            });
        }
        Ok(())
    }
}

impl Log for SledLog {
    fn create_game(&self, meta: &GameMeta, created: Draft) -> Result<Appended, StoreError> {
        self.writable()?;
        let s = self.sled()?;
        check_game_id(&meta.game)?;
        check_drafts(std::slice::from_ref(&created), 1)?;
        let game = meta.game.as_str();
        let events = place(
            game,
            MAIN_BRANCH,
            0,
            "",
            None,
            std::slice::from_ref(&created),
        );
        let record = BranchRecord::main_of(meta, &events[0].hash, s.db.generate_id()?);
        let first = &events[0];
        let stored = encode_stored(&s, first)?;
        tx((&s.games, &s.branches, &s.heads, &s.events).transaction(
            |(games, branches, heads, evs)| {
                if games.get(game.as_bytes())?.is_some() {
                    return abort(StoreError::GameExists(game.to_string()));
                }
                games.insert(game.as_bytes(), to_json(meta))?;
                branches.insert(branch_key(game, MAIN_BRANCH), to_json(&record))?;
                heads.insert(branch_key(game, MAIN_BRANCH), encode_head(1, &first.hash))?;
                evs.insert(seq_key(game, MAIN_BRANCH, 1), stored.as_slice())?;
                Ok(())
            },
        ))?;
        if let Err(e) = self.durable() {
            self.failed(&e, |u| {
                u.games.insert(game.to_string());
            });
            return Err(e);
        }
        Ok(Appended {
            receipt: Receipt {
                first_seq: 1,
                hashes: vec![first.hash.clone()],
                retried: false,
            },
            events,
        })
    }

    fn game(&self, game: &str) -> Result<Option<GameMeta>, StoreError> {
        if self.hidden(game, None) {
            return Ok(None);
        }
        let s = self.sled()?;
        s.games
            .get(game.as_bytes())?
            .map(|raw| from_json("game record", &raw))
            .transpose()
    }

    fn games(&self) -> Result<Vec<GameMeta>, StoreError> {
        let s = self.sled()?;
        let all: Vec<GameMeta> = s
            .games
            .iter()
            .map(|item| from_json("game record", &item?.1))
            .collect::<Result<_, _>>()?;
        Ok(all
            .into_iter()
            .filter(|g| !self.hidden(&g.game, None))
            .collect())
    }

    fn games_after(&self, after: Option<&str>, max: usize) -> Result<Vec<GameMeta>, StoreError> {
        let s = self.sled()?;
        let range = match after {
            Some(after) => s
                .games
                .range::<&[u8], _>((Bound::Excluded(after.as_bytes()), Bound::Unbounded)),
            None => s.games.iter(),
        };
        let page: Vec<GameMeta> = range
            .take(max)
            .map(|item| from_json("game record", &item?.1))
            .collect::<Result<_, _>>()?;
        Ok(page
            .into_iter()
            .filter(|g| !self.hidden(&g.game, None))
            .collect())
    }

    fn admin_token_hash(&self) -> Result<Option<String>, StoreError> {
        let s = self.sled()?;
        s.settings
            .get(ADMIN_TOKEN_KEY)?
            .map(|raw| {
                String::from_utf8(raw.to_vec())
                    .map_err(|e| StoreError::corrupt("admin token hash", e))
            })
            .transpose()
    }

    fn set_admin_token_hash(&self, hash: &str) -> Result<(), StoreError> {
        self.writable()?;
        let s = self.sled()?;
        s.settings.insert(ADMIN_TOKEN_KEY, hash.as_bytes())?;
        self.durable().inspect_err(|e| self.failed(e, |_| {}))
    }

    fn take_back(&self, game: &str, from: &str, branch: &str) -> Result<(), StoreError> {
        self.writable()?;
        let s = self.sled()?;
        let from_key = branch_key(game, from);
        tx((&s.games, &s.branches).transaction(|(games, branches)| {
            let Some(raw) = games.get(game.as_bytes())? else {
                return abort(StoreError::UnknownGame(game.to_string()));
            };
            let mut meta: GameMeta = match from_json("game record", &raw) {
                Ok(m) => m,
                Err(e) => return abort(e),
            };
            meta.current = Some(branch.to_string());
            games.insert(game.as_bytes(), to_json(&meta))?;
            if let Some(raw) = branches.get(&from_key)? {
                let mut record: BranchRecord = match from_json("branch record", &raw) {
                    Ok(r) => r,
                    Err(e) => return abort(e),
                };
                record.taken_back = true;
                branches.insert(from_key.as_slice(), to_json(&record))?;
            }
            Ok(())
        }))?;
        self.durable()
    }

    fn mark_over(&self, game: &str) -> Result<(), StoreError> {
        let s = self.sled()?;
        s.games.fetch_and_update(game.as_bytes(), |raw| {
            let raw = raw?;
            match serde_json::from_slice::<GameMeta>(raw) {
                Ok(mut meta) if !meta.over => {
                    meta.over = true;
                    Some(to_json(&meta))
                }
                // Already marked, or unreadable (left for its reader to report).
                _ => Some(raw.to_vec()),
            }
        })?;
        Ok(())
    }

    fn branch(&self, game: &str, branch: &str) -> Result<Option<BranchRecord>, StoreError> {
        if self.hidden(game, Some(branch)) {
            return Ok(None);
        }
        let s = self.sled()?;
        let key = branch_key(game, branch);
        let Some(raw) = s.branches.get(&key)? else {
            return Ok(None);
        };
        let mut record: BranchRecord = from_json("branch record", &raw)?;
        let raw_head = s.heads.get(&key)?.ok_or_else(|| {
            StoreError::corrupt("branch head", format!("branch `{branch}` has none"))
        })?;
        (record.head_seq, record.head_hash) =
            self.visible_head(game, branch, decode_head(&raw_head)?);
        Ok(Some(record))
    }

    fn branches(&self, game: &str) -> Result<Vec<BranchRecord>, StoreError> {
        let s = self.sled()?;
        let mut records = Vec::new();
        for item in s.branches.scan_prefix(game_prefix(game)) {
            let (key, _) = item?;
            let name = std::str::from_utf8(&key[game.len() + 1..])
                .map_err(|e| StoreError::corrupt("branch key", e))?;
            if let Some(r) = self.branch(game, name)? {
                records.push(r);
            }
        }
        records.sort_by_key(|r| r.order);
        Ok(records)
    }

    fn append(
        &self,
        game: &str,
        branch: &str,
        expected_seq: Option<u64>,
        idempotency_key: Option<&str>,
        drafts: Vec<Draft>,
    ) -> Result<Appended, StoreError> {
        self.writable()?;
        if drafts.is_empty() {
            return Err(StoreError::InvalidEvent {
                seq: 0,
                why: "an append needs at least one event".into(),
            });
        }
        let receipt_key = idempotency_key.map(|key| idem_key(game, branch, key));
        if let Some(key) = idempotency_key {
            if let Some(receipt) = self.receipt(game, branch, key)? {
                return Ok(Appended {
                    receipt,
                    events: Vec::new(),
                });
            }
        }
        let mut read = self.head(game, branch)?;
        // Without an expected seq a moved head is no conflict: the events
        // are chained again on the new one.
        for _ in 0..APPEND_RETRIES {
            let (head, head_hash) = read;
            if let Some(expected) = expected_seq {
                if expected != head {
                    return Err(StoreError::Conflict { expected, head });
                }
            }
            check_drafts(&drafts, head + 1)?;
            let events = place(game, branch, head, &head_hash, idempotency_key, &drafts);
            let last = events.last().expect("at least one draft");
            let receipt = Receipt {
                first_seq: head + 1,
                hashes: events.iter().map(|e| e.hash.clone()).collect(),
                retried: false,
            };
            let pending = commit::Pending {
                game: game.to_string(),
                branch: branch.to_string(),
                head_key: branch_key(game, branch),
                chained_on: encode_head(head, &head_hash),
                head_after: encode_head(last.seq, &last.hash),
                events: events
                    .iter()
                    .map(|e| (seq_key(game, branch, e.seq), to_json(e)))
                    .collect(),
                receipt: receipt_key.clone().map(|key| (key, to_json(&receipt))),
                before: (head, head_hash),
            };
            match self.commit(pending) {
                commit::Outcome::Written => return Ok(Appended { receipt, events }),
                commit::Outcome::Retried(receipt) => {
                    return Ok(Appended {
                        receipt,
                        events: Vec::new(),
                    })
                }
                commit::Outcome::Moved(seq, hash) => read = (seq, hash),
                commit::Outcome::Missing => return Err(self.missing(game, branch)?),
                commit::Outcome::Failed(e) => return Err(e),
            }
        }
        Err(StoreError::Conflict {
            expected: read.0,
            head: self.head(game, branch)?.0,
        })
    }

    fn receipt(
        &self,
        game: &str,
        branch: &str,
        idempotency_key: &str,
    ) -> Result<Option<Receipt>, StoreError> {
        let s = self.sled()?;
        let Some(raw) = s.idempotency.get(idem_key(game, branch, idempotency_key))? else {
            return Ok(None);
        };
        let mut receipt: Receipt = from_json("idempotency receipt", &raw)?;
        receipt.retried = true;
        // A receipt of an append that failed to sync, or whose head a crash
        // lost, answers nothing.
        let (head, _) = self.head(game, branch)?;
        if !receipt_reached(&s, game, branch, head, &receipt)? {
            return Ok(None);
        }
        Ok(Some(receipt))
    }

    fn fork(
        &self,
        game: &str,
        from: &str,
        at: u64,
        name: &str,
        created_at_ms: u64,
        first: Option<Draft>,
    ) -> Result<BranchRecord, StoreError> {
        self.writable()?;
        let s = self.sled()?;
        check_name("branch name", name)?;
        let (head, head_hash) = self.head(game, from)?;
        check_fork_seq(game, from, at, head)?;
        // Events up to the head never change, so the hash at `at` read here
        // is still right when the transaction below commits.
        let at_hash = if at == head {
            head_hash
        } else {
            self.read(game, from, at, Some(at))?.remove(0).hash
        };
        let drafts: Vec<Draft> = first.into_iter().collect();
        check_drafts(&drafts, at + 1)?;
        let events = place(game, name, at, &at_hash, None, &drafts);
        let reseed = events.first().and_then(|e| match e.body {
            Body::Reseeded { seed } => Some(seed),
            _ => None,
        });
        let record = BranchRecord {
            name: name.to_string(),
            parent: Some(from.to_string()),
            fork_seq: Some(at),
            created_at_ms,
            reseed,
            order: s.db.generate_id()?,
            head_seq: events.last().map_or(at, |e| e.seq),
            head_hash: events
                .last()
                .map_or_else(|| at_hash.clone(), |e| e.hash.clone()),
            taken_back: false,
        };
        let bkey = branch_key(game, name);
        let stored = events
            .iter()
            .map(|e| encode_stored(&s, e))
            .collect::<Result<Vec<_>, _>>()?;
        tx(
            (&s.branches, &s.heads, &s.events).transaction(|(branches, heads, evs)| {
                if branches.get(&bkey)?.is_some() {
                    return abort(StoreError::BranchExists {
                        game: game.to_string(),
                        branch: name.to_string(),
                    });
                }
                branches.insert(bkey.as_slice(), to_json(&record))?;
                let (head_seq, head_hash) = events
                    .last()
                    .map_or((at, at_hash.as_str()), |e| (e.seq, e.hash.as_str()));
                heads.insert(bkey.as_slice(), encode_head(head_seq, head_hash))?;
                for (event, stored) in events.iter().zip(&stored) {
                    evs.insert(seq_key(game, name, event.seq), stored.as_slice())?;
                }
                Ok(())
            }),
        )?;
        if let Err(e) = self.durable() {
            self.failed(&e, |u| {
                u.branches.insert((game.to_string(), name.to_string()));
            });
            return Err(e);
        }
        Ok(record)
    }

    fn read(
        &self,
        game: &str,
        branch: &str,
        from_seq: u64,
        to_seq: Option<u64>,
    ) -> Result<Vec<Event>, StoreError> {
        self.read_with(game, branch, from_seq, to_seq, |s, raw| {
            decode_stored(s, raw).map(|e| {
                let seq = e.seq;
                (e, seq)
            })
        })
    }

    fn read_steps(
        &self,
        game: &str,
        branch: &str,
        from_seq: u64,
        to_seq: Option<u64>,
    ) -> Result<Vec<FoldStep>, StoreError> {
        self.read_with(game, branch, from_seq, to_seq, decode_step)
    }

    fn put_snapshot(
        &self,
        game: &str,
        branch: &str,
        snapshot: &Snapshot,
    ) -> Result<(), StoreError> {
        let s = self.sled()?;
        let owner = self.owner(game, branch, snapshot.seq)?;
        s.snapshots
            .insert(seq_key(game, &owner, snapshot.seq), to_json(snapshot))?;
        Ok(())
    }

    fn snapshot_at_or_before(
        &self,
        game: &str,
        branch: &str,
        at: u64,
    ) -> Result<Option<Snapshot>, StoreError> {
        let s = self.sled()?;
        let mut rec = self.record(game, branch)?;
        let mut hi = at;
        loop {
            let lower = rec.fork_seq.unwrap_or(0);
            if hi > lower {
                let range = seq_key(game, &rec.name, lower + 1)..=seq_key(game, &rec.name, hi);
                if let Some(item) = s.snapshots.range(range).next_back() {
                    let (_, raw) = item?;
                    return Ok(Some(from_json("snapshot", &raw)?));
                }
            }
            match &rec.parent {
                Some(parent) => {
                    hi = hi.min(lower);
                    rec = self.record(game, &parent.clone())?;
                }
                None => return Ok(None),
            }
        }
    }

    fn drop_snapshots(&self) -> Result<u64, StoreError> {
        let s = self.sled()?;
        let n = s.snapshots.len() as u64;
        s.snapshots.clear()?;
        Ok(n)
    }

    fn import_events(&self, game: &str, events: &[Event]) -> Result<(), StoreError> {
        self.writable()?;
        let s = self.sled()?;
        check_game_id(game)?;
        let mut batch = sled::Batch::default();
        for e in events {
            if e.game != game {
                return Err(StoreError::InvalidEvent {
                    seq: e.seq,
                    why: format!("it names game `{}`, not `{game}`", e.game),
                });
            }
            check_name("branch name", &e.branch)?;
            batch.insert(seq_key(game, &e.branch, e.seq), encode_stored(&s, e)?);
        }
        s.events.apply_batch(batch)?;
        Ok(())
    }

    fn import_snapshot(
        &self,
        game: &str,
        branch: &str,
        snapshot: &Snapshot,
    ) -> Result<(), StoreError> {
        let s = self.sled()?;
        s.snapshots
            .insert(seq_key(game, branch, snapshot.seq), to_json(snapshot))?;
        Ok(())
    }

    fn own_event(&self, game: &str, branch: &str, seq: u64) -> Result<Option<Event>, StoreError> {
        let s = self.sled()?;
        let Some(raw) = s.events.get(seq_key(game, branch, seq))? else {
            return Ok(None);
        };
        decode_stored(&s, &raw)
            .map(Some)
            .map_err(|why| StoreError::BadEvent {
                game: game.to_string(),
                branch: branch.to_string(),
                seq,
                why,
            })
    }

    fn import_branches(&self, game: &str, branches: &[BranchRecord]) -> Result<(), StoreError> {
        self.writable()?;
        let s = self.sled()?;
        check_game_id(game)?;
        if s.games.contains_key(game.as_bytes())? {
            return Err(StoreError::GameExists(game.to_string()));
        }
        // The events are staged already; branches and heads go in one batch,
        // and the game record is written last as the commit point: until it
        // exists the game is invisible, and a retried import overwrites any
        // leftovers.
        let mut branch_batch = sled::Batch::default();
        let mut head_batch = sled::Batch::default();
        for b in branches {
            check_name("branch name", &b.name)?;
            // Fresh creation-order ids keep imported branches ordered among
            // the ones forked later in this database.
            let record = BranchRecord {
                order: s.db.generate_id()?,
                ..b.clone()
            };
            branch_batch.insert(branch_key(game, &b.name), to_json(&record));
            head_batch.insert(
                branch_key(game, &b.name),
                encode_head(b.head_seq, &b.head_hash),
            );
        }
        s.branches.apply_batch(branch_batch)?;
        s.heads.apply_batch(head_batch)?;
        Ok(())
    }

    fn commit_import(&self, meta: &GameMeta) -> Result<(), StoreError> {
        self.writable()?;
        let s = self.sled()?;
        let game = meta.game.as_str();
        let swapped =
            s.games
                .compare_and_swap(game.as_bytes(), None::<&[u8]>, Some(to_json(meta)))?;
        if swapped.is_err() {
            return Err(StoreError::GameExists(game.to_string()));
        }
        self.durable().inspect_err(|e| {
            self.failed(e, |u| {
                u.games.insert(game.to_string());
            })
        })
    }

    fn discard_import(&self, game: &str) -> Result<(), StoreError> {
        let s = self.sled()?;
        if s.games.contains_key(game.as_bytes())? {
            return Ok(());
        }
        for tree in [&s.events, &s.branches, &s.heads, &s.snapshots] {
            let mut batch = sled::Batch::default();
            for key in tree.scan_prefix(game_prefix(game)).keys() {
                batch.remove(key?);
            }
            tree.apply_batch(batch)?;
        }
        Ok(())
    }
}
