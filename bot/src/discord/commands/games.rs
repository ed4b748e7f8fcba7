//! Starting and finding games: /new, /accept, /decline, /join, /games, /history, /export, /replay.

use poise::serenity_prelude as serenity;

use super::super::answer::Prepare;
use super::super::autocomplete as ac;
use super::super::data::{CommandError, Context};
use super::{invoke, invoke_prepared, GameKind, Options};

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
    #[description = "Move deadline of this game, 1d-90d (default: your /settings)"]
    #[autocomplete = "ac::deadline"]
    deadline: Option<String>,
    #[description = "Reminder interval in this game, at least 1h (default: each player's)"]
    #[autocomplete = "ac::reminder"]
    reminder: Option<String>,
    #[description = "Count for ratings: yes (default between people) or no"] rated: Option<String>,
    #[description = "Whether a player's /vacation stops this game's clock: on (default) or off"]
    vacation: Option<String>,
    #[description = "Start from an exported game record"] record: Option<String>,
    #[description = "Other game options as name:value pairs (e.g. partners:yes freeze-cards:12)"]
    options: Option<String>,
    #[description = "Start from an exported game record sent as a .txt file (long records)"]
    record_file: Option<serenity::Attachment>,
) -> Result<(), CommandError> {
    // A record file is read inside the defer timer (see `serve_prepared`): a slow download
    // defers the interaction in time instead of missing Discord's 3 s.
    let (record, prepare): (Option<String>, Option<Prepare>) = match (record, record_file) {
        (Some(_), Some(_)) => (
            None,
            Some(Box::pin(async {
                Err("Give the record as text or as a file, not both.".to_owned())
            })),
        ),
        (None, Some(file)) => (
            None,
            Some(Box::pin(async move {
                read_record(&file)
                    .await
                    .map(|text| vec![("record".to_owned(), text)])
            })),
        ),
        (text, None) => (text, None),
    };
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
        .with("deadline", deadline)
        .with("reminder", reminder)
        .with("rated", rated)
        .with("vacation", vacation)
        .with("record", record)
        .pairs(options.as_deref());
    invoke_prepared(ctx, "new", options, prepare).await
}

/// A record file's text. Discord caps a string option at 6000 characters; a long game's record
/// comes as the file `/export` makes.
async fn read_record(file: &serenity::Attachment) -> Result<String, String> {
    /// Far more than any game's record; a larger file is not one.
    const MAX: u32 = 1 << 20;
    if file.size > MAX {
        return Err(format!(
            "{} is {} KB: a game record is far smaller.",
            file.filename,
            file.size / 1024
        ));
    }
    let bytes = file.download().await.map_err(|e| {
        tracing::warn!(error = %e, "cannot download a record file");
        format!(
            "I could not read {} from Discord; please try again.",
            file.filename
        )
    })?;
    let text = String::from_utf8(bytes).map_err(|_| {
        format!(
            "{} is not a text file; send the record /export made.",
            file.filename
        )
    })?;
    Ok(text.trim().to_owned())
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

/// Which games `/games` lists.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub(crate) enum Scope {
    #[name = "mine"]
    Mine,
    #[name = "server"]
    Server,
}

/// List your games and whose turn it is, or this server's games.
#[poise::command(slash_command, interaction_context = "Guild|BotDm")]
pub(crate) async fn games(
    ctx: Context<'_>,
    #[description = "mine (default) or this server's: open seats, games in play, results"]
    scope: Option<Scope>,
    #[description = "Which page of a long list"]
    #[min = 1]
    page: Option<u64>,
) -> Result<(), CommandError> {
    invoke(
        ctx,
        "games",
        Options::new().choice("scope", scope).with("page", page),
    )
    .await
}

/// Be pinged once when a game ends (never for its turns).
// The answer is private and changes no play, so it works in a DM with the bot too.
#[poise::command(slash_command, interaction_context = "Guild|BotDm")]
pub(crate) async fn follow(
    ctx: Context<'_>,
    #[description = "Game number"]
    #[min = 1]
    game: u64,
    #[description = "Stop following it"] stop: Option<bool>,
) -> Result<(), CommandError> {
    let stop = stop.map(|s| if s { "yes" } else { "no" });
    invoke(
        ctx,
        "follow",
        Options::new().with("game", Some(game)).with("stop", stop),
    )
    .await
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

/// Replay a game as an animated picture: a finished game for anyone, a game in play for its players.
#[poise::command(slash_command, guild_only)]
pub(crate) async fn replay(
    ctx: Context<'_>,
    #[description = "Game number"]
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), CommandError> {
    invoke(ctx, "replay", Options::new().with("game", game)).await
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
