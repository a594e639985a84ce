//! The log layer's typed errors.

use std::path::PathBuf;

use thiserror::Error;

/// What can go wrong in the event log.
#[derive(Debug, Error)]
pub enum StoreError {
    /// The expected seq given with an append is not the branch's head.
    #[error("expected seq {expected} but the branch head is {head}")]
    Conflict { expected: u64, head: u64 },
    #[error("no game `{0}`")]
    UnknownGame(String),
    #[error("game `{game}` has no branch `{branch}`")]
    UnknownBranch { game: String, branch: String },
    #[error("game `{0}` already exists")]
    GameExists(String),
    #[error("game `{game}` already has a branch `{branch}`")]
    BranchExists { game: String, branch: String },
    /// A seq outside `1..=head` of a branch.
    #[error("branch `{branch}` of game `{game}` has no seq {seq} (head is {head})")]
    NoSuchSeq {
        game: String,
        branch: String,
        seq: u64,
        head: u64,
    },
    /// A game id or branch name the key layout cannot hold.
    #[error("bad {what} {name:?}: {why}")]
    BadName {
        what: &'static str,
        name: String,
        why: &'static str,
    },
    /// An event handed to the log that breaks the log's own invariants
    /// (import of a broken chain, a draft that is not allowed at its place).
    #[error("invalid event at seq {seq}: {why}")]
    InvalidEvent { seq: u64, why: String },
    /// A stored event that is missing or unreadable.
    #[error("game `{game}` branch `{branch}` seq {seq}: {why}")]
    BadEvent {
        game: String,
        branch: String,
        seq: u64,
        why: String,
    },
    /// A stored value that does not parse: corruption or a foreign database.
    #[error("corrupt {what}: {why}")]
    Corrupt { what: String, why: String },
    /// An old event shape no upcaster can bring to the current schema.
    #[error("cannot upcast event from schema version {from}: {why}")]
    Upcast { from: u32, why: String },
    #[error("{}", sled_message(.0))]
    Sled(#[from] sled::Error),
    /// The store's files hold data sled cannot read back.
    #[error("the store at {path} is damaged: sled cannot read back its data file {path}/db or its snapshot {path}/snap.* ({detail}). Keep the damaged copy: move the directory aside, then restore your last backup into a fresh store with `tabletape --store NEW_PATH restore BACKUP.jsonl` (README: Recovery)")]
    Damaged { path: PathBuf, detail: String },
    /// A write fault (a full disk) stopped writes; reads go on, and writes
    /// resume by themselves once the disk takes them again.
    #[error("the store at {path} cannot write now ({cause}); reads still work, and writes resume by themselves once the disk has room")]
    Unwritable { path: PathBuf, cause: String },
    /// Another process holds the store open.
    #[error("the store at {path} is in use by another process{}: stop it, or use another --store", holder.as_deref().map(|h| format!(" ({h})")).unwrap_or_default())]
    Locked {
        path: PathBuf,
        /// Who holds it, when a `tabletape serve` said so in the store.
        holder: Option<String>,
    },
    #[error("io on {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The PostgreSQL backend failed: the server's words, or why it
    /// cannot be reached.
    #[error("PostgreSQL: {0}")]
    Postgres(String),
    /// The store cannot be reached now (its database is down or out of
    /// reach): the request may succeed later, unchanged.
    #[error("the store cannot be reached: {0}")]
    Unavailable(String),
    #[error("operating system randomness failed: {0}")]
    Random(String),
}

/// sled's own words, with what to do when they speak of corruption.
fn sled_message(e: &sled::Error) -> String {
    match e {
        sled::Error::Corruption { .. } => format!(
            "the store's data file (`db` in the store directory) is damaged ({e}); restore your last backup into a fresh store with `tabletape --store NEW_PATH restore BACKUP.jsonl` (README: Recovery)"
        ),
        other => format!("sled: {other}"),
    }
}

impl StoreError {
    pub(crate) fn corrupt(what: impl Into<String>, why: impl std::fmt::Display) -> Self {
        StoreError::Corrupt {
            what: what.into(),
            why: why.to_string(),
        }
    }
}
