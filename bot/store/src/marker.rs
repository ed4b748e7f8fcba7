//! `store.json`: what the data folder remembers about its store, outside the
//! database.
//!
//! sled creates a database wherever it is pointed, and a PostgreSQL database
//! can be emptied, swapped or put back from an older dump. If the database is
//! lost (a volume not mounted, a wrong path, a deleted folder, an older copy
//! put back), opening it again would give an empty or an older store, and
//! Tokar would number games from #1 again, or forget acknowledged moves,
//! without a word. The marker beside the database says that a store lived
//! here, which one (its identity, key `store-id`), how many games it had
//! numbered and its generation (how many game writes it had stored, see
//! [`crate::kv::Kv::generation`]), so that
//! [`crate::Store::open_with`] can refuse such a start instead.
//!
//! The marker never claims more than the database holds: it is written from
//! values the database had already stored durably (after the write's flush or
//! commit returned). A database older than the marker (fewer games, a lower
//! generation) is therefore an older copy, never a false alarm. It is written
//! when the store is opened, after a restore, and refreshed while the store
//! runs at most once a second, off the commands' path (see
//! `storage/marker_keeper.rs`): a copy of the database older than the last
//! refresh is caught, and no command waits for the marker's own flush.
//!
//! It is written through a temporary file, fsync and a rename, so a crash
//! leaves the old or the new marker, never half of one.
//!
//! # Formats
//!
//! - 1: `{"format":1,"identity":ID,"games":N,"updated_at":MS}`.
//! - 2: format 1 plus `"generation":G` and `"database":TEXT` (where the store
//!   lives: `sled` or the PostgreSQL URL without its password). A format-1
//!   marker reads with no generation, which is then not compared.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The marker's file name in the data folder.
pub const FILE: &str = "store.json";

/// The format written today; older ones stay readable.
pub const FORMAT: u32 = 2;

/// What a marker records.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marker {
    pub format: u32,
    /// The store's identity (`Store::identity`).
    pub identity: u64,
    /// How many game numbers the store had drawn (its next game number less one).
    pub games: u64,
    /// The store's generation (format 2; `None` in a format-1 marker).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generation: Option<u64>,
    /// Where the store lived (format 2): `sled`, or the PostgreSQL database.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub database: Option<String>,
    /// When the marker was last written (milliseconds since 1970).
    pub updated_at: u64,
}

/// What the store holds, to be recorded in a marker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fields {
    pub identity: u64,
    pub games: u64,
    pub generation: u64,
    pub database: String,
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
        1 | 2 => serde_json::from_slice(&bytes).map(Some).map_err(damaged),
        n => Err(format!(
            "{} has format {n}, newer than this build of Tokar reads ({FORMAT})",
            p.display()
        )),
    }
}

/// Writes the marker durably (temporary file, fsync, rename).
pub fn write(data_dir: &Path, fields: &Fields) -> Result<(), String> {
    let marker = Marker {
        format: FORMAT,
        identity: fields.identity,
        games: fields.games,
        generation: Some(fields.generation),
        database: Some(fields.database.clone()),
        updated_at: now_ms(),
    };
    let p = path(data_dir);
    // A name of its own per writer: two stores of one process (PostgreSQL
    // lets them share a folder) never rename each other's half-written file.
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = data_dir.join(format!("{FILE}.{}-{n}.tmp", std::process::id()));
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
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(|e| format!("cannot write {}: {e}", p.display()))
}

pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or_default()
}

/// The ways on after a refusal to start, for the data folder `d`.
fn ways_on(d: &str) -> String {
    format!(
        "\x20 - If the data folder or TOKAR_DATABASE_URL is wrong, or a volume is not mounted, fix that and start again.\n\
         \x20 - To bring the store back from a backup (daily ones are in {d}/backups/), stop Tokar and run:\n\
         \x20     tokar restore FILE --data {d}\n\
         \x20 - To start with the database as it is now (an empty one if it is gone), on purpose:\n\
         \x20     set TOKAR_FRESH_STORE=1 for one start; {d}/{FILE} then records that store."
    )
}

/// The refusal to start when the marker shows a store that the database does
/// not hold: one line saying what is wrong, then the ways on.
pub fn refusal(data_dir: &Path, marker: &Marker, found: &str) -> String {
    let d = data_dir.display().to_string();
    let lived = marker
        .database
        .as_deref()
        .map(|db| format!(" (in {db})"))
        .unwrap_or_default();
    format!(
        "the data folder {d} held store {:016x}{lived} with {} game(s), but {found}; \
         Tokar will not start on a store that is not the one it had.\n{}",
        marker.identity,
        marker.games,
        ways_on(&d),
    )
}

/// The refusal to start when the folder has no marker but shows that a store
/// lived there (`seen`: what shows it; `found`: what the database is).
pub fn unmarked_refusal(data_dir: &Path, seen: &str, found: &str) -> String {
    let d = data_dir.display().to_string();
    format!(
        "the data folder {d} has no {FILE} but {seen}, so a store lived here, and {found}; \
         Tokar will not start on a store it cannot tell is the one it had.\n{}",
        ways_on(&d),
    )
}
