//! A fake Discord on 127.0.0.1 for end-to-end tests of the real bot: the REST API under
//! /api/v10 and the gateway websocket, enforcing the rules of Discord that serenity does not
//! check (3 s first response, 15-minute interaction tokens, "already acknowledged", 25
//! autocomplete choices, custom_id and embed limits, who may see an ephemeral message, who
//! gets notified, nonces, permissions, threads, closed DMs, deleted channels, sharding).
//!
//! Tests act as Discord users: [`FakeDiscord::slash`] dispatches a slash command the way the
//! Discord client would build it from the registered command, [`FakeDiscord::click`] clicks a
//! button, [`FakeDiscord::autocomplete`] types into an option (client.rs). They change the
//! world (world.rs): channels, threads, permissions, closed DMs, the bot's removal, injected
//! faults ([`Faults`]), the age of interactions, a dropped gateway connection.

mod client;
pub mod faults;
mod gateway;
pub mod limits;
mod payloads;
pub mod permissions;
mod rest;
#[cfg(test)]
mod shard_tests;
pub mod shards;
mod state;
#[cfg(test)]
mod tests;
mod world;
#[cfg(test)]
mod world_tests;

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::extract::{State as AxState, WebSocketUpgrade};
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use serde_json::Value;
use tokio::sync::watch;

pub use client::MAX_STRING_OPTION;
pub use faults::{Fault, FaultCounts, Faults, RouteFilter};
pub use gateway::CLOSE_AUTHENTICATION_FAILED;
pub use rest::ratelimits::RouteLimit;
pub use shards::{guild_on_shard, shard_of, CLOSE_INVALID_SHARD};
use state::State;
pub use state::{
    snowflake_at, snowflake_time, ChannelKind, FakeButton, FakeChannel, FakeFile, FakeInteraction,
    FakeMessage, FakeUser, GatewaySession, Kind, Limits, Origin, SessionStartLimit, APPLICATION_ID,
    DEFAULT_AUTO_ARCHIVE_MINUTES, DISCORD_EPOCH_MS, GUILD_ID, NONCE_WINDOW, TOKEN_LIFETIME,
};

/// The names of the rate-limited routes, for [`FakeDiscord::set_rate_limit`].
pub mod rate_limit_routes {
    pub use super::rest::ratelimits::{
        CREATE_MESSAGE, CREATE_THREAD, GET_CHANNEL, GET_MESSAGES, OPEN_DM, WEBHOOK,
    };
}
pub use world::{CLOSE_SESSION_TIMED_OUT, CLOSE_UNKNOWN_ERROR};

/// The fake's state and a change signal that waiters listen to.
#[derive(Clone)]
pub(crate) struct Shared {
    state: Arc<Mutex<State>>,
    tick: Arc<watch::Sender<u64>>,
}

impl Shared {
    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(crate) fn changed(&self) {
        self.tick.send_modify(|n| *n += 1);
    }

    /// Waits until `probe` finds something, or fails after `timeout`.
    async fn wait_for<T>(
        &self,
        timeout: Duration,
        what: &str,
        mut probe: impl FnMut(&State) -> Option<T>,
    ) -> Result<T, String> {
        let mut rx = self.tick.subscribe();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            if let Some(found) = probe(&self.lock()) {
                return Ok(found);
            }
            match tokio::time::timeout_at(deadline, rx.changed()).await {
                Ok(Ok(())) => {}
                Ok(Err(_)) => return Err(format!("fake Discord closed while waiting for {what}")),
                Err(_) => {
                    let st = self.lock();
                    let last: Vec<_> = st.requests.iter().rev().take(8).rev().cloned().collect();
                    return Err(format!(
                        "timed out after {timeout:?} waiting for {what}; last requests: {last:?}; violations: {:?}",
                        st.violations
                    ));
                }
            }
        }
    }
}

#[derive(Clone)]
pub(crate) struct AppState {
    shared: Shared,
    gateway_url: String,
}

/// A running fake Discord.
pub struct FakeDiscord {
    shared: Shared,
    port: u16,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        self.server.abort();
    }
}

/// Timeouts of the waits; generous because the machine may be busy building.
pub const WAIT: Duration = Duration::from_secs(20);

impl FakeDiscord {
    /// Binds 127.0.0.1 on a free port and serves until dropped.
    pub async fn start() -> std::io::Result<Self> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let port = listener.local_addr()?.port();
        let (tick, _) = watch::channel(0);
        let mut state = State::new();
        state.base_url = format!("http://127.0.0.1:{port}");
        let shared = Shared {
            state: Arc::new(Mutex::new(state)),
            tick: Arc::new(tick),
        };
        let app = AppState {
            shared: shared.clone(),
            gateway_url: format!("ws://127.0.0.1:{port}/gateway"),
        };
        let router = Router::new()
            .route("/gateway", get(ws_upgrade))
            .fallback(rest::handle)
            // Multipart bodies up to 64 MiB reach the handler, which applies Discord's own
            // upload limits (10 MiB a file, 25 MiB a request) instead of axum's 2 MB.
            .layer(axum::extract::DefaultBodyLimit::max(64 << 20))
            .with_state(app);
        let server = tokio::spawn(async move {
            // Without TCP_NODELAY a small gateway frame written while an earlier
            // one is unacknowledged waits for the client's delayed ACK (about
            // 40 ms on Linux), which would show up as the bot's latency.
            if let Err(e) = axum::serve(listener, router).tcp_nodelay(true).await {
                tracing::error!(target: "fake_discord", "server stopped: {e}");
            }
        });
        Ok(Self {
            shared,
            port,
            server,
        })
    }

    /// The REST base the bot is pointed at (`DiscordSettings::test_api_base`).
    pub fn api_base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Waits until a bot has identified on the gateway and registered its commands
    /// `registrations` times in all (once per start).
    pub async fn wait_ready(&self, registrations: usize) -> Result<(), String> {
        self.shared
            .wait_for(WAIT, "the bot to connect and register its commands", |st| {
                (st.connected() && st.registrations >= registrations).then_some(())
            })
            .await
    }

    /// Waits until no bot is connected to the gateway.
    pub async fn wait_disconnected(&self) -> Result<(), String> {
        self.shared
            .wait_for(WAIT, "the bot to disconnect", |st| {
                (!st.connected()).then_some(())
            })
            .await
    }

    /// Commands as registered: (guild id or None for global, definition).
    pub fn commands(&self) -> Vec<(Option<u64>, Value)> {
        self.shared.lock().commands.clone()
    }

    pub fn identifies(&self) -> usize {
        self.shared.lock().identifies
    }

    /// Gateway sessions resumed after a dropped connection.
    pub fn resumes(&self) -> usize {
        self.shared.lock().resumes
    }

    /// Waits until the bot has resumed `n` times in all.
    pub async fn wait_resumed(&self, n: usize) -> Result<(), String> {
        self.shared
            .wait_for(WAIT, "the bot to resume its gateway session", |st| {
                (st.connected() && st.resumes >= n).then_some(())
            })
            .await
    }

    /// Channel messages that `enforce_nonce` turned into the earlier message.
    pub fn nonce_dedupes(&self) -> usize {
        self.shared.lock().nonce_dedupes
    }

    /// Every refused request so far: (what, HTTP status, Discord error code).
    pub fn rejections(&self) -> Vec<(String, u16, u32)> {
        self.shared.lock().rejections.clone()
    }

    /// Every rule the bot broke so far.
    pub fn violations(&self) -> Vec<String> {
        self.shared.lock().violations.clone()
    }

    /// Waits for the answer the user sees: the response (or the edit of a deferred one, or the
    /// first follow-up when the deferred placeholder was removed).
    pub async fn answer(&self, interaction: u64) -> Result<FakeMessage, String> {
        self.shared
            .wait_for(WAIT, "the answer to an interaction", |st| {
                let i = st.interactions.get(&interaction)?;
                let original = i.original.and_then(|id| st.message(id))?;
                if !original.deleted && original.settled {
                    return Some(original.clone());
                }
                if original.deleted {
                    return st
                        .messages
                        .iter()
                        .find(|m| {
                            m.interaction_id == Some(interaction) && m.origin == Origin::Followup
                        })
                        .cloned();
                }
                None
            })
            .await
    }

    /// Runs a slash command and waits for its answer.
    pub async fn run(
        &self,
        user: &FakeUser,
        channel: u64,
        command: &str,
        options: &[(&str, &str)],
    ) -> Result<FakeMessage, String> {
        let id = self.slash(user, channel, command, options).await?;
        self.answer(id).await
    }

    /// Waits until a message matching `pred` exists.
    pub async fn wait_message(
        &self,
        what: &str,
        mut pred: impl FnMut(&FakeMessage) -> bool,
    ) -> Result<FakeMessage, String> {
        self.shared
            .wait_for(WAIT, what, |st| {
                st.messages
                    .iter()
                    .find(|m| !m.deleted && m.settled && pred(m))
                    .cloned()
            })
            .await
    }

    /// The interaction as the fake recorded it.
    pub fn interaction(&self, id: u64) -> Option<FakeInteraction> {
        self.shared.lock().interactions.get(&id).cloned()
    }

    /// Every message tied to an interaction (response and follow-ups), in order.
    pub fn messages_of(&self, interaction: u64) -> Vec<FakeMessage> {
        self.shared
            .lock()
            .messages
            .iter()
            .filter(|m| m.interaction_id == Some(interaction) && !m.deleted)
            .cloned()
            .collect()
    }

    /// What `user` sees in `channel`: public messages and their own ephemeral ones.
    pub fn visible_to(&self, user: &FakeUser, channel: u64) -> Vec<FakeMessage> {
        self.shared
            .lock()
            .messages
            .iter()
            .filter(|m| m.channel_id == channel && !m.deleted && m.settled)
            .filter(|m| m.ephemeral_to.is_none() || m.ephemeral_to == Some(user.id))
            .cloned()
            .collect()
    }

    /// Direct messages the bot sent to `user`.
    pub fn direct_messages(&self, user: &FakeUser) -> Vec<FakeMessage> {
        let st = self.shared.lock();
        let Some(dm) = st.dm_channels.get(&user.id).copied() else {
            return Vec::new();
        };
        st.messages
            .iter()
            .filter(|m| m.channel_id == dm)
            .cloned()
            .collect()
    }

    /// Every message so far.
    pub fn messages(&self) -> Vec<FakeMessage> {
        self.shared.lock().messages.clone()
    }

    /// Messages that notified `user` when they were created, not deleted since.
    pub fn notifications(&self, user: &FakeUser) -> Vec<FakeMessage> {
        self.shared
            .lock()
            .messages
            .iter()
            .filter(|m| !m.deleted && m.notified.contains(&user.id))
            .cloned()
            .collect()
    }

    /// Dispatch-to-first-response times of the interactions of `kind`.
    pub fn latencies(&self, kind: Kind) -> Vec<Duration> {
        let mut v: Vec<Duration> = self
            .shared
            .lock()
            .interactions
            .values()
            .filter(|i| i.kind == kind)
            .filter_map(FakeInteraction::latency)
            .collect();
        v.sort();
        v
    }

    /// "n=…, median …, p95 …, max …" for commands+buttons and for autocomplete.
    pub fn latency_report(&self) -> String {
        let mut answered = self.latencies(Kind::Command);
        answered.extend(self.latencies(Kind::Component));
        answered.sort();
        format!(
            "interaction latency (dispatch to first response): commands and buttons {}; autocomplete {}",
            summary(&answered),
            summary(&self.latencies(Kind::Autocomplete))
        )
    }
}

/// Median, 95th percentile and maximum of sorted durations.
pub fn summary(sorted: &[Duration]) -> String {
    if sorted.is_empty() {
        return "n=0".into();
    }
    let pick = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
    format!(
        "n={} median {:.1} ms, p95 {:.1} ms, max {:.1} ms",
        sorted.len(),
        pick(0.5).as_secs_f64() * 1e3,
        pick(0.95).as_secs_f64() * 1e3,
        sorted[sorted.len() - 1].as_secs_f64() * 1e3
    )
}

async fn ws_upgrade(ws: WebSocketUpgrade, AxState(app): AxState<AppState>) -> Response {
    let resume = app.gateway_url.clone();
    ws.on_upgrade(move |socket| gateway::serve(socket, app.shared, resume))
}
