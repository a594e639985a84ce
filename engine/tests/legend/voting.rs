//! Voting and Duels: an explanation voted down and retold, votes that would
//! be dropped, and Duels judged by the table (a tie is a coin).

use super::*;

/// Ada's Avatar (#3 is Bo's) armed next to Bo's Monster at c4, voting on,
/// Bo to move: the set-up of `voting_twice_failed_outcomes_and_ties_favour_the_teller`.
fn crossroads_voting() -> Table {
    let mut t = Table::started(3, json!({"voting": "on"}));
    t.mv(1, &["a1"]);
    t.mv(1, &["b2", "c3"]);
    t.mv(3, &["f1"]);
    t.mv(3, &["e2", "d3"]);
    t.pass();
    t.place("monster", &["c4"]); // #7
    t.pass();
    t.place("item", &["d2"]); // #8
    t.mv(3, &["d2"]);
    t.pass();
    t.pass();
    t
}

#[test]
fn voting_twice_failed_outcomes_and_ties_favour_the_teller() {
    let mut t = Table::started(3, json!({"voting": "on"}));
    t.mv(1, &["a1"]);
    t.mv(1, &["b2", "c3"]);
    t.mv(3, &["f1"]);
    t.mv(3, &["e2", "d3"]);
    t.pass();
    t.place("monster", &["c4"]); // #7
    t.pass();
    t.place("item", &["d2"]); // #8
    t.mv(3, &["d2"]);
    t.pass();
    t.pass();
    let mut st = t.step(3, &["c3", "c4"]);
    st["story"] = json!("a weak story");
    st["votes"] = json!({"for": [], "against": [0, 2]});
    t.act(json!({"type": "move", "pieces": [st]}));
    // Attacking a Monster and voted down: keeps the Item, falls back.
    assert_eq!(t.at(3), on("c3"));
    assert_eq!(t.at(8), json!({"where": "held", "by": 3}));
    assert_eq!(t.at(7), on("c4"));
    // A tie stands for the teller.
    let mut st = t.step(3, &["c4"]);
    st["story"] = json!("a better story");
    st["votes"] = json!({"for": [2], "against": [0]});
    t.act(json!({"type": "move", "pieces": [st]}));
    assert_eq!(t.at(7), json!({"where": "stockpile", "seat": 1}));
    let mut off = crossroads();
    off.place("monster", &["c4"]);
    off.pass();
    off.place("item", &["d2"]);
    off.mv(3, &["d2"]);
    off.pass();
    off.pass();
    off.refused(
        json!({"type": "move", "pieces": [{"piece": 3, "path": ["c3", "c4"], "story": "s", "votes": {"for": [0]}}]}),
        "legend.voting.off",
    );
}

#[test]
fn votes_and_crossings_that_would_be_dropped_are_refused() {
    // Votes judge an Item's use: on a Move that uses none they are refused.
    let mut t = Table::started(3, json!({"voting": "on"}));
    let mut st = t.step(1, &["a1"]);
    st["votes"] = json!({"for": [1]});
    let e = t.refused(
        json!({"type": "move", "pieces": [st]}),
        "legend.voting.unused",
    );
    assert!(e.contains("#1 judge no Item use"), "{e}");
    let mut off = Table::started(3, json!({}));
    let mut st = off.step(1, &["a1"]);
    st["votes"] = json!({"for": [1]});
    off.refused(json!({"type": "move", "pieces": [st]}), "legend.voting.off");

    // A second tally without a retelling would never be counted.
    let mut v = crossroads_voting();
    let mut st = v.step(3, &["c3", "c4"]);
    st["story"] = json!("a weak story");
    st["votes"] = json!({"for": [], "against": [0, 2], "retold_for": [0]});
    let e = v.refused(
        json!({"type": "move", "pieces": [st.clone()]}),
        "legend.voting.retold",
    );
    assert!(e.contains("give `votes.retold` too"), "{e}");
    // Nor after a first telling that stood.
    st["votes"] = json!({"for": [0, 2], "retold_against": [0]});
    v.refused(
        json!({"type": "move", "pieces": [st]}),
        "legend.voting.retold",
    );

    // Votes at an introduction are for a custom Ability only.
    let mut i = Table::new(3, json!({"abilities": "on"}));
    i.refused(
        json!({"type": "introduce", "avatar": {"name": "K"}, "talisman": {"name": "S"}, "symbol": "a", "ability": "pocket", "votes": {"for": [1]}}),
        "legend.ability.custom_vote",
    );
    let mut plain = Table::new(3, json!({}));
    plain.refused(
        json!({"type": "introduce", "avatar": {"name": "K"}, "talisman": {"name": "S"}, "symbol": "a", "votes": {"for": [1]}}),
        "legend.ability.custom_vote",
    );

    // Guile's `at` names the crossing of a Monument turned Obstacle only.
    let mut g = ability_table(["guile", "pocket", "pocket", "pocket"]);
    g.place("monster", &["c4"]); // #9
    let e = g.refused(
        json!({"type": "ability", "ability": "guile", "object": 9, "at": "+c4"}),
        "legend.ability.guile_crossing",
    );
    assert!(e.contains("leave `at` out"), "{e}");
    assert!(
        g.game
            .legal(None)
            .iter()
            .any(|l| l.action["ability"] == "guile"
                && l.action["object"] == 9
                && l.action.get("at").is_none()),
        "legal still offers Guile on the Monster"
    );
    g.act(json!({"type": "ability", "ability": "guile", "object": 9}));
    assert_eq!(g.piece(9)["category"], json!("hero"));
}

#[test]
fn duels_need_matching_arms_and_a_tie_is_a_coin() {
    let mut t = Table::started_with(3, json!({"duels": "on"}), DiceMode::Physical);
    t.mv(1, &["a1"]);
    t.mv(1, &["b2", "c3"]);
    t.mv(3, &["f1"]);
    t.mv(3, &["e2", "d3"]);
    t.pass();
    t.mv(1, &["d3"]);
    let duel =
        json!({"type": "duel", "piece": 1, "opponent": 3, "account": "a", "opponent_account": "b"});
    t.refused(duel.clone(), "physical.coin_needed");
    let mut bad = duel.clone();
    bad["votes"] = json!([{"seat": 1, "piece": 1}]);
    t.refused(bad, "legend.duel.vote");
    let mut decided = duel.clone();
    decided["votes"] = json!([{"seat": 2, "piece": 3}]);
    decided["heads"] = json!(true);
    t.refused(decided.clone(), "legend.duel.coin");
    decided.as_object_mut().unwrap().remove("heads");
    t.act(decided);
    assert_eq!(
        t.at(1),
        json!({"where": "corner", "corner": 0}),
        "Cy's vote gives Moss the duel"
    );
    let mut off = crossroads();
    off.refused(
        json!({"type": "duel", "piece": 1, "opponent": 3, "account": "a", "opponent_account": "b"}),
        "legend.duel.off",
    );
}
