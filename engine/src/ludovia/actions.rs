//! What Ludovia players do (actions) and what it meant (facts).
//!
//! Actions are JSON tagged by `"type"` in snake_case. Physical outcomes ride
//! on the action: `roll` (one die), `rolls` (opposed or opening dice, in the
//! order the action names them), `drew` (a card name). Facts are past-tense
//! and carry everything `apply` needs; a fact's secret fields (a treasure's
//! name) are `Option`s so a redacted copy can say "a card" without lying.

use serde::{Deserialize, Serialize};
use tabletape_events::Seat;

use super::board::{Facing, Post, Space, Street};
use super::content::RooftopEvent;
use super::state::{Choice, Outcome, Stage};

/// What a policeman die (or a prisoner's choice) does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    Left,
    Right,
    Advance,
}

impl Step {
    /// 1-2 left, 3-4 right, 5-6 advance.
    pub fn from_roll(roll: u32) -> Step {
        match roll {
            1 | 2 => Step::Left,
            3 | 4 => Step::Right,
            _ => Step::Advance,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Every contender rolls for the turn order (physical: `rolls` in seat order).
    RollForOrder {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rolls: Option<Vec<u32>>,
    },
    /// Places a policeman at a lamp post (opening placement or a Stake-out).
    PlacePoliceman { at: Post, facing: Facing },
    /// Opens a turn: a policeman moves by a die, or as a prisoner chooses.
    MovePoliceman {
        policeman: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<u32>,
        /// Only in prison: the move chosen instead of rolled.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        step: Option<Step>,
    },
    /// A prisoner with treasure faces the judge.
    StandTrial {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<u32>,
    },
    /// Moves one space (1 AP). `mask` spends a Mask to pass the police.
    Move {
        to: Space,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        mask: bool,
    },
    /// Takes the card on this rooftop (1 AP); physical: `drew` names it.
    Rob {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        drew: Option<String>,
        /// Physical: the equipment card an Equipment event turns up.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        found: Option<String>,
    },
    /// Jumps to the rooftop straight across a street (1 AP).
    Jump {
        to: Space,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<u32>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        rope: bool,
    },
    /// Tries to steal from a thief on this rooftop (1 AP); `rolls` are the
    /// attacker's then the target's; `took` names the card taken.
    Steal {
        from: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rolls: Option<Vec<u32>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        took: Option<String>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        make_up: bool,
    },
    /// Tries to knock a thief on this rooftop (or, with Bolas, a neighbouring
    /// one) down to `street`, a street of their block (1 AP).
    KnockDown {
        target: Seat,
        street: Street,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rolls: Option<Vec<u32>>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        make_up: bool,
    },
    /// Buys an item on offer, paying with treasures (1 AP). Physical: `drew`
    /// names the cards turned up for the new offer.
    Buy {
        item: String,
        pay: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        drew: Option<Vec<String>>,
    },
    /// Turns treasures into Fame and Fortune in the Lair (1 AP); all of them
    /// when `cards` is left out.
    CashIn {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cards: Option<Vec<String>>,
    },
    /// Blows a Whistle: a policeman moves again by a die roll (1 AP).
    Whistle {
        policeman: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<u32>,
    },
    /// Gives up a treasure (after a conviction or a Dog).
    DiscardTreasure { card: String },
    /// Gives up an item (after a Dog, or holding four).
    DiscardEquipment { item: String },
    /// Lands after a Trap on a street of the block.
    Land { street: Street },
    /// Ends the turn, leaving any action points unspent.
    EndTurn,
}

/// One seat's die in a roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatRoll {
    pub seat: Seat,
    pub roll: u32,
}

/// Why a thief went to prison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArrestCause {
    /// Carried treasure onto a watched street.
    Watched,
    /// Carried treasure off a street that became watched while the thief
    /// stood on it: leaving it passes it (rules 2).
    Leaving,
    /// Robbed a Stake-out.
    StakeOut,
}

/// How a thief came down to a street.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FallCause {
    Jump,
    Trap,
    KnockedDown,
}

/// Why a turn ended (kept from rules 2 on, for the story).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnEnd {
    /// The thief chose to stop (`end_turn`).
    Chose,
    /// Every action point was spent.
    Spent,
    /// A fall, a lost duel, an event, an arrest or a conviction cut it short.
    Cut,
}

crate::by_tag! {
    "Fact",
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub enum Fact {
        OrderRolled {
            rolls: Vec<SeatRoll>,
        },
        OrderSettled {
            order: Vec<Seat>,
        },
        PolicemanPlaced {
            seat: Seat,
            at: Post,
            facing: Facing,
            stake_out: bool,
        },
        PolicemanMoved {
            seat: Seat,
            policeman: usize,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            roll: Option<u32>,
            step: Step,
            from: Post,
            to: Post,
            facing: Facing,
            /// Turned about because the move left him facing the edge.
            turned_about: bool,
        },
        /// A turn begins (a new round when the first seat in order starts).
        TurnBegan {
            seat: Seat,
            round: u32,
        },
        StageSet {
            seat: Seat,
            stage: Stage,
        },
        ActionPointSpent {
            seat: Seat,
            left: u32,
        },
        /// Served their time: no treasure, so free to go from the Prison.
        Released {
            seat: Seat,
        },
        TrialHeld {
            seat: Seat,
            roll: u32,
            acquitted: bool,
        },
        ChoiceAwaited {
            seat: Seat,
            choice: Choice,
        },
        ThiefMoved {
            seat: Seat,
            from: Space,
            to: Space,
            #[serde(default, skip_serializing_if = "std::ops::Not::not")]
            masked: bool,
        },
        ThiefArrested {
            seat: Seat,
            cause: ArrestCause,
            /// The watched street, for an arrest on the street.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            street: Option<Street>,
        },
        /// `card` is the treasure's name, hidden from the other seats; an event
        /// is always shown.
        RooftopRobbed {
            seat: Seat,
            rooftop: Space,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            card: Option<String>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            event: Option<RooftopEvent>,
        },
        JumpMade {
            seat: Seat,
            from: Space,
            to: Space,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            roll: Option<u32>,
        },
        ThiefFell {
            seat: Seat,
            street: Street,
            cause: FallCause,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            roll: Option<u32>,
        },
        StealTried {
            seat: Seat,
            from: Seat,
            rolls: [u32; 2],
            won: bool,
            /// The card taken, known to the two thieves only.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            card: Option<String>,
        },
        KnockDownTried {
            seat: Seat,
            target: Seat,
            rolls: [u32; 2],
            won: bool,
        },
        EquipmentBought {
            seat: Seat,
            item: String,
            paid: Vec<String>,
            /// Dollars paid over the price, lost.
            lost: u32,
        },
        OfferRenewed {
            to_bottom: Vec<String>,
            drawn: Vec<String>,
        },
        /// An Equipment event: the top card of the deck, free.
        EquipmentFound {
            seat: Seat,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            item: Option<String>,
        },
        /// A blue item used once, and discarded.
        EquipmentUsed {
            seat: Seat,
            item: String,
        },
        /// A kept item did its work (a green item used, a red one that
        /// changed a roll); nothing moves. Rules 2 on.
        EquipmentActed {
            seat: Seat,
            item: String,
        },
        EquipmentDiscarded {
            seat: Seat,
            item: String,
        },
        TreasureDiscarded {
            seat: Seat,
            card: String,
        },
        FameGained {
            seat: Seat,
            cards: Vec<String>,
            points: u32,
            fame: u32,
        },
        TurnEnded {
            seat: Seat,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            why: Option<TurnEnd>,
        },
        NightEnded {
            outcome: Outcome,
        },
    }
}
