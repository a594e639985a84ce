//! Every LEGEND rule: setup, whose turn it is, moves, placements, battles,
//! votes, duels, abilities, the end of the game and the score table.
//!
//! `decide` plays the action on a copy of the state, applying each fact as it
//! is decided, so later checks in the same action see earlier effects (an Item
//! spent on an Obstacle is gone by the Monster on the next square).
//! This file holds the turn (who acts, the explanation, the two actions and
//! passing the turn) and what every action shares (whose piece it is, a
//! defeat); each family of actions has its own file.

mod abilities;
mod duel;
mod legal;
mod moving;
mod placement;
mod setup;
mod victory;
mod voting;

use abilities::*;
use duel::*;
pub use legal::legal;
use moving::*;
use placement::*;
use setup::*;
pub use setup::{free_corners, setup};
pub use victory::{scores, winners};
use voting::*;

use std::collections::{BTreeMap, BTreeSet};

use tabletape_events::{DiceMode, Seat};

use super::actions::{
    AbilityName, Action, Ballot, Category, Choice, CornerName, Described, Fact, Fate, Object,
    Outcome, Score, Step, Tally, Use, Votes,
};
use super::apply::apply;
use super::content::{corner_square, Crossing, Sq, CORNERS};
use super::options::Options;
use super::state::{At, Phase, Piece, SeatState, State, ROUNDS};
use crate::chance::Chance;
use crate::error::{reject, Rejection};
use crate::rules::Legal;

/// A state being decided on, with the facts so far.
struct Sim {
    s: State,
    facts: Vec<Fact>,
    /// Whether the step being played has used its `their_story`.
    their_story_told: bool,
}

impl Sim {
    fn emit(&mut self, fact: Fact) {
        apply(&mut self.s, &fact);
        self.facts.push(fact);
    }

    fn piece(&self, id: u32) -> Result<Piece, Rejection> {
        match self.s.pieces.get(&id) {
            Some(p) => Ok(p.clone()),
            None => reject("legend.piece.unknown", format!("there is no object #{id}")),
        }
    }
}

fn text_given(field: &str, rule: &str, t: &str) -> Result<(), Rejection> {
    if t.trim().is_empty() {
        return reject(rule, format!("`{field}` must not be empty"));
    }
    Ok(())
}

fn own(s: &State, p: &Piece, seat: Seat) -> Result<(), Rejection> {
    if p.controller != seat {
        return reject(
            "legend.piece.not_yours",
            format!(
                "{} is controlled by {}, not {}",
                p.name,
                s.player(p.controller),
                s.player(seat)
            ),
        );
    }
    Ok(())
}

type Ruling = crate::rules::Ruling<Fact>;

pub fn decide(state: &State, by: Option<Seat>, action: &Action, chance: &mut Chance) -> Ruling {
    let mut sim = Sim {
        s: state.clone(),
        facts: Vec::new(),
        their_story_told: false,
    };
    if state.phase == Phase::Over {
        return reject("game.over", "the legend is already told");
    }
    if let Action::Introduce {
        seat,
        corner,
        avatar,
        talisman,
        symbol,
        ability,
        custom,
        votes,
        explanation,
    } = action
    {
        introduce(
            &mut sim,
            by,
            *seat,
            *corner,
            avatar,
            talisman,
            symbol,
            *ability,
            custom,
            votes,
            explanation,
        )?;
        return Ok(sim.facts);
    }
    if state.phase == Phase::Introductions {
        return reject(
            "legend.setup.introductions",
            "every player must introduce an Avatar, Talisman and Symbol before round 1",
        );
    }
    let named = match action {
        Action::Move { seat, .. }
        | Action::Place { seat, .. }
        | Action::Ability { seat, .. }
        | Action::Duel { seat, .. }
        | Action::Pass { seat, .. } => *seat,
        Action::Introduce { .. } => None,
    };
    let seat = state.current();
    for who in [by, named].into_iter().flatten() {
        if who != seat {
            return reject(
                "legend.turn.not_yours",
                format!("it is {}'s turn, not seat {who}'s", state.player(seat)),
            );
        }
    }
    let explanation = match action {
        Action::Move { explanation, .. }
        | Action::Place { explanation, .. }
        | Action::Ability { explanation, .. }
        | Action::Duel { explanation, .. }
        | Action::Pass { explanation, .. } => explanation,
        Action::Introduce { .. } => &None,
    };
    if let Some(text) = explanation {
        text_given("explanation", "legend.explanation.empty", text)?;
        sim.emit(Fact::Explained {
            seat,
            text: text.clone(),
        });
    }
    match action {
        Action::Move { pieces, .. } => decide_move(&mut sim, seat, pieces)?,
        Action::Place {
            object,
            squares,
            at,
            scenery,
            recycle,
            ..
        } => place(&mut sim, seat, object, squares, *at, scenery, *recycle)?,
        Action::Ability { used, .. } => ability(&mut sim, seat, used, chance)?,
        Action::Duel {
            piece,
            opponent,
            account,
            opponent_account,
            votes,
            heads,
            ..
        } => duel(
            &mut sim,
            seat,
            *piece,
            *opponent,
            account,
            opponent_account,
            votes,
            *heads,
            chance,
        )?,
        Action::Pass { .. } => {
            advance(&mut sim);
            return Ok(sim.facts);
        }
        Action::Introduce { .. } => unreachable!("handled above"),
    }
    if sim.s.phase == Phase::Playing && sim.s.actions_used >= sim.s.actions_allowed {
        advance(&mut sim);
    }
    Ok(sim.facts)
}

/// Ends the turn: the next seat in order (skipping those who lost a Gamble
/// on their second action), a new round, or the end after round 7.
fn advance(sim: &mut Sim) {
    let n = sim.s.order.len();
    let mut idx = sim.s.turn;
    let mut skipped = Vec::new();
    loop {
        idx += 1;
        if idx == n {
            idx = 0;
            let round = sim.s.round + 1;
            if round > ROUNDS {
                let scores = scores(&sim.s);
                let winners = winners(&scores);
                sim.emit(Fact::GameEnded {
                    outcome: Outcome::Points { scores, winners },
                });
                return;
            }
            sim.emit(Fact::RoundBegan { round });
        }
        let seat = sim.s.order[idx];
        if sim.s.skip_next.contains(&seat) && !skipped.contains(&seat) {
            skipped.push(seat);
            continue;
        }
        sim.emit(Fact::TurnPassed { seat, skipped });
        return;
    }
}

/// A defeated Avatar, Hero or Monster: Avatars respawn, the rest go to the
/// victor's Stockpile; whatever it carried stays on its square.
fn defeat(sim: &mut Sim, id: u32, victor: Seat) {
    let p = sim.s.pieces[&id].clone();
    let fate = match p.category {
        Category::Avatar => Fate::Respawned {
            corner: sim.s.seat(p.controller).corner,
        },
        _ => Fate::Stockpiled { seat: victor },
    };
    let dropped: Vec<u32> = sim.s.carried(id).map(|c| c.id).collect();
    sim.emit(Fact::Defeated {
        piece: id,
        fate,
        dropped,
        square: p.square(),
    });
}

fn article(c: Category) -> &'static str {
    match c {
        Category::Avatar | Category::Item | Category::Obstacle => "an",
        _ => "a",
    }
}

fn claimed_by(s: &State, large: u8, seat: Seat) -> bool {
    s.claims.get(&large) == Some(&seat)
}

/// Whether the action may carry the player's explanation of it.
pub fn explains(action: &Action) -> bool {
    matches!(
        action,
        Action::Move { .. }
            | Action::Place { .. }
            | Action::Ability { .. }
            | Action::Duel { .. }
            | Action::Pass { .. }
    )
}
