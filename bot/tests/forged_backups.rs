//! Forged and hostile backups (issue #32): each one, made from a real
//! backup, is refused by the restore's verify pass with a one-line reason,
//! and nothing is written.

mod common;
use common::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use tokar_bot::backup::{checksum, restore, service, GameItems, Item, Line};

/// A store with two Arcana games (human against undead) in which both sides
/// moved, and a league of three (its record in the `leagues` tree); its
/// backup.
async fn real_backup() -> (PathBuf, PathBuf) {
    let e = env("forged-origin").await;
    for (a, b) in [("alice", "bob"), ("carol", "dave")] {
        let id = e.start(a, b).await;
        for _ in 0..4 {
            e.play_first(id, &[a, b]).await;
        }
    }
    e.ok("@alice /league new game:arachne name:Webs players:@alice @bob @carol")
        .await;
    e.ok("@bob /league accept name:Webs").await;
    e.ok("@carol /league accept name:Webs").await;
    let file = e.dir.join("real.backup");
    service::take(&e.table, &e.dir, Some(file.clone()), 7)
        .await
        .unwrap();
    (e.dir.clone(), file)
}

fn lines_of(file: &Path) -> Vec<Line> {
    use std::io::BufRead;
    let r = std::io::BufReader::new(flate2::read::GzDecoder::new(
        std::fs::File::open(file).unwrap(),
    ));
    r.lines()
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect()
}

fn write_lines(to: &Path, lines: &[Line]) {
    let mut z = flate2::write::GzEncoder::new(
        std::fs::File::create(to).unwrap(),
        flate2::Compression::fast(),
    );
    for l in lines {
        serde_json::to_writer(&mut z, l).unwrap();
        z.write_all(b"\n").unwrap();
    }
    z.finish().unwrap();
}

/// The game line of game `id`.
fn game_mut(lines: &mut [Line], id: u64) -> &mut GameItems {
    lines
        .iter_mut()
        .find_map(|l| match l {
            Line::Game(g) if g.id == id => Some(g),
            _ => None,
        })
        .unwrap()
}

/// Changes game `id`'s record (as JSON) and seals the line again with a
/// correct checksum, as a forger would.
fn forge_record(lines: &mut [Line], id: u64, change: impl Fn(&mut serde_json::Value)) {
    let g = game_mut(lines, id);
    let mut rec: serde_json::Value = serde_json::from_str(g.items[0].v.as_ref().unwrap()).unwrap();
    change(&mut rec);
    g.items[0].v = Some(rec.to_string());
    reseal(g);
}

fn reseal(g: &mut GameItems) {
    let raw: Vec<_> = g.items.iter().map(|i| i.raw().unwrap()).collect();
    g.crc32 = checksum(&raw);
}

/// The end line's counts, changed by `games`, `keys`, `trees`.
fn recount(lines: &mut [Line], games: i64, keys: i64, trees: i64) {
    let Some(Line::End(e)) = lines.last_mut() else {
        panic!("no end line")
    };
    e.games = (e.games as i64 + games) as u64;
    e.keys = (e.keys as i64 + keys) as u64;
    e.tree_keys = (e.tree_keys as i64 + trees) as u64;
}

/// Inserts `line` before the end line.
fn push_before_end(lines: &mut Vec<Line>, line: Line) {
    let at = lines.len() - 1;
    lines.insert(at, line);
}

/// The forged file is refused by `verify` and by `restore_all` with a
/// reason containing `reason`, in one line, and no store is written.
fn refused(dir: &Path, name: &str, lines: &[Line], reason: &str) {
    let file = dir.join(format!("{name}.backup"));
    write_lines(&file, lines);
    refused_file(&file, name, reason);
}

fn refused_file(file: &Path, name: &str, reason: &str) {
    let e = restore::verify(file).unwrap_err();
    assert!(e.contains(reason), "{name}: {e}");
    assert!(!e.contains('\n'), "{name}: one line: {e}");
    let target = fresh_dir(&format!("forged-{name}-target"));
    let e = restore::restore_all(file, &target).unwrap_err();
    assert!(e.contains(reason), "{name}: {e}");
    let written: Vec<_> = std::fs::read_dir(&target).unwrap().collect();
    assert!(written.is_empty(), "{name}: nothing written: {written:?}");
}

#[tokio::test]
async fn every_forgery_class_is_refused_in_the_verify_pass_with_nothing_written() {
    let (dir, file) = real_backup().await;
    let real = lines_of(&file);
    // The real backup itself verifies and restores.
    restore::verify(&file).unwrap();
    let ok = fresh_dir("forged-real-target");
    restore::restore_all(&file, &ok).unwrap();

    // 1. The snapshot altered, every Undead piece removed, checksum
    //    recomputed: the stored position is not the one the log replays to.
    let mut lines = real.clone();
    forge_record(&mut lines, 1, |rec| {
        let mut snap: serde_json::Value =
            serde_json::from_str(rec["snapshot"].as_str().unwrap()).unwrap();
        let board = snap["state"]["board"].as_array_mut().unwrap();
        let mut removed = 0;
        for cell in board.iter_mut() {
            if cell["owner"] == 1 {
                *cell = serde_json::Value::Null;
                removed += 1;
            }
        }
        assert!(removed >= 10, "the undead army was on the board");
        rec["snapshot"] = serde_json::Value::String(snap.to_string());
    });
    refused(
        &dir,
        "snapshot",
        &lines,
        "game #1: its stored position (snapshot)",
    );

    // 2. A seat given to another user (the undead side, who moved twice).
    let mut lines = real.clone();
    forge_record(&mut lines, 1, |rec| {
        rec["members"][1]["user"] = serde_json::json!({"id": 999_999, "name": "mallory"});
    });
    refused(
        &dir,
        "seat",
        &lines,
        "but the record gives the seat to user 999999",
    );

    // 3. A plain key line holding game #1's record (a copy with another
    //    snapshot), after the game's own line: it would overwrite the game.
    let mut lines = real.clone();
    let record = game_mut(&mut lines, 1).items[0].clone();
    let mut forged: serde_json::Value = serde_json::from_str(record.v.as_ref().unwrap()).unwrap();
    forged["snapshot"] = serde_json::Value::Null;
    forged["members"][1]["user"]["id"] = serde_json::json!(999_999);
    let (k, _) = record.raw().unwrap();
    push_before_end(
        &mut lines,
        Line::Key(Item::new(&k, forged.to_string().as_bytes())),
    );
    recount(&mut lines, 0, 1, 0);
    refused(
        &dir,
        "key-over-game",
        &lines,
        "a game's key or index key outside its game",
    );
    // ... or one of its log entries.
    let mut lines = real.clone();
    let entry = game_mut(&mut lines, 1).items[1].clone();
    push_before_end(&mut lines, Line::Key(entry));
    recount(&mut lines, 0, 1, 0);
    refused(
        &dir,
        "key-over-log",
        &lines,
        "a game's key or index key outside its game",
    );

    // 4. A garbage league record (valid JSON, not a league).
    let mut lines = real.clone();
    let league = lines
        .iter_mut()
        .find_map(|l| match l {
            Line::Tree(t) if t.tree == "leagues" && t.item.k.starts_with("4c") => Some(t),
            _ => None,
        })
        .expect("the league's record");
    league.item.v = Some("{\"format\":1,\"garbage\":[1,2,3]}".into());
    league.item.x = None;
    refused(
        &dir,
        "league",
        &lines,
        "leagues key 4c0000000000000001: league record",
    );

    // 5. Duplicate keys: a user's key line twice, a game's line twice, a log
    //    entry twice within its game (its record counting it).
    let mut lines = real.clone();
    let user = lines
        .iter()
        .find(|l| matches!(l, Line::Key(i) if i.k.starts_with("75")))
        .cloned()
        .unwrap();
    push_before_end(&mut lines, user);
    recount(&mut lines, 0, 1, 0);
    refused(&dir, "duplicate-key", &lines, "appears twice");

    let mut lines = real.clone();
    let game = Line::Game(game_mut(&mut lines, 2).clone());
    lines.insert(1, game);
    recount(&mut lines, 1, 0, 0);
    refused(&dir, "duplicate-game", &lines, "game #2 appears twice");

    let mut lines = real.clone();
    {
        let g = game_mut(&mut lines, 1);
        let twice = g.items[2].clone();
        g.items.insert(2, twice);
        let mut rec: serde_json::Value =
            serde_json::from_str(g.items[0].v.as_ref().unwrap()).unwrap();
        rec["log_len"] = serde_json::json!(rec["log_len"].as_u64().unwrap() + 1);
        g.items[0].v = Some(rec.to_string());
        reseal(g);
    }
    refused(&dir, "duplicate-log", &lines, "log entry 2 appears twice");

    // 6. A 300 MB line: refused once 16 MiB of it are read.
    let huge = dir.join("huge.backup");
    {
        let mut z = flate2::write::GzEncoder::new(
            std::fs::File::create(&huge).unwrap(),
            flate2::Compression::fast(),
        );
        serde_json::to_writer(&mut z, &real[0]).unwrap();
        z.write_all(b"\n{\"key\":{\"k\":\"7a\",\"v\":\"").unwrap();
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..300 {
            z.write_all(&chunk).unwrap();
        }
        z.write_all(b"\"}}\n").unwrap();
        serde_json::to_writer(&mut z, real.last().unwrap()).unwrap();
        z.write_all(b"\n").unwrap();
        z.finish().unwrap();
    }
    refused_file(&huge, "huge", "(line 2): a line longer than 16 MiB");
}
