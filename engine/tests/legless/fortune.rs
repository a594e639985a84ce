//! What befalls a Londoner: sickness and the Sickroom, death and rebirth,
//! missed turns and a card that sends a Londoner elsewhere.

use super::*;

#[test]
fn at_the_bottom_of_the_track_a_londoner_goes_to_the_sickroom_and_heals_there() {
    let mut s = table();
    s.londoners[0].health = 2;
    moving(&mut s, 2);
    let mut g = game_of(&s);
    let f = step(
        &mut g,
        Some(0),
        json!({"type": "move", "path": ["b9", "a9"], "drew": ["Runaway cab"]}),
    );
    assert_eq!(
        types(&f)[..5],
        [
            "moved",
            "street_event_read",
            "health_changed",
            "fell_sick",
            "sickroom_paid"
        ]
    );
    let s = state_of(&g);
    assert_eq!(s.londoner(0).at, at("sickroom"));
    assert_eq!(s.londoner(0).money, 7 - 2);
    // Bo plays; then Ada's turn is the Sickroom's: pay, roll, heal.
    let mut s = s;
    s.phase = Phase::Playing(Turn {
        seat: 0,
        stage: Stage::Sickroom,
    });
    let mut g = game_of(&s);
    assert_eq!(
        rejection(&g, Some(0), json!({"type": "roll", "rolls": [3]})).rule,
        "legless.sick"
    );
    step(&mut g, Some(0), json!({"type": "recover", "roll": 5}));
    let s = state_of(&g);
    assert_eq!((s.londoner(0).health, s.londoner(0).sick), (5, true));
    let mut s = s;
    s.phase = Phase::Playing(Turn {
        seat: 0,
        stage: Stage::Sickroom,
    });
    let mut g = game_of(&s);
    let f = step(&mut g, Some(0), json!({"type": "recover", "roll": 6}));
    assert!(types(&f).contains(&"left_sickbed"));
    assert!(!state_of(&g).londoner(0).sick);
}

#[test]
fn unable_to_pay_the_sickroom_a_londoner_dies_and_rejoins_as_someone_else() {
    let mut s = table();
    s.londoners[0].sick = true;
    s.londoners[0].health = 1;
    s.londoners[0].money = 1;
    s.londoners[0].at = at("sickroom");
    s.londoners[0].tokens.push(Token {
        location: "factory".into(),
        goal: GoalKind::Personal,
    });
    s.phase = Phase::Playing(Turn {
        seat: 0,
        stage: Stage::Sickroom,
    });
    let mut g = game_of(&s);
    let f = step(&mut g, Some(0), json!({"type": "recover", "roll": 3}));
    assert_eq!(types(&f), ["died", "turn_began"]);
    assert_eq!(f[0]["removed"].as_array().unwrap().len(), 1);
    let s = state_of(&g);
    assert!(s.londoner(0).dead && s.londoner(0).tokens.is_empty());
    // Nobody plays on until Ada draws a new character (not Ezra again).
    assert_eq!(
        rejection(&g, Some(1), json!({"type": "roll", "rolls": [3]})).rule,
        "legless.rejoin_first"
    );
    let e = rejection(
        &g,
        Some(0),
        json!({"type": "draw_character", "seat": 0, "drew": ADA}),
    );
    assert_eq!(e.rule, "physical.impossible_draw");
    step(
        &mut g,
        Some(0),
        json!({"type": "draw_character", "seat": 0, "drew": "Ruby Dell"}),
    );
    let s = state_of(&g);
    let ada = s.londoner(0);
    assert_eq!(
        (
            ada.character.as_str(),
            ada.at.clone(),
            ada.money,
            ada.health
        ),
        ("Ruby Dell", at("i9"), 9, 7)
    );
    assert!(s.unused.contains(&ADA.to_string()));
}

#[test]
fn a_londoner_left_without_enough_victory_spaces_dies() {
    // Ezra's love counts only at the Gin Palace, his property only at the
    // Slums, whose card here sells nothing: love and his personal goal at
    // the Factory are the two goals he can still reach.
    let mut s = table();
    // Goals tied to one place each, as rules 1 read every character card
    // (from rules 2 only the personal goal is).
    s.rules = 1;
    std::sync::Arc::make_mut(&mut s.characters)
        .get_mut(ADA)
        .unwrap()
        .goals[0]
        .at = vec!["gin-palace".into()];
    std::sync::Arc::make_mut(&mut s.characters)
        .get_mut(ADA)
        .unwrap()
        .goals[1]
        .at = vec!["slums".into()];
    std::sync::Arc::make_mut(&mut s.cards)
        .get_mut("slums")
        .unwrap()
        .property = None;
    s.londoners[1].at = at("gin-palace");
    std::sync::Arc::make_mut(&mut s.characters)
        .get_mut(BO)
        .unwrap()
        .goals[0]
        .at = vec!["gin-palace".into()];
    s.phase = Phase::Playing(Turn {
        seat: 1,
        stage: Stage::Act,
    });
    assert_eq!(s.reachable_goals(0), 2);
    let mut g = game_of(&s);
    let f = step(&mut g, Some(1), json!({"type": "find_love", "roll": 6}));
    assert_eq!(types(&f)[..3], ["risk_read", "token_placed", "died"]);
    assert_eq!(f[2]["why"], "no_space");
    assert!(!g.is_over());
    let legal = g.legal(None);
    assert_eq!(legal.len(), 1);
    assert_eq!(legal[0].action["type"], "draw_character");
    assert_eq!(g.to_move(), [0]);
}

#[test]
fn a_healthy_londoner_may_pay_the_sickroom_to_heal_but_not_when_full() {
    let mut s = table();
    s.londoners[0].at = at("sickroom");
    let g = game_of(&s);
    assert_eq!(
        rejection(&g, Some(0), json!({"type": "recover", "roll": 2})).rule,
        "legless.full_health"
    );
    s.londoners[0].health = 3;
    let mut g = game_of(&s);
    let f = step(&mut g, Some(0), json!({"type": "recover", "roll": 6}));
    assert_eq!(types(&f)[..2], ["sickroom_paid", "healed"]);
    assert_eq!(f[1]["to"], 8, "capped at the top of the track");
    assert!(!state_of(&g).londoner(0).sick);
}

#[test]
fn a_missed_turn_is_skipped_whole_and_a_card_may_send_a_londoner_elsewhere() {
    let mut s = table();
    moving(&mut s, 2);
    let mut g = game_of(&s);
    let f = step(
        &mut g,
        Some(0),
        json!({"type": "move", "path": ["b9", "a9"], "cards": [
            {"name": "Press-gang", "effects": [{"go_to": "docks"}, {"miss_turns": 1}]}]}),
    );
    assert!(types(&f).contains(&"went_to") && types(&f).contains(&"turns_lost"));
    let s = state_of(&g);
    assert_eq!(
        (s.londoner(0).at.clone(), s.londoner(0).miss_turns),
        (at("docks"), 1)
    );
    // Bo plays; Ada's turn is skipped and Bo plays again, in round 2.
    let f = step(&mut g, Some(1), json!({"type": "roll", "rolls": [1]}));
    assert_eq!(types(&f), ["rolled_to_move", "stage_set"]);
    let f = step(&mut g, Some(1), json!({"type": "move", "path": []}));
    assert_eq!(types(&f), ["moved", "turn_missed", "turn_began"]);
    assert_eq!(f[2]["seat"], 1);
    let s = state_of(&g);
    assert_eq!((s.round, s.londoner(0).miss_turns), (2, 0));
}

#[test]
fn a_cards_effect_the_table_does_by_hand_is_told_as_written_and_changes_nothing() {
    let mut s = table();
    moving(&mut s, 2);
    let before = s.londoner(0).clone();
    let mut g = game_of(&s);
    let card = json!({"name": "Borrowed crutch", "effects": [
        {"by_hand": "Take a leg from the Londoner nearest you"}, {"money": 2}]});
    let decided = g
        .decide(
            Some(0),
            &json!({"type": "move", "path": ["b9", "a9"], "cards": [card]}),
        )
        .unwrap();
    let f = decided.body.facts.clone();
    assert!(types(&f).contains(&"earned"), "{f:?}");
    let told = decided.narration.clone();
    let event = testkit::event(g.seq() + 1, 0, Some(0), Body::ActionAccepted(decided.body));
    g.apply(&event).unwrap();
    assert!(
        told.iter().any(|l| l
            .contains("\u{201c}Take a leg from the Londoner nearest you\u{201d} (done by hand)")),
        "{told:?}"
    );
    let after = state_of(&g);
    assert_eq!(after.londoner(0).legs, before.legs);
    // Without its words, it is refused by its place.
    let g = game_of(&s);
    let e = rejection(
        &g,
        Some(0),
        json!({"type": "move", "path": ["b9", "a9"], "cards": [
            {"name": "Blank", "effects": [{"by_hand": " "}]}]}),
    );
    assert_eq!(e.rule, "legless.effect");
    assert!(e.message.contains("cards[0].effects[0]"), "{}", e.message);
}

#[test]
fn a_card_that_makes_a_londoner_sick_is_carried_out_to_its_end() {
    // Ada has 2 hearts and £7; the Sickroom costs £2.
    let mut s = table();
    s.londoners[0].health = 2;
    moving(&mut s, 2);
    let card = json!({"name": "Mugged", "effects": [
        {"health": -5}, {"money": -3}, {"go_to": "docks"}, {"miss_turns": 1}]});
    let action = json!({"type": "move", "path": ["b9", "a9"], "cards": [card]});
    let mut g = game_of(&s);
    let f = step(&mut g, Some(0), action.clone());
    assert_eq!(
        types(&f)[..7],
        [
            "moved",
            "street_event_read",
            "health_changed",
            "fell_sick",
            "sickroom_paid",
            "paid",
            "turns_lost"
        ],
        "{f:?}"
    );
    let ada = state_of(&g).londoner(0).clone();
    // The sick stay in the Sickroom: the card's trip to the Docks is passed over.
    assert_eq!(
        (ada.at, ada.sick, ada.money),
        (at("sickroom"), true, 7 - 2 - 3)
    );
    assert_eq!(ada.miss_turns, 1);
    // Under rules 1 sickness ended the card.
    s.rules = 1;
    let mut g = game_of(&s);
    let f = step(&mut g, Some(0), action);
    assert!(!types(&f).contains(&"paid"), "{f:?}");
    assert_eq!(state_of(&g).londoner(0).money, 7 - 2);
}

#[test]
fn a_missed_turn_still_pays_the_upkeep_of_the_legs_kept() {
    // Ada misses her next turn owning the Kempner (upkeep £1) and £7.
    let mut s = table();
    give_leg(&mut s, 0, "Kempner improved", true);
    s.londoners[0].miss_turns = 1;
    s.phase = Phase::Playing(Turn {
        seat: 1,
        stage: Stage::Act,
    });
    s.londoners[1].at = at("market");
    let before = s.londoners[0].money;
    let mut g = game_of(&s);
    let f = step(&mut g, Some(1), json!({"type": "work"}));
    let at_miss = types(&f).iter().position(|t| *t == "turn_missed").unwrap();
    assert_eq!(types(&f)[at_miss + 1], "upkeep_paid", "{f:?}");
    assert_eq!(state_of(&g).londoner(0).money, before - 1);
    // Without the money, the leg is sold as a forced debt sells it.
    s.londoners[0].money = 0;
    let mut g = game_of(&s);
    let f = step(&mut g, Some(1), json!({"type": "work"}));
    assert!(types(&f).contains(&"leg_sold"), "{f:?}");
    assert!(state_of(&g).londoner(0).legs.is_empty());
    // Under rules 1 a missed turn paid nothing.
    s.rules = 1;
    let mut g = game_of(&s);
    let f = step(&mut g, Some(1), json!({"type": "work"}));
    assert!(!types(&f).contains(&"upkeep_paid") && !types(&f).contains(&"leg_sold"));
}
