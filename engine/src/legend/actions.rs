//! What LEGEND players do (actions) and what it meant (facts).
//!
//! Actions are JSON tagged by `"type"` in snake_case; a `seat` left out means
//! the seat whose turn it is (or, while introducing, the first seat not yet
//! introduced). Every action may carry the player's `explanation`, which is
//! recorded and narrated. Facts are past-tense and carry what `apply` needs.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use tabletape_events::Seat;

use super::content::{Crossing, Sq};
use super::state::{At, Piece};

/// The six kinds of object (Avatars and Heroes are told apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Avatar,
    Hero,
    Item,
    Talisman,
    Monster,
    Obstacle,
    Monument,
}

impl Category {
    pub fn word(self) -> &'static str {
        match self {
            Category::Avatar => "Avatar",
            Category::Hero => "Hero",
            Category::Item => "Item",
            Category::Talisman => "Talisman",
            Category::Monster => "Monster",
            Category::Obstacle => "Obstacle",
            Category::Monument => "Monument",
        }
    }
}

/// The nine Abilities of the rule text, and a custom one voted in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AbilityName {
    Rewrite,
    Shift,
    Recycle,
    LongArm,
    Pocket,
    Gamble,
    Charm,
    Guile,
    Entropy,
    Custom,
}

impl AbilityName {
    pub fn word(self) -> &'static str {
        match self {
            AbilityName::Rewrite => "Rewrite",
            AbilityName::Shift => "Shift",
            AbilityName::Recycle => "Recycle",
            AbilityName::LongArm => "Long Arm",
            AbilityName::Pocket => "Pocket",
            AbilityName::Gamble => "Gamble",
            AbilityName::Charm => "Charm",
            AbilityName::Guile => "Guile",
            AbilityName::Entropy => "Entropy",
            AbilityName::Custom => "a custom Ability",
        }
    }

    pub const ALL: [AbilityName; 9] = [
        AbilityName::Rewrite,
        AbilityName::Shift,
        AbilityName::Recycle,
        AbilityName::LongArm,
        AbilityName::Pocket,
        AbilityName::Gamble,
        AbilityName::Charm,
        AbilityName::Guile,
        AbilityName::Entropy,
    ];
}

/// A found object as the player describes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Described {
    pub name: String,
    #[serde(default)]
    pub description: String,
}

/// A found object placed on the map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Object {
    pub name: String,
    pub category: Category,
    #[serde(default)]
    pub description: String,
}

/// A table vote on an explanation: who found it plausible, who did not, and
/// the retelling and second vote if the first failed.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Votes {
    #[serde(default, rename = "for", skip_serializing_if = "Vec::is_empty")]
    pub aye: Vec<Seat>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub against: Vec<Seat>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retold: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retold_for: Vec<Seat>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retold_against: Vec<Seat>,
}

/// One piece's part of a Move action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub piece: u32,
    /// Squares entered in order (one or two). A Monster's path follows its
    /// first square. From a Corner: just the Corner's square.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub path: Vec<Sq>,
    /// Leaves the map into the Corner beside the piece's square.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exit: bool,
    /// Scenery for every blank square an Avatar or Hero enters.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub scenery: BTreeMap<Sq, String>,
    /// Swap the held Item for one found on the way.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub swap: bool,
    /// How this piece uses an Item, or its side's story of a battle it wins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub story: Option<String>,
    /// The other side's story of a battle it wins (the victor tells the
    /// story, rules 2): how an Avatar or Hero with an Item beats this
    /// Monster, or how an enemy Monster beats this Avatar or Hero. Given
    /// only when the other side wins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub their_story: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub votes: Option<Votes>,
    /// Use Rewrite on the Large Square where the piece ends.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rewrite: bool,
}

impl Step {
    pub fn to(piece: u32, path: Vec<Sq>) -> Step {
        Step {
            piece,
            path,
            exit: false,
            scenery: BTreeMap::new(),
            swap: false,
            story: None,
            their_story: None,
            votes: None,
            rewrite: false,
        }
    }
}

/// A Corner of the map, as a player claims it (rules 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CornerName {
    #[serde(rename = "nw", alias = "NW", alias = "north-west")]
    NorthWest,
    #[serde(rename = "ne", alias = "NE", alias = "north-east")]
    NorthEast,
    #[serde(rename = "se", alias = "SE", alias = "south-east")]
    SouthEast,
    #[serde(rename = "sw", alias = "SW", alias = "south-west")]
    SouthWest,
}

impl CornerName {
    pub const ALL: [CornerName; 4] = [
        CornerName::NorthWest,
        CornerName::NorthEast,
        CornerName::SouthEast,
        CornerName::SouthWest,
    ];

    /// The Corner's number, clockwise from the north-west.
    pub fn index(self) -> u8 {
        self as u8
    }

    pub fn word(self) -> &'static str {
        ["nw", "ne", "se", "sw"][self as usize]
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// Setup: a seat names its Avatar, Talisman, Symbol (and Ability), and
    /// from rules 2 claims a Corner.
    Introduce {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        corner: Option<CornerName>,
        avatar: Described,
        talisman: Described,
        symbol: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ability: Option<AbilityName>,
        /// A custom Ability: its name and rule, and the vote that allowed it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        custom: Option<Described>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        votes: Option<Votes>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        explanation: Option<String>,
    },
    /// Moves any of the seat's Avatars, Heroes and Monsters.
    Move {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        pieces: Vec<Step>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        explanation: Option<String>,
    },
    /// Places a Hero (at the Corner), Item (`square`), Monster or Monument
    /// (`squares`) or Obstacle (`at`, a crossing). `recycle` replays a
    /// Stockpiled object (Recycle ability).
    Place {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        object: Object,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        squares: Vec<Sq>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<Crossing>,
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        scenery: BTreeMap<Sq, String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        recycle: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        explanation: Option<String>,
    },
    /// An Ability action.
    Ability {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        #[serde(flatten)]
        used: Use,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        explanation: Option<String>,
    },
    /// Two Avatars/Heroes on one square duel with written accounts.
    Duel {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        piece: u32,
        opponent: u32,
        account: String,
        opponent_account: String,
        /// Each voter and the piece whose account they liked best.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        votes: Vec<Ballot>,
        /// Physical coin for a tied vote: true for heads (the challenger wins).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        heads: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        explanation: Option<String>,
    },
    /// Gives up the rest of the turn.
    Pass {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        explanation: Option<String>,
    },
}

/// Which Ability is used, with what it needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "ability", rename_all = "snake_case")]
pub enum Use {
    /// Claims the Large Square where `piece` stands.
    Rewrite { piece: u32 },
    /// Swaps two objects of one category.
    Shift { first: u32, second: u32 },
    /// Uses `piece`'s Item on Monsters or a Monument's occupant at a distance.
    LongArm {
        piece: u32,
        targets: Vec<u32>,
        story: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        votes: Option<Votes>,
    },
    /// Someone flips a coin; the player calls it.
    Gamble {
        flipper: Seat,
        call_heads: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        heads: Option<bool>,
    },
    /// Takes control of a Hero or Monster on claimed ground.
    Charm { object: u32 },
    /// Turns a Monster into a Hero, an Obstacle into a Monument, or back.
    Guile {
        object: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<Crossing>,
    },
    /// Every seat removes one object to its Stockpile.
    Entropy { choices: Vec<Choice> },
    /// A custom Ability, told and voted on.
    Custom {
        account: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        votes: Option<Votes>,
    },
}

/// One vote in a Duel: the voter and the duelist whose account won them over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ballot {
    pub seat: Seat,
    pub piece: u32,
}

/// One seat's pick under Entropy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    pub seat: Seat,
    pub object: u32,
}

/// What happens to a defeated Avatar or Hero.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "fate", rename_all = "snake_case")]
pub enum Fate {
    /// Avatars return to their Corner.
    Respawned { corner: u8 },
    /// Heroes and Monsters go to the victor's Stockpile.
    Stockpiled { seat: Seat },
    /// A Monster that breaks against an unarmed occupant is gone.
    Destroyed,
}

/// One seat's line of the score table.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Score {
    pub seat: Seat,
    pub heroes: u32,
    pub items: u32,
    pub stockpiled_items: u32,
    pub stockpiled_heroes: u32,
    pub obstacles: u32,
    pub monsters: u32,
    pub stockpiled_monsters: u32,
    pub monuments: u32,
    pub talismans: u32,
    pub total: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Outcome {
    /// A Talisman reached an unoccupied Monument.
    Talisman {
        winner: Seat,
        piece: u32,
        talisman: u32,
        monument: u32,
    },
    /// Seven rounds were played; the score table decides.
    Points {
        scores: Vec<Score>,
        winners: Vec<Seat>,
    },
}

/// The outcome of a vote, as recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub aye: u32,
    pub against: u32,
    pub passed: bool,
    /// The acting player's tie-breaking vote was needed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tie: bool,
}

crate::by_tag! {
    "Fact",
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub enum Fact {
        SeatIntroduced {
            seat: Seat,
            /// The Corner claimed (rules 2; before, seat i held Corner i).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            corner: Option<u8>,
            avatar: Piece,
            talisman: Piece,
            symbol: String,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            ability: Option<AbilityName>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            custom: Option<Described>,
        },
        RoundBegan {
            round: u32,
        },
        /// The player's own words for the action.
        Explained {
            seat: Seat,
            text: String,
        },
        ActionTaken {
            seat: Seat,
            kind: String,
        },
        AbilityUsed {
            seat: Seat,
            ability: AbilityName,
        },
        AvatarMoved {
            piece: u32,
            from: At,
            to: At,
        },
        SceneryDrawn {
            seat: Seat,
            square: Sq,
            text: String,
        },
        TerritoryClaimed {
            seat: Seat,
            large: u8,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            from: Option<Seat>,
        },
        ItemPickedUp {
            piece: u32,
            item: u32,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            left: Option<u32>,
        },
        TalismanTaken {
            piece: u32,
            talisman: u32,
        },
        VoteTaken {
            seat: Seat,
            about: String,
            tally: Tally,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            retold: Option<String>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            second: Option<Tally>,
        },
        ObstaclePassed {
            piece: u32,
            obstacle: u32,
            item: u32,
            story: String,
        },
        ObstacleHeld {
            piece: u32,
            obstacle: u32,
        },
        ItemSpent {
            item: u32,
            seat: Seat,
        },
        BattleFought {
            aggressor: u32,
            defender: u32,
            victor: u32,
            #[serde(default, skip_serializing_if = "std::ops::Not::not")]
            siege: bool,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            story: Option<String>,
        },
        /// A vote-failed attack: the attacker keeps its Item and falls back.
        AttackRepelled {
            piece: u32,
            monster: u32,
            back_to: At,
        },
        Defeated {
            piece: u32,
            fate: Fate,
            /// What the piece drops on its square.
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            dropped: Vec<u32>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            square: Option<Sq>,
        },
        ObjectPlaced {
            seat: Seat,
            piece: Piece,
            #[serde(default, skip_serializing_if = "std::ops::Not::not")]
            recycled: bool,
        },
        MonumentOccupied {
            piece: u32,
            monument: u32,
        },
        Swapped {
            first: u32,
            second: u32,
            first_to: At,
            second_to: At,
        },
        Charmed {
            object: u32,
            seat: Seat,
        },
        Transformed {
            object: u32,
            into: Category,
            at: At,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            dropped: Vec<u32>,
        },
        Removed {
            seat: Seat,
            object: u32,
            to: At,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            left: Vec<u32>,
        },
        GambleFlipped {
            seat: Seat,
            flipper: Seat,
            call_heads: bool,
            heads: bool,
            second: bool,
        },
        DuelFought {
            piece: u32,
            opponent: u32,
            account: String,
            opponent_account: String,
            votes: Vec<Ballot>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            coin_heads: Option<bool>,
            victor: u32,
        },
        CustomAbilityUsed {
            seat: Seat,
            account: String,
        },
        TurnPassed {
            seat: Seat,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            skipped: Vec<Seat>,
        },
        GameWon {
            outcome: Outcome,
        },
        GameEnded {
            outcome: Outcome,
        },
    }
}
