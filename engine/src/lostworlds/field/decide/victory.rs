//! The victory check as each turn ends, and the scenario's end with its
//! experience.

use std::collections::BTreeMap;

use super::*;
use crate::lostworlds::actions::{Award, Ending, Outcome};
use crate::lostworlds::field::content::Goal;

/// Whether a side's goal is met on the board now.
fn goal_met(state: &State, side: usize) -> bool {
    let field = state.field.as_deref().expect("a scenario");
    let seats = |own: bool| {
        (0..state.seats.len() as Seat).filter(move |&s| (field.piece(s).side == side) == own)
    };
    let spaces =
        |names: &[String]| -> Vec<Hex> { names.iter().filter_map(|n| Hex::parse(n)).collect() };
    match &field.scenario.sides[side].goal {
        Goal::DefeatAll => seats(false).all(|s| !is_conscious(state, s)),
        Goal::Reach { spaces: to } => {
            let to = spaces(to);
            seats(true).any(|s| is_conscious(state, s) && to.contains(&field.piece(s).at))
        }
        Goal::Carry { object, to } => {
            let to = spaces(to);
            seats(true).any(|s| {
                is_conscious(state, s)
                    && field.piece(s).carrying.as_deref() == Some(object.as_str())
                    && to.contains(&field.piece(s).at)
            })
        }
        Goal::Hold => false,
    }
}

/// The victory check at the end of a turn: a side whose goal is met wins
/// (two at once: a draw); a side with no one alive has lost; at the turn
/// limit a holding side wins, else it is a draw.
pub(super) fn end_turn(chain: &mut Chain) -> Result<(), Rejection> {
    let state = &chain.state;
    let field = chain.field();
    let sides = field.scenario.sides.len();
    let alive = |side: usize| {
        (0..state.seats.len() as Seat).any(|s| {
            field.piece(s).side == side && state.seat(s).fighter().condition != Condition::Dead
        })
    };
    let met: Vec<usize> = (0..sides).filter(|&i| goal_met(state, i)).collect();
    let living: Vec<usize> = (0..sides).filter(|&i| alive(i)).collect();
    let holders: Vec<usize> = (0..sides)
        .filter(|&i| field.scenario.sides[i].goal == Goal::Hold && alive(i))
        .collect();
    let last_turn = field.turn >= field.scenario.turn_limit;
    let winner = match (met.as_slice(), living.as_slice()) {
        ([one], _) => Some(Some(*one)),
        ([_, _, ..], _) => Some(None),
        ([], [one]) => Some(Some(*one)),
        ([], []) => Some(None),
        ([], _) if last_turn => Some(match holders.as_slice() {
            [one] => Some(*one),
            _ => None,
        }),
        _ => None,
    };
    match winner {
        None => {
            let turn = field.turn;
            chain.push(Fact::TurnEnded { turn });
        }
        Some(winner) => {
            let fact = scenario_end(state, winner)?;
            chain.push(fact);
        }
    }
    Ok(())
}

/// The scenario's end: the winners, and each survivor's experience (the
/// combat experience of the fights, and the winning side's victory points
/// divided evenly among its survivors, whole points only).
fn scenario_end(state: &State, winner: Option<usize>) -> Result<Fact, Rejection> {
    let field = state.field.as_deref().expect("a scenario");
    let mut victory: BTreeMap<Seat, u32> = BTreeMap::new();
    let mut victors = Vec::new();
    if let Some(side) = winner {
        let survivors: Vec<Seat> = (0..state.seats.len() as Seat)
            .filter(|&s| field.piece(s).side == side)
            .filter(|&s| state.seat(s).fighter().condition != Condition::Dead)
            .collect();
        let points = field.scenario.sides[side].points / survivors.len().max(1) as u32;
        for &s in &survivors {
            victory.insert(s, points);
        }
        victors = survivors;
    }
    let awards: Vec<Award> = crate::lostworlds::duel::decide::awards(state, &[], &victory)?;
    Ok(Fact::FightEnded {
        outcome: Outcome {
            ending: if winner.is_some() {
                Ending::Victory
            } else {
                Ending::Stalemate
            },
            victors,
        },
        awards,
    })
}
