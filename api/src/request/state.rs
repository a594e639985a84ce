//! What every handler may reach: the journal, the operator if the server
//! has one, and the bell that tells live streams a game changed.

use axum::extract::FromRef;
use tabletape_store::Journal;
use tokio::sync::broadcast;

use crate::operator::Operator;

/// What every handler may reach: the journal, and the operator if the
/// server has one.
#[derive(Clone)]
pub(crate) struct AppState {
    pub(crate) journal: Journal,
    pub(crate) operator: Option<Operator>,
    pub(crate) live: Live,
}

impl FromRef<AppState> for Live {
    fn from_ref(state: &AppState) -> Live {
        state.live.clone()
    }
}

impl FromRef<AppState> for Journal {
    fn from_ref(state: &AppState) -> Journal {
        state.journal.clone()
    }
}

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

    /// Listens for the rings from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<String> {
        self.bell.subscribe()
    }
}
