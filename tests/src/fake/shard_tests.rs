//! Tests of the fake's sharding (shards.rs) with captured sessions and real serenity clients.

use serde_json::json;
use serenity::all::{ClientBuilder, Context, EventHandler, GatewayIntents, Interaction, Ready};
use tokio::sync::mpsc;

use super::state::{Outgoing, Session};
use super::tests::http;
use super::*;

/// What a serenity client saw: (shard id, event).
#[derive(Debug, PartialEq, Eq)]
enum Seen {
    /// READY: the shard in it and its guilds.
    Ready([u32; 2], Vec<u64>),
    Interaction(u64),
}

struct Recorder(mpsc::UnboundedSender<(u32, Seen)>);

#[serenity::async_trait]
impl EventHandler for Recorder {
    async fn ready(&self, ctx: Context, ready: Ready) {
        let shard = ready.shard.map(|s| [s.id.0, s.total]).unwrap_or([0, 1]);
        let guilds = ready.guilds.iter().map(|g| g.id.get()).collect();
        let _ = self.0.send((ctx.shard_id.0, Seen::Ready(shard, guilds)));
    }
    async fn interaction_create(&self, ctx: Context, i: Interaction) {
        let _ = self
            .0
            .send((ctx.shard_id.0, Seen::Interaction(i.id().get())));
    }
}

async fn next(rx: &mut mpsc::UnboundedReceiver<(u32, Seen)>) -> (u32, Seen) {
    tokio::time::timeout(WAIT, rx.recv())
        .await
        .expect("an event in time")
        .expect("the client is running")
}

/// Registers a global command `ping` (guild commands are offered in their guild only).
async fn register_ping(fake: &FakeDiscord) {
    let ping = json!([{"name": "ping", "description": "Ping"}]);
    http(fake).create_global_commands(&ping).await.unwrap();
}

fn capture(shard: [u32; 2]) -> (Session, mpsc::UnboundedReceiver<Outgoing>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let session = Session {
        id: format!("captured-{}", shard[0]),
        shard,
        tx: Some(tx),
        seq: 1,
        log: Vec::new(),
    };
    (session, rx)
}

fn event_names(rx: &mut mpsc::UnboundedReceiver<Outgoing>) -> Vec<String> {
    let mut names = Vec::new();
    while let Ok(Outgoing::Frame(f)) = rx.try_recv() {
        let v: serde_json::Value = serde_json::from_str(&f).unwrap();
        names.push(v["t"].as_str().unwrap_or("").to_owned());
    }
    names
}

#[tokio::test]
async fn events_go_to_the_shard_of_their_guild_and_dms_to_shard_0() {
    let fake = FakeDiscord::start().await.unwrap();
    let (s0, mut rx0) = capture([0, 2]);
    let (s1, mut rx1) = capture([1, 2]);
    fake.shared.lock().sessions = vec![s0, s1];
    let on0 = guild_on_shard(0, 2);
    let on1 = guild_on_shard(1, 2);
    assert!(gateway::dispatch(&fake.shared, Some(on0), "A", json!({})));
    assert!(gateway::dispatch(&fake.shared, Some(on1), "B", json!({})));
    assert!(gateway::dispatch(&fake.shared, None, "DM", json!({})));
    assert_eq!(event_names(&mut rx0), ["A", "DM"]);
    assert_eq!(event_names(&mut rx1), ["B"]);
    // With only shard 1 identified, a guild of shard 0 and DMs reach nobody.
    fake.shared.lock().sessions.retain(|s| s.shard == [1, 2]);
    assert!(!gateway::dispatch(&fake.shared, Some(on0), "A", json!({})));
    assert!(!gateway::dispatch(&fake.shared, None, "DM", json!({})));
    assert!(gateway::dispatch(&fake.shared, Some(on1), "B", json!({})));
    assert_eq!(event_names(&mut rx1), ["B"]);
}

/// A serenity client asking GET /gateway/bot for the count runs the recommended shards; each
/// READY names its shard and lists only its guilds, and each command reaches the shard of its
/// guild, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sharded_client_gets_each_guild_on_its_shard() {
    let fake = FakeDiscord::start().await.unwrap();
    fake.set_recommended_shards(2);
    let on0 = guild_on_shard(0, 2);
    let on1 = guild_on_shard(1, 2);
    let ch0 = fake.add_guild_channel(on0, "zero");
    let ch1 = fake.add_guild_channel(on1, "one");
    register_ping(&fake).await;
    let (tx, mut seen) = mpsc::unbounded_channel();
    let mut client = ClientBuilder::new_with_http(http(&fake), GatewayIntents::GUILDS)
        .event_handler(Recorder(tx))
        .await
        .unwrap();
    let task = tokio::spawn(async move { client.start_autosharded().await });
    fake.wait_shards(&[[0, 2], [1, 2]]).await.unwrap();
    let mut readies = vec![next(&mut seen).await, next(&mut seen).await];
    readies.sort_by_key(|(shard, _)| *shard);
    // The fake's main guild is on one of the two shards too.
    let with_main = |shard: u32, mut guilds: Vec<u64>| {
        if shard_of(GUILD_ID, 2) == shard {
            guilds.push(GUILD_ID);
        }
        guilds.sort_unstable();
        guilds
    };
    assert_eq!(
        readies,
        [
            (0, Seen::Ready([0, 2], with_main(0, vec![on0]))),
            (1, Seen::Ready([1, 2], with_main(1, vec![on1]))),
        ]
    );
    let alice = fake.add_user(11, "alice");
    let i0 = fake.slash(&alice, ch0, "ping", &[]).await.unwrap();
    assert_eq!(next(&mut seen).await, (0, Seen::Interaction(i0)));
    let i1 = fake.slash(&alice, ch1, "ping", &[]).await.unwrap();
    assert_eq!(next(&mut seen).await, (1, Seen::Interaction(i1)));
    assert!(seen.try_recv().is_err(), "each event once");
    assert_eq!(fake.connected_shards(), [[0, 2], [1, 2]]);
    assert!(fake.violations().is_empty(), "{:?}", fake.violations());
    task.abort();
}

/// A client that runs shard 1 of 2 only: a guild of shard 0 cannot reach it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_running_one_shard_gets_only_its_guilds() {
    let fake = FakeDiscord::start().await.unwrap();
    let ch0 = fake.add_guild_channel(guild_on_shard(0, 2), "zero");
    let ch1 = fake.add_guild_channel(guild_on_shard(1, 2), "one");
    register_ping(&fake).await;
    let (tx, mut seen) = mpsc::unbounded_channel();
    let mut client = ClientBuilder::new_with_http(http(&fake), GatewayIntents::GUILDS)
        .event_handler(Recorder(tx))
        .await
        .unwrap();
    let task = tokio::spawn(async move { client.start_shard(1, 2).await });
    fake.wait_shards(&[[1, 2]]).await.unwrap();
    assert!(matches!(next(&mut seen).await, (1, Seen::Ready([1, 2], _))));
    let alice = fake.add_user(11, "alice");
    let e = fake.slash(&alice, ch0, "ping", &[]).await.unwrap_err();
    assert!(e.contains("shard"), "{e}");
    let i1 = fake.slash(&alice, ch1, "ping", &[]).await.unwrap();
    assert_eq!(next(&mut seen).await, (1, Seen::Interaction(i1)));
    assert_eq!(fake.connected_shards(), [[1, 2]]);
    task.abort();
}

/// A bare websocket client (RFC 6455), enough to identify and to read the fake's answer,
/// close frames included, which serenity keeps to itself.
pub(super) struct Ws(tokio::net::TcpStream);

impl Ws {
    pub(super) async fn connect(fake: &FakeDiscord) -> Ws {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let addr = fake.api_base().trim_start_matches("http://").to_owned();
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        s.write_all(
            b"GET /gateway HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n\
              Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
              Sec-WebSocket-Version: 13\r\n\r\n",
        )
        .await
        .unwrap();
        let mut head = Vec::new();
        while !head.ends_with(b"\r\n\r\n") {
            head.push(s.read_u8().await.unwrap());
        }
        let head = String::from_utf8_lossy(&head);
        assert!(head.starts_with("HTTP/1.1 101"), "{head}");
        Ws(s)
    }

    /// Sends a text frame, masked as a client must (with a zero key).
    pub(super) async fn send(&mut self, text: &str) {
        use tokio::io::AsyncWriteExt;
        let n = text.len();
        let mut frame = vec![0x81];
        if n < 126 {
            frame.push(0x80 | n as u8);
        } else {
            frame.push(0x80 | 126);
            frame.extend(u16::try_from(n).unwrap().to_be_bytes());
        }
        frame.extend([0, 0, 0, 0]);
        frame.extend(text.as_bytes());
        self.0.write_all(&frame).await.unwrap();
    }

    /// The next frame: (opcode, payload).
    pub(super) async fn next(&mut self) -> (u8, Vec<u8>) {
        use tokio::io::AsyncReadExt;
        let b0 = self.0.read_u8().await.unwrap();
        let len = match self.0.read_u8().await.unwrap() & 0x7f {
            126 => u64::from(self.0.read_u16().await.unwrap()),
            127 => self.0.read_u64().await.unwrap(),
            n => u64::from(n),
        };
        let mut payload = vec![0; usize::try_from(len).unwrap()];
        self.0.read_exact(&mut payload).await.unwrap();
        (b0 & 0x0f, payload)
    }
}

/// Identifies with `shard` on a bare connection; returns the fake's answer frame.
async fn identify_as(fake: &FakeDiscord, shard: serde_json::Value) -> (u8, Vec<u8>) {
    let mut ws = Ws::connect(fake).await;
    let (op, hello) = ws.next().await;
    assert_eq!(op, 1, "Hello is text");
    assert!(String::from_utf8_lossy(&hello).contains("heartbeat_interval"));
    let identify = json!({"op": 2, "d": {"token": "Bot x", "intents": 1,
        "properties": {"os": "linux", "browser": "t", "device": "t"}, "shard": shard}});
    ws.send(&identify.to_string()).await;
    tokio::time::timeout(WAIT, ws.next()).await.unwrap()
}

/// A shard id not below the count is refused with close code 4010 and no session; a valid
/// shard gets READY naming it.
#[tokio::test]
async fn an_invalid_shard_is_closed_with_4010() {
    let fake = FakeDiscord::start().await.unwrap();
    for bad in [json!([2, 2]), json!([0, 0]), json!([1])] {
        let (op, payload) = identify_as(&fake, bad.clone()).await;
        assert_eq!(op, 8, "{bad}: a close frame");
        let code = u16::from_be_bytes([payload[0], payload[1]]);
        assert_eq!(code, CLOSE_INVALID_SHARD, "{bad}");
    }
    assert_eq!(fake.gateway_closes(), [4010, 4010, 4010]);
    assert!(fake.connected_shards().is_empty());
    assert_eq!(fake.identifies(), 0);
    let violations = fake.violations();
    assert!(
        violations
            .iter()
            .any(|v| v.contains("shard id 2 is not below")),
        "{violations:?}"
    );
    let (op, ready) = identify_as(&fake, json!([1, 2])).await;
    assert_eq!(op, 1);
    let ready: serde_json::Value = serde_json::from_slice(&ready).unwrap();
    assert_eq!(
        (ready["t"].as_str(), &ready["d"]["shard"]),
        (Some("READY"), &json!([1, 2]))
    );
    assert_eq!(fake.identifies(), 1);
}
