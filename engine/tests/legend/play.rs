//! Whole games and the turn: seeded random legal play to the end, two
//! actions a turn, the end after round seven on points, the score table,
//! and squares and crossings read only as written.

use super::*;

#[test]
fn seeded_random_legal_games_run_to_their_end() {
    for (players, options) in [
        (3, json!({})),
        (
            4,
            json!({"voting": "on", "duels": "on", "abilities": "on", "first": 2}),
        ),
        (3, json!({"abilities": "on", "duels": "on"})),
    ] {
        for seed in 0..6u64 {
            let mut t = Table::with(players, options.clone(), DiceMode::Digital, seed);
            let mut rng = TableRng::for_event(seed, 99);
            let mut steps = 0;
            loop {
                let legal: Vec<_> = t
                    .game
                    .legal(None)
                    .into_iter()
                    .map(|l| l.with_words())
                    .filter(|l| l.needs.is_empty())
                    .collect();
                if legal.is_empty() {
                    break;
                }
                assert!(
                    legal.len() < 2000,
                    "too many legal actions: {}",
                    legal.len()
                );
                let pick = legal[rng.below(legal.len() as u32) as usize].action.clone();
                t.act(pick);
                steps += 1;
                assert!(steps < 400, "seed {seed}: the game did not end");
            }
            assert!(
                t.game.is_over(),
                "seed {seed}: no legal action but not over"
            );
        }
    }
}

#[test]
fn turns_are_two_actions_in_order_from_the_first_player() {
    let mut t = Table::started(3, json!({"first": 1}));
    assert_eq!(t.current(), 1);
    assert_eq!(
        t.try_as(0, json!({"type": "pass"})).unwrap_err().rule,
        "legend.turn.not_yours"
    );
    t.mv(3, &["f1"]);
    assert_eq!(t.current(), 1);
    t.mv(3, &["e2", "d3"]);
    assert_eq!(t.current(), 2, "two actions end the turn");
    t.pass();
    assert_eq!(t.current(), 0, "clockwise wraps to seat 0");
    assert_eq!(t.state()["round"], json!(1));
    t.pass();
    assert_eq!(t.state()["round"], json!(2));
}

#[test]
fn the_score_table_and_a_tie_shared() {
    use tabletape_engine::legend::actions::Score;
    let s = |seat, total, talismans, monuments| Score {
        seat,
        total,
        talismans,
        monuments,
        ..Score::default()
    };
    // No tie-break: level on the most points, the victory is shared.
    assert_eq!(
        tabletape_engine::legend::winners(&[s(0, 6, 0, 1), s(1, 6, 1, 0), s(2, 3, 0, 0)]),
        vec![0, 1]
    );
    assert_eq!(
        tabletape_engine::legend::winners(&[s(0, 7, 0, 0), s(1, 6, 1, 1)]),
        vec![0]
    );
    assert_eq!(
        tabletape_engine::legend::winners(&[s(0, 4, 0, 0), s(1, 4, 0, 0)]),
        vec![0, 1]
    );
    // A played game: Ada has a Monster (1), an Obstacle (1) and a Monument (3); Bo a Hero (1).
    let mut t = Table::started(3, json!({}));
    t.mv(1, &["a1"]);
    t.mv(1, &["b2", "c3"]);
    t.act(json!({"type": "place", "object": {"name": "h", "category": "hero"}}));
    t.pass();
    t.pass();
    t.place("monster", &["d4"]);
    t.place("monument", &["c4"]);
    t.pass();
    t.pass();
    t.act(json!({"type": "place", "object": {"name": "w", "category": "obstacle", "description": "a thing in the way"}, "at": "+d4"}));
    let state: tabletape_engine::legend::State = serde_json::from_value(t.state()).unwrap();
    let scores = tabletape_engine::legend::scores(&state);
    assert_eq!(scores[0].total, 5);
    assert_eq!(
        (scores[0].monsters, scores[0].monuments, scores[0].obstacles),
        (1, 1, 1)
    );
    assert_eq!(scores[1].total, 1);
}

#[test]
fn the_game_ends_after_round_seven_on_points() {
    let mut t = Table::started(3, json!({}));
    for _ in 0..21 {
        assert!(!t.game.is_over());
        t.pass();
    }
    assert!(t.game.is_over());
    assert_eq!(t.state()["outcome"]["by"], json!("points"));
    assert_eq!(t.state()["outcome"]["winners"], json!([0, 1, 2]));
}

#[test]
fn squares_and_crossings_are_read_only_in_their_written_form() {
    let mut t = Table::started(3, json!({}));
    // Before, `š3` was read as a3 (the column cut to a byte), and
    // `a+4`, `a04` as a4.
    for bad in [
        "š3", "a+4", "a04", "A1", " a1", "a1 ", "a1\t", "a", "g1", "a7", "a0", "+a1",
    ] {
        let e = t
            .game
            .decide(
                None,
                &json!({"type": "move", "pieces": [{"piece": 1, "path": [bad]}]}),
            )
            .unwrap_err();
        assert!(
            e.message.contains(&format!(
                "`{bad}` is not a square of the map: write a column a-f and a row 1-6, as in c4"
            )),
            "{bad:?}: {}",
            e.message
        );
        // The same as a key of `scenery`.
        let e = t
            .game
            .decide(None, &json!({"type": "move", "pieces": [{"piece": 1, "path": ["a1"], "scenery": {bad: "a meadow"}}]}))
            .unwrap_err();
        assert!(
            e.message.contains("is not a square of the map"),
            "{bad:?}: {}",
            e.message
        );
    }
    for bad in [
        "+c03", "+C3", " +c3", "+c3 ", "c3", "+h1", "+a8", "+š3", "++c3", "-g1", "|a7", "-C3",
    ] {
        let e = t
            .game
            .decide(None, &json!({"type": "place", "object": {"name": "a wall", "category": "obstacle", "description": "a thing in the way"}, "at": bad}))
            .unwrap_err();
        assert!(
            e.message.contains(&format!(
                "`{bad}` is not a place on the grid lines: write +c3 for a crossing"
            )),
            "{bad:?}: {}",
            e.message
        );
    }
    // The written forms themselves still read.
    t.mv(1, &["a1"]);
    assert_eq!(t.at(1), on("a1"));
    let e = t
        .game
        .decide(None, &json!({"type": "place", "object": {"name": "a wall", "category": "obstacle", "description": "a thing in the way"}, "at": "+g7"}))
        .unwrap_err();
    assert_eq!(e.rule, "legend.placement.obstacle_territory");
}
