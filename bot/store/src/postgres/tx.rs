//! One transaction on one pooled connection, in as few round trips as its
//! closure allows (tokio-postgres pipelines the requests of futures polled
//! together: they go out without waiting for each other's answers).
//!
//! - `BEGIN ISOLATION LEVEL SERIALIZABLE` never travels alone: it goes out
//!   with the transaction's first statement.
//! - A read (`get`, `generate_id`, `bump_generation`) is one round trip: the
//!   closure needs its answer to go on. Numbers asked for ahead
//!   ([`KvTx::expect`]) go out with the next read instead, and `generate_id`
//!   and `bump_generation` then answer from them without a trip of their own.
//! - Writes (`insert`, `remove`) stay in the transaction, the last one of each
//!   key kept, and a `get` of a written key answers from them (the closure
//!   reads its own writes, as it would on the server). When the closure
//!   returns they go out together with `COMMIT`, in one round trip: one
//!   `INSERT … ON CONFLICT` of every row written, one `DELETE` per key
//!   removed, then `COMMIT`.
//! - A transaction that read nothing and wrote nothing sends nothing.
//!
//! Nothing is Ok before `COMMIT` answered, and answered for every write:
//! PostgreSQL ends a transaction that a pipelined write broke when its
//! `COMMIT` arrives, answering with a rollback rather than an error, so every
//! statement's answer is checked and the first failure decides. The
//! isolation is the server's, as when each write was sent on its own: the
//! reads happened inside the transaction and the writes reach it before
//! `COMMIT`; a write or a `COMMIT` that would lose another transaction's
//! update is refused (40001) and [`PgKv::transact`] runs the closure again.

use super::trips::{prepared, Counter};
use super::{
    one_line, Failure, PgKv, DELETE, GET, NEXT_GENERATION, NEXT_ID, NEXT_IDS, UPSERT_MANY,
};
use crate::kv::{BackendError, KvTx, Tree, TxError};
use crate::StoreError;
use deadpool_postgres::Object;
use futures_util::future::{join_all, BoxFuture};
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

/// Opens a transaction (two statements, sent as one message).
const BEGIN: &str = "BEGIN ISOLATION LEVEL SERIALIZABLE; SET LOCAL synchronous_commit TO on";

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
            writes: BTreeMap::new(),
            broken: None,
            ask: Ask::default(),
            ids: VecDeque::new(),
            generation: None,
        };
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
    /// `BEGIN` was sent and the transaction is not known to have ended.
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

/// A connection that closed before `COMMIT` was sent: the server ended the
/// transaction (if it had begun) without keeping anything, so it may run again.
fn connection_closed() -> Failure {
    Failure {
        retry: true,
        text: "the connection to the database was closed".into(),
    }
}

/// One transaction: its reads sent as the closure makes them, its writes kept
/// until the end (see the module).
struct PgTx<'a> {
    kv: &'a PgKv,
    session: Session,
    /// The writes not sent yet, by keyspace and key: a value, or `None` for a
    /// removal.
    writes: BTreeMap<(Tree, Vec<u8>), Option<Vec<u8>>>,
    /// The first step the server refused: the transaction is void from there
    /// (PostgreSQL refuses every later statement), whatever the closure does
    /// with the error.
    broken: Option<Failure>,
    /// Counters' numbers asked for ahead and not sent yet (see [`KvTx::expect`]).
    ask: Ask,
    /// Ids received ahead, not taken yet.
    ids: VecDeque<u64>,
    /// A generation received ahead, not taken yet.
    generation: Option<u64>,
}

/// What a transaction asked of the counters ahead of its next read.
#[derive(Clone, Copy, Default)]
struct Ask {
    ids: usize,
    generation: bool,
}

/// The answers of one read: its row, and the numbers asked for ahead.
type Answered = (Option<tokio_postgres::Row>, Vec<u64>, Option<u64>);

impl PgTx<'_> {
    /// Sends `sql` (with `key`'s keyspace and key as its parameters, or none),
    /// after `BEGIN` when it is the transaction's first statement, and waits
    /// for its first row: one round trip.
    fn read(
        &mut self,
        sql: &'static str,
        key: Option<(Tree, Vec<u8>)>,
    ) -> Result<Option<tokio_postgres::Row>, TxError> {
        if let Some(broken) = &self.broken {
            return Err(backend(broken));
        }
        let outcome = if self.session.closed() {
            Err(connection_closed())
        } else {
            let begin = !self.session.open;
            self.session.open = true;
            let client = self.session.client();
            let count: Arc<Counter> = self.kv.count.clone();
            let ask = std::mem::take(&mut self.ask);
            self.kv
                .run(async move {
                    let statement = prepared(&client, sql, &count).await?;
                    let next_ids = match ask.ids {
                        0 => None,
                        _ => Some(prepared(&client, NEXT_IDS, &count).await?),
                    };
                    let next_generation = match ask.generation {
                        false => None,
                        true => Some(prepared(&client, NEXT_GENERATION, &count).await?),
                    };
                    let opened = async {
                        match begin {
                            true => client.batch_execute(BEGIN).await,
                            false => Ok(()),
                        }
                    };
                    let ids = async {
                        match &next_ids {
                            Some(s) => client.query(s, &[&(ask.ids as i64)]).await,
                            None => Ok(Vec::new()),
                        }
                    };
                    let generation = async {
                        match &next_generation {
                            Some(s) => client.query(s, &[]).await,
                            None => Ok(Vec::new()),
                        }
                    };
                    let asked = async {
                        match &key {
                            Some((tree, key)) => client.query(&statement, &[tree, key]).await,
                            None => client.query(&statement, &[]).await,
                        }
                    };
                    let ahead =
                        u64::from(next_ids.is_some()) + u64::from(next_generation.is_some());
                    count.trip(1 + 2 * u64::from(begin) + ahead);
                    // `biased`: polled in this order, so BEGIN goes out first.
                    let (opened, ids, generation, rows) =
                        tokio::join!(biased; opened, ids, generation, asked);
                    opened?;
                    let number = |r: &tokio_postgres::Row| r.get::<_, i64>(0) as u64;
                    let ids = ids?.iter().map(number).collect();
                    let generation = generation?.first().map(number);
                    Ok::<Answered, Failure>((rows?.into_iter().next(), ids, generation))
                })
                .unwrap_or_else(|e| {
                    Err(Failure {
                        retry: false,
                        text: e.to_string(),
                    })
                })
        };
        match outcome {
            Ok((row, ids, generation)) => {
                self.ids.extend(ids);
                self.generation = self.generation.or(generation);
                Ok(row)
            }
            Err(mut failure) => {
                // The connection went down with the transaction: the server
                // kept nothing of it.
                if self.session.closed() {
                    failure.retry = true;
                }
                let e = backend(&failure);
                self.broken = Some(failure);
                Err(e)
            }
        }
    }

    /// Sends the writes kept and `COMMIT` in one round trip (see the module).
    fn commit(mut self) -> Result<Option<String>, StoreError> {
        if !self.session.open && self.writes.is_empty() {
            return Ok(None);
        }
        if self.session.closed() {
            return Ok(Some(connection_closed().text));
        }
        let begin = !self.session.open;
        self.session.open = true;
        let mut trees = Vec::new();
        let mut keys = Vec::new();
        let mut values = Vec::new();
        let mut removed = Vec::new();
        for ((tree, key), value) in std::mem::take(&mut self.writes) {
            match value {
                Some(value) => {
                    trees.push(tree);
                    keys.push(key);
                    values.push(value);
                }
                None => removed.push((tree, key)),
            }
        }
        let client = self.session.client();
        let count = self.kv.count.clone();
        let outcome = self.kv.run(async move {
            let upsert = match trees.is_empty() {
                true => None,
                false => Some(prepared(&client, UPSERT_MANY, &count).await?),
            };
            let delete = match removed.is_empty() {
                true => None,
                false => Some(prepared(&client, DELETE, &count).await?),
            };
            let client = &client;
            let mut sent: Vec<BoxFuture<'_, Result<(), tokio_postgres::Error>>> = Vec::new();
            if begin {
                sent.push(Box::pin(client.batch_execute(BEGIN)));
            }
            if let Some(delete) = &delete {
                for (tree, key) in &removed {
                    sent.push(Box::pin(async move {
                        client.execute(delete, &[tree, key]).await.map(drop)
                    }));
                }
            }
            if let Some(upsert) = &upsert {
                let rows = (&trees, &keys, &values);
                sent.push(Box::pin(async move {
                    client
                        .execute(upsert, &[rows.0, rows.1, rows.2])
                        .await
                        .map(drop)
                }));
            }
            sent.push(Box::pin(client.batch_execute("COMMIT")));
            count.trip(sent.len() as u64 + u64::from(begin));
            // In order: every request goes out before the first answer is awaited.
            let answers = join_all(sent).await;
            // Whether the server answered COMMIT (whatever it said): the
            // transaction is over either way.
            let ended = answers
                .last()
                .is_some_and(|a| a.as_ref().map_or_else(|e| e.code().is_some(), |()| true));
            let first_failure = answers.into_iter().find_map(Result::err);
            Ok::<_, Failure>((ended, first_failure.map(Failure::from)))
        });
        let (ended, failure) = match outcome {
            Ok(Ok(answered)) => answered,
            Ok(Err(failure)) => (false, Some(failure)),
            Err(e) => (
                false,
                Some(Failure {
                    retry: false,
                    text: e.to_string(),
                }),
            ),
        };
        if ended {
            self.session.open = false;
        }
        match failure {
            None => Ok(None),
            // Refused by the server: it rolled the transaction back.
            Some(Failure { retry: true, text }) if ended => Ok(Some(text)),
            // The outcome is unknown when the connection broke during
            // COMMIT; the store reports it rather than guessing.
            Some(Failure { text, .. }) => Err(StoreError::Database(text)),
        }
    }

    fn rollback(mut self) {
        if !self.session.open || self.session.closed() {
            return;
        }
        let client = self.session.client();
        self.kv.count.trip(1);
        if let Ok(Ok(())) = self
            .kv
            .run(async move { client.batch_execute("ROLLBACK").await })
        {
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
        if let Some(written) = self.writes.get(&(tree, key.to_vec())) {
            return Ok(written.clone());
        }
        let row = self.read(GET, Some((tree, key.to_vec())))?;
        Ok(row.map(|r| r.get::<_, Vec<u8>>(0)))
    }

    fn insert(&mut self, tree: Tree, key: &[u8], value: &[u8]) -> Result<(), TxError> {
        if let Some(broken) = &self.broken {
            return Err(backend(broken));
        }
        self.writes
            .insert((tree, key.to_vec()), Some(value.to_vec()));
        Ok(())
    }

    fn remove(&mut self, tree: Tree, key: &[u8]) -> Result<(), TxError> {
        if let Some(broken) = &self.broken {
            return Err(backend(broken));
        }
        self.writes.insert((tree, key.to_vec()), None);
        Ok(())
    }

    fn generate_id(&mut self) -> Result<u64, TxError> {
        // A sequence is outside transactions: a number it gave is never given
        // again, even when the transaction that took it rolls back.
        if let Some(id) = self.ids.pop_front() {
            return Ok(id);
        }
        let row = self.read(NEXT_ID, None)?;
        next_value(row)
    }

    fn expect(&mut self, ids: usize, generation: bool) {
        self.ask.ids += ids;
        self.ask.generation |= generation && self.generation.is_none();
    }

    fn bump_generation(&mut self) -> Result<u64, TxError> {
        // A sequence, not a row: a row written by every transaction would
        // make each one conflict with every other. A number taken by a
        // transaction that rolls back is skipped: the generation may count
        // more writes than were stored, never fewer.
        if let Some(generation) = self.generation.take() {
            return Ok(generation);
        }
        let row = self.read(NEXT_GENERATION, None)?;
        next_value(row)
    }
}

/// A sequence's number, as `nextval` answered it.
fn next_value(row: Option<tokio_postgres::Row>) -> Result<u64, TxError> {
    let row = row.ok_or_else(|| {
        TxError::Backend(BackendError::Other(StoreError::Database(
            "a sequence gave no number".into(),
        )))
    })?;
    Ok(row.get::<_, i64>(0) as u64)
}
