//! Tothil Fields drawn as SVG (`Rules::render_svg`) for one viewer.
//!
//! The board: street squares (a star on those with a Street Event symbol),
//! each location as one block with its name and its victory spaces (a ring
//! for love, a house for property, a star for a personal goal) filled with
//! the colour of the token on it, and each Londoner's pawn in their seat's
//! colour. Column letters and row numbers name the squares as actions do.
//! Under the board, a panel: the round and whose turn it is, then a line a
//! Londoner (character, money, health as hearts, victory tokens, legs, the
//! equipped one marked; a leg's scores only where `view` shows them).
//!
//! Ids a page can tap: `square-c3`, `location-theatre` (its victory spaces
//! included), `pawn-0`.
//! Classes: `square` with `event`, `location`, `space` with `love`,
//! `property`, `personal`, `piece` around a `pawn seat-N` (`current`).

use tabletape_events::Seat;

use super::board::{Cell, Place, Square};
use super::content::GoalKind;
use super::narration::leg_line;
use super::state::State;
use crate::rules::Viewer;
use crate::svg::Svg;

const CELL: i32 = 34;
const BAND: i32 = 22;
const LINE: i32 = 22;
const MIN_WIDTH: i32 = 420;

const STYLE: &str = "<style>\
svg{font-family:sans-serif}\
.ground{fill:#6f8a5b}\
.square-bg{fill:#c9c1ad;stroke:#8a8272;stroke-width:1}\
.event .square-bg{fill:#e2c77a}\
.star{font-size:16px;fill:#7a4b10}\
.loc-bg{fill:#7b3f2e;stroke:#3a1d14;stroke-width:2}\
.store .loc-bg{fill:#2f5d7b}\
.sick .loc-bg{fill:#f1f1f1;stroke:#b22}\
.loc-name{font-size:10px;font-weight:bold;fill:#fff}\
.sick .loc-name{fill:#b22}\
.space-bg{fill:#f7f0dc;stroke:#3a1d14;stroke-width:1}\
.axis{font-size:11px;fill:#f2f2f2}\
.pawn{stroke:#fff;stroke-width:2}\
.current.pawn{stroke:#ffd75e;stroke-width:4}\
.pawn-text{font-size:10px;font-weight:bold;fill:#fff}\
.panel-bg{fill:#f7f5ef}\
.panel{font-size:15px;fill:#222}\
.panel.head{font-weight:bold}\
.seat-0{fill:#d1495b}.seat-1{fill:#2e86ab}.seat-2{fill:#3c9d4e}\
.seat-3{fill:#e08e0b}.seat-4{fill:#8e5ea2}.seat-5{fill:#11998e}\
</style>";

fn at(sq: Square) -> (i32, i32) {
    (BAND + sq.col as i32 * CELL, BAND + sq.row as i32 * CELL)
}

fn glyph(goal: GoalKind) -> &'static str {
    match goal {
        GoalKind::Love => "\u{26ad}",
        GoalKind::Property => "\u{2302}",
        GoalKind::Personal => "\u{2605}",
    }
}

/// The panel's lines, each with its class.
fn panel(state: &State, viewer: Viewer) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let head = match (state.turn(), &state.outcome) {
        (_, Some(o)) => format!("Game over: {}", o.why),
        (Some(t), None) => format!("Round {}: {} to play", state.round, state.name(t.seat)),
        (None, None) => String::new(),
    };
    out.push(("panel head".to_string(), head));
    for (s, l) in state.londoners.iter().enumerate() {
        let seat = s as Seat;
        out.push((
            format!("panel head seat-line-{s}"),
            format!(
                "{} as {}{}",
                l.player,
                l.character,
                if l.dead {
                    " (dead: draws a new character)"
                } else if l.sick {
                    " (sick)"
                } else {
                    ""
                }
            ),
        ));
        let hearts = "\u{2665}".repeat(l.health as usize)
            + &"\u{2661}".repeat(l.max_health.saturating_sub(l.health) as usize);
        out.push((
            "panel".into(),
            format!(
                "£{}  {hearts}  tokens {}/2{}{}",
                l.money,
                l.tokens.len(),
                if l.dead {
                    String::new()
                } else {
                    match &l.at {
                        Place::Square(sq) => format!("  at {sq}"),
                        Place::Location(id) => format!("  at the {}", state.location_name(id)),
                    }
                },
                if l.miss_turns > 0 {
                    format!("  misses {} turn(s)", l.miss_turns)
                } else {
                    String::new()
                }
            ),
        ));
        if !l.legs.is_empty() {
            let legs: Vec<String> = l
                .legs
                .iter()
                .map(|leg| leg_line(state, viewer, seat, leg, " (equipped)"))
                .collect();
            out.push(("panel".into(), format!("legs: {}", legs.join("; "))));
        }
    }
    out
}

pub fn render(state: &State, viewer: Viewer) -> String {
    let board = state.board();
    let board_w = BAND + board.cols() as i32 * CELL + 8;
    let board_h = BAND + board.rows() as i32 * CELL + 8;
    let width = board_w.max(MIN_WIDTH);
    let lines = panel(state, viewer);
    let panel_top = board_h + 8;
    let height = panel_top + 8 + lines.len() as i32 * LINE + 8;
    let mut svg = Svg::new(
        width as u32,
        height as u32,
        &format!("Legless in London: {}", state.board.name),
    );
    svg.style(STYLE);
    svg.rect(0, 0, width as u32, board_h as u32, "ground");
    for c in 0..board.cols() {
        let (x, _) = at(Square { row: 0, col: c });
        let letter = char::from(b'a' + c as u8).to_string();
        svg.text(x + CELL / 2, BAND - 6, "middle", "axis", &letter);
    }
    for r in 0..board.rows() {
        let (_, y) = at(Square { row: r, col: 0 });
        svg.text(
            BAND - 4,
            y + CELL / 2 + 4,
            "end",
            "axis",
            &(r + 1).to_string(),
        );
    }
    // Street squares.
    for row in 0..board.rows() {
        for col in 0..board.cols() {
            let sq = Square { row, col };
            if let Some(Cell::Street { event }) = board.cell(sq) {
                let (x, y) = at(sq);
                let class = if *event { "square event" } else { "square" };
                svg.open(&format!("square-{sq}"), class);
                svg.rect(x, y, CELL as u32, CELL as u32, "square-bg");
                if *event {
                    svg.text(x + CELL / 2, y + CELL / 2 + 6, "middle", "star", "\u{2736}");
                }
                svg.close();
            }
        }
    }
    // Locations, each one block over the squares it covers.
    for l in state.locations.iter() {
        let cells = board.cells_of(&l.id);
        let (Some(min_r), Some(max_r)) = (
            cells.iter().map(|c| c.row).min(),
            cells.iter().map(|c| c.row).max(),
        ) else {
            continue;
        };
        let min_c = cells.iter().map(|c| c.col).min().unwrap_or(0);
        let max_c = cells.iter().map(|c| c.col).max().unwrap_or(0);
        let (x, y) = at(Square {
            row: min_r,
            col: min_c,
        });
        let w = (max_c - min_c + 1) as i32 * CELL;
        let h = (max_r - min_r + 1) as i32 * CELL;
        let class = if l.id == state.leg_store {
            "location store"
        } else if l.id == state.sickroom {
            "location sick"
        } else {
            "location"
        };
        svg.open(&format!("location-{}", l.id), class);
        svg.rect(x + 2, y + 2, (w - 4) as u32, (h - 4) as u32, "loc-bg");
        let words: Vec<&str> = l.name.split_whitespace().collect();
        let (first, rest) = match words.len() {
            0 | 1 => (l.name.clone(), String::new()),
            n => (words[..n / 2].join(" "), words[n / 2..].join(" ")),
        };
        svg.text(x + w / 2, y + 14, "middle", "loc-name", &first);
        if !rest.is_empty() {
            svg.text(x + w / 2, y + 25, "middle", "loc-name", &rest);
        }
        for (i, goal) in l.spaces.iter().enumerate() {
            let sx = x + 6 + i as i32 * 20;
            let sy = y + h - 22;
            let class = match state.space_taken(&l.id, *goal) {
                Some(s) => format!("space {} seat-{s}", goal.word().replace(' ', "-")),
                None => format!("space {}", goal.word().replace(' ', "-")),
            };
            // Part of the location's group, so a tap on it picks the location.
            svg.rect(sx, sy, 16, 16, &format!("space-bg {class}"));
            if let Some(s) = state.space_taken(&l.id, *goal) {
                svg.circle(sx + 8, sy + 8, 7, &format!("seat-{s}"));
            }
            svg.text(sx + 8, sy + 12, "middle", "panel", glyph(*goal));
        }
        svg.close();
    }
    // Pawns: several on one place sit side by side.
    let turn = state.turn();
    let mut placed: Vec<(Place, i32)> = Vec::new();
    for (s, l) in state.londoners.iter().enumerate() {
        if l.dead {
            continue;
        }
        let n = match placed.iter_mut().find(|(p, _)| *p == l.at) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                placed.push((l.at.clone(), 0));
                0
            }
        };
        let (cx, cy) = match &l.at {
            Place::Square(sq) => {
                let (x, y) = at(*sq);
                (x + 11 + (n % 2) * 12, y + 11 + (n / 2) * 12)
            }
            Place::Location(id) => {
                let cells = board.cells_of(id);
                let first = cells.first().copied().unwrap_or(Square { row: 0, col: 0 });
                let (x, y) = at(first);
                (x + 14 + (n % 3) * 20, y + 36 + (n / 3) * 6)
            }
        };
        let current = turn.is_some_and(|t| t.seat as usize == s);
        let class = if current {
            format!("pawn seat-{s} current")
        } else {
            format!("pawn seat-{s}")
        };
        // The look is on the circle: a group's stroke would reach the digit.
        svg.open(&format!("pawn-{s}"), "piece");
        svg.circle(cx, cy, 9, &class);
        svg.text(cx, cy + 4, "middle", "pawn-text", &s.to_string());
        svg.close();
    }
    svg.rect(
        0,
        panel_top - 4,
        width as u32,
        (height - panel_top + 4) as u32,
        "panel-bg",
    );
    let mut seat_line = 0;
    for (i, (class, text)) in lines.iter().enumerate() {
        let y = panel_top + 8 + (i as i32 + 1) * LINE - 6;
        if class.contains("seat-line") {
            svg.circle(12, y - 5, 6, &format!("seat-{seat_line}"));
            seat_line += 1;
            svg.text(24, y, "start", class, text);
        } else {
            svg.text(8, y, "start", class, text);
        }
    }
    svg.finish()
}
