//! How events, branches and games travel between the log's types and
//! PostgreSQL's rows: the envelope in columns, the body as JSONB.

use bytes::{BufMut, BytesMut};
use deadpool_postgres::GenericClient;
use serde_json::Value;
use sha2::{Digest, Sha256};
use tabletape_events::{Body, Event, FoldForm, SCHEMA_VERSION};
use tokio_postgres::error::SqlState;
use tokio_postgres::types::{to_sql_checked, FromSql, IsNull, ToSql, Type};
use tokio_postgres::Row;

use crate::error::StoreError;
use crate::log::{decode_event, from_json, BranchRecord, FoldBody, FoldStep, GameMeta};

/// The event columns every read selects, in the order [`event_of`] reads.
pub(super) const EVENT_COLUMNS: &str = "e.seq, e.schema_version, e.recorded_at_ms, e.actor, \
     e.idempotency_key, e.prev_hash, e.hash, e.salt, e.body, p.pack, e.fold_form \
     FROM events e LEFT JOIN packs p ON p.hash = e.pack";

/// [`EVENT_COLUMNS`] as a fold reads them ([`step_of`]): the body only of
/// an event without a fold form, which is read instead of it.
pub(super) const STEP_COLUMNS: &str = "e.seq, e.schema_version, e.recorded_at_ms, e.actor, \
     CASE WHEN e.fold_form IS NULL THEN e.idempotency_key END, \
     CASE WHEN e.fold_form IS NULL THEN e.prev_hash END, \
     CASE WHEN e.fold_form IS NULL THEN e.hash END, \
     CASE WHEN e.fold_form IS NULL THEN e.salt END, \
     CASE WHEN e.fold_form IS NULL THEN e.body END, p.pack, e.fold_form \
     FROM events e LEFT JOIN packs p ON p.hash = e.pack";

/// The columns of [`EventRows`] in `events`, and the arrays they arrive in.
pub(super) const EVENT_INSERT: &str = "INSERT INTO events (game, branch, seq, schema_version, \
     recorded_at_ms, actor, type, idempotency_key, prev_hash, hash, salt, body, pack, fold_form) \
     SELECT $1, u.* FROM UNNEST($2::text[], $3::bigint[], $4::integer[], $5::bigint[], \
     $6::jsonb[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], \
     $12::jsonb[], $13::bytea[], $14::bytea[]) AS u";

/// A branch record's columns, in the order [`branch_of`] reads.
pub(super) const BRANCH_COLUMNS: &str = "ord, head_seq, head_hash, record";

pub(super) fn unique_violation(e: &tokio_postgres::Error) -> bool {
    e.code() == Some(&SqlState::UNIQUE_VIOLATION)
}

pub(super) fn int(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

pub(super) fn uint(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

/// JSON text as a `json`/`jsonb` parameter, sent as it is (no parse here).
#[derive(Debug)]
pub(super) struct Jsonb<'a>(pub(super) &'a str);

impl ToSql for Jsonb<'_> {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        if *ty == Type::JSONB {
            out.put_u8(1); // jsonb's binary format: a version byte, then the text
        }
        out.put_slice(self.0.as_bytes());
        Ok(IsNull::No)
    }

    fn accepts(ty: &Type) -> bool {
        matches!(*ty, Type::JSON | Type::JSONB)
    }

    to_sql_checked!();
}

/// A `json`/`jsonb` value read as its text, borrowed from the row.
pub(super) struct JsonText<'a>(pub(super) &'a str);

impl<'a> FromSql<'a> for JsonText<'a> {
    fn from_sql(
        ty: &Type,
        raw: &'a [u8],
    ) -> Result<JsonText<'a>, Box<dyn std::error::Error + Sync + Send>> {
        let text = if *ty == Type::JSONB {
            match raw.split_first() {
                Some((1, text)) => text,
                _ => return Err("a jsonb value of an unknown format version".into()),
            }
        } else {
            raw
        };
        Ok(JsonText(std::str::from_utf8(text)?))
    }

    fn accepts(ty: &Type) -> bool {
        matches!(*ty, Type::JSON | Type::JSONB)
    }
}

pub(super) fn col<'a, T: FromSql<'a>>(row: &'a Row, i: usize) -> Result<T, String> {
    row.try_get(i)
        .map_err(|e| format!("column {i} cannot be read: {e}"))
}

/// Reads an event as [`EVENT_COLUMNS`] gives it.
pub(super) fn event_of(game: &str, branch: &str, row: &Row) -> Result<Event, String> {
    let seq = uint(col(row, 0)?);
    let version: i32 = col(row, 1)?;
    let recorded_at_ms = uint(col(row, 2)?);
    let actor: JsonText = col(row, 3)?;
    let idempotency_key: Option<String> = col(row, 4)?;
    let prev_hash: String = col(row, 5)?;
    let hash: String = col(row, 6)?;
    let salt: String = col(row, 7)?;
    let body: JsonText = col(row, 8)?;
    let pack: Option<JsonText> = col(row, 9)?;
    if u32::try_from(version) == Ok(SCHEMA_VERSION) {
        let mut body: Body = serde_json::from_str(body.0).map_err(|e| format!("its body: {e}"))?;
        match &mut body {
            Body::GameCreated(created) => {
                if let Some(pack) = &pack {
                    created.pack = serde_json::from_str(pack.0)
                        .map_err(|e| format!("its content pack: {e}"))?;
                }
            }
            Body::ActionAccepted(accepted) => {
                if let Some(form) = col::<Option<Vec<u8>>>(row, 10)? {
                    accepted.fold_form = FoldForm::new(form);
                }
            }
            _ => {}
        }
        let mut event = Event {
            game: game.to_string(),
            branch: branch.to_string(),
            seq,
            recorded_at_ms,
            actor: serde_json::from_str(actor.0).map_err(|e| format!("its actor: {e}"))?,
            schema_version: SCHEMA_VERSION,
            idempotency_key,
            prev_hash,
            hash,
            salt,
            body,
        };
        // jsonb keeps its own order of keys, and spaces: the fact's
        // stored (and hashed) text is the canonical one.
        crate::log::canonical_facts(&mut event);
        return Ok(event);
    }
    // An older schema: the event as sled would hold it, through the upcasters.
    let json = |text: &str| serde_json::from_str::<Value>(text).map_err(|e| e.to_string());
    let mut event = serde_json::json!({
        "game": game,
        "branch": branch,
        "seq": seq,
        "recorded_at_ms": recorded_at_ms,
        "actor": json(actor.0)?,
        "schema_version": version,
        "prev_hash": prev_hash,
        "hash": hash,
        "body": json(body.0)?,
    });
    if let Some(key) = idempotency_key {
        event["idempotency_key"] = key.into();
    }
    if !salt.is_empty() {
        event["salt"] = salt.into();
    }
    if let Some(pack) = pack {
        event["body"]["pack"] = json(pack.0)?;
    }
    decode_event(&serde_json::to_vec(&event).expect("values serialize"))
}

/// Reads an event as a fold needs it (see [`Log::read_steps`]), from
/// [`STEP_COLUMNS`].
pub(super) fn step_of(game: &str, branch: &str, row: &Row) -> Result<FoldStep, String> {
    if let Some(facts) = col::<Option<Vec<u8>>>(row, 10)? {
        let actor: JsonText = col(row, 3)?;
        return Ok(FoldStep::Compact {
            seq: uint(col(row, 0)?),
            actor: serde_json::from_str(actor.0).map_err(|e| format!("its actor: {e}"))?,
            facts: facts.into(),
        });
    }
    let version: i32 = col(row, 1)?;
    if u32::try_from(version) == Ok(SCHEMA_VERSION) {
        let body: JsonText = col(row, 8)?;
        if let Ok(read) = serde_json::from_str::<FoldBody<'_>>(body.0) {
            if let ("action_accepted", Some(facts)) = (&*read.kind, read.facts) {
                let actor: JsonText = col(row, 3)?;
                return Ok(FoldStep::Facts {
                    seq: uint(col(row, 0)?),
                    actor: serde_json::from_str(actor.0).map_err(|e| format!("its actor: {e}"))?,
                    facts: facts.to_owned(),
                });
            }
        }
    }
    event_of(game, branch, row).map(|e| FoldStep::Event(Box::new(e)))
}

/// A branch record from [`BRANCH_COLUMNS`].
pub(super) fn branch_of(row: &Row) -> Result<BranchRecord, StoreError> {
    let bad = |why: String| StoreError::corrupt("branch record", why);
    let record: JsonText = col(row, 3).map_err(bad)?;
    let mut branch: BranchRecord = from_json("branch record", record.0.as_bytes())?;
    branch.order = uint(col(row, 0).map_err(bad)?);
    branch.head_seq = uint(col(row, 1).map_err(bad)?);
    branch.head_hash = col(row, 2).map_err(bad)?;
    Ok(branch)
}

pub(super) fn game_of(row: &Row) -> Result<GameMeta, StoreError> {
    let record: JsonText = col(row, 0).map_err(|why| StoreError::corrupt("game record", why))?;
    from_json("game record", record.0.as_bytes())
}

pub(super) fn json_string<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("store records serialize")
}

/// Events as the columns of `events`, ready for [`EVENT_INSERT`]; a
/// creation's pack goes to `packs` and the event refers to it.
#[derive(Default)]
pub(super) struct EventRows<'e> {
    branch: Vec<String>,
    seq: Vec<i64>,
    version: Vec<i32>,
    at: Vec<i64>,
    actor: Vec<String>,
    kind: Vec<String>,
    key: Vec<Option<String>>,
    prev: Vec<String>,
    hash: Vec<String>,
    salt: Vec<String>,
    body: Vec<String>,
    pack: Vec<Option<Vec<u8>>>,
    fold_form: Vec<Option<&'e [u8]>>,
    /// New content packs: (SHA-256, JSON).
    packs: Vec<(Vec<u8>, String)>,
}

impl<'e> EventRows<'e> {
    pub(super) fn of(events: impl IntoIterator<Item = &'e Event>) -> EventRows<'e> {
        let mut rows = EventRows::default();
        for e in events {
            rows.push(e);
        }
        rows
    }

    pub(super) fn push(&mut self, e: &'e Event) {
        let (body, pack) = match &e.body {
            Body::GameCreated(created) => {
                let pack = json_string(&created.pack);
                let hash = Sha256::digest(pack.as_bytes()).to_vec();
                let mut bare = created.clone();
                bare.pack = Value::Null;
                self.packs.push((hash.clone(), pack));
                (json_string(&Body::GameCreated(bare)), Some(hash))
            }
            body => (json_string(body), None),
        };
        self.branch.push(e.branch.clone());
        self.seq.push(int(e.seq));
        self.version
            .push(i32::try_from(e.schema_version).unwrap_or(i32::MAX));
        self.at.push(int(e.recorded_at_ms));
        self.actor.push(json_string(&e.actor));
        self.kind.push(e.body.tag().to_string());
        self.key.push(e.idempotency_key.clone());
        self.prev.push(e.prev_hash.clone());
        self.hash.push(e.hash.clone());
        self.salt.push(e.salt.clone());
        self.body.push(body);
        self.pack.push(pack);
        self.fold_form.push(match &e.body {
            Body::ActionAccepted(accepted) => accepted.fold_form.get(),
            _ => None,
        });
    }

    /// Writes the new packs, then the events.
    pub(super) async fn insert(
        &self,
        c: &impl GenericClient,
        game: &str,
    ) -> Result<(), tokio_postgres::Error> {
        if !self.packs.is_empty() {
            let hashes: Vec<&[u8]> = self.packs.iter().map(|p| p.0.as_slice()).collect();
            let packs: Vec<Jsonb> = self.packs.iter().map(|p| Jsonb(&p.1)).collect();
            let insert = c
                .prepare_cached(
                    "INSERT INTO packs (hash, pack) SELECT * FROM UNNEST($1::bytea[], $2::jsonb[]) \
                     ON CONFLICT DO NOTHING",
                )
                .await?;
            c.execute(&insert, &[&hashes, &packs]).await?;
        }
        let insert = c.prepare_cached(EVENT_INSERT).await?;
        let json = self.json();
        c.execute(&insert, &self.params(&game, &json)).await?;
        Ok(())
    }

    pub(super) fn json(&self) -> JsonColumns<'_> {
        JsonColumns {
            actor: self.actor.iter().map(|a| Jsonb(a)).collect(),
            body: self.body.iter().map(|b| Jsonb(b)).collect(),
        }
    }

    /// The 14 parameters of [`EVENT_INSERT`].
    pub(super) fn params<'a>(
        &'a self,
        game: &'a &str,
        json: &'a JsonColumns<'a>,
    ) -> Vec<&'a (dyn ToSql + Sync)> {
        vec![
            game,
            &self.branch,
            &self.seq,
            &self.version,
            &self.at,
            &json.actor,
            &self.kind,
            &self.key,
            &self.prev,
            &self.hash,
            &self.salt,
            &json.body,
            &self.pack,
            &self.fold_form,
        ]
    }
}

/// The JSON columns of [`EventRows`] as parameters.
pub(super) struct JsonColumns<'a> {
    actor: Vec<Jsonb<'a>>,
    body: Vec<Jsonb<'a>>,
}
