//! Robbing a house (3 B): the rooftop card drawn unseen, treasure kept, and
//! the events it may be instead (4.3: Dog, Equipment, Stake-out, Trap).

use super::*;

pub(super) fn rob(
    out: &mut Out,
    seat: Seat,
    here: Space,
    drew: Option<&str>,
    found: Option<&str>,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    // Refused before the card is drawn, so a refusal says nothing of it.
    chance.check_supplied("equipment card", "found", &found)?;
    if !out.s.is_rooftop(here) {
        return reject("ludovia.rob_rooftop", "only a rooftop can be robbed");
    }
    if out.s.robbed.contains(&here) {
        return reject(
            "ludovia.rooftop_robbed",
            format!("the card on {here} was already taken"),
        );
    }
    let limit = out.s.carry_limit(seat);
    if out.s.thief(seat).hand.len() >= limit {
        return reject(
            "ludovia.carry_limit",
            format!(
                "{} already carries {limit} rooftop cards: cash in, buy or lose some first",
                out.s.name(seat)
            ),
        );
    }
    let pool = out.s.pool.clone();
    let k = chance.pick_hidden(
        "rooftop card",
        &pool,
        "drew",
        drew,
        "a rooftop card still face down",
    )?;
    let card = pool[k].clone();
    let event = match out.s.faces.get(&card) {
        Some(Face::Event(e)) => Some(*e),
        _ => None,
    };
    if found.is_some() && event != Some(RooftopEvent::Equipment) {
        return reject(
            "ludovia.no_draw",
            "`found` names the equipment an Equipment event turns up: leave it out",
        );
    }
    spend(out, seat);
    out.push(Fact::RooftopRobbed {
        seat,
        rooftop: here,
        card: Some(card),
        event,
    });
    match event {
        None => {}
        Some(RooftopEvent::Dog) => {
            let t = out.s.thief(seat);
            if !t.hand.is_empty() || !t.equipment.is_empty() {
                out.push(Fact::ChoiceAwaited {
                    seat,
                    choice: Choice::DogDiscard,
                });
            }
        }
        Some(RooftopEvent::Trap) => out.push(Fact::ChoiceAwaited {
            seat,
            choice: Choice::TrapLanding,
        }),
        Some(RooftopEvent::StakeOut) => {
            out.push(Fact::ThiefArrested {
                seat,
                cause: ArrestCause::StakeOut,
                street: None,
            });
            if !stake_out_posts(&out.s).is_empty() {
                out.push(Fact::ChoiceAwaited {
                    seat,
                    choice: Choice::StakeOutPoliceman,
                });
            }
        }
        Some(RooftopEvent::Equipment) => {
            let item = draw_equipment(
                &out.s,
                1,
                found.map(|f| vec![f.to_string()]).as_deref(),
                "found",
                chance,
            )?
            .pop();
            out.push(Fact::EquipmentFound {
                seat,
                item: item.clone(),
            });
            if let Some(item) = item {
                let copies = out
                    .s
                    .thief(seat)
                    .equipment
                    .iter()
                    .filter(|e| **e == item)
                    .count();
                let blue = out
                    .s
                    .items
                    .get(&item)
                    .is_some_and(|i| i.colour == Colour::Blue);
                if copies > 1 && blue && out.s.rules >= 2 {
                    // A spare blue item is used at once (or let go): with
                    // it spent, no thief holds more than three.
                    out.push(Fact::ChoiceAwaited {
                        seat,
                        choice: Choice::SpareItem,
                    });
                    return Ok(());
                }
                if copies > 1 {
                    // Rules 1: a duplicate went at once, a blue one counted
                    // as the old copy used up, with nothing to use it on.
                    out.push(if blue {
                        Fact::EquipmentUsed { seat, item }
                    } else {
                        Fact::EquipmentDiscarded { seat, item }
                    });
                }
                if out.s.thief(seat).equipment.len() > MAX_EQUIPMENT {
                    out.push(Fact::ChoiceAwaited {
                        seat,
                        choice: Choice::EquipmentOverflow,
                    });
                }
            }
        }
    }
    Ok(())
}
