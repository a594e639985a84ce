//! Choosing: commit and reveal, what a held choice hides from the others,
//! and record mode's reports, checked before anything is read from them.

use super::*;

#[test]
fn commit_and_reveal() {
    let mut state = start(&mini_pack(), 2, json!({"characters": "ash,bryn"}));
    assert_eq!(commitment(52, "pepper"), {
        use sha2::Digest;
        hex::encode(sha2::Sha256::digest(b"52:pepper"))
    });
    act(
        &mut state,
        Some(0),
        json!({"type": "commit", "hash": commitment(52, "pepper")}),
    )
    .unwrap();
    assert!(
        act(
            &mut state,
            Some(1),
            json!({"type": "commit", "seat": 0, "hash": commitment(52, "x")})
        )
        .is_err(),
        "not your seat"
    );
    let e = act(
        &mut state,
        Some(0),
        json!({"type": "reveal", "page": 52, "salt": "salt"}),
    )
    .unwrap_err();
    assert_eq!(e.rule, "lostworlds.reveal");
    act(&mut state, Some(1), json!({"type": "choose", "page": 50})).unwrap();
    assert_eq!(state.exchanges, 0);
    let facts = act(
        &mut state,
        Some(0),
        json!({"type": "reveal", "page": 52, "salt": "pepper"}),
    )
    .unwrap();
    assert!(matches!(facts[1], Fact::ExchangeResolved(_)));
    assert_eq!(state.exchanges, 1);
    assert!(state.pending.is_empty());
}

#[test]
fn record_mode_needs_what_each_seat_saw() {
    let mut state = start(
        &mini_pack(),
        2,
        json!({"books": "record", "characters": "ash,bryn"}),
    );
    assert_eq!(
        act(&mut state, Some(0), json!({"type": "choose", "page": 52}))
            .unwrap_err()
            .rule,
        "lostworlds.record"
    );
    let e = act(&mut state, None, json!({"type": "exchange", "maneuvers": [
        {"seat": 0, "page": 52, "seen": [{"picture": 23, "range": "close", "tell": "Do no Red next turn"}]},
        {"seat": 1, "page": 50, "seen": [{"range": "close", "tell": "No restrictions next turn"}]}]}))
    .unwrap_err();
    assert_eq!(e.message, "record mode: Bryn's result needs `picture`");
    let e = act(&mut state, None, json!({"type": "exchange", "maneuvers": [
        {"seat": 0, "page": 52, "seen": [{"picture": 23, "range": "close"}]},
        {"seat": 1, "page": 50, "seen": [{"picture": 5, "range": "close", "tell": "No restrictions next turn"}]}]}))
    .unwrap_err();
    assert_eq!(e.message, "record mode: Ash's result needs `tell`");
    let facts = act(&mut state, None, json!({"type": "exchange", "maneuvers": [
        {"seat": 0, "page": 52, "seen": [{"picture": 23, "range": "close", "score": 2, "tell": "Do no Red next turn"}]},
        {"seat": 1, "page": 50, "seen": [{"picture": 5, "range": "close", "tell": "No restrictions next turn"}]}]}))
    .unwrap();
    let b = &resolution(&facts).blows[0];
    assert_eq!(b.total, 2 - 4);
    assert_eq!(
        state.seats[1].orders.next_turn[0].text,
        "Do no Red next turn"
    );
}

fn json_text(v: &impl serde::Serialize) -> String {
    serde_json::to_string(v).unwrap()
}

#[test]
fn a_choice_is_hidden_from_the_other_seat_until_the_exchange_resolves() {
    let mut game = duel_game("full");
    let before = game.clone();
    // A seat token's choice names no seat: the actor is the chooser.
    let chose = step(&mut game, Some(0), json!({"type": "choose", "page": 50}));
    let secrets = ["50", "Charge"];
    assert!(json_text(&chose).contains("\"page\":50"));
    for viewer in OTHERS {
        let shown = game.redact_event(&chose, viewer).unwrap();
        hides(&json_text(&shown), &secrets, "the redacted event");
        let Body::ActionAccepted(a) = &shown.body else {
            unreachable!()
        };
        assert_eq!(a.action, json!({"type": "choose"}));
        assert_eq!(
            a.facts[0].value().unwrap(),
            json!({"type": "maneuver_chosen", "seat": 0, "targets": []})
        );
        let view = game.view(viewer);
        assert_eq!(view["pending"], json!({"0": {"held": "chosen"}}));
        let render = game.render(viewer);
        hides(&render, &["Charge", "page 50"], "the render");
        assert!(render.contains("choice: made\n"), "{render}");
        let lines = before.clone().apply_as(&chose, viewer).unwrap();
        assert!(
            lines
                .iter()
                .all(|l| l.contains(" plays ") || l.contains("own samples")),
            "a choice tells nothing but the opening: {lines:?}"
        );
        hides(&lines.join("\n"), &["Charge", "page 50"], "the narration");
    }
    // The chooser and the owner know it.
    for viewer in [Viewer::Owner, Viewer::Seat(0)] {
        assert_eq!(game.redact_event(&chose, viewer).unwrap(), chose);
        assert_eq!(game.view(viewer)["pending"]["0"]["page"], 50);
        let render = game.render(viewer);
        assert!(
            render.contains("choice: made (Extended Range Charge (page 50"),
            "{render}"
        );
    }

    // Bryn answers; the exchange resolves and both maneuvers are public.
    let mid = game.clone();
    let answer = step(
        &mut game,
        Some(1),
        json!({"type": "choose", "maneuver": "Extended Range Dodge"}),
    );
    for viewer in OTHERS {
        assert_eq!(game.redact_event(&chose, viewer).unwrap(), chose);
        assert_eq!(game.redact_event(&answer, viewer).unwrap(), answer);
        let lines = mid.clone().apply_as(&answer, viewer).unwrap().join("\n");
        assert!(
            lines.contains("Ash, told \"Do only Extended Range next turn\", goes for Extended Range Charge (page 50"),
            "{lines}"
        );
    }

    // Exchange 2: the owner calls Ash's choice for the table. It is hidden
    // again, while the choice of exchange 1 stays public.
    let second = step(
        &mut game,
        None,
        json!({"type": "choose", "seat": 0, "maneuver": "Down Swing Bash"}),
    );
    for viewer in OTHERS {
        let shown = json_text(&game.redact_event(&second, viewer).unwrap());
        hides(&shown, &["36", "Bash"], "the owner's call");
        assert_eq!(game.redact_event(&chose, viewer).unwrap(), chose);
    }
    assert_eq!(game.redact_event(&second, Viewer::Seat(0)).unwrap(), second);
}

#[test]
fn a_commitment_is_public_and_a_reveal_waits_for_the_exchange() {
    let mut game = duel_game("full");
    let hash = commitment(52, "moss-and-fern");
    let sealed = step(&mut game, Some(0), json!({"type": "commit", "hash": hash}));
    for viewer in OTHERS {
        assert_eq!(game.redact_event(&sealed, viewer).unwrap(), sealed);
        assert_eq!(game.view(viewer)["pending"]["0"]["hash"], hash);
    }
    // Opened before Bryn has chosen: Bryn must not read the page, nor the
    // salt (with the public hash it gives the page away).
    let before = game.clone();
    let reveal = json!({"type": "reveal", "page": 52, "salt": "moss-and-fern"});
    let told = game.decide_as(Some(0), &reveal, Viewer::Seat(0)).unwrap();
    assert_eq!(
        told.narration,
        vec!["Ash breaks the seal: Extended Range Dodge, as committed."]
    );
    let opened = step(&mut game, Some(0), reveal);
    let secrets = ["52", "moss-and-fern", "Dodge"];
    for viewer in OTHERS {
        let shown = json_text(&game.redact_event(&opened, viewer).unwrap());
        hides(&shown, &secrets, "the redacted reveal");
        assert!(shown.contains("maneuver_revealed"), "{shown}");
        assert_eq!(
            game.view(viewer)["pending"],
            json!({"0": {"held": "chosen"}})
        );
        let lines = before.clone().apply_as(&opened, viewer).unwrap();
        assert_eq!(lines, vec!["Ash breaks the seal."]);
    }
    assert_eq!(game.redact_event(&opened, Viewer::Seat(0)).unwrap(), opened);
    // Bryn chooses; the exchange resolves and the reveal is public.
    step(&mut game, Some(1), json!({"type": "choose", "page": 50}));
    for viewer in OTHERS {
        let shown = game.redact_event(&opened, viewer).unwrap();
        assert_eq!(shown, opened);
        assert!(json_text(&shown).contains("moss-and-fern"));
    }
}

#[test]
fn a_recorded_exchange_hides_nothing() {
    let mut game = duel_game("record");
    let event = step(
        &mut game,
        None,
        json!({"type": "exchange", "maneuvers": [
            {"seat": 0, "page": 52, "seen": [{"picture": 23, "range": "close", "tell": "Do no Red next turn"}]},
            {"seat": 1, "page": 50, "seen": [{"picture": 5, "range": "close", "tell": "No restrictions next turn"}]}]}),
    );
    for viewer in OTHERS {
        assert_eq!(game.redact_event(&event, viewer).unwrap(), event);
        assert_eq!(game.view(viewer), game.view(Viewer::Owner));
    }
}

#[test]
fn a_seat_is_not_told_why_a_broken_pack_cannot_resolve_its_exchange() {
    let mut state = start(&mini_pack(), 2, json!({"characters": "ash,bryn"}));
    act(&mut state, Some(0), json!({"type": "choose", "page": 56})).unwrap();
    // A pack that slipped past validation: Bryn's book lost its matrices.
    std::sync::Arc::make_mut(state.books.get_mut("bryn").unwrap())
        .matrices
        .clear();
    let seat = act(
        &mut state.clone(),
        Some(1),
        json!({"type": "choose", "page": 52}),
    )
    .unwrap_err();
    assert_eq!(seat.rule, "lostworlds.unresolvable");
    hides(&seat.message, &["56", "Block and Close"], "the rejection");
    // The owner, acting for the table, is told where the pack is broken.
    let owner = act(
        &mut state,
        None,
        json!({"type": "choose", "seat": 1, "page": 52}),
    )
    .unwrap_err();
    assert_eq!(owner.rule, "lostworlds.book");
    assert!(owner.message.contains("page 56"), "{}", owner.message);
}

/// A record-mode fight of Ash (seat 0) against `foes` Bryns, through `Game`.
fn record_game(foes: usize) -> Game {
    let characters = std::iter::once("ash")
        .chain(std::iter::repeat_n("bryn", foes))
        .collect::<Vec<_>>()
        .join(",");
    let created = GameCreated {
        title: None,
        kind: "lostworlds".into(),
        players: ["Ada", "Bo", "Cy", "Dee"][..=foes]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        seed: 1,
        dice: DiceMode::Digital,
        options: BTreeMap::from([
            ("characters".to_string(), json!(characters)),
            ("books".to_string(), json!("record")),
        ]),
        pack: serde_json::to_value(mini_pack()).unwrap(),
        public: false,
        rules_version: None,
        chance_version: None,
    };
    Game::start(&created).unwrap()
}

/// A recorded exchange: Ash on `page` seeing `ash`, Bryn on `bryn_page` seeing `bryn`.
fn recorded(page: u32, ash: Value, bryn_page: u32, bryn: Value) -> Value {
    json!({"type": "exchange", "maneuvers": [
        {"seat": 0, "page": page, "seen": [ash]},
        {"seat": 1, "page": bryn_page, "seen": [bryn]}]})
}

fn quiet() -> Value {
    json!({"picture": 5, "range": "close", "tell": "No restrictions next turn"})
}

fn refusal(game: &Game, action: Value) -> Rejection {
    game.decide(None, &action)
        .map(|_| panic!("{action} was accepted"))
        .unwrap_err()
}

#[test]
fn record_mode_refuses_numbers_no_book_page_prints_instead_of_wrapping() {
    let game = record_game(1);
    let huge = [
        (
            json!({"picture": 23, "range": "close", "score": 2147483647, "tell": "No restrictions next turn"}),
            "`maneuvers[0].seen[0].score` is 2147483647, but a score printed on a picture is 0 to 20",
        ),
        (
            json!({"picture": 23, "range": "close", "score": -1, "tell": "No restrictions next turn"}),
            "`maneuvers[0].seen[0].score` is -1",
        ),
        (
            json!({"picture": 23, "range": "close", "score": 4, "critical": {"threshold": 2147483647, "restriction": "Do no Red next turn"}, "tell": "No restrictions next turn"}),
            "`maneuvers[0].seen[0].critical.threshold` is 2147483647, but a critical burst prints 1 to 30",
        ),
        (
            json!({"picture": 23, "range": "close", "score": 4, "critical": {"threshold": 5, "restriction": "Subtract 2147483647 from all scores, cumulative, for the rest of the combat"}, "tell": "No restrictions next turn"}),
            "`maneuvers[0].seen[0].critical.restriction`",
        ),
        (
            json!({"picture": 23, "range": "close", "tell": "Subtract 2147483647 from all scores, cumulative, for the rest of the combat"}),
            "`maneuvers[0].seen[0].tell`: cannot read the restriction",
        ),
        (
            // Its absolute value does not even exist as an i32.
            json!({"picture": 23, "range": "close", "tell": "Subtract -2147483648 from all scores, cumulative, for the rest of the combat"}),
            "not a whole number from 1 to 9",
        ),
        (
            json!({"picture": 23, "range": "close", "tell": "Add +2147483647 if you score next turn"}),
            "the amount `+2147483647` in `add +2147483647 if you score next turn` is not a whole number from 1 to 9",
        ),
        (
            json!({"picture": 23, "range": "close", "tell": "Add ++2 if you score next turn"}),
            "`++2`",
        ),
        (
            json!({"picture": 64, "range": "close", "tell": "No restrictions next turn"}),
            "`maneuvers[0].seen[0].picture` is 64",
        ),
    ];
    for (ash, words) in huge {
        let e = refusal(&game, recorded(52, ash.clone(), 50, quiet()));
        assert_eq!(e.rule, "lostworlds.record", "{ash}: {}", e.message);
        assert!(e.message.contains(words), "{ash}: {}", e.message);
    }
    // The largest score a page prints is taken as it is.
    let top =
        json!({"picture": 23, "range": "close", "score": 20, "tell": "No restrictions next turn"});
    game.decide(None, &recorded(52, top, 50, quiet())).unwrap();

    // Penalties read aloud add up exactly: two "Subtract 9" then a top score
    // of 20 with Bash (+3, +1 for height) is 20 + 3 + 1 - 9 - 9 = 6.
    let mut game = game;
    let nine = json!({"picture": 5, "range": "close", "tell": "Subtract 9 from all scores, cumulative, for the rest of the combat"});
    step(&mut game, None, recorded(52, quiet(), 50, nine.clone()));
    step(&mut game, None, recorded(36, quiet(), 26, nine));
    let hit =
        json!({"picture": 23, "range": "close", "score": 20, "tell": "No restrictions next turn"});
    let d = game.decide(None, &recorded(36, hit, 26, quiet())).unwrap();
    let told = d.narration.join("\n");
    assert!(told.contains("penalty -9 + penalty -9 = 6"), "{told}");
    assert_eq!(d.body.facts[0].value().unwrap()["blows"][0]["damage"], 6);

    // A pack is held to the same limits, naming the field.
    for (edit, path) in [
        (json!(2147483647), "characters[0].maneuvers[0].mod"),
        (json!(-21), "characters[0].maneuvers[0].mod"),
    ] {
        let mut pack = serde_json::to_value(mini_pack()).unwrap();
        pack["characters"][0]["maneuvers"][0]["mod"] = edit;
        let created = GameCreated {
            title: None,
            pack,
            ..record_game(1).created().clone()
        };
        let e = Game::start(&created).unwrap_err().to_string();
        assert!(e.contains(path) && e.contains("-20 to +20"), "{e}");
    }
    let mut pack = mini_pack();
    set_picture(&mut pack, "bryn", 23, |p| p.score = Some(21));
    let e = content::validate(&pack, "p.json").unwrap_err();
    assert_eq!(e.path, "books[1].pictures.23.score");
    assert!(e.message.contains("0 to 20"), "{}", e.message);
    let mut pack = mini_pack();
    pack.characters[0].body_points = i32::MAX;
    assert_eq!(
        content::validate(&pack, "p.json").unwrap_err().path,
        "characters[0].body_points"
    );
    let mut pack = mini_pack();
    pack.characters[1].experience = u32::MAX;
    assert_eq!(
        content::validate(&pack, "p.json").unwrap_err().path,
        "characters[1].experience"
    );
}

#[test]
fn record_mode_refuses_duplicate_contradictory_and_unknown_seen_entries() {
    let game = record_game(1);
    let saw =
        json!({"opponent": 1, "picture": 23, "range": "close", "tell": "Do no Red next turn"});
    let other =
        json!({"picture": 25, "range": "close", "score": 4, "tell": "No restrictions next turn"});
    let cases = [
        (
            json!([saw, saw]),
            "`maneuvers[0].seen[1]` repeats `maneuvers[0].seen[0]`",
        ),
        (
            // The second entry, with no opponent named, is Bryn's again.
            json!([saw, other]),
            "`maneuvers[0].seen[1]` contradicts `maneuvers[0].seen[0]`: Ash's result against Bryn is reported once",
        ),
        (
            json!([{"opponent": 3, "picture": 23, "range": "close", "tell": "Do no Red next turn"}]),
            "`maneuvers[0].seen[0].opponent` names seat 3, who is not one of Ash's opponents (seats 1)",
        ),
        (
            json!([{"opponent": 0, "picture": 23, "range": "close", "tell": "Do no Red next turn"}]),
            "`maneuvers[0].seen[0].opponent` names seat 0",
        ),
        (
            json!([{"picture": 23, "title": "  ", "range": "close", "tell": "Do no Red next turn"}]),
            "`maneuvers[0].seen[0].title` is blank",
        ),
    ];
    for (seen, words) in cases {
        let action = json!({"type": "exchange", "maneuvers": [
            {"seat": 0, "page": 52, "seen": seen},
            {"seat": 1, "page": 50, "seen": [quiet()]}]});
        let e = refusal(&game, action);
        assert_eq!(e.rule, "lostworlds.record");
        assert!(e.message.contains(words), "{}", e.message);
    }
    // One entry per opponent is what a seat reports.
    let mut ok = game.clone();
    step(&mut ok, None, recorded(52, saw, 50, quiet()));

    // Against two opponents every entry names its own.
    let game = record_game(2);
    let bryn = |o: u32| json!({"opponent": o, "picture": 5, "range": "close", "tell": "No restrictions next turn"});
    let unnamed = json!({"picture": 5, "range": "close", "tell": "No restrictions next turn"});
    let action = |ash: Value| {
        json!({"type": "exchange", "maneuvers": [
            {"seat": 0, "page": 52, "seen": ash},
            {"seat": 1, "page": 50, "seen": [bryn(0)]},
            {"seat": 2, "page": 50, "seen": [bryn(0)]}]})
    };
    let e = refusal(&game, action(json!([bryn(1), unnamed])));
    assert!(
        e.message
            .contains("`maneuvers[0].seen[1]` must name its `opponent`: Ash fights several"),
        "{}",
        e.message
    );
    let e = refusal(&game, action(json!([bryn(2), bryn(1), bryn(2)])));
    assert!(
        e.message
            .contains("`maneuvers[0].seen[2]` repeats `maneuvers[0].seen[0]`"),
        "{}",
        e.message
    );
    game.decide(None, &action(json!([bryn(2), bryn(1)])))
        .unwrap();
}

#[test]
fn a_commitment_or_targets_written_loosely_are_refused_not_trimmed() {
    let game = duel_game("full");
    let hash = commitment(52, "salt");
    for loose in [
        format!(" {hash}"),
        format!("{hash}\u{20}"),
        hash[1..].to_string(),
    ] {
        let e = game
            .decide(Some(0), &json!({"type": "commit", "hash": loose}))
            .unwrap_err();
        assert_eq!(e.rule, "lostworlds.commit", "{loose:?}");
        assert!(e.message.contains("exactly 64 hex digits"), "{}", e.message);
    }
    // Upper-case hex names the same hash; it is stored in lower case.
    let d = game
        .decide(
            Some(0),
            &json!({"type": "commit", "hash": hash.to_uppercase()}),
        )
        .unwrap();
    assert_eq!(d.body.facts[0].value().unwrap()["hash"], json!(hash));

    // Each opponent is named once in `targets`.
    let three = record_game(2);
    let e = three
        .decide(
            None,
            &json!({"type": "exchange", "maneuvers": [
                {"seat": 0, "page": 52, "targets": [1, 1], "seen": []},
                {"seat": 1, "page": 50}, {"seat": 2, "page": 50}]}),
        )
        .unwrap_err();
    assert_eq!(e.rule, "lostworlds.targets");
    assert!(
        e.message.contains("`targets[1]` names seat 1 again"),
        "{}",
        e.message
    );
}

#[test]
fn a_seal_made_with_a_nonce_is_found_again_from_its_reveal_line() {
    let mut game = duel_game("full");
    let salt = "made-from-the-link";
    let hash = commitment(52, salt);
    step(
        &mut game,
        Some(0),
        json!({"type": "commit", "hash": hash, "nonce": "00C0FFEE"}),
    );
    // Bryn has still to choose: the game waits on Bryn, and Ash is offered
    // no reveal yet.
    assert_eq!(game.to_move(), vec![1]);
    assert!(game.legal(Some(0)).iter().all(|l| l.unseal.is_none()));
    // Bryn seals by hand, with no nonce (a salt of Bryn's own).
    step(
        &mut game,
        Some(1),
        json!({"type": "commit", "hash": commitment(50, "bryns-own")}),
    );
    // Everyone has chosen: the game waits on both seals, by seat.
    assert_eq!(game.to_move(), vec![0, 1]);
    let reveal_line = |game: &Game, seat| {
        game.legal(Some(seat))
            .into_iter()
            .find(|l| l.action["type"] == "reveal")
            .expect("a reveal is offered")
    };
    let unseal = reveal_line(&game, 0).unseal.expect("a nonce's seal");
    assert_eq!(
        (unseal.commitment.as_str(), unseal.nonce.as_str()),
        (hash.as_str(), "00c0ffee")
    );
    // The salt picks exactly one of the sheet's pages, the one sealed.
    let hits: Vec<_> = unseal
        .options
        .iter()
        .filter(|o| {
            use sha2::Digest;
            let preimage = o.preimage.replace("<salt>", salt);
            hex::encode(sha2::Sha256::digest(preimage.as_bytes())) == hash
        })
        .collect();
    assert_eq!(hits.len(), 1, "{:?}", unseal.options);
    assert_eq!(hits[0].reveal["page"], 52);
    assert!(reveal_line(&game, 1).unseal.is_none());
    // The reveal found that way is accepted; the game then waits on Bryn.
    let mut reveal = hits[0].reveal.clone();
    reveal["salt"] = salt.into();
    step(&mut game, Some(0), reveal);
    assert_eq!(game.to_move(), vec![1]);
}

#[test]
fn a_nonce_that_is_not_hex_is_refused() {
    let game = duel_game("full");
    let hash = commitment(52, "x");
    for nonce in ["", "not hex", &"a".repeat(65)] {
        let e = testkit::rejection(
            &game,
            Some(0),
            json!({"type": "commit", "hash": hash, "nonce": nonce}),
        );
        assert_eq!(e.rule, "lostworlds.commit", "{nonce:?}");
    }
}
