//! What the table reads: the board as text and as SVG where the state says,
//! names escaped, and the story of a turn.

use super::*;

#[test]
fn the_board_renders_as_text() {
    let mut s = table();
    s.thieves[0].at = sp("s1.4");
    s.thieves[1].at = sp("v0.1");
    s.thieves[2].at = sp("h1.1");
    s.robbed.insert(sp("s1.3"));
    s.policemen.push(Policeman {
        at: post("p3.3"),
        facing: Facing::West,
    });
    let text = Ludovia::render(&s, Viewer::Owner);
    let lines: Vec<&str> = text.lines().collect();
    // Two header lines of column numbers, then 4 lamp-post rows and 9 rows
    // of block spaces, each behind a row number.
    assert_eq!(
        lines[0].trim_end(),
        "      0  1  2   3  4  5   6  7  8    block space columns"
    );
    assert_eq!(
        lines[1].trim_end(),
        "    0         1         2         3   lamp-post columns"
    );
    assert_eq!(lines[2], "  p0+--h0.0---+--h0.1---+--h0.2---+");
    assert!(
        lines[4].starts_with("  1 | R  R  R 1 .  0  R :"),
        "Ada on s1.4, Bo on v0.1:\n{text}"
    );
    assert!(lines[4].ends_with("v0.0 to v0.3"), "{text}");
    assert!(lines[6].contains("----2----"), "Cy on h1.1:\n{text}");
    // Watched streets: v0.3 down to the policemen, h3.x west of p3.3.
    assert!(lines[3].ends_with(':'), "{text}");
    assert_eq!(
        lines[14], "  p3+==h3.0===+==h3.1===^==h3.2===#",
        "two policemen share p3.3; p3.2's faces north:\n{text}"
    );
    assert!(text.contains("Policeman 1: lamp post p3.2, facing north"));
    assert!(text.contains("Rooftops left: 48 of 49"));
    assert!(text.contains("Thief 2 Cy: street h1.1"));
    assert!(text.contains("Key: "));
}

/// The drawing parsed, with the area of every element with an id: a group's
/// first shape (its rect, or its circle as a point).
fn drawing(svg: &str) -> BTreeMap<String, (i64, i64, i64, i64)> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}: {svg}"));
    let num = |n: roxmltree::Node, a: &str| -> i64 { n.attribute(a).unwrap().parse().unwrap() };
    let mut out = BTreeMap::new();
    for g in doc.descendants().filter(|n| n.has_tag_name("g")) {
        let Some(id) = g.attribute("id") else {
            continue;
        };
        let shape = g
            .children()
            .find(|n| n.has_tag_name("rect") || n.has_tag_name("circle"));
        let area = match shape {
            Some(r) if r.has_tag_name("rect") => {
                (num(r, "x"), num(r, "y"), num(r, "width"), num(r, "height"))
            }
            Some(c) => (num(c, "cx"), num(c, "cy"), 0, 0),
            None => (0, 0, 0, 0),
        };
        assert!(out.insert(id.to_string(), area).is_none(), "id {id} twice");
    }
    out
}

/// The page-safe id the drawing gives a space.
fn space_id(space: Space) -> String {
    format!("space-{}", space.to_string().replace('.', "-"))
}

fn svg_checks_the_state(game: &Game, ctx: &str) {
    let svg = game.render_svg(Viewer::Owner);
    let ids = drawing(&svg);
    let s: State = serde_json::from_value(game.view(Viewer::Owner)).unwrap();
    let grid = s.grid();
    let mut spaces: Vec<Space> = vec![Space::Lair, Space::Prison];
    spaces.extend(grid.streets().into_iter().map(Space::Street));
    for row in 0..3 * s.rows {
        for col in 0..3 * s.cols {
            if s.cell(row, col).is_some() {
                spaces.push(Space::Cell { row, col });
            }
        }
    }
    assert_eq!(
        spaces.len(),
        2 + grid.streets().len() + 9 * (s.blocks.len() - 2)
    );
    for space in &spaces {
        assert!(
            ids.contains_key(&space_id(*space)),
            "{ctx}: no group for {space}"
        );
    }
    for (i, t) in s.thieves.iter().enumerate() {
        let (x, y, _, _) = ids[&format!("thief-{i}")];
        let (sx, sy, w, h) = ids[&space_id(t.at)];
        assert!(
            (sx..=sx + w).contains(&x) && (sy..=sy + h).contains(&y),
            "{ctx}: thief {i} drawn at ({x}, {y}), not on {}",
            t.at
        );
    }
    let mut drawn_at = std::collections::BTreeSet::new();
    for (i, p) in s.policemen.iter().enumerate() {
        let (x, y, _, _) = ids[&format!("police-{i}")];
        let (px, py, _, _) = ids[&format!("post-p{}-{}", p.at.r, p.at.c)];
        // Policemen sharing a post stand apart on it, each drawn.
        let n = s.policemen_at(p.at).len() as i64;
        assert!(
            (x - px).abs() <= 6 * n && (y - py).abs() <= 6 * n,
            "{ctx}: policeman {i} is not on {}",
            p.at
        );
        assert!(
            drawn_at.insert((x, y)),
            "{ctx}: policeman {i} hides another"
        );
        let facing = format!("facing-{}", p.facing.word());
        assert!(svg.contains(&format!(r#"id="police-{i}" class="policeman {facing}""#)));
    }
    for street in s.watched() {
        let id = space_id(Space::Street(street));
        assert!(
            svg.contains(&format!(r#"id="{id}" class="space street watched""#)),
            "{ctx}: {street} is watched"
        );
    }
    // Every place an offered action names can be tapped: the page narrows
    // the list to what mentions the id after its first dash, dots as dashes.
    let tappable: std::collections::BTreeSet<&str> = ids
        .keys()
        .filter_map(|id| id.split_once('-').map(|(_, name)| name))
        .collect();
    for l in game.legal(None) {
        let mut named = Vec::new();
        places_in(&l.action, &mut named);
        for place in named {
            assert!(
                tappable.contains(place.replace('.', "-").as_str()),
                "{ctx}: {place} in {} cannot be tapped on the board",
                l.action
            );
        }
    }
}

/// The lamp posts, streets and block spaces an action names (`p1.2`,
/// `h0.1`, `s3.4`), and the Lair and the Prison.
fn places_in(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => {
            let mut chars = s.chars();
            let named = matches!(chars.next(), Some('p' | 'h' | 'v' | 's'))
                && chars.as_str().split_once('.').is_some_and(|(r, c)| {
                    !r.is_empty()
                        && !c.is_empty()
                        && r.chars().chain(c.chars()).all(|ch| ch.is_ascii_digit())
                });
            if named || s == "lair" || s == "prison" {
                out.push(s.clone());
            }
        }
        Value::Array(items) => items.iter().for_each(|i| places_in(i, out)),
        Value::Object(map) => map
            .iter()
            .filter(|(k, _)| *k != "type")
            .for_each(|(_, i)| places_in(i, out)),
        _ => {}
    }
}

#[test]
fn the_board_is_drawn_as_svg_where_the_state_says() {
    for (players, seed) in [(3, 4), (5, 9)] {
        let mut game = Game::start(&created(players, seed, DiceMode::Digital)).unwrap();
        let mut rng = TableRng::for_event(seed, u64::MAX);
        svg_checks_the_state(&game, "at the start");
        for n in 0..150 {
            if game.is_over() {
                break;
            }
            let legal = game.legal(None);
            let pick = &legal[rng.below(legal.len() as u32) as usize].action;
            let d = game.decide(None, pick).unwrap();
            game.apply(&event(game.seq() + 1, d.body)).unwrap();
            if n % 10 == 0 {
                svg_checks_the_state(&game, &format!("{players} players, seq {}", game.seq()));
            }
        }
        svg_checks_the_state(&game, "at the end");
    }
    // The hand-made table: thieves sharing a space each stand inside it.
    let mut s = table();
    for seat in 0..3 {
        s.thieves[seat].at = sp("s1.1");
    }
    s.robbed.insert(sp("s1.2"));
    let game = game_of(&s);
    svg_checks_the_state(&game, "three on s1.1");
    let svg = game.render_svg(Viewer::Owner);
    assert!(svg.contains(r#"id="space-s1-2" class="space cell rooftop robbed""#));
    assert!(svg.contains(r#"id="space-s0-0" class="space cell alley""#));
    assert!(svg.contains(r#"id="thief-0" class="thief seat-0 current""#));
    assert!(svg.contains(r#"id="offer-0""#) && svg.contains("Mask"));
    assert!(svg.contains("Round 1: Ada&#39;s turn, 4 action points left"));
}

#[test]
fn names_from_the_table_are_escaped_in_the_drawing() {
    let mut created = created(3, 2, DiceMode::Digital);
    created.players[0] = "<b>&\"x\"".into();
    let game = Game::start(&created).unwrap();
    for viewer in [Viewer::Owner, Viewer::Seat(1), Viewer::Public] {
        let svg = game.render_svg(viewer);
        assert!(!svg.contains("<b>"), "{svg}");
        assert!(svg.contains("&lt;b&gt;&amp;&quot;x&quot;"));
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
        assert!(texts.contains(&"<b>&\"x\""), "the name on the board");
        assert!(texts.iter().any(|t| t.starts_with("0 <b>&\"x\": 0 Fame")));
    }
}

#[test]
fn the_story_says_whose_turn_what_acted_and_what_is_left() {
    let mut s = table();
    s.thieves[0].at = sp("s1.1");
    equip(&mut s, 0, "Whistle");
    let lines = |s: &mut State, action: Value| -> Vec<String> {
        let facts = decide(s, action.clone()).unwrap();
        crate::testkit::told::<Ludovia>(s, &facts)
    };
    let told = lines(
        &mut s,
        json!({"type": "whistle", "policeman": 0, "roll": 5}),
    );
    assert_eq!(
        told,
        vec![
            "Ada blows the Whistle.",
            "Ada: policeman 1 walks on, now facing north.",
            "Ada rolls 5: policeman 1 walks from p3.3 to p2.3 and now faces north, watching v1.3 and v0.3. 3 action points left."
        ]
    );
    let told = lines(&mut s, json!({"type": "move", "to": "s1.2"}));
    assert_eq!(
        told,
        vec!["Ada moves from the rooftop s1.1 of Bell Tower Row to the rooftop s1.2 of Bell Tower Row. 2 action points left."]
    );
    give(&mut s, 0, &["Ruby Crown", "Silver Spoons"]);
    let told = lines(&mut s, json!({"type": "jump", "to": "s1.3", "roll": 2}));
    assert_eq!(
        told,
        vec![
            "Ada jumps under the weight of the loot, falls short and drops into the street below. The turn is over.",
            "Ada jumps from the rooftop s1.2 of Bell Tower Row for the rooftop s1.3 of Fountain Square carrying 2 treasures, rolls 2, and falls short into street v0.1. The turn is over.",
        ]
    );
    let told = lines(
        &mut s,
        json!({"type": "move_policeman", "policeman": 1, "roll": 1}),
    );
    assert_eq!(
        told,
        vec![
            "Bo's turn begins in the Lair, with no treasure; policeman 2 turns left, now facing west.",
            "Bo's turn begins in the Lair, with no treasure.",
            "To open the turn, Bo rolls 1: policeman 2 turns left at p3.2 and now faces west, watching h3.1 and h3.0."
        ]
    );
    let told = lines(&mut s, json!({"type": "end_turn"}));
    // Bo never left the Lair this turn: the story says so.
    assert_eq!(told[0], "Bo lies low in the Lair.");
    assert_eq!(told[1], "Bo ends the turn with 4 action points unspent.");
}
