//! The types the adapters (Discord, console, tests) exchange with the table.

use crate::record::Named;
use serde::{Deserialize, Serialize};

/// Why a command was refused: the one line the player who typed it reads.
/// Nothing changed. The detail of an internal failure is never in it (it goes
/// to the operator's log); what the player typed is quoted only as an excerpt
/// (see [`crate::quote`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal(String);

impl Refusal {
    /// The line as the player reads it.
    pub fn text(&self) -> &str {
        &self.0
    }

    /// The line, owned.
    pub fn into_text(self) -> String {
        self.0
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refusal {}

impl From<String> for Refusal {
    fn from(line: String) -> Refusal {
        Refusal(line)
    }
}

impl From<&str> for Refusal {
    fn from(line: &str) -> Refusal {
        Refusal(line.to_string())
    }
}

impl From<Refusal> for String {
    fn from(r: Refusal) -> String {
        r.0
    }
}

/// A user as the adapter knows them.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct UserRef {
    pub id: u64,
    pub name: String,
}

/// A channel (or thread) as the adapter knows it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ChannelRef {
    pub id: u64,
    pub name: String,
    /// The server (Discord guild) the channel belongs to; `None` where there is
    /// none (a direct message). Ratings, standings and server settings are kept
    /// per server. Stored outbox entries from before it load as `None`.
    #[serde(default)]
    pub guild: Option<u64>,
    /// For a thread, the channel it was opened under; `None` for a channel
    /// (a channel inside a category is no thread: Discord gives it the
    /// category as its `parent_id`, so the adapter goes by the channel's type).
    #[serde(default)]
    pub parent: Option<u64>,
    /// Whether a game's own thread (ruling T19) can open under this channel,
    /// as the adapter knows it from the interaction: the channel's type and
    /// the bot's permissions there. `Unknown` where the adapter cannot tell
    /// (the console, a button, a stored record): Discord's answer decides.
    #[serde(default)]
    pub threads: ThreadSupport,
}

/// What a channel offers a game's own thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ThreadSupport {
    /// Not known: a public thread is asked for and Discord's answer decides.
    #[default]
    Unknown,
    /// A text channel: a public thread (Discord's type 11, PUBLIC_THREAD).
    Public,
    /// An announcement channel: its threads are of type 10 (ANNOUNCEMENT_THREAD).
    Announcement,
    /// No game thread can open here, for this reason: the game stays in its
    /// channel, which is told why.
    Refused(ThreadRefusal),
}

impl ChannelRef {
    /// A channel outside any server and not a thread (tests, benchmarks).
    pub fn new(id: u64, name: impl Into<String>) -> ChannelRef {
        ChannelRef {
            id,
            name: name.into(),
            guild: None,
            parent: None,
            threads: ThreadSupport::Unknown,
        }
    }
}

/// One command from a user in a channel.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub user: UserRef,
    pub channel: ChannelRef,
    /// The command with its options typed (the console's text is read into it
    /// by [`crate::Command::parse`]).
    pub command: crate::Command,
    /// The Discord interaction this command came from, when its first
    /// response may carry the command's announcement (see
    /// [`Reply::outbox`]); `None` on the console and for buttons that answer
    /// privately.
    pub interaction_token: Option<String>,
    /// The user may manage the server the command comes from (Discord's Manage
    /// Server permission, as the interaction reports it; on the console, every
    /// user: ruling T21). Needed to change the server's settings.
    pub manage_server: bool,
}

/// One message to send.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    pub channel: ChannelRef,
    /// Shown only to this user (an ephemeral reply, or a direct message).
    pub ephemeral_to: Option<UserRef>,
    pub content: String,
    /// The users to ping, and only them.
    pub mentions: Vec<UserRef>,
    pub images: Vec<Image>,
    pub buttons: Vec<Button>,
    /// False when the command was refused (nothing changed).
    pub ok: bool,
    /// Set when the reply is stored in the outbox (it announces a change to
    /// others): the adapter must not send it directly unless it holds the
    /// entry's claim, and reports it delivered with
    /// the table's `outbox_delivered`.
    pub outbox: Option<u64>,
}

/// A picture attached to a reply.
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    pub name: String,
    pub png: Vec<u8>,
    /// What a game picture was drawn from: an outbox entry stores this
    /// instead of the bytes, and draws the picture again when the stored entry
    /// is delivered ([`crate::scene`]). `None` for pictures that are not a
    /// position (charts, replays), which are stored as they are.
    pub scene: Option<std::sync::Arc<crate::scene::Scene>>,
}

impl Image {
    /// A picture stored as its bytes.
    pub fn png(name: String, png: Vec<u8>) -> Image {
        Image {
            name,
            png,
            scene: None,
        }
    }
}

/// A button under a message. The custom id (at most 100 characters) names the
/// game and the move it was made for, so that a click on an old one is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Button {
    pub custom_id: String,
    pub label: String,
}

impl From<&Named> for UserRef {
    fn from(n: &Named) -> UserRef {
        UserRef {
            id: n.id,
            name: n.name.clone(),
        }
    }
}

impl From<&UserRef> for Named {
    fn from(u: &UserRef) -> Named {
        Named {
            id: u.id,
            name: u.name.clone(),
        }
    }
}

impl From<&ChannelRef> for Named {
    fn from(c: &ChannelRef) -> Named {
        Named {
            id: c.id,
            name: c.name.clone(),
        }
    }
}

impl From<&Named> for ChannelRef {
    fn from(n: &Named) -> ChannelRef {
        ChannelRef::new(n.id, n.name.clone())
    }
}

impl Reply {
    /// A public message in `channel`.
    pub fn public(channel: &ChannelRef, content: impl Into<String>) -> Reply {
        Reply {
            channel: channel.clone(),
            ephemeral_to: None,
            content: content.into(),
            mentions: Vec::new(),
            images: Vec::new(),
            buttons: Vec::new(),
            ok: true,
            outbox: None,
        }
    }

    /// A message only `user` sees.
    pub fn private(channel: &ChannelRef, user: &UserRef, content: impl Into<String>) -> Reply {
        Reply {
            ephemeral_to: Some(user.clone()),
            ..Reply::public(channel, content)
        }
    }

    /// A refusal: shown to the user who asked, nothing changed.
    pub fn refusal(channel: &ChannelRef, user: &UserRef, content: impl Into<String>) -> Reply {
        Reply {
            ok: false,
            ..Reply::private(channel, user, content)
        }
    }
}

/// Why a game has no thread of its own, as players are told it. Each case is
/// one of Discord's answers to creating the thread (by its error code), or what
/// the adapter saw before asking: the channel's type, the bot's permissions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ThreadRefusal {
    /// The bot may not open threads there: it lacks Create Public Threads, or Discord
    /// answered 50013 (Missing Permissions), 50001 (Missing Access) or 403.
    Permission,
    /// The bot lacks Send Messages in Threads there, so it could not post in the thread it
    /// opened ("users must have `SEND_MESSAGES_IN_THREADS` to talk in a thread", Topics >
    /// Threads > Permissions).
    PostInThreads,
    /// The server has as many active threads as Discord allows (160006, "Maximum number of
    /// active threads reached").
    ActiveLimit,
    /// The channel takes no threads (50024 "Cannot execute action on this channel type", a
    /// direct message, a type the adapter does not know).
    ChannelType,
    /// A voice channel's chat: Discord's threads live only under text, announcement and
    /// forum channels (Resources > Channel > Channel Types: ANNOUNCEMENT_THREAD is "within a
    /// GUILD_ANNOUNCEMENT channel", PUBLIC_THREAD "within a GUILD_TEXT or GUILD_FORUM
    /// channel").
    Voice,
    /// A stage channel's chat, likewise.
    Stage,
    /// A forum (or media) channel, whose posts are threads already.
    Forum,
    /// A category, which holds channels, not messages.
    Category,
    /// Any other refusal for good, with Discord's error code.
    Other(i64),
}

impl ThreadRefusal {
    /// The reason as players read it, after "Game #N is played here in the channel: ".
    pub fn reason(self) -> String {
        match self {
            ThreadRefusal::Permission => "Tokar may not open threads in this channel".into(),
            ThreadRefusal::PostInThreads => {
                "Tokar may not send messages in threads in this channel".into()
            }
            ThreadRefusal::ActiveLimit => {
                "this server has as many active threads as Discord allows \
                 (archiving some lets the next games have theirs)"
                    .into()
            }
            ThreadRefusal::ChannelType => "this channel takes no threads".into(),
            ThreadRefusal::Voice => "a voice channel's chat takes no threads".into(),
            ThreadRefusal::Stage => "a stage channel's chat takes no threads".into(),
            ThreadRefusal::Forum => "a forum channel's posts are threads already".into(),
            ThreadRefusal::Category => "a category takes no threads".into(),
            ThreadRefusal::Other(code) => {
                format!("Discord would not open a thread here (error {code})")
            }
        }
    }

    /// The refusal Discord's answer to creating a thread means, by HTTP status and JSON
    /// error code (Topics > Opcodes and Status Codes > JSON Error Codes); `None` when the
    /// attempt should be made again (429, 5xx, and 401, a token problem the operator fixes).
    pub fn from_answer(status: u16, code: i64) -> Option<ThreadRefusal> {
        match (status, code) {
            (401 | 429 | 500..=599, _) => None,
            (_, 160006) => Some(ThreadRefusal::ActiveLimit),
            (_, 50001 | 50013) | (403, _) => Some(ThreadRefusal::Permission),
            (_, 50024) => Some(ThreadRefusal::ChannelType),
            (400..=499, code) => Some(ThreadRefusal::Other(code)),
            _ => None,
        }
    }
}
