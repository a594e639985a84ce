//! What a scenario waits for outside the combat phase, and every action
//! open then (each candidate tried against `decide`).

use super::*;
use crate::rules::Legal;

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
    if let Some(e) = &field.engaging {
        return e.waiting.clone();
    }
    match field.mover() {
        Some(m) => vec![m],
        None => rollers(state),
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
            out.push(crate::lostworlds::cards::select_line(state, s));
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
            let b = board(state).expect("a scenario");
            let physical = field.dice == DiceMode::Physical;
            for h in landing_spaces(state, p) {
                let place = |land: Option<Hex>| Action::Place {
                    seat: Some(p.by),
                    to: h.to_string(),
                    roll: None,
                    land: land.map(|l| l.to_string()),
                };
                let onto = b.figure_at(h).filter(|&o| o != p.seat && !p.touched);
                if onto.is_none() {
                    out.push(Legal::ready(place(None)));
                    continue;
                }
                // Onto another figure: where the faller ends, and the die.
                for land in beside(&b, p.seat, h) {
                    out.push(if physical {
                        Legal::needing(
                            place(Some(land)),
                            vec!["roll: the fall onto a figure (a d6)".into()],
                        )
                    } else {
                        Legal::ready(place(Some(land)))
                    });
                }
            }
        }
        return out;
    }
    // As the combat phase opens: every opponent in the battle zone, none,
    // or (with more than one there) each alone.
    if let Some(e) = &field.engaging {
        let b = board(state).expect("a scenario");
        for &s in e.waiting.iter().filter(|&&s| mine(s)) {
            let zone = b.zone_foes(s);
            let engage = |foes: Vec<Seat>| {
                Legal::ready(Action::Engage {
                    seat: Some(s),
                    foes,
                })
            };
            out.push(engage(zone.clone()));
            if zone.len() > 1 {
                out.extend(zone.iter().map(|&f| engage(vec![f])));
            }
            out.push(engage(Vec::new()));
        }
        return out;
    }
    let Some(mover) = field.mover() else {
        if seat.is_none_or(|s| rollers(state).contains(&s)) {
            out.extend(legal_roll(state));
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
        if decide(state, Some(state.controller(mover)), &action, &mut chance).is_ok() {
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
                            "scatter: when the throw misses (it hits on 1-3 at one space, 1-2 at two or three, 1 beyond), a die naming a space beside the target on its level or lower, numbered clockwise from the east".into(),
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
