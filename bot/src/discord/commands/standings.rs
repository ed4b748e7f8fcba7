//! Ratings: /leaderboard, /stats.

use poise::serenity_prelude as serenity;

use super::super::data::{CommandError, Context};
use super::{invoke, GameKind};
use tokar_model::command::RatingScope;
use tokar_model::Command;

/// Where a leaderboard's ratings come from.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub(crate) enum Scope {
    #[name = "server"]
    Server,
    #[name = "global"]
    Global,
}

#[poise::command(slash_command, guild_only)]
pub(crate) async fn leaderboard(
    ctx: Context<'_>,
    game: GameKind,
    scope: Option<Scope>,
) -> Result<(), CommandError> {
    let scope = scope.map(|s| match s {
        Scope::Server => RatingScope::Server,
        Scope::Global => RatingScope::Global,
    });
    let game = game.kind();
    invoke(ctx, Ok(Command::Leaderboard { game, scope })).await
}

#[poise::command(slash_command, guild_only)]
pub(crate) async fn stats(
    ctx: Context<'_>,
    user: Option<serenity::User>,
    against: Option<serenity::User>,
) -> Result<(), CommandError> {
    invoke(
        ctx,
        Ok(Command::Stats {
            user: user.map(|u| u.id.get()),
            against: against.map(|u| u.id.get()),
        }),
    )
    .await
}
