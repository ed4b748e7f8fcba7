//! The outbox: everything Tokar says about a change that someone other than
//! the person typing must receive (turn messages with their pings, reminders,
//! deadline and skip notices, the bot's moves, private notes such as drawn
//! cards, results). Each entry is written in the same storage transaction as
//! the change that causes it, so a stored move always has its announcement
//! stored too; an adapter delivers entries in order and removes each one only
//! after the destination accepted it. Only the invoker's own acknowledgement of
//! a command is sent directly.
//!
//! A game picture is stored as its scene inside the entry (format 2, see
//! [`crate::scene`]) and drawn again when the stored entry is delivered; other
//! pictures (charts) are stored as raw PNG bytes beside the entry (see
//! the store), not inside the JSON. Format 1 entries have only the
//! latter. Format 3 adds what exactly-once delivery needs past Discord's
//! nonce window ([`Sending`]) and the kind of a thread asked for.

use crate::api::{Button, ChannelRef, Image, Reply, UserRef};
use crate::clock::Millis;
use crate::record::Named;
use crate::scene::Scene;
use serde::{Deserialize, Serialize};

/// The format of an outbox entry written today; older ones keep loading.
/// 1: pictures stored as bytes beside the entry. 2: adds `scenes`. 3: adds
/// `sending` and a thread target's `announcement`.
pub const OUTBOX_FORMAT: u32 = 3;

/// Where an entry goes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Target {
    /// A message in a channel (or thread).
    Channel(Named),
    /// A private note for `user`; on Discord a direct message. `channel` is
    /// the game's channel, where a note that cannot reach them is replaced by
    /// a line asking them to look with a command.
    Direct { user: Named, channel: Named },
    /// A public thread to open under `parent` for the entry's game, named
    /// `name` (ruling T19). Delivering it means creating the thread (or
    /// finding the one an earlier attempt created: ruling T22) and telling
    /// the table with the table's `thread_opened`; a refusal is
    /// told with its `thread_refused`. The entry has no
    /// content of its own.
    Thread {
        parent: Named,
        /// The server of `parent`: where a thread an earlier attempt created is looked for.
        guild: Option<u64>,
        name: String,
        /// `parent` is an announcement channel, whose threads are of Discord's type 10
        /// (ANNOUNCEMENT_THREAD) rather than 11 (PUBLIC_THREAD). False in entries before
        /// format 3, which asked for public threads.
        #[serde(default)]
        announcement: bool,
    },
}

/// A message part that may have reached Discord: a request for it was made
/// and no answer said whether Discord created it (the answer was lost, timed
/// out, a 5xx, or the process stopped during the request). Written, flushed,
/// before the part's first request, so that a crash in the middle is known
/// after a restart. Discord's nonce answers a repeated send with the message
/// it created only "in the past few minutes" (Resources > Message > Create
/// Message, `enforce_nonce`); past that, the delivery worker first looks in
/// the channel for the message before sending it again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sending {
    /// The part (`parts_sent` when it was written).
    pub part: u32,
    /// When its first request was made, in real time (milliseconds since the
    /// Unix epoch by the machine's clock, which is what Discord's own clock and
    /// its message ids count in), not the table's clock, which may be virtual.
    pub since: Millis,
}

/// An interaction that may carry an entry as its first response: the answer
/// to the command that caused it, when that answer is sent in time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Carrier {
    /// The interaction's token, to ask Discord after a restart whether the
    /// response was accepted (valid 15 minutes).
    pub token: String,
    pub at: Millis,
}

/// One stored message to deliver.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutboxEntry {
    pub format: u32,
    /// Assigned when stored; increasing in the order entries were stored.
    pub id: u64,
    /// The game it is about, if any.
    pub game: Option<u64>,
    pub created_at: Millis,
    pub target: Target,
    pub content: String,
    /// The users this message pings, and only them.
    pub mentions: Vec<Named>,
    /// (custom id, label) of each button.
    pub buttons: Vec<(String, String)>,
    /// Names of the entry's pictures, in order.
    pub images: Vec<String>,
    /// For each picture in `images`, the scene it is drawn from; a picture
    /// without one (format 1, or not a position) is stored as bytes beside
    /// the entry.
    #[serde(default)]
    pub scenes: Vec<Option<Scene>>,
    /// How many parts of a message split by length were accepted already.
    #[serde(default)]
    pub parts_sent: u32,
    /// Failed delivery attempts so far.
    #[serde(default)]
    pub attempts: u32,
    /// Not before this time (a retry's backoff).
    #[serde(default)]
    pub not_before: Millis,
    /// The last failure, for the operator.
    #[serde(default)]
    pub last_error: Option<String>,
    #[serde(default)]
    pub carrier: Option<Carrier>,
    /// The part whose request may have reached Discord, if any (format 3).
    #[serde(default)]
    pub sending: Option<Sending>,
}

/// An entry to store, with its pictures.
#[derive(Clone, Debug)]
pub struct NewEntry {
    pub entry: OutboxEntry,
    pub images: Vec<Image>,
}

impl OutboxEntry {
    /// The entry for a reply. `game` is the game the change concerned; the
    /// reply's channel is the game's channel.
    pub fn from_reply(reply: &Reply, game: Option<u64>, now: Millis) -> NewEntry {
        let target = match &reply.ephemeral_to {
            Some(user) => Target::Direct {
                user: Named::from(user),
                channel: Named::from(&reply.channel),
            },
            None => Target::Channel(Named::from(&reply.channel)),
        };
        NewEntry {
            entry: OutboxEntry {
                format: OUTBOX_FORMAT,
                id: 0,
                game,
                created_at: now,
                target,
                content: reply.content.clone(),
                mentions: reply.mentions.iter().map(Named::from).collect(),
                buttons: reply
                    .buttons
                    .iter()
                    .map(|b| (b.custom_id.clone(), b.label.clone()))
                    .collect(),
                images: reply.images.iter().map(|i| i.name.clone()).collect(),
                scenes: reply
                    .images
                    .iter()
                    .map(|i| i.scene.as_deref().cloned())
                    .collect(),
                parts_sent: 0,
                attempts: 0,
                not_before: 0,
                last_error: None,
                carrier: None,
                sending: None,
            },
            images: reply.images.clone(),
        }
    }

    /// The entry as a reply again (pictures given by the caller), marked with
    /// its outbox id.
    pub fn to_reply(&self, images: Vec<Image>) -> Reply {
        let (channel, ephemeral_to) = match &self.target {
            Target::Channel(c) | Target::Thread { parent: c, .. } => (ChannelRef::from(c), None),
            Target::Direct { user, channel } => {
                (ChannelRef::from(channel), Some(UserRef::from(user)))
            }
        };
        Reply {
            channel,
            ephemeral_to,
            content: self.content.clone(),
            mentions: self.mentions.iter().map(UserRef::from).collect(),
            images,
            buttons: self
                .buttons
                .iter()
                .map(|(custom_id, label)| Button {
                    custom_id: custom_id.clone(),
                    label: label.clone(),
                })
                .collect(),
            ok: true,
            outbox: Some(self.id),
        }
    }

    /// The channel whose order this entry keeps: entries of one channel (or
    /// one user's direct messages) are delivered one after the other.
    pub fn lane(&self) -> (bool, u64) {
        match &self.target {
            Target::Channel(c) | Target::Thread { parent: c, .. } => (false, c.id),
            Target::Direct { user, .. } => (true, user.id),
        }
    }

    /// The scene picture `n` is drawn from, if it is stored as one.
    pub fn scene(&self, n: usize) -> Option<&Scene> {
        self.scenes.get(n).and_then(Option::as_ref)
    }

    /// The thread this entry asks to open, if it is such an entry: (parent, server, name).
    pub fn thread(&self) -> Option<(&Named, Option<u64>, &str)> {
        match &self.target {
            Target::Thread {
                parent,
                guild,
                name,
                ..
            } => Some((parent, *guild, name)),
            _ => None,
        }
    }

    /// Whether the thread this entry asks for is an announcement channel's (type 10).
    pub fn announcement_thread(&self) -> bool {
        matches!(
            self.target,
            Target::Thread {
                announcement: true,
                ..
            }
        )
    }

    /// When the request for the part to send next may have reached Discord first, if it may.
    pub fn unknown_since(&self) -> Option<Millis> {
        self.sending
            .as_ref()
            .filter(|s| s.part == self.parts_sent)
            .map(|s| s.since)
    }
}

/// Reads a stored outbox entry of any known format.
pub fn decode_entry(bytes: &[u8]) -> Result<OutboxEntry, String> {
    #[derive(Deserialize)]
    struct Head {
        format: u32,
    }
    let head: Head = serde_json::from_slice(bytes)
        .map_err(|e| format!("outbox entry without a format version: {e}"))?;
    match head.format {
        1..=3 => serde_json::from_slice(bytes)
            .map_err(|e| format!("outbox entry (format {}): {e}", head.format)),
        n => Err(format!(
            "outbox entry of unknown format {n} (this build reads up to {OUTBOX_FORMAT})"
        )),
    }
}

/// The wait before the first retry of a failed delivery.
pub const RETRY_FIRST: std::time::Duration = std::time::Duration::from_secs(1);

/// How long to wait before the next attempt after `attempts` failures:
/// exponential from `first` (one second in production, [`RETRY_FIRST`]), at most
/// ten minutes, plus jitter so that many entries failing together do not retry
/// together. The policy is `backon`'s
/// exponential backoff, indexed by the stored attempt count (so a restart keeps
/// the pace) and seeded by the entry (so its jitter is repeatable).
pub fn backoff(attempts: u32, first: std::time::Duration, jitter_seed: u64) -> Millis {
    use backon::BackoffBuilder;
    let max = std::time::Duration::from_secs(600);
    backon::ExponentialBuilder::default()
        .with_min_delay(first.min(max))
        .with_max_delay(max)
        .with_factor(2.0)
        .with_jitter()
        .with_jitter_seed(jitter_seed)
        .without_max_times()
        .build()
        .nth(attempts as usize)
        .unwrap_or(max)
        .as_millis() as Millis
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_and_is_capped() {
        let d: Vec<Millis> = (0..14).map(|a| backoff(a, RETRY_FIRST, 7)).collect();
        assert!((1_000..2_000).contains(&d[0]), "{d:?}");
        assert!((8_000..16_000).contains(&d[3]), "{d:?}");
        assert!(d[13] <= 1_200_000 && d[13] >= 600_000, "{d:?}");
        assert_eq!(
            backoff(3, RETRY_FIRST, 7),
            d[3],
            "the same entry retries at the same pace"
        );
        let quick = backoff(0, std::time::Duration::from_millis(50), 7);
        assert!((50..100).contains(&quick), "a shorter first wait: {quick}");
    }

    #[test]
    fn a_request_under_way_counts_for_its_part_only() {
        let ch = ChannelRef::new(5, "games");
        let mut e = OutboxEntry::from_reply(&Reply::public(&ch, "x"), Some(1), 10).entry;
        assert_eq!(e.unknown_since(), None);
        e.sending = Some(Sending { part: 0, since: 99 });
        assert_eq!(e.unknown_since(), Some(99));
        e.parts_sent = 1;
        assert_eq!(
            e.unknown_since(),
            None,
            "an earlier part's request says nothing"
        );
        let bytes = serde_json::to_vec(&e).expect("encodes");
        assert_eq!(decode_entry(&bytes).expect("decodes"), e);
    }

    #[test]
    fn older_entries_load_without_the_new_fields() {
        let old = r##"{"format":2,"id":3,"game":1,"created_at":5,
            "target":{"Thread":{"parent":{"id":5,"name":"table"},"guild":7,"name":"#1 Arcana"}},
            "content":"","mentions":[],"buttons":[],"images":[]}"##;
        let e = decode_entry(old.as_bytes()).expect("format 2 loads");
        assert_eq!(e.sending, None);
        assert!(e.thread().is_some());
        assert!(
            !e.announcement_thread(),
            "format 2 asked for public threads"
        );
        let unknown = old.replace(r#""format":2"#, r#""format":4"#);
        assert!(decode_entry(unknown.as_bytes()).is_err());
    }

    #[test]
    fn a_reply_round_trips_through_an_entry() {
        let ch = ChannelRef::new(5, "games");
        let bob = UserRef {
            id: 7,
            name: "bob".into(),
        };
        let mut r = Reply::private(&ch, &bob, "Game #1: you drew Freeze.");
        r.mentions = vec![bob.clone()];
        r.buttons = vec![Button {
            custom_id: "tokar:1:3:hand".into(),
            label: "Show my hand".into(),
        }];
        let new = OutboxEntry::from_reply(&r, Some(1), 10);
        let mut e = new.entry;
        e.id = 42;
        let bytes = serde_json::to_vec(&e).expect("encodes");
        let back = decode_entry(&bytes).expect("decodes");
        assert_eq!(back, e);
        let again = back.to_reply(Vec::new());
        assert_eq!(again.outbox, Some(42));
        assert_eq!(again.ephemeral_to, Some(bob));
        assert_eq!(again.content, r.content);
        assert_eq!(again.buttons, r.buttons);
    }
}
