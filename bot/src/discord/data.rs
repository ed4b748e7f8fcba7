//! The one data struct every command shares, and the adapter's error type.

use std::time::Duration;

use poise::serenity_prelude as serenity;

use super::settings::DiscordSettings;
use crate::table::{ChannelRef, Table, ThreadRefusal, ThreadSupport, UserRef};

/// Shared by every command and event handler.
pub(crate) struct Data {
    /// The table service; every command goes through it.
    pub table: Table,
    /// Past this, an interaction still waiting on the table is deferred (zero:
    /// every one is, which the tests use to exercise the deferred path).
    pub defer_after: Duration,
    /// Commands in flight, and whether new ones are still taken.
    pub gate: std::sync::Arc<Gate>,
}

impl Data {
    pub fn new(table: Table, settings: &DiscordSettings, gate: std::sync::Arc<Gate>) -> Self {
        Self {
            table,
            defer_after: settings.defer_after,
            gate,
        }
    }
}

/// Counts the commands in flight so that a stop lets them finish, and refuses new ones once
/// the stop began.
#[derive(Default)]
pub(crate) struct Gate {
    state: std::sync::Mutex<(bool, usize)>,
    idle: tokio::sync::Notify,
}

/// Held while a command runs.
pub(crate) struct Pass<'a>(&'a Gate);

impl Gate {
    /// A pass for one command; `None` once the bot is stopping.
    pub fn enter(&self) -> Option<Pass<'_>> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if st.0 {
            return None;
        }
        st.1 += 1;
        Some(Pass(self))
    }

    /// Refuses new commands and waits (at most `limit`) for those in flight.
    pub async fn close(&self, limit: Duration) -> usize {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).0 = true;
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let idle = self.idle.notified();
            tokio::pin!(idle);
            // Registered before the count is read, so a command ending in between wakes it.
            idle.as_mut().enable();
            let n = self.state.lock().unwrap_or_else(|e| e.into_inner()).1;
            if n == 0 {
                return 0;
            }
            if tokio::time::timeout_at(deadline, idle).await.is_err() {
                return self.state.lock().unwrap_or_else(|e| e.into_inner()).1;
            }
        }
    }
}

impl Drop for Pass<'_> {
    fn drop(&mut self) {
        let mut st = self.0.state.lock().unwrap_or_else(|e| e.into_inner());
        st.1 -= 1;
        if st.1 == 0 {
            self.0.idle.notify_waiters();
        }
    }
}

/// What can go wrong inside a command once poise has parsed it. Turned into a one-line message
/// for the player in [`super::errors::on_error`]; the detail goes to the log.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CommandError {
    /// Discord refused or lost a request (response, follow-up, message).
    #[error("Discord request failed: {0}")]
    Discord(#[from] serenity::Error),
    /// The table's task ended without an answer (it panicked or was cancelled).
    #[error("the table did not answer: {0}")]
    TableGone(String),
    /// A command arrived in a shape the adapter cannot serve (e.g. as a prefix command).
    #[error("unsupported invocation: {0}")]
    Unsupported(&'static str),
    /// The bot is stopping and takes no new commands.
    #[error("stopping")]
    Stopping,
}

impl CommandError {
    /// The one line the player sees.
    pub fn for_player(&self) -> &'static str {
        match self {
            CommandError::Discord(_) => {
                "Discord did not accept my answer. Your command may have gone through: check /board."
            }
            CommandError::TableGone(_) => {
                "The table hit an internal error; nothing was changed. Please try again."
            }
            CommandError::Unsupported(_) => "Please use this as a slash command.",
            CommandError::Stopping => {
                "Tokar is restarting and took nothing from this command; please try again in a minute."
            }
        }
    }
}

pub(crate) type Context<'a> = poise::Context<'a, Data, CommandError>;

/// The name shown for a user: server nickname, then display name, then account name.
pub(crate) fn user_ref(user: &serenity::User, member: Option<&serenity::Member>) -> UserRef {
    let name = member
        .and_then(|m| m.nick.clone())
        .or_else(|| user.global_name.clone())
        .unwrap_or_else(|| user.name.clone());
    UserRef {
        id: user.id.get(),
        name,
    }
}

/// The channel an interaction came from, with its name when Discord sent one,
/// its server, for a thread the channel it was opened under, and what it offers
/// a game's own thread.
///
/// A thread is known by its type, not by having a parent: "Threads ... have a
/// `parent_id` of the channel they were created in", but a channel inside a
/// category has the category as its `parent_id` too (Resources > Channel >
/// Channel Object: `parent_id` is "for guild channels: id of the parent category
/// for a channel ... for threads: id of the text channel this thread was created").
/// Only types 10, 11 and 12 are threads (Channel Types).
pub(crate) fn channel_ref(
    id: serenity::ChannelId,
    partial: Option<&serenity::PartialChannel>,
    guild: Option<serenity::GuildId>,
) -> ChannelRef {
    let kind = partial.map(|c| c.kind);
    ChannelRef {
        id: id.get(),
        name: partial.and_then(|c| c.name.clone()).unwrap_or_default(),
        guild: guild.map(|g| g.get()),
        parent: partial
            .filter(|c| is_thread(c.kind))
            .and_then(|c| c.parent_id)
            .map(|p| p.get()),
        threads: kind.map_or(ThreadSupport::Unknown, thread_support),
    }
}

/// Discord's thread types: ANNOUNCEMENT_THREAD (10), PUBLIC_THREAD (11), PRIVATE_THREAD (12).
pub(crate) fn is_thread(kind: serenity::ChannelType) -> bool {
    use serenity::ChannelType as T;
    matches!(kind, T::NewsThread | T::PublicThread | T::PrivateThread)
}

/// What a channel of this type offers a game's thread: a public thread under a text channel,
/// an announcement thread under an announcement channel ("ANNOUNCEMENT_THREAD: a temporary
/// sub-channel within a GUILD_ANNOUNCEMENT channel", Channel Types), none elsewhere.
pub(crate) fn thread_support(kind: serenity::ChannelType) -> ThreadSupport {
    use serenity::ChannelType as T;
    match kind {
        T::Text => ThreadSupport::Public,
        T::News => ThreadSupport::Announcement,
        T::Voice => ThreadSupport::Refused(ThreadRefusal::Voice),
        T::Stage => ThreadSupport::Refused(ThreadRefusal::Stage),
        T::Forum => ThreadSupport::Refused(ThreadRefusal::Forum),
        // GUILD_MEDIA (16), which serenity 0.12 does not name, is a forum's kind.
        T::Unknown(16) => ThreadSupport::Refused(ThreadRefusal::Forum),
        T::Category => ThreadSupport::Refused(ThreadRefusal::Category),
        // A thread asks for none (it has a parent); a DM, a directory, anything newer: none.
        _ => ThreadSupport::Refused(ThreadRefusal::ChannelType),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use poise::serenity_prelude::ChannelType as T;

    fn partial(kind: T, parent: Option<u64>) -> serenity::PartialChannel {
        serde_json::from_value(serde_json::json!({
            "id": "5",
            "name": "table",
            "type": u8::from(kind),
            "parent_id": parent.map(|p| p.to_string()),
        }))
        .expect("a partial channel")
    }

    #[test]
    fn a_text_channel_in_a_category_is_no_thread_and_takes_a_public_one() {
        let id = serenity::ChannelId::new(5);
        let c = channel_ref(id, Some(&partial(T::Text, Some(77))), None);
        assert_eq!(c.parent, None, "the category is no thread's parent");
        assert_eq!(c.threads, ThreadSupport::Public);
        let news = channel_ref(id, Some(&partial(T::News, Some(77))), None);
        assert_eq!(news.parent, None);
        assert_eq!(news.threads, ThreadSupport::Announcement);
    }

    #[test]
    fn threads_are_known_by_their_type() {
        let id = serenity::ChannelId::new(5);
        for kind in [T::NewsThread, T::PublicThread, T::PrivateThread] {
            let c = channel_ref(id, Some(&partial(kind, Some(9))), None);
            assert_eq!(c.parent, Some(9), "{kind:?}");
        }
        assert_eq!(channel_ref(id, None, None).parent, None);
        assert_eq!(channel_ref(id, None, None).threads, ThreadSupport::Unknown);
    }

    #[test]
    fn voice_stage_forum_and_category_take_no_game_thread() {
        for (kind, why) in [
            (T::Voice, ThreadRefusal::Voice),
            (T::Stage, ThreadRefusal::Stage),
            (T::Forum, ThreadRefusal::Forum),
            (T::Unknown(16), ThreadRefusal::Forum),
            (T::Category, ThreadRefusal::Category),
            (T::Private, ThreadRefusal::ChannelType),
        ] {
            assert_eq!(
                thread_support(kind),
                ThreadSupport::Refused(why),
                "{kind:?}"
            );
        }
    }
}
