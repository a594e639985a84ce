//! The journal service: what the CLI and the HTTP API call.
//!
//! Every write goes decide-then-append: the branch is folded (from the nearest
//! snapshot), the engine decides the action against that state, and only an
//! accepted decision is appended, with the folded head as the expected seq. A
//! rejected action writes nothing.
//!
//! This file holds the service itself (opening, folding, the head cache) and
//! the types it speaks; its work is in one module per part: `write`
//! (create, act), `read` (summaries, events, state, replay, the story),
//! `lines` (fork, the line in play, take-backs), `access` (tokens and the
//! admin), `study` (notes, names, comparisons), `dice` (seats' shares),
//! `transfer` (export, import) and `verify`.
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

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};
use tabletape_engine::hex_text;

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

mod access;
mod dice;
mod lines;
mod read;
mod study;
pub mod transfer;
mod verify;
mod write;
use crate::error::StoreError;
use crate::log::{
    breaks_lines, check_game_id, decode_event_as_read, fold_steps, is_route_word, BranchRecord,
    Draft, GameMeta, Head, Log, Receipt, Staged,
};
use crate::seal::{check_shown, event_hash, Seal, ShownEvent};
pub use access::Access;
pub use dice::{commitment_to, new_share, ShareRequest};
pub use study::{Comparison, Difference, LineOutcome, NameRequest, NoteRequest};
pub use transfer::Imported;
pub use verify::{Check, EarlierRules, Problem, VerifyReport};

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

/// How many generated fork names (`ada-at-12`, `ada-at-12-2`, …) a fork tries before giving up.
const FORK_NAME_TRIES: usize = 64;

/// At most this many branch heads are kept folded in memory.
const HEAD_CACHE_MAX: usize = 256;

/// Events whose seals are kept (about a kilobyte each).
const SEALS_CACHE_MAX: usize = 16_384;

/// Events read per batch while folding, verifying or exporting, to bound
/// memory on long games.
const FOLD_CHUNK: u64 = 4096;

/// Events an import holds in memory before writing them.
const IMPORT_CHUNK: usize = 1024;

/// A branch's head as this journal wrote it, and the game's seat count
/// (a table never changes): what an action there needs besides the fold.
#[derive(Debug, Clone)]
struct Written {
    seq: u64,
    hash: String,
    seats: usize,
}

/// Folded branch heads by (game, branch), shared by readers.
type HeadCache = HashMap<(String, String), Arc<Game>>;

/// The journal over one log. Cheap to clone (one count: a server clones
/// it for every request); clones share the log and the caches.
#[derive(Clone)]
pub struct Journal {
    shared: Arc<Shared>,
    snapshot_every: u64,
    /// Events read at a time by long reads ([`FOLD_CHUNK`] unless set).
    read_chunk: u64,
}

/// What every clone of a journal shares.
struct Shared {
    log: Arc<dyn Log>,
    /// The last folded head of recently used branches: (game, branch) -> game.
    /// Events never change once written, so a cached fold at seq n stays right
    /// and only needs the events after n.
    heads: Mutex<HeadCache>,
    /// The creation of recently used games (without their content pack,
    /// which a restore does not need), so a restore from a snapshot need not
    /// read and decode event 1. A committed game's creation never changes.
    creations: Mutex<HashMap<String, Arc<GameCreated>>>,
    /// Who may open recently used games (see [`access::Keys`]): every
    /// request of a seat's phone checked its token against the game's
    /// record, read from the store and parsed each time.
    keys: Mutex<HashMap<String, Arc<access::Keys>>>,
    /// Recently used games as their creation lays them out (seq 1): setting
    /// a kind up reads and checks its whole content pack, which every fold
    /// and replay from the start would otherwise do again.
    starts: Mutex<HashMap<String, Arc<Game>>>,
    /// Recently read games' event 1 as each viewer is shown it (keyed by
    /// game and viewer): reading a game's events decoded, redacted, turned
    /// into JSON and sealed its whole content pack again on every read.
    firsts: Mutex<HashMap<String, Arc<ShownEvent>>>,
    /// The seals of recently shown events, by event hash: a part's salt and
    /// commitment follow from the stored event alone, and the same events
    /// are read again and again (a page's every refresh, a replay, a
    /// story). Only reads use it; `verify` works every seal out anew.
    seals: Mutex<HashMap<String, Arc<[Seal]>>>,
    /// Each kind's bundled content pack as the kind reads it, worked out
    /// once: a new game with the bundled pack copies it instead of parsing
    /// and checking the same 30 KB again.
    bundled: Mutex<HashMap<&'static str, Value>>,
    /// Held by an import from its first line to its commit or clean-up, so
    /// two imports of one id never interleave: a failed one's clean-up
    /// could otherwise remove what the other staged.
    importing: Mutex<()>,
    /// The head this journal last wrote on each recently used branch: the
    /// next action there needs no read before its append, which checks
    /// that head itself (see [`Log::append_on`]).
    written: Mutex<HashMap<(String, String), Written>>,
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
    /// A table's own content pack, laid over the bundled one (see
    /// `tabletape_engine::pack`); the kind's bundled pack when `None`.
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
    /// Well-formed input whose content its kind or the store rules out: a
    /// content pack or options the kind cannot read, a game id that is
    /// taken (CLI exit 2, HTTP 422 naming the `rule`).
    #[error("bad input: {message}")]
    Unfit { rule: String, message: String },
    /// Token missing or wrong (HTTP 401/403).
    #[error("forbidden: {0}")]
    Forbidden(String),
    #[error("store: {0}")]
    Store(StoreError),
    #[error("engine: {0}")]
    Engine(EngineError),
}

impl JournalError {
    /// Well-formed input whose content `rule` rules out.
    pub fn unfit(rule: &str, message: impl Into<String>) -> JournalError {
        JournalError::Unfit {
            rule: rule.to_string(),
            message: message.into(),
        }
    }

    /// A short stable code for machine output (`{"error": code}`).
    pub fn code(&self) -> &'static str {
        match self {
            JournalError::Rejected(_) => "rejected",
            JournalError::Conflict { .. } => "conflict",
            JournalError::NotFound(_) => "not_found",
            JournalError::BadInput(_) => "bad_input",
            JournalError::Unfit { .. } => "unfit",
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
            // A name of the right form that is taken: not for this store.
            e @ StoreError::GameExists(_) => JournalError::unfit("game.id", e.to_string()),
            e @ StoreError::BranchExists { .. } => {
                JournalError::unfit("branch.name", e.to_string())
            }
            e @ StoreError::BadName { .. } => JournalError::BadInput(e.to_string()),
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
    Ok(hex_text::of(random::<32>()?))
}

/// A seat's token, drawn from the owner's: whoever holds the owner's token
/// can hand out the seats' links again on any device (the store keeps only
/// hashes, so it cannot), and a seat's token tells nothing of the owner's.
fn seat_token(owner_token: &str, seat: Seat) -> String {
    hex_text::of(Sha256::digest(
        format!("tabletape seat token\n{owner_token}\n{seat}").as_bytes(),
    ))
}

/// Each player's seat token, drawn from the owner's.
fn seat_tokens(owner_token: &str, players: &[String]) -> Vec<SeatToken> {
    players
        .iter()
        .enumerate()
        .map(|(seat, player)| SeatToken {
            seat: seat as Seat,
            player: player.clone(),
            token: seat_token(owner_token, seat as Seat),
        })
        .collect()
}

/// Tokens are stored only as this hash.
fn token_hash(token: &str) -> String {
    hex_text::of(Sha256::digest(token.as_bytes()))
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
        .map_or_else(|| created.kind.clone(), |k| k.game_title().to_string());
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

/// What a per-game cache holds for `game`, or what `make` makes (and the
/// cache then keeps). What it holds comes from a committed game's event 1,
/// which never changes; a full cache is emptied rather than aged.
fn recent<T>(
    cache: &Mutex<HashMap<String, Arc<T>>>,
    game: &str,
    make: impl FnOnce() -> Result<T, JournalError>,
) -> Result<Arc<T>, JournalError> {
    let lock = || cache.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(kept) = lock().get(game) {
        return Ok(Arc::clone(kept));
    }
    let made = Arc::new(make()?);
    let mut kept = lock();
    if kept.len() >= HEAD_CACHE_MAX {
        kept.clear();
    }
    kept.insert(game.to_string(), Arc::clone(&made));
    Ok(made)
}

/// Removes `game` from a cache [`recent`] fills.
fn forget<T>(cache: &Mutex<HashMap<String, Arc<T>>>, game: &str) {
    cache
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .remove(game);
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
            shared: Arc::new(Shared {
                log,
                heads: Mutex::default(),
                creations: Mutex::default(),
                keys: Mutex::default(),
                starts: Mutex::default(),
                firsts: Mutex::default(),
                seals: Mutex::default(),
                bundled: Mutex::default(),
                importing: Mutex::default(),
                written: Mutex::default(),
            }),
            snapshot_every: SNAPSHOT_EVERY,
            read_chunk: FOLD_CHUNK,
        }
    }

    /// Writes a snapshot every `n` events instead of every
    /// [`SNAPSHOT_EVERY`] (tests use small values to exercise the cache).
    pub fn with_snapshot_every(mut self, n: u64) -> Journal {
        self.snapshot_every = n.max(1);
        self
    }

    /// Reads `n` events at a time in long reads (folds, verify, export)
    /// instead of [`FOLD_CHUNK`]: tests use small values to read ahead
    /// across many chunks.
    pub fn with_read_chunk(mut self, n: u64) -> Journal {
        self.read_chunk = n.max(1);
        self
    }

    /// The log underneath.
    pub fn log(&self) -> &Arc<dyn Log> {
        &self.shared.log
    }

    fn meta(&self, game: &str) -> Result<GameMeta, JournalError> {
        self.shared
            .log
            .game(game)?
            .ok_or_else(|| JournalError::NotFound(format!("no game `{game}`")))
    }

    fn record(&self, game: &str, branch: &str) -> Result<BranchRecord, JournalError> {
        self.meta(game)?;
        self.branch_record(game, branch)
    }

    /// [`Journal::record`] for a caller that has read the game's record.
    fn branch_record(&self, game: &str, branch: &str) -> Result<BranchRecord, JournalError> {
        self.shared.log.branch(game, branch)?.ok_or_else(|| {
            JournalError::NotFound(format!("game `{game}` has no branch `{branch}`"))
        })
    }

    fn check_seat(meta: &GameMeta, seat: Option<Seat>) -> Result<(), JournalError> {
        Self::check_seat_of(&meta.game, meta.players.len(), seat)
    }

    fn check_seat_of(game: &str, players: usize, seat: Option<Seat>) -> Result<(), JournalError> {
        match seat {
            Some(s) if s as usize >= players => Err(JournalError::unfit(
                "table.seat",
                format!(
                    "seat {s} is not at this table: game `{game}` has seats 0 to {}",
                    players - 1
                ),
            )),
            _ => Ok(()),
        }
    }

    /// The branch's fold and the head it is at as this journal last wrote
    /// it, when it has both (and `expect_seq`, if any, is that head): the
    /// next action there can be decided and appended without a read.
    fn warm_head(
        &self,
        game: &str,
        branch: &str,
        expect_seq: Option<u64>,
    ) -> Option<(Game, Written)> {
        let key = Self::cache_key(game, branch);
        let written = self
            .shared
            .written
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&key)
            .cloned()?;
        if expect_seq.is_some_and(|e| e != written.seq) {
            return None;
        }
        let folded = self.cache_take(game, branch, written.seq)?;
        if folded.seq() != written.seq {
            self.cache_put(game, branch, folded);
            return None;
        }
        let folded = Arc::try_unwrap(folded).unwrap_or_else(|shared| Game::clone(&shared));
        Some((folded, written))
    }

    /// Notes the head an append of this journal made (`None`: forgets it).
    fn note_written(&self, game: &str, branch: &str, head: Option<Written>) {
        let key = Self::cache_key(game, branch);
        let mut written = self
            .shared
            .written
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        match head {
            Some(head) => {
                if written.len() >= HEAD_CACHE_MAX && !written.contains_key(&key) {
                    written.clear();
                }
                written.insert(key, head);
            }
            None => {
                written.remove(&key);
            }
        }
    }

    fn cache_key(game: &str, branch: &str) -> (String, String) {
        (game.to_string(), branch.to_string())
    }

    /// The cached fold of a branch, shared (no copy is made).
    fn cache_get(&self, game: &str, branch: &str) -> Option<Arc<Game>> {
        let heads = self
            .shared
            .heads
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        heads.get(&Self::cache_key(game, branch)).cloned()
    }

    /// Takes the cached fold of a branch out of the cache if it is at or
    /// before `at`, for a caller that will move it on: unshared, it is moved
    /// rather than copied. A later fold stays cached for others.
    fn cache_take(&self, game: &str, branch: &str, at: u64) -> Option<Arc<Game>> {
        let key = Self::cache_key(game, branch);
        let mut heads = self
            .shared
            .heads
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if heads.get(&key)?.seq() > at {
            return None;
        }
        heads.remove(&key)
    }

    /// Caches a fold of a branch unless a later one is cached already.
    fn cache_put(&self, game: &str, branch: &str, folded: Arc<Game>) {
        let key = Self::cache_key(game, branch);
        let mut heads = self
            .shared
            .heads
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        match heads.get(&key) {
            Some(cached) if cached.seq() > folded.seq() => return,
            Some(_) => {}
            None if heads.len() >= HEAD_CACHE_MAX => heads.clear(),
            None => {}
        }
        heads.insert(key, folded);
    }

    /// Forgets what the caches hold of a game id that has just been created
    /// or imported: a game whose creation failed to reach the disk was
    /// removed by the store's recovery, and its id may be used again.
    fn forget_game(&self, game: &str) {
        forget(&self.shared.keys, game);
        forget(&self.shared.creations, game);
        forget(&self.shared.starts, game);
    }

    /// The creation of a committed game, from the cache or its event 1.
    fn creation(&self, game: &str, branch: &str) -> Result<Arc<GameCreated>, JournalError> {
        recent(&self.shared.creations, game, || {
            let first = self.shared.log.read(game, branch, 1, Some(1))?;
            Ok(tabletape_engine::without_pack(created_of(&first[0])?))
        })
    }

    /// The game at seq 1, as its creation lays it out: from the cache, or
    /// from event 1 (`first` when the caller has read it).
    fn started(
        &self,
        game: &str,
        branch: &str,
        first: Option<&Event>,
    ) -> Result<Game, JournalError> {
        let started = recent(&self.shared.starts, game, || {
            Ok(match first {
                Some(first) => Game::from_first(first)?,
                None => Game::from_first(&self.shared.log.read(game, branch, 1, Some(1))?[0])?,
            })
        })?;
        Ok(Game::clone(&started))
    }

    /// Event 1 of `game` as `viewer` (already the effective viewer) is
    /// shown it. What a creation shows depends on nothing after it.
    pub(super) fn first_shown(
        &self,
        game: &str,
        branch: &str,
        viewer: Viewer,
    ) -> Result<Arc<ShownEvent>, JournalError> {
        recent(&self.shared.firsts, &format!("{game}\n{viewer:?}"), || {
            let read = self.shared.log.read(game, branch, 1, Some(1))?;
            let first = read.first().ok_or_else(|| {
                JournalError::Store(StoreError::BadEvent {
                    game: game.to_string(),
                    branch: branch.to_string(),
                    seq: 1,
                    why: "the game has no event 1".into(),
                })
            })?;
            if viewer == Viewer::Owner {
                return Ok(ShownEvent::full_sealed(first, self.seals_of(first)));
            }
            let redacted = self
                .started(game, branch, Some(first))?
                .redact_event(first, viewer)?;
            Ok(ShownEvent::partial_sealed(
                first,
                &redacted,
                self.seals_of(first),
            ))
        })
    }

    /// The seals of `event` (none for an unsalted one), from the cache when
    /// it was shown before.
    pub(super) fn seals_of(&self, event: &Event) -> Vec<Seal> {
        if event.salt.is_empty() {
            return Vec::new();
        }
        let lock = || {
            self.shared
                .seals
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
        };
        if let Some(kept) = lock().get(&event.hash) {
            return kept.to_vec();
        }
        let made = crate::seal::seals(event);
        let mut kept = lock();
        if kept.len() >= SEALS_CACHE_MAX {
            kept.clear();
        }
        kept.insert(event.hash.clone(), made.as_slice().into());
        made
    }

    /// Caches `folded` as a snapshot of the branch at its seq. A snapshot is
    /// only a cache, so failing to write one is logged, not returned.
    fn keep_snapshot(&self, game: &str, branch: &str, snapshot: &Snapshot) {
        if let Err(e) = self.shared.log.put_snapshot(game, branch, snapshot) {
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
        // A cached fold is always right; a snapshot only saves folding. One
        // newer than the cache is written at a multiple of `snapshot_every`
        // past it: with none between, there is nothing to look up (on
        // PostgreSQL, a round trip saved whenever the cache is a few
        // events behind).
        let may_be_newer = best == 0 || at / self.snapshot_every > best / self.snapshot_every;
        let snapshot = if may_be_newer {
            self.shared.log.snapshot_at_or_before(game, branch, at)?
        } else {
            None
        };
        if let Some(snapshot) = snapshot {
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
            (None, None) => self.started(game, branch, None)?,
        };
        fold_steps::<JournalError>(
            self.shared.log.as_ref(),
            (game, branch),
            &mut folded,
            at,
            self.read_chunk,
            |folded| {
                if self.snapshot_due(folded.seq()) {
                    self.keep_snapshot(game, branch, &folded.snapshot());
                }
            },
        )?;
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
        let events =
            self.shared
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
        let name = kind.name();
        let bundled = || {
            self.shared
                .bundled
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
        };
        if let Some(pack) = bundled().get(name) {
            return Ok(pack.clone());
        }
        let pack = kind.canonical_pack(&kind.default_pack(), "<bundled>")?;
        bundled().insert(name, pack.clone());
        Ok(pack)
    }
}
