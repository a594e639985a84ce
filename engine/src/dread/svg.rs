//! London drawn as SVG (`Rules::render_svg`) for one viewer.
//!
//! Four area panels (North, East / West, South), each with its six
//! location cards (face down, a Dread card with its difficulty and dread,
//! a Plot card with its letter and time, an Ally, or cleared) and its
//! Streets, the characters' medallions where they stand; then the dread
//! track with a mark at every 5 (one more fist at the showdown); then a
//! line per character: the action clock's twelve slots with their tokens,
//! conditions, virtues and items.
//!
//! Ids a page can tap: `loc-north-3`, `streets-west`, `medallion-0`,
//! `clock-0-5` (character 0's slot 5); medallions and clock slots carry
//! `data-pick` with the character (and slot) their actions name.

use super::state::{hour, Area, Face, Phase, Place, Spot, State, AREAS, DREAD_LIMIT};
use crate::rules::Viewer;
use crate::svg::{short, wrapped, Svg};

const PANEL_W: i32 = 300;
/// The area's name, two rows of cards and the streets.
const PANEL_H: i32 = 22 + 2 * CARD_H + GAP + 24;
const CARD_W: i32 = 94;
/// Tall enough for a three-line name and its difficulty beneath.
const CARD_H: i32 = 70;
const GAP: i32 = 6;
const MARGIN: i32 = 8;
const WIDTH: i32 = 2 * PANEL_W + 3 * MARGIN;
const ROW: i32 = 58;

const STYLE: &str = "<style>\
svg{font-family:sans-serif}\
.bg{fill:#1d1f24}\
.panel{fill:#2b2e36;stroke:#555a66;stroke-width:1}\
.area{font-size:14px;font-weight:bold;fill:#d8d2c4}\
.down{fill:#3a3f4b;stroke:#6b7180}\
.dread{fill:#6e1f25;stroke:#c0464f}\
.plot{fill:#8a6a1e;stroke:#e6c05a}\
.ally{fill:#1f5a43;stroke:#5ac08e}\
.empty{fill:none;stroke:#444a55;stroke-dasharray:4 3}\
.card-t{font-size:11px;fill:#f4efe3}\
.card-s{font-size:10px;fill:#e8dcc0}\
.q{font-size:22px;fill:#8d93a1}\
.streets{fill:#23262d;stroke:#444a55}\
.med{stroke:#fff;stroke-width:2}\
.med-t{font-size:10px;font-weight:bold;fill:#fff}\
.track{fill:#2b2e36;stroke:#555a66}\
.fill{fill:#b3262f}\
.tick{stroke:#d8d2c4;stroke-width:1}\
.info{font-size:14px;fill:#f4efe3}\
.info.head{font-weight:bold;font-size:15px}\
.warn{fill:#ffb347}\
.slot{fill:#3a3f4b;stroke:#6b7180}\
.slot.now{stroke:#ffd75e;stroke-width:3}\
.tok{font-size:12px;font-weight:bold;fill:#f4efe3}\
.stash{fill:#7a3e8a}\
.c-0{fill:#d1495b}.c-1{fill:#2e86ab}.c-2{fill:#3c9d4e}.c-3{fill:#e08e0b}\
</style>";

fn panel_origin(area: Area) -> (i32, i32) {
    match area {
        Area::North => (MARGIN, MARGIN),
        Area::East => (2 * MARGIN + PANEL_W, MARGIN),
        Area::West => (MARGIN, 2 * MARGIN + PANEL_H),
        Area::South => (2 * MARGIN + PANEL_W, 2 * MARGIN + PANEL_H),
    }
}

fn card_origin(place: Place) -> (i32, i32) {
    let (x, y) = panel_origin(place.area);
    let i = (place.spot - 1) as i32;
    (
        x + GAP + (i % 3) * (CARD_W + GAP),
        y + 22 + (i / 3) * (CARD_H + GAP),
    )
}

fn initials(name: &str) -> String {
    name.split_whitespace()
        .filter_map(|w| w.chars().next())
        .take(2)
        .collect()
}

pub fn render(state: &State, viewer: Viewer) -> String {
    let n = state.characters.len() as i32;
    let board_h = 2 * PANEL_H + 3 * MARGIN;
    let height = board_h + 64 + n * ROW + MARGIN;
    let mut svg = Svg::new(WIDTH as u32, height as u32, "London Dread");
    svg.style(STYLE);
    svg.rect(0, 0, WIDTH as u32, height as u32, "bg");
    let board_shown = !state.in_endgame() && !state.over();
    for area in AREAS {
        let (x, y) = panel_origin(area);
        svg.rect(x, y, PANEL_W as u32, PANEL_H as u32, "panel");
        svg.text(x + GAP, y + 16, "start", "area", area.word());
        for spot in 1..=6u8 {
            let place = Place { area, spot };
            let (cx, cy) = card_origin(place);
            let id = format!("loc-{}-{spot}", area.word().to_ascii_lowercase());
            svg.open(&id, "location");
            let spot_state = &state.locations[place.index().expect("numbered")];
            match (board_shown, spot_state) {
                (false, _) | (true, Spot::Empty) => {
                    svg.rect(cx, cy, CARD_W as u32, CARD_H as u32, "empty");
                    svg.text(cx + 6, cy + 14, "start", "card-s", &spot.to_string());
                }
                (true, Spot::Down { card }) => {
                    svg.rect(cx, cy, CARD_W as u32, CARD_H as u32, "down");
                    svg.text(cx + 6, cy + 14, "start", "card-s", &spot.to_string());
                    match (viewer, card) {
                        (Viewer::Owner, Some(c)) => {
                            let name = match c {
                                super::state::Card::Placeholder => "plot?",
                                super::state::Card::Dread(n) | super::state::Card::Ally(n) => n,
                            };
                            let lines = wrapped(name, 15, 3);
                            let top = cy + 44 - 6 * (lines.len() as i32 - 1);
                            for (k, line) in lines.iter().enumerate() {
                                let y = top + 12 * k as i32;
                                svg.text(cx + CARD_W / 2, y, "middle", "card-s", line);
                            }
                        }
                        _ => {
                            svg.text(cx + CARD_W / 2, cy + 44, "middle", "q", "?");
                        }
                    }
                }
                (true, Spot::Up { face }) => {
                    // A plot's letter goes beside the spot's number, so its
                    // name has both lines to itself.
                    let mut corner = spot.to_string();
                    let (class, title, sub) = match face {
                        Face::Dread(name) => {
                            let c = state.cards.dread.get(name);
                            (
                                "dread",
                                name.clone(),
                                c.map(|c| {
                                    format!("diff {} \u{2022} dread {}", c.difficulty, c.dread)
                                })
                                .unwrap_or_default(),
                            )
                        }
                        Face::Plot(l) => {
                            let p = state.plot(*l);
                            corner = format!("{spot} \u{b7} plot {l}");
                            (
                                "plot",
                                p.map_or(String::new(), |p| p.name.clone()),
                                p.map(|p| format!("{} \u{2022} dread {}", p.time.word(), p.dread))
                                    .unwrap_or_default(),
                            )
                        }
                        Face::Ally(name) => ("ally", name.clone(), "Ally".to_string()),
                    };
                    svg.rect(cx, cy, CARD_W as u32, CARD_H as u32, class);
                    svg.text(cx + 6, cy + 14, "start", "card-s", &corner);
                    // A name is read whole: up to three lines, centred
                    // between the spot's number and the card's figures.
                    let lines = wrapped(&title, 14, 3);
                    let top = cy + 40 - 6 * (lines.len() as i32 - 1);
                    for (k, line) in lines.iter().enumerate() {
                        svg.text(cx + 6, top + 12 * k as i32, "start", "card-t", line);
                    }
                    svg.text(cx + 6, cy + 64, "start", "card-s", &sub);
                }
            }
            svg.close();
        }
        let sy = y + PANEL_H - 20;
        svg.open(
            &format!("streets-{}", area.word().to_ascii_lowercase()),
            "streets-g",
        );
        svg.rect(x + GAP, sy, (PANEL_W - 2 * GAP) as u32, 16, "streets");
        svg.text(x + PANEL_W - GAP - 4, sy + 12, "end", "card-s", "Streets");
        svg.close();
    }
    // Medallions, side by side where several stand.
    if board_shown {
        let mut seen: Vec<(Place, i32)> = Vec::new();
        for (i, c) in state.characters.iter().enumerate() {
            if c.defeated {
                continue;
            }
            let k = match seen.iter_mut().find(|(p, _)| *p == c.place) {
                Some((_, k)) => {
                    *k += 1;
                    *k
                }
                None => {
                    seen.push((c.place, 0));
                    0
                }
            };
            let (mx, my) = if c.place.is_streets() {
                let (x, y) = panel_origin(c.place.area);
                (x + GAP + 12 + 22 * k, y + PANEL_H - 12)
            } else {
                let (x, y) = card_origin(c.place);
                (x + CARD_W - 12 - 20 * k, y + 12)
            };
            svg.open_pick(
                &format!("medallion-{i}"),
                "piece",
                &serde_json::json!({ "character": i }),
            );
            svg.circle(mx, my, 10, &format!("med c-{i}"));
            svg.text(mx, my + 4, "middle", "med-t", &initials(&c.name));
            svg.close();
        }
    }
    // The dread track.
    let ty = board_h + 4;
    let track_w = WIDTH - 2 * MARGIN;
    svg.rect(MARGIN, ty, track_w as u32, 18, "track");
    let filled = (state.dread.min(DREAD_LIMIT) as i32 * track_w) / DREAD_LIMIT as i32;
    if filled > 0 {
        svg.rect(MARGIN, ty, filled as u32, 18, "fill");
    }
    for d in (5..DREAD_LIMIT).step_by(5) {
        let x = MARGIN + (d as i32 * track_w) / DREAD_LIMIT as i32;
        svg.line(x, ty, x, ty + 18, "tick");
    }
    let status = match &state.phase {
        Phase::Planning {
            ends_at_ms: Some(end),
            ..
        } => format!("Planning until {}", super::decide::clock_time(*end)),
        Phase::Planning { .. } => "Planning".to_string(),
        Phase::Story { action: 0 } => "Story phase: about to begin".to_string(),
        Phase::Story { action } => {
            format!("Story phase: {} (action {action} of 12)", hour(*action))
        }
        Phase::Endgame(_) => format!(
            "Endgame: challenge {} of up to {}",
            state.faced.len(),
            state.most_challenges
        ),
        Phase::Showdown { needed } => format!(
            "Final Showdown with {}: {needed} fists needed",
            state.story.antagonist.name
        ),
        Phase::Over => match &state.outcome {
            Some(o) if o.won => format!("Won: {}", o.why),
            Some(o) => format!("Lost: {}", o.why),
            None => "Over".into(),
        },
    };
    svg.text(
        MARGIN,
        ty + 40,
        "start",
        "info head",
        &format!("Dread {} \u{2022} {status}", state.dread),
    );
    // A line per character.
    let action_now = match state.phase {
        Phase::Story { action } => Some(action),
        _ => None,
    };
    for (i, c) in state.characters.iter().enumerate() {
        let y = board_h + 64 + i as i32 * ROW;
        svg.circle(MARGIN + 10, y + 10, 9, &format!("med c-{i}"));
        svg.text(MARGIN + 10, y + 14, "middle", "med-t", &initials(&c.name));
        let mut head = c.name.clone();
        if c.defeated {
            head.push_str(" (defeated)");
        }
        for cond in &c.conditions {
            head.push_str(&format!(" \u{2022} {}", cond.word()));
        }
        head.push_str(&format!(" \u{2022} virtues {}", c.virtues));
        if state.in_endgame() {
            head.push_str(&format!(
                " \u{2022} {} dice, {} cards",
                c.dice,
                c.hand.len()
            ));
        }
        if !c.items.is_empty() {
            let items: Vec<String> = c.items.iter().map(|h| short(&h.name, 14)).collect();
            head.push_str(&format!(" \u{2022} {}", items.join(", ")));
        }
        svg.text(MARGIN + 24, y + 15, "start", "info", &short(&head, 80));
        if matches!(state.phase, Phase::Planning { .. } | Phase::Story { .. }) {
            let sw = (WIDTH - 2 * MARGIN - 11 * 3) / 12;
            for s in 0..12 {
                let x = MARGIN + s * (sw + 3);
                let now = action_now == Some(s as u8 + 1);
                svg.open_pick(
                    &format!("clock-{i}-{}", s + 1),
                    "slot-g",
                    &serde_json::json!({"character": i, "slot": s + 1}),
                );
                svg.rect(
                    x,
                    y + 22,
                    sw as u32,
                    26,
                    if now { "slot now" } else { "slot" },
                );
                if let Some(t) = c.clock[s as usize] {
                    if t.stash {
                        svg.rect(x + 2, y + 24, (sw - 4) as u32, 22, "stash");
                    }
                    let label = match t.arrow {
                        Some(Area::North) => "\u{2191}N".to_string(),
                        Some(Area::South) => "\u{2193}S".to_string(),
                        Some(Area::East) => "\u{2192}E".to_string(),
                        Some(Area::West) => "\u{2190}W".to_string(),
                        None => t.number.to_string(),
                    };
                    svg.text(x + sw / 2, y + 40, "middle", "tok", &label);
                }
                svg.close();
            }
        }
    }
    svg.finish()
}
