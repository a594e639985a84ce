//! The rules of a scenario on the map. This file decides the movement
//! phase (each figure's move, halting, the end of a move with its
//! undefended space) and routes the rest: the movement chart's entries
//! (`chart`), the turn's stages (`turn`), falls, the combat phase, the
//! victory check, setup and what is open (`legal`). A combat phase is
//! fought through the duel's own `decide`.

mod chart;
mod combat;
mod falls;
mod legal;
mod setup;
mod turn;
mod victory;

pub use chart::spare_spell_points;
use chart::{deed, exit_cost};
use combat::begin_combat;
pub(in crate::lostworlds) use combat::{after_exchange, obstructions};
pub use combat::{effective_heights, terrain_height_bonus};
use falls::{beside, landing_spaces, place, placer};
pub use legal::{legal, to_move};
pub(in crate::lostworlds) use setup::setup_scenario;
use turn::{after_movement, is_conscious, legal_roll, roll, rollers};
pub use turn::{board, recovering, stage_words, Chain};
use victory::end_turn;

use tabletape_events::{DiceMode, Seat};

use crate::chance::Chance;
use crate::error::{reject, Rejection};
use crate::lostworlds::actions::{Action, Condition, Deed, Fact, FallRoll, Landing};
use crate::lostworlds::duel::decide::acting_seat;
use crate::lostworlds::field::content::Hex;
use crate::lostworlds::field::state::{Board, Position, Stage};
use crate::lostworlds::field::tables::{self, cost, Footing};
use crate::lostworlds::state::State;

fn refuse<T>(rule: &str, message: impl Into<String>) -> Result<T, Rejection> {
    reject(&format!("lostworlds.movement.{rule}"), message)
}

/// Reads a space named in `field`, which must be on the map.
pub fn space(b: &Board<'_>, field: &str, name: &str) -> Result<Hex, Rejection> {
    Hex::parse(name)
        .filter(|h| b.terrain.at(*h).is_some())
        .ok_or_else(|| {
            Rejection::new(
                "lostworlds.movement.space",
                format!(
                    "`{field}`: `{name}` is no space of this {}-column, {}-row map (write a column letter and a row number, as in c3)",
                    b.terrain.cols, b.terrain.rows
                ),
            )
        })
}

fn level_of(b: &Board<'_>, h: Hex) -> i32 {
    i32::from(b.level(h).unwrap_or(0))
}

fn hexes(spaces: &[Hex]) -> String {
    if spaces.is_empty() {
        return "none".into();
    }
    spaces
        .iter()
        .map(Hex::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Body points and condition after `damage`.
pub fn hurt(state: &State, seat: Seat, damage: i32) -> (i32, Condition) {
    let f = state.seat(seat).fighter();
    let body = f.body.saturating_sub(damage);
    let condition = match f.condition {
        Condition::Fit if body <= -5 => Condition::Dead,
        Condition::Fit if body <= 0 => Condition::Unconscious,
        c => c,
    };
    (body, condition)
}

/// Whether the action is one of the movement chart's (or a halt or placing).
pub fn is_field_action(action: &Action) -> bool {
    use Action::*;
    matches!(
        action,
        Roll { .. }
            | Move { .. }
            | Crawl { .. }
            | Run { .. }
            | JumpDown { .. }
            | JumpOnto { .. }
            | JumpOver { .. }
            | Block { .. }
            | FallProne { .. }
            | StandUp { .. }
            | RegainBalance { .. }
            | PickUp { .. }
            | Drop { .. }
            | Throw { .. }
            | ThrowWeapon { .. }
            | Examine { .. }
            | ShoveObject { .. }
            | Shove { .. }
            | Slay { .. }
            | Regenerate { .. }
            | Cast { .. }
            | BreakOff { .. }
            | EndMove { .. }
            | Halt { .. }
            | LetPass { .. }
            | Engage { .. }
            | Place { .. }
    )
}

/// The seat an action names or is sent by.
fn actor(action: &Action) -> Option<Seat> {
    use Action::*;
    match action {
        Move { seat, .. }
        | Crawl { seat, .. }
        | Run { seat }
        | JumpDown { seat, .. }
        | JumpOnto { seat, .. }
        | JumpOver { seat, .. }
        | Block { seat, .. }
        | FallProne { seat }
        | StandUp { seat }
        | RegainBalance { seat }
        | PickUp { seat, .. }
        | Drop { seat, .. }
        | Throw { seat, .. }
        | ThrowWeapon { seat, .. }
        | Examine { seat, .. }
        | ShoveObject { seat, .. }
        | Shove { seat, .. }
        | Slay { seat, .. }
        | Regenerate { seat }
        | Cast { seat, .. }
        | BreakOff { seat, .. }
        | EndMove { seat, .. }
        | Halt { seat }
        | LetPass { seat }
        | Engage { seat, .. }
        | Place { seat, .. } => *seat,
        _ => None,
    }
}

/// Decides a scenario action outside the combat phase.
type Ruling = crate::rules::Ruling<Fact>;

pub fn decide(state: &State, by: Option<Seat>, action: &Action, chance: &mut Chance) -> Ruling {
    let field = state.field.as_deref().expect("a scenario");
    if field.stage == Stage::Ended {
        return reject("lostworlds.phase", "the scenario is over");
    }
    if let Action::Roll { dice } = action {
        if field.offer.is_some() || !field.placing.is_empty() || field.engaging.is_some() {
            return refuse("waiting", stage_words(state));
        }
        return roll(state, dice, chance);
    }
    let seat = acting_seat(state, by, actor(action))?;
    match action {
        Action::Halt { .. } | Action::LetPass { .. } => return halt(state, seat, action),
        Action::Engage { foes, .. } => return combat::engage(state, seat, foes),
        Action::Place { to, roll, land, .. } => {
            return place(state, seat, to, *roll, land.as_deref(), chance)
        }
        _ => {}
    }
    if field.offer.is_some() || !field.placing.is_empty() {
        return refuse("waiting", stage_words(state));
    }
    if matches!(action, Action::Regenerate { .. })
        && state.seat(seat).fighter().sheet.dematerializes
    {
        return dematerialize(state, seat);
    }
    if field.mover() != Some(seat) {
        return refuse("turn", stage_words(state));
    }
    if let Action::EndMove { undefended, .. } = action {
        return end_move(state, seat, undefended);
    }
    let (cost, deed) = deed(state, seat, action, chance)?;
    let mut chain = Chain::new(state);
    let b = board(state).expect("a scenario");
    let before = b.zone_foes(seat);
    let could_leave = crowded(&b, seat).is_some() && can_leave(&b, seat);
    chain.push(Fact::Stepped { seat, cost, deed });
    // A figure passing through a friend's space keeps the points to step
    // out again: whatever else it does there, two conscious figures never
    // end the movement phase on one space (rules 6; under rules 5 a shove
    // there could spend them).
    if could_leave && state.rules >= 6 {
        let after = board(&chain.state).expect("a scenario");
        if let Some(other) = crowded(&after, seat).filter(|_| !can_leave(&after, seat)) {
            return refuse(
                "crowded",
                format!(
                    "{} shares {} with {}: it keeps the points to step out again",
                    state.seat_name(seat),
                    after.field.piece(seat).at,
                    state.seat_name(other)
                ),
            );
        }
    }
    // Entering an opponent's battle zone, not by its undefended space, lets
    // it halt the mover (if it still can).
    let b = board(&chain.state).expect("a scenario");
    let p = b.field.piece(seat);
    if p.points > 0 && b.conscious[seat as usize] {
        let by: Vec<Seat> = b
            .zone_foes(seat)
            .into_iter()
            .filter(|o| !before.contains(o))
            .filter(|&o| {
                let q = b.field.piece(o);
                q.position != Position::Down && !q.done.halted_one && q.undefended != Some(p.at)
            })
            .collect();
        if !by.is_empty() {
            chain.push(Fact::HaltOffered { mover: seat, by });
        }
    }
    Ok(chain.facts)
}

/// Airi or a Wraith regenerating: it leaves the board as its move, or out
/// of turn before anyone has stepped this movement phase (the rule text
/// takes it off as the phase begins).
fn dematerialize(state: &State, seat: Seat) -> Result<Vec<Fact>, Rejection> {
    let b = board(state).expect("a scenario");
    let field = b.field;
    let name = state.seat_name(seat);
    let p = field.piece(seat);
    let begun = field
        .pieces
        .iter()
        .any(|q| q.done.moved && !q.done.dematerialized);
    let own_move = field.mover() == Some(seat) && p.points == p.allowance && !p.done.moved;
    if field.stage != Stage::Movement || !(own_move || (!begun && field.mover().is_some())) {
        return refuse(
            "regenerate",
            format!("{name} leaves for another plane as the movement phase begins, or as its whole move"),
        );
    }
    if p.done.dematerialized || p.done.halted_one {
        return refuse("regenerate", format!("{name} cannot go now"));
    }
    if !b.conscious[seat as usize] {
        return refuse("unconscious", format!("{name} is unconscious"));
    }
    if !b.zone_foes(seat).is_empty() {
        return refuse(
            "regenerate",
            format!("{name} is in an opponent's battle zone"),
        );
    }
    let mut chain = Chain::new(state);
    chain.push(Fact::Dematerialized { seat });
    if chain.field().mover().is_none() {
        after_movement(&mut chain)?;
    }
    Ok(chain.facts)
}

fn halt(state: &State, seat: Seat, action: &Action) -> Result<Vec<Fact>, Rejection> {
    let field = state.field.as_deref().expect("a scenario");
    let Some(offer) = field.offer.as_ref().filter(|o| o.by.contains(&seat)) else {
        return refuse(
            "halt",
            format!(
                "{} has no one to halt now: a halt answers a mover entering the battle zone",
                state.seat_name(seat)
            ),
        );
    };
    Ok(vec![match action {
        Action::Halt { .. } => Fact::Halted {
            seat,
            mover: offer.mover,
        },
        _ => Fact::LetPass { seat },
    }])
}

fn end_move(state: &State, seat: Seat, undefended: &str) -> Result<Vec<Fact>, Rejection> {
    let b = board(state).expect("a scenario");
    let p = b.field.piece(seat);
    let around: Vec<Hex> = b.neighbours(p.at).into_iter().flatten().collect();
    let named = match undefended.trim().parse::<usize>() {
        Ok(n @ 1..=6) => b.neighbours(p.at)[n - 1],
        _ => Hex::parse(undefended),
    };
    let Some(undefended) = named.filter(|h| around.contains(h)) else {
        return refuse(
            "undefended",
            format!(
                "`undefended`: name a space beside {} (any of {}), or its number 1-6 clockwise from the east",
                p.at,
                hexes(&around)
            ),
        );
    };
    // Sharing a space is refused while the mover can still step out (a
    // halt can leave it stranded in a friend's space).
    if can_leave(&b, seat) {
        if let Some(other) = crowded(&b, seat) {
            return refuse(
                "crowded",
                format!(
                    "{} shares {} with {}: a move ends with one conscious figure a space",
                    state.seat_name(seat),
                    p.at,
                    state.seat_name(other)
                ),
            );
        }
    }
    let mut chain = Chain::new(state);
    chain.push(Fact::MoveEnded { seat, undefended });
    if chain.field().mover().is_none() {
        after_movement(&mut chain)?;
    }
    Ok(chain.facts)
}

/// Another conscious figure on the space of `seat`, itself conscious.
fn crowded(b: &Board<'_>, seat: Seat) -> Option<Seat> {
    let at = b.field.piece(seat).at;
    if !b.conscious[seat as usize] {
        return None;
    }
    (0..b.field.pieces.len() as Seat)
        .find(|&o| o != seat && b.conscious[o as usize] && b.field.piece(o).at == at)
}

/// Whether `seat` has the points to step out of its space now.
fn can_leave(b: &Board<'_>, seat: Seat) -> bool {
    let p = b.field.piece(seat);
    exit_cost(b, seat, p.at).is_some_and(|c| c <= p.points)
}
