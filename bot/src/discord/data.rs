//! The one data struct every command shares, and the adapter's error type.

use std::time::Duration;

use poise::serenity_prelude as serenity;

use super::settings::DiscordSettings;
use crate::table::{ChannelRef, Table, UserRef};

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
/// its server, and for a thread the channel it was opened under.
pub(crate) fn channel_ref(
    id: serenity::ChannelId,
    partial: Option<&serenity::PartialChannel>,
    guild: Option<serenity::GuildId>,
) -> ChannelRef {
    ChannelRef {
        id: id.get(),
        name: partial.and_then(|c| c.name.clone()).unwrap_or_default(),
        guild: guild.map(|g| g.get()),
        parent: partial.and_then(|c| c.parent_id).map(|p| p.get()),
    }
}
