//! Every Ludovia rule: who may act, where thieves may go, what the police see,
//! what a robbery turns up, how duels, trials and purchases go, and when the
//! night ends. Facts are built one at a time on a scratch copy of the state
//! (see [`Out`]), so each later rule sees what the earlier facts did.
//! This file holds the phases and the turn (who acts, action points, the
//! end of a turn and of the night); each family of actions has its own file.

mod choices;
mod duels;
mod equipment;
mod fame;
mod legal;
mod moving;
mod police;
mod robbery;
mod setup;

use choices::*;
use duels::*;
use equipment::*;
use fame::*;
pub use legal::legal;
pub use moving::moves_from;
use moving::*;
pub use police::step_policeman;
use police::*;
pub use police::{police, Police};
use robbery::*;
pub use setup::setup;
pub use setup::turned;
use setup::*;

use std::collections::BTreeSet;

use tabletape_events::{DiceMode, Seat};

use super::actions::{Action, ArrestCause, Fact, FallCause, SeatRoll, Step, TurnEnd};
use super::board::{Facing, Post, Space, Street};
use super::content::{
    Colour, Edge, Effect, Pack, RooftopEvent, Special, LARGE_ORDINARY, SMALL_ORDINARY,
};
use super::options::Options;
use super::state::{Block, CellKind, Choice, Face, Outcome, Phase, Policeman, Stage, State, Thief};
use crate::chance::Chance;
use crate::error::{reject, Rejection};
use crate::rules::{Legal, Pick};

/// Fame and Fortune that wins at once.
pub const FAME_TO_WIN: u32 = 15;

/// Equipment a thief may hold.
pub const MAX_EQUIPMENT: usize = 3;

/// Action points per turn.
pub const ACTION_POINTS: u32 = 4;

/// Facts decided so far (see [`crate::rules::Out`]).
type Out = crate::rules::Out<super::Ludovia>;

fn acting(by: Option<Seat>, seat: Seat, state: &State) -> Result<(), Rejection> {
    match by {
        Some(b) if b != seat => reject(
            "ludovia.turn",
            format!("it is {}'s move, not {}'s", state.name(seat), state.name(b)),
        ),
        _ => Ok(()),
    }
}

/// A name as the box spells it, read in any letter case: `names` are the
/// box's own (an item, a rooftop card); a name none matches stays as given,
/// for the rule that refuses it to name.
fn boxed<'a>(name: &str, mut names: impl Iterator<Item = &'a String>) -> String {
    let name = name.trim();
    names
        .find(|n| n.eq_ignore_ascii_case(name))
        .cloned()
        .unwrap_or_else(|| name.to_string())
}

/// The action with every item and card name as the box spells it, so a
/// table may type `mask` for the Mask (the stored action keeps its words;
/// the facts carry the box's names).
fn names_read(state: &State, action: &Action) -> Option<Action> {
    let item = |n: &String| boxed(n, state.items.keys());
    let card = |n: &String| boxed(n, state.faces.keys());
    Some(match action {
        Action::Buy { item: i, pay, drew } => Action::Buy {
            item: item(i),
            pay: pay.iter().map(card).collect(),
            drew: drew.clone(),
        },
        Action::DiscardTreasure { card: c } => Action::DiscardTreasure { card: card(c) },
        Action::DiscardEquipment { item: i } => Action::DiscardEquipment { item: item(i) },
        Action::CashIn { cards: Some(cards) } => Action::CashIn {
            cards: Some(cards.iter().map(card).collect()),
        },
        _ => return None,
    })
}

type Ruling = crate::rules::Ruling<Fact>;

pub fn decide(state: &State, by: Option<Seat>, action: &Action, chance: &mut Chance) -> Ruling {
    let read = names_read(state, action);
    let action = read.as_ref().unwrap_or(action);
    let mut out = Out::new(state);
    match (&state.phase, action) {
        (Phase::Over, _) => return reject("game.over", "the night is over"),
        (Phase::Order { contenders }, Action::RollForOrder { rolls }) => {
            roll_for_order(&mut out, contenders, rolls.as_deref(), chance)?
        }
        (Phase::Order { .. }, _) => {
            return reject(
                "ludovia.order_first",
                "first roll for the turn order (`roll_for_order`)",
            )
        }
        (Phase::Placing { seat }, Action::PlacePoliceman { at, facing }) => {
            acting(by, *seat, state)?;
            check_placement(state, *at, *facing, false)?;
            out.push(Fact::PolicemanPlaced {
                seat: *seat,
                at: *at,
                facing: *facing,
                stake_out: false,
            });
            if out.s.turn().is_some() {
                let first = out.s.order[0];
                out.push(Fact::TurnBegan {
                    seat: first,
                    round: 1,
                });
            }
        }
        (Phase::Placing { seat }, _) => {
            return reject(
                "ludovia.place_policemen",
                format!(
                    "{} places a policeman first (`place_policeman`)",
                    state.name(*seat)
                ),
            )
        }
        (Phase::Playing(turn), _) => {
            let seat = turn.seat;
            acting(by, seat, state)?;
            match (turn.stage, action) {
                (
                    Stage::Policeman,
                    Action::MovePoliceman {
                        policeman,
                        roll,
                        step,
                    },
                ) => open_turn(&mut out, seat, *policeman, *roll, *step, chance)?,
                (Stage::Policeman, _) => {
                    return reject(
                        "ludovia.policeman_first",
                        "a turn opens by moving a policeman (`move_policeman`)",
                    )
                }
                (Stage::Trial, Action::StandTrial { roll }) => {
                    stand_trial(&mut out, seat, *roll, chance)?
                }
                (Stage::Trial, _) => {
                    return reject(
                        "ludovia.trial",
                        "a prisoner carrying treasure stands trial first (`stand_trial`)",
                    )
                }
                (Stage::Choice(choice), _) => {
                    resolve_choice(&mut out, seat, choice, action, chance)?
                }
                (Stage::Actions, _) => take_action(&mut out, seat, action, chance)?,
            }
        }
    }
    finish(&mut out);
    Ok(out.facts)
}

fn take_action(
    out: &mut Out,
    seat: Seat,
    action: &Action,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    let here = out.s.thief(seat).at;
    match action {
        Action::EndTurn => end_turn(out, seat, TurnEnd::Chose),
        Action::Move { to, mask } => move_thief(out, seat, here, *to, *mask)?,
        Action::Rob { drew, found } => {
            rob(out, seat, here, drew.as_deref(), found.as_deref(), chance)?
        }
        Action::Jump { to, roll, rope } => jump(out, seat, here, *to, *roll, *rope, chance)?,
        Action::Steal {
            from,
            rolls,
            took,
            make_up,
        } => steal(out, seat, *from, rolls, took, *make_up, chance)?,
        Action::KnockDown {
            target,
            street,
            rolls,
            make_up,
        } => knock_down(out, seat, *target, *street, rolls, *make_up, chance)?,
        Action::Buy { item, pay, drew } => {
            buy(out, seat, here, item, pay, drew.as_deref(), chance)?
        }
        Action::CashIn { cards } => cash_in(out, seat, here, cards)?,
        Action::Whistle { policeman, roll } => whistle(out, seat, *policeman, *roll, chance)?,
        Action::RollForOrder { .. }
        | Action::PlacePoliceman { .. }
        | Action::MovePoliceman { .. }
        | Action::StandTrial { .. } => {
            return reject("ludovia.phase", "that is not an action of a thief's turn")
        }
        Action::DiscardTreasure { .. } | Action::DiscardEquipment { .. } | Action::Land { .. } => {
            return reject("ludovia.no_choice", "nothing asks for that choice now")
        }
    }
    Ok(())
}

fn spend(out: &mut Out, seat: Seat) {
    // A spare blue item is used at once, outside the action points.
    if out
        .s
        .turn()
        .is_some_and(|t| t.stage == Stage::Choice(Choice::SpareItem))
    {
        return;
    }
    let left = out.s.turn().map_or(0, |t| t.ap.saturating_sub(1));
    out.push(Fact::ActionPointSpent { seat, left });
}

/// A sum that would not fit: never reached with a pack within its limits
/// (see [`super::content::TREASURE_MAX`]), but a sum is never allowed to wrap.
fn overflow() -> Rejection {
    Rejection::new(
        "ludovia.overflow",
        "the treasure's worth would overflow: a card is worth more than a box can print",
    )
}

fn check_subset(hand: &[String], cards: &[String], rule: &str) -> Result<(), Rejection> {
    let mut left = hand.to_vec();
    for c in cards {
        match left.iter().position(|h| h == c) {
            Some(i) => {
                left.remove(i);
            }
            None => return reject(rule, format!("`{c}` is not among the treasures carried")),
        }
    }
    Ok(())
}

fn end_turn(out: &mut Out, seat: Seat, why: TurnEnd) {
    let why = (out.s.rules >= 2).then_some(why);
    out.push(Fact::TurnEnded { seat, why });
    if out.s.robbed.len() as u32 == out.s.rooftop_total {
        let outcome = standings_outcome(&out.s, "the last rooftop was robbed");
        out.push(Fact::NightEnded { outcome });
        return;
    }
    let next = out.s.next_seat(seat);
    let round = if next == out.s.order[0] {
        out.s.round.saturating_add(1)
    } else {
        out.s.round
    };
    if round > out.s.round_limit {
        let outcome = standings_outcome(
            &out.s,
            &format!(
                "dawn broke after round {} (the round limit)",
                out.s.round_limit
            ),
        );
        out.push(Fact::NightEnded { outcome });
        return;
    }
    out.push(Fact::TurnBegan { seat: next, round });
}

/// Ends the turn when it has run its course; ends the night when the last
/// rooftop is robbed and nothing is left to settle.
fn finish(out: &mut Out) {
    let Some(turn) = out.s.turn().cloned() else {
        return;
    };
    if turn.stage != Stage::Actions {
        return;
    }
    let prisoner = out.s.thief(turn.seat).in_prison;
    if turn.ap == 0 || turn.ending || prisoner {
        let why = if turn.ending || prisoner {
            TurnEnd::Cut
        } else {
            TurnEnd::Spent
        };
        end_turn(out, turn.seat, why);
        return;
    }
    if out.s.robbed.len() as u32 == out.s.rooftop_total {
        let outcome = standings_outcome(&out.s, "the last rooftop was robbed");
        out.push(Fact::NightEnded { outcome });
    }
}
