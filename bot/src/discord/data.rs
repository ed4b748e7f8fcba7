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
}

impl Data {
    pub fn new(table: Table, settings: &DiscordSettings) -> Self {
        Self {
            table,
            defer_after: settings.defer_after,
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

/// The channel an interaction came from, with its name when Discord sent one.
pub(crate) fn channel_ref(
    id: serenity::ChannelId,
    partial: Option<&serenity::PartialChannel>,
) -> ChannelRef {
    ChannelRef {
        id: id.get(),
        name: partial.and_then(|c| c.name.clone()).unwrap_or_default(),
    }
}
