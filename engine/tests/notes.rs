//! Tests of `notes`.

use tabletape_engine::notes::*;
use tabletape_engine::Viewer;
use tabletape_events::Actor;
use tabletape_events::BranchName;
use tabletape_events::Note;

fn note(at: u64, title: Option<&str>, text: &str) -> Note {
    Note {
        at,
        title: title.map(str::to_string),
        text: text.into(),
        private: false,
    }
}

#[test]
fn a_note_marks_an_earlier_moment_and_says_something() {
    check_note(&note(3, None, "here"), 4).unwrap();
    check_note(&note(1, Some("opening"), ""), 2).unwrap();
    for (n, seq, rule) in [
        (note(4, None, "x"), 4, "note.at"),
        (note(0, None, "x"), 4, "note.at"),
        (note(1, None, ""), 4, "note.empty"),
        (note(1, Some(""), "x"), 4, "note.title"),
        (note(1, Some(&"t".repeat(81)), ""), 4, "note.title"),
        (note(1, None, " x"), 4, "note.text"),
        (note(1, None, "a\nb"), 4, "note.text"),
        (note(1, None, "a\u{0}b"), 4, "note.text"),
        (note(1, Some("a\tb"), ""), 4, "note.title"),
        (note(1, None, "a\u{2028}b"), 4, "note.text"),
        (note(1, None, &"é".repeat(2001)), 4, "note.text"),
    ] {
        assert_eq!(check_note(&n, seq).unwrap_err().rule, rule, "{n:?}");
    }
}

#[test]
fn lines_tell_notes_bookmarks_and_withheld_notes() {
    assert_eq!(
        note_line("Ada", &note(3, None, "she should jump"), true),
        "Note by Ada on seq 3: she should jump"
    );
    assert_eq!(
        note_line("the owner", &note(5, Some("the turning point"), ""), true),
        "Bookmark by the owner on seq 5, \"the turning point\"."
    );
    let mut secret = note(2, None, "I hold the ace");
    secret.private = true;
    assert_eq!(
        note_line("Bo", &secret, true),
        "Private note by Bo on seq 2: I hold the ace"
    );
    assert_eq!(
        note_line("the owner", &withheld(&secret), false),
        "The owner keeps a private note on seq 2."
    );
    assert!(readable(Actor::Seat(1), true, Viewer::Seat(1)));
    assert!(!readable(Actor::Seat(1), true, Viewer::Seat(0)));
    assert!(!readable(Actor::Owner, true, Viewer::Public));
    assert!(readable(Actor::Owner, false, Viewer::Public));
}

#[test]
fn a_branch_name_is_one_trimmed_line() {
    let name = |t: &str, d: Option<&str>| BranchName {
        title: t.into(),
        description: d.map(str::to_string),
    };
    check_name(&name("Nowa jumps back", Some("what if"))).unwrap();
    assert_eq!(
        check_name(&name("", None)).unwrap_err().rule,
        "branch.title"
    );
    assert_eq!(
        check_name(&name("a", Some(""))).unwrap_err().rule,
        "branch.description"
    );
    assert_eq!(
        name_line("Ada", &name("Nowa jumps back", None)),
        "Ada names this line \"Nowa jumps back\"."
    );
}
