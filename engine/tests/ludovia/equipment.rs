//! Equipment: buying at the market, every sample item doing what its card
//! says, and a spare blue item used at once.

use super::*;

#[test]
fn buying_pays_in_full_and_renews_the_offer() {
    let mut s = table();
    give(&mut s, 0, &["Pearl Necklace", "Silver Spoons"]);
    assert_eq!(
        refused(
            &s,
            json!({"type": "buy", "item": "Whistle", "pay": ["Pearl Necklace"]})
        ),
        "ludovia.price"
    );
    assert_eq!(
        refused(
            &s,
            json!({"type": "buy", "item": "Bolas", "pay": ["Pearl Necklace"]})
        ),
        "ludovia.not_on_offer"
    );
    assert_eq!(
        refused(
            &s,
            json!({"type": "buy", "item": "Mask", "pay": ["Ruby Crown"]})
        ),
        "ludovia.not_carried"
    );
    // Names are read in any letter case; the facts carry the box's spelling.
    let facts = act(
        &mut s,
        json!({"type": "buy", "item": "mask", "pay": ["pearl necklace"], "drew": ["bolas", "BOLAS", "Soft Shoes"]}),
    );
    assert!(facts.iter().any(|f| matches!(
        f,
        Fact::EquipmentBought { lost: 100, item, paid, .. } if item == "Mask" && paid == &["Pearl Necklace"]
    )));
    assert_eq!(s.offer, vec!["Bolas", "Bolas", "Soft Shoes"]);
    assert_eq!(s.deck_bottom, vec!["Whistle", "Backpack"]);
    assert_eq!(s.thieves[0].equipment, vec!["Mask"]);
    // Off the market, nothing is for sale.
    s.thieves[0].at = sp("h1.1");
    assert_eq!(
        refused(
            &s,
            json!({"type": "buy", "item": "Bolas", "pay": ["Silver Spoons"]})
        ),
        "ludovia.market"
    );
}

#[test]
fn every_sample_item_does_what_its_card_says() {
    // Lucky Charm: a 5 acquits too.
    let mut s = table();
    s.thieves[0].at = Space::Prison;
    s.thieves[0].in_prison = true;
    give(&mut s, 0, &["Ruby Crown"]);
    equip(&mut s, 0, "Lucky Charm");
    if let Phase::Playing(t) = &mut s.phase {
        t.stage = Stage::Trial;
    }
    act(&mut s, json!({"type": "stand_trial", "roll": 5}));
    assert!(!s.thieves[0].in_prison);

    // Soft Shoes: +1 on the jump die; Rope and Grapple: no roll at all.
    let mut s = table();
    s.thieves[0].at = sp("s1.3");
    give(&mut s, 0, &["Silver Spoons", "Pearl Necklace"]);
    let mut shod = s.clone();
    equip(&mut shod, 0, "Soft Shoes");
    act(&mut shod, json!({"type": "jump", "to": "s1.2", "roll": 2}));
    assert_eq!(shod.thieves[0].at, sp("s1.2"));
    assert_eq!(
        shod.thieves[0].equipment,
        vec!["Soft Shoes"],
        "red items stay"
    );
    let mut roped = s.clone();
    assert_eq!(
        refused(&roped, json!({"type": "jump", "to": "s1.2", "rope": true})),
        "ludovia.rope"
    );
    equip(&mut roped, 0, "Rope and Grapple");
    assert_eq!(
        refused(
            &roped,
            json!({"type": "jump", "to": "s1.2", "rope": true, "roll": 1})
        ),
        "ludovia.no_roll"
    );
    act(
        &mut roped,
        json!({"type": "jump", "to": "s1.2", "rope": true}),
    );
    assert_eq!(roped.thieves[0].at, sp("s1.2"));
    assert!(
        roped.thieves[0].equipment.is_empty(),
        "blue items are used up"
    );

    // Whistle: an action point moves a policeman by a die; the item stays.
    let mut s = table();
    assert_eq!(
        refused(&s, json!({"type": "whistle", "policeman": 0, "roll": 5})),
        "ludovia.whistle"
    );
    equip(&mut s, 0, "Whistle");
    act(
        &mut s,
        json!({"type": "whistle", "policeman": 0, "roll": 5}),
    );
    assert_eq!(s.policemen[0].at, post("p2.3"));
    assert_eq!(turn(&s).ap, 3);
    assert_eq!(s.thieves[0].equipment, vec!["Whistle"]);

    // Bolas: knock down a thief on a neighbouring rooftop of the block.
    let mut s = table();
    s.thieves[0].at = sp("s1.1");
    s.thieves[1].at = sp("s1.2");
    let shove = json!({"type": "knock_down", "target": 1, "street": "v0.1", "rolls": [4, 2]});
    assert_eq!(refused(&s, shove.clone()), "ludovia.same_rooftop");
    equip(&mut s, 0, "Bolas");
    act(&mut s, shove);
    assert_eq!(s.thieves[1].at, sp("v0.1"));
    assert!(
        s.thieves[0].equipment.is_empty(),
        "the Bolas is blue, as the rules' worked example prices it: used up"
    );

    // A duplicate from an Equipment event is discarded at once.
    let mut s = table();
    s.thieves[0].at = sp("s1.1");
    equip(&mut s, 0, "Backpack");
    let facts = act(
        &mut s,
        json!({"type": "rob", "drew": "Equipment", "found": "Backpack"}),
    );
    assert!(facts
        .iter()
        .any(|f| matches!(f, Fact::EquipmentDiscarded { item, .. } if item == "Backpack")));
    assert_eq!(s.thieves[0].equipment, vec!["Backpack"]);
    assert_eq!(s.equipment_discard, vec!["Backpack"]);
    // Buying an item already held is refused.
    let mut s = table();
    give(&mut s, 0, &["Pearl Necklace"]);
    equip(&mut s, 0, "Mask");
    assert_eq!(
        refused(
            &s,
            json!({"type": "buy", "item": "Mask", "pay": ["Pearl Necklace"]})
        ),
        "ludovia.equipment_duplicate"
    );
}

#[test]
fn a_spare_blue_item_is_used_at_once() {
    // Ada and Bo share a rooftop; Ada holds Make-up and finds another.
    let mut s = table();
    for seat in [0, 1] {
        s.thieves[seat].at = sp("s1.1");
    }
    give(&mut s, 1, &["Ruby Crown"]);
    equip(&mut s, 0, "Make-up");
    act(
        &mut s,
        json!({"type": "rob", "drew": "Equipment", "found": "Make-up"}),
    );
    assert_eq!(turn(&s).stage, Stage::Choice(Choice::SpareItem));
    assert_eq!(turn(&s).ap, 3);
    assert_eq!(s.thieves[0].equipment, vec!["Make-up", "Make-up"]);
    let legal: Vec<Action> = Ludovia::legal(&s, Some(0))
        .into_iter()
        .map(|l| l.action)
        .collect();
    assert!(legal.contains(&Action::DiscardEquipment {
        item: "Make-up".into()
    }));
    assert!(
        legal.iter().all(|a| matches!(
            a,
            Action::DiscardEquipment { .. }
                | Action::Steal { make_up: true, .. }
                | Action::KnockDown { make_up: true, .. }
        )),
        "{legal:?}"
    );
    assert!(legal
        .iter()
        .any(|a| matches!(a, Action::Steal { make_up: true, .. })));
    assert_eq!(
        refused(&s, json!({"type": "end_turn"})),
        "ludovia.spare_item"
    );
    assert_eq!(
        refused(
            &s,
            json!({"type": "steal", "from": 1, "rolls": [5, 4], "took": "Ruby Crown"})
        ),
        "ludovia.spare_item",
        "a steal without the Make-up does not use it"
    );

    // Letting it go is allowed, and the turn then ends.
    let mut let_go = s.clone();
    act(
        &mut let_go,
        json!({"type": "discard_equipment", "item": "Make-up"}),
    );
    assert_eq!(let_go.thieves[0].equipment, vec!["Make-up"]);
    assert_eq!(turn(&let_go).seat, 1);

    // Used at once: 3 + 2 beats 4, free of action points, then the turn ends.
    let facts = act(
        &mut s,
        json!({"type": "steal", "from": 1, "rolls": [3, 4], "took": "Ruby Crown", "make_up": true}),
    );
    assert!(!facts
        .iter()
        .any(|f| matches!(f, Fact::ActionPointSpent { .. })));
    assert_eq!(s.thieves[0].hand, vec!["Ruby Crown"]);
    assert_eq!(s.thieves[0].equipment, vec!["Make-up"]);
    assert!(facts.iter().any(|f| matches!(
        f,
        Fact::TurnEnded {
            seat: 0,
            why: Some(tabletape_engine::ludovia::actions::TurnEnd::Cut)
        }
    )));
    assert_eq!(turn(&s).seat, 1);
}
