//! Tests of the fake's rules through serenity's own HTTP client (as the bot builds it), raw
//! HTTP where headers matter, and a captured gateway session or a real serenity client.

use std::time::Duration;

use serde_json::{json, Value};
use serenity::all::{
    ApplicationId, ChannelId, CreateAttachment, CreateMessage, GuildId, Http, HttpBuilder,
    InteractionId, Nonce, UserId,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc;

use super::faults::{Fault, Faults, RouteFilter};
use super::permissions as perm;
use super::state::{Outgoing, Session};
use super::*;

pub(super) const TOKEN: &str = "MTAwMDAwMDAwMDAwMDAwMDAx.fake.tokar-unit";

pub(super) fn http(fake: &FakeDiscord) -> Http {
    HttpBuilder::new(TOKEN)
        .proxy(fake.api_base())
        .ratelimiter_disabled(true)
        .application_id(ApplicationId::new(APPLICATION_ID))
        .build()
}

/// The Discord status and JSON error code of a failed request.
pub(super) fn code_of(e: &serenity::Error) -> (u16, isize) {
    match e {
        serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)) => {
            (r.status_code.as_u16(), r.error.code)
        }
        other => panic!("not an HTTP error: {other:?}"),
    }
}

/// A gateway session whose frames land in a channel the test reads.
pub(super) fn capture_gateway(fake: &FakeDiscord) -> mpsc::UnboundedReceiver<Outgoing> {
    let (tx, rx) = mpsc::unbounded_channel();
    fake.shared.lock().sessions = vec![Session {
        id: "captured".into(),
        shard: [0, 1],
        tx: Some(tx),
        seq: 1,
        log: Vec::new(),
    }];
    rx
}

/// The next dispatched event: (name, data).
pub(super) fn next_event(rx: &mut mpsc::UnboundedReceiver<Outgoing>) -> (String, Value) {
    match rx.try_recv() {
        Ok(Outgoing::Frame(f)) => {
            let v: Value = serde_json::from_str(&f).unwrap();
            (v["t"].as_str().unwrap_or("").to_owned(), v["d"].clone())
        }
        other => panic!("no event: {other:?}"),
    }
}

/// One request by hand, for what serenity hides (headers, the CDN): (status, headers, body).
pub(super) async fn raw(
    fake: &FakeDiscord,
    method: &str,
    path: &str,
    body: &str,
) -> (u16, String, String) {
    let addr = fake.api_base().trim_start_matches("http://").to_owned();
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bot {TOKEN}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, head.to_ascii_lowercase(), body.to_owned())
}

pub(super) async fn setup() -> (FakeDiscord, Http, FakeUser, u64) {
    let fake = FakeDiscord::start().await.unwrap();
    let http = http(&fake);
    let bob = fake.add_user(22, "bob");
    let ch = fake.add_channel("general");
    (fake, http, bob, ch)
}

fn nonce_message(text: &str, nonce: &str) -> CreateMessage {
    CreateMessage::new()
        .content(text)
        .nonce(Nonce::String(nonce.into()))
        .enforce_nonce(true)
}

#[tokio::test]
async fn enforce_nonce_returns_the_earlier_message() {
    let (fake, http, _, ch) = setup().await;
    let ch = ChannelId::new(ch);
    let a = ch
        .send_message(&http, nonce_message("hi", "n-1"))
        .await
        .unwrap();
    let b = ch
        .send_message(&http, nonce_message("hi", "n-1"))
        .await
        .unwrap();
    assert_eq!(a.id, b.id);
    assert_eq!(fake.messages().len(), 1);
    assert_eq!(fake.nonce_dedupes(), 1);
    // Without enforce_nonce, or past the window, the same nonce makes a new message.
    let plain = CreateMessage::new().content("hi").nonce(Nonce::Number(7));
    ch.send_message(&http, plain.clone()).await.unwrap();
    ch.send_message(&http, plain).await.unwrap();
    fake.age_messages(NONCE_WINDOW + Duration::from_secs(1));
    let c = ch
        .send_message(&http, nonce_message("hi", "n-1"))
        .await
        .unwrap();
    assert_ne!(c.id, a.id);
    assert_eq!(fake.messages().len(), 4);
    // At most 25 characters.
    let long = ch
        .send_message(&http, nonce_message("hi", &"x".repeat(26)))
        .await;
    assert_eq!(code_of(&long.unwrap_err()), (400, 50035));
}

#[tokio::test]
async fn a_lost_response_retried_with_the_nonce_makes_one_message() {
    let (fake, http, _, ch) = setup().await;
    let ch = ChannelId::new(ch);
    fake.set_faults(Faults::always(
        Fault::LostResponse,
        RouteFilter::ChannelMessages,
    ));
    let lost = ch
        .send_message(&http, nonce_message("move", "turn-12"))
        .await;
    assert_eq!(code_of(&lost.unwrap_err()).0, 500);
    assert_eq!(
        fake.messages().len(),
        1,
        "performed although the answer was lost"
    );
    fake.clear_faults();
    let again = ch
        .send_message(&http, nonce_message("move", "turn-12"))
        .await
        .unwrap();
    assert_eq!(again.id.get(), fake.messages()[0].id);
    assert_eq!(fake.messages().len(), 1);
    assert_eq!(fake.nonce_dedupes(), 1);
    assert_eq!(fake.fault_counts().lost_responses, 1);
    assert!(fake.violations().is_empty());
}

#[tokio::test]
async fn server_errors_and_rate_limits_look_like_discords() {
    let (fake, http, _, ch) = setup().await;
    let path = format!("/api/v10/channels/{ch}/messages");
    fake.set_faults(Faults::always(
        Fault::RateLimited { retry_after: 1.5 },
        RouteFilter::All,
    ));
    let (status, head, body) = raw(&fake, "POST", &path, r#"{"content":"x"}"#).await;
    assert_eq!(status, 429);
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["message"], "You are being rate limited.");
    assert_eq!(v["retry_after"], 1.5);
    assert_eq!(v["global"], false);
    for h in [
        "retry-after: 2",
        "x-ratelimit-limit:",
        "x-ratelimit-remaining: 0",
    ] {
        assert!(head.contains(h), "{h} in {head}");
    }
    assert!(head.contains("x-ratelimit-reset-after: 1.500") && head.contains("x-ratelimit-bucket"));
    // Registration is spared unless asked for.
    let cmds = json!([{"name": "help", "description": "Help"}]);
    http.create_guild_commands(GuildId::new(GUILD_ID), &cmds)
        .await
        .unwrap();
    fake.set_faults(Faults {
        share: 1.0,
        seed: 3,
        kinds: vec![Fault::ServerError],
        routes: RouteFilter::ChannelMessages,
    });
    let mut statuses = Vec::new();
    for _ in 0..6 {
        statuses.push(raw(&fake, "POST", &path, r#"{"content":"x"}"#).await.0);
    }
    assert!(
        statuses.iter().all(|s| [500, 502, 503].contains(s)),
        "{statuses:?}"
    );
    let e = ChannelId::new(ch).say(&http, "x").await.unwrap_err();
    assert!(code_of(&e).0 >= 500);
    assert!(fake.messages().is_empty());
    let counts = fake.fault_counts();
    assert_eq!((counts.rate_limited, counts.server_errors), (1, 7));
    // A share of requests, reproducibly.
    fake.set_faults(Faults {
        share: 0.5,
        seed: 9,
        kinds: vec![Fault::ServerError],
        routes: RouteFilter::All,
    });
    let mut first = Vec::new();
    for _ in 0..10 {
        first.push(
            raw(&fake, "GET", &format!("/api/v10/channels/{ch}"), "")
                .await
                .0,
        );
    }
    fake.set_faults(Faults {
        share: 0.5,
        seed: 9,
        kinds: vec![Fault::ServerError],
        routes: RouteFilter::All,
    });
    let mut second = Vec::new();
    for _ in 0..10 {
        second.push(
            raw(&fake, "GET", &format!("/api/v10/channels/{ch}"), "")
                .await
                .0,
        );
    }
    assert_eq!(first, second);
    assert!(
        first.contains(&200) && first.iter().any(|s| *s >= 500),
        "{first:?}"
    );
}

#[tokio::test]
async fn closed_dms_open_but_refuse_messages() {
    let (fake, http, bob, _) = setup().await;
    let dm = UserId::new(bob.id).create_dm_channel(&http).await.unwrap();
    dm.say(&http, "your turn").await.unwrap();
    assert_eq!(
        fake.notifications(&bob).len(),
        1,
        "a DM notifies its recipient"
    );
    fake.close_dms(&bob);
    let again = UserId::new(bob.id).create_dm_channel(&http).await.unwrap();
    assert_eq!(again.id, dm.id);
    let e = again.say(&http, "your turn").await.unwrap_err();
    assert_eq!(code_of(&e), (403, 50007));
    assert_eq!(fake.direct_messages(&bob).len(), 1);
    assert!(fake.violations().is_empty());
}

#[tokio::test]
async fn deleted_channels_and_a_removed_bot() {
    let (fake, http, _, ch) = setup().await;
    let other = fake.add_channel("other");
    let thread = fake.add_thread(ch, "side");
    let mut gw = capture_gateway(&fake);
    fake.delete_channel(ch);
    let (t1, _) = next_event(&mut gw);
    let (t2, d2) = next_event(&mut gw);
    assert_eq!(
        (t1.as_str(), t2.as_str()),
        ("THREAD_DELETE", "CHANNEL_DELETE")
    );
    assert_eq!(d2["id"], ch.to_string());
    payloads::check_channel(&d2).unwrap();
    for c in [ch, thread] {
        let e = ChannelId::new(c).say(&http, "x").await.unwrap_err();
        assert_eq!(code_of(&e), (404, 10003));
    }
    fake.remove_bot_from_guild();
    let (t, d) = next_event(&mut gw);
    assert_eq!(t, "GUILD_DELETE");
    assert!(d.get("unavailable").is_none());
    let e = ChannelId::new(other).say(&http, "x").await.unwrap_err();
    assert_eq!(code_of(&e), (403, 50001));
    assert!(fake.violations().is_empty());
}

#[tokio::test]
async fn permissions_are_checked() {
    let (fake, http, _, ch) = setup().await;
    let c = ChannelId::new(ch);
    fake.set_permissions(ch, perm::DEFAULT & !perm::SEND_MESSAGES);
    assert_eq!(code_of(&c.say(&http, "x").await.unwrap_err()), (403, 50013));
    fake.set_permissions(ch, perm::DEFAULT & !perm::VIEW_CHANNEL);
    assert_eq!(code_of(&c.say(&http, "x").await.unwrap_err()), (403, 50001));
    fake.set_permissions(ch, perm::DEFAULT & !perm::ATTACH_FILES);
    c.say(&http, "text is fine").await.unwrap();
    let file = CreateAttachment::bytes(b"png".to_vec(), "board.png");
    let e = c
        .send_message(&http, CreateMessage::new().content("x").add_file(file))
        .await
        .unwrap_err();
    assert_eq!(code_of(&e), (403, 50013));
    // Threads need SEND_MESSAGES_IN_THREADS, not SEND_MESSAGES, and inherit the parent's.
    let t = fake.add_thread(ch, "side");
    ChannelId::new(t).say(&http, "in a thread").await.unwrap();
    fake.set_permissions(ch, perm::DEFAULT & !perm::SEND_MESSAGES_IN_THREADS);
    let e = ChannelId::new(t).say(&http, "x").await.unwrap_err();
    assert_eq!(code_of(&e), (403, 50013));
    assert!(fake.violations().is_empty());
}

#[tokio::test]
async fn threads_are_created_unarchived_and_locked_as_discord_does() {
    let (fake, http, _, ch) = setup().await;
    let mut gw = capture_gateway(&fake);
    let create = |name: &str, kind: u8| json!({"name": name, "type": kind});
    let t = http
        .create_thread(ChannelId::new(ch), &create("game 1", 11), None)
        .await
        .unwrap();
    assert_eq!(t.parent_id, Some(ChannelId::new(ch)));
    assert_eq!(next_event(&mut gw).0, "THREAD_CREATE");
    let long = http
        .create_thread(ChannelId::new(ch), &create(&"n".repeat(101), 11), None)
        .await;
    assert_eq!(code_of(&long.unwrap_err()), (400, 50035));
    let voice = fake.add_voice_channel("voice");
    for c in [voice, t.id.get()] {
        let e = http
            .create_thread(ChannelId::new(c), &create("x", 11), None)
            .await
            .unwrap_err();
        assert_eq!(code_of(&e), (400, 50024));
    }
    fake.set_permissions(ch, perm::DEFAULT & !perm::CREATE_PUBLIC_THREADS);
    let e = http
        .create_thread(ChannelId::new(ch), &create("x", 11), None)
        .await
        .unwrap_err();
    assert_eq!(code_of(&e), (403, 50013));
    fake.set_permissions(ch, perm::DEFAULT);
    // From a message: the thread takes the message's id, once.
    let m = ChannelId::new(ch).say(&http, "game 2").await.unwrap();
    let from = json!({"name": "game 2"});
    let t2 = http
        .create_thread_from_message(ChannelId::new(ch), m.id, &from, None)
        .await
        .unwrap();
    assert_eq!(t2.id.get(), m.id.get());
    let again = http
        .create_thread_from_message(ChannelId::new(ch), m.id, &from, None)
        .await;
    assert_eq!(code_of(&again.unwrap_err()), (400, 160004));
    // Posting unarchives an archived thread, unless it is locked.
    fake.archive_thread(t.id.get());
    t.id.say(&http, "still here").await.unwrap();
    assert!(!fake.channel(t.id.get()).unwrap().archived);
    fake.lock_thread(t.id.get());
    fake.archive_thread(t.id.get());
    let e = t.id.say(&http, "x").await.unwrap_err();
    assert_eq!(code_of(&e), (400, 50083));
    fake.set_permissions(t.id.get(), perm::DEFAULT | perm::MANAGE_THREADS);
    t.id.say(&http, "a moderator may").await.unwrap();
    // A locked thread that is still active takes no messages either, nor a voice channel.
    let t3 = fake.add_thread(ch, "locked");
    fake.lock_thread(t3);
    let e = ChannelId::new(t3).say(&http, "x").await.unwrap_err();
    assert_eq!(code_of(&e), (403, 160005));
    let e = ChannelId::new(voice).say(&http, "x").await.unwrap_err();
    assert_eq!(code_of(&e), (400, 50008));
    // GET /channels/{id}.
    let got = http.get_channel(t.id).await.unwrap().guild().unwrap();
    assert_eq!(got.parent_id, Some(ChannelId::new(ch)));
    assert!(got.thread_metadata.is_some_and(|m| m.locked && !m.archived));
    assert_eq!(fake.violations().len(), 1, "{:?}", fake.violations()); // the long name
}

/// Registers `/new` (guild) and `/help` (global, with `contexts`), then runs `/new` with a
/// mention of bob in `ch`; returns the interaction.
async fn new_game(fake: &FakeDiscord, http: &Http, ch: u64) -> FakeInteraction {
    let opts = json!([{"name": "opponent", "description": "Who", "type": 6, "required": true},
        {"name": "note", "description": "Note", "type": 3, "max_length": 6000},
        {"name": "pgn", "description": "A game", "type": 11}]);
    let guild = json!([{"name": "new", "description": "New game", "options": opts}]);
    http.create_guild_commands(GuildId::new(GUILD_ID), &guild)
        .await
        .unwrap();
    let alice = fake.add_user(11, "alice");
    let id = fake
        .slash(&alice, ch, "new", &[("opponent", "<@22>")])
        .await
        .unwrap();
    fake.interaction(id).unwrap()
}

#[tokio::test]
async fn only_created_messages_notify() {
    let (fake, http, bob, ch) = setup().await;
    let _gw = capture_gateway(&fake);
    let allow = json!({"parse": [], "users": ["22"]});
    // An immediate response with a mention notifies.
    let i = new_game(&fake, &http, ch).await;
    let reply =
        json!({"type": 4, "data": {"content": "<@22>, a challenge", "allowed_mentions": allow}});
    http.create_interaction_response(InteractionId::new(i.id), &i.token, &reply, vec![])
        .await
        .unwrap();
    assert_eq!(fake.notifications(&bob).len(), 1);
    // A deferred response filled in by an edit notifies nobody, although it mentions bob.
    let alice = fake.add_user(11, "alice");
    let j = fake
        .slash(&alice, ch, "new", &[("opponent", "<@22>")])
        .await
        .unwrap();
    let j = fake.interaction(j).unwrap();
    http.create_interaction_response(
        InteractionId::new(j.id),
        &j.token,
        &json!({"type": 5}),
        vec![],
    )
    .await
    .unwrap();
    let edit = json!({"content": "<@22>, a challenge", "allowed_mentions": allow});
    http.edit_original_interaction_response(&j.token, &edit, vec![])
        .await
        .unwrap();
    let edited = fake.answer(j.id).await.unwrap();
    assert_eq!(edited.pinged_users, vec![22]);
    assert!(edited.notified.is_empty());
    assert_eq!(edited.edits, 1);
    // A follow-up is a new message: it notifies.
    let f = http
        .create_followup_message(&j.token, &edit, vec![])
        .await
        .unwrap();
    let ids: Vec<u64> = fake.notifications(&bob).iter().map(|m| m.id).collect();
    assert_eq!(ids.len(), 2);
    assert!(ids.contains(&f.id.get()));
    assert!(fake
        .messages()
        .iter()
        .all(|m| m.received_at <= std::time::Instant::now()));
    assert!(fake.violations().is_empty(), "{:?}", fake.violations());
}

#[tokio::test]
async fn tokens_expire_and_deleted_originals_stay_deleted() {
    let (fake, http, _, ch) = setup().await;
    let _gw = capture_gateway(&fake);
    let i = new_game(&fake, &http, ch).await;
    let reply = json!({"type": 4, "data": {"content": "ok"}});
    http.create_interaction_response(InteractionId::new(i.id), &i.token, &reply, vec![])
        .await
        .unwrap();
    let later = json!({"content": "later"});
    http.create_followup_message(&i.token, &later, vec![])
        .await
        .unwrap();
    http.delete_original_interaction_response(&i.token)
        .await
        .unwrap();
    let e = http
        .create_followup_message(&i.token, &later, vec![])
        .await
        .unwrap_err();
    assert_eq!(code_of(&e), (404, 10008));
    let e = http
        .get_original_interaction_response(&i.token)
        .await
        .unwrap_err();
    assert_eq!(code_of(&e), (404, 10008));
    let e = http
        .edit_original_interaction_response(&i.token, &later, vec![])
        .await
        .unwrap_err();
    assert_eq!(code_of(&e), (404, 10008));
    let e = http
        .delete_original_interaction_response(&i.token)
        .await
        .unwrap_err();
    assert_eq!(code_of(&e), (404, 10008));
    // Fifteen minutes on, the token is dead.
    let j = fake
        .slash(
            &fake.add_user(11, "alice"),
            ch,
            "new",
            &[("opponent", "<@22>")],
        )
        .await
        .unwrap();
    let j = fake.interaction(j).unwrap();
    http.create_interaction_response(InteractionId::new(j.id), &j.token, &reply, vec![])
        .await
        .unwrap();
    fake.age_interactions(Duration::from_secs(14 * 60));
    http.create_followup_message(&j.token, &later, vec![])
        .await
        .unwrap();
    fake.age_interactions(Duration::from_secs(61));
    let e = http
        .create_followup_message(&j.token, &later, vec![])
        .await
        .unwrap_err();
    assert_eq!(code_of(&e), (401, 50027));
    let e = http
        .edit_original_interaction_response(&j.token, &later, vec![])
        .await
        .unwrap_err();
    assert_eq!(code_of(&e), (401, 50027));
    assert_eq!(fake.latencies(Kind::Command).len(), 2);
    assert!(fake
        .latencies(Kind::Command)
        .iter()
        .all(|d| *d < Duration::from_secs(3)));
}

#[tokio::test]
async fn a_repeated_callback_after_a_lost_answer_is_not_a_violation() {
    let (fake, http, _, ch) = setup().await;
    let _gw = capture_gateway(&fake);
    let i = new_game(&fake, &http, ch).await;
    fake.set_faults(Faults::always(
        Fault::LostResponse,
        RouteFilter::InteractionCallbacks,
    ));
    let reply = json!({"type": 4, "data": {"content": "ok"}});
    let id = InteractionId::new(i.id);
    assert!(http
        .create_interaction_response(id, &i.token, &reply, vec![])
        .await
        .is_err());
    fake.clear_faults();
    let e = http
        .create_interaction_response(id, &i.token, &reply, vec![])
        .await
        .unwrap_err();
    assert_eq!(code_of(&e), (400, 40060));
    assert_eq!(fake.messages_of(i.id).len(), 1);
    assert!(fake.violations().is_empty(), "{:?}", fake.violations());
}

#[tokio::test]
async fn interactions_carry_their_source_and_contexts_are_honoured() {
    let (fake, http, _, ch) = setup().await;
    let mut gw = capture_gateway(&fake);
    let alice = fake.add_user(11, "alice");
    let i = new_game(&fake, &http, ch).await;
    let (_, d) = next_event(&mut gw);
    assert_eq!(d["id"], i.id.to_string());
    assert_eq!(
        (d["guild_id"].as_str(), d["context"].as_u64()),
        (Some("900000000000000002"), Some(0))
    );
    assert_eq!(d["app_permissions"], perm::DEFAULT.to_string());
    assert!(d["member"].is_object() && d.get("user").is_none());
    // From a thread: the channel names its parent; permissions as the bot holds them there.
    let t = fake.add_thread(ch, "side");
    fake.set_permissions(t, perm::VIEW_CHANNEL | perm::SEND_MESSAGES_IN_THREADS);
    fake.slash_in(&alice, t, "new", &[("opponent", "<@22>")])
        .await
        .unwrap();
    let (_, d) = next_event(&mut gw);
    assert_eq!(d["channel"]["parent_id"], ch.to_string());
    assert_eq!(d["channel"]["type"], 11);
    assert!(d["channel"]["thread_metadata"].is_object());
    assert_eq!(
        d["app_permissions"],
        (perm::VIEW_CHANNEL | perm::SEND_MESSAGES_IN_THREADS).to_string()
    );
    fake.archive_thread(t);
    let (event, d) = next_event(&mut gw);
    assert_eq!(
        (event.as_str(), &d["thread_metadata"]["archived"]),
        ("THREAD_UPDATE", &json!(true))
    );
    assert!(fake
        .slash_in(&alice, t, "new", &[("opponent", "<@22>")])
        .await
        .is_err());
    // DMs: guild commands never; global ones by contexts and dm_permission.
    assert!(fake
        .slash_in_dm(&alice, "new", &[("opponent", "<@22>")])
        .await
        .unwrap_err()
        .contains("not offered in DMs"));
    let global = json!([
        {"name": "help", "description": "Help"},
        {"name": "rules", "description": "Rules", "contexts": [0]},
        {"name": "board", "description": "Board", "dm_permission": false},
        {"name": "games", "description": "Games", "contexts": [0, 1]},
    ]);
    http.create_global_commands(&global).await.unwrap();
    for name in ["rules", "board"] {
        assert!(fake.slash_in_dm(&alice, name, &[]).await.is_err(), "{name}");
    }
    for name in ["help", "games"] {
        fake.slash_in_dm(&alice, name, &[]).await.unwrap();
        let (_, d) = next_event(&mut gw);
        assert!(d.get("guild_id").is_none() && d.get("member").is_none());
        assert_eq!(d["context"], 1);
        assert_eq!(d["user"]["id"], "11");
        assert_eq!(d["channel"]["type"], 1);
        assert_eq!(d["app_permissions"], perm::BOT_DM.to_string());
    }
}

#[tokio::test]
async fn option_limits_and_attachments() {
    let (fake, http, _, ch) = setup().await;
    let mut gw = capture_gateway(&fake);
    let alice = fake.add_user(11, "alice");
    new_game(&fake, &http, ch).await;
    next_event(&mut gw);
    let long = "x".repeat(MAX_STRING_OPTION + 1);
    let opts = [("opponent", "<@22>"), ("note", long.as_str())];
    assert!(fake.slash(&alice, ch, "new", &opts).await.is_err());
    let ok = "x".repeat(MAX_STRING_OPTION);
    fake.slash(&alice, ch, "new", &[("opponent", "<@22>"), ("note", &ok)])
        .await
        .unwrap();
    next_event(&mut gw);
    // A file for the attachment option, served by the fake as Discord's CDN would.
    let pgn = FakeFile {
        name: "game.pgn".into(),
        content_type: Some("application/vnd.chess-pgn".into()),
        bytes: b"1. e4 e5".to_vec(),
    };
    fake.slash_with_files(&alice, ch, "new", &[("opponent", "<@22>")], &[("pgn", pgn)])
        .await
        .unwrap();
    let (_, d) = next_event(&mut gw);
    let option = d["data"]["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "pgn")
        .unwrap()
        .clone();
    assert_eq!(option["type"], 11);
    let file = &d["data"]["resolved"]["attachments"][option["value"].as_str().unwrap()];
    let url = file["url"].as_str().unwrap();
    assert!(url.starts_with(&fake.api_base()), "{url}");
    let (status, _, body) = raw(&fake, "GET", url.trim_start_matches(&fake.api_base()), "").await;
    assert_eq!((status, body.as_str()), (200, "1. e4 e5"));
    // Registration refuses more than 8000 characters in all.
    let options: Vec<Value> = (0..25)
        .map(|n| json!({"name": format!("o{n}"), "description": "d".repeat(100), "type": 3,
            "choices": (0..25).map(|k| json!({"name": format!("c{k}"), "value": "v".repeat(10)})).collect::<Vec<_>>()}))
        .collect();
    let big = json!([{"name": "big", "description": "Big", "options": options}]);
    let e = http
        .create_guild_commands(GuildId::new(GUILD_ID), &big)
        .await
        .unwrap_err();
    assert_eq!(code_of(&e), (400, 50035));
}

/// A real serenity client: the fake drops its connection, serenity resumes, and the event
/// dispatched meanwhile arrives; a close that ends the session makes it identify again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_gateway_connection_is_resumed_with_the_missed_events() {
    use serenity::all::{ClientBuilder, Context, EventHandler, GatewayIntents, Interaction};
    struct Seen(mpsc::UnboundedSender<u64>);
    #[serenity::async_trait]
    impl EventHandler for Seen {
        async fn interaction_create(&self, _: Context, i: Interaction) {
            let _ = self.0.send(i.id().get());
        }
    }
    let (fake, http, _, ch) = setup().await;
    let (tx, mut seen) = mpsc::unbounded_channel();
    // As the bot does: the client's HTTP points at the fake, which gives the gateway URL.
    let mut client =
        ClientBuilder::new_with_http(super::tests::http(&fake), GatewayIntents::GUILDS)
            .event_handler(Seen(tx))
            .await
            .unwrap();
    let task = tokio::spawn(async move { client.start().await });
    fake.wait_ready(0).await.unwrap();
    let i = new_game(&fake, &http, ch).await;
    let got = tokio::time::timeout(WAIT, seen.recv()).await.unwrap();
    assert_eq!(got, Some(i.id));
    assert!(fake.drop_gateway());
    // Dispatched while the connection is down: replayed on RESUME.
    let alice = fake.add_user(11, "alice");
    let j = fake
        .slash(&alice, ch, "new", &[("opponent", "<@22>")])
        .await
        .unwrap();
    fake.wait_resumed(1).await.unwrap();
    let got = tokio::time::timeout(WAIT, seen.recv()).await.unwrap();
    assert_eq!(got, Some(j));
    assert_eq!(fake.identifies(), 1);
    // "Session timed out": the client identifies again, which the fake accepts.
    assert!(fake.drop_gateway_with(CLOSE_SESSION_TIMED_OUT));
    fake.shared
        .wait_for(WAIT, "a second identify", |st| {
            (st.identifies == 2 && st.connected()).then_some(())
        })
        .await
        .unwrap();
    let k = fake
        .slash(&alice, ch, "new", &[("opponent", "<@22>")])
        .await
        .unwrap();
    let got = tokio::time::timeout(WAIT, seen.recv()).await.unwrap();
    assert_eq!(got, Some(k));
    task.abort();
}
