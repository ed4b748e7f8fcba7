//! PostgreSQL behind [`Kv`]: the store of several Tokar processes sharing one
//! database server.
//!
//! Every keyspace lives in one table, `tokar_kv(tree, key, value)`, keyed by
//! `(tree, key)`; `bytea` compares bytewise (memcmp, then length) whatever the
//! database's collation, so scans come back in sled's order. Transactions run
//! at `SERIALIZABLE`: PostgreSQL then refuses (SQLSTATE 40001) whichever of two
//! transactions would have lost the other's update, and [`PgKv::transact`]
//! runs the refused one's closure again, as sled does on a conflict. A
//! transaction that returns has committed with `synchronous_commit` on, so its
//! writes are on the server's disk.
//!
//! The [`Kv`] interface is blocking; a call runs on the calling thread, in
//! the tokio runtime the store was opened on (`postgres/call.rs` says how,
//! and what a caller outside a runtime gets).

mod call;
mod schema;
mod snapshot;
mod trips;
mod tx;

pub use snapshot::Snapshot;
pub use trips::Trips;
use trips::{prepared, Counter};

use super::kv::{Kv, KvTx, Tree, TxError};
use super::{RawItem, StoreError};
use backon::BackoffBuilder;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use std::sync::Arc;
use std::time::Duration;
use tokio_postgres::error::SqlState;

pub use schema::latest as schema_version;

/// Connections one `PgKv` keeps open at most: enough for the table's blocking
/// threads that reach the store at once, well under a server's default
/// `max_connections` (100) with a few processes.
const POOL_SIZE: usize = 16;

/// How long a transaction that keeps conflicting is run again before the
/// store gives up and reports it (a live lock, or a database under a load it
/// cannot carry).
const RETRY_BUDGET: Duration = Duration::from_secs(10);

/// A PostgreSQL database holding one Tokar store.
pub struct PgKv {
    pool: Pool,
    /// The runtime the connections live on (`postgres/call.rs`).
    home: call::Home,
    describe: String,
    /// Round trips to the server so far ([`PgKv::trips`]).
    count: Arc<Counter>,
}

/// A failed database call: whether running the transaction again may succeed,
/// and what to tell the operator, on one line.
#[derive(Debug)]
struct Failure {
    retry: bool,
    text: String,
}

impl From<tokio_postgres::Error> for Failure {
    fn from(e: tokio_postgres::Error) -> Failure {
        // 40001 serialization failure, 40P01 deadlock, 23505 a key inserted by
        // a transaction that committed meanwhile: another transaction won.
        let retry = e.code().is_some_and(|c| {
            *c == SqlState::T_R_SERIALIZATION_FAILURE
                || *c == SqlState::T_R_DEADLOCK_DETECTED
                || *c == SqlState::UNIQUE_VIOLATION
        });
        Failure {
            retry,
            text: one_line(&e),
        }
    }
}

impl From<deadpool_postgres::PoolError> for Failure {
    fn from(e: deadpool_postgres::PoolError) -> Failure {
        Failure {
            retry: false,
            text: one_line(&e),
        }
    }
}

/// An error and its causes, joined on one line.
fn one_line(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let more = c.to_string();
        if !text.contains(&more) {
            text = format!("{text}: {more}");
        }
        cause = c.source();
    }
    text.replace(['\n', '\r'], " ")
}

impl PgKv {
    /// Opens a pool of connections to the database at `url` (a `postgres://`
    /// URL or libpq's `key=value` form) and brings its tables to this binary's
    /// schema version. Fails in one line when the URL is bad, the server
    /// cannot be reached, or the database was migrated by a newer Tokar.
    ///
    /// TLS is not spoken: reach the server over a Unix socket or a private
    /// network (`sslmode=require` is refused by the server handshake).
    pub fn connect(url: &str) -> Result<PgKv, StoreError> {
        let mut config: tokio_postgres::Config = url
            .parse()
            .map_err(|e| StoreError::Database(format!("not a PostgreSQL URL: {}", one_line(&e))))?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(10));
        }
        if config.get_application_name().is_none() {
            config.application_name("tokar");
        }
        let describe = describe(&config);
        let home = call::Home::here()?;
        let manager = Manager::from_config(
            config,
            tokio_postgres::NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .build()
            .map_err(|e| StoreError::Database(one_line(&e)))?;
        let kv = PgKv {
            pool,
            home,
            describe,
            count: Arc::default(),
        };
        let pool = kv.pool.clone();
        let name = kv.describe.clone();
        kv.run(async move {
            let mut client = pool.get().await.map_err(|e| {
                StoreError::Database(format!("cannot connect to {name}: {}", one_line(&e)))
            })?;
            schema::migrate(&mut client, &name).await
        })??;
        Ok(kv)
    }

    /// The round trips to the server and the statements sent since the store
    /// was opened, by every thread (see `postgres/trips.rs`).
    pub fn trips(&self) -> Trips {
        self.count.now()
    }

    /// The rows of a key range, in key order: keys and values, or keys alone.
    fn range_rows(
        &self,
        values: bool,
        tree: Tree,
        start: &[u8],
        end: Option<&[u8]>,
        limit: usize,
    ) -> Result<Vec<tokio_postgres::Row>, StoreError> {
        let sql = match (values, end.is_some()) {
            (true, true) => RANGE_TO,
            (true, false) => RANGE_FROM,
            (false, true) => KEYS_TO,
            (false, false) => KEYS_FROM,
        };
        let limit = Some(i64::try_from(limit).unwrap_or(i64::MAX));
        self.query(sql, tree, start.to_vec(), end.map(<[u8]>::to_vec), limit)
    }

    /// One statement on a pooled connection, outside any transaction.
    fn query(
        &self,
        sql: &'static str,
        tree: Tree,
        from: Vec<u8>,
        to: Option<Vec<u8>>,
        limit: Option<i64>,
    ) -> Result<Vec<tokio_postgres::Row>, StoreError> {
        let pool = self.pool.clone();
        let count = self.count.clone();
        self.run(async move {
            let client = pool.get().await?;
            let statement = prepared(&client, sql, &count).await?;
            count.trip(1);
            let rows = match (to, limit) {
                (None, None) => client.query(&statement, &[&tree, &from]).await?,
                (Some(to), None) => client.query(&statement, &[&tree, &from, &to]).await?,
                (None, Some(n)) => client.query(&statement, &[&tree, &from, &n]).await?,
                (Some(to), Some(n)) => client.query(&statement, &[&tree, &from, &to, &n]).await?,
            };
            Ok::<_, Failure>(rows)
        })?
        .map_err(|e| StoreError::Database(e.text))
    }
}

const GET: &str = "SELECT value FROM tokar_kv WHERE tree = $1 AND key = $2";
/// The rows of several keys of one keyspace (`$2` the keys).
const GET_MANY: &str = "SELECT key, value FROM tokar_kv WHERE tree = $1 AND key = ANY($2::bytea[])";
/// Every row a transaction writes, in one statement (`$1` trees, `$2` keys,
/// `$3` values; one row per key: a transaction keeps the last write of each).
const UPSERT_MANY: &str = "INSERT INTO tokar_kv (tree, key, value) \
                           SELECT * FROM unnest($1::text[], $2::bytea[], $3::bytea[]) \
                           ON CONFLICT (tree, key) DO UPDATE SET value = EXCLUDED.value";
const DELETE: &str = "DELETE FROM tokar_kv WHERE tree = $1 AND key = $2";
const NEXT_ID: &str = "SELECT nextval('tokar_id')";
const NEXT_GENERATION: &str = "SELECT nextval('tokar_generation')";
/// `$1` numbers of the id sequence at once (see `KvTx::expect`).
const NEXT_IDS: &str = "SELECT nextval('tokar_id') FROM generate_series(1, $1::bigint)";
/// The last generation given (0 before the first).
const GENERATION: &str =
    "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM tokar_generation";
const RANGE_TO: &str =
    "SELECT key, value FROM tokar_kv WHERE tree = $1 AND key >= $2 AND key < $3 \
                        ORDER BY key LIMIT $4";
const RANGE_FROM: &str =
    "SELECT key, value FROM tokar_kv WHERE tree = $1 AND key >= $2 ORDER BY key LIMIT $3";
const KEYS_TO: &str =
    "SELECT key FROM tokar_kv WHERE tree = $1 AND key >= $2 AND key < $3 ORDER BY key LIMIT $4";
const KEYS_FROM: &str =
    "SELECT key FROM tokar_kv WHERE tree = $1 AND key >= $2 ORDER BY key LIMIT $3";

/// Whether `url` names a PostgreSQL database (the URL forms Tokar accepts).
pub fn is_url(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

impl Kv for PgKv {
    fn get(&self, tree: Tree, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        let rows = self.query(GET, tree, key.to_vec(), None, None)?;
        Ok(rows.first().map(|r| r.get::<_, Vec<u8>>(0)))
    }

    fn get_many(&self, tree: Tree, keys: &[Vec<u8>]) -> Result<Vec<Option<Vec<u8>>>, StoreError> {
        match keys {
            [] => return Ok(Vec::new()),
            [key] => return Ok(vec![self.get(tree, key)?]),
            _ => {}
        }
        let pool = self.pool.clone();
        let count = self.count.clone();
        let asked = keys.to_vec();
        let rows = self
            .run(async move {
                let client = pool.get().await?;
                let statement = prepared(&client, GET_MANY, &count).await?;
                count.trip(1);
                let rows = client.query(&statement, &[&tree, &asked]).await?;
                Ok::<_, Failure>(rows)
            })?
            .map_err(|e| StoreError::Database(e.text))?;
        let found: std::collections::HashMap<Vec<u8>, Vec<u8>> =
            rows.iter().map(|r| (r.get(0), r.get(1))).collect();
        Ok(keys.iter().map(|k| found.get(k).cloned()).collect())
    }

    fn range(
        &self,
        tree: Tree,
        start: &[u8],
        end: Option<&[u8]>,
        limit: usize,
    ) -> Result<Vec<RawItem>, StoreError> {
        let rows = self.range_rows(true, tree, start, end, limit)?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    fn range_keys(
        &self,
        tree: Tree,
        start: &[u8],
        end: Option<&[u8]>,
        limit: usize,
    ) -> Result<Vec<Vec<u8>>, StoreError> {
        let rows = self.range_rows(false, tree, start, end, limit)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn raise_ids(&self, floor: u64) -> Result<(), StoreError> {
        let floor = i64::try_from(floor)
            .map_err(|_| StoreError::Database(format!("id {floor} is past PostgreSQL's bigint")))?;
        let pool = self.pool.clone();
        let count = self.count.clone();
        self.run(async move {
            let client = pool.get().await?;
            count.trip(1);
            client
                .execute(
                    "SELECT setval('tokar_id', GREATEST($1::bigint, last_value)) FROM tokar_id",
                    &[&floor],
                )
                .await?;
            Ok::<_, Failure>(())
        })?
        .map_err(|e| StoreError::Database(e.text))
    }

    fn shared(&self) -> bool {
        true
    }

    fn generation(&self) -> Result<u64, StoreError> {
        let pool = self.pool.clone();
        let count = self.count.clone();
        self.run(async move {
            let client = pool.get().await?;
            count.trip(1);
            let n: i64 = client.query_one(GENERATION, &[]).await?.get(0);
            Ok::<_, Failure>(n as u64)
        })?
        .map_err(|e| StoreError::Database(e.text))
    }

    fn raise_generation(&self, floor: u64) -> Result<(), StoreError> {
        let floor = i64::try_from(floor).map_err(|_| {
            StoreError::Database(format!("generation {floor} is past PostgreSQL's bigint"))
        })?;
        if floor == 0 {
            return Ok(());
        }
        let pool = self.pool.clone();
        let count = self.count.clone();
        self.run(async move {
            let client = pool.get().await?;
            count.trip(1);
            client
                .execute(
                    "SELECT setval('tokar_generation', GREATEST($1::bigint, last_value)) \
                     FROM tokar_generation",
                    &[&floor],
                )
                .await?;
            Ok::<_, Failure>(())
        })?
        .map_err(|e| StoreError::Database(e.text))
    }

    fn postgres(&self) -> Option<&PgKv> {
        Some(self)
    }

    fn transact(
        &self,
        f: &mut dyn FnMut(&mut dyn KvTx) -> Result<(), TxError>,
    ) -> Result<(), StoreError> {
        let mut pauses = backon::ExponentialBuilder::default()
            .with_min_delay(Duration::from_millis(1))
            .with_max_delay(Duration::from_millis(50))
            .with_jitter()
            .with_max_times(usize::MAX)
            .with_total_delay(Some(RETRY_BUDGET))
            .build();
        let mut tries = 0u32;
        loop {
            tries += 1;
            let Some(why) = self.attempt(f)? else {
                return Ok(());
            };
            tracing::debug!(tries, %why, "transaction runs again");
            match pauses.next() {
                Some(pause) => std::thread::sleep(pause),
                None => {
                    return Err(StoreError::Database(format!(
                        "a transaction kept conflicting with others; gave up after {tries} tries ({why})"
                    )))
                }
            }
        }
    }

    fn describe(&self) -> String {
        self.describe.clone()
    }
}

/// The database `config` names, as a URL without its password.
fn describe(config: &tokio_postgres::Config) -> String {
    let user = config
        .get_user()
        .map(|u| format!("{}@", escape(u)))
        .unwrap_or_default();
    let ports = config.get_ports();
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .enumerate()
        .map(|(i, host)| {
            let host = match host {
                tokio_postgres::config::Host::Tcp(name) => escape(name),
                tokio_postgres::config::Host::Unix(path) => escape(&path.to_string_lossy()),
            };
            match ports.get(i).or(ports.first()) {
                Some(port) => format!("{host}:{port}"),
                None => host,
            }
        })
        .collect();
    let db = config.get_dbname().map(escape).unwrap_or_default();
    format!("postgres://{user}{}/{db}", hosts.join(","))
}

/// Percent-encodes what a URL's authority or path cannot hold as is.
fn escape(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_end_of_a_prefix_skips_trailing_ff_bytes() {
        use super::super::kv::prefix_end;
        assert_eq!(prefix_end(b"ab"), Some(b"ac".to_vec()));
        assert_eq!(prefix_end(&[1, 0xff]), Some(vec![2]));
        assert_eq!(prefix_end(&[0xff, 0xff]), None);
        assert_eq!(prefix_end(b""), None);
    }

    #[test]
    fn the_description_has_no_password() {
        let config: tokio_postgres::Config = "postgres://tokar:s3cret@db.example:5433/games"
            .parse()
            .unwrap();
        assert_eq!(describe(&config), "postgres://tokar@db.example:5433/games");
        let config: tokio_postgres::Config =
            "host=/run/pg port=5432 user=t password=s3cret dbname=x"
                .parse()
                .unwrap();
        assert_eq!(describe(&config), "postgres://t@%2Frun%2Fpg:5432/x");
    }
}
