//! The map drawn: as text and as SVG, every square, Reach and Corner, the
//! pieces where the state says, and the table's words escaped.

use super::*;

#[test]
fn render_draws_the_map_with_symbols_occupants_and_objects() {
    let mut t = crossroads();
    t.place("monster", &["c4"]);
    let text = t.game.render(tabletape_engine::Viewer::Owner);
    println!("{text}");
    assert!(
        text.contains("#0A0 |0A1 #"),
        "Ada's claim, her Avatar and Bo's:\n{text}"
    );
    assert!(text.contains("Symbols: 0 Ada (\"sym0\")"), "{text}");
    assert!(text.contains("Score so far: Ada 1, Bo 0, Cy 0"), "{text}");
    // The grid fits a phone's width, the Reaches' borders drawn apart.
    let grid: Vec<&str> = text.lines().skip(1).take(14).collect();
    assert!(grid.iter().all(|l| l.chars().count() <= 34), "{text}");
    assert_eq!(grid[1], "  #====#====#====#====#====#====#");
    assert_eq!(grid[3], "  #----+----#----+----#----+----#");
    assert!(text.contains("A0"), "Ada's Avatar:\n{text}");
    assert!(text.contains("M0"), "Ada's Monster:\n{text}");
    assert!(
        text.contains("#7 a monster (Ada's Monster) at c4"),
        "{text}"
    );
    assert!(text.contains("- c3: scenery of c3"), "{text}");
}

/// The drawing, parsed: the `g` element with `id`, if any.
fn svg_group<'a>(doc: &'a roxmltree::Document<'a>, id: &str) -> Option<roxmltree::Node<'a, 'a>> {
    doc.descendants()
        .find(|n| n.has_tag_name("g") && n.attribute("id") == Some(id))
}

fn svg_texts(node: roxmltree::Node<'_, '_>) -> Vec<String> {
    node.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").to_string())
        .collect()
}

#[test]
fn svg_draws_every_square_reach_and_corner_with_labels() {
    let t = Table::started(4, json!({}));
    let out = t.game.render_svg(tabletape_engine::Viewer::Owner);
    let doc = roxmltree::Document::parse(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let root = doc.root_element();
    assert!(root.has_tag_name("svg") && root.attribute("viewBox").is_some());
    let squares: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("id").is_some_and(|id| id.starts_with("sq-")))
        .collect();
    assert_eq!(squares.len(), 36);
    for col in ['a', 'b', 'c', 'd', 'e', 'f'] {
        for row in 1..=6 {
            let name = format!("{col}{row}");
            let g = svg_group(&doc, &format!("sq-{name}")).unwrap_or_else(|| panic!("no {name}"));
            assert!(g.attribute("class").unwrap().contains("square"));
            assert!(svg_texts(g).contains(&name), "{name}: {:?}", svg_texts(g));
        }
    }
    let axis: Vec<String> = doc
        .descendants()
        .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("axis")))
        .map(|n| n.text().unwrap_or("").to_string())
        .collect();
    for label in ["a", "b", "c", "d", "e", "f", "1", "2", "3", "4", "5", "6"] {
        assert!(axis.iter().any(|a| a == label), "axis {label}: {axis:?}");
    }
    for large in 0..9 {
        assert!(svg_group(&doc, &format!("large-{large}")).is_some());
    }
    // The four Corners, each Avatar waiting at its own.
    for corner in 0..4u32 {
        let g = svg_group(&doc, &format!("corner-{corner}")).unwrap();
        let avatar = 1 + 2 * corner;
        let piece = svg_group(&doc, &format!("piece-{avatar}")).unwrap();
        assert!(piece.ancestors().any(|a| a == g), "Avatar #{avatar}");
    }
    // The panel: the round, whose turn, each Symbol.
    let panel = svg_texts(svg_group(&doc, "panel").unwrap()).join("\n");
    assert!(panel.contains("Round 1 of 7: Ada's turn"), "{panel}");
    for seat in 0..4 {
        assert!(panel.contains(&format!("sym{seat}")), "{panel}");
    }
    assert_eq!(
        out,
        t.game.render_svg(tabletape_engine::Viewer::Seat(2)),
        "nothing is secret"
    );
}

#[test]
fn svg_shows_a_legally_placed_piece_on_its_square() {
    let mut t = Table::started(3, json!({}));
    let item = t
        .game
        .legal(None)
        .into_iter()
        .map(|l| l.with_words())
        .find(|l| {
            l.needs.is_empty()
                && l.action["type"] == "place"
                && l.action["object"]["category"] == "item"
                && l.action["squares"] == json!(["d4"])
        })
        .expect("an Item on d4 is legal");
    t.act(item.action);
    let id = t.state()["next_id"].as_u64().unwrap() - 1;
    assert_eq!(t.at(id as u32), on("d4"));
    let out = t.game.render_svg(tabletape_engine::Viewer::Owner);
    let doc = roxmltree::Document::parse(&out).unwrap();
    let square = svg_group(&doc, "sq-d4").unwrap();
    let piece = svg_group(&doc, &format!("piece-{id}")).unwrap();
    assert!(piece.ancestors().any(|a| a == square), "{out}");
    assert!(piece.attribute("class").unwrap().contains("item"));
    assert!(piece.attribute("class").unwrap().contains("seat-0"));
    assert!(svg_texts(square).contains(&format!("I{id}")));
    assert!(square.attribute("class").unwrap().contains("explored"));

    // Ada's Avatar enters the map from her Corner by a legal move.
    t.pass();
    t.pass();
    t.pass();
    let enter = t
        .game
        .legal(None)
        .into_iter()
        .map(|l| l.with_words())
        .find(|l| {
            l.needs.is_empty()
                && l.action["type"] == "move"
                && l.action["pieces"][0]["piece"] == 1
                && l.action["pieces"][0]["path"] == json!(["a1"])
        })
        .expect("Avatar #1 may enter a1");
    t.act(enter.action);
    let out = t.game.render_svg(tabletape_engine::Viewer::Public);
    let doc = roxmltree::Document::parse(&out).unwrap();
    let a1 = svg_group(&doc, "sq-a1").unwrap();
    let avatar = svg_group(&doc, "piece-1").unwrap();
    assert!(avatar.ancestors().any(|a| a == a1), "{out}");
    assert!(avatar.attribute("class").unwrap().contains("avatar"));
    // Entering claims the starting Reach: the Symbol shows on its squares.
    assert!(svg_texts(a1).contains(&"sym0".to_string()), "{out}");
}

#[test]
fn svg_escapes_text_from_the_table() {
    let mut t = Table::new(3, json!({}));
    let name = "<b>&\"x\"";
    t.act(json!({"type": "introduce", "seat": 0, "avatar": {"name": name}, "talisman": {"name": "T"}, "symbol": "<i>"}));
    let out = t.game.render_svg(tabletape_engine::Viewer::Owner);
    assert!(!out.contains("<b>") && !out.contains("<i>"), "{out}");
    assert!(out.contains("&lt;b&gt;&amp;&quot;x&quot;"), "{out}");
    let doc = roxmltree::Document::parse(&out).unwrap();
    assert!(
        doc.descendants()
            .filter(|n| n.has_tag_name("text"))
            .any(|n| n.text().is_some_and(|s| s.contains(name))),
        "{out}"
    );
    assert!(doc.descendants().all(|n| !n.has_tag_name("b")));
}
