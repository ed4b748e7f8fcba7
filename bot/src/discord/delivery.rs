//! The delivery worker: sends the outbox's entries to Discord, in order per channel (and per
//! user for direct messages), and removes each one only after Discord accepted it.
//!
//! - **At least once to Discord, once to players.** Every channel message carries a nonce made
//!   from the store's identity, the entry and the part, with `enforce_nonce`: Discord then
//!   answers a repeated send (after a lost response, a restart, a kill) with the message it
//!   already created instead of posting it again, but only "in the past few minutes"
//!   (Resources > Message > Create Message). So before a part's first request the entry
//!   records, flushed, that a request for it may be under way ([`crate::outbox::Sending`]);
//!   a part in that state whose first request is older than a safe part of the nonce window
//!   ([`NonceWindow`]) is looked for among the channel's messages since then, and sent only
//!   when it is not there (see `docs/discord.md`, "How every ping arrives", for the argument and
//!   its limits). An entry an interaction may have carried as its first response is checked
//!   against that response first (while its token is valid), by what the message carries
//!   rather than by its text.
//! - **A refused token stops delivery.** A 401 means the token is no longer valid: the worker
//!   logs it once and sends nothing more until the process restarts, instead of retrying
//!   entry after entry, since Discord restricts an IP that makes 10,000 requests answered
//!   401, 403 or 429 in 10 minutes (Topics > Rate Limits > Invalid Request Limit; those
//!   answers are counted in `tokar_discord_invalid_requests_total`).
//! - **Transient failures wait and retry**: 5xx, 429 and network errors, with exponential
//!   backoff stored in the entry, so a restart keeps the pace. A failed entry holds back the
//!   rest of its lane, so a channel never sees its messages out of order.
//! - **Permanent failures get a human answer**: a direct message that cannot be sent (closed
//!   DMs, 50007) becomes a line in the game's channel asking the player to look with a
//!   command; a channel that is gone or closed to the bot (10003, 50001, 50013, and a locked
//!   thread's 50083 and 160005) is reported to the table, which tells the players and holds
//!   the game's messages until it has a channel; anything else Discord refuses for good is
//!   logged with its content and dropped, so that one bad message cannot block a channel
//!   forever.
//!
//! - **Under Discord's global limit.** A bot may make 50 requests a second in all, across
//!   every process it runs (<https://docs.discord.com/developers/topics/rate-limits#global-rate-limit>;
//!   interaction responses are not counted). The worker paces its requests with a token bucket
//!   at [`GLOBAL_BUDGET`] a second times this process's share of the bot's shards, so that
//!   processes sharing the shards share the budget too, and a burst (a league's start, a day's
//!   reminders) waits in the outbox instead of being refused.
//!
//! The worker starts only once the gateway is ready (a token Discord refuses sends nothing),
//! and stops when told, after a last drain bounded in time.

use std::collections::HashSet;
use std::num::{NonZeroU32, NonZeroU64};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use poise::serenity_prelude as serenity;
use tokio::sync::watch;
use tracing::{debug, error, info, warn};

use super::outgoing::Outgoing;
use crate::outbox::{backoff, OutboxEntry, Sending, Target};

mod reconcile;
use crate::table::{Reply, Table, UserRef};
pub use reconcile::NonceWindow;
use reconcile::{real_now, Claimed};

/// An interaction token is valid this long (Discord: 15 minutes); the check of a carried entry
/// stops a minute short.
const TOKEN_LIFE_MS: u64 = 14 * 60 * 1000;
/// The requests a second the worker makes when it runs every shard: under Discord's 50, which
/// the commands' own requests (deferrals, follow-ups) share.
pub(crate) const GLOBAL_BUDGET: u32 = 40;

/// The pace of one process: its share of [`GLOBAL_BUDGET`], as its shards are of the bot's
/// (`shards` of `total`), at least one request a second.
pub(crate) fn requests_per_second(shards: u32, total: u32) -> NonZeroU32 {
    let share = u64::from(GLOBAL_BUDGET) * u64::from(shards) / u64::from(total.max(1));
    NonZeroU32::new(share.clamp(1, u64::from(GLOBAL_BUDGET)) as u32).unwrap_or(NonZeroU32::MIN)
}

type Pace = governor::DefaultDirectRateLimiter;

/// Entries read per pass.
const BATCH: usize = 64;
/// How often to look again when nothing wakes the worker (retries that came due).
const IDLE: Duration = Duration::from_millis(500);

/// What became of one attempt.
#[derive(Debug)]
enum Failure {
    /// Try again after a backoff.
    Retry(&'static str, String),
    /// The user does not accept direct messages from the bot.
    ClosedDms,
    /// The channel is gone or closed to the bot.
    ChannelLost { code: isize, detail: String },
    /// Discord refuses this message for good.
    Rejected { code: isize, detail: String },
    /// Discord refused the bot's token (401): nothing is sent until the process restarts.
    Unauthorized(String),
}

/// Counts an answer Discord holds against the bot's IP (401, 403, 429).
pub(super) fn count_invalid(status: u16) {
    crate::metrics::invalid_request(status);
}

/// Classifies a failed request and counts it if Discord counts it as invalid.
fn failure(e: &serenity::Error) -> Failure {
    if let serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) = e {
        count_invalid(r.status_code.as_u16());
    }
    classify(e)
}

/// Whether a failed request may have created its message: its answer was a 5xx (Discord may
/// have done the work before failing), or it was lost (a timeout, a connection closed after
/// the request was written), or it was unreadable. A request that was never sent (no
/// connection) or that Discord refused (4xx, 429) created nothing.
fn may_have_created(e: &serenity::Error) -> bool {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            r.status_code.is_server_error()
        }
        serenity::Error::Http(serenity::HttpError::Request(re)) => {
            !(re.is_connect() || re.is_builder())
        }
        _ => true,
    }
}

fn classify(e: &serenity::Error) -> Failure {
    use serenity::HttpError;
    let serenity::Error::Http(http) = e else {
        return Failure::Rejected {
            code: 0,
            detail: e.to_string(),
        };
    };
    match http {
        HttpError::UnsuccessfulRequest(r) => classify_answer(
            r.status_code.as_u16(),
            r.error.code,
            format!(
                "{} {} {}",
                r.status_code.as_u16(),
                r.error.code,
                r.error.message
            ),
        ),
        HttpError::Request(_) => Failure::Retry("network", http.to_string()),
        other => Failure::Rejected {
            code: 0,
            detail: other.to_string(),
        },
    }
}

/// What an error answer from Discord means for an entry, by HTTP status and JSON error code.
fn classify_answer(status: u16, code: isize, detail: String) -> Failure {
    match (status, code) {
        // "401 responses are avoided by ... stopping further requests after a token becomes
        // invalid" (Topics > Rate Limits > Invalid Request Limit). The messages stay stored.
        (401, _) => Failure::Unauthorized(detail),
        (429, _) => Failure::Retry("rate_limited", detail),
        (500..=599, _) => Failure::Retry("server_error", detail),
        (_, 50007) => Failure::ClosedDms,
        // Gone, closed to the bot, or a locked archived thread (50083, 160005): the
        // game needs another channel.
        (_, 10003 | 50001 | 50013 | 50083 | 160005) => Failure::ChannelLost { code, detail },
        _ => Failure::Rejected { code, detail },
    }
}

/// The nonce of one part of an entry: at most 25 characters, as Discord allows.
fn nonce(store: u64, entry: u64, part: usize) -> String {
    // 6 + 1 + at most 12 + 1 + the part's digits: within 25 for any message Tokar splits.
    format!(
        "{:06x}.{:x}.{part}",
        store & 0xff_ffff,
        entry & 0xffff_ffff_ffff
    )
}

/// Runs the worker until `stop` turns true; then delivers what it can within `drain`. Parts
/// that may have reached Discord are looked for as `window` says before they are sent again.
pub(crate) fn spawn(
    table: Table,
    http: Arc<serenity::Http>,
    mut stop: watch::Receiver<bool>,
    drain: Duration,
    retry_first: Duration,
    pace: NonZeroU32,
    window: NonceWindow,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let worker = Worker {
            table,
            http,
            retry_first,
            pace: Pace::direct(governor::Quota::per_second(pace)),
            window,
            me: OnceLock::new(),
            claimed: Mutex::new(Claimed::default()),
            unauthorized: AtomicBool::new(false),
        };
        info!(requests_per_second = pace, "outbox delivery started");
        loop {
            let progressed = worker.pass().await;
            if *stop.borrow() {
                break;
            }
            if worker.unauthorized.load(Ordering::SeqCst) {
                // Nothing more is sent; the entries stay stored for the next start.
                while !*stop.borrow() {
                    if stop.changed().await.is_err() {
                        break;
                    }
                }
                break;
            }
            if !progressed {
                tokio::select! {
                    _ = worker.table.outbox_wait() => {}
                    _ = tokio::time::sleep(IDLE) => {}
                    _ = stop.changed() => {}
                }
            }
        }
        let until = tokio::time::Instant::now() + drain;
        while tokio::time::Instant::now() < until && !worker.unauthorized.load(Ordering::SeqCst) {
            if worker.table.outbox_due(1).await.is_empty() {
                break;
            }
            if !worker.pass().await {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
        let left = worker.table.outbox_len().await;
        if left == 0 {
            info!("outbox drained");
        } else {
            warn!(
                left,
                "stopping with messages still to deliver; they go out at the next start"
            );
        }
    })
}

struct Worker {
    table: Table,
    http: Arc<serenity::Http>,
    /// The first retry's wait (`DiscordSettings::retry_first`).
    retry_first: Duration,
    /// Taken before each request to Discord's REST API.
    pace: Pace,
    /// When a part is looked for before it is sent again.
    window: NonceWindow,
    /// The bot's user id, learnt from the first message Discord returns (or asked for).
    me: OnceLock<serenity::UserId>,
    /// Messages already taken by a delivery.
    claimed: Mutex<Claimed>,
    /// Discord refused the token: nothing more is sent.
    unauthorized: AtomicBool,
}

impl Worker {
    /// Delivers what is due; true when something was delivered.
    async fn pass(&self) -> bool {
        if self.unauthorized.load(Ordering::SeqCst) {
            return false;
        }
        let due = self.table.outbox_due(BATCH).await;
        let now = self.table.now();
        let oldest = due.iter().map(|e| e.created_at).min().unwrap_or(now);
        crate::metrics::outbox(
            self.table.outbox_len().await,
            Duration::from_millis(now.saturating_sub(oldest)),
        );
        let mut held = HashSet::new();
        let mut progressed = false;
        for entry in due {
            let lane = entry.lane();
            if held.contains(&lane) || self.unauthorized.load(Ordering::SeqCst) {
                continue;
            }
            if self.deliver(entry).await {
                progressed = true;
            } else {
                held.insert(lane);
            }
        }
        progressed
    }

    /// One entry; true when it is done with (delivered, replaced or dropped).
    async fn deliver(&self, mut entry: OutboxEntry) -> bool {
        if entry.thread().is_some() {
            // Listing the server's active threads, then creating one.
            self.pace
                .until_n_ready(NonZeroU32::new(2).unwrap_or(NonZeroU32::MIN))
                .await
                .ok();
            return match super::threads::open(&self.table, &self.http, &entry).await {
                super::threads::Opened::Done => true,
                super::threads::Opened::Refused(why) => {
                    self.table.thread_refused(entry.id, why).await.is_ok()
                }
                super::threads::Opened::Retry(e) => {
                    let reply = entry.to_reply(Vec::new());
                    // Counted as invalid where the answer was read (`threads::refusal`).
                    let f = match classify(&e) {
                        f @ (Failure::Retry(..) | Failure::Unauthorized(_)) => f,
                        other => Failure::Retry("thread", format!("{other:?}")),
                    };
                    self.failed(entry, &reply, f).await
                }
            };
        }
        let images = self.table.outbox_images(&entry).await;
        let reply = entry.to_reply(images);
        let parts = Outgoing::split(&reply);
        match self.send(&mut entry, &reply, parts).await {
            Ok(()) => {
                let age = self.table.now().saturating_sub(entry.created_at);
                crate::metrics::delivered(Duration::from_millis(age));
                if let Err(e) = self.table.outbox_delivered(entry.id, Vec::new()).await {
                    // The store remembers it delivered and leaves it out of later
                    // passes of this process, trying the removal again meanwhile.
                    error!(entry = entry.id, error = %e, "delivered, but cannot record it");
                    return false;
                }
                debug!(entry = entry.id, "delivered");
                true
            }
            Err(f) => self.failed(entry, &reply, f).await,
        }
    }

    async fn send(
        &self,
        entry: &mut OutboxEntry,
        reply: &Reply,
        parts: Vec<Outgoing>,
    ) -> Result<(), Failure> {
        if entry.parts_sent == 0 && self.carried(entry, parts.first()).await? {
            entry.parts_sent = 1;
            entry.sending = None;
        }
        let channel = match &entry.target {
            Target::Channel(c) | Target::Thread { parent: c, .. } => id_of(c.id)?,
            Target::Direct { user, .. } => self.dm_channel(user.id).await?,
        };
        let store = self.table.store_identity();
        let total = parts.len();
        for (i, mut part) in parts
            .into_iter()
            .enumerate()
            .skip(entry.parts_sent as usize)
        {
            if self.window.must_look(entry.unknown_since(), real_now()) {
                if self.found(entry, channel, &part).await? {
                    self.part_sent(entry, i, total).await;
                    continue;
                }
                // Not created: the next request is a first one again.
                entry.sending = None;
            }
            let fresh = entry.unknown_since().is_none();
            if fresh {
                // Flushed before the request: a kill during it must leave this known.
                entry.sending = Some(Sending {
                    part: i as u32,
                    since: real_now(),
                });
                if let Err(e) = self.table.outbox_progress(entry.clone()).await {
                    entry.sending = None;
                    return Err(Failure::Retry(
                        "store",
                        format!("cannot record a request under way: {e}"),
                    ));
                }
            }
            part.ephemeral = false;
            let message = part
                .into_message()
                .nonce(serenity::Nonce::String(nonce(store, entry.id, i)))
                .enforce_nonce(true);
            self.pace.until_ready().await;
            match channel.send_message(&self.http, message).await {
                Ok(m) => {
                    let _ = self.me.set(m.author.id);
                    self.claim_id(m.id);
                }
                Err(e) => {
                    if fresh && !may_have_created(&e) {
                        entry.sending = None;
                    }
                    return Err(failure(&e));
                }
            }
            self.part_sent(entry, i, total).await;
        }
        debug!(entry = entry.id, to = ?reply.ephemeral_to.as_ref().map(|u| u.id), "sent");
        Ok(())
    }

    /// Part `i` of `total` is known to be in its channel: the next one is sent next.
    async fn part_sent(&self, entry: &mut OutboxEntry, i: usize, total: usize) {
        entry.sending = None;
        if i + 1 < total {
            entry.parts_sent = (i + 1) as u32;
            if let Err(e) = self.table.outbox_progress(entry.clone()).await {
                warn!(entry = entry.id, error = %e, "cannot record a part as sent");
            }
        }
    }

    async fn dm_channel(&self, user: u64) -> Result<serenity::ChannelId, Failure> {
        let id = serenity::UserId::from(id_of(user)?.get());
        self.pace.until_ready().await;
        id.create_dm_channel(&self.http)
            .await
            .map(|c| c.id)
            .map_err(|e| failure(&e))
    }

    /// Records a failure; true when the entry is done with.
    async fn failed(&self, mut entry: OutboxEntry, reply: &Reply, f: Failure) -> bool {
        match f {
            Failure::Retry(reason, detail) => {
                crate::metrics::retry(reason);
                entry.attempts += 1;
                entry.not_before =
                    self.table.now() + backoff(entry.attempts - 1, self.retry_first, entry.id);
                warn!(entry = entry.id, attempts = entry.attempts, %detail, "delivery failed; will retry");
                entry.last_error = Some(detail);
                if let Err(e) = self.table.outbox_progress(entry).await {
                    error!(error = %e, "cannot record a failed delivery");
                }
                false
            }
            Failure::ClosedDms => {
                crate::metrics::failure("50007".into());
                let Target::Direct { user, channel } = &entry.target else {
                    return self
                        .drop_entry(&entry, 50007, "closed DMs for a channel message")
                        .await;
                };
                info!(
                    entry = entry.id,
                    user = user.id,
                    "direct messages closed; telling the channel"
                );
                let who = UserRef::from(user);
                let game = entry.game.map(|g| format!(" game:{g}")).unwrap_or_default();
                let mut line = Reply::public(
                    &crate::table::ChannelRef::from(channel),
                    format!(
                        "<@{}>: I cannot send you direct messages, so a private note{} did not reach you. \
                         Look with /hand{game} or /moves{game}, or allow direct messages from server members.",
                        who.id,
                        entry.game.map(|g| format!(" about game #{g}")).unwrap_or_default(),
                    ),
                );
                line.mentions = vec![who];
                self.table
                    .outbox_delivered(entry.id, vec![line])
                    .await
                    .is_ok()
            }
            Failure::ChannelLost { code, detail } => {
                crate::metrics::failure(code.to_string());
                warn!(entry = entry.id, %detail, "the channel is closed to the bot");
                match entry.game {
                    Some(game) => {
                        self.table
                            .channel_lost(game, reply.channel.id, code == 50013)
                            .await;
                    }
                    None => return self.drop_entry(&entry, code, &detail).await,
                }
                false
            }
            Failure::Rejected { code, detail } => self.drop_entry(&entry, code, &detail).await,
            Failure::Unauthorized(detail) => {
                if !self.unauthorized.swap(true, Ordering::SeqCst) {
                    error!(
                        entry = entry.id,
                        %detail,
                        "Discord refused the bot's token (401): delivery stops until the process restarts; \
                         every message stays stored"
                    );
                }
                false
            }
        }
    }

    async fn drop_entry(&self, entry: &OutboxEntry, code: isize, detail: &str) -> bool {
        crate::metrics::failure(code.to_string());
        error!(entry = entry.id, code, %detail, content = %entry.content, "Discord refuses this message for good; dropped");
        self.table
            .outbox_delivered(entry.id, Vec::new())
            .await
            .is_ok()
    }
}

fn id_of(id: u64) -> Result<serenity::ChannelId, Failure> {
    NonZeroU64::new(id)
        .map(serenity::ChannelId::from)
        .ok_or_else(|| Failure::Rejected {
            code: 0,
            detail: "id 0".into(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn processes_share_the_global_budget_by_their_shards() {
        assert_eq!(requests_per_second(1, 1).get(), GLOBAL_BUDGET);
        assert_eq!(requests_per_second(2, 4).get(), GLOBAL_BUDGET / 2);
        assert_eq!(requests_per_second(1, 3).get(), 13);
        // Thousands of shards: never stopped altogether.
        assert_eq!(requests_per_second(1, 5000).get(), 1);
        // Four processes of a quarter each stay under the budget together.
        assert!(4 * requests_per_second(1, 4).get() <= GLOBAL_BUDGET);
    }

    #[test]
    fn answers_are_classified_by_status_and_code() {
        let c = |status, code| classify_answer(status, code, String::new());
        assert!(matches!(c(401, 0), Failure::Unauthorized(_)));
        assert!(matches!(c(401, 50027), Failure::Unauthorized(_)));
        assert!(matches!(c(429, 0), Failure::Retry("rate_limited", _)));
        assert!(matches!(c(502, 0), Failure::Retry("server_error", _)));
        assert!(matches!(c(403, 50007), Failure::ClosedDms));
        for code in [10003, 50001, 50013, 50083, 160005] {
            assert!(
                matches!(c(403, code), Failure::ChannelLost { code: c, .. } if c == code),
                "{code}"
            );
        }
        assert!(matches!(
            c(400, 50035),
            Failure::Rejected { code: 50035, .. }
        ));
    }

    #[test]
    fn nonces_fit_discord() {
        let n = nonce(u64::MAX, u64::MAX, 99);
        assert!(n.len() <= 25, "{n} is {} characters", n.len());
        assert_ne!(nonce(1, 2, 0), nonce(1, 2, 1));
        assert_ne!(nonce(1, 2, 0), nonce(2, 2, 0));
    }
}
