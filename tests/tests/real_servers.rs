//! Games on servers shaped as real ones are, through the real Discord adapter against the
//! fake Discord: channels inside categories (whose `parent_id` is the category, not a thread),
//! servers where a thread cannot open (the reason told by Discord's error code), threads that
//! archive after a quiet month while the game goes on from its channel and from elsewhere on
//! the server (ruling T38), and a game's end pinging every player (ruling T39).

use std::time::Duration;

use tokar_tests::fake::permissions as perm;
use tokar_tests::fake::{ChannelKind, FakeDiscord, FakeMessage, FakeUser, Limits};
use tokar_tests::harness::{init_logging, open_on_clock, Bot, SkewedClock, Start};

const DAY: Duration = Duration::from_secs(24 * 60 * 60);

/// The fake server with alice and bob, the bot running with threads on (the default).
struct Server {
    fake: FakeDiscord,
    bot: Bot,
    clock: SkewedClock,
    alice: FakeUser,
    bob: FakeUser,
}

async fn boot(name: &str) -> Server {
    init_logging();
    let fake = FakeDiscord::start().await.expect("fake Discord binds");
    let alice = fake.add_user(111_111_111_111_111_111, "alice");
    let bob = fake.add_user(222_222_222_222_222_222, "bob");
    let clock = SkewedClock::default();
    let start = Start {
        tick_every: Duration::from_millis(200),
        ..Start::default()
    };
    let bot = Bot::start(
        open_on_clock(
            &tokar_tests::players::data_dir("real-servers", name),
            &clock,
        )
        .await,
        &fake,
        start,
    );
    fake.wait_ready(1).await.unwrap();
    Server {
        fake,
        bot,
        clock,
        alice,
        bob,
    }
}

impl Server {
    /// alice invites bob to Arcana in `channel` with `extra` options; bob accepts by button.
    async fn duel(&self, channel: u64, extra: &[(&str, &str)]) {
        let bob = self.bob.mention();
        let mut options = vec![("game", "arcana"), ("opponent", bob.as_str())];
        options.extend_from_slice(extra);
        let invitation = self
            .fake
            .run(&self.alice, channel, "new", &options)
            .await
            .unwrap();
        let accept = invitation
            .buttons
            .iter()
            .find(|b| b.custom_id.ends_with(":accept"))
            .unwrap_or_else(|| panic!("an Accept button: {invitation:#?}"))
            .custom_id
            .clone();
        let click = self
            .fake
            .click(&self.bob, invitation.id, &accept)
            .await
            .unwrap();
        self.fake.answer(click).await.unwrap();
    }

    /// The thread the channel's line links to, once the game moved into it.
    async fn thread_of(&self, channel: u64) -> u64 {
        let link = self
            .fake
            .wait_message("the channel's link to the game's thread", |m| {
                m.channel_id == channel && m.content.contains("is played in its thread")
            })
            .await
            .unwrap();
        link.content
            .split("<#")
            .nth(1)
            .and_then(|s| s.split('>').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("a thread link: {}", link.content))
    }

    /// Who the latest turn message in `home` pinged.
    fn to_act(&self, home: u64) -> &FakeUser {
        let last = self
            .fake
            .messages()
            .into_iter()
            .rfind(|m| m.channel_id == home && !m.notified.is_empty())
            .expect("a turn message");
        if last.notified.contains(&self.alice.id) {
            &self.alice
        } else {
            &self.bob
        }
    }

    /// A legal action for `who` in game 1, as `/play game:1`'s autocomplete offers it in
    /// `channel`.
    async fn an_action(&self, who: &FakeUser, channel: u64) -> String {
        let choices = self
            .fake
            .autocomplete(who, channel, "play", &[("game", "1")], ("action", ""))
            .await
            .unwrap();
        choices[0].1.as_str().expect("a choice's value").to_owned()
    }

    fn in_channel(&self, channel: u64) -> Vec<FakeMessage> {
        self.fake
            .messages()
            .into_iter()
            .filter(|m| m.channel_id == channel)
            .collect()
    }
}

// Ruling T19 on a server whose channels sit in categories: Discord gives a text channel in a
// category the category as its `parent_id`; the game still gets its own thread under it.
// Before threads were known by their channel type, that `parent_id` made the channel pass
// for a thread and no thread was opened.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_in_a_channel_inside_a_category_gets_its_thread() {
    let s = boot("category").await;
    let category = s.fake.add_category("Games");
    let channel = s.fake.add_channel_in(category, "arcana");
    assert_eq!(s.fake.channel(channel).unwrap().parent_id, Some(category));
    s.duel(channel, &[]).await;
    let thread = s.thread_of(channel).await;
    let t = s.fake.channel(thread).expect("the thread exists");
    assert!(t.is_thread(), "{t:#?}");
    assert_eq!(
        t.parent_id,
        Some(channel),
        "under the channel, not the category"
    );
    s.fake
        .wait_message("the line-up in the thread", |m| {
            m.channel_id == thread && m.content.contains("begins")
        })
        .await
        .unwrap();
    s.bot.stop().await.unwrap();
    assert!(s.fake.violations().is_empty(), "{:?}", s.fake.violations());
}

// Ruling T20 by Discord's error code: a server at its limit of active threads answers 160006,
// and the game stays in its channel, which is told that reason once (not "this channel takes
// no threads").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_where_no_thread_can_open_stays_in_its_channel_and_says_why() {
    let s = boot("thread-limit").await;
    s.fake.set_limits(Limits {
        active_threads: 0,
        ..s.fake.limits()
    });
    let channel = s.fake.add_channel("arcana");
    s.duel(channel, &[]).await;
    let begins = s
        .fake
        .wait_message("the line-up in the channel", |m| {
            m.channel_id == channel && m.content.contains("begins")
        })
        .await
        .unwrap();
    assert!(!begins.notified.is_empty(), "{begins:#?}");
    s.fake
        .wait_message("the channel told why", |m| {
            m.channel_id == channel && m.content.contains("is played here in the channel")
        })
        .await
        .unwrap();
    let told: Vec<FakeMessage> = s
        .in_channel(channel)
        .into_iter()
        .filter(|m| m.content.contains("is played here in the channel"))
        .collect();
    assert_eq!(told.len(), 1, "{told:#?}");
    assert!(
        told[0].content.contains("active threads"),
        "the reason is the server's thread limit: {:?}",
        told[0].content
    );
    assert!(
        s.fake
            .messages()
            .iter()
            .all(|m| s.fake.channel(m.channel_id).is_none_or(|c| !c.is_thread())),
        "no thread was opened"
    );
    // The game is played in the channel.
    let who = s.to_act(channel);
    let action = s.an_action(who, channel).await;
    let m = s
        .fake
        .run(who, channel, "play", &[("action", &action)])
        .await
        .unwrap();
    assert_eq!(m.channel_id, channel, "{m:#?}");
    assert!(m.ephemeral_to.is_none(), "the move is announced: {m:#?}");
    s.bot.stop().await.unwrap();
}

// Ruling T38: Discord archives a quiet thread, and nobody can use a command in an archived
// thread. A game left alone for 30 days (reminders off, a 60-day deadline) is played on by
// `/play` typed in the channel it was created in, and by `/play game:1` from another channel
// of the server; each time Tokar's post reopens the thread. Before T38 both were refused
// ("act there"), and the game could not be played by command at all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_left_alone_for_a_month_is_played_on_from_its_channel_and_from_elsewhere() {
    let s = boot("quiet-month").await;
    let channel = s.fake.add_channel("arcana");
    let lobby = s.fake.add_channel("lobby");
    for u in [&s.alice, &s.bob] {
        s.fake
            .run(u, channel, "settings", &[("reminder", "off")])
            .await
            .unwrap();
    }
    s.duel(channel, &[("deadline", "60d")]).await;
    let thread = s.thread_of(channel).await;
    s.fake
        .wait_message("the line-up in the thread", |m| {
            m.channel_id == thread && m.content.contains("begins")
        })
        .await
        .unwrap();

    for (round, from, game) in [(0, channel, None), (1, lobby, Some("1"))] {
        // A month goes by, on Discord's clock and on the table's.
        s.fake.advance(30 * DAY);
        s.clock.advance(30 * DAY);
        assert_eq!(s.fake.thread_archived(thread), Some(true), "round {round}");
        let who = s.to_act(thread);
        assert!(
            s.fake.slash(who, thread, "board", &[]).await.is_err(),
            "the archived thread takes no command"
        );
        let action = s.an_action(who, from).await;
        let before = s.in_channel(thread).len();
        let mut options = vec![("action", action.as_str())];
        if let Some(g) = game {
            options.push(("game", g));
        }
        let answer = s.fake.run(who, from, "play", &options).await.unwrap();
        assert_eq!(answer.channel_id, from);
        assert_eq!(
            answer.ephemeral_to,
            Some(who.id),
            "the typist is told privately where it went: {answer:#?}"
        );
        assert!(
            answer.content.contains(&format!("<#{thread}>")),
            "{answer:#?}"
        );
        let turn = s
            .fake
            .wait_message("the move announced in the thread", |m| {
                m.channel_id == thread
                    && m.content.contains(&action)
                    && !m.notified.is_empty()
                    && m.notified.iter().all(|u| *u != who.id)
            })
            .await
            .unwrap();
        assert!(s.in_channel(thread).len() > before);
        assert!(!turn.files.is_empty(), "with the picture: {turn:#?}");
        assert_eq!(
            s.fake.thread_archived(thread),
            Some(false),
            "Tokar's post reopened the thread (round {round})"
        );
    }
    s.bot.stop().await.unwrap();
    assert!(s.fake.violations().is_empty(), "{:?}", s.fake.violations());
}

/// Every user a message notified, with how often.
fn notified_once(m: &FakeMessage, users: &[&FakeUser]) {
    for u in users {
        assert_eq!(
            m.notified.iter().filter(|n| **n == u.id).count(),
            1,
            "{} is pinged once by the result: {m:#?}",
            u.name
        );
    }
}

// Ruling T39: the message with a game's result pings every player once, so the side that did
// not make the last move learns the game is over: a resignation, and a claim at the move
// deadline. In a duel a turn message pings only the player to act, so the one message that
// notifies both is the result. (A win on the board: bot/tests/end_pings.rs.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resignation_and_a_claim_each_ping_every_player() {
    let s = boot("end-pings").await;
    let both = [s.alice.id, s.bob.id];
    let results = |home: u64| -> Vec<FakeMessage> {
        s.in_channel(home)
            .into_iter()
            .filter(|m| both.iter().all(|u| m.notified.contains(u)))
            .collect()
    };

    let resigned = s.fake.add_channel("resigned");
    s.duel(resigned, &[]).await;
    let thread = s.thread_of(resigned).await;
    let who = s.to_act(thread).clone();
    s.fake
        .run(&who, thread, "resign", &[("confirm", "true")])
        .await
        .unwrap();
    s.fake
        .wait_message("the resignation's result", |m| {
            m.channel_id == thread && both.iter().all(|u| m.notified.contains(u))
        })
        .await
        .unwrap();
    let r = results(thread);
    assert_eq!(r.len(), 1, "{r:#?}");
    assert!(r[0].content.contains("resign"), "{:?}", r[0].content);
    notified_once(&r[0], &[&s.alice, &s.bob]);

    let claimed = s.fake.add_channel("claimed");
    s.duel(claimed, &[("deadline", "1d")]).await;
    let thread = s.thread_of(claimed).await;
    let late = s.to_act(thread).clone();
    let waiting = if late.id == s.alice.id {
        &s.bob
    } else {
        &s.alice
    };
    s.clock.advance(DAY + Duration::from_secs(60));
    let answer = s.fake.run(waiting, thread, "claim", &[]).await.unwrap();
    assert!(
        answer.ephemeral_to.is_none(),
        "the claim is granted: {answer:#?}"
    );
    s.fake
        .wait_message("the claim's result", |m| {
            m.channel_id == thread && both.iter().all(|u| m.notified.contains(u))
        })
        .await
        .unwrap();
    let r = results(thread);
    assert_eq!(r.len(), 1, "{r:#?}");
    notified_once(&r[0], &[&s.alice, &s.bob]);
    s.bot.stop().await.unwrap();
    assert!(s.fake.violations().is_empty(), "{:?}", s.fake.violations());
}

// Discord's threads in an announcement channel are of type 10: "GUILD_ANNOUNCEMENT ... only
// ANNOUNCEMENT_THREAD" (the fake refuses type 11 there, as Discord does), so a game created
// there gets an announcement thread.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_in_an_announcement_channel_gets_an_announcement_thread() {
    let s = boot("announcement").await;
    let channel = s.fake.add_announcement_channel("news");
    s.duel(channel, &[]).await;
    let thread = s.thread_of(channel).await;
    let t = s.fake.channel(thread).expect("the thread exists");
    assert_eq!(t.kind, ChannelKind::AnnouncementThread, "{t:#?}");
    assert_eq!(t.parent_id, Some(channel));
    s.bot.stop().await.unwrap();
    assert!(s.fake.violations().is_empty(), "{:?}", s.fake.violations());
}

// Without Send Messages in Threads a thread would open and every later message in it fail
// with 50013. The game is started by bob's Accept button, so the click says as a command does
// what the bot may do in the channel; the game stays there with the reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_where_tokar_cannot_post_in_threads_stays_in_its_channel() {
    let s = boot("no-thread-posts").await;
    let channel = s.fake.add_channel("arcana");
    s.fake
        .set_permissions(channel, perm::DEFAULT & !perm::SEND_MESSAGES_IN_THREADS);
    s.duel(channel, &[]).await;
    let told = s
        .fake
        .wait_message("the channel told why", |m| {
            m.channel_id == channel && m.content.contains("is played here in the channel")
        })
        .await
        .unwrap();
    assert!(
        told.content.contains("may not send messages in threads"),
        "{:?}",
        told.content
    );
    assert!(
        s.fake
            .messages()
            .iter()
            .all(|m| s.fake.channel(m.channel_id).is_none_or(|c| !c.is_thread())),
        "no thread was opened"
    );
    s.bot.stop().await.unwrap();
}

// Ruling T39 for a win on the board: a game started from a record one move before its end
// (`/new record:`), bob accepts by button, and the winning move's result pings both players
// once each in the game's thread.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_win_on_the_board_pings_every_player() {
    let s = boot("end-win").await;
    let (record, last) = tokar_tests::players::nearly_won(
        tokar_engine::catalog::GameKind::Arcana,
        &[
            ("army.0", "human"),
            ("army.1", "undead"),
            ("first", "creator"),
        ],
        11,
        5_000,
    )
    .expect("the engine wins a game of Arcana");
    assert!(
        record.chars().count() <= tokar_tests::fake::MAX_STRING_OPTION,
        "the record fits a string option ({} characters)",
        record.chars().count()
    );
    let channel = s.fake.add_channel("arcana");
    s.duel(channel, &[("record", &record)]).await;
    let thread = s.thread_of(channel).await;
    let both = [s.alice.id, s.bob.id];
    let who = s.to_act(thread).clone();
    let answer = s
        .fake
        .run(&who, thread, "play", &[("action", &last)])
        .await
        .unwrap();
    assert!(
        answer.ephemeral_to.is_none(),
        "the move is played: {answer:#?}"
    );
    let result = s
        .fake
        .wait_message("the win's result", |m| {
            m.channel_id == thread && both.iter().all(|u| m.notified.contains(u))
        })
        .await
        .unwrap();
    assert!(result.content.contains("won"), "{:?}", result.content);
    notified_once(&result, &[&s.alice, &s.bob]);
    s.bot.stop().await.unwrap();
    assert!(s.fake.violations().is_empty(), "{:?}", s.fake.violations());
}
