//! A PostgreSQL store and its data folder's marker, and its backups (issue
//! #32): an empty, another or an older database is refused at start; `tokar
//! backup` and the daily backup read a store of a thousand games in one
//! snapshot while the bot runs, and the backups restore into a sled folder
//! and into an empty PostgreSQL database, and back, key for key. The tests
//! start their own PostgreSQL server (`common/postgres.rs`).

mod common;
#[path = "common/many_games.rs"]
mod many_games;
#[path = "common/postgres.rs"]
mod postgres;

use common::*;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use tokar_bot::clock::VirtualClock;
use tokar_bot::storage::kv::{Kv, GENERATION, MAIN, MARKED, NAMED};
use tokar_bot::storage::postgres::PgKv;
use tokar_bot::storage::{Store, StoreSettings};
use tokar_bot::{Table, TableConfig, TableError};

fn on_pg(url: &str) -> StoreSettings {
    StoreSettings {
        database: Some(url.to_string()),
        ..Default::default()
    }
}

async fn try_open(dir: &Path, storage: StoreSettings) -> Result<Table, TableError> {
    Table::open(TableConfig {
        data_dir: dir.to_path_buf(),
        clock: Arc::new(VirtualClock::open(dir).unwrap()),
        seed: Some(7),
        robot: Default::default(),
        storage,
    })
    .await
}

fn refusal(r: Result<Table, TableError>) -> String {
    match r {
        Err(TableError::NotTheStore(text)) => text,
        Err(e) => panic!("another error: {e}"),
        Ok(_) => panic!("the table opened"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_another_or_an_older_database_is_refused_at_start() {
    let server = postgres::shared("backup");
    let url = server.fresh_store("marked");
    let dir = fresh_dir("pg-marker");
    let e = open_with(&dir, Some(7), on_pg(&url)).await;
    let id = e.start("alice", "bob").await;
    e.play_first(id, &["alice", "bob"]).await;
    drop(e);
    let m = tokar_bot::marker::read(&dir).unwrap().unwrap();
    assert!(m.database.as_deref().unwrap().starts_with("postgres://"));
    let generation = m.generation.unwrap();
    assert!(generation >= 2, "{m:?}");

    // An empty database (a new server, a wrong URL).
    let empty = server.fresh_store("marked_empty");
    let text = refusal(try_open(&dir, on_pg(&empty)).await);
    let first = text.lines().next().unwrap();
    assert!(
        first.contains("is empty") && first.contains("1 game(s)"),
        "{text}"
    );
    assert!(text.contains("TOKAR_FRESH_STORE=1"), "{text}");
    // Nothing was written into it.
    assert_eq!(
        server.psql_in_store("marked_empty", "SELECT count(*) FROM tokar_kv"),
        "0"
    );

    // Another store's database.
    let other = server.fresh_store("marked_other");
    let o = open_with(&fresh_dir("pg-marker-other"), Some(7), on_pg(&other)).await;
    o.start("carol", "dave").await;
    drop(o);
    let text = refusal(try_open(&dir, on_pg(&other)).await);
    assert!(text.contains("another store"), "{text}");

    // The database put back from an older dump: a lower generation.
    server.psql_in_store("marked", "SELECT setval('tokar_generation', 1)");
    let text = refusal(try_open(&dir, on_pg(&url)).await);
    assert!(text.contains("older copy"), "{text}");
    server.psql_in_store(
        "marked",
        &format!("SELECT setval('tokar_generation', {generation})"),
    );
    drop(try_open(&dir, on_pg(&url)).await.unwrap());
}

/// Every key and value of a store but those of its database alone (the
/// generation, the marked flag), by keyspace.
fn contents(kv: &dyn Kv) -> BTreeMap<(String, Vec<u8>), Vec<u8>> {
    let mut out = BTreeMap::new();
    for tree in std::iter::once(MAIN).chain(NAMED) {
        for (k, v) in kv.range(tree, &[], None, usize::MAX).unwrap() {
            if tree == MAIN && (k == GENERATION || k == MARKED) {
                continue;
            }
            out.insert((tree.to_string(), k), v);
        }
    }
    out
}

/// Runs `tokar ARGS` with `TOKAR_DATABASE_URL` set to `url` (or unset), and
/// returns what it printed; panics if it fails.
fn tokar(args: &[&str], dir: &Path, url: Option<&str>) -> String {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_tokar"));
    c.args(args).arg("--data").arg(dir);
    c.env_remove("TOKAR_DATABASE_URL")
        .env_remove("TOKAR_FRESH_STORE");
    if let Some(url) = url {
        c.env("TOKAR_DATABASE_URL", url);
    }
    let out = c.output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "tokar {args:?}: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_store_of_1000_games_round_trips_while_the_daily_backup_runs() {
    let server = postgres::shared("backup");
    let url = server.fresh_store("big");
    let dir = fresh_dir("pg-big");
    let e = open_with(&dir, Some(7), on_pg(&url)).await;
    let id = e.start("alice", "bob").await;
    for _ in 0..6 {
        e.play_first(id, &["alice", "bob"]).await;
    }
    let store = Store::on(Arc::new(PgKv::connect(&url).unwrap())).unwrap();
    tokio::task::spawn_blocking(move || many_games::copies(&store, id, id + 1, 999))
        .await
        .unwrap();

    // Leases ('q' keys) are renewed by the running table as it pleases:
    // compared apart from them, the store before and after one move.
    let stable = |mut c: BTreeMap<(String, Vec<u8>), Vec<u8>>| {
        c.retain(|k, _| !(k.0.is_empty() && k.1.first() == Some(&b'q')));
        c
    };
    let before = stable(contents(&PgKv::connect(&url).unwrap()));

    // The daily backup as the bot runs it (the first at once), and `tokar
    // backup` at the same time, while a move is played.
    let daily = tokio::spawn(tokar_bot::backup::service::daily(
        e.table.clone(),
        dir.clone(),
        3,
    ));
    let file = dir.with_file_name("tokar-pg-big.backup");
    let _ = std::fs::remove_file(&file); // a backup never replaces a file
    let cli = {
        let (dir, file, url) = (dir.clone(), file.clone(), url.clone());
        tokio::task::spawn_blocking(move || {
            tokar(
                &["backup", "--to", file.to_str().unwrap()],
                &dir,
                Some(&url),
            )
        })
    };
    e.play_first(id, &["alice", "bob"]).await;
    let printed = cli.await.unwrap();
    assert!(printed.contains("1000 game(s)"), "{printed}");
    let backups = tokar_bot::backup::service::backups_dir(&dir);
    let started = std::time::Instant::now();
    let daily_file = loop {
        if let Some(f) = tokar_bot::backup::service::list(&backups).pop() {
            break f;
        }
        assert!(started.elapsed().as_secs() < 60, "no daily backup");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    daily.abort();
    drop(e);
    let after = stable(contents(&PgKv::connect(&url).unwrap()));
    assert_ne!(before, after, "the move changed the store");
    // Each backup is one state of the store: before the move or after it.
    let one_state = |c: &BTreeMap<(String, Vec<u8>), Vec<u8>>| *c == before || *c == after;

    // The daily backup into an empty PostgreSQL database.
    let copy_url = server.fresh_store("big_copy");
    let copy_dir = fresh_dir("pg-big-into-pg");
    let printed = tokar(
        &["restore", daily_file.to_str().unwrap()],
        &copy_dir,
        Some(&copy_url),
    );
    assert!(printed.contains("1000 game(s)"), "{printed}");
    assert!(one_state(&stable(contents(
        &PgKv::connect(&copy_url).unwrap()
    ))));

    // `tokar backup`'s file into a sled folder.
    let sled_dir = fresh_dir("pg-big-into-sled");
    tokar(&["restore", file.to_str().unwrap()], &sled_dir, None);
    let in_sled = contents(
        Store::open_existing(&sled_dir, &StoreSettings::default())
            .unwrap()
            .kv(),
    );
    assert!(one_state(&stable(in_sled.clone())));

    // And back: the sled store's backup into another empty PostgreSQL database.
    let back_file = sled_dir.with_file_name("tokar-pg-big-back.backup");
    let _ = std::fs::remove_file(&back_file); // a backup never replaces a file
    tokar(
        &["backup", "--to", back_file.to_str().unwrap()],
        &sled_dir,
        None,
    );
    let back_url = server.fresh_store("big_back");
    tokar(
        &["restore", back_file.to_str().unwrap()],
        &fresh_dir("pg-big-back"),
        Some(&back_url),
    );
    assert_eq!(contents(&PgKv::connect(&back_url).unwrap()), in_sled);

    // Both restored stores open and play on.
    let p = open_with(&copy_dir, Some(7), on_pg(&copy_url)).await;
    p.play_first(id, &["alice", "bob"]).await;
    p.play_first(500, &["alice", "bob"]).await;
    drop(p);
    let s = common::open(&sled_dir, Some(7)).await;
    s.play_first(id, &["alice", "bob"]).await;
}
