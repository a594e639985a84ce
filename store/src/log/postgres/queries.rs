//! The reads and writes that several of the log's calls share: the
//! one-statement append, a branch's head and ancestry, a history read
//! across its branches, a snapshot written.

use std::collections::HashMap;

use deadpool_postgres::{ClientWrapper, GenericClient};
use tokio_postgres::Row;

use super::rows::{
    branch_of, col, int, json_string, uint, JsonText, Jsonb, BRANCH_COLUMNS, EVENT_INSERT,
};
use crate::error::StoreError;
use crate::log::{from_json, history_segments, BranchRecord, GameMeta, Receipt};

/// The append of [`Log::append`] in one statement (see the module docs):
/// [`EVENT_INSERT`]'s 14 parameters, then the head after ($15, $16), the
/// branch ($17), the head the events were chained on ($18, its hash $21),
/// the idempotency key ($19) and the receipt ($20). One row when it wrote
/// (its game, for the caller to announce: see `notify_changes`).
pub(super) fn append_sql() -> &'static str {
    // Built once: the prepared-statement cache is keyed by this text.
    static SQL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SQL.get_or_init(|| {
    let events = EVENT_INSERT.replace(") AS u", ") AS u WHERE EXISTS (SELECT 1 FROM moved)");
    format!(
        "WITH moved AS (
             UPDATE branches SET head_seq = $15, head_hash = $16
             WHERE game = $1 AND name = $17 AND head_seq = $18 AND head_hash = $21
               AND NOT EXISTS (SELECT 1 FROM receipts WHERE game = $1 AND branch = $17 AND key = $19)
             RETURNING game
         ), written AS ({events}),
         kept AS (
             INSERT INTO receipts (game, branch, key, receipt)
             SELECT $1, $17, $19, $20 FROM moved WHERE $19::text IS NOT NULL
         )
         SELECT game FROM moved"
    )
    })
}

/// [`append_sql`] for play: [`Log::append_on`] (whose writer has not read
/// the branch) and any append with an action in it. It also writes nothing
/// on a line taken back (closed to play), checked under the branch row's
/// lock, which a take-back takes too.
pub(super) fn append_on_sql() -> &'static str {
    static SQL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SQL.get_or_init(|| {
        append_sql().replace(
            "AND head_hash = $21\n",
            "AND head_hash = $21 AND record->'taken_back' IS DISTINCT FROM 'true'\n",
        )
    })
}

/// A branch's head and the receipt stored under `key`, in one read.
pub(super) async fn head_and_receipt(
    c: &ClientWrapper,
    game: &str,
    branch: &str,
    key: Option<&str>,
) -> Result<Option<(u64, String, Option<Receipt>)>, StoreError> {
    let query = c
        .prepare_cached(
            "SELECT b.head_seq, b.head_hash, r.receipt FROM branches b
             LEFT JOIN receipts r ON r.game = b.game AND r.branch = b.name AND r.key = $3
             WHERE b.game = $1 AND b.name = $2",
        )
        .await?;
    let Some(row) = c.query_opt(&query, &[&game, &branch, &key]).await? else {
        return Ok(None);
    };
    let bad = |why: String| StoreError::corrupt("branch head", why);
    let receipt: Option<JsonText> = col(&row, 2).map_err(bad)?;
    let receipt = receipt
        .map(|r| from_json::<Receipt>("idempotency receipt", r.0.as_bytes()))
        .transpose()?
        .map(|r| Receipt { retried: true, ..r });
    Ok(Some((
        uint(col(&row, 0).map_err(bad)?),
        col(&row, 1).map_err(bad)?,
        receipt,
    )))
}

/// The error for a branch that is not there: an unknown game or branch.
pub(super) async fn missing(
    c: &ClientWrapper,
    game: &str,
    branch: &str,
) -> Result<StoreError, StoreError> {
    let query = c
        .prepare_cached("SELECT 1 FROM games WHERE game = $1")
        .await?;
    Ok(if c.query_opt(&query, &[&game]).await?.is_some() {
        StoreError::UnknownBranch {
            game: game.to_string(),
            branch: branch.to_string(),
        }
    } else {
        StoreError::UnknownGame(game.to_string())
    })
}

/// A branch and its ancestors, by name, in one read.
pub(super) async fn line_of(
    c: &ClientWrapper,
    game: &str,
    branch: &str,
) -> Result<HashMap<String, BranchRecord>, StoreError> {
    let query = c
        .prepare_cached(&format!(
            "WITH RECURSIVE line AS (
                 SELECT name, parent, {BRANCH_COLUMNS} FROM branches WHERE game = $1 AND name = $2
                 UNION ALL
                 SELECT b.name, b.parent, b.ord, b.head_seq, b.head_hash, b.record
                 FROM branches b JOIN line ON b.game = $1 AND b.name = line.parent
             ) SELECT {BRANCH_COLUMNS} FROM line"
        ))
        .await?;
    let mut line = HashMap::new();
    for row in c.query(&query, &[&game, &branch]).await? {
        let record = branch_of(&row)?;
        line.insert(record.name.clone(), record);
    }
    if !line.contains_key(branch) {
        return Err(missing(c, game, branch).await?);
    }
    Ok(line)
}

/// The parts of a branch's history `from..=to` (see [`history_segments`]),
/// from its line as [`line_of`] read it.
pub(super) fn segments(
    line: &HashMap<String, BranchRecord>,
    branch: &str,
    from: u64,
    to: u64,
) -> Result<Vec<(String, u64, u64)>, StoreError> {
    history_segments(line[branch].clone(), from, to, |parent| {
        line.get(parent).cloned().ok_or_else(|| {
            StoreError::corrupt("branch record", format!("parent `{parent}` is missing"))
        })
    })
}

/// How a read makes a `T` of one event's row (game and branch known).
pub(super) type RowReader<T> = fn(&str, &str, &Row) -> Result<T, String>;

/// Reads a branch's history `from_seq..=to_seq`, each event's `columns`
/// (see [`EVENT_COLUMNS`](super::rows::EVENT_COLUMNS)) by `decode`, checking that no seq is missing.
pub(super) async fn read_history<T>(
    c: &ClientWrapper,
    (game, branch): (&str, &str),
    from_seq: u64,
    to_seq: Option<u64>,
    (columns, decode): (&str, RowReader<T>),
) -> Result<Vec<T>, StoreError> {
    let line = line_of(c, game, branch).await?;
    let head = line[branch].head_seq;
    let from = from_seq.max(1);
    let to = to_seq.map_or(head, |t| t.min(head));
    if from > to {
        return Ok(Vec::new());
    }
    let query = c
        .prepare_cached(&format!(
            "SELECT {columns} WHERE e.game = $1 AND e.branch = $2 AND e.seq BETWEEN $3 AND $4 ORDER BY e.seq"
        ))
        .await?;
    let mut out = Vec::with_capacity(usize::try_from(to - from + 1).unwrap_or(0));
    for (name, lo, hi) in segments(&line, branch, from, to)? {
        let rows = c.query(&query, &[&game, &name, &int(lo), &int(hi)]).await?;
        let bad = |seq: u64, why: String| StoreError::BadEvent {
            game: game.to_string(),
            branch: name.clone(),
            seq,
            why,
        };
        let mut expect = lo;
        for row in &rows {
            let seq = uint(col(row, 0).map_err(|why| bad(expect, why))?);
            if seq != expect {
                return Err(bad(
                    expect,
                    format!("missing: the next stored event says seq {seq}"),
                ));
            }
            out.push(decode(game, &name, row).map_err(|why| bad(expect, why))?);
            expect += 1;
        }
        if expect != hi + 1 {
            return Err(bad(expect, "missing from the log".into()));
        }
    }
    Ok(out)
}

pub(super) async fn put_snapshot(
    c: &ClientWrapper,
    game: &str,
    branch: &str,
    seq: u64,
    json: &[u8],
) -> Result<(), StoreError> {
    let query = c
        .prepare_cached(
            "INSERT INTO snapshots (game, branch, seq, snapshot) VALUES ($1, $2, $3, $4)
             ON CONFLICT (game, branch, seq) DO UPDATE SET snapshot = EXCLUDED.snapshot",
        )
        .await?;
    c.execute(&query, &[&game, &branch, &int(seq), &json])
        .await?;
    Ok(())
}

/// Writes a game's record, which makes it visible; false if the id is taken.
pub(super) async fn insert_game(
    c: &impl GenericClient,
    meta: &GameMeta,
) -> Result<bool, StoreError> {
    let added = c
        .execute(
            "INSERT INTO games (game, kind, created_at_ms, record) VALUES ($1, $2, $3, $4)
             ON CONFLICT DO NOTHING",
            &[
                &meta.game,
                &meta.kind,
                &int(meta.created_at_ms),
                &Jsonb(&json_string(meta)),
            ],
        )
        .await?;
    Ok(added == 1)
}
