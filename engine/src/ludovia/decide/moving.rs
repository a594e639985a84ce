//! Getting about (3 A and C): where a thief may move from each space, a
//! move past the police, and the jump from block to block.

use super::*;

/// A move a thief could make from where they stand: the destination, and the
/// lamp post passed for a street-to-street move.
pub fn moves_from(state: &State, from: Space) -> Vec<(Space, Option<Post>)> {
    let grid = state.grid();
    let mut out = Vec::new();
    let special_streets = |special: Special| grid.block_streets(state.special_at(special));
    match from {
        Space::Lair => out.extend(special_streets(Special::Lair).map(|s| (Space::Street(s), None))),
        Space::Prison => {
            out.extend(special_streets(Special::Prison).map(|s| (Space::Street(s), None)))
        }
        Space::Street(s) => {
            for (t, post) in grid.street_moves(s) {
                out.push((Space::Street(t), Some(post)));
            }
            for (r, c) in grid.blocks_of(s) {
                for i in 0..3 {
                    for j in 0..3 {
                        let (row, col) = (3 * r + i, 3 * c + j);
                        let alley = matches!(
                            state.cell(row, col),
                            Some(CellKind::Alley | CellKind::BlackMarket)
                        );
                        if alley && grid.cell_streets(row, col).contains(&s) {
                            out.push((Space::Cell { row, col }, None));
                        }
                    }
                }
            }
            // The Lair can be entered from its streets; the Prison only by arrest.
            if special_streets(Special::Lair).contains(&s) {
                out.push((Space::Lair, None));
            }
        }
        Space::Cell { row, col } => {
            let kind = state.cell(row, col);
            let alley = matches!(kind, Some(CellKind::Alley | CellKind::BlackMarket));
            if alley {
                out.extend(
                    grid.cell_streets(row, col)
                        .into_iter()
                        .map(|s| (Space::Street(s), None)),
                );
            }
            for (nr, nc) in grid.cell_neighbours(row, col) {
                match state.cell(nr, nc) {
                    // Climbing happens only from an alley; rooftops link to rooftops.
                    Some(CellKind::Rooftop) => out.push((Space::Cell { row: nr, col: nc }, None)),
                    Some(CellKind::Alley | CellKind::BlackMarket) if !alley => {
                        out.push((Space::Cell { row: nr, col: nc }, None))
                    }
                    _ => {}
                }
            }
            if alley {
                // The two alleys of a block link when one is a Black Market.
                let (br, bc) = (row / 3 * 3, col / 3 * 3);
                for i in 0..3 {
                    for j in 0..3 {
                        let (r2, c2) = (br + i, bc + j);
                        let other = state.cell(r2, c2);
                        let linked = (kind == Some(CellKind::BlackMarket)
                            && other == Some(CellKind::Alley))
                            || (kind == Some(CellKind::Alley)
                                && other == Some(CellKind::BlackMarket));
                        let cell = Space::Cell { row: r2, col: c2 };
                        if linked && !out.iter().any(|(s, _)| *s == cell) {
                            out.push((cell, None));
                        }
                    }
                }
            }
        }
    }
    out
}

/// Moving one space (A): street to street past a lamp post, street and
/// alley, the Lair and the Prison's streets, alley to rooftop and back,
/// rooftop to rooftop; the police stop a thief carrying treasure.
pub(super) fn move_thief(
    out: &mut Out,
    seat: Seat,
    here: Space,
    to: Space,
    mask: bool,
) -> Result<(), Rejection> {
    let Some((_, passing)) = moves_from(&out.s, here).into_iter().find(|(s, _)| s == &to) else {
        return reject("ludovia.move", format!("{to} is not one move from {here}"));
    };
    let verdict = police(&out.s, seat, here, to, passing);
    if mask {
        use_item(out, seat, Effect::Mask, "ludovia.mask")?;
    } else if let Police::Blocked(post) = verdict {
        return reject(
            "ludovia.lamp_post_blocked",
            format!("a policeman at {post} stops a thief carrying treasure from passing"),
        );
    }
    spend(out, seat);
    if let (Police::Leaving(street), false) = (verdict, mask) {
        out.push(Fact::ThiefArrested {
            seat,
            cause: ArrestCause::Leaving,
            street: Some(street),
        });
        return Ok(());
    }
    out.push(Fact::ThiefMoved {
        seat,
        from: here,
        to,
        masked: mask,
    });
    if let (Police::Arrest(street), false) = (verdict, mask) {
        out.push(Fact::ThiefArrested {
            seat,
            cause: ArrestCause::Watched,
            street: Some(street),
        });
    }
    Ok(())
}

/// Trying to jump (C) from a rooftop straight across a street to the
/// rooftop in front: a roll above the treasure carried, unless empty-handed
/// or with the Rope and Grapple.
pub(super) fn jump(
    out: &mut Out,
    seat: Seat,
    here: Space,
    to: Space,
    roll: Option<u32>,
    rope: bool,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    let Space::Cell { row, col } = here else {
        return reject("ludovia.jump", "a jump starts from a rooftop");
    };
    if !out.s.is_rooftop(here) {
        return reject("ludovia.jump", "a jump starts from a rooftop");
    }
    let Some((_, street)) = out
        .s
        .grid()
        .across(row, col)
        .into_iter()
        .find(|((r, c), _)| Space::Cell { row: *r, col: *c } == to)
    else {
        return reject(
            "ludovia.jump",
            format!("{to} is not straight across a street from {here}"),
        );
    };
    if !out.s.is_rooftop(to) {
        return reject("ludovia.jump", format!("{to} is not a rooftop"));
    }
    let carried = out.s.thief(seat).hand.len() as u32;
    if carried == 0 || rope {
        if roll.is_some() {
            return reject(
                "ludovia.no_roll",
                "this jump needs no roll: leave out `roll`",
            );
        }
        if rope {
            use_item(out, seat, Effect::RopeAndGrapple, "ludovia.rope")?;
        }
        spend(out, seat);
        out.push(Fact::JumpMade {
            seat,
            from: here,
            to,
            roll: None,
        });
    } else {
        let die = chance.roll("jump die", 6, "roll", roll)?;
        let bonus = u32::from(out.s.has(seat, Effect::SoftShoes));
        if bonus > 0 {
            use_item(out, seat, Effect::SoftShoes, "ludovia.soft_shoes")?;
        }
        spend(out, seat);
        if die + bonus > carried {
            out.push(Fact::JumpMade {
                seat,
                from: here,
                to,
                roll: Some(die),
            });
        } else {
            out.push(Fact::ThiefFell {
                seat,
                street,
                cause: FallCause::Jump,
                roll: Some(die),
            });
            arrest_if_watched(out, seat, street);
            end_turn(out, seat, TurnEnd::Cut);
        }
    }
    Ok(())
}
