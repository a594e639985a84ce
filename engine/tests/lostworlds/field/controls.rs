//! A table with fewer players than figures: option `controls` gives a
//! player several figures. The player acts for each of them, sees what
//! each keeps to itself, and acts for no other.

use super::*;
use tabletape_engine::rng::TableRng;
use tabletape_engine::rules::Context;

/// The stair tower (Nowa against two Brakkas of the Tower Watch) for two
/// players: Ada plays the climber, Bo the whole watch.
fn two_players(dice: DiceMode) -> State {
    setup_with(&["Ada", "Bo"], json!("0,1,1"), dice).unwrap()
}

fn setup_with(players: &[&str], controls: Value, dice: DiceMode) -> Result<State, Rejection> {
    let pack = pack_with(None);
    let players: Vec<String> = players.iter().map(|s| s.to_string()).collect();
    let options =
        serde_json::from_value(json!({ "scenario": "stair-tower", "controls": controls }))
            .map_err(|e| Rejection::new("options", e.to_string()))?;
    decide::setup(&players, &options, &pack, LostWorlds::RULES_VERSION, dice)
}

#[test]
fn a_player_controls_several_figures_each_named_apart() {
    let s = two_players(DiceMode::Physical);
    assert_eq!(s.seats.len(), 3, "a seat of the fight for each figure");
    assert_eq!(s.controllers, vec![0, 1, 1]);
    assert_eq!(s.figures_of(1), vec![1, 2]);
    assert_eq!(
        LostWorlds::plays(&s, 1).as_deref(),
        Some("Brakka and Brakka")
    );
    assert_eq!(LostWorlds::plays(&s, 0).as_deref(), Some("Nowa"));
    // Two Brakkas under one player are told apart by number.
    assert_eq!(s.seat_name(1), "Brakka (Bo, 1)");
    assert_eq!(s.seat_name(2), "Brakka (Bo, 2)");
    assert_eq!(s.seat_name(0), "Nowa");
}

#[test]
fn controls_that_do_not_fit_the_table_are_refused_by_name() {
    let refused = |players: &[&str], controls: Value| {
        setup_with(players, controls, DiceMode::Physical).expect_err("refused")
    };
    let e = refused(&["Ada", "Bo"], json!("0,1"));
    assert_eq!(e.rule, "setup.controls");
    assert!(e.message.contains("3 figures"), "{}", e.message);
    // Nowa and a Brakka fight each other: one player cannot hold both.
    let e = refused(&["Ada", "Bo"], json!("0,0,1"));
    assert_eq!(e.rule, "setup.controls");
    assert!(e.message.contains("two sides"), "{}", e.message);
    let e = refused(&["Ada", "Bo", "Cy"], json!("0,1,1"));
    assert_eq!(e.rule, "setup.controls");
    assert!(
        e.message.contains("seat 2 controls no figure"),
        "{}",
        e.message
    );
    let e = refused(&["Ada", "Bo"], json!("0,1,2"));
    assert_eq!(e.rule, "setup.controls");
    assert!(e.message.contains("no seat 2"), "{}", e.message);
    let e = refused(&["Ada", "Bo"], json!("0,one,1"));
    assert!(
        e.message.contains("`one` is not a seat number"),
        "{}",
        e.message
    );
    // Without `controls`, too few players are told the option exists.
    let e = refused(&["Ada", "Bo"], json!([]));
    assert_eq!(e.rule, "setup.players");
    assert!(e.message.contains("controls"), "{}", e.message);
    // A duel has one fighter a seat: `controls` belongs to a map.
    let options = serde_json::from_value(json!({ "controls": "0,1" })).unwrap();
    let e = decide::setup(
        &["Ada".into(), "Bo".into()],
        &options,
        &pack_with(None),
        LostWorlds::RULES_VERSION,
        DiceMode::Physical,
    )
    .expect_err("refused");
    assert_eq!(e.rule, "setup.controls");
}

#[test]
fn a_player_acts_for_its_own_figures_only_and_names_which() {
    let mut s = two_players(DiceMode::Physical);
    ok(&mut s, None, json!({"type": "roll", "dice": [1, 2, 6]}));
    // The second Brakka moves first. Bo names no figure: which one?
    assert_eq!(s.field.as_ref().unwrap().mover(), Some(2));
    assert_eq!(LostWorlds::to_move(&s, 2), vec![1], "Bo is waited on");
    let m = refused(
        &mut s,
        Some(1),
        json!({"type": "move", "to": "d4"}),
        "lostworlds.seat",
    );
    assert!(
        m.contains("Brakka (Bo, 1) (seat 1) and Brakka (Bo, 2) (seat 2)"),
        "{m}"
    );
    // Ada cannot move Bo's figure.
    refused(
        &mut s,
        Some(0),
        json!({"type": "move", "to": "d4", "seat": 2}),
        "lostworlds.seat",
    );
    ok(
        &mut s,
        Some(1),
        json!({"type": "move", "to": "d4", "seat": 2}),
    );
    assert_eq!(at(&s, 2), "d4");
    // Every action `legal` offers Bo is Bo's to take, for either figure.
    let offered = LostWorlds::legal(&s, Some(1));
    assert!(!offered.is_empty());
    for l in offered.iter().filter(|l| l.needs.is_empty()) {
        let mut chance = Chance::new(DiceMode::Physical, 1, 1);
        decide::decide(&s, Some(1), &l.action, &mut chance)
            .unwrap_or_else(|e| panic!("{:?} offered to Bo: {e}", l.action));
    }
    assert!(LostWorlds::legal(&s, Some(0))
        .iter()
        .all(|l| !format!("{:?}", l.action).contains("seat: Some(1)")));
}

/// Each player sees the held choices of the figures it controls, and of
/// no other, until the exchange resolves.
#[test]
fn a_player_sees_each_of_its_figures_choices_and_no_one_elses() {
    let mut s = two_players(DiceMode::Physical);
    // The climber takes the barrel; the watch comes down on her.
    ok(&mut s, None, json!({"type": "roll", "dice": [5, 2, 3]}));
    ok(&mut s, Some(0), json!({"type": "move", "to": "c5"}));
    ok(&mut s, Some(0), json!({"type": "move", "to": "c4"}));
    ok(
        &mut s,
        Some(0),
        json!({"type": "pick_up", "object": "water-barrel"}),
    );
    ok(
        &mut s,
        Some(0),
        json!({"type": "end_move", "undefended": "b4"}),
    );
    ok(
        &mut s,
        Some(1),
        json!({"type": "move", "to": "d4", "seat": 2}),
    );
    ok(&mut s, Some(0), json!({"type": "halt"}));
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "e4", "seat": 2}),
    );
    ok(
        &mut s,
        Some(1),
        json!({"type": "move", "to": "d3", "seat": 1}),
    );
    ok(
        &mut s,
        Some(1),
        json!({"type": "end_move", "undefended": "e3", "seat": 1}),
    );
    ok(
        &mut s,
        Some(1),
        json!({"type": "engage", "foes": [0], "seat": 1}),
    );
    ok(&mut s, Some(0), json!({"type": "engage", "foes": []}));
    assert_eq!(stage(&s), Stage::Combat);
    let fighting: Vec<Seat> = s
        .fighting_seats()
        .into_iter()
        .filter(|&f| !s.foes(f).is_empty())
        .collect();
    assert_eq!(fighting, vec![0, 1, 2], "all three fight");
    // Each fighter's controller chooses its maneuver in secret.
    for &f in &fighting {
        let by = s.controller(f);
        let legal = LostWorlds::legal(&s, Some(by));
        let choose = legal
            .iter()
            .find(|l| matches!(&l.action, Action::Choose { seat: Some(x), .. } if *x == f))
            .unwrap_or_else(|| panic!("no choice offered for figure {f}"));
        let mut chance = Chance::new(DiceMode::Physical, 3, 3);
        let facts = decide::decide(&s, Some(by), &choose.action, &mut chance).unwrap();
        let chosen = facts
            .iter()
            .find(|x| matches!(x, Fact::ManeuverChosen { .. }))
            .expect("a held choice");
        let cx = Context {
            state: &s,
            seq: s.settled + 1,
            by: Some(by),
        };
        for player in [0, 1] {
            let shown = LostWorlds::redact(chosen, Viewer::Seat(player), &cx);
            let sees = player == by;
            assert_eq!(
                shown == *chosen,
                sees,
                "player {player} and figure {f}'s held choice"
            );
            let action = LostWorlds::redact_action(&choose.action, Viewer::Seat(player), &cx);
            assert_eq!(action == choose.action, sees, "player {player}, figure {f}");
        }
        if facts.len() > 1 {
            break; // the exchange resolved
        }
        for x in &facts {
            LostWorlds::apply(&mut s, x);
        }
        let view = LostWorlds::view(&s, Viewer::Seat(1 - by));
        assert_eq!(
            view["pending"][f.to_string()],
            json!({"held": "chosen"}),
            "the other player sees only that figure {f} has chosen"
        );
        let own = LostWorlds::view(&s, Viewer::Seat(by));
        assert_ne!(own["pending"][f.to_string()], json!({"held": "chosen"}));
    }
}

/// The stair tower played to its end by two players: each step is an
/// action `legal` offers the player the game waits on, sent by that player.
#[test]
fn two_players_play_three_figures_to_the_end() {
    for seed in [3u64, 17, 2024] {
        let mut s = two_players(DiceMode::Digital);
        let mut rng = TableRng::for_event(seed, u64::MAX);
        let mut steps = 0u64;
        while !LostWorlds::is_over(&s) {
            steps += 1;
            assert!(steps < 20_000, "the scenario ends");
            let players = LostWorlds::to_move(&s, 2);
            assert!(!players.is_empty(), "someone is waited on");
            assert!(players.iter().all(|&p| p < 2), "only the two players");
            let by = players[rng.below(players.len() as u32) as usize];
            let legal: Vec<_> = LostWorlds::legal(&s, Some(by))
                .into_iter()
                .filter(|l| l.needs.is_empty())
                .collect();
            assert!(
                !legal.is_empty(),
                "player {by} is waited on and may act:\n{}\n{:?}",
                narration::render(&s, Viewer::Owner),
                LostWorlds::legal(&s, None)
            );
            let pick = &legal[rng.below(legal.len() as u32) as usize].action;
            let mut chance = Chance::new(DiceMode::Digital, seed, steps);
            let facts = decide::decide(&s, Some(by), pick, &mut chance)
                .unwrap_or_else(|e| panic!("{pick:?} offered to player {by}: {e}"));
            for f in &facts {
                LostWorlds::apply(&mut s, f);
            }
        }
        let result = LostWorlds::result(&s).expect("a result");
        assert!(
            result.winners.iter().all(|&p| p < 2),
            "the winners are players, not figures: {:?}",
            result.winners
        );
    }
}
