//! Starting and finding games: /new, /accept, /decline, /join, /games, /history, /export, /replay.

use poise::serenity_prelude as serenity;

use super::super::answer::Prepare;
use super::super::autocomplete as ac;
use super::super::data::{CommandError, Context};
use super::{count, invoke, invoke_prepared, user_arg, GameKind};
use tokar_model::command::{Args, NewGame};
use tokar_model::Command;

// Each argument is one slash-command option: Discord's form, not a design choice.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command, guild_only)]
pub(crate) async fn new(
    ctx: Context<'_>,
    game: GameKind,
    opponent: Option<serenity::User>,
    opponent2: Option<serenity::User>,
    opponent3: Option<serenity::User>,
    #[min = 1]
    #[max = 8]
    players: Option<u64>,
    army: Option<String>,
    first: Option<String>,
    variant: Option<String>,
    #[min = 0]
    #[max = 7]
    bots: Option<u64>,
    level: Option<String>,
    hints: Option<String>,
    #[autocomplete = "ac::deadline"] deadline: Option<String>,
    #[autocomplete = "ac::reminder"] reminder: Option<String>,
    rated: Option<String>,
    vacation: Option<String>,
    record: Option<String>,
    options: Option<String>,
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
            Some(Box::pin(async move { read_record(&file).await })),
        ),
        (text, None) => (text, None),
    };
    // What Discord leaves as text is read as the console reads it.
    let mut text: Vec<(String, String)> = [
        ("army", army),
        ("first", first),
        ("variant", variant),
        ("level", level),
        ("hints", hints),
        ("deadline", deadline),
        ("reminder", reminder),
        ("rated", rated),
        ("vacation", vacation),
        ("record", record),
    ]
    .into_iter()
    .filter_map(|(k, v)| Some((k.to_owned(), v?)))
    .collect();
    // The free-text field: `name:value` pairs separated by spaces (`partners:yes
    // freeze-cards:12`), the console's syntax; a word without a colon is a name with no
    // value, refused as the console's is.
    for word in options.as_deref().unwrap_or("").split_whitespace() {
        let (name, value) = word.split_once(':').unwrap_or((word, ""));
        text.push((name.to_owned(), value.to_owned()));
    }
    let opponents = [opponent, opponent2, opponent3]
        .iter()
        .flatten()
        .map(user_arg)
        .collect();
    let command = NewGame::from_typed(
        game.kind(),
        opponents,
        players.map(count),
        bots.map(count),
        &text,
    )
    .map(Command::New);
    invoke_prepared(ctx, command, prepare).await
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

/// `army:` of /accept and /join, the game's own option a player chooses, for the engine to
/// judge once the game is known.
fn army_option(army: Option<String>) -> Result<Args, tokar_model::Refusal> {
    let pairs: Vec<(String, String)> = army.map(|a| ("army".to_owned(), a)).into_iter().collect();
    Args::new(&pairs, None)
}

#[poise::command(slash_command, guild_only)]
pub(crate) async fn accept(
    ctx: Context<'_>,
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
    army: Option<String>,
) -> Result<(), CommandError> {
    let options = army_option(army);
    invoke(
        ctx,
        options.map(|options| Command::Accept { game, options }),
    )
    .await
}

#[poise::command(slash_command, guild_only)]
pub(crate) async fn decline(
    ctx: Context<'_>,
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), CommandError> {
    invoke(ctx, Ok(Command::Decline { game })).await
}

#[poise::command(slash_command, guild_only)]
pub(crate) async fn join(
    ctx: Context<'_>,
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
    army: Option<String>,
) -> Result<(), CommandError> {
    let options = army_option(army);
    invoke(ctx, options.map(|options| Command::Join { game, options })).await
}

/// Which games `/games` lists.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub(crate) enum Scope {
    #[name = "mine"]
    Mine,
    #[name = "server"]
    Server,
}

#[poise::command(slash_command, interaction_context = "Guild|BotDm")]
pub(crate) async fn games(
    ctx: Context<'_>,
    scope: Option<Scope>,
    #[min = 1] page: Option<u64>,
) -> Result<(), CommandError> {
    let server = matches!(scope, Some(Scope::Server));
    let page = page.map_or(1, count);
    invoke(ctx, Ok(Command::Games { server, page })).await
}

// The answer is private and changes no play, so it works in a DM with the bot too.
#[poise::command(slash_command, interaction_context = "Guild|BotDm")]
pub(crate) async fn follow(
    ctx: Context<'_>,
    #[min = 1] game: u64,
    stop: Option<bool>,
) -> Result<(), CommandError> {
    let stop = stop == Some(true);
    invoke(ctx, Ok(Command::Follow { game, stop })).await
}

#[poise::command(slash_command, guild_only)]
pub(crate) async fn history(
    ctx: Context<'_>,
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), CommandError> {
    invoke(ctx, Ok(Command::History { game })).await
}

#[poise::command(slash_command, guild_only)]
pub(crate) async fn export(
    ctx: Context<'_>,
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), CommandError> {
    invoke(ctx, Ok(Command::Export { game })).await
}

#[poise::command(slash_command, guild_only)]
pub(crate) async fn replay(
    ctx: Context<'_>,
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), CommandError> {
    invoke(ctx, Ok(Command::Replay { game })).await
}

#[poise::command(slash_command, guild_only)]
pub(crate) async fn resume(
    ctx: Context<'_>,
    #[autocomplete = "ac::game"]
    #[min = 1]
    game: u64,
) -> Result<(), CommandError> {
    invoke(ctx, Ok(Command::Resume { game })).await
}
