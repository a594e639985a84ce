//! Falls and the fallen set down: who places a figure that fell (or was
//! touched), where it may go, and what the fall costs it.

use super::*;
use crate::lostworlds::field::state::Placing;

pub(super) fn place(
    state: &State,
    seat: Seat,
    to: &str,
    roll: Option<u32>,
    land: Option<&str>,
    chance: &mut Chance,
) -> Result<Vec<Fact>, Rejection> {
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
    let spaces = landing_spaces(state, p);
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
        let anyone = if p.touched || state.rules < 6 {
            ", with no one standing in it"
        } else {
            ""
        };
        return refuse(
            "place",
            format!(
                "{} {rule} {}, {levels}{anyone}: {}",
                state.seat_name(p.seat),
                p.from,
                hexes(&spaces)
            ),
        );
    }
    let levels = (level_of(&b, p.from) - level_of(&b, to)).max(0) as u32;
    let mut chain = Chain::new(state);
    let onto = b.figure_at(to).filter(|&o| o != p.seat);
    if let (Some(onto), false) = (onto, p.touched) {
        // Falling onto a figure is jumping down onto it (the movement
        // chart's move 7): its die decides, and the faller ends beside it.
        let faller = p.seat;
        let land = match land.map(|l| space(&b, "land", l)) {
            Some(l) => l?,
            None => {
                return refuse(
                    "place",
                    format!(
                        "{} falls onto {}: say where it ends (`land`), beside them on their level or lower: {}",
                        state.seat_name(faller),
                        state.seat_name(onto),
                        hexes(&beside(&b, faller, to))
                    ),
                )
            }
        };
        if !beside(&b, faller, to).contains(&land) {
            return refuse(
                "place",
                format!(
                    "`land`: {} ends beside {} on their level or lower, in a space no one stands in: {}",
                    state.seat_name(faller),
                    state.seat_name(onto),
                    hexes(&beside(&b, faller, to))
                ),
            );
        }
        let what = format!("fall onto {}", state.seat_name(onto));
        let roll = chance.roll(&what, 6, "roll", roll)?;
        let result = tables::pounce(roll);
        let levels = (level_of(&b, p.from) - level_of(&b, land)).max(0) as u32;
        let damage = if result == tables::Pounce::Missed {
            levels as i32
        } else {
            0
        };
        let (body, condition) = hurt(state, faller, damage);
        chain.push(Fact::FellOnto {
            seat: faller,
            by: seat,
            onto,
            land,
            roll,
            result,
            damage,
            body,
            condition,
        });
    } else if land.is_some() || roll.is_some() {
        return refuse(
            "place",
            format!("{to} is free: `land` and `roll` are for a fall onto another figure"),
        );
    } else if p.touched {
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
            Stage::Falls => end_turn(&mut chain)?,
            Stage::Combat => begin_combat(&mut chain)?,
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

/// Who sets a fallen figure down: an opponent it fought, else the nearest
/// conscious opponent, else (no opponent standing) its own player.
pub(super) fn placer(state: &State, seat: Seat) -> Seat {
    let field = state.field.as_deref().expect("a scenario");
    if let Some(&f) = field.engaged.get(&seat).and_then(|f| f.first()) {
        return f;
    }
    let Some(b) = board(state) else { return seat };
    let at = field.piece(seat).at;
    (0..state.seats.len() as Seat)
        .filter(|&o| field.opposed(seat, o) && b.conscious[o as usize])
        .min_by_key(|&o| (b.distance(at, field.piece(o).at), o))
        .unwrap_or(seat)
}

/// Where a fallen figure may be set down: a space beside it on its level or
/// lower, with no conscious figure in it. A touched figure is moved to
/// any space beside it a figure could step up to (a level up at most).
pub(super) fn landing_spaces(state: &State, placing: &Placing) -> Vec<Hex> {
    let Some(b) = board(state) else {
        return Vec::new();
    };
    let from = b.field.piece(placing.seat).at;
    let level = b.level(from).unwrap_or(0);
    let highest = if placing.touched { level + 1 } else { level };
    // A fall may come down on a figure (rules 6) where there is room to end
    // beside it; a touched figure is only moved off to a free space.
    let onto_allowed = !placing.touched && state.rules >= 6;
    let spaces: Vec<Hex> = b
        .neighbours(from)
        .into_iter()
        .flatten()
        .filter(|&h| b.level(h).is_some_and(|l| l <= highest))
        .filter(|&h| match b.figure_at(h) {
            None => true,
            Some(_) => onto_allowed && !beside(&b, placing.seat, h).is_empty(),
        })
        .collect();
    // Hemmed in all round: it falls (or stays) where it stands.
    if spaces.is_empty() {
        vec![from]
    } else {
        spaces
    }
}

/// Where a figure that fell onto the one on `at` may end: a free open
/// space beside it, on its level or lower, not where the faller fell from.
pub(super) fn beside(b: &Board<'_>, faller: Seat, at: Hex) -> Vec<Hex> {
    let from = b.field.piece(faller).at;
    let level = level_of(b, at);
    b.neighbours(at)
        .into_iter()
        .flatten()
        .filter(|&h| h != from && b.open(h) && level_of(b, h) <= level)
        .filter(|&h| b.figure_at(h).is_none())
        .collect()
}
