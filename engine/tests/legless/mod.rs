//! Tests of the Legless in London kind: rules on a table set by hand
//! (physical dice, so every roll and card is chosen), and whole games of
//! seeded random legal play (digital dice) checked against the invariants
//! after every event.
//!
//! The hand-set table: Ada plays Ezra Cole (starts at c9), Bo plays Lady
//! Constance Vane (f9), the first card of every location pair is in play.
//!
//! This file holds the hand-set table and the helpers every topic uses;
//! each topic has its own file.

mod fortune;
mod legs;
mod location;
mod moving;
mod options;
mod play;
mod record;
mod setup;

use std::collections::BTreeSet;

use serde_json::{json, Value};
use tabletape_events::{ActionAccepted, Actor, Body, DiceMode, Event, FactText, GameCreated, Seat};

use crate::testkit::{self, rejection};
use tabletape_engine::chance::Chance;
use tabletape_engine::game::Game;
use tabletape_engine::legless::actions::Fact;
use tabletape_engine::legless::board::Place;
use tabletape_engine::legless::content::{GoalKind, Pack};
use tabletape_engine::legless::decide;
use tabletape_engine::legless::options::Options;
use tabletape_engine::legless::state::{Phase, Stage, State, Token, Turn};
use tabletape_engine::legless::Legless;
use tabletape_engine::rules::{Rules, Setup, Viewer};

const ADA: &str = "Ezra Cole";

const BO: &str = "Lady Constance Vane";

fn pack() -> Pack {
    testkit::pack::<Legless>()
}

fn first_cards() -> Vec<String> {
    pack()
        .locations
        .iter()
        .map(|l| format!("{}-1", l.id))
        .collect()
}

fn options() -> Options {
    Options {
        banker: 1,
        characters: Some(vec![ADA.into(), BO.into()]),
        locations: Some(first_cards()),
        ..Options::default()
    }
}

fn created(players: usize, seed: u64, dice: DiceMode) -> GameCreated {
    let options = match dice {
        // Options as a table gives them: only those set.
        DiceMode::Physical => match serde_json::to_value(options()).unwrap() {
            Value::Object(set) => set.into_iter().filter(|(_, v)| !v.is_null()).collect(),
            other => panic!("options are an object, not {other}"),
        },
        DiceMode::Digital => Value::Null,
    };
    testkit::created::<Legless>(players, seed, dice, options)
}

/// Ada (seat 0) to act on the hand-set table.
fn table() -> State {
    let players = ["Ada", "Bo"].map(String::from);
    let mut chance = Chance::new(DiceMode::Physical, 1, 1);
    let setup = Setup {
        players: &players,
        dice: DiceMode::Physical,
        options: options(),
        pack: pack(),
        rules_version: Legless::RULES_VERSION,
    };
    decide::setup(setup, &mut chance).unwrap()
}

fn event(seq: u64, body: ActionAccepted) -> Event {
    testkit::event(seq, 0, None, Body::ActionAccepted(body))
}

/// The hand-set table as a `Game`, read the way the journal reads it.
fn game_of(s: &State) -> Game {
    let created = if s.record {
        record_created()
    } else {
        created(2, 1, s.dice)
    };
    testkit::restored(&created, s)
}

fn state_of(game: &Game) -> State {
    game.state_as::<State>().expect("a Legless game").clone()
}

/// Decides and folds one action; returns the facts as JSON.
fn step(game: &mut Game, by: Option<Seat>, action: Value) -> Vec<Value> {
    match testkit::step(game, by, action).body {
        Body::ActionAccepted(accepted) => {
            accepted.facts.iter().map(|f| f.value().unwrap()).collect()
        }
        other => panic!("an action makes an accepted action, not {other:?}"),
    }
}

fn types(facts: &[Value]) -> Vec<&str> {
    facts.iter().map(|f| f["type"].as_str().unwrap()).collect()
}

fn at(s: &str) -> Place {
    s.parse().unwrap()
}

fn give_leg(s: &mut State, seat: usize, leg: &str, equip: bool) {
    s.pile.retain(|l| l != leg);
    s.londoners[seat].legs.push(leg.into());
    if equip {
        s.londoners[seat].equipped = Some(leg.into());
    }
}

fn moving(s: &mut State, steps: u32) {
    s.phase = Phase::Playing(Turn {
        seat: 0,
        stage: Stage::Moving { steps },
    });
}

/// A record-mode table: the board from the pack, everything else typed.
fn record_created() -> GameCreated {
    let mut c = created(2, 1, DiceMode::Physical);
    c.options = [
        ("record", json!("on")),
        ("sickroom_fee", json!(2)),
        ("banker", json!(1)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    c
}
