//! The yardsticks `tabletape bench` measures the journal against, in the
//! same run and on the same disk: a raw `write` + `fdatasync` loop (what
//! one durable append costs the disk at the least), a raw group commit
//! (what many writers' durable appends cost it at the least), and SQLite in WAL mode
//! with `synchronous=FULL` storing the same event bytes (a general-purpose
//! database on the journal's own ground). SQLite is built only with the
//! `sqlite-peer` feature, so ordinary builds do not compile it. On a
//! PostgreSQL store the peer is the database itself: single-row INSERTs of
//! the same bytes from as many connections as the journal has writers.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::error::CliError;

type Result<T> = std::result::Result<T, CliError>;

/// One writer doing `write` then `fdatasync` of each payload at the end of
/// one file, in as many turns as the caller likes: the bench interleaves
/// them with the journal's own, so both meet the disk in the same state.
pub struct RawLoop {
    file: std::fs::File,
    path: std::path::PathBuf,
    written: usize,
}

impl RawLoop {
    pub fn open(path: &Path) -> Result<RawLoop> {
        let failed = |e: std::io::Error| CliError::Bench(format!("{}: {e}", path.display()));
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(failed)?;
        // The file's name is made durable first, as a store's is at open.
        file.sync_all().map_err(failed)?;
        Ok(RawLoop {
            file,
            path: path.to_path_buf(),
            written: 0,
        })
    }

    /// How long `appends` more payloads take, each written and synced.
    pub fn appends(&mut self, payloads: &[Vec<u8>], appends: usize) -> Result<Duration> {
        let failed = |e: std::io::Error| CliError::Bench(format!("{}: {e}", self.path.display()));
        let start = Instant::now();
        for payload in payloads.iter().cycle().skip(self.written).take(appends) {
            self.file.write_all(payload).map_err(failed)?;
            self.file.sync_data().map_err(failed)?;
        }
        self.written += appends;
        Ok(start.elapsed())
    }
}

/// Appends/s of `writers` threads, each appending `appends` payloads in
/// turn and waiting for each to be durable, through one committer that
/// writes everything waiting in one `write` and `fdatasync`s once per group:
/// the least a durable append costs the disk when many wait together.
pub fn raw_group_commit(
    path: &Path,
    payloads: &[Vec<u8>],
    writers: usize,
    appends: usize,
) -> Result<f64> {
    let failed = |e: std::io::Error| CliError::Bench(format!("{}: {e}", path.display()));
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(failed)?;
    file.sync_all().map_err(failed)?;
    let group = Mutex::new(Group {
        filling: 1,
        writers_left: writers,
        ..Group::default()
    });
    // The committer waits on `waiting` for work; writers on `synced`.
    let (waiting, synced) = (Condvar::new(), Condvar::new());
    let lock = || group.lock().unwrap_or_else(PoisonError::into_inner);
    let start = Instant::now();
    std::thread::scope(|s| -> Result<()> {
        let committer = s.spawn(|| -> Result<()> {
            loop {
                let mut g = lock();
                while g.bytes.is_empty() && g.writers_left > 0 {
                    g = waiting.wait(g).unwrap_or_else(PoisonError::into_inner);
                }
                if g.bytes.is_empty() {
                    return Ok(());
                }
                let bytes = std::mem::take(&mut g.bytes);
                let filled = g.filling;
                g.filling += 1;
                drop(g);
                let wrote = file.write_all(&bytes).and_then(|()| file.sync_data());
                let mut g = lock();
                g.synced = filled;
                g.failed |= wrote.is_err();
                synced.notify_all();
                drop(g);
                wrote.map_err(failed)?;
            }
        });
        for _ in 0..writers {
            s.spawn(|| {
                for payload in payloads.iter().cycle().take(appends) {
                    let mut g = lock();
                    g.bytes.extend_from_slice(payload);
                    let mine = g.filling;
                    waiting.notify_one();
                    while g.synced < mine && !g.failed {
                        g = synced.wait(g).unwrap_or_else(PoisonError::into_inner);
                    }
                }
                lock().writers_left -= 1;
                waiting.notify_one();
            });
        }
        committer.join().expect("the committer panicked")
    })?;
    Ok((writers * appends) as f64 / start.elapsed().as_secs_f64())
}

/// The raw group commit's shared state.
#[derive(Debug, Default)]
struct Group {
    /// The group being filled: the bytes of every append waiting.
    bytes: Vec<u8>,
    /// The number of the group being filled (from 1) and of the last synced.
    filling: u64,
    synced: u64,
    writers_left: usize,
    failed: bool,
}

/// PostgreSQL as the journal's peer on its own database.
pub mod postgres {
    use std::time::Instant;

    use tokio_postgres::{Client, NoTls};

    use super::Result;
    use crate::error::CliError;

    fn failed(e: tokio_postgres::Error) -> CliError {
        CliError::Bench(format!("PostgreSQL peer: {e}"))
    }

    async fn connect(url: &str) -> Result<Client> {
        let (client, connection) = tokio_postgres::connect(url, NoTls).await.map_err(failed)?;
        tokio::spawn(connection);
        Ok(client)
    }

    /// Rows/s of `writers` connections, each inserting `appends` rows one
    /// statement (and so one commit) at a time: the same bytes the journal
    /// stored, keyed by writer and seq, in a table made in the schema
    /// `url`'s search path names (which must be the bench's own).
    pub fn inserts(url: &str, payloads: &[Vec<u8>], writers: usize, appends: usize) -> Result<f64> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .map_err(|e| CliError::Bench(format!("PostgreSQL peer: {e}")))?;
        runtime.block_on(async {
            connect(url)
                .await?
                .batch_execute(
                    "CREATE TABLE peer_events (
                         game TEXT NOT NULL, seq BIGINT NOT NULL, event BYTEA NOT NULL,
                         PRIMARY KEY (game, seq))",
                )
                .await
                .map_err(failed)?;
            let mut clients = Vec::with_capacity(writers);
            for _ in 0..writers {
                clients.push(connect(url).await?);
            }
            // Shared, not copied per writer inside the timed part.
            let payloads = std::sync::Arc::new(payloads.to_vec());
            let start = Instant::now();
            let tasks: Vec<_> = clients
                .into_iter()
                .enumerate()
                .map(|(w, client)| {
                    let payloads = payloads.clone();
                    tokio::spawn(async move {
                        let insert = client
                            .prepare(
                                "INSERT INTO peer_events (game, seq, event) VALUES ($1, $2, $3)",
                            )
                            .await?;
                        let game = format!("g-peer-{w}");
                        for (seq, event) in payloads.iter().cycle().take(appends).enumerate() {
                            let seq = seq as i64 + 1;
                            client.execute(&insert, &[&game, &seq, event]).await?;
                        }
                        Ok::<_, tokio_postgres::Error>(())
                    })
                })
                .collect();
            for task in tasks {
                task.await
                    .map_err(|e| CliError::Bench(format!("PostgreSQL peer: {e}")))?
                    .map_err(failed)?;
            }
            Ok((writers * appends) as f64 / start.elapsed().as_secs_f64())
        })
    }
}

/// SQLite as the journal's peer.
#[cfg(feature = "sqlite-peer")]
pub mod sqlite {
    use std::path::Path;
    use std::sync::{Mutex, PoisonError};
    use std::time::Instant;

    use rusqlite::{params, Connection};

    use super::Result;
    use crate::error::CliError;

    fn failed(e: rusqlite::Error) -> CliError {
        CliError::Bench(format!("SQLite: {e}"))
    }

    /// A connection as the peer runs it: WAL, every commit synced.
    fn connect(path: &Path) -> Result<Connection> {
        let db = Connection::open(path).map_err(failed)?;
        db.pragma_update(None, "journal_mode", "WAL")
            .map_err(failed)?;
        db.pragma_update(None, "synchronous", "FULL")
            .map_err(failed)?;
        Ok(db)
    }

    /// Appends/s of `writers` threads, each with its own game, storing
    /// `appends` events in transactions of `per_tx` events: the same bytes
    /// the journal stored, keyed by game and seq. The writers share one
    /// connection behind a mutex, as an application with one SQLite file
    /// would (separate connections contend on SQLite's file lock and back
    /// off in sleeps, which measures the busy handler, not the database).
    /// The database (and its WAL) goes in the new directory `dir`.
    pub fn appends(
        dir: &Path,
        payloads: &[Vec<u8>],
        writers: usize,
        appends: usize,
        per_tx: usize,
    ) -> Result<f64> {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::Bench(format!("{}: {e}", dir.display())))?;
        let db = connect(&dir.join("peer.db"))?;
        db.execute_batch(
            "CREATE TABLE events (
                 game TEXT NOT NULL, seq INTEGER NOT NULL, event BLOB NOT NULL,
                 PRIMARY KEY (game, seq)) WITHOUT ROWID",
        )
        .map_err(failed)?;
        let db = Mutex::new(db);
        let start = Instant::now();
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..writers)
                .map(|w| {
                    let db = &db;
                    s.spawn(move || -> Result<()> {
                        let game = format!("g-peer-{w}");
                        let mut events = payloads.iter().cycle().take(appends).enumerate();
                        loop {
                            let batch: Vec<_> = events.by_ref().take(per_tx).collect();
                            if batch.is_empty() {
                                return Ok(());
                            }
                            let mut db = db.lock().unwrap_or_else(PoisonError::into_inner);
                            let tx = db.transaction().map_err(failed)?;
                            for (seq, event) in batch {
                                tx.execute(
                                    "INSERT INTO events (game, seq, event) VALUES (?1, ?2, ?3)",
                                    params![game, seq as i64 + 1, event],
                                )
                                .map_err(failed)?;
                            }
                            tx.commit().map_err(failed)?;
                        }
                    })
                })
                .collect();
            handles
                .into_iter()
                .try_for_each(|h| h.join().expect("SQLite writer panicked"))
        })?;
        Ok((writers * appends) as f64 / start.elapsed().as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_raw_loop_appends_every_payload_in_turn_across_turns() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("raw");
        let payloads = vec![b"one\n".to_vec(), b"two\n".to_vec(), b"three\n".to_vec()];
        let mut raw = RawLoop::open(&path).unwrap();
        raw.appends(&payloads, 2).unwrap();
        raw.appends(&payloads, 3).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "one\ntwo\nthree\none\ntwo\n"
        );
    }

    #[test]
    fn the_raw_group_commit_appends_every_writers_payloads() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("raw");
        let payloads = vec![b"one\n".to_vec(), b"two\n".to_vec()];
        let rate = raw_group_commit(&path, &payloads, 8, 5).unwrap();
        assert!(rate > 0.0);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().filter(|l| *l == "one").count(), 8 * 3);
        assert_eq!(text.lines().filter(|l| *l == "two").count(), 8 * 2);
    }

    #[cfg(feature = "sqlite-peer")]
    #[test]
    fn the_sqlite_peer_stores_every_event_of_every_writer() {
        let dir = tempfile::tempdir().unwrap();
        let payloads = vec![b"{\"a\":1}".to_vec(), b"{\"b\":2}".to_vec()];
        sqlite::appends(&dir.path().join("peer"), &payloads, 3, 5, 2).unwrap();
        let db = rusqlite::Connection::open(dir.path().join("peer/peer.db")).unwrap();
        let (rows, games, last): (i64, i64, i64) = db
            .query_row(
                "SELECT count(*), count(DISTINCT game), max(seq) FROM events",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        assert_eq!((rows, games, last), (15, 3, 5));
    }
}
