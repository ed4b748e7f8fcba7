//! The data folder is Tokar's alone: every seed, hand and game of the store
//! is in it, so others on the machine may not read it. The folder and the
//! folders in it are 0700, its files (the database, the marker, backups, the
//! control socket) 0600. A folder made by an older Tokar (0755, files 0644)
//! is tightened at start, with one line in the operator's log.

use std::io;
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::Path;

/// How deep the folder is walked (the database's own subfolders are one or
/// two levels down; nothing Tokar makes is deeper).
const DEPTH: usize = 4;

/// Creates `dir` (and missing parents) readable by its owner alone.
pub fn create_dir(dir: &Path) -> io::Result<()> {
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
}

/// Entries under `dir` (itself included) that others may read, each with
/// the mode it should have. Symbolic links are neither followed nor changed.
fn exposed(dir: &Path) -> Vec<(std::path::PathBuf, u32)> {
    let mut out = Vec::new();
    walk(dir, DEPTH, &mut out);
    out
}

fn walk(path: &Path, depth: usize, out: &mut Vec<(std::path::PathBuf, u32)>) {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return;
    };
    let ft = meta.file_type();
    if ft.is_symlink() {
        return;
    }
    let want = if ft.is_dir() { 0o700 } else { 0o600 };
    if meta.permissions().mode() & 0o077 != 0 {
        out.push((path.to_path_buf(), want));
    }
    if ft.is_dir() && depth > 0 {
        for entry in std::fs::read_dir(path).into_iter().flatten().flatten() {
            walk(&entry.path(), depth - 1, out);
        }
    }
}

/// Makes everything in `dir` its owner's alone; returns how many entries
/// were changed, and the first failure if any could not be.
pub fn tighten(dir: &Path) -> (usize, Option<String>) {
    let mut changed = 0;
    let mut failed = None;
    for (path, mode) in exposed(dir) {
        match std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)) {
            Ok(()) => changed += 1,
            Err(e) => {
                failed.get_or_insert_with(|| format!("{}: {e}", path.display()));
            }
        }
    }
    (changed, failed)
}

/// What `tokar check` says of a folder others can read (`None`: nobody else
/// can). Only the folder itself counts: closed (0700), it keeps everything in
/// it from others, whatever the files' own modes (sled makes new files with
/// the process's umask).
pub fn report(dir: &Path) -> Option<String> {
    let mode = std::fs::metadata(dir).ok()?.permissions().mode() & 0o777;
    if mode & 0o077 == 0 {
        return None;
    }
    let inside = exposed(dir).len().saturating_sub(1);
    Some(format!(
        "the data folder {} is open to other users of this machine (mode {mode:o}; {inside} entr{} \
         in it too): Tokar makes it private when it starts (folders 0700, files 0600), or run \
         chmod -R go-rwx on it",
        dir.display(),
        if inside == 1 { "y" } else { "ies" },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_open_folder_is_tightened_and_reported_until_then() {
        let dir = std::env::temp_dir().join(format!("tokar-private-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("db")).unwrap();
        std::fs::write(dir.join("db").join("conf"), b"x").unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(dir.join("db/conf"), std::fs::Permissions::from_mode(0o644))
            .unwrap();
        std::os::unix::fs::symlink("/etc/passwd", dir.join("link")).unwrap();
        assert!(report(&dir).is_some());
        let (changed, failed) = tighten(&dir);
        assert_eq!(failed, None);
        assert!(changed >= 3, "{changed}");
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&dir.join("db")), 0o700);
        assert_eq!(mode(&dir.join("db/conf")), 0o600);
        // The link's target is not touched.
        assert_ne!(mode(Path::new("/etc/passwd")), 0o600);
        assert_eq!(report(&dir), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
