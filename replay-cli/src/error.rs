//! The CLI's errors and how each maps to an exit code and a machine code.
//!
//! Exit 1 means the game said no (a rule, a stale `--expect`, a failed verify);
//! exit 2 means the command could not be carried out (usage, unknown game, bad
//! input, IO, internal). The message names the rule or the field at fault.
//! Through a running server (see `remote`) the server's answers are read back
//! into the same errors, so the codes do not change.

use std::path::Path;

use tabletape_store::JournalError;
use thiserror::Error;

use crate::args::InputError;

#[derive(Debug, Error)]
pub enum CliError {
    #[error("{}", journal_message(.0))]
    Journal(#[from] JournalError),
    #[error(transparent)]
    Input(#[from] InputError),
    #[error("{path}: {source}")]
    File {
        path: String,
        source: std::io::Error,
    },
    /// Writing to stdout failed (a closed pipe is not reported).
    #[error("writing output: {0}")]
    Stdout(#[from] std::io::Error),
    /// `verify` found problems; each was already printed.
    #[error("verify found {problems} problem(s) in {branches} branch(es)")]
    Verify { problems: usize, branches: usize },
    /// One line of an actions file failed; nothing after it was recorded.
    #[error("{file}:{line}: {source}")]
    AtLine {
        file: String,
        line: usize,
        source: Box<CliError>,
    },
    #[error("bench: {0}")]
    Bench(String),
    #[error("serve: {0}")]
    Serve(std::io::Error),
    /// The server holding the store failed to answer, or failed itself
    /// (its log has the details).
    #[error("{server}: {message}")]
    Remote { server: String, message: String },
    /// A command that does not go through the server holding the store.
    #[error("{0}")]
    Served(String),
}

/// A rejection reads as the rule book would: what is wrong, then the rule.
fn journal_message(e: &JournalError) -> String {
    match e {
        JournalError::Rejected(r) => format!("rejected: {r}"),
        other => other.to_string(),
    }
}

impl CliError {
    pub fn file(path: &Path, source: std::io::Error) -> Self {
        CliError::File {
            path: path.display().to_string(),
            source,
        }
    }

    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Journal(JournalError::Rejected(_) | JournalError::Conflict { .. }) => 1,
            CliError::Verify { .. } => 1,
            CliError::AtLine { source, .. } => source.exit_code(),
            _ => 2,
        }
    }

    /// The stable code printed as `{"error": code}` with `--json`.
    pub fn code(&self) -> &'static str {
        match self {
            CliError::Journal(e) => e.code(),
            CliError::Input(_) => "bad_input",
            CliError::File { .. } | CliError::Stdout(_) | CliError::Serve(_) => "io",
            CliError::Verify { .. } => "verify_failed",
            CliError::AtLine { source, .. } => source.code(),
            CliError::Bench(_) => "bench",
            CliError::Remote { .. } => "server",
            CliError::Served(_) => "served",
        }
    }

    /// The rule broken, for a rejection.
    pub fn rule(&self) -> Option<&str> {
        match self {
            CliError::Journal(JournalError::Rejected(r)) => Some(&r.rule),
            CliError::Journal(JournalError::Unfit { rule, .. }) => Some(rule),
            CliError::AtLine { source, .. } => source.rule(),
            _ => None,
        }
    }

    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, CliError::Stdout(e) if e.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabletape_store::Rejection;

    #[test]
    fn exit_codes_follow_who_said_no() {
        let rejected = CliError::from(JournalError::Rejected(Rejection::new(
            "lostworlds.restriction",
            "Nowa must obey \"Do no Red next turn\"",
        )));
        assert_eq!(rejected.exit_code(), 1);
        assert_eq!(rejected.code(), "rejected");
        assert_eq!(rejected.rule(), Some("lostworlds.restriction"));
        assert!(
            rejected
                .to_string()
                .ends_with("(rule: lostworlds.restriction)"),
            "{rejected}"
        );
        assert_eq!(
            CliError::from(JournalError::Conflict {
                expected: 3,
                head: 4
            })
            .exit_code(),
            1
        );
        assert_eq!(
            CliError::from(JournalError::NotFound("no game `g-x`".into())).exit_code(),
            2
        );
        assert_eq!(
            CliError::from(JournalError::BadInput("kind".into())).exit_code(),
            2
        );
        let at_line = CliError::AtLine {
            file: "a.jsonl".into(),
            line: 3,
            source: Box::new(CliError::from(JournalError::Conflict {
                expected: 3,
                head: 4,
            })),
        };
        assert_eq!(at_line.exit_code(), 1);
        assert_eq!(at_line.code(), "conflict");
        assert!(
            at_line.to_string().starts_with("a.jsonl:3: conflict"),
            "{at_line}"
        );
        let input = CliError::from(InputError::OptionShape { given: "x".into() });
        assert_eq!((input.exit_code(), input.code()), (2, "bad_input"));
    }
}
