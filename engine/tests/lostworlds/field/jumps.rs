//! Jumps: reckless, onto an opponent, over a space.

use super::*;

#[test]
fn a_reckless_jump_lands_by_the_table() {
    for (roll, lands, hurt) in [
        (2, Position::Standing, 0),
        (4, Position::OffBalance, 0),
        (5, Position::Down, 0),
        (6, Position::Down, 4),
    ] {
        let mut s = yard_state();
        put(&mut s, 0, "d3");
        initiative(&mut s, 0);
        let body = s.seat(0).fighter().body;
        ok(
            &mut s,
            Some(0),
            json!({"type": "jump_down", "to": "e3", "roll": roll}),
        );
        assert_eq!(at(&s, 0), "e3");
        assert_eq!(position(&s, 0), lands, "roll {roll}");
        assert_eq!(s.seat(0).fighter().body, body - hurt, "roll {roll}");
        assert_eq!(points(&s, 0), 3, "a reckless jump costs 1");
    }
}

#[test]
fn jumping_onto_an_opponent_by_the_table() {
    let cases = [
        (1, Position::OffBalance, Position::Down, 0, 2),
        (3, Position::OffBalance, Position::OffBalance, 0, 0),
        (6, Position::Down, Position::Standing, 4, 0),
    ];
    for (roll, mine, theirs, my_hurt, their_hurt) in cases {
        let mut s = yard_at(["d3", "e3"], 0);
        let (b0, b1) = (s.seat(0).fighter().body, s.seat(1).fighter().body);
        refused(
            &mut s,
            Some(0),
            json!({"type": "jump_onto", "target": 1, "land": "c3", "roll": roll}),
            "lostworlds.movement.jump_onto",
        );
        ok(
            &mut s,
            Some(0),
            json!({"type": "jump_onto", "target": 1, "land": "e4", "roll": roll}),
        );
        assert_eq!(at(&s, 0), "e4");
        assert_eq!(position(&s, 0), mine, "roll {roll}");
        assert_eq!(position(&s, 1), theirs, "roll {roll}");
        assert_eq!(s.seat(0).fighter().body, b0 - my_hurt);
        assert_eq!(s.seat(1).fighter().body, b1 - their_hurt);
    }
    // 2: the opponent drops the weapon.
    let mut s = yard_at(["d3", "e3"], 0);
    ok(
        &mut s,
        Some(0),
        json!({"type": "jump_onto", "target": 1, "land": "e4", "roll": 2}),
    );
    assert!(s.seat(1).orders.disarmed());
}

#[test]
fn a_jump_over_a_space_needs_a_run_and_two_spaces_first() {
    let mut s = yard_state();
    put(&mut s, 0, "a1");
    initiative(&mut s, 0);
    ok(&mut s, Some(0), json!({"type": "run"}));
    let m = refused(
        &mut s,
        Some(0),
        json!({"type": "jump_over", "to": "c1"}),
        "lostworlds.movement.jump_over",
    );
    assert!(m.contains("two spaces"), "{m}");
    ok(&mut s, Some(0), json!({"type": "move", "to": "b1"}));
    ok(&mut s, Some(0), json!({"type": "move", "to": "c1"}));
    ok(&mut s, Some(0), json!({"type": "jump_over", "to": "e1"}));
    assert_eq!(at(&s, 0), "e1");
    assert_eq!(points(&s, 0), 0, "the move ends where the jump lands");
}
