//! The real `tokar` binary in console mode, killed with SIGKILL while commands
//! stream in, restarted: every acknowledged action is still there, and every
//! stored action's announcement is printed, if not before the kill then from
//! the outbox at the next start.
//!
//! One kill by default; `TOKAR_CRASH_KILLS=400` (`scripts/crash.sh`) kills
//! that many times, each in a fresh folder at another point of the stream.
//! The same run is made on sled and on PostgreSQL (`TOKAR_DATABASE_URL`).

mod common;
#[path = "common/postgres.rs"]
mod postgres;
use common::*;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;

/// A legal sequence of (user, action) for game #1 under `--seed 11`, found by
/// playing it on an in-process table with the same seed.
async fn script(len: usize) -> Vec<(String, String)> {
    let e = open(&fresh_dir("crash-script"), Some(11)).await;
    let id = e.start("alice", "bob").await;
    assert_eq!(id, 1);
    let mut out = Vec::new();
    while out.len() < len {
        let Some(who) = e.to_act(id, &["alice", "bob"]).await else {
            break;
        };
        let acts = e.actions(who, id).await;
        let a = acts[out.len() * 7 % acts.len()].clone();
        e.ok(&format!("@{who} /play action:\"{a}\"")).await;
        out.push((who.to_string(), a));
    }
    out
}

struct Bot {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<serde_json::Value>,
}

/// The `tokar` console on `dir`, its store in PostgreSQL at `database` if given.
fn spawn(dir: &std::path::Path, database: Option<&str>) -> Bot {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tokar"));
    match database {
        Some(url) => cmd.env("TOKAR_DATABASE_URL", url),
        None => cmd.env_remove("TOKAR_DATABASE_URL"),
    };
    let mut child = cmd
        .args(["console", "--json", "--seed", "11", "--data"])
        .arg(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let v: serde_json::Value = serde_json::from_str(&line).expect("one JSON object a line");
            if tx.send(v).is_err() {
                break;
            }
        }
    });
    Bot {
        child,
        stdin,
        lines: rx,
    }
}

impl Bot {
    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn next(&self) -> serde_json::Value {
        self.lines
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the bot answers")
    }
}

#[tokio::test]
async fn acknowledged_actions_survive_sigkill() {
    kills(None).await;
}

#[tokio::test]
async fn acknowledged_actions_survive_sigkill_on_postgres() {
    let server = postgres::shared("crash");
    kills(Some(&*server)).await;
}

/// The kills, on sled or on the PostgreSQL `server` (a fresh store each).
async fn kills(server: Option<&postgres::Server>) {
    let moves = script(40).await;
    assert!(moves.len() >= 10, "the game lasts long enough to test");
    let kills: usize = std::env::var("TOKAR_CRASH_KILLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let mut acknowledged = 0;
    for round in 0..kills {
        // The first kill comes halfway, as it always did; later ones anywhere.
        let at = if round == 0 {
            moves.len() / 2
        } else {
            1 + (round * 7) % (moves.len() - 1)
        };
        let database = server.map(|s| s.fresh_store(&format!("crash_{round}")));
        acknowledged += kill_once(&moves, at, round, database.as_deref()).await;
    }
    eprintln!("crash: {kills} kills, {acknowledged} actions acknowledged, 0 lost");
}

/// Streams every move to a fresh bot, kills it once `half` are acknowledged,
/// restarts it and checks that none of them was lost; returns how many were
/// acknowledged.
async fn kill_once(
    moves: &[(String, String)],
    half: usize,
    round: usize,
    database: Option<&str>,
) -> usize {
    let store = if database.is_some() { "pg" } else { "sled" };
    let dir = fresh_dir(&format!("crash-{store}-{round}"));
    let mut bot = spawn(&dir, database);
    // Played in its channel: the restart of a game's thread is tested in threads.rs.
    bot.send("@alice /server threads:off");
    assert_eq!(bot.next()["ok"], true);
    bot.send(&format!(
        "@alice /new game:{GAME} {CREATOR_OPTIONS} opponent:@bob"
    ));
    let v = bot.next();
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["mentions"], serde_json::json!(["bob"]));
    assert_eq!(
        v.as_object().unwrap().keys().cloned().collect::<Vec<_>>(),
        [
            "buttons",
            "channel",
            "content",
            "ephemeral_to",
            "images",
            "mentions",
            "ok"
        ]
    );
    bot.send(&format!("@bob /accept {ACCEPT_OPTIONS}"));
    assert_eq!(bot.next()["ok"], true);
    // Stream every move without waiting, read a few answers, then kill.
    for (who, a) in moves {
        bot.send(&format!("@{who} /play action:\"{a}\""));
    }
    let mut acknowledged = 0;
    while acknowledged < half {
        let v = bot.next();
        if v["ephemeral_to"].is_null()
            && v["ok"] == true
            && v["content"].as_str().unwrap().contains(" plays ")
        {
            acknowledged += 1;
        } else {
            assert_eq!(v["ok"], true, "an unexpected answer: {v}");
        }
    }
    bot.child.kill().unwrap(); // SIGKILL
    bot.child.wait().unwrap();
    // What the killed process printed and this test had not read yet.
    let mut announced: Vec<String> = Vec::new();
    while let Ok(v) = bot
        .lines
        .recv_timeout(std::time::Duration::from_millis(300))
    {
        announced.extend(v["content"].as_str().map(str::to_owned));
    }

    let mut bot = spawn(&dir, database);
    bot.send("@alice /export game:1");
    // Announcements stored but not printed before the kill come first.
    let v = loop {
        let v = bot.next();
        let content = v["content"].as_str().unwrap_or_default();
        if content.contains("tokar1|") {
            break v;
        }
        assert!(
            content.contains(" plays "),
            "only announcements come before: {v}"
        );
        announced.push(content.to_owned());
    };
    let content = v["content"].as_str().unwrap();
    let record = content.split('`').nth(1).unwrap().trim_matches('"');
    let stored: Vec<&str> = record
        .split('|')
        .skip(4)
        .map(|a| a.split_once(':').unwrap().1)
        .collect();
    assert!(
        stored.len() >= acknowledged,
        "{} stored, {acknowledged} acknowledged",
        stored.len()
    );
    for (i, s) in stored.iter().enumerate() {
        assert_eq!(*s, moves[i].1, "action {} differs", i + 1);
    }
    // Announcements read before the kill were counted in `acknowledged`; every
    // stored action after those was announced by the dying process or by the
    // new one's outbox.
    for (i, s) in stored.iter().enumerate().skip(acknowledged) {
        let (who, _) = &moves[i];
        assert!(
            announced
                .iter()
                .any(|c| c.contains(&format!("{who} (")) && c.contains(&format!(" plays {s}"))),
            "stored action {} ({s}) was never announced; announced: {announced:#?}",
            i + 1
        );
    }
    // Play on from where it stopped.
    let (who, a) = &moves[stored.len().min(moves.len() - 1)];
    if stored.len() < moves.len() {
        bot.send(&format!("@{who} /play action:\"{a}\""));
        assert_eq!(bot.next()["ok"], true);
    }
    bot.send("@alice /frob");
    let v = bot.next();
    assert_eq!(v["ok"], false);
    drop(bot.stdin);
    assert!(bot.child.wait().unwrap().success());
    let _ = std::fs::remove_dir_all(&dir);
    acknowledged
}
