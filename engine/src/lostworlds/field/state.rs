//! A scenario's board in play: where each figure stands and how, what lies
//! where, and how far the turn has gone (issue P10). The duel state around
//! it keeps the characters, their books and orders; the combat phase of each
//! turn is fought through that duel machinery between the figures engaged.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use tabletape_events::{DiceMode, Seat};

use crate::lostworlds::field::content::{Ground, Hex, ObjectKind, Scenario, Terrain};
use crate::memo::Memo;

impl Serialize for Hex {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Hex {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Hex::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("`{text}` is no space (write c3)")))
    }
}

/// How a figure stands: the rule text's positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Position {
    #[default]
    Standing,
    OffBalance,
    /// Knocked or fallen down, or lying prone.
    Down,
}

impl Position {
    pub fn words(self) -> &'static str {
        match self {
            Position::Standing => "standing",
            Position::OffBalance => "off balance",
            Position::Down => "down",
        }
    }
}

/// Where a turn has got to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Every conscious figure's player rolls a die.
    Initiative,
    /// The figures move one by one in initiative order.
    Movement,
    /// The unconscious roll on the recovery table.
    Recovery,
    /// Figures in each other's battle zones fight up to three rounds.
    Combat,
    /// Figures in a position to fall roll on the falling down table.
    Falls,
    /// The scenario is decided.
    Ended,
}

/// One character's figure on the board, by seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piece {
    /// Index of the scenario side the figure plays for.
    pub side: usize,
    pub at: Hex,
    #[serde(default)]
    pub position: Position,
    /// The object carried, by id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carrying: Option<String>,
    /// The unconscious or dead figure carried, by seat (a body is a large
    /// object: one load at a time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bearing: Option<Seat>,
    /// Movement points left this turn, of the `allowance` it began with.
    #[serde(default)]
    pub points: u32,
    #[serde(default)]
    pub allowance: u32,
    /// What the figure has done this turn (cleared at each initiative).
    #[serde(default)]
    pub done: Done,
    /// Ran last turn: running may not be done twice in a row.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ran_before: bool,
    /// Spell points spent casting beyond extended range, less those magic
    /// point regeneration has restored.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub spell_spent: u32,
    /// The adjacent space the figure cannot protect, chosen as its move ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undefended: Option<Hex>,
}

/// A figure's deeds this turn that later rules look back on.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Done {
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub moved: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ran: bool,
    /// A starred action of the movement chart, which running excludes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub starred: bool,
    /// Spaces entered this turn (a jump over a space needs two first).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub entered: u32,
    /// Who halted the figure (it moves no more this turn): the two fight
    /// the coming combat phase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub halted_by: Option<Seat>,
    /// Halted an opponent: one a turn, and no moving after.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub halted_one: bool,
    /// Blocked by an opponent: may only regain balance this turn.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub blocked: bool,
    /// Shoved an opponent hard: starts the combat phase off balance.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shoved_hard: bool,
    /// Carried, dropped or thrown while unconscious: no recovery roll.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub body_moved: bool,
    /// Added to the recovery roll by an opponent slaying the figure.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub slain: u32,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fought: bool,
    /// Spent the move regenerating: heals as the movement phase ends.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub regenerating: bool,
    /// Gone to another plane to regenerate: off the board (no battle zone,
    /// no obstacle, no target) until the movement phase ends.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dematerialized: bool,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A movable object and where it is (on a space, or carried).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Thing {
    pub id: String,
    pub kind: String,
    pub at: Hex,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carried_by: Option<Seat>,
    /// A thrown weapon's owner, who is armed again on picking it up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<Seat>,
}

/// A mover who entered battle zones: those opponents may halt it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HaltOffer {
    pub mover: Seat,
    pub by: Vec<Seat>,
}

/// The opening of a combat phase (rules 7): the figures still to say whom
/// they engage, and the pairs that fight so far.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Engaging {
    pub waiting: Vec<Seat>,
    pub pairs: Vec<(Seat, Seat)>,
}

impl Engaging {
    /// A pair fights, whoever engaged whom: kept once, lower seat first.
    pub fn join(&mut self, a: Seat, b: Seat) {
        let pair = (a.min(b), a.max(b));
        if !self.pairs.contains(&pair) {
            self.pairs.push(pair);
        }
    }

    pub fn fight(&self, a: Seat, b: Seat) -> bool {
        self.pairs.contains(&(a.min(b), a.max(b)))
    }

    /// The pairs as each figure's opponents, as the combat phase keeps them.
    pub fn engaged(&self) -> BTreeMap<Seat, Vec<Seat>> {
        let mut engaged: BTreeMap<Seat, Vec<Seat>> = BTreeMap::new();
        for &(a, b) in &self.pairs {
            engaged.entry(a).or_default().push(b);
            engaged.entry(b).or_default().push(a);
        }
        for foes in engaged.values_mut() {
            foes.sort_unstable();
            foes.dedup();
        }
        engaged
    }
}

/// A figure that fell, waiting for an opponent to set it down, or one
/// touched by a returning Airi or Wraith, waiting to be moved off its space.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placing {
    pub seat: Seat,
    pub by: Seat,
    pub from: Hex,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub touched: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    pub scenario: Arc<Scenario>,
    pub dice: DiceMode,
    pub turn: u32,
    pub stage: Stage,
    /// Seats in this turn's initiative order, and how many have moved.
    #[serde(default)]
    pub order: Vec<Seat>,
    #[serde(default)]
    pub moved: usize,
    pub pieces: Vec<Piece>,
    pub things: Vec<Thing>,
    /// Who fights whom this combat phase.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub engaged: BTreeMap<Seat, Vec<Seat>>,
    /// Rounds fought this combat phase.
    #[serde(default)]
    pub rounds: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offer: Option<HaltOffer>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engaging: Option<Engaging>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub placing: Vec<Placing>,
    /// Figures that will roll on the falling down table, with their bonus.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub at_risk: Vec<(Seat, u32)>,
    /// The side that won, once decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<usize>,
    /// Objects examined so far: what the scenario says is found in them is
    /// shown to every reader from then on, and to none before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examined: Vec<String>,
    /// The optional obstruction restrictions are played.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub obstructions: bool,
    /// The scenario's map read into spaces, once: every move and every
    /// drawing looks at it.
    #[serde(skip)]
    pub read_map: Memo<Terrain>,
}

/// Rounds of the book duel in one combat phase.
pub const ROUNDS_PER_PHASE: u32 = 3;

impl Field {
    pub fn terrain(&self) -> &Terrain {
        self.read_map.get_or_init(|| {
            crate::lostworlds::field::content::terrain(&self.scenario, "scenario", "scenario")
                .expect("a scenario in play was checked when the pack was read")
        })
    }

    pub fn kinds(&self) -> BTreeMap<String, ObjectKind> {
        let mut kinds = crate::lostworlds::field::content::standard_objects();
        kinds.extend(self.scenario.object_kinds.clone());
        kinds
    }

    pub fn kind_of(&self, thing: &Thing) -> ObjectKind {
        self.kinds()
            .remove(&thing.kind)
            .expect("an object's kind was checked when the pack was read")
    }

    pub fn piece(&self, seat: Seat) -> &Piece {
        &self.pieces[seat as usize]
    }

    /// The combat phase is on: the books' maneuvers are open. (A figure
    /// touched as the movement phase ends is moved off first.)
    pub fn in_combat(&self) -> bool {
        self.stage == Stage::Combat && self.placing.is_empty() && self.engaging.is_none()
    }

    /// The seat whose move it is.
    pub fn mover(&self) -> Option<Seat> {
        (self.stage == Stage::Movement)
            .then(|| self.order.get(self.moved).copied())
            .flatten()
    }

    pub fn thing(&self, id: &str) -> Option<&Thing> {
        self.things.iter().find(|t| t.id.eq_ignore_ascii_case(id))
    }

    /// The objects lying on a space (not carried).
    pub fn things_at(&self, h: Hex) -> impl Iterator<Item = &Thing> {
        self.things
            .iter()
            .filter(move |t| t.at == h && t.carried_by.is_none())
    }

    /// Who carries the body of `seat`, if anyone.
    pub fn borne_by(&self, seat: Seat) -> Option<Seat> {
        (0..self.pieces.len() as Seat).find(|&s| self.piece(s).bearing == Some(seat))
    }

    pub fn opposed(&self, a: Seat, b: Seat) -> bool {
        self.piece(a).side != self.piece(b).side
    }
}

/// Reading the board: a view of the field together with the characters.
pub struct Board<'a> {
    pub field: &'a Field,
    pub terrain: &'a Terrain,
    /// Height on the character sheet, by seat.
    pub heights: Vec<i32>,
    /// Conscious (body above zero and not dead) and on the board (not
    /// dematerialized), by seat: the figures that are met, fought and hit.
    pub conscious: Vec<bool>,
}

impl<'a> Board<'a> {
    pub fn level(&self, h: Hex) -> Option<u8> {
        self.terrain.at(h).and_then(Ground::level)
    }

    pub fn neighbours(&self, h: Hex) -> [Option<Hex>; 6] {
        h.neighbours(self.terrain.cols, self.terrain.rows)
    }

    pub fn adjacent(&self, a: Hex, b: Hex) -> bool {
        a.adjacent(b, self.terrain.cols, self.terrain.rows)
    }

    pub fn seat_level(&self, seat: Seat) -> i32 {
        i32::from(self.level(self.field.piece(seat).at).unwrap_or(0))
    }

    /// Whether two figures are in each other's battle zone: adjacent, and
    /// the lower one's height is more than the difference in levels.
    pub fn in_zone(&self, a: Seat, b: Seat) -> bool {
        let (pa, pb) = (self.field.piece(a), self.field.piece(b));
        if !self.adjacent(pa.at, pb.at) {
            return false;
        }
        let (la, lb) = (self.seat_level(a), self.seat_level(b));
        let lower = if la <= lb { a } else { b };
        self.heights[lower as usize] > (la - lb).abs()
    }

    /// The conscious opponents of `seat` in whose battle zone it stands.
    pub fn zone_foes(&self, seat: Seat) -> Vec<Seat> {
        (0..self.field.pieces.len() as Seat)
            .filter(|&o| o != seat && self.field.opposed(seat, o) && self.conscious[o as usize])
            .filter(|&o| self.in_zone(seat, o))
            .collect()
    }

    /// The conscious figure on a space, if any.
    pub fn figure_at(&self, h: Hex) -> Option<Seat> {
        (0..self.field.pieces.len() as Seat)
            .find(|&s| self.field.piece(s).at == h && self.conscious[s as usize])
    }

    /// A space a figure can stand on.
    pub fn open(&self, h: Hex) -> bool {
        self.level(h).is_some()
    }

    /// Whether a figure here is in a position to fall: on an object's
    /// space, or beside a space two or more levels below.
    pub fn precarious(&self, h: Hex) -> bool {
        let Some(level) = self.level(h) else {
            return false;
        };
        self.field.things_at(h).next().is_some()
            || self
                .neighbours(h)
                .into_iter()
                .flatten()
                .filter_map(|n| self.level(n))
                .any(|l| l + 2 <= level)
    }

    /// The hex `n` steps from `h` in direction `dir` (0 = east).
    pub fn ray(&self, h: Hex, dir: usize, n: usize) -> Option<Hex> {
        let mut at = h;
        for _ in 0..n {
            at = self.neighbours(at)[dir]?;
        }
        Some(at)
    }

    /// Spaces between two hexes, counting the last (0 for the same space).
    pub fn distance(&self, a: Hex, b: Hex) -> u32 {
        let cube = |h: Hex| {
            let q = i32::from(h.col) - (i32::from(h.row) - (i32::from(h.row) & 1)) / 2;
            let r = i32::from(h.row);
            (q, r, -q - r)
        };
        let (a, b) = (cube(a), cube(b));
        ((a.0 - b.0)
            .abs()
            .max((a.1 - b.1).abs())
            .max((a.2 - b.2).abs())) as u32
    }
}
