//! The gateway websocket: Hello, Identify, READY, heartbeats, Resume, and dispatching events.
//!
//! A session outlives its connection: "The connection may be dropped for a variety of
//! reasons at any time" and a client that resumes gets "the missed events in order, finishing
//! with a Resumed event" (Events > Gateway > Connection Lifecycle; Resuming). A client that
//! closes with 1000 or 1001 ends its session ("your session will be invalidated").

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use serde_json::{json, Value};
use tokio::sync::mpsc;
use tracing::{debug, info, warn};

use super::payloads;
use super::state::{Outgoing, Session};
use super::Shared;

pub const HEARTBEAT_MS: u64 = 41_250;

/// What happened to a RESUME.
enum Resumed {
    /// The missed frames and RESUMED, to send in order.
    Replay(Vec<String>),
    Unknown,
}

fn resume(shared: &Shared, d: &Value, tx: &mpsc::UnboundedSender<Outgoing>) -> Resumed {
    let mut st = shared.lock();
    let session_id = d["session_id"].as_str().unwrap_or("");
    let seq = d["seq"].as_u64().unwrap_or(0);
    let Some(session) = st.session.as_mut().filter(|s| s.id == session_id) else {
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
                        let session_id = format!("session-{}", shared.lock().fresh_id());
                        let ready = payloads::ready(&session_id, &resume_url);
                        if let Err(e) = payloads::check_ready(&ready) {
                            shared.lock().violation(e);
                        }
                        let frame = json!({"op": 0, "s": 1, "t": "READY", "d": ready}).to_string();
                        if socket.send(Message::Text(frame.clone())).await.is_err() {
                            break;
                        }
                        let mut st = shared.lock();
                        st.identifies += 1;
                        st.session = Some(Session {
                            id: session_id,
                            tx: Some(tx.clone()),
                            seq: 1,
                            log: vec![(1, frame)],
                        });
                        drop(st);
                        shared.changed();
                        attached = true;
                        info!(target: "fake_discord", "gateway: identified, READY sent");
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
            .session
            .as_ref()
            .is_some_and(|s| s.tx.as_ref().is_some_and(|t| t.same_channel(&tx)));
        if ours {
            if clean_close {
                st.session = None;
            } else if let Some(s) = st.session.as_mut() {
                s.tx = None;
            }
        }
        drop(st);
        shared.changed();
    }
    info!(target: "fake_discord", "gateway: connection closed (clean: {clean_close})");
}

/// Sends a dispatch event on the current session; false when there is none. While the
/// connection is down the event waits in the session's log for a RESUME.
pub fn dispatch(shared: &Shared, event: &str, data: Value) -> bool {
    let mut st = shared.lock();
    let Some(session) = st.session.as_mut() else {
        return false;
    };
    session.seq += 1;
    let frame = json!({"op": 0, "s": session.seq, "t": event, "d": data}).to_string();
    session.log.push((session.seq, frame.clone()));
    if let Some(tx) = &session.tx {
        let _ = tx.send(Outgoing::Frame(frame));
    }
    true
}

/// Closes the current connection with `code`; false when none is open.
pub fn drop_connection(shared: &Shared, code: u16) -> bool {
    let st = shared.lock();
    st.session
        .as_ref()
        .and_then(|s| s.tx.as_ref())
        .is_some_and(|tx| tx.send(Outgoing::Close(code)).is_ok())
}
