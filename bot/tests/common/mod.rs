//! Shared helpers for the table tests: a table on a fresh folder with a
//! virtual clock, and commands written as on the console (`@alice /board`).

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::Arc;
use tokar_bot::clock::VirtualClock;
use tokar_bot::console::{parse_line, Line};
use tokar_bot::{ChannelRef, Command, Reply, Request, Table, TableConfig, UserRef};

/// The game these tests play, and each side's options.
pub const GAME: &str = "arcana";
pub const CREATOR_OPTIONS: &str = "army:human";
pub const ACCEPT_OPTIONS: &str = "army:undead";

pub struct Env {
    pub dir: PathBuf,
    pub clock: Arc<VirtualClock>,
    pub table: Table,
}

/// An empty data folder for one test, under cargo's own scratch folder for
/// tests (`target/tmp`), emptied when the test starts again: each test reuses
/// its folder instead of leaving a new one in the system's temp folder on
/// every run (and `cargo clean` removes them all).
pub fn fresh_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("tokar-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub async fn open(dir: &std::path::Path, seed: Option<u64>) -> Env {
    open_with(dir, seed, Default::default()).await
}

/// A table on `dir` with these store settings (a PostgreSQL store, say).
pub async fn open_with(
    dir: &std::path::Path,
    seed: Option<u64>,
    storage: tokar_bot::storage::StoreSettings,
) -> Env {
    let clock = Arc::new(VirtualClock::open(dir).unwrap());
    let table = Table::open(TableConfig {
        data_dir: dir.to_path_buf(),
        storage,
        clock: clock.clone(),
        seed,
        robot: Default::default(),
    })
    .await
    .unwrap();
    Env {
        dir: dir.to_path_buf(),
        clock,
        table,
    }
}

pub async fn env(name: &str) -> Env {
    open(&fresh_dir(name), Some(7)).await
}

/// Stable ids for test users: a small hash of the name.
pub fn user(name: &str) -> UserRef {
    let id = name
        .bytes()
        .fold(17u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64))
        % 1_000_000
        + 1;
    UserRef {
        id,
        name: name.to_string(),
    }
}

pub fn channel(name: &str) -> ChannelRef {
    ChannelRef::new(user(name).id + 5_000_000, name)
}

/// A console line as a request, or (as the console answers it) the refusal of a
/// command whose text does not read.
pub fn read_request(line: &str) -> Result<Request, Box<Reply>> {
    match parse_line(line).unwrap() {
        Line::Command {
            user: u,
            channel: c,
            command,
            options,
        } => {
            let (user, channel) = (user(&u), channel(c.as_deref().unwrap_or("table")));
            let options: Vec<(String, String)> = options
                .into_iter()
                .map(|(k, v)| match v.strip_prefix('@') {
                    Some(n) => (k, format!("<@{}>", self::user(n).id)),
                    None => (k, v),
                })
                .collect();
            match Command::parse(&command, &options) {
                Ok(command) => Ok(Request {
                    user,
                    channel,
                    command,
                    interaction_token: None,
                    manage_server: false,
                }),
                Err(refusal) => Err(Box::new(Reply::refusal(
                    &channel,
                    &user,
                    refusal.into_text(),
                ))),
            }
        }
        other => panic!("not a command line: {other:?}"),
    }
}

/// A console line as a request; the line must read.
pub fn request(line: &str) -> Request {
    read_request(line).unwrap_or_else(|r| panic!("{line} does not read: {}", r.content))
}

impl Env {
    pub async fn run(&self, line: &str) -> Vec<Reply> {
        // As the console does: people named in a line are known by name.
        for word in line.split_whitespace() {
            if let Some(name) = word.split(':').nth(1).and_then(|v| v.strip_prefix('@')) {
                self.table.remember_user(&user(name)).await.unwrap();
            }
        }
        match read_request(line) {
            Ok(req) => self.table.handle(req).await,
            Err(refused) => {
                // The table records the name of whoever types, even a command it refuses.
                if let Some(u) = &refused.ephemeral_to {
                    self.table.remember_user(u).await.unwrap();
                }
                vec![*refused]
            }
        }
    }

    /// Runs a line that must be accepted; returns its replies.
    pub async fn ok(&self, line: &str) -> Vec<Reply> {
        let r = self.run(line).await;
        assert!(
            !r.is_empty() && r.iter().all(|r| r.ok),
            "{line} refused: {r:#?}"
        );
        r
    }

    /// Runs a line that must be refused with one reply; returns its text.
    pub async fn refused(&self, line: &str) -> String {
        let r = self.run(line).await;
        assert_eq!(r.len(), 1, "{line}: {r:#?}");
        assert!(!r[0].ok, "{line} was accepted: {r:#?}");
        assert!(
            !r[0].content.contains('\n'),
            "refusals are one line: {}",
            r[0].content
        );
        r[0].content.clone()
    }

    /// alice invites bob and bob accepts: a started game, whose number is returned.
    pub async fn start(&self, a: &str, b: &str) -> u64 {
        self.start_with(a, b, "").await
    }

    /// As [`Env::start`], with more options for `/new` (`rated:no`).
    pub async fn start_with(&self, a: &str, b: &str, more: &str) -> u64 {
        let r = self
            .ok(&format!(
                "@{a} /new game:{GAME} {CREATOR_OPTIONS} opponent:@{b} {more}"
            ))
            .await;
        let id: u64 = r[0]
            .content
            .split('#')
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        self.ok(&format!("@{b} /accept game:{id} {ACCEPT_OPTIONS}"))
            .await;
        id
    }

    /// alice and bob start a game: its number, who is to move, and the other.
    pub async fn duel(&self) -> (u64, &'static str, &'static str) {
        let id = self.start("alice", "bob").await;
        let mover = self
            .to_act(id, &["alice", "bob"])
            .await
            .expect("someone moves");
        let other = if mover == "alice" { "bob" } else { "alice" };
        (id, mover, other)
    }

    /// The legal actions of `who` in game `id`, as autocomplete lists them.
    pub async fn actions(&self, who: &str, id: u64) -> Vec<String> {
        self.table
            .autocomplete(&user(who), &channel("table"), "action", "", Some(id))
            .await
            .into_iter()
            .map(|(_, v)| v)
            .collect()
    }

    /// Plays the first legal action of whoever is to act in game `id` among `names`.
    pub async fn play_first(&self, id: u64, names: &[&str]) {
        let who = self.to_act(id, names).await.expect("someone acts");
        let action = self.actions(who, id).await[0].clone();
        self.ok(&format!("@{who} /play game:{id} action:\"{action}\""))
            .await;
    }

    /// Who is to act in game `id` among `names`.
    pub async fn to_act<'a>(&self, id: u64, names: &[&'a str]) -> Option<&'a str> {
        for n in names {
            if !self.actions(n, id).await.is_empty() {
                return Some(n);
            }
        }
        None
    }
}

/// The options naming `others` as a game's opponents: ` opponent:@b opponent2:@c …`.
pub fn opponents(others: &[&str]) -> String {
    others
        .iter()
        .enumerate()
        .map(|(i, p)| match i {
            0 => format!(" opponent:@{p}"),
            _ => format!(" opponent{}:@{p}", i + 1),
        })
        .collect()
}

/// The action a `/hint` reply suggests ("… /play game:N action:<notation>\nWhy: …").
pub fn hinted_action(hint: &str) -> String {
    hint.split("/play ")
        .nth(1)
        .and_then(|rest| rest.split_once("action:"))
        .map(|(_, action)| action)
        .and_then(|rest| rest.lines().next())
        .unwrap_or_else(|| panic!("not a hint: {hint}"))
        .trim()
        .to_string()
}

/// The record an /export reply carries: in its text, or, when too long for one message, as
/// its attached `.txt` file.
pub fn exported_record(r: &Reply) -> String {
    match r.images.iter().find(|i| i.name.ends_with(".txt")) {
        Some(file) => String::from_utf8(file.png.clone()).expect("a text record"),
        None => r
            .content
            .split('`')
            .nth(1)
            .expect("a record in the text")
            .trim_matches(|c| c == '"' || c == '\'')
            .to_owned(),
    }
}

/// The views after each action of an exported record (of a finished game: its
/// seed is shown), as `viewer` sees them, each with its action's marks and the
/// seat that played it: what the table's pictures and replays are checked against.
pub fn record_steps(
    record: &str,
    viewer: tokar_engine::Viewer,
) -> Vec<(
    tokar_engine::View,
    tokar_render::Highlights,
    tokar_engine::Seat,
)> {
    use tokar_engine::catalog::{AnyGame, GameKind, Options};
    use tokar_engine::Seat;
    let parts: Vec<&str> = record.split('|').collect();
    let kind = GameKind::parse(parts[1]).expect("a game");
    let mut options = Options::new();
    for kv in parts[2].split(',').filter(|kv| !kv.is_empty()) {
        let (k, v) = kv.split_once('=').expect("k=v");
        options.insert(k.into(), v.into());
    }
    let seed: tokar_engine::Seed = parts[3]
        .strip_prefix("seed=")
        .and_then(|s| s.parse().ok())
        .expect("the seed of a finished game");
    let mut game = AnyGame::setup(kind, &options, seed).expect("a game");
    let mut steps = Vec::new();
    for a in &parts[4..] {
        let (seat, action) = a.split_once(':').expect("seat:action");
        let seat = Seat(seat.parse().expect("a seat"));
        let events = match action {
            "!concede" => game.concede(seat),
            "!skip" => game.skip(seat).expect("a skip"),
            n => game.play(seat, n).expect("a legal action"),
        };
        let highlights = tokar_render::Highlights {
            marks: events.iter().flat_map(|e| e.marks.clone()).collect(),
            ..tokar_render::Highlights::default()
        };
        steps.push((game.view(viewer), highlights, seat));
    }
    steps
}

/// A key or value as hexadecimal, as the fixtures of stored records write keys.
pub fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

pub fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// The raw keys and values of a fixture of stored records (`{"items": [[HEXKEY,
/// TEXT], ...]}`), to load with `Store::load_dump`.
pub fn read_fixture(path: &str) -> Vec<(Vec<u8>, Vec<u8>)> {
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|kv| {
            (
                unhex(kv[0].as_str().unwrap()),
                kv[1].as_str().unwrap().as_bytes().to_vec(),
            )
        })
        .collect()
}

/// The `tokar` binary's console on `dir` in JSON mode, as a separate process
/// (to be killed with SIGKILL): the child, its input, and its answers line by line.
pub fn console_process(
    dir: &std::path::Path,
    args: &[&str],
) -> (
    std::process::Child,
    std::process::ChildStdin,
    std::io::Lines<std::io::BufReader<std::process::ChildStdout>>,
) {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_tokar"))
        .args(["console", "--json"])
        .args(args)
        .arg("--data")
        .arg(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    (child, stdin, lines)
}

/// The store in `dir`, for reading or preparing it directly.
pub fn open_store(dir: &std::path::Path) -> tokar_bot::storage::Store {
    tokar_bot::storage::Store::open(dir).unwrap()
}
