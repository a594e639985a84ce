//! Scenario play: the movement chart, battle zones, halting, the combat
//! phase through the books, falls, recovery and victory, each rule tried
//! on a small map with the table's own dice, and whole sample scenarios
//! played at random.

use serde_json::{json, Value};
use tabletape_events::{DiceMode, Seat};

use tabletape_engine::chance::Chance;
use tabletape_engine::error::Rejection;
use tabletape_engine::lostworlds::actions::{Action, Condition, Deed, Ending, Fact};
use tabletape_engine::lostworlds::content::Pack;
use tabletape_engine::lostworlds::duel::decide;
use tabletape_engine::lostworlds::duel::narration;
use tabletape_engine::lostworlds::field::content::Hex;
use tabletape_engine::lostworlds::field::state::{Position, Stage};
use tabletape_engine::lostworlds::state::{SeatStatus, State};
use tabletape_engine::lostworlds::LostWorlds;
use tabletape_engine::rules::{Rules, Viewer};

mod combat;
mod content;
mod controls;
mod falls;
mod jumps;
mod magic;
mod movement;
mod objects;
mod tables;
mod victory;

fn pack_with(scenario: Option<Value>) -> Pack {
    let mut pack = LostWorlds::default_pack();
    if let Some(s) = scenario {
        pack["scenarios"].as_array_mut().unwrap().push(s);
    }
    let pack: Pack = serde_json::from_value(pack).unwrap();
    tabletape_engine::lostworlds::content::validate(&pack, "test").unwrap();
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

/// The yard with Nowa and Brakka on `spaces`, initiative rolled so that
/// `first` moves first.
fn yard_at(spaces: [&str; 2], first: Seat) -> State {
    let mut s = yard_state();
    put(&mut s, 0, spaces[0]);
    put(&mut s, 1, spaces[1]);
    initiative(&mut s, first);
    s
}

/// Rolls initiative so that `first` moves first.
fn initiative(state: &mut State, first: Seat) {
    let dice: Vec<u32> = (0..state.seats.len() as Seat)
        .map(|s| if s == first { 6 } else { 1 })
        .collect();
    ok(state, None, json!({"type": "roll", "dice": dice}));
}

/// Changes a seat's character sheet for one test.
fn edit_sheet(
    s: &mut State,
    seat: usize,
    edit: impl FnOnce(&mut tabletape_engine::lostworlds::content::Character),
) {
    let mut sheet = (*s.seats[seat].party[0].sheet).clone();
    edit(&mut sheet);
    s.seats[seat].party[0].sheet = std::sync::Arc::new(sheet);
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
    let mut state = decide::setup(
        &players,
        &options,
        pack,
        LostWorlds::RULES_VERSION,
        DiceMode::Digital,
    )
    .unwrap();
    for step in 0..20_000u64 {
        if LostWorlds::is_over(&state) {
            return state;
        }
        let mut legal: Vec<_> = LostWorlds::legal(&state, None)
            .into_iter()
            .filter(|l| l.needs.is_empty())
            .collect();
        // Opponents face to face mostly fight: lean on engaging.
        let engages = |l: &tabletape_engine::rules::Legal<Action>| matches!(&l.action, Action::Engage { foes, .. } if !foes.is_empty());
        if !seed.is_multiple_of(4) && legal.iter().any(engages) {
            legal.retain(engages);
        }
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
