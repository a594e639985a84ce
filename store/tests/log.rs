//! The log layer against hand-made events: appends, conflicts, idempotency,
//! forks, snapshots, durability across reopen, upcasting, and a model test.

use std::collections::HashMap;
use std::sync::Arc;

use crate::common::{action, created, meta, raw_sled};
use proptest::prelude::*;
use serde_json::Value;
use tabletape_engine::{SavedState, Snapshot};
use tabletape_events::{Body, Event, FoldForm, MAIN_BRANCH, SCHEMA_VERSION};
use tabletape_store::scratch::test_store;
use tabletape_store::upcast::upcast;
use tabletape_store::{event_hash, Draft, FoldStep, Head, Log, Receipt, SledLog, StoreError};

/// The test's store: sled, or PostgreSQL with `TABLETAPE_TEST_STORE=postgres`.
fn open(dir: &tempfile::TempDir) -> Arc<dyn Log> {
    test_store(dir.path()).open_log().unwrap()
}

fn fresh() -> (tempfile::TempDir, Arc<dyn Log>) {
    let dir = tempfile::tempdir().unwrap();
    let log = open(&dir);
    log.create_game(&meta("g-1"), created()).unwrap();
    (dir, log)
}

/// Checks seqs run 1..=n and each event chains to the one before.
fn assert_chain(events: &[Event]) {
    let mut prev = String::new();
    for (i, e) in events.iter().enumerate() {
        assert_eq!(e.seq, i as u64 + 1, "gap before {e:?}");
        assert_eq!(e.prev_hash, prev, "broken link at seq {}", e.seq);
        assert_eq!(event_hash(e), e.hash, "bad hash at seq {}", e.seq);
        prev = e.hash.clone();
    }
}

#[test]
fn create_writes_seq_one_and_refuses_a_taken_id() {
    let (_dir, log) = fresh();
    let events = log.read("g-1", MAIN_BRANCH, 1, None).unwrap();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].prev_hash, "");
    assert_eq!(events[0].schema_version, SCHEMA_VERSION);
    assert!(
        matches!(log.create_game(&meta("g-1"), created()), Err(StoreError::GameExists(g)) if g == "g-1")
    );
    assert_eq!(log.games().unwrap(), vec![meta("g-1")]);
}

/// A writer that knows the head appends without reading it first, and
/// writes nothing when the branch is not as it knows it: moved on, chained
/// on another hash, taken back, or its key used.
#[test]
fn append_on_a_known_head_writes_only_on_that_head() {
    let (dir, log) = fresh();
    let first = log.read("g-1", MAIN_BRANCH, 1, Some(1)).unwrap()[0]
        .hash
        .clone();
    let on = |seq, hash| Head { seq, hash };
    let two = log
        .append_on(
            "g-1",
            MAIN_BRANCH,
            on(1, &first),
            Some("k"),
            vec![action(1)],
        )
        .unwrap()
        .expect("written on the head it knew");
    assert_eq!(two.events[0].seq, 2);
    assert_eq!(two.events[0].prev_hash, first);
    let head = two.events[0].hash.clone();
    let refused = [
        // The head moved on since.
        ("a stale head", on(1, &first), None),
        // The right seq, another chain.
        ("another hash", on(2, &first), None),
        // The key is the first append's.
        ("a used key", on(2, &head), Some("k")),
    ];
    for (what, known, key) in refused {
        let got = log
            .append_on("g-1", MAIN_BRANCH, known, key, vec![action(9)])
            .unwrap();
        assert!(got.is_none(), "{what}: {got:?}");
    }
    assert_eq!(log.read("g-1", MAIN_BRANCH, 1, None).unwrap().len(), 2);
    // A line is taken back as it was read: not once it has moved on.
    log.fork("g-1", MAIN_BRANCH, 1, "redo", 5, None).unwrap();
    assert!(matches!(
        log.take_back("g-1", MAIN_BRANCH, on(1, &first), "redo"),
        Err(StoreError::Conflict {
            expected: 1,
            head: 2
        })
    ));
    assert!(!log.branch("g-1", MAIN_BRANCH).unwrap().unwrap().taken_back);
    log.take_back("g-1", MAIN_BRANCH, on(2, &head), "redo")
        .unwrap();
    // Taken back, it is closed to play however well its head is known,
    // and to a second take-back.
    let got = log
        .append_on("g-1", MAIN_BRANCH, on(2, &head), None, vec![action(9)])
        .unwrap();
    assert!(got.is_none(), "a line taken back: {got:?}");
    assert!(matches!(
        log.append("g-1", MAIN_BRANCH, Some(2), None, vec![action(9)]),
        Err(StoreError::Conflict { .. })
    ));
    assert!(matches!(
        log.take_back("g-1", MAIN_BRANCH, on(2, &head), "redo"),
        Err(StoreError::Conflict { .. })
    ));
    let events = log.read("g-1", MAIN_BRANCH, 1, None).unwrap();
    assert_eq!(events.len(), 2);
    assert_chain(&events);
    // The line that replaced it takes appends on its own head.
    let redo = log.branch("g-1", "redo").unwrap().unwrap();
    let written = log
        .append_on("g-1", "redo", on(1, &redo.head_hash), None, vec![action(2)])
        .unwrap();
    let written = written.expect("written on the new line's head");
    assert_eq!(written.events[0].seq, 2);
    let written_hash = written.events[0].hash.clone();
    // Opened again, a store knows the line taken back from its record
    // alone (a process remembers which lines it found open and which it
    // is taking back, and a new one neither).
    drop(log);
    let log = open(&dir);
    let got = log
        .append_on("g-1", MAIN_BRANCH, on(2, &head), None, vec![action(9)])
        .unwrap();
    assert!(got.is_none(), "a line taken back, reopened: {got:?}");
    assert!(matches!(
        log.append("g-1", MAIN_BRANCH, Some(2), None, vec![action(9)]),
        Err(StoreError::Conflict { .. })
    ));
    let written = log
        .append_on("g-1", "redo", on(2, &written_hash), None, vec![action(3)])
        .unwrap();
    assert_eq!(written.map(|a| a.events[0].seq), Some(3));
    assert_eq!(log.read("g-1", MAIN_BRANCH, 1, None).unwrap().len(), 2);
}

#[test]
fn append_assigns_seqs_and_chains_hashes() {
    let (_dir, log) = fresh();
    let a = log
        .append(
            "g-1",
            MAIN_BRANCH,
            Some(1),
            None,
            vec![action(1), action(2)],
        )
        .unwrap();
    assert_eq!(a.receipt.first_seq, 2);
    assert_eq!(a.receipt.last_seq(), 3);
    let b = log
        .append("g-1", MAIN_BRANCH, None, None, vec![action(3)])
        .unwrap();
    assert_eq!(b.events[0].seq, 4);
    let events = log.read("g-1", MAIN_BRANCH, 1, None).unwrap();
    assert_chain(&events);
    assert_eq!(events[1..3], a.events[..]);
    assert_eq!(log.read("g-1", MAIN_BRANCH, 2, Some(3)).unwrap(), a.events);
}

#[test]
fn stale_expected_seq_is_a_conflict_and_writes_nothing() {
    let (_dir, log) = fresh();
    log.append("g-1", MAIN_BRANCH, Some(1), None, vec![action(1)])
        .unwrap();
    let err = log
        .append("g-1", MAIN_BRANCH, Some(1), None, vec![action(2)])
        .unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::Conflict {
                expected: 1,
                head: 2
            }
        ),
        "{err}"
    );
    assert_eq!(log.read("g-1", MAIN_BRANCH, 1, None).unwrap().len(), 2);
}

#[test]
fn a_known_idempotency_key_returns_the_original_receipt() {
    let (_dir, log) = fresh();
    let first = log
        .append("g-1", MAIN_BRANCH, Some(1), Some("k1"), vec![action(1)])
        .unwrap();
    log.append("g-1", MAIN_BRANCH, None, None, vec![action(2)])
        .unwrap();
    // Even with a now-stale expected seq and different content, the retry is
    // answered with the original receipt and nothing is stored.
    let again = log
        .append("g-1", MAIN_BRANCH, Some(1), Some("k1"), vec![action(9)])
        .unwrap();
    assert!(again.receipt.retried);
    assert!(again.events.is_empty());
    assert_eq!(again.receipt.hashes, first.receipt.hashes);
    assert_eq!(again.receipt.first_seq, 2);
    assert_eq!(log.read("g-1", MAIN_BRANCH, 1, None).unwrap().len(), 3);
    assert_eq!(first.events[0].idempotency_key.as_deref(), Some("k1"));
    assert_eq!(
        log.receipt("g-1", MAIN_BRANCH, "k1").unwrap(),
        Some(again.receipt)
    );
    assert_eq!(log.receipt("g-1", MAIN_BRANCH, "k2").unwrap(), None);
}

#[test]
fn unknown_game_and_branch_are_told_apart() {
    let (_dir, log) = fresh();
    assert!(matches!(
        log.append("g-2", MAIN_BRANCH, None, None, vec![action(1)]),
        Err(StoreError::UnknownGame(_))
    ));
    assert!(matches!(
        log.append("g-1", "nope", None, None, vec![action(1)]),
        Err(StoreError::UnknownBranch { .. })
    ));
    assert!(matches!(
        log.read("g-1", "nope", 1, None),
        Err(StoreError::UnknownBranch { .. })
    ));
}

#[test]
fn a_creation_is_only_allowed_at_seq_one() {
    let (_dir, log) = fresh();
    let err = log
        .append("g-1", MAIN_BRANCH, None, None, vec![created()])
        .unwrap_err();
    assert!(
        matches!(err, StoreError::InvalidEvent { seq: 2, .. }),
        "{err}"
    );
}

#[test]
fn fork_shares_history_and_chains_to_the_fork_point() {
    let (_dir, log) = fresh();
    log.append(
        "g-1",
        MAIN_BRANCH,
        None,
        None,
        (1..=5).map(action).collect(),
    )
    .unwrap();
    let b = log
        .fork("g-1", MAIN_BRANCH, 3, "what-if", 5_000, None)
        .unwrap();
    assert_eq!(
        (b.fork_seq, b.head_seq, b.parent.as_deref()),
        (Some(3), 3, Some(MAIN_BRANCH))
    );
    let own = log
        .append("g-1", "what-if", Some(3), None, vec![action(40)])
        .unwrap();
    let main = log.read("g-1", MAIN_BRANCH, 1, None).unwrap();
    let fork = log.read("g-1", "what-if", 1, None).unwrap();
    assert_chain(&fork);
    assert_eq!(fork[..3], main[..3]);
    assert_eq!(own.events[0].prev_hash, main[2].hash);
    assert_eq!(fork[3].branch, "what-if");
    // A fork of a fork walks two levels of ancestry.
    log.fork("g-1", "what-if", 2, "deeper", 6_000, None)
        .unwrap();
    log.append("g-1", "deeper", Some(2), None, vec![action(50)])
        .unwrap();
    let deeper = log.read("g-1", "deeper", 1, None).unwrap();
    assert_chain(&deeper);
    assert_eq!(deeper[..2], main[..2]);
    assert_eq!(log.read("g-1", "deeper", 2, Some(3)).unwrap().len(), 2);
    let names: Vec<String> = log
        .branches("g-1")
        .unwrap()
        .into_iter()
        .map(|b| b.name)
        .collect();
    assert_eq!(names, ["main", "what-if", "deeper"]);
}

#[test]
fn fork_checks_its_seq_and_name() {
    let (_dir, log) = fresh();
    assert!(matches!(
        log.fork("g-1", MAIN_BRANCH, 2, "x", 1, None),
        Err(StoreError::NoSuchSeq {
            seq: 2,
            head: 1,
            ..
        })
    ));
    assert!(matches!(
        log.fork("g-1", MAIN_BRANCH, 0, "x", 1, None),
        Err(StoreError::NoSuchSeq { .. })
    ));
    assert!(matches!(
        log.fork("g-1", MAIN_BRANCH, 1, "main", 1, None),
        Err(StoreError::BranchExists { .. })
    ));
    assert!(matches!(
        log.fork("g-1", MAIN_BRANCH, 1, "a\0b", 1, None),
        Err(StoreError::BadName { .. })
    ));
}

#[test]
fn fork_with_a_first_event_writes_it_atomically() {
    let (_dir, log) = fresh();
    let reseed = Draft::new(
        9,
        tabletape_events::Actor::Owner,
        Body::Reseeded { seed: 99 },
    )
    .unwrap();
    let b = log
        .fork("g-1", MAIN_BRANCH, 1, "r", 9, Some(reseed))
        .unwrap();
    assert_eq!((b.head_seq, b.reseed), (2, Some(99)));
    let events = log.read("g-1", "r", 1, None).unwrap();
    assert_chain(&events);
    assert_eq!(events[1].body, Body::Reseeded { seed: 99 });
}

fn snap(seq: u64) -> Snapshot {
    Snapshot {
        seq,
        seed: 7,
        chapter: format!("at {seq}"),
        state: SavedState::of(&seq),
        notes: Default::default(),
        dice: None,
    }
}

#[test]
fn snapshots_are_found_along_the_ancestry_and_droppable() {
    let (_dir, log) = fresh();
    log.append(
        "g-1",
        MAIN_BRANCH,
        None,
        None,
        (1..=9).map(action).collect(),
    )
    .unwrap();
    log.fork("g-1", MAIN_BRANCH, 6, "f", 1, None).unwrap();
    log.append("g-1", "f", None, None, (1..=4).map(action).collect())
        .unwrap();
    log.put_snapshot("g-1", MAIN_BRANCH, &snap(4)).unwrap();
    log.put_snapshot("g-1", MAIN_BRANCH, &snap(8)).unwrap();
    // Stored on the fork but at a seq main owns: shared with main.
    log.put_snapshot("g-1", "f", &snap(5)).unwrap();
    log.put_snapshot("g-1", "f", &snap(9)).unwrap();
    let at = |b: &str, seq: u64| {
        log.snapshot_at_or_before("g-1", b, seq)
            .unwrap()
            .map(|s| s.seq)
    };
    assert_eq!(at(MAIN_BRANCH, 3), None);
    assert_eq!(at(MAIN_BRANCH, 7), Some(5));
    assert_eq!(at(MAIN_BRANCH, 10), Some(8));
    assert_eq!(
        at("f", 8),
        Some(5),
        "main's seq 8 is not in the fork's history"
    );
    assert_eq!(at("f", 10), Some(9));
    assert_eq!(log.drop_snapshots().unwrap(), 4);
    assert_eq!(at("f", 10), None);
}

#[test]
fn acknowledged_events_survive_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let written = {
        let log = open(&dir);
        log.create_game(&meta("g-1"), created()).unwrap();
        log.append(
            "g-1",
            MAIN_BRANCH,
            None,
            Some("k"),
            (1..=20).map(action).collect(),
        )
        .unwrap();
        log.fork("g-1", MAIN_BRANCH, 10, "f", 1, None).unwrap();
        log.read("g-1", MAIN_BRANCH, 1, None).unwrap()
    };
    let log = open(&dir);
    assert_eq!(log.read("g-1", MAIN_BRANCH, 1, None).unwrap(), written);
    assert_eq!(log.branch("g-1", "f").unwrap().unwrap().head_seq, 10);
    assert!(log.receipt("g-1", MAIN_BRANCH, "k").unwrap().is_some());
}

#[test]
fn sixty_four_threads_append_gap_free() {
    let dir = tempfile::tempdir().unwrap();
    let log = Arc::new(open(&dir));
    log.create_game(&meta("g-1"), created()).unwrap();
    let threads: Vec<_> = (0..64u64)
        .map(|t| {
            let log = Arc::clone(&log);
            std::thread::spawn(move || {
                let mut acked = Vec::new();
                for i in 0..5 {
                    let n = t * 100 + i;
                    // Half the threads use optimistic concurrency and retry on conflict.
                    loop {
                        let expected = if t % 2 == 0 {
                            Some(log.branch("g-1", MAIN_BRANCH).unwrap().unwrap().head_seq)
                        } else {
                            None
                        };
                        match log.append("g-1", MAIN_BRANCH, expected, None, vec![action(n)]) {
                            Ok(a) => {
                                acked.push(a.events[0].clone());
                                break;
                            }
                            Err(StoreError::Conflict { .. }) => continue,
                            Err(e) => panic!("append failed: {e}"),
                        }
                    }
                }
                acked
            })
        })
        .collect();
    let acked: Vec<Event> = threads
        .into_iter()
        .flat_map(|t| t.join().unwrap())
        .collect();
    drop(log);
    let log = open(&dir);
    let events = log.read("g-1", MAIN_BRANCH, 1, None).unwrap();
    assert_eq!(events.len(), 1 + 64 * 5);
    assert_chain(&events);
    for a in &acked {
        assert_eq!(
            &events[a.seq as usize - 1],
            a,
            "acknowledged event lost or changed"
        );
    }
}

#[test]
fn a_batch_of_many_events_reads_back_whole_and_one_by_one() {
    let dir = tempfile::tempdir().unwrap();
    let written = {
        let log = open(&dir);
        log.create_game(&meta("g-1"), created()).unwrap();
        // More than two packs' worth of pointers in one append.
        let batch = (0..150).map(action).collect();
        log.append("g-1", MAIN_BRANCH, Some(1), None, batch)
            .unwrap();
        log.append("g-1", MAIN_BRANCH, Some(151), None, vec![action(150)])
            .unwrap();
        let whole = log.read("g-1", MAIN_BRANCH, 1, None).unwrap();
        assert_eq!(whole.len(), 152);
        assert_chain(&whole);
        for seq in [1, 2, 64, 65, 66, 129, 130, 151, 152] {
            let one = log.read("g-1", MAIN_BRANCH, seq, Some(seq)).unwrap();
            assert_eq!(one[0], whole[seq as usize - 1]);
        }
        let middle = log.read("g-1", MAIN_BRANCH, 60, Some(140)).unwrap();
        assert_eq!(middle, whole[59..140]);
        whole
    };
    let log = open(&dir);
    assert_eq!(log.read("g-1", MAIN_BRANCH, 1, None).unwrap(), written);
    assert_eq!(
        log.read("g-1", MAIN_BRANCH, 60, Some(140)).unwrap(),
        written[59..140]
    );
}

/// An action carrying a fold form of `len` bytes, each its seq's own.
fn action_with_form(n: u64, len: usize) -> Draft {
    let mut draft = action(n);
    if let Body::ActionAccepted(accepted) = &mut draft.body {
        accepted.fold_form = FoldForm::new((0..len).map(|i| (n as usize * 7 + i) as u8).collect());
    }
    draft
}

/// The fold forms a fold reads of `game`'s main line, by seq, checked
/// against those of the events read whole.
fn forms_read(log: &dyn Log, game: &str) -> Vec<(u64, Vec<u8>)> {
    let steps = log.read_steps(game, MAIN_BRANCH, 1, None).unwrap();
    let forms: Vec<_> = steps
        .iter()
        .filter_map(|step| match step {
            FoldStep::Compact { seq, facts, .. } => Some((*seq, facts.to_vec())),
            _ => None,
        })
        .collect();
    let whole: Vec<_> = log
        .read(game, MAIN_BRANCH, 1, None)
        .unwrap()
        .into_iter()
        .filter_map(|e| match e.body {
            Body::ActionAccepted(a) => Some((e.seq, a.fold_form.get()?.to_vec())),
            _ => None,
        })
        .collect();
    assert_eq!(forms, whole);
    forms
}

#[test]
fn fold_forms_read_back_each_its_own_however_they_lie() {
    let dir = tempfile::tempdir().unwrap();
    // One append of more forms than a read takes at once (1 MiB), then
    // single appends with another game's between them, large and small.
    let mut wanted = Vec::new();
    let written = {
        let log = open(&dir);
        log.create_game(&meta("g-1"), created()).unwrap();
        log.create_game(&meta("g-2"), created()).unwrap();
        let batch: Vec<_> = (0..40).map(|n| action_with_form(n, 40_000)).collect();
        wanted.extend((2..).zip((0..40).map(|n| action_with_form(n, 40_000))));
        log.append("g-1", MAIN_BRANCH, Some(1), None, batch)
            .unwrap();
        for (i, n) in (40..60).enumerate() {
            let seq = 42 + i as u64;
            let len = [10, 3_000, 70_000][i % 3];
            log.append(
                "g-1",
                MAIN_BRANCH,
                Some(seq - 1),
                None,
                vec![action_with_form(n, len)],
            )
            .unwrap();
            wanted.push((seq, action_with_form(n, len)));
            let other = [20_000, 100][i % 2];
            log.append(
                "g-2",
                MAIN_BRANCH,
                None,
                None,
                vec![action_with_form(n, other)],
            )
            .unwrap();
        }
        forms_read(&*log, "g-1")
    };
    let wanted: Vec<_> = wanted
        .into_iter()
        .map(|(seq, draft)| match draft.body {
            Body::ActionAccepted(a) => (seq, a.fold_form.get().unwrap().to_vec()),
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(written, wanted);
    // Reopened: every pointer in sled now, none held.
    let log = open(&dir);
    assert_eq!(forms_read(&*log, "g-1"), wanted);
}

#[test]
fn one_key_sent_by_many_at_once_is_written_once() {
    let dir = tempfile::tempdir().unwrap();
    let log = Arc::new(open(&dir));
    log.create_game(&meta("g-1"), created()).unwrap();
    // Many in one group: the later ones see the head the first moved, then
    // its receipt.
    let receipts: Vec<_> = (0..32u64)
        .map(|_| {
            let log = Arc::clone(&log);
            std::thread::spawn(move || {
                log.append("g-1", MAIN_BRANCH, None, Some("same"), vec![action(7)])
                    .unwrap()
                    .receipt
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|t| t.join().unwrap())
        .collect();
    let events = log.read("g-1", MAIN_BRANCH, 1, None).unwrap();
    assert_eq!(events.len(), 2, "written once");
    assert_eq!(receipts.iter().filter(|r| !r.retried).count(), 1);
    for r in &receipts {
        assert_eq!((r.first_seq, &r.hashes), (2, &vec![events[1].hash.clone()]));
    }
}

#[test]
fn v0_fixture_upcasts_to_the_current_event() {
    let raw = include_str!("fixtures/v0_event.json");
    let old: Value = serde_json::from_str(raw).unwrap();
    assert!(old.get("schema_version").is_none() && old.get("time_ms").is_some());
    let event: Event = serde_json::from_value(upcast(old, 0).unwrap()).unwrap();
    assert_eq!(event.schema_version, SCHEMA_VERSION);
    assert_eq!(event.recorded_at_ms, 1_700_000_000_123);
    assert_eq!(event.seq, 2);
    assert!(matches!(event.body, Body::ActionAccepted(_)));
}

/// One step of the model test.
#[derive(Debug, Clone)]
enum Op {
    /// Append `n` events to branch `branch % len`; `stale` gives a wrong expected seq.
    Append {
        branch: usize,
        n: u64,
        expect: Option<bool>,
        key: Option<u8>,
    },
    /// Fork branch `branch % len` at a point `at % head + 1`.
    Fork {
        branch: usize,
        at: u64,
        reseed: bool,
    },
    /// Close the database and open it again.
    Reopen,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (any::<usize>(), 1..4u64, proptest::option::of(any::<bool>()), proptest::option::of(0..4u8))
            .prop_map(|(branch, n, expect, key)| Op::Append { branch, n, expect, key }),
        2 => (any::<usize>(), any::<u64>(), any::<bool>()).prop_map(|(branch, at, reseed)| Op::Fork { branch, at, reseed }),
        1 => Just(Op::Reopen),
    ]
}

/// The plain model: every branch's whole history as a Vec, and receipts by key.
#[derive(Default)]
struct Model {
    branches: Vec<(String, Vec<Event>)>,
    receipts: HashMap<(String, u8), Receipt>,
    next_n: u64,
}

impl Model {
    fn place(&self, branch: usize, drafts: &[Draft], key: Option<&str>) -> Vec<Event> {
        let (name, history) = &self.branches[branch];
        let mut prev = history.last().unwrap().hash.clone();
        let mut out = Vec::new();
        for (i, d) in drafts.iter().enumerate() {
            let mut e = Event {
                game: "g-1".into(),
                branch: name.clone(),
                seq: history.len() as u64 + 1 + i as u64,
                recorded_at_ms: d.recorded_at_ms,
                actor: d.actor,
                schema_version: SCHEMA_VERSION,
                idempotency_key: key.map(str::to_string),
                prev_hash: prev.clone(),
                hash: String::new(),
                salt: d.salt.clone(),
                body: d.body.clone(),
            };
            e.hash = event_hash(&e);
            prev = e.hash.clone();
            out.push(e);
        }
        out
    }
}

fn run_model(ops: Vec<Op>) -> Result<(), TestCaseError> {
    let dir = tempfile::tempdir().unwrap();
    let mut log = open(&dir);
    let first = log.create_game(&meta("g-1"), created()).unwrap();
    let mut model = Model {
        branches: vec![(MAIN_BRANCH.to_string(), first.events)],
        ..Model::default()
    };
    for op in ops {
        match op {
            Op::Reopen => {
                drop(log);
                log = open(&dir);
            }
            Op::Append {
                branch,
                n,
                expect,
                key,
            } => {
                let b = branch % model.branches.len();
                let name = model.branches[b].0.clone();
                let head = model.branches[b].1.len() as u64;
                let drafts: Vec<Draft> = (0..n).map(|i| action(model.next_n + i)).collect();
                model.next_n += n;
                let expected = expect.map(|fresh| if fresh { head } else { head + 1 });
                let key_text = key.map(|k| format!("key-{k}"));
                let got = log.append("g-1", &name, expected, key_text.as_deref(), drafts.clone());
                if let Some(original) = key.and_then(|k| model.receipts.get(&(name.clone(), k))) {
                    let got = got.unwrap();
                    prop_assert!(got.receipt.retried && got.events.is_empty());
                    prop_assert_eq!(&got.receipt.hashes, &original.hashes);
                } else if expected.is_some_and(|e| e != head) {
                    let is_conflict =
                        matches!(got, Err(StoreError::Conflict { head: h, .. }) if h == head);
                    prop_assert!(is_conflict);
                } else {
                    let want = model.place(b, &drafts, key_text.as_deref());
                    let got = got.unwrap();
                    prop_assert_eq!(&got.events, &want);
                    if let Some(k) = key {
                        model
                            .receipts
                            .insert((name.clone(), k), got.receipt.clone());
                    }
                    model.branches[b].1.extend(want);
                }
            }
            Op::Fork { branch, at, reseed } => {
                let b = branch % model.branches.len();
                let head = model.branches[b].1.len() as u64;
                let at = at % head + 1;
                let name = format!("b{}", model.branches.len());
                let first = reseed.then(|| {
                    Draft::new(
                        3,
                        tabletape_events::Actor::Owner,
                        Body::Reseeded { seed: at },
                    )
                    .unwrap()
                });
                let record = log
                    .fork(
                        "g-1",
                        &model.branches[b].0.clone(),
                        at,
                        &name,
                        3,
                        first.clone(),
                    )
                    .unwrap();
                prop_assert_eq!(record.fork_seq, Some(at));
                let shared = model.branches[b].1[..at as usize].to_vec();
                model.branches.push((name, shared));
                let new = model.branches.len() - 1;
                if let Some(first) = first {
                    let placed = model.place(new, &[first], None);
                    model.branches[new].1.extend(placed);
                }
            }
        }
    }
    // Check everything, then once more after a final reopen.
    for round in 0..2 {
        for (name, history) in &model.branches {
            let got = log.read("g-1", name, 1, None).unwrap();
            prop_assert_eq!(&got, history, "branch {} (round {})", name, round);
            prop_assert_eq!(
                log.branch("g-1", name).unwrap().unwrap().head_seq,
                history.len() as u64
            );
        }
        drop(log);
        log = open(&dir);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn log_agrees_with_the_vec_model(ops in proptest::collection::vec(op(), 1..30)) {
        run_model(ops)?;
    }
}

/// A crash between an append's receipt and its head (the head is written
/// last) leaves a receipt of events no reader can reach: the key must then
/// answer nothing, and a retry with it must write its events anew.
#[test]
fn a_receipt_whose_head_a_crash_lost_is_not_believed() {
    let dir = tempfile::tempdir().unwrap();
    let first_hash = {
        let log = SledLog::open(&dir.path().join("db")).unwrap();
        let created = log.create_game(&meta("g-1"), created()).unwrap();
        log.append("g-1", MAIN_BRANCH, Some(1), Some("k"), vec![action(1)])
            .unwrap();
        created.events[0].hash.clone()
    };
    {
        // What the crash kept: the events and the receipt, not the head.
        let db = raw_sled(&dir.path().join("db"));
        let mut head = 1u64.to_be_bytes().to_vec();
        head.extend_from_slice(first_hash.as_bytes());
        db.open_tree("heads")
            .unwrap()
            .insert(b"g-1\0main", head)
            .unwrap();
        db.flush().unwrap();
    }
    let log = SledLog::open(&dir.path().join("db")).unwrap();
    assert_eq!(log.branch("g-1", MAIN_BRANCH).unwrap().unwrap().head_seq, 1);
    assert_eq!(log.receipt("g-1", MAIN_BRANCH, "k").unwrap(), None);
    let retried = log
        .append("g-1", MAIN_BRANCH, Some(1), Some("k"), vec![action(2)])
        .unwrap();
    assert!(!retried.receipt.retried, "the lost append was answered");
    let events = log.read("g-1", MAIN_BRANCH, 1, None).unwrap();
    assert_eq!(events.len(), 2);
    assert_chain(&events);
    assert_eq!(events[1], retried.events[0]);
    let again = log
        .append("g-1", MAIN_BRANCH, None, Some("k"), vec![action(2)])
        .unwrap();
    assert!(again.receipt.retried);
    assert_eq!(again.receipt.hashes, retried.receipt.hashes);
}

#[test]
fn a_fold_reads_accepted_actions_by_their_facts_and_the_rest_whole() {
    let (_dir, log) = fresh();
    log.append(
        "g-1",
        MAIN_BRANCH,
        Some(1),
        None,
        vec![action(1), action(2)],
    )
    .unwrap();
    log.fork("g-1", MAIN_BRANCH, 2, "b", 5, None).unwrap();
    log.append("g-1", "b", Some(2), None, vec![action(3)])
        .unwrap();
    let events = log.read("g-1", "b", 1, None).unwrap();
    let steps = log.read_steps("g-1", "b", 1, None).unwrap();
    assert_eq!(steps.len(), events.len());
    for (step, event) in steps.iter().zip(&events) {
        match (step, &event.body) {
            (FoldStep::Facts { seq, actor, facts }, Body::ActionAccepted(accepted)) => {
                assert_eq!((*seq, *actor), (event.seq, event.actor));
                // As the store keeps them (PostgreSQL's jsonb in its own
                // order of keys): the same values.
                let facts: Vec<Value> = serde_json::from_str(facts.get()).unwrap();
                let stored: Vec<Value> =
                    accepted.facts.iter().map(|f| f.value().unwrap()).collect();
                assert_eq!(facts, stored);
            }
            (FoldStep::Event(whole), Body::GameCreated(_)) => assert_eq!(**whole, *event),
            other => panic!("seq {}: {other:?}", event.seq),
        }
    }
}
