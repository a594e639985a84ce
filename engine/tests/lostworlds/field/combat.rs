//! The combat phase on the map: the situation table, three rounds, loads
//! dropped, effective height and the optional obstructions.

use super::*;

#[test]
fn the_combat_phase_starts_by_the_situation_table_and_lasts_three_rounds() {
    let mut s = yard_at(["a4", "c4"], 0);
    // Nowa runs in (off balance for the combat) and ends beside Brakka,
    // whose undefended space she stands in.
    ok(&mut s, Some(0), json!({"type": "run"}));
    ok(&mut s, Some(0), json!({"type": "move", "to": "b4"}));
    ok(&mut s, Some(1), json!({"type": "let_pass"}));
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "a4"}),
    );
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "b4"}),
    );
    // Each may engage the other or hold back (rules 7): one engaging is
    // enough.
    assert_eq!(waiting_to_engage(&s), vec![0, 1]);
    ok(&mut s, Some(1), json!({"type": "engage", "foes": []}));
    ok(&mut s, Some(0), json!({"type": "engage", "foes": [1]}));
    assert_eq!(stage(&s), Stage::Combat);
    // Nowa is off balance: picture 1. Brakka sees Nowa in its undefended
    // space and off balance: the first that applies is 23.
    assert_eq!(s.seat(0).sights[&1].picture, 1);
    assert_eq!(s.seat(1).sights[&0].picture, 23);
    // Movement waits; maneuvers are open.
    refused(
        &mut s,
        Some(0),
        json!({"type": "move", "to": "a4"}),
        "lostworlds.scenario.stage",
    );
    for round in 1..=3 {
        assert_eq!(stage(&s), Stage::Combat, "round {round}");
        let open0 = decide::choices(&s, 0).open[0];
        let open1 = decide::choices(&s, 1).open[0];
        let p0 = s.seat(0).fighter().sheet.maneuvers[open0].page;
        let p1 = s.seat(1).fighter().sheet.maneuvers[open1].page;
        ok(&mut s, Some(0), json!({"type": "choose", "page": p0}));
        ok(&mut s, Some(1), json!({"type": "choose", "page": p1}));
        if s.seats
            .iter()
            .any(|st| st.fighter().condition != Condition::Fit)
        {
            break;
        }
    }
    assert_ne!(
        stage(&s),
        Stage::Combat,
        "three rounds and the phase is over"
    );
    assert!(s.exchanges <= 3);
}

#[test]
fn a_carrier_drops_its_load_when_combat_begins() {
    let mut s = side_by_side(LostWorlds::RULES_VERSION, true);
    // Still carrying while the two make up their minds.
    assert_eq!(
        s.field.as_ref().unwrap().piece(0).carrying.as_deref(),
        Some("chest")
    );
    ok(&mut s, Some(1), json!({"type": "engage", "foes": [0]}));
    ok(&mut s, Some(0), json!({"type": "engage", "foes": []}));
    assert_eq!(stage(&s), Stage::Combat);
    let f = s.field.as_ref().unwrap();
    assert_eq!(f.piece(0).carrying, None);
    assert_eq!(f.thing("chest").unwrap().at.to_string(), "b2");
}

/// Who the opening combat phase still waits on to say whom they engage.
fn waiting_to_engage(s: &State) -> Vec<Seat> {
    let f = s.field.as_ref().unwrap();
    f.engaging
        .as_ref()
        .map_or(Vec::new(), |e| e.waiting.clone())
}

/// Nowa (seat 0) and Brakka (seat 1) end their moves side by side under
/// `rules`, neither halting the other; Nowa picks up the chest first when
/// `carrying`.
fn side_by_side(rules: u32, carrying: bool) -> State {
    let mut s = yard_state();
    s.rules = rules;
    put(&mut s, 0, "b2");
    put(&mut s, 1, "c1");
    initiative(&mut s, 0);
    if carrying {
        ok(
            &mut s,
            Some(0),
            json!({"type": "pick_up", "object": "chest"}),
        );
    }
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "a2"}),
    );
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "d1"}),
    );
    s
}

#[test]
fn figures_in_each_others_battle_zones_may_both_hold_back() {
    let mut s = side_by_side(LostWorlds::RULES_VERSION, false);
    assert_eq!(waiting_to_engage(&s), vec![0, 1]);
    assert!(!s.field.as_ref().unwrap().in_combat());
    assert_eq!(LostWorlds::to_move(&s, 2), vec![0, 1]);
    // Each is offered its opponent or nothing, in words from the box.
    let offered: Vec<String> = LostWorlds::legal(&s, Some(0))
        .into_iter()
        .filter(|l| matches!(l.action, Action::Engage { .. }))
        .map(|l| LostWorlds::describe(&s, &l.action).unwrap())
        .collect();
    assert_eq!(
        offered,
        vec!["Nowa: engage Brakka", "Nowa: hold back from combat"]
    );
    // Maneuvers and moves wait for the answers.
    refused(
        &mut s,
        Some(0),
        json!({"type": "move", "to": "a2"}),
        "lostworlds.movement.turn",
    );
    let told = ok(&mut s, Some(0), json!({"type": "engage", "foes": []}));
    assert_eq!(
        told,
        vec![Fact::Engaged {
            seat: 0,
            foes: vec![]
        }]
    );
    assert_eq!(
        LostWorlds::narrate(&s, &told[0]).last().map(String::as_str),
        Some("Nowa holds back.")
    );
    assert_eq!(waiting_to_engage(&s), vec![1]);
    refused(
        &mut s,
        Some(0),
        json!({"type": "engage", "foes": [1]}),
        "lostworlds.scenario.engage",
    );
    let facts = ok(&mut s, Some(1), json!({"type": "engage", "foes": []}));
    assert!(
        !facts.iter().any(|f| matches!(f, Fact::CombatBegun { .. })),
        "{facts:?}"
    );
    assert!(s.field.as_ref().unwrap().engaged.is_empty());
    assert_ne!(stage(&s), Stage::Combat, "no one fought: the phase passed");
    assert_eq!(waiting_to_engage(&s), Vec::<Seat>::new());
    // And the next turn goes on: its initiative is open.
    assert!(
        LostWorlds::legal(&s, None)
            .iter()
            .any(|l| matches!(l.action, Action::Roll { .. })),
        "{}",
        narration::render(&s, Viewer::Owner)
    );
}

#[test]
fn one_may_engage_only_an_opponent_in_its_battle_zone() {
    let mut s = side_by_side(LostWorlds::RULES_VERSION, false);
    let why = refused(
        &mut s,
        Some(0),
        json!({"type": "engage", "foes": [0]}),
        "lostworlds.scenario.engage",
    );
    assert!(why.contains("Brakka"), "{why}");
    refused(
        &mut s,
        Some(0),
        json!({"type": "engage", "foes": [7]}),
        "lostworlds.scenario.engage",
    );
    assert_eq!(waiting_to_engage(&s), vec![0, 1], "nothing was written");
}

#[test]
fn a_halt_demands_battle_without_asking() {
    let mut s = yard_at(["a4", "c4"], 0);
    ok(&mut s, Some(0), json!({"type": "move", "to": "b4"}));
    ok(&mut s, Some(1), json!({"type": "halt"}));
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "a4"}),
    );
    let facts = ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "d4"}),
    );
    assert!(
        facts.iter().any(|f| matches!(f, Fact::CombatBegun { .. })),
        "{facts:?}"
    );
    assert_eq!(waiting_to_engage(&s), Vec::<Seat>::new());
    assert_eq!(stage(&s), Stage::Combat);
    assert!(s.field.as_ref().unwrap().in_combat());
}

#[test]
fn under_rules_6_every_pair_in_reach_fought() {
    let s = side_by_side(6, false);
    assert_eq!(waiting_to_engage(&s), Vec::<Seat>::new());
    assert!(s.field.as_ref().unwrap().in_combat());
}

#[test]
fn effective_height_counts_the_terrain_level() {
    use tabletape_engine::lostworlds::content::Colour;
    // The rule text's dwarf (3) on level 4 against a troll (5) on level 0.
    assert_eq!(
        tabletape_engine::lostworlds::field::decide::terrain_height_bonus(7, 5, Colour::Orange),
        2
    );
    assert_eq!(
        tabletape_engine::lostworlds::field::decide::terrain_height_bonus(7, 5, Colour::Red),
        2
    );
    assert_eq!(
        tabletape_engine::lostworlds::field::decide::terrain_height_bonus(7, 5, Colour::Blue),
        0
    );
    assert_eq!(
        tabletape_engine::lostworlds::field::decide::terrain_height_bonus(5, 7, Colour::Orange),
        -1
    );
    let mut s = yard_state();
    put(&mut s, 0, "c3");
    put(&mut s, 1, "b3");
    assert_eq!(
        tabletape_engine::lostworlds::field::decide::effective_heights(&s, 0, 1),
        Some((6, 5))
    );
    put(&mut s, 0, "a3");
    assert_eq!(
        tabletape_engine::lostworlds::field::decide::effective_heights(&s, 0, 1),
        None,
        "same level: the books' rule"
    );
}

#[test]
fn the_optional_obstructions_bar_maneuvers_in_a_crowded_battle_zone() {
    let pack = pack_with(Some(yard()));
    let players = vec!["Ada".to_string(), "Bo".to_string()];
    let options =
        serde_json::from_value(json!({"scenario": "yard", "obstructions": "on"})).unwrap();
    let mut s = decide::setup(&players, &options, &pack, 3, DiceMode::Physical).unwrap();
    // Nowa on b3 with Brakka east of her and the chest west of her, on the
    // space she leaves undefended: two in her zone.
    put(&mut s, 0, "b3");
    put(&mut s, 1, "c3");
    {
        let f = s.field.as_mut().unwrap();
        f.things[0].at = Hex::parse("a3").unwrap();
    }
    initiative(&mut s, 0);
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "a3"}),
    );
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "d3"}),
    );
    assert_eq!(stage(&s), Stage::Combat);
    let names = |s: &State, seat: Seat| -> Vec<String> {
        let c = decide::choices(s, seat);
        let sheet = &s.seat(seat).fighter().sheet;
        c.open
            .iter()
            .map(|&i| sheet.maneuvers[i].full_name())
            .collect()
    };
    // Opening at extended range: Dodge is barred (Brakka and the chest are
    // two in her zone), Jump Back too (the chest is on her undefended space).
    let nowa = names(&s, 0);
    assert!(!nowa.iter().any(|n| n.contains("Dodge")), "{nowa:?}");
    assert!(!nowa.iter().any(|n| n.contains("Jump Back")), "{nowa:?}");
    assert!(nowa.iter().any(|n| n.contains("Charge")), "{nowa:?}");
    // Brakka has only Nowa beside her: nothing barred.
    let brakka = names(&s, 1);
    assert!(brakka.iter().any(|n| n.contains("Dodge")), "{brakka:?}");
    // Without the option nothing is barred.
    let options = serde_json::from_value(json!({"scenario": "yard"})).unwrap();
    let plain = decide::setup(&players, &options, &pack, 3, DiceMode::Physical).unwrap();
    assert!(!plain.field.as_ref().unwrap().obstructions);
    let options = serde_json::from_value(json!({"obstructions": "on"})).unwrap();
    let e = decide::setup(&players, &options, &pack, 3, DiceMode::Physical).unwrap_err();
    assert_eq!(e.rule, "setup.obstructions");
}
