//! Two commands on one game at the same moment: exactly one is applied.

mod common;
use common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_plays_at_once_apply_exactly_one() {
    let e = env("concurrent").await;
    for round in 0..6 {
        let id = e.start("alice", "bob").await;
        let first = e.to_act(id, &["alice", "bob"]).await.unwrap();
        let actions = e.actions(first, id).await;
        assert!(actions.len() >= 2);
        let (a, b) = (
            actions[0].clone(),
            actions[actions.len() - 1 - round % 2].clone(),
        );
        let t1 = e.table.clone();
        let t2 = e.table.clone();
        let l1 = request(&format!("@{first} /play action:\"{a}\" game:{id}"));
        let l2 = request(&format!("@{first} /play action:\"{b}\" game:{id}"));
        let (r1, r2) = tokio::join!(
            tokio::spawn(async move { t1.handle(l1).await }),
            tokio::spawn(async move { t2.handle(l2).await })
        );
        let (r1, r2) = (r1.unwrap(), r2.unwrap());
        let oks = [&r1, &r2].iter().filter(|r| r[0].ok).count();
        assert_eq!(oks, 1, "exactly one applies: {r1:#?} {r2:#?}");
        let h = e.ok(&format!("@{first} /history game:{id}")).await;
        let played = h[0]
            .content
            .lines()
            .filter(|l| l.starts_with("1. "))
            .count();
        assert_eq!(played, 1, "{}", h[0].content);
        assert!(!h[0].content.contains("\n2. "), "{}", h[0].content);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_flood_of_commands_on_one_game_keeps_it_consistent() {
    let e = env("flood").await;
    let id = e.start("alice", "bob").await;
    let mut handles = Vec::new();
    for i in 0..24 {
        let t = e.table.clone();
        let who = if i % 2 == 0 { "alice" } else { "bob" };
        let acts = e.actions(who, id).await;
        let line = match acts.first() {
            Some(a) => format!("@{who} /play action:\"{a}\" game:{id}"),
            None => format!("@{who} /board game:{id}"),
        };
        handles.push(tokio::spawn(async move { t.handle(request(&line)).await }));
    }
    for h in handles {
        let r = h.await.unwrap();
        assert!(!r.is_empty());
    }
    // Reopening replays nothing wrong: the stored snapshot equals the replayed log.
    let x = e.ok(&format!("@alice /export game:{id}")).await;
    assert!(x[0].content.contains("tokar1|"), "{}", x[0].content);
}
