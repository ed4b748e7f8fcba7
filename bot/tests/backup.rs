//! Backups (issue #17): taken while commands run, restored into a fresh
//! folder, every game loads and plays on as the original did; damaged or cut
//! backups change nothing; the format-1 fixture keeps loading; leagues and
//! server settings (named sled trees) come back with the rest (format 2).

mod common;
use common::*;
use std::path::{Path, PathBuf};
use tokar_bot::backup::{restore, service};
use tokar_bot::record::{GameRecord, LogEntry};
use tokar_bot::storage::{Store, StoreSettings};
use tokar_bot::table::replay;
use tokar_bot::Table;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/backup-1.backup"
);

const FIXTURE_2: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/backup-2.backup"
);

/// The players of game `n` (one pair a game, so `/play` needs no `game:`).
fn pair(n: usize) -> (String, String) {
    (format!("white{n}"), format!("black{n}"))
}

/// The first legal action of whoever is to act in game `id`, if any.
async fn next_action(table: &Table, id: u64, names: &[&str]) -> Option<(String, String)> {
    for n in names {
        let a = table
            .autocomplete(&user(n), &channel("table"), "action", "", Some(id))
            .await;
        if let Some((_, a)) = a.into_iter().next() {
            return Some((n.to_string(), a));
        }
    }
    None
}

/// Plays up to `moves` actions in game `id` through the table.
async fn play(table: Table, id: u64, n: usize, moves: usize) {
    let (a, b) = pair(n);
    for _ in 0..moves {
        let Some((who, action)) = next_action(&table, id, &[&a, &b]).await else {
            return;
        };
        let r = table
            .handle(request(&format!("@{who} /play action:\"{action}\"")))
            .await;
        assert!(r.iter().all(|r| r.ok), "{r:#?}");
    }
}

fn games_of(dir: &Path) -> Vec<(GameRecord, Vec<LogEntry>)> {
    let store = Store::open_existing(dir, &StoreSettings::default()).unwrap();
    (1..)
        .map_while(|id| store.game(id).unwrap().map(|r| (r, store.log(id).unwrap())))
        .collect()
}

fn state(rec: &GameRecord, log: &[LogEntry]) -> serde_json::Value {
    serde_json::to_value(replay(rec, log).unwrap()).unwrap()
}

const GAMES: usize = 4;

async fn started(name: &str) -> Env {
    let e = env(name).await;
    for n in 0..GAMES {
        let (a, b) = pair(n);
        assert_eq!(e.start(&a, &b).await, n as u64 + 1);
    }
    e
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_while_commands_run_restores_and_plays_on() {
    let e = started("backup-live").await;
    let file = e.dir.join("live.backup");
    let movers: Vec<_> = (0..GAMES)
        .map(|n| tokio::spawn(play(e.table.clone(), n as u64 + 1, n, 12)))
        .collect();
    // Taken while the movers play (each move is a few milliseconds).
    tokio::time::sleep(std::time::Duration::from_millis(30)).await;
    let summary = service::take(&e.table, &e.dir, Some(file.clone()), 7)
        .await
        .unwrap();
    for m in movers {
        m.await.unwrap();
    }
    assert_eq!(summary.games, GAMES as u64);
    let dir = e.dir.clone();
    drop(e);
    let original = games_of(&dir);

    let restored_dir = fresh_dir("backup-live-restored");
    let r = restore::restore_all(&file, &restored_dir).unwrap();
    assert_eq!(r.games, GAMES as u64);
    let restored = games_of(&restored_dir);
    assert_eq!(restored.len(), GAMES);
    let mut behind = 0;
    for ((orec, olog), (rrec, rlog)) in original.iter().zip(&restored) {
        // Each game as it was at one moment: its record and log agree, and
        // its log is the start of the original's.
        assert_eq!(rrec.log_len as usize, rlog.len(), "game #{}", rrec.id);
        assert_eq!(&olog[..rlog.len()], &rlog[..], "game #{}", rrec.id);
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(rrec.snapshot.as_ref().unwrap()).unwrap(),
            state(rrec, rlog),
            "game #{}: snapshot and log agree",
            rrec.id
        );
        if rlog.len() < olog.len() {
            behind += 1;
        }
        assert_eq!(orec.seed, rrec.seed);
    }

    // Every restored game plays on: the original's next action gives the
    // original's next state (same dice, same sentences).
    let r = open(&restored_dir, Some(7)).await;
    for (orec, olog) in &original {
        let id = orec.id;
        let (a, b) = pair(id as usize - 1);
        let done = restored[id as usize - 1].1.len();
        let (who, action) = match olog.get(done) {
            Some(next) => {
                let who = if next.user == user(&a).id { a } else { b };
                let tokar_bot::record::LogAction::Play(action) = &next.action else {
                    panic!("only plays in this test");
                };
                (who, action.clone())
            }
            None => next_action(&r.table, id, &[&a, &b]).await.unwrap(),
        };
        r.ok(&format!("@{who} /play action:\"{action}\"")).await;
    }
    let dir2 = r.dir.clone();
    drop(r);
    let mut compared = 0;
    for ((orec, olog), (rrec, rlog)) in original.iter().zip(games_of(&dir2)) {
        // A game the backup caught before the original's last move: the same
        // action gives the same entry (dice, sentences) and the same state.
        if rlog.len() <= olog.len() {
            assert_eq!(
                &olog[..rlog.len()],
                &rlog[..],
                "game #{} plays on as the original",
                orec.id
            );
            assert_eq!(state(orec, &olog[..rlog.len()]), state(&rrec, &rlog));
            compared += 1;
        }
    }
    assert_eq!(compared, behind);
    // The backup was taken during play: some game went on after it (a
    // backup taken before or after all moves would test nothing here).
    assert!(
        behind > 0,
        "the backup was not taken while games were played"
    );
    // The next game number follows the restored ones.
    let r = open(&dir2, Some(7)).await;
    let n = r.ok("@zed /new game:arcana army:human opponent:@yan").await;
    assert!(
        n[0].content.contains(&format!("#{}", GAMES + 1)),
        "{}",
        n[0].content
    );
}

#[tokio::test]
async fn a_restored_store_answers_the_next_command_as_the_original() {
    let e = started("backup-same").await;
    play(e.table.clone(), 2, 1, 5).await;
    let file = e.dir.join("same.backup");
    service::take(&e.table, &e.dir, Some(file.clone()), 7)
        .await
        .unwrap();
    let restored_dir = fresh_dir("backup-same-restored");
    restore::restore_all(&file, &restored_dir).unwrap();
    let r = open(&restored_dir, Some(7)).await;
    let (a, b) = pair(1);
    let (who, action) = next_action(&e.table, 2, &[&a, &b]).await.unwrap();
    let line = format!("@{who} /play action:\"{action}\"");
    let before: Vec<_> = e.ok(&line).await;
    let after: Vec<_> = r.ok(&line).await;
    let text = |v: &[tokar_bot::Reply]| -> Vec<(String, bool, usize)> {
        v.iter()
            .map(|r| (r.content.clone(), r.ok, r.images.len()))
            .collect()
    };
    assert_eq!(text(&before), text(&after));
    let (d1, d2) = (e.dir.clone(), r.dir.clone());
    drop((e, r));
    let (o, n) = (games_of(&d1), games_of(&d2));
    assert_eq!(o, n, "the same records and logs after the same command");
}

/// Unpacks a backup to its lines, changes them, packs them again.
fn rewrite(file: &Path, to: &Path, change: impl Fn(&mut Vec<String>)) {
    use std::io::{Read, Write};
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(file).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    change(&mut lines);
    let mut z = flate2::write::GzEncoder::new(
        std::fs::File::create(to).unwrap(),
        flate2::Compression::default(),
    );
    for l in lines {
        writeln!(z, "{l}").unwrap();
    }
    z.finish().unwrap();
}

async fn small_backup(name: &str) -> (PathBuf, PathBuf) {
    let e = started(name).await;
    play(e.table.clone(), 1, 0, 3).await;
    let file = e.dir.join("small.backup");
    service::take(&e.table, &e.dir, Some(file.clone()), 7)
        .await
        .unwrap();
    (e.dir.clone(), file)
}

#[tokio::test]
async fn a_damaged_or_cut_backup_is_refused_and_changes_nothing() {
    let (dir, file) = small_backup("backup-damaged").await;
    let damaged = dir.join("damaged.backup");
    rewrite(&file, &damaged, |lines| {
        let g = lines
            .iter_mut()
            .find(|l| l.starts_with("{\"game\""))
            .unwrap();
        // One changed letter in a sentence of the log: still JSON, wrong sum.
        let at = g.find("\\\"text\\\":[\\\"").expect("a log entry with text") + 12;
        let c = g.as_bytes()[at];
        g.replace_range(at..at + 1, if c == b'X' { "Y" } else { "X" });
    });
    let target = fresh_dir("backup-damaged-target");
    let e = restore::restore_all(&damaged, &target).unwrap_err();
    assert!(e.contains("game #1: checksum does not match"), "{e}");
    assert!(!target.join("db").exists(), "nothing written");

    let cut = dir.join("cut.backup");
    rewrite(&file, &cut, |lines| {
        lines.pop();
    });
    let e = restore::restore_all(&cut, &target).unwrap_err();
    assert!(e.contains("cut short"), "{e}");

    let newer = dir.join("newer.backup");
    rewrite(&file, &newer, |lines| {
        let today = format!("\"format\":{}", tokar_bot::backup::FORMAT);
        assert!(lines[0].contains(&today), "{}", lines[0]);
        lines[0] = lines[0].replace(&today, "\"format\":99");
    });
    let e = restore::restore_all(&newer, &target).unwrap_err();
    assert!(e.contains("backup format 99 is newer"), "{e}");

    std::fs::write(dir.join("plain.backup"), b"not a backup").unwrap();
    assert!(restore::restore_all(&dir.join("plain.backup"), &target).is_err());
    assert!(!target.join("db").exists(), "nothing written");
}

#[tokio::test]
async fn a_backup_goes_only_into_an_empty_store() {
    let (_, file) = small_backup("backup-into-used").await;
    let used = env("backup-into-used-target").await;
    used.start("amy", "ben").await;
    let dir = used.dir.clone();
    drop(used);
    let e = restore::restore_all(&file, &dir).unwrap_err();
    assert!(e.contains("not empty"), "{e}");
    // The folder's own game is untouched.
    assert_eq!(games_of(&dir).len(), 1);
}

#[tokio::test]
async fn a_lost_database_comes_back_from_the_daily_backup() {
    let e = started("backup-lost").await;
    // As the daily task does: into <data>/backups/, keeping the last N.
    for _ in 0..3 {
        service::take(&e.table, &e.dir, None, 2).await.unwrap();
    }
    let backups = service::list(&service::backups_dir(&e.dir));
    assert_eq!(backups.len(), 2, "{backups:?}");
    let dir = e.dir.clone();
    let before = games_of_open(&e).await;
    drop(e);
    std::fs::remove_dir_all(dir.join("db")).unwrap();
    restore::restore_all(backups.last().unwrap(), &dir).unwrap();
    // The marker agrees: the folder opens without TOKAR_FRESH_STORE.
    let e = open(&dir, Some(7)).await;
    assert_eq!(games_of_open(&e).await, before);
}

/// Each game's board, as players see it.
async fn games_of_open(e: &Env) -> Vec<String> {
    let mut out = Vec::new();
    for n in 0..GAMES {
        let (a, _) = pair(n);
        out.push(e.ok(&format!("@{a} /board")).await[0].content.clone());
    }
    out
}

/// Not a check: wrote the format-1 fixture, with the build of Tokar that
/// wrote format 1. Kept as the record of what the fixture holds; today's
/// build writes format 2 (see `write_fixture_2`), so do not run it again.
#[tokio::test]
#[ignore = "wrote the format-1 fixture with a format-1 build; do not run again"]
async fn write_fixture() {
    let e = env("backup-fixture-write").await;
    e.start("alice", "bob").await;
    for _ in 0..2 {
        let (who, action) = next_action(&e.table, 1, &["alice", "bob"]).await.unwrap();
        e.ok(&format!("@{who} /play action:\"{action}\"")).await;
    }
    e.ok("@carol /new game:arcana army:human opponent:@dave")
        .await;
    e.ok("@bob /settings reminder:12h").await;
    service::take(&e.table, &e.dir, Some(PathBuf::from(FIXTURE)), 7)
        .await
        .unwrap();
}

#[tokio::test]
async fn the_format_1_fixture_restores_and_plays_on() {
    let (header, end) = restore::verify(Path::new(FIXTURE)).unwrap();
    assert_eq!(header.format, 1);
    assert_eq!(end.games, 2);
    let dir = fresh_dir("backup-fixture-1");
    restore::restore_all(Path::new(FIXTURE), &dir).unwrap();
    let e = open(&dir, Some(7)).await;
    let h = e.ok("@alice /history game:1").await;
    assert!(h[0].content.contains("\n2. "), "{}", h[0].content);
    let s = e.ok("@bob /settings").await;
    assert!(s[0].content.contains("every 12h"), "{}", s[0].content);
    let lobby = e.ok("@carol /board game:2").await;
    assert!(lobby[0].content.contains("#2"), "{}", lobby[0].content);
    let (who, action) = next_action(&e.table, 1, &["alice", "bob"]).await.unwrap();
    e.ok(&format!("@{who} /play action:\"{action}\"")).await;
    let h = e.ok("@alice /history game:1").await;
    assert!(h[0].content.contains("\n3. "), "{}", h[0].content);
    let n = e
        .ok("@erin /new game:arcana army:human opponent:@fay")
        .await;
    assert!(n[0].content.contains("#3"), "{}", n[0].content);
}

/// `tokar backup` beside a running bot: the store is locked to the bot's
/// process, so the command asks the bot over its control socket, and the
/// bot writes the backup.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokar_backup_asks_the_running_bot() {
    let e = started("backup-socket").await;
    tokio::spawn(service::serve(e.table.clone(), e.dir.clone(), 7));
    let socket = e.dir.join(service::SOCKET);
    for _ in 0..100 {
        if socket.exists() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let file = e.dir.join("asked.backup");
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_tokar"))
        .args(["backup", "--data"])
        .arg(&e.dir)
        .arg("--to")
        .arg(&file)
        .output()
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("by the running Tokar"), "{stdout}");
    assert!(stdout.contains(&format!("{GAMES} game(s)")), "{stdout}");
    let (_, end) = restore::verify(&file).unwrap();
    assert_eq!(end.games, GAMES as u64);
    // Into the bot's own folder, named and kept as the daily ones.
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_tokar"))
        .args(["backup", "--data"])
        .arg(&e.dir)
        .output()
        .await
        .unwrap();
    assert!(out.status.success());
    assert_eq!(service::list(&service::backups_dir(&e.dir)).len(), 1);
    // A request the bot does not know is answered, not obeyed.
    let answer = tokio::task::spawn_blocking({
        let socket = socket.clone();
        move || {
            use std::io::{BufRead, Write};
            let mut s = std::os::unix::net::UnixStream::connect(socket).unwrap();
            s.write_all(b"delete everything\n").unwrap();
            let mut line = String::new();
            std::io::BufReader::new(s).read_line(&mut line).unwrap();
            line
        }
    })
    .await
    .unwrap();
    assert!(answer.starts_with("error unknown request"), "{answer}");
}

/// A server's channel, for `/server` (its settings are the server's).
fn in_server(name: &str) -> tokar_bot::ChannelRef {
    tokar_bot::ChannelRef {
        guild: Some(SERVER),
        ..channel(name)
    }
}

const SERVER: u64 = 4_242;

/// Runs `line` in the server's #table as someone who may manage the server.
async fn as_manager(e: &Env, line: &str) -> Vec<tokar_bot::Reply> {
    let mut req = request(line);
    req.channel = in_server("table");
    req.manage_server = true;
    let r = e.table.handle(req).await;
    assert!(r.iter().all(|r| r.ok), "{line}: {r:#?}");
    r
}

/// A league of three started (alice, bob, carol: three games) and the
/// server's threads switched off, through the table.
async fn with_league_and_setting(e: &Env) {
    e.ok("@alice /league new game:arachne name:Webs players:@alice @bob @carol")
        .await;
    e.ok("@bob /league accept name:Webs").await;
    e.ok("@carol /league accept name:Webs").await;
    let r = as_manager(e, "@owner /server threads:off").await;
    assert!(r[0].content.contains("are off"), "{}", r[0].content);
}

/// What a player sees of the league and the server's setting.
async fn league_and_setting(e: &Env) -> (String, String) {
    let t = e.ok("@carol /league table name:Webs").await;
    let s = as_manager(e, "@owner /server").await;
    (t[0].content.clone(), s[0].content.clone())
}

#[tokio::test]
async fn leagues_and_server_settings_come_back_from_a_backup() {
    let e = env("backup-trees").await;
    with_league_and_setting(&e).await;
    let (table, setting) = league_and_setting(&e).await;
    assert!(table.contains("0 of 3 games played"), "{table}");
    assert!(setting.contains("are off"), "{setting}");
    let file = e.dir.join("trees.backup");
    let summary = service::take(&e.table, &e.dir, Some(file.clone()), 7)
        .await
        .unwrap();
    // The league's record and its three games' keys, its counter, the server.
    assert!(summary.tree_keys >= 6, "{summary}");
    assert!(
        summary
            .to_string()
            .contains(&format!("{} key(s) in named trees", summary.tree_keys)),
        "{summary}"
    );
    let dir = fresh_dir("backup-trees-restored");
    let r = restore::restore_all(&file, &dir).unwrap();
    assert_eq!(r.tree_keys, summary.tree_keys);
    let restored = open(&dir, Some(7)).await;
    assert_eq!(league_and_setting(&restored).await, (table, setting));
    // The league counter came back too: a new league gets the next number.
    restored
        .ok("@dave /league new game:arcana name:Next players:@dave @erin")
        .await;
    let list = restored.ok("@dave /league list").await;
    assert!(
        list[0].content.contains("Webs") && list[0].content.contains("Next"),
        "{}",
        list[0].content
    );
    drop(restored);
    let store = Store::open_existing(&dir, &StoreSettings::default()).unwrap();
    let ids: Vec<u64> = store.leagues().unwrap().iter().map(|l| l.id).collect();
    assert_eq!(ids, [1, 2], "the league counter came back with the league");
}

#[tokio::test]
async fn a_cut_or_miscounted_format_2_backup_is_refused_and_changes_nothing() {
    let e = env("backup-trees-cut").await;
    with_league_and_setting(&e).await;
    let file = e.dir.join("trees.backup");
    service::take(&e.table, &e.dir, Some(file.clone()), 7)
        .await
        .unwrap();
    let target = fresh_dir("backup-trees-cut-target");
    let tree_line = |l: &String| l.starts_with("{\"tree\"");

    // Cut among the named trees' keys: no end line.
    let cut = e.dir.join("cut.backup");
    rewrite(&file, &cut, |lines| {
        let first = lines.iter().position(tree_line).expect("tree keys");
        lines.truncate(first + 1);
    });
    let err = restore::restore_all(&cut, &target).unwrap_err();
    assert!(err.contains("cut short"), "{err}");

    // One tree key dropped, the end line kept: the counts disagree.
    let short = e.dir.join("short.backup");
    rewrite(&file, &short, |lines| {
        let first = lines.iter().position(tree_line).expect("tree keys");
        lines.remove(first);
    });
    let err = restore::restore_all(&short, &target).unwrap_err();
    assert!(err.contains("tree key(s)"), "{err}");

    // Named trees in a file that says it is format 1, which had none.
    let relabelled = e.dir.join("relabelled.backup");
    rewrite(&file, &relabelled, |lines| {
        lines[0] = lines[0].replace("\"format\":2", "\"format\":1");
    });
    let err = restore::restore_all(&relabelled, &target).unwrap_err();
    assert!(err.contains("a named tree in a format-1 backup"), "{err}");
    assert!(!target.join("db").exists(), "nothing written");
}

/// Not a check: writes the format-2 fixture. Run only when adding a format
/// (into a new file; the old fixtures stay).
#[tokio::test]
#[ignore = "writes the fixture; run with --ignored when adding a format"]
async fn write_fixture_2() {
    let e = env("backup-fixture-2-write").await;
    e.start("alice", "bob").await;
    let (who, action) = next_action(&e.table, 1, &["alice", "bob"]).await.unwrap();
    e.ok(&format!("@{who} /play action:\"{action}\"")).await;
    with_league_and_setting(&e).await;
    service::take(&e.table, &e.dir, Some(PathBuf::from(FIXTURE_2)), 7)
        .await
        .unwrap();
}

#[tokio::test]
async fn the_format_2_fixture_restores_with_its_league_and_setting() {
    let (header, end) = restore::verify(Path::new(FIXTURE_2)).unwrap();
    assert_eq!(header.format, 2);
    // Game 1, then the league's three.
    assert_eq!(end.games, 4);
    assert!(end.tree_keys >= 6, "{end:?}");
    let dir = fresh_dir("backup-fixture-2");
    restore::restore_all(Path::new(FIXTURE_2), &dir).unwrap();
    let e = open(&dir, Some(7)).await;
    let (table, setting) = league_and_setting(&e).await;
    assert!(table.contains("0 of 3 games played, 3 left"), "{table}");
    assert!(setting.contains("are off"), "{setting}");
    let h = e.ok("@alice /history game:1").await;
    assert!(h[0].content.contains("1. "), "{}", h[0].content);
    let n = e
        .ok("@erin /new game:arcana army:human opponent:@fay")
        .await;
    assert!(n[0].content.contains("#5"), "{}", n[0].content);
}
