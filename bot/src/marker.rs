//! `store.json`: what the data folder remembers about its store, outside the
//! sled database.
//!
//! sled creates a database wherever it is pointed. If `db/` is lost (a volume
//! not mounted, a wrong path, a deleted folder), opening it again would give
//! an empty store, and Tokar would number games from #1 again and tell every
//! player they have none. The marker beside `db/` says that a store lived
//! here, which one (its identity, key `store-id`) and how many games it had
//! numbered, so that [`crate::storage::Store::open_with`] can refuse such a
//! start instead.
//!
//! It is written when the store is created, refreshed whenever a game number
//! is drawn (after the number is flushed in sled, so the marker never counts
//! more games than the database holds), and after a restore. It is written
//! through a temporary file and a rename, so a crash leaves the old or the new
//! marker, never half of one.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The marker's file name in the data folder.
pub const FILE: &str = "store.json";

/// The format written today; older ones stay readable.
pub const FORMAT: u32 = 1;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marker {
    pub format: u32,
    /// The store's identity (`Store::identity`).
    pub identity: u64,
    /// How many game numbers the store had drawn (its next game number less one).
    pub games: u64,
    /// When the marker was last written (milliseconds since 1970).
    pub updated_at: u64,
}

pub fn path(data_dir: &Path) -> PathBuf {
    data_dir.join(FILE)
}

/// Reads the marker of `data_dir`: `None` when there is none (a new folder,
/// or one from before markers existed). A marker that cannot be read is an
/// error, never taken for an absent one.
pub fn read(data_dir: &Path) -> Result<Option<Marker>, String> {
    let p = path(data_dir);
    let bytes = match std::fs::read(&p) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", p.display())),
    };
    #[derive(Deserialize)]
    struct Head {
        format: u32,
    }
    let damaged = |e: serde_json::Error| format!("{} is damaged: {e}", p.display());
    match serde_json::from_slice::<Head>(&bytes)
        .map_err(damaged)?
        .format
    {
        1 => serde_json::from_slice(&bytes).map(Some).map_err(damaged),
        n => Err(format!(
            "{} has format {n}, newer than this build of Tokar reads ({FORMAT})",
            p.display()
        )),
    }
}

/// Writes the marker durably (temporary file, fsync, rename).
pub fn write(data_dir: &Path, identity: u64, games: u64) -> Result<(), String> {
    let marker = Marker {
        format: FORMAT,
        identity,
        games,
        updated_at: now_ms(),
    };
    let p = path(data_dir);
    let tmp = data_dir.join(format!("{FILE}.tmp"));
    let bytes = serde_json::to_vec_pretty(&marker).map_err(|e| e.to_string())?;
    let result = (|| {
        use std::io::Write;
        use std::os::unix::fs::OpenOptionsExt;
        // The bot's alone, as the rest of the data folder (`storage/private.rs`).
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(&tmp)?;
        f.write_all(&bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, &p)
    })();
    result.map_err(|e| format!("cannot write {}: {e}", p.display()))
}

pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or_default()
}

/// The refusal to start when the marker shows a store that the database does
/// not hold: one line saying what is wrong, then the ways on.
pub fn refusal(data_dir: &Path, marker: &Marker, found: &str) -> String {
    let d = data_dir.display();
    format!(
        "the data folder {d} held store {:016x} with {} game(s), but {found}; \
         Tokar will not start on a store that is not the one it had.\n\
         \x20 - If the data folder is wrong or a volume is not mounted, fix that and start again.\n\
         \x20 - To bring the store back from a backup (daily ones are in {d}/backups/), stop Tokar and run:\n\
         \x20     tokar restore FILE --data {d}\n\
         \x20 - To start with the database as it is now (an empty one if it is gone), on purpose:\n\
         \x20     set TOKAR_FRESH_STORE=1 for one start; {d}/{FILE} then records the new store.",
        marker.identity, marker.games,
    )
}
