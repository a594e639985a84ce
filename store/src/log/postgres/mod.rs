//! The PostgreSQL backend, [`PgLog`]: the log of [`super::SledLog`], with the
//! same promises, on a database that many `tabletape serve` processes share.
//!
//! Schema (see [`MIGRATIONS`]; `tabletape` creates and migrates it itself,
//! recording each version applied in `tabletape_schema`): `games` (id, kind,
//! creation time, the [`GameMeta`] as JSONB), `branches` (game, name, parent,
//! fork seq, creation order, head seq and hash, the [`BranchRecord`] as
//! JSONB), `events` (one row per event a branch owns: the envelope in
//! columns, the body as JSONB; unique on game, branch and seq), `packs`
//! (content packs by SHA-256, each stored once, as in sled), `receipts`,
//! `snapshots` and `tabletape_settings` (the admin token's hash).
//!
//! Appends. An append is one statement: it moves the branch's head only if
//! the head is still the one its events were chained on and the
//! idempotency key is unused, and writes the events and the receipt only if
//! it did. Concurrent appenders of a branch therefore serialise on the
//! branch's row, in any number of processes, and the unique key on (game,
//! branch, seq) stands behind the check. An appender that lost the race
//! chains its events again on the new head (or reports the conflict when it
//! named an expected seq). Every connection runs with `synchronous_commit =
//! on`, so an append is acknowledged only once its commit is on disk.
//! Each append is its own transaction rather than part of a batch: the
//! server already flushes the commits of concurrent appenders together, and
//! one appender's conflict then never undoes another's events.
//!
//! Imports. An import runs in one transaction on a connection of its own,
//! from its first staged event to its commit (the game record) or its
//! rollback: all or nothing whatever fails, and a second import of the same
//! id, in any process, waits on the first's unique keys and then fails.
//! Reads of a game being imported here go through that connection, so the
//! import can check what it staged.
//!
//! Live. Every write that changes a branch (an append, a fork, a take-back)
//! notifies the `tabletape_changes` channel with the game's id, delivered
//! once it has committed; [`Log::watch`] passes each on, so the live streams
//! of every process hear of every write. A fork or a take-back notifies in
//! its own transaction. An append does not: a notifying commit holds a lock
//! on the whole database until it has flushed, so appends that notified
//! flushed one at a time (4,400 single-row inserts a second here against
//! 18,000 without). Once committed, an append hands its game to the log's
//! notifier ([`notify_changes`]), which announces every game handed to it
//! since its last announcement in one transaction of its own. A notice is
//! a hint to refresh, never the data: a process that dies between an
//! append and its notice leaves the other processes' live pages one step
//! behind until the next write, and a notifier that lost its connection
//! announces "anything may have changed" once it has one again.
//!
//! Calls. The [`Log`] trait is synchronous, as the journal is. The log owns
//! a small tokio runtime that drives its connections, and each call blocks
//! on it; callers must not be async workers (the API calls the journal from
//! tokio's blocking pool).

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod};
use tabletape_engine::Snapshot;
use tabletape_events::{Body, Event, MAIN_BRANCH};
use tokio_postgres::{AsyncMessage, NoTls};

use super::{
    check_drafts, check_fork_seq, check_game_id, check_name, from_json, place, unplace, Appended,
    BranchRecord, Draft, FoldStep, GameMeta, Head, Log, Receipt, Staged, APPEND_RETRIES,
};
use crate::error::StoreError;

mod queries;
mod rows;
mod schema;

use queries::{
    append_on_sql, append_sql, head_and_receipt, insert_game, line_of, missing, put_snapshot,
    read_history, segments,
};
use rows::{
    branch_of, event_of, game_of, int, json_string, step_of, uint, unique_violation, EventRows,
    Jsonb, BRANCH_COLUMNS, EVENT_COLUMNS, STEP_COLUMNS,
};
use schema::migrate;
pub use schema::SCHEMA;

/// The channel every write that changes a game is announced on.
pub(super) const CHANNEL: &str = "tabletape_changes";

/// Connections one process keeps open at most.
const POOL_SIZE: usize = 16;

/// The key of the admin token's hash in `tabletape_settings`.
const ADMIN_TOKEN_KEY: &str = "admin_token_hash";

/// The log on a PostgreSQL database.
pub struct PgLog {
    /// Drives the connections; shut down in the background on drop, since
    /// a runtime may not be dropped where blocking is not allowed.
    runtime: Option<tokio::runtime::Runtime>,
    pool: Pool,
    config: tokio_postgres::Config,
    /// Where the database is (no password), for messages.
    place: String,
    /// Imports under way in this process: each one's connection, inside
    /// its open transaction.
    staging: Mutex<HashMap<String, Object>>,
    /// Who hears of changes ([`Log::watch`]); the listener starts with the first.
    watchers: Arc<Mutex<Watchers>>,
    /// The games appends changed, for [`notify_changes`] to announce.
    changed: tokio::sync::mpsc::UnboundedSender<String>,
}

impl std::fmt::Debug for PgLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgLog").field("place", &self.place).finish()
    }
}

impl Drop for PgLog {
    fn drop(&mut self) {
        // Rolls back and closes what imports left staged.
        self.staging
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// Whether `store` names a PostgreSQL database rather than a directory.
pub fn is_postgres_url(store: &str) -> bool {
    store.starts_with("postgres://") || store.starts_with("postgresql://")
}

impl PgLog {
    /// Connects to the database at `url` (`postgres://user@host/db`) and
    /// brings its schema to this build's version.
    pub fn open(url: &str) -> Result<PgLog, StoreError> {
        let mut config: tokio_postgres::Config = url
            .parse()
            .map_err(|e| StoreError::Postgres(format!("not a PostgreSQL URL: {e}")))?;
        if config.get_application_name().is_none() {
            config.application_name("tabletape");
        }
        // Acknowledge nothing before its commit is on disk, whatever the
        // server's default.
        let options = format!(
            "{} -c synchronous_commit=on",
            config.get_options().unwrap_or_default()
        );
        config.options(options.trim());
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(10));
        }
        let place = place_of(&config);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("tabletape-postgres")
            .enable_all()
            .build()
            .map_err(|e| StoreError::Postgres(format!("cannot start its client: {e}")))?;
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .create_timeout(Some(Duration::from_secs(10)))
            .wait_timeout(Some(Duration::from_secs(60)))
            .build()
            .map_err(|e| StoreError::Postgres(format!("cannot make its connection pool: {e}")))?;
        let (changed, to_announce) = tokio::sync::mpsc::unbounded_channel();
        runtime.spawn(notify_changes(config.clone(), place.clone(), to_announce));
        let log = PgLog {
            runtime: Some(runtime),
            pool,
            config,
            place,
            staging: Mutex::default(),
            watchers: Arc::default(),
            changed,
        };
        log.run(async {
            let mut c = log.conn().await?;
            migrate(&mut c).await
        })?;
        Ok(log)
    }

    /// The URL of the same database with its tables in `schema` (made if
    /// missing): how the bench keeps its stores apart from a real one.
    pub fn schema_url(url: &str, schema: &str) -> Result<String, StoreError> {
        check_schema_name(schema)?;
        on_the_side(url, &format!("CREATE SCHEMA IF NOT EXISTS {schema}"))?;
        let joiner = if url.contains('?') { '&' } else { '?' };
        Ok(format!("{url}{joiner}options=-c%20search_path%3D{schema}"))
    }

    /// Drops a schema [`PgLog::schema_url`] made, with everything in it.
    pub fn drop_schema(url: &str, schema: &str) -> Result<(), StoreError> {
        check_schema_name(schema)?;
        on_the_side(url, &format!("DROP SCHEMA IF EXISTS {schema} CASCADE"))
    }

    /// Runs `work` on the log's runtime, waiting for it.
    fn run<T>(&self, work: impl Future<Output = T>) -> T {
        self.runtime
            .as_ref()
            .expect("the runtime lives until drop")
            .block_on(work)
    }

    async fn conn(&self) -> Result<Object, StoreError> {
        self.pool.get().await.map_err(|e| {
            StoreError::Unavailable(format!(
                "the database at {} does not answer: {e}",
                self.place
            ))
        })
    }

    /// Hands a game an append changed to the notifier (see [`notify_changes`]).
    fn announce(&self, game: &str) {
        // The notifier stops only with the runtime, when the log is dropped.
        let _ = self.changed.send(game.to_string());
    }

    fn staged(&self) -> std::sync::MutexGuard<'_, HashMap<String, Object>> {
        self.staging.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The connection for `game`: its import's while one is staged here.
    async fn conn_for(&self, game: &str) -> Result<Conn<'_>, StoreError> {
        if let Some(object) = self.staged().remove(game) {
            return Ok(Conn::staging(self, game, object));
        }
        Ok(Conn::pooled(self.conn().await?))
    }

    /// The import's connection for `game`, its transaction begun on first use.
    async fn staging_conn(&self, game: &str) -> Result<Conn<'_>, StoreError> {
        if let Some(object) = self.staged().remove(game) {
            return Ok(Conn::staging(self, game, object));
        }
        let object = self.conn().await?;
        object.batch_execute("BEGIN").await?;
        Ok(Conn::staging(self, game, object))
    }

    /// Tells every watcher about each game another write changed, from a
    /// connection that listens on [`CHANNEL`] (reconnecting if it drops).
    fn listen(&self) {
        let config = self.config.clone();
        let place = self.place.clone();
        let watchers = Arc::clone(&self.watchers);
        let tell = move |game: &str| {
            let watchers = watchers.lock().unwrap_or_else(PoisonError::into_inner);
            watchers.iter().for_each(|w| w(game));
        };
        let runtime = self.runtime.as_ref().expect("the runtime lives until drop");
        runtime.spawn(async move {
            loop {
                match config.connect(NoTls).await {
                    Ok((client, mut connection)) => {
                        let (sent, mut heard) = tokio::sync::mpsc::unbounded_channel();
                        let driver = tokio::spawn(async move {
                            while let Some(message) =
                                std::future::poll_fn(|cx| connection.poll_message(cx)).await
                            {
                                match message {
                                    Ok(AsyncMessage::Notification(n)) => {
                                        let _ = sent.send(n.payload().to_string());
                                    }
                                    Ok(_) => {}
                                    Err(_) => break,
                                }
                            }
                        });
                        if client
                            .batch_execute(&format!("LISTEN {CHANNEL}"))
                            .await
                            .is_ok()
                        {
                            // Anything may have changed while no one listened.
                            tell("");
                            while let Some(game) = heard.recv().await {
                                tell(&game);
                            }
                        }
                        driver.abort();
                        tracing::warn!(place, "lost the PostgreSQL change feed; reconnecting");
                    }
                    Err(e) => tracing::warn!(place, "cannot listen for changes: {e}"),
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        });
    }
}

type Watchers = Vec<Arc<dyn Fn(&str) + Send + Sync>>;

/// Announces on [`CHANNEL`] the games appends hand it, on a connection of
/// its own (made when first needed, made again when lost): every game
/// handed over since the last announcement, in one transaction that waits
/// for no flush (it writes nothing to keep). The more appends, the more
/// games each announcement carries. A failed announcement is not retried:
/// the next one says that anything may have changed (an empty id, as the
/// listener says to itself when it reconnects).
async fn notify_changes(
    config: tokio_postgres::Config,
    place: String,
    mut changed: tokio::sync::mpsc::UnboundedReceiver<String>,
) {
    let mut client: Option<tokio_postgres::Client> = None;
    let mut lost = false;
    while let Some(first) = changed.recv().await {
        let mut games = std::collections::BTreeSet::from([first]);
        while let Ok(game) = changed.try_recv() {
            games.insert(game);
        }
        if lost {
            games.insert(String::new());
        }
        let games: Vec<String> = games.into_iter().collect();
        let announced = async {
            let c = match &mut client {
                Some(c) if !c.is_closed() => c,
                slot => {
                    let (c, connection) = config.connect(NoTls).await?;
                    tokio::spawn(connection);
                    slot.insert(c)
                }
            };
            let tx = c.transaction().await?;
            tx.batch_execute("SET LOCAL synchronous_commit TO off")
                .await?;
            tx.execute(
                "SELECT pg_notify($1, game) FROM unnest($2::text[]) AS game",
                &[&CHANNEL, &games],
            )
            .await?;
            tx.commit().await
        };
        match announced.await {
            Ok(()) => lost = false,
            Err(e) => {
                if !lost {
                    tracing::warn!(place, "cannot announce changes: {e}");
                }
                lost = true;
                client = None;
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

/// A bench schema's name: lower-case letters, digits and `_`, so it goes
/// into a statement as it is.
fn check_schema_name(schema: &str) -> Result<(), StoreError> {
    if schema.is_empty()
        || !schema
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    {
        return Err(StoreError::BadName {
            what: "schema name",
            name: schema.to_string(),
            why: "only lower-case ASCII letters, digits and `_` may be used",
        });
    }
    Ok(())
}

/// Runs one statement on a connection of its own.
fn on_the_side(url: &str, sql: &str) -> Result<(), StoreError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| StoreError::Postgres(format!("cannot start its client: {e}")))?;
    runtime.block_on(async {
        let (client, connection) = tokio_postgres::connect(url, NoTls).await?;
        let driver = tokio::spawn(connection);
        let done = client.batch_execute(sql).await;
        drop(client);
        let _ = driver.await;
        Ok(done?)
    })
}

/// A connection for one call: from the pool, or an import's own, which goes
/// back to its import when dropped.
struct Conn<'a> {
    object: Option<Object>,
    staging: Option<(&'a PgLog, String)>,
}

impl<'a> Conn<'a> {
    fn pooled(object: Object) -> Conn<'a> {
        Conn {
            object: Some(object),
            staging: None,
        }
    }

    fn staging(log: &'a PgLog, game: &str, object: Object) -> Conn<'a> {
        Conn {
            object: Some(object),
            staging: Some((log, game.to_string())),
        }
    }

    /// Ends an import's hold: the connection goes back to the pool, or is
    /// closed when its state is unknown.
    fn finish(mut self, clean: bool) {
        self.staging = None;
        if let (false, Some(object)) = (clean, self.object.take()) {
            drop(Object::take(object));
        }
    }
}

impl std::ops::Deref for Conn<'_> {
    type Target = Object;
    fn deref(&self) -> &Object {
        self.object.as_ref().expect("a connection until drop")
    }
}

impl Drop for Conn<'_> {
    fn drop(&mut self) {
        if let (Some((log, game)), Some(object)) = (self.staging.take(), self.object.take()) {
            log.staged().insert(game, object);
        }
    }
}

/// `host:port/db` of a configuration, for messages (never the password).
fn place_of(config: &tokio_postgres::Config) -> String {
    let host = match config.get_hosts().first() {
        Some(tokio_postgres::config::Host::Tcp(h)) => h.clone(),
        #[cfg(unix)]
        Some(tokio_postgres::config::Host::Unix(p)) => p.display().to_string(),
        None => "localhost".into(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let db = config
        .get_dbname()
        .or(config.get_user())
        .unwrap_or("postgres");
    format!("{host}:{port}/{db}")
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> StoreError {
        // A connection that closed or could not be made is the database
        // out of reach, not a fault of the request.
        if e.as_db_error().is_none()
            && (e.is_closed()
                || std::error::Error::source(&e).is_some_and(|s| s.is::<std::io::Error>()))
        {
            return StoreError::Unavailable(e.to_string());
        }
        StoreError::Postgres(match e.as_db_error() {
            Some(db) => match db.detail() {
                Some(detail) => format!("{} ({detail})", db.message()),
                None => db.message().to_string(),
            },
            None => e.to_string(),
        })
    }
}

impl Log for PgLog {
    fn create_game(&self, meta: &GameMeta, created: Draft) -> Result<Appended, StoreError> {
        check_game_id(&meta.game)?;
        check_drafts(std::slice::from_ref(&created), 1)?;
        let game = meta.game.as_str();
        let events = place(game, MAIN_BRANCH, 0, "", None, vec![created]);
        let first = &events[0];
        let mut record = BranchRecord::main_of(meta, &first.hash, 0);
        let rows = EventRows::of(&events);
        record.order = self.run(async {
            let mut c = self.conn().await?;
            let tx = c.transaction().await?;
            if !insert_game(&tx, meta).await? {
                return Err(StoreError::GameExists(game.to_string()));
            }
            let order: i64 = tx
                .query_one(
                    "INSERT INTO branches (game, name, parent, fork_seq, ord, head_seq, head_hash, record)
                     VALUES ($1, $2, NULL, NULL, nextval('branch_order'), 1, $3, $4) RETURNING ord",
                    &[&game, &MAIN_BRANCH, &first.hash, &Jsonb(&json_string(&record))],
                )
                .await?
                .get(0);
            rows.insert(&tx, game).await.map_err(|e| {
                // An import of this id staged in another process got there first.
                if unique_violation(&e) {
                    StoreError::GameExists(game.to_string())
                } else {
                    e.into()
                }
            })?;
            tx.commit().await?;
            Ok::<_, StoreError>(uint(order))
        })?;
        Ok(Appended {
            receipt: Receipt {
                first_seq: 1,
                hashes: vec![first.hash.clone()],
                retried: false,
            },
            events,
        })
    }

    fn game(&self, game: &str) -> Result<Option<GameMeta>, StoreError> {
        self.run(async {
            let c = self.conn().await?;
            let query = c
                .prepare_cached("SELECT record FROM games WHERE game = $1")
                .await?;
            c.query_opt(&query, &[&game])
                .await?
                .map(|row| game_of(&row))
                .transpose()
        })
    }

    fn games(&self) -> Result<Vec<GameMeta>, StoreError> {
        self.run(async {
            let c = self.conn().await?;
            c.query("SELECT record FROM games ORDER BY game", &[])
                .await?
                .iter()
                .map(game_of)
                .collect()
        })
    }

    fn games_after(&self, after: Option<&str>, max: usize) -> Result<Vec<GameMeta>, StoreError> {
        self.run(async {
            let c = self.conn().await?;
            let query = c
                .prepare_cached(
                    // Every id is longer than "": one index range either way.
                    "SELECT record FROM games WHERE game > coalesce($1::text, '')
                     ORDER BY game LIMIT $2",
                )
                .await?;
            c.query(&query, &[&after, &int(max as u64)])
                .await?
                .iter()
                .map(game_of)
                .collect()
        })
    }

    fn admin_token_hash(&self) -> Result<Option<String>, StoreError> {
        self.run(async {
            let c = self.conn().await?;
            Ok(c.query_opt(
                "SELECT value FROM tabletape_settings WHERE key = $1",
                &[&ADMIN_TOKEN_KEY],
            )
            .await?
            .map(|row| row.get(0)))
        })
    }

    fn set_admin_token_hash(&self, hash: &str) -> Result<(), StoreError> {
        self.run(async {
            let c = self.conn().await?;
            c.execute(
                "INSERT INTO tabletape_settings (key, value) VALUES ($1, $2)
                 ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                &[&ADMIN_TOKEN_KEY, &hash],
            )
            .await?;
            Ok(())
        })
    }

    fn first_admin_token_hash(&self, hash: &str) -> Result<bool, StoreError> {
        self.run(async {
            let c = self.conn().await?;
            let added = c
                .execute(
                    "INSERT INTO tabletape_settings (key, value) VALUES ($1, $2)
                     ON CONFLICT DO NOTHING",
                    &[&ADMIN_TOKEN_KEY, &hash],
                )
                .await?;
            Ok(added == 1)
        })
    }

    fn take_back(
        &self,
        game: &str,
        from: &str,
        head: Head<'_>,
        branch: &str,
    ) -> Result<(), StoreError> {
        self.run(async {
            let mut c = self.conn().await?;
            let tx = c.transaction().await?;
            // The line's row first: this waits for an append that holds it,
            // and an append after it finds the mark (its statement checks).
            let marked = tx
                .execute(
                    "UPDATE branches SET record = jsonb_set(record, '{taken_back}', 'true')
                     WHERE game = $1 AND name = $2 AND head_seq = $3 AND head_hash = $4
                       AND record->'taken_back' IS DISTINCT FROM 'true'",
                    &[&game, &from, &int(head.seq), &head.hash],
                )
                .await?;
            if marked == 0 {
                tx.rollback().await?;
                return Err(match head_and_receipt(&c, game, from, None).await? {
                    None => missing(&c, game, from).await?,
                    Some((seq, ..)) => StoreError::Conflict {
                        expected: head.seq,
                        head: seq,
                    },
                });
            }
            let changed = tx
                .execute(
                    "UPDATE games SET record = jsonb_set(record, '{current}', to_jsonb($2::text))
                     WHERE game = $1",
                    &[&game, &branch],
                )
                .await?;
            if changed == 0 {
                return Err(StoreError::UnknownGame(game.to_string()));
            }
            tx.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &game])
                .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn mark_over(&self, game: &str) -> Result<(), StoreError> {
        self.run(async {
            let c = self.conn().await?;
            c.execute(
                "UPDATE games SET record = jsonb_set(record, '{over}', 'true')
                 WHERE game = $1 AND record->'over' IS DISTINCT FROM 'true'",
                &[&game],
            )
            .await?;
            Ok(())
        })
    }

    fn branch(&self, game: &str, branch: &str) -> Result<Option<BranchRecord>, StoreError> {
        self.run(async {
            let c = self.conn_for(game).await?;
            let query = c
                .prepare_cached(&format!(
                    "SELECT {BRANCH_COLUMNS} FROM branches WHERE game = $1 AND name = $2"
                ))
                .await?;
            c.query_opt(&query, &[&game, &branch])
                .await?
                .map(|row| branch_of(&row))
                .transpose()
        })
    }

    fn branches(&self, game: &str) -> Result<Vec<BranchRecord>, StoreError> {
        self.run(async {
            let c = self.conn_for(game).await?;
            c.query(
                &format!("SELECT {BRANCH_COLUMNS} FROM branches WHERE game = $1 ORDER BY ord"),
                &[&game],
            )
            .await?
            .iter()
            .map(branch_of)
            .collect()
        })
    }

    fn append(
        &self,
        game: &str,
        branch: &str,
        expected_seq: Option<u64>,
        idempotency_key: Option<&str>,
        drafts: Vec<Draft>,
    ) -> Result<Appended, StoreError> {
        no_drafts(&drafts)?;
        // Play is refused on a line taken back; notes and names are not.
        let plays = super::plays(drafts.iter().map(|d| &d.body));
        self.run(async {
            let c = self.conn().await?;
            let statement = if plays { append_on_sql() } else { append_sql() };
            let append = c.prepare_cached(statement).await?;
            let mut last_head = 0;
            let mut drafts = drafts;
            for _ in 0..APPEND_RETRIES {
                let Some((head, head_hash, receipt)) =
                    head_and_receipt(&c, game, branch, idempotency_key).await?
                else {
                    return Err(missing(&c, game, branch).await?);
                };
                if let Some(receipt) = receipt {
                    return Ok(Appended {
                        receipt,
                        events: Vec::new(),
                    });
                }
                if let Some(expected) = expected_seq {
                    if expected != head {
                        return Err(StoreError::Conflict { expected, head });
                    }
                }
                last_head = head;
                let on = Head {
                    seq: head,
                    hash: &head_hash,
                };
                match append_at(&c, &append, game, branch, on, idempotency_key, drafts).await? {
                    Ok(appended) => {
                        self.announce(game);
                        return Ok(appended);
                    }
                    // The head moved, or the key was used, meanwhile: look
                    // again, with the drafts back as they were.
                    Err(back) => drafts = back,
                }
            }
            Err(StoreError::Conflict {
                expected: last_head,
                head: head_and_receipt(&c, game, branch, None)
                    .await?
                    .map_or(last_head, |h| h.0),
            })
        })
    }

    fn append_on(
        &self,
        game: &str,
        branch: &str,
        head: Head<'_>,
        idempotency_key: Option<&str>,
        drafts: Vec<Draft>,
    ) -> Result<Option<Appended>, StoreError> {
        self.run(async {
            let c = self.conn().await?;
            // The statement checks the head, the line still open and the
            // key unused itself: no read before it.
            let append = c.prepare_cached(append_on_sql()).await?;
            let written =
                append_at(&c, &append, game, branch, head, idempotency_key, drafts).await?;
            if written.is_ok() {
                self.announce(game);
            }
            Ok(written.ok())
        })
    }

    fn receipt(
        &self,
        game: &str,
        branch: &str,
        idempotency_key: &str,
    ) -> Result<Option<Receipt>, StoreError> {
        self.run(async {
            let c = self.conn().await?;
            Ok(head_and_receipt(&c, game, branch, Some(idempotency_key))
                .await?
                .and_then(|h| h.2))
        })
    }

    fn fork(
        &self,
        game: &str,
        from: &str,
        at: u64,
        name: &str,
        created_at_ms: u64,
        first: Option<Draft>,
    ) -> Result<BranchRecord, StoreError> {
        check_name("branch name", name)?;
        self.run(async {
            let mut c = self.conn().await?;
            let Some((head, head_hash, _)) = head_and_receipt(&c, game, from, None).await? else {
                return Err(missing(&c, game, from).await?);
            };
            check_fork_seq(game, from, at, head)?;
            // Events up to the head never change: the hash at `at` read
            // here is still right when the fork commits.
            let at_hash = if at == head {
                head_hash
            } else {
                read_history(&c, (game, from), at, Some(at), (EVENT_COLUMNS, event_of))
                    .await?
                    .remove(0)
                    .hash
            };
            let drafts: Vec<Draft> = first.into_iter().collect();
            check_drafts(&drafts, at + 1)?;
            let events = place(game, name, at, &at_hash, None, drafts);
            let reseed = events.first().and_then(|e| match e.body {
                Body::Reseeded { seed } => Some(seed),
                _ => None,
            });
            let mut record = BranchRecord {
                name: name.to_string(),
                parent: Some(from.to_string()),
                fork_seq: Some(at),
                created_at_ms,
                reseed,
                order: 0,
                head_seq: events.last().map_or(at, |e| e.seq),
                head_hash: events
                    .last()
                    .map_or_else(|| at_hash.clone(), |e| e.hash.clone()),
                taken_back: false,
            };
            let tx = c.transaction().await?;
            let added = tx
                .query_opt(
                    "INSERT INTO branches (game, name, parent, fork_seq, ord, head_seq, head_hash, record)
                     VALUES ($1, $2, $3, $4, nextval('branch_order'), $5, $6, $7)
                     ON CONFLICT DO NOTHING RETURNING ord",
                    &[
                        &game,
                        &name,
                        &from,
                        &int(at),
                        &int(record.head_seq),
                        &record.head_hash,
                        &Jsonb(&json_string(&record)),
                    ],
                )
                .await?;
            let Some(order) = added else {
                return Err(StoreError::BranchExists {
                    game: game.to_string(),
                    branch: name.to_string(),
                });
            };
            record.order = uint(order.get(0));
            if !events.is_empty() {
                EventRows::of(&events).insert(&tx, game).await?;
            }
            tx.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &game])
                .await?;
            tx.commit().await?;
            Ok(record)
        })
    }

    fn read(
        &self,
        game: &str,
        branch: &str,
        from_seq: u64,
        to_seq: Option<u64>,
    ) -> Result<Vec<Event>, StoreError> {
        self.run(async {
            let c = self.conn_for(game).await?;
            read_history(
                &c,
                (game, branch),
                from_seq,
                to_seq,
                (EVENT_COLUMNS, event_of),
            )
            .await
        })
    }

    fn read_steps(
        &self,
        game: &str,
        branch: &str,
        from_seq: u64,
        to_seq: Option<u64>,
    ) -> Result<Vec<FoldStep>, StoreError> {
        self.run(async {
            let c = self.conn_for(game).await?;
            read_history(
                &c,
                (game, branch),
                from_seq,
                to_seq,
                (STEP_COLUMNS, step_of),
            )
            .await
        })
    }

    fn put_snapshot(
        &self,
        game: &str,
        branch: &str,
        snapshot: &Snapshot,
    ) -> Result<(), StoreError> {
        let json = serde_json::to_vec(snapshot).expect("snapshots serialize");
        self.run(async {
            let c = self.conn_for(game).await?;
            let line = line_of(&c, game, branch).await?;
            // Stored under the branch that owns the seq, so every
            // descendant finds it.
            let owner = segments(&line, branch, snapshot.seq, snapshot.seq)?
                .pop()
                .map_or_else(|| branch.to_string(), |s| s.0);
            put_snapshot(&c, game, &owner, snapshot.seq, &json).await
        })
    }

    fn snapshot_at_or_before(
        &self,
        game: &str,
        branch: &str,
        at: u64,
    ) -> Result<Option<Snapshot>, StoreError> {
        self.run(async {
            let c = self.conn_for(game).await?;
            let line = line_of(&c, game, branch).await?;
            let query = c
                .prepare_cached(
                    "SELECT snapshot FROM snapshots WHERE game = $1 AND branch = $2
                     AND seq BETWEEN $3 AND $4 ORDER BY seq DESC LIMIT 1",
                )
                .await?;
            for (name, lo, hi) in segments(&line, branch, 1, at)?.into_iter().rev() {
                if let Some(row) = c
                    .query_opt(&query, &[&game, &name, &int(lo), &int(hi)])
                    .await?
                {
                    let raw: &[u8] = row.get(0);
                    return Ok(Some(from_json("snapshot", raw)?));
                }
            }
            Ok(None)
        })
    }

    fn drop_snapshots(&self) -> Result<u64, StoreError> {
        self.run(async {
            let c = self.conn().await?;
            Ok(c.execute("DELETE FROM snapshots", &[]).await?)
        })
    }

    fn import_events(&self, game: &str, events: &[Staged]) -> Result<(), StoreError> {
        check_game_id(game)?;
        for Staged { event: e, .. } in events {
            if e.game != game {
                return Err(StoreError::InvalidEvent {
                    seq: e.seq,
                    why: format!("it names game `{}`, not `{game}`", e.game),
                });
            }
            check_name("branch name", &e.branch)?;
        }
        let rows = EventRows::of(events.iter().map(|s| &s.event));
        self.run(async {
            let c = self.staging_conn(game).await?;
            rows.insert(&*c, game).await.map_err(|e| {
                if unique_violation(&e) {
                    StoreError::GameExists(game.to_string())
                } else {
                    e.into()
                }
            })
        })
    }

    fn import_snapshot(
        &self,
        game: &str,
        branch: &str,
        snapshot: &Snapshot,
    ) -> Result<(), StoreError> {
        let json = serde_json::to_vec(snapshot).expect("snapshots serialize");
        self.run(async {
            let c = self.staging_conn(game).await?;
            put_snapshot(&c, game, branch, snapshot.seq, &json).await
        })
    }

    fn own_event(&self, game: &str, branch: &str, seq: u64) -> Result<Option<Event>, StoreError> {
        self.run(async {
            let c = self.conn_for(game).await?;
            let query = c
                .prepare_cached(&format!(
                    "SELECT {EVENT_COLUMNS} WHERE e.game = $1 AND e.branch = $2 AND e.seq = $3"
                ))
                .await?;
            c.query_opt(&query, &[&game, &branch, &int(seq)])
                .await?
                .map(|row| {
                    event_of(game, branch, &row).map_err(|why| StoreError::BadEvent {
                        game: game.to_string(),
                        branch: branch.to_string(),
                        seq,
                        why,
                    })
                })
                .transpose()
        })
    }

    fn import_branches(&self, game: &str, branches: &[BranchRecord]) -> Result<(), StoreError> {
        check_game_id(game)?;
        for b in branches {
            check_name("branch name", &b.name)?;
        }
        self.run(async {
            let c = self.staging_conn(game).await?;
            if c.query_opt("SELECT 1 FROM games WHERE game = $1", &[&game])
                .await?
                .is_some()
            {
                return Err(StoreError::GameExists(game.to_string()));
            }
            for b in branches {
                c.execute(
                    "INSERT INTO branches (game, name, parent, fork_seq, ord, head_seq, head_hash, record)
                     VALUES ($1, $2, $3, $4, nextval('branch_order'), $5, $6, $7)",
                    &[
                        &game,
                        &b.name,
                        &b.parent,
                        &b.fork_seq.map(int),
                        &int(b.head_seq),
                        &b.head_hash,
                        &Jsonb(&json_string(b)),
                    ],
                )
                .await
                .map_err(|e| {
                    if unique_violation(&e) {
                        StoreError::GameExists(game.to_string())
                    } else {
                        e.into()
                    }
                })?;
            }
            Ok(())
        })
    }

    fn commit_import(&self, meta: &GameMeta) -> Result<(), StoreError> {
        let game = meta.game.as_str();
        self.run(async {
            let c = self.staging_conn(game).await?;
            if !insert_game(&*c, meta).await? {
                // Left staged for `discard_import` to roll back.
                return Err(StoreError::GameExists(game.to_string()));
            }
            let committed = c.batch_execute("COMMIT").await;
            c.finish(committed.is_ok());
            Ok(committed?)
        })
    }

    fn discard_import(&self, game: &str) -> Result<(), StoreError> {
        let Some(object) = self.staged().remove(game) else {
            return Ok(());
        };
        self.run(async {
            let rolled_back = object.batch_execute("ROLLBACK").await;
            Conn::pooled(object).finish(rolled_back.is_ok());
            Ok(rolled_back?)
        })
    }

    fn healthy(&self) -> Result<(), StoreError> {
        self.run(async {
            self.conn().await?.simple_query("SELECT 1").await?;
            Ok(())
        })
    }

    fn watch(&self, on_change: Arc<dyn Fn(&str) + Send + Sync>) {
        let first = {
            let mut watchers = self.watchers.lock().unwrap_or_else(PoisonError::into_inner);
            watchers.push(on_change);
            watchers.len() == 1
        };
        if first {
            self.listen();
        }
    }
}

/// Chains `drafts` on `head` and runs `statement` (an append statement of
/// [`queries`]) with them: the appended events, or the drafts back, moved
/// out of the events uncopied, when it wrote nothing (the head moved, the
/// line was closed, the key was used).
async fn append_at(
    c: &deadpool_postgres::ClientWrapper,
    statement: &tokio_postgres::Statement,
    game: &str,
    branch: &str,
    head: Head<'_>,
    idempotency_key: Option<&str>,
    drafts: Vec<Draft>,
) -> Result<Result<Appended, Vec<Draft>>, StoreError> {
    no_drafts(&drafts)?;
    check_drafts(&drafts, head.seq + 1)?;
    let events = place(game, branch, head.seq, head.hash, idempotency_key, drafts);
    let last = events.last().expect("at least one draft");
    let receipt = Receipt {
        first_seq: head.seq + 1,
        hashes: events.iter().map(|e| e.hash.clone()).collect(),
        retried: false,
    };
    let rows = EventRows::of(&events);
    let json = rows.json();
    let receipt_json = idempotency_key.map(|_| json_string(&receipt));
    let receipt_param = receipt_json.as_deref().map(Jsonb);
    let mut params = rows.params(&game, &json);
    let (after_seq, after_hash, before) = (int(last.seq), &last.hash, int(head.seq));
    params.extend_from_slice(&[
        &after_seq,
        after_hash,
        &branch,
        &before,
        &idempotency_key,
        &receipt_param,
        &head.hash,
    ]);
    let started = std::time::Instant::now();
    let appended = c.query(statement, &params).await;
    // One statement, one commit: PostgreSQL groups the WAL flushes of
    // concurrent commits itself.
    metrics::histogram!("tabletape_sync_seconds").record(started.elapsed().as_secs_f64());
    metrics::histogram!("tabletape_group_commit_appends").record(1.0);
    drop(params);
    drop(rows);
    match appended {
        Ok(written) if !written.is_empty() => Ok(Ok(Appended { receipt, events })),
        Ok(_) => Ok(Err(unplace(events))),
        Err(e) if unique_violation(&e) => Ok(Err(unplace(events))),
        Err(e) => Err(e.into()),
    }
}

/// An append of nothing is a caller's mistake, refused before anything is sent.
fn no_drafts(drafts: &[Draft]) -> Result<(), StoreError> {
    if drafts.is_empty() {
        return Err(StoreError::InvalidEvent {
            seq: 0,
            why: "an append needs at least one event".into(),
        });
    }
    Ok(())
}
