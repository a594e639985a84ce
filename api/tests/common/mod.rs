//! The test harness shared by the API's test files: one API over a
//! temporary store, driven with `oneshot`, and the games made through it.

#![allow(dead_code)]

use axum::body::Body;
use axum::http::{header, HeaderMap, Method, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tabletape_api::app;
use tabletape_store::Journal;
use tempfile::TempDir;
use tower::ServiceExt;

/// The admin token of every test store.
pub const ADMIN: &str = "test-admin-token-0123456789abcdef";

/// One API over its own temporary store.
pub struct Api {
    pub app: Router,
    pub dir: TempDir,
}

/// A response, read whole.
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    pub fn text(&self) -> String {
        String::from_utf8(self.body.clone()).expect("UTF-8 body")
    }

    pub fn content_type(&self) -> &str {
        self.headers
            .get(header::CONTENT_TYPE)
            .map(|v| v.to_str().unwrap())
            .unwrap_or("")
    }

    /// Asserts the status, printing the body when it differs.
    pub fn expect(self, status: StatusCode) -> Reply {
        assert_eq!(
            self.status,
            status,
            "unexpected status; body: {}",
            String::from_utf8_lossy(&self.body)
        );
        self
    }

    /// Asserts a JSON error response with this status and code.
    pub fn expect_error(self, status: StatusCode, code: &str) -> Value {
        let reply = self.expect(status);
        assert!(
            reply.content_type().starts_with("application/json"),
            "{}",
            reply.content_type()
        );
        let body = reply.json();
        assert_eq!(body["error"], code, "{body}");
        assert!(!body["message"].as_str().unwrap().is_empty(), "{body}");
        body
    }

    /// Asserts a 422 for well-formed input whose content `rule` rules out.
    pub fn expect_unfit(self, rule: &str) -> Value {
        let body = self.expect_error(StatusCode::UNPROCESSABLE_ENTITY, "unfit");
        assert_eq!(body["rule"], rule, "{body}");
        body
    }
}

/// A game created through the API, with its tokens.
pub struct Table {
    pub id: String,
    pub owner: String,
    pub seats: Vec<String>,
}

impl Api {
    pub fn new() -> Api {
        let dir = TempDir::new().unwrap();
        let journal = Journal::open(&dir.path().join("store")).unwrap();
        journal.set_admin_token(ADMIN).unwrap();
        Api {
            app: app(journal),
            dir,
        }
    }

    /// An API with a store operator (as `tabletape serve` runs it), and the
    /// operator's token.
    pub fn with_operator() -> (Api, String) {
        let dir = TempDir::new().unwrap();
        let journal = Journal::open(&dir.path().join("store")).unwrap();
        journal.set_admin_token(ADMIN).unwrap();
        let (operator, token) = tabletape_api::Operator::draw().unwrap();
        let api = Api {
            app: tabletape_api::app_with_operator(journal, operator),
            dir,
        };
        (api, token)
    }

    pub async fn send(&self, request: Request<Body>) -> Reply {
        let response = self.app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let body = response
            .into_body()
            .collect()
            .await
            .unwrap()
            .to_bytes()
            .to_vec();
        Reply {
            status,
            headers,
            body,
        }
    }

    pub async fn get(&self, uri: &str, token: Option<&str>) -> Reply {
        self.send(
            request(Method::GET, uri, token)
                .body(Body::empty())
                .unwrap(),
        )
        .await
    }

    pub async fn post(&self, uri: &str, token: Option<&str>, body: &Value) -> Reply {
        self.send(
            request(Method::POST, uri, token)
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body.to_string()))
                .unwrap(),
        )
        .await
    }

    pub async fn create(&self, extra: Value) -> Table {
        let mut body = json!({"kind": "lostworlds", "players": ["Nowa", "Grim"], "seed": 7});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        let reply = self
            .post("/games", None, &body)
            .await
            .expect(StatusCode::CREATED);
        let created = reply.json();
        let id = created["game"].as_str().unwrap().to_string();
        assert_eq!(
            reply.headers.get(header::LOCATION).unwrap(),
            &format!("/games/{id}")
        );
        Table {
            id,
            owner: created["owner_token"].as_str().unwrap().to_string(),
            seats: created["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["token"].as_str().unwrap().to_string())
                .collect(),
        }
    }

    /// The first action open to `seat` now, asked with that seat's token.
    pub async fn first_legal(&self, table: &Table, seat: usize) -> Value {
        let uri = format!("/games/{}/legal", table.id);
        let legal = self
            .get(&uri, Some(&table.seats[seat]))
            .await
            .expect(StatusCode::OK)
            .json();
        let legal = legal.as_array().unwrap();
        assert!(!legal.is_empty(), "seat {seat} has no legal action");
        // A seat's token asks for that seat's actions only.
        assert!(
            legal.iter().all(|l| l["action"]["seat"] == seat),
            "{legal:?}"
        );
        legal[0]["action"].clone()
    }

    /// Plays the first legal action of whichever seat can act on `main`, as that seat.
    pub async fn play_one(&self, table: &Table) -> Value {
        self.play_one_on(table, "main").await
    }

    /// Plays the first legal action of whichever seat can act on `branch`.
    pub async fn play_one_on(&self, table: &Table, branch: &str) -> Value {
        for (seat, token) in table.seats.iter().enumerate() {
            let uri = format!("/games/{}/legal?branch={branch}", table.id);
            let legal = self
                .get(&uri, Some(token))
                .await
                .expect(StatusCode::OK)
                .json();
            if let Some(first) = legal.as_array().unwrap().first() {
                let action = json!({"action": first["action"], "branch": branch, "seat": seat});
                return self
                    .post(
                        &format!("/games/{}/actions", table.id),
                        Some(token),
                        &action,
                    )
                    .await
                    .expect(StatusCode::CREATED)
                    .json();
            }
        }
        panic!("no seat can act on {branch}");
    }

    pub async fn import(&self, ndjson: Vec<u8>) -> Reply {
        self.import_as(ndjson, Some(ADMIN)).await
    }

    pub async fn import_as(&self, ndjson: Vec<u8>, token: Option<&str>) -> Reply {
        let req = request(Method::POST, "/games/import", token)
            .header(header::CONTENT_TYPE, "application/x-ndjson")
            .body(Body::from(ndjson))
            .unwrap();
        self.send(req).await
    }

    pub async fn head(&self, table: &Table) -> u64 {
        let events = self
            .get(&format!("/games/{}/events", table.id), Some(&table.owner))
            .await
            .expect(StatusCode::OK)
            .json();
        let events = events.as_array().unwrap();
        let last = events.last().unwrap()["seq"].as_u64().unwrap();
        assert_eq!(last, events.len() as u64, "events are gap-free from seq 1");
        last
    }
}

pub fn request(method: Method, uri: &str, token: Option<&str>) -> axum::http::request::Builder {
    let builder = Request::builder().method(method).uri(uri);
    match token {
        Some(token) => builder.header(header::AUTHORIZATION, format!("Bearer {token}")),
        None => builder,
    }
}
