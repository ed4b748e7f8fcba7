//! How backup files are created: never over anything already there, never
//! through a symbolic link, readable by their owner alone.
//!
//! A backup is written to `<target>.partial`, opened with O_CREAT|O_EXCL and
//! O_NOFOLLOW (mode 0600): a file or a link planted there makes the backup
//! fail instead of writing through it. The whole file is then linked to
//! `<target>`, which fails if `<target>` exists (a link never replaces a
//! name, unlike a rename), and `.partial` removed: the target is always a
//! whole backup, and never one that was somebody else's file.

use std::fs::File;
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// The file a backup to `to` is written into first.
pub fn partial(to: &Path) -> PathBuf {
    to.with_extension("partial")
}

/// Creates `path` for writing, new, not through a link, mode 0600.
pub fn create_exclusive(path: &Path) -> io::Result<File> {
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .mode(0o600)
        .open(path)
        .map_err(|e| match e.kind() {
            io::ErrorKind::AlreadyExists => io::Error::new(
                e.kind(),
                format!(
                    "{} already exists (a backup stopped midway, or not Tokar's): \
                     nothing was written; remove it or choose another name",
                    path.display()
                ),
            ),
            _ => e,
        })
}

/// Gives the synced file `partial` its final name `to`, which must not exist.
pub fn publish(partial: &Path, to: &Path) -> io::Result<()> {
    let linked = std::fs::hard_link(partial, to);
    // Whatever happened, the partial name goes: the file lives on as `to`,
    // or was refused.
    let _ = std::fs::remove_file(partial);
    linked.map_err(|e| match e.kind() {
        io::ErrorKind::AlreadyExists => io::Error::new(
            e.kind(),
            format!(
                "{} already exists: a backup never replaces a file; choose another name",
                to.display()
            ),
        ),
        _ => e,
    })?;
    if let Some(dir) = to.parent().filter(|d| !d.as_os_str().is_empty()) {
        // The new name is durable too.
        File::open(dir).and_then(|d| d.sync_all())?;
    }
    Ok(())
}

/// Copies the backup `from` to `to` the same way (for `tokar backup --to`
/// beside a running bot, which writes only into its own folder).
pub fn copy(from: &Path, to: &Path) -> io::Result<u64> {
    let part = partial(to);
    let mut out = create_exclusive(&part)?;
    let copied = std::fs::File::open(from)
        .and_then(|mut src| io::copy(&mut src, &mut out))
        .and_then(|n| out.sync_all().map(|()| n));
    drop(out);
    match copied {
        Ok(n) => publish(&part, to).map(|()| n),
        Err(e) => {
            let _ = std::fs::remove_file(&part);
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tokar-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_link_planted_at_the_partial_name_is_refused_and_not_followed() {
        let dir = scratch("link");
        let victim = dir.join("victim");
        std::fs::write(&victim, b"keep me").unwrap();
        let to = dir.join("b.backup");
        std::os::unix::fs::symlink(&victim, partial(&to)).unwrap();
        let e = create_exclusive(&partial(&to)).unwrap_err();
        assert!(e.to_string().contains("already exists"), "{e}");
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep me");
        // A dangling link too: O_EXCL does not create through it.
        std::fs::remove_file(partial(&to)).unwrap();
        let gone = dir.join("nowhere");
        std::os::unix::fs::symlink(&gone, partial(&to)).unwrap();
        assert!(create_exclusive(&partial(&to)).is_err());
        assert!(!gone.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_backup_never_replaces_a_file_and_is_private() {
        let dir = scratch("publish");
        let src = dir.join("src");
        std::fs::write(&src, b"backup").unwrap();
        let to = dir.join("b.backup");
        copy(&src, &to).unwrap();
        assert_eq!(std::fs::read(&to).unwrap(), b"backup");
        let mode = std::fs::metadata(&to).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert!(!partial(&to).exists());
        std::fs::write(&src, b"other").unwrap();
        let e = copy(&src, &to).unwrap_err();
        assert!(e.to_string().contains("never replaces"), "{e}");
        assert_eq!(std::fs::read(&to).unwrap(), b"backup");
        assert!(!partial(&to).exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
