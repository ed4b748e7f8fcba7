//! Leases: which process does a piece of shared work, when several processes
//! share one store (PostgreSQL).
//!
//! A lease is a key in the main keyspace, `q` then what it covers, holding
//! its owner (a number each process draws at start) and the time it runs out.
//! Taking one is a transaction: it succeeds when nobody holds the lease, when
//! it ran out, or when the taker already holds it (which renews it). So a
//! sweep of a game's schedule, the bot's thinking in a game, and the delivery
//! of a channel's messages run in one process at a time, and a process that
//! dies holding a lease has its work taken over once the lease runs out.
//!
//! Correctness never rests on a lease: a game's writes are compare-and-swapped
//! on its version, so two processes acting on one game cannot both commit.
//! Leases keep them from doing the work twice (two reminders computed, two
//! bots thinking, two deliveries of one channel racing each other's order).
//! One process on sled never needs them ([`Store::shared`]).
//!
//! | key | value |
//! | --- | --- |
//! | `q` `g` game | owner, until (8 bytes each): the game's sweeps and the bot's moves |
//! | `q` `c` channel | the same: delivery to one channel |
//! | `q` `d` user | the same: direct messages to one user |

use super::kv::{transaction, MAIN};
use super::{key, Store, StoreError};
use tokar_model::clock::Millis;

/// What a lease covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lease {
    /// A game's schedule sweeps and the bot's moves in it.
    Game(u64),
    /// The delivery of one outbox lane: `(direct, id)`, as
    /// [`tokar_model::outbox::OutboxEntry::lane`] gives it.
    Lane(bool, u64),
}

impl Lease {
    fn key(&self) -> Vec<u8> {
        let (kind, id) = match *self {
            Lease::Game(id) => (b'g', id),
            Lease::Lane(false, id) => (b'c', id),
            Lease::Lane(true, id) => (b'd', id),
        };
        let mut k = vec![b'q'];
        k.extend_from_slice(&key(kind, &[id]));
        k
    }
}

fn holder(bytes: &[u8]) -> Option<(u64, Millis)> {
    let owner = u64::from_be_bytes(bytes.get(..8)?.try_into().ok()?);
    let until = u64::from_be_bytes(bytes.get(8..16)?.try_into().ok()?);
    Some((owner, until))
}

impl Store {
    /// Whether other processes may use this store at the same time (then the
    /// work they share is leased).
    pub fn shared(&self) -> bool {
        self.kv().shared()
    }

    /// Takes (or renews) `lease` for `owner` until `now + ttl`, unless another
    /// owner holds it and it has not run out. True when `owner` holds it now.
    /// A lease whose bytes cannot be read is taken over: it only ever guards
    /// work, never data.
    pub fn take_lease(
        &self,
        lease: Lease,
        owner: u64,
        now: Millis,
        ttl: Millis,
    ) -> Result<bool, StoreError> {
        let k = lease.key();
        let mut value = owner.to_be_bytes().to_vec();
        value.extend_from_slice(&now.saturating_add(ttl).to_be_bytes());
        transaction(self.kv(), |tx| {
            if let Some((other, until)) = tx.get(MAIN, &k)?.as_deref().and_then(holder) {
                if other != owner && until > now {
                    return Ok(false);
                }
            }
            tx.insert(MAIN, &k, &value)?;
            Ok(true)
        })
    }

    /// Gives `lease` back if `owner` holds it, so another process need not
    /// wait for it to run out.
    pub fn drop_lease(&self, lease: Lease, owner: u64) -> Result<(), StoreError> {
        let k = lease.key();
        transaction(self.kv(), |tx| {
            if tx
                .get(MAIN, &k)?
                .as_deref()
                .and_then(holder)
                .is_some_and(|(o, _)| o == owner)
            {
                tx.remove(MAIN, &k)?;
            }
            Ok(())
        })
    }

    /// Who holds `lease` and until when (`None`: nobody ever took it, or it
    /// was given back).
    pub fn lease_holder(&self, lease: Lease) -> Result<Option<(u64, Millis)>, StoreError> {
        Ok(self
            .kv()
            .get(MAIN, &lease.key())?
            .as_deref()
            .and_then(holder))
    }
}
