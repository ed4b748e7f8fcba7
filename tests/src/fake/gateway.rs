//! The gateway websocket: Hello, Identify, READY, heartbeats, and dispatching interactions.

use axum::extract::ws::{Message, WebSocket};
use serde_json::{json, Value};
use tokio::sync::mpsc;
use tracing::{debug, info, warn};

use super::payloads;
use super::state::Session;
use super::Shared;

pub const HEARTBEAT_MS: u64 = 41_250;

/// Serves one gateway connection until either side closes it.
pub async fn serve(mut socket: WebSocket, shared: Shared, resume_url: String) {
    let hello = json!({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_MS}, "s": null, "t": null});
    if socket.send(Message::Text(hello.to_string())).await.is_err() {
        return;
    }
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    let mut identified = false;
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let Some(Ok(msg)) = incoming else { break };
                let text = match msg {
                    Message::Text(t) => t,
                    Message::Binary(b) => String::from_utf8_lossy(&b).into_owned(),
                    Message::Close(_) => break,
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
                        let frame = json!({"op": 0, "s": 1, "t": "READY", "d": ready});
                        if socket.send(Message::Text(frame.to_string())).await.is_err() {
                            break;
                        }
                        let mut st = shared.lock();
                        st.identifies += 1;
                        st.session = Some(Session { tx: tx.clone(), seq: 1 });
                        drop(st);
                        shared.changed();
                        identified = true;
                        info!(target: "fake_discord", "gateway: identified, READY sent");
                    }
                    Some(3) => debug!(target: "fake_discord", "gateway: presence update"),
                    Some(6) => {
                        // No resumes: tell the client to identify again.
                        let _ = socket.send(Message::Text(json!({"op": 9, "d": false}).to_string())).await;
                    }
                    other => warn!(target: "fake_discord", "gateway: unexpected op {other:?}"),
                }
            }
            outgoing = rx.recv() => {
                let Some(frame) = outgoing else { break };
                if socket.send(Message::Text(frame)).await.is_err() {
                    break;
                }
            }
        }
    }
    if identified {
        let mut st = shared.lock();
        // Forget this session only if it is still the current one.
        if st.session.as_ref().is_some_and(|s| s.tx.same_channel(&tx)) {
            st.session = None;
        }
        drop(st);
        shared.changed();
    }
    info!(target: "fake_discord", "gateway: connection closed");
}

/// Sends a dispatch event on the current session; false when no bot is connected.
pub fn dispatch(shared: &Shared, event: &str, data: Value) -> bool {
    let mut st = shared.lock();
    let Some(session) = st.session.as_mut() else {
        return false;
    };
    session.seq += 1;
    let frame = json!({"op": 0, "s": session.seq, "t": event, "d": data});
    session.tx.send(frame.to_string()).is_ok()
}
