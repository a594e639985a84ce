//! Setting a scenario up: one seat for each figure, the duel's fighters
//! behind them, and the board laid out.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::*;
use crate::lostworlds::content::Pack;
use crate::lostworlds::duel::decide::setup;
use crate::lostworlds::field::content::Scenario;
use crate::lostworlds::field::state::{Done, Field, Piece, Thing};
use crate::lostworlds::options::Options;
use crate::lostworlds::state::{Orders, SeatStatus};

/// Lays out a scenario: one seat for each of its figures, side by side in
/// the scenario's order, every figure standing on its starting space and
/// no fight begun.
pub(in crate::lostworlds) fn setup_scenario(
    players: &[String],
    options: &Options,
    pack: &Pack,
    rules_version: u32,
    dice: DiceMode,
    id: &str,
) -> Result<State, Rejection> {
    let Some(scenario) = pack.scenario(id) else {
        let ids: Vec<&str> = pack.scenarios.iter().map(|s| s.id.as_str()).collect();
        return reject(
            "setup.scenario",
            format!("no scenario `{id}` in the pack (it has {})", ids.join(", ")),
        );
    };
    if !options.seats.is_empty() {
        return reject(
            "setup.scenario",
            "a scenario names its own characters: leave out `characters` and `seatN`",
        );
    }
    let figures: Vec<&str> = scenario
        .sides
        .iter()
        .flat_map(|s| s.figures.iter().map(|f| f.character.as_str()))
        .collect();
    let sides: Vec<usize> = scenario
        .sides
        .iter()
        .enumerate()
        .flat_map(|(i, s)| s.figures.iter().map(move |_| i))
        .collect();
    if options.controls.is_empty() && players.len() != figures.len() {
        let mut names = Vec::new();
        for side in &scenario.sides {
            for f in &side.figures {
                let name = pack
                    .character(&f.character)
                    .map_or(&f.character, |c| &c.name);
                names.push(format!("{name} ({})", side.name));
            }
        }
        return reject(
            "setup.players",
            format!(
                "{} has {} figures, one player each unless option `controls` gives a player several, in this order: {}",
                scenario.title,
                figures.len(),
                names.join(", ")
            ),
        );
    }
    let controllers = controllers(players.len(), &options.controls, &sides)?;
    // The duel's seats are the figures, each under its controller's name.
    let players: Vec<String> = (0..figures.len())
        .map(|f| players[controllers.get(f).map_or(f, |&p| p as usize)].clone())
        .collect();
    let mut seated = options.clone();
    seated.scenario = None;
    seated.obstructions = false;
    seated.seats = figures
        .iter()
        .enumerate()
        .map(|(i, c)| (i as Seat, vec![c.to_string()]))
        .collect();
    seated.controls = Vec::new();
    let mut state = setup(&players, &seated, pack, rules_version, dice)?;
    state.controllers = controllers;
    for st in &mut state.seats {
        st.status = SeatStatus::Aside;
        st.sights.clear();
        st.orders = Orders::default();
    }
    state.field = Some(Box::new(lay_out(scenario, dice, options.obstructions)));
    Ok(state)
}

/// Checks option `controls` against the table: a player seat for each
/// figure (`sides` gives each figure's side), every player with a figure,
/// and each player's figures on one side (a player does not fight itself,
/// and a side's win is its players').
fn controllers(players: usize, controls: &[Seat], sides: &[usize]) -> Result<Vec<Seat>, Rejection> {
    if controls.is_empty() {
        return Ok(Vec::new());
    }
    let refuse = |why: String| reject("setup.controls", why);
    if controls.len() != sides.len() {
        return refuse(format!(
            "option `controls` gives {} seats; the scenario has {} figures, one seat each",
            controls.len(),
            sides.len()
        ));
    }
    if let Some(&p) = controls.iter().find(|&&p| p as usize >= players) {
        return refuse(format!(
            "option `controls`: there is no seat {p} (the game has {players} players)"
        ));
    }
    for p in 0..players as Seat {
        let theirs: Vec<usize> = (0..sides.len()).filter(|&f| controls[f] == p).collect();
        let Some(&first) = theirs.first() else {
            return refuse(format!("option `controls`: seat {p} controls no figure"));
        };
        if theirs.iter().any(|&f| sides[f] != sides[first]) {
            return refuse(format!(
                "option `controls`: seat {p} has figures on two sides; a player's figures fight on one side"
            ));
        }
    }
    Ok(controls.to_vec())
}

/// The board laid out at the start: each side's figures on their spaces,
/// the objects where the scenario puts them.
pub fn lay_out(scenario: &Scenario, dice: DiceMode, obstructions: bool) -> Field {
    let mut pieces = Vec::new();
    for (i, side) in scenario.sides.iter().enumerate() {
        for f in &side.figures {
            pieces.push(Piece {
                side: i,
                at: Hex::parse(&f.at).expect("checked with the scenario"),
                position: Position::Standing,
                carrying: None,
                bearing: None,
                points: 0,
                allowance: 0,
                done: Done::default(),
                ran_before: false,
                spell_spent: 0,
                undefended: None,
            });
        }
    }
    let things = scenario
        .objects
        .iter()
        .map(|o| Thing {
            id: o.id.clone(),
            kind: o.kind.clone(),
            at: Hex::parse(&o.at).expect("checked with the scenario"),
            carried_by: None,
            owner: None,
        })
        .collect();
    Field {
        scenario: Arc::new(scenario.clone()),
        dice,
        turn: 1,
        stage: Stage::Initiative,
        order: Vec::new(),
        moved: 0,
        pieces,
        things,
        engaged: BTreeMap::new(),
        rounds: 0,
        offer: None,
        engaging: None,
        placing: Vec::new(),
        at_risk: Vec::new(),
        winner: None,
        examined: Vec::new(),
        obstructions,
        read_map: Default::default(),
    }
}
