//! Inputs that were once accepted and then broke the log they were written
//! to, each pinned through the journal or the binary: what is accepted
//! reads back exactly and verifies; what is refused names its field or
//! rule and writes nothing.

use serde_json::{json, Value};
use tabletape_engine::Viewer;
use tabletape_events::{Actor, Body, Event, FactText, FoldForm, MAIN_BRANCH};
use tabletape_store::scratch::test_store;
use tabletape_store::{event_hash, Access, ActRequest, Journal, JournalError, NewGame, PackSource};
use tabletape_tests::Cli;

pub(crate) fn journal() -> (tempfile::TempDir, Journal) {
    let dir = tempfile::tempdir().unwrap();
    let j = Journal::open_at(&test_store(dir.path())).unwrap();
    (dir, j)
}

fn duel(j: &Journal) -> String {
    j.create(NewGame {
        title: None,
        kind: "lostworlds".into(),
        players: vec!["Ada".into(), "Bo".into()],
        seed: Some(5),
        ..NewGame::default()
    })
    .unwrap()
    .game
}

/// A new game of `kind` for `players`, dealt from `seed`.
pub(crate) fn game_of(j: &Journal, kind: &str, players: &[&str], seed: u64) -> String {
    game_with(j, kind, players, seed, NewGame::default())
}

/// The same, with the dice and options of `with`.
pub(crate) fn game_with(
    j: &Journal,
    kind: &str,
    players: &[&str],
    seed: u64,
    with: NewGame,
) -> String {
    j.create(NewGame {
        kind: kind.into(),
        players: players.iter().map(|p| p.to_string()).collect(),
        seed: Some(seed),
        ..with
    })
    .unwrap()
    .game
}

pub(crate) fn options(pairs: &[(&str, Value)]) -> NewGame {
    NewGame {
        options: pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
        ..NewGame::default()
    }
}

pub(crate) fn act(j: &Journal, game: &str, action: Value) -> Result<u64, JournalError> {
    act_keyed(j, game, action, None)
}

fn act_keyed(
    j: &Journal,
    game: &str,
    action: Value,
    key: Option<&str>,
) -> Result<u64, JournalError> {
    j.act(
        game,
        ActRequest {
            branch: MAIN_BRANCH.into(),
            actor: Actor::Owner,
            by: None,
            action,
            expect_seq: None,
            idempotency_key: key.map(str::to_string),
        },
    )
    .map(|a| a.seq)
}

pub(crate) fn head(j: &Journal, game: &str) -> u64 {
    j.events(game, MAIN_BRANCH, 1, None).unwrap().len() as u64
}

pub(crate) fn rejected(result: Result<u64, JournalError>) -> tabletape_engine::Rejection {
    match result {
        Err(JournalError::Rejected(r)) => r,
        other => panic!("expected a rejection, got {other:?}"),
    }
}

fn deep(levels: usize) -> Value {
    let mut v = json!(1);
    for _ in 0..levels {
        v = json!([v]);
    }
    v
}

#[test]
fn a_float_in_an_extra_field_is_refused_by_name_and_the_chain_still_verifies() {
    let (_d, j) = journal();
    let g = duel(&j);
    let r = rejected(act(
        &j,
        &g,
        json!({"type": "choose", "seat": 0, "page": 50, "zz": 2.2790121708605243e274}),
    ));
    assert_eq!(r.rule, "action.malformed");
    assert!(r.message.contains("`zz`"), "{}", r.message);
    assert_eq!(head(&j, &g), 1, "nothing was written");
    act(&j, &g, json!({"type": "choose", "seat": 0, "page": 50})).unwrap();
    assert!(j.verify(Some(&g)).unwrap()[0].problem.is_none());
}

#[test]
fn a_value_nested_125_deep_is_refused_in_an_action_and_in_a_pack() {
    let (_d, j) = journal();
    let g = duel(&j);
    let r = rejected(act(
        &j,
        &g,
        json!({"type": "choose", "seat": 0, "page": 50, "deep": deep(125)}),
    ));
    assert!(r.message.contains("`deep`"), "{}", r.message);
    assert_eq!(head(&j, &g), 1);
    let mut pack = tabletape_engine::kind("lostworlds").unwrap().default_pack();
    pack["deep"] = deep(125);
    let err = j
        .create(NewGame {
            id: None,
            title: None,
            kind: "lostworlds".into(),
            players: vec!["Ada".into(), "Bo".into()],
            pack: Some(PackSource {
                file: "deep.json".into(),
                json: pack,
            }),
            ..NewGame::default()
        })
        .unwrap_err();
    assert!(err.to_string().contains("deep"), "{err}");
    assert!(j.games().unwrap().len() == 1, "no second game was written");
}

#[test]
fn what_is_stored_is_the_canonical_action_so_it_reads_back_exactly() {
    let (_d, j) = journal();
    let g = duel(&j);
    // Defaults spelled out are left out, whatever order the fields came in.
    act(
        &j,
        &g,
        json!({"page": 50, "seat": 0, "type": "choose", "maneuver": null}),
    )
    .unwrap();
    let stored = &j.events(&g, MAIN_BRANCH, 2, Some(2)).unwrap()[0];
    let Body::ActionAccepted(a) = &stored.body else {
        panic!("an action")
    };
    assert_eq!(a.action, json!({"type": "choose", "seat": 0, "page": 50}));
    assert_eq!(event_hash(stored), stored.hash);
}

#[test]
fn free_text_with_control_characters_line_breaks_or_200_kb_is_refused() {
    let (_d, j) = journal();
    let g = j
        .create(NewGame {
            title: None,
            kind: "legend".into(),
            players: vec!["Ada".into(), "Bo".into(), "Cy".into()],
            seed: Some(1),
            ..NewGame::default()
        })
        .unwrap()
        .game;
    let intro = j.legal(&g, MAIN_BRANCH, Some(0)).unwrap()[0]
        .with_words()
        .action;
    for bad in [
        "Nul\u{0}name".to_string(),
        "two\nlines".to_string(),
        "bell\u{7}".to_string(),
        "x".repeat(200_000),
    ] {
        let mut action = intro.clone();
        action["avatar"]["name"] = json!(bad);
        let r = rejected(act(&j, &g, action));
        assert_eq!(r.rule, "action.text");
        assert!(r.message.contains("avatar.name"), "{}", r.message);
    }
    assert_eq!(head(&j, &g), 1);
    act(&j, &g, intro).unwrap();
}

#[test]
fn an_idempotency_key_that_is_empty_nul_or_huge_is_refused() {
    let (_d, j) = journal();
    let g = duel(&j);
    let action = json!({"type": "choose", "seat": 0, "page": 50});
    for key in ["", "a\u{0}b", &"k".repeat(10_000)] {
        let err = act_keyed(&j, &g, action.clone(), Some(key)).unwrap_err();
        assert!(
            matches!(&err, JournalError::BadInput(m) if m.contains("idempotency_key")),
            "{err}"
        );
    }
    assert_eq!(head(&j, &g), 1);
}

/// A duel's export with the facts of seq `at` replaced, every hash redone,
/// as a forger who knows the format would.
fn forged(j: &Journal, game: &str, at: u64, fact: Value) -> Vec<u8> {
    let mut out = Vec::new();
    let mut prev = String::new();
    for mut event in j.events(game, MAIN_BRANCH, 1, None).unwrap() {
        if event.seq == at {
            if let Body::ActionAccepted(a) = &mut event.body {
                a.facts = vec![FactText::of(&fact)];
            }
        }
        event.prev_hash = prev.clone();
        event.hash = event_hash(&event);
        prev = event.hash.clone();
        out.extend(serde_json::to_vec(&event).unwrap());
        out.push(b'\n');
    }
    out
}

/// A forged fact nested deeper than a JSON reader follows is refused by
/// the check that compares it, not a crash of the import (the fuzz test's
/// seed 8158640016035708917 found the panic).
#[test]
fn an_import_with_a_fact_nested_too_deep_to_read_is_refused() {
    let (_d, j) = journal();
    let g = duel(&j);
    act(&j, &g, json!({"type": "choose", "seat": 0, "page": 50})).unwrap();
    let mut deep = json!(0);
    for _ in 0..200 {
        deep = json!([deep]);
    }
    let log = forged(
        &j,
        &g,
        2,
        json!({"type": "maneuver_chosen", "seat": 0, "deep": deep}),
    );
    let (_d2, other) = journal();
    let err = other.import(&mut log.as_slice()).unwrap_err().to_string();
    assert!(err.contains("seq 2"), "{err}");
    assert!(other.games().unwrap().is_empty(), "nothing became visible");
}

#[test]
fn an_import_the_rules_never_produced_is_refused_at_its_first_bad_seq() {
    let (_d, j) = journal();
    let g = duel(&j);
    act(&j, &g, json!({"type": "choose", "seat": 0, "page": 50})).unwrap();
    act(&j, &g, json!({"type": "choose", "seat": 1, "page": 56})).unwrap();
    let mut fact = match &j.events(&g, MAIN_BRANCH, 2, Some(2)).unwrap()[0].body {
        Body::ActionAccepted(a) => a.facts[0].value().unwrap(),
        _ => unreachable!(),
    };
    fact["seat"] = json!(6);
    let log = forged(&j, &g, 2, fact);
    let (_d2, other) = journal();
    let err = other.import(&mut log.as_slice()).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("seq 2"), "{text}");
    assert!(other.games().unwrap().is_empty(), "nothing became visible");
    // The same history, untouched, imports.
    let mut clean = Vec::new();
    j.export(&g, None, &mut clean).unwrap();
    other.import(&mut clean.as_slice()).unwrap();

    // Through the binary: refused with exit 2, never a panic (exit 101).
    let cli = Cli::new();
    let file = cli.dir.path().join("forged.jsonl");
    std::fs::write(&file, &log).unwrap();
    let (_, stderr) = cli.fails(&["import", file.to_str().unwrap()], 2);
    assert!(stderr.contains("seq 2"), "{stderr}");
}

#[test]
fn an_import_that_is_not_utf8_or_carries_unknown_fields_is_bad_input() {
    let (_d, j) = journal();
    let g = duel(&j);
    let mut log = Vec::new();
    j.export(&g, None, &mut log).unwrap();
    let (_d2, other) = journal();
    let mut broken = log.clone();
    broken.extend_from_slice(b"\xff\xfe\n");
    let err = other.import(&mut broken.as_slice()).unwrap_err();
    assert!(
        matches!(&err, JournalError::BadInput(m) if m.contains("UTF-8")),
        "{err}"
    );
    let mut event: Value = serde_json::from_slice(&log[..log.len() - 1]).unwrap();
    event["extra"] = json!(1);
    let line = serde_json::to_vec(&event).unwrap();
    let err = other.import(&mut line.as_slice()).unwrap_err();
    assert!(
        matches!(&err, JournalError::BadInput(m) if m.contains("extra")),
        "{err}"
    );
    assert!(other.games().unwrap().is_empty());
}

#[test]
fn a_stored_event_that_does_not_fold_is_an_error_naming_its_seq_not_a_crash() {
    // A forged fact the kind cannot apply, imported into a store by writing
    // the events under a verify-free path is not possible any more; the
    // engine's own guard is what a damaged store meets, so fold it directly.
    let (_d, j) = journal();
    let g = duel(&j);
    act(&j, &g, json!({"type": "choose", "seat": 0, "page": 50})).unwrap();
    let events: Vec<Event> = j.events(&g, MAIN_BRANCH, 1, None).unwrap();
    // Damaged in its JSON (as an earlier build stored it, without a fold
    // form), and in the fold form a fold reads first.
    for kept_in_fold_form in [false, true] {
        let mut events = events.clone();
        if let Body::ActionAccepted(a) = &mut events[1].body {
            let mut facts: Vec<Value> = a.facts.iter().map(|f| f.value().unwrap()).collect();
            facts[0]["seat"] = json!(6);
            a.facts = facts.iter().map(FactText::of).collect();
            a.fold_form = match kept_in_fold_form {
                true => FoldForm::new(tabletape_engine::compact::to_vec(&facts)),
                false => FoldForm::default(),
            };
        }
        let err = tabletape_engine::Game::fold(&events).unwrap_err();
        assert!(err.to_string().contains("seq 2"), "{err}");
    }
}

/// An unknown field is refused by name at every depth of an action, never
/// dropped: Ludovia's `{"type":"rob","character":{}}` was once stored as
/// `{"type":"rob"}`, and a book duel's nested maneuver lost its extras.
#[test]
fn an_unknown_field_anywhere_in_an_action_is_refused_by_name() {
    let (_d, j) = journal();
    let thieves = game_of(&j, "ludovia", &["Ada", "Bo", "Cy"], 5);
    let refused = rejected(act(
        &j,
        &thieves,
        json!({"type": "roll_for_order", "character": {}}),
    ));
    assert!(refused.message.contains("character"), "{refused}");
    let duel = duel(&j);
    let refused = rejected(act(
        &j,
        &duel,
        json!({"type": "exchange", "maneuvers": [
            {"seat": 0, "page": 50, "stance": {}},
            {"seat": 1, "page": 50},
        ]}),
    ));
    assert!(refused.message.contains("stance"), "{refused}");
    assert_eq!(head(&j, &thieves), 1);
    assert_eq!(head(&j, &duel), 1, "nothing is written");
}

/// A branch name is one name however it is written: `main `, `MAIN` and
/// `ma\u{200b}in` cannot sit beside `main`, letters are kept composed (NFC),
/// and a game id may not be a route's own word.
#[test]
fn branch_names_are_normalised_and_ids_that_are_routes_refused() {
    let (_d, j) = journal();
    let g = duel(&j);
    let fork = |name: &str| {
        j.fork(
            &g,
            MAIN_BRANCH,
            1,
            Some(name),
            None,
            tabletape_store::Access::Owner,
        )
    };
    for name in [
        "main ",
        " main",
        "MAIN",
        "Main",
        "ma\u{200b}in",
        "ma\u{202e}in",
    ] {
        assert!(fork(name).is_err(), "{name:?} was taken as a branch name");
    }
    let decomposed = "Cafe\u{301}";
    let made = fork(decomposed).unwrap();
    assert_eq!(made.name, "Caf\u{e9}", "kept composed");
    assert!(fork("CAF\u{c9}").is_err(), "the same name in capitals");
    assert_eq!(j.branches(&g).unwrap().len(), 2);
    let taken = j.create(NewGame {
        kind: "lostworlds".into(),
        players: vec!["Ada".into(), "Bo".into()],
        id: Some("import".into()),
        ..NewGame::default()
    });
    assert!(
        matches!(&taken, Err(JournalError::Unfit { rule, message }) if rule == "game.id" && message.contains("route")),
        "{taken:?}"
    );
}

/// A history rewritten and hashed anew is still refused where it breaks
/// what any history recorded here keeps: times that go backwards, one
/// idempotency key on two appends, an event stripped of its salt, a seat
/// acting for another. Each names its seq and its rule.
#[test]
fn an_import_rewritten_and_hashed_anew_is_refused_naming_seq_and_rule() {
    let (_d, j) = journal();
    let g = duel(&j);
    act_keyed(
        &j,
        &g,
        json!({"type": "choose", "seat": 0, "page": 50}),
        Some("k-1"),
    )
    .unwrap();
    act_keyed(
        &j,
        &g,
        json!({"type": "choose", "seat": 1, "page": 50}),
        Some("k-2"),
    )
    .unwrap();
    act(&j, &g, json!({"type": "choose", "seat": 0, "page": 26})).unwrap();
    let events = j.events(&g, MAIN_BRANCH, 1, None).unwrap();
    let rehashed = |mut events: Vec<Event>| -> Vec<u8> {
        for i in 1..events.len() {
            events[i].prev_hash = events[i - 1].hash.clone();
            events[i].hash = event_hash(&events[i]);
        }
        let lines: Vec<String> = events
            .iter()
            .map(|e| serde_json::to_string(e).unwrap())
            .collect();
        (lines.join("\n") + "\n").into_bytes()
    };
    let refused = |forged: Vec<Event>, rule: &str, seq: u64| {
        let (_d2, other) = journal();
        let err = other.import(&mut rehashed(forged).as_slice()).unwrap_err();
        let text = err.to_string();
        assert!(text.contains(rule), "{rule}: {text}");
        assert!(text.contains(&format!("seq {seq}")), "{rule}: {text}");
        assert!(
            other.games().unwrap().is_empty(),
            "{rule}: nothing is imported"
        );
    };
    let mut backwards = events.clone();
    backwards[3].recorded_at_ms = backwards[2].recorded_at_ms - 1000;
    refused(backwards, "history.time", 4);
    let mut one_key = events.clone();
    one_key[3].idempotency_key = Some("k-1".into());
    refused(one_key, "history.idempotency", 4);
    let mut stripped = events.clone();
    stripped[2].salt.clear();
    stripped[2].schema_version = 1;
    refused(stripped, "history.schema", 3);
    let mut for_another = events.clone();
    if let Body::ActionAccepted(a) = &mut for_another[1].body {
        assert_eq!(a.action["seat"], 0);
    }
    for_another[1].actor = Actor::Seat(1);
    refused(for_another, "history.actor", 2);
    // The history as it was imports.
    let (_d3, other) = journal();
    other.import(&mut rehashed(events).as_slice()).unwrap();
}

/// An import decides a fork's own events again as it does `main`'s: a
/// fork's action rewritten and hashed anew is refused naming the fork and
/// its seq, and nothing is imported; the history as it was imports whole.
#[test]
fn an_import_decides_a_forks_own_events_again() {
    let (_d, j) = journal();
    let g = duel(&j);
    act(&j, &g, json!({"type": "choose", "seat": 0, "page": 50})).unwrap();
    act(&j, &g, json!({"type": "choose", "seat": 1, "page": 50})).unwrap();
    j.fork(&g, MAIN_BRANCH, 2, Some("what-if"), None, Access::Owner)
        .unwrap();
    // Brakka's other choice there (the book restricts it).
    let other_page = j
        .legal(&g, "what-if", Some(1))
        .unwrap()
        .into_iter()
        .map(|l| l.action)
        .find(|a| a["type"] == "choose" && a["page"] != 50)
        .expect("another maneuver is open");
    j.act(
        &g,
        ActRequest {
            branch: "what-if".into(),
            actor: Actor::Owner,
            by: None,
            action: other_page,
            expect_seq: None,
            idempotency_key: None,
        },
    )
    .unwrap();
    let mut exported = Vec::new();
    j.export(&g, None, &mut exported).unwrap();
    let forged: Vec<String> = String::from_utf8(exported.clone())
        .unwrap()
        .lines()
        .map(|line| {
            let mut event: Event = serde_json::from_str(line).unwrap();
            if event.branch == "what-if" {
                let Body::ActionAccepted(a) = &mut event.body else {
                    panic!("the fork's one event is its action")
                };
                a.action["page"] = json!(50);
                event.hash = event_hash(&event);
            }
            serde_json::to_string(&event).unwrap()
        })
        .collect();
    let (_d2, other) = journal();
    let err = other
        .import(&mut (forged.join("\n") + "\n").as_bytes())
        .unwrap_err()
        .to_string();
    assert!(err.contains("branch `what-if` seq 3"), "{err}");
    assert!(other.games().unwrap().is_empty(), "nothing is imported");
    let imported = other.import(&mut exported.as_slice()).unwrap();
    assert_eq!(imported.branches, ["main", "what-if"]);
    for branch in ["main", "what-if"] {
        let state = |j: &Journal| {
            serde_json::to_value(j.state(&g, branch, None, Viewer::Owner).unwrap()).unwrap()
        };
        assert_eq!(state(&other), state(&j), "{branch}");
    }
}

/// A write without an expected seq never answers a conflict because others
/// raced it: it tries again until it lands (once 8 tries were all it had,
/// and 30 of 96 notes from 32 writers came back `expected seq 13 but the
/// branch is at 14`).
#[test]
fn many_writers_without_an_expected_seq_all_land() {
    let (_d, j) = journal();
    let g = duel(&j);
    let writers = 32;
    let each = 3;
    std::thread::scope(|s| {
        for w in 0..writers {
            let (j, g) = (&j, &g);
            s.spawn(move || {
                for n in 0..each {
                    let req = tabletape_store::NoteRequest {
                        branch: None,
                        at: 1,
                        title: None,
                        text: format!("writer {w} note {n}"),
                        private: false,
                        expect_seq: None,
                        idempotency_key: None,
                    };
                    j.note(g, req, tabletape_store::Access::Owner)
                        .unwrap_or_else(|e| panic!("writer {w} note {n}: {e}"));
                }
            });
        }
    });
    assert_eq!(head(&j, &g), 1 + (writers * each) as u64);
}
