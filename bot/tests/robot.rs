//! Tokar as a player: games against the bot through the table and through
//! the real `tokar` binary, /hint, and the bot's move after a restart.
//! The bot searches a small fixed number of iterations here, so every run is
//! the same and fast.

mod common;
use common::*;
use std::io::Write;
use std::sync::Arc;
use tokar_bot::clock::VirtualClock;
use tokar_bot::duration::DAY;
use tokar_bot::table::robot::RobotConfig;
use tokar_bot::{Reply, Table, TableConfig};

const ITERATIONS: u32 = 24;

/// A table whose bot is the test user `Tokar` (so `@Tokar` in a test line is
/// the bot), searching `ITERATIONS` per move.
async fn open_with_robot(dir: &std::path::Path, seed: u64) -> Env {
    let clock = Arc::new(VirtualClock::open(dir).unwrap());
    let table = Table::open(TableConfig {
        data_dir: dir.to_path_buf(),
        storage: Default::default(),
        clock: clock.clone(),
        seed: Some(seed),
        robot: RobotConfig {
            user: user("Tokar"),
            iterations: Some(ITERATIONS),
            ..Default::default()
        },
    })
    .await
    .unwrap();
    Env {
        dir: dir.to_path_buf(),
        clock,
        table,
    }
}

fn game_number(r: &[Reply]) -> u64 {
    r[0].content
        .split('#')
        .nth(1)
        .unwrap()
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// Whether `reply` announces a move by the bot.
fn bot_move(reply: &Reply) -> bool {
    reply.content.starts_with("Tokar (") && reply.content.contains(" plays ")
}

/// The bot's own secrets (its drawn cards) are not sent: on Discord a
/// private message to the bot's own account would only fail.
fn assert_nothing_private_to_the_bot(replies: &[Reply]) {
    assert!(
        replies
            .iter()
            .all(|r| r.ephemeral_to.as_ref().is_none_or(|u| u.name != "Tokar")),
        "nothing private goes to the bot itself: {replies:#?}"
    );
}

/// alice plays `game` against the bot seats given by `setup`, choosing her
/// actions by `pick`, for at most `plies` of her own actions. After each of
/// her commands the game must wait for her again or be over: the bot answered
/// every time, with an action the table accepted (a refused one would leave
/// the game waiting for the bot). Some turns give alice several decisions.
async fn play_against_bot(e: &Env, setup: &str, plies: usize, pick: u64) -> (u64, usize, bool) {
    let r = e.ok(&format!("@alice /new {setup}")).await;
    let id = game_number(&r);
    let mut bot_moves = r.iter().filter(|r| bot_move(r)).count();
    for n in 0..plies {
        let mut acts = e.actions("alice", id).await;
        let mut ticks = 0;
        while acts.is_empty() {
            let m = e.run(&format!("@alice /moves game:{id}")).await;
            if !m[0].ok && m[0].content.contains("is over") {
                return (id, bot_moves, true);
            }
            // alice is out (Magic Chess) and the bots play on, at most 64
            // moves per call: the tick carries on, and each one must move.
            let t = e.table.tick().await;
            assert!(
                t.iter().any(bot_move) || !e.actions("alice", id).await.is_empty(),
                "game #{id} waits for the bot: {m:#?}"
            );
            bot_moves += t.iter().filter(|r| bot_move(r)).count();
            assert_nothing_private_to_the_bot(&t);
            ticks += 1;
            assert!(ticks < 100, "game #{id} goes on without alice for ever");
            acts = e.actions("alice", id).await;
        }
        let a = &acts[(n as u64 * 7 + pick) as usize % acts.len()];
        let r = e
            .ok(&format!("@alice /play action:\"{a}\" game:{id}"))
            .await;
        assert!(
            r[0].content.starts_with("alice ("),
            "alice's move comes first: {r:#?}"
        );
        for reply in r.iter().filter(|r| bot_move(r)) {
            // The bot's move pings alice when it passes her the turn, never itself.
            assert!(
                reply.mentions.iter().all(|m| m.name != "Tokar"),
                "{reply:#?}"
            );
        }
        bot_moves += r.iter().filter(|r| bot_move(r)).count();
        assert_nothing_private_to_the_bot(&r);
    }
    (id, bot_moves, false)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_only_plays_legal_actions_in_every_game() {
    let setups = [
        "game:arachne opponent:@Tokar",
        "game:arachne variant:strategist opponent:@Tokar level:easy",
        "game:arcana army:human opponent:@Tokar",
        "game:arcana army:undead army.1:human opponent:@Tokar level:hard",
        "game:gladiator opponent:@Tokar",
        "game:magic-chess bots:3",
        "game:magic-chess players:2 opponent:@Tokar",
    ];
    for (i, setup) in setups.iter().enumerate() {
        for seed in 1..=2u64 {
            let e = open_with_robot(&fresh_dir(&format!("robot-legal-{i}-{seed}")), seed).await;
            let (id, bot_moves, over) = play_against_bot(&e, setup, 12, seed).await;
            assert!(
                bot_moves >= 1 && (over || bot_moves >= 6),
                "{setup} seed {seed}: the bot moved {bot_moves} times"
            );
            // Everything the bot played replays from the log.
            let x = e.ok(&format!("@alice /export game:{id}")).await;
            assert!(exported_record(&x[0]).starts_with("tokar1|"), "{x:#?}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_against_the_bot_to_its_end() {
    let e = open_with_robot(&fresh_dir("robot-whole"), 3).await;
    let (id, bot_moves, over) = play_against_bot(
        &e,
        "game:arachne variant:strategist opponent:@Tokar",
        400,
        0,
    )
    .await;
    assert!(over, "game #{id} did not end in 400 of alice's actions");
    assert!(bot_moves > 0);
    let h = e.ok(&format!("@alice /history game:{id}")).await;
    assert!(h[0].content.contains("Tokar"), "{}", h[0].content);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_are_private_and_refused_when_off_or_not_your_turn() {
    let e = open_with_robot(&fresh_dir("robot-hint"), 5).await;
    let r = e.ok("@alice /new game:arachne opponent:@Tokar").await;
    let id = game_number(&r);
    let h = e.ok(&format!("@alice /hint game:{id}")).await;
    assert_eq!(h.len(), 1, "{h:#?}");
    assert_eq!(
        h[0].ephemeral_to.as_ref().map(|u| u.name.as_str()),
        Some("alice")
    );
    assert!(h[0].content.contains("expected"), "{}", h[0].content);
    let suggested = hinted_action(&h[0].content);
    // Playing it is accepted, and the bot answers.
    let r = e
        .ok(&format!("@alice /play action:\"{suggested}\" game:{id}"))
        .await;
    if !r.iter().any(bot_move) {
        let why = e.refused(&format!("@alice /moves game:{id}")).await;
        assert!(why.contains("is over"), "the bot answers: {why}");
    }

    let why = e.refused(&format!("@carol /hint game:{id}")).await;
    assert!(why.contains("not playing"), "{why}");

    let r = e
        .ok("@alice /new game:arachne opponent:@Tokar hints:off")
        .await;
    let off = game_number(&r);
    let why = e.refused(&format!("@alice /hint game:{off}")).await;
    assert!(why.contains("Hints are off"), "{why}");

    // Between people (unrated, T49): the one not to act is refused.
    let r = e
        .ok("@alice /new game:arachne opponent:@bob rated:no")
        .await;
    let pvp = game_number(&r);
    e.ok(&format!("@bob /accept game:{pvp}")).await;
    let waiting = if e.actions("alice", pvp).await.is_empty() {
        "alice"
    } else {
        "bob"
    };
    let why = e.refused(&format!("@{waiting} /hint game:{pvp}")).await;
    assert!(why.contains("not your turn"), "{why}");

    let why = e
        .refused("@alice /new game:arachne opponent:@Tokar level:genius")
        .await;
    assert!(why.contains("level"), "{why}");
    let why = e
        .refused("@alice /new game:arachne opponent:@Tokar hints:maybe")
        .await;
    assert!(why.contains("hints"), "{why}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_restart_the_bot_moves_where_it_is_to_act() {
    let dir = fresh_dir("robot-restart");
    let id;
    {
        // First run: `Tokar` is an ordinary user here (the bot is someone
        // else), so the game is left waiting for Tokar, as if the process
        // had stopped before the bot could move.
        let clock = Arc::new(VirtualClock::open(&dir).unwrap());
        let table = Table::open(TableConfig {
            data_dir: dir.clone(),
            storage: Default::default(),
            clock: clock.clone(),
            seed: Some(9),
            robot: RobotConfig {
                user: user("someone-else"),
                iterations: Some(ITERATIONS),
                ..Default::default()
            },
        })
        .await
        .unwrap();
        let e = Env {
            dir: dir.clone(),
            clock,
            table,
        };
        let r = e.ok("@alice /new game:arachne opponent:@Tokar").await;
        id = game_number(&r);
        e.ok(&format!("@Tokar /accept game:{id}")).await;
        if e.to_act(id, &["alice", "Tokar"]).await == Some("alice") {
            let a = e.actions("alice", id).await[0].clone();
            e.ok(&format!("@alice /play action:\"{a}\" game:{id}"))
                .await;
        }
        assert_eq!(e.to_act(id, &["alice", "Tokar"]).await, Some("Tokar"));
    }
    // Second run: `Tokar` is the bot. The start-up tick gives it its move.
    let e = open_with_robot(&dir, 9).await;
    let r = e.table.tick().await;
    assert!(r.iter().any(bot_move), "the bot moves at start-up: {r:#?}");
    assert!(
        r.iter()
            .any(|r| r.mentions.iter().any(|m| m.name == "alice")),
        "alice is pinged: {r:#?}"
    );
    assert_eq!(e.to_act(id, &["alice", "Tokar"]).await, Some("alice"));
    // Nothing more to do on the next tick.
    assert!(!e.table.tick().await.iter().any(bot_move));
}

/// Ruling T10: past the deadline of a duel against the bot, the notice
/// offers the bot nothing and pings nobody, the game waits, reminders stop,
/// and the absent player may still move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_waits_at_the_deadline_and_never_claims() {
    let e = open_with_robot(&fresh_dir("robot-deadline"), 5).await;
    let r = e.ok("@alice /new game:arachne opponent:@Tokar").await;
    let id = game_number(&r);
    assert_eq!(e.to_act(id, &["alice", "Tokar"]).await, Some("alice"));
    e.clock.advance(8 * DAY).unwrap();
    let r = e.table.tick().await;
    let notice = r
        .iter()
        .find(|r| r.content.contains("has not acted"))
        .unwrap_or_else(|| panic!("a deadline notice: {r:#?}"));
    assert!(
        notice.content.contains("the bot does not claim"),
        "{}",
        notice.content
    );
    assert!(!notice.content.contains("/claim"), "{}", notice.content);
    assert!(notice.mentions.is_empty(), "{notice:#?}");
    e.clock.advance(30 * DAY).unwrap();
    assert!(
        e.table.tick().await.is_empty(),
        "no reminders after the notice"
    );
    let a = e.actions("alice", id).await[0].clone();
    let r = e
        .ok(&format!("@alice /play action:\"{a}\" game:{id}"))
        .await;
    assert!(r.iter().any(bot_move), "the bot answers: {r:#?}");
}

/// Ruling T49: a rated game is played without hints. Its invitation says so, `/hint` is
/// refused with that reason, `hints:on` is refused with a rated game (the creator makes it
/// unrated instead), and an unrated game between people keeps its hints.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hint_refused_in_a_rated_game() {
    let e = open_with_robot(&fresh_dir("robot-hint-rated"), 5).await;
    let r = e.ok("@alice /new game:arachne opponent:@bob").await;
    assert!(r[0].content.contains("rated, no hints"), "{}", r[0].content);
    let id = game_number(&r);
    e.ok(&format!("@bob /accept game:{id}")).await;
    let mover = e.to_act(id, &["alice", "bob"]).await.unwrap();
    let why = e.refused(&format!("@{mover} /hint game:{id}")).await;
    assert_eq!(
        why,
        format!("Game #{id} is rated, and rated games are played without hints.")
    );

    let why = e
        .refused("@alice /new game:arachne opponent:@bob hints:on")
        .await;
    assert!(why.contains("rated:no"), "{why}");
    let why = e
        .refused("@alice /new game:arachne opponent:@bob rated:yes hints:on")
        .await;
    assert!(why.contains("without hints"), "{why}");

    let r = e
        .ok("@alice /new game:arachne opponent:@bob rated:no")
        .await;
    assert!(
        r[0].content.contains("unrated, hints on"),
        "{}",
        r[0].content
    );
    let free = game_number(&r);
    e.ok(&format!("@bob /accept game:{free}")).await;
    let mover = e.to_act(free, &["alice", "bob"]).await.unwrap();
    let h = e.ok(&format!("@{mover} /hint game:{free}")).await;
    assert!(h[0].content.contains("hint for"), "{}", h[0].content);
}

/// Ruling T49: where the server rates games against Tokar, the bot grants no takeback in a
/// rated game (T11's takebacks are for unrated ones), and gives no hint there either.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_against_the_bot_refused_in_a_rated_game() {
    let e = open_with_robot(&fresh_dir("robot-undo-rated"), 6).await;
    let in_server = |line: &str, manage: bool| {
        let mut r = request(line);
        r.channel.guild = Some(77);
        r.manage_server = manage;
        r
    };
    let r = e
        .table
        .handle(in_server("@alice /server rated-bots:on", true))
        .await;
    assert!(r[0].ok, "{r:#?}");
    let r = e
        .table
        .handle(in_server(
            "@alice /new game:arcana army:human opponent:@Tokar",
            false,
        ))
        .await;
    assert!(r[0].ok, "{r:#?}");
    let id = game_number(&r);
    let a = e.actions("alice", id).await[0].clone();
    let r = e
        .table
        .handle(in_server(
            &format!("@alice /play action:\"{a}\" game:{id}"),
            false,
        ))
        .await;
    assert!(r.iter().any(bot_move), "the bot answers: {r:#?}");
    let before = e.actions("alice", id).await;
    let r = e
        .table
        .handle(in_server(&format!("@alice /undo game:{id}"), false))
        .await;
    assert!(!r[0].ok, "{r:#?}");
    assert_eq!(
        r[0].content,
        format!("Game #{id} is rated: Tokar grants no takebacks in a rated game.")
    );
    assert_eq!(e.actions("alice", id).await, before, "nothing taken back");
    let r = e
        .table
        .handle(in_server(&format!("@alice /hint game:{id}"), false))
        .await;
    assert!(!r[0].ok && r[0].content.contains("is rated"), "{r:#?}");

    // The same game unrated: the takeback is granted (T11).
    let r = e
        .table
        .handle(in_server(
            "@alice /new game:arcana army:human opponent:@Tokar rated:no",
            false,
        ))
        .await;
    let free = game_number(&r);
    let a = e.actions("alice", free).await[0].clone();
    e.table
        .handle(in_server(
            &format!("@alice /play action:\"{a}\" game:{free}"),
            false,
        ))
        .await;
    let r = e
        .table
        .handle(in_server(&format!("@alice /undo game:{free}"), false))
        .await;
    assert!(r[0].ok, "{r:#?}");
}

/// Ruling T11: against the bot, /undo takes back the asker's action and the
/// bot's answer at once, never across a roll; a draw offer is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_grants_takebacks_and_refuses_draws() {
    let e = open_with_robot(&fresh_dir("robot-undo"), 6).await;
    let r = e
        .ok("@alice /new game:arcana army:human opponent:@Tokar")
        .await;
    let id = game_number(&r);
    // (The bot may have moved first: Arcana's first side is drawn.)
    let start = e.actions("alice", id).await;
    let history = e.ok(&format!("@alice /history game:{id}")).await;
    let a = start[0].clone();
    let r = e
        .ok(&format!("@alice /play action:\"{a}\" game:{id}"))
        .await;
    assert!(r.iter().any(bot_move), "the bot answers: {r:#?}");
    let r = e.ok(&format!("@alice /undo game:{id}")).await;
    assert!(
        !r.iter().any(bot_move),
        "the bot waits after a takeback: {r:#?}"
    );
    assert!(
        r.iter()
            .all(|r| r.mentions.iter().all(|m| m.name != "Tokar")),
        "{r:#?}"
    );
    assert_eq!(e.to_act(id, &["alice", "Tokar"]).await, Some("alice"));
    assert_eq!(e.actions("alice", id).await, start, "back where alice was");
    let h = e.ok(&format!("@alice /history game:{id}")).await;
    assert_eq!(h[0].content, history[0].content);

    let msg = e.refused(&format!("@alice /draw game:{id}")).await;
    assert!(msg.contains("does not agree to draws"), "{msg}");

    // Arachne rolls the next turn's dice after every turn: nothing goes back.
    let r = e.ok("@alice /new game:arachne opponent:@Tokar").await;
    let id = game_number(&r);
    let a = e.actions("alice", id).await[0].clone();
    e.ok(&format!("@alice /play action:\"{a}\" game:{id}"))
        .await;
    let msg = e.refused(&format!("@alice /undo game:{id}")).await;
    assert!(msg.contains("chance"), "{msg}");
}

/// The real binary: a console transcript of a whole game against the bot,
/// the same on every run. alice plays the first action /moves lists.
#[test]
fn a_whole_game_against_the_bot_through_the_console() {
    let run = || {
        let dir = fresh_dir("robot-console");
        let (mut child, mut stdin, mut lines) =
            console_process(&dir, &["--seed", "4", "--robot-iterations", "16"]);
        let mut transcript: Vec<serde_json::Value> = Vec::new();
        // Sends a line, then a marker command, and reads up to the marker's refusal.
        let mut send =
            |line: &str, transcript: &mut Vec<serde_json::Value>| -> Vec<serde_json::Value> {
                writeln!(stdin, "{line}\n@marker /marker").unwrap();
                stdin.flush().unwrap();
                let mut out = Vec::new();
                loop {
                    let l = lines.next().expect("the console answers").unwrap();
                    let v: serde_json::Value = serde_json::from_str(&l).unwrap();
                    if v["content"].as_str().unwrap_or("").contains("/marker") {
                        break;
                    }
                    out.push(v);
                }
                transcript.extend(out.clone());
                out
            };
        // Played in the channel (threads: tests/threads.rs).
        send("@alice /server threads:off", &mut transcript);
        let r = send(
            "@alice /new game:arachne variant:strategist opponent:@Tokar",
            &mut transcript,
        );
        assert!(r[0]["ok"].as_bool().unwrap(), "{r:?}");
        let mut over = false;
        for _ in 0..400 {
            let m = send("@alice /moves game:1", &mut transcript);
            let content = m[0]["content"].as_str().unwrap().to_string();
            if !m[0]["ok"].as_bool().unwrap() {
                assert!(content.contains("is over"), "{content}");
                over = true;
                break;
            }
            // The first action of the first line under the seat's heading (ruling T15): a
            // piece's first destination ("e3 Grunt: to d3"), its first other action, or a
            // word's ("turncoat: d4-d2 xd1", "end").
            let first = content
                .lines()
                .nth(2)
                .map(|l| match l.split_once(": ") {
                    None => l.to_string(),
                    Some((head, list)) => {
                        let item = list.split(", ").next().unwrap().split("; ").next().unwrap();
                        let square = head.split(' ').next().unwrap();
                        match item.strip_prefix("to ") {
                            Some(to) => format!("{square}-{to}"),
                            None if head.contains(' ') => item.to_string(),
                            None => format!("{head} {item}"),
                        }
                    }
                })
                .unwrap_or_else(|| panic!("no moves listed: {content}"));
            let r = send(
                &format!("@alice /play action:\"{first}\" game:1"),
                &mut transcript,
            );
            assert!(r[0]["ok"].as_bool().unwrap(), "{r:?}");
            assert!(
                r[0]["content"].as_str().unwrap().starts_with("alice ("),
                "{r:?}"
            );
        }
        let _ = child.kill();
        let _ = child.wait();
        assert!(over, "the game did not end");
        transcript
    };
    let first = run();
    let bot_moves: Vec<&str> = first
        .iter()
        .filter_map(|v| v["content"].as_str())
        .filter(|c| c.starts_with("Tokar (") && c.contains(" plays "))
        .collect();
    assert!(!bot_moves.is_empty());
    // The bot's moves follow alice's in the order they were made.
    let contents: Vec<&str> = first.iter().filter_map(|v| v["content"].as_str()).collect();
    for w in contents.windows(2) {
        if w[1].starts_with("Tokar (") && w[1].contains(" plays ") {
            assert!(
                w[0].starts_with("alice (")
                    || w[0].starts_with("Tokar (")
                    || w[0].contains("begins"),
                "a bot move follows what gave it the turn: {w:?}"
            );
        }
    }
    let second = run();
    let strip = |t: &[serde_json::Value]| -> Vec<String> {
        t.iter()
            .map(|v| v["content"].as_str().unwrap_or("").to_string())
            .collect()
    };
    assert_eq!(
        strip(&first),
        strip(&second),
        "the transcript is the same on every run"
    );
}
