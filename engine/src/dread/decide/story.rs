//! The story phase's clock: calling each action, moving the characters,
//! detours, Allies, the end of each time segment and of the chapter, and
//! setting up the next chapter or the Endgame.

use super::*;
use crate::dread::content::Segment;
use crate::dread::state::{Area, Face, Place, Spot, ACTIONS};

fn story_action(state: &State, what: &str) -> Result<u8, Rejection> {
    match state.phase {
        Phase::Story { action } => Ok(action),
        _ => wrong_phase(state, what),
    }
}

/// Nothing may interrupt an investigation, or an Item still to be taken.
pub(super) fn settled(state: &State) -> Result<(), Rejection> {
    if state.encounter.is_some() {
        return reject(
            "dread.encounter",
            "an investigation is under way: resolve it or walk away first",
        );
    }
    if let Some(&c) = state.item_picks.first() {
        return reject(
            "dread.item_owed",
            format!(
                "{} has an Item to take first (`take_item`)",
                state.characters[c].name
            ),
        );
    }
    Ok(())
}

pub(super) fn detour(
    out: &mut Out,
    by: Option<Seat>,
    c: usize,
    slot: u8,
    toward: Area,
) -> Result<(), Rejection> {
    let action = story_action(&out.s, "a detour")?;
    plays(&out.s, by, c)?;
    if slot <= action || slot > ACTIONS {
        return reject(
            "dread.detour",
            format!(
                "`slot`: a detour changes an arrow still to come (slots {} to {ACTIONS})",
                action + 1
            ),
        );
    }
    match out.s.characters[c].clock[slot as usize - 1] {
        Some(t) if t.arrow.is_some() => {
            if t.arrow == Some(toward) {
                return reject(
                    "dread.detour",
                    format!("that arrow already points {}", toward.word()),
                );
            }
        }
        _ => {
            return reject(
                "dread.detour",
                format!("slot {slot} holds no arrow; only an arrow can be turned (a number stays)"),
            )
        }
    }
    out.push(Fact::Detoured {
        character: c,
        slot,
        toward,
    });
    let why = format!("{}'s detour", out.name(c));
    out.raise(1, why);
    Ok(())
}

pub(super) fn next_action(out: &mut Out, luck: &mut Luck<'_>) -> Result<(), Rejection> {
    let action = story_action(&out.s, "calling the next action")?;
    settled(&out.s)?;
    if action > 0 && action % 4 == 0 {
        end_segment(out, Segment::of_action(action));
        if out.over() {
            return Ok(());
        }
    }
    if action == ACTIONS {
        return end_chapter(out, luck);
    }
    let next = action + 1;
    out.push(Fact::ActionCalled { action: next });
    for c in 0..out.s.characters.len() {
        let ch = &out.s.characters[c];
        if ch.defeated {
            continue;
        }
        let to = match ch.clock[next as usize - 1] {
            Some(t) => match t.arrow {
                Some(area) => Place::streets(area),
                None => Place {
                    area: ch.place.area,
                    spot: t.number,
                },
            },
            // No token: wandering the Streets of the area.
            None => Place::streets(ch.place.area),
        };
        if to != ch.place {
            out.push(Fact::Moved { character: c, to });
        }
    }
    Ok(())
}

/// A face-up Plot card whose time has come, left uninvestigated through
/// a segment in which it could have been investigated, raises its dread.
/// Plots go in letter order, so from rules 2 only the next one could have
/// been: a later letter waits on an earlier one still open (under rules 1
/// every such card raised its dread).
fn end_segment(out: &mut Out, segment: Segment) {
    let next = out.s.next_plot();
    let missed: Vec<(char, u32)> = out
        .s
        .plots
        .iter()
        .filter(|(l, _)| !out.s.investigated.contains(l))
        .filter(|(l, _)| out.s.rules < 2 || Some(*l) == next)
        .filter_map(|(l, _)| out.s.plot(*l))
        .filter(|p| p.time <= segment)
        .map(|p| (p.letter, p.dread))
        .collect();
    out.push(Fact::SegmentEnded {
        segment,
        missed: missed.iter().map(|(l, _)| *l).collect(),
    });
    for (letter, dread) in missed {
        let name = out
            .s
            .plot(letter)
            .map(|p| p.name.clone())
            .unwrap_or_default();
        out.raise(
            dread,
            format!(
                "Plot {letter}, {name}, missed through the {}",
                segment.word()
            ),
        );
    }
}

/// The end of a chapter: face-down cards, face-up Dread cards and stash
/// tokens raise dread; the trail runs cold if the last Plot card was not
/// investigated; Allies kept become Confidence; the board is cleared, the
/// tokens go home, the Items are readied; then the next chapter or the
/// Endgame.
pub(super) fn end_chapter(out: &mut Out, luck: &mut Luck<'_>) -> Result<(), Rejection> {
    let chapter = out.s.chapter;
    let face_down = out
        .s
        .locations
        .iter()
        .filter(|s| matches!(s, Spot::Down { .. }))
        .count() as u32;
    let face_up_dread: u32 = out
        .s
        .locations
        .iter()
        .filter_map(|s| match s {
            Spot::Up {
                face: Face::Dread(name),
            } => out.s.cards.dread.get(name).map(|c| c.dread),
            _ => None,
        })
        .sum();
    // Each token taken from the stash, even one put back before the story
    // began (rules 2: "each token taken"); rules 1 counted those on a clock.
    let stash = if out.s.rules >= 2 {
        out.s.stash_taken.len() as u32
    } else {
        out.s
            .characters
            .iter()
            .flat_map(|c| c.clock.iter().flatten())
            .filter(|t| t.stash)
            .count() as u32
    };
    let allies = out
        .s
        .characters
        .iter()
        .map(|c| c.allies.len() as u32)
        .sum::<u32>();
    let words = |n: u32, one: &str, many: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {many}")
        }
    };
    out.raise(
        2 * face_down,
        words(face_down, "card never turned", "cards never turned"),
    );
    out.raise(face_up_dread, "the Dread cards left face up");
    out.raise(
        stash,
        words(
            stash,
            "token taken from the stash",
            "tokens taken from the stash",
        ),
    );
    if out.over() {
        return Ok(());
    }
    if let Some(why) = out.s.trail_cold() {
        out.push(Fact::GameLost {
            why: format!("{why}: the trail runs cold"),
        });
        return Ok(());
    }
    if allies > 0 {
        confidence(out, luck, allies, None)?;
    }
    out.push(Fact::ChapterEnded {
        chapter,
        face_down,
        face_up_dread,
        stash,
        allies,
    });
    out.push(Fact::ItemsReadied {});
    if chapter + 1 < out.s.story.chapters.len() {
        let cards = if out.s.dealt_by_table {
            None
        } else {
            Some(setup::deal(&out.s, chapter + 1, luck.chance)?)
        };
        out.push(Fact::ChapterDealt {
            chapter: chapter + 1,
            cards,
            allies: out.s.allies_dealt,
        });
    } else {
        super::endgame::begin(out, luck)?;
    }
    Ok(())
}

pub(super) fn recruit(
    out: &mut Out,
    by: Option<Seat>,
    c: usize,
    place: Place,
) -> Result<(), Rejection> {
    story_action(&out.s, "recruiting an Ally")?;
    settled(&out.s)?;
    let ch = plays(&out.s, by, c)?;
    if ch.place != place {
        return reject(
            "dread.not_there",
            format!("{} is at {}, not {place}", ch.name, ch.place),
        );
    }
    let Some(Face::Ally(ally)) = out.s.face_at(place).cloned() else {
        return reject("dread.no_ally", format!("no Ally is face up at {place}"));
    };
    if ch.allies.len() >= out.s.most_allies() {
        return reject(
            "dread.allies",
            format!(
                "{} already has {} Allies, the most one character may have at this table",
                ch.name,
                ch.allies.len()
            ),
        );
    }
    out.push(Fact::AllyRecruited {
        character: c,
        place,
        ally,
    });
    Ok(())
}
