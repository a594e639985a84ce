//! The handlers, one module per part of the API, and the table of their
//! routes.
//!
//! A handler module imports the shared request helpers (`crate::request`)
//! and the low-level modules (`telemetry`), never another handler module.
//! Only this table names them all (and `openapi`, which describes them).

pub(crate) mod dice;
pub(crate) mod games;
pub(crate) mod live;
pub(crate) mod server;
pub(crate) mod study;
pub mod web;

use axum::extract::DefaultBodyLimit;
use axum::http::Uri;
use axum::routing::{get, post};
use axum::Router;

use crate::request::{AppError, AppState, IMPORT_LIMIT_BYTES};

/// Every route of the API proper, before the journal is attached (`lib.rs`
/// adds `/metrics`, the OpenAPI document and the web pages).
pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(server::healthz))
        .route("/kinds", get(server::kinds))
        .route("/games", get(games::list_games).post(games::create_game))
        .route(
            "/games/import",
            post(games::import).layer(DefaultBodyLimit::max(IMPORT_LIMIT_BYTES)),
        )
        .route("/games/{id}", get(games::summary))
        .route("/games/{id}/legal", get(games::legal))
        .route("/games/{id}/actions", post(games::act))
        .route("/games/{id}/events", get(games::events))
        .route("/games/{id}/state", get(games::state))
        .route("/games/{id}/board.svg", get(games::board))
        .route("/games/{id}/live", get(live::live))
        .route("/games/{id}/undo", post(games::undo))
        .route("/games/{id}/rematch", post(games::rematch))
        .route("/games/{id}/seats", get(games::seat_links))
        .route("/games/{id}/replay", get(games::replay))
        .route(
            "/games/{id}/branches",
            get(games::branches).post(games::fork),
        )
        .route("/games/{id}/narrative", get(games::narrative))
        .route("/games/{id}/dice", post(dice::share))
        .route("/games/{id}/notes", post(study::note))
        .route("/games/{id}/names", post(study::name))
        .route("/games/{id}/compare", get(study::compare))
        .route("/games/{id}/export", get(games::export))
        .route("/games/{id}/verify", get(games::verify))
        .route("/backup", get(server::backup))
        .fallback(no_route)
        .method_not_allowed_fallback(wrong_method)
}

async fn no_route(uri: Uri) -> AppError {
    AppError::NotFound(format!("no route {}", uri.path()))
}

async fn wrong_method(uri: Uri) -> AppError {
    AppError::MethodNotAllowed(format!("{} does not take this method", uri.path()))
}
