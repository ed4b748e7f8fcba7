//! One user holding a whole Gladiator team (two players, four commanders
//! each): `/hint` advises, and the bot plays, the move of the commander whose
//! turn it is, not a King's override of every move. The game lists the
//! commander first among the seats to act, the King who may override second.

mod common;
use common::*;
use std::sync::Arc;
use tokar_bot::clock::VirtualClock;
use tokar_bot::table::robot::RobotConfig;
use tokar_bot::{Table, TableConfig};

/// The seats named in a status line's "… to act", in order.
fn seats_to_act(content: &str) -> Vec<String> {
    let line = content
        .lines()
        .rev()
        .find(|l| l.contains(" to act"))
        .unwrap_or_else(|| panic!("no status line: {content}"));
    let seats = line.split(" to act").next().unwrap();
    let seats = seats.rsplit_once(": ").unwrap().1;
    seats
        .split("), ")
        .map(|s| s.split(" (").next().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_for_a_whole_team_are_the_commander_to_moves() {
    let e = env("whole-team-hint").await;
    // Hints are for unrated games (ruling T49).
    e.ok("@alice /new game:gladiator opponent:@bob rated:no")
        .await;
    let mut status = e.ok("@bob /accept game:1").await[0].content.clone();
    // The line-up sets team against team, not each commander against the rest.
    assert!(
        status.contains(
            "begins: White King (alice), White Queen (alice), White Black Knight (alice), \
             White King's Knight (alice) vs Black King (bob), Black Queen (bob), \
             Black Black Knight (bob), Black King's Knight (bob)."
        ),
        "{status}"
    );
    let mut commanders = 0;
    for _ in 0..16 {
        let seats = seats_to_act(&status);
        let user = if seats[0].starts_with("White") {
            "alice"
        } else {
            "bob"
        };
        let hint = e.ok(&format!("@{user} /hint game:1")).await[0]
            .content
            .clone();
        assert!(
            hint.contains(&format!("hint for {}:", seats[0])),
            "to act: {seats:?}; {hint}"
        );
        let action = hinted_action(&hint);
        let r = e
            .ok(&format!("@{user} /play action:\"{action}\" game:1"))
            .await;
        // Played as the seat it was advised for.
        assert!(
            r[0].content
                .starts_with(&format!("{user} ({}) plays", seats[0])),
            "to act: {seats:?}; {hint}; {}",
            r[0].content
        );
        if !seats[0].ends_with(" King") {
            commanders += 1;
            assert!(!action.starts_with("king:"), "{action}");
        }
        status = r[0].content.clone();
    }
    assert!(commanders > 0, "no commander but the King was ever to act");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_holding_a_whole_team_moves_each_commander() {
    let dir = fresh_dir("whole-team-bot");
    let e = Env {
        clock: Arc::new(VirtualClock::open(&dir).unwrap()),
        table: Table::open(TableConfig {
            data_dir: dir.clone(),
            storage: Default::default(),
            clock: Arc::new(VirtualClock::open(&dir).unwrap()),
            seed: Some(3),
            robot: RobotConfig {
                user: user("Tokar"),
                iterations: Some(24),
                ..Default::default()
            },
        })
        .await
        .unwrap(),
        dir,
    };
    let mut status = e
        .ok("@alice /new game:gladiator opponent:@Tokar")
        .await
        .last()
        .unwrap()
        .content
        .clone();
    let mut bot_seats = Vec::new();
    for _ in 0..12 {
        let seats = seats_to_act(&status);
        let a = hinted_action(&e.ok("@alice /hint game:1").await[0].content);
        assert!(seats[0].starts_with("White"), "{seats:?}");
        let r = e.ok(&format!("@alice /play action:\"{a}\" game:1")).await;
        for reply in &r {
            if let Some(rest) = reply.content.strip_prefix("Tokar (") {
                bot_seats.push(rest.split(')').next().unwrap().to_string());
            }
        }
        status = r.last().unwrap().content.clone();
    }
    assert!(
        bot_seats.iter().any(|s| s != "Black King"),
        "the bot played every move as its King: {bot_seats:?}"
    );
}

/// A user holding the commander to move and his King who types an override
/// the King may not make is told the King's reason, not the commander's
/// "only the King can override".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_override_gives_the_kings_reason() {
    let e = env("whole-team-override").await;
    // Hints are for unrated games (ruling T49).
    e.ok("@alice /new game:gladiator opponent:@bob rated:no")
        .await;
    let status = e.ok("@bob /accept game:1").await[0].content.clone();
    assert_eq!(seats_to_act(&status)[0], "White King");
    let hint = e.ok("@alice /hint game:1").await[0].content.clone();
    let action = hinted_action(&hint);
    let r = e
        .ok(&format!("@alice /play action:\"{action}\" game:1"))
        .await;
    let seats = seats_to_act(&r[0].content);
    assert_eq!(seats, ["White Queen", "White King"], "{}", r[0].content);
    let refusal = e
        .refused("@alice /play action:\"king: e6-e7\" game:1")
        .await;
    assert!(refusal.contains("is refused in game #1"), "{refusal}");
    assert!(!refusal.contains("Only the King"), "{refusal}");
    // A user with no seat to act is told whose turn it is.
    let plain = e.refused("@bob /play action:\"king: e6-e7\" game:1").await;
    assert!(plain.contains("not your turn"), "{plain}");
}

/// A user holding the whole team who types a plain move of a King's piece at
/// the Queen's move is asked to type the override in full: an override costs
/// the Queen her move, and rule 7 has the King state it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_team_overrides_only_when_it_says_so() {
    let e = env("whole-team-explicit-override").await;
    // Hints are for unrated games (ruling T49).
    e.ok("@alice /new game:gladiator opponent:@bob rated:no")
        .await;
    let status = e.ok("@bob /accept game:1").await[0].content.clone();
    assert_eq!(seats_to_act(&status)[0], "White King");
    e.ok("@alice /play action:j2-j4 game:1").await;
    let refusal = e.refused("@alice /play action:b2-b4 game:1").await;
    assert!(refusal.contains("type action:\"king: b2-b4\""), "{refusal}");
    let r = e.ok("@alice /play action:\"King:b2b4\" game:1").await;
    assert!(
        r[0].content.contains("overrides the Queen's move"),
        "{}",
        r[0].content
    );
}
