//! Folding Legless in London facts into state. Never fails: `decide` has
//! checked every fact, so each one only moves money, hearts, cards and pawns.

use super::actions::Fact;
use super::board::Place;
use super::state::{Outcome, Phase, State, Turn};
use std::sync::Arc;

fn insert_sorted(list: &mut Vec<String>, name: &str) {
    let at = list.partition_point(|n| n.as_str() < name);
    list.insert(at, name.to_string());
}

fn remove_one(list: &mut Vec<String>, name: &str) {
    if let Some(i) = list.iter().position(|n| n == name) {
        list.remove(i);
    }
}

pub fn apply(s: &mut State, fact: &Fact) {
    match fact {
        Fact::TurnBegan { seat, round, stage } => {
            s.round = *round;
            s.phase = Phase::Playing(Turn {
                seat: *seat,
                stage: *stage,
            });
        }
        Fact::MoveGranted { seat, steps } => {
            s.phase = Phase::Playing(Turn {
                seat: *seat,
                stage: super::state::Stage::Moving { steps: *steps },
            })
        }
        Fact::Handed { from, to, amount } => {
            let l = &mut s.londoners[*from as usize];
            l.money = l.money.saturating_sub(*amount);
            let l = &mut s.londoners[*to as usize];
            l.money = l.money.saturating_add(*amount);
        }
        Fact::StageSet { seat, stage } => {
            s.phase = Phase::Playing(Turn {
                seat: *seat,
                stage: *stage,
            })
        }
        Fact::TurnMissed { seat } => {
            let l = &mut s.londoners[*seat as usize];
            l.miss_turns = l.miss_turns.saturating_sub(1);
        }
        Fact::UpkeepPaid { seat, amount }
        | Fact::Paid { seat, amount }
        | Fact::SickroomPaid { seat, fee: amount } => {
            let l = &mut s.londoners[*seat as usize];
            l.money = l.money.saturating_sub(*amount);
        }
        Fact::Earned { seat, amount } | Fact::Worked { seat, amount, .. } => {
            let l = &mut s.londoners[*seat as usize];
            l.money = l.money.saturating_add(*amount);
        }
        Fact::LegBought {
            seat,
            leg,
            cost,
            equipped,
        } => {
            // A leg the table typed in record mode joins the box.
            if let (false, Some(side)) = (s.legs.contains_key(leg), equipped) {
                Arc::make_mut(&mut s.legs).insert(
                    leg.clone(),
                    super::content::Leg {
                        name: leg.clone(),
                        cost: *cost,
                        equipped: side.clone(),
                        sample: false,
                    },
                );
            }
            remove_one(&mut s.pile, leg);
            let l = &mut s.londoners[*seat as usize];
            l.money = l.money.saturating_sub(*cost);
            l.legs.push(leg.clone());
        }
        Fact::LegGiven { seat, leg } => {
            remove_one(&mut s.pile, leg);
            s.londoners[*seat as usize].legs.push(leg.clone());
        }
        Fact::LegEquipped { seat, leg, .. } => s.londoners[*seat as usize].equipped = leg.clone(),
        Fact::LegSold {
            seat, leg, price, ..
        } => {
            let l = &mut s.londoners[*seat as usize];
            l.money = l.money.saturating_add(*price);
            remove_one(&mut l.legs, leg);
            if l.equipped.as_deref() == Some(leg) {
                l.equipped = None;
            }
            insert_sorted(&mut s.pile, leg);
        }
        Fact::RolledToMove { .. }
        | Fact::PaidInHealth { .. }
        | Fact::RiskRead { .. }
        | Fact::Won { .. }
        | Fact::GameCalled { .. } => {}
        Fact::Moved { seat, path, .. } => {
            if let Some(last) = path.last() {
                s.londoners[*seat as usize].at = last.clone();
            }
        }
        Fact::StreetEventRead {
            card, from_deck, ..
        } => {
            if *from_deck {
                remove_one(&mut s.deck, card);
                s.discard.push(card.clone());
            }
        }
        Fact::DeckRenewed => {
            let mut cards = std::mem::take(&mut s.discard);
            cards.sort();
            s.deck.extend(cards);
            s.deck.sort();
        }
        Fact::HealthChanged { seat, to, .. } | Fact::Healed { seat, to, .. } => {
            s.londoners[*seat as usize].health = *to
        }
        Fact::WentTo { seat, to } => s.londoners[*seat as usize].at = to.clone(),
        Fact::TurnsLost { seat, turns } => {
            let l = &mut s.londoners[*seat as usize];
            l.miss_turns = l.miss_turns.saturating_add(*turns);
        }
        Fact::TokenPlaced {
            seat,
            location,
            goal,
            cost,
        } => {
            let l = &mut s.londoners[*seat as usize];
            l.money = l.money.saturating_sub(*cost);
            l.tokens.push(super::state::Token {
                location: location.clone(),
                goal: *goal,
            })
        }
        Fact::FellSick { seat } => {
            let sickroom = Place::Location(s.sickroom.clone());
            let l = &mut s.londoners[*seat as usize];
            l.sick = true;
            l.at = sickroom;
        }
        Fact::LeftSickbed { seat } => s.londoners[*seat as usize].sick = false,
        Fact::Died {
            seat, character, ..
        } => {
            let l = &mut s.londoners[*seat as usize];
            l.dead = true;
            l.deaths.push(character.clone());
            l.tokens.clear();
            l.money = 0;
            l.sick = false;
            l.miss_turns = 0;
            l.equipped = None;
            let legs = std::mem::take(&mut l.legs);
            for leg in &legs {
                insert_sorted(&mut s.pile, leg);
            }
            insert_sorted(&mut s.unused, character);
        }
        Fact::CardLaidOut { card } => {
            Arc::make_mut(&mut s.cards).insert(card.location.clone(), card.clone());
        }
        Fact::CharacterDrawn {
            seat,
            card,
            character,
            at,
            money,
            health,
        } => {
            if let Some(card) = card {
                Arc::make_mut(&mut s.characters).insert(card.name.clone(), card.clone());
            }
            remove_one(&mut s.unused, character);
            let l = &mut s.londoners[*seat as usize];
            l.character = character.clone();
            l.at = at.clone();
            l.money = *money;
            l.health = *health;
            l.max_health = *health;
            l.dead = false;
        }
    }
    match fact {
        Fact::Won { seat } => {
            s.phase = Phase::Over;
            s.outcome = Some(Outcome {
                winners: vec![*seat],
                why: format!("{} placed both victory tokens", s.name(*seat)),
            });
        }
        Fact::GameCalled { winners, rounds } => {
            s.phase = Phase::Over;
            s.outcome = Some(Outcome {
                winners: winners.clone(),
                why: format!("the game was called after {rounds} rounds (the round limit)"),
            });
        }
        _ => {}
    }
}
