//! Backup and restore: every game of a store as one JSON Lines stream.
//!
//! A backup opens with a header line (`{"tabletape_backup": 1, ...}`, holding
//! the admin token's hash), then for each game a record line
//! (`{"game_record": GameMeta}`, holding its token hashes) followed by its
//! export (every branch, one event per line, as `export` writes it). A
//! restore imports each game with its own tokens, so every owner and seat
//! token, and the admin token, work on the restored store as before.
//!
//! A backup is safe while the store is served: events never change once
//! written, and each branch is copied up to the head it had when its copy
//! began (a fork made meanwhile is in the next backup).

use std::io::{BufRead, Write};

use serde::{Deserialize, Serialize};

use crate::journal::{io_error, Journal, JournalError};
use crate::log::GameMeta;

/// The backup format's version.
pub const BACKUP_VERSION: u32 = 1;

/// The first line of a backup.
#[derive(Debug, Serialize, Deserialize)]
struct Header {
    tabletape_backup: u32,
    #[serde(default)]
    admin_token_hash: Option<String>,
}

/// The line before each game's events.
#[derive(Debug, Serialize, Deserialize)]
struct Record {
    game_record: GameMeta,
}

/// What a backup wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BackedUp {
    pub games: u64,
    pub events: u64,
}

/// What a restore did: the games it brought back and those already there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Restored {
    pub games: Vec<String>,
    pub events: u64,
    /// Games the store had already, left as they were.
    pub skipped: Vec<String>,
}

impl Journal {
    /// Writes every game of the store to `out` (see the module docs).
    pub fn backup(&self, out: &mut dyn Write) -> Result<BackedUp, JournalError> {
        let header = Header {
            tabletape_backup: BACKUP_VERSION,
            admin_token_hash: self.log().admin_token_hash()?,
        };
        let line = |out: &mut dyn Write, json: String| {
            writeln!(out, "{json}").map_err(|e| io_error("backup output", e))
        };
        line(
            out,
            serde_json::to_string(&header).expect("headers serialize"),
        )?;
        let mut done = BackedUp {
            games: 0,
            events: 0,
        };
        for meta in self.log().games()? {
            let game = meta.game.clone();
            let record = Record { game_record: meta };
            line(
                out,
                serde_json::to_string(&record).expect("records serialize"),
            )?;
            done.events += self.export(&game, None, out)?;
            done.games += 1;
        }
        out.flush().map_err(|e| io_error("backup output", e))?;
        Ok(done)
    }

    /// Restores every game of a backup that the store lacks, with its own
    /// tokens; a game the store has already is skipped and named. Each game
    /// is imported whole or not at all (and checked as an import is), so a
    /// failure leaves the games restored before it and names the line.
    pub fn restore(&self, input: &mut dyn BufRead) -> Result<Restored, JournalError> {
        let mut lines = input.lines().enumerate();
        let bad =
            |n: usize, why: String| JournalError::BadInput(format!("backup line {}: {why}", n + 1));
        let (n, first) = lines
            .next()
            .ok_or_else(|| JournalError::BadInput("the backup is empty".into()))?;
        let first = first.map_err(|e| io_error("backup input", e))?;
        let header: Header = serde_json::from_str(&first)
            .map_err(|e| bad(n, format!("not a Tabletape backup header: {e}")))?;
        if header.tabletape_backup != BACKUP_VERSION {
            return Err(bad(
                n,
                format!(
                    "backup format {} is not the {BACKUP_VERSION} this build reads",
                    header.tabletape_backup
                ),
            ));
        }
        if let Some(hash) = &header.admin_token_hash {
            if self.log().admin_token_hash()?.is_none() {
                self.log().set_admin_token_hash(hash)?;
            }
        }
        let mut done = Restored {
            games: Vec::new(),
            events: 0,
            skipped: Vec::new(),
        };
        // One game's lines at a time: its record, then its export.
        let mut current: Option<(usize, GameMeta)> = None;
        let mut events: Vec<u8> = Vec::new();
        loop {
            let record = match lines.next() {
                Some((n, line)) => {
                    let line = line.map_err(|e| io_error("backup input", e))?;
                    if line.starts_with("{\"game_record\"") {
                        let record: Record = serde_json::from_str(&line)
                            .map_err(|e| bad(n, format!("not a game record: {e}")))?;
                        Some((n, record.game_record))
                    } else {
                        if current.is_none() && !line.trim().is_empty() {
                            return Err(bad(n, "an event before any game record".into()));
                        }
                        events.extend_from_slice(line.as_bytes());
                        events.push(b'\n');
                        continue;
                    }
                }
                None => None,
            };
            if let Some((n, meta)) = current.take() {
                if self.log().game(&meta.game)?.is_some() {
                    done.skipped.push(meta.game);
                } else {
                    let imported = self
                        .import_keeping(&mut events.as_slice(), Some(&meta))
                        .map_err(|e| bad(n, format!("game `{}`: {e}", meta.game)))?;
                    done.events += imported.events;
                    done.games.push(imported.game);
                }
                events.clear();
            }
            match record {
                Some(record) => current = Some(record),
                None => return Ok(done),
            }
        }
    }
}
