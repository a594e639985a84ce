//! Tabletape's HTTP API: the journal over JSON, with axum.
//!
//! [`app`] builds the whole router around one [`Journal`]; tests drive it with
//! `tower::ServiceExt::oneshot` and no socket, and [`serve`] binds it to an
//! address ([`bind`] and [`serve_on`] when the caller needs the address the
//! system gave before serving). The routes mirror the CLI (see `routes`):
//! create and list games, list legal actions, act, read events, state, replay
//! and narrative, fork, export, import and verify.
//!
//! The same router serves the web recorder (`web`): the table page at
//! `/g/{id}`, the story, the home page at `/`, from embedded assets.
//!
//! [`app_with_operator`] adds the store's [`Operator`]: the token `tabletape
//! serve` hands to the CLI on its machine, owner of every game and admin.
//!
//! This crate holds no rules and no storage: every decision is the engine's,
//! every byte on disk the store's. It only knows HTTP: routes, tokens, status
//! codes, content types, body limits. Journal calls block (sled and fsync), so
//! each runs on tokio's blocking pool, never on the async workers.

mod auth;
mod dice;
mod error;
mod extract;
mod live;
mod openapi;
mod operator;
mod routes;
mod study;
mod telemetry;
mod web;

use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4};

use axum::extract::{DefaultBodyLimit, FromRef};
use axum::serve::ListenerExt;
use axum::Router;
use tabletape_store::Journal;
use tokio::net::TcpListener;

pub use error::AppError;
pub use operator::Operator;

/// Where `tabletape serve` listens unless told otherwise.
pub const DEFAULT_ADDR: SocketAddr = SocketAddr::V4(SocketAddrV4::new(Ipv4Addr::LOCALHOST, 7878));

/// The largest request body accepted (1 MiB): an action or a new game is far smaller.
pub const BODY_LIMIT_BYTES: usize = 1024 * 1024;

/// The largest JSON Lines body `POST /games/import` accepts (64 MiB): an
/// exported game grows with every event, so imports get more room.
pub const IMPORT_LIMIT_BYTES: usize = 64 * 1024 * 1024;

/// What every handler may reach: the journal, and the operator if the
/// server has one.
#[derive(Clone)]
pub(crate) struct AppState {
    journal: Journal,
    operator: Option<Operator>,
    live: live::Live,
}

impl FromRef<AppState> for live::Live {
    fn from_ref(state: &AppState) -> live::Live {
        state.live.clone()
    }
}

impl FromRef<AppState> for Journal {
    fn from_ref(state: &AppState) -> Journal {
        state.journal.clone()
    }
}

/// The whole API around one journal.
pub fn app(journal: Journal) -> Router {
    router(AppState {
        journal,
        operator: None,
        live: live::Live::default(),
    })
}

/// The whole API around one journal, with the store's operator: a request
/// bearing the operator's token is the owner of every game and the admin.
pub fn app_with_operator(journal: Journal, operator: Operator) -> Router {
    router(AppState {
        journal,
        operator: Some(operator),
        live: live::Live::default(),
    })
}

fn router(state: AppState) -> Router {
    // Writes by other processes sharing the store (PostgreSQL) ring the
    // same bell as this one's own.
    let live = state.live.clone();
    state
        .journal
        .log()
        .watch(std::sync::Arc::new(move |game: &str| live.ring(game)));
    // Installed before the first request, so every request is counted.
    telemetry::recorder();
    routes::router()
        .route("/metrics", axum::routing::get(telemetry::metrics_text))
        .route("/openapi.json", axum::routing::get(openapi::openapi_json))
        .route("/api", axum::routing::get(openapi::reference))
        .merge(web::router())
        .with_state(state)
        .layer(DefaultBodyLimit::max(BODY_LIMIT_BYTES))
        .layer(axum::middleware::from_fn(telemetry::observe))
}

/// Serves the API on `addr` until Ctrl-C (or SIGTERM), then finishes the
/// requests in flight.
pub async fn serve(journal: Journal, addr: SocketAddr) -> std::io::Result<()> {
    serve_on(bind(addr).await?, app(journal)).await
}

/// Binds `addr` (port 0 lets the system choose; `local_addr` says which).
pub async fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    TcpListener::bind(addr).await
}

/// Serves `app` on a bound listener until Ctrl-C (or, on Unix, SIGTERM),
/// then finishes the requests in flight.
pub async fn serve_on(listener: TcpListener, app: Router) -> std::io::Result<()> {
    tracing::info!(addr = %listener.local_addr()?, "tabletape API listening");
    // Answers and live lines are small writes a player waits on: send each
    // at once rather than let Nagle's algorithm hold it for the next one.
    let listener = listener.tap_io(|stream| {
        if let Err(e) = stream.set_nodelay(true) {
            tracing::warn!("could not set TCP_NODELAY on a connection: {e}");
        }
    });
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            shutdown().await;
            live::close_all();
        })
        .await?;
    tracing::info!("tabletape API stopped");
    Ok(())
}

/// Resolves at Ctrl-C, or at SIGTERM (a service manager stopping the server).
async fn shutdown() {
    tokio::select! {
        () = ctrl_c() => {}
        () = terminate() => {}
    }
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

#[cfg(unix)]
async fn terminate() {
    use tokio::signal::unix::{signal, SignalKind};
    match signal(SignalKind::terminate()) {
        Ok(mut term) => {
            term.recv().await;
            tracing::info!("SIGTERM: shutting down once requests in flight finish");
        }
        Err(err) => {
            tracing::warn!(error = %err, "cannot listen for SIGTERM");
            std::future::pending::<()>().await;
        }
    }
}

#[cfg(not(unix))]
async fn terminate() {
    std::future::pending::<()>().await;
}
