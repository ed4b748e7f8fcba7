//! What the fake Discord remembers: registered commands, interactions and their answers,
//! messages and who may see them, and every rule the bot broke.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::mpsc::UnboundedSender;

use super::faults::{FaultCounts, Faults};
use super::permissions;

/// The bot's application id (also its user id), sent in READY.
pub const APPLICATION_ID: u64 = 900_000_000_000_000_001;
/// The guild every test channel belongs to unless a test adds it to another
/// ([`super::FakeDiscord::add_guild_channel`]).
pub const GUILD_ID: u64 = 900_000_000_000_000_002;
/// Discord's limit for the first answer to an interaction.
pub const FIRST_RESPONSE_LIMIT: Duration = Duration::from_secs(3);
/// "Interaction `tokens` are valid for **15 minutes**" (Discord developer documentation,
/// Interactions > Receiving and Responding > Interaction Callback; again under Followup
/// Messages).
pub const TOKEN_LIFETIME: Duration = Duration::from_secs(15 * 60);
/// `enforce_nonce`: "If true and nonce is present, it will be checked for uniqueness in the
/// past few minutes" (Resources > Message > Create Message > JSON/Form Params). Discord
/// gives no number; the fake uses five minutes.
pub const NONCE_WINDOW: Duration = Duration::from_secs(5 * 60);

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
    /// Users mentioned in the content whom allowed_mentions lets through, as the latest
    /// payload (creation or edit) says. Whether they were actually notified is `notified`.
    pub pinged_users: Vec<u64>,
    /// Whether @everyone/@here or a role would be notified.
    pub pinged_everyone_or_roles: bool,
    /// Users Discord notified. Filled only when the message is created (an interaction's
    /// initial message response, a follow-up, a channel message): an edit notifies nobody,
    /// including the edit that fills in a deferred response.
    pub notified: Vec<u64>,
    /// When the fake received the request that created it.
    pub received_at: Instant,
    /// The nonce it was created with, as a string (integers are written in decimal).
    pub nonce: Option<String>,
    /// How many times it was edited.
    pub edits: usize,
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
    /// The interaction context type: 0 GUILD, 1 BOT_DM.
    pub context: u8,
    /// The first callback was performed but its answer was "lost" by an injected fault: a
    /// repeat gets Discord's 40060 without counting as a rule broken.
    pub ack_lost: bool,
    /// An injected failure refused a callback of this interaction before it was performed
    /// (a user's client would show "loading options failed" for autocomplete).
    pub callback_refused: bool,
}

impl FakeInteraction {
    pub fn latency(&self) -> Option<Duration> {
        self.first_response
            .map(|(t, _)| t.duration_since(self.dispatched))
    }
}

/// What a gateway connection task is told to do.
#[derive(Debug)]
pub enum Outgoing {
    Frame(String),
    /// Close the websocket with this close code (as Discord may at any time).
    Close(u16),
}

/// A gateway session: it survives a dropped connection so that the client can resume it.
pub struct Session {
    pub id: String,
    /// `[shard_id, num_shards]` as identified (`[0, 1]` when Identify had no `shard`).
    pub shard: [u32; 2],
    /// The connection currently attached, if any.
    pub tx: Option<UnboundedSender<Outgoing>>,
    pub seq: u64,
    /// Every dispatch sent in this session (sequence, frame), replayed on RESUME.
    pub log: Vec<(u64, String)>,
}

/// The kind of a channel, with Discord's type numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChannelKind {
    /// GUILD_TEXT (0).
    Text,
    /// DM (1).
    Dm,
    /// GUILD_VOICE (2): cannot hold threads or (in the fake) text messages.
    Voice,
    /// PUBLIC_THREAD (11).
    PublicThread,
}

impl ChannelKind {
    pub fn number(self) -> u8 {
        match self {
            ChannelKind::Text => 0,
            ChannelKind::Dm => 1,
            ChannelKind::Voice => 2,
            ChannelKind::PublicThread => 11,
        }
    }
}

/// A channel as the fake holds it.
#[derive(Clone, Debug)]
pub struct FakeChannel {
    pub id: u64,
    pub name: String,
    pub kind: ChannelKind,
    /// For threads: the channel it was created in.
    pub parent_id: Option<u64>,
    /// The guild of a guild channel or thread; `None` for DMs.
    pub guild_id: Option<u64>,
    /// For DMs: the other user.
    pub recipient: Option<u64>,
    pub archived: bool,
    pub locked: bool,
    pub deleted: bool,
}

impl FakeChannel {
    pub fn is_thread(&self) -> bool {
        self.kind == ChannelKind::PublicThread
    }
    pub fn in_guild(&self) -> bool {
        self.kind != ChannelKind::Dm
    }
}

/// A file a user attached to a command option, served by the fake's own "CDN".
#[derive(Clone, Debug)]
pub struct Upload {
    pub id: u64,
    pub file: FakeFile,
}

/// Everything the fake holds, behind one lock.
#[derive(Default)]
pub struct State {
    pub next_id: u64,
    /// http://127.0.0.1:port, for URLs the fake serves itself.
    pub base_url: String,
    pub users: HashMap<u64, FakeUser>,
    pub channels: HashMap<u64, FakeChannel>,
    /// DM channel id per user.
    pub dm_channels: HashMap<u64, u64>,
    /// Users who accept no DMs from the bot.
    pub closed_dms: HashSet<u64>,
    /// The bot's permissions per channel where set; threads inherit their parent's.
    pub permissions: HashMap<u64, u64>,
    /// False once the bot was removed from the guild.
    pub bot_in_guild: bool,
    /// Commands as last registered: (guild id or None for global, command JSON).
    pub commands: Vec<(Option<u64>, Value)>,
    pub registrations: usize,
    pub interactions: HashMap<u64, FakeInteraction>,
    pub messages: Vec<FakeMessage>,
    pub violations: Vec<String>,
    /// Every refused request: (what, HTTP status, Discord error code).
    pub rejections: Vec<(String, u16, u32)>,
    /// The gateway sessions, one per shard identified.
    pub sessions: Vec<Session>,
    /// The shard count GET /gateway/bot recommends (1 unless a test sets it).
    pub recommended_shards: u32,
    /// Close codes the gateway sent, in order.
    pub gateway_closes: Vec<u16>,
    pub identifies: usize,
    pub resumes: usize,
    /// Active fault injection and the request counter it draws from.
    pub faults: Option<Faults>,
    pub fault_counter: u64,
    pub fault_counts: FaultCounts,
    pub nonce_dedupes: usize,
    pub uploads: HashMap<u64, Upload>,
    /// Every request path seen, for debugging a failed test.
    pub requests: Vec<String>,
}

impl State {
    pub fn new() -> Self {
        Self {
            next_id: 1_000_000_000_000,
            bot_in_guild: true,
            recommended_shards: 1,
            ..Default::default()
        }
    }

    /// Whether a bot is connected to the gateway now (on any shard).
    pub fn connected(&self) -> bool {
        self.sessions.iter().any(|s| s.tx.is_some())
    }

    /// The bot's permissions in `channel`: set explicitly, else its parent's (threads
    /// inherit their parent's permissions), else the default.
    pub fn bot_permissions(&self, channel: u64) -> u64 {
        if let Some(p) = self.permissions.get(&channel) {
            return *p;
        }
        match self.channels.get(&channel) {
            Some(c) if c.kind == ChannelKind::Dm => permissions::BOT_DM,
            Some(FakeChannel {
                parent_id: Some(parent),
                ..
            }) => self.bot_permissions(*parent),
            _ => permissions::DEFAULT,
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
