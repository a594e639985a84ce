//! Shoves, falls and recovery.

use super::*;

#[test]
fn shoving_rolls_the_falling_table_and_the_shover_places_the_fall() {
    let mut s = yard_at(["b4", "c4"], 0);
    ok(
        &mut s,
        Some(0),
        json!({"type": "shove", "target": 1, "hard": true, "roll": 5}),
    );
    assert_eq!(points(&s, 0), 0, "a hard shove costs 4");
    // 5 + 1 (hard) = 6: a fall, which Nowa places.
    assert_eq!(s.field.as_ref().unwrap().placing.len(), 1);
    let m = refused(
        &mut s,
        Some(0),
        json!({"type": "place", "to": "b4"}),
        "lostworlds.movement.place",
    );
    assert!(m.contains("c5"), "{m}");
    ok(&mut s, Some(0), json!({"type": "place", "to": "d4"}));
    assert_eq!(at(&s, 1), "d4");
    assert_eq!(position(&s, 1), Position::Down);
    assert!(s.field.as_ref().unwrap().piece(0).done.shoved_hard);
}

/// Shove timing: the shoved figure rolls at once and the roll holds at once.
/// A 4 or 5 leaves it off balance for this very turn's combat phase, unless
/// its own move, later in the turn, regains its balance.
#[test]
fn a_shoved_figure_is_off_balance_at_once_until_its_own_move_regains_it() {
    for regains in [false, true] {
        let mut s = yard_at(["b4", "c4"], 0);
        ok(
            &mut s,
            Some(0),
            json!({"type": "shove", "target": 1, "roll": 4}),
        );
        assert_eq!(position(&s, 1), Position::OffBalance);
        assert!(s.field.as_ref().unwrap().placing.is_empty(), "no fall");
        ok(
            &mut s,
            Some(0),
            json!({"type": "end_move", "undefended": "a4"}),
        );
        if regains {
            ok(&mut s, Some(1), json!({"type": "regain_balance"}));
            assert_eq!(position(&s, 1), Position::Standing);
        }
        ok(
            &mut s,
            Some(1),
            json!({"type": "end_move", "undefended": "d4"}),
        );
        ok(&mut s, Some(0), json!({"type": "engage", "foes": [1]}));
        ok(&mut s, Some(1), json!({"type": "engage", "foes": [0]}));
        assert_eq!(stage(&s), Stage::Combat);
        // The situation table starts an off-balance fighter on picture 1.
        let own = s.seat(1).sights[&0].picture;
        assert_eq!(own == 1, !regains, "regains {regains}: picture {own}");
    }
}

/// Nowa runs onto c3 (level 2, with level-0 neighbours) and both end their
/// moves, with no one to fight: the falls are checked.
fn run_beside_a_drop(rules: u32) -> State {
    let mut s = yard_state();
    s.rules = rules;
    put(&mut s, 0, "c2");
    initiative(&mut s, 0);
    ok(&mut s, Some(0), json!({"type": "run"}));
    ok(&mut s, Some(0), json!({"type": "move", "to": "c3"}));
    // c3 is level 2 with level-0 neighbours: a position to fall.
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "b3"}),
    );
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "e4"}),
    );
    assert_eq!(stage(&s), Stage::Falls);
    s
}

#[test]
fn falls_are_checked_after_running_beside_a_drop() {
    // The runner began the combat phase off balance and fought no one: it
    // still is, +1 on the falls roll (rules 5; rules 4 gave nothing).
    let old = run_beside_a_drop(4);
    assert_eq!(old.field.as_ref().unwrap().at_risk, vec![(0, 0)]);
    let mut s = run_beside_a_drop(5);
    assert_eq!(s.field.as_ref().unwrap().at_risk, vec![(0, 1)]);
    assert_eq!(position(&s, 0), Position::OffBalance);
    ok(&mut s, None, json!({"type": "roll", "dice": [6]}));
    let body = s.seat(0).fighter().body;
    // Brakka, the nearest opponent, sets Nowa down two levels lower.
    refused(
        &mut s,
        Some(0),
        json!({"type": "place", "to": "b3"}),
        "lostworlds.movement.place",
    );
    ok(&mut s, Some(1), json!({"type": "place", "to": "b3"}));
    assert_eq!(s.seat(0).fighter().body, body - 2, "one point a level");
    assert_eq!(position(&s, 0), Position::Down);
    assert_eq!(stage(&s), Stage::Initiative);
    assert_eq!(s.field.as_ref().unwrap().turn, 2);
}

#[test]
fn the_unconscious_roll_to_recover_and_slaying_adds_three() {
    let mut s = yard_state();
    put(&mut s, 0, "b4");
    put(&mut s, 1, "b4");
    s.seats[1].party[0].body = -1;
    s.seats[1].party[0].condition = Condition::Unconscious;
    s.seats[1].status = SeatStatus::Down;
    ok(&mut s, None, json!({"type": "roll", "dice": [3]}));
    ok(&mut s, Some(0), json!({"type": "slay", "target": 1}));
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "a4"}),
    );
    assert_eq!(stage(&s), Stage::Recovery);
    // -1 body and 2 + 3 = 5 on the table: -1.
    ok(&mut s, None, json!({"type": "roll", "dice": [2]}));
    assert_eq!(s.seat(1).fighter().body, -1);
    assert_eq!(s.seat(1).fighter().condition, Condition::Unconscious);
    // Next turn no one slays: a 1 brings Brakka round with 4.
    ok(&mut s, None, json!({"type": "roll", "dice": [3]}));
    ok(&mut s, Some(0), json!({"type": "move", "to": "a4"}));
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "a5"}),
    );
    ok(&mut s, None, json!({"type": "roll", "dice": [1]}));
    assert_eq!(s.seat(1).fighter().body, 4);
    assert_eq!(s.seat(1).fighter().condition, Condition::Fit);
    assert_eq!(position(&s, 1), Position::Down, "it comes to where it lay");
}

/// Nowa on b4 has shoved the Raider on c4 down; her friend stands on d4.
fn shoved_beside_a_friend(rules: u32) -> State {
    let mut yard = yard();
    yard["sides"][0]["figures"] = json!([
        {"character": "nowa", "at": "a1"},
        {"character": "brakka", "at": "c1"}
    ]);
    let mut s = start(&pack_with(Some(yard)), "yard", DiceMode::Physical);
    s.rules = rules;
    put(&mut s, 0, "b4");
    put(&mut s, 2, "c4");
    put(&mut s, 1, "d4");
    initiative(&mut s, 0);
    ok(
        &mut s,
        Some(0),
        json!({"type": "shove", "seat": 0, "target": 2, "hard": true, "roll": 5}),
    );
    assert_eq!(s.field.as_ref().unwrap().placing.len(), 1);
    s
}

#[test]
fn a_fall_onto_a_figure_is_jumping_down_onto_it() {
    let mut s = shoved_beside_a_friend(6);
    // d4 is taken: the fall comes down on the friend there, and the faller
    // ends beside it.
    let m = refused(
        &mut s,
        Some(0),
        json!({"type": "place", "seat": 0, "to": "d4"}),
        "lostworlds.movement.place",
    );
    assert!(m.contains("say where it ends (`land`)"), "{m}");
    let offered: Vec<Value> = LostWorlds::legal(&s, Some(0))
        .into_iter()
        .map(|l| serde_json::to_value(l.action).unwrap())
        .filter(|a| a["to"] == "d4")
        .collect();
    assert!(
        !offered.is_empty() && offered.iter().all(|a| a["land"].is_string()),
        "{offered:?}"
    );
    let body = s.seat(1).fighter().body;
    let facts = ok(
        &mut s,
        Some(0),
        json!({"type": "place", "seat": 0, "to": "d4", "land": offered[0]["land"], "roll": 1}),
    );
    assert!(
        facts.iter().any(|f| matches!(f, Fact::FellOnto { .. })),
        "{facts:?}"
    );
    // A 1 flattens the one below: down, 2 body points lost; the faller
    // lands off balance, unhurt, beside it.
    assert_eq!(position(&s, 1), Position::Down);
    assert_eq!(s.seat(1).fighter().body, body - 2);
    assert_eq!(position(&s, 2), Position::OffBalance);
    assert_eq!(at(&s, 2), offered[0]["land"].as_str().unwrap());
    assert_eq!(at(&s, 1), "d4");

    // Under rules 5 an occupied space was no place to fall.
    let mut old = shoved_beside_a_friend(5);
    let m = refused(
        &mut old,
        Some(0),
        json!({"type": "place", "seat": 0, "to": "d4"}),
        "lostworlds.movement.place",
    );
    assert!(m.contains("with no one standing in it"), "{m}");
}
