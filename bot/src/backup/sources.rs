//! Where a backup reads the store from, each in states that agree: sled
//! (per-game transactions, see the parent module) or PostgreSQL (one
//! snapshot of the whole database, [`crate::storage::postgres::Snapshot`]).
//! Both give the same lines in the same order, so a backup's format does not
//! depend on the database it was taken from.

use super::BackupError;
use crate::storage::kv::{prefix_end, Tree, NAMED};
use crate::storage::postgres::Snapshot;
use crate::storage::trees;
use crate::storage::{be_u64, game_key, is_index_key, log_prefix, RawItem, StoreError};
use sled::transaction::{ConflictableTransactionError, TransactionError};

/// One key's items as a backup writes them: a game (record and log), an
/// outbox entry with its pictures, or a single key.
pub type Each<'a> = dyn FnMut(Vec<RawItem>) -> Result<(), BackupError> + 'a;

/// A store read for a backup.
pub trait Source {
    /// The store's identity.
    fn identity(&mut self) -> Result<u64, StoreError>;
    /// The next game number.
    fn next_game(&mut self) -> Result<u64, StoreError>;
    /// Every game, in number order, each as its record then its log.
    fn games(&mut self, each: &mut Each<'_>) -> Result<(), BackupError>;
    /// Every other key of the main keyspace but the derived indexes, in key
    /// order; an outbox entry with its pictures.
    fn keys(&mut self, each: &mut Each<'_>) -> Result<(), BackupError>;
    /// Every named keyspace, in name order, with its keys.
    fn trees(&mut self) -> Result<Vec<(String, Vec<RawItem>)>, StoreError>;
}

/// Whether a main key is written by [`Source::keys`]: not a game's record or
/// log, not an entry's picture (it goes with its entry), not an index.
fn plain_key(k: &[u8]) -> bool {
    !matches!(
        (k.first(), k.len()),
        (Some(b'g'), 9) | (Some(b'l'), 17) | (Some(b'p'), 17)
    ) && !is_index_key(k)
}

/// How many pictures an outbox entry names.
fn pictures(entry: &[u8]) -> u64 {
    crate::outbox::decode_entry(entry).map_or(0, |e| e.images.len() as u64)
}

fn picture_key(id: u64, n: u64) -> Vec<u8> {
    let mut k = vec![b'p'];
    k.extend_from_slice(&id.to_be_bytes());
    k.extend_from_slice(&n.to_be_bytes());
    k
}

fn sled_tx<T>(r: Result<T, TransactionError<()>>) -> Result<T, StoreError> {
    match r {
        Ok(v) => Ok(v),
        Err(TransactionError::Storage(e)) => Err(e.into()),
        Err(TransactionError::Abort(())) => Err(StoreError::Corrupt("aborted read".into())),
    }
}

/// sled: each game, and each outbox entry with its pictures, in a
/// transaction of its own.
pub struct Sled<'a>(pub &'a sled::Db);

impl Sled<'_> {
    /// Reads one game (record and log) as one consistent state.
    fn game(&self, id: u64) -> Result<Vec<RawItem>, StoreError> {
        let gk = game_key(id);
        sled_tx(self.0.transaction(|tx| {
            let mut items = Vec::new();
            let Some(rec) = tx.get(&gk)? else {
                return Ok(items);
            };
            items.push((gk.clone(), rec.to_vec()));
            for seq in 0u64.. {
                let mut k = log_prefix(id);
                k.extend_from_slice(&seq.to_be_bytes());
                match tx.get(&k)? {
                    Some(v) => items.push((k, v.to_vec())),
                    None => break,
                }
            }
            Ok::<_, ConflictableTransactionError<()>>(items)
        }))
    }

    /// Reads one outbox entry with its pictures as one consistent state.
    fn entry(&self, key: &[u8]) -> Result<Vec<RawItem>, StoreError> {
        let id = be_u64(key).unwrap_or_default();
        sled_tx(self.0.transaction(|tx| {
            let mut items = Vec::new();
            let Some(v) = tx.get(key)? else {
                return Ok(items);
            };
            let n = pictures(&v);
            items.push((key.to_vec(), v.to_vec()));
            for n in 0..n {
                let k = picture_key(id, n);
                if let Some(png) = tx.get(&k)? {
                    items.push((k, png.to_vec()));
                }
            }
            Ok::<_, ConflictableTransactionError<()>>(items)
        }))
    }
}

impl Source for Sled<'_> {
    fn identity(&mut self) -> Result<u64, StoreError> {
        Ok(self
            .0
            .get(crate::storage::IDENTITY_KEY)?
            .and_then(|b| be_u64(&b))
            .unwrap_or(0))
    }

    fn next_game(&mut self) -> Result<u64, StoreError> {
        Ok(self
            .0
            .get(crate::storage::NEXT_GAME_KEY)?
            .and_then(|b| be_u64(&b))
            .unwrap_or(1))
    }

    fn games(&mut self, each: &mut Each<'_>) -> Result<(), BackupError> {
        for k in self.0.scan_prefix([b'g']).keys() {
            let k = k.map_err(StoreError::from)?;
            if k.len() != 9 {
                continue;
            }
            let items = self.game(be_u64(&k).unwrap_or_default())?;
            if !items.is_empty() {
                each(items)?; // else removed meanwhile
            }
        }
        Ok(())
    }

    fn keys(&mut self, each: &mut Each<'_>) -> Result<(), BackupError> {
        for kv in self.0.iter() {
            let (k, v) = kv.map_err(StoreError::from)?;
            if !plain_key(&k) {
                continue;
            }
            let items = match (k.first(), k.len()) {
                (Some(b'o'), 9) => self.entry(&k)?,
                _ => vec![(k.to_vec(), v.to_vec())],
            };
            if !items.is_empty() {
                each(items)?;
            }
        }
        Ok(())
    }

    fn trees(&mut self) -> Result<Vec<(String, Vec<RawItem>)>, StoreError> {
        trees::named(self.0)?
            .into_iter()
            .map(|(name, tree)| Ok((name, trees::read(&tree)?)))
            .collect()
    }
}

/// Keys read from PostgreSQL at a time: the backup holds one page in memory.
const PAGE: usize = 1000;

/// PostgreSQL: every read in one snapshot.
pub struct Postgres<'a, 'b>(pub &'a Snapshot<'b>);

impl Postgres<'_, '_> {
    /// Calls `each` for every key and value of `tree` from `start` to `end`,
    /// a page at a time.
    fn pages(
        &self,
        tree: Tree,
        start: &[u8],
        end: Option<&[u8]>,
        each: &mut dyn FnMut(RawItem) -> Result<(), BackupError>,
    ) -> Result<(), BackupError> {
        let mut from = start.to_vec();
        loop {
            let page = self.0.range(tree, &from, end, PAGE)?;
            let full = page.len() == PAGE;
            let Some(last) = page.last().map(|(k, _)| k.clone()) else {
                return Ok(());
            };
            for item in page {
                each(item)?;
            }
            if !full {
                return Ok(());
            }
            // The first key after `last`.
            from = last;
            from.push(0);
        }
    }
}

impl Source for Postgres<'_, '_> {
    fn identity(&mut self) -> Result<u64, StoreError> {
        Ok(self
            .0
            .get("", crate::storage::IDENTITY_KEY)?
            .and_then(|b| be_u64(&b))
            .unwrap_or(0))
    }

    fn next_game(&mut self) -> Result<u64, StoreError> {
        Ok(self
            .0
            .get("", crate::storage::NEXT_GAME_KEY)?
            .and_then(|b| be_u64(&b))
            .unwrap_or(1))
    }

    fn games(&mut self, each: &mut Each<'_>) -> Result<(), BackupError> {
        let snap = self.0;
        self.pages("", b"g", Some(b"h"), &mut |(k, v)| {
            if k.len() != 9 {
                return Ok(());
            }
            let id = be_u64(&k).unwrap_or_default();
            let prefix = log_prefix(id);
            let mut items = vec![(k, v)];
            // In sequence order until the first one missing, as sled's reader.
            let log = snap.range("", &prefix, prefix_end(&prefix).as_deref(), usize::MAX)?;
            for (seq, (lk, lv)) in log.into_iter().enumerate() {
                if lk[9..] != (seq as u64).to_be_bytes() {
                    break;
                }
                items.push((lk, lv));
            }
            each(items)
        })
    }

    fn keys(&mut self, each: &mut Each<'_>) -> Result<(), BackupError> {
        let snap = self.0;
        self.pages("", &[], None, &mut |(k, v)| {
            if !plain_key(&k) {
                return Ok(());
            }
            let mut items = Vec::new();
            if k.first() == Some(&b'o') && k.len() == 9 {
                let id = be_u64(&k).unwrap_or_default();
                let n = pictures(&v);
                items.push((k, v));
                for n in 0..n {
                    let pk = picture_key(id, n);
                    if let Some(png) = snap.get("", &pk)? {
                        items.push((pk, png));
                    }
                }
            } else {
                items.push((k, v));
            }
            each(items)
        })
    }

    fn trees(&mut self) -> Result<Vec<(String, Vec<RawItem>)>, StoreError> {
        let mut names = NAMED.to_vec();
        names.sort_unstable();
        let mut out = Vec::new();
        for name in names {
            let items = self.0.range(name, &[], None, usize::MAX)?;
            // sled lists a tree once it was opened, even empty; an empty
            // keyspace writes no line either way.
            out.push((name.to_string(), items));
        }
        Ok(out)
    }
}
