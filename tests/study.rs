//! Studying a game through the journal: notes and bookmarks keep their
//! hashes through export and import, a private note is the writer's until
//! the game is over, a note that cannot be written writes nothing, and a
//! retried note is written once. (Every kind's variations and comparisons
//! are golden files: `tests/data/<kind>/studied_*`; what a seat's token may
//! read of notes is the API's adversary test.)

use tabletape_engine::Viewer;
use tabletape_store::scratch::test_store;
use tabletape_store::{
    check_shown, Access, Journal, JournalError, NameRequest, NoteRequest, ShownEvent,
};
use tabletape_tests::data_dir;

use crate::golden::play_golden_into;

fn journal(dir: &tempfile::TempDir) -> Journal {
    Journal::open_at(&test_store(dir.path())).unwrap()
}

fn note(at: u64, text: &str, private: bool) -> NoteRequest {
    NoteRequest {
        branch: None,
        at,
        title: None,
        text: text.into(),
        private,
        expect_seq: None,
        idempotency_key: None,
    }
}

fn exported(journal: &Journal, game: &str) -> Vec<u8> {
    let mut out = Vec::new();
    journal.export(game, None, &mut out).unwrap();
    out
}

#[test]
fn notes_names_and_forks_round_trip_through_export_and_import_with_identical_hashes() {
    let dir = tempfile::tempdir().unwrap();
    let first = journal(&dir);
    let path = data_dir().join("lostworlds/studied_knockout.jsonl");
    let game = play_golden_into(&first, &path).unwrap();
    // One more of each, by a seat, privately, with an idempotency key.
    let mut secret = note(3, "I meant to feint", true);
    secret.idempotency_key = Some("n-1".into());
    first.note(&game, secret, Access::Seat(1)).unwrap();
    let export = exported(&first, &game);
    let text = String::from_utf8(export.clone()).unwrap();
    for kind in ["\"type\":\"noted\"", "\"type\":\"branch_named\""] {
        assert!(text.contains(kind), "the export holds {kind}: {text}");
    }

    let other = tempfile::tempdir().unwrap();
    let second = journal(&other);
    second.import(&mut export.as_slice()).unwrap();
    assert_eq!(exported(&second, &game), export, "export, import, export");
    for (a, b) in first
        .branches(&game)
        .unwrap()
        .into_iter()
        .zip(second.branches(&game).unwrap())
    {
        assert_eq!(
            (a.name, a.head_seq, a.title, a.description, a.notes),
            (b.name, b.head_seq, b.title, b.description, b.notes)
        );
    }
    for report in second.verify(Some(&game)).unwrap() {
        assert!(report.problem.is_none(), "{report:?}");
    }
    let told = |j: &Journal| {
        j.narrate_with_variations(&game, "main", Viewer::Owner)
            .unwrap()
            .render(tabletape_engine::Format::Markdown)
    };
    assert_eq!(told(&first), told(&second));
    assert!(told(&second).contains("I meant to feint"));
}

#[test]
fn a_private_note_is_its_writers_until_the_game_is_over_and_then_everyones() {
    let dir = tempfile::tempdir().unwrap();
    let journal = journal(&dir);
    // A Ludovia game in play: hands are secret.
    let path = data_dir().join("ludovia/studied_rooftops.jsonl");
    let game = play_golden_into(&journal, &path).unwrap();
    assert!(!journal.game_at(&game, "main", None).unwrap().is_over());
    let before: Vec<ShownEvent> = journal
        .events_as(&game, "main", 1, None, Viewer::Seat(2))
        .unwrap();
    let acted = journal
        .note(
            &game,
            note(5, "Bo holds the Ruby Crown", true),
            Access::Seat(0),
        )
        .unwrap();
    assert_eq!(
        acted.narration,
        ["Private note by Ada on seq 5: Bo holds the Ruby Crown"]
    );
    let after = journal
        .events_as(&game, "main", 1, None, Viewer::Seat(2))
        .unwrap();
    // The note tells Cy nothing of what came before it, and nothing of itself
    // but that it is there; Cy's chain still checks out.
    assert_eq!(&after[..before.len()], &before[..]);
    let shown = after.last().unwrap();
    assert_eq!(
        shown.body,
        serde_json::json!({"type": "noted", "at": 5, "private": true})
    );
    assert!(shown.seals.iter().all(|s| s.salt.is_none()));
    check_shown(&after).unwrap();
    for viewer in [Viewer::Seat(2), Viewer::Seat(1), Viewer::Public] {
        let story = journal
            .narrate_as(&game, "main", viewer)
            .unwrap()
            .render(tabletape_engine::Format::Json);
        let replay =
            serde_json::to_string(&journal.replay(&game, "main", None, viewer).unwrap()).unwrap();
        let tree = serde_json::to_string(&journal.branches_as(&game, viewer).unwrap()).unwrap();
        for read in [story, replay, tree] {
            assert!(!read.contains("Bo holds"), "{viewer:?}: {read}");
        }
    }
    for viewer in [Viewer::Seat(0), Viewer::Owner] {
        let tree = journal.branches_as(&game, viewer).unwrap();
        assert!(
            tree[0]
                .notes
                .iter()
                .any(|n| n.text == "Bo holds the Ruby Crown"),
            "{viewer:?}"
        );
    }

    // A finished game hides nothing: the note is everyone's then.
    let dir = tempfile::tempdir().unwrap();
    let journal = crate::study::journal(&dir);
    let path = data_dir().join("lostworlds/studied_knockout.jsonl");
    let game = play_golden_into(&journal, &path).unwrap();
    assert!(journal.game_at(&game, "main", None).unwrap().is_over());
    journal
        .note(
            &game,
            note(4, "I saw the feint coming", true),
            Access::Seat(0),
        )
        .unwrap();
    let tree = journal.branches_as(&game, Viewer::Seat(1)).unwrap();
    assert!(tree[0]
        .notes
        .iter()
        .any(|n| n.text == "I saw the feint coming"));
}

#[test]
fn a_note_that_cannot_be_written_writes_nothing_and_a_retry_writes_once() {
    let dir = tempfile::tempdir().unwrap();
    let journal = journal(&dir);
    let path = data_dir().join("lostworlds/studied_knockout.jsonl");
    let game = play_golden_into(&journal, &path).unwrap();
    let head = || journal.branches(&game).unwrap()[0].head_seq;
    let start = head();
    let rule = |e: JournalError| match e {
        JournalError::Rejected(r) => r.rule,
        other => panic!("not a rejection: {other}"),
    };
    for (req, expected) in [
        (note(start + 1, "later", false), "note.at"),
        (note(0, "nothing", false), "note.at"),
        (note(2, "", false), "note.empty"),
        (note(2, "two\nlines", false), "note.text"),
    ] {
        let err = journal.note(&game, req, Access::Owner).unwrap_err();
        assert_eq!(rule(err), expected);
    }
    let named = journal.name_branch(
        &game,
        NameRequest {
            branch: Some("what-if".into()),
            title: " padded ".into(),
            description: None,
        },
        Access::Seat(0),
    );
    assert_eq!(rule(named.unwrap_err()), "branch.title");
    let public = journal.note(&game, note(2, "hi", false), Access::Public);
    assert!(matches!(public, Err(JournalError::Forbidden(_))));
    let unknown = journal.note(
        &game,
        NoteRequest {
            branch: Some("nowhere".into()),
            ..note(2, "hi", false)
        },
        Access::Owner,
    );
    assert!(matches!(unknown, Err(JournalError::NotFound(_))));
    assert_eq!(head(), start, "nothing was written");

    let keyed = NoteRequest {
        idempotency_key: Some("k-7".into()),
        ..note(2, "once", false)
    };
    let first = journal.note(&game, keyed.clone(), Access::Seat(1)).unwrap();
    let again = journal.note(&game, keyed.clone(), Access::Seat(1)).unwrap();
    assert!(!first.retried && again.retried);
    assert_eq!((first.seq, &first.hash), (again.seq, &again.hash));
    assert_eq!(head(), start + 1);
    let reused = journal.note(
        &game,
        NoteRequest {
            text: "another".into(),
            ..keyed
        },
        Access::Seat(1),
    );
    assert_eq!(rule(reused.unwrap_err()), "idempotency.key_reused");
    assert_eq!(head(), start + 1);
}

/// A fork of a fork made before the latter's own fork point shares its past
/// with the older line only: compared with `main`, the lines part where it
/// was made (once, the comparison asked the middle fork for seqs it never had).
#[test]
fn a_fork_of_a_fork_made_before_its_fork_point_compares_with_main() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let game = crate::trust::create(
        &j,
        "ludovia",
        3,
        17,
        tabletape_events::DiceMode::Digital,
        &[],
    )
    .game;
    tabletape_tests::play_random(&j, &game, "main", 17, 12);
    let late = j
        .fork(&game, "main", 10, Some("late"), None, Access::Owner)
        .unwrap();
    let early = j
        .fork(&game, &late.name, 4, Some("early"), None, Access::Owner)
        .unwrap();
    let compared = j
        .compare(&game, "main", &early.name, Viewer::Owner)
        .unwrap();
    assert_eq!(
        (compared.common_seq, compared.common_branch.as_str()),
        (4, "main")
    );
    let compared = j
        .compare(&game, &late.name, &early.name, Viewer::Owner)
        .unwrap();
    assert_eq!(compared.common_seq, 4);
}
