//! One consistent state of the whole database, for backups: a read-only
//! `REPEATABLE READ` transaction, in which every statement sees the database
//! as it was at the transaction's first statement, whatever other processes
//! commit meanwhile. PostgreSQL keeps that state without locking anyone out
//! (writers go on; only the old row versions are kept until it ends).

use super::{one_line, prepared, Failure, PgKv, GET, KEYS_FROM, KEYS_TO, RANGE_FROM, RANGE_TO};
use crate::kv::Tree;
use crate::{RawItem, StoreError};
use deadpool_postgres::Object;
use std::sync::Arc;

/// Reads of one snapshot (see the module).
pub struct Snapshot<'a> {
    kv: &'a PgKv,
    client: Option<Arc<Object>>,
    /// Still inside the transaction: dropped so, the connection is closed
    /// rather than given back to the pool mid-transaction.
    open: bool,
}

impl PgKv {
    /// Runs `read` on one snapshot of the database (see the module).
    pub fn snapshot<T>(
        &self,
        read: impl FnOnce(&mut Snapshot<'_>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let pool = self.pool.clone();
        let client = self
            .run(async move { pool.get().await })?
            .map_err(|e| StoreError::Database(one_line(&e)))?;
        let mut snap = Snapshot {
            kv: self,
            client: Some(Arc::new(client)),
            open: true,
        };
        snap.exec("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")?;
        let out = read(&mut snap)?;
        snap.exec("COMMIT")?;
        snap.open = false;
        Ok(out)
    }
}

impl Snapshot<'_> {
    fn client(&self) -> Arc<Object> {
        self.client
            .clone()
            .expect("a snapshot has its connection until dropped")
    }

    fn exec(&self, sql: &'static str) -> Result<(), StoreError> {
        let client = self.client();
        self.kv.count.trip(1);
        self.kv
            .run(async move { client.batch_execute(sql).await.map_err(Failure::from) })?
            .map_err(|e| StoreError::Database(e.text))
    }

    fn rows(
        &self,
        sql: &'static str,
        tree: Tree,
        from: Vec<u8>,
        to: Option<Vec<u8>>,
        limit: Option<i64>,
    ) -> Result<Vec<tokio_postgres::Row>, StoreError> {
        let client = self.client();
        let count = self.kv.count.clone();
        self.kv
            .run(async move {
                let statement = prepared(&client, sql, &count).await?;
                count.trip(1);
                let rows = match (to, limit) {
                    (None, None) => client.query(&statement, &[&tree, &from]).await?,
                    (Some(to), None) => client.query(&statement, &[&tree, &from, &to]).await?,
                    (None, Some(n)) => client.query(&statement, &[&tree, &from, &n]).await?,
                    (Some(to), Some(n)) => {
                        client.query(&statement, &[&tree, &from, &to, &n]).await?
                    }
                };
                Ok::<_, Failure>(rows)
            })?
            .map_err(|e| StoreError::Database(e.text))
    }

    /// One key's value in the snapshot.
    pub fn get(&self, tree: Tree, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        let rows = self.rows(GET, tree, key.to_vec(), None, None)?;
        Ok(rows.first().map(|r| r.get::<_, Vec<u8>>(0)))
    }

    /// The keys and values from `start` to `end` (excluded), at most `limit`.
    pub fn range(
        &self,
        tree: Tree,
        start: &[u8],
        end: Option<&[u8]>,
        limit: usize,
    ) -> Result<Vec<RawItem>, StoreError> {
        let sql = if end.is_some() { RANGE_TO } else { RANGE_FROM };
        let limit = Some(i64::try_from(limit).unwrap_or(i64::MAX));
        let rows = self.rows(sql, tree, start.to_vec(), end.map(<[u8]>::to_vec), limit)?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    /// The keys alone of [`Snapshot::range`].
    pub fn range_keys(
        &self,
        tree: Tree,
        start: &[u8],
        end: Option<&[u8]>,
        limit: usize,
    ) -> Result<Vec<Vec<u8>>, StoreError> {
        let sql = if end.is_some() { KEYS_TO } else { KEYS_FROM };
        let limit = Some(i64::try_from(limit).unwrap_or(i64::MAX));
        let rows = self.rows(sql, tree, start.to_vec(), end.map(<[u8]>::to_vec), limit)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }
}

impl Drop for Snapshot<'_> {
    fn drop(&mut self) {
        if let (true, Some(client)) = (self.open, self.client.take()) {
            if let Ok(client) = Arc::try_unwrap(client) {
                drop(Object::take(client));
            }
        }
    }
}
