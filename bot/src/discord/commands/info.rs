//! Reference: /rules, /help.

use super::super::autocomplete as ac;
use super::super::data::{CommandError, Context};
use super::{invoke, GameKind};
use tokar_model::Command;

#[poise::command(slash_command, interaction_context = "Guild|BotDm")]
pub(crate) async fn rules(
    ctx: Context<'_>,
    game: Option<GameKind>,
    #[autocomplete = "ac::unit"] unit: Option<String>,
) -> Result<(), CommandError> {
    // The game's slug: the table reads a topic after it when typed on the console.
    let game = game.map(|g| g.kind().slug().to_string());
    invoke(ctx, Ok(Command::Rules { game, unit })).await
}

#[poise::command(slash_command, interaction_context = "Guild|BotDm")]
pub(crate) async fn help(ctx: Context<'_>) -> Result<(), CommandError> {
    invoke(ctx, Ok(Command::Help)).await
}
