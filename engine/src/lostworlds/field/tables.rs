//! The scenario rules' tables, as pure functions of a die: each is tested
//! row by row against the rule text (in `tests`), and nothing else reads a
//! table's numbers.

use serde::{Deserialize, Serialize};

use crate::lostworlds::field::state::Position;

/// How a reckless jump down ends (1-2 standing, 3-4 off balance, 5 down,
/// 6 down and hurt by the levels jumped).
pub fn reckless_landing(roll: u32) -> (Position, bool) {
    match roll {
        1 | 2 => (Position::Standing, false),
        3 | 4 => (Position::OffBalance, false),
        5 => (Position::Down, false),
        _ => (Position::Down, true),
    }
}

/// What jumping down onto an opponent does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pounce {
    /// 1: the jumper lands off balance; the opponent is knocked down and
    /// loses 2 body points.
    Flattened,
    /// 2: both off balance, and the opponent drops the weapon.
    Disarmed,
    /// 3-4: both off balance.
    Staggered,
    /// 5-6: missed; the jumper lands down beside the opponent, hurt by the
    /// levels jumped.
    Missed,
}

pub fn pounce(roll: u32) -> Pounce {
    match roll {
        1 => Pounce::Flattened,
        2 => Pounce::Disarmed,
        3 | 4 => Pounce::Staggered,
        _ => Pounce::Missed,
    }
}

/// Body points a flattened opponent loses.
pub const POUNCE_DAMAGE: i32 = 2;

/// Whether a thrown object or weapon lands on its target space: 1-3 at one
/// space, 1-2 at two or three, 1 at four or more.
pub fn throw_lands(range: u32, roll: u32) -> bool {
    let best = match range {
        0 | 1 => 3,
        2 | 3 => 2,
        _ => 1,
    };
    roll <= best
}

/// A throwing weapon's effective range: beyond it each space takes a
/// point off the damage.
pub fn weapon_range(weapon: &str) -> Option<u32> {
    match weapon.trim().to_ascii_lowercase().as_str() {
        "club" => Some(2),
        "dagger" | "hand axe" => Some(3),
        "rock" | "spear" => Some(4),
        _ => None,
    }
}

/// How much farther than its height a figure throws a weapon.
pub const WEAPON_REACH: u32 = 2;

/// The falling down table after its adjustments: 1-3 no change, 4-5 off
/// balance next turn, 6 or more a fall.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Footing {
    Steady,
    Unsteady,
    Fall,
}

pub fn footing(adjusted: u32) -> Footing {
    match adjusted {
        0..=3 => Footing::Steady,
        4 | 5 => Footing::Unsteady,
        _ => Footing::Fall,
    }
}

/// What the falling down roll adds for how the figure stands.
pub fn footing_bonus(position: Position) -> u32 {
    match position {
        Position::Standing => 0,
        Position::OffBalance => 1,
        Position::Down => 2,
    }
}

/// The recovery table's answer: new body points, or death.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "result", content = "body")]
pub enum Recovery {
    Body(i32),
    Dies,
}

/// The recovery table: current body points (0 to -4) against the adjusted
/// roll (read as 0 below zero and 8 above eight).
pub fn recovery(body: i32, adjusted: i32) -> Recovery {
    const D: i32 = i32::MIN;
    const TABLE: [[i32; 9]; 5] = [
        [6, 6, 4, 2, 0, 0, -1, -2, -3],
        [6, 4, 2, 0, -1, -1, -2, -3, -4],
        [4, 2, 0, -1, -2, -2, -3, -4, D],
        [2, 1, -1, -2, -3, -3, -4, D, D],
        [1, -1, -2, -3, -4, -4, D, D, D],
    ];
    let row = (-body).clamp(0, 4) as usize;
    let col = adjusted.clamp(0, 8) as usize;
    match TABLE[row][col] {
        D => Recovery::Dies,
        n => Recovery::Body(n),
    }
}

/// How many times its book's best regeneration a figure regains by
/// spending a movement phase on it.
pub const REGENERATION_TIMES: u32 = 3;

/// Magic point regeneration restores no more than this in a turn.
pub const SPELL_REGENERATION_MOST: u32 = 2;

/// Casting a spell in the movement phase, by the range to its target: the
/// spell points needed beyond those spent on the spell, and the highest
/// roll that works (higher fizzles).
pub fn spell_range(range: u32) -> (u32, u32) {
    match range {
        0..=2 => (0, 5),
        3 | 4 => (1, 4),
        5 | 6 => (2, 3),
        7 | 8 => (3, 2),
        _ => (4, 1),
    }
}

/// What slaying an unconscious figure adds to its recovery roll.
pub const SLAY_BONUS: u32 = 3;

/// The starting picture of a combat phase, by the situation table (the
/// first that applies, from the fighter's side).
pub fn situation(
    own: Position,
    foe_in_my_undefended: bool,
    me_in_foe_undefended: bool,
    foe: Position,
) -> u32 {
    if own != Position::Standing {
        1
    } else if foe_in_my_undefended {
        23
    } else if me_in_foe_undefended {
        21
    } else if foe == Position::Down {
        41
    } else if foe == Position::OffBalance {
        19
    } else {
        57
    }
}

/// Movement points an action of the chart costs.
pub mod cost {
    pub const MOVE: u32 = 1;
    pub const RECKLESS_JUMP: u32 = 1;
    pub const POUNCE: u32 = 1;
    /// The two spaces a jump over a space crosses.
    pub const JUMP_OVER: u32 = 2;
    pub const BLOCK: u32 = 2;
    pub const CRAWL: u32 = 2;
    pub const STAND_UP: u32 = 2;
    pub const REGAIN_BALANCE: u32 = 1;
    pub const PICK_UP: u32 = 1;
    pub const THROW: u32 = 2;
    pub const CARRY: u32 = 1;
    pub const EXAMINE: u32 = 2;
    pub const SHOVE_OBJECT: u32 = 1;
    pub const SHOVE: u32 = 2;
    /// Added to a shove to add one to the opponent's falling roll.
    pub const SHOVE_HARD: u32 = 2;
    /// Movement points running adds.
    pub const RUN_BONUS: u32 = 2;
}
