//! The whole store read for a backup, each part in a state that agrees:
//! on sled one transaction per game (its record, then its log entries) and
//! per outbox entry (with its pictures), while the table goes on writing;
//! on PostgreSQL one snapshot of the whole database
//! ([`crate::postgres::Snapshot`]). Both give the same items in the same
//! order, so a backup's format does not depend on the database it was taken
//! from. The backup's file format is the binary's (`backup/`); what is read,
//! and in which groups, is the store's.

use crate::kv::{transaction, Kv, Tree, MAIN};
use crate::postgres::Snapshot;
use crate::raw::{Key, Span};
use crate::{is_index_key, key, RawItem, Store, StoreError, IDENTITY, NEXT_GAME};

/// A store read for a backup. `E` is the caller's error, which its callbacks
/// return and which ends the read.
pub trait Source<E> {
    /// The store's identity.
    fn identity(&mut self) -> Result<u64, StoreError>;
    /// The next game number.
    fn next_game(&mut self) -> Result<u64, StoreError>;
    /// Every game, in number order: its number, and its record then its log
    /// (in sequence order until the first entry missing).
    fn games(&mut self, each: &mut dyn FnMut(u64, Vec<RawItem>) -> Result<(), E>) -> Result<(), E>;
    /// Every other key of the main keyspace but the derived indexes, in key
    /// order: an outbox entry with its pictures, any other key alone.
    fn keys(&mut self, each: &mut dyn FnMut(Vec<RawItem>) -> Result<(), E>) -> Result<(), E>;
    /// Every named keyspace, in name order, with its keys.
    fn trees(&mut self) -> Result<Vec<(String, Vec<RawItem>)>, StoreError>;
}

impl Store {
    /// Runs `read` on the store as a backup reads it (see the module).
    pub fn export<T, E: From<StoreError>>(
        &self,
        read: impl FnOnce(&mut dyn Source<E>) -> Result<T, E>,
    ) -> Result<T, E> {
        let Some(pg) = self.kv().postgres() else {
            return read(&mut PerItem(self.kv()));
        };
        let mut read = Some(read);
        let mut out = None;
        pg.snapshot(|snap| {
            if let Some(read) = read.take() {
                out = Some(read(&mut Postgres(snap)));
            }
            Ok(())
        })?;
        out.unwrap_or_else(|| Err(StoreError::Corrupt("no snapshot was read".into()).into()))
    }
}

/// Whether a main key is written by [`Source::keys`]: not a game's record or
/// log, not an entry's picture (it goes with its entry), not an index.
fn plain_key(k: &[u8]) -> bool {
    !matches!(
        Key::of(k),
        Key::Game(_) | Key::Log { .. } | Key::Picture { .. }
    ) && !is_index_key(k)
}

/// How many pictures an outbox entry names.
fn pictures(entry: &[u8]) -> u64 {
    tokar_model::outbox::decode_entry(entry).map_or(0, |e| e.images.len() as u64)
}

/// A stored number, or `default` when absent or too short.
fn number_or(v: Option<Vec<u8>>, default: u64) -> u64 {
    v.as_deref().and_then(crate::raw::number).unwrap_or(default)
}

/// Keys read at a time: a backup holds one page in memory.
const PAGE: usize = 1000;

/// Any database without snapshots (sled): each game, and each outbox entry
/// with its pictures, in a transaction of its own.
struct PerItem<'a>(&'a dyn Kv);

impl PerItem<'_> {
    /// One game (record and log) as one consistent state.
    fn game(&self, id: u64) -> Result<Vec<RawItem>, StoreError> {
        let gk = key(b'g', &[id]);
        transaction(self.0, |tx| {
            let mut items = Vec::new();
            let Some(rec) = tx.get(MAIN, &gk)? else {
                return Ok(items);
            };
            items.push((gk.clone(), rec));
            for seq in 0u64.. {
                let k = key(b'l', &[id, seq]);
                match tx.get(MAIN, &k)? {
                    Some(v) => items.push((k, v)),
                    None => break,
                }
            }
            Ok(items)
        })
    }

    /// One outbox entry with its pictures as one consistent state.
    fn entry(&self, id: u64) -> Result<Vec<RawItem>, StoreError> {
        let ek = key(b'o', &[id]);
        transaction(self.0, |tx| {
            let mut items = Vec::new();
            let Some(v) = tx.get(MAIN, &ek)? else {
                return Ok(items);
            };
            let n = pictures(&v);
            items.push((ek.clone(), v));
            for n in 0..n {
                let k = key(b'p', &[id, n]);
                if let Some(png) = tx.get(MAIN, &k)? {
                    items.push((k, png));
                }
            }
            Ok(items)
        })
    }
}

impl<E: From<StoreError>> Source<E> for PerItem<'_> {
    fn identity(&mut self) -> Result<u64, StoreError> {
        Ok(number_or(self.0.get(MAIN, IDENTITY)?, 0))
    }

    fn next_game(&mut self) -> Result<u64, StoreError> {
        Ok(number_or(self.0.get(MAIN, NEXT_GAME)?, 1))
    }

    fn games(&mut self, each: &mut dyn FnMut(u64, Vec<RawItem>) -> Result<(), E>) -> Result<(), E> {
        for k in Span::games().keys(self.0)? {
            let Key::Game(id) = Key::of(&k) else {
                continue;
            };
            let items = self.game(id)?;
            if !items.is_empty() {
                each(id, items)?; // else removed meanwhile
            }
        }
        Ok(())
    }

    fn keys(&mut self, each: &mut dyn FnMut(Vec<RawItem>) -> Result<(), E>) -> Result<(), E> {
        let mut from = Vec::new();
        loop {
            let page = self.0.range(MAIN, &from, None, PAGE)?;
            let full = page.len() == PAGE;
            let Some(last) = page.last().map(|(k, _)| k.clone()) else {
                return Ok(());
            };
            for (k, v) in page {
                if !plain_key(&k) {
                    continue;
                }
                let items = match Key::of(&k) {
                    Key::Entry(id) => self.entry(id)?,
                    _ => vec![(k, v)],
                };
                if !items.is_empty() {
                    each(items)?;
                }
            }
            if !full {
                return Ok(());
            }
            from = last;
            from.push(0);
        }
    }

    fn trees(&mut self) -> Result<Vec<(String, Vec<RawItem>)>, StoreError> {
        self.0
            .tree_names()?
            .into_iter()
            .map(|name| {
                let items = self.0.read_tree(&name)?;
                Ok((name, items))
            })
            .collect()
    }
}

/// PostgreSQL: every read in one snapshot.
struct Postgres<'a, 'b>(&'a Snapshot<'b>);

impl Postgres<'_, '_> {
    /// Calls `each` for every key and value of `tree` from `start` to `end`,
    /// a page at a time.
    fn pages<E: From<StoreError>>(
        &self,
        tree: Tree,
        start: &[u8],
        end: Option<&[u8]>,
        each: &mut dyn FnMut(RawItem) -> Result<(), E>,
    ) -> Result<(), E> {
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

impl<E: From<StoreError>> Source<E> for Postgres<'_, '_> {
    fn identity(&mut self) -> Result<u64, StoreError> {
        Ok(number_or(self.0.get(MAIN, IDENTITY)?, 0))
    }

    fn next_game(&mut self) -> Result<u64, StoreError> {
        Ok(number_or(self.0.get(MAIN, NEXT_GAME)?, 1))
    }

    fn games(&mut self, each: &mut dyn FnMut(u64, Vec<RawItem>) -> Result<(), E>) -> Result<(), E> {
        let snap = self.0;
        self.pages(MAIN, b"g", Some(b"h"), &mut |(k, v)| {
            let Key::Game(id) = Key::of(&k) else {
                return Ok(());
            };
            let prefix = key(b'l', &[id]);
            let mut items = vec![(k, v)];
            // In sequence order until the first one missing, as on sled.
            let end = crate::kv::prefix_end(&prefix);
            let log = snap.range(MAIN, &prefix, end.as_deref(), usize::MAX)?;
            for (seq, (lk, lv)) in log.into_iter().enumerate() {
                if lk[9..] != (seq as u64).to_be_bytes() {
                    break;
                }
                items.push((lk, lv));
            }
            each(id, items)
        })
    }

    fn keys(&mut self, each: &mut dyn FnMut(Vec<RawItem>) -> Result<(), E>) -> Result<(), E> {
        let snap = self.0;
        self.pages(MAIN, &[], None, &mut |(k, v)| {
            if !plain_key(&k) {
                return Ok(());
            }
            let mut items = Vec::new();
            if let Key::Entry(id) = Key::of(&k) {
                let n = pictures(&v);
                items.push((k, v));
                for n in 0..n {
                    let pk = key(b'p', &[id, n]);
                    if let Some(png) = snap.get(MAIN, &pk)? {
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
        let mut out = Vec::new();
        for name in crate::raw::known_names() {
            let tree = crate::kv::NAMED
                .into_iter()
                .find(|n| *n == name)
                .unwrap_or(MAIN);
            let items = self.0.range(tree, &[], None, usize::MAX)?;
            // sled lists a tree once it was opened, even empty; an empty
            // keyspace writes no line either way.
            out.push((name, items));
        }
        Ok(out)
    }
}
