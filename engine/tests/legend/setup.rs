//! Setting out: introductions, Symbols, Corners and Abilities chosen.

use super::*;

#[test]
fn introductions_come_first_and_symbols_differ() {
    let mut t = Table::new(3, json!({}));
    t.refused(json!({"type": "pass"}), "legend.setup.introductions");
    t.act(json!({"type": "introduce", "avatar": {"name": "Kettle"}, "talisman": {"name": "Spoon"}, "symbol": "star"}));
    t.refused(
        json!({"type": "introduce", "avatar": {"name": "Moss"}, "talisman": {"name": "Crown"}, "symbol": "star"}),
        "legend.setup.symbol_taken",
    );
    t.refused(
        json!({"type": "introduce", "seat": 0, "avatar": {"name": "Moss"}, "talisman": {"name": "Crown"}, "symbol": "cross"}),
        "legend.setup.introduced",
    );
    t.refused(
        json!({"type": "introduce", "avatar": {"name": " "}, "talisman": {"name": "Crown"}, "symbol": "cross"}),
        "legend.object.name",
    );
    // The Avatar and Talisman wait at the seat's Corner.
    assert_eq!(t.at(1), json!({"where": "corner", "corner": 0}));
    assert_eq!(t.at(2), json!({"where": "corner", "corner": 0}));
}

#[test]
fn abilities_are_chosen_only_when_on_and_custom_ones_need_a_vote() {
    let mut t = Table::new(3, json!({"abilities": "on"}));
    t.refused(json!({"type": "introduce", "avatar": {"name": "K"}, "talisman": {"name": "S"}, "symbol": "a"}), "legend.ability.choose");
    t.refused(
        json!({"type": "introduce", "avatar": {"name": "K"}, "talisman": {"name": "S"}, "symbol": "a", "ability": "custom", "custom": {"name": "Echo"}}),
        "legend.ability.custom_vote",
    );
    t.refused(
        json!({"type": "introduce", "avatar": {"name": "K"}, "talisman": {"name": "S"}, "symbol": "a", "ability": "custom", "custom": {"name": "Echo"}, "votes": {"against": [1, 2]}}),
        "legend.ability.custom_vote",
    );
    // A tie goes to the player asking.
    t.act(json!({"type": "introduce", "avatar": {"name": "K"}, "talisman": {"name": "S"}, "symbol": "a", "ability": "custom", "custom": {"name": "Echo"}, "votes": {"for": [1], "against": [2]}}));
    assert_eq!(t.state()["seats"][0]["ability"], json!("custom"));
}

#[test]
fn legal_still_offers_introductions_when_a_seat_took_a_placeholder_symbol() {
    let mut t = Table::new(3, json!({}));
    // Bo draws the Symbol `legal` would have offered Ada, and Cy the words
    // of the next one: two seats can still introduce themselves.
    t.act(json!({"type": "introduce", "seat": 1, "avatar": {"name": "Moss"}, "talisman": {"name": "Crown"}, "symbol": "<symbol of Ada>"}));
    t.act(json!({"type": "introduce", "seat": 2, "avatar": {"name": "Pip"}, "talisman": {"name": "Cork"}, "symbol": "symbol 2 of Ada"}));
    for seat in [None, Some(0)] {
        let legal = t.game.legal(seat);
        assert!(!legal.is_empty(), "{seat:?}: nothing offered");
        for l in &legal {
            assert_eq!(l.action["symbol"], json!("<symbol 3 of Ada>"));
            // As offered, and in the table's own words, it is accepted.
            t.game.decide(None, &l.action).unwrap();
            t.game.decide(None, &l.with_words().action).unwrap();
        }
    }
    let ada = t.game.legal(None)[0].with_words().action;
    t.act(ada);
    assert!(
        t.game
            .legal(None)
            .iter()
            .any(|l| l.action["type"] == "move"),
        "the game has begun"
    );
}

#[test]
fn players_choose_their_corners_and_turns_go_clockwise_from_the_first() {
    let mut t = Table::new(3, json!({}));
    let legal = t.game.legal(Some(0));
    assert!(legal[0]
        .may
        .iter()
        .any(|m| m.starts_with("corner: ") && m.contains("free: nw, ne, se, sw")));
    let intro = |seat: u32, corner: Option<&str>| {
        let mut a = json!({"type": "introduce", "seat": seat, "avatar": {"name": format!("Avatar{seat}")}, "talisman": {"name": format!("Talisman{seat}")}, "symbol": format!("sym{seat}")});
        if let Some(c) = corner {
            a["corner"] = json!(c);
        }
        a
    };
    let told = t.act(intro(0, Some("se")));
    assert!(
        told[0].contains("waiting in the south-east Corner"),
        "{told:?}"
    );
    let e = t.refused(intro(1, Some("se")), "legend.setup.corner_taken");
    assert!(e.contains("free: nw, ne, sw"), "{e}");
    t.act(intro(1, None)); // its own number's Corner, the north-east, is free
    t.act(intro(2, Some("north-west")));
    let s = t.state();
    let corners: Vec<u64> = (0..3)
        .map(|i| s["seats"][i]["corner"].as_u64().unwrap())
        .collect();
    assert_eq!(corners, vec![2, 1, 0]);
    assert_eq!(t.at(1), json!({"where": "corner", "corner": 2}));
    // Clockwise from Ada's south-east Corner: the north-west (Cy), then the
    // north-east (Bo).
    assert_eq!(s["order"], json!([0, 2, 1]));
    // Ada enters the map at her own Corner's square.
    t.mv(1, &["f6"]);
    assert_eq!(t.at(1), on("f6"));
}

#[test]
fn games_under_rules_1_keep_corners_by_seat_and_obstacles_on_crossings() {
    let mut c = created(3, json!({}), DiceMode::Digital, 3);
    c.rules_version = Some(1);
    let mut t = Table {
        game: Game::start(&c).unwrap(),
    };
    t.refused(
        json!({"type": "introduce", "seat": 0, "corner": "se", "avatar": {"name": "A"}, "talisman": {"name": "T"}, "symbol": "s"}),
        "legend.setup.corner",
    );
    for seat in 0..3 {
        t.act(json!({"type": "introduce", "seat": seat, "avatar": {"name": format!("Avatar{seat}")}, "talisman": {"name": format!("Talisman{seat}")}, "symbol": format!("sym{seat}")}));
    }
    heartland(&mut t);
    t.refused(
        json!({"type": "place", "object": {"name": "a hedge", "category": "obstacle"}, "at": "-d4"}),
        "legend.placement.obstacle_crossing",
    );
    t.act(
        json!({"type": "place", "object": {"name": "a wall", "category": "obstacle"}, "at": "+d4"}),
    );
}
