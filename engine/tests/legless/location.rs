//! The actions at a location: Work, Find Love, a personal goal, and the
//! victory tokens that win.

use super::*;

#[test]
fn work_needs_the_leg_and_pays_earnings_or_a_risk() {
    let mut s = table();
    s.londoners[0].at = at("docks"); // docks-1: Mobility 1, Efficiency 2; £7 or p.11
    let g = game_of(&s);
    let e = rejection(&g, Some(0), json!({"type": "work"}));
    assert_eq!(e.rule, "legless.requirements");
    assert!(
        e.message.contains("Mobility +1, Efficiency +2"),
        "{}",
        e.message
    );
    give_leg(&mut s, 0, "Kempner improved", true);
    let mut g = game_of(&s);
    let f = step(&mut g, Some(0), json!({"type": "work"}));
    assert_eq!(
        f[0],
        json!({"type": "worked", "seat": 0, "location": "docks", "amount": 7})
    );
    let mut g = game_of(&s);
    let f = step(
        &mut g,
        Some(0),
        json!({"type": "work", "risk": true, "roll": 5}),
    );
    assert_eq!(
        (f[0]["total"].as_i64(), f[0]["page"].as_u64()),
        (Some(7), Some(11))
    );
    assert_eq!(f[1], json!({"type": "earned", "seat": 0, "amount": 7}));
}

#[test]
fn love_is_found_by_die_plus_appeal_and_fills_the_love_space() {
    let mut s = table();
    s.londoners[0].at = at("gin-palace"); // love page 16, claim from 5
    let mut g = game_of(&s);
    let f = step(&mut g, Some(0), json!({"type": "find_love", "roll": 4}));
    assert_eq!(types(&f), ["risk_read", "paid", "turn_began"]);
    let mut g = game_of(&s);
    let f = step(&mut g, Some(0), json!({"type": "find_love", "roll": 5}));
    assert_eq!(types(&f)[..2], ["risk_read", "token_placed"]);
    let after = state_of(&g);
    assert_eq!(after.space_taken("gin-palace", GoalKind::Love), Some(0));

    // Bo may not claim the same space. Love counts for her wherever a card
    // allows it (rules 2); under rules 1 her character card's places bound it.
    let mut s2 = after.clone();
    s2.londoners[1].at = at("gin-palace");
    s2.phase = Phase::Playing(Turn {
        seat: 1,
        stage: Stage::Act,
    });
    let e = rejection(
        &game_of(&s2),
        Some(1),
        json!({"type": "find_love", "roll": 6}),
    );
    assert_eq!(e.rule, "legless.space_taken");
    s2.rules = 1;
    let e = rejection(
        &game_of(&s2),
        Some(1),
        json!({"type": "find_love", "roll": 6}),
    );
    assert_eq!(e.rule, "legless.goal_elsewhere");
    // Nor Ada again: her love goal is done.
    let mut s3 = after;
    s3.londoners[0].at = at("market");
    s3.phase = Phase::Playing(Turn {
        seat: 0,
        stage: Stage::Act,
    });
    let e = rejection(
        &game_of(&s3),
        Some(0),
        json!({"type": "find_love", "roll": 6}),
    );
    assert_eq!(e.rule, "legless.goal_done");
}

#[test]
fn two_victory_tokens_win() {
    let mut s = table();
    s.londoners[0].tokens.push(Token {
        location: "gin-palace".into(),
        goal: GoalKind::Love,
    });
    s.londoners[0].at = at("docks"); // Ezra's property may be the Docks (£28)
    s.londoners[0].money = 30;
    let mut g = game_of(&s);
    let f = step(&mut g, Some(0), json!({"type": "buy_property"}));
    assert_eq!(types(&f), ["token_placed", "won"]);
    assert_eq!(f[0]["cost"], 28);
    assert!(g.is_over());
    assert!(g.legal(None).is_empty());
}

#[test]
fn a_personal_goal_asks_its_price_and_scores_at_its_location() {
    let mut s = table();
    s.londoners[0].at = at("factory"); // Ezra: Mobility 1 at the Factory
    let g = game_of(&s);
    assert_eq!(
        rejection(&g, Some(0), json!({"type": "personal_goal"})).rule,
        "legless.requirements"
    );
    give_leg(&mut s, 0, "Peg leg", true);
    let mut g = game_of(&s);
    let f = step(&mut g, Some(0), json!({"type": "personal_goal"}));
    assert_eq!(
        f[0],
        json!({"type": "token_placed", "seat": 0, "location": "factory", "goal": "personal"})
    );
}
