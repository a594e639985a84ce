//! The Endgame: the Investigation deck dealt into hands, staying in or
//! bowing out before each challenge, challenges met one character at a
//! time, and the Final Showdown against the Antagonist.

use super::*;
use crate::dread::apply::fists;
use crate::dread::options::Variant;
use crate::dread::state::{Endgame, Target};

/// Sets up the Endgame: the Investigation deck dealt one card at a time
/// from the Leader on, and each character's starting Action dice.
pub(super) fn begin(out: &mut Out, luck: &mut Luck<'_>) -> Result<(), Rejection> {
    let n = out.s.characters.len();
    let leader = out.s.leader.unwrap_or(0);
    let order: Vec<usize> = (0..n)
        .map(|k| (leader + k) % n)
        .filter(|&c| !out.s.characters[c].defeated)
        .collect();
    let mut hands = vec![Vec::new(); n];
    let mut deck = out.s.investigation.clone();
    let mut k = 0;
    while !deck.is_empty() && !order.is_empty() {
        let i = luck.card("Investigation card dealt", &deck)?;
        hands[order[k % order.len()]].push(deck.remove(i));
        k += 1;
    }
    // Fewer investigators with Allies at the table start with two dice.
    let base = if out.s.variant == Variant::Allies && out.s.players < 4 {
        2
    } else {
        1
    };
    let dice = (0..n)
        .map(|c| {
            if out.s.characters[c].defeated {
                0
            } else {
                base
            }
        })
        .collect();
    out.push(Fact::EndgameBegan { hands, dice });
    Ok(())
}

fn choosing(state: &State) -> Result<&[usize], Rejection> {
    match &state.phase {
        Phase::Endgame(Endgame::Choosing { decided }) => Ok(decided),
        _ => reject(
            "dread.phase",
            "staying in or bowing out is decided before an Endgame Challenge",
        ),
    }
}

/// Characters still able to face challenges.
fn able(state: &State) -> impl Iterator<Item = usize> + '_ {
    state
        .characters
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.defeated && !c.out)
        .map(|(i, _)| i)
}

pub(super) fn choose(
    out: &mut Out,
    by: Option<Seat>,
    c: usize,
    stay: bool,
) -> Result<(), Rejection> {
    let decided = choosing(&out.s)?.to_vec();
    let ch = plays(&out.s, by, c)?;
    if ch.out {
        return reject(
            "dread.bowed_out",
            format!("{} has bowed out until the Final Showdown", ch.name),
        );
    }
    if decided.contains(&c) {
        return reject("dread.decided", format!("{} has already decided", ch.name));
    }
    out.push(if stay {
        Fact::Stayed { character: c }
    } else {
        Fact::Withdrew { character: c }
    });
    if able(&out.s).next().is_none() {
        showdown_begins(out);
    }
    Ok(())
}

pub(super) fn reveal(out: &mut Out, luck: &mut Luck<'_>) -> Result<(), Rejection> {
    let decided = choosing(&out.s)?.to_vec();
    if let Some(c) = able(&out.s).find(|c| !decided.contains(c)) {
        return reject(
            "dread.undecided",
            format!("{} has not said whether they stay in", out.name(c)),
        );
    }
    let queue: Vec<usize> = able(&out.s).collect();
    let deck = out.s.challenges.clone();
    let i = luck.card("Endgame Challenge", &deck)?;
    out.push(Fact::ChallengeRevealed {
        card: deck[i].clone(),
        queue,
    });
    Ok(())
}

pub(super) fn play(out: &mut Out, by: Option<Seat>, c: usize, card: &str) -> Result<(), Rejection> {
    let ch = plays(&out.s, by, c)?;
    let facing = matches!(
        out.s.encounter.as_ref().map(|e| (&e.target, e.share(c))),
        Some((Target::Challenge { .. }, Some(_)))
    );
    if !facing {
        return reject(
            "dread.not_facing",
            format!("{} is not facing a challenge now", ch.name),
        );
    }
    if !ch.hand.iter().any(|h| h == card) {
        return reject(
            "dread.not_in_hand",
            format!(
                "{} holds no `{card}`{}",
                ch.name,
                crate::suggest::did_you_mean(card, ch.hand.iter().map(String::as_str))
            ),
        );
    }
    let flipped = out
        .s
        .encounter
        .as_ref()
        .and_then(|e| e.share(c))
        .is_some_and(|s| s.flipped.is_some());
    if !flipped {
        return reject(
            "dread.flip_first",
            format!("{} flips a Personality card first", ch.name),
        );
    }
    out.push(Fact::CardAdded {
        character: c,
        card: card.to_string(),
        from_hand: true,
    });
    Ok(())
}

/// The character facing the challenge counts icons against it.
pub(super) fn meet(out: &mut Out, luck: &mut Luck<'_>) -> Result<(), Rejection> {
    let e = out.s.encounter.clone().expect("a challenge is under way");
    let Target::Challenge { card } = &e.target else {
        unreachable!("meet is called for a challenge")
    };
    let share = &e.shares[0];
    let c = share.character;
    if share.flipped.is_none() {
        return reject(
            "dread.flip_first",
            format!("{} flips a Personality card first", out.name(c)),
        );
    }
    let challenge = out
        .s
        .story
        .challenges
        .iter()
        .find(|x| &x.name == card)
        .cloned()
        .expect("challenges come from the story");
    let points = points(&out.s, share, &challenge.icons, out.s.story.endgame_wild);
    let met = points >= challenge.difficulty;
    out.push(Fact::ChallengeMet {
        character: c,
        card: card.clone(),
        points,
        met,
    });
    let effect = if met {
        challenge.reward
    } else {
        challenge.penalty
    };
    gain(out, luck, c, &effect)?;
    between_challenges(out);
    Ok(())
}

/// Once the last in line has met a challenge (or fallen): the Showdown
/// if the challenges are done or no one is left to face one, else the
/// Items are readied for the next.
pub(super) fn between_challenges(out: &mut Out) {
    if out.over() {
        return;
    }
    if matches!(out.s.phase, Phase::Endgame(Endgame::Choosing { .. })) {
        let done = out.s.faced.len() as u32 >= out.s.most_challenges
            || !out.s.challenges_left()
            || able(&out.s).next().is_none();
        if done {
            showdown_begins(out);
        } else {
            out.push(Fact::ItemsReadied {});
        }
    }
}

/// Items readied one last time; one fist needed, and one more per 5 dread.
fn showdown_begins(out: &mut Out) {
    out.push(Fact::ItemsReadied {});
    let needed = 1 + out.s.dread / 5 + out.s.story.antagonist.extra_successes;
    out.push(Fact::ShowdownBegan { needed });
}

pub(super) fn showdown(out: &mut Out) -> Result<(), Rejection> {
    let e = out.s.encounter.clone().expect("the showdown is under way");
    if let Some(s) = e.shares.iter().find(|s| s.rolled.is_none()) {
        return reject(
            "dread.roll_first",
            format!("{} has not rolled yet", out.name(s.character)),
        );
    }
    let Phase::Showdown { needed } = out.s.phase else {
        unreachable!("a showdown encounter is in the showdown")
    };
    let got = fists(&e);
    if got >= needed {
        out.push(Fact::GameWon { fists: got, needed });
    } else {
        let name = out.s.story.antagonist.name.clone();
        out.push(Fact::GameLost {
            why: format!(
                "{} against the {needed} needed: {name} prevails",
                fists_words(got)
            ),
        });
    }
    Ok(())
}

/// "1 fist", "3 fists".
pub fn fists_words(n: u32) -> String {
    if n == 1 {
        "1 fist".into()
    } else {
        format!("{n} fists")
    }
}
