//! Duels between thieves (3 D and E): stealing from and knocking down a
//! thief on the same rooftop, with opposed dice.

use super::*;

/// Checks `seat` may duel `target`: both on the same rooftop, or (with
/// Bolas, for a knock-down) on neighbouring rooftops of one block. Returns
/// whether the Bolas is needed.
pub(super) fn face_off(
    state: &State,
    seat: Seat,
    target: Seat,
    knock_down: bool,
) -> Result<bool, Rejection> {
    if target as usize >= state.thieves.len() || target == seat {
        return reject("ludovia.target", "name another thief at the table");
    }
    let (here, there) = (state.thief(seat).at, state.thief(target).at);
    if !state.is_rooftop(here) || !state.is_rooftop(there) {
        return reject("ludovia.same_rooftop", "thieves duel only on rooftops");
    }
    if here == there {
        return Ok(false);
    }
    if let (true, Space::Cell { row, col }) = (knock_down && state.has(seat, Effect::Bolas), here) {
        if state
            .grid()
            .cell_neighbours(row, col)
            .into_iter()
            .any(|(r, c)| Space::Cell { row: r, col: c } == there)
        {
            return Ok(true);
        }
    }
    reject(
        "ludovia.same_rooftop",
        format!(
            "{} is not on {}'s rooftop",
            state.name(target),
            state.name(seat)
        ),
    )
}

/// The attacker's and the defender's dice, the attacker's with Make-up.
fn opposed(
    out: &mut Out,
    seat: Seat,
    target: Seat,
    rolls: Option<&[u32]>,
    make_up: bool,
    what: &str,
    chance: &mut Chance,
) -> Result<[u32; 2], Rejection> {
    if rolls.is_some_and(|r| r.len() != 2) {
        return reject(
            "ludovia.rolls",
            "give two rolls: the attacker's, then the defender's",
        );
    }
    let a = chance.roll(
        &format!("{what} die for {}", out.s.name(seat)),
        6,
        "rolls",
        rolls.map(|r| r[0]),
    )?;
    let d = chance.roll(
        &format!("{what} die for {}", out.s.name(target)),
        6,
        "rolls",
        rolls.map(|r| r[1]),
    )?;
    let bonus = if make_up {
        use_item(out, seat, Effect::MakeUp, "ludovia.make_up")?;
        2
    } else {
        0
    };
    Ok([a + bonus, d])
}

/// Trying to steal (D) from a thief on the same rooftop: opposed dice, a
/// tie to the victim; the loser of the attempt ends the turn.
pub(super) fn steal(
    out: &mut Out,
    seat: Seat,
    from: Seat,
    rolls: &Option<Vec<u32>>,
    took: &Option<String>,
    make_up: bool,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    let target = from;
    // Refused before the dice, so a refusal says nothing of them.
    chance.check_supplied("stolen treasure", "took", took)?;
    face_off(&out.s, seat, target, false)?;
    if out.s.thief(target).hand.is_empty() {
        return reject(
            "ludovia.steal_nothing",
            format!("{} carries no treasure to steal", out.s.name(target)),
        );
    }
    if out.s.thief(seat).hand.len() >= out.s.carry_limit(seat) {
        return reject(
            "ludovia.carry_limit",
            format!(
                "{} already carries {} rooftop cards",
                out.s.name(seat),
                out.s.carry_limit(seat)
            ),
        );
    }
    let [a, d] = opposed(
        out,
        seat,
        target,
        rolls.as_deref(),
        make_up,
        "steal",
        chance,
    )?;
    spend(out, seat);
    // A tie goes to the thief being robbed.
    let won = a > d;
    if !won && took.is_some() {
        // Physical dice only (digital refused `took` above): the
        // rolls are the table's own, so this tells nothing hidden.
        return reject(
            "ludovia.no_draw",
            "`took` names the card taken, but the steal failed: leave it out",
        );
    }
    let card = if won {
        let mut hand = out.s.thief(target).hand.clone();
        hand.sort();
        let k = chance.pick_hidden(
            "stolen treasure",
            &hand,
            "took",
            took.as_deref(),
            &format!("a card from {}'s hand", out.s.name(target)),
        )?;
        Some(hand[k].clone())
    } else {
        None
    };
    out.push(Fact::StealTried {
        seat,
        from: target,
        rolls: [a, d],
        won,
        card,
    });
    if !won {
        end_turn(out, seat, TurnEnd::Cut);
    }
    Ok(())
}

/// Trying to knock down (E) a thief on the same rooftop (or, with the
/// Bolas, a neighbouring one) onto a street of the block: a tie to the
/// attacker.
pub(super) fn knock_down(
    out: &mut Out,
    seat: Seat,
    target: Seat,
    street: Street,
    rolls: &Option<Vec<u32>>,
    make_up: bool,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    let bolas = face_off(&out.s, seat, target, true)?;
    let Space::Cell { row, col } = out.s.thief(target).at else {
        unreachable!("face_off checked the target is on a rooftop");
    };
    if !out
        .s
        .grid()
        .block_streets((row / 3, col / 3))
        .contains(&street)
    {
        return reject(
            "ludovia.knock_down_street",
            format!(
                "{street} is not a street of the block {} stands on",
                out.s.name(target)
            ),
        );
    }
    let [a, d] = opposed(
        out,
        seat,
        target,
        rolls.as_deref(),
        make_up,
        "knock-down",
        chance,
    )?;
    // The knock-down's own action point pays for a Bolas thrown; a
    // blue Bolas is used up (rules 1 kept every Bolas silently).
    if bolas && out.s.rules >= 2 {
        use_item(out, seat, Effect::Bolas, "ludovia.bolas")?;
    }
    spend(out, seat);
    // A tie goes to the attacker.
    let won = a >= d;
    out.push(Fact::KnockDownTried {
        seat,
        target,
        rolls: [a, d],
        won,
    });
    if won {
        out.push(Fact::ThiefFell {
            seat: target,
            street,
            cause: FallCause::KnockedDown,
            roll: None,
        });
        arrest_if_watched(out, target, street);
    } else {
        end_turn(out, seat, TurnEnd::Cut);
    }
    Ok(())
}
