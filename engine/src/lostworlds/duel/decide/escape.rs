//! Escape: the first step out to extended range is taken, then announced;
//! the next exchange decides it (see `exchange`).

use super::*;

/// `escape`: announced from extended range, after leaving close range.
pub(super) fn announce(
    state: &State,
    by: Option<Seat>,
    seat: Option<Seat>,
) -> Result<Vec<Fact>, Rejection> {
    let seat = acting_seat(state, by, seat)?;
    fighting(state)?;
    in_fight(state, seat)?;
    let st = state.seat(seat);
    if st.escaping {
        return reject(
            "lostworlds.escape",
            format!("{} has already announced an escape", state.seat_name(seat)),
        );
    }
    if let Some(f) = state
        .foes(seat)
        .into_iter()
        .find(|f| st.sights[f].range != Range::Extended)
    {
        return reject(
            "lostworlds.escape",
            format!(
                "{} must be at extended range to announce an escape, but stands at close range to {}",
                state.seat_name(seat),
                state.seat_name(f)
            ),
        );
    }
    if !st.withdrawn {
        return reject(
            "lostworlds.escape",
            format!(
                "{} has not maneuvered out to extended range: an escape starts by leaving close range",
                state.seat_name(seat)
            ),
        );
    }
    Ok(vec![Fact::EscapeAnnounced { seat }])
}
