//! Tabletape's HTTP API: the journal over JSON, with axum.
//!
//! [`app`] builds the whole router around one [`Journal`]; tests drive it with
//! `tower::ServiceExt::oneshot` and no socket, and [`serve`] binds it to an
//! address. The routes mirror the CLI (see `routes`): create and list games,
//! list legal actions, act, read events, state, replay and narrative, fork,
//! export, import and verify.
//!
//! This crate holds no rules and no storage: every decision is the engine's,
//! every byte on disk the store's. It only knows HTTP: routes, tokens, status
//! codes, content types, body limits. Journal calls block (sled and fsync), so
//! each runs on tokio's blocking pool, never on the async workers.

mod auth;
mod error;
mod extract;
mod routes;

use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4};

use axum::extract::DefaultBodyLimit;
use axum::Router;
use tabletape_store::Journal;
use tower_http::trace::TraceLayer;

pub use error::AppError;

/// Where `tabletape serve` listens unless told otherwise.
pub const DEFAULT_ADDR: SocketAddr = SocketAddr::V4(SocketAddrV4::new(Ipv4Addr::LOCALHOST, 7878));

/// The largest request body accepted (1 MiB): an action or a new game is far smaller.
pub const BODY_LIMIT_BYTES: usize = 1024 * 1024;

/// The largest JSON Lines body `POST /games/import` accepts (64 MiB): an
/// exported game grows with every event, so imports get more room.
pub const IMPORT_LIMIT_BYTES: usize = 64 * 1024 * 1024;

/// The whole API around one journal.
pub fn app(journal: Journal) -> Router {
    routes::router()
        .with_state(journal)
        .layer(DefaultBodyLimit::max(BODY_LIMIT_BYTES))
        .layer(TraceLayer::new_for_http())
}

/// Serves the API on `addr` until Ctrl-C, then finishes the requests in flight.
pub async fn serve(journal: Journal, addr: SocketAddr) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    tracing::info!(addr = %listener.local_addr()?, "tabletape API listening");
    axum::serve(listener, app(journal))
        .with_graceful_shutdown(ctrl_c())
        .await?;
    tracing::info!("tabletape API stopped");
    Ok(())
}

async fn ctrl_c() {
    match tokio::signal::ctrl_c().await {
        Ok(()) => tracing::info!("Ctrl-C: shutting down once requests in flight finish"),
        Err(err) => {
            // Without a signal handler the server can only be killed; keep serving
            // rather than stopping at once.
            tracing::warn!(error = %err, "cannot listen for Ctrl-C; serving until killed");
            std::future::pending::<()>().await;
        }
    }
}
