//! What befalls a Londoner: sickness and the Sickroom, death and rebirth,
//! missed turns and a card that sends a Londoner elsewhere; and what cards
//! and stories do beyond money and hearts: moving on, further draws, legs
//! taken, money between Londoners, what befalls the others.

use std::sync::Arc;

use tabletape_engine::legless::content::{Effect, StreetEvent};

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
    let f: Vec<Value> = decided
        .body
        .facts
        .iter()
        .map(|f| f.value().unwrap())
        .collect();
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

/// The hand-set table with two cards of the table's own in the pack's deck.
fn with_cards(s: &mut State, cards: &[(&str, Vec<Effect>)]) {
    for (name, effects) in cards {
        Arc::make_mut(&mut s.street_events).insert(
            name.to_string(),
            StreetEvent {
                name: name.to_string(),
                text: String::new(),
                effects: effects.clone(),
                count: 1,
            },
        );
        s.deck.push(name.to_string());
    }
    s.deck.sort();
}

/// Ada walks from c9 over the symbol at b9 to a9 and reads one card of the
/// table's own that does `effects`; returns the game after and the facts.
fn read_card(s: &State, effects: Value) -> (Game, Vec<Value>) {
    let mut s = s.clone();
    s.londoners[0].at = at("c9");
    moving(&mut s, 2);
    let mut g = game_of(&s);
    let card = json!({"name": "Card", "effects": effects});
    let facts = step(
        &mut g,
        Some(0),
        json!({"type": "move", "path": ["b9", "a9"], "cards": [card]}),
    );
    (g, facts)
}

fn stage(s: &State) -> (Seat, Stage) {
    let t = s.turn().expect("a turn in play");
    (t.seat, t.stage)
}

#[test]
fn a_card_that_draws_another_wants_it_named_and_both_are_read() {
    let mut s = table();
    with_cards(
        &mut s,
        &[
            ("Bundle", vec![Effect::Draw(1)]),
            ("Cart", vec![Effect::Move(2)]),
        ],
    );
    moving(&mut s, 2);
    let mut g = game_of(&s);
    let e = rejection(
        &g,
        Some(0),
        json!({"type": "move", "path": ["b9", "a9"], "drew": ["Bundle"]}),
    );
    let wanted =
        "the path crosses one street event symbol and its cards draw 1 more: give 2 cards, not 1";
    assert_eq!(
        (e.rule.as_str(), e.message.as_str()),
        ("legless.street_events", wanted)
    );
    let facts = step(
        &mut g,
        Some(0),
        json!({"type": "move", "path": ["b9", "a9"], "drew": ["Bundle", "Cart"]}),
    );
    assert_eq!(
        types(&facts),
        [
            "moved",
            "street_event_read",
            "street_event_read",
            "move_granted"
        ]
    );
    // The cart moves Ada on: her turn goes on with a move of 2.
    let after = state_of(&g);
    assert_eq!(stage(&after), (0, Stage::Moving { steps: 2 }));
    assert_eq!(after.discard, ["Bundle", "Cart"]);
    let e = rejection(&g, Some(0), json!({"type": "roll", "rolls": [3]}));
    assert_eq!(e.rule, "legless.moving");
    let facts = step(&mut g, Some(0), json!({"type": "move", "path": ["docks"]}));
    assert_eq!(types(&facts), ["moved", "turn_began"]);
    assert_eq!(facts[1]["seat"], 1);
}

/// Ada, with Tabletape dealing, walks over the symbol at b9 to a9 with only
/// `cards` in the street event deck; returns the move's facts.
fn digital_move_over(cards: &[(&str, Vec<Effect>)]) -> Vec<Value> {
    let mut s = table();
    s.dice = DiceMode::Digital;
    s.deck.clear();
    with_cards(&mut s, cards);
    moving(&mut s, 2);
    let mut g = game_of(&s);
    step(
        &mut g,
        Some(0),
        json!({"type": "move", "path": ["b9", "a9"]}),
    )
}

#[test]
fn digital_draws_follow_a_card_that_draws_more() {
    let facts = digital_move_over(&[
        ("Bundle", vec![Effect::Draw(1)]),
        ("Handbills", vec![Effect::Draw(1)]),
        ("Lamp", vec![Effect::Money(1)]),
    ]);
    let read = read_cards(&facts);
    // However the deck falls, each card that draws has the next read, so
    // the reading ends on the Lamp, the one card that draws no more, and
    // no card comes round twice (the Lamp is drawn before any renewal).
    assert_eq!(read.last(), Some(&"Lamp"), "{read:?}");
    let drawing = &read[..read.len() - 1];
    assert!(
        drawing.iter().all(|c| ["Bundle", "Handbills"].contains(c)),
        "{read:?}"
    );
    assert!(drawing.len() < 2 || drawing[0] != drawing[1], "{read:?}");
}

#[test]
fn a_deck_of_cards_that_all_draw_stops_at_thirty() {
    let facts = digital_move_over(&[
        ("Bundle", vec![Effect::Draw(1)]),
        ("Handbills", vec![Effect::Draw(1)]),
    ]);
    // The discards are shuffled in again and again, up to the move's limit.
    assert_eq!(read_cards(&facts).len(), 30);
    assert!(types(&facts).contains(&"deck_renewed"));
}

/// The street event cards a move read, in order.
fn read_cards(facts: &[Value]) -> Vec<&str> {
    facts
        .iter()
        .filter(|f| f["type"] == "street_event_read")
        .map(|f| f["card"].as_str().unwrap())
        .collect()
}

#[test]
fn a_move_granted_to_one_who_falls_sick_ends_the_turn() {
    let mut s = table();
    s.londoners[0].health = 1;
    let (g, facts) = read_card(&s, json!([{"move": 3}, {"health": -1}]));
    assert!(types(&facts).contains(&"fell_sick"), "{facts:?}");
    assert_eq!(stage(&state_of(&g)).0, 1, "Bo's turn");
}

#[test]
fn two_moves_read_in_one_turn_add_up() {
    let (g, facts) = read_card(&table(), json!([{"move": 2}, {"move": 1}]));
    assert_eq!(facts.last().unwrap()["steps"], 3);
    assert_eq!(stage(&state_of(&g)), (0, Stage::Moving { steps: 3 }));
}

#[test]
fn a_card_takes_the_leg_in_use_or_else_the_dearest() {
    let mut s = table();
    give_leg(&mut s, 0, "Peg leg", true);
    give_leg(&mut s, 0, "Kempner improved", false);
    give_leg(&mut s, 0, "Single Crutch", false);
    let money = s.londoner(0).money;
    let (g, facts) = read_card(&s, json!(["lose_leg"]));
    let sold: Vec<&Value> = facts.iter().filter(|f| f["type"] == "leg_sold").collect();
    assert_eq!(sold.len(), 1);
    assert_eq!(
        (sold[0]["leg"].as_str(), sold[0]["price"].as_u64()),
        (Some("Peg leg"), Some(0))
    );
    assert_eq!(sold[0]["why"], "taken");
    let after = state_of(&g);
    assert_eq!(after.londoner(0).money, money);
    assert!(after.pile.contains(&"Peg leg".to_string()));
    // None in use: the dearest goes.
    let (_, facts) = read_card(&after, json!(["lose_leg"]));
    let taken = facts.iter().find(|f| f["type"] == "leg_sold").unwrap();
    assert_eq!(taken["leg"], "Kempner improved");
}

#[test]
fn a_card_gives_a_leg_from_the_store_while_the_store_holds_it() {
    let s = table();
    let money = s.londoner(0).money;
    let (g, facts) = read_card(&s, json!([{"gain_leg": "Peg leg"}]));
    let given: Vec<&Value> = facts.iter().filter(|f| f["type"] == "leg_given").collect();
    assert_eq!(given.len(), 1, "{facts:?}");
    assert_eq!(given[0]["leg"], "Peg leg");
    let after = state_of(&g);
    assert_eq!(after.londoner(0).legs, vec!["Peg leg".to_string()]);
    assert_eq!(after.londoner(0).money, money, "for nothing");
    let in_store = |s: &State| s.pile.iter().filter(|l| *l == "Peg leg").count();
    assert_eq!(in_store(&after), in_store(&s) - 1);
    let fact: Fact = serde_json::from_value(given[0].clone()).unwrap();
    // The story's subject is the Londoner, not the player.
    assert_eq!(
        <Legless as Rules>::narrate(&s, &fact),
        vec![format!(
            "{} takes the Peg leg from the store, for nothing.",
            s.character_of(0).name
        )]
    );
    // Once the Store holds none, the card gives nothing.
    let mut empty = s.clone();
    empty.pile.retain(|l| l != "Peg leg");
    let (_, facts) = read_card(&empty, json!([{"gain_leg": "Peg leg"}]));
    assert!(!types(&facts).contains(&"leg_given"), "{facts:?}");
}

#[test]
fn money_passes_between_londoners_and_a_debt_unpaid_costs_hearts() {
    let mut s = table();
    s.londoners[0].money = 5;
    s.londoners[1].money = 1;
    let (g, facts) = read_card(&s, json!([{"collect": 3}]));
    // Bo has £1 of the £3: it is handed over, the rest costs Bo hearts.
    assert_eq!(
        types(&facts)[..5],
        [
            "moved",
            "street_event_read",
            "handed",
            "paid_in_health",
            "health_changed"
        ]
    );
    assert_eq!(
        (
            facts[2]["from"].as_u64(),
            facts[2]["to"].as_u64(),
            facts[2]["amount"].as_u64()
        ),
        (Some(1), Some(0), Some(1))
    );
    let after = state_of(&g);
    assert_eq!((after.londoner(0).money, after.londoner(1).money), (6, 0));
    assert_eq!(after.londoner(1).health, s.londoner(1).health - 2);

    let mut s = table();
    s.londoners[0].money = 1;
    give_leg(&mut s, 0, "Peg leg", false);
    let (_, facts) = read_card(&s, json!([{"pay_each": 2}]));
    // Ada sells her leg to pay, then hands it over.
    assert_eq!(types(&facts)[2..4], ["leg_sold", "handed"]);
    assert_eq!(facts[2]["why"], "shortfall");
}

#[test]
fn what_befalls_the_others_leaves_the_reader_alone() {
    let before = table();
    let (g, facts) = read_card(
        &before,
        json!([{"others": [{"miss_turns": 1}, {"health": -1}, {"money": 2}]}]),
    );
    let to_ada = ["moved", "street_event_read", "turn_began"];
    assert!(
        !facts
            .iter()
            .any(|f| f["seat"] == 0 && !to_ada.contains(&f["type"].as_str().unwrap())),
        "{facts:?}"
    );
    let after = state_of(&g);
    let (b0, b1) = (before.londoner(1), after.londoner(1));
    assert_eq!((b1.health, b1.money), (b0.health - 1, b0.money + 2));
    // Bo's turn is missed: play comes back to Ada.
    assert_eq!(stage(&after).0, 0);
}

#[test]
fn effects_are_refused_where_they_cannot_stand() {
    let mut s = table();
    moving(&mut s, 2);
    let g = game_of(&s);
    for (effects, place, words) in [
        (
            json!([{"move": 0}]),
            "cards[0].effects[0]",
            "1 square or more",
        ),
        (
            json!([{"draw": 4}]),
            "cards[0].effects[0]",
            "1 to 3 more cards",
        ),
        (
            json!([{"others": [{"move": 2}]}]),
            "cards[0].effects[0].others[0]",
            "what befalls the others",
        ),
        (
            json!([{"others": [{"go_to": "moon"}]}]),
            "cards[0].effects[0].others[0]",
            "no location `moon`",
        ),
        (
            json!(["claim_love"]),
            "cards[0].effects[0]",
            "love is claimed only",
        ),
        (
            json!([{"gain_leg": "Golden leg"}]),
            "cards[0].effects[0]",
            "no leg `Golden leg` in the box",
        ),
    ] {
        let e = rejection(
            &g,
            Some(0),
            json!({"type": "move", "path": ["b9", "a9"], "cards": [{"name": "Odd", "effects": effects}]}),
        );
        assert_eq!(e.rule, "legless.effect", "{effects}");
        assert!(
            e.message.contains(place) && e.message.contains(words),
            "{effects}: {}",
            e.message
        );
    }
}
