//! Record mode: physical dice, the Sickroom's fee, nothing dealt, and cards
//! typed once (a typed leg stays its buyer's secret).

use super::*;

fn record_game() -> Game {
    let mut g = Game::start(&record_created()).unwrap();
    for (seat, name, start) in [(0, "Hester Crane", "f9"), (1, "Silas Marsh", "c3")] {
        let card = json!({"name": name, "start": start, "money": 12, "health": 5, "goals": [
            {"kind": "love"}, {"kind": "property"}, {"kind": "personal", "at": ["church"]}]});
        step(
            &mut g,
            Some(seat),
            json!({"type": "draw_character", "seat": seat, "card": card}),
        );
    }
    g
}

#[test]
fn record_mode_needs_physical_dice_and_the_sickroom_fee_and_deals_nothing() {
    let mut c = created(2, 1, DiceMode::Digital);
    c.options = [("record".to_string(), json!("on"))].into_iter().collect();
    let e = Game::start(&c).unwrap_err().to_string();
    assert!(e.contains("--dice physical"), "{e}");
    let mut c = created(2, 1, DiceMode::Physical);
    c.options = [("record".to_string(), json!("on"))].into_iter().collect();
    assert!(Game::start(&c)
        .unwrap_err()
        .to_string()
        .contains("sickroom_fee"));
    c.options.insert("sickroom_fee".into(), json!(2));
    let g = Game::start(&c).unwrap();
    let s = state_of(&g);
    assert!(s.record && s.legs.is_empty() && s.deck.is_empty() && s.booklet.is_empty());
    assert_eq!(s.cards.len(), 1, "only the Sickroom's fee is known");
    assert_eq!(s.sickroom_fee(), 2);
    assert!(
        s.londoners.iter().all(|l| l.dead),
        "each player types a character first"
    );
    let legal = g.legal(Some(0));
    assert_eq!(legal[0].needs.len(), 1);
    assert!(
        legal[0].needs[0].starts_with("card:"),
        "{:?}",
        legal[0].needs
    );
    // A character card that does not fit the board is refused by its field.
    let e = rejection(
        &g,
        Some(0),
        json!({"type": "draw_character", "seat": 0, "card": {"name": "X", "start": "a1", "money": 1, "health": 3,
            "goals": [{"kind": "love"}, {"kind": "property"}, {"kind": "personal", "at": ["church"]}]}}),
    );
    assert_eq!(e.rule, "legless.card");
    assert!(e.message.contains("card.start"), "{}", e.message);
}

#[test]
fn in_record_mode_a_card_is_typed_once_and_a_typed_leg_stays_its_buyers_secret() {
    let mut g = record_game();
    let mut s = state_of(&g);
    s.londoners[0].at = at("gin-palace");
    let mut g2 = game_of(&s);
    let e = rejection(&g2, Some(0), json!({"type": "work"}));
    assert_eq!(e.rule, "legless.card_needed");
    let f = step(
        &mut g2,
        Some(0),
        json!({"type": "work", "card": {"work": {"earnings": 4}}}),
    );
    assert_eq!(types(&f)[..2], ["card_laid_out", "worked"]);
    let mut s = state_of(&g2);
    s.phase = Phase::Playing(Turn {
        seat: 0,
        stage: Stage::Act,
    });
    let g3 = game_of(&s);
    let e = rejection(
        &g3,
        Some(0),
        json!({"type": "work", "card": {"work": {"earnings": 9}}}),
    );
    assert_eq!(e.rule, "legless.card_known");

    // A leg typed at the store: the action's card is the buyer's to read.
    let mut s = state_of(&g);
    s.londoners[0].at = at("leg-store");
    g = game_of(&s);
    // Its Equipped side says more than its scores: the words ride with it.
    let buy = json!({"type": "buy_leg", "leg": "Hook leg", "card": {"cost": 5, "equipped": {"appeal": 1, "mobility": 1, "efficiency": 0, "maintenance": 1, "text": "Once a game, hook a coin from a passer-by."}}});
    let d = g.decide(Some(0), &buy).unwrap();
    let ev = Event {
        actor: Actor::Seat(0),
        ..event(g.seq() + 1, d.body)
    };
    g.apply(&ev).unwrap();
    let bo = serde_json::to_string(&g.redact_event(&ev, Viewer::Seat(1)).unwrap()).unwrap();
    assert!(
        bo.contains("Hook leg") && !bo.contains("maintenance"),
        "{bo}"
    );
    assert!(!bo.contains("passer-by"), "{bo}");
    let ada = serde_json::to_string(&g.redact_event(&ev, Viewer::Seat(0)).unwrap()).unwrap();
    assert!(ada.contains("maintenance"), "{ada}");
    // The buyer reads the words with the side; no one else does.
    let words = "Once a game, hook a coin from a passer-by.";
    assert!(g.view(Viewer::Seat(0)).to_string().contains(words));
    assert!(!g.view(Viewer::Seat(1)).to_string().contains(words));
    assert!(!g.view(Viewer::Public).to_string().contains(words));
    // Equipped on Ada's next turn, the side is everyone's, its words told
    // with it.
    let mut s = state_of(&g);
    s.phase = Phase::Playing(Turn {
        seat: 0,
        stage: Stage::Act,
    });
    let mut g = game_of(&s);
    let equip = g
        .decide(Some(0), &json!({"type": "equip", "leg": "Hook leg"}))
        .unwrap();
    let ev = Event {
        actor: Actor::Seat(0),
        ..event(g.seq() + 1, equip.body)
    };
    let told = g.apply_as(&ev, Viewer::Public).unwrap().join(" ");
    assert!(told.contains(words), "{told}");
    assert_eq!(state_of(&g).legs["Hook leg"].cost, 5);
}
