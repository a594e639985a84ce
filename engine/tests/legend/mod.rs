//! LEGEND rule tests: one per constraining sentence of the rule text, each
//! illegal action refused with its rule id; coins in both dice modes; the
//! score table; and seeded random legal play to the end. This file holds
//! the tables the tests play on; each topic has its own file.

mod abilities;
mod battles;
mod moving;
mod placement;
mod play;
mod setup;
mod svg;
mod voting;

use serde_json::{json, Value};
use tabletape_events::{ActionAccepted, Body, DiceMode, Event, GameCreated, SCHEMA_VERSION};

use crate::testkit;
use tabletape_engine::game::Game;
use tabletape_engine::rng::TableRng;

use tabletape_engine::legend::Legend;

fn created(players: usize, options: Value, dice: DiceMode, seed: u64) -> GameCreated {
    testkit::created::<Legend>(players, seed, dice, options)
}

/// A game in play, acting as the owner.
struct Table {
    game: Game,
}

impl Table {
    fn new(players: usize, options: Value) -> Table {
        Table::with(players, options, DiceMode::Digital, 1)
    }

    fn with(players: usize, options: Value, dice: DiceMode, seed: u64) -> Table {
        Table {
            game: Game::start(&created(players, options, dice, seed)).unwrap(),
        }
    }

    fn try_act(&mut self, action: Value) -> Result<Vec<String>, tabletape_engine::Rejection> {
        let d = self.game.decide(None, &action)?;
        let body = Body::ActionAccepted(ActionAccepted {
            action,
            facts: d.body.facts,
            chance: d.body.chance,
            fold_form: Default::default(),
        });
        let event = Event {
            schema_version: SCHEMA_VERSION,
            ..testkit::event(self.game.seq() + 1, 0, None, body)
        };
        self.game
            .apply_as(&event, tabletape_engine::Viewer::Owner)
            .map_err(|e| tabletape_engine::Rejection::new("engine", e.to_string()))
    }

    fn act(&mut self, action: Value) -> Vec<String> {
        self.try_act(action.clone())
            .unwrap_or_else(|e| panic!("{action} refused: {e}"))
    }

    fn refused(&mut self, action: Value, rule: &str) -> String {
        match self.try_act(action.clone()) {
            Ok(lines) => panic!("{action} was accepted: {lines:?}"),
            Err(e) => {
                assert_eq!(e.rule, rule, "{action}: {}", e.message);
                e.message
            }
        }
    }

    fn state(&self) -> Value {
        self.game.view(tabletape_engine::Viewer::Owner)
    }
}

impl Table {
    /// A game past introductions (Avatars #1, #3, #5, #7; Talismans #2, #4, ...).
    fn started(players: usize, options: Value) -> Table {
        Table::started_with(players, options, DiceMode::Digital)
    }

    fn started_with(players: usize, options: Value, dice: DiceMode) -> Table {
        let mut game_options = options.clone();
        if let Some(o) = game_options.as_object_mut() {
            o.remove("ability_of");
        }
        let mut t = Table::with(players, game_options, dice, 3);
        let abilities = options["abilities"] == json!("on");
        for seat in 0..players {
            let mut a = json!({"type": "introduce", "seat": seat, "avatar": {"name": format!("Avatar{seat}")}, "talisman": {"name": format!("Talisman{seat}")}, "symbol": format!("sym{seat}")});
            if abilities {
                a["ability"] = options["ability_of"][seat].clone();
            }
            t.act(a);
        }
        t
    }

    fn try_as(
        &mut self,
        seat: u32,
        action: Value,
    ) -> Result<Vec<String>, tabletape_engine::Rejection> {
        self.game.decide(Some(seat), &action).map(|d| d.narration)
    }

    fn blank(&self, squares: &[&str]) -> Value {
        let scenery = &self.state()["scenery"];
        let mut m = serde_json::Map::new();
        for sq in squares {
            if scenery.get(*sq).is_none() {
                m.insert(sq.to_string(), json!(format!("scenery of {sq}")));
            }
        }
        Value::Object(m)
    }

    fn step(&self, piece: u32, path: &[&str]) -> Value {
        json!({"piece": piece, "path": path, "scenery": self.blank(path)})
    }

    fn mv(&mut self, piece: u32, path: &[&str]) -> Vec<String> {
        let st = self.step(piece, path);
        self.act(json!({"type": "move", "pieces": [st]}))
    }

    fn mv_refused(&mut self, piece: u32, path: &[&str], rule: &str) -> String {
        let st = self.step(piece, path);
        self.refused(json!({"type": "move", "pieces": [st]}), rule)
    }

    fn place(&mut self, category: &str, squares: &[&str]) -> Vec<String> {
        let a = self.placement(category, squares);
        self.act(a)
    }

    fn placement(&self, category: &str, squares: &[&str]) -> Value {
        json!({"type": "place", "object": {"name": format!("a {category}"), "category": category}, "squares": squares, "scenery": self.blank(squares)})
    }

    fn pass(&mut self) {
        self.act(json!({"type": "pass"}));
    }

    fn piece(&self, id: u32) -> Value {
        self.state()["pieces"][id.to_string()].clone()
    }

    fn at(&self, id: u32) -> Value {
        self.piece(id)["at"].clone()
    }

    fn current(&self) -> u64 {
        let s = self.state();
        s["order"][s["turn"].as_u64().unwrap() as usize]
            .as_u64()
            .unwrap()
    }
}

/// Ada walks her Avatar to c3, claiming her Reach and the Heartland, and
/// the others pass: her turn again.
fn heartland(t: &mut Table) {
    t.mv(1, &["a1"]);
    t.mv(1, &["b2", "c3"]);
    t.pass();
    t.pass();
}

fn on(sq: &str) -> Value {
    json!({"where": "map", "squares": [sq]})
}

/// Ada's Avatar at c3 (Heartland hers), Bo's at d3 two moves later.
fn crossroads() -> Table {
    let mut t = Table::started(3, json!({}));
    t.mv(1, &["a1"]);
    t.mv(1, &["b2", "c3"]);
    t.mv(3, &["f1"]);
    t.mv(3, &["e2", "d3"]);
    t.pass();
    t
}

/// Four seats with Abilities; Ada at c3 (Heartland), Bo at d3, Cy and Dee at home.
fn ability_table(abilities: [&str; 4]) -> Table {
    let mut t = Table::started(4, json!({"abilities": "on", "ability_of": abilities}));
    t.mv(1, &["a1"]);
    t.mv(1, &["b2", "c3"]);
    t.mv(3, &["f1"]);
    t.mv(3, &["e2", "d3"]);
    t.pass();
    t.pass();
    t
}
