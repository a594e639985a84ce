//! The Rooftops of Ludovia drawn as SVG (`Rules::render_svg`) for one viewer.
//!
//! The board: blocks where the layout put them, each ordinary block's nine
//! spaces (rooftops with their card still face down, robbed rooftops,
//! alleys, Black Markets), the Lair and the Prison as one space each, the
//! streets between the blocks with their names, the lamp posts, the
//! policemen with their facing and a sight line over the streets they watch,
//! and each thief on its space in its seat's colour with its name. Axis
//! labels name the fine grid (block spaces `s<row>.<col>`) in dark figures
//! and the lamp-post grid (posts `p<r>.<c>`, streets `h`/`v`) in grey ones.
//! Under the board, a panel: round, whose turn and action points left, the
//! rooftop cards face down (a count), the offer, the policemen, and each
//! thief's Fame and Fortune, place, equipment and hand: the viewer's own hand
//! by card, everyone else's as a count, as `view` shows them.
//!
//! Ids a page can tap: `space-lair`, `space-prison`, `space-h1-2`,
//! `space-v0-3`, `space-s4-7` (a space's own name, dots made dashes),
//! `post-p1-2` (lamp post `p1.2`), `police-0`, `thief-0` (by seat),
//! `seat-0` (a thief's panel lines), `offer-0` (an item on offer).
//! Classes: `space` with `street`/`watched`, `cell` with
//! `rooftop`/`robbed`/`alley`/`market`, `lair`, `prison`; `thief seat-N`
//! (`current`, `imprisoned`); `policeman facing-<word>`.

use tabletape_events::Seat;

use super::board::{Facing, Post, Space, Street};
use super::content::Special;
use super::state::{CellKind, Phase, State};
use crate::rules::Viewer;
use crate::svg::{short, Svg};

/// A block space's side.
const CELL: i32 = 32;
/// A block's side.
const BLOCK: i32 = 3 * CELL;
/// A street's width (and a lamp post's square).
const STREET: i32 = 24;
/// The band for the axis labels, left and top.
const BAND: i32 = 28;
/// A panel line's height, and roughly a character's width at its size.
const LINE: i32 = 20;
const CHAR_W: i32 = 8;
/// The narrowest drawing (the panel's text needs room).
const MIN_WIDTH: i32 = 440;

/// The look of each class; the page may override it, the classes stay.
const STYLE: &str = "<style>\
svg{font-family:sans-serif}\
.sky{fill:#1d2233}\
.street-bg{fill:#4a4f5e}\
.watched .street-bg{fill:#6e5a2c}\
.street-name{font-size:9px;fill:#c9ccd6}\
.post{fill:#e8d27a;stroke:#1d2233;stroke-width:1}\
.block-bg{fill:#2b3044;stroke:#11131c;stroke-width:2}\
.cell-bg{stroke:#11131c;stroke-width:1}\
.rooftop .cell-bg{fill:#a0523d}\
.robbed .cell-bg{fill:#5e3a31}\
.alley .cell-bg,.market .cell-bg{fill:#3b3f4d}\
.card{fill:#f4efe4;stroke:#222;stroke-width:1}\
.glyph{font-size:11px;fill:#d8d8d8}\
.market .glyph{font-size:16px;font-weight:bold;fill:#ffd75e}\
.lair .cell-bg{fill:#2f5d46}\
.prison .cell-bg{fill:#555;stroke-dasharray:4 3}\
.place-name{font-size:15px;font-weight:bold;fill:#fff}\
.axis{font-size:11px;fill:#e6e6e6}\
.axis.posts{fill:#9aa0b3;font-style:italic}\
.sight{stroke:#ffd75e;stroke-width:3;stroke-dasharray:6 4;opacity:.8}\
.facing{stroke:#ffd75e;stroke-width:4}\
.police-token{fill:#1b3fa0;stroke:#ffd75e;stroke-width:2}\
.police-text{font-size:10px;font-weight:bold;fill:#fff}\
.token{stroke:#fff;stroke-width:1.5}\
.current .token{stroke:#ffd75e;stroke-width:3}\
.token-text{font-size:10px;font-weight:bold;fill:#fff}\
.thief-name{font-size:11px;font-weight:bold;fill:#fff;paint-order:stroke;stroke:#000;stroke-width:2}\
.panel-bg{fill:#f7f5ef}\
.panel{font-size:14px;fill:#222}\
.panel.head{font-weight:bold}\
.panel.hand{fill:#6b2a1a}\
.panel.note{font-size:12px;fill:#555}\
.offer-item{font-weight:bold;fill:#1b3fa0}\
.current .panel.head{text-decoration:underline}\
.seat-0{fill:#d1495b}.seat-1{fill:#2e86ab}.seat-2{fill:#3c9d4e}\
.seat-3{fill:#e08e0b}.seat-4{fill:#8e5ea2}.seat-5{fill:#11998e}\
</style>";

/// The page-safe id of a space: its name with dots made dashes.
pub fn space_id(space: Space) -> String {
    format!("space-{}", space.to_string().replace('.', "-"))
}

/// The page-safe id of a lamp post: its name as actions write it, dots
/// made dashes (`post-p1-2` for `p1.2`), so a tap on it finds its actions.
fn post_id(p: Post) -> String {
    format!("post-{}", p.to_string().replace('.', "-"))
}

/// Where a rectangle lies, in user units.
#[derive(Debug, Clone, Copy)]
struct Area {
    x: i32,
    y: i32,
    w: i32,
    h: i32,
}

impl Area {
    fn centre(self) -> (i32, i32) {
        (self.x + self.w / 2, self.y + self.h / 2)
    }
}

fn block_area(r: u32, c: u32) -> Area {
    Area {
        x: BAND + STREET + c as i32 * (BLOCK + STREET),
        y: BAND + STREET + r as i32 * (BLOCK + STREET),
        w: BLOCK,
        h: BLOCK,
    }
}

fn post_centre(p: Post) -> (i32, i32) {
    (
        BAND + p.c as i32 * (BLOCK + STREET) + STREET / 2,
        BAND + p.r as i32 * (BLOCK + STREET) + STREET / 2,
    )
}

fn street_area(s: Street) -> Area {
    match s {
        Street::H { r, c } => Area {
            x: BAND + STREET + c as i32 * (BLOCK + STREET),
            y: BAND + r as i32 * (BLOCK + STREET),
            w: BLOCK,
            h: STREET,
        },
        Street::V { r, c } => Area {
            x: BAND + c as i32 * (BLOCK + STREET),
            y: BAND + STREET + r as i32 * (BLOCK + STREET),
            w: STREET,
            h: BLOCK,
        },
    }
}

/// The area a space covers on the drawing.
fn space_area(state: &State, space: Space) -> Area {
    match space {
        Space::Lair => {
            let (r, c) = state.special_at(Special::Lair);
            block_area(r, c)
        }
        Space::Prison => {
            let (r, c) = state.special_at(Special::Prison);
            block_area(r, c)
        }
        Space::Street(s) => street_area(s),
        Space::Cell { row, col } => {
            let b = block_area(row / 3, col / 3);
            Area {
                x: b.x + (col % 3) as i32 * CELL,
                y: b.y + (row % 3) as i32 * CELL,
                w: CELL,
                h: CELL,
            }
        }
    }
}

/// Where the `i`th of `n` thieves sharing `area` stands.
fn spot(area: Area, i: usize, n: usize) -> (i32, i32) {
    let (cx, cy) = area.centre();
    if n <= 1 {
        return (cx, cy);
    }
    let i = i as i32;
    let n = n as i32;
    if area.w > area.h {
        // A street running east-west: in a row along it.
        let step = (area.w - 12) / n;
        (area.x + 6 + step / 2 + i * step, cy)
    } else if area.h > area.w {
        let step = (area.h - 12) / n;
        (cx, area.y + 6 + step / 2 + i * step)
    } else {
        // A square (a block space, the Lair, the Prison): up to three a row.
        let per_row = if n <= 4 { 2 } else { 3 };
        let rows = (n + per_row - 1) / per_row;
        let (col, row) = (i % per_row, i / per_row);
        let dx = area.w / per_row;
        let dy = area.h / rows;
        (area.x + dx / 2 + dx * col, area.y + dy / 2 + dy * row)
    }
}

/// Words wrapped into lines of at most `max` characters.
fn wrap(text: &str, max: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > max {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn place(state: &State, space: Space) -> String {
    match space {
        Space::Lair => "the Lair".into(),
        Space::Prison => "the Prison".into(),
        Space::Street(s) => format!("street {s}"),
        Space::Cell { row, col } => {
            let what = match state.cell(row, col) {
                Some(CellKind::Rooftop) => "rooftop",
                Some(CellKind::Alley) => "alley",
                Some(CellKind::BlackMarket) => "Black Market",
                None => "space",
            };
            format!("{what} {space}")
        }
    }
}

/// One piece of panel text; `group` makes it a tappable group of its own.
#[derive(Debug)]
struct Piece {
    x: i32,
    class: String,
    text: String,
    group: Option<(String, String)>,
    swatch: Option<usize>,
}

/// One panel line, or a group of lines (a thief's).
#[derive(Debug, Default)]
struct Entry {
    group: Option<(String, String)>,
    lines: Vec<Vec<Piece>>,
}

fn piece(x: i32, class: &str, text: String) -> Piece {
    Piece {
        x,
        class: class.into(),
        text,
        group: None,
        swatch: None,
    }
}

fn status(state: &State) -> String {
    match &state.phase {
        Phase::Order { contenders } => {
            let names: Vec<&str> = contenders.iter().map(|&s| state.name(s)).collect();
            format!("Rolling for who starts: {}", names.join(", "))
        }
        Phase::Placing { seat } => format!(
            "{} places a policeman ({} on the board)",
            state.name(*seat),
            state.policemen.len()
        ),
        Phase::Playing(turn) => format!(
            "Round {}: {}'s turn, {} action point{} left",
            state.round,
            state.name(turn.seat),
            turn.ap,
            plural(turn.ap as usize)
        ),
        Phase::Over => match &state.outcome {
            Some(o) => {
                let names: Vec<&str> = o.winners.iter().map(|&s| state.name(s)).collect();
                format!("The night is over: {} ({})", names.join(" and "), o.why)
            }
            None => "The night is over".into(),
        },
    }
}

/// The panel's entries, wrapped to `chars` a line.
fn panel(state: &State, viewer: Viewer, chars: usize) -> Vec<Entry> {
    let mut out = Vec::new();
    let plain = |text: String, class: &str| -> Entry {
        Entry {
            group: None,
            lines: wrap(&text, chars)
                .into_iter()
                .map(|l| vec![piece(0, class, l)])
                .collect(),
        }
    };
    out.push(plain(status(state), "panel head"));
    out.push(plain(
        format!(
            "Rooftop cards face down: {} of {}",
            state.pool.len(),
            state.rooftop_total
        ),
        "panel",
    ));

    // The offer, each item its own group.
    let mut offer = Entry {
        group: Some(("offer".into(), "offer".into())),
        lines: vec![vec![piece(0, "panel", "On offer:".into())]],
    };
    let mut x = CHAR_W * 10;
    let limit = chars as i32 * CHAR_W;
    if state.offer.is_empty() {
        offer.lines[0].push(piece(x, "panel", "nothing".into()));
    }
    for (i, item) in state.offer.iter().enumerate() {
        let text = short(item, chars.saturating_sub(4));
        let w = (text.chars().count() as i32 + 3) * CHAR_W;
        if x + w > limit && x > CHAR_W * 10 {
            offer.lines.push(Vec::new());
            x = CHAR_W * 2;
        }
        offer.lines.last_mut().expect("a line").push(Piece {
            x,
            class: "panel offer-item".into(),
            text,
            group: Some((format!("offer-{i}"), "offer-card".into())),
            swatch: None,
        });
        x += w;
    }
    out.push(offer);

    let police: Vec<String> = state
        .policemen
        .iter()
        .enumerate()
        .map(|(i, p)| format!("#{i} at {} facing {}", p.at, p.facing.word()))
        .collect();
    out.push(plain(
        if police.is_empty() {
            "Police: none yet".into()
        } else {
            format!("Police: {}", police.join("; "))
        },
        "panel",
    ));

    let current = state.turn().map(|t| t.seat);
    for (i, t) in state.thieves.iter().enumerate() {
        let seat = i as Seat;
        let mut class = format!("seat-line seat-{i}");
        if current == Some(seat) {
            class.push_str(" current");
        }
        let mut e = Entry {
            group: Some((format!("seat-{i}"), class)),
            lines: Vec::new(),
        };
        let jail = if t.in_prison { ", imprisoned" } else { "" };
        let head = format!(
            "{i} {}: {} Fame and Fortune, {}{jail}",
            t.player,
            t.fame,
            place(state, t.at)
        );
        for (n, l) in wrap(&head, chars.saturating_sub(2)).into_iter().enumerate() {
            let mut p = piece(2 * CHAR_W, "panel head", l);
            if n == 0 {
                p.swatch = Some(i);
            }
            e.lines.push(vec![p]);
        }
        let hand = if viewer.sees(seat) {
            if t.hand.is_empty() {
                "Hand: empty".to_string()
            } else {
                let cards: Vec<String> = t
                    .hand
                    .iter()
                    .map(|c| match state.value(c) {
                        0 => c.clone(),
                        v => format!("{c} (${v})"),
                    })
                    .collect();
                format!(
                    "Hand: {} (worth ${})",
                    cards.join(", "),
                    state.hand_value(seat)
                )
            }
        } else {
            format!("Hand: {} secret card{}", t.hand.len(), plural(t.hand.len()))
        };
        for l in wrap(&hand, chars.saturating_sub(2)) {
            e.lines.push(vec![piece(2 * CHAR_W, "panel hand", l)]);
        }
        let gear = if t.equipment.is_empty() {
            "Equipment: none".to_string()
        } else {
            format!("Equipment: {}", t.equipment.join(", "))
        };
        for l in wrap(&gear, chars.saturating_sub(2)) {
            e.lines.push(vec![piece(2 * CHAR_W, "panel", l)]);
        }
        out.push(e);
    }

    for r in 0..state.rows {
        let names: Vec<String> = (0..state.cols).map(|c| state.block(r, c).label()).collect();
        out.push(plain(
            format!("Blocks, row {r}: {}", names.join(", ")),
            "panel note",
        ));
    }
    out.push(plain(
        "Key: a white card lies face down on each rooftop not yet robbed; $ is a Black Market; \
         dashed yellow lines are the streets a policeman watches; dark figures number block \
         spaces, grey ones lamp posts and streets."
            .into(),
        "panel note",
    ));
    out
}

/// The board and the panel for `viewer`.
pub fn render(state: &State, viewer: Viewer) -> String {
    let grid = state.grid();
    let board_w = BAND + state.cols as i32 * (BLOCK + STREET) + STREET;
    let board_h = BAND + state.rows as i32 * (BLOCK + STREET) + STREET;
    let width = (board_w + 8).max(MIN_WIDTH);
    let chars = ((width - 16) / CHAR_W) as usize;
    let entries = panel(state, viewer, chars);
    let panel_lines: i32 = entries.iter().map(|e| e.lines.len() as i32).sum();
    let panel_top = board_h + 12;
    let height = panel_top + 8 + panel_lines * LINE + 8;

    let mut svg = Svg::new(
        width as u32,
        height as u32,
        "The Rooftops of Ludovia: the board",
    );
    svg.style(STYLE);
    svg.rect(0, 0, width as u32, board_h as u32 + 8, "sky");

    // Axis labels: fine grid (block spaces) and lamp-post grid.
    for col in 0..3 * state.cols {
        let a = space_area(state, Space::Cell { row: 0, col });
        svg.text(a.x + CELL / 2, BAND - 8, "middle", "axis", &col.to_string());
    }
    for row in 0..3 * state.rows {
        let a = space_area(state, Space::Cell { row, col: 0 });
        svg.text(
            BAND - 6,
            a.y + CELL / 2 + 4,
            "end",
            "axis",
            &row.to_string(),
        );
    }
    for c in 0..=state.cols {
        let (x, _) = post_centre(Post { r: 0, c });
        svg.text(x, BAND - 8, "middle", "axis posts", &c.to_string());
    }
    for r in 0..=state.rows {
        let (_, y) = post_centre(Post { r, c: 0 });
        svg.text(BAND - 6, y + 4, "end", "axis posts", &r.to_string());
    }

    // Streets.
    let watched = state.watched();
    for s in grid.streets() {
        let space = Space::Street(s);
        let class = if watched.contains(&s) {
            "space street watched"
        } else {
            "space street"
        };
        let a = street_area(s);
        svg.open(&space_id(space), class);
        svg.rect(a.x, a.y, a.w as u32, a.h as u32, "street-bg");
        let (cx, cy) = a.centre();
        svg.text(cx, cy + 3, "middle", "street-name", &s.to_string());
        svg.close();
    }

    // Blocks and their spaces.
    for r in 0..state.rows {
        for c in 0..state.cols {
            let block = state.block(r, c);
            let a = block_area(r, c);
            if let Some(special) = block.special {
                let (space, class, name) = match special {
                    Special::Lair => (Space::Lair, "space lair", "Lair"),
                    Special::Prison => (Space::Prison, "space prison", "Prison"),
                };
                svg.open(&space_id(space), class);
                svg.rect(a.x, a.y, a.w as u32, a.h as u32, "cell-bg");
                svg.text(a.x + a.w / 2, a.y + a.h - 8, "middle", "place-name", name);
                svg.close();
                continue;
            }
            svg.rect(a.x, a.y, a.w as u32, a.h as u32, "block-bg");
            for i in 0..3 {
                for j in 0..3 {
                    let (row, col) = (3 * r + i, 3 * c + j);
                    let space = Space::Cell { row, col };
                    let Some(kind) = state.cell(row, col) else {
                        continue;
                    };
                    let robbed = state.robbed.contains(&space);
                    let class = match kind {
                        CellKind::Rooftop if robbed => "space cell rooftop robbed",
                        CellKind::Rooftop => "space cell rooftop",
                        CellKind::Alley => "space cell alley",
                        CellKind::BlackMarket => "space cell alley market",
                    };
                    let s = space_area(state, space);
                    svg.open(&space_id(space), class);
                    svg.rect(s.x, s.y, s.w as u32, s.h as u32, "cell-bg");
                    let (cx, cy) = s.centre();
                    match kind {
                        CellKind::Rooftop if !robbed => {
                            svg.rect(cx - 6, cy - 8, 12, 16, "card");
                        }
                        CellKind::Rooftop => {}
                        CellKind::Alley => {
                            svg.text(cx, cy + 4, "middle", "glyph", "alley");
                        }
                        CellKind::BlackMarket => {
                            svg.text(cx, cy + 6, "middle", "glyph", "$");
                        }
                    }
                    svg.close();
                }
            }
        }
    }

    // Lamp posts.
    for p in grid.posts() {
        let (x, y) = post_centre(p);
        svg.open(&post_id(p), "lamp-post");
        svg.circle(x, y, 4, "post");
        svg.close();
    }

    // Policemen: sight line to the edge, facing, token.
    for (i, p) in state.policemen.iter().enumerate() {
        // Policemen sharing a post stand in a diagonal line across it.
        let shared = state.policemen_at(p.at);
        let k = shared.iter().position(|&j| j == i).unwrap_or(0) as i32;
        let shift = 12 * k - 6 * (shared.len() as i32 - 1);
        let (x, y) = post_centre(p.at);
        let (x, y) = (x + shift, y + shift);
        svg.open(
            &format!("police-{i}"),
            &format!("policeman facing-{}", p.facing.word()),
        );
        // He watches every street ahead of him, to the board's edge.
        let mut end = p.at;
        while let Some(next) = grid.post_towards(end, p.facing) {
            end = next;
        }
        if end != p.at {
            let (ex, ey) = post_centre(end);
            svg.line(x, y, ex + shift, ey + shift, "sight");
        }
        let (dx, dy) = match p.facing {
            Facing::North => (0, -1),
            Facing::East => (1, 0),
            Facing::South => (0, 1),
            Facing::West => (-1, 0),
        };
        svg.line(x, y, x + dx * 16, y + dy * 16, "facing");
        svg.circle(x, y, 9, "police-token");
        svg.text(x, y + 4, "middle", "police-text", &i.to_string());
        svg.close();
    }

    // Thieves, grouped by the space they share.
    let current = state.turn().map(|t| t.seat as usize);
    let mut spaces: Vec<Space> = state.thieves.iter().map(|t| t.at).collect();
    spaces.sort();
    spaces.dedup();
    for space in spaces {
        let here: Vec<usize> = (0..state.thieves.len())
            .filter(|&i| state.thieves[i].at == space)
            .collect();
        let area = space_area(state, space);
        for (k, &i) in here.iter().enumerate() {
            let t = &state.thieves[i];
            let (x, y) = spot(area, k, here.len());
            let mut class = format!("thief seat-{i}");
            if current == Some(i) {
                class.push_str(" current");
            }
            if t.in_prison {
                class.push_str(" imprisoned");
            }
            // Sharing a block space, tokens shrink and names stack above it.
            let crowded = here.len() > 1 && matches!(space, Space::Cell { .. });
            let (radius, name_y) = if crowded {
                (7, area.y - 3 - 12 * (here.len() - 1 - k) as i32)
            } else {
                (9, y - 12)
            };
            let name_x = if crowded { area.x + area.w / 2 } else { x };
            svg.open(&format!("thief-{i}"), &class);
            svg.circle(x, y, radius, &format!("token seat-{i}"));
            svg.text(x, y + 4, "middle", "token-text", &i.to_string());
            svg.text(
                name_x,
                name_y,
                "middle",
                "thief-name",
                &short(&t.player, 10),
            );
            svg.close();
        }
    }

    // The panel.
    svg.rect(
        0,
        board_h + 8,
        width as u32,
        (height - board_h - 8) as u32,
        "panel-bg",
    );
    let mut y = panel_top + 8 + LINE - 5;
    for e in &entries {
        if let Some((id, class)) = &e.group {
            svg.open(id, class);
        }
        for line in &e.lines {
            for p in line {
                if let Some((id, class)) = &p.group {
                    svg.open(id, class);
                }
                if let Some(seat) = p.swatch {
                    svg.circle(8 + 6, y - 5, 6, &format!("swatch seat-{seat}"));
                }
                svg.text(8 + p.x, y, "start", &p.class, &p.text);
                if p.group.is_some() {
                    svg.close();
                }
            }
            y += LINE;
        }
        if e.group.is_some() {
            svg.close();
        }
    }

    svg.finish()
}
