//! What the team does (actions) and what it meant (facts).
//!
//! Actions are JSON tagged by `"type"` in snake_case; characters are named
//! by their index in the game (0 is the first seat's). With physical dice
//! the table says what chance gave in `outcomes`: the cards it drew in
//! order (`drew`: a Personality card, an Investigation card, an Item, a
//! Confidence card, a challenge), the fists on each Action die rolled
//! (`rolls`) and the Trauma die's faces (`trauma`). In record mode a card
//! met for the first time is typed in place of its name (see [`Drawn`]).
//! Facts are past-tense and carry everything `apply` needs.

use serde::{Deserialize, Serialize};

use super::content::{Condition, Icon, Reverse, Segment, TraumaFace, TypedCard};
use super::state::{Area, Card, Face, InvestigationToken, Place, Target, Token};

/// Chance as the table's own dice and cards gave it (physical dice).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcomes {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drew: Vec<Drawn>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trauma: Vec<TraumaFace>,
}

/// A card the table drew or turned up: its name, or in record mode, the
/// first time the card comes into play, the card typed whole
/// (`{"item": {"name": "Lantern", "use": {...}, "deplete": {...}}}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Drawn {
    Named(String),
    Typed(Box<TypedCard>),
    /// Record mode: `null`, the pile the rules draw from has run out (no
    /// one else has counted the table's piles).
    RanOut,
}

impl Drawn {
    pub fn name(&self) -> &str {
        match self {
            Drawn::Named(name) => name,
            Drawn::Typed(card) => card.name(),
            Drawn::RanOut => "",
        }
    }
}

impl From<&str> for Drawn {
    fn from(name: &str) -> Drawn {
        Drawn::Named(name.to_string())
    }
}

/// Where a chosen Item comes from: one of the Supply, or the deck's top.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    Supply(String),
    Deck,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Big Ben strikes: the planning time starts (when Tabletape keeps it).
    /// Physical, first chapter: `outcomes.drew` names what the table dealt
    /// at setup: each character's starting Items in turn, the three Items
    /// of the Supply, then the Confidence cards put in the Investigation deck.
    StartPlanning {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outcomes: Option<Outcomes>,
    },
    /// Turns a location card face up. Physical: `card` says what it was:
    /// `placeholder` or the Dread card's or Ally's name. Record mode: a
    /// Dread card or Ally met for the first time is typed, and a
    /// placeholder is the Plot card it stands for, typed by its face.
    Reveal {
        location: Place,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<Drawn>,
    },
    /// Puts a token in an empty slot (1-12) of a character's clock: its
    /// number side, or with `arrow` its arrow side pointing to an area.
    /// `stash` takes it from the board's stash (1 dread at the chapter's end).
    Place {
        character: usize,
        slot: u8,
        number: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        arrow: Option<Area>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        stash: bool,
    },
    /// Takes a token back out of a slot.
    TakeBack { character: usize, slot: u8 },
    /// Moves a token to another, empty, slot.
    MoveToken { character: usize, from: u8, to: u8 },
    /// A whole clock at once, as a table keeping its own time entered it:
    /// twelve slots, each a token or null.
    SetClock {
        character: usize,
        slots: Vec<Option<Token>>,
    },
    /// Lays an Investigation token on a face-up Dread or Plot card while
    /// planning (one a card; a new one replaces it): how the table means
    /// to solve it. Optional, and no rule reads it.
    Mark {
        location: Place,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<InvestigationToken>,
    },
    /// Takes an Investigation token off a card.
    Unmark { location: Place },
    /// Planning is over; `leader` (a character) guides the story phase.
    BeginStory { leader: usize },
    /// Turns an arrow still to come towards another area (1 dread).
    Detour {
        character: usize,
        slot: u8,
        toward: Area,
    },
    /// The Leader calls the next action (closing the one before), or
    /// after the twelfth ends the chapter.
    NextAction {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outcomes: Option<Outcomes>,
    },
    /// Begins the investigation of a face-up card where characters are.
    /// Physical, at the story's last Plot card: `outcomes.drew` names the
    /// Confidence cards gained and the Investigation cards as dealt.
    Investigate {
        location: Place,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outcomes: Option<Outcomes>,
    },
    /// Takes the face-up Ally here along.
    Recruit { character: usize, location: Place },
    /// Flips a Personality card at a Plot card or a challenge.
    Flip {
        character: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outcomes: Option<Outcomes>,
    },
    /// Draws a card from the Investigation deck for this encounter.
    Draw {
        character: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outcomes: Option<Outcomes>,
    },
    /// Endgame: adds a card from the character's hand.
    Play { character: usize, card: String },
    /// Tilts an item for its use effect, or discards it (`deplete`).
    UseItem {
        character: usize,
        item: String,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        deplete: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outcomes: Option<Outcomes>,
    },
    SpendVirtue {
        character: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outcomes: Option<Outcomes>,
    },
    Sacrifice {
        character: usize,
        ally: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outcomes: Option<Outcomes>,
    },
    /// Rolls the character's action dice (a Plot card, the Showdown).
    Roll {
        character: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outcomes: Option<Outcomes>,
    },
    /// Rolls again the dice without a fist, as far as items allow.
    Reroll {
        character: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outcomes: Option<Outcomes>,
    },
    /// Ends the encounter under way and reads its outcome. Record mode,
    /// at a Plot card: `reverse` types the card's reverse as read now.
    Resolve {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outcomes: Option<Outcomes>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reverse: Option<Reverse>,
    },
    /// Leaves a Dread card (or a Plot card before anyone flipped) be.
    WalkAway,
    /// Takes an Item a Plot card gave.
    TakeItem {
        character: usize,
        from: Source,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outcomes: Option<Outcomes>,
    },
    /// Endgame: stays in for the next challenge.
    Stay { character: usize },
    /// Endgame: bows out until the Showdown.
    Withdraw { character: usize },
    /// Endgame: turns the next challenge up.
    RevealChallenge {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outcomes: Option<Outcomes>,
    },
}

crate::by_tag! {
    "Fact",
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub enum Fact {
        /// Record mode: a card of the table's own box, as typed the first
        /// time it came into play (a Personality card: `character`'s).
        Typed {
            card: TypedCard,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            character: Option<usize>,
        },
        /// Record mode: the reverse of Plot card `letter`, as read when it
        /// was investigated.
        ReverseRead {
            letter: char,
            reverse: Reverse,
        },
        PlanningStarted {
            started_at_ms: u64,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            ends_at_ms: Option<u64>,
        },
        Revealed {
            place: Place,
            face: Face,
        },
        /// An Investigation token laid on (or, `None`, taken off) a card.
        Marked {
            place: Place,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            token: Option<InvestigationToken>,
        },
        TokenPlaced {
            character: usize,
            slot: u8,
            token: Token,
        },
        /// Back to its owner's hand, or to the stash.
        TokenTaken {
            character: usize,
            slot: u8,
        },
        StoryBegan {
            leader: usize,
        },
        Detoured {
            character: usize,
            slot: u8,
            toward: Area,
        },
        DreadRose {
            by: u32,
            why: String,
        },
        /// Only a card lowers dread.
        DreadFell {
            by: u32,
            why: String,
        },
        ActionCalled {
            action: u8,
        },
        Moved {
            character: usize,
            to: Place,
        },
        EncounterOpened {
            target: Target,
            present: Vec<usize>,
        },
        Flipped {
            character: usize,
            card: usize,
        },
        TraumaRolled {
            character: usize,
            face: TraumaFace,
        },
        ConditionTaken {
            character: usize,
            condition: Condition,
        },
        ConditionHealed {
            character: usize,
            condition: Condition,
        },
        Defeated {
            character: usize,
        },
        /// From the Investigation deck, or (Endgame) from the hand.
        CardAdded {
            character: usize,
            card: String,
            #[serde(default, skip_serializing_if = "std::ops::Not::not")]
            from_hand: bool,
        },
        ItemUsed {
            character: usize,
            item: String,
            #[serde(default, skip_serializing_if = "std::ops::Not::not")]
            depleted: bool,
        },
        VirtueSpent {
            character: usize,
        },
        AllySacrificed {
            character: usize,
            ally: String,
        },
        /// Icons, successes and rerolls added to a character's share.
        Boosted {
            character: usize,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            icons: Vec<Icon>,
            #[serde(default, skip_serializing_if = "is_zero")]
            successes: u32,
            #[serde(default, skip_serializing_if = "is_zero")]
            rerolls: u32,
        },
        /// Fists on each die (the whole roll, after a reroll too).
        DiceRolled {
            character: usize,
            fists: Vec<u32>,
            #[serde(default, skip_serializing_if = "is_zero")]
            rerolled: u32,
        },
        DreadCardMet {
            place: Place,
            card: String,
            points: u32,
            beaten: bool,
        },
        WalkedAway {
            place: Place,
        },
        PlotResolved {
            place: Place,
            letter: char,
            fists: u32,
            tier: usize,
            #[serde(default, skip_serializing_if = "is_zero")]
            impeccable: u32,
        },
        EndgameTriggered {
            place: Place,
            letter: char,
            helpers: u32,
        },
        /// Onto the Investigation deck, or into `hand`'s hand (Endgame).
        ConfidenceGained {
            cards: Vec<String>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            hand: Option<usize>,
        },
        VirtueGained {
            character: usize,
            count: u32,
        },
        /// `owed`: the Item a Plot card gave, chosen by its taker.
        ItemGained {
            character: usize,
            item: String,
            #[serde(default, skip_serializing_if = "std::ops::Not::not")]
            owed: bool,
        },
        /// The Supply after a take (refilled, or discarded and dealt again).
        SupplySet {
            supply: Vec<String>,
        },
        /// Items to choose, by these characters in turn.
        ItemsOwed {
            characters: Vec<usize>,
        },
        DiceGained {
            character: usize,
            count: u32,
        },
        AllyRecruited {
            character: usize,
            place: Place,
            ally: String,
        },
        SegmentEnded {
            segment: Segment,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            missed: Vec<char>,
        },
        /// The end-of-chapter count: face-down cards, face-up Dread cards'
        /// values, stash tokens, Allies kept (each a Confidence card).
        ChapterEnded {
            chapter: usize,
            face_down: u32,
            face_up_dread: u32,
            stash: u32,
            allies: u32,
        },
        /// The board cleared and dealt for the next chapter; `cards` is the
        /// deal face down (a secret; `None` when the table deals).
        ChapterDealt {
            chapter: usize,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            cards: Option<Vec<Card>>,
            allies: u32,
        },
        ItemsReadied {},
        EndgameBegan {
            hands: Vec<Vec<String>>,
            dice: Vec<u32>,
        },
        Stayed {
            character: usize,
        },
        Withdrew {
            character: usize,
        },
        ChallengeRevealed {
            card: String,
            queue: Vec<usize>,
        },
        ChallengeMet {
            character: usize,
            card: String,
            points: u32,
            met: bool,
        },
        /// The challenges are over (or no one is left in them).
        ShowdownBegan {
            needed: u32,
        },
        GameLost {
            why: String,
        },
        GameWon {
            fists: u32,
            needed: u32,
        },
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}
