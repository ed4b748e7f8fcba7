//! Sharded gateway processes: Tokar's Discord process (`tokar-on-fake`, settings from the
//! environment as in production) against a fake Discord that routes each guild's events to
//! the shard `(guild_id >> 22) % num_shards`. One process running both shards of two answers
//! the guilds of both; a process running shard 1 of 2 answers the guilds of shard 1 and never
//! hears of those of shard 0. Two processes, each running one shard of two, share a
//! PostgreSQL store (sled's folder is one process's): each answers its guilds, and every
//! message of the games is delivered once; when one of them is killed, the other sends its
//! games' reminders once its leases run out.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use tokar_tests::fake::{guild_on_shard, shard_of, FakeDiscord, FakeUser};
use tokar_tests::harness::{bot_user_id, free_port, init_logging, scrape_metrics, SharedSkew};
use tokar_tests::players::{data_dir, play_first, wait_until};

#[path = "../../bot/tests/common/postgres.rs"]
mod postgres;

/// Starts `tokar-on-fake` on `dir` with the shard settings `env`, commands registered
/// globally (the guilds here are not the fake's main one); its log goes to `log`.
fn start(dir: &Path, fake: &FakeDiscord, log: &Path, env: &[(&str, &str)]) -> Running {
    let log = std::fs::File::create(log).expect("log file");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tokar-on-fake"));
    cmd.arg(dir)
        .arg(fake.api_base())
        .env("TOKAR_ON_FAKE_COMMANDS", "global")
        .env("TOKAR_DRAIN_SECONDS", "5")
        .env(
            "RUST_LOG",
            "warn,tokar_bot=info,tokar_table=info,tokar_store=info",
        )
        .env_remove("TOKAR_SHARDS")
        .env_remove("TOKAR_SHARD_RANGE")
        .env_remove("TOKAR_METRICS_ADDR")
        .env_remove("TOKAR_DATABASE_URL")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log);
    for (k, v) in env {
        cmd.env(k, v);
    }
    Running(Some(cmd.spawn().expect("tokar-on-fake starts")))
}

/// The running process; killed if a failed test leaves it running.
struct Running(Option<Child>);

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(mut child) = self.0.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Stops the process as SIGTERM does and checks it ends cleanly.
fn stop(mut bot: Running) {
    let mut child = bot.0.take().expect("running");
    let pid = child.id().to_string();
    let _ = Command::new("kill").args(["-TERM", &pid]).status();
    let status = child.wait().expect("the bot ends");
    assert!(status.success(), "the bot stopped with {status}");
}

struct World {
    fake: FakeDiscord,
    alice: FakeUser,
    bob: FakeUser,
    /// A channel of a guild on shard 0 of 2, and one of a guild on shard 1 of 2.
    on0: u64,
    on1: u64,
}

async fn world() -> World {
    let fake = FakeDiscord::start().await.expect("fake Discord binds");
    let alice = fake.add_user(761_111_111_111_111_111, "alice");
    let bob = fake.add_user(762_222_222_222_222_222, "bob");
    fake.add_user(bot_user_id(), "Tokar");
    let (g0, g1) = (guild_on_shard(0, 2), guild_on_shard(1, 2));
    assert_eq!((shard_of(g0, 2), shard_of(g1, 2)), (0, 1));
    let on0 = fake.add_guild_channel(g0, "zero");
    let on1 = fake.add_guild_channel(g1, "one");
    World {
        fake,
        alice,
        bob,
        on0,
        on1,
    }
}

/// Whether `channel` is `ch` or a thread under it.
fn in_channel(fake: &FakeDiscord, channel: u64, ch: u64) -> bool {
    channel == ch || fake.channel(channel).and_then(|c| c.parent_id) == Some(ch)
}

/// Alice challenges Bob in `ch` and Bob accepts; both are answered, and the game begins.
async fn duel_is_answered(w: &World, ch: u64) {
    let mention = w.bob.mention();
    let invite = [("game", "arcana"), ("opponent", mention.as_str())];
    let challenge = w.fake.run(&w.alice, ch, "new", &invite).await.unwrap();
    assert!(
        challenge.pinged_users.contains(&w.bob.id),
        "the challenge pings Bob: {challenge:#?}"
    );
    // Threads are on in these guilds: the game begins in a thread under `ch`.
    let accepted = w.fake.run(&w.bob, ch, "accept", &[]).await.unwrap();
    assert!(
        accepted.content.contains("Game #"),
        "the acceptance is answered: {accepted:#?}"
    );
    wait_until(&w.fake, "the game to begin", |messages| {
        messages
            .iter()
            .any(|m| in_channel(&w.fake, m.channel_id, ch) && m.content.contains("begins"))
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_process_with_two_shards_answers_the_guilds_of_both() {
    init_logging();
    let dir = data_dir("shards", "both");
    let log = dir.with_extension("log");
    let w = world().await;
    let bot = start(&dir, &w.fake, &log, &[("TOKAR_SHARDS", "2")]);
    w.fake.wait_ready(1).await.unwrap();
    w.fake.wait_shards(&[[0, 2], [1, 2]]).await.unwrap();
    duel_is_answered(&w, w.on0).await;
    duel_is_answered(&w, w.on1).await;
    assert_eq!(w.fake.connected_shards(), [[0, 2], [1, 2]]);
    stop(bot);
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        text.contains("shards 0..2 of 2"),
        "the range is logged:\n{text}"
    );
    assert!(w.fake.violations().is_empty(), "{:?}", w.fake.violations());
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&log);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_running_shard_1_of_2_hears_only_its_guilds() {
    init_logging();
    let dir = data_dir("shards", "one");
    let log = dir.with_extension("log");
    let w = world().await;
    let port = free_port();
    let metrics = format!("127.0.0.1:{port}");
    let bot = start(
        &dir,
        &w.fake,
        &log,
        &[
            ("TOKAR_SHARDS", "2"),
            ("TOKAR_SHARD_RANGE", "1..2"),
            ("TOKAR_METRICS_ADDR", &metrics),
        ],
    );
    w.fake.wait_ready(1).await.unwrap();
    w.fake.wait_shards(&[[1, 2]]).await.unwrap();
    // The guild of shard 0 reaches no process: Discord has no shard to send it to.
    let mention = w.bob.mention();
    let invite = [("game", "arcana"), ("opponent", mention.as_str())];
    let refused = w.fake.slash(&w.alice, w.on0, "new", &invite).await;
    assert!(
        refused.as_ref().is_err_and(|e| e.contains("shard")),
        "{refused:?}"
    );
    duel_is_answered(&w, w.on1).await;
    // Still nothing in the guild of shard 0, and serenity never started shard 0.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        !w.fake
            .messages()
            .iter()
            .any(|m| in_channel(&w.fake, m.channel_id, w.on0)),
        "nothing reaches the guild of shard 0"
    );
    assert_eq!(w.fake.connected_shards(), [[1, 2]]);
    let scrape = scrape_metrics(port)
        .await
        .expect("the metrics endpoint answers");
    assert!(
        scrape
            .lines()
            .any(|l| l.starts_with("tokar_gateway_shards{")
                && l.contains("range=\"1..2\"")
                && l.contains("total=\"2\"")
                && l.ends_with(" 1")),
        "the shards are in the metrics:\n{scrape}"
    );
    stop(bot);
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        text.contains("shards 1..2 of 2"),
        "the range is logged:\n{text}"
    );
    assert!(w.fake.violations().is_empty(), "{:?}", w.fake.violations());
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&log);
}

#[test]
fn a_bad_shard_range_is_refused_at_start_in_one_line() {
    let dir = data_dir("shards", "refused");
    let out = Command::new(env!("CARGO_BIN_EXE_tokar-on-fake"))
        .arg(&dir)
        .arg("http://127.0.0.1:9")
        .env("TOKAR_SHARDS", "2")
        .env("TOKAR_SHARD_RANGE", "1..3")
        .env("RUST_LOG", "off")
        .stdin(Stdio::null())
        .output()
        .expect("tokar-on-fake runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim_end(),
        "tokar-on-fake: setting TOKAR_SHARD_RANGE: `1..3` goes past the 2 shards of TOKAR_SHARDS (shards are 0..2)"
    );
    assert!(!dir.exists(), "refused before the data folder is touched");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_on_one_postgres_store_share_the_shards_and_say_everything_once() {
    init_logging();
    let server = postgres::shared("shards");
    let url = server.fresh_store("two_processes");
    let w = world().await;
    let mut bots = Vec::new();
    let mut logs = Vec::new();
    for (name, range) in [("zero", "0..1"), ("one", "1..2")] {
        let dir = data_dir("shards", name);
        let log = dir.with_extension("log");
        let env = [
            ("TOKAR_SHARDS", "2"),
            ("TOKAR_SHARD_RANGE", range),
            ("TOKAR_DATABASE_URL", url.as_str()),
        ];
        bots.push((start(&dir, &w.fake, &log, &env), dir));
        logs.push(log);
    }
    w.fake.wait_ready(2).await.unwrap();
    w.fake.wait_shards(&[[0, 2], [1, 2]]).await.unwrap();
    // Each process answers its own guild's duel, on one store: the games are #1 and #2.
    duel_is_answered(&w, w.on0).await;
    duel_is_answered(&w, w.on1).await;
    // Let both processes' delivery workers and schedule sweeps run a few passes.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let messages = w.fake.messages();
    for ch in [w.on0, w.on1] {
        let begins: Vec<_> = messages
            .iter()
            .filter(|m| in_channel(&w.fake, m.channel_id, ch) && m.content.contains("begins"))
            .collect();
        assert_eq!(begins.len(), 1, "one start message in {ch}: {begins:#?}");
    }
    let mut numbers: Vec<&str> = messages
        .iter()
        .filter(|m| m.content.contains("begins"))
        .filter_map(|m| m.content.split("Game #").nth(1))
        .filter_map(|t| t.split(|c: char| !c.is_ascii_digit()).next())
        .collect();
    numbers.sort();
    assert_eq!(numbers, ["1", "2"], "one numbering across the processes");
    for (bot, dir) in bots {
        stop(bot);
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(w.fake.violations().is_empty(), "{:?}", w.fake.violations());
    for log in logs {
        let _ = std::fs::remove_file(&log);
    }
}

/// The thread of the game that began under `ch`, and who was pinged to move first.
fn game_thread(w: &World, ch: u64) -> (u64, u64) {
    let begins = w
        .fake
        .messages()
        .into_iter()
        .find(|m| in_channel(&w.fake, m.channel_id, ch) && m.content.contains("begins"))
        .expect("the game began");
    (begins.channel_id, begins.notified[0])
}

/// The game that began under `ch` as its players see it: where it is played, and whose turn it is.
struct Played<'a> {
    thread: u64,
    to_move: &'a FakeUser,
    other: &'a FakeUser,
    /// The actions played, each announced once in `thread`.
    actions: Vec<String>,
}

impl<'a> Played<'a> {
    fn new(w: &'a World, ch: u64) -> Played<'a> {
        let (thread, first) = game_thread(w, ch);
        let (to_move, other) = if first == w.alice.id {
            (&w.alice, &w.bob)
        } else {
            (&w.bob, &w.alice)
        };
        Played {
            thread,
            to_move,
            other,
            actions: Vec::new(),
        }
    }

    /// The player to move plays the first legal action; returns once its announcement is out.
    async fn play(&mut self, w: &World) {
        let (action, _) = play_first(&w.fake, self.to_move, self.thread).await;
        let played = self.announced(&w.fake.messages(), &action);
        wait_until(&w.fake, "the move's announcement", |ms| {
            self.announced(ms, &action) > played
        })
        .await;
        self.actions.push(action);
        std::mem::swap(&mut self.to_move, &mut self.other);
    }

    /// How many messages of the thread announce `action` (a reminder names the last action
    /// too; it does not announce it).
    fn announced(&self, messages: &[tokar_tests::fake::FakeMessage], action: &str) -> usize {
        messages
            .iter()
            .filter(|m| m.channel_id == self.thread && !m.deleted)
            .filter(|m| !m.content.contains("Reminder: game #"))
            .filter(|m| m.content.contains(&format!(" plays {action}")))
            .count()
    }

    /// The reminders sent in the thread.
    fn reminders(&self, messages: &[tokar_tests::fake::FakeMessage]) -> usize {
        messages
            .iter()
            .filter(|m| m.channel_id == self.thread && m.content.contains("Reminder: game #"))
            .count()
    }
}

/// Leases across processes (docs/storage.md, "Several processes on one store: leases"): two
/// processes, one shard of two each, on one PostgreSQL store. Both guilds' games are played;
/// the process of shard 0 is killed with SIGKILL just after a move there. A day later (the
/// processes share a clock file, so the table's time jumps for both), both games are reminded
/// once each, the dead process's by the other one once its leases ran out; its move's
/// announcement, if the kill came before it was delivered, is delivered once as well. A new
/// process for shard 0 says nothing twice, and both games are played to their end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_process_s_reminders_are_sent_once_by_the_other_and_both_games_end() {
    init_logging();
    let server = postgres::shared("shards");
    let url = server.fresh_store("takeover");
    let w = world().await;
    let clock_dir = data_dir("shards", "clock");
    std::fs::create_dir_all(&clock_dir).unwrap();
    let clock = clock_dir.join("offset");
    let skew = SharedSkew::new(&clock);
    let clock_file = clock.to_string_lossy().into_owned();
    let port = free_port();
    let metrics = format!("127.0.0.1:{port}");
    let process = |name: &str, range: &str, metrics: &str| {
        let dir = data_dir("shards", name);
        let log = dir.with_extension("log");
        let env = [
            ("TOKAR_SHARDS", "2"),
            ("TOKAR_SHARD_RANGE", range),
            ("TOKAR_DATABASE_URL", url.as_str()),
            ("TOKAR_ON_FAKE_CLOCK", clock_file.as_str()),
            ("TOKAR_TICK_SECONDS", "1"),
            ("TOKAR_METRICS_ADDR", metrics),
        ];
        (start(&dir, &w.fake, &log, &env), dir, log)
    };
    let (zero, zero_dir, zero_log) = process("takeover-zero", "0..1", "");
    let (one, one_dir, one_log) = process("takeover-one", "1..2", &metrics);
    w.fake.wait_ready(2).await.unwrap();
    w.fake.wait_shards(&[[0, 2], [1, 2]]).await.unwrap();
    duel_is_answered(&w, w.on0).await;
    duel_is_answered(&w, w.on1).await;
    let mut on0 = Played::new(&w, w.on0);
    let mut on1 = Played::new(&w, w.on1);
    for _ in 0..3 {
        on0.play(&w).await;
        on1.play(&w).await;
    }
    // One more move in shard 0's guild: its process dies as soon as the move is acknowledged,
    // perhaps before its announcement is delivered.
    let choices = w
        .fake
        .autocomplete(on0.to_move, on0.thread, "play", &[], ("action", ""))
        .await
        .unwrap();
    let action = choices[0].1.as_str().unwrap().to_owned();
    let answer = w
        .fake
        .run(on0.to_move, on0.thread, "play", &[("action", &action)])
        .await
        .unwrap();
    drop(zero);
    assert!(answer.content.contains(&action), "{answer:#?}");
    on0.actions.push(action);
    std::mem::swap(&mut on0.to_move, &mut on0.other);
    for _ in 0..100 {
        if w.fake.connected_shards() == [[1, 2]] {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(w.fake.connected_shards(), [[1, 2]], "shard 0 is gone");

    // 31 s later the dead process's lease on its channel has run out: the other process
    // delivers what it left (the move's announcement, unless it went out before the kill),
    // until the store's outbox is empty. The move was announced once.
    skew.advance(Duration::from_secs(31));
    // The gauge is set as each delivery pass begins (every half second when idle): read it
    // from passes that began after the jump.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut depth = String::new();
    for _ in 0..200 {
        depth = scrape_metrics(port).await.unwrap_or_default();
        if depth.lines().any(|l| l == "tokar_outbox_depth 0") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        depth.lines().any(|l| l == "tokar_outbox_depth 0"),
        "the outbox empties:\n{depth}"
    );
    let last = on0.actions.last().unwrap().clone();
    assert_eq!(
        on0.announced(&w.fake.messages(), &last),
        1,
        "{last} announced once"
    );

    // A day later (reminders every 24 h by default): both games are reminded.
    skew.advance(Duration::from_secs(24 * 3600));
    wait_until(&w.fake, "a reminder in each game", |ms| {
        on0.reminders(ms) >= 1 && on1.reminders(ms) >= 1
    })
    .await;
    // A new process for shard 0 comes up; a few sweeps later nothing was said twice.
    let (zero, _, _) = process("takeover-zero", "0..1", "");
    w.fake.wait_ready(3).await.unwrap();
    w.fake.wait_shards(&[[0, 2], [1, 2]]).await.unwrap();
    tokio::time::sleep(Duration::from_secs(3)).await;
    let messages = w.fake.messages();
    assert_eq!(on0.reminders(&messages), 1, "shard 0's game reminded once");
    assert_eq!(on1.reminders(&messages), 1, "shard 1's game reminded once");

    // Both games go on to their end: two more moves each, then the player to move resigns.
    for _ in 0..2 {
        on0.play(&w).await;
        on1.play(&w).await;
    }
    for game in [&on0, &on1] {
        let thread = game.thread;
        let resigned = w
            .fake
            .run(game.to_move, thread, "resign", &[("confirm", "true")])
            .await
            .unwrap();
        assert!(resigned.content.contains("resigns"), "{resigned:#?}");
        wait_until(&w.fake, "the result in the thread", |ms| {
            ms.iter()
                .any(|m| m.channel_id == thread && m.content.contains(" resigns game #"))
        })
        .await;
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let messages = w.fake.messages();
    for game in [&on0, &on1] {
        for action in &game.actions {
            let played = game.actions.iter().filter(|a| *a == action).count();
            assert_eq!(
                game.announced(&messages, action),
                played,
                "{action} announced once a play in {}: {:#?}",
                game.thread,
                messages
                    .iter()
                    .filter(|m| m.channel_id == game.thread)
                    .map(|m| &m.content)
                    .collect::<Vec<_>>()
            );
        }
        let results = messages
            .iter()
            .filter(|m| m.channel_id == game.thread && m.content.contains(" resigns game #"))
            .count();
        assert_eq!(results, 1, "one result in {}", game.thread);
        assert_eq!(game.reminders(&messages), 1, "still one reminder");
    }
    stop(zero);
    stop(one);
    assert!(w.fake.violations().is_empty(), "{:?}", w.fake.violations());
    for path in [&zero_dir, &one_dir, &clock_dir] {
        let _ = std::fs::remove_dir_all(path);
    }
    for log in [&zero_log, &one_log] {
        let _ = std::fs::remove_file(log);
    }
}
