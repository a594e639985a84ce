//! What Londoners do (actions) and what it meant (facts).
//!
//! Actions are JSON tagged by `"type"` in snake_case. Physical outcomes ride
//! on the action: `rolls` (dice to move, several with crutches), `roll` (one
//! die), `drew` (card names). A table with its own box may instead type
//! what a street event card or a Risk Booklet story says (`cards`, `story`).
//! Facts are past-tense and carry everything `apply` needs; a secret field
//! (a leg's Equipped side) is an `Option` so a redacted copy can leave it out.

use serde::{Deserialize, Serialize};
use tabletape_events::Seat;

use super::board::Place;
use super::content::{CardText, Character, Effect, Equipped, GoalKind, LegText, LocationCard};
use super::state::{Stage, Token};

/// What the table reads off its own card or booklet page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Told {
    /// The card's name or the story's first words.
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
    pub effects: Vec<Effect>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Start of turn: pays the upkeep of the legs kept, sells those in `sell`.
    Upkeep {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        sell: Vec<String>,
    },
    /// Rolls to move: one die, or two or three with crutches (`rolls`; one
    /// die may be written as a bare number).
    Roll {
        #[serde(
            default,
            deserialize_with = "one_or_many",
            skip_serializing_if = "Option::is_none"
        )]
        rolls: Option<Vec<u32>>,
    },
    /// Walks `path` (squares and at most one location, last) after rolling.
    /// Physical: `drew` names the street event cards picked up on the way,
    /// or `cards` says what the table's own cards say.
    Move {
        path: Vec<Place>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        drew: Option<Vec<String>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cards: Option<Vec<Told>>,
    },
    /// Works here: the card's earnings, or (`risk`) the Risk Booklet.
    Work {
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        risk: bool,
        /// Record mode: what this location's card says, the first time it is used.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<CardText>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        story: Option<Told>,
    },
    /// Tries to find love here through the Risk Booklet.
    FindLove {
        /// Record mode: what this location's card says, the first time it is used.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<CardText>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        story: Option<Told>,
    },
    BuyProperty {
        /// Record mode: what this location's card says, the first time it is used.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<CardText>,
    },
    /// Completes the personal goal on the character card here.
    PersonalGoal,
    /// Buys a leg in the Artificial Leg Store.
    BuyLeg {
        leg: String,
        /// Record mode: the card of a leg the table has not typed before.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<LegText>,
    },
    /// Pays the Sickroom and rolls to heal (there, sick or not).
    Recover {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<u32>,
    },
    /// Equips one owned leg (or none) before acting; free.
    Equip { leg: Option<String> },
    /// Sells an owned leg back for half its cost, rounded up; free.
    SellLeg { leg: String },
    /// A dead player draws a new character card and rejoins.
    DrawCharacter {
        seat: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        drew: Option<String>,
        /// Record mode: the character card as the table dealt it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<Character>,
    },
}

/// `rolls` as a list of faces, or a single face for a single die.
fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Vec<u32>>, D::Error> {
    struct Faces;
    impl<'de> serde::de::Visitor<'de> for Faces {
        type Value = Option<Vec<u32>>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a die face or a list of die faces")
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Self::Value, E> {
            let face = u32::try_from(v).map_err(|_| E::custom(format!("{v} is not a die face")))?;
            Ok(Some(vec![face]))
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Self::Value, A::Error> {
            let mut faces = Vec::new();
            while let Some(face) = seq.next_element::<u32>()? {
                faces.push(face);
            }
            Ok(Some(faces))
        }
    }
    d.deserialize_any(Faces)
}

/// Why a leg went back to the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sale {
    /// The owner chose to.
    Chosen,
    /// Instead of paying its upkeep.
    Upkeep,
    /// To pay a debt.
    Shortfall,
    /// Its owner died.
    Death,
    /// A card or story took it (for nothing).
    Taken,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// What a Risk Booklet page was opened for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Task {
    Work,
    Love,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Death {
    /// Could not pay the Sickroom.
    Sickroom,
    /// Too few victory spaces left for the goals still needed.
    NoSpace,
}

crate::by_tag! {
    "Fact",
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub enum Fact {
        TurnBegan {
            seat: Seat,
            round: u32,
            stage: Stage,
        },
        /// A turn skipped (one of `miss_turns`).
        TurnMissed {
            seat: Seat,
        },
        StageSet {
            seat: Seat,
            stage: Stage,
        },
        UpkeepPaid {
            seat: Seat,
            amount: u32,
        },
        /// The buyer sees the Equipped side; the rest of the table does not.
        LegBought {
            seat: Seat,
            leg: String,
            cost: u32,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            equipped: Option<Equipped>,
        },
        /// The side turned up is seen by everyone.
        LegEquipped {
            seat: Seat,
            leg: Option<String>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            side: Option<Equipped>,
        },
        LegSold {
            seat: Seat,
            leg: String,
            price: u32,
            why: Sale,
        },
        /// A card gave the reader this leg from the Store, for nothing.
        LegGiven {
            seat: Seat,
            leg: String,
        },
        RolledToMove {
            seat: Seat,
            rolls: Vec<u32>,
            mobility: i32,
            steps: u32,
        },
        Moved {
            seat: Seat,
            path: Vec<Place>,
            /// Street event cards picked up on the way, read once the move ends.
            #[serde(default, skip_serializing_if = "is_zero")]
            picked_up: u32,
        },
        /// A card read: from the deck (`from_deck`) or as the table typed it.
        StreetEventRead {
            seat: Seat,
            card: String,
            text: String,
            effects: Vec<Effect>,
            from_deck: bool,
        },
        /// The street event deck was empty: the discards are shuffled in.
        DeckRenewed,
        Earned {
            seat: Seat,
            amount: u32,
        },
        /// Work's fixed earnings, at a location.
        Worked {
            seat: Seat,
            location: String,
            amount: u32,
        },
        Paid {
            seat: Seat,
            amount: u32,
        },
        /// Money from one Londoner to another, as a card or story says.
        Handed {
            from: Seat,
            to: Seat,
            amount: u32,
        },
        /// A card or story moves the Londoner on: up to `steps` squares
        /// now (every such move read this turn, added up), and the turn
        /// goes on until they are walked.
        MoveGranted {
            seat: Seat,
            steps: u32,
        },
        /// The Sickroom's fee, paid on arriving sick, each turn there, or to
        /// recover health by choice.
        SickroomPaid {
            seat: Seat,
            fee: u32,
        },
        /// A debt beyond what money and legs cover, paid in hearts.
        PaidInHealth {
            seat: Seat,
            owed: u32,
        },
        RiskRead {
            seat: Seat,
            task: Task,
            page: Option<u32>,
            roll: u32,
            score: i32,
            total: i32,
            text: String,
            effects: Vec<Effect>,
        },
        HealthChanged {
            seat: Seat,
            from: u32,
            to: u32,
        },
        WentTo {
            seat: Seat,
            to: Place,
        },
        TurnsLost {
            seat: Seat,
            turns: u32,
        },
        /// A goal completed: its price paid (`cost`, a property's or a
        /// personal goal's) and a victory token placed on its space.
        TokenPlaced {
            seat: Seat,
            location: String,
            goal: GoalKind,
            #[serde(default, skip_serializing_if = "is_zero")]
            cost: u32,
        },
        FellSick {
            seat: Seat,
        },
        Healed {
            seat: Seat,
            roll: u32,
            from: u32,
            to: u32,
        },
        /// Full health again: free to leave the Sickroom next turn.
        LeftSickbed {
            seat: Seat,
        },
        Died {
            seat: Seat,
            character: String,
            why: Death,
            removed: Vec<Token>,
        },
        /// A location's card typed in record mode, now on the table.
        CardLaidOut {
            card: LocationCard,
        },
        CharacterDrawn {
            seat: Seat,
            /// Record mode: the card as typed.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            card: Option<Character>,
            character: String,
            at: Place,
            money: u32,
            health: u32,
        },
        Won {
            seat: Seat,
        },
        /// The safeguard round limit was reached.
        GameCalled {
            winners: Vec<Seat>,
            rounds: u32,
        },
    }
}
