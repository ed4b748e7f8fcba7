//! Gateway sessions and starts, end to end against the fake Discord.
//!
//! - Two Tokar processes (`tokar-on-fake`) run the same shard at once on one PostgreSQL store,
//!   as a blue/green deploy or overlapping `TOKAR_SHARD_RANGE`s do: Discord sends every
//!   interaction to both sessions, and each command still runs once (the interaction claims of
//!   `bot/store/src/claims.rs`).
//! - Starts that cannot work stop before the gateway (`bot/src/discord/startup.rs`): a refused
//!   token, started again and again, exits non-zero each time having sent no IDENTIFY and one
//!   request; too few session starts left today is refused without an IDENTIFY.
//! - With a data folder, a start after a failed one waits (`bot/src/discord/restarts.rs`); the
//!   wait is observed (nothing reaches Discord while it lasts), not slept through.
//! - Commands registered globally are installable in servers only (`integration_types` [0]).

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{json, Value};
use tokar_bot::discord::{self, DiscordError, DiscordSettings};
use tokar_bot::storage::StoreSettings;
use tokar_bot::{ChannelRef, Request, Table, UserRef};
use tokar_tests::fake::{
    FakeDiscord, FakeMessage, FakeUser, Origin, SessionStartLimit, APPLICATION_ID,
};
use tokar_tests::harness::{bot_table_config, bot_user_id, init_logging, Bot, Start, TOKEN};
use tokar_tests::players::{data_dir, wait_until};

#[path = "../../bot/tests/common/postgres.rs"]
mod postgres;

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

/// `tokar-on-fake` on `dir` against `fake`, commands registered in the fake's guild, with
/// the extra settings `env`; its log goes to `log`.
fn command(dir: &Path, fake: &FakeDiscord, log: &Path, env: &[(&str, &str)]) -> Command {
    let log = std::fs::File::create(log).expect("log file");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tokar-on-fake"));
    cmd.arg(dir)
        .arg(fake.api_base())
        .env("TOKAR_DRAIN_SECONDS", "5")
        .env(
            "RUST_LOG",
            "warn,tokar_bot=info,tokar_table=info,tokar_store=info",
        )
        .env_remove("TOKAR_ON_FAKE_COMMANDS")
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
    cmd
}

/// Stops the process as SIGTERM does and checks it ends cleanly.
fn stop(mut bot: Running) {
    let mut child = bot.0.take().expect("running");
    let pid = child.id().to_string();
    let _ = Command::new("kill").args(["-TERM", &pid]).status();
    let status = child.wait().expect("the bot ends");
    assert!(status.success(), "the bot stopped with {status}");
}

/// The custom_id of the message's button whose answer part is `answer`.
fn button(m: &FakeMessage, answer: &str) -> String {
    m.buttons
        .iter()
        .map(|b| b.custom_id.clone())
        .find(|id| id.split(':').nth(3) == Some(answer))
        .unwrap_or_else(|| panic!("no {answer} button: {m:#?}"))
}

fn user_ref(u: &FakeUser) -> UserRef {
    UserRef {
        id: u.id,
        name: u.name.clone(),
    }
}

/// Game #`game`'s actions as its record in the store says.
async fn stored_actions(table: &Table, game: u64, who: &FakeUser, channel: u64) -> Vec<String> {
    let replies = table
        .handle(Request {
            user: user_ref(who),
            channel: ChannelRef::new(channel, ""),
            command: tokar_bot::Command::Export { game: Some(game) },
            interaction_token: None,
            manage_server: false,
        })
        .await;
    let content = &replies[0].content;
    let record = content
        .split('`')
        .nth(1)
        .unwrap_or_else(|| panic!("no record of game #{game}: {content}"))
        .trim_matches('"');
    record
        .split('|')
        .skip(4)
        .filter_map(|a| a.split_once(':').map(|(_, n)| n.to_owned()))
        .collect()
}

/// The 40060 answers ("Interaction has already been acknowledged") the fake gave.
fn already_acknowledged(fake: &FakeDiscord) -> Vec<(String, u16, u32)> {
    fake.rejections()
        .into_iter()
        .filter(|(_, _, code)| *code == 40060)
        .collect()
}

/// Two processes run shard 0 of 1 at once, on one PostgreSQL store; both sessions receive
/// every interaction (the fake's `delivered_to` is 2 for each). Alice challenges Bob with
/// `/new`, Bob accepts with the invitation's button, and four moves are played with `/play`.
/// Every command runs once: one game, each move in the record once and announced once, each
/// interaction answered by one response, and Discord never answers 40060.
///
/// The legal moves are read from a table the test opens on the same store, not through
/// Discord's autocomplete: autocomplete is deliberately left unclaimed (both sessions answer,
/// the second gets 40060, harmlessly), which would blur the count of 40060 answers here.
///
/// Fails on the behaviour before the claims: both processes ran each interaction, so the
/// `/new` made games #1 and #2 (two invitations), and the slower process's answer to every
/// interaction got 40060 (a rejection listed here). The record stays one move a `/play` even
/// then (the second run of a move finds the turn passed and is refused), which is why the
/// 40060 and the one-game checks are the ones that catch it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_sessions_of_one_shard_run_each_interaction_once() {
    init_logging();
    let server = postgres::shared("sessions");
    let url = server.fresh_store("two_sessions");
    let fake = FakeDiscord::start().await.expect("fake Discord binds");
    // Both processes identify within a second; the identify concurrency (one per 5 s) is not
    // what this test is about and would only delay the second.
    fake.enforce_identify_concurrency(false);
    let alice = fake.add_user(761_111_111_111_111_111, "alice");
    let bob = fake.add_user(762_222_222_222_222_222, "bob");
    fake.add_user(bot_user_id(), "Tokar");
    let ch = fake.add_channel("sessions");

    let mut bots = Vec::new();
    let mut dirs = Vec::new();
    for name in ["blue", "green"] {
        let dir = data_dir("sessions", name);
        let log = dir.with_extension("log");
        let env = [("TOKAR_DATABASE_URL", url.as_str())];
        let child = command(&dir, &fake, &log, &env)
            .spawn()
            .expect("tokar-on-fake starts");
        bots.push(Running(Some(child)));
        dirs.push((dir, log));
    }
    fake.wait_ready(2).await.unwrap();
    fake.wait_sessions([0, 1], 2).await.unwrap();
    assert_eq!(fake.connected_shards(), [[0, 1], [0, 1]]);

    // The test's own view of the store, for the legal moves and the record.
    let view_dir = data_dir("sessions", "view");
    let mut config = bot_table_config(&view_dir);
    config.storage = StoreSettings {
        database: Some(url.clone()),
        ..StoreSettings::default()
    };
    let view = Table::open(config).await.expect("the store opens");

    let mut interactions = Vec::new();
    let mention = bob.mention();
    let new = fake
        .slash(
            &alice,
            ch,
            "new",
            &[("game", "arcana"), ("opponent", mention.as_str())],
        )
        .await
        .unwrap();
    interactions.push(new);
    let invitation = fake.answer(new).await.unwrap();
    assert!(
        invitation.content.contains("#1"),
        "the invitation: {invitation:#?}"
    );
    let click = fake
        .click(&bob, invitation.id, &button(&invitation, "accept"))
        .await
        .unwrap();
    interactions.push(click);
    let started = fake.answer(click).await.unwrap();
    assert!(started.content.contains("bob accepted"), "{started:#?}");

    let mut played = Vec::new();
    for _ in 0..4 {
        // Whoever has legal actions now moves.
        let mut mover = None;
        for who in [&alice, &bob] {
            let actions = view
                .autocomplete(&user_ref(who), &ChannelRef::new(ch, ""), "action", "", None)
                .await;
            if let Some((_, action)) = actions.into_iter().next() {
                mover = Some((who, action));
                break;
            }
        }
        let (who, action) = mover.expect("someone has a move");
        let id = fake
            .slash(who, ch, "play", &[("action", &action)])
            .await
            .unwrap();
        interactions.push(id);
        let answer = fake.answer(id).await.unwrap();
        assert!(
            answer.content.contains(&action),
            "the move is answered: {answer:#?}"
        );
        let before = played.iter().filter(|a| **a == action).count();
        played.push(action.clone());
        wait_until(&fake, "the move's announcement", |ms| {
            announced(ms, ch, &action) > before
        })
        .await;
    }

    // Let both processes' delivery workers and the slower session's handlers finish whatever
    // they would still do.
    tokio::time::sleep(Duration::from_secs(2)).await;
    for id in &interactions {
        let i = fake.interaction(*id).expect("recorded");
        assert_eq!(i.delivered_to, 2, "both sessions received {id}: {i:#?}");
        assert!(i.first_response.is_some(), "{id} answered: {i:#?}");
        let responses: Vec<FakeMessage> = fake
            .messages_of(*id)
            .into_iter()
            .filter(|m| m.origin == Origin::Response)
            .collect();
        assert_eq!(responses.len(), 1, "one response to {id}: {responses:#?}");
    }
    assert_eq!(
        already_acknowledged(&fake),
        [],
        "no interaction answered twice"
    );
    let messages = fake.messages();
    let games: Vec<&FakeMessage> = messages
        .iter()
        .filter(|m| m.content.to_lowercase().contains("game #2"))
        .collect();
    assert!(games.is_empty(), "one game only: {games:#?}");
    for action in &played {
        let times = played.iter().filter(|a| *a == action).count();
        assert_eq!(
            announced(&messages, ch, action),
            times,
            "{action} announced once a play"
        );
    }
    let stored = stored_actions(&view, 1, &alice, ch).await;
    assert_eq!(stored, played, "each move stored once, in order");
    assert_eq!(fake.violations(), Vec::<String>::new());

    drop(view);
    for bot in bots {
        stop(bot);
    }
    for (dir, log) in dirs {
        let _ = std::fs::remove_dir_all(&dir);
        let _ = std::fs::remove_file(&log);
    }
    let _ = std::fs::remove_dir_all(&view_dir);
}

/// How many messages in `ch` announce `action` (a reminder names the last action too).
fn announced(messages: &[FakeMessage], ch: u64, action: &str) -> usize {
    messages
        .iter()
        .filter(|m| m.channel_id == ch && !m.deleted)
        .filter(|m| !m.content.contains("Reminder: game #"))
        .filter(|m| m.content.contains(&format!(" plays {action}")))
        .count()
}

/// A refused token (401), started three times as a supervisor would: each start exits 1 with
/// the one line naming the token, sends no IDENTIFY (the fake saw none and closed no
/// connection) and makes one request (GET /gateway/bot, the 401): the fake counts every 401
/// as an invalid request, so their count is the start's requests.
///
/// `tokar-on-fake` sets no data folder for the restart record (`DiscordSettings::data_dir` is
/// `None` outside `tokar`), so these starts do not wait for each other; the waits are the next
/// test's.
///
/// Fails on the behaviour before the checks: the gateway was opened first and the token was
/// learnt bad from the IDENTIFY (close 4004), so `identify_attempts` grew with each start.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_token_stops_each_start_before_any_identify() {
    init_logging();
    let fake = FakeDiscord::start().await.expect("fake Discord binds");
    fake.refuse_token();
    let dir = data_dir("sessions", "refused");
    let log = dir.with_extension("log");
    for start in 1..=3 {
        let before = fake.invalid_requests_total();
        let out = tokio::task::spawn_blocking({
            let mut cmd = command(&dir, &fake, &log, &[]);
            move || cmd.status()
        });
        let status = tokio::time::timeout(Duration::from_secs(20), out)
            .await
            .expect("the start ends by itself within seconds")
            .unwrap()
            .expect("tokar-on-fake runs");
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        assert_eq!(status.code(), Some(1), "start {start}: {status}\n{text}");
        assert!(
            text.contains("Discord refused DISCORD_TOKEN"),
            "start {start} says why:\n{text}"
        );
        assert_eq!(fake.identify_attempts(), 0, "start {start}: no IDENTIFY");
        assert_eq!(fake.gateway_closes(), Vec::<u16>::new(), "start {start}");
        let requests = fake.invalid_requests_total() - before;
        assert!(
            (1..=2).contains(&requests),
            "start {start} made {requests} requests"
        );
    }
    assert!(fake.commands().is_empty(), "nothing registered");
    assert_eq!(fake.violations(), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&log);
}

/// The adapter's settings against `fake`, as the harness's [`Bot::start`] makes them.
fn settings(fake: &FakeDiscord) -> DiscordSettings {
    DiscordSettings {
        guild_id: Some(tokar_tests::fake::GUILD_ID),
        test_api_base: Some(fake.api_base()),
        application_id: Some(APPLICATION_ID),
        retry_first: tokar_tests::harness::RETRY_FIRST,
        ..DiscordSettings::default()
    }
}

/// The restart record's failures and last start, as `restarts.rs` writes it.
fn record(dir: &Path) -> (u64, u64) {
    let text = std::fs::read_to_string(dir.join("discord-starts.json")).expect("the record");
    let v: Value = serde_json::from_str(&text).expect("JSON");
    (
        v["failures"].as_u64().expect("failures"),
        v["last_ms"].as_u64().expect("last_ms"),
    )
}

/// With a data folder (as `tokar` runs), a start with a refused token is recorded as failed,
/// and the next start waits before it asks Discord anything. The wait (10 s after one failure)
/// is observed rather than sat through: for a second, the waiting start makes no request and
/// leaves the record alone; then it is stopped, which ends it at once without an error. Then
/// the record is back-dated (its failures kept, its last start long ago, as after a long
/// pause), and two more starts each run at once, fail, and add a failure each: 3 in the
/// record, whose next wait would be 40 s.
///
/// Fails if a start after a failure connects at once (a request reaches the fake within the
/// second), if failures are not recorded, or if stopping does not end the wait.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_start_after_a_failed_one_waits_and_the_record_counts_failures() {
    init_logging();
    let fake = FakeDiscord::start().await.expect("fake Discord binds");
    fake.refuse_token();
    let dir = data_dir("sessions", "record");
    std::fs::create_dir_all(&dir).unwrap();
    // Each start's table in a folder of its own (sled's lock may outlive a start briefly);
    // the restart record in `dir`, shared by the starts as `TOKAR_DATA` is.
    let mut starts = 0;
    let mut run = |stop: Option<tokio::sync::watch::Receiver<bool>>| {
        let settings = DiscordSettings {
            data_dir: Some(dir.clone()),
            stop,
            ..settings(&fake)
        };
        starts += 1;
        let tables = data_dir("sessions", &format!("record-table-{starts}"));
        async move {
            let table = Table::open(bot_table_config(&tables)).await.expect("opens");
            discord::run(table, TOKEN.to_owned(), settings).await
        }
    };

    let first = tokio::time::timeout(Duration::from_secs(20), run(None))
        .await
        .expect("the first start ends by itself");
    assert!(
        matches!(first, Err(DiscordError::TokenRefused(_))),
        "{first:?}"
    );
    let (failures, last) = record(&dir);
    assert_eq!(failures, 1, "the failed start is recorded");
    let after_first = fake.invalid_requests_total();
    assert_eq!(after_first, 1, "one request");

    // The second start waits: nothing reaches the fake, the record is untouched.
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let second = tokio::spawn(run(Some(stop_rx)));
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(!second.is_finished(), "the second start is waiting");
    assert_eq!(fake.invalid_requests_total(), after_first, "no request yet");
    assert_eq!(
        record(&dir),
        (1, last),
        "the record is untouched while waiting"
    );
    stop_tx.send(true).unwrap();
    let second = tokio::time::timeout(Duration::from_secs(5), second)
        .await
        .expect("a stop ends the wait at once")
        .unwrap();
    assert!(
        second.is_ok(),
        "stopped while waiting is no error: {second:?}"
    );
    assert_eq!(fake.invalid_requests_total(), after_first, "still none");

    // Back-dated: the wait is over, and each start counts one more failure.
    for n in 2..=3 {
        let (failures, _) = record(&dir);
        std::fs::write(
            dir.join("discord-starts.json"),
            json!({"format": 1, "failures": failures, "last_ms": 0}).to_string(),
        )
        .unwrap();
        let r = tokio::time::timeout(Duration::from_secs(20), run(None))
            .await
            .expect("a start with its wait over ends by itself");
        assert!(matches!(r, Err(DiscordError::TokenRefused(_))), "{r:?}");
        assert_eq!(record(&dir).0, n, "start {n} recorded as failed");
    }
    assert_eq!(fake.invalid_requests_total(), 3, "one request a start");
    assert_eq!(fake.identify_attempts(), 0);
    let _ = std::fs::remove_dir_all(&dir);
    for n in 1..=starts {
        let _ = std::fs::remove_dir_all(data_dir("sessions", &format!("record-table-{n}")));
    }
}

/// Too few session starts left (10, where one shard needs 1 + 10): the start is refused with
/// the count in its error, spends no IDENTIFY and registers nothing. With 11 left, a start
/// connects and spends one.
///
/// Fails on the behaviour before the check: the start identified whatever was left, so
/// `identify_attempts` was 1 and the remaining count 9.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn too_few_session_starts_left_refuses_the_start_before_any_identify() {
    init_logging();
    let fake = FakeDiscord::start().await.expect("fake Discord binds");
    let limit = |remaining| SessionStartLimit {
        total: 1000,
        remaining,
        reset_after: Duration::from_secs(3 * 3600),
        max_concurrency: 1,
    };
    fake.set_session_start_limit(limit(10));
    let dir = data_dir("sessions", "starts");
    let table = Table::open(bot_table_config(&dir)).await.expect("opens");
    let refused = tokio::time::timeout(
        Duration::from_secs(20),
        discord::run(table, TOKEN.to_owned(), settings(&fake)),
    )
    .await
    .expect("the start ends by itself");
    match &refused {
        Err(e @ DiscordError::SessionStarts(_)) => {
            let text = e.to_string();
            assert!(text.contains("10 more IDENTIFY"), "{text}");
            assert!(text.contains("needs 11"), "{text}");
        }
        other => panic!("refused for the session starts: {other:?}"),
    }
    assert_eq!(fake.identify_attempts(), 0, "no IDENTIFY");
    assert_eq!(fake.session_start_limit().remaining, 10, "none spent");
    assert!(fake.commands().is_empty(), "nothing registered");

    fake.set_session_start_limit(limit(11));
    let dir2 = data_dir("sessions", "starts-again");
    let table = Table::open(bot_table_config(&dir2)).await.expect("opens");
    let bot = Bot::start(table, &fake, Start::default());
    fake.wait_ready(1).await.unwrap();
    assert_eq!(fake.identify_attempts(), 1);
    assert_eq!(fake.session_start_limit().remaining, 10);
    bot.stop().await.unwrap();
    assert_eq!(fake.violations(), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&dir2);
}

/// Registered globally (no guild id), every command says `integration_types: [0]`
/// (GUILD_INSTALL only): an app that allows user installs does not offer `/new` in servers
/// the bot is not in.
///
/// Fails on the behaviour before: the commands carried no `integration_types`, which Discord
/// reads as the app's configured installation contexts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn global_commands_are_installable_in_servers_only() {
    init_logging();
    let fake = FakeDiscord::start().await.expect("fake Discord binds");
    let dir = data_dir("sessions", "global");
    let table = Table::open(bot_table_config(&dir)).await.expect("opens");
    let start = Start {
        guild_id: None,
        ..Start::default()
    };
    let bot = Bot::start(table, &fake, start);
    fake.wait_ready(1).await.unwrap();
    let commands = fake.commands();
    assert!(commands.len() > 20, "{} commands", commands.len());
    for (guild, c) in &commands {
        assert_eq!(*guild, None, "registered globally: {c}");
        assert_eq!(
            c["integration_types"],
            json!([0]),
            "/{} is for servers only: {c}",
            c["name"]
        );
    }
    bot.stop().await.unwrap();
    assert_eq!(fake.violations(), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}
