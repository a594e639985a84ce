//! What every family shares: who plays which character (pairs), resources
//! shared evenly, conditions, dread and healing.

use super::*;

#[test]
fn with_three_players_in_pairs_the_fourth_character_passes_round() {
    use tabletape_engine::dread::decide::controller;
    assert_eq!(
        (0..4).map(|i| controller(2, 4, i, 0)).collect::<Vec<_>>(),
        vec![0, 0, 1, 1]
    );
    assert_eq!(
        (0..3)
            .map(|stage| controller(3, 4, 3, stage))
            .collect::<Vec<_>>(),
        vec![0, 1, 2],
        "chapter 1, chapter 2, the Endgame"
    );
    let t = Table::new(created(3, 1, DiceMode::Digital, &[("variant", "pairs")]));
    let s = t.state();
    assert_eq!(s.characters.len(), 4);
    assert_eq!(s.allies_dealt, 0);
}

#[test]
fn resources_are_shared_as_evenly_as_possible() {
    assert_eq!(
        tabletape_engine::dread::decide::spread(&[4, 7], 3),
        vec![4, 7, 4]
    );
    assert_eq!(
        tabletape_engine::dread::decide::spread(&[1, 2, 3, 0], 3),
        vec![1, 2, 3]
    );
    // Virtues never pass twelve among the team.
    let t = started(16);
    let mut s = t.state();
    s.characters[0].virtues = 8; // and one each for the other three: 11
    let mut out = tabletape_engine::dread::decide::Out::new(&s);
    tabletape_engine::dread::decide::virtues(&mut out, 1, 5);
    assert_eq!(out.s.virtues_held(), VIRTUES);
}

#[test]
fn a_second_condition_raises_dread_by_five_outside_the_endgame() {
    let t = started(8);
    let mut s = t.state();
    s.characters[1].conditions = vec![Condition::Injured];
    let mut out = tabletape_engine::dread::decide::Out::new(&s);
    out.afflict(1, Condition::Injured);
    assert_eq!(out.s.dread, 5);
    assert!(!out.s.characters[1].defeated);
    out.afflict(1, Condition::Unhinged);
    assert_eq!(out.s.characters[1].conditions.len(), 2);
    // In the Endgame the same defeats the character.
    let mut endgame = s.clone();
    endgame.phase = Phase::Showdown { needed: 1 };
    let mut out = tabletape_engine::dread::decide::Out::new(&endgame);
    out.afflict(1, Condition::Injured);
    assert!(out.s.characters[1].defeated);
    assert_eq!(out.s.dread, 0);
}

#[test]
fn a_healing_comes_first_when_a_second_condition_looms() {
    let (mut t, p) = at_plot(20, 'A', false);
    rigged(&mut t, |s| {
        s.characters[0].conditions = vec![Condition::Injured];
        s.characters[0].items = vec![tabletape_engine::dread::state::Held {
            name: "Bandages".into(),
            tilted: false,
        }];
    });
    // Outside any investigation, only what works alone is offered.
    let offered: Vec<Value> = t
        .legal()
        .into_iter()
        .filter(|a| a["type"] == "use_item" && a["character"] == 0)
        .collect();
    assert_eq!(
        offered,
        vec![json!({"type": "use_item", "character": 0, "item": "Bandages", "deplete": true})]
    );
    let r = t.refused(
        None,
        json!({"type": "use_item", "character": 0, "item": "Bandages"}),
    );
    assert_eq!(
        r.rule, "dread.no_encounter",
        "a Wild icon needs an investigation"
    );
    t.act(json!({"type": "investigate", "location": p.to_string()}));
    // Before the flip, the healing (not the icon) is open.
    let r = t.refused(
        None,
        json!({"type": "use_item", "character": 0, "item": "Bandages"}),
    );
    assert_eq!(r.rule, "dread.flip_first");
    t.act(json!({"type": "use_item", "character": 0, "item": "Bandages", "deplete": true}));
    let s = t.state();
    assert!(s.characters[0].conditions.is_empty());
    assert!(s.characters[0].items.is_empty());
    // Nothing is used while planning.
    let mut planning = started(21);
    let item = planning.state().characters[0].items[0].name.clone();
    let r = planning.refused(
        None,
        json!({"type": "use_item", "character": 0, "item": item, "deplete": true}),
    );
    assert_eq!(r.rule, "dread.planning");
}
