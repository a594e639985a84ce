//! The story as a Storyteller reads it aloud: the hours of the day, who
//! went where, what they found, the dread rising, the showdown; and the
//! table as text.

use std::fmt::Write as _;

use super::actions::{Action, Fact, Source};
use super::content::Trait;
use super::decide::clock_time;
use super::state::{hour, Endgame, Face, Phase, Spot, State, Target, AREAS, DREAD_LIMIT};
use crate::rules::Viewer;

fn names(state: &State, cs: &[usize]) -> String {
    let n: Vec<&str> = cs
        .iter()
        .map(|&c| state.characters[c].name.as_str())
        .collect();
    match n.len() {
        0 => "no one".into(),
        1 => n[0].to_string(),
        _ => format!("{} and {}", n[..n.len() - 1].join(", "), n[n.len() - 1]),
    }
}

/// What an action open now does, for its button (`Rules::describe`): the
/// characters by name, the clock's slots by the hour they stand for.
pub(super) fn describe(state: &State, action: &Action) -> Option<String> {
    let who = |c: usize| {
        state
            .characters
            .get(c)
            .map_or_else(|| format!("character {}", c + 1), |i| i.name.clone())
    };
    Some(match action {
        Action::StartPlanning { .. } => "Big Ben strikes: start planning".into(),
        Action::Reveal { location, .. } => {
            format!("Turn up the card at {}", location.words())
        }
        Action::Mark {
            location,
            token: Some(token),
        } => format!(
            "Lay a {} Investigation token at {} ({})",
            token.word(),
            location.words(),
            token.meaning()
        ),
        Action::Mark { location, .. } => {
            format!("Lay an Investigation token at {}", location.words())
        }
        Action::Unmark { location } => {
            format!("Take the Investigation token off {}", location.words())
        }
        Action::Place {
            character,
            slot,
            number,
            arrow,
            stash,
        } => format!(
            "{}'s clock at {}: {}{}",
            who(*character),
            hour(*slot),
            match arrow {
                Some(area) => format!("arrow {number} towards {}", area.word()),
                None => format!("number {number}"),
            },
            if *stash { ", from the stash" } else { "" }
        ),
        Action::TakeBack { character, slot } => {
            format!("Take {}'s token off {}", who(*character), hour(*slot))
        }
        Action::MoveToken {
            character,
            from,
            to,
        } => format!(
            "Move {}'s token from {} to {}",
            who(*character),
            hour(*from),
            hour(*to)
        ),
        Action::SetClock { character, .. } => format!("Set {}'s whole clock", who(*character)),
        Action::BeginStory { leader } => {
            format!("End planning: the story begins, {} leading", who(*leader))
        }
        Action::Detour {
            character,
            slot,
            toward,
        } => format!(
            "Turn {}'s arrow at {} towards {} (1 dread)",
            who(*character),
            hour(*slot),
            toward.word()
        ),
        Action::NextAction { .. } => "Call the next action".into(),
        Action::Investigate { location, .. } => format!("Investigate {}", location.words()),
        Action::Recruit {
            character,
            location,
        } => format!(
            "{} takes the Ally at {} along",
            who(*character),
            location.words()
        ),
        Action::Flip { character, .. } => {
            format!("{} flips a Personality card", who(*character))
        }
        Action::Draw { character, .. } => {
            format!("{} draws an Investigation card", who(*character))
        }
        Action::Play { character, card } => format!("{} plays {card}", who(*character)),
        Action::UseItem {
            character,
            item,
            deplete,
            ..
        } => match deplete {
            true => format!("{} discards {item}", who(*character)),
            false => format!("{} uses {item}", who(*character)),
        },
        Action::SpendVirtue { character, .. } => {
            format!("{} spends a Virtue", who(*character))
        }
        Action::Sacrifice {
            character, ally, ..
        } => format!("{} sacrifices {ally}", who(*character)),
        Action::Roll { character, .. } => format!("{} rolls the action dice", who(*character)),
        Action::Reroll { character, .. } => {
            format!("{} rolls again the dice without a fist", who(*character))
        }
        Action::Resolve { .. } => "End the encounter and read its outcome".into(),
        Action::WalkAway => "Walk away".into(),
        Action::TakeItem {
            character, from, ..
        } => match from {
            Source::Supply(item) => format!("{} takes {item} from the Supply", who(*character)),
            Source::Deck => format!("{} takes an Item from the deck", who(*character)),
        },
        Action::Stay { character } => format!("{} stays", who(*character)),
        Action::Withdraw { character } => format!("{} withdraws", who(*character)),
        Action::RevealChallenge { .. } => "Turn up the Endgame Challenge".into(),
    })
}

fn plural(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

fn face_words(state: &State, face: &Face) -> String {
    match face {
        Face::Dread(name) => match state.cards.dread.get(name) {
            Some(c) => format!("{name} (difficulty {}, dread {})", c.difficulty, c.dread),
            None => name.clone(),
        },
        Face::Plot(letter) => match state.plot(*letter) {
            Some(p) => format!("Plot {letter}, {} (from the {})", p.name, p.time.word()),
            None => format!("Plot {letter}"),
        },
        Face::Ally(name) => format!("an Ally, {name}"),
    }
}

/// The story as it opens: its name and introduction, then who the
/// investigators are, in their sheets' own words.
fn opening(state: &State) -> Vec<String> {
    let name = state.story.name.trim();
    let stop = if name.ends_with(['.', '!', '?']) {
        ""
    } else {
        "."
    };
    let intro = state.story.intro.trim();
    let mut lines = vec![format!("{name}{stop} {intro}").trim_end().to_string()];
    for c in &state.characters {
        let story = c.story.trim();
        if !story.is_empty() {
            lines.push(format!("{}: {story}", c.name));
        }
    }
    lines
}

/// The story of one fact, and its record: the dice rolled, the fists
/// counted against a card's difficulty and a Dread card's numbers are the
/// record's; the story tells who faced what and how it went. A fact whose
/// full telling holds no bookkeeping is told as it stands.
pub fn narrate(state: &State, fact: &Fact) -> Vec<String> {
    let full = in_full(state, fact);
    let story = match story(state, fact) {
        Some(story) => story,
        // A Dread card is named in the story; its difficulty and dread are
        // the record's.
        None if full.iter().any(|l| l.contains(CARD_NUMBERS)) => {
            full.iter().map(|l| without_card_numbers(l)).collect()
        }
        None => return full,
    };
    crate::narrative::story_and_record(story, full)
}

/// How a Dread card's numbers open after its name ([`face_words`]).
const CARD_NUMBERS: &str = " (difficulty ";

/// A line with each Dread card's "(difficulty N, dread M)" left out.
fn without_card_numbers(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find(CARD_NUMBERS) {
        out.push_str(&rest[..i]);
        rest = match rest[i..].find(')') {
            Some(j) => &rest[i + j + 1..],
            None => "",
        };
    }
    out.push_str(rest);
    out
}

/// What the story tells of a fact (see [`narrate`]): `None` when its full
/// telling is the story.
fn story(state: &State, fact: &Fact) -> Option<Vec<String>> {
    let name = |c: usize| state.characters[c].name.as_str();
    let one = |line: String| Some(vec![line]);
    match fact {
        // The dice, each hour's call and each walk across London are the
        // record's: the story tells the hours in which something happens.
        Fact::DiceRolled { .. } | Fact::ActionCalled { .. } | Fact::Moved { .. } => {
            Some(Vec::new())
        }
        // A threat turned up in planning is told when someone takes it on.
        Fact::Revealed {
            face: Face::Dread(_),
            ..
        } if matches!(state.phase, Phase::Planning { .. }) => Some(Vec::new()),
        Fact::StoryBegan { leader } => {
            let threats = state
                .locations
                .iter()
                .filter(|s| {
                    matches!(
                        s,
                        Spot::Up {
                            face: Face::Dread(_)
                        }
                    )
                })
                .count();
            let showing = match threats {
                0 => "no threat showing".to_string(),
                1 => "one threat showing".to_string(),
                n => format!("{n} threats showing"),
            };
            one(format!(
                "The clocks are set, with {showing} across London. {} leads the investigation through the day.",
                name(*leader)
            ))
        }
        Fact::EncounterOpened { target, present } => {
            let when = match state.phase {
                Phase::Story { action } if action > 0 => format!("At {}, ", hour(action)),
                _ => String::new(),
            };
            let take = |one: &str, many: &str| {
                if present.len() == 1 {
                    one.to_string()
                } else {
                    many.to_string()
                }
            };
            let told = match target {
                Target::Dread { place, card } => {
                    let mut line = format!(
                        "{when}{} {} {card} at {}.",
                        names(state, present),
                        take("takes on", "take on"),
                        place.words()
                    );
                    // The card's own line, read aloud as it is faced.
                    if let Some(words) = state.cards.dread.get(card).map(|c| c.story.trim()) {
                        if !words.is_empty() {
                            line = format!("{line} {words}");
                        }
                    }
                    line
                }
                Target::Plot { place, letter } => format!(
                    "{when}{} {} {} at {}.",
                    names(state, present),
                    take("investigates", "investigate"),
                    face_words(state, &Face::Plot(*letter)),
                    place.words()
                ),
                _ => return None,
            };
            one(told)
        }
        Fact::DreadCardMet { card, beaten, .. } => one(if *beaten {
            format!("{card} is dealt with, and what it taught goes onto the Investigation deck.")
        } else {
            format!("{card} is too much for them and stays.")
        }),
        Fact::ChallengeRevealed { card, queue } => one(format!(
            "The next challenge is {card}, faced by {}.",
            names(state, queue)
        )),
        Fact::ChallengeMet {
            character,
            card,
            met,
            ..
        } => one(if *met {
            format!("{} meets {card}.", name(*character))
        } else {
            format!("{} fails {card}.", name(*character))
        }),
        Fact::ShowdownBegan { .. } => one(format!(
            "The Final Showdown with {} begins.",
            state.story.antagonist.name
        )),
        Fact::GameWon { .. } => {
            let mut lines = vec![format!(
                "{} is brought down. The investigators win.",
                state.story.antagonist.name
            )];
            if !state.story.victory.is_empty() {
                lines.push(state.story.victory.clone());
            }
            Some(lines)
        }
        _ => None,
    }
}

/// One fact told in full, dice and difficulties and all: the record's
/// telling (see [`narrate`]).
fn in_full(state: &State, fact: &Fact) -> Vec<String> {
    let name = |c: usize| state.characters[c].name.as_str();
    let line = match fact {
        // A card typed in record mode is told where it comes into play,
        // by the fact that follows; a Plot card's reverse, as its outcome.
        Fact::Typed { .. } | Fact::ReverseRead { .. } => return Vec::new(),
        Fact::PlanningStarted { ends_at_ms, .. } => {
            let mut lines = if state.chapter == 0 {
                opening(state)
            } else {
                Vec::new()
            };
            lines.push(match ends_at_ms {
                Some(_) => format!(
                    "Big Ben strikes. The team has {} minutes to plan.",
                    state.minutes
                ),
                None => "Big Ben strikes. The team plans on its own clock.".into(),
            });
            return lines;
        }
        Fact::Marked {
            place,
            token: Some(t),
        } => format!(
            "A {} Investigation token goes on the card at {}: {}.",
            t.word(),
            place.words(),
            t.meaning()
        ),
        Fact::Marked { place, token: None } => {
            format!(
                "The Investigation token comes off the card at {}.",
                place.words()
            )
        }
        Fact::Revealed { place, face } => {
            let place = place.words();
            match face {
                Face::Plot(_) => format!(
                    "At {place} the trail surfaces: {}.",
                    face_words(state, face)
                ),
                Face::Ally(_) => format!("At {place}, {} waits.", face_words(state, face)),
                Face::Dread(name) => {
                    let mut line = format!(
                        "At {place} a threat shows itself: {}.",
                        face_words(state, face)
                    );
                    // The card's own line, as the table reads it aloud.
                    if let Some(told) = state.cards.dread.get(name).map(|c| c.story.trim()) {
                        if !told.is_empty() {
                            line = format!("{line} {told}");
                        }
                    }
                    line
                }
            }
        }
        // The clocks are drawn on the board; the story tells how the day
        // goes, not how it was planned.
        Fact::TokenPlaced { .. } | Fact::TokenTaken { .. } => return Vec::new(),
        Fact::StoryBegan { leader } => format!(
            "The clocks are set. {} leads the investigation through the day.",
            name(*leader)
        ),
        Fact::Detoured {
            character,
            slot,
            toward,
        } => format!(
            "{} takes a detour: at {} the way leads {} instead.",
            name(*character),
            hour(*slot),
            toward.word()
        ),
        Fact::DreadRose { by, why } => {
            format!("Dread rises by {by} to {} ({why}).", state.dread + by)
        }
        Fact::DreadFell { by, why } => format!(
            "Dread falls by {by} to {} ({why}).",
            state.dread.saturating_sub(*by)
        ),
        Fact::ActionCalled { action } => format!("It is {}.", hour(*action)),
        Fact::Moved { character, to } => {
            let arrow = match state.phase {
                Phase::Story { action } if action > 0 => state.characters[*character].clock
                    [action as usize - 1]
                    .is_some_and(|t| t.arrow.is_some()),
                _ => false,
            };
            if to.is_streets() && arrow {
                format!("{} heads for {}.", name(*character), to.words())
            } else if to.is_streets() {
                format!("{} wanders {}.", name(*character), to.words())
            } else {
                format!("{} goes to {}.", name(*character), to.words())
            }
        }
        Fact::EncounterOpened { target, present } => match target {
            Target::Dread { place, card } => format!(
                "{} {} {} at {}.",
                names(state, present),
                if present.len() == 1 {
                    "takes on"
                } else {
                    "take on"
                },
                face_words(state, &Face::Dread(card.clone())),
                place.words()
            ),
            Target::Plot { place, letter } => format!(
                "{} {} {} at {}.",
                names(state, present),
                if present.len() == 1 {
                    "investigates"
                } else {
                    "investigate"
                },
                face_words(state, &Face::Plot(*letter)),
                place.words()
            ),
            _ => String::new(),
        },
        Fact::Flipped { character, card } => {
            let p = &state.characters[*character].personality[*card];
            match p.kind {
                Trait::Trauma => format!(
                    "{}'s trauma resurfaces ({}): they bring nothing of their own.",
                    name(*character),
                    p.name
                ),
                Trait::Talent => format!(
                    "{} shows a talent: {} ({}).",
                    name(*character),
                    p.name,
                    p.effect.words()
                ),
                Trait::Plain if p.icons.is_empty() => {
                    format!("{} flips {}.", name(*character), p.name)
                }
                Trait::Plain => {
                    let icons: Vec<&str> = p.icons.iter().map(|i| i.word()).collect();
                    format!(
                        "{} flips {} (+{}).",
                        name(*character),
                        p.name,
                        icons.join(" +")
                    )
                }
            }
        }
        Fact::TraumaRolled { face, .. } => format!("The Trauma die shows {}.", face.word()),
        Fact::ConditionTaken {
            character,
            condition,
        } => format!("{} is {}.", name(*character), condition.word()),
        Fact::ConditionHealed {
            character,
            condition,
        } => format!("{} is no longer {}.", name(*character), condition.word()),
        Fact::Defeated { character } => format!(
            "{} falls and is out of the story; the others fight on for them.",
            name(*character)
        ),
        Fact::CardAdded {
            character,
            card,
            from_hand,
        } => {
            let icons: Vec<&str> = state
                .cards
                .investigation_icons(card)
                .iter()
                .map(|i| i.word())
                .collect();
            if *from_hand {
                format!("{} plays {card} ({}).", name(*character), icons.join(", "))
            } else {
                format!("{} draws {card} ({}).", name(*character), icons.join(", "))
            }
        }
        Fact::ItemUsed {
            character,
            item,
            depleted,
        } => {
            let effect = state
                .cards
                .items
                .get(item)
                .map(|i| if *depleted { &i.deplete } else { &i.use_effect })
                .map(|e| e.words())
                .unwrap_or_default();
            if *depleted {
                format!("{} uses up {item}: {effect}.", name(*character))
            } else {
                format!("{} uses {item}: {effect}.", name(*character))
            }
        }
        Fact::VirtueSpent { character } => format!(
            "{} spends a Virtue: {}.",
            name(*character),
            state.characters[*character].virtue.words()
        ),
        Fact::AllySacrificed { character, ally } => {
            format!("{} sacrifices {ally}.", name(*character))
        }
        Fact::Boosted { .. } => return Vec::new(),
        Fact::DiceRolled {
            character,
            fists,
            rerolled,
        } => {
            let total: u32 = fists.iter().sum();
            let dice = plural(fists.len() as u32, "die", "dice");
            if *rerolled > 0 {
                format!(
                    "{} rolls {} again: {} in all.",
                    name(*character),
                    plural(*rerolled, "die", "dice"),
                    plural(total, "fist", "fists")
                )
            } else {
                format!(
                    "{} rolls {dice}: {}.",
                    name(*character),
                    plural(total, "fist", "fists")
                )
            }
        }
        Fact::DreadCardMet {
            card,
            points,
            beaten,
            ..
        } => {
            let d = state.cards.dread.get(card).map_or(0, |c| c.difficulty);
            let points = plural(*points, "point", "points");
            if *beaten {
                format!("{points} against {d}: {card} is dealt with, and what it taught goes onto the Investigation deck.")
            } else {
                format!("{points} against {d}: {card} is too much for them and stays.")
            }
        }
        Fact::WalkedAway { place } => {
            format!("They walk away from {} and let it be.", place.words())
        }
        Fact::PlotResolved {
            letter,
            fists,
            tier,
            impeccable,
            ..
        } => {
            let mut lines = Vec::new();
            if let Some(p) = state.plot(*letter) {
                lines.push(format!(
                    "{} for Plot {letter}, {}.",
                    plural(*fists, "fist", "fists"),
                    p.name
                ));
                if !p.story.is_empty() {
                    lines.push(p.story.clone());
                }
                if let Some(t) = p.tiers.get(*tier) {
                    if !t.text.is_empty() {
                        lines.push(t.text.clone());
                    }
                    if !t.effect.is_empty() {
                        lines.push(format!("Outcome: {}.", t.effect.words()));
                    }
                }
            }
            if *impeccable > 0 {
                lines.push(format!(
                    "An impeccable investigation: {} gained.",
                    plural(*impeccable, "Confidence card", "Confidence cards")
                ));
            }
            return lines;
        }
        Fact::EndgameTriggered { place, letter, .. } => {
            let mut lines = Vec::new();
            if let Some(p) = state.plot(*letter) {
                let here = state.at(*place);
                lines.push(format!(
                    "{} {} Plot {letter}, {}, at {}.",
                    names(state, &here),
                    if here.len() == 1 { "reaches" } else { "reach" },
                    p.name,
                    place.words()
                ));
                if !p.story.is_empty() {
                    lines.push(p.story.clone());
                }
            }
            return lines;
        }
        Fact::ConfidenceGained { cards, hand } => match hand {
            Some(c) => format!("{} takes heart: {}.", name(*c), cards.join(", ")),
            None => format!(
                "Confidence grows: {} onto the Investigation deck.",
                plural(cards.len() as u32, "card", "cards")
            ),
        },
        Fact::VirtueGained { character, count } => format!(
            "{} gains {}.",
            name(*character),
            plural(*count, "Virtue", "Virtues")
        ),
        Fact::ItemGained {
            character, item, ..
        } => {
            format!("{} takes {item}.", name(*character))
        }
        Fact::SupplySet { .. } => return Vec::new(),
        Fact::ItemsOwed { characters } => format!(
            "Items to choose: {}.",
            characters
                .iter()
                .map(|&c| name(c))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Fact::DiceGained { character, count } => format!(
            "{} earns {} for the showdown.",
            name(*character),
            plural(*count, "Action die", "Action dice")
        ),
        Fact::AllyRecruited {
            character, ally, ..
        } => format!("{ally} joins {}.", name(*character)),
        Fact::SegmentEnded { segment, missed } => {
            if missed.is_empty() {
                format!("The {} is over.", segment.word())
            } else {
                let m: Vec<String> = missed.iter().map(|l| format!("Plot {l}")).collect();
                format!(
                    "The {} is over, and {} went uninvestigated.",
                    segment.word(),
                    m.join(", ")
                )
            }
        }
        Fact::ChapterEnded { chapter, .. } => format!(
            "Chapter {} is over. The board is cleared and the tokens go home.",
            chapter + 1
        ),
        Fact::ChapterDealt { chapter, .. } => format!(
            "Chapter {} begins: 24 new cards lie face down across London.",
            chapter + 1
        ),
        Fact::ItemsReadied {} => return Vec::new(),
        Fact::EndgameBegan { hands, dice } => {
            let a = &state.story.antagonist;
            let mut lines = vec![format!("The Endgame. {} waits: {}", a.name, a.text)];
            for (c, hand) in hands.iter().enumerate() {
                if state.characters[c].defeated {
                    continue;
                }
                lines.push(format!(
                    "{} goes in with {} and {}.",
                    name(c),
                    plural(
                        hand.len() as u32,
                        "Investigation card",
                        "Investigation cards"
                    ),
                    plural(dice[c], "Action die", "Action dice")
                ));
            }
            return lines;
        }
        Fact::Stayed { character } => format!("{} stays in.", name(*character)),
        Fact::Withdrew { character } => format!(
            "{} falls back to gather strength for the showdown.",
            name(*character)
        ),
        Fact::ChallengeRevealed { card, queue } => {
            let c = state.story.challenges.iter().find(|c| &c.name == card);
            format!(
                "Challenge {}: {card} (difficulty {}), faced by {}.",
                state.faced.len() + 1,
                c.map_or(0, |c| c.difficulty),
                names(state, queue)
            )
        }
        Fact::ChallengeMet {
            character,
            card,
            points,
            met,
        } => {
            let d = state
                .story
                .challenges
                .iter()
                .find(|c| &c.name == card)
                .map_or(0, |c| c.difficulty);
            if *met {
                format!("{} meets {card}: {points} against {d}.", name(*character))
            } else {
                format!("{} fails {card}: {points} against {d}.", name(*character))
            }
        }
        Fact::ShowdownBegan { needed } => format!(
            "The Final Showdown with {}: {} needed.",
            state.story.antagonist.name,
            plural(*needed, "fist", "fists")
        ),
        Fact::GameLost { why } => {
            let mut lines = vec![format!("The investigators lose: {why}.")];
            if !state.story.defeat.is_empty() {
                lines.push(state.story.defeat.clone());
            }
            return lines;
        }
        Fact::GameWon { fists, needed } => {
            let mut lines = vec![format!(
                "{} against {needed}: {} is brought down. The investigators win.",
                plural(*fists, "fist", "fists"),
                state.story.antagonist.name
            )];
            if !state.story.victory.is_empty() {
                lines.push(state.story.victory.clone());
            }
            return lines;
        }
    };
    if line.is_empty() {
        return Vec::new();
    }
    // An hour ends in "a.m." already.
    let line = match line.strip_suffix("..") {
        Some(l) => format!("{l}."),
        None => line,
    };
    vec![line]
}

pub fn chapter(state: &State) -> String {
    let n = state.chapter + 1;
    match &state.phase {
        // Hours are told as they come ("It is 8 a.m."): the event that
        // calls one also moves everyone, so it cannot open its own section.
        Phase::Planning { .. } => format!("Chapter {n}: planning"),
        Phase::Story { .. } => format!("Chapter {n}: the story"),
        Phase::Endgame(_) => "The Endgame".into(),
        Phase::Showdown { .. } => "The Final Showdown".into(),
        Phase::Over => "Afterwards".into(),
    }
}

pub fn epilogue(state: &State) -> Vec<String> {
    let Some(o) = &state.outcome else {
        return vec![format!(
            "The story is unfinished; dread stands at {}.",
            state.dread
        )];
    };
    let mut lines = vec![if o.won {
        format!("Victory over {}: {}.", state.story.antagonist.name, o.why)
    } else {
        format!("Defeat: {}.", o.why)
    }];
    lines.push(format!("Dread ended at {}.", state.dread));
    if let Some(s) = &o.score {
        lines.push(format!(
            "Score {}: survivors {}, extra fists {}, items {}, virtues {}, cards {}, conditions {}.",
            s.total, s.survivors, s.extra_fists, s.items, s.virtues, s.cards, s.conditions
        ));
    }
    lines
}

/// The table as text, for `viewer` (face-down cards stay face down).
pub fn render(state: &State, viewer: Viewer) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "London Dread: {} · {} · dread {}/{DREAD_LIMIT}",
        state.story.name,
        chapter(state),
        state.dread
    );
    if let Phase::Planning {
        ends_at_ms: Some(end),
        ..
    } = state.phase
    {
        let _ = writeln!(t, "Planning ends at {}", clock_time(end));
    }
    if !state.in_endgame() && !state.over() {
        for (a, area) in AREAS.iter().enumerate() {
            let _ = write!(t, "{:<6}", area.word());
            for spot in 0..6 {
                let cell = match &state.locations[a * 6 + spot] {
                    Spot::Down { card } => match (viewer, card) {
                        (Viewer::Owner, Some(c)) => format!("[{}]", short_card(c)),
                        _ => "[ ? ]".into(),
                    },
                    Spot::Up { face } => match face {
                        Face::Dread(n) => n.clone(),
                        Face::Plot(l) => format!("Plot {l}"),
                        Face::Ally(n) => format!("Ally {n}"),
                    },
                    Spot::Empty => "-".into(),
                };
                let _ = write!(t, " {}:{cell}", spot + 1);
            }
            let _ = writeln!(t);
        }
    }
    for c in &state.characters {
        let _ = write!(t, "{} (seat {}) at {}", c.name, c.seat, c.place.words());
        if c.defeated {
            let _ = write!(t, ", defeated");
        }
        if !c.conditions.is_empty() {
            let cs: Vec<&str> = c.conditions.iter().map(|c| c.word()).collect();
            let _ = write!(t, ", {}", cs.join(", "));
        }
        let _ = write!(t, "; virtues {}", c.virtues);
        if !c.items.is_empty() {
            let items: Vec<String> = c
                .items
                .iter()
                .map(|h| {
                    if h.tilted {
                        format!("{} (tilted)", h.name)
                    } else {
                        h.name.clone()
                    }
                })
                .collect();
            let _ = write!(t, "; items {}", items.join(", "));
        }
        if !c.allies.is_empty() {
            let _ = write!(t, "; allies {}", c.allies.join(", "));
        }
        if state.in_endgame() {
            let _ = write!(t, "; {} dice, {} cards in hand", c.dice, c.hand.len());
            if c.out {
                let _ = write!(t, ", bowed out");
            }
        }
        let _ = writeln!(t);
        if matches!(state.phase, Phase::Planning { .. } | Phase::Story { .. }) {
            let slots: Vec<String> = c
                .clock
                .iter()
                .map(|s| match s {
                    None => ".".into(),
                    Some(tok) => match tok.arrow {
                        Some(a) => {
                            format!("{}{}", &a.word()[..1], if tok.stash { "*" } else { "" })
                        }
                        None => format!("{}{}", tok.number, if tok.stash { "*" } else { "" }),
                    },
                })
                .collect();
            let _ = writeln!(t, "  clock: {}", slots.join(" "));
        }
    }
    let _ = writeln!(
        t,
        "Investigation deck {} · Supply: {}",
        state.investigation.len(),
        if state.supply.is_empty() {
            "empty".into()
        } else {
            state.supply.join(", ")
        }
    );
    if let Some(e) = &state.encounter {
        let what = match &e.target {
            Target::Dread { place, card } => format!("{card} at {place}"),
            Target::Plot { place, letter } => format!("Plot {letter} at {place}"),
            Target::Challenge { card } => format!("challenge {card}"),
            Target::Showdown => "the Final Showdown".into(),
        };
        let who: Vec<usize> = e.shares.iter().map(|s| s.character).collect();
        let _ = writeln!(t, "Under way: {what}, with {}", names(state, &who));
    }
    if let Phase::Endgame(Endgame::Facing { card, .. }) = &state.phase {
        let _ = writeln!(t, "Challenge: {card}");
    }
    if let Some(o) = &state.outcome {
        let _ = writeln!(t, "{}: {}", if o.won { "Won" } else { "Lost" }, o.why);
    }
    t
}

fn short_card(c: &super::state::Card) -> String {
    match c {
        super::state::Card::Placeholder => "placeholder".into(),
        super::state::Card::Dread(n) | super::state::Card::Ally(n) => n.clone(),
    }
}
