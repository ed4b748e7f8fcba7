//! Prompts and lists that say what they mean: a move clock held by a vacation reads as paused,
//! never as a number of days that overflows, and a claim against it says why it waits; a game
//! won by a claim says so, not that someone resigned.

mod common;
use common::*;

/// alice and bob start a game: its number, who is to move, and the other.
async fn duel(e: &Env) -> (u64, &'static str, &'static str) {
    let id = e.start("alice", "bob").await;
    let mover = e
        .to_act(id, &["alice", "bob"])
        .await
        .expect("someone moves");
    let other = if mover == "alice" { "bob" } else { "alice" };
    (id, mover, other)
}

#[tokio::test]
async fn a_vacation_shows_as_a_paused_clock() {
    let e = env("vacation-paused").await;
    let (id, mover, other) = duel(&e).await;
    e.ok(&format!("@{mover} /vacation on")).await;

    let games = e.ok(&format!("@{other} /games")).await;
    let line = &games[0].content;
    assert!(
        line.contains(&format!("(paused: {mover} is on vacation)")),
        "{line}"
    );
    assert!(
        !line.contains("d ") || !line.contains("left"),
        "no days left: {line}"
    );

    let refused = e.refused(&format!("@{other} /claim game:{id}")).await;
    assert!(
        refused.contains(&format!("paused: {mover} is on vacation")),
        "{refused}"
    );
    assert!(!refused.contains("left"), "{refused}");

    // Back from vacation, the clock reads in time again.
    e.ok(&format!("@{mover} /vacation off")).await;
    let games = e.ok(&format!("@{other} /games")).await;
    assert!(games[0].content.contains(" left)"), "{}", games[0].content);
}

#[tokio::test]
async fn a_game_won_by_a_claim_says_so_and_not_resigned() {
    let e = env("claim-wording").await;
    let (id, _, other) = duel(&e).await;
    e.clock.advance(8 * 24 * 3600 * 1000).unwrap();
    let claimed = e.ok(&format!("@{other} /claim game:{id}")).await;
    let text = &claimed[0].content;
    assert!(text.contains("won at the move deadline"), "{text}");
    assert!(!text.contains("resign"), "{text}");
    let board = e.ok(&format!("@{other} /board game:{id}")).await;
    assert!(
        board[0].content.contains("won at the move deadline"),
        "{}",
        board[0].content
    );
    let history = e.ok(&format!("@{other} /history game:{id}")).await;
    assert!(
        !history[0].content.contains("resign"),
        "{}",
        history[0].content
    );
}
