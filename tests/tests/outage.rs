//! End-to-end: an outage longer than Discord's nonce window, during which every message the
//! delivery worker sends is created but its answer is lost, ends with every message delivered
//! exactly once: the worker finds the messages its earlier requests created (reconciliation,
//! `bot/src/discord/delivery/reconcile.rs`) instead of sending them again.
//!
//! Both nonce windows are shortened to two seconds: the bot's (`NonceWindow`, reckoned on the
//! machine's clock, a look in the channel past one second) and the fake's
//! (`set_nonce_window`, on the fake clock, which this test never advances, so that both clocks
//! are the machine's and the snowflakes the bot computes match the fake's). The outage lasts
//! in real time until every lost send is older than the fake's window by a second more.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokar_bot::discord::NonceWindow;
use tokar_tests::fake::{FakeDiscord, FakeMessage, FakeUser, Fault, Faults, Origin, RouteFilter};
use tokar_tests::harness::{Bot, Start};
use tokar_tests::players::{announcing, data_dir, open, wait_until};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::Layer;

/// Discord's nonce window as both sides take it in this test.
const WINDOW: Duration = Duration::from_secs(2);

/// Counts two kinds of log events: the fake's record of each GET of a channel's messages, and
/// the worker's line for a message found that an earlier request created.
#[derive(Clone, Default)]
struct Looks {
    gets: Arc<AtomicUsize>,
    found: Arc<AtomicUsize>,
}

/// The values of an event's fields named `message`: its text, and for the worker's line also
/// the id of the message found, which is a field of that name too.
struct Message(Vec<String>);

impl tracing::field::Visit for Message {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            self.0.push(format!("{value:?}"));
        }
    }
}

impl<S: tracing::Subscriber> Layer<S> for Looks {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        let mut m = Message(Vec::new());
        event.record(&mut m);
        let said = |f: &dyn Fn(&str) -> bool| m.0.iter().any(|v| f(v));
        let target = event.metadata().target();
        if target == "fake_discord"
            && said(&|v| v.starts_with("GET /api/v10/channels/") && v.ends_with("/messages"))
        {
            self.gets.fetch_add(1, Ordering::SeqCst);
        }
        if target.starts_with("tokar_bot")
            && said(&|v| v == "found the message an earlier request created")
        {
            self.found.fetch_add(1, Ordering::SeqCst);
        }
    }
}

/// The test's log (warnings and the fake's lines, as the other suites) and the counter.
fn logging() -> Looks {
    let looks = Looks::default();
    let shown = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,fake_discord=info"));
    let counted = tracing_subscriber::filter::filter_fn(|meta| {
        (meta.target() == "fake_discord" && *meta.level() <= tracing::Level::DEBUG)
            || (meta.target().starts_with("tokar_bot::discord::delivery")
                && *meta.level() <= tracing::Level::INFO)
    });
    tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_test_writer()
                .with_filter(shown),
        )
        .with(looks.clone().with_filter(counted))
        .init();
    looks
}

/// Whichever of `players` may act in `ch` plays their first legal action and waits for the
/// answer to their command (a deferral filled in: the move is stored). Returns the action and
/// who played it.
async fn play_one<'a>(
    fake: &FakeDiscord,
    ch: u64,
    players: [&'a FakeUser; 2],
) -> (String, &'a FakeUser) {
    let until = Instant::now() + Duration::from_secs(20);
    loop {
        for p in players {
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
            let id = fake
                .slash(p, ch, "play", &[("action", &action)])
                .await
                .unwrap();
            fake.answer(id).await.unwrap();
            return (action, p);
        }
        assert!(Instant::now() < until, "nobody may act in {ch}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The announcements of `action` the worker sent in `ch` (not the commands' own answers,
/// which are deferrals filled in with a summary line pinging nobody).
fn in_channel(messages: &[FakeMessage], ch: u64, action: &str) -> Vec<FakeMessage> {
    announcing(messages, action)
        .into_iter()
        .filter(|m| m.channel_id == ch && m.origin == Origin::Channel)
        .cloned()
        .collect()
}

/// Two games in two channels (two delivery lanes). Discord goes down for every message send
/// of the bot: each request is carried out, its answer lost. The players make two moves in
/// each game meanwhile. The outage lasts until the messages its sends created are older than
/// the nonce window; then Discord answers again and every announcement, every turn ping, is
/// there exactly once.
///
/// Without reconciliation this fails: each lane's first send is retried after the outage
/// with the same nonce, but Discord (the fake) has forgotten the nonce by then, so it creates
/// a second message with the same pings, counted as a second notification of the player to
/// move, and the move is announced twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_outage_longer_than_the_nonce_window_delivers_every_message_once() {
    let looks = logging();
    let dir = data_dir("outage", "lost-sends");
    let fake = FakeDiscord::start().await.expect("fake Discord binds");
    fake.set_nonce_window(WINDOW);
    let alice = fake.add_user(781_111_111_111_111_111, "alice");
    let bob = fake.add_user(782_222_222_222_222_222, "bob");
    let carol = fake.add_user(783_333_333_333_333_333, "carol");
    let dave = fake.add_user(784_444_444_444_444_444, "dave");
    let tables = [
        (fake.add_channel("arcana-1"), [&alice, &bob]),
        (fake.add_channel("arcana-2"), [&carol, &dave]),
    ];
    // Every answer deferred at once: each move's announcement and ping is a message the
    // delivery worker sends in the game's channel.
    let start = Start {
        defer_after: Duration::ZERO,
        nonce_window: NonceWindow {
            window: WINDOW,
            safe: WINDOW / 2,
            ..NonceWindow::default()
        },
        ..Start::default()
    };
    let bot = Bot::start(open(&dir).await, &fake, start);
    fake.wait_ready(1).await.unwrap();
    for (ch, [a, b]) in &tables {
        let invite = [("game", "arcana"), ("opponent", &b.mention())];
        fake.run(a, *ch, "new", &invite).await.unwrap();
        fake.run(b, *ch, "accept", &[]).await.unwrap();
        let ch = *ch;
        fake.wait_message("the first turn", |m| {
            m.channel_id == ch && m.content.contains("begins") && !m.notified.is_empty()
        })
        .await
        .unwrap();
    }
    let before = fake.messages().len();

    // The outage: every send of a channel message (and every read of a channel's messages)
    // is carried out, and its answer lost.
    fake.set_faults(Faults::always(
        Fault::LostResponse,
        RouteFilter::ChannelMessages,
    ));
    let outage = Instant::now();
    let mut plays = Vec::new();
    for (ch, players) in &tables {
        for _ in 0..2 {
            let (action, by) = play_one(&fake, *ch, *players).await;
            let next = if by.id == players[0].id {
                players[1]
            } else {
                players[0]
            };
            plays.push((*ch, action, next));
        }
    }
    // Each lane's first announcement is created by a request whose answer is lost; the ones
    // behind it wait their turn.
    let heads: Vec<(u64, String)> = tables
        .iter()
        .map(|(ch, _)| {
            let (_, a, _) = plays.iter().find(|(c, _, _)| c == ch).expect("a move");
            (*ch, a.clone())
        })
        .collect();
    wait_until(&fake, "each lane's first lost send", |ms| {
        heads
            .iter()
            .all(|(ch, a)| !in_channel(ms, *ch, a).is_empty())
    })
    .await;
    let created = fake
        .messages()
        .iter()
        .skip(before)
        .map(|m| m.received_at)
        .max()
        .expect("the lost sends created messages");
    // Past the fake's nonce window for every message created so far, by a second more.
    let resume = created + WINDOW + Duration::from_secs(1);
    tokio::time::sleep(resume.saturating_duration_since(Instant::now())).await;
    let during = fake.fault_counts();
    let gets_during = looks.gets.load(Ordering::SeqCst);
    fake.clear_faults();
    let lasted = outage.elapsed();

    wait_until(&fake, "every announcement", |ms| {
        plays
            .iter()
            .all(|(ch, a, _)| !in_channel(ms, *ch, a).is_empty())
    })
    .await;
    // Room for a late double to show, then a stop that drains the outbox.
    tokio::time::sleep(Duration::from_secs(1)).await;
    bot.stop().await.unwrap();

    let messages = fake.messages();
    for (ch, a, next) in &plays {
        let played = plays.iter().filter(|(c, b, _)| c == ch && b == a).count();
        let found = in_channel(&messages, *ch, a);
        assert_eq!(
            found.len(),
            played,
            "{a} announced once in {ch}: {found:#?}"
        );
        let pinged: Vec<_> = fake
            .notifications(next)
            .into_iter()
            .filter(|m| m.channel_id == *ch && m.content.contains(&format!(" plays {a}")))
            .collect();
        assert_eq!(
            pinged.len(),
            played,
            "{} notified once of {a}: {pinged:#?}",
            next.name
        );
    }
    // No notification of anyone doubled, announcements or otherwise.
    for p in [&alice, &bob, &carol, &dave] {
        let got = fake.notifications(p);
        let mut contents: Vec<&str> = got.iter().map(|m| m.content.as_str()).collect();
        contents.sort_unstable();
        contents.dedup();
        assert_eq!(contents.len(), got.len(), "no ping of {} doubled", p.name);
    }
    let found = looks.found.load(Ordering::SeqCst);
    let gets = looks.gets.load(Ordering::SeqCst);
    println!(
        "outage of {:.1} s (nonce window {WINDOW:?}): {} moves, {} messages in all ({} since \
         the outage began); faults during it {during:?}, in all {:?}; {} channel reads ({} \
         during the outage); {found} messages found by reconciliation; {} nonce dedupes",
        lasted.as_secs_f64(),
        plays.len(),
        messages.len(),
        messages.len() - before,
        fake.fault_counts(),
        gets,
        gets_during,
        fake.nonce_dedupes(),
    );
    assert!(
        during.lost_responses >= tables.len(),
        "each lane lost a send's answer: {during:?}"
    );
    assert!(
        lasted > WINDOW,
        "the outage outlasted the nonce window: {lasted:?}"
    );
    assert!(
        found >= tables.len(),
        "each lane's lost send was found in its channel, not sent again ({found})"
    );
    assert!(gets >= found, "the channel was read: {gets} reads");
    assert_eq!(fake.violations(), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}
