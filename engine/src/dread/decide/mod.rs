//! Every London Dread rule. Facts are built one at a time on a scratch copy
//! of the state (see [`Out`]), so each later rule sees what the earlier
//! facts did. This file holds what every family of actions shares (who
//! plays a character, chance as the table gives it, icons against a card,
//! dread, conditions, what an effect gives); each family has its own file.

mod endgame;
mod investigate;
mod legal;
mod planning;
mod record;
mod setup;
pub mod shapes;
mod story;

pub use endgame::fists_words;
pub use legal::{legal, legal_at};
pub use planning::clock_time;
pub use setup::setup;

use tabletape_events::Seat;

use super::actions::{Action, Drawn, Fact, Outcomes};
use super::apply::traumatized;
use super::content::{Condition, Effect, Icon, TraumaFace};
use super::state::{Investigator, Phase, Share, State, DREAD_LIMIT, SUPPLY, VIRTUES};
use crate::chance::Chance;
use crate::error::{reject, Rejection};

/// Facts decided so far (see [`crate::rules::Out`]).
pub type Out = crate::rules::Out<super::Dread>;

impl Out {
    fn over(&self) -> bool {
        self.s.over()
    }

    fn name(&self, c: usize) -> &str {
        &self.s.characters[c].name
    }

    /// Raises dread, losing the game the moment it passes the limit.
    fn raise(&mut self, by: u32, why: impl Into<String>) {
        if by == 0 || self.over() {
            return;
        }
        self.push(Fact::DreadRose {
            by,
            why: why.into(),
        });
        if self.s.dread > DREAD_LIMIT {
            self.push(Fact::GameLost {
                why: format!("the dread passed {DREAD_LIMIT}: London swallows the investigators"),
            });
        }
    }

    /// A Condition for `c`: a second of the same raises dread by 5, or in
    /// the Endgame defeats the character.
    pub fn afflict(&mut self, c: usize, condition: Condition) {
        if self.over() || self.s.characters[c].defeated {
            return;
        }
        if !self.s.characters[c].conditions.contains(&condition) {
            self.push(Fact::ConditionTaken {
                character: c,
                condition,
            });
        } else if self.s.in_endgame() {
            self.push(Fact::Defeated { character: c });
            if self.s.characters.iter().all(|c| c.defeated) {
                self.push(Fact::GameLost {
                    why: "every investigator has fallen before the showdown".into(),
                });
            }
        } else {
            let why = format!("{} is {} a second time", self.name(c), condition.word());
            self.raise(5, why);
        }
    }
}

/// The seat playing character `i` of `n` at a table of `players`, in
/// stage `stage` (a chapter's index, or the number of chapters for the
/// Endgame). With four characters for three players, the fourth passes
/// from seat to seat: a chapter each, then the Endgame.
pub fn controller(players: usize, n: usize, i: usize, stage: usize) -> Seat {
    let seat = if n == players {
        i
    } else if players == 2 {
        i / 2
    } else if i < players {
        i
    } else {
        stage % players
    };
    seat as Seat
}

/// A pile of the table's box that may run out (see [`Luck::card_or_none`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pile {
    Items,
    Confidence,
    /// One whose every card is known.
    Known,
}

/// Chance for one action: the RNG, or what the table says it drew and
/// rolled (`outcomes`), taken in order.
struct Luck<'a> {
    chance: &'a mut Chance,
    given: Outcomes,
    /// Record mode: a pile is never known to be empty, and a card met for
    /// the first time is typed.
    record: bool,
    /// Record mode: the piles the table said ran out during this action.
    ran_out: Vec<Pile>,
    drew: usize,
    rolls: usize,
    trauma: usize,
}

impl<'a> Luck<'a> {
    fn new(
        chance: &'a mut Chance,
        outcomes: &Option<Outcomes>,
        record: bool,
    ) -> Result<Luck<'a>, Rejection> {
        chance.check_supplied("cards and dice", "outcomes", outcomes)?;
        Ok(Luck {
            chance,
            given: outcomes.clone().unwrap_or_default(),
            record,
            ran_out: Vec::new(),
            drew: 0,
            rolls: 0,
            trauma: 0,
        })
    }

    /// One of `options`, drawn at random (a shuffled deck's top card).
    /// Its pile cannot run out unseen: every card in it is known (the
    /// Investigation deck, a Personality deck, the challenges).
    fn card(&mut self, what: &str, options: &[String]) -> Result<usize, Rejection> {
        if matches!(self.given.drew.get(self.drew), Some(Drawn::RanOut)) {
            return reject(
                "dread.record",
                format!("`outcomes.drew`: null says a pile ran out, and the {what} comes from one whose every card is known"),
            );
        }
        let drawn = self.card_or_none(what, options, Pile::Known)?;
        Ok(drawn.expect("only null gives none"))
    }

    /// [`Luck::card`] from a `pile` that may run out in the table's box:
    /// in record mode the table says so with `null`, and the action's later
    /// draws from it give nothing too.
    fn card_or_none(
        &mut self,
        what: &str,
        options: &[String],
        pile: Pile,
    ) -> Result<Option<usize>, Rejection> {
        if self.ran_out.contains(&pile) {
            return Ok(None);
        }
        if matches!(self.given.drew.get(self.drew), Some(Drawn::RanOut)) {
            if !self.record {
                return reject(
                    "dread.record",
                    "`outcomes.drew`: null says a pile ran out, which only a table in record mode says",
                );
            }
            self.drew += 1;
            self.ran_out.push(pile);
            return Ok(None);
        }
        let given = self.given.drew.get(self.drew).map(Drawn::name);
        self.drew += 1;
        if self.record && given.is_none() {
            return reject(
                "physical.draw_needed",
                format!("draw needed: the {what}; give it as `outcomes.drew`, by name, typed in its place if it is met for the first time, or null if its pile has run out"),
            );
        }
        self.chance
            .pick(what, options, "outcomes.drew", given)
            .map(Some)
    }

    /// Fists on one Action die.
    fn die(&mut self, faces: &[u32]) -> Result<u32, Rejection> {
        let words: Vec<String> = faces.iter().map(u32::to_string).collect();
        let given = self.given.rolls.get(self.rolls).map(u32::to_string);
        self.rolls += 1;
        let i = self.chance.pick(
            "Action die (fists)",
            &words,
            "outcomes.rolls",
            given.as_deref(),
        )?;
        Ok(faces[i])
    }

    fn trauma(&mut self, faces: &[TraumaFace]) -> Result<TraumaFace, Rejection> {
        let words: Vec<String> = faces.iter().map(|f| face_word(*f)).collect();
        let given = self.given.trauma.get(self.trauma).map(|f| face_word(*f));
        self.trauma += 1;
        let i = self
            .chance
            .pick("Trauma die", &words, "outcomes.trauma", given.as_deref())?;
        Ok(faces[i])
    }

    /// Refuses outcomes the action did not use: a table's note of a draw
    /// that never happened would be stored as if it had.
    fn done(self) -> Result<(), Rejection> {
        let extra = [
            ("drew", self.given.drew.len(), self.drew),
            ("rolls", self.given.rolls.len(), self.rolls),
            ("trauma", self.given.trauma.len(), self.trauma),
        ];
        for (field, given, used) in extra {
            if given > used {
                return reject(
                    "dread.outcomes",
                    format!("`outcomes.{field}` gives {given} but this action used {used}"),
                );
            }
        }
        Ok(())
    }
}

fn face_word(f: TraumaFace) -> String {
    serde_json::to_value(f)
        .ok()
        .map(|v| v.to_string().trim_matches('"').to_string())
        .unwrap_or_default()
}

/// Checks `by` plays character `c`.
fn plays(state: &State, by: Option<Seat>, c: usize) -> Result<&Investigator, Rejection> {
    let Some(ch) = state.characters.get(c) else {
        return reject(
            "dread.character",
            format!(
                "`character` {c}: there are {} characters (0 to {})",
                state.characters.len(),
                state.characters.len().saturating_sub(1)
            ),
        );
    };
    if let Some(b) = by {
        if ch.seat != b {
            return reject(
                "dread.not_yours",
                format!("{} is played by another seat", ch.name),
            );
        }
    }
    if ch.defeated {
        return reject("dread.defeated", format!("{} has been defeated", ch.name));
    }
    Ok(ch)
}

/// The icons a character brings to an encounter: the sheet's (unless the
/// Trauma was flipped), allies', the flipped card's, those gained, and
/// those of the Investigation cards added.
fn icons_brought(state: &State, share: &Share) -> Vec<Icon> {
    let c = &state.characters[share.character];
    let mut icons = Vec::new();
    if !traumatized(state, share) {
        icons.extend(c.sheet());
    }
    for ally in &c.allies {
        if let Some(a) = state.cards.allies.get(ally) {
            icons.extend(a.icons.iter().copied());
        }
    }
    if let Some(i) = share.flipped {
        icons.extend(c.personality[i].icons.iter().copied());
    }
    icons.extend(share.icons.iter().copied());
    for card in &share.cards {
        icons.extend(state.cards.investigation_icons(card));
    }
    icons
}

/// Action points: one per icon brought that the card shows (a Wild, and
/// the story's own wild icon at a challenge, matches any).
fn points(state: &State, share: &Share, target: &[Icon], wild: Option<Icon>) -> u32 {
    icons_brought(state, share)
        .into_iter()
        .filter(|i| *i == Icon::Wild || Some(*i) == wild || target.contains(i))
        .count() as u32
}

/// What `effect` gives character `c` (an item, a virtue, a talent, an
/// ally, a challenge's reward or penalty).
fn gain(out: &mut Out, luck: &mut Luck<'_>, c: usize, effect: &Effect) -> Result<(), Rejection> {
    let boosts = !effect.icons.is_empty() || effect.successes > 0 || effect.rerolls > 0;
    if boosts && out.s.encounter.as_ref().and_then(|e| e.share(c)).is_some() {
        out.push(Fact::Boosted {
            character: c,
            icons: effect.icons.clone(),
            successes: effect.successes,
            rerolls: effect.rerolls,
        });
    }
    if effect.confidence > 0 {
        let hand = out.s.in_endgame().then_some(c);
        confidence(out, luck, effect.confidence, hand)?;
    }
    if effect.virtues > 0 {
        virtues(out, c, effect.virtues);
    }
    if effect.items > 0 {
        owe_items(out, &vec![c; effect.items as usize]);
    }
    for _ in 0..effect.random_items {
        random_item(out, luck, c, false)?;
    }
    if effect.dice > 0 {
        out.push(Fact::DiceGained {
            character: c,
            count: effect.dice,
        });
    }
    if let Some(h) = effect.heal {
        heal(out, c, h);
    }
    if let Some(cond) = effect.condition {
        out.afflict(c, cond);
    }
    let why = format!("{}'s card", out.name(c));
    dread_change(out, effect.dread, why);
    Ok(())
}

/// A Condition of `c`'s discarded, if they have it.
fn heal(out: &mut Out, c: usize, condition: Condition) {
    if out.s.characters[c].conditions.contains(&condition) {
        out.push(Fact::ConditionHealed {
            character: c,
            condition,
        });
    }
}

/// Three Items from the deck to a new Supply (as many as are left).
fn deal_supply(out: &mut Out, luck: &mut Luck<'_>) -> Result<(), Rejection> {
    let mut deck = out.s.item_deck.clone();
    let mut supply = Vec::new();
    let dealt = if out.s.record {
        SUPPLY
    } else {
        SUPPLY.min(deck.len())
    };
    for _ in 0..dealt {
        let Some(i) = luck.card_or_none("Item for the Supply", &deck, Pile::Items)? else {
            break;
        };
        supply.push(deck.remove(i));
    }
    out.push(Fact::SupplySet { supply });
    Ok(())
}

/// Dread raised, or (only by a card) lowered, for the reason `why`.
fn dread_change(out: &mut Out, by: i32, why: String) {
    if by > 0 {
        out.raise(by as u32, why);
    } else if by < 0 && out.s.dread > 0 {
        let by = (-by as u32).min(out.s.dread);
        out.push(Fact::DreadFell { by, why });
    }
}

/// Confidence cards from the pile, onto the Investigation deck (or into a
/// hand in the Endgame); as many as are left.
fn confidence(
    out: &mut Out,
    luck: &mut Luck<'_>,
    n: u32,
    hand: Option<usize>,
) -> Result<(), Rejection> {
    let mut pile = out.s.confidence.clone();
    let mut cards = Vec::new();
    for _ in 0..n {
        if !out.s.confidence_left(&pile) {
            break;
        }
        let Some(i) = luck.card_or_none("Confidence card", &pile, Pile::Confidence)? else {
            break;
        };
        cards.push(pile.remove(i));
    }
    if !cards.is_empty() {
        out.push(Fact::ConfidenceGained { cards, hand });
    }
    Ok(())
}

/// Virtue tokens, never more than the box's twelve among the team.
pub fn virtues(out: &mut Out, c: usize, n: u32) {
    let room = VIRTUES.saturating_sub(out.s.virtues_held());
    let count = n.min(room);
    if count > 0 {
        out.push(Fact::VirtueGained {
            character: c,
            count,
        });
    }
}

/// Items to be chosen (Supply or deck top), as many as the box has left.
fn owe_items(out: &mut Out, to: &[usize]) {
    let left = if out.s.record {
        to.len()
    } else {
        (out.s.item_deck.len() + out.s.supply.len()).saturating_sub(out.s.item_picks.len())
    };
    let characters: Vec<usize> = to.iter().copied().take(left).collect();
    if !characters.is_empty() {
        out.push(Fact::ItemsOwed { characters });
    }
}

/// The top card of the Item deck, the Supply untouched.
fn random_item(out: &mut Out, luck: &mut Luck<'_>, c: usize, owed: bool) -> Result<(), Rejection> {
    if !out.s.item_deck_left() {
        return Ok(());
    }
    let deck = out.s.item_deck.clone();
    let Some(i) = luck.card_or_none("Item from the deck", &deck, Pile::Items)? else {
        return Ok(());
    };
    out.push(Fact::ItemGained {
        character: c,
        item: deck[i].clone(),
        owed,
    });
    Ok(())
}

/// Shares `n` among `present` as evenly as possible, in their order: the
/// characters first in it get the odd ones.
pub fn spread(present: &[usize], n: u32) -> Vec<usize> {
    (0..n as usize)
        .map(|k| present[k % present.len()])
        .collect()
}

type Ruling = crate::rules::Ruling<Fact>;

pub fn decide(state: &State, by: Option<Seat>, action: &Action, chance: &mut Chance) -> Ruling {
    let ruling = decide_action(state, by, action, chance);
    match ruling {
        // A table in record mode names only what it has met; a card met
        // for the first time is typed.
        Err(mut no)
            if state.record
                && (no.rule == "chance.empty" || no.message.starts_with("impossible draw")) =>
        {
            no.message.push_str(": a card met for the first time is typed in place of its name (see the needs `legal` gives)");
            Err(no)
        }
        ruling => ruling,
    }
}

fn decide_action(state: &State, by: Option<Seat>, action: &Action, chance: &mut Chance) -> Ruling {
    if state.over() {
        return reject("game.over", "the story is over");
    }
    let mut out = Out::new(state);
    let named = record::typed(&mut out, action)?;
    let action = named.as_ref().unwrap_or(action);
    match action {
        Action::StartPlanning { outcomes } => {
            planning::start(&mut out, outcomes, chance)?;
        }
        Action::Reveal { location, card } => {
            planning::reveal(&mut out, *location, card.as_ref().map(Drawn::name), chance)?
        }
        Action::Place {
            character,
            slot,
            number,
            arrow,
            stash,
        } => planning::place(
            &mut out, by, *character, *slot, *number, *arrow, *stash, chance,
        )?,
        Action::TakeBack { character, slot } => {
            planning::take_back(&mut out, by, *character, *slot, chance)?
        }
        Action::MoveToken {
            character,
            from,
            to,
        } => planning::move_token(&mut out, by, *character, *from, *to, chance)?,
        Action::SetClock { character, slots } => {
            planning::set_clock(&mut out, by, *character, slots, chance)?
        }
        Action::Mark {
            token: None,
            location,
        } => {
            return reject(
                "dread.mark",
                format!(
                "say which Investigation token goes at {} (`token`): green, yellow, white or red",
                location.words()
            ),
            )
        }
        Action::Mark {
            location,
            token: Some(token),
        } => planning::mark(&mut out, *location, Some(*token), chance.recorded_at_ms())?,
        Action::Unmark { location } => {
            planning::mark(&mut out, *location, None, chance.recorded_at_ms())?
        }
        Action::BeginStory { leader } => planning::begin_story(&mut out, *leader)?,
        Action::Detour {
            character,
            slot,
            toward,
        } => story::detour(&mut out, by, *character, *slot, *toward)?,
        Action::NextAction { outcomes } => {
            let mut luck = Luck::new(chance, outcomes, out.s.record)?;
            story::next_action(&mut out, &mut luck)?;
            luck.done()?;
        }
        Action::Investigate { location, outcomes } => {
            let mut luck = Luck::new(chance, outcomes, out.s.record)?;
            investigate::open(&mut out, *location, &mut luck)?;
            luck.done()?;
        }
        Action::Recruit {
            character,
            location,
        } => story::recruit(&mut out, by, *character, *location)?,
        Action::Flip {
            character,
            outcomes,
        } => {
            let mut luck = Luck::new(chance, outcomes, out.s.record)?;
            investigate::flip(&mut out, by, *character, &mut luck)?;
            luck.done()?;
        }
        Action::Draw {
            character,
            outcomes,
        } => {
            let mut luck = Luck::new(chance, outcomes, out.s.record)?;
            investigate::draw(&mut out, by, *character, &mut luck)?;
            luck.done()?;
        }
        Action::Play { character, card } => endgame::play(&mut out, by, *character, card)?,
        Action::UseItem {
            character,
            item,
            deplete,
            outcomes,
        } => {
            let mut luck = Luck::new(chance, outcomes, out.s.record)?;
            investigate::use_item(&mut out, by, *character, item, *deplete, &mut luck)?;
            luck.done()?;
        }
        Action::SpendVirtue {
            character,
            outcomes,
        } => {
            let mut luck = Luck::new(chance, outcomes, out.s.record)?;
            investigate::spend_virtue(&mut out, by, *character, &mut luck)?;
            luck.done()?;
        }
        Action::Sacrifice {
            character,
            ally,
            outcomes,
        } => {
            let mut luck = Luck::new(chance, outcomes, out.s.record)?;
            investigate::sacrifice(&mut out, by, *character, ally, &mut luck)?;
            luck.done()?;
        }
        Action::Roll {
            character,
            outcomes,
        } => {
            let mut luck = Luck::new(chance, outcomes, out.s.record)?;
            investigate::roll(&mut out, by, *character, &mut luck)?;
            luck.done()?;
        }
        Action::Reroll {
            character,
            outcomes,
        } => {
            let mut luck = Luck::new(chance, outcomes, out.s.record)?;
            investigate::reroll(&mut out, by, *character, &mut luck)?;
            luck.done()?;
        }
        Action::Resolve { outcomes, .. } => {
            let mut luck = Luck::new(chance, outcomes, out.s.record)?;
            investigate::resolve(&mut out, &mut luck)?;
            luck.done()?;
        }
        Action::WalkAway => investigate::walk_away(&mut out)?,
        Action::TakeItem {
            character,
            from,
            outcomes,
        } => {
            let mut luck = Luck::new(chance, outcomes, out.s.record)?;
            investigate::take_item(&mut out, by, *character, from, &mut luck)?;
            luck.done()?;
        }
        Action::Stay { character } => endgame::choose(&mut out, by, *character, true)?,
        Action::Withdraw { character } => endgame::choose(&mut out, by, *character, false)?,
        Action::RevealChallenge { outcomes } => {
            let mut luck = Luck::new(chance, outcomes, out.s.record)?;
            endgame::reveal(&mut out, &mut luck)?;
            luck.done()?;
        }
    }
    Ok(out.facts)
}

/// The phase's name for a refusal ("the story phase").
fn phase_words(state: &State) -> &'static str {
    match state.phase {
        Phase::Planning { .. } => "the planning phase",
        Phase::Story { .. } => "the story phase",
        Phase::Endgame(_) => "the Endgame",
        Phase::Showdown { .. } => "the Final Showdown",
        Phase::Over => "the end of the story",
    }
}

fn wrong_phase<T>(state: &State, what: &str) -> Result<T, Rejection> {
    reject(
        "dread.phase",
        format!("{what} is not possible during {}", phase_words(state)),
    )
}
