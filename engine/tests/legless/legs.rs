//! Legs and money: upkeep, legs bought, sold and seen, and forced debts.

use super::*;

#[test]
fn upkeep_opens_the_turn_paid_or_the_leg_sold() {
    let mut s = table();
    give_leg(&mut s, 0, "Kempner improved", true); // upkeep £1
    give_leg(&mut s, 0, "Wheel-Chair", false); // upkeep £2
    s.londoners[0].money = 2;
    s.phase = Phase::Playing(Turn {
        seat: 1,
        stage: Stage::Act,
    });
    s.londoners[1].at = at("workhouse");
    let mut g = game_of(&s);
    step(&mut g, Some(1), json!({"type": "work"}));
    assert_eq!(state_of(&g).turn().unwrap().stage, Stage::Upkeep);
    assert_eq!(
        rejection(&g, Some(0), json!({"type": "roll", "rolls": [3]})).rule,
        "legless.upkeep_first"
    );
    let e = rejection(&g, Some(0), json!({"type": "upkeep"}));
    assert!(e.message.contains("£2 for £3"), "{}", e.message);
    // The Wheel-Chair's sale (£10) pays for the Kempner's upkeep.
    let facts = step(
        &mut g,
        Some(0),
        json!({"type": "upkeep", "sell": ["Wheel-Chair"]}),
    );
    assert_eq!(types(&facts), ["leg_sold", "upkeep_paid", "stage_set"]);
    let s = state_of(&g);
    assert_eq!(s.londoner(0).money, 2 + 10 - 1);
    assert_eq!(s.londoner(0).legs, ["Kempner improved"]);
    assert!(s.pile.contains(&"Wheel-Chair".to_string()));
}

#[test]
fn legs_are_bought_at_the_store_sold_for_half_rounded_up_and_seen_by_their_owner() {
    let mut s = table();
    s.londoners[0].money = 20;
    let g = game_of(&s);
    assert_eq!(
        rejection(
            &g,
            Some(0),
            json!({"type": "buy_leg", "leg": "Kempner improved"})
        )
        .rule,
        "legless.not_at_location"
    );
    s.londoners[0].at = at("leg-store");
    let mut g = game_of(&s);
    let bought = step(
        &mut g,
        Some(0),
        json!({"type": "buy_leg", "leg": "Kempner improved"}),
    );
    assert_eq!(bought[0]["equipped"]["maintenance"], 1);
    // Bo sees the purchase, not the Equipped side, in the fact and the state.
    let bo = g.redact_event(
        &event(
            g.seq(),
            ActionAccepted {
                action: json!({}),
                facts: bought.iter().map(FactText::of).collect(),
                chance: vec![],
                fold_form: Default::default(),
            },
        ),
        Viewer::Seat(1),
    );
    let text = serde_json::to_string(&bo.unwrap()).unwrap();
    assert!(!text.contains("maintenance"), "{text}");
    let view = g.view(Viewer::Seat(1)).to_string();
    assert!(view.contains("Kempner improved"));
    let kempner = &g.view(Viewer::Seat(1))["legs"]["Kempner improved"];
    assert!(kempner.get("equipped").is_none(), "{kempner}");
    assert!(g.view(Viewer::Seat(0))["legs"]["Kempner improved"]
        .get("equipped")
        .is_some());
    assert!(g.view(Viewer::Seat(1))["legs"]["Peg leg"]
        .get("equipped")
        .is_none());
    assert_eq!(state_of(&g).londoner(0).money, 5);

    // Bo's turn passes; Ada equips it: now everyone sees its side.
    let mut s = state_of(&g);
    s.phase = Phase::Playing(Turn {
        seat: 0,
        stage: Stage::Act,
    });
    let mut g = game_of(&s);
    step(
        &mut g,
        Some(0),
        json!({"type": "equip", "leg": "Kempner improved"}),
    );
    assert!(g.view(Viewer::Seat(1))["legs"]["Kempner improved"]
        .get("equipped")
        .is_some());
    let sold = step(
        &mut g,
        Some(0),
        json!({"type": "sell_leg", "leg": "Kempner improved"}),
    );
    assert_eq!(sold[0]["price"], 8, "£15 sells for £8");
    let s = state_of(&g);
    assert_eq!(s.londoner(0).equipped, None);
    assert_eq!(s.turn().unwrap().seat, 0, "selling does not use the turn");
}

#[test]
fn a_forced_debt_sells_legs_then_costs_a_heart_a_pound() {
    let mut s = table();
    give_leg(&mut s, 0, "Peg leg", true); // resale £2
    s.londoners[0].money = 1;
    moving(&mut s, 2);
    let mut g = game_of(&s);
    let facts = step(
        &mut g,
        Some(0),
        json!({"type": "move", "path": ["b9", "a9"], "cards": [{"name": "Debt collector", "effects": [{"money": -6}]}]}),
    );
    assert_eq!(
        types(&facts)[..6],
        [
            "moved",
            "street_event_read",
            "leg_sold",
            "paid",
            "paid_in_health",
            "health_changed"
        ]
    );
    let s = state_of(&g);
    assert_eq!((s.londoner(0).money, s.londoner(0).health), (0, 8 - 3));
    assert!(s.londoner(0).legs.is_empty());
}
