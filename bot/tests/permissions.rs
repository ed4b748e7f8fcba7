//! Who may do what: seats, turns, invitations, finished games, bad input.

mod common;
use common::*;

#[tokio::test]
async fn only_the_player_to_act_may_play() {
    let e = env("perm-turn").await;
    let id = e.start("alice", "bob").await;
    let first = e.to_act(id, &["alice", "bob"]).await.unwrap();
    let other = if first == "alice" { "bob" } else { "alice" };
    let a = e.actions(first, id).await[0].clone();
    let msg = e
        .refused(&format!("@{other} /play action:\"{a}\" game:{id}"))
        .await;
    assert!(msg.contains("not your turn"), "{msg}");
    let msg = e
        .refused(&format!("@carol /play action:\"{a}\" game:{id}"))
        .await;
    assert!(msg.contains("not playing"), "{msg}");
    let msg = e.refused(&format!("@carol /play action:\"{a}\"")).await;
    assert!(msg.contains("not playing a game in this channel"), "{msg}");
    let msg = e
        .refused(&format!("@{first} /play action:\"{a}\" game:99"))
        .await;
    assert!(msg.contains("no game #99"), "{msg}");
    let msg = e
        .refused(&format!(
            "@{first} #elsewhere /play action:\"{a}\" game:{id}"
        ))
        .await;
    assert!(msg.contains("played in #table"), "{msg}");
    // Nothing of that was stored: the history is empty and the move still applies.
    let h = e.ok(&format!("@{first} /history game:{id}")).await;
    assert!(
        h[0].content.contains("Nothing played yet"),
        "{}",
        h[0].content
    );
    let r = e.ok(&format!("@{first} /play action:\"{a}\"")).await;
    assert_eq!(
        r[0].mentions,
        vec![user(other)],
        "the next player, and only them, is pinged"
    );
}

#[tokio::test]
async fn invitations_belong_to_the_invited() {
    let e = env("perm-invite").await;
    e.ok(&format!(
        "@alice /new game:{GAME} {CREATOR_OPTIONS} opponent:@bob"
    ))
    .await;
    let msg = e.refused(&format!("@carol /accept {ACCEPT_OPTIONS}")).await;
    assert!(msg.contains("no invitation"), "{msg}");
    let msg = e.refused("@carol /join").await;
    assert!(msg.contains("open seat"), "{msg}");
    let msg = e.refused("@alice /play action:a1").await;
    assert!(
        msg.contains("has not started") || msg.contains("not playing"),
        "{msg}"
    );
    let b = e.ok("@alice /board").await;
    assert!(
        b[0].content.contains("waiting for bob to accept"),
        "{}",
        b[0].content
    );
    let r = e.ok("@bob /decline").await;
    assert_eq!(r[0].mentions, vec![user("alice")]);
    let msg = e.refused(&format!("@bob /accept {ACCEPT_OPTIONS}")).await;
    assert!(msg.contains("no invitation"), "{msg}");
}

#[tokio::test]
async fn open_seats_are_joined() {
    let e = env("perm-join").await;
    e.ok(&format!("@alice /new game:{GAME} {CREATOR_OPTIONS}"))
        .await;
    let msg = e.refused(&format!("@alice /join {ACCEPT_OPTIONS}")).await;
    assert!(
        msg.contains("open seat") || msg.contains("already"),
        "{msg}"
    );
    let r = e.ok(&format!("@dave /join {ACCEPT_OPTIONS}")).await;
    assert!(r[0].content.contains("begins"), "{}", r[0].content);
}

#[tokio::test]
async fn bad_input_gets_one_line_and_changes_nothing() {
    let e = env("perm-bad").await;
    for line in [
        "@alice /frobnicate",
        "@alice /new",
        "@alice /new game:chess",
        &format!("@alice /new game:{GAME} colour:green"),
        &format!("@alice /new game:{GAME} army:purple"),
        &format!("@alice /new game:{GAME} opponent:@alice"),
        &format!("@alice /new game:{GAME} opponent:nobody"),
        "@alice /play",
        "@alice /settings deadline:91d",
        "@alice /settings deadline:2h",
        "@alice /settings reminder:soon",
        "@alice /vacation maybe",
        "@alice /button custom_id:hello",
        "@alice /rules game:chess",
        "@alice /draw answer:maybe",
    ] {
        e.refused(line).await;
    }
    let g = e.ok("@alice /games").await;
    assert!(g[0].content.contains("no games"), "{}", g[0].content);
}

#[tokio::test]
async fn a_finished_game_cannot_be_changed() {
    let e = env("perm-finished").await;
    let id = e.start("alice", "bob").await;
    let r = e.ok("@bob /resign confirm:yes").await;
    assert!(r[0].content.contains("is over"), "{}", r[0].content);
    // The end pings both players (ruling T39).
    assert_eq!(r[0].mentions, vec![user("alice"), user("bob")]);
    for line in [
        "@alice /resign",
        "@alice /draw",
        "@bob /undo",
        "@alice /claim",
    ] {
        let msg = e.refused(&format!("{line} game:{id}")).await;
        assert!(msg.contains("over"), "{line}: {msg}");
    }
    let msg = e
        .refused(&format!("@alice /play action:a1 game:{id}"))
        .await;
    assert!(msg.contains("over"), "{msg}");
    // The record now shows the seed.
    let x = e.ok(&format!("@alice /export game:{id}")).await;
    assert!(!x[0].content.contains("seed=?"), "{}", x[0].content);
}

#[tokio::test]
async fn stale_buttons_are_refused_politely() {
    let e = env("perm-button").await;
    let id = e.start("alice", "bob").await;
    let first = e.to_act(id, &["alice", "bob"]).await.unwrap();
    let b = e.ok(&format!("@{first} /board game:{id}")).await;
    let _ = b;
    let start = e.run(&format!("@{first} /history game:{id}")).await;
    let _ = start;
    let a = e.actions(first, id).await[0].clone();
    let r = e.ok(&format!("@{first} /play action:\"{a}\"")).await;
    let button = r[0]
        .buttons
        .iter()
        .find(|b| b.label == "My moves")
        .unwrap()
        .custom_id
        .clone();
    assert!(button.len() <= 100);
    let next = if first == "alice" { "bob" } else { "alice" };
    let fresh = e.ok(&format!("@{next} /button custom_id:{button}")).await;
    assert_eq!(fresh[0].ephemeral_to, Some(user(next)));
    let a2 = e.actions(next, id).await[0].clone();
    e.ok(&format!("@{next} /play action:\"{a2}\"")).await;
    let msg = e
        .refused(&format!("@{next} /button custom_id:{button}"))
        .await;
    assert!(msg.contains("earlier position"), "{msg}");
}

#[tokio::test]
async fn draws_and_undo_need_the_opponent() {
    let e = env("perm-offers").await;
    let id = e.start("alice", "bob").await;
    let first = e.to_act(id, &["alice", "bob"]).await.unwrap();
    let other = if first == "alice" { "bob" } else { "alice" };
    let msg = e.refused(&format!("@{first} /undo")).await;
    assert!(msg.contains("nothing"), "{msg}");
    let a = e.actions(first, id).await[0].clone();
    e.ok(&format!("@{first} /play action:\"{a}\"")).await;
    let r = e.ok(&format!("@{first} /undo")).await;
    assert_eq!(r[0].mentions, vec![user(other)]);
    let msg = e.refused(&format!("@{first} /undo answer:accept")).await;
    assert!(msg.contains("already"), "{msg}");
    let r = e.ok(&format!("@{other} /undo answer:accept")).await;
    assert!(r[0].content.contains("taken back"), "{}", r[0].content);
    assert_eq!(e.to_act(id, &["alice", "bob"]).await, Some(first));
    let h = e.ok(&format!("@{first} /history")).await;
    assert!(
        h[0].content.contains("Nothing played yet"),
        "{}",
        h[0].content
    );
    // A draw.
    e.ok(&format!("@{first} /draw")).await;
    let r = e.ok(&format!("@{other} /draw answer:decline")).await;
    assert!(r[0].content.contains("declines"));
    e.ok(&format!("@{first} /draw")).await;
    let r = e.ok(&format!("@{other} /draw")).await;
    assert!(r[0].content.contains("drawn"), "{}", r[0].content);
}
