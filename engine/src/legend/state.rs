//! The folded state of a LEGEND game: seats, every object ever played and
//! where it is now, claims, scenery, and whose action it is.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use tabletape_events::{DiceMode, Seat};

use super::actions::{AbilityName, Category, Outcome};
use super::content::{corner_large, Crossing, Sq};
use super::options::Options;

/// Where an object is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "where", rename_all = "snake_case")]
pub enum At {
    /// On the map, covering these squares (one, except Monsters and Monuments).
    Map { squares: Vec<Sq> },
    /// On a crossing of grid lines (Obstacles).
    Crossing { at: Crossing },
    /// Just outside the map at a Corner.
    Corner { corner: u8 },
    /// Carried by an Avatar or Hero.
    Held { by: u32 },
    /// In a seat's Stockpile.
    Stockpile { seat: Seat },
    /// Destroyed in a siege: gone from the game.
    Destroyed,
}

/// One found object and its story so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piece {
    pub id: u32,
    pub category: Category,
    pub name: String,
    pub description: String,
    /// Who played it.
    pub placed_by: Seat,
    /// Who controls it now (Charm changes this).
    pub controller: Seat,
    pub at: At,
}

impl Piece {
    pub fn square(&self) -> Option<Sq> {
        match &self.at {
            At::Map { squares } => squares.first().copied(),
            _ => None,
        }
    }

    pub fn squares(&self) -> &[Sq] {
        match &self.at {
            At::Map { squares } => squares,
            _ => &[],
        }
    }

    pub fn is_character(&self) -> bool {
        matches!(self.category, Category::Avatar | Category::Hero)
    }

    pub fn on_map(&self) -> bool {
        matches!(self.at, At::Map { .. } | At::Crossing { .. })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatState {
    pub player: String,
    pub corner: u8,
    #[serde(default)]
    pub symbol: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avatar: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub talisman: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ability: Option<AbilityName>,
    /// A custom ability's name and rule, as voted in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_ability: Option<(String, String)>,
    /// Obstacles this player has passed with an Item (the passage record):
    /// none of the player's Avatar or Heroes needs an Item for them again.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub passed: BTreeSet<u32>,
}

impl SeatState {
    pub fn introduced(&self) -> bool {
        self.avatar.is_some()
    }

    pub fn start_large(&self) -> u8 {
        corner_large(self.corner)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Introductions,
    Playing,
    Over,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The version of LEGEND's rules the game was recorded under: the
    /// story of an older game is told as its rules had it.
    #[serde(default = "first_rules")]
    pub rules: u32,
    pub dice: DiceMode,
    pub options: Options,
    pub seats: Vec<SeatState>,
    pub pieces: BTreeMap<u32, Piece>,
    pub next_id: u32,
    /// Large Square -> the seat whose Symbol is drawn there.
    pub claims: BTreeMap<u8, Seat>,
    pub scenery: BTreeMap<Sq, String>,
    pub phase: Phase,
    pub round: u32,
    /// Turn order: the first seat, then clockwise.
    pub order: Vec<Seat>,
    /// Index into `order` of the seat whose turn it is.
    pub turn: usize,
    pub actions_used: u32,
    pub actions_allowed: u32,
    pub ability_used: bool,
    /// Seats that lost a Gamble on their second action and miss their next turn.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub skip_next: BTreeSet<Seat>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// What the story is in the middle of telling, within one event only
    /// (cleared once the event is folded, so never part of a saved state).
    #[serde(skip)]
    pub telling: Telling,
}

/// The story's memory within one event, so its sentences follow on from
/// each other.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Telling {
    /// The player's explanation, waiting for the deed it explains.
    pub said: Option<(Seat, String)>,
    /// The piece last moved (a Reach it enters is claimed by it), and
    /// whether that was its second step or later ("goes on").
    pub mover: Option<u32>,
    pub again: bool,
    /// Where a character stepped from into a blank square: the Scenery
    /// drawn there tells the step ("sets out … and finds …").
    pub arriving: Option<At>,
    /// Squares given Scenery in this event ("There lies …").
    pub drawn: Vec<Sq>,
}

fn first_rules() -> u32 {
    1
}

/// Rounds in a game.
pub const ROUNDS: u32 = 7;

impl State {
    pub fn seat(&self, seat: Seat) -> &SeatState {
        &self.seats[seat as usize]
    }

    pub fn player(&self, seat: Seat) -> &str {
        &self.seats[seat as usize].player
    }

    pub fn current(&self) -> Seat {
        self.order[self.turn]
    }

    pub fn piece(&self, id: u32) -> Option<&Piece> {
        self.pieces.get(&id)
    }

    /// Items and Talismans carried by a piece.
    pub fn carried(&self, by: u32) -> impl Iterator<Item = &Piece> {
        self.pieces
            .values()
            .filter(move |p| p.at == At::Held { by })
    }

    pub fn items_of(&self, by: u32) -> Vec<u32> {
        self.carried(by)
            .filter(|p| p.category == Category::Item)
            .map(|p| p.id)
            .collect()
    }

    pub fn talisman_of(&self, by: u32) -> Option<u32> {
        self.carried(by)
            .find(|p| p.category == Category::Talisman)
            .map(|p| p.id)
    }

    /// How many Items a piece may carry (two with Pocket).
    pub fn item_capacity(&self, piece: &Piece) -> usize {
        if self.has_ability(piece.controller, AbilityName::Pocket) {
            2
        } else {
            1
        }
    }

    pub fn has_ability(&self, seat: Seat, a: AbilityName) -> bool {
        self.options.abilities && self.seat(seat).ability == Some(a)
    }

    /// Pieces standing on (or covering) a square.
    pub fn at_square(&self, sq: Sq) -> impl Iterator<Item = &Piece> {
        self.pieces
            .values()
            .filter(move |p| p.squares().contains(&sq))
    }

    /// The Monument covering a square, if any.
    pub fn monument_at(&self, sq: Sq) -> Option<&Piece> {
        self.at_square(sq)
            .find(|p| p.category == Category::Monument)
    }

    /// The Avatar or Hero occupying a Monument.
    pub fn occupant(&self, monument: &Piece) -> Option<&Piece> {
        self.pieces.values().find(|p| {
            p.is_character() && p.square().is_some_and(|s| monument.squares().contains(&s))
        })
    }

    /// Obstacles touching a square.
    pub fn obstacles_touching(&self, sq: Sq) -> Vec<&Piece> {
        self.pieces
            .values()
            .filter(|p| p.category == Category::Obstacle)
            .filter(|p| matches!(&p.at, At::Crossing { at } if at.touches().contains(&sq)))
            .collect()
    }

    /// Every seat's starting Large Square.
    pub fn start_larges(&self) -> Vec<u8> {
        self.seats.iter().map(SeatState::start_large).collect()
    }

    pub fn stockpile(&self, seat: Seat) -> Vec<&Piece> {
        self.pieces
            .values()
            .filter(|p| p.at == At::Stockpile { seat })
            .collect()
    }
}
