//! The live stream of a game: `GET /games/{id}/live`, as server-sent events.
//!
//! Every write that appends (an action, a fork) rings the game's bell on one
//! broadcast channel. A follower never takes what to send from the bell:
//! it reads the log after the last seq it sent, shaped for its own viewer
//! (`Journal::follow`), so no follower is sent what it may not see, and a
//! missed ring (a lagging follower) loses nothing. `Last-Event-ID` resumes
//! after that seq; without it the stream starts at the branch's head.
//! On a store many processes share (PostgreSQL), the store's change feed
//! rings the bell for writes made through the other processes too.
//! A stream that named no branch follows the game's current line: when a
//! take-back moves it, the stream says so (`event: line`) and goes on with
//! the new line's events.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::time::Duration;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream};
use serde::Deserialize;
use tabletape_engine::Viewer;
use tabletape_store::{Followed, Journal};
use tokio::sync::broadcast;

use crate::request::{
    blocking, read_access, viewer_for, AppError, Bearer, ErrorBody, GameId, Live, Params,
};
use crate::telemetry::OpenStream;

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LiveQuery {
    branch: Option<String>,
    #[serde(rename = "as")]
    viewer: Option<String>,
}

/// One follower's place in the stream.
struct Follower {
    journal: Journal,
    game: String,
    branch: String,
    viewer: Viewer,
    after: u64,
    /// Whether the stream follows the game's current line (no branch was
    /// named): a take-back elsewhere then moves it to the new line.
    current: bool,
    /// A move to a new current line to announce before its events.
    moved: Option<String>,
    ready: VecDeque<Followed>,
    bell: broadcast::Receiver<String>,
    /// Counts this stream as open until it ends.
    _open: OpenStream,
}

/// Set once, when the process's server begins to shut down.
static CLOSING: std::sync::OnceLock<tokio::sync::watch::Sender<bool>> = std::sync::OnceLock::new();

fn closing_flag() -> &'static tokio::sync::watch::Sender<bool> {
    CLOSING.get_or_init(|| tokio::sync::watch::channel(false).0)
}

/// Ends every live stream of the process: the server is shutting down.
pub fn close_all() {
    closing_flag().send_replace(true);
}

/// Resolves once the server is shutting down.
async fn closing() {
    let mut rx = closing_flag().subscribe();
    // An error means the sender is gone, which a static never is.
    let _ = rx.wait_for(|closing| *closing).await;
}

/// What a follower finds when it looks at the log again.
enum News {
    Steps(Vec<Followed>),
    /// The current line moved: to this branch, sharing history up to this seq.
    Moved(String, u64),
}

fn frame(step: &Followed) -> Event {
    Event::default()
        .id(step.seq.to_string())
        .event("event")
        .data(serde_json::to_string(step).expect("followed events serialize"))
}

#[utoipa::path(
    get,
    path = "/games/{id}/live",
    tag = "games",
    summary = "Follow a branch live: each new event as the viewer may see it (server-sent events)",
    params(("id" = String, Path, description = "The game id (`g-3f9a1c2e`, or one the table chose)"), LiveQuery, ("Last-Event-ID" = Option<u64>, Header, description = "Resume after this seq")),
    responses((status = 200, description = "An event stream: `event` frames (id = seq) and `line` when the current line moves", body = String, content_type = "text/event-stream"), (status = 400, description = "Malformed input: the field at fault is named", body = ErrorBody), (status = 401, description = "No token, where one is needed", body = ErrorBody), (status = 403, description = "A token that does not allow this", body = ErrorBody), (status = 404, description = "No such game, branch or seq", body = ErrorBody)),
    security((), ("bearer" = []))
)]
pub async fn live(
    State(journal): State<Journal>,
    State(live): State<Live>,
    GameId(id): GameId,
    bearer: Bearer,
    headers: HeaderMap,
    Params(q): Params<LiveQuery>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, AppError> {
    let resume = match headers.get("last-event-id") {
        None => None,
        Some(v) => Some(
            v.to_str()
                .ok()
                .and_then(|s| s.trim().parse::<u64>().ok())
                .ok_or_else(|| {
                    AppError::BadRequest("Last-Event-ID must be the seq of an event".into())
                })?,
        ),
    };
    // Subscribed before reading the head, so no ring in between is missed.
    let bell = live.subscribe();
    let follower = {
        let journal = journal.clone();
        blocking(move || {
            let access = read_access(&journal, &id, &bearer)?;
            let viewer = viewer_for(&journal, &id, access, q.viewer.as_deref())?;
            let current = q.branch.is_none();
            let branch = journal.line(&id, q.branch)?;
            let head = journal
                .branches_as(&id, viewer)?
                .into_iter()
                .find(|b| b.name == branch)
                .ok_or_else(|| AppError::NotFound(format!("game `{id}` has no branch `{branch}`")))?
                .head_seq;
            Ok(Follower {
                journal,
                game: id,
                current,
                moved: None,
                branch,
                viewer,
                after: resume.unwrap_or(head).min(head),
                ready: VecDeque::new(),
                bell,
                _open: OpenStream::open(),
            })
        })
        .await?
    };
    let frames = stream::unfold(follower, |mut f| async move {
        loop {
            if let Some(line) = f.moved.take() {
                let moved = Event::default()
                    .event("line")
                    .data(serde_json::json!({ "current": line }).to_string());
                return Some((Ok(moved), f));
            }
            if let Some(step) = f.ready.pop_front() {
                f.after = step.seq;
                return Some((Ok(frame(&step)), f));
            }
            let (journal, game, branch, viewer, after, current) = (
                f.journal.clone(),
                f.game.clone(),
                f.branch.clone(),
                f.viewer,
                f.after,
                f.current,
            );
            let news = blocking(move || {
                if current {
                    let line = journal.line(&game, None)?;
                    if line != branch {
                        // Play moved to a fork (a take-back): follow it from
                        // where it leaves the shared history.
                        let fork = journal
                            .branches_as(&game, viewer)?
                            .into_iter()
                            .find(|b| b.name == line)
                            .and_then(|b| b.fork_seq)
                            .unwrap_or(0);
                        return Ok(News::Moved(line, fork.min(after)));
                    }
                }
                Ok(News::Steps(journal.follow(&game, &branch, after, viewer)?))
            })
            .await;
            match news {
                Ok(News::Moved(line, after)) => {
                    f.branch = line.clone();
                    f.after = after;
                    f.moved = Some(line);
                }
                Ok(News::Steps(steps)) if !steps.is_empty() => f.ready.extend(steps),
                // The game is gone or unreadable: the stream ends.
                Err(_) => return None,
                Ok(_) => loop {
                    let rung = tokio::select! {
                        rung = f.bell.recv() => rung,
                        // The server is stopping: end the stream, so the
                        // graceful shutdown does not wait on it forever (the
                        // page reconnects with Last-Event-ID).
                        () = closing() => return None,
                    };
                    match rung {
                        // "" is any game: the change feed was away a while.
                        Ok(game) if game == f.game || game.is_empty() => break,
                        Ok(_) => continue,
                        Err(broadcast::error::RecvError::Lagged(_)) => break,
                        Err(broadcast::error::RecvError::Closed) => return None,
                    }
                },
            }
        }
    });
    Ok(Sse::new(frames).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}
