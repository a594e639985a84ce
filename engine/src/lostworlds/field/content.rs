//! Lost Worlds scenarios: the miniatures rules' terrain around the book
//! duels (issue P10; this is its content, read and checked; play comes
//! next). A scenario is a map of hexagonal spaces with levels and terrain,
//! the movable objects on it, the sides with their characters' starting
//! spaces, and the victory conditions with the points they are worth.
//!
//! Readings:
//! - **Hexes.** The rule text numbers "the spaces adjacent to the target
//!   space" for one die roll, so a space has six neighbours: the map is a
//!   hex grid in rows, each odd row (2, 4, ...) set half a space to the
//!   right. A space is named by column letter and row number (`c3`). Its
//!   neighbours are numbered clockwise from the east: 1 east, 2 south-east,
//!   3 south-west, 4 west, 5 north-west, 6 north-east (for scatter rolls).
//! - **The map** is written row by row, one token a space: a level digit
//!   (`0`-`9`) for open ground, with `s` after it for a step (`2s`), or `W`
//!   for a wall and `P` for a pillar, which no one enters. Walls, steps and
//!   pillars are terrain (immovable); objects are what can be moved.
//! - **Objects** are the kinds the rule text's throwing table lists, with
//!   its weights and ranges (a table, a brazier and a mirror are tall), or
//!   a scenario's own kind with a weight, range and tallness given.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::error::ContentError;

/// The most rows and columns a map may have (26 column letters).
pub const MAP_MAX: usize = 26;
/// The highest terrain level.
pub const LEVEL_MAX: u8 = 9;

/// A space of the map: column and row from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Hex {
    pub col: u8,
    pub row: u8,
}

impl Hex {
    /// Reads `c3` (column letter, row number from 1), in any letter case.
    pub fn parse(text: &str) -> Option<Hex> {
        let text = text.trim();
        let mut chars = text.chars();
        let letter = chars.next()?.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty()
            || digits.starts_with('0')
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let row: u8 = digits.parse().ok()?;
        Some(Hex {
            col: letter as u8 - b'a',
            row: row - 1,
        })
    }

    /// The six neighbours, numbered 1 to 6 clockwise from the east, on a
    /// map of `cols` by `rows` (a neighbour off the map is `None`).
    pub fn neighbours(self, cols: usize, rows: usize) -> [Option<Hex>; 6] {
        let (c, r) = (i32::from(self.col), i32::from(self.row));
        // Odd rows (2, 4, ... counted from 1) sit half a space to the right.
        let shift = r % 2;
        let steps = [
            (1, 0),
            (shift, 1),
            (shift - 1, 1),
            (-1, 0),
            (shift - 1, -1),
            (shift, -1),
        ];
        steps.map(|(dc, dr)| {
            let (nc, nr) = (c + dc, r + dr);
            (nc >= 0 && nr >= 0 && (nc as usize) < cols && (nr as usize) < rows).then_some(Hex {
                col: nc as u8,
                row: nr as u8,
            })
        })
    }

    pub fn adjacent(self, other: Hex, cols: usize, rows: usize) -> bool {
        self.neighbours(cols, rows).contains(&Some(other))
    }
}

impl std::fmt::Display for Hex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.col) as char,
            u32::from(self.row) + 1
        )
    }
}

/// What stands in a space of the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ground {
    Open { level: u8 },
    Step { level: u8 },
    Wall,
    Pillar,
}

impl Ground {
    fn read(token: &str) -> Option<Ground> {
        match token {
            "W" => Some(Ground::Wall),
            "P" => Some(Ground::Pillar),
            _ => {
                let (digits, step) = match token.strip_suffix('s') {
                    Some(d) => (d, true),
                    None => (token, false),
                };
                let level: u8 = match digits.as_bytes() {
                    [d] if d.is_ascii_digit() => d - b'0',
                    _ => return None,
                };
                Some(if step {
                    Ground::Step { level }
                } else {
                    Ground::Open { level }
                })
            }
        }
    }

    /// The level a figure stands at here; none for what no one enters.
    pub fn level(self) -> Option<u8> {
        match self {
            Ground::Open { level } | Ground::Step { level } => Some(level),
            Ground::Wall | Ground::Pillar => None,
        }
    }
}

/// A kind of movable object: its weight (the damage it does when it lands
/// on someone, and the height needed to pick it up), how far it can be
/// thrown, and whether it is tall (an obstruction to side swings).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObjectKind {
    pub weight: u8,
    pub range: u8,
    #[serde(default)]
    pub tall: bool,
}

/// The throwing table of the rule text: weight and maximum range.
pub fn standard_objects() -> BTreeMap<String, ObjectKind> {
    [
        ("table", 5, 2, true),
        ("brazier", 5, 2, true),
        ("mirror", 4, 3, true),
        ("chest", 4, 3, false),
        ("barrel", 3, 4, false),
        ("sack", 2, 4, false),
        // A weapon that is not made for throwing (or a thrown one lying
        // where it landed).
        ("weapon", 0, 5, false),
    ]
    .into_iter()
    .map(|(name, weight, range, tall)| {
        (
            name.to_string(),
            ObjectKind {
                weight,
                range,
                tall,
            },
        )
    })
    .collect()
}

impl ObjectKind {
    /// A figure's body, carried or thrown: it weighs its height and goes as
    /// far as the table's objects of that weight (seven less it, 1 at least).
    pub fn body(height: i32) -> ObjectKind {
        let weight = height.clamp(0, 6) as u8;
        ObjectKind {
            weight,
            range: 7u8.saturating_sub(weight).max(1),
            tall: false,
        }
    }
}

/// One object on the map at the start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placed {
    pub id: String,
    pub kind: String,
    pub at: String,
    /// What a figure examining it finds, in the scenario's words.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub found: String,
}

/// A character of a side and where it starts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Figure {
    /// A character sheet id of the pack.
    pub character: String,
    pub at: String,
}

/// What wins a scenario for a side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Goal {
    /// Every opposing character unconscious, dead or fled off the map.
    DefeatAll,
    /// One of the side's characters stands on one of these spaces at the
    /// end of a turn.
    Reach { spaces: Vec<String> },
    /// One of the side's characters carries this object onto one of these
    /// spaces.
    Carry { object: String, to: Vec<String> },
    /// No opposing goal is met by the end of the turn limit.
    Hold,
}

/// A side of the scenario: its characters and what it plays for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Side {
    pub name: String,
    pub figures: Vec<Figure>,
    pub goal: Goal,
    /// Victory points the side shares among its survivors when it wins.
    pub points: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scenario {
    pub id: String,
    pub title: String,
    /// The setting, in the scenario's own words.
    pub text: String,
    #[serde(default)]
    pub sample: bool,
    /// Row by row from the north, one token a space, separated by spaces.
    pub map: Vec<String>,
    /// A scenario's own object kinds besides the rule text's.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub object_kinds: BTreeMap<String, ObjectKind>,
    #[serde(default)]
    pub objects: Vec<Placed>,
    pub sides: Vec<Side>,
    /// Turns played at most; then a side that holds wins, else a draw.
    pub turn_limit: u32,
}

/// A scenario's map read into spaces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terrain {
    pub cols: usize,
    pub rows: usize,
    pub ground: Vec<Ground>,
}

impl Terrain {
    pub fn at(&self, h: Hex) -> Option<Ground> {
        let (c, r) = (usize::from(h.col), usize::from(h.row));
        (c < self.cols && r < self.rows).then(|| self.ground[r * self.cols + c])
    }
}

fn err(file: &str, path: impl Into<String>, message: impl Into<String>) -> ContentError {
    ContentError::new(file, path, message)
}

/// Reads a map: equal rows of known tokens, at most [`MAP_MAX`] each way.
pub fn terrain(s: &Scenario, file: &str, at: &str) -> Result<Terrain, ContentError> {
    let rows = s.map.len();
    if rows == 0 || rows > MAP_MAX {
        return Err(err(
            file,
            format!("{at}.map"),
            format!("a map has 1 to {MAP_MAX} rows"),
        ));
    }
    let mut cols = 0;
    let mut ground = Vec::new();
    for (r, line) in s.map.iter().enumerate() {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if r == 0 {
            cols = tokens.len();
            if cols == 0 || cols > MAP_MAX {
                return Err(err(
                    file,
                    format!("{at}.map[0]"),
                    format!("a row has 1 to {MAP_MAX} spaces"),
                ));
            }
        } else if tokens.len() != cols {
            return Err(err(
                file,
                format!("{at}.map[{r}]"),
                format!(
                    "row {} has {} spaces; the first has {cols}",
                    r + 1,
                    tokens.len()
                ),
            ));
        }
        for (c, token) in tokens.iter().enumerate() {
            let g = Ground::read(token).ok_or_else(|| {
                err(
                    file,
                    format!("{at}.map[{r}]"),
                    format!(
                        "space {} is `{token}`: a level 0-{LEVEL_MAX} (with `s` for a step), `W` a wall or `P` a pillar",
                        Hex { col: c as u8, row: r as u8 }
                    ),
                )
            })?;
            ground.push(g);
        }
    }
    Ok(Terrain { cols, rows, ground })
}

/// An open space of the map named at `path`.
fn open_space(t: &Terrain, name: &str, file: &str, path: String) -> Result<Hex, ContentError> {
    let h = Hex::parse(name)
        .filter(|h| t.at(*h).is_some())
        .ok_or_else(|| {
            err(
                file,
                path.clone(),
                format!(
                    "`{name}` is no space of this {}-column, {}-row map",
                    t.cols, t.rows
                ),
            )
        })?;
    if t.at(h).and_then(Ground::level).is_none() {
        return Err(err(
            file,
            path,
            format!("{h} is a wall or pillar: no one stands there"),
        ));
    }
    Ok(h)
}

/// Checks a scenario against the pack's character sheets (`characters`).
pub fn validate(
    s: &Scenario,
    characters: &BTreeSet<&str>,
    file: &str,
    at: &str,
) -> Result<(), ContentError> {
    for (field, v) in [("id", &s.id), ("title", &s.title), ("text", &s.text)] {
        if v.trim().is_empty() {
            return Err(err(
                file,
                format!("{at}.{field}"),
                format!("a scenario needs its {field}"),
            ));
        }
    }
    let t = terrain(s, file, at)?;
    let mut kinds = standard_objects();
    for (name, k) in &s.object_kinds {
        if k.weight == 0 || k.weight > LEVEL_MAX || k.range > 9 {
            return Err(err(
                file,
                format!("{at}.object_kinds.{name}"),
                "an object weighs 1 to 9 and is thrown 0 to 9 spaces",
            ));
        }
        kinds.insert(name.clone(), k.clone());
    }
    let mut ids = BTreeSet::new();
    for (i, o) in s.objects.iter().enumerate() {
        let path = format!("{at}.objects[{i}]");
        if o.id.trim().is_empty() || !ids.insert(o.id.as_str()) {
            return Err(err(
                file,
                format!("{path}.id"),
                "each object needs an id of its own",
            ));
        }
        if !kinds.contains_key(&o.kind) {
            return Err(err(
                file,
                format!("{path}.kind"),
                format!(
                    "no object kind `{}`: {}",
                    o.kind,
                    kinds.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            ));
        }
        open_space(&t, &o.at, file, format!("{path}.at"))?;
    }
    if s.sides.len() < 2 {
        return Err(err(
            file,
            format!("{at}.sides"),
            "a scenario has at least two sides",
        ));
    }
    if s.turn_limit == 0 || s.turn_limit > 200 {
        return Err(err(
            file,
            format!("{at}.turn_limit"),
            "a scenario lasts 1 to 200 turns",
        ));
    }
    let mut taken: BTreeMap<Hex, String> = BTreeMap::new();
    let mut holds = 0;
    for (i, side) in s.sides.iter().enumerate() {
        let path = format!("{at}.sides[{i}]");
        if side.name.trim().is_empty() || side.figures.is_empty() {
            return Err(err(
                file,
                path,
                "a side has a name and at least one character",
            ));
        }
        for (j, f) in side.figures.iter().enumerate() {
            let fpath = format!("{path}.figures[{j}]");
            if !characters.contains(f.character.as_str()) {
                return Err(err(
                    file,
                    format!("{fpath}.character"),
                    format!(
                        "no character sheet `{}` in the pack: {}",
                        f.character,
                        characters.iter().copied().collect::<Vec<_>>().join(", ")
                    ),
                ));
            }
            let h = open_space(&t, &f.at, file, format!("{fpath}.at"))?;
            if let Some(other) = taken.insert(h, fpath.clone()) {
                return Err(err(
                    file,
                    format!("{fpath}.at"),
                    format!("{h} is where {other} starts: one figure a space"),
                ));
            }
        }
        match &side.goal {
            Goal::Reach { spaces } | Goal::Carry { to: spaces, .. } if spaces.is_empty() => {
                return Err(err(
                    file,
                    format!("{path}.goal"),
                    "name the spaces to reach",
                ));
            }
            Goal::Reach { spaces } | Goal::Carry { to: spaces, .. } => {
                for (k, sp) in spaces.iter().enumerate() {
                    open_space(&t, sp, file, format!("{path}.goal.spaces[{k}]"))?;
                }
            }
            Goal::Hold => holds += 1,
            Goal::DefeatAll => {}
        }
        if let Goal::Carry { object, .. } = &side.goal {
            if !ids.contains(object.as_str()) {
                return Err(err(
                    file,
                    format!("{path}.goal.object"),
                    format!("no object `{object}` on the map"),
                ));
            }
        }
    }
    if holds == s.sides.len() {
        return Err(err(
            file,
            format!("{at}.sides"),
            "some side must play for more than holding",
        ));
    }
    Ok(())
}

/// The sample scenarios, our own.
pub const SAMPLES: [&str; 2] = [
    include_str!("../../../content/lostworlds/scenarios/well-house.json"),
    include_str!("../../../content/lostworlds/scenarios/stair-tower.json"),
];
