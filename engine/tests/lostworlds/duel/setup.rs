//! Setting a duel up: the pack, who fights as whom, the seat options.

use super::*;

#[test]
fn the_default_pack_is_valid_and_holds_nowa() {
    let pack: Pack = serde_json::from_value(LostWorlds::default_pack()).unwrap();
    LostWorlds::validate_pack(&pack, "<bundled>").unwrap();
    let nowa = pack.character("nowa").unwrap();
    assert_eq!((nowa.height, nowa.body_points, nowa.attacks), (4, 10, 2));
    let (_, bash) = nowa.maneuver_named("Down Swing Bash").unwrap();
    assert_eq!((bash.page, bash.x, bash.modifier), (36, Some(50), 3));
    assert!(
        nowa.maneuver_named("Side Swing Strong")
            .unwrap()
            .1
            .two_attacks
    );
    assert_eq!(
        nowa.maneuver_named("Extended Range Jump Back")
            .unwrap()
            .1
            .page,
        62
    );
}

#[test]
fn content_errors_name_the_field() {
    let mut pack = mini_pack();
    set_picture(&mut pack, "bryn", 23, |p| {
        p.tell = "Dance a jig next turn".into()
    });
    let e = content::validate(&pack, "mine.json").unwrap_err();
    assert_eq!(
        (e.file.as_str(), e.path.as_str()),
        ("mine.json", "books[1].pictures.23.tell")
    );
    let mut pack = mini_pack();
    pack.books[0].matrices.get_mut(&36).unwrap().remove(&10);
    assert_eq!(
        content::validate(&pack, "f").unwrap_err().path,
        "books[0].matrices.36.10"
    );
    let mut pack = mini_pack();
    pack.characters[0].maneuvers[0].x = None;
    assert_eq!(
        content::validate(&pack, "f").unwrap_err().path,
        "characters[0].maneuvers[0].x"
    );
    let mut pack = mini_pack();
    set_picture(&mut pack, "ash", 3, |p| {
        p.tell = "Do no Mauve next turn".into()
    });
    assert!(content::validate(&pack, "f")
        .unwrap_err()
        .message
        .contains("`mauve`"));
}

#[test]
fn a_seat_option_written_loosely_is_refused_not_silently_overridden() {
    // `seat01` and `seat1` both named seat 1; the later key won.
    let created = GameCreated {
        title: None,
        options: BTreeMap::from([
            ("seat01".to_string(), json!("ash")),
            ("seat1".to_string(), json!("bryn")),
        ]),
        ..duel_game("full").created().clone()
    };
    let e = Game::start(&created).unwrap_err().to_string();
    assert!(
        e.contains("option `seat01`: name a seat by number, as in seat0 or seat1"),
        "{e}"
    );
}

#[test]
fn three_fighters_from_two_characters_are_named_not_doubled_silently() {
    let pack: Pack = serde_json::from_value(LostWorlds::default_pack()).unwrap();
    let players: Vec<String> = ["Ada", "Bo", "Cy"].iter().map(|s| s.to_string()).collect();
    let e = decide::setup(
        &players,
        &options(json!({})),
        &pack,
        LostWorlds::RULES_VERSION,
        DiceMode::Digital,
    )
    .unwrap_err();
    assert_eq!(e.rule, "setup.character");
    assert!(e.message.contains("name each seat's"), "{}", e.message);
    // Named, a character may fight twice; names are read in any case.
    let state = decide::setup(
        &players,
        &options(json!({"characters": "NOWA,Brakka,brakka"})),
        &pack,
        LostWorlds::RULES_VERSION,
        DiceMode::Digital,
    )
    .unwrap();
    assert_eq!(state.seat_name(1), "Brakka (Bo)");
    // Two players still need no option at all.
    decide::setup(
        &players[..2],
        &options(json!({})),
        &pack,
        LostWorlds::RULES_VERSION,
        DiceMode::Digital,
    )
    .unwrap();
    // Rules 1 fielded the sample twice, and an old game still lays out so.
    let old = decide::setup(&players, &options(json!({})), &pack, 1, DiceMode::Digital).unwrap();
    assert_eq!(old.seat_name(2), "Brakka (Cy)");
    // A short name finds the one maneuver that bears it, in any case.
    let sheet = &state.seats[0].fighter().sheet;
    assert_eq!(
        sheet.maneuver_named("charge").unwrap().1.full_name(),
        "Extended Range Charge"
    );
    assert!(
        sheet.maneuver_named("High").is_none(),
        "several maneuvers are called High"
    );
}
