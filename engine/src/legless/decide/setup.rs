//! Setting out the table: one card of each location pair, a character
//! for each player, the decks, and the first player after the banker.

use super::*;
use crate::memo::Memo;
use crate::rules::Setup;
use std::sync::Arc;

/// Lays out a new game (the count of players is the kind's `about.json`'s,
/// checked before).
pub fn setup(setup: Setup<'_, Options, Pack>, chance: &mut Chance) -> Result<State, Rejection> {
    let (players, options, pack, dice) = (setup.players, &setup.options, &setup.pack, setup.dice);
    let n = players.len();
    if options.banker as usize >= n {
        return reject(
            "setup.banker",
            format!(
                "option `banker`: seat {} is not at this table of {n}",
                options.banker
            ),
        );
    }
    let physical = dice == DiceMode::Physical;
    let record = options.record;
    if record {
        if !physical {
            return reject(
                "setup.record",
                "record mode is for a table rolling its own dice: add --dice physical",
            );
        }
        for (given, name) in [
            (options.characters.is_some(), "characters"),
            (options.locations.is_some(), "locations"),
        ] {
            if given {
                return reject(
                    "setup.record",
                    format!("in record mode each card is typed as it comes into play: leave out option `{name}`"),
                );
            }
        }
    }
    if record != options.sickroom_fee.is_some() {
        return reject(
            "setup.sickroom_fee",
            if record {
                "record mode: give the fee on your Sickroom card, option `sickroom_fee`"
            } else {
                "option `sickroom_fee` is for record mode; the pack's Sickroom card says the fee"
            },
        );
    }
    // Record mode uses the pack's board, and nothing else of it.
    let bare;
    let pack = if record {
        bare = Pack {
            location_cards: Vec::new(),
            legs: Vec::new(),
            street_events: Vec::new(),
            risk_booklet: Vec::new(),
            characters: Vec::new(),
            ..pack.clone()
        };
        &bare
    } else {
        pack
    };

    // One card of each location pair.
    let mut cards = std::collections::BTreeMap::new();
    if let Some(fee) = options.sickroom_fee {
        let sickroom = LocationCard {
            id: format!("{}-table", pack.sickroom),
            location: pack.sickroom.clone(),
            work: None,
            love: None,
            property: None,
            sickroom: Some(super::super::content::Price { cost: fee }),
        };
        cards.insert(pack.sickroom.clone(), sickroom);
    } else if let Some(chosen) = &options.locations {
        for id in chosen {
            let Some(card) = pack.location_cards.iter().find(|c| &c.id == id) else {
                return reject(
                    "setup.locations",
                    format!("option `locations`: no location card `{id}`"),
                );
            };
            if cards.insert(card.location.clone(), card.clone()).is_some() {
                return reject(
                    "setup.locations",
                    format!("option `locations`: two cards for `{}`", card.location),
                );
            }
        }
        if let Some(l) = pack.locations.iter().find(|l| !cards.contains_key(&l.id)) {
            return reject(
                "setup.locations",
                format!("option `locations`: no card chosen for {}", l.name),
            );
        }
    } else if physical {
        return reject(
            "setup.locations_needed",
            "with physical dice, say which card of each location pair the table chose: option `locations` (card ids)",
        );
    } else {
        for l in &pack.locations {
            let pair: Vec<String> = pack
                .location_cards
                .iter()
                .filter(|c| c.location == l.id)
                .map(|c| c.id.clone())
                .collect();
            let i = chance.pick(&format!("{} card", l.name), &pair, "locations", None)?;
            let card = pack
                .location_cards
                .iter()
                .find(|c| c.id == pair[i])
                .expect("picked from the pack");
            cards.insert(l.id.clone(), card.clone());
        }
    }

    // A character card each.
    let mut unused: Vec<String> = pack.characters.iter().map(|c| c.name.clone()).collect();
    unused.sort();
    if unused.len() < n && !record {
        return reject(
            "setup.characters",
            format!("the pack has {} characters for {n} players", unused.len()),
        );
    }
    let dealt: Vec<String> = if record {
        Vec::new()
    } else if let Some(chosen) = &options.characters {
        if chosen.len() != n {
            return reject(
                "setup.characters",
                format!(
                    "option `characters`: one per seat ({n}), not {}",
                    chosen.len()
                ),
            );
        }
        let mut seen = BTreeSet::new();
        for c in chosen {
            if !unused.contains(c) {
                return reject(
                    "setup.characters",
                    format!("option `characters`: no character `{c}` in the pack"),
                );
            }
            if !seen.insert(c) {
                return reject(
                    "setup.characters",
                    format!("option `characters`: `{c}` is dealt twice"),
                );
            }
        }
        chosen.clone()
    } else if physical {
        return reject(
            "setup.characters_needed",
            "with physical dice, say which character card each seat was dealt: option `characters`",
        );
    } else {
        let mut dealt = Vec::with_capacity(n);
        let mut left = unused.clone();
        for p in players {
            let i = chance.pick(&format!("{p}'s character"), &left, "characters", None)?;
            dealt.push(left.remove(i));
        }
        dealt
    };
    unused.retain(|c| !dealt.contains(c));

    let mut deck: Vec<String> = pack
        .street_events
        .iter()
        .flat_map(|e| std::iter::repeat_n(e.name.clone(), e.count as usize))
        .collect();
    deck.sort();
    let mut pile: Vec<String> = pack.legs.iter().map(|l| l.name.clone()).collect();
    pile.sort();

    // In record mode each player types their character before play.
    let undealt = |p: &String| Londoner {
        player: p.clone(),
        character: String::new(),
        at: Place::Location(pack.sickroom.clone()),
        money: 0,
        health: 0,
        max_health: 0,
        legs: Vec::new(),
        equipped: None,
        tokens: Vec::new(),
        sick: false,
        miss_turns: 0,
        dead: true,
        deaths: Vec::new(),
    };
    let londoners = if record {
        players.iter().map(undealt).collect()
    } else {
        players
            .iter()
            .zip(&dealt)
            .map(|(p, c)| {
                let ch = pack
                    .characters
                    .iter()
                    .find(|x| &x.name == c)
                    .expect("dealt from the pack");
                Londoner {
                    player: p.clone(),
                    character: c.clone(),
                    at: ch.start.clone(),
                    money: ch.money,
                    health: ch.health,
                    max_health: ch.health,
                    legs: Vec::new(),
                    equipped: None,
                    tokens: Vec::new(),
                    sick: false,
                    miss_turns: 0,
                    dead: false,
                    deaths: Vec::new(),
                }
            })
            .collect()
    };
    let mut state = State {
        rules: setup.rules_version,
        dice,
        record,
        board: Arc::new(pack.board.clone()),
        locations: Arc::new(pack.locations.clone()),
        cards: Arc::new(cards),
        leg_store: pack.leg_store.clone(),
        sickroom: pack.sickroom.clone(),
        legs: Arc::new(
            pack.legs
                .iter()
                .map(|l| (l.name.clone(), l.clone()))
                .collect(),
        ),
        pile,
        street_events: Arc::new(
            pack.street_events
                .iter()
                .map(|e| (e.name.clone(), e.clone()))
                .collect(),
        ),
        deck,
        discard: Vec::new(),
        booklet: Arc::new(
            pack.risk_booklet
                .iter()
                .map(|p| (p.page, p.clone()))
                .collect(),
        ),
        characters: Arc::new(
            pack.characters
                .iter()
                .map(|c| (c.name.clone(), c.clone()))
                .collect(),
        ),
        unused,
        londoners,
        banker: options.banker,
        round: 1,
        round_limit: options.round_limit,
        phase: Phase::Over,
        outcome: None,
        read_board: Memo::default(),
    };
    let first = state.first();
    state.phase = Phase::Playing(Turn {
        seat: first,
        stage: Stage::Act,
    });
    Ok(state)
}
