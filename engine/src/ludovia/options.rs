//! Ludovia options, as given with `--option K=V`.
//!
//! - `layout=lair,mint,...`: the block pieces as the table laid them out, row
//!   by row from the north-west (9 for 3-4 players, 12 for 5-6). Required with
//!   physical dice (the engine cannot see the table); with digital dice the
//!   board is shuffled from the seed and this option is refused. A piece
//!   lying turned is written with its clockwise turn: `mint@90`, `@180`,
//!   `@270` (rules 2). Ids are read in any letter case.
//! - `offer=Mask,Whistle,Bolas`: the first three equipment cards the table
//!   turned up. Required with physical dice, refused with digital dice.
//! - `round_limit=100`: a safeguard so every game ends: after this many rounds
//!   the game ends as if the rooftops had run out.
//!
//! Values may arrive as JSON strings, numbers or lists.

use serde::Serialize;
use serde_json::Value;

use crate::option_read::{names, options_from_map, whole, TableOptions};

/// The default number of rounds after which a game is called.
pub const DEFAULT_ROUND_LIMIT: u32 = 100;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Options {
    pub layout: Option<Vec<String>>,
    pub offer: Option<Vec<String>>,
    pub round_limit: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            layout: None,
            offer: None,
            round_limit: DEFAULT_ROUND_LIMIT,
        }
    }
}

impl TableOptions for Options {
    fn set(&mut self, key: &str, v: &Value) -> Result<bool, String> {
        match key {
            "layout" => self.layout = Some(names(key, v)?),
            "offer" => self.offer = Some(names(key, v)?),
            "round_limit" => self.round_limit = whole(key, v, 1)?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

options_from_map!(Options, super::Ludovia);
