//! `tabletape bench`: measures this machine, prints a table (or JSON).
//!
//! Everything runs in a fresh store under the system temp directory, removed
//! afterwards. Lines of play come from [`Script`], which plays Lost Worlds in
//! memory from the `legal` list, preferring moves after which nobody has fewer
//! body points and the fight is not over, so a game can run to a million events.
//! Scripts are computed before the clock starts, so appends measure the journal
//! (decide, append, fsync) and not the choosing. Timings are reported, never judged.
//!
//! Next to the journal's durable appends the same run measures its yardsticks
//! (see [`crate::peers`]) on the same disk with the same event bytes, and
//! prints the ratios: a raw `write`+`fdatasync` loop always, and SQLite when
//! built with the `sqlite-peer` feature.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{json, Value};
use tabletape_engine::{Game, Viewer};
use tabletape_events::{Actor, Body, Event, MAIN_BRANCH, SCHEMA_VERSION};
use tabletape_store::{
    fold_steps, Access, ActRequest, Journal, JournalError, Location, NewGame, PgLog,
};

use crate::error::CliError;
use crate::wire::Wire;

type Result<T> = std::result::Result<T, CliError>;

/// The kind benchmarked: the one whose fights can be kept going indefinitely.
const KIND: &str = "lostworlds";

/// How much work a run does.
#[derive(Debug, Clone, Copy)]
struct Sizes {
    /// Appends by the single writer (journal, then HTTP).
    single_appends: usize,
    /// Appends by each of the 64 concurrent writers.
    appends_per_writer: usize,
    /// Events in the big game (fork, state at a seq, fold, import).
    big_game_events: u64,
    /// Games created and kept active for the memory measure.
    active_games: u64,
}

/// A quick run still makes enough appends that one slow sync does not
/// decide a rate: 500 by one writer, 1,024 by 64.
const QUICK: Sizes = Sizes {
    single_appends: 500,
    appends_per_writer: 16,
    big_game_events: 10_000,
    active_games: 500,
};
/// Every measure at a token size: a test's check that the bench still
/// runs and reports each row. Its figures mean nothing.
const SMOKE: Sizes = Sizes {
    single_appends: 20,
    appends_per_writer: 1,
    big_game_events: 400,
    active_games: 20,
};
/// 4,096 appends by 64 writers: a measure of 1,280 took a tenth of a
/// second, and its ratios to the peers swung with the moment it fell in.
const FULL: Sizes = Sizes {
    single_appends: 500,
    appends_per_writer: 64,
    big_game_events: 1_000_000,
    active_games: 10_000,
};
const WRITERS: usize = 64;
/// Turns of the one-writer measure: the journal's appends and the raw
/// loop's take turns, a tenth of each at a time.
const SINGLE_TURNS: usize = 10;
/// Actions per `act_batch` call while building the big game.
const BATCH: usize = 10_000;
/// Events folded in memory for the fold measure (a prefix of the big game),
/// folded [`FOLD_ROUNDS`] times over: the same work per event as one fold
/// of ten times as many, for a tenth of the memory (100,000 events held as
/// JSON were about 430 MiB, most of the run's peak).
const FOLD_EVENTS: u64 = 10_000;
const FOLD_ROUNDS: usize = 10;
/// Events folded from storage: read in chunks, decoded and applied, with no
/// snapshot (a prefix of the big game; enough to even out the chunks).
const FOLD_STORED_EVENTS: u64 = 200_000;
/// Events read at a time when folding from storage, as the journal reads.
const FOLD_STORED_CHUNK: u64 = 4096;

#[derive(Debug, Serialize)]
struct Row {
    name: String,
    value: f64,
    unit: &'static str,
}

#[derive(Debug, Serialize)]
struct Machine {
    cpus: usize,
    model: String,
    os: &'static str,
}

/// Removes the bench's stores and files however the run ends.
struct TempStores(Vec<PathBuf>);

impl TempStores {
    fn path(&mut self, tag: &str) -> PathBuf {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let path = std::env::temp_dir().join(format!(
            "tabletape-bench-{}-{nanos}-{tag}",
            std::process::id()
        ));
        self.0.push(path.clone());
        path
    }
}

impl Drop for TempStores {
    fn drop(&mut self) {
        for path in &self.0 {
            let _ = if path.is_dir() {
                std::fs::remove_dir_all(path)
            } else {
                std::fs::remove_file(path)
            };
        }
    }
}

fn machine() -> Machine {
    let cpus = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".to_string());
    Machine {
        cpus,
        model,
        os: std::env::consts::OS,
    }
}

/// Peak resident memory of this process (VmHWM), in MiB.
fn peak_memory_mib() -> Option<f64> {
    status_mib("VmHWM:")
}

/// What this process holds allocated now, in MiB: the allocator's own
/// count, which neither pages it keeps for reuse nor pages it hands back
/// meanwhile can move (as they move the resident size).
#[cfg(not(target_env = "msvc"))]
fn heap_mib() -> Option<f64> {
    tikv_jemalloc_ctl::epoch::advance().ok()?;
    let bytes = tikv_jemalloc_ctl::stats::allocated::read().ok()?;
    Some(bytes as f64 / (1024.0 * 1024.0))
}

/// Without jemalloc there is no count to read.
#[cfg(target_env = "msvc")]
fn heap_mib() -> Option<f64> {
    None
}

fn status_mib(field: &str) -> Option<f64> {
    mib_in(&std::fs::read_to_string("/proc/self/status").ok()?, field)
}

/// A field of a `/proc/*/status` text, in MiB.
fn mib_in(status: &str, field: &str) -> Option<f64> {
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// A line of play computed in memory, one legal action at a time, until it
/// settles into a repeating cycle of actions; from then on it repeats the
/// cycle without folding, so a million-event line costs no more to choose than
/// the first few hundred. The journal re-decides every action anyway.
struct Script {
    game: Game,
    health: i64,
    /// Every action chosen so far, as compact JSON, to spot the cycle.
    chosen: Vec<String>,
    cycle: Option<(Vec<Value>, usize)>,
}

/// The shortest period `p` such that the last `REPEATS * p` entries of
/// `history` (and at least the last `MIN_SPAN`) are the same `p` entries over
/// and over, so a few equal moves in a row are not taken for a cycle.
fn period(history: &[String]) -> Option<usize> {
    const REPEATS: usize = 4;
    const MIN_SPAN: usize = 24;
    const MAX_PERIOD: usize = 128;
    let n = history.len();
    (1..=MAX_PERIOD).find(|&p| {
        let span = (REPEATS * p).max(MIN_SPAN);
        span <= n && (n - span..n - p).all(|i| history[i] == history[i + p])
    })
}

/// Sum of every integer under a key naming body points in a view: the
/// fighters' health, which a move the script picks must not lower.
fn health(view: &Value) -> i64 {
    fn walk(v: &Value, under_body: bool, sum: &mut i64) {
        match v {
            Value::Number(n) if under_body => *sum += n.as_i64().unwrap_or(0),
            Value::Array(items) => items.iter().for_each(|i| walk(i, under_body, sum)),
            Value::Object(map) => {
                for (k, v) in map {
                    walk(v, under_body || k.contains("body"), sum);
                }
            }
            _ => {}
        }
    }
    let mut sum = 0;
    walk(view, false, &mut sum);
    sum
}

fn scratch_event(seq: u64, body: Body) -> Event {
    Event {
        game: String::new(),
        branch: MAIN_BRANCH.to_string(),
        seq,
        recorded_at_ms: 0,
        actor: Actor::Owner,
        schema_version: SCHEMA_VERSION,
        idempotency_key: None,
        prev_hash: String::new(),
        hash: String::new(),
        salt: String::new(),
        body,
    }
}

impl Script {
    /// A script continuing from the journal's current state of `game`.
    fn for_game(journal: &Journal, game: &str) -> Result<Script> {
        Ok(Script::new(journal.game_at(game, MAIN_BRANCH, None)?))
    }

    fn new(game: Game) -> Script {
        let health = health(&game.view(Viewer::Owner));
        Script {
            game,
            health,
            chosen: Vec::new(),
            cycle: None,
        }
    }

    /// The next action the owner takes for the table.
    fn next_action(&mut self) -> Result<Value> {
        if let Some((cycle, at)) = &mut self.cycle {
            let action = cycle[*at].clone();
            *at = (*at + 1) % cycle.len();
            return Ok(action);
        }
        let action = self.fold_next()?;
        self.chosen.push(action.to_string());
        if let Some(p) = period(&self.chosen) {
            let start = self.chosen.len() - p;
            let cycle = self.chosen[start..]
                .iter()
                .map(|a| serde_json::from_str(a).expect("own JSON parses"))
                .collect();
            self.cycle = Some((cycle, 0));
        }
        Ok(action)
    }

    /// Chooses the next action by trying the legal ones in order, and folds it.
    fn fold_next(&mut self) -> Result<Value> {
        let seq = self.game.seq() + 1;
        let mut fallback: Option<(Value, Game, i64)> = None;
        for candidate in self.game.legal(None) {
            if !candidate.needs.is_empty() {
                continue;
            }
            let Ok(decision) = self.game.decide(None, &candidate.action) else {
                continue;
            };
            let mut after = self.game.clone();
            after
                .apply(&scratch_event(seq, Body::ActionAccepted(decision.body)))
                .map_err(|e| CliError::Bench(format!("replaying a legal action: {e}")))?;
            if after.is_over() {
                continue;
            }
            let h = health(&after.view(Viewer::Owner));
            if h >= self.health {
                self.game = after;
                self.health = h;
                return Ok(candidate.action);
            }
            if fallback.is_none() {
                fallback = Some((candidate.action, after, h));
            }
        }
        match fallback {
            Some((action, after, h)) => {
                self.game = after;
                self.health = h;
                Ok(action)
            }
            None => Err(CliError::Bench(format!(
                "no legal action keeps the {KIND} game going after seq {}; cannot build a longer game",
                self.game.seq()
            ))),
        }
    }

    fn take(&mut self, n: usize) -> Result<Vec<Value>> {
        (0..n).map(|_| self.next_action()).collect()
    }
}

fn new_game(journal: &Journal, seed: u64) -> Result<(String, String)> {
    let created = journal.create(NewGame {
        title: None,
        kind: KIND.to_string(),
        players: vec!["Nowa".to_string(), "Grimbold".to_string()],
        seed: Some(seed),
        // The default cap ends every fight after 200 exchanges; a benchmark game must not end.
        options: [("exchange_limit".to_string(), json!(u32::MAX))]
            .into_iter()
            .collect(),
        ..NewGame::default()
    })?;
    Ok((created.game, created.owner_token))
}

fn act(journal: &Journal, game: &str, action: Value) -> Result<()> {
    journal.act(
        game,
        ActRequest {
            branch: MAIN_BRANCH.to_string(),
            actor: Actor::Owner,
            by: None,
            action,
            expect_seq: None,
            idempotency_key: None,
        },
    )?;
    Ok(())
}

/// Per-writer games with their scripts ready, so the clock times only appends.
fn prepared(
    journal: &Journal,
    writers: usize,
    appends: usize,
    seed: u64,
) -> Result<Vec<(String, String, Vec<Value>)>> {
    (0..writers)
        .map(|w| {
            let (game, token) = new_game(journal, seed + w as u64)?;
            let actions = Script::for_game(journal, &game)?.take(appends)?;
            Ok((game, token, actions))
        })
        .collect()
}

/// Turns of one writer's appends in [`SINGLE_TURNS`]: the journal's, then
/// (with a path) as many of the raw loop's with the bytes the journal
/// stored so far. Appends/s of each, and the events stored, for the peers.
fn single_writer(
    journal: &Journal,
    raw_path: Option<&std::path::Path>,
    appends: usize,
) -> Result<(f64, Option<f64>, Vec<Vec<u8>>)> {
    let (game, _, actions) = prepared(journal, 1, appends, 1)?.remove(0);
    let mut raw = raw_path.map(crate::peers::RawLoop::open).transpose()?;
    let (mut journal_took, mut raw_took) = (Duration::ZERO, Duration::ZERO);
    let mut actions = actions.into_iter();
    let mut stored = Vec::new();
    let per_turn = appends.div_ceil(SINGLE_TURNS);
    let mut done = 0;
    while done < appends {
        let turn = per_turn.min(appends - done);
        let (_, took) = timed(|| {
            actions
                .by_ref()
                .take(turn)
                .try_for_each(|a| act(journal, &game, a))
        })?;
        journal_took += took;
        stored.extend(
            journal
                .events(&game, MAIN_BRANCH, 2 + done as u64, None)?
                .iter()
                .map(|e| serde_json::to_vec(e).expect("events serialize")),
        );
        if let Some(raw) = &mut raw {
            raw_took += raw.appends(&stored, turn)?;
        }
        done += turn;
    }
    let rate = |took: Duration| appends as f64 / took.as_secs_f64();
    Ok((rate(journal_took), raw.map(|_| rate(raw_took)), stored))
}

/// Appends/s through the journal, one thread per writer, one game each.
fn journal_appends(journal: &Journal, writers: usize, appends: usize, seed: u64) -> Result<f64> {
    let work = prepared(journal, writers, appends, seed)?;
    let start = Instant::now();
    std::thread::scope(|s| {
        let handles: Vec<_> = work
            .into_iter()
            .map(|(game, _, actions)| {
                let journal = journal.clone();
                s.spawn(move || {
                    actions
                        .into_iter()
                        .try_for_each(|a| act(&journal, &game, a))
                })
            })
            .collect();
        handles
            .into_iter()
            .try_for_each(|h| h.join().expect("bench writer panicked"))
    })?;
    Ok((writers * appends) as f64 / start.elapsed().as_secs_f64())
}

/// Folds `game`'s first `upto` events as read from the store, chunk by
/// chunk, with no snapshot: a cold fold's read, decode and apply, as the
/// journal folds (the next chunk read while this one folds).
fn fold_stored(journal: &Journal, game: &str, upto: u64) -> Result<()> {
    let failed = |e: &dyn std::fmt::Display| CliError::Bench(format!("folding from storage: {e}"));
    let log = journal.log();
    let first = log
        .read(game, MAIN_BRANCH, 1, Some(1))
        .map_err(|e| failed(&e))?;
    let mut folded = Game::from_first(&first[0]).map_err(|e| failed(&e))?;
    fold_steps::<JournalError>(
        log.as_ref(),
        (game, MAIN_BRANCH),
        &mut folded,
        upto,
        FOLD_STORED_CHUNK,
        |_| {},
    )
    .map_err(|e| failed(&e))
}

fn free_local_addr() -> Result<SocketAddr> {
    let listener = TcpListener::bind("127.0.0.1:0")
        .map_err(|e| CliError::Bench(format!("finding a free port: {e}")))?;
    listener
        .local_addr()
        .map_err(|e| CliError::Bench(format!("finding a free port: {e}")))
}

/// Appends/s through the HTTP API at `addrs` (writer `w` to `addrs[w % n]`).
fn http_appends(
    journal: &Journal,
    addrs: &[SocketAddr],
    writers: usize,
    appends: usize,
    seed: u64,
) -> Result<f64> {
    let work = prepared(journal, writers, appends, seed)?;
    // Each writer's connection is open before the clock starts, as a
    // table's devices keep theirs: what is timed is appending, as for the
    // journal's own writers.
    let work = work
        .into_iter()
        .enumerate()
        .map(|(w, (game, token, actions))| {
            let addr = addrs[w % addrs.len()];
            let wire = Wire::connect(addr)
                .map_err(|e| CliError::Bench(format!("connecting to {addr}: {e}")))?;
            Ok((addr, wire, game, token, actions))
        })
        .collect::<Result<Vec<_>>>()?;
    let start = Instant::now();
    std::thread::scope(|s| {
        let handles: Vec<_> = work
            .into_iter()
            .map(|(addr, mut wire, game, token, actions)| {
                s.spawn(move || -> Result<()> {
                    let failed =
                        |e: std::io::Error| CliError::Bench(format!("HTTP to {addr}: {e}"));
                    let path = format!("/games/{game}/actions");
                    let bearer = format!("Bearer {token}");
                    for action in actions {
                        let body = serde_json::to_vec(&json!({"action": action}))
                            .expect("actions serialize");
                        let answer = wire.post(&path, &bearer, &body).map_err(failed)?;
                        if answer.status != 201 {
                            return Err(CliError::Bench(format!(
                                "POST {path} answered {}: {}",
                                answer.status,
                                String::from_utf8_lossy(&answer.body)
                            )));
                        }
                    }
                    Ok(())
                })
            })
            .collect();
        handles
            .into_iter()
            .try_for_each(|h| h.join().expect("bench HTTP writer panicked"))
    })?;
    Ok((writers * appends) as f64 / start.elapsed().as_secs_f64())
}

/// Starts the API on a free local port on its own runtime; waits for /healthz.
fn start_server(journal: &Journal) -> Result<(tokio::runtime::Runtime, SocketAddr)> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Bench(format!("starting a runtime: {e}")))?;
    let addr = free_local_addr()?;
    let server = journal.clone();
    runtime.spawn(async move {
        if let Err(e) = tabletape_api::serve(server, addr).await {
            tracing::error!("bench server on {addr}: {e}");
        }
    });
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        // The writers use [`Wire`]; this is only a look.
        let up = ureq::Agent::config_builder()
            .timeout_recv_response(Some(Duration::from_secs(30)))
            .http_status_as_error(false)
            .build()
            .new_agent()
            .get(format!("http://{addr}/healthz"))
            .call()
            .is_ok_and(|r| r.status() == 200);
        if up {
            return Ok((runtime, addr));
        }
        if Instant::now() > deadline {
            return Err(CliError::Bench(format!(
                "the API did not come up on {addr}"
            )));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Builds a game of `events` events with `act_batch`, returning its id,
/// with a progress bar on a terminal (not for `--json`).
fn big_game(journal: &Journal, events: u64, seed: u64, json: bool) -> Result<String> {
    let (game, _) = new_game(journal, seed)?;
    let mut script = Script::for_game(journal, &game)?;
    let mut head = 1u64;
    let bar = crate::progress::steps(json, "  building the big game (events)", events);
    while head < events {
        let n = (events - head).min(BATCH as u64) as usize;
        let actions = script.take(n)?;
        let acted =
            journal.act_batch(&game, MAIN_BRANCH, Actor::Owner, None, actions, Some(head))?;
        head = acted.last().map_or(head, |a| a.seq);
        bar.set_position(head);
    }
    bar.finish_and_clear();
    Ok(game)
}

fn timed<T>(f: impl FnOnce() -> Result<T>) -> Result<(T, Duration)> {
    let start = Instant::now();
    let value = f()?;
    Ok((value, start.elapsed()))
}

/// How big a run is: see [`FULL`], [`QUICK`] and [`SMOKE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    Full,
    Quick,
    Smoke,
}

pub fn run(out: &mut dyn Write, json: bool, scale: Scale, store: &Location) -> Result<()> {
    let sizes = match scale {
        Scale::Full => FULL,
        Scale::Quick => QUICK,
        Scale::Smoke => SMOKE,
    };
    let quick = scale != Scale::Full;
    let machine = machine();
    if !json {
        writeln!(
            out,
            "machine: {} CPU(s), {} ({})",
            machine.cpus, machine.model, machine.os
        )?;
        writeln!(
            out,
            "running {} bench (big game: {} events) on {}...",
            match scale {
                Scale::Full => "full",
                Scale::Quick => "quick",
                Scale::Smoke => "smoke",
            },
            sizes.big_game_events,
            match store {
                Location::Dir(_) => "sled, in temporary stores".to_string(),
                Location::Postgres(_) => format!("PostgreSQL, in temporary schemas of {store}"),
            }
        )?;
        out.flush()?;
    }
    let mut dirs = TempStores(Vec::new());
    let mut stores = Stores::of(store);
    let journal = stores.journal("store")?;
    let mut rows = Vec::new();
    let mut row = |name: String, value: f64, unit: &'static str| {
        // A full run takes a while: show each result on stderr as it comes.
        if !json {
            eprintln!("  {name}: {value:.2} {unit}");
        }
        rows.push(Row { name, value, unit })
    };

    // One writer's appends in turns with the raw loop's (on a disk, not a
    // database server's), so a slow minute of the disk falls on both.
    let raw_path = (!stores.is_postgres()).then(|| dirs.path("raw"));
    let (one, raw, payloads) = single_writer(&journal, raw_path.as_deref(), sizes.single_appends)?;
    row("durable appends, journal, 1 writer".into(), one, "events/s");
    let many = journal_appends(&journal, WRITERS, sizes.appends_per_writer, 100)?;
    row(
        format!("durable appends, journal, {WRITERS} writers"),
        many,
        "events/s",
    );
    // The yardsticks, on the same disk in the same run, with the same bytes.
    if let Some(raw) = raw {
        row(
            "raw write+fdatasync loop, 1 writer (same event bytes, interleaved)".into(),
            raw,
            "events/s",
        );
        row(
            "journal 1 writer / raw write+fdatasync loop".into(),
            one / raw,
            "ratio",
        );
    }
    if !stores.is_postgres() {
        let group = crate::peers::raw_group_commit(
            &dirs.path("raw-group"),
            &payloads,
            WRITERS,
            sizes.appends_per_writer,
        )?;
        row(
            format!("raw group commit, {WRITERS} writers (same event bytes)"),
            group,
            "events/s",
        );
        row(
            format!("journal {WRITERS} writers / raw group commit"),
            many / group,
            "ratio",
        );
    }
    if let Some(url) = stores.scratch_url("peer")? {
        let peer =
            crate::peers::postgres::inserts(&url, &payloads, WRITERS, sizes.appends_per_writer)?;
        row(
            format!("PostgreSQL single-row INSERT loop, {WRITERS} connections (same event bytes)"),
            peer,
            "events/s",
        );
        row(
            format!("journal {WRITERS} writers / INSERT loop"),
            many / peer,
            "ratio",
        );
    }
    #[cfg(feature = "sqlite-peer")]
    if !stores.is_postgres() {
        let mut peer = |per_tx: usize| {
            crate::peers::sqlite::appends(
                &dirs.path(&format!("sqlite-{per_tx}")),
                &payloads,
                WRITERS,
                sizes.appends_per_writer.max(per_tx),
                per_tx,
            )
        };
        let sqlite_one = peer(1)?;
        row(
            format!("SQLite (WAL, synchronous=FULL), {WRITERS} writers, 1 event per transaction"),
            sqlite_one,
            "events/s",
        );
        row(
            format!("SQLite (WAL, synchronous=FULL), {WRITERS} writers, 64 events per transaction"),
            peer(64)?,
            "events/s",
        );
        row(
            format!("journal {WRITERS} writers / SQLite 1 event per transaction"),
            many / sqlite_one,
            "ratio",
        );
    }
    let (runtime, addr) = start_server(&journal)?;
    row(
        "durable appends, HTTP, 1 writer".into(),
        http_appends(&journal, &[addr], 1, sizes.single_appends, 1_000)?,
        "events/s",
    );
    let http_many = http_appends(&journal, &[addr], WRITERS, sizes.appends_per_writer, 2_000)?;
    row(
        format!("durable appends, HTTP, {WRITERS} writers"),
        http_many,
        "events/s",
    );
    row(
        format!("HTTP {WRITERS} writers / journal {WRITERS} writers"),
        http_many / many,
        "ratio",
    );
    runtime.shutdown_timeout(Duration::from_secs(2));
    if let Some(url) = stores.url() {
        // Several servers on one database: the same 64 writers spread over
        // one `serve` process, then two.
        let one = served_appends(&journal, &url, 1, sizes.appends_per_writer, 3_000)?;
        row(
            format!("durable appends, HTTP, {WRITERS} writers, 1 serve process"),
            one,
            "events/s",
        );
        let two = served_appends(&journal, &url, 2, sizes.appends_per_writer, 4_000)?;
        row(
            format!("durable appends, HTTP, {WRITERS} writers, 2 serve processes"),
            two,
            "events/s",
        );
        row("2 serve processes / 1".into(), two / one, "ratio");
    }

    // Before the big game, whose build fills the heap: what games in play
    // cost (each is created, and so folded and cached, and written durably).
    let before = heap_mib();
    for i in 0..sizes.active_games {
        new_game(&journal, 50_000 + i)?;
    }
    if let (Some(before), Some(after)) = (before, heap_mib()) {
        row(
            format!("heap growth, {} active games", sizes.active_games),
            after - before,
            "MiB",
        );
    }

    let (small, _) = new_game(&journal, 3_000)?;
    let actions = Script::for_game(&journal, &small)?.take(9)?;
    journal.act_batch(&small, MAIN_BRANCH, Actor::Owner, None, actions, Some(1))?;
    row(
        "fork a 10-event game".into(),
        fork_ms(&journal, &small, 5)?,
        "ms",
    );

    let n = sizes.big_game_events;
    let (big, took) = timed(|| big_game(&journal, n, 4_000, json))?;
    row(
        format!("build a {n}-event game (act_batch of {BATCH})"),
        n as f64 / took.as_secs_f64(),
        "events/s",
    );
    row(
        format!("fork a {n}-event game"),
        fork_ms(&journal, &big, n / 2)?,
        "ms",
    );
    let at = n * 618 / 1000 + 7;
    let state = median_ms(|| {
        journal.state(&big, MAIN_BRANCH, Some(at), Viewer::Owner)?;
        Ok(())
    })?;
    row(
        format!("state at seq {at} of the {n}-event game"),
        state,
        "ms",
    );

    // A prefix is enough to measure the fold's speed and keeps memory bounded.
    let events = journal.events(&big, MAIN_BRANCH, 1, Some(n.min(FOLD_EVENTS)))?;
    let (_, took) = timed(|| {
        for _ in 0..FOLD_ROUNDS {
            Game::fold(&events).map_err(|e| CliError::Bench(format!("folding: {e}")))?;
        }
        Ok(())
    })?;
    row(
        format!(
            "fold {} events (in memory), {FOLD_ROUNDS} times",
            events.len()
        ),
        (events.len() * FOLD_ROUNDS) as f64 / took.as_secs_f64(),
        "events/s",
    );
    drop(events);

    let stored = n.min(FOLD_STORED_EVENTS);
    let (_, took) = timed(|| fold_stored(&journal, &big, stored))?;
    row(
        format!("fold {stored} events (read from storage)"),
        stored as f64 / took.as_secs_f64(),
        "events/s",
    );

    let file = dirs.path("export.jsonl");
    let io_error = |e: std::io::Error| CliError::file(&file, e);
    let (exported, took) = timed(|| {
        let mut writer = BufWriter::new(File::create(&file).map_err(io_error)?);
        let exported = journal.export(&big, None, &mut writer)?;
        writer.flush().map_err(io_error)?;
        Ok(exported)
    })?;
    row(
        "export JSON Lines".into(),
        exported as f64 / took.as_secs_f64(),
        "events/s",
    );
    let other = stores.journal("import")?;
    let (imported, took) = timed(|| {
        let mut reader = BufReader::new(File::open(&file).map_err(io_error)?);
        Ok(other.import(&mut reader)?)
    })?;
    row(
        "import JSON Lines".into(),
        imported.events as f64 / took.as_secs_f64(),
        "events/s",
    );
    if let Some(mib) = peak_memory_mib() {
        row("peak memory (VmHWM)".into(), mib, "MiB");
    }

    if json {
        let text =
            serde_json::to_string(&json!({"machine": machine, "quick": quick, "results": rows}))
                .expect("bench rows serialize");
        writeln!(out, "{text}")?;
    } else {
        let table: Vec<Vec<String>> = rows
            .iter()
            .map(|r| {
                vec![
                    r.name.clone(),
                    if r.unit == "ratio" {
                        format!("{:.2}", r.value)
                    } else {
                        format!("{:.1}", r.value)
                    },
                    r.unit.to_string(),
                ]
            })
            .collect();
        writeln!(out)?;
        write!(
            out,
            "{}",
            crate::show::table(&["MEASURE", "VALUE", "UNIT"], &table)
        )?;
    }
    drop(other);
    drop(journal);
    drop(stores);
    drop(dirs);
    Ok(())
}

/// Where the bench keeps its stores: temporary sled directories, or
/// temporary schemas of the PostgreSQL database `--store` names, dropped
/// however the run ends.
enum Stores {
    Dirs(TempStores),
    Postgres { url: String, schemas: Vec<String> },
}

impl Stores {
    fn of(store: &Location) -> Stores {
        match store {
            Location::Dir(_) => Stores::Dirs(TempStores(Vec::new())),
            Location::Postgres(url) => Stores::Postgres {
                url: url.clone(),
                schemas: Vec::new(),
            },
        }
    }

    fn is_postgres(&self) -> bool {
        matches!(self, Stores::Postgres { .. })
    }

    /// The database URL of the first store opened, on PostgreSQL.
    fn url(&self) -> Option<String> {
        match self {
            Stores::Dirs(_) => None,
            Stores::Postgres { url, schemas } => schemas
                .first()
                .and_then(|schema| PgLog::schema_url(url, schema).ok()),
        }
    }

    /// On PostgreSQL, the URL of a schema of the bench's own for `tag`
    /// (dropped with the rest); none on sled.
    fn scratch_url(&mut self, tag: &str) -> Result<Option<String>> {
        match self {
            Stores::Dirs(_) => Ok(None),
            Stores::Postgres { url, schemas } => scratch_schema(url, schemas, tag).map(Some),
        }
    }

    fn journal(&mut self, tag: &str) -> Result<Journal> {
        match self {
            Stores::Dirs(dirs) => Ok(Journal::open(&dirs.path(tag))?),
            Stores::Postgres { url, schemas } => {
                let at = scratch_schema(url, schemas, tag)?;
                Ok(Journal::open_at(&Location::Postgres(at))?)
            }
        }
    }
}

/// Makes the schema the bench keeps `tag`'s tables in, noting it in
/// `schemas` to drop, and returns the URL that works in it.
fn scratch_schema(url: &str, schemas: &mut Vec<String>, tag: &str) -> Result<String> {
    let schema = format!("tabletape_bench_{}_{tag}", std::process::id());
    let at = PgLog::schema_url(url, &schema).map_err(JournalError::from)?;
    schemas.push(schema);
    Ok(at)
}

impl Drop for Stores {
    fn drop(&mut self) {
        if let Stores::Postgres { url, schemas } = self {
            for schema in schemas.iter() {
                if let Err(e) = PgLog::drop_schema(url, schema) {
                    eprintln!("bench: schema {schema} not dropped: {e}");
                }
            }
        }
    }
}

/// Appends/s through `processes` `tabletape serve` processes on the
/// database at `url`, the writers spread over them.
fn served_appends(
    journal: &Journal,
    url: &str,
    processes: usize,
    appends: usize,
    seed: u64,
) -> Result<f64> {
    let exe = std::env::current_exe()
        .map_err(|e| CliError::Bench(format!("finding this program: {e}")))?;
    let mut servers = Vec::new();
    let mut addrs = Vec::new();
    for _ in 0..processes {
        let mut child = std::process::Command::new(&exe)
            .args(["--store", url, "serve", "--addr", "127.0.0.1:0"])
            .env_remove("TABLETAPE_STORE")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .map_err(|e| CliError::Bench(format!("starting serve: {e}")))?;
        // Kept open while the server runs: it writes to it after listening.
        let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
        let listening = std::io::BufRead::lines(&mut stdout)
            .map_while(std::result::Result::ok)
            .find_map(|line| {
                line.strip_prefix("listening on http://")
                    .map(str::to_string)
            });
        servers.push(Served {
            child,
            _output: stdout,
        });
        let listening = listening
            .ok_or_else(|| CliError::Bench("serve did not say where it listens".into()))?;
        addrs.push(
            listening
                .parse()
                .map_err(|e| CliError::Bench(format!("serve's address {listening}: {e}")))?,
        );
    }
    http_appends(journal, &addrs, WRITERS, appends, seed)
}

/// A `serve` child process, stopped when dropped, and its output, kept open
/// until then.
struct Served {
    child: std::process::Child,
    _output: BufReader<std::process::ChildStdout>,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The median time of a few forks of `main` at `at`. One fork alone, right
/// after a burst of writes, mostly times the fsync of whatever sled wrote in
/// the background meanwhile, which has nothing to do with the game's size.
fn fork_ms(journal: &Journal, game: &str, at: u64) -> Result<f64> {
    median_ms(|| {
        journal.fork(game, MAIN_BRANCH, at, None, None, Access::Owner)?;
        Ok(())
    })
}

/// The median of five timings of `f`, in ms: one slow sync or cold read
/// does not decide a figure measured once.
fn median_ms(mut f: impl FnMut() -> Result<()>) -> Result<f64> {
    const TIMES: usize = 5;
    let mut times = Vec::with_capacity(TIMES);
    for _ in 0..TIMES {
        let (_, took) = timed(&mut f)?;
        times.push(ms(took));
    }
    times.sort_by(f64::total_cmp);
    Ok(times[TIMES / 2])
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn health_sums_body_points_anywhere() {
        let view = json!({"seats": [{"body_points": 10, "name": "Nowa"}, {"body_points": 7, "exchange": 3}], "body": {"max": 2}});
        assert_eq!(health(&view), 19);
        assert_eq!(health(&json!({"round": 4})), 0);
    }

    #[test]
    fn cycles_are_found_only_after_enough_repeats() {
        let text = |items: &[&str]| items.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let mut history = text(&["opening", "x"]);
        for _ in 0..3 {
            history.extend(text(&["a", "b", "c", "d", "e", "f"]));
        }
        assert_eq!(period(&history), None, "three repeats are not enough");
        history.extend(text(&["a", "b", "c", "d", "e", "f"]));
        assert_eq!(period(&history), Some(6));
        assert_eq!(
            period(&text(&["z"; 23])),
            None,
            "short runs of one move are not a cycle"
        );
        assert_eq!(period(&text(&["z"; 24])), Some(1));
        history.push("g".into());
        assert_eq!(period(&history), None);
    }

    /// The bench's game as the journal would lay it out, in memory.
    fn endless_game() -> Game {
        let kind = tabletape_engine::kind(KIND).expect("lostworlds is built in");
        Game::start(&tabletape_events::GameCreated {
            title: None,
            kind: KIND.into(),
            players: vec!["Nowa".into(), "Grimbold".into()],
            seed: 4_000,
            dice: Default::default(),
            options: [("exchange_limit".to_string(), json!(u32::MAX))]
                .into_iter()
                .collect(),
            pack: kind.default_pack(),
            public: false,
            rules_version: None,
            chance_version: None,
        })
        .expect("the bench game starts")
    }

    #[test]
    fn script_settles_into_a_cycle_that_the_rules_accept_forever() {
        let mut script = Script::new(endless_game());
        let actions = script.take(3_000).expect("a long line of play");
        let (cycle, _) = script.cycle.as_ref().expect("the script found a cycle");
        let cycle_len = cycle.len();
        // Fold every action for real, well past where the cycle was found.
        let mut game = endless_game();
        for (i, action) in actions.iter().enumerate() {
            let decision = game
                .decide(None, action)
                .unwrap_or_else(|r| panic!("action {i} {action} rejected: {r}"));
            game.apply(&scratch_event(
                game.seq() + 1,
                Body::ActionAccepted(decision.body),
            ))
            .unwrap();
            assert!(!game.is_over(), "the fight ended at action {i}");
        }
        assert!(
            script.chosen.len() < 3_000,
            "the cycle ({cycle_len} actions) was found early"
        );
        let before = health(&game.view(Viewer::Owner));
        for action in script.take(cycle_len * 2).unwrap() {
            let decision = game.decide(None, &action).unwrap();
            game.apply(&scratch_event(
                game.seq() + 1,
                Body::ActionAccepted(decision.body),
            ))
            .unwrap();
        }
        assert_eq!(
            health(&game.view(Viewer::Owner)),
            before,
            "a cycle costs nobody body points"
        );
    }

    #[test]
    fn peak_memory_is_read_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(peak_memory_mib().unwrap() > 0.0);
            // From one reading: between two, the allocator may hand pages
            // back in a way the kernel's peak does not see, and the resident
            // size read first can then exceed the peak read second.
            let status = std::fs::read_to_string("/proc/self/status").unwrap();
            assert!(mib_in(&status, "VmRSS:").unwrap() <= mib_in(&status, "VmHWM:").unwrap());
        }
    }

    #[test]
    fn the_heap_counts_what_is_held() {
        // 64 MiB held, against half of it: other tests run alongside.
        let before = heap_mib().unwrap();
        let held = vec![1u8; 64 << 20];
        let during = heap_mib().unwrap();
        drop(held);
        let after = heap_mib().unwrap();
        assert!(during - before >= 32.0, "{before} then {during}");
        assert!(during - after >= 32.0, "{during} then {after}");
    }
}
