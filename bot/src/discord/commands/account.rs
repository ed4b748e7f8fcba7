//! A player's own settings: /settings, /vacation.

use super::super::autocomplete as ac;
use super::super::data::{CommandError, Context};
use super::invoke;
use tokar_model::command::{deadline_setting, settings_reminder};
use tokar_model::{Command, Refusal};

/// On or off.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub(crate) enum Switch {
    #[name = "on"]
    On,
    #[name = "off"]
    Off,
}

impl Switch {
    fn on(self) -> bool {
        matches!(self, Switch::On)
    }
}

#[poise::command(slash_command, interaction_context = "Guild|BotDm")]
pub(crate) async fn settings(
    ctx: Context<'_>,
    #[autocomplete = "ac::reminder"] reminder: Option<String>,
    #[autocomplete = "ac::deadline"] deadline: Option<String>,
) -> Result<(), CommandError> {
    let command = (|| -> Result<Command, Refusal> {
        Ok(Command::Settings {
            reminder: reminder.as_deref().map(settings_reminder).transpose()?,
            deadline: deadline.as_deref().map(deadline_setting).transpose()?,
        })
    })();
    invoke(ctx, command).await
}

#[poise::command(slash_command, interaction_context = "Guild|BotDm")]
pub(crate) async fn vacation(ctx: Context<'_>, state: Option<Switch>) -> Result<(), CommandError> {
    let state = state.map(Switch::on);
    invoke(ctx, Ok(Command::Vacation { state })).await
}

#[poise::command(
    slash_command,
    interaction_context = "Guild",
    default_member_permissions = "MANAGE_GUILD"
)]
pub(crate) async fn server(
    ctx: Context<'_>,
    threads: Option<Switch>,
    #[rename = "rated-bots"] rated_bots: Option<Switch>,
) -> Result<(), CommandError> {
    invoke(
        ctx,
        Ok(Command::Server {
            threads: threads.map(Switch::on),
            rated_bots: rated_bots.map(Switch::on),
        }),
    )
    .await
}
