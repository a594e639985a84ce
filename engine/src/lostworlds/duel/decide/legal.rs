//! What is open now, for one seat or the whole table, and who is to move.

use super::*;
use crate::lostworlds::actions::{Move, Seen};
use crate::lostworlds::content::{CardKind, Maneuver};
use crate::rules::{Legal, Seal, Unseal, Unsealed};

fn choose(seat: Seat, m: &Maneuver) -> Action {
    Action::Choose {
        seat: Some(seat),
        page: Some(m.page),
        maneuver: Some(m.full_name()),
        targets: vec![],
    }
}

/// The reveal of `page`, its salt still to be filled in.
fn reveal(seat: Seat, page: u32) -> Action {
    Action::Reveal {
        seat: Some(seat),
        page: Some(page),
        salt: Some("<salt>".into()),
        targets: vec![],
    }
}

/// A maneuver choice, with its sealed form: commit to `"<page>:<salt>"`
/// now, reveal the page and salt once everyone has chosen.
fn sealable(seat: Seat, m: &Maneuver) -> Legal<Action> {
    let mut legal = Legal::ready(choose(seat, m));
    legal.seal = Some(Seal {
        commit: Action::Commit {
            seat: Some(seat),
            hash: "<hash>".into(),
            nonce: Some("<nonce>".into()),
        },
        preimage: format!("{}:<salt>", m.page),
        reveal: reveal(seat, m.page),
    });
    legal
}

/// The fighters still to choose this exchange (an escape is always open,
/// so the default, "any action open", would name everyone).
pub fn to_move(state: &State) -> Vec<Seat> {
    if state.phase != Phase::Fighting {
        return legal_seats(state);
    }
    if let Some(field) = state.field.as_deref() {
        if !field.in_combat() {
            return field::decide::to_move(state);
        }
    }
    if let Some(a) = &state.awaiting {
        return vec![a.seat];
    }
    // Once everyone has chosen, the game waits on those who sealed theirs.
    let revealing = all_chosen(state);
    (0..state.seats.len() as Seat)
        .filter(|&s| state.seat(s).status == SeatStatus::Fighting)
        .filter(|s| match state.pending.get(s) {
            None => true,
            Some(Pending::Committed { .. }) => revealing,
            Some(Pending::Chosen { .. }) => false,
        })
        .collect()
}

fn legal_seats(state: &State) -> Vec<Seat> {
    (0..state.seats.len() as Seat)
        .filter(|&s| !legal(state, Some(s)).is_empty())
        .collect()
}

/// Whether every fighter still in the fight has chosen or committed.
fn all_chosen(state: &State) -> bool {
    (0..state.seats.len() as Seat)
        .filter(|&s| state.seat(s).status == SeatStatus::Fighting)
        .all(|s| state.pending.contains_key(&s))
}

/// Every action open now, for one seat or the whole table.
pub fn legal(state: &State, seat: Option<Seat>) -> Vec<Legal<Action>> {
    let seats: Vec<Seat> = match seat {
        Some(s) if (s as usize) < state.seats.len() => vec![s],
        Some(_) => return vec![],
        None => (0..state.seats.len() as Seat).collect(),
    };
    if let Some(field) = state.field.as_deref() {
        if state.phase == Phase::Fighting && !field.in_combat() {
            return field::decide::legal(state, seat);
        }
    }
    let mut out = Vec::new();
    match state.phase {
        // The pages are turned: only the pick of whom the blows hit is open.
        Phase::Fighting if state.awaiting.is_some() => {
            let a = state.awaiting.as_ref().expect("awaiting");
            if seats.contains(&a.seat) {
                for targets in cards::combinations(&a.scored, a.attacks as usize) {
                    out.push(Legal::ready(Action::PickTargets {
                        seat: Some(a.seat),
                        targets,
                    }));
                }
            }
        }
        Phase::Fighting => {
            for &s in &seats {
                let st = state.seat(s);
                if st.status != SeatStatus::Fighting {
                    continue;
                }
                let sheet = &st.fighter().sheet;
                let pending = state.pending.get(&s);
                if state.books_mode == BooksMode::Full {
                    match pending {
                        None => {
                            for &i in &choices(state, s).open {
                                out.push(sealable(s, &sheet.maneuvers[i]));
                            }
                            out.push(Legal::needing(
                                Action::Commit {
                                    seat: Some(s),
                                    hash: "<sha256 of page:salt>".into(),
                                    nonce: None,
                                },
                                vec!["hash: lowercase hex SHA-256 of \"<page>:<salt>\" for the maneuver chosen".into()],
                            ));
                        }
                        // Revealing before every other fighter has chosen
                        // would show the page to whoever reads the log first
                        // (the table's owner); the reveal waits for them.
                        Some(Pending::Committed { hash, nonce }) if all_chosen(state) => {
                            let mut line = Legal::needing(
                                reveal(s, 0),
                                vec!["page and salt: the ones committed to".into()],
                            );
                            // Sealed with a nonce: every page of the sheet
                            // is a candidate, and the commitment picks one.
                            line.unseal = nonce.as_ref().map(|nonce| Unseal {
                                commitment: hash.clone(),
                                nonce: nonce.clone(),
                                options: sheet
                                    .maneuvers
                                    .iter()
                                    .map(|m| Unsealed {
                                        preimage: format!("{}:<salt>", m.page),
                                        reveal: reveal(s, m.page),
                                    })
                                    .collect(),
                            });
                            out.push(line)
                        }
                        Some(Pending::Committed { .. }) => {}
                        Some(Pending::Chosen { .. }) => {}
                    }
                }
                let far = state
                    .foes(s)
                    .iter()
                    .all(|f| st.sights[f].range == Range::Extended);
                if !st.escaping && far && st.withdrawn && state.field.is_none() {
                    out.push(Legal::ready(Action::Escape { seat: Some(s) }));
                }
                if pending.is_none() && state.rules >= 3 && !state.cards.is_empty() {
                    if state.exchanges == 0 {
                        out.push(cards::select_line(state, s));
                    }
                    for (c, targets) in cards::playable(state, s) {
                        for target in targets {
                            out.push(Legal::ready(Action::PlayCard {
                                seat: Some(s),
                                card: c.id.clone(),
                                target,
                            }));
                        }
                    }
                }
                if pending.is_none() && st.party_turn != Some(state.exchanges) {
                    let marks: Vec<PartyMark> = state
                        .foes(s)
                        .iter()
                        .filter_map(|f| state.seat(*f).sights.get(&s).and_then(|x| x.party))
                        .collect();
                    for (mi, f) in st.party.iter().enumerate() {
                        if mi == st.active || f.condition != Condition::Fit {
                            continue;
                        }
                        if marks.contains(&PartyMark::StepIn) {
                            out.push(Legal::ready(Action::StepIn {
                                seat: Some(s),
                                member: f.sheet.id.clone(),
                            }));
                        }
                        if marks.contains(&PartyMark::Missile) && state.rules >= 3 {
                            // The member's unplayed spells and missiles.
                            let mut offered: Vec<&str> = Vec::new();
                            for h in f.cards.iter().filter(|h| !h.played) {
                                let striking = state.cards.get(&h.id).is_some_and(|c| {
                                    c.effect.strike > 0
                                        && matches!(c.kind, CardKind::Spell | CardKind::Item)
                                });
                                if !striking || offered.contains(&h.id.as_str()) {
                                    continue;
                                }
                                offered.push(&h.id);
                                for target in state.foes(s) {
                                    out.push(Legal::ready(Action::FireMissile {
                                        seat: Some(s),
                                        member: f.sheet.id.clone(),
                                        what: String::new(),
                                        card: Some(h.id.clone()),
                                        target: Some(target),
                                    }));
                                }
                            }
                        } else if marks.contains(&PartyMark::Missile) {
                            out.push(Legal::needing(
                                Action::FireMissile {
                                    seat: Some(s),
                                    member: f.sheet.id.clone(),
                                    what: "<spell or missile>".into(),
                                    card: None,
                                    target: None,
                                },
                                vec!["what: the spell or missile fired".into()],
                            ));
                        }
                    }
                }
            }
            if seat.is_none() && state.pending.is_empty() {
                let record = state.books_mode == BooksMode::Record;
                let maneuvers = state
                    .fighting_seats()
                    .into_iter()
                    .map(|s| {
                        let open = choices(state, s).open;
                        let m = &state.seat(s).fighter().sheet.maneuvers
                            [open[(state.exchanges as usize + s as usize) % open.len()]];
                        Move {
                            seat: s,
                            page: Some(m.page),
                            maneuver: Some(m.full_name()),
                            targets: vec![],
                            seen: if record {
                                state
                                    .foes(s)
                                    .into_iter()
                                    .map(|f| Seen {
                                        opponent: Some(f),
                                        ..Seen::default()
                                    })
                                    .collect()
                            } else {
                                vec![]
                            },
                        }
                    })
                    .collect();
                out.push(Legal::needing(
                    Action::Exchange { maneuvers },
                    if record {
                        vec!["seen: per seat and opponent, the picture, range and tell read (and score and critical when printed)".into()]
                    } else {
                        vec![]
                    },
                ));
            }
        }
        Phase::Aftermath => {
            for &s in &seats {
                for f in &state.seat(s).party {
                    if f.condition == Condition::Dead {
                        continue;
                    }
                    let member = Some(f.sheet.id.clone());
                    if f.advancements > 0 {
                        for category in advance_categories(f) {
                            out.push(Legal::ready(Action::Advance {
                                seat: Some(s),
                                member: member.clone(),
                                category,
                            }));
                        }
                    }
                    for (i, m) in f.sheet.maneuvers.iter().enumerate() {
                        if can_improve(f, i) {
                            out.push(Legal::ready(Action::Improve {
                                seat: Some(s),
                                member: member.clone(),
                                maneuver: m.full_name(),
                            }));
                        }
                    }
                }
            }
            let unspent = state
                .seats
                .iter()
                .flat_map(|s| &s.party)
                .any(|f| f.advancements > 0 && f.condition != Condition::Dead);
            if !unspent {
                out.push(Legal::ready(Action::Close));
            }
        }
        Phase::Closed => {}
    }
    out
}
