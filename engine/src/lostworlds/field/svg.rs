//! A scenario's map drawn as SVG, above the fighters' sheets: hexes shaded
//! by level (steps marked, walls and pillars dark), the objects lying on
//! them, and each figure in its seat's colour with a line towards the space
//! it leaves undefended. Nothing on the board is secret.

use serde_json::json;
use tabletape_events::Seat;

use crate::lostworlds::actions::Condition;
use crate::lostworlds::field::content::{Ground, Hex};
use crate::lostworlds::field::state::Position;
use crate::lostworlds::state::State;
use crate::svg::Svg;

/// The map's size in the drawing for a width: hex radius, width, height.
pub fn size(state: &State, width: i32) -> Option<(f64, i32)> {
    let field = state.field.as_deref()?;
    let t = field.terrain();
    let fit = f64::from(width) / (3f64.sqrt() * (t.cols as f64 + 0.5));
    let r = fit.min(22.0);
    let height = (r * (1.5 * t.rows as f64 + 0.5)).ceil() as i32 + 4;
    Some((r, height))
}

fn centre(h: Hex, r: f64, left: i32, top: i32) -> (f64, f64) {
    let w = 3f64.sqrt() * r;
    let x = f64::from(left) + w * (f64::from(h.col) + 0.5 + 0.5 * f64::from(h.row % 2));
    let y = f64::from(top) + r + 1.5 * r * f64::from(h.row);
    (x, y)
}

/// Draws the map with its top left corner at (`left`, `top`).
pub fn draw(svg: &mut Svg, state: &State, left: i32, top: i32, width: i32) {
    let Some(field) = state.field.as_deref() else {
        return;
    };
    let Some((r, _)) = size(state, width) else {
        return;
    };
    let t = field.terrain();
    svg.open("map", "map");
    for row in 0..t.rows {
        for col in 0..t.cols {
            let h = Hex {
                col: col as u8,
                row: row as u8,
            };
            let (cx, cy) = centre(h, r, left, top);
            let corners: Vec<(i32, i32)> = (0..6)
                .map(|i| {
                    let a = std::f64::consts::PI / 180.0 * (60.0 * f64::from(i) - 30.0);
                    (
                        (cx + (r - 0.5) * a.cos()).round() as i32,
                        (cy + (r - 0.5) * a.sin()).round() as i32,
                    )
                })
                .collect();
            let (class, label) = match t.at(h) {
                Some(Ground::Open { level }) => (format!("hex l{level}"), level.to_string()),
                Some(Ground::Step { level }) => (format!("hex l{level} step"), format!("{level}s")),
                Some(Ground::Wall) => ("hex wall".into(), String::new()),
                Some(Ground::Pillar) | None => ("hex pillar".into(), String::new()),
            };
            svg.open_pick(
                &format!("space-{h}"),
                "space",
                &json!({ "to": h.to_string() }),
            );
            svg.polygon(&corners, &class);
            svg.text(
                cx.round() as i32,
                (cy - r * 0.45).round() as i32,
                "middle",
                "hex-name",
                &format!("{h}"),
            );
            if !label.is_empty() && label != "0" {
                svg.text(
                    cx.round() as i32,
                    (cy + r * 0.75).round() as i32,
                    "middle",
                    "level",
                    &label,
                );
            }
            svg.close();
        }
    }
    for thing in field.things.iter().filter(|t| t.carried_by.is_none()) {
        let (cx, cy) = centre(thing.at, r, left, top);
        let k = field.kind_of(thing);
        let side = (r * 0.5).round() as u32;
        svg.open(&format!("object-{}", thing.id), "object");
        svg.rect(
            (cx + r * 0.15).round() as i32,
            (cy - r * 0.1).round() as i32,
            side,
            side,
            if k.tall { "thing tall" } else { "thing" },
        );
        svg.close();
    }
    for (i, p) in field.pieces.iter().enumerate() {
        // A body carried is drawn as its carrier's load, not as a figure;
        // Airi or a Wraith away on another plane is not on the board.
        if field.borne_by(i as Seat).is_some() || p.done.dematerialized {
            continue;
        }
        let (cx, cy) = centre(p.at, r, left, top);
        let fighter = state.seats[i].fighter();
        let look = match (fighter.condition, p.position) {
            (Condition::Fit, Position::Standing) => "figure",
            (Condition::Fit, Position::OffBalance) => "figure off-balance",
            (Condition::Fit, Position::Down) => "figure down",
            _ => "figure out",
        };
        svg.open(&format!("figure-{i}"), &format!("seat-{i}"));
        if let Some(u) = p.undefended {
            let (ux, uy) = centre(u, r, left, top);
            svg.line(
                cx.round() as i32,
                cy.round() as i32,
                ((cx + ux) / 2.0).round() as i32,
                ((cy + uy) / 2.0).round() as i32,
                "undefended",
            );
        }
        svg.circle(
            (cx - r * 0.2).round() as i32,
            (cy + r * 0.1).round() as i32,
            (r * 0.42).round() as u32,
            &format!("swatch {look}"),
        );
        svg.text(
            (cx - r * 0.2).round() as i32,
            (cy + r * 0.28).round() as i32,
            "middle",
            "figure-seat",
            &i.to_string(),
        );
        svg.close();
    }
    svg.close();
}

/// The map's own look, added to the sheets' style sheet.
pub const STYLE: &str = ".hex{stroke:#fff;stroke-width:1}\
.l0{fill:#d9d2b6}.l1{fill:#c9bf98}.l2{fill:#b8ab7c}.l3{fill:#a79865}.l4{fill:#958552}\
.l5{fill:#837343}.l6{fill:#726236}.l7{fill:#62532b}.l8{fill:#534522}.l9{fill:#45381a}\
.step{stroke:#6b5a2e;stroke-dasharray:3 2}\
.wall{fill:#4a4a4a}.pillar{fill:#777}\
.hex-name{font-size:7px;fill:#5b5340}\
.level{font-size:9px;font-weight:bold;fill:#fff}\
.thing{fill:#8d5a2b;stroke:#3b2612}.thing.tall{fill:#5d3a1a}\
.figure{stroke:#111;stroke-width:1.5}.figure.off-balance{stroke-dasharray:3 2}\
.figure.down{fill-opacity:0.45}.figure.out{fill:#999 !important}\
.figure-seat{font-size:10px;font-weight:bold;fill:#fff}\
.undefended{stroke:#b3261e;stroke-width:2}";
