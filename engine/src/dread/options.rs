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
//! - `record=on`: record mode, with physical dice only, for a table playing
//!   its own box: of the pack only the dice are used. The table gives:
//!   - `story=NAME`, the story's name as the box prints it;
//!   - `plots=N` or `plots=N,M`: how many Plot cards each chapter has (4 to
//!     6; one number for a one-chapter story);
//!   - `characters=A,B` and `sheets=[...]`, each character's sheet in the
//!     same order as JSON: `{"icons": ["strength", "lore"], "virtue":
//!     {...effect}, "story": "..."}`;
//!   - `antagonist={"name": "...", "text": "...", "extra_successes": 1,
//!     "endgame_wild": "spirit"}`: the Antagonist face up from the start,
//!     with the story's rules Tabletape keeps (more fists at the Showdown,
//!     an icon Wild at the challenges); `text` is told as written.
//!
//!   Every other card is typed the first time it comes into play, in place
//!   of its name (see `actions::Drawn`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::content::{Icon, Sheet};
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
    pub record: bool,
    pub plots: Vec<usize>,
    pub sheets: Vec<Sheet>,
    pub antagonist: Option<TableAntagonist>,
}

/// The Antagonist as a table in record mode types it (option `antagonist`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableAntagonist {
    pub name: String,
    /// Its rules, told as written.
    #[serde(default)]
    pub text: String,
    /// Fists the Final Showdown needs beyond the dread's.
    #[serde(default)]
    pub extra_successes: u32,
    /// The icon that counts as Wild at the Endgame Challenges, if the
    /// story says one does.
    #[serde(default)]
    pub endgame_wild: Option<Icon>,
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
            record: false,
            plots: Vec::new(),
            sheets: Vec::new(),
            antagonist: None,
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

/// A JSON value given as itself (the API) or as its text (`--option`).
fn json<T: serde::de::DeserializeOwned>(option: &str, v: &Value, shape: &str) -> Result<T, String> {
    let parsed: Value = match v {
        Value::String(text) => serde_json::from_str(text)
            .map_err(|e| format!("option `{option}`: not JSON ({e}); expected {shape}"))?,
        other => other.clone(),
    };
    serde_path_to_error::deserialize(parsed).map_err(|e| {
        let at = e.path().to_string();
        let at = if at == "." {
            String::new()
        } else {
            format!(" at {at}")
        };
        format!(
            "option `{option}`{at}: {}; expected {shape}",
            e.into_inner()
        )
    })
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
            "record" => self.record = switch(key, v)?,
            "plots" => {
                let counts: Vec<usize> = match v {
                    Value::Array(_) => json(key, v, "one or two counts")?,
                    other => names(key, other)?
                        .iter()
                        .map(|n| whole(key, &Value::String(n.clone()), 1).map(|n| n as usize))
                        .collect::<Result<_, _>>()?,
                };
                if counts.is_empty() || counts.len() > 2 {
                    return Err("option `plots`: a story has one or two chapters: give one count per chapter".into());
                }
                if let Some(n) = counts
                    .iter()
                    .find(|&&n| !(4..=super::content::PLACEHOLDERS).contains(&n))
                {
                    return Err(format!("option `plots`: {n}: a chapter has 4 to {} Plot cards (one per area at least, one per placeholder at most)", super::content::PLACEHOLDERS));
                }
                self.plots = counts;
            }
            "sheets" => {
                self.sheets = json(
                    key,
                    v,
                    r#"a list of sheets, one per character: {"icons": [two primary icons], "virtue": {effect}, "story": "..."}"#,
                )?
            }
            "antagonist" => {
                self.antagonist = Some(json(
                    key,
                    v,
                    r#"{"name": "...", "text": "...", "extra_successes": N, "endgame_wild": "icon"}"#,
                )?)
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

options_from_map!(Options, super::Dread);
