//! What tests change about the world: users, channels, threads, permissions, closed DMs,
//! the bot's removal from the guild, injected faults, time, and the gateway connection.

use std::time::{Duration, Instant};

use serde_json::json;

use super::faults::{FaultCounts, Faults};
use super::payloads;
use super::rest;
use super::rest::ratelimits::RouteLimit;
use super::state::{snowflake_at, ChannelKind, FakeChannel, FakeUser, Limits, GUILD_ID};
use super::{gateway, FakeDiscord, Shared};

/// Gateway close code 4000, "Unknown error … Try reconnecting?": the client may resume
/// (Topics > Opcodes and Status Codes > Gateway Close Event Codes).
pub const CLOSE_UNKNOWN_ERROR: u16 = 4000;
/// Gateway close code 4009, "Session timed out. Reconnect and start a new one.".
pub const CLOSE_SESSION_TIMED_OUT: u16 = 4009;

impl FakeDiscord {
    pub fn add_user(&self, id: u64, name: &str) -> FakeUser {
        let u = FakeUser::new(id, name);
        self.shared.lock().users.insert(id, u.clone());
        u
    }

    fn add(&self, guild: u64, name: &str, kind: ChannelKind) -> u64 {
        self.add_in(guild, name, kind, None)
    }

    fn add_in(&self, guild: u64, name: &str, kind: ChannelKind, parent: Option<u64>) -> u64 {
        let mut st = self.shared.lock();
        if let Some(p) = parent {
            match st.channels.get(&p) {
                Some(c) if c.kind == ChannelKind::Category && c.guild_id == Some(guild) => {}
                other => panic!("{p} is not a category of guild {guild}: {other:?}"),
            }
        }
        let id = st.fresh_id();
        let now = st.now();
        st.channels.insert(
            id,
            FakeChannel::new(id, name, kind, Some(guild), parent, now),
        );
        id
    }

    /// A text channel of the guild ([`GUILD_ID`]).
    pub fn add_channel(&self, name: &str) -> u64 {
        self.add(GUILD_ID, name, ChannelKind::Text)
    }

    /// A text channel of another guild, which exists from then on: its events go to the
    /// shard `(guild >> 22) % num_shards` (see `shards.rs`).
    pub fn add_guild_channel(&self, guild: u64, name: &str) -> u64 {
        self.add(guild, name, ChannelKind::Text)
    }

    /// A voice channel: no text messages, no threads.
    pub fn add_voice_channel(&self, name: &str) -> u64 {
        self.add(GUILD_ID, name, ChannelKind::Voice)
    }

    /// A category (GUILD_CATEGORY, type 4) of the guild: it holds channels
    /// ([`FakeDiscord::add_channel_in`]), no messages and no threads.
    pub fn add_category(&self, name: &str) -> u64 {
        self.add(GUILD_ID, name, ChannelKind::Category)
    }

    /// A text channel inside `category`: its `parent_id` is the category (in GET
    /// /channels/{id}, in events and in the interaction's partial `channel`), and it holds the
    /// category's permissions unless set itself.
    pub fn add_channel_in(&self, category: u64, name: &str) -> u64 {
        self.add_of(ChannelKind::Text, name, Some(category))
    }

    /// A channel of `kind` in the guild, inside `category` if given. Threads and DMs are made
    /// otherwise ([`FakeDiscord::add_thread`], the bot's own REST calls).
    pub fn add_of(&self, kind: ChannelKind, name: &str, category: Option<u64>) -> u64 {
        assert!(
            !kind.is_thread() && kind != ChannelKind::Dm,
            "add_of makes guild channels, not {kind:?}"
        );
        let guild = category
            .and_then(|c| self.shared.lock().channels.get(&c).and_then(|c| c.guild_id))
            .unwrap_or(GUILD_ID);
        self.add_in(guild, name, kind, category)
    }

    /// An announcement channel (GUILD_ANNOUNCEMENT, type 5): messages as in a text channel;
    /// threads of type 10 (ANNOUNCEMENT_THREAD) only.
    pub fn add_announcement_channel(&self, name: &str) -> u64 {
        self.add(GUILD_ID, name, ChannelKind::Announcement)
    }

    /// A forum channel (GUILD_FORUM, type 15): no messages of its own; a thread needs a first
    /// message (POST /channels/{id}/threads with `message`).
    pub fn add_forum_channel(&self, name: &str) -> u64 {
        self.add(GUILD_ID, name, ChannelKind::Forum)
    }

    /// A thread in `parent`, as a user would start it: PUBLIC_THREAD (11) in a text or forum
    /// channel, ANNOUNCEMENT_THREAD (10) in an announcement channel. Panics elsewhere.
    pub fn add_thread(&self, parent: u64, name: &str) -> u64 {
        let kind = match self.channel(parent).map(|c| c.kind) {
            Some(ChannelKind::Announcement) => ChannelKind::AnnouncementThread,
            Some(ChannelKind::Text | ChannelKind::Forum) => ChannelKind::PublicThread,
            other => panic!("no thread can grow in {parent} ({other:?})"),
        };
        self.add_thread_of(parent, name, kind)
    }

    /// A private thread (PRIVATE_THREAD, type 12) in the text channel `parent`.
    pub fn add_private_thread(&self, parent: u64, name: &str) -> u64 {
        self.add_thread_of(parent, name, ChannelKind::PrivateThread)
    }

    fn add_thread_of(&self, parent: u64, name: &str, kind: ChannelKind) -> u64 {
        let mut st = self.shared.lock();
        let id = st.fresh_id();
        let now = st.now();
        let thread = match st.channels.get(&parent) {
            Some(p) => rest::new_thread(id, p, name, kind, now),
            None => panic!("no channel {parent} to start a thread in"),
        };
        st.channels.insert(id, thread);
        id
    }

    /// The channel as the fake holds it (threads the bot started included), with threads
    /// archived that have been inactive past their `auto_archive_duration` on the fake clock.
    pub fn channel(&self, id: u64) -> Option<FakeChannel> {
        archive_due(&self.shared);
        self.shared.lock().channels.get(&id).cloned()
    }

    /// Whether thread `id` is archived now (on the fake clock); `None` for no such thread.
    pub fn thread_archived(&self, id: u64) -> Option<bool> {
        self.channel(id)
            .filter(FakeChannel::is_thread)
            .map(|c| c.archived)
    }

    /// Archives a thread (as Discord does after inactivity or a moderator does); the gateway
    /// sends THREAD_UPDATE.
    pub fn archive_thread(&self, id: u64) {
        self.set_thread(id, |c, now| {
            c.archived = true;
            c.archive_changed = now;
        });
    }

    /// Locks a thread (a moderator's act); archive it too for a locked archived thread. The
    /// gateway sends THREAD_UPDATE.
    pub fn lock_thread(&self, id: u64) {
        self.set_thread(id, |c, _| c.locked = true);
    }

    fn set_thread(&self, id: u64, change: impl FnOnce(&mut FakeChannel, Instant)) {
        let payload = {
            let mut st = self.shared.lock();
            let now = st.now();
            let Some(c) = st.channels.get_mut(&id) else {
                return;
            };
            change(c, now);
            let c = c.clone();
            (c.is_thread(), c.guild_id, payloads::channel(&st, &c))
        };
        if let (true, guild, payload) = payload {
            gateway::dispatch(&self.shared, guild, "THREAD_UPDATE", payload);
        }
    }

    /// Moves the fake clock forward by `by`, as if that much time passed: interaction tokens
    /// and the 3 s first-response limit, the nonce window, the identify budget's reset, the
    /// invalid-request window, rate-limit buckets and new snowflakes all follow it, and
    /// threads inactive for their `auto_archive_duration` archive (THREAD_UPDATE on the
    /// gateway).
    pub fn advance(&self, by: Duration) {
        self.shared.lock().clock.offset += by;
        archive_due(&self.shared);
        self.shared.changed();
    }

    /// The fake clock's time now (an `Instant` comparable with the fake's records).
    pub fn now(&self) -> Instant {
        self.shared.lock().now()
    }

    /// The Unix time in milliseconds on the fake clock now.
    pub fn now_unix_ms(&self) -> u64 {
        let st = self.shared.lock();
        st.clock.wall_ms(st.now())
    }

    /// The smallest snowflake of the fake clock's time now: `after=` it finds the messages
    /// created from now on.
    pub fn snowflake_now(&self) -> u64 {
        snowflake_at(self.now_unix_ms())
    }

    /// Sets the bot's permission bits in `channel` (threads inherit their parent's unless set
    /// themselves). See [`super::permissions`].
    pub fn set_permissions(&self, channel: u64, bits: u64) {
        self.shared.lock().permissions.insert(channel, bits);
    }

    /// `user` accepts no DMs from the bot: opening the DM works, sending fails with 50007.
    pub fn close_dms(&self, user: &FakeUser) {
        self.shared.lock().closed_dms.insert(user.id);
    }

    /// Deletes a channel (and its threads; a category's channels stay, uncategorized): requests to it get 404 10003 Unknown Channel and
    /// the gateway sends CHANNEL_DELETE ("Channel was deleted", Events > Gateway Events).
    pub fn delete_channel(&self, id: u64) {
        let mut events = Vec::new();
        {
            let mut st = self.shared.lock();
            let doomed: Vec<u64> = st
                .channels
                .values()
                .filter(|c| c.id == id || (c.is_thread() && c.parent_id == Some(id)))
                .map(|c| c.id)
                .collect();
            // The channels of a deleted category stay, without a category (Discord moves
            // them out of it).
            for c in st.channels.values_mut() {
                if !c.is_thread() && c.parent_id == Some(id) {
                    c.parent_id = None;
                }
            }
            for c in doomed {
                if let Some(ch) = st.channels.get_mut(&c) {
                    ch.deleted = true;
                }
                if let Some(ch) = st.channels.get(&c) {
                    let event = if ch.is_thread() {
                        "THREAD_DELETE"
                    } else {
                        "CHANNEL_DELETE"
                    };
                    let payload = payloads::channel(&st, ch);
                    if let Err(e) = payloads::check_channel(&payload) {
                        tracing::error!(target: "fake_discord", "{e}");
                    }
                    events.push((event, ch.guild_id, payload));
                }
            }
        }
        // The deleted channel last, after its threads.
        events.sort_by_key(|(e, _, _)| *e == "CHANNEL_DELETE");
        for (event, guild, payload) in events {
            gateway::dispatch(&self.shared, guild, event, payload);
        }
    }

    /// The bot is removed from the guild: the gateway sends GUILD_DELETE without
    /// `unavailable` ("If the `unavailable` field is not set, the user was removed from the
    /// guild", Events > Gateway Events > Guild Delete), and requests to the guild's channels
    /// fail with 403 50001 Missing Access.
    pub fn remove_bot_from_guild(&self) {
        self.shared.lock().bot_in_guild = false;
        gateway::dispatch(
            &self.shared,
            Some(GUILD_ID),
            "GUILD_DELETE",
            json!({"id": GUILD_ID.to_string()}),
        );
    }

    /// Starts injecting faults into the requests `faults.routes` selects.
    pub fn set_faults(&self, faults: Faults) {
        let mut st = self.shared.lock();
        st.faults = Some(faults);
        st.fault_counter = 0;
    }

    /// Stops injecting faults (the counts stay).
    pub fn clear_faults(&self) {
        self.shared.lock().faults = None;
    }

    /// Faults injected so far, by kind.
    pub fn fault_counts(&self) -> FaultCounts {
        self.shared.lock().fault_counts.clone()
    }

    /// Makes every interaction `by` older, as if dispatched that much earlier (latencies are
    /// kept): past 15 minutes its token no longer works.
    pub fn age_interactions(&self, by: Duration) {
        let mut st = self.shared.lock();
        for i in st.interactions.values_mut() {
            i.dispatched = earlier(i.dispatched, by);
            if let Some((t, kind)) = i.first_response {
                i.first_response = Some((earlier(t, by), kind));
            }
        }
    }

    /// Sets how long `enforce_nonce` remembers a nonce, on the fake clock (default
    /// [`super::NONCE_WINDOW`], five minutes: Discord says only "the past few minutes").
    pub fn set_nonce_window(&self, window: Duration) {
        self.shared.lock().nonce_window = window;
    }

    /// The nonce window in force.
    pub fn nonce_window(&self) -> Duration {
        self.shared.lock().nonce_window
    }

    /// Sets the limits the fake enforces (active threads, upload sizes, invalid requests);
    /// `Limits::default()` holds Discord's.
    pub fn set_limits(&self, limits: Limits) {
        self.shared.lock().limits = limits;
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.shared.lock().limits.clone()
    }

    /// Invalid requests (answers 401, 403, or 429 without `X-RateLimit-Scope: shared`) in the
    /// last 10 minutes of the fake clock ("Invalid Request Limit", Topics > Rate Limits).
    pub fn invalid_requests(&self) -> usize {
        rest::invalid::recent(&mut self.shared.lock())
    }

    /// Invalid requests ever answered.
    pub fn invalid_requests_total(&self) -> usize {
        self.shared.lock().invalid_total
    }

    /// Requests refused with 429 because the invalid-request limit was exceeded.
    pub fn invalid_request_refusals(&self) -> usize {
        self.shared.lock().invalid_refusals
    }

    /// Whether empty rate-limit buckets refuse requests with 429, as Discord does. Off by
    /// default (the suites written before it send bursts); the headers are sent either way.
    pub fn enforce_rate_limits(&self, on: bool) {
        self.shared.lock().rate_limits.enforce = on;
    }

    /// Sets the limit of a route's buckets (one of the names in
    /// [`super::rate_limit_routes`]): `limit` requests per `per` for each top-level resource.
    pub fn set_rate_limit(&self, route: &'static str, limit: u32, per: Duration) {
        self.shared
            .lock()
            .rate_limits
            .routes
            .insert(route, RouteLimit { limit, per });
    }

    /// Requests refused with 429 for an empty rate-limit bucket.
    pub fn rate_limited(&self) -> usize {
        self.shared.lock().rate_limits.refused
    }

    /// Makes every message `by` older, e.g. to step past the nonce window.
    pub fn age_messages(&self, by: Duration) {
        let mut st = self.shared.lock();
        for m in st.messages.iter_mut() {
            m.received_at = earlier(m.received_at, by);
        }
    }

    /// Closes the bot's gateway connection with close code 4000, as Discord may at any time;
    /// the session stays resumable. False when no connection is open.
    pub fn drop_gateway(&self) -> bool {
        self.drop_gateway_with(CLOSE_UNKNOWN_ERROR)
    }

    /// Closes the bot's gateway connection with `code` (e.g. [`CLOSE_SESSION_TIMED_OUT`],
    /// after which the client identifies again).
    pub fn drop_gateway_with(&self, code: u16) -> bool {
        gateway::drop_connection(&self.shared, code)
    }
}

fn earlier(t: Instant, by: Duration) -> Instant {
    t.checked_sub(by)
        .expect("the monotonic clock starts later than the time to step back")
}

/// Archives the threads whose inactivity reached their `auto_archive_duration` on the fake
/// clock: "Threads automatically archive after a period of inactivity" (Topics > Threads >
/// Active & Archived Threads; the duration is the thread's `auto_archive_duration`, "minutes of
/// inactivity", Resources > Channel > Start Thread). Each sends THREAD_UPDATE ("Sent when a
/// thread is updated", Events > Gateway Events).
pub(crate) fn archive_due(shared: &Shared) {
    let events: Vec<(Option<u64>, serde_json::Value)> = {
        let mut st = shared.lock();
        let now = st.now();
        let due: Vec<u64> = st
            .channels
            .values()
            .filter(|c| c.is_thread() && !c.archived && !c.deleted && c.archives_at() <= now)
            .map(|c| c.id)
            .collect();
        due.into_iter()
            .filter_map(|id| {
                let c = st.channels.get_mut(&id)?;
                c.archived = true;
                c.archive_changed = c.archives_at();
                let c = c.clone();
                Some((c.guild_id, payloads::channel(&st, &c)))
            })
            .collect()
    };
    for (guild, payload) in events {
        gateway::dispatch(shared, guild, "THREAD_UPDATE", payload);
    }
}
