//! The buttons a table taps: where a kind says in words what a line of
//! `legal` does (`says`), every line open to the table says it, and no two
//! different lines say the same, so a player can tell them apart.

use std::collections::BTreeMap;

use tabletape_engine::rng::TableRng;
use tabletape_events::{Actor, DiceMode};
use tabletape_store::scratch::test_store;
use tabletape_store::{ActRequest, Journal, NewGame};
use tabletape_tests::seeds;

fn lines_say_what_they_do(kind: &str, players: &[&str], options: &[(&str, &str)]) {
    for seed in seeds(0..2) {
        let dir = tempfile::tempdir().unwrap();
        let journal = Journal::open_at(&test_store(dir.path())).unwrap();
        let game = journal
            .create(NewGame {
                kind: kind.into(),
                players: players.iter().map(|p| p.to_string()).collect(),
                seed: Some(seed),
                dice: DiceMode::Digital,
                options: options
                    .iter()
                    .map(|(k, v)| (k.to_string(), serde_json::json!(v)))
                    .collect(),
                ..NewGame::default()
            })
            .unwrap()
            .game;
        let mut rng = TableRng::for_event(seed, u64::MAX);
        for _ in 0..150 {
            let legal = journal.legal(&game, "main", None).unwrap();
            let mut said: BTreeMap<&str, &serde_json::Value> = BTreeMap::new();
            for l in &legal {
                let says = l
                    .says
                    .as_deref()
                    .unwrap_or_else(|| panic!("{kind} seed {seed}: {} says nothing", l.action));
                assert!(
                    !says.is_empty()
                        && !says.contains("Some(")
                        && !says.contains('{')
                        && !says.contains('<'),
                    "{kind} seed {seed}: {} says {says:?}",
                    l.action
                );
                if let Some(other) = said.insert(says, &l.action) {
                    panic!(
                        "{kind} seed {seed}: {other} and {} both say {says:?}",
                        l.action
                    );
                }
            }
            let ready: Vec<_> = legal
                .iter()
                .map(|l| l.with_words())
                .filter(|l| l.needs.is_empty())
                .collect();
            if ready.is_empty() {
                break;
            }
            let pick = ready[rng.below(ready.len() as u32) as usize].action.clone();
            journal
                .act(
                    &game,
                    ActRequest {
                        branch: "main".into(),
                        actor: Actor::Owner,
                        by: None,
                        action: pick,
                        expect_seq: None,
                        idempotency_key: None,
                    },
                )
                .unwrap();
        }
    }
}

#[test]
fn ludovia_says_what_each_line_does() {
    lines_say_what_they_do("ludovia", &["Ada", "Bo", "Cy"], &[]);
}

#[test]
fn london_dread_says_what_each_line_does() {
    lines_say_what_they_do("dread", &["Ada", "Bo"], &[]);
}

#[test]
fn legless_in_london_says_what_each_line_does() {
    lines_say_what_they_do("legless", &["Ada", "Bo", "Cy"], &[]);
}

#[test]
fn legend_says_what_each_line_does() {
    lines_say_what_they_do("legend", &["Ada", "Bo", "Cy"], &[]);
}

#[test]
fn a_lost_worlds_duel_says_what_each_line_does() {
    lines_say_what_they_do("lostworlds", &["Ada", "Bo"], &[]);
}

#[test]
fn a_lost_worlds_scenario_says_what_each_line_does() {
    lines_say_what_they_do(
        "lostworlds",
        &["Ada", "Bo", "Cy"],
        &[("scenario", "stair-tower")],
    );
}
