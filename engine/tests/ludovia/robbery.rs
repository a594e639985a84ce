//! Robbing a house: treasure kept up to the carrying limit, and the events.

use super::*;

#[test]
fn robbing_keeps_treasure_and_respects_the_carrying_limit() {
    let mut s = table();
    s.thieves[0].at = sp("s1.1");
    assert_eq!(refused(&s, json!({"type": "rob"})), "physical.draw_needed");
    assert_eq!(
        refused(&s, json!({"type": "rob", "drew": "Gold Bar"})),
        "physical.impossible_draw"
    );
    act(&mut s, json!({"type": "rob", "drew": "Pearl Necklace"}));
    assert_eq!(s.thieves[0].hand, vec!["Pearl Necklace"]);
    assert_eq!(turn(&s).ap, 3, "a treasure does not end the turn");
    assert_eq!(
        refused(&s, json!({"type": "rob", "drew": "Dog"})),
        "ludovia.rooftop_robbed"
    );
    give(&mut s, 0, &["Silver Spoons", "Silver Spoons"]);
    s.thieves[0].at = sp("s1.0");
    assert_eq!(
        refused(&s, json!({"type": "rob", "drew": "Dog"})),
        "ludovia.carry_limit"
    );
    equip(&mut s, 0, "Backpack");
    act(&mut s, json!({"type": "rob", "drew": "Ruby Crown"}));
    assert_eq!(s.thieves[0].hand.len(), 4);
}

#[test]
fn events_are_resolved_and_end_the_turn() {
    // Dog: give up something, then the turn ends.
    let mut s = table();
    s.thieves[0].at = sp("s1.1");
    give(&mut s, 0, &["Ruby Crown"]);
    act(&mut s, json!({"type": "rob", "drew": "Dog"}));
    assert_eq!(turn(&s).stage, Stage::Choice(Choice::DogDiscard));
    assert_eq!(
        refused(&s, json!({"type": "end_turn"})),
        "ludovia.choice_pending"
    );
    act(
        &mut s,
        json!({"type": "discard_treasure", "card": "Ruby Crown"}),
    );
    assert_eq!(turn(&s).seat, 1);
    assert_eq!(s.rooftop_discard, vec!["Dog", "Ruby Crown"]);

    // Trap: fall to a street of the block.
    let mut s = table();
    s.thieves[0].at = sp("s1.1");
    act(&mut s, json!({"type": "rob", "drew": "Trap"}));
    assert_eq!(
        refused(&s, json!({"type": "land", "street": "h2.1"})),
        "ludovia.trap_street"
    );
    act(&mut s, json!({"type": "land", "street": "v0.0"}));
    assert_eq!(s.thieves[0].at, sp("v0.0"));
    assert_eq!(turn(&s).seat, 1);

    // Stake-out: arrested, and a third policeman by the Prison.
    let mut s = table();
    s.thieves[0].at = sp("s1.1");
    act(&mut s, json!({"type": "rob", "drew": "Stake-out"}));
    assert!(s.thieves[0].in_prison);
    assert_eq!(
        refused(
            &s,
            json!({"type": "place_policeman", "at": "p0.0", "facing": "east"})
        ),
        "ludovia.stake_out_post"
    );
    act(
        &mut s,
        json!({"type": "place_policeman", "at": "p2.1", "facing": "east"}),
    );
    assert_eq!(s.policemen.len(), 3);
    assert_eq!(turn(&s).seat, 1);

    // Equipment: the top card, free; a fourth item must go.
    let mut s = table();
    s.thieves[0].at = sp("s1.1");
    for item in ["Mask", "Bolas", "Whistle"] {
        equip(&mut s, 0, item);
    }
    act(
        &mut s,
        json!({"type": "rob", "drew": "Equipment", "found": "Soft Shoes"}),
    );
    assert_eq!(turn(&s).stage, Stage::Choice(Choice::EquipmentOverflow));
    act(
        &mut s,
        json!({"type": "discard_equipment", "item": "Bolas"}),
    );
    assert_eq!(
        s.thieves[0].equipment,
        vec!["Mask", "Whistle", "Soft Shoes"]
    );
    assert_eq!(turn(&s).seat, 1);
}
