//! The end of the fight and after it: who is left standing, experience and
//! advancements, raising modifiers, and closing the journal.

use super::*;
use crate::lostworlds::actions::{Award, Ending, Fall, Outcome, Resolution};
use crate::lostworlds::content::Maneuver;
use crate::lostworlds::state::Fighter;
use std::collections::BTreeSet;

/// Experience from defeated body points buys one advancement per this many.
pub const BODY_POINTS_PER_ADVANCEMENT: u32 = 50;

/// Whether the fight ends after `r`, and with what experience.
pub(super) fn fight_end(state: &State, r: &Resolution) -> Result<Option<Fact>, Rejection> {
    let status = |s: Seat| {
        if r.falls.iter().any(|f| f.seat == s) {
            SeatStatus::Down
        } else if r.escaped.contains(&s) {
            SeatStatus::Escaped
        } else {
            state.seat(s).status
        }
    };
    let others: Vec<Seat> = (1..state.seats.len() as Seat).collect();
    let standing: Vec<Seat> = others
        .iter()
        .copied()
        .filter(|&s| status(s) == SeatStatus::Fighting)
        .collect();
    let lone = status(0);
    let outcome = if lone == SeatStatus::Escaped {
        Outcome {
            ending: Ending::Escape,
            victors: vec![],
        }
    } else if lone == SeatStatus::Down {
        if standing.is_empty() {
            Outcome {
                ending: Ending::MutualKnockout,
                victors: vec![],
            }
        } else {
            Outcome {
                ending: Ending::Knockout,
                victors: standing,
            }
        }
    } else if standing.is_empty() {
        if others.iter().any(|&s| status(s) == SeatStatus::Down) {
            Outcome {
                ending: Ending::Knockout,
                victors: vec![0],
            }
        } else {
            Outcome {
                ending: Ending::Escape,
                victors: vec![],
            }
        }
    } else if r.number >= state.exchange_limit {
        Outcome {
            ending: Ending::Draw,
            victors: vec![],
        }
    } else {
        return Ok(None);
    };
    let awards = awards(state, &r.falls, &BTreeMap::new())?;
    Ok(Some(Fact::FightEnded { outcome, awards }))
}

/// Experience at the end: the fallen's maximum body points to whoever
/// landed damage on them in the exchange they fell, once for each fallen
/// figure however often it fell (the dead gain nothing),
/// plus a scenario's victory points by seat (its active member).
pub(in crate::lostworlds) fn awards(
    state: &State,
    new_falls: &[Fall],
    victory: &BTreeMap<Seat, u32>,
) -> Result<Vec<Award>, Rejection> {
    let mut points: BTreeMap<(Seat, usize), (u32, u32)> = BTreeMap::new();
    // An opponent who falls, comes to, and falls again is one opponent
    // defeated: its body points count once for each victor (rules 5; rules
    // 4 counted every fall).
    let mut counted: BTreeSet<((Seat, usize), (Seat, usize))> = BTreeSet::new();
    for fall in state.falls.iter().chain(new_falls) {
        for &(s, mi) in &fall.victors {
            let dead = new_falls
                .iter()
                .chain(&state.falls)
                .any(|f| f.seat == s && f.member == mi && f.condition == Condition::Dead);
            let again = !counted.insert(((s, mi), (fall.seat, fall.member)));
            let counts = !dead && (state.rules < 5 || !again);
            if counts {
                let p = &mut points.entry((s, mi)).or_default().0;
                *p = p
                    .checked_add(fall.max_body.max(0) as u32)
                    .ok_or_else(|| overflow("experience"))?;
            }
        }
    }
    for (&seat, &v) in victory {
        points.entry((seat, state.seat(seat).active)).or_default().1 = v;
    }
    points
        .into_iter()
        .map(|((seat, member), (points, victory))| {
            let sheet = &state.seat(seat).party[member].sheet;
            let before = sheet.defeated_body_points;
            let after = before
                .checked_add(points)
                .filter(|_| {
                    sheet
                        .experience
                        .checked_add(points)
                        .and_then(|e| e.checked_add(victory))
                        .is_some()
                })
                .ok_or_else(|| overflow("experience"))?;
            Ok(Award {
                seat,
                member,
                points,
                advancements: after / BODY_POINTS_PER_ADVANCEMENT
                    - before / BODY_POINTS_PER_ADVANCEMENT,
                victory,
            })
        })
        .collect()
}

/// `advance`: one advancement spent on body or an ability on the sheet.
pub(super) fn advance(
    state: &State,
    by: Option<Seat>,
    seat: Option<Seat>,
    member: Option<&str>,
    category: &str,
) -> Result<Vec<Fact>, Rejection> {
    let (seat, mi) = after_fight_member(state, by, seat, member)?;
    let f = &state.seat(seat).party[mi];
    if f.advancements == 0 {
        return reject(
            "lostworlds.advancement",
            format!("{} has no advancement to spend", f.sheet.name),
        );
    }
    let category = category.trim().to_ascii_lowercase();
    let open = advance_categories(f);
    if !open.contains(&category) {
        return reject(
            "lostworlds.advancement",
            format!(
                "{} may only advance a category already on the sheet: {}",
                f.sheet.name,
                open.join(", ")
            ),
        );
    }
    Ok(vec![Fact::Advanced {
        seat,
        member: mi,
        category,
    }])
}

/// `improve`: experience spent on a maneuver's modifier, in the sheet's
/// order of raises.
pub(super) fn improve(
    state: &State,
    by: Option<Seat>,
    seat: Option<Seat>,
    member: Option<&str>,
    maneuver: &str,
) -> Result<Vec<Fact>, Rejection> {
    let (seat, mi) = after_fight_member(state, by, seat, member)?;
    let f = &state.seat(seat).party[mi];
    let Some((idx, m)) = f.sheet.maneuver_named(maneuver) else {
        return reject(
            "lostworlds.maneuver",
            format!(
                "{}'s sheet has no maneuver called `{maneuver}`{}",
                f.sheet.name,
                f.sheet.maneuver_hint(maneuver)
            ),
        );
    };
    let cost = f.sheet.body_points.max(0) as u32;
    if f.sheet.experience < cost {
        return reject(
            "lostworlds.experience",
            format!(
                "raising a modifier costs {} experience (their maximum body points) and {} has {}",
                cost, f.sheet.name, f.sheet.experience
            ),
        );
    }
    let maneuvers = &f.sheet.maneuvers;
    let least = maneuvers.iter().map(|m| m.raised).min().unwrap_or(0);
    if maneuvers[idx].raised > least {
        let waiting: Vec<String> = maneuvers
            .iter()
            .filter(|m| m.raised == least)
            .map(Maneuver::full_name)
            .collect();
        return reject(
            "lostworlds.improvement_order",
            format!(
                "every modifier must be raised before any is raised again: {} is ahead; still waiting: {}",
                m.full_name(),
                waiting.join(", ")
            ),
        );
    }
    Ok(vec![Fact::ModifierImproved {
        seat,
        member: mi,
        maneuver: idx,
        cost,
    }])
}

/// `close`: the journal, once every advancement is spent.
pub(super) fn close(state: &State) -> Result<Vec<Fact>, Rejection> {
    match state.phase {
        Phase::Fighting => return reject("lostworlds.phase", "the fight is still on"),
        Phase::Closed => return reject("lostworlds.phase", "the journal is already closed"),
        Phase::Aftermath => {}
    }
    if let Some(f) = state
        .seats
        .iter()
        .flat_map(|s| &s.party)
        .find(|f| f.advancements > 0 && f.condition != Condition::Dead)
    {
        return reject(
            "lostworlds.advancement",
            format!("{} still has an advancement to spend", f.sheet.name),
        );
    }
    Ok(vec![Fact::JournalClosed])
}

/// The categories a fighter may advance: body and the abilities on the sheet.
pub fn advance_categories(f: &Fighter) -> Vec<String> {
    std::iter::once("body".to_string())
        .chain(f.sheet.abilities.keys().cloned())
        .collect()
}

/// Whether `f` may raise maneuver `idx` now: the sheet's "+" column says
/// which modifiers are still to be raised in this round of raises.
pub fn can_improve(f: &Fighter, idx: usize) -> bool {
    let maneuvers = &f.sheet.maneuvers;
    let least = maneuvers.iter().map(|m| m.raised).min().unwrap_or(0);
    f.condition != Condition::Dead
        && f.sheet.experience >= f.sheet.body_points.max(0) as u32
        && maneuvers[idx].raised == least
}

fn after_fight_member(
    state: &State,
    by: Option<Seat>,
    seat: Option<Seat>,
    member: Option<&str>,
) -> Result<(Seat, usize), Rejection> {
    let seat = acting_seat(state, by, seat)?;
    if state.phase != Phase::Aftermath {
        return reject(
            "lostworlds.phase",
            "experience is spent after the fight, before the journal is closed",
        );
    }
    let st = state.seat(seat);
    let mi = match member {
        None => st.active,
        Some(id) => st
            .party
            .iter()
            .position(|f| f.sheet.id == id)
            .ok_or_else(|| {
                Rejection::new(
                    "lostworlds.party",
                    format!("seat {seat}'s party has no `{id}`"),
                )
            })?,
    };
    if st.party[mi].condition == Condition::Dead {
        return reject(
            "lostworlds.dead",
            format!(
                "{} died; a new character starts from the printed sheet",
                st.party[mi].sheet.name
            ),
        );
    }
    Ok((seat, mi))
}

/// Whether anything is left to do after the fight.
pub fn aftermath_open(state: &State) -> bool {
    state.seats.iter().flat_map(|s| &s.party).any(|f| {
        f.condition != Condition::Dead
            && (f.advancements > 0 || (0..f.sheet.maneuvers.len()).any(|i| can_improve(f, i)))
    })
}
