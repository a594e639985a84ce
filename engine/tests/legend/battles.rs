//! Battles: Avatars and Heroes against Monsters, armed or not, Monsters
//! against Monsters, sieges of an occupied Monument, and who tells it.

use super::*;

#[test]
fn unarmed_avatars_lose_to_monsters_and_respawn_dropping_talismans() {
    let mut t = crossroads();
    t.place("monster", &["c4"]); // #7
    t.pass();
    let lines = t.mv(3, &["c4"]);
    assert!(lines.iter().any(|l| l.contains("Battle!")), "{lines:?}");
    assert_eq!(t.at(3), json!({"where": "corner", "corner": 1}));
    assert_eq!(t.at(7), on("c4"));
}

#[test]
fn armed_avatars_beat_monsters_and_stockpile_them() {
    let mut t = crossroads();
    t.place("monster", &["c4"]); // #7
    t.pass();
    t.place("item", &["d2"]); // #8 Bo's
    t.mv(3, &["d2"]);
    t.pass();
    t.pass();
    let mut st = t.step(3, &["c3", "c4"]);
    st["story"] = json!("the key jams its jaws");
    t.act(json!({"type": "move", "pieces": [st]}));
    assert_eq!(t.at(7), json!({"where": "stockpile", "seat": 1}));
    assert_eq!(t.at(8), json!({"where": "stockpile", "seat": 1}));
    assert_eq!(t.at(3), on("c4"));
}

/// Ada's Monster (#7) takes Bo's unarmed Avatar at d3, then Bo's Monster
/// (#8) falls on Ada's there; Ada's turn comes next.
fn monsters_fought() -> Table {
    let mut t = crossroads();
    // Bo claims nothing in the Heartland; give him a Monster at home.
    t.place("monster", &["c4"]); // #7 Ada's
    t.pass();
    t.place("monster", &["e2"]); // #8 Bo's
    t.pass();
    t.pass();
    t.act(json!({"type": "move", "pieces": [{"piece": 7, "path": ["d3"]}]}));
    t.pass();
    t.act(json!({"type": "move", "pieces": [{"piece": 8, "path": ["d3"]}]}));
    t.pass();
    t.pass();
    t
}

#[test]
fn monsters_attack_the_aggressor_wins_between_monsters_and_sieges_destroy() {
    let mut t = monsters_fought();
    // Ada's Monster took Bo's unarmed Avatar, which went home.
    assert_eq!(t.at(3), json!({"where": "corner", "corner": 1}));
    // Bo's Monster fell on Ada's: the aggressor won.
    assert_eq!(t.at(7), json!({"where": "stockpile", "seat": 1}));
    // Ada builds a Monument at c3 (she stands there) elsewhere: d4, and occupies it.
    t.place("monument", &["d4"]); // #9
    t.mv(1, &["d4"]);
    t.act(json!({"type": "move", "pieces": [{"piece": 8, "path": ["d4"]}]}));
    assert_eq!(
        t.at(1),
        json!({"where": "corner", "corner": 0}),
        "the unarmed occupant falls"
    );
    assert_eq!(
        t.at(8),
        json!({"where": "destroyed"}),
        "and the Monster breaks"
    );
}

#[test]
fn a_monster_on_either_square_of_a_monument_besieges_its_occupant() {
    let mut t = monsters_fought();
    // A Monument over two squares of the Heartland; Ada holds it from d4.
    t.place("monument", &["c4", "d4"]); // #9
    t.mv(1, &["d4"]);
    // Bo's Monster lands on c4, the Monument's other square: a siege.
    let lines = t.act(json!({"type": "move", "pieces": [{"piece": 8, "path": ["c4"]}]}));
    assert!(lines.iter().any(|l| l.contains("lays siege")), "{lines:?}");
    assert_eq!(t.at(1), json!({"where": "corner", "corner": 0}));
    assert_eq!(t.at(8), json!({"where": "destroyed"}));
}

#[test]
fn the_victor_tells_the_story_of_a_battle() {
    let mut t = crossroads();
    t.place("monster", &["c4"]); // #7 Ada's
    t.pass();
    t.place("item", &["d2"]); // #8 Bo's
    t.mv(3, &["d2"]); // Bo's Avatar takes the Item
    t.pass(); // Cy
              // Ada's Monster falls on Bo's armed Avatar: Bo's side would win, so
              // the story is Bo's to tell, and it is asked of Bo.
    let attack = json!({"type": "move", "pieces": [{"piece": 7, "path": ["d3", "d2"]}]});
    let msg = t.refused(attack.clone(), "legend.story.needed");
    assert!(msg.contains("their_story") && msg.contains("Bo"), "{msg}");
    let mut told = attack.clone();
    told["pieces"][0]["their_story"] = json!("the key jams the beast's jaws");
    let lines = t.act(told).join("\n");
    assert!(
        lines.contains("Bo, whose side won, tells it: \"the key jams the beast's jaws.\""),
        "{lines}"
    );
    assert_eq!(t.at(7), json!({"where": "stockpile", "seat": 1}));
    // Told where the other side won nothing, it would be dropped: refused.
    t.place("monster", &["d4"]); // #9 Ada's
    t.pass(); // Bo
    t.pass(); // Cy
    let idle = json!({"type": "move", "pieces": [{"piece": 9, "path": ["c4"], "their_story": "nothing happened"}]});
    t.refused(idle, "legend.story.unused");
}
