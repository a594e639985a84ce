//! The folded state of a night in Ludovia.
//!
//! The board (blocks by grid position, which rooftops were robbed), the
//! rooftop cards not yet seen (`pool`), the equipment deck as cards not yet
//! seen (`deck_unseen`) above the cards put back under it (`deck_bottom`),
//! the Black Market's offer, the policemen, the thieves with their secret
//! hands, and whose turn it is at which stage.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tabletape_events::{DiceMode, Seat};

use super::board::{Facing, Grid, Post, Space, Street};
use super::content::{Effect, Item, RooftopEvent, Special};

/// One block piece where it lies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Block {
    pub id: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub special: Option<Special>,
    /// The piece's rows as it lies on the board, already turned.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub layout: Vec<String>,
    /// How far the piece was turned clockwise from its printed layout, in
    /// degrees (0, 90, 180 or 270).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub turned: u32,
}

impl Block {
    /// The piece's name, with its turn when it lies turned.
    pub fn label(&self) -> String {
        if self.turned == 0 {
            self.name.clone()
        } else {
            format!("{} (turned {} degrees)", self.name, self.turned)
        }
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// What a block space is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellKind {
    Rooftop,
    Alley,
    BlackMarket,
}

/// A rooftop card face: a treasure's value or an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Face {
    Treasure(u32),
    Event(RooftopEvent),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Policeman {
    pub at: Post,
    pub facing: Facing,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Thief {
    pub player: String,
    pub at: Space,
    /// Treasure cards carried, by name. Secret to the other seats.
    pub hand: Vec<String>,
    pub equipment: Vec<String>,
    pub fame: u32,
    /// Arrested and not yet freed or acquitted.
    pub in_prison: bool,
}

/// A choice the acting thief owes before play goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Choice {
    /// Convicted at trial: give up one treasure.
    ConvictionDiscard,
    /// Bitten by a Dog: give up an item or a treasure.
    DogDiscard,
    /// Caught in a Trap: pick a street of the block to land on.
    TrapLanding,
    /// A Stake-out: place a policeman beside the Prison.
    StakeOutPoliceman,
    /// Four items: give one up.
    EquipmentOverflow,
    /// A second copy of a blue item came from an Equipment event: use it at
    /// once (the one action it serves, free), or let it go unused.
    SpareItem,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// The turn opens by moving a policeman.
    Policeman,
    /// In prison with treasure: the trial roll is due.
    Trial,
    /// Spending action points.
    Actions,
    Choice(Choice),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub seat: Seat,
    pub stage: Stage,
    pub ap: u32,
    /// The turn ends once the pending choice is made (an event was robbed).
    pub ending: bool,
    /// Where the thief stood as the turn began, so the story can say
    /// where the turn took them. Kept from this version on; a state saved
    /// before has none, and the story then says only where they end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<Space>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// Rolling for who starts; only `contenders` roll (all, or those tied).
    Order {
        contenders: Vec<Seat>,
    },
    /// The last players in turn order place the first two policemen.
    Placing {
        seat: Seat,
    },
    Playing(Turn),
    Over,
}

/// How the night ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// One winner, or several Great Thieves sharing the title.
    pub winners: Vec<Seat>,
    pub why: String,
}

/// The box's rooftop faces and equipment cards are shared behind `Arc`:
/// every decision clones the state, and neither changes in play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The rules version the game was recorded under (see the module docs).
    #[serde(default = "first_rules")]
    pub rules: u32,
    /// The game's dice mode: `legal` says which outcomes the table must supply.
    pub dice: DiceMode,
    pub rows: u32,
    pub cols: u32,
    /// Row-major, `rows * cols`. Laid at setup and never changed, so a
    /// clone of the state (one per decision) shares it.
    pub blocks: Arc<Vec<Block>>,
    /// Rooftop spaces whose card was taken, as `s<row>.<col>`.
    pub robbed: BTreeSet<Space>,
    /// Every rooftop card face by name.
    pub faces: Arc<BTreeMap<String, Face>>,
    /// Rooftop cards still face down on the board, by name (sorted). Which
    /// rooftop holds which is drawn when it is robbed.
    pub pool: Vec<String>,
    /// Rooftop cards discarded (Dog, conviction, buying) or turned into Fame.
    pub rooftop_discard: Vec<String>,
    /// How many rooftop cards this game uses (49 or 70).
    pub rooftop_total: u32,
    pub items: Arc<BTreeMap<String, Item>>,
    /// Equipment cards never yet seen, by name (sorted): the deck's top part.
    pub deck_unseen: Vec<String>,
    /// Equipment cards put under the deck, top first.
    pub deck_bottom: Vec<String>,
    pub offer: Vec<String>,
    pub equipment_discard: Vec<String>,
    pub equipment_total: u32,
    pub policemen: Vec<Policeman>,
    pub thieves: Vec<Thief>,
    /// Seats in turn order, once rolled.
    pub order: Vec<Seat>,
    pub round: u32,
    pub round_limit: u32,
    pub phase: Phase,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
}

fn first_rules() -> u32 {
    1
}

impl State {
    pub fn grid(&self) -> Grid {
        Grid {
            rows: self.rows,
            cols: self.cols,
        }
    }

    pub fn block(&self, r: u32, c: u32) -> &Block {
        &self.blocks[(r * self.cols + c) as usize]
    }

    /// The grid position of the Lair or the Prison.
    pub fn special_at(&self, special: Special) -> (u32, u32) {
        let i = self
            .blocks
            .iter()
            .position(|b| b.special == Some(special))
            .expect("every board has its Lair and Prison") as u32;
        (i / self.cols, i % self.cols)
    }

    /// What the block space at `(row, col)` is; `None` off the board or on
    /// the Lair or Prison piece.
    pub fn cell(&self, row: u32, col: u32) -> Option<CellKind> {
        if row >= 3 * self.rows || col >= 3 * self.cols {
            return None;
        }
        let b = self.block(row / 3, col / 3);
        let ch = b
            .layout
            .get((row % 3) as usize)?
            .chars()
            .nth((col % 3) as usize)?;
        match ch {
            'R' => Some(CellKind::Rooftop),
            'A' => Some(CellKind::Alley),
            'M' => Some(CellKind::BlackMarket),
            _ => None,
        }
    }

    pub fn is_rooftop(&self, space: Space) -> bool {
        matches!(space, Space::Cell { row, col } if self.cell(row, col) == Some(CellKind::Rooftop))
    }

    /// Every rooftop space on the board.
    pub fn rooftops(&self) -> Vec<Space> {
        let mut out = Vec::new();
        for row in 0..3 * self.rows {
            for col in 0..3 * self.cols {
                if self.cell(row, col) == Some(CellKind::Rooftop) {
                    out.push(Space::Cell { row, col });
                }
            }
        }
        out
    }

    pub fn thief(&self, seat: Seat) -> &Thief {
        &self.thieves[seat as usize]
    }

    pub fn name(&self, seat: Seat) -> &str {
        &self.thieves[seat as usize].player
    }

    pub fn has(&self, seat: Seat, effect: Effect) -> bool {
        self.thief(seat)
            .equipment
            .iter()
            .any(|n| self.items.get(n).is_some_and(|i| i.effect == effect))
    }

    /// The name of the item with `effect` that `seat` holds.
    pub fn item_with(&self, seat: Seat, effect: Effect) -> Option<String> {
        self.thief(seat)
            .equipment
            .iter()
            .find(|n| self.items.get(*n).is_some_and(|i| i.effect == effect))
            .cloned()
    }

    /// How many rooftop cards `seat` may carry.
    pub fn carry_limit(&self, seat: Seat) -> usize {
        if self.has(seat, Effect::Backpack) {
            4
        } else {
            3
        }
    }

    pub fn value(&self, card: &str) -> u32 {
        match self.faces.get(card) {
            Some(Face::Treasure(v)) => *v,
            _ => 0,
        }
    }

    /// The worth of `cards` in dollars; `None` if it would overflow.
    pub fn sum_value(&self, cards: &[String]) -> Option<u32> {
        cards
            .iter()
            .try_fold(0u32, |sum, c| sum.checked_add(self.value(c)))
    }

    pub fn hand_value(&self, seat: Seat) -> u32 {
        self.sum_value(&self.thief(seat).hand).unwrap_or(u32::MAX)
    }

    /// Every street some policeman watches.
    pub fn watched(&self) -> BTreeSet<Street> {
        self.policemen
            .iter()
            .flat_map(|p| self.grid().watched(p.at, p.facing))
            .collect()
    }

    pub fn policeman_at(&self, post: Post) -> Option<usize> {
        self.policemen.iter().position(|p| p.at == post)
    }

    /// The blue item `seat` holds twice, if any (a spare from an event).
    pub fn spare_item(&self, seat: Seat) -> Option<String> {
        let held = &self.thief(seat).equipment;
        held.iter()
            .find(|i| held.iter().filter(|j| j == i).count() > 1)
            .cloned()
    }

    /// Every policeman standing at `post` (they may share one).
    pub fn policemen_at(&self, post: Post) -> Vec<usize> {
        (0..self.policemen.len())
            .filter(|&i| self.policemen[i].at == post)
            .collect()
    }

    pub fn max_policemen(&self) -> usize {
        self.thieves.len() + 1
    }

    pub fn turn(&self) -> Option<&Turn> {
        match &self.phase {
            Phase::Playing(t) => Some(t),
            _ => None,
        }
    }

    /// The seat after `seat` in turn order.
    pub fn next_seat(&self, seat: Seat) -> Seat {
        let i = self.order.iter().position(|&s| s == seat).unwrap_or(0);
        self.order[(i + 1) % self.order.len()]
    }

    /// Rooftop cards in hands, counted by the engine for the conservation check.
    pub fn cards_accounted(&self) -> usize {
        self.pool.len()
            + self.rooftop_discard.len()
            + self.thieves.iter().map(|t| t.hand.len()).sum::<usize>()
    }

    pub fn items_accounted(&self) -> usize {
        self.deck_unseen.len()
            + self.deck_bottom.len()
            + self.offer.len()
            + self.equipment_discard.len()
            + self
                .thieves
                .iter()
                .map(|t| t.equipment.len())
                .sum::<usize>()
    }
}
