//! Tests of `chance`.

use serde_json::json;
use tabletape_engine::chance::*;
use tabletape_events::DiceMode;

#[test]
fn digital_rolls_are_recorded_and_repeatable() {
    let mut a = Chance::new(DiceMode::Digital, 5, 3);
    let mut b = Chance::new(DiceMode::Digital, 5, 3);
    let ra: Vec<u32> = (0..5)
        .map(|_| a.roll("die", 6, "roll", None).unwrap())
        .collect();
    let rb: Vec<u32> = (0..5)
        .map(|_| b.roll("die", 6, "roll", None).unwrap())
        .collect();
    assert_eq!(ra, rb);
    assert_eq!(a.draws().len(), 5);
    assert!(ra.iter().all(|r| (1..=6).contains(r)));
}

#[test]
fn digital_rejects_a_supplied_roll() {
    let mut c = Chance::new(DiceMode::Digital, 1, 1);
    let err = c.roll("policeman die", 6, "roll", Some(3)).unwrap_err();
    assert_eq!(err.rule, "dice.digital");
    assert!(err.message.contains("`roll`"));
}

#[test]
fn physical_needs_a_possible_roll() {
    let mut c = Chance::new(DiceMode::Physical, 1, 1);
    let missing = c.roll("policeman die", 6, "roll", None).unwrap_err();
    assert_eq!(missing.rule, "physical.roll_needed");
    assert!(
        missing.message.contains("policeman die"),
        "{}",
        missing.message
    );
    let impossible = c.roll("policeman die", 6, "roll", Some(7)).unwrap_err();
    assert_eq!(impossible.rule, "physical.impossible_roll");
    assert_eq!(c.roll("policeman die", 6, "roll", Some(6)).unwrap(), 6);
    assert_eq!(c.draws()[0].value, json!(6));
}

#[test]
fn a_draw_reads_any_letter_case_and_a_refusal_names_each_card_once() {
    let deck: Vec<String> = ["Mask", "Mask", "Mask", "Whistle", "Bolas", "Bolas"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut c = Chance::new(DiceMode::Physical, 1, 1);
    assert_eq!(c.pick("card", &deck, "drew", Some("whistle")).unwrap(), 3);
    assert_eq!(c.draws()[0].value, json!("Whistle"), "recorded as printed");
    let e = c.pick("card", &deck, "drew", Some("Rope")).unwrap_err();
    assert!(
        e.message.ends_with("is not among Mask, Whistle, Bolas"),
        "{}",
        e.message
    );
    let e = c.pick("card", &deck, "drew", None).unwrap_err();
    assert!(
        e.message.ends_with("one of Mask, Whistle, Bolas"),
        "{}",
        e.message
    );
}

#[test]
fn physical_pick_and_shuffle_are_checked() {
    let mut c = Chance::new(DiceMode::Physical, 1, 1);
    let cards = vec!["Dog".to_string(), "Trap".to_string()];
    assert_eq!(
        c.pick("rooftop card", &cards, "drew", Some("Trap"))
            .unwrap(),
        1
    );
    assert_eq!(
        c.pick("rooftop card", &cards, "drew", Some("Cat"))
            .unwrap_err()
            .rule,
        "physical.impossible_draw"
    );
    let mut deck = vec!['a', 'b', 'c'];
    assert_eq!(
        c.shuffle("deck", &mut deck, "order", Some(&[0, 0, 1]))
            .unwrap_err()
            .rule,
        "physical.impossible_shuffle"
    );
    c.shuffle("deck", &mut deck, "order", Some(&[2, 0, 1]))
        .unwrap();
    assert_eq!(deck, vec!['c', 'a', 'b']);
}

#[test]
fn coin_in_both_modes() {
    let mut d = Chance::new(DiceMode::Digital, 3, 4);
    d.coin("duel tie", "heads", None).unwrap();
    assert_eq!(d.draws().len(), 1);
    let mut p = Chance::new(DiceMode::Physical, 3, 4);
    assert_eq!(
        p.coin("duel tie", "heads", None).unwrap_err().rule,
        "physical.coin_needed"
    );
    assert!(!p.coin("duel tie", "heads", Some(false)).unwrap());
    assert_eq!(p.draws()[0].value, json!("tails"));
}
