//! Round-robin leagues: /league new, accept, decline, table, list, leave.
//! Each subcommand hands its options to the table's `league` command, the
//! subcommand's name first (as the console types `/league new ...`).

use super::super::data::{CommandError, Context};
use super::{invoke, GameKind, Options};

/// Yes or no.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub(crate) enum YesNo {
    #[name = "yes"]
    Yes,
    #[name = "no"]
    No,
}

/// On or off.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub(crate) enum OnOff {
    #[name = "on"]
    On,
    #[name = "off"]
    Off,
}

/// A league's tie-break list (T43).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub(crate) enum TieBreakList {
    #[name = "fide"]
    Fide,
    #[name = "sb"]
    Sb,
}

/// What leaving a league does to the standings (T44).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub(crate) enum WithdrawalRule {
    #[name = "fide"]
    Fide,
    #[name = "iccf"]
    Iccf,
}

/// How the pairing numbers are given (T33).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub(crate) enum PairingNumbers {
    #[name = "lot"]
    Lot,
    #[name = "rating"]
    Rating,
    #[name = "listed"]
    Listed,
}

/// Round-robin leagues of this server.
#[poise::command(
    slash_command,
    guild_only,
    subcommands("new", "accept", "decline", "table", "list", "leave", "cancel"),
    subcommand_required
)]
pub(crate) async fn league(_ctx: Context<'_>) -> Result<(), CommandError> {
    Ok(())
}

fn sub(name: &str) -> Options {
    Options::new().with("", Some(name))
}

/// Start a league: every player is asked to say yes first.
// A slash command's options are its parameters (poise), one each.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command, guild_only)]
pub(crate) async fn new(
    ctx: Context<'_>,
    #[description = "Which game"] game: GameKind,
    #[description = "The league's name"] name: String,
    #[description = "The players, as mentions: @a @b @c"] players: String,
    #[description = "Play every pairing twice, home and away"] double: Option<YesNo>,
    #[description = "Move deadline of its games (1d to 90d; default yours)"] deadline: Option<
        String,
    >,
    #[description = "Gladiator: players per team (consecutive players form a team)"]
    #[min = 1]
    #[max = 4]
    team: Option<u64>,
    #[description = "Tie-breaks: fide (DE, wins, SB, Koya, lots; default) or sb (SB, wins, lots)"]
    tiebreaks: Option<TieBreakList>,
    #[description = "Leaving: fide (under half played: annulled; default) or iccf (games left lost)"]
    withdrawal: Option<WithdrawalRule>,
    #[description = "Pairing numbers: lot (default), rating, or listed (order of players)"]
    numbers: Option<PairingNumbers>,
    #[description = "Count its games for ratings: yes (default; no hints) or no"] rated: Option<
        YesNo,
    >,
    #[description = "Whether a player's /vacation stops its games' clocks: on (default) or off"]
    vacation: Option<OnOff>,
) -> Result<(), CommandError> {
    let options = sub("new")
        .choice("game", Some(game))
        .with("name", Some(name))
        .with("players", Some(players))
        .choice("double", double)
        .with("deadline", deadline)
        .with("team", team)
        .choice("tiebreaks", tiebreaks)
        .choice("withdrawal", withdrawal)
        .choice("numbers", numbers)
        .choice("rated", rated)
        .choice("vacation", vacation);
    invoke(ctx, "league", options).await
}

/// Say yes to a league you are invited to.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn accept(
    ctx: Context<'_>,
    #[description = "The league's name"] name: Option<String>,
) -> Result<(), CommandError> {
    invoke(ctx, "league", sub("accept").with("name", name)).await
}

/// Say no to a league you are invited to (it is cancelled).
#[poise::command(slash_command, guild_only)]
pub(crate) async fn decline(
    ctx: Context<'_>,
    #[description = "The league's name"] name: Option<String>,
) -> Result<(), CommandError> {
    invoke(ctx, "league", sub("decline").with("name", name)).await
}

/// A league's standings.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn table(
    ctx: Context<'_>,
    #[description = "The league's name"] name: Option<String>,
) -> Result<(), CommandError> {
    invoke(ctx, "league", sub("table").with("name", name)).await
}

/// This server's leagues.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn list(ctx: Context<'_>) -> Result<(), CommandError> {
    invoke(ctx, "league", sub("list")).await
}

/// Leave a league: your games left are lost at the move deadline.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn leave(
    ctx: Context<'_>,
    #[description = "The league's name"] name: String,
) -> Result<(), CommandError> {
    invoke(ctx, "league", sub("leave").with("name", Some(name))).await
}

/// Call off a league you created that has not started.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn cancel(
    ctx: Context<'_>,
    #[description = "The league's name"] name: String,
) -> Result<(), CommandError> {
    invoke(ctx, "league", sub("cancel").with("name", Some(name))).await
}
