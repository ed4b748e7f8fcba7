//! The gateway websocket: Hello, Identify, READY, heartbeats, Resume, and dispatching events.
//!
//! A session outlives its connection: "The connection may be dropped for a variety of
//! reasons at any time" and a client that resumes gets "the missed events in order, finishing
//! with a Resumed event" (Events > Gateway > Connection Lifecycle; Resuming). A client that
//! closes with 1000 or 1001 ends its session ("your session will be invalidated").
//!
//! Each shard identified has its own session; events go to the shards `shards.rs` says.

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use serde_json::{json, Value};
use tokio::sync::mpsc;
use tracing::{debug, info, warn};

use super::payloads;
use super::shards;
use super::state::{Outgoing, Session};
use super::Shared;

pub const HEARTBEAT_MS: u64 = 41_250;

/// Gateway close code 4004, "Authentication failed: The account token sent with your identify
/// payload is incorrect." (Topics > Opcodes and Status Codes > Gateway Close Event Codes;
/// "Reconnect: false").
pub const CLOSE_AUTHENTICATION_FAILED: u16 = 4004;

/// What becomes of an IDENTIFY.
enum Admitted {
    Shard([u32; 2]),
    /// Close the connection with this code and reason.
    Close(u16, &'static str),
    /// Answer Invalid Session (op 9, not resumable).
    InvalidSession,
}

/// Decides an IDENTIFY, counting it:
/// - a reset token: close 4004 Authentication failed;
/// - an invalid shard: close 4010 (shards.rs);
/// - "Apps are limited by maximum concurrency (`max_concurrency` in the session start limit
///   object) when identifying. If your app exceeds this limit, Discord will respond with a
///   Invalid Session (opcode `9`) event" (Events > Gateway > Identifying; again under Rate
///   Limiting: "a limit for concurrent Identify requests allowed per 5 seconds"). Shards share a
///   bucket by "`rate_limit_key = shard_id % max_concurrency`" (Sharding > Max Concurrency):
///   one identify per key per 5 seconds of the fake clock;
/// - with no session start left: "Upon hitting this limit, all active sessions for the app
///   will be terminated, the bot token will be reset" (Identifying). The documentation says no
///   more of the answer; the fake closes every session and this connection with 4004, and
///   from then on the token is refused ([`super::FakeDiscord::refuse_token`]) until a test
///   accepts it again.
fn admit_identify(shared: &Shared, d: &Value) -> Admitted {
    let mut st = shared.lock();
    st.identify_attempts += 1;
    if st.token_refused {
        return Admitted::Close(CLOSE_AUTHENTICATION_FAILED, "Authentication failed.");
    }
    let shard = match shards::identified_shard(d) {
        Ok(shard) => shard,
        Err(why) => {
            st.violation(format!("gateway: {why}"));
            return Admitted::Close(shards::CLOSE_INVALID_SHARD, "Invalid shard.");
        }
    };
    let now = st.now();
    let window = std::time::Duration::from_secs(5);
    let budget = st.budget();
    let key = shard[0] % budget.max_concurrency;
    budget
        .recent
        .retain(|(t, _)| now.saturating_duration_since(*t) < window);
    if budget.enforce_concurrency && budget.recent.iter().any(|(_, k)| *k == key) {
        return Admitted::InvalidSession;
    }
    if budget.remaining == 0 {
        drop(st);
        reset_token(shared);
        return Admitted::Close(CLOSE_AUTHENTICATION_FAILED, "Authentication failed.");
    }
    budget.remaining -= 1;
    budget.recent.push((now, key));
    Admitted::Shard(shard)
}

/// The token is reset: every open connection closes with 4004 and no session can be resumed.
pub fn reset_token(shared: &Shared) {
    let mut st = shared.lock();
    st.token_refused = true;
    for s in st.sessions.drain(..) {
        if let Some(tx) = s.tx {
            let _ = tx.send(Outgoing::Close(CLOSE_AUTHENTICATION_FAILED));
        }
    }
    drop(st);
    shared.changed();
}

/// What happened to a RESUME.
enum Resumed {
    /// The missed frames and RESUMED, to send in order.
    Replay(Vec<String>),
    Unknown,
    /// The token was reset: close with 4004.
    Refused,
}

fn resume(shared: &Shared, d: &Value, tx: &mpsc::UnboundedSender<Outgoing>) -> Resumed {
    let mut st = shared.lock();
    if st.token_refused {
        return Resumed::Refused;
    }
    let session_id = d["session_id"].as_str().unwrap_or("");
    let seq = d["seq"].as_u64().unwrap_or(0);
    let Some(session) = st.sessions.iter_mut().find(|s| s.id == session_id) else {
        return Resumed::Unknown;
    };
    let mut frames: Vec<String> = session
        .log
        .iter()
        .filter(|(s, _)| *s > seq)
        .map(|(_, f)| f.clone())
        .collect();
    session.seq += 1;
    frames.push(json!({"op": 0, "s": session.seq, "t": "RESUMED", "d": {}}).to_string());
    session.tx = Some(tx.clone());
    let replayed = frames.len() - 1;
    st.resumes += 1;
    drop(st);
    shared.changed();
    info!(target: "fake_discord", "gateway: resumed after seq {seq}, {replayed} events replayed");
    Resumed::Replay(frames)
}

/// Serves one gateway connection until either side closes it.
pub async fn serve(mut socket: WebSocket, shared: Shared, resume_url: String) {
    let hello = json!({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_MS}, "s": null, "t": null});
    if socket.send(Message::Text(hello.to_string())).await.is_err() {
        return;
    }
    let (tx, mut rx) = mpsc::unbounded_channel::<Outgoing>();
    let mut attached = false;
    let mut clean_close = false;
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let Some(Ok(msg)) = incoming else { break };
                let text = match msg {
                    Message::Text(t) => t,
                    Message::Binary(b) => String::from_utf8_lossy(&b).into_owned(),
                    Message::Close(frame) => {
                        clean_close = frame.is_some_and(|f| f.code == 1000 || f.code == 1001);
                        break;
                    }
                    _ => continue,
                };
                let Ok(v) = serde_json::from_str::<Value>(&text) else {
                    shared.lock().violation(format!("gateway: not JSON: {text}"));
                    continue;
                };
                match v["op"].as_u64() {
                    Some(1) => {
                        let _ = socket.send(Message::Text(json!({"op": 11}).to_string())).await;
                    }
                    Some(2) => {
                        if v["d"]["token"].as_str().is_none_or(str::is_empty) {
                            shared.lock().violation("gateway: Identify without a token".into());
                        }
                        let shard = match admit_identify(&shared, &v["d"]) {
                            Admitted::Shard(shard) => shard,
                            Admitted::Close(code, reason) => {
                                {
                                    let mut st = shared.lock();
                                    st.gateway_closes.push(code);
                                }
                                shared.changed();
                                info!(target: "fake_discord", "gateway: identify refused, closing with {code} ({reason})");
                                let frame = CloseFrame { code, reason: reason.into() };
                                let _ = socket.send(Message::Close(Some(frame))).await;
                                break;
                            }
                            Admitted::InvalidSession => {
                                shared.changed();
                                info!(target: "fake_discord", "gateway: identify over max_concurrency, Invalid Session");
                                let _ = socket
                                    .send(Message::Text(json!({"op": 9, "d": false}).to_string()))
                                    .await;
                                continue;
                            }
                        };
                        let (session_id, guilds) = {
                            let mut st = shared.lock();
                            (format!("session-{}", st.fresh_id()), shards::guilds_on(&st, shard))
                        };
                        let ready = payloads::ready(&session_id, &resume_url, shard, &guilds);
                        if let Err(e) = payloads::check_ready(&ready) {
                            shared.lock().violation(e);
                        }
                        let frame = json!({"op": 0, "s": 1, "t": "READY", "d": ready}).to_string();
                        if socket.send(Message::Text(frame.clone())).await.is_err() {
                            break;
                        }
                        let mut st = shared.lock();
                        st.identifies += 1;
                        // "You can establish multiple sessions with the same `[shard_id,
                        // num_shards]`" (Events > Gateway > Sharding): each receives the
                        // shard's events. The old shape, where a new session replaces the
                        // shard's older one, only when a test asks for it.
                        if st.replace_sessions {
                            st.sessions.retain(|s| s.shard != shard);
                        }
                        st.sessions.push(Session {
                            id: session_id,
                            shard,
                            tx: Some(tx.clone()),
                            seq: 1,
                            log: vec![(1, frame)],
                        });
                        drop(st);
                        shared.changed();
                        attached = true;
                        info!(target: "fake_discord", "gateway: shard {shard:?} identified, READY sent");
                    }
                    Some(3) => debug!(target: "fake_discord", "gateway: presence update"),
                    Some(6) => match resume(&shared, &v["d"], &tx) {
                        Resumed::Replay(frames) => {
                            attached = true;
                            for f in frames {
                                if socket.send(Message::Text(f)).await.is_err() {
                                    break;
                                }
                            }
                        }
                        Resumed::Refused => {
                            shared.lock().gateway_closes.push(CLOSE_AUTHENTICATION_FAILED);
                            let frame = CloseFrame {
                                code: CLOSE_AUTHENTICATION_FAILED,
                                reason: "Authentication failed.".into(),
                            };
                            let _ = socket.send(Message::Close(Some(frame))).await;
                            break;
                        }
                        Resumed::Unknown => {
                            // Invalid Session, not resumable: the client identifies again.
                            let _ = socket
                                .send(Message::Text(json!({"op": 9, "d": false}).to_string()))
                                .await;
                        }
                    },
                    other => warn!(target: "fake_discord", "gateway: unexpected op {other:?}"),
                }
            }
            outgoing = rx.recv() => {
                match outgoing {
                    Some(Outgoing::Frame(frame)) => {
                        if socket.send(Message::Text(frame)).await.is_err() {
                            break;
                        }
                    }
                    Some(Outgoing::Close(code)) => {
                        shared.lock().gateway_closes.push(code);
                        info!(target: "fake_discord", "gateway: closing the connection with {code}");
                        let frame = CloseFrame { code, reason: "fake Discord dropped the connection".into() };
                        let _ = socket.send(Message::Close(Some(frame))).await;
                        break;
                    }
                    None => break,
                }
            }
        }
    }
    if attached {
        let mut st = shared.lock();
        // Detach this connection if it is still the session's; a clean close ends the session.
        let ours = st
            .sessions
            .iter()
            .position(|s| s.tx.as_ref().is_some_and(|t| t.same_channel(&tx)));
        if let Some(i) = ours {
            if clean_close {
                st.sessions.remove(i);
            } else {
                st.sessions[i].tx = None;
            }
        }
        drop(st);
        shared.changed();
    }
    info!(target: "fake_discord", "gateway: connection closed (clean: {clean_close})");
}

/// Sends a dispatch event of `guild` (`None`: a DM) on the sessions whose shard receives it;
/// false when there is none. While a connection is down the event waits in its session's log
/// for a RESUME.
pub fn dispatch(shared: &Shared, guild: Option<u64>, event: &str, data: Value) -> bool {
    dispatch_counted(shared, guild, event, data).0 > 0
}

/// Like [`dispatch`]: (sessions that took the event, of them those with a connection attached
/// now). "You can establish multiple sessions with the same `[shard_id, num_shards]`" (Events >
/// Gateway > Sharding): every session of the shard gets every event of it.
pub fn dispatch_counted(
    shared: &Shared,
    guild: Option<u64>,
    event: &str,
    data: Value,
) -> (usize, usize) {
    let mut st = shared.lock();
    let (mut sessions, mut attached) = (0, 0);
    for session in st
        .sessions
        .iter_mut()
        .filter(|s| shards::receives(s.shard, guild))
    {
        session.seq += 1;
        let frame = json!({"op": 0, "s": session.seq, "t": event, "d": data}).to_string();
        session.log.push((session.seq, frame.clone()));
        if let Some(tx) = &session.tx {
            if tx.send(Outgoing::Frame(frame)).is_ok() {
                attached += 1;
            }
        }
        sessions += 1;
    }
    (sessions, attached)
}

/// Closes every open connection with `code`; false when none is open.
pub fn drop_connection(shared: &Shared, code: u16) -> bool {
    let st = shared.lock();
    let mut closed = false;
    for tx in st.sessions.iter().filter_map(|s| s.tx.as_ref()) {
        closed |= tx.send(Outgoing::Close(code)).is_ok();
    }
    closed
}
