//! Restores are all or nothing (issue #32): a restore stopped by a full disk
//! leaves the data folder exactly as it was, and it still opens; what an
//! interrupted restore left is cleaned by the next one, or named when its
//! process still runs.
//!
//! The full disk is a small tmpfs the test mounts (it runs as root, as CI
//! does); without the right to mount, the test fails saying so.

mod common;
#[path = "common/many_games.rs"]
mod many_games;

use common::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tokar_bot::backup::restore;
use tokar_bot::storage::{Store, StoreSettings};

/// A backup of a store of `games` games (copies of one played game), and the
/// store's folder.
async fn backup_of(name: &str, games: u64) -> (PathBuf, PathBuf) {
    let e = env(name).await;
    let id = e.start("alice", "bob").await;
    for _ in 0..8 {
        e.play_first(id, &["alice", "bob"]).await;
    }
    let dir = e.dir.clone();
    drop(e);
    let store = Store::open(&dir).unwrap();
    many_games::copies(&store, id, id + 1, games - 1);
    let file = dir.with_file_name(format!("tokar-{name}.backup"));
    // A backup never replaces a file: the last run's goes first.
    let _ = std::fs::remove_file(&file);
    tokar_bot::backup::write(&store, &file).unwrap();
    (dir, file)
}

/// Every file under `dir` (relative path) with its bytes; folders as `None`.
fn contents(dir: &Path) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Option<Vec<u8>>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let e = e.unwrap();
            let rel = e.path().strip_prefix(root).unwrap().to_path_buf();
            if e.file_type().unwrap().is_dir() {
                out.insert(rel, None);
                walk(root, &e.path(), out);
            } else {
                out.insert(rel, Some(std::fs::read(e.path()).unwrap()));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// A tmpfs of `size` mounted at a folder of the test's; unmounted when dropped.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(name: &str, size: &str) -> Tmpfs {
        let at = fresh_dir(name);
        let out = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size},mode=0700")])
            .arg("tokar-test")
            .arg(&at)
            .output()
            .expect("run mount");
        assert!(
            out.status.success(),
            "this test mounts a small tmpfs to fill it up, which needs root (CI runs as root): \
             mount -t tmpfs failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
        Tmpfs(at)
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
    }
}

#[tokio::test]
async fn a_restore_stopped_by_a_full_disk_leaves_the_folder_as_it_was() {
    let (_, file) = backup_of("restore-full-source", 400).await;
    let disk = Tmpfs::mount("restore-full-disk", "3m");
    let target = disk.0.join("data");
    // The folder as a first start leaves it: an unused store and its marker.
    drop(Store::open(&target).unwrap());
    let identity = Store::open_existing(&target, &StoreSettings::default())
        .unwrap()
        .identity()
        .unwrap();
    let before = contents(&target);

    let e = restore::restore_all(&file, &target).unwrap_err();
    eprintln!("refused: {e}");
    assert!(e.contains("No space left"), "the disk filled up: {e}");
    assert_eq!(contents(&target), before, "the folder changed: {e}");
    let store = Store::open(&target).unwrap();
    assert_eq!(store.identity().unwrap(), identity);
    assert!(store.game(1).unwrap().is_none());
}

#[tokio::test]
async fn an_interrupted_restore_is_cleaned_by_the_next_and_a_running_one_is_named() {
    let (source, file) = backup_of("restore-leftovers-source", 3).await;
    let target = fresh_dir("restore-leftovers");
    // Left by a restore whose process is gone (no process has this id).
    let gone = (100_000..4_000_000)
        .find(|pid| !Path::new(&format!("/proc/{pid}")).exists())
        .unwrap();
    let stale = target.join(format!("restore-{gone}.partial"));
    std::fs::create_dir_all(stale.join("db")).unwrap();
    std::fs::write(stale.join("db/conf"), b"half").unwrap();
    // Such a folder alone is not a new folder: refused at start.
    let refused = Store::open(&target).err().expect("refused");
    assert!(
        refused.to_string().contains("an interrupted restore left"),
        "{refused}"
    );

    // One "written" by a running process (init, process 1) is named.
    let running = target.join("restore-1.partial");
    std::fs::create_dir_all(&running).unwrap();
    let e = restore::restore_all(&file, &target).unwrap_err();
    assert!(e.contains("restore-1.partial"), "{e}");
    assert!(stale.exists(), "nothing removed while another restore runs");
    std::fs::remove_dir(&running).unwrap();

    let r = restore::restore_all(&file, &target).unwrap();
    assert_eq!(r.games, 3);
    assert!(!stale.exists());
    let leftovers: Vec<_> = std::fs::read_dir(&target)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".partial"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let restored = Store::open(&target).unwrap();
    let original = Store::open_existing(&source, &StoreSettings::default()).unwrap();
    for id in 1..=3 {
        assert_eq!(
            restored.dump_game(id).unwrap(),
            original.dump_game(id).unwrap()
        );
    }
}
