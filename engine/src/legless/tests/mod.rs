//! Tests of the Legless in London kind: rules on a table set by hand
//! (physical dice, so every roll and card is chosen), and whole games of
//! seeded random legal play (digital dice) checked against the invariants
//! after every event.
//!
//! The hand-set table: Ada plays Ezra Cole (starts at c9), Bo plays Lady
//! Constance Vane (f9), the first card of every location pair is in play.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};
use tabletape_events::{ActionAccepted, Actor, Body, DiceMode, Event, GameCreated, Seat};

use super::actions::Fact;
use super::board::Place;
use super::content::{GoalKind, Pack};
use super::decide;
use super::options::Options;
use super::state::{Phase, Stage, State, Token, Turn};
use super::Legless;
use crate::chance::Chance;
use crate::error::Rejection;
use crate::game::Game;
use crate::rng::TableRng;
use crate::rules::{Rules, Viewer};

const ADA: &str = "Ezra Cole";
const BO: &str = "Lady Constance Vane";

fn pack() -> Pack {
    serde_json::from_value(Legless::default_pack()).unwrap()
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
        DiceMode::Physical => serde_json::from_value::<BTreeMap<String, Value>>(
            serde_json::to_value(options()).unwrap(),
        )
        .unwrap()
        .into_iter()
        .filter(|(_, v)| !v.is_null())
        .collect(),
        DiceMode::Digital => BTreeMap::new(),
    };
    GameCreated {
        title: None,
        kind: "legless".into(),
        players: ["Ada", "Bo", "Cy", "Dee", "Eve", "Fay"][..players]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        seed,
        dice,
        options,
        pack: Legless::default_pack(),
        public: false,
        rules_version: None,
        chance_version: None,
    }
}

/// Ada (seat 0) to act on the hand-set table.
fn table() -> State {
    let players = ["Ada", "Bo"].map(String::from);
    let mut chance = Chance::new(DiceMode::Physical, 1, 1);
    decide::setup(
        &players,
        &options(),
        &pack(),
        DiceMode::Physical,
        &mut chance,
    )
    .unwrap()
}

fn event(seq: u64, body: ActionAccepted) -> Event {
    Event {
        game: "g".into(),
        branch: "main".into(),
        seq,
        recorded_at_ms: 0,
        actor: Actor::Owner,
        schema_version: 1,
        idempotency_key: None,
        prev_hash: String::new(),
        hash: String::new(),
        salt: String::new(),
        body: Body::ActionAccepted(body),
    }
}

/// The hand-set table as a `Game`, read the way the journal reads it.
fn game_of(s: &State) -> Game {
    let snapshot = crate::game::Snapshot {
        seq: 10,
        seed: 1,
        chapter: "Round 1".into(),
        state: serde_json::to_value(s).unwrap(),
        notes: Default::default(),
        dice: None,
    };
    let created = if s.record {
        record_created()
    } else {
        created(2, 1, s.dice)
    };
    Game::restore(&created, &snapshot).unwrap()
}

fn state_of(game: &Game) -> State {
    serde_json::from_value(game.view(Viewer::Owner)).unwrap()
}

/// Decides and folds one action; returns the facts as JSON.
fn step(game: &mut Game, by: Option<Seat>, action: Value) -> Vec<Value> {
    let d = game
        .decide(by, &action)
        .unwrap_or_else(|e| panic!("{action}: {e}"));
    let facts = d.body.facts.clone();
    let ev = Event {
        actor: by.map_or(Actor::Owner, Actor::Seat),
        ..event(game.seq() + 1, d.body)
    };
    game.apply(&ev).unwrap();
    facts
}

fn rejection(game: &Game, by: Option<Seat>, action: Value) -> Rejection {
    game.decide(by, &action)
        .map(|_| panic!("{action} was accepted"))
        .unwrap_err()
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

// ------------------------------------------------------------------ setup

#[test]
fn setup_deals_characters_and_the_seat_after_the_banker_starts() {
    let s = table();
    assert_eq!(
        s.turn().unwrap().seat,
        0,
        "banker is seat 1, so seat 0 starts"
    );
    let ada = s.londoner(0);
    assert_eq!((ada.character.as_str(), ada.at.clone()), (ADA, at("c9")));
    assert_eq!((ada.money, ada.health, ada.max_health), (7, 8, 8));
    assert!(ada.tokens.is_empty() && ada.legs.is_empty());
    assert_eq!(s.londoner(1).money, 20);
    assert_eq!(s.cards.len(), 15);
    assert!(s.cards.values().all(|c| c.id.ends_with("-1")));
    assert!(!s.unused.contains(&ADA.to_string()));

    // Digital dice deal from the seed; physical dice must be told.
    let g = Game::start(&created(3, 5, DiceMode::Digital)).unwrap();
    let d = state_of(&g);
    let dealt: BTreeSet<_> = d.londoners.iter().map(|l| l.character.clone()).collect();
    assert_eq!(dealt.len(), 3);
    assert_eq!(d.turn().unwrap().seat, 1, "banker defaults to seat 0");
    let mut c = created(2, 1, DiceMode::Physical);
    c.options.remove("characters");
    let e = Game::start(&c).unwrap_err().to_string();
    assert!(e.contains("option `characters`"), "{e}");
}

#[test]
fn the_default_pack_is_valid_and_a_broken_one_names_the_field() {
    super::content::validate(&pack(), "<bundled>").unwrap();
    let mut bad = Legless::default_pack();
    bad["characters"][0]["start"] = json!("a1");
    let e = Game::start(&GameCreated {
        pack: bad,
        ..created(2, 1, DiceMode::Digital)
    })
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("characters[0].start") && e.contains("street square"),
        "{e}"
    );
    let mut bad = Legless::default_pack();
    bad["location_cards"][0]["work"] = json!({"needs": {"appeal": 1}});
    let e = Game::start(&GameCreated {
        pack: bad,
        ..created(2, 1, DiceMode::Digital)
    })
    .unwrap_err()
    .to_string();
    assert!(e.contains("location_cards[0].work"), "{e}");
}

// ------------------------------------------------------------------ moving

#[test]
fn a_move_is_a_die_plus_mobility_along_orthogonal_steps() {
    let mut s = table();
    give_leg(&mut s, 0, "Bath Chair", true); // Mobility -1
    let mut g = game_of(&s);
    let e = rejection(&g, Some(0), json!({"type": "roll"}));
    assert_eq!(e.rule, "physical.roll_needed");
    let facts = step(&mut g, Some(0), json!({"type": "roll", "rolls": [4]}));
    assert_eq!(facts[0]["steps"], 3, "4 - 1 for the Bath Chair");
    assert_eq!(
        state_of(&g).turn().unwrap().stage,
        Stage::Moving { steps: 3 }
    );

    // Too far, diagonal, off the street: refused, naming the step.
    let far = rejection(
        &g,
        Some(0),
        json!({"type": "move", "path": ["d9", "e9", "f9", "g9"]}),
    );
    assert_eq!(far.rule, "legless.too_far");
    let diag = rejection(&g, Some(0), json!({"type": "move", "path": ["d8"]}));
    assert_eq!(diag.rule, "legless.path");
    assert!(diag.message.contains("path[0]"), "{}", diag.message);
    // A location ends the move: nothing may follow it.
    let through = rejection(
        &g,
        Some(0),
        json!({"type": "move", "path": ["c10", "sickroom", "b9"]}),
    );
    assert!(
        through.message.contains("ends the move"),
        "{}",
        through.message
    );
    // c9 to the Music Hall (m10/m11 are its squares beside d10): two steps.
    step(
        &mut g,
        Some(0),
        json!({"type": "move", "path": ["d9", "music-hall"]}),
    );
    let s = state_of(&g);
    assert_eq!(s.londoner(0).at, at("music-hall"));
    assert_eq!(s.turn().unwrap().seat, 1, "the move ends the turn");
}

#[test]
fn a_zero_move_ends_the_turn_and_negative_mobility_subtracts() {
    let mut s = table();
    give_leg(&mut s, 0, "Bath Chair", true);
    let mut g = game_of(&s);
    let facts = step(&mut g, Some(0), json!({"type": "roll", "rolls": [1]}));
    assert_eq!(facts[0]["steps"], 0);
    assert_eq!(state_of(&g).turn().unwrap().seat, 1);
}

#[test]
fn crutches_roll_best_of_two_or_three_but_not_with_a_chair() {
    let mut s = table();
    give_leg(&mut s, 0, "Single Crutch", false);
    let g = game_of(&s);
    assert_eq!(
        rejection(&g, Some(0), json!({"type": "roll", "rolls": [3]})).rule,
        "legless.move_dice"
    );
    let mut g2 = g.clone();
    let f = step(&mut g2, Some(0), json!({"type": "roll", "rolls": [2, 5]}));
    assert_eq!(f[0]["steps"], 5);

    give_leg(&mut s, 0, "Pair of Crutches", false);
    let mut g = game_of(&s);
    let f = step(&mut g, Some(0), json!({"type": "roll", "rolls": [1, 6, 2]}));
    assert_eq!(f[0]["steps"], 6);

    give_leg(&mut s, 0, "Wheel-Chair", true); // Mobility +3, refuses crutches
    let mut g = game_of(&s);
    let f = step(&mut g, Some(0), json!({"type": "roll", "rolls": [2]}));
    assert_eq!(f[0]["steps"], 5);
    // Crutches are never the equipped leg.
    let mut s = table();
    give_leg(&mut s, 0, "Single Crutch", false);
    let e = rejection(
        &game_of(&s),
        Some(0),
        json!({"type": "equip", "leg": "Single Crutch"}),
    );
    assert_eq!(e.rule, "legless.crutches");
}

#[test]
fn street_events_crossed_are_read_in_order_once_the_move_ends() {
    let mut s = table();
    moving(&mut s, 4);
    let mut g = game_of(&s);
    // c9 -> b9 (symbol) -> c9 -> b9 again -> a9: one symbol square, once.
    let e = rejection(
        &g,
        Some(0),
        json!({"type": "move", "path": ["b9", "c9", "b9", "a9"]}),
    );
    assert_eq!(e.rule, "physical.draw_needed");
    let e = rejection(
        &g,
        Some(0),
        json!({"type": "move", "path": ["b9", "c9", "b9", "a9"], "drew": ["Pickpocket", "Penny lottery"]}),
    );
    assert_eq!(e.rule, "legless.street_events");
    let facts = step(
        &mut g,
        Some(0),
        json!({"type": "move", "path": ["b9", "c9", "b9", "a9"], "drew": ["Pickpocket"]}),
    );
    assert_eq!(
        types(&facts),
        ["moved", "street_event_read", "paid", "turn_began"]
    );
    let s = state_of(&g);
    assert_eq!(s.londoner(0).money, 4);
    assert_eq!(s.discard, ["Pickpocket"]);
    assert_eq!(s.deck.len(), 15);
}

#[test]
fn a_table_with_its_own_cards_types_what_they_say() {
    let mut s = table();
    moving(&mut s, 2);
    let mut g = game_of(&s);
    let facts = step(
        &mut g,
        Some(0),
        json!({"type": "move", "path": ["b9", "a9"], "cards": [{"name": "Fallen horse", "effects": [{"health": -3}, {"miss_turns": 1}]}]}),
    );
    assert_eq!(facts[1]["from_deck"], false);
    let s = state_of(&g);
    assert_eq!((s.londoner(0).health, s.londoner(0).miss_turns), (5, 1));
    assert_eq!(s.deck.len(), 16, "the pack's deck is untouched");
}

// ------------------------------------------------------------------ legs and money

#[test]
fn upkeep_opens_the_turn_paid_or_the_leg_sold() {
    let mut s = table();
    give_leg(&mut s, 0, "Kempner improved", true); // upkeep £1
    give_leg(&mut s, 0, "Wheel-Chair", false); // upkeep £2
    s.londoners[0].money = 2;
    s.phase = Phase::Playing(Turn {
        seat: 1,
        stage: Stage::Act,
    });
    s.londoners[1].at = at("workhouse");
    let mut g = game_of(&s);
    step(&mut g, Some(1), json!({"type": "work"}));
    assert_eq!(state_of(&g).turn().unwrap().stage, Stage::Upkeep);
    assert_eq!(
        rejection(&g, Some(0), json!({"type": "roll", "rolls": [3]})).rule,
        "legless.upkeep_first"
    );
    let e = rejection(&g, Some(0), json!({"type": "upkeep"}));
    assert!(e.message.contains("£2 for £3"), "{}", e.message);
    // The Wheel-Chair's sale (£10) pays for the Kempner's upkeep.
    let facts = step(
        &mut g,
        Some(0),
        json!({"type": "upkeep", "sell": ["Wheel-Chair"]}),
    );
    assert_eq!(types(&facts), ["leg_sold", "upkeep_paid", "stage_set"]);
    let s = state_of(&g);
    assert_eq!(s.londoner(0).money, 2 + 10 - 1);
    assert_eq!(s.londoner(0).legs, ["Kempner improved"]);
    assert!(s.pile.contains(&"Wheel-Chair".to_string()));
}

#[test]
fn legs_are_bought_at_the_store_sold_for_half_rounded_up_and_seen_by_their_owner() {
    let mut s = table();
    s.londoners[0].money = 20;
    let g = game_of(&s);
    assert_eq!(
        rejection(
            &g,
            Some(0),
            json!({"type": "buy_leg", "leg": "Kempner improved"})
        )
        .rule,
        "legless.not_at_location"
    );
    s.londoners[0].at = at("leg-store");
    let mut g = game_of(&s);
    let bought = step(
        &mut g,
        Some(0),
        json!({"type": "buy_leg", "leg": "Kempner improved"}),
    );
    assert_eq!(bought[0]["equipped"]["maintenance"], 1);
    // Bo sees the purchase, not the Equipped side, in the fact and the state.
    let bo = g.redact_event(
        &event(
            g.seq(),
            ActionAccepted {
                action: json!({}),
                facts: bought.clone(),
                chance: vec![],
            },
        ),
        Viewer::Seat(1),
    );
    let text = serde_json::to_string(&bo.unwrap()).unwrap();
    assert!(!text.contains("maintenance"), "{text}");
    let view = g.view(Viewer::Seat(1)).to_string();
    assert!(view.contains("Kempner improved"));
    let kempner = &g.view(Viewer::Seat(1))["legs"]["Kempner improved"];
    assert!(kempner.get("equipped").is_none(), "{kempner}");
    assert!(g.view(Viewer::Seat(0))["legs"]["Kempner improved"]
        .get("equipped")
        .is_some());
    assert!(g.view(Viewer::Seat(1))["legs"]["Peg leg"]
        .get("equipped")
        .is_none());
    assert_eq!(state_of(&g).londoner(0).money, 5);

    // Bo's turn passes; Ada equips it: now everyone sees its side.
    let mut s = state_of(&g);
    s.phase = Phase::Playing(Turn {
        seat: 0,
        stage: Stage::Act,
    });
    let mut g = game_of(&s);
    step(
        &mut g,
        Some(0),
        json!({"type": "equip", "leg": "Kempner improved"}),
    );
    assert!(g.view(Viewer::Seat(1))["legs"]["Kempner improved"]
        .get("equipped")
        .is_some());
    let sold = step(
        &mut g,
        Some(0),
        json!({"type": "sell_leg", "leg": "Kempner improved"}),
    );
    assert_eq!(sold[0]["price"], 8, "£15 sells for £8");
    let s = state_of(&g);
    assert_eq!(s.londoner(0).equipped, None);
    assert_eq!(s.turn().unwrap().seat, 0, "selling does not use the turn");
}

#[test]
fn a_forced_debt_sells_legs_then_costs_a_heart_a_pound() {
    let mut s = table();
    give_leg(&mut s, 0, "Peg leg", true); // resale £2
    s.londoners[0].money = 1;
    moving(&mut s, 2);
    let mut g = game_of(&s);
    let facts = step(
        &mut g,
        Some(0),
        json!({"type": "move", "path": ["b9", "a9"], "cards": [{"name": "Debt collector", "effects": [{"money": -6}]}]}),
    );
    assert_eq!(
        types(&facts)[..6],
        [
            "moved",
            "street_event_read",
            "leg_sold",
            "paid",
            "paid_in_health",
            "health_changed"
        ]
    );
    let s = state_of(&g);
    assert_eq!((s.londoner(0).money, s.londoner(0).health), (0, 8 - 3));
    assert!(s.londoner(0).legs.is_empty());
}

// ------------------------------------------------------------------ actions

#[test]
fn work_needs_the_leg_and_pays_earnings_or_a_risk() {
    let mut s = table();
    s.londoners[0].at = at("docks"); // docks-1: Mobility 1, Efficiency 2; £7 or p.11
    let g = game_of(&s);
    let e = rejection(&g, Some(0), json!({"type": "work"}));
    assert_eq!(e.rule, "legless.requirements");
    assert!(
        e.message.contains("Mobility +1, Efficiency +2"),
        "{}",
        e.message
    );
    give_leg(&mut s, 0, "Kempner improved", true);
    let mut g = game_of(&s);
    let f = step(&mut g, Some(0), json!({"type": "work"}));
    assert_eq!(
        f[0],
        json!({"type": "worked", "seat": 0, "location": "docks", "amount": 7})
    );
    let mut g = game_of(&s);
    let f = step(
        &mut g,
        Some(0),
        json!({"type": "work", "risk": true, "roll": 5}),
    );
    assert_eq!(
        (f[0]["total"].as_i64(), f[0]["page"].as_u64()),
        (Some(7), Some(11))
    );
    assert_eq!(f[1], json!({"type": "earned", "seat": 0, "amount": 7}));
}

#[test]
fn love_is_found_by_die_plus_appeal_and_fills_the_love_space() {
    let mut s = table();
    s.londoners[0].at = at("gin-palace"); // love page 16, claim from 5
    let mut g = game_of(&s);
    let f = step(&mut g, Some(0), json!({"type": "find_love", "roll": 4}));
    assert_eq!(types(&f), ["risk_read", "paid", "turn_began"]);
    let mut g = game_of(&s);
    let f = step(&mut g, Some(0), json!({"type": "find_love", "roll": 5}));
    assert_eq!(types(&f)[..2], ["risk_read", "token_placed"]);
    let after = state_of(&g);
    assert_eq!(after.space_taken("gin-palace", GoalKind::Love), Some(0));

    // Bo may not claim the same space, nor love where it does not count for her.
    let mut s2 = after.clone();
    s2.londoners[1].at = at("gin-palace");
    s2.phase = Phase::Playing(Turn {
        seat: 1,
        stage: Stage::Act,
    });
    let e = rejection(
        &game_of(&s2),
        Some(1),
        json!({"type": "find_love", "roll": 6}),
    );
    assert_eq!(e.rule, "legless.goal_elsewhere");
    // Nor Ada again: her love goal is done.
    let mut s3 = after;
    s3.londoners[0].at = at("market");
    s3.phase = Phase::Playing(Turn {
        seat: 0,
        stage: Stage::Act,
    });
    let e = rejection(
        &game_of(&s3),
        Some(0),
        json!({"type": "find_love", "roll": 6}),
    );
    assert_eq!(e.rule, "legless.goal_done");
}

#[test]
fn two_victory_tokens_win() {
    let mut s = table();
    s.londoners[0].tokens.push(Token {
        location: "gin-palace".into(),
        goal: GoalKind::Love,
    });
    s.londoners[0].at = at("docks"); // Ezra's property may be the Docks (£28)
    s.londoners[0].money = 30;
    let mut g = game_of(&s);
    let f = step(&mut g, Some(0), json!({"type": "buy_property"}));
    assert_eq!(types(&f), ["token_placed", "won"]);
    assert_eq!(f[0]["cost"], 28);
    assert!(g.is_over());
    assert!(g.legal(None).is_empty());
}

#[test]
fn a_personal_goal_asks_its_price_and_scores_at_its_location() {
    let mut s = table();
    s.londoners[0].at = at("factory"); // Ezra: Mobility 1 at the Factory
    let g = game_of(&s);
    assert_eq!(
        rejection(&g, Some(0), json!({"type": "personal_goal"})).rule,
        "legless.requirements"
    );
    give_leg(&mut s, 0, "Peg leg", true);
    let mut g = game_of(&s);
    let f = step(&mut g, Some(0), json!({"type": "personal_goal"}));
    assert_eq!(
        f[0],
        json!({"type": "token_placed", "seat": 0, "location": "factory", "goal": "personal"})
    );
}

// ------------------------------------------------------------------ sickness and death

#[test]
fn at_the_bottom_of_the_track_a_londoner_goes_to_the_sickroom_and_heals_there() {
    let mut s = table();
    s.londoners[0].health = 2;
    moving(&mut s, 2);
    let mut g = game_of(&s);
    let f = step(
        &mut g,
        Some(0),
        json!({"type": "move", "path": ["b9", "a9"], "drew": ["Runaway cab"]}),
    );
    assert_eq!(
        types(&f)[..5],
        [
            "moved",
            "street_event_read",
            "health_changed",
            "fell_sick",
            "sickroom_paid"
        ]
    );
    let s = state_of(&g);
    assert_eq!(s.londoner(0).at, at("sickroom"));
    assert_eq!(s.londoner(0).money, 7 - 2);
    // Bo plays; then Ada's turn is the Sickroom's: pay, roll, heal.
    let mut s = s;
    s.phase = Phase::Playing(Turn {
        seat: 0,
        stage: Stage::Sickroom,
    });
    let mut g = game_of(&s);
    assert_eq!(
        rejection(&g, Some(0), json!({"type": "roll", "rolls": [3]})).rule,
        "legless.sick"
    );
    step(&mut g, Some(0), json!({"type": "recover", "roll": 5}));
    let s = state_of(&g);
    assert_eq!((s.londoner(0).health, s.londoner(0).sick), (5, true));
    let mut s = s;
    s.phase = Phase::Playing(Turn {
        seat: 0,
        stage: Stage::Sickroom,
    });
    let mut g = game_of(&s);
    let f = step(&mut g, Some(0), json!({"type": "recover", "roll": 6}));
    assert!(types(&f).contains(&"left_sickbed"));
    assert!(!state_of(&g).londoner(0).sick);
}

#[test]
fn unable_to_pay_the_sickroom_a_londoner_dies_and_rejoins_as_someone_else() {
    let mut s = table();
    s.londoners[0].sick = true;
    s.londoners[0].health = 1;
    s.londoners[0].money = 1;
    s.londoners[0].at = at("sickroom");
    s.londoners[0].tokens.push(Token {
        location: "factory".into(),
        goal: GoalKind::Personal,
    });
    s.phase = Phase::Playing(Turn {
        seat: 0,
        stage: Stage::Sickroom,
    });
    let mut g = game_of(&s);
    let f = step(&mut g, Some(0), json!({"type": "recover", "roll": 3}));
    assert_eq!(types(&f), ["died", "turn_began"]);
    assert_eq!(f[0]["removed"].as_array().unwrap().len(), 1);
    let s = state_of(&g);
    assert!(s.londoner(0).dead && s.londoner(0).tokens.is_empty());
    // Nobody plays on until Ada draws a new character (not Ezra again).
    assert_eq!(
        rejection(&g, Some(1), json!({"type": "roll", "rolls": [3]})).rule,
        "legless.rejoin_first"
    );
    let e = rejection(
        &g,
        Some(0),
        json!({"type": "draw_character", "seat": 0, "drew": ADA}),
    );
    assert_eq!(e.rule, "physical.impossible_draw");
    step(
        &mut g,
        Some(0),
        json!({"type": "draw_character", "seat": 0, "drew": "Ruby Dell"}),
    );
    let s = state_of(&g);
    let ada = s.londoner(0);
    assert_eq!(
        (
            ada.character.as_str(),
            ada.at.clone(),
            ada.money,
            ada.health
        ),
        ("Ruby Dell", at("i9"), 9, 7)
    );
    assert!(s.unused.contains(&ADA.to_string()));
}

#[test]
fn a_londoner_left_without_enough_victory_spaces_dies() {
    // Ezra's love counts only at the Gin Palace, his property only at the
    // Slums, whose card here sells nothing: love and his personal goal at
    // the Factory are the two goals he can still reach.
    let mut s = table();
    s.characters.get_mut(ADA).unwrap().goals[0].at = vec!["gin-palace".into()];
    s.characters.get_mut(ADA).unwrap().goals[1].at = vec!["slums".into()];
    s.cards.get_mut("slums").unwrap().property = None;
    s.londoners[1].at = at("gin-palace");
    s.characters.get_mut(BO).unwrap().goals[0].at = vec!["gin-palace".into()];
    s.phase = Phase::Playing(Turn {
        seat: 1,
        stage: Stage::Act,
    });
    assert_eq!(s.reachable_goals(0), 2);
    let mut g = game_of(&s);
    let f = step(&mut g, Some(1), json!({"type": "find_love", "roll": 6}));
    assert_eq!(types(&f)[..3], ["risk_read", "token_placed", "died"]);
    assert_eq!(f[2]["why"], "no_space");
    assert!(!g.is_over());
    let legal = g.legal(None);
    assert_eq!(legal.len(), 1);
    assert_eq!(legal[0].action["type"], "draw_character");
    assert_eq!(g.to_move(), [0]);
}

// ------------------------------------------------------------------ whole games

fn check_invariants(s: &State, total_deck: usize, ctx: &str) {
    let mut spaces = BTreeSet::new();
    let mut legs = BTreeSet::new();
    for (seat, l) in s.londoners.iter().enumerate() {
        assert!(
            l.health <= l.max_health,
            "{ctx}: seat {seat} health above the track"
        );
        assert!(
            l.tokens.len() <= 2,
            "{ctx}: seat {seat} placed {} tokens",
            l.tokens.len()
        );
        if l.dead {
            assert!(
                l.tokens.is_empty() && l.legs.is_empty(),
                "{ctx}: the dead keep nothing"
            );
        }
        for t in &l.tokens {
            assert!(
                spaces.insert((t.location.clone(), t.goal)),
                "{ctx}: two tokens on one space"
            );
        }
        let kinds: BTreeSet<_> = l.tokens.iter().map(|t| t.goal).collect();
        assert_eq!(kinds.len(), l.tokens.len(), "{ctx}: a goal completed twice");
        for leg in &l.legs {
            assert!(legs.insert(leg.clone()), "{ctx}: leg {leg} owned twice");
        }
        if let Some(e) = &l.equipped {
            assert!(l.legs.contains(e), "{ctx}: equipped leg not owned");
        }
        if l.sick {
            assert_eq!(
                l.at,
                Place::Location(s.sickroom.clone()),
                "{ctx}: sick outside the Sickroom"
            );
        }
    }
    for leg in &s.pile {
        assert!(
            legs.insert(leg.clone()),
            "{ctx}: leg {leg} both owned and in the store"
        );
    }
    assert_eq!(legs.len(), s.legs.len(), "{ctx}: legs lost or made");
    assert_eq!(
        s.deck.len() + s.discard.len(),
        total_deck,
        "{ctx}: street cards lost or made"
    );
    let dealt = s.londoners.iter().filter(|l| !l.dead).count();
    assert_eq!(
        s.unused.len() + dealt,
        s.characters.len(),
        "{ctx}: characters lost or made"
    );
}

fn random_game(players: usize, seed: u64) -> (Vec<Event>, Game) {
    let created = created(players, seed, DiceMode::Digital);
    let mut game = Game::start(&created).unwrap();
    let total_deck = state_of(&game).deck.len();
    let mut rng = TableRng::for_event(seed, u64::MAX);
    let mut events = Vec::new();
    for _ in 0..20_000 {
        if game.is_over() {
            break;
        }
        let legal = game.legal(None);
        assert!(
            !legal.is_empty(),
            "seed {seed}: no legal action in a running game"
        );
        assert!(
            legal.iter().all(|l| l.needs.is_empty()),
            "seed {seed}: digital needs nothing"
        );
        let pick = &legal[rng.below(legal.len() as u32) as usize].action;
        let decision = game
            .decide(None, pick)
            .unwrap_or_else(|e| panic!("seed {seed}: legal action {pick} was refused: {e}"));
        // Money never goes below nothing: every payment is covered when made.
        let mut before = state_of(&game);
        for f in &decision.body.facts {
            let fact: Fact = serde_json::from_value(f.clone()).unwrap();
            let owed = match &fact {
                Fact::Paid { seat, amount }
                | Fact::UpkeepPaid { seat, amount }
                | Fact::SickroomPaid { seat, fee: amount }
                | Fact::LegBought {
                    seat, cost: amount, ..
                }
                | Fact::TokenPlaced {
                    seat, cost: amount, ..
                } => Some((*seat, *amount)),
                _ => None,
            };
            if let Some((s, amount)) = owed {
                let money = before.londoner(s).money;
                assert!(
                    money >= amount,
                    "seed {seed}: seat {s} pays £{amount} from £{money}: {f}"
                );
            }
            super::apply::apply(&mut before, &fact);
        }
        let ev = event(game.seq() + 1, decision.body);
        game.apply(&ev).unwrap();
        events.push(ev);
        check_invariants(
            &state_of(&game),
            total_deck,
            &format!("seed {seed}, {players} players, seq {}", game.seq()),
        );
    }
    assert!(game.is_over(), "seed {seed}: the game did not end");
    (events, game)
}

#[test]
fn random_legal_play_ends_keeps_every_invariant_and_replays() {
    let mut won = 0;
    for seed in 0..8 {
        for players in [2, 3, 5] {
            let (events, game) = random_game(players, seed);
            let mut all = vec![Event {
                body: Body::GameCreated(created(players, seed, DiceMode::Digital)),
                ..event(
                    1,
                    ActionAccepted {
                        action: json!(null),
                        facts: vec![],
                        chance: vec![],
                    },
                )
            }];
            all.extend(events);
            let folded = Game::fold(&all).unwrap();
            assert!(folded == game, "seed {seed}: replay differs from live play");
            let s = state_of(&game);
            if s.outcome
                .as_ref()
                .is_some_and(|o| o.why.contains("both victory tokens"))
            {
                won += 1;
            }
        }
    }
    assert!(won > 0, "random play never reached a win");
}

#[test]
fn legal_offers_every_kind_of_turn_and_each_is_accepted() {
    let mut s = table();
    s.londoners[0].at = at("leg-store");
    s.londoners[0].money = 30;
    give_leg(&mut s, 0, "Cork leg", false);
    let g = game_of(&s);
    let legal = g.legal(Some(0));
    let kinds: BTreeSet<String> = legal
        .iter()
        .map(|l| l.action["type"].as_str().unwrap().to_string())
        .collect();
    for k in ["roll", "buy_leg", "equip", "sell_leg"] {
        assert!(kinds.contains(k), "{k} missing from {kinds:?}");
    }
    assert!(g.legal(Some(1)).is_empty(), "not Bo's turn");
    assert!(legal
        .iter()
        .all(|l| l.action["type"] != "buy_leg" || !l.action.to_string().contains("Cork leg")));
    // In physical mode each roll is asked for.
    let roll = legal.iter().find(|l| l.action["type"] == "roll").unwrap();
    assert_eq!(roll.needs, ["rolls: 1 movement die, 1-6 each"]);
    moving(&mut s, 3);
    let g = game_of(&s);
    for l in g
        .legal(Some(0))
        .into_iter()
        .filter(|l| l.action["type"] == "move")
    {
        let mut action = l.action.clone();
        let crossed = decide::crossings(
            &state_of(&g).board(),
            &serde_json::from_value::<Vec<Place>>(action["path"].clone()).unwrap(),
        );
        if crossed > 0 {
            action["drew"] = json!(vec!["Kind stranger"; crossed]);
        }
        g.decide(Some(0), &action)
            .unwrap_or_else(|e| panic!("{action}: {e}"));
    }
}

#[test]
fn one_die_may_be_written_as_a_bare_number() {
    let mut g = game_of(&table());
    let f = step(&mut g, Some(0), json!({"type": "roll", "rolls": 4}));
    assert_eq!(f[0]["rolls"], json!([4]));
    let e = g
        .decide(Some(0), &json!({"type": "move", "path": "f8"}))
        .unwrap_err();
    assert!(e.message.contains("expected a sequence"), "{}", e.message);
    let e = game_of(&table())
        .decide(Some(0), &json!({"type": "roll", "rolls": "four"}))
        .unwrap_err();
    assert!(
        e.message.contains("a die face or a list of die faces"),
        "{}",
        e.message
    );
}

// ------------------------------------------------------------------ record mode

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

fn record_game() -> Game {
    let mut g = Game::start(&record_created()).unwrap();
    for (seat, name, start) in [(0, "Hester Crane", "f9"), (1, "Silas Marsh", "c3")] {
        let card = json!({"name": name, "start": start, "money": 12, "health": 5, "goals": [
            {"kind": "love"}, {"kind": "property"}, {"kind": "personal", "at": ["church"]}]});
        step(
            &mut g,
            Some(seat),
            json!({"type": "draw_character", "seat": seat, "card": card}),
        );
    }
    g
}

#[test]
fn record_mode_needs_physical_dice_and_the_sickroom_fee_and_deals_nothing() {
    let mut c = created(2, 1, DiceMode::Digital);
    c.options = [("record".to_string(), json!("on"))].into_iter().collect();
    let e = Game::start(&c).unwrap_err().to_string();
    assert!(e.contains("--dice physical"), "{e}");
    let mut c = created(2, 1, DiceMode::Physical);
    c.options = [("record".to_string(), json!("on"))].into_iter().collect();
    assert!(Game::start(&c)
        .unwrap_err()
        .to_string()
        .contains("sickroom_fee"));
    c.options.insert("sickroom_fee".into(), json!(2));
    let g = Game::start(&c).unwrap();
    let s = state_of(&g);
    assert!(s.record && s.legs.is_empty() && s.deck.is_empty() && s.booklet.is_empty());
    assert_eq!(s.cards.len(), 1, "only the Sickroom's fee is known");
    assert_eq!(s.sickroom_fee(), 2);
    assert!(
        s.londoners.iter().all(|l| l.dead),
        "each player types a character first"
    );
    let legal = g.legal(Some(0));
    assert_eq!(legal[0].needs.len(), 1);
    assert!(
        legal[0].needs[0].starts_with("card:"),
        "{:?}",
        legal[0].needs
    );
    // A character card that does not fit the board is refused by its field.
    let e = rejection(
        &g,
        Some(0),
        json!({"type": "draw_character", "seat": 0, "card": {"name": "X", "start": "a1", "money": 1, "health": 3,
            "goals": [{"kind": "love"}, {"kind": "property"}, {"kind": "personal", "at": ["church"]}]}}),
    );
    assert_eq!(e.rule, "legless.card");
    assert!(e.message.contains("card.start"), "{}", e.message);
}

#[test]
fn in_record_mode_a_card_is_typed_once_and_a_typed_leg_stays_its_buyers_secret() {
    let mut g = record_game();
    let mut s = state_of(&g);
    s.londoners[0].at = at("gin-palace");
    let mut g2 = game_of(&s);
    let e = rejection(&g2, Some(0), json!({"type": "work"}));
    assert_eq!(e.rule, "legless.card_needed");
    let f = step(
        &mut g2,
        Some(0),
        json!({"type": "work", "card": {"work": {"earnings": 4}}}),
    );
    assert_eq!(types(&f)[..2], ["card_laid_out", "worked"]);
    let mut s = state_of(&g2);
    s.phase = Phase::Playing(Turn {
        seat: 0,
        stage: Stage::Act,
    });
    let g3 = game_of(&s);
    let e = rejection(
        &g3,
        Some(0),
        json!({"type": "work", "card": {"work": {"earnings": 9}}}),
    );
    assert_eq!(e.rule, "legless.card_known");

    // A leg typed at the store: the action's card is the buyer's to read.
    let mut s = state_of(&g);
    s.londoners[0].at = at("leg-store");
    g = game_of(&s);
    let buy = json!({"type": "buy_leg", "leg": "Hook leg", "card": {"cost": 5, "equipped": {"appeal": 1, "mobility": 1, "efficiency": 0, "maintenance": 1}}});
    let d = g.decide(Some(0), &buy).unwrap();
    let ev = Event {
        actor: Actor::Seat(0),
        ..event(g.seq() + 1, d.body)
    };
    g.apply(&ev).unwrap();
    let bo = serde_json::to_string(&g.redact_event(&ev, Viewer::Seat(1)).unwrap()).unwrap();
    assert!(
        bo.contains("Hook leg") && !bo.contains("maintenance"),
        "{bo}"
    );
    let ada = serde_json::to_string(&g.redact_event(&ev, Viewer::Seat(0)).unwrap()).unwrap();
    assert!(ada.contains("maintenance"), "{ada}");
    assert_eq!(state_of(&g).legs["Hook leg"].cost, 5);
}

#[test]
fn a_missed_turn_is_skipped_whole_and_a_card_may_send_a_londoner_elsewhere() {
    let mut s = table();
    moving(&mut s, 2);
    let mut g = game_of(&s);
    let f = step(
        &mut g,
        Some(0),
        json!({"type": "move", "path": ["b9", "a9"], "cards": [
            {"name": "Press-gang", "effects": [{"go_to": "docks"}, {"miss_turns": 1}]}]}),
    );
    assert!(types(&f).contains(&"went_to") && types(&f).contains(&"turns_lost"));
    let s = state_of(&g);
    assert_eq!(
        (s.londoner(0).at.clone(), s.londoner(0).miss_turns),
        (at("docks"), 1)
    );
    // Bo plays; Ada's turn is skipped and Bo plays again, in round 2.
    let f = step(&mut g, Some(1), json!({"type": "roll", "rolls": [1]}));
    assert_eq!(types(&f), ["rolled_to_move", "stage_set"]);
    let f = step(&mut g, Some(1), json!({"type": "move", "path": []}));
    assert_eq!(types(&f), ["moved", "turn_missed", "turn_began"]);
    assert_eq!(f[2]["seat"], 1);
    let s = state_of(&g);
    assert_eq!((s.round, s.londoner(0).miss_turns), (2, 0));
}

#[test]
fn an_empty_street_deck_is_renewed_from_the_discards() {
    let mut s = table();
    s.discard = std::mem::take(&mut s.deck);
    s.deck = vec!["Kind stranger".into()];
    s.discard.retain(|c| c != "Kind stranger");
    moving(&mut s, 4);
    let mut g = game_of(&s);
    // Two symbols (b9 and c8): the second card comes from the renewed deck.
    let f = step(
        &mut g,
        Some(0),
        json!({"type": "move", "path": ["b9", "c9", "c8"], "drew": ["Kind stranger", "Penny lottery"]}),
    );
    assert!(types(&f).contains(&"deck_renewed"), "{f:?}");
    let s = state_of(&g);
    assert!(
        s.discard.len() == 1 && s.deck.len() == 14,
        "{} {}",
        s.discard.len(),
        s.deck.len()
    );
}

#[test]
fn a_healthy_londoner_may_pay_the_sickroom_to_heal_but_not_when_full() {
    let mut s = table();
    s.londoners[0].at = at("sickroom");
    let g = game_of(&s);
    assert_eq!(
        rejection(&g, Some(0), json!({"type": "recover", "roll": 2})).rule,
        "legless.full_health"
    );
    s.londoners[0].health = 3;
    let mut g = game_of(&s);
    let f = step(&mut g, Some(0), json!({"type": "recover", "roll": 6}));
    assert_eq!(types(&f)[..2], ["sickroom_paid", "healed"]);
    assert_eq!(f[1]["to"], 8, "capped at the top of the track");
    assert!(!state_of(&g).londoner(0).sick);
}
