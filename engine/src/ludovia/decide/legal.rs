//! Every action open now, for `seat` or the table, as `legal` lists it.

use super::*;

/// Every action open now, for `seat` or the table.
pub fn legal(state: &State, seat: Option<Seat>, dice: DiceMode) -> Vec<Legal<Action>> {
    let physical = dice == DiceMode::Physical;
    let need = |l: Legal<Action>, what: &str| {
        if physical {
            Legal::needing(l.action, vec![what.to_string()])
        } else {
            l
        }
    };
    let mut out = Vec::new();
    match &state.phase {
        Phase::Over => {}
        Phase::Order { contenders } => {
            let names: Vec<&str> = contenders.iter().map(|&s| state.name(s)).collect();
            out.push(need(
                Legal::ready(Action::RollForOrder { rolls: None }),
                &format!("rolls: one d6 each, in this order: {}", names.join(", ")),
            ));
        }
        Phase::Placing { seat: placer } => {
            if seat.is_none_or(|s| s == *placer) {
                out.extend(placements(state, state.grid().posts()));
            }
        }
        Phase::Playing(turn) => {
            if seat.is_some_and(|s| s != turn.seat) {
                return out;
            }
            let me = turn.seat;
            let t = state.thief(me);
            match turn.stage {
                Stage::Policeman => {
                    for i in 0..state.policemen.len() {
                        if t.in_prison {
                            for step in [Step::Left, Step::Right, Step::Advance] {
                                out.push(Legal::ready(Action::MovePoliceman {
                                    policeman: i,
                                    roll: None,
                                    step: Some(step),
                                }));
                            }
                        } else {
                            out.push(need(
                                Legal::ready(Action::MovePoliceman {
                                    policeman: i,
                                    roll: None,
                                    step: None,
                                }),
                                "roll: the policeman die, 1-6",
                            ));
                        }
                    }
                }
                Stage::Trial => out.push(need(
                    Legal::ready(Action::StandTrial { roll: None }),
                    "roll: the trial die, 1-6",
                )),
                Stage::Choice(choice) => {
                    let treasures = || {
                        distinct(&t.hand)
                            .into_iter()
                            .map(|card| Legal::ready(Action::DiscardTreasure { card }))
                    };
                    let items = || {
                        distinct(&t.equipment)
                            .into_iter()
                            .map(|item| Legal::ready(Action::DiscardEquipment { item }))
                    };
                    match choice {
                        Choice::ConvictionDiscard => out.extend(treasures()),
                        Choice::DogDiscard => {
                            out.extend(treasures());
                            out.extend(items());
                        }
                        Choice::EquipmentOverflow => out.extend(items()),
                        Choice::TrapLanding => {
                            if let Space::Cell { row, col } = t.at {
                                for street in state.grid().block_streets((row / 3, col / 3)) {
                                    out.push(Legal::ready(Action::Land { street }));
                                }
                            }
                        }
                        Choice::StakeOutPoliceman => {
                            out.extend(placements(state, stake_out_posts(state)))
                        }
                        Choice::SpareItem => {
                            if let Some(spare) = state.spare_item(me) {
                                out.extend(spare_uses(state, me, &spare, physical));
                                out.push(Legal::ready(Action::DiscardEquipment { item: spare }));
                            }
                        }
                    }
                }
                Stage::Actions => out.extend(turn_actions(state, me, physical)),
            }
        }
    }
    if physical {
        for l in &mut out {
            l.picks = picks(state, &l.action);
        }
    }
    out
}

/// The cards a physical draw may name, for a picker: every rooftop card or
/// item of the box. The whole catalogue, never what is left face down,
/// which would tell a seat what the others hold.
fn picks(state: &State, action: &Action) -> Vec<Pick> {
    let cards = || state.faces.keys().cloned().collect::<Vec<_>>();
    let items = || state.items.keys().cloned().collect::<Vec<_>>();
    let pick = |field: &str, values: Vec<String>, many: bool| Pick {
        field: field.into(),
        values,
        many,
        count: None,
    };
    match action {
        Action::Rob { .. } => vec![pick("drew", cards(), false), pick("found", items(), false)],
        Action::Steal { .. } => vec![pick("took", cards(), false)],
        Action::Buy { .. } => vec![pick("drew", items(), true)],
        _ => Vec::new(),
    }
}

fn distinct(names: &[String]) -> Vec<String> {
    let set: BTreeSet<&String> = names.iter().collect();
    set.into_iter().cloned().collect()
}

fn placements(state: &State, posts: Vec<Post>) -> Vec<Legal<Action>> {
    let mut out = Vec::new();
    if state.policemen.len() >= state.max_policemen() {
        return out;
    }
    for at in posts {
        if state.rules < 2 && state.policeman_at(at).is_some() {
            continue;
        }
        for facing in Facing::ALL {
            if !state.grid().faces_edge(at, facing) {
                out.push(Legal::ready(Action::PlacePoliceman { at, facing }));
            }
        }
    }
    out
}

fn turn_actions(state: &State, me: Seat, physical: bool) -> Vec<Legal<Action>> {
    let t = state.thief(me);
    let mut out = vec![Legal::ready(Action::EndTurn)];
    let need = |action: Action, what: &str| {
        Legal::needing(
            action,
            if physical {
                vec![what.to_string()]
            } else {
                Vec::new()
            },
        )
    };
    let mask = state.has(me, Effect::Mask);
    for (to, passing) in moves_from(state, t.at) {
        match police(state, me, t.at, to, passing) {
            Police::Clear => out.push(Legal::ready(Action::Move { to, mask: false })),
            Police::Arrest(_) | Police::Leaving(_) => {
                out.push(Legal::ready(Action::Move { to, mask: false }));
                if mask {
                    out.push(Legal::ready(Action::Move { to, mask: true }));
                }
            }
            Police::Blocked(_) => {
                if mask {
                    out.push(Legal::ready(Action::Move { to, mask: true }));
                }
            }
        }
    }
    let room = t.hand.len() < state.carry_limit(me);
    if state.is_rooftop(t.at) && !state.robbed.contains(&t.at) && room {
        out.push(need(
            Action::Rob {
                drew: None,
                found: None,
            },
            "drew: the rooftop card turned up (and found: the equipment card, for an Equipment event)",
        ));
    }
    if let (true, Space::Cell { row, col }) = (state.is_rooftop(t.at), t.at) {
        for ((r, c), _) in state.grid().across(row, col) {
            let to = Space::Cell { row: r, col: c };
            if !state.is_rooftop(to) {
                continue;
            }
            if t.hand.is_empty() {
                out.push(Legal::ready(Action::Jump {
                    to,
                    roll: None,
                    rope: false,
                }));
            } else {
                out.push(need(
                    Action::Jump {
                        to,
                        roll: None,
                        rope: false,
                    },
                    "roll: the jump die, 1-6",
                ));
                if state.has(me, Effect::RopeAndGrapple) {
                    out.push(Legal::ready(Action::Jump {
                        to,
                        roll: None,
                        rope: true,
                    }));
                }
            }
        }
        let make_ups: &[bool] = if state.has(me, Effect::MakeUp) {
            &[false, true]
        } else {
            &[false]
        };
        for other in 0..state.thieves.len() as Seat {
            if other == me {
                continue;
            }
            let there = state.thief(other).at;
            if there == t.at && room && !state.thief(other).hand.is_empty() {
                for &make_up in make_ups {
                    out.push(need(
                        Action::Steal {
                            from: other,
                            rolls: None,
                            took: None,
                            make_up,
                        },
                        "rolls: the attacker's d6 then the defender's (and took: the card taken, if the attacker wins)",
                    ));
                }
            }
            if face_off(state, me, other, true).is_ok() {
                if let Space::Cell { row: r2, col: c2 } = there {
                    for street in state.grid().block_streets((r2 / 3, c2 / 3)) {
                        for &make_up in make_ups {
                            out.push(need(
                                Action::KnockDown {
                                    target: other,
                                    street,
                                    rolls: None,
                                    make_up,
                                },
                                "rolls: the attacker's d6 then the defender's",
                            ));
                        }
                    }
                }
            }
        }
    }
    let at_market = t.at == Space::Lair
        || matches!(t.at, Space::Cell { row, col } if state.cell(row, col) == Some(CellKind::BlackMarket));
    if at_market {
        let payments = payments(&t.hand);
        for item in distinct(&state.offer) {
            if t.equipment.contains(&item) {
                continue;
            }
            let cost = state.items[&item].cost;
            for pay in &payments {
                if state.sum_value(pay).is_some_and(|v| v >= cost) {
                    out.push(need(
                        Action::Buy {
                            item: item.clone(),
                            pay: pay.clone(),
                            drew: None,
                        },
                        "drew: the equipment cards turned up for the new offer",
                    ));
                }
            }
        }
    }
    if t.at == Space::Lair && !t.hand.is_empty() {
        out.push(Legal::ready(Action::CashIn { cards: None }));
    }
    if state.has(me, Effect::Whistle) {
        for policeman in 0..state.policemen.len() {
            out.push(need(
                Action::Whistle {
                    policeman,
                    roll: None,
                },
                "roll: the policeman die, 1-6",
            ));
        }
    }
    out
}

/// The actions that use a spare blue item at once.
fn spare_uses(state: &State, me: Seat, spare: &str, physical: bool) -> Vec<Legal<Action>> {
    let effect = state.items[spare].effect;
    turn_actions(state, me, physical)
        .into_iter()
        .filter(|l| match &l.action {
            Action::Move { mask, .. } => *mask && effect == Effect::Mask,
            Action::Jump { rope, .. } => *rope && effect == Effect::RopeAndGrapple,
            Action::Steal { make_up, .. } => *make_up && effect == Effect::MakeUp,
            Action::KnockDown {
                target, make_up, ..
            } => {
                (*make_up && effect == Effect::MakeUp)
                    || (effect == Effect::Bolas && state.thief(*target).at != state.thief(me).at)
            }
            Action::Whistle { .. } => effect == Effect::Whistle,
            _ => false,
        })
        .collect()
}

/// Every distinct non-empty selection of cards from a hand.
fn payments(hand: &[String]) -> Vec<Vec<String>> {
    let mut sorted = hand.to_vec();
    sorted.sort();
    let mut seen = BTreeSet::new();
    for mask in 1u32..(1 << sorted.len()) {
        let pick: Vec<String> = (0..sorted.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| sorted[i].clone())
            .collect();
        seen.insert(pick);
    }
    seen.into_iter().collect()
}
