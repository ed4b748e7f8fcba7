//! The tables Tokar keeps in PostgreSQL, as numbered migrations applied at
//! start-up.
//!
//! A database records in `tokar_schema` every migration applied to it (one row
//! each, with its time). `connect` applies the ones it lacks, in order, in one
//! transaction holding an advisory lock, so processes starting at once apply
//! each migration once: the first takes the lock and migrates, the others wait
//! for it and then find nothing left to do. A database migrated by a newer
//! Tokar than this one is refused: this binary would not know its tables.

use super::Failure;
use crate::StoreError;

/// The migrations, numbered from 1 in the order they are applied. A released
/// migration is never changed: a change of tables is a new one at the end.
pub(super) const MIGRATIONS: &[(i32, &str)] = &[
    (
        1,
        "CREATE TABLE tokar_kv (
             tree  text  NOT NULL,
             key   bytea NOT NULL,
             value bytea NOT NULL,
             PRIMARY KEY (tree, key)
         );
         CREATE SEQUENCE tokar_id AS bigint;",
    ),
    // The store's generation (`Kv::generation`), which the data folder's
    // marker records so that an older copy of the database is refused.
    (2, "CREATE SEQUENCE tokar_generation AS bigint;"),
];

/// The advisory lock key migrations are applied under ("tokar" in ASCII).
const LOCK: i64 = 0x74_6f_6b_61_72;

/// The schema version this binary writes and reads.
pub fn latest() -> i32 {
    MIGRATIONS.last().map_or(0, |(n, _)| *n)
}

/// Brings the database to [`latest`], or refuses a newer one. `describe` names
/// the database in the refusal.
pub(super) async fn migrate(
    client: &mut tokio_postgres::Client,
    describe: &str,
) -> Result<(), StoreError> {
    let fail = |e: Failure| StoreError::Database(format!("cannot prepare {describe}: {}", e.text));
    let tx = client
        .build_transaction()
        .isolation_level(tokio_postgres::IsolationLevel::ReadCommitted)
        .start()
        .await
        .map_err(|e| fail(e.into()))?;
    // Read committed: each statement after the lock sees what a process that
    // held it before committed.
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&LOCK])
        .await
        .map_err(|e| fail(e.into()))?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS tokar_schema (
             version    integer     PRIMARY KEY,
             applied_at timestamptz NOT NULL DEFAULT now()
         )",
    )
    .await
    .map_err(|e| fail(e.into()))?;
    let found: i32 = tx
        .query_one("SELECT coalesce(max(version), 0) FROM tokar_schema", &[])
        .await
        .map_err(|e| fail(e.into()))?
        .get(0);
    if found > latest() {
        return Err(StoreError::Database(format!(
            "{describe} has schema version {found}, newer than this Tokar knows ({}): run a newer Tokar",
            latest()
        )));
    }
    for (number, sql) in MIGRATIONS.iter().filter(|(n, _)| *n > found) {
        tx.batch_execute(sql).await.map_err(|e| fail(e.into()))?;
        tx.execute("INSERT INTO tokar_schema (version) VALUES ($1)", &[number])
            .await
            .map_err(|e| fail(e.into()))?;
        tracing::info!(migration = number, database = describe, "schema migrated");
    }
    tx.commit().await.map_err(|e| fail(e.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_are_numbered_from_one_without_gaps() {
        for (i, (n, _)) in MIGRATIONS.iter().enumerate() {
            assert_eq!(*n as usize, i + 1);
        }
    }
}
