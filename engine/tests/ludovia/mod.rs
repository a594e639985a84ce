//! Tests of the Ludovia kind: rules on a board laid out by hand (physical
//! dice, so every roll is chosen), and whole games of seeded random legal
//! play (digital dice) checked against the invariants after every event.
//!
//! The hand-made board (3 players), block rows north to south:
//! `belltower fountain mint / chapel lair orchard / tannery prison clocktower`.
//!
//! This file holds the table the tests play on and what several topics
//! share; each topic has its own file.

mod board;
mod duels;
mod equipment;
mod moving;
mod options;
mod play;
mod police;
mod robbery;
mod secrets;
mod setup;
mod views;

use std::collections::BTreeMap;

use serde_json::{json, Value};
use tabletape_events::{ActionAccepted, Body, DiceMode, Event, GameCreated, Seat};

use crate::testkit::{self, rejection, step};
use tabletape_engine::chance::Chance;
use tabletape_engine::error::Rejection;
use tabletape_engine::game::Game;
use tabletape_engine::ludovia::actions::{Action, Fact, Step};
use tabletape_engine::ludovia::board::{Facing, Post, Space, Street};
use tabletape_engine::ludovia::content::{self, Pack};
use tabletape_engine::ludovia::decide::{self, step_policeman};
use tabletape_engine::ludovia::options::Options;
use tabletape_engine::ludovia::state::{Choice, Phase, Policeman, Stage, State, Turn};
use tabletape_engine::ludovia::Ludovia;
use tabletape_engine::rng::TableRng;
use tabletape_engine::rules::{Context, Rules, Viewer};

const LAYOUT: [&str; 9] = [
    "belltower",
    "fountain",
    "mint",
    "chapel",
    "lair",
    "orchard",
    "tannery",
    "prison",
    "clocktower",
];

fn pack() -> Pack {
    testkit::pack::<Ludovia>()
}

fn sp(s: &str) -> Space {
    s.parse().unwrap()
}

fn st(s: &str) -> Street {
    s.parse().unwrap()
}

fn post(s: &str) -> Post {
    s.parse().unwrap()
}

/// A 3-player game on the hand-made board, Ada (seat 0) to act with 4 AP,
/// two policemen tucked in the far corner facing away from the action.
fn table() -> State {
    let mut s = setup_with(&LAYOUT, &pack(), 2).unwrap();
    s.order = vec![0, 1, 2];
    s.round = 1;
    s.policemen = vec![
        Policeman {
            at: post("p3.3"),
            facing: Facing::North,
        },
        Policeman {
            at: post("p3.2"),
            facing: Facing::North,
        },
    ];
    s.phase = Phase::Playing(Turn {
        seat: 0,
        stage: Stage::Actions,
        ap: 4,
        ending: false,
        from: None,
    });
    s
}

fn decide(s: &State, action: Value) -> Result<Vec<Fact>, Rejection> {
    let action: Action = serde_json::from_value(action).unwrap();
    Ludovia::decide(s, None, &action, &mut Chance::new(s.dice, 1, 2))
}

/// Decides and folds one action.
fn act(s: &mut State, action: Value) -> Vec<Fact> {
    let facts = decide(s, action.clone()).unwrap_or_else(|e| panic!("{action}: {e}"));
    for f in &facts {
        Ludovia::apply(s, f);
    }
    facts
}

fn refused(s: &State, action: Value) -> String {
    decide(s, action.clone())
        .map(|f| panic!("{action} was accepted: {f:?}"))
        .unwrap_err()
        .rule
}

fn give(s: &mut State, seat: Seat, cards: &[&str]) {
    for c in cards {
        let i = s.pool.iter().position(|p| p == c).unwrap();
        s.pool.remove(i);
        s.thieves[seat as usize].hand.push(c.to_string());
    }
}

fn equip(s: &mut State, seat: Seat, item: &str) {
    let i = s.deck_unseen.iter().position(|p| p == item).unwrap();
    s.deck_unseen.remove(i);
    s.thieves[seat as usize].equipment.push(item.to_string());
}

fn turn(s: &State) -> &Turn {
    s.turn().expect("a turn is on")
}

fn created(players: usize, seed: u64, dice: DiceMode) -> GameCreated {
    testkit::created::<Ludovia>(players, seed, dice, Value::Null)
}

fn event(seq: u64, body: ActionAccepted) -> Event {
    testkit::event(seq, 0, None, Body::ActionAccepted(body))
}

/// The hand-made table as a `Game`, read the way the journal reads it.
fn game_of(s: &State) -> Game {
    testkit::restored(&created(3, 1, s.dice), s)
}

fn setup_with(layout: &[&str], pack: &Pack, rules: u32) -> Result<State, Rejection> {
    let options = Options {
        layout: Some(layout.iter().map(|s| s.to_string()).collect()),
        offer: Some(vec!["Mask".into(), "Whistle".into(), "Backpack".into()]),
        round_limit: 100,
    };
    let players = ["Ada", "Bo", "Cy"].map(String::from);
    let mut chance = Chance::new(DiceMode::Physical, 1, 1);
    decide::setup(
        &players,
        &options,
        pack,
        DiceMode::Physical,
        rules,
        &mut chance,
    )
}

/// Checks the invariants the issue names on one folded state.
fn check_invariants(s: &State, ctx: &str) {
    assert_eq!(
        s.cards_accounted(),
        s.rooftop_total as usize,
        "{ctx}: rooftop cards"
    );
    assert_eq!(
        s.items_accounted(),
        s.equipment_total as usize,
        "{ctx}: equipment cards"
    );
    assert!(s.policemen.len() <= s.max_policemen(), "{ctx}: policemen");
    assert_eq!(
        s.robbed.len() + s.pool.len(),
        s.rooftop_total as usize,
        "{ctx}: robbed rooftops"
    );
    for (i, t) in s.thieves.iter().enumerate() {
        // Thieves stand only on spaces; lamp posts are not spaces at all, so
        // check each position is a real street, block space, Lair or Prison.
        let ok = match t.at {
            Space::Lair | Space::Prison => true,
            Space::Street(st) => s.grid().has_street(st),
            Space::Cell { row, col } => s.cell(row, col).is_some(),
        };
        assert!(ok, "{ctx}: thief {i} stands on {}", t.at);
        assert!(
            t.hand.len() <= s.carry_limit(i as Seat),
            "{ctx}: thief {i} carries too much"
        );
        assert!(
            t.equipment.len() <= 3
                || matches!(
                    s.turn(),
                    Some(Turn {
                        stage: Stage::Choice(Choice::EquipmentOverflow),
                        ..
                    })
                ),
            "{ctx}: thief {i} holds too much"
        );
        assert!(
            t.hand.iter().all(|c| s.value(c) > 0),
            "{ctx}: only treasures are carried"
        );
    }
    for p in &s.policemen {
        assert!(
            !s.grid().faces_edge(p.at, p.facing),
            "{ctx}: a policeman faces the edge"
        );
    }
}

/// Plays random legal actions with digital dice to the end; returns the
/// events and the game.
fn random_game(players: usize, seed: u64) -> (Vec<Event>, Game) {
    testkit::random_play(
        &created(players, seed, DiceMode::Digital),
        seed,
        40_000,
        |_, _| {},
        |game| {
            let s = game.state_as::<State>().expect("a Ludovia game");
            check_invariants(
                s,
                &format!("seed {seed}, {players} players, seq {}", game.seq()),
            )
        },
    )
}
