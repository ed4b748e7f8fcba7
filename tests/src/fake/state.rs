//! What the fake Discord remembers: registered commands, interactions and their answers,
//! messages and who may see them, and every rule the bot broke.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::mpsc::UnboundedSender;

/// The bot's application id (also its user id), sent in READY.
pub const APPLICATION_ID: u64 = 900_000_000_000_000_001;
/// The guild every test channel belongs to.
pub const GUILD_ID: u64 = 900_000_000_000_000_002;
/// Discord's limit for the first answer to an interaction.
pub const FIRST_RESPONSE_LIMIT: Duration = Duration::from_secs(3);

/// A user of the fake guild.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FakeUser {
    pub id: u64,
    pub name: String,
}

impl FakeUser {
    pub fn new(id: u64, name: &str) -> Self {
        Self {
            id,
            name: name.to_owned(),
        }
    }
    /// How the table writes this user in options and text.
    pub fn mention(&self) -> String {
        format!("<@{}>", self.id)
    }
}

/// How a message reached the channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The interaction's initial response (or the edit of a deferred one).
    Response,
    /// A follow-up on an interaction.
    Followup,
    /// POST /channels/{id}/messages.
    Channel,
}

/// A file uploaded with a message.
#[derive(Clone, Debug)]
pub struct FakeFile {
    pub name: String,
    pub content_type: Option<String>,
    pub bytes: Vec<u8>,
}

/// A button on a message.
#[derive(Clone, Debug)]
pub struct FakeButton {
    pub custom_id: String,
    pub label: String,
}

/// A message as Discord would hold it.
#[derive(Clone, Debug)]
pub struct FakeMessage {
    pub id: u64,
    pub channel_id: u64,
    pub content: String,
    pub origin: Origin,
    /// The interaction it answers, if any.
    pub interaction_id: Option<u64>,
    /// Ephemeral messages are seen only by this user (the interaction's user).
    pub ephemeral_to: Option<u64>,
    pub files: Vec<FakeFile>,
    pub buttons: Vec<FakeButton>,
    /// Users Discord would notify: mentioned in the content and allowed by allowed_mentions.
    pub pinged_users: Vec<u64>,
    /// Whether @everyone/@here or a role would be notified.
    pub pinged_everyone_or_roles: bool,
    /// False while it is a deferred "thinking…" placeholder.
    pub settled: bool,
    pub deleted: bool,
    pub raw: Value,
}

/// The kind of interaction dispatched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Command,
    Autocomplete,
    Component,
}

/// What the bot did with one interaction.
#[derive(Clone, Debug)]
pub struct FakeInteraction {
    pub id: u64,
    pub token: String,
    pub kind: Kind,
    pub user: FakeUser,
    pub channel_id: u64,
    pub dispatched: Instant,
    /// When the first callback arrived (in time or not), and its type.
    pub first_response: Option<(Instant, u64)>,
    pub deferred: bool,
    /// The original response message (the deferred placeholder until edited).
    pub original: Option<u64>,
    /// Autocomplete choices answered.
    pub choices: Option<Vec<Value>>,
    pub ephemeral: bool,
}

impl FakeInteraction {
    pub fn latency(&self) -> Option<Duration> {
        self.first_response
            .map(|(t, _)| t.duration_since(self.dispatched))
    }
}

/// One gateway connection that identified.
pub struct Session {
    pub tx: UnboundedSender<String>,
    pub seq: u64,
}

/// Everything the fake holds, behind one lock.
#[derive(Default)]
pub struct State {
    pub next_id: u64,
    pub users: HashMap<u64, FakeUser>,
    pub channels: HashMap<u64, String>,
    /// DM channel id per user.
    pub dm_channels: HashMap<u64, u64>,
    /// Commands as last registered: (guild id or None for global, command JSON).
    pub commands: Vec<(Option<u64>, Value)>,
    pub registrations: usize,
    pub interactions: HashMap<u64, FakeInteraction>,
    pub messages: Vec<FakeMessage>,
    pub violations: Vec<String>,
    pub session: Option<Session>,
    pub identifies: usize,
    /// Every request path seen, for debugging a failed test.
    pub requests: Vec<String>,
}

impl State {
    pub fn new() -> Self {
        Self {
            next_id: 1_000_000_000_000,
            ..Default::default()
        }
    }

    pub fn fresh_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    pub fn violation(&mut self, text: String) {
        tracing::error!(target: "fake_discord", "VIOLATION: {text}");
        self.violations.push(text);
    }

    pub fn message(&self, id: u64) -> Option<&FakeMessage> {
        self.messages.iter().find(|m| m.id == id)
    }

    pub fn message_mut(&mut self, id: u64) -> Option<&mut FakeMessage> {
        self.messages.iter_mut().find(|m| m.id == id)
    }

    pub fn interaction_by_token(&mut self, token: &str) -> Option<&mut FakeInteraction> {
        self.interactions.values_mut().find(|i| i.token == token)
    }
}
