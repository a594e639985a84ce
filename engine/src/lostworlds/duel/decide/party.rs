//! Parties: on a (P) picture another member steps in, on a (P**) picture
//! another member fires a spell or missile; once per exchange, before the
//! seat chooses.

use super::*;

/// `step_in`: on a (P) picture another member takes the fighter's place.
pub(super) fn step_in(
    state: &State,
    by: Option<Seat>,
    seat: Option<Seat>,
    member: &str,
) -> Result<Vec<Fact>, Rejection> {
    let (seat, to) = party_move(state, by, seat, member, PartyMark::StepIn)?;
    let from = state.seat(seat).active;
    Ok(vec![Fact::MemberSteppedIn { seat, from, to }])
}

/// `fire_missile`: on a (P**) picture another member fires a spell or missile.
pub(super) fn fire_missile(
    state: &State,
    by: Option<Seat>,
    seat: Option<Seat>,
    member: &str,
    what: &str,
    card: Option<&str>,
    target: Option<Seat>,
) -> Result<Vec<Fact>, Rejection> {
    let (seat, member) = party_move(state, by, seat, member, PartyMark::Missile)?;
    // From rules 3 the card fired says what it was and does.
    let card = if state.rules >= 3 {
        Some(cards::missile(state, seat, member, card, target)?)
    } else if card.is_some() || target.is_some() {
        return reject(
            "lostworlds.cards",
            format!("this fight was recorded under rules {}, before missiles were cards: say what was fired in `what`", state.rules),
        );
    } else {
        None
    };
    if card.is_none() && what.trim().is_empty() {
        return reject("lostworlds.party", "say what was fired in `what`");
    }
    Ok(vec![Fact::MissileFired {
        seat,
        member,
        what: what.trim().to_string(),
        card,
    }])
}

fn party_move(
    state: &State,
    by: Option<Seat>,
    seat: Option<Seat>,
    member: &str,
    mark: PartyMark,
) -> Result<(Seat, usize), Rejection> {
    let seat = acting_seat(state, by, seat)?;
    fighting(state)?;
    in_fight(state, seat)?;
    let st = state.seat(seat);
    if state.pending.contains_key(&seat) {
        return reject(
            "lostworlds.party",
            format!("{} has already chosen this exchange", state.seat_name(seat)),
        );
    }
    if st.party_turn == Some(state.exchanges) {
        return reject(
            "lostworlds.party",
            "the party has already acted on this picture",
        );
    }
    let marked = state.foes(seat).into_iter().any(|f| {
        state
            .seat(f)
            .sights
            .get(&seat)
            .is_some_and(|s| s.party == Some(mark))
    });
    if !marked {
        return reject(
            "lostworlds.party",
            format!(
                "no ({}) picture of {} is open now",
                mark.symbol(),
                state.seat_name(seat)
            ),
        );
    }
    let Some(mi) = st.party.iter().position(|f| f.sheet.id == member) else {
        return reject(
            "lostworlds.party",
            format!("{}'s party has no `{member}`", st.player),
        );
    };
    if mi == st.active {
        return reject(
            "lostworlds.party",
            format!("{} is already fighting", st.party[mi].sheet.name),
        );
    }
    if st.party[mi].condition != Condition::Fit {
        return reject(
            "lostworlds.party",
            format!("{} cannot act: they are down", st.party[mi].sheet.name),
        );
    }
    Ok((seat, mi))
}
