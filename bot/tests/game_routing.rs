//! Where a game's commands are taken and where their answers go (ruling T38,
//! docs/rulings.md): in the game's thread, in the channel it was created in, and with
//! `game:N` anywhere on its server; never from another server or a direct message.
//! Without `game:` the player's only game here, else on the server, is meant. Public
//! answers go to the game's thread; the player who typed elsewhere is told where.

mod common;
use common::*;
use tokar_bot::{ChannelRef, Reply};

const SERVER: u64 = 4_242;
const OTHER_SERVER: u64 = 5_353;
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
        ..in_server("table")
    }
}

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

async fn ok_at(e: &Env, line: &str, at: &ChannelRef) -> Vec<Reply> {
    let r = run_at(e, line, at).await;
    assert!(
        !r.is_empty() && r.iter().all(|r| r.ok),
        "{line} refused: {r:#?}"
    );
    r
}

async fn refused_at(e: &Env, line: &str, at: &ChannelRef) -> String {
    let r = run_at(e, line, at).await;
    assert_eq!(r.len(), 1, "{line}: {r:#?}");
    assert!(!r[0].ok, "{line} was accepted: {r:#?}");
    assert!(!r[0].content.contains('\n'), "{}", r[0].content);
    r[0].content.clone()
}

/// Delivers whatever waits (as an adapter would), opening the thread game #1 asks for.
async fn deliver(e: &Env) {
    for x in e.table.outbox_due(usize::MAX).await {
        if x.thread().is_some() {
            e.table.thread_opened(x.id, &thread()).await.unwrap();
        } else {
            e.table.outbox_delivered(x.id, Vec::new()).await.unwrap();
        }
    }
}

/// Game #1 between alice and bob, created in #table on the server, moved into its thread.
async fn game_in_its_thread(e: &Env) {
    ok_at(
        e,
        &format!("@alice /new game:{GAME} {CREATOR_OPTIONS} opponent:@bob"),
        &in_server("table"),
    )
    .await;
    ok_at(
        e,
        &format!("@bob /accept {ACCEPT_OPTIONS}"),
        &in_server("table"),
    )
    .await;
    deliver(e).await;
    deliver(e).await;
}

#[tokio::test]
async fn the_channel_a_game_came_from_still_plays_it_in_its_thread() {
    let e = env("routing-home").await;
    game_in_its_thread(&e).await;
    let (mover, other) = match e.to_act(1, &["alice", "bob"]).await.unwrap() {
        "alice" => ("alice", "bob"),
        _ => ("bob", "alice"),
    };
    let action = e.actions(mover, 1).await[0].clone();
    let r = ok_at(
        &e,
        &format!("@{mover} /play action:\"{action}\""),
        &in_server("table"),
    )
    .await;
    let public: Vec<&Reply> = r.iter().filter(|r| r.ephemeral_to.is_none()).collect();
    assert!(!public.is_empty(), "{r:#?}");
    assert!(
        public.iter().all(|r| r.channel.id == THREAD),
        "announced in the thread: {r:#?}"
    );
    assert!(public[0].mentions.iter().any(|m| m.name == other), "{r:#?}");
    let told: Vec<&Reply> = r.iter().filter(|r| r.ephemeral_to.is_some()).collect();
    assert_eq!(told.len(), 1, "{r:#?}");
    assert_eq!(told[0].channel.id, in_server("table").id);
    assert_eq!(told[0].content, format!("Played in <#{THREAD}> (game #1)."));
    // Private and read-only commands answer where they are typed.
    let m = ok_at(&e, &format!("@{other} /moves"), &in_server("table")).await;
    assert!(m[0].ephemeral_to.is_some() && m[0].content.starts_with("Game #1"));
    let b = ok_at(&e, "@carol /board", &in_server("table")).await;
    assert_eq!(b[0].channel.id, in_server("table").id);
    assert!(b[0].content.contains("#1"), "{}", b[0].content);
    // In the thread, as before, the answer stays there and nobody is told where it went.
    let action = e.actions(other, 1).await[0].clone();
    let r = ok_at(
        &e,
        &format!("@{other} /play action:\"{action}\""),
        &thread(),
    )
    .await;
    assert!(r.iter().all(|r| r.channel.id == THREAD), "{r:#?}");
    assert!(r.iter().all(|r| r.ephemeral_to.is_none()), "{r:#?}");
}

#[tokio::test]
async fn with_game_n_any_channel_of_the_server_reaches_it_and_no_other_place() {
    let e = env("routing-server").await;
    game_in_its_thread(&e).await;
    let mover = e.to_act(1, &["alice", "bob"]).await.unwrap();
    let action = e.actions(mover, 1).await[0].clone();
    let before = e.table.stored_record(1).await.unwrap();
    let elsewhere = ChannelRef {
        guild: Some(OTHER_SERVER),
        ..channel("lounge")
    };
    let msg = refused_at(
        &e,
        &format!("@{mover} /play game:1 action:\"{action}\""),
        &elsewhere,
    )
    .await;
    assert_eq!(
        msg,
        format!("Game #1 is played in its thread <#{THREAD}>; act there.")
    );
    let dm = channel("dm");
    let msg = refused_at(
        &e,
        &format!("@{mover} /play game:1 action:\"{action}\""),
        &dm,
    )
    .await;
    assert_eq!(
        msg,
        format!("Game #1 is played in its thread <#{THREAD}>; act there.")
    );
    assert_eq!(
        e.table.stored_record(1).await.unwrap(),
        before,
        "nothing changed"
    );
    let r = ok_at(
        &e,
        &format!("@{mover} /play game:1 action:\"{action}\""),
        &in_server("lounge"),
    )
    .await;
    assert!(
        r.iter().any(|r| r.ephemeral_to.is_none()
            && r.channel.id == THREAD
            && r.content.contains("plays")),
        "{r:#?}"
    );
}

#[tokio::test]
async fn without_game_the_players_only_game_on_the_server_is_meant() {
    let e = env("routing-pick").await;
    game_in_its_thread(&e).await;
    // One game: found from any channel of the server.
    let m = ok_at(&e, "@alice /moves", &in_server("lounge")).await;
    assert!(m[0].content.starts_with("Game #1"), "{}", m[0].content);
    // Not from a direct message, nor for someone who plays nothing.
    let msg = refused_at(&e, "@alice /moves", &channel("dm")).await;
    assert!(msg.contains("not playing a game in this channel"), "{msg}");
    let msg = refused_at(&e, "@carol /moves", &in_server("lounge")).await;
    assert!(msg.contains("not playing a game in this channel"), "{msg}");
    // A second game of alice's on the server, played in #arena: the choice is named.
    ok_at(
        &e,
        &format!("@carol /new game:{GAME} {CREATOR_OPTIONS} opponent:@alice"),
        &in_server("arena"),
    )
    .await;
    ok_at(
        &e,
        &format!("@alice /accept {ACCEPT_OPTIONS}"),
        &in_server("arena"),
    )
    .await;
    let msg = refused_at(&e, "@alice /moves", &in_server("lounge")).await;
    assert_eq!(
        msg,
        "You play several games on this server (#1, #2): add game:<number>."
    );
    // In a game's own channel, that game is meant.
    let m = ok_at(&e, "@alice /moves", &in_server("arena")).await;
    assert!(m[0].content.starts_with("Game #2"), "{m:#?}");
}

#[tokio::test]
async fn a_lobby_is_answered_in_its_channel_only() {
    let e = env("routing-lobby").await;
    ok_at(
        &e,
        &format!("@alice /new game:{GAME} {CREATOR_OPTIONS} opponent:@bob"),
        &in_server("table"),
    )
    .await;
    let msg = refused_at(
        &e,
        &format!("@bob /accept game:1 {ACCEPT_OPTIONS}"),
        &in_server("lounge"),
    )
    .await;
    assert_eq!(msg, "Game #1 is played in #table; act there.");
    ok_at(
        &e,
        &format!("@bob /accept game:1 {ACCEPT_OPTIONS}"),
        &in_server("table"),
    )
    .await;
}

/// A game whose thread is gone keeps its `/resume` rule (T12), from every channel that
/// otherwise reaches it.
#[tokio::test]
async fn a_game_that_lost_its_channel_is_resumed_first() {
    let e = env("routing-lost").await;
    game_in_its_thread(&e).await;
    e.table.channel_deleted(THREAD).await;
    let mover = e.to_act(1, &["alice", "bob"]).await.unwrap_or("alice");
    for at in [in_server("table"), in_server("lounge")] {
        let msg = refused_at(&e, &format!("@{mover} /resign game:1 confirm:yes"), &at).await;
        assert!(msg.contains("/resume game:1"), "{msg}");
    }
    ok_at(&e, "@alice /resume game:1", &in_server("lounge")).await;
}
