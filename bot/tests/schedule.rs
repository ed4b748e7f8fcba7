//! Reminders and move deadlines on the virtual clock, across restarts.
//! Ruling T1 (bot/README.md): in two-sided games the deadline lets the
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
    e.clock.advance(20 * DAY).unwrap();
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
