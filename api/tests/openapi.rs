//! The OpenAPI document against the router it describes: every route the
//! code declares is in the document and every documented route answers;
//! then every documented operation is driven with the documented shapes,
//! and each answer's status is one the document lists, its body valid
//! against the schema the document gives for it.

use std::collections::BTreeSet;

use crate::common::{Api, ADMIN};
use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use serde_json::{json, Value};
use tower::ServiceExt;

/// The document as the server serves it.
async fn document(api: &Api) -> Value {
    api.get("/openapi.json", None)
        .await
        .expect(StatusCode::OK)
        .json()
}

/// Every `(METHOD, path)` the router's source declares with `.route(...)`,
/// in any file under `src`.
fn declared_routes() -> BTreeSet<(String, String)> {
    let mut routes = BTreeSet::new();
    let mut dirs = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                declared_in(&std::fs::read_to_string(path).unwrap(), &mut routes);
            }
        }
    }
    routes
}

/// The `(METHOD, path)` of each `.route(...)` call in one source file.
fn declared_in(text: &str, routes: &mut BTreeSet<(String, String)>) {
    let mut rest = text;
    while let Some(at) = rest.find(".route(") {
        rest = &rest[at + ".route(".len()..];
        // The call's arguments: up to the parenthesis that closes it.
        let mut depth = 1;
        let end = rest
            .char_indices()
            .find(|&(_, c)| {
                depth += match c {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
                depth == 0
            })
            .map(|(i, _)| i)
            .unwrap();
        let call = &rest[..end];
        let path = call.split('"').nth(1).unwrap().to_string();
        for method in ["get", "post", "put", "patch", "delete"] {
            let named = call
                .match_indices(&format!("{method}("))
                .any(|(i, _)| i == 0 || !call.as_bytes()[i - 1].is_ascii_alphanumeric());
            if named {
                routes.insert((method.to_uppercase(), path.clone()));
            }
        }
    }
}

fn documented_routes(doc: &Value) -> BTreeSet<(String, String)> {
    let mut routes = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            routes.insert((method.to_uppercase(), path.clone()));
        }
    }
    routes
}

#[tokio::test]
async fn every_route_is_documented_and_every_documented_route_exists() {
    let api = Api::new();
    let doc = document(&api).await;
    assert_eq!(doc["openapi"], "3.1.0");
    let declared = declared_routes();
    assert!(
        declared.len() > 20,
        "the source scan found the routes: {declared:?}"
    );
    let documented = documented_routes(&doc);
    let undocumented: Vec<_> = declared.difference(&documented).collect();
    let unrouted: Vec<_> = documented.difference(&declared).collect();
    assert!(
        undocumented.is_empty(),
        "routes without a description: {undocumented:?}"
    );
    assert!(
        unrouted.is_empty(),
        "descriptions without a route: {unrouted:?}"
    );
    // Seats are plain integers, not a schema named after a Rust type.
    assert!(doc["components"]["schemas"].get("u32").is_none());
    let schemes = &doc["components"]["securitySchemes"];
    assert_eq!(schemes["bearer"]["scheme"], "bearer");
    // The page for people names every route too.
    let page = api.get("/api", None).await.expect(StatusCode::OK).text();
    for (method, path) in &documented {
        assert!(
            page.contains(&format!("{method} {path}")),
            "/api lacks {method} {path}"
        );
    }
}

/// Checks `body` against the schema the document gives `operation` for
/// `status` (and the content type it names).
fn check_answer(
    doc: &Value,
    method: &str,
    path: &str,
    status: StatusCode,
    content_type: &str,
    body: &[u8],
) {
    let op = &doc["paths"][path][method.to_lowercase()];
    let answer = &op["responses"][status.as_str()];
    assert!(
        answer.is_object(),
        "{method} {path} answered {status}, which the document does not list: {}",
        String::from_utf8_lossy(body)
    );
    let Some(content) = answer["content"].as_object() else {
        return;
    };
    let media = content
        .keys()
        .find(|m| content_type.starts_with(m.as_str()));
    let media = media.unwrap_or_else(|| {
        panic!("{method} {path} {status}: content type {content_type} is not one of {content:?}")
    });
    let schema = &content[media]["schema"];
    if media != "application/json" || schema.is_null() {
        return;
    }
    let value: Value = serde_json::from_slice(body).expect("a JSON answer");
    let mut root = schema.clone();
    root["components"] = doc["components"].clone();
    let validator = jsonschema::validator_for(&root).expect("a valid schema");
    let problems: Vec<String> = validator
        .iter_errors(&value)
        .map(|e| format!("{e} at {}", e.instance_path))
        .collect();
    assert!(
        problems.is_empty(),
        "{method} {path} {status}: the answer does not fit its schema: {problems:?}\n{value}"
    );
}

#[tokio::test]
async fn every_documented_operation_answers_in_its_documented_shape() {
    let api = Api::new();
    let doc = document(&api).await;
    let table = api.create(json!({})).await;
    let id = table.id.as_str();
    api.play_one(&table).await;
    let other = api.create(json!({"seed": 8})).await;
    let export = api
        .get(&format!("/games/{}/export", other.id), Some(&other.owner))
        .await
        .expect(StatusCode::OK)
        .text();
    let legal = api
        .get(&format!("/games/{id}/legal"), Some(&table.owner))
        .await
        .expect(StatusCode::OK)
        .json();
    let action = legal[0]["action"].clone();
    let dice = api
        .create(json!({"kind": "ludovia", "players": ["Ada", "Bo", "Cy"]}))
        .await;

    let mut driven = BTreeSet::new();
    for (method, template) in documented_routes(&doc) {
        let mut path = template.replace("{id}", id);
        let (token, body, content_type): (Option<&str>, Option<String>, &str) =
            match (method.as_str(), template.as_str()) {
                ("GET", "/backup" | "/metrics") => (Some(ADMIN), None, ""),
                ("POST", "/games") => (
                    None,
                    Some(
                        json!({"kind": "ludovia", "players": ["Ada", "Bo", "Cy"], "seed": 3})
                            .to_string(),
                    ),
                    "application/json",
                ),
                ("POST", "/games/{id}/actions") => (
                    Some(&table.owner),
                    Some(json!({"action": action, "idempotency_key": "doc-1"}).to_string()),
                    "application/json",
                ),
                ("POST", "/games/{id}/branches") => (
                    Some(&table.owner),
                    Some(json!({"at": 1, "name": "what-if"}).to_string()),
                    "application/json",
                ),
                ("POST", "/games/{id}/undo") => (Some(&table.owner), None, ""),
                ("POST", "/games/{id}/rematch") => (Some(&table.owner), None, ""),
                // A game of chance with no action yet takes a seat's share.
                ("POST", "/games/{id}/dice") => {
                    path = template.replace("{id}", &dice.id);
                    (
                        Some(&dice.seats[0]),
                        Some(json!({"commitment": "ab".repeat(32)}).to_string()),
                        "application/json",
                    )
                }
                ("POST", "/games/{id}/notes") => (
                    Some(&table.seats[0]),
                    Some(json!({"at": 1, "title": "the opening", "text": "a note"}).to_string()),
                    "application/json",
                ),
                ("POST", "/games/{id}/names") => (
                    Some(&table.owner),
                    Some(json!({"title": "the game as played"}).to_string()),
                    "application/json",
                ),
                ("GET", "/games/{id}/compare") => {
                    path.push_str("?b=main");
                    (Some(&table.owner), None, "")
                }
                ("POST", "/games/import") => continue, // below, into a store without the game
                ("POST", "/qr") => (
                    None,
                    Some(json!({"text": "http://table/g/x"}).to_string()),
                    "application/json",
                ),
                ("POST", "/g/{id}/session") => (
                    None,
                    Some(format!("token={}", table.seats[0])),
                    "application/x-www-form-urlencoded",
                ),
                ("GET", _) => (Some(&table.owner), None, ""),
                (m, p) => panic!("no sample request for {m} {p}: add one"),
            };
        let mut request = Request::builder()
            .method(Method::from_bytes(method.as_bytes()).unwrap())
            .uri(&path);
        if let Some(token) = token {
            request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        if !content_type.is_empty() {
            request = request.header(header::CONTENT_TYPE, content_type);
        }
        let request = request
            .body(body.map_or_else(Body::empty, Body::from))
            .unwrap();
        if template.ends_with("/live") {
            // A stream that stays open: its status and type are the answer.
            let response = api.app.clone().oneshot(request).await.unwrap();
            let content_type = response.headers()[header::CONTENT_TYPE]
                .to_str()
                .unwrap()
                .to_string();
            check_answer(
                &doc,
                &method,
                &template,
                response.status(),
                &content_type,
                b"",
            );
            driven.insert((method, template));
            continue;
        }
        let reply = api.send(request).await;
        assert!(
            reply.status.is_success() || reply.status.is_redirection(),
            "{method} {path}: {} {}",
            reply.status,
            String::from_utf8_lossy(&reply.body)
        );
        check_answer(
            &doc,
            &method,
            &template,
            reply.status,
            reply.content_type(),
            &reply.body,
        );
        driven.insert((method, template));
    }

    // An import, by the admin, into a store that lacks the game.
    let fresh = Api::new();
    let reply = fresh
        .send(
            Request::builder()
                .method(Method::POST)
                .uri("/games/import")
                .header(header::AUTHORIZATION, format!("Bearer {ADMIN}"))
                .header(header::CONTENT_TYPE, "application/x-ndjson")
                .body(Body::from(export))
                .unwrap(),
        )
        .await
        .expect(StatusCode::CREATED);
    check_answer(
        &doc,
        "POST",
        "/games/import",
        reply.status,
        reply.content_type(),
        &reply.body,
    );
    driven.insert(("POST".into(), "/games/import".into()));
    assert_eq!(driven, documented_routes(&doc));

    // The check itself tells a wrong answer from a right one.
    let wrong = std::panic::catch_unwind(|| {
        let body = br#"{"seq": "two", "hash": 7}"#;
        check_answer(
            &doc,
            "POST",
            "/games/{id}/actions",
            StatusCode::CREATED,
            "application/json",
            body,
        )
    });
    assert!(
        wrong.is_err(),
        "an answer of the wrong shape passes the schema check"
    );

    // Errors have their documented shape too.
    for (method, path, reply) in [
        (
            "GET",
            "/games/{id}",
            api.get("/games/g-nosuch", Some(&table.owner)).await,
        ),
        (
            "GET",
            "/games/{id}/state",
            api.get(&format!("/games/{id}/state"), None).await,
        ),
        (
            "POST",
            "/games/{id}/actions",
            api.post(
                &format!("/games/{id}/actions"),
                Some(&table.owner),
                &json!({"action": {"type": "choose", "seat": 0, "maneuver": "Down Swing Bash"}}),
            )
            .await,
        ),
    ] {
        assert!(
            reply.status.is_client_error(),
            "{method} {path}: {}",
            reply.status
        );
        check_answer(
            &doc,
            method,
            path,
            reply.status,
            reply.content_type(),
            &reply.body,
        );
    }
}

/// The reference page's prose: quoted names set as code, everything escaped.
#[test]
fn quoted_words_are_code_and_everything_is_escaped() {
    use tabletape_api::openapi::prose;
    assert_eq!(
        prose("`rule` names <the> rule"),
        "<code>rule</code> names &lt;the&gt; rule"
    );
    assert_eq!(prose("a ` alone"), "a ` alone");
}

/// Every operation that reads a JSON body says what the server answers
/// before its handler runs: 413 for a body over the limit, 415 for one
/// not sent as JSON. And the server does answer 415, with the JSON error
/// the document names, to each of them sent plain text.
#[tokio::test]
async fn every_json_body_documents_and_answers_the_wrong_media_type() {
    let api = Api::new();
    let doc = document(&api).await;
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let content = &op["requestBody"]["content"];
            if content.is_null() {
                continue;
            }
            let answers = &op["responses"];
            assert!(
                answers.get("413").is_some(),
                "{method} {path}: no 413 documented"
            );
            if content.get("application/json").is_none() {
                continue;
            }
            assert_eq!(
                answers["415"]["content"]["application/json"]["schema"]["$ref"],
                "#/components/schemas/ErrorBody",
                "{method} {path}: no 415 documented"
            );
            // Path parameters filled with a plausible id; the media type is
            // refused before the id is looked at.
            let uri = path.replace("{id}", "g-none");
            let reply = api
                .send(
                    Request::builder()
                        .method(Method::from_bytes(method.to_uppercase().as_bytes()).unwrap())
                        .uri(&uri)
                        .header(header::AUTHORIZATION, format!("Bearer {ADMIN}"))
                        .header(header::CONTENT_TYPE, "text/plain")
                        .body(Body::from("not json"))
                        .unwrap(),
                )
                .await;
            assert_eq!(
                reply.status,
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "{method} {uri}"
            );
            assert_eq!(
                reply.json()["error"],
                "unsupported_media_type",
                "{method} {uri}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 7, "operations with a JSON body: {checked}");
}

/// What the document promises a generated request, the server keeps: a
/// whole number written as a float (`1.0`, as an OpenAPI `integer`
/// admits) is read as that number, a name parameter is never empty, a
/// write without a token is 401 whether or not the game exists, and the
/// web page's form answers a body that is no form with a page, as it
/// documents.
#[tokio::test]
async fn generated_requests_are_answered_as_the_document_says() {
    let api = Api::new();
    let table = api.create(json!({"seed": 7.0})).await;
    let action = api.first_legal(&table, 0).await;
    let uri = format!("/games/{}/actions", table.id);
    api.post(
        &uri,
        Some(&table.seats[0]),
        &json!({"action": action, "expect_seq": 1.0, "seat": 0.0}),
    )
    .await
    .expect(StatusCode::CREATED);
    let forked = api
        .post(
            &format!("/games/{}/branches", table.id),
            Some(&table.owner),
            &json!({"at": 1.0, "name": "what-if", "reseed": 3.0}),
        )
        .await
        .expect(StatusCode::CREATED)
        .json();
    assert_eq!(forked["fork_seq"], 1);
    api.post(
        &uri,
        Some(&table.seats[0]),
        &json!({"action": action, "expect_seq": 1.5}),
    )
    .await
    .expect(StatusCode::BAD_REQUEST);

    let doc = document(&api).await;
    let mut named = 0;
    for item in doc["paths"].as_object().unwrap().values() {
        for op in item.as_object().unwrap().values() {
            for p in op["parameters"].as_array().into_iter().flatten() {
                if matches!(p["name"].as_str(), Some("as" | "branch" | "format")) {
                    assert_eq!(p["schema"]["minLength"], 1, "{p}");
                    named += 1;
                }
            }
        }
    }
    assert!(named > 20, "name parameters: {named}");
    // A new game's players are as many as its kind seats.
    let tables = &doc["components"]["schemas"]["CreateBody"]["allOf"][1]["oneOf"];
    let legend = tables
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["properties"]["kind"]["enum"] == json!(["legend"]))
        .expect("LEGEND's table");
    assert_eq!(legend["properties"]["players"]["minItems"], 3, "{legend}");
    assert_eq!(legend["properties"]["players"]["maxItems"], 4, "{legend}");
    assert_eq!(tables.as_array().unwrap().len(), 5, "{tables}");
    // A seed is any u64, as the server reads it.
    let seed = &doc["components"]["schemas"]["CreateBody"]["allOf"][0]["properties"]["seed"];
    assert_eq!(seed["maximum"], json!(u64::MAX), "{seed}");
    assert!(seed.get("format").is_none(), "{seed}");
    api.create(json!({"seed": u64::MAX})).await;

    for game in ["g-none", table.id.as_str()] {
        let uri = format!("/games/{game}/notes");
        let reply = api
            .post(&uri, None, &json!({"at": 1, "text": "here"}))
            .await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{game}");
    }

    let reply = api
        .send(
            Request::builder()
                .method(Method::POST)
                .uri(format!("/g/{}/session", table.id))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(reply.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert!(reply.headers[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let session = &doc["paths"]["/g/{id}/session"]["post"]["responses"]["415"];
    assert!(session["content"]["text/html"].is_object(), "{session}");
}

/// Where the document bounds a field, it bounds it as the server does: a
/// player's name the document's pattern admits is one the server seats,
/// and one it refuses the server refuses (a control character anywhere,
/// the showing one in the middle included); and a whole number written as
/// a float is read as exactly that number, however large (here a stale
/// expected seq, so a 409, not a 400 for a number read half a unit off).
#[tokio::test]
async fn a_field_the_document_bounds_is_bounded_as_the_server_bounds_it() {
    let api = Api::new();
    let doc = document(&api).await;
    let name = &doc["components"]["schemas"]["CreateBody"]["allOf"][1]["oneOf"][0]["properties"]
        ["players"]["items"];
    let admits = jsonschema::validator_for(name).expect("the name schema compiles");
    let names = [
        "Nowa",
        "Grimbold the Grey",
        "l\u{f7}\u{95}A",
        "\u{95}",
        "a\u{85}b",
        "x\u{2028}",
        "tab\there",
        " ",
        "",
        "\u{1F3FB}",
        " spaced ",
    ];
    for (i, player) in names.iter().enumerate() {
        let body = json!({"kind": "lostworlds", "players": [player, format!("other {i}")]});
        let reply = api.post("/games", None, &body).await;
        assert_eq!(
            reply.status == StatusCode::CREATED,
            admits.is_valid(&json!(player)),
            "{player:?}: the server answered {}",
            reply.status
        );
    }

    let table = api.create(json!({})).await;
    let action = api.first_legal(&table, 0).await;
    let stale = api
        .post(
            &format!("/games/{}/actions", table.id),
            Some(&table.seats[0]),
            &json!({"action": action, "expect_seq": 3751574608985258.0_f64}),
        )
        .await
        .expect_error(StatusCode::CONFLICT, "conflict");
    assert_eq!(stale["expected"], 3751574608985258_u64, "{stale}");
}

/// A client that follows the document's links from a new game reaches
/// every operation on that game, from a fork every operation that takes a
/// branch, and from a new event every read at a seq; followed with the ids
/// a real answer gives, each read finds what it names.
#[tokio::test]
async fn links_lead_from_a_new_game_and_a_fork_to_every_operation_on_them() {
    let api = Api::new();
    let doc = document(&api).await;
    // operation id -> (method, path, whether it takes a branch)
    let mut ops = std::collections::BTreeMap::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let Some(id) = op["operationId"].as_str() else {
                continue;
            };
            let branch = op["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|p| p["name"] == "branch" && p["in"] == "query");
            ops.insert(id.to_string(), (method.clone(), path.clone(), branch));
        }
    }
    let links_of = |path: &str| {
        doc["paths"][path]["post"]["responses"]["201"]["links"]
            .as_object()
            .cloned()
            .unwrap_or_default()
    };
    let on_a_game: BTreeSet<&String> = ops
        .iter()
        .filter(|(_, (_, path, _))| path.contains("{id}"))
        .map(|(id, _)| id)
        .collect();
    let from_game = links_of("/games");
    assert_eq!(from_game.keys().collect::<BTreeSet<_>>(), on_a_game);
    let rematch = links_of("/games/{id}/rematch");
    assert_eq!(
        rematch.len() + 1,
        on_a_game.len(),
        "a rematch links all but itself"
    );
    let taking_a_branch: BTreeSet<&String> = on_a_game
        .iter()
        .copied()
        .filter(|id| ops[*id].2 && id.as_str() != "fork")
        .collect();
    let from_fork = links_of("/games/{id}/branches");
    assert_eq!(from_fork.keys().collect::<BTreeSet<_>>(), taking_a_branch);
    // Each names its target as the specification spells it.
    for (name, link) in from_game.iter().chain(&rematch).chain(&from_fork) {
        assert_eq!(link["operationId"], name.as_str(), "{link}");
    }
    assert!(taking_a_branch.len() >= 8, "{taking_a_branch:?}");

    // Followed from real answers: every read the links reach finds the new
    // game, and the fork on it.
    let table = api.create(json!({})).await;
    let created = json!({"game": table.id});
    let forked = api
        .post(
            &format!("/games/{}/branches", table.id),
            Some(&table.owner),
            &json!({"at": 1, "name": "linked"}),
        )
        .await
        .expect(StatusCode::CREATED)
        .json();
    let mut followed = 0;
    for (links, answer, request_id) in [
        (&from_game, &created, None),
        (&from_fork, &forked, Some(&table.id)),
    ] {
        for (target, link) in links {
            let (method, path, _) = &ops[target];
            // Reads only; the live stream never ends, so it is not waited on.
            if method != "get" || target == "live" {
                continue;
            }
            let value = |expr: &str| -> String {
                match expr.strip_prefix("$response.body#") {
                    Some(pointer) => answer
                        .pointer(pointer)
                        .and_then(Value::as_str)
                        .unwrap()
                        .to_string(),
                    None => {
                        assert_eq!(expr, "$request.path.id");
                        request_id.unwrap().clone()
                    }
                }
            };
            let params = link["parameters"].as_object().unwrap();
            let mut uri = path.replace("{id}", &value(params["id"].as_str().unwrap()));
            if let Some(branch) = params.get("branch") {
                uri = format!("{uri}?branch={}", value(branch.as_str().unwrap()));
            }
            let reply = api.get(&uri, Some(&table.owner)).await;
            assert_ne!(
                reply.status,
                StatusCode::NOT_FOUND,
                "{target} at {uri}: {}",
                reply.text()
            );
            followed += 1;
        }
    }
    assert!(followed >= 20, "{followed} links followed");

    // A new event's seq leads to every read at a seq, which answers at it.
    let from_event = links_of("/games/{id}/actions");
    for read in ["state", "replay", "events", "board"] {
        assert!(from_event.contains_key(read), "{read}: {from_event:?}");
    }
    for source in ["/games/{id}/notes", "/games/{id}/dice"] {
        let keys: BTreeSet<String> = links_of(source).keys().cloned().collect();
        assert_eq!(keys, from_event.keys().cloned().collect(), "{source}");
    }
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
    for (target, link) in &from_event {
        let (method, path, _) = &ops[target];
        assert_eq!(method, "get", "{target}");
        let params = link["parameters"].as_object().unwrap();
        assert_eq!(params["id"], "$request.path.id", "{link}");
        let (name, expr) = params.iter().find(|(k, _)| *k != "id").unwrap();
        assert_eq!(expr, "$response.body#/seq", "{link}");
        let uri = format!(
            "{}?{name}={}",
            path.replace("{id}", &table.id),
            acted["seq"]
        );
        let reply = api
            .get(&uri, Some(&table.owner))
            .await
            .expect(StatusCode::OK);
        if target == "state" {
            assert_eq!(reply.json()["seq"], acted["seq"]);
        }
    }
}
