//! London Dread options, as given with `--option K=V`.
//!
//! - `story=NAME`: the story played (default: the pack's first, the
//!   introductory one).
//! - `difficulty=normal|hard|dread`: the planning phase lasts 12, 10 or 8
//!   minutes.
//! - `timer=on|off`: `on` (default), Tabletape keeps the planning time and
//!   refuses planning after the deadline; `off`, the table keeps its own
//!   time and ends planning itself (the final clocks may then be entered in
//!   one action each).
//! - `characters=A,B,..`: the characters, one per seat (four with
//!   `variant=pairs`); dealt from the seed when not given (digital dice).
//! - `variant=allies|pairs`: with two or three players, Allies on the
//!   board (default) or four characters, some seats playing two.
//! - The difficulty tweaks: `impeccable=off` (no reward for extra
//!   successes at Plot cards), `confidence=0|3|5` (Confidence cards in the
//!   Investigation deck at the start), `virtues=0|1|2` and `items=0|1|2`
//!   (each character's at the start).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::option_read::{names, options_from_map, switch, whole, TableOptions};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Difficulty {
    Normal,
    Hard,
    Dread,
}

impl Difficulty {
    /// Minutes of planning.
    pub fn minutes(self) -> u64 {
        match self {
            Difficulty::Normal => 12,
            Difficulty::Hard => 10,
            Difficulty::Dread => 8,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    Allies,
    Pairs,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Options {
    pub story: Option<String>,
    pub difficulty: Difficulty,
    pub timer: bool,
    pub characters: Option<Vec<String>>,
    pub variant: Variant,
    pub impeccable: bool,
    pub confidence: u32,
    pub virtues: u32,
    pub items: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            story: None,
            difficulty: Difficulty::Normal,
            timer: true,
            characters: None,
            variant: Variant::Allies,
            impeccable: true,
            confidence: 3,
            virtues: 1,
            items: 1,
        }
    }
}

fn one_of(option: &str, v: &Value, allowed: &[u32]) -> Result<u32, String> {
    let n = whole(option, v, 0)?;
    if allowed.contains(&n) {
        Ok(n)
    } else {
        let list: Vec<String> = allowed.iter().map(u32::to_string).collect();
        Err(format!(
            "option `{option}`: {n} is not one of {}",
            list.join(", ")
        ))
    }
}

fn word(option: &str, v: &Value) -> Result<String, String> {
    match v {
        Value::String(s) => Ok(s.trim().to_ascii_lowercase()),
        other => Err(format!("option `{option}`: expected a word, not {other}")),
    }
}

impl TableOptions for Options {
    fn set(&mut self, key: &str, v: &Value) -> Result<bool, String> {
        match key {
            "story" => match v {
                Value::String(s) if !s.trim().is_empty() => self.story = Some(s.trim().to_string()),
                _ => return Err("option `story`: expected a story's name".into()),
            },
            "difficulty" => {
                self.difficulty = match word(key, v)?.as_str() {
                    "normal" => Difficulty::Normal,
                    "hard" => Difficulty::Hard,
                    "dread" => Difficulty::Dread,
                    other => {
                        return Err(format!(
                            "option `difficulty`: `{other}` is not normal, hard or dread"
                        ))
                    }
                }
            }
            "timer" => self.timer = switch(key, v)?,
            "characters" => self.characters = Some(names(key, v)?),
            "variant" => {
                self.variant = match word(key, v)?.as_str() {
                    "allies" => Variant::Allies,
                    "pairs" => Variant::Pairs,
                    other => {
                        return Err(format!(
                            "option `variant`: `{other}` is not allies or pairs"
                        ))
                    }
                }
            }
            "impeccable" => self.impeccable = switch(key, v)?,
            "confidence" => self.confidence = one_of(key, v, &[0, 3, 5])?,
            "virtues" => self.virtues = one_of(key, v, &[0, 1, 2])?,
            "items" => self.items = one_of(key, v, &[0, 1, 2])?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

options_from_map!(Options, super::Dread);
