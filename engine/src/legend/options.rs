//! LEGEND options, as given with `--option K=V`.
//!
//! - `first=<seat>`: the seat the oldest player chose to go first (default 0);
//!   turns then go clockwise, which is seat order.
//! - `voting=on|off`: other players may vote down explanations of Item use.
//! - `duels=on|off`: Avatars and Heroes sharing a square may duel.
//! - `abilities=on|off`: each seat picks an Ability when introduced.
//!
//! Values may be JSON strings, booleans or numbers.

use std::collections::BTreeMap;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::option_read::switch;
use tabletape_events::Seat;

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Options {
    pub first: Seat,
    pub voting: bool,
    pub duels: bool,
    pub abilities: bool,
}

impl Options {
    pub fn from_map(map: &BTreeMap<String, Value>) -> Result<Options, String> {
        let mut o = Options::default();
        for (key, v) in map {
            match key.as_str() {
                "first" => {
                    let t = match v {
                        Value::String(s) => s.trim().to_string(),
                        other => other.to_string(),
                    };
                    o.first = t.parse().map_err(|_| {
                        format!("option `first`: `{t}` is not a seat number (0 is the first player named)")
                    })?;
                }
                "voting" => o.voting = switch(key, v)?,
                "duels" => o.duels = switch(key, v)?,
                "abilities" => o.abilities = switch(key, v)?,
                other => {
                    return Err(format!(
                        "unknown option `{other}`; LEGEND knows first, voting, duels, abilities"
                    ))
                }
            }
        }
        Ok(o)
    }
}

impl<'de> Deserialize<'de> for Options {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = BTreeMap::<String, Value>::deserialize(d)?;
        Options::from_map(&map).map_err(D::Error::custom)
    }
}
