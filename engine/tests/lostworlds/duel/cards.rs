//! Fantasy cards (rules 3): taken in, played, missiles, targets picked after
//! the pages turn, and face down to the other seats.

use super::*;

fn rule(e: Rejection) -> String {
    e.rule.to_string()
}

/// Ash (luck 2, tactics 5, spell 3) against Bryn, both at close quarters;
/// Bryn's book scores 3 on every page, so Ash's blows always land.
fn carded() -> (Pack, State) {
    let mut pack = mini_pack();
    let ash = &mut pack.characters[0];
    ash.abilities.insert("tactics".into(), 5);
    ash.abilities.insert("spell".into(), 3);
    set_picture(&mut pack, "bryn", 1, |p| p.score = Some(3));
    let mut state = start(&pack, 2, json!({"characters": "ash,bryn"}));
    close_quarters(&mut state);
    (pack, state)
}

#[test]
fn cards_are_taken_in_before_the_first_exchange_within_the_sheets_points() {
    let (_, mut state) = carded();
    let e = take_cards(&mut state, 0, json!(["slip", "fortune"])).unwrap_err();
    assert_eq!(rule(e.clone()), "lostworlds.cards.points");
    assert!(
        e.message
            .contains("luck cards cost 3 points, and the sheet has 2 luck points"),
        "{}",
        e.message
    );
    let e = take_cards(&mut state, 1, json!(["edge"])).unwrap_err();
    assert!(
        e.message.contains("the sheet has 0 tactics points"),
        "{}",
        e.message
    );
    let e = take_cards(&mut state, 0, json!(["axe"])).unwrap_err();
    assert_eq!(rule(e.clone()), "lostworlds.cards.unknown");
    assert!(
        e.message.contains("cards[0]") && e.message.contains("dart, edge, fortune"),
        "{}",
        e.message
    );
    // Items cost nothing and a card may be taken twice; names read in any case.
    take_cards(
        &mut state,
        0,
        json!(["EDGE", "the stance", "fortune", "mail", "mail"]),
    )
    .unwrap();
    let held: Vec<&str> = state.seats[0]
        .fighter()
        .cards
        .iter()
        .map(|h| h.id.as_str())
        .collect();
    assert_eq!(held, ["edge", "stance", "fortune", "mail", "mail"]);
    act(&mut state, None, exchange(&[(0, 36), (1, 26)])).unwrap();
    let e = take_cards(&mut state, 0, json!([])).unwrap_err();
    assert_eq!(rule(e), "lostworlds.cards.late");
}

#[test]
fn luck_once_a_turn_an_item_for_good_and_every_card_once_a_combat() {
    let (_, mut state) = carded();
    take_cards(&mut state, 0, json!(["fortune", "mail"])).unwrap();
    take_cards(&mut state, 1, json!(["slip", "mail"])).unwrap();
    card_play(&mut state, 0, "fortune").unwrap();
    card_play(&mut state, 1, "mail").unwrap();
    card_play(&mut state, 1, "slip").unwrap();
    // Ash's Bash: score 3, Bash +3, height +1, fortune +1, Bryn's mail -1 and slip -2.
    let facts = act(&mut state, None, exchange(&[(0, 36), (1, 26)])).unwrap();
    let blow = resolution(&facts)
        .blows
        .iter()
        .find(|b| b.attacker == 0)
        .unwrap()
        .clone();
    let labels: Vec<(String, i32)> = blow
        .parts
        .iter()
        .map(|p| (p.label.clone(), p.value))
        .collect();
    assert!(labels.contains(&("the fortune".into(), 1)), "{labels:?}");
    assert!(
        labels.contains(&("Bryn's the mail".into(), -1)),
        "{labels:?}"
    );
    assert!(
        labels.contains(&("Bryn's the slip".into(), -2)),
        "{labels:?}"
    );
    assert_eq!(blow.total, 5);
    assert_eq!(state.seats[1].fighter().body, 3);
    // Next exchange: the luck is spent, Bryn's mail still holds.
    let facts = act(&mut state, None, exchange(&[(0, 36), (1, 26)])).unwrap();
    let blow = resolution(&facts)
        .blows
        .iter()
        .find(|b| b.attacker == 0)
        .unwrap()
        .clone();
    assert_eq!(blow.total, 6, "{:?}", blow.parts);
    // Each card once a combat; luck once a turn.
    let (_, mut state) = carded();
    take_cards(&mut state, 0, json!(["fortune", "slip"])).unwrap_err();
    let (_, mut state) = carded();
    state.seats[0].party[0].sheet = std::sync::Arc::new(Character {
        abilities: BTreeMap::from([("luck".to_string(), 3)]),
        ..(*state.seats[0].party[0].sheet).clone()
    });
    take_cards(&mut state, 0, json!(["fortune", "slip"])).unwrap();
    card_play(&mut state, 0, "fortune").unwrap();
    let e = card_play(&mut state, 0, "slip").unwrap_err();
    assert!(e.message.contains("one a turn"), "{}", e.message);
    let e = card_play(&mut state, 0, "fortune").unwrap_err();
    assert_eq!(rule(e), "lostworlds.cards.played");
    act(&mut state, None, exchange(&[(0, 26), (1, 26)])).unwrap();
    card_play(&mut state, 0, "slip").unwrap();
}

#[test]
fn a_tactic_or_spell_is_revealed_when_a_picture_directs_it_and_heals_at_once() {
    let (_, mut state) = carded();
    take_cards(&mut state, 0, json!(["edge", "stance", "mend"])).unwrap();
    let e = card_play(&mut state, 0, "edge").unwrap_err();
    assert_eq!(rule(e.clone()), "lostworlds.cards.closed");
    assert!(
        e.message
            .contains("no picture directs Ash to reveal a tactic card"),
        "{}",
        e.message
    );
    assert!(decide::legal(&state, Some(0))
        .iter()
        .all(|l| !matches!(l.action, Action::PlayCard { .. })));
    // Bryn sees Ash on a picture that directs a tactic.
    state.seats[1].sights.get_mut(&0).unwrap().reveal = Some(CardKind::Tactic);
    let open: Vec<String> = decide::legal(&state, Some(0))
        .iter()
        .filter_map(|l| match &l.action {
            Action::PlayCard { card, .. } => Some(card.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(open, ["edge", "stance"], "tactics only, the spell waits");
    card_play(&mut state, 0, "edge").unwrap();
    let e = card_play(&mut state, 0, "stance").unwrap_err();
    assert!(e.message.contains("already"), "{}", e.message);
    act(&mut state, None, exchange(&[(0, 26), (1, 26)])).unwrap();
    state.seats[1].sights.get_mut(&0).unwrap().reveal = Some(CardKind::Spell);
    state.seats[0].party[0].body = 4;
    let told = narration_of(
        &mut state,
        Some(0),
        json!({"type": "play_card", "card": "mend"}),
    );
    assert_eq!(state.seats[0].fighter().body, 7);
    assert!(
        told.contains("Ash reveals the mend, a spell card: 3 body points back."),
        "{told}"
    );
}

fn card_play(state: &mut State, seat: u32, card: &str) -> Result<Vec<Fact>, Rejection> {
    act(
        state,
        Some(seat),
        json!({"type": "play_card", "card": card}),
    )
}

fn take_cards(state: &mut State, seat: u32, cards: Value) -> Result<Vec<Fact>, Rejection> {
    act(
        state,
        Some(seat),
        json!({"type": "select_cards", "cards": cards}),
    )
}

fn narration_of(state: &mut State, by: Option<u32>, action: Value) -> String {
    let action: Action = serde_json::from_value(action).unwrap();
    let facts = decide::decide(state, by, &action, &mut no_dice()).unwrap();
    crate::testkit::told::<LostWorlds>(state, &facts).join("\n")
}

#[test]
fn a_party_member_fires_a_missile_card_that_lands_as_the_pages_turn() {
    let mut pack = mini_pack();
    pack.characters[1].abilities.insert("spell".into(), 2);
    let mut state = start(&pack, 2, json!({"characters": "ash+bryn,ash"}));
    close_quarters(&mut state);
    act(
        &mut state,
        Some(0),
        json!({"type": "select_cards", "member": "bryn", "cards": ["sling", "dart"]}),
    )
    .unwrap();
    state.seats[1].sights.get_mut(&0).unwrap().party = Some(PartyMark::Missile);
    let offered: Vec<Option<String>> = decide::legal(&state, Some(0))
        .iter()
        .filter_map(|l| match &l.action {
            Action::FireMissile { card, .. } => Some(card.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        offered,
        [Some("sling".to_string()), Some("dart".to_string())]
    );
    let e = act(
        &mut state,
        Some(0),
        json!({"type": "fire_missile", "member": "bryn", "what": "a stone"}),
    )
    .unwrap_err();
    assert!(
        e.message.contains("name the spell or missile card"),
        "{}",
        e.message
    );
    let told = narration_of(
        &mut state,
        Some(0),
        json!({"type": "fire_missile", "member": "bryn", "card": "sling"}),
    );
    assert!(
        told.contains("Bryn looses the sling past Ash (player0): 2 damage to Ash (player1) as the next pages turn"),
        "{told}"
    );
    let facts = act(&mut state, None, exchange(&[(0, 26), (1, 26)])).unwrap();
    let r = resolution(&facts);
    assert_eq!(r.strikes.len(), 1);
    assert_eq!((r.strikes[0].defender, r.strikes[0].damage), (1, 2));
    assert_eq!(
        state.seats[1].fighter().body,
        8,
        "no score, yet the missile hurt"
    );
    assert!(state.seats[0].strikes.is_empty(), "spent");
    state.seats[1].sights.get_mut(&0).unwrap().party = Some(PartyMark::Missile);
    let e = act(
        &mut state,
        Some(0),
        json!({"type": "fire_missile", "member": "bryn", "card": "sling"}),
    )
    .unwrap_err();
    assert_eq!(rule(e), "lostworlds.cards.played");
}

#[test]
fn a_fighter_scoring_on_more_opponents_than_its_attacks_picks_after_the_pages_turn() {
    let mut pack = mini_pack();
    set_picture(&mut pack, "bryn", 1, |p| p.score = Some(3));
    let mut state = start(&pack, 3, json!({"characters": "ash,bryn,bryn"}));
    close_quarters(&mut state);
    for seat in [1, 2] {
        act(
            &mut state,
            Some(seat),
            json!({"type": "choose", "page": 26}),
        )
        .unwrap();
    }
    let facts = act(&mut state, Some(0), json!({"type": "choose", "page": 36})).unwrap();
    assert!(
        matches!(&facts[1], Fact::TargetsAwaited { seat: 0, scored, attacks: 1 } if scored == &[1, 2]),
        "{facts:?}"
    );
    assert_eq!(decide::to_move(&state), [0]);
    let picks: Vec<Value> = decide::legal(&state, None)
        .iter()
        .map(|l| serde_json::to_value(&l.action).unwrap())
        .collect();
    assert_eq!(
        picks,
        [
            json!({"type": "pick_targets", "seat": 0, "targets": [1]}),
            json!({"type": "pick_targets", "seat": 0, "targets": [2]})
        ]
    );
    let e = act(&mut state, Some(1), json!({"type": "escape"})).unwrap_err();
    assert_eq!(rule(e), "lostworlds.targets.awaited");
    let e = act(
        &mut state,
        Some(0),
        json!({"type": "pick_targets", "targets": [1, 2]}),
    )
    .unwrap_err();
    assert!(e.message.contains("hits 1 of"), "{}", e.message);
    let facts = act(
        &mut state,
        Some(0),
        json!({"type": "pick_targets", "targets": [2]}),
    )
    .unwrap();
    let r = resolution(&facts);
    let landed: Vec<u32> = r
        .blows
        .iter()
        .filter(|b| b.attacker == 0 && b.landed)
        .map(|b| b.defender)
        .collect();
    assert_eq!(landed, [2]);
    assert_eq!(state.seats[1].fighter().body, 8);
    assert!(state.seats[2].fighter().body < 8);
    assert!(state.awaiting.is_none());
}

#[test]
fn another_seats_cards_are_face_down_until_played() {
    let (_, mut state) = carded();
    let facts = take_cards(&mut state, 0, json!(["edge", "mail"])).unwrap();
    let cx = tabletape_engine::rules::Context {
        by: Some(0),
        seq: 2,
        state: &state,
    };
    let theirs = LostWorlds::redact(&facts[0], Viewer::Seat(1), &cx);
    assert_eq!(
        theirs,
        Fact::CardsSelected {
            seat: 0,
            member: 0,
            cards: vec![],
            count: 2
        }
    );
    assert_eq!(
        LostWorlds::redact(&facts[0], Viewer::Seat(0), &cx),
        facts[0]
    );
    let told = LostWorlds::narrate(&state, &theirs).join(" ");
    assert!(
        told.ends_with(" Ash takes 2 fantasy cards into the fight, face down."),
        "{told}"
    );
    let action: Action =
        serde_json::from_value(json!({"type": "select_cards", "cards": ["edge", "mail"]})).unwrap();
    let shown =
        serde_json::to_string(&LostWorlds::redact_action(&action, Viewer::Seat(1), &cx)).unwrap();
    assert!(!shown.contains("edge"), "{shown}");
    card_play(&mut state, 0, "mail").unwrap();
    for viewer in [Viewer::Seat(1), Viewer::Public] {
        let view = LostWorlds::view(&state, viewer);
        let ash = &view["seats"][0]["party"][0];
        assert_eq!(
            ash["cards"],
            json!([{"id": "mail", "played": true}]),
            "{view}"
        );
        assert_eq!(ash["face_down"], 1);
        assert!(
            !view.to_string().contains("\"edge\":"),
            "the pack's cards are listed by id only"
        );
        let svg = LostWorlds::render_svg(&state, viewer);
        assert!(
            svg.contains("Cards: 1 face down; played: the mail") && !svg.contains("the edge"),
            "{svg}"
        );
        let text = LostWorlds::render(&state, viewer);
        assert!(
            text.contains("cards: 1 face down; played: the mail") && !text.contains("edge"),
            "{text}"
        );
    }
    assert_eq!(
        LostWorlds::view(&state, Viewer::Seat(0))["seats"][0]["party"][0]["cards"][0]["id"],
        "edge"
    );
}
