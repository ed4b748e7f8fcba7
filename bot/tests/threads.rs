//! A thread per game (rulings T19-T22): the game moves into its own thread
//! once the adapter opened it, the channel gets a line when the game starts
//! and one when it ends, commands in the thread need no `game:`, a server may
//! switch threads off, a refused thread leaves the game in its channel, and a
//! restart between the request and the thread loses nothing.

mod common;
use common::*;
use tokar_bot::outbox::{OutboxEntry, Target};
use tokar_bot::table::ThreadRefusal;
use tokar_bot::{ChannelRef, Reply};

/// The server the tests' channels belong to.
const SERVER: u64 = 4_242;
/// The id Discord gives the game's thread in these tests.
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

/// Runs a console line in `at`, as someone who may (or may not) manage the server.
async fn run_at(e: &Env, line: &str, at: &ChannelRef, manage: bool) -> Vec<Reply> {
    for word in line.split_whitespace() {
        if let Some(name) = word.split(':').nth(1).and_then(|v| v.strip_prefix('@')) {
            e.table.remember_user(&user(name)).await.unwrap();
        }
    }
    let mut req = request(line);
    req.channel = at.clone();
    req.manage_server = manage;
    e.table.handle(req).await
}

async fn ok_at(e: &Env, line: &str, at: &ChannelRef) -> Vec<Reply> {
    let r = run_at(e, line, at, false).await;
    assert!(r.iter().all(|r| r.ok), "{line} refused: {r:#?}");
    r
}

/// alice invites bob in #table on the server and bob accepts.
async fn start(e: &Env) -> Vec<Reply> {
    ok_at(
        e,
        &format!("@alice /new game:{GAME} {CREATOR_OPTIONS} opponent:@bob"),
        &in_server("table"),
    )
    .await;
    // The invitation was delivered.
    deliver(e).await;
    ok_at(
        e,
        &format!("@bob /accept {ACCEPT_OPTIONS}"),
        &in_server("table"),
    )
    .await
}

/// Everything waiting for delivery, as the adapter would take it now.
async fn due(e: &Env) -> Vec<OutboxEntry> {
    e.table.outbox_due(usize::MAX).await
}

/// Delivers every due message (printing is delivering, as on the console); returns them.
async fn deliver(e: &Env) -> Vec<OutboxEntry> {
    let entries = due(e).await;
    for x in &entries {
        assert!(x.thread().is_none(), "a thread request is not a message");
        e.table.outbox_delivered(x.id, Vec::new()).await.unwrap();
    }
    entries
}

fn channel_of(x: &OutboxEntry) -> u64 {
    match &x.target {
        Target::Channel(c) => c.id,
        Target::Direct { channel, .. } => channel.id,
        Target::Thread { parent, .. } => parent.id,
    }
}

/// Opens the thread the only waiting request asks for.
async fn open_thread(e: &Env) {
    let d = due(e).await;
    assert_eq!(
        d.len(),
        1,
        "the thread's request comes first, alone: {d:#?}"
    );
    let (parent, guild, name) = d[0].thread().expect("a thread request");
    assert_eq!(parent.id, in_server("table").id);
    assert_eq!(guild, Some(SERVER));
    assert_eq!(name, "#1 Arcana · alice vs bob");
    e.table.thread_opened(d[0].id, &thread()).await.unwrap();
}

// Rulings T19, T20.
#[tokio::test]
async fn a_games_messages_go_to_its_thread_and_the_channel_gets_two_lines() {
    let e = env("threads-route").await;
    let r = start(&e).await;
    // Nothing public goes to the channel before the thread exists: bob is answered privately.
    assert!(r.iter().all(|r| r.ephemeral_to.is_some()), "{r:#?}");
    assert!(r[0].content.contains("own thread"), "{}", r[0].content);
    open_thread(&e).await;
    let sent = deliver(&e).await;
    let in_thread: Vec<&OutboxEntry> = sent.iter().filter(|x| channel_of(x) == THREAD).collect();
    assert!(
        in_thread.iter().any(|x| x.content.contains("begins")),
        "the line-up goes to the thread: {sent:#?}"
    );
    assert!(
        in_thread.iter().any(|x| !x.images.is_empty()),
        "and the first picture: {sent:#?}"
    );
    let lines: Vec<&OutboxEntry> = sent
        .iter()
        .filter(|x| channel_of(x) == in_server("table").id)
        .collect();
    assert_eq!(lines.len(), 1, "one line in the channel: {sent:#?}");
    assert_eq!(
        lines[0].content,
        format!("Game #1 (Arcana · alice vs bob) is played in its thread <#{THREAD}>.")
    );

    // Commands typed in the thread need no game:, and their messages stay there.
    let mover = e.to_act(1, &["alice", "bob"]).await.unwrap();
    let action = e.actions(mover, 1).await[0].clone();
    let r = ok_at(&e, &format!("@{mover} /play action:{action}"), &thread()).await;
    assert!(r.iter().all(|r| r.channel.id == THREAD), "{r:#?}");
    let board = ok_at(&e, "@carol /board", &thread()).await;
    assert!(board[0].content.contains("#1"), "{}", board[0].content);
    // The channel it came from still reaches the game (ruling T38: Discord refuses
    // commands in an archived thread), and the result goes to the thread.
    let other = if mover == "alice" { "bob" } else { "alice" };
    let r = ok_at(
        &e,
        &format!("@{other} /resign game:1 confirm:yes"),
        &in_server("table"),
    )
    .await;
    assert!(
        r.iter()
            .any(|r| r.channel.id == THREAD && r.content.contains("resigns")),
        "{r:#?}"
    );

    // The result goes to the thread, and the channel gets its second line.
    let sent = deliver(&e).await;
    let lines: Vec<&OutboxEntry> = sent
        .iter()
        .filter(|x| channel_of(x) == in_server("table").id)
        .collect();
    assert_eq!(lines.len(), 1, "{sent:#?}");
    assert!(
        lines[0]
            .content
            .starts_with("Game #1 (Arcana · alice vs bob) is over: ")
            && lines[0].content.ends_with(&format!("<#{THREAD}>")),
        "{}",
        lines[0].content
    );
}

// Ruling T21.
#[tokio::test]
async fn a_server_switches_threads_off_and_only_a_manager_may() {
    let e = env("threads-off").await;
    let r = run_at(&e, "@alice /server threads:off", &in_server("table"), false).await;
    assert!(!r[0].ok);
    assert_eq!(
        r[0].content,
        "Only someone with the Manage Server permission may change this server's settings."
    );
    let r = run_at(&e, "@alice /server", &in_server("table"), false).await;
    assert!(r[0].ok && r[0].content.contains("are on"), "{r:#?}");
    let r = run_at(&e, "@owner /server threads:off", &in_server("table"), true).await;
    assert!(r[0].ok && r[0].content.contains("are off"), "{r:#?}");

    let r = start(&e).await;
    assert!(
        r.iter()
            .any(|r| r.content.contains("begins") && r.channel.id == in_server("table").id),
        "the game starts in its channel: {r:#?}"
    );
    assert!(
        due(&e).await.iter().all(|x| x.thread().is_none()),
        "no thread is asked for"
    );
}

// Ruling T20.
#[tokio::test]
async fn a_refused_thread_leaves_the_game_in_its_channel() {
    let e = env("threads-refused").await;
    start(&e).await;
    let d = due(&e).await;
    e.table
        .thread_refused(d[0].id, ThreadRefusal::Permission)
        .await
        .unwrap();
    let sent = deliver(&e).await;
    let table = in_server("table").id;
    assert!(sent.iter().all(|x| channel_of(x) == table), "{sent:#?}");
    let notes: Vec<&OutboxEntry> = sent
        .iter()
        .filter(|x| x.content.contains("played here"))
        .collect();
    assert_eq!(notes.len(), 1, "said once: {sent:#?}");
    assert_eq!(
        notes[0].content,
        "Game #1 is played here in the channel: Tokar may not open threads in this channel."
    );
    assert!(sent.iter().any(|x| x.content.contains("begins")));
    // Reported twice (a retry after a lost answer): nothing more.
    e.table
        .thread_refused(d[0].id, ThreadRefusal::Permission)
        .await
        .unwrap();
    assert!(due(&e).await.is_empty());
    let mover = e.to_act(1, &["alice", "bob"]).await.unwrap();
    let action = e.actions(mover, 1).await[0].clone();
    ok_at(
        &e,
        &format!("@{mover} /play action:{action}"),
        &in_server("table"),
    )
    .await;
}

// Ruling T22.
#[tokio::test]
async fn a_restart_between_request_and_thread_loses_nothing_and_opens_one_thread() {
    let dir = fresh_dir("threads-restart");
    let e = open(&dir, Some(7)).await;
    start(&e).await;
    drop(e);
    // The process stopped before the thread was asked for: the request is still there.
    let e = open(&dir, Some(7)).await;
    let d = due(&e).await;
    assert_eq!(d.len(), 1, "{d:#?}");
    let request = d[0].id;
    e.table.thread_opened(request, &thread()).await.unwrap();
    drop(e);
    // The adapter reports the same thread again (it found it among the server's threads).
    let e = open(&dir, Some(7)).await;
    e.table.thread_opened(request, &thread()).await.unwrap();
    let sent = deliver(&e).await;
    let links = sent
        .iter()
        .filter(|x| x.content.contains("is played in its thread"))
        .count();
    assert_eq!(links, 1, "one thread, one link: {sent:#?}");
    assert!(
        sent.iter()
            .any(|x| x.content.contains("begins") && channel_of(x) == THREAD),
        "the line-up reached the thread: {sent:#?}"
    );
    assert_eq!(e.table.outbox_len().await, 0);
}

// Ruling T21: the stored server setting of version 1 keeps loading.
#[tokio::test]
async fn a_stored_server_setting_of_version_1_loads() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/server-1.json");
    let bytes = std::fs::read(path).unwrap();
    let rec = tokar_bot::storage::decode_server(&bytes).unwrap();
    assert!(!rec.threads);
    assert_eq!(
        tokar_bot::storage::encode_server(&rec),
        bytes,
        "written the same"
    );
    assert!(tokar_bot::storage::decode_server(br#"{"v":"9","threads":true}"#).is_err());
    // A server whose setting is stored so starts its games in their channels.
    let dir = fresh_dir("threads-fixture");
    {
        let store = open_store(&dir);
        store.put_server(SERVER, &rec).unwrap();
    }
    let e = open(&dir, Some(7)).await;
    start(&e).await;
    assert!(due(&e).await.iter().all(|x| x.thread().is_none()));
}

// Ruling T19: a thread's name keeps within Discord's 100 characters.
#[tokio::test]
async fn a_long_thread_name_is_cut_at_discords_limit() {
    let e = env("threads-long-name").await;
    let a = "a".repeat(60);
    let b = "b".repeat(60);
    ok_at(
        &e,
        &format!("@{a} /new game:{GAME} {CREATOR_OPTIONS} opponent:@{b}"),
        &in_server("table"),
    )
    .await;
    deliver(&e).await;
    ok_at(
        &e,
        &format!("@{b} /accept {ACCEPT_OPTIONS}"),
        &in_server("table"),
    )
    .await;
    let d = due(&e).await;
    let (_, _, name) = d[0].thread().expect("a thread request");
    assert_eq!(name.chars().count(), tokar_bot::table::THREAD_NAME_LIMIT);
    assert!(name.starts_with(&format!("#1 Arcana · {a} vs b")), "{name}");
    assert!(name.ends_with('…'), "{name}");
}

// Ruling T28: a server that rates games against Tokar stores it beside its thread setting,
// and the version-1 record without it reads as not rating them.
#[test]
fn a_server_setting_rating_bot_games_round_trips() {
    let old = tokar_bot::storage::decode_server(br#"{"v":"1","threads":false}"#).unwrap();
    assert!(!old.rate_bot_games);
    let rec = tokar_bot::storage::ServerRecord {
        threads: true,
        rate_bot_games: true,
    };
    let bytes = tokar_bot::storage::encode_server(&rec);
    assert_eq!(tokar_bot::storage::decode_server(&bytes).unwrap(), rec);
}
