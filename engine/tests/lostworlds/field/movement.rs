//! The movement phase: seats and initiative, points, running, battle zones,
//! halting and blocking.

use super::*;

#[test]
fn a_scenario_seats_one_player_a_figure_and_waits_for_initiative() {
    let pack = pack_with(None);
    let s = start(&pack, "stair-tower", DiceMode::Digital);
    assert_eq!(s.seats.len(), 3);
    assert_eq!(s.seat_name(1), "Brakka (Bo)");
    assert_eq!(at(&s, 0), "c6");
    assert_eq!(stage(&s), Stage::Initiative);
    assert!(s.seats.iter().all(|st| st.status == SeatStatus::Aside));
    let players = vec!["Ada".to_string(), "Bo".to_string()];
    let options = serde_json::from_value(json!({"scenario": "stair-tower"})).unwrap();
    let e = decide::setup(&players, &options, &pack, 3, DiceMode::Digital).unwrap_err();
    assert_eq!(e.rule, "setup.players");
    assert!(e.message.contains("3 figures"), "{}", e.message);
    let options = serde_json::from_value(json!({"scenario": "moon"})).unwrap();
    let e = decide::setup(&players, &options, &pack, 3, DiceMode::Digital).unwrap_err();
    assert!(e.message.contains("well-house"), "{}", e.message);
    let options =
        serde_json::from_value(json!({"scenario": "well-house", "characters": "nowa,nowa"}))
            .unwrap();
    let e = decide::setup(&players, &options, &pack, 3, DiceMode::Digital).unwrap_err();
    assert!(
        e.message.contains("names its own characters"),
        "{}",
        e.message
    );
}

#[test]
fn initiative_orders_the_moves_and_a_tie_keeps_seat_order() {
    let mut s = yard_state();
    let m = refused(
        &mut s,
        None,
        json!({"type": "roll", "dice": [3]}),
        "lostworlds.scenario.dice",
    );
    assert!(m.contains("2 dice"), "{m}");
    ok(&mut s, None, json!({"type": "roll", "dice": [2, 5]}));
    assert_eq!(s.field.as_ref().unwrap().order, vec![1, 0]);
    assert_eq!(s.field.as_ref().unwrap().mover(), Some(1));
    // Brakka's move: height 5 points.
    assert_eq!(points(&s, 1), 5);
    refused(
        &mut s,
        Some(0),
        json!({"type": "move", "to": "a2"}),
        "lostworlds.movement.turn",
    );
}

#[test]
fn moving_costs_a_point_a_space_and_climbing_the_change_in_level() {
    let mut s = yard_state();
    put(&mut s, 0, "b3");
    initiative(&mut s, 0);
    assert_eq!(points(&s, 0), 4);
    ok(&mut s, Some(0), json!({"type": "move", "to": "c3"}));
    assert_eq!(points(&s, 0), 2, "two levels up cost 2");
    ok(&mut s, Some(0), json!({"type": "move", "to": "d3"}));
    assert_eq!(points(&s, 0), 0);
    let m = refused(
        &mut s,
        Some(0),
        json!({"type": "move", "to": "e3"}),
        "lostworlds.movement.points",
    );
    assert!(m.contains("0 movement points left; this costs 4"), "{m}");
    refused(
        &mut s,
        Some(0),
        json!({"type": "move", "to": "z9"}),
        "lostworlds.movement.space",
    );
}

#[test]
fn running_adds_two_and_excludes_the_starred_actions_and_a_second_run() {
    let mut s = yard_state();
    put(&mut s, 0, "b2");
    initiative(&mut s, 0);
    ok(&mut s, Some(0), json!({"type": "run"}));
    assert_eq!(points(&s, 0), 6);
    let m = refused(
        &mut s,
        Some(0),
        json!({"type": "pick_up", "object": "chest"}),
        "lostworlds.movement.running",
    );
    assert!(m.contains("not done on a run"), "{m}");
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "1"}),
    );
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "e4"}),
    );
    // Nowa ran and stands on the chest's space: a position to fall.
    assert_eq!(stage(&s), Stage::Falls);
    ok(&mut s, None, json!({"type": "roll", "dice": [3]}));
    assert_eq!(stage(&s), Stage::Initiative);
    initiative(&mut s, 0);
    let m = refused(
        &mut s,
        Some(0),
        json!({"type": "run"}),
        "lostworlds.movement.running",
    );
    assert!(m.contains("twice in a row"), "{m}");
    // A starred action first rules the run out too.
    ok(
        &mut s,
        Some(0),
        json!({"type": "pick_up", "object": "chest"}),
    );
    refused(
        &mut s,
        Some(0),
        json!({"type": "run"}),
        "lostworlds.movement.running",
    );
}

#[test]
fn the_battle_zone_follows_the_height_rule() {
    // The rule text's example: height 3 on level 0 beside height 6 on
    // level 4 are not in each other's zone; reversed, they are.
    let mut s = yard_state();
    put(&mut s, 0, "c4");
    put(&mut s, 1, "d3");
    edit_sheet(&mut s, 0, |sheet| {
        sheet.height = 3;
    });
    edit_sheet(&mut s, 1, |sheet| {
        sheet.height = 6;
    });
    // c4 (level 0) touches d3 (level 4): odd rows sit to the right.
    let b = tabletape_engine::lostworlds::field::decide::board(&s).unwrap();
    assert!(b.adjacent(Hex::parse("c4").unwrap(), Hex::parse("d3").unwrap()));
    assert!(
        !b.in_zone(0, 1),
        "the lower figure's 3 is not more than 4 levels"
    );
    let mut swapped = s.clone();
    let (h0, h1) = (
        s.seats[0].party[0].sheet.clone(),
        s.seats[1].party[0].sheet.clone(),
    );
    swapped.seats[0].party[0].sheet = h1;
    swapped.seats[1].party[0].sheet = h0;
    let b = tabletape_engine::lostworlds::field::decide::board(&swapped).unwrap();
    assert!(b.in_zone(0, 1), "the lower figure's 6 is more than 4");
}

#[test]
fn entering_a_battle_zone_lets_the_opponent_halt_the_mover() {
    let mut s = yard_at(["a4", "c4"], 0);
    ok(&mut s, Some(0), json!({"type": "move", "to": "b4"}));
    let f = s.field.as_ref().unwrap();
    assert_eq!(f.offer.as_ref().unwrap().by, vec![1]);
    // The mover waits for the answer.
    refused(
        &mut s,
        Some(0),
        json!({"type": "move", "to": "b5"}),
        "lostworlds.movement.waiting",
    );
    refused(
        &mut s,
        Some(0),
        json!({"type": "halt"}),
        "lostworlds.movement.halt",
    );
    ok(&mut s, Some(1), json!({"type": "halt"}));
    assert_eq!(
        points(&s, 0),
        0,
        "a halted mover loses the rest of its move"
    );
    refused(
        &mut s,
        Some(0),
        json!({"type": "break_off", "to": "a4"}),
        "lostworlds.movement.break_off",
    );
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "a4"}),
    );
    // The halter may not move after halting: no points, and no run for
    // the running bonus either (rules 5).
    assert_eq!(points(&s, 1), 0);
    refused(
        &mut s,
        Some(1),
        json!({"type": "run"}),
        "lostworlds.movement.running",
    );
    let mut rules_4 = s.clone();
    rules_4.rules = 4;
    ok(&mut rules_4, Some(1), json!({"type": "run"}));
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "d5"}),
    );
    assert_eq!(stage(&s), Stage::Combat);
    assert_eq!(s.seats[0].status, SeatStatus::Fighting);
    assert_eq!(s.foes(0), vec![1]);
}

#[test]
fn no_halt_for_a_mover_coming_from_the_undefended_space() {
    let mut s = yard_state();
    put(&mut s, 0, "a4");
    put(&mut s, 1, "c4");
    s.field.as_mut().unwrap().pieces[1].undefended = Hex::parse("b4");
    initiative(&mut s, 0);
    ok(&mut s, Some(0), json!({"type": "move", "to": "b4"}));
    assert!(s.field.as_ref().unwrap().offer.is_none());
    assert_eq!(points(&s, 0), 3);
}

#[test]
fn a_block_leaves_the_opponent_only_regaining_balance() {
    let mut s = yard_at(["b4", "c4"], 0);
    ok(&mut s, Some(0), json!({"type": "block", "target": 1}));
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "a4"}),
    );
    let m = refused(
        &mut s,
        Some(1),
        json!({"type": "move", "to": "d4"}),
        "lostworlds.movement.blocked",
    );
    assert!(m.contains("regaining balance"), "{m}");
}

/// The yard with a second Guard (Brakka) standing on c1, Nowa's friend.
fn yard_with_a_friend() -> State {
    let mut yard = yard();
    yard["sides"][0]["figures"] = json!([
        {"character": "nowa", "at": "a1"},
        {"character": "brakka", "at": "c1"}
    ]);
    let pack = pack_with(Some(yard));
    start(&pack, "yard", DiceMode::Physical)
}

#[test]
fn a_figure_in_a_friends_space_keeps_the_points_to_step_out() {
    let mut s = yard_with_a_friend();
    initiative(&mut s, 0);
    ok(&mut s, Some(0), json!({"type": "move", "to": "b1"}));
    ok(&mut s, Some(0), json!({"type": "move", "to": "c1"}));
    assert_eq!(points(&s, 0), 2);
    // Down, it crawls out for 2: still free to go.
    ok(&mut s, Some(0), json!({"type": "fall_prone"}));
    // Standing up would spend them and strand it beside its friend.
    let before = s.clone();
    let m = refused(
        &mut s,
        Some(0),
        json!({"type": "stand_up"}),
        "lostworlds.movement.crowded",
    );
    assert!(m.contains("keeps the points to step out again"), "{m}");
    ok(&mut s, Some(0), json!({"type": "crawl", "to": "d1"}));
    assert_eq!(at(&s, 0), "d1");
    // Under rules 5 a deed there could spend them, and the move ended so.
    let mut old = before;
    old.rules = 5;
    ok(&mut old, Some(0), json!({"type": "stand_up"}));
    assert_eq!((at(&old, 0), points(&old, 0)), ("c1".to_string(), 0));
}
