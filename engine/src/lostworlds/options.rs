//! Lost Worlds options, as given with `--option K=V`.
//!
//! - `books=full|record`: `full` (default) looks every page up in the pack's
//!   books; `record` trusts the table, whose exchanges carry what each fighter saw.
//! - `characters=nowa,brakka`: the character of each seat in order; `+` makes a
//!   party (`nowa+brakka,brakka`). `seat0=nowa`, `seat1=...` set one seat
//!   (the number in plain digits: `seat01` or `seat+1` is refused, since it
//!   would name a seat a second time).
//!   Unset seats play Nowa (seat 0) or the pack's sample opponent.
//! - `scenario=well-house`: the fight is played on a scenario's map (see
//!   the kind's docs); `obstructions=on` adds its optional restrictions.
//! - `controls=0,1,0`: on a scenario's map, the player seat that controls
//!   each figure, in the scenario's order, when a table has fewer players
//!   than figures. Each player controls at least one figure, and all of a
//!   player's figures fight on one side. Left out, each figure is a player.
//! - `exchange_limit=200`: after this many exchanges the fight is a draw, so
//!   every fight ends.
//!
//! Values may arrive as JSON strings or numbers ("200" and 200 alike).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::option_read::{options_from_map, whole, TableOptions};
use tabletape_events::Seat;

/// Where the pictures come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BooksMode {
    /// The engine looks pages up in the pack's books.
    #[default]
    Full,
    /// The table looks pages up in their physical books and reports what they saw.
    Record,
}

/// The default cap on exchanges before a fight is declared a draw.
pub const DEFAULT_EXCHANGE_LIMIT: u32 = 200;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Options {
    pub books: BooksMode,
    /// Character ids per seat that were named; a party has several.
    pub seats: BTreeMap<Seat, Vec<String>>,
    pub exchange_limit: u32,
    /// A miniatures scenario's id: the fight is played on its map.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    /// A scenario's optional obstruction restrictions on maneuvers.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub obstructions: bool,
    /// A scenario's figures by the player seat that controls each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub controls: Vec<Seat>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            books: BooksMode::Full,
            seats: BTreeMap::new(),
            exchange_limit: DEFAULT_EXCHANGE_LIMIT,
            scenario: None,
            obstructions: false,
            controls: Vec::new(),
        }
    }
}

/// A list option, as a JSON list or comma-separated text.
fn list(option: &str, v: &Value) -> Result<Vec<String>, String> {
    match v {
        Value::Array(a) => a.iter().map(|x| text(option, x)).collect(),
        other => Ok(text(option, other)?
            .split(',')
            .map(|s| s.trim().to_string())
            .collect()),
    }
}

fn text(option: &str, v: &Value) -> Result<String, String> {
    match v {
        Value::String(s) => Ok(s.trim().to_string()),
        Value::Number(n) => Ok(n.to_string()),
        other => Err(format!("option `{option}`: expected a string, not {other}")),
    }
}

fn party(option: &str, s: &str) -> Result<Vec<String>, String> {
    let ids: Vec<String> = s.split('+').map(|p| p.trim().to_string()).collect();
    if ids.iter().any(String::is_empty) {
        return Err(format!(
            "option `{option}`: `{s}` names an empty character (write ids joined by `+`)"
        ));
    }
    Ok(ids)
}

impl TableOptions for Options {
    fn set(&mut self, key: &str, v: &Value) -> Result<bool, String> {
        match key {
            "books" => {
                self.books = match text(key, v)?.to_ascii_lowercase().as_str() {
                    "full" => BooksMode::Full,
                    "record" => BooksMode::Record,
                    other => {
                        return Err(format!(
                            "option `books`: `{other}` is not one of full, record"
                        ))
                    }
                }
            }
            "characters" => {
                for (seat, s) in list(key, v)?.iter().enumerate() {
                    self.seats.entry(seat as Seat).or_insert(party(key, s)?);
                }
            }
            "controls" => {
                self.controls = list(key, v)?
                    .iter()
                    .map(|s| {
                        let plain = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
                        s.parse::<Seat>().ok().filter(|_| plain).ok_or_else(|| {
                            format!(
                                "option `controls`: `{s}` is not a seat number; give one for each figure, as in 0,1,0"
                            )
                        })
                    })
                    .collect::<Result<_, _>>()?;
            }
            "exchange_limit" => self.exchange_limit = whole(key, v, 1)?,
            "obstructions" => {
                self.obstructions = match v {
                    Value::Bool(b) => *b,
                    _ => match text(key, v)?.to_ascii_lowercase().as_str() {
                        "on" | "true" | "yes" => true,
                        "off" | "false" | "no" => false,
                        other => {
                            return Err(format!(
                                "option `obstructions`: `{other}` is not one of on, off"
                            ))
                        }
                    },
                }
            }
            "scenario" => {
                let id = text(key, v)?;
                if id.is_empty() {
                    return Err("option `scenario`: name a scenario by its id".into());
                }
                self.scenario = Some(id);
            }
            seat if seat.starts_with("seat") => {
                // Plain digits only: `seat01` or `seat+1` would name seat 1
                // a second time, and one of the two would silently win.
                let digits = &seat["seat".len()..];
                let plain = !digits.is_empty()
                    && digits.bytes().all(|b| b.is_ascii_digit())
                    && (digits == "0" || !digits.starts_with('0'));
                let n: Seat = digits.parse().ok().filter(|_| plain).ok_or_else(|| {
                    format!("option `{seat}`: name a seat by number, as in seat0 or seat1")
                })?;
                // A seat named on its own wins over the `characters` list.
                self.seats.insert(n, party(key, &text(key, v)?)?);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

options_from_map!(Options, super::LostWorlds);
