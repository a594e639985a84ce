//! The fight drawn as SVG (`Rules::render_svg`): one sheet per seat, stacked
//! so that it reads on a phone. Each sheet shows the fighter, a bar of body
//! points, the picture that fighter sees of each opponent, the orders in
//! force and where its choice for this exchange stands.
//!
//! A choice held until every seat has chosen is drawn as "chosen" or
//! "sealed" for everyone but its own seat and the owner, exactly as the text
//! picture (`narration::render`) hides it.

use tabletape_events::Seat;

use crate::lostworlds::duel::narration::{
    chapter, ending_line, maneuver_words, picture_words, samples_note,
};
use crate::lostworlds::state::{Pending, Phase, SeatStatus, State};
use crate::rules::Viewer;
use crate::svg::{short, Svg};

const WIDTH: i32 = 360;
const MARGIN: i32 = 8;
const LINE: i32 = 17;
/// Characters of body text that fit across a sheet at 13px.
const LINE_CHARS: usize = 50;

const STYLE: &str = "<style>\
svg{font-family:sans-serif}\
.heading{font-size:15px;font-weight:bold;fill:#222}\
.sheet{fill:#fff;stroke:#9a9384;stroke-width:1}\
.sheet.down{fill:#f4eeee}\
.sheet.escaped{fill:#eef1f4}\
.name{font-size:15px;font-weight:bold;fill:#222}\
.who{font-size:12px;fill:#555}\
.line{font-size:13px;fill:#222}\
.orders{font-size:13px;fill:#7a2e12;font-style:italic}\
.choice{font-size:13px;font-weight:bold;fill:#1f4f8a}\
.bar-bg{fill:#e6e1d6}\
.bar{fill:#2e7d32}\
.bar.low{fill:#c77c02}\
.bar.out{fill:#b3261e}\
.bar-text{font-size:11px;font-weight:bold;fill:#222}\
.outcome{font-size:14px;font-weight:bold;fill:#222}\
.note{font-size:11px;fill:#666;font-style:italic}\
.seat-0 .swatch{fill:#c0392b}.seat-1 .swatch{fill:#2471a3}.seat-2 .swatch{fill:#b9770e}\
.seat-3 .swatch{fill:#1e8449}.seat-4 .swatch{fill:#8e44ad}.seat-5 .swatch{fill:#00838f}\
</style>";

/// One line of a sheet and its look.
struct Row {
    class: &'static str,
    text: String,
}

/// The drawing of `state` for `viewer`.
pub fn render(state: &State, viewer: Viewer) -> String {
    let sheets: Vec<(Seat, Vec<Row>)> = (0..state.seats.len() as Seat)
        .map(|seat| (seat, rows(state, seat, viewer)))
        .collect();
    let outcome = state
        .outcome
        .as_ref()
        .map(|o| wrap(&ending_line(state, o.ending, &o.victors), LINE_CHARS))
        .unwrap_or_default();
    let note = samples_note(state)
        .map(|n| wrap(&n, LINE_CHARS + 6))
        .unwrap_or_default();
    let map = crate::lostworlds::field::svg::size(state, WIDTH - 2 * MARGIN).map(|(_, h)| h);
    let board = state
        .field
        .as_ref()
        .map(|_| {
            crate::lostworlds::field::narration::board_lines(state)
                .iter()
                .flat_map(|l| wrap(l, LINE_CHARS + 6))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    let mut height = MARGIN + 22;
    height += map.map_or(0, |h| h + MARGIN);
    height += 14 * board.len() as i32;
    for (_, rows) in &sheets {
        height += sheet_height(rows) + MARGIN;
    }
    height += LINE * outcome.len() as i32 + MARGIN;
    height += LINE * note.len() as i32;

    let mut svg = Svg::new(
        WIDTH as u32,
        height as u32,
        &format!("Lost Worlds: {}", chapter(state)),
    );
    svg.text(MARGIN, MARGIN + 14, "start", "heading", &heading(state));
    let mut y = MARGIN + 22;
    if let Some(h) = map {
        crate::lostworlds::field::svg::draw(&mut svg, state, MARGIN, y, WIDTH - 2 * MARGIN);
        y += h + MARGIN;
        for line in &board {
            svg.text(MARGIN, y + 10, "start", "note", line);
            y += 14;
        }
    }
    for (seat, rows) in &sheets {
        sheet(&mut svg, state, *seat, rows, y);
        y += sheet_height(rows) + MARGIN;
    }
    for line in &note {
        y += LINE;
        svg.text(MARGIN, y, "start", "note", line);
    }
    for line in &outcome {
        y += LINE;
        svg.text(MARGIN, y, "start", "outcome", line);
    }

    let drawn = svg.finish();
    // The style sheet is a constant of this module (no text from the table).
    match drawn.find("</title>") {
        Some(i) => {
            let at = i + "</title>".len();
            let map = if state.field.is_some() {
                crate::lostworlds::field::svg::STYLE
            } else {
                ""
            };
            let style = STYLE.replace("</style>", &format!("{map}</style>"));
            format!("{}{style}{}", &drawn[..at], &drawn[at..])
        }
        None => drawn,
    }
}

fn heading(state: &State) -> String {
    if let Some(f) = state.field.as_deref() {
        return format!("{} · {}", f.scenario.title, chapter(state));
    }
    match state.phase {
        Phase::Fighting => format!("{} · {} resolved", chapter(state), state.exchanges),
        Phase::Aftermath => "After the fight: experience".to_string(),
        Phase::Closed => "The fight is over".to_string(),
    }
}

/// Name line, body bar, then the rows.
fn sheet_height(rows: &[Row]) -> i32 {
    20 + 22 + LINE * rows.len() as i32 + 10
}

fn sheet(svg: &mut Svg, state: &State, seat: Seat, rows: &[Row], top: i32) {
    let st = state.seat(seat);
    let f = st.fighter();
    let status = match st.status {
        SeatStatus::Fighting => "fighting",
        SeatStatus::Down => "down",
        SeatStatus::Escaped => "escaped",
        SeatStatus::Aside => "on the map",
    };
    svg.open(&format!("seat-{seat}"), &format!("fighter seat-{seat}"));
    svg.rect(
        MARGIN,
        top,
        (WIDTH - 2 * MARGIN) as u32,
        sheet_height(rows) as u32,
        &format!("sheet {status}"),
    );
    svg.circle(MARGIN + 12, top + 14, 6, "swatch");
    svg.text(
        MARGIN + 24,
        top + 19,
        "start",
        "name",
        &short(&state.seat_name(seat), 24),
    );
    svg.text(
        WIDTH - MARGIN - 8,
        top + 19,
        "end",
        "who",
        &short(&format!("{} · height {}", st.player, f.sheet.height), 24),
    );
    body_bar(svg, f.body, f.sheet.body_points, top + 26);
    let mut y = top + 42;
    for row in rows {
        y += LINE;
        svg.text(MARGIN + 10, y, "start", row.class, &row.text);
    }
    svg.close();
}

/// Body points left as a bar across the sheet; empty (and red) at zero or less.
fn body_bar(svg: &mut Svg, body: i32, max: i32, y: i32) {
    let full = (WIDTH - 2 * MARGIN - 20) as u32;
    let left = if max > 0 {
        (body.clamp(0, max) as u32 * full) / max as u32
    } else {
        0
    };
    let class = if body <= 0 {
        "bar out"
    } else if body * 3 <= max {
        "bar low"
    } else {
        "bar"
    };
    svg.rect(MARGIN + 10, y, full, 14, "bar-bg");
    if left > 0 {
        svg.rect(MARGIN + 10, y, left, 14, class);
    }
    svg.text(
        MARGIN + 14,
        y + 11,
        "start",
        "bar-text",
        &format!("{body} of {max} body points"),
    );
}

/// Every line of one seat's sheet, as `viewer` may read it.
fn rows(state: &State, seat: Seat, viewer: Viewer) -> Vec<Row> {
    let st = state.seat(seat);
    let f = st.fighter();
    let mut out = Vec::new();
    let mut push = |class: &'static str, text: String| {
        for line in wrap(&text, LINE_CHARS) {
            out.push(Row { class, text: line });
        }
    };
    let status = match st.status {
        SeatStatus::Fighting if st.escaping => "fighting, trying to escape",
        SeatStatus::Fighting => "fighting",
        SeatStatus::Down => "down",
        SeatStatus::Escaped => "escaped",
        SeatStatus::Aside => "on the map",
    };
    push("line", format!("{}: {status}", f.sheet.title));
    for (i, member) in st.party.iter().enumerate() {
        if i != st.active {
            push(
                "line",
                format!(
                    "In the party: {} ({} of {} body points)",
                    member.sheet.name, member.body, member.sheet.body_points
                ),
            );
        }
    }
    for (foe, sight) in &st.sights {
        let mark = sight
            .party
            .map(|m| format!(" ({})", m.symbol()))
            .unwrap_or_default();
        push(
            "line",
            format!(
                "Sees {}: {}, {}{mark}",
                state.seat_name(*foe),
                picture_words(sight.picture, sight.title.as_deref()),
                sight.range.words()
            ),
        );
    }
    let orders = st.orders.texts();
    if orders.is_empty() {
        push("orders", "Orders: none".into());
    }
    for text in orders {
        push("orders", format!("Orders: \"{text}\""));
    }
    for note in &st.orders.notes {
        push("orders", format!("Note: {note}"));
    }
    if let Some(cards) = crate::lostworlds::duel::narration::cards_words(state, seat, viewer) {
        push("line", format!("Cards: {cards}"));
    }
    for b in &st.boosts {
        push(
            "line",
            format!(
                "In effect: {}",
                crate::lostworlds::duel::narration::boost_words(b)
            ),
        );
    }
    if state.phase == Phase::Fighting && st.status == SeatStatus::Fighting {
        let choice = match state.pending.get(&seat) {
            None => "Choosing a maneuver".to_string(),
            Some(Pending::Committed { .. }) => "Chosen (sealed)".to_string(),
            Some(Pending::Chosen { page, .. }) if state.sees(viewer, seat) => {
                match f.sheet.maneuver_at(*page) {
                    Some((_, m)) => format!("Chosen: {}", maneuver_words(m)),
                    None => format!("Chosen: page {page}"),
                }
            }
            Some(Pending::Chosen { .. }) => "Chosen".to_string(),
        };
        push("choice", choice);
    }
    if state.phase != Phase::Fighting {
        push(
            "line",
            format!(
                "Experience {}, advancements to spend {}",
                f.sheet.experience, f.advancements
            ),
        );
    }
    out
}

/// `text` broken into lines of at most `width` characters, at spaces where
/// it can be.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
        while line.chars().count() > width {
            let head: String = line.chars().take(width).collect();
            let rest: String = line.chars().skip(width).collect();
            lines.push(head);
            line = rest;
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}
