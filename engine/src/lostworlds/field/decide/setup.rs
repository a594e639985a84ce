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
    if players.len() != figures.len() {
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
                "{} has {} figures, one player each, in this order: {}",
                scenario.title,
                figures.len(),
                names.join(", ")
            ),
        );
    }
    let mut seated = options.clone();
    seated.scenario = None;
    seated.obstructions = false;
    seated.seats = figures
        .iter()
        .enumerate()
        .map(|(i, c)| (i as Seat, vec![c.to_string()]))
        .collect();
    let mut state = setup(players, &seated, pack, rules_version, dice)?;
    for st in &mut state.seats {
        st.status = SeatStatus::Aside;
        st.sights.clear();
        st.orders = Orders::default();
    }
    state.field = Some(Box::new(lay_out(scenario, dice, options.obstructions)));
    Ok(state)
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
