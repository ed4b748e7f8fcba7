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
    /// How many gateway connections the interaction was sent on (several sessions of its
    /// shard each receive it).
    pub delivered_to: usize,
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

/// The kind of a channel, with Discord's type numbers ("Channel Types", Resources > Channel >
/// Channel Object: GUILD_TEXT 0, DM 1, GUILD_VOICE 2, GUILD_CATEGORY 4, GUILD_ANNOUNCEMENT 5,
/// ANNOUNCEMENT_THREAD 10, PUBLIC_THREAD 11, PRIVATE_THREAD 12, GUILD_FORUM 15).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChannelKind {
    /// GUILD_TEXT (0).
    Text,
    /// DM (1).
    Dm,
    /// GUILD_VOICE (2): cannot hold threads or (in the fake) text messages.
    Voice,
    /// GUILD_CATEGORY (4): "an organizational category that contains up to 50 channels"; no
    /// messages, no threads.
    Category,
    /// GUILD_ANNOUNCEMENT (5): messages like a text channel; its threads are
    /// ANNOUNCEMENT_THREAD (10) only.
    Announcement,
    /// ANNOUNCEMENT_THREAD (10): "a temporary sub-channel within a GUILD_ANNOUNCEMENT channel".
    AnnouncementThread,
    /// PUBLIC_THREAD (11): "a temporary sub-channel within a GUILD_TEXT or GUILD_FORUM channel".
    PublicThread,
    /// PRIVATE_THREAD (12): "a temporary sub-channel within a GUILD_TEXT channel that is only
    /// viewable by those invited and those with the MANAGE_THREADS permission".
    PrivateThread,
    /// GUILD_FORUM (15): "Channel that can only contain threads".
    Forum,
}

impl ChannelKind {
    pub fn number(self) -> u8 {
        match self {
            ChannelKind::Text => 0,
            ChannelKind::Dm => 1,
            ChannelKind::Voice => 2,
            ChannelKind::Category => 4,
            ChannelKind::Announcement => 5,
            ChannelKind::AnnouncementThread => 10,
            ChannelKind::PublicThread => 11,
            ChannelKind::PrivateThread => 12,
            ChannelKind::Forum => 15,
        }
    }

    /// The kind with Discord's type number `n`, if the fake has it.
    pub fn from_number(n: u64) -> Option<ChannelKind> {
        Some(match n {
            0 => ChannelKind::Text,
            1 => ChannelKind::Dm,
            2 => ChannelKind::Voice,
            4 => ChannelKind::Category,
            5 => ChannelKind::Announcement,
            10 => ChannelKind::AnnouncementThread,
            11 => ChannelKind::PublicThread,
            12 => ChannelKind::PrivateThread,
            15 => ChannelKind::Forum,
            _ => return None,
        })
    }

    /// Types 10, 11 and 12.
    pub fn is_thread(self) -> bool {
        matches!(
            self,
            ChannelKind::AnnouncementThread
                | ChannelKind::PublicThread
                | ChannelKind::PrivateThread
        )
    }
}

/// A thread's `auto_archive_duration` unless its creator set one: 24 hours (one of "60, 1440,
/// 4320, 10080", Resources > Channel > Start Thread without Message).
pub const DEFAULT_AUTO_ARCHIVE_MINUTES: u32 = 1440;

/// A channel as the fake holds it.
#[derive(Clone, Debug)]
pub struct FakeChannel {
    pub id: u64,
    pub name: String,
    pub kind: ChannelKind,
    /// For threads: the channel it was created in; for a channel in a category: the category.
    pub parent_id: Option<u64>,
    /// The guild of a guild channel or thread; `None` for DMs.
    pub guild_id: Option<u64>,
    /// For DMs: the other user.
    pub recipient: Option<u64>,
    pub archived: bool,
    pub locked: bool,
    pub deleted: bool,
    /// For threads: minutes of inactivity after which the thread archives (60, 1440, 4320 or
    /// 10080).
    pub auto_archive_minutes: u32,
    /// When the channel was created, on the fake clock.
    pub created: Instant,
    /// For threads: the last activity ("sending a message, unarchiving a thread, or changing
    /// the auto-archive time", Topics > Threads), on the fake clock.
    pub last_activity: Instant,
    /// For threads: when `archived` last changed (the creation at first), on the fake clock;
    /// sent as `thread_metadata.archive_timestamp`.
    pub archive_changed: Instant,
    /// Who started a thread (the bot for threads it created).
    pub owner_id: u64,
}

impl FakeChannel {
    /// A channel of `kind` created `now` (on the fake clock).
    pub fn new(
        id: u64,
        name: &str,
        kind: ChannelKind,
        guild_id: Option<u64>,
        parent_id: Option<u64>,
        now: Instant,
    ) -> Self {
        Self {
            id,
            name: name.to_owned(),
            kind,
            parent_id,
            guild_id,
            recipient: None,
            archived: false,
            locked: false,
            deleted: false,
            auto_archive_minutes: DEFAULT_AUTO_ARCHIVE_MINUTES,
            created: now,
            last_activity: now,
            archive_changed: now,
            owner_id: APPLICATION_ID,
        }
    }
    pub fn is_thread(&self) -> bool {
        self.kind.is_thread()
    }
    pub fn in_guild(&self) -> bool {
        self.kind != ChannelKind::Dm
    }
    /// When an active thread archives by itself if nothing happens in it.
    pub fn archives_at(&self) -> Instant {
        self.last_activity + Duration::from_secs(u64::from(self.auto_archive_minutes) * 60)
    }
}

/// A file a user attached to a command option, served by the fake's own "CDN".
#[derive(Clone, Debug)]
pub struct Upload {
    pub id: u64,
    pub file: FakeFile,
}

/// "Milliseconds since Discord Epoch, the first second of 2015 or 1420070400000" (Reference >
/// Snowflakes).
pub const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

/// The smallest snowflake of the Unix time `unix_ms` (milliseconds): its timestamp part, worker,
/// process and increment zero. `after=` this id finds what was created from then on.
pub fn snowflake_at(unix_ms: u64) -> u64 {
    unix_ms.saturating_sub(DISCORD_EPOCH_MS) << 22
}

/// The Unix time in milliseconds a snowflake was made at: `(snowflake >> 22) + 1420070400000`.
pub fn snowflake_time(id: u64) -> u64 {
    (id >> 22) + DISCORD_EPOCH_MS
}

/// The fake's clock: the machine's monotonic clock plus an offset tests move forward
/// ([`super::FakeDiscord::advance`]); wall-clock time (for snowflakes and timestamps) is the
/// machine's at the fake's start plus the fake time passed since.
#[derive(Clone, Debug)]
pub struct Clock {
    base: Instant,
    base_wall_ms: u64,
    pub offset: Duration,
}

impl Default for Clock {
    fn default() -> Self {
        let wall = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        Self {
            base: Instant::now(),
            base_wall_ms: wall,
            offset: Duration::ZERO,
        }
    }
}

impl Clock {
    pub fn now(&self) -> Instant {
        Instant::now() + self.offset
    }

    /// The Unix time in milliseconds of the fake-clock instant `t`.
    pub fn wall_ms(&self, t: Instant) -> u64 {
        match t.checked_duration_since(self.base) {
            Some(d) => self.base_wall_ms + d.as_millis() as u64,
            None => self
                .base_wall_ms
                .saturating_sub(self.base.duration_since(t).as_millis() as u64),
        }
    }
}

/// Limits tests may set ([`super::FakeDiscord::set_limits`]); the defaults are Discord's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Active threads (types 11 and 12) a guild may hold: past it 160006. Discord does not
    /// document the number; the fake uses 1000.
    pub active_threads: usize,
    /// Active announcement threads (type 10) a guild may hold: past it 160007.
    pub active_announcement_threads: usize,
    /// Bytes of one uploaded file: "The default limit is `10 MiB`" (Reference > Uploading
    /// Files).
    pub upload_per_file: usize,
    /// Bytes of all files of one request: "The maximum request size when sending a message is
    /// **25 MiB**" (Resources > Message > Create Message).
    pub upload_per_request: usize,
    /// Invalid requests (401, 403, 429) in 10 minutes before every request gets 429: "this
    /// limit is **10,000 per 10 minutes**" (Topics > Rate Limits > Invalid Request Limit).
    pub invalid_requests: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            active_threads: 1000,
            active_announcement_threads: 1000,
            upload_per_file: 10 << 20,
            upload_per_request: 25 << 20,
            invalid_requests: 10_000,
        }
    }
}

/// "Session Start Limit Object" (Events > Gateway): `total`, `remaining`, `reset_after`
/// ("Number of milliseconds after which the limit resets") and `max_concurrency` ("Number of
/// identify requests allowed per 5 seconds").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionStartLimit {
    pub total: u32,
    pub remaining: u32,
    pub reset_after: Duration,
    pub max_concurrency: u32,
}

impl Default for SessionStartLimit {
    /// Discord's: "Clients are limited to 1000 `IDENTIFY` calls to the websocket in a 24-hour
    /// period" (Events > Gateway > Identifying), one at a time.
    fn default() -> Self {
        Self {
            total: 1000,
            remaining: 1000,
            reset_after: Duration::from_secs(24 * 3600),
            max_concurrency: 1,
        }
    }
}

/// The identify budget as the fake keeps it: the limit and when it resets (fake clock).
#[derive(Clone, Debug)]
pub struct IdentifyBudget {
    pub total: u32,
    pub remaining: u32,
    pub resets_at: Instant,
    pub max_concurrency: u32,
    /// Whether identifies beyond `max_concurrency` per 5 s are refused (Discord's way, on
    /// unless a test turns it off).
    pub enforce_concurrency: bool,
    /// Accepted identifies: (when, `rate_limit_key = shard_id % max_concurrency`).
    pub recent: Vec<(Instant, u32)>,
}

impl IdentifyBudget {
    pub fn new(limit: SessionStartLimit, now: Instant) -> Self {
        Self {
            total: limit.total,
            remaining: limit.remaining,
            resets_at: now + limit.reset_after,
            max_concurrency: limit.max_concurrency.max(1),
            enforce_concurrency: true,
            recent: Vec::new(),
        }
    }

    /// Refills the budget once its reset time passed.
    pub fn refresh(&mut self, now: Instant) {
        if now >= self.resets_at {
            self.remaining = self.total;
            self.resets_at = now + Duration::from_secs(24 * 3600);
        }
    }

    pub fn limit(&self, now: Instant) -> SessionStartLimit {
        SessionStartLimit {
            total: self.total,
            remaining: self.remaining,
            reset_after: self.resets_at.saturating_duration_since(now),
            max_concurrency: self.max_concurrency,
        }
    }
}

/// A gateway session as tests see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GatewaySession {
    pub id: String,
    pub shard: [u32; 2],
    /// Whether a connection is attached now (else it waits for a RESUME).
    pub connected: bool,
}

/// Everything the fake holds, behind one lock.
#[derive(Default)]
pub struct State {
    /// When each invalid request (401, 403, 429) of the last 10 minutes was answered (fake
    /// clock), oldest first.
    pub invalid_requests: std::collections::VecDeque<Instant>,
    /// Invalid requests ever answered.
    pub invalid_total: usize,
    /// Requests refused because the invalid-request limit was exceeded.
    pub invalid_refusals: usize,
    /// Per-route rate limits and their buckets.
    pub rate_limits: super::rest::ratelimits::RateLimits,
    /// IDENTIFY's budget (GET /gateway/bot's `session_start_limit`).
    pub identify_budget: Option<IdentifyBudget>,
    /// Every IDENTIFY received, accepted or not.
    pub identify_attempts: usize,
    /// The bot's token was reset: every REST call answers 401, the gateway closes with 4004.
    pub token_refused: bool,
    /// The old shape: a new session of a shard replaces the shard's older one (off: every
    /// session of a shard receives its events, as Discord does).
    pub replace_sessions: bool,
    pub clock: Clock,
    pub limits: Limits,
    /// How long `enforce_nonce` remembers a nonce ([`NONCE_WINDOW`] unless a test sets it).
    pub nonce_window: Duration,
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
            nonce_window: NONCE_WINDOW,
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

    /// A new id: a snowflake whose timestamp part is the fake clock's time ("Milliseconds since
    /// Discord Epoch, the first second of 2015 or 1420070400000" in bits 63 to 22, Reference >
    /// Snowflakes), above every id given before (the increment bits count up within one
    /// millisecond).
    pub fn fresh_id(&mut self) -> u64 {
        // Worker 1, so that an id is above the bare snowflake of its millisecond, which
        // `after=` excludes.
        let stamp = snowflake_at(self.clock.wall_ms(self.now())) | 1 << 17;
        self.next_id = stamp.max(self.next_id + 1);
        self.next_id
    }

    /// Now on the fake clock: the machine's monotonic clock plus what tests advanced it by.
    pub fn now(&self) -> Instant {
        self.clock.now()
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

    /// The identify budget, made with Discord's defaults on first use and refilled when due.
    pub fn budget(&mut self) -> &mut IdentifyBudget {
        let now = self.now();
        let b = self
            .identify_budget
            .get_or_insert_with(|| IdentifyBudget::new(SessionStartLimit::default(), now));
        b.refresh(now);
        b
    }

    pub fn interaction_by_token(&mut self, token: &str) -> Option<&mut FakeInteraction> {
        self.interactions.values_mut().find(|i| i.token == token)
    }
}
