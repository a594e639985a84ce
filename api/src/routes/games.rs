//! The routes of a game and its handlers: list and create games, read one
//! (summary, legal actions, events, state, board, replay, branches, story),
//! act, take back, fork, export, import and verify.
//!
//! Each handler reads its path, query and body, then does all of its journal
//! work (the token check included) in one trip to the blocking pool. Reads
//! default to the `main` branch. Writes answer 201 with the new seq and the
//! narration of what happened; a retried action (same idempotency key) answers
//! 200 with the original receipt.
//!
//! Every read (`GET /games/{id}` and its `legal`, `events`, `state`,
//! `replay`, `branches`, `narrative`, `export` and `verify`) and a fork
//! (`POST /games/{id}/branches`) take an `as` query parameter: `owner`,
//! `public` or a seat number, the viewer the answer is shaped for. Only the
//! owner's token (or the store operator's) may name any viewer; a seat's
//! token may name its own seat or `public` (another seat or `owner` is a
//! 403), and no token only `public` (else a 401). Left out, the caller's own
//! view. `legal?as=public` is empty: the public may not act.

use std::collections::BTreeMap;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::http::header::{
    CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_SECURITY_POLICY, CONTENT_TYPE, LOCATION,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tabletape_engine::{Format, LegalAction, Viewer};
use tabletape_events::{DiceMode, Seat};
use tabletape_store::{
    ActRequest, Acted, BranchInfo, Created, GameSummary, GamesPage, Imported, Journal,
    JournalError, Listing, NewGame, PackSource, ReplayStep, SeatToken, ShownEvent, StateView,
    Undone, VerifyReport, GAMES_PAGE_MAX,
};

use crate::request::{
    acting_seat, admin_only, blocking, idempotency_key, is_admin, read_access, too_large_message,
    viewer_for, write_access, writer, AppError, AsQuery, Bearer, ErrorBody, GameId, JsonBody, Live,
    Params,
};

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct ListQuery {
    /// List the games with ids after this one (the `next` of the page before).
    after: Option<String>,
    limit: Option<usize>,
}

/// A page of the public games and the games the caller's token opens (every
/// game for the admin), read from stored records (no game is folded).
#[utoipa::path(
    get,
    path = "/games",
    tag = "games",
    summary = "A page of the games the caller may read",
    params(ListQuery),
    responses((status = 200, description = "One page; `next` names the next", body = GamesPage), (status = 400, description = "Malformed input: the field at fault is named", body = ErrorBody)),
    security((), ("bearer" = []))
)]
pub(crate) async fn list_games(
    State(journal): State<Journal>,
    bearer: Bearer,
    Params(q): Params<ListQuery>,
) -> Result<Json<GamesPage>, AppError> {
    blocking(move || {
        let listing = if is_admin(&journal, &bearer)? {
            Listing::Everything
        } else {
            Listing::For {
                token: bearer.token(),
            }
        };
        let limit = q.limit.unwrap_or(GAMES_PAGE_MAX);
        Ok(Json(journal.list_games(
            listing,
            q.after.as_deref(),
            limit,
        )?))
    })
    .await
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"kind": "lostworlds", "players": ["Nowa", "Grimbold"], "title": "The duel at the ford"}))]
pub(crate) struct CreateBody {
    kind: String,
    players: Vec<String>,
    #[serde(default, deserialize_with = "tabletape_store::whole::optional")]
    seed: Option<u64>,
    #[serde(default)]
    #[schema(value_type = tabletape_store::schema_doc::DiceModeSchema)]
    dice: DiceMode,
    #[serde(default)]
    options: BTreeMap<String, Value>,
    /// A table's own content pack, laid over the kind's bundled one (`"whole": true`
    /// reads it alone, `"whole": ["board", ...]` takes just those keys as given; see
    /// `tabletape pack`).
    pack: Option<Value>,
    /// The file name the pack's errors should name (defaults to `pack`).
    pack_name: Option<String>,
    #[serde(default)]
    public: bool,
    /// The table's name for the game.
    title: Option<String>,
    /// The game id the table chooses; a random one when left out.
    id: Option<String>,
}

#[utoipa::path(
    post,
    path = "/games",
    tag = "games",
    summary = "Start a game: seats the players, returns the owner's and each seat's token",
    request_body = CreateBody,
    responses((status = 201, description = "Created; `Location` names the game", body = Created), (status = 400, description = "Malformed input: the field at fault is named", body = ErrorBody), (status = 413, description = "The body is over the size limit", body = ErrorBody), (status = 422, description = "Against the rules: `rule` names the rule", body = ErrorBody)),
    security((), ("bearer" = []))
)]
pub(crate) async fn create_game(
    State(journal): State<Journal>,
    JsonBody(body): JsonBody<CreateBody>,
) -> Result<Response, AppError> {
    let req = NewGame {
        id: body.id,
        title: body.title,
        kind: body.kind,
        players: body.players,
        seed: body.seed,
        dice: body.dice,
        options: body.options,
        pack: body.pack.map(|json| PackSource {
            file: body.pack_name.unwrap_or_else(|| "pack".to_string()),
            json,
        }),
        public: body.public,
    };
    let created: Created = blocking(move || Ok(journal.create(req)?)).await?;
    created_response(created)
}

/// A new game's answer: 201, its address, and the tokens (shown only here).
fn created_response(created: Created) -> Result<Response, AppError> {
    let location = HeaderValue::from_str(&format!("/games/{}", created.game))
        .map_err(|err| AppError::Internal(format!("game id is not a header value: {err}")))?;
    Ok((StatusCode::CREATED, [(LOCATION, location)], Json(created)).into_response())
}

/// The same game again, for the owner: same players, options, dice and
/// content, a fresh seed and fresh tokens (answered as a creation is).
#[utoipa::path(
    post,
    path = "/games/{id}/rematch",
    tag = "games",
    summary = "Start the same game again: same players, options, dice and pack; new seed and tokens",
    params(("id" = String, Path, description = "The game id (`g-3f9a1c2e`, or one the table chose)")),
    responses((status = 201, description = "Created; `Location` names the new game", body = Created), (status = 401, description = "No token, where one is needed", body = ErrorBody), (status = 403, description = "A token that does not allow this", body = ErrorBody), (status = 404, description = "No such game, branch or seq", body = ErrorBody)),
    security(("bearer" = []))
)]
pub(crate) async fn rematch(
    State(journal): State<Journal>,
    GameId(id): GameId,
    bearer: Bearer,
) -> Result<Response, AppError> {
    let created: Created = blocking(move || {
        let access = write_access(&journal, &id, &bearer)?;
        Ok(journal.rematch(&id, access)?)
    })
    .await?;
    created_response(created)
}

/// Each seat's link token again, for the owner's token only (on any device:
/// they are drawn from it), so the join links and QR codes are not only in
/// the browser that started the game.
#[utoipa::path(
    get,
    path = "/games/{id}/seats",
    tag = "games",
    summary = "Each seat's token, to the owner's token only: the join links on any device",
    params(("id" = String, Path, description = "The game id (`g-3f9a1c2e`, or one the table chose)")),
    responses((status = 200, description = "Each seat's player and token", body = [SeatToken]), (status = 401, description = "No token, where one is needed", body = ErrorBody), (status = 403, description = "A token that does not allow this", body = ErrorBody), (status = 404, description = "No such game, or one started before its links could be given again", body = ErrorBody)),
    security(("bearer" = []))
)]
pub(crate) async fn seat_links(
    State(journal): State<Journal>,
    GameId(id): GameId,
    bearer: Bearer,
) -> Result<Response, AppError> {
    let seats = blocking(move || {
        let Some(token) = bearer.token() else {
            return Err(AppError::Unauthorized(format!(
                "the seats' links of game {id} are given only to its owner's token"
            )));
        };
        Ok(journal.seat_links(&id, token)?)
    })
    .await?;
    Ok((
        [(CACHE_CONTROL, HeaderValue::from_static("no-store"))],
        Json(seats),
    )
        .into_response())
}

/// One game's summary, as the caller may know it: the seed is the owner's
/// until the game is over; everyone sees the commitment to it.
#[utoipa::path(
    get,
    path = "/games/{id}",
    tag = "games",
    summary = "One game's summary as the caller may know it",
    params(("id" = String, Path, description = "The game id (`g-3f9a1c2e`, or one the table chose)"), AsQuery),
    responses((status = 200, description = "The summary", body = GameSummary), (status = 400, description = "Malformed input: the field at fault is named", body = ErrorBody), (status = 401, description = "No token, where one is needed", body = ErrorBody), (status = 403, description = "A token that does not allow this", body = ErrorBody), (status = 404, description = "No such game, branch or seq", body = ErrorBody)),
    security((), ("bearer" = []))
)]
pub(crate) async fn summary(
    State(journal): State<Journal>,
    GameId(id): GameId,
    bearer: Bearer,
    Params(q): Params<AsQuery>,
) -> Result<Json<GameSummary>, AppError> {
    blocking(move || {
        let access = read_access(&journal, &id, &bearer)?;
        let viewer = viewer_for(&journal, &id, access, q.viewer.as_deref())?;
        Ok(Json(journal.summary(&id, viewer)?))
    })
    .await
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct LegalQuery {
    #[param(value_type = Option<u32>)]
    seat: Option<Seat>,
    branch: Option<String>,
    #[serde(rename = "as")]
    viewer: Option<String>,
}

/// The actions open now. Legal moves are for those who can make them: the
/// owner (for any seat, or the whole table) and each seat (for itself).
/// `as` a seat is that seat's actions; `as=public` none, once the branch is
/// known.
#[utoipa::path(
    get,
    path = "/games/{id}/legal",
    tag = "games",
    summary = "The actions open now, ready to submit once `needs` is met",
    params(("id" = String, Path, description = "The game id (`g-3f9a1c2e`, or one the table chose)"), LegalQuery),
    responses((status = 200, description = "Each action open now", body = Vec<LegalAction>), (status = 400, description = "Malformed input: the field at fault is named", body = ErrorBody), (status = 401, description = "No token, where one is needed", body = ErrorBody), (status = 403, description = "A token that does not allow this", body = ErrorBody), (status = 404, description = "No such game, branch or seq", body = ErrorBody)),
    security((), ("bearer" = []))
)]
pub(crate) async fn legal(
    State(journal): State<Journal>,
    GameId(id): GameId,
    bearer: Bearer,
    Params(q): Params<LegalQuery>,
) -> Result<Json<Vec<LegalAction>>, AppError> {
    blocking(move || {
        let access = write_access(&journal, &id, &bearer)?;
        let branch = journal.line(&id, q.branch)?;
        let asked = match q.viewer.as_deref() {
            None => q.seat,
            Some(viewer) => match viewer_for(&journal, &id, access, Some(viewer))? {
                Viewer::Owner => q.seat,
                Viewer::Seat(seat) => match q.seat {
                    Some(other) if other != seat => {
                        return Err(AppError::BadRequest(format!(
                            "`seat` ({other}) and `as` ({seat}) name different seats"
                        )))
                    }
                    _ => Some(seat),
                },
                Viewer::Public => {
                    journal.state(&id, &branch, None, Viewer::Public)?;
                    return Ok(Json(Vec::new()));
                }
            },
        };
        let (_, seat) = acting_seat(&access, asked)?;
        Ok(Json(journal.legal(&id, &branch, seat)?))
    })
    .await
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"action": {"type": "choose", "seat": 0, "page": 50}, "expect_seq": 1}))]
pub(crate) struct ActBody {
    action: Value,
    #[schema(value_type = Option<u32>)]
    #[serde(default, deserialize_with = "tabletape_store::whole::optional_seat")]
    seat: Option<Seat>,
    branch: Option<String>,
    #[serde(default, deserialize_with = "tabletape_store::whole::optional")]
    expect_seq: Option<u64>,
    idempotency_key: Option<String>,
}

#[utoipa::path(
    post,
    path = "/games/{id}/actions",
    tag = "games",
    summary = "Record an action (checked against the rules first; a refused one writes nothing)",
    params(("id" = String, Path, description = "The game id (`g-3f9a1c2e`, or one the table chose)"), ("Idempotency-Key" = Option<String>, Header, description = "Retrying with the same key returns the first answer and stores nothing twice")),
    request_body = ActBody,
    responses((status = 201, description = "Recorded", body = Acted), (status = 200, description = "A retry: the original answer", body = Acted), (status = 400, description = "Malformed input: the field at fault is named", body = ErrorBody), (status = 401, description = "No token, where one is needed", body = ErrorBody), (status = 403, description = "A token that does not allow this", body = ErrorBody), (status = 404, description = "No such game, branch or seq", body = ErrorBody), (status = 409, description = "`expect_seq` is stale: the branch moved on", body = ErrorBody), (status = 413, description = "The body is over the size limit", body = ErrorBody), (status = 422, description = "Against the rules: `rule` names the rule", body = ErrorBody)),
    security((), ("bearer" = []))
)]
pub(crate) async fn act(
    State(journal): State<Journal>,
    State(live): State<Live>,
    GameId(id): GameId,
    bearer: Bearer,
    headers: HeaderMap,
    JsonBody(body): JsonBody<ActBody>,
) -> Result<(StatusCode, Json<Acted>), AppError> {
    let idempotency_key = idempotency_key(&headers, body.idempotency_key)?;
    let game = id.clone();
    let acted = blocking(move || {
        let access = write_access(&journal, &id, &bearer)?;
        let (actor, by) = acting_seat(&access, body.seat)?;
        let req = ActRequest {
            branch: journal.line(&id, body.branch)?,
            actor,
            by,
            action: body.action,
            expect_seq: body.expect_seq,
            idempotency_key,
        };
        Ok(journal.act(&id, req)?)
    })
    .await?;
    let status = if acted.retried {
        StatusCode::OK
    } else {
        live.ring(&game);
        StatusCode::CREATED
    };
    Ok((status, Json(acted)))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct EventsQuery {
    branch: Option<String>,
    from: Option<u64>,
    to: Option<u64>,
    #[serde(rename = "as")]
    viewer: Option<String>,
}

#[utoipa::path(
    get,
    path = "/games/{id}/events",
    tag = "games",
    summary = "A branch's events as the viewer may see them, with the seal of every part",
    params(("id" = String, Path, description = "The game id (`g-3f9a1c2e`, or one the table chose)"), EventsQuery),
    responses((status = 200, description = "The events, in seq order", body = Vec<ShownEvent>), (status = 400, description = "Malformed input: the field at fault is named", body = ErrorBody), (status = 401, description = "No token, where one is needed", body = ErrorBody), (status = 403, description = "A token that does not allow this", body = ErrorBody), (status = 404, description = "No such game, branch or seq", body = ErrorBody)),
    security((), ("bearer" = []))
)]
pub(crate) async fn events(
    State(journal): State<Journal>,
    GameId(id): GameId,
    bearer: Bearer,
    Params(q): Params<EventsQuery>,
) -> Result<Json<Vec<ShownEvent>>, AppError> {
    blocking(move || {
        let access = read_access(&journal, &id, &bearer)?;
        let viewer = viewer_for(&journal, &id, access, q.viewer.as_deref())?;
        let from = q.from.unwrap_or(1);
        if let Some(to) = q.to {
            if to < from {
                return Err(AppError::unfit(
                    "events.range",
                    format!("`to` ({to}) is before `from` ({from})"),
                ));
            }
        }
        Ok(Json(journal.events_as(
            &id,
            &journal.line(&id, q.branch)?,
            from,
            q.to,
            viewer,
        )?))
    })
    .await
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct StateQuery {
    at: Option<u64>,
    branch: Option<String>,
    #[serde(rename = "as")]
    viewer: Option<String>,
}

#[utoipa::path(
    get,
    path = "/games/{id}/state",
    tag = "games",
    summary = "The state now or at an earlier seq",
    params(("id" = String, Path, description = "The game id (`g-3f9a1c2e`, or one the table chose)"), StateQuery),
    responses((status = 200, description = "The state as the viewer may see it", body = StateView), (status = 400, description = "Malformed input: the field at fault is named", body = ErrorBody), (status = 401, description = "No token, where one is needed", body = ErrorBody), (status = 403, description = "A token that does not allow this", body = ErrorBody), (status = 404, description = "No such game, branch or seq", body = ErrorBody)),
    security((), ("bearer" = []))
)]
pub(crate) async fn state(
    State(journal): State<Journal>,
    GameId(id): GameId,
    bearer: Bearer,
    Params(q): Params<StateQuery>,
) -> Result<Json<StateView>, AppError> {
    blocking(move || {
        let access = read_access(&journal, &id, &bearer)?;
        let viewer = viewer_for(&journal, &id, access, q.viewer.as_deref())?;
        Ok(Json(journal.state(
            &id,
            &journal.line(&id, q.branch)?,
            q.at,
            viewer,
        )?))
    })
    .await
}

/// The board drawn as SVG for the caller (see `Rules::render_svg`): what
/// the web page shows. Text in it comes from the table and is escaped; the
/// response also forbids scripts, should a drawing ever carry one.
#[utoipa::path(
    get,
    path = "/games/{id}/board.svg",
    tag = "games",
    summary = "The board drawn for the viewer",
    params(("id" = String, Path, description = "The game id (`g-3f9a1c2e`, or one the table chose)"), StateQuery),
    responses((status = 200, description = "An SVG drawing", body = String, content_type = "image/svg+xml"), (status = 400, description = "Malformed input: the field at fault is named", body = ErrorBody), (status = 401, description = "No token, where one is needed", body = ErrorBody), (status = 403, description = "A token that does not allow this", body = ErrorBody), (status = 404, description = "No such game, branch or seq", body = ErrorBody)),
    security((), ("bearer" = []))
)]
pub(crate) async fn board(
    State(journal): State<Journal>,
    GameId(id): GameId,
    bearer: Bearer,
    Params(q): Params<StateQuery>,
) -> Result<Response, AppError> {
    let svg = blocking(move || {
        let access = read_access(&journal, &id, &bearer)?;
        let viewer = viewer_for(&journal, &id, access, q.viewer.as_deref())?;
        Ok(journal.board_svg(&id, &journal.line(&id, q.branch)?, q.at, viewer)?)
    })
    .await?;
    Ok((
        [
            (CONTENT_TYPE, HeaderValue::from_static("image/svg+xml")),
            (
                CONTENT_SECURITY_POLICY,
                HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'"),
            ),
        ],
        svg,
    )
        .into_response())
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct ReplayQuery {
    to: Option<u64>,
    branch: Option<String>,
    #[serde(rename = "as")]
    viewer: Option<String>,
}

#[utoipa::path(
    get,
    path = "/games/{id}/replay",
    tag = "games",
    summary = "Step through a branch: each event's narration and what it changed",
    params(("id" = String, Path, description = "The game id (`g-3f9a1c2e`, or one the table chose)"), ReplayQuery),
    responses((status = 200, description = "Each step", body = Vec<ReplayStep>), (status = 400, description = "Malformed input: the field at fault is named", body = ErrorBody), (status = 401, description = "No token, where one is needed", body = ErrorBody), (status = 403, description = "A token that does not allow this", body = ErrorBody), (status = 404, description = "No such game, branch or seq", body = ErrorBody)),
    security((), ("bearer" = []))
)]
pub(crate) async fn replay(
    State(journal): State<Journal>,
    GameId(id): GameId,
    bearer: Bearer,
    Params(q): Params<ReplayQuery>,
) -> Result<Json<Vec<ReplayStep>>, AppError> {
    blocking(move || {
        let access = read_access(&journal, &id, &bearer)?;
        let viewer = viewer_for(&journal, &id, access, q.viewer.as_deref())?;
        Ok(Json(journal.replay(
            &id,
            &journal.line(&id, q.branch)?,
            q.to,
            viewer,
        )?))
    })
    .await
}

#[utoipa::path(
    get,
    path = "/games/{id}/branches",
    tag = "games",
    summary = "The branch tree",
    params(("id" = String, Path, description = "The game id (`g-3f9a1c2e`, or one the table chose)"), AsQuery),
    responses((status = 200, description = "Every branch", body = Vec<BranchInfo>), (status = 400, description = "Malformed input: the field at fault is named", body = ErrorBody), (status = 401, description = "No token, where one is needed", body = ErrorBody), (status = 403, description = "A token that does not allow this", body = ErrorBody), (status = 404, description = "No such game, branch or seq", body = ErrorBody)),
    security((), ("bearer" = []))
)]
pub(crate) async fn branches(
    State(journal): State<Journal>,
    GameId(id): GameId,
    bearer: Bearer,
    Params(q): Params<AsQuery>,
) -> Result<Json<Vec<BranchInfo>>, AppError> {
    blocking(move || {
        let access = read_access(&journal, &id, &bearer)?;
        let viewer = viewer_for(&journal, &id, access, q.viewer.as_deref())?;
        Ok(Json(journal.branches_as(&id, viewer)?))
    })
    .await
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"at": 1, "name": "what-if"}))]
pub(crate) struct ForkBody {
    #[serde(deserialize_with = "tabletape_store::whole::number")]
    at: u64,
    from: Option<String>,
    name: Option<String>,
    #[serde(default, deserialize_with = "tabletape_store::whole::optional")]
    reseed: Option<u64>,
}

/// A new branch, its head seq and the narration of its own first events
/// (a reseed tells that fate changes).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub(crate) struct Forked {
    #[serde(flatten)]
    branch: BranchInfo,
    seq: u64,
    narration: Vec<String>,
}

/// Forking is open to every token holder: exploring "what if" changes nothing
/// on the branch forked from. A seat's fork never inherits the dice to come
/// (see `Journal::fork`); the owner forking `as` a seat makes that seat's
/// fork.
#[utoipa::path(
    post,
    path = "/games/{id}/branches",
    tag = "games",
    summary = "Fork a branch at a seq: a what-if line sharing the history up to it",
    params(("id" = String, Path, description = "The game id (`g-3f9a1c2e`, or one the table chose)"), AsQuery),
    request_body = ForkBody,
    responses((status = 201, description = "Forked", body = Forked), (status = 400, description = "Malformed input: the field at fault is named", body = ErrorBody), (status = 401, description = "No token, where one is needed", body = ErrorBody), (status = 403, description = "A token that does not allow this", body = ErrorBody), (status = 404, description = "No such game, branch or seq", body = ErrorBody), (status = 422, description = "Against the rules: `rule` names the rule", body = ErrorBody)),
    security((), ("bearer" = []))
)]
pub(crate) async fn fork(
    State(journal): State<Journal>,
    State(live): State<Live>,
    GameId(id): GameId,
    bearer: Bearer,
    Params(q): Params<AsQuery>,
    JsonBody(body): JsonBody<ForkBody>,
) -> Result<(StatusCode, Json<Forked>), AppError> {
    let game = id.clone();
    let forked = blocking(move || {
        let access = writer(&journal, &id, &bearer, q.viewer.as_deref())?;
        let from = journal.line(&id, body.from)?;
        let branch = journal.fork(
            &id,
            &from,
            body.at,
            body.name.as_deref(),
            body.reseed,
            access,
        )?;
        let narration = journal.narrate_since(&id, &branch.name, body.at, access.viewer())?;
        Ok(Forked {
            seq: branch.head_seq,
            branch,
            narration,
        })
    })
    .await?;
    live.ring(&game);
    Ok((StatusCode::CREATED, Json(forked)))
}

/// Takes back the last event of the game's current line (see
/// `Journal::undo`): the owner, or the seat that recorded it.
#[utoipa::path(
    post,
    path = "/games/{id}/undo",
    tag = "games",
    summary = "Take back the last event of the current line (nothing is deleted)",
    params(("id" = String, Path, description = "The game id (`g-3f9a1c2e`, or one the table chose)")),
    responses((status = 200, description = "Taken back", body = Undone), (status = 400, description = "Malformed input: the field at fault is named", body = ErrorBody), (status = 401, description = "No token, where one is needed", body = ErrorBody), (status = 403, description = "A token that does not allow this", body = ErrorBody), (status = 404, description = "No such game, branch or seq", body = ErrorBody), (status = 409, description = "The line moved on while it was being taken back: nothing was taken back; look again", body = ErrorBody), (status = 422, description = "Against the rules: `rule` names the rule", body = ErrorBody)),
    security((), ("bearer" = []))
)]
pub(crate) async fn undo(
    State(journal): State<Journal>,
    State(live): State<Live>,
    GameId(id): GameId,
    bearer: Bearer,
) -> Result<Json<Undone>, AppError> {
    let game = id.clone();
    let undone = blocking(move || {
        let access = write_access(&journal, &id, &bearer)?;
        Ok(journal.undo(&id, access)?)
    })
    .await?;
    live.ring(&game);
    Ok(Json(undone))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct NarrativeQuery {
    #[param(value_type = Option<NarrativeFormat>, inline)]
    format: Option<String>,
    branch: Option<String>,
    /// The story's title as the table names it now.
    title: Option<String>,
    /// Tell every other line of the game as a variation beside the moment
    /// it parts from this one.
    variations: Option<bool>,
    #[serde(rename = "as")]
    viewer: Option<String>,
}

/// The formats a story is told in, as `format` names them (the engine's
/// `Format` reads these words).
#[allow(dead_code)] // named for the document only
#[derive(utoipa::ToSchema)]
#[schema(rename_all = "lowercase")]
enum NarrativeFormat {
    Md,
    Markdown,
    Txt,
    Text,
    Html,
    Json,
}

#[utoipa::path(
    get,
    path = "/games/{id}/narrative",
    tag = "games",
    summary = "The game told as a story",
    params(("id" = String, Path, description = "The game id (`g-3f9a1c2e`, or one the table chose)"), NarrativeQuery),
    responses((status = 200, description = "Markdown, text, HTML, or the chapters as JSON (`format=json`)", content((tabletape_engine::Narrative = "application/json"), (String = "text/markdown"), (String = "text/plain"), (String = "text/html"))), (status = 400, description = "Malformed input: the field at fault is named", body = ErrorBody), (status = 401, description = "No token, where one is needed", body = ErrorBody), (status = 403, description = "A token that does not allow this", body = ErrorBody), (status = 404, description = "No such game, branch or seq", body = ErrorBody)),
    security((), ("bearer" = []))
)]
pub(crate) async fn narrative(
    State(journal): State<Journal>,
    GameId(id): GameId,
    bearer: Bearer,
    Params(q): Params<NarrativeQuery>,
) -> Result<Response, AppError> {
    let format: Format = q
        .format
        .as_deref()
        .unwrap_or("md")
        .parse()
        .map_err(AppError::BadRequest)?;
    let title = q
        .title
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty());
    let mut story = blocking(move || {
        let access = read_access(&journal, &id, &bearer)?;
        let viewer = viewer_for(&journal, &id, access, q.viewer.as_deref())?;
        let branch = journal.line(&id, q.branch)?;
        if q.variations.unwrap_or(false) {
            return Ok(journal.narrate_with_variations(&id, &branch, viewer)?);
        }
        Ok(journal.narrate_as(&id, &branch, viewer)?)
    })
    .await?;
    if let Some(title) = title {
        story.title = title;
    }
    if format == Format::Json {
        return Ok(Json(story).into_response());
    }
    let content_type = match format {
        Format::Markdown => "text/markdown; charset=utf-8",
        Format::Html => "text/html; charset=utf-8",
        Format::Text | Format::Json => "text/plain; charset=utf-8",
    };
    Ok(([(CONTENT_TYPE, content_type)], story.render(format)).into_response())
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct ExportQuery {
    branch: Option<String>,
    #[serde(rename = "as")]
    viewer: Option<String>,
    /// `jsonl` (the log, the default), or a finished game as one play:
    /// `bgstats` (BG Stats' import file) or `bgg` (BoardGameGeek's play XML).
    #[param(inline)]
    format: Option<PlayFormat>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum PlayFormat {
    Jsonl,
    Bgstats,
    Bgg,
}

/// A finished game's line as one play: to a seat, only once the game (its
/// line in play) is over, as for the log itself.
fn play_of(
    journal: &Journal,
    id: &str,
    branch: Option<String>,
    viewer: Viewer,
) -> Result<crate::plays::Play, JournalError> {
    let branch = journal.line(id, branch)?;
    journal.check_export(id, Some(&branch), viewer)?;
    let summary = journal.summary(id, viewer)?;
    crate::plays::Play::of(
        id,
        &branch,
        summary.title,
        summary.players,
        journal.state(id, &branch, None, viewer)?,
        &journal.events_as(id, &branch, 1, None, viewer)?,
    )
}

/// The game's log as JSON Lines: one branch's whole history, or (with no
/// branch) main's then every other branch's own events.
#[utoipa::path(
    get,
    path = "/games/{id}/export",
    tag = "games",
    summary = "A game's events as JSON Lines, envelope included (what import reads back), or a finished game as one play for BG Stats or BoardGameGeek",
    params(("id" = String, Path, description = "The game id (`g-3f9a1c2e`, or one the table chose)"), ExportQuery),
    responses((status = 200, description = "One event per line; or the play, as BG Stats' JSON or BoardGameGeek's XML", body = String, content_type = "application/x-ndjson"), (status = 422, description = "A play asked of a game still in play: `rule` names it", body = ErrorBody), (status = 400, description = "Malformed input: the field at fault is named", body = ErrorBody), (status = 401, description = "No token, where one is needed", body = ErrorBody), (status = 403, description = "A token that does not allow this", body = ErrorBody), (status = 404, description = "No such game, branch or seq", body = ErrorBody)),
    security((), ("bearer" = []))
)]
pub(crate) async fn export(
    State(journal): State<Journal>,
    GameId(id): GameId,
    bearer: Bearer,
    Params(q): Params<ExportQuery>,
) -> Result<Response, AppError> {
    let format = q.format.unwrap_or(PlayFormat::Jsonl);
    let (id, lines) = blocking(move || {
        let access = read_access(&journal, &id, &bearer)?;
        let viewer = viewer_for(&journal, &id, access, q.viewer.as_deref())?;
        let lines = match format {
            PlayFormat::Jsonl => {
                journal.check_export(&id, q.branch.as_deref(), viewer)?;
                let mut lines = Vec::new();
                journal.export(&id, q.branch.as_deref(), &mut lines)?;
                lines
            }
            PlayFormat::Bgstats => {
                let play = play_of(&journal, &id, q.branch, viewer)?;
                serde_json::to_vec_pretty(&crate::plays::bgstats(&play)).expect("JSON")
            }
            PlayFormat::Bgg => {
                crate::plays::bgg(&play_of(&journal, &id, q.branch, viewer)?).into_bytes()
            }
        };
        Ok((id, lines))
    })
    .await?;
    // Ids are checked at creation and import, but a store written by an
    // older build may hold any: only safe characters reach the header.
    let file: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let (name, content_type) = match format {
        PlayFormat::Jsonl => (format!("{file}.jsonl"), "application/x-ndjson"),
        PlayFormat::Bgstats => (format!("{file}-bgstats.json"), "application/json"),
        PlayFormat::Bgg => (format!("{file}-bgg.xml"), "application/xml"),
    };
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{name}\""))
        .map_err(|err| AppError::Internal(format!("game id is not a header value: {err}")))?;
    Ok((
        [
            (CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (CONTENT_DISPOSITION, disposition),
        ],
        lines,
    )
        .into_response())
}

/// The rule an import that is not a game's history breaks.
const IMPORT_RULE: &str = "import.history";

/// Recreates an exported game (same id, same hashes) with fresh tokens,
/// which go to the admin: only the store's admin may import.
#[utoipa::path(
    post,
    path = "/games/import",
    tag = "games",
    summary = "Recreate a game from an export (same id and hashes, new tokens); the admin's",
    request_body(description = "JSON Lines, as export writes them (any content type is read as text)", content((String = "application/x-ndjson"), (String = "text/plain"))),
    responses((status = 201, description = "Imported", body = Imported), (status = 401, description = "No token, where one is needed", body = ErrorBody), (status = 403, description = "A token that does not allow this", body = ErrorBody), (status = 413, description = "The body is over the size limit", body = ErrorBody), (status = 422, description = "Not a game's history (`rule` is `import.history`; the message names the line and what is wrong with it)", body = ErrorBody)),
    security((), ("bearer" = []))
)]
pub(crate) async fn import(
    State(journal): State<Journal>,
    bearer: Bearer,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<Imported>), AppError> {
    let admin = {
        let journal = journal.clone();
        blocking(move || admin_only(&journal, &bearer, "importing a game")).await
    };
    admin?;
    let body = body.map_err(|rejection| match rejection.status() {
        StatusCode::PAYLOAD_TOO_LARGE => AppError::PayloadTooLarge(too_large_message()),
        _ => AppError::BadRequest(rejection.body_text()),
    })?;
    // Any text is a body of the documented type: what is wrong with it is
    // its content, so every refusal of it is a 422 naming the line.
    let history = AppError::unfit_as(IMPORT_RULE);
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(AppError::unfit(
            IMPORT_RULE,
            "the import body is empty: send an exported game as JSON Lines".into(),
        ));
    }
    let imported = blocking(move || Ok(journal.import(&mut body.as_ref())?))
        .await
        .map_err(history)?;
    Ok((StatusCode::CREATED, Json(imported)))
}

/// The result of checking one game: every branch's hash chain and strict replay.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub(crate) struct Verified {
    game: String,
    ok: bool,
    branches: Vec<VerifyReport>,
}

#[utoipa::path(
    get,
    path = "/games/{id}/verify",
    tag = "games",
    summary = "Re-check every hash and link, and re-decide every action (the owner's check)",
    params(("id" = String, Path, description = "The game id (`g-3f9a1c2e`, or one the table chose)"), AsQuery),
    responses((status = 200, description = "Each branch's report", body = Verified), (status = 400, description = "Malformed input: the field at fault is named", body = ErrorBody), (status = 401, description = "No token, where one is needed", body = ErrorBody), (status = 403, description = "A token that does not allow this", body = ErrorBody), (status = 404, description = "No such game, branch or seq", body = ErrorBody)),
    security((), ("bearer" = []))
)]
pub(crate) async fn verify(
    State(journal): State<Journal>,
    GameId(id): GameId,
    bearer: Bearer,
    Params(q): Params<AsQuery>,
) -> Result<Json<Verified>, AppError> {
    blocking(move || {
        let access = read_access(&journal, &id, &bearer)?;
        let viewer = viewer_for(&journal, &id, access, q.viewer.as_deref())?;
        let branches = journal.verify_as(&id, viewer)?;
        Ok(Json(Verified {
            ok: branches.iter().all(|b| b.problem.is_none()),
            game: id,
            branches,
        }))
    })
    .await
}
