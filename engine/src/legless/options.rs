//! Legless in London options, as given with `--option K=V`.
//!
//! - `banker=0`: the seat that manages the money; the seat after it starts.
//! - `characters=Name,Name`: the character cards as the table dealt them,
//!   one per seat in seat order. Required with physical dice; with digital
//!   dice they are dealt from the seed unless given.
//! - `locations=cottage-1,slums-2,...`: the location card chosen from each
//!   pair, by card id. Required with physical dice; with digital dice one of
//!   each pair is chosen from the seed unless given.
//! - `record=on`: record mode, with physical dice only, for a table using
//!   its own box: of the content pack only the board is used. Each player
//!   types their character card (`draw_character` with `card`), the first
//!   action at a location types that location's card (`card`), a leg is
//!   typed when bought, street events and Risk Booklet stories when read.
//! - `sickroom_fee=N`: record mode: the fee on the table's Sickroom card
//!   (needed before anyone can fall sick, so it is given at the start).
//! - `round_limit=100`: a safeguard so every game ends (not in the rules):
//!   after this many rounds the game is called for whoever placed most
//!   victory tokens.
//!
//! Values may arrive as JSON strings, numbers or lists.

use serde::Serialize;
use serde_json::Value;
use tabletape_events::Seat;

use crate::option_read::{names, options_from_map, switch, whole, TableOptions};

pub const DEFAULT_ROUND_LIMIT: u32 = 100;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Options {
    pub banker: Seat,
    pub characters: Option<Vec<String>>,
    pub locations: Option<Vec<String>>,
    pub record: bool,
    pub sickroom_fee: Option<u32>,
    pub round_limit: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            banker: 0,
            characters: None,
            locations: None,
            record: false,
            sickroom_fee: None,
            round_limit: DEFAULT_ROUND_LIMIT,
        }
    }
}

impl TableOptions for Options {
    fn set(&mut self, key: &str, v: &Value) -> Result<bool, String> {
        match key {
            "banker" => {
                self.banker = Seat::try_from(whole(key, v, 0)?)
                    .map_err(|_| "option `banker`: not a seat".to_string())?
            }
            "characters" => self.characters = Some(names(key, v)?),
            "locations" => self.locations = Some(names(key, v)?),
            "record" => self.record = switch(key, v)?,
            "sickroom_fee" => self.sickroom_fee = Some(whole(key, v, 0)?),
            "round_limit" => self.round_limit = whole(key, v, 1)?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

options_from_map!(Options, super::Legless);
