//! Reminders and move deadlines on the virtual clock, across restarts.
//! Ruling T1 (docs/rulings.md): in two-sided games the deadline lets the
//! waiting player /claim the win; nobody is pinged twice for one thing.

mod common;
use common::*;
use tokar_bot::duration::{DAY, HOUR};

#[tokio::test]
async fn reminders_and_deadline_across_a_restart() {
    let dir = fresh_dir("schedule");
    let e = open(&dir, Some(3)).await;
    let id = e.start("alice", "bob").await;
    let first = e.to_act(id, &["alice", "bob"]).await.unwrap();
    let other = if first == "alice" { "bob" } else { "alice" };
    let a = e.actions(first, id).await[0].clone();
    e.ok(&format!("@{first} /play action:\"{a}\"")).await;
    assert!(e.table.tick().await.is_empty(), "nothing due yet");

    e.clock.advance(23 * HOUR).unwrap();
    assert!(e.table.tick().await.is_empty(), "not before 24 h");
    e.clock.advance(2 * HOUR).unwrap();
    let r = e.table.tick().await;
    assert_eq!(r.len(), 1, "{r:#?}");
    assert_eq!(r[0].mentions, vec![user(other)], "the waiting player only");
    assert!(r[0].content.contains("Reminder"), "{}", r[0].content);
    assert!(e.table.tick().await.is_empty(), "a reminder is sent once");
    e.clock.advance(HOUR).unwrap();
    assert!(e.table.tick().await.is_empty(), "at most once per interval");

    // Restart: the schedule and what was sent are in storage.
    drop(e);
    let e = open(&dir, Some(3)).await;
    assert!(
        e.table.tick().await.is_empty(),
        "a restart sends nothing twice"
    );
    e.clock.advance(24 * HOUR).unwrap();
    let r = e.table.tick().await;
    assert_eq!(r.len(), 1, "{r:#?}");
    assert_eq!(r[0].mentions, vec![user(other)]);

    // Down for ten days: one message on restart, the deadline, not a reminder per day.
    drop(e);
    let e = open(&dir, Some(3)).await;
    let msg = e.refused(&format!("@{first} /claim game:{id}")).await;
    assert!(msg.contains("has not passed"), "{msg}");
    e.clock.advance(10 * DAY).unwrap();
    let r = e.table.tick().await;
    assert_eq!(r.len(), 1, "{r:#?}");
    assert!(r[0].content.contains("/claim"), "{}", r[0].content);
    assert_eq!(
        r[0].mentions,
        vec![user(first)],
        "the players who may claim"
    );
    assert!(e.table.tick().await.is_empty());
    drop(e);
    let e = open(&dir, Some(3)).await;
    assert!(
        e.table.tick().await.is_empty(),
        "the deadline notice is not repeated"
    );
    let msg = e.refused(&format!("@{other} /claim game:{id}")).await;
    assert!(msg.contains("waits for you"), "{msg}");
    let r = e.ok(&format!("@{first} /claim game:{id}")).await;
    assert!(r[0].content.contains("is over"), "{}", r[0].content);
    e.clock.advance(30 * DAY).unwrap();
    assert!(
        e.table.tick().await.is_empty(),
        "a finished game has no schedule"
    );
}

#[tokio::test]
async fn vacation_pauses_the_deadline() {
    let dir = fresh_dir("vacation");
    let e = open(&dir, Some(4)).await;
    e.ok("@bob /settings reminder:off").await;
    let id = e.start("alice", "bob").await;
    let first = e.to_act(id, &["alice", "bob"]).await.unwrap();
    let other = if first == "alice" { "bob" } else { "alice" };
    if other != "bob" {
        // Make bob the one waited on.
        let a = e.actions(first, id).await[0].clone();
        e.ok(&format!("@{first} /play action:\"{a}\"")).await;
    }
    let waiting = e.to_act(id, &["alice", "bob"]).await.unwrap();
    let absent = waiting;
    let present = if absent == "alice" { "bob" } else { "alice" };
    e.ok(&format!("@{absent} /settings reminder:off")).await;
    e.clock.advance(2 * DAY).unwrap();
    e.ok(&format!("@{absent} /vacation on")).await;
    // Within the budget of 7 days (T50).
    e.clock.advance(5 * DAY).unwrap();
    assert!(
        e.table.tick().await.is_empty(),
        "no deadline while on vacation"
    );
    e.refused(&format!("@{present} /claim game:{id}")).await;
    drop(e);
    let e = open(&dir, Some(4)).await;
    e.ok(&format!("@{absent} /vacation off")).await;
    e.clock.advance(4 * DAY).unwrap();
    assert!(e.table.tick().await.is_empty(), "2 + 4 days of 7 used");
    e.clock.advance(DAY + HOUR).unwrap();
    let r = e.table.tick().await;
    assert_eq!(r.len(), 1, "{r:#?}");
    assert_eq!(r[0].mentions, vec![user(present)]);
}

/// Ruling T1 with more than two sides: at the deadline the absent seat's turn
/// is skipped, the next player is pinged, and the other three play on. The
/// skip is stored like an action: told once, not again after a restart, and
/// listed in /history.
#[tokio::test]
async fn a_four_player_game_skips_the_absent_seat_at_the_deadline() {
    let dir = fresh_dir("skip");
    let e = open(&dir, Some(5)).await;
    let names = ["alice", "bob", "carol", "dave"];
    let r = e
        .ok("@alice /new game:magic-chess opponent:@bob opponent2:@carol opponent3:@dave")
        .await;
    let id: u64 = r[0].content.split('#').nth(1).unwrap()[..1]
        .parse()
        .unwrap();
    for n in &names[1..] {
        e.ok(&format!("@{n} /accept game:{id}")).await;
    }
    // The first player acts; the second is then waited on and stays silent.
    let first = e.to_act(id, &names).await.unwrap();
    let a = e.actions(first, id).await[0].clone();
    e.ok(&format!("@{first} /play action:\"{a}\" game:{id}"))
        .await;
    let absent = e.to_act(id, &names).await.unwrap();
    assert_ne!(absent, first);

    e.clock.advance(7 * DAY - HOUR).unwrap();
    let r = e.table.tick().await;
    assert!(
        r.iter().all(|r| r.content.contains("Reminder")),
        "only reminders before the deadline: {r:#?}"
    );
    e.clock.advance(2 * HOUR).unwrap();
    let r = e.table.tick().await;
    assert_eq!(r.len(), 1, "{r:#?}");
    assert!(
        r[0].content.contains(absent) && r[0].content.contains("the turn is skipped"),
        "{}",
        r[0].content
    );
    let next = e.to_act(id, &names).await.unwrap();
    assert!(
        next != absent && next != first,
        "the turn moved on to {next}"
    );
    assert_eq!(r[0].mentions, vec![user(next)], "the next player only");
    assert!(e.actions(absent, id).await.is_empty());

    // Told once, also after a restart.
    assert!(e.table.tick().await.is_empty());
    drop(e);
    let e = open(&dir, Some(5)).await;
    assert!(e.table.tick().await.is_empty(), "the skip is not repeated");
    let h = e.ok(&format!("@{next} /history game:{id}")).await;
    assert!(
        h[0].content.contains("turn skipped (deadline)"),
        "{}",
        h[0].content
    );

    // The others play on, and the skipped player has their next turn as usual.
    let mut played = vec![first];
    for _ in 0..3 {
        let who = e.to_act(id, &names).await.unwrap();
        if who == absent {
            break;
        }
        let a = e.actions(who, id).await[0].clone();
        e.ok(&format!("@{who} /play action:\"{a}\" game:{id}"))
            .await;
        played.push(who);
    }
    assert_eq!(e.to_act(id, &names).await, Some(absent), "after {played:?}");
    let a = e.actions(absent, id).await[0].clone();
    e.ok(&format!("@{absent} /play action:\"{a}\" game:{id}"))
        .await;
}

/// A game of alice and bob, on the virtual clock's first instant (2026-01-01 00:00 UTC),
/// in which bob is to act; `more` goes to `/new`.
async fn bob_to_act(e: &Env, more: &str) -> u64 {
    let id = e.start_with("alice", "bob", more).await;
    if e.to_act(id, &["alice", "bob"]).await == Some("alice") {
        let a = e.actions("alice", id).await[0].clone();
        e.ok(&format!("@alice /play action:\"{a}\" game:{id}"))
            .await;
    }
    assert_eq!(e.to_act(id, &["alice", "bob"]).await, Some("bob"));
    id
}

/// Ruling T50: a vacation spends a budget of 7 days (each use at least one), the opponent
/// is told when it starts and when it ends, a spent budget ends it and is refused, the
/// deadline notice counts only the time on the clock, and the next /play ends a vacation.
#[tokio::test]
async fn vacation_budget_spent_and_refused() {
    let e = env("vacation-budget").await;
    // Each vacation costs at least a day: the eighth of the year's first week is refused.
    for _ in 0..7 {
        e.ok("@carol /vacation on").await;
        e.ok("@carol /vacation off").await;
    }
    let why = e.refused("@carol /vacation on").await;
    assert_eq!(
        why,
        "You have 0s of vacation time, and a vacation takes at least 1d: you earn 1 day on the 1st and the 15th of each month."
    );

    e.ok("@alice /settings reminder:off").await;
    e.ok("@bob /settings reminder:off").await;
    let id = bob_to_act(&e, "").await;
    e.clock.advance(DAY).unwrap();
    let r = e.ok("@bob /vacation on").await;
    let told: Vec<_> = r.iter().filter(|r| r.ephemeral_to.is_none()).collect();
    assert_eq!(told.len(), 1, "{r:#?}");
    assert!(
        told[0].content.contains(&format!(
            "bob is on vacation (7d at most): game #{id}'s clock stands still"
        )),
        "{}",
        told[0].content
    );
    assert_eq!(told[0].mentions, vec![user("alice")]);

    // The budget lasts 7 days: to January 9th.
    e.clock.advance(6 * DAY).unwrap();
    assert!(e.table.tick().await.is_empty(), "on vacation");
    e.refused(&format!("@alice /claim game:{id}")).await;
    e.clock.advance(2 * DAY).unwrap();
    let r = e.table.tick().await;
    assert_eq!(r.len(), 1, "{r:#?}");
    assert_eq!(
        r[0].content,
        format!("bob's vacation time is used up: game #{id}'s clock runs again.")
    );
    assert_eq!(r[0].mentions, vec![user("alice")]);
    let why = e.refused("@bob /vacation on").await;
    assert!(why.starts_with("You have 0s of vacation time"), "{why}");

    // The deadline (7 days on the clock) falls on January 15th; the notice counts the
    // clock's 8 days on the 16th, not the 15 since the wait began.
    e.clock.advance(5 * DAY - HOUR).unwrap();
    assert!(e.table.tick().await.is_empty(), "the deadline is not yet");
    e.clock.advance(DAY + HOUR).unwrap();
    let r = e.table.tick().await;
    assert_eq!(r.len(), 1, "{r:#?}");
    assert!(
        r[0].content.contains("has not acted for 8d."),
        "{}",
        r[0].content
    );

    // The 15th brought a day: bob's next play ends the vacation, and alice is told.
    e.ok("@bob /vacation on").await;
    let a = e.actions("bob", id).await[0].clone();
    let r = e.ok(&format!("@bob /play action:\"{a}\" game:{id}")).await;
    assert!(
        r.iter().any(|r| r.content
            == format!(
                "bob is back from vacation (no vacation time left): game #{id}'s clock runs again."
            )
            && r.mentions == vec![user("alice")]),
        "{r:#?}"
    );
    let r = e.ok("@bob /vacation").await;
    assert!(
        r[0].content.starts_with("Vacation is off"),
        "{}",
        r[0].content
    );
}

/// Ruling T50: a reminder comes after an interval of time on the clock, and says how long
/// the game waited on it: after a 5-day vacation, "has waited 1d", not 6. A game created
/// with `vacation:off` keeps its clock running through a vacation.
#[tokio::test]
async fn reminder_counts_clock_time_only() {
    let e = env("vacation-reminder").await;
    let id = bob_to_act(&e, "").await;
    e.ok("@bob /vacation on").await;
    e.clock.advance(5 * DAY).unwrap();
    assert!(e.table.tick().await.is_empty(), "nothing while away");
    e.ok("@bob /vacation off").await;
    e.clock.advance(23 * HOUR).unwrap();
    assert!(
        e.table.tick().await.is_empty(),
        "a day on the clock has not passed"
    );
    e.clock.advance(HOUR).unwrap();
    let r = e.table.tick().await;
    assert_eq!(r.len(), 1, "{r:#?}");
    assert!(
        r[0].content
            .starts_with(&format!("Reminder: game #{id} (Arcana, move "))
            && r[0].content.contains(" has waited 1d for "),
        "{}",
        r[0].content
    );

    let r = e
        .ok("@dave /new game:arcana army:human opponent:@erin vacation:off")
        .await;
    assert!(r[0].content.contains("no vacation"), "{}", r[0].content);
    let strict = e.start_with("erin", "frank", "vacation:off").await;
    let waiting = e.to_act(strict, &["erin", "frank"]).await.unwrap();
    let r = e.ok(&format!("@{waiting} /vacation on")).await;
    assert!(
        r.iter().all(|r| !r.content.contains(&format!("#{strict}"))),
        "a game without vacations is not told: {r:#?}"
    );
    e.clock.advance(7 * DAY + HOUR).unwrap();
    let r = e.table.tick().await;
    assert!(
        r.iter().any(
            |r| r.content.contains(&format!("Game #{strict}:")) && r.content.contains("/claim")
        ),
        "the deadline passes during the vacation: {r:#?}"
    );
}
