//! Tabletape's HTTP API: the journal over JSON, with axum.
//!
//! [`app`] builds the whole router around one [`Journal`]; tests drive it with
//! `tower::ServiceExt::oneshot` and no socket, and [`serve`] binds it to an
//! address ([`bind`] and [`serve_on`] when the caller needs the address the
//! system gave before serving). The routes mirror the CLI (see `routes`):
//! create and list games, list legal actions, act, read events, state, replay
//! and narrative, fork, export, import and verify.
//!
//! The same router serves the web recorder (`routes::web`): the table page
//! at `/g/{id}`, the story, the home page at `/`, from embedded assets.
//!
//! The handlers live in `routes`, one module per part of the API; what they
//! share (the state, extractors, access checks, the error type, `blocking`)
//! is `request`'s, which imports no handler. `telemetry` and `operator`
//! stand below both; this file and `openapi` above them all.
//!
//! [`plays`] writes a finished game as one play for BG Stats or
//! BoardGameGeek (`GET /games/{id}/export?format=bgstats`, and the CLI's
//! `export --format`).
//!
//! [`app_with_operator`] adds the store's [`Operator`]: the token `tabletape
//! serve` hands to the CLI on its machine, owner of every game and admin.
//!
//! This crate holds no rules and no storage: every decision is the engine's,
//! every byte on disk the store's. It only knows HTTP: routes, tokens, status
//! codes, content types, body limits. Journal calls block (sled and fsync), so
//! each runs on tokio's blocking pool, never on the async workers.

pub mod openapi;
pub mod operator;
pub mod plays;
pub mod request;
pub mod routes;
pub mod telemetry;

use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4};

use axum::extract::DefaultBodyLimit;
use axum::serve::ListenerExt;
use axum::Router;
use tabletape_store::Journal;
use tokio::net::TcpListener;

use request::{AppState, Live};

pub use operator::Operator;
pub use request::{AppError, BODY_LIMIT_BYTES, IMPORT_LIMIT_BYTES};

/// Where `tabletape serve` listens unless told otherwise.
pub const DEFAULT_ADDR: SocketAddr = SocketAddr::V4(SocketAddrV4::new(Ipv4Addr::LOCALHOST, 7878));

/// The whole API around one journal.
pub fn app(journal: Journal) -> Router {
    router(AppState {
        journal,
        operator: None,
        live: Live::default(),
    })
}

/// The whole API around one journal, with the store's operator: a request
/// bearing the operator's token is the owner of every game and the admin.
pub fn app_with_operator(journal: Journal, operator: Operator) -> Router {
    router(AppState {
        journal,
        operator: Some(operator),
        live: Live::default(),
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
        .route("/metrics", axum::routing::get(routes::server::metrics_text))
        .route("/openapi.json", axum::routing::get(openapi::openapi_json))
        .route("/api", axum::routing::get(openapi::reference))
        .merge(routes::web::router())
        .with_state(state)
        .layer(DefaultBodyLimit::max(BODY_LIMIT_BYTES))
        .layer(axum::middleware::map_response(html_policy))
        .layer(axum::middleware::from_fn(refuse_oversized))
        // Pages, scripts and JSON gzipped for whoever asks (a phone on the
        // table's Wi-Fi); the default predicate leaves the live stream (an
        // encoder would hold its frames back), images and tiny answers be.
        .layer(tower_http::compression::CompressionLayer::new())
        .layer(axum::middleware::from_fn(telemetry::observe))
}

/// How much of a body announced over its route's limit is read (and thrown
/// away) before answering: the client can then finish sending and read the
/// 413, rather than see its connection cut in the middle of its upload.
const DRAIN_MAX_BYTES: u64 = 256 * 1024 * 1024;

/// Answers a body announced (`Content-Length`) over its route's limit with a
/// 413 before any handler reads it, after reading what was sent.
async fn refuse_oversized(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::body::HttpBody;
    use axum::response::IntoResponse;
    let limit = if request.uri().path() == "/games/import" {
        IMPORT_LIMIT_BYTES
    } else {
        BODY_LIMIT_BYTES
    } as u64;
    let announced = request
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    match announced {
        Some(length) if length > limit => {
            if length <= DRAIN_MAX_BYTES {
                let mut body = request.into_body();
                while let Some(Ok(_)) =
                    std::future::poll_fn(|cx| std::pin::Pin::new(&mut body).poll_frame(cx)).await
                {
                }
            }
            AppError::PayloadTooLarge(format!(
                "the body is {length} bytes; this route takes at most {limit}"
            ))
            .into_response()
        }
        _ => next.run(request).await,
    }
}

/// The policy an HTML answer gets when its route set none (the API
/// reference, a story told as HTML): its own stylesheets and inline styles,
/// pictures inline, and nothing that runs.
const HTML_POLICY: &str =
    "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; \
form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

/// Gives every HTML answer a Content-Security-Policy: a page that names none
/// would run whatever a story's text smuggled in.
async fn html_policy(mut response: axum::response::Response) -> axum::response::Response {
    use axum::http::header::{CONTENT_SECURITY_POLICY, CONTENT_TYPE};
    let headers = response.headers_mut();
    let html = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("text/html"));
    if html && !headers.contains_key(CONTENT_SECURITY_POLICY) {
        headers.insert(
            CONTENT_SECURITY_POLICY,
            axum::http::HeaderValue::from_static(HTML_POLICY),
        );
    }
    response
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
            routes::live::close_all();
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
