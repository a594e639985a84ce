//! The LEGEND map: a 6x6 grid of Small Squares (columns a-f west to east,
//! rows 1-6 north to south) grouped into 3x3 Large Squares ("Reaches"), the
//! four Corners outside it, and the crossings where Obstacles sit. The pack
//! only names itself: the map is the same in every box.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::ContentError;

/// Small squares per side.
pub const SIDE: u8 = 6;

/// One Small Square, written `c4` (column, then row).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Sq {
    pub x: u8,
    pub y: u8,
}

impl Sq {
    pub fn new(x: u8, y: u8) -> Sq {
        Sq { x, y }
    }

    /// Reads exactly the written form: a lower-case column `a`-`f` and a
    /// row digit `1`-`6`, nothing before, between or after (no `A1`, `a01`,
    /// `a+1`, ` a1`, and no letter from outside ASCII).
    pub fn parse(s: &str) -> Option<Sq> {
        let &[col, row] = s.as_bytes() else {
            return None;
        };
        let x = col.checked_sub(b'a').filter(|x| *x < SIDE)?;
        let y = row.checked_sub(b'1').filter(|y| *y < SIDE)?;
        Some(Sq { x, y })
    }

    /// The Large Square (0..9, row by row from the north-west) holding this square.
    pub fn large(self) -> u8 {
        self.x / 2 + 3 * (self.y / 2)
    }

    /// King-move distance: diagonals count as one square.
    pub fn distance(self, other: Sq) -> u8 {
        self.x.abs_diff(other.x).max(self.y.abs_diff(other.y))
    }

    /// This square moved by (dx, dy), if still on the map.
    pub fn shifted(self, dx: i8, dy: i8) -> Option<Sq> {
        let x = self.x as i8 + dx;
        let y = self.y as i8 + dy;
        (0..SIDE as i8)
            .contains(&x)
            .then_some(())
            .filter(|_| (0..SIDE as i8).contains(&y))
            .map(|_| Sq::new(x as u8, y as u8))
    }

    pub fn neighbours(self) -> Vec<Sq> {
        let mut out = Vec::new();
        for dy in -1..=1 {
            for dx in -1..=1 {
                if (dx, dy) != (0, 0) {
                    out.extend(self.shifted(dx, dy));
                }
            }
        }
        out
    }

    pub fn all() -> Vec<Sq> {
        (0..SIDE)
            .flat_map(|y| (0..SIDE).map(move |x| Sq::new(x, y)))
            .collect()
    }
}

impl fmt::Display for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.x) as char, self.y + 1)
    }
}

impl From<Sq> for String {
    fn from(s: Sq) -> String {
        s.to_string()
    }
}

impl TryFrom<String> for Sq {
    type Error = String;
    fn try_from(s: String) -> Result<Sq, String> {
        Sq::parse(&s).ok_or_else(|| {
            format!("`{s}` is not a square of the map: write a column a-f and a row 1-6, as in c4 (a1 to f6)")
        })
    }
}

/// Where on the grid lines an Obstacle sits: a crossing of lines, written
/// `+c4` (the north-west corner of c4), or a stretch of line between two
/// crossings, a boundary: `-c4` runs along the north side of c4, `|c4`
/// along its west side. Column g and row 7 name the lines on the east and
/// south edges (`|g2` is the east side of f2, `-b7` the south side of b6).
/// The type keeps its first name, `Crossing`, since a crossing is what it
/// was before boundaries were read into the rules (rules 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Crossing {
    pub x: u8,
    pub y: u8,
    pub line: Line,
}

/// A crossing itself, or the boundary running from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Line {
    /// The crossing point (`+`).
    Point,
    /// The boundary east from the crossing: the north side of a square (`-`).
    North,
    /// The boundary south from the crossing: the west side of a square (`|`).
    West,
}

impl Crossing {
    pub fn point(x: u8, y: u8) -> Crossing {
        Crossing {
            x,
            y,
            line: Line::Point,
        }
    }

    /// Reads exactly the written form: `+`, `-` or `|`, a lower-case column
    /// and a row digit, nothing else (no `+C3`, `+c03`, ` +c3`).
    pub fn parse(s: &str) -> Option<Crossing> {
        let &[mark, col, row] = s.as_bytes() else {
            return None;
        };
        let line = match mark {
            b'+' => Line::Point,
            b'-' => Line::North,
            b'|' => Line::West,
            _ => return None,
        };
        let x = col.checked_sub(b'a')?;
        let y = row.checked_sub(b'1')?;
        let (max_x, max_y) = match line {
            Line::Point => (SIDE, SIDE),
            Line::North => (SIDE - 1, SIDE),
            Line::West => (SIDE, SIDE - 1),
        };
        (x <= max_x && y <= max_y).then_some(Crossing { x, y, line })
    }

    pub fn is_boundary(self) -> bool {
        self.line != Line::Point
    }

    /// The Small Squares this crossing or boundary touches (one to four).
    pub fn touches(self) -> Vec<Sq> {
        let offsets: &[(i8, i8)] = match self.line {
            Line::Point => &[(-1, -1), (0, -1), (-1, 0), (0, 0)],
            Line::North => &[(0, -1), (0, 0)],
            Line::West => &[(-1, 0), (0, 0)],
        };
        let mut out = Vec::new();
        for (dx, dy) in offsets {
            let x = self.x as i8 + dx;
            let y = self.y as i8 + dy;
            if (0..SIDE as i8).contains(&x) && (0..SIDE as i8).contains(&y) {
                out.push(Sq::new(x as u8, y as u8));
            }
        }
        out
    }

    /// The Large Squares this crossing touches.
    pub fn larges(self) -> Vec<u8> {
        let mut out: Vec<u8> = self.touches().iter().map(|s| s.large()).collect();
        out.sort();
        out.dedup();
        out
    }

    /// Every crossing, then (with `boundaries`) every boundary.
    pub fn all(boundaries: bool) -> Vec<Crossing> {
        let lines: &[Line] = if boundaries {
            &[Line::Point, Line::North, Line::West]
        } else {
            &[Line::Point]
        };
        let mut out = Vec::new();
        for &line in lines {
            for y in 0..=SIDE {
                for x in 0..=SIDE {
                    if let Some(c) = Crossing::parse(&Crossing { x, y, line }.to_string()) {
                        out.push(c);
                    }
                }
            }
        }
        out
    }

    /// In words: "the crossing +c3", "the boundary -c3 (north of c3)".
    pub fn describe(self) -> String {
        let sq = format!("{}{}", (b'a' + self.x) as char, self.y + 1);
        match self.line {
            Line::Point => format!("the crossing {self}"),
            Line::North if self.y == SIDE => {
                format!(
                    "the boundary {self} (south of {}{})",
                    (b'a' + self.x) as char,
                    self.y
                )
            }
            Line::North => format!("the boundary {self} (north of {sq})"),
            Line::West if self.x == SIDE => {
                format!(
                    "the boundary {self} (east of {}{})",
                    (b'a' + self.x - 1) as char,
                    self.y + 1
                )
            }
            Line::West => format!("the boundary {self} (west of {sq})"),
        }
    }
}

impl fmt::Display for Crossing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mark = match self.line {
            Line::Point => '+',
            Line::North => '-',
            Line::West => '|',
        };
        write!(f, "{mark}{}{}", (b'a' + self.x) as char, self.y + 1)
    }
}

impl From<Crossing> for String {
    fn from(c: Crossing) -> String {
        c.to_string()
    }
}

impl TryFrom<String> for Crossing {
    type Error = String;
    fn try_from(s: String) -> Result<Crossing, String> {
        Crossing::parse(&s).ok_or_else(|| {
            format!("`{s}` is not a place on the grid lines: write +c3 for a crossing (+a1 to +g7, the north-west corner of a square), -c3 for the boundary along the north of c3 (-a1 to -f7), |c3 for the one along its west (|a1 to |g6)")
        })
    }
}

/// The Large Squares' names, row by row from the north-west.
pub const REACHES: [&str; 9] = [
    "the Northwest Reach",
    "the Northern Reach",
    "the Northeast Reach",
    "the Western Reach",
    "the Heartland",
    "the Eastern Reach",
    "the Southwest Reach",
    "the Southern Reach",
    "the Southeast Reach",
];

pub fn reach(large: u8) -> &'static str {
    REACHES[large as usize]
}

/// The Corners, clockwise from the north-west.
pub const CORNERS: [&str; 4] = [
    "the north-west Corner",
    "the north-east Corner",
    "the south-east Corner",
    "the south-west Corner",
];

/// The Small Square a piece enters from (and exits to) a Corner.
pub fn corner_square(corner: u8) -> Sq {
    match corner {
        0 => Sq::new(0, 0),
        1 => Sq::new(SIDE - 1, 0),
        2 => Sq::new(SIDE - 1, SIDE - 1),
        _ => Sq::new(0, SIDE - 1),
    }
}

/// The Large Square beside a Corner: its owner's starting Large Square.
pub fn corner_large(corner: u8) -> u8 {
    corner_square(corner).large()
}

/// A LEGEND content pack: the box's name and version. Every object is a
/// found object described in play, so the pack holds nothing else.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pack {
    pub pack: String,
    pub version: u32,
}

pub fn validate(pack: &Pack, file: &str) -> Result<(), ContentError> {
    if pack.pack.trim().is_empty() {
        return Err(ContentError {
            file: file.to_string(),
            path: "pack".into(),
            message: "a pack needs a name".into(),
        });
    }
    Ok(())
}
