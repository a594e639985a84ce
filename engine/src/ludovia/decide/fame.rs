//! Fame and Fortune (3 G, 4.5, 4.6): treasure cashed in at the Lair, and
//! the standings that settle a night ending otherwise.

use super::*;

/// Obtaining Fame and Fortune (G): treasure cashed in at the Lair, a point
/// for every $100; 15 wins at once.
pub(super) fn cash_in(
    out: &mut Out,
    seat: Seat,
    here: Space,
    cards: &Option<Vec<String>>,
) -> Result<(), Rejection> {
    if here != Space::Lair {
        return reject(
            "ludovia.cash_in_lair",
            "treasure turns into Fame and Fortune only in the Lair",
        );
    }
    let hand = out.s.thief(seat).hand.clone();
    let cards = cards.clone().unwrap_or(hand.clone());
    if cards.is_empty() {
        return reject("ludovia.cash_in_nothing", "there is no treasure to cash in");
    }
    check_subset(&hand, &cards, "ludovia.not_carried")?;
    let dollars = out.s.sum_value(&cards).ok_or_else(overflow)?;
    let points = dollars / 100;
    let fame = out
        .s
        .thief(seat)
        .fame
        .checked_add(points)
        .ok_or_else(overflow)?;
    spend(out, seat);
    out.push(Fact::FameGained {
        seat,
        cards,
        points,
        fame,
    });
    if fame >= FAME_TO_WIN {
        out.push(Fact::NightEnded {
            outcome: Outcome {
                winners: vec![seat],
                why: format!(
                    "{} reached {fame} Fame and Fortune and leads the guild",
                    out.s.name(seat)
                ),
            },
        });
    }
    Ok(())
}

/// Most Fame and Fortune wins; then the most treasure carried; then a shared title.
pub(super) fn standings_outcome(state: &State, why: &str) -> Outcome {
    let key = |s: Seat| (state.thief(s).fame, state.hand_value(s));
    let seats: Vec<Seat> = (0..state.thieves.len() as Seat).collect();
    let best = seats.iter().map(|&s| key(s)).max().unwrap_or((0, 0));
    Outcome {
        winners: seats.into_iter().filter(|&s| key(s) == best).collect(),
        why: why.to_string(),
    }
}
