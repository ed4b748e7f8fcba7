//! Playing a game: /play, /board, /moves, /hand, /undo, /resign, /draw, /claim.

use super::super::autocomplete as ac;
use super::super::data::{CommandError, Context};
use super::{invoke, Options};

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

/// Make your move.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn play(
    ctx: Context<'_>,
    #[description = "Your move (start typing for the legal ones)"]
    #[autocomplete = "ac::action"]
    action: String,
    #[description = "Game number (if you play several here)"]
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), CommandError> {
    invoke(
        ctx,
        "play",
        Options::new()
            .with("action", Some(action))
            .with("game", game),
    )
    .await
}

/// Show the board.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn board(
    ctx: Context<'_>,
    #[description = "Game number"]
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), CommandError> {
    invoke(ctx, "board", Options::new().with("game", game)).await
}

/// Ask Tokar privately for your best action, with a line on why.
#[poise::command(slash_command, interaction_context = "Guild|BotDm")]
pub(crate) async fn hint(
    ctx: Context<'_>,
    #[description = "Game number"]
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), CommandError> {
    invoke(ctx, "hint", Options::new().with("game", game)).await
}

/// List the legal moves of a piece (or all of them), privately.
#[poise::command(slash_command, interaction_context = "Guild|BotDm")]
pub(crate) async fn moves(
    ctx: Context<'_>,
    #[description = "The square of the piece"]
    #[autocomplete = "ac::square"]
    square: Option<String>,
    #[description = "Which page of a long list"]
    #[min = 1]
    page: Option<u64>,
    #[description = "Game number"]
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), CommandError> {
    invoke(
        ctx,
        "moves",
        Options::new()
            .with("square", square)
            .with("page", page)
            .with("game", game),
    )
    .await
}

/// Show your hidden cards, privately.
#[poise::command(slash_command, interaction_context = "Guild|BotDm")]
pub(crate) async fn hand(
    ctx: Context<'_>,
    #[description = "Game number"]
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), CommandError> {
    invoke(ctx, "hand", Options::new().with("game", game)).await
}

/// Offer, accept or decline taking back the last move.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn undo(
    ctx: Context<'_>,
    #[description = "offer, accept or decline (default: offer)"] answer: Option<Answer>,
    #[description = "Game number"]
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), CommandError> {
    invoke(
        ctx,
        "undo",
        Options::new().choice("answer", answer).with("game", game),
    )
    .await
}

/// Resign the game.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn resign(
    ctx: Context<'_>,
    #[description = "Game number"]
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
    #[description = "True: resign at once, without the confirmation button"] confirm: Option<bool>,
) -> Result<(), CommandError> {
    let confirm = confirm.filter(|c| *c).map(|_| "yes");
    invoke(
        ctx,
        "resign",
        Options::new().with("game", game).with("confirm", confirm),
    )
    .await
}

/// Offer, accept or decline a draw.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn draw(
    ctx: Context<'_>,
    #[description = "offer, accept or decline (default: offer)"] answer: Option<Answer>,
    #[description = "Game number"]
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), CommandError> {
    invoke(
        ctx,
        "draw",
        Options::new().choice("answer", answer).with("game", game),
    )
    .await
}

/// Claim a win when your opponent let the move deadline pass.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn claim(
    ctx: Context<'_>,
    #[description = "Game number"]
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), CommandError> {
    invoke(ctx, "claim", Options::new().with("game", game)).await
}
