//! A fake Discord on 127.0.0.1 for end-to-end tests of the real bot: the REST API under
//! /api/v10 and the gateway websocket, enforcing the rules of Discord that serenity does not
//! check (3 s first response, "already acknowledged", 25 autocomplete choices, custom_id and
//! embed limits, who may see an ephemeral message, who gets pinged).
//!
//! Tests act as Discord users: [`FakeDiscord::slash`] dispatches a slash command the way the
//! Discord client would build it from the registered command, [`FakeDiscord::click`] clicks a
//! button, [`FakeDiscord::autocomplete`] types into an option.

mod gateway;
pub mod limits;
mod payloads;
mod rest;
mod state;

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::extract::{State as AxState, WebSocketUpgrade};
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use serde_json::{json, Value};
use tokio::sync::watch;

use state::State;
pub use state::{
    FakeButton, FakeFile, FakeInteraction, FakeMessage, FakeUser, Kind, Origin, APPLICATION_ID,
    GUILD_ID,
};

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
        let shared = Shared {
            state: Arc::new(Mutex::new(State::new())),
            tick: Arc::new(tick),
        };
        let app = AppState {
            shared: shared.clone(),
            gateway_url: format!("ws://127.0.0.1:{port}/gateway"),
        };
        let router = Router::new()
            .route("/gateway", get(ws_upgrade))
            .fallback(rest::handle)
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

    pub fn add_user(&self, id: u64, name: &str) -> FakeUser {
        let u = FakeUser::new(id, name);
        self.shared.lock().users.insert(id, u.clone());
        u
    }

    pub fn add_channel(&self, name: &str) -> u64 {
        let mut st = self.shared.lock();
        let id = st.fresh_id();
        st.channels.insert(id, name.to_owned());
        id
    }

    /// Waits until a bot has identified on the gateway and registered its commands
    /// `registrations` times in all (once per start).
    pub async fn wait_ready(&self, registrations: usize) -> Result<(), String> {
        self.shared
            .wait_for(WAIT, "the bot to connect and register its commands", |st| {
                (st.session.is_some() && st.registrations >= registrations).then_some(())
            })
            .await
    }

    /// Waits until no bot is connected to the gateway.
    pub async fn wait_disconnected(&self) -> Result<(), String> {
        self.shared
            .wait_for(WAIT, "the bot to disconnect", |st| {
                st.session.is_none().then_some(())
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

    /// Every rule the bot broke so far.
    pub fn violations(&self) -> Vec<String> {
        self.shared.lock().violations.clone()
    }

    fn command_def(&self, name: &str) -> Result<Value, String> {
        self.shared
            .lock()
            .commands
            .iter()
            .find(|(_, c)| c["name"] == name)
            .map(|(_, c)| c.clone())
            .ok_or_else(|| format!("/{name} is not registered"))
    }

    /// Builds option objects the way the Discord client does from a registered command.
    fn typed_options(
        &self,
        def: &Value,
        given: &[(&str, &str)],
        focused: Option<(&str, &str)>,
    ) -> Result<(Vec<Value>, Vec<FakeUser>), String> {
        let cmd = def["name"].as_str().unwrap_or("?");
        let defs = def["options"].as_array().cloned().unwrap_or_default();
        let mut out = Vec::new();
        let mut resolved = Vec::new();
        for (name, raw) in given {
            let d = defs
                .iter()
                .find(|d| d["name"] == *name)
                .ok_or_else(|| format!("/{cmd} has no option `{name}`"))?;
            let kind = d["type"].as_u64().unwrap_or(0);
            let value = if let Some(choices) = d["choices"].as_array().filter(|c| !c.is_empty()) {
                // The player picks a choice by its shown name.
                choices
                    .iter()
                    .find(|c| c["name"] == *raw || c["value"].to_string().trim_matches('"') == *raw)
                    .map(|c| c["value"].clone())
                    .ok_or_else(|| format!("/{cmd} {name}: `{raw}` is not one of the choices"))?
            } else {
                match kind {
                    3 => json!(raw),
                    4 => json!(raw
                        .parse::<i64>()
                        .map_err(|_| format!("/{cmd} {name}: `{raw}` is not an integer"))?),
                    5 => json!(raw
                        .parse::<bool>()
                        .map_err(|_| format!("/{cmd} {name}: `{raw}` is not true/false"))?),
                    6 => {
                        let id: u64 = raw
                            .trim_start_matches("<@")
                            .trim_end_matches('>')
                            .parse()
                            .map_err(|_| format!("/{cmd} {name}: `{raw}` is not a user"))?;
                        let u = self
                            .shared
                            .lock()
                            .users
                            .get(&id)
                            .cloned()
                            .ok_or_else(|| format!("no user {id}"))?;
                        resolved.push(u);
                        json!(id.to_string())
                    }
                    other => {
                        return Err(format!(
                            "/{cmd} {name}: option type {other} not supported by the fake"
                        ))
                    }
                }
            };
            out.push(json!({"name": name, "type": kind, "value": value}));
        }
        if let Some((name, typed)) = focused {
            let d = defs
                .iter()
                .find(|d| d["name"] == name)
                .ok_or_else(|| format!("/{cmd} has no option `{name}`"))?;
            if d["autocomplete"].as_bool() != Some(true) {
                return Err(format!("/{cmd} {name} has no autocomplete"));
            }
            out.push(json!({"name": name, "type": d["type"], "value": typed, "focused": true}));
        } else {
            for d in &defs {
                if d["required"].as_bool() == Some(true)
                    && !given.iter().any(|(n, _)| d["name"] == *n)
                {
                    return Err(format!(
                        "/{cmd}: the required option `{}` is missing",
                        d["name"]
                    ));
                }
            }
        }
        Ok((out, resolved))
    }

    fn register_interaction(
        &self,
        kind: Kind,
        user: &FakeUser,
        channel: u64,
    ) -> (u64, String, String) {
        let mut st = self.shared.lock();
        let id = st.fresh_id();
        let token = format!("token-{id}");
        let channel_name = st.channels.get(&channel).cloned().unwrap_or_default();
        st.interactions.insert(
            id,
            FakeInteraction {
                id,
                token: token.clone(),
                kind,
                user: user.clone(),
                channel_id: channel,
                dispatched: Instant::now(),
                first_response: None,
                deferred: false,
                original: None,
                choices: None,
                ephemeral: false,
            },
        );
        (id, token, channel_name)
    }

    fn send(&self, id: u64, payload: Value) -> Result<(), String> {
        payloads::check_interaction(&payload)?;
        // The 3 s clock starts when the event leaves for the bot.
        if let Some(i) = self.shared.lock().interactions.get_mut(&id) {
            i.dispatched = Instant::now();
        }
        if gateway::dispatch(&self.shared, "INTERACTION_CREATE", payload) {
            Ok(())
        } else {
            Err("no bot is connected to the gateway".into())
        }
    }

    /// A user runs a slash command; returns the interaction id.
    pub async fn slash(
        &self,
        user: &FakeUser,
        channel: u64,
        command: &str,
        options: &[(&str, &str)],
    ) -> Result<u64, String> {
        let def = self.command_def(command)?;
        let (opts, resolved) = self.typed_options(&def, options, None)?;
        let (id, token, channel_name) = self.register_interaction(Kind::Command, user, channel);
        let payload = payloads::command_interaction(
            id,
            &token,
            false,
            user,
            (channel, &channel_name),
            &def,
            opts,
            &resolved,
        );
        self.send(id, payload)?;
        Ok(id)
    }

    /// A user types `typed` into option `focused`; returns the choices as (name, value).
    pub async fn autocomplete(
        &self,
        user: &FakeUser,
        channel: u64,
        command: &str,
        options: &[(&str, &str)],
        focused: (&str, &str),
    ) -> Result<Vec<(String, Value)>, String> {
        let def = self.command_def(command)?;
        let (opts, resolved) = self.typed_options(&def, options, Some(focused))?;
        let (id, token, channel_name) =
            self.register_interaction(Kind::Autocomplete, user, channel);
        let payload = payloads::command_interaction(
            id,
            &token,
            true,
            user,
            (channel, &channel_name),
            &def,
            opts,
            &resolved,
        );
        self.send(id, payload)?;
        let choices = self
            .shared
            .wait_for(WAIT, "autocomplete choices", |st| {
                st.interactions.get(&id).and_then(|i| i.choices.clone())
            })
            .await?;
        Ok(choices
            .into_iter()
            .map(|c| {
                (
                    c["name"].as_str().unwrap_or("").to_owned(),
                    c["value"].clone(),
                )
            })
            .collect())
    }

    /// A user clicks a button of a message they can see; returns the interaction id.
    pub async fn click(
        &self,
        user: &FakeUser,
        message_id: u64,
        custom_id: &str,
    ) -> Result<u64, String> {
        let message = {
            let st = self.shared.lock();
            st.message(message_id)
                .cloned()
                .ok_or_else(|| format!("no message {message_id}"))?
        };
        if message.deleted || message.ephemeral_to.is_some_and(|u| u != user.id) {
            return Err(format!("{} cannot see message {message_id}", user.name));
        }
        if !message.buttons.iter().any(|b| b.custom_id == custom_id) {
            return Err(format!("message {message_id} has no button `{custom_id}`"));
        }
        let (id, token, channel_name) =
            self.register_interaction(Kind::Component, user, message.channel_id);
        let payload = payloads::component_interaction(
            id,
            &token,
            user,
            (message.channel_id, &channel_name),
            custom_id,
            payloads::message(&message, payloads::bot_user()),
        );
        self.send(id, payload)?;
        Ok(id)
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
