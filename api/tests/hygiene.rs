//! Hostile and careless input through the API: what the admin alone may do,
//! names and ids that would break a line, a header or a path, placeholders
//! left in an action, reused idempotency keys. Each is refused with a JSON
//! error that names the field or rule, and nothing is written.

use crate::common::{request, Api, ADMIN};
use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use serde_json::{json, Value};

async fn export_of(api: &Api, game: &str, token: &str) -> Vec<u8> {
    api.get(&format!("/games/{game}/export"), Some(token))
        .await
        .expect(StatusCode::OK)
        .body
}

/// Rewrites every event of an export to name another game id, re-hashing it.
fn renamed(export: &[u8], id: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let mut prev = String::new();
    for line in export.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        let mut event: tabletape_store::Event = serde_json::from_slice(line).unwrap();
        event.game = id.to_string();
        event.prev_hash = prev.clone();
        event.hash = tabletape_store::event_hash(&event);
        prev = event.hash.clone();
        out.extend(serde_json::to_vec(&event).unwrap());
        out.push(b'\n');
    }
    out
}

#[tokio::test]
async fn only_the_admin_imports_lists_everything_and_backs_up() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    api.play_one(&table).await;
    let log = export_of(&api, &table.id, &table.owner).await;

    api.import_as(log.clone(), None)
        .await
        .expect_error(StatusCode::UNAUTHORIZED, "unauthorized");
    let body = api
        .import_as(log.clone(), Some(&table.owner))
        .await
        .expect_error(StatusCode::FORBIDDEN, "forbidden");
    assert!(
        body["message"].as_str().unwrap().contains("admin token"),
        "{body}"
    );

    // Every game for the admin; a stranger's token opens none.
    let all = api
        .get("/games", Some(ADMIN))
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(all["games"][0]["game"], table.id.as_str(), "{all}");
    let none = api
        .get("/games", Some("not-a-token-of-anything"))
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(none["games"], json!([]));

    api.get("/backup", Some(&table.owner))
        .await
        .expect_error(StatusCode::FORBIDDEN, "forbidden");
    let backup = api.get("/backup", Some(ADMIN)).await.expect(StatusCode::OK);
    assert_eq!(backup.content_type(), "application/x-ndjson");
    let text = backup.text();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].contains("tabletape_backup"), "{text}");
    assert!(lines[1].contains(&table.id), "{text}");
    assert_eq!(lines.len(), 2 + 2, "header, record and two events: {text}");
}

#[tokio::test]
async fn names_and_ids_that_would_break_a_line_a_header_or_a_path_are_refused() {
    let api = Api::new();
    for (players, field) in [
        (json!(["Ada\u{0000}", "Bo"]), "players[0]"),
        (json!(["Ada", "Bo\nthe second"]), "players[1]"),
        (json!(["Ada", "Bo\u{2028}"]), "players[1]"),
        (json!(["Ada", "\u{0085}Bo"]), "players[1]"),
        (json!(["  ", "Bo"]), "players[0]"),
    ] {
        let body = api
            .post(
                "/games",
                None,
                &json!({"kind": "lostworlds", "players": players}),
            )
            .await
            .expect_error(StatusCode::BAD_REQUEST, "bad_request");
        assert!(body["message"].as_str().unwrap().contains(field), "{body}");
    }
    let all = api
        .get("/games", Some(ADMIN))
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(all["games"], json!([]), "nothing was written");

    let table = api.create(json!({})).await;
    for name in ["what\u{0000}if", "line\nbreak", ""] {
        api.post(
            &format!("/games/{}/branches", table.id),
            Some(&table.owner),
            &json!({"at": 1, "name": name}),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST, "bad_request");
    }

    let log = export_of(&api, &table.id, &table.owner).await;
    for id in ["../../etc/passwd", "g\u{0000}1", ".hidden", "a b"] {
        let body = api
            .import(renamed(&log, id))
            .await
            .expect_unfit("import.history");
        assert!(
            body["message"].as_str().unwrap().contains("game id"),
            "{body}"
        );
    }

    // A path segment that is not UTF-8 is a JSON 400 on every game route.
    for (method, uri) in [
        (Method::GET, "/games/%ff"),
        (Method::GET, "/games/%ff/state"),
        (Method::POST, "/games/%ff/actions"),
    ] {
        let reply = api
            .send(
                request(method, uri, Some(&table.owner))
                    .header(header::CONTENT_TYPE, "application/json")
                    .body(Body::from(r#"{"action":{}}"#))
                    .unwrap(),
            )
            .await;
        reply.expect_error(StatusCode::BAD_REQUEST, "bad_request");
    }
}

#[tokio::test]
async fn a_placeholder_left_in_an_action_is_refused_and_writes_nothing() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    let legal = api
        .get(&format!("/games/{}/legal", table.id), Some(&table.seats[0]))
        .await
        .expect(StatusCode::OK)
        .json();
    let commit = legal
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["action"]["type"] == "commit")
        .expect("a commitment is open")["action"]
        .clone();
    let body = api
        .post(
            &format!("/games/{}/actions", table.id),
            Some(&table.seats[0]),
            &json!({ "action": commit }),
        )
        .await
        .expect_error(StatusCode::UNPROCESSABLE_ENTITY, "rejected");
    assert_eq!(body["rule"], "action.placeholder", "{body}");
    assert!(
        body["message"].as_str().unwrap().contains("`hash`"),
        "{body}"
    );
    assert_eq!(api.head(&table).await, 1);
}

#[tokio::test]
async fn an_idempotency_key_reused_for_another_action_is_a_422() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    let first = api.first_legal(&table, 0).await;
    let send = |action: Value, token: String| {
        let api = &api;
        let uri = format!("/games/{}/actions", table.id);
        async move {
            api.send(
                Request::builder()
                    .method(Method::POST)
                    .uri(uri)
                    .header(header::AUTHORIZATION, format!("Bearer {token}"))
                    .header(header::CONTENT_TYPE, "application/json")
                    .header("idempotency-key", "turn-1")
                    .body(Body::from(json!({ "action": action }).to_string()))
                    .unwrap(),
            )
            .await
        }
    };
    send(first.clone(), table.seats[0].clone())
        .await
        .expect(StatusCode::CREATED);
    send(first.clone(), table.seats[0].clone())
        .await
        .expect(StatusCode::OK);
    let other = api.first_legal(&table, 1).await;
    let body = send(other, table.seats[1].clone())
        .await
        .expect_error(StatusCode::UNPROCESSABLE_ENTITY, "rejected");
    assert_eq!(body["rule"], "idempotency.key_reused", "{body}");
    assert!(
        body["message"].as_str().unwrap().contains("turn-1"),
        "{body}"
    );
    assert_eq!(api.head(&table).await, 2);
}
