//! Colour for a person at a terminal, and for nobody else.
//!
//! Whether to colour is decided once per stream by anstream's reading of the
//! conventions (a terminal, `NO_COLOR` unset, `CLICOLOR`/`CLICOLOR_FORCE`),
//! so piped output, files and tests get plain text. The text itself never
//! changes with colour: only escape codes are added around it.

use std::fmt;
use std::io::IsTerminal;
use std::sync::OnceLock;

use anstream::ColorChoice;
use anstyle::{AnsiColor, Style};

/// A line's heading (a seq in a replay, a numbered action).
pub const HEAD: Style = Style::new().bold();
/// What went well (a verified chain).
pub const GOOD: Style = AnsiColor::Green.on_default().bold();
/// What went wrong (a broken chain, an error).
pub const BAD: Style = AnsiColor::Red.on_default().bold();
/// What is there for reference (actions as JSON, changes).
pub const DIM: Style = Style::new().dimmed();

fn wanted(terminal: bool, stream: &impl anstream::stream::RawStream) -> bool {
    terminal && !matches!(anstream::AutoStream::choice(stream), ColorChoice::Never)
}

/// Whether stdout gets colour.
fn stdout_colour() -> bool {
    static COLOUR: OnceLock<bool> = OnceLock::new();
    *COLOUR.get_or_init(|| {
        let out = std::io::stdout();
        wanted(out.is_terminal(), &out)
    })
}

/// Whether stderr gets colour.
fn stderr_colour() -> bool {
    static COLOUR: OnceLock<bool> = OnceLock::new();
    *COLOUR.get_or_init(|| {
        let err = std::io::stderr();
        wanted(err.is_terminal(), &err)
    })
}

/// `text` in `style` on stdout.
pub fn out<T: fmt::Display>(style: Style, text: T) -> Painted<T> {
    Painted {
        style: stdout_colour().then_some(style),
        text,
    }
}

/// `text` in `style` on stderr.
pub fn err<T: fmt::Display>(style: Style, text: T) -> Painted<T> {
    Painted {
        style: stderr_colour().then_some(style),
        text,
    }
}

/// Text with its style, written with the escape codes only when wanted.
pub struct Painted<T> {
    style: Option<Style>,
    text: T,
}

impl<T: fmt::Display> fmt::Display for Painted<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.style {
            Some(style) => write!(f, "{style}{}{style:#}", self.text),
            None => self.text.fmt(f),
        }
    }
}
