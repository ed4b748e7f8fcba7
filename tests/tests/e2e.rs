//! End-to-end: the real bot (serenity + poise) against the fake Discord.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokar_bot::discord::{
    BoxFut, Button, ChannelRef, Image, Reply, Request, Table, TableBackend, UserRef,
};
use tokar_tests::fake::{FakeDiscord, Kind};
use tokar_tests::harness::{init_logging, Bot, Start};

/// A 1x1 PNG.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
    0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x00, 0x01, 0x00, 0x00,
    0x05, 0x00, 0x01, 0x0d, 0x0a, 0x2d, 0xb4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae,
    0x42, 0x60, 0x82,
];

/// A scripted stand-in for the table service: two players alternate moves in game 1.
#[derive(Default)]
struct Scripted {
    moves: AtomicU32,
    players: std::sync::Mutex<Vec<UserRef>>,
}

fn reply(channel: &ChannelRef, content: String) -> Reply {
    Reply {
        channel: channel.clone(),
        ephemeral_to: None,
        content,
        mentions: vec![],
        images: vec![],
        buttons: vec![],
        ok: true,
    }
}

impl TableBackend for Scripted {
    fn handle(&self, req: Request) -> BoxFut<'_, Vec<Reply>> {
        Box::pin(async move {
            let opt = |n: &str| {
                req.options
                    .iter()
                    .find(|(k, _)| k == n)
                    .map(|(_, v)| v.clone())
            };
            match req.command.as_str() {
                "new" => {
                    let opp = opt("opponent").unwrap_or_default();
                    let id: u64 = opp
                        .trim_start_matches("<@")
                        .trim_end_matches('>')
                        .parse()
                        .unwrap_or(0);
                    *self.players.lock().unwrap() = vec![
                        req.user.clone(),
                        UserRef {
                            id,
                            name: "opp".into(),
                        },
                    ];
                    let mut r = reply(
                        &req.channel,
                        format!("Game #1: {} challenges {opp}.", req.user.name),
                    );
                    r.mentions = vec![UserRef {
                        id,
                        name: "opp".into(),
                    }];
                    vec![r]
                }
                "play" => {
                    let n = self.moves.fetch_add(1, Ordering::SeqCst) + 1;
                    let players = self.players.lock().unwrap().clone();
                    let next = players[(n as usize) % 2].clone();
                    let mut r = reply(
                        &req.channel,
                        format!(
                            "{} played {}. <@{}> to move.",
                            req.user.name,
                            opt("action").unwrap_or_default(),
                            next.id
                        ),
                    );
                    r.mentions = vec![next];
                    r.images = vec![Image {
                        name: format!("game-1-move-{n}.png"),
                        png: PNG.to_vec(),
                    }];
                    r.buttons = vec![Button {
                        custom_id: format!("g1:m{n}:resign"),
                        label: "Resign".into(),
                    }];
                    vec![r]
                }
                "button" => {
                    let id = opt("custom_id").unwrap_or_default();
                    let current = self.moves.load(Ordering::SeqCst);
                    let mut r = if id.starts_with(&format!("g1:m{current}:")) {
                        reply(&req.channel, format!("{} resigned.", req.user.name))
                    } else {
                        let mut r = reply(
                            &req.channel,
                            "That button belongs to an older position of game #1.".into(),
                        );
                        r.ok = false;
                        r
                    };
                    if !r.ok {
                        r.ephemeral_to = Some(req.user.clone());
                    }
                    vec![r]
                }
                "hand" => {
                    let mut r = reply(
                        &req.channel,
                        format!("Your hand, {}: Freeze, Haste.", req.user.name),
                    );
                    r.ephemeral_to = Some(req.user.clone());
                    vec![r]
                }
                "hint" => {
                    tokio::time::sleep(Duration::from_millis(400)).await;
                    let mut r = reply(&req.channel, "Try e2-e4.".into());
                    r.ephemeral_to = Some(req.user.clone());
                    vec![r]
                }
                "rules" => vec![reply(
                    &req.channel,
                    "A rule line that goes on.\n".repeat(200),
                )],
                other => {
                    let mut r = reply(&req.channel, format!("/{other} is not in this script."));
                    r.ok = false;
                    r.ephemeral_to = Some(req.user.clone());
                    vec![r]
                }
            }
        })
    }

    fn autocomplete<'a>(
        &'a self,
        _u: &'a UserRef,
        _c: &'a ChannelRef,
        option: &'a str,
        typed: &'a str,
        _g: Option<u64>,
    ) -> BoxFut<'a, Vec<(String, String)>> {
        Box::pin(async move {
            match option {
                "action" => (0..40)
                    .map(|n| format!("a{n}"))
                    .filter(|a| a.starts_with(typed))
                    .map(|a| (a.clone(), a))
                    .collect(),
                "game" => vec![("#1 vs opp".into(), "1".into())],
                _ => vec![],
            }
        })
    }

    fn tick(&self) -> BoxFut<'_, Vec<Reply>> {
        Box::pin(async { Vec::new() })
    }
}

async fn setup(start: Start) -> (FakeDiscord, Bot) {
    init_logging();
    let fake = FakeDiscord::start().await.expect("fake Discord binds");
    let bot = Bot::start(Table::new(Scripted::default()), &fake, start);
    fake.wait_ready(1).await.expect("bot ready");
    (fake, bot)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn adapter_against_the_fake() {
    let (fake, bot) = setup(Start {
        defer_after: Duration::from_millis(200),
        ..Start::default()
    })
    .await;
    let alice = fake.add_user(11, "alice");
    let bob = fake.add_user(12, "bob");
    let carol = fake.add_user(13, "carol");
    let ch = fake.add_channel("games");

    // Registration in the guild, every command.
    let cmds = fake.commands();
    assert!(cmds
        .iter()
        .all(|(g, _)| *g == Some(tokar_tests::fake::GUILD_ID)));
    assert_eq!(cmds.len(), 19);

    // Challenge pings exactly bob.
    let m = fake
        .run(
            &alice,
            ch,
            "new",
            &[("game", "arcana"), ("opponent", "<@12>")],
        )
        .await
        .unwrap();
    assert_eq!(m.pinged_users, vec![12]);
    assert!(!m.pinged_everyone_or_roles);

    // A move: picture + ping of the next player only.
    let m = fake
        .run(&alice, ch, "play", &[("action", "e2-e4")])
        .await
        .unwrap();
    assert_eq!(m.pinged_users, vec![12], "{m:?}");
    assert_eq!(m.files.len(), 1);
    assert_eq!(&m.files[0].bytes[..8], b"\x89PNG\r\n\x1a\n");
    let first_button = (m.id, m.buttons[0].custom_id.clone());
    let m2 = fake
        .run(&bob, ch, "play", &[("action", "e7-e5")])
        .await
        .unwrap();
    assert_eq!(m2.pinged_users, vec![11]);

    // A stale button is refused, privately.
    let click = fake
        .click(&carol, first_button.0, &first_button.1)
        .await
        .unwrap();
    let a = fake.answer(click).await.unwrap();
    assert_eq!(a.ephemeral_to, Some(13));
    assert!(a.content.contains("older position"));

    // A private reply is seen by its user only.
    let m = fake.run(&bob, ch, "hand", &[]).await.unwrap();
    assert_eq!(m.ephemeral_to, Some(12));
    assert!(fake.visible_to(&bob, ch).iter().any(|v| v.id == m.id));
    assert!(!fake.visible_to(&alice, ch).iter().any(|v| v.id == m.id));

    // Slow command: deferred, then answered privately.
    let id = fake.slash(&alice, ch, "hint", &[]).await.unwrap();
    let m = fake.answer(id).await.unwrap();
    assert!(fake.interaction(id).unwrap().deferred);
    assert_eq!(m.ephemeral_to, Some(11));

    // Long text is split within Discord's limit.
    let id = fake.slash(&alice, ch, "rules", &[]).await.unwrap();
    fake.answer(id).await.unwrap();
    fake.wait_message("the rest of the rules", |m| {
        m.interaction_id == Some(id) && m.origin == tokar_tests::fake::Origin::Followup
    })
    .await
    .unwrap();

    // Autocomplete: filtered and capped at 25.
    let choices = fake
        .autocomplete(&alice, ch, "play", &[], ("action", "a"))
        .await
        .unwrap();
    assert_eq!(choices.len(), 25);
    let choices = fake
        .autocomplete(&alice, ch, "play", &[], ("action", "a3"))
        .await
        .unwrap();
    assert_eq!(choices.len(), 11);
    let games = fake
        .autocomplete(&alice, ch, "board", &[], ("game", ""))
        .await
        .unwrap();
    assert_eq!(games, vec![("#1 vs opp".to_owned(), serde_json::json!(1))]);

    println!("{}", fake.latency_report());
    assert!(fake
        .latencies(Kind::Command)
        .iter()
        .all(|d| *d < Duration::from_secs(3)));
    bot.stop().await.unwrap();
    assert_eq!(fake.violations(), Vec::<String>::new());
}
