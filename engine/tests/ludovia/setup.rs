//! The box and the table laid out: the content pack and its limits, the
//! board's pieces (turned as they lie), item colours, and the opening rolls
//! and placements.

use super::*;

#[test]
fn the_bundled_pack_is_valid_and_complete() {
    let p = pack();
    content::validate(&p, "<bundled>").unwrap();
    let total: u32 = p.equipment.iter().map(|i| i.count).sum();
    assert_eq!(total, 24);
    for name in [
        "Mask",
        "Whistle",
        "Make-up",
        "Rope and Grapple",
        "Bolas",
        "Backpack",
    ] {
        assert!(p.equipment.iter().any(|i| i.name == name), "{name}");
    }
    assert!(p.sample);
}

#[test]
fn bad_packs_name_the_field_at_fault() {
    let mut p = pack();
    p.blocks[2].layout[0] = "RRR".into();
    let e = content::validate(&p, "box.json").unwrap_err();
    assert_eq!(
        (e.file.as_str(), e.path.as_str()),
        ("box.json", "blocks[2].layout")
    );
    let mut p = pack();
    p.blocks[3].layout = vec!["RRR".into(), "RAR".into(), "RAR".into()];
    assert_eq!(
        content::validate(&p, "x").unwrap_err().path,
        "blocks[3].layout[1]"
    );
    let mut p = pack();
    p.equipment[0].cost = 300;
    assert_eq!(
        content::validate(&p, "x").unwrap_err().path,
        "equipment[0].cost"
    );
    let mut p = pack();
    p.rooftop_cards[0].count += 1;
    assert!(content::validate(&p, "x")
        .unwrap_err()
        .message
        .contains("49"));
}

#[test]
fn boards_have_the_rooftops_the_cards_need() {
    let s = table();
    assert_eq!(s.rooftops().len(), 49);
    assert_eq!(s.pool.len(), 49);
    assert_eq!(s.offer, vec!["Mask", "Whistle", "Backpack"]);
    assert_eq!(s.deck_unseen.len(), 21);
    let created = created(5, 3, DiceMode::Digital);
    let g = Game::start(&created).unwrap();
    let big: State = serde_json::from_value(g.view(Viewer::Owner)).unwrap();
    assert_eq!((big.rows, big.cols), (3, 4));
    assert_eq!(big.rooftops().len(), 70);
    assert_eq!(big.pool.len(), 70);
}

#[test]
fn physical_setup_needs_the_tables_layout() {
    let players = ["Ada", "Bo", "Cy"].map(String::from);
    let mut chance = Chance::new(DiceMode::Physical, 1, 1);
    let e = decide::setup(
        &players,
        &Options::default(),
        &pack(),
        DiceMode::Physical,
        2,
        &mut chance,
    )
    .unwrap_err();
    assert_eq!(e.rule, "option.layout");
    let mut bad = LAYOUT.map(String::from).to_vec();
    bad[4] = "harbour".into();
    let options = Options {
        layout: Some(bad),
        offer: Some(vec!["Mask".into(), "Mask".into(), "Mask".into()]),
        round_limit: 5,
    };
    let e = decide::setup(
        &players,
        &options,
        &pack(),
        DiceMode::Physical,
        2,
        &mut chance,
    )
    .unwrap_err();
    assert!(e.message.contains("Lair"), "{e}");
}

#[test]
fn opening_rolls_settle_order_and_placements() {
    let mut s = setup_with(&LAYOUT, &pack(), 2).unwrap();
    assert_eq!(
        refused(&s, json!({"type": "end_turn"})),
        "ludovia.order_first"
    );
    assert_eq!(
        refused(&s, json!({"type": "roll_for_order", "rolls": [6]})),
        "ludovia.rolls"
    );
    act(
        &mut s,
        json!({"type": "roll_for_order", "rolls": [3, 6, 6]}),
    );
    assert_eq!(
        s.phase,
        Phase::Order {
            contenders: vec![1, 2]
        }
    );
    act(&mut s, json!({"type": "roll_for_order", "rolls": [2, 5]}));
    assert_eq!(s.order, vec![2, 0, 1]);
    // The last player (Bo) places first, then the second-last (Ada).
    assert_eq!(s.phase, Phase::Placing { seat: 1 });
    assert_eq!(
        refused(
            &s,
            json!({"type": "place_policeman", "at": "p0.0", "facing": "north"})
        ),
        "ludovia.facing_edge"
    );
    act(
        &mut s,
        json!({"type": "place_policeman", "at": "p0.0", "facing": "east"}),
    );
    // Rules 1 kept placed policemen apart; from rules 2 they may share a
    // post when placed, as they may by moving.
    let mut first_rules = s.clone();
    first_rules.rules = 1;
    let again = json!({"type": "place_policeman", "at": "p0.0", "facing": "south"});
    assert_eq!(refused(&first_rules, again.clone()), "ludovia.post_taken");
    act(&mut s, again);
    assert_eq!(s.policemen_at(post("p0.0")), vec![0, 1]);
    assert_eq!(turn(&s).seat, 2);
    assert_eq!(turn(&s).stage, Stage::Policeman);
}

#[test]
fn treasure_worth_and_deck_size_are_held_to_what_a_box_holds() {
    // A worth beyond any card would wrap the sums of a hand.
    let mut pack = Ludovia::default_pack();
    pack["rooftop_cards"][0]["value"] = json!(4_294_967_200u32);
    let e = Game::start(&GameCreated {
        title: None,
        pack,
        ..created(3, 1, DiceMode::Digital)
    })
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("rooftop_cards[0].value") && e.contains("$100 to $1500"),
        "{e}"
    );
    let mut pack = Ludovia::default_pack();
    pack["equipment"][0]["count"] = json!(u32::MAX);
    let e = Game::start(&GameCreated {
        title: None,
        pack,
        ..created(3, 1, DiceMode::Digital)
    })
    .unwrap_err()
    .to_string();
    assert!(e.contains("the box holds 24 equipment cards"), "{e}");
    let mut pack = Ludovia::default_pack();
    pack["rooftop_cards"][0]["count"] = json!(u32::MAX);
    let e = Game::start(&GameCreated {
        title: None,
        pack,
        ..created(3, 1, DiceMode::Digital)
    })
    .unwrap_err()
    .to_string();
    assert!(e.contains("rooftop_cards"), "{e}");
}

#[test]
fn a_table_lays_its_own_pieces_turned_as_they_lie() {
    let rows = |r: &[&str]| r.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let bell = rows(&["ARR", "RRR", "RRM"]);
    assert_eq!(decide::turned(&bell, 90), rows(&["RRA", "RRR", "MRR"]));
    assert_eq!(decide::turned(&bell, 180), rows(&["MRR", "RRR", "RRA"]));
    assert_eq!(decide::turned(&bell, 270), rows(&["RRM", "RRR", "ARR"]));
    assert_eq!(decide::turned(&bell, 0), bell);

    let mut layout = LAYOUT;
    layout[0] = "BellTower@90";
    let s = setup_with(&layout, &pack(), 2).unwrap();
    assert_eq!(s.block(0, 0).turned, 90);
    assert_eq!(
        s.cell(0, 0),
        Some(tabletape_engine::ludovia::state::CellKind::Rooftop)
    );
    assert_eq!(
        s.cell(0, 2),
        Some(tabletape_engine::ludovia::state::CellKind::Alley)
    );
    assert_eq!(
        s.cell(2, 0),
        Some(tabletape_engine::ludovia::state::CellKind::BlackMarket)
    );
    assert_eq!(s.rooftops().len(), 49);
    assert!(Ludovia::render(&s, Viewer::Owner).contains("Bell Tower Row (turned 90 degrees)"));

    layout[0] = "belltower@45";
    let e = setup_with(&layout, &pack(), 2).unwrap_err();
    assert_eq!(e.rule, "option.layout");
    assert!(e.message.contains("90, 180 or 270"), "{e}");
    layout[0] = "belltower@90";
    let e = setup_with(&layout, &pack(), 1).unwrap_err();
    assert!(e.message.contains("rules 1"), "{e}");
    layout[0] = "steeple";
    let e = setup_with(&layout, &pack(), 2).unwrap_err();
    assert!(
        e.message.contains("belltower, fountain"),
        "lists the box's pieces: {e}"
    );

    // A pack describing a real box's pieces: its own ids and layouts.
    let mut real = pack();
    real.blocks[2].id = "piece-1".into();
    real.blocks[2].layout = rows(&["RRR", "RRR", "RAM"]);
    content::validate(&real, "real.json").unwrap();
    layout[0] = "piece-1@180";
    let s = setup_with(&layout, &real, 2).unwrap();
    assert_eq!(s.block(0, 0).layout, rows(&["MAR", "RRR", "RRR"]));

    // Laid out by the seed, pieces lie every which way.
    let turned: u32 = (1..=6)
        .map(|seed| {
            let mut chance = Chance::new(DiceMode::Digital, seed, 1);
            let players = ["Ada", "Bo", "Cy"].map(String::from);
            let s = decide::setup(
                &players,
                &Options::default(),
                &pack(),
                DiceMode::Digital,
                2,
                &mut chance,
            )
            .unwrap();
            assert_eq!(s.rooftops().len(), 49);
            s.blocks.iter().filter(|b| b.turned != 0).count() as u32
        })
        .sum();
    assert!(turned > 10, "only {turned} pieces turned in six boards");
}

#[test]
fn item_colours_follow_the_worked_example_and_nothing_else() {
    let p = pack();
    content::check_worked_example(&p, "<bundled>").unwrap();
    let item = |p: &mut Pack, name: &str| p.equipment.iter().position(|i| i.name == name).unwrap();

    // A green Bolas (rules 1's sample) is a valid pack, but the worked
    // example prices the Bolas at $100: a rules-2 game refuses it.
    let mut old = pack();
    let b = item(&mut old, "Bolas");
    old.equipment[b].colour = content::Colour::Green;
    old.equipment[b].cost = 300;
    content::validate(&old, "old.json").unwrap();
    let e = setup_with(&LAYOUT, &old, 2).unwrap_err();
    assert_eq!(e.rule, "setup.pack");
    assert!(e.message.contains("worked example"), "{e}");
    setup_with(&LAYOUT, &old, 1).unwrap();

    // Colours the text leaves open are the pack's: a green Mask is kept.
    let mut green = pack();
    let m = item(&mut green, "Mask");
    green.equipment[m].colour = content::Colour::Green;
    green.equipment[m].cost = 300;
    content::validate(&green, "green.json").unwrap();
    let mut s = setup_with(&LAYOUT, &green, 2).unwrap();
    s.order = vec![0, 1, 2];
    s.round = 1;
    s.phase = Phase::Playing(Turn {
        seat: 0,
        stage: Stage::Actions,
        ap: 4,
        ending: false,
        from: None,
    });
    s.thieves[0].at = sp("h1.0");
    give(&mut s, 0, &["Ruby Crown"]);
    equip(&mut s, 0, "Mask");
    s.policemen = vec![Policeman {
        at: post("p1.1"),
        facing: Facing::West,
    }];
    let facts = act(&mut s, json!({"type": "move", "to": "s2.2", "mask": true}));
    assert!(facts
        .iter()
        .any(|f| matches!(f, Fact::EquipmentActed { item, .. } if item == "Mask")));
    assert_eq!(s.thieves[0].equipment, vec!["Mask"]);
    assert_eq!(s.thieves[0].at, sp("s2.2"));

    // What the colours mean is checked: always-at-work effects are red,
    // effects used at a moment are not.
    let mut bad = pack();
    let k = item(&mut bad, "Backpack");
    bad.equipment[k].colour = content::Colour::Blue;
    bad.equipment[k].cost = 100;
    let e = content::validate(&bad, "bad.json").unwrap_err();
    assert_eq!(e.path, format!("equipment[{k}].colour"));
    let mut bad = pack();
    let k = item(&mut bad, "Mask");
    bad.equipment[k].colour = content::Colour::Red;
    bad.equipment[k].cost = 200;
    let e = content::validate(&bad, "bad.json").unwrap_err();
    assert!(e.message.contains("not red"), "{e:?}");
}
