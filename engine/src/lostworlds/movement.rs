//! The movement phase of a scenario: the movement chart's entries, halting,
//! and the end of each figure's move with its undefended space.

use tabletape_events::{DiceMode, Seat};

use super::actions::{Action, Condition, Deed, Fact, FallRoll, Landing};
use super::decide::acting_seat;
use super::field::{Board, Position, Stage};
use super::scenario::{Ground, Hex};
use super::state::State;
use super::tables::{self, cost, Footing};
use super::turn::{self, board, Chain};
use crate::chance::Chance;
use crate::error::{reject, Rejection};
use crate::rules::Legal;

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
        | Place { seat, .. } => *seat,
        _ => None,
    }
}

/// Decides a scenario action outside the combat phase.
pub fn decide(
    state: &State,
    by: Option<Seat>,
    action: &Action,
    chance: &mut Chance,
) -> Result<Vec<Fact>, Rejection> {
    let field = state.field.as_deref().expect("a scenario");
    if field.stage == Stage::Ended {
        return reject("lostworlds.phase", "the scenario is over");
    }
    if let Action::Roll { dice } = action {
        if field.offer.is_some() || !field.placing.is_empty() {
            return refuse("waiting", turn::stage_words(state));
        }
        return turn::roll(state, dice, chance);
    }
    let seat = acting_seat(state, by, actor(action))?;
    match action {
        Action::Halt { .. } | Action::LetPass { .. } => return halt(state, seat, action),
        Action::Place { to, .. } => return place(state, seat, to),
        _ => {}
    }
    if field.offer.is_some() || !field.placing.is_empty() {
        return refuse("waiting", turn::stage_words(state));
    }
    if matches!(action, Action::Regenerate { .. })
        && state.seat(seat).fighter().sheet.dematerializes
    {
        return dematerialize(state, seat);
    }
    if field.mover() != Some(seat) {
        return refuse("turn", turn::stage_words(state));
    }
    if let Action::EndMove { undefended, .. } = action {
        return end_move(state, seat, undefended);
    }
    let (cost, deed) = deed(state, seat, action, chance)?;
    let mut chain = Chain::new(state);
    let b = board(state).expect("a scenario");
    let before = b.zone_foes(seat);
    chain.push(Fact::Stepped { seat, cost, deed });
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
        turn::after_movement(&mut chain)?;
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

fn place(state: &State, seat: Seat, to: &str) -> Result<Vec<Fact>, Rejection> {
    let field = state.field.as_deref().expect("a scenario");
    let Some(p) = field.placing.first() else {
        return refuse("place", "no fallen figure waits to be set down");
    };
    if p.by != seat {
        return refuse(
            "place",
            format!(
                "{} sets down the fallen {}",
                state.seat_name(p.by),
                state.seat_name(p.seat)
            ),
        );
    }
    let b = board(state).expect("a scenario");
    let to = space(&b, "to", to)?;
    let spaces = turn::landing_spaces(state, p);
    if !spaces.contains(&to) {
        let rule = if p.touched {
            "is moved off to a space beside"
        } else {
            "falls to a space beside"
        };
        let levels = if p.touched {
            "a level up at most"
        } else {
            "on its level or lower"
        };
        return refuse(
            "place",
            format!(
                "{} {rule} {}, {levels}, with no one standing in it: {}",
                state.seat_name(p.seat),
                p.from,
                hexes(&spaces)
            ),
        );
    }
    let levels = (level_of(&b, p.from) - level_of(&b, to)).max(0) as u32;
    let mut chain = Chain::new(state);
    if p.touched {
        let fell = levels >= 2;
        let damage = if fell { levels as i32 } else { 0 };
        let (body, condition) = hurt(state, p.seat, damage);
        chain.push(Fact::Displaced {
            seat: p.seat,
            by: seat,
            to,
            levels,
            fell,
            damage,
            body,
            condition,
        });
    } else {
        let damage = if levels == 0 {
            same_level_fall(state, p.seat)
        } else {
            levels as i32
        };
        let (body, condition) = hurt(state, p.seat, damage);
        chain.push(Fact::FallenPlaced {
            seat: p.seat,
            by: seat,
            to,
            levels,
            damage,
            body,
            condition,
        });
    }
    // Once every one is set down: a fall in the falls check ends the turn;
    // the touched moved off, the movement phase goes on to its combat; a
    // shove's fall lets the move go on.
    if chain.field().placing.is_empty() {
        match chain.field().stage {
            Stage::Falls => turn::end_turn(&mut chain)?,
            Stage::Combat => turn::begin_combat(&mut chain)?,
            _ => {}
        }
    }
    Ok(chain.facts)
}

/// A fall onto the same level hurts by the score on page 41 of the
/// faller's book (none in record mode or when the page shows none).
fn same_level_fall(state: &State, seat: Seat) -> i32 {
    state
        .books
        .get(&state.seat(seat).fighter().sheet.id)
        .and_then(|b| b.pictures.get(&41))
        .and_then(|p| p.score)
        .unwrap_or(0)
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
    let can_leave = exit_cost(&b, seat, p.at).is_some_and(|c| c <= p.points);
    if b.conscious[seat as usize] && can_leave {
        if let Some(other) = (0..state.seats.len() as Seat)
            .find(|&o| o != seat && b.conscious[o as usize] && b.field.piece(o).at == p.at)
        {
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
        turn::after_movement(&mut chain)?;
    }
    Ok(chain.facts)
}

/// The cost and outcome of one movement chart entry.
fn deed(
    state: &State,
    seat: Seat,
    action: &Action,
    chance: &mut Chance,
) -> Result<(u32, Deed), Rejection> {
    let b = board(state).expect("a scenario");
    let field = b.field;
    let p = field.piece(seat);
    let name = state.seat_name(seat);
    let starred = matches!(
        action,
        Action::Block { .. }
            | Action::Crawl { .. }
            | Action::StandUp { .. }
            | Action::RegainBalance { .. }
            | Action::PickUp { .. }
            | Action::Throw { .. }
            | Action::ThrowWeapon { .. }
            | Action::Examine { .. }
            | Action::Slay { .. }
    );
    if starred && p.done.ran {
        return refuse(
            "running",
            format!("{name} ran this turn: this is not done on a run"),
        );
    }
    if p.done.blocked && !matches!(action, Action::RegainBalance { .. }) {
        return refuse(
            "blocked",
            format!("{name} is blocked this turn: regaining balance is all it may do"),
        );
    }
    if !b.conscious[seat as usize] {
        return refuse("unconscious", format!("{name} is unconscious"));
    }
    let opponent = |target: Seat, adjacent: bool| -> Result<(), Rejection> {
        if target as usize >= state.seats.len() || !field.opposed(seat, target) {
            return refuse("target", format!("seat {target} is no opponent of {name}"));
        }
        if adjacent && !b.adjacent(p.at, field.piece(target).at) {
            return refuse(
                "target",
                format!("{} is not beside {name}", state.seat_name(target)),
            );
        }
        Ok(())
    };
    let from = p.at;
    let (cost, deed) = match action {
        Action::Move { to, .. } | Action::Crawl { to, .. } => {
            let to = space(&b, "to", to)?;
            let crawling = matches!(action, Action::Crawl { .. });
            if crawling != (p.position == Position::Down) {
                return refuse(
                    "position",
                    if crawling {
                        format!("{name} is on its feet: `move`, or `fall_prone` first")
                    } else {
                        format!("{name} is down: `crawl`, or `stand_up` first")
                    },
                );
            }
            enterable(&b, seat, from, to)?;
            let climb = (level_of(&b, to) - level_of(&b, from))
                .unsigned_abs()
                .max(1);
            if crawling {
                (cost::CRAWL * climb, Deed::Crawled { from, to })
            } else {
                (cost::MOVE * climb, Deed::Moved { from, to })
            }
        }
        Action::Run { .. } => {
            if p.done.ran || p.ran_before {
                return refuse(
                    "running",
                    format!("{name} ran last turn: running is never done twice in a row"),
                );
            }
            if p.done.starred {
                return refuse(
                    "running",
                    format!("{name} did something this turn that is not done on a run"),
                );
            }
            if p.position == Position::Down || p.done.halted {
                return refuse("running", format!("{name} cannot run now"));
            }
            (0, Deed::Ran)
        }
        Action::JumpDown { to, roll, .. } => {
            let to = space(&b, "to", to)?;
            if !b.adjacent(from, to) || !b.open(to) || level_of(&b, to) >= level_of(&b, from) {
                return refuse(
                    "jump_down",
                    format!("a reckless jump goes down into a lower space beside {name}"),
                );
            }
            if b.figure_at(to).is_some() {
                return refuse(
                    "jump_down",
                    format!("someone stands on {to}: `jump_onto` them instead"),
                );
            }
            on_feet(&name, p.position)?;
            affordable(&name, p.points, cost::RECKLESS_JUMP)?;
            let roll = chance.roll("reckless jump", 6, "roll", *roll)?;
            let (position, hurt) = tables::reckless_landing(roll);
            let levels = level_of(&b, from) - level_of(&b, to);
            (
                cost::RECKLESS_JUMP,
                Deed::JumpedDown {
                    from,
                    to,
                    roll,
                    position,
                    damage: if hurt { levels } else { 0 },
                },
            )
        }
        Action::JumpOnto {
            target, land, roll, ..
        } => {
            opponent(*target, true)?;
            let t = field.piece(*target);
            if !b.conscious[*target as usize] {
                return refuse("jump_onto", "jump onto a conscious opponent");
            }
            if level_of(&b, from) < level_of(&b, t.at) + 1 {
                return refuse(
                    "jump_onto",
                    format!(
                        "{name} must start at least a level above {}",
                        state.seat_name(*target)
                    ),
                );
            }
            let land = space(&b, "land", land)?;
            let ok = b.adjacent(land, t.at)
                && b.open(land)
                && land != from
                && level_of(&b, land) <= level_of(&b, t.at)
                && b.figure_at(land).is_none();
            if !ok {
                return refuse(
                    "jump_onto",
                    format!(
                        "`land`: {name} ends beside {} on its level or lower, in a space no one stands in",
                        state.seat_name(*target)
                    ),
                );
            }
            on_feet(&name, p.position)?;
            affordable(&name, p.points, cost::POUNCE)?;
            let roll = chance.roll("jump onto an opponent", 6, "roll", *roll)?;
            let result = tables::pounce(roll);
            let damage = match result {
                tables::Pounce::Flattened => tables::POUNCE_DAMAGE,
                tables::Pounce::Missed => level_of(&b, from) - level_of(&b, land),
                _ => 0,
            };
            (
                cost::POUNCE,
                Deed::JumpedOnto {
                    target: *target,
                    from,
                    land,
                    roll,
                    result,
                    damage,
                },
            )
        }
        Action::JumpOver { to, .. } => {
            let to = space(&b, "to", to)?;
            if !p.done.ran || p.done.entered < 2 {
                return refuse(
                    "jump_over",
                    format!("a jump over a space comes on a run, after entering two spaces ({name} has entered {})", p.done.entered),
                );
            }
            let Some(dir) = (0..6).find(|&d| b.ray(from, d, 2) == Some(to)) else {
                return refuse(
                    "jump_over",
                    format!("{to} is not two spaces from {from} in a straight line"),
                );
            };
            let over = b.ray(from, dir, 1).expect("the ray reached two spaces");
            let (start, end) = (level_of(&b, from), level_of(&b, to));
            if !b.open(to) || b.figure_at(to).is_some() || end > start + 1 {
                return refuse(
                    "jump_over",
                    format!("{name} lands on an open space no higher than a level above, with no one in it"),
                );
            }
            let top = match b.terrain.at(over) {
                Some(Ground::Wall | Ground::Pillar) | None => i32::MAX,
                Some(g) => {
                    let level = i32::from(g.level().unwrap_or(0));
                    level
                        + field
                            .things_at(over)
                            .map(|t| object_height(field.kind_of(t).tall))
                            .max()
                            .unwrap_or(0)
                }
            };
            if top > start.min(end) {
                return refuse(
                    "jump_over",
                    format!(
                        "what stands on {over} is higher than where {name} jumps from or lands"
                    ),
                );
            }
            affordable(&name, p.points, cost::JUMP_OVER)?;
            (cost::JUMP_OVER, Deed::JumpedOver { from, over, to })
        }
        Action::Block { target, .. } => {
            opponent(*target, true)?;
            on_feet(&name, p.position)?;
            let yet_to_move = field.order[field.moved..].contains(target);
            if !yet_to_move {
                return refuse(
                    "block",
                    format!("{} has already moved this turn", state.seat_name(*target)),
                );
            }
            (cost::BLOCK, Deed::Blocked { target: *target })
        }
        Action::FallProne { .. } => {
            if p.position == Position::Down {
                return refuse("position", format!("{name} is down already"));
            }
            (0, Deed::FellProne)
        }
        Action::StandUp { .. } => {
            if p.position != Position::Down {
                return refuse("position", format!("{name} is not down"));
            }
            (cost::STAND_UP, Deed::StoodUp)
        }
        Action::RegainBalance { .. } => {
            if p.position != Position::OffBalance {
                return refuse("position", format!("{name} is not off balance"));
            }
            (cost::REGAIN_BALANCE, Deed::RegainedBalance)
        }
        Action::PickUp { object, .. } if field.thing(object).is_none() => {
            let Some(body) = body_named(state, object) else {
                field_object(state, object)?;
                unreachable!("no such object was refused")
            };
            let them = state.seat_name(body);
            if b.conscious[body as usize] {
                return refuse(
                    "pick_up",
                    format!("{them} is conscious: only the unconscious and the dead are carried"),
                );
            }
            if field.piece(body).at != from || field.borne_by(body).is_some() {
                return refuse(
                    "pick_up",
                    format!("{them} does not lie on {name}'s space ({from})"),
                );
            }
            load_free(state, seat)?;
            let weight = b.heights[body as usize];
            if weight > b.heights[seat as usize] {
                return refuse(
                    "pick_up",
                    format!("{them} weighs {weight} (a body weighs its height), more than {name}'s height"),
                );
            }
            (cost::PICK_UP, Deed::LiftedBody { body })
        }
        Action::PickUp { object, .. } => {
            let t = field_object(state, object)?;
            if t.at != from || t.carried_by.is_some() {
                return refuse(
                    "pick_up",
                    format!("the {} is not on {name}'s space ({from})", t.id),
                );
            }
            if t.owner == Some(seat) {
                // Its own weapon goes back in hand, not on its back.
                return Ok((
                    cost::PICK_UP,
                    Deed::PickedUp {
                        object: t.id.clone(),
                    },
                ));
            }
            load_free(state, seat)?;
            let weight = i32::from(field.kind_of(t).weight);
            if weight > b.heights[seat as usize] {
                return refuse(
                    "pick_up",
                    format!("the {} weighs {weight}, more than {name}'s height", t.id),
                );
            }
            (
                cost::PICK_UP,
                Deed::PickedUp {
                    object: t.id.clone(),
                },
            )
        }
        Action::Drop { at, .. } => {
            if p.carrying.is_none() && p.bearing.is_none() {
                return refuse("drop", format!("{name} carries nothing"));
            }
            let at = match at {
                Some(at) => space(&b, "at", at)?,
                None => from,
            };
            if !(at == from || b.adjacent(from, at)) || !b.open(at) {
                return refuse(
                    "drop",
                    format!("`at`: {name} puts it down on its own space or an open one beside it"),
                );
            }
            match (&p.carrying, p.bearing) {
                (Some(object), _) => (
                    0,
                    Deed::Dropped {
                        object: object.clone(),
                        at,
                    },
                ),
                (None, Some(body)) => (0, Deed::LaidDown { body, at }),
                (None, None) => unreachable!("a load was found above"),
            }
        }
        Action::Throw {
            at, roll, scatter, ..
        } => {
            let (kind, object) = match (&p.carrying, p.bearing) {
                (Some(object), _) => (
                    field.kind_of(field.thing(object).expect("carried")),
                    object.clone(),
                ),
                (None, Some(body)) => (
                    super::scenario::ObjectKind::body(b.heights[body as usize]),
                    state.seat_name(body),
                ),
                (None, None) => {
                    return refuse("throw", format!("{name} carries nothing: `pick_up` first"))
                }
            };
            let target = space(&b, "at", at)?;
            let range = b.distance(from, target);
            let (lt, lf) = (level_of(&b, target), level_of(&b, from));
            let reach = i32::from(kind.range).min(b.heights[seat as usize])
                + match lt.cmp(&lf) {
                    std::cmp::Ordering::Less => 1,
                    std::cmp::Ordering::Greater => -1,
                    std::cmp::Ordering::Equal => 0,
                };
            if range == 0 || range as i32 > reach || !b.open(target) {
                return refuse(
                    "throw",
                    format!(
                        "`at`: {name} throws the {object} at an open space 1 to {} away ({target} is {range})",
                        reach.max(0)
                    ),
                );
            }
            affordable(&name, p.points, cost::THROW)?;
            chance.check_supplied("scatter die", "scatter", scatter)?;
            let roll = chance.roll("throw", 6, "roll", *roll)?;
            let (at, scatter) = if tables::throw_lands(range, roll) {
                (target, None)
            } else {
                let die = chance.roll("scatter", 6, "scatter", *scatter)?;
                let level = level_of(&b, target);
                let spot = b.neighbours(target)[die as usize - 1]
                    .filter(|&h| b.open(h) && level_of(&b, h) <= level)
                    .unwrap_or(target);
                (spot, Some(die))
            };
            let struck = (0..state.seats.len() as Seat)
                .find(|&s| s != seat && field.piece(s).at == at && b.conscious[s as usize]);
            let landing = Landing {
                roll,
                scatter,
                at,
                struck,
                damage: if struck.is_some() {
                    i32::from(kind.weight)
                } else {
                    0
                },
            };
            let deed = match p.bearing {
                Some(body) if p.carrying.is_none() => Deed::ThrewBody {
                    body,
                    target,
                    landing,
                },
                _ => Deed::Threw {
                    object,
                    target,
                    landing,
                },
            };
            (cost::THROW, deed)
        }
        Action::ThrowWeapon { target, roll, .. } => {
            opponent(*target, false)?;
            let sheet = &state.seat(seat).fighter().sheet;
            let Some(weapon) = sheet.thrown_weapon.clone() else {
                return refuse("throw_weapon", format!("{name} has no throwing weapon"));
            };
            if state.seat(seat).orders.disarmed() {
                return refuse("throw_weapon", format!("{name} has lost the weapon"));
            }
            on_feet(&name, p.position)?;
            if !b.conscious[*target as usize] {
                return refuse("throw_weapon", "throw at a conscious opponent");
            }
            let to = field.piece(*target).at;
            let range = b.distance(from, to);
            let downhill = u32::from(level_of(&b, to) < level_of(&b, from));
            let reach = b.heights[seat as usize].max(0) as u32 + tables::WEAPON_REACH + downhill;
            if range > reach {
                return refuse(
                    "throw_weapon",
                    format!(
                        "{} is {range} spaces away; {name} throws the {weapon} {reach} at most",
                        state.seat_name(*target)
                    ),
                );
            }
            affordable(&name, p.points, cost::THROW)?;
            let roll = chance.roll("weapon throw", 6, "roll", *roll)?;
            let hit = tables::throw_lands(range, roll);
            let effective = tables::weapon_range(&weapon).unwrap_or(0);
            // The score on page 19 of the target's book, the thrower's
            // extended range modifier, less a point a space beyond range.
            let score = state
                .books
                .get(&state.seat(*target).fighter().sheet.id)
                .and_then(|bk| bk.pictures.get(&19))
                .and_then(|p| p.score)
                .unwrap_or(0);
            let damage = if hit {
                (score + sheet.extended_range_damage - range.saturating_sub(effective) as i32)
                    .max(0)
            } else {
                0
            };
            (
                cost::THROW,
                Deed::ThrewWeapon {
                    weapon: format!("{}-{seat}", weapon.replace(' ', "-")),
                    target: *target,
                    at: to,
                    range,
                    roll,
                    hit,
                    damage,
                },
            )
        }
        Action::Examine { object, .. } => {
            let t = field_object(state, object)?;
            if t.at != from || t.carried_by.is_some() {
                return refuse(
                    "examine",
                    format!("the {} is not on {name}'s space ({from})", t.id),
                );
            }
            let found = field
                .scenario
                .objects
                .iter()
                .find(|o| o.id == t.id)
                .map(|o| o.found.clone())
                .unwrap_or_default();
            (
                cost::EXAMINE,
                Deed::Examined {
                    object: t.id.clone(),
                    found,
                },
            )
        }
        Action::ShoveObject { object, to, .. } => {
            let t = field_object(state, object)?;
            let to = space(&b, "to", to)?;
            if t.carried_by.is_some() || !(t.at == from || b.adjacent(from, t.at)) {
                return refuse(
                    "shove_object",
                    format!("the {} is not on or beside {name}'s space", t.id),
                );
            }
            let ok = b.adjacent(t.at, to)
                && b.open(to)
                && level_of(&b, to) <= level_of(&b, t.at)
                && b.figure_at(to).is_none();
            if !ok {
                return refuse(
                    "shove_object",
                    format!(
                        "`to`: the {} slides one space on, to one no higher and with no one in it",
                        t.id
                    ),
                );
            }
            (
                cost::SHOVE_OBJECT,
                Deed::ShovedObject {
                    object: t.id.clone(),
                    from: t.at,
                    to,
                },
            )
        }
        Action::Shove {
            target, hard, roll, ..
        } => {
            opponent(*target, true)?;
            if !b.conscious[*target as usize] {
                return refuse("shove", "shove a conscious opponent");
            }
            on_feet(&name, p.position)?;
            let spend = cost::SHOVE + if *hard { cost::SHOVE_HARD } else { 0 };
            affordable(&name, p.points, spend)?;
            let face = chance.roll("falling down roll of the shoved", 6, "roll", *roll)?;
            let bonus = tables::footing_bonus(field.piece(*target).position) + u32::from(*hard);
            let footing = tables::footing(face + bonus);
            (
                spend,
                Deed::Shoved {
                    target: *target,
                    hard: *hard,
                    roll: FallRoll {
                        seat: *target,
                        roll: face,
                        bonus,
                        footing,
                        placer: (footing == Footing::Fall).then_some(seat),
                    },
                },
            )
        }
        Action::Slay { target, .. } => {
            opponent(*target, false)?;
            let t = state.seat(*target).fighter();
            if t.condition != Condition::Unconscious || field.piece(*target).at != from {
                return refuse(
                    "slay",
                    format!("{name} slays an unconscious opponent on its own space only",),
                );
            }
            whole_move(&name, p, "slay", "slaying")?;
            (p.points, Deed::Slew { target: *target })
        }
        Action::Cast {
            card, target, roll, ..
        } => {
            if p.position != Position::Standing {
                return refuse(
                    "cast",
                    format!("{name} is {}: no spell is cast so", p.position.words()),
                );
            }
            if !b.zone_foes(seat).is_empty() {
                return refuse(
                    "cast",
                    format!("{name} is in an opponent's battle zone: spells there are cast in the fight"),
                );
            }
            whole_move(&name, p, "cast", "casting")?;
            let fighter = state.seat(seat).fighter();
            let Some(c) = super::cards::card(state, card)
                .filter(|c| fighter.cards.iter().any(|h| h.id == c.id && !h.played))
            else {
                return refuse("cast", format!("{name} holds no unplayed card `{card}`"));
            };
            if c.kind != super::content::CardKind::Spell
                || (c.effect.strike <= 0 && c.effect.heal <= 0)
            {
                return refuse(
                    "cast",
                    format!("the {} is no spell that strikes or heals", c.name),
                );
            }
            let (target, range) = if c.effect.strike > 0 {
                let Some(t) = *target else {
                    return refuse(
                        "cast",
                        format!("`target`: whom does the {} fly at?", c.name),
                    );
                };
                opponent(t, false)?;
                if !b.conscious[t as usize] {
                    return refuse("cast", "cast at a conscious opponent");
                }
                (Some(t), b.distance(from, field.piece(t).at))
            } else {
                (None, 0)
            };
            let spare = spare_spell_points(state, seat);
            let (extra, works_to) = tables::spell_range(range);
            if spare < extra {
                return refuse(
                    "cast",
                    format!(
                        "at {range} spaces the {} needs {extra} spell points beyond those spent; {name} has {spare}",
                        c.name,
                    ),
                );
            }
            let roll = chance.roll("spell cast beyond extended range", 6, "roll", *roll)?;
            let works = roll <= works_to;
            (
                p.points,
                Deed::Cast {
                    card: c.id.clone(),
                    name: c.name.clone(),
                    target,
                    range,
                    extra,
                    roll,
                    works,
                    damage: if works { c.effect.strike } else { 0 },
                    heal: if works { c.effect.heal } else { 0 },
                },
            )
        }
        Action::Regenerate { .. } => {
            let sheet = &state.seat(seat).fighter().sheet;
            if sheet.regeneration == 0 && sheet.spell_regeneration == 0 {
                return refuse("regenerate", format!("{name}'s book shows no regeneration"));
            }
            if !b.zone_foes(seat).is_empty() {
                return refuse(
                    "regenerate",
                    format!("{name} is in an opponent's battle zone"),
                );
            }
            whole_move(&name, p, "regenerate", "regenerating")?;
            (p.points, Deed::Regenerates)
        }
        Action::BreakOff { to, .. } => {
            let to = space(&b, "to", to)?;
            if b.zone_foes(seat).is_empty() {
                return refuse(
                    "break_off",
                    format!("{name} is in no opponent's battle zone: just `move`"),
                );
            }
            if p.done.halted {
                return refuse("break_off", format!("{name} was halted"));
            }
            enterable(&b, seat, from, to)?;
            if (level_of(&b, to) - level_of(&b, from)).abs() > 1 {
                return refuse(
                    "break_off",
                    format!("{name} breaks off to a space within one level"),
                );
            }
            if b.figure_at(to).is_some() {
                return refuse("break_off", format!("someone stands on {to}"));
            }
            // The step must leave every battle zone.
            let mut moved = b.field.clone();
            moved.pieces[seat as usize].at = to;
            let after = Board {
                field: &moved,
                terrain: b.terrain.clone(),
                heights: b.heights.clone(),
                conscious: b.conscious.clone(),
            };
            if !after.zone_foes(seat).is_empty() {
                return refuse(
                    "break_off",
                    format!("{to} is still in an opponent's battle zone"),
                );
            }
            (0, Deed::BrokeOff { from, to })
        }
        _ => unreachable!("only movement chart actions reach `deed`"),
    };
    affordable(&name, p.points, cost)?;
    Ok((cost, deed))
}

/// Spell points a figure has beyond those its spell cards cost and those
/// it spent casting beyond extended range.
pub fn spare_spell_points(state: &State, seat: Seat) -> u32 {
    let fighter = state.seat(seat).fighter();
    let spell = fighter.sheet.abilities.get("spell").copied().unwrap_or(0);
    let cards: u32 = fighter
        .cards
        .iter()
        .filter_map(|h| state.cards.get(&h.id))
        .filter(|k| k.kind == super::content::CardKind::Spell)
        .map(|k| k.points)
        .sum();
    let spent = state
        .field
        .as_ref()
        .map_or(0, |f| f.piece(seat).spell_spent);
    spell.saturating_sub(cards).saturating_sub(spent)
}

/// An object's height for jumping over it: a tall one stands two levels.
pub fn object_height(tall: bool) -> i32 {
    if tall {
        2
    } else {
        1
    }
}

/// The figure a name means, for picking up its body: its character's
/// name or id, its player, or the two as narration writes them.
fn body_named(state: &State, name: &str) -> Option<Seat> {
    let name = name.trim();
    (0..state.seats.len() as Seat).find(|&s| {
        let st = state.seat(s);
        let sheet = &st.fighter().sheet;
        [
            state.seat_name(s).as_str(),
            sheet.name.as_str(),
            sheet.id.as_str(),
            st.player.as_str(),
        ]
        .iter()
        .any(|n| n.eq_ignore_ascii_case(name))
    })
}

/// A figure carries one large object (or body) at a time.
fn load_free(state: &State, seat: Seat) -> Result<(), Rejection> {
    let field = state.field.as_deref().expect("a scenario");
    let p = field.piece(seat);
    let held = match (&p.carrying, p.bearing) {
        (Some(c), _) => format!("the {c}"),
        (None, Some(body)) => state.seat_name(body),
        (None, None) => return Ok(()),
    };
    refuse(
        "pick_up",
        format!(
            "{} carries {held} already: one large object at a time",
            state.seat_name(seat)
        ),
    )
}

fn field_object<'a>(state: &'a State, name: &str) -> Result<&'a super::field::Thing, Rejection> {
    let field = state.field.as_deref().expect("a scenario");
    field.thing(name).ok_or_else(|| {
        let ids: Vec<&str> = field.things.iter().map(|t| t.id.as_str()).collect();
        Rejection::new(
            "lostworlds.movement.object",
            format!("no object `{name}` on the map: {}", ids.join(", ")),
        )
    })
}

fn affordable(name: &str, points: u32, cost: u32) -> Result<(), Rejection> {
    if cost > points {
        return refuse(
            "points",
            format!("{name} has {points} movement points left; this costs {cost}"),
        );
    }
    Ok(())
}

/// Slaying, casting and regenerating take the whole move, untouched.
fn whole_move(
    name: &str,
    p: &super::field::Piece,
    rule: &str,
    deed: &str,
) -> Result<(), Rejection> {
    if p.points < p.allowance || p.points == 0 {
        return refuse(rule, format!("{deed} takes {name}'s whole move, untouched"));
    }
    Ok(())
}

/// On its feet: standing or off balance, not down.
fn on_feet(name: &str, position: Position) -> Result<(), Rejection> {
    if position == Position::Down {
        return refuse("position", format!("{name} is down: `stand_up` first"));
    }
    Ok(())
}

/// The cheapest step out of `at` into a space no conscious figure holds
/// (crawling when down), if there is one.
fn exit_cost(b: &Board<'_>, seat: Seat, at: Hex) -> Option<u32> {
    let p = b.field.piece(seat);
    let crawl = p.position == Position::Down;
    // Crawling is not done on a run; a blocked figure does not move.
    if (crawl && p.done.ran) || p.done.blocked {
        return None;
    }
    b.neighbours(at)
        .into_iter()
        .flatten()
        .filter(|&h| b.open(h) && b.figure_at(h).is_none())
        .map(|h| {
            let climb = (level_of(b, h) - level_of(b, at)).unsigned_abs().max(1);
            if crawl {
                cost::CRAWL * climb
            } else {
                cost::MOVE * climb
            }
        })
        .min()
}

/// Whether a figure may step from `from` into the adjacent `to`: an open
/// space with no opponent in it, and no friend fighting there either.
fn enterable(b: &Board<'_>, seat: Seat, from: Hex, to: Hex) -> Result<(), Rejection> {
    if !b.adjacent(from, to) {
        return refuse("step", format!("{to} is not beside {from}"));
    }
    if !b.open(to) {
        return refuse("step", format!("{to} is a wall or pillar"));
    }
    if let Some(o) = b.figure_at(to) {
        if b.field.opposed(seat, o) {
            return refuse("step", format!("an opponent stands on {to}"));
        }
        if !b.zone_foes(o).is_empty() {
            return refuse(
                "step",
                format!("a friend on {to} is in an opponent's battle zone: no passing through"),
            );
        }
        // Passing through: there must be points left to step out again.
        let p = b.field.piece(seat);
        let climb = (level_of(b, to) - level_of(b, from)).unsigned_abs().max(1);
        let step = if p.position == Position::Down {
            cost::CRAWL * climb
        } else {
            cost::MOVE * climb
        };
        let left = p.points.saturating_sub(step);
        if exit_cost(b, seat, to).is_none_or(|c| c > left) {
            return refuse(
                "step",
                format!("a friend stands on {to}, and the move would end there: pass through only with points to step out"),
            );
        }
    }
    Ok(())
}

/// Who the scenario waits on outside the combat phase.
pub fn to_move(state: &State) -> Vec<Seat> {
    let Some(field) = state.field.as_deref() else {
        return Vec::new();
    };
    if let Some(o) = &field.offer {
        return o.by.clone();
    }
    if let Some(p) = field.placing.first() {
        return vec![p.by];
    }
    match field.mover() {
        Some(m) => vec![m],
        None => turn::rollers(state),
    }
}

/// Every scenario action open outside the combat phase. Each candidate is
/// tried against `decide` (with throwaway dice: whether an action is open
/// never depends on what the dice will show), so `legal` and `decide`
/// cannot disagree.
pub fn legal(state: &State, seat: Option<Seat>) -> Vec<Legal<Action>> {
    let mut out = moves(state, seat);
    let mine = |s: Seat| seat.is_none_or(|x| x == s);
    // Cards are taken in before the first exchange, on the map as in a duel.
    if state.exchanges == 0 && state.rules >= 3 && !state.cards.is_empty() {
        for s in (0..state.seats.len() as Seat).filter(|&s| mine(s)) {
            out.push(super::cards::select_line(state, s));
        }
    }
    out
}

/// What the turn waits for: answers to a halt or a fall, rolls, the move.
fn moves(state: &State, seat: Option<Seat>) -> Vec<Legal<Action>> {
    let Some(field) = state.field.as_deref() else {
        return Vec::new();
    };
    let mine = |s: Seat| seat.is_none_or(|x| x == s);
    let mut out = Vec::new();
    if let Some(o) = &field.offer {
        for &s in o.by.iter().filter(|&&s| mine(s)) {
            out.push(Legal::ready(Action::Halt { seat: Some(s) }));
            out.push(Legal::ready(Action::LetPass { seat: Some(s) }));
        }
        return out;
    }
    if let Some(p) = field.placing.first() {
        if mine(p.by) {
            for h in turn::landing_spaces(state, p) {
                out.push(Legal::ready(Action::Place {
                    seat: Some(p.by),
                    to: h.to_string(),
                }));
            }
        }
        return out;
    }
    let Some(mover) = field.mover() else {
        if seat.is_none_or(|s| turn::rollers(state).contains(&s)) {
            out.extend(turn::legal_roll(state));
        }
        return out;
    };
    // Airi or a Wraith may leave for another plane out of turn.
    for s in (0..state.seats.len() as Seat).filter(|&s| s != mover && mine(s)) {
        if state.seat(s).fighter().sheet.dematerializes && dematerialize(state, s).is_ok() {
            out.push(Legal::ready(Action::Regenerate { seat: Some(s) }));
        }
    }
    if !mine(mover) {
        return out;
    }
    let physical = field.dice == DiceMode::Physical;
    for (action, rolls) in candidates(state, mover) {
        let mut chance = Chance::new(DiceMode::Digital, 0, 0);
        if decide(state, Some(mover), &action, &mut chance).is_ok() {
            out.push(if physical && !rolls.is_empty() {
                Legal::needing(action, rolls)
            } else {
                Legal::ready(action)
            });
        }
    }
    out
}

/// What a mover might do, each with the dice it needs in physical mode.
fn candidates(state: &State, seat: Seat) -> Vec<(Action, Vec<String>)> {
    let b = board(state).expect("a scenario");
    let field = b.field;
    let p = field.piece(seat);
    let s = Some(seat);
    let d6 = |field: &str, what: &str| vec![format!("{field}: the {what} (a d6)")];
    let around: Vec<Hex> = b.neighbours(p.at).into_iter().flatten().collect();
    let opponents: Vec<Seat> = (0..state.seats.len() as Seat)
        .filter(|&o| field.opposed(seat, o))
        .collect();
    let mut out: Vec<(Action, Vec<String>)> = Vec::new();
    for &h in &around {
        let to = h.to_string();
        out.push((
            Action::Move {
                seat: s,
                to: to.clone(),
            },
            vec![],
        ));
        out.push((
            Action::Crawl {
                seat: s,
                to: to.clone(),
            },
            vec![],
        ));
        out.push((
            Action::BreakOff {
                seat: s,
                to: to.clone(),
            },
            vec![],
        ));
        out.push((
            Action::JumpDown {
                seat: s,
                to,
                roll: None,
            },
            d6("roll", "reckless jump"),
        ));
    }
    out.push((Action::Run { seat: s }, vec![]));
    for dir in 0..6 {
        if let Some(h) = b.ray(p.at, dir, 2) {
            out.push((
                Action::JumpOver {
                    seat: s,
                    to: h.to_string(),
                },
                vec![],
            ));
        }
    }
    for &o in &opponents {
        let t = field.piece(o).at;
        for land in b.neighbours(t).into_iter().flatten() {
            out.push((
                Action::JumpOnto {
                    seat: s,
                    target: o,
                    land: land.to_string(),
                    roll: None,
                },
                d6("roll", "jump onto an opponent"),
            ));
        }
        out.push((Action::Block { seat: s, target: o }, vec![]));
        for hard in [false, true] {
            out.push((
                Action::Shove {
                    seat: s,
                    target: o,
                    hard,
                    roll: None,
                },
                d6("roll", "shoved one's falling down roll"),
            ));
        }
        out.push((Action::Slay { seat: s, target: o }, vec![]));
        out.push((
            Action::ThrowWeapon {
                seat: s,
                target: o,
                roll: None,
            },
            d6("roll", "weapon throw"),
        ));
    }
    out.push((Action::FallProne { seat: s }, vec![]));
    out.push((Action::Regenerate { seat: s }, vec![]));
    let mut offered: Vec<&str> = Vec::new();
    for h in state
        .seat(seat)
        .fighter()
        .cards
        .iter()
        .filter(|h| !h.played)
    {
        if offered.contains(&h.id.as_str()) {
            continue;
        }
        offered.push(&h.id);
        let targets: Vec<Option<Seat>> = match state.cards.get(&h.id) {
            Some(c) if c.effect.strike > 0 => opponents.iter().map(|&o| Some(o)).collect(),
            Some(_) => vec![None],
            None => Vec::new(),
        };
        for target in targets {
            out.push((
                Action::Cast {
                    seat: s,
                    card: h.id.clone(),
                    target,
                    roll: None,
                },
                d6("roll", "spell cast beyond extended range"),
            ));
        }
    }
    out.push((Action::StandUp { seat: s }, vec![]));
    out.push((Action::RegainBalance { seat: s }, vec![]));
    for t in field.things.iter().filter(|t| t.carried_by.is_none()) {
        if t.at == p.at {
            out.push((
                Action::PickUp {
                    seat: s,
                    object: t.id.clone(),
                },
                vec![],
            ));
            out.push((
                Action::Examine {
                    seat: s,
                    object: t.id.clone(),
                },
                vec![],
            ));
        }
        if t.at == p.at || around.contains(&t.at) {
            for to in b.neighbours(t.at).into_iter().flatten() {
                out.push((
                    Action::ShoveObject {
                        seat: s,
                        object: t.id.clone(),
                        to: to.to_string(),
                    },
                    vec![],
                ));
            }
        }
    }
    for body in (0..state.seats.len() as Seat).filter(|&o| o != seat && field.piece(o).at == p.at) {
        out.push((
            Action::PickUp {
                seat: s,
                object: state.seat_name(body),
            },
            vec![],
        ));
    }
    if p.carrying.is_some() || p.bearing.is_some() {
        for &h in std::iter::once(&p.at).chain(&around) {
            out.push((
                Action::Drop {
                    seat: s,
                    at: Some(h.to_string()),
                },
                vec![],
            ));
        }
        for r in 0..b.terrain.rows {
            for c in 0..b.terrain.cols {
                let h = Hex {
                    col: c as u8,
                    row: r as u8,
                };
                if b.distance(p.at, h) <= 6 {
                    out.push((
                        Action::Throw {
                            seat: s,
                            at: h.to_string(),
                            roll: None,
                            scatter: None,
                        },
                        vec![
                            "roll: the throw (a d6)".into(),
                            "scatter: a d6 when the throw misses (1-3 hit at one space, 1-2 at two or three, 1 beyond)".into(),
                        ],
                    ));
                }
            }
        }
    }
    for h in around {
        out.push((
            Action::EndMove {
                seat: s,
                undefended: h.to_string(),
            },
            vec![],
        ));
    }
    out
}
