//! Crash run: Tokar's Discord process is killed with SIGKILL at random moments while it plays
//! and delivers, against a fake Discord that fails a share of its answers, and restarted each
//! time. Every message the store committed reaches Discord exactly once: each recorded move is
//! announced once, no ping is doubled, and nothing is left in the outbox. The last start serves
//! the metrics endpoint, which the test scrapes, and ends with a real SIGTERM.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tokar_tests::fake::{FakeDiscord, FakeMessage, FakeUser, Faults};
use tokar_tests::harness::{bot_user_id, free_port, init_logging, scrape_metrics};
use tokar_tests::players::{announcing, data_dir, open, recorded_actions};

/// Kills in one run: the issue asks for at least twenty.
const KILLS: usize = 24;

/// A small deterministic generator for the moments of the kills (splitmix64), so that a failing
/// run can be repeated.
struct Moments(u64);

impl Moments {
    fn next_ms(&mut self, below: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % below
    }
}

/// Starts `tokar-on-fake` on `dir`; its log goes to `log`, appended across starts.
fn start(dir: &Path, fake: &FakeDiscord, log: &Path, metrics: Option<u16>) -> Child {
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .expect("log file");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tokar-on-fake"));
    cmd.arg(dir)
        .arg(fake.api_base())
        .env("TOKAR_TICK_SECONDS", "1")
        .env("TOKAR_DRAIN_SECONDS", "10")
        .env("RUST_LOG", "warn")
        .env_remove("TOKAR_METRICS_ADDR")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log);
    if let Some(port) = metrics {
        cmd.env("TOKAR_METRICS_ADDR", format!("127.0.0.1:{port}"));
    }
    cmd.spawn().expect("tokar-on-fake starts")
}

/// The highest game number whose start was announced, and whether that game is over.
fn current_game(messages: &[FakeMessage]) -> (u64, bool) {
    let begun = messages
        .iter()
        .filter(|m| !m.deleted && m.content.contains(") begins: "))
        .filter_map(|m| {
            let rest = &m.content[m.content.find("Game #")? + 6..];
            rest.split(' ').next()?.parse::<u64>().ok()
        })
        .max()
        .unwrap_or(0);
    let over = messages
        .iter()
        .any(|m| m.content.contains(&format!("Game #{begun} (")) && m.content.contains(" is over"));
    (begun, over)
}

/// Alice's legal actions, or none when it is not her turn (or the suggestion was lost).
async fn her_actions(fake: &FakeDiscord, alice: &FakeUser, ch: u64) -> Vec<String> {
    for _ in 0..5 {
        if let Ok(c) = fake
            .autocomplete(alice, ch, "play", &[], ("action", ""))
            .await
        {
            return c
                .iter()
                .filter_map(|(_, v)| v.as_str().map(str::to_owned))
                .collect();
        }
    }
    Vec::new()
}

/// The value of an unlabelled metric in a scrape.
fn metric(scrape: &str, name: &str) -> Option<f64> {
    scrape
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_committed_message_is_delivered_once_across_kills() {
    init_logging();
    let dir = data_dir("kills", "sigkill");
    let log = dir.with_extension("log");
    let _ = std::fs::remove_file(&log);
    let fake = FakeDiscord::start().await.expect("fake Discord binds");
    let alice = fake.add_user(761_111_111_111_111_111, "alice");
    fake.add_user(bot_user_id(), "Tokar");
    let ch = fake.add_channel("arcana");
    let robot = format!("<@{}>", bot_user_id());

    let mut bot = start(&dir, &fake, &log, None);
    fake.wait_ready(1).await.unwrap();
    // Half of the message sends fail or lose their answer, so that deliveries are often under
    // way (retrying) when the kill comes.
    fake.set_faults(Faults::on_messages(0.5, 23));

    let mut moments = Moments(0x70ca_2026);
    let mut plays = 0;
    for kill in 0..KILLS {
        let (game, over) = current_game(&fake.messages());
        if game == 0 || over {
            // A game against the bot (again, when the last one ended or its /new was lost).
            let _ = fake
                .slash(
                    &alice,
                    ch,
                    "new",
                    &[("game", "arcana"), ("opponent", &robot)],
                )
                .await;
        } else if let Some(a) = her_actions(&fake, &alice, ch).await.first() {
            let _ = fake.slash(&alice, ch, "play", &[("action", a)]).await;
            plays += 1;
        }
        // The kill falls anywhere from the command's arrival to well after the bot's answer.
        tokio::time::sleep(Duration::from_millis(moments.next_ms(1500))).await;
        bot.kill().expect("SIGKILL");
        bot.wait().expect("the killed bot is reaped");
        bot = start(&dir, &fake, &log, None);
        fake.wait_ready(kill + 2)
            .await
            .unwrap_or_else(|e| panic!("restart {}: {e}", kill + 1));
    }
    bot.kill().expect("SIGKILL");
    bot.wait().expect("reaped");
    let faults = fake.fault_counts();

    // The last start: Discord answers everything again; the bot finishes what is due.
    fake.clear_faults();
    let port = free_port();
    let mut bot = start(&dir, &fake, &log, Some(port));
    fake.wait_ready(KILLS + 2).await.unwrap();
    let until = Instant::now() + Duration::from_secs(60);
    let settled = loop {
        // Settled: Alice to move (or the game over), and nothing left to deliver.
        let (_, over) = current_game(&fake.messages());
        let quiet = scrape_metrics(port)
            .await
            .ok()
            .filter(|s| metric(s, "tokar_outbox_depth") == Some(0.0))
            .filter(|s| metric(s, "tokar_gateway_ready") == Some(1.0));
        if let Some(s) = quiet {
            if over || !her_actions(&fake, &alice, ch).await.is_empty() {
                break s;
            }
        }
        assert!(
            Instant::now() < until,
            "the bot never settled; see {}",
            log.display()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let (_, over) = current_game(&fake.messages());
    assert_eq!(
        metric(&settled, "tokar_games_in_play"),
        Some(if over { 0.0 } else { 1.0 }),
        "{settled}"
    );
    assert!(
        metric(&settled, "tokar_outbox_oldest_seconds").is_some(),
        "{settled}"
    );
    // A command, timed.
    let games = fake.run(&alice, ch, "games", &[]).await.unwrap();
    assert!(games.content.contains("#1"), "{games:#?}");
    let after = scrape_metrics(port).await.expect("the endpoint answers");
    assert!(
        after.contains("tokar_commands_total{command=\"games\"} 1"),
        "the command is counted:\n{after}"
    );
    assert!(
        after.contains("tokar_command_seconds_count{command=\"games\"} 1")
            || after.contains("tokar_command_seconds{command=\"games\",quantile="),
        "its latency is served:\n{after}"
    );

    // A real SIGTERM: the bot drains and exits 0.
    let term = Command::new("kill")
        .args(["-TERM", &bot.id().to_string()])
        .status()
        .expect("kill -TERM runs");
    assert!(term.success());
    let status = tokio::task::spawn_blocking(move || bot.wait())
        .await
        .unwrap()
        .expect("reaped");
    assert!(
        status.success(),
        "SIGTERM ends the bot cleanly: {status}; see {}",
        log.display()
    );

    // Every recorded move of every game was announced exactly once; nothing waits in the outbox.
    let messages = fake.messages();
    let (games, _) = current_game(&messages);
    assert!(games >= 1, "a game was played");
    let table = open(&dir).await;
    assert_eq!(table.outbox_len().await, 0, "nothing left undelivered");
    drop(table);
    let mut recorded = 0;
    for game in 1..=games {
        let of_game: Vec<FakeMessage> = messages
            .iter()
            .filter(|m| {
                m.content.contains(&format!("#{game} ")) || m.content.contains(&format!("#{game}:"))
            })
            .cloned()
            .collect();
        let actions = recorded_actions(&dir, game, &alice, ch).await;
        for a in actions.iter().filter(|a| !a.starts_with('!')) {
            let played = actions.iter().filter(|b| *b == a).count();
            let found = announcing(&of_game, a);
            assert_eq!(
                found.len(),
                played,
                "game #{game}: {a} announced once a play: {found:#?}"
            );
        }
        recorded += actions.len();
    }
    // Every ping of alice is a distinct turn, none doubled.
    let to_alice = fake.notifications(&alice);
    let mut contents: Vec<&str> = to_alice.iter().map(|m| m.content.as_str()).collect();
    contents.sort_unstable();
    contents.dedup();
    assert_eq!(contents.len(), to_alice.len(), "no ping doubled");
    assert_eq!(fake.violations(), Vec::<String>::new());
    println!(
        "kills: {KILLS}; games {games}; /play sent {plays}; actions recorded {recorded}; \
         messages {}; pings to alice {}; nonce dedupes {}; faults {faults:?}",
        messages.len(),
        to_alice.len(),
        fake.nonce_dedupes()
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&log);
}
