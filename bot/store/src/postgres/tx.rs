//! One transaction on one pooled connection: `BEGIN ISOLATION LEVEL
//! SERIALIZABLE`, the closure's steps each sent and awaited, `COMMIT`.

use super::{
    one_line, prepared, Counter, Failure, PgKv, DELETE, GET, NEXT_GENERATION, NEXT_ID, UPSERT,
};
use crate::kv::{BackendError, KvTx, Tree, TxError};
use crate::StoreError;
use deadpool_postgres::Object;
use std::future::Future;
use std::sync::Arc;

impl PgKv {
    /// Runs `f` once as a transaction: `Ok(None)` when it committed,
    /// `Ok(Some(why))` when another transaction won and it may run again.
    pub(super) fn attempt(
        &self,
        f: &mut dyn FnMut(&mut dyn KvTx) -> Result<(), TxError>,
    ) -> Result<Option<String>, StoreError> {
        let pool = self.pool.clone();
        let client = self
            .run(async move { pool.get().await })?
            .map_err(|e| StoreError::Database(one_line(&e)))?;
        let mut tx = PgTx {
            kv: self,
            session: Session {
                client: Some(Arc::new(client)),
                open: false,
            },
            broken: None,
        };
        // Open until it is known to have ended: a connection left inside a
        // transaction is never given back.
        tx.session.open = true;
        match tx.exec("BEGIN ISOLATION LEVEL SERIALIZABLE; SET LOCAL synchronous_commit TO on") {
            Ok(()) => {}
            // A pooled connection the server closed meanwhile: nothing began.
            Err(e) if tx.session.closed() => return Ok(Some(e.text)),
            Err(e) => return Err(StoreError::Database(e.text)),
        }
        let result = f(&mut tx);
        let ending = match (tx.broken.take(), result) {
            (Some(e), _) => Err(e),
            (None, Ok(())) => return tx.commit(),
            (None, Err(TxError::Abort(e))) => Ok(e),
            (None, Err(TxError::Backend(BackendError::Conflict))) => Err(Failure {
                retry: true,
                text: "a conflict".into(),
            }),
            (None, Err(TxError::Backend(BackendError::Other(e)))) => Ok(e),
            (None, Err(TxError::Backend(BackendError::Sled(e)))) => Ok(StoreError::Database(
                format!("a sled error in PostgreSQL: {e}"),
            )),
        };
        tx.rollback();
        match ending {
            Ok(refusal) => Err(refusal),
            Err(Failure { retry: true, text }) => Ok(Some(text)),
            Err(Failure { retry: false, text }) => Err(StoreError::Database(text)),
        }
    }
}

/// A connection taken from the pool for one transaction. If it is dropped with
/// the transaction still open (the closure panicked), the connection is closed
/// rather than given back, so the server rolls the transaction back and no
/// later transaction runs inside it.
struct Session {
    client: Option<Arc<Object>>,
    open: bool,
}

impl Session {
    fn client(&self) -> Arc<Object> {
        self.client
            .clone()
            .expect("a session has its connection until dropped")
    }

    fn closed(&self) -> bool {
        self.client.as_ref().is_none_or(|c| c.is_closed())
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let (true, Some(client)) = (self.open, self.client.take()) {
            if let Ok(client) = Arc::try_unwrap(client) {
                drop(Object::take(client));
            }
        }
    }
}

/// The steps of one transaction, each sent to the server and awaited.
struct PgTx<'a> {
    kv: &'a PgKv,
    session: Session,
    /// The first step the server refused: the transaction is void from there
    /// (PostgreSQL refuses every later statement), whatever the closure does
    /// with the error.
    broken: Option<Failure>,
}

impl PgTx<'_> {
    /// Runs `work` with the connection, unless an earlier step broke the
    /// transaction.
    fn step<T: Send + 'static, W>(&mut self, work: W) -> Result<T, TxError>
    where
        W: FnOnce(
            Arc<Object>,
            Arc<Counter>,
        ) -> std::pin::Pin<Box<dyn Future<Output = Result<T, Failure>> + Send>>,
    {
        if let Some(broken) = &self.broken {
            return Err(backend(broken));
        }
        let outcome = match self
            .kv
            .run(work(self.session.client(), self.kv.count.clone()))
        {
            Ok(outcome) => outcome,
            Err(e) => Err(Failure {
                retry: false,
                text: e.to_string(),
            }),
        };
        outcome.map_err(|failure| {
            let e = backend(&failure);
            self.broken = Some(failure);
            e
        })
    }

    /// Sends `sql` as is (no step of the closure: it may end the transaction).
    fn exec(&self, sql: &'static str) -> Result<(), Failure> {
        let client = self.session.client();
        self.kv.count.trip(sql.split(';').count() as u64);
        match self
            .kv
            .run(async move { Ok(client.batch_execute(sql).await?) })
        {
            Ok(outcome) => outcome,
            Err(e) => Err(Failure {
                retry: false,
                text: e.to_string(),
            }),
        }
    }

    fn commit(mut self) -> Result<Option<String>, StoreError> {
        let committed = self.exec("COMMIT");
        self.session.open = false;
        match committed {
            Ok(()) => Ok(None),
            Err(Failure { retry: true, text }) => Ok(Some(text)),
            // The outcome is unknown only if the connection broke during
            // COMMIT; the store reports it rather than guessing.
            Err(Failure { retry: false, text }) => Err(StoreError::Database(text)),
        }
    }

    fn rollback(mut self) {
        if self.exec("ROLLBACK").is_ok() {
            self.session.open = false;
        }
    }
}

fn backend(failure: &Failure) -> TxError {
    if failure.retry {
        TxError::Backend(BackendError::Conflict)
    } else {
        TxError::Backend(BackendError::Other(StoreError::Database(
            failure.text.clone(),
        )))
    }
}

impl KvTx for PgTx<'_> {
    fn get(&mut self, tree: Tree, key: &[u8]) -> Result<Option<Vec<u8>>, TxError> {
        let key = key.to_vec();
        self.step(move |c, count| {
            Box::pin(async move {
                let statement = prepared(&c, GET, &count).await?;
                count.trip(1);
                let row = c.query_opt(&statement, &[&tree, &key]).await?;
                Ok(row.map(|r| r.get::<_, Vec<u8>>(0)))
            })
        })
    }

    fn insert(&mut self, tree: Tree, key: &[u8], value: &[u8]) -> Result<(), TxError> {
        let (key, value) = (key.to_vec(), value.to_vec());
        self.step(move |c, count| {
            Box::pin(async move {
                let statement = prepared(&c, UPSERT, &count).await?;
                count.trip(1);
                c.execute(&statement, &[&tree, &key, &value]).await?;
                Ok(())
            })
        })
    }

    fn remove(&mut self, tree: Tree, key: &[u8]) -> Result<(), TxError> {
        let key = key.to_vec();
        self.step(move |c, count| {
            Box::pin(async move {
                let statement = prepared(&c, DELETE, &count).await?;
                count.trip(1);
                c.execute(&statement, &[&tree, &key]).await?;
                Ok(())
            })
        })
    }

    fn generate_id(&mut self) -> Result<u64, TxError> {
        // A sequence is outside transactions: a number it gave is never given
        // again, even when the transaction that took it rolls back.
        self.step(move |c, count| {
            Box::pin(async move {
                let statement = prepared(&c, NEXT_ID, &count).await?;
                count.trip(1);
                let id: i64 = c.query_one(&statement, &[]).await?.get(0);
                Ok(id as u64)
            })
        })
    }

    fn bump_generation(&mut self) -> Result<u64, TxError> {
        // A sequence, not a row: a row written by every transaction would
        // make each one conflict with every other. A number taken by a
        // transaction that rolls back is skipped: the generation may count
        // more writes than were stored, never fewer.
        self.step(move |c, count| {
            Box::pin(async move {
                let statement = prepared(&c, NEXT_GENERATION, &count).await?;
                count.trip(1);
                let n: i64 = c.query_one(&statement, &[]).await?.get(0);
                Ok(n as u64)
            })
        })
    }
}
