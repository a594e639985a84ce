//! Shoves, falls and recovery.

use super::*;

#[test]
fn shoving_rolls_the_falling_table_and_the_shover_places_the_fall() {
    let mut s = yard_state();
    put(&mut s, 0, "b4");
    put(&mut s, 1, "c4");
    initiative(&mut s, 0);
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
