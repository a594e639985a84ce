//! LEGEND rule tests: one per constraining sentence of the rule text, each
//! illegal action refused with its rule id; coins in both dice modes; the
//! score table; and seeded random legal play to the end.

use std::collections::BTreeMap;

use serde_json::{json, Value};
use tabletape_events::{ActionAccepted, Actor, Body, DiceMode, Event, GameCreated, SCHEMA_VERSION};

use crate::game::Game;
use crate::rng::TableRng;
use crate::rules::Rules;

use super::Legend;

fn created(players: usize, options: Value, dice: DiceMode, seed: u64) -> GameCreated {
    GameCreated {
        title: None,
        kind: "legend".into(),
        players: ["Ada", "Bo", "Cy", "Dee"][..players]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        seed,
        dice,
        options: serde_json::from_value::<BTreeMap<String, Value>>(options).unwrap(),
        pack: Legend::default_pack(),
        public: false,
        rules_version: Some(Legend::RULES_VERSION),
        chance_version: None,
    }
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

    fn try_act(&mut self, action: Value) -> Result<Vec<String>, crate::Rejection> {
        let d = self.game.decide(None, &action)?;
        let event = Event {
            game: "g".into(),
            branch: "main".into(),
            seq: self.game.seq() + 1,
            recorded_at_ms: 0,
            actor: Actor::Owner,
            schema_version: SCHEMA_VERSION,
            idempotency_key: None,
            prev_hash: String::new(),
            hash: String::new(),
            salt: String::new(),
            body: Body::ActionAccepted(ActionAccepted {
                action,
                facts: d.body.facts,
                chance: d.body.chance,
            }),
        };
        self.game
            .apply_as(&event, crate::Viewer::Owner)
            .map_err(|e| crate::Rejection::new("engine", e.to_string()))
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
        self.game.view(crate::Viewer::Owner)
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

    fn try_as(&mut self, seat: u32, action: Value) -> Result<Vec<String>, crate::Rejection> {
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

#[test]
fn seeded_random_legal_games_run_to_their_end() {
    for (players, options) in [
        (3, json!({})),
        (
            4,
            json!({"voting": "on", "duels": "on", "abilities": "on", "first": 2}),
        ),
        (3, json!({"abilities": "on", "duels": "on"})),
    ] {
        for seed in 0..6u64 {
            let mut t = Table::with(players, options.clone(), DiceMode::Digital, seed);
            let mut rng = TableRng::for_event(seed, 99);
            let mut steps = 0;
            loop {
                let legal: Vec<_> = t
                    .game
                    .legal(None)
                    .into_iter()
                    .map(|l| l.with_words())
                    .filter(|l| l.needs.is_empty())
                    .collect();
                if legal.is_empty() {
                    break;
                }
                assert!(
                    legal.len() < 2000,
                    "too many legal actions: {}",
                    legal.len()
                );
                let pick = legal[rng.below(legal.len() as u32) as usize].action.clone();
                t.act(pick);
                steps += 1;
                assert!(steps < 400, "seed {seed}: the game did not end");
            }
            assert!(
                t.game.is_over(),
                "seed {seed}: no legal action but not over"
            );
        }
    }
}

#[test]
fn introductions_come_first_and_symbols_differ() {
    let mut t = Table::new(3, json!({}));
    t.refused(json!({"type": "pass"}), "legend.setup.introductions");
    t.act(json!({"type": "introduce", "avatar": {"name": "Kettle"}, "talisman": {"name": "Spoon"}, "symbol": "star"}));
    t.refused(
        json!({"type": "introduce", "avatar": {"name": "Moss"}, "talisman": {"name": "Crown"}, "symbol": "star"}),
        "legend.setup.symbol_taken",
    );
    t.refused(
        json!({"type": "introduce", "seat": 0, "avatar": {"name": "Moss"}, "talisman": {"name": "Crown"}, "symbol": "cross"}),
        "legend.setup.introduced",
    );
    t.refused(
        json!({"type": "introduce", "avatar": {"name": " "}, "talisman": {"name": "Crown"}, "symbol": "cross"}),
        "legend.object.name",
    );
    // The Avatar and Talisman wait at the seat's Corner.
    assert_eq!(t.at(1), json!({"where": "corner", "corner": 0}));
    assert_eq!(t.at(2), json!({"where": "corner", "corner": 0}));
}

#[test]
fn abilities_are_chosen_only_when_on_and_custom_ones_need_a_vote() {
    let mut t = Table::new(3, json!({"abilities": "on"}));
    t.refused(json!({"type": "introduce", "avatar": {"name": "K"}, "talisman": {"name": "S"}, "symbol": "a"}), "legend.ability.choose");
    t.refused(
        json!({"type": "introduce", "avatar": {"name": "K"}, "talisman": {"name": "S"}, "symbol": "a", "ability": "custom", "custom": {"name": "Echo"}}),
        "legend.ability.custom_vote",
    );
    t.refused(
        json!({"type": "introduce", "avatar": {"name": "K"}, "talisman": {"name": "S"}, "symbol": "a", "ability": "custom", "custom": {"name": "Echo"}, "votes": {"against": [1, 2]}}),
        "legend.ability.custom_vote",
    );
    // A tie goes to the player asking.
    t.act(json!({"type": "introduce", "avatar": {"name": "K"}, "talisman": {"name": "S"}, "symbol": "a", "ability": "custom", "custom": {"name": "Echo"}, "votes": {"for": [1], "against": [2]}}));
    assert_eq!(t.state()["seats"][0]["ability"], json!("custom"));
}

#[test]
fn turns_are_two_actions_in_order_from_the_first_player() {
    let mut t = Table::started(3, json!({"first": 1}));
    assert_eq!(t.current(), 1);
    assert_eq!(
        t.try_as(0, json!({"type": "pass"})).unwrap_err().rule,
        "legend.turn.not_yours"
    );
    t.mv(3, &["f1"]);
    assert_eq!(t.current(), 1);
    t.mv(3, &["e2", "d3"]);
    assert_eq!(t.current(), 2, "two actions end the turn");
    t.pass();
    assert_eq!(t.current(), 0, "clockwise wraps to seat 0");
    assert_eq!(t.state()["round"], json!(1));
    t.pass();
    assert_eq!(t.state()["round"], json!(2));
}

#[test]
fn moves_are_one_or_two_neighbouring_squares_and_corners_take_the_whole_move() {
    let mut t = Table::started(3, json!({}));
    let msg = t.mv_refused(1, &["b2"], "legend.move.corner");
    assert!(msg.contains("a1"), "{msg}");
    t.mv(1, &["a1"]);
    t.mv_refused(1, &["b1", "c1", "d1"], "legend.move.distance");
    t.mv_refused(1, &["c3"], "legend.move.distance");
    let lines = t.mv(1, &["b2", "c3"]);
    assert!(
        lines.iter().any(|l| l.contains("claims the Heartland")),
        "{lines:?}"
    );
    assert_eq!(t.at(1), on("c3"));
    assert_eq!(t.state()["claims"]["4"], json!(0));
}

#[test]
fn blank_squares_need_scenery_and_the_error_names_them() {
    let mut t = Table::started(3, json!({}));
    let msg = t.refused(
        json!({"type": "move", "pieces": [{"piece": 1, "path": ["a1"]}]}),
        "legend.move.scenery",
    );
    assert!(msg.contains("a1"), "{msg}");
    t.refused(
        json!({"type": "move", "pieces": [{"piece": 1, "path": ["a1"], "scenery": {"a1": "x", "b2": "y"}}]}),
        "legend.scenery.not_blank",
    );
    t.mv(1, &["a1"]);
    assert_eq!(t.state()["scenery"]["a1"], json!("scenery of a1"));
    // Placing into an uncharted square needs Scenery too.
    t.refused(
        json!({"type": "place", "object": {"name": "key", "category": "item"}, "squares": ["d4"]}),
        "legend.placement.scenery",
    );
}

#[test]
fn placement_rules_for_every_category() {
    let mut t = Table::started(3, json!({}));
    t.mv(1, &["a1"]);
    t.mv(1, &["b2", "c3"]);
    t.pass(); // Bo
    t.pass(); // Cy
              // Ada holds the Northwest Reach (start) and the Heartland.
    let item_home = t.placement("item", &["b1"]);
    t.refused(item_home, "legend.placement.item_home_square");
    let monster_away = t.placement("monster", &["e4"]);
    t.refused(monster_away, "legend.placement.monster_territory");
    let monument_split = t.placement("monument", &["b4", "c4"]);
    t.refused(monument_split, "legend.placement.monument_one_large");
    let monument_away = t.placement("monument", &["e4"]);
    t.refused(monument_away, "legend.placement.monument_territory");
    t.refused(
        json!({"type": "place", "object": {"name": "h", "category": "hero"}, "squares": ["c4"]}),
        "legend.placement.hero_corner",
    );
    t.refused(
        json!({"type": "place", "object": {"name": "w", "category": "obstacle", "description": "a thing in the way"}, "at": "+e5"}),
        "legend.placement.obstacle_territory",
    );
    t.refused(json!({"type": "place", "object": {"name": "w", "category": "obstacle", "description": "a thing in the way"}, "squares": ["c4"]}), "legend.placement.obstacle_crossing");
    t.refused(
        json!({"type": "place", "object": {"name": "w", "category": "avatar"}, "squares": ["c4"]}),
        "legend.placement.category",
    );
    let on_avatar = t.placement("monster", &["c3"]);
    t.refused(on_avatar, "legend.placement.square_taken");
    // A Monster may cover several own squares; a Hero waits at the Corner.
    t.place("monster", &["c4", "d4"]);
    t.act(json!({"type": "place", "object": {"name": "h", "category": "hero"}}));
    assert_eq!(t.at(7)["squares"], json!(["c4", "d4"]));
    assert_eq!(t.at(8), json!({"where": "corner", "corner": 0}));
}

#[test]
fn obstacles_sit_on_claimed_crossings_away_from_opponents_starts() {
    let mut t = Table::started(3, json!({}));
    heartland(&mut t);
    // +d4 touches c3, d3, c4 and d4: all in the Heartland, Ada's.
    t.act(
        json!({"type": "place", "object": {"name": "wall", "category": "obstacle", "description": "a thing in the way"}, "at": "+d4"}),
    );
    t.refused(
        json!({"type": "place", "object": {"name": "wall", "category": "obstacle", "description": "a thing in the way"}, "at": "+d4"}),
        "legend.placement.crossing_taken",
    );
    // Bo claims the Northern Reach next to his start; +e2 touches his start Reach, where Ada may never put one.
    let mut u = Table::started(3, json!({}));
    u.mv(1, &["a1"]);
    u.mv(1, &["b1", "c1"]);
    u.mv(3, &["f1"]);
    u.pass();
    u.pass();
    u.mv(1, &["d1", "e1"]); // Bo has claimed the Northeast Reach already
    u.refused(
        json!({"type": "place", "object": {"name": "w", "category": "obstacle", "description": "a thing in the way"}, "at": "+e2"}),
        "legend.placement.obstacle_territory",
    );
    // Ada claims Cy's empty starting Reach, but may not put an Obstacle there.
    let mut v = crossroads();
    v.mv(1, &["d4", "e5"]);
    assert_eq!(v.state()["claims"]["8"], json!(0));
    v.refused(
        json!({"type": "place", "object": {"name": "w", "category": "obstacle", "description": "a thing in the way"}, "at": "+f6"}),
        "legend.placement.obstacle_opponent_start",
    );
}

#[test]
fn obstacles_need_an_item_once_and_the_passage_is_recorded() {
    let mut t = Table::started(3, json!({}));
    t.mv(1, &["a1"]);
    t.mv(1, &["b1", "c1"]);
    t.mv(3, &["f1"]);
    t.act(
        json!({"type": "place", "object": {"name": "cables", "category": "obstacle", "description": "a thing in the way"}, "at": "+f2"}),
    ); // #7
    t.pass();
    let msg = t.mv_refused(1, &["d1", "e1"], "legend.obstacle.item_needed");
    assert!(msg.contains("cables"), "{msg}");
    t.pass(); // Ada
    t.pass(); // Bo
    t.place("item", &["d1"]); // #8, Cy's
    t.pass();
    t.mv_refused(1, &["d1", "e1"], "legend.story.needed");
    let mut st = t.step(1, &["d1", "e1"]);
    st["story"] = json!("snips the cables");
    let lines = t.act(json!({"type": "move", "pieces": [st]}));
    assert!(
        lines.iter().any(|l| l.contains("gets past cables")),
        "{lines:?}"
    );
    assert_eq!(t.state()["seats"][0]["passed"], json!([7]), "Ada's passage");
    assert_eq!(t.at(8), json!({"where": "stockpile", "seat": 0}));
    // Passing again needs no Item.
    t.mv(1, &["f1"]);
    // The owner of an Obstacle passes it freely.
    t.mv(3, &["e2"]);
    t.pass(); // Bo
    t.pass(); // Cy
              // The passage is Ada's: her new Hero, with no Item, passes too.
    t.act(json!({"type": "place", "object": {"name": "Squire", "category": "hero"}})); // #9
    t.mv(9, &["a1"]);
    t.pass(); // Bo
    t.pass(); // Cy
    t.mv(9, &["b1", "c1"]);
    let lines = t.mv(9, &["d1", "e1"]);
    assert!(
        !lines.iter().any(|l| l.contains("passes the Obstacle")),
        "{lines:?}"
    );
    assert_eq!(t.at(9), on("e1"));
}

#[test]
fn items_are_picked_up_one_at_a_time_unless_swapped_or_pocketed() {
    let mut t = Table::started(3, json!({}));
    t.place("item", &["c1"]); // #7
    t.place("item", &["c2"]); // #8
    t.pass();
    t.pass();
    t.mv(1, &["a1"]);
    t.mv(1, &["b1", "c1"]);
    assert_eq!(t.at(7), json!({"where": "held", "by": 1}));
    t.pass();
    t.pass();
    t.mv(1, &["c2"]);
    assert_eq!(t.at(8), on("c2"), "one Item each");
    t.mv(1, &["c1"]);
    let mut st = t.step(1, &["c2"]);
    t.pass();
    t.pass();
    st["swap"] = json!(true);
    t.act(json!({"type": "move", "pieces": [st]}));
    assert_eq!(t.at(8), json!({"where": "held", "by": 1}));
    assert_eq!(t.at(7), on("c2"));
    // With Pocket, two Items ride along.
    let mut p = Table::started(
        3,
        json!({"abilities": "on", "ability_of": ["pocket", "gamble", "charm"]}),
    );
    p.place("item", &["c1"]);
    p.place("item", &["c2"]);
    p.pass();
    p.pass();
    p.mv(1, &["a1"]);
    p.mv(1, &["b1", "c1"]);
    p.pass();
    p.pass();
    p.mv(1, &["c2"]);
    assert_eq!(p.at(8), json!({"where": "held", "by": 1}));
    assert_eq!(p.at(7), json!({"where": "held", "by": 1}));
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

#[test]
fn unarmed_avatars_lose_to_monsters_and_respawn_dropping_talismans() {
    let mut t = crossroads();
    t.place("monster", &["c4"]); // #7
    t.pass();
    let lines = t.mv(3, &["c4"]);
    assert!(lines.iter().any(|l| l.contains("Battle!")), "{lines:?}");
    assert_eq!(t.at(3), json!({"where": "corner", "corner": 1}));
    assert_eq!(t.at(7), on("c4"));
}

#[test]
fn armed_avatars_beat_monsters_and_stockpile_them() {
    let mut t = crossroads();
    t.place("monster", &["c4"]); // #7
    t.pass();
    t.place("item", &["d2"]); // #8 Bo's
    t.mv(3, &["d2"]);
    t.pass();
    t.pass();
    let mut st = t.step(3, &["c3", "c4"]);
    st["story"] = json!("the key jams its jaws");
    t.act(json!({"type": "move", "pieces": [st]}));
    assert_eq!(t.at(7), json!({"where": "stockpile", "seat": 1}));
    assert_eq!(t.at(8), json!({"where": "stockpile", "seat": 1}));
    assert_eq!(t.at(3), on("c4"));
}

/// Ada's Monster (#7) takes Bo's unarmed Avatar at d3, then Bo's Monster
/// (#8) falls on Ada's there; Ada's turn comes next.
fn monsters_fought() -> Table {
    let mut t = crossroads();
    // Bo claims nothing in the Heartland; give him a Monster at home.
    t.place("monster", &["c4"]); // #7 Ada's
    t.pass();
    t.place("monster", &["e2"]); // #8 Bo's
    t.pass();
    t.pass();
    t.act(json!({"type": "move", "pieces": [{"piece": 7, "path": ["d3"]}]}));
    t.pass();
    t.act(json!({"type": "move", "pieces": [{"piece": 8, "path": ["d3"]}]}));
    t.pass();
    t.pass();
    t
}

#[test]
fn monsters_attack_the_aggressor_wins_between_monsters_and_sieges_destroy() {
    let mut t = monsters_fought();
    // Ada's Monster took Bo's unarmed Avatar, which went home.
    assert_eq!(t.at(3), json!({"where": "corner", "corner": 1}));
    // Bo's Monster fell on Ada's: the aggressor won.
    assert_eq!(t.at(7), json!({"where": "stockpile", "seat": 1}));
    // Ada builds a Monument at c3 (she stands there) elsewhere: d4, and occupies it.
    t.place("monument", &["d4"]); // #9
    t.mv(1, &["d4"]);
    t.act(json!({"type": "move", "pieces": [{"piece": 8, "path": ["d4"]}]}));
    assert_eq!(
        t.at(1),
        json!({"where": "corner", "corner": 0}),
        "the unarmed occupant falls"
    );
    assert_eq!(
        t.at(8),
        json!({"where": "destroyed"}),
        "and the Monster breaks"
    );
}

#[test]
fn occupied_monuments_bar_other_characters_and_monsters_cannot_enter_corners() {
    let mut t = crossroads();
    t.place("monument", &["d4"]); // #7
    t.mv(1, &["d4"]);
    let msg = t.mv_refused(3, &["d4"], "legend.monument.occupied");
    assert!(msg.contains("Avatar0"), "{msg}");
    let mut u = crossroads();
    u.place("monster", &["a1"]);
    u.pass();
    u.pass();
    u.pass();
    u.refused(
        json!({"type": "move", "pieces": [{"piece": 7, "exit": true}]}),
        "legend.move.monster_corner",
    );
    u.refused(
        json!({"type": "move", "pieces": [{"piece": 7, "path": ["b2", "c3", "d4"]}]}),
        "legend.move.distance",
    );
}

#[test]
fn large_monsters_stop_when_touching_more_than_one_new_square() {
    let mut t = crossroads();
    t.place("monster", &["c4", "d4"]); // #7
    t.pass();
    t.pass();
    t.pass();
    // Moving sideways west: the first step touches b4 (one new square) then a4 (one new): fine.
    // Moving north: c3 and d3 are both new, so the move ends there.
    let msg = t.refused(
        json!({"type": "move", "pieces": [{"piece": 7, "path": ["c5", "c6"]}]}),
        "legend.move.large_monster",
    );
    assert!(msg.contains("2 new squares"), "{msg}");
    t.act(json!({"type": "move", "pieces": [{"piece": 7, "path": ["b4", "a4"]}]}));
    assert_eq!(t.at(7)["squares"], json!(["a4", "b4"]));
}

#[test]
fn talismans_are_taken_at_the_owners_corner_and_win_in_a_monument() {
    let mut t = Table::started(3, json!({}));
    t.mv(1, &["a1"]);
    t.mv(1, &["b1", "c1"]);
    t.mv(3, &["f1"]);
    t.mv(3, &["e2", "d3"]);
    t.pass();
    t.place("monument", &["d2"]); // #7
    t.mv(1, &["d1", "e1"]);
    t.pass();
    t.pass();
    t.mv(1, &["f1"]);
    t.refused(
        json!({"type": "move", "pieces": [{"piece": 1, "exit": true, "path": ["f1"]}]}),
        "legend.move.corner",
    );
    t.act(json!({"type": "move", "pieces": [{"piece": 1, "exit": true}]}));
    assert_eq!(t.at(4), json!({"where": "held", "by": 1}));
    // The Talisman carried by a piece standing in a Corner is shown.
    let text = t.game.render(crate::Viewer::Owner);
    assert!(
        text.contains("#1 Avatar0 (Avatar, carrying Talisman1 (Talisman))"),
        "{text}"
    );
    t.pass();
    t.pass();
    t.mv(1, &["f1"]);
    let lines = t.mv(1, &["e1", "d2"]);
    assert!(
        lines.iter().any(|l| l.contains("wins the legend")),
        "{lines:?}"
    );
    assert!(t.game.is_over());
    assert_eq!(t.state()["outcome"]["by"], json!("talisman"));
    assert!(t.game.legal(None).is_empty());
}

#[test]
fn a_dropped_talisman_cannot_be_picked_up_by_its_owner() {
    let mut t = Table::started(3, json!({}));
    t.mv(1, &["a1"]);
    t.mv(1, &["b1", "c1"]);
    t.mv(3, &["f1"]);
    t.mv(3, &["e2", "d2"]);
    t.pass();
    t.mv(1, &["d1", "e1"]);
    t.mv(1, &["f1"]);
    t.place("monster", &["e1"]); // #7, Bo's own Reach
    t.pass();
    t.pass();
    t.act(json!({"type": "move", "pieces": [{"piece": 1, "exit": true}]}));
    t.mv(1, &["f1"]);
    // Bo's Monster falls on Ada at f1; Bo's Talisman drops there.
    t.act(json!({"type": "move", "pieces": [{"piece": 7, "path": ["f1"]}]}));
    assert_eq!(t.at(4), on("f1"));
    t.mv(3, &["e1"]);
    t.pass();
    t.pass();
    t.mv(3, &["f1"]);
    assert_eq!(t.at(4), on("f1"), "the owner may not pick it up");
}

#[test]
fn voting_twice_failed_outcomes_and_ties_favour_the_teller() {
    let mut t = Table::started(3, json!({"voting": "on"}));
    t.mv(1, &["a1"]);
    t.mv(1, &["b2", "c3"]);
    t.mv(3, &["f1"]);
    t.mv(3, &["e2", "d3"]);
    t.pass();
    t.place("monster", &["c4"]); // #7
    t.pass();
    t.place("item", &["d2"]); // #8
    t.mv(3, &["d2"]);
    t.pass();
    t.pass();
    let mut st = t.step(3, &["c3", "c4"]);
    st["story"] = json!("a weak story");
    st["votes"] = json!({"for": [], "against": [0, 2]});
    t.act(json!({"type": "move", "pieces": [st]}));
    // Attacking a Monster and voted down: keeps the Item, falls back.
    assert_eq!(t.at(3), on("c3"));
    assert_eq!(t.at(8), json!({"where": "held", "by": 3}));
    assert_eq!(t.at(7), on("c4"));
    // A tie stands for the teller.
    let mut st = t.step(3, &["c4"]);
    st["story"] = json!("a better story");
    st["votes"] = json!({"for": [2], "against": [0]});
    t.act(json!({"type": "move", "pieces": [st]}));
    assert_eq!(t.at(7), json!({"where": "stockpile", "seat": 1}));
    let mut off = crossroads();
    off.place("monster", &["c4"]);
    off.pass();
    off.place("item", &["d2"]);
    off.mv(3, &["d2"]);
    off.pass();
    off.pass();
    off.refused(
        json!({"type": "move", "pieces": [{"piece": 3, "path": ["c3", "c4"], "story": "s", "votes": {"for": [0]}}]}),
        "legend.voting.off",
    );
}

#[test]
fn gamble_coins_in_digital_and_physical_dice() {
    let opts = json!({"abilities": "on", "ability_of": ["gamble", "pocket", "pocket"]});
    let mut d = Table::started(3, opts.clone());
    let supplied = d.game.decide(None, &json!({"type": "ability", "ability": "gamble", "flipper": 1, "call_heads": true, "heads": true}));
    assert_eq!(supplied.unwrap_err().rule, "dice.digital");
    let decided = d
        .game
        .decide(
            None,
            &json!({"type": "ability", "ability": "gamble", "flipper": 1, "call_heads": true}),
        )
        .unwrap();
    assert_eq!(
        decided.body.chance.len(),
        1,
        "the coin is drawn and recorded"
    );
    d.act(json!({"type": "ability", "ability": "gamble", "flipper": 1, "call_heads": true}));
    let s = d.state();
    assert!(s["actions_allowed"] == json!(4) || d.current() == 1, "{s}");
    let mut p = Table::started_with(3, opts.clone(), DiceMode::Physical);
    p.refused(
        json!({"type": "ability", "ability": "gamble", "flipper": 1, "call_heads": true}),
        "physical.coin_needed",
    );
    let needs: Vec<_> = p
        .game
        .legal(None)
        .into_iter()
        .filter(|l| l.action["ability"] == json!("gamble"))
        .collect();
    assert!(
        !needs.is_empty() && needs.iter().all(|l| !l.needs.is_empty()),
        "{needs:?}"
    );
    // Lost on the first action: the turn ends.
    p.act(json!({"type": "ability", "ability": "gamble", "flipper": 1, "call_heads": true, "heads": false}));
    assert_eq!(p.current(), 1);
    // Won: two more actions.
    let mut w = Table::started_with(3, opts.clone(), DiceMode::Physical);
    w.act(json!({"type": "ability", "ability": "gamble", "flipper": 1, "call_heads": false, "heads": false}));
    w.refused(json!({"type": "ability", "ability": "gamble", "flipper": 1, "call_heads": true, "heads": true}), "legend.ability.once_per_turn");
    w.pass();
    assert_eq!(w.current(), 1);
    let mut x = Table::started_with(3, opts.clone(), DiceMode::Physical);
    x.mv(1, &["a1"]);
    x.act(json!({"type": "ability", "ability": "gamble", "flipper": 2, "call_heads": false, "heads": false}));
    x.mv(1, &["b1"]);
    assert_eq!(x.current(), 0, "four actions this turn");
    x.mv(1, &["c1"]);
    assert_eq!(x.current(), 1);
    // Lost on the second action: the next turn is skipped.
    let mut y = Table::started_with(3, opts, DiceMode::Physical);
    y.mv(1, &["a1"]);
    y.act(json!({"type": "ability", "ability": "gamble", "flipper": 2, "call_heads": true, "heads": false}));
    y.pass();
    y.pass();
    assert_eq!(y.current(), 1, "Ada misses round 2");
}

#[test]
fn duels_need_matching_arms_and_a_tie_is_a_coin() {
    let mut t = Table::started_with(3, json!({"duels": "on"}), DiceMode::Physical);
    t.mv(1, &["a1"]);
    t.mv(1, &["b2", "c3"]);
    t.mv(3, &["f1"]);
    t.mv(3, &["e2", "d3"]);
    t.pass();
    t.mv(1, &["d3"]);
    let duel =
        json!({"type": "duel", "piece": 1, "opponent": 3, "account": "a", "opponent_account": "b"});
    t.refused(duel.clone(), "physical.coin_needed");
    let mut bad = duel.clone();
    bad["votes"] = json!([{"seat": 1, "piece": 1}]);
    t.refused(bad, "legend.duel.vote");
    let mut decided = duel.clone();
    decided["votes"] = json!([{"seat": 2, "piece": 3}]);
    decided["heads"] = json!(true);
    t.refused(decided.clone(), "legend.duel.coin");
    decided.as_object_mut().unwrap().remove("heads");
    t.act(decided);
    assert_eq!(
        t.at(1),
        json!({"where": "corner", "corner": 0}),
        "Cy's vote gives Moss the duel"
    );
    let mut off = crossroads();
    off.refused(
        json!({"type": "duel", "piece": 1, "opponent": 3, "account": "a", "opponent_account": "b"}),
        "legend.duel.off",
    );
}

#[test]
fn the_score_table_and_a_tie_shared() {
    use super::actions::Score;
    let s = |seat, total, talismans, monuments| Score {
        seat,
        total,
        talismans,
        monuments,
        ..Score::default()
    };
    // No tie-break: level on the most points, the victory is shared.
    assert_eq!(
        super::winners(&[s(0, 6, 0, 1), s(1, 6, 1, 0), s(2, 3, 0, 0)]),
        vec![0, 1]
    );
    assert_eq!(super::winners(&[s(0, 7, 0, 0), s(1, 6, 1, 1)]), vec![0]);
    assert_eq!(super::winners(&[s(0, 4, 0, 0), s(1, 4, 0, 0)]), vec![0, 1]);
    // A played game: Ada has a Monster (1), an Obstacle (1) and a Monument (3); Bo a Hero (1).
    let mut t = Table::started(3, json!({}));
    t.mv(1, &["a1"]);
    t.mv(1, &["b2", "c3"]);
    t.act(json!({"type": "place", "object": {"name": "h", "category": "hero"}}));
    t.pass();
    t.pass();
    t.place("monster", &["d4"]);
    t.place("monument", &["c4"]);
    t.pass();
    t.pass();
    t.act(json!({"type": "place", "object": {"name": "w", "category": "obstacle", "description": "a thing in the way"}, "at": "+d4"}));
    let state: super::State = serde_json::from_value(t.state()).unwrap();
    let scores = super::scores(&state);
    assert_eq!(scores[0].total, 5);
    assert_eq!(
        (scores[0].monsters, scores[0].monuments, scores[0].obstacles),
        (1, 1, 1)
    );
    assert_eq!(scores[1].total, 1);
}

#[test]
fn the_game_ends_after_round_seven_on_points() {
    let mut t = Table::started(3, json!({}));
    for _ in 0..21 {
        assert!(!t.game.is_over());
        t.pass();
    }
    assert!(t.game.is_over());
    assert_eq!(t.state()["outcome"]["by"], json!("points"));
    assert_eq!(t.state()["outcome"]["winners"], json!([0, 1, 2]));
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

#[test]
fn rewrite_claims_another_players_reach_during_a_move_or_as_an_action() {
    let mut t = ability_table(["pocket", "rewrite", "pocket", "pocket"]);
    t.pass(); // Ada
    t.refused(
        json!({"type": "move", "pieces": [{"piece": 3, "path": ["e2"], "rewrite": true}]}),
        "legend.ability.rewrite_unclaimed",
    );
    t.act(json!({"type": "ability", "ability": "rewrite", "piece": 3}));
    assert_eq!(t.state()["claims"]["4"], json!(1));
    t.refused(
        json!({"type": "ability", "ability": "rewrite", "piece": 3}),
        "legend.ability.once_per_turn",
    );
}

#[test]
fn shift_long_arm_charm_guile_and_entropy_are_enforced() {
    // Shift: never in a starting Reach.
    let mut s = ability_table(["shift", "pocket", "pocket", "pocket"]);
    s.place("item", &["d4"]); // #9
    s.pass();
    s.place("item", &["c1"]); // #10, Bo's
    s.pass();
    s.place("item", &["a3"]); // #11
    s.pass();
    s.place("item", &["b1"]); // #12, Dee's, in Ada's start
    s.pass();
    s.refused(
        json!({"type": "ability", "ability": "shift", "first": 9, "second": 12}),
        "legend.ability.shift_start",
    );
    s.act(json!({"type": "ability", "ability": "shift", "first": 9, "second": 11}));
    assert_eq!(s.at(9), on("a3"));
    assert_eq!(s.at(11), on("d4"));

    // Long Arm reaches two squares; Charm needs claimed ground.
    let mut l = ability_table(["long_arm", "charm", "pocket", "pocket"]);
    l.place("item", &["b3"]); // #9
    l.mv(1, &["b3"]);
    l.place("monster", &["e1"]); // #10, Bo's
    l.refused(
        json!({"type": "ability", "ability": "charm", "object": 10}),
        "legend.ability.charm_target",
    );
    l.pass();
    l.pass();
    l.pass();
    l.refused(json!({"type": "ability", "ability": "long_arm", "piece": 1, "targets": [10], "story": "throws"}), "legend.ability.long_arm_range");
    l.place("monster", &["c4"]); // #11, Ada's
    l.pass();
    l.refused(
        json!({"type": "ability", "ability": "charm", "object": 11}),
        "legend.ability.charm_territory",
    );
    l.pass();
    l.pass();
    l.pass();
    l.mv(1, &["c3", "d2"]); // now one square from the Monster, Item still in hand
    l.act(json!({"type": "ability", "ability": "long_arm", "piece": 1, "targets": [10], "story": "Sir Kettle hurls the thing two squares"}));
    assert_eq!(l.at(10), json!({"where": "stockpile", "seat": 0}));
    assert_eq!(l.at(9), json!({"where": "stockpile", "seat": 0}));

    // Guile: a Monster becomes a Hero; an occupied Monument cannot change.
    let mut g = ability_table(["guile", "pocket", "pocket", "pocket"]);
    g.place("monster", &["c4"]); // #9
    g.act(json!({"type": "ability", "ability": "guile", "object": 9}));
    assert_eq!(g.piece(9)["category"], json!("hero"));
    for _ in 0..3 {
        g.pass();
    }
    g.place("monument", &["d4"]); // #10
    g.mv(1, &["d4"]);
    for _ in 0..3 {
        g.pass();
    }
    g.refused(
        json!({"type": "ability", "ability": "guile", "object": 10, "at": "+d4"}),
        "legend.ability.guile_occupied",
    );

    // Entropy: everyone picks; a chosen Avatar goes to the chooser's
    // Stockpile as the text says (rules 2), leaving its Item behind.
    let mut e = ability_table(["entropy", "pocket", "pocket", "pocket"]);
    e.place("item", &["d2"]); // #9
    e.pass();
    e.mv(3, &["d2"]);
    for _ in 0..3 {
        e.pass();
    }
    e.refused(
        json!({"type": "ability", "ability": "entropy", "choices": [{"seat": 0, "object": 3}]}),
        "legend.ability.entropy_choices",
    );
    e.act(json!({"type": "ability", "ability": "entropy", "choices": [{"seat": 0, "object": 3}, {"seat": 1, "object": 1}]}));
    assert_eq!(e.at(3), json!({"where": "stockpile", "seat": 0}));
    assert_eq!(e.at(9), on("d2"), "the Item is left behind");
    assert_eq!(e.at(1), json!({"where": "stockpile", "seat": 1}));
    let state: super::State = serde_json::from_value(e.state()).unwrap();
    let ada = &super::scores(&state)[0];
    assert_eq!(
        ada.total,
        ada.items + 2 * (ada.stockpiled_items + ada.stockpiled_heroes + ada.stockpiled_monsters),
        "a Stockpiled Avatar scores nothing: {ada:?}"
    );
}

#[test]
fn render_draws_the_map_with_symbols_occupants_and_objects() {
    let mut t = crossroads();
    t.place("monster", &["c4"]);
    let text = t.game.render(crate::Viewer::Owner);
    println!("{text}");
    assert!(
        text.contains("#0A0 |0A1 #"),
        "Ada's claim, her Avatar and Bo's:\n{text}"
    );
    assert!(text.contains("Symbols: 0 Ada (\"sym0\")"), "{text}");
    assert!(text.contains("Score so far: Ada 1, Bo 0, Cy 0"), "{text}");
    // The grid fits a phone's width, the Reaches' borders drawn apart.
    let grid: Vec<&str> = text.lines().skip(1).take(14).collect();
    assert!(grid.iter().all(|l| l.chars().count() <= 34), "{text}");
    assert_eq!(grid[1], "  #====#====#====#====#====#====#");
    assert_eq!(grid[3], "  #----+----#----+----#----+----#");
    assert!(text.contains("A0"), "Ada's Avatar:\n{text}");
    assert!(text.contains("M0"), "Ada's Monster:\n{text}");
    assert!(
        text.contains("#7 a monster (Ada's Monster) at c4"),
        "{text}"
    );
    assert!(text.contains("- c3: scenery of c3"), "{text}");
}

#[test]
fn legal_still_offers_introductions_when_a_seat_took_a_placeholder_symbol() {
    let mut t = Table::new(3, json!({}));
    // Bo draws the Symbol `legal` would have offered Ada, and Cy the words
    // of the next one: two seats can still introduce themselves.
    t.act(json!({"type": "introduce", "seat": 1, "avatar": {"name": "Moss"}, "talisman": {"name": "Crown"}, "symbol": "<symbol of Ada>"}));
    t.act(json!({"type": "introduce", "seat": 2, "avatar": {"name": "Pip"}, "talisman": {"name": "Cork"}, "symbol": "symbol 2 of Ada"}));
    for seat in [None, Some(0)] {
        let legal = t.game.legal(seat);
        assert!(!legal.is_empty(), "{seat:?}: nothing offered");
        for l in &legal {
            assert_eq!(l.action["symbol"], json!("<symbol 3 of Ada>"));
            // As offered, and in the table's own words, it is accepted.
            t.game.decide(None, &l.action).unwrap();
            t.game.decide(None, &l.with_words().action).unwrap();
        }
    }
    let ada = t.game.legal(None)[0].with_words().action;
    t.act(ada);
    assert!(
        t.game
            .legal(None)
            .iter()
            .any(|l| l.action["type"] == "move"),
        "the game has begun"
    );
}

#[test]
fn squares_and_crossings_are_read_only_in_their_written_form() {
    let mut t = Table::started(3, json!({}));
    // Before, `š3` was read as a3 (the column cut to a byte), and
    // `a+4`, `a04` as a4.
    for bad in [
        "š3", "a+4", "a04", "A1", " a1", "a1 ", "a1\t", "a", "g1", "a7", "a0", "+a1",
    ] {
        let e = t
            .game
            .decide(
                None,
                &json!({"type": "move", "pieces": [{"piece": 1, "path": [bad]}]}),
            )
            .unwrap_err();
        assert!(
            e.message.contains(&format!(
                "`{bad}` is not a square of the map: write a column a-f and a row 1-6, as in c4"
            )),
            "{bad:?}: {}",
            e.message
        );
        // The same as a key of `scenery`.
        let e = t
            .game
            .decide(None, &json!({"type": "move", "pieces": [{"piece": 1, "path": ["a1"], "scenery": {bad: "a meadow"}}]}))
            .unwrap_err();
        assert!(
            e.message.contains("is not a square of the map"),
            "{bad:?}: {}",
            e.message
        );
    }
    for bad in [
        "+c03", "+C3", " +c3", "+c3 ", "c3", "+h1", "+a8", "+š3", "++c3", "-g1", "|a7", "-C3",
    ] {
        let e = t
            .game
            .decide(None, &json!({"type": "place", "object": {"name": "a wall", "category": "obstacle", "description": "a thing in the way"}, "at": bad}))
            .unwrap_err();
        assert!(
            e.message.contains(&format!(
                "`{bad}` is not a place on the grid lines: write +c3 for a crossing"
            )),
            "{bad:?}: {}",
            e.message
        );
    }
    // The written forms themselves still read.
    t.mv(1, &["a1"]);
    assert_eq!(t.at(1), on("a1"));
    let e = t
        .game
        .decide(None, &json!({"type": "place", "object": {"name": "a wall", "category": "obstacle", "description": "a thing in the way"}, "at": "+g7"}))
        .unwrap_err();
    assert_eq!(e.rule, "legend.placement.obstacle_territory");
}

#[test]
fn votes_and_crossings_that_would_be_dropped_are_refused() {
    // Votes judge an Item's use: on a Move that uses none they are refused.
    let mut t = Table::started(3, json!({"voting": "on"}));
    let mut st = t.step(1, &["a1"]);
    st["votes"] = json!({"for": [1]});
    let e = t.refused(
        json!({"type": "move", "pieces": [st]}),
        "legend.voting.unused",
    );
    assert!(e.contains("#1 judge no Item use"), "{e}");
    let mut off = Table::started(3, json!({}));
    let mut st = off.step(1, &["a1"]);
    st["votes"] = json!({"for": [1]});
    off.refused(json!({"type": "move", "pieces": [st]}), "legend.voting.off");

    // A second tally without a retelling would never be counted.
    let mut v = crossroads_voting();
    let mut st = v.step(3, &["c3", "c4"]);
    st["story"] = json!("a weak story");
    st["votes"] = json!({"for": [], "against": [0, 2], "retold_for": [0]});
    let e = v.refused(
        json!({"type": "move", "pieces": [st.clone()]}),
        "legend.voting.retold",
    );
    assert!(e.contains("give `votes.retold` too"), "{e}");
    // Nor after a first telling that stood.
    st["votes"] = json!({"for": [0, 2], "retold_against": [0]});
    v.refused(
        json!({"type": "move", "pieces": [st]}),
        "legend.voting.retold",
    );

    // Votes at an introduction are for a custom Ability only.
    let mut i = Table::new(3, json!({"abilities": "on"}));
    i.refused(
        json!({"type": "introduce", "avatar": {"name": "K"}, "talisman": {"name": "S"}, "symbol": "a", "ability": "pocket", "votes": {"for": [1]}}),
        "legend.ability.custom_vote",
    );
    let mut plain = Table::new(3, json!({}));
    plain.refused(
        json!({"type": "introduce", "avatar": {"name": "K"}, "talisman": {"name": "S"}, "symbol": "a", "votes": {"for": [1]}}),
        "legend.ability.custom_vote",
    );

    // Guile's `at` names the crossing of a Monument turned Obstacle only.
    let mut g = ability_table(["guile", "pocket", "pocket", "pocket"]);
    g.place("monster", &["c4"]); // #9
    let e = g.refused(
        json!({"type": "ability", "ability": "guile", "object": 9, "at": "+c4"}),
        "legend.ability.guile_crossing",
    );
    assert!(e.contains("leave `at` out"), "{e}");
    assert!(
        g.game
            .legal(None)
            .iter()
            .any(|l| l.action["ability"] == "guile"
                && l.action["object"] == 9
                && l.action.get("at").is_none()),
        "legal still offers Guile on the Monster"
    );
    g.act(json!({"type": "ability", "ability": "guile", "object": 9}));
    assert_eq!(g.piece(9)["category"], json!("hero"));
}

/// Ada's Avatar (#3 is Bo's) armed next to Bo's Monster at c4, voting on,
/// Bo to move: the set-up of `voting_twice_failed_outcomes_and_ties_favour_the_teller`.
fn crossroads_voting() -> Table {
    let mut t = Table::started(3, json!({"voting": "on"}));
    t.mv(1, &["a1"]);
    t.mv(1, &["b2", "c3"]);
    t.mv(3, &["f1"]);
    t.mv(3, &["e2", "d3"]);
    t.pass();
    t.place("monster", &["c4"]); // #7
    t.pass();
    t.place("item", &["d2"]); // #8
    t.mv(3, &["d2"]);
    t.pass();
    t.pass();
    t
}

/// The drawing, parsed: the `g` element with `id`, if any.
fn svg_group<'a>(doc: &'a roxmltree::Document<'a>, id: &str) -> Option<roxmltree::Node<'a, 'a>> {
    doc.descendants()
        .find(|n| n.has_tag_name("g") && n.attribute("id") == Some(id))
}

fn svg_texts(node: roxmltree::Node<'_, '_>) -> Vec<String> {
    node.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").to_string())
        .collect()
}

#[test]
fn svg_draws_every_square_reach_and_corner_with_labels() {
    let t = Table::started(4, json!({}));
    let out = t.game.render_svg(crate::Viewer::Owner);
    let doc = roxmltree::Document::parse(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let root = doc.root_element();
    assert!(root.has_tag_name("svg") && root.attribute("viewBox").is_some());
    let squares: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("id").is_some_and(|id| id.starts_with("sq-")))
        .collect();
    assert_eq!(squares.len(), 36);
    for col in ['a', 'b', 'c', 'd', 'e', 'f'] {
        for row in 1..=6 {
            let name = format!("{col}{row}");
            let g = svg_group(&doc, &format!("sq-{name}")).unwrap_or_else(|| panic!("no {name}"));
            assert!(g.attribute("class").unwrap().contains("square"));
            assert!(svg_texts(g).contains(&name), "{name}: {:?}", svg_texts(g));
        }
    }
    let axis: Vec<String> = doc
        .descendants()
        .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("axis")))
        .map(|n| n.text().unwrap_or("").to_string())
        .collect();
    for label in ["a", "b", "c", "d", "e", "f", "1", "2", "3", "4", "5", "6"] {
        assert!(axis.iter().any(|a| a == label), "axis {label}: {axis:?}");
    }
    for large in 0..9 {
        assert!(svg_group(&doc, &format!("large-{large}")).is_some());
    }
    // The four Corners, each Avatar waiting at its own.
    for corner in 0..4u32 {
        let g = svg_group(&doc, &format!("corner-{corner}")).unwrap();
        let avatar = 1 + 2 * corner;
        let piece = svg_group(&doc, &format!("piece-{avatar}")).unwrap();
        assert!(piece.ancestors().any(|a| a == g), "Avatar #{avatar}");
    }
    // The panel: the round, whose turn, each Symbol.
    let panel = svg_texts(svg_group(&doc, "panel").unwrap()).join("\n");
    assert!(panel.contains("Round 1 of 7: Ada's turn"), "{panel}");
    for seat in 0..4 {
        assert!(panel.contains(&format!("sym{seat}")), "{panel}");
    }
    assert_eq!(
        out,
        t.game.render_svg(crate::Viewer::Seat(2)),
        "nothing is secret"
    );
}

#[test]
fn svg_shows_a_legally_placed_piece_on_its_square() {
    let mut t = Table::started(3, json!({}));
    let item = t
        .game
        .legal(None)
        .into_iter()
        .map(|l| l.with_words())
        .find(|l| {
            l.needs.is_empty()
                && l.action["type"] == "place"
                && l.action["object"]["category"] == "item"
                && l.action["squares"] == json!(["d4"])
        })
        .expect("an Item on d4 is legal");
    t.act(item.action);
    let id = t.state()["next_id"].as_u64().unwrap() - 1;
    assert_eq!(t.at(id as u32), on("d4"));
    let out = t.game.render_svg(crate::Viewer::Owner);
    let doc = roxmltree::Document::parse(&out).unwrap();
    let square = svg_group(&doc, "sq-d4").unwrap();
    let piece = svg_group(&doc, &format!("piece-{id}")).unwrap();
    assert!(piece.ancestors().any(|a| a == square), "{out}");
    assert!(piece.attribute("class").unwrap().contains("item"));
    assert!(piece.attribute("class").unwrap().contains("seat-0"));
    assert!(svg_texts(square).contains(&format!("I{id}")));
    assert!(square.attribute("class").unwrap().contains("explored"));

    // Ada's Avatar enters the map from her Corner by a legal move.
    t.pass();
    t.pass();
    t.pass();
    let enter = t
        .game
        .legal(None)
        .into_iter()
        .map(|l| l.with_words())
        .find(|l| {
            l.needs.is_empty()
                && l.action["type"] == "move"
                && l.action["pieces"][0]["piece"] == 1
                && l.action["pieces"][0]["path"] == json!(["a1"])
        })
        .expect("Avatar #1 may enter a1");
    t.act(enter.action);
    let out = t.game.render_svg(crate::Viewer::Public);
    let doc = roxmltree::Document::parse(&out).unwrap();
    let a1 = svg_group(&doc, "sq-a1").unwrap();
    let avatar = svg_group(&doc, "piece-1").unwrap();
    assert!(avatar.ancestors().any(|a| a == a1), "{out}");
    assert!(avatar.attribute("class").unwrap().contains("avatar"));
    // Entering claims the starting Reach: the Symbol shows on its squares.
    assert!(svg_texts(a1).contains(&"sym0".to_string()), "{out}");
}

#[test]
fn svg_escapes_text_from_the_table() {
    let mut t = Table::new(3, json!({}));
    let name = "<b>&\"x\"";
    t.act(json!({"type": "introduce", "seat": 0, "avatar": {"name": name}, "talisman": {"name": "T"}, "symbol": "<i>"}));
    let out = t.game.render_svg(crate::Viewer::Owner);
    assert!(!out.contains("<b>") && !out.contains("<i>"), "{out}");
    assert!(out.contains("&lt;b&gt;&amp;&quot;x&quot;"), "{out}");
    let doc = roxmltree::Document::parse(&out).unwrap();
    assert!(
        doc.descendants()
            .filter(|n| n.has_tag_name("text"))
            .any(|n| n.text().is_some_and(|s| s.contains(name))),
        "{out}"
    );
    assert!(doc.descendants().all(|n| !n.has_tag_name("b")));
}

#[test]
fn a_monster_on_either_square_of_a_monument_besieges_its_occupant() {
    let mut t = monsters_fought();
    // A Monument over two squares of the Heartland; Ada holds it from d4.
    t.place("monument", &["c4", "d4"]); // #9
    t.mv(1, &["d4"]);
    // Bo's Monster lands on c4, the Monument's other square: a siege.
    let lines = t.act(json!({"type": "move", "pieces": [{"piece": 8, "path": ["c4"]}]}));
    assert!(lines.iter().any(|l| l.contains("lays siege")), "{lines:?}");
    assert_eq!(t.at(1), json!({"where": "corner", "corner": 0}));
    assert_eq!(t.at(8), json!({"where": "destroyed"}));
}

#[test]
fn the_victor_tells_the_story_of_a_battle() {
    let mut t = crossroads();
    t.place("monster", &["c4"]); // #7 Ada's
    t.pass();
    t.place("item", &["d2"]); // #8 Bo's
    t.mv(3, &["d2"]); // Bo's Avatar takes the Item
    t.pass(); // Cy
              // Ada's Monster falls on Bo's armed Avatar: Bo's side would win, so
              // the story is Bo's to tell, and it is asked of Bo.
    let attack = json!({"type": "move", "pieces": [{"piece": 7, "path": ["d3", "d2"]}]});
    let msg = t.refused(attack.clone(), "legend.story.needed");
    assert!(msg.contains("their_story") && msg.contains("Bo"), "{msg}");
    let mut told = attack.clone();
    told["pieces"][0]["their_story"] = json!("the key jams the beast's jaws");
    let lines = t.act(told).join("\n");
    assert!(
        lines.contains("Bo, whose side won, tells it: \"the key jams the beast's jaws\""),
        "{lines}"
    );
    assert_eq!(t.at(7), json!({"where": "stockpile", "seat": 1}));
    // Told where the other side won nothing, it would be dropped: refused.
    t.place("monster", &["d4"]); // #9 Ada's
    t.pass(); // Bo
    t.pass(); // Cy
    let idle = json!({"type": "move", "pieces": [{"piece": 9, "path": ["c4"], "their_story": "nothing happened"}]});
    t.refused(idle, "legend.story.unused");
}

// ---------------------------------------------------------------- rules 2

#[test]
fn players_choose_their_corners_and_turns_go_clockwise_from_the_first() {
    let mut t = Table::new(3, json!({}));
    let legal = t.game.legal(Some(0));
    assert!(legal[0]
        .may
        .iter()
        .any(|m| m.starts_with("corner: ") && m.contains("free: nw, ne, se, sw")));
    let intro = |seat: u32, corner: Option<&str>| {
        let mut a = json!({"type": "introduce", "seat": seat, "avatar": {"name": format!("Avatar{seat}")}, "talisman": {"name": format!("Talisman{seat}")}, "symbol": format!("sym{seat}")});
        if let Some(c) = corner {
            a["corner"] = json!(c);
        }
        a
    };
    let told = t.act(intro(0, Some("se")));
    assert!(
        told[0].contains("waiting in the south-east Corner"),
        "{told:?}"
    );
    let e = t.refused(intro(1, Some("se")), "legend.setup.corner_taken");
    assert!(e.contains("free: nw, ne, sw"), "{e}");
    t.act(intro(1, None)); // its own number's Corner, the north-east, is free
    t.act(intro(2, Some("north-west")));
    let s = t.state();
    let corners: Vec<u64> = (0..3)
        .map(|i| s["seats"][i]["corner"].as_u64().unwrap())
        .collect();
    assert_eq!(corners, vec![2, 1, 0]);
    assert_eq!(t.at(1), json!({"where": "corner", "corner": 2}));
    // Clockwise from Ada's south-east Corner: the north-west (Cy), then the
    // north-east (Bo).
    assert_eq!(s["order"], json!([0, 2, 1]));
    // Ada enters the map at her own Corner's square.
    t.mv(1, &["f6"]);
    assert_eq!(t.at(1), on("f6"));
}

#[test]
fn obstacles_go_on_boundaries_too_and_are_described() {
    let mut t = Table::started(3, json!({}));
    heartland(&mut t);
    // -d4 runs along the north of d4: it touches d3 and d4, both Ada's.
    t.refused(
        json!({"type": "place", "object": {"name": "a hedge", "category": "obstacle"}, "at": "-d4"}),
        "legend.placement.obstacle_description",
    );
    let told = t.act(
        json!({"type": "place", "object": {"name": "a hedge", "category": "obstacle", "description": "thorny and waist-high"}, "at": "-d4"}),
    );
    assert!(
        told.iter()
            .any(|l| l.contains("the boundary -d4 (north of d4)")),
        "{told:?}"
    );
    assert!(
        told.iter()
            .any(|l| l.contains("hedge (#7, thorny and waist-high)")),
        "the answer names the new object's number: {told:?}"
    );
    let text = t.game.render(crate::Viewer::Owner);
    assert!(text.contains("#----+XXXX#"), "the hedge along -d4:\n{text}");
    let state: super::State = serde_json::from_value(t.state()).unwrap();
    let touching = |sq: &str| {
        state
            .obstacles_touching(super::content::Sq::parse(sq).unwrap())
            .len()
    };
    assert_eq!((touching("d3"), touching("d4"), touching("c3")), (1, 1, 0));
    // |c3 runs along the west of c3 and touches b3, in an unclaimed Reach.
    t.pass();
    t.pass();
    t.pass();
    t.refused(
        json!({"type": "place", "object": {"name": "a ditch", "category": "obstacle", "description": "deep"}, "at": "|c3"}),
        "legend.placement.obstacle_territory",
    );
    // A Monster needs no Scenery: a2 stays blank under it.
    assert!(t.state()["scenery"].get("a2").is_none());
    t.act(json!({"type": "place", "object": {"name": "a crow", "category": "monster"}, "squares": ["a2"]}));
    assert!(t.state()["scenery"].get("a2").is_none());
}

#[test]
fn games_under_rules_1_keep_corners_by_seat_and_obstacles_on_crossings() {
    let mut c = created(3, json!({}), DiceMode::Digital, 3);
    c.rules_version = Some(1);
    let mut t = Table {
        game: Game::start(&c).unwrap(),
    };
    t.refused(
        json!({"type": "introduce", "seat": 0, "corner": "se", "avatar": {"name": "A"}, "talisman": {"name": "T"}, "symbol": "s"}),
        "legend.setup.corner",
    );
    for seat in 0..3 {
        t.act(json!({"type": "introduce", "seat": seat, "avatar": {"name": format!("Avatar{seat}")}, "talisman": {"name": format!("Talisman{seat}")}, "symbol": format!("sym{seat}")}));
    }
    heartland(&mut t);
    t.refused(
        json!({"type": "place", "object": {"name": "a hedge", "category": "obstacle"}, "at": "-d4"}),
        "legend.placement.obstacle_crossing",
    );
    t.act(
        json!({"type": "place", "object": {"name": "a wall", "category": "obstacle"}, "at": "+d4"}),
    );
}
