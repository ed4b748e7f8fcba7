//! sled as the store's [`Kv`]: the default tree and the named trees of one
//! database in the data folder, behind a visibility gate.
//!
//! A write that did not reach the disk did not happen, for everybody. sled
//! applies a transaction in memory and flushes it afterwards; when that flush
//! fails (the disk is full), the change is already readable. So:
//!
//! - every read waits until whatever it may have seen is on disk, and fails
//!   if that was lost ([`super::gate`]);
//! - a failed flush gives the opened database up: what it holds in memory is
//!   not what is on disk, and sled itself refuses every later write of that
//!   handle. Reads and writes are then refused ([`StoreError::Unwritable`])
//!   until the database is opened again from disk, which gives the last
//!   flushed state; that is tried at most once a [`REOPEN_EVERY`] on the next
//!   request, and succeeds once the disk lets sled start again;
//! - the operator's log says so once per episode (an `error` when it starts,
//!   an `info` when a write is stored again), not once per request.

use super::gate::{Closed, Gate, Ticket};
use super::group_flush::GroupFlush;
use super::kv::{BackendError, Kv, KvTx, SledTxError, Tree, TxError, MAIN, NAMED};
use super::{RawItem, StoreError};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};
use tracing::{debug, error, info};

mod raw;

/// How often a request may try to open a given-up database again.
pub const REOPEN_EVERY: Duration = Duration::from_secs(1);

/// Opens the database again from disk (the data folder's, with its settings).
pub type Reopen = Box<dyn Fn() -> Result<sled::Db, StoreError> + Send + Sync>;

/// One opening of the database, with the gate and the flushes of its writes.
struct Opened {
    db: sled::Db,
    /// [`MAIN`] then [`NAMED`], in that order, opened once.
    trees: Vec<sled::Tree>,
    gate: Gate,
    /// Transactions that end while a flush runs share the next one.
    flushes: GroupFlush,
}

impl Opened {
    fn new(db: sled::Db) -> Result<Opened, StoreError> {
        let mut trees = vec![(*db).clone()];
        for name in NAMED {
            trees.push(db.open_tree(name)?);
        }
        Ok(Opened {
            db,
            trees,
            gate: Gate::default(),
            flushes: GroupFlush::default(),
        })
    }

    fn tree(&self, tree: Tree) -> &sled::Tree {
        &self.trees[index(tree)]
    }
}

/// A failure episode: from the first failed write until one is stored again.
struct Episode {
    since: Instant,
    /// Requests refused meanwhile.
    refused: u64,
}

/// sled, gated (see the module's documentation).
///
/// A sled transaction writes and syncs its log buffer before it starts and a
/// buffer of its own for the mark that makes it atomic, besides the flush that
/// makes it durable: three syncs of the disk where a plain write and a flush
/// take one. Hence [`Kv::remove_each`] outside a transaction.
pub struct SledKv {
    /// The database as opened now; `None` once given up after a failed write.
    opened: RwLock<Option<Arc<Opened>>>,
    reopen: Option<Reopen>,
    /// The last try to open it again.
    last_try: Mutex<Option<Instant>>,
    episode: Mutex<Option<Episode>>,
    describe: String,
}

impl SledKv {
    /// The database `db`; given up for good if a write fails (a store opened
    /// by a tool, or a test's).
    pub fn new(db: sled::Db, describe: String) -> Result<SledKv, StoreError> {
        Ok(SledKv {
            opened: RwLock::new(Some(Arc::new(Opened::new(db)?))),
            reopen: None,
            last_try: Mutex::new(None),
            episode: Mutex::new(None),
            describe,
        })
    }

    /// The database `db`, opened again with `reopen` after a failed write.
    pub fn reopening(db: sled::Db, describe: String, reopen: Reopen) -> Result<SledKv, StoreError> {
        Ok(SledKv {
            reopen: Some(reopen),
            ..SledKv::new(db, describe)?
        })
    }

    /// The database as opened now, opening it again if it was given up.
    fn opened(&self) -> Result<Arc<Opened>, StoreError> {
        if let Some(o) = &*self.opened.read().unwrap_or_else(|e| e.into_inner()) {
            return Ok(o.clone());
        }
        let Some(reopen) = &self.reopen else {
            self.refused();
            return Err(unwritable("it stays closed until Tokar is restarted"));
        };
        let mut last = self.last_try.lock().unwrap_or_else(|e| e.into_inner());
        // Another request may have opened it while this one waited.
        if let Some(o) = &*self.opened.read().unwrap_or_else(|e| e.into_inner()) {
            return Ok(o.clone());
        }
        if last.is_some_and(|t| t.elapsed() < REOPEN_EVERY) {
            self.refused();
            return Err(unwritable("waiting to open it again from disk"));
        }
        *last = Some(Instant::now());
        let opened = reopen().and_then(Opened::new).map(Arc::new).map_err(|e| {
            self.refused();
            debug!(store = %self.describe, error = %e, "the store cannot be opened again yet");
            unwritable("it cannot be opened again yet")
        })?;
        info!(store = %self.describe, "the store was opened again from disk (its last flushed state)");
        *self.opened.write().unwrap_or_else(|e| e.into_inner()) = Some(opened.clone());
        Ok(opened)
    }

    /// Counts a request refused during an episode.
    fn refused(&self) {
        if let Some(ep) = &mut *self.episode.lock().unwrap_or_else(|e| e.into_inner()) {
            ep.refused += 1;
        }
    }

    /// A write to `o` failed to reach the disk: `o` is given up, and the
    /// operator told if this starts an episode.
    fn give_up(&self, o: &Arc<Opened>, lost: &Ticket, why: &str) {
        o.gate.failed(lost);
        {
            let mut opened = self.opened.write().unwrap_or_else(|e| e.into_inner());
            if opened.as_ref().is_some_and(|cur| Arc::ptr_eq(cur, o)) {
                *opened = None;
            }
        }
        let mut episode = self.episode.lock().unwrap_or_else(|e| e.into_inner());
        if episode.is_none() {
            error!(
                store = %self.describe,
                error = %why,
                "a write could not be made durable: it is undone for everybody, and the store refuses \
                 reads and writes until it is opened again from disk (tried each second on the next request)"
            );
            *episode = Some(Episode {
                since: Instant::now(),
                refused: 0,
            });
        }
    }

    /// A write reached the disk: an episode, if any, is over.
    fn stored(&self) {
        let mut episode = self.episode.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(ep) = episode.take() {
            info!(
                store = %self.describe,
                after_secs = ep.since.elapsed().as_secs(),
                refused = ep.refused,
                "writes reach the disk again"
            );
        }
    }

    /// A read of the database as opened now, returned once whatever it may
    /// have seen is on disk.
    fn read<T>(&self, f: impl FnOnce(&Opened) -> Result<T, StoreError>) -> Result<T, StoreError> {
        let o = self.opened()?;
        let out = f(&o)?;
        match o.gate.settle() {
            Ok(()) => Ok(out),
            Err(Closed::Lost) => {
                self.refused();
                Err(unwritable("a write this read may have seen was lost"))
            }
            Err(Closed::Hung) => Err(unwritable("writes did not reach the disk in time")),
        }
    }

    /// Applies `apply` (a write's changes, in memory) and flushes; any
    /// failure of sled's own, or of the flush, gives the database up.
    fn write(
        &self,
        apply: impl FnOnce(&Opened) -> Result<bool, StoreError>,
    ) -> Result<(), StoreError> {
        let o = self.opened()?;
        let ticket = o.gate.begin();
        let applied = apply(&o);
        o.gate.applied(&ticket, matches!(applied, Ok(true)));
        match applied {
            Ok(true) => {}
            Ok(false) => return Ok(()),
            Err(e) => {
                if broken(&e) {
                    self.give_up(&o, &ticket, &e.to_string());
                    return Err(unwritable(&e.to_string()));
                }
                return Err(e);
            }
        }
        self.flush(&o, ticket)
    }

    fn flush(&self, o: &Arc<Opened>, mine: Ticket) -> Result<(), StoreError> {
        let flushed = o.flushes.flush(|| {
            let carried = o.gate.flush_starts();
            o.db.flush()?;
            o.gate.flushed(&carried);
            Ok::<(), sled::Error>(())
        });
        match flushed {
            Ok(()) => {
                self.stored();
                Ok(())
            }
            Err(e) => {
                self.give_up(o, &mine, &e.to_string());
                Err(unwritable(&e.to_string()))
            }
        }
    }
}

/// Whether a sled error leaves the opened database unusable (its disk
/// failed), as opposed to a refusal of the store's own.
fn broken(e: &StoreError) -> bool {
    matches!(
        e,
        StoreError::Sled(crate::SledError(
            sled::Error::Io(_) | sled::Error::ReportableBug(_)
        ))
    )
}

fn unwritable(why: &str) -> StoreError {
    StoreError::Unwritable(why.to_string())
}

fn index(tree: Tree) -> usize {
    if tree == MAIN {
        return 0;
    }
    // The names are the store's own constants: an unknown one is a bug.
    1 + NAMED
        .iter()
        .position(|n| *n == tree)
        .unwrap_or_else(|| panic!("no keyspace named {tree}"))
}

fn sled_range(tree: &sled::Tree, start: &[u8], end: Option<&[u8]>) -> sled::Iter {
    use std::ops::Bound;
    let end = match end {
        Some(e) => Bound::Excluded(e.to_vec()),
        None => Bound::Unbounded,
    };
    tree.range::<Vec<u8>, _>((Bound::Included(start.to_vec()), end))
}

struct SledTx<'a> {
    views: &'a [sled::transaction::TransactionalTree],
    /// Whether the transaction changed anything.
    wrote: &'a std::cell::Cell<bool>,
}

fn sled_step<T>(
    r: Result<T, sled::transaction::UnabortableTransactionError>,
) -> Result<T, TxError> {
    r.map_err(|e| TxError::Backend(BackendError::Sled(SledTxError(e))))
}

impl KvTx for SledTx<'_> {
    fn get(&mut self, tree: Tree, key: &[u8]) -> Result<Option<Vec<u8>>, TxError> {
        sled_step(self.views[index(tree)].get(key)).map(|v| v.map(|v| v.to_vec()))
    }
    fn insert(&mut self, tree: Tree, key: &[u8], value: &[u8]) -> Result<(), TxError> {
        self.wrote.set(true);
        sled_step(self.views[index(tree)].insert(key, value)).map(drop)
    }
    fn remove(&mut self, tree: Tree, key: &[u8]) -> Result<(), TxError> {
        self.wrote.set(true);
        sled_step(self.views[index(tree)].remove(key)).map(drop)
    }
    fn generate_id(&mut self) -> Result<u64, TxError> {
        self.wrote.set(true);
        self.views[0]
            .generate_id()
            .map_err(|e| TxError::Backend(BackendError::Other(e.into())))
    }
}

impl Kv for SledKv {
    fn get(&self, tree: Tree, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.read(|o| Ok(o.tree(tree).get(key)?.map(|v| v.to_vec())))
    }

    fn range(
        &self,
        tree: Tree,
        start: &[u8],
        end: Option<&[u8]>,
        limit: usize,
    ) -> Result<Vec<RawItem>, StoreError> {
        self.read(|o| {
            sled_range(o.tree(tree), start, end)
                .take(limit)
                .map(|kv| {
                    let (k, v) = kv?;
                    Ok((k.to_vec(), v.to_vec()))
                })
                .collect()
        })
    }

    fn range_keys(
        &self,
        tree: Tree,
        start: &[u8],
        end: Option<&[u8]>,
        limit: usize,
    ) -> Result<Vec<Vec<u8>>, StoreError> {
        self.read(|o| {
            sled_range(o.tree(tree), start, end)
                .keys()
                .take(limit)
                .map(|k| Ok(k?.to_vec()))
                .collect()
        })
    }

    fn transact(
        &self,
        f: &mut dyn FnMut(&mut dyn KvTx) -> Result<(), TxError>,
    ) -> Result<(), StoreError> {
        use sled::transaction::{ConflictableTransactionError as C, TransactionError};
        use sled::Transactional;
        self.write(|o| {
            // sled's closure is `Fn` (it may run it again); ours is run one at a time.
            let f = std::cell::RefCell::new(&mut *f);
            let wrote = std::cell::Cell::new(false);
            let result = o.trees.as_slice().transaction(|views| {
                wrote.set(false);
                let mut tx = SledTx {
                    views,
                    wrote: &wrote,
                };
                let step = (f.borrow_mut())(&mut tx);
                match step {
                    Ok(()) => Ok(()),
                    Err(TxError::Abort(e)) | Err(TxError::Backend(BackendError::Other(e))) => {
                        Err(C::Abort(e))
                    }
                    Err(TxError::Backend(BackendError::Sled(e))) => Err(e.0.into()),
                    Err(TxError::Backend(BackendError::Conflict)) => Err(C::Conflict),
                }
            });
            match result {
                Ok(()) => Ok(wrote.get()),
                Err(TransactionError::Abort(e)) => Err(e),
                Err(TransactionError::Storage(e)) => Err(e.into()),
            }
        })
    }

    fn remove_each(&self, tree: Tree, keys: &[Vec<u8>]) -> Result<(), StoreError> {
        self.write(|o| {
            let tree = o.tree(tree);
            for k in keys {
                tree.remove(k)?;
            }
            Ok(!keys.is_empty())
        })
    }

    fn raise_ids(&self, floor: u64) -> Result<(), StoreError> {
        // sled's counter only counts up one by one; a moved store's ids are
        // its outbox entries', a few thousand at most past the counter.
        self.write(|o| {
            while o.db.generate_id()? <= floor {}
            Ok(true)
        })
    }

    fn local_reads(&self) -> bool {
        true
    }

    fn reads_wait(&self) -> bool {
        match &*self.opened.read().unwrap_or_else(|e| e.into_inner()) {
            Some(o) => o.gate.busy(),
            None => true,
        }
    }

    fn describe(&self) -> String {
        self.describe.clone()
    }

    fn in_folder(&self) -> bool {
        true
    }

    fn tree_names(&self) -> Result<Vec<String>, StoreError> {
        self.read(|o| super::trees::names(&o.db))
    }

    fn walk(
        &self,
        tree: &str,
        start: &[u8],
        end: Option<&[u8]>,
        each: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    ) -> Result<(), StoreError> {
        self.raw_walk(tree, start, end, each)
    }

    fn read_tree(&self, tree: &str) -> Result<Vec<RawItem>, StoreError> {
        self.read(|o| super::trees::read(&o.named(tree)?))
    }

    fn load(&self, tree: &str, items: &[RawItem]) -> Result<(), StoreError> {
        self.raw_load(tree, items)
    }

    fn sync(&self) -> Result<(), StoreError> {
        self.opened()?.db.flush()?;
        Ok(())
    }
}
