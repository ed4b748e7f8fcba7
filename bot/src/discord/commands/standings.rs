//! Ratings: /leaderboard, /stats.

use poise::serenity_prelude as serenity;

use super::super::data::{CommandError, Context};
use super::{invoke, GameKind, Options};

/// Where a leaderboard's ratings come from.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub(crate) enum Scope {
    #[name = "server"]
    Server,
    #[name = "global"]
    Global,
}

/// The best-rated players of a game, on this server or across servers.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn leaderboard(
    ctx: Context<'_>,
    #[description = "Which game"] game: GameKind,
    #[description = "This server (default) or all servers"] scope: Option<Scope>,
) -> Result<(), CommandError> {
    invoke(
        ctx,
        "leaderboard",
        Options::new()
            .choice("game", Some(game))
            .choice("scope", scope),
    )
    .await
}

/// A player's ratings, history, results and time to move.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn stats(
    ctx: Context<'_>,
    #[description = "Whose statistics (you if left out)"] user: Option<serenity::User>,
    #[description = "Head-to-head against this player"] against: Option<serenity::User>,
) -> Result<(), CommandError> {
    invoke(
        ctx,
        "stats",
        Options::new()
            .user("user", user.as_ref())
            .user("against", against.as_ref()),
    )
    .await
}
