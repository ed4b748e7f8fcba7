//! What leagues and events share in the store: a record per number in a
//! keyspace of its own (`prefix` id), an index from each of its games to it
//! (`G` game), a counter of the numbers given, and a write that is
//! compare-and-swapped on the record's version and carries the outbox
//! entries announcing the change, in one flushed transaction.

use super::kv::{transaction, Kv, Tree, TxError};
use super::{be_u64, key, put_entry, tail_u64, StoreError};
use serde::Serialize;
use tokar_model::outbox::NewEntry;
use tokar_model::record::encode;

/// A record kept this way.
pub(super) trait Versioned: Serialize + Clone {
    /// The first byte of its records' keys.
    const PREFIX: u8;
    fn decode(bytes: &[u8]) -> Result<Self, String>;
    fn id(&self) -> u64;
    fn version(&self) -> u64;
    fn set_version(&mut self, version: u64);
    /// The games it made, each indexed to it.
    fn games(&self) -> Vec<u64>;
}

/// The next number of the counter at `counter` (1, 2, ...), never given twice.
pub(super) fn next_number(kv: &dyn Kv, tree: Tree, counter: &[u8]) -> Result<u64, StoreError> {
    transaction(kv, |tx| {
        let n = tx
            .get(tree, counter)?
            .as_deref()
            .and_then(be_u64)
            .unwrap_or(0)
            + 1;
        tx.insert(tree, counter, &n.to_be_bytes())?;
        Ok(n)
    })
}

pub(super) fn read<T: Versioned>(
    kv: &dyn Kv,
    tree: Tree,
    id: u64,
) -> Result<Option<T>, StoreError> {
    match kv.get(tree, &key(T::PREFIX, &[id]))? {
        None => Ok(None),
        Some(b) => T::decode(&b).map(Some).map_err(StoreError::Corrupt),
    }
}

/// Every record, oldest first.
pub(super) fn all<T: Versioned>(kv: &dyn Kv, tree: Tree) -> Result<Vec<T>, StoreError> {
    kv.scan(tree, &[T::PREFIX], usize::MAX)?
        .iter()
        .map(|(_, v)| T::decode(v).map_err(StoreError::Corrupt))
        .collect()
}

/// The record a game was made for, if any.
pub(super) fn owner_of_game(kv: &dyn Kv, tree: Tree, game: u64) -> Result<Option<u64>, StoreError> {
    Ok(kv.get(tree, &key(b'G', &[game]))?.map(|v| tail_u64(&v)))
}

/// Writes `rec` if the stored one is still at `expected` (`None`: there is
/// none yet), with its games' index keys and the outbox entries of what the
/// change announces. The record written carries `expected` plus one. Returns
/// the entries' ids.
pub(super) fn put<T: Versioned>(
    kv: &dyn Kv,
    tree: Tree,
    rec: &T,
    expected: Option<u64>,
    outbox: &[NewEntry],
) -> Result<Vec<u64>, StoreError> {
    let rkey = key(T::PREFIX, &[rec.id()]);
    transaction(kv, |tx| {
        tx.expect(outbox.len(), false);
        let stored = match tx.get(tree, &rkey)? {
            None => None,
            Some(b) => Some(T::decode(&b).map_err(|e| TxError::Abort(StoreError::Corrupt(e)))?),
        };
        if stored.as_ref().map(T::version) != expected {
            return Err(TxError::Abort(StoreError::Stale));
        }
        let mut record = rec.clone();
        record.set_version(expected.map_or(0, |v| v + 1));
        for game in record.games() {
            tx.insert(tree, &key(b'G', &[game]), &rec.id().to_be_bytes())?;
        }
        tx.insert(tree, &rkey, &encode(&record))?;
        outbox.iter().map(|e| put_entry(tx, e)).collect()
    })
}
