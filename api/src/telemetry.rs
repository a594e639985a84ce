//! What an operator sees of a running server: one log line per request and
//! `GET /metrics` in the Prometheus text format.
//!
//! The request line (info, target `tabletape::request`) names the method,
//! the route's template (`/games/{id}/actions`, never the raw path), the
//! game id, the status and the latency; no header, query or body, so no
//! token can reach a log. The same measure feeds a latency histogram by
//! route.
//!
//! Metrics go through the `metrics` facade: the store counts appends,
//! conflicts, sync latency and group sizes; this crate counts requests,
//! rejections by rule and open live streams. The process installs one
//! Prometheus recorder (metrics-exporter-prometheus, without its HTTP
//! listener: the API serves the text itself) the first time a router is
//! built. `GET /metrics` is the admin's: the counts are of every game on the
//! store, and a rejection counted while a seat watches could hint at what
//! another seat tried (its handler is `routes::server`; this module renders
//! the text and imports no handler).

use std::sync::OnceLock;
use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

/// Latency buckets in seconds: a cached read is well under a millisecond, a
/// durable append a few milliseconds, an import seconds.
const SECONDS: &[f64] = &[
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];
/// Appends sharing one durable write.
const GROUP: &[f64] = &[
    1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1000.0,
];

/// The process's Prometheus recorder, installed on first use. `None` when
/// another recorder was installed first (then `/metrics` says so).
pub(crate) fn recorder() -> Option<&'static PrometheusHandle> {
    static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let installed = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), SECONDS)
                .and_then(|b| {
                    b.set_buckets_for_metric(
                        Matcher::Full("tabletape_group_commit_appends".into()),
                        GROUP,
                    )
                })
                .and_then(PrometheusBuilder::install_recorder);
            match installed {
                Ok(handle) => {
                    describe();
                    Some(handle)
                }
                Err(e) => {
                    tracing::warn!("no metrics: {e}");
                    None
                }
            }
        })
        .as_ref()
}

/// The help text of every metric, as Prometheus shows it.
fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram, Unit};
    describe_counter!(
        "tabletape_events_appended_total",
        "Events appended by recorded actions (creations, forks and imports aside)."
    );
    describe_counter!(
        "tabletape_append_conflicts_total",
        "Appends that found their branch moved on by another writer."
    );
    describe_counter!(
        "tabletape_rejections_total",
        "Requests the rules refused, by the rule at fault."
    );
    describe_histogram!(
        "tabletape_sync_seconds",
        Unit::Seconds,
        "Time to make a group of appends durable (flush and fdatasync; a commit on PostgreSQL)."
    );
    describe_histogram!(
        "tabletape_group_commit_appends",
        Unit::Count,
        "Appends made durable by one sync."
    );
    describe_histogram!(
        "tabletape_http_request_duration_seconds",
        Unit::Seconds,
        "Time to answer a request, by route, method and status."
    );
    describe_gauge!("tabletape_live_streams", "Live streams open now.");
    describe_gauge!("tabletape_cached_folds", "Branch folds kept in memory.");
    describe_gauge!(
        "process_resident_memory_bytes",
        Unit::Bytes,
        "Resident memory of the server process."
    );
}

/// Times every request, logs one line for it and counts it by route.
pub(crate) async fn observe(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "(no route)".to_string(), |m| m.as_str().to_string());
    let game = game_of(&route, request.uri().path());
    let response = next.run(request).await;
    let latency = started.elapsed();
    let status = response.status().as_u16();
    tracing::info!(
        target: "tabletape::request",
        method = %method,
        route = %route,
        game = game.as_deref().unwrap_or(""),
        status,
        latency_ms = latency.as_secs_f64() * 1000.0,
        "request"
    );
    metrics::histogram!(
        "tabletape_http_request_duration_seconds",
        "route" => route,
        "method" => method.to_string(),
        "status" => status.to_string(),
    )
    .record(latency.as_secs_f64());
    response
}

/// The game id a request names: the path segment where its route has `{id}`.
/// A segment shaped like a token (a player who pasted theirs in the wrong
/// place) is not written down: the log would hold the key to a seat.
pub fn game_of(route: &str, path: &str) -> Option<String> {
    let at = route.split('/').position(|part| part == "{id}")?;
    let segment = path.split('/').nth(at)?;
    let token_like = segment.len() >= 32 && segment.chars().all(|c| c.is_ascii_hexdigit());
    Some(if token_like {
        "(shaped like a token, not written)".to_string()
    } else {
        segment.to_string()
    })
}

/// Counts a request the rules refused.
pub(crate) fn rejected(rule: &str) {
    metrics::counter!("tabletape_rejections_total", "rule" => rule.to_string()).increment(1);
}

/// Keeps the count of open live streams: one is held by each stream.
pub(crate) struct OpenStream;

impl OpenStream {
    pub(crate) fn open() -> OpenStream {
        metrics::gauge!("tabletape_live_streams").increment(1.0);
        OpenStream
    }
}

impl Drop for OpenStream {
    fn drop(&mut self) {
        metrics::gauge!("tabletape_live_streams").decrement(1.0);
    }
}

/// Every metric in the Prometheus text format, with the gauges read now
/// (`cached_folds`, the process's resident memory); `None` when another
/// recorder was installed first.
pub(crate) fn render(cached_folds: usize) -> Option<String> {
    let handle = recorder()?;
    metrics::gauge!("tabletape_cached_folds").set(cached_folds as f64);
    if let Some(rss) = resident_bytes() {
        metrics::gauge!("process_resident_memory_bytes").set(rss as f64);
    }
    Some(handle.render())
}

/// The process's resident memory, from /proc (Linux); `None` elsewhere.
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
