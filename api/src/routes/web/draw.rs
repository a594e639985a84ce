//! The drawing pages: a table draws its own board (Legless's London, a Lost
//! Worlds scenario map) and saves it as a content pack.

use super::*;

#[utoipa::path(
    get,
    path = "/draw/legless",
    tag = "web",
    summary = "A page to draw a Legless in London board by tapping a grid, save it as a pack file and start a game on it",
    responses((status = 200, description = "HTML", body = String, content_type = "text/html")),
    security((), ("bearer" = []))
)]
pub(crate) async fn draw_legless() -> Response {
    // What the page starts from: the bundled board, its locations and the
    // characters' start squares (a board of the table's own moves them).
    let bundled = bundled_pack("legless");
    let start = serde_json::json!({
        "board": bundled["board"],
        "locations": fields_of(&bundled, "locations", &["id", "name", "spaces"]),
        "characters": fields_of(&bundled, "characters", &["name", "start"]),
    });
    draw_page(
        "legless",
        "Draw a Legless in London board",
        "Choose what to lay, then tap squares: streets, squares with a Street Event symbol, the locations (each as many squares as it covers on your board) and each character's start; add or take away rows and columns to fit your board, and give each location your box's name and victory spaces. The rest of the box stays as bundled.",
        &start,
    )
}

#[utoipa::path(
    get,
    path = "/draw/lostworlds",
    tag = "web",
    summary = "A page to draw a Lost Worlds scenario's map by tapping its spaces, save it as a pack file and start a game on it",
    responses((status = 200, description = "HTML", body = String, content_type = "text/html")),
    security((), ("bearer" = []))
)]
pub(crate) async fn draw_lostworlds() -> Response {
    // The bundled scenarios to start from, and the characters to field.
    let bundled = bundled_pack("lostworlds");
    let start = serde_json::json!({
        "scenarios": bundled["scenarios"],
        "characters": fields_of(&bundled, "characters", &["id", "name"]),
    });
    draw_page(
        "lostworlds",
        "Draw a Lost Worlds scenario",
        "Start from a scenario of the box, then tap spaces: open ground and steps at their level, walls and pillars; move each figure and object to its space; size the map, name the scenario and its sides, and set each side's goal (its goal spaces tapped on the map), its points and the turns. The rest of the box stays as bundled.",
        &start,
    )
}

fn bundled_pack(kind: &str) -> serde_json::Value {
    tabletape_engine::kind(kind)
        .map(|k| k.default_pack())
        .unwrap_or_default()
}

/// Each entry of a bundled pack's `list` with only `fields`.
fn fields_of(pack: &serde_json::Value, list: &str, fields: &[&str]) -> Vec<serde_json::Value> {
    pack[list]
        .as_array()
        .into_iter()
        .flatten()
        .map(|entry| {
            fields
                .iter()
                .map(|f| (f.to_string(), entry[*f].clone()))
                .collect::<serde_json::Map<_, _>>()
                .into()
        })
        .collect()
}

/// A drawing page for `kind`: the grid (drawn by `draw.js` from `start`),
/// the pack file it makes, and the new-game form to play on it.
fn draw_page(kind: &str, title: &str, hint: &str, start: &serde_json::Value) -> Response {
    let mut h = String::new();
    let _ = write!(
        h,
        r##"<main id="drawing"><h1>{title}</h1><p class="hint">{hint} Then save the pack file to share, or start a game on it below.</p>
<div id="draw" data-kind="{kind}" data-start="{start}"></div>
<p><label for="drawn-pack">The pack file</label><textarea id="drawn-pack" data-kind="{kind}" rows="4" readonly></textarea></p>
<p><a id="save-pack" download="our-{kind}.pack.json" href="#">Save the pack file</a></p>
<section id="new" aria-label="new game on this drawing"><h2>A game on it</h2>"##,
        title = esc(title),
        hint = esc(hint),
        kind = esc(kind),
        start = esc(&start.to_string())
    );
    h += &new_game_form();
    h += r#"</section></main><script src="/assets/draw.js" defer></script>"#;
    html(StatusCode::OK, title, &h)
}
