//! Tests of the Ludovia kind: rules on a board laid out by hand (physical
//! dice, so every roll is chosen), and whole games of seeded random legal
//! play (digital dice) checked against the invariants after every event.
//!
//! The hand-made board (3 players), block rows north to south:
//! `belltower fountain mint / chapel lair orchard / tannery prison clocktower`.

use std::collections::BTreeMap;

use serde_json::{json, Value};
use tabletape_events::{ActionAccepted, Actor, Body, DiceMode, Event, GameCreated, Seat};

use super::actions::{Action, Fact, Step};
use super::board::{Facing, Post, Space, Street};
use super::content::{self, Pack};
use super::decide::{self, step_policeman};
use super::options::Options;
use super::state::{Choice, Phase, Policeman, Stage, State, Turn};
use super::Ludovia;
use crate::chance::Chance;
use crate::error::Rejection;
use crate::game::Game;
use crate::rng::TableRng;
use crate::rules::{Context, Rules, Viewer};

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
    serde_json::from_value(Ludovia::default_pack()).unwrap()
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

#[test]
fn the_bundled_pack_is_valid_and_complete() {
    let p = pack();
    content::validate(&p, "<bundled>").unwrap();
    let total: u32 = p.equipment.iter().map(|i| i.count).sum();
    assert_eq!(total, 24);
    for name in [
        "Mask",
        "Whistle",
        "Make-up",
        "Rope and Grapple",
        "Bolas",
        "Backpack",
    ] {
        assert!(p.equipment.iter().any(|i| i.name == name), "{name}");
    }
    assert!(p.sample);
}

#[test]
fn bad_packs_name_the_field_at_fault() {
    let mut p = pack();
    p.blocks[2].layout[0] = "RRR".into();
    let e = content::validate(&p, "box.json").unwrap_err();
    assert_eq!(
        (e.file.as_str(), e.path.as_str()),
        ("box.json", "blocks[2].layout")
    );
    let mut p = pack();
    p.blocks[3].layout = vec!["RRR".into(), "RAR".into(), "RAR".into()];
    assert_eq!(
        content::validate(&p, "x").unwrap_err().path,
        "blocks[3].layout[1]"
    );
    let mut p = pack();
    p.equipment[0].cost = 300;
    assert_eq!(
        content::validate(&p, "x").unwrap_err().path,
        "equipment[0].cost"
    );
    let mut p = pack();
    p.rooftop_cards[0].count += 1;
    assert!(content::validate(&p, "x")
        .unwrap_err()
        .message
        .contains("49"));
}

#[test]
fn boards_have_the_rooftops_the_cards_need() {
    let s = table();
    assert_eq!(s.rooftops().len(), 49);
    assert_eq!(s.pool.len(), 49);
    assert_eq!(s.offer, vec!["Mask", "Whistle", "Backpack"]);
    assert_eq!(s.deck_unseen.len(), 21);
    let created = created(5, 3, DiceMode::Digital);
    let g = Game::start(&created).unwrap();
    let big: State = serde_json::from_value(g.view(Viewer::Owner)).unwrap();
    assert_eq!((big.rows, big.cols), (3, 4));
    assert_eq!(big.rooftops().len(), 70);
    assert_eq!(big.pool.len(), 70);
}

#[test]
fn physical_setup_needs_the_tables_layout() {
    let players = ["Ada", "Bo", "Cy"].map(String::from);
    let mut chance = Chance::new(DiceMode::Physical, 1, 1);
    let e = decide::setup(
        &players,
        &Options::default(),
        &pack(),
        DiceMode::Physical,
        2,
        &mut chance,
    )
    .unwrap_err();
    assert_eq!(e.rule, "option.layout");
    let mut bad = LAYOUT.map(String::from).to_vec();
    bad[4] = "harbour".into();
    let options = Options {
        layout: Some(bad),
        offer: Some(vec!["Mask".into(), "Mask".into(), "Mask".into()]),
        round_limit: 5,
    };
    let e = decide::setup(
        &players,
        &options,
        &pack(),
        DiceMode::Physical,
        2,
        &mut chance,
    )
    .unwrap_err();
    assert!(e.message.contains("Lair"), "{e}");
}

#[test]
fn moves_follow_the_board() {
    let mut s = table();
    // The Lair (block 1.1) touches its four streets.
    assert_eq!(
        refused(&s, json!({"type": "move", "to": "h0.1"})),
        "ludovia.move"
    );
    // A thief walks into the Lair, but into the Prison only under arrest.
    let mut south = s.clone();
    south.thieves[0].at = sp("h2.1");
    let from_south: Vec<Space> = decide::moves_from(&south, sp("h2.1"))
        .into_iter()
        .map(|m| m.0)
        .collect();
    assert!(from_south.contains(&Space::Lair));
    assert!(!from_south.contains(&Space::Prison));
    act(&mut s, json!({"type": "move", "to": "h1.1"}));
    // From the street north of the Lair into Fountain Square's Black Market alley.
    act(&mut s, json!({"type": "move", "to": "s2.4"}));
    // Black Market and plain alley link; climbing from the alley to a rooftop.
    let from_market: Vec<Space> = decide::moves_from(&s, sp("s2.4"))
        .into_iter()
        .map(|m| m.0)
        .collect();
    assert!(from_market.contains(&sp("s0.4")));
    assert!(from_market.contains(&sp("s1.4")));
    assert!(from_market.contains(&sp("h1.1")));
    act(&mut s, json!({"type": "move", "to": "s2.3"}));
    // No diagonal steps; rooftops lead to rooftops and alleys only.
    assert_eq!(
        refused(&s, json!({"type": "move", "to": "s1.4"})),
        "ludovia.move"
    );
    assert_eq!(
        refused(&s, json!({"type": "move", "to": "h1.1"})),
        "ludovia.move"
    );
    let facts = act(&mut s, json!({"type": "move", "to": "s1.3"}));
    assert!(
        matches!(facts.last(), Some(Fact::TurnBegan { seat: 1, .. })),
        "4 AP spent: {facts:?}"
    );
}

#[test]
fn a_watched_street_arrests_a_thief_with_loot() {
    let mut s = table();
    s.policemen[0] = Policeman {
        at: post("p0.1"),
        facing: Facing::South,
    };
    assert!(s.watched().contains(&st("v1.1")));
    s.thieves[0].at = sp("s0.3");
    // Empty-handed, the watched street is no danger.
    let mut free = s.clone();
    act(&mut free, json!({"type": "move", "to": "s1.3"}));
    give(&mut s, 0, &["Ruby Crown"]);
    s.thieves[0].at = sp("h1.1");
    let facts = act(&mut s, json!({"type": "move", "to": "v1.1"}));
    assert!(facts
        .iter()
        .any(|f| matches!(f, Fact::ThiefArrested { seat: 0, .. })));
    assert_eq!(s.thieves[0].at, Space::Prison);
    assert!(s.thieves[0].in_prison);
    assert_eq!(turn(&s).seat, 1, "an arrest ends the turn");
}

#[test]
fn a_policeman_at_a_lamp_post_blocks_a_thief_with_loot() {
    let mut s = table();
    s.policemen[0].at = post("p1.1");
    s.policemen[0].facing = Facing::North;
    s.thieves[0].at = sp("h1.1");
    give(&mut s, 0, &["Silver Spoons"]);
    assert_eq!(
        refused(&s, json!({"type": "move", "to": "h1.0"})),
        "ludovia.lamp_post_blocked"
    );
    // A Mask gets past him, once.
    equip(&mut s, 0, "Mask");
    let facts = act(&mut s, json!({"type": "move", "to": "h1.0", "mask": true}));
    assert!(facts
        .iter()
        .any(|f| matches!(f, Fact::EquipmentUsed { .. })));
    assert!(s.thieves[0].equipment.is_empty());
    assert_eq!(
        refused(&s, json!({"type": "move", "to": "h1.1", "mask": true})),
        "ludovia.mask"
    );
}

#[test]
fn policemen_turn_about_at_the_edge() {
    let s = table();
    let p = Policeman {
        at: post("p0.0"),
        facing: Facing::East,
    };
    assert_eq!(
        step_policeman(&s, &p, Step::Left),
        (post("p0.0"), Facing::South, true)
    );
    assert_eq!(
        step_policeman(&s, &p, Step::Right),
        (post("p0.0"), Facing::South, false)
    );
    assert_eq!(
        step_policeman(&s, &p, Step::Advance),
        (post("p0.1"), Facing::East, false)
    );
    let edge = Policeman {
        at: post("p0.2"),
        facing: Facing::East,
    };
    assert_eq!(
        step_policeman(&s, &edge, Step::Advance),
        (post("p0.3"), Facing::West, true)
    );
}

#[test]
fn a_turn_opens_with_the_policeman_die() {
    let mut s = table();
    if let Phase::Playing(t) = &mut s.phase {
        t.stage = Stage::Policeman;
    }
    assert_eq!(
        refused(&s, json!({"type": "end_turn"})),
        "ludovia.policeman_first"
    );
    assert_eq!(
        refused(&s, json!({"type": "move_policeman", "policeman": 0})),
        "physical.roll_needed"
    );
    assert_eq!(
        refused(
            &s,
            json!({"type": "move_policeman", "policeman": 0, "step": "left"})
        ),
        "ludovia.policeman_die"
    );
    assert_eq!(
        refused(
            &s,
            json!({"type": "move_policeman", "policeman": 7, "roll": 5})
        ),
        "ludovia.no_such_policeman"
    );
    act(
        &mut s,
        json!({"type": "move_policeman", "policeman": 0, "roll": 5}),
    );
    assert_eq!(s.policemen[0].at, post("p2.3"));
    assert_eq!(turn(&s).stage, Stage::Actions);
    assert_eq!(
        Ludovia::decide(
            &s,
            Some(1),
            &Action::EndTurn,
            &mut Chance::new(DiceMode::Physical, 1, 1)
        )
        .unwrap_err()
        .rule,
        "ludovia.turn"
    );
}

#[test]
fn robbing_keeps_treasure_and_respects_the_carrying_limit() {
    let mut s = table();
    s.thieves[0].at = sp("s1.1");
    assert_eq!(refused(&s, json!({"type": "rob"})), "physical.draw_needed");
    assert_eq!(
        refused(&s, json!({"type": "rob", "drew": "Gold Bar"})),
        "physical.impossible_draw"
    );
    act(&mut s, json!({"type": "rob", "drew": "Pearl Necklace"}));
    assert_eq!(s.thieves[0].hand, vec!["Pearl Necklace"]);
    assert_eq!(turn(&s).ap, 3, "a treasure does not end the turn");
    assert_eq!(
        refused(&s, json!({"type": "rob", "drew": "Dog"})),
        "ludovia.rooftop_robbed"
    );
    give(&mut s, 0, &["Silver Spoons", "Silver Spoons"]);
    s.thieves[0].at = sp("s1.0");
    assert_eq!(
        refused(&s, json!({"type": "rob", "drew": "Dog"})),
        "ludovia.carry_limit"
    );
    equip(&mut s, 0, "Backpack");
    act(&mut s, json!({"type": "rob", "drew": "Ruby Crown"}));
    assert_eq!(s.thieves[0].hand.len(), 4);
}

#[test]
fn events_are_resolved_and_end_the_turn() {
    // Dog: give up something, then the turn ends.
    let mut s = table();
    s.thieves[0].at = sp("s1.1");
    give(&mut s, 0, &["Ruby Crown"]);
    act(&mut s, json!({"type": "rob", "drew": "Dog"}));
    assert_eq!(turn(&s).stage, Stage::Choice(Choice::DogDiscard));
    assert_eq!(
        refused(&s, json!({"type": "end_turn"})),
        "ludovia.choice_pending"
    );
    act(
        &mut s,
        json!({"type": "discard_treasure", "card": "Ruby Crown"}),
    );
    assert_eq!(turn(&s).seat, 1);
    assert_eq!(s.rooftop_discard, vec!["Dog", "Ruby Crown"]);

    // Trap: fall to a street of the block.
    let mut s = table();
    s.thieves[0].at = sp("s1.1");
    act(&mut s, json!({"type": "rob", "drew": "Trap"}));
    assert_eq!(
        refused(&s, json!({"type": "land", "street": "h2.1"})),
        "ludovia.trap_street"
    );
    act(&mut s, json!({"type": "land", "street": "v0.0"}));
    assert_eq!(s.thieves[0].at, sp("v0.0"));
    assert_eq!(turn(&s).seat, 1);

    // Stake-out: arrested, and a third policeman by the Prison.
    let mut s = table();
    s.thieves[0].at = sp("s1.1");
    act(&mut s, json!({"type": "rob", "drew": "Stake-out"}));
    assert!(s.thieves[0].in_prison);
    assert_eq!(
        refused(
            &s,
            json!({"type": "place_policeman", "at": "p0.0", "facing": "east"})
        ),
        "ludovia.stake_out_post"
    );
    act(
        &mut s,
        json!({"type": "place_policeman", "at": "p2.1", "facing": "east"}),
    );
    assert_eq!(s.policemen.len(), 3);
    assert_eq!(turn(&s).seat, 1);

    // Equipment: the top card, free; a fourth item must go.
    let mut s = table();
    s.thieves[0].at = sp("s1.1");
    for item in ["Mask", "Bolas", "Whistle"] {
        equip(&mut s, 0, item);
    }
    act(
        &mut s,
        json!({"type": "rob", "drew": "Equipment", "found": "Soft Shoes"}),
    );
    assert_eq!(turn(&s).stage, Stage::Choice(Choice::EquipmentOverflow));
    act(
        &mut s,
        json!({"type": "discard_equipment", "item": "Bolas"}),
    );
    assert_eq!(
        s.thieves[0].equipment,
        vec!["Mask", "Whistle", "Soft Shoes"]
    );
    assert_eq!(turn(&s).seat, 1);
}

#[test]
fn the_police_never_outnumber_the_thieves_by_more_than_one() {
    let mut s = table();
    s.policemen.push(Policeman {
        at: post("p0.0"),
        facing: Facing::East,
    });
    s.policemen.push(Policeman {
        at: post("p0.1"),
        facing: Facing::East,
    });
    s.thieves[0].at = sp("s1.1");
    let facts = act(&mut s, json!({"type": "rob", "drew": "Stake-out"}));
    assert!(!facts
        .iter()
        .any(|f| matches!(f, Fact::ChoiceAwaited { .. })));
    assert_eq!(s.policemen.len(), 4);
}

#[test]
fn jumps_need_a_roll_above_the_treasure_carried() {
    let mut s = table();
    s.thieves[0].at = sp("s1.3");
    // Empty-handed, a jump is free and needs no roll.
    assert_eq!(
        refused(&s, json!({"type": "jump", "to": "s1.2", "roll": 4})),
        "ludovia.no_roll"
    );
    assert_eq!(
        refused(&s, json!({"type": "jump", "to": "s1.1"})),
        "ludovia.jump"
    );
    let mut free = s.clone();
    act(&mut free, json!({"type": "jump", "to": "s1.2"}));
    assert_eq!(free.thieves[0].at, sp("s1.2"));

    give(&mut s, 0, &["Silver Spoons", "Pearl Necklace"]);
    let mut made = s.clone();
    act(&mut made, json!({"type": "jump", "to": "s1.2", "roll": 3}));
    assert_eq!(made.thieves[0].at, sp("s1.2"));
    // A roll equal to the treasure count falls to the street between.
    let facts = act(&mut s, json!({"type": "jump", "to": "s1.2", "roll": 2}));
    assert!(facts.iter().any(|f| matches!(f, Fact::ThiefFell { .. })));
    assert_eq!(s.thieves[0].at, sp("v0.1"));
    assert_eq!(turn(&s).seat, 1, "a fall ends the turn");
}

#[test]
fn steals_favour_the_victim_and_knock_downs_the_attacker() {
    let mut s = table();
    for seat in [0, 1] {
        s.thieves[seat].at = sp("s1.1");
    }
    give(&mut s, 1, &["Ruby Crown", "Silver Spoons"]);
    let mut tie = s.clone();
    act(
        &mut tie,
        json!({"type": "steal", "from": 1, "rolls": [4, 4]}),
    );
    assert_eq!(tie.thieves[1].hand.len(), 2);
    assert_eq!(turn(&tie).seat, 1, "losing ends the attacker's turn");
    let mut won = s.clone();
    assert_eq!(
        refused(&won, json!({"type": "steal", "from": 1, "rolls": [5, 4]})),
        "physical.draw_needed"
    );
    act(
        &mut won,
        json!({"type": "steal", "from": 1, "rolls": [5, 4], "took": "Ruby Crown"}),
    );
    assert_eq!(won.thieves[0].hand, vec!["Ruby Crown"]);
    assert_eq!(
        refused(&s, json!({"type": "steal", "from": 0, "rolls": [5, 4]})),
        "ludovia.target"
    );
    assert_eq!(
        refused(&s, json!({"type": "steal", "from": 2, "rolls": [5, 4]})),
        "ludovia.same_rooftop"
    );

    let mut knock = s.clone();
    assert_eq!(
        refused(
            &knock,
            json!({"type": "knock_down", "target": 1, "street": "h1.1", "rolls": [3, 3]})
        ),
        "ludovia.knock_down_street"
    );
    // Ruby Crown on a watched street: the fall is an arrest.
    knock.policemen[0] = Policeman {
        at: post("p0.0"),
        facing: Facing::East,
    };
    act(
        &mut knock,
        json!({"type": "knock_down", "target": 1, "street": "h0.0", "rolls": [3, 3]}),
    );
    assert!(knock.thieves[1].in_prison);
    assert_eq!(turn(&knock).seat, 0, "the winner plays on");

    // Make-up adds 2 to the attacker's die, once.
    let mut made_up = s.clone();
    equip(&mut made_up, 0, "Make-up");
    let facts = act(
        &mut made_up,
        json!({"type": "knock_down", "target": 1, "street": "v0.0", "rolls": [1, 3], "make_up": true}),
    );
    assert!(facts.iter().any(|f| matches!(
        f,
        Fact::KnockDownTried {
            won: true,
            rolls: [3, 3],
            ..
        }
    )));
}

#[test]
fn buying_pays_in_full_and_renews_the_offer() {
    let mut s = table();
    give(&mut s, 0, &["Pearl Necklace", "Silver Spoons"]);
    assert_eq!(
        refused(
            &s,
            json!({"type": "buy", "item": "Whistle", "pay": ["Pearl Necklace"]})
        ),
        "ludovia.price"
    );
    assert_eq!(
        refused(
            &s,
            json!({"type": "buy", "item": "Bolas", "pay": ["Pearl Necklace"]})
        ),
        "ludovia.not_on_offer"
    );
    assert_eq!(
        refused(
            &s,
            json!({"type": "buy", "item": "Mask", "pay": ["Ruby Crown"]})
        ),
        "ludovia.not_carried"
    );
    // Names are read in any letter case; the facts carry the box's spelling.
    let facts = act(
        &mut s,
        json!({"type": "buy", "item": "mask", "pay": ["pearl necklace"], "drew": ["bolas", "BOLAS", "Soft Shoes"]}),
    );
    assert!(facts.iter().any(|f| matches!(
        f,
        Fact::EquipmentBought { lost: 100, item, paid, .. } if item == "Mask" && paid == &["Pearl Necklace"]
    )));
    assert_eq!(s.offer, vec!["Bolas", "Bolas", "Soft Shoes"]);
    assert_eq!(s.deck_bottom, vec!["Whistle", "Backpack"]);
    assert_eq!(s.thieves[0].equipment, vec!["Mask"]);
    // Off the market, nothing is for sale.
    s.thieves[0].at = sp("h1.1");
    assert_eq!(
        refused(
            &s,
            json!({"type": "buy", "item": "Bolas", "pay": ["Silver Spoons"]})
        ),
        "ludovia.market"
    );
}

#[test]
fn fifteen_fame_wins_at_once() {
    let mut s = table();
    s.thieves[0].fame = 11;
    give(&mut s, 0, &["Ruby Crown", "Silver Spoons"]);
    s.thieves[1].at = sp("h0.0");
    assert_eq!(
        refused(
            &s,
            json!({"type": "cash_in", "cards": ["Gold Candlestick"]})
        ),
        "ludovia.not_carried"
    );
    let mut away = s.clone();
    away.thieves[0].at = sp("h1.1");
    assert_eq!(
        refused(&away, json!({"type": "cash_in"})),
        "ludovia.cash_in_lair"
    );
    act(&mut s, json!({"type": "cash_in"}));
    assert_eq!(s.thieves[0].fame, 16);
    assert!(Ludovia::is_over(&s));
    assert_eq!(s.outcome.as_ref().unwrap().winners, vec![0]);
}

#[test]
fn prisoners_choose_the_policeman_then_stand_trial() {
    let mut s = table();
    s.thieves[0].at = Space::Prison;
    s.thieves[0].in_prison = true;
    give(&mut s, 0, &["Ruby Crown", "Silver Spoons"]);
    if let Phase::Playing(t) = &mut s.phase {
        t.stage = Stage::Policeman;
    }
    assert_eq!(
        refused(
            &s,
            json!({"type": "move_policeman", "policeman": 0, "roll": 3})
        ),
        "ludovia.prisoner_chooses"
    );
    act(
        &mut s,
        json!({"type": "move_policeman", "policeman": 0, "step": "left"}),
    );
    assert_eq!(s.policemen[0].facing, Facing::West);
    assert_eq!(turn(&s).stage, Stage::Trial);
    let mut acquitted = s.clone();
    act(&mut acquitted, json!({"type": "stand_trial", "roll": 6}));
    assert!(!acquitted.thieves[0].in_prison);
    assert_eq!(turn(&acquitted).stage, Stage::Actions);
    act(&mut acquitted, json!({"type": "move", "to": "h2.1"}));

    act(&mut s, json!({"type": "stand_trial", "roll": 5}));
    assert_eq!(turn(&s).stage, Stage::Choice(Choice::ConvictionDiscard));
    act(
        &mut s,
        json!({"type": "discard_treasure", "card": "Silver Spoons"}),
    );
    assert!(s.thieves[0].in_prison);
    assert_eq!(s.thieves[0].hand, vec!["Ruby Crown"]);
    assert_eq!(turn(&s).seat, 1, "the convict sits the turn out");
}

#[test]
fn a_prisoner_without_loot_walks_free() {
    let mut s = table();
    s.thieves[0].at = Space::Prison;
    s.thieves[0].in_prison = true;
    if let Phase::Playing(t) = &mut s.phase {
        t.stage = Stage::Policeman;
    }
    act(
        &mut s,
        json!({"type": "move_policeman", "policeman": 1, "step": "advance"}),
    );
    assert!(!s.thieves[0].in_prison);
    act(&mut s, json!({"type": "move", "to": "v2.2"}));
}

#[test]
fn the_night_ends_when_the_rooftops_run_out() {
    let mut s = table();
    s.thieves[0].at = sp("s1.1");
    s.robbed = s
        .rooftops()
        .into_iter()
        .filter(|r| *r != sp("s1.1"))
        .collect();
    let last = s.pool.iter().position(|c| c == "Ruby Crown").unwrap();
    let keep = s.pool.remove(last);
    s.rooftop_discard = std::mem::replace(&mut s.pool, vec![keep]);
    s.thieves[1].fame = 3;
    give(&mut s, 2, &[]);
    s.thieves[0].fame = 3;
    act(&mut s, json!({"type": "rob", "drew": "Ruby Crown"}));
    assert!(Ludovia::is_over(&s));
    // Tied on Fame; the treasure carried breaks the tie.
    assert_eq!(s.outcome.as_ref().unwrap().winners, vec![0]);
}

#[test]
fn opening_rolls_settle_order_and_placements() {
    let mut s = setup_with(&LAYOUT, &pack(), 2).unwrap();
    assert_eq!(
        refused(&s, json!({"type": "end_turn"})),
        "ludovia.order_first"
    );
    assert_eq!(
        refused(&s, json!({"type": "roll_for_order", "rolls": [6]})),
        "ludovia.rolls"
    );
    act(
        &mut s,
        json!({"type": "roll_for_order", "rolls": [3, 6, 6]}),
    );
    assert_eq!(
        s.phase,
        Phase::Order {
            contenders: vec![1, 2]
        }
    );
    act(&mut s, json!({"type": "roll_for_order", "rolls": [2, 5]}));
    assert_eq!(s.order, vec![2, 0, 1]);
    // The last player (Bo) places first, then the second-last (Ada).
    assert_eq!(s.phase, Phase::Placing { seat: 1 });
    assert_eq!(
        refused(
            &s,
            json!({"type": "place_policeman", "at": "p0.0", "facing": "north"})
        ),
        "ludovia.facing_edge"
    );
    act(
        &mut s,
        json!({"type": "place_policeman", "at": "p0.0", "facing": "east"}),
    );
    // Rules 1 kept placed policemen apart; from rules 2 they may share a
    // post when placed, as they may by moving.
    let mut first_rules = s.clone();
    first_rules.rules = 1;
    let again = json!({"type": "place_policeman", "at": "p0.0", "facing": "south"});
    assert_eq!(refused(&first_rules, again.clone()), "ludovia.post_taken");
    act(&mut s, again);
    assert_eq!(s.policemen_at(post("p0.0")), vec![0, 1]);
    assert_eq!(turn(&s).seat, 2);
    assert_eq!(turn(&s).stage, Stage::Policeman);
}

#[test]
fn seats_see_their_own_hand_only() {
    let mut s = table();
    give(&mut s, 0, &["Ruby Crown"]);
    give(&mut s, 1, &["Silver Spoons"]);
    let bo = Ludovia::view(&s, Viewer::Seat(1));
    assert_eq!(bo["thieves"][0]["hand"], json!({"secret": 1}));
    assert_eq!(bo["thieves"][1]["hand"], json!(["Silver Spoons"]));
    assert_eq!(bo["pool"], json!({"face_down": 47}));
    let owner = Ludovia::view(&s, Viewer::Owner);
    assert_eq!(owner["thieves"][0]["hand"], json!(["Ruby Crown"]));
    let text = Ludovia::render(&s, Viewer::Seat(1));
    assert!(!text.contains("Ruby Crown"), "{text}");
    assert!(text.contains("1 secret card"));
    assert!(Ludovia::render(&s, Viewer::Owner).contains("Ruby Crown"));

    let robbed = Fact::RooftopRobbed {
        seat: 0,
        rooftop: sp("s1.1"),
        card: Some("Ruby Crown".into()),
        event: None,
    };
    let cx = Context {
        by: Some(0),
        seq: 2,
        state: &s,
    };
    let hidden = Ludovia::redact(&robbed, Viewer::Seat(1), &cx);
    assert!(matches!(&hidden, Fact::RooftopRobbed { card: None, .. }));
    assert!(Ludovia::narrate(&s, &hidden)[0].contains("a treasure, kept secret"));
    assert_eq!(
        serde_json::to_value(Ludovia::redact(&robbed, Viewer::Seat(0), &cx)).unwrap(),
        serde_json::to_value(&robbed).unwrap()
    );
    let dog = Fact::RooftopRobbed {
        seat: 0,
        rooftop: sp("s1.1"),
        card: Some("Dog".into()),
        event: Some(super::content::RooftopEvent::Dog),
    };
    assert!(matches!(
        Ludovia::redact(&dog, Viewer::Public, &cx),
        Fact::RooftopRobbed { card: Some(_), .. }
    ));
}

fn created(players: usize, seed: u64, dice: DiceMode) -> GameCreated {
    GameCreated {
        title: None,
        kind: "ludovia".into(),
        players: ["Ada", "Bo", "Cy", "Dee", "Eve", "Fay"][..players]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        seed,
        dice,
        options: BTreeMap::new(),
        pack: Ludovia::default_pack(),
        public: false,
        rules_version: Some(Ludovia::RULES_VERSION),
        chance_version: None,
    }
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
    let created = created(players, seed, DiceMode::Digital);
    let mut game = Game::start(&created).unwrap();
    let mut rng = TableRng::for_event(seed, u64::MAX);
    let mut events = Vec::new();
    for _ in 0..40_000 {
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
        let ev = event(game.seq() + 1, decision.body);
        game.apply(&ev).unwrap();
        events.push(ev);
        let s: State = serde_json::from_value(game.view(Viewer::Owner)).unwrap();
        check_invariants(
            &s,
            &format!("seed {seed}, {players} players, seq {}", game.seq()),
        );
    }
    assert!(game.is_over(), "seed {seed}: the game did not end");
    (events, game)
}

#[test]
fn random_legal_play_ends_and_keeps_every_invariant() {
    for seed in 0..6 {
        for players in [3, 4, 5, 6] {
            let (events, game) = random_game(players, seed);
            let mut all = vec![Event {
                body: Body::GameCreated(created(players, seed, DiceMode::Digital)),
                seq: 1,
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
        }
    }
}

#[test]
fn redacted_events_hide_treasure_from_other_seats() {
    let (events, game) = random_game(3, 11);
    assert!(game.is_over());
    // Find a treasure robbery and look at it from the middle of the game.
    let start = Game::start(&created(3, 11, DiceMode::Digital)).unwrap();
    let mut g = start;
    let mut seen_hidden = false;
    for ev in &events {
        let Body::ActionAccepted(body) = &ev.body else {
            unreachable!()
        };
        let robbery = body
            .facts
            .iter()
            .find(|f| f["type"] == "rooftop_robbed" && f.get("event").is_none());
        if let Some(f) = robbery {
            let robber = f["seat"].as_u64().unwrap() as Seat;
            let other = (robber + 1) % 3;
            let hidden = g.redact_event(ev, Viewer::Seat(other)).unwrap();
            let Body::ActionAccepted(h) = &hidden.body else {
                unreachable!()
            };
            assert!(h.chance.is_empty(), "the draw names the card");
            assert!(h
                .facts
                .iter()
                .all(|f| f.get("card").is_none() || f["type"] != "rooftop_robbed"));
            let own = g.redact_event(ev, Viewer::Seat(robber)).unwrap();
            assert_eq!(&own, ev, "the robber sees their own card");
            let lines = g.clone().apply_as(ev, Viewer::Seat(other)).unwrap();
            assert!(lines.iter().any(|l| l.contains("kept secret")), "{lines:?}");
            seen_hidden = true;
        }
        g.apply(ev).unwrap();
    }
    assert!(seen_hidden, "the game had a treasure robbery");
    // After the end, every seat sees everything.
    assert_eq!(game.effective_viewer(Viewer::Seat(1)), Viewer::Owner);
    let public = game.effective_viewer(Viewer::Public);
    assert_eq!(game.view(public), game.view(Viewer::Owner));
    let last = events.last().unwrap();
    assert_eq!(&game.redact_event(last, public).unwrap(), last);
}

/// A table that plays with purpose: rob the nearest rooftop, and with full
/// pockets shop (or cash in, staying under 15) at the nearest market. Digital
/// dice; returns the actions taken and the final game.
fn greedy_game(players: usize, seed: u64) -> (Vec<Value>, Game) {
    greedy_game_of(&created(players, seed, DiceMode::Digital))
}

fn greedy_game_of(created: &GameCreated) -> (Vec<Value>, Game) {
    let seed = created.seed;
    let mut game = Game::start(created).unwrap();
    let mut actions = Vec::new();
    for _ in 0..20_000 {
        if game.is_over() {
            break;
        }
        let s: State = serde_json::from_value(game.view(Viewer::Owner)).unwrap();
        let legal: Vec<Value> = game.legal(None).into_iter().map(|l| l.action).collect();
        let action = greedy_pick(&s, &legal);
        let decision = game
            .decide(None, &action)
            .unwrap_or_else(|e| panic!("seed {seed}: {action} was refused: {e}"));
        game.apply(&event(game.seq() + 1, decision.body)).unwrap();
        actions.push(action);
    }
    (actions, game)
}

fn greedy_pick(s: &State, legal: &[Value]) -> Value {
    let of = |kind: &str| legal.iter().find(|a| a["type"] == kind).cloned();
    let Some(turn) = s.turn() else {
        return legal[0].clone();
    };
    if turn.stage != Stage::Actions {
        return legal[0].clone();
    }
    let me = turn.seat;
    let t = s.thief(me);
    if let Some(rob) = of("rob") {
        return rob;
    }
    let full = t.hand.len() >= s.carry_limit(me);
    if full {
        if t.at == Space::Lair {
            // Cash in what keeps Fame under 15, so the rooftops end the night.
            let mut cards = t.hand.clone();
            cards.sort_by_key(|c| s.value(c));
            let mut pick = Vec::new();
            let mut points = 0;
            for c in cards {
                if t.fame + points + s.value(&c) / 100 < decide::FAME_TO_WIN {
                    points += s.value(&c) / 100;
                    pick.push(c);
                }
            }
            if !pick.is_empty() {
                return json!({"type": "cash_in", "cards": pick});
            }
        }
        // Pay with everything: a full hand is what needs emptying.
        if let Some(buy) = legal
            .iter()
            .filter(|a| a["type"] == "buy")
            .max_by_key(|a| a["pay"].as_array().map_or(0, Vec::len))
        {
            return buy.clone();
        }
        if let Some(discard) = of("discard_equipment") {
            return discard;
        }
    }
    let goal = |space: Space| {
        if full {
            space == Space::Lair
                || matches!(space, Space::Cell { row, col } if s.cell(row, col) == Some(super::state::CellKind::BlackMarket))
        } else {
            s.is_rooftop(space) && !s.robbed.contains(&space)
        }
    };
    match first_step(s, me, t.at, &goal) {
        Some(to) => {
            let jump = s.is_rooftop(t.at)
                && s.is_rooftop(to)
                && !decide::moves_from(s, t.at).iter().any(|(m, _)| *m == to);
            if jump {
                json!({"type": "jump", "to": to})
            } else {
                json!({"type": "move", "to": to})
            }
        }
        None => json!({"type": "end_turn"}),
    }
}

/// The first space on a shortest way to a goal, moving around blocked lamp
/// posts and jumping only empty-handed.
fn first_step(s: &State, me: Seat, from: Space, goal: &dyn Fn(Space) -> bool) -> Option<Space> {
    use std::collections::{BTreeMap, VecDeque};
    let mut first: BTreeMap<Space, Space> = BTreeMap::new();
    let mut queue = VecDeque::from([from]);
    let mut seen = std::collections::BTreeSet::from([from]);
    let empty = s.thief(me).hand.is_empty();
    while let Some(at) = queue.pop_front() {
        if at != from && goal(at) {
            return first.get(&at).copied();
        }
        let mut next: Vec<Space> = decide::moves_from(s, at)
            .into_iter()
            .filter(|(to, passing)| {
                !matches!(
                    decide::police(s, me, at, *to, *passing),
                    decide::Police::Blocked(_)
                )
            })
            .map(|(to, _)| to)
            .collect();
        if let (true, Space::Cell { row, col }) = (empty && s.is_rooftop(at), at) {
            next.extend(
                s.grid()
                    .across(row, col)
                    .into_iter()
                    .map(|((r, c), _)| Space::Cell { row: r, col: c })
                    .filter(|to| s.is_rooftop(*to)),
            );
        }
        for to in next {
            if seen.insert(to) {
                let step = if at == from { to } else { first[&at] };
                first.insert(to, step);
                queue.push_back(to);
            }
        }
    }
    None
}

#[test]
fn a_greedy_table_robs_every_rooftop() {
    for (players, seed) in [(3, 2), (5, 4)] {
        let (actions, game) = greedy_game(players, seed);
        let s: State = serde_json::from_value(game.view(Viewer::Owner)).unwrap();
        check_invariants(&s, &format!("greedy seed {seed}"));
        assert!(game.is_over(), "seed {seed}: the greedy game did not end");
        assert_eq!(s.pool.len(), 0, "seed {seed}: {:?}", s.outcome);
        assert!(s.outcome.as_ref().unwrap().why.contains("last rooftop"));
        // `LUDOVIA_GOLDEN=<dir>` writes the game as a golden file there.
        if let Ok(dir) = std::env::var("LUDOVIA_GOLDEN") {
            let names: Vec<&str> = ["Ada", "Bo", "Cy", "Dee", "Eve", "Fay"][..players].to_vec();
            let mut lines = vec![json!({"new": {"kind": "ludovia", "players": names, "seed": seed, "dice": "digital"}}).to_string()];
            // Two rules the digital table cannot break, before play begins.
            lines.push(json!({"act": {"type": "roll_for_order", "rolls": vec![6; players]}, "rejected": "dice.digital"}).to_string());
            lines.push(
                json!({"as": 1, "act": {"type": "end_turn"}, "rejected": "ludovia.order_first"})
                    .to_string(),
            );
            lines.extend(actions.iter().map(|a| json!({"act": a}).to_string()));
            let path = format!("{dir}/rooftops_run_out_{players}_players.jsonl");
            std::fs::write(path, lines.join("\n") + "\n").unwrap();
        }
    }
}

/// Writes `tests/data/cli/ludovia_secrets.jsonl`, the short greedy night
/// the CLI adversary test reads (run by hand when the rules change what a
/// seeded game decides): `cargo test -p tabletape-engine write_cli_secrets_script -- --ignored`.
#[test]
#[ignore = "writes a fixture; run by hand when a rules change moves the seeded night"]
fn write_cli_secrets_script() {
    // The first seed from e's digits whose night leaves, at the check, two
    // cards in hands other than Bo's that Bo does not hold himself and no
    // discard names.
    let (created, actions) = (2_718_281_828_459u64..)
        .map(|seed| {
            let mut c = created(3, seed, DiceMode::Digital);
            c.options.insert("round_limit".into(), json!(3));
            let (actions, _) = greedy_game_of(&c);
            (c, actions)
        })
        .find(|(c, actions)| {
            let mut game = Game::start(c).unwrap();
            // The reads at seq 20 (the fork) and 30 must show a secret too.
            let mut held_early: Vec<std::collections::BTreeSet<String>> = Vec::new();
            for action in &actions[..actions.len() - 1] {
                let d = game.decide(None, action).unwrap();
                game.apply(&event(game.seq() + 1, d.body)).unwrap();
                if [20, 30].contains(&game.seq()) {
                    let s: State = serde_json::from_value(game.view(Viewer::Owner)).unwrap();
                    held_early.push(s.thieves.iter().flat_map(|t| t.hand.clone()).collect());
                }
            }
            let s: State = serde_json::from_value(game.view(Viewer::Owner)).unwrap();
            let bo: std::collections::BTreeSet<&String> = s.thieves[1].hand.iter().collect();
            let others: std::collections::BTreeSet<&String> = [0, 2]
                .iter()
                .flat_map(|&i| s.thieves[i].hand.iter())
                .filter(|c| !bo.contains(c))
                .collect();
            // A name on the public discard pile would show anyway.
            let discarded = others.iter().any(|c| s.rooftop_discard.contains(c));
            let shown_early = held_early.len() == 2
                && others
                    .iter()
                    .any(|c| held_early.iter().all(|h| h.contains(*c)));
            others.len() >= 2 && !discarded && shown_early && !game.is_over()
        })
        .unwrap();
    let mut game = Game::start(&created).unwrap();
    let mut lines = vec![
        "# A short night of The Rooftops of Ludovia, played through `tabletape act --file`".to_string(),
        "# (tests/cli.rs, secrets_never_reach_a_seat). The first JSON line sets the game up:".into(),
        "# `new` is the creation (digital dice, so the seed decides every roll and draw), `fork` an".into(),
        "# owner's reseeded what-if made at the check, `viewers` who reads it there. Every other".into(),
        "# JSON line is one action as `act --file` reads it. The night ends on its last line; the".into(),
        "# reads are made at the `# check` line, with the game still in play. Written by the".into(),
        "# engine's ignored test `write_cli_secrets_script` (greedy play).".into(),
        json!({"new": {"kind": "ludovia", "players": ["Ada", "Bo", "Cy"], "seed": created.seed, "options": {"round_limit": 3}}, "fork": {"at": 20, "name": "what-if", "reseed": 1_618_033_988_749u64}, "viewers": ["1", "public"]}).to_string(),
    ];
    let last = actions.len() - 1;
    for (i, action) in actions.iter().enumerate() {
        let s: State = serde_json::from_value(game.view(Viewer::Owner)).unwrap();
        let seat = match &s.phase {
            Phase::Placing { seat } => Some(*seat),
            Phase::Playing(t) => Some(t.seat),
            _ => None,
        };
        if i == last {
            lines.push(
                "# check: the last action of the last round is still to come; the hands are secret"
                    .into(),
            );
        }
        lines.push(match seat {
            Some(seat) => json!({"as": seat, "action": action}).to_string(),
            None => json!({"action": action}).to_string(),
        });
        let decision = game.decide(None, action).unwrap();
        game.apply(&event(game.seq() + 1, decision.body)).unwrap();
    }
    assert!(game.is_over());
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/cli/ludovia_secrets.jsonl"
    );
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

#[test]
fn the_board_renders_as_text() {
    let mut s = table();
    s.thieves[0].at = sp("s1.4");
    s.thieves[1].at = sp("v0.1");
    s.thieves[2].at = sp("h1.1");
    s.robbed.insert(sp("s1.3"));
    s.policemen.push(Policeman {
        at: post("p3.3"),
        facing: Facing::West,
    });
    let text = Ludovia::render(&s, Viewer::Owner);
    let lines: Vec<&str> = text.lines().collect();
    // Two header lines of column numbers, then 4 lamp-post rows and 9 rows
    // of block spaces, each behind a row number.
    assert_eq!(
        lines[0].trim_end(),
        "      0  1  2   3  4  5   6  7  8    block space columns"
    );
    assert_eq!(
        lines[1].trim_end(),
        "    0         1         2         3   lamp-post columns"
    );
    assert_eq!(lines[2], "  p0+--h0.0---+--h0.1---+--h0.2---+");
    assert!(
        lines[4].starts_with("  1 | R  R  R 1 .  0  R :"),
        "Ada on s1.4, Bo on v0.1:\n{text}"
    );
    assert!(lines[4].ends_with("v0.0 to v0.3"), "{text}");
    assert!(lines[6].contains("----2----"), "Cy on h1.1:\n{text}");
    // Watched streets: v0.3 down to the policemen, h3.x west of p3.3.
    assert!(lines[3].ends_with(':'), "{text}");
    assert_eq!(
        lines[14], "  p3+==h3.0===+==h3.1===^==h3.2===#",
        "two policemen share p3.3; p3.2's faces north:\n{text}"
    );
    assert!(text.contains("Policeman 1: lamp post p3.2, facing north"));
    assert!(text.contains("Rooftops left: 48 of 49"));
    assert!(text.contains("Thief 2 Cy: street h1.1"));
    assert!(text.contains("Key: "));
}

#[test]
fn a_seats_story_hides_the_loot_until_the_night_ends() {
    use crate::narrative::Narrative;
    let (events, game) = random_game(3, 11);
    let mut all = vec![Event {
        body: Body::GameCreated(created(3, 11, DiceMode::Digital)),
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
    assert!(game.is_over());
    // Mid-game, seat 1 reads secrets as secrets; the owner reads names.
    let cut = all.len() / 2;
    let (seat, _) = Narrative::tell_as("t", &all[..cut], Viewer::Seat(1)).unwrap();
    let (owner, _) = Narrative::tell("t", &all[..cut]).unwrap();
    let text = |n: &Narrative| n.render(crate::narrative::Format::Text);
    assert!(text(&seat).contains("kept secret"));
    assert!(!text(&owner).contains("kept secret"));
    // The whole night, once over, is told alike to everyone.
    let (seat, _) = Narrative::tell_as("t", &all, Viewer::Seat(1)).unwrap();
    let (owner, _) = Narrative::tell("t", &all).unwrap();
    assert_eq!(seat, owner);
}

#[test]
fn every_sample_item_does_what_its_card_says() {
    // Lucky Charm: a 5 acquits too.
    let mut s = table();
    s.thieves[0].at = Space::Prison;
    s.thieves[0].in_prison = true;
    give(&mut s, 0, &["Ruby Crown"]);
    equip(&mut s, 0, "Lucky Charm");
    if let Phase::Playing(t) = &mut s.phase {
        t.stage = Stage::Trial;
    }
    act(&mut s, json!({"type": "stand_trial", "roll": 5}));
    assert!(!s.thieves[0].in_prison);

    // Soft Shoes: +1 on the jump die; Rope and Grapple: no roll at all.
    let mut s = table();
    s.thieves[0].at = sp("s1.3");
    give(&mut s, 0, &["Silver Spoons", "Pearl Necklace"]);
    let mut shod = s.clone();
    equip(&mut shod, 0, "Soft Shoes");
    act(&mut shod, json!({"type": "jump", "to": "s1.2", "roll": 2}));
    assert_eq!(shod.thieves[0].at, sp("s1.2"));
    assert_eq!(
        shod.thieves[0].equipment,
        vec!["Soft Shoes"],
        "red items stay"
    );
    let mut roped = s.clone();
    assert_eq!(
        refused(&roped, json!({"type": "jump", "to": "s1.2", "rope": true})),
        "ludovia.rope"
    );
    equip(&mut roped, 0, "Rope and Grapple");
    assert_eq!(
        refused(
            &roped,
            json!({"type": "jump", "to": "s1.2", "rope": true, "roll": 1})
        ),
        "ludovia.no_roll"
    );
    act(
        &mut roped,
        json!({"type": "jump", "to": "s1.2", "rope": true}),
    );
    assert_eq!(roped.thieves[0].at, sp("s1.2"));
    assert!(
        roped.thieves[0].equipment.is_empty(),
        "blue items are used up"
    );

    // Whistle: an action point moves a policeman by a die; the item stays.
    let mut s = table();
    assert_eq!(
        refused(&s, json!({"type": "whistle", "policeman": 0, "roll": 5})),
        "ludovia.whistle"
    );
    equip(&mut s, 0, "Whistle");
    act(
        &mut s,
        json!({"type": "whistle", "policeman": 0, "roll": 5}),
    );
    assert_eq!(s.policemen[0].at, post("p2.3"));
    assert_eq!(turn(&s).ap, 3);
    assert_eq!(s.thieves[0].equipment, vec!["Whistle"]);

    // Bolas: knock down a thief on a neighbouring rooftop of the block.
    let mut s = table();
    s.thieves[0].at = sp("s1.1");
    s.thieves[1].at = sp("s1.2");
    let shove = json!({"type": "knock_down", "target": 1, "street": "v0.1", "rolls": [4, 2]});
    assert_eq!(refused(&s, shove.clone()), "ludovia.same_rooftop");
    equip(&mut s, 0, "Bolas");
    act(&mut s, shove);
    assert_eq!(s.thieves[1].at, sp("v0.1"));
    assert!(
        s.thieves[0].equipment.is_empty(),
        "the Bolas is blue, as the rules' worked example prices it: used up"
    );

    // A duplicate from an Equipment event is discarded at once.
    let mut s = table();
    s.thieves[0].at = sp("s1.1");
    equip(&mut s, 0, "Backpack");
    let facts = act(
        &mut s,
        json!({"type": "rob", "drew": "Equipment", "found": "Backpack"}),
    );
    assert!(facts
        .iter()
        .any(|f| matches!(f, Fact::EquipmentDiscarded { item, .. } if item == "Backpack")));
    assert_eq!(s.thieves[0].equipment, vec!["Backpack"]);
    assert_eq!(s.equipment_discard, vec!["Backpack"]);
    // Buying an item already held is refused.
    let mut s = table();
    give(&mut s, 0, &["Pearl Necklace"]);
    equip(&mut s, 0, "Mask");
    assert_eq!(
        refused(
            &s,
            json!({"type": "buy", "item": "Mask", "pay": ["Pearl Necklace"]})
        ),
        "ludovia.equipment_duplicate"
    );
}

// ---------------------------------------------------------------- secrets

/// The hand-made table as a `Game` (restored from a snapshot of it), so the
/// test reads it the way the journal does.
fn game_of(s: &State) -> Game {
    let created = created(3, 1, s.dice);
    let snapshot = crate::game::Snapshot {
        seq: 10,
        seed: 1,
        chapter: "Round 1".into(),
        state: serde_json::to_value(s).unwrap(),
        notes: Default::default(),
        dice: None,
    };
    Game::restore(&created, &snapshot).unwrap()
}

/// The event the journal would store for `by`'s decision, folded into `game`.
fn step(game: &mut Game, by: Option<Seat>, action: Value) -> Event {
    let d = game
        .decide(by, &action)
        .unwrap_or_else(|e| panic!("{action}: {e}"));
    let ev = Event {
        actor: by.map_or(Actor::Owner, Actor::Seat),
        ..event(game.seq() + 1, d.body)
    };
    game.apply(&ev).unwrap();
    ev
}

fn rejection(game: &Game, by: Option<Seat>, action: Value) -> Rejection {
    game.decide(by, &action)
        .map(|_| panic!("{action} was accepted"))
        .unwrap_err()
}

#[test]
fn a_refused_steal_or_robbery_names_no_hidden_card() {
    let mut s = table();
    for seat in [0, 1] {
        s.thieves[seat].at = sp("s1.1");
    }
    give(&mut s, 1, &["Ruby Crown", "Silver Spoons"]);
    let game = game_of(&s);
    let bo = ["Ruby Crown", "Silver Spoons"];
    for by in [Some(0), None] {
        let e = rejection(
            &game,
            by,
            json!({"type": "steal", "from": 1, "rolls": [5, 4]}),
        );
        assert_eq!(e.rule, "physical.draw_needed");
        hides_cards(&e.message, &bo);
        assert!(e.message.contains("a card from Bo's hand"), "{}", e.message);
        let e = rejection(
            &game,
            by,
            json!({"type": "steal", "from": 1, "rolls": [5, 4], "took": "Gold Candlestick"}),
        );
        assert_eq!(e.rule, "physical.impossible_draw");
        hides_cards(&e.message, &bo);
        // A robbery refused for want of a card names none still face down.
        let e = rejection(&game, by, json!({"type": "rob"}));
        assert_eq!(e.rule, "physical.draw_needed");
        hides_cards(
            &e.message,
            &s.pool.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        let e = rejection(&game, by, json!({"type": "rob", "drew": "Diamond Tiara"}));
        assert_eq!(e.rule, "physical.impossible_draw");
        hides_cards(
            &e.message,
            &s.pool.iter().map(String::as_str).collect::<Vec<_>>(),
        );
    }
    // What Ada may do lists none of Bo's cards, nor what she might draw.
    // (Pickers list the box's whole catalogue, the same whatever anyone
    // holds, so they tell nothing; they are checked as that and set aside.)
    let mut offered = game.legal(Some(0));
    let catalogue: Vec<String> = s.faces.keys().cloned().collect();
    for l in &mut offered {
        for pick in l.picks.drain(..) {
            if pick.field != "found" && !pick.many {
                assert_eq!(pick.values, catalogue, "{}", pick.field);
            }
        }
    }
    let legal = serde_json::to_string(&offered).unwrap();
    assert!(legal.contains("\"steal\""), "{legal}");
    hides_cards(&legal, &bo);
    hides_cards(
        &legal,
        &["Gold Candlestick", "Pearl Necklace", "Dog", "Trap"],
    );
}

fn hides_cards(text: &str, cards: &[&str]) {
    for c in cards {
        assert!(!text.contains(c), "`{c}` is named in: {text}");
    }
}

#[test]
fn a_stolen_card_is_known_to_the_thief_and_the_robbed_only() {
    let mut s = table();
    for seat in [0, 1] {
        s.thieves[seat].at = sp("s1.1");
    }
    give(&mut s, 1, &["Ruby Crown"]);
    let mut game = game_of(&s);
    let before = game.clone();
    // Ada's token: the action names no seat, the actor does.
    let stole = step(
        &mut game,
        Some(0),
        json!({"type": "steal", "from": 1, "rolls": [5, 4], "took": "Ruby Crown"}),
    );
    for viewer in [Viewer::Seat(2), Viewer::Public] {
        let shown = serde_json::to_string(&game.redact_event(&stole, viewer).unwrap()).unwrap();
        hides_cards(&shown, &["Ruby Crown"]);
        let lines = before.clone().apply_as(&stole, viewer).unwrap().join("\n");
        hides_cards(&lines, &["Ruby Crown"]);
        assert!(lines.contains("takes a treasure"), "{lines}");
        // The view names every card of the box (`faces`), so look at the hands.
        let view = game.view(viewer);
        hides_cards(&view["thieves"].to_string(), &["Ruby Crown"]);
        assert_eq!(view["thieves"][0]["hand"], json!({"secret": 1}));
    }
    for viewer in [Viewer::Owner, Viewer::Seat(0), Viewer::Seat(1)] {
        assert_eq!(game.redact_event(&stole, viewer).unwrap(), stole);
        let lines = before.clone().apply_as(&stole, viewer).unwrap().join("\n");
        assert!(lines.contains("Ruby Crown"), "{viewer:?}: {lines}");
    }
    // The owner acting for the table: no seat is named as the thief, so the
    // action's card is hidden from every seat; the facts still tell Ada.
    let mut game = game_of(&s);
    let stole = step(
        &mut game,
        None,
        json!({"type": "steal", "from": 1, "rolls": [5, 4], "took": "Ruby Crown"}),
    );
    let Body::ActionAccepted(a) = &game.redact_event(&stole, Viewer::Seat(0)).unwrap().body else {
        unreachable!()
    };
    assert!(a.action.get("took").is_none());
    assert!(a.facts.iter().any(|f| f["card"] == "Ruby Crown"));
    // Once the night is over, everyone reads it.
    game_over(&mut game);
    let seat = game.effective_viewer(Viewer::Seat(2));
    assert_eq!(game.redact_event(&stole, seat).unwrap(), stole);
}

/// Ends the night on `game` as the owner would read it afterwards.
fn game_over(game: &mut Game) {
    let mut s: State = serde_json::from_value(game.view(Viewer::Owner)).unwrap();
    s.phase = Phase::Over;
    *game = game_of(&s);
    assert!(game.is_over());
}

#[test]
fn digital_dice_refuse_a_named_card_before_drawing_it() {
    let mut s = table();
    s.dice = DiceMode::Digital;
    for seat in [0, 1] {
        s.thieves[seat].at = sp("s1.1");
    }
    give(&mut s, 1, &["Ruby Crown"]);
    let game = game_of(&s);
    // Refused alike whatever the dice would say, so a refusal tells nothing.
    for seed in 0..8 {
        let mut g = game.clone();
        if seed > 0 {
            let created = created(3, seed, DiceMode::Digital);
            g = Game::restore(
                &created,
                &crate::game::Snapshot {
                    seed,
                    ..g.snapshot()
                },
            )
            .unwrap();
        }
        let e = rejection(
            &g,
            Some(0),
            json!({"type": "steal", "from": 1, "took": "Ruby Crown"}),
        );
        assert_eq!(e.rule, "dice.digital");
        let e = rejection(&g, Some(0), json!({"type": "rob", "found": "Mask"}));
        assert_eq!(e.rule, "dice.digital");
    }
}

#[test]
fn spaces_and_lamp_posts_are_read_only_in_their_written_form() {
    let game = Game::start(&created(3, 1, DiceMode::Digital)).unwrap();
    // Before, `v2.0\t` and `v2.0000` were read as v2.0.
    for bad in [
        "v2.0\t", "v2.0000", "v02.0", "v+2.0", " v2.0", "v2.0 ", "v2. 0", "v2.", "v.0", "s4.7.1",
        "lair ", " prison", "LAIR", "s٣.1", "h1.99999",
    ] {
        let e = game
            .decide(None, &json!({"type": "move", "to": bad}))
            .unwrap_err();
        assert!(
            e.message.contains(&format!("`{bad}` is not a"))
                && (e.message.contains("plain numbers, as in")
                    || e.message
                        .contains("use lair, prison, a street (h1.2, v0.3)")),
            "{bad:?}: {}",
            e.message
        );
    }
    for bad in ["p1.1 ", "p01.1", "p1.+1"] {
        let e = game
            .decide(
                None,
                &json!({"type": "place_policeman", "at": bad, "facing": "east"}),
            )
            .unwrap_err();
        assert!(
            e.message.contains(&format!(
                "`{bad}` is not a lamp post: write p<n>.<n> with plain numbers, as in p1.2 (no spaces, signs or leading zeros)"
            )),
            "{bad:?}: {}",
            e.message
        );
    }
    // The written forms read: the action is refused by the rules, not the reader.
    for good in ["v2.0", "h0.0", "s4.7", "lair", "prison", "s10.11"] {
        let e = game
            .decide(None, &json!({"type": "move", "to": good}))
            .unwrap_err();
        assert_eq!(e.rule, "ludovia.order_first", "{good}: {}", e.message);
    }
}

#[test]
fn treasure_worth_and_deck_size_are_held_to_what_a_box_holds() {
    // A worth beyond any card would wrap the sums of a hand.
    let mut pack = Ludovia::default_pack();
    pack["rooftop_cards"][0]["value"] = json!(4_294_967_200u32);
    let e = Game::start(&GameCreated {
        title: None,
        pack,
        ..created(3, 1, DiceMode::Digital)
    })
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("rooftop_cards[0].value") && e.contains("$100 to $1500"),
        "{e}"
    );
    let mut pack = Ludovia::default_pack();
    pack["equipment"][0]["count"] = json!(u32::MAX);
    let e = Game::start(&GameCreated {
        title: None,
        pack,
        ..created(3, 1, DiceMode::Digital)
    })
    .unwrap_err()
    .to_string();
    assert!(e.contains("the box holds 24 equipment cards"), "{e}");
    let mut pack = Ludovia::default_pack();
    pack["rooftop_cards"][0]["count"] = json!(u32::MAX);
    let e = Game::start(&GameCreated {
        title: None,
        pack,
        ..created(3, 1, DiceMode::Digital)
    })
    .unwrap_err()
    .to_string();
    assert!(e.contains("rooftop_cards"), "{e}");
}

#[test]
fn a_card_named_as_taken_by_a_failed_steal_is_refused_not_dropped() {
    let mut s = table();
    for seat in [0, 1] {
        s.thieves[seat].at = sp("s1.1");
    }
    give(&mut s, 1, &["Ruby Crown"]);
    let game = game_of(&s);
    let e = rejection(
        &game,
        Some(0),
        json!({"type": "steal", "from": 1, "rolls": [4, 4], "took": "Ruby Crown"}),
    );
    assert_eq!(e.rule, "ludovia.no_draw");
    assert!(e.message.contains("the steal failed"), "{}", e.message);
    game.decide(
        Some(0),
        &json!({"type": "steal", "from": 1, "rolls": [4, 4]}),
    )
    .unwrap();
}

/// The drawing parsed, with the area of every element with an id: a group's
/// first shape (its rect, or its circle as a point).
fn drawing(svg: &str) -> BTreeMap<String, (i64, i64, i64, i64)> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}: {svg}"));
    let num = |n: roxmltree::Node, a: &str| -> i64 { n.attribute(a).unwrap().parse().unwrap() };
    let mut out = BTreeMap::new();
    for g in doc.descendants().filter(|n| n.has_tag_name("g")) {
        let Some(id) = g.attribute("id") else {
            continue;
        };
        let shape = g
            .children()
            .find(|n| n.has_tag_name("rect") || n.has_tag_name("circle"));
        let area = match shape {
            Some(r) if r.has_tag_name("rect") => {
                (num(r, "x"), num(r, "y"), num(r, "width"), num(r, "height"))
            }
            Some(c) => (num(c, "cx"), num(c, "cy"), 0, 0),
            None => (0, 0, 0, 0),
        };
        assert!(out.insert(id.to_string(), area).is_none(), "id {id} twice");
    }
    out
}

/// The page-safe id the drawing gives a space.
fn space_id(space: Space) -> String {
    format!("space-{}", space.to_string().replace('.', "-"))
}

fn svg_checks_the_state(game: &Game, ctx: &str) {
    let svg = game.render_svg(Viewer::Owner);
    let ids = drawing(&svg);
    let s: State = serde_json::from_value(game.view(Viewer::Owner)).unwrap();
    let grid = s.grid();
    let mut spaces: Vec<Space> = vec![Space::Lair, Space::Prison];
    spaces.extend(grid.streets().into_iter().map(Space::Street));
    for row in 0..3 * s.rows {
        for col in 0..3 * s.cols {
            if s.cell(row, col).is_some() {
                spaces.push(Space::Cell { row, col });
            }
        }
    }
    assert_eq!(
        spaces.len(),
        2 + grid.streets().len() + 9 * (s.blocks.len() - 2)
    );
    for space in &spaces {
        assert!(
            ids.contains_key(&space_id(*space)),
            "{ctx}: no group for {space}"
        );
    }
    for (i, t) in s.thieves.iter().enumerate() {
        let (x, y, _, _) = ids[&format!("thief-{i}")];
        let (sx, sy, w, h) = ids[&space_id(t.at)];
        assert!(
            (sx..=sx + w).contains(&x) && (sy..=sy + h).contains(&y),
            "{ctx}: thief {i} drawn at ({x}, {y}), not on {}",
            t.at
        );
    }
    let mut drawn_at = std::collections::BTreeSet::new();
    for (i, p) in s.policemen.iter().enumerate() {
        let (x, y, _, _) = ids[&format!("police-{i}")];
        let (px, py, _, _) = ids[&format!("post-{}-{}", p.at.r, p.at.c)];
        // Policemen sharing a post stand apart on it, each drawn.
        let n = s.policemen_at(p.at).len() as i64;
        assert!(
            (x - px).abs() <= 6 * n && (y - py).abs() <= 6 * n,
            "{ctx}: policeman {i} is not on {}",
            p.at
        );
        assert!(
            drawn_at.insert((x, y)),
            "{ctx}: policeman {i} hides another"
        );
        let facing = format!("facing-{}", p.facing.word());
        assert!(svg.contains(&format!(r#"id="police-{i}" class="policeman {facing}""#)));
    }
    for street in s.watched() {
        let id = space_id(Space::Street(street));
        assert!(
            svg.contains(&format!(r#"id="{id}" class="space street watched""#)),
            "{ctx}: {street} is watched"
        );
    }
}

#[test]
fn the_board_is_drawn_as_svg_where_the_state_says() {
    for (players, seed) in [(3, 4), (5, 9)] {
        let mut game = Game::start(&created(players, seed, DiceMode::Digital)).unwrap();
        let mut rng = TableRng::for_event(seed, u64::MAX);
        svg_checks_the_state(&game, "at the start");
        for n in 0..150 {
            if game.is_over() {
                break;
            }
            let legal = game.legal(None);
            let pick = &legal[rng.below(legal.len() as u32) as usize].action;
            let d = game.decide(None, pick).unwrap();
            game.apply(&event(game.seq() + 1, d.body)).unwrap();
            if n % 10 == 0 {
                svg_checks_the_state(&game, &format!("{players} players, seq {}", game.seq()));
            }
        }
        svg_checks_the_state(&game, "at the end");
    }
    // The hand-made table: thieves sharing a space each stand inside it.
    let mut s = table();
    for seat in 0..3 {
        s.thieves[seat].at = sp("s1.1");
    }
    s.robbed.insert(sp("s1.2"));
    let game = game_of(&s);
    svg_checks_the_state(&game, "three on s1.1");
    let svg = game.render_svg(Viewer::Owner);
    assert!(svg.contains(r#"id="space-s1-2" class="space cell rooftop robbed""#));
    assert!(svg.contains(r#"id="space-s0-0" class="space cell alley""#));
    assert!(svg.contains(r#"id="thief-0" class="thief seat-0 current""#));
    assert!(svg.contains(r#"id="offer-0""#) && svg.contains("Mask"));
    assert!(svg.contains("Round 1: Ada&#39;s turn, 4 action points left"));
}

#[test]
fn a_seats_drawing_shows_its_own_hand_only() {
    let mut s = table();
    s.thieves[0].at = sp("s1.1");
    give(&mut s, 1, &["Ruby Crown"]);
    let mut game = game_of(&s);
    step(
        &mut game,
        Some(0),
        json!({"type": "rob", "drew": "Pearl Necklace"}),
    );
    let ada = game.render_svg(Viewer::Seat(0));
    roxmltree::Document::parse(&ada).unwrap();
    assert!(ada.contains("Hand: Pearl Necklace ($200)"), "{ada}");
    assert!(ada.contains("Hand: 1 secret card"), "Bo's hand as a count");
    hides_cards(&ada, &["Ruby Crown"]);
    let bo = game.render_svg(Viewer::Seat(1));
    assert!(bo.contains("Ruby Crown"));
    hides_cards(&bo, &["Pearl Necklace"]);
    for viewer in [Viewer::Seat(2), Viewer::Public] {
        let theirs = game.render_svg(viewer);
        hides_cards(&theirs, &["Pearl Necklace", "Ruby Crown", "Silver Spoons"]);
        assert!(theirs.contains("Rooftop cards face down: 47 of 49"));
    }
    let owner = game.render_svg(Viewer::Owner);
    assert!(owner.contains("Pearl Necklace") && owner.contains("Ruby Crown"));
    // Once the night is over, everyone sees every hand.
    game_over(&mut game);
    let seat = game.effective_viewer(Viewer::Seat(2));
    assert!(game.render_svg(seat).contains("Ruby Crown"));
}

#[test]
fn names_from_the_table_are_escaped_in_the_drawing() {
    let mut created = created(3, 2, DiceMode::Digital);
    created.players[0] = "<b>&\"x\"".into();
    let game = Game::start(&created).unwrap();
    for viewer in [Viewer::Owner, Viewer::Seat(1), Viewer::Public] {
        let svg = game.render_svg(viewer);
        assert!(!svg.contains("<b>"), "{svg}");
        assert!(svg.contains("&lt;b&gt;&amp;&quot;x&quot;"));
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
        assert!(texts.contains(&"<b>&\"x\""), "the name on the board");
        assert!(texts.iter().any(|t| t.starts_with("0 <b>&\"x\": 0 Fame")));
    }
}

#[test]
fn a_physical_draw_offers_the_boxs_cards_to_pick_never_what_is_left() {
    let mut s = table();
    s.thieves[0].at = sp("s1.1");
    act(&mut s, json!({"type": "rob", "drew": "Pearl Necklace"}));
    let legal = Ludovia::legal(&s, Some(0));
    let rob = legal
        .iter()
        .find(|l| matches!(l.action, Action::Rob { .. }));
    // Robbing again is refused here (the rooftop is robbed): move on to one
    // that is not, and look at the picker offered there.
    let rob = match rob {
        Some(rob) => rob.clone(),
        None => {
            s.thieves[0].at = sp("s1.2");
            Ludovia::legal(&s, Some(0))
                .into_iter()
                .find(|l| matches!(l.action, Action::Rob { .. }))
                .expect("a rob is open on an unrobbed rooftop")
        }
    };
    let drew = rob.picks.iter().find(|p| p.field == "drew").unwrap();
    let every: Vec<String> = s.faces.keys().cloned().collect();
    assert_eq!(drew.values, every, "the whole catalogue");
    assert!(
        drew.values.contains(&"Pearl Necklace".to_string()),
        "a card already drawn is still offered: the pool would give away the hands"
    );
    assert!(!drew.many);
    let found = rob.picks.iter().find(|p| p.field == "found").unwrap();
    assert_eq!(found.values, s.items.keys().cloned().collect::<Vec<_>>());
    // Tabletape's own dice need no picker.
    s.dice = DiceMode::Digital;
    assert!(Ludovia::legal(&s, Some(0))
        .iter()
        .all(|l| l.picks.is_empty()));
}

// ---------------------------------------------------------------- rules 2

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

#[test]
fn a_table_lays_its_own_pieces_turned_as_they_lie() {
    let rows = |r: &[&str]| r.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let bell = rows(&["ARR", "RRR", "RRM"]);
    assert_eq!(decide::turned(&bell, 90), rows(&["RRA", "RRR", "MRR"]));
    assert_eq!(decide::turned(&bell, 180), rows(&["MRR", "RRR", "RRA"]));
    assert_eq!(decide::turned(&bell, 270), rows(&["RRM", "RRR", "ARR"]));
    assert_eq!(decide::turned(&bell, 0), bell);

    let mut layout = LAYOUT;
    layout[0] = "BellTower@90";
    let s = setup_with(&layout, &pack(), 2).unwrap();
    assert_eq!(s.block(0, 0).turned, 90);
    assert_eq!(s.cell(0, 0), Some(super::state::CellKind::Rooftop));
    assert_eq!(s.cell(0, 2), Some(super::state::CellKind::Alley));
    assert_eq!(s.cell(2, 0), Some(super::state::CellKind::BlackMarket));
    assert_eq!(s.rooftops().len(), 49);
    assert!(Ludovia::render(&s, Viewer::Owner).contains("Bell Tower Row (turned 90 degrees)"));

    layout[0] = "belltower@45";
    let e = setup_with(&layout, &pack(), 2).unwrap_err();
    assert_eq!(e.rule, "option.layout");
    assert!(e.message.contains("90, 180 or 270"), "{e}");
    layout[0] = "belltower@90";
    let e = setup_with(&layout, &pack(), 1).unwrap_err();
    assert!(e.message.contains("rules 1"), "{e}");
    layout[0] = "steeple";
    let e = setup_with(&layout, &pack(), 2).unwrap_err();
    assert!(
        e.message.contains("belltower, fountain"),
        "lists the box's pieces: {e}"
    );

    // A pack describing a real box's pieces: its own ids and layouts.
    let mut real = pack();
    real.blocks[2].id = "piece-1".into();
    real.blocks[2].layout = rows(&["RRR", "RRR", "RAM"]);
    content::validate(&real, "real.json").unwrap();
    layout[0] = "piece-1@180";
    let s = setup_with(&layout, &real, 2).unwrap();
    assert_eq!(s.block(0, 0).layout, rows(&["MAR", "RRR", "RRR"]));

    // Laid out by the seed, pieces lie every which way.
    let turned: u32 = (1..=6)
        .map(|seed| {
            let mut chance = Chance::new(DiceMode::Digital, seed, 1);
            let players = ["Ada", "Bo", "Cy"].map(String::from);
            let s = decide::setup(
                &players,
                &Options::default(),
                &pack(),
                DiceMode::Digital,
                2,
                &mut chance,
            )
            .unwrap();
            assert_eq!(s.rooftops().len(), 49);
            s.blocks.iter().filter(|b| b.turned != 0).count() as u32
        })
        .sum();
    assert!(turned > 10, "only {turned} pieces turned in six boards");
}

#[test]
fn item_colours_follow_the_worked_example_and_nothing_else() {
    let p = pack();
    content::check_worked_example(&p, "<bundled>").unwrap();
    let item = |p: &mut Pack, name: &str| p.equipment.iter().position(|i| i.name == name).unwrap();

    // A green Bolas (rules 1's sample) is a valid pack, but the worked
    // example prices the Bolas at $100: a rules-2 game refuses it.
    let mut old = pack();
    let b = item(&mut old, "Bolas");
    old.equipment[b].colour = content::Colour::Green;
    old.equipment[b].cost = 300;
    content::validate(&old, "old.json").unwrap();
    let e = setup_with(&LAYOUT, &old, 2).unwrap_err();
    assert_eq!(e.rule, "setup.pack");
    assert!(e.message.contains("worked example"), "{e}");
    setup_with(&LAYOUT, &old, 1).unwrap();

    // Colours the text leaves open are the pack's: a green Mask is kept.
    let mut green = pack();
    let m = item(&mut green, "Mask");
    green.equipment[m].colour = content::Colour::Green;
    green.equipment[m].cost = 300;
    content::validate(&green, "green.json").unwrap();
    let mut s = setup_with(&LAYOUT, &green, 2).unwrap();
    s.order = vec![0, 1, 2];
    s.round = 1;
    s.phase = Phase::Playing(Turn {
        seat: 0,
        stage: Stage::Actions,
        ap: 4,
        ending: false,
    });
    s.thieves[0].at = sp("h1.0");
    give(&mut s, 0, &["Ruby Crown"]);
    equip(&mut s, 0, "Mask");
    s.policemen = vec![Policeman {
        at: post("p1.1"),
        facing: Facing::West,
    }];
    let facts = act(&mut s, json!({"type": "move", "to": "s2.2", "mask": true}));
    assert!(facts
        .iter()
        .any(|f| matches!(f, Fact::EquipmentActed { item, .. } if item == "Mask")));
    assert_eq!(s.thieves[0].equipment, vec!["Mask"]);
    assert_eq!(s.thieves[0].at, sp("s2.2"));

    // What the colours mean is checked: always-at-work effects are red,
    // effects used at a moment are not.
    let mut bad = pack();
    let k = item(&mut bad, "Backpack");
    bad.equipment[k].colour = content::Colour::Blue;
    bad.equipment[k].cost = 100;
    let e = content::validate(&bad, "bad.json").unwrap_err();
    assert_eq!(e.path, format!("equipment[{k}].colour"));
    let mut bad = pack();
    let k = item(&mut bad, "Mask");
    bad.equipment[k].colour = content::Colour::Red;
    bad.equipment[k].cost = 200;
    let e = content::validate(&bad, "bad.json").unwrap_err();
    assert!(e.message.contains("not red"), "{e:?}");
}

#[test]
fn leaving_a_street_that_became_watched_passes_it() {
    let mut s = table();
    s.thieves[0].at = sp("h1.0");
    give(&mut s, 0, &["Ruby Crown"]);
    // A policeman turns to watch h1.0 while Ada stands on it.
    s.policemen[0] = Policeman {
        at: post("p1.1"),
        facing: Facing::West,
    };
    let step_off = json!({"type": "move", "to": "s2.2"});

    let mut first_rules = s.clone();
    first_rules.rules = 1;
    act(&mut first_rules, step_off.clone());
    assert_eq!(first_rules.thieves[0].at, sp("s2.2"), "rules 1 let her go");

    let mut caught = s.clone();
    let facts = act(&mut caught, step_off);
    assert!(facts.iter().any(|f| matches!(
        f,
        Fact::ThiefArrested { cause: super::actions::ArrestCause::Leaving, street: Some(st), .. } if *st == super::board::Street::H { r: 1, c: 0 }
    )));
    assert_eq!(caught.thieves[0].at, Space::Prison);
    assert_ne!(turn(&caught).seat, 0, "an arrest ends the turn");

    // The legal moves offer the Mask for it; masked, she slips away.
    equip(&mut s, 0, "Mask");
    let legal = Ludovia::legal(&s, Some(0));
    assert!(legal.iter().any(|l| l.action
        == Action::Move {
            to: sp("s2.2"),
            mask: true
        }));
    act(&mut s, json!({"type": "move", "to": "s2.2", "mask": true}));
    assert_eq!(s.thieves[0].at, sp("s2.2"));
    assert!(s.thieves[0].equipment.is_empty());

    // Empty-handed, nobody cares.
    let mut free = table();
    free.thieves[0].at = sp("h1.0");
    free.policemen[0] = s.policemen[0].clone();
    act(&mut free, json!({"type": "move", "to": "s2.2"}));
    assert_eq!(free.thieves[0].at, sp("s2.2"));
}

#[test]
fn a_spare_blue_item_is_used_at_once() {
    // Ada and Bo share a rooftop; Ada holds Make-up and finds another.
    let mut s = table();
    for seat in [0, 1] {
        s.thieves[seat].at = sp("s1.1");
    }
    give(&mut s, 1, &["Ruby Crown"]);
    equip(&mut s, 0, "Make-up");
    act(
        &mut s,
        json!({"type": "rob", "drew": "Equipment", "found": "Make-up"}),
    );
    assert_eq!(turn(&s).stage, Stage::Choice(Choice::SpareItem));
    assert_eq!(turn(&s).ap, 3);
    assert_eq!(s.thieves[0].equipment, vec!["Make-up", "Make-up"]);
    let legal: Vec<Action> = Ludovia::legal(&s, Some(0))
        .into_iter()
        .map(|l| l.action)
        .collect();
    assert!(legal.contains(&Action::DiscardEquipment {
        item: "Make-up".into()
    }));
    assert!(
        legal.iter().all(|a| matches!(
            a,
            Action::DiscardEquipment { .. }
                | Action::Steal { make_up: true, .. }
                | Action::KnockDown { make_up: true, .. }
        )),
        "{legal:?}"
    );
    assert!(legal
        .iter()
        .any(|a| matches!(a, Action::Steal { make_up: true, .. })));
    assert_eq!(
        refused(&s, json!({"type": "end_turn"})),
        "ludovia.spare_item"
    );
    assert_eq!(
        refused(
            &s,
            json!({"type": "steal", "from": 1, "rolls": [5, 4], "took": "Ruby Crown"})
        ),
        "ludovia.spare_item",
        "a steal without the Make-up does not use it"
    );

    // Letting it go is allowed, and the turn then ends.
    let mut let_go = s.clone();
    act(
        &mut let_go,
        json!({"type": "discard_equipment", "item": "Make-up"}),
    );
    assert_eq!(let_go.thieves[0].equipment, vec!["Make-up"]);
    assert_eq!(turn(&let_go).seat, 1);

    // Used at once: 3 + 2 beats 4, free of action points, then the turn ends.
    let facts = act(
        &mut s,
        json!({"type": "steal", "from": 1, "rolls": [3, 4], "took": "Ruby Crown", "make_up": true}),
    );
    assert!(!facts
        .iter()
        .any(|f| matches!(f, Fact::ActionPointSpent { .. })));
    assert_eq!(s.thieves[0].hand, vec!["Ruby Crown"]);
    assert_eq!(s.thieves[0].equipment, vec!["Make-up"]);
    assert!(facts.iter().any(|f| matches!(
        f,
        Fact::TurnEnded {
            seat: 0,
            why: Some(super::actions::TurnEnd::Cut)
        }
    )));
    assert_eq!(turn(&s).seat, 1);
}

#[test]
fn the_story_says_whose_turn_what_acted_and_what_is_left() {
    let mut s = table();
    s.thieves[0].at = sp("s1.1");
    equip(&mut s, 0, "Whistle");
    let lines = |s: &mut State, action: Value| -> Vec<String> {
        let facts = decide(s, action.clone()).unwrap();
        let mut out = Vec::new();
        for f in &facts {
            out.extend(Ludovia::narrate(s, f));
            Ludovia::apply(s, f);
        }
        out
    };
    let told = lines(
        &mut s,
        json!({"type": "whistle", "policeman": 0, "roll": 5}),
    );
    assert_eq!(
        told,
        vec![
            "Ada blows the Whistle.",
            "Ada rolls 5: policeman 0 walks from p3.3 to p2.3 and now faces north, watching v1.3 and v0.3. 3 action points left."
        ]
    );
    let told = lines(&mut s, json!({"type": "move", "to": "s1.2"}));
    assert_eq!(
        told,
        vec!["Ada moves from the rooftop s1.1 of Bell Tower Row to the rooftop s1.2 of Bell Tower Row. 2 action points left."]
    );
    give(&mut s, 0, &["Ruby Crown", "Silver Spoons"]);
    let told = lines(&mut s, json!({"type": "jump", "to": "s1.3", "roll": 2}));
    assert_eq!(
        told,
        vec![
            "Ada jumps from the rooftop s1.2 of Bell Tower Row for the rooftop s1.3 of Fountain Square carrying 2 treasures, rolls 2, and falls short into street v0.1. The turn is over.",
        ]
    );
    let told = lines(
        &mut s,
        json!({"type": "move_policeman", "policeman": 1, "roll": 1}),
    );
    assert_eq!(
        told,
        vec![
            "Bo's turn begins in the Lair, with no treasure.",
            "To open the turn, Bo rolls 1: policeman 1 turns left at p3.2 and now faces west, watching h3.1 and h3.0."
        ]
    );
    let told = lines(&mut s, json!({"type": "end_turn"}));
    assert_eq!(told[0], "Bo ends the turn with 4 action points unspent.");
}
