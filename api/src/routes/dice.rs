//! The route by which a seat adds its share to the dice (see
//! `Journal::share`): first the commitment, then, once every seat has
//! committed, the value behind it.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use tabletape_store::{Acted, Journal, ShareRequest};

use crate::request::{
    blocking, idempotency_key, writer, written, AppError, AsQuery, Bearer, ErrorBody, GameId,
    JsonBody, Live, Params,
};

/// Adds one step of a seat's share of the dice: its seat token, or the
/// owner's `as` the seat (a seat played at the owner's screen).
#[utoipa::path(
    post,
    path = "/games/{id}/dice",
    tag = "games",
    summary = "Add a seat's share to the dice: its commitment first, the value once every seat has committed",
    params(("id" = String, Path, description = "The game id (`g-3f9a1c2e`, or one the table chose)"), AsQuery, ("Idempotency-Key" = Option<String>, Header, description = "Retrying with the same key returns the first answer and stores nothing twice")),
    request_body = ShareRequest,
    responses((status = 201, description = "Added", body = Acted), (status = 200, description = "A retry: the original answer", body = Acted), (status = 400, description = "Malformed input: the field at fault is named", body = ErrorBody), (status = 401, description = "No token, where one is needed", body = ErrorBody), (status = 403, description = "A token that does not allow this", body = ErrorBody), (status = 404, description = "No such game or branch", body = ErrorBody), (status = 409, description = "`expect_seq` is stale: the branch moved on", body = ErrorBody), (status = 422, description = "Not a share that can be added: `rule` says why (`dice.closed`, `dice.waiting`, `dice.mismatch`, ...)", body = ErrorBody)),
    security(("bearer" = []))
)]
pub(crate) async fn share(
    State(journal): State<Journal>,
    State(live): State<Live>,
    GameId(id): GameId,
    bearer: Bearer,
    headers: HeaderMap,
    Params(q): Params<AsQuery>,
    JsonBody(mut body): JsonBody<ShareRequest>,
) -> Result<(StatusCode, Json<Acted>), AppError> {
    body.idempotency_key = idempotency_key(&headers, body.idempotency_key.take())?;
    let game = id.clone();
    let acted = blocking(move || {
        let access = writer(&journal, &id, &bearer, q.viewer.as_deref())?;
        Ok(journal.share(&id, body, access)?)
    })
    .await?;
    Ok(written(&live, &game, acted))
}
