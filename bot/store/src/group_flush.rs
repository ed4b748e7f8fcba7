//! Group commit for sled: writes that finish while a flush is on its way to
//! the disk share the next flush instead of each writing and syncing its own.
//!
//! Every transaction must be on disk before it returns ([`super::kv`]). sled's
//! `flush` seals the log buffer it finds, writes it and syncs it; called by
//! several threads at once, each call seals and syncs a buffer of its own. Here
//! one flush runs at a time: a write that finishes while one runs waits for it
//! and then starts the next, which carries every write finished meanwhile. A
//! write returns only after a flush that *started after it* ended well, so the
//! guarantee is the one a flush of its own gives.
//!
//! sled has no such option itself, and the rule is a dozen lines of Tokar's
//! own bookkeeping over sled's `flush`, so it is written here.

use std::sync::{Condvar, Mutex, MutexGuard};

/// The flushes started and ended so far, numbered from 1 in the order they
/// started (one runs at a time, so they end in that order too).
#[derive(Default)]
struct Flushes {
    started: u64,
    ended: u64,
    /// The last flush that ended well.
    last_ok: u64,
    running: bool,
}

/// Shares flushes between the threads that write to one sled database.
#[derive(Default)]
pub struct GroupFlush {
    flushes: Mutex<Flushes>,
    ended: Condvar,
}

impl GroupFlush {
    /// Returns once everything written before the call is on disk. `flush`
    /// is the database's own flush; it runs on this thread or on another
    /// writer's. When the flush that covered this call failed, this thread
    /// flushes once itself, so that the error it returns is its own.
    pub fn flush<E>(&self, flush: impl Fn() -> Result<(), E>) -> Result<(), E> {
        let mut flushes = self.lock();
        // A flush already running may have sealed its buffer before this
        // write: only the next one to start is sure to carry it.
        let needed = flushes.started + 1;
        loop {
            if flushes.ended >= needed {
                if flushes.last_ok >= needed {
                    return Ok(());
                }
                drop(flushes);
                return flush();
            }
            if flushes.running {
                flushes = self.ended.wait(flushes).unwrap_or_else(|e| e.into_inner());
                continue;
            }
            flushes.running = true;
            flushes.started += 1;
            let number = flushes.started;
            drop(flushes);
            let result = flush();
            flushes = self.lock();
            flushes.running = false;
            flushes.ended = number;
            if result.is_ok() {
                flushes.last_ok = number;
            }
            self.ended.notify_all();
            // This thread's own flush: its result is this write's.
            return result;
        }
    }

    fn lock(&self) -> MutexGuard<'_, Flushes> {
        // The bookkeeping stays whole even if a flush panicked mid-way: the
        // counters are only changed under the lock, never across the flush.
        self.flushes.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::{Arc, Barrier};

    /// A stand-in for the disk: "written" counts writes, a flush copies it to
    /// "durable" (slowly, so that other writers arrive while it runs); with
    /// `fail_every` n, every n-th flush fails instead.
    struct Disk {
        written: AtomicU64,
        durable: AtomicU64,
        flushes: AtomicU64,
        failed: AtomicU64,
        fail_every: u64,
    }

    impl Disk {
        fn flush(&self) -> Result<(), String> {
            let upto = self.written.load(Ordering::SeqCst);
            let n = self.flushes.fetch_add(1, Ordering::SeqCst) + 1;
            std::thread::sleep(std::time::Duration::from_millis(2));
            if self.fail_every > 0 && n.is_multiple_of(self.fail_every) {
                self.failed.fetch_add(1, Ordering::SeqCst);
                return Err("disk full".into());
            }
            self.durable.fetch_max(upto, Ordering::SeqCst);
            Ok(())
        }
    }

    fn disk(fail_every: u64) -> Arc<Disk> {
        Arc::new(Disk {
            written: AtomicU64::new(0),
            durable: AtomicU64::new(0),
            flushes: AtomicU64::new(0),
            failed: AtomicU64::new(0),
            fail_every,
        })
    }

    #[test]
    fn every_write_is_durable_when_its_flush_returns_and_writers_share_flushes() {
        let disk = disk(0);
        let group = Arc::new(GroupFlush::default());
        let threads = 8;
        let rounds = 40;
        let start = Arc::new(Barrier::new(threads));
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let (disk, group, start) = (disk.clone(), group.clone(), start.clone());
                std::thread::spawn(move || {
                    start.wait();
                    for _ in 0..rounds {
                        let mine = disk.written.fetch_add(1, Ordering::SeqCst) + 1;
                        group.flush(|| disk.flush()).unwrap();
                        assert!(
                            disk.durable.load(Ordering::SeqCst) >= mine,
                            "write {mine} returned before a flush carried it"
                        );
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
        let writes = (threads * rounds) as u64;
        let flushes = disk.flushes.load(Ordering::SeqCst);
        assert!(
            flushes < writes,
            "{flushes} flushes for {writes} writes: none was shared"
        );
    }

    #[test]
    fn a_write_returns_well_only_once_durable_when_flushes_fail() {
        // Every third flush fails: a writer carried by a failed flush flushes
        // again itself, and returns well only if that one ended well.
        let disk = disk(3);
        let group = Arc::new(GroupFlush::default());
        let errors = Arc::new(AtomicU64::new(0));
        let threads = 6;
        let start = Arc::new(Barrier::new(threads));
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let (disk, group) = (disk.clone(), group.clone());
                let (start, errors) = (start.clone(), errors.clone());
                std::thread::spawn(move || {
                    start.wait();
                    for _ in 0..30 {
                        let mine = disk.written.fetch_add(1, Ordering::SeqCst) + 1;
                        match group.flush(|| disk.flush()) {
                            Ok(()) => assert!(disk.durable.load(Ordering::SeqCst) >= mine),
                            Err(_) => {
                                errors.fetch_add(1, Ordering::SeqCst);
                            }
                        }
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
        let failed = disk.failed.load(Ordering::SeqCst);
        assert!(failed > 0, "no flush failed: the test tried nothing");
        // Each failed flush is told to the one writer that ran it, and only to it.
        assert_eq!(errors.load(Ordering::SeqCst), failed);
    }
}
