//! The sheets drawn: as the state says, with a held choice hidden.

use super::*;

/// Every text of an SVG drawing, joined by spaces (wrapped lines rejoin).
fn svg_text(svg: &str) -> String {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}: {svg}"));
    assert!(doc.root_element().has_tag_name("svg"));
    assert!(doc.root_element().attribute("viewBox").is_some());
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ")
}

/// What one seat's sheet says, from its `seat-N` group.
fn sheet_text(svg: &str, seat: u32) -> String {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let group = doc
        .descendants()
        .find(|n| n.attribute("id") == Some(format!("seat-{seat}").as_str()))
        .unwrap_or_else(|| panic!("no sheet for seat {seat}: {svg}"));
    group
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_svg_draws_each_sheet_as_the_state_says() {
    let mut game = duel_game("full");
    step(&mut game, Some(0), json!({"type": "choose", "page": 50}));
    step(
        &mut game,
        Some(1),
        json!({"type": "choose", "maneuver": "Extended Range Dodge"}),
    );
    let svg = game.render_svg(Viewer::Owner);
    let view = game.view(Viewer::Owner);
    for seat in 0..2u32 {
        let st = &view["seats"][seat as usize];
        let fighter = &st["party"][st["active"].as_u64().unwrap() as usize];
        let sheet = sheet_text(&svg, seat);
        let body = format!(
            "{} of {} body points",
            fighter["body"], fighter["sheet"]["body_points"]
        );
        assert!(sheet.contains(&body), "{body} not in {sheet}");
        assert!(sheet.contains(fighter["sheet"]["name"].as_str().unwrap()));
        let foe = 1 - seat;
        let picture = &st["sights"][foe.to_string()]["picture"];
        assert!(
            sheet.contains(&format!("picture {picture}")),
            "picture {picture} not in {sheet}"
        );
        assert!(sheet.contains("Choosing a maneuver"), "{sheet}");
    }
    assert!(svg_text(&svg).contains("Exchange 2"), "{svg}");
}

#[test]
fn the_svg_hides_a_pending_choice_from_the_other_seat_and_the_public() {
    let mut game = duel_game("full");
    step(&mut game, Some(0), json!({"type": "choose", "page": 50}));
    for viewer in OTHERS {
        let text = svg_text(&game.render_svg(viewer));
        hides(&text, &["Charge", "page 50"], "the drawing");
        assert!(sheet_text(&game.render_svg(viewer), 0).contains("Chosen"));
    }
    for viewer in [Viewer::Owner, Viewer::Seat(0)] {
        let sheet = sheet_text(&game.render_svg(viewer), 0);
        assert!(
            sheet.contains("Chosen: Extended Range Charge (page 50"),
            "{sheet}"
        );
    }
    // A sealed choice is sealed for everyone, the owner included.
    let mut sealed = duel_game("full");
    let hash = decide::commitment(50, "pepper");
    step(
        &mut sealed,
        Some(1),
        json!({"type": "commit", "hash": hash}),
    );
    for viewer in [Viewer::Owner, Viewer::Seat(0), Viewer::Public] {
        let sheet = sheet_text(&sealed.render_svg(viewer), 1);
        assert!(sheet.contains("Chosen (sealed)"), "{sheet}");
        hides(&sheet, &["page 50"], "a sealed sheet");
    }
}

#[test]
fn the_svg_tells_the_end_of_a_whole_duel() {
    let state = play(&mini_pack(), 2, json!({"characters": "ash,bryn"}), 7);
    let svg = LostWorlds::render_svg(&state, Viewer::Public);
    let text = svg_text(&svg);
    let outcome = state.outcome.as_ref().expect("the duel ended");
    let ending = narration::ending_line(&state, outcome.ending, &outcome.victors);
    let opening: String = ending.split(' ').take(4).collect::<Vec<_>>().join(" ");
    assert!(text.contains(&opening), "{opening:?} not in {text}");
    assert!(text.starts_with("After the fight"), "{text}");
}

#[test]
fn wrap_breaks_at_spaces_and_cuts_long_words() {
    use tabletape_engine::lostworlds::duel::svg::wrap;
    assert_eq!(wrap("a bb ccc", 4), vec!["a bb", "ccc"]);
    assert_eq!(wrap("abcdefgh", 3), vec!["abc", "def", "gh"]);
    assert_eq!(wrap("", 5), vec![""]);
}
