//! The live stream of a game: `GET /games/{id}/live`, as server-sent events.
//!
//! Every write that appends (an action, a fork) rings the game's bell on one
//! broadcast channel. A follower never takes what to send from the bell:
//! it reads the log after the last seq it sent, shaped for its own viewer
//! (`Journal::follow`), so no follower is sent what it may not see, and a
//! missed ring (a lagging follower) loses nothing. `Last-Event-ID` resumes
//! after that seq; without it the stream starts at the branch's head.

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

use crate::auth::{read_access, viewer_for};
use crate::error::AppError;
use crate::extract::{Bearer, GameId, Params};
use crate::routes::blocking;

/// How many rings wait for a slow follower before it lags (and re-reads).
const BELL_CAPACITY: usize = 1024;

/// The bell: which game just changed.
#[derive(Clone, Debug)]
pub struct Live {
    bell: broadcast::Sender<String>,
}

impl Default for Live {
    fn default() -> Self {
        Live {
            bell: broadcast::channel(BELL_CAPACITY).0,
        }
    }
}

impl Live {
    /// Tells every follower of `game` to look at its log again.
    pub fn ring(&self, game: &str) {
        // No follower is listening: nothing to tell.
        let _ = self.bell.send(game.to_string());
    }
}

#[derive(Debug, Deserialize)]
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
    ready: VecDeque<Followed>,
    bell: broadcast::Receiver<String>,
}

fn frame(step: &Followed) -> Event {
    Event::default()
        .id(step.seq.to_string())
        .event("event")
        .data(serde_json::to_string(step).expect("followed events serialize"))
}

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
    let bell = live.bell.subscribe();
    let follower = {
        let journal = journal.clone();
        blocking(move || {
            let access = read_access(&journal, &id, &bearer)?;
            let viewer = viewer_for(&journal, &id, access, q.viewer.as_deref())?;
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
                branch,
                viewer,
                after: resume.unwrap_or(head).min(head),
                ready: VecDeque::new(),
                bell,
            })
        })
        .await?
    };
    let frames = stream::unfold(follower, |mut f| async move {
        loop {
            if let Some(step) = f.ready.pop_front() {
                f.after = step.seq;
                return Some((Ok(frame(&step)), f));
            }
            let (journal, game, branch, viewer, after) = (
                f.journal.clone(),
                f.game.clone(),
                f.branch.clone(),
                f.viewer,
                f.after,
            );
            let news = blocking(move || Ok(journal.follow(&game, &branch, after, viewer)?)).await;
            match news {
                Ok(steps) if !steps.is_empty() => f.ready.extend(steps),
                // The game is gone or unreadable: the stream ends.
                Err(_) => return None,
                Ok(_) => loop {
                    match f.bell.recv().await {
                        Ok(game) if game == f.game => break,
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
