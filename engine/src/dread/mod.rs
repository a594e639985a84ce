//! London Dread: a cooperative, real-time investigation of Victorian
//! horror. Each chapter the team plans against the clock (12 minutes; 10
//! on Hard, 8 on Dread), turning location cards and setting their action
//! clocks; then the story phase plays the twelve actions out; the story
//! ends with the Endgame's challenges and the Final Showdown.
//!
//! Tabletape is the team's timer, dealer, dice roller and bookkeeper, and
//! afterwards the teller of the story.
//!
//! Readings this module makes, where the rules leave room:
//!
//! - **Time.** `start_planning` is Big Ben's first strike: the event's
//!   envelope time starts the planning phase and sets its end
//!   (`ends_at_ms`, in the state and in every read). Planning actions
//!   recorded after it are refused with the time it ended; `begin_story`
//!   (naming the Investigation Leader) is then all that is left, and may
//!   also be taken early when the team is done. With `timer=off` the
//!   table keeps its own time: no deadline, and `set_clock` enters a whole
//!   clock at once.
//! - **Tokens.** Each character has two tokens of each number 1-6; an
//!   arrow is any token turned over (`place` with `arrow`, the token's
//!   number saying which one). A stash token (`stash`) may be taken only
//!   for a number whose two own tokens are both placed. Each stash token
//!   taken in a chapter costs a dread at its end, even one put back during
//!   planning ("each token taken"; a number taken again counts once, as
//!   the stash holds one of each). Under rules 1 only the stash tokens on
//!   the clocks at the chapter's end counted.
//! - **Investigation tokens** (optional in the box): while planning is
//!   open, `mark` lays one on a face-up Dread or Plot card to say how the
//!   table means to solve it (green solved, yellow with an Item, white
//!   with a Virtue token, red with Investigation cards), one a card, a new
//!   colour replacing the old; `unmark` takes it off. They are the table's
//!   notes: no rule reads them, they are seen by all, and they come off
//!   when the next chapter (or the Endgame) is dealt. `legal` offers the
//!   colour as a pick, so nothing lays one unasked.
//! - **Moving.** At each action a number sends the character to that
//!   location of their current area, an arrow to the Streets of its area,
//!   no token to the Streets of the area they are in.
//! - **Investigating** is the team's choice, location by location, each
//!   at most once per action (`investigate`, then `resolve` or
//!   `walk_away`). At a Dread card each character's action points are the
//!   icons they bring that the card shows (a Wild matches any): the sheet
//!   (not after a Trauma), Allies, items, virtues, and Investigation cards
//!   drawn. A failed Dread investigation leaves the card, like walking
//!   away. At a Plot card everyone present flips (`flip`) before anyone
//!   rolls; each then rolls one Action die per action point (`roll`); the
//!   outcome row is the highest reached. Extra fists beyond the top row are
//!   each a Confidence card (unless `impeccable=off`). The story's last Plot
//!   card needs no roll: it begins the Endgame, 2 Confidence per
//!   character there.
//! - **Items, virtues, allies** add to an encounter for a character
//!   taking part, once flipped: before that character rolls, or after it
//!   for what adds successes or rerolls (`reroll` rolls again the dice
//!   without a fist, as many as the rerolls gained allow). What works on
//!   its own (healing, Confidence, Virtues, Items, dread) may be used at
//!   any moment of the story phase or the Endgame, never while planning:
//!   that is how a healing comes first when a second Condition looms (the
//!   rule book's note on timing), since a Trauma's Condition lands with
//!   the flip.
//! - **Resources** a Plot card gives are shared as evenly as possible among
//!   the characters present, as the text asks; it does not say who takes
//!   the odd ones, and they go in the order the characters stand in the
//!   game, the first getting them. Chosen Items are taken one at a time (`take_item`: from the
//!   Supply, refilled from the deck, or the deck's top, which discards the
//!   Supply and deals it again). A Condition or a healing on a Plot card
//!   falls on everyone present.
//! - **Score** (a won game only): survivors 4 each, extra fists 3 each,
//!   and the Items not Depleted (3), Virtue tokens (2), Investigation
//!   cards in hand (1) and Conditions (1) of the surviving characters only:
//!   a defeated character is out of the game, and what they held with them.
//! - **Missed Plot cards.** At the end of the Morning, Day and Night, a
//!   face-up Plot card not yet investigated whose time code has come raises
//!   its dread if it could have been investigated in that segment: Plots go
//!   in letter order, so only the next one could (rules 2; under rules 1
//!   every such card raised its dread, a later letter too while an earlier
//!   one was open). A chapter ended early by the Endgame counts no segment.
//! - **Conditions.** A second of the same Condition raises dread by 5
//!   outside the Endgame (no card is taken) and defeats the character in it.
//! - **Dread** above 50 loses at once, whenever it happens. Only a card
//!   (an effect with a negative `dread`) lowers it.
//! - **Chapters.** Every chapter starts with the characters in the West
//!   Streets. Allies kept at the end of a chapter are each a Confidence
//!   card on the Investigation deck.
//! - **Endgame.** Every character not defeated takes part. The
//!   Investigation deck is dealt one card at a time from the Leader on.
//!   Before each challenge each character still in says `stay` or
//!   `withdraw`; a withdrawn character stays out until the Showdown.
//!   Challengers face it one at a time (`flip`, then cards from the hand,
//!   items, virtues, then `resolve`). The Showdown needs one fist, one more
//!   per 5 dread, and any the Antagonist adds.
//! - **Fewer players.** With Allies (`variant=allies`), two players deal
//!   all nine Allies into each chapter, three players six; a character
//!   keeps at most three (two players) or two (three players); each
//!   character starts the Endgame with two dice, and two players face up to
//!   six challenges. With `variant=pairs` four characters play: with two
//!   players each seat plays two; with three, the fourth character passes
//!   to the next seat each chapter and for the Endgame.
//! - **Secrets.** Where Tabletape deals, what lies face down is seen only
//!   by the owner; every other read shows a face-down card as face down.
//!   Decks are drawn at random when drawn, so no order is kept to hide.
//! - **Forks and take-backs.** A seat's fork shuffles the face-down
//!   locations among their spots, so what it turns up says nothing of the
//!   line it left. Turning a location or a challenge face up, drawing from
//!   the Investigation deck, dealing Items to the Supply and starting the
//!   planning clock cannot be taken back: the table has seen the card, and
//!   the team would get its time anew (the owner of a game dealt by the
//!   table may still correct its record).
//! - **Physical dice.** The table deals its own 24 cards: a reveal says
//!   what turned up (`card`), checked against the placeholder procedure;
//!   drawn cards, dice and the Trauma die ride in `outcomes`.
//! - **Record mode** (`record=on`, physical dice) is for a table playing
//!   its own box: of the pack only the dice are used. The options give
//!   what lies face up from the start: the story's name, how many Plot
//!   cards each chapter has (`plots`), each character's sheet (`sheets`)
//!   and the Antagonist with the story's rules Tabletape keeps (more fists
//!   at the Showdown, an icon Wild at the challenges). Every other card is
//!   typed the first time it comes into play, in place of its name: an
//!   Item, Confidence card, Personality card or Endgame Challenge in
//!   `outcomes.drew`, a Dread card or Ally in a reveal's `card`, and a Plot
//!   card by its face in the `card` of the placeholder that stands for it.
//!   Its reverse is typed when the card is resolved (`reverse`), since no
//!   one reads it before. Readings:
//!   - A typed card is checked against what the game already knows: a name
//!     met before is named, not typed again; a Dread card is of the
//!     chapter's tier; Plot cards turn up in letter order, and the last
//!     chapter's last one begins the Endgame; a Personality deck holds six
//!     cards and one Trauma; a story six challenges.
//!   - No one has counted the table's piles, so each draw the rules ask
//!     for (a Supply of three, the Confidence cards gained, an Item from
//!     the deck) is asked of the table, and `null` in `outcomes.drew` says
//!     the pile has run out: the draw, and those after it from that pile,
//!     give nothing, as the rules have it ("as many as are left").
//!   - An effect's `text` keeps a card's own words for what no field says
//!     (the Antagonist's `text` too): the story tells it as written and the
//!     table carries it out by hand.
//!   - The box's Goon tokens and cards, Modifier tokens and Calypso's
//!     Secrets cards are listed among its contents, but their rules are in
//!     the Story Guide of the stories that use them, not in the rule text.
//!     A table records what they do where they act, in those words: an
//!     effect's or the Antagonist's `text`, or a note at the moment.
//!   - A chapter whose last Plot card never turned up ends as one whose
//!     last Plot card was never investigated: the trail runs cold.

pub mod actions;
mod apply;
pub mod content;
pub mod decide;
mod narration;
pub mod options;
pub mod state;
mod svg;

use serde_json::{json, Value};
use tabletape_events::Seat;

pub use actions::{Action, Fact};
pub use content::Pack;
pub use options::Options;
pub use state::State;

use crate::chance::Chance;
use crate::error::Rejection;
use crate::rules::{rules_from_modules, Deadline, Legal, OptionValue, Rules, Setup, Viewer};

/// The London Dread kind.
#[derive(Debug)]
pub struct Dread;

const PACK: &str = include_str!("../../content/dread/pack.json");

impl Rules for Dread {
    rules_from_modules!("dread");
    /// 2: a Plot card raises its dread for a segment only if it could have
    /// been investigated then (no earlier letter still open); a token taken
    /// from the stash costs its dread even if put back during planning.
    const RULES_VERSION: u32 = 2;

    fn option_values(option: &str) -> Vec<OptionValue> {
        let pack = Self::default_pack();
        let names = |field: &str| -> Vec<OptionValue> {
            pack[field]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|c| c["name"].as_str())
                .map(|n| OptionValue::new(n, n))
                .collect()
        };
        match option {
            "story" => names("stories"),
            "characters" => names("characters"),
            "difficulty" => vec![
                OptionValue::new("normal", "normal: 12 minutes"),
                OptionValue::new("hard", "hard: 10 minutes"),
                OptionValue::new("dread", "dread: 8 minutes"),
            ],
            "timer" => vec![
                OptionValue::new("on", "on: Tabletape keeps the time"),
                OptionValue::new("off", "off: the table keeps its own"),
            ],
            "variant" => vec![
                OptionValue::new("allies", "allies on the board"),
                OptionValue::new("pairs", "four characters, some seats play two"),
            ],
            _ => Vec::new(),
        }
    }

    fn default_pack() -> Value {
        serde_json::from_str(PACK).expect("bundled London Dread content is valid JSON")
    }

    fn setup(setup: Setup<'_, Options, Pack>, chance: &mut Chance) -> Result<State, Rejection> {
        decide::setup(setup, chance)
    }

    fn plays(state: &State, seat: Seat) -> Option<String> {
        let names: Vec<&str> = state
            .characters
            .iter()
            .filter(|c| c.seat == seat)
            .map(|c| c.name.as_str())
            .collect();
        (!names.is_empty()).then(|| names.join(" and "))
    }

    fn describe(state: &State, action: &Action) -> Option<String> {
        narration::describe(state, action)
    }

    fn legal(state: &State, seat: Option<Seat>) -> Vec<Legal<Action>> {
        decide::legal(state, seat)
    }

    fn legal_at(state: &State, seat: Option<Seat>, now_ms: u64) -> Vec<Legal<Action>> {
        decide::legal_at(state, seat, now_ms)
    }

    fn deadline(state: &State) -> Option<Deadline> {
        match state.phase {
            state::Phase::Planning {
                started_at_ms: Some(started_at_ms),
                ends_at_ms: Some(ends_at_ms),
            } => Some(Deadline {
                what: "planning".into(),
                started_at_ms,
                ends_at_ms,
            }),
            _ => None,
        }
    }

    fn to_move(state: &State, seats: usize) -> Vec<Seat> {
        // Cooperative: the team moves together; whoever has something to
        // decide (a character's choice) is waited on, else every seat.
        let mut waiting: Vec<Seat> = (0..seats as Seat)
            .filter(|&s| {
                decide::legal(state, Some(s)).iter().any(|l| {
                    serde_json::to_value(&l.action)
                        .ok()
                        .and_then(|v| v.get("character").cloned())
                        .is_some()
                })
            })
            .collect();
        if waiting.is_empty() && !state.over() {
            waiting = (0..seats as Seat).collect();
        }
        waiting
    }

    fn is_over(state: &State) -> bool {
        state.over()
    }

    /// The investigators win or lose together; a won game's score is the
    /// whole table's.
    fn result(state: &State) -> Option<crate::PlayResult> {
        let outcome = state.outcome.as_ref()?;
        let seats = state.players as Seat;
        Some(crate::PlayResult {
            winners: if outcome.won {
                (0..seats).collect()
            } else {
                Vec::new()
            },
            scores: outcome
                .score
                .as_ref()
                .map(|score| vec![score.total; state.players]),
            cooperative: true,
        })
    }

    fn redact(fact: &Fact, _viewer: Viewer, _cx: &crate::rules::Context<'_, State>) -> Fact {
        let mut fact = fact.clone();
        // The next chapter's deal lies face down.
        if let Fact::ChapterDealt { cards, .. } = &mut fact {
            *cards = None;
        }
        fact
    }

    /// The face-down locations are shuffled among their spots: a seat's
    /// fork turns up nothing the line it left still keeps face down.
    fn redeal(state: &mut State, rng: &mut crate::rng::TableRng) {
        let mut cards: Vec<state::Card> = state
            .locations
            .iter()
            .filter_map(|spot| match spot {
                state::Spot::Down { card: Some(card) } => Some(card.clone()),
                _ => None,
            })
            .collect();
        rng.shuffle(&mut cards);
        let mut dealt = cards.into_iter();
        for spot in &mut state.locations {
            if let state::Spot::Down { card: Some(card) } = spot {
                *card = dealt.next().expect("as many cards as face-down spots");
            }
        }
    }

    /// A location or challenge turned up, a card drawn from the
    /// Investigation deck, Items dealt to the Supply, and the start of the
    /// planning clock all stand.
    fn cannot_take_back(_before: &State, facts: &[Fact]) -> Option<Rejection> {
        facts.iter().find_map(|fact| {
            let (rule, what) = match fact {
                Fact::PlanningStarted { .. } => (
                    "undo.clock",
                    "the planning clock has started: taking it back would give the team its time anew",
                ),
                Fact::Revealed { .. } => (
                    "undo.revealed",
                    "a location was turned face up: taking it back would hide it again",
                ),
                Fact::ChallengeRevealed { .. } => (
                    "undo.revealed",
                    "an Endgame Challenge was turned up: taking it back would hide it again",
                ),
                Fact::CardAdded {
                    from_hand: false, ..
                } => (
                    "undo.revealed",
                    "a card was drawn from the Investigation deck: taking it back would hide it again",
                ),
                Fact::SupplySet { .. } => (
                    "undo.revealed",
                    "Items were dealt face up to the Supply: taking it back would hide them again",
                ),
                _ => return None,
            };
            Some(Rejection::new(rule, what))
        })
    }

    fn hide(_state: &State, _viewer: Viewer, view: &mut Value) {
        for spot in view["locations"].as_array_mut().into_iter().flatten() {
            if spot["state"] == json!("down") {
                *spot = json!({"state": "down"});
            }
        }
    }

    fn render(state: &State, viewer: Viewer) -> String {
        narration::render(state, viewer)
    }

    fn render_svg(state: &State, viewer: Viewer) -> String {
        svg::render(state, viewer)
    }
}
