//! The Tothil Fields grid: street squares (some with a Street Event
//! symbol), locations covering blocks of squares, and ground no one walks on.
//!
//! A square is written column letter then row number, from the north-west
//! corner: `a1`, `c3`, `k11`. A location is written by its id (`theatre`).
//! Steps are orthogonal. A location is one place however many squares it
//! covers: it is entered from any street square beside it (which ends the
//! move), and left onto any street square beside it.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::content::{BoardPlan, Location};

/// A square of the grid, `row` and `col` from 0 at the north-west corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square {
    pub row: u32,
    pub col: u32,
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let col = char::from(b'a' + self.col as u8);
        write!(f, "{col}{}", self.row + 1)
    }
}

impl FromStr for Square {
    type Err = String;
    fn from_str(s: &str) -> Result<Square, String> {
        let bad = || format!("`{s}` is not a square (a column letter and a row number, like `c3`)");
        let mut chars = s.chars();
        let col = chars.next().ok_or_else(bad)?;
        let digits = chars.as_str();
        if !col.is_ascii_lowercase()
            || digits.is_empty()
            || digits.len() > 2
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || digits.starts_with('0')
        {
            return Err(bad());
        }
        let row: u32 = digits.parse().map_err(|_| bad())?;
        Ok(Square {
            row: row - 1,
            col: u32::from(col as u8 - b'a'),
        })
    }
}

/// Where a Londoner stands: a street square or a location.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Place {
    Square(Square),
    Location(String),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Square(s) => s.fmt(f),
            Place::Location(l) => f.write_str(l),
        }
    }
}

impl FromStr for Place {
    type Err = String;
    /// A square when it reads as one, else a location id (checked against
    /// the board where it is used).
    fn from_str(s: &str) -> Result<Place, String> {
        if let Ok(sq) = s.parse::<Square>() {
            return Ok(Place::Square(sq));
        }
        let id_like = !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if id_like {
            Ok(Place::Location(s.to_string()))
        } else {
            Err(format!(
                "`{s}` is neither a square (like `c3`) nor a location id (like `theatre`)"
            ))
        }
    }
}

impl Serialize for Place {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Place {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Place, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// What a square of the grid is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cell {
    /// A street square; `event` when it bears a Street Event symbol.
    Street { event: bool },
    /// Part of a location.
    Location(String),
    /// Ground no one walks on.
    Blocked,
}

/// The grid read from a [`BoardPlan`].
#[derive(Debug, Clone)]
pub struct Board {
    rows: u32,
    cols: u32,
    cells: Vec<Cell>,
}

impl Board {
    /// Reads a plan; an error names the field at fault.
    pub fn read(plan: &BoardPlan, locations: &[Location]) -> Result<Board, (String, String)> {
        let rows = plan.rows.len() as u32;
        let cols = plan.rows.first().map_or(0, |r| r.chars().count()) as u32;
        if !(2..=26).contains(&rows) || !(2..=26).contains(&cols) {
            return Err((
                "board.rows".into(),
                "a board is 2 to 26 squares each way".into(),
            ));
        }
        let mut key = BTreeMap::new();
        for (letter, id) in &plan.key {
            let mut chars = letter.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                return Err((format!("board.key.{letter}"), "a key is one letter".into()));
            };
            if !c.is_ascii_uppercase() {
                return Err((
                    format!("board.key.{letter}"),
                    "a key is one capital letter".into(),
                ));
            }
            if !locations.iter().any(|l| &l.id == id) {
                return Err((format!("board.key.{letter}"), format!("no location `{id}`")));
            }
            key.insert(c, id.clone());
        }
        let mut cells = Vec::with_capacity((rows * cols) as usize);
        for (r, line) in plan.rows.iter().enumerate() {
            if line.chars().count() as u32 != cols {
                return Err((
                    format!("board.rows[{r}]"),
                    format!("every row is {cols} squares long"),
                ));
            }
            for ch in line.chars() {
                cells.push(match ch {
                    '.' => Cell::Street { event: false },
                    '*' => Cell::Street { event: true },
                    '#' => Cell::Blocked,
                    c => match key.get(&c) {
                        Some(id) => Cell::Location(id.clone()),
                        None => {
                            return Err((
                                format!("board.rows[{r}]"),
                                format!("`{c}` is not in the key (or `.`, `*`, `#`)"),
                            ))
                        }
                    },
                });
            }
        }
        for l in locations {
            if l.id.parse::<Square>().is_ok() {
                return Err((
                    "locations".into(),
                    format!("location id `{}` reads as a square", l.id),
                ));
            }
        }
        Ok(Board { rows, cols, cells })
    }

    pub fn cell(&self, sq: Square) -> Option<&Cell> {
        (sq.row < self.rows && sq.col < self.cols)
            .then(|| &self.cells[(sq.row * self.cols + sq.col) as usize])
    }

    pub fn rows(&self) -> u32 {
        self.rows
    }

    pub fn cols(&self) -> u32 {
        self.cols
    }

    /// The squares a location covers, north-west first.
    pub fn cells_of(&self, location: &str) -> Vec<Square> {
        self.squares()
            .filter(|&sq| matches!(self.cell(sq), Some(Cell::Location(l)) if l == location))
            .collect()
    }

    fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.rows).flat_map(move |row| (0..self.cols).map(move |col| Square { row, col }))
    }

    fn orthogonal(&self, sq: Square) -> impl Iterator<Item = Square> + '_ {
        let (r, c) = (sq.row as i64, sq.col as i64);
        [(r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)]
            .into_iter()
            .filter(|&(r, c)| r >= 0 && c >= 0 && r < self.rows as i64 && c < self.cols as i64)
            .map(|(r, c)| Square {
                row: r as u32,
                col: c as u32,
            })
    }

    /// Whether `place` names a square or a location on this board.
    pub fn exists(&self, place: &Place) -> bool {
        match place {
            Place::Square(sq) => matches!(self.cell(*sq), Some(Cell::Street { .. })),
            Place::Location(l) => !self.cells_of(l).is_empty(),
        }
    }

    /// Where one step from `from` can go, in a fixed order: street squares
    /// and the locations beside them (a location is left onto a street).
    pub fn steps(&self, from: &Place) -> Vec<Place> {
        let mut out: Vec<Place> = Vec::new();
        let mut add = |p: Place| {
            if !out.contains(&p) {
                out.push(p);
            }
        };
        match from {
            Place::Square(sq) => {
                for n in self.orthogonal(*sq) {
                    match self.cell(n) {
                        Some(Cell::Street { .. }) => add(Place::Square(n)),
                        Some(Cell::Location(l)) => add(Place::Location(l.clone())),
                        _ => {}
                    }
                }
            }
            Place::Location(l) => {
                for sq in self.cells_of(l) {
                    for n in self.orthogonal(sq) {
                        if let Some(Cell::Street { .. }) = self.cell(n) {
                            add(Place::Square(n));
                        }
                    }
                }
            }
        }
        out
    }

    /// Whether stepping onto `place` crosses a Street Event symbol.
    pub fn has_event(&self, place: &Place) -> bool {
        matches!(place, Place::Square(sq) if self.cell(*sq) == Some(&Cell::Street { event: true }))
    }

    /// The ways (without the start) from `from` to every place reachable in
    /// at most `steps` steps, in the order first reached: for each place,
    /// the shortest path for each number of Street Event symbols a way
    /// there can cross, since a player picks a way by the cards it draws as
    /// much as by where it ends. A path ends at the first location it enters.
    pub fn reachable(&self, from: &Place, steps: u32) -> Vec<(Place, Vec<Place>)> {
        // Each (place, symbols crossed) is reached first by its shortest path.
        let mut seen: BTreeSet<(Place, usize)> = BTreeSet::from([(from.clone(), 0)]);
        let mut out: Vec<(Place, Vec<Place>)> = Vec::new();
        let mut queue: VecDeque<(Place, Vec<Place>, usize)> = VecDeque::new();
        queue.push_back((from.clone(), Vec::new(), 0));
        while let Some((at, path, crossed)) = queue.pop_front() {
            if path.len() as u32 == steps {
                continue;
            }
            // A location entered ends the move; the start may be one.
            if !path.is_empty() && matches!(at, Place::Location(_)) {
                continue;
            }
            for next in self.steps(&at) {
                // A symbol counts once a move, however often it is crossed.
                let new_symbol = self.has_event(&next) && !path.contains(&next);
                let crossed = crossed + usize::from(new_symbol);
                if next == *from || !seen.insert((next.clone(), crossed)) {
                    continue;
                }
                let mut p = path.clone();
                p.push(next.clone());
                out.push((next.clone(), p.clone()));
                queue.push_back((next, p, crossed));
            }
        }
        out
    }
}
