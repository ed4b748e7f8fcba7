//! Damaged storage (issue #17): players get one plain line, never the
//! store's internals; `tokar check` lists what cannot be read and changes
//! nothing; one game comes back alone from a backup.

mod common;
use common::*;
use std::path::Path;
use tokar_bot::backup::restore;
use tokar_bot::storage::{Store, StoreSettings};

/// What players are told when the store fails.
const PLAIN: &str =
    "Tokar could not read or write its storage, so nothing was changed; the operator has been told.";

fn game_key(id: u64) -> Vec<u8> {
    let mut k = vec![b'g'];
    k.extend_from_slice(&id.to_be_bytes());
    k
}

fn log_key(id: u64, seq: u64) -> Vec<u8> {
    let mut k = vec![b'l'];
    k.extend_from_slice(&id.to_be_bytes());
    k.extend_from_slice(&seq.to_be_bytes());
    k
}

/// Every key and value of the store, read without writing.
fn everything(dir: &Path) -> Vec<(Vec<u8>, Vec<u8>)> {
    let store = Store::open_existing(dir, &StoreSettings::default()).unwrap();
    let mut out = Vec::new();
    for id in 1..=2 {
        out.extend(store.dump_game(id).unwrap());
    }
    out
}

/// Two games (alice-bob #1, carol-dave #2), one move in each; closed.
async fn two_games(name: &str) -> std::path::PathBuf {
    let e = env(name).await;
    for (a, b) in [("alice", "bob"), ("carol", "dave")] {
        let id = e.start(a, b).await;
        e.play_first(id, &[a, b]).await;
    }
    let dir = e.dir.clone();
    drop(e);
    dir
}

fn damage(dir: &Path, key: &[u8], bytes: &[u8]) {
    let store = Store::open_existing(dir, &StoreSettings::default()).unwrap();
    store.put_raw(key, bytes).unwrap();
}

#[tokio::test]
async fn a_damaged_record_is_told_in_one_plain_line() {
    let dir = two_games("damaged-record").await;
    damage(&dir, &game_key(1), b"\x00\x9f garbage, not a record");
    let e = open(&dir, Some(7)).await;
    for line in [
        "@alice /board game:1",
        "@alice /play action:x",
        "@bob /resign game:1",
        "@alice /games",
    ] {
        let text = e.refused(line).await;
        assert_eq!(text, PLAIN, "{line}");
    }
    // The other game is not affected.
    e.ok("@carol /board game:2").await;
}

#[tokio::test]
async fn a_damaged_log_entry_is_told_in_one_plain_line() {
    let dir = two_games("damaged-log").await;
    damage(&dir, &log_key(1, 0), b"{\"format\":1,\"seq\":");
    let e = open(&dir, Some(7)).await;
    let text = e.refused("@alice /history game:1").await;
    assert_eq!(text, PLAIN);
}

#[tokio::test]
async fn a_log_that_does_not_replay_is_told_in_one_plain_line() {
    let dir = two_games("damaged-replay").await;
    let store = Store::open_existing(&dir, &StoreSettings::default()).unwrap();
    let mut rec = store.game(1).unwrap().unwrap();
    let mut entry = store.log(1).unwrap().remove(0);
    // A record whose snapshot is gone and whose log holds a move that is
    // not legal: the table must replay, and cannot.
    rec.snapshot = None;
    entry.action = tokar_bot::record::LogAction::Play("z9-z10".into());
    store
        .put_raw(&game_key(1), &tokar_bot::record::encode(&rec))
        .unwrap();
    store
        .put_raw(&log_key(1, 0), &tokar_bot::record::encode(&entry))
        .unwrap();
    drop(store);
    let e = open(&dir, Some(7)).await;
    let text = e.refused("@alice /board game:1").await;
    assert_eq!(
        text,
        "Game #1 cannot be loaded from storage; the operator has been told."
    );
}

#[tokio::test]
async fn check_lists_the_damaged_game_changes_nothing_and_the_backup_restores_it() {
    let dir = two_games("damaged-check").await;
    let report = tokar_bot::check::check(&dir).unwrap();
    assert!(report.problems.is_empty(), "{report:?}");
    assert_eq!(report.games, 2);

    // A backup from before the damage.
    let backup = dir.join("before.backup");
    {
        let store = Store::open_existing(&dir, &StoreSettings::default()).unwrap();
        tokar_bot::backup::write(&store, &backup).unwrap();
    }
    let good = everything(&dir);
    damage(&dir, &game_key(1), b"Read corrupted data");
    let damaged = everything(&dir);
    let marker = std::fs::read(dir.join(tokar_bot::marker::FILE)).unwrap();

    let report = tokar_bot::check::check(&dir).unwrap();
    assert_eq!(report.bad_games, vec![1], "{report:?}");
    assert_eq!(report.problems.len(), 1, "{report:?}");
    assert!(report.problems[0].starts_with("game #1: "), "{report:?}");
    assert!(
        report.summary().contains("1 problem(s) (games #1)"),
        "{}",
        report.summary()
    );
    // It changed nothing.
    assert_eq!(everything(&dir), damaged);
    assert_eq!(
        std::fs::read(dir.join(tokar_bot::marker::FILE)).unwrap(),
        marker
    );

    // The binary: problems on stdout, a non-zero exit.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tokar"))
        .args(["check", "--data"])
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success());
    assert!(stdout.contains("game #1: "), "{stdout}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--game N"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // Game #1 alone from the backup; game #2 stays as it is.
    restore::restore_game(&backup, &dir, 1).unwrap();
    assert_eq!(everything(&dir), good);
    assert!(tokar_bot::check::check(&dir).unwrap().problems.is_empty());
    let e = open(&dir, Some(7)).await;
    e.ok("@alice /board game:1").await;
    let who = e.to_act(1, &["alice", "bob"]).await.unwrap();
    let action = e.actions(who, 1).await[0].clone();
    e.ok(&format!("@{who} /play action:\"{action}\"")).await;
}

#[tokio::test]
async fn one_game_comes_only_from_a_backup_of_the_same_store() {
    let dir = two_games("damaged-other-a").await;
    let other = two_games("damaged-other-b").await;
    let backup = other.join("b.backup");
    {
        let store = Store::open_existing(&other, &StoreSettings::default()).unwrap();
        tokar_bot::backup::write(&store, &backup).unwrap();
    }
    let e = restore::restore_game(&backup, &dir, 1).unwrap_err();
    assert!(e.contains("not of this folder's store"), "{e}");
    let e = restore::restore_game(&backup, &dir, 9).unwrap_err();
    assert!(e.contains("no game #9"), "{e}");
}

#[tokio::test]
async fn the_data_commands_refuse_bad_arguments_in_one_line() {
    let dir = fresh_dir("data-args");
    for args in [
        vec!["check", "--data"],
        vec!["restore"],
        vec!["restore", "x.backup", "--game", "zero"],
        vec!["backup", "--frobnicate"],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tokar"))
            .args(&args)
            .env("TOKAR_DATA", &dir)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(err.starts_with("tokar: "), "{args:?}: {err}");
        assert!(err.contains("usage:"), "{args:?}: {err}");
    }
    // No store there: said, and none created.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tokar"))
        .args(["check", "--data"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("there is no store"));
    assert!(!dir.join("db").exists());
}
