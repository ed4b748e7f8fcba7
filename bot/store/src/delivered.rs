//! Outbox entries this process delivered but could not remove from the store
//! (its disk full, PostgreSQL away). Left in the store, they would be read
//! and delivered again at the next pass; remembered here, they are left out
//! of every later read of the outbox ([`super::Store::outbox`]) and their
//! removal is tried again before it, until it succeeds. After a restart they
//! are delivered again, as any entry whose removal did not reach the disk:
//! only the store's word outlives the process.

use std::collections::BTreeSet;
use std::sync::Mutex;

#[derive(Default)]
pub(super) struct Delivered {
    ids: Mutex<BTreeSet<u64>>,
}

impl Delivered {
    /// `ids` were delivered; their removal failed.
    pub(super) fn hold(&self, ids: &[u64]) {
        self.lock().extend(ids.iter().copied());
    }

    /// Tries `remove` on the entries held, forgets them if it succeeds, and
    /// returns those still held.
    pub(super) fn retry<E>(&self, remove: impl FnOnce(&[u64]) -> Result<(), E>) -> BTreeSet<u64> {
        let held: Vec<u64> = self.lock().iter().copied().collect();
        if held.is_empty() || remove(&held).is_err() {
            return self.lock().clone();
        }
        let mut ids = self.lock();
        for id in &held {
            ids.remove(id);
        }
        ids.clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeSet<u64>> {
        self.ids.lock().unwrap_or_else(|e| e.into_inner())
    }
}
