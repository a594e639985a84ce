//! After the fight: experience, advancements and raising modifiers.

use super::*;

#[test]
fn experience_advancement_and_improvement_order() {
    let mut pack = mini_pack();
    pack.characters[0].defeated_body_points = 45;
    pack.characters[0].experience = 15;
    route(&mut pack, "bryn", 36, 26, 23);
    set_picture(&mut pack, "bryn", 23, |p| p.score = Some(20));
    let mut state = start(&pack, 2, json!({"characters": "ash,bryn"}));
    close_quarters(&mut state);
    let facts = act(&mut state, None, exchange(&[(0, 36), (1, 26)])).unwrap();
    assert!(matches!(facts.last(), Some(Fact::FightEnded { .. })));
    let ash = &state.seats[0].party[0];
    assert_eq!(
        (
            ash.sheet.experience,
            ash.sheet.defeated_body_points,
            ash.advancements
        ),
        (23, 53, 1)
    );
    assert_eq!(state.seats[1].party[0].condition, Condition::Dead);
    assert_eq!(
        act(
            &mut state,
            Some(1),
            json!({"type": "improve", "maneuver": "Block High"})
        )
        .unwrap_err()
        .rule,
        "lostworlds.dead"
    );
    assert!(
        act(&mut state, None, json!({"type": "close"})).is_err(),
        "spend the advancement first"
    );
    let e = act(
        &mut state,
        Some(0),
        json!({"type": "advance", "category": "spell"}),
    )
    .unwrap_err();
    assert!(e.message.contains("body, luck"), "{}", e.message);
    act(
        &mut state,
        Some(0),
        json!({"type": "advance", "category": "body"}),
    )
    .unwrap();
    assert_eq!(state.seats[0].party[0].sheet.body_points, 11);
    // 23 experience, a raise costs 11 (maximum body points): two raises.
    act(
        &mut state,
        Some(0),
        json!({"type": "improve", "maneuver": "Down Swing Bash"}),
    )
    .unwrap();
    let e = act(
        &mut state,
        Some(0),
        json!({"type": "improve", "maneuver": "Down Swing Bash"}),
    )
    .unwrap_err();
    assert_eq!(e.rule, "lostworlds.improvement_order");
    act(
        &mut state,
        Some(0),
        json!({"type": "improve", "maneuver": "Side Swing High"}),
    )
    .unwrap();
    let ash = &state.seats[0].party[0];
    assert_eq!(
        (
            ash.sheet.experience,
            ash.sheet.maneuvers[0].modifier,
            ash.sheet.maneuvers[1].modifier
        ),
        (1, 4, 1)
    );
    let e = act(
        &mut state,
        Some(0),
        json!({"type": "improve", "maneuver": "Block High"}),
    )
    .unwrap_err();
    assert_eq!(e.rule, "lostworlds.experience");
    assert!(LostWorlds::is_over(&state), "nothing left to spend");
}

#[test]
fn the_raising_round_is_kept_on_the_sheet_from_fight_to_fight() {
    let mut pack = mini_pack();
    // Ash raised Bash in an earlier fight: every other modifier comes first.
    pack.characters[0].maneuvers[0].raised = 1;
    pack.characters[0].experience = 40;
    route(&mut pack, "bryn", 36, 26, 23);
    set_picture(&mut pack, "bryn", 23, |p| p.score = Some(20));
    let mut state = start(&pack, 2, json!({"characters": "ash,bryn"}));
    close_quarters(&mut state);
    act(&mut state, None, exchange(&[(0, 36), (1, 26)])).unwrap();
    let bash = state.seats[0].party[0].sheet.maneuvers[0].full_name();
    let e = act(
        &mut state,
        Some(0),
        json!({"type": "improve", "maneuver": bash}),
    )
    .unwrap_err();
    assert_eq!(e.rule, "lostworlds.improvement_order", "{}", e.message);
    let other = state.seats[0].party[0].sheet.maneuvers[1].full_name();
    act(
        &mut state,
        Some(0),
        json!({"type": "improve", "maneuver": other}),
    )
    .unwrap();
    // The sheet the state shows carries the "+" column on to the next fight.
    let sheet = &state.seats[0].party[0].sheet;
    assert_eq!(
        (sheet.maneuvers[0].raised, sheet.maneuvers[1].raised),
        (1, 1)
    );
}
