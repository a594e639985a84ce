//! Orders and the maneuvers they leave open: extended range, restrictions,
//! colours, the lost weapon, conditional orders.

use super::*;

#[test]
fn the_duel_opens_at_extended_range_only() {
    let pack: Pack = serde_json::from_value(LostWorlds::default_pack()).unwrap();
    let mut state = start(&pack, 2, json!({}));
    assert_eq!(
        state.seats[1].fighter().sheet.id,
        "brakka",
        "the sample opponent by default"
    );
    assert_eq!(state.seats[0].sights[&1].picture, 57);
    let sheet = &state.seats[0].fighter().sheet;
    assert!(choices(&state, 0)
        .open
        .iter()
        .all(|&i| sheet.maneuvers[i].is_extended()));
    let e = act(&mut state, Some(0), json!({"type": "choose", "page": 36})).unwrap_err();
    assert_eq!(e.rule, "lostworlds.restriction");
    assert_eq!(
        e.message,
        "Nowa must obey \"Do only Extended Range next turn\": Down Swing Bash is not an extended-range maneuver"
    );
    // Extended range only when told: with no order at all it stays shut.
    close_quarters(&mut state);
    let e = act(&mut state, Some(0), json!({"type": "choose", "page": 50})).unwrap_err();
    assert_eq!(e.rule, "lostworlds.extended_range");
}

/// "Do only Brown" at close range admits the Brown Extended Range Charge by
/// its colour, but Extended Range is for a fight at extended range: an order
/// opens it only while no opponent stands close.
#[test]
fn a_colour_order_at_close_range_never_opens_extended_range() {
    let pack: Pack = serde_json::from_value(LostWorlds::default_pack()).unwrap();
    let mut state = start(&pack, 2, json!({}));
    close_quarters(&mut state);
    tell(&mut state, 0, 1, "Do only Brown next turn");
    let sheet = &state.seats[0].fighter().sheet;
    let (charge, m) = sheet.maneuver_named("Extended Range Charge").unwrap();
    assert_eq!(
        m.colour,
        Colour::Brown,
        "the sample sheet's charge is Brown"
    );
    let open = choices(&state, 0).open;
    assert!(
        !open.is_empty(),
        "the close-range Brown maneuvers stay open"
    );
    assert!(open.iter().all(|&i| !sheet.maneuvers[i].is_extended()));
    let e = decide::check_maneuver(&state, 0, charge).unwrap_err();
    assert_eq!(e.rule, "lostworlds.extended_range");
    assert_eq!(
        e.message,
        "Nowa stands close to Brakka: Extended Range is only for a fight at extended range"
    );
}

#[test]
fn every_restriction_kind_is_enforced() {
    let pack: Pack = serde_json::from_value(LostWorlds::default_pack()).unwrap();
    let mut state = start(&pack, 2, json!({}));
    close_quarters(&mut state);
    let nowa = |state: &State, name: &str| {
        state.seats[0]
            .fighter()
            .sheet
            .maneuver_named(name)
            .unwrap()
            .0
    };
    tell(&mut state, 0, 1, "Do no Red next turn");
    let e = decide::check_maneuver(&state, 0, nowa(&state, "Side Swing High")).unwrap_err();
    assert_eq!(
        e.message,
        "Nowa must obey \"Do no Red next turn\": Side Swing High is Red"
    );
    assert!(decide::check_maneuver(&state, 0, nowa(&state, "Down Swing Bash")).is_ok());

    state.seats[0].orders = Orders::default();
    tell(&mut state, 0, 1, "Do only Jumps next turn");
    assert!(decide::check_maneuver(&state, 0, nowa(&state, "Jump Duck")).is_ok());
    let e = decide::check_maneuver(&state, 0, nowa(&state, "Block High")).unwrap_err();
    assert!(
        e.message.contains("Block High is not a Jump"),
        "{}",
        e.message
    );

    state.seats[0].orders = Orders::default();
    tell(
        &mut state,
        0,
        1,
        "Do no Specials (except Retrieve Weapon) for the rest of the combat",
    );
    assert!(decide::check_maneuver(&state, 0, nowa(&state, "Special Kick")).is_err());
    // Retrieve Weapon is excepted, but only a fighter who lost the weapon retrieves it.
    let e = decide::check_maneuver(&state, 0, nowa(&state, "Special Retrieve Weapon")).unwrap_err();
    assert_eq!(e.rule, "lostworlds.weapon");
    tell(
        &mut state,
        0,
        1,
        "Do only Kick, Yellow or Green (except Wild Swing) until weapon has been retrieved.",
    );
    assert!(decide::check_maneuver(&state, 0, nowa(&state, "Special Retrieve Weapon")).is_ok());
    assert_eq!(
        state.seats[0].orders.lasting.len(),
        1,
        "rest of the combat is lasting"
    );

    state.seats[0].orders = Orders::default();
    tell(
        &mut state,
        0,
        1,
        "Do only Kick, Yellow or Green (except Jump Duck) until weapon has been retrieved",
    );
    assert!(decide::check_maneuver(&state, 0, nowa(&state, "Down Swing Bash")).is_err());
    assert!(
        decide::check_maneuver(&state, 0, nowa(&state, "Jump Duck")).is_err(),
        "excepted"
    );
    assert!(decide::check_maneuver(&state, 0, nowa(&state, "Special Retrieve Weapon")).is_ok());
    assert!(decide::check_maneuver(&state, 0, nowa(&state, "Special Kick")).is_ok());
    tell(
        &mut state,
        0,
        1,
        "May use weapon again. Do no Orange next turn.",
    );
    assert!(state.seats[0].orders.weapon.is_none());
    assert!(decide::check_maneuver(&state, 0, nowa(&state, "Side Swing High")).is_ok());
    assert!(decide::check_maneuver(&state, 0, nowa(&state, "Down Swing Bash")).is_err());
}

#[test]
fn orders_that_leave_nothing_are_set_aside() {
    let mut state = start(&mini_pack(), 2, json!({}));
    close_quarters(&mut state);
    tell(&mut state, 0, 1, "Do only Green for the rest of the combat");
    tell(&mut state, 0, 1, "Do no Green next turn");
    let c = choices(&state, 0);
    assert_eq!(c.set_aside, vec!["Do no Green next turn".to_string()]);
    assert_eq!(c.open, vec![2], "only Block High remains");
}

/// `allows` (asked of every maneuver when the choices are offered) and
/// `permits` (which says why not) agree on every clause every bundled book
/// can tell, for every maneuver of every bundled character.
#[test]
fn a_clause_allows_exactly_what_it_permits() {
    let pack: Pack = serde_json::from_value(LostWorlds::default_pack()).unwrap();
    let mut checked = 0;
    for book in &pack.books {
        for picture in book.pictures.values() {
            let Ok(told) =
                tabletape_engine::lostworlds::restriction::Restriction::parse(&picture.tell)
            else {
                continue;
            };
            for clause in &told.clauses {
                for c in &pack.characters {
                    for m in &c.maneuvers {
                        for widen in [false, true] {
                            assert_eq!(
                                clause.allows(m, &c.maneuvers, widen),
                                clause.permits(m, &c.maneuvers, widen).is_ok(),
                                "{} / {} / widen {widen}",
                                picture.tell,
                                m.full_name()
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} checked");
}

/// The default pack's Nowa, close to Brakka with no orders.
fn nowa_close() -> State {
    let pack: Pack = serde_json::from_value(LostWorlds::default_pack()).unwrap();
    let mut state = start(&pack, 2, json!({}));
    close_quarters(&mut state);
    state
}

fn idx(state: &State, seat: u32, name: &str) -> usize {
    state.seats[seat as usize]
        .fighter()
        .sheet
        .maneuver_named(name)
        .unwrap_or_else(|| panic!("no {name}"))
        .0
}

#[test]
fn the_colours_follow_the_rule_text() {
    let mut state = nowa_close();
    let colour = |state: &State, name: &str| {
        state.seats[0].fighter().sheet.maneuvers[idx(state, 0, name)].colour
    };
    // Fake High starts high (Red) and answers "no Blue"; Fake Low the reverse.
    assert_eq!(colour(&state, "Fake High"), Colour::Red);
    assert_eq!(colour(&state, "Fake Low"), Colour::Blue);
    tell(&mut state, 0, 1, "Do no Blue next turn.");
    assert!(decide::check_maneuver(&state, 0, idx(&state, 0, "Fake High")).is_ok());
    assert!(decide::check_maneuver(&state, 0, idx(&state, 0, "Fake Low")).is_err());
    // Wild Swing is Green: the disarmed order's "(except Wild Swing)" is what keeps it out.
    assert_eq!(colour(&state, "Special Wild Swing"), Colour::Green);
    state.seats[0].orders = Orders::default();
    tell(&mut state, 0, 1, "Do only Green or Yellow next turn.");
    assert!(decide::check_maneuver(&state, 0, idx(&state, 0, "Special Wild Swing")).is_ok());
    // At extended range Brown is the Charge, Black the long strokes, White the guards.
    assert_eq!(colour(&state, "Extended Range Charge"), Colour::Brown);
    let mut far = start(
        &serde_json::from_value(LostWorlds::default_pack()).unwrap(),
        2,
        json!({}),
    );
    far.seats[0].orders = Orders::default();
    tell(&mut far, 0, 1, "Do only Brown or White next turn.");
    for (name, open) in [
        ("Extended Range Charge", true),
        ("Extended Range Dodge", true),
        ("Extended Range Jump Back", true),
        ("Extended Range Swing High", false),
        ("Extended Range Thrust Low", false),
    ] {
        assert_eq!(
            decide::check_maneuver(&far, 0, idx(&far, 0, name)).is_ok(),
            open,
            "{name}"
        );
    }
    far.seats[0].orders = Orders::default();
    tell(&mut far, 0, 1, "Do only Brown or Black next turn.");
    assert!(decide::check_maneuver(&far, 0, idx(&far, 0, "Extended Range Swing Low")).is_ok());
    assert!(decide::check_maneuver(&far, 0, idx(&far, 0, "Extended Range Dodge")).is_err());
}

#[test]
fn a_lost_weapon_is_kept_until_retrieved_and_only_a_lost_one_is() {
    let mut state = nowa_close();
    // Holding the weapon: nothing to retrieve.
    let e =
        decide::check_maneuver(&state, 0, idx(&state, 0, "Special Retrieve Weapon")).unwrap_err();
    assert_eq!(e.rule, "lostworlds.weapon");
    assert!(
        e.message.contains("still holds the weapon"),
        "{}",
        e.message
    );
    assert!(!decide::choices(&state, 0)
        .open
        .contains(&idx(&state, 0, "Special Retrieve Weapon")));
    // Disarmed: no blow with the weapon, whatever else is ordered or set aside.
    tell(
        &mut state,
        0,
        1,
        "Do only Kick, Yellow or Green (except Wild Swing) until weapon has been retrieved.",
    );
    tell(&mut state, 0, 1, "Do only Red next turn.");
    let open = decide::choices(&state, 0).open;
    for name in [
        "Special Dislodge Weapon",
        "Special Wild Swing",
        "Side Swing High",
        "Thrust High",
    ] {
        assert!(
            !open.contains(&idx(&state, 0, name)),
            "{name} with the weapon lost"
        );
        let e = decide::check_maneuver(&state, 0, idx(&state, 0, name)).unwrap_err();
        assert_eq!(e.rule, "lostworlds.weapon", "{name}: {}", e.message);
    }
    assert!(open.contains(&idx(&state, 0, "Special Retrieve Weapon")));
    assert!(open.contains(&idx(&state, 0, "Special Kick")));
    // "May use weapon again": held once more, and Retrieve is closed again.
    state.seats[0].orders.read(
        Some(1),
        &Restriction::parse("May use weapon again. Do no Orange next turn.").unwrap(),
    );
    assert!(!state.seats[0].orders.disarmed());
    state.seats[0].orders.next_turn.clear();
    assert!(decide::check_maneuver(&state, 0, idx(&state, 0, "Special Dislodge Weapon")).is_ok());
    assert!(decide::check_maneuver(&state, 0, idx(&state, 0, "Special Retrieve Weapon")).is_err());
}

#[test]
fn a_conditional_tell_sends_the_listener_to_its_page_and_expires() {
    // Ash reads Bryn: "If I am pushed off balance go to p. 19". Next
    // exchange Ash's own picture (1 in Bryn's book) shows Ash off balance.
    let mut pack = mini_pack();
    set_picture(&mut pack, "bryn", 1, |p| {
        p.holder = vec!["off balance".into()]
    });
    set_picture(&mut pack, "ash", 19, |p| p.title = "Ash stumbles".into());
    let mut state = start(&pack, 2, json!({"characters": "ash,bryn"}));
    close_quarters(&mut state);
    tell(
        &mut state,
        1,
        0,
        "Do no Orange next turn. If I am 'Pushed Off Balance' go to p. 19.",
    );
    let facts = act(&mut state, None, exchange(&[(0, 26), (1, 26)])).unwrap();
    let r = resolution(&facts);
    let bryn_sees = r.blows.iter().find(|b| b.attacker == 1).unwrap();
    assert_eq!((bryn_sees.picture, bryn_sees.instead_of), (19, Some(1)));
    let ash_sees = r.blows.iter().find(|b| b.attacker == 0).unwrap();
    assert_eq!((ash_sees.picture, ash_sees.instead_of), (1, None));
    assert_eq!(state.seats[1].sights[&0].picture, 19);
    // Spent: the next exchange goes by the matrix again.
    assert_eq!(state.seats[1].orders.conditionals(0).count(), 0);
    let facts = act(&mut state, None, exchange(&[(0, 26), (1, 26)])).unwrap();
    let bryn_sees = resolution(&facts)
        .blows
        .iter()
        .find(|b| b.attacker == 1)
        .unwrap()
        .clone();
    assert_eq!((bryn_sees.picture, bryn_sees.instead_of), (1, None));
    // Told, but Ash stays on balance: nothing changes.
    let mut state = start(&mini_pack(), 2, json!({"characters": "ash,bryn"}));
    close_quarters(&mut state);
    tell(&mut state, 1, 0, "If I am pushed off balance go to p. 19.");
    let facts = act(&mut state, None, exchange(&[(0, 26), (1, 26)])).unwrap();
    assert!(resolution(&facts)
        .blows
        .iter()
        .all(|b| b.instead_of.is_none()));
}
