//! A game in its own thread (rulings T19, T12) through the real Discord adapter against the
//! fake Discord: the thread opened under the game's channel, the game played and ended in
//! it with the channel's two lines, an auto-archived thread unarchived by Tokar's next post,
//! and a locked thread handled as a lost channel.

use std::path::PathBuf;
use std::time::Duration;

use tokar_tests::fake::permissions as perm;
use tokar_tests::fake::{FakeDiscord, FakeMessage, FakeUser};
use tokar_tests::harness::{init_logging, open_on_clock, Bot, SkewedClock, Start};
use tokar_tests::players::wait_until;

fn data_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("tokar-threads-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

struct Game {
    fake: FakeDiscord,
    bot: Bot,
    clock: SkewedClock,
    alice: FakeUser,
    bob: FakeUser,
    channel: u64,
    thread: u64,
}

/// The fake server with alice and bob (reminders every hour) and #arcana, the bot running.
async fn boot(name: &str) -> (FakeDiscord, Bot, SkewedClock, FakeUser, FakeUser, u64) {
    init_logging();
    let dir = data_dir(name);
    let fake = FakeDiscord::start().await.expect("fake Discord binds");
    let alice = fake.add_user(111_111_111_111_111_111, "alice");
    let bob = fake.add_user(222_222_222_222_222_222, "bob");
    let channel = fake.add_channel("arcana");
    let clock = SkewedClock::default();
    let start = Start {
        tick_every: Duration::from_millis(200),
        ..Start::default()
    };
    let bot = Bot::start(open_on_clock(&dir, &clock).await, &fake, start);
    fake.wait_ready(1).await.unwrap();
    for u in [&alice, &bob] {
        fake.run(u, channel, "settings", &[("reminder", "1h")])
            .await
            .unwrap();
    }
    (fake, bot, clock, alice, bob, channel)
}

/// alice invites bob in #arcana and bob accepts with the invitation's button; the game's
/// thread is open and its line-up posted there.
async fn started(name: &str) -> Game {
    let (fake, bot, clock, alice, bob, channel) = boot(name).await;
    let invitation = fake
        .run(
            &alice,
            channel,
            "new",
            &[("game", "arcana"), ("opponent", &bob.mention())],
        )
        .await
        .unwrap();
    let accept = invitation
        .buttons
        .iter()
        .find(|b| b.custom_id.ends_with(":accept"))
        .unwrap_or_else(|| panic!("an Accept button: {invitation:#?}"))
        .custom_id
        .clone();
    let click = fake.click(&bob, invitation.id, &accept).await.unwrap();
    let answer = fake.answer(click).await.unwrap();
    assert_eq!(answer.ephemeral_to, Some(bob.id), "{answer:#?}");
    let link = fake
        .wait_message("the channel's link", |m| {
            m.channel_id == channel && m.content.contains("is played in its thread")
        })
        .await
        .unwrap();
    let thread: u64 = link
        .content
        .split("<#")
        .nth(1)
        .and_then(|s| s.split('>').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("a thread link: {}", link.content));
    let t = fake.channel(thread).expect("the thread exists");
    assert!(t.is_thread());
    assert_eq!(t.parent_id, Some(channel));
    assert_eq!(t.name, "#1 Arcana · alice vs bob");
    let begins = fake
        .wait_message("the line-up in the thread", |m| {
            m.channel_id == thread && m.content.contains("begins")
        })
        .await
        .unwrap();
    assert!(!begins.files.is_empty(), "with the first picture");
    Game {
        fake,
        bot,
        clock,
        alice,
        bob,
        channel,
        thread,
    }
}

impl Game {
    /// Who is to act: the one the latest turn message in the thread pinged.
    fn to_act(&self) -> &FakeUser {
        let last = self
            .fake
            .messages()
            .into_iter()
            .rfind(|m| m.channel_id == self.thread && !m.pinged_users.is_empty())
            .expect("a turn message");
        if last.pinged_users.contains(&self.alice.id) {
            &self.alice
        } else {
            &self.bob
        }
    }

    /// The bot's lines in the game's channel that name the game.
    fn channel_lines(&self) -> Vec<FakeMessage> {
        self.fake
            .messages()
            .into_iter()
            .filter(|m| {
                m.channel_id == self.channel
                    && m.content.contains("Game #1 (Arcana · alice vs bob)")
            })
            .collect()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_from_start_to_result_in_its_own_thread() {
    let g = started("game").await;
    assert_eq!(g.channel_lines().len(), 1, "one line at the start");
    // Two moves typed in the thread, without game:.
    for _ in 0..2 {
        let who = g.to_act();
        let choices = g
            .fake
            .autocomplete(who, g.thread, "play", &[], ("action", ""))
            .await
            .unwrap();
        let action = choices[0].1.as_str().unwrap().to_owned();
        let m = g
            .fake
            .run(who, g.thread, "play", &[("action", &action)])
            .await
            .unwrap();
        assert_eq!(m.channel_id, g.thread, "{m:#?}");
        assert!(m.ephemeral_to.is_none(), "{m:#?}");
    }
    let who = g.to_act();
    let m = g
        .fake
        .run(who, g.thread, "resign", &[("confirm", "true")])
        .await
        .unwrap();
    assert_eq!(
        m.channel_id, g.thread,
        "the result is in the thread: {m:#?}"
    );
    let end = g
        .fake
        .wait_message("the channel's second line", |m| {
            m.channel_id == g.channel && m.content.contains("is over")
        })
        .await
        .unwrap();
    assert!(
        end.content.contains(&format!("<#{}>", g.thread)),
        "{end:#?}"
    );
    assert_eq!(g.channel_lines().len(), 2, "{:#?}", g.channel_lines());
    g.bot.stop().await.unwrap();
    assert!(g.fake.violations().is_empty(), "{:?}", g.fake.violations());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_archived_thread_is_unarchived_when_tokar_posts() {
    let g = started("archived").await;
    g.fake.archive_thread(g.thread);
    g.clock.advance(Duration::from_secs(61 * 60));
    wait_until(&g.fake, "a reminder in the thread", |ms| {
        ms.iter()
            .any(|m| m.channel_id == g.thread && m.content.contains("Reminder: game #1"))
    })
    .await;
    assert!(
        !g.fake.channel(g.thread).unwrap().archived,
        "posting unarchived it"
    );
    g.bot.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_locked_thread_is_handled_as_a_lost_channel() {
    let g = started("locked").await;
    g.fake.lock_thread(g.thread);
    g.clock.advance(Duration::from_secs(61 * 60));
    wait_until(&g.fake, "the players told to /resume", |_| {
        [&g.alice, &g.bob].iter().all(|u| {
            g.fake
                .direct_messages(u)
                .iter()
                .any(|m| m.content.contains("/resume game:1"))
        })
    })
    .await;
    let who = g.to_act();
    let m = g
        .fake
        .run(who, g.channel, "resume", &[("game", "1")])
        .await
        .unwrap();
    assert_eq!(m.channel_id, g.channel, "{m:#?}");
    assert!(m.content.contains("moved game #1"), "{m:#?}");
    g.bot.stop().await.unwrap();
}

// Ruling T20: without Create Public Threads the game goes on in its channel, told once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_thread_leaves_the_game_in_its_channel() {
    let (fake, bot, _clock, alice, bob, channel) = boot("refused").await;
    fake.set_permissions(channel, perm::DEFAULT & !perm::CREATE_PUBLIC_THREADS);
    fake.run(
        &alice,
        channel,
        "new",
        &[("game", "arcana"), ("opponent", &bob.mention())],
    )
    .await
    .unwrap();
    fake.run(&bob, channel, "accept", &[]).await.unwrap();
    let begins = fake
        .wait_message("the line-up in the channel", |m| {
            m.channel_id == channel && m.content.contains("begins")
        })
        .await
        .unwrap();
    assert!(!begins.pinged_users.is_empty(), "{begins:#?}");
    fake.wait_message("the channel told once", |m| {
        m.channel_id == channel && m.content.contains("is played here in the channel")
    })
    .await
    .unwrap();
    let told: Vec<FakeMessage> = fake
        .messages()
        .into_iter()
        .filter(|m| m.content.contains("is played here in the channel"))
        .collect();
    assert_eq!(told.len(), 1, "{told:#?}");
    assert_eq!(
        told[0].content,
        "Game #1 is played here in the channel: Tokar may not open threads in this channel."
    );
    assert!(
        fake.messages()
            .iter()
            .all(|m| fake.channel(m.channel_id).is_none_or(|c| !c.is_thread())),
        "no thread was opened"
    );
    bot.stop().await.unwrap();
}

// Ruling T21: /server is registered for Manage Server, and a member without it is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn changing_the_server_setting_needs_manage_server() {
    let (fake, bot, _clock, alice, _bob, channel) = boot("manage").await;
    let cmds = fake.commands();
    let server = cmds
        .iter()
        .find(|(_, c)| c["name"] == "server")
        .expect("/server is registered");
    // MANAGE_GUILD is 1 << 5.
    assert_eq!(server.1["default_member_permissions"], "32");
    let m = fake
        .run(&alice, channel, "server", &[("threads", "off")])
        .await
        .unwrap();
    assert_eq!(m.ephemeral_to, Some(alice.id));
    assert_eq!(
        m.content,
        "Only someone with the Manage Server permission may change this server's settings."
    );
    bot.stop().await.unwrap();
}
