//! Which maneuvers are open: the orders in force (the lost weapon first,
//! then lasting, then next-turn orders), extended range only when told,
//! and a maneuver named by page or name.

use super::*;
use crate::lostworlds::content::Maneuver;

/// The maneuvers open to a seat now, and the orders set aside to leave any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choices {
    pub open: Vec<usize>,
    pub set_aside: Vec<String>,
    /// Opponents at extended range while others stand close (their X pages apply).
    pub mixed: bool,
    pub instructed: bool,
}

fn extended_foes(state: &State, seat: Seat) -> (Vec<Seat>, usize) {
    let st = state.seat(seat);
    let foes = state.foes(seat);
    let ext = foes
        .iter()
        .copied()
        .filter(|f| st.sights.get(f).is_some_and(|s| s.range == Range::Extended))
        .collect();
    (ext, foes.len())
}

/// Which maneuvers a seat may choose. Extended Range is open only when an
/// order read calls for it and no opponent stands close; every order is
/// obeyed at once, the lost weapon first, then lasting orders, then next-turn
/// orders; one that would leave nothing is set aside for this turn.
pub fn choices(state: &State, seat: Seat) -> Choices {
    let st = state.seat(seat);
    let sheet = &st.fighter().sheet.maneuvers;
    let (ext, n_foes) = extended_foes(state, seat);
    let mixed = !ext.is_empty() && ext.len() < n_foes;
    // Every opponent at extended range: an order that admits an Extended
    // Range maneuver (by name or only by its colour) may open it. With one
    // standing close it never does, whatever the order's colour admits.
    // (Rules 3 and earlier asked only that none stand close while others
    // are far.)
    let all_far = if state.rules >= 4 {
        !ext.is_empty() && ext.len() == n_foes
    } else {
        !mixed
    };
    let layers = st.orders.layers();
    let instructed = layers.iter().any(|t| t.clause.instructs_extended(sheet));
    let disarmed = st.orders.disarmed();
    // Each order narrows `open` into `kept`, then they swap: two lists
    // for the whole reading, however many orders are in force.
    let mut open = Vec::with_capacity(sheet.len());
    let mut kept = Vec::with_capacity(sheet.len());
    open.extend(
        (0..sheet.len())
            .filter(|&i| !sheet[i].is_extended() || (instructed && all_far))
            .filter(|&i| armed_for(&sheet[i], disarmed)),
    );
    let mut set_aside = Vec::new();
    for t in layers {
        let widen = mixed && t.from.is_some_and(|f| ext.contains(&f));
        kept.clear();
        kept.extend(
            open.iter()
                .copied()
                .filter(|&i| t.clause.allows(&sheet[i], sheet, widen)),
        );
        if kept.is_empty() {
            if !set_aside.contains(&t.text) {
                set_aside.push(t.text.clone());
            }
        } else {
            std::mem::swap(&mut open, &mut kept);
        }
    }
    // A scenario's optional obstruction restrictions, obeyed like orders.
    for (text, barred) in field::decide::obstructions(state, seat) {
        kept.clear();
        kept.extend(open.iter().copied().filter(|&i| !barred(&sheet[i])));
        if kept.is_empty() {
            set_aside.push(text);
        } else {
            std::mem::swap(&mut open, &mut kept);
        }
    }
    Choices {
        open,
        set_aside,
        mixed,
        instructed,
    }
}

/// Whether a fighter holding (or having lost) the weapon can do `m`: no
/// blow with a weapon lost, no retrieving a weapon still in hand.
fn armed_for(m: &Maneuver, disarmed: bool) -> bool {
    if disarmed {
        !m.wields_weapon()
    } else {
        !m.retrieves_weapon()
    }
}

fn names(state: &State, seats: &[Seat]) -> String {
    seats
        .iter()
        .map(|&s| state.seat_name(s))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Rejects a maneuver that is not open, quoting the order it breaks.
pub fn check_maneuver(state: &State, seat: Seat, idx: usize) -> Result<(), Rejection> {
    let c = choices(state, seat);
    if c.open.contains(&idx) {
        return Ok(());
    }
    let st = state.seat(seat);
    let name = state.seat_name(seat);
    let sheet = &st.fighter().sheet.maneuvers;
    let m = &sheet[idx];
    if !armed_for(m, st.orders.disarmed()) {
        let why = if m.retrieves_weapon() {
            format!("{name} still holds the weapon: there is nothing to retrieve")
        } else {
            format!(
                "{name}'s weapon is lost: {} needs it (kick, block, jump or retrieve it)",
                m.full_name()
            )
        };
        return reject("lostworlds.weapon", why);
    }
    if m.is_extended() && c.mixed {
        let (ext, _) = extended_foes(state, seat);
        return reject(
            "lostworlds.multi_range",
            format!(
                "{name}'s opponents stand at both ranges: pick a close-range maneuver (its X page is used against {})",
                names(state, &ext)
            ),
        );
    }
    if m.is_extended() && state.rules >= 4 && extended_foes(state, seat).0.is_empty() {
        let foes = state.foes(seat);
        return reject(
            "lostworlds.extended_range",
            format!(
                "{name} stands close to {}: Extended Range is only for a fight at extended range",
                names(state, &foes)
            ),
        );
    }
    if m.is_extended() && !c.instructed {
        return reject(
            "lostworlds.extended_range",
            format!("{name} may do Extended Range only when told to, and no order in force calls for it"),
        );
    }
    let (ext, _) = extended_foes(state, seat);
    for t in st.orders.layers() {
        if c.set_aside.contains(&t.text) {
            continue;
        }
        let widen = c.mixed && t.from.is_some_and(|f| ext.contains(&f));
        if let Err(why) = t.clause.permits(m, sheet, widen) {
            return reject(
                "lostworlds.restriction",
                format!("{name} must obey \"{}\": {why}", t.text),
            );
        }
    }
    reject(
        "lostworlds.restriction",
        format!("{name} may not do {} now", m.full_name()),
    )
}

pub(super) fn find_maneuver(
    state: &State,
    seat: Seat,
    page: Option<u32>,
    name: Option<&str>,
) -> Result<usize, Rejection> {
    let st = state.seat(seat);
    let sheet = &st.fighter().sheet;
    let by_page = page.map(|p| {
        sheet.maneuver_at(p).map(|(i, _)| i).ok_or_else(|| {
            Rejection::new(
                "lostworlds.maneuver",
                format!("{}'s sheet has no maneuver on page {p}", sheet.name),
            )
        })
    });
    let by_name = name.map(|n| {
        sheet.maneuver_named(n).map(|(i, _)| i).ok_or_else(|| {
            Rejection::new(
                "lostworlds.maneuver",
                format!(
                    "{}'s sheet has no maneuver called `{n}`{}. Its maneuvers (a full name, or a name only one maneuver bears): {}",
                    sheet.name,
                    sheet.maneuver_hint(n),
                    sheet.maneuver_names()
                ),
            )
        })
    });
    match (by_page, by_name) {
        (Some(p), Some(n)) => {
            let (p, n) = (p?, n?);
            if p != n {
                return reject(
                    "lostworlds.maneuver",
                    format!(
                        "page {} is {}, not {}",
                        sheet.maneuvers[p].page,
                        sheet.maneuvers[p].full_name(),
                        sheet.maneuvers[n].full_name()
                    ),
                );
            }
            Ok(p)
        }
        (Some(p), None) => p,
        (None, Some(n)) => n,
        (None, None) => reject(
            "lostworlds.maneuver",
            "name the maneuver by `page` or `maneuver`",
        ),
    }
}

pub(super) fn check_targets(state: &State, seat: Seat, targets: &[Seat]) -> Result<(), Rejection> {
    if let Some((i, t)) = targets
        .iter()
        .enumerate()
        .find(|(i, t)| targets[..*i].contains(t))
    {
        return reject(
            "lostworlds.targets",
            format!("`targets[{i}]` names seat {t} again: name each opponent once, in order of preference"),
        );
    }
    let foes = state.foes(seat);
    if let Some(t) = targets.iter().find(|t| !foes.contains(t)) {
        return reject(
            "lostworlds.targets",
            format!(
                "seat {t} is not one of {}'s opponents",
                state.seat_name(seat)
            ),
        );
    }
    Ok(())
}
