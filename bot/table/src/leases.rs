//! The table's side of leases ([`tokar_store::Lease`]): with a store that
//! other processes share, a game's sweeps and the bot's moves, and each
//! outbox lane's delivery, run in the process that holds their lease. With a
//! store of its own (sled) a process holds every lease without asking.

use super::records::Records;
use std::collections::HashMap;
use std::sync::Arc;
use tokar_model::clock::Millis;
use tokar_store::Lease;
use tracing::warn;

/// How long a lease lasts before another process may take it over: longer
/// than a sweep of one game or the bot's thinking, short enough that a dead
/// process's games and channels move on within a couple of minutes.
pub(crate) const GAME_LEASE_MS: Millis = 2 * 60 * 1000;
/// A lane's lease: renewed by the delivery worker's passes (every half second
/// when idle) once half of it is gone.
pub(crate) const LANE_LEASE_MS: Millis = 30 * 1000;

/// The leases this process holds, and its name as their owner.
pub(crate) struct Leases {
    records: Arc<Records>,
    /// The store leases this process holds, and until when.
    held: std::sync::Mutex<HashMap<Lease, Millis>>,
    /// This process's own unpredictable number, its name as a lease's owner.
    owner: u64,
}

impl Leases {
    pub(crate) fn new(records: Arc<Records>, owner: u64) -> Leases {
        Leases {
            records,
            held: Default::default(),
            owner,
        }
    }

    /// Whether this process holds `lease` now (taking or renewing it when
    /// less than half of it is left). A store that fails says no: the work
    /// waits for the next pass rather than being done twice.
    pub(crate) async fn hold(&self, lease: Lease, ttl: Millis) -> bool {
        if !self.records.store().shared() {
            return true;
        }
        let now = self.records.now();
        let held = self
            .held
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&lease)
            .copied();
        if held.is_some_and(|until| until > now + ttl / 2) {
            return true;
        }
        let owner = self.owner;
        match self
            .records
            .blocking(move |s| s.take_lease(lease, owner, now, ttl))
            .await
        {
            Ok(true) => {
                self.remember_lease(lease, Some(now + ttl));
                true
            }
            Ok(false) => {
                self.remember_lease(lease, None);
                false
            }
            Err(e) => {
                warn!(?lease, error = %e, "cannot take a lease");
                false
            }
        }
    }

    /// Gives `lease` back (after a game's sweep or the bot's move), so that
    /// another process need not wait for it to run out.
    pub(crate) async fn release(&self, lease: Lease) {
        if !self.records.store().shared() {
            return;
        }
        self.remember_lease(lease, None);
        let owner = self.owner;
        if let Err(e) = self
            .records
            .blocking(move |s| s.drop_lease(lease, owner))
            .await
        {
            warn!(?lease, error = %e, "cannot give a lease back; it runs out by itself");
        }
    }

    fn remember_lease(&self, lease: Lease, until: Option<Millis>) {
        let mut leases = self.held.lock().unwrap_or_else(|e| e.into_inner());
        match until {
            Some(u) => leases.insert(lease, u),
            None => leases.remove(&lease),
        };
    }
}
