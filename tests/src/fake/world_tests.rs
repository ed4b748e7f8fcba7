//! Tests of the fake's Discord as real servers are: channel kinds and where threads grow, the
//! fake clock and threads that archive on it, several sessions of a shard, the identify
//! budget and a refused token, reading channel history, the invalid-request limit, thread and
//! upload limits, and rate-limit buckets.

use std::time::Duration;

use serde_json::{json, Value};
use serenity::all::{ChannelId, CreateButton, CreateMessage, InteractionId, Nonce};

use serenity::all::{
    ClientBuilder, Context, CreateAttachment, EventHandler, GatewayIntents, Interaction,
};
use tokio::sync::mpsc;

use super::permissions as perm;
use super::shard_tests::Ws;
use super::tests::{capture_gateway, code_of, http, next_event, raw, setup, TOKEN};
use super::*;

async fn get_json(fake: &FakeDiscord, path: &str) -> (u16, Value) {
    let (status, _, body) = raw(fake, "GET", path, "").await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

async fn post_json(fake: &FakeDiscord, path: &str, body: &Value) -> (u16, Value) {
    let (status, _, text) = raw(fake, "POST", path, &body.to_string()).await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// Registers the global command `/ping`.
async fn register_ping(fake: &FakeDiscord) {
    let ping = json!([{"name": "ping", "description": "Ping"}]);
    http(fake).create_global_commands(&ping).await.unwrap();
}

#[tokio::test]
async fn channel_kinds_carry_their_type_and_parent() {
    let (fake, _http, bob, _) = setup().await;
    let cat = fake.add_category("games");
    let inside = fake.add_channel_in(cat, "arcana");
    let ann = fake.add_announcement_channel("news");
    let forum = fake.add_forum_channel("posts");
    let voice = fake.add_voice_channel("voice");
    let cat_s = cat.to_string();
    let cases = [
        (cat, 4, Value::Null),
        (inside, 0, json!(cat_s)),
        (ann, 5, Value::Null),
        (forum, 15, Value::Null),
        (voice, 2, Value::Null),
    ];
    for (id, kind, parent) in cases {
        let (status, v) = get_json(&fake, &format!("/api/v10/channels/{id}")).await;
        assert_eq!(status, 200);
        assert_eq!(
            (v["type"].as_u64(), &v["parent_id"]),
            (Some(kind), &parent),
            "{v}"
        );
        payloads::check_channel(&v).unwrap();
    }
    for (thread, kind) in [
        (fake.add_thread(ann, "a"), 10),
        (fake.add_thread(inside, "p"), 11),
        (fake.add_private_thread(inside, "q"), 12),
        (fake.add_thread(forum, "f"), 11),
    ] {
        let (_, v) = get_json(&fake, &format!("/api/v10/channels/{thread}")).await;
        assert_eq!(v["type"], kind, "{v}");
        assert!(v["thread_metadata"].is_object());
        payloads::check_channel(&v).unwrap();
    }
    // The interaction's partial channel in a channel of a category names the category.
    register_ping(&fake).await;
    let mut gw = capture_gateway(&fake);
    fake.slash(&bob, inside, "ping", &[]).await.unwrap();
    let (_, d) = next_event(&mut gw);
    assert_eq!(d["channel"]["type"], 0);
    assert_eq!(d["channel"]["parent_id"], cat.to_string());
    // No message box in a category or a forum.
    for c in [cat, forum] {
        assert!(fake.slash(&bob, c, "ping", &[]).await.is_err());
    }
    // The channel inside holds the category's permissions unless set itself.
    fake.set_permissions(cat, perm::DEFAULT & !perm::SEND_MESSAGES);
    let e = ChannelId::new(inside)
        .say(&http(&fake), "x")
        .await
        .unwrap_err();
    assert_eq!(code_of(&e), (403, 50013));
}

#[tokio::test]
async fn threads_grow_where_discord_lets_them() {
    let (fake, http, _, text) = setup().await;
    let ann = fake.add_announcement_channel("news");
    let forum = fake.add_forum_channel("posts");
    let voice = fake.add_voice_channel("voice");
    let cat = fake.add_category("games");
    let threads = |c: u64| format!("/api/v10/channels/{c}/threads");
    let ask = |name: &str, kind: Option<u64>| match kind {
        Some(k) => json!({"name": name, "type": k}),
        None => json!({"name": name}),
    };
    // A text channel: public or private; without `type`, private (the documented default).
    for (kind, made) in [(Some(11), 11), (Some(12), 12), (None, 12)] {
        let (status, v) = post_json(&fake, &threads(text), &ask("t", kind)).await;
        assert_eq!(
            (status, v["type"].as_u64()),
            (201, Some(made)),
            "{kind:?}: {v}"
        );
        assert_eq!(v["parent_id"], text.to_string());
    }
    let (status, v) = post_json(&fake, &threads(text), &ask("t", Some(10))).await;
    assert_eq!((status, v["code"].as_u64()), (400, Some(50024)));
    let (status, v) = post_json(&fake, &threads(text), &ask("t", Some(0))).await;
    assert_eq!((status, v["code"].as_u64()), (400, Some(50035)));
    // An announcement channel: type 10 only.
    let (status, v) = post_json(&fake, &threads(ann), &ask("a", Some(10))).await;
    assert_eq!((status, v["type"].as_u64()), (201, Some(10)), "{v}");
    for kind in [Some(11), Some(12), None] {
        let (status, v) = post_json(&fake, &threads(ann), &ask("a", kind)).await;
        assert_eq!((status, v["code"].as_u64()), (400, Some(50024)), "{kind:?}");
    }
    // From a message: a text channel's thread is public, an announcement channel's type 10.
    let m = ChannelId::new(ann).say(&http, "news").await.unwrap();
    let t = http
        .create_thread_from_message(ChannelId::new(ann), m.id, &json!({"name": "n"}), None)
        .await
        .unwrap();
    assert_eq!((t.id, u8::from(t.kind)), (ChannelId::new(m.id.get()), 10));
    // A forum: a first message is needed; the thread is public and the message carries its id.
    let (status, v) = post_json(&fake, &threads(forum), &ask("f", Some(11))).await;
    assert_eq!((status, v["code"].as_u64()), (400, Some(50035)));
    let post = json!({"name": "f", "message": {"content": "first"}});
    let (status, v) = post_json(&fake, &threads(forum), &post).await;
    assert_eq!((status, v["type"].as_u64()), (201, Some(11)), "{v}");
    assert_eq!(v["message"]["id"], v["id"]);
    assert_eq!(v["message"]["channel_id"], v["id"]);
    let e = ChannelId::new(forum).say(&http, "x").await.unwrap_err();
    assert_eq!(code_of(&e), (400, 40058));
    let m = ChannelId::new(text).say(&http, "x").await.unwrap();
    let e = http
        .create_thread_from_message(ChannelId::new(forum), m.id, &json!({"name": "n"}), None)
        .await
        .unwrap_err();
    assert_eq!(code_of(&e), (400, 50024));
    // A voice channel, a category or a thread takes none.
    let thread = fake.add_thread(text, "side");
    for c in [voice, cat, thread] {
        let (status, v) = post_json(&fake, &threads(c), &ask("x", Some(11))).await;
        assert_eq!((status, v["code"].as_u64()), (400, Some(50024)), "{c}");
    }
    // auto_archive_duration is one of 60, 1440, 4320, 10080.
    let bad = json!({"name": "t", "type": 11, "auto_archive_duration": 61});
    let (status, _) = post_json(&fake, &threads(text), &bad).await;
    assert_eq!(status, 400);
    // Private threads need CREATE_PRIVATE_THREADS.
    fake.set_permissions(text, perm::DEFAULT & !perm::CREATE_PRIVATE_THREADS);
    let (status, v) = post_json(&fake, &threads(text), &ask("t", Some(12))).await;
    assert_eq!((status, v["code"].as_u64()), (403, Some(50013)));
}

#[tokio::test]
async fn threads_archive_after_their_inactivity_on_the_fake_clock() {
    let (fake, http, bob, ch) = setup().await;
    register_ping(&fake).await;
    let mut gw = capture_gateway(&fake);
    let hour = json!({"name": "g", "type": 11, "auto_archive_duration": 60});
    let t = http
        .create_thread(ChannelId::new(ch), &hour, None)
        .await
        .unwrap();
    assert_eq!(next_event(&mut gw).0, "THREAD_CREATE");
    let minute = Duration::from_secs(60);
    fake.advance(59 * minute);
    assert_eq!(fake.thread_archived(t.id.get()), Some(false));
    // A message is activity: the hour starts again.
    let button = CreateMessage::new()
        .content("your move")
        .button(CreateButton::new("move").label("Move"));
    let m = t.id.send_message(&http, button).await.unwrap();
    fake.advance(59 * minute);
    assert_eq!(fake.thread_archived(t.id.get()), Some(false));
    fake.advance(2 * minute);
    assert_eq!(fake.thread_archived(t.id.get()), Some(true));
    let (event, d) = next_event(&mut gw);
    assert_eq!(
        (event.as_str(), &d["thread_metadata"]["archived"]),
        ("THREAD_UPDATE", &json!(true))
    );
    // No commands and no clicks in an archived thread: nothing is dispatched.
    let before = fake.shared.lock().interactions.len();
    let e = fake.slash(&bob, t.id.get(), "ping", &[]).await.unwrap_err();
    assert!(e.contains("archived"), "{e}");
    let e = fake.click(&bob, m.id.get(), "move").await.unwrap_err();
    assert!(e.contains("archived"), "{e}");
    assert_eq!(fake.shared.lock().interactions.len(), before);
    assert!(gw.try_recv().is_err(), "nothing dispatched");
    // The bot's message unarchives it (THREAD_UPDATE).
    t.id.say(&http, "still here").await.unwrap();
    assert_eq!(fake.thread_archived(t.id.get()), Some(false));
    let (event, d) = next_event(&mut gw);
    assert_eq!(
        (event.as_str(), &d["thread_metadata"]["archived"]),
        ("THREAD_UPDATE", &json!(false))
    );
    fake.click(&bob, m.id.get(), "move").await.unwrap();
    // Locked and archived by inactivity: refused with 50083, still archived.
    fake.lock_thread(t.id.get());
    fake.advance(61 * minute);
    assert_eq!(fake.thread_archived(t.id.get()), Some(true));
    let e = t.id.say(&http, "x").await.unwrap_err();
    assert_eq!(code_of(&e), (400, 50083));
    assert_eq!(fake.thread_archived(t.id.get()), Some(true));
    assert!(fake.violations().is_empty(), "{:?}", fake.violations());
}

#[tokio::test]
async fn tokens_the_first_response_and_nonces_follow_the_fake_clock() {
    let (fake, http, bob, ch) = setup().await;
    register_ping(&fake).await;
    let _gw = capture_gateway(&fake);
    // 3 s for the first response.
    let late = fake.slash(&bob, ch, "ping", &[]).await.unwrap();
    let late = fake.interaction(late).unwrap();
    fake.advance(Duration::from_secs(4));
    let reply = json!({"type": 4, "data": {"content": "pong"}});
    let e = http
        .create_interaction_response(InteractionId::new(late.id), &late.token, &reply, vec![])
        .await
        .unwrap_err();
    assert_eq!(code_of(&e), (404, 10062));
    // 15 minutes for the token.
    let i = fake.slash(&bob, ch, "ping", &[]).await.unwrap();
    let i = fake.interaction(i).unwrap();
    http.create_interaction_response(InteractionId::new(i.id), &i.token, &reply, vec![])
        .await
        .unwrap();
    fake.advance(Duration::from_secs(15 * 60 + 1));
    let e = http
        .create_followup_message(&i.token, &json!({"content": "later"}), vec![])
        .await
        .unwrap_err();
    assert_eq!(code_of(&e), (401, 50027));
    // A nonce window of one minute: past it the same nonce makes a new message.
    assert_eq!(fake.nonce_window(), NONCE_WINDOW);
    fake.set_nonce_window(Duration::from_secs(60));
    let send = || {
        CreateMessage::new()
            .content("move")
            .nonce(Nonce::String("turn-1".into()))
            .enforce_nonce(true)
    };
    let a = ChannelId::new(ch)
        .send_message(&http, send())
        .await
        .unwrap();
    fake.advance(Duration::from_secs(30));
    let b = ChannelId::new(ch)
        .send_message(&http, send())
        .await
        .unwrap();
    assert_eq!(a.id, b.id);
    fake.advance(Duration::from_secs(31));
    let c = ChannelId::new(ch)
        .send_message(&http, send())
        .await
        .unwrap();
    assert_ne!(a.id, c.id);
}

#[tokio::test]
async fn message_ids_are_snowflakes_of_the_fake_clock_and_history_reads_as_discords() {
    let (fake, http, _, ch) = setup().await;
    let c = ChannelId::new(ch);
    let now = fake.now_unix_ms();
    let first = c.say(&http, "one").await.unwrap();
    let t = snowflake_time(first.id.get());
    assert!(t >= now && t <= fake.now_unix_ms(), "{t} {now}");
    assert_eq!(first.timestamp.unix_timestamp(), (t / 1000) as i64);
    c.say(&http, "two").await.unwrap();
    // An outage of an hour: a message sent after it is found with after=<snowflake of a time>.
    fake.advance(Duration::from_secs(3600));
    let mark = fake.snowflake_now();
    let sent = c
        .send_message(
            &http,
            CreateMessage::new()
                .content("three")
                .nonce(Nonce::String("n-3".into()))
                .enforce_nonce(true),
        )
        .await
        .unwrap();
    assert!(sent.id.get() > mark, "{} {mark}", sent.id);
    assert!(matches!(&sent.nonce, Some(Nonce::String(n)) if n == "n-3"));
    c.say(&http, "four").await.unwrap();
    let base = format!("/api/v10/channels/{ch}/messages");
    let contents = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|m| m["content"].as_str().unwrap().to_owned())
            .collect()
    };
    let (status, all) = get_json(&fake, &base).await;
    assert_eq!(status, 200);
    assert_eq!(
        contents(&all),
        ["four", "three", "two", "one"],
        "newest first"
    );
    assert!(all
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m.get("nonce").is_none()));
    let (_, after) = get_json(&fake, &format!("{base}?after={mark}")).await;
    assert_eq!(contents(&after), ["four", "three"]);
    let (_, one) = get_json(&fake, &format!("{base}?after={mark}&limit=1")).await;
    assert_eq!(contents(&one), ["three"], "the oldest after the mark");
    let (_, before) = get_json(&fake, &format!("{base}?before={}&limit=1", sent.id)).await;
    assert_eq!(contents(&before), ["two"]);
    let (_, around) = get_json(&fake, &format!("{base}?around={}&limit=3", sent.id)).await;
    assert_eq!(contents(&around), ["four", "three", "two"]);
    // Serenity reads it.
    let got = c
        .messages(&http, serenity::all::GetMessages::new().limit(2))
        .await
        .unwrap();
    assert_eq!(got.len(), 2);
    assert!(got.iter().all(|m| m.nonce.is_none()));
    for bad in ["limit=0", "limit=101", "after=1&before=2"] {
        let (status, v) = get_json(&fake, &format!("{base}?{bad}")).await;
        assert_eq!((status, v["code"].as_u64()), (400, Some(50035)), "{bad}");
    }
    // Without READ_MESSAGE_HISTORY an empty list; without VIEW_CHANNEL 403.
    fake.set_permissions(ch, perm::DEFAULT & !perm::READ_MESSAGE_HISTORY);
    let (status, v) = get_json(&fake, &base).await;
    assert_eq!((status, v), (200, json!([])));
    fake.set_permissions(ch, perm::DEFAULT & !perm::VIEW_CHANNEL);
    let (status, v) = get_json(&fake, &base).await;
    assert_eq!((status, v["code"].as_u64()), (403, Some(50001)));
}

/// Two serenity clients on one shard, each of its own process in production.
struct Seen(u8, mpsc::UnboundedSender<(u8, u64)>);

#[serenity::async_trait]
impl EventHandler for Seen {
    async fn interaction_create(&self, _: Context, i: Interaction) {
        let _ = self.1.send((self.0, i.id().get()));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_session_of_a_shard_receives_each_interaction() {
    let (fake, http, bob, ch) = setup().await;
    // Two clients start at once; the identify budget's 5 s spacing is tested elsewhere.
    fake.enforce_identify_concurrency(false);
    register_ping(&fake).await;
    let (tx, mut seen) = mpsc::unbounded_channel();
    let mut tasks = Vec::new();
    for n in 0..2 {
        let mut client =
            ClientBuilder::new_with_http(super::tests::http(&fake), GatewayIntents::GUILDS)
                .event_handler(Seen(n, tx.clone()))
                .await
                .unwrap();
        tasks.push(tokio::spawn(async move { client.start().await }));
    }
    fake.wait_sessions([0, 1], 2).await.unwrap();
    let id = fake.slash(&bob, ch, "ping", &[]).await.unwrap();
    let mut got = Vec::new();
    for _ in 0..2 {
        got.push(
            tokio::time::timeout(WAIT, seen.recv())
                .await
                .unwrap()
                .unwrap(),
        );
    }
    got.sort_unstable();
    assert_eq!(got, [(0, id), (1, id)]);
    let i = fake.interaction(id).unwrap();
    assert_eq!(i.delivered_to, 2);
    // Both answer: the first wins, the second gets 40060, which is no rule broken here.
    let reply = json!({"type": 4, "data": {"content": "pong"}});
    http.create_interaction_response(InteractionId::new(id), &i.token, &reply, vec![])
        .await
        .unwrap();
    let e = http
        .create_interaction_response(InteractionId::new(id), &i.token, &reply, vec![])
        .await
        .unwrap_err();
    assert_eq!(code_of(&e), (400, 40060));
    assert!(fake.violations().is_empty(), "{:?}", fake.violations());
    assert_eq!(fake.gateway_sessions().len(), 2);
    // The old shape on request: a new session replaces the shard's others.
    fake.replace_sessions_per_shard(true);
    let (mut ws, (op, _)) = identify(&fake, json!([0, 1])).await;
    assert_eq!(op, 1);
    let sessions = fake.gateway_sessions();
    assert_eq!(sessions.len(), 1, "{sessions:?}");
    let _ = ws.send("{}").await;
    for t in tasks {
        t.abort();
    }
}

/// Connects and identifies as `shard`; returns the connection and the fake's answer frame.
async fn identify(fake: &FakeDiscord, shard: Value) -> (Ws, (u8, Vec<u8>)) {
    let mut ws = Ws::connect(fake).await;
    let (op, _) = ws.next().await;
    assert_eq!(op, 1, "Hello");
    let identify = json!({"op": 2, "d": {"token": format!("Bot {TOKEN}"), "intents": 1,
        "properties": {"os": "linux", "browser": "t", "device": "t"}, "shard": shard}});
    ws.send(&identify.to_string()).await;
    let answer = tokio::time::timeout(WAIT, ws.next()).await.unwrap();
    (ws, answer)
}

fn close_code(frame: &(u8, Vec<u8>)) -> Option<u16> {
    (frame.0 == 8).then(|| u16::from_be_bytes([frame.1[0], frame.1[1]]))
}

fn op_of(frame: &(u8, Vec<u8>)) -> Option<u64> {
    serde_json::from_slice::<Value>(&frame.1).ok()?["op"].as_u64()
}

#[tokio::test]
async fn identifies_spend_the_session_start_budget_one_per_5_s() {
    let (fake, _http, _, _) = setup().await;
    let (status, v) = get_json(&fake, "/api/v10/gateway/bot").await;
    assert_eq!(status, 200);
    let limit = &v["session_start_limit"];
    assert_eq!(
        (limit["total"].as_u64(), limit["remaining"].as_u64()),
        (Some(1000), Some(1000))
    );
    assert_eq!(limit["max_concurrency"], 1);
    assert_eq!(limit["reset_after"], 24 * 3600 * 1000);
    let (_ws1, ready) = identify(&fake, json!([0, 1])).await;
    assert_eq!(op_of(&ready), Some(0), "READY");
    assert_eq!(fake.session_start_limit().remaining, 999);
    // A second identify within 5 s: Invalid Session, nothing spent.
    let (_ws2, refused) = identify(&fake, json!([0, 1])).await;
    assert_eq!(op_of(&refused), Some(9));
    assert_eq!(fake.session_start_limit().remaining, 999);
    fake.advance(Duration::from_secs(5));
    let (_ws3, ready) = identify(&fake, json!([0, 1])).await;
    assert_eq!(op_of(&ready), Some(0));
    assert_eq!((fake.identify_attempts(), fake.identifies()), (3, 2));
    // max_concurrency 2: shards 0 and 1 of 2 at once (rate_limit_key = shard_id % 2).
    fake.set_session_start_limit(SessionStartLimit {
        total: 10,
        remaining: 3,
        reset_after: Duration::from_secs(60),
        max_concurrency: 2,
    });
    fake.advance(Duration::from_secs(5));
    let (_a, a) = identify(&fake, json!([0, 2])).await;
    let (_b, b) = identify(&fake, json!([1, 2])).await;
    let (_c, c) = identify(&fake, json!([0, 2])).await;
    assert_eq!(
        (op_of(&a), op_of(&b), op_of(&c)),
        (Some(0), Some(0), Some(9))
    );
    let left = fake.session_start_limit();
    assert_eq!(
        (left.total, left.remaining, left.max_concurrency),
        (10, 1, 2)
    );
    // The budget resets after reset_after.
    fake.advance(Duration::from_secs(61));
    assert_eq!(fake.session_start_limit().remaining, 10);
    // None left: the token is reset, every session closes with 4004, REST answers 401.
    fake.set_session_start_limit(SessionStartLimit {
        total: 10,
        remaining: 0,
        reset_after: Duration::from_secs(60),
        max_concurrency: 1,
    });
    let (mut live, ready) = identify(&fake, json!([1, 2])).await;
    assert_eq!(op_of(&ready), None, "{ready:?}");
    assert_eq!(close_code(&ready), Some(CLOSE_AUTHENTICATION_FAILED));
    assert!(fake.token_refused());
    let _ = live.send("{}").await;
    let (status, _, body) = raw(&fake, "GET", "/api/v10/gateway/bot", "").await;
    assert_eq!(status, 401);
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v, json!({"message": "401: Unauthorized", "code": 0}));
    fake.accept_token();
    let (status, _) = get_json(&fake, "/api/v10/gateway/bot").await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn a_refused_token_closes_sessions_with_4004_and_answers_401() {
    let (fake, http, _, ch) = setup().await;
    let (mut ws, ready) = identify(&fake, json!([0, 1])).await;
    assert_eq!(op_of(&ready), Some(0));
    fake.refuse_token();
    let closed = tokio::time::timeout(WAIT, ws.next()).await.unwrap();
    assert_eq!(close_code(&closed), Some(CLOSE_AUTHENTICATION_FAILED));
    assert!(fake.gateway_sessions().is_empty());
    let e = ChannelId::new(ch).say(&http, "x").await.unwrap_err();
    assert_eq!(code_of(&e), (401, 0));
    fake.advance(Duration::from_secs(5));
    let (_ws, again) = identify(&fake, json!([0, 1])).await;
    assert_eq!(close_code(&again), Some(CLOSE_AUTHENTICATION_FAILED));
    assert!(fake.gateway_closes().contains(&4004));
    assert_eq!(fake.invalid_requests(), 1, "the 401 counts as invalid");
}

#[tokio::test]
async fn invalid_requests_past_the_limit_draw_429_for_ten_minutes() {
    let (fake, http, _, ch) = setup().await;
    fake.set_limits(Limits {
        invalid_requests: 3,
        ..Limits::default()
    });
    fake.set_permissions(ch, perm::DEFAULT & !perm::VIEW_CHANNEL);
    let c = ChannelId::new(ch);
    for _ in 0..3 {
        assert_eq!(code_of(&c.say(&http, "x").await.unwrap_err()), (403, 50001));
    }
    assert_eq!(fake.invalid_requests(), 3);
    fake.set_permissions(ch, perm::DEFAULT);
    let (status, head, _) = raw(&fake, "GET", "/api/v10/gateway/bot", "").await;
    assert_eq!(status, 429);
    assert!(head.contains("x-ratelimit-global: true"), "{head}");
    assert_eq!(fake.invalid_request_refusals(), 1);
    assert_eq!(
        fake.invalid_requests(),
        3,
        "the restriction's own answers are not counted"
    );
    fake.advance(Duration::from_secs(10 * 60));
    assert_eq!(fake.invalid_requests(), 0);
    c.say(&http, "again").await.unwrap();
    assert_eq!(fake.invalid_requests_total(), 3);
    // 429s of a shared resource do not count; those of the bot's own limit do.
    let mut st = fake.shared.lock();
    for (scope, counted) in [("shared", 3), ("user", 4)] {
        let mut r =
            axum::response::IntoResponse::into_response(axum::http::StatusCode::TOO_MANY_REQUESTS);
        r.headers_mut().insert(
            "x-ratelimit-scope",
            axum::http::HeaderValue::from_static(scope),
        );
        rest::invalid::count(&mut st, &r);
        assert_eq!(st.invalid_total, counted, "{scope}");
    }
}

#[tokio::test]
async fn active_threads_and_uploads_are_limited() {
    let (fake, http, _, ch) = setup().await;
    fake.set_limits(Limits {
        active_threads: 1,
        upload_per_file: 100,
        upload_per_request: 150,
        ..Limits::default()
    });
    let c = ChannelId::new(ch);
    let public = json!({"name": "t", "type": 11});
    let first = http.create_thread(c, &public, None).await.unwrap();
    let e = http.create_thread(c, &public, None).await.unwrap_err();
    assert_eq!(code_of(&e), (400, 160006));
    fake.archive_thread(first.id.get());
    let second = http.create_thread(c, &public, None).await.unwrap();
    // Unarchiving by a message needs room too.
    let e = first.id.say(&http, "back").await.unwrap_err();
    assert_eq!(code_of(&e), (400, 160006));
    fake.archive_thread(second.id.get());
    first.id.say(&http, "back").await.unwrap();
    // Uploads: per file and per request.
    let file = |n: usize, name: &str| CreateAttachment::bytes(vec![b'x'; n], name);
    let send = |files: Vec<CreateAttachment>| {
        let mut m = CreateMessage::new().content("picture");
        for f in files {
            m = m.add_file(f);
        }
        c.send_message(&http, m)
    };
    assert_eq!(
        code_of(&send(vec![file(101, "a.png")]).await.unwrap_err()),
        (413, 40005)
    );
    let two = vec![file(80, "a.png"), file(80, "b.png")];
    assert_eq!(code_of(&send(two).await.unwrap_err()), (413, 40005));
    send(vec![file(70, "a.png"), file(70, "b.png")])
        .await
        .unwrap();
    // Discord's own: 10 MiB a file.
    fake.set_limits(Limits::default());
    let big = send(vec![file((10 << 20) + 1, "big.png")])
        .await
        .unwrap_err();
    assert_eq!(code_of(&big), (413, 40005));
    send(vec![file(3 << 20, "fine.png")]).await.unwrap();
    assert!(fake.violations().is_empty(), "{:?}", fake.violations());
}

#[tokio::test]
async fn rate_limit_headers_and_429_on_an_empty_bucket() {
    let (fake, _http, _, ch) = setup().await;
    let path = format!("/api/v10/channels/{ch}/messages");
    let (status, head, _) = raw(&fake, "POST", &path, r#"{"content":"x"}"#).await;
    assert_eq!(status, 200);
    for h in [
        "x-ratelimit-limit: 5",
        "x-ratelimit-remaining: 4",
        "x-ratelimit-reset:",
        "x-ratelimit-reset-after:",
        "x-ratelimit-bucket:",
    ] {
        assert!(head.contains(h), "{h} in {head}");
    }
    fake.enforce_rate_limits(true);
    fake.set_rate_limit(
        rate_limit_routes::CREATE_MESSAGE,
        2,
        Duration::from_secs(10),
    );
    let other = fake.add_channel("other");
    let other_path = format!("/api/v10/channels/{other}/messages");
    let mut statuses = Vec::new();
    for _ in 0..3 {
        statuses.push(
            raw(&fake, "POST", &other_path, r#"{"content":"x"}"#)
                .await
                .0,
        );
    }
    assert_eq!(statuses, [200, 200, 429]);
    let (status, head, body) = raw(&fake, "POST", &other_path, r#"{"content":"x"}"#).await;
    assert_eq!(status, 429);
    let v: Value = serde_json::from_str(&body).unwrap();
    assert!(v["retry_after"].as_f64().unwrap() > 9.0, "{v}");
    assert_eq!(v["global"], false);
    assert!(
        head.contains("x-ratelimit-scope: user") && head.contains("retry-after: 10"),
        "{head}"
    );
    // Each channel has its own bucket; the window runs on the fake clock.
    assert_eq!(raw(&fake, "POST", &path, r#"{"content":"x"}"#).await.0, 200);
    fake.advance(Duration::from_secs(10));
    assert_eq!(
        raw(&fake, "POST", &other_path, r#"{"content":"x"}"#)
            .await
            .0,
        200
    );
    assert_eq!(fake.rate_limited(), 2);
    assert_eq!(
        fake.messages()
            .iter()
            .filter(|m| m.channel_id == other)
            .count(),
        3
    );
}

/// A client that does what serenity's rate limiter does (serenity 0.12.5,
/// `http/ratelimiting.rs`: `post_hook` reads `x-ratelimit-remaining` and
/// `x-ratelimit-reset-after`; `pre_hook` sleeps until the reset when nothing remains) waits
/// for the bucket to refill instead of drawing 429s. Serenity's own limiter cannot be pointed
/// at the fake: with its rate limiter on, `Http` ignores `proxy` and sends to
/// `https://discord.com` (`Ratelimiter::perform` builds each request with no proxy), so this
/// test follows its algorithm over plain HTTP.
#[tokio::test]
async fn a_client_following_the_headers_waits_instead_of_drawing_429s() {
    let (fake, http, _, ch) = setup().await;
    fake.enforce_rate_limits(true);
    fake.set_rate_limit(
        rate_limit_routes::CREATE_MESSAGE,
        2,
        Duration::from_millis(700),
    );
    let path = format!("/api/v10/channels/{ch}/messages");
    let header = |head: &str, name: &str| -> Option<f64> {
        head.lines()
            .find_map(|l| l.strip_prefix(&format!("{name}: ")))
            .and_then(|v| v.trim().parse().ok())
    };
    let started = std::time::Instant::now();
    let mut reset: Option<(f64, std::time::Instant)> = None;
    let mut remaining = 1.0;
    for _ in 0..5 {
        if remaining == 0.0 {
            if let Some((after, at)) = reset {
                let until = at + Duration::from_secs_f64(after);
                tokio::time::sleep_until(until.into()).await;
            }
        }
        let (status, head, _) = raw(&fake, "POST", &path, r#"{"content":"m"}"#).await;
        assert_eq!(status, 200, "{head}");
        remaining = header(&head, "x-ratelimit-remaining").unwrap();
        reset = Some((
            header(&head, "x-ratelimit-reset-after").unwrap(),
            std::time::Instant::now(),
        ));
    }
    // Five messages at two a window: the client waited for two windows to pass.
    assert!(
        started.elapsed() >= Duration::from_millis(1400),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(fake.rate_limited(), 0, "no 429 drawn");
    assert_eq!(fake.messages().len(), 5);
    // The same burst through serenity with its limiter off (as the bot runs against the fake)
    // draws 429s.
    let mut refused = 0;
    for _ in 0..5 {
        if let Err(e) = ChannelId::new(ch).say(&http, "x").await {
            assert_eq!(code_of(&e).0, 429);
            refused += 1;
        }
    }
    assert!(refused >= 2, "{refused}");
    assert_eq!(fake.rate_limited(), refused);
}
