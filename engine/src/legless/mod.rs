//! Legless in London: Londoners on the streets of Tothil Fields, working,
//! looking for love and buying property, with or without an artificial leg,
//! until one of them completes two of their three goals.
//!
//! Tabletape is the box's companion here: banker (money), dice roller,
//! health tracker and street event deck, and it keeps the whole game.
//!
//! Readings this module makes, where the rules leave room:
//!
//! - **Board.** Tothil Fields is a grid (content): street squares, some
//!   with a Street Event symbol, and locations covering blocks of squares.
//!   Squares are written `c3` (column letter, row number from the north).
//!   A location is one place: entered from any street square beside it
//!   (which ends the move), left onto any street square beside it.
//! - **Turn order.** The seat after the banker (option `banker`, default
//!   seat 0) plays first; play goes up the seat numbers ("clockwise"). A
//!   round ends when play comes back to the first player.
//! - **Moving** is two actions: `roll` (one die, or two or three with
//!   crutches, the best kept), then `move` with the path. The roll plus the
//!   equipped leg's Mobility (which may be negative) is how many squares the
//!   Londoner *may* walk: fewer is allowed, none is allowed, and a total of
//!   0 or less ends the turn at once. Steps are orthogonal; squares may be
//!   walked again; a location is only ever the last step, and entering it
//!   from a neighbouring square takes a step like any other (the text says
//!   only that the move stops there). `legal` offers, for every place in
//!   reach, the shortest path for each number of Street Event symbols a
//!   way there can cross, since a player picks a way by the cards it draws
//!   too; any other valid path is taken.
//! - **Street events.** Each symbol square entered during a move counts once
//!   per move, in order. The cards are read once the move ends, in the
//!   order picked up; they are drawn (by chance, from the cards face down)
//!   as they are read: the text has every card picked up read, so a
//!   Londoner who falls sick part-way reads on (rules 2), and only one who
//!   dies reads no more and draws no more (under rules 1 sickness stopped
//!   the reading too). An empty deck is renewed from the discards.
//! - **Crutches** are leg cards that are never equipped: owning the Single
//!   Crutch rolls two dice to move, the Pair of Crutches three (the most any
//!   owned crutches allow), unless the equipped leg is a chair that refuses
//!   them (the Bath Chair, the Wheel-Chair). Only moving uses them.
//! - **Legs.** One equipped at a time; `equip` (or `equip` with no leg) is
//!   free before the turn's move or action. Selling (`sell_leg`) is free at
//!   any point of the seller's own turn: the text lets a leg be sold from
//!   anywhere on the board and without using the turn, and says nothing of
//!   selling while another plays, when the seller has nothing to pay. A leg's Equipped side (scores,
//!   upkeep, special rule) is seen by its owner from the moment it is
//!   bought, and by everyone while it is equipped; nobody sees the side of
//!   a leg in the store. A bought leg is not equipped until the owner says.
//!   A table's own leg may say more on that side than scores and upkeep:
//!   its `text` keeps those words, told with the side (as secret as it)
//!   and carried out by hand.
//! - **Upkeep** opens every turn of a Londoner who owns legs with an
//!   upkeep: `upkeep` pays for the legs kept and sells those listed in
//!   `sell` (sales first, so their price may pay for the rest). A missed
//!   turn is still a turn that begins, so its upkeep is paid (rules 2; rules
//!   1 let it pass): no one is there to choose, so the legs that cannot be
//!   kept are sold in the forced order below.
//! - **Work** offers the card's earnings, or with `risk` the Risk Booklet
//!   page (die + Efficiency), where a card has both the player chooses.
//!   **Find Love** reads the page with die + Appeal; the story may let them
//!   claim love (a victory token on the love space). A love story read while
//!   working gives no token. Requirements are met by the equipped leg's
//!   scores (all 0 without one).
//! - **Goals.** A character's three goals are love, property and a
//!   personal goal. Each completes once, on a free space of its kind. The
//!   text limits only the personal goal to the character card's location;
//!   Love is found and Property bought at any location whose card allows
//!   it (rules 2; under rules 1 a character card's places bound all three).
//!   Actions towards a goal completed, a space taken or a location where
//!   the goal does not count are refused.
//! - **Debts.** A voluntary purchase needs the money in hand (the player can
//!   sell a leg first, free). A forced payment (a card, a story, the
//!   Sickroom) sells legs when money runs short, unequipped ones first,
//!   cheapest first, then the equipped one; what is still owed after the
//!   last leg is paid in hearts, one a pound. The text has the player sell
//!   "1 or more" legs without saying which; the debt arises while a card is
//!   read, with no moment to ask, so the order is fixed, and it keeps the
//!   leg in use to the last. A player who would rather part with another
//!   sells it first, free, on their turn.
//! - **Sickness.** At the bottom of the track (0 hearts) the Londoner goes
//!   to the Sickroom and pays its fee at once; each turn there they pay the
//!   fee again and roll to heal (`recover`); once full they may leave next
//!   turn. Not paying (even after selling every leg) is death. A healthy
//!   Londoner at the Sickroom may also pay and roll to heal as their action.
//!   A card or story that makes a Londoner sick is still carried out to its
//!   end (rules 2): money owed is paid, turns are missed, but an effect
//!   that would send them elsewhere is passed over, since the sick stay in
//!   the Sickroom, and a loss at the bottom of the track does not send
//!   them there twice (what they owe beyond it is not taken).
//! - **Death** removes the character's victory tokens, sends their legs back
//!   to the store and their money to the bank, and puts the card back in the
//!   box. The player then draws (`draw_character`, before anyone plays on) a
//!   new character other than the one lost while another is in the box, and
//!   rejoins at its start square with its money and full health.
//! - **No space left.** After every victory token placed, a Londoner whose
//!   goals still open have fewer free spaces where they count than the
//!   tokens they still need dies. A newly drawn character is not judged
//!   until the next token is placed.
//! - **Missed turns** are skipped whole (no upkeep).
//! - **End.** Placing a second victory token wins at once. As a safeguard
//!   so random play always ends (not in the rules), after `round_limit`
//!   rounds (default 100) the game is called for the most tokens placed.
//! - **Secrets.** A leg's Equipped side as above, the Risk Booklet's stories
//!   until read, and the order of the street event deck. Seats read the
//!   pack in the game's creation without them.
//! - **Forks and take-backs.** A seat's fork deals the Equipped sides the
//!   table has not seen anew among those legs; the street event deck is
//!   drawn by chance anyway, and the Risk Booklet is the box's, the same in
//!   every game. A leg bought or worn, a street event card drawn from the
//!   deck, a Risk Booklet story read and a character drawn cannot be taken
//!   back; a roll can, and is rolled the same when recorded again.
//! - **Typed cards.** With physical dice a table may say what its own
//!   street event cards and booklet stories say instead of naming the
//!   pack's: `cards` on a move, `story` on a risk, each with its effects.
//! - **Effects** (a pack's cards and stories, or typed ones) are read in
//!   order: money to or from the bank, hearts, a go-to, turns missed,
//!   love claimed (a Find Love story only), and:
//!   - `{"move": N}`: the reader moves on at once, up to N squares (1 to
//!     12), as the turn's next step; street event symbols on the way are
//!     drawn as on any move. Two moves read in one turn add up. A reader
//!     who falls sick or dies meanwhile does not move, and the turn ends.
//!   - `{"draw": N}`: N more street event cards (1 to 3), read right after
//!     this one, and only on a street event card: a story draws none, since
//!     the text has cards drawn only by moving over a symbol. With named or
//!     typed cards the table gives them in the order read, after the card
//!     that drew them. One move reads 30 cards at most.
//!   - `"lose_leg"`: the leg in use goes back to the Store, or, with none
//!     in use, the dearest owned (crutches too; the first by name among
//!     equals), for nothing.
//!   - `{"gain_leg": "Peg leg"}`: that leg comes from the Store to the
//!     reader for nothing, while the Store still holds it (once bought by
//!     someone, nothing happens). The leg is one the box knows: the pack's,
//!     or one the table typed when it was bought. No upkeep is paid for it
//!     until the reader's next turn begins.
//!   - `{"collect": N}` and `{"pay_each": N}`: £N from, or to, every other
//!     Londoner in play, in seat order. A debt between players is paid as
//!     any forced one (legs sold, then hearts); only money changes hands.
//!   - `{"others": [...]}`: what befalls every other Londoner in play
//!     (money, hearts, a go-to, turns missed, a leg lost, or words by hand).
//!   - `{"by_hand": "..."}`: anything else, in the card's words. The story
//!     tells it as written and the table carries it out, recording what
//!     follows (a leg sold, a payment) as it happens. Tabletape changes
//!     nothing for it.
//! - **Record mode** (`record=on`, physical dice) is for a table with its
//!   own box: of the pack only the board is used. Each player types their
//!   character card first (`draw_character` with `card`, again after a
//!   death); the first action at a location types that location's card
//!   (`card`: work, love, property), which then stays on the table; a leg
//!   is typed as it is bought (`card`: cost and Equipped side, hidden from
//!   the other seats in the action as in the facts); street events and
//!   stories are always typed; the Sickroom's fee is an option
//!   (`sickroom_fee`), since anyone may fall sick before visiting it. A
//!   location whose card is not yet on the table counts as allowing love
//!   and property when judging whether a goal still has a free space.

pub mod actions;
pub mod apply;
pub mod board;
pub mod content;
pub mod decide;
mod narration;
pub mod options;
pub mod state;
mod svg;

use serde_json::{json, Value};
use std::sync::Arc;
use tabletape_events::Seat;

pub use actions::{Action, Fact};
pub use content::Pack;
pub use options::Options;
pub use state::State;

use crate::chance::Chance;
use crate::error::Rejection;
use crate::rules::{rules_from_modules, Context, Legal, OptionValue, Rules, Setup, Viewer};

/// The Legless in London kind.
#[derive(Debug)]
pub struct Legless;

impl Rules for Legless {
    rules_from_modules!("legless");
    /// 2: Love and Property wherever a location's card allows them (a
    /// character card's places bind only its personal goal); falling sick
    /// no longer drops the rest of a card's or story's effects, nor the
    /// street event cards still to read.
    const RULES_VERSION: u32 = 2;

    fn physical_dice_options() -> &'static [&'static str] {
        &["record"]
    }

    fn option_values(option: &str) -> Vec<OptionValue> {
        let pack = Self::default_pack();
        match option {
            "characters" => pack["characters"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|c| c["name"].as_str())
                .map(|n| OptionValue::new(n, n))
                .collect(),
            "locations" => pack["location_cards"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|c| c["id"].as_str())
                .map(|id| OptionValue::new(id, id))
                .collect(),
            "record" => vec![
                OptionValue::new("off", "off: the pack's cards"),
                OptionValue::new("on", "on: the table types its own cards"),
            ],
            _ => Vec::new(),
        }
    }

    fn default_pack() -> Value {
        content::bundled()
    }

    fn setup(setup: Setup<'_, Options, Pack>, chance: &mut Chance) -> Result<State, Rejection> {
        decide::setup(setup, chance)
    }

    fn plays(state: &State, seat: Seat) -> Option<String> {
        let londoner = state.londoners.get(seat as usize)?;
        (!londoner.character.is_empty()).then(|| londoner.character.clone())
    }

    fn describe(state: &State, action: &Action) -> Option<String> {
        Some(narration::describe(state, action)).filter(|s| !s.is_empty())
    }

    fn prologue(state: &State) -> Vec<String> {
        narration::prologue(state)
    }

    fn legal(state: &State, seat: Option<Seat>) -> Vec<Legal<Action>> {
        decide::legal(state, seat)
    }

    fn to_move(state: &State, _seats: usize) -> Vec<Seat> {
        let dead: Vec<Seat> = (0..state.londoners.len() as Seat)
            .filter(|&s| state.londoner(s).dead)
            .collect();
        if !dead.is_empty() {
            return dead;
        }
        state.turn().map(|t| vec![t.seat]).unwrap_or_default()
    }

    fn is_over(state: &State) -> bool {
        matches!(state.phase, state::Phase::Over)
    }

    /// Whoever placed both victory tokens won; the game keeps no points.
    fn result(state: &State) -> Option<crate::PlayResult> {
        let outcome = state.outcome.as_ref()?;
        Some(crate::PlayResult::won_by(outcome.winners.clone()))
    }

    fn redact(fact: &Fact, viewer: Viewer, _cx: &Context<'_, State>) -> Fact {
        let mut fact = fact.clone();
        if let Fact::LegBought { seat, equipped, .. } = &mut fact {
            if !viewer.sees(*seat) {
                *equipped = None;
            }
        }
        fact
    }

    fn redact_action(action: &Action, viewer: Viewer, cx: &Context<'_, State>) -> Action {
        let mut action = action.clone();
        // A leg typed in record mode shows its Equipped side: the buyer's
        // secret. When the owner acted for the table no seat is named, so it
        // is hidden from every seat (the facts still tell the buyer).
        if let Action::BuyLeg { card, .. } = &mut action {
            if !cx.by.is_some_and(|b| viewer.sees(b)) {
                *card = None;
            }
        }
        action
    }

    fn redact_pack(pack: &mut Value, _viewer: Viewer) {
        if let Some(legs) = pack.get_mut("legs").and_then(Value::as_array_mut) {
            for leg in legs {
                if let Some(map) = leg.as_object_mut() {
                    map.remove("equipped");
                }
            }
        }
        if let Some(pages) = pack.get_mut("risk_booklet").and_then(Value::as_array_mut) {
            for page in pages {
                if let Some(map) = page.as_object_mut() {
                    map.remove("entries");
                }
            }
        }
    }

    /// The Equipped sides the table has not seen (legs in the Store, legs
    /// bought but not worn) are dealt anew among those legs. The street
    /// event deck is drawn by chance, which the fork's new dice decide; the
    /// Risk Booklet is the box's, the same in every game, and stays.
    fn redeal(state: &mut State, rng: &mut crate::rng::TableRng) {
        let mut unseen: Vec<String> = state.pile.clone();
        for (seat, londoner) in state.londoners.iter().enumerate() {
            for leg in &londoner.legs {
                if !narration::sees_leg(state, Viewer::Public, seat as Seat, leg) {
                    unseen.push(leg.clone());
                }
            }
        }
        unseen.sort();
        unseen.dedup();
        let mut sides: Vec<content::Equipped> = unseen
            .iter()
            .filter_map(|leg| state.legs.get(leg).map(|l| l.equipped.clone()))
            .collect();
        rng.shuffle(&mut sides);
        for (leg, side) in unseen.iter().zip(sides) {
            if let Some(l) = Arc::make_mut(&mut state.legs).get_mut(leg) {
                l.equipped = side;
            }
        }
    }

    /// A leg bought or worn (its Equipped side seen), a street event card
    /// drawn from the deck, a Risk Booklet story read and a character card
    /// drawn from the box stand.
    fn cannot_take_back(_before: &State, facts: &[Fact]) -> Option<Rejection> {
        facts.iter().find_map(|fact| {
            let what = match fact {
                Fact::LegBought { .. } => "a leg's Equipped side was seen by its buyer",
                Fact::LegEquipped { side: Some(_), .. } => "a leg's Equipped side was turned up",
                Fact::StreetEventRead {
                    from_deck: true, ..
                } => "a street event card was drawn",
                Fact::RiskRead { .. } => "a Risk Booklet story was read",
                Fact::CharacterDrawn { card: None, .. } => "a character card was drawn",
                _ => return None,
            };
            Some(Rejection::revealed(what))
        })
    }

    fn hide(state: &State, viewer: Viewer, view: &mut Value) {
        // A leg's Equipped side: its owner's, and everyone's while equipped.
        for (name, leg) in view["legs"].as_object_mut().into_iter().flatten() {
            let known = state.londoners.iter().enumerate().any(|(s, l)| {
                l.legs.contains(name) && narration::sees_leg(state, viewer, s as Seat, name)
            });
            if !known {
                if let Some(map) = leg.as_object_mut() {
                    map.remove("equipped");
                }
            }
        }
        for page in view["booklet"].as_object_mut().into_iter().flatten() {
            if let Some(map) = page.1.as_object_mut() {
                map.remove("entries");
            }
        }
        view["deck"] = json!({ "face_down": state.deck.len() });
    }

    fn render(state: &State, viewer: Viewer) -> String {
        narration::render(state, viewer)
    }

    fn render_svg(state: &State, viewer: Viewer) -> String {
        svg::render(state, viewer)
    }
}
