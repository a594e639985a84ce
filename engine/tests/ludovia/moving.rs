//! Getting about: moves that follow the board, jumps, and spaces and lamp
//! posts read only as written.

use super::*;

#[test]
fn moves_follow_the_board() {
    let mut s = table();
    // The Lair (block 1.1) touches its four streets.
    assert_eq!(
        refused(&s, json!({"type": "move", "to": "h0.1"})),
        "ludovia.move"
    );
    // A thief walks into the Lair, but into the Prison only under arrest.
    let mut south = s.clone();
    south.thieves[0].at = sp("h2.1");
    let from_south: Vec<Space> = decide::moves_from(&south, sp("h2.1"))
        .into_iter()
        .map(|m| m.0)
        .collect();
    assert!(from_south.contains(&Space::Lair));
    assert!(!from_south.contains(&Space::Prison));
    act(&mut s, json!({"type": "move", "to": "h1.1"}));
    // From the street north of the Lair into Fountain Square's Black Market alley.
    act(&mut s, json!({"type": "move", "to": "s2.4"}));
    // Black Market and plain alley link; climbing from the alley to a rooftop.
    let from_market: Vec<Space> = decide::moves_from(&s, sp("s2.4"))
        .into_iter()
        .map(|m| m.0)
        .collect();
    assert!(from_market.contains(&sp("s0.4")));
    assert!(from_market.contains(&sp("s1.4")));
    assert!(from_market.contains(&sp("h1.1")));
    act(&mut s, json!({"type": "move", "to": "s2.3"}));
    // No diagonal steps; rooftops lead to rooftops and alleys only.
    assert_eq!(
        refused(&s, json!({"type": "move", "to": "s1.4"})),
        "ludovia.move"
    );
    assert_eq!(
        refused(&s, json!({"type": "move", "to": "h1.1"})),
        "ludovia.move"
    );
    let facts = act(&mut s, json!({"type": "move", "to": "s1.3"}));
    assert!(
        matches!(facts.last(), Some(Fact::TurnBegan { seat: 1, .. })),
        "4 AP spent: {facts:?}"
    );
}

#[test]
fn jumps_need_a_roll_above_the_treasure_carried() {
    let mut s = table();
    s.thieves[0].at = sp("s1.3");
    // Empty-handed, a jump is free and needs no roll.
    assert_eq!(
        refused(&s, json!({"type": "jump", "to": "s1.2", "roll": 4})),
        "ludovia.no_roll"
    );
    assert_eq!(
        refused(&s, json!({"type": "jump", "to": "s1.1"})),
        "ludovia.jump"
    );
    let mut free = s.clone();
    act(&mut free, json!({"type": "jump", "to": "s1.2"}));
    assert_eq!(free.thieves[0].at, sp("s1.2"));

    give(&mut s, 0, &["Silver Spoons", "Pearl Necklace"]);
    let mut made = s.clone();
    act(&mut made, json!({"type": "jump", "to": "s1.2", "roll": 3}));
    assert_eq!(made.thieves[0].at, sp("s1.2"));
    // A roll equal to the treasure count falls to the street between.
    let facts = act(&mut s, json!({"type": "jump", "to": "s1.2", "roll": 2}));
    assert!(facts.iter().any(|f| matches!(f, Fact::ThiefFell { .. })));
    assert_eq!(s.thieves[0].at, sp("v0.1"));
    assert_eq!(turn(&s).seat, 1, "a fall ends the turn");
}

#[test]
fn spaces_and_lamp_posts_are_read_only_in_their_written_form() {
    let game = Game::start(&created(3, 1, DiceMode::Digital)).unwrap();
    // Before, `v2.0\t` and `v2.0000` were read as v2.0.
    for bad in [
        "v2.0\t", "v2.0000", "v02.0", "v+2.0", " v2.0", "v2.0 ", "v2. 0", "v2.", "v.0", "s4.7.1",
        "lair ", " prison", "LAIR", "s٣.1", "h1.99999",
    ] {
        let e = game
            .decide(None, &json!({"type": "move", "to": bad}))
            .unwrap_err();
        assert!(
            e.message.contains(&format!("`{bad}` is not a"))
                && (e.message.contains("plain numbers, as in")
                    || e.message
                        .contains("use lair, prison, a street (h1.2, v0.3)")),
            "{bad:?}: {}",
            e.message
        );
    }
    for bad in ["p1.1 ", "p01.1", "p1.+1"] {
        let e = game
            .decide(
                None,
                &json!({"type": "place_policeman", "at": bad, "facing": "east"}),
            )
            .unwrap_err();
        assert!(
            e.message.contains(&format!(
                "`{bad}` is not a lamp post: write p<n>.<n> with plain numbers, as in p1.2 (no spaces, signs or leading zeros)"
            )),
            "{bad:?}: {}",
            e.message
        );
    }
    // The written forms read: the action is refused by the rules, not the reader.
    for good in ["v2.0", "h0.0", "s4.7", "lair", "prison", "s10.11"] {
        let e = game
            .decide(None, &json!({"type": "move", "to": good}))
            .unwrap_err();
        assert_eq!(e.rule, "ludovia.order_first", "{good}: {}", e.message);
    }
}
