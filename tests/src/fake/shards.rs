//! Sharding as Discord does it (Topics > Gateway > Sharding,
//! <https://discord.com/developers/docs/events/gateway#sharding>):
//!
//! - "To enable sharding on a connection, the app should send the `shard` array in the Identify
//!   payload. The first item in this array should be the zero-based integer value of the
//!   current shard, while the second represents the total number of shards." Without it the
//!   connection is shard `[0, 1]`, which receives everything.
//! - "To calculate which events will be sent to which shard, use the following formula:
//!   `shard_id = (guild_id >> 22) % num_shards`"; "DMs will only be sent to shard 0."
//! - An invalid shard is refused with close code 4010, "Invalid shard: You sent us an invalid
//!   shard when identifying." (Topics > Opcodes and Status Codes > Gateway Close Event Codes).
//! - GET /gateway/bot answers "`shards`: Recommended number of shards to use when connecting"
//!   (Topics > Gateway > Get Gateway Bot); the fake recommends what a test set, 1 by default.

use serde_json::Value;

use super::state::{GatewaySession, IdentifyBudget, SessionStartLimit, State, GUILD_ID};
use super::{gateway, FakeDiscord, WAIT};

/// Gateway close code 4010, "Invalid shard"; the client should not reconnect with it.
pub const CLOSE_INVALID_SHARD: u16 = 4010;

/// The shard an Identify's `d` asks for: `[shard_id, num_shards]`, `[0, 1]` when absent. Not
/// two integers, no shards at all, or a shard id not below the count: the reason it is invalid.
pub fn identified_shard(identify: &Value) -> Result<[u32; 2], String> {
    let shard = &identify["shard"];
    if shard.is_null() {
        return Ok([0, 1]);
    }
    let pair = shard
        .as_array()
        .filter(|a| a.len() == 2)
        .and_then(|a| {
            let id = u32::try_from(a[0].as_u64()?).ok()?;
            let total = u32::try_from(a[1].as_u64()?).ok()?;
            Some([id, total])
        })
        .ok_or_else(|| format!("Identify's shard {shard} is not [shard_id, num_shards]"))?;
    match pair {
        [_, 0] => Err("Identify's shard has num_shards 0".into()),
        [id, total] if id >= total => Err(format!(
            "Identify's shard id {id} is not below num_shards {total}"
        )),
        ok => Ok(ok),
    }
}

/// The shard of `guild` among `num_shards`: `(guild_id >> 22) % num_shards`.
pub fn shard_of(guild: u64, num_shards: u32) -> u32 {
    // The remainder is below num_shards, a u32.
    ((guild >> 22) % u64::from(num_shards.max(1))) as u32
}

/// Whether a session identified as `shard` receives an event of `guild` (`None`: a DM, which
/// only shard 0 receives).
pub fn receives(shard: [u32; 2], guild: Option<u64>) -> bool {
    match guild {
        Some(g) => shard_of(g, shard[1]) == shard[0],
        None => shard[0] == 0,
    }
}

/// A guild id (a snowflake of about the time of [`GUILD_ID`]) whose events go to `shard` of
/// `num_shards`, for tests that need a guild on a given shard.
pub fn guild_on_shard(shard: u32, num_shards: u32) -> u64 {
    let n = u64::from(num_shards.max(1));
    let stamp = (GUILD_ID >> 22) / n * n + u64::from(shard);
    (stamp << 22) | 2
}

/// The guilds a session of `shard` is told about in READY: the fake's guilds on that shard
/// ("Guilds that are not on your shard will not appear", as the feature was announced).
pub fn guilds_on(st: &State, shard: [u32; 2]) -> Vec<u64> {
    let mut guilds: Vec<u64> = st.channels.values().filter_map(|c| c.guild_id).collect();
    guilds.push(GUILD_ID);
    guilds.sort_unstable();
    guilds.dedup();
    guilds.retain(|g| receives(shard, Some(*g)));
    guilds
}

impl FakeDiscord {
    /// Sets the shard count GET /gateway/bot recommends.
    pub fn set_recommended_shards(&self, shards: u32) {
        self.shared.lock().recommended_shards = shards;
    }

    /// The shards (`[shard_id, num_shards]`) with a connection attached now, in order; a shard
    /// with several sessions appears once for each.
    pub fn connected_shards(&self) -> Vec<[u32; 2]> {
        let mut v: Vec<[u32; 2]> = self
            .shared
            .lock()
            .sessions
            .iter()
            .filter(|s| s.tx.is_some())
            .map(|s| s.shard)
            .collect();
        v.sort_unstable();
        v
    }

    /// Waits until every shard of `shards` is connected (a client starts its shards one after
    /// another, five seconds apart in serenity).
    pub async fn wait_shards(&self, shards: &[[u32; 2]]) -> Result<(), String> {
        self.shared
            .wait_for(WAIT, &format!("shards {shards:?} to connect"), |st| {
                shards
                    .iter()
                    .all(|want| {
                        st.sessions
                            .iter()
                            .any(|s| s.shard == *want && s.tx.is_some())
                    })
                    .then_some(())
            })
            .await
    }

    /// Every gateway session the fake holds: its id, shard, and whether a connection is
    /// attached (a session whose connection dropped waits for a RESUME).
    pub fn gateway_sessions(&self) -> Vec<GatewaySession> {
        self.shared
            .lock()
            .sessions
            .iter()
            .map(|s| GatewaySession {
                id: s.id.clone(),
                shard: s.shard,
                connected: s.tx.is_some(),
            })
            .collect()
    }

    /// Waits until `n` sessions of `shard` have a connection attached.
    pub async fn wait_sessions(&self, shard: [u32; 2], n: usize) -> Result<(), String> {
        self.shared
            .wait_for(WAIT, &format!("{n} sessions of shard {shard:?}"), |st| {
                let live = st
                    .sessions
                    .iter()
                    .filter(|s| s.shard == shard && s.tx.is_some())
                    .count();
                (live >= n).then_some(())
            })
            .await
    }

    /// The old shape, opt-in: a new session of a shard replaces the shard's older one (its
    /// connection stays open but receives nothing more). Off by default: "You can establish
    /// multiple sessions with the same `[shard_id, num_shards]`" (Events > Gateway > Sharding)
    /// and each receives the shard's events.
    pub fn replace_sessions_per_shard(&self, on: bool) {
        self.shared.lock().replace_sessions = on;
    }

    /// Every IDENTIFY received, refused ones included ([`FakeDiscord::identifies`] counts
    /// those that got READY).
    pub fn identify_attempts(&self) -> usize {
        self.shared.lock().identify_attempts
    }

    /// GET /gateway/bot's `session_start_limit` now (`reset_after` on the fake clock).
    pub fn session_start_limit(&self) -> SessionStartLimit {
        let mut st = self.shared.lock();
        let now = st.now();
        st.budget().limit(now)
    }

    /// Sets the identify budget: `total`, `remaining`, when it resets (`reset_after` from now on
    /// the fake clock, after which `remaining` is `total` again) and `max_concurrency`
    /// (identifies per 5 s, by `shard_id % max_concurrency`).
    pub fn set_session_start_limit(&self, limit: SessionStartLimit) {
        let mut st = self.shared.lock();
        let now = st.now();
        let keep = st.budget().enforce_concurrency;
        let mut b = IdentifyBudget::new(limit, now);
        b.enforce_concurrency = keep;
        st.identify_budget = Some(b);
    }

    /// Whether identifies beyond `max_concurrency` per 5 s get Invalid Session (on by default,
    /// as Discord does).
    pub fn enforce_identify_concurrency(&self, on: bool) {
        self.shared.lock().budget().enforce_concurrency = on;
    }

    /// The bot's token is reset (as Discord does when the identify budget runs out, or an
    /// operator regenerates it): every open gateway connection closes with 4004 Authentication
    /// failed and its session ends, every IDENTIFY or RESUME is closed with 4004, and every
    /// REST call answers 401 `{"message": "401: Unauthorized", "code": 0}`.
    pub fn refuse_token(&self) {
        gateway::reset_token(&self.shared);
    }

    /// The token works again (the operator put the new one in place).
    pub fn accept_token(&self) {
        self.shared.lock().token_refused = false;
    }

    /// Whether the token is refused now.
    pub fn token_refused(&self) -> bool {
        self.shared.lock().token_refused
    }

    /// Close codes the fake's gateway sent, in order (4010 for an invalid shard).
    pub fn gateway_closes(&self) -> Vec<u16> {
        self.shared.lock().gateway_closes.clone()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn identify_shards_are_checked() {
        assert_eq!(identified_shard(&json!({"token": "t"})), Ok([0, 1]));
        assert_eq!(identified_shard(&json!({"shard": [1, 2]})), Ok([1, 2]));
        for bad in [
            json!([2, 2]),
            json!([5, 2]),
            json!([0, 0]),
            json!([0]),
            json!([0, 1, 2]),
            json!([-1, 2]),
            json!(["0", "2"]),
            json!("0,2"),
        ] {
            assert!(identified_shard(&json!({ "shard": bad })).is_err(), "{bad}");
        }
    }

    #[test]
    fn guilds_and_dms_are_routed_as_discord_routes_them() {
        // Serenity's own formula agrees.
        for n in [1, 2, 3, 7] {
            for s in 0..n {
                let g = guild_on_shard(s, n);
                assert_eq!(shard_of(g, n), s);
                let theirs = serenity::utils::shard_id(serenity::all::GuildId::new(g), n);
                assert_eq!(theirs, s);
                assert!(receives([s, n], Some(g)));
                assert_eq!(receives([s, n], None), s == 0);
            }
        }
        // One shard of one receives everything.
        assert!(receives([0, 1], Some(GUILD_ID)));
        assert!(receives([0, 1], None));
    }
}
