//! The story phase: characters moving, detours, Plot cards left behind,
//! Allies, and the end of the chapter.

use super::*;

#[test]
fn characters_move_by_number_arrow_or_wander_the_streets() {
    let mut t = started(4);
    story_with(
        &mut t,
        &[
            (0, 1, json!({"number": 2})),
            (0, 2, json!({"number": 5, "arrow": "north"})),
            (0, 3, json!({"number": 6})),
        ],
    );
    t.act(json!({"type": "next_action"}));
    let s = t.state();
    assert_eq!(s.characters[0].place.to_string(), "west 2");
    assert_eq!(s.characters[1].place.to_string(), "west streets");
    t.act(json!({"type": "next_action"}));
    assert_eq!(t.state().characters[0].place.to_string(), "north streets");
    t.act(json!({"type": "next_action"}));
    assert_eq!(t.state().characters[0].place.to_string(), "north 6");
    t.act(json!({"type": "next_action"}));
    assert_eq!(t.state().characters[0].place.to_string(), "north streets");
}

#[test]
fn a_detour_turns_an_arrow_still_to_come_for_one_dread() {
    let mut t = started(13);
    story_with(
        &mut t,
        &[
            (0, 1, json!({"number": 2})),
            (0, 3, json!({"number": 5, "arrow": "north"})),
        ],
    );
    let r = t.refused(
        None,
        json!({"type": "detour", "character": 0, "slot": 1, "toward": "east"}),
    );
    assert_eq!(r.rule, "dread.detour", "a number stays a number");
    t.act(json!({"type": "detour", "character": 0, "slot": 3, "toward": "east"}));
    assert_eq!(t.state().dread, 1);
    t.act(json!({"type": "next_action"}));
    t.act(json!({"type": "next_action"}));
    let r = t.refused(
        None,
        json!({"type": "detour", "character": 0, "slot": 2, "toward": "south"}),
    );
    assert_eq!(r.rule, "dread.detour", "slot 2 has passed");
    t.act(json!({"type": "next_action"}));
    assert_eq!(t.state().characters[0].place.to_string(), "east streets");
}

#[test]
fn a_plot_card_left_through_a_segment_raises_its_dread() {
    let mut t = started(14);
    let p = dealt(&t.state(), &down_placeholder);
    t.act(json!({"type": "reveal", "location": p.to_string()}));
    let value = t.state().plot('A').unwrap().dread;
    t.act(json!({"type": "begin_story", "leader": 0}));
    let mut rose = Vec::new();
    for _ in 0..5 {
        for f in t.act(json!({"type": "next_action"})) {
            if let Fact::DreadRose { by, why } = f {
                rose.push((by, why));
            }
        }
    }
    assert_eq!(rose.len(), 1, "{rose:?}");
    assert_eq!(rose[0].0, value);
    assert!(
        rose[0].1.contains("missed through the Morning"),
        "{}",
        rose[0].1
    );
}

#[test]
fn allies_join_up_to_the_most_a_character_may_keep() {
    let mut t = Table::new(created(2, 15, DiceMode::Digital, &[]));
    let s = t.state();
    assert_eq!((s.allies_dealt, s.most_challenges), (9, 6));
    let allies: Vec<Place> = (0..24)
        .map(Place::of_index)
        .filter(|p| {
            matches!(
                s.locations[p.index().unwrap()],
                Spot::Down {
                    card: Some(tabletape_engine::dread::state::Card::Ally(_))
                }
            )
        })
        .collect();
    assert_eq!(allies.len(), 9);
    t.act(json!({"type": "start_planning"}));
    // Park every character on a card that is not an Ally, then move the
    // ally-finder through four Allies of one area, or as many as there are.
    let area = allies[0].area;
    let here: Vec<Place> = allies.iter().copied().filter(|p| p.area == area).collect();
    for p in &here {
        t.act(json!({"type": "reveal", "location": p.to_string()}));
    }
    let mut plans = vec![];
    if area != tabletape_engine::dread::state::Area::West {
        plans.push((
            0,
            1u8,
            json!({"number": 1, "arrow": format!("{area:?}").to_lowercase()}),
        ));
    }
    for (k, p) in here.iter().enumerate() {
        plans.push((0, 2 + k as u8, json!({"number": p.spot})));
    }
    story_with(&mut t, &plans);
    t.act(json!({"type": "next_action"}));
    for p in &here {
        t.act(json!({"type": "next_action"}));
        let kept = t.state().characters[0].allies.len();
        if kept < 3 {
            t.act(json!({"type": "recruit", "character": 0, "location": p.to_string()}));
            assert_eq!(t.state().characters[0].allies.len(), kept + 1);
        } else {
            let r = t.refused(
                None,
                json!({"type": "recruit", "character": 0, "location": p.to_string()}),
            );
            assert_eq!(r.rule, "dread.allies");
        }
    }
}

#[test]
fn the_chapter_ends_counting_face_down_cards_face_up_dread_and_stash_tokens() {
    let mut t = started(10);
    let p = dealt(&t.state(), &down_dread);
    t.act(json!({"type": "reveal", "location": p.to_string()}));
    let Some(Face::Dread(card)) = t.state().face_at(p).cloned() else {
        panic!()
    };
    let value = t.state().cards.dread[&card].dread;
    t.act(json!({"type": "place", "character": 2, "slot": 1, "number": 3}));
    t.act(json!({"type": "place", "character": 2, "slot": 2, "number": 3}));
    t.act(json!({"type": "place", "character": 2, "slot": 3, "number": 3, "stash": true}));
    t.act(json!({"type": "begin_story", "leader": 1}));
    let mut facts = Vec::new();
    while !t.game.is_over() && t.state().chapter == 0 && !t.state().in_endgame() {
        facts.extend(t.act(json!({"type": "next_action"})));
    }
    let rose: Vec<(u32, String)> = facts
        .iter()
        .filter_map(|f| match f {
            Fact::DreadRose { by, why } => Some((*by, why.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(rose[0], (2 * 23, "23 cards never turned".to_string()));
    assert_eq!(rose[1].0, value);
    assert_eq!(rose[2], (1, "1 token taken from the stash".to_string()));
    // 46 + value + 1 is under 51 only for a small card; either way the
    // untouched last Plot card loses the game.
    let s = t.state();
    let o = s.outcome.unwrap();
    assert!(!o.won);
    if s.dread <= DREAD_LIMIT {
        assert!(o.why.contains("trail runs cold"), "{}", o.why);
    } else {
        assert!(o.why.contains("passed 50"), "{}", o.why);
    }
}

#[test]
fn a_later_plot_waits_on_an_earlier_one_and_raises_no_dread_meanwhile() {
    let mut t = started(14);
    for _ in 0..2 {
        let p = dealt(&t.state(), &down_placeholder);
        t.act(json!({"type": "reveal", "location": p.to_string()}));
    }
    let s = t.state();
    let (a, b) = (s.plot('A').unwrap(), s.plot('B').unwrap());
    assert_eq!((a.time.word(), b.time.word()), ("Morning", "Morning"));
    let mut rules_1 = t.state().clone();
    rules_1.rules = 1;
    let mut old = Table {
        game: testkit::restored(&created(4, 14, DiceMode::Digital, &[]), &rules_1),
        events: Vec::new(),
        now: t.now,
    };
    let rose = |t: &mut Table| {
        t.act(json!({"type": "begin_story", "leader": 0}));
        let mut rose = Vec::new();
        for _ in 0..5 {
            for f in t.act(json!({"type": "next_action"})) {
                if let Fact::DreadRose { why, .. } = f {
                    rose.push(why);
                }
            }
        }
        rose
    };
    // Plot B could not be investigated before Plot A: only A is missed.
    let now = rose(&mut t);
    assert_eq!(now.len(), 1, "{now:?}");
    assert!(now[0].starts_with("Plot A"), "{now:?}");
    // Rules 1 raised both.
    assert_eq!(rose(&mut old).len(), 2);
}
