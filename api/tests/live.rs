//! The live stream: every accepted action reaches each follower at once,
//! shaped for that follower, and a reconnect with `Last-Event-ID` resumes
//! without a gap.

use std::time::Duration;

use crate::common::{request, Api, Table};
use axum::body::Body;
use axum::http::{header, Method, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

/// An open stream and what has been read of it.
struct Stream {
    body: Body,
    text: String,
}

impl Stream {
    async fn open(api: &Api, table: &Table, token: &str, last: Option<u64>) -> Stream {
        let mut req = request(
            Method::GET,
            &format!("/games/{}/live", table.id),
            Some(token),
        );
        if let Some(last) = last {
            req = req.header("last-event-id", last.to_string());
        }
        let response = api
            .app
            .clone()
            .oneshot(req.body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(
            response.headers()[header::CONTENT_TYPE],
            "text/event-stream"
        );
        Stream {
            body: response.into_body(),
            text: String::new(),
        }
    }

    /// The next event's data, within two seconds.
    async fn next(&mut self) -> Value {
        loop {
            if let Some(end) = self.text.find("\n\n") {
                let block: String = self.text.drain(..end + 2).collect();
                if let Some(data) = block.lines().find_map(|l| l.strip_prefix("data: ")) {
                    return serde_json::from_str(data).unwrap();
                }
                continue; // a keep-alive comment
            }
            let frame = tokio::time::timeout(Duration::from_secs(2), self.body.frame())
                .await
                .expect("an event within two seconds")
                .expect("the stream is open")
                .unwrap();
            if let Ok(data) = frame.into_data() {
                self.text.push_str(std::str::from_utf8(&data).unwrap());
            }
        }
    }
}

async fn act(api: &Api, table: &Table, seat: usize, action: Value) {
    api.post(
        &format!("/games/{}/actions", table.id),
        Some(&table.seats[seat]),
        &json!({ "action": action }),
    )
    .await
    .expect(StatusCode::CREATED);
}

#[tokio::test]
async fn each_follower_gets_each_action_at_once_as_it_may_see_it() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    let mut bo = Stream::open(&api, &table, &table.seats[1], None).await;
    let mut owner = Stream::open(&api, &table, &table.owner, None).await;
    let choice = api.first_legal(&table, 0).await;
    let maneuver = choice["maneuver"].as_str().unwrap().to_string();
    act(&api, &table, 0, choice).await;
    let seen_by_bo = bo.next().await;
    let seen_by_owner = owner.next().await;
    assert_eq!(seen_by_bo["seq"], 2);
    assert_eq!(seen_by_owner["seq"], 2);
    assert!(
        !seen_by_bo.to_string().contains(&maneuver),
        "Bo must not see Nowa's pending choice: {seen_by_bo}"
    );
    assert!(seen_by_owner.to_string().contains(&maneuver));
    // A choice tells nothing but, being the first, the fight's opening.
    assert!(seen_by_bo["narration"].to_string().contains("plays Nowa"));
}

#[tokio::test]
async fn a_reconnect_with_last_event_id_resumes_without_a_gap() {
    let api = Api::new();
    let table = api.create(json!({})).await;
    for _ in 0..3 {
        api.play_one(&table).await;
    }
    // Missed seqs 3 and 4 while away; they come first, then the new one.
    let mut again = Stream::open(&api, &table, &table.seats[0], Some(2)).await;
    assert_eq!(again.next().await["seq"], 3);
    assert_eq!(again.next().await["seq"], 4);
    api.play_one(&table).await;
    assert_eq!(again.next().await["seq"], 5);
    // A bad Last-Event-ID is a JSON 400.
    let bad = api
        .send(
            request(
                Method::GET,
                &format!("/games/{}/live", table.id),
                Some(&table.owner),
            )
            .header("last-event-id", "yesterday")
            .body(Body::empty())
            .unwrap(),
        )
        .await;
    bad.expect_error(StatusCode::BAD_REQUEST, "bad_request");
}
