//! Folds one fact into the state. Never fails: `decide` checked everything.

use std::sync::Arc;

use super::actions::Fact;
use super::content::{Trait, TypedCard};
use super::state::{
    Encounter, Endgame, Face, Outcome, Phase, Place, Score, Share, Spot, State, Target,
};

fn share(state: &mut State, character: usize) -> Option<&mut Share> {
    state
        .encounter
        .as_mut()
        .and_then(|e| e.shares.iter_mut().find(|s| s.character == character))
}

fn take(list: &mut Vec<String>, name: &str) {
    if let Some(i) = list.iter().position(|n| n == name) {
        list.remove(i);
    }
}

/// Fists the team rolled and added in the encounter under way.
pub fn fists(e: &Encounter) -> u32 {
    e.shares
        .iter()
        .map(|s| s.rolled.iter().flatten().sum::<u32>() + s.successes)
        .sum()
}

pub fn score(state: &State, extra_fists: u32) -> Score {
    let alive = state.characters.iter().filter(|c| !c.defeated);
    let mut s = Score {
        survivors: 0,
        extra_fists: 3 * extra_fists,
        items: 0,
        virtues: 0,
        cards: 0,
        conditions: 0,
        total: 0,
    };
    for c in alive {
        s.survivors += 4;
        s.items += 3 * c.items.len() as u32;
        s.virtues += 2 * c.virtues;
        s.cards += c.hand.len() as u32;
        s.conditions += c.conditions.len() as u32;
    }
    s.total = s.survivors + s.extra_fists + s.items + s.virtues + s.cards + s.conditions;
    s
}

pub fn apply(state: &mut State, fact: &Fact) {
    match fact {
        Fact::Typed { card, character } => typed(state, card, *character),
        Fact::ReverseRead { letter, reverse } => {
            let story = Arc::make_mut(&mut state.story);
            let plot = story
                .chapters
                .iter_mut()
                .flat_map(|c| c.plots.iter_mut())
                .find(|p| p.letter == *letter);
            if let Some(plot) = plot {
                plot.tiers = reverse.tiers.clone();
                plot.story = reverse.story.clone();
            }
        }
        Fact::PlanningStarted {
            started_at_ms,
            ends_at_ms,
        } => {
            state.start_dealt = true;
            state.phase = Phase::Planning {
                started_at_ms: Some(*started_at_ms),
                ends_at_ms: *ends_at_ms,
            }
        }
        Fact::Marked { place, token } => {
            state.marks.retain(|(p, _)| p != place);
            if let Some(t) = token {
                state.marks.push((*place, *t));
            }
        }
        Fact::Revealed { place, face } => {
            if let Some(i) = place.index() {
                state.locations[i] = Spot::Up { face: face.clone() };
            }
            match face {
                Face::Plot(letter) => state.plots.push((*letter, *place)),
                Face::Dread(name) | Face::Ally(name) => state.seen.push(name.clone()),
            }
        }
        Fact::TokenPlaced {
            character,
            slot,
            token,
        } => {
            if token.stash {
                if let Some(i) = state.stash.iter().position(|&n| n == token.number) {
                    state.stash.remove(i);
                }
                if state.rules >= 2 && !state.stash_taken.contains(&token.number) {
                    state.stash_taken.push(token.number);
                }
            }
            state.characters[*character].clock[*slot as usize - 1] = Some(*token);
        }
        Fact::TokenTaken { character, slot } => {
            if let Some(t) = state.characters[*character].clock[*slot as usize - 1].take() {
                if t.stash {
                    state.stash.push(t.number);
                    state.stash.sort_unstable();
                }
            }
        }
        Fact::StoryBegan { leader } => {
            state.leader = Some(*leader);
            state.phase = Phase::Story { action: 0 };
        }
        Fact::Detoured {
            character,
            slot,
            toward,
        } => {
            if let Some(t) = &mut state.characters[*character].clock[*slot as usize - 1] {
                t.arrow = Some(*toward);
            }
        }
        Fact::DreadRose { by, .. } => state.dread += by,
        Fact::DreadFell { by, .. } => state.dread = state.dread.saturating_sub(*by),
        Fact::ActionCalled { action } => {
            state.phase = Phase::Story { action: *action };
            state.met.clear();
        }
        Fact::Moved { character, to } => state.characters[*character].place = *to,
        Fact::EncounterOpened { target, present } => {
            if let Target::Dread { place, .. } | Target::Plot { place, .. } = target {
                state.met.push(*place);
            }
            state.encounter = Some(Encounter {
                target: target.clone(),
                shares: present
                    .iter()
                    .map(|&c| Share {
                        character: c,
                        ..Share::default()
                    })
                    .collect(),
            })
        }
        Fact::Flipped { character, card } => {
            if let Some(s) = share(state, *character) {
                s.flipped = Some(*card);
            }
        }
        Fact::TraumaRolled { .. } => {}
        Fact::ConditionTaken {
            character,
            condition,
        } => {
            let c = &mut state.characters[*character];
            if !c.conditions.contains(condition) {
                c.conditions.push(*condition);
                c.conditions.sort_unstable();
            }
        }
        Fact::ConditionHealed {
            character,
            condition,
        } => state.characters[*character]
            .conditions
            .retain(|c| c != condition),
        Fact::Defeated { character } => {
            let c = &mut state.characters[*character];
            c.defeated = true;
            c.dice = 0;
            let facing = state.encounter.as_ref().is_some_and(|e| {
                matches!(e.target, Target::Challenge { .. }) && e.shares[0].character == *character
            });
            if facing {
                next_challenger(state, *character);
            } else if let Phase::Endgame(Endgame::Facing { queue, .. }) = &mut state.phase {
                queue.retain(|q| q != character);
            }
        }
        Fact::CardAdded {
            character,
            card,
            from_hand,
        } => {
            if *from_hand {
                take(&mut state.characters[*character].hand, card);
            } else {
                take(&mut state.investigation, card);
            }
            if let Some(s) = share(state, *character) {
                s.cards.push(card.clone());
            }
        }
        Fact::ItemUsed {
            character,
            item,
            depleted,
        } => {
            let c = &mut state.characters[*character];
            if *depleted {
                c.items.retain(|h| &h.name != item);
            } else if let Some(h) = c.items.iter_mut().find(|h| &h.name == item) {
                h.tilted = true;
            }
        }
        Fact::VirtueSpent { character } => {
            let c = &mut state.characters[*character];
            c.virtues = c.virtues.saturating_sub(1);
        }
        Fact::AllySacrificed { character, ally } => {
            take(&mut state.characters[*character].allies, ally)
        }
        Fact::Boosted {
            character,
            icons,
            successes,
            rerolls,
        } => {
            if let Some(s) = share(state, *character) {
                s.icons.extend(icons.iter().copied());
                s.successes += successes;
                s.rerolls += rerolls;
            }
        }
        Fact::DiceRolled {
            character,
            fists,
            rerolled,
        } => {
            if let Some(s) = share(state, *character) {
                s.rolled = Some(fists.clone());
                s.rerolls = s.rerolls.saturating_sub(*rerolled);
            }
        }
        Fact::DreadCardMet {
            place,
            card,
            beaten,
            ..
        } => {
            if *beaten {
                if let Some(i) = place.index() {
                    state.locations[i] = Spot::Empty;
                }
                state.investigation.push(card.clone());
            }
            close_encounter(state);
        }
        Fact::WalkedAway { .. } => close_encounter(state),
        Fact::PlotResolved { place, letter, .. } | Fact::EndgameTriggered { place, letter, .. } => {
            if let Some(i) = place.index() {
                state.locations[i] = Spot::Empty;
            }
            state.investigated.push(*letter);
            close_encounter(state);
        }
        Fact::ConfidenceGained { cards, hand } => {
            for card in cards {
                take(&mut state.confidence, card);
                match hand {
                    Some(c) => state.characters[*c].hand.push(card.clone()),
                    None => state.investigation.push(card.clone()),
                }
            }
        }
        Fact::VirtueGained { character, count } => state.characters[*character].virtues += count,
        Fact::ItemGained {
            character,
            item,
            owed,
        } => {
            take(&mut state.item_deck, item);
            take(&mut state.supply, item);
            state.characters[*character].items.push(super::state::Held {
                name: item.clone(),
                tilted: false,
            });
            if *owed && state.item_picks.first() == Some(character) {
                state.item_picks.remove(0);
            }
        }
        Fact::SupplySet { supply } => {
            for item in supply {
                take(&mut state.item_deck, item);
            }
            state.supply = supply.clone();
        }
        Fact::ItemsOwed { characters } => state.item_picks.extend(characters.iter().copied()),
        Fact::DiceGained { character, count } => state.characters[*character].dice += count,
        Fact::AllyRecruited {
            character,
            place,
            ally,
        } => {
            if let Some(i) = place.index() {
                state.locations[i] = Spot::Empty;
            }
            state.characters[*character].allies.push(ally.clone());
        }
        Fact::SegmentEnded { .. } => {}
        Fact::ChapterEnded { .. } => {
            state.encounter = None;
            for c in &mut state.characters {
                // Allies kept are each a Confidence card (counted by the
                // fact that follows); the tokens go home.
                c.allies.clear();
                c.clock = vec![None; c.clock.len()];
            }
            state.stash = (1..=6).collect();
            state.stash_taken.clear();
        }
        Fact::ChapterDealt {
            chapter,
            cards,
            allies,
        } => {
            state.chapter = *chapter;
            state.locations = match cards {
                Some(cards) => cards
                    .iter()
                    .map(|c| Spot::Down {
                        card: Some(c.clone()),
                    })
                    .collect(),
                None => vec![Spot::Down { card: None }; super::content::LOCATIONS],
            };
            state.plots.clear();
            state.investigated.clear();
            state.seen.clear();
            state.met.clear();
            state.marks.clear();
            state.allies_dealt = *allies;
            state.leader = None;
            state.phase = Phase::Planning {
                started_at_ms: None,
                ends_at_ms: None,
            };
            let players = state.players;
            let n = state.characters.len();
            for (i, c) in state.characters.iter_mut().enumerate() {
                c.place = Place::streets(super::state::Area::West);
                c.seat = super::decide::controller(players, n, i, *chapter);
            }
        }
        Fact::ItemsReadied {} => {
            for c in &mut state.characters {
                for h in &mut c.items {
                    h.tilted = false;
                }
            }
        }
        Fact::EndgameBegan { hands, dice } => {
            state.encounter = None;
            state.locations = vec![Spot::Empty; super::content::LOCATIONS];
            state.plots.clear();
            state.marks.clear();
            state.challenges = state
                .story
                .challenges
                .iter()
                .map(|c| c.name.clone())
                .collect();
            let stage = state.story.chapters.len();
            let players = state.players;
            let n = state.characters.len();
            for (i, c) in state.characters.iter_mut().enumerate() {
                c.hand = hands.get(i).cloned().unwrap_or_default();
                c.dice = dice.get(i).copied().unwrap_or(0);
                c.seat = super::decide::controller(players, n, i, stage);
            }
            state.investigation.clear();
            state.phase = Phase::Endgame(Endgame::Choosing {
                decided: Vec::new(),
            });
        }
        Fact::Stayed { character } => {
            if let Phase::Endgame(Endgame::Choosing { decided }) = &mut state.phase {
                decided.push(*character);
            }
        }
        Fact::Withdrew { character } => {
            state.characters[*character].out = true;
            if let Phase::Endgame(Endgame::Choosing { decided }) = &mut state.phase {
                decided.push(*character);
            }
        }
        Fact::ChallengeRevealed { card, queue } => {
            take(&mut state.challenges, card);
            state.faced.push(card.clone());
            state.phase = Phase::Endgame(Endgame::Facing {
                card: card.clone(),
                queue: queue.clone(),
            });
            state.encounter = queue.first().map(|&c| Encounter {
                target: Target::Challenge { card: card.clone() },
                shares: vec![Share {
                    character: c,
                    ..Share::default()
                }],
            });
        }
        Fact::ChallengeMet { character, .. } => next_challenger(state, *character),
        Fact::ShowdownBegan { needed } => {
            for c in &mut state.characters {
                c.out = false;
            }
            state.phase = Phase::Showdown { needed: *needed };
            let shares = state
                .characters
                .iter()
                .enumerate()
                .filter(|(_, c)| !c.defeated)
                .map(|(i, _)| Share {
                    character: i,
                    ..Share::default()
                })
                .collect();
            state.encounter = Some(Encounter {
                target: Target::Showdown,
                shares,
            });
        }
        Fact::GameLost { why } => {
            state.encounter = None;
            state.phase = Phase::Over;
            state.outcome = Some(Outcome {
                won: false,
                why: why.clone(),
                score: None,
            });
        }
        Fact::GameWon { fists, needed } => {
            state.encounter = None;
            state.phase = Phase::Over;
            let score = score(state, fists.saturating_sub(*needed));
            state.outcome = Some(Outcome {
                won: true,
                why: format!(
                    "{} against the {needed} needed",
                    super::decide::fists_words(*fists)
                ),
                score: Some(score),
            });
        }
    }
}

/// `done` has met the challenge (or fallen): the next in line faces it,
/// or, the line empty, the team chooses again before the next one.
fn next_challenger(state: &mut State, done: usize) {
    let mut next = None;
    if let Phase::Endgame(Endgame::Facing { card, queue }) = &mut state.phase {
        queue.retain(|q| *q != done);
        next = queue.first().map(|&c| (c, card.clone()));
    }
    state.encounter = next.map(|(c, card)| Encounter {
        target: Target::Challenge { card },
        shares: vec![Share {
            character: c,
            ..Share::default()
        }],
    });
    if state.encounter.is_none() {
        state.phase = Phase::Endgame(Endgame::Choosing {
            decided: Vec::new(),
        });
    }
}

/// The encounter is over. The Investigation cards drawn for it left the
/// deck when drawn (`CardAdded`), so they are discarded with it.
fn close_encounter(state: &mut State) {
    state.encounter = None;
}

/// Whether a personality card flipped in a share is the Trauma.
pub fn traumatized(state: &State, s: &Share) -> bool {
    s.flipped
        .is_some_and(|i| state.characters[s.character].personality[i].kind == Trait::Trauma)
}

/// A card of the table's own box joins what the game knows, and the pile
/// it was drawn from (record mode): the rules then read it as a pack's.
fn typed(state: &mut State, card: &TypedCard, character: Option<usize>) {
    let name = card.name().to_string();
    match card {
        TypedCard::Item(item) => {
            Arc::make_mut(&mut state.cards)
                .items
                .insert(name.clone(), item.clone());
            state.item_deck.push(name);
        }
        TypedCard::Confidence(c) => {
            Arc::make_mut(&mut state.cards)
                .confidence
                .insert(name.clone(), c.clone());
            state.confidence.push(name);
        }
        TypedCard::Dread(d) => {
            Arc::make_mut(&mut state.cards)
                .dread
                .insert(name, d.clone());
        }
        TypedCard::Ally(a) => {
            Arc::make_mut(&mut state.cards)
                .allies
                .insert(name, a.clone());
        }
        TypedCard::Personality(p) => {
            if let Some(c) = character.and_then(|c| state.characters.get_mut(c)) {
                c.personality.push(p.clone());
            }
        }
        TypedCard::Plot(plot) => {
            let chapter = state.chapter.min(state.story.chapters.len() - 1);
            Arc::make_mut(&mut state.story).chapters[chapter]
                .plots
                .push(plot.clone());
        }
        TypedCard::Challenge(c) => {
            Arc::make_mut(&mut state.story).challenges.push(c.clone());
            state.challenges.push(name);
        }
    }
}
