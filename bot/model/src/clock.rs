//! Time for the table: the system clock, or a virtual clock kept in the data
//! folder so that scripted sessions (and tests) can jump days ahead and the
//! jump survives a restart.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch.
pub type Millis = u64;

pub trait Clock: Send + Sync + 'static {
    fn now(&self) -> Millis;
}

/// The machine's clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Millis {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis() as Millis)
            .unwrap_or(0)
    }
}

/// A clock that only moves when told to; its time is written to a file so that
/// a restarted process continues where the last one stopped.
#[derive(Debug)]
pub struct VirtualClock {
    path: PathBuf,
    now: Mutex<Millis>,
}

/// Where a fresh virtual clock starts: 2026-01-01 00:00 UTC, so that runs are reproducible.
pub const VIRTUAL_EPOCH: Millis = 1_767_225_600_000;

impl VirtualClock {
    /// Opens the clock file in `dir` (created at [`VIRTUAL_EPOCH`] when absent).
    pub fn open(dir: &Path) -> std::io::Result<VirtualClock> {
        let path = dir.join("virtual-clock");
        let now = match fs::read_to_string(&path) {
            Ok(text) => text.trim().parse().map_err(|_| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("{} does not hold a time", path.display()),
                )
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => VIRTUAL_EPOCH,
            Err(e) => return Err(e),
        };
        let clock = VirtualClock {
            path,
            now: Mutex::new(now),
        };
        clock.store(now)?;
        Ok(clock)
    }

    /// Moves the clock forward by `by` milliseconds and persists it (durably,
    /// through a renamed temporary file) before returning.
    pub fn advance(&self, by: Millis) -> std::io::Result<Millis> {
        let mut now = self.now.lock().unwrap_or_else(|e| e.into_inner());
        let next = now.saturating_add(by);
        self.store(next)?;
        *now = next;
        Ok(next)
    }

    fn store(&self, value: Millis) -> std::io::Result<()> {
        let tmp = self.path.with_extension("tmp");
        let mut f = fs::File::create(&tmp)?;
        writeln!(f, "{value}")?;
        f.sync_all()?;
        fs::rename(&tmp, &self.path)
    }
}

impl Clock for VirtualClock {
    fn now(&self) -> Millis {
        *self.now.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn virtual_time_survives_reopening() {
        let dir = std::env::temp_dir().join(format!("tokar-clock-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let c = VirtualClock::open(&dir).unwrap();
        assert_eq!(c.now(), VIRTUAL_EPOCH);
        c.advance(90_000).unwrap();
        drop(c);
        assert_eq!(
            VirtualClock::open(&dir).unwrap().now(),
            VIRTUAL_EPOCH + 90_000
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
