//! Structured fuzzing of every kind through the journal: legal actions,
//! exports and content packs, mutated the ways a careless or hostile client
//! would (unknown fields holding floats or deep arrays, extreme numbers,
//! strings with control characters or placeholders, missing fields, wrong
//! seats), and the journal's promises checked after each:
//!
//! - accepted ⇒ the game still verifies and every read answers, for every
//!   viewer, and an export imports again to the same bytes;
//! - refused ⇒ nothing was written;
//! - never a panic.
//!
//! Each case is one seed (proptest prints it on failure). The test command
//! runs a bounded number; `TABLETAPE_FUZZ_CASES=2000 cargo test --release
//! -p tabletape-tests fuzz` is the longer run before a release.

use proptest::prelude::*;
use serde_json::{json, Value};
use tabletape_engine::rng::TableRng;
use tabletape_engine::Viewer;
use tabletape_events::{Body, FactText, MAIN_BRANCH};
use tabletape_store::{event_hash, Journal, NewGame, PackSource};
use tabletape_tests::as_owner;

fn cases() -> u32 {
    std::env::var("TABLETAPE_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(6)
}

/// A hostile value: a float, a deep array, an extreme number, junk text.
fn junk(rng: &mut TableRng) -> Value {
    match rng.below(10) {
        0 => json!(2.2790121708605243e274),
        1 => json!(-1),
        2 => json!(i64::MAX),
        3 => json!(u64::MAX),
        4 => json!(2_147_483_647),
        5 => {
            let mut v = json!(0);
            for _ in 0..(100 + rng.below(40)) {
                v = json!([v]);
            }
            v
        }
        6 => json!("line\nbreak\u{0}\u{2028}"),
        7 => json!("x".repeat(3000)),
        8 => json!("<a placeholder left in>"),
        _ => json!({"nested": {"deeper": [1.5, null, "š3"]}}),
    }
}

/// Changes one thing about an action.
fn mutate(action: &mut Value, rng: &mut TableRng) {
    let Some(map) = action.as_object_mut() else {
        return;
    };
    let keys: Vec<String> = map.keys().cloned().collect();
    match rng.below(6) {
        0 => {
            map.insert("zz".into(), junk(rng));
        }
        1 if !keys.is_empty() => {
            let k = &keys[rng.below(keys.len() as u32) as usize];
            if k != "type" {
                map.insert(k.clone(), junk(rng));
            }
        }
        2 if !keys.is_empty() => {
            let k = &keys[rng.below(keys.len() as u32) as usize];
            map.remove(k);
        }
        3 => {
            map.insert("seat".into(), json!(6 + rng.below(3)));
        }
        4 => {
            map.insert("type".into(), json!("teleport"));
        }
        _ => {
            // Deep inside: the first nested value, if any.
            if let Some(v) = map.values_mut().find(|v| v.is_object() || v.is_array()) {
                match v {
                    Value::Object(inner) => {
                        inner.insert("zz".into(), junk(rng));
                    }
                    Value::Array(items) => items.push(junk(rng)),
                    _ => {}
                }
            }
        }
    }
}

fn act(j: &Journal, game: &str, action: Value) -> bool {
    j.act(game, as_owner(action)).is_ok()
}

/// Every read of a game answers, for the owner, each seat and the public,
/// and the game verifies and survives an export and import unchanged.
fn all_reads_answer(j: &Journal, game: &str, seats: u32, kind: &str, seed: u64) {
    let what = format!("{kind} seed {seed}");
    let reports = j.verify(Some(game)).unwrap();
    assert!(
        reports.iter().all(|r| r.problem.is_none()),
        "{what}: {reports:?}"
    );
    let viewers = (0..seats)
        .map(Viewer::Seat)
        .chain([Viewer::Owner, Viewer::Public]);
    for viewer in viewers {
        j.state(game, MAIN_BRANCH, None, viewer).unwrap();
        j.replay(game, MAIN_BRANCH, None, viewer).unwrap();
        j.events_as(game, MAIN_BRANCH, 1, None, viewer).unwrap();
        j.narrate_as(game, MAIN_BRANCH, viewer).unwrap();
        j.verify_as(game, viewer).unwrap();
    }
    j.legal(game, MAIN_BRANCH, None).unwrap();
    let mut log = Vec::new();
    j.export(game, None, &mut log).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let other = Journal::open(&dir.path().join("s")).unwrap();
    other
        .import(&mut log.as_slice())
        .unwrap_or_else(|e| panic!("{what}: an export does not import: {e}"));
    let mut again = Vec::new();
    other.export(game, None, &mut again).unwrap();
    assert_eq!(again, log, "{what}: export, import, export changed the log");
}

fn new_game(j: &Journal, kind: &str, players: u32, seed: u64) -> String {
    j.create(NewGame {
        title: None,
        kind: kind.into(),
        players: (0..players).map(|i| format!("P{i}")).collect(),
        seed: Some(seed),
        ..NewGame::default()
    })
    .unwrap()
    .game
}

/// Plays `steps` turns of a kind, each a legal action or (one time in
/// three) a mutated one, checking the promises after each.
fn play_hostile(kind: &str, players: u32, seed: u64, steps: usize) {
    let dir = tempfile::tempdir().unwrap();
    let j = Journal::open(&dir.path().join("s")).unwrap();
    let game = new_game(&j, kind, players, seed);
    let mut rng = TableRng::for_event(seed, 7);
    for _ in 0..steps {
        let legal: Vec<Value> = j
            .legal(&game, MAIN_BRANCH, None)
            .unwrap()
            .into_iter()
            .map(|l| l.with_words())
            .filter(|l| l.needs.is_empty())
            .map(|l| l.action)
            .collect();
        if legal.is_empty() {
            break;
        }
        let mut action = legal[rng.below(legal.len() as u32) as usize].clone();
        if rng.below(3) != 0 {
            act(&j, &game, action);
            continue;
        }
        mutate(&mut action, &mut rng);
        let before = j.events(&game, MAIN_BRANCH, 1, None).unwrap().len();
        let accepted = act(&j, &game, action.clone());
        let after = j.events(&game, MAIN_BRANCH, 1, None).unwrap().len();
        if accepted {
            assert_eq!(after, before + 1);
            all_reads_answer(&j, &game, players, kind, seed);
        } else {
            assert_eq!(
                after, before,
                "{kind} seed {seed}: a refused {action} wrote"
            );
        }
    }
    all_reads_answer(&j, &game, players, kind, seed);
    forge_an_import(&j, &game, &mut rng, kind, seed);
}

/// Changes one fact of an export (re-hashing the chain as a forger would)
/// and imports it: refused, or accepted only if it still verifies.
fn forge_an_import(j: &Journal, game: &str, rng: &mut TableRng, kind: &str, seed: u64) {
    let mut events = j.events(game, MAIN_BRANCH, 1, None).unwrap();
    if events.len() < 2 {
        return;
    }
    let at = 1 + rng.below(events.len() as u32 - 1) as usize;
    if let Body::ActionAccepted(a) = &mut events[at].body {
        if let Some(fact) = a.facts.first_mut() {
            let mut value = fact.value().unwrap();
            mutate(&mut value, rng);
            *fact = FactText::of(&value);
        }
    }
    let mut prev = String::new();
    let mut log = Vec::new();
    for event in &mut events {
        event.prev_hash = prev.clone();
        event.hash = event_hash(event);
        prev = event.hash.clone();
        log.extend(serde_json::to_vec(event).unwrap());
        log.push(b'\n');
    }
    let dir = tempfile::tempdir().unwrap();
    let other = Journal::open(&dir.path().join("s")).unwrap();
    match other.import(&mut log.as_slice()) {
        Ok(_) => all_reads_answer(&other, game, 0, kind, seed),
        Err(_) => assert!(other.games().unwrap().is_empty(), "{kind} seed {seed}"),
    }
}

/// Changes one value of the bundled pack and starts a game with it: refused
/// with nothing written, or a game that plays and verifies.
fn hostile_pack(kind: &str, players: u32, seed: u64) {
    let mut rng = TableRng::for_event(seed, 9);
    let mut pack = tabletape_engine::kind(kind).unwrap().default_pack();
    // Walk down a few levels at random (as a JSON pointer) and change
    // what is there.
    let mut pointer = String::new();
    for _ in 0..rng.below(4) {
        let here = pack
            .pointer(&pointer)
            .expect("a pointer built from the pack");
        let step = match here {
            Value::Object(m) if !m.is_empty() => m
                .keys()
                .nth(rng.below(m.len() as u32) as usize)
                .map(|k| k.replace('~', "~0").replace('/', "~1")),
            Value::Array(a) if !a.is_empty() => Some(rng.below(a.len() as u32).to_string()),
            _ => None,
        };
        match step {
            Some(step) => pointer = format!("{pointer}/{step}"),
            None => break,
        }
    }
    let value = junk(&mut rng);
    match pack
        .pointer_mut(&pointer)
        .expect("a pointer built from the pack")
    {
        Value::Object(m) => {
            m.insert("zz".into(), value);
        }
        other => *other = value,
    }
    let dir = tempfile::tempdir().unwrap();
    let j = Journal::open(&dir.path().join("s")).unwrap();
    let created = j.create(NewGame {
        id: None,
        title: None,
        kind: kind.into(),
        players: (0..players).map(|i| format!("P{i}")).collect(),
        seed: Some(seed),
        pack: Some(PackSource {
            file: "fuzzed.json".into(),
            json: pack,
        }),
        ..NewGame::default()
    });
    match created {
        Ok(c) => {
            tabletape_tests::play_random(&j, &c.game, MAIN_BRANCH, seed, 10);
            all_reads_answer(&j, &c.game, players, kind, seed);
        }
        Err(_) => assert!(j.games().unwrap().is_empty(), "{kind} seed {seed}"),
    }
}

fn every_kind() -> Vec<(&'static str, u32)> {
    tabletape_engine::kinds()
        .iter()
        .map(|k| {
            let info = k.info();
            (info.kind, info.min_players as u32)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn mutated_actions_keep_every_promise(seed in any::<u64>()) {
        for (kind, players) in every_kind() {
            play_hostile(kind, players, seed, 24);
        }
    }

    #[test]
    fn mutated_packs_are_refused_or_play_and_verify(seed in any::<u64>()) {
        for (kind, players) in every_kind() {
            hostile_pack(kind, players, seed);
        }
    }
}
