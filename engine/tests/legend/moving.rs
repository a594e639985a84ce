//! The Move Action: distances and Corners, Scenery, Obstacles passed,
//! Items picked up, Monuments occupied, large Monsters, Talismans taken.

use super::*;

#[test]
fn moves_are_one_or_two_neighbouring_squares_and_corners_take_the_whole_move() {
    let mut t = Table::started(3, json!({}));
    let msg = t.mv_refused(1, &["b2"], "legend.move.corner");
    assert!(msg.contains("a1"), "{msg}");
    t.mv(1, &["a1"]);
    t.mv_refused(1, &["b1", "c1", "d1"], "legend.move.distance");
    t.mv_refused(1, &["c3"], "legend.move.distance");
    let lines = t.mv(1, &["b2", "c3"]);
    assert!(
        lines.iter().any(|l| l.contains("claims the Heartland")),
        "{lines:?}"
    );
    assert_eq!(t.at(1), on("c3"));
    assert_eq!(t.state()["claims"]["4"], json!(0));
}

#[test]
fn blank_squares_need_scenery_and_the_error_names_them() {
    let mut t = Table::started(3, json!({}));
    let msg = t.refused(
        json!({"type": "move", "pieces": [{"piece": 1, "path": ["a1"]}]}),
        "legend.move.scenery",
    );
    assert!(msg.contains("a1"), "{msg}");
    t.refused(
        json!({"type": "move", "pieces": [{"piece": 1, "path": ["a1"], "scenery": {"a1": "x", "b2": "y"}}]}),
        "legend.scenery.not_blank",
    );
    t.mv(1, &["a1"]);
    assert_eq!(t.state()["scenery"]["a1"], json!("scenery of a1"));
    // Placing into an uncharted square needs Scenery too.
    t.refused(
        json!({"type": "place", "object": {"name": "key", "category": "item"}, "squares": ["d4"]}),
        "legend.placement.scenery",
    );
}

#[test]
fn obstacles_need_an_item_once_and_the_passage_is_recorded() {
    let mut t = Table::started(3, json!({}));
    t.mv(1, &["a1"]);
    t.mv(1, &["b1", "c1"]);
    t.mv(3, &["f1"]);
    t.act(
        json!({"type": "place", "object": {"name": "cables", "category": "obstacle", "description": "a thing in the way"}, "at": "+f2"}),
    ); // #7
    t.pass();
    let msg = t.mv_refused(1, &["d1", "e1"], "legend.obstacle.item_needed");
    assert!(msg.contains("cables"), "{msg}");
    t.pass(); // Ada
    t.pass(); // Bo
    t.place("item", &["d1"]); // #8, Cy's
    t.pass();
    t.mv_refused(1, &["d1", "e1"], "legend.story.needed");
    let mut st = t.step(1, &["d1", "e1"]);
    st["story"] = json!("snips the cables");
    let lines = t.act(json!({"type": "move", "pieces": [st]}));
    assert!(
        lines.iter().any(|l| l.contains("gets past cables")),
        "{lines:?}"
    );
    // The player's words are a sentence of their own: a full stop closes them.
    assert!(
        lines
            .iter()
            .any(|l| l.contains(": \"snips the cables.\" The way there stays open")),
        "{lines:?}"
    );
    assert_eq!(t.state()["seats"][0]["passed"], json!([7]), "Ada's passage");
    assert_eq!(t.at(8), json!({"where": "stockpile", "seat": 0}));
    // Passing again needs no Item.
    t.mv(1, &["f1"]);
    // The owner of an Obstacle passes it freely.
    t.mv(3, &["e2"]);
    t.pass(); // Bo
    t.pass(); // Cy
              // The passage is Ada's: her new Hero, with no Item, passes too.
    t.act(json!({"type": "place", "object": {"name": "Squire", "category": "hero"}})); // #9
    t.mv(9, &["a1"]);
    t.pass(); // Bo
    t.pass(); // Cy
    t.mv(9, &["b1", "c1"]);
    let lines = t.mv(9, &["d1", "e1"]);
    assert!(
        !lines.iter().any(|l| l.contains("passes the Obstacle")),
        "{lines:?}"
    );
    assert_eq!(t.at(9), on("e1"));
}

#[test]
fn items_are_picked_up_one_at_a_time_unless_swapped_or_pocketed() {
    let mut t = Table::started(3, json!({}));
    t.place("item", &["c1"]); // #7
    t.place("item", &["c2"]); // #8
    t.pass();
    t.pass();
    t.mv(1, &["a1"]);
    t.mv(1, &["b1", "c1"]);
    assert_eq!(t.at(7), json!({"where": "held", "by": 1}));
    t.pass();
    t.pass();
    t.mv(1, &["c2"]);
    assert_eq!(t.at(8), on("c2"), "one Item each");
    t.mv(1, &["c1"]);
    let mut st = t.step(1, &["c2"]);
    t.pass();
    t.pass();
    st["swap"] = json!(true);
    t.act(json!({"type": "move", "pieces": [st]}));
    assert_eq!(t.at(8), json!({"where": "held", "by": 1}));
    assert_eq!(t.at(7), on("c2"));
    // With Pocket, two Items ride along.
    let mut p = Table::started(
        3,
        json!({"abilities": "on", "ability_of": ["pocket", "gamble", "charm"]}),
    );
    p.place("item", &["c1"]);
    p.place("item", &["c2"]);
    p.pass();
    p.pass();
    p.mv(1, &["a1"]);
    p.mv(1, &["b1", "c1"]);
    p.pass();
    p.pass();
    p.mv(1, &["c2"]);
    assert_eq!(p.at(8), json!({"where": "held", "by": 1}));
    assert_eq!(p.at(7), json!({"where": "held", "by": 1}));
}

#[test]
fn occupied_monuments_bar_other_characters_and_monsters_cannot_enter_corners() {
    let mut t = crossroads();
    t.place("monument", &["d4"]); // #7
    t.mv(1, &["d4"]);
    let msg = t.mv_refused(3, &["d4"], "legend.monument.occupied");
    assert!(msg.contains("Avatar0"), "{msg}");
    let mut u = crossroads();
    u.place("monster", &["a1"]);
    u.pass();
    u.pass();
    u.pass();
    u.refused(
        json!({"type": "move", "pieces": [{"piece": 7, "exit": true}]}),
        "legend.move.monster_corner",
    );
    u.refused(
        json!({"type": "move", "pieces": [{"piece": 7, "path": ["b2", "c3", "d4"]}]}),
        "legend.move.distance",
    );
}

#[test]
fn large_monsters_stop_when_touching_more_than_one_new_square() {
    let mut t = crossroads();
    t.place("monster", &["c4", "d4"]); // #7
    t.pass();
    t.pass();
    t.pass();
    // Moving sideways west: the first step touches b4 (one new square) then a4 (one new): fine.
    // Moving north: c3 and d3 are both new, so the move ends there.
    let msg = t.refused(
        json!({"type": "move", "pieces": [{"piece": 7, "path": ["c5", "c6"]}]}),
        "legend.move.large_monster",
    );
    assert!(msg.contains("2 new squares"), "{msg}");
    t.act(json!({"type": "move", "pieces": [{"piece": 7, "path": ["b4", "a4"]}]}));
    assert_eq!(t.at(7)["squares"], json!(["a4", "b4"]));
}

#[test]
fn talismans_are_taken_at_the_owners_corner_and_win_in_a_monument() {
    let mut t = Table::started(3, json!({}));
    t.mv(1, &["a1"]);
    t.mv(1, &["b1", "c1"]);
    t.mv(3, &["f1"]);
    t.mv(3, &["e2", "d3"]);
    t.pass();
    t.place("monument", &["d2"]); // #7
    t.mv(1, &["d1", "e1"]);
    t.pass();
    t.pass();
    t.mv(1, &["f1"]);
    t.refused(
        json!({"type": "move", "pieces": [{"piece": 1, "exit": true, "path": ["f1"]}]}),
        "legend.move.corner",
    );
    t.act(json!({"type": "move", "pieces": [{"piece": 1, "exit": true}]}));
    assert_eq!(t.at(4), json!({"where": "held", "by": 1}));
    // The Talisman carried by a piece standing in a Corner is shown.
    let text = t.game.render(tabletape_engine::Viewer::Owner);
    assert!(
        text.contains("#1 Avatar0 (Avatar, carrying Talisman1 (Talisman))"),
        "{text}"
    );
    t.pass();
    t.pass();
    t.mv(1, &["f1"]);
    let lines = t.mv(1, &["e1", "d2"]);
    assert!(
        lines.iter().any(|l| l.contains("wins the legend")),
        "{lines:?}"
    );
    assert!(t.game.is_over());
    assert_eq!(t.state()["outcome"]["by"], json!("talisman"));
    assert!(t.game.legal(None).is_empty());
}

#[test]
fn a_dropped_talisman_cannot_be_picked_up_by_its_owner() {
    let mut t = Table::started(3, json!({}));
    t.mv(1, &["a1"]);
    t.mv(1, &["b1", "c1"]);
    t.mv(3, &["f1"]);
    t.mv(3, &["e2", "d2"]);
    t.pass();
    t.mv(1, &["d1", "e1"]);
    t.mv(1, &["f1"]);
    t.place("monster", &["e1"]); // #7, Bo's own Reach
    t.pass();
    t.pass();
    t.act(json!({"type": "move", "pieces": [{"piece": 1, "exit": true}]}));
    t.mv(1, &["f1"]);
    // Bo's Monster falls on Ada at f1; Bo's Talisman drops there.
    t.act(json!({"type": "move", "pieces": [{"piece": 7, "path": ["f1"]}]}));
    assert_eq!(t.at(4), on("f1"));
    t.mv(3, &["e1"]);
    t.pass();
    t.pass();
    t.mv(3, &["f1"]);
    assert_eq!(t.at(4), on("f1"), "the owner may not pick it up");
}
