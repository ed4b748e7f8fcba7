//! End-to-end: the real bot (serenity + poise + the table service) against the fake Discord.

use std::path::{Path, PathBuf};
use std::time::Duration;

use tokar_bot::{Table, TableConfig};
use tokar_tests::fake::{FakeDiscord, FakeMessage, FakeUser, Kind, Origin, GUILD_ID};
use tokar_tests::harness::{init_logging, Bot, Start};

const PNG_MAGIC: &[u8] = b"\x89PNG\r\n\x1a\n";

fn data_dir(name: &str) -> PathBuf {
    let dir =
        std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("tokar-e2e-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

async fn open(dir: &Path) -> Table {
    // After a restart the stopped bot's tasks may still be releasing the
    // database for a moment: retry briefly, as a restarted process would.
    let mut tries = 0;
    loop {
        let mut config = TableConfig::new(dir);
        config.seed = Some(7);
        match Table::open(config).await {
            Ok(table) => {
                tokar_tests::harness::games_in_channels(&table).await;
                return table;
            }
            Err(e) if tries < 100 => {
                tries += 1;
                let _ = e;
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
            Err(e) => panic!("table opens: {e}"),
        }
    }
}

/// The single player a turn message pings.
fn to_act(m: &FakeMessage) -> u64 {
    assert_eq!(m.pinged_users.len(), 1, "exactly one player pinged: {m:#?}");
    assert!(!m.pinged_everyone_or_roles);
    m.pinged_users[0]
}

/// Plays the first legal action the table offers to `who` through autocomplete; returns the
/// public turn message.
async fn play_first_choice(fake: &FakeDiscord, who: &FakeUser, ch: u64) -> FakeMessage {
    let choices = fake
        .autocomplete(who, ch, "play", &[], ("action", ""))
        .await
        .unwrap();
    assert!(!choices.is_empty() && choices.len() <= 25, "{choices:?}");
    let action = choices[0].1.as_str().unwrap().to_owned();
    let m = fake
        .run(who, ch, "play", &[("action", &action)])
        .await
        .unwrap();
    assert!(
        m.ephemeral_to.is_none(),
        "a move is announced publicly: {m:#?}"
    );
    m
}

/// Clicks the button `custom_id` of message `message_id` as `who`; returns the
/// answer, which must be private to `who`.
async fn click_privately(
    fake: &FakeDiscord,
    who: &FakeUser,
    message_id: u64,
    custom_id: &str,
) -> FakeMessage {
    let click = fake.click(who, message_id, custom_id).await.unwrap();
    let a = fake.answer(click).await.unwrap();
    assert_eq!(a.ephemeral_to, Some(who.id), "answered privately: {a:#?}");
    a
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn arcana_game_through_discord_with_a_restart() {
    init_logging();
    let dir = data_dir("arcana");
    let fake = FakeDiscord::start().await.expect("fake Discord binds");
    let alice = fake.add_user(111_111_111_111_111_111, "alice");
    let bob = fake.add_user(222_222_222_222_222_222, "bob");
    let carol = fake.add_user(333_333_333_333_333_333, "carol");
    let ch = fake.add_channel("arcana");

    // Start-up: gateway identify, then every command registered in the guild.
    let bot = Bot::start(open(&dir).await, &fake, Start::default());
    fake.wait_ready(1).await.unwrap();
    let cmds = fake.commands();
    assert_eq!(cmds.len(), 27);
    assert!(cmds.iter().any(|(_, c)| c["name"] == "hint"));
    assert!(cmds.iter().all(|(g, _)| *g == Some(GUILD_ID)));
    let play = cmds.iter().find(|(_, c)| c["name"] == "play").unwrap();
    assert_eq!(play.1["options"][0]["autocomplete"], true);

    // Challenge and accept.
    let m = fake
        .run(
            &alice,
            ch,
            "new",
            &[("game", "arcana"), ("opponent", &bob.mention())],
        )
        .await
        .unwrap();
    println!("new: {}", m.content);
    assert_eq!(
        m.pinged_users,
        vec![bob.id],
        "the challenge pings the invitee only: {m:#?}"
    );
    let m = fake.run(&bob, ch, "accept", &[]).await.unwrap();
    println!("accept: {}", m.content);
    let mut next = to_act(&m);

    // Private reply: /moves is seen by its user only.
    let mover = if next == alice.id { &alice } else { &bob };
    let other = if next == alice.id { &bob } else { &alice };
    let private = fake.run(mover, ch, "moves", &[]).await.unwrap();
    assert_eq!(private.ephemeral_to, Some(mover.id));
    assert!(fake
        .visible_to(mover, ch)
        .iter()
        .any(|v| v.id == private.id));
    assert!(!fake
        .visible_to(other, ch)
        .iter()
        .any(|v| v.id == private.id));

    // A player who is not to act is refused privately.
    let refused = fake
        .run(other, ch, "play", &[("action", "a1-a2")])
        .await
        .unwrap();
    assert_eq!(refused.ephemeral_to, Some(other.id));

    let mut first_turn: Option<FakeMessage> = None;
    let mut latest: Option<FakeMessage> = None;
    let mut plies = 0;
    for _ in 0..6 {
        let who = if next == alice.id { &alice } else { &bob };
        let m = play_first_choice(&fake, who, ch).await;
        plies += 1;
        assert!(
            m.files.iter().any(|f| f.bytes.starts_with(PNG_MAGIC)),
            "the position arrives as a PNG: {m:#?}"
        );
        let pinged = to_act(&m);
        assert_ne!(pinged, who.id, "the turn passes to the other player");
        assert_ne!(pinged, carol.id);
        assert_eq!(
            m.buttons
                .iter()
                .map(|b| b.label.as_str())
                .collect::<Vec<_>>(),
            ["My moves"],
            "{m:#?}"
        );
        first_turn.get_or_insert_with(|| m.clone());
        next = pinged;
    }

    // Restart in the middle of the game, same data directory.
    bot.stop().await.unwrap();
    fake.wait_disconnected().await.unwrap();
    let bot = Bot::start(open(&dir).await, &fake, Start::default());
    fake.wait_ready(2).await.unwrap();
    for _ in 0..4 {
        let who = if next == alice.id { &alice } else { &bob };
        let m = play_first_choice(&fake, who, ch).await;
        plies += 1;
        next = to_act(&m);
        latest = Some(m);
    }
    println!("{plies} plies played across a restart");

    // A button from an earlier position is refused, privately, even for the
    // player to act; the current message's button answers them privately.
    let who = if next == alice.id { &alice } else { &bob };
    let old = first_turn.expect("turn messages were posted");
    let a = click_privately(&fake, who, old.id, &old.buttons[0].custom_id).await;
    assert!(a.content.contains("earlier position"), "{}", a.content);
    let current = latest.expect("turn messages after the restart");
    let a = click_privately(&fake, who, current.id, &current.buttons[0].custom_id).await;
    assert!(
        a.content.starts_with("Game #") && !a.content.contains("earlier position"),
        "the current button lists the moves: {}",
        a.content
    );

    // Game numbers autocomplete.
    let games = fake
        .autocomplete(&alice, ch, "board", &[], ("game", ""))
        .await
        .unwrap();
    assert!(
        !games.is_empty() && games.iter().all(|(_, v)| v.is_i64()),
        "{games:?}"
    );

    // The game ends: the player to act resigns, and confirms with the button (T23).
    let who = if next == alice.id { &alice } else { &bob };
    let asked = fake.run(who, ch, "resign", &[]).await.unwrap();
    assert_eq!(asked.ephemeral_to, Some(who.id), "{asked:#?}");
    let click = fake
        .click(who, asked.id, &asked.buttons[0].custom_id)
        .await
        .unwrap();
    let end = fake.answer(click).await.unwrap();
    println!("resign: {}", end.content);
    assert!(end.ephemeral_to.is_none());
    let after = fake
        .run(who, ch, "play", &[("action", "a1-a2")])
        .await
        .unwrap();
    assert_eq!(
        after.ephemeral_to,
        Some(who.id),
        "no move after the end: {after:#?}"
    );

    println!("{}", fake.latency_report());
    assert!(fake
        .latencies(Kind::Command)
        .iter()
        .all(|d| *d < Duration::from_secs(3)));
    bot.stop().await.unwrap();
    assert_eq!(fake.violations(), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_answers_are_deferred_and_private_ones_stay_private() {
    init_logging();
    let dir = data_dir("defer");
    let fake = FakeDiscord::start().await.expect("fake Discord binds");
    let alice = fake.add_user(444_444_444_444_444_444, "alice");
    let bob = fake.add_user(555_555_555_555_555_555, "bob");
    let ch = fake.add_channel("lobby");
    // Defer at once: every answer goes through the deferred path.
    let start = Start {
        defer_after: Duration::ZERO,
        guild_id: None,
        ..Start::default()
    };
    let bot = Bot::start(open(&dir).await, &fake, start);
    fake.wait_ready(1).await.unwrap();
    assert!(
        fake.commands().iter().all(|(g, _)| g.is_none()),
        "registered globally"
    );

    let id = fake
        .slash(
            &alice,
            ch,
            "new",
            &[("game", "arcana"), ("opponent", &bob.mention())],
        )
        .await
        .unwrap();
    let m = fake.answer(id).await.unwrap();
    assert!(fake.interaction(id).unwrap().deferred);
    // Discord notifies nobody of mentions in an edit: the deferred answer is filled in with a
    // line, and the invitation that pings Bob is a new message.
    assert!(m.notified.is_empty(), "{m:#?}");
    let invite = fake
        .wait_message("the invitation notifying bob", |m| {
            m.notified == vec![bob.id]
        })
        .await
        .unwrap();
    assert!(invite.content.contains("/accept game:1"), "{invite:#?}");

    // A move whose answer was deferred pings the next player with a new message.
    let id = fake.slash(&bob, ch, "accept", &[]).await.unwrap();
    fake.answer(id).await.unwrap();
    let start = fake
        .wait_message("the first turn message", |m| {
            m.content.contains("begins") && m.origin == Origin::Channel
        })
        .await
        .unwrap();
    let first = start.notified.clone();
    assert_eq!(first.len(), 1, "one player pinged: {start:#?}");
    let (mover, next) = if first[0] == alice.id {
        (&alice, &bob)
    } else {
        (&bob, &alice)
    };
    let choices = fake
        .autocomplete(mover, ch, "play", &[], ("action", ""))
        .await
        .unwrap();
    let action = choices[0].1.as_str().unwrap().to_owned();
    let id = fake
        .slash(mover, ch, "play", &[("action", &action)])
        .await
        .unwrap();
    let answer = fake.answer(id).await.unwrap();
    assert!(fake.interaction(id).unwrap().deferred);
    assert!(answer.notified.is_empty());
    let turn = fake
        .wait_message("the turn message notifying the next player", |m| {
            m.content.contains(" plays ") && m.notified == vec![next.id]
        })
        .await
        .unwrap();
    assert!(
        turn.edits == 0 && turn.interaction_id.is_none(),
        "{turn:#?}"
    );
    assert_eq!(
        fake.notifications(next)
            .iter()
            .filter(|m| m.content.contains(" plays "))
            .count(),
        1
    );

    // A private answer is deferred privately: no public "thinking…" is shown or deleted.
    let id = fake.slash(&bob, ch, "help", &[]).await.unwrap();
    let m = fake.answer(id).await.unwrap();
    assert_eq!(m.ephemeral_to, Some(bob.id));
    assert!(!m.deleted);
    assert!(!fake.visible_to(&alice, ch).iter().any(|v| v.id == m.id));
    assert!(
        fake.messages().iter().all(|m| !m.deleted),
        "nothing was deleted"
    );

    println!("{}", fake.latency_report());
    bot.stop().await.unwrap();
    assert_eq!(fake.violations(), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Four players of Magic Chess: the challenge pings the three invitees, each
/// turn message pings the one player to act and carries "Show my hand", whose
/// answer is private to the clicker and shows only their own cards; no public
/// message names a card in anyone's hand; an old button is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn magic_chess_hands_stay_private_through_discord() {
    init_logging();
    let dir = data_dir("magic");
    let fake = FakeDiscord::start().await.expect("fake Discord binds");
    let players = [
        fake.add_user(611_111_111_111_111_111, "alice"),
        fake.add_user(622_222_222_222_222_222, "bob"),
        fake.add_user(633_333_333_333_333_333, "carol"),
        fake.add_user(644_444_444_444_444_444, "dave"),
    ];
    let ch = fake.add_channel("magic");
    let bot = Bot::start(open(&dir).await, &fake, Start::default());
    fake.wait_ready(1).await.unwrap();

    let m = fake
        .run(
            &players[0],
            ch,
            "new",
            &[
                ("game", "magic-chess"),
                ("opponent", &players[1].mention()),
                ("opponent2", &players[2].mention()),
                ("opponent3", &players[3].mention()),
            ],
        )
        .await
        .unwrap();
    let mut invited = m.pinged_users.clone();
    invited.sort();
    assert_eq!(invited, vec![players[1].id, players[2].id, players[3].id]);
    let mut turn = None;
    for p in &players[1..] {
        turn = Some(fake.run(p, ch, "accept", &[]).await.unwrap());
    }
    let mut turn = turn.unwrap();
    let by_id = |id: u64| players.iter().find(|p| p.id == id).unwrap();

    // Every player asks for their hand through the button: each answer is
    // private to the clicker and lists their cards.
    let hand_button = |m: &FakeMessage| {
        m.buttons
            .iter()
            .find(|b| b.label == "Show my hand")
            .unwrap_or_else(|| panic!("no hand button: {m:#?}"))
            .custom_id
            .clone()
    };
    let mut cards: Vec<String> = Vec::new();
    for p in &players {
        let a = click_privately(&fake, p, turn.id, &hand_button(&turn)).await;
        for o in players.iter().filter(|o| o.id != p.id) {
            assert!(!fake.visible_to(o, ch).iter().any(|v| v.id == a.id));
        }
        let line = a.content.lines().nth(1).unwrap_or_default().to_string();
        assert!(
            line.contains(':') && !line.contains("no cards"),
            "{}",
            a.content
        );
        cards.push(line.split_once(": ").unwrap().1.to_string());
    }

    // A few turns: one ping each, to the one player to act, never with a card.
    let first = turn.clone();
    for _ in 0..4 {
        let who = by_id(to_act(&turn));
        turn = play_first_choice(&fake, who, ch).await;
        assert!(turn.files.iter().any(|f| f.bytes.starts_with(PNG_MAGIC)));
    }
    let public: Vec<FakeMessage> = fake
        .visible_to(&players[0], ch)
        .into_iter()
        .filter(|m| m.ephemeral_to.is_none())
        .collect();
    assert!(public.len() >= 5, "{public:#?}");
    for m in &public {
        for hand in &cards {
            assert!(
                !m.content.contains(hand.as_str()),
                "a hand in public: {}",
                m.content
            );
        }
    }

    let a = click_privately(&fake, &players[0], first.id, &hand_button(&first)).await;
    assert!(a.content.contains("earlier position"), "{}", a.content);

    println!("{}", fake.latency_report());
    bot.stop().await.unwrap();
    assert_eq!(fake.violations(), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}
