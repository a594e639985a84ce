//! Reading as another viewer (`as`) and the store's operator.
//!
//! The owner's token may shape any read for a seat or the public with the
//! `as` query parameter and gets exactly what that seat's own token gets; a
//! seat's token may not read as another seat or the owner. The operator
//! token `tabletape serve` hands to the CLI beside it is the owner of every
//! game and the store's admin. Seats of a Ludovia table see only their own
//! hand until the game ends, turn by turn.

use crate::common::{Api, Table};
use axum::http::StatusCode;
use serde_json::{json, Value};

/// A duel where seat 0 has chosen and seat 1 has not: seat 0's maneuver is
/// hidden from seat 1 until the exchange resolves. Returns the maneuver.
async fn pending_choice(api: &Api, table: &Table) -> String {
    let choice = api.first_legal(table, 0).await;
    api.post(
        &format!("/games/{}/actions", table.id),
        Some(&table.seats[0]),
        &json!({ "action": choice }),
    )
    .await
    .expect(StatusCode::CREATED);
    choice["maneuver"].as_str().unwrap().to_string()
}

/// Every read route, with `as` to add.
const READS: [&str; 9] = [
    "",
    "/state",
    "/events",
    "/replay",
    "/branches",
    "/narrative?format=json",
    "/verify",
    "/legal",
    "/state?at=1",
];

fn with_as(route: &str, viewer: &str) -> String {
    let sep = if route.contains('?') { '&' } else { '?' };
    format!("{route}{sep}as={viewer}")
}

#[tokio::test]
async fn the_owner_reads_as_a_seat_exactly_what_that_seat_reads() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    let maneuver = pending_choice(&api, &table).await;
    for route in READS {
        let uri = format!("/games/{}{route}", table.id);
        let seats = api
            .get(&uri, Some(&table.seats[1]))
            .await
            .expect(StatusCode::OK)
            .text();
        let as_seat = api
            .get(&with_as(&uri, "1"), Some(&table.owner))
            .await
            .expect(StatusCode::OK)
            .text();
        assert_eq!(as_seat, seats, "{route}");
        // (Seat 1's own options may name the same maneuver.)
        if route != "/legal" {
            assert!(!as_seat.contains(&maneuver), "{route}: {as_seat}");
        }
        // A seat may name itself.
        let itself = api
            .get(&with_as(&uri, "1"), Some(&table.seats[1]))
            .await
            .expect(StatusCode::OK)
            .text();
        assert_eq!(itself, seats, "{route}");
    }
    // `as=owner` is the owner's own view; the owner's state shows the choice.
    let state = format!("/games/{}/state", table.id);
    let owners = api.get(&state, Some(&table.owner)).await.json();
    assert_eq!(
        api.get(&with_as(&state, "owner"), Some(&table.owner))
            .await
            .json(),
        owners
    );
    assert!(owners.to_string().contains(&maneuver), "{owners}");
    // The public may act in nothing.
    let legal = api
        .get(
            &format!("/games/{}/legal?as=public", table.id),
            Some(&table.owner),
        )
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(legal, json!([]));
    // An export as a seat waits for the end of the game.
    api.get(
        &format!("/games/{}/export?as=1", table.id),
        Some(&table.owner),
    )
    .await
    .expect_error(StatusCode::FORBIDDEN, "forbidden");
}

#[tokio::test]
async fn a_seat_may_not_read_as_another_seat_or_the_owner() {
    let api = Api::new();
    let table = api.create(json!({"public": true})).await;
    let maneuver = pending_choice(&api, &table).await;
    for route in READS {
        let uri = format!("/games/{}{route}", table.id);
        for viewer in ["0", "owner"] {
            let body = api
                .get(&with_as(&uri, viewer), Some(&table.seats[1]))
                .await
                .expect_error(StatusCode::FORBIDDEN, "forbidden");
            assert!(!body.to_string().contains(&maneuver), "{body}");
        }
        // No token (a public game): as the public only.
        api.get(&with_as(&uri, "1"), None)
            .await
            .expect_error(StatusCode::UNAUTHORIZED, "unauthorized");
    }
    // Narrower is allowed: a seat reads as the public.
    let public = api
        .get(&format!("/games/{}/state", table.id), None)
        .await
        .expect(StatusCode::OK)
        .json();
    let seat_as_public = api
        .get(
            &format!("/games/{}/state?as=public", table.id),
            Some(&table.seats[1]),
        )
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(seat_as_public, public);
    // A seat's fork as another seat is refused too.
    api.post(
        &format!("/games/{}/branches?as=0", table.id),
        Some(&table.seats[1]),
        &json!({"at": 1}),
    )
    .await
    .expect_error(StatusCode::FORBIDDEN, "forbidden");
}

#[tokio::test]
async fn as_names_a_seat_at_the_table_or_a_word() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    for viewer in ["Nowa", "-1", ""] {
        api.get(
            &format!("/games/{}/state?as={viewer}", table.id),
            Some(&table.owner),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST, "bad_request");
    }
    // A seat's number, but not a seat at this table: unfit, not malformed.
    api.get(
        &format!("/games/{}/state?as=2", table.id),
        Some(&table.owner),
    )
    .await
    .expect_unfit("table.seat");
}

#[tokio::test]
async fn the_owners_fork_as_a_seat_is_that_seats_fork() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    api.play_one(&table).await;
    let forked = api
        .post(
            &format!("/games/{}/branches?as=1", table.id),
            Some(&table.owner),
            &json!({"at": 1, "name": "theirs"}),
        )
        .await
        .expect(StatusCode::CREATED)
        .json();
    // Fresh, secret dice, as for the seat's own fork; only the owner's
    // listing shows the seed.
    assert_eq!(forked["reseeded"], true, "{forked}");
    assert!(forked["reseed"].is_null(), "{forked}");
    let branches = api
        .get(&format!("/games/{}/branches", table.id), Some(&table.owner))
        .await
        .json();
    assert!(branches[1]["reseed"].is_u64(), "{branches}");
    api.post(
        &format!("/games/{}/branches?as=public", table.id),
        Some(&table.owner),
        &json!({"at": 1}),
    )
    .await
    .expect_error(StatusCode::FORBIDDEN, "forbidden");
}

#[tokio::test]
async fn the_operator_owns_every_game_and_is_the_admin() {
    let (api, operator) = Api::with_operator();
    let table = api.create(json!({})).await;
    let maneuver = pending_choice(&api, &table).await;
    let uri = format!("/games/{}/state", table.id);
    let owners: Value = api.get(&uri, Some(&table.owner)).await.json();
    let operators: Value = api
        .get(&uri, Some(&operator))
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(operators, owners);
    assert!(operators.to_string().contains(&maneuver));
    assert_eq!(
        api.get(&with_as(&uri, "1"), Some(&operator)).await.json(),
        api.get(&uri, Some(&table.seats[1])).await.json()
    );
    // It acts for any seat, lists every game, backs up and imports.
    let answer = api.first_legal(&table, 1).await;
    api.post(
        &format!("/games/{}/actions", table.id),
        Some(&operator),
        &json!({"action": answer, "seat": 1}),
    )
    .await
    .expect(StatusCode::CREATED);
    let listed = api.get("/games", Some(&operator)).await.json();
    assert_eq!(listed["games"].as_array().unwrap().len(), 1, "{listed}");
    api.get("/backup", Some(&operator))
        .await
        .expect(StatusCode::OK);
    let export = api
        .get(&format!("/games/{}/export", table.id), Some(&operator))
        .await
        .expect(StatusCode::OK)
        .body;
    api.import_as(export, Some(&operator))
        .await
        .expect_unfit("import.history"); // the id is taken
                                         // Another token is no operator; without an operator there is none.
    api.get(&uri, Some(&"0".repeat(64)))
        .await
        .expect_error(StatusCode::FORBIDDEN, "forbidden");
    let plain = Api::new();
    let other = plain.create(json!({})).await;
    plain
        .get(&format!("/games/{}/state", other.id), Some(&operator))
        .await
        .expect_error(StatusCode::FORBIDDEN, "forbidden");
    plain
        .get("/backup", Some(&operator))
        .await
        .expect_error(StatusCode::FORBIDDEN, "forbidden");
}

/// The owner's view of a Ludovia game: whose turn it is, and each hand.
async fn ludovia_owner_state(api: &Api, table: &Table) -> Value {
    api.get(&format!("/games/{}/state", table.id), Some(&table.owner))
        .await
        .expect(StatusCode::OK)
        .json()
}

/// Plays one Ludovia action as the seat whose turn it is (the owner before
/// turns begin), preferring `prefer(action)`; returns the action and narration.
async fn ludovia_step(
    api: &Api,
    table: &Table,
    prefer: &dyn Fn(&Value) -> u32,
    turn: usize,
) -> (Value, Value) {
    let legal = api
        .get(&format!("/games/{}/legal", table.id), Some(&table.owner))
        .await
        .expect(StatusCode::OK)
        .json();
    let legal = legal.as_array().unwrap();
    if legal.is_empty() {
        let story = api
            .get(
                &format!("/games/{}/narrative", table.id),
                Some(&table.owner),
            )
            .await
            .text();
        let state = ludovia_owner_state(api, table).await;
        panic!(
            "no legal action:\n{story}\n{}\n{}",
            state["view"]["phase"],
            state["text"].as_str().unwrap()
        );
    }
    // The best-liked actions, taken in turn so a walk does not go back and forth.
    let best = legal.iter().map(|l| prefer(&l["action"])).max().unwrap();
    let liked: Vec<&Value> = legal
        .iter()
        .filter(|l| prefer(&l["action"]) == best)
        .collect();
    let pick = liked[turn % liked.len()]["action"].clone();
    let state = ludovia_owner_state(api, table).await;
    let token = match state["view"]["phase"]["seat"].as_u64() {
        Some(seat) if state["view"]["phase"]["phase"] == "playing" => &table.seats[seat as usize],
        _ => &table.owner,
    };
    let acted = api
        .post(
            &format!("/games/{}/actions", table.id),
            Some(token),
            &json!({"action": pick}),
        )
        .await
        .expect(StatusCode::CREATED)
        .json();
    (pick, acted)
}

#[tokio::test]
async fn ludovia_seats_see_only_their_own_hand_until_the_game_ends() {
    let api = Api::new();
    let table = api
        .create(json!({"kind": "ludovia", "players": ["Ada", "Bo", "Cy"], "seed": 5, "options": {"round_limit": 3}}))
        .await;
    // Head for a rooftop and rob it.
    let climb = |a: &Value| {
        let to = a["to"].as_str().unwrap_or("");
        match a["type"].as_str().unwrap() {
            "rob" => 3,
            "move" if to.starts_with('s') => 2,
            "move" if to.starts_with('h') || to.starts_with('v') => 1,
            _ => 0,
        }
    };
    let mut robbery = None;
    for turn in 0..60 {
        let (action, acted) = ludovia_step(&api, &table, &climb, turn).await;
        let state = ludovia_owner_state(&api, &table).await;
        let holder = state["view"]["thieves"]
            .as_array()
            .unwrap()
            .iter()
            .position(|t| !t["hand"].as_array().unwrap().is_empty());
        if let (Some(seat), "rob") = (holder, action["type"].as_str().unwrap()) {
            let card = state["view"]["thieves"][seat]["hand"][0]
                .as_str()
                .unwrap()
                .to_string();
            // The robber, acting with their own token, is told what they found.
            let told = acted["narration"].to_string();
            assert!(told.contains(&card), "{told}");
            robbery = Some((seat, card));
            break;
        }
    }
    let (robber, card) = robbery.expect("someone robbed a treasure");
    let other = (robber + 1) % 3;
    let get = |uri: String, token: String| {
        let api = &api;
        async move { api.get(&uri, Some(&token)).await.expect(StatusCode::OK) }
    };
    let game = &table.id;

    // State: the other seat sees a count, the robber and the owner the card.
    let theirs = get(format!("/games/{game}/state"), table.seats[other].clone())
        .await
        .json();
    assert_eq!(
        theirs["view"]["thieves"][robber]["hand"],
        json!({"secret": 1})
    );
    assert!(!theirs["text"].as_str().unwrap().contains(&card));
    let own = get(format!("/games/{game}/state"), table.seats[robber].clone())
        .await
        .json();
    assert_eq!(own["view"]["thieves"][robber]["hand"], json!([card]));
    assert!(own["text"].as_str().unwrap().contains(&card));
    let owner = ludovia_owner_state(&api, &table).await;
    assert_eq!(owner["view"]["thieves"][robber]["hand"], json!([card]));

    // Events, narrative and replay hide the card from the other seat.
    // (The creation event lists the whole box, so look for the robbery itself.)
    let in_fact = format!("\"card\":\"{card}\"");
    let in_prose = format!("pockets {card}");
    for (uri, needle) in [
        (format!("/games/{game}/events"), &in_fact),
        (format!("/games/{game}/narrative?format=json"), &in_prose),
        (format!("/games/{game}/replay"), &in_prose),
    ] {
        let theirs = get(uri.clone(), table.seats[other].clone()).await.text();
        let mine = get(uri.clone(), table.seats[robber].clone()).await.text();
        let owners = get(uri.clone(), table.owner.clone()).await.text();
        assert!(!theirs.contains(needle.as_str()), "{uri}: {theirs}");
        assert!(mine.contains(needle.as_str()), "{uri}");
        assert!(owners.contains(needle.as_str()), "{uri}");
    }
    let story = get(
        format!("/games/{game}/narrative"),
        table.seats[other].clone(),
    )
    .await
    .text();
    assert!(story.contains("a treasure, kept secret"), "{story}");

    // No export for a seat mid-game; the owner may.
    api.get(&format!("/games/{game}/export"), Some(&table.seats[other]))
        .await
        .expect_error(StatusCode::FORBIDDEN, "forbidden");
    get(format!("/games/{game}/export"), table.owner.clone()).await;

    // Play to the round limit: once the night is over, every secret is out.
    for _ in 0..60 {
        if ludovia_owner_state(&api, &table).await["over"] == true {
            break;
        }
        ludovia_step(
            &api,
            &table,
            &|a: &Value| u32::from(a["type"] == "end_turn"),
            0,
        )
        .await;
    }
    let end = get(format!("/games/{game}/state"), table.seats[other].clone())
        .await
        .json();
    assert_eq!(end["over"], true);
    assert_eq!(end["view"], ludovia_owner_state(&api, &table).await["view"]);
    let story = get(
        format!("/games/{game}/narrative"),
        table.seats[other].clone(),
    )
    .await
    .text();
    assert!(story.contains(&in_prose), "{story}");
    get(format!("/games/{game}/export"), table.seats[other].clone()).await;
}
