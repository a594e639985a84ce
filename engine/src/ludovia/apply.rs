//! Folds Ludovia facts into state. No rule is checked here and nothing can
//! fail: `decide` already chose every card, street and die.

use super::actions::Fact;
use super::board::Space;
use super::decide::ACTION_POINTS;
use super::state::{Phase, Policeman, Stage, State, Turn};

fn take(list: &mut Vec<String>, name: &str) {
    if let Some(i) = list.iter().position(|c| c == name) {
        list.remove(i);
    }
}

fn turn(state: &mut State) -> Option<&mut Turn> {
    match &mut state.phase {
        Phase::Playing(t) => Some(t),
        _ => None,
    }
}

pub fn apply(state: &mut State, fact: &Fact) {
    match fact {
        Fact::OrderRolled { rolls } => {
            let best = rolls.iter().map(|r| r.roll).max().unwrap_or(0);
            let contenders = rolls
                .iter()
                .filter(|r| r.roll == best)
                .map(|r| r.seat)
                .collect();
            state.phase = Phase::Order { contenders };
        }
        Fact::OrderSettled { order } => {
            state.order = order.clone();
            let n = order.len();
            state.phase = Phase::Placing { seat: order[n - 1] };
        }
        Fact::PolicemanPlaced { at, facing, .. } => {
            state.policemen.push(Policeman {
                at: *at,
                facing: *facing,
            });
            if let Phase::Placing { .. } = state.phase {
                let n = state.order.len();
                state.phase = if state.policemen.len() == 1 {
                    Phase::Placing {
                        seat: state.order[n - 2],
                    }
                } else {
                    Phase::Playing(Turn {
                        seat: state.order[0],
                        stage: Stage::Policeman,
                        ap: ACTION_POINTS,
                        ending: false,
                        from: Some(state.thieves[state.order[0] as usize].at),
                    })
                };
                if state.policemen.len() == 2 {
                    state.round = 1;
                }
            }
        }
        Fact::PolicemanMoved {
            policeman,
            to,
            facing,
            ..
        } => {
            let p = &mut state.policemen[*policeman];
            p.at = *to;
            p.facing = *facing;
            if let Some(t) = turn(state) {
                if t.stage == Stage::Policeman {
                    t.stage = Stage::Actions;
                }
            }
        }
        Fact::TurnBegan { seat, round } => {
            state.round = *round;
            state.phase = Phase::Playing(Turn {
                seat: *seat,
                stage: Stage::Policeman,
                ap: ACTION_POINTS,
                ending: false,
                from: Some(state.thieves[*seat as usize].at),
            });
        }
        Fact::StageSet { stage, .. } => {
            if let Some(t) = turn(state) {
                t.stage = *stage;
            }
        }
        Fact::ActionPointSpent { left, .. } => {
            if let Some(t) = turn(state) {
                t.ap = *left;
            }
        }
        Fact::Released { seat } => state.thieves[*seat as usize].in_prison = false,
        Fact::TrialHeld {
            seat, acquitted, ..
        } => {
            if *acquitted {
                state.thieves[*seat as usize].in_prison = false;
            }
        }
        Fact::ChoiceAwaited { choice, .. } => {
            if let Some(t) = turn(state) {
                t.stage = Stage::Choice(*choice);
            }
        }
        Fact::ThiefMoved { seat, to, .. } => state.thieves[*seat as usize].at = *to,
        Fact::ThiefArrested { seat, .. } => {
            let t = &mut state.thieves[*seat as usize];
            t.at = Space::Prison;
            t.in_prison = true;
        }
        Fact::RooftopRobbed {
            seat,
            rooftop,
            card,
            event,
        } => {
            state.robbed.insert(*rooftop);
            let name = card.clone().unwrap_or_default();
            take(&mut state.pool, &name);
            if event.is_some() {
                // An event is revealed, resolved and discarded; the turn ends.
                state.rooftop_discard.push(name);
                if let Some(t) = turn(state) {
                    t.ending = true;
                }
            } else {
                state.thieves[*seat as usize].hand.push(name);
            }
        }
        Fact::JumpMade { seat, to, .. } => state.thieves[*seat as usize].at = *to,
        Fact::ThiefFell { seat, street, .. } => {
            state.thieves[*seat as usize].at = Space::Street(*street)
        }
        Fact::StealTried {
            seat,
            from,
            won,
            card,
            ..
        } => {
            if *won {
                if let Some(card) = card {
                    take(&mut state.thieves[*from as usize].hand, card);
                    state.thieves[*seat as usize].hand.push(card.clone());
                }
            }
        }
        Fact::KnockDownTried { .. } => {}
        Fact::EquipmentBought {
            seat, item, paid, ..
        } => {
            let t = &mut state.thieves[*seat as usize];
            for c in paid {
                take(&mut t.hand, c);
            }
            t.equipment.push(item.clone());
            state.rooftop_discard.extend(paid.iter().cloned());
            take(&mut state.offer, item);
        }
        Fact::OfferRenewed { to_bottom, drawn } => {
            for c in to_bottom {
                take(&mut state.offer, c);
            }
            state.deck_bottom.extend(to_bottom.iter().cloned());
            for c in drawn {
                draw_from_deck(state, c);
                state.offer.push(c.clone());
            }
        }
        Fact::EquipmentFound { seat, item } => {
            if let Some(item) = item {
                draw_from_deck(state, item);
                state.thieves[*seat as usize].equipment.push(item.clone());
            }
        }
        Fact::EquipmentUsed { seat, item } | Fact::EquipmentDiscarded { seat, item } => {
            take(&mut state.thieves[*seat as usize].equipment, item);
            state.equipment_discard.push(item.clone());
        }
        // The item stays where it is; the fact is for the story.
        Fact::EquipmentActed { .. } => {}
        Fact::TreasureDiscarded { seat, card } => {
            take(&mut state.thieves[*seat as usize].hand, card);
            state.rooftop_discard.push(card.clone());
        }
        Fact::FameGained {
            seat, cards, fame, ..
        } => {
            let t = &mut state.thieves[*seat as usize];
            for c in cards {
                take(&mut t.hand, c);
            }
            t.fame = *fame;
            state.rooftop_discard.extend(cards.iter().cloned());
        }
        Fact::TurnEnded { .. } => {
            if let Some(t) = turn(state) {
                t.ap = 0;
            }
        }
        Fact::NightEnded { outcome } => {
            state.outcome = Some(outcome.clone());
            state.phase = Phase::Over;
        }
    }
}

/// Takes `card` off the deck: from the unseen part while it lasts, else
/// from the cards put under it.
fn draw_from_deck(state: &mut State, card: &str) {
    if state.deck_unseen.is_empty() {
        take(&mut state.deck_bottom, card);
    } else {
        take(&mut state.deck_unseen, card);
    }
}
