//! A game's lines over HTTP: forks (with and without a reseed, by the owner
//! and by a seat), taking back the last action, and the notes, names,
//! comparisons and variations a table keeps on them.

use crate::common::Api;
use axum::http::StatusCode;
use serde_json::json;

#[tokio::test]
async fn forks_with_and_without_reseed() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    api.play_one(&table).await;
    api.play_one(&table).await;
    let uri = format!("/games/{}/branches", table.id);

    // The owner may inherit the parent's dice (a seat's fork never does:
    // see adversary.rs).
    let plain = api
        .post(
            &uri,
            Some(&table.owner),
            &json!({"at": 2, "name": "what-if"}),
        )
        .await
        .expect(StatusCode::CREATED)
        .json();
    assert_eq!(plain["name"], "what-if");
    assert_eq!(plain["parent"], "main");
    assert_eq!(plain["fork_seq"], 2);
    assert_eq!(plain["seq"], 2);
    assert_eq!(plain["narration"], json!([]));

    let reseeded = api
        .post(&uri, Some(&table.owner), &json!({"at": 1, "reseed": 99}))
        .await
        .expect(StatusCode::CREATED)
        .json();
    let name = reseeded["name"].as_str().unwrap().to_string();
    assert_eq!(reseeded["reseed"], 99);
    assert_eq!(reseeded["seq"], 2, "a reseed is the fork's first own event");
    assert_eq!(
        reseeded["narration"].as_array().unwrap().len(),
        1,
        "{reseeded}"
    );

    let branches = api
        .get(&uri, Some(&table.owner))
        .await
        .expect(StatusCode::OK)
        .json();
    let names: Vec<&str> = branches
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 3);
    assert!(
        names.contains(&"main") && names.contains(&"what-if") && names.contains(&name.as_str())
    );

    // The plain fork shares main's history up to the fork and plays on by itself.
    let main_events = api
        .get(
            &format!("/games/{}/events?to=2", table.id),
            Some(&table.owner),
        )
        .await
        .expect(StatusCode::OK)
        .json();
    let fork_events = api
        .get(
            &format!("/games/{}/events?branch=what-if", table.id),
            Some(&table.owner),
        )
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(main_events[1]["hash"], fork_events[1]["hash"]);
    let on_fork = api.play_one_on(&table, "what-if").await;
    assert_eq!(on_fork["seq"], 3);
    assert_eq!(
        api.head(&table).await,
        3,
        "playing on a fork leaves main alone"
    );
    let fork_events = api
        .get(
            &format!("/games/{}/events?branch=what-if", table.id),
            Some(&table.owner),
        )
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(fork_events[2]["hash"], on_fork["hash"]);
    assert_eq!(fork_events[2]["prev_hash"], main_events[1]["hash"]);
    let state = api
        .get(
            &format!("/games/{}/state?branch={name}", table.id),
            Some(&table.owner),
        )
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(state["seq"], 2);

    api.post(&uri, Some(&table.owner), &json!({"at": 9}))
        .await
        .expect_error(StatusCode::NOT_FOUND, "not_found");
    api.post(
        &uri,
        Some(&table.owner),
        &json!({"at": 1, "name": "what-if"}),
    )
    .await
    .expect_unfit("branch.name");
    api.post(&uri, None, &json!({"at": 1}))
        .await
        .expect_error(StatusCode::UNAUTHORIZED, "unauthorized");
}

#[tokio::test]
async fn undo_takes_back_the_last_action_and_reads_follow_the_current_line() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    api.play_one(&table).await;
    api.play_one(&table).await;
    let uri = |rest: &str| format!("/games/{}{rest}", table.id);
    // Only the seat that recorded it (or the owner) may take it back.
    let last_actor = api.get(&uri("/events"), Some(&table.owner)).await.json()[2]["actor"].clone();
    let other = if last_actor == json!({"seat": 0}) {
        1
    } else {
        0
    };
    api.post(&uri("/undo"), Some(&table.seats[other]), &json!({}))
        .await
        .expect_error(StatusCode::FORBIDDEN, "forbidden");
    let undone = api
        .post(&uri("/undo"), Some(&table.owner), &json!({}))
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(undone["seq"], 3);
    assert_eq!(undone["taken_back"], "main");
    let line = undone["current"].as_str().unwrap().to_string();
    // Without a branch, reads and writes follow the current line.
    let state = api
        .get(&uri("/state"), Some(&table.owner))
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(state["branch"], line.as_str());
    assert_eq!(state["seq"], 2);
    let summary = api.get(&uri(""), Some(&table.seats[0])).await.json();
    assert_eq!(summary["current"], line.as_str());
    let acted = api.play_one_on(&table, &line).await;
    assert_eq!(acted["seq"], 3);
    let branches = api.get(&uri("/branches"), Some(&table.owner)).await.json();
    assert_eq!(branches[0]["taken_back"], true, "{branches}");
    assert_eq!(branches[1]["taken_back"], false, "{branches}");
}

#[tokio::test]
async fn notes_names_comparisons_and_variations_over_http() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    let id = &table.id;
    for _ in 0..4 {
        api.play_one(&table).await;
    }
    // A seat writes a bookmark; a note on a moment not yet recorded is a
    // 422 naming the rule, and the public may not write at all.
    let reply = api
        .post(
            &format!("/games/{id}/notes"),
            Some(&table.seats[1]),
            &json!({"at": 3, "title": "the turning point", "text": "Grim closes in"}),
        )
        .await
        .expect(StatusCode::CREATED)
        .json();
    assert_eq!(
        reply["narration"][0],
        "Bookmark by Grim on seq 3, \"the turning point\": Grim closes in"
    );
    let head = reply["seq"].as_u64().unwrap();
    let refused = api
        .post(
            &format!("/games/{id}/notes"),
            Some(&table.owner),
            &json!({"at": head + 1, "text": "too soon"}),
        )
        .await
        .expect(StatusCode::UNPROCESSABLE_ENTITY)
        .json();
    assert_eq!(refused["rule"], "note.at", "{refused}");
    api.post(
        &format!("/games/{id}/notes"),
        None,
        &json!({"at": 2, "text": "hi"}),
    )
    .await
    .expect(StatusCode::UNAUTHORIZED);
    let unknown = api
        .post(
            &format!("/games/{id}/notes"),
            Some(&table.owner),
            &json!({"at": 2, "txt": "typo"}),
        )
        .await
        .expect(StatusCode::BAD_REQUEST)
        .text();
    assert!(unknown.contains("txt"), "{unknown}");

    // A fork, played on and named; then the two lines compared.
    api.post(
        &format!("/games/{id}/branches"),
        Some(&table.owner),
        &json!({"at": 3, "name": "what-if"}),
    )
    .await
    .expect(StatusCode::CREATED);
    // Both fighters choose, so the exchange is told.
    api.play_one_on(&table, "what-if").await;
    api.play_one_on(&table, "what-if").await;
    api.post(
        &format!("/games/{id}/names"),
        Some(&table.seats[0]),
        &json!({"branch": "what-if", "title": "Nowa waits", "description": "What if?"}),
    )
    .await
    .expect(StatusCode::CREATED);
    let compared = api
        .get(
            &format!("/games/{id}/compare?a=main&b=what-if"),
            Some(&table.seats[0]),
        )
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(compared["common_seq"], 3, "{compared}");
    assert_eq!(compared["parts_at"], 4, "{compared}");
    assert_eq!(compared["b"]["title"], "Nowa waits");
    assert!(!compared["b"]["story"].as_array().unwrap().is_empty());
    let branches = api
        .get(&format!("/games/{id}/branches"), Some(&table.seats[0]))
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(branches[0]["notes"][0]["title"], "the turning point");
    assert_eq!(branches[1]["title"], "Nowa waits");
    assert_eq!(branches[1]["description"], "What if?");

    // The story with its variations: an aside a reader opens, in HTML.
    let html = api
        .get(
            &format!("/games/{id}/narrative?format=html&variations=true"),
            Some(&table.owner),
        )
        .await
        .expect(StatusCode::OK)
        .text();
    assert!(
        html.contains("<details class=\"variation\"><summary>Variation at seq 3: Nowa waits (branch what-if)</summary>"),
        "{html}"
    );
    assert!(html.contains("<aside class=\"note\""), "{html}");
    let plain = api
        .get(
            &format!("/games/{id}/narrative?format=html"),
            Some(&table.owner),
        )
        .await
        .expect(StatusCode::OK)
        .text();
    assert!(
        !plain.contains("<details class=\"variation\""),
        "variations only when asked"
    );
}
