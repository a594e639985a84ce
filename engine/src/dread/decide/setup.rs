//! Laying out a story: characters, tokens, Items, Confidence cards, and the
//! 24 locations dealt by the placeholder procedure.

use std::collections::BTreeMap;
use std::sync::Arc;

use tabletape_events::DiceMode;

use super::record;
use super::*;
use crate::dread::content::{Pack, FULL_TABLE, LOCATIONS};
use crate::dread::options::{Options, Variant};
use crate::dread::state::{Area, Card, Cards, Place, Spot};
use crate::rules::Setup;

/// Lays out a new game.
/// Lays out a new game (the count of players is the kind's `about.json`'s,
/// checked before).
pub fn setup(setup: Setup<'_, Options, Pack>, chance: &mut Chance) -> Result<State, Rejection> {
    let (players, options, pack, dice) = (setup.players, &setup.options, &setup.pack, setup.dice);
    let n_players = players.len();
    if options.record && dice != DiceMode::Physical {
        return reject(
            "dread.record",
            "record mode is for a table with its own box and dice: create the game with physical dice",
        );
    }
    if !options.record {
        let given = [
            ("plots", !options.plots.is_empty()),
            ("sheets", !options.sheets.is_empty()),
            ("antagonist", options.antagonist.is_some()),
        ];
        if let Some((option, _)) = given.iter().find(|(_, g)| *g) {
            return reject(
                "dread.record",
                format!("option `{option}` describes a table's own box: it is for record mode (`record=on`)"),
            );
        }
    }
    let record = options.record.then(|| record::story(options)).transpose()?;
    let story = match &options.story {
        _ if record.is_some() => record.as_ref().expect("record mode"),
        Some(name) => pack
            .stories
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                let names: Vec<&str> = pack.stories.iter().map(|s| s.name.as_str()).collect();
                Rejection::new(
                    "dread.story",
                    format!(
                        "option `story`: no story `{name}` in this pack; it has {}",
                        names.join(", ")
                    ),
                )
            })?,
        None => &pack.stories[0],
    }
    .clone();
    let variant = if n_players == FULL_TABLE {
        Variant::Allies
    } else {
        options.variant
    };
    let n_characters = match variant {
        Variant::Pairs => FULL_TABLE,
        Variant::Allies => n_players,
    };
    let names: Vec<String> = match &options.characters {
        Some(names) => {
            if names.len() != n_characters {
                return reject(
                    "dread.characters",
                    format!(
                        "option `characters`: this table plays {n_characters} characters, not {}",
                        names.len()
                    ),
                );
            }
            names.clone()
        }
        None if dice == DiceMode::Physical => {
            return reject(
                "dread.characters",
                "option `characters`: with physical dice, name the characters the table chose",
            )
        }
        None => {
            let mut all: Vec<String> = pack.characters.iter().map(|c| c.name.clone()).collect();
            chance.shuffle("characters", &mut all, "characters", None)?;
            all.truncate(n_characters);
            all
        }
    };
    let sheets = if options.record {
        record::characters(&names, &options.sheets)?
    } else {
        Vec::new()
    };
    let mut characters = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let Some(c) = sheets.get(i).or_else(|| {
            pack.characters
                .iter()
                .find(|c| c.name.eq_ignore_ascii_case(name))
        }) else {
            let known: Vec<&str> = pack.characters.iter().map(|c| c.name.as_str()).collect();
            return reject(
                "dread.characters",
                format!(
                    "option `characters`: no character `{name}`; the pack has {}",
                    known.join(", ")
                ),
            );
        };
        if characters.iter().any(|x: &Investigator| x.name == c.name) {
            return reject(
                "dread.characters",
                format!("option `characters`: {} is named twice", c.name),
            );
        }
        let seat = controller(n_players, n_characters, i, 0);
        characters.push(Investigator::new(c, seat, Place::streets(Area::West)));
    }
    for c in &mut characters {
        c.virtues = options.virtues;
    }
    // In record mode only the dice are the pack's: every card is the
    // table's, known once typed.
    let mut cards = Cards {
        dread: BTreeMap::new(),
        items: BTreeMap::new(),
        confidence: BTreeMap::new(),
        allies: BTreeMap::new(),
        action_die: pack.action_die.clone(),
        trauma_die: pack.trauma_die.clone(),
    };
    let (mut confidence, mut item_deck) = (Vec::new(), Vec::new());
    if !options.record {
        cards.dread = by_name(pack.dread_cards.iter().map(|c| (c.name.clone(), c.clone())));
        cards.items = by_name(pack.items.iter().map(|c| (c.name.clone(), c.clone())));
        cards.confidence = by_name(pack.confidence.iter().map(|c| (c.name.clone(), c.clone())));
        cards.allies = by_name(pack.allies.iter().map(|c| (c.name.clone(), c.clone())));
        confidence = pack.confidence.iter().map(|c| c.name.clone()).collect();
        item_deck = pack.items.iter().map(|c| c.name.clone()).collect();
    }
    let endgame_pair = variant == Variant::Allies && n_players == 2;
    let mut state = State {
        rules: setup.rules_version,
        story: Arc::new(story),
        players: n_players,
        variant,
        minutes: options.difficulty.minutes(),
        timer: options.timer,
        impeccable: options.impeccable,
        dealt_by_table: dice == DiceMode::Physical,
        record: options.record,
        plot_counts: options.plots.clone(),
        start_dealt: dice == DiceMode::Digital,
        starting_items: options.items,
        starting_confidence: options.confidence,
        characters,
        chapter: 0,
        phase: Phase::Planning {
            started_at_ms: None,
            ends_at_ms: None,
        },
        dread: 0,
        locations: vec![Spot::Down { card: None }; LOCATIONS],
        plots: Vec::new(),
        investigated: Vec::new(),
        met: Vec::new(),
        seen: Vec::new(),
        marks: Vec::new(),
        allies_dealt: allies_in_deal(n_players, variant),
        stash: (1..=6).collect(),
        stash_taken: Vec::new(),
        investigation: Vec::new(),
        confidence,
        item_deck,
        supply: Vec::new(),
        leader: None,
        encounter: None,
        item_picks: Vec::new(),
        challenges: Vec::new(),
        faced: Vec::new(),
        most_challenges: if endgame_pair { 6 } else { 3 },
        cards: Arc::new(cards),
        outcome: None,
    };
    if dice == DiceMode::Digital {
        // Starting Items, the Supply, and the Confidence cards in the
        // Investigation deck, drawn as the table would.
        for c in 0..state.characters.len() {
            for _ in 0..options.items {
                let i = chance.pick("starting Item", &state.item_deck, "items", None)?;
                let item = state.item_deck.remove(i);
                state.characters[c].items.push(crate::dread::state::Held {
                    name: item,
                    tilted: false,
                });
            }
        }
        for _ in 0..crate::dread::state::SUPPLY {
            let i = chance.pick("Supply Item", &state.item_deck, "supply", None)?;
            state.supply.push(state.item_deck.remove(i));
        }
        for _ in 0..options.confidence {
            let i = chance.pick("Confidence card", &state.confidence, "confidence", None)?;
            let card = state.confidence.remove(i);
            state.investigation.push(card);
        }
        state.locations = deal(&state, 0, chance)?
            .into_iter()
            .map(|card| Spot::Down { card: Some(card) })
            .collect();
    }
    Ok(state)
}

fn by_name<T>(items: impl Iterator<Item = (String, T)>) -> BTreeMap<String, T> {
    items.collect()
}

/// Allies shuffled into each chapter's deal: all nine with two players,
/// six with three, none at a full table or with four characters.
pub fn allies_in_deal(players: usize, variant: Variant) -> u32 {
    match (variant, players) {
        (Variant::Allies, 2) => 9,
        (Variant::Allies, 3) => 6,
        _ => 0,
    }
}

/// The placeholder procedure for chapter `chapter`: four piles each
/// started by a placeholder; the other placeholders, the Allies and Dread
/// cards of the chapter's tier (20 cards in all) shuffled and dealt out
/// among the piles; each pile shuffled onto the six locations of an area
/// (North, East, South, West).
pub fn deal(state: &State, chapter: usize, chance: &mut Chance) -> Result<Vec<Card>, Rejection> {
    let plots = state.story.chapters[chapter].plots.len();
    let tier = (chapter + 1) as u8;
    let mut hand: Vec<Card> = vec![Card::Placeholder; plots - 4];
    let mut allies: Vec<String> = state.cards.allies.keys().cloned().collect();
    chance.shuffle("Allies", &mut allies, "allies", None)?;
    hand.extend(
        allies
            .into_iter()
            .take(state.allies_dealt as usize)
            .map(Card::Ally),
    );
    let mut dread: Vec<String> = state
        .cards
        .dread
        .values()
        .filter(|c| c.tier == tier)
        .map(|c| c.name.clone())
        .collect();
    chance.shuffle("Dread cards", &mut dread, "dread", None)?;
    let wanted = LOCATIONS - 4 - hand.len();
    hand.extend(dread.into_iter().take(wanted).map(Card::Dread));
    chance.shuffle("the hand of Location cards", &mut hand, "hand", None)?;
    let mut piles: Vec<Vec<Card>> = vec![vec![Card::Placeholder]; 4];
    for (k, card) in hand.into_iter().enumerate() {
        piles[k % 4].push(card);
    }
    let mut layout = Vec::with_capacity(LOCATIONS);
    for (a, mut pile) in piles.into_iter().enumerate() {
        chance.shuffle(
            &format!("the {} pile", crate::dread::state::AREAS[a].word()),
            &mut pile,
            "pile",
            None,
        )?;
        layout.extend(pile);
    }
    Ok(layout)
}
