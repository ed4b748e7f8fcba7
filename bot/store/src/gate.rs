//! The visibility gate of one opened sled database: a read returns only what
//! is on disk, so nothing read can be shown to anyone and then lost.
//!
//! sled applies a transaction in memory first and makes it durable with a
//! later flush ([`super::group_flush`] shares that flush between writers).
//! Between the two, any reader sees the change. If the flush then fails (the
//! disk is full), the writer is told "nothing changed", but a reader may
//! already have announced it (the outbox worker delivering its entries, a
//! command answering from the new record), and after a restart it is gone.
//!
//! So every write takes a number before it applies anything, and is
//! *outstanding* until a flush that started after it applied ended well (or
//! it wrote nothing). A read notes the last number taken once it has read,
//! and returns only when no write up to that number is outstanding: every
//! write it may have seen is durable. If a flush fails while a write the
//! read may have seen is outstanding, the read fails too, and the opened
//! database is given up (see `sled_kv.rs`): what it holds in memory is no
//! longer what is on disk.
//!
//! The bookkeeping is Tokar's own (a few sets under one lock): sled has no
//! notion of reads that wait for durability.

use std::collections::BTreeSet;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long a read waits for the flush of writes it may have seen before it
/// gives up (a flush takes milliseconds; this only catches a hang).
const SETTLE_LIMIT: Duration = Duration::from_secs(30);

#[derive(Default)]
struct State {
    /// The last number taken by a write.
    last: u64,
    /// Writes applying their changes in memory.
    applying: BTreeSet<u64>,
    /// Writes applied in memory and not yet known to be on disk.
    unflushed: BTreeSet<u64>,
    /// A flush failed: the smallest number that was outstanding then. Every
    /// read that may have seen it fails from then on.
    lost_from: Option<u64>,
}

impl State {
    fn outstanding_upto(&self, n: u64) -> bool {
        self.applying.first().is_some_and(|&a| a <= n)
            || self.unflushed.first().is_some_and(|&u| u <= n)
    }
}

/// Why a read or write of a gated database cannot go on.
#[derive(Debug, PartialEq, Eq)]
pub enum Closed {
    /// A flush failed after changes the caller may have seen were applied.
    Lost,
    /// The writes it waited for were neither flushed nor failed in time.
    Hung,
}

#[derive(Default)]
pub struct Gate {
    state: Mutex<State>,
    changed: Condvar,
}

/// A write's place in the gate: taken before it applies anything.
pub struct Ticket(u64);

impl Gate {
    fn lock(&self) -> MutexGuard<'_, State> {
        // The sets are only changed under the lock, never across a panic point.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A write starts: numbered before any of its changes can be read.
    pub fn begin(&self) -> Ticket {
        let mut s = self.lock();
        s.last += 1;
        let n = s.last;
        s.applying.insert(n);
        Ticket(n)
    }

    /// The write's changes are in memory (`wrote`), or it wrote nothing.
    pub fn applied(&self, t: &Ticket, wrote: bool) {
        let mut s = self.lock();
        s.applying.remove(&t.0);
        if wrote {
            s.unflushed.insert(t.0);
        }
        drop(s);
        self.changed.notify_all();
    }

    /// The writes a flush starting now carries: those applied so far.
    pub fn flush_starts(&self) -> Vec<u64> {
        self.lock().unflushed.iter().copied().collect()
    }

    /// A flush that carried `carried` ended well.
    pub fn flushed(&self, carried: &[u64]) {
        let mut s = self.lock();
        for n in carried {
            s.unflushed.remove(n);
        }
        drop(s);
        self.changed.notify_all();
    }

    /// The write `t` failed to reach the disk (its flush, or sled while
    /// applying it): it and everything outstanding are lost, and so is every
    /// read that may have seen them.
    pub fn failed(&self, t: &Ticket) {
        let mut s = self.lock();
        let first = [s.applying.first(), s.unflushed.first(), Some(&t.0)]
            .into_iter()
            .flatten()
            .min()
            .copied()
            .unwrap_or(t.0);
        s.lost_from = Some(s.lost_from.map_or(first, |l| l.min(first)));
        drop(s);
        self.changed.notify_all();
    }

    /// Whether any write is outstanding (a read now would wait).
    pub fn busy(&self) -> bool {
        let s = self.lock();
        !s.applying.is_empty() || !s.unflushed.is_empty() || s.lost_from.is_some()
    }

    /// Called after a read: returns once every write the read may have seen
    /// is on disk, or fails if one of them was lost.
    pub fn settle(&self) -> Result<(), Closed> {
        let mut s = self.lock();
        let seen = s.last;
        let deadline = Instant::now() + SETTLE_LIMIT;
        loop {
            if s.lost_from.is_some_and(|l| l <= seen) {
                return Err(Closed::Lost);
            }
            if !s.outstanding_upto(seen) {
                return Ok(());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Closed::Hung);
            }
            s = self
                .changed
                .wait_timeout(s, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_read_waits_for_the_flush_of_what_it_may_have_seen() {
        let gate = Arc::new(Gate::default());
        let t = gate.begin();
        gate.applied(&t, true);
        let reader = {
            let gate = gate.clone();
            std::thread::spawn(move || gate.settle())
        };
        std::thread::sleep(Duration::from_millis(20));
        assert!(!reader.is_finished(), "the read returned before the flush");
        let carried = gate.flush_starts();
        gate.flushed(&carried);
        assert_eq!(reader.join().unwrap(), Ok(()));
    }

    #[test]
    fn a_read_that_may_have_seen_a_lost_write_fails() {
        let gate = Gate::default();
        let a = gate.begin();
        gate.applied(&a, true);
        let carried = gate.flush_starts();
        gate.flushed(&carried);
        // Read before the next write: settles at once.
        assert_eq!(gate.settle(), Ok(()));
        let b = gate.begin();
        gate.applied(&b, true);
        gate.failed(&b);
        assert_eq!(gate.settle(), Err(Closed::Lost));
    }

    #[test]
    fn a_write_applied_after_a_flush_started_is_not_carried_by_it() {
        let gate = Gate::default();
        let a = gate.begin();
        gate.applied(&a, true);
        let carried = gate.flush_starts();
        let b = gate.begin();
        gate.applied(&b, true);
        gate.flushed(&carried);
        assert!(gate.busy(), "write b is still outstanding");
        let nothing = gate.begin();
        gate.applied(&nothing, false);
        let carried = gate.flush_starts();
        assert_eq!(carried, vec![2]);
        gate.flushed(&carried);
        assert!(!gate.busy());
    }
}
