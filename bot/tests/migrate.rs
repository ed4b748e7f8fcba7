//! `tokar migrate` (issue #21): a store moves out of its data folder whole,
//! checked, never into a database that holds one already; the moved store
//! plays on.

mod common;
use common::*;
use std::sync::Arc;
use tokar_bot::migrate::migrate;
use tokar_bot::storage::kv::{Kv, SledKv, MAIN, NAMED};
use tokar_bot::storage::Store;

/// A folder with two games in play (one move each), a finished game, and a
/// message still waiting for delivery; closed.
async fn used_folder(name: &str) -> std::path::PathBuf {
    let e = env(name).await;
    for (a, b) in [("alice", "bob"), ("carol", "dave")] {
        let id = e.start(a, b).await;
        e.play_first(id, &[a, b]).await;
    }
    let id = e.start("erin", "frank").await;
    e.ok(&format!("@erin /resign game:{id} confirm:yes")).await;
    let dir = e.dir.clone();
    drop(e);
    dir
}

/// Every key and value of every keyspace.
fn everything(kv: &dyn Kv) -> Vec<(String, Vec<u8>, Vec<u8>)> {
    let mut out = Vec::new();
    for tree in std::iter::once(MAIN).chain(NAMED) {
        for (k, v) in kv.range(tree, &[], None, usize::MAX).unwrap() {
            // Whether a marker names the database belongs to that database
            // alone: a migration does not carry it.
            if tree == MAIN && k.as_slice() == tokar_bot::storage::kv::MARKED {
                continue;
            }
            out.push((tree.to_string(), k, v));
        }
    }
    out
}

fn sled_target(dir: &std::path::Path) -> Arc<dyn Kv> {
    let db = sled::open(dir.join("db")).unwrap();
    Arc::new(SledKv::new(db, dir.display().to_string()).unwrap())
}

#[tokio::test]
async fn a_store_moves_whole_and_plays_on() {
    let from = used_folder("migrate-from").await;
    let to_dir = fresh_dir("migrate-to");
    let before = everything(open_store(&from).kv());
    let to = sled_target(&to_dir);
    let moved = migrate(&from, &*to).unwrap();
    assert_eq!(moved.games, 3, "{moved}");
    assert_eq!(
        moved.keys[""],
        before.iter().filter(|(t, ..)| t.is_empty()).count()
    );
    assert_eq!(everything(&*to), before, "every key and value, as it was");

    // New outbox entries are numbered after the moved ones.
    let highest = before
        .iter()
        .filter(|(t, k, _)| t.is_empty() && k[0] == b'o')
        .map(|(_, k, _)| u64::from_be_bytes(k[1..9].try_into().unwrap()))
        .max()
        .expect("a message waits for delivery");
    let store = Store::on(to.clone()).unwrap();
    let ids = store
        .enqueue(&[tokar_bot::outbox::OutboxEntry::from_reply(
            &tokar_bot::Reply::refusal(
                &tokar_bot::ChannelRef::new(5, "general"),
                &user("erin"),
                "x",
            ),
            None,
            0,
        )])
        .unwrap();
    assert!(ids[0] > highest, "{ids:?} after {highest}");
    drop(store);
    drop(to);

    // The moved store is a store: the games go on.
    let e = open(&to_dir, Some(7)).await;
    e.play_first(1, &["alice", "bob"]).await;
    e.ok("@erin /board game:3").await;
}

#[tokio::test]
async fn a_database_that_holds_a_store_is_refused() {
    let from = used_folder("migrate-twice").await;
    let to_dir = fresh_dir("migrate-twice-to");
    let to = sled_target(&to_dir);
    migrate(&from, &*to).unwrap();
    let before = everything(&*to);
    let err = migrate(&from, &*to).unwrap_err();
    assert!(
        err.ends_with("already holds a store: migrate only into an empty database"),
        "{err}"
    );
    assert_eq!(everything(&*to), before, "nothing written");
}

#[test]
fn a_folder_without_a_store_is_refused_in_one_line() {
    let to = sled_target(&fresh_dir("migrate-none-to"));
    let from = fresh_dir("migrate-none");
    let err = migrate(&from, &*to).unwrap_err();
    assert_eq!(
        err,
        format!(
            "cannot open the store in {}: there is no store in {} (no db/ folder)",
            from.display(),
            from.display()
        )
    );
    assert!(everything(&*to).is_empty());
}
