//! Voting (advanced play): the table's vote on an explanation, its retelling,
//! and the stories told of an Item's use.

use super::*;

fn tally(s: &State, actor: Seat, aye: &[Seat], against: &[Seat]) -> Result<Tally, Rejection> {
    let mut seen = BTreeSet::new();
    for v in aye.iter().chain(against) {
        if *v as usize >= s.seats.len() || *v == actor {
            return reject(
                "legend.voting.voter",
                format!("seat {v} cannot vote here: the other players vote on the acting player's explanation"),
            );
        }
        if !seen.insert(*v) {
            return reject("legend.voting.voter", format!("seat {v} voted twice"));
        }
    }
    let (a, b) = (aye.len() as u32, against.len() as u32);
    Ok(Tally {
        aye: a,
        against: b,
        // The acting player breaks a tie, in their own favour.
        passed: a >= b,
        tie: a == b && a > 0,
    })
}

/// Votes on an explanation; true when it stands (first or second telling).
pub(super) fn take_vote(
    sim: &mut Sim,
    seat: Seat,
    about: &str,
    v: &Votes,
) -> Result<bool, Rejection> {
    // A second vote counts only a retelling: without one it would be dropped.
    if v.retold.is_none() && !(v.retold_for.is_empty() && v.retold_against.is_empty()) {
        return reject(
            "legend.voting.retold",
            "`votes.retold_for` and `votes.retold_against` count the vote on a retelling: give `votes.retold` too, or leave them out",
        );
    }
    let first = tally(&sim.s, seat, &v.aye, &v.against)?;
    let (retold, second) = if first.passed {
        if v.retold.is_some() {
            return reject(
                "legend.voting.retold",
                "the first telling stood: there is nothing to retell",
            );
        }
        (None, None)
    } else if let Some(r) = &v.retold {
        text_given("votes.retold", "legend.voting.retold", r)?;
        (
            Some(r.clone()),
            Some(tally(&sim.s, seat, &v.retold_for, &v.retold_against)?),
        )
    } else {
        (None, None)
    };
    let passed = second.as_ref().map_or(first.passed, |t| t.passed);
    sim.emit(Fact::VoteTaken {
        seat,
        about: about.to_string(),
        tally: first,
        retold,
        second,
    });
    Ok(passed)
}

/// Whether an explanation of Item use stands (uncontested when no votes).
pub(super) fn item_vote(
    sim: &mut Sim,
    seat: Seat,
    about: &str,
    votes: &Option<Votes>,
) -> Result<bool, Rejection> {
    match votes {
        None => Ok(true),
        Some(_) if !sim.s.options.voting => {
            reject("legend.voting.off", "this game is played without Voting")
        }
        Some(v) => take_vote(sim, seat, about, v),
    }
}

/// The telling that stood: the retold story when the first was voted down.
pub(super) fn final_story(told: String, votes: &Option<Votes>) -> String {
    votes
        .as_ref()
        .and_then(|v| v.retold.clone())
        .unwrap_or(told)
}

/// The other side's telling of a battle it means to win.
pub(super) fn their_story<'a>(
    given: &'a Option<String>,
    who: &str,
    player: &str,
) -> Result<&'a str, Rejection> {
    match given {
        Some(s) if !s.trim().is_empty() => Ok(s),
        _ => reject(
            "legend.story.needed",
            format!("{who} meets the Monster with an Item: {player}, whose side would win, tells how in `their_story`"),
        ),
    }
}

pub(super) fn story<'a>(step_story: &'a Option<String>, who: &str) -> Result<&'a str, Rejection> {
    match step_story {
        Some(s) if !s.trim().is_empty() => Ok(s),
        _ => reject(
            "legend.story.needed",
            format!("{who} uses an Item: give the `story` of how it is used"),
        ),
    }
}
