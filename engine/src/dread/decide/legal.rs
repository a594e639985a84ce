//! Every action open at each point, for one seat or the whole table.

use super::shapes;
use super::*;
use crate::dread::actions::Source;
use crate::dread::content::{Segment, LOCATIONS};
use crate::dread::state::{
    Encounter, Endgame, Face, InvestigationToken, Place, Spot, Target, Token, ACTIONS, AREAS,
};
use crate::rules::{Legal, Pick, Typed};

/// The actions open at `now_ms`: once the planning deadline has passed,
/// only beginning the story.
pub fn legal_at(state: &State, seat: Option<Seat>, now_ms: u64) -> Vec<Legal<Action>> {
    if let Phase::Planning {
        ends_at_ms: Some(end),
        ..
    } = state.phase
    {
        if now_ms > end {
            return leaders(state);
        }
    }
    legal(state, seat)
}

fn leaders(state: &State) -> Vec<Legal<Action>> {
    (0..state.characters.len())
        .filter(|&c| !state.characters[c].defeated)
        .map(|leader| Legal::ready(Action::BeginStory { leader }))
        .collect()
}

/// With physical dice, an action that draws or rolls needs the table's
/// outcomes; with digital dice it is ready.
fn chancy(state: &State, action: Action, needs: &[&str]) -> Legal<Action> {
    if state.dealt_by_table && !needs.is_empty() {
        Legal::needing(action, needs.iter().map(|n| n.to_string()).collect())
    } else {
        Legal::ready(action)
    }
}

/// [`chancy`] for a roll of Action dice: the fists a face can show are
/// offered as `outcomes.rolls` picks, one per die rolled.
fn rolling(state: &State, action: Action, needs: &[&str]) -> Legal<Action> {
    let mut l = chancy(state, action, needs);
    if !l.needs.is_empty() {
        let mut faces = state.cards.action_die.clone();
        faces.sort_unstable();
        faces.dedup();
        l.picks.push(Pick {
            field: "outcomes.rolls".into(),
            values: faces.iter().map(u32::to_string).collect(),
            many: true,
            count: None,
        });
    }
    l
}

/// [`chancy`], with the cards the table may have drawn offered as
/// `outcomes.drew` picks (a page shows them as a picker).
fn drawing(state: &State, action: Action, needs: &[&str], cards: Vec<String>) -> Legal<Action> {
    let mut l = chancy(state, action, needs);
    if state.record {
        let mut typed = Vec::new();
        for need in &mut l.needs {
            if let Some((shapes, keys)) = typing(need) {
                need.push_str(&format!(
                    "; a card met for the first time is typed in place of its name: {shapes}"
                ));
                if need.contains("Item") || need.contains("Confidence") {
                    need.push_str("; null if its pile has run out");
                }
                typed.push(shapes::typed("outcomes.drew", true, &keys));
            }
        }
        l.typed = typed;
    }
    if !l.needs.is_empty() && !cards.is_empty() {
        l.picks.push(Pick {
            field: "outcomes.drew".into(),
            values: cards,
            many: true,
            count: None,
        });
    }
    l
}

/// Record mode: the shapes of the cards a draw may type, by what it draws,
/// as words for the need and as the keys of their shapes (`shapes::card`).
fn typing(need: &str) -> Option<(String, Vec<&'static str>)> {
    let shapes: Vec<(&str, &'static str, &str)> = [
        (
            "Item",
            "item",
            r#"{"item": {"name", "use": {effect}, "deplete": {effect}}}"#,
        ),
        (
            "Confidence",
            "confidence",
            r#"{"confidence": {"name", "icons"}}"#,
        ),
        (
            "Personality",
            "personality",
            r#"{"personality": {"name", "kind": "plain|talent|trauma", "icons", "effect"}}"#,
        ),
        (
            "Challenge",
            "challenge",
            r#"{"challenge": {"name", "icons", "difficulty", "reward", "penalty"}}"#,
        ),
    ]
    .into_iter()
    .filter(|(word, _, _)| need.contains(word))
    .collect();
    let keys = shapes.iter().map(|(_, key, _)| *key).collect();
    let words: Vec<&str> = shapes.iter().map(|(_, _, shape)| *shape).collect();
    (!shapes.is_empty()).then(|| (words.join(" or "), keys))
}

/// Record mode: what a card turned up on the board may be.
const RECORD_REVEAL: &str = r#"card: what the card turned up: a Dread card or an Ally by name, or typed the first time ({"dread": {"name", "tier", "icons", "difficulty", "dread", "story"}} or {"ally": {"name", "icons", "sacrifice": {effect}}}); a placeholder is the Plot card it stands for, typed by its face ({"plot": {"letter", "name", "time": "morning|day|night", "dread", "icons"}})"#;

/// Record mode: the shape of a Plot card's reverse.
const REVERSE_SHAPE: &str =
    r#"{"tiers": [{"successes": 0, "effect": {effect}, "text"}, ...], "story"}"#;

pub fn legal(state: &State, seat: Option<Seat>) -> Vec<Legal<Action>> {
    let mine = |c: usize| {
        let ch = &state.characters[c];
        !ch.defeated && seat.is_none_or(|s| ch.seat == s)
    };
    let mut out = Vec::new();
    match &state.phase {
        Phase::Over => {}
        Phase::Planning {
            started_at_ms: None,
            ..
        } => {
            let needs: &[&str] = if state.start_dealt {
                &[]
            } else {
                &["outcomes.drew: the starting Items of each character in turn, the three Items of the Supply, then the Confidence cards put in the Investigation deck"]
            };
            let mut cards = state.item_deck.clone();
            cards.extend(state.confidence.iter().cloned());
            out.push(drawing(
                state,
                Action::StartPlanning { outcomes: None },
                needs,
                cards,
            ));
        }
        Phase::Planning { .. } => planning(state, &mine, &mut out),
        Phase::Story { action } => {
            if let Some(&c) = state.item_picks.first() {
                if mine(c) {
                    take_items(state, c, &mut out);
                }
            } else if let Some(e) = &state.encounter {
                encounter(state, e, &mine, &mut out);
            } else {
                story(state, *action, &mine, &mut out);
            }
        }
        Phase::Endgame(Endgame::Choosing { decided }) => {
            let able: Vec<usize> = (0..state.characters.len())
                .filter(|&c| !state.characters[c].defeated && !state.characters[c].out)
                .collect();
            for &c in &able {
                if !decided.contains(&c) && mine(c) {
                    out.push(Legal::ready(Action::Stay { character: c }));
                    out.push(Legal::ready(Action::Withdraw { character: c }));
                }
            }
            if able.iter().all(|c| decided.contains(c)) && !able.is_empty() {
                out.push(drawing(
                    state,
                    Action::RevealChallenge { outcomes: None },
                    &["outcomes.drew: the Endgame Challenge turned up"],
                    state.challenges.clone(),
                ));
            }
            alone(state, &mine, &[], &mut out);
        }
        Phase::Endgame(Endgame::Facing { .. }) | Phase::Showdown { .. } => {
            if let Some(e) = &state.encounter {
                encounter(state, e, &mine, &mut out);
            }
        }
    }
    out
}

fn planning(state: &State, mine: &dyn Fn(usize) -> bool, out: &mut Vec<Legal<Action>>) {
    for i in 0..LOCATIONS {
        if let Spot::Down { .. } = state.locations[i] {
            let location = Place::of_index(i);
            if state.dealt_by_table {
                let tier = (state.chapter + 1) as u8;
                // In record mode a placeholder is typed as its Plot card.
                let mut values = if state.record {
                    Vec::new()
                } else {
                    vec!["placeholder".to_string()]
                };
                values.extend(
                    state
                        .cards
                        .dread
                        .values()
                        .filter(|c| c.tier == tier && !state.seen.contains(&c.name))
                        .map(|c| c.name.clone()),
                );
                if state.allies_dealt > 0 {
                    values.extend(
                        state
                            .cards
                            .allies
                            .keys()
                            .filter(|n| !state.seen.contains(n))
                            .cloned(),
                    );
                }
                let mut l = Legal::needing(
                    Action::Reveal {
                        location,
                        card: None,
                    },
                    vec![if state.record {
                        RECORD_REVEAL.into()
                    } else {
                        "card: what the card turned up: placeholder, a Dread card or an Ally".into()
                    }],
                );
                l.picks.push(Pick {
                    field: "card".into(),
                    values,
                    many: false,
                    count: None,
                });
                if state.record {
                    l.typed = vec![shapes::typed("card", false, &["dread", "ally", "plot"])];
                }
                out.push(l);
            } else {
                out.push(Legal::ready(Action::Reveal {
                    location,
                    card: None,
                }));
            }
        }
    }
    for c in 0..state.characters.len() {
        if !mine(c) {
            continue;
        }
        let ch = &state.characters[c];
        for slot in 1..=ACTIONS {
            match ch.clock[slot as usize - 1] {
                Some(_) => {
                    out.push(Legal::ready(Action::TakeBack { character: c, slot }));
                    for to in 1..=ACTIONS {
                        if ch.clock[to as usize - 1].is_none() {
                            out.push(Legal::ready(Action::MoveToken {
                                character: c,
                                from: slot,
                                to,
                            }));
                        }
                    }
                }
                None => {
                    // Each number that is still in hand (or, both placed,
                    // in the stash), on its number side or as an arrow.
                    let mut first = None;
                    for number in 1..=6u8 {
                        let stash = ch.placed(number) >= 2;
                        if stash && !state.stash.contains(&number) {
                            continue;
                        }
                        first.get_or_insert((number, stash));
                        out.push(Legal::ready(Action::Place {
                            character: c,
                            slot,
                            number,
                            arrow: None,
                            stash,
                        }));
                    }
                    // An arrow can be any token's back: offered on the
                    // first one at hand.
                    if let Some((number, stash)) = first {
                        for area in AREAS {
                            out.push(Legal::ready(Action::Place {
                                character: c,
                                slot,
                                number,
                                arrow: Some(area),
                                stash,
                            }));
                        }
                    }
                }
            }
        }
        if !state.timer {
            let mut l = Legal::needing(
                Action::SetClock {
                    character: c,
                    slots: ch.clock.clone(),
                },
                vec!["slots: the clock as the table set it, 12 slots, each a token or null".into()],
            );
            l.may.clear();
            out.push(l);
        }
    }
    // While planning runs, beginning the story cuts it short for the whole
    // team: one stray tap did, so a page asks first.
    out.extend(leaders(state).into_iter().map(|mut l| {
        l.confirm = Some(
            "Begin the story now? Planning ends for the whole team, and its time left is lost."
                .into(),
        );
        l
    }));
    investigation_tokens(state, out);
}

fn story(state: &State, action: u8, mine: &dyn Fn(usize) -> bool, out: &mut Vec<Legal<Action>>) {
    alone(state, mine, &[], out);
    let ends = action == ACTIONS;
    out.push(chancy(
        state,
        Action::NextAction { outcomes: None },
        if ends {
            &["outcomes.drew: the Confidence cards gained for Allies kept, then the next chapter's or the Endgame's cards as dealt"]
        } else {
            &[]
        },
    ));
    if action == 0 {
        return;
    }
    let now = Segment::of_action(action);
    let mut places: Vec<Place> = state
        .characters
        .iter()
        .filter(|c| !c.defeated)
        .map(|c| c.place)
        .collect();
    places.sort();
    places.dedup();
    for place in places {
        if state.met.contains(&place) {
            continue;
        }
        match state.face_at(place) {
            Some(Face::Dread(_)) => out.push(Legal::ready(Action::Investigate {
                location: place,
                outcomes: None,
            })),
            Some(Face::Plot(letter)) => {
                let ok = state.next_plot() == Some(*letter)
                    && state.plot(*letter).is_some_and(|p| p.time <= now);
                if ok {
                    let endgame = state.plot(*letter).is_some_and(|p| p.endgame);
                    out.push(chancy(
                        state,
                        Action::Investigate {
                            location: place,
                            outcomes: None,
                        },
                        if endgame {
                            &["outcomes.drew: the Confidence cards gained, then the Investigation cards as dealt for the Endgame"]
                        } else {
                            &[]
                        },
                    ));
                }
            }
            Some(Face::Ally(_)) => {
                for c in state.at(place) {
                    if mine(c) && state.characters[c].allies.len() < state.most_allies() {
                        out.push(Legal::ready(Action::Recruit {
                            character: c,
                            location: place,
                        }));
                    }
                }
            }
            None => {}
        }
    }
    for c in 0..state.characters.len() {
        if !mine(c) {
            continue;
        }
        for slot in action + 1..=ACTIONS {
            if let Some(Token {
                arrow: Some(now), ..
            }) = state.characters[c].clock[slot as usize - 1]
            {
                for toward in AREAS {
                    if toward != now {
                        out.push(Legal::ready(Action::Detour {
                            character: c,
                            slot,
                            toward,
                        }));
                    }
                }
            }
        }
    }
}

fn take_items(state: &State, c: usize, out: &mut Vec<Legal<Action>>) {
    for item in &state.supply {
        out.push(drawing(
            state,
            Action::TakeItem {
                character: c,
                from: Source::Supply(item.clone()),
                outcomes: None,
            },
            &["outcomes.drew: the Item that fills the Supply"],
            state.item_deck.clone(),
        ));
    }
    if state.item_deck_left() {
        out.push(drawing(
            state,
            Action::TakeItem {
                character: c,
                from: Source::Deck,
                outcomes: None,
            },
            &["outcomes.drew: the Item on top of the deck, then the three dealt to the Supply"],
            state.item_deck.clone(),
        ));
    }
}

/// How far an item, virtue or ally can reach for a character now.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// Outside any encounter (or before their flip): what works alone.
    Alone,
    /// In an encounter, before rolling.
    Share,
    /// Rolled: what changes the roll, or works alone.
    Rolled,
}

/// What works alone, for each of the seat's characters not offered more
/// by the encounter under way (`busy`).
fn alone(
    state: &State,
    mine: &dyn Fn(usize) -> bool,
    busy: &[usize],
    out: &mut Vec<Legal<Action>>,
) {
    for c in 0..state.characters.len() {
        if mine(c) && !busy.contains(&c) {
            boosts(state, c, Reach::Alone, out);
        }
    }
}

/// Items, virtues and allies `c` may use now, as far as `reach` goes.
fn boosts(state: &State, c: usize, reach: Reach, out: &mut Vec<Legal<Action>>) {
    let ch = &state.characters[c];
    let mut offer = |action: Action, effect: &Effect| {
        // A healing alone is offered only to the one it would heal.
        let heals = effect.heal.is_some_and(|h| ch.conditions.contains(&h));
        let alone = heals
            || Effect {
                heal: None,
                ..effect.clone()
            }
            .works_alone();
        let useful = match reach {
            Reach::Alone => alone,
            Reach::Rolled => effect.successes > 0 || effect.rerolls > 0 || alone,
            Reach::Share => true,
        };
        if !useful {
            return;
        }
        let draws = effect.random_items > 0 || effect.confidence > 0;
        let needs: &[&str] = if draws {
            &["outcomes: any cards drawn or dice rolled by the effect"]
        } else {
            &[]
        };
        out.push(chancy(state, action, needs));
    };
    for held in ch.items.iter().filter(|h| !h.tilted) {
        let card = &state.cards.items[&held.name];
        for (deplete, effect) in [(false, &card.use_effect), (true, &card.deplete)] {
            let action = Action::UseItem {
                character: c,
                item: held.name.clone(),
                deplete,
                outcomes: None,
            };
            offer(action, effect);
        }
    }
    if ch.virtues > 0 {
        let action = Action::SpendVirtue {
            character: c,
            outcomes: None,
        };
        offer(action, &ch.virtue);
    }
    for ally in &ch.allies {
        let action = Action::Sacrifice {
            character: c,
            ally: ally.clone(),
            outcomes: None,
        };
        offer(action, &state.cards.allies[ally].sacrifice);
    }
}

fn draw(state: &State, character: usize) -> Legal<Action> {
    drawing(
        state,
        Action::Draw {
            character,
            outcomes: None,
        },
        &["outcomes.drew: the Investigation card drawn"],
        state.investigation.clone(),
    )
}

fn flip(state: &State, character: usize) -> Legal<Action> {
    let deck = state.characters[character]
        .personality
        .iter()
        .map(|p| p.name.clone())
        .collect();
    drawing(
        state,
        Action::Flip {
            character,
            outcomes: None,
        },
        &["outcomes.drew: the Personality card flipped (and outcomes.trauma, the Trauma die, if it is the Trauma)"],
        deck,
    )
}

fn encounter(
    state: &State,
    e: &Encounter,
    mine: &dyn Fn(usize) -> bool,
    out: &mut Vec<Legal<Action>>,
) {
    let resolve = |needs: &[&str]| {
        let mut l = chancy(
            state,
            Action::Resolve {
                outcomes: None,
                reverse: None,
            },
            needs,
        );
        if let Target::Plot { letter, .. } = e.target {
            if state
                .plot(letter)
                .is_some_and(|p| p.tiers.is_empty() && !p.endgame)
            {
                l.needs.push(format!(
                    "reverse: Plot {letter}'s reverse as read now ({REVERSE_SHAPE})"
                ));
                l.typed.push(Typed {
                    field: "reverse".into(),
                    many: false,
                    shapes: vec![shapes::reverse()],
                });
            }
        }
        l
    };
    let all_flipped = e.shares.iter().all(|s| s.flipped.is_some());
    let busy: Vec<usize> = e
        .shares
        .iter()
        .filter(|s| match e.target {
            Target::Plot { .. } => all_flipped,
            Target::Challenge { .. } => s.flipped.is_some(),
            Target::Dread { .. } | Target::Showdown => true,
        })
        .map(|s| s.character)
        .collect();
    alone(state, mine, &busy, out);
    match &e.target {
        Target::Dread { .. } => {
            for s in &e.shares {
                if !mine(s.character) {
                    continue;
                }
                if !state.investigation.is_empty() {
                    out.push(draw(state, s.character));
                }
                boosts(state, s.character, Reach::Share, out);
            }
            out.push(resolve(&[]));
            out.push(Legal::ready(Action::WalkAway));
        }
        Target::Plot { .. } => {
            if !all_flipped {
                for s in &e.shares {
                    if s.flipped.is_none() && mine(s.character) {
                        out.push(flip(state, s.character));
                    }
                }
                if e.shares.iter().all(|s| s.flipped.is_none()) {
                    out.push(Legal::ready(Action::WalkAway));
                }
                return;
            }
            rolls(state, e, mine, out, true);
            if e.shares.iter().all(|s| s.rolled.is_some()) {
                out.push(resolve(&[
                    "outcomes: any cards drawn for what the outcome gives",
                ]));
            }
        }
        Target::Challenge { .. } => {
            let s = &e.shares[0];
            if mine(s.character) {
                if s.flipped.is_none() {
                    out.push(flip(state, s.character));
                    return;
                }
                let mut hand = state.characters[s.character].hand.clone();
                hand.dedup();
                for card in hand {
                    out.push(Legal::ready(Action::Play {
                        character: s.character,
                        card,
                    }));
                }
                boosts(state, s.character, Reach::Share, out);
            }
            if s.flipped.is_some() {
                out.push(resolve(&[
                    "outcomes: any cards drawn for the reward or penalty",
                ]));
            }
        }
        Target::Showdown => {
            rolls(state, e, mine, out, false);
            if e.shares.iter().all(|s| s.rolled.is_some()) {
                out.push(Legal::ready(Action::Resolve {
                    outcomes: None,
                    reverse: None,
                }));
            }
        }
    }
}

/// Before rolling: draws, boosts, the roll; after: rerolls and what adds
/// successes.
fn rolls(
    state: &State,
    e: &Encounter,
    mine: &dyn Fn(usize) -> bool,
    out: &mut Vec<Legal<Action>>,
    draws: bool,
) {
    for s in &e.shares {
        if !mine(s.character) {
            continue;
        }
        match &s.rolled {
            None => {
                if draws && !state.investigation.is_empty() {
                    out.push(draw(state, s.character));
                }
                boosts(state, s.character, Reach::Share, out);
                out.push(rolling(
                    state,
                    Action::Roll {
                        character: s.character,
                        outcomes: None,
                    },
                    &["outcomes.rolls: the fists on each Action die rolled"],
                ));
            }
            Some(fists) => {
                if s.rerolls > 0 && fists.contains(&0) {
                    out.push(rolling(
                        state,
                        Action::Reroll {
                            character: s.character,
                            outcomes: None,
                        },
                        &["outcomes.rolls: the fists on each die rolled again"],
                    ));
                }
                boosts(state, s.character, Reach::Rolled, out);
            }
        }
    }
}

/// The optional Investigation tokens, after the clocks (the planning's real
/// work): one line a face-up Dread or Plot card, the colour picked (a line
/// that needs it, so random play and "next" never lay one unasked).
fn investigation_tokens(state: &State, out: &mut Vec<Legal<Action>>) {
    for i in 0..LOCATIONS {
        if let Spot::Up {
            face: Face::Dread(_) | Face::Plot(_),
        } = &state.locations[i]
        {
            let location = Place::of_index(i);
            let mut l = Legal::needing(
                Action::Mark {
                    location,
                    token: None,
                },
                vec!["token: green (solved), yellow (with an Item), white (with a Virtue token) or red (with Investigation cards)".into()],
            );
            l.picks.push(Pick {
                field: "token".into(),
                values: InvestigationToken::ALL
                    .iter()
                    .map(|t| t.word().to_string())
                    .collect(),
                many: false,
                count: None,
            });
            out.push(l);
            if state.marks.iter().any(|(p, _)| *p == location) {
                out.push(Legal::ready(Action::Unmark { location }));
            }
        }
    }
}
