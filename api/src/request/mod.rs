//! What every handler shares to take a request and answer it: the state it
//! may reach ([`AppState`]: the journal, the operator, the bell), the
//! extractors (`extract`), who the caller is (`auth`), the one error type
//! and its rendering, with the body limits (`error`), and [`blocking`], which
//! runs journal work off the async workers.
//!
//! Handlers (`crate::routes`) import from here and from no other handler;
//! nothing here imports a handler.

pub mod auth;
mod error;
pub mod extract;
mod state;

use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use tabletape_store::Acted;

pub(crate) use auth::{
    acting_seat, admin_only, is_admin, read_access, viewer_for, write_access, writer,
};
pub(crate) use error::{too_large_message, ErrorBody};
pub use error::{AppError, BODY_LIMIT_BYTES, IMPORT_LIMIT_BYTES};
pub(crate) use extract::{cookie_name, idempotency_key, Bearer, GameId, JsonBody, Params};
pub(crate) use state::{AppState, Live};

/// Runs journal work on the blocking pool: sled reads and fsyncs must not
/// stall the async workers.
pub(crate) async fn blocking<T, F>(work: F) -> Result<T, AppError>
where
    T: Send + 'static,
    F: FnOnce() -> Result<T, AppError> + Send + 'static,
{
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|err| AppError::Internal(format!("journal task failed: {err}")))?
}

/// The `as` parameter alone, for reads that take no other.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct AsQuery {
    #[serde(rename = "as")]
    pub(crate) viewer: Option<String>,
}

/// A write's answer: 201 and a ring of the game's bell, or 200 for a retry.
pub(crate) fn written(live: &Live, game: &str, acted: Acted) -> (StatusCode, Json<Acted>) {
    if acted.retried {
        (StatusCode::OK, Json(acted))
    } else {
        live.ring(game);
        (StatusCode::CREATED, Json(acted))
    }
}
