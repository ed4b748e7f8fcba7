//! Playing a game: /play, /board, /moves, /hand, /undo, /resign, /draw, /claim.

use super::super::autocomplete as ac;
use super::super::data::{CommandError, Context};
use super::{count, invoke};
use tokar_model::command::Answer as Answered;
use tokar_model::Command;

/// Answers to a draw or take-back offer.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub(crate) enum Answer {
    #[name = "offer"]
    Offer,
    #[name = "accept"]
    Accept,
    #[name = "decline"]
    Decline,
}

impl Answer {
    fn typed(self) -> Answered {
        match self {
            Answer::Offer => Answered::Offer,
            Answer::Accept => Answered::Accept,
            Answer::Decline => Answered::Decline,
        }
    }
}

#[poise::command(slash_command, guild_only)]
pub(crate) async fn play(
    ctx: Context<'_>,
    #[autocomplete = "ac::action"] action: String,
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), CommandError> {
    invoke(ctx, Ok(Command::Play { game, action })).await
}

#[poise::command(slash_command, guild_only)]
pub(crate) async fn board(
    ctx: Context<'_>,
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), CommandError> {
    invoke(ctx, Ok(Command::Board { game })).await
}

#[poise::command(slash_command, interaction_context = "Guild|BotDm")]
pub(crate) async fn hint(
    ctx: Context<'_>,
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), CommandError> {
    invoke(ctx, Ok(Command::Hint { game })).await
}

#[poise::command(slash_command, interaction_context = "Guild|BotDm")]
pub(crate) async fn moves(
    ctx: Context<'_>,
    #[autocomplete = "ac::square"] square: Option<String>,
    #[min = 1] page: Option<u64>,
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), CommandError> {
    let page = page.map_or(1, count);
    invoke(ctx, Ok(Command::Moves { game, square, page })).await
}

#[poise::command(slash_command, interaction_context = "Guild|BotDm")]
pub(crate) async fn hand(
    ctx: Context<'_>,
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), CommandError> {
    invoke(ctx, Ok(Command::Hand { game })).await
}

#[poise::command(slash_command, guild_only)]
pub(crate) async fn undo(
    ctx: Context<'_>,
    answer: Option<Answer>,
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), CommandError> {
    let answer = answer.map(Answer::typed);
    invoke(ctx, Ok(Command::Undo { game, answer })).await
}

#[poise::command(slash_command, guild_only)]
pub(crate) async fn resign(
    ctx: Context<'_>,
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
    confirm: Option<bool>,
) -> Result<(), CommandError> {
    let confirm = confirm == Some(true);
    invoke(ctx, Ok(Command::Resign { game, confirm })).await
}

#[poise::command(slash_command, guild_only)]
pub(crate) async fn draw(
    ctx: Context<'_>,
    answer: Option<Answer>,
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), CommandError> {
    let answer = answer.map(Answer::typed);
    invoke(ctx, Ok(Command::Draw { game, answer })).await
}

#[poise::command(slash_command, guild_only)]
pub(crate) async fn claim(
    ctx: Context<'_>,
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), CommandError> {
    invoke(ctx, Ok(Command::Claim { game })).await
}
