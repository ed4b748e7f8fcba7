//! The resident memory of a large store: run by hand, not in CI (the store
//! takes minutes to build). Figures and how they were taken: docs/bench/memory.md.
//!
//! ```sh
//! cargo run -p tokar-bot --example memory -- build --data /tmp/tokar-mem --games 100000
//! cargo run -p tokar-bot --example memory -- run --data /tmp/tokar-mem --commands 10000
//! ```
//!
//! `build` fills a data folder with copies of one Arcana game in progress
//! (six actions played), each with its own two players and channel, written
//! straight into the store. `run` is a fresh process: it prints the resident
//! memory (VmRSS) before the table opens, after it opens and runs its
//! start-up sweep, and after `--commands` `/play` commands in games drawn at
//! random, each through `Table::handle` as a player's would go. The sled
//! cache follows `TOKAR_CACHE_MB` (default 64). `every --games N` opens the
//! table and plays one action in every one of the N games, failing if any
//! game does not load or play: with `TOKAR_DATABASE_URL` set, on PostgreSQL
//! (`scripts/migrate-roundtrip.sh` checks a store moved by `tokar migrate`).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;
use tokar_bot::clock::VirtualClock;
use tokar_bot::record::{encode, Named, UserRecord};
use tokar_bot::storage::{Store, StoreSettings};
use tokar_bot::{ChannelRef, Request, Table, TableConfig, UserRef};

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn report(what: &str) {
    println!("{what}: VmRSS {:.1} MiB", rss_kib() as f64 / 1024.0);
}

/// The two players and the channel of copy `id`.
fn player(id: u64, n: u64) -> UserRef {
    UserRef {
        id: 20_000_000 + 2 * id + n,
        name: format!("p{}", 2 * id + n),
    }
}

fn channel(id: u64) -> ChannelRef {
    ChannelRef::new(10_000_000 + id, format!("c{id}"))
}

async fn table(dir: &Path) -> Table {
    Table::open(TableConfig {
        data_dir: dir.to_path_buf(),
        clock: Arc::new(VirtualClock::open(dir).expect("clock")),
        seed: Some(1),
        robot: Default::default(),
        storage: StoreSettings::from_env().expect("settings"),
    })
    .await
    .expect("table")
}

fn request(
    user: &UserRef,
    channel: &ChannelRef,
    command: &str,
    options: &[(&str, &str)],
) -> Request {
    let pairs: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Request {
        user: user.clone(),
        channel: channel.clone(),
        command: tokar_bot::Command::parse(command, &pairs)
            .unwrap_or_else(|r| panic!("/{command} does not read: {r}")),
        interaction_token: None,
        manage_server: false,
    }
}

/// Plays the first legal action of whoever is to act in game `id`.
async fn play_one(t: &Table, id: u64, ch: &ChannelRef, players: [UserRef; 2]) -> bool {
    for u in players {
        let acts = t.autocomplete(&u, ch, "action", "", Some(id)).await;
        if let Some((_, a)) = acts.into_iter().next() {
            let game = id.to_string();
            let r = t
                .handle(request(&u, ch, "play", &[("action", &a), ("game", &game)]))
                .await;
            return r.iter().all(|r| r.ok);
        }
    }
    false
}

/// Replaces the template's player ids (and names) by copy `id`'s, wherever they occur.
fn renumber(v: &mut Value, from: [u64; 2], to: [&UserRef; 2]) {
    match v {
        Value::Number(n) => {
            for i in 0..2 {
                if n.as_u64() == Some(from[i]) {
                    *v = Value::from(to[i].id);
                    return;
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| renumber(x, from, to)),
        Value::Object(o) => o.values_mut().for_each(|x| renumber(x, from, to)),
        _ => {}
    }
}

async fn build(dir: &Path, games: u64) {
    let template_dir = dir.with_extension("template");
    let _ = std::fs::remove_dir_all(&template_dir);
    std::fs::create_dir_all(&template_dir).expect("template folder");
    let t = table(&template_dir).await;
    let (a, b, ch) = (player(0, 0), player(0, 1), channel(0));
    for u in [&a, &b] {
        t.remember_user(u).await.expect("user");
    }
    let opp = format!("<@{}>", b.id);
    let r = t
        .handle(request(
            &a,
            &ch,
            "new",
            &[("game", "arcana"), ("army", "human"), ("opponent", &opp)],
        ))
        .await;
    assert!(r[0].ok, "{}", r[0].content);
    let r = t
        .handle(request(&b, &ch, "accept", &[("army", "undead")]))
        .await;
    assert!(r[0].ok, "{}", r[0].content);
    for _ in 0..6 {
        assert!(play_one(&t, 1, &ch, [a.clone(), b.clone()]).await);
    }
    drop(t);
    let template = Store::open(&template_dir)
        .expect("template store")
        .dump_game(1)
        .expect("dump");

    std::fs::create_dir_all(dir).expect("data folder");
    let store = Store::open(dir).expect("store");
    let start = Instant::now();
    let mut batch = Vec::new();
    for id in 1..=games {
        let (pa, pb) = (player(id, 0), player(id, 1));
        for (k, v) in &template {
            let mut value: Value = serde_json::from_slice(v).expect("json");
            renumber(&mut value, [a.id, b.id], [&pa, &pb]);
            let mut key = k.clone();
            key[1..9].copy_from_slice(&id.to_be_bytes());
            if k[0] == b'g' {
                value["id"] = id.into();
                value["channel"] =
                    serde_json::json!({"id": channel(id).id, "name": channel(id).name});
                for (m, u) in value["members"]
                    .as_array_mut()
                    .expect("members")
                    .iter_mut()
                    .zip([&pa, &pb])
                {
                    m["user"]["name"] = u.name.clone().into();
                }
            }
            batch.push((key, serde_json::to_vec(&value).expect("json")));
        }
        for u in [&pa, &pb] {
            let mut key = vec![b'u'];
            key.extend_from_slice(&u.id.to_be_bytes());
            batch.push((
                key,
                encode(&UserRecord::new(Named {
                    id: u.id,
                    name: u.name.clone(),
                })),
            ));
        }
        if id % 1000 == 0 || id == games {
            store.load_dump(&batch).expect("load");
            batch.clear();
        }
    }
    println!(
        "built {games} games in {:.1} s",
        start.elapsed().as_secs_f64()
    );
}

async fn run(dir: &Path, commands: u64) {
    report("before the table opens");
    let start = Instant::now();
    let t = table(dir).await;
    t.tick().await;
    report(&format!(
        "after open and the start-up sweep ({:.1} s)",
        start.elapsed().as_secs_f64()
    ));
    // The marker, refreshed at open, counts the games.
    let games = tokar_bot::marker::read(dir)
        .expect("marker")
        .map_or(1, |m| m.games.max(1));
    let mut rng = tokar_engine::Rng::new(17);
    let start = Instant::now();
    let (mut played, mut tried) = (0u64, 0u64);
    while played < commands && tried < commands * 3 {
        tried += 1;
        let id = 1 + rng.below(games);
        if play_one(&t, id, &channel(id), [player(id, 0), player(id, 1)]).await {
            played += 1;
            if played % 2000 == 0 {
                report(&format!("after {played} commands"));
            }
        }
    }
    report(&format!(
        "after {played} /play commands in games drawn among {games} ({:.1} s)",
        start.elapsed().as_secs_f64()
    ));
}

/// Plays one action in each of games 1..=`games`; exits non-zero if any fails.
async fn every(dir: &Path, games: u64) {
    std::fs::create_dir_all(dir).expect("data folder");
    let start = Instant::now();
    let t = table(dir).await;
    let mut failed = Vec::new();
    for id in 1..=games {
        if !play_one(&t, id, &channel(id), [player(id, 0), player(id, 1)]).await {
            failed.push(id);
        }
    }
    println!(
        "{games} games loaded and played on in {:.1} s; {} failed{}",
        start.elapsed().as_secs_f64(),
        failed.len(),
        if failed.is_empty() {
            String::new()
        } else {
            format!(": {:?}", &failed[..failed.len().min(10)])
        }
    );
    if !failed.is_empty() {
        std::process::exit(1);
    }
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |name: &str, default: &str| -> String {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
            .unwrap_or_else(|| default.to_string())
    };
    let dir = PathBuf::from(get("--data", "/tmp/tokar-memory"));
    match args.first().map(String::as_str) {
        Some("build") => build(&dir, get("--games", "100000").parse().expect("--games N")).await,
        Some("run") => {
            run(
                &dir,
                get("--commands", "10000").parse().expect("--commands N"),
            )
            .await
        }
        Some("every") => every(&dir, get("--games", "100000").parse().expect("--games N")).await,
        _ => eprintln!("usage: memory build|run|every [--data DIR] [--games N] [--commands N]"),
    }
}
