//! Every action open now, as `legal` lists it.

use super::*;

/// What record mode asks of a leg bought that the table has not typed yet.
const LEG_CARD: &str =
    "card: its cost and Equipped side ({cost, equipped: {appeal, mobility, efficiency, maintenance, text}})";

/// Every action open now, for `seat` or (with `None`) the whole table.
pub fn legal(state: &State, seat: Option<Seat>) -> Vec<Legal<Action>> {
    let Phase::Playing(turn) = state.phase else {
        return Vec::new();
    };
    let physical = state.dice == DiceMode::Physical;
    let dead: Vec<Seat> = (0..state.londoners.len() as Seat)
        .filter(|&s| state.londoner(s).dead)
        .collect();
    if !dead.is_empty() {
        return dead
            .into_iter()
            .filter(|&d| seat.is_none_or(|s| s == d))
            .map(|d| {
                let action = Action::DrawCharacter {
                    seat: d,
                    drew: None,
                    card: None,
                };
                if state.record {
                    Legal::needing(
                        action,
                        vec![format!(
                            "card: {}'s character card as dealt ({{name, start, money, health, goals}})",
                            state.name(d)
                        )],
                    )
                } else if physical {
                    let mut l = Legal::needing(
                        action,
                        vec![format!("drew: {}'s new character card", state.name(d))],
                    );
                    l.picks = vec![Pick {
                        field: "drew".into(),
                        values: state.unused.clone(),
                        many: false,
                        count: None,
                    }];
                    l
                } else {
                    Legal::ready(action)
                }
            })
            .collect();
    }
    let me = turn.seat;
    if seat.is_some_and(|s| s != me) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let roll = |action: Action, what: &str| {
        if physical {
            let mut l = Legal::needing(action, vec![format!("roll: the {what}, 1-6")]);
            l.picks.push(Pick::die("roll"));
            l
        } else {
            Legal::ready(action)
        }
    };
    match turn.stage {
        Stage::Upkeep => {
            let legs = &state.londoner(me).legs;
            // Every set of legs to sell that leaves the upkeep affordable.
            for mask in 0u32..(1 << legs.len().min(8)) {
                let sell: Vec<String> = legs
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| mask & (1 << i) != 0)
                    .map(|(_, l)| l.clone())
                    .collect();
                let (proceeds, due) = state.upkeep_selling(me, &sell);
                if state.londoner(me).money + proceeds >= due {
                    out.push(Legal::ready(Action::Upkeep { sell }));
                }
            }
        }
        Stage::Sickroom => out.push(roll(Action::Recover { roll: None }, "healing die")),
        Stage::Act => {
            let dice = state.move_dice(me);
            out.push(if physical {
                let mut l = Legal::needing(
                    Action::Roll { rolls: None },
                    vec![format!(
                        "rolls: {dice} movement {}, 1-6 each",
                        if dice == 1 {
                            "die"
                        } else {
                            "dice (crutches: the best counts)"
                        }
                    )],
                );
                l.picks.push(Pick::dice("rolls", dice as usize));
                l
            } else {
                Legal::ready(Action::Roll { rolls: None })
            });
            let mut candidates = vec![
                Action::Work {
                    risk: false,
                    roll: None,
                    story: None,
                    card: None,
                },
                Action::Work {
                    risk: true,
                    roll: None,
                    story: None,
                    card: None,
                },
                Action::FindLove {
                    roll: None,
                    story: None,
                    card: None,
                },
                Action::BuyProperty { card: None },
                Action::PersonalGoal,
                Action::Recover { roll: None },
            ];
            candidates.extend(
                state
                    .pile
                    .iter()
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .map(|leg| Action::BuyLeg {
                        leg: leg.clone(),
                        card: None,
                    }),
            );
            // Record mode: a leg the table has not typed yet.
            let at_store = state.londoner(me).at == Place::Location(state.leg_store.clone());
            if state.record && at_store {
                out.push(Legal::needing(
                    Action::BuyLeg {
                        leg: "<the leg's name>".into(),
                        card: None,
                    },
                    vec![LEG_CARD.into()],
                ));
            }
            for action in candidates {
                // Record mode: a location whose card the table types now.
                let typed = match check_action(state, me, &action) {
                    Ok(()) => None,
                    Err(r) if r.rule == "legless.card_needed" => Some(format!(
                        "card: what the card of the {} says ({{work, love, property}})",
                        state.location_name(&state.londoner(me).at.to_string())
                    )),
                    Err(_) => continue,
                };
                let mut l = match &action {
                    Action::Work { risk: true, .. } | Action::FindLove { .. } => {
                        let mut l = roll(action, "Risk Booklet die");
                        if physical {
                            l.may = vec![
                                "story: what your own booklet's story says ({name, text, effects})"
                                    .into(),
                            ];
                        }
                        l
                    }
                    Action::Recover { .. } => roll(action, "healing die"),
                    _ => Legal::ready(action),
                };
                l.needs.extend(typed);
                out.push(l);
            }
            let l = state.londoner(me);
            if l.equipped.is_some() {
                out.push(Legal::ready(Action::Equip { leg: None }));
            }
            for leg in &l.legs {
                if l.equipped.as_ref() != Some(leg)
                    && state.legs[leg].equipped.crutch_rolls.is_none()
                {
                    out.push(Legal::ready(Action::Equip {
                        leg: Some(leg.clone()),
                    }));
                }
            }
        }
        Stage::Moving { steps } => {
            let board = state.board();
            let from = &state.londoner(me).at;
            let mut paths = vec![Vec::new()];
            paths.extend(board.reachable(from, steps).into_iter().map(|(_, p)| p));
            for path in paths {
                let crossed = crossings(board, &path);
                let action = Action::Move {
                    path,
                    drew: None,
                    cards: None,
                };
                out.push(if state.record && crossed > 0 {
                    Legal::needing(
                        action,
                        vec![format!(
                            "cards: what the {crossed} street event {} picked up on the way say, in order ([{{name, text, effects}}])",
                            if crossed == 1 { "card" } else { "cards" }
                        )],
                    )
                } else if physical && crossed > 0 {
                    let mut l = Legal::needing(
                        action,
                        vec![format!(
                            "drew: the {crossed} street event {} picked up on the way, in order",
                            if crossed == 1 { "card" } else { "cards" }
                        )],
                    );
                    l.picks = vec![Pick {
                        field: "drew".into(),
                        values: state
                            .deck
                            .iter()
                            .collect::<BTreeSet<_>>()
                            .into_iter()
                            .cloned()
                            .collect(),
                        many: true,
                        count: None,
                    }];
                    l.may = vec!["cards: what your own cards say, in place of `drew`".into()];
                    l
                } else {
                    Legal::ready(action)
                });
            }
        }
    }
    // Selling is free at any point of one's own turn.
    for leg in state.londoner(me).legs.iter().collect::<BTreeSet<_>>() {
        out.push(Legal::ready(Action::SellLeg { leg: leg.clone() }));
    }
    out
}
