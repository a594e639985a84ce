//! Folds Lost Worlds facts into state. No rule is checked here and nothing
//! can fail: `decide` already looked every page up and read every order.

use std::sync::Arc;

use tabletape_events::Seat;

use crate::lostworlds::actions::{Condition, Fact, Played};
use crate::lostworlds::content::{CardKind, Range};
use crate::lostworlds::state::{
    Awaiting, Boost, HeldCard, Pending, Phase, SeatStatus, Sight, State, Strike,
};

/// A choice is kept for the seat that made it; one for a seat not at the
/// table comes only from a damaged or forged log, and panicking here lets
/// the fold's guard name the event rather than keep a choice no exchange
/// can resolve.
/// A card played by a member: spent for the combat, its body points back at
/// once, its damage or armour in force, its strike on its way.
fn played(state: &mut State, seat: Seat, member: usize, card: &Played) {
    let st = &mut state.seats[seat as usize];
    let f = &mut st.party[member];
    if let Some(h) = f.cards.iter_mut().find(|h| h.id == card.id && !h.played) {
        h.played = true;
    }
    let e = &card.effect;
    if e.heal > 0 && f.condition == Condition::Fit {
        f.body = f
            .body
            .saturating_add(e.heal)
            .min(f.sheet.body_points.max(f.body));
    }
    if e.damage != 0 || e.armour != 0 {
        st.boosts.push(Boost {
            card: card.name.clone(),
            damage: e.damage,
            armour: e.armour,
            // An item, once shown, stays in effect for the rest of the fight.
            exchange: (card.kind != CardKind::Item).then_some(card.exchange),
            until: (card.kind != CardKind::Item && e.rounds > 1)
                .then(|| card.exchange.saturating_add(e.rounds - 1)),
        });
    }
    if let (true, Some(target)) = (e.strike > 0, card.target) {
        st.strikes.push(Strike {
            card: card.name.clone(),
            member,
            target,
            damage: e.strike,
            exchange: card.exchange,
        });
    }
}

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
        Fact::ManeuverCommitted { seat, hash, nonce } => {
            seated(state, *seat);
            state.pending.insert(
                *seat,
                Pending::Committed {
                    hash: hash.clone(),
                    nonce: nonce.clone(),
                },
            );
        }
        Fact::EscapeAnnounced { seat } => state.seats[*seat as usize].escaping = true,
        Fact::MemberSteppedIn { seat, to, .. } => {
            let st = &mut state.seats[*seat as usize];
            st.active = *to;
            st.party_turn = Some(state.exchanges);
        }
        Fact::MissileFired {
            seat, member, card, ..
        } => {
            state.seats[*seat as usize].party_turn = Some(state.exchanges);
            if let Some(card) = card {
                played(state, *seat, *member, card);
            }
        }
        Fact::CardsSelected {
            seat,
            member,
            cards,
            ..
        } => {
            state.seats[*seat as usize].party[*member].cards = cards
                .iter()
                .map(|id| HeldCard {
                    id: id.clone(),
                    played: false,
                })
                .collect();
        }
        Fact::CardPlayed { seat, member, card } => {
            let exchanges = state.exchanges;
            let st = &mut state.seats[*seat as usize];
            match card.kind {
                CardKind::Luck => st.luck_turn = Some(exchanges),
                CardKind::Tactic | CardKind::Spell => st.reveal_turn = Some(exchanges),
                CardKind::Item => {}
            }
            played(state, *seat, *member, card);
        }
        Fact::TargetsAwaited {
            seat,
            scored,
            attacks,
        } => {
            state.awaiting = Some(Awaiting {
                seat: *seat,
                scored: scored.clone(),
                attacks: *attacks,
            })
        }
        Fact::TargetsPicked { .. } => state.awaiting = None,
        Fact::ExchangeResolved(r) => {
            state.exchanges = r.number;
            if let Some(f) = state.field.as_deref_mut() {
                f.rounds = f.rounds.saturating_add(1);
            }
            state.pending.clear();
            state.awaiting = None;
            for k in &r.strikes {
                let defender = &mut state.seats[k.defender as usize];
                let active = defender.active;
                let body = &mut defender.party[active].body;
                *body = body.saturating_sub(k.damage);
            }
            // What worked in this exchange only is spent.
            for st in &mut state.seats {
                st.boosts.retain(|b| b.lasts_past(r.number));
                st.strikes.retain(|k| k.exchange > r.number);
            }
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
                        reveal: b.reveal,
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
            // A thrown weapon its owner retrieved in the fight is off the map.
            if let Some(field) = state.field.as_deref_mut() {
                let seats = &state.seats;
                field
                    .things
                    .retain(|t| t.owner.is_none_or(|o| seats[o as usize].orders.disarmed()));
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
            if let Some(f) = state.field.as_deref_mut() {
                f.stage = crate::lostworlds::field::state::Stage::Ended;
                f.winner = outcome.victors.first().map(|&s| f.pieces[s as usize].side);
            }
            state.outcome = Some(outcome.clone());
            for a in awards {
                let f = &mut state.seats[a.seat as usize].party[a.member];
                // `decide` checked these sums fit; saturating only keeps
                // the fold from ever panicking.
                let sheet = Arc::make_mut(&mut f.sheet);
                sheet.experience = sheet
                    .experience
                    .saturating_add(a.points)
                    .saturating_add(a.victory);
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
        f if f.on_field() => crate::lostworlds::field::apply::apply(state, fact),
        _ => unreachable!("every duel fact is folded above"),
    }
}
