//! The journal service end to end on the `lostworlds` kind: create, act,
//! rejection, conflict, idempotent retry, fork and reseed, export/import,
//! verify (tampering included), upcasting on read, snapshots and replay.
//!
//! Actions are taken from `legal`, so these tests follow the kind as it
//! grows. Where a test needs the rules to refuse something, it uses an action
//! no kind accepts.

use crate::common::counted::Counted;
use crate::common::raw_sled;
use serde_json::{json, Value};
use tabletape_engine::Game;
use tabletape_events::{Actor, Body, Event, MAIN_BRANCH};
use tabletape_store::scratch::{test_store, testing_postgres, ScratchServer};
use tabletape_store::{
    fold_steps, Access, ActRequest, Journal, JournalError, Location, NewGame, NoteRequest, Viewer,
};

/// The test's journal: on sled, or on PostgreSQL with
/// `TABLETAPE_TEST_STORE=postgres` (the same store each time for `dir`).
fn journal(dir: &tempfile::TempDir) -> Journal {
    Journal::open_at(&test_store(dir.path())).unwrap()
}

fn new_game(j: &Journal) -> tabletape_store::Created {
    j.create(NewGame {
        title: None,
        kind: "lostworlds".into(),
        players: vec!["Ann".into(), "Bo".into()],
        seed: Some(42),
        ..NewGame::default()
    })
    .unwrap()
}

/// The first action the rules open to the table now, or (while the kind
/// offers none) a note any permissive kind records.
fn next_action(j: &Journal, game: &str, branch: &str, n: u64) -> Value {
    j.legal(game, branch, None)
        .unwrap()
        .into_iter()
        .find(|l| l.needs.is_empty())
        .map_or_else(|| json!({"type": "note", "n": n}), |l| l.action)
}

fn owner_act(branch: &str, action: Value) -> ActRequest {
    ActRequest {
        branch: branch.into(),
        actor: Actor::Owner,
        by: None,
        action,
        expect_seq: None,
        idempotency_key: None,
    }
}

/// Plays `n` actions on a branch, returning the last seq.
fn play(j: &Journal, game: &str, branch: &str, n: u64) -> u64 {
    let mut seq = 0;
    for i in 0..n {
        let action = next_action(j, game, branch, i);
        seq = j.act(game, owner_act(branch, action)).unwrap().seq;
    }
    seq
}

/// An action no kind has.
fn nonsense() -> Value {
    json!({"type": "juggle_the_moon"})
}

fn kind_rejects_nonsense(j: &Journal, game: &str) -> bool {
    j.game_at(game, MAIN_BRANCH, None)
        .unwrap()
        .decide(None, &nonsense())
        .is_err()
}

#[test]
fn create_issues_an_id_tokens_and_seq_one() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let c = new_game(&j);
    assert!(c.game.starts_with("g-") && c.game.len() == 10, "{}", c.game);
    assert_eq!((c.seq, c.seed, c.seats.len()), (1, 42, 2));
    assert!(!c.narration.is_empty());
    assert_eq!(c.owner_token.len(), 64);
    assert_eq!(
        j.access(&c.game, Some(&c.owner_token)).unwrap(),
        tabletape_store::Access::Owner
    );
    assert_eq!(
        j.access(&c.game, Some(&c.seats[1].token)).unwrap(),
        tabletape_store::Access::Seat(1)
    );
    assert!(matches!(
        j.access(&c.game, Some("wrong")),
        Err(JournalError::Forbidden(_))
    ));
    assert!(matches!(
        j.access(&c.game, None),
        Err(JournalError::Forbidden(_))
    ));
    let events = j.events(&c.game, MAIN_BRANCH, 1, None).unwrap();
    assert_eq!(events.len(), 1);
    assert!(matches!(events[0].body, Body::GameCreated(_)));
    let games = j.games().unwrap();
    assert_eq!((games.len(), games[0].seq, games[0].branches), (1, 1, 1));
}

#[test]
fn create_checks_kind_and_players_before_writing() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let unknown = j.create(NewGame {
        title: None,
        kind: "chess".into(),
        players: vec!["A".into(), "B".into()],
        ..NewGame::default()
    });
    assert!(matches!(unknown, Err(JournalError::BadInput(m)) if m.contains("chess")));
    let alone = j.create(NewGame {
        title: None,
        kind: "lostworlds".into(),
        players: vec!["Solo".into()],
        ..NewGame::default()
    });
    assert!(
        matches!(&alone, Err(JournalError::Unfit { rule, .. }) if rule == "setup.players"),
        "{alone:?}"
    );
    assert!(j.games().unwrap().is_empty());
}

#[test]
fn public_games_open_without_a_token() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let c = j
        .create(NewGame {
            title: None,
            kind: "lostworlds".into(),
            players: vec!["Ann".into(), "Bo".into()],
            public: true,
            ..NewGame::default()
        })
        .unwrap();
    assert_eq!(
        j.access(&c.game, None).unwrap(),
        tabletape_store::Access::Public
    );
}

#[test]
fn act_appends_and_state_follows() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let g = new_game(&j).game;
    let action = next_action(&j, &g, MAIN_BRANCH, 0);
    let acted = j.act(&g, owner_act(MAIN_BRANCH, action.clone())).unwrap();
    assert_eq!((acted.seq, acted.retried), (2, false));
    let events = j.events(&g, MAIN_BRANCH, 1, None).unwrap();
    assert_eq!(events[1].hash, acted.hash);
    match &events[1].body {
        Body::ActionAccepted(a) => assert_eq!(a.action, action),
        other => panic!("expected an accepted action, got {other:?}"),
    }
    let state = j.state(&g, MAIN_BRANCH, None, Viewer::Owner).unwrap();
    assert_eq!((state.seq, state.kind.as_str()), (2, "lostworlds"));
    assert_eq!(
        j.state(&g, MAIN_BRANCH, Some(1), Viewer::Owner)
            .unwrap()
            .seq,
        1
    );
    assert!(matches!(
        j.state(&g, MAIN_BRANCH, Some(3), Viewer::Owner),
        Err(JournalError::NotFound(_))
    ));
    assert!(matches!(
        j.state("g-00000000", MAIN_BRANCH, None, Viewer::Owner),
        Err(JournalError::NotFound(_))
    ));
}

#[test]
fn a_seat_acts_only_as_itself() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let g = new_game(&j).game;
    let req = ActRequest {
        actor: Actor::Seat(0),
        by: Some(1),
        ..owner_act(MAIN_BRANCH, next_action(&j, &g, MAIN_BRANCH, 0))
    };
    assert!(matches!(j.act(&g, req), Err(JournalError::Forbidden(_))));
    let out_of_range = ActRequest {
        by: Some(7),
        ..owner_act(MAIN_BRANCH, next_action(&j, &g, MAIN_BRANCH, 0))
    };
    assert!(matches!(
        j.act(&g, out_of_range),
        Err(JournalError::Unfit { rule, .. }) if rule == "table.seat"
    ));
}

#[test]
fn a_rejected_action_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let g = new_game(&j).game;
    assert!(
        kind_rejects_nonsense(&j, &g),
        "the kind must refuse a nonsense action"
    );
    let err = j.act(&g, owner_act(MAIN_BRANCH, nonsense())).unwrap_err();
    assert!(matches!(err, JournalError::Rejected(_)), "{err}");
    // A batch is all or nothing: one good action then a bad one stores neither.
    let good = next_action(&j, &g, MAIN_BRANCH, 0);
    let err = j
        .act_batch(
            &g,
            MAIN_BRANCH,
            Actor::Owner,
            None,
            vec![good, nonsense()],
            None,
        )
        .unwrap_err();
    assert!(
        matches!(&err, JournalError::Rejected(r) if r.message.contains("action 2 of 2")),
        "{err}"
    );
    assert_eq!(j.events(&g, MAIN_BRANCH, 1, None).unwrap().len(), 1);
}

#[test]
fn a_stale_expected_seq_is_a_conflict() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let g = new_game(&j).game;
    play(&j, &g, MAIN_BRANCH, 1);
    let stale = ActRequest {
        expect_seq: Some(1),
        ..owner_act(MAIN_BRANCH, next_action(&j, &g, MAIN_BRANCH, 1))
    };
    assert!(matches!(
        j.act(&g, stale),
        Err(JournalError::Conflict {
            expected: 1,
            head: 2
        })
    ));
    let fresh = ActRequest {
        expect_seq: Some(2),
        ..owner_act(MAIN_BRANCH, next_action(&j, &g, MAIN_BRANCH, 1))
    };
    assert_eq!(j.act(&g, fresh).unwrap().seq, 3);
    let batch_stale = j.act_batch(
        &g,
        MAIN_BRANCH,
        Actor::Owner,
        None,
        vec![next_action(&j, &g, MAIN_BRANCH, 2)],
        Some(2),
    );
    assert!(matches!(
        batch_stale,
        Err(JournalError::Conflict {
            expected: 2,
            head: 3
        })
    ));
    assert_eq!(j.events(&g, MAIN_BRANCH, 1, None).unwrap().len(), 3);
}

#[test]
fn a_retried_idempotency_key_returns_the_original_receipt() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let g = new_game(&j).game;
    let keyed = ActRequest {
        idempotency_key: Some("table-7-turn-1".into()),
        ..owner_act(MAIN_BRANCH, next_action(&j, &g, MAIN_BRANCH, 0))
    };
    let first = j.act(&g, keyed.clone()).unwrap();
    play(&j, &g, MAIN_BRANCH, 1);
    let again = j.act(&g, keyed.clone()).unwrap();
    assert!(again.retried);
    assert_eq!(
        (again.seq, &again.hash, &again.narration),
        (first.seq, &first.hash, &first.narration)
    );
    assert_eq!(j.events(&g, MAIN_BRANCH, 1, None).unwrap().len(), 3);
    // Survives a restart too.
    drop(j);
    let j = journal(&dir);
    assert_eq!(j.act(&g, keyed.clone()).unwrap().hash, first.hash);
    // The same key with another action is refused, not answered with the
    // first receipt, and writes nothing.
    let reused = ActRequest {
        idempotency_key: Some("table-7-turn-1".into()),
        ..owner_act(MAIN_BRANCH, json!({"type": "anything"}))
    };
    match j.act(&g, reused) {
        Err(JournalError::Rejected(r)) => {
            assert_eq!(r.rule, "idempotency.key_reused");
            assert!(r.message.contains("table-7-turn-1"), "{}", r.message);
        }
        other => panic!("a reused key was not refused: {other:?}"),
    }
    // So is the same action from another seat.
    let other_seat = ActRequest {
        by: Some(1),
        ..keyed
    };
    assert!(matches!(
        j.act(&g, other_seat),
        Err(JournalError::Rejected(r)) if r.rule == "idempotency.key_reused"
    ));
    assert_eq!(j.events(&g, MAIN_BRANCH, 1, None).unwrap().len(), 3);
}

/// A journal acting where it made the head itself goes to its store once:
/// the append, which checks that head as it writes (on PostgreSQL, one
/// round trip). Anywhere else it reads the game and the branch first.
#[test]
fn an_action_on_the_head_its_journal_made_is_one_call_to_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let log = Counted::new(test_store(dir.path()).open_log().unwrap());
    let j = Journal::with_log(log.clone());
    let g = new_game(&j).game;
    let action = next_action(&j, &g, MAIN_BRANCH, 0);
    log.take();
    j.act(&g, owner_act(MAIN_BRANCH, action)).unwrap();
    assert_eq!(
        log.take(),
        ["game", "branch", "append"],
        "the first action reads"
    );
    for n in 1..4 {
        let action = next_action(&j, &g, MAIN_BRANCH, n);
        let keyed = ActRequest {
            idempotency_key: (n % 2 == 0).then(|| format!("key-{n}")),
            ..owner_act(MAIN_BRANCH, action)
        };
        log.take();
        j.act(&g, keyed).unwrap();
        assert_eq!(log.take(), ["append_on"], "action {n}");
    }
    // Another writer's action: the next one here, decided on the head this
    // journal made (which the rules may take or refuse), is not written
    // there; it is decided again on the head as it is, and appended.
    let other = Journal::with_log(log.clone());
    play(&other, &g, MAIN_BRANCH, 1);
    let action = next_action(&other, &g, MAIN_BRANCH, 9);
    log.take();
    let acted = j.act(&g, owner_act(MAIN_BRANCH, action)).unwrap();
    assert_eq!(acted.seq, 7);
    let calls = log.take();
    assert!(
        calls == ["append_on", "branch", "read_steps", "append"]
            || calls == ["branch", "read_steps", "append"],
        "{calls:?}"
    );
    for report in j.verify(Some(&g)).unwrap() {
        assert!(report.problem.is_none(), "{report:?}");
    }
}

/// Two writers on one log (two servers on one database): each appends
/// without a read where it made the head itself, yet neither acts on a head
/// the other has moved since, nor on a line the other has taken back.
#[test]
fn writers_sharing_a_log_act_only_on_the_head_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let log = test_store(dir.path()).open_log().unwrap();
    let (a, b) = (Journal::with_log(log.clone()), Journal::with_log(log));
    let g = new_game(&a).game;
    assert_eq!(play(&a, &g, MAIN_BRANCH, 2), 3);
    assert_eq!(play(&b, &g, MAIN_BRANCH, 1), 4);
    // `a` made seq 3 and knows nothing of 4: its append on 3 writes
    // nothing, and it reads the branch and acts on 4.
    assert_eq!(play(&a, &g, MAIN_BRANCH, 1), 5);
    assert_eq!(play(&b, &g, MAIN_BRANCH, 1), 6);
    for report in a.verify(Some(&g)).unwrap() {
        assert!(report.problem.is_none(), "{report:?}");
    }
    assert_eq!(a.branches(&g).unwrap().len(), 1, "no line was forked");
    assert_eq!(
        a.state(&g, MAIN_BRANCH, None, Viewer::Owner).unwrap().view,
        b.state(&g, MAIN_BRANCH, None, Viewer::Owner).unwrap().view
    );
    // `b` takes the last action back: `main` is closed to play, for `a` too.
    assert_eq!(play(&a, &g, MAIN_BRANCH, 1), 7);
    b.undo(&g, Access::Owner).unwrap();
    let action = next_action(&a, &g, MAIN_BRANCH, 7);
    match a.act(&g, owner_act(MAIN_BRANCH, action)) {
        Err(JournalError::Rejected(r)) => assert_eq!(r.rule, "line.taken_back"),
        other => panic!("an action on a line taken back: {other:?}"),
    }
    assert_eq!(a.events(&g, MAIN_BRANCH, 1, None).unwrap().len(), 7);
}

/// A take-back and another writer's actions at the same moments (two
/// servers on one store, or two phones): a take-back takes back the action
/// it planned to, the last of its line, or is refused. No action lands on a
/// line after the take-back read it, so none acknowledged is left on a line
/// taken back past the action taken back.
#[test]
fn a_take_back_racing_other_writers_takes_back_only_the_last_action() {
    // A round that made too few take-backs to tell (the machine's
    // scheduling starved one side) is run again, on a new store; every
    // round's outcome is checked.
    for round in 1..=5 {
        let (undone, refused) = race_a_take_back();
        if undone >= 3 {
            return;
        }
        eprintln!("round {round}: {undone} take-backs; the actions refused: {refused:?}");
    }
    panic!("too few take-backs to tell in five rounds (the refusals are above)");
}

/// One round of [`a_take_back_racing_other_writers_takes_back_only_the_last_action`],
/// checked: how many take-backs it made, and the actions refused.
fn race_a_take_back() -> (usize, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let log = test_store(dir.path()).open_log().unwrap();
    let (a, b) = (Journal::with_log(log.clone()), Journal::with_log(log));
    let g = new_game(&a).game;
    play(&a, &g, MAIN_BRANCH, 2);
    let acked = std::sync::Mutex::new(Vec::new());
    let undone = std::sync::Mutex::new(Vec::new());
    let refused = std::sync::Mutex::new(Vec::new());
    // An action to every other take-back, so the fight does not end; each
    // action at a different moment of the take-back it meets.
    let attempts = std::sync::atomic::AtomicU64::new(0);
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            let mut n = 0;
            while !done.load(std::sync::atomic::Ordering::SeqCst) {
                if n >= attempts.load(std::sync::atomic::Ordering::SeqCst) / 2 {
                    std::thread::sleep(std::time::Duration::from_micros(200));
                    continue;
                }
                std::thread::sleep(std::time::Duration::from_micros(500 * (n % 5)));
                n += 1;
                let line = a.current_line(&g).unwrap();
                let action = next_action(&a, &g, &line, n);
                // Refusals (a line taken back meanwhile, a head moved) write
                // nothing; only acknowledgements are kept, and the last
                // refusals, to say why if too few take-backs were made.
                match a.act(&g, owner_act(&line, action)) {
                    Ok(acted) => acked.lock().unwrap().push((line, acted.seq)),
                    Err(e) => refused.lock().unwrap().push(format!("on `{line}`: {e}")),
                }
            }
        });
        s.spawn(|| {
            // At least 40 attempts, and on until 6 take-backs were made (a
            // loaded machine refuses more of them), up to 400.
            for attempt in 1..=400 {
                attempts.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                // Refused when an action landed first, or when there is
                // nothing to take back.
                if let Ok(u) = b.undo(&g, Access::Owner) {
                    undone.lock().unwrap().push((u.taken_back, u.seq));
                }
                if attempt >= 40 && undone.lock().unwrap().len() >= 6 {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            done.store(true, std::sync::atomic::Ordering::SeqCst);
        });
    });
    let undone = undone.into_inner().unwrap();
    for (line, seq) in &undone {
        let head = a
            .branches(&g)
            .unwrap()
            .into_iter()
            .find(|r| &r.name == line)
            .unwrap()
            .head_seq;
        assert_eq!(
            head, *seq,
            "line `{line}` was taken back at {seq} but holds actions to {head}"
        );
    }
    for (line, seq) in acked.into_inner().unwrap() {
        if let Some((_, taken)) = undone.iter().find(|(l, _)| *l == line) {
            assert!(
                seq <= *taken,
                "seq {seq} acknowledged on `{line}` after its take-back at {taken}"
            );
        }
    }
    for report in a.verify(Some(&g)).unwrap() {
        assert!(report.problem.is_none(), "{report:?}");
    }
    (undone.len(), refused.into_inner().unwrap())
}

#[test]
fn batch_appends_every_action_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let g = new_game(&j).game;
    let acted = j
        .act_batch(
            &g,
            MAIN_BRANCH,
            Actor::Owner,
            None,
            vec![next_action(&j, &g, MAIN_BRANCH, 0)],
            Some(1),
        )
        .unwrap();
    assert_eq!(acted.iter().map(|a| a.seq).collect::<Vec<_>>(), [2]);
    assert!(matches!(
        j.act_batch(&g, MAIN_BRANCH, Actor::Owner, None, vec![], None),
        Err(JournalError::BadInput(_))
    ));
}

#[test]
fn fork_shares_history_and_reseed_opens_the_branch() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let g = new_game(&j).game;
    play(&j, &g, MAIN_BRANCH, 3);
    let f = j
        .fork(&g, MAIN_BRANCH, 2, None, None, Access::Owner)
        .unwrap();
    assert_eq!(
        (f.name.as_str(), f.fork_seq, f.head_seq, f.reseed),
        ("owner-at-2", Some(2), 2, None)
    );
    let main = j.events(&g, MAIN_BRANCH, 1, None).unwrap();
    assert_eq!(j.events(&g, "owner-at-2", 1, None).unwrap(), main[..2]);
    let r = j
        .fork(&g, MAIN_BRANCH, 2, Some("lucky"), Some(9), Access::Owner)
        .unwrap();
    assert_eq!((r.head_seq, r.reseed), (3, Some(9)));
    let lucky = j.events(&g, "lucky", 1, None).unwrap();
    assert_eq!(lucky[2].body, Body::Reseeded { seed: 9 });
    assert_eq!(lucky[2].prev_hash, main[1].hash);
    assert_eq!(j.game_at(&g, "lucky", None).unwrap().seed(), 9);
    assert_eq!(play(&j, &g, "lucky", 1), 4);
    assert_eq!(
        j.fork(&g, MAIN_BRANCH, 2, None, None, Access::Owner)
            .unwrap()
            .name,
        "owner-at-2-2",
        "a second fork at the same place"
    );
    // A seat's fork says whose it is.
    assert_eq!(
        j.fork(&g, MAIN_BRANCH, 1, None, None, Access::Seat(1))
            .unwrap()
            .name,
        "bo-at-1"
    );
    assert!(matches!(
        j.fork(&g, MAIN_BRANCH, 9, None, None, Access::Owner),
        Err(JournalError::NotFound(_))
    ));
    assert!(matches!(
        j.fork(&g, MAIN_BRANCH, 1, Some("lucky"), None, Access::Owner),
        Err(JournalError::Unfit { rule, .. }) if rule == "branch.name"
    ));
    let names: Vec<String> = j
        .branches(&g)
        .unwrap()
        .into_iter()
        .map(|b| b.name)
        .collect();
    assert_eq!(
        names,
        ["main", "owner-at-2", "lucky", "owner-at-2-2", "bo-at-1"]
    );
}

/// Whether the game is over where a line forks matters only to a reseed:
/// a seat's fork of a game in play opens with one, of an ended game it
/// does not, an owner's reseed of an ended game is refused, and an owner's
/// plain fork is never reseeded.
#[test]
fn a_fork_is_reseeded_only_where_the_game_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let g = new_game(&j).game;
    let mut end = 1;
    while !j.game_at(&g, MAIN_BRANCH, None).unwrap().is_over() {
        end = play(&j, &g, MAIN_BRANCH, 1);
        assert!(end < 2_000, "the duel never ended");
    }
    let in_play = end - 1;
    let fork = |at, name, reseed, by| j.fork(&g, MAIN_BRANCH, at, name, reseed, by);
    let seat = fork(in_play, None, None, Access::Seat(0)).unwrap();
    assert_eq!(
        seat.head_seq,
        in_play + 1,
        "a seat's fork in play is reseeded"
    );
    let owner = fork(in_play, None, None, Access::Owner).unwrap();
    assert_eq!((owner.head_seq, owner.reseed), (in_play, None));
    let seat = fork(end, None, None, Access::Seat(1)).unwrap();
    assert_eq!(
        (seat.head_seq, seat.reseed),
        (end, None),
        "nothing to reseed"
    );
    assert_eq!(fork(end, None, None, Access::Owner).unwrap().head_seq, end);
    assert!(matches!(
        fork(end, Some("late"), Some(7), Access::Owner),
        Err(JournalError::BadInput(why)) if why.contains("over")
    ));
    let reseeded = fork(in_play, Some("early"), Some(7), Access::Owner).unwrap();
    assert_eq!((reseeded.head_seq, reseeded.reseed), (end, Some(7)));
}

#[test]
fn an_unchanged_fork_replays_the_same_future() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let g = new_game(&j).game;
    play(&j, &g, MAIN_BRANCH, 3);
    j.fork(&g, MAIN_BRANCH, 1, Some("again"), None, Access::Owner)
        .unwrap();
    let main = j.events(&g, MAIN_BRANCH, 1, None).unwrap();
    for event in &main[1..] {
        let Body::ActionAccepted(a) = &event.body else {
            continue;
        };
        j.act(&g, owner_act("again", a.action.clone())).unwrap();
    }
    let again = j.events(&g, "again", 1, None).unwrap();
    for (m, a) in main.iter().zip(&again).skip(1) {
        match (&m.body, &a.body) {
            (Body::ActionAccepted(x), Body::ActionAccepted(y)) => {
                assert_eq!((&x.facts, &x.chance), (&y.facts, &y.chance))
            }
            other => panic!("unexpected bodies {other:?}"),
        }
    }
}

/// The state of `g`'s main line as its owner sees it, as JSON.
fn owner_state(j: &Journal, g: &str) -> Value {
    serde_json::to_value(j.state(g, MAIN_BRANCH, None, Viewer::Owner).unwrap()).unwrap()
}

fn export(j: &Journal, game: &str, branch: Option<&str>) -> Vec<u8> {
    let mut out = Vec::new();
    j.export(game, branch, &mut out).unwrap();
    out
}

#[test]
fn export_import_export_is_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let g = new_game(&j).game;
    play(&j, &g, MAIN_BRANCH, 3);
    j.fork(&g, MAIN_BRANCH, 2, Some("alt"), Some(5), Access::Owner)
        .unwrap();
    play(&j, &g, "alt", 1);
    j.fork(&g, "alt", 3, Some("alt-alt"), None, Access::Owner)
        .unwrap();
    play(&j, &g, "alt-alt", 1);
    let exported = export(&j, &g, None);
    assert_eq!(exported.iter().filter(|&&b| b == b'\n').count(), 4 + 2 + 1);

    let other = tempfile::tempdir().unwrap();
    let k = journal(&other);
    let imported = k.import(&mut exported.as_slice()).unwrap();
    assert_eq!((imported.game.as_str(), imported.events), (g.as_str(), 7));
    assert_eq!(imported.branches, ["main", "alt", "alt-alt"]);
    assert_eq!(export(&k, &g, None), exported);
    for b in ["main", "alt", "alt-alt"] {
        assert_eq!(
            k.events(&g, b, 1, None).unwrap(),
            j.events(&g, b, 1, None).unwrap(),
            "branch {b}"
        );
    }
    assert_eq!(k.branches(&g).unwrap()[1].reseed, Some(5));
    assert!(k
        .verify(Some(&g))
        .unwrap()
        .iter()
        .all(|r| r.problem.is_none()));
    assert_eq!(
        k.access(&g, Some(&imported.owner_token)).unwrap(),
        tabletape_store::Access::Owner
    );
    // The same game cannot land twice in one store.
    assert!(matches!(
        k.import(&mut exported.as_slice()),
        Err(JournalError::BadInput(_))
    ));
    // One branch's linear history also imports, as a game with the branches it crosses.
    let single = export(&j, &g, Some("alt-alt"));
    let third = tempfile::tempdir().unwrap();
    let l = journal(&third);
    l.import(&mut single.as_slice()).unwrap();
    assert_eq!(export(&l, &g, Some("alt-alt")), single);
}

/// A value's JSON with every object's keys in reverse order of name and a
/// space after each colon and comma: the same value, written otherwise.
fn reversed_and_spaced(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let members: Vec<String> = map
                .iter()
                .rev()
                .map(|(k, v)| format!("{}: {}", Value::from(k.as_str()), reversed_and_spaced(v)))
                .collect();
            format!("{{{}}}", members.join(", "))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(reversed_and_spaced).collect();
            format!("[{}]", items.join(", "))
        }
        other => other.to_string(),
    }
}

/// An import may keep a line's own text (sled does) rather than write the
/// event again: lines written another way (keys in another order, spaced,
/// a character escaped; the facts too, whose hash is of their canonical
/// text) come in, and read, fold and export exactly as the game does where
/// it was played.
#[test]
fn lines_written_another_way_import_as_the_game_they_hold() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let g = new_game(&j).game;
    play(&j, &g, MAIN_BRANCH, 5);
    j.fork(&g, MAIN_BRANCH, 3, Some("alt"), None, Access::Owner)
        .unwrap();
    play(&j, &g, "alt", 2);
    let original = export(&j, &g, None);
    let rewritten: String = String::from_utf8(original.clone())
        .unwrap()
        .lines()
        .map(|line| {
            // Every object's keys in reverse order of name, spaced; and
            // `main` with a character escaped.
            let written = reversed_and_spaced(&serde_json::from_str::<Value>(line).unwrap());
            let line = written.replace(r#""main""#, r#""\u006dain""#);
            format!("{line}\n")
        })
        .collect();
    assert_ne!(rewritten.as_bytes(), original.as_slice());
    let other = tempfile::tempdir().unwrap();
    let k = journal(&other);
    k.import(&mut rewritten.as_bytes()).unwrap();
    assert_eq!(export(&k, &g, None), original);
    for branch in [MAIN_BRANCH, "alt"] {
        assert_eq!(
            k.events(&g, branch, 1, None).unwrap(),
            j.events(&g, branch, 1, None).unwrap()
        );
        let state = |j: &Journal| {
            serde_json::to_value(j.state(&g, branch, None, Viewer::Owner).unwrap()).unwrap()
        };
        assert_eq!(state(&k), state(&j), "{branch}");
    }
    assert!(k
        .verify(Some(&g))
        .unwrap()
        .iter()
        .all(|r| r.problem.is_none()));
}

#[test]
fn import_refuses_a_broken_log() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let g = new_game(&j).game;
    play(&j, &g, MAIN_BRANCH, 2);
    let text = String::from_utf8(export(&j, &g, None)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let other = tempfile::tempdir().unwrap();
    let k = journal(&other);
    // A missing middle line breaks the chain.
    let gap = format!("{}\n{}\n", lines[0], lines[2]);
    let err = k.import(&mut gap.as_bytes()).unwrap_err();
    assert!(
        matches!(&err, JournalError::BadInput(m) if m.contains("line 2")),
        "{err}"
    );
    // An edited line no longer matches its hash.
    let mut edited: Event = serde_json::from_str(lines[1]).unwrap();
    edited.recorded_at_ms += 1;
    let edited = format!(
        "{}\n{}\n",
        lines[0],
        serde_json::to_string(&edited).unwrap()
    );
    let err = k.import(&mut edited.as_bytes()).unwrap_err();
    assert!(
        matches!(&err, JournalError::BadInput(m) if m.contains("hash")),
        "{err}"
    );
    assert!(matches!(
        k.import(&mut "not json\n".as_bytes()),
        Err(JournalError::BadInput(_))
    ));
    assert!(k.games().unwrap().is_empty());
}

/// Rewrites the stored event at `seq` (after the creation, which is stored
/// with its content pack apart) of `main` straight in the store, behind
/// the journal's back. On sled an accepted action's fold form is kept
/// apart, as it was.
fn tamper(dir: &tempfile::TempDir, seq: u64, edit: impl Fn(&mut Value)) {
    assert!(seq > 1, "the creation is not stored as plain JSON");
    if let Location::Postgres(url) = test_store(dir.path()) {
        return tamper_row(&url, seq, edit);
    }
    tamper_stored(dir, seq, |_, json| {
        let mut value: Value = serde_json::from_slice(json).unwrap();
        edit(&mut value);
        *json = serde_json::to_vec(&value).unwrap();
    });
}

/// The forms a pack of `forms` holds (a `0xFF`, then each form led by its
/// length, u32 LE), or `None` for an entry of one form.
fn pack_entries(raw: &[u8]) -> Option<Vec<&[u8]>> {
    let (&0xFF, mut rest) = raw.split_first()? else {
        return None;
    };
    let mut entries = Vec::new();
    while let Some((len, after)) = rest.split_first_chunk::<4>() {
        let (form, after) = after.split_at(u32::from_le_bytes(*len) as usize);
        entries.push(form);
        rest = after;
    }
    Some(entries)
}

/// Puts in `tree` (`events` or `forms`) the bytes of each appended event's
/// JSON or fold form, where sled keeps only where they lie in the appends'
/// log (a `0x03`, then the segment's number, u32 LE, the offset, u64, and
/// the length, u32), as a store from before that keeps them: a test that
/// damages one event's JSON or form finds it there.
fn inline(tree: &sled::Tree, store: &std::path::Path) {
    use std::os::unix::fs::FileExt;
    for item in tree.iter() {
        let (key, raw) = item.unwrap();
        let Some((&0x03, at)) = raw.split_first() else {
            continue;
        };
        let segment = u32::from_le_bytes(at[..4].try_into().unwrap());
        let offset = u64::from_le_bytes(at[4..12].try_into().unwrap());
        let len = u32::from_le_bytes(at[12..16].try_into().unwrap());
        let file = std::fs::File::open(store.join(format!("appends.{segment:08}.wal"))).unwrap();
        let mut json = vec![0; len as usize];
        file.read_exact_at(&mut json, offset).unwrap();
        tree.insert(key, json).unwrap();
    }
}

/// Puts each entry a pack of `tree` (`forms` or `events`) holds under its
/// own seq's key, as a store of single entries keeps them: a test that
/// damages one event's form or JSON finds it there.
fn unpack(tree: &sled::Tree) {
    for item in tree.iter() {
        let (key, raw) = item.unwrap();
        let Some(entries) = pack_entries(&raw) else {
            continue;
        };
        let (branch, first) = key.split_at(key.len() - 8);
        let first = u64::from_be_bytes(first.try_into().unwrap());
        tree.remove(&key).unwrap();
        for (seq, entry) in (first..).zip(entries) {
            if !entry.is_empty() {
                let key = [branch, &seq.to_be_bytes()].concat();
                tree.insert(key, entry).unwrap();
            }
        }
    }
}

/// Rewrites what sled keeps for the event at `seq` of `main`: its entry in
/// `forms` (empty when there is none, and then left out) and its JSON.
fn tamper_stored(dir: &tempfile::TempDir, seq: u64, edit: impl Fn(&mut Vec<u8>, &mut Vec<u8>)) {
    let db = raw_sled(&dir.path().join("store"));
    let (events, forms) = (
        db.open_tree("events").unwrap(),
        db.open_tree("forms").unwrap(),
    );
    unpack(&forms);
    unpack(&events);
    inline(&events, &dir.path().join("store"));
    inline(&forms, &dir.path().join("store"));
    let (key, mut json) = events
        .iter()
        .map(Result::unwrap)
        .find(|(_, json)| {
            serde_json::from_slice::<Value>(json)
                .is_ok_and(|v| v["seq"] == seq && v["branch"] == MAIN_BRANCH)
        })
        .map(|(key, json)| (key, json.to_vec()))
        .expect("the event is stored");
    let mut fold_form = forms
        .get(&key)
        .unwrap()
        .map_or_else(Vec::new, |f| f.to_vec());
    edit(&mut fold_form, &mut json);
    events.insert(&key, json).unwrap();
    match fold_form.is_empty() {
        true => forms.remove(&key).unwrap(),
        false => forms.insert(&key, fold_form).unwrap(),
    };
    db.flush().unwrap();
}

/// What [`tamper_fold_form`] does to a stored fold form.
enum FoldFormDamage {
    /// Its last byte changed.
    LastByte,
    /// Cut to its first three bytes.
    Cut,
    /// Gone, as a build before fold forms stored the event: it is folded
    /// from its JSON.
    Dropped,
}

/// Damages the fold form stored for the event at `seq` of `main`.
fn tamper_fold_form(dir: &tempfile::TempDir, seq: u64, damage: FoldFormDamage) {
    if let Location::Postgres(url) = test_store(dir.path()) {
        let set = match damage {
            FoldFormDamage::LastByte => {
                "set_byte(fold_form, length(fold_form) - 1, \
                 get_byte(fold_form, length(fold_form) - 1) # 1)"
            }
            FoldFormDamage::Cut => "substring(fold_form from 1 for 3)",
            FoldFormDamage::Dropped => "NULL",
        };
        let sql = format!(
            "UPDATE events SET fold_form = {set} \
             WHERE branch = 'main' AND seq = {seq} AND fold_form IS NOT NULL"
        );
        assert_eq!(ScratchServer::shared().psql(&url, &sql), Ok(String::new()));
        return;
    }
    tamper_stored(dir, seq, |fold_form, _| {
        assert!(
            !fold_form.is_empty(),
            "an accepted action keeps its fold form"
        );
        match damage {
            FoldFormDamage::LastByte => *fold_form.last_mut().unwrap() ^= 1,
            FoldFormDamage::Cut => fold_form.truncate(3),
            FoldFormDamage::Dropped => fold_form.clear(),
        }
    });
}

/// A game of four actions on main, forked at `at` (as `name`), `then` done
/// on the open journal, and seq 3 of main edited by hand afterwards.
fn forked_and_tampered(
    at: u64,
    name: Option<&str>,
    then: impl FnOnce(&Journal, &str),
) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let g = {
        let j = journal(&dir);
        let g = new_game(&j).game;
        play(&j, &g, MAIN_BRANCH, 4);
        j.fork(&g, MAIN_BRANCH, at, name, Some(3), Access::Owner)
            .unwrap();
        then(&j, &g);
        g
    };
    tamper(&dir, 3, |v| v["recorded_at_ms"] = json!(1));
    (dir, g)
}

#[test]
fn verify_passes_a_clean_store_and_finds_a_hand_edit() {
    let (dir, g) = forked_and_tampered(2, None, |j, _| {
        let reports = j.verify(None).unwrap();
        assert_eq!(reports.len(), 2);
        assert!(reports.iter().all(|r| r.problem.is_none()), "{reports:?}");
        assert_eq!(reports[0].events, 5);
    });
    let j = journal(&dir);
    let reports = j.verify(Some(&g)).unwrap();
    let main = &reports[0];
    assert_eq!(main.problem.as_ref().map(|p| p.seq), Some(3), "{main:?}");
    assert!(main.problem.as_ref().unwrap().what.contains("hash"));
    // The fork shares seqs 1-2 only, so it is untouched.
    assert!(reports[1].problem.is_none());
}

/// A fork's past is checked once, on its parent, and its report still
/// names the fault it holds there: verify skips only what it found whole.
#[test]
fn verify_finds_a_hand_edit_in_a_forks_shared_past_too() {
    let (dir, g) = forked_and_tampered(4, Some("later"), |j, g| {
        play(j, g, "later", 1);
    });
    let j = journal(&dir);
    for reports in [
        j.verify(Some(&g)).unwrap(),
        j.verify_as(&g, Viewer::Owner).unwrap(),
    ] {
        assert_eq!(reports.len(), 2);
        for report in &reports {
            let problem = report
                .problem
                .as_ref()
                .unwrap_or_else(|| panic!("{report:?}"));
            assert_eq!(problem.seq, 3, "{report:?}");
            assert!(problem.what.contains("hash"), "{report:?}");
        }
    }
}

#[test]
fn verify_finds_rehashed_facts_by_strict_replay() {
    let dir = tempfile::tempdir().unwrap();
    let g = {
        let j = journal(&dir);
        let g = new_game(&j).game;
        play(&j, &g, MAIN_BRANCH, 3);
        g
    };
    // A careful forger fixes the hash too; the chain to seq 4 then breaks,
    // but first the strict replay sees facts decide would never yield.
    tamper(&dir, 3, |v| {
        v["body"]["facts"] = json!([{"type": "forged"}]);
        let mut event: Event = serde_json::from_value(v.clone()).unwrap();
        event.hash = tabletape_store::event_hash(&event);
        *v = serde_json::to_value(&event).unwrap();
    });
    let j = journal(&dir);
    let report = &j.verify(Some(&g)).unwrap()[0];
    let problem = report.problem.as_ref().expect("tampering found");
    assert_eq!(problem.seq, 3);
    assert!(problem.what.contains("fact"), "{}", problem.what);
}

#[test]
fn verify_finds_a_damaged_fold_form() {
    let dir = tempfile::tempdir().unwrap();
    let (g, before) = {
        let j = journal(&dir);
        let g = new_game(&j).game;
        play(&j, &g, MAIN_BRANCH, 3);
        let before = owner_state(&j, &g);
        (g, before)
    };
    // A fold reads the facts' compact copy, so one that no longer matches
    // the JSON (the record) is damage, found by a verify.
    tamper_fold_form(&dir, 3, FoldFormDamage::LastByte);
    let j = journal(&dir);
    let problem = j.verify(Some(&g)).unwrap()[0].problem.clone();
    let problem = problem.expect("the damage is found");
    assert_eq!(problem.seq, 3);
    assert!(problem.what.contains("fold form"), "{}", problem.what);
    drop(j);
    // Put back as stored by an earlier build, JSON alone, it folds the same.
    tamper_fold_form(&dir, 3, FoldFormDamage::Dropped);
    let j = journal(&dir);
    assert!(j.verify(Some(&g)).unwrap()[0].problem.is_none());
    assert_eq!(owner_state(&j, &g), before);
}

/// Builds before sled's `forms` tree kept an accepted action's fold form in
/// front of its JSON. Such a store reads, folds, verifies and exports as it
/// did; actions and notes appended since are kept the new way, and a fold
/// read in chunks of any size reads each event from where it is.
/// The appends' log segments of the store at `store`, by name.
fn segments(store: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut found: Vec<_> = std::fs::read_dir(store)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.starts_with("appends.") && name.ends_with(".wal") && name != "appends.wal"
        })
        .collect();
    found.sort();
    found
}

#[test]
fn appended_events_are_read_from_the_appends_log_where_sled_points() {
    if testing_postgres() {
        return; // the layout is sled's
    }
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let (g, exported, state) = {
        let j = journal(&dir);
        let g = new_game(&j).game;
        play(&j, &g, MAIN_BRANCH, 2);
        // Read between appends: what a reader kept of the log is never
        // taken for what was written after it.
        let mut seen = j.events(&g, MAIN_BRANCH, 1, None).unwrap().len();
        for i in 2..5 {
            let action = next_action(&j, &g, MAIN_BRANCH, i);
            j.act(&g, owner_act(MAIN_BRANCH, action)).unwrap();
            let events = j.events(&g, MAIN_BRANCH, 1, None).unwrap();
            assert_eq!(events.len(), seen + 1);
            assert_eq!(events.last().unwrap().seq, events.len() as u64);
            seen = events.len();
        }
        // Past a pack's worth (64) and a second: each read between appends
        // finds every event, whether its pointer waits or sled holds it.
        for n in 0..150 {
            let note: NoteRequest =
                serde_json::from_value(json!({"at": 2, "text": format!("note {n}")})).unwrap();
            let seq = j.note(&g, note, Access::Owner).unwrap().seq;
            let events = j.events(&g, MAIN_BRANCH, 1, None).unwrap();
            assert_eq!(events.len() as u64, seq);
            let own = j.events(&g, MAIN_BRANCH, seq, Some(seq)).unwrap();
            assert_eq!(own[0].hash, events.last().unwrap().hash);
        }
        (g.clone(), export(&j, &g, None), owner_state(&j, &g))
    };
    assert_eq!(pointers_in(&store, "events"), 155, "where each event lies");
    assert_eq!(pointers_in(&store, "forms"), 5, "and its 5 actions' forms");
    assert_eq!(segments(&store).len(), 1);
    // Folded from the forms where they lie, with no snapshot to start from.
    let j = journal(&dir).with_snapshot_every(1000);
    assert_eq!(owner_state(&j, &g), state);
    assert_eq!(export(&j, &g, None), exported);
    assert!(j.verify(Some(&g)).unwrap()[0].problem.is_none());
    // A segment that lost its bytes (all but its first record's first
    // few: every form too) is a damaged store, said as such.
    drop(j);
    let segment = &segments(&store)[0];
    std::fs::OpenOptions::new()
        .write(true)
        .open(segment)
        .unwrap()
        .set_len(64)
        .unwrap();
    let j = journal(&dir).with_snapshot_every(1000);
    let problem = j.verify(Some(&g)).unwrap()[0].problem.clone();
    assert!(
        problem.as_ref().is_some_and(|p| p.what.contains("appends")),
        "{problem:?}"
    );
    let fold = j.state(&g, MAIN_BRANCH, None, Viewer::Owner).map(drop);
    assert!(
        matches!(&fold, Err(e) if e.to_string().contains("appends' log")),
        "{fold:?}"
    );
}

/// The entries of sled's `tree` in the store at `store` that point into
/// the appends' log, each on its own or packed.
fn pointers_in(store: &std::path::Path, tree: &str) -> usize {
    raw_sled(store)
        .open_tree(tree)
        .unwrap()
        .iter()
        .map(Result::unwrap)
        .flat_map(|(_, raw)| match pack_entries(&raw) {
            Some(entries) => entries.iter().map(|e| e.to_vec()).collect(),
            None => vec![raw.to_vec()],
        })
        .filter(|raw| raw.first() == Some(&0x03))
        .count()
}

#[test]
fn imported_events_lie_in_the_appends_log_where_sled_points() {
    if testing_postgres() {
        return; // the layout is sled's
    }
    let (g, exported, state) = {
        let dir = tempfile::tempdir().unwrap();
        let j = journal(&dir);
        let g = new_game(&j).game;
        play(&j, &g, MAIN_BRANCH, 3);
        (g.clone(), export(&j, &g, None), owner_state(&j, &g))
    };
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    journal(&dir).import(&mut exported.as_slice()).unwrap();
    // All but the creation, which stays in sled as every creation does.
    assert_eq!(pointers_in(&store, "events"), 3);
    assert_eq!(pointers_in(&store, "forms"), 3);
    // Folded from the forms where they lie, with no snapshot to start from.
    let j = journal(&dir).with_snapshot_every(1000);
    assert_eq!(owner_state(&j, &g), state);
    assert_eq!(export(&j, &g, None), exported);
    assert!(j.verify(Some(&g)).unwrap()[0].problem.is_none());
    // Appends after it, in the same segment: an opening puts both kinds
    // of record again and reads them all.
    play(&j, &g, MAIN_BRANCH, 2);
    let (state, exported) = (owner_state(&j, &g), export(&j, &g, None));
    drop(j);
    let j = journal(&dir).with_snapshot_every(1000);
    assert_eq!(owner_state(&j, &g), state);
    assert_eq!(export(&j, &g, None), exported);
}

#[test]
fn a_store_from_before_segments_opens_with_its_appends() {
    if testing_postgres() {
        return; // the layout is sled's
    }
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let (g, before, exported) = {
        let j = journal(&dir);
        let g = new_game(&j).game;
        play(&j, &g, MAIN_BRANCH, 5);
        (g.clone(), owner_state(&j, &g), export(&j, &g, None))
    };
    // As an earlier build left it: every event whole in sled, the last two
    // appends only in its one `appends.wal`, not yet checkpointed.
    {
        let db = raw_sled(&store);
        let (events, forms) = (
            db.open_tree("events").unwrap(),
            db.open_tree("forms").unwrap(),
        );
        unpack(&events);
        inline(&events, &store);
        unpack(&forms);
        inline(&forms, &store);
        for seq in [5u64, 6] {
            let key = events
                .iter()
                .keys()
                .map(Result::unwrap)
                .find(|k| k.ends_with(&seq.to_be_bytes()))
                .unwrap();
            events.remove(key).unwrap();
        }
        db.open_tree("settings")
            .unwrap()
            .remove("appends_held")
            .unwrap();
        db.flush().unwrap();
    }
    let [segment] = &segments(&store)[..] else {
        panic!("one segment")
    };
    std::fs::rename(segment, store.join("appends.wal")).unwrap();
    let j = journal(&dir).with_snapshot_every(1000);
    assert!(
        !store.join("appends.wal").exists(),
        "put in sled, then gone"
    );
    assert_eq!(owner_state(&j, &g), before);
    assert_eq!(export(&j, &g, None), exported);
    assert!(j.verify(Some(&g)).unwrap()[0].problem.is_none());
    play(&j, &g, MAIN_BRANCH, 2);
    let after = export(&j, &g, None);
    drop(j);
    let j = journal(&dir);
    assert_eq!(export(&j, &g, None), after);
}

#[test]
fn actions_stored_with_their_fold_form_in_front_read_as_before() {
    if testing_postgres() {
        return; // the layout is sled's
    }
    let dir = tempfile::tempdir().unwrap();
    let (g, before, exported) = {
        let j = journal(&dir);
        let g = new_game(&j).game;
        play(&j, &g, MAIN_BRANCH, 4);
        (g.clone(), owner_state(&j, &g), export(&j, &g, None))
    };
    {
        let db = raw_sled(&dir.path().join("store"));
        let (events, forms) = (
            db.open_tree("events").unwrap(),
            db.open_tree("forms").unwrap(),
        );
        unpack(&forms);
        unpack(&events);
        inline(&events, &dir.path().join("store"));
        inline(&forms, &dir.path().join("store"));
        let mut moved = 0;
        for item in forms.iter() {
            let (key, form) = item.unwrap();
            if !form.is_empty() {
                let json = events.get(&key).unwrap().expect("a form's event is stored");
                let mut old = vec![2];
                old.extend((form.len() as u32).to_le_bytes());
                old.extend_from_slice(&form);
                old.extend_from_slice(&json);
                events.insert(&key, old).unwrap();
                moved += 1;
            }
            forms.remove(&key).unwrap();
        }
        assert_eq!(moved, 4, "every accepted action had its form apart");
        db.flush().unwrap();
    }
    let j = journal(&dir).with_snapshot_every(1000);
    assert_eq!(owner_state(&j, &g), before);
    assert_eq!(export(&j, &g, None), exported);
    assert!(j.verify(Some(&g)).unwrap()[0].problem.is_none());
    let has_form = |e: &Event| match &e.body {
        Body::ActionAccepted(accepted) => accepted.fold_form.get().is_some(),
        _ => true,
    };
    assert!(j
        .events(&g, MAIN_BRANCH, 1, None)
        .unwrap()
        .iter()
        .all(has_form));

    let note: NoteRequest =
        serde_json::from_value(json!({"at": 3, "text": "a fine move"})).unwrap();
    j.note(&g, note, Access::Owner).unwrap();
    let head = play(&j, &g, MAIN_BRANCH, 3);
    let events = j.events(&g, MAIN_BRANCH, 1, None).unwrap();
    assert!(events.iter().all(has_form));
    let whole = serde_json::to_value(Game::fold(&events).unwrap().snapshot()).unwrap();
    for chunk in [1, 2, 3, 4, 100] {
        let mut game = Game::from_first(&events[0]).unwrap();
        fold_steps::<JournalError>(
            j.log().as_ref(),
            (&g, MAIN_BRANCH),
            &mut game,
            head,
            chunk,
            &mut |_: &Game| {},
        )
        .unwrap_or_else(|e| panic!("chunks of {chunk}: {e}"));
        let folded = serde_json::to_value(game.snapshot()).unwrap();
        assert_eq!(folded, whole, "chunks of {chunk}");
    }
    assert!(j.verify(Some(&g)).unwrap()[0].problem.is_none());
}

/// A key in sled's `forms` that no event's key makes (a hand edit, a
/// damaged store) is an error naming where it lies, not a crash or a fold
/// that skips it.
#[test]
fn a_stray_key_among_the_fold_forms_is_an_error() {
    if testing_postgres() {
        return; // the layout is sled's
    }
    let dir = tempfile::tempdir().unwrap();
    let g = {
        let j = journal(&dir);
        let g = new_game(&j).game;
        play(&j, &g, MAIN_BRANCH, 4);
        g
    };
    {
        let db = raw_sled(&dir.path().join("store"));
        let forms = db.open_tree("forms").unwrap();
        // seq 2's key with a byte more: it sorts between seqs 2 and 3.
        let mut stray = format!("{g}\0{MAIN_BRANCH}\0").into_bytes();
        stray.extend(2u64.to_be_bytes());
        stray.push(0);
        forms.insert(stray, vec![1]).unwrap();
        db.flush().unwrap();
    }
    let j = journal(&dir);
    let err = j.state(&g, MAIN_BRANCH, None, Viewer::Owner).unwrap_err();
    assert!(err.to_string().contains("out of place"), "{err}");
    assert!(j.events(&g, MAIN_BRANCH, 1, None).is_err());
}

#[test]
fn an_old_schema_event_in_the_store_is_upcast_on_read() {
    if testing_postgres() {
        return; // only a sled store can hold an event in its first shape
    }
    let dir = tempfile::tempdir().unwrap();
    let (g, before) = {
        let j = journal(&dir);
        let g = new_game(&j).game;
        play(&j, &g, MAIN_BRANCH, 2);
        let before = j.events(&g, MAIN_BRANCH, 1, None).unwrap();
        (g, before)
    };
    // Rewrite seq 2 in the version 0 shape.
    tamper(&dir, 2, |v| {
        let map = v.as_object_mut().unwrap();
        map.remove("schema_version");
        let t = map.remove("recorded_at_ms").unwrap();
        map.insert("time_ms".into(), t);
    });
    let j = journal(&dir);
    assert_eq!(j.events(&g, MAIN_BRANCH, 1, None).unwrap(), before);
    assert!(j.verify(Some(&g)).unwrap()[0].problem.is_none());
}

#[test]
fn snapshots_are_a_cache_that_can_be_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let g = {
        let j = journal(&dir);
        let g = new_game(&j).game;
        play(&j, &g, MAIN_BRANCH, 7);
        g
    };
    let j = journal(&dir).with_snapshot_every(3);
    let full = j.state(&g, MAIN_BRANCH, Some(8), Viewer::Owner).unwrap();
    // Folding to 8 cached seqs 3 and 6.
    let snap = j
        .log()
        .snapshot_at_or_before(&g, MAIN_BRANCH, 8)
        .unwrap()
        .unwrap();
    assert_eq!(snap.seq, 6);
    let from_snapshot = j.state(&g, MAIN_BRANCH, Some(7), Viewer::Owner).unwrap();
    drop(j);
    let j = journal(&dir);
    let cold = j.state(&g, MAIN_BRANCH, Some(7), Viewer::Owner).unwrap();
    assert_eq!(from_snapshot.view, cold.view);
    assert_eq!(j.log().drop_snapshots().unwrap(), 2);
    assert_eq!(
        j.state(&g, MAIN_BRANCH, Some(8), Viewer::Owner)
            .unwrap()
            .view,
        full.view
    );
}

#[test]
fn replay_tells_every_event() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let g = new_game(&j).game;
    play(&j, &g, MAIN_BRANCH, 3);
    let steps = j.replay(&g, MAIN_BRANCH, None, Viewer::Owner).unwrap();
    assert_eq!(
        steps.iter().map(|s| s.seq).collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
    assert!(
        steps[0].narration[0].contains("Ann and Bo"),
        "{:?}",
        steps[0].narration
    );
    assert!(steps[0].action.is_none() && steps[1].action.is_some());
    assert_eq!(
        j.replay(&g, MAIN_BRANCH, Some(2), Viewer::Owner)
            .unwrap()
            .len(),
        2
    );
    assert!(matches!(
        j.replay(&g, MAIN_BRANCH, Some(9), Viewer::Owner),
        Err(JournalError::NotFound(_))
    ));
    let narrative = j.narrate(&g, MAIN_BRANCH).unwrap();
    assert!(narrative.title.contains(&g));
}

/// Every state a branch passes through, seq 1 to its head, as views.
fn views(j: &Journal, game: &str, branch: &str, head: u64) -> Vec<Value> {
    (1..=head)
        .map(|seq| {
            j.state(game, branch, Some(seq), Viewer::Owner)
                .unwrap()
                .view
        })
        .collect()
}

/// The seq of the snapshot a fold of `branch` at `at` would start from.
fn snapshot_seq(j: &Journal, game: &str, branch: &str, at: u64) -> Option<u64> {
    j.log()
        .snapshot_at_or_before(game, branch, at)
        .unwrap()
        .map(|s| s.seq)
}

/// A game of 8 events on `main` (3 single acts, then a batch of 4) and a
/// branch `alt` forked at 5 with 3 events of its own, snapshotting every 3.
fn snapshotted_game(j: &Journal) -> String {
    // The line of play, found in a scratch store: same seed, same game.
    let scratch_dir = tempfile::tempdir().unwrap();
    let scratch = journal(&scratch_dir);
    let s = new_game(&scratch).game;
    let line: Vec<Value> = (0..7)
        .map(|n| {
            let action = next_action(&scratch, &s, MAIN_BRANCH, n);
            scratch
                .act(&s, owner_act(MAIN_BRANCH, action.clone()))
                .unwrap();
            action
        })
        .collect();
    let g = new_game(j).game;
    for action in &line[..3] {
        j.act(&g, owner_act(MAIN_BRANCH, action.clone())).unwrap();
    }
    let acted = j
        .act_batch(
            &g,
            MAIN_BRANCH,
            Actor::Owner,
            None,
            line[3..].to_vec(),
            Some(4),
        )
        .unwrap();
    assert_eq!(acted.last().unwrap().seq, 8);
    j.fork(&g, MAIN_BRANCH, 5, Some("alt"), None, Access::Owner)
        .unwrap();
    assert_eq!(play(j, &g, "alt", 3), 8);
    g
}

#[test]
fn writes_leave_a_snapshot_every_n_events() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir).with_snapshot_every(3);
    let g = snapshotted_game(&j);
    // Single acts (3), the batch (6) and the branch's own acts (its 6) left
    // snapshots; none was folded for, this journal only wrote.
    for (branch, at, nearest) in [
        (MAIN_BRANCH, 2, None),
        (MAIN_BRANCH, 5, Some(3)),
        (MAIN_BRANCH, 8, Some(6)),
        ("alt", 5, Some(3)),
        ("alt", 8, Some(6)),
    ] {
        assert_eq!(
            snapshot_seq(&j, &g, branch, at),
            nearest,
            "{branch} at {at}"
        );
    }
    let main = views(&j, &g, MAIN_BRANCH, 8);
    let alt = views(&j, &g, "alt", 8);
    // A cold journal folds from the snapshots and sees the same states...
    drop(j);
    let j = journal(&dir).with_snapshot_every(3);
    assert_eq!(views(&j, &g, MAIN_BRANCH, 8), main);
    assert_eq!(views(&j, &g, "alt", 8), alt);
    // ...and so does one with no snapshots at all.
    assert_eq!(j.log().drop_snapshots().unwrap(), 3);
    drop(j);
    let j = journal(&dir).with_snapshot_every(1000);
    assert_eq!(views(&j, &g, MAIN_BRANCH, 8), main);
    assert_eq!(views(&j, &g, "alt", 8), alt);
    assert_eq!(snapshot_seq(&j, &g, MAIN_BRANCH, 8), None);
}

#[test]
fn a_fold_reads_only_from_the_nearest_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let g = {
        let j = journal(&dir).with_snapshot_every(3);
        snapshotted_game(&j)
    };
    // An unreadable seq 2: folds that start from a snapshot never read it.
    tamper(&dir, 2, |v| v["body"] = json!("torn"));
    tamper_fold_form(&dir, 2, FoldFormDamage::Cut);
    let j = journal(&dir).with_snapshot_every(3);
    for at in [3, 5, 8] {
        j.state(&g, MAIN_BRANCH, Some(at), Viewer::Owner)
            .unwrap_or_else(|e| panic!("state at {at}: {e}"));
    }
    j.state(&g, "alt", Some(8), Viewer::Owner).unwrap();
    assert!(j.state(&g, MAIN_BRANCH, Some(2), Viewer::Owner).is_err());
}

/// A fold read a chunk ahead on a second thread folds what one read of the
/// whole history folds, seq by seq, whatever the chunk; a damaged event
/// part-way stops it with that event's error (the reader ahead let go).
#[test]
fn a_fold_read_ahead_in_chunks_folds_as_one_read_does() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let g = new_game(&j).game;
    let head = play(&j, &g, MAIN_BRANCH, 7);
    let events = j.events(&g, MAIN_BRANCH, 1, None).unwrap();
    let whole = Game::fold(&events).unwrap();
    let first = || Game::from_first(&events[0]).unwrap();
    let snapshot = |game: &Game| serde_json::to_value(game.snapshot()).unwrap();
    let fold = |j: &Journal, game: &mut Game, to, chunk, folded: &mut dyn FnMut(&Game)| {
        fold_steps::<JournalError>(j.log().as_ref(), (&g, MAIN_BRANCH), game, to, chunk, folded)
    };
    for chunk in [1, 2, 5, head - 1, head, 100] {
        let mut game = first();
        let mut seqs = Vec::new();
        fold(&j, &mut game, head, chunk, &mut |g| seqs.push(g.seq()))
            .unwrap_or_else(|e| panic!("chunks of {chunk}: {e}"));
        assert_eq!(seqs, (2..=head).collect::<Vec<_>>(), "chunks of {chunk}");
        assert_eq!(snapshot(&game), snapshot(&whole), "chunks of {chunk}");
        // Part of the way, from part of the way.
        let mut part = Game::fold(&events[..4]).unwrap();
        fold(&j, &mut part, 7, chunk, &mut |_| {}).unwrap();
        let seven = Game::fold(&events[..7]).unwrap();
        assert_eq!(snapshot(&part), snapshot(&seven), "chunks of {chunk}");
    }
    drop(j);
    tamper_fold_form(&dir, 6, FoldFormDamage::Cut);
    let j = journal(&dir);
    for chunk in [1, 2, 5, head] {
        let mut game = first();
        let err = fold(&j, &mut game, head, chunk, &mut |_| {}).unwrap_err();
        assert!(
            err.to_string().contains("seq 6"),
            "chunks of {chunk}: {err}"
        );
        // Stopped short of it: where depends on whether its chunk would
        // not read (sled checks the form's length) or not fold.
        assert!(game.seq() < 6, "chunks of {chunk}: at {}", game.seq());
    }
}

/// Export and verify read a long branch ahead in chunks, and give the same
/// lines and the same findings as reading it in one piece.
#[test]
fn export_and_verify_read_ahead_in_chunks_as_in_one_read() {
    let dir = tempfile::tempdir().unwrap();
    let g = {
        let j = journal(&dir);
        let g = new_game(&j).game;
        play(&j, &g, MAIN_BRANCH, 7);
        g
    };
    let whole = export(&journal(&dir), &g, None);
    for chunk in [1, 2, 3] {
        let j = journal(&dir).with_read_chunk(chunk);
        assert_eq!(export(&j, &g, None), whole, "chunks of {chunk}");
        let reports = j.verify(Some(&g)).unwrap();
        assert_eq!(reports.len(), 1);
        assert_eq!(reports[0].problem, None, "chunks of {chunk}");
        assert_eq!(reports[0].events, 8, "chunks of {chunk}");
    }
    tamper(&dir, 5, |v| v["recorded_at_ms"] = json!(1));
    for chunk in [1, 2, 3, 100] {
        let reports = journal(&dir)
            .with_read_chunk(chunk)
            .verify(Some(&g))
            .unwrap();
        let problem = reports[0].problem.as_ref().map(|p| p.seq);
        assert_eq!(problem, Some(5), "chunks of {chunk}: {reports:?}");
    }
}

/// The key sled keeps a branch's seq under (game, branch, big-endian seq).
fn sled_seq_key(game: &str, branch: &str, seq: u64) -> Vec<u8> {
    let mut key = [game.as_bytes(), &[0], branch.as_bytes(), &[0]].concat();
    key.extend_from_slice(&seq.to_be_bytes());
    key
}

/// Single appends' fold forms wait in memory and go into sled 64 to an
/// entry (see the store's `log::sled::runs`): while they wait, reads and
/// folds find them there; a store that closes puts what still waits, and
/// reads them all when it opens again.
#[test]
fn single_appends_keep_their_fold_forms_in_packs_found_while_they_wait() {
    let dir = tempfile::tempdir().unwrap();
    let all_have_forms = |j: &Journal, g: &str, lo: u64| {
        let read = j.events(g, MAIN_BRANCH, lo, None).unwrap();
        let accepted = read
            .iter()
            .filter_map(|e| match &e.body {
                Body::ActionAccepted(accepted) => Some((e.seq, accepted)),
                _ => None,
            })
            .collect::<Vec<_>>();
        assert!(!accepted.is_empty());
        for (seq, accepted) in accepted {
            assert!(accepted.fold_form.get().is_some(), "seq {seq} from {lo}");
        }
    };
    let at = [2, 40, 65, 66, 68, 71];
    let (g, states) = {
        let j = journal(&dir);
        let players = ["Ann", "Bo", "Cy"].map(String::from).to_vec();
        let kind = "ludovia".to_string();
        let g = j.create(NewGame {
            kind,
            players,
            seed: Some(42),
            ..NewGame::default()
        });
        let g = g.unwrap().game;
        assert_eq!(play(&j, &g, MAIN_BRANCH, 70), 71);
        for lo in [1, 60, 66, 70] {
            all_have_forms(&j, &g, lo);
        }
        let states: Vec<Value> = at
            .iter()
            .map(|&at| {
                serde_json::to_value(j.state(&g, MAIN_BRANCH, Some(at), Viewer::Owner).unwrap())
                    .unwrap()
            })
            .collect();
        (g, states)
    };
    if !matches!(test_store(dir.path()), Location::Postgres(_)) {
        let db = raw_sled(&dir.path().join("store"));
        let prefix = [g.as_bytes(), &[0]].concat();
        // Packs of the seqs in a row from the first action's, each under
        // its first seq and at most 64 forms or 6 KiB (a page of 17 stays
        // under the size sled writes to a file of its own).
        let mut next = 2;
        let forms = db.open_tree("forms").unwrap();
        for item in forms.scan_prefix(prefix) {
            let (key, raw) = item.unwrap();
            assert_eq!(key.to_vec(), sled_seq_key(&g, MAIN_BRANCH, next));
            let entries = pack_entries(&raw).expect("a pack");
            assert!(entries.len() <= 64 && (entries.len() == 1 || raw.len() <= 6 * 1024));
            next += entries.len() as u64;
        }
        assert_eq!(next, 72, "every form is in a pack");
        assert!(forms.len() < 70 / 4, "{} entries for 70 forms", forms.len());
    }
    let j = journal(&dir).with_snapshot_every(1000);
    // Folded from the events, through their forms.
    j.log().drop_snapshots().unwrap();
    for lo in [1, 60, 66, 70] {
        all_have_forms(&j, &g, lo);
    }
    for (&at, state) in at.iter().zip(&states) {
        let now = j.state(&g, MAIN_BRANCH, Some(at), Viewer::Owner).unwrap();
        assert_eq!(&serde_json::to_value(now).unwrap(), state, "state at {at}");
    }
}

/// An import keeps the fold forms of a run of events under one key (on
/// sled); a fold or a read from any seq, in chunks of any size, finds each
/// event's own, and what a crashed import of the game left is gone first.
#[test]
fn an_imported_game_reads_and_folds_its_packed_forms_from_any_seq() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let g = new_game(&j).game;
    play(&j, &g, MAIN_BRANCH, 7);
    j.fork(&g, MAIN_BRANCH, 4, Some("alt"), None, Access::Owner)
        .unwrap();
    play(&j, &g, "alt", 2);
    let exported = export(&j, &g, None);
    let other = tempfile::tempdir().unwrap();
    let sled = !matches!(test_store(other.path()), Location::Postgres(_));
    if sled {
        // A crashed import's pack, under a key the import does not use: a
        // read from seq 3 on would start from it if it stayed.
        let db = raw_sled(&other.path().join("store"));
        let bogus = [&[0xFF_u8][..], &4u32.to_le_bytes(), b"junk"].concat();
        for tree in ["forms", "events"] {
            let tree = db.open_tree(tree).unwrap();
            tree.insert(sled_seq_key(&g, MAIN_BRANCH, 2), bogus.as_slice())
                .unwrap();
        }
        db.flush().unwrap();
    }
    journal(&other).import(&mut exported.as_slice()).unwrap();
    for (branch, head) in [(MAIN_BRANCH, 8), ("alt", 6)] {
        for chunk in [1, 2, 3, 7, 100] {
            let k = journal(&other).with_read_chunk(chunk);
            for at in [2, 3, 4, 5, head] {
                let state = |j: &Journal| {
                    serde_json::to_value(j.state(&g, branch, Some(at), Viewer::Owner).unwrap())
                        .unwrap()
                };
                assert_eq!(state(&k), state(&j), "{branch} at {at}, chunks of {chunk}");
            }
            for lo in [1, 2, 3, 5] {
                let read = k.events(&g, branch, lo, None).unwrap();
                assert_eq!(read, j.events(&g, branch, lo, None).unwrap());
                for event in &read {
                    if let Body::ActionAccepted(accepted) = &event.body {
                        assert!(accepted.fold_form.get().is_some(), "{branch} {}", event.seq);
                    }
                }
            }
        }
    }
    if sled {
        let db = raw_sled(&other.path().join("store"));
        let entries = |tree: &str| {
            let prefix = [g.as_bytes(), &[0]].concat();
            db.open_tree(tree).unwrap().scan_prefix(prefix).count()
        };
        assert_eq!(entries("forms"), 2, "a pack of forms for each branch's run");
        // The events' packs keep to a few KiB: fewer entries than events.
        assert!(entries("events") < 8 + 2, "{} entries", entries("events"));
        drop(db);
        // A pack cut short is an error naming the seq it fails at, whether
        // the fold reads forms or events.
        for tree in ["forms", "events"] {
            let copy = tempfile::tempdir().unwrap();
            let j = journal(&copy);
            j.import(&mut exported.as_slice()).unwrap();
            drop(j);
            let db = raw_sled(&copy.path().join("store"));
            let packs = db.open_tree(tree).unwrap();
            let key = sled_seq_key(&g, MAIN_BRANCH, 1);
            let pack = packs.get(&key).unwrap().unwrap();
            let last = pack_entries(&pack).expect("a pack").len();
            assert!(last > 1, "{tree}: a pack from seq 1 holds several events");
            packs.insert(&key, &pack[..pack.len() - 1]).unwrap();
            db.flush().unwrap();
            drop((packs, db));
            let err = journal(&copy)
                .events(&g, MAIN_BRANCH, 1, None)
                .unwrap_err()
                .to_string();
            let at = format!("seq {last}");
            assert!(
                err.contains(&at) && err.contains("cut short"),
                "{tree}: {err}"
            );
        }
    }
}

#[test]
fn import_leaves_snapshots_and_the_same_states() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir).with_snapshot_every(3);
    let g = snapshotted_game(&j);
    let exported = export(&j, &g, None);
    let other = tempfile::tempdir().unwrap();
    let k = journal(&other).with_snapshot_every(3);
    k.import(&mut exported.as_slice()).unwrap();
    assert_eq!(snapshot_seq(&k, &g, MAIN_BRANCH, 8), Some(6));
    assert_eq!(snapshot_seq(&k, &g, "alt", 8), Some(6));
    assert_eq!(snapshot_seq(&k, &g, "alt", 5), Some(3));
    assert_eq!(views(&k, &g, MAIN_BRANCH, 8), views(&j, &g, MAIN_BRANCH, 8));
    assert_eq!(views(&k, &g, "alt", 8), views(&j, &g, "alt", 8));
    assert_eq!(k.log().drop_snapshots().unwrap(), 3);
    assert_eq!(views(&k, &g, "alt", 8), views(&j, &g, "alt", 8));
    // Every accepted action comes in with its facts' fold form, on every
    // branch, the same bytes as the rules made where it was played.
    for branch in [MAIN_BRANCH, "alt"] {
        let forms = |j: &Journal| -> Vec<Option<Vec<u8>>> {
            let events = j.log().read(&g, branch, 1, None).unwrap();
            events
                .iter()
                .filter_map(|e| match &e.body {
                    Body::ActionAccepted(a) => Some(a.fold_form.get().map(<[u8]>::to_vec)),
                    _ => None,
                })
                .collect()
        };
        let imported = forms(&k);
        assert_eq!(imported.len(), 7, "{branch}");
        assert!(imported.iter().all(Option::is_some), "{branch}");
        assert_eq!(imported, forms(&j), "{branch}");
    }
}

#[test]
fn a_failed_import_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let g = new_game(&j).game;
    play(&j, &g, MAIN_BRANCH, 3);
    j.fork(&g, MAIN_BRANCH, 2, Some("alt"), None, Access::Owner)
        .unwrap();
    play(&j, &g, "alt", 3);
    let text = String::from_utf8(export(&j, &g, None)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 7);
    // `alt`'s second event is missing: found only after `main` was written
    // (a new branch's fork point is looked up among the events written).
    let broken = format!("{}\n{}\n", lines[..5].join("\n"), lines[6]);
    let other = tempfile::tempdir().unwrap();
    let k = journal(&other);
    assert!(matches!(
        k.import(&mut broken.as_bytes()),
        Err(JournalError::BadInput(_))
    ));
    assert!(k.games().unwrap().is_empty());
    assert_eq!(k.log().own_event(&g, MAIN_BRANCH, 1).unwrap(), None);
    assert_eq!(k.log().own_event(&g, MAIN_BRANCH, 4).unwrap(), None);
    k.import(&mut text.as_bytes()).unwrap();
    assert_eq!(export(&k, &g, None), text.as_bytes());
}

/// Known limit of "one event per line": a branch with no events of its own
/// has no line, so it is not exported; a fork of it comes back as a fork of
/// its parent, at the same seq and with the same history.
#[test]
fn an_empty_branch_is_not_exported_and_its_fork_rehomes() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let g = new_game(&j).game;
    play(&j, &g, MAIN_BRANCH, 4);
    j.fork(&g, MAIN_BRANCH, 4, Some("empty"), None, Access::Owner)
        .unwrap();
    j.fork(&g, "empty", 3, Some("child"), None, Access::Owner)
        .unwrap();
    play(&j, &g, "child", 1);
    let exported = export(&j, &g, None);
    let other = tempfile::tempdir().unwrap();
    let k = journal(&other);
    let imported = k.import(&mut exported.as_slice()).unwrap();
    assert_eq!(imported.branches, ["main", "child"]);
    let child = &k.branches(&g).unwrap()[1];
    assert_eq!(
        (child.parent.as_deref(), child.fork_seq),
        (Some(MAIN_BRANCH), Some(3))
    );
    assert_eq!(
        k.events(&g, "child", 1, None).unwrap(),
        j.events(&g, "child", 1, None).unwrap()
    );
}

#[test]
fn concurrent_unnamed_forks_all_get_their_own_name() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let g = new_game(&j).game;
    play(&j, &g, MAIN_BRANCH, 2);
    let names: Vec<String> = std::thread::scope(|s| {
        let forks: Vec<_> = (0..8)
            .map(|_| {
                s.spawn(|| {
                    (0..4)
                        .map(|_| {
                            j.fork(&g, MAIN_BRANCH, 2, None, None, Access::Owner)
                                .unwrap()
                                .name
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        forks.into_iter().flat_map(|f| f.join().unwrap()).collect()
    });
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 32, "{names:?}");
    assert_eq!(j.branches(&g).unwrap().len(), 33);
}

#[test]
fn concurrent_imports_of_one_game_leave_one_whole_game() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let g = new_game(&j).game;
    play(&j, &g, MAIN_BRANCH, 6);
    j.fork(&g, MAIN_BRANCH, 3, Some("alt"), Some(4), Access::Owner)
        .unwrap();
    play(&j, &g, "alt", 2);
    let mut log = Vec::new();
    j.export(&g, None, &mut log).unwrap();
    let other = tempfile::tempdir().unwrap();
    let target = journal(&other);
    // Half of the imports break half-way, so their clean-up races the others.
    let mut cut = log[..log.len() / 2].to_vec();
    cut.extend_from_slice(b"\n{broken\n");
    let cut = &cut[..];
    let outcomes: Vec<bool> = std::thread::scope(|s| {
        let runs: Vec<_> = (0..8)
            .map(|i| {
                let target = &target;
                let input: &[u8] = if i % 2 == 0 { &log } else { cut };
                s.spawn(move || target.import(&mut &input[..]).is_ok())
            })
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    assert_eq!(outcomes.iter().filter(|ok| **ok).count(), 1, "{outcomes:?}");
    let reports = target.verify(Some(&g)).unwrap();
    assert_eq!(reports.len(), 2);
    assert!(reports.iter().all(|r| r.problem.is_none()), "{reports:?}");
    let mut again = Vec::new();
    target.export(&g, None, &mut again).unwrap();
    assert_eq!(again, log);
}

#[test]
fn a_backup_restores_every_game_with_its_tokens() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    j.set_admin_token("admin-token-for-this-test").unwrap();
    let games: Vec<_> = (0..5).map(|_| new_game(&j)).collect();
    play(&j, &games[0].game, MAIN_BRANCH, 5);
    j.fork(
        &games[0].game,
        MAIN_BRANCH,
        3,
        Some("alt"),
        Some(8),
        Access::Owner,
    )
    .unwrap();
    play(&j, &games[0].game, "alt", 2);
    let mut backup = Vec::new();
    let done = j.backup(&mut backup).unwrap();
    assert_eq!(done.games, 5);
    assert_eq!(done.events, 5 + 5 + 1 + 2);

    let fresh = tempfile::tempdir().unwrap();
    let j = journal(&fresh);
    let restored = j.restore(&mut backup.as_slice()).unwrap();
    assert_eq!(restored.games.len(), 5);
    assert!(restored.skipped.is_empty());
    assert!(j.verify(None).unwrap().iter().all(|r| r.problem.is_none()));
    // Every token opens its game as before, and the admin token is kept.
    for created in &games {
        assert_eq!(
            j.access(&created.game, Some(&created.owner_token)).unwrap(),
            Access::Owner
        );
        assert_eq!(
            j.access(&created.game, Some(&created.seats[1].token))
                .unwrap(),
            Access::Seat(1)
        );
    }
    assert!(j.is_admin(Some("admin-token-for-this-test")).unwrap());
    let mut again = Vec::new();
    j.backup(&mut again).unwrap();
    assert_eq!(again, backup, "backup, restore, backup is the identity");
    // A second restore changes nothing and says so.
    let twice = j.restore(&mut backup.as_slice()).unwrap();
    assert!(twice.games.is_empty());
    assert_eq!(twice.skipped.len(), 5);
}

#[test]
fn a_store_held_by_another_handle_says_so_and_names_the_holder() {
    if testing_postgres() {
        return; // a sled store's lock; a database takes many processes
    }
    let dir = tempfile::tempdir().unwrap();
    let held = journal(&dir);
    let path = dir.path().join("store");
    tabletape_store::note_holder(&path, "tabletape serve, pid 41, on 127.0.0.1:7878").unwrap();
    let err = match Journal::open(&path) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("a held store opened twice"),
    };
    assert!(err.contains("in use by another process"), "{err}");
    assert!(err.contains("tabletape serve, pid 41"), "{err}");
    tabletape_store::clear_holder(&path);
    drop(held);
}

#[test]
fn undo_moves_the_current_line_to_a_fork_keeps_the_dice_and_deletes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let created = j
        .create(NewGame {
            title: None,
            kind: "ludovia".into(),
            players: vec!["Ada".into(), "Bo".into(), "Cy".into()],
            seed: Some(11),
            ..NewGame::default()
        })
        .unwrap();
    let g = created.game;
    assert!(matches!(
        j.undo(&g, Access::Owner),
        Err(JournalError::Unfit { rule, message }) if rule == "undo.nothing" && message.contains("nothing to take back")
    ));
    play(&j, &g, MAIN_BRANCH, 6);
    let before = j.events(&g, MAIN_BRANCH, 1, None).unwrap();
    let last = before.last().unwrap().clone();
    // A seat may take back only what it recorded (the owner recorded these).
    assert!(matches!(
        j.undo(&g, Access::Seat(1)),
        Err(JournalError::Forbidden(_))
    ));
    let undone = j.undo(&g, Access::Owner).unwrap();
    assert_eq!(undone.taken_back, MAIN_BRANCH);
    assert_eq!(undone.seq, 7);
    assert_eq!(j.current_line(&g).unwrap(), undone.current);
    // Nothing deleted; the old line is marked.
    assert_eq!(j.events(&g, MAIN_BRANCH, 1, None).unwrap(), before);
    let branches = j.branches(&g).unwrap();
    assert!(branches[0].taken_back && !branches[1].taken_back);
    // The same action again draws the same chance: taking back re-rolls nothing.
    let Body::ActionAccepted(action) = &last.body else {
        panic!("an action")
    };
    j.act(
        &g,
        ActRequest {
            branch: undone.current.clone(),
            ..owner_act(MAIN_BRANCH, action.action.clone())
        },
    )
    .unwrap();
    let again = j.events(&g, &undone.current, 7, Some(7)).unwrap().remove(0);
    let Body::ActionAccepted(redone) = &again.body else {
        panic!("an action")
    };
    assert_eq!(redone.facts, action.facts);
    assert_eq!(redone.chance, action.chance);
    assert_eq!(
        j.summary(&g, Viewer::Owner).unwrap().current,
        undone.current
    );
    assert!(j
        .verify(Some(&g))
        .unwrap()
        .iter()
        .all(|r| r.problem.is_none()));
}

#[test]
fn a_content_pack_is_stored_once_for_every_game_of_its_box() {
    if testing_postgres() {
        return; // counts sled's trees (PostgreSQL's `packs` is keyed the same way)
    }
    let dir = tempfile::tempdir().unwrap();
    let (games, exports) = {
        let j = journal(&dir);
        let games: Vec<String> = (0..3).map(|_| new_game(&j).game).collect();
        play(&j, &games[0], MAIN_BRANCH, 3);
        let exports: Vec<String> = games
            .iter()
            .map(|g| {
                let mut out = Vec::new();
                j.export(g, None, &mut out).unwrap();
                String::from_utf8(out).unwrap()
            })
            .collect();
        (games, exports)
    };
    // Each export carries its pack in full, as the game was created.
    for export in &exports {
        let first: Event = serde_json::from_str(export.lines().next().unwrap()).unwrap();
        let Body::GameCreated(created) = &first.body else {
            panic!("an export opens with the creation")
        };
        assert!(created.pack["characters"].is_array(), "{}", created.pack);
    }
    let db = raw_sled(&dir.path().join("store"));
    let packs = db.open_tree("packs").unwrap();
    assert_eq!(packs.len(), 1, "three games of one box share one pack");
    let pack_bytes = packs.iter().next().unwrap().unwrap().1.len();
    let events = db.open_tree("events").unwrap();
    let stored: usize = events.iter().map(|e| e.unwrap().1.len()).sum();
    assert!(
        stored < pack_bytes,
        "the games' events take {stored} bytes, less than one pack ({pack_bytes})"
    );

    // A creation stored whole, as earlier builds did, still reads the same.
    let (key, _) = events
        .iter()
        .map(Result::unwrap)
        .find(|(k, _)| k.starts_with(games[1].as_bytes()))
        .unwrap();
    let whole = exports[1].lines().next().unwrap();
    events.insert(key, whole.as_bytes()).unwrap();
    db.flush().unwrap();
    drop((events, packs, db));
    let j = journal(&dir);
    let mut out = Vec::new();
    j.export(&games[1], None, &mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), exports[1]);
    assert!(j.verify(Some(&games[1])).unwrap()[0].problem.is_none());
}

#[test]
fn a_table_may_choose_its_games_id() {
    let dir = tempfile::tempdir().unwrap();
    let j = journal(&dir);
    let new = |id: &str| NewGame {
        id: Some(id.into()),
        kind: "lostworlds".into(),
        players: vec!["Ann".into(), "Bo".into()],
        ..NewGame::default()
    };
    let c = j.create(new("duel")).unwrap();
    assert_eq!(c.game, "duel");
    assert_eq!(j.games().unwrap()[0].game, "duel");
    let taken = j.create(new("duel")).unwrap_err();
    assert!(
        matches!(&taken, JournalError::Unfit { rule, message } if rule == "game.id" && message.contains("game id `duel` is taken")),
        "{taken:?}"
    );
    let bad = j.create(new("a duel")).unwrap_err();
    assert!(
        matches!(&bad, JournalError::BadInput(m) if m.contains("only ASCII letters, digits")),
        "{bad:?}"
    );
    assert_eq!(
        j.games().unwrap().len(),
        1,
        "nothing written for a refused id"
    );
}

/// [`tamper`] on PostgreSQL: the event's row, as the event's JSON, edited
/// and written back.
fn tamper_row(url: &str, seq: u64, edit: impl Fn(&mut Value)) {
    let server = ScratchServer::shared();
    let row = server
        .psql(
            url,
            &format!(
                "SELECT jsonb_strip_nulls(jsonb_build_object('game', game, 'branch', branch, \
                 'seq', seq, 'recorded_at_ms', recorded_at_ms, 'actor', actor, \
                 'schema_version', schema_version, 'idempotency_key', idempotency_key, \
                 'prev_hash', prev_hash, 'hash', hash, 'salt', salt, 'body', body)) \
                 FROM events WHERE branch = 'main' AND seq = {seq}"
            ),
        )
        .unwrap();
    let mut event: Value = serde_json::from_str(&row).expect("the event is stored");
    edit(&mut event);
    let quoted = |v: &Value| format!("'{}'", v.to_string().replace('\'', "''"));
    let text = |v: &Value| format!("'{}'", v.as_str().unwrap().replace('\'', "''"));
    server
        .psql(
            url,
            &format!(
                "UPDATE events SET schema_version = {}, recorded_at_ms = {}, actor = {}::jsonb, \
                 prev_hash = {}, hash = {}, salt = {}, body = {}::jsonb \
                 WHERE branch = 'main' AND seq = {seq}",
                event["schema_version"],
                event["recorded_at_ms"],
                quoted(&event["actor"]),
                text(&event["prev_hash"]),
                text(&event["hash"]),
                text(&event["salt"]),
                quoted(&event["body"]),
            ),
        )
        .unwrap();
}
