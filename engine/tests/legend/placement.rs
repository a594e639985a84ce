//! The Placement Action: where each category may be placed.

use super::*;

#[test]
fn placement_rules_for_every_category() {
    let mut t = Table::started(3, json!({}));
    t.mv(1, &["a1"]);
    t.mv(1, &["b2", "c3"]);
    t.pass(); // Bo
    t.pass(); // Cy
              // Ada holds the Northwest Reach (start) and the Heartland.
    let item_home = t.placement("item", &["b1"]);
    t.refused(item_home, "legend.placement.item_home_square");
    let monster_away = t.placement("monster", &["e4"]);
    t.refused(monster_away, "legend.placement.monster_territory");
    let monument_split = t.placement("monument", &["b4", "c4"]);
    t.refused(monument_split, "legend.placement.monument_one_large");
    let monument_away = t.placement("monument", &["e4"]);
    t.refused(monument_away, "legend.placement.monument_territory");
    t.refused(
        json!({"type": "place", "object": {"name": "h", "category": "hero"}, "squares": ["c4"]}),
        "legend.placement.hero_corner",
    );
    t.refused(
        json!({"type": "place", "object": {"name": "w", "category": "obstacle", "description": "a thing in the way"}, "at": "+e5"}),
        "legend.placement.obstacle_territory",
    );
    t.refused(json!({"type": "place", "object": {"name": "w", "category": "obstacle", "description": "a thing in the way"}, "squares": ["c4"]}), "legend.placement.obstacle_crossing");
    t.refused(
        json!({"type": "place", "object": {"name": "w", "category": "avatar"}, "squares": ["c4"]}),
        "legend.placement.category",
    );
    let on_avatar = t.placement("monster", &["c3"]);
    t.refused(on_avatar, "legend.placement.square_taken");
    // A Monster may cover several own squares; a Hero waits at the Corner.
    t.place("monster", &["c4", "d4"]);
    t.act(json!({"type": "place", "object": {"name": "h", "category": "hero"}}));
    assert_eq!(t.at(7)["squares"], json!(["c4", "d4"]));
    assert_eq!(t.at(8), json!({"where": "corner", "corner": 0}));
}

#[test]
fn obstacles_sit_on_claimed_crossings_away_from_opponents_starts() {
    let mut t = Table::started(3, json!({}));
    heartland(&mut t);
    // +d4 touches c3, d3, c4 and d4: all in the Heartland, Ada's.
    t.act(
        json!({"type": "place", "object": {"name": "wall", "category": "obstacle", "description": "a thing in the way"}, "at": "+d4"}),
    );
    t.refused(
        json!({"type": "place", "object": {"name": "wall", "category": "obstacle", "description": "a thing in the way"}, "at": "+d4"}),
        "legend.placement.crossing_taken",
    );
    // Bo claims the Northern Reach next to his start; +e2 touches his start Reach, where Ada may never put one.
    let mut u = Table::started(3, json!({}));
    u.mv(1, &["a1"]);
    u.mv(1, &["b1", "c1"]);
    u.mv(3, &["f1"]);
    u.pass();
    u.pass();
    u.mv(1, &["d1", "e1"]); // Bo has claimed the Northeast Reach already
    u.refused(
        json!({"type": "place", "object": {"name": "w", "category": "obstacle", "description": "a thing in the way"}, "at": "+e2"}),
        "legend.placement.obstacle_territory",
    );
    // Ada claims Cy's empty starting Reach, but may not put an Obstacle there.
    let mut v = crossroads();
    v.mv(1, &["d4", "e5"]);
    assert_eq!(v.state()["claims"]["8"], json!(0));
    v.refused(
        json!({"type": "place", "object": {"name": "w", "category": "obstacle", "description": "a thing in the way"}, "at": "+f6"}),
        "legend.placement.obstacle_opponent_start",
    );
}

#[test]
fn obstacles_go_on_boundaries_too_and_are_described() {
    let mut t = Table::started(3, json!({}));
    heartland(&mut t);
    // -d4 runs along the north of d4: it touches d3 and d4, both Ada's.
    t.refused(
        json!({"type": "place", "object": {"name": "a hedge", "category": "obstacle"}, "at": "-d4"}),
        "legend.placement.obstacle_description",
    );
    let told = t.act(
        json!({"type": "place", "object": {"name": "a hedge", "category": "obstacle", "description": "thorny and waist-high"}, "at": "-d4"}),
    );
    assert!(
        told.iter()
            .any(|l| l.contains("the boundary -d4 (north of d4)")),
        "{told:?}"
    );
    assert!(
        told.iter()
            .any(|l| l.contains("hedge (#7, thorny and waist-high)")),
        "the answer names the new object's number: {told:?}"
    );
    let text = t.game.render(tabletape_engine::Viewer::Owner);
    assert!(text.contains("#----+XXXX#"), "the hedge along -d4:\n{text}");
    let state: tabletape_engine::legend::State = serde_json::from_value(t.state()).unwrap();
    let touching = |sq: &str| {
        state
            .obstacles_touching(tabletape_engine::legend::content::Sq::parse(sq).unwrap())
            .len()
    };
    assert_eq!((touching("d3"), touching("d4"), touching("c3")), (1, 1, 0));
    // |c3 runs along the west of c3 and touches b3, in an unclaimed Reach.
    t.pass();
    t.pass();
    t.pass();
    t.refused(
        json!({"type": "place", "object": {"name": "a ditch", "category": "obstacle", "description": "deep"}, "at": "|c3"}),
        "legend.placement.obstacle_territory",
    );
    // A placed Monster draws Scenery in a blank square like any placement
    // (rules 3; only a Monster moved there is spared).
    assert!(t.state()["scenery"].get("a2").is_none());
    t.refused(
        json!({"type": "place", "object": {"name": "a crow", "category": "monster"}, "squares": ["a2"]}),
        "legend.placement.scenery",
    );
    t.act(json!({"type": "place", "object": {"name": "a crow", "category": "monster"}, "squares": ["a2"], "scenery": {"a2": "a dead oak"}}));
    assert_eq!(t.state()["scenery"]["a2"], "a dead oak");
}
