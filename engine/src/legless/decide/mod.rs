//! Every Legless in London rule: setup, upkeep, moving and street events,
//! the six actions at a location, legs, debts, sickness, death and rebirth,
//! victory. Facts are built one at a time on a scratch copy of the state
//! (see [`Out`]), so each later rule sees what the earlier facts did.
//! This file holds the turn (who acts, upkeep, legs, victory, passing the
//! turn); each family of actions has its own file.

mod fortune;
mod legal;
mod location;
mod moving;
mod setup;

use fortune::*;
pub use legal::legal;
use location::*;
pub use moving::crossings;
use moving::*;
pub use setup::setup;

use std::collections::BTreeSet;

use tabletape_events::{DiceMode, Seat};

use super::actions::{Action, Death, Fact, Sale, Task, Told};
use super::board::{Board, Place};
use super::content::{
    check_card, check_character, check_effects, check_leg, CardText, Character, Effect, GoalKind,
    Leg, LegText, LocationCard, Needs, Pack, Read,
};
use super::options::Options;
use super::state::{Londoner, Phase, Stage, State, Turn, TOKENS};
use crate::chance::Chance;
use crate::error::{reject, Rejection};
use crate::rules::{Legal, Pick};

/// Facts decided so far (see [`crate::rules::Out`]).
type Out = crate::rules::Out<super::Legless>;

impl Out {
    fn l(&self, seat: Seat) -> &Londoner {
        self.s.londoner(seat)
    }

    fn over(&self) -> bool {
        matches!(self.s.phase, Phase::Over)
    }
}

fn acting(state: &State, by: Option<Seat>, seat: Seat) -> Result<(), Rejection> {
    match by {
        Some(b) if b != seat => reject(
            "legless.turn",
            format!("it is {}'s turn, not {}'s", state.name(seat), state.name(b)),
        ),
        _ => Ok(()),
    }
}

type Ruling = crate::rules::Ruling<Fact>;

pub fn decide(state: &State, by: Option<Seat>, action: &Action, chance: &mut Chance) -> Ruling {
    let Phase::Playing(turn) = state.phase else {
        return reject("game.over", "the game is over");
    };
    let mut out = Out::new(state);
    let waiting: Vec<Seat> = (0..state.londoners.len() as Seat)
        .filter(|&s| state.londoner(s).dead)
        .collect();
    if let Action::DrawCharacter { seat, drew, card } = action {
        if !waiting.contains(seat) {
            return reject(
                "legless.not_dead",
                format!(
                    "{} is alive: only a dead player draws a new character",
                    state
                        .londoners
                        .get(*seat as usize)
                        .map_or("that seat", |l| l.player.as_str())
                ),
            );
        }
        acting(state, by, *seat)?;
        draw_character(&mut out, *seat, drew.as_deref(), card, chance)?;
        return Ok(out.facts);
    }
    if let Some(&dead) = waiting.first() {
        return reject(
            "legless.rejoin_first",
            format!(
                "{} died and rejoins first with a new character (`draw_character`)",
                state.name(dead)
            ),
        );
    }
    let seat = turn.seat;
    acting(state, by, seat)?;
    if let Action::SellLeg { leg } = action {
        owned(state, seat, leg)?;
        sell(&mut out, seat, leg, Sale::Chosen);
        if turn.stage == Stage::Upkeep && out.s.upkeep_due(seat) == 0 {
            let stage = after_upkeep(&out.s, seat);
            out.push(Fact::StageSet { seat, stage });
        }
        return Ok(out.facts);
    }
    match (turn.stage, action) {
        (Stage::Upkeep, Action::Upkeep { sell: sold }) => upkeep(&mut out, seat, sold)?,
        (Stage::Upkeep, _) => {
            return reject(
                "legless.upkeep_first",
                format!(
                    "{}'s turn opens with the upkeep of their legs, £{} (`upkeep`, selling any leg they will not pay for)",
                    state.name(seat),
                    state.upkeep_due(seat)
                ),
            )
        }
        (Stage::Sickroom, Action::Recover { roll }) => {
            sick_turn(&mut out, seat, *roll, chance)?;
            end_turn(&mut out, seat);
        }
        (Stage::Sickroom, _) => {
            return reject(
                "legless.sick",
                format!(
                    "{} is sick: they stay in the Sickroom, pay £{} and roll to heal (`recover`) until their health is full",
                    state.name(seat),
                    state.sickroom_fee()
                ),
            )
        }
        (Stage::Act, Action::Equip { leg }) => equip(&mut out, seat, leg.as_deref())?,
        (Stage::Act, Action::Roll { rolls }) => roll_to_move(&mut out, seat, rolls, chance)?,
        (Stage::Act, Action::Move { .. }) => {
            return reject(
                "legless.roll_first",
                "roll to move first (`roll`); the path comes after",
            )
        }
        (Stage::Act, Action::Upkeep { .. }) => {
            return reject("legless.upkeep_paid", "the upkeep is paid for this turn")
        }
        (Stage::Act, _) => {
            check_action(state, seat, action)?;
            location_action(&mut out, seat, action, chance)?;
            end_turn(&mut out, seat);
        }
        (Stage::Moving { steps }, Action::Move { path, drew, cards }) => {
            walk(&mut out, seat, steps, path, drew.as_deref(), cards.as_deref(), chance)?;
            end_turn(&mut out, seat);
        }
        (Stage::Moving { steps }, _) => {
            return reject(
                "legless.moving",
                format!(
                    "{} may walk {steps} {} now: say the path (`move`)",
                    state.name(seat),
                    if steps == 1 { "square" } else { "squares" }
                ),
            )
        }
    }
    Ok(out.facts)
}

fn owned(state: &State, seat: Seat, leg: &str) -> Result<(), Rejection> {
    if state.londoner(seat).legs.iter().any(|l| l == leg) {
        return Ok(());
    }
    reject(
        "legless.not_owned",
        format!(
            "{} owns no leg called `{leg}`{}",
            state.name(seat),
            crate::suggest::did_you_mean(leg, state.londoner(seat).legs.iter().map(String::as_str))
        ),
    )
}

fn sell(out: &mut Out, seat: Seat, leg: &str, why: Sale) {
    let price = out.s.legs.get(leg).map_or(0, |l| l.resale());
    out.push(Fact::LegSold {
        seat,
        leg: leg.to_string(),
        price,
        why,
    });
}

/// The stage after the upkeep: the Sickroom for the sick, else acting.
fn after_upkeep(s: &State, seat: Seat) -> Stage {
    if s.londoner(seat).sick {
        Stage::Sickroom
    } else {
        Stage::Act
    }
}

fn opening_stage(s: &State, seat: Seat) -> Stage {
    if s.upkeep_due(seat) > 0 {
        Stage::Upkeep
    } else {
        after_upkeep(s, seat)
    }
}

fn upkeep(out: &mut Out, seat: Seat, sold: &[String]) -> Result<(), Rejection> {
    let mut seen = BTreeSet::new();
    for leg in sold {
        owned(&out.s, seat, leg)?;
        if !seen.insert(leg) {
            return reject("legless.upkeep", format!("`{leg}` is sold only once"));
        }
    }
    let (proceeds, due) = out.s.upkeep_selling(seat, sold);
    let money = out.l(seat).money + proceeds;
    if money < due {
        return reject(
            "legless.upkeep",
            format!(
                "{} has £{money} for £{due} of upkeep: sell the legs they cannot keep",
                out.s.name(seat)
            ),
        );
    }
    for leg in sold {
        sell(out, seat, leg, Sale::Upkeep);
    }
    if due > 0 {
        out.push(Fact::UpkeepPaid { seat, amount: due });
    }
    let stage = after_upkeep(&out.s, seat);
    out.push(Fact::StageSet { seat, stage });
    Ok(())
}

/// The upkeep of a turn its Londoner misses: no one is there to choose, so
/// the legs they cannot keep are sold as a forced debt sells them
/// (unequipped first, cheapest first) until the money covers the rest.
fn missed_upkeep(out: &mut Out, seat: Seat) {
    while out.l(seat).money < out.s.upkeep_due(seat) {
        let next = forced_sale(&out.s, seat, |leg| leg.equipped.maintenance > 0);
        match next {
            Some(leg) => sell(out, seat, &leg, Sale::Upkeep),
            None => break,
        }
    }
    let due = out.s.upkeep_due(seat);
    if due > 0 {
        out.push(Fact::UpkeepPaid { seat, amount: due });
    }
}

fn equip(out: &mut Out, seat: Seat, leg: Option<&str>) -> Result<(), Rejection> {
    if out.l(seat).equipped.as_deref() == leg {
        return reject(
            "legless.equip",
            match leg {
                Some(l) => format!("`{l}` is already equipped"),
                None => "no leg is equipped".to_string(),
            },
        );
    }
    let side = match leg {
        Some(l) => {
            owned(&out.s, seat, l)?;
            let side = out.s.legs[l].equipped.clone();
            if side.crutch_rolls.is_some() {
                return reject(
                    "legless.crutches",
                    "crutches are used beside a leg, not equipped as one: owning them is enough",
                );
            }
            Some(side)
        }
        None => None,
    };
    out.push(Fact::LegEquipped {
        seat,
        leg: leg.map(str::to_string),
        side,
    });
    Ok(())
}

fn place_token(out: &mut Out, seat: Seat, location: &str, goal: GoalKind, cost: u32) {
    out.push(Fact::TokenPlaced {
        seat,
        location: location.to_string(),
        goal,
        cost,
    });
    if out.l(seat).tokens.len() >= TOKENS {
        out.push(Fact::Won { seat });
        return;
    }
    // Whoever can no longer find enough free victory spaces dies.
    for s in 0..out.s.londoners.len() as Seat {
        let l = out.l(s);
        if l.dead {
            continue;
        }
        let needed = TOKENS.saturating_sub(l.tokens.len());
        if out.s.reachable_goals(s) < needed {
            die(out, s, Death::NoSpace);
        }
    }
}

/// Passes the turn clockwise, skipping missed turns; the round limit calls
/// the game for whoever placed most victory tokens.
fn end_turn(out: &mut Out, seat: Seat) {
    if out.over() {
        return;
    }
    // A card or story read this turn moved the Londoner on: the turn goes
    // on with that move, unless they fell sick or died since.
    let moving_on = out
        .facts
        .iter()
        .any(|f| matches!(f, Fact::MoveGranted { seat: s, .. } if *s == seat));
    let l = out.l(seat);
    if moving_on && !l.dead && !l.sick {
        return;
    }
    let n = out.s.londoners.len();
    let first = out.s.first();
    let mut next = seat;
    let mut round = out.s.round;
    loop {
        next = ((next as usize + 1) % n) as Seat;
        if next == first {
            round += 1;
            if round > out.s.round_limit {
                let most = out
                    .s
                    .londoners
                    .iter()
                    .map(|l| l.tokens.len())
                    .max()
                    .unwrap_or(0);
                let winners = (0..n as Seat)
                    .filter(|&s| out.l(s).tokens.len() == most)
                    .collect();
                out.push(Fact::GameCalled {
                    winners,
                    rounds: out.s.round_limit,
                });
                return;
            }
        }
        if out.l(next).miss_turns > 0 && !out.l(next).dead {
            out.push(Fact::TurnMissed { seat: next });
            // Upkeep is due at the beginning of every turn, a missed one
            // too (rules 2; rules 1 let it pass).
            if out.s.rules >= 2 {
                missed_upkeep(out, next);
            }
            continue;
        }
        break;
    }
    let stage = opening_stage(&out.s, next);
    out.push(Fact::TurnBegan {
        seat: next,
        round,
        stage,
    });
}
