//! Tests of the London Dread kind: rules on tables set by hand, and whole
//! games of seeded random legal play (digital dice) checked against the
//! invariants after every event.
//!
//! This file holds the tables the tests sit down at; each topic has its own
//! file.

mod characters;
mod deal;
mod investigate;
mod options;
mod planning;
mod play;
mod record;
mod sensible;
mod shapes;
mod state;
mod story;

use std::collections::BTreeMap;

use serde_json::{json, Value};
use tabletape_events::{Body, DiceMode, Event, GameCreated, Seat};

use crate::testkit::{self, event};
use tabletape_engine::dread::actions::Fact;
use tabletape_engine::dread::content::{Condition, Pack, Trait};
use tabletape_engine::dread::state::{
    Face, Phase, Place, Spot, State, Target, DREAD_LIMIT, VIRTUES,
};
use tabletape_engine::dread::Dread;
use tabletape_engine::game::Game;
use tabletape_engine::rng::TableRng;
use tabletape_engine::rules::{Rules, Viewer};

/// 2026-11-26 09:00:00 UTC, when the tests' tables sit down.
const T0: u64 = 1_795_683_600_000;

const MINUTE: u64 = 60_000;

fn pack() -> Pack {
    testkit::pack::<Dread>()
}

fn created(players: usize, seed: u64, dice: DiceMode, options: &[(&str, &str)]) -> GameCreated {
    let options: serde_json::Map<String, Value> = options
        .iter()
        .map(|(k, v)| (k.to_string(), Value::from(*v)))
        .collect();
    testkit::created::<Dread>(players, seed, dice, Value::Object(options))
}

/// A game being played, with its events kept to fold again.
struct Table {
    game: Game,
    events: Vec<Event>,
    now: u64,
}

impl Table {
    fn new(created: GameCreated) -> Table {
        let first = event(1, T0, None, Body::GameCreated(created));
        Table {
            game: Game::from_first(&first).unwrap(),
            events: vec![first],
            now: T0,
        }
    }

    fn state(&self) -> State {
        self.game.state_as::<State>().expect("a Dread game").clone()
    }

    fn try_act(
        &mut self,
        by: Option<Seat>,
        action: Value,
    ) -> Result<Vec<Fact>, tabletape_engine::Rejection> {
        self.now += 1_000;
        let d = self.game.decide_at(by, &action, Viewer::Owner, self.now)?;
        let facts: Vec<Fact> = d
            .body
            .facts
            .iter()
            .map(|f| serde_json::from_str(f.get()).unwrap())
            .collect();
        let ev = event(
            self.game.seq() + 1,
            self.now,
            by,
            Body::ActionAccepted(d.body),
        );
        self.game.apply(&ev).unwrap();
        self.events.push(ev);
        Ok(facts)
    }

    fn act(&mut self, action: Value) -> Vec<Fact> {
        self.try_act(None, action.clone())
            .unwrap_or_else(|e| panic!("{action}: {e}"))
    }

    fn refused(&mut self, by: Option<Seat>, action: Value) -> tabletape_engine::Rejection {
        let before = self.game.seq();
        let r = self
            .try_act(by, action.clone())
            .expect_err(&format!("{action} should be refused"));
        assert_eq!(self.game.seq(), before);
        r
    }

    fn legal(&self) -> Vec<Value> {
        self.game
            .legal_at(None, self.now)
            .into_iter()
            .filter(|l| l.needs.is_empty())
            .map(|l| l.action)
            .collect()
    }
}

fn kind_of(action: &Value) -> String {
    action["type"].as_str().unwrap_or_default().to_string()
}

/// Picks an action type at random, then an action of that type, so long
/// lists (clock slots) do not drown out the rest; planning gets a few
/// dozen moves before the story begins.
fn pick(rng: &mut TableRng, legal: &[Value], planned: &mut u32) -> Value {
    let mut types: Vec<String> = legal.iter().map(kind_of).collect();
    types.sort();
    types.dedup();
    if types.iter().any(|t| t == "begin_story") && *planned < 40 {
        types.retain(|t| t != "begin_story");
        *planned += 1;
    }
    let t = &types[rng.below(types.len() as u32) as usize];
    let of: Vec<&Value> = legal.iter().filter(|a| &kind_of(a) == t).collect();
    of[rng.below(of.len() as u32) as usize].clone()
}

/// A 4-player introductory game, planning started at T0 + 1 s.
fn started(seed: u64) -> Table {
    let mut t = Table::new(created(4, seed, DiceMode::Digital, &[]));
    t.act(json!({"type": "start_planning"}));
    t
}

fn dealt(s: &State, want: &dyn Fn(&Spot) -> bool) -> Place {
    (0..24)
        .map(Place::of_index)
        .find(|p| want(&s.locations[p.index().unwrap()]))
        .expect("such a card lies somewhere")
}

fn down_dread(spot: &Spot) -> bool {
    matches!(
        spot,
        Spot::Down {
            card: Some(tabletape_engine::dread::state::Card::Dread(_))
        }
    )
}

fn down_placeholder(spot: &Spot) -> bool {
    matches!(
        spot,
        Spot::Down {
            card: Some(tabletape_engine::dread::state::Card::Placeholder)
        }
    )
}

/// Plans `clock` (slot, token) for character 0 and the story begins.
fn story_with(t: &mut Table, plans: &[(usize, u8, Value)]) {
    for (c, slot, token) in plans {
        let mut a = json!({"type": "place", "character": c, "slot": slot});
        for (k, v) in token.as_object().unwrap() {
            a[k] = v.clone();
        }
        t.act(a);
    }
    t.act(json!({"type": "begin_story", "leader": 0}));
}

/// Sends characters `who` from the West Streets to `p` (an arrow at 6
/// a.m. if it is in another area, its number at 8 a.m.), begins the story
/// and calls the first two actions.
fn story_at(t: &mut Table, p: Place, who: std::ops::Range<usize>) {
    let area = format!("{:?}", p.area).to_lowercase();
    let mut plans = vec![];
    for c in who {
        if p.area != tabletape_engine::dread::state::Area::West {
            plans.push((c, 1u8, json!({"number": 1, "arrow": area})));
        }
        plans.push((c, 2u8, json!({"number": p.spot})));
    }
    story_with(t, &plans);
    t.act(json!({"type": "next_action"}));
    t.act(json!({"type": "next_action"}));
}

/// Reveals every placeholder (A-E on the board) and parks character 0 on
/// Plot `letter` at slot 1; the story begins and the first action is called.
fn at_plot(seed: u64, letter: char, everyone: bool) -> (Table, Place) {
    let mut t = started(seed);
    loop {
        let s = t.state();
        if !s.locations.iter().any(down_placeholder) {
            break;
        }
        let p = dealt(&s, &down_placeholder);
        t.act(json!({"type": "reveal", "location": p.to_string()}));
    }
    let s = t.state();
    let (_, p) = *s.plots.iter().find(|(l, _)| *l == letter).unwrap();
    story_at(&mut t, p, if everyone { 0..4 } else { 0..1 });
    (t, p)
}

/// The table's game with its state changed by `change` (a hand-set table).
fn rigged(t: &mut Table, change: impl FnOnce(&mut State)) {
    let mut s = t.state();
    change(&mut s);
    t.game = Game::restore(
        t.game.created(),
        &tabletape_engine::game::Snapshot {
            seq: t.game.seq(),
            seed: t.game.created().seed,
            chapter: "rigged".into(),
            state: tabletape_engine::SavedState::of(&s),
            notes: Default::default(),
            dice: None,
        },
    )
    .unwrap();
}
