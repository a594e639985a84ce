//! The card and story effects beyond money and hearts: moving on, further
//! draws, legs taken, money between Londoners, what befalls the others.

use std::sync::Arc;

use tabletape_engine::legless::content::{Effect, StreetEvent};

use super::*;

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

#[test]
fn digital_draws_follow_a_card_that_draws_more() {
    let mut s = table();
    s.dice = DiceMode::Digital;
    // Every card in the deck draws another: the move reads what the deck holds.
    s.deck.clear();
    with_cards(
        &mut s,
        &[
            ("Bundle", vec![Effect::Draw(1)]),
            ("Handbills", vec![Effect::Draw(1)]),
            ("Lamp", vec![Effect::Money(1)]),
        ],
    );
    moving(&mut s, 2);
    let mut g = game_of(&s);
    let facts = step(
        &mut g,
        Some(0),
        json!({"type": "move", "path": ["b9", "a9"]}),
    );
    let read: Vec<&str> = facts
        .iter()
        .filter(|f| f["type"] == "street_event_read")
        .map(|f| f["card"].as_str().unwrap())
        .collect();
    // However the deck falls, reading stops at the first card that draws
    // no more, or when the deck and discards are spent.
    assert!(!read.is_empty() && read.len() <= 3, "{read:?}");
    let last = *read.last().unwrap();
    assert!(last == "Lamp" || read.len() == 3, "{read:?}");
    assert_eq!(
        read.iter().filter(|c| **c == "Lamp").count(),
        usize::from(read.contains(&"Lamp"))
    );
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
