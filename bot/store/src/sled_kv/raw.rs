//! sled's side of the raw reads and writes of the operator's tools (see
//! `raw.rs`): its trees by name, including one a later Tokar made, walked
//! with its own iterator, and a restore's writes in batches.

use super::{sled_range, Opened, SledKv};
use crate::kv::{Tree, MAIN, NAMED};
use crate::{RawItem, StoreError};

impl Opened {
    /// The tree named `name` (`""`: the default one), opened if this build
    /// does not keep it open. A name sled keeps for itself is refused.
    pub(super) fn named(&self, name: &str) -> Result<sled::Tree, StoreError> {
        if name == MAIN {
            return Ok(self.trees[0].clone());
        }
        if let Some(i) = NAMED.iter().position(|n: &Tree| *n == name) {
            return Ok(self.trees[1 + i].clone());
        }
        if !crate::trees::valid_name(&self.db, name) {
            return Err(StoreError::Database(format!("no keyspace named {name:?}")));
        }
        Ok(self.db.open_tree(name)?)
    }
}

impl SledKv {
    /// [`crate::kv::Kv::walk`] on sled's own iterator, which stops at its
    /// first error: on damaged files sled may return the same error again
    /// and again.
    pub(super) fn raw_walk(
        &self,
        tree: &str,
        start: &[u8],
        end: Option<&[u8]>,
        each: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    ) -> Result<(), StoreError> {
        self.read(|o| {
            for item in sled_range(&o.named(tree)?, start, end) {
                let (k, v) = item?;
                if !each(&k, &v) {
                    break;
                }
            }
            Ok(())
        })
    }

    /// [`crate::kv::Kv::load`]: the items of one call in one batch, not
    /// flushed (a restore builds a database nobody reads, and flushes once
    /// at its end with [`crate::kv::Kv::sync`]).
    pub(super) fn raw_load(&self, tree: &str, items: &[RawItem]) -> Result<(), StoreError> {
        let o = self.opened()?;
        let mut batch = sled::Batch::default();
        for (k, v) in items {
            batch.insert(&k[..], &v[..]);
        }
        o.named(tree)?.apply_batch(batch)?;
        Ok(())
    }
}
