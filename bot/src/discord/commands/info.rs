//! Reference: /rules, /help.

use super::super::autocomplete as ac;
use super::super::data::{CommandError, Context};
use super::{invoke, GameKind, Options};

/// Read the rules of a game, or of one unit.
#[poise::command(slash_command, interaction_context = "Guild|BotDm")]
pub(crate) async fn rules(
    ctx: Context<'_>,
    #[description = "Which game"] game: Option<GameKind>,
    #[description = "One unit or piece"]
    #[autocomplete = "ac::unit"]
    unit: Option<String>,
) -> Result<(), CommandError> {
    invoke(
        ctx,
        "rules",
        Options::new().choice("game", game).with("unit", unit),
    )
    .await
}

/// List the commands, privately.
#[poise::command(slash_command, interaction_context = "Guild|BotDm")]
pub(crate) async fn help(ctx: Context<'_>) -> Result<(), CommandError> {
    invoke(ctx, "help", Options::new()).await
}
