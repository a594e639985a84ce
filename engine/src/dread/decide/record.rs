//! Record mode: a table playing its own box. The story's frame (its name,
//! how many Plot cards each chapter has, the Antagonist) and the character
//! sheets come with the options; every other card is typed the first time
//! it comes into play, in place of its name, and checked against what is
//! already known (never against the sample pack). The typed cards are told
//! as facts before the action's own, so the rest of the rules read them as
//! they read a pack's.

use super::*;
use crate::dread::actions::Drawn;
use crate::dread::content::{
    Antagonist, Chapter, Character, Story, Tier, Trait, TypedCard, CHALLENGES, PERSONALITY,
};
use crate::dread::options::Options;
use crate::dread::state::Target;

/// The story's frame as the options give it.
pub(super) fn story(options: &Options) -> Result<Story, Rejection> {
    if options.plots.is_empty() {
        return reject(
            "dread.record",
            "option `plots`: in record mode, say how many Plot cards each chapter has (such as 5,6)",
        );
    }
    let Some(antagonist) = &options.antagonist else {
        return reject(
            "dread.record",
            r#"option `antagonist`: in record mode, type the Antagonist face up from the start: {"name": "...", "text": "..."}"#,
        );
    };
    if antagonist.name.trim().is_empty() {
        return reject("dread.record", "option `antagonist`: its `name` is empty");
    }
    Ok(Story {
        name: options
            .story
            .clone()
            .unwrap_or_else(|| "The table's story".into()),
        intro: String::new(),
        chapters: vec![Chapter { plots: Vec::new() }; options.plots.len()],
        challenges: Vec::new(),
        antagonist: Antagonist {
            name: antagonist.name.trim().to_string(),
            text: antagonist.text.trim().to_string(),
            extra_successes: antagonist.extra_successes,
        },
        endgame_wild: antagonist.endgame_wild,
        victory: String::new(),
        defeat: String::new(),
    })
}

/// The characters `names` as their typed sheets describe them.
pub(super) fn characters(
    names: &[String],
    sheets: &[crate::dread::content::Sheet],
) -> Result<Vec<Character>, Rejection> {
    if sheets.len() != names.len() {
        return reject(
            "dread.record",
            format!(
                "option `sheets`: {} characters ({}), {} sheets: type one sheet for each, in the same order",
                names.len(),
                names.join(", "),
                sheets.len()
            ),
        );
    }
    let mut out = Vec::new();
    for (i, (name, sheet)) in names.iter().zip(sheets).enumerate() {
        let [a, b] = sheet.icons;
        if !a.primary() || !b.primary() || a == b {
            return reject(
                "dread.record",
                format!(
                    "option `sheets`[{i}].icons: {name}'s sheet shows two different primary icons (Strength, Charm, Guile, Spirit, Lore, Courage) beside its Wild"
                ),
            );
        }
        out.push(Character {
            name: name.clone(),
            icons: sheet.icons,
            virtue: sheet.virtue.clone(),
            personality: Vec::new(),
            story: sheet.story.clone(),
        });
    }
    Ok(out)
}

/// The cards `action` types, checked and told as facts on `out`; the
/// action comes back with each typed card replaced by its name (a typed
/// Plot card by `placeholder`, which it stood for), or `None` when it
/// types nothing.
pub(super) fn typed(out: &mut Out, action: &Action) -> Result<Option<Action>, Rejection> {
    // A Dread action is a few fields: the copy is cheap beside the state's.
    let mut plain = action.clone();
    let mut found = Vec::new();
    let for_character = match action {
        Action::Flip { character, .. } => Some(*character),
        _ => None,
    };
    if let Action::Reveal { card, .. } = &mut plain {
        match card.take() {
            Some(Drawn::Typed(typed)) => {
                *card = Some(match typed.as_ref() {
                    TypedCard::Plot(_) => Drawn::from("placeholder"),
                    other => Drawn::Named(other.name().to_string()),
                });
                found.push(*typed);
            }
            other => *card = other,
        }
    }
    if let Some(outcomes) = outcomes_mut(&mut plain) {
        for drawn in &mut outcomes.drew {
            if let Drawn::Typed(typed) = drawn {
                let named = Drawn::Named(typed.name().to_string());
                if let Drawn::Typed(typed) = std::mem::replace(drawn, named) {
                    found.push(*typed);
                }
            }
        }
    }
    let reverse = match &mut plain {
        Action::Resolve { reverse, .. } => reverse.take(),
        _ => None,
    };
    if found.is_empty() && reverse.is_none() {
        return Ok(None);
    }
    if !out.s.record {
        let what = found
            .first()
            .map(|c| format!("`{}` is typed", c.name()))
            .unwrap_or_else(|| "`reverse` types a Plot card".into());
        return reject(
            "dread.record",
            format!("{what}, but this game plays the pack's cards: name them (typing is for record mode, `record=on`)"),
        );
    }
    for card in found {
        let card = check(&out.s, card, for_character)?;
        let character = matches!(card, TypedCard::Personality(_))
            .then_some(for_character)
            .flatten();
        out.push(Fact::Typed { card, character });
    }
    if let Some(reverse) = reverse {
        let letter = reverse_for(&out.s)?;
        check_tiers(&reverse.tiers)?;
        out.push(Fact::ReverseRead { letter, reverse });
    }
    Ok(Some(plain))
}

fn outcomes_mut(action: &mut Action) -> Option<&mut Outcomes> {
    match action {
        Action::StartPlanning { outcomes }
        | Action::NextAction { outcomes }
        | Action::Investigate { outcomes, .. }
        | Action::Flip { outcomes, .. }
        | Action::Draw { outcomes, .. }
        | Action::UseItem { outcomes, .. }
        | Action::SpendVirtue { outcomes, .. }
        | Action::Sacrifice { outcomes, .. }
        | Action::Roll { outcomes, .. }
        | Action::Reroll { outcomes, .. }
        | Action::Resolve { outcomes, .. }
        | Action::TakeItem { outcomes, .. }
        | Action::RevealChallenge { outcomes } => outcomes.as_mut(),
        _ => None,
    }
}

/// Whether a card named `name` is already known, of any kind.
fn known(state: &State, name: &str) -> bool {
    let c = &state.cards;
    c.items.contains_key(name)
        || c.confidence.contains_key(name)
        || c.dread.contains_key(name)
        || c.allies.contains_key(name)
        || state.story.plots().any(|p| p.name == name)
        || state.story.challenges.iter().any(|p| p.name == name)
}

/// A typed card as it may come into play now, or why it may not.
fn check(state: &State, card: TypedCard, flipper: Option<usize>) -> Result<TypedCard, Rejection> {
    let name = card.name().trim().to_string();
    let kind = card.kind_words();
    let wrong =
        |why: String| reject::<TypedCard>("dread.record", format!("`{name}`, {kind}: {why}"));
    if name.is_empty() {
        return reject(
            "dread.record",
            format!("{} is typed without a name", card.kind_words()),
        );
    }
    if name != card.name() {
        return wrong("type its name without spaces around it".into());
    }
    // The flipping character, whose Personality deck a typed card joins.
    let flipping = flipper.map(|c| &state.characters[c]);
    let again = match &card {
        TypedCard::Personality(_) => {
            flipping.is_some_and(|c| c.personality.iter().any(|p| p.name == name))
        }
        _ => known(state, &name),
    };
    if again {
        return wrong("it is known already: name it instead of typing it again".into());
    }
    match card {
        TypedCard::Item(_) => {}
        TypedCard::Confidence(ref c) if c.icons.is_empty() => {
            return wrong("a Confidence card shows at least one icon".into())
        }
        TypedCard::Ally(ref a) if a.icons.is_empty() => {
            return wrong("an Ally shows at least one icon".into())
        }
        TypedCard::Confidence(_) | TypedCard::Ally(_) => {}
        TypedCard::Dread(ref d) => {
            let tier = (state.chapter + 1) as u8;
            if d.tier != tier {
                return wrong(format!(
                    "this chapter deals Tier {tier} Dread cards, and its tier is {}",
                    d.tier
                ));
            }
            if d.icons.is_empty() || d.difficulty == 0 {
                return wrong("a Dread card shows icons and a difficulty of at least 1".into());
            }
        }
        TypedCard::Personality(ref p) => {
            let Some(c) = flipping else {
                return wrong("a Personality card is typed as it is flipped (`flip`)".into());
            };
            let deck = &c.personality;
            if deck.len() >= PERSONALITY {
                return wrong(format!(
                    "{}'s Personality deck has {PERSONALITY} cards, all known: name the one flipped",
                    c.name
                ));
            }
            if p.kind == Trait::Trauma && deck.iter().any(|q| q.kind == Trait::Trauma) {
                return wrong("a Personality deck holds one Trauma".into());
            }
        }
        TypedCard::Plot(mut plot) => {
            let plots = state.chapter_plots();
            if plots.len() >= state.plot_count() {
                return wrong(format!(
                    "this chapter has {} Plot cards, all on the board",
                    state.plot_count()
                ));
            }
            if !plot.letter.is_ascii_uppercase() {
                return wrong("its letter code is a capital letter, A to Z".into());
            }
            if let Some(before) = state.story.plots().map(|p| p.letter).max() {
                if plot.letter <= before {
                    return wrong(format!(
                        "placeholders turn up the Plot cards in letter order, and Plot {before} came before it"
                    ));
                }
            }
            if !plot.tiers.is_empty() || !plot.story.is_empty() {
                return wrong("type its face only; its reverse is read when it is investigated (`resolve` with `reverse`)".into());
            }
            let last_chapter = state.chapter + 1 == state.story.chapters.len();
            let last = last_chapter && plots.len() + 1 == state.plot_count();
            if plot.endgame && !last {
                return wrong("only the last chapter's last Plot card begins the Endgame".into());
            }
            plot.endgame = last;
            return Ok(TypedCard::Plot(plot));
        }
        TypedCard::Challenge(ref c) => {
            if state.story.challenges.len() >= CHALLENGES {
                return wrong(format!(
                    "a story has {CHALLENGES} Endgame Challenges, all known"
                ));
            }
            if c.icons.is_empty() || c.difficulty == 0 {
                return wrong("a challenge shows icons and a difficulty of at least 1".into());
            }
        }
    }
    Ok(card)
}

/// The Plot card whose reverse is read now: the one being resolved, not
/// yet read.
fn reverse_for(state: &State) -> Result<char, Rejection> {
    let letter = match state.encounter.as_ref().map(|e| &e.target) {
        Some(Target::Plot { letter, .. }) => *letter,
        _ => {
            return reject(
                "dread.record",
                "`reverse` types a Plot card's reverse as it is investigated; no Plot card is",
            )
        }
    };
    if state.plot(letter).is_some_and(|p| !p.tiers.is_empty()) {
        return reject(
            "dread.record",
            format!("the reverse of Plot {letter} is known already"),
        );
    }
    Ok(letter)
}

fn check_tiers(tiers: &[Tier]) -> Result<(), Rejection> {
    if tiers.first().is_none_or(|t| t.successes != 0) {
        return reject(
            "dread.record",
            "`reverse.tiers`: an outcome table starts at 0 successes",
        );
    }
    if tiers.windows(2).any(|w| w[0].successes >= w[1].successes) {
        return reject(
            "dread.record",
            "`reverse.tiers`: each row of the outcome table needs more successes than the one before",
        );
    }
    Ok(())
}

/// Refuses resolving a Plot card whose reverse no one has typed (record
/// mode): its outcome table is there.
pub(super) fn reverse_known(state: &State, letter: char) -> Result<(), Rejection> {
    match state.plot(letter) {
        Some(p) if p.tiers.is_empty() && !p.endgame => reject(
            "dread.reverse_needed",
            format!(
                "type the reverse of Plot {letter}, {}, as `reverse`: {{\"tiers\": [{{\"successes\": 0, \"effect\": {{...}}, \"text\": \"...\"}}, ...], \"story\": \"...\"}}",
                p.name
            ),
        ),
        _ => Ok(()),
    }
}
