//! Determinism properties, driven by seeded random legal play: replay equals
//! the live state, a fork at k equals the first k events, export then import
//! is hash-identical (notes and branch names too), a note changes no state,
//! compare finds a fork where it parts, and the same seed plays the same game. Each failure
//! names its seed; `TABLETAPE_SEED=<n>` replays just that one.

use std::collections::BTreeMap;

use serde_json::{json, Value};
use tabletape_engine::rng::TableRng;
use tabletape_engine::{Game, Viewer};
use tabletape_events::{DiceMode, Event};
use tabletape_store::scratch::test_store;
use tabletape_store::{Access, Journal, NameRequest, NewGame, NoteRequest};
use tabletape_tests::{play_random, seeds};

/// The kinds and table set-ups random play covers.
fn setups() -> Vec<(&'static str, Vec<String>, BTreeMap<String, Value>)> {
    let names = |n: usize| {
        ["Ada", "Bo", "Cy", "Dee", "Eve", "Fay"][..n]
            .iter()
            .map(|s| s.to_string())
            .collect()
    };
    vec![
        ("lostworlds", names(2), BTreeMap::new()),
        (
            "lostworlds",
            names(3),
            [("characters".to_string(), json!("nowa,brakka,brakka"))].into(),
        ),
        (
            "lostworlds",
            names(2),
            [("scenario".to_string(), json!("well-house"))].into(),
        ),
        (
            "lostworlds",
            names(3),
            [("scenario".to_string(), json!("stair-tower"))].into(),
        ),
        ("ludovia", names(3), BTreeMap::new()),
        ("ludovia", names(5), BTreeMap::new()),
        ("legless", names(2), BTreeMap::new()),
        ("legless", names(4), BTreeMap::new()),
        ("dread", names(4), BTreeMap::new()),
        ("dread", names(2), BTreeMap::new()),
        ("legend", names(3), BTreeMap::new()),
        (
            "legend",
            names(4),
            [
                ("voting", "on"),
                ("duels", "on"),
                ("abilities", "on"),
                ("first", "2"),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), Value::from(v)))
            .collect(),
        ),
    ]
}

pub(crate) fn new_game(
    journal: &Journal,
    setup: &(&str, Vec<String>, BTreeMap<String, Value>),
    seed: u64,
) -> String {
    journal
        .create(NewGame {
            id: None,
            title: None,
            kind: setup.0.to_string(),
            players: setup.1.clone(),
            seed: Some(seed),
            dice: DiceMode::Digital,
            options: setup.2.clone(),
            pack: None,
            public: false,
        })
        .unwrap_or_else(|e| panic!("seed {seed}: create {}: {e}", setup.0))
        .game
}

/// The parts of an event that do not depend on the game's id or the clock.
/// A fact may carry an envelope's time (London Dread's planning deadline,
/// named `*_at_ms`): those are left out too.
fn bodies(events: &[Event]) -> Vec<(u64, Value)> {
    fn timeless(v: &mut Value) {
        match v {
            Value::Object(map) => {
                map.retain(|k, _| !k.ends_with("_at_ms"));
                map.values_mut().for_each(timeless);
            }
            Value::Array(items) => items.iter_mut().for_each(timeless),
            _ => {}
        }
    }
    events
        .iter()
        .map(|e| {
            let mut body = serde_json::to_value(&e.body).expect("bodies serialize");
            timeless(&mut body);
            (e.seq, body)
        })
        .collect()
}

const MAX_ACTIONS: usize = 300;

// One test per kind, so the test threads share the work.
#[test]
fn lostworlds_random_play_replays_forks_and_round_trips() {
    random_play_replays_forks_and_round_trips("lostworlds");
}

#[test]
fn ludovia_random_play_replays_forks_and_round_trips() {
    random_play_replays_forks_and_round_trips("ludovia");
}

#[test]
fn legless_random_play_replays_forks_and_round_trips() {
    random_play_replays_forks_and_round_trips("legless");
}

#[test]
fn dread_random_play_replays_forks_and_round_trips() {
    random_play_replays_forks_and_round_trips("dread");
}

#[test]
fn legend_random_play_replays_forks_and_round_trips() {
    random_play_replays_forks_and_round_trips("legend");
}

#[test]
fn every_kind_has_random_play() {
    for kind in tabletape_engine::kinds() {
        let name = kind.info().kind;
        assert!(
            setups().iter().any(|s| s.0 == name),
            "{name} has no random play in setups()"
        );
    }
}

fn random_play_replays_forks_and_round_trips(kind: &str) {
    for seed in seeds(0..8) {
        for setup in setups().into_iter().filter(|s| s.0 == kind) {
            let ctx = format!("seed {seed}, {} with {} players", setup.0, setup.1.len());
            let dir = tempfile::tempdir().unwrap();
            let journal = Journal::open_at(&test_store(&dir.path().join("a"))).unwrap();
            let game = new_game(&journal, &setup, seed);
            play_random(&journal, &game, "main", seed, MAX_ACTIONS);
            let events = journal.events(&game, "main", 1, None).unwrap();
            let head = events.len() as u64;

            // Replay equals the live state.
            let live = journal.game_at(&game, "main", None).unwrap();
            let folded = Game::fold(&events).unwrap();
            assert!(live == folded, "{ctx}: replay differs from the live state");
            assert_eq!(
                live.view(Viewer::Owner),
                folded.view(Viewer::Owner),
                "{ctx}"
            );

            // A fork at k equals the first k events, for a few k.
            let mut pick = TableRng::for_event(seed, 0);
            for i in 0..3 {
                let k = pick.range(1, head as u32) as u64;
                let name = format!("what-if-{i}");
                let branch = journal
                    .fork(&game, "main", k, Some(&name), None, Access::Owner)
                    .unwrap();
                assert_eq!(branch.head_seq, k, "{ctx}: fork head");
                let forked = journal.game_at(&game, &name, None).unwrap();
                let prefix = Game::fold(&events[..k as usize]).unwrap();
                assert!(
                    forked == prefix,
                    "{ctx}: fork at {k} differs from the first {k} events"
                );
                let at = journal
                    .state(&game, "main", Some(k), Viewer::Owner)
                    .unwrap();
                // The store folds its stored events by their facts alone;
                // the events in memory fold the same.
                assert_eq!(
                    at.view,
                    prefix.view(Viewer::Owner),
                    "{ctx}: stored fold vs events folded in memory at {k}"
                );
                let fork_state = journal.state(&game, &name, None, Viewer::Owner).unwrap();
                assert_eq!(
                    at.view, fork_state.view,
                    "{ctx}: state --at {k} vs fork at {k}"
                );
                // Playing on along the fork stays foldable, with a note and a
                // name among its events; it parts from main right after k.
                play_random(&journal, &game, &name, seed + 1000, 20);
                let note = NoteRequest {
                    branch: Some(name.clone()),
                    at: k,
                    title: Some(format!("fork {i}")),
                    text: String::new(),
                    private: i % 2 == 0,
                    expect_seq: None,
                    idempotency_key: None,
                };
                journal.note(&game, note, Access::Seat(0)).unwrap();
                let named = NameRequest {
                    branch: Some(name.clone()),
                    title: format!("what if {i}"),
                    description: None,
                };
                journal.name_branch(&game, named, Access::Owner).unwrap();
                let compared = journal
                    .compare(&game, "main", &name, Viewer::Owner)
                    .unwrap();
                assert_eq!(
                    compared.common_seq, k,
                    "{ctx}: compare with the fork at {k}"
                );
                let fork_events = journal.events(&game, &name, 1, None).unwrap();
                assert_eq!(
                    &fork_events[..k as usize],
                    &events[..k as usize],
                    "{ctx}: fork shares its prefix"
                );
                let live = journal.game_at(&game, &name, None).unwrap();
                assert!(
                    live == Game::fold(&fork_events).unwrap(),
                    "{ctx}: fork replay"
                );
            }

            // A note on main changes nothing in play, and travels with the log.
            let note = NoteRequest {
                branch: None,
                at: head,
                title: None,
                text: format!("after seed {seed}"),
                private: true,
                expect_seq: None,
                idempotency_key: None,
            };
            journal.note(&game, note, Access::Owner).unwrap();
            let noted = journal.game_at(&game, "main", None).unwrap();
            assert_eq!(
                noted.view(Viewer::Owner),
                live.view(Viewer::Owner),
                "{ctx}: a note changed the state"
            );

            // Export then import: identical lines, identical hashes, clean verify.
            let mut exported = Vec::new();
            journal.export(&game, None, &mut exported).unwrap();
            let other = Journal::open_at(&test_store(&dir.path().join("b"))).unwrap();
            let imported = other.import(&mut exported.as_slice()).unwrap();
            assert_eq!(imported.game, game, "{ctx}");
            let mut again = Vec::new();
            other.export(&game, None, &mut again).unwrap();
            assert!(
                exported == again,
                "{ctx}: export -> import -> export changed the log"
            );
            // The imported store reads any stretch of the line, and states at
            // any seq, as the original does (an import keeps its events in
            // packs: a read may start inside one).
            for _ in 0..4 {
                let lo = pick.range(1, head as u32) as u64;
                let hi = pick.range(lo as u32, head as u32) as u64;
                assert_eq!(
                    other.events(&game, "main", lo, Some(hi)).unwrap(),
                    &events[lo as usize - 1..hi as usize],
                    "{ctx}: imported events {lo}..={hi}"
                );
                assert_eq!(
                    other
                        .state(&game, "main", Some(hi), Viewer::Owner)
                        .unwrap()
                        .view,
                    journal
                        .state(&game, "main", Some(hi), Viewer::Owner)
                        .unwrap()
                        .view,
                    "{ctx}: imported state at {hi}"
                );
            }
            for report in other
                .verify(Some(&game))
                .unwrap()
                .into_iter()
                .chain(journal.verify(Some(&game)).unwrap())
            {
                assert!(
                    report.problem.is_none(),
                    "{ctx}: verify {}: {:?}",
                    report.branch,
                    report.problem
                );
            }

            // The same seed and the same choices give the same game.
            let twin = new_game(&journal, &setup, seed);
            play_random(&journal, &twin, "main", seed, MAX_ACTIONS);
            let twin_events = journal.events(&twin, "main", 1, None).unwrap();
            assert_eq!(
                bodies(&events),
                bodies(&twin_events),
                "{ctx}: same seed, different game"
            );
        }
    }
}

/// London Dread games played to their end through the journal: legal
/// actions picked by type first (so the many clock slots do not drown the
/// rest), then verify, replay and export/import.
#[test]
fn dread_games_run_to_their_end_and_verify() {
    for seed in seeds(0..4) {
        for players in [2, 4] {
            let setup = (
                "dread",
                ["Ada", "Bo", "Cy", "Dee"][..players]
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
                BTreeMap::new(),
            );
            let ctx = format!("seed {seed}, dread with {players} players");
            let dir = tempfile::tempdir().unwrap();
            let journal = Journal::open_at(&test_store(&dir.path().join("a"))).unwrap();
            let game = new_game(&journal, &setup, seed);
            let mut planned = 0;
            play_by_type(&journal, &game, seed, 5_000, &ctx, |types, rng| {
                // Some planning before the story begins.
                if planned < 30 && types.len() > 1 {
                    types.retain(|t| *t != "begin_story");
                }
                planned += 1;
                let t = types[rng.below(types.len() as u32) as usize];
                if t == "begin_story" {
                    planned = 0;
                }
                t.to_string()
            });
            ended_and_verified(&journal, &game, dir.path(), &ctx);
        }
    }
}

/// Plays up to `steps` ready legal actions as the owner: `choose` picks an
/// action type from those open (so kinds with many actions of one type do
/// not drown the rest), then an action of that type at random.
fn play_by_type(
    journal: &Journal,
    game: &str,
    seed: u64,
    steps: usize,
    ctx: &str,
    mut choose: impl FnMut(&mut Vec<&str>, &mut TableRng) -> String,
) {
    let mut rng = TableRng::for_event(seed, u64::MAX);
    for _ in 0..steps {
        let legal: Vec<Value> = journal
            .legal(game, "main", None)
            .unwrap()
            .into_iter()
            .filter(|l| l.needs.is_empty())
            .map(|l| l.action)
            .collect();
        if legal.is_empty() {
            break;
        }
        let mut types: Vec<&str> = legal.iter().filter_map(|a| a["type"].as_str()).collect();
        types.sort_unstable();
        types.dedup();
        let t = choose(&mut types, &mut rng);
        let of: Vec<&Value> = legal.iter().filter(|a| a["type"] == t.as_str()).collect();
        let pick = of[rng.below(of.len() as u32) as usize].clone();
        journal
            .act(
                game,
                tabletape_store::ActRequest {
                    branch: "main".into(),
                    actor: tabletape_events::Actor::Owner,
                    by: None,
                    action: pick.clone(),
                    expect_seq: None,
                    idempotency_key: None,
                },
            )
            .unwrap_or_else(|e| panic!("{ctx}: legal {pick} refused: {e}"));
    }
}

/// A game played to its end: replay equals the live state, `verify` is
/// clean, and export, import, export gives the same log.
fn ended_and_verified(journal: &Journal, game: &str, dir: &std::path::Path, ctx: &str) {
    let live = journal.game_at(game, "main", None).unwrap();
    assert!(live.is_over(), "{ctx}: the game did not end");
    let events = journal.events(game, "main", 1, None).unwrap();
    assert!(live == Game::fold(&events).unwrap(), "{ctx}: replay");
    for report in journal.verify(Some(game)).unwrap() {
        assert!(report.problem.is_none(), "{ctx}: {:?}", report.problem);
    }
    let mut exported = Vec::new();
    journal.export(game, None, &mut exported).unwrap();
    let other = Journal::open_at(&test_store(&dir.join("b"))).unwrap();
    other.import(&mut exported.as_slice()).unwrap();
    let mut again = Vec::new();
    other.export(game, None, &mut again).unwrap();
    assert!(
        exported == again,
        "{ctx}: export -> import -> export changed the log"
    );
}

/// Lost Worlds scenarios played to their end through the journal with
/// digital dice: legal actions picked by type first (so the many spaces a
/// carried object can be thrown at do not drown the rest), then verify,
/// replay and export/import.
#[test]
fn lostworlds_scenarios_run_to_their_end_and_verify() {
    for seed in seeds(0..3) {
        for (scenario, players) in [("well-house", 2), ("stair-tower", 3)] {
            let setup = (
                "lostworlds",
                ["Ada", "Bo", "Cy"][..players]
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
                [("scenario".to_string(), json!(scenario))].into(),
            );
            let ctx = format!("seed {seed}, {scenario}");
            let dir = tempfile::tempdir().unwrap();
            let journal = Journal::open_at(&test_store(&dir.path().join("a"))).unwrap();
            let game = new_game(&journal, &setup, seed);
            play_by_type(&journal, &game, seed, 20_000, &ctx, |types, rng| {
                types[rng.below(types.len() as u32) as usize].to_string()
            });
            ended_and_verified(&journal, &game, dir.path(), &ctx);
        }
    }
}
