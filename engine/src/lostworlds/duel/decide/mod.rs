//! Every rule of the book duel: setup, which maneuvers are open, the
//! exchange and its damage, escapes, parties, the end of the fight and
//! what comes after. This file routes each action to its family (a
//! scenario's movement phase to `field::decide`) and holds the checks every
//! family shares; each family has its own file.
//!
//! `decide` checks an action and returns facts; nothing here changes state.

mod aftermath;
mod choosing;
mod escape;
mod exchange;
mod legal;
mod maneuvers;
mod party;
mod setup;

pub(in crate::lostworlds) use aftermath::awards;
pub use aftermath::{advance_categories, aftermath_open, can_improve};
pub use choosing::commitment;
pub use exchange::height_adjustment;
pub use legal::{legal, to_move};
pub use maneuvers::{check_maneuver, choices};
pub use setup::setup;

use std::collections::BTreeMap;

use tabletape_events::{DiceMode, Seat};

use crate::chance::Chance;
use crate::error::{reject, Rejection};
use crate::lostworlds::actions::{Action, Condition, Fact};
use crate::lostworlds::cards;
use crate::lostworlds::content::{PartyMark, Range};
use crate::lostworlds::field;
use crate::lostworlds::options::BooksMode;
use crate::lostworlds::state::{Pending, Phase, SeatStatus, State};

use aftermath::fight_end;
use exchange::{overflow, resolve};
use maneuvers::{check_targets, find_maneuver};

// ---------------------------------------------------------------- decide

type Ruling = crate::rules::Ruling<Fact>;

pub fn decide(state: &State, by: Option<Seat>, action: &Action, chance: &mut Chance) -> Ruling {
    if let Some(field) = state.field.as_deref() {
        let combat = field.in_combat() && state.phase == Phase::Fighting;
        let anytime = matches!(
            action,
            Action::Advance { .. } | Action::Improve { .. } | Action::Close
        ) || (matches!(action, Action::SelectCards { .. }) && state.exchanges == 0);
        if field::decide::is_field_action(action) {
            if combat {
                return reject(
                    "lostworlds.scenario.stage",
                    format!(
                        "not in the combat phase: {}",
                        field::decide::stage_words(state)
                    ),
                );
            }
            if state.phase != Phase::Fighting {
                return reject("lostworlds.phase", "the scenario is over");
            }
            return field::decide::decide(state, by, action, chance);
        }
        if matches!(action, Action::Escape { .. }) {
            return reject(
                "lostworlds.scenario.escape",
                "on the map a fighter leaves a fight by breaking off in the movement phase (`break_off`), not by the books' escape",
            );
        }
        if !combat && !anytime && state.phase == Phase::Fighting {
            return reject(
                "lostworlds.scenario.stage",
                format!(
                    "maneuvers wait for the combat phase: {}",
                    field::decide::stage_words(state)
                ),
            );
        }
    }
    if let Some(a) = &state.awaiting {
        if !matches!(action, Action::PickTargets { .. }) {
            return reject(
                "lostworlds.targets.awaited",
                format!(
                    "the pages are turned and {} is picking whom the blows hit: `pick_targets` first",
                    state.seat_name(a.seat)
                ),
            );
        }
    }
    match action {
        Action::Choose {
            seat,
            page,
            maneuver,
            targets,
        } => choosing::choose(state, by, *seat, *page, maneuver.as_deref(), targets),
        Action::Commit { seat, hash, nonce } => {
            choosing::commit(state, by, *seat, hash, nonce.as_deref())
        }
        Action::Reveal {
            seat,
            page,
            salt,
            targets,
        } => choosing::reveal(state, by, *seat, *page, salt.as_deref(), targets),
        Action::Exchange { maneuvers } => {
            if by.is_some() {
                return reject(
                    "lostworlds.seat",
                    "only the table's owner records a whole exchange; a seat uses choose, or commit and reveal",
                );
            }
            fighting(state)?;
            if !state.pending.is_empty() {
                return reject(
                    "lostworlds.pending",
                    "some seats have already chosen this exchange; finish with choose or reveal",
                );
            }
            choosing::exchange(state, maneuvers)
        }
        Action::Escape { seat } => escape::announce(state, by, *seat),
        Action::StepIn { seat, member } => party::step_in(state, by, *seat, member),
        Action::FireMissile {
            seat,
            member,
            what,
            card,
            target,
        } => party::fire_missile(state, by, *seat, member, what, card.as_deref(), *target),
        Action::SelectCards {
            seat,
            member,
            cards,
        } => cards::select(state, by, *seat, member.as_deref(), cards),
        Action::PlayCard { seat, card, target } => cards::play(state, by, *seat, card, *target),
        Action::PickTargets { seat, targets } => exchange::pick_targets(state, by, *seat, targets),
        Action::Advance {
            seat,
            member,
            category,
        } => aftermath::advance(state, by, *seat, member.as_deref(), category),
        Action::Improve {
            seat,
            member,
            maneuver,
        } => aftermath::improve(state, by, *seat, member.as_deref(), maneuver),
        Action::Close => aftermath::close(state),
        // The movement chart's actions went to `field::decide` above.
        _ => reject(
            "lostworlds.scenario",
            "this action belongs to a scenario on a map (option `scenario`)",
        ),
    }
}

// ---------------------------------------------------------------- small checks

pub(in crate::lostworlds) fn acting_seat(
    state: &State,
    by: Option<Seat>,
    seat: Option<Seat>,
) -> Result<Seat, Rejection> {
    let s = match (seat, by) {
        (Some(s), _) => s,
        (None, None) => return reject("lostworlds.seat", "say which seat acts: add \"seat\""),
        (None, Some(b)) => match state.figures_of(b)[..] {
            [f] => f,
            // No figure of its own: refused below as no seat.
            [] => b,
            ref several => {
                let names: Vec<String> = several
                    .iter()
                    .map(|&f| format!("{} (seat {f})", state.seat_name(f)))
                    .collect();
                return reject(
                    "lostworlds.seat",
                    format!(
                        "you control {}: say which figure acts with \"seat\"",
                        names.join(" and ")
                    ),
                );
            }
        },
    };
    if s as usize >= state.seats.len() {
        return reject("lostworlds.seat", format!("there is no seat {s}"));
    }
    // A player acts for the figures it controls (its own seat's, or several
    // in a scenario with fewer players than figures), and for no other.
    if let Some(b) = by {
        if state.controller(s) != b {
            return reject(
                "lostworlds.seat",
                format!("seat {b} cannot act for seat {s}"),
            );
        }
    }
    Ok(s)
}

pub(in crate::lostworlds) fn fighting(state: &State) -> Result<(), Rejection> {
    if state.phase != Phase::Fighting {
        return reject("lostworlds.phase", "the fight is over");
    }
    Ok(())
}

pub(in crate::lostworlds) fn in_fight(state: &State, seat: Seat) -> Result<(), Rejection> {
    let st = state.seat(seat);
    if st.status != SeatStatus::Fighting {
        return reject(
            "lostworlds.out",
            format!("{} is out of the fight", state.seat_name(seat)),
        );
    }
    Ok(())
}

fn not_record(state: &State) -> Result<(), Rejection> {
    if state.books_mode == BooksMode::Record {
        return reject(
            "lostworlds.record",
            "record mode: the table calls every maneuver in one `exchange` action, with what each fighter saw",
        );
    }
    Ok(())
}
