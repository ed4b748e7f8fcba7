//! A player's own settings: /settings, /vacation.

use super::super::autocomplete as ac;
use super::super::data::{CommandError, Context};
use super::{invoke, Options};

/// On or off.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub(crate) enum Switch {
    #[name = "on"]
    On,
    #[name = "off"]
    Off,
}

/// Show or change when you are reminded and your move deadline.
#[poise::command(slash_command, interaction_context = "Guild|BotDm")]
pub(crate) async fn settings(
    ctx: Context<'_>,
    #[description = "Remind me after (e.g. 12h, 1d, off)"]
    #[autocomplete = "ac::reminder"]
    reminder: Option<String>,
    #[description = "Move deadline for new games (e.g. 3d, 7d, off)"]
    #[autocomplete = "ac::deadline"]
    deadline: Option<String>,
) -> Result<(), CommandError> {
    invoke(
        ctx,
        "settings",
        Options::new()
            .with("reminder", reminder)
            .with("deadline", deadline),
    )
    .await
}

/// Pause your reminders and deadlines while you are away.
#[poise::command(slash_command, interaction_context = "Guild|BotDm")]
pub(crate) async fn vacation(
    ctx: Context<'_>,
    #[description = "on: away; off: back (empty: show)"] state: Option<Switch>,
) -> Result<(), CommandError> {
    invoke(ctx, "vacation", Options::new().choice("state", state)).await
}

/// Show or change this server's settings (changing them needs Manage Server).
#[poise::command(
    slash_command,
    interaction_context = "Guild",
    default_member_permissions = "MANAGE_GUILD"
)]
pub(crate) async fn server(
    ctx: Context<'_>,
    #[description = "on: each game gets its own thread; off: games stay in their channel"]
    threads: Option<Switch>,
    #[description = "on: games against Tokar are rated; off: they are not (the default)"]
    #[rename = "rated-bots"]
    rated_bots: Option<Switch>,
) -> Result<(), CommandError> {
    invoke(
        ctx,
        "server",
        Options::new()
            .choice("threads", threads)
            .choice("rated-bots", rated_bots),
    )
    .await
}
