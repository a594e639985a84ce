//! Folds a scenario's facts into the board. Nothing is checked here and
//! nothing can fail: `field::decide` decided it all.

use tabletape_events::Seat;

use crate::lostworlds::actions::{Condition, Deed, Fact, FallRoll};
use crate::lostworlds::field::state::{Done, Field, Placing, Position, Stage};
use crate::lostworlds::field::tables::{cost, Footing, Pounce, Recovery};
use crate::lostworlds::restriction::Restriction;
use crate::lostworlds::state::{SeatStatus, Sight, State, Told};

/// The order read to a fighter who has dropped the weapon.
pub const DROPPED_WEAPON: &str =
    "Do only Kick, Yellow or Green (except Wild Swing) until weapon has been retrieved.";

fn field(state: &mut State) -> &mut Field {
    state
        .field
        .as_deref_mut()
        .expect("a scenario fact in a scenario")
}

/// Body points taken outside the books: unconscious at 0, dead at -5, and
/// whatever the figure carried falls where it lies.
fn hurt(state: &mut State, seat: Seat, damage: i32) {
    if damage <= 0 {
        return;
    }
    let st = &mut state.seats[seat as usize];
    let f = &mut st.party[st.active];
    f.body = f.body.saturating_sub(damage);
    if f.condition == Condition::Fit && f.body <= 0 {
        f.condition = if f.body <= -5 {
            Condition::Dead
        } else {
            Condition::Unconscious
        };
        st.status = SeatStatus::Down;
        drop_load(state, seat);
    }
}

fn drop_load(state: &mut State, seat: Seat) {
    let f = field(state);
    let p = &mut f.pieces[seat as usize];
    if let Some(body) = p.bearing.take() {
        // It lies where its carrier stands (it travelled with it).
        f.pieces[body as usize].done.body_moved = true;
    }
    let p = &mut f.pieces[seat as usize];
    if let Some(id) = p.carrying.take() {
        let at = p.at;
        if let Some(t) = f.things.iter_mut().find(|t| t.id == id) {
            t.at = at;
            t.carried_by = None;
        }
    }
}

/// Body points and condition decided outside the books: falling out of
/// the fight drops whatever the figure carried.
fn wounded(state: &mut State, seat: Seat, body: i32, condition: Condition) {
    let st = &mut state.seats[seat as usize];
    let f = &mut st.party[st.active];
    f.body = body;
    if f.condition == Condition::Fit && condition != Condition::Fit {
        st.status = SeatStatus::Down;
    }
    f.condition = condition;
    if condition != Condition::Fit {
        drop_load(state, seat);
    }
}

/// The move passes to the next in initiative order; after the last the
/// unconscious roll to recover, or the combat phase begins.
fn next_mover(state: &mut State) {
    field(state).moved += 1;
    begin_move(state);
    if field(state).moved >= field(state).order.len() {
        let any = !crate::lostworlds::field::decide::recovering(state).is_empty();
        field(state).stage = if any { Stage::Recovery } else { Stage::Combat };
    }
}

fn place(state: &mut State, seat: Seat, to: crate::lostworlds::field::content::Hex) {
    let f = field(state);
    f.pieces[seat as usize].at = to;
    if let Some(body) = f.pieces[seat as usize].bearing {
        let b = &mut f.pieces[body as usize];
        b.at = to;
        b.done.body_moved = true;
    }
    if let Some(id) = f.pieces[seat as usize].carrying.clone() {
        if let Some(t) = f.things.iter_mut().find(|t| t.id == id) {
            t.at = to;
        }
    }
}

fn set(state: &mut State, seat: Seat, position: Position) {
    field(state).pieces[seat as usize].position = position;
}

/// The weapon knocked from a fighter's hand, as the books' order reads it.
fn disarm(state: &mut State, seat: Seat, by: Seat) {
    if let Ok(r) = Restriction::parse(DROPPED_WEAPON) {
        state.seats[seat as usize].orders.weapon = r.clauses.first().map(|c| Told {
            from: Some(by),
            text: r.text.clone(),
            clause: c.clone(),
        });
    }
}

/// The next mover's move begins: its height in points, less one while it
/// carries something, none when it halted someone before its move.
fn begin_move(state: &mut State) {
    let heights: Vec<i32> = state
        .seats
        .iter()
        .map(|s| s.fighter().sheet.height)
        .collect();
    let fit: Vec<bool> = state
        .seats
        .iter()
        .map(|s| s.fighter().condition == Condition::Fit)
        .collect();
    let f = field(state);
    // The unconscious have no move (struck down before their turn came),
    // nor has a figure gone to another plane.
    let moves = |f: &Field, s: Seat| fit[s as usize] && !f.piece(s).done.dematerialized;
    while f.moved < f.order.len() && !moves(f, f.order[f.moved]) {
        f.moved += 1;
    }
    let Some(&seat) = f.order.get(f.moved) else {
        return;
    };
    let p = &mut f.pieces[seat as usize];
    let carry = if p.carrying.is_some() || p.bearing.is_some() {
        cost::CARRY
    } else {
        0
    };
    let points = if p.done.halted_one {
        0
    } else {
        (heights[seat as usize].max(0) as u32).saturating_sub(carry)
    };
    p.points = points;
    p.allowance = points;
}

fn fall_rolled(state: &mut State, r: &FallRoll) {
    match r.footing {
        Footing::Steady => {}
        Footing::Unsteady => {
            if field(state).pieces[r.seat as usize].position == Position::Standing {
                set(state, r.seat, Position::OffBalance);
            }
        }
        Footing::Fall => {
            let from = field(state).pieces[r.seat as usize].at;
            let by = r.placer.unwrap_or(r.seat);
            field(state).placing.push(Placing {
                seat: r.seat,
                by,
                from,
                touched: false,
            });
        }
    }
}

pub fn apply(state: &mut State, fact: &Fact) {
    match fact {
        Fact::InitiativeRolled { order, .. } => {
            let f = field(state);
            for p in &mut f.pieces {
                p.ran_before = p.done.ran;
                p.done = Done::default();
                p.points = 0;
                p.allowance = 0;
            }
            f.order = order.clone();
            f.moved = 0;
            f.stage = Stage::Movement;
            begin_move(state);
        }
        Fact::Stepped { seat, cost, deed } => {
            let s = *seat;
            {
                let p = &mut field(state).pieces[s as usize];
                p.points = p.points.saturating_sub(*cost);
                p.done.moved = true;
            }
            stepped(state, s, deed);
        }
        Fact::HaltOffered { mover, by } => {
            field(state).offer = Some(crate::lostworlds::field::state::HaltOffer {
                mover: *mover,
                by: by.clone(),
            });
        }
        Fact::Halted { seat, mover } => {
            let f = field(state);
            f.offer = None;
            let m = &mut f.pieces[*mover as usize];
            m.points = 0;
            m.done.halted_by = Some(*seat);
            let h = &mut f.pieces[*seat as usize];
            h.done.halted_one = true;
            h.points = 0;
        }
        Fact::EngagementOffered { waiting, forced } => {
            field(state).engaging = Some(crate::lostworlds::field::state::Engaging {
                waiting: waiting.clone(),
                pairs: forced.clone(),
            });
        }
        Fact::Engaged { seat, foes } => {
            if let Some(e) = &mut field(state).engaging {
                e.waiting.retain(|s| s != seat);
                for &foe in foes {
                    e.join(*seat, foe);
                }
            }
        }
        Fact::LetPass { seat } => {
            let f = field(state);
            if let Some(o) = &mut f.offer {
                o.by.retain(|s| s != seat);
                if o.by.is_empty() {
                    f.offer = None;
                }
            }
        }
        Fact::MoveEnded { seat, undefended } => {
            let p = &mut field(state).pieces[*seat as usize];
            p.undefended = Some(*undefended);
            p.points = 0;
            next_mover(state);
        }
        Fact::Dematerialized { seat } => {
            let f = field(state);
            let mover = f.mover() == Some(*seat);
            let p = &mut f.pieces[*seat as usize];
            p.done.regenerating = true;
            p.done.dematerialized = true;
            p.points = 0;
            p.undefended = None;
            if mover {
                next_mover(state);
            }
        }
        Fact::Touched {
            seat,
            by,
            body,
            condition,
            ..
        } => {
            wounded(state, *seat, *body, *condition);
            let f = field(state);
            let from = f.pieces[*seat as usize].at;
            f.placing.push(Placing {
                seat: *seat,
                by: *by,
                from,
                touched: true,
            });
        }
        Fact::Displaced {
            seat,
            to,
            fell,
            body,
            condition,
            ..
        } => {
            place(state, *seat, *to);
            if *fell {
                set(state, *seat, Position::Down);
            }
            wounded(state, *seat, *body, *condition);
            let f = field(state);
            if !f.placing.is_empty() {
                f.placing.remove(0);
            }
        }
        Fact::Recovered { rolls } => {
            for r in rolls {
                let st = &mut state.seats[r.seat as usize];
                let f = &mut st.party[st.active];
                match r.result {
                    Recovery::Dies => {
                        f.condition = Condition::Dead;
                        f.body = f.body.min(-5);
                    }
                    Recovery::Body(n) => {
                        f.body = n;
                        if n > 0 {
                            f.condition = Condition::Fit;
                            st.status = SeatStatus::Aside;
                            // Coming to, the figure still lies where it fell.
                            field(state).pieces[r.seat as usize].position = Position::Down;
                        }
                    }
                }
            }
            field(state).stage = Stage::Combat;
        }
        Fact::CombatBegun { engaged, starts } => {
            for (i, st) in state.seats.iter_mut().enumerate() {
                if st.fighter().condition != Condition::Fit {
                    continue;
                }
                st.status = if engaged.contains_key(&(i as Seat)) {
                    SeatStatus::Fighting
                } else {
                    SeatStatus::Aside
                };
                st.sights.clear();
                st.orders.next_turn.clear();
                // A spell lasting rounds ends for a figure that starts the
                // phase outside every opponent's battle zone.
                if st.status == SeatStatus::Aside {
                    st.boosts.retain(|b| b.until.is_none());
                }
            }
            for s in starts {
                state.seats[s.seat as usize].sights.insert(
                    s.foe,
                    Sight {
                        picture: s.picture,
                        title: s.title.clone(),
                        range: s.range,
                        party: None,
                        reveal: None,
                    },
                );
                if let Some(tell) = &s.tell {
                    state.seats[s.foe as usize].orders.read(Some(s.seat), tell);
                }
            }
            state.pending.clear();
            for &s in engaged.keys() {
                // A carrier who is attacked drops what it carries.
                drop_load(state, s);
                field(state).pieces[s as usize].done.fought = true;
            }
            let f = field(state);
            f.engaged = engaged.clone();
            f.engaging = None;
            f.rounds = 0;
            f.stage = Stage::Combat;
        }
        Fact::CombatEnded { positions, at_risk } => {
            // Everyone held back, or the phase is fought out.
            field(state).engaging = None;
            for &(s, p) in positions {
                set(state, s, p);
            }
            // A phase with no fight at all still began outside every battle
            // zone for everyone in it: spells lasting rounds end.
            let engaged = field(state).engaged.clone();
            for (i, st) in state.seats.iter_mut().enumerate() {
                if !engaged.contains_key(&(i as Seat)) {
                    st.boosts.retain(|b| b.until.is_none());
                }
            }
            for st in &mut state.seats {
                if st.status == SeatStatus::Fighting || st.status == SeatStatus::Aside {
                    st.status = SeatStatus::Aside;
                }
            }
            let f = field(state);
            f.engaged.clear();
            f.at_risk = at_risk.clone();
            f.stage = Stage::Falls;
        }
        Fact::FallsRolled { rolls } => {
            for r in rolls {
                fall_rolled(state, r);
            }
            field(state).at_risk.clear();
        }
        Fact::FellOnto {
            seat,
            onto,
            land,
            result,
            body,
            condition,
            ..
        } => {
            place(state, *seat, *land);
            match result {
                Pounce::Flattened => {
                    set(state, *seat, Position::OffBalance);
                    set(state, *onto, Position::Down);
                    hurt(
                        state,
                        *onto,
                        crate::lostworlds::field::tables::POUNCE_DAMAGE,
                    );
                }
                Pounce::Disarmed => {
                    set(state, *seat, Position::OffBalance);
                    set(state, *onto, Position::OffBalance);
                    disarm(state, *onto, *seat);
                }
                Pounce::Staggered => {
                    set(state, *seat, Position::OffBalance);
                    set(state, *onto, Position::OffBalance);
                }
                Pounce::Missed => set(state, *seat, Position::Down),
            }
            wounded(state, *seat, *body, *condition);
            let f = field(state);
            if !f.placing.is_empty() {
                f.placing.remove(0);
            }
        }
        Fact::FallenPlaced {
            seat,
            to,
            body,
            condition,
            ..
        } => {
            place(state, *seat, *to);
            set(state, *seat, Position::Down);
            wounded(state, *seat, *body, *condition);
            let f = field(state);
            if !f.placing.is_empty() {
                f.placing.remove(0);
            }
        }
        Fact::Regenerated {
            seat,
            healed,
            spell,
            ..
        } => {
            let st = &mut state.seats[*seat as usize];
            let f = &mut st.party[st.active];
            f.body = f.body.saturating_add(*healed);
            let p = &mut field(state).pieces[*seat as usize];
            p.spell_spent = p.spell_spent.saturating_sub(*spell);
            // Airi or a Wraith is back on its space.
            p.done.dematerialized = false;
        }
        Fact::TurnEnded { .. } => {
            let f = field(state);
            f.turn = f.turn.saturating_add(1);
            f.stage = Stage::Initiative;
        }
        _ => {}
    }
}

fn stepped(state: &mut State, s: Seat, deed: &Deed) {
    match deed {
        Deed::Moved { to, .. } | Deed::Crawled { to, .. } => {
            place(state, s, *to);
            let done = &mut field(state).pieces[s as usize].done;
            done.entered += 1;
            done.starred |= matches!(deed, Deed::Crawled { .. });
        }
        Deed::BrokeOff { to, .. } => place(state, s, *to),
        Deed::Ran => {
            let p = &mut field(state).pieces[s as usize];
            p.done.ran = true;
            p.points = p.points.saturating_add(cost::RUN_BONUS);
        }
        Deed::JumpedDown {
            to,
            position,
            damage,
            ..
        } => {
            place(state, s, *to);
            set(state, s, *position);
            hurt(state, s, *damage);
        }
        Deed::JumpedOnto {
            target,
            land,
            result,
            damage,
            ..
        } => {
            place(state, s, *land);
            match result {
                Pounce::Flattened => {
                    set(state, s, Position::OffBalance);
                    set(state, *target, Position::Down);
                    hurt(state, *target, *damage);
                }
                Pounce::Disarmed => {
                    set(state, s, Position::OffBalance);
                    set(state, *target, Position::OffBalance);
                    disarm(state, *target, s);
                }
                Pounce::Staggered => {
                    set(state, s, Position::OffBalance);
                    set(state, *target, Position::OffBalance);
                }
                Pounce::Missed => {
                    set(state, s, Position::Down);
                    hurt(state, s, *damage);
                }
            }
        }
        Deed::JumpedOver { to, .. } => {
            place(state, s, *to);
            // The move ends where the jump lands.
            field(state).pieces[s as usize].points = 0;
        }
        Deed::Blocked { target } => {
            let f = field(state);
            f.pieces[s as usize].done.starred = true;
            f.pieces[*target as usize].done.blocked = true;
        }
        Deed::FellProne => set(state, s, Position::Down),
        Deed::StoodUp | Deed::RegainedBalance => {
            set(state, s, Position::Standing);
            field(state).pieces[s as usize].done.starred = true;
        }
        Deed::PickedUp { object }
            if field(state)
                .things
                .iter()
                .any(|t| &t.id == object && t.owner == Some(s)) =>
        {
            // A thrown weapon back in its owner's hand.
            let f = field(state);
            f.things.retain(|t| &t.id != object);
            f.pieces[s as usize].done.starred = true;
            state.seats[s as usize].orders.weapon = None;
        }
        Deed::PickedUp { object } => {
            let f = field(state);
            f.pieces[s as usize].carrying = Some(object.clone());
            f.pieces[s as usize].done.starred = true;
            if let Some(t) = f.things.iter_mut().find(|t| &t.id == object) {
                t.carried_by = Some(s);
            }
        }
        Deed::Dropped { object, at } => {
            let f = field(state);
            f.pieces[s as usize].carrying = None;
            if let Some(t) = f.things.iter_mut().find(|t| &t.id == object) {
                t.at = *at;
                t.carried_by = None;
            }
        }
        Deed::LiftedBody { body } => {
            let f = field(state);
            f.pieces[s as usize].bearing = Some(*body);
            f.pieces[s as usize].done.starred = true;
            f.pieces[*body as usize].done.body_moved = true;
        }
        Deed::LaidDown { body, at } => {
            let f = field(state);
            f.pieces[s as usize].bearing = None;
            f.pieces[*body as usize].at = *at;
        }
        Deed::ThrewBody { body, landing, .. } => {
            let f = field(state);
            f.pieces[s as usize].bearing = None;
            f.pieces[s as usize].done.starred = true;
            f.pieces[*body as usize].at = landing.at;
            if let Some(struck) = landing.struck {
                set(state, struck, Position::Down);
                drop_load(state, struck);
                hurt(state, struck, landing.damage);
            }
        }
        Deed::Threw {
            object, landing, ..
        } => {
            let f = field(state);
            f.pieces[s as usize].carrying = None;
            f.pieces[s as usize].done.starred = true;
            if let Some(t) = f.things.iter_mut().find(|t| &t.id == object) {
                t.at = landing.at;
                t.carried_by = None;
            }
            if let Some(struck) = landing.struck {
                set(state, struck, Position::Down);
                drop_load(state, struck);
                hurt(state, struck, landing.damage);
            }
        }
        Deed::ThrewWeapon {
            weapon,
            target,
            at,
            hit,
            damage,
            ..
        } => {
            let f = field(state);
            f.pieces[s as usize].done.starred = true;
            f.things.push(crate::lostworlds::field::state::Thing {
                id: weapon.clone(),
                kind: "weapon".into(),
                at: *at,
                carried_by: None,
                owner: Some(s),
            });
            disarm(state, s, s);
            if *hit {
                if field(state).pieces[*target as usize].position == Position::Standing {
                    set(state, *target, Position::OffBalance);
                }
                hurt(state, *target, *damage);
            }
        }
        Deed::Examined { object, .. } => {
            let f = field(state);
            f.pieces[s as usize].done.starred = true;
            if !f.examined.contains(object) {
                f.examined.push(object.clone());
            }
        }
        Deed::ShovedObject { object, to, .. } => {
            if let Some(t) = field(state).things.iter_mut().find(|t| &t.id == object) {
                t.at = *to;
            }
        }
        Deed::Shoved { hard, roll, .. } => {
            if *hard {
                field(state).pieces[s as usize].done.shoved_hard = true;
            }
            fall_rolled(state, roll);
        }
        Deed::Cast {
            card,
            target,
            extra,
            damage,
            heal,
            ..
        } => {
            let p = &mut field(state).pieces[s as usize];
            p.done.starred = true;
            p.spell_spent = p.spell_spent.saturating_add(*extra);
            let st = &mut state.seats[s as usize];
            let f = &mut st.party[st.active];
            if let Some(h) = f.cards.iter_mut().find(|h| &h.id == card && !h.played) {
                h.played = true;
            }
            if *heal > 0 {
                f.body = f
                    .body
                    .saturating_add(*heal)
                    .min(f.sheet.body_points.max(f.body));
            }
            if let Some(t) = target {
                hurt(state, *t, *damage);
            }
        }
        Deed::Regenerates => {
            let p = &mut field(state).pieces[s as usize];
            p.done.regenerating = true;
            p.done.starred = true;
        }
        Deed::Slew { target } => {
            let f = field(state);
            f.pieces[s as usize].done.starred = true;
            let t = &mut f.pieces[*target as usize].done;
            t.slain = t
                .slain
                .saturating_add(crate::lostworlds::field::tables::SLAY_BONUS);
        }
    }
}
