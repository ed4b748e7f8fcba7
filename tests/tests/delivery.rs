//! End-to-end: what Tokar says reaches players once, whatever Discord does: injected 5xx, 429
//! and lost responses, a deleted channel, a missing permission, a command from a DM, and a
//! stop with a command in flight.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use tokar_bot::table::robot::RobotConfig;
use tokar_bot::{Request, Table, TableConfig};
use tokar_tests::fake::{
    permissions, FakeDiscord, FakeMessage, FakeUser, Fault, Faults, RouteFilter,
};
use tokar_tests::harness::{init_logging, Bot, Start, TOKEN};

fn data_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tokar-delivery-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The table as the Discord binary opens it: the bot plays as its own account, answers in the
/// background, and thinks a fixed number of iterations.
async fn open(dir: &Path) -> Table {
    let mut tries = 0;
    loop {
        let mut config = TableConfig::new(dir);
        config.seed = Some(5);
        let mut robot = RobotConfig::for_discord_token(TOKEN, "Tokar").expect("token shape");
        robot.iterations = Some(40);
        config.robot = robot;
        match Table::open(config).await {
            Ok(table) => return table,
            Err(e) if tries < 100 => {
                tries += 1;
                let _ = e;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => panic!("table opens: {e}"),
        }
    }
}

/// The bot's own user id, as the token says.
fn bot_user() -> u64 {
    RobotConfig::for_discord_token(TOKEN, "Tokar")
        .unwrap()
        .user
        .id
}

/// Waits until `probe` holds on the fake's messages.
async fn wait_until(fake: &FakeDiscord, what: &str, probe: impl Fn(&[FakeMessage]) -> bool) {
    let until = Instant::now() + Duration::from_secs(90);
    loop {
        if probe(&fake.messages()) {
            return;
        }
        assert!(Instant::now() < until, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Every action of game 1, from its record, read through a table opened on the data folder
/// once the bot has stopped.
async fn recorded_actions(dir: &Path, who: &FakeUser, channel: u64) -> Vec<String> {
    let table = open(dir).await;
    let replies = table
        .handle(Request {
            user: tokar_bot::UserRef {
                id: who.id,
                name: who.name.clone(),
            },
            channel: tokar_bot::ChannelRef {
                id: channel,
                name: String::new(),
            },
            command: "export".into(),
            options: vec![("game".into(), "1".into())],
            interaction_token: None,
        })
        .await;
    let content = &replies[0].content;
    let record = content.split('`').nth(1).expect("a record");
    record
        .split('|')
        .skip(4)
        .filter_map(|a| a.split_once(':').map(|(_, n)| n.to_owned()))
        .collect()
}

/// The turn messages announcing `notation`, created (not deleted) in the fake.
fn announcing<'a>(messages: &'a [FakeMessage], notation: &str) -> Vec<&'a FakeMessage> {
    messages
        .iter()
        .filter(|m| !m.deleted && m.content.contains(&format!(" plays {notation}")))
        .collect()
}

/// Plays the first legal action for `who`, ignoring whatever happens to the answer (faults may
/// eat it); returns it and the interaction.
async fn play_first(fake: &FakeDiscord, who: &FakeUser, ch: u64) -> (String, u64) {
    // An autocomplete answer may itself be lost to an injected fault: type again.
    let mut tries = 0;
    let choices = loop {
        match fake
            .autocomplete(who, ch, "play", &[], ("action", ""))
            .await
        {
            Ok(c) if !c.is_empty() => break c,
            other => {
                tries += 1;
                assert!(tries < 20, "no legal actions offered: {other:?}");
            }
        }
    };
    let action = choices[0].1.as_str().unwrap().to_owned();
    let id = fake
        .slash(who, ch, "play", &[("action", &action)])
        .await
        .unwrap();
    (action, id)
}

/// Alice challenges Bob in `ch` and Bob accepts; returns (who moves first, the other) once
/// the first turn message pinged the first to move.
async fn duel<'a>(
    fake: &FakeDiscord,
    ch: u64,
    alice: &'a FakeUser,
    bob: &'a FakeUser,
) -> (&'a FakeUser, &'a FakeUser) {
    let mention = bob.mention();
    let invite = [("game", "arcana"), ("opponent", mention.as_str())];
    fake.run(alice, ch, "new", &invite).await.unwrap();
    fake.run(bob, ch, "accept", &[]).await.unwrap();
    let first = fake
        .wait_message("the first turn", |m| {
            m.content.contains("begins") && !m.notified.is_empty()
        })
        .await
        .unwrap();
    if first.notified[0] == alice.id {
        (alice, bob)
    } else {
        (bob, alice)
    }
}

/// Dispatch of each /play to the arrival of the message announcing it: the delivery latency
/// as a player sees it (the commit is inside it).
fn delivery_latencies(fake: &FakeDiscord, plays: &[(String, u64)]) -> Vec<Duration> {
    let messages = fake.messages();
    let mut out: Vec<Duration> = plays
        .iter()
        .filter_map(|(a, id)| {
            let sent = fake.interaction(*id)?.dispatched;
            announcing(&messages, a)
                .into_iter()
                .filter(|m| m.received_at >= sent)
                .map(|m| m.received_at - sent)
                .min()
        })
        .collect();
    out.sort_unstable();
    out
}

fn median_p99(sorted: &[Duration]) -> String {
    let pick = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
    format!(
        "n={} median {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        sorted.len(),
        pick(0.5).as_secs_f64() * 1e3,
        pick(0.99).as_secs_f64() * 1e3,
        sorted[sorted.len() - 1].as_secs_f64() * 1e3
    )
}

/// Arcana against the bot, with `faults` injected after start-up: every move is announced
/// exactly once, the players' pings and the result arrive once. Returns the delivery latencies
/// of the human's moves.
async fn against_the_bot(name: &str, user: u64, faults: Option<Faults>) -> Vec<Duration> {
    let dir = data_dir(name);
    let fake = FakeDiscord::start().await.expect("fake Discord binds");
    let alice = fake.add_user(user, "alice");
    fake.add_user(bot_user(), "Tokar");
    let ch = fake.add_channel("arcana");
    let bot = Bot::start(open(&dir).await, &fake, Start::default());
    fake.wait_ready(1).await.unwrap();
    let injected = faults.is_some();
    if let Some(f) = faults {
        fake.set_faults(f);
    }

    let robot = format!("<@{}>", bot_user());
    fake.slash(
        &alice,
        ch,
        "new",
        &[("game", "arcana"), ("opponent", &robot)],
    )
    .await
    .unwrap();
    wait_until(&fake, "the game to begin", |ms| {
        ms.iter().any(|m| m.content.contains("begins"))
    })
    .await;
    // Alice plays; each time she waits for the bot's answer pinging her.
    let mut pings = 0;
    let mut plays = Vec::new();
    for _ in 0..8 {
        wait_until(&fake, "alice's turn", |ms| {
            ms.iter().filter(|m| m.notified.contains(&alice.id)).count() > pings
        })
        .await;
        pings = fake.notifications(&alice).len();
        plays.push(play_first(&fake, &alice, ch).await);
    }
    wait_until(&fake, "the bot's last answer", |ms| {
        ms.iter().filter(|m| m.notified.contains(&alice.id)).count() > pings
    })
    .await;
    fake.slash(&alice, ch, "resign", &[]).await.unwrap();
    wait_until(&fake, "the result", |ms| {
        ms.iter().any(|m| m.content.contains("resigns game #1"))
    })
    .await;
    let counts = fake.fault_counts();
    fake.clear_faults();
    bot.stop().await.unwrap();

    let messages = fake.messages();
    let actions = recorded_actions(&dir, &alice, ch).await;
    assert!(actions.len() >= 16, "eight moves each: {actions:?}");
    for a in actions.iter().filter(|a| !a.starts_with('!')) {
        let played = actions.iter().filter(|b| *b == a).count();
        let found = announcing(&messages, a);
        assert_eq!(found.len(), played, "{a} announced once a play: {found:#?}");
    }
    let results: Vec<_> = messages
        .iter()
        .filter(|m| m.content.contains("resigns game #1"))
        .collect();
    assert_eq!(results.len(), 1, "{results:#?}");
    // Every ping of alice is a distinct turn (the bot's moves), none doubled.
    let to_alice = fake.notifications(&alice);
    let mut contents: Vec<&str> = to_alice.iter().map(|m| m.content.as_str()).collect();
    contents.sort_unstable();
    contents.dedup();
    assert_eq!(contents.len(), to_alice.len(), "no ping doubled");
    if injected {
        assert!(
            counts.server_errors + counts.rate_limited + counts.lost_responses >= 5,
            "faults were injected: {counts:?}"
        );
    }
    println!(
        "{name}: faults injected {counts:?}; {} messages",
        messages.len()
    );
    assert_eq!(fake.violations(), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
    delivery_latencies(&fake, &plays)
}

/// A third of Discord's answers fail (5xx, 429, lost responses): nothing is lost or doubled.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_ping_arrives_once_while_discord_fails_a_third_of_the_time() {
    init_logging();
    let faults = Faults {
        share: 0.3,
        seed: 17,
        kinds: vec![
            Fault::ServerError,
            Fault::RateLimited { retry_after: 0.05 },
            Fault::LostResponse,
        ],
        routes: RouteFilter::Any(vec![
            RouteFilter::ChannelMessages,
            RouteFilter::Webhooks,
            RouteFilter::InteractionCallbacks,
            RouteFilter::DmChannels,
        ]),
    };
    let l = against_the_bot("faults", 711_111_111_111_111_111, Some(faults)).await;
    println!("delivery latency with 30% faults: {}", median_p99(&l));
}

/// The same game with Discord answering every request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_ping_arrives_once_when_discord_answers() {
    init_logging();
    let l = against_the_bot("no-faults", 712_111_111_111_111_111, None).await;
    println!("delivery latency without faults: {}", median_p99(&l));
}

/// Ruling T12 (bot/README.md). A channel deleted mid-game: the players are told privately (a player whose DMs are closed
/// gets a line where the game goes on), and the game goes on, to its end, in the channel where
/// one of them resumes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_whose_channel_is_deleted_moves_and_finishes() {
    init_logging();
    let dir = data_dir("deleted");
    let fake = FakeDiscord::start().await.expect("fake Discord binds");
    let alice = fake.add_user(721_111_111_111_111_111, "alice");
    let bob = fake.add_user(722_222_222_222_222_222, "bob");
    let ch = fake.add_channel("arcana");
    let bot = Bot::start(open(&dir).await, &fake, Start::default());
    fake.wait_ready(1).await.unwrap();
    fake.run(
        &alice,
        ch,
        "new",
        &[("game", "arcana"), ("opponent", &bob.mention())],
    )
    .await
    .unwrap();
    fake.run(&bob, ch, "accept", &[]).await.unwrap();
    wait_until(&fake, "the game to begin", |ms| {
        ms.iter().any(|m| m.content.contains("begins"))
    })
    .await;

    // Bob accepts no direct messages: his note comes as a line where the game goes on.
    fake.close_dms(&bob);
    fake.delete_channel(ch);
    for who in [&alice] {
        let dm = fake
            .wait_message("the lost-channel note", |m| {
                m.content.contains("/resume game:1") && m.notified.contains(&who.id)
            })
            .await
            .unwrap();
        assert!(dm.content.contains("cannot go on"), "{dm:#?}");
    }
    // /games says so; the old channel refuses nothing because it is gone, any other tells why.
    let other = fake.add_channel("elsewhere");
    let games = fake.run(&alice, other, "games", &[]).await.unwrap();
    assert!(games.content.contains("lost its channel"), "{games:#?}");
    let refused = fake
        .run(&alice, other, "resign", &[("game", "1")])
        .await
        .unwrap();
    assert!(refused.content.contains("/resume game:1"), "{refused:#?}");

    let resumed = fake
        .run(&alice, other, "resume", &[("game", "1")])
        .await
        .unwrap();
    assert!(resumed.content.contains("moved game #1"), "{resumed:#?}");
    assert_eq!(resumed.channel_id, other);
    // The player to move is pinged in the new channel and plays there; then a resignation ends it.
    let waiting = resumed
        .notified
        .first()
        .copied()
        .expect("someone to move is pinged");
    let mover = if waiting == alice.id { &alice } else { &bob };
    let (a, _) = play_first(&fake, mover, other).await;
    wait_until(&fake, "the move in the new channel", |ms| {
        ms.iter()
            .any(|m| m.channel_id == other && m.content.contains(&format!(" plays {a}")))
    })
    .await;
    let note = fake
        .wait_message("the line for bob, whose DMs are closed", |m| {
            m.channel_id == other
                && m.notified == vec![bob.id]
                && m.content.contains("direct messages")
        })
        .await
        .unwrap();
    assert!(note.content.contains("game #1"), "{note:#?}");
    let end = fake.run(&alice, other, "resign", &[]).await.unwrap();
    assert!(end.content.contains("resigns game #1"), "{end:#?}");
    bot.stop().await.unwrap();
    assert_eq!(fake.violations(), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}

/// /new in a channel where the bot cannot post names what to grant; games cannot be made in a
/// DM with the bot (the command is not offered there); closed DMs are no error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn permissions_and_direct_messages() {
    init_logging();
    let dir = data_dir("perms");
    let fake = FakeDiscord::start().await.expect("fake Discord binds");
    let alice = fake.add_user(731_111_111_111_111_111, "alice");
    let bob = fake.add_user(732_222_222_222_222_222, "bob");
    let ch = fake.add_channel("closed");
    fake.set_permissions(
        ch,
        permissions::DEFAULT & !permissions::SEND_MESSAGES & !permissions::ATTACH_FILES,
    );
    // Registered globally: guild commands are never offered in DMs at all.
    let start = Start {
        guild_id: None,
        ..Start::default()
    };
    let bot = Bot::start(open(&dir).await, &fake, start);
    fake.wait_ready(1).await.unwrap();
    let m = fake
        .run(
            &alice,
            ch,
            "new",
            &[("game", "arcana"), ("opponent", &bob.mention())],
        )
        .await
        .unwrap();
    assert_eq!(m.ephemeral_to, Some(alice.id));
    assert!(m.content.contains("Send Messages, Attach Files"), "{m:#?}");
    let games = fake.run(&alice, ch, "games", &[]).await.unwrap();
    assert!(
        games.content.contains("no games"),
        "nothing was made: {games:#?}"
    );

    let refused = fake
        .slash_in_dm(
            &alice,
            "new",
            &[("game", "arcana"), ("opponent", &bob.mention())],
        )
        .await;
    assert!(refused.is_err(), "/new is not offered in DMs: {refused:?}");
    let help = fake.slash_in_dm(&alice, "help", &[]).await.unwrap();
    let help = fake.answer(help).await.unwrap();
    assert!(help.content.contains("/new"), "{help:#?}");
    bot.stop().await.unwrap();
    assert_eq!(fake.violations(), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A stop (SIGTERM's path) while a move is in flight: the move completes and the ping it
/// causes is delivered before the bot exits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stop_finishes_the_command_in_flight_and_delivers_its_ping() {
    init_logging();
    let dir = data_dir("stop");
    let fake = FakeDiscord::start().await.expect("fake Discord binds");
    let alice = fake.add_user(741_111_111_111_111_111, "alice");
    let bob = fake.add_user(742_222_222_222_222_222, "bob");
    let ch = fake.add_channel("arcana");
    // Every answer deferred at once: the move's ping is the delivery worker's.
    let start = Start {
        defer_after: Duration::ZERO,
        ..Start::default()
    };
    let bot = Bot::start(open(&dir).await, &fake, start);
    fake.wait_ready(1).await.unwrap();
    let (mover, next) = duel(&fake, ch, &alice, &bob).await;
    let (a, id) = play_first(&fake, mover, ch).await;
    // The stop comes as soon as the bot has taken the command (deferred it), while it runs.
    let until = Instant::now() + Duration::from_secs(30);
    while !fake.interaction(id).is_some_and(|i| i.deferred) {
        assert!(Instant::now() < until, "the move was never deferred");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    bot.stop().await.unwrap();
    let pinged: Vec<_> = fake
        .notifications(next)
        .into_iter()
        .filter(|m| m.content.contains(&format!(" plays {a}")))
        .collect();
    assert_eq!(
        pinged.len(),
        1,
        "the move's ping went out before the exit: {pinged:#?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A record goes out as /export made it and comes back as a file to /new (a string option
/// holds at most 6000 characters).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_comes_back_as_a_file() {
    init_logging();
    let dir = data_dir("record-file");
    let fake = FakeDiscord::start().await.expect("fake Discord binds");
    let alice = fake.add_user(751_111_111_111_111_111, "alice");
    let bob = fake.add_user(752_222_222_222_222_222, "bob");
    let ch = fake.add_channel("arcana");
    let bot = Bot::start(open(&dir).await, &fake, Start::default());
    fake.wait_ready(1).await.unwrap();
    let bob_mention = bob.mention();
    let invite = [("game", "arcana"), ("opponent", bob_mention.as_str())];
    let (mover, _) = duel(&fake, ch, &alice, &bob).await;
    let (a, _) = play_first(&fake, mover, ch).await;
    wait_until(&fake, "the move", |ms| {
        ms.iter()
            .any(|m| m.content.contains(&format!(" plays {a}")))
    })
    .await;
    let export = fake.run(&alice, ch, "export", &[]).await.unwrap();
    let record = export
        .content
        .split('`')
        .nth(1)
        .expect("a record")
        .to_owned();

    let file = tokar_tests::fake::FakeFile {
        name: "game-1-record.txt".into(),
        content_type: Some("text/plain; charset=utf-8".into()),
        bytes: record.into_bytes(),
    };
    let id = fake
        .slash_with_files(&alice, ch, "new", &invite, &[("record_file", file.clone())])
        .await
        .unwrap();
    let created = fake.answer(id).await.unwrap();
    assert!(created.content.contains("game #2"), "{created:#?}");
    // Both at once is refused, privately.
    let both = [
        ("game", "arcana"),
        ("opponent", bob_mention.as_str()),
        ("record", "tokar1|arcana||"),
    ];
    let id = fake
        .slash_with_files(&alice, ch, "new", &both, &[("record_file", file)])
        .await
        .unwrap();
    let refused = fake.answer(id).await.unwrap();
    assert_eq!(refused.ephemeral_to, Some(alice.id));
    assert!(refused.content.contains("not both"), "{refused:#?}");
    bot.stop().await.unwrap();
    assert_eq!(fake.violations(), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}
