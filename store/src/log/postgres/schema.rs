//! The schema of the PostgreSQL log and its migrations.

use deadpool_postgres::Object;

use crate::error::StoreError;

/// Every schema version, in order, with what it adds. The schema grows by
/// appending a version here, never by editing one that has shipped.
pub(super) const MIGRATIONS: &[(i32, &str, &str)] = &[
    (
        1,
        "games, branches, events, packs, receipts, snapshots, settings",
        r#"
CREATE TABLE tabletape_settings (
    key text COLLATE "C" PRIMARY KEY,
    value text NOT NULL
);
CREATE TABLE games (
    game text COLLATE "C" PRIMARY KEY,
    kind text NOT NULL,
    created_at_ms bigint NOT NULL,
    record jsonb NOT NULL
);
CREATE INDEX games_by_kind ON games (kind);
CREATE SEQUENCE branch_order;
CREATE TABLE branches (
    game text COLLATE "C" NOT NULL,
    name text COLLATE "C" NOT NULL,
    parent text COLLATE "C",
    fork_seq bigint,
    ord bigint NOT NULL,
    head_seq bigint NOT NULL,
    head_hash text NOT NULL,
    record jsonb NOT NULL,
    PRIMARY KEY (game, name)
);
CREATE TABLE packs (
    hash bytea PRIMARY KEY,
    pack jsonb NOT NULL
);
CREATE TABLE events (
    game text COLLATE "C" NOT NULL,
    branch text COLLATE "C" NOT NULL,
    seq bigint NOT NULL,
    schema_version integer NOT NULL,
    recorded_at_ms bigint NOT NULL,
    actor jsonb NOT NULL,
    type text NOT NULL,
    idempotency_key text,
    prev_hash text NOT NULL,
    hash text NOT NULL,
    salt text NOT NULL,
    body jsonb NOT NULL,
    pack bytea REFERENCES packs (hash),
    PRIMARY KEY (game, branch, seq)
);
CREATE INDEX events_by_type ON events (type);
CREATE TABLE receipts (
    game text COLLATE "C" NOT NULL,
    branch text COLLATE "C" NOT NULL,
    key text COLLATE "C" NOT NULL,
    receipt jsonb NOT NULL,
    PRIMARY KEY (game, branch, key)
);
CREATE TABLE snapshots (
    game text COLLATE "C" NOT NULL,
    branch text COLLATE "C" NOT NULL,
    seq bigint NOT NULL,
    snapshot bytea NOT NULL,
    PRIMARY KEY (game, branch, seq)
);
"#,
    ),
    (
        2,
        "an accepted action's facts kept again in the engine's compact form, for folds",
        r#"
ALTER TABLE events ADD COLUMN fold_form bytea;
"#,
    ),
];

/// The newest schema version this build knows.
pub const SCHEMA: i32 = MIGRATIONS[MIGRATIONS.len() - 1].0;

/// Brings the schema to [`SCHEMA`], one version at a time, in a transaction
/// that holds an advisory lock so that processes starting together take
/// turns.
pub(super) async fn migrate(c: &mut Object) -> Result<(), StoreError> {
    let tx = c.transaction().await?;
    tx.batch_execute(
        "SET LOCAL client_min_messages = warning;
         SELECT pg_advisory_xact_lock(7465627465);
         CREATE TABLE IF NOT EXISTS tabletape_schema (
             version integer PRIMARY KEY,
             description text NOT NULL,
             applied_at timestamptz NOT NULL DEFAULT now()
         );",
    )
    .await?;
    let have: i32 = tx
        .query_one(
            "SELECT coalesce(max(version), 0) FROM tabletape_schema",
            &[],
        )
        .await?
        .get(0);
    if have > SCHEMA {
        return Err(StoreError::Postgres(format!(
            "the database is at schema version {have}, newer than the {SCHEMA} this build knows: run a newer tabletape"
        )));
    }
    for (version, description, sql) in MIGRATIONS.iter().filter(|m| m.0 > have) {
        tx.batch_execute(sql).await?;
        tx.execute(
            "INSERT INTO tabletape_schema (version, description) VALUES ($1, $2)",
            &[version, description],
        )
        .await?;
        tracing::info!(version, description, "PostgreSQL schema migrated");
    }
    tx.commit().await?;
    Ok(())
}
