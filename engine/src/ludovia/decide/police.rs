//! Policemen and the Prison (4.1, 4.2): placing a policeman, the move that
//! opens every turn (the die, or a prisoner's choice), the streets they watch
//! and the lamp posts they block, arrests, the Stake-out's posts and the
//! Trial.

use super::*;

/// The lamp posts at the Prison's corners.
fn prison_posts(state: &State) -> Vec<Post> {
    let (r, c) = state.special_at(Special::Prison);
    vec![
        Post { r, c },
        Post { r, c: c + 1 },
        Post { r: r + 1, c },
        Post { r: r + 1, c: c + 1 },
    ]
}

pub(super) fn check_placement(
    state: &State,
    at: Post,
    facing: Facing,
    stake_out: bool,
) -> Result<(), Rejection> {
    let grid = state.grid();
    if !grid.has_post(at) {
        return reject(
            "ludovia.no_such_post",
            format!("there is no lamp post {at}"),
        );
    }
    // Rules 1 kept placed policemen apart; they may share a post by moving,
    // and from rules 2 when placed too.
    if state.rules < 2 && state.policeman_at(at).is_some() {
        return reject(
            "ludovia.post_taken",
            format!("a policeman already stands at {at}"),
        );
    }
    if grid.faces_edge(at, facing) {
        return reject(
            "ludovia.facing_edge",
            format!(
                "a policeman at {at} facing {} would face off the board",
                facing.word()
            ),
        );
    }
    if stake_out && !prison_posts(state).contains(&at) {
        return reject(
            "ludovia.stake_out_post",
            format!("{at} is not a lamp post at a corner of the Prison"),
        );
    }
    if state.policemen.len() >= state.max_policemen() {
        return reject(
            "ludovia.police_limit",
            format!(
                "at most {} policemen patrol with {} thieves",
                state.max_policemen(),
                state.thieves.len()
            ),
        );
    }
    Ok(())
}

/// Where a policeman ends up after `step`, and whether he turned about.
pub fn step_policeman(state: &State, p: &Policeman, step: Step) -> (Post, Facing, bool) {
    let grid = state.grid();
    let (at, facing) = match step {
        Step::Left => (p.at, p.facing.left()),
        Step::Right => (p.at, p.facing.right()),
        Step::Advance => (
            grid.post_towards(p.at, p.facing)
                .expect("a policeman never faces the edge"),
            p.facing,
        ),
    };
    if grid.faces_edge(at, facing) {
        (at, facing.about(), true)
    } else {
        (at, facing, false)
    }
}

pub(super) fn move_policeman(
    out: &mut Out,
    seat: Seat,
    policeman: usize,
    roll: Option<u32>,
    step: Step,
) {
    let p = out.s.policemen[policeman].clone();
    let (to, facing, turned_about) = step_policeman(&out.s, &p, step);
    out.push(Fact::PolicemanMoved {
        seat,
        policeman,
        roll,
        step,
        from: p.at,
        to,
        facing,
        turned_about,
    });
}

pub(super) fn check_policeman(state: &State, policeman: usize) -> Result<(), Rejection> {
    if policeman >= state.policemen.len() {
        return reject(
            "ludovia.no_such_policeman",
            format!(
                "there are {} policemen, numbered from 0",
                state.policemen.len()
            ),
        );
    }
    Ok(())
}

pub(super) fn open_turn(
    out: &mut Out,
    seat: Seat,
    policeman: usize,
    roll: Option<u32>,
    step: Option<Step>,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    check_policeman(&out.s, policeman)?;
    let prisoner = out.s.thief(seat).in_prison;
    if prisoner {
        let Some(step) = step else {
            return reject(
                "ludovia.prisoner_chooses",
                "a prisoner does not roll: choose the policeman's `step` (left, right or advance)",
            );
        };
        if roll.is_some() {
            return reject(
                "ludovia.prisoner_chooses",
                "a prisoner does not roll: leave out `roll`",
            );
        }
        move_policeman(out, seat, policeman, None, step);
        if out.s.thief(seat).hand.is_empty() {
            out.push(Fact::Released { seat });
        } else {
            out.push(Fact::StageSet {
                seat,
                stage: Stage::Trial,
            });
        }
    } else {
        if step.is_some() {
            return reject(
                "ludovia.policeman_die",
                "only a prisoner chooses the policeman's move: leave out `step` and roll",
            );
        }
        let roll = chance.roll("policeman die", 6, "roll", roll)?;
        move_policeman(out, seat, policeman, Some(roll), Step::from_roll(roll));
    }
    Ok(())
}

/// What the police make of a move: blocked at a lamp post, or an arrest on
/// a watched street. Only a thief carrying treasure is stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Police {
    Clear,
    Blocked(Post),
    Arrest(Street),
    /// Caught leaving a watched street.
    Leaving(Street),
}

pub fn police(state: &State, seat: Seat, from: Space, to: Space, passing: Option<Post>) -> Police {
    if state.thief(seat).hand.is_empty() {
        return Police::Clear;
    }
    if let Some(post) = passing {
        if state.policeman_at(post).is_some() {
            return Police::Blocked(post);
        }
    }
    let watched = state.watched();
    match (from, to) {
        // Leaving a street passes it: from rules 2, a street that became
        // watched under the thief's feet catches them as they go.
        (Space::Street(s), _) if state.rules >= 2 && watched.contains(&s) => Police::Leaving(s),
        (_, Space::Street(s)) if watched.contains(&s) => Police::Arrest(s),
        _ => Police::Clear,
    }
}

pub(super) fn arrest_if_watched(out: &mut Out, seat: Seat, street: Street) {
    if !out.s.thief(seat).hand.is_empty() && out.s.watched().contains(&street) {
        out.push(Fact::ThiefArrested {
            seat,
            cause: ArrestCause::Watched,
            street: Some(street),
        });
    }
}

/// Free lamp posts at the Prison's corners, while the police may grow.
pub(super) fn stake_out_posts(state: &State) -> Vec<Post> {
    if state.policemen.len() >= state.max_policemen() {
        return Vec::new();
    }
    prison_posts(state)
        .into_iter()
        .filter(|p| state.rules >= 2 || state.policeman_at(*p).is_none())
        .collect()
}

/// The Trial (4.2.1) of a prisoner carrying treasure: a 6 acquits (a 5 too
/// with the Lucky Charm); otherwise a treasure is given up.
pub(super) fn stand_trial(
    out: &mut Out,
    seat: Seat,
    roll: Option<u32>,
    chance: &mut Chance,
) -> Result<(), Rejection> {
    let roll = chance.roll("trial die", 6, "roll", roll)?;
    let charmed = roll == 5 && out.s.has(seat, Effect::LuckyCharm);
    let acquitted = roll == 6 || charmed;
    if charmed {
        use_item(out, seat, Effect::LuckyCharm, "ludovia.lucky_charm")?;
    }
    out.push(Fact::TrialHeld {
        seat,
        roll,
        acquitted,
    });
    if acquitted {
        out.push(Fact::StageSet {
            seat,
            stage: Stage::Actions,
        });
    } else {
        out.push(Fact::ChoiceAwaited {
            seat,
            choice: Choice::ConvictionDiscard,
        });
    }
    Ok(())
}
