//! Folds Lost Worlds facts into state. No rule is checked here and nothing
//! can fail: `decide` already looked every page up and read every order.

use std::sync::Arc;

use tabletape_events::Seat;

use super::actions::{Condition, Fact};
use super::content::Range;
use super::state::{Pending, Phase, SeatStatus, Sight, State};

/// A choice is kept for the seat that made it; one for a seat not at the
/// table comes only from a damaged or forged log, and panicking here lets
/// the fold's guard name the event rather than keep a choice no exchange
/// can resolve.
fn seated(state: &State, seat: Seat) {
    assert!(
        (seat as usize) < state.seats.len(),
        "a choice by seat {seat}, who is not at the table"
    );
}

pub fn apply(state: &mut State, fact: &Fact) {
    match fact {
        Fact::ManeuverChosen {
            seat,
            page: Some(page),
            targets,
            ..
        }
        | Fact::ManeuverRevealed {
            seat,
            page: Some(page),
            targets,
            ..
        } => {
            seated(state, *seat);
            state.pending.insert(
                *seat,
                Pending::Chosen {
                    page: *page,
                    targets: targets.clone(),
                },
            );
        }
        // Without its page a choice is a copy redacted for another seat;
        // `decide` never makes one, so the fold never meets one.
        Fact::ManeuverChosen { page: None, .. } | Fact::ManeuverRevealed { page: None, .. } => {}
        Fact::ManeuverCommitted { seat, hash } => {
            seated(state, *seat);
            state
                .pending
                .insert(*seat, Pending::Committed { hash: hash.clone() });
        }
        Fact::EscapeAnnounced { seat } => state.seats[*seat as usize].escaping = true,
        Fact::MemberSteppedIn { seat, to, .. } => {
            let st = &mut state.seats[*seat as usize];
            st.active = *to;
            st.party_turn = Some(state.exchanges);
        }
        Fact::MissileFired { seat, .. } => {
            state.seats[*seat as usize].party_turn = Some(state.exchanges)
        }
        Fact::ExchangeResolved(r) => {
            state.exchanges = r.number;
            state.pending.clear();
            // Last turn's orders are spent; this turn's pictures give new ones.
            for t in &r.turns {
                state.seats[t.seat as usize].orders.next_turn.clear();
            }
            // Whether each fighter stood close to someone before this exchange.
            let was_close: Vec<bool> = state
                .seats
                .iter()
                .map(|st| st.sights.values().any(|s| s.range == Range::Close))
                .collect();
            for b in &r.blows {
                state.seats[b.attacker as usize].sights.insert(
                    b.defender,
                    Sight {
                        picture: b.picture,
                        title: b.title.clone(),
                        range: b.range,
                        party: b.party,
                    },
                );
                let defender = &mut state.seats[b.defender as usize];
                if b.landed {
                    let active = defender.active;
                    let body = &mut defender.party[active].body;
                    *body = body.saturating_sub(b.damage);
                }
                if let Some(c) = &b.critical {
                    defender.orders.read(Some(b.attacker), &c.restriction);
                }
                defender.orders.read(Some(b.attacker), &b.tell);
            }
            // A fighter who has maneuvered from close range out to extended
            // range (and stays there) may announce an escape.
            for t in &r.turns {
                let st = &mut state.seats[t.seat as usize];
                let far = st.sights.values().all(|s| s.range == Range::Extended);
                st.withdrawn = far && (st.withdrawn || was_close[t.seat as usize]);
            }
            for f in &r.falls {
                let st = &mut state.seats[f.seat as usize];
                st.party[f.member].condition = f.condition;
                st.status = SeatStatus::Down;
                state.falls.push(f.clone());
            }
            for &s in &r.escaped {
                state.seats[s as usize].status = SeatStatus::Escaped;
            }
            for &s in r.escaped.iter().chain(&r.escapes_failed) {
                state.seats[s as usize].escaping = false;
            }
        }
        Fact::FightEnded { outcome, awards } => {
            state.phase = Phase::Aftermath;
            state.outcome = Some(outcome.clone());
            for a in awards {
                let f = &mut state.seats[a.seat as usize].party[a.member];
                // `decide` checked these sums fit; saturating only keeps
                // the fold from ever panicking.
                let sheet = Arc::make_mut(&mut f.sheet);
                sheet.experience = sheet.experience.saturating_add(a.points);
                sheet.defeated_body_points = sheet.defeated_body_points.saturating_add(a.points);
                f.advancements = f.advancements.saturating_add(a.advancements);
            }
        }
        Fact::Advanced {
            seat,
            member,
            category,
        } => {
            let f = &mut state.seats[*seat as usize].party[*member];
            f.advancements = f.advancements.saturating_sub(1);
            let sheet = Arc::make_mut(&mut f.sheet);
            if category == "body" {
                sheet.body_points = sheet.body_points.saturating_add(1);
                if f.condition == Condition::Fit {
                    f.body = f.body.saturating_add(1);
                }
            } else {
                let points = sheet.abilities.entry(category.clone()).or_default();
                *points = points.saturating_add(1);
            }
        }
        Fact::ModifierImproved {
            seat,
            member,
            maneuver,
            cost,
        } => {
            let f = &mut state.seats[*seat as usize].party[*member];
            let sheet = Arc::make_mut(&mut f.sheet);
            sheet.experience = sheet.experience.saturating_sub(*cost);
            let m = &mut sheet.maneuvers[*maneuver];
            m.modifier = m.modifier.saturating_add(1);
            m.raised = m.raised.saturating_add(1);
        }
        Fact::JournalClosed => state.phase = Phase::Closed,
    }
}
