//! Round-robin leagues: /league new, accept, decline, table, list, leave.
//! Each subcommand hands its options to the table's `league` command, the
//! subcommand's name first (as the console types `/league new ...`).

use super::super::data::{CommandError, Context};
use super::{count, invoke, GameKind};
use tokar_model::command::{deadline_setting, LeagueCommand, NewLeague, UserArg};
use tokar_model::league::rules::{Numbers, TieBreaks, Withdrawal};
use tokar_model::{Command, Refusal};

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

#[poise::command(
    slash_command,
    guild_only,
    subcommands("new", "accept", "decline", "table", "list", "leave", "cancel"),
    subcommand_required
)]
pub(crate) async fn league(_ctx: Context<'_>) -> Result<(), CommandError> {
    Ok(())
}

fn sub(command: LeagueCommand) -> Result<Command, Refusal> {
    Ok(Command::League(command))
}

// A slash command's options are its parameters (poise), one each.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command, guild_only)]
pub(crate) async fn new(
    ctx: Context<'_>,
    game: GameKind,
    name: String,
    players: String,
    double: Option<YesNo>,
    deadline: Option<String>,
    #[min = 1]
    #[max = 4]
    team: Option<u64>,
    tiebreaks: Option<TieBreakList>,
    withdrawal: Option<WithdrawalRule>,
    numbers: Option<PairingNumbers>,
    rated: Option<YesNo>,
    vacation: Option<OnOff>,
) -> Result<(), CommandError> {
    let command = (|| -> Result<Command, Refusal> {
        let game = game.kind();
        let name = name.trim().to_string();
        // As the console reads them: checked in the same order, with the same words.
        if !game.available() {
            return Err(format!("{} cannot be played yet.", game.title()).into());
        }
        if name.is_empty() || name.chars().count() > 32 || name.starts_with('#') {
            return Err("A league's name is 1 to 32 characters (not starting with #).".into());
        }
        let deadline = deadline.as_deref().map(deadline_setting).transpose()?;
        let team = match team {
            None => 1,
            Some(t) if game == tokar_engine::catalog::GameKind::Gladiator => count(t),
            Some(_) => return Err("team: is for Gladiator leagues, where teams play teams.".into()),
        };
        sub(LeagueCommand::New(NewLeague {
            game,
            name,
            players: players.split_whitespace().map(UserArg::from_text).collect(),
            double: matches!(double, Some(YesNo::Yes)),
            deadline,
            team,
            tiebreaks: tiebreaks.map_or_else(TieBreaks::default, |t| match t {
                TieBreakList::Fide => TieBreaks::Fide,
                TieBreakList::Sb => TieBreaks::Sb,
            }),
            withdrawal: withdrawal.map_or_else(Withdrawal::default, |w| match w {
                WithdrawalRule::Fide => Withdrawal::Fide,
                WithdrawalRule::Iccf => Withdrawal::Iccf,
            }),
            numbers: numbers.map_or_else(Numbers::default, |n| match n {
                PairingNumbers::Lot => Numbers::Lot,
                PairingNumbers::Rating => Numbers::Rating,
                PairingNumbers::Listed => Numbers::Listed,
            }),
            rated: !matches!(rated, Some(YesNo::No)),
            vacation: !matches!(vacation, Some(OnOff::Off)),
        }))
    })();
    invoke(ctx, command).await
}

#[poise::command(slash_command, guild_only)]
pub(crate) async fn accept(ctx: Context<'_>, name: Option<String>) -> Result<(), CommandError> {
    invoke(ctx, sub(LeagueCommand::Answer { yes: true, name })).await
}

#[poise::command(slash_command, guild_only)]
pub(crate) async fn decline(ctx: Context<'_>, name: Option<String>) -> Result<(), CommandError> {
    invoke(ctx, sub(LeagueCommand::Answer { yes: false, name })).await
}

#[poise::command(slash_command, guild_only)]
pub(crate) async fn table(ctx: Context<'_>, name: Option<String>) -> Result<(), CommandError> {
    invoke(ctx, sub(LeagueCommand::Table { name })).await
}

#[poise::command(slash_command, guild_only)]
pub(crate) async fn list(ctx: Context<'_>) -> Result<(), CommandError> {
    invoke(ctx, sub(LeagueCommand::List)).await
}

#[poise::command(slash_command, guild_only)]
pub(crate) async fn leave(ctx: Context<'_>, name: String) -> Result<(), CommandError> {
    invoke(ctx, sub(LeagueCommand::Leave { name: Some(name) })).await
}

#[poise::command(slash_command, guild_only)]
pub(crate) async fn cancel(ctx: Context<'_>, name: String) -> Result<(), CommandError> {
    invoke(ctx, sub(LeagueCommand::Cancel { name: Some(name) })).await
}
