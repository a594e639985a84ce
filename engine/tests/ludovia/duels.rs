//! Duels between thieves: steals and knock-downs.

use super::*;

#[test]
fn steals_favour_the_victim_and_knock_downs_the_attacker() {
    let mut s = table();
    for seat in [0, 1] {
        s.thieves[seat].at = sp("s1.1");
    }
    give(&mut s, 1, &["Ruby Crown", "Silver Spoons"]);
    let mut tie = s.clone();
    act(
        &mut tie,
        json!({"type": "steal", "from": 1, "rolls": [4, 4]}),
    );
    assert_eq!(tie.thieves[1].hand.len(), 2);
    assert_eq!(turn(&tie).seat, 1, "losing ends the attacker's turn");
    let mut won = s.clone();
    assert_eq!(
        refused(&won, json!({"type": "steal", "from": 1, "rolls": [5, 4]})),
        "physical.draw_needed"
    );
    act(
        &mut won,
        json!({"type": "steal", "from": 1, "rolls": [5, 4], "took": "Ruby Crown"}),
    );
    assert_eq!(won.thieves[0].hand, vec!["Ruby Crown"]);
    assert_eq!(
        refused(&s, json!({"type": "steal", "from": 0, "rolls": [5, 4]})),
        "ludovia.target"
    );
    assert_eq!(
        refused(&s, json!({"type": "steal", "from": 2, "rolls": [5, 4]})),
        "ludovia.same_rooftop"
    );

    let mut knock = s.clone();
    assert_eq!(
        refused(
            &knock,
            json!({"type": "knock_down", "target": 1, "street": "h1.1", "rolls": [3, 3]})
        ),
        "ludovia.knock_down_street"
    );
    // Ruby Crown on a watched street: the fall is an arrest.
    knock.policemen[0] = Policeman {
        at: post("p0.0"),
        facing: Facing::East,
    };
    act(
        &mut knock,
        json!({"type": "knock_down", "target": 1, "street": "h0.0", "rolls": [3, 3]}),
    );
    assert!(knock.thieves[1].in_prison);
    assert_eq!(turn(&knock).seat, 0, "the winner plays on");

    // Make-up adds 2 to the attacker's die, once.
    let mut made_up = s.clone();
    equip(&mut made_up, 0, "Make-up");
    let facts = act(
        &mut made_up,
        json!({"type": "knock_down", "target": 1, "street": "v0.0", "rolls": [1, 3], "make_up": true}),
    );
    assert!(facts.iter().any(|f| matches!(
        f,
        Fact::KnockDownTried {
            won: true,
            rolls: [3, 3],
            ..
        }
    )));
}

#[test]
fn a_card_named_as_taken_by_a_failed_steal_is_refused_not_dropped() {
    let mut s = table();
    for seat in [0, 1] {
        s.thieves[seat].at = sp("s1.1");
    }
    give(&mut s, 1, &["Ruby Crown"]);
    let game = game_of(&s);
    let e = rejection(
        &game,
        Some(0),
        json!({"type": "steal", "from": 1, "rolls": [4, 4], "took": "Ruby Crown"}),
    );
    assert_eq!(e.rule, "ludovia.no_draw");
    assert!(e.message.contains("the steal failed"), "{}", e.message);
    game.decide(
        Some(0),
        &json!({"type": "steal", "from": 1, "rolls": [4, 4]}),
    )
    .unwrap();
}
