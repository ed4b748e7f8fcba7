//! A data folder whose database is gone, emptied or replaced is refused at
//! start instead of starting afresh without a word (issue #17, "Safe data").

mod common;
use common::*;
use std::sync::Arc;
use tokar_bot::clock::VirtualClock;
use tokar_bot::storage::{Store, StoreSettings};
use tokar_bot::{Table, TableConfig, TableError};

async fn open_with(dir: &std::path::Path, storage: StoreSettings) -> Result<Table, TableError> {
    Table::open(TableConfig {
        data_dir: dir.to_path_buf(),
        clock: Arc::new(VirtualClock::open(dir).unwrap()),
        seed: Some(3),
        robot: Default::default(),
        storage,
    })
    .await
}

/// A folder whose store has numbered two games, closed.
async fn used_folder(name: &str) -> std::path::PathBuf {
    let e = env(name).await;
    e.start("alice", "bob").await;
    e.start("carol", "dave").await;
    let dir = e.dir.clone();
    drop(e);
    dir
}

fn refusal(r: Result<Table, TableError>) -> String {
    match r {
        Err(TableError::NotTheStore(text)) => text,
        Err(e) => panic!("another error: {e}"),
        Ok(_) => panic!("the table opened"),
    }
}

#[tokio::test]
async fn a_lost_database_is_refused_with_the_ways_on() {
    let dir = used_folder("marker-lost").await;
    let marker = tokar_bot::marker::read(&dir).unwrap().expect("a marker");
    assert_eq!(marker.games, 2);
    std::fs::remove_dir_all(dir.join("db")).unwrap();

    let text = refusal(open_with(&dir, StoreSettings::default()).await);
    let first = text.lines().next().unwrap();
    assert!(
        first.contains("2 game(s)") && first.contains("missing"),
        "{text}"
    );
    assert!(text.contains("tokar restore FILE --data"), "{text}");
    assert!(text.contains("TOKAR_FRESH_STORE=1"), "{text}");
    // Refused before sled could create an empty database in its place.
    assert!(!dir.join("db").exists());

    // Starting afresh on purpose: an empty store, numbered from #1, recorded.
    let fresh = StoreSettings {
        fresh: true,
        ..Default::default()
    };
    let table = open_with(&dir, fresh).await.unwrap();
    let r = table
        .handle(request("@alice /new game:arcana army:human opponent:@bob"))
        .await;
    assert!(r[0].content.contains("#1"), "{}", r[0].content);
    drop(table);
    let m = tokar_bot::marker::read(&dir).unwrap().unwrap();
    assert_ne!(m.identity, marker.identity);
    assert_eq!(m.games, 1);
    // And from now on it is this folder's store: it opens without the flag.
    open_with(&dir, StoreSettings::default()).await.unwrap();
}

#[tokio::test]
async fn an_emptied_database_is_refused() {
    let dir = used_folder("marker-empty").await;
    std::fs::remove_dir_all(dir.join("db")).unwrap();
    // An empty sled database where the store was (a new volume, say).
    drop(sled::open(dir.join("db")).unwrap());
    let text = refusal(open_with(&dir, StoreSettings::default()).await);
    assert!(text.lines().next().unwrap().contains("is empty"), "{text}");
}

#[tokio::test]
async fn another_store_is_refused() {
    let dir = used_folder("marker-other-a").await;
    let other = used_folder("marker-other-b").await;
    std::fs::remove_dir_all(dir.join("db")).unwrap();
    std::fs::rename(other.join("db"), dir.join("db")).unwrap();
    let text = refusal(open_with(&dir, StoreSettings::default()).await);
    assert!(text.contains("another store"), "{text}");
}

#[tokio::test]
async fn an_older_copy_of_the_store_is_refused() {
    let dir = used_folder("marker-older").await;
    let mut m = tokar_bot::marker::read(&dir).unwrap().unwrap();
    // As if the database were a copy from before the last games.
    m.games = 5;
    tokar_bot::marker::write(
        &dir,
        &tokar_bot::marker::Fields {
            identity: m.identity,
            games: m.games,
            generation: m.generation.unwrap_or_default(),
            database: "sled".into(),
        },
    )
    .unwrap();
    let text = refusal(open_with(&dir, StoreSettings::default()).await);
    assert!(text.contains("only 2 game(s)"), "{text}");
}

#[tokio::test]
async fn a_folder_from_before_markers_opens_and_gets_one() {
    let dir = used_folder("marker-old-folder").await;
    std::fs::remove_file(dir.join(tokar_bot::marker::FILE)).unwrap();
    // A store from before markers was never marked in its database.
    {
        let db = sled::open(dir.join("db")).unwrap();
        db.remove(tokar_bot::storage::kv::MARKED).unwrap();
        db.flush().unwrap();
    }
    let table = open_with(&dir, StoreSettings::default()).await.unwrap();
    let r = table.handle(request("@alice /board game:1")).await;
    assert!(r[0].ok, "{}", r[0].content);
    drop(table);
    let m = tokar_bot::marker::read(&dir)
        .unwrap()
        .expect("a marker written");
    assert_eq!(m.games, 2);
    let store = Store::open_existing(&dir, &StoreSettings::default()).unwrap();
    assert_eq!(m.identity, store.identity().unwrap());
}

#[tokio::test]
async fn a_damaged_marker_is_refused_not_taken_for_a_new_folder() {
    let dir = used_folder("marker-damaged").await;
    std::fs::write(dir.join(tokar_bot::marker::FILE), b"{\"format\":").unwrap();
    let text = refusal(open_with(&dir, StoreSettings::default()).await);
    assert!(text.contains("is damaged"), "{text}");
    assert!(text.contains("TOKAR_FRESH_STORE=1"), "{text}");
}

/// The binary exits non-zero with the message (as the Discord mode and the
/// console do, both through `Table::open`).
#[test]
fn the_binary_refuses_to_start_and_says_why() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let dir = rt.block_on(used_folder("marker-binary"));
    drop(rt);
    std::fs::remove_dir_all(dir.join("db")).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tokar"))
        .args(["console", "--data"])
        .arg(&dir)
        .env_remove("TOKAR_FRESH_STORE")
        .env_remove("TOKAR_CACHE_MB")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("tokar restore FILE"), "{err}");
    assert!(!dir.join("db").exists());
}

#[test]
fn settings_come_from_the_environment_and_bad_values_are_refused() {
    // One test touches these variables: tests run on threads of one process.
    std::env::set_var("TOKAR_CACHE_MB", "16");
    std::env::set_var("TOKAR_FRESH_STORE", "1");
    let s = StoreSettings::from_env().unwrap();
    assert_eq!((s.cache_mb, s.fresh), (16, true));
    std::env::set_var("TOKAR_CACHE_MB", "lots");
    let e = StoreSettings::from_env().unwrap_err();
    assert!(e.starts_with("TOKAR_CACHE_MB=lots"), "{e}");
    std::env::remove_var("TOKAR_CACHE_MB");
    std::env::remove_var("TOKAR_FRESH_STORE");
    // A database URL selects PostgreSQL; anything else is refused.
    std::env::set_var(
        "TOKAR_DATABASE_URL",
        "postgres://tokar@%2Frun%2Fpostgresql/tokar",
    );
    assert_eq!(
        StoreSettings::from_env().unwrap().database.as_deref(),
        Some("postgres://tokar@%2Frun%2Fpostgresql/tokar")
    );
    std::env::set_var("TOKAR_DATABASE_URL", "/var/lib/tokar");
    assert_eq!(
        StoreSettings::from_env().unwrap_err(),
        "TOKAR_DATABASE_URL: not a PostgreSQL URL (postgres://user@host/database)"
    );
    std::env::set_var("TOKAR_DATABASE_URL", " ");
    assert_eq!(StoreSettings::from_env().unwrap().database, None);
    std::env::remove_var("TOKAR_DATABASE_URL");
    assert_eq!(StoreSettings::from_env().unwrap(), StoreSettings::default());
}

/// A store held open elsewhere is refused as in use, in one line, once the
/// wait for sled's lock is over; closed, it opens again.
#[test]
fn a_held_store_is_refused_as_in_use() {
    let dir = fresh_dir("marker-in-use");
    let held = Store::open(&dir).unwrap();
    let err = Store::open(&dir)
        .err()
        .expect("a second open must be refused");
    assert_eq!(
        err.to_string(),
        format!(
            "the store in {} is in use by a running Tokar (stop it first, or see `tokar backup`)",
            dir.display()
        )
    );
    drop(held);
    Store::open_existing(&dir, &StoreSettings::default()).unwrap();
}

/// Copies the folder `from` (files and folders) to `to`.
fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// Issue #32: a copy of `db/` taken earlier (same identity, same number of
/// games, older moves) put back in place is refused, with the ways on; on
/// purpose (TOKAR_FRESH_STORE=1) it starts, and is the folder's store from
/// then on.
#[tokio::test]
async fn a_stale_copy_of_the_database_is_refused() {
    let e = env("marker-stale").await;
    let id = e.start("alice", "bob").await;
    e.play_first(id, &["alice", "bob"]).await;
    let dir = e.dir.clone();
    drop(e);
    let copy = dir.with_file_name("tokar-marker-stale-copy");
    let _ = std::fs::remove_dir_all(&copy);
    copy_dir(&dir.join("db"), &copy);
    let before = tokar_bot::marker::read(&dir).unwrap().unwrap();

    // More moves, acknowledged; then the old copy put back.
    let e = common::open(&dir, Some(7)).await;
    let board = e.ok(&format!("@alice /board game:{id}")).await;
    for _ in 0..3 {
        e.play_first(id, &["alice", "bob"]).await;
    }
    assert_ne!(e.ok(&format!("@alice /board game:{id}")).await, board);
    drop(e);
    let after = tokar_bot::marker::read(&dir).unwrap().unwrap();
    assert_eq!(after.format, 2);
    assert_eq!(
        (after.identity, after.games),
        (before.identity, before.games)
    );
    assert!(after.generation > before.generation, "{before:?} {after:?}");
    std::fs::remove_dir_all(dir.join("db")).unwrap();
    std::fs::rename(&copy, dir.join("db")).unwrap();

    let text = refusal(open_with(&dir, StoreSettings::default()).await);
    let first = text.lines().next().unwrap();
    assert!(first.contains("older copy"), "{text}");
    assert!(first.contains("generation"), "{text}");
    assert!(text.contains("tokar restore FILE --data"), "{text}");
    assert!(text.contains("TOKAR_FRESH_STORE=1"), "{text}");

    let fresh = StoreSettings {
        fresh: true,
        ..Default::default()
    };
    drop(open_with(&dir, fresh).await.unwrap());
    let table = open_with(&dir, StoreSettings::default()).await.unwrap();
    let r = table
        .handle(request(&format!("@alice /board game:{id}")))
        .await;
    assert!(r[0].ok, "{}", r[0].content);
}

/// Issue #32: `db/` and `store.json` deleted while `backups/` is kept: the
/// folder is not taken for a new one.
#[tokio::test]
async fn a_folder_with_backups_but_no_store_is_refused() {
    let dir = used_folder("marker-backups-kept").await;
    let store = Store::open_existing(&dir, &StoreSettings::default()).unwrap();
    let backups = tokar_bot::backup::service::backups_dir(&dir);
    let file = backups.join(tokar_bot::backup::file_name(chrono::Utc::now()));
    tokar_bot::backup::write(&store, &file).unwrap();
    drop(store);
    std::fs::remove_dir_all(dir.join("db")).unwrap();
    std::fs::remove_file(dir.join(tokar_bot::marker::FILE)).unwrap();

    let text = refusal(open_with(&dir, StoreSettings::default()).await);
    let first = text.lines().next().unwrap();
    assert!(first.contains("has no store.json"), "{text}");
    assert!(first.contains("backups/ holds 1 Tokar backup(s)"), "{text}");
    assert!(first.contains("missing"), "{text}");
    assert!(
        !dir.join("db").exists(),
        "refused before sled made a database"
    );

    // The ways on: restore the backup, and the folder opens with its games.
    tokar_bot::backup::restore::restore_all(&file, &dir).unwrap();
    let table = open_with(&dir, StoreSettings::default()).await.unwrap();
    let r = table.handle(request("@alice /board game:1")).await;
    assert!(r[0].ok, "{}", r[0].content);
}

/// A store that had a marker and lost it is not taken for one from before
/// markers: whether it is the newest copy cannot be told.
#[tokio::test]
async fn a_marked_store_without_its_marker_is_refused() {
    let dir = used_folder("marker-lost-marker").await;
    std::fs::remove_file(dir.join(tokar_bot::marker::FILE)).unwrap();
    let text = refusal(open_with(&dir, StoreSettings::default()).await);
    assert!(text.contains("which had a marker"), "{text}");
    let fresh = StoreSettings {
        fresh: true,
        ..Default::default()
    };
    drop(open_with(&dir, fresh).await.unwrap());
    assert_eq!(tokar_bot::marker::read(&dir).unwrap().unwrap().games, 2);
}

/// A new folder holding only what is not a store (the clock's file, an empty
/// `backups/`) is a new folder.
#[tokio::test]
async fn a_folder_with_nothing_of_a_store_is_new() {
    let dir = fresh_dir("marker-new-folder");
    std::fs::create_dir_all(dir.join("backups")).unwrap();
    let table = open_with(&dir, StoreSettings::default()).await.unwrap();
    drop(table);
    let m = tokar_bot::marker::read(&dir).unwrap().unwrap();
    assert_eq!((m.format, m.games, m.generation), (2, 0, Some(0)));
}

/// Every marker format keeps loading (fixtures of each).
#[test]
fn markers_of_every_format_load() {
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    for (n, generation) in [(1, None), (2, Some(41))] {
        let dir = fresh_dir(&format!("marker-format-{n}"));
        std::fs::copy(
            format!("{fixtures}/marker-{n}.json"),
            dir.join(tokar_bot::marker::FILE),
        )
        .unwrap();
        let m = tokar_bot::marker::read(&dir).unwrap().unwrap();
        assert_eq!(m.format, n);
        assert_eq!(m.identity, 0x1234_5678_9abc_def0);
        assert_eq!(m.games, 12);
        assert_eq!(m.generation, generation);
    }
}
