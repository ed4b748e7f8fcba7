//! What tests change about the world: users, channels, threads, permissions, closed DMs,
//! the bot's removal from the guild, injected faults, time, and the gateway connection.

use std::time::{Duration, Instant};

use serde_json::json;

use super::faults::{FaultCounts, Faults};
use super::payloads;
use super::rest;
use super::state::{ChannelKind, FakeChannel, FakeUser, GUILD_ID};
use super::{gateway, FakeDiscord};

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
        let mut st = self.shared.lock();
        let id = st.fresh_id();
        st.channels.insert(
            id,
            FakeChannel {
                id,
                name: name.to_owned(),
                kind,
                parent_id: None,
                guild_id: Some(guild),
                recipient: None,
                archived: false,
                locked: false,
                deleted: false,
            },
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

    /// A public thread (type 11) in `parent`, as a user would start it.
    pub fn add_thread(&self, parent: u64, name: &str) -> u64 {
        let mut st = self.shared.lock();
        let id = st.fresh_id();
        let thread = match st.channels.get(&parent) {
            Some(p) => rest::new_thread(id, p, name),
            None => panic!("no channel {parent} to start a thread in"),
        };
        st.channels.insert(id, thread);
        id
    }

    /// The channel as the fake holds it (threads the bot started included).
    pub fn channel(&self, id: u64) -> Option<FakeChannel> {
        self.shared.lock().channels.get(&id).cloned()
    }

    /// Archives a thread (as Discord does after inactivity or a moderator does).
    pub fn archive_thread(&self, id: u64) {
        if let Some(c) = self.shared.lock().channels.get_mut(&id) {
            c.archived = true;
        }
    }

    /// Locks a thread (a moderator's act); archive it too for a locked archived thread.
    pub fn lock_thread(&self, id: u64) {
        if let Some(c) = self.shared.lock().channels.get_mut(&id) {
            c.locked = true;
        }
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

    /// Deletes a channel (and its threads): requests to it get 404 10003 Unknown Channel and
    /// the gateway sends CHANNEL_DELETE ("Channel was deleted", Events > Gateway Events).
    pub fn delete_channel(&self, id: u64) {
        let mut events = Vec::new();
        {
            let mut st = self.shared.lock();
            let doomed: Vec<u64> = st
                .channels
                .values()
                .filter(|c| c.id == id || c.parent_id == Some(id))
                .map(|c| c.id)
                .collect();
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
