//! End-to-end: what Tokar says reaches players once, whatever Discord does: injected 5xx, 429
//! and lost responses, a deleted channel, a missing permission, a command from a DM, and a
//! stop with a command in flight.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokar_bot::Table;
use tokar_tests::fake::{permissions, FakeDiscord, FakeMessage, Faults};
use tokar_tests::harness::{bot_table_config, bot_user_id, init_logging, Bot, SkewedClock, Start};
use tokar_tests::players::{
    announcing, data_dir, duel, open, play_first, recorded_actions, wait_until,
};

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
/// exactly once, the players' pings, two hourly reminders and the result arrive once. Returns
/// the delivery latencies of the human's moves.
async fn against_the_bot(name: &str, user: u64, faults: Option<Faults>) -> Vec<Duration> {
    let dir = data_dir("delivery", name);
    let fake = FakeDiscord::start().await.expect("fake Discord binds");
    let alice = fake.add_user(user, "alice");
    fake.add_user(bot_user_id(), "Tokar");
    let ch = fake.add_channel("arcana");
    // The table's clock jumps ahead for the reminders; the scheduler looks often.
    let clock = SkewedClock::default();
    let mut config = bot_table_config(&dir);
    config.clock = Arc::new(clock.clone());
    let table = Table::open(config).await.expect("table opens");
    tokar_tests::harness::games_in_channels(&table).await;
    let start = Start {
        tick_every: Duration::from_millis(200),
        ..Start::default()
    };
    let bot = Bot::start(table, &fake, start);
    fake.wait_ready(1).await.unwrap();
    let settings = fake
        .run(&alice, ch, "settings", &[("reminder", "1h")])
        .await
        .unwrap();
    assert!(settings.content.contains("every 1h"), "{settings:#?}");
    let injected = faults.is_some();
    if let Some(f) = faults {
        fake.set_faults(f);
    }

    let robot = format!("<@{}>", bot_user_id());
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
    // Alice plays; each time she waits for her turn: the bot's answer pinging her, or her
    // own action's announcement when her turn goes on (a piece of hers the bot killed is
    // revived, then she moves; she is not pinged for the turn she is already playing).
    let alice_acts = |ms: &[FakeMessage]| {
        ms.iter()
            .filter(|m| m.content.contains("Human (alice) to act"))
            .count()
    };
    let pings_of_alice =
        |ms: &[FakeMessage]| ms.iter().filter(|m| m.notified.contains(&alice.id)).count();
    let (mut pings, mut turns) = (0, 0);
    let mut plays = Vec::new();
    for _ in 0..8 {
        wait_until(&fake, "alice's turn", |ms| {
            pings_of_alice(ms) > pings || alice_acts(ms) > turns
        })
        .await;
        let messages = fake.messages();
        (pings, turns) = (pings_of_alice(&messages), alice_acts(&messages));
        plays.push(play_first(&fake, &alice, ch).await);
    }
    wait_until(&fake, "the bot's last answer", |ms| {
        pings_of_alice(ms) > pings || alice_acts(ms) > turns
    })
    .await;
    // Alice thinks for two hours: two reminders, an hour apart.
    let reminded = |ms: &[FakeMessage]| {
        ms.iter()
            .filter(|m| m.content.contains("Reminder: game #1") && m.notified == vec![alice.id])
            .count()
    };
    for n in 1..=2 {
        clock.advance(Duration::from_secs(61 * 60));
        wait_until(&fake, "a reminder", |ms| reminded(ms) >= n).await;
    }
    fake.slash(&alice, ch, "resign", &[("confirm", "true")])
        .await
        .unwrap();
    wait_until(&fake, "the result", |ms| {
        ms.iter().any(|m| m.content.contains("resigns game #1"))
    })
    .await;
    let counts = fake.fault_counts();
    fake.clear_faults();
    bot.stop().await.unwrap();

    let messages = fake.messages();
    let actions = recorded_actions(&dir, 1, &alice, ch).await;
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
    assert_eq!(reminded(&messages), 2, "each reminder once");
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
    let faults = Faults::on_messages(0.3, 17);
    let l = against_the_bot("faults", 711_111_111_111_111_111, Some(faults)).await;
    println!("delivery latency with 30% faults: {}", median_p99(&l));
}

/// Four players open a game of Magic Chess while a third of Discord's answers fail: the
/// invitation, the acceptances, the start, every action's announcement and every ping arrive
/// exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_four_player_magic_chess_opening_arrives_once_while_discord_fails() {
    init_logging();
    let dir = data_dir("delivery", "magic-faults");
    let fake = FakeDiscord::start().await.expect("fake Discord binds");
    let players = [
        fake.add_user(771_111_111_111_111_111, "alice"),
        fake.add_user(772_222_222_222_222_222, "bob"),
        fake.add_user(773_333_333_333_333_333, "carol"),
        fake.add_user(774_444_444_444_444_444, "dave"),
    ];
    let ch = fake.add_channel("magic");
    let bot = Bot::start(open(&dir).await, &fake, Start::default());
    fake.wait_ready(1).await.unwrap();
    fake.set_faults(Faults::on_messages(0.3, 29));

    let [alice, bob, carol, dave] = &players;
    let (m1, m2, m3) = (bob.mention(), carol.mention(), dave.mention());
    let invite = [
        ("game", "magic-chess"),
        ("opponent", m1.as_str()),
        ("opponent2", m2.as_str()),
        ("opponent3", m3.as_str()),
    ];
    fake.slash(alice, ch, "new", &invite).await.unwrap();
    wait_until(&fake, "the invitation", |ms| {
        ms.iter()
            .any(|m| m.content.contains("game #1") && m.notified.len() == 3)
    })
    .await;
    for p in [bob, carol, dave] {
        fake.slash(p, ch, "accept", &[]).await.unwrap();
        // Accepting is answered only once it is stored; wait for it before the next one.
        let accepted = format!("{} accepted game #1", p.name);
        wait_until(&fake, "the acceptance", |ms| {
            ms.iter()
                .any(|m| m.content.contains(&accepted) || m.content.contains(") begins: "))
        })
        .await;
    }
    wait_until(&fake, "the game to begin", |ms| {
        ms.iter().any(|m| m.content.contains(") begins: "))
    })
    .await;

    // Two rounds: whoever may act plays their first legal action and waits for its announcement.
    let mut plays = 0;
    let until = Instant::now() + Duration::from_secs(120);
    while plays < 8 {
        assert!(
            Instant::now() < until,
            "the opening stalled after {plays} actions"
        );
        let mut acted = false;
        for p in &players {
            let Ok(choices) = fake.autocomplete(p, ch, "play", &[], ("action", "")).await else {
                continue;
            };
            let Some(action) = choices
                .first()
                .and_then(|c| c.1.as_str())
                .map(str::to_owned)
            else {
                continue;
            };
            let before = announcing(&fake.messages(), &action).len();
            fake.slash(p, ch, "play", &[("action", &action)])
                .await
                .unwrap();
            wait_until(&fake, "the action's announcement", |ms| {
                announcing(ms, &action).len() > before
            })
            .await;
            plays += 1;
            acted = true;
            break;
        }
        if !acted {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    let counts = fake.fault_counts();
    fake.clear_faults();
    bot.stop().await.unwrap();

    let messages = fake.messages();
    let actions = recorded_actions(&dir, 1, alice, ch).await;
    assert!(actions.len() >= 8, "eight actions: {actions:?}");
    for a in actions.iter().filter(|a| !a.starts_with('!')) {
        let played = actions.iter().filter(|b| *b == a).count();
        let found = announcing(&messages, a);
        assert_eq!(found.len(), played, "{a} announced once a play: {found:#?}");
    }
    let begins = messages
        .iter()
        .filter(|m| m.content.contains(") begins: "))
        .count();
    assert_eq!(begins, 1, "the start is announced once");
    for p in &players {
        let pings = fake.notifications(p);
        let mut contents: Vec<&str> = pings.iter().map(|m| m.content.as_str()).collect();
        contents.sort_unstable();
        contents.dedup();
        assert_eq!(contents.len(), pings.len(), "no ping of {} doubled", p.name);
    }
    assert!(
        counts.server_errors + counts.rate_limited + counts.lost_responses >= 5,
        "faults were injected: {counts:?}"
    );
    println!(
        "magic chess opening: faults injected {counts:?}; {} messages",
        messages.len()
    );
    assert_eq!(fake.violations(), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same game with Discord answering every request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_ping_arrives_once_when_discord_answers() {
    init_logging();
    let l = against_the_bot("no-faults", 712_111_111_111_111_111, None).await;
    println!("delivery latency without faults: {}", median_p99(&l));
}

/// Ruling T12 (docs/rulings.md). A channel deleted mid-game: the players are told privately (a player whose DMs are closed
/// gets a line where the game goes on), and the game goes on, to its end, in the channel where
/// one of them resumes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_whose_channel_is_deleted_moves_and_finishes() {
    init_logging();
    let dir = data_dir("delivery", "deleted");
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
    let end = fake
        .run(&alice, other, "resign", &[("confirm", "true")])
        .await
        .unwrap();
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
    let dir = data_dir("delivery", "perms");
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
    let dir = data_dir("delivery", "stop");
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
    let dir = data_dir("delivery", "record-file");
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
    // A record from a game in play whose first mover chance drew cannot be replayed (T14):
    // the record is taken once the game is over, when it carries its seed.
    fake.run(&alice, ch, "resign", &[("confirm", "true")])
        .await
        .unwrap();
    let export = fake.run(&alice, ch, "export", &[]).await.unwrap();
    let record = export
        .content
        .split('`')
        .nth(1)
        .expect("a record")
        .trim_matches('"')
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
