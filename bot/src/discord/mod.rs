//! The Discord adapter: the table's commands as slash commands (poise 0.7 on serenity 0.12).
//!
//! The adapter holds no game logic. A slash command or a button click becomes one table
//! [`Request`]; the table's [`Reply`]s become the interaction's response (ephemeral when
//! private), follow-ups, channel messages with pings, or direct messages. The scheduler's
//! replies (reminders, deadline claims) are swept on a timer and posted in each game's channel.

mod autocomplete;
mod buttons;
mod commands;
mod data;
mod deliver;
mod errors;
mod settings;
mod ticker;

use poise::serenity_prelude as serenity;
use tracing::{error, info};

use crate::table::Table;
pub use settings::DiscordSettings;

use data::{CommandError, Data};

/// Why the Discord adapter could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum DiscordError {
    /// A setting read from the environment is malformed.
    #[error("setting {name}: {reason}")]
    Setting { name: &'static str, reason: String },
    /// The token is empty or has the wrong shape.
    #[error("DISCORD_TOKEN is not a bot token: {0}")]
    Token(String),
    /// Serenity failed to connect or lost the connection for good.
    #[error("discord client: {0}")]
    Client(#[from] Box<serenity::Error>),
}

/// Runs the bot until it is stopped (Ctrl-C, SIGTERM or `settings.stop`) or the gateway
/// connection fails for good.
pub async fn run(
    table: Table,
    token: String,
    settings: DiscordSettings,
) -> Result<(), DiscordError> {
    let token = token.trim().to_owned();
    serenity::utils::validate_token(&token).map_err(|e| DiscordError::Token(e.to_string()))?;

    let http = match &settings.test_api_base {
        Some(base) => serenity::HttpBuilder::new(&token)
            .proxy(base.clone())
            .ratelimiter_disabled(true)
            .build(),
        None => serenity::HttpBuilder::new(&token).build(),
    };

    let guild_id = settings.guild_id;
    let data = Data::new(table.clone(), &settings);
    let options = poise::FrameworkOptions {
        commands: commands::all(),
        on_error: |err| Box::pin(errors::on_error(err)),
        event_handler: |framework, event| Box::pin(buttons::on_event(framework, event)),
        // Only the users each reply names may be pinged; never @everyone or roles.
        allowed_mentions: Some(serenity::CreateAllowedMentions::new()),
        initialize_owners: false,
        ..Default::default()
    };
    let framework = poise::Framework::builder()
        .options(options)
        .initialize_owners(false)
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                info!(bot = %ready.user.name, "connected to Discord");
                let commands = &framework.options().commands;
                match guild_id
                    .and_then(std::num::NonZeroU64::new)
                    .map(serenity::GuildId::from)
                {
                    Some(guild) => {
                        poise::builtins::register_in_guild(&ctx.http, commands, guild).await?;
                        info!(
                            guild = guild.get(),
                            count = commands.len(),
                            "commands registered in guild"
                        );
                    }
                    None => {
                        poise::builtins::register_globally(&ctx.http, commands).await?;
                        info!(count = commands.len(), "commands registered globally");
                    }
                }
                Ok::<Data, CommandError>(data)
            })
        })
        .build();

    // Slash commands and buttons need no privileged intent; GUILDS keeps the cache useful.
    let intents = serenity::GatewayIntents::GUILDS;
    let mut client = serenity::ClientBuilder::new_with_http(http, intents)
        .framework(framework)
        .await
        .map_err(Box::new)?;

    let _ticker = AbortOnDrop(ticker::spawn(
        table,
        client.http.clone(),
        settings.tick_every,
    ));
    let shards = client.shard_manager.clone();
    let stop = settings.stop.clone();
    let _stopper = AbortOnDrop(tokio::spawn(async move {
        wait_for_stop(stop).await;
        info!("stopping the Discord client");
        shards.shutdown_all().await;
    }));

    let result = client.start().await;
    if let Err(e) = &result {
        error!(error = %e, "Discord client stopped with an error");
    }
    result.map_err(|e| DiscordError::from(Box::new(e)))
}

/// Resolves on Ctrl-C, SIGTERM, or when the embedder's stop signal turns true.
async fn wait_for_stop(stop: Option<tokio::sync::watch::Receiver<bool>>) {
    let embedder = async move {
        match stop {
            Some(mut rx) => {
                // A dropped sender means the embedder is gone: stop too.
                let _ = rx.wait_for(|stop| *stop).await;
            }
            None => std::future::pending::<()>().await,
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut sig) => {
                sig.recv().await;
            }
            Err(e) => {
                error!(error = %e, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = embedder => {}
        _ = terminate => {}
        r = tokio::signal::ctrl_c() => {
            if let Err(e) = r {
                error!(error = %e, "cannot listen for Ctrl-C");
                std::future::pending::<()>().await;
            }
        }
    }
}

/// Aborts a background task when the adapter's `run` returns or is dropped.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}
