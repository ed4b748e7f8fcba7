//! The interface between the store and a database: ordered keyspaces of byte
//! keys and values, read directly or changed in serializable transactions.
//!
//! [`Store`](super::Store) holds every rule of what is stored where (the key
//! layout in `storage.rs` and its child modules) and speaks to a database only
//! through [`Kv`]. sled implements it here ([`SledKv`], the embedded default);
//! PostgreSQL implements it in `storage/postgres.rs`. Both give the same
//! guarantees, which the store relies on:
//!
//! - keys sort bytewise (`scan` returns them in that order);
//! - a transaction sees one state and its writes land together or not at all;
//!   a transaction that conflicts with another is run again from the start, so
//!   its closure must have no effects but its writes;
//! - a transaction that returns has its writes on disk; one that fails left
//!   nothing anybody can read (sled: see `storage/gate.rs`);
//! - a read returns only what is on disk;
//! - `generate_id` only grows, across restarts too.
//!
//! A keyspace is named by a [`Tree`]: [`MAIN`] holds games, logs, the
//! schedule, the outbox and users; the named ones hold events, leagues and
//! server settings.

use super::{RawItem, StoreError};

/// A keyspace's name. [`MAIN`] is the default one.
pub type Tree = &'static str;

/// The main keyspace (sled's default tree).
pub const MAIN: Tree = "";

/// Every named keyspace the store writes (besides [`MAIN`]). A transaction may
/// touch any of them.
pub const NAMED: [Tree; 3] = [
    super::events::TREE,
    super::leagues::TREE,
    super::servers::TREE,
];

/// Why a transaction's step failed: the closure's own refusal, which ends the
/// transaction with that error, or the database's, which the backend handles
/// (running the closure again on a conflict).
#[derive(Debug)]
pub enum TxError {
    /// Ends the transaction; nothing it wrote is kept.
    Abort(StoreError),
    /// The database could not do the step (a conflict or a failure).
    Backend(BackendError),
}

/// A database failure inside a transaction, opaque to the closure.
#[derive(Debug)]
pub enum BackendError {
    Sled(SledTxError),
    /// Another transaction changed what this one read: run it again.
    Conflict,
    Other(StoreError),
}

/// sled's failure inside a transaction, kept opaque: no sled type leaves the
/// store.
#[derive(Debug)]
pub struct SledTxError(pub(crate) sled::transaction::UnabortableTransactionError);

impl std::fmt::Display for SledTxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl From<StoreError> for TxError {
    fn from(e: StoreError) -> TxError {
        TxError::Abort(e)
    }
}

/// The steps of one transaction.
pub trait KvTx {
    fn get(&mut self, tree: Tree, key: &[u8]) -> Result<Option<Vec<u8>>, TxError>;
    fn insert(&mut self, tree: Tree, key: &[u8], value: &[u8]) -> Result<(), TxError>;
    fn remove(&mut self, tree: Tree, key: &[u8]) -> Result<(), TxError>;
    /// A number never given before by this database.
    fn generate_id(&mut self) -> Result<u64, TxError>;
    /// Says ahead what the transaction will take from the store's counters:
    /// `ids` numbers from [`KvTx::generate_id`] and, with `generation`, one
    /// [`KvTx::bump_generation`]. A store whose counters cost a round trip
    /// each (PostgreSQL) sends these asks with the transaction's next read, so
    /// that they cost none of their own; a number asked for and not taken is
    /// skipped, as a rolled-back transaction's is. By default nothing: sled's
    /// counters are local.
    fn expect(&mut self, ids: usize, generation: bool) {
        let _ = (ids, generation);
    }
    /// Adds one to the store's generation and returns the new value (see
    /// [`Kv::generation`]). By default a key of [`MAIN`]: every transaction
    /// that calls it writes that key, which costs sled nothing (its
    /// transactions already run one at a time) but would make every
    /// PostgreSQL transaction conflict with every other, so PostgreSQL
    /// overrides it with a sequence.
    fn bump_generation(&mut self) -> Result<u64, TxError> {
        let n = self.get(MAIN, GENERATION)?.map_or(0, |b| be(&b)) + 1;
        self.insert(MAIN, GENERATION, &n.to_be_bytes())?;
        Ok(n)
    }
}

/// The key of the store's generation in [`MAIN`] (sled; PostgreSQL keeps it
/// in a sequence).
pub const GENERATION: &[u8] = b"writes";

/// The key written in [`MAIN`] once a marker names the store in its data
/// folder: a database that has it and no marker beside it lost its marker,
/// where one without it is from before markers (see `storage/marker_check.rs`).
pub const MARKED: &[u8] = b"with-marker";

/// A big-endian number stored as bytes (0 when too short).
fn be(b: &[u8]) -> u64 {
    b.get(..8)
        .and_then(|b| <[u8; 8]>::try_from(b).ok())
        .map_or(0, u64::from_be_bytes)
}

/// A database the store can live in. Blocking: the table writes from
/// `spawn_blocking`, and reads there too unless [`Kv::local_reads`] says a
/// read costs less than that hand-off.
pub trait Kv: Send + Sync + 'static {
    fn get(&self, tree: Tree, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError>;
    /// The keys and values from `start` (included) to `end` (excluded; `None`:
    /// to the last key), in key order, at most `limit`.
    fn range(
        &self,
        tree: Tree,
        start: &[u8],
        end: Option<&[u8]>,
        limit: usize,
    ) -> Result<Vec<RawItem>, StoreError>;
    /// The keys alone of [`Kv::range`] (an index's keys, or pictures' keys
    /// without their bytes).
    fn range_keys(
        &self,
        tree: Tree,
        start: &[u8],
        end: Option<&[u8]>,
        limit: usize,
    ) -> Result<Vec<Vec<u8>>, StoreError>;
    /// The keys and values starting with `prefix`, in key order, at most `limit`.
    fn scan(&self, tree: Tree, prefix: &[u8], limit: usize) -> Result<Vec<RawItem>, StoreError> {
        self.range(tree, prefix, prefix_end(prefix).as_deref(), limit)
    }
    /// The values of `keys`, in their order (`None` where a key is absent):
    /// one round trip on a store across the network, where a `get` each would
    /// be one per key. Not a snapshot: each value is as [`Kv::get`] would read it.
    fn get_many(&self, tree: Tree, keys: &[Vec<u8>]) -> Result<Vec<Option<Vec<u8>>>, StoreError> {
        keys.iter().map(|k| self.get(tree, k)).collect()
    }
    /// The keys starting with `prefix`, in key order.
    fn keys(&self, tree: Tree, prefix: &[u8]) -> Result<Vec<Vec<u8>>, StoreError> {
        self.range_keys(tree, prefix, prefix_end(prefix).as_deref(), usize::MAX)
    }
    /// Runs `f` as one transaction (again on a conflict) and makes its writes durable.
    fn transact(
        &self,
        f: &mut dyn FnMut(&mut dyn KvTx) -> Result<(), TxError>,
    ) -> Result<(), StoreError>;
    /// Removes `keys` durably, each on its own: a stop midway may leave some
    /// removed and some not. For what needs no transaction, such as delivered
    /// outbox entries without pictures, where each entry is one key; a
    /// transaction costs sled far more than its writes (see [`SledKv`]).
    fn remove_each(&self, tree: Tree, keys: &[Vec<u8>]) -> Result<(), StoreError> {
        self.transact(&mut |tx| keys.iter().try_for_each(|k| tx.remove(tree, k)))
    }
    /// Makes every later `generate_id` give more than `floor` (a store moved
    /// in from another database keeps its outbox entries' order and ids).
    fn raise_ids(&self, floor: u64) -> Result<(), StoreError>;
    /// The store's generation: how many times [`KvTx::bump_generation`] was
    /// called in transactions that committed (at least; PostgreSQL's sequence
    /// may also count transactions that did not). It only grows, so a copy of
    /// the database taken earlier has a lower one. Every game write bumps it.
    fn generation(&self) -> Result<u64, StoreError> {
        Ok(self.get(MAIN, GENERATION)?.map_or(0, |b| be(&b)))
    }
    /// Makes the generation at least `floor` (a store moved in from another
    /// database keeps the generation its marker recorded).
    fn raise_generation(&self, floor: u64) -> Result<(), StoreError> {
        self.transact(&mut |tx| {
            if tx.get(MAIN, GENERATION)?.map_or(0, |b| be(&b)) < floor {
                tx.insert(MAIN, GENERATION, &floor.to_be_bytes())?;
            }
            Ok(())
        })
    }
    /// Whether other processes may use the database at the same time (sled:
    /// never, it is locked to one process).
    fn shared(&self) -> bool {
        false
    }
    /// Whether a read is answered in this process, from memory or the local
    /// disk, in microseconds (sled), so that it may run on the async executor;
    /// a read across the network (PostgreSQL) may not.
    fn local_reads(&self) -> bool {
        false
    }
    /// What the operator is told the store is (a folder, a server).
    fn describe(&self) -> String;
    /// Whether a read now may have to wait for writes to reach the disk (see
    /// `storage/gate.rs`), so that it had better not run on the async executor.
    fn reads_wait(&self) -> bool {
        false
    }
    /// Whether the database lives in the data folder (sled), so that the
    /// folder's marker names it by kind rather than by address.
    fn in_folder(&self) -> bool {
        false
    }

    // The raw reads and writes of the operator's tools (see `raw.rs`); a
    // keyspace is named there by its text, since a database may hold one a
    // later Tokar made, which this build has no [`Tree`] for.

    /// Every named keyspace the database holds (besides [`MAIN`]), in name
    /// order. By default the ones this build knows ([`NAMED`]).
    fn tree_names(&self) -> Result<Vec<String>, StoreError> {
        Ok(super::raw::known_names())
    }
    /// Calls `each` with every key and value of keyspace `tree` (`""`:
    /// [`MAIN`]) from `start` (included) to `end` (excluded; `None`: the
    /// last key), in key order, until `each` says `false`. Stops at the
    /// database's first error, which it returns: a damaged store is read up
    /// to where it fails, not around it. By default a page at a time.
    fn walk(
        &self,
        tree: &str,
        start: &[u8],
        end: Option<&[u8]>,
        each: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    ) -> Result<(), StoreError> {
        super::raw::walk_pages(self, tree, start, end, each)
    }
    /// Every key and value of keyspace `tree`, as one consistent state.
    fn read_tree(&self, tree: &str) -> Result<Vec<RawItem>, StoreError> {
        super::raw::read_known(self, tree)
    }
    /// Writes `items` into keyspace `tree` (made if new) for a restore that
    /// builds a database nobody else uses yet: durable only after
    /// [`Kv::sync`]. By default one transaction.
    fn load(&self, tree: &str, items: &[RawItem]) -> Result<(), StoreError> {
        super::raw::load_in_transaction(self, tree, items)
    }
    /// Makes every [`Kv::load`] so far durable.
    fn sync(&self) -> Result<(), StoreError> {
        Ok(())
    }
    /// The PostgreSQL database, for backups read in one snapshot.
    fn postgres(&self) -> Option<&super::postgres::PgKv> {
        None
    }
}

/// The first key after every key that starts with `prefix` (`None`: there is
/// none, the prefix is empty or all 0xff bytes).
pub fn prefix_end(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < 0xff {
            end.push(last + 1);
            return Some(end);
        }
    }
    None
}

/// Runs `f` as one transaction of `kv`, returning what it returns.
pub fn transaction<T>(
    kv: &dyn Kv,
    mut f: impl FnMut(&mut dyn KvTx) -> Result<T, TxError>,
) -> Result<T, StoreError> {
    let mut out = None;
    kv.transact(&mut |tx| {
        out = Some(f(tx)?);
        Ok(())
    })?;
    out.ok_or_else(|| StoreError::Corrupt("a transaction ended without a result".into()))
}

pub use super::sled_kv::SledKv;
