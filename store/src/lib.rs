//! Tabletape's durable journal: the event log and the service over it.
//!
//! Two layers. [`log`] is the durable, hash-chained, append-only event log
//! behind the [`Log`] trait, with sled as the first backend ([`SledLog`]); it
//! knows envelopes, branches, hashes, idempotency and durability, but no rules.
//! A second backend keeps the log on PostgreSQL ([`PgLog`]) for stores that
//! many server processes share; [`Location`] says which a store is.
//! [`journal`] is the service the CLI and the HTTP API call ([`Journal`]): it
//! ties the engine's decide/fold to the log, so an action is checked against the
//! folded state before anything is written.
//!
//! The store owns the clock and the OS randomness (timestamps, seeds, ids,
//! tokens); the engine below it has neither. Snapshots of folded state are a
//! cache: the events are always the source of truth.

pub mod backup;
pub mod diff;
pub mod error;
pub mod journal;
pub mod location;
pub mod log;
pub mod schema_doc;
pub mod scratch;
pub mod seal;
pub mod upcast;
pub mod whole;

pub use backup::{BackedUp, Restored};
pub use error::StoreError;
pub use journal::{
    commitment_to, new_share, Access, ActRequest, Acted, BranchInfo, Check, Comparison, Created,
    DiceReport, Difference, Followed, GameSummary, GamesPage, Imported, Journal, JournalError,
    LineOutcome, Listing, NameRequest, NewGame, NoteRequest, PackSource, Problem, ReplayStep,
    SeatToken, ShareRequest, StateView, Undone, VerifyReport, GAMES_PAGE_MAX,
};
pub use location::Location;
pub use log::postgres::PgLog;
pub use log::{
    clear_holder, fold_steps, note_holder, Appended, BranchRecord, Draft, FoldStep, GameMeta, Head,
    Log, Receipt, SledLog, Staged,
};
pub use seal::{check_shown, event_hash, ChainBreak, Seal, ShownEvent};
pub use tabletape_engine::{Format, Game, LegalAction, Narrative, Rejection, Viewer};
pub use tabletape_events::{Actor, DiceMode, Event, Seat, MAIN_BRANCH};
