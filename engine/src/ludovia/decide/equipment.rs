//! Equipment (3 F, 4.4): an item used (a blue one used up, a red or green
//! one acting), the equipment deck, buying at the Black Market or the Lair,
//! and the Whistle.

use super::*;

/// Uses the item with `effect`: a blue one is used up; from rules 2 a kept
/// one (green, or red) is said to act. Rules 1 spent only blue items.
pub(super) fn use_item(
    out: &mut Out,
    seat: Seat,
    effect: Effect,
    rule: &str,
) -> Result<(), Rejection> {
    match out.s.item_with(seat, effect) {
        Some(item) => {
            if out.s.items[&item].colour == Colour::Blue {
                out.push(Fact::EquipmentUsed { seat, item });
            } else if out.s.rules >= 2 {
                out.push(Fact::EquipmentActed { seat, item });
            }
            Ok(())
        }
        None => reject(
            rule,
            format!(
                "{} holds no {}",
                out.s.name(seat),
                item_name(&out.s, effect)
            ),
        ),
    }
}

fn item_name(state: &State, effect: Effect) -> String {
    state
        .items
        .values()
        .find(|i| i.effect == effect)
        .map_or_else(|| format!("{effect:?}"), |i| i.name.clone())
}

/// Draws `n` cards off the equipment deck (fewer if it runs out), the unseen
/// part by chance and then the cards put under it in order.
pub(super) fn draw_equipment(
    state: &State,
    n: usize,
    supplied: Option<&[String]>,
    field: &str,
    chance: &mut Chance,
) -> Result<Vec<String>, Rejection> {
    let mut unseen = state.deck_unseen.clone();
    let mut bottom = state.deck_bottom.clone();
    let mut out = Vec::new();
    let mut named = 0;
    for _ in 0..n {
        if !unseen.is_empty() {
            let k = chance.pick(
                "equipment card",
                &unseen,
                field,
                supplied.and_then(|s| s.get(named)).map(String::as_str),
            )?;
            named += 1;
            out.push(unseen.remove(k));
        } else if !bottom.is_empty() {
            out.push(bottom.remove(0));
        }
    }
    if supplied.is_some_and(|s| s.len() > named) {
        return reject(
            "ludovia.drew",
            format!("`{field}` names more cards than were drawn unseen ({named})"),
        );
    }
    Ok(out)
}

pub(super) fn buy(
    out: &mut Out,
    seat: Seat,
    here: Space,
    item: &str,
    pay: &[String],
    drew: Option<&[String]>,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    let at_market = here == Space::Lair
        || matches!(here, Space::Cell { row, col } if out.s.cell(row, col) == Some(CellKind::BlackMarket));
    if !at_market {
        return reject(
            "ludovia.market",
            "equipment is bought only in the Lair or on a Black Market alley",
        );
    }
    if !out.s.offer.iter().any(|o| o == item) {
        return reject(
            "ludovia.not_on_offer",
            format!(
                "`{item}` is not on offer (offer: {})",
                out.s.offer.join(", ")
            ),
        );
    }
    if out.s.thief(seat).equipment.iter().any(|e| e == item) {
        return reject(
            "ludovia.equipment_duplicate",
            format!(
                "{} already holds a {item}: items held are all different",
                out.s.name(seat)
            ),
        );
    }
    check_subset(&out.s.thief(seat).hand, pay, "ludovia.not_carried")?;
    let paid = out.s.sum_value(pay).ok_or_else(overflow)?;
    let cost = out.s.items[item].cost;
    if paid < cost {
        return reject(
            "ludovia.price",
            format!("a {item} costs ${cost}, and ${paid} does not cover it"),
        );
    }
    spend(out, seat);
    out.push(Fact::EquipmentBought {
        seat,
        item: item.to_string(),
        paid: pay.to_vec(),
        lost: paid - cost,
    });
    let to_bottom = out.s.offer.clone();
    let mut after = out.s.clone();
    after.deck_bottom.extend(to_bottom.iter().cloned());
    let drawn = draw_equipment(&after, 3, drew, "drew", chance)?;
    out.push(Fact::OfferRenewed { to_bottom, drawn });
    if out.s.thief(seat).equipment.len() > MAX_EQUIPMENT {
        out.push(Fact::ChoiceAwaited {
            seat,
            choice: Choice::EquipmentOverflow,
        });
    }
    Ok(())
}

/// The Whistle: a policeman moved by the die in the thief's turn.
pub(super) fn whistle(
    out: &mut Out,
    seat: Seat,
    policeman: usize,
    roll: Option<u32>,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    check_policeman(&out.s, policeman)?;
    if !out.s.has(seat, Effect::Whistle) {
        return reject(
            "ludovia.whistle",
            format!(
                "{} holds no {}",
                out.s.name(seat),
                item_name(&out.s, Effect::Whistle)
            ),
        );
    }
    let roll = chance.roll("policeman die", 6, "roll", roll)?;
    if out.s.rules >= 2 {
        // A green Whistle costs this action point; a blue one none.
        let green = out
            .s
            .item_with(seat, Effect::Whistle)
            .is_some_and(|i| out.s.items[&i].colour == Colour::Green);
        use_item(out, seat, Effect::Whistle, "ludovia.whistle")?;
        if green {
            spend(out, seat);
        }
    } else {
        spend(out, seat);
    }
    move_policeman(out, seat, policeman, Some(roll), Step::from_roll(roll));
    Ok(())
}
