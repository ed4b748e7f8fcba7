//! What a data folder holds besides the store: Tokar's own backups, the
//! control socket of a running bot, and the folders of restores under way.
//! The store reads them to tell a data folder that held a store from an
//! empty one; backups and restores write them.

use std::path::{Path, PathBuf};

/// The control socket's file name in the data folder.
pub const SOCKET: &str = "tokar.sock";

/// Where Tokar puts its own backups.
pub fn backups_dir(data: &Path) -> PathBuf {
    data.join("backups")
}

/// Tokar's own backups in `dir` (named `tokar-<UTC time>.backup`), oldest first.
pub fn list(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("tokar-") && n.ends_with(".backup"))
        })
        .collect();
    // The names hold the UTC time: their order is the time order.
    out.sort();
    out
}

/// The partial folders of restores in `dir` (a restore writes the store it restores into `restore-PID.partial` first).
pub fn partial_folders(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| partial_pid(p).is_some())
        .collect();
    out.sort();
    out
}

/// The process id in a partial folder's name.
pub fn partial_pid(p: &Path) -> Option<u32> {
    p.file_name()?
        .to_str()?
        .strip_prefix("restore-")?
        .strip_suffix(".partial")?
        .parse()
        .ok()
}
