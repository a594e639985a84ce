//! Policemen and the Prison: watched streets and blocked lamp posts, the
//! policeman die, the police's numbers, prisoners and their trial.

use super::*;

#[test]
fn a_watched_street_arrests_a_thief_with_loot() {
    let mut s = table();
    s.policemen[0] = Policeman {
        at: post("p0.1"),
        facing: Facing::South,
    };
    assert!(s.watched().contains(&st("v1.1")));
    s.thieves[0].at = sp("s0.3");
    // Empty-handed, the watched street is no danger.
    let mut free = s.clone();
    act(&mut free, json!({"type": "move", "to": "s1.3"}));
    give(&mut s, 0, &["Ruby Crown"]);
    s.thieves[0].at = sp("h1.1");
    let facts = act(&mut s, json!({"type": "move", "to": "v1.1"}));
    assert!(facts
        .iter()
        .any(|f| matches!(f, Fact::ThiefArrested { seat: 0, .. })));
    assert_eq!(s.thieves[0].at, Space::Prison);
    assert!(s.thieves[0].in_prison);
    assert_eq!(turn(&s).seat, 1, "an arrest ends the turn");
}

#[test]
fn a_policeman_at_a_lamp_post_blocks_a_thief_with_loot() {
    let mut s = table();
    s.policemen[0].at = post("p1.1");
    s.policemen[0].facing = Facing::North;
    s.thieves[0].at = sp("h1.1");
    give(&mut s, 0, &["Silver Spoons"]);
    assert_eq!(
        refused(&s, json!({"type": "move", "to": "h1.0"})),
        "ludovia.lamp_post_blocked"
    );
    // A Mask gets past him, once.
    equip(&mut s, 0, "Mask");
    let facts = act(&mut s, json!({"type": "move", "to": "h1.0", "mask": true}));
    assert!(facts
        .iter()
        .any(|f| matches!(f, Fact::EquipmentUsed { .. })));
    assert!(s.thieves[0].equipment.is_empty());
    assert_eq!(
        refused(&s, json!({"type": "move", "to": "h1.1", "mask": true})),
        "ludovia.mask"
    );
}

#[test]
fn policemen_turn_about_at_the_edge() {
    let s = table();
    let p = Policeman {
        at: post("p0.0"),
        facing: Facing::East,
    };
    assert_eq!(
        step_policeman(&s, &p, Step::Left),
        (post("p0.0"), Facing::South, true)
    );
    assert_eq!(
        step_policeman(&s, &p, Step::Right),
        (post("p0.0"), Facing::South, false)
    );
    assert_eq!(
        step_policeman(&s, &p, Step::Advance),
        (post("p0.1"), Facing::East, false)
    );
    let edge = Policeman {
        at: post("p0.2"),
        facing: Facing::East,
    };
    assert_eq!(
        step_policeman(&s, &edge, Step::Advance),
        (post("p0.3"), Facing::West, true)
    );
}

#[test]
fn a_turn_opens_with_the_policeman_die() {
    let mut s = table();
    if let Phase::Playing(t) = &mut s.phase {
        t.stage = Stage::Policeman;
    }
    assert_eq!(
        refused(&s, json!({"type": "end_turn"})),
        "ludovia.policeman_first"
    );
    assert_eq!(
        refused(&s, json!({"type": "move_policeman", "policeman": 0})),
        "physical.roll_needed"
    );
    assert_eq!(
        refused(
            &s,
            json!({"type": "move_policeman", "policeman": 0, "step": "left"})
        ),
        "ludovia.policeman_die"
    );
    assert_eq!(
        refused(
            &s,
            json!({"type": "move_policeman", "policeman": 7, "roll": 5})
        ),
        "ludovia.no_such_policeman"
    );
    act(
        &mut s,
        json!({"type": "move_policeman", "policeman": 0, "roll": 5}),
    );
    assert_eq!(s.policemen[0].at, post("p2.3"));
    assert_eq!(turn(&s).stage, Stage::Actions);
    assert_eq!(
        Ludovia::decide(
            &s,
            Some(1),
            &Action::EndTurn,
            &mut Chance::new(DiceMode::Physical, 1, 1)
        )
        .unwrap_err()
        .rule,
        "ludovia.turn"
    );
}

#[test]
fn the_police_never_outnumber_the_thieves_by_more_than_one() {
    let mut s = table();
    s.policemen.push(Policeman {
        at: post("p0.0"),
        facing: Facing::East,
    });
    s.policemen.push(Policeman {
        at: post("p0.1"),
        facing: Facing::East,
    });
    s.thieves[0].at = sp("s1.1");
    let facts = act(&mut s, json!({"type": "rob", "drew": "Stake-out"}));
    assert!(!facts
        .iter()
        .any(|f| matches!(f, Fact::ChoiceAwaited { .. })));
    assert_eq!(s.policemen.len(), 4);
}

#[test]
fn prisoners_choose_the_policeman_then_stand_trial() {
    let mut s = table();
    s.thieves[0].at = Space::Prison;
    s.thieves[0].in_prison = true;
    give(&mut s, 0, &["Ruby Crown", "Silver Spoons"]);
    if let Phase::Playing(t) = &mut s.phase {
        t.stage = Stage::Policeman;
    }
    assert_eq!(
        refused(
            &s,
            json!({"type": "move_policeman", "policeman": 0, "roll": 3})
        ),
        "ludovia.prisoner_chooses"
    );
    act(
        &mut s,
        json!({"type": "move_policeman", "policeman": 0, "step": "left"}),
    );
    assert_eq!(s.policemen[0].facing, Facing::West);
    assert_eq!(turn(&s).stage, Stage::Trial);
    let mut acquitted = s.clone();
    act(&mut acquitted, json!({"type": "stand_trial", "roll": 6}));
    assert!(!acquitted.thieves[0].in_prison);
    assert_eq!(turn(&acquitted).stage, Stage::Actions);
    act(&mut acquitted, json!({"type": "move", "to": "h2.1"}));

    act(&mut s, json!({"type": "stand_trial", "roll": 5}));
    assert_eq!(turn(&s).stage, Stage::Choice(Choice::ConvictionDiscard));
    act(
        &mut s,
        json!({"type": "discard_treasure", "card": "Silver Spoons"}),
    );
    assert!(s.thieves[0].in_prison);
    assert_eq!(s.thieves[0].hand, vec!["Ruby Crown"]);
    assert_eq!(turn(&s).seat, 1, "the convict sits the turn out");
}

#[test]
fn a_prisoner_without_loot_walks_free() {
    let mut s = table();
    s.thieves[0].at = Space::Prison;
    s.thieves[0].in_prison = true;
    if let Phase::Playing(t) = &mut s.phase {
        t.stage = Stage::Policeman;
    }
    act(
        &mut s,
        json!({"type": "move_policeman", "policeman": 1, "step": "advance"}),
    );
    assert!(!s.thieves[0].in_prison);
    act(&mut s, json!({"type": "move", "to": "v2.2"}));
}

#[test]
fn leaving_a_street_that_became_watched_passes_it() {
    let mut s = table();
    s.thieves[0].at = sp("h1.0");
    give(&mut s, 0, &["Ruby Crown"]);
    // A policeman turns to watch h1.0 while Ada stands on it.
    s.policemen[0] = Policeman {
        at: post("p1.1"),
        facing: Facing::West,
    };
    let step_off = json!({"type": "move", "to": "s2.2"});

    let mut first_rules = s.clone();
    first_rules.rules = 1;
    act(&mut first_rules, step_off.clone());
    assert_eq!(first_rules.thieves[0].at, sp("s2.2"), "rules 1 let her go");

    let mut caught = s.clone();
    let facts = act(&mut caught, step_off);
    assert!(facts.iter().any(|f| matches!(
        f,
        Fact::ThiefArrested { cause: tabletape_engine::ludovia::actions::ArrestCause::Leaving, street: Some(st), .. } if *st == tabletape_engine::ludovia::board::Street::H { r: 1, c: 0 }
    )));
    assert_eq!(caught.thieves[0].at, Space::Prison);
    assert_ne!(turn(&caught).seat, 0, "an arrest ends the turn");

    // The legal moves offer the Mask for it; masked, she slips away.
    equip(&mut s, 0, "Mask");
    let legal = Ludovia::legal(&s, Some(0));
    assert!(legal.iter().any(|l| l.action
        == Action::Move {
            to: sp("s2.2"),
            mask: true
        }));
    act(&mut s, json!({"type": "move", "to": "s2.2", "mask": true}));
    assert_eq!(s.thieves[0].at, sp("s2.2"));
    assert!(s.thieves[0].equipment.is_empty());

    // Empty-handed, nobody cares.
    let mut free = table();
    free.thieves[0].at = sp("h1.0");
    free.policemen[0] = s.policemen[0].clone();
    act(&mut free, json!({"type": "move", "to": "s2.2"}));
    assert_eq!(free.thieves[0].at, sp("s2.2"));
}
