//! Notes, bookmarks and branch names: what readers write about a game.
//!
//! They are events of the branch they are written on (hash-chained, told
//! and exported like any other) that change no state: the fold keeps them
//! beside the game ([`Annotations`]) so a branch's notes and name are read
//! without walking its log. A note marks an earlier moment (`at`); with a
//! title it is a bookmark. A private note is a secret like a hand of cards:
//! its author and the owner read it, everyone once the game is over.

use serde::{Deserialize, Serialize};
use tabletape_events::{Actor, BranchName, Note, Seat};

use crate::error::Rejection;
use crate::game::seat_of;
use crate::rules::Viewer;

/// The longest title of a bookmark or a branch, in characters.
pub const TITLE_CHARS: usize = 80;
/// The longest note or description, in characters.
pub const TEXT_CHARS: usize = 2000;

/// One note as the fold keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct NoteMark {
    /// The note's own seq.
    pub seq: u64,
    /// The branch it was written on.
    pub branch: String,
    /// The moment it is about.
    pub at: u64,
    /// Its author's seat; none for the owner.
    #[schema(value_type = Option<u32>)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// Its author's name ("Ada", or "the owner").
    pub by: String,
    /// A bookmark's title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub private: bool,
    pub recorded_at_ms: u64,
}

impl NoteMark {
    /// The note as one line of a story or a timeline.
    pub fn line(&self) -> String {
        let note = Note {
            at: self.at,
            title: self.title.clone(),
            text: self.text.clone(),
            private: self.private,
        };
        note_line(&self.by, &note, true)
    }
}

/// A branch's name at the table, as the last naming on it gave it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct LineTitle {
    pub branch: String,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// Every note and name a branch's history holds, in seq order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Annotations {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<NoteMark>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<LineTitle>,
}

impl Annotations {
    pub fn is_empty(&self) -> bool {
        self.notes.is_empty() && self.names.is_empty()
    }

    /// The name `branch` was given on its own events, the last one counting.
    pub fn title_of(&self, branch: &str) -> Option<&LineTitle> {
        self.names.iter().rev().find(|n| n.branch == branch)
    }

    pub(crate) fn named(&mut self, branch: &str, name: &BranchName) {
        self.names.retain(|n| n.branch != branch);
        self.names.push(LineTitle {
            branch: branch.to_string(),
            title: name.title.clone(),
            description: name.description.clone(),
        });
    }
}

/// Whether `viewer` (already the effective one: everyone is the owner once
/// the game is over) may read a note its author wrote.
pub fn readable(author: Actor, private: bool, viewer: Viewer) -> bool {
    !private
        || match viewer {
            Viewer::Owner => true,
            Viewer::Seat(s) => author == Actor::Seat(s),
            Viewer::Public => false,
        }
}

/// A note as a reader who may not read it knows it: that it is there.
pub fn withheld(note: &Note) -> Note {
    Note {
        at: note.at,
        title: None,
        text: String::new(),
        private: true,
    }
}

pub(crate) fn mark(
    seq: u64,
    branch: &str,
    actor: Actor,
    by: String,
    note: &Note,
    recorded_at_ms: u64,
) -> NoteMark {
    NoteMark {
        seq,
        branch: branch.to_string(),
        at: note.at,
        seat: seat_of(actor),
        by,
        title: note.title.clone(),
        text: note.text.clone(),
        private: note.private,
        recorded_at_ms,
    }
}

/// The line a note is told by in a replay or the live timeline.
pub fn note_line(by: &str, note: &Note, readable: bool) -> String {
    if !readable {
        return format!("{} keeps a private note on seq {}.", capital(by), note.at);
    }
    let what = match (note.private, note.title.is_some()) {
        (false, false) => "Note",
        (true, false) => "Private note",
        (false, true) => "Bookmark",
        (true, true) => "Private bookmark",
    };
    let mut head = format!("{what} by {by} on seq {}", note.at);
    if let Some(title) = &note.title {
        head.push_str(&format!(", \"{title}\""));
    }
    if note.text.is_empty() {
        format!("{head}.")
    } else {
        format!("{head}: {}", note.text)
    }
}

/// The line a branch's naming is told by.
pub fn name_line(by: &str, name: &BranchName) -> String {
    match &name.description {
        Some(d) => format!("{} names this line \"{}\": {d}", capital(by), name.title),
        None => format!("{} names this line \"{}\".", capital(by), name.title),
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Checks one line of text given at the table: trimmed, one line, not too long.
fn check_line(rule: &str, what: &str, text: &str, most: usize) -> Result<(), Rejection> {
    if text.trim() != text {
        return Err(Rejection::new(
            rule,
            format!("{what} has spaces at an end: give it trimmed"),
        ));
    }
    // As every free text the log keeps: one line of printable characters.
    if let Some(c) = text
        .chars()
        .find(|c| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}'))
    {
        return Err(Rejection::new(
            rule,
            format!("{what} holds {c:?}: it must be one line of printable characters"),
        ));
    }
    let n = text.chars().count();
    if n > most {
        return Err(Rejection::new(
            rule,
            format!("{what} is {n} characters; at most {most}"),
        ));
    }
    Ok(())
}

/// Checks a note written as the event at `seq`: it marks a moment before
/// itself and says something.
pub fn check_note(note: &Note, seq: u64) -> Result<(), Rejection> {
    if note.at == 0 || note.at >= seq {
        return Err(Rejection::new(
            "note.at",
            format!(
                "a note marks a moment already recorded: seq 1 to {}, not {}",
                seq - 1,
                note.at
            ),
        ));
    }
    if let Some(title) = &note.title {
        if title.is_empty() {
            return Err(Rejection::new(
                "note.title",
                "a bookmark's title is empty: leave it out for a plain note",
            ));
        }
        check_line("note.title", "the title", title, TITLE_CHARS)?;
    }
    check_line("note.text", "the note", &note.text, TEXT_CHARS)?;
    if note.text.is_empty() && note.title.is_none() {
        return Err(Rejection::new(
            "note.empty",
            "a note needs its text, a bookmark its title",
        ));
    }
    Ok(())
}

/// Checks a branch's name and description.
pub fn check_name(name: &BranchName) -> Result<(), Rejection> {
    if name.title.is_empty() {
        return Err(Rejection::new("branch.title", "a branch's title is empty"));
    }
    check_line("branch.title", "the title", &name.title, TITLE_CHARS)?;
    if let Some(d) = &name.description {
        if d.is_empty() {
            return Err(Rejection::new(
                "branch.description",
                "the description is empty: leave it out",
            ));
        }
        check_line("branch.description", "the description", d, TEXT_CHARS)?;
    }
    Ok(())
}
