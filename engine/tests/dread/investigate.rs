//! Investigations: Dread cards against matching icons, Plot cards in letter
//! order and time, flips and dice, the encounter's shape, and Items.

use super::*;

#[test]
fn a_dread_card_falls_to_enough_matching_icons_and_stays_otherwise() {
    let mut t = started(5);
    let p = dealt(&t.state(), &down_dread);
    t.act(json!({"type": "reveal", "location": p.to_string()}));
    let Some(Face::Dread(card)) = t.state().face_at(p).cloned() else {
        panic!()
    };
    story_at(&mut t, p, 0..4);
    let s = t.state();
    assert_eq!(s.at(p).len(), 4);
    let dc = s.cards.dread[&card].clone();
    t.act(json!({"type": "investigate", "location": p.to_string()}));
    // The expected points: each icon brought that the card shows, Wild always.
    let s = t.state();
    let expected: u32 = s
        .characters
        .iter()
        .map(|c| {
            let mut icons: Vec<_> = c.sheet().to_vec();
            for a in &c.allies {
                icons.extend(s.cards.allies[a].icons.iter().copied());
            }
            icons
                .iter()
                .filter(|i| {
                    **i == tabletape_engine::dread::content::Icon::Wild || dc.icons.contains(i)
                })
                .count() as u32
        })
        .sum();
    let facts = t.act(json!({"type": "resolve"}));
    let met = facts
        .iter()
        .find_map(|f| match f {
            Fact::DreadCardMet { points, beaten, .. } => Some((*points, *beaten)),
            _ => None,
        })
        .unwrap();
    assert_eq!(met, (expected, expected >= dc.difficulty));
    let s = t.state();
    if met.1 {
        assert!(matches!(s.spot(p), Some(Spot::Empty)));
        assert!(s.investigation.contains(&card));
    } else {
        assert!(matches!(s.spot(p), Some(Spot::Up { .. })));
    }
    // Once an action per location.
    let r = t.refused(
        None,
        json!({"type": "investigate", "location": p.to_string()}),
    );
    assert!(
        ["dread.once", "dread.face_down"].contains(&r.rule.as_str()),
        "{r}"
    );
}

#[test]
fn plot_cards_go_in_letter_order_and_within_their_time_codes() {
    let (mut t, p) = at_plot(6, 'B', false);
    let r = t.refused(
        None,
        json!({"type": "investigate", "location": p.to_string()}),
    );
    assert_eq!(r.rule, "dread.plot_order");
    assert!(r.message.contains("A comes before B"), "{}", r.message);
    let (mut t, p) = at_plot(6, 'C', false);
    // C is a Day card; A and B are not done either, so order speaks first.
    let r = t.refused(
        None,
        json!({"type": "investigate", "location": p.to_string()}),
    );
    assert_eq!(r.rule, "dread.plot_order");
    rigged(&mut t, |s| s.investigated = vec!['A', 'B']);
    let r = t.refused(
        None,
        json!({"type": "investigate", "location": p.to_string()}),
    );
    assert_eq!(r.rule, "dread.time_code");
    assert!(r.message.contains("from the Day on"), "{}", r.message);
}

#[test]
fn a_plot_card_flips_everyone_then_rolls_a_die_per_action_point() {
    let (mut t, p) = at_plot(7, 'A', true);
    t.act(json!({"type": "investigate", "location": p.to_string()}));
    // Nobody rolls before everyone has flipped; walking away is open until
    // the first flip.
    let r = t.refused(None, json!({"type": "roll", "character": 0}));
    assert_eq!(r.rule, "dread.flip_first");
    t.act(json!({"type": "flip", "character": 0}));
    let r = t.refused(None, json!({"type": "walk_away"}));
    assert_eq!(r.rule, "dread.committed");
    for c in 1..4 {
        t.act(json!({"type": "flip", "character": c}));
    }
    let s = t.state();
    let e = s.encounter.clone().unwrap();
    let plot = s.plot('A').unwrap().clone();
    for c in 0..4 {
        let share = e.share(c).unwrap();
        let ch = &s.characters[c];
        let card = &ch.personality[share.flipped.unwrap()];
        let mut icons = if card.kind == Trait::Trauma {
            vec![]
        } else {
            ch.sheet().to_vec()
        };
        icons.extend(card.icons.iter().copied());
        icons.extend(share.icons.iter().copied());
        let expected = icons
            .iter()
            .filter(|i| {
                **i == tabletape_engine::dread::content::Icon::Wild || plot.icons.contains(i)
            })
            .count();
        let facts = t.act(json!({"type": "roll", "character": c}));
        let rolled = facts
            .iter()
            .find_map(|f| match f {
                Fact::DiceRolled { fists, .. } => Some(fists.len()),
                _ => None,
            })
            .unwrap();
        assert_eq!(rolled, expected, "{} with {}", ch.name, card.name);
    }
    let facts = t.act(json!({"type": "resolve"}));
    let (fists, tier, impeccable) = facts
        .iter()
        .find_map(|f| match f {
            Fact::PlotResolved {
                fists,
                tier,
                impeccable,
                ..
            } => Some((*fists, *tier, *impeccable)),
            _ => None,
        })
        .unwrap();
    let want = plot
        .tiers
        .iter()
        .rposition(|r| r.successes <= fists)
        .unwrap();
    assert_eq!(tier, want);
    let top = plot.tiers.len() - 1;
    let extra = if tier == top {
        fists - plot.tiers[top].successes
    } else {
        0
    };
    assert_eq!(impeccable, extra);
    assert_eq!(t.state().investigated, vec!['A']);
}

#[test]
fn the_encounter_shape_is_what_the_target_asks() {
    let (mut t, p) = at_plot(12, 'A', false);
    t.act(json!({"type": "investigate", "location": p.to_string()}));
    assert!(matches!(
        t.state().encounter.unwrap().target,
        Target::Plot { letter: 'A', .. }
    ));
    t.act(json!({"type": "walk_away"}));
    assert!(t.state().encounter.is_none());
    let r = t.refused(
        None,
        json!({"type": "investigate", "location": p.to_string()}),
    );
    assert_eq!(r.rule, "dread.once");
}

#[test]
fn items_tilt_when_used_and_go_when_depleted() {
    let (mut t, p) = at_plot(17, 'A', false);
    t.act(json!({"type": "investigate", "location": p.to_string()}));
    let item = t.state().characters[0].items[0].name.clone();
    let r = t.refused(
        None,
        json!({"type": "use_item", "character": 0, "item": item}),
    );
    assert_eq!(r.rule, "dread.flip_first");
    t.act(json!({"type": "flip", "character": 0}));
    let use_effect = t.state().cards.items[&item].use_effect.clone();
    if use_effect.successes == 0 && use_effect.rerolls == 0 {
        t.act(json!({"type": "use_item", "character": 0, "item": item}));
        assert!(t.state().characters[0].items[0].tilted);
        let r = t.refused(
            None,
            json!({"type": "use_item", "character": 0, "item": item, "deplete": true}),
        );
        assert_eq!(r.rule, "dread.tilted");
    } else {
        t.act(json!({"type": "use_item", "character": 0, "item": item, "deplete": true}));
        assert!(t.state().characters[0].items.is_empty());
    }
}
