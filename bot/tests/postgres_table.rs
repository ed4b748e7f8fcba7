//! The table on PostgreSQL (issue #21): games played, restarted and raced by
//! two processes on one database, leases between them, and a store moved in
//! from its data folder with `tokar migrate`. The tests start their own
//! PostgreSQL server (`common/postgres.rs`).

mod common;
#[path = "common/postgres.rs"]
mod postgres;

use common::*;
use tokar_bot::storage::postgres::PgKv;
use tokar_bot::storage::StoreSettings;

/// A table ("process") on the PostgreSQL store at `url`, with its own folder
/// for its clock.
async fn process(url: &str, dir: &std::path::Path) -> Env {
    std::fs::create_dir_all(dir).unwrap();
    let storage = StoreSettings {
        database: Some(url.to_string()),
        ..Default::default()
    };
    open_with(dir, Some(7), storage).await
}

#[tokio::test]
async fn a_game_is_played_on_postgres_and_goes_on_after_a_restart() {
    let server = postgres::shared("table");
    let url = server.fresh_store("whole_game");
    let dir = fresh_dir("pg-whole-game");
    let e = process(&url, &dir).await;
    let id = e.start("alice", "bob").await;
    for _ in 0..6 {
        e.play_first(id, &["alice", "bob"]).await;
    }
    let board = e.ok(&format!("@alice /board game:{id}")).await;
    drop(e);
    // Nothing of the game is in the data folder.
    assert!(!dir.join("db").exists());
    let e = process(&url, &dir).await;
    assert_eq!(e.ok(&format!("@alice /board game:{id}")).await, board);
    e.play_first(id, &["alice", "bob"]).await;
}

#[tokio::test]
async fn two_processes_never_both_commit_a_move_in_one_game() {
    let server = postgres::shared("table");
    let url = server.fresh_store("race");
    let base = fresh_dir("pg-race");
    let a = process(&url, &base.join("a")).await;
    let b = process(&url, &base.join("b")).await;
    let id = a.start("alice", "bob").await;
    for round in 0..5 {
        let who = a.to_act(id, &["alice", "bob"]).await.unwrap();
        let actions = a.actions(who, id).await;
        let (x, y) = (&actions[0], &actions[actions.len() - 1]);
        let line = |act: &str| format!("@{who} /play game:{id} action:\"{act}\"");
        let (lx, ly) = (line(x), line(y));
        let (ra, rb) = tokio::join!(a.run(&lx), b.run(&ly));
        let accepted = [&ra, &rb].iter().filter(|r| r.iter().all(|r| r.ok)).count();
        assert_eq!(accepted, 1, "round {round}: {ra:#?} {rb:#?}");
    }
    // Both processes read the same five moves.
    let ha = a.ok(&format!("@alice /history game:{id}")).await;
    let hb = b.ok(&format!("@alice /history game:{id}")).await;
    assert_eq!(ha[0].content, hb[0].content);
}

#[tokio::test]
async fn a_channels_messages_go_out_from_the_process_holding_it() {
    let server = postgres::shared("table");
    let url = server.fresh_store("lanes");
    let base = fresh_dir("pg-lanes");
    let a = process(&url, &base.join("a")).await;
    let b = process(&url, &base.join("b")).await;
    a.start("alice", "bob").await;
    let by_a = a.table.outbox_due(64).await;
    assert!(!by_a.is_empty());
    assert!(b.table.outbox_due(64).await.is_empty());
    a.clock.advance(61_000).unwrap();
    b.clock.advance(61_000).unwrap();
    assert_eq!(
        b.table
            .outbox_due(64)
            .await
            .iter()
            .map(|e| e.id)
            .collect::<Vec<_>>(),
        by_a.iter().map(|e| e.id).collect::<Vec<_>>()
    );
}

#[tokio::test]
async fn a_store_moved_in_with_migrate_plays_on() {
    let server = postgres::shared("table");
    let url = server.fresh_store("moved");
    let from = fresh_dir("pg-migrate-from");
    let e = open(&from, Some(7)).await;
    let id = e.start("alice", "bob").await;
    e.play_first(id, &["alice", "bob"]).await;
    let board = e.ok(&format!("@alice /board game:{id}")).await;
    drop(e);

    let to = PgKv::connect(&url).unwrap();
    let moved = tokar_bot::migrate::migrate(&from, &to).unwrap();
    assert_eq!(moved.games, 1, "{moved}");
    let err = tokar_bot::migrate::migrate(&from, &to).unwrap_err();
    assert!(err.contains("already holds a store"), "{err}");
    drop(to);

    let e = process(&url, &fresh_dir("pg-migrate-to")).await;
    assert_eq!(e.ok(&format!("@alice /board game:{id}")).await, board);
    e.play_first(id, &["alice", "bob"]).await;
}

#[test]
fn a_wrong_database_url_is_refused_in_one_line() {
    let err = PgKv::connect("postgres://nobody@%2Fnonexistent%2Fsocket/none")
        .err()
        .expect("no server there");
    let text = err.to_string();
    assert!(!text.contains('\n'), "{text}");
    assert!(text.starts_with("the database failed: "), "{text}");
}

#[tokio::test]
async fn tokar_migrate_moves_a_folder_and_says_what_it_moved() {
    let server = postgres::shared("table");
    let url = server.fresh_store("cli");
    let from = fresh_dir("pg-migrate-cli");
    let e = open(&from, Some(7)).await;
    e.start("alice", "bob").await;
    drop(e);
    let tokar = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_tokar"))
            .args(args)
            .output()
            .unwrap()
    };
    let out = tokar(&["migrate", "--from", from.to_str().unwrap(), "--to", &url]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.starts_with("moved the store of "), "{said}");
    assert!(said.contains("1 games checked"), "{said}");
    // Again: refused, in one line, exit 1.
    let out = tokar(&["migrate", "--from", from.to_str().unwrap(), "--to", &url]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("already holds a store"), "{err}");
    // Bad arguments.
    let out = tokar(&["migrate", "--from", from.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).starts_with("tokar: migrate needs --from and --to")
    );
}

/// Records as the first format wrote them load from PostgreSQL and play on,
/// as they do from sled (`tests/fixtures.rs`).
#[tokio::test]
async fn a_format_1_record_loads_and_plays_on_from_postgres() {
    let server = postgres::shared("table");
    let url = server.fresh_store("fixture");
    let items = read_fixture(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/format-1.json"
    ));
    {
        let kv = std::sync::Arc::new(PgKv::connect(&url).unwrap());
        let store = tokar_bot::storage::Store::on(kv).unwrap();
        store.load_dump(&items).unwrap();
    }
    let e = process(&url, &fresh_dir("pg-fixture")).await;
    let h = e.ok("@alice /history game:1").await;
    assert!(h[0].content.contains("\n6. "), "{}", h[0].content);
    e.play_first(1, &["alice", "bob"]).await;
    let h = e.ok("@alice /history game:1").await;
    assert!(h[0].content.contains("\n7. "), "{}", h[0].content);
    let r = e.ok("@carol /new game:arcana opponent:@dave").await;
    assert!(r[0].content.contains("#2"), "{}", r[0].content);
}
