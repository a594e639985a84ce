//! Victory, and random scenarios played to their end.

use super::*;

/// Nowa steps onto the Guard's goal and both end their moves: the end.
fn reach_the_goal(s: &mut State) -> Vec<Fact> {
    put(s, 0, "e1");
    initiative(s, 0);
    ok(s, Some(0), json!({"type": "move", "to": "f1"}));
    ok(s, Some(0), json!({"type": "end_move", "undefended": "e1"}));
    ok(s, Some(1), json!({"type": "end_move", "undefended": "e4"}))
}

#[test]
fn reaching_the_goal_wins_and_the_victory_points_are_experience() {
    let mut s = yard_state();
    let facts = reach_the_goal(&mut s);
    let Some(Fact::FightEnded { outcome, awards }) = facts.last() else {
        panic!("{facts:?}")
    };
    assert_eq!(outcome.ending, Ending::Victory);
    assert_eq!(outcome.victors, vec![0]);
    assert_eq!(awards[0].victory, 21, "the lone survivor takes every point");
    assert_eq!(stage(&s), Stage::Ended);
    let story = narration::ending_line(&s, outcome.ending, &outcome.victors);
    assert_eq!(story, "The scenario goes to Guard: Nowa.");
}

#[test]
fn random_legal_scenarios_end() {
    let pack = pack_with(None);
    let seed = std::env::var("TABLETAPE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_u64);
    let mut fought = 0;
    for i in 0..6u64 {
        for id in ["well-house", "stair-tower"] {
            let s = seed.wrapping_add(i * 7919) | 1;
            let state = play(&pack, id, i % 2 == 1, s, &mut Default::default());
            assert!(state.outcome.is_some(), "{id} seed {s}");
            fought += usize::from(state.exchanges > 0);
        }
    }
    assert!(
        fought >= 3,
        "random scenarios come to blows: {fought} of 12"
    );
}

/// The samples with the rarer abilities: Brakka a wraith, Nowa a
/// regenerating magic user with spells.
#[test]
fn random_scenarios_with_wraiths_and_regenerating_magic_users_end() {
    let mut pack = pack_with(None);
    for c in &mut pack.characters {
        if c.id == "brakka" {
            c.dematerializes = true;
            c.undead = true;
            c.touch_damage = 2;
        } else {
            c.regeneration = 1;
            c.spell_regeneration = 1;
            c.abilities.insert("spell".into(), 6);
        }
    }
    let seed = std::env::var("TABLETAPE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_u64);
    let mut seen = std::collections::BTreeSet::new();
    for i in 0..6u64 {
        for id in ["well-house", "stair-tower"] {
            let s = seed.wrapping_add(i * 104_729) | 1;
            let state = play(&pack, id, i % 2 == 0, s, &mut seen);
            assert!(state.outcome.is_some(), "{id} seed {s}");
            let f = state.field.as_ref().unwrap();
            assert!(
                f.pieces.iter().all(|p| !p.done.dematerialized),
                "{id} seed {s}: no one is left on another plane"
            );
        }
    }
    for fact in ["Dematerialized", "Regenerated"] {
        assert!(seen.contains(fact), "random play reached {fact}: {seen:?}");
    }
}

#[test]
fn an_opponent_who_falls_twice_is_defeated_once() {
    // Brakka fell to Nowa, came to, and fell to her again.
    let fall = tabletape_engine::lostworlds::actions::Fall {
        seat: 1,
        member: 0,
        body: 0,
        condition: tabletape_engine::lostworlds::actions::Condition::Unconscious,
        max_body: 12,
        victors: vec![(0, 0)],
    };
    let points = |rules: u32| {
        let mut s = yard_state();
        s.rules = rules;
        s.falls = vec![fall.clone(), fall.clone()];
        let facts = reach_the_goal(&mut s);
        let Some(Fact::FightEnded { awards, .. }) = facts.last() else {
            panic!("{facts:?}")
        };
        awards[0].points
    };
    assert_eq!(points(5), 12);
    assert_eq!(points(4), 24, "rules 4 counted every fall");
}
