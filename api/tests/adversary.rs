//! The API as a hostile seat sees it: holding only its own token (or none,
//! on a public game), a reader tries every route and format for what the
//! rules hide. Every kind the build knows is played here, so a new kind is
//! covered by default: its seed, every event salt and every hidden part's
//! salt must never reach a seat while the game is in play, the chain a seat
//! sees must check out, and a seat's fork must not inherit the dice to come.
//! Kind-specific secrets (a thief's hand, a fighter's pending choice) are
//! tested by value in the kinds' own tests and in `api.rs`.

use crate::common::{Api, Table};
use axum::http::StatusCode;
use serde_json::{json, Value};
use tabletape_store::seal::{commitment, part_salt, SEED_PART};
use tabletape_store::{check_shown, ShownEvent};

/// A seed no route has any other reason to print.
const SEED: u64 = 8_675_309_123_457;

/// Every read route and format a token holder can ask for.
fn read_routes(game: &str) -> Vec<String> {
    let mut routes: Vec<String> = [
        "",
        "/events",
        "/state",
        "/state?at=1",
        "/replay",
        "/branches",
        "/verify",
        "/legal",
        "/export",
        "/board.svg",
    ]
    .iter()
    .map(|r| format!("/games/{game}{r}"))
    .collect();
    for format in ["md", "txt", "html", "json"] {
        routes.push(format!("/games/{game}/narrative?format={format}"));
        routes.push(format!(
            "/games/{game}/narrative?format={format}&variations=true"
        ));
    }
    routes.push(format!("/games/{game}/compare?b=what-if"));
    routes.push(format!("/games/{game}/table"));
    routes.push("/games".into());
    routes
}

/// Records `action` with `token`; it must be accepted.
async fn record(api: &Api, game: &str, token: &str, action: Value) {
    api.post(
        &format!("/games/{game}/actions"),
        Some(token),
        &json!({ "action": action }),
    )
    .await
    .expect(StatusCode::CREATED);
}

/// Replaces `<placeholder>` strings of a legal action with plain words.
fn fill(action: &mut Value) {
    match action {
        Value::String(s) if s.starts_with('<') && s.ends_with('>') => *s = "a lamp".into(),
        Value::Array(items) => items.iter_mut().for_each(fill),
        Value::Object(map) => map.values_mut().for_each(fill),
        _ => {}
    }
}

/// Plays up to `steps` actions as the owner, each the `step`-th ready one
/// (wrapping) of the legal list, preferring actions that need nothing added.
async fn play(api: &Api, table: &Table, steps: usize) {
    for step in 0..steps {
        let legal = api
            .get(&format!("/games/{}/legal", table.id), Some(&table.owner))
            .await
            .expect(StatusCode::OK)
            .json();
        let legal = legal.as_array().unwrap();
        if legal.is_empty() {
            return;
        }
        let ready: Vec<&Value> = legal.iter().filter(|l| l.get("needs").is_none()).collect();
        let pool = if ready.is_empty() {
            legal.iter().collect()
        } else {
            ready
        };
        let mut action = pool[step * 7 % pool.len()]["action"].clone();
        fill(&mut action);
        let reply = api
            .post(
                &format!("/games/{}/actions", table.id),
                Some(&table.owner),
                &json!({ "action": action }),
            )
            .await;
        assert!(
            reply.status == StatusCode::CREATED || reply.status == StatusCode::UNPROCESSABLE_ENTITY,
            "{}: {}",
            reply.status,
            reply.text()
        );
    }
}

/// Every salt the owner sees: each event's own, and each part's.
fn owner_salts(events: &Value) -> Vec<String> {
    let mut salts = Vec::new();
    for e in events.as_array().unwrap() {
        if let Some(s) = e["salt"].as_str() {
            salts.push(s.to_string());
        }
        for seal in e["seals"].as_array().into_iter().flatten() {
            salts.push(seal["salt"].as_str().unwrap().to_string());
        }
    }
    salts
}

/// The salts of the parts a reader sees: the owner's salts it may hold.
fn shown_salts(events: &Value) -> Vec<String> {
    events
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|e| e["seals"].as_array().cloned().unwrap_or_default())
        .filter_map(|s| s["salt"].as_str().map(str::to_string))
        .collect()
}

/// The words of the private note `seat` (or the owner, `None`) writes.
fn private_words(seat: Option<usize>) -> String {
    match seat {
        Some(s) => format!("private-words-of-seat-{s}"),
        None => "private-words-of-the-owner".into(),
    }
}

/// Every seat and the owner write a private note and a plain one on the
/// game, and the owner forks it and names the fork, so every read route
/// has notes, a variation and a comparison to leak from.
async fn annotate(api: &Api, table: &Table) {
    let notes = format!("/games/{}/notes", table.id);
    for (seat, token) in table.seats.iter().enumerate() {
        api.post(
            &notes,
            Some(token),
            &json!({"at": 1, "text": private_words(Some(seat)), "private": true}),
        )
        .await
        .expect(StatusCode::CREATED);
        api.post(
            &notes,
            Some(token),
            &json!({"at": 1, "title": format!("plain-words-of-seat-{seat}")}),
        )
        .await
        .expect(StatusCode::CREATED);
    }
    api.post(
        &notes,
        Some(&table.owner),
        &json!({"at": 1, "text": private_words(None), "private": true}),
    )
    .await
    .expect(StatusCode::CREATED);
    api.post(
        &format!("/games/{}/branches", table.id),
        Some(&table.owner),
        &json!({"at": 2, "name": "what-if"}),
    )
    .await
    .expect(StatusCode::CREATED);
    api.post(
        &format!("/games/{}/names", table.id),
        Some(&table.owner),
        &json!({"branch": "what-if", "title": "the other way"}),
    )
    .await
    .expect(StatusCode::CREATED);
}

/// Asks every route as `token` (or no token) and fails on a leak.
async fn assert_nothing_leaks(api: &Api, table: &Table, token: Option<&str>, who: &str) {
    let reader = table.seats.iter().position(|t| Some(t.as_str()) == token);
    let owner_events = api
        .get(&format!("/games/{}/events", table.id), Some(&table.owner))
        .await
        .expect(StatusCode::OK)
        .json();
    assert!(
        owner_events.to_string().contains(&SEED.to_string()),
        "the owner reads the seed, so a leak could be seen"
    );
    let theirs = api
        .get(&format!("/games/{}/events", table.id), token)
        .await
        .expect(StatusCode::OK)
        .json();
    let allowed = shown_salts(&theirs);
    let secret: Vec<String> = owner_salts(&owner_events)
        .into_iter()
        .filter(|s| !allowed.contains(s))
        .collect();
    assert!(
        !secret.is_empty(),
        "{who}: at least the seed's salt is secret"
    );
    for route in read_routes(&table.id) {
        let reply = api.get(&route, token).await;
        let text = reply.text();
        assert!(
            !text.contains(&SEED.to_string()),
            "{who} reads the seed in {route}: {text}"
        );
        for salt in &secret {
            assert!(
                !text.contains(salt.as_str()),
                "{who} reads a hidden salt in {route}: {text}"
            );
        }
        // Private notes: only the writer's own, in any route.
        let others = (0..table.seats.len())
            .filter(|&s| Some(s) != reader)
            .map(Some)
            .chain([None]);
        for writer in others {
            let words = private_words(writer);
            assert!(
                !text.contains(&words),
                "{who} reads {words} in {route}: {text}"
            );
        }
    }
    // Plain notes are for every reader; a seat reads its own private note.
    let story = api
        .get(&format!("/games/{}/narrative", table.id), token)
        .await
        .expect(StatusCode::OK)
        .text();
    assert!(story.contains("plain-words-of-seat-0"), "{who}: {story}");
    if let Some(seat) = reader {
        assert!(story.contains(&private_words(Some(seat))), "{who}: {story}");
    }
    // The chain the reader sees checks out, and the route says so too.
    let shown: Vec<ShownEvent> = serde_json::from_value(theirs).unwrap();
    check_shown(&shown).unwrap_or_else(|e| panic!("{who}: {e:?}"));
    let verified = api
        .get(&format!("/games/{}/verify", table.id), token)
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(verified["ok"], true, "{who}: {verified}");
    // Everyone sees the same commitment to the seed.
    let summary = api
        .get(&format!("/games/{}", table.id), token)
        .await
        .expect(StatusCode::OK)
        .json();
    assert!(summary.get("seed").is_none(), "{who}: {summary}");
    assert_eq!(
        summary["seed_commitment"],
        shown[0].seed_commitment().unwrap(),
        "{who}"
    );
}

#[tokio::test]
async fn no_seat_and_no_spectator_learns_the_seed_or_a_hidden_salt_of_any_kind() {
    let api = Api::new();
    let kinds = api.get("/kinds", None).await.expect(StatusCode::OK).json();
    for kind in kinds.as_array().unwrap() {
        let name = kind["kind"].as_str().unwrap();
        let players: Vec<String> = (0..kind["min_players"].as_u64().unwrap())
            .map(|i| format!("P{i}"))
            .collect();
        for public in [false, true] {
            let table = api
                .create(json!({"kind": name, "players": players, "seed": SEED, "public": public}))
                .await;
            play(&api, &table, 12).await;
            annotate(&api, &table).await;
            let over = api
                .get(&format!("/games/{}/state", table.id), Some(&table.owner))
                .await
                .json()["over"]
                == true;
            assert!(!over, "{name}: the game should still be in play");
            for (seat, token) in table.seats.iter().enumerate() {
                assert_nothing_leaks(&api, &table, Some(token), &format!("{name} seat {seat}"))
                    .await;
            }
            if public {
                assert_nothing_leaks(&api, &table, None, &format!("{name} public")).await;
            }
        }
    }
}

#[tokio::test]
async fn the_board_is_an_svg_drawn_for_its_reader_and_forbids_scripts() {
    let api = Api::new();
    let kinds = api.get("/kinds", None).await.expect(StatusCode::OK).json();
    for kind in kinds.as_array().unwrap() {
        let players: Vec<String> = (0..kind["min_players"].as_u64().unwrap())
            .map(|i| format!("<P{i}>"))
            .collect();
        let table = api
            .create(json!({"kind": kind["kind"], "players": players, "seed": SEED}))
            .await;
        let reply = api
            .get(
                &format!("/games/{}/board.svg", table.id),
                Some(&table.seats[0]),
            )
            .await
            .expect(StatusCode::OK);
        assert_eq!(reply.content_type(), "image/svg+xml");
        let csp = reply.headers["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("default-src 'none'"), "{csp}");
        let svg = reply.text();
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>"), "{svg}");
        assert!(!svg.contains("<P0>"), "a player's name is escaped: {svg}");
    }
}

#[tokio::test]
async fn a_seat_fork_draws_fresh_secret_dice_and_an_owner_fork_may_inherit() {
    let api = Api::new();
    let table = api
        .create(json!({"kind": "ludovia", "players": ["Ada", "Bo", "Cy"], "seed": SEED}))
        .await;
    play(&api, &table, 4).await;
    let head = api
        .get(&format!("/games/{}", table.id), Some(&table.owner))
        .await
        .json()["seq"]
        .as_u64()
        .unwrap();
    let forked = api
        .post(
            &format!("/games/{}/branches", table.id),
            Some(&table.seats[1]),
            &json!({"at": head}),
        )
        .await
        .expect(StatusCode::CREATED)
        .json();
    let name = forked["name"].as_str().unwrap().to_string();
    assert_eq!(forked["reseeded"], true, "{forked}");
    assert_eq!(forked["reseed"], Value::Null, "{forked}");
    assert_eq!(forked["head_seq"], head + 1);
    let told = forked["narration"].to_string();
    assert!(told.contains("reseeded"), "{told}");

    let list = |token: String| {
        let api = &api;
        let uri = format!("/games/{}/branches", table.id);
        async move {
            api.get(&uri, Some(&token))
                .await
                .expect(StatusCode::OK)
                .json()
        }
    };
    let by_seat = list(table.seats[1].clone()).await;
    let by_owner = list(table.owner.clone()).await;
    let find = |all: &Value| {
        all.as_array()
            .unwrap()
            .iter()
            .find(|b| b["name"] == name)
            .cloned()
            .unwrap()
    };
    assert_eq!(find(&by_seat)["reseed"], Value::Null);
    let seed = find(&by_owner)["reseed"]
        .as_u64()
        .expect("the owner sees the fork's seed");
    assert_ne!(seed, SEED);
    // The seat's reading of the reseed event has no seed either.
    let events = api
        .get(
            &format!("/games/{}/events?branch={name}&from={}", table.id, head + 1),
            Some(&table.seats[1]),
        )
        .await
        .expect(StatusCode::OK)
        .text();
    assert!(!events.contains(&seed.to_string()), "{events}");
    assert!(events.contains("\"reseeded\""), "{events}");

    // The owner forks without a reseed and inherits the parent's future.
    let inherited = api
        .post(
            &format!("/games/{}/branches", table.id),
            Some(&table.owner),
            &json!({"at": head}),
        )
        .await
        .expect(StatusCode::CREATED)
        .json();
    assert_eq!(inherited["reseeded"], false, "{inherited}");
    assert_eq!(inherited["head_seq"], head);
}

#[tokio::test]
async fn once_the_game_is_over_everyone_can_check_the_seed_against_its_commitment() {
    let api = Api::new();
    let table = api
        .create(json!({"kind": "ludovia", "players": ["Ada", "Bo", "Cy"], "seed": SEED, "options": {"round_limit": 1}}))
        .await;
    let during = api
        .get(&format!("/games/{}", table.id), Some(&table.seats[0]))
        .await
        .expect(StatusCode::OK)
        .json();
    let promised = during["seed_commitment"].as_str().unwrap().to_string();
    for _ in 0..200 {
        let state = api
            .get(&format!("/games/{}/state", table.id), Some(&table.owner))
            .await
            .json();
        if state["over"] == true {
            break;
        }
        play(&api, &table, 1).await;
    }
    let after = api
        .get(&format!("/games/{}", table.id), Some(&table.seats[0]))
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(after["over"], true, "{after}");
    assert_eq!(after["seed"], SEED);
    assert_eq!(after["seed_commitment"], promised.as_str());
    // The seed and the creation's salt are out: the commitment opens.
    let events = api
        .get(
            &format!("/games/{}/events", table.id),
            Some(&table.seats[0]),
        )
        .await
        .expect(StatusCode::OK)
        .json();
    let salt = events[0]["salt"]
        .as_str()
        .expect("the creation's salt is out");
    let opened = commitment(&part_salt(salt, SEED_PART), SEED_PART, &json!(SEED));
    assert_eq!(opened, promised);
    // And the full check (every draw re-decided from the seed) is open to all.
    let verified = api
        .get(
            &format!("/games/{}/verify", table.id),
            Some(&table.seats[2]),
        )
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(verified["ok"], true, "{verified}");
}

#[tokio::test]
async fn a_fighters_pending_choice_is_hidden_from_the_other_seat_until_the_exchange() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    let legal = api
        .get(&format!("/games/{}/legal", table.id), Some(&table.seats[0]))
        .await
        .expect(StatusCode::OK)
        .json();
    let choice = legal
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["action"]["type"] == "choose")
        .unwrap()["action"]
        .clone();
    let maneuver = choice["maneuver"].as_str().unwrap().to_string();
    api.post(
        &format!("/games/{}/actions", table.id),
        Some(&table.seats[0]),
        &json!({ "action": choice }),
    )
    .await
    .expect(StatusCode::CREATED);
    let read = |token: String, route: &'static str| {
        let api = &api;
        let uri = format!("/games/{}{route}", table.id);
        async move {
            api.get(&uri, Some(&token))
                .await
                .expect(StatusCode::OK)
                .text()
        }
    };
    for route in [
        "/state",
        "/events",
        "/replay",
        "/narrative?format=json",
        "/narrative?format=txt",
    ] {
        let theirs = read(table.seats[1].clone(), route).await;
        assert!(!theirs.contains(&maneuver), "{route}: {theirs}");
        if route.starts_with("/narrative") {
            continue; // the story tells the choice only when it is revealed
        }
        let mine = read(table.seats[0].clone(), route).await;
        let owners = read(table.owner.clone(), route).await;
        assert!(
            mine.contains(&maneuver) && owners.contains(&maneuver),
            "{route}: the chooser and the owner see {maneuver}"
        );
    }
    let story = read(table.seats[1].clone(), "/narrative?format=txt").await;
    // The choice itself tells nothing: the story has the opening only.
    assert!(
        story.contains("plays Nowa") && !story.contains(&maneuver),
        "{story}"
    );
    // Once the other fighter has chosen, the exchange resolves and both see.
    let answer = api.first_legal(&table, 1).await;
    api.post(
        &format!("/games/{}/actions", table.id),
        Some(&table.seats[1]),
        &json!({ "action": answer }),
    )
    .await
    .expect(StatusCode::CREATED);
    let theirs = read(table.seats[1].clone(), "/replay").await;
    assert!(theirs.contains(&maneuver), "{theirs}");
}

/// A fighter's fantasy cards are face down: the other seat and the public
/// learn how many were taken in, and each card only once it is played.
#[tokio::test]
async fn a_fighters_cards_stay_face_down_until_played() {
    let api = Api::new();
    let table = api.create(json!({"public": true})).await;
    record(
        &api,
        &table.id,
        &table.seats[0],
        json!({"type": "select_cards", "cards": ["feint-and-drive", "second-wind", "chain-shirt"]}),
    )
    .await;
    record(
        &api,
        &table.id,
        &table.seats[0],
        json!({"type": "play_card", "card": "chain-shirt"}),
    )
    .await;
    // The selection as each read would carry it (the pack's list of every
    // card in the box, in the creation, is no secret).
    let hidden = [
        "\"feint-and-drive\",\"second-wind\"",
        "{\"id\":\"feint-and-drive\"",
        "Feint and Drive (tactic)",
        "cards: Feint and Drive",
    ];
    for route in ["/events", "/state", "/narrative?format=txt"] {
        let owners = api
            .get(&format!("/games/{}{route}", table.id), Some(&table.owner))
            .await
            .expect(StatusCode::OK)
            .text();
        assert!(
            hidden.iter().any(|h| owners.contains(h)),
            "the owner reads the cards at {route}, so the patterns are the right ones: {owners}"
        );
    }
    let mut routes = read_routes(&table.id);
    routes.push(format!("/g/{}/story", table.id));
    for route in &routes {
        if route.ends_with("/export") || route == "/games" {
            continue; // refused to a seat in play, and a list of games
        }
        for (token, who) in [
            (Some(&table.seats[1]), "the other seat"),
            (None, "the public"),
        ] {
            let reply = api.get(route, token.map(String::as_str)).await;
            let text = reply.text();
            for card in hidden {
                assert!(
                    !text.contains(card),
                    "{who} reads {card} at {route}: {text}"
                );
            }
        }
    }
    let story = api
        .get(
            &format!("/games/{}/narrative?format=txt", table.id),
            Some(&table.seats[1]),
        )
        .await
        .expect(StatusCode::OK)
        .text();
    assert!(
        story.contains("takes 3 fantasy cards into the fight, face down")
            && story.contains("reveals Chain Shirt"),
        "{story}"
    );
    let mine = api
        .get(&format!("/games/{}/state", table.id), Some(&table.seats[0]))
        .await
        .expect(StatusCode::OK)
        .text();
    assert!(
        mine.contains("feint-and-drive") && mine.contains("second-wind"),
        "{mine}"
    );
}

/// What only the owner, or a leg's owner, may read in a Legless in London
/// game: the Equipped side of a leg (its scores and upkeep) and the Risk
/// Booklet's stories before they are read.
const LEG_SIDE: [&str; 3] = ["\"maintenance\"", "upkeep £1 a turn", "(A+2 M+2 E+2)"];
const UNREAD_STORY: &str = "Hands meet under the lamp light";

#[tokio::test]
async fn a_leg_bought_and_the_risk_booklet_stay_hidden_from_the_other_seat() {
    let api = Api::new();
    let locations: Vec<String> = [
        "cottage",
        "slums",
        "theatre",
        "country-estate",
        "workhouse",
        "gin-palace",
        "market",
        "church",
        "docks",
        "leg-store",
        "factory",
        "sickroom",
        "music-hall",
        "pawnbroker",
        "club",
    ]
    .iter()
    .map(|l| format!("{l}-1"))
    .collect();
    let table = api
        .create(json!({"kind": "legless", "players": ["Ada", "Bo"], "seed": SEED, "dice": "physical",
            "options": {"banker": 1, "characters": "Lady Constance Vane,Agatha Finch", "locations": locations}}))
        .await;
    record(
        &api,
        &table.id,
        &table.seats[0],
        json!({"type": "roll", "rolls": [2]}),
    )
    .await;
    record(
        &api,
        &table.id,
        &table.seats[0],
        json!({"type": "move", "path": ["f8", "leg-store"]}),
    )
    .await;
    record(
        &api,
        &table.id,
        &table.seats[1],
        json!({"type": "roll", "rolls": [1]}),
    )
    .await;
    record(
        &api,
        &table.id,
        &table.seats[1],
        json!({"type": "move", "path": []}),
    )
    .await;
    record(
        &api,
        &table.id,
        &table.seats[0],
        json!({"type": "buy_leg", "leg": "Kempner improved"}),
    )
    .await;

    let read_all = |token: Option<String>| {
        let api = &api;
        let id = table.id.clone();
        async move {
            let mut all = String::new();
            for route in read_routes(&id) {
                if route.ends_with("/export") || route.ends_with("/verify") {
                    continue; // the owner's alone
                }
                all.push_str(&api.get(&route, token.as_deref()).await.text());
            }
            all
        }
    };
    let owners = read_all(Some(table.owner.clone())).await;
    let buyers = read_all(Some(table.seats[0].clone())).await;
    let others = read_all(Some(table.seats[1].clone())).await;
    for secret in LEG_SIDE {
        assert!(owners.contains(secret), "the owner reads {secret}");
        assert!(buyers.contains(secret), "the buyer reads {secret}");
        assert!(
            !others.contains(secret),
            "Bo reads {secret} of Ada's new leg: {others}"
        );
    }
    assert!(owners.contains(UNREAD_STORY), "the owner reads the booklet");
    assert!(!buyers.contains(UNREAD_STORY) && !others.contains(UNREAD_STORY));
    assert!(
        others.contains("Kempner improved"),
        "the purchase itself is public"
    );

    // Once strapped on, the leg's side is on the table for everyone.
    record(
        &api,
        &table.id,
        &table.seats[1],
        json!({"type": "roll", "rolls": [1]}),
    )
    .await;
    record(
        &api,
        &table.id,
        &table.seats[1],
        json!({"type": "move", "path": []}),
    )
    .await;
    record(&api, &table.id, &table.seats[0], json!({"type": "upkeep"})).await;
    record(
        &api,
        &table.id,
        &table.seats[0],
        json!({"type": "equip", "leg": "Kempner improved"}),
    )
    .await;
    let state = api
        .get(&format!("/games/{}/state", table.id), Some(&table.seats[1]))
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(
        state["view"]["legs"]["Kempner improved"]["equipped"]["maintenance"], 1,
        "{state}"
    );
    assert!(state["view"]["legs"]["Peg leg"].get("equipped").is_none());
}

#[tokio::test]
async fn the_cards_face_down_across_london_stay_face_down_for_every_seat() {
    let api = Api::new();
    let table = api
        .create(json!({"kind": "dread", "players": ["Ada", "Bo", "Cy", "Dee"], "seed": SEED}))
        .await;
    record(
        &api,
        &table.id,
        &table.seats[2],
        json!({"type": "start_planning"}),
    )
    .await;
    record(
        &api,
        &table.id,
        &table.seats[1],
        json!({"type": "reveal", "location": "east 4"}),
    )
    .await;
    record(
        &api,
        &table.id,
        &table.seats[0],
        json!({"type": "place", "character": 0, "slot": 1, "number": 4}),
    )
    .await;
    let owner = api
        .get(&format!("/games/{}/state", table.id), Some(&table.owner))
        .await
        .expect(StatusCode::OK)
        .json();
    let down: Vec<&Value> = owner["view"]["locations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["state"] == "down")
        .collect();
    assert_eq!(down.len(), 23);
    assert!(
        down.iter().all(|s| !s["card"].is_null()),
        "the owner sees the deal"
    );
    // What lies face down reads, in every form, as a card with its kind.
    let tells = [
        "placeholder",
        "\"card\":{\"dread\"",
        "\"card\":{\"ally\"",
        "plot?",
        "[ ? ]",
    ];
    for (who, token) in [
        ("a seat", Some(table.seats[3].clone())),
        ("the owner", Some(table.owner.clone())),
    ] {
        let mut all = String::new();
        for route in read_routes(&table.id) {
            if who == "a seat" && (route.ends_with("/export") || route.ends_with("/verify")) {
                continue;
            }
            all.push_str(&api.get(&route, token.as_deref()).await.text());
        }
        let table_page = api
            .get(&format!("/games/{}/table", table.id), token.as_deref())
            .await
            .text();
        all.push_str(&table_page);
        let leaks: Vec<&&str> = tells[..4].iter().filter(|t| all.contains(**t)).collect();
        if who == "a seat" {
            assert!(
                leaks.is_empty(),
                "a seat reads {leaks:?} of the cards face down"
            );
            assert!(
                all.contains(tells[4]),
                "a seat sees face-down cards as face down"
            );
        } else {
            assert!(!leaks.is_empty(), "the owner reads the deal");
        }
    }
    // The planning deadline is in the state and the table read, for every
    // device to count down to.
    let seat_state = api
        .get(&format!("/games/{}/state", table.id), Some(&table.seats[3]))
        .await
        .json();
    let ends = seat_state["deadline"]["ends_at_ms"].as_u64().unwrap();
    let starts = seat_state["deadline"]["started_at_ms"].as_u64().unwrap();
    assert_eq!(ends - starts, 12 * 60_000);
    let page = api
        .get(&format!("/games/{}/table", table.id), Some(&table.seats[3]))
        .await
        .json();
    assert_eq!(page["deadline"]["ends_at_ms"].as_u64(), Some(ends));
}

/// What the Well House's strongbox holds, in the scenario's words: no seat
/// and no spectator reads it before someone examines the box.
const IN_THE_STRONGBOX: &str = "Forty silver crowns";

#[tokio::test]
async fn what_a_scenario_object_hides_stays_hidden_until_examined() {
    let api = Api::new();
    let table = api
        .create(json!({"public": true, "seed": SEED, "options": {"scenario": "well-house"}}))
        .await;
    record(&api, &table.id, &table.seats[0], json!({"type": "roll"})).await;
    let mut routes = read_routes(&table.id);
    routes.push(format!("/g/{}", table.id));
    routes.push(format!("/g/{}/story", table.id));
    let owners = {
        let mut all = String::new();
        for route in &routes {
            all.push_str(&api.get(route, Some(&table.owner)).await.text());
        }
        all
    };
    assert!(
        owners.contains(IN_THE_STRONGBOX),
        "the owner reads the scenario whole, so the test can fail"
    );
    for (token, who) in [
        (Some(&table.seats[0]), "Nowa's seat"),
        (Some(&table.seats[1]), "Grim's seat"),
        (None, "the public"),
    ] {
        for route in &routes {
            let text = api.get(route, token.map(String::as_str)).await.text();
            assert!(
                !text.contains(IN_THE_STRONGBOX),
                "{who} reads what the strongbox holds at {route}: {text}"
            );
        }
    }
}
