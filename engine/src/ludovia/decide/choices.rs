//! The choices a rule waits on: a treasure given up on conviction or to the
//! Dog, an item let go, the street a Trap lands on, the Stake-out's
//! policeman, and a spare blue item used at once.

use super::*;

pub(super) fn resolve_choice(
    out: &mut Out,
    seat: Seat,
    choice: Choice,
    action: &Action,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    let back = |out: &mut Out| {
        out.push(Fact::StageSet {
            seat,
            stage: Stage::Actions,
        })
    };
    match (choice, action) {
        (Choice::ConvictionDiscard | Choice::DogDiscard, Action::DiscardTreasure { card }) => {
            check_subset(
                &out.s.thief(seat).hand,
                std::slice::from_ref(card),
                "ludovia.not_carried",
            )?;
            out.push(Fact::TreasureDiscarded {
                seat,
                card: card.clone(),
            });
            back(out);
        }
        (
            Choice::DogDiscard | Choice::EquipmentOverflow | Choice::SpareItem,
            Action::DiscardEquipment { item },
        ) => {
            if choice == Choice::SpareItem && out.s.spare_item(seat).as_ref() != Some(item) {
                return reject(
                    "ludovia.spare_item",
                    format!("{} holds no spare {item}", out.s.name(seat)),
                );
            }
            if !out.s.thief(seat).equipment.contains(item) {
                return reject(
                    "ludovia.not_held",
                    format!(
                        "{} holds no {item}{}",
                        out.s.name(seat),
                        crate::suggest::did_you_mean(
                            item,
                            out.s.thief(seat).equipment.iter().map(String::as_str)
                        )
                    ),
                );
            }
            out.push(Fact::EquipmentDiscarded {
                seat,
                item: item.clone(),
            });
            back(out);
        }
        (Choice::TrapLanding, Action::Land { street }) => {
            let Space::Cell { row, col } = out.s.thief(seat).at else {
                unreachable!("a trap is sprung on a rooftop");
            };
            if !out
                .s
                .grid()
                .block_streets((row / 3, col / 3))
                .contains(street)
            {
                return reject(
                    "ludovia.trap_street",
                    format!("{street} is not a street of this block"),
                );
            }
            out.push(Fact::ThiefFell {
                seat,
                street: *street,
                cause: FallCause::Trap,
                roll: None,
            });
            arrest_if_watched(out, seat, *street);
            back(out);
        }
        (Choice::SpareItem, Action::EndTurn) => {
            return reject(
                "ludovia.spare_item",
                "use the spare item at once or let it go (`discard_equipment`)",
            )
        }
        (Choice::SpareItem, _) => {
            let spare = out.s.spare_item(seat).ok_or_else(|| {
                Rejection::new("ludovia.spare_item", "there is no spare item to use")
            })?;
            take_action(out, seat, action, chance)?;
            if out.s.spare_item(seat).as_ref() == Some(&spare) {
                return reject(
                    "ludovia.spare_item",
                    format!("that does not use the spare {spare}: use it or let it go (`discard_equipment`)"),
                );
            }
            // The action may have ended the turn itself (a fall, a lost duel).
            if out
                .s
                .turn()
                .is_some_and(|t| t.seat == seat && t.stage == Stage::Choice(Choice::SpareItem))
            {
                back(out);
            }
        }
        (Choice::StakeOutPoliceman, Action::PlacePoliceman { at, facing }) => {
            check_placement(&out.s, *at, *facing, true)?;
            out.push(Fact::PolicemanPlaced {
                seat,
                at: *at,
                facing: *facing,
                stake_out: true,
            });
            back(out);
        }
        (choice, _) => {
            let want = match choice {
                Choice::ConvictionDiscard => "convicted: choose a treasure to give up (`discard_treasure`)",
                Choice::DogDiscard => "the Dog: give up a treasure or an item (`discard_treasure` or `discard_equipment`)",
                Choice::TrapLanding => "the Trap: choose the street to land on (`land`)",
                Choice::StakeOutPoliceman => "the Stake-out: place a policeman at a corner of the Prison (`place_policeman`)",
                Choice::EquipmentOverflow => "four items: give one up (`discard_equipment`)",
                Choice::SpareItem => "a spare blue item: use it at once or let it go (`discard_equipment`)",
            };
            return reject("ludovia.choice_pending", want);
        }
    }
    Ok(())
}
