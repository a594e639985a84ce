//! Inputs that were once accepted and then broke the log they were written
//! to, each pinned through the journal or the binary: what is accepted
//! reads back exactly and verifies; what is refused names its field or
//! rule and writes nothing.

use serde_json::{json, Value};
use tabletape_events::{Actor, Body, Event, MAIN_BRANCH};
use tabletape_store::scratch::test_store;
use tabletape_store::{event_hash, ActRequest, Journal, JournalError, NewGame, PackSource};
use tabletape_tests::Cli;

fn journal() -> (tempfile::TempDir, Journal) {
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
fn game_of(j: &Journal, kind: &str, players: &[&str], seed: u64) -> String {
    game_with(j, kind, players, seed, NewGame::default())
}

/// The same, with the dice and options of `with`.
fn game_with(j: &Journal, kind: &str, players: &[&str], seed: u64, with: NewGame) -> String {
    j.create(NewGame {
        kind: kind.into(),
        players: players.iter().map(|p| p.to_string()).collect(),
        seed: Some(seed),
        ..with
    })
    .unwrap()
    .game
}

fn options(pairs: &[(&str, Value)]) -> NewGame {
    NewGame {
        options: pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
        ..NewGame::default()
    }
}

fn act(j: &Journal, game: &str, action: Value) -> Result<u64, JournalError> {
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

fn head(j: &Journal, game: &str) -> u64 {
    j.events(game, MAIN_BRANCH, 1, None).unwrap().len() as u64
}

fn rejected(result: Result<u64, JournalError>) -> tabletape_engine::Rejection {
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
                a.facts = vec![fact.clone()];
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

#[test]
fn an_import_the_rules_never_produced_is_refused_at_its_first_bad_seq() {
    let (_d, j) = journal();
    let g = duel(&j);
    act(&j, &g, json!({"type": "choose", "seat": 0, "page": 50})).unwrap();
    act(&j, &g, json!({"type": "choose", "seat": 1, "page": 56})).unwrap();
    let mut fact = match &j.events(&g, MAIN_BRANCH, 2, Some(2)).unwrap()[0].body {
        Body::ActionAccepted(a) => a.facts[0].clone(),
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
    let mut events: Vec<Event> = j.events(&g, MAIN_BRANCH, 1, None).unwrap();
    if let Body::ActionAccepted(a) = &mut events[1].body {
        a.facts[0]["seat"] = json!(6);
    }
    let err = tabletape_engine::Game::fold(&events).unwrap_err();
    assert!(err.to_string().contains("seq 2"), "{err}");
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
    assert!(matches!(taken, Err(JournalError::BadInput(m)) if m.contains("route")));
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

/// Lost Worlds rules 4, through the journal: over random duels, a seat whose
/// opponent stands close is never offered an Extended Range maneuver, and
/// choosing one by its page is refused with nothing written. The searched
/// duels reach the case the rule is about: close range under "Do only
/// Brown", whose colour admits the Brown Extended Range Charge.
#[test]
fn lost_worlds_never_opens_extended_range_at_close_range() {
    let (_dir, j) = journal();
    let mut under_brown = 0;
    for seed in tabletape_tests::seeds(8..18) {
        let game = game_of(&j, "lostworlds", &["Ada", "Bo"], seed);
        for step in 0..160 {
            let view = j
                .state(&game, MAIN_BRANCH, None, tabletape_engine::Viewer::Owner)
                .unwrap()
                .view;
            for (seat, st) in view["seats"].as_array().unwrap().iter().enumerate() {
                let sights = st["sights"].as_object().unwrap();
                if sights.is_empty() || sights.values().any(|s| s["range"] != "close") {
                    continue;
                }
                let fighter = &st["party"][st["active"].as_u64().unwrap() as usize];
                let extended: Vec<u64> = fighter["sheet"]["maneuvers"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|m| m["category"] == "Extended Range")
                    .map(|m| m["page"].as_u64().unwrap())
                    .collect();
                let seat = seat as u32;
                let choices: Vec<Value> = j
                    .legal(&game, MAIN_BRANCH, Some(seat))
                    .unwrap()
                    .into_iter()
                    .map(|l| l.action)
                    .filter(|a| a["type"] == "choose")
                    .collect();
                if choices.is_empty() {
                    continue;
                }
                for choice in &choices {
                    let page = choice["page"].as_u64().unwrap_or_default();
                    assert!(
                        !extended.contains(&page),
                        "seed {seed}: {choice} offered at close range"
                    );
                }
                let brown_only = |o: &Value| {
                    o["clause"]["clause"] == "only"
                        && o["clause"]["items"]
                            .as_array()
                            .is_some_and(|i| i.contains(&json!({"colour": "brown"})))
                };
                if ["next_turn", "lasting"].iter().any(|span| {
                    st["orders"][span]
                        .as_array()
                        .is_some_and(|told| told.iter().any(brown_only))
                }) {
                    under_brown += 1;
                }
                let before = head(&j, &game);
                for page in &extended {
                    let r = rejected(act(
                        &j,
                        &game,
                        json!({"type": "choose", "seat": seat, "page": page}),
                    ));
                    assert!(r.rule.starts_with("lostworlds."), "{r:?}");
                }
                assert_eq!(head(&j, &game), before, "seed {seed}: nothing written");
            }
            if tabletape_tests::play_random(&j, &game, MAIN_BRANCH, seed * 1000 + step, 1) == 0 {
                break;
            }
        }
    }
    assert!(
        under_brown > 0,
        "no searched duel reached close range under \"Do only Brown\""
    );
}

/// LEGEND rules 3: a Monster placed in a blank square draws Scenery there,
/// like any placement; the text spares only a Monster moved into one.
#[test]
fn legend_draws_scenery_under_a_placed_monster() {
    let (_dir, j) = journal();
    let mut placed = 0;
    for seed in tabletape_tests::seeds(1..6) {
        let game = game_of(&j, "legend", &["Ada", "Bo", "Cy"], seed);
        for step in 0..120 {
            let offered = j
                .legal(&game, MAIN_BRANCH, None)
                .unwrap()
                .into_iter()
                .map(|l| l.action)
                .find(|a| {
                    a["type"] == "place"
                        && a["object"]["category"] == "monster"
                        && a["scenery"].as_object().is_some_and(|s| !s.is_empty())
                });
            if let Some(offered) = offered {
                let squares: Vec<String> = offered["scenery"]
                    .as_object()
                    .unwrap()
                    .keys()
                    .cloned()
                    .collect();
                let mut bare = offered.clone();
                bare["scenery"] = json!({});
                bare["object"]["name"] = json!("a crow");
                let before = head(&j, &game);
                let r = rejected(act(&j, &game, bare.clone()));
                assert_eq!(r.rule, "legend.placement.scenery", "seed {seed}: {r:?}");
                assert_eq!(head(&j, &game), before, "seed {seed}: nothing written");
                let mut drawn = bare;
                for sq in &squares {
                    drawn["scenery"][sq] = json!(format!("a dead oak at {sq}"));
                }
                act(&j, &game, drawn).unwrap();
                let view = j
                    .state(&game, MAIN_BRANCH, None, tabletape_engine::Viewer::Owner)
                    .unwrap()
                    .view;
                for sq in &squares {
                    assert_eq!(view["scenery"][sq], json!(format!("a dead oak at {sq}")));
                }
                placed += 1;
                break;
            }
            if tabletape_tests::play_random(&j, &game, MAIN_BRANCH, seed * 1000 + step, 1) == 0 {
                break;
            }
        }
    }
    assert!(
        placed > 0,
        "no searched game offered a Monster on a blank square"
    );
}

/// Legless in London rules 2: a card that makes a Londoner sick is carried
/// out to its end (the money it takes is paid), recorded by a table typing
/// its own cards.
#[test]
fn legless_carries_out_a_card_that_makes_a_londoner_sick_to_its_end() {
    let (_dir, j) = journal();
    let table = [
        ("banker", json!(1)),
        ("record", json!("on")),
        ("sickroom_fee", json!(3)),
    ];
    let with = NewGame {
        dice: tabletape_events::DiceMode::Physical,
        ..options(&table)
    };
    let game = game_with(&j, "legless", &["Ada", "Bo"], 14, with);
    for (seat, name, start) in [(0, "Hester Crane", "f9"), (1, "Silas Marsh", "c3")] {
        let card = json!({"name": name, "start": start, "money": 12, "health": 5, "goals": [
            {"kind": "love", "at": []}, {"kind": "property", "at": []},
            {"kind": "personal", "at": ["church"], "text": "Ring the bells"}]});
        act(
            &j,
            &game,
            json!({"type": "draw_character", "seat": seat, "card": card}),
        )
        .unwrap();
    }
    let mugged =
        json!({"name": "Mugged", "text": "Footpads", "effects": [{"health": -99}, {"money": -4}]});
    let view = |j: &Journal| {
        j.state(&game, MAIN_BRANCH, None, tabletape_engine::Viewer::Owner)
            .unwrap()
            .view
    };
    for turn in 0..40 {
        act(&j, &game, json!({"type": "roll", "rolls": [1 + turn % 6]})).unwrap();
        let moves: Vec<_> = j
            .legal(&game, MAIN_BRANCH, None)
            .unwrap()
            .into_iter()
            .filter(|l| l.action["type"] == "move")
            .collect();
        let crossing = moves
            .iter()
            .find(|l| l.needs.iter().any(|n| n.starts_with("cards: what the 1 ")));
        let Some(crossing) = crossing else {
            let plain = moves.iter().find(|l| l.needs.is_empty()).expect("a move");
            act(&j, &game, plain.action.clone()).unwrap();
            continue;
        };
        let seat = view(&j)["phase"]["seat"].as_u64().unwrap() as usize;
        let money = view(&j)["londoners"][seat]["money"].as_u64().unwrap();
        let mut action = crossing.action.clone();
        action["cards"] = json!([mugged]);
        act(&j, &game, action).unwrap();
        let after = &view(&j)["londoners"][seat];
        assert_eq!(after["sick"], true, "{after}");
        assert_eq!(after["money"], money - 3 - 4, "the fee, then the card's £4");
        return;
    }
    panic!("no move crossed one street event symbol");
}

/// Legless in London: `legal` offers a way for every count of Street Event
/// symbols crossed, so a table recording by line picks the cards it draws.
#[test]
fn legless_offers_ways_that_cross_different_street_events() {
    let (_dir, j) = journal();
    for seed in tabletape_tests::seeds(1..4) {
        let game = game_of(&j, "legless", &["Ada", "Bo"], seed);
        for step in 0..200 {
            let moves: Vec<Value> = j
                .legal(&game, MAIN_BRANCH, None)
                .unwrap()
                .into_iter()
                .map(|l| l.action)
                .filter(|a| a["type"] == "move")
                .collect();
            let end = |m: &Value| m["path"].as_array().and_then(|p| p.last()).cloned();
            let twice = moves.iter().find(|m| {
                end(m).is_some() && moves.iter().filter(|o| end(o) == end(m)).count() > 1
            });
            if let Some(m) = twice {
                let before = head(&j, &game);
                act(&j, &game, m.clone()).unwrap();
                assert_eq!(head(&j, &game), before + 1, "seed {seed}: the way is taken");
                return;
            }
            if tabletape_tests::play_random(&j, &game, MAIN_BRANCH, seed * 1000 + step, 1) == 0 {
                break;
            }
        }
    }
    panic!("no move was offered two ways to one place");
}

/// Lost Worlds rules 5: a figure that halted an opponent moves no more that
/// turn, and may not run for the running bonus when its own move comes.
#[test]
fn lost_worlds_a_halter_may_not_run_after_halting() {
    let (_dir, j) = journal();
    let (mut own_moves, mut halts) = (0, 0);
    for seed in tabletape_tests::seeds(1..13) {
        let scenario = options(&[("scenario", json!("well-house"))]);
        let game = game_with(&j, "lostworlds", &["Ada", "Bo"], seed, scenario);
        for step in 0..300 {
            let view = j
                .state(&game, MAIN_BRANCH, None, tabletape_engine::Viewer::Owner)
                .unwrap()
                .view;
            let field = &view["field"];
            let order = field["order"].as_array().cloned().unwrap_or_default();
            let mover = field["moved"].as_u64().and_then(|m| order.get(m as usize));
            let pieces = field["pieces"].as_array().cloned().unwrap_or_default();
            for (seat, p) in pieces.iter().enumerate() {
                halts += usize::from(p["done"]["halted_one"] == true);
                if p["done"]["halted_one"] != true || mover != Some(&json!(seat)) {
                    continue;
                }
                own_moves += 1;
                let offered = j.legal(&game, MAIN_BRANCH, Some(seat as u32)).unwrap();
                assert!(
                    offered.iter().all(|l| l.action["type"] != "run"),
                    "seed {seed}: a run is offered to the halter"
                );
                let before = head(&j, &game);
                let r = rejected(act(&j, &game, json!({"type": "run", "seat": seat})));
                assert_eq!(r.rule, "lostworlds.movement.running", "seed {seed}: {r:?}");
                assert_eq!(head(&j, &game), before, "seed {seed}: nothing written");
            }
            // The table halts whenever it may, and plays at random otherwise.
            let halt = j
                .legal(&game, MAIN_BRANCH, None)
                .unwrap()
                .into_iter()
                .find(|l| l.action["type"] == "halt");
            if let Some(halt) = halt {
                act(&j, &game, halt.action).unwrap();
            } else if tabletape_tests::play_random(&j, &game, MAIN_BRANCH, seed * 1000 + step, 1)
                == 0
            {
                break;
            }
        }
    }
    assert!(
        own_moves > 0,
        "no searched game reached a halter's own move ({halts} halts)"
    );
}

/// London Dread rules 2: a token taken from the stash costs its dread even
/// when put back during planning ("each token taken").
#[test]
fn dread_counts_a_stash_token_taken_and_put_back() {
    let (_dir, j) = journal();
    let untimed = options(&[("timer", json!("off"))]);
    let game = game_with(&j, "dread", &["Ada", "Bo"], 4, untimed);
    let taken = |j: &Journal| {
        j.state(&game, MAIN_BRANCH, None, tabletape_engine::Viewer::Owner)
            .unwrap()
            .view["stash_taken"]
            .clone()
    };
    act(&j, &game, json!({"type": "start_planning"})).unwrap();
    for (slot, stash) in [(1, false), (2, false), (3, true)] {
        let place =
            json!({"type": "place", "character": 0, "slot": slot, "number": 4, "stash": stash});
        act(&j, &game, place).unwrap();
    }
    act(
        &j,
        &game,
        json!({"type": "take_back", "character": 0, "slot": 3}),
    )
    .unwrap();
    assert_eq!(taken(&j), json!([4]), "taken, and put back");
    // Taken again, the same token counts once.
    let again = json!({"type": "place", "character": 0, "slot": 3, "number": 4, "stash": true});
    act(&j, &game, again).unwrap();
    assert_eq!(taken(&j), json!([4]));
}
