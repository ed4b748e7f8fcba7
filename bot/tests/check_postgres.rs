//! `tokar check` on a PostgreSQL store (issue #34): the check reads the
//! store through the store's own interface, so it reads a PostgreSQL store
//! as it reads the folder's sled store, and finds the same things. The test
//! starts its own PostgreSQL server (`common/postgres.rs`).

mod common;
#[path = "common/postgres.rs"]
mod postgres;

use common::*;
use std::path::Path;
use std::time::Duration;
use tokar_bot::check::{check_store, Report};
use tokar_bot::storage::{Store, StoreSettings};

fn on_pg(url: &str) -> StoreSettings {
    StoreSettings {
        database: Some(url.to_string()),
        ..Default::default()
    }
}

/// Game `id`'s record key, as the store lays it out.
fn game_key(id: u64) -> Vec<u8> {
    let mut k = vec![b'g'];
    k.extend_from_slice(&id.to_be_bytes());
    k
}

/// Two games, one of them played, on the store `settings` name.
async fn two_games(dir: &Path, settings: StoreSettings) {
    let e = open_with(dir, Some(7), settings).await;
    let id = e.start("alice", "bob").await;
    e.play_first(id, &["alice", "bob"]).await;
    e.start("carol", "dave").await;
}

async fn checked(dir: &Path, settings: StoreSettings) -> Report {
    let dir = dir.to_path_buf();
    // Generous: only a hang fails it.
    tokio::task::spawn_blocking(move || check_store(&dir, &settings, Duration::from_secs(30)))
        .await
        .unwrap()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_store_is_checked_as_a_folder_store_is() {
    let server = postgres::shared("check");
    let url = server.fresh_store("checked");
    let pg_dir = fresh_dir("checked-on-pg");
    two_games(&pg_dir, on_pg(&url)).await;
    let sled_dir = fresh_dir("checked-on-sled");
    two_games(&sled_dir, StoreSettings::default()).await;

    let on_pg_report = checked(&pg_dir, on_pg(&url)).await;
    let on_sled = checked(&sled_dir, StoreSettings::default()).await;
    assert!(on_pg_report.problems.is_empty(), "{on_pg_report:?}");
    assert_eq!(on_pg_report.games, 2);
    assert_eq!(on_pg_report.summary(), on_sled.summary());

    // A damaged record is found, by game.
    Store::open_existing(&pg_dir, &on_pg(&url))
        .unwrap()
        .put_raw(&game_key(1), b"\x00 not a record")
        .unwrap();
    let damaged = checked(&pg_dir, on_pg(&url)).await;
    assert_eq!(damaged.bad_games, [1], "{damaged:?}");
    assert_eq!(damaged.games, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_server_is_an_error_not_a_report() {
    let dir = fresh_dir("checked-unreachable");
    let settings = on_pg("postgres://tokar@127.0.0.1:1/nowhere");
    let dir2 = dir.clone();
    let r =
        tokio::task::spawn_blocking(move || check_store(&dir2, &settings, Duration::from_secs(30)))
            .await
            .unwrap();
    assert!(r.is_err(), "{r:?}");
}
