//! What befalls a Londoner: the effects of cards and stories, debts paid
//! in legs and then in hearts, sickness and the Sickroom, death and rebirth.

use super::*;

/// Carries out a card's or story's effects in order; stops once the
/// Londoner dies. One who falls sick on the way still takes the rest
/// (rules 2: "lose 5 hearts, pay £5" costs the £5 too), but stays in the
/// Sickroom: an effect that sends them elsewhere is passed over. Under
/// rules 1 sickness ended the card.
pub(super) fn resolve(out: &mut Out, seat: Seat, effects: &[Effect], task: Task) {
    for e in effects {
        let sick = out.l(seat).sick;
        if out.over() || out.l(seat).dead || (sick && out.s.rules < 2) {
            return;
        }
        match e {
            Effect::GoTo(_) | Effect::Move(_) if sick => {}
            Effect::Money(v) if *v >= 0 => out.push(Fact::Earned {
                seat,
                amount: *v as u32,
            }),
            Effect::Money(v) => pay_forced(out, seat, v.unsigned_abs(), None),
            Effect::Health(v) => change_health(out, seat, *v),
            Effect::GoTo(l) => out.push(Fact::WentTo {
                seat,
                to: Place::Location(l.clone()),
            }),
            Effect::MissTurns(n) => out.push(Fact::TurnsLost { seat, turns: *n }),
            Effect::ClaimLove if task == Task::Love => {
                let Place::Location(here) = out.l(seat).at.clone() else {
                    continue;
                };
                if !out.s.done(seat, GoalKind::Love)
                    && out.s.space_taken(&here, GoalKind::Love).is_none()
                {
                    place_token(out, seat, &here, GoalKind::Love, 0);
                }
            }
            Effect::Move(n) => {
                // Two moves read in one turn make one longer move.
                let before = out.facts.iter().rev().find_map(|f| match f {
                    Fact::MoveGranted { seat: s, steps } if *s == seat => Some(*steps),
                    _ => None,
                });
                out.push(Fact::MoveGranted {
                    seat,
                    steps: before.unwrap_or(0) + n,
                });
            }
            Effect::LoseLeg => {
                if let Some(leg) = leg_taken(&out.s, seat) {
                    out.push(Fact::LegSold {
                        seat,
                        leg,
                        price: 0,
                        why: Sale::Taken,
                    });
                }
            }
            Effect::GainLeg(leg) => {
                if out.s.pile.contains(leg) {
                    out.push(Fact::LegGiven {
                        seat,
                        leg: leg.clone(),
                    });
                }
            }
            Effect::Collect(n) => {
                for other in others(&out.s, seat) {
                    pay_forced(out, other, *n, Some(seat));
                }
            }
            Effect::PayEach(n) => {
                for other in others(&out.s, seat) {
                    if out.l(seat).dead {
                        break;
                    }
                    pay_forced(out, seat, *n, Some(other));
                }
            }
            Effect::Others(list) => {
                for other in others(&out.s, seat) {
                    resolve(out, other, list, Task::Work);
                }
            }
            // What draws more cards is read by the move (`walk`).
            Effect::ClaimLove | Effect::Draw(_) | Effect::ByHand(_) => {}
        }
    }
}

/// Every other Londoner in play (not dead), in seat order.
fn others(s: &State, seat: Seat) -> Vec<Seat> {
    (0..s.londoners.len() as Seat)
        .filter(|&o| o != seat && !s.londoner(o).dead)
        .collect()
}

/// The leg a card takes: the one in use, else the dearest owned (crutches
/// included), the first by name among equals.
fn leg_taken(s: &State, seat: Seat) -> Option<String> {
    let l = s.londoner(seat);
    l.equipped.clone().or_else(|| {
        l.legs
            .iter()
            .max_by_key(|n| {
                (
                    s.legs.get(*n).map_or(0, |leg| leg.cost),
                    std::cmp::Reverse(*n),
                )
            })
            .cloned()
    })
}

pub(super) fn change_health(out: &mut Out, seat: Seat, by: i32) {
    let l = out.l(seat);
    let (from, was_sick) = (l.health, l.sick);
    let to = (from as i64 + by as i64).clamp(0, l.max_health as i64) as u32;
    if to != from {
        out.push(Fact::HealthChanged { seat, from, to });
    }
    // Already sick (rules 2 reads on after sickness), a loss at the bottom
    // of the track sends no one to the Sickroom twice.
    if to == 0 && !(was_sick && out.s.rules >= 2) {
        fall_sick(out, seat);
    }
}

/// Legs sold to cover a debt: the unequipped ones first, cheapest first,
/// then the equipped one, until the money is there or no leg is left.
pub(super) fn sell_for(out: &mut Out, seat: Seat, amount: u32) {
    while out.l(seat).money < amount {
        match forced_sale(&out.s, seat, |_| true) {
            Some(leg) => sell(out, seat, &leg, Sale::Shortfall),
            None => return,
        }
    }
}

/// The next of `seat`'s legs that `which` allows to go in a forced sale:
/// the unequipped ones first, cheapest first, then the equipped one.
pub(super) fn forced_sale(s: &State, seat: Seat, which: impl Fn(&Leg) -> bool) -> Option<String> {
    let l = s.londoner(seat);
    let sold = |n: &&String| which(&s.legs[*n]);
    l.legs
        .iter()
        .filter(sold)
        .filter(|n| l.equipped.as_ref() != Some(*n))
        .min_by_key(|n| (s.legs[*n].cost, (*n).clone()))
        .or(l.equipped.as_ref().filter(sold))
        .cloned()
}

/// A debt the Londoner cannot refuse, to the bank or to another Londoner
/// (`to`, who gets what is paid in money): legs are sold if money runs
/// short, and what is still owed is paid a heart a pound.
pub(super) fn pay_forced(out: &mut Out, seat: Seat, amount: u32, to: Option<Seat>) {
    sell_for(out, seat, amount);
    let money = out.l(seat).money;
    let paid = money.min(amount);
    if paid > 0 {
        out.push(match to {
            Some(to) => Fact::Handed {
                from: seat,
                to,
                amount: paid,
            },
            None => Fact::Paid { seat, amount: paid },
        });
    }
    if paid < amount {
        let owed = amount - paid;
        out.push(Fact::PaidInHealth { seat, owed });
        change_health(out, seat, -(owed.min(i32::MAX as u32) as i32));
    }
}

/// At the bottom of the health track: to the Sickroom, paying its fee
/// (legs sold if need be), or death.
pub(super) fn fall_sick(out: &mut Out, seat: Seat) {
    out.push(Fact::FellSick { seat });
    pay_sickroom(out, seat);
}

/// Pays the Sickroom's fee; returns false (and the Londoner is dead) when
/// even the legs do not cover it.
pub(super) fn pay_sickroom(out: &mut Out, seat: Seat) -> bool {
    let fee = out.s.sickroom_fee();
    sell_for(out, seat, fee);
    if out.l(seat).money < fee {
        die(out, seat, Death::Sickroom);
        return false;
    }
    if fee > 0 {
        out.push(Fact::SickroomPaid { seat, fee });
    }
    true
}

pub(super) fn die(out: &mut Out, seat: Seat, why: Death) {
    let l = out.l(seat);
    out.push(Fact::Died {
        seat,
        character: l.character.clone(),
        why,
        removed: l.tokens.clone(),
    });
}

pub(super) fn heal(
    out: &mut Out,
    seat: Seat,
    roll: Option<u32>,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    let face = chance.roll("healing die", 6, "roll", roll)?;
    let l = out.l(seat);
    let from = l.health;
    let to = (from + face).min(l.max_health);
    out.push(Fact::Healed {
        seat,
        roll: face,
        from,
        to,
    });
    Ok(())
}

pub(super) fn sick_turn(
    out: &mut Out,
    seat: Seat,
    roll: Option<u32>,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    chance.check_supplied("healing die", "roll", &roll)?;
    if !pay_sickroom(out, seat) {
        return Ok(());
    }
    heal(out, seat, roll, chance)?;
    let l = out.l(seat);
    if l.health == l.max_health {
        out.push(Fact::LeftSickbed { seat });
    }
    Ok(())
}

pub(super) fn draw_character(
    out: &mut Out,
    seat: Seat,
    drew: Option<&str>,
    card: &Option<Character>,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    let typed = match (out.s.record, card) {
        (true, Some(c)) => {
            if drew.is_some() {
                return reject(
                    "legless.card",
                    "record mode: the character card is typed (`card`), not named (`drew`)",
                );
            }
            check_character(c, out.s.board(), &out.s.locations, "card", "card").map_err(|e| {
                Rejection::new("legless.card", format!("{}: {}", e.path, e.message))
            })?;
            let in_play = out
                .s
                .londoners
                .iter()
                .any(|l| !l.dead && l.character == c.name);
            if in_play {
                return reject(
                    "legless.card",
                    format!("{} is already at the table", c.name),
                );
            }
            Some(c.clone())
        }
        (true, None) => {
            return reject(
                "legless.card_needed",
                format!(
                "record mode: type {}'s character card (`card`: name, start, money, health, goals)",
                out.s.name(seat)
            ),
            )
        }
        (false, Some(_)) => {
            return reject(
                "legless.card",
                "the pack deals the characters: leave out `card`",
            )
        }
        (false, None) => None,
    };
    let c = match typed {
        Some(c) => c,
        None => {
            // A new character: not the one just lost, while another is in the box.
            let lost = out.l(seat).deaths.last().cloned();
            let mut options: Vec<String> = out
                .s
                .unused
                .iter()
                .filter(|c| Some(*c) != lost.as_ref())
                .cloned()
                .collect();
            if options.is_empty() {
                options = out.s.unused.clone();
            }
            let i = chance.pick(
                &format!("{}'s new character", out.s.name(seat)),
                &options,
                "drew",
                drew,
            )?;
            out.s.characters[&options[i]].clone()
        }
    };
    out.push(Fact::CharacterDrawn {
        seat,
        card: card.clone().filter(|_| out.s.record),
        character: c.name.clone(),
        at: c.start.clone(),
        money: c.money,
        health: c.health,
    });
    Ok(())
}
