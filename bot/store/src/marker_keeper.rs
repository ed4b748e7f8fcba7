//! Keeps the data folder's marker (`store.json`, [`crate::marker`]) up to
//! date while the store runs, without a flush on any command's path.
//!
//! The store tells the keeper what it has durably stored (a game number
//! drawn, a generation reached) after the write returned; a thread of the
//! keeper writes the marker (temporary file, fsync, rename) at most once per
//! [`INTERVAL`], and once more when the last handle of the store is dropped.
//! A command therefore never waits for the marker's fsync, and the disk sees
//! at most one marker write a second however many commands run. The price:
//! a copy of the database taken less than a second before its last write is
//! not told apart from the store (the marker had not recorded that write
//! yet). Writing the marker in each command instead would double the fsyncs
//! of every command.
//!
//! Written by hand rather than with a crate: it is one thread, one mutex and
//! one condition variable, and what it writes is Tokar's own.

use crate::marker::{self, Fields};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;
use tracing::{error, warn};

/// The shortest time between two marker writes while the store runs.
pub const INTERVAL: Duration = Duration::from_secs(1);

struct State {
    /// What the store has stored (the newest values noted).
    now: Fields,
    /// What the marker on disk records.
    written: Fields,
    stop: bool,
}

struct Shared {
    dir: PathBuf,
    state: Mutex<State>,
    wake: Condvar,
}

/// The marker's keeper for one open store; dropping it writes the last values
/// and stops its thread.
pub struct Keeper {
    shared: Arc<Shared>,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Keeper {
    /// Writes the marker of `dir` with `fields` now (an error if it cannot
    /// be written), then keeps it up to date.
    pub fn start(dir: &Path, fields: Fields) -> Result<Keeper, String> {
        marker::write(dir, &fields)?;
        let shared = Arc::new(Shared {
            dir: dir.to_path_buf(),
            state: Mutex::new(State {
                now: fields.clone(),
                written: fields,
                stop: false,
            }),
            wake: Condvar::new(),
        });
        let thread = {
            let shared = shared.clone();
            std::thread::Builder::new()
                .name("tokar-marker".into())
                .spawn(move || run(&shared))
                .map_err(|e| format!("cannot start the marker's thread: {e}"))?
        };
        Ok(Keeper {
            shared,
            thread: Mutex::new(Some(thread)),
        })
    }

    /// Records that the store has durably stored `games` game numbers and
    /// reached `generation` (either may be `None`: unchanged). Never lowers
    /// a value: a late note of an earlier write changes nothing.
    pub fn note(&self, games: Option<u64>, generation: Option<u64>) {
        let mut s = self.shared.lock();
        if let Some(g) = games {
            s.now.games = s.now.games.max(g);
        }
        if let Some(g) = generation {
            s.now.generation = s.now.generation.max(g);
        }
        if s.now != s.written {
            self.shared.wake.notify_all();
        }
    }
}

/// The keeper's thread: writes when something new was noted, then rests
/// [`INTERVAL`] (or until told to stop), until stopped.
fn run(shared: &Shared) {
    loop {
        let (fields, stop) = {
            let mut s = shared.lock();
            while !s.stop && s.now == s.written {
                s = shared.wake.wait(s).unwrap_or_else(|e| e.into_inner());
            }
            (s.now.clone(), s.stop)
        };
        let changed = shared.lock().written != fields;
        if changed {
            match marker::write(&shared.dir, &fields) {
                Ok(()) => shared.lock().written = fields,
                Err(e) => error!(error = %e, "the store marker was not refreshed; trying again"),
            }
        }
        if stop {
            return;
        }
        let s = shared.lock();
        let _rest = shared
            .wake
            .wait_timeout_while(s, INTERVAL, |s| !s.stop)
            .unwrap_or_else(|e| e.into_inner());
    }
}

impl Drop for Keeper {
    fn drop(&mut self) {
        self.shared.lock().stop = true;
        self.shared.wake.notify_all();
        let thread = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(t) = thread {
            if t.join().is_err() {
                warn!("the marker's thread ended in a panic");
            }
        }
    }
}
