//! Starting and finding games: /new, /accept, /decline, /join, /games, /history, /export.

use poise::serenity_prelude as serenity;

use super::super::autocomplete as ac;
use super::super::data::{CommandError, Context};
use super::{invoke, GameKind, Options};

/// Challenge players to a new game in this channel.
// Each argument is one slash-command option: Discord's form, not a design choice.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command, guild_only)]
pub(crate) async fn new(
    ctx: Context<'_>,
    #[description = "Which game"] game: GameKind,
    #[description = "Who you challenge"] opponent: Option<serenity::User>,
    #[description = "Second opponent (games for more players)"] opponent2: Option<serenity::User>,
    #[description = "Third opponent (games for more players)"] opponent3: Option<serenity::User>,
    #[description = "Number of seats (to hold several seats yourself)"]
    #[min = 1]
    #[max = 8]
    players: Option<u64>,
    #[description = "Arcana: your army (human, undead, undead-arcana, alternate, or picks)"]
    army: Option<String>,
    #[description = "Arcana: who moves first (random, creator, opponent)"] first: Option<String>,
    #[description = "Arachne: strategist, convenient or original"] variant: Option<String>,
    #[description = "Computer opponents filling open seats"]
    #[min = 0]
    #[max = 7]
    bots: Option<u64>,
    #[description = "Computer level: easy, normal, hard"] level: Option<String>,
    #[description = "Allow /hint in this game: on or off"] hints: Option<String>,
    #[description = "Start from an exported game record"] record: Option<String>,
    #[description = "Other game options as name:value pairs (e.g. partners:yes freeze-cards:12)"]
    options: Option<String>,
) -> Result<(), CommandError> {
    let options = Options::new()
        .choice("game", Some(game))
        .user("opponent", opponent.as_ref())
        .user("opponent2", opponent2.as_ref())
        .user("opponent3", opponent3.as_ref())
        .with("players", players)
        .with("army", army)
        .with("first", first)
        .with("variant", variant)
        .with("bots", bots)
        .with("level", level)
        .with("hints", hints)
        .with("record", record)
        .pairs(options.as_deref());
    invoke(ctx, "new", options).await
}

/// Accept a challenge.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn accept(
    ctx: Context<'_>,
    #[description = "Game number (if you have several challenges)"]
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
    #[description = "Arcana: your army (human, undead, undead-arcana, alternate, or picks)"]
    army: Option<String>,
) -> Result<(), CommandError> {
    invoke(
        ctx,
        "accept",
        Options::new().with("game", game).with("army", army),
    )
    .await
}

/// Decline a challenge.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn decline(
    ctx: Context<'_>,
    #[description = "Game number (if you have several challenges)"]
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), CommandError> {
    invoke(ctx, "decline", Options::new().with("game", game)).await
}

/// Take a free seat in an open game.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn join(
    ctx: Context<'_>,
    #[description = "Game number"]
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
    #[description = "Arcana: your army (human, undead, undead-arcana, alternate, or picks)"]
    army: Option<String>,
) -> Result<(), CommandError> {
    invoke(
        ctx,
        "join",
        Options::new().with("game", game).with("army", army),
    )
    .await
}

/// List your games and whose turn it is.
#[poise::command(slash_command, interaction_context = "Guild|BotDm")]
pub(crate) async fn games(ctx: Context<'_>) -> Result<(), CommandError> {
    invoke(ctx, "games", Options::new()).await
}

/// Show the moves played so far.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn history(
    ctx: Context<'_>,
    #[description = "Game number"]
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), CommandError> {
    invoke(ctx, "history", Options::new().with("game", game)).await
}

/// Export a game's record.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn export(
    ctx: Context<'_>,
    #[description = "Game number"]
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), CommandError> {
    invoke(ctx, "export", Options::new().with("game", game)).await
}

/// Continue here a game whose channel was deleted or closed to the bot.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn resume(
    ctx: Context<'_>,
    #[description = "Game number (see /games)"]
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: u64,
) -> Result<(), CommandError> {
    invoke(ctx, "resume", Options::new().with("game", Some(game))).await
}
