//! The folded state of a game of Legless in London.
//!
//! The board and the location cards chosen for it, the leg cards (those in
//! the Artificial Leg Store and those owned), the street event deck, the
//! Risk Booklet, the character cards still in the box, each Londoner's
//! place, money, health, legs and victory tokens, and whose turn it is.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tabletape_events::{DiceMode, Seat};

use super::board::{Board, Place};
use super::content::{
    BoardPlan, Character, GoalKind, Leg, Location, LocationCard, Needs, RiskPage, StreetEvent,
};
use crate::memo::Memo;

/// Victory tokens each player has; placing both wins.
pub const TOKENS: usize = 2;

/// A victory token on the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Token {
    pub location: String,
    pub goal: GoalKind,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Londoner {
    pub player: String,
    /// The character card played now.
    pub character: String,
    pub at: Place,
    pub money: u32,
    pub health: u32,
    /// The top of this character's health track.
    pub max_health: u32,
    /// Leg cards owned, in the order bought.
    pub legs: Vec<String>,
    pub equipped: Option<String>,
    pub tokens: Vec<Token>,
    /// In the Sickroom until the health track is full again.
    pub sick: bool,
    pub miss_turns: u32,
    /// Without a character: dead (or, in record mode, not yet dealt one),
    /// drawing one before play goes on.
    pub dead: bool,
    /// Characters this player has lost.
    pub deaths: Vec<String>,
}

/// Where a turn stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Maintenance of the legs owned is due.
    Upkeep,
    /// Sick: pay the Sickroom and roll to heal.
    Sickroom,
    /// Move (roll first) or take one action at the location.
    Act,
    /// Rolled: walk up to `steps` squares.
    Moving { steps: u32 },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub seat: Seat,
    pub stage: Stage,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    Playing(Turn),
    Over,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub winners: Vec<Seat>,
    pub why: String,
}

/// The box's content (board, locations, cards, legs, street events, the
/// Risk Booklet, characters) is shared behind `Arc`: every decision clones
/// the state, and the content hardly ever changes in play (record mode adds
/// a card as it is typed, through `Arc::make_mut`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The version of Legless in London's rules the game was recorded
    /// under: an older game is decided as its rules had it.
    #[serde(default = "first_rules")]
    pub rules: u32,
    pub dice: DiceMode,
    /// Record mode: the table types its own cards as they come into play.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub record: bool,
    pub board: Arc<BoardPlan>,
    pub locations: Arc<Vec<Location>>,
    /// The card chosen from each pair, by location id.
    pub cards: Arc<BTreeMap<String, LocationCard>>,
    pub leg_store: String,
    pub sickroom: String,
    /// Every leg card of the box, by name.
    pub legs: Arc<BTreeMap<String, Leg>>,
    /// Legs for sale in the Artificial Leg Store, by name (sorted).
    pub pile: Vec<String>,
    pub street_events: Arc<BTreeMap<String, StreetEvent>>,
    /// Street event cards face down, by name (sorted); which comes next is
    /// drawn by chance.
    pub deck: Vec<String>,
    pub discard: Vec<String>,
    pub booklet: Arc<BTreeMap<u32, RiskPage>>,
    pub characters: Arc<BTreeMap<String, Character>>,
    /// Character cards in the box, by name (sorted).
    pub unused: Vec<String>,
    pub londoners: Vec<Londoner>,
    pub banker: Seat,
    pub round: u32,
    pub round_limit: u32,
    pub phase: Phase,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// The board read from its plan, once: every step and every drawing
    /// looks at it.
    #[serde(skip)]
    pub read_board: Memo<Board>,
}

impl State {
    pub fn name(&self, seat: Seat) -> &str {
        &self.londoners[seat as usize].player
    }

    pub fn londoner(&self, seat: Seat) -> &Londoner {
        &self.londoners[seat as usize]
    }

    pub fn board(&self) -> &Board {
        self.read_board.get_or_init(|| {
            Board::read(&self.board, &self.locations).expect("a game's board was checked at setup")
        })
    }

    pub fn turn(&self) -> Option<Turn> {
        match self.phase {
            Phase::Playing(t) => Some(t),
            Phase::Over => None,
        }
    }

    /// The seat that plays first: the one after the banker.
    pub fn first(&self) -> Seat {
        ((self.banker as usize + 1) % self.londoners.len()) as Seat
    }

    pub fn location(&self, id: &str) -> Option<&Location> {
        self.locations.iter().find(|l| l.id == id)
    }

    pub fn location_name<'a>(&'a self, id: &'a str) -> &'a str {
        self.location(id).map_or(id, |l| l.name.as_str())
    }

    /// The scores of the leg `seat` has equipped (all 0 without one).
    pub fn scores(&self, seat: Seat) -> Needs {
        self.londoner(seat)
            .equipped
            .as_ref()
            .and_then(|l| self.legs.get(l))
            .map(|l| l.equipped.scores())
            .unwrap_or_default()
    }

    /// Dice rolled to move: the most any crutches owned allow, unless the
    /// leg equipped is a chair.
    pub fn move_dice(&self, seat: Seat) -> u32 {
        let l = self.londoner(seat);
        let chair = l
            .equipped
            .as_ref()
            .and_then(|e| self.legs.get(e))
            .is_some_and(|e| e.equipped.no_crutches);
        if chair {
            return 1;
        }
        l.legs
            .iter()
            .filter_map(|n| self.legs.get(n)?.equipped.crutch_rolls)
            .max()
            .unwrap_or(1)
    }

    pub fn upkeep_due(&self, seat: Seat) -> u32 {
        self.upkeep_selling(seat, &[]).1
    }

    /// What selling `sold` brings in, and the upkeep of the legs kept.
    pub fn upkeep_selling(&self, seat: Seat, sold: &[String]) -> (u32, u32) {
        let (mut proceeds, mut due) = (0, 0);
        for leg in self
            .londoner(seat)
            .legs
            .iter()
            .filter_map(|n| self.legs.get(n))
        {
            if sold.contains(&leg.name) {
                proceeds += leg.resale();
            } else {
                due += leg.equipped.maintenance;
            }
        }
        (proceeds, due)
    }

    pub fn sickroom_fee(&self) -> u32 {
        self.cards
            .get(&self.sickroom)
            .and_then(|c| c.sickroom.as_ref())
            .map_or(0, |p| p.cost)
    }

    /// The token on `goal`'s space at `location`, if any.
    pub fn space_taken(&self, location: &str, goal: GoalKind) -> Option<Seat> {
        self.londoners
            .iter()
            .position(|l| {
                l.tokens
                    .iter()
                    .any(|t| t.location == location && t.goal == goal)
            })
            .map(|s| s as Seat)
    }

    /// Whether `seat` has already completed `goal`.
    pub fn done(&self, seat: Seat, goal: GoalKind) -> bool {
        self.londoner(seat).tokens.iter().any(|t| t.goal == goal)
    }

    pub fn character_of(&self, seat: Seat) -> &Character {
        &self.characters[&self.londoner(seat).character]
    }

    /// The locations where `seat` could still complete `goal` if the space
    /// there were free: the goal's own list, or every location whose card
    /// allows it.
    pub fn goal_places(&self, seat: Seat, goal: GoalKind) -> Vec<String> {
        let Some(g) = self
            .character_of(seat)
            .goals
            .iter()
            .find(|g| g.kind == goal)
        else {
            return Vec::new();
        };
        self.locations
            .iter()
            // A character card's places bind its personal goal; Love and
            // Property are found wherever a card allows them (rules 2).
            .filter(|l| {
                g.at.is_empty()
                    || g.at.contains(&l.id)
                    || (self.rules >= 2 && goal != GoalKind::Personal)
            })
            .filter(|l| l.spaces.contains(&goal))
            .filter(|l| {
                // A card not yet on the table (record mode) may allow it.
                let card = self.cards.get(&l.id);
                match goal {
                    GoalKind::Love => card.is_none_or(|c| c.love.is_some()),
                    GoalKind::Property => card.is_none_or(|c| c.property.is_some()),
                    GoalKind::Personal => true,
                }
            })
            .map(|l| l.id.clone())
            .collect()
    }

    /// Goals `seat` has not completed that still have a free space.
    pub fn reachable_goals(&self, seat: Seat) -> usize {
        [GoalKind::Love, GoalKind::Property, GoalKind::Personal]
            .into_iter()
            .filter(|&g| !self.done(seat, g))
            .filter(|&g| {
                self.goal_places(seat, g)
                    .iter()
                    .any(|l| self.space_taken(l, g).is_none())
            })
            .count()
    }
}

fn first_rules() -> u32 {
    1
}
