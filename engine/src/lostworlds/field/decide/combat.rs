//! A scenario's combat phase: who fights whom and from which picture (the
//! situation table), its end after three rounds, effective heights on the
//! terrain, and the optional obstructions.

use std::collections::BTreeMap;

use super::turn::seat_names;
use super::*;
use crate::lostworlds::actions::Start;
use crate::lostworlds::content::Range;
use crate::lostworlds::field::state::{Engaging, ROUNDS_PER_PHASE};
use crate::lostworlds::state::SeatStatus;

/// The combat phase opens. Under rules 7 a figure with an opponent in its
/// battle zone may engage it or hold back, so each such figure first says
/// whom it engages (`engage`), and a pair fights when either engages the
/// other; a halt demanded battle, so the halter and the halted fight
/// unasked. Before, every pair in each other's battle zones fought.
pub(super) fn begin_combat(chain: &mut Chain) -> Result<(), Rejection> {
    let state = &chain.state;
    let b = board(state).expect("a scenario");
    let mut zones: BTreeMap<Seat, Vec<Seat>> = BTreeMap::new();
    for s in 0..state.seats.len() as Seat {
        if !b.conscious[s as usize] {
            continue;
        }
        let foes = b.zone_foes(s);
        if !foes.is_empty() {
            zones.insert(s, foes);
        }
    }
    if zones.is_empty() {
        return end_combat(chain);
    }
    if state.rules < 7 {
        return open_combat(chain, zones);
    }
    // A halt demanded battle: those pairs fight unasked.
    let mut opening = Engaging::default();
    for (&s, foes) in &zones {
        if let Some(h) = b.field.piece(s).done.halted_by.filter(|h| foes.contains(h)) {
            opening.join(s, h);
        }
    }
    let waiting: Vec<Seat> = zones
        .iter()
        .filter(|(&s, foes)| foes.iter().any(|&f| !opening.fight(s, f)))
        .map(|(&s, _)| s)
        .collect();
    if waiting.is_empty() {
        return open_combat(chain, opening.engaged());
    }
    chain.push(Fact::EngagementOffered {
        waiting,
        forced: opening.pairs,
    });
    Ok(())
}

/// A figure says whom it engages as the combat phase opens (rules 7);
/// the phase begins once every figure asked has answered.
pub(super) fn engage(state: &State, seat: Seat, foes: &[Seat]) -> Result<Vec<Fact>, Rejection> {
    let field = state.field.as_deref().expect("a scenario");
    let name = state.seat_name(seat);
    let Some(e) = &field.engaging else {
        return reject(
            "lostworlds.scenario.engage",
            format!("no one is asked to engage now: {}", stage_words(state)),
        );
    };
    if !e.waiting.contains(&seat) {
        return reject(
            "lostworlds.scenario.engage",
            format!("{name} is not asked: {}", stage_words(state)),
        );
    }
    let zone = board(state).expect("a scenario").zone_foes(seat);
    let mut chosen: Vec<Seat> = Vec::new();
    for &foe in foes {
        if !zone.contains(&foe) {
            let them = match state.seats.get(foe as usize) {
                Some(_) => state.seat_name(foe),
                None => format!("seat {foe}"),
            };
            return reject(
                "lostworlds.scenario.engage",
                format!(
                    "{them} is not an opponent in {name}'s battle zone (there: {})",
                    seat_names(state, &zone)
                ),
            );
        }
        if !chosen.contains(&foe) {
            chosen.push(foe);
        }
    }
    let mut chain = Chain::new(state);
    chain.push(Fact::Engaged { seat, foes: chosen });
    let answered = chain
        .field()
        .engaging
        .as_ref()
        .filter(|e| e.waiting.is_empty())
        .map(Engaging::engaged);
    if let Some(engaged) = answered {
        if engaged.is_empty() {
            end_combat(&mut chain)?;
        } else {
            open_combat(&mut chain, engaged)?;
        }
    }
    Ok(chain.facts)
}

/// The combat phase begins between the pairs engaged, each from the picture
/// the situation table gives it.
fn open_combat(chain: &mut Chain, engaged: BTreeMap<Seat, Vec<Seat>>) -> Result<(), Rejection> {
    let state = &chain.state;
    let field = chain.field();
    // Runners and hard shovers start the phase off balance.
    let stance = |s: Seat| {
        let p = field.piece(s);
        if p.position == Position::Standing && (p.done.ran || p.done.shoved_hard) {
            Position::OffBalance
        } else {
            p.position
        }
    };
    let mut starts = Vec::new();
    for (&seat, foes) in &engaged {
        for &foe in foes {
            let picture = tables::situation(
                stance(seat),
                field.piece(seat).undefended == Some(field.piece(foe).at),
                field.piece(foe).undefended == Some(field.piece(seat).at),
                stance(foe),
            );
            let book = state.books.get(&state.seat(foe).fighter().sheet.id);
            let shown = book.and_then(|bk| bk.pictures.get(&picture));
            starts.push(Start {
                seat,
                foe,
                picture,
                title: shown.map(|p| p.title.clone()),
                range: shown.map_or(
                    if picture == crate::lostworlds::content::OPENING_PICTURE {
                        Range::Extended
                    } else {
                        Range::Close
                    },
                    |p| p.range,
                ),
                tell: match shown {
                    Some(p) => crate::lostworlds::restriction::Restriction::parse(&p.tell).ok(),
                    None if picture == crate::lostworlds::content::OPENING_PICTURE => {
                        Some(crate::lostworlds::restriction::Restriction::opening())
                    }
                    None => None,
                },
            });
        }
    }
    chain.push(Fact::CombatBegun { engaged, starts });
    Ok(())
}

/// After an exchange in a scenario: the combat phase ends after its third
/// round, or once no engaged pair is left fighting.
pub(in crate::lostworlds) fn after_exchange(chain: &mut Chain) -> Result<(), Rejection> {
    let state = &chain.state;
    let field = chain.field();
    let fighting = (0..state.seats.len() as Seat)
        .any(|s| state.seat(s).status == SeatStatus::Fighting && !state.foes(s).is_empty());
    if field.rounds >= ROUNDS_PER_PHASE || !fighting {
        return end_combat(chain);
    }
    Ok(())
}

/// How a fighter stands after the last round: down if an opponent's
/// picture of it shows it down (41), off balance if one shows it off
/// balance (19) or its own picture shows it staggering (1): the numbers the
/// situation table gives every compatible book.
fn stands_after(state: &State, seat: Seat) -> Position {
    let seen_as = |picture: u32| {
        state
            .seats
            .iter()
            .any(|o| o.sights.get(&seat).is_some_and(|s| s.picture == picture))
    };
    if seen_as(41) {
        Position::Down
    } else if seen_as(19) || state.seat(seat).sights.values().any(|s| s.picture == 1) {
        Position::OffBalance
    } else {
        Position::Standing
    }
}

fn end_combat(chain: &mut Chain) -> Result<(), Rejection> {
    let state = &chain.state;
    let b = board(state).expect("a scenario");
    let field = b.field;
    let mut positions: Vec<(Seat, Position)> = field
        .engaged
        .keys()
        .filter(|&&s| b.conscious[s as usize])
        .map(|&s| (s, stands_after(state, s)))
        .collect();
    // A runner or hard shover starts the combat phase off balance, and one
    // who fought no one is still so when the falls are checked (rules 5;
    // rules 4 counted it off balance only in a fight).
    if state.rules >= 5 {
        for s in 0..state.seats.len() as Seat {
            let p = field.piece(s);
            let unsteady = p.done.ran || p.done.shoved_hard;
            if b.conscious[s as usize]
                && unsteady
                && p.position == Position::Standing
                && !field.engaged.contains_key(&s)
            {
                positions.push((s, Position::OffBalance));
            }
        }
    }
    let position = |s: Seat| {
        positions
            .iter()
            .find(|(p, _)| *p == s)
            .map_or(field.piece(s).position, |p| p.1)
    };
    // In a position to fall after running or fighting: on an object's
    // space, or beside a drop of two levels or more.
    let at_risk: Vec<(Seat, u32)> = (0..state.seats.len() as Seat)
        .filter(|&s| b.conscious[s as usize])
        .filter(|&s| {
            let d = &field.piece(s).done;
            d.ran || field.engaged.contains_key(&s) || d.fought
        })
        .filter(|&s| b.precarious(field.piece(s).at))
        .map(|s| (s, tables::footing_bonus(position(s))))
        .collect();
    let none_at_risk = at_risk.is_empty();
    chain.push(Fact::CombatEnded { positions, at_risk });
    if none_at_risk {
        return end_turn(chain);
    }
    Ok(())
}

/// A scenario's fighters' effective heights when they stand on different
/// levels: the sheet's height plus the level (none on the same level).
pub fn effective_heights(state: &State, a: Seat, d: Seat) -> Option<(i32, i32)> {
    let b = board(state)?;
    let (la, ld) = (b.seat_level(a), b.seat_level(d));
    (la != ld).then(|| (b.heights[a as usize] + la, b.heights[d as usize] + ld))
}

/// The height modifier between effective heights: the taller adds the
/// difference to Orange and Red (the rule text's dwarf on level 4 gains +2
/// on a troll two shorter), the shorter takes 1 off Orange, as in the books.
pub fn terrain_height_bonus(
    mine: i32,
    theirs: i32,
    colour: crate::lostworlds::content::Colour,
) -> i32 {
    use crate::lostworlds::content::Colour;
    match (mine.cmp(&theirs), colour) {
        (std::cmp::Ordering::Greater, Colour::Orange | Colour::Red) => mine - theirs,
        (std::cmp::Ordering::Less, Colour::Orange) => -1,
        _ => 0,
    }
}

/// A maneuver an obstruction bars.
type Barred = fn(&crate::lostworlds::content::Maneuver) -> bool;

fn side_swing(m: &crate::lostworlds::content::Maneuver) -> bool {
    m.category.eq_ignore_ascii_case("Side Swing")
}

fn retrieve(m: &crate::lostworlds::content::Maneuver) -> bool {
    m.name.eq_ignore_ascii_case("Retrieve Weapon")
}

fn dodge(m: &crate::lostworlds::content::Maneuver) -> bool {
    m.name.eq_ignore_ascii_case("Dodge")
}

fn jump_away(m: &crate::lostworlds::content::Maneuver) -> bool {
    m.name.eq_ignore_ascii_case("Away")
        || m.full_name()
            .eq_ignore_ascii_case("Extended Range Jump Back")
}

/// The optional obstruction restrictions in force on a fighter (option
/// `obstructions=on`), each with the words the story and refusals use.
/// The battle zone here is the six spaces around the figure.
pub(in crate::lostworlds) fn obstructions(state: &State, seat: Seat) -> Vec<(String, Barred)> {
    let Some(b) = board(state) else {
        return Vec::new();
    };
    let field = b.field;
    if !field.obstructions || field.stage != Stage::Combat {
        return Vec::new();
    }
    let p = field.piece(seat);
    let level = b.seat_level(seat);
    let height = b.heights[seat as usize];
    let around: Vec<Hex> = b.neighbours(p.at).into_iter().flatten().collect();
    let figure =
        |h: Hex| (0..state.seats.len() as Seat).find(|&o| o != seat && field.piece(o).at == h);
    let mut out: Vec<(String, Barred)> = Vec::new();
    // Tall: one less than the fighter's height or taller.
    let tall = around
        .iter()
        .map(|&h| {
            let terrain = match b.terrain.at(h) {
                Some(
                    crate::lostworlds::field::content::Ground::Wall
                    | crate::lostworlds::field::content::Ground::Pillar,
                ) => 1,
                Some(g) => usize::from(i32::from(g.level().unwrap_or(0)) - level >= height - 1),
                None => 0,
            };
            let things = field.things_at(h).filter(|t| field.kind_of(t).tall).count();
            let friends = usize::from(
                figure(h).is_some_and(|o| !field.opposed(seat, o) && b.conscious[o as usize]),
            );
            terrain + things + friends
        })
        .sum::<usize>();
    if tall > 1 {
        out.push((
            "no side swings: more than one tall obstruction in the battle zone".into(),
            side_swing,
        ));
    }
    if field
        .things
        .iter()
        .any(|t| t.owner == Some(seat) && t.carried_by.is_none() && t.at != p.at)
    {
        out.push((
            "no Retrieve Weapon: the weapon lies on another space".into(),
            retrieve,
        ));
    }
    let crowd = around
        .iter()
        .map(|&h| usize::from(figure(h).is_some()) + field.things_at(h).count())
        .sum::<usize>();
    if crowd > 1 {
        out.push((
            "no dodging: more than one figure or object in the battle zone".into(),
            dodge,
        ));
    }
    if let Some(u) = p.undefended {
        let blocked = match b.terrain.at(u) {
            Some(
                crate::lostworlds::field::content::Ground::Wall
                | crate::lostworlds::field::content::Ground::Pillar,
            )
            | None => true,
            Some(_) => figure(u).is_some() || field.things_at(u).next().is_some(),
        };
        if blocked {
            out.push((
                "no jumping away or back: the undefended space is obstructed".into(),
                jump_away,
            ));
        }
    }
    out
}
