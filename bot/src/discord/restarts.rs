//! Starts that did not reach the gateway's READY, remembered across restarts in the data
//! folder (`discord-starts.json`), and the growing wait they impose on the next start.
//!
//! Why: a supervisor restarts a failed Tokar (systemd every `RestartSec`), and each start that
//! gets as far as the gateway spends one IDENTIFY per shard of Discord's daily budget ("Clients
//! are limited to 1000 IDENTIFY calls to the websocket in a 24-hour period ... Upon hitting
//! this limit, all active sessions for the app will be terminated, the bot token will be reset",
//! developers/events/gateway.mdx), and each refused request counts towards the IP's ban
//! ("10,000 per 10 minutes ... 401, 403, or 429", developers/topics/rate-limits.mdx). A loop
//! of failing starts must slow down by itself, whatever supervises it.
//!
//! How: a start counts as failed from the moment it begins to ask Discord anything until it
//! reaches READY, so a start that dies by a crash or a SIGKILL counts too. Before it asks
//! anything, a start waits [`wait_after`] the failures recorded, less the time since the last
//! one began: 10 s after the first, doubling, at most 15 minutes. The first wait covers a
//! quick restart after a real outage; the cap bounds a day of failing starts to about 100
//! (86,400 s / 900 s), so even a process of several shards failing all day spends well under
//! half the 1,000 IDENTIFYs, and its refused requests (a handful a start) stay thousands of
//! times under the ban. A start that reaches READY clears the record: the next trouble starts
//! from 10 s again.
//!
//! The file is versioned (`format`); a file this version cannot read is replaced, since it
//! only ever delays a start.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tracing::warn;

/// The file's name in the data folder.
pub const FILE: &str = "discord-starts.json";

const FORMAT: u32 = 1;

/// The wait after the first failed start.
pub const FIRST_WAIT: Duration = Duration::from_secs(10);

/// The longest wait.
pub const MAX_WAIT: Duration = Duration::from_secs(15 * 60);

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Stored {
    format: u32,
    /// Starts in a row that did not reach READY.
    failures: u32,
    /// When the last of them began (ms since the Unix epoch).
    last_ms: u64,
}

/// The start record of one data folder.
pub struct Starts {
    path: PathBuf,
}

/// The wait before a start that follows `failures` failed ones.
pub fn wait_after(failures: u32) -> Duration {
    if failures == 0 {
        return Duration::ZERO;
    }
    let doublings = (failures - 1).min(20);
    FIRST_WAIT.saturating_mul(1u32 << doublings).min(MAX_WAIT)
}

impl Starts {
    pub fn new(data_dir: &Path) -> Starts {
        Starts {
            path: data_dir.join(FILE),
        }
    }

    fn read(&self) -> Stored {
        let Ok(bytes) = std::fs::read(&self.path) else {
            return Stored::default();
        };
        match serde_json::from_slice::<Stored>(&bytes) {
            Ok(s) if s.format == FORMAT => s,
            _ => {
                warn!(file = %self.path.display(), "start record not understood; starting afresh");
                Stored::default()
            }
        }
    }

    fn write(&self, s: Stored) -> Result<(), String> {
        let tmp = self.path.with_extension("json.tmp");
        let bytes = serde_json::to_vec(&s).map_err(|e| e.to_string())?;
        let result = (|| {
            use std::io::Write;
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(&bytes)?;
            f.sync_all()?;
            std::fs::rename(&tmp, &self.path)?;
            if let Some(dir) = self.path.parent() {
                std::fs::File::open(dir)?.sync_all()?;
            }
            Ok::<_, std::io::Error>(())
        })();
        result.map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }

    /// How long this start must wait, at `now_ms`, before it asks Discord anything: with the
    /// failed starts before it.
    pub fn pending_wait(&self, now_ms: u64) -> (Duration, u32) {
        let s = self.read();
        let since = Duration::from_millis(now_ms.saturating_sub(s.last_ms));
        (wait_after(s.failures).saturating_sub(since), s.failures)
    }

    /// Records this start as failed until [`Starts::reached_ready`] says otherwise. Durable
    /// when it returns: a start that is killed before READY has counted.
    pub fn begin(&self, now_ms: u64) -> Result<(), String> {
        let s = self.read();
        self.write(Stored {
            format: FORMAT,
            failures: s.failures.saturating_add(1),
            last_ms: now_ms,
        })
    }

    /// This start reached READY: the failures are forgotten.
    pub fn reached_ready(&self) -> Result<(), String> {
        self.write(Stored {
            format: FORMAT,
            failures: 0,
            last_ms: 0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tokar-starts-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn the_wait_doubles_from_ten_seconds_to_fifteen_minutes() {
        let secs: Vec<u64> = (0..10).map(|n| wait_after(n).as_secs()).collect();
        assert_eq!(secs, [0, 10, 20, 40, 80, 160, 320, 640, 900, 900]);
        assert_eq!(wait_after(u32::MAX), MAX_WAIT);
    }

    #[test]
    fn failed_starts_add_up_and_ready_clears_them() {
        let d = dir("add-up");
        let starts = Starts::new(&d);
        assert_eq!(starts.pending_wait(1_000), (Duration::ZERO, 0));
        starts.begin(1_000).unwrap();
        // Killed before READY: the next start, 4 s later, waits the rest of 10 s.
        let again = Starts::new(&d);
        assert_eq!(again.pending_wait(5_000), (Duration::from_secs(6), 1));
        again.begin(11_000).unwrap();
        assert_eq!(again.pending_wait(11_000), (Duration::from_secs(20), 2));
        assert_eq!(again.pending_wait(40_000), (Duration::ZERO, 2));
        again.reached_ready().unwrap();
        assert_eq!(again.pending_wait(40_000), (Duration::ZERO, 0));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_damaged_or_newer_record_only_starts_afresh() {
        let d = dir("damaged");
        let starts = Starts::new(&d);
        std::fs::write(d.join(FILE), b"{not json").unwrap();
        assert_eq!(starts.pending_wait(0), (Duration::ZERO, 0));
        std::fs::write(d.join(FILE), br#"{"format":2,"failures":9,"last_ms":0}"#).unwrap();
        assert_eq!(starts.pending_wait(0), (Duration::ZERO, 0));
        starts.begin(0).unwrap();
        assert_eq!(starts.pending_wait(0), (FIRST_WAIT, 1));
        let _ = std::fs::remove_dir_all(&d);
    }
}
