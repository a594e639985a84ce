//! Scenario play: the movement chart, battle zones, halting, the combat
//! phase through the books, falls, recovery and victory, each rule tried
//! on a small map with the table's own dice, and whole sample scenarios
//! played at random.

use serde_json::{json, Value};
use tabletape_events::{DiceMode, Seat};

use super::actions::{Action, Condition, Deed, Ending, Fact};
use super::content::Pack;
use super::decide;
use super::field::{Position, Stage};
use super::scenario::Hex;
use super::state::{SeatStatus, State};
use super::{narration, LostWorlds};
use crate::chance::Chance;
use crate::error::Rejection;
use crate::rules::{Rules, Viewer};

fn pack_with(scenario: Option<Value>) -> Pack {
    let mut pack = LostWorlds::default_pack();
    if let Some(s) = scenario {
        pack["scenarios"].as_array_mut().unwrap().push(s);
    }
    let pack: Pack = serde_json::from_value(pack).unwrap();
    super::content::validate(&pack, "test").unwrap();
    pack
}

fn start(pack: &Pack, id: &str, dice: DiceMode) -> State {
    let players: usize = pack
        .scenario(id)
        .unwrap()
        .sides
        .iter()
        .map(|s| s.figures.len())
        .sum();
    let players: Vec<String> = ["Ada", "Bo", "Cy", "Di"][..players]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let options = serde_json::from_value(json!({ "scenario": id })).unwrap();
    decide::setup(&players, &options, pack, LostWorlds::RULES_VERSION, dice).unwrap()
}

/// Decides and folds an action with the table's own dice (physical mode:
/// the action carries every roll).
fn act(state: &mut State, by: Option<Seat>, action: Value) -> Result<Vec<Fact>, Rejection> {
    let action: Action = serde_json::from_value(action).unwrap();
    let mode = state.field.as_ref().unwrap().dice;
    let mut chance = Chance::new(mode, 11, 1);
    let facts = decide::decide(state, by, &action, &mut chance)?;
    for f in &facts {
        assert!(
            !LostWorlds::narrate(state, f).is_empty() || quiet(f),
            "{f:?} tells nothing"
        );
        LostWorlds::apply(state, f);
    }
    Ok(facts)
}

/// Facts that may pass without a line (a combat phase that ends with
/// everyone standing).
fn quiet(f: &Fact) -> bool {
    matches!(f, Fact::CombatEnded { .. } | Fact::ManeuverChosen { .. })
}

fn ok(state: &mut State, by: Option<Seat>, action: Value) -> Vec<Fact> {
    act(state, by, action.clone()).unwrap_or_else(|e| panic!("{action}: {e}"))
}

fn refused(state: &mut State, by: Option<Seat>, action: Value, rule: &str) -> String {
    let before = state.clone();
    let e = act(state, by, action.clone()).expect_err(&format!("{action} was accepted"));
    assert_eq!(e.rule, rule, "{action}: {}", e.message);
    assert_eq!(*state, before, "a refusal changes nothing");
    e.message
}

fn at(state: &State, seat: Seat) -> String {
    state.field.as_ref().unwrap().piece(seat).at.to_string()
}

fn put(state: &mut State, seat: Seat, space: &str) {
    state.field.as_mut().unwrap().pieces[seat as usize].at = Hex::parse(space).unwrap();
}

fn position(state: &State, seat: Seat) -> Position {
    state.field.as_ref().unwrap().piece(seat).position
}

fn points(state: &State, seat: Seat) -> u32 {
    state.field.as_ref().unwrap().piece(seat).points
}

fn stage(state: &State) -> Stage {
    state.field.as_ref().unwrap().stage
}

/// A small open yard with a raised platform (level 2 at c3, level 4 at
/// d3) and a chest: Nowa (height 4) against Brakka (height 5).
fn yard() -> Value {
    json!({
        "id": "yard", "title": "The Yard", "text": "A test yard.",
        "map": [
            "0 0 0 0 0 0",
            "0 0 0 0 0 0",
            "0 0 2 4 0 0",
            "0 0 0 0 0 0",
            "0 0 0 0 0 W"
        ],
        "objects": [{"id": "chest", "kind": "chest", "at": "b2", "found": "A map of the hills."}],
        "sides": [
            {"name": "Guard", "figures": [{"character": "nowa", "at": "a1"}],
             "goal": {"kind": "reach", "spaces": ["f1"]}, "points": 21},
            {"name": "Raiders", "figures": [{"character": "brakka", "at": "f4"}],
             "goal": {"kind": "defeat_all"}, "points": 20}
        ],
        "turn_limit": 5
    })
}

fn yard_state() -> State {
    let pack = pack_with(Some(yard()));
    start(&pack, "yard", DiceMode::Physical)
}

/// Rolls initiative so that `first` moves first.
fn initiative(state: &mut State, first: Seat) {
    let dice: Vec<u32> = (0..state.seats.len() as Seat)
        .map(|s| if s == first { 6 } else { 1 })
        .collect();
    ok(state, None, json!({"type": "roll", "dice": dice}));
}

#[test]
fn a_scenario_seats_one_player_a_figure_and_waits_for_initiative() {
    let pack = pack_with(None);
    let s = start(&pack, "stair-tower", DiceMode::Digital);
    assert_eq!(s.seats.len(), 3);
    assert_eq!(s.seat_name(1), "Brakka (Bo)");
    assert_eq!(at(&s, 0), "c6");
    assert_eq!(stage(&s), Stage::Initiative);
    assert!(s.seats.iter().all(|st| st.status == SeatStatus::Aside));
    let players = vec!["Ada".to_string(), "Bo".to_string()];
    let options = serde_json::from_value(json!({"scenario": "stair-tower"})).unwrap();
    let e = decide::setup(&players, &options, &pack, 3, DiceMode::Digital).unwrap_err();
    assert_eq!(e.rule, "setup.players");
    assert!(e.message.contains("3 figures"), "{}", e.message);
    let options = serde_json::from_value(json!({"scenario": "moon"})).unwrap();
    let e = decide::setup(&players, &options, &pack, 3, DiceMode::Digital).unwrap_err();
    assert!(e.message.contains("well-house"), "{}", e.message);
    let options =
        serde_json::from_value(json!({"scenario": "well-house", "characters": "nowa,nowa"}))
            .unwrap();
    let e = decide::setup(&players, &options, &pack, 3, DiceMode::Digital).unwrap_err();
    assert!(
        e.message.contains("names its own characters"),
        "{}",
        e.message
    );
}

#[test]
fn initiative_orders_the_moves_and_a_tie_keeps_seat_order() {
    let mut s = yard_state();
    let m = refused(
        &mut s,
        None,
        json!({"type": "roll", "dice": [3]}),
        "lostworlds.scenario.dice",
    );
    assert!(m.contains("2 dice"), "{m}");
    ok(&mut s, None, json!({"type": "roll", "dice": [2, 5]}));
    assert_eq!(s.field.as_ref().unwrap().order, vec![1, 0]);
    assert_eq!(s.field.as_ref().unwrap().mover(), Some(1));
    // Brakka's move: height 5 points.
    assert_eq!(points(&s, 1), 5);
    refused(
        &mut s,
        Some(0),
        json!({"type": "move", "to": "a2"}),
        "lostworlds.movement.turn",
    );
}

#[test]
fn moving_costs_a_point_a_space_and_climbing_the_change_in_level() {
    let mut s = yard_state();
    put(&mut s, 0, "b3");
    initiative(&mut s, 0);
    assert_eq!(points(&s, 0), 4);
    ok(&mut s, Some(0), json!({"type": "move", "to": "c3"}));
    assert_eq!(points(&s, 0), 2, "two levels up cost 2");
    ok(&mut s, Some(0), json!({"type": "move", "to": "d3"}));
    assert_eq!(points(&s, 0), 0);
    let m = refused(
        &mut s,
        Some(0),
        json!({"type": "move", "to": "e3"}),
        "lostworlds.movement.points",
    );
    assert!(m.contains("0 movement points left; this costs 4"), "{m}");
    refused(
        &mut s,
        Some(0),
        json!({"type": "move", "to": "z9"}),
        "lostworlds.movement.space",
    );
}

#[test]
fn running_adds_two_and_excludes_the_starred_actions_and_a_second_run() {
    let mut s = yard_state();
    put(&mut s, 0, "b2");
    initiative(&mut s, 0);
    ok(&mut s, Some(0), json!({"type": "run"}));
    assert_eq!(points(&s, 0), 6);
    let m = refused(
        &mut s,
        Some(0),
        json!({"type": "pick_up", "object": "chest"}),
        "lostworlds.movement.running",
    );
    assert!(m.contains("not done on a run"), "{m}");
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "1"}),
    );
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "e4"}),
    );
    // Nowa ran and stands on the chest's space: a position to fall.
    assert_eq!(stage(&s), Stage::Falls);
    ok(&mut s, None, json!({"type": "roll", "dice": [3]}));
    assert_eq!(stage(&s), Stage::Initiative);
    initiative(&mut s, 0);
    let m = refused(
        &mut s,
        Some(0),
        json!({"type": "run"}),
        "lostworlds.movement.running",
    );
    assert!(m.contains("twice in a row"), "{m}");
    // A starred action first rules the run out too.
    ok(
        &mut s,
        Some(0),
        json!({"type": "pick_up", "object": "chest"}),
    );
    refused(
        &mut s,
        Some(0),
        json!({"type": "run"}),
        "lostworlds.movement.running",
    );
}

#[test]
fn the_battle_zone_follows_the_height_rule() {
    // The rule text's example: height 3 on level 0 beside height 6 on
    // level 4 are not in each other's zone; reversed, they are.
    let mut s = yard_state();
    put(&mut s, 0, "c4");
    put(&mut s, 1, "d3");
    edit_sheet(&mut s, 0, |sheet| {
        sheet.height = 3;
    });
    edit_sheet(&mut s, 1, |sheet| {
        sheet.height = 6;
    });
    // c4 (level 0) touches d3 (level 4): odd rows sit to the right.
    let b = super::turn::board(&s).unwrap();
    assert!(b.adjacent(Hex::parse("c4").unwrap(), Hex::parse("d3").unwrap()));
    assert!(
        !b.in_zone(0, 1),
        "the lower figure's 3 is not more than 4 levels"
    );
    let mut swapped = s.clone();
    let (h0, h1) = (
        s.seats[0].party[0].sheet.clone(),
        s.seats[1].party[0].sheet.clone(),
    );
    swapped.seats[0].party[0].sheet = h1;
    swapped.seats[1].party[0].sheet = h0;
    let b = super::turn::board(&swapped).unwrap();
    assert!(b.in_zone(0, 1), "the lower figure's 6 is more than 4");
}

#[test]
fn entering_a_battle_zone_lets_the_opponent_halt_the_mover() {
    let mut s = yard_state();
    put(&mut s, 0, "a4");
    put(&mut s, 1, "c4");
    initiative(&mut s, 0);
    ok(&mut s, Some(0), json!({"type": "move", "to": "b4"}));
    let f = s.field.as_ref().unwrap();
    assert_eq!(f.offer.as_ref().unwrap().by, vec![1]);
    // The mover waits for the answer.
    refused(
        &mut s,
        Some(0),
        json!({"type": "move", "to": "b5"}),
        "lostworlds.movement.waiting",
    );
    refused(
        &mut s,
        Some(0),
        json!({"type": "halt"}),
        "lostworlds.movement.halt",
    );
    ok(&mut s, Some(1), json!({"type": "halt"}));
    assert_eq!(
        points(&s, 0),
        0,
        "a halted mover loses the rest of its move"
    );
    refused(
        &mut s,
        Some(0),
        json!({"type": "break_off", "to": "a4"}),
        "lostworlds.movement.break_off",
    );
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "a4"}),
    );
    // The halter may not move after halting.
    assert_eq!(points(&s, 1), 0);
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "d5"}),
    );
    assert_eq!(stage(&s), Stage::Combat);
    assert_eq!(s.seats[0].status, SeatStatus::Fighting);
    assert_eq!(s.foes(0), vec![1]);
}

#[test]
fn no_halt_for_a_mover_coming_from_the_undefended_space() {
    let mut s = yard_state();
    put(&mut s, 0, "a4");
    put(&mut s, 1, "c4");
    s.field.as_mut().unwrap().pieces[1].undefended = Hex::parse("b4");
    initiative(&mut s, 0);
    ok(&mut s, Some(0), json!({"type": "move", "to": "b4"}));
    assert!(s.field.as_ref().unwrap().offer.is_none());
    assert_eq!(points(&s, 0), 3);
}

#[test]
fn the_combat_phase_starts_by_the_situation_table_and_lasts_three_rounds() {
    let mut s = yard_state();
    put(&mut s, 0, "a4");
    put(&mut s, 1, "c4");
    initiative(&mut s, 0);
    // Nowa runs in (off balance for the combat) and ends beside Brakka,
    // whose undefended space she stands in.
    ok(&mut s, Some(0), json!({"type": "run"}));
    ok(&mut s, Some(0), json!({"type": "move", "to": "b4"}));
    ok(&mut s, Some(1), json!({"type": "let_pass"}));
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "a4"}),
    );
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "b4"}),
    );
    assert_eq!(stage(&s), Stage::Combat);
    // Nowa is off balance: picture 1. Brakka sees Nowa in its undefended
    // space and off balance: the first that applies is 23.
    assert_eq!(s.seat(0).sights[&1].picture, 1);
    assert_eq!(s.seat(1).sights[&0].picture, 23);
    // Movement waits; maneuvers are open.
    refused(
        &mut s,
        Some(0),
        json!({"type": "move", "to": "a4"}),
        "lostworlds.scenario.stage",
    );
    for round in 1..=3 {
        assert_eq!(stage(&s), Stage::Combat, "round {round}");
        let open0 = decide::choices(&s, 0).open[0];
        let open1 = decide::choices(&s, 1).open[0];
        let p0 = s.seat(0).fighter().sheet.maneuvers[open0].page;
        let p1 = s.seat(1).fighter().sheet.maneuvers[open1].page;
        ok(&mut s, Some(0), json!({"type": "choose", "page": p0}));
        ok(&mut s, Some(1), json!({"type": "choose", "page": p1}));
        if s.seats
            .iter()
            .any(|st| st.fighter().condition != Condition::Fit)
        {
            break;
        }
    }
    assert_ne!(
        stage(&s),
        Stage::Combat,
        "three rounds and the phase is over"
    );
    assert!(s.exchanges <= 3);
}

#[test]
fn a_carrier_drops_its_load_when_combat_begins() {
    let mut s = yard_state();
    put(&mut s, 0, "b2");
    put(&mut s, 1, "c1");
    initiative(&mut s, 0);
    ok(
        &mut s,
        Some(0),
        json!({"type": "pick_up", "object": "chest"}),
    );
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "a2"}),
    );
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "d1"}),
    );
    assert_eq!(stage(&s), Stage::Combat);
    let f = s.field.as_ref().unwrap();
    assert_eq!(f.piece(0).carrying, None);
    assert_eq!(f.thing("chest").unwrap().at.to_string(), "b2");
}

#[test]
fn throwing_checks_range_rolls_to_hit_and_scatters() {
    let mut s = yard_state();
    put(&mut s, 0, "b2");
    put(&mut s, 1, "b5");
    initiative(&mut s, 0);
    ok(
        &mut s,
        Some(0),
        json!({"type": "pick_up", "object": "chest"}),
    );
    // A chest goes 3 at most (Nowa's height is 4); b5 is 3 away.
    let m = refused(
        &mut s,
        Some(0),
        json!({"type": "throw", "at": "f2", "roll": 1}),
        "lostworlds.movement.throw",
    );
    assert!(m.contains("1 to 3 away"), "{m}");
    refused(
        &mut s,
        Some(0),
        json!({"type": "throw", "at": "b5"}),
        "physical.roll_needed",
    );
    let body = s.seat(1).fighter().body;
    let facts = ok(
        &mut s,
        Some(0),
        json!({"type": "throw", "at": "b5", "roll": 2}),
    );
    let Fact::Stepped {
        deed: Deed::Threw { landing, .. },
        ..
    } = &facts[0]
    else {
        panic!("{facts:?}")
    };
    assert_eq!(landing.struck, Some(1));
    assert_eq!(s.seat(1).fighter().body, body - 4, "a chest weighs 4");
    assert_eq!(position(&s, 1), Position::Down);
    // A miss at range 3 (roll 3) scatters by the second die.
    let mut s = yard_state();
    put(&mut s, 0, "b2");
    initiative(&mut s, 0);
    ok(
        &mut s,
        Some(0),
        json!({"type": "pick_up", "object": "chest"}),
    );
    let m = refused(
        &mut s,
        Some(0),
        json!({"type": "throw", "at": "b5", "roll": 3}),
        "physical.roll_needed",
    );
    assert!(m.contains("scatter"), "{m}");
    ok(
        &mut s,
        Some(0),
        json!({"type": "throw", "at": "b5", "roll": 3, "scatter": 1}),
    );
    let chest = s
        .field
        .as_ref()
        .unwrap()
        .thing("chest")
        .unwrap()
        .at
        .to_string();
    assert_eq!(chest, "c5", "scatter 1 is the space east of the target");
}

#[test]
fn a_reckless_jump_lands_by_the_table() {
    for (roll, lands, hurt) in [
        (2, Position::Standing, 0),
        (4, Position::OffBalance, 0),
        (5, Position::Down, 0),
        (6, Position::Down, 4),
    ] {
        let mut s = yard_state();
        put(&mut s, 0, "d3");
        initiative(&mut s, 0);
        let body = s.seat(0).fighter().body;
        ok(
            &mut s,
            Some(0),
            json!({"type": "jump_down", "to": "e3", "roll": roll}),
        );
        assert_eq!(at(&s, 0), "e3");
        assert_eq!(position(&s, 0), lands, "roll {roll}");
        assert_eq!(s.seat(0).fighter().body, body - hurt, "roll {roll}");
        assert_eq!(points(&s, 0), 3, "a reckless jump costs 1");
    }
}

#[test]
fn jumping_onto_an_opponent_by_the_table() {
    let cases = [
        (1, Position::OffBalance, Position::Down, 0, 2),
        (3, Position::OffBalance, Position::OffBalance, 0, 0),
        (6, Position::Down, Position::Standing, 4, 0),
    ];
    for (roll, mine, theirs, my_hurt, their_hurt) in cases {
        let mut s = yard_state();
        put(&mut s, 0, "d3");
        put(&mut s, 1, "e3");
        initiative(&mut s, 0);
        let (b0, b1) = (s.seat(0).fighter().body, s.seat(1).fighter().body);
        refused(
            &mut s,
            Some(0),
            json!({"type": "jump_onto", "target": 1, "land": "c3", "roll": roll}),
            "lostworlds.movement.jump_onto",
        );
        ok(
            &mut s,
            Some(0),
            json!({"type": "jump_onto", "target": 1, "land": "e4", "roll": roll}),
        );
        assert_eq!(at(&s, 0), "e4");
        assert_eq!(position(&s, 0), mine, "roll {roll}");
        assert_eq!(position(&s, 1), theirs, "roll {roll}");
        assert_eq!(s.seat(0).fighter().body, b0 - my_hurt);
        assert_eq!(s.seat(1).fighter().body, b1 - their_hurt);
    }
    // 2: the opponent drops the weapon.
    let mut s = yard_state();
    put(&mut s, 0, "d3");
    put(&mut s, 1, "e3");
    initiative(&mut s, 0);
    ok(
        &mut s,
        Some(0),
        json!({"type": "jump_onto", "target": 1, "land": "e4", "roll": 2}),
    );
    assert!(s.seat(1).orders.disarmed());
}

#[test]
fn shoving_rolls_the_falling_table_and_the_shover_places_the_fall() {
    let mut s = yard_state();
    put(&mut s, 0, "b4");
    put(&mut s, 1, "c4");
    initiative(&mut s, 0);
    ok(
        &mut s,
        Some(0),
        json!({"type": "shove", "target": 1, "hard": true, "roll": 5}),
    );
    assert_eq!(points(&s, 0), 0, "a hard shove costs 4");
    // 5 + 1 (hard) = 6: a fall, which Nowa places.
    assert_eq!(s.field.as_ref().unwrap().placing.len(), 1);
    let m = refused(
        &mut s,
        Some(0),
        json!({"type": "place", "to": "b4"}),
        "lostworlds.movement.place",
    );
    assert!(m.contains("c5"), "{m}");
    ok(&mut s, Some(0), json!({"type": "place", "to": "d4"}));
    assert_eq!(at(&s, 1), "d4");
    assert_eq!(position(&s, 1), Position::Down);
    assert!(s.field.as_ref().unwrap().piece(0).done.shoved_hard);
}

#[test]
fn a_block_leaves_the_opponent_only_regaining_balance() {
    let mut s = yard_state();
    put(&mut s, 0, "b4");
    put(&mut s, 1, "c4");
    initiative(&mut s, 0);
    ok(&mut s, Some(0), json!({"type": "block", "target": 1}));
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "a4"}),
    );
    let m = refused(
        &mut s,
        Some(1),
        json!({"type": "move", "to": "d4"}),
        "lostworlds.movement.blocked",
    );
    assert!(m.contains("regaining balance"), "{m}");
}

#[test]
fn examining_finds_what_the_scenario_hid() {
    let mut s = yard_state();
    put(&mut s, 0, "b2");
    initiative(&mut s, 0);
    // Until examined, only the owner's view holds what the chest hides.
    let shows = |s: &State, viewer: Viewer| {
        LostWorlds::view(s, viewer)
            .to_string()
            .contains("map of the hills")
    };
    assert!(shows(&s, Viewer::Owner));
    assert!(!shows(&s, Viewer::Seat(0)) && !shows(&s, Viewer::Seat(1)));
    assert!(!shows(&s, Viewer::Public));
    let facts = ok(
        &mut s,
        Some(0),
        json!({"type": "examine", "object": "CHEST"}),
    );
    let line = LostWorlds::narrate(&s, &facts[0]).join(" ");
    assert!(line.contains("map of the hills"), "{line}");
    assert_eq!(points(&s, 0), 2);
    // Once found it is on the table for everyone.
    assert!(shows(&s, Viewer::Seat(1)) && shows(&s, Viewer::Public));
}

#[test]
fn a_jump_over_a_space_needs_a_run_and_two_spaces_first() {
    let mut s = yard_state();
    put(&mut s, 0, "a1");
    initiative(&mut s, 0);
    ok(&mut s, Some(0), json!({"type": "run"}));
    let m = refused(
        &mut s,
        Some(0),
        json!({"type": "jump_over", "to": "c1"}),
        "lostworlds.movement.jump_over",
    );
    assert!(m.contains("two spaces"), "{m}");
    ok(&mut s, Some(0), json!({"type": "move", "to": "b1"}));
    ok(&mut s, Some(0), json!({"type": "move", "to": "c1"}));
    ok(&mut s, Some(0), json!({"type": "jump_over", "to": "e1"}));
    assert_eq!(at(&s, 0), "e1");
    assert_eq!(points(&s, 0), 0, "the move ends where the jump lands");
}

#[test]
fn falls_are_checked_after_running_beside_a_drop() {
    let mut s = yard_state();
    put(&mut s, 0, "c2");
    initiative(&mut s, 0);
    ok(&mut s, Some(0), json!({"type": "run"}));
    ok(&mut s, Some(0), json!({"type": "move", "to": "c3"}));
    // c3 is level 2 with level-0 neighbours: a position to fall.
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "b3"}),
    );
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "e4"}),
    );
    assert_eq!(stage(&s), Stage::Falls);
    assert_eq!(s.field.as_ref().unwrap().at_risk, vec![(0, 0)]);
    ok(&mut s, None, json!({"type": "roll", "dice": [6]}));
    let body = s.seat(0).fighter().body;
    // Brakka, the nearest opponent, sets Nowa down two levels lower.
    refused(
        &mut s,
        Some(0),
        json!({"type": "place", "to": "b3"}),
        "lostworlds.movement.place",
    );
    ok(&mut s, Some(1), json!({"type": "place", "to": "b3"}));
    assert_eq!(s.seat(0).fighter().body, body - 2, "one point a level");
    assert_eq!(position(&s, 0), Position::Down);
    assert_eq!(stage(&s), Stage::Initiative);
    assert_eq!(s.field.as_ref().unwrap().turn, 2);
}

/// Changes a seat's character sheet for one test.
fn edit_sheet(s: &mut State, seat: usize, edit: impl FnOnce(&mut super::content::Character)) {
    let mut sheet = (*s.seats[seat].party[0].sheet).clone();
    edit(&mut sheet);
    s.seats[seat].party[0].sheet = std::sync::Arc::new(sheet);
}

/// Knocks seat `seat` unconscious where it stands.
fn knock_out(s: &mut State, seat: Seat) {
    s.seats[seat as usize].party[0].body = -1;
    s.seats[seat as usize].party[0].condition = Condition::Unconscious;
    s.seats[seat as usize].status = SeatStatus::Down;
    s.field.as_mut().unwrap().pieces[seat as usize].position = Position::Down;
}

#[test]
fn an_unconscious_figure_is_carried_laid_down_and_thrown_and_rolls_no_recovery() {
    let mut s = yard_state();
    put(&mut s, 0, "e4");
    put(&mut s, 1, "f4");
    knock_out(&mut s, 0);
    // The raiders hold the yard instead, so Nowa down is no victory yet.
    let f = s.field.as_mut().unwrap();
    let mut yard = (*f.scenario).clone();
    yard.sides[1].goal = super::scenario::Goal::Hold;
    f.scenario = std::sync::Arc::new(yard);
    ok(&mut s, None, json!({"type": "roll", "dice": [4]}));
    ok(&mut s, Some(1), json!({"type": "move", "to": "e4"}));
    // The chest is no body; a body is named by its character or player.
    let m = refused(
        &mut s,
        Some(1),
        json!({"type": "pick_up", "object": "Nobody"}),
        "lostworlds.movement.object",
    );
    assert!(m.contains("chest"), "{m}");
    let facts = ok(
        &mut s,
        Some(1),
        json!({"type": "pick_up", "object": "nowa"}),
    );
    let line = LostWorlds::narrate(&s, &facts[0]).join(" ");
    assert!(line.contains("hoists Nowa's body"), "{line}");
    assert_eq!(points(&s, 1), 3);
    ok(&mut s, Some(1), json!({"type": "move", "to": "d4"}));
    assert_eq!(at(&s, 0), "d4", "the body goes with its carrier");
    let drawn = LostWorlds::render_svg(&s, Viewer::Owner);
    assert!(!drawn.contains("figure-0"), "a carried body is not drawn");
    assert!(LostWorlds::render(&s, Viewer::Owner).contains("carrying Nowa"));
    s.field.as_mut().unwrap().things[0].at = Hex::parse("d4").unwrap();
    let m = refused(
        &mut s,
        Some(1),
        json!({"type": "pick_up", "object": "chest"}),
        "lostworlds.movement.pick_up",
    );
    assert!(m.contains("carries Nowa already"), "{m}");
    ok(&mut s, Some(1), json!({"type": "drop", "at": "c4"}));
    assert_eq!(at(&s, 0), "c4");
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "e4"}),
    );
    assert_ne!(stage(&s), Stage::Recovery, "a moved body rolls no recovery");
    assert_eq!(stage(&s), Stage::Initiative);
    // Next turn: lifted by its player's name and thrown, it weighs its
    // height (4) and flies 3 at most.
    ok(&mut s, None, json!({"type": "roll", "dice": [2]}));
    ok(&mut s, Some(1), json!({"type": "move", "to": "c4"}));
    refused(
        &mut s,
        Some(1),
        json!({"type": "pick_up", "object": "Bo"}),
        "lostworlds.movement.pick_up",
    );
    ok(&mut s, Some(1), json!({"type": "pick_up", "object": "Ada"}));
    let m = refused(
        &mut s,
        Some(1),
        json!({"type": "throw", "at": "f1", "roll": 1}),
        "lostworlds.movement.throw",
    );
    assert!(m.contains("1 to 3 away"), "{m}");
    let facts = ok(
        &mut s,
        Some(1),
        json!({"type": "throw", "at": "c2", "roll": 1}),
    );
    let line = LostWorlds::narrate(&s, &facts[0]).join(" ");
    assert!(line.contains("heaves Nowa's body at c2"), "{line}");
    assert_eq!(at(&s, 0), "c2");
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "d4"}),
    );
    assert_eq!(stage(&s), Stage::Initiative, "thrown: no recovery roll");
    // Left alone a turn, the body rolls again.
    ok(&mut s, None, json!({"type": "roll", "dice": [2]}));
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "d4"}),
    );
    assert_eq!(stage(&s), Stage::Recovery);
}

#[test]
fn a_body_weighs_its_height_and_its_carrier_pays_a_point_a_turn() {
    let mut s = yard_state();
    put(&mut s, 0, "b4");
    put(&mut s, 1, "b4");
    knock_out(&mut s, 1);
    ok(&mut s, None, json!({"type": "roll", "dice": [3]}));
    let m = refused(
        &mut s,
        Some(0),
        json!({"type": "pick_up", "object": "Brakka"}),
        "lostworlds.movement.pick_up",
    );
    assert!(m.contains("weighs 5"), "{m}");
    // A taller Nowa lifts her, and moves a point short next turn.
    edit_sheet(&mut s, 0, |sheet| {
        sheet.height = 6;
    });
    ok(
        &mut s,
        Some(0),
        json!({"type": "pick_up", "object": "Brakka"}),
    );
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "a4"}),
    );
    ok(&mut s, None, json!({"type": "roll", "dice": [3]}));
    assert_eq!(points(&s, 0), 5);
    assert_eq!(stage(&s), Stage::Movement);
}

#[test]
fn the_unconscious_roll_to_recover_and_slaying_adds_three() {
    let mut s = yard_state();
    put(&mut s, 0, "b4");
    put(&mut s, 1, "b4");
    s.seats[1].party[0].body = -1;
    s.seats[1].party[0].condition = Condition::Unconscious;
    s.seats[1].status = SeatStatus::Down;
    ok(&mut s, None, json!({"type": "roll", "dice": [3]}));
    ok(&mut s, Some(0), json!({"type": "slay", "target": 1}));
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "a4"}),
    );
    assert_eq!(stage(&s), Stage::Recovery);
    // -1 body and 2 + 3 = 5 on the table: -1.
    ok(&mut s, None, json!({"type": "roll", "dice": [2]}));
    assert_eq!(s.seat(1).fighter().body, -1);
    assert_eq!(s.seat(1).fighter().condition, Condition::Unconscious);
    // Next turn no one slays: a 1 brings Brakka round with 4.
    ok(&mut s, None, json!({"type": "roll", "dice": [3]}));
    ok(&mut s, Some(0), json!({"type": "move", "to": "a4"}));
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "a5"}),
    );
    ok(&mut s, None, json!({"type": "roll", "dice": [1]}));
    assert_eq!(s.seat(1).fighter().body, 4);
    assert_eq!(s.seat(1).fighter().condition, Condition::Fit);
    assert_eq!(position(&s, 1), Position::Down, "it comes to where it lay");
}

#[test]
fn reaching_the_goal_wins_and_the_victory_points_are_experience() {
    let mut s = yard_state();
    put(&mut s, 0, "e1");
    initiative(&mut s, 0);
    ok(&mut s, Some(0), json!({"type": "move", "to": "f1"}));
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "e1"}),
    );
    let facts = ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "e4"}),
    );
    let Some(Fact::FightEnded { outcome, awards }) = facts.last() else {
        panic!("{facts:?}")
    };
    assert_eq!(outcome.ending, Ending::Victory);
    assert_eq!(outcome.victors, vec![0]);
    assert_eq!(awards[0].victory, 21, "the lone survivor takes every point");
    assert_eq!(stage(&s), Stage::Ended);
    let story = narration::ending_line(&s, outcome.ending, &outcome.victors);
    assert_eq!(story, "Guard win the scenario: Nowa.");
}

/// Plays a scenario to its end by random legal actions with digital dice.
/// Plays a scenario to its end with seeded random legal actions, adding
/// the name of every fact it told to `seen`.
fn play(
    pack: &Pack,
    id: &str,
    obstructions: bool,
    mut seed: u64,
    seen: &mut std::collections::BTreeSet<String>,
) -> State {
    let players: usize = pack
        .scenario(id)
        .unwrap()
        .sides
        .iter()
        .map(|s| s.figures.len())
        .sum();
    let players: Vec<String> = (0..players).map(|i| format!("p{i}")).collect();
    let options =
        serde_json::from_value(json!({ "scenario": id, "obstructions": obstructions })).unwrap();
    let mut state = decide::setup(&players, &options, pack, 3, DiceMode::Digital).unwrap();
    for step in 0..20_000u64 {
        if LostWorlds::is_over(&state) {
            return state;
        }
        let legal: Vec<_> = LostWorlds::legal(&state, None)
            .into_iter()
            .filter(|l| l.needs.is_empty())
            .collect();
        assert!(
            !legal.is_empty(),
            "nothing legal in an open game:\n{}",
            narration::render(&state, Viewer::Owner)
        );
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        // Ending the move is one choice among many: lean on moving on.
        let pick = &legal[(seed % legal.len() as u64) as usize].action;
        let mut chance = Chance::new(DiceMode::Digital, seed, step);
        let facts = decide::decide(&state, None, pick, &mut chance)
            .unwrap_or_else(|e| panic!("legal action {pick:?} rejected: {e}"));
        for f in &facts {
            let _ = LostWorlds::narrate(&state, f);
            LostWorlds::apply(&mut state, f);
            let name = format!("{f:?}");
            let end = name.find([' ', '{', '(']).unwrap_or(name.len());
            seen.insert(name[..end].to_string());
        }
        let round: State = serde_json::from_value(serde_json::to_value(&state).unwrap()).unwrap();
        assert_eq!(round, state, "state survives JSON");
        assert!(!narration::render(&state, Viewer::Owner).is_empty());
    }
    panic!(
        "the scenario did not end:\n{}",
        narration::render(&state, Viewer::Owner)
    );
}

#[test]
fn random_legal_scenarios_end() {
    let pack = pack_with(None);
    let seed = std::env::var("TABLETAPE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_u64);
    let mut fought = 0;
    for i in 0..6u64 {
        for id in ["well-house", "stair-tower"] {
            let s = seed.wrapping_add(i * 7919) | 1;
            let state = play(&pack, id, i % 2 == 1, s, &mut Default::default());
            assert!(state.outcome.is_some(), "{id} seed {s}");
            fought += usize::from(state.exchanges > 0);
        }
    }
    assert!(
        fought >= 3,
        "random scenarios come to blows: {fought} of 12"
    );
}

/// The samples with the rarer abilities: Brakka a wraith, Nowa a
/// regenerating magic user with spells.
#[test]
fn random_scenarios_with_wraiths_and_regenerating_magic_users_end() {
    let mut pack = pack_with(None);
    for c in &mut pack.characters {
        if c.id == "brakka" {
            c.dematerializes = true;
            c.undead = true;
            c.touch_damage = 2;
        } else {
            c.regeneration = 1;
            c.spell_regeneration = 1;
            c.abilities.insert("spell".into(), 6);
        }
    }
    let seed = std::env::var("TABLETAPE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_u64);
    let mut seen = std::collections::BTreeSet::new();
    for i in 0..6u64 {
        for id in ["well-house", "stair-tower"] {
            let s = seed.wrapping_add(i * 104_729) | 1;
            let state = play(&pack, id, i % 2 == 0, s, &mut seen);
            assert!(state.outcome.is_some(), "{id} seed {s}");
            let f = state.field.as_ref().unwrap();
            assert!(
                f.pieces.iter().all(|p| !p.done.dematerialized),
                "{id} seed {s}: no one is left on another plane"
            );
        }
    }
    for fact in ["Dematerialized", "Regenerated"] {
        assert!(seen.contains(fact), "random play reached {fact}: {seen:?}");
    }
}

#[test]
fn effective_height_counts_the_terrain_level() {
    use super::content::Colour;
    // The rule text's dwarf (3) on level 4 against a troll (5) on level 0.
    assert_eq!(super::turn::terrain_height_bonus(7, 5, Colour::Orange), 2);
    assert_eq!(super::turn::terrain_height_bonus(7, 5, Colour::Red), 2);
    assert_eq!(super::turn::terrain_height_bonus(7, 5, Colour::Blue), 0);
    assert_eq!(super::turn::terrain_height_bonus(5, 7, Colour::Orange), -1);
    let mut s = yard_state();
    put(&mut s, 0, "c3");
    put(&mut s, 1, "b3");
    assert_eq!(super::turn::effective_heights(&s, 0, 1), Some((6, 5)));
    put(&mut s, 0, "a3");
    assert_eq!(
        super::turn::effective_heights(&s, 0, 1),
        None,
        "same level: the books' rule"
    );
}

#[test]
fn a_thrown_weapon_hits_by_the_range_table_and_lies_where_it_landed() {
    let mut s = yard_state();
    put(&mut s, 0, "c4");
    put(&mut s, 1, "f4");
    initiative(&mut s, 1);
    let body = s.seat(0).fighter().body;
    // Three spaces, Brakka's dagger's effective range: a 1-2 hits.
    refused(
        &mut s,
        Some(1),
        json!({"type": "throw_weapon", "target": 0}),
        "physical.roll_needed",
    );
    ok(
        &mut s,
        Some(1),
        json!({"type": "throw_weapon", "target": 0, "roll": 2}),
    );
    // Page 19 of Nowa's sample book shows no score: the card's +1 alone.
    assert_eq!(s.seat(0).fighter().body, body - 1);
    assert_eq!(position(&s, 0), Position::OffBalance);
    assert!(s.seat(1).orders.disarmed(), "the dagger is out of hand");
    let f = s.field.as_ref().unwrap();
    assert_eq!(f.thing("dagger-1").unwrap().at.to_string(), "c4");
    refused(
        &mut s,
        Some(1),
        json!({"type": "throw_weapon", "target": 0, "roll": 1}),
        "lostworlds.movement.throw_weapon",
    );
    // Beyond its height + 2 it cannot be thrown at all: a thrower of
    // height 3 reaches 5, and a1 is 7 from f5.
    let mut far = yard_state();
    put(&mut far, 0, "a1");
    put(&mut far, 1, "f5");
    let mut short = (*far.seats[1].party[0].sheet).clone();
    short.height = 3;
    far.seats[1].party[0].sheet = std::sync::Arc::new(short);
    initiative(&mut far, 1);
    let m = refused(
        &mut far,
        Some(1),
        json!({"type": "throw_weapon", "target": 0, "roll": 1}),
        "lostworlds.movement.throw_weapon",
    );
    assert!(
        m.contains("7 spaces away") && m.contains("5 at most"),
        "{m}"
    );
    // Picking it up again arms its owner.
    let mut s2 = yard_state();
    put(&mut s2, 0, "a1");
    put(&mut s2, 1, "c4");
    initiative(&mut s2, 1);
    ok(
        &mut s2,
        Some(1),
        json!({"type": "throw_weapon", "target": 0, "roll": 6}),
    );
    assert!(s2.seat(1).orders.disarmed());
    let dagger = s2
        .field
        .as_ref()
        .unwrap()
        .thing("dagger-1")
        .unwrap()
        .clone();
    assert_eq!(
        dagger.at.to_string(),
        "a1",
        "a miss lies on the target's space too"
    );
    // Nowa steps off it (set by hand) and Brakka walks over to it.
    put(&mut s2, 0, "a3");
    put(&mut s2, 1, "b1");
    ok(&mut s2, Some(1), json!({"type": "move", "to": "a1"}));
    ok(
        &mut s2,
        Some(1),
        json!({"type": "pick_up", "object": "dagger-1"}),
    );
    assert!(!s2.seat(1).orders.disarmed(), "armed again");
    assert!(s2.field.as_ref().unwrap().thing("dagger-1").is_none());
    assert_eq!(s2.field.as_ref().unwrap().piece(1).carrying, None);
}

#[test]
fn the_optional_obstructions_bar_maneuvers_in_a_crowded_battle_zone() {
    let pack = pack_with(Some(yard()));
    let players = vec!["Ada".to_string(), "Bo".to_string()];
    let options =
        serde_json::from_value(json!({"scenario": "yard", "obstructions": "on"})).unwrap();
    let mut s = decide::setup(&players, &options, &pack, 3, DiceMode::Physical).unwrap();
    // Nowa on b3 with Brakka east of her and the chest west of her, on the
    // space she leaves undefended: two in her zone.
    put(&mut s, 0, "b3");
    put(&mut s, 1, "c3");
    {
        let f = s.field.as_mut().unwrap();
        f.things[0].at = Hex::parse("a3").unwrap();
    }
    initiative(&mut s, 0);
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "a3"}),
    );
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "d3"}),
    );
    assert_eq!(stage(&s), Stage::Combat);
    let names = |s: &State, seat: Seat| -> Vec<String> {
        let c = decide::choices(s, seat);
        let sheet = &s.seat(seat).fighter().sheet;
        c.open
            .iter()
            .map(|&i| sheet.maneuvers[i].full_name())
            .collect()
    };
    // Opening at extended range: Dodge is barred (Brakka and the chest are
    // two in her zone), Jump Back too (the chest is on her undefended space).
    let nowa = names(&s, 0);
    assert!(!nowa.iter().any(|n| n.contains("Dodge")), "{nowa:?}");
    assert!(!nowa.iter().any(|n| n.contains("Jump Back")), "{nowa:?}");
    assert!(nowa.iter().any(|n| n.contains("Charge")), "{nowa:?}");
    // Brakka has only Nowa beside her: nothing barred.
    let brakka = names(&s, 1);
    assert!(brakka.iter().any(|n| n.contains("Dodge")), "{brakka:?}");
    // Without the option nothing is barred.
    let options = serde_json::from_value(json!({"scenario": "yard"})).unwrap();
    let plain = decide::setup(&players, &options, &pack, 3, DiceMode::Physical).unwrap();
    assert!(!plain.field.as_ref().unwrap().obstructions);
    let options = serde_json::from_value(json!({"obstructions": "on"})).unwrap();
    let e = decide::setup(&players, &options, &pack, 3, DiceMode::Physical).unwrap_err();
    assert_eq!(e.rule, "setup.obstructions");
}

#[test]
fn regeneration_takes_the_whole_move_and_fails_in_a_battle_zone() {
    let regenerating = |s: &mut State| {
        edit_sheet(s, 0, |sheet| {
            sheet.regeneration = 2;
        });
        s.seats[0].party[0].body = 2;
    };
    let mut s = yard_state();
    regenerating(&mut s);
    initiative(&mut s, 0);
    ok(&mut s, Some(0), json!({"type": "regenerate"}));
    assert_eq!(points(&s, 0), 0, "the whole move");
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "b1"}),
    );
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "e4"}),
    );
    assert_eq!(s.seat(0).fighter().body, 8, "three times the book's best 2");
    // Not once a point is spent, and never for a book without it.
    let mut s = yard_state();
    regenerating(&mut s);
    initiative(&mut s, 0);
    ok(&mut s, Some(0), json!({"type": "move", "to": "b1"}));
    refused(
        &mut s,
        Some(0),
        json!({"type": "regenerate"}),
        "lostworlds.movement.regenerate",
    );
    let mut s = yard_state();
    initiative(&mut s, 1);
    refused(
        &mut s,
        Some(1),
        json!({"type": "regenerate"}),
        "lostworlds.movement.regenerate",
    );
    // Ending the phase in an opponent's zone foils it.
    let mut s = yard_state();
    regenerating(&mut s);
    put(&mut s, 1, "c1");
    initiative(&mut s, 0);
    ok(&mut s, Some(0), json!({"type": "regenerate"}));
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "b1"}),
    );
    ok(&mut s, Some(1), json!({"type": "move", "to": "b1"}));
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "c1"}),
    );
    assert_eq!(s.seat(0).fighter().body, 2);
}

/// Makes seat 1 (Brakka) a Wraith: undead, regenerating on another plane,
/// touching for 3; hurt down to 4 body points.
fn wraith(s: &mut State) {
    edit_sheet(s, 1, |sheet| {
        sheet.dematerializes = true;
        sheet.undead = true;
        sheet.touch_damage = 3;
    });
    s.seats[1].party[0].body = 4;
}

#[test]
fn a_wraith_regenerates_off_the_board_and_touches_whoever_ends_on_its_space() {
    let mut s = yard_state();
    wraith(&mut s);
    put(&mut s, 0, "a1");
    put(&mut s, 1, "c1");
    initiative(&mut s, 0);
    // Out of turn, before anyone has stepped: it leaves the board.
    let offered = super::movement::legal(&s, Some(1));
    assert!(
        offered
            .iter()
            .any(|l| matches!(l.action, Action::Regenerate { .. })),
        "{offered:?}"
    );
    let facts = ok(&mut s, Some(1), json!({"type": "regenerate"}));
    let line = LostWorlds::narrate(&s, &facts[0]).join(" ");
    assert!(
        line.contains("Brakka fades from c1 to another plane"),
        "{line}"
    );
    assert!(!LostWorlds::render_svg(&s, Viewer::Owner).contains("figure-1"));
    // Its space is open ground now: Nowa walks through and stops on it,
    // with no halt offered (it has no battle zone).
    ok(&mut s, Some(0), json!({"type": "move", "to": "b1"}));
    let facts = ok(&mut s, Some(0), json!({"type": "move", "to": "c1"}));
    assert!(
        !facts.iter().any(|f| matches!(f, Fact::HaltOffered { .. })),
        "{facts:?}"
    );
    let before = s.clone();
    let facts = ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "d1"}),
    );
    // The wraith's own move is gone; it comes back whole and touches Nowa.
    let told: Vec<String> = facts
        .iter()
        .flat_map(|f| LostWorlds::narrate(&before, f))
        .collect();
    let told = told.join(" ");
    assert!(told.contains("its touch finds them"), "{told}");
    assert!(
        told.contains("comes back from the other plane whole"),
        "{told}"
    );
    assert_eq!(s.seat(1).fighter().body, 12, "its starting body points");
    assert_eq!(s.seat(0).fighter().body, 10 - 3, "the touch's damage");
    assert!(turn_words(&s).contains("sets down the touched Nowa"));
    refused(
        &mut s,
        Some(1),
        json!({"type": "place", "to": "e1"}),
        "lostworlds.movement.place",
    );
    ok(&mut s, Some(1), json!({"type": "place", "to": "b1"}));
    assert_eq!(at(&s, 0), "b1");
    assert_eq!(position(&s, 0), Position::Standing, "no drop, no fall");
    assert_eq!(stage(&s), Stage::Combat, "side by side, they fight");
}

#[test]
fn a_wraith_leaves_only_as_the_phase_begins_or_as_its_move_and_never_from_a_zone() {
    let mut s = yard_state();
    wraith(&mut s);
    put(&mut s, 0, "a1");
    put(&mut s, 1, "e1");
    initiative(&mut s, 0);
    ok(&mut s, Some(0), json!({"type": "move", "to": "b1"}));
    refused(
        &mut s,
        Some(1),
        json!({"type": "regenerate"}),
        "lostworlds.movement.regenerate",
    );
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "a1"}),
    );
    // Its own move, untouched: it goes, and the phase ends with it.
    let facts = ok(&mut s, Some(1), json!({"type": "regenerate"}));
    assert!(facts
        .iter()
        .any(|f| matches!(f, Fact::Dematerialized { .. })));
    assert!(
        facts
            .iter()
            .any(|f| matches!(f, Fact::Regenerated { healed: 8, .. })),
        "{facts:?}"
    );
    // Beside an opponent it cannot go.
    let mut s = yard_state();
    wraith(&mut s);
    put(&mut s, 0, "a1");
    put(&mut s, 1, "b1");
    initiative(&mut s, 1);
    refused(
        &mut s,
        Some(1),
        json!({"type": "regenerate"}),
        "lostworlds.movement.regenerate",
    );
}

fn turn_words(s: &State) -> String {
    super::turn::stage_words(s)
}

/// Gives seat 0 (Nowa) spell points for the spell tests.
fn with_spell_points(s: &mut State, points: u32) {
    edit_sheet(s, 0, |sheet| {
        sheet.abilities.insert("spell".into(), points);
    });
}

#[test]
fn a_spell_cast_beyond_extended_range_needs_spare_points_and_the_table() {
    let mut s = yard_state();
    with_spell_points(&mut s, 3);
    put(&mut s, 0, "a1");
    put(&mut s, 1, "e1");
    // Cards are taken in on the map, before the first exchange.
    ok(
        &mut s,
        Some(0),
        json!({"type": "select_cards", "cards": ["ember-dart"]}),
    );
    initiative(&mut s, 0);
    // Four spaces: one spell point beyond the dart's two, and 1-4 works.
    refused(
        &mut s,
        Some(0),
        json!({"type": "cast", "card": "ember-dart"}),
        "lostworlds.movement.cast",
    );
    let body = s.seat(1).fighter().body;
    ok(
        &mut s,
        Some(0),
        json!({"type": "cast", "card": "Ember Dart", "target": 1, "roll": 4}),
    );
    assert_eq!(s.seat(1).fighter().body, body - 2);
    assert_eq!(points(&s, 0), 0, "the whole move");
    assert!(s.seat(0).fighter().cards[0].played);
    // Farther off the spare point is not enough; a 5 fizzles at four.
    let mut s = yard_state();
    with_spell_points(&mut s, 3);
    put(&mut s, 0, "a1");
    put(&mut s, 1, "f4");
    ok(
        &mut s,
        Some(0),
        json!({"type": "select_cards", "cards": ["ember-dart"]}),
    );
    initiative(&mut s, 0);
    let m = refused(
        &mut s,
        Some(0),
        json!({"type": "cast", "card": "ember-dart", "target": 1, "roll": 1}),
        "lostworlds.movement.cast",
    );
    assert!(
        m.contains("at 7 spaces") && m.contains("needs 3 spell points") && m.contains("has 1"),
        "{m}"
    );
    let mut s = yard_state();
    with_spell_points(&mut s, 3);
    put(&mut s, 0, "a1");
    put(&mut s, 1, "e1");
    ok(
        &mut s,
        Some(0),
        json!({"type": "select_cards", "cards": ["ember-dart"]}),
    );
    initiative(&mut s, 0);
    let body = s.seat(1).fighter().body;
    let facts = ok(
        &mut s,
        Some(0),
        json!({"type": "cast", "card": "ember-dart", "target": 1, "roll": 5}),
    );
    assert_eq!(s.seat(1).fighter().body, body, "it fizzled");
    let line = LostWorlds::narrate(&s, &facts[0]).join(" ");
    assert!(line.contains("fizzles"), "{line}");
    // Never from an opponent's battle zone.
    let mut s = yard_state();
    with_spell_points(&mut s, 3);
    put(&mut s, 0, "a1");
    put(&mut s, 1, "b1");
    ok(
        &mut s,
        Some(0),
        json!({"type": "select_cards", "cards": ["ember-dart"]}),
    );
    initiative(&mut s, 0);
    refused(
        &mut s,
        Some(0),
        json!({"type": "cast", "card": "ember-dart", "target": 1, "roll": 1}),
        "lostworlds.movement.cast",
    );
}

#[test]
fn magic_point_regeneration_restores_what_casting_spent_two_at_most() {
    let mut s = yard_state();
    with_spell_points(&mut s, 7);
    edit_sheet(&mut s, 0, |sheet| {
        sheet.spell_regeneration = 1;
    });
    put(&mut s, 0, "a1");
    put(&mut s, 1, "f4");
    ok(
        &mut s,
        Some(0),
        json!({"type": "select_cards", "cards": ["ember-dart", "knit-flesh"]}),
    );
    initiative(&mut s, 0);
    // Seven points less the cards' five leaves two: the dart at seven
    // spaces needs three.
    refused(
        &mut s,
        Some(0),
        json!({"type": "cast", "card": "ember-dart", "target": 1, "roll": 1}),
        "lostworlds.movement.cast",
    );
    put(&mut s, 1, "e2");
    // Five spaces: two more points, and they are spent.
    let facts = ok(
        &mut s,
        Some(0),
        json!({"type": "cast", "card": "ember-dart", "target": 1, "roll": 1}),
    );
    let line = LostWorlds::narrate(&s, &facts[0]).join(" ");
    assert!(line.contains("(2 spell points more)"), "{line}");
    assert_eq!(super::movement::spare_spell_points(&s, 0), 0);
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "b1"}),
    );
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "d2"}),
    );
    assert_eq!(stage(&s), Stage::Initiative, "no one fought, no one fell");
    // Regenerating restores three times the book's one, but 2 at most a
    // turn and no more than was spent.
    initiative(&mut s, 0);
    ok(&mut s, Some(0), json!({"type": "regenerate"}));
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "b1"}),
    );
    let before = s.clone();
    let facts = ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "d2"}),
    );
    assert_eq!(super::movement::spare_spell_points(&s, 0), 2);
    let regenerated = facts
        .iter()
        .find(|f| matches!(f, Fact::Regenerated { spell: 2, .. }))
        .expect("two spell points restored");
    let line = LostWorlds::narrate(&before, regenerated).join(" ");
    assert!(
        line.ends_with("Nowa regenerates 2 spell points (2 spare)."),
        "{line}"
    );
}

#[test]
fn a_spell_lasting_rounds_ends_outside_every_battle_zone() {
    use super::actions::Played;
    use super::state::Boost;
    let mut s = yard_state();
    let card = s.cards.get("stone-skin").unwrap().clone();
    assert_eq!(card.effect.rounds, 3);
    let played = Played {
        id: card.id.clone(),
        name: card.name.clone(),
        kind: card.kind,
        effect: card.effect.clone(),
        exchange: 1,
        target: None,
    };
    LostWorlds::apply(
        &mut s,
        &Fact::CardPlayed {
            seat: 0,
            member: 0,
            card: played,
        },
    );
    let b: &Boost = &s.seat(0).boosts[0];
    assert!(b.works(1) && b.works(3) && !b.works(4));
    assert!(b.lasts_past(2) && !b.lasts_past(3));
    // Nowa starts a combat phase outside every opponent's zone: it ends.
    put(&mut s, 0, "a1");
    put(&mut s, 1, "f5");
    initiative(&mut s, 0);
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "b1"}),
    );
    assert_eq!(s.seat(0).boosts.len(), 1, "in force until the combat phase");
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "e5"}),
    );
    assert!(s.seat(0).boosts.is_empty(), "{:?}", s.seat(0).boosts);
}
