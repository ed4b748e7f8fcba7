//! What players read (issue 35): `/rules` in a game's thread or channel answers that
//! game's rules (ruling T58); invitations state the move deadline and reminder and keep
//! Arcana's armies to one line (T59); a draw offer that lapses when its offerer acts says
//! so (T60); the console's `--json` output keeps the buttons.

mod common;
use common::*;
use serde_json::Value;
use tokar_bot::console::{self, ConsoleConfig};
use tokar_bot::{ChannelRef, Reply};

/// The server and thread of the thread tests.
const SERVER: u64 = 4_242;
const THREAD: u64 = 9_001;

fn in_server(name: &str) -> ChannelRef {
    ChannelRef {
        guild: Some(SERVER),
        ..channel(name)
    }
}

fn thread() -> ChannelRef {
    ChannelRef {
        id: THREAD,
        name: "#1 Arcana · alice vs bob".into(),
        guild: Some(SERVER),
        parent: Some(in_server("table").id),
        threads: tokar_bot::table::ThreadSupport::Unknown,
    }
}

/// Runs a console line typed in `at`.
async fn run_at(e: &Env, line: &str, at: &ChannelRef) -> Vec<Reply> {
    for word in line.split_whitespace() {
        if let Some(name) = word.split(':').nth(1).and_then(|v| v.strip_prefix('@')) {
            e.table.remember_user(&user(name)).await.unwrap();
        }
    }
    let mut req = request(line);
    req.channel = at.clone();
    e.table.handle(req).await
}

/// The one private answer of a `/rules` line typed in `at`.
async fn rules_at(e: &Env, line: &str, at: &ChannelRef) -> String {
    let r = run_at(e, line, at).await;
    assert_eq!(r.len(), 1, "{line}: {r:#?}");
    assert!(r[0].ok && r[0].ephemeral_to.is_some(), "{line}: {r:#?}");
    r[0].content.clone()
}

// Ruling T58.
#[tokio::test]
async fn rules_in_a_games_channel_or_thread_are_that_games() {
    let e = env("read-rules-here").await;
    let arcana = e.ok("@carol /rules game:arcana").await[0].content.clone();
    let knight = e.ok("@carol /rules game:arcana unit:blue-knight").await[0]
        .content
        .clone();
    let list = e.ok("@carol /rules").await[0].content.clone();
    assert!(list.starts_with("Games: "), "{list}");
    assert_ne!(arcana, list);

    // A channel with one game being set up, then played: that game's rules, to anyone.
    e.ok(&format!(
        "@alice /new game:{GAME} {CREATOR_OPTIONS} opponent:@bob"
    ))
    .await;
    assert_eq!(e.ok("@carol /rules").await[0].content, arcana);
    e.ok(&format!("@bob /accept {ACCEPT_OPTIONS}")).await;
    assert_eq!(e.ok("@carol /rules").await[0].content, arcana);
    assert_eq!(
        e.ok("@carol /rules unit:blue-knight").await[0].content,
        knight
    );
    // A topic or another game named still answers what was asked.
    let magic = e.ok("@carol /rules game:magic-chess").await[0]
        .content
        .clone();
    assert_ne!(magic, arcana);
    // Elsewhere, the list as before.
    assert_eq!(e.ok("@carol #elsewhere /rules").await[0].content, list);

    // Two games in one channel: which one is meant is not known, so the list.
    e.ok(&format!(
        "@carol /new game:{GAME} {CREATOR_OPTIONS} opponent:@dave"
    ))
    .await;
    assert_eq!(e.ok("@carol /rules").await[0].content, list);
}

// Ruling T58.
#[tokio::test]
async fn rules_in_a_games_thread_are_that_games_even_after_its_end() {
    let e = env("read-rules-thread").await;
    let arcana = e.ok("@carol /rules game:arcana").await[0].content.clone();
    let list = e.ok("@carol /rules").await[0].content.clone();
    let table = in_server("table");
    run_at(
        &e,
        &format!("@alice /new game:{GAME} {CREATOR_OPTIONS} opponent:@bob"),
        &table,
    )
    .await;
    for x in e.table.outbox_due(usize::MAX).await {
        e.table.outbox_delivered(x.id, Vec::new()).await.unwrap();
    }
    run_at(&e, &format!("@bob /accept {ACCEPT_OPTIONS}"), &table).await;
    let d = e.table.outbox_due(usize::MAX).await;
    let ask = d.iter().find(|x| x.thread().is_some()).expect("a thread");
    e.table.thread_opened(ask.id, &thread()).await.unwrap();

    assert_eq!(rules_at(&e, "@carol /rules", &thread()).await, arcana);
    // The channel it came from still means it, as for /board (T38).
    assert_eq!(rules_at(&e, "@carol /rules", &table).await, arcana);
    // Another channel of the server does not.
    assert_eq!(
        rules_at(&e, "@carol /rules", &in_server("lobby")).await,
        list
    );
    let r = run_at(&e, "@alice /resign confirm:yes", &thread()).await;
    assert!(r.iter().all(|r| r.ok), "{r:#?}");
    assert_eq!(rules_at(&e, "@carol /rules", &thread()).await, arcana);
}

/// The text of the invitation `line` creates.
async fn invitation(e: &Env, line: &str) -> String {
    let r = e.ok(line).await;
    assert_eq!(r.len(), 1, "{r:#?}");
    r[0].content.clone()
}

// Ruling T59.
#[tokio::test]
async fn invitations_state_the_clock_and_point_to_the_armies() {
    let e = env("read-invitations").await;
    // The game's own deadline and reminder (T25).
    let own = invitation(
        &e,
        "@alice /new game:arcana army:human opponent:@bob deadline:3d reminder:12h",
    )
    .await;
    assert!(
        own.contains(" Move deadline: 3d; reminders: every 12h. bob: /accept game:1"),
        "{own}"
    );
    // Else the creator's deadline (T5), and each waiting player's reminders (T2).
    e.ok("@carol /settings deadline:5d").await;
    let theirs = invitation(&e, "@carol /new game:gladiator opponent:@dave").await;
    assert!(
        theirs.contains(" Move deadline: 5d; reminders: as each player's /settings say. dave: /accept game:2 or /decline game:2."),
        "{theirs}"
    );
    // Arcana's armies: their names and where the rest is, not the option's paragraph.
    let help = "army: see /rules arcana army";
    assert!(
        own.contains(&format!(
            "/accept game:1 (options: {help}) or /decline game:1."
        )),
        "{own}"
    );
    assert!(!own.contains("Your army"), "{own}");
    assert!(
        own.chars().count() < 250,
        "{} characters: {own}",
        own.chars().count()
    );
    // The page it points to is the armies' page.
    let page = e.ok("@bob /rules arcana army").await[0].content.clone();
    assert!(page.contains("Undead Arcana"), "{page}");
    // Each fact still holds: bob accepts with an army named there.
    e.ok("@bob /accept game:1 army:undead-arcana").await;
    // An open seat's line is shortened the same way.
    let open = invitation(&e, "@erin /new game:arcana army:human players:2").await;
    assert!(
        open.contains(&format!("1 open seat: /join game:3 (options: {help}).")),
        "{open}"
    );
}

/// The announcement of `who`'s play of their first legal action in game `id`.
async fn play(e: &Env, who: &str, id: u64) -> String {
    let action = e.actions(who, id).await[0].clone();
    let r = e
        .ok(&format!("@{who} /play game:{id} action:\"{action}\""))
        .await;
    r.iter()
        .find(|r| r.content.contains(" plays "))
        .unwrap_or_else(|| panic!("no announcement: {r:#?}"))
        .content
        .clone()
}

// Ruling T60.
#[tokio::test]
async fn a_draw_offer_its_offerer_moves_past_says_it_lapsed() {
    let e = env("read-draw-lapses").await;
    let (id, mover, other) = e.duel().await;
    let lapsed = "; the draw offer lapsed.\n";
    e.ok(&format!("@{mover} /draw game:{id}")).await;
    let moved = play(&e, mover, id).await;
    assert!(moved.contains(lapsed), "{moved}");
    assert_eq!(moved.matches("lapsed").count(), 1, "{moved}");
    // It lapsed: there is nothing left to accept.
    let none = e
        .refused(&format!("@{other} /draw game:{id} answer:accept"))
        .await;
    assert!(none.contains("Nobody has offered a draw"), "{none}");
    // A play with no offer open says nothing of one.
    let names = [mover, other];
    let next = e.to_act(id, &names).await.expect("someone acts");
    let plain = play(&e, next, id).await;
    assert!(!plain.contains("lapsed"), "{plain}");
    // An offer declined before the offerer moves on was no longer open: nothing lapses.
    let next = e.to_act(id, &names).await.expect("someone acts");
    let answerer = if next == mover { other } else { mover };
    e.ok(&format!("@{next} /draw game:{id}")).await;
    e.ok(&format!("@{answerer} /draw game:{id} answer:decline"))
        .await;
    let after = play(&e, next, id).await;
    assert!(!after.contains("lapsed"), "{after}");
}

/// What the console prints for `input`, with `--json` or as text.
async fn console_out(name: &str, json: bool, input: &str) -> String {
    let cfg = ConsoleConfig {
        data: fresh_dir(name),
        images: None,
        seed: Some(3),
        json,
        virtual_clock: true,
        robot_iterations: Some(20),
        parallel: 1,
    };
    let mut out: Vec<u8> = Vec::new();
    console::run(cfg, input.as_bytes(), &mut out).await.unwrap();
    String::from_utf8(out).unwrap()
}

#[tokio::test]
async fn the_consoles_json_keeps_every_button_in_order() {
    let input = "@alice /new game:magic-chess opponent:@bob\n@bob /accept\n@carol /join\n@dave /join\n@carol /draw\n";
    let json = console_out("read-json-buttons", true, input).await;
    let text = console_out("read-text-buttons", false, input).await;
    // Each message's buttons as the text output shows them: `[label] @who #where
    // /button custom_id:<id>`, once per reader (the first reader's line is enough).
    let mut shown: Vec<Vec<(String, String)>> = Vec::new();
    for l in text.lines() {
        if !l.starts_with("  ") {
            shown.push(Vec::new());
        } else if let Some(list) = l.strip_prefix("  buttons: ") {
            let last = shown.last_mut().unwrap();
            if last.is_empty() {
                for b in list.split(" | ") {
                    let label = b[1..b.find(']').unwrap()].to_string();
                    let id = b.rsplit("custom_id:").next().unwrap().to_string();
                    last.push((id, label));
                }
            }
        }
    }
    let from_json: Vec<Vec<(String, String)>> = json
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            v["buttons"]
                .as_array()
                .unwrap_or_else(|| panic!("no buttons field: {l}"))
                .iter()
                .map(|b| {
                    (
                        b["custom_id"].as_str().unwrap().to_string(),
                        b["label"].as_str().unwrap().to_string(),
                    )
                })
                .collect()
        })
        .collect();
    // A message's text may run over several lines: the buttons are compared in the order
    // printed, and the JSON has as many messages with buttons as the text.
    let with = |m: &Vec<Vec<(String, String)>>| m.iter().filter(|b| !b.is_empty()).count();
    assert_eq!(
        with(&from_json),
        with(&shown),
        "json:\n{json}\ntext:\n{text}"
    );
    let flat = |m: Vec<Vec<(String, String)>>| m.into_iter().flatten().collect::<Vec<_>>();
    let (from_json, shown) = (flat(from_json), flat(shown));
    assert_eq!(from_json, shown, "json:\n{json}\ntext:\n{text}");
    // The invitation's three (Accept, Decline, Join) come first, each with its id and label.
    let labels: Vec<&str> = from_json.iter().map(|(_, l)| l.as_str()).collect();
    assert!(
        labels.starts_with(&["Accept game #1", "Decline game #1", "Join game #1"]),
        "{labels:?}"
    );
    assert!(from_json.iter().all(|(id, _)| !id.is_empty()));
    assert!(labels.contains(&"Accept the draw (#1)"), "{labels:?}");
    assert!(
        labels.len() > 3,
        "the later messages' buttons too: {labels:?}"
    );
}
