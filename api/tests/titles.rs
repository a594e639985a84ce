//! A game's title: given at creation, shown in its summary, the listing,
//! the page and the story, kept through export and import, and refused
//! (naming `title`, nothing written) when it is not one short line.

use crate::common::{Api, ADMIN};
use axum::http::StatusCode;
use serde_json::json;

#[tokio::test]
async fn a_title_is_kept_and_shown_everywhere() {
    let api = Api::new();
    let table = api.create(json!({"title": "  Friday duel  "})).await;
    let summary = api
        .get(&format!("/games/{}", table.id), Some(&table.owner))
        .await
        .expect(StatusCode::OK)
        .json();
    assert_eq!(summary["title"], "Friday duel", "trimmed");
    let listed = api.get("/games", Some(ADMIN)).await.json();
    assert_eq!(listed["games"][0]["title"], "Friday duel");
    let story = api
        .get(
            &format!("/games/{}/narrative?format=json", table.id),
            Some(&table.owner),
        )
        .await
        .json();
    assert!(
        story["title"].as_str().unwrap().starts_with("Friday duel"),
        "{story}"
    );

    // Export, then import into another store: the title comes along.
    let exported = api
        .get(&format!("/games/{}/export", table.id), Some(&table.owner))
        .await
        .expect(StatusCode::OK)
        .body;
    let other = Api::new();
    let imported = other
        .import(exported)
        .await
        .expect(StatusCode::CREATED)
        .json();
    let summary = other
        .get(
            &format!("/games/{}", imported["game"].as_str().unwrap()),
            Some(ADMIN),
        )
        .await;
    let summary = if summary.status == StatusCode::OK {
        summary.json()
    } else {
        let owner = imported["owner_token"].as_str().unwrap().to_string();
        other
            .get(
                &format!("/games/{}", imported["game"].as_str().unwrap()),
                Some(&owner),
            )
            .await
            .expect(StatusCode::OK)
            .json()
    };
    assert_eq!(summary["title"], "Friday duel");
}

#[tokio::test]
async fn a_bad_title_is_refused_by_name_and_nothing_is_written() {
    let api = Api::new();
    for bad in [
        json!(""),
        json!("   "),
        json!("a\nb"),
        json!("x".repeat(121)),
    ] {
        let reply = api
            .post(
                "/games",
                None,
                &json!({"kind": "lostworlds", "players": ["A", "B"], "title": bad}),
            )
            .await;
        let body = reply.expect_error(StatusCode::BAD_REQUEST, "bad_request");
        assert!(
            body["message"].as_str().unwrap().starts_with("title:"),
            "{body}"
        );
    }
    let listed = api.get("/games", Some(ADMIN)).await.json();
    assert_eq!(listed["games"], json!([]));
    // 120 characters is fine.
    api.create(json!({"title": "x".repeat(120)})).await;
}
