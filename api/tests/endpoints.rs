//! The HTTP API end to end, through `app(journal).oneshot(..)` on a temporary
//! store: every endpoint, every status the design brief names, and the token
//! rules. Actions come from the game's own `legal` list, never hand-guessed.

use crate::common::{request, Api};
use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use serde_json::{json, Value};
use tabletape_store::Journal;
use tempfile::TempDir;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_answers_over_tcp() {
    let dir = TempDir::new().unwrap();
    let journal = Journal::open(&dir.path().join("store")).unwrap();
    // A port the OS just handed out is very likely still free a moment later.
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let server = tokio::spawn(tabletape_api::serve(journal, addr));
    let answer = tokio::task::spawn_blocking(move || {
        use std::io::{Read, Write};
        let mut stream = (0..500)
            .find_map(|_| {
                std::net::TcpStream::connect(addr)
                    .inspect_err(|_| std::thread::sleep(std::time::Duration::from_millis(10)))
                    .ok()
            })
            .expect("the server listens");
        stream
            .write_all(b"GET /healthz HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n")
            .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer
    })
    .await
    .unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"status\":\"ok\""), "{answer}");
    server.abort();
}

#[tokio::test]
async fn healthz_and_kinds() {
    let api = Api::new();
    let health = api
        .get("/healthz", None)
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(health["status"], "ok");
    let kinds = api.get("/kinds", None).await.expect(StatusCode::OK).json();
    assert!(
        kinds
            .as_array()
            .unwrap()
            .iter()
            .any(|k| k["kind"] == "lostworlds"),
        "{kinds}"
    );
}

#[tokio::test]
async fn create_returns_tokens_and_the_first_seq() {
    let api = Api::new();
    let reply = api
        .post(
            "/games",
            None,
            &json!({"kind": "lostworlds", "players": ["Nowa", "Grim"], "seed": 42}),
        )
        .await
        .expect(StatusCode::CREATED);
    let created = reply.json();
    assert!(
        created["game"].as_str().unwrap().starts_with("g-"),
        "{created}"
    );
    assert_eq!(created["seed"], 42);
    assert_eq!(created["seq"], 1);
    assert!(created["narration"].is_array());
    let owner = created["owner_token"].as_str().unwrap();
    let seats = created["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 2);
    assert_eq!(seats[0]["player"], "Nowa");
    assert_eq!(seats[1]["seat"], 1);
    let tokens: Vec<&str> = seats.iter().map(|s| s["token"].as_str().unwrap()).collect();
    assert!(owner.len() >= 32 && tokens.iter().all(|t| t.len() >= 32));
    assert!(tokens[0] != tokens[1] && tokens.iter().all(|t| *t != owner));

    let id = created["game"].as_str().unwrap();
    let summary = api
        .get(&format!("/games/{id}"), Some(owner))
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(summary["kind"], "lostworlds");
    assert_eq!(summary["seq"], 1);
    assert_eq!(summary["players"], json!(["Nowa", "Grim"]));

    // A table may choose the id; a taken one is refused, naming it.
    let body = json!({"kind": "lostworlds", "players": ["Nowa", "Grim"], "id": "the-duel"});
    let chosen = api
        .post("/games", None, &body)
        .await
        .expect(StatusCode::CREATED)
        .json();
    assert_eq!(chosen["game"], "the-duel");
    let taken = api
        .post("/games", None, &body)
        .await
        .expect_unfit("game.id");
    assert!(
        taken["message"]
            .as_str()
            .unwrap()
            .contains("game id `the-duel` is taken"),
        "{taken}"
    );
}

#[tokio::test]
async fn create_refuses_bad_input() {
    let api = Api::new();
    let unknown = api
        .post(
            "/games",
            None,
            &json!({"kind": "chess", "players": ["A", "B"]}),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST, "bad_request");
    assert!(
        unknown["message"].as_str().unwrap().contains("chess"),
        "{unknown}"
    );
    api.post("/games", None, &json!({"kind": "lostworlds"}))
        .await
        .expect_error(StatusCode::BAD_REQUEST, "bad_request");
    // A body of the wrong shape is told where it goes wrong.
    let shape = api
        .post(
            "/games",
            None,
            &json!({"kind": "lostworlds", "players": ["A", 3]}),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST, "bad_request");
    assert!(
        shape["message"].as_str().unwrap().contains("players[1]"),
        "{shape}"
    );
    api.post(
        "/games",
        None,
        &json!({"kind": "lostworlds", "players": ["A", "B"], "plaeyrs": 1}),
    )
    .await
    .expect_error(StatusCode::BAD_REQUEST, "bad_request");
    api.post(
        "/games",
        None,
        &json!({"kind": "lostworlds", "players": ["Alone"]}),
    )
    .await
    .expect_unfit("setup.players");
    // Of the right shape, but not a pack the kind can read: a 422 naming
    // the rule, since no schema can say what a kind's pack holds.
    let pack = api
        .post(
            "/games",
            None,
            &json!({"kind": "lostworlds", "players": ["A", "B"], "pack": {"books": 3}}),
        )
        .await
        .expect_unfit("content.pack");
    assert!(
        pack["message"].as_str().unwrap().contains("books"),
        "{pack}"
    );
}

#[tokio::test]
async fn malformed_json_is_a_json_400() {
    let api = Api::new();
    let broken = Request::post("/games")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from("{\"kind\": \"lostworlds\", "))
        .unwrap();
    api.send(broken)
        .await
        .expect_error(StatusCode::BAD_REQUEST, "bad_request");
    let not_json = Request::post("/games")
        .header(header::CONTENT_TYPE, "text/plain")
        .body(Body::from("hello"))
        .unwrap();
    api.send(not_json)
        .await
        .expect_error(StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type");

    let table = api.create(json!({})).await;
    let uri = format!("/games/{}/actions", table.id);
    let broken = request(Method::POST, &uri, Some(&table.owner))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from("[1, 2"))
        .unwrap();
    api.send(broken)
        .await
        .expect_error(StatusCode::BAD_REQUEST, "bad_request");
    api.post(&uri, Some(&table.owner), &json!({"seat": 0}))
        .await
        .expect_error(StatusCode::BAD_REQUEST, "bad_request");
    api.get(
        &format!("/games/{}/events?from=first", table.id),
        Some(&table.owner),
    )
    .await
    .expect_error(StatusCode::BAD_REQUEST, "bad_request");
}

#[tokio::test]
async fn acting_records_the_action_and_tells_it() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    let action = api.first_legal(&table, 0).await;
    let acted = api
        .post(
            &format!("/games/{}/actions", table.id),
            Some(&table.seats[0]),
            &json!({"action": action}),
        )
        .await
        .expect(StatusCode::CREATED)
        .json();
    assert_eq!(acted["seq"], 2);
    assert_eq!(acted["retried"], false);
    assert_eq!(acted["over"], false);
    assert_eq!(acted["hash"].as_str().unwrap().len(), 64);
    assert!(acted["narration"].is_array());

    let events = api
        .get(&format!("/games/{}/events", table.id), Some(&table.owner))
        .await
        .expect(StatusCode::OK)
        .json();
    let events = events.as_array().unwrap();
    assert_eq!(events.len(), 2);
    assert_eq!(events[1]["hash"], acted["hash"]);
    assert_eq!(events[1]["actor"], json!({"seat": 0}));
    assert_eq!(events[1]["body"]["action"], action);
}

#[tokio::test]
async fn the_owner_acts_for_a_seat() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    let action = api.first_legal(&table, 1).await;
    let acted = api
        .post(
            &format!("/games/{}/actions", table.id),
            Some(&table.owner),
            &json!({"action": action, "seat": 1}),
        )
        .await
        .expect(StatusCode::CREATED)
        .json();
    assert_eq!(acted["seq"], 2);
    let events = api
        .get(
            &format!("/games/{}/events?from=2", table.id),
            Some(&table.owner),
        )
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(events[0]["actor"], json!({"seat": 1}));
}

#[tokio::test]
async fn an_action_against_the_rules_is_a_422_naming_the_rule_and_writes_nothing() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    let uri = format!("/games/{}/actions", table.id);
    let body = api
        .post(
            &uri,
            Some(&table.seats[0]),
            &json!({"action": {"type": "summon_a_dragon"}}),
        )
        .await
        .expect_error(StatusCode::UNPROCESSABLE_ENTITY, "rejected");
    assert_eq!(body["rule"], "action.malformed", "{body}");

    // A real action, submitted for the wrong seat by the owner: still ruled on, not stored.
    let action = api.first_legal(&table, 0).await;
    let legal_for_1 = api
        .get(
            &format!("/games/{}/legal?seat=1", table.id),
            Some(&table.owner),
        )
        .await
        .expect(StatusCode::OK)
        .json();
    assert!(
        !legal_for_1
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["action"] == action),
        "seat 0's action is not open to seat 1"
    );
    let body = api
        .post(
            &uri,
            Some(&table.owner),
            &json!({"action": action, "seat": 1}),
        )
        .await
        .expect_error(StatusCode::UNPROCESSABLE_ENTITY, "rejected");
    assert!(
        body["rule"].as_str().is_some_and(|r| !r.is_empty()),
        "{body}"
    );
    assert_eq!(
        api.head(&table).await,
        1,
        "a rejected action is never stored"
    );

    // Once a seat has chosen this exchange, choosing again is against the rules.
    api.post(&uri, Some(&table.seats[0]), &json!({"action": action}))
        .await
        .expect(StatusCode::CREATED);
    let again = api
        .post(&uri, Some(&table.seats[0]), &json!({"action": action}))
        .await
        .expect_error(StatusCode::UNPROCESSABLE_ENTITY, "rejected");
    assert_eq!(again["rule"], "lostworlds.chosen", "{again}");
    assert!(
        again["message"].as_str().unwrap().contains("Nowa"),
        "{again}"
    );
    assert_eq!(api.head(&table).await, 2);
}

#[tokio::test]
async fn a_stale_expected_seq_is_a_409() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    let uri = format!("/games/{}/actions", table.id);
    let action = api.first_legal(&table, 0).await;
    api.post(
        &uri,
        Some(&table.seats[0]),
        &json!({"action": action, "expect_seq": 1}),
    )
    .await
    .expect(StatusCode::CREATED);
    let action = api.first_legal(&table, 1).await;
    let body = api
        .post(
            &uri,
            Some(&table.seats[1]),
            &json!({"action": action, "expect_seq": 1}),
        )
        .await
        .expect_error(StatusCode::CONFLICT, "conflict");
    assert_eq!(body["expected"], 1);
    assert_eq!(body["head"], 2);
    assert_eq!(api.head(&table).await, 2);
}

#[tokio::test]
async fn a_retried_action_returns_the_original_answer_and_stores_nothing() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    let uri = format!("/games/{}/actions", table.id);
    let action = api.first_legal(&table, 0).await;
    let with_key = |key: &str| {
        request(Method::POST, &uri, Some(&table.seats[0]))
            .header(header::CONTENT_TYPE, "application/json")
            .header("Idempotency-Key", key)
            .body(Body::from(json!({"action": action}).to_string()))
            .unwrap()
    };
    let first = api
        .send(with_key("turn-1"))
        .await
        .expect(StatusCode::CREATED)
        .json();
    let again = api
        .send(with_key("turn-1"))
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(again["retried"], true);
    assert_eq!(again["seq"], first["seq"]);
    assert_eq!(again["hash"], first["hash"]);
    assert_eq!(again["narration"], first["narration"]);
    assert_eq!(api.head(&table).await, 2);

    // The key may also travel in the body; it is the same key.
    let in_body = api
        .post(
            &uri,
            Some(&table.seats[0]),
            &json!({"action": action, "idempotency_key": "turn-1"}),
        )
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(in_body["hash"], first["hash"]);
    api.send(
        request(Method::POST, &uri, Some(&table.seats[0]))
            .header(header::CONTENT_TYPE, "application/json")
            .header("Idempotency-Key", "turn-1")
            .body(Body::from(
                json!({"action": action, "idempotency_key": "turn-2"}).to_string(),
            ))
            .unwrap(),
    )
    .await
    .expect_unfit("idempotency.key_mismatch");
    assert_eq!(api.head(&table).await, 2);
}

#[tokio::test]
async fn unknown_games_and_routes_are_404() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    for uri in [
        "/games/g-00000000",
        "/games/g-00000000/events",
        "/games/g-00000000/state",
        "/games/g-00000000/narrative",
        "/games/g-00000000/branches",
        "/games/g-00000000/verify",
    ] {
        api.get(uri, Some(&table.owner))
            .await
            .expect_error(StatusCode::NOT_FOUND, "not_found");
    }
    api.post(
        "/games/g-00000000/actions",
        Some(&table.owner),
        &json!({"action": {}}),
    )
    .await
    .expect_error(StatusCode::NOT_FOUND, "not_found");
    api.get(
        &format!("/games/{}/state?branch=nowhere", table.id),
        Some(&table.owner),
    )
    .await
    .expect_error(StatusCode::NOT_FOUND, "not_found");
    api.get(
        &format!("/games/{}/state?at=99", table.id),
        Some(&table.owner),
    )
    .await
    .expect_error(StatusCode::NOT_FOUND, "not_found");
    api.get("/nothing/here", None)
        .await
        .expect_error(StatusCode::NOT_FOUND, "not_found");
    api.send(Request::delete("/games").body(Body::empty()).unwrap())
        .await
        .expect_error(StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed");
}

#[tokio::test]
async fn tokens_guard_private_games() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    let other = api.create(json!({})).await;
    let state = format!("/games/{}/state", table.id);
    let reply = api.get(&state, None).await;
    assert_eq!(
        reply.headers.get(header::WWW_AUTHENTICATE).unwrap(),
        "Bearer"
    );
    reply.expect_error(StatusCode::UNAUTHORIZED, "unauthorized");
    api.get(&state, Some("not-a-token"))
        .await
        .expect_error(StatusCode::FORBIDDEN, "forbidden");
    api.get(&state, Some(&other.owner))
        .await
        .expect_error(StatusCode::FORBIDDEN, "forbidden");
    let malformed = Request::get(&state)
        .header(header::AUTHORIZATION, "Basic Zm9vOmJhcg==")
        .body(Body::empty())
        .unwrap();
    api.send(malformed)
        .await
        .expect_error(StatusCode::UNAUTHORIZED, "unauthorized");

    let actions = format!("/games/{}/actions", table.id);
    let action = api.first_legal(&table, 0).await;
    api.post(&actions, None, &json!({"action": action}))
        .await
        .expect_error(StatusCode::UNAUTHORIZED, "unauthorized");
    api.post(&actions, Some(&other.seats[0]), &json!({"action": action}))
        .await
        .expect_error(StatusCode::FORBIDDEN, "forbidden");

    for token in [&table.owner, &table.seats[0], &table.seats[1]] {
        api.get(&state, Some(token)).await.expect(StatusCode::OK);
    }
    assert_eq!(api.head(&table).await, 1);
}

#[tokio::test]
async fn a_seat_token_acts_only_as_its_own_seat() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    let action = api.first_legal(&table, 1).await;
    let body = api
        .post(
            &format!("/games/{}/actions", table.id),
            Some(&table.seats[0]),
            &json!({"action": action, "seat": 1}),
        )
        .await
        .expect_error(StatusCode::FORBIDDEN, "forbidden");
    assert!(
        body["message"].as_str().unwrap().contains("seat 0"),
        "{body}"
    );
    api.get(
        &format!("/games/{}/legal?seat=1", table.id),
        Some(&table.seats[0]),
    )
    .await
    .expect_error(StatusCode::FORBIDDEN, "forbidden");
    assert_eq!(api.head(&table).await, 1);
}

#[tokio::test]
async fn a_public_game_is_readable_without_a_token() {
    let api = Api::new();
    let public = api.create(json!({"public": true})).await;
    let private = api.create(json!({})).await;
    api.play_one(&public).await;

    let state = api
        .get(&format!("/games/{}/state", public.id), None)
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(state["seq"], 2);
    assert!(!state["text"].as_str().unwrap().is_empty());
    for uri in [
        "",
        "/events",
        "/replay",
        "/branches",
        "/narrative",
        "/verify",
    ] {
        api.get(&format!("/games/{}{uri}", public.id), None)
            .await
            .expect(StatusCode::OK);
    }
    // The export is the whole truth: only the owner takes it mid-game.
    let refused = api
        .get(&format!("/games/{}/export", public.id), None)
        .await
        .expect_error(StatusCode::FORBIDDEN, "forbidden");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("only the owner"),
        "{refused}"
    );
    // Reading is not writing: a public game still takes actions only from its tokens.
    let action = api.first_legal(&public, 1).await;
    api.post(
        &format!("/games/{}/actions", public.id),
        None,
        &json!({"action": action}),
    )
    .await
    .expect_error(StatusCode::UNAUTHORIZED, "unauthorized");
    api.get(&format!("/games/{}/legal", public.id), None)
        .await
        .expect_error(StatusCode::UNAUTHORIZED, "unauthorized");

    let anyone = api.get("/games", None).await.expect(StatusCode::OK).json();
    assert_eq!(anyone["next"], Value::Null, "{anyone}");
    let ids: Vec<&str> = anyone["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec![public.id.as_str()]);
    let seated = api
        .get("/games", Some(&private.seats[1]))
        .await
        .expect(StatusCode::OK)
        .json();
    let mut ids: Vec<&str> = seated["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_str().unwrap())
        .collect();
    ids.sort();
    let mut want = vec![public.id.as_str(), private.id.as_str()];
    want.sort();
    assert_eq!(ids, want);
    // Pages of one: the first game, then the second from where it stopped.
    let first = api
        .get("/games?limit=1", Some(&private.seats[1]))
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(first["games"].as_array().unwrap().len(), 1, "{first}");
    assert_eq!(first["games"][0]["game"], want[0]);
    let after = first["next"].as_str().unwrap();
    let second = api
        .get(
            &format!("/games?limit=1&after={after}"),
            Some(&private.seats[1]),
        )
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(second["games"][0]["game"], want[1], "{second}");
}

#[tokio::test]
async fn state_replay_and_events_follow_the_log() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    api.play_one(&table).await;
    api.play_one(&table).await;
    let head = api.head(&table).await;
    assert_eq!(head, 3);

    let now = api
        .get(&format!("/games/{}/state", table.id), Some(&table.seats[0]))
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(now["seq"], 3);
    assert_eq!(now["branch"], "main");
    assert_eq!(now["kind"], "lostworlds");
    assert!(now["view"].is_object() || now["view"].is_array(), "{now}");
    let start = api
        .get(
            &format!("/games/{}/state?at=1", table.id),
            Some(&table.owner),
        )
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(start["seq"], 1);

    let steps = api
        .get(&format!("/games/{}/replay", table.id), Some(&table.owner))
        .await
        .expect(StatusCode::OK)
        .json();
    let seqs: Vec<u64> = steps
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["seq"].as_u64().unwrap())
        .collect();
    assert_eq!(seqs, vec![1, 2, 3]);
    let steps = api
        .get(
            &format!("/games/{}/replay?to=2", table.id),
            Some(&table.owner),
        )
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(steps.as_array().unwrap().len(), 2);

    let slice = api
        .get(
            &format!("/games/{}/events?from=2&to=2", table.id),
            Some(&table.owner),
        )
        .await
        .expect(StatusCode::OK)
        .json();
    let slice = slice.as_array().unwrap();
    assert_eq!(slice.len(), 1);
    assert_eq!(slice[0]["seq"], 2);
    api.get(
        &format!("/games/{}/events?from=3&to=2", table.id),
        Some(&table.owner),
    )
    .await
    .expect_unfit("events.range");

    let verified = api
        .get(
            &format!("/games/{}/verify", table.id),
            Some(&table.seats[1]),
        )
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(verified["ok"], true, "{verified}");
    assert_eq!(verified["branches"][0]["events"], 3);
}

#[tokio::test]
async fn every_narrative_format_has_its_content_type() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    api.play_one(&table).await;
    let uri = |format: &str| format!("/games/{}/narrative?format={format}", table.id);

    let md = api
        .get(&uri("md"), Some(&table.owner))
        .await
        .expect(StatusCode::OK);
    assert_eq!(md.content_type(), "text/markdown; charset=utf-8");
    assert!(md.text().starts_with("# "), "{}", md.text());
    let txt = api
        .get(&uri("txt"), Some(&table.owner))
        .await
        .expect(StatusCode::OK);
    assert_eq!(txt.content_type(), "text/plain; charset=utf-8");
    let html = api
        .get(&uri("html"), Some(&table.owner))
        .await
        .expect(StatusCode::OK);
    assert_eq!(html.content_type(), "text/html; charset=utf-8");
    assert!(html.text().starts_with("<!DOCTYPE html>"));
    let story = api
        .get(&uri("json"), Some(&table.owner))
        .await
        .expect(StatusCode::OK);
    assert_eq!(story.content_type(), "application/json");
    let story = story.json();
    assert!(
        story["title"].is_string() && story["chapters"].is_array(),
        "{story}"
    );

    let default = api
        .get(
            &format!("/games/{}/narrative", table.id),
            Some(&table.owner),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(default.body, md.body);
    let bad = api
        .get(&uri("pdf"), Some(&table.owner))
        .await
        .expect_error(StatusCode::BAD_REQUEST, "bad_request");
    assert!(bad["message"].as_str().unwrap().contains("pdf"), "{bad}");
}

#[tokio::test]
async fn export_then_import_is_lossless() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    api.play_one(&table).await;
    api.play_one(&table).await;
    api.post(
        &format!("/games/{}/branches", table.id),
        Some(&table.owner),
        &json!({"at": 2, "reseed": 5}),
    )
    .await
    .expect(StatusCode::CREATED);

    let export = api
        .get(&format!("/games/{}/export", table.id), Some(&table.owner))
        .await
        .expect(StatusCode::OK);
    assert_eq!(export.content_type(), "application/x-ndjson");
    let lines: Vec<Value> = export
        .text()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4, "main's three events and the fork's reseed");

    // Into the same store the game already exists.
    api.import(export.body.clone())
        .await
        .expect_unfit("import.history");

    let elsewhere = Api::new();
    let imported = elsewhere
        .import(export.body.clone())
        .await
        .expect(StatusCode::CREATED)
        .json();
    assert_eq!(imported["game"], table.id.as_str());
    assert_eq!(imported["events"], 4);
    assert_eq!(imported["branches"].as_array().unwrap().len(), 2);
    let owner = imported["owner_token"].as_str().unwrap();
    assert_ne!(owner, table.owner, "an import hands out fresh tokens");
    let again = elsewhere
        .get(&format!("/games/{}/export", table.id), Some(owner))
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        again.text(),
        export.text(),
        "export -> import -> export is byte-identical"
    );
    let verified = elsewhere
        .get(&format!("/games/{}/verify", table.id), Some(owner))
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(verified["ok"], true, "{verified}");

    let one_branch = api
        .get(
            &format!("/games/{}/export?branch=main", table.id),
            Some(&table.owner),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(one_branch.text().lines().count(), 3);

    // Any text is a body of the documented type: what is wrong with it is
    // what it says, a 422 naming the line.
    elsewhere
        .import(b"  \n".to_vec())
        .await
        .expect_unfit("import.history");
    let not_an_event = elsewhere
        .import(b"{\"not\": \"an event\"}\n".to_vec())
        .await
        .expect_unfit("import.history");
    assert!(
        not_an_event["message"].as_str().unwrap().contains("line 1"),
        "{not_an_event}"
    );
}

#[tokio::test]
async fn a_body_over_one_mib_is_a_413() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    let padding = "x".repeat(tabletape_api::BODY_LIMIT_BYTES + 1);
    let body = json!({"action": {"type": "pad", "text": padding}});
    api.post(
        &format!("/games/{}/actions", table.id),
        Some(&table.owner),
        &body,
    )
    .await
    .expect_error(StatusCode::PAYLOAD_TOO_LARGE, "too_large");
    let players: Vec<String> = (0..120_000).map(|i| format!("player {i}")).collect();
    api.post(
        "/games",
        None,
        &json!({"kind": "lostworlds", "players": players}),
    )
    .await
    .expect_error(StatusCode::PAYLOAD_TOO_LARGE, "too_large");
    // Imports get more room than actions: a 2 MiB log is read (and refused
    // for what it says, not for its size).
    let mut big = b"{\"game\": ".to_vec();
    big.resize(2 * tabletape_api::BODY_LIMIT_BYTES, b' ');
    big.extend_from_slice(b"}\n");
    api.import(big).await.expect_unfit("import.history");
    assert_eq!(api.head(&table).await, 1);
}
