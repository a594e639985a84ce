//! LEGEND options, as given with `--option K=V`.
//!
//! - `first=<seat>`: the seat the oldest player chose to go first (default 0);
//!   turns then go clockwise, which is seat order.
//! - `voting=on|off`: other players may vote down explanations of Item use.
//! - `duels=on|off`: Avatars and Heroes sharing a square may duel.
//! - `abilities=on|off`: each seat picks an Ability when introduced.
//!
//! Values may be JSON strings, booleans or numbers.

use serde::Serialize;
use serde_json::Value;

use crate::option_read::{options_from_map, switch, TableOptions};
use tabletape_events::Seat;

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Options {
    pub first: Seat,
    pub voting: bool,
    pub duels: bool,
    pub abilities: bool,
}

impl TableOptions for Options {
    fn set(&mut self, key: &str, v: &Value) -> Result<bool, String> {
        match key {
            "first" => {
                let t = match v {
                    Value::String(s) => s.trim().to_string(),
                    other => other.to_string(),
                };
                self.first = t.parse().map_err(|_| {
                    format!(
                        "option `first`: `{t}` is not a seat number (0 is the first player named)"
                    )
                })?;
            }
            "voting" => self.voting = switch(key, v)?,
            "duels" => self.duels = switch(key, v)?,
            "abilities" => self.abilities = switch(key, v)?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

options_from_map!(Options, super::Legend);
