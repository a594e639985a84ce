//! The exchange: damage and its sum, falls and criticals, escapes, several
//! opponents and parties, and random duels played to their end.

use super::*;

#[test]
fn damage_adds_score_modifier_height_and_bonus() {
    let mut pack = mini_pack();
    // Ash (taller) bashes on page 36 while Bryn blocks on page 26: picture 23, score 4.
    route(&mut pack, "bryn", 36, 26, 23);
    set_picture(&mut pack, "bryn", 23, |p| {
        p.score = Some(4);
        p.title = "Ash's blow lands".into();
        p.tell = "Do no Red next turn".into();
    });
    let mut state = start(&pack, 2, json!({"characters": "ash,bryn"}));
    close_quarters(&mut state);
    tell(
        &mut state,
        0,
        1,
        "Add +2 to any Orange that scores next turn",
    );
    let facts = act(&mut state, None, exchange(&[(0, 36), (1, 26)])).unwrap();
    let r = resolution(&facts);
    let b = r.blows.iter().find(|b| b.attacker == 0).unwrap();
    assert_eq!(b.total, 4 + 3 + 1 + 2);
    assert_eq!(
        narration::sum(&b.parts, b.total),
        "score 4 + Down Swing Bash +3 + height +1 + bonus +2 = 10"
    );
    assert_eq!(state.seats[1].fighter().body, 8 - 10);
    assert_eq!(state.seats[1].fighter().condition, Condition::Unconscious);
    // The tell now binds Bryn.
    assert_eq!(
        state.seats[1].orders.next_turn[0].text,
        "Do no Red next turn"
    );
    // The shorter fighter loses 1 on Orange only.
    let ash = &pack.characters[0];
    let bryn = &pack.characters[1];
    assert_eq!(decide::height_adjustment(bryn, ash, Colour::Orange), -1);
    assert_eq!(decide::height_adjustment(bryn, ash, Colour::Red), 0);
    assert_eq!(decide::height_adjustment(ash, bryn, Colour::Red), 1);
    assert_eq!(decide::height_adjustment(ash, bryn, Colour::Black), 0);
}

#[test]
fn low_totals_do_no_damage_and_penalties_accumulate() {
    let mut pack = mini_pack();
    route(&mut pack, "bryn", 20, 26, 23);
    set_picture(&mut pack, "bryn", 23, |p| p.score = Some(2));
    let mut state = start(&pack, 2, json!({"characters": "ash,bryn"}));
    close_quarters(&mut state);
    tell(
        &mut state,
        0,
        1,
        "Subtract 2 from all scores, cumulative (except Kick) for the rest of the combat",
    );
    tell(
        &mut state,
        0,
        1,
        "Subtract 2 from all scores, cumulative (except Kick) for the rest of the combat",
    );
    let facts = act(&mut state, None, exchange(&[(0, 20), (1, 26)])).unwrap();
    let b = &resolution(&facts).blows[0];
    assert_eq!(b.total, 2 - 5 - 4);
    assert_eq!(b.damage, 0);
    assert_eq!(state.seats[1].fighter().body, 8);
}

#[test]
fn unconscious_at_zero_dead_at_minus_five_and_criticals_bind_the_hurt() {
    for (score, body, condition) in [(4, 0, Condition::Unconscious), (9, -5, Condition::Dead)] {
        let mut pack = mini_pack();
        route(&mut pack, "bryn", 10, 26, 23);
        set_picture(&mut pack, "bryn", 23, |p| {
            p.score = Some(score);
            p.critical = Some(Critical {
                threshold: 6,
                restriction: "Do no Orange for the rest of the combat".into(),
            });
        });
        let mut state = start(&pack, 2, json!({"characters": "ash,bryn"}));
        close_quarters(&mut state);
        // Side Swing High: score + 0 + height 1.
        state.seats[1].party[0].body = body + score + 1;
        let facts = act(&mut state, None, exchange(&[(0, 10), (1, 26)])).unwrap();
        let r = resolution(&facts);
        assert_eq!(r.falls[0].condition, condition);
        assert_eq!(state.seats[1].fighter().body, body);
        let crit = r.blows[0].critical.is_some();
        assert_eq!(
            crit,
            score + 1 >= 6,
            "critical when the total reaches the threshold"
        );
        if crit {
            assert_eq!(
                state.seats[1].orders.lasting[0].text,
                "Do no Orange for the rest of the combat"
            );
        }
        match facts.last() {
            Some(Fact::FightEnded { outcome, awards }) => {
                assert_eq!(outcome.ending, Ending::Knockout);
                assert_eq!(outcome.victors, vec![0]);
                assert_eq!(awards[0].points, 8, "Bryn's maximum body points");
            }
            other => panic!("the fight should end, got {other:?}"),
        }
        assert_eq!(state.phase, Phase::Aftermath);
    }
}

#[test]
fn escape_takes_three_steps() {
    let mut state = start(&mini_pack(), 2, json!({"characters": "ash,bryn"}));
    // The opening picture is at extended range, but no one maneuvered there.
    let e = act(&mut state, Some(0), json!({"type": "escape"})).unwrap_err();
    assert_eq!(e.rule, "lostworlds.escape");
    assert!(
        e.message.contains("has not maneuvered out"),
        "{}",
        e.message
    );
    assert!(!LostWorlds::legal(&state, Some(0))
        .iter()
        .any(|l| matches!(l.action, Action::Escape { .. })));
    // Close range: no escape.
    let mut close = state.clone();
    close_quarters(&mut close);
    assert_eq!(
        act(&mut close, Some(0), json!({"type": "escape"}))
            .unwrap_err()
            .rule,
        "lostworlds.escape"
    );
    // Step 1 done (out to extended range): announce, then stay out unscored.
    let mut state = withdrawn();
    assert!(LostWorlds::legal(&state, Some(0))
        .iter()
        .any(|l| matches!(l.action, Action::Escape { .. })));
    act(&mut state, Some(0), json!({"type": "escape"})).unwrap();
    assert!(state.seats[0].escaping);
    let facts = act(&mut state, None, exchange(&[(0, 52), (1, 52)])).unwrap();
    assert_eq!(resolution(&facts).escaped, vec![0]);
    match facts.last() {
        Some(Fact::FightEnded { outcome, .. }) => assert_eq!(outcome.ending, Ending::Escape),
        other => panic!("expected the end, got {other:?}"),
    }
    // Scored upon: the escape fails.
    let mut state = withdrawn();
    act(&mut state, Some(0), json!({"type": "escape"})).unwrap();
    let mut pack = mini_pack();
    set_picture(&mut pack, "bryn", 1, |p| p.range = Range::Extended);
    set_picture(&mut pack, "ash", 1, |p| {
        p.range = Range::Extended;
        p.score = Some(1)
    });
    use_books(&mut state, &pack);
    let facts = act(&mut state, None, exchange(&[(0, 52), (1, 52)])).unwrap();
    assert_eq!(resolution(&facts).escapes_failed, vec![0]);
    assert!(!state.seats[0].escaping);
}

#[test]
fn one_against_two_obeys_all_orders_uses_x_and_limits_attacks() {
    let mut pack = mini_pack();
    // Ash's Bash scores on both Bryns.
    route(&mut pack, "bryn", 36, 26, 23);
    route(&mut pack, "bryn", 50, 26, 25);
    set_picture(&mut pack, "bryn", 23, |p| p.score = Some(3));
    set_picture(&mut pack, "bryn", 25, |p| p.score = Some(1));
    let mut state = start(&pack, 3, json!({"characters": "ash,bryn,bryn"}));
    close_quarters(&mut state);
    // Most restrictive: every order at once.
    tell(&mut state, 0, 1, "Do no Red next turn");
    tell(&mut state, 0, 2, "Do only Red, Orange or Green next turn");
    let open: Vec<String> = choices(&state, 0)
        .open
        .iter()
        .map(|&i| state.seats[0].fighter().sheet.maneuvers[i].full_name())
        .collect();
    assert_eq!(open, vec!["Down Swing Bash", "Block High"]);
    // Opponents at both ranges: close maneuvers only; X page against the far one.
    state.seats[0].orders = Orders::default();
    state.seats[0].sights.get_mut(&2).unwrap().range = Range::Extended;
    tell(&mut state, 0, 2, "Do only Extended Range next turn");
    let c = choices(&state, 0);
    assert!(c.mixed);
    assert!(c
        .open
        .iter()
        .all(|&i| !state.seats[0].fighter().sheet.maneuvers[i].is_extended()));
    assert_eq!(
        act(
            &mut state.clone(),
            None,
            exchange(&[(0, 50), (1, 26), (2, 26)])
        )
        .unwrap_err()
        .rule,
        "lostworlds.multi_range"
    );
    let facts = act(&mut state, None, json!({"type": "exchange", "maneuvers": [
        {"seat": 0, "page": 36, "targets": [2]}, {"seat": 1, "page": 26}, {"seat": 2, "page": 26}]}))
    .unwrap();
    let r = resolution(&facts);
    let far = r
        .blows
        .iter()
        .find(|b| b.attacker == 0 && b.defender == 2)
        .unwrap();
    assert!(far.x_column);
    assert_eq!((far.page, far.picture), (50, 25));
    // Ash has one attack: both scores show, only the chosen target is hit.
    assert!(far.landed);
    let near = r
        .blows
        .iter()
        .find(|b| b.attacker == 0 && b.defender == 1)
        .unwrap();
    assert!(!near.landed && near.score == Some(3));
    assert_eq!(state.seats[1].fighter().body, 8);
    assert_eq!(state.seats[2].fighter().body, 8 - (1 + 3 + 1));
}

#[test]
fn two_attacks_only_with_starred_maneuvers() {
    let bryn = sheet("bryn", "Bryn", 4, 8, 2);
    assert_eq!(
        bryn.attacks_with(&bryn.maneuvers[1]),
        2,
        "Side Swing High is starred"
    );
    assert_eq!(bryn.attacks_with(&bryn.maneuvers[0]), 1);
}

#[test]
fn a_party_member_steps_in_on_a_p_picture() {
    let mut state = start(
        &mini_pack(),
        2,
        json!({"seat0": "ash+bryn", "seat1": "bryn"}),
    );
    close_quarters(&mut state);
    let e = act(
        &mut state,
        Some(0),
        json!({"type": "step_in", "member": "bryn"}),
    )
    .unwrap_err();
    assert_eq!(e.rule, "lostworlds.party");
    state.seats[1].sights.get_mut(&0).unwrap().party = Some(PartyMark::StepIn);
    act(
        &mut state,
        Some(0),
        json!({"type": "step_in", "member": "bryn"}),
    )
    .unwrap();
    assert_eq!(state.seats[0].name(), "Bryn");
    assert!(
        act(
            &mut state,
            Some(0),
            json!({"type": "step_in", "member": "ash"})
        )
        .is_err(),
        "once per exchange"
    );
    state.seats[1].sights.get_mut(&0).unwrap().party = Some(PartyMark::Missile);
    state.seats[0].party_turn = None;
    act(
        &mut state,
        Some(0),
        json!({"type": "select_cards", "member": "ash", "cards": ["sling"]}),
    )
    .unwrap();
    let facts = act(
        &mut state,
        Some(0),
        json!({"type": "fire_missile", "member": "ash", "card": "sling"}),
    )
    .unwrap();
    assert!(matches!(facts[0], Fact::MissileFired { .. }));
    assert_eq!(
        state.seats[0].name(),
        "Bryn",
        "a missile changes nobody's place"
    );
}

#[test]
fn random_legal_duels_end() {
    let pack: Pack = serde_json::from_value(LostWorlds::default_pack()).unwrap();
    let seed = std::env::var("TABLETAPE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_u64);
    let mut knockouts = 0;
    for i in 0..12u64 {
        let s = seed.wrapping_add(i * 7919) | 1;
        let state = play(&pack, 2, json!({}), s);
        knockouts += usize::from(
            state
                .outcome
                .as_ref()
                .is_some_and(|o| o.ending == Ending::Knockout),
        );
        assert!(state.outcome.is_some(), "seed {s}");
        assert!(state.exchanges <= 200, "seed {s}");
        // And one against two, with a party on seat 1.
        let state = play(
            &pack,
            3,
            json!({"seat1": "brakka+nowa", "seat2": "brakka"}),
            s,
        );
        assert!(state.outcome.is_some(), "seed {s}");
        assert!(!narration::render(&state, Viewer::Owner).is_empty());
    }
    assert!(
        knockouts >= 4,
        "random duels mostly end by knockout, got {knockouts} of 12"
    );
}

#[test]
fn every_critical_of_the_sample_books_can_land_and_random_duels_land_them() {
    let pack: Pack = serde_json::from_value(LostWorlds::default_pack()).unwrap();
    let mut landed: BTreeMap<(String, u32), usize> = BTreeMap::new();
    for i in 0..300u64 {
        let mut seed = 0x0c21_u64.wrapping_add(i * 7919) | 1;
        let mut state = start(&pack, 2, json!({}));
        while !LostWorlds::is_over(&state) {
            let legal: Vec<_> = LostWorlds::legal(&state, None)
                .into_iter()
                .filter(|l| l.needs.is_empty() && !matches!(l.action, Action::Escape { .. }))
                .collect();
            let pick = &legal[(next(&mut seed) % legal.len() as u64) as usize].action;
            for f in decide::decide(&state, None, pick, &mut no_dice()).unwrap() {
                if let Fact::ExchangeResolved(r) = &f {
                    for b in r.blows.iter().filter(|b| b.critical.is_some()) {
                        let book = state.seats[b.defender as usize].fighter().sheet.id.clone();
                        *landed.entry((book, b.picture)).or_default() += 1;
                    }
                }
                LostWorlds::apply(&mut state, &f);
            }
        }
    }
    let bursts: Vec<(String, u32)> = pack
        .books
        .iter()
        .flat_map(|b| {
            b.pictures
                .iter()
                .filter(|(_, p)| p.critical.is_some())
                .map(|(&n, _)| (b.character.clone(), n))
        })
        .collect();
    assert_eq!(bursts.len(), 8, "four bursts in each sample book");
    for burst in &bursts {
        assert!(
            landed.contains_key(burst),
            "{burst:?} never landed: {landed:?}"
        );
    }
}
