//! The LEGEND table drawn as SVG (`Rules::render_svg`): the 6x6 map with its
//! column letters and row numbers, the nine Large Squares (Reaches) and the
//! four Corners, every square's Scenery and claiming Symbol, every object on
//! its square (Obstacles on their crossings) in its controller's colour, and
//! a panel under the map: the round, whose turn it is, each player's Symbol
//! and score, and a key naming every object in play.
//!
//! Ids a page can tap: `sq-c4` (a square), `large-0`..`large-8` (a Reach,
//! row by row from the north-west), `corner-0`..`corner-3` (clockwise from the
//! north-west), `piece-7` (object #7), `seat-1` (a player's panel line).
//! The panel sits under the map, not beside it, so the map keeps the whole
//! width of a narrow screen. Nothing is secret in LEGEND: every viewer sees
//! the same drawing.

use tabletape_events::Seat;

use super::actions::{Category, Outcome};
use super::content::{corner_square, reach, Crossing, Line, Sq, CORNERS, SIDE};
use super::decide::scores;
use super::state::{At, Phase, Piece, State, ROUNDS};
use crate::svg::{short, Svg};

/// One Small Square's side, in user units.
const CELL: i32 = 64;
/// The band around the map: labels and Corners.
const MARGIN: i32 = 48;
/// The map's side.
const MAP: i32 = CELL * SIDE as i32;
/// The drawing's width.
const WIDTH: i32 = MAP + 2 * MARGIN;
/// A Corner's box, in the band beyond the map's corner.
const CORNER_BOX: i32 = 42;
/// A panel line's height.
const LINE: i32 = 20;
/// Characters a panel line holds at its font size.
const PANEL_CHARS: usize = 66;

/// The look of each class; the page may override it, the classes stay.
const STYLE: &str = "<style>\
svg{font-family:sans-serif}\
.sq-bg{stroke:#8a8a8a;stroke-width:1}\
.sq-bg.blank{fill:#e4e4e4}\
.sq-bg.explored{fill:#fbf8ef}\
.sq-bg.explored.claim-0{fill:#f7dde1}\
.sq-bg.explored.claim-1{fill:#d9ebf4}\
.sq-bg.explored.claim-2{fill:#fbeed5}\
.sq-bg.explored.claim-3{fill:#dcefe2}\
.large-outline{fill:none;stroke:#333;stroke-width:3}\
.start-outline{fill:none;stroke-width:2;stroke-dasharray:6 4}\
.corner-box{fill:#f1f1f1;stroke:#555;stroke-width:1.5}\
.corner-box.unused{fill:none;stroke:#bbb;stroke-dasharray:4 3}\
.axis{font-size:14px;font-weight:bold;fill:#333}\
.sq-label{font-size:10px;fill:#555}\
.symbol{font-size:9px;font-weight:bold}\
.scenery{font-size:8px;fill:#6b5b3a}\
.token{stroke:#222;stroke-width:1}\
.token-text{font-size:10px;font-weight:bold;fill:#fff}\
.token-text.small{font-size:7px}\
.carried-token{stroke:#fff;stroke-width:1}\
.area{fill:none;stroke-width:2;stroke-dasharray:5 3}\
.monument-area{stroke-dasharray:none;stroke-width:3}\
.panel-title{font-size:14px;font-weight:bold;fill:#222}\
.panel-text{font-size:12px;fill:#222}\
.key-text{font-size:11px;fill:#333}\
.current-mark{font-size:12px;font-weight:bold;fill:#222}\
.seat-0.token,.seat-0.swatch,.seat-0.carried-token,.symbol.seat-0{fill:#c0392b}\
.seat-1.token,.seat-1.swatch,.seat-1.carried-token,.symbol.seat-1{fill:#2471a3}\
.seat-2.token,.seat-2.swatch,.seat-2.carried-token,.symbol.seat-2{fill:#b9770e}\
.seat-3.token,.seat-3.swatch,.seat-3.carried-token,.symbol.seat-3{fill:#1e8449}\
.seat-0.area,.seat-0.start-outline{stroke:#c0392b}\
.seat-1.area,.seat-1.start-outline{stroke:#2471a3}\
.seat-2.area,.seat-2.start-outline{stroke:#b9770e}\
.seat-3.area,.seat-3.start-outline{stroke:#1e8449}\
.token.item,.token.talisman{stroke-dasharray:2 1}\
</style>";

/// The drawing of `s`.
pub fn render(s: &State) -> String {
    let key = key_lines(s);
    let panel_lines = 2 + s.seats.len() as i32 + 1 + key.len() as i32;
    let height = MAP + 2 * MARGIN + 12 + LINE * panel_lines + 12;
    let mut svg = Svg::new(WIDTH as u32, height as u32, "LEGEND: the map");
    svg.style(STYLE);

    axes(&mut svg);
    for sq in Sq::all() {
        square(&mut svg, s, sq);
    }
    larges(&mut svg, s);
    for corner in 0..4u8 {
        corner_box(&mut svg, s, corner);
    }
    for p in s.pieces.values() {
        if let At::Crossing { at } = &p.at {
            obstacle(&mut svg, s, p, *at);
        }
    }
    panel(&mut svg, s, MAP + 2 * MARGIN + 12, &key);

    svg.finish()
}

/// The map's north-west corner of square `sq`.
fn origin(sq: Sq) -> (i32, i32) {
    (MARGIN + CELL * sq.x as i32, MARGIN + CELL * sq.y as i32)
}

fn letter(c: Category) -> &'static str {
    match c {
        Category::Avatar => "A",
        Category::Hero => "H",
        Category::Item => "I",
        Category::Talisman => "T",
        Category::Monster => "M",
        Category::Obstacle => "O",
        Category::Monument => "U",
    }
}

fn class_word(c: Category) -> &'static str {
    match c {
        Category::Avatar => "avatar",
        Category::Hero => "hero",
        Category::Item => "item",
        Category::Talisman => "talisman",
        Category::Monster => "monster",
        Category::Obstacle => "obstacle",
        Category::Monument => "monument",
    }
}

/// A token's short label: its letter and number (`A1`, `M12`).
fn label(p: &Piece) -> String {
    format!("{}{}", letter(p.category), p.id)
}

/// Column letters above and below the map, row numbers left and right.
fn axes(svg: &mut Svg) {
    for i in 0..SIDE as i32 {
        let col = ((b'a' + i as u8) as char).to_string();
        let row = (i + 1).to_string();
        let mid = MARGIN + CELL * i + CELL / 2;
        svg.text(mid, MARGIN - 10, "middle", "axis col", &col);
        svg.text(mid, MARGIN + MAP + 22, "middle", "axis col", &col);
        svg.text(MARGIN - 12, mid + 5, "middle", "axis row", &row);
        svg.text(MARGIN + MAP + 12, mid + 5, "middle", "axis row", &row);
    }
}

/// One Small Square: its ground (blank or explored, tinted by its claim),
/// its name, the claiming Symbol, its Scenery, the area of any Monument or
/// Large Monster covering it, and every object standing on it.
fn square(svg: &mut Svg, s: &State, sq: Sq) {
    let (x, y) = origin(sq);
    let claim = s.claims.get(&sq.large()).copied();
    let scenery = s.scenery.get(&sq);
    let mut class = format!("square large-{}", sq.large());
    class.push_str(if scenery.is_some() {
        " explored"
    } else {
        " blank"
    });
    if let Some(c) = claim {
        class.push_str(&format!(" claimed claim-{c}"));
    }
    svg.open(&format!("sq-{sq}"), &class);
    let mut bg = String::from("sq-bg");
    bg.push_str(if scenery.is_some() {
        " explored"
    } else {
        " blank"
    });
    if let Some(c) = claim {
        bg.push_str(&format!(" claim-{c}"));
    }
    svg.rect(x, y, CELL as u32, CELL as u32, &bg);
    svg.text(x + 9, y + 16, "start", "sq-label", &sq.to_string());
    if let Some(c) = claim {
        let symbol = &s.seat(c).symbol;
        svg.text(
            x + CELL - 9,
            y + 16,
            "end",
            &format!("symbol seat-{c}"),
            &short(symbol, 4),
        );
    }
    if let Some(text) = scenery {
        svg.text(
            x + CELL / 2,
            y + CELL - 4,
            "middle",
            "scenery",
            &short(text, 14),
        );
    }
    // Areas of objects covering more than this square, or a Monument's ground.
    for p in s.at_square(sq) {
        if p.squares().len() > 1 || p.category == Category::Monument {
            let class = format!("area {}-area seat-{}", class_word(p.category), p.controller);
            svg.rect(x + 3, y + 3, (CELL - 6) as u32, (CELL - 6) as u32, &class);
        }
    }
    let here: Vec<&Piece> = s
        .pieces
        .values()
        .filter(|p| p.square() == Some(sq))
        .collect();
    let (cols, r, row_step) = if here.len() <= 4 {
        (2, 12, 22)
    } else {
        (3, 9, 16)
    };
    let step = (CELL - 8) / cols;
    for (i, p) in here.iter().enumerate() {
        let (col, row) = (i as i32 % cols, i as i32 / cols);
        let cx = x + 4 + step * col + step / 2;
        let cy = y + 30 + row_step * row;
        token(svg, s, p, cx, cy, r);
    }
    svg.close();
}

/// One object as a token (a circle; a square for a Monument) with its
/// label, and what it carries as small tokens at its side.
fn token(svg: &mut Svg, s: &State, p: &Piece, cx: i32, cy: i32, r: i32) {
    let word = class_word(p.category);
    svg.open(
        &format!("piece-{}", p.id),
        &format!("piece {word} seat-{}", p.controller),
    );
    let class = format!("token {word} seat-{}", p.controller);
    if p.category == Category::Monument {
        svg.rect(cx - r, cy - r, (2 * r) as u32, (2 * r) as u32, &class);
    } else {
        svg.circle(cx, cy, r as u32, &class);
    }
    let text_class = if r < 12 {
        "token-text small"
    } else {
        "token-text"
    };
    svg.text(cx, cy + 3 + r / 12, "middle", text_class, &label(p));
    for (i, c) in s.carried(p.id).enumerate() {
        let word = class_word(c.category);
        svg.open(
            &format!("piece-{}", c.id),
            &format!("piece {word} carried seat-{}", c.controller),
        );
        svg.circle(
            cx + r,
            cy - r + 8 * i as i32,
            4,
            &format!("carried-token {word} seat-{}", c.controller),
        );
        svg.close();
    }
    svg.close();
}

/// The nine Large Squares' outlines, claims and starting Reaches.
fn larges(svg: &mut Svg, s: &State) {
    for large in 0..9u8 {
        let x = MARGIN + 2 * CELL * (large % 3) as i32;
        let y = MARGIN + 2 * CELL * (large / 3) as i32;
        let mut class = String::from("large");
        match s.claims.get(&large) {
            Some(c) => class.push_str(&format!(" claimed claim-{c}")),
            None => class.push_str(" unclaimed"),
        }
        let start = s.seats.iter().position(|seat| seat.start_large() == large);
        if let Some(seat) = start {
            class.push_str(&format!(" start start-{seat}"));
        }
        svg.open(&format!("large-{large}"), &class);
        if let Some(seat) = start {
            svg.rect(
                x + 6,
                y + 6,
                (2 * CELL - 12) as u32,
                (2 * CELL - 12) as u32,
                &format!("start-outline seat-{seat}"),
            );
        }
        svg.rect(x, y, (2 * CELL) as u32, (2 * CELL) as u32, "large-outline");
        svg.close();
    }
}

/// A Corner: a box in the band beyond the map's corner square, in its
/// seat's colour, holding the objects waiting there.
fn corner_box(svg: &mut Svg, s: &State, corner: u8) {
    let sq = corner_square(corner);
    let (sx, sy) = origin(sq);
    let x = if sq.x == 0 {
        sx - CORNER_BOX - 3
    } else {
        sx + CELL + 3
    };
    let y = if sq.y == 0 {
        sy - CORNER_BOX - 3
    } else {
        sy + CELL + 3
    };
    let seat = s.seats.iter().position(|st| st.corner == corner);
    let class = match seat {
        Some(i) => format!("corner seat-{i}"),
        None => "corner unused".to_string(),
    };
    svg.open(&format!("corner-{corner}"), &class);
    let box_class = match seat {
        Some(i) => format!("corner-box seat-{i}"),
        None => "corner-box unused".to_string(),
    };
    svg.rect(x, y, CORNER_BOX as u32, CORNER_BOX as u32, &box_class);
    let here: Vec<&Piece> = s
        .pieces
        .values()
        .filter(|p| p.at == At::Corner { corner })
        .collect();
    let half = CORNER_BOX / 2;
    for (i, p) in here.iter().enumerate() {
        let (col, row) = ((i % 2) as i32, (i / 2 % 2) as i32);
        token(
            svg,
            s,
            p,
            x + half / 2 + half * col,
            y + half / 2 + half * row,
            9,
        );
    }
    svg.close();
}

/// An Obstacle on its crossing of grid lines.
fn obstacle(svg: &mut Svg, s: &State, p: &Piece, at: Crossing) {
    // On a crossing, or halfway along the boundary it sits on.
    let (dx, dy, place) = match at.line {
        Line::Point => (0, 0, "crossing"),
        Line::North => (CELL / 2, 0, "boundary-north"),
        Line::West => (0, CELL / 2, "boundary-west"),
    };
    let cx = MARGIN + CELL * at.x as i32 + dx;
    let cy = MARGIN + CELL * at.y as i32 + dy;
    svg.open(
        &format!("piece-{}", p.id),
        &format!(
            "piece obstacle {place}-{} seat-{}",
            &at.to_string()[1..],
            p.controller
        ),
    );
    svg.rect(
        cx - 12,
        cy - 7,
        24,
        14,
        &format!("token obstacle seat-{}", p.controller),
    );
    svg.text(cx, cy + 3, "middle", "token-text small", &label(p));
    for (i, c) in s.carried(p.id).enumerate() {
        svg.circle(
            cx + 12,
            cy - 7 + 8 * i as i32,
            4,
            &format!("carried-token seat-{}", c.controller),
        );
    }
    svg.close();
}

/// Where an object is, in a few words.
fn place(s: &State, at: &At) -> String {
    match at {
        At::Map { squares } => squares
            .iter()
            .map(Sq::to_string)
            .collect::<Vec<_>>()
            .join(" "),
        At::Crossing { at } => at.to_string(),
        At::Corner { corner } => CORNERS[*corner as usize]
            .trim_start_matches("the ")
            .to_string(),
        At::Held { by } => format!("held by #{by}"),
        At::Stockpile { seat } => format!("{}'s Stockpile", s.player(*seat)),
        At::Destroyed => "destroyed".into(),
    }
}

/// The key: one line for every object on the map or at a Corner.
fn key_lines(s: &State) -> Vec<(Seat, String)> {
    s.pieces
        .values()
        .filter(|p| p.on_map() || matches!(p.at, At::Corner { .. }))
        .map(|p| {
            let carried: Vec<String> = s
                .carried(p.id)
                .map(|c| format!("{} {}", label(c), c.name))
                .collect();
            let carry = if carried.is_empty() {
                String::new()
            } else {
                format!(", carrying {}", carried.join(", "))
            };
            let line = format!(
                "{} {} ({}'s {}) at {}{carry}",
                label(p),
                p.name,
                s.player(p.controller),
                p.category.word(),
                place(s, &p.at)
            );
            (p.controller, short(&line, PANEL_CHARS))
        })
        .collect()
}

/// The seats that won, once the game is over.
fn winners(s: &State) -> Vec<Seat> {
    match &s.outcome {
        Some(Outcome::Talisman { winner, .. }) => vec![*winner],
        Some(Outcome::Points { winners, .. }) => winners.clone(),
        None => Vec::new(),
    }
}

/// The panel under the map: round and turn, each player, then the key.
fn panel(svg: &mut Svg, s: &State, top: i32, key: &[(Seat, String)]) {
    svg.open("panel", "panel");
    let mut y = top + 14;
    let status = match s.phase {
        Phase::Introductions => {
            let waiting: Vec<&str> = s
                .seats
                .iter()
                .filter(|st| !st.introduced())
                .map(|st| st.player.as_str())
                .collect();
            format!("Introductions: waiting for {}", waiting.join(", "))
        }
        Phase::Playing => format!(
            "Round {} of {ROUNDS}: {}'s turn ({} of {} actions)",
            s.round,
            s.player(s.current()),
            s.actions_used,
            s.actions_allowed
        ),
        Phase::Over => {
            let names: Vec<&str> = winners(s).iter().map(|w| s.player(*w)).collect();
            match names.len() {
                0 => "The game is over".to_string(),
                1 => format!("The game is over: {} wins", names[0]),
                _ => format!("The game is over: {} share the win", names.join(", ")),
            }
        }
    };
    svg.text(8, y, "start", "panel-title status", &short(&status, 56));
    y += LINE;
    let totals = scores(s);
    let winners = winners(s);
    for (i, st) in s.seats.iter().enumerate() {
        let seat = i as Seat;
        let current = s.phase == Phase::Playing && s.current() == seat;
        let mut class = format!("seat seat-{i}");
        if current {
            class.push_str(" current");
        }
        if winners.contains(&seat) {
            class.push_str(" winner");
        }
        svg.open(&format!("seat-{i}"), &class);
        if current {
            svg.text(8, y, "start", "current-mark", "▶");
        }
        svg.circle(28, y - 4, 7, &format!("swatch seat-{i}"));
        let symbol = if st.symbol.is_empty() {
            "no Symbol yet".to_string()
        } else {
            format!("Symbol \u{201c}{}\u{201d}", short(&st.symbol, 12))
        };
        let points = totals.get(i).map_or(0, |sc| sc.total);
        let line = format!(
            "{}: {symbol}, {points} pts, {}",
            short(&st.player, 16),
            reach(st.start_large())
        );
        svg.text(42, y, "start", "panel-text", &short(&line, 58));
        svg.close();
        y += LINE;
    }
    y += LINE / 2;
    svg.text(8, y, "start", "panel-title", "On the table");
    y += LINE;
    for (seat, line) in key {
        svg.circle(14, y - 4, 4, &format!("swatch seat-{seat}"));
        svg.text(24, y, "start", "key-text", line);
        y += LINE;
    }
    if key.is_empty() {
        svg.text(24, y, "start", "key-text", "nothing yet");
    }
    svg.close();
}
