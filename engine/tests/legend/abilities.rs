//! Abilities: Gamble's coin in both dice modes, Rewrite, and the limits of
//! Shift, Long Arm, Charm, Guile and Entropy.

use super::*;

#[test]
fn gamble_coins_in_digital_and_physical_dice() {
    let opts = json!({"abilities": "on", "ability_of": ["gamble", "pocket", "pocket"]});
    let mut d = Table::started(3, opts.clone());
    let supplied = d.game.decide(None, &json!({"type": "ability", "ability": "gamble", "flipper": 1, "call_heads": true, "heads": true}));
    assert_eq!(supplied.unwrap_err().rule, "dice.digital");
    let decided = d
        .game
        .decide(
            None,
            &json!({"type": "ability", "ability": "gamble", "flipper": 1, "call_heads": true}),
        )
        .unwrap();
    assert_eq!(
        decided.body.chance.len(),
        1,
        "the coin is drawn and recorded"
    );
    d.act(json!({"type": "ability", "ability": "gamble", "flipper": 1, "call_heads": true}));
    let s = d.state();
    assert!(s["actions_allowed"] == json!(4) || d.current() == 1, "{s}");
    let mut p = Table::started_with(3, opts.clone(), DiceMode::Physical);
    p.refused(
        json!({"type": "ability", "ability": "gamble", "flipper": 1, "call_heads": true}),
        "physical.coin_needed",
    );
    let needs: Vec<_> = p
        .game
        .legal(None)
        .into_iter()
        .filter(|l| l.action["ability"] == json!("gamble"))
        .collect();
    assert!(
        !needs.is_empty() && needs.iter().all(|l| !l.needs.is_empty()),
        "{needs:?}"
    );
    // Lost on the first action: the turn ends.
    p.act(json!({"type": "ability", "ability": "gamble", "flipper": 1, "call_heads": true, "heads": false}));
    assert_eq!(p.current(), 1);
    // Won: two more actions.
    let mut w = Table::started_with(3, opts.clone(), DiceMode::Physical);
    w.act(json!({"type": "ability", "ability": "gamble", "flipper": 1, "call_heads": false, "heads": false}));
    w.refused(json!({"type": "ability", "ability": "gamble", "flipper": 1, "call_heads": true, "heads": true}), "legend.ability.once_per_turn");
    w.pass();
    assert_eq!(w.current(), 1);
    let mut x = Table::started_with(3, opts.clone(), DiceMode::Physical);
    x.mv(1, &["a1"]);
    x.act(json!({"type": "ability", "ability": "gamble", "flipper": 2, "call_heads": false, "heads": false}));
    x.mv(1, &["b1"]);
    assert_eq!(x.current(), 0, "four actions this turn");
    x.mv(1, &["c1"]);
    assert_eq!(x.current(), 1);
    // Lost on the second action: the next turn is skipped.
    let mut y = Table::started_with(3, opts, DiceMode::Physical);
    y.mv(1, &["a1"]);
    y.act(json!({"type": "ability", "ability": "gamble", "flipper": 2, "call_heads": true, "heads": false}));
    y.pass();
    y.pass();
    assert_eq!(y.current(), 1, "Ada misses round 2");
}

#[test]
fn rewrite_claims_another_players_reach_during_a_move_or_as_an_action() {
    let mut t = ability_table(["pocket", "rewrite", "pocket", "pocket"]);
    t.pass(); // Ada
    t.refused(
        json!({"type": "move", "pieces": [{"piece": 3, "path": ["e2"], "rewrite": true}]}),
        "legend.ability.rewrite_unclaimed",
    );
    t.act(json!({"type": "ability", "ability": "rewrite", "piece": 3}));
    assert_eq!(t.state()["claims"]["4"], json!(1));
    t.refused(
        json!({"type": "ability", "ability": "rewrite", "piece": 3}),
        "legend.ability.once_per_turn",
    );
}

#[test]
fn shift_long_arm_charm_guile_and_entropy_are_enforced() {
    // Shift: never in a starting Reach.
    let mut s = ability_table(["shift", "pocket", "pocket", "pocket"]);
    s.place("item", &["d4"]); // #9
    s.pass();
    s.place("item", &["c1"]); // #10, Bo's
    s.pass();
    s.place("item", &["a3"]); // #11
    s.pass();
    s.place("item", &["b1"]); // #12, Dee's, in Ada's start
    s.pass();
    s.refused(
        json!({"type": "ability", "ability": "shift", "first": 9, "second": 12}),
        "legend.ability.shift_start",
    );
    s.act(json!({"type": "ability", "ability": "shift", "first": 9, "second": 11}));
    assert_eq!(s.at(9), on("a3"));
    assert_eq!(s.at(11), on("d4"));

    // Long Arm reaches two squares; Charm needs claimed ground.
    let mut l = ability_table(["long_arm", "charm", "pocket", "pocket"]);
    l.place("item", &["b3"]); // #9
    l.mv(1, &["b3"]);
    l.place("monster", &["e1"]); // #10, Bo's
    l.refused(
        json!({"type": "ability", "ability": "charm", "object": 10}),
        "legend.ability.charm_target",
    );
    l.pass();
    l.pass();
    l.pass();
    l.refused(json!({"type": "ability", "ability": "long_arm", "piece": 1, "targets": [10], "story": "throws"}), "legend.ability.long_arm_range");
    l.place("monster", &["c4"]); // #11, Ada's
    l.pass();
    l.refused(
        json!({"type": "ability", "ability": "charm", "object": 11}),
        "legend.ability.charm_territory",
    );
    l.pass();
    l.pass();
    l.pass();
    l.mv(1, &["c3", "d2"]); // now one square from the Monster, Item still in hand
    l.act(json!({"type": "ability", "ability": "long_arm", "piece": 1, "targets": [10], "story": "Sir Kettle hurls the thing two squares"}));
    assert_eq!(l.at(10), json!({"where": "stockpile", "seat": 0}));
    assert_eq!(l.at(9), json!({"where": "stockpile", "seat": 0}));

    // Guile: a Monster becomes a Hero; an occupied Monument cannot change.
    let mut g = ability_table(["guile", "pocket", "pocket", "pocket"]);
    g.place("monster", &["c4"]); // #9
    g.act(json!({"type": "ability", "ability": "guile", "object": 9}));
    assert_eq!(g.piece(9)["category"], json!("hero"));
    for _ in 0..3 {
        g.pass();
    }
    g.place("monument", &["d4"]); // #10
    g.mv(1, &["d4"]);
    for _ in 0..3 {
        g.pass();
    }
    g.refused(
        json!({"type": "ability", "ability": "guile", "object": 10, "at": "+d4"}),
        "legend.ability.guile_occupied",
    );

    // Entropy: everyone picks; a chosen Avatar goes to the chooser's
    // Stockpile as the text says (rules 2), leaving its Item behind.
    let mut e = ability_table(["entropy", "pocket", "pocket", "pocket"]);
    e.place("item", &["d2"]); // #9
    e.pass();
    e.mv(3, &["d2"]);
    for _ in 0..3 {
        e.pass();
    }
    e.refused(
        json!({"type": "ability", "ability": "entropy", "choices": [{"seat": 0, "object": 3}]}),
        "legend.ability.entropy_choices",
    );
    e.act(json!({"type": "ability", "ability": "entropy", "choices": [{"seat": 0, "object": 3}, {"seat": 1, "object": 1}]}));
    assert_eq!(e.at(3), json!({"where": "stockpile", "seat": 0}));
    assert_eq!(e.at(9), on("d2"), "the Item is left behind");
    assert_eq!(e.at(1), json!({"where": "stockpile", "seat": 1}));
    let state: tabletape_engine::legend::State = serde_json::from_value(e.state()).unwrap();
    let ada = &tabletape_engine::legend::scores(&state)[0];
    assert_eq!(
        ada.total,
        ada.items + 2 * (ada.stockpiled_items + ada.stockpiled_heroes + ada.stockpiled_monsters),
        "a Stockpiled Avatar scores nothing: {ada:?}"
    );
}
