//! Exactly once past Discord's nonce window: a part whose request may have reached Discord
//! longer ago than the nonce can be relied on is looked for among its channel's messages
//! before it is sent again, and an entry an interaction may have carried is checked against
//! that interaction's response. See the delivery worker ([`super`]) and `docs/discord.md`, "How
//! every ping arrives", for the argument and its limits.

use std::collections::{HashSet, VecDeque};
use std::time::Duration;

use poise::serenity_prelude as serenity;
use tracing::{info, warn};

use super::{failure, Failure, Worker, TOKEN_LIFE_MS};
use crate::clock::{Clock, Millis, SystemClock};
use crate::discord::outgoing::{Fingerprint, Outgoing};
use crate::outbox::OutboxEntry;

/// How the worker keeps a message single past Discord's nonce window. Discord answers a
/// repeated nonce with the message it created only "in the past few minutes" (Resources >
/// Message > Create Message, `enforce_nonce`); the docs give no figure, so the window is taken
/// as five minutes, and a part whose first request is older than half of it is looked for in
/// its channel before it is sent again. Tests shorten both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NonceWindow {
    /// How long Discord is taken to remember a nonce.
    pub window: Duration,
    /// Past this since a part's first request, its nonce is no longer relied on: the channel
    /// is read first. Within the window, with room for the request's own time and the
    /// difference between the machine's clock and Discord's.
    pub safe: Duration,
    /// The channel is read from this long before the first request: the two clocks may differ.
    pub margin: Duration,
    /// At most this many pages of 100 messages are read per look.
    pub pages: u32,
}

impl Default for NonceWindow {
    fn default() -> Self {
        let window = Duration::from_secs(5 * 60);
        NonceWindow {
            window,
            safe: window / 2,
            margin: Duration::from_secs(30),
            pages: 10,
        }
    }
}

impl NonceWindow {
    /// Whether a part whose first request was made at `since` (real time, if at all) must be
    /// looked for before it is sent again at `now`.
    pub(super) fn must_look(&self, since: Option<Millis>, now: Millis) -> bool {
        since.is_some_and(|t| now.saturating_sub(t) > self.safe.as_millis() as Millis)
    }
}

/// Discord's epoch, the first second of 2015: a snowflake's top 42 bits are milliseconds since
/// it (Reference > Snowflakes: "(timestamp_ms - DISCORD_EPOCH) << 22").
const DISCORD_EPOCH: Millis = 1_420_070_400_000;

/// The smallest snowflake of a time (Unix milliseconds): every message created at or after it
/// has a larger id.
fn snowflake_at(ms: Millis) -> u64 {
    ms.saturating_sub(DISCORD_EPOCH) << 22
}

/// The messages one look may claim: the oldest message of `page` that the bot (`me`) wrote,
/// that matches `want` and that no other entry claimed. Messages are compared oldest first,
/// so of two identical messages the earlier is taken, as the earlier send made it.
fn claim<'a>(
    page: &'a [serenity::Message],
    me: serenity::UserId,
    want: &Fingerprint,
    taken: &HashSet<u64>,
) -> Option<&'a serenity::Message> {
    page.iter()
        .filter(|m| m.author.id == me && !taken.contains(&m.id.get()))
        .filter(|m| &Fingerprint::of_message(m) == want)
        .min_by_key(|m| m.id)
}

/// Message ids this process knows a delivery made (sent, carried or found): never claimed
/// again by another entry. Bounded: the oldest are forgotten first.
#[derive(Default)]
pub(super) struct Claimed {
    ids: HashSet<u64>,
    order: VecDeque<u64>,
}

impl Claimed {
    const LIMIT: usize = 10_000;

    pub(super) fn insert(&mut self, id: u64) {
        if self.ids.insert(id) {
            self.order.push_back(id);
            while self.order.len() > Self::LIMIT {
                if let Some(old) = self.order.pop_front() {
                    self.ids.remove(&old);
                }
            }
        }
    }
}

/// The machine's clock, which Discord's nonce window and message ids count in.
pub(super) fn real_now() -> Millis {
    SystemClock.now()
}

impl Worker {
    /// Whether the part an earlier request may have created, longer ago than Discord's nonce
    /// can be relied on, is in the channel: a message by the bot with the part's fingerprint,
    /// created since that request (less a margin for the clocks), and not taken by another
    /// entry. The channel is read forward from there, a page of 100 at a time ("Get messages
    /// after this message ID", Resources > Message > Get Channel Messages), for at most
    /// [`NonceWindow::pages`] pages, each next page after the newest id of the last (the docs
    /// do not say which 100 of more messages `after` returns; reading forward from the oldest
    /// is how it is used to page, and a page of fewer than 100 is the end either way). The
    /// bot's own id is learnt from the messages it sent, or asked for once (GET /users/@me).
    /// A channel whose history the bot may not read answers with
    /// no messages (or refuses): the part is then sent again, which may double it: at least
    /// once comes before exactly once.
    pub(super) async fn found(
        &self,
        entry: &OutboxEntry,
        channel: serenity::ChannelId,
        part: &Outgoing,
    ) -> Result<bool, Failure> {
        let since = entry.unknown_since().unwrap_or(0);
        let want = part.fingerprint();
        let me = self.me().await?;
        let from = since.saturating_sub(self.window.margin.as_millis() as Millis);
        let mut after = serenity::MessageId::new(snowflake_at(from).max(1));
        for _ in 0..self.window.pages {
            self.pace.until_ready().await;
            let page = match channel
                .messages(
                    &self.http,
                    serenity::GetMessages::new().after(after).limit(100),
                )
                .await
            {
                Ok(page) => page,
                Err(e) => match failure(&e) {
                    f @ (Failure::Retry(..) | Failure::Unauthorized(_)) => return Err(f),
                    other => {
                        warn!(entry = entry.id, failure = ?other, "cannot read the channel to look for an earlier send; sending again");
                        return Ok(false);
                    }
                },
            };
            let taken = self
                .claimed
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .ids
                .clone();
            if let Some(m) = claim(&page, me, &want, &taken) {
                info!(entry = entry.id, message = %m.id, "found the message an earlier request created");
                self.claim_id(m.id);
                return Ok(true);
            }
            let full = page.len() >= 100;
            match page.iter().map(|m| m.id).max() {
                Some(last) if full => after = last,
                _ => return Ok(false),
            }
        }
        warn!(
            entry = entry.id,
            pages = self.window.pages,
            "too many messages since an earlier send to look through; sending again"
        );
        Ok(false)
    }

    /// The bot's user id: the author of the messages it sends.
    async fn me(&self) -> Result<serenity::UserId, Failure> {
        if let Some(me) = self.me.get() {
            return Ok(*me);
        }
        self.pace.until_ready().await;
        let user = self
            .http
            .get_current_user()
            .await
            .map_err(|e| failure(&e))?;
        Ok(*self.me.get_or_init(|| user.id))
    }

    pub(super) fn claim_id(&self, id: serenity::MessageId) {
        self.claimed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.get());
    }

    /// Whether the interaction that caused the entry already carried it as its first response
    /// (the bot stopped before it could record that, or the response's answer was lost).
    /// Asked only while the token is valid.
    ///
    /// The original response is either the announcement itself, sent as the first response
    /// when the table answered in time, or a deferral filled in with a summary line. They are
    /// told apart by what the message carries, not by its text: the announcement's pictures and
    /// buttons (their file names and custom ids), and the users it pings, whom only the
    /// announcement may mention (a deferral is filled in with no mentions allowed). A deferral
    /// never filled in is still LOADING. An announcement with neither pictures, buttons nor
    /// pings is recognised by its text, trimmed: a summary equal to it showed the players the
    /// same thing. The message found is claimed, by id, so that no other entry takes it.
    pub(super) async fn carried(
        &self,
        entry: &OutboxEntry,
        first: Option<&Outgoing>,
    ) -> Result<bool, Failure> {
        let (Some(c), Some(first)) = (&entry.carrier, first) else {
            return Ok(false);
        };
        if self.table.now().saturating_sub(c.at) > TOKEN_LIFE_MS {
            return Ok(false);
        }
        self.pace.until_ready().await;
        match self.http.get_original_interaction_response(&c.token).await {
            Ok(m) => {
                let _ = self.me.set(m.author.id);
                let pings: HashSet<serenity::UserId> = first.ping.iter().copied().collect();
                let mentioned: HashSet<serenity::UserId> =
                    m.mentions.iter().map(|u| u.id).collect();
                let flags = m.flags.unwrap_or_default();
                let carried = !flags.intersects(
                    serenity::MessageFlags::EPHEMERAL | serenity::MessageFlags::LOADING,
                ) && pings.is_subset(&mentioned)
                    && Fingerprint::of_message(&m) == first.fingerprint();
                if carried {
                    self.claim_id(m.id);
                }
                Ok(carried)
            }
            Err(e) => match failure(&e) {
                Failure::Retry(why, detail) => Err(Failure::Retry(why, detail)),
                // Unknown message or webhook, or an expired token: the entry is sent, with its
                // nonce and, past the window, after a look in the channel.
                _ => Ok(false),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A message as Discord returns it from GET /channels/{id}/messages.
    pub(crate) fn message(
        id: u64,
        author: u64,
        content: &str,
        files: &[&str],
        custom_ids: &[&str],
    ) -> serenity::Message {
        let buttons: Vec<serde_json::Value> = custom_ids
            .iter()
            .map(|c| serde_json::json!({"type": 2, "style": 1, "label": "x", "custom_id": c}))
            .collect();
        let components = if buttons.is_empty() {
            serde_json::json!([])
        } else {
            serde_json::json!([{"type": 1, "components": buttons}])
        };
        serde_json::from_value(serde_json::json!({
            "id": id.to_string(),
            "channel_id": "5",
            "author": {"id": author.to_string(), "username": "tokar", "discriminator": "0",
                       "avatar": null, "global_name": null, "bot": true},
            "content": content,
            "timestamp": "2026-11-27T00:00:00.000000+00:00",
            "edited_timestamp": null,
            "tts": false,
            "mention_everyone": false,
            "mentions": [],
            "mention_roles": [],
            "attachments": files.iter().enumerate().map(|(n, f)| serde_json::json!({
                "id": (id * 10 + n as u64).to_string(), "filename": f, "size": 1,
                "url": "https://cdn.example/x", "proxy_url": "https://media.example/x",
            })).collect::<Vec<_>>(),
            "embeds": [],
            "pinned": false,
            "type": 0,
            "flags": 0,
            "components": components,
        }))
        .expect("a message")
    }

    fn fingerprint(content: &str, files: &[&str], custom_ids: &[&str]) -> Fingerprint {
        Fingerprint::of_message(&message(1, 1, content, files, custom_ids))
    }

    #[test]
    fn a_part_is_looked_for_only_when_its_nonce_may_be_forgotten() {
        let w = NonceWindow::default();
        assert_eq!(w.window, Duration::from_secs(300));
        assert_eq!(w.safe, Duration::from_secs(150));
        let t = 1_800_000_000_000;
        assert!(!w.must_look(None, t), "never requested: the nonce suffices");
        assert!(!w.must_look(Some(t - 1_000), t), "a second ago");
        assert!(!w.must_look(Some(t - 150_000), t), "at the safe mark");
        assert!(w.must_look(Some(t - 150_001), t), "past it");
        assert!(w.must_look(Some(t - 6 * 3_600_000), t), "after an outage");
        assert!(!w.must_look(Some(t + 5_000), t), "a clock that went back");
        let short = NonceWindow {
            window: Duration::from_secs(2),
            safe: Duration::from_secs(1),
            ..w
        };
        assert!(short.must_look(Some(t - 1_500), t));
    }

    #[test]
    fn snowflakes_count_from_discords_epoch() {
        // The documentation's example: 175928847299117063 was made at 1462015105796.
        let id: u64 = 175_928_847_299_117_063;
        let at = (id >> 22) + DISCORD_EPOCH;
        assert_eq!(at, 1_462_015_105_796);
        assert!(snowflake_at(at) <= id && id < snowflake_at(at + 1));
        assert_eq!(snowflake_at(DISCORD_EPOCH + 1), 1 << 22);
        assert_eq!(snowflake_at(0), 0, "before the epoch: the first id");
    }

    #[test]
    fn a_found_message_is_the_bots_oldest_unclaimed_match() {
        let me = serenity::UserId::new(42);
        let want = fingerprint(
            "Game #1: bob to act.",
            &["game-1-3.png"],
            &["tokar:1:3:moves"],
        );
        let page = vec![
            // Newest first, as Discord returns them.
            message(
                40,
                42,
                "Game #1: bob to act.",
                &["game-1-3.png"],
                &["tokar:1:3:moves"],
            ),
            message(
                30,
                7,
                "Game #1: bob to act.",
                &["game-1-3.png"],
                &["tokar:1:3:moves"],
            ),
            message(
                20,
                42,
                "Game #1: bob to act.\n",
                &["game-1-3.png"],
                &["tokar:1:3:moves"],
            ),
            message(
                10,
                42,
                "Game #1: bob to act.",
                &["game-1-3.png"],
                &["tokar:1:2:moves"],
            ),
        ];
        let none = HashSet::new();
        let got = claim(&page, me, &want, &none).map(|m| m.id.get());
        assert_eq!(
            got,
            Some(20),
            "the oldest of the bot's matches, its text trimmed"
        );
        let taken: HashSet<u64> = [20].into();
        let got = claim(&page, me, &want, &taken).map(|m| m.id.get());
        assert_eq!(
            got,
            Some(40),
            "a message claimed by another entry is not taken again"
        );
        let taken: HashSet<u64> = [20, 40].into();
        assert!(
            claim(&page, me, &want, &taken).is_none(),
            "another user's copy is not ours"
        );
        let other = fingerprint(
            "Game #1: bob to act.",
            &["game-1-4.png"],
            &["tokar:1:3:moves"],
        );
        assert!(
            claim(&page, me, &other, &none).is_none(),
            "a different picture"
        );
    }

    #[test]
    fn claimed_ids_are_bounded() {
        let mut c = Claimed::default();
        for id in 0..(Claimed::LIMIT as u64 + 5) {
            c.insert(id);
        }
        assert_eq!(c.ids.len(), Claimed::LIMIT);
        assert!(!c.ids.contains(&0) && c.ids.contains(&(Claimed::LIMIT as u64 + 4)));
    }
}
