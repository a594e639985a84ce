//! The routes of the server and its store: whether it is up, the kinds it
//! knows, and the admin's backup and metrics.

use axum::extract::State;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use tabletape_engine::KindInfo;
use tabletape_store::Journal;

use crate::request::{admin_only, blocking, AppError, Bearer, ErrorBody};
use crate::telemetry;

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub(crate) struct Health {
    status: &'static str,
    version: &'static str,
}

#[utoipa::path(
    get,
    path = "/healthz",
    tag = "server",
    summary = "Whether the server is up and its store answers, and its version",
    responses((status = 200, description = "Up", body = Health), (status = 503, description = "The store does not answer (its database is down)", body = Health)),
    security((), ("bearer" = []))
)]
pub(crate) async fn healthz(State(journal): State<Journal>) -> (StatusCode, Json<Health>) {
    let up = tokio::task::spawn_blocking(move || journal.log().healthy())
        .await
        .is_ok_and(|answer| answer.is_ok());
    let status = if up { "ok" } else { "unavailable" };
    let health = Json(Health {
        status,
        version: env!("CARGO_PKG_VERSION"),
    });
    if up {
        (StatusCode::OK, health)
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, health)
    }
}

#[utoipa::path(
    get,
    path = "/kinds",
    tag = "server",
    summary = "The rule sets this build knows, with their options and words",
    responses((status = 200, description = "Every kind", body = Vec<KindInfo>)),
    security((), ("bearer" = []))
)]
pub(crate) async fn kinds() -> Json<Vec<KindInfo>> {
    Json(tabletape_engine::kinds().iter().map(|k| k.info()).collect())
}

/// Every game of the store as one JSON Lines backup (see `Journal::backup`),
/// for the admin; safe while the store is served.
#[utoipa::path(
    get,
    path = "/backup",
    tag = "server",
    summary = "Every game with its tokens' hashes, as JSON Lines; the admin's",
    responses((status = 200, description = "The backup", body = String, content_type = "application/x-ndjson"), (status = 401, description = "No token, where one is needed", body = ErrorBody), (status = 403, description = "A token that does not allow this", body = ErrorBody)),
    security((), ("bearer" = []))
)]
pub(crate) async fn backup(
    State(journal): State<Journal>,
    bearer: Bearer,
) -> Result<Response, AppError> {
    let lines = blocking(move || {
        admin_only(&journal, &bearer, "a backup")?;
        let mut lines = Vec::new();
        journal.backup(&mut lines)?;
        Ok(lines)
    })
    .await?;
    Ok((
        [
            (
                CONTENT_TYPE,
                HeaderValue::from_static("application/x-ndjson"),
            ),
            (
                CONTENT_DISPOSITION,
                HeaderValue::from_static("attachment; filename=\"tabletape-backup.jsonl\""),
            ),
        ],
        lines,
    )
        .into_response())
}

/// `GET /metrics`: every metric in the Prometheus text format, for the
/// store's admin.
#[utoipa::path(
    get,
    path = "/metrics",
    tag = "server",
    summary = "Metrics in the Prometheus text format; the admin's",
    responses((status = 200, description = "Prometheus text", body = String, content_type = "text/plain"), (status = 401, description = "No token, where one is needed", body = ErrorBody), (status = 403, description = "A token that does not allow this", body = ErrorBody)),
    security((), ("bearer" = []))
)]
pub(crate) async fn metrics_text(
    State(journal): State<Journal>,
    bearer: Bearer,
) -> Result<Response, AppError> {
    let cached = blocking(move || {
        admin_only(&journal, &bearer, "reading the metrics")?;
        Ok(journal.cached_folds())
    })
    .await?;
    let Some(text) = telemetry::render(cached) else {
        return Err(AppError::Internal(
            "metrics are off: another recorder was installed in this process".into(),
        ));
    };
    Ok((
        [(CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
        text,
    )
        .into_response())
}
