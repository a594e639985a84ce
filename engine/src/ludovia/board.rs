//! The geometry of the Ludovia board: lamp posts, streets, block spaces, and
//! how they touch.
//!
//! Blocks lie in a grid of `rows` x `cols`. Lamp posts sit on the corners of
//! that grid, `(rows+1) x (cols+1)` of them (edge and corner posts gather
//! fewer pieces, as the rules allow). A street is one side of a block: the
//! stretch between two neighbouring lamp posts, horizontal (`h<r>.<c>`: on
//! post row `r`, between posts `c` and `c+1`) or vertical (`v<r>.<c>`: on post
//! column `c`, between post rows `r` and `r+1`). Each block's middle section
//! is 3x3 spaces; block spaces are named on the whole board's fine grid,
//! `s<row>.<col>` with row `0..3*rows`, col `0..3*cols`. Lamp posts are
//! `p<r>.<c>`. The Lair and the Prison are single spaces (`lair`, `prison`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Where a policeman faces. North is the first layout row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Facing {
    North,
    East,
    South,
    West,
}

impl Facing {
    pub const ALL: [Facing; 4] = [Facing::North, Facing::East, Facing::South, Facing::West];

    pub fn left(self) -> Facing {
        match self {
            Facing::North => Facing::West,
            Facing::West => Facing::South,
            Facing::South => Facing::East,
            Facing::East => Facing::North,
        }
    }

    pub fn right(self) -> Facing {
        self.left().left().left()
    }

    pub fn about(self) -> Facing {
        self.left().left()
    }

    pub fn word(self) -> &'static str {
        match self {
            Facing::North => "north",
            Facing::East => "east",
            Facing::South => "south",
            Facing::West => "west",
        }
    }

    /// The arrow the rendered board draws.
    pub fn arrow(self) -> char {
        match self {
            Facing::North => '^',
            Facing::East => '>',
            Facing::South => 'v',
            Facing::West => '<',
        }
    }
}

/// A lamp post, at a corner of the block grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Post {
    pub r: u32,
    pub c: u32,
}

/// A street: one side of a block, between two lamp posts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Street {
    /// On post row `r`, from post `(r, c)` east to `(r, c+1)`.
    H { r: u32, c: u32 },
    /// On post column `c`, from post `(r, c)` south to `(r+1, c)`.
    V { r: u32, c: u32 },
}

/// A space a thief may stand on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Space {
    Lair,
    Prison,
    Street(Street),
    /// A rooftop or alley, on the board's fine grid.
    Cell {
        row: u32,
        col: u32,
    },
}

/// The size of the block grid: every adjacency question is answered here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grid {
    pub rows: u32,
    pub cols: u32,
}

impl Grid {
    pub fn posts(self) -> Vec<Post> {
        let mut out = Vec::new();
        for r in 0..=self.rows {
            for c in 0..=self.cols {
                out.push(Post { r, c });
            }
        }
        out
    }

    pub fn streets(self) -> Vec<Street> {
        let mut out = Vec::new();
        for r in 0..=self.rows {
            for c in 0..self.cols {
                out.push(Street::H { r, c });
            }
        }
        for r in 0..self.rows {
            for c in 0..=self.cols {
                out.push(Street::V { r, c });
            }
        }
        out
    }

    pub fn has_post(self, p: Post) -> bool {
        p.r <= self.rows && p.c <= self.cols
    }

    pub fn has_street(self, s: Street) -> bool {
        match s {
            Street::H { r, c } => r <= self.rows && c < self.cols,
            Street::V { r, c } => r < self.rows && c <= self.cols,
        }
    }

    /// The street leaving `p` towards `facing`, if the board goes on that way.
    pub fn street_from(self, p: Post, facing: Facing) -> Option<Street> {
        let s = match facing {
            Facing::North => Street::V {
                r: p.r.checked_sub(1)?,
                c: p.c,
            },
            Facing::South => Street::V { r: p.r, c: p.c },
            Facing::East => Street::H { r: p.r, c: p.c },
            Facing::West => Street::H {
                r: p.r,
                c: p.c.checked_sub(1)?,
            },
        };
        self.has_street(s).then_some(s)
    }

    /// The next lamp post from `p` towards `facing`.
    pub fn post_towards(self, p: Post, facing: Facing) -> Option<Post> {
        self.street_from(p, facing)?;
        Some(match facing {
            Facing::North => Post { r: p.r - 1, c: p.c },
            Facing::South => Post { r: p.r + 1, c: p.c },
            Facing::East => Post { r: p.r, c: p.c + 1 },
            Facing::West => Post { r: p.r, c: p.c - 1 },
        })
    }

    /// Whether facing that way looks off the board (no street ahead).
    pub fn faces_edge(self, p: Post, facing: Facing) -> bool {
        self.street_from(p, facing).is_none()
    }

    /// Every street in a straight line ahead of a policeman, to the board's edge.
    pub fn watched(self, mut p: Post, facing: Facing) -> Vec<Street> {
        let mut out = Vec::new();
        while let Some(s) = self.street_from(p, facing) {
            out.push(s);
            p = self
                .post_towards(p, facing)
                .expect("a street leads to a post");
        }
        out
    }

    /// The two lamp posts at the ends of a street.
    pub fn ends(self, s: Street) -> [Post; 2] {
        match s {
            Street::H { r, c } => [Post { r, c }, Post { r, c: c + 1 }],
            Street::V { r, c } => [Post { r, c }, Post { r: r + 1, c }],
        }
    }

    /// The streets meeting at a lamp post.
    pub fn streets_at(self, p: Post) -> Vec<Street> {
        Facing::ALL
            .iter()
            .filter_map(|&f| self.street_from(p, f))
            .collect()
    }

    /// Streets one move from `s`, each with the lamp post passed on the way.
    pub fn street_moves(self, s: Street) -> Vec<(Street, Post)> {
        let mut out = Vec::new();
        for p in self.ends(s) {
            for t in self.streets_at(p) {
                if t != s {
                    out.push((t, p));
                }
            }
        }
        out
    }

    /// The blocks a street runs beside (one on the board's edge, else two).
    pub fn blocks_of(self, s: Street) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        match s {
            Street::H { r, c } => {
                if r > 0 {
                    out.push((r - 1, c));
                }
                if r < self.rows {
                    out.push((r, c));
                }
            }
            Street::V { r, c } => {
                if c > 0 {
                    out.push((r, c - 1));
                }
                if c < self.cols {
                    out.push((r, c));
                }
            }
        }
        out
    }

    /// The four streets around a block: north, east, south, west.
    pub fn block_streets(self, (r, c): (u32, u32)) -> [Street; 4] {
        [
            Street::H { r, c },
            Street::V { r, c: c + 1 },
            Street::H { r: r + 1, c },
            Street::V { r, c },
        ]
    }

    /// The streets a block space touches: those on the sides of the block
    /// its position in the 3x3 middle section borders.
    pub fn cell_streets(self, row: u32, col: u32) -> Vec<Street> {
        let [n, e, s, w] = self.block_streets((row / 3, col / 3));
        let (i, j) = (row % 3, col % 3);
        let mut out = Vec::new();
        if i == 0 {
            out.push(n);
        }
        if j == 2 {
            out.push(e);
        }
        if i == 2 {
            out.push(s);
        }
        if j == 0 {
            out.push(w);
        }
        out
    }

    /// The orthogonal neighbours of a block space inside its own block.
    pub fn cell_neighbours(self, row: u32, col: u32) -> Vec<(u32, u32)> {
        let (i, j) = (row % 3, col % 3);
        let mut out = Vec::new();
        if i > 0 {
            out.push((row - 1, col));
        }
        if j < 2 {
            out.push((row, col + 1));
        }
        if i < 2 {
            out.push((row + 1, col));
        }
        if j > 0 {
            out.push((row, col - 1));
        }
        out
    }

    /// The space straight across a street from a block-edge space, in the
    /// neighbouring block, with the street between them.
    pub fn across(self, row: u32, col: u32) -> Vec<((u32, u32), Street)> {
        let (i, j) = (row % 3, col % 3);
        let [n, e, s, w] = self.block_streets((row / 3, col / 3));
        let mut out = Vec::new();
        if i == 0 && row > 0 {
            out.push(((row - 1, col), n));
        }
        if j == 2 && col + 1 < 3 * self.cols {
            out.push(((row, col + 1), e));
        }
        if i == 2 && row + 1 < 3 * self.rows {
            out.push(((row + 1, col), s));
        }
        if j == 0 && col > 0 {
            out.push(((row, col - 1), w));
        }
        out
    }
}

impl fmt::Display for Post {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "p{}.{}", self.r, self.c)
    }
}

impl fmt::Display for Street {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Street::H { r, c } => write!(f, "h{r}.{c}"),
            Street::V { r, c } => write!(f, "v{r}.{c}"),
        }
    }
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Space::Lair => f.write_str("lair"),
            Space::Prison => f.write_str("prison"),
            Space::Street(s) => s.fmt(f),
            Space::Cell { row, col } => write!(f, "s{row}.{col}"),
        }
    }
}

/// A number as the board writes it: plain ASCII digits, no sign, no
/// leading zero (but `0` itself), and small enough to name a place.
fn index(s: &str) -> Option<u32> {
    let plain = (1..=4).contains(&s.len())
        && s.bytes().all(|b| b.is_ascii_digit())
        && (s == "0" || !s.starts_with('0'));
    plain.then(|| s.parse().ok()).flatten()
}

/// `<prefix><n>.<n>` exactly as [`fmt::Display`] writes it, nothing around it.
fn pair(s: &str, prefix: char, what: &str) -> Result<(u32, u32), String> {
    let bad = || {
        format!(
            "`{s}` is not a {what}: write {prefix}<n>.<n> with plain numbers, as in {prefix}1.2 (no spaces, signs or leading zeros)"
        )
    };
    let rest = s.strip_prefix(prefix).ok_or_else(bad)?;
    let (a, b) = rest.split_once('.').ok_or_else(bad)?;
    Ok((index(a).ok_or_else(bad)?, index(b).ok_or_else(bad)?))
}

impl FromStr for Post {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (r, c) = pair(s, 'p', "lamp post")?;
        Ok(Post { r, c })
    }
}

/// Reads exactly the names [`fmt::Display`] writes (`lair`, `prison`,
/// `h1.2`, `v0.3`, `s4.7`): no spaces around them, no sign, no leading zero.
impl FromStr for Space {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.chars().next() {
            _ if s == "lair" => Ok(Space::Lair),
            _ if s == "prison" => Ok(Space::Prison),
            Some('h') => pair(s, 'h', "street").map(|(r, c)| Space::Street(Street::H { r, c })),
            Some('v') => pair(s, 'v', "street").map(|(r, c)| Space::Street(Street::V { r, c })),
            Some('s') => pair(s, 's', "block space").map(|(row, col)| Space::Cell { row, col }),
            _ => Err(format!(
                "`{s}` is not a space: use lair, prison, a street (h1.2, v0.3) or a block space (s4.7)"
            )),
        }
    }
}

impl FromStr for Street {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.parse::<Space>()? {
            Space::Street(st) => Ok(st),
            _ => Err(format!("`{s}` is not a street (h1.2 or v0.3)")),
        }
    }
}

macro_rules! string_serde {
    ($t:ty) => {
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = String::deserialize(d)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

string_serde!(Post);
string_serde!(Street);
string_serde!(Space);
