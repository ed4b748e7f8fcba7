//! A game is changed only from its own channel, in the lobby too: `/accept`,
//! `/decline` (which cancels the game) and `/join` from another channel are
//! refused with the line every other command gives, and change nothing.

mod common;
use common::*;

/// Game #1's stored record, to compare before and after a refusal.
async fn stored(e: &Env) -> Vec<u8> {
    e.table.stored_record(1).await.unwrap().expect("game #1")
}

#[tokio::test]
async fn accept_and_decline_come_from_the_games_channel() {
    let e = env("lobby-invite").await;
    e.ok(&format!(
        "@alice /new game:{GAME} {CREATOR_OPTIONS} opponent:@bob"
    ))
    .await;
    let before = stored(&e).await;
    let msg = e
        .refused(&format!("@bob #elsewhere /accept {ACCEPT_OPTIONS}"))
        .await;
    assert_eq!(msg, "Game #1 is played in #table; act there.");
    let msg = e.refused("@bob #elsewhere /decline game:1").await;
    assert_eq!(msg, "Game #1 is played in #table; act there.");
    assert_eq!(stored(&e).await, before, "nothing changed");
    // In its channel the invitation still stands.
    let r = e.ok(&format!("@bob /accept {ACCEPT_OPTIONS}")).await;
    assert!(r[0].content.contains("begins"), "{}", r[0].content);

    e.ok(&format!(
        "@carol /new game:{GAME} {CREATOR_OPTIONS} opponent:@dave"
    ))
    .await;
    e.refused("@dave #elsewhere /decline").await;
    let r = e.ok("@dave /decline").await;
    assert!(r[0].content.contains("cancelled"), "{}", r[0].content);
}

#[tokio::test]
async fn join_comes_from_the_games_channel() {
    let e = env("lobby-join").await;
    e.ok(&format!(
        "@alice /new game:{GAME} {CREATOR_OPTIONS} players:2"
    ))
    .await;
    let before = stored(&e).await;
    let msg = e
        .refused(&format!("@carol #elsewhere /join game:1 {ACCEPT_OPTIONS}"))
        .await;
    assert_eq!(msg, "Game #1 is played in #table; act there.");
    assert_eq!(stored(&e).await, before, "nothing changed");
    let r = e.ok(&format!("@carol /join game:1 {ACCEPT_OPTIONS}")).await;
    assert!(r[0].content.contains("begins"), "{}", r[0].content);
}
