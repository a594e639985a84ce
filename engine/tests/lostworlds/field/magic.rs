//! Regeneration, Airi and the Wraith, and spells beyond extended range.

use super::*;

#[test]
fn regeneration_takes_the_whole_move_and_fails_in_a_battle_zone() {
    let regenerating = |s: &mut State| {
        edit_sheet(s, 0, |sheet| {
            sheet.regeneration = 2;
        });
        s.seats[0].party[0].body = 2;
    };
    let mut s = yard_state();
    regenerating(&mut s);
    initiative(&mut s, 0);
    ok(&mut s, Some(0), json!({"type": "regenerate"}));
    assert_eq!(points(&s, 0), 0, "the whole move");
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "b1"}),
    );
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "e4"}),
    );
    assert_eq!(s.seat(0).fighter().body, 8, "three times the book's best 2");
    // Not once a point is spent, and never for a book without it.
    let mut s = yard_state();
    regenerating(&mut s);
    initiative(&mut s, 0);
    ok(&mut s, Some(0), json!({"type": "move", "to": "b1"}));
    refused(
        &mut s,
        Some(0),
        json!({"type": "regenerate"}),
        "lostworlds.movement.regenerate",
    );
    let mut s = yard_state();
    initiative(&mut s, 1);
    refused(
        &mut s,
        Some(1),
        json!({"type": "regenerate"}),
        "lostworlds.movement.regenerate",
    );
    // Ending the phase in an opponent's zone foils it.
    let mut s = yard_state();
    regenerating(&mut s);
    put(&mut s, 1, "c1");
    initiative(&mut s, 0);
    ok(&mut s, Some(0), json!({"type": "regenerate"}));
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "b1"}),
    );
    ok(&mut s, Some(1), json!({"type": "move", "to": "b1"}));
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "c1"}),
    );
    assert_eq!(s.seat(0).fighter().body, 2);
}

#[test]
fn a_wraith_regenerates_off_the_board_and_touches_whoever_ends_on_its_space() {
    let mut s = yard_state();
    wraith(&mut s);
    put(&mut s, 0, "a1");
    put(&mut s, 1, "c1");
    initiative(&mut s, 0);
    // Out of turn, before anyone has stepped: it leaves the board.
    let offered = tabletape_engine::lostworlds::field::decide::legal(&s, Some(1));
    assert!(
        offered
            .iter()
            .any(|l| matches!(l.action, Action::Regenerate { .. })),
        "{offered:?}"
    );
    let facts = ok(&mut s, Some(1), json!({"type": "regenerate"}));
    let line = LostWorlds::narrate(&s, &facts[0]).join(" ");
    assert!(
        line.contains("Brakka fades from c1 to another plane"),
        "{line}"
    );
    assert!(!LostWorlds::render_svg(&s, Viewer::Owner).contains("figure-1"));
    // Its space is open ground now: Nowa walks through and stops on it,
    // with no halt offered (it has no battle zone).
    ok(&mut s, Some(0), json!({"type": "move", "to": "b1"}));
    let facts = ok(&mut s, Some(0), json!({"type": "move", "to": "c1"}));
    assert!(
        !facts.iter().any(|f| matches!(f, Fact::HaltOffered { .. })),
        "{facts:?}"
    );
    let before = s.clone();
    let facts = ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "d1"}),
    );
    // The wraith's own move is gone; it comes back whole and touches Nowa.
    let told: Vec<String> = facts
        .iter()
        .flat_map(|f| LostWorlds::narrate(&before, f))
        .collect();
    let told = told.join(" ");
    assert!(told.contains("its touch finds them"), "{told}");
    assert!(
        told.contains("comes back from the other plane whole"),
        "{told}"
    );
    assert_eq!(s.seat(1).fighter().body, 12, "its starting body points");
    assert_eq!(s.seat(0).fighter().body, 10 - 3, "the touch's damage");
    assert!(turn_words(&s).contains("sets down the touched Nowa"));
    refused(
        &mut s,
        Some(1),
        json!({"type": "place", "to": "e1"}),
        "lostworlds.movement.place",
    );
    ok(&mut s, Some(1), json!({"type": "place", "to": "b1"}));
    assert_eq!(at(&s, 0), "b1");
    assert_eq!(position(&s, 0), Position::Standing, "no drop, no fall");
    assert_eq!(stage(&s), Stage::Combat, "side by side, they fight");
}

#[test]
fn a_wraith_leaves_only_as_the_phase_begins_or_as_its_move_and_never_from_a_zone() {
    let mut s = yard_state();
    wraith(&mut s);
    put(&mut s, 0, "a1");
    put(&mut s, 1, "e1");
    initiative(&mut s, 0);
    ok(&mut s, Some(0), json!({"type": "move", "to": "b1"}));
    refused(
        &mut s,
        Some(1),
        json!({"type": "regenerate"}),
        "lostworlds.movement.regenerate",
    );
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "a1"}),
    );
    // Its own move, untouched: it goes, and the phase ends with it.
    let facts = ok(&mut s, Some(1), json!({"type": "regenerate"}));
    assert!(facts
        .iter()
        .any(|f| matches!(f, Fact::Dematerialized { .. })));
    assert!(
        facts
            .iter()
            .any(|f| matches!(f, Fact::Regenerated { healed: 8, .. })),
        "{facts:?}"
    );
    // Beside an opponent it cannot go.
    let mut s = yard_state();
    wraith(&mut s);
    put(&mut s, 0, "a1");
    put(&mut s, 1, "b1");
    initiative(&mut s, 1);
    refused(
        &mut s,
        Some(1),
        json!({"type": "regenerate"}),
        "lostworlds.movement.regenerate",
    );
}

fn turn_words(s: &State) -> String {
    tabletape_engine::lostworlds::field::decide::stage_words(s)
}

/// Gives seat 0 (Nowa) spell points for the spell tests.
fn with_spell_points(s: &mut State, points: u32) {
    edit_sheet(s, 0, |sheet| {
        sheet.abilities.insert("spell".into(), points);
    });
}

#[test]
fn a_spell_cast_beyond_extended_range_needs_spare_points_and_the_table() {
    let mut s = yard_state();
    with_spell_points(&mut s, 3);
    put(&mut s, 0, "a1");
    put(&mut s, 1, "e1");
    // Cards are taken in on the map, before the first exchange.
    ok(
        &mut s,
        Some(0),
        json!({"type": "select_cards", "cards": ["ember-dart"]}),
    );
    initiative(&mut s, 0);
    // Four spaces: one spell point beyond the dart's two, and 1-4 works.
    refused(
        &mut s,
        Some(0),
        json!({"type": "cast", "card": "ember-dart"}),
        "lostworlds.movement.cast",
    );
    let body = s.seat(1).fighter().body;
    ok(
        &mut s,
        Some(0),
        json!({"type": "cast", "card": "Ember Dart", "target": 1, "roll": 4}),
    );
    assert_eq!(s.seat(1).fighter().body, body - 2);
    assert_eq!(points(&s, 0), 0, "the whole move");
    assert!(s.seat(0).fighter().cards[0].played);
    // Farther off the spare point is not enough; a 5 fizzles at four.
    let mut s = yard_state();
    with_spell_points(&mut s, 3);
    put(&mut s, 0, "a1");
    put(&mut s, 1, "f4");
    ok(
        &mut s,
        Some(0),
        json!({"type": "select_cards", "cards": ["ember-dart"]}),
    );
    initiative(&mut s, 0);
    let m = refused(
        &mut s,
        Some(0),
        json!({"type": "cast", "card": "ember-dart", "target": 1, "roll": 1}),
        "lostworlds.movement.cast",
    );
    assert!(
        m.contains("at 7 spaces") && m.contains("needs 3 spell points") && m.contains("has 1"),
        "{m}"
    );
    let mut s = yard_state();
    with_spell_points(&mut s, 3);
    put(&mut s, 0, "a1");
    put(&mut s, 1, "e1");
    ok(
        &mut s,
        Some(0),
        json!({"type": "select_cards", "cards": ["ember-dart"]}),
    );
    initiative(&mut s, 0);
    let body = s.seat(1).fighter().body;
    let facts = ok(
        &mut s,
        Some(0),
        json!({"type": "cast", "card": "ember-dart", "target": 1, "roll": 5}),
    );
    assert_eq!(s.seat(1).fighter().body, body, "it fizzled");
    let line = LostWorlds::narrate(&s, &facts[0]).join(" ");
    assert!(line.contains("fizzles"), "{line}");
    // Never from an opponent's battle zone.
    let mut s = yard_state();
    with_spell_points(&mut s, 3);
    put(&mut s, 0, "a1");
    put(&mut s, 1, "b1");
    ok(
        &mut s,
        Some(0),
        json!({"type": "select_cards", "cards": ["ember-dart"]}),
    );
    initiative(&mut s, 0);
    refused(
        &mut s,
        Some(0),
        json!({"type": "cast", "card": "ember-dart", "target": 1, "roll": 1}),
        "lostworlds.movement.cast",
    );
}

#[test]
fn magic_point_regeneration_restores_what_casting_spent_two_at_most() {
    let mut s = yard_state();
    with_spell_points(&mut s, 7);
    edit_sheet(&mut s, 0, |sheet| {
        sheet.spell_regeneration = 1;
    });
    put(&mut s, 0, "a1");
    put(&mut s, 1, "f4");
    ok(
        &mut s,
        Some(0),
        json!({"type": "select_cards", "cards": ["ember-dart", "knit-flesh"]}),
    );
    initiative(&mut s, 0);
    // Seven points less the cards' five leaves two: the dart at seven
    // spaces needs three.
    refused(
        &mut s,
        Some(0),
        json!({"type": "cast", "card": "ember-dart", "target": 1, "roll": 1}),
        "lostworlds.movement.cast",
    );
    put(&mut s, 1, "e2");
    // Five spaces: two more points, and they are spent.
    let facts = ok(
        &mut s,
        Some(0),
        json!({"type": "cast", "card": "ember-dart", "target": 1, "roll": 1}),
    );
    let line = LostWorlds::narrate(&s, &facts[0]).join(" ");
    assert!(line.contains("(2 spell points more)"), "{line}");
    assert_eq!(
        tabletape_engine::lostworlds::field::decide::spare_spell_points(&s, 0),
        0
    );
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "b1"}),
    );
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "d2"}),
    );
    assert_eq!(stage(&s), Stage::Initiative, "no one fought, no one fell");
    // Regenerating restores three times the book's one, but 2 at most a
    // turn and no more than was spent.
    initiative(&mut s, 0);
    ok(&mut s, Some(0), json!({"type": "regenerate"}));
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "b1"}),
    );
    let before = s.clone();
    let facts = ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "d2"}),
    );
    assert_eq!(
        tabletape_engine::lostworlds::field::decide::spare_spell_points(&s, 0),
        2
    );
    let regenerated = facts
        .iter()
        .find(|f| matches!(f, Fact::Regenerated { spell: 2, .. }))
        .expect("two spell points restored");
    let line = LostWorlds::narrate(&before, regenerated).join(" ");
    assert!(
        line.ends_with("Nowa regenerates 2 spell points (2 spare)."),
        "{line}"
    );
}

#[test]
fn a_spell_lasting_rounds_ends_outside_every_battle_zone() {
    use tabletape_engine::lostworlds::actions::Played;
    use tabletape_engine::lostworlds::state::Boost;
    let mut s = yard_state();
    let card = s.cards.get("stone-skin").unwrap().clone();
    assert_eq!(card.effect.rounds, 3);
    let played = Played {
        id: card.id.clone(),
        name: card.name.clone(),
        kind: card.kind,
        effect: card.effect.clone(),
        exchange: 1,
        target: None,
    };
    LostWorlds::apply(
        &mut s,
        &Fact::CardPlayed {
            seat: 0,
            member: 0,
            card: played,
        },
    );
    let b: &Boost = &s.seat(0).boosts[0];
    assert!(b.works(1) && b.works(3) && !b.works(4));
    assert!(b.lasts_past(2) && !b.lasts_past(3));
    // Nowa starts a combat phase outside every opponent's zone: it ends.
    put(&mut s, 0, "a1");
    put(&mut s, 1, "f5");
    initiative(&mut s, 0);
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "b1"}),
    );
    assert_eq!(s.seat(0).boosts.len(), 1, "in force until the combat phase");
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "e5"}),
    );
    assert!(s.seat(0).boosts.is_empty(), "{:?}", s.seat(0).boosts);
}
