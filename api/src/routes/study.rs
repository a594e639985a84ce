//! The routes for studying a game: notes and bookmarks, branch names, two
//! lines compared. (The story with its variations is `narrative?variations=true`.)

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::Deserialize;
use tabletape_store::{Acted, Comparison, Journal, NameRequest, NoteRequest};

use crate::request::{
    blocking, idempotency_key, read_access, viewer_for, writer, written, AppError, AsQuery, Bearer,
    ErrorBody, GameId, JsonBody, Live, Params,
};

/// Writes a note or bookmark on a moment of a branch (see
/// `Journal::note`): the owner, or a seat; the owner writes `as` a seat
/// to write in its name.
#[utoipa::path(
    post,
    path = "/games/{id}/notes",
    tag = "games",
    summary = "Write a note (or, with a title, a bookmark) on a moment of a branch",
    params(("id" = String, Path, description = "The game id (`g-3f9a1c2e`, or one the table chose)"), AsQuery, ("Idempotency-Key" = Option<String>, Header, description = "Retrying with the same key returns the first answer and stores nothing twice")),
    request_body = NoteRequest,
    responses((status = 201, description = "Written", body = Acted), (status = 200, description = "A retry: the original answer", body = Acted), (status = 400, description = "Malformed input: the field at fault is named", body = ErrorBody), (status = 401, description = "No token, where one is needed", body = ErrorBody), (status = 403, description = "A token that does not allow this", body = ErrorBody), (status = 404, description = "No such game, branch or seq", body = ErrorBody), (status = 409, description = "`expect_seq` is stale: the branch moved on", body = ErrorBody), (status = 422, description = "Not a note that can be written: `rule` says why (`note.at`, `note.empty`, ...)", body = ErrorBody)),
    security(("bearer" = []))
)]
pub(crate) async fn note(
    State(journal): State<Journal>,
    State(live): State<Live>,
    GameId(id): GameId,
    bearer: Bearer,
    headers: HeaderMap,
    Params(q): Params<AsQuery>,
    JsonBody(mut body): JsonBody<NoteRequest>,
) -> Result<(StatusCode, Json<Acted>), AppError> {
    body.idempotency_key = idempotency_key(&headers, body.idempotency_key.take())?;
    let game = id.clone();
    let acted = blocking(move || {
        let access = writer(&journal, &id, &bearer, q.viewer.as_deref())?;
        Ok(journal.note(&id, body, access)?)
    })
    .await?;
    Ok(written(&live, &game, acted))
}

/// Names a branch and says what it is about (see `Journal::name_branch`).
#[utoipa::path(
    post,
    path = "/games/{id}/names",
    tag = "games",
    summary = "Give a branch a title and a description (the last one given counts)",
    params(("id" = String, Path, description = "The game id (`g-3f9a1c2e`, or one the table chose)"), AsQuery),
    request_body = NameRequest,
    responses((status = 201, description = "Named", body = Acted), (status = 400, description = "Malformed input: the field at fault is named", body = ErrorBody), (status = 401, description = "No token, where one is needed", body = ErrorBody), (status = 403, description = "A token that does not allow this", body = ErrorBody), (status = 404, description = "No such game, branch or seq", body = ErrorBody), (status = 422, description = "Not a name that can be given: `rule` says why", body = ErrorBody)),
    security(("bearer" = []))
)]
pub(crate) async fn name(
    State(journal): State<Journal>,
    State(live): State<Live>,
    GameId(id): GameId,
    bearer: Bearer,
    Params(q): Params<AsQuery>,
    JsonBody(body): JsonBody<NameRequest>,
) -> Result<(StatusCode, Json<Acted>), AppError> {
    let game = id.clone();
    let acted = blocking(move || {
        let access = writer(&journal, &id, &bearer, q.viewer.as_deref())?;
        Ok(journal.name_branch(&id, body, access)?)
    })
    .await?;
    Ok(written(&live, &game, acted))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct CompareQuery {
    /// One line (default: the game's current line).
    a: Option<String>,
    /// The other line.
    b: String,
    #[serde(rename = "as")]
    viewer: Option<String>,
}

/// Two lines side by side (see `Journal::compare`).
#[utoipa::path(
    get,
    path = "/games/{id}/compare",
    tag = "games",
    summary = "Compare two lines of a game: where they part, each one's story and outcome, and how their states differ",
    params(("id" = String, Path, description = "The game id (`g-3f9a1c2e`, or one the table chose)"), CompareQuery),
    responses((status = 200, description = "The comparison", body = Comparison), (status = 400, description = "Malformed input: the field at fault is named", body = ErrorBody), (status = 401, description = "No token, where one is needed", body = ErrorBody), (status = 403, description = "A token that does not allow this", body = ErrorBody), (status = 404, description = "No such game or branch", body = ErrorBody)),
    security((), ("bearer" = []))
)]
pub(crate) async fn compare(
    State(journal): State<Journal>,
    GameId(id): GameId,
    bearer: Bearer,
    Params(q): Params<CompareQuery>,
) -> Result<Json<Comparison>, AppError> {
    blocking(move || {
        let access = read_access(&journal, &id, &bearer)?;
        let viewer = viewer_for(&journal, &id, access, q.viewer.as_deref())?;
        let a = journal.line(&id, q.a)?;
        Ok(Json(journal.compare(&id, &a, &q.b, viewer)?))
    })
    .await
}
