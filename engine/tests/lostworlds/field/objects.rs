//! Objects and bodies: thrown, examined, carried, and throwing weapons.

use super::*;

/// Nowa on b2, the chest in her hands, her move to make; Brakka on `foe`.
fn holding_the_chest(foe: &str) -> State {
    let mut s = yard_state();
    put(&mut s, 0, "b2");
    put(&mut s, 1, foe);
    initiative(&mut s, 0);
    ok(
        &mut s,
        Some(0),
        json!({"type": "pick_up", "object": "chest"}),
    );
    s
}

#[test]
fn throwing_checks_range_rolls_to_hit_and_scatters() {
    let mut s = holding_the_chest("b5");
    // A chest goes 3 at most (Nowa's height is 4); b5 is 3 away.
    let m = refused(
        &mut s,
        Some(0),
        json!({"type": "throw", "at": "f2", "roll": 1}),
        "lostworlds.movement.throw",
    );
    assert!(m.contains("1 to 3 away"), "{m}");
    refused(
        &mut s,
        Some(0),
        json!({"type": "throw", "at": "b5"}),
        "physical.roll_needed",
    );
    let body = s.seat(1).fighter().body;
    let facts = ok(
        &mut s,
        Some(0),
        json!({"type": "throw", "at": "b5", "roll": 2}),
    );
    let Fact::Stepped {
        deed: Deed::Threw { landing, .. },
        ..
    } = &facts[0]
    else {
        panic!("{facts:?}")
    };
    assert_eq!(landing.struck, Some(1));
    assert_eq!(s.seat(1).fighter().body, body - 4, "a chest weighs 4");
    assert_eq!(position(&s, 1), Position::Down);
    // A miss at range 3 (roll 3) scatters by the second die.
    let mut s = holding_the_chest("f4");
    let m = refused(
        &mut s,
        Some(0),
        json!({"type": "throw", "at": "b5", "roll": 3}),
        "physical.roll_needed",
    );
    assert!(m.contains("scatter"), "{m}");
    ok(
        &mut s,
        Some(0),
        json!({"type": "throw", "at": "b5", "roll": 3, "scatter": 1}),
    );
    let chest = s
        .field
        .as_ref()
        .unwrap()
        .thing("chest")
        .unwrap()
        .at
        .to_string();
    assert_eq!(chest, "c5", "scatter 1 is the space east of the target");
}

#[test]
fn examining_finds_what_the_scenario_hid() {
    let mut s = yard_state();
    put(&mut s, 0, "b2");
    initiative(&mut s, 0);
    // Until examined, only the owner's view holds what the chest hides.
    let shows = |s: &State, viewer: Viewer| {
        LostWorlds::view(s, viewer)
            .to_string()
            .contains("map of the hills")
    };
    assert!(shows(&s, Viewer::Owner));
    assert!(!shows(&s, Viewer::Seat(0)) && !shows(&s, Viewer::Seat(1)));
    assert!(!shows(&s, Viewer::Public));
    let facts = ok(
        &mut s,
        Some(0),
        json!({"type": "examine", "object": "CHEST"}),
    );
    let line = LostWorlds::narrate(&s, &facts[0]).join(" ");
    assert!(line.contains("map of the hills"), "{line}");
    assert_eq!(points(&s, 0), 2);
    // Once found it is on the table for everyone.
    assert!(shows(&s, Viewer::Seat(1)) && shows(&s, Viewer::Public));
}

/// Knocks seat `seat` unconscious where it stands.
fn knock_out(s: &mut State, seat: Seat) {
    s.seats[seat as usize].party[0].body = -1;
    s.seats[seat as usize].party[0].condition = Condition::Unconscious;
    s.seats[seat as usize].status = SeatStatus::Down;
    s.field.as_mut().unwrap().pieces[seat as usize].position = Position::Down;
}

#[test]
fn an_unconscious_figure_is_carried_laid_down_and_thrown_and_rolls_no_recovery() {
    let mut s = yard_state();
    put(&mut s, 0, "e4");
    put(&mut s, 1, "f4");
    knock_out(&mut s, 0);
    // The raiders hold the yard instead, so Nowa down is no victory yet.
    let f = s.field.as_mut().unwrap();
    let mut yard = (*f.scenario).clone();
    yard.sides[1].goal = tabletape_engine::lostworlds::field::content::Goal::Hold;
    f.scenario = std::sync::Arc::new(yard);
    ok(&mut s, None, json!({"type": "roll", "dice": [4]}));
    ok(&mut s, Some(1), json!({"type": "move", "to": "e4"}));
    // The chest is no body; a body is named by its character or player.
    let m = refused(
        &mut s,
        Some(1),
        json!({"type": "pick_up", "object": "Nobody"}),
        "lostworlds.movement.object",
    );
    assert!(m.contains("chest"), "{m}");
    let facts = ok(
        &mut s,
        Some(1),
        json!({"type": "pick_up", "object": "nowa"}),
    );
    let line = LostWorlds::narrate(&s, &facts[0]).join(" ");
    assert!(line.contains("hoists Nowa's body"), "{line}");
    assert_eq!(points(&s, 1), 3);
    ok(&mut s, Some(1), json!({"type": "move", "to": "d4"}));
    assert_eq!(at(&s, 0), "d4", "the body goes with its carrier");
    let drawn = LostWorlds::render_svg(&s, Viewer::Owner);
    assert!(!drawn.contains("figure-0"), "a carried body is not drawn");
    assert!(LostWorlds::render(&s, Viewer::Owner).contains("carrying Nowa"));
    s.field.as_mut().unwrap().things[0].at = Hex::parse("d4").unwrap();
    let m = refused(
        &mut s,
        Some(1),
        json!({"type": "pick_up", "object": "chest"}),
        "lostworlds.movement.pick_up",
    );
    assert!(m.contains("carries Nowa already"), "{m}");
    ok(&mut s, Some(1), json!({"type": "drop", "at": "c4"}));
    assert_eq!(at(&s, 0), "c4");
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "e4"}),
    );
    assert_ne!(stage(&s), Stage::Recovery, "a moved body rolls no recovery");
    assert_eq!(stage(&s), Stage::Initiative);
    // Next turn: lifted by its player's name and thrown, it weighs its
    // height (4) and flies 3 at most.
    ok(&mut s, None, json!({"type": "roll", "dice": [2]}));
    ok(&mut s, Some(1), json!({"type": "move", "to": "c4"}));
    refused(
        &mut s,
        Some(1),
        json!({"type": "pick_up", "object": "Bo"}),
        "lostworlds.movement.pick_up",
    );
    ok(&mut s, Some(1), json!({"type": "pick_up", "object": "Ada"}));
    let m = refused(
        &mut s,
        Some(1),
        json!({"type": "throw", "at": "f1", "roll": 1}),
        "lostworlds.movement.throw",
    );
    assert!(m.contains("1 to 3 away"), "{m}");
    let facts = ok(
        &mut s,
        Some(1),
        json!({"type": "throw", "at": "c2", "roll": 1}),
    );
    let line = LostWorlds::narrate(&s, &facts[0]).join(" ");
    assert!(line.contains("heaves Nowa's body at c2"), "{line}");
    assert_eq!(at(&s, 0), "c2");
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "d4"}),
    );
    assert_eq!(stage(&s), Stage::Initiative, "thrown: no recovery roll");
    // Left alone a turn, the body rolls again.
    ok(&mut s, None, json!({"type": "roll", "dice": [2]}));
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "d4"}),
    );
    assert_eq!(stage(&s), Stage::Recovery);
}

#[test]
fn a_body_weighs_its_height_and_its_carrier_pays_a_point_a_turn() {
    let mut s = yard_state();
    put(&mut s, 0, "b4");
    put(&mut s, 1, "b4");
    knock_out(&mut s, 1);
    ok(&mut s, None, json!({"type": "roll", "dice": [3]}));
    let m = refused(
        &mut s,
        Some(0),
        json!({"type": "pick_up", "object": "Brakka"}),
        "lostworlds.movement.pick_up",
    );
    assert!(m.contains("weighs 5"), "{m}");
    // A taller Nowa lifts her, and moves a point short next turn.
    edit_sheet(&mut s, 0, |sheet| {
        sheet.height = 6;
    });
    ok(
        &mut s,
        Some(0),
        json!({"type": "pick_up", "object": "Brakka"}),
    );
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "a4"}),
    );
    ok(&mut s, None, json!({"type": "roll", "dice": [3]}));
    assert_eq!(points(&s, 0), 5);
    assert_eq!(stage(&s), Stage::Movement);
}

#[test]
fn a_thrown_weapon_hits_by_the_range_table_and_lies_where_it_landed() {
    let mut s = yard_at(["c4", "f4"], 1);
    let body = s.seat(0).fighter().body;
    // Three spaces, Brakka's dagger's effective range: a 1-2 hits.
    refused(
        &mut s,
        Some(1),
        json!({"type": "throw_weapon", "target": 0}),
        "physical.roll_needed",
    );
    ok(
        &mut s,
        Some(1),
        json!({"type": "throw_weapon", "target": 0, "roll": 2}),
    );
    // Page 19 of Nowa's sample book shows no score: the card's +1 alone.
    assert_eq!(s.seat(0).fighter().body, body - 1);
    assert_eq!(position(&s, 0), Position::OffBalance);
    assert!(s.seat(1).orders.disarmed(), "the dagger is out of hand");
    let f = s.field.as_ref().unwrap();
    assert_eq!(f.thing("dagger-1").unwrap().at.to_string(), "c4");
    refused(
        &mut s,
        Some(1),
        json!({"type": "throw_weapon", "target": 0, "roll": 1}),
        "lostworlds.movement.throw_weapon",
    );
    // Beyond its height + 2 it cannot be thrown at all: a thrower of
    // height 3 reaches 5, and a1 is 7 from f5.
    let mut far = yard_state();
    put(&mut far, 0, "a1");
    put(&mut far, 1, "f5");
    let mut short = (*far.seats[1].party[0].sheet).clone();
    short.height = 3;
    far.seats[1].party[0].sheet = std::sync::Arc::new(short);
    initiative(&mut far, 1);
    let m = refused(
        &mut far,
        Some(1),
        json!({"type": "throw_weapon", "target": 0, "roll": 1}),
        "lostworlds.movement.throw_weapon",
    );
    assert!(
        m.contains("7 spaces away") && m.contains("5 at most"),
        "{m}"
    );
    // Picking it up again arms its owner.
    let mut s2 = yard_at(["a1", "c4"], 1);
    ok(
        &mut s2,
        Some(1),
        json!({"type": "throw_weapon", "target": 0, "roll": 6}),
    );
    assert!(s2.seat(1).orders.disarmed());
    let dagger = s2
        .field
        .as_ref()
        .unwrap()
        .thing("dagger-1")
        .unwrap()
        .clone();
    assert_eq!(
        dagger.at.to_string(),
        "a1",
        "a miss lies on the target's space too"
    );
    // Nowa steps off it (set by hand) and Brakka walks over to it.
    put(&mut s2, 0, "a3");
    put(&mut s2, 1, "b1");
    ok(&mut s2, Some(1), json!({"type": "move", "to": "a1"}));
    ok(
        &mut s2,
        Some(1),
        json!({"type": "pick_up", "object": "dagger-1"}),
    );
    assert!(!s2.seat(1).orders.disarmed(), "armed again");
    assert!(s2.field.as_ref().unwrap().thing("dagger-1").is_none());
    assert_eq!(s2.field.as_ref().unwrap().piece(1).carrying, None);
}

#[test]
fn a_throw_downhill_goes_one_further_than_the_range_but_never_past_the_height() {
    // Nowa (height 4) on d3, four levels up, with a barrel (range 4), in a
    // yard wide enough to throw five spaces.
    let mut yard = yard();
    yard["map"] = json!([
        "0 0 0 0 0 0 0 0 0",
        "0 0 0 0 0 0 0 0 0",
        "0 0 0 4 0 0 0 0 0",
        "0 0 0 0 0 0 0 0 0",
        "0 0 0 0 0 0 0 0 0"
    ]);
    yard["objects"] = json!([{"id": "barrel", "kind": "barrel", "at": "d3"}]);
    let pack = pack_with(Some(yard));
    let mut s = start(&pack, "yard", DiceMode::Physical);
    put(&mut s, 0, "d3");
    put(&mut s, 1, "a5");
    initiative(&mut s, 0);
    ok(
        &mut s,
        Some(0),
        json!({"type": "pick_up", "object": "barrel"}),
    );
    let b = tabletape_engine::lostworlds::field::decide::board(&s).unwrap();
    let from = Hex::parse("d3").unwrap();
    let five_away = (0..9u8)
        .flat_map(|c| (1..=5u8).map(move |r| format!("{}{r}", (b'a' + c) as char)))
        .find(|h| {
            let h = Hex::parse(h).unwrap();
            b.distance(from, h) == 5 && b.level(h) == Some(0) && b.open(h)
        })
        .expect("a space five away, down on the ground");
    let throw = json!({"type": "throw", "at": five_away, "roll": 6, "scatter": 1});
    let mut rules_4 = s.clone();
    let m = refused(&mut s, Some(0), throw.clone(), "lostworlds.movement.throw");
    assert!(m.contains("1 to 4 away"), "{m}");
    // Rules 4 added the slope after the height's cap: five spaces.
    rules_4.rules = 4;
    ok(&mut rules_4, Some(0), throw);
}

#[test]
fn a_missed_throw_scatters_only_to_spaces_no_higher_than_the_target() {
    let mut s = holding_the_chest("f4");
    let before = s.clone();
    // b3 lies beside the platform's c3 (level 2): that side is not numbered.
    let m = refused(
        &mut s,
        Some(0),
        json!({"type": "throw", "at": "b3", "roll": 4, "scatter": 6}),
        "physical.impossible_roll",
    );
    let numbered = m
        .split("numbered clockwise from the east: ")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .unwrap_or_else(|| panic!("{m}"));
    let spaces: Vec<&str> = numbered
        .split(", ")
        .map(|n| n.split(' ').nth(1).unwrap())
        .collect();
    assert!(!spaces.contains(&"c3") && spaces.len() == 5, "{m}");
    assert!(m.contains("not a face of a d5"), "{m}");
    ok(
        &mut s,
        Some(0),
        json!({"type": "throw", "at": "b3", "roll": 4, "scatter": 1}),
    );
    let chest = |s: &State| {
        s.field
            .as_ref()
            .unwrap()
            .thing("chest")
            .unwrap()
            .at
            .to_string()
    };
    assert_eq!(chest(&s), spaces[0]);
    // Under rules 5 all six sides were numbered, and the higher one dropped
    // it on the target.
    let mut old = before;
    old.rules = 5;
    ok(
        &mut old,
        Some(0),
        json!({"type": "throw", "at": "b3", "roll": 4, "scatter": 1}),
    );
    assert_eq!(chest(&old), "b3");
}
