//! The engine's typed errors.

use thiserror::Error;

/// An action the rules do not allow. Nothing is written for it.
///
/// `rule` names the rule that was broken in a short stable form
/// (`"lostworlds.restriction"`, `"physical.roll_needed"`); `message` is the
/// sentence a player reads.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{message} (rule: {rule})")]
pub struct Rejection {
    pub rule: String,
    pub message: String,
}

impl Rejection {
    pub fn new(rule: impl Into<String>, message: impl Into<String>) -> Self {
        Rejection {
            rule: rule.into(),
            message: message.into(),
        }
    }

    /// A take-back refused because the event showed what lay hidden
    /// (`what`: "a card was drawn"), which taking it back would hide again.
    pub fn revealed(what: &str) -> Self {
        Rejection::new(
            "undo.revealed",
            format!("{what}: taking it back would hide it again"),
        )
    }
}

/// Shorthand for `Err(Rejection::new(rule, message))`.
pub fn reject<T>(rule: &str, message: impl Into<String>) -> Result<T, Rejection> {
    Err(Rejection::new(rule, message))
}

/// A content pack (or option) that does not describe a playable game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{file}: {path}: {message}")]
pub struct ContentError {
    /// The pack's file name, or `"<bundled>"` for a default pack.
    pub file: String,
    /// JSON path of the offending field, such as `books[1].pictures.23.score`.
    pub path: String,
    pub message: String,
}

impl ContentError {
    /// The pack `file` is at fault at `path`, for `message`.
    pub fn new(file: &str, path: impl Into<String>, message: impl Into<String>) -> ContentError {
        ContentError {
            file: file.to_string(),
            path: path.into(),
            message: message.into(),
        }
    }
}

/// Errors of the engine that are not a player's illegal action.
#[derive(Debug, Error)]
pub enum EngineError {
    #[error("unknown kind `{0}`; `tabletape kinds` lists them")]
    UnknownKind(String),
    #[error(transparent)]
    Content(#[from] ContentError),
    #[error("option `{option}`: {message}")]
    Option { option: String, message: String },
    #[error("setup: {0}")]
    Setup(Rejection),
    /// A stored event that this kind cannot read: a corrupt or foreign log.
    #[error("event seq {seq}: {message}")]
    BadEvent { seq: u64, message: String },
}
