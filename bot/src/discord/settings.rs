//! How the Discord adapter is configured.

use std::time::Duration;

use super::delivery::NonceWindow;
use super::shards::Shards;
use super::DiscordError;

/// Settings for [`super::run`]. Production builds them with [`DiscordSettings::from_env`].
#[derive(Clone, Debug)]
pub struct DiscordSettings {
    /// Register the slash commands in this guild only (instant updates while developing);
    /// `None` registers them globally. From `DISCORD_GUILD_ID`.
    pub guild_id: Option<u64>,
    /// How often the scheduler (reminders, deadline claims) is swept. From
    /// `TOKAR_TICK_SECONDS`, default 60 s.
    pub tick_every: Duration,
    /// How long a command may run before the interaction is deferred. Discord drops an
    /// interaction not answered within 3 s, so this stays well under it; the default 1.5 s
    /// leaves room for the network round trip of the answer itself.
    pub defer_after: Duration,
    /// Test harnesses only: send every REST request to this base URL (a fake Discord on
    /// 127.0.0.1) instead of discord.com. Never read from the environment: only code that
    /// embeds the adapter can set it. Serenity honours it only with its rate limiter off, so
    /// setting it also disables the rate limiter.
    pub test_api_base: Option<String>,
    /// Stops the bot cleanly when it receives `true`, besides Ctrl-C / SIGTERM. Lets an
    /// embedder (and the end-to-end tests, which restart the bot in one process) shut it down.
    pub stop: Option<tokio::sync::watch::Receiver<bool>>,
    /// At a stop, how long commands in flight may take to finish, and then how long the outbox
    /// may take to drain. From `TOKAR_DRAIN_SECONDS`, default 10 s.
    pub drain: Duration,
    /// Where to serve the Prometheus metrics (see `crate::metrics`); `None`: nowhere. From
    /// `TOKAR_METRICS_ADDR` (e.g. `127.0.0.1:9464`).
    pub metrics_addr: Option<std::net::SocketAddr>,
    /// The wait before a failed delivery's first retry; it doubles with each attempt, up to ten
    /// minutes. One second ([`crate::outbox::RETRY_FIRST`]) suits Discord; never read from the
    /// environment: harnesses that inject failures shorten it to keep their runs short.
    pub retry_first: Duration,
    /// The gateway shards this process runs; `None`: one shard, as a community's bot needs
    /// (see [`Shards`]). From `TOKAR_SHARDS` and `TOKAR_SHARD_RANGE`.
    pub shards: Option<Shards>,
    /// The application's id, for registering the commands before the gateway opens. From
    /// `DISCORD_APPLICATION_ID`; unset, it is asked of Discord (GET /oauth2/applications/@me).
    /// The token's first part names the bot's user, whose id is the application's only for
    /// applications made since 2016 or so, so the token is not read for it.
    pub application_id: Option<u64>,
    /// The data folder, where failed starts are remembered so that a loop of restarts slows
    /// down (see `restarts.rs`); `None`: every start connects at once (embedders and tests
    /// that restart the bot on purpose). `tokar` sets it to `TOKAR_DATA`.
    pub data_dir: Option<std::path::PathBuf>,
    /// How long Discord is taken to remember a message's nonce, and past what part of it a
    /// send that may have reached Discord is looked for in its channel before it is sent again
    /// (see [`NonceWindow`]). Never read from the environment: tests shorten it.
    pub nonce_window: NonceWindow,
}

impl Default for DiscordSettings {
    fn default() -> Self {
        Self {
            guild_id: None,
            tick_every: Duration::from_secs(60),
            defer_after: Duration::from_millis(1500),
            test_api_base: None,
            stop: None,
            drain: Duration::from_secs(10),
            metrics_addr: None,
            retry_first: crate::outbox::RETRY_FIRST,
            shards: None,
            application_id: None,
            data_dir: None,
            nonce_window: NonceWindow::default(),
        }
    }
}

impl DiscordSettings {
    /// Reads `DISCORD_GUILD_ID`, `DISCORD_APPLICATION_ID`, `TOKAR_TICK_SECONDS`,
    /// `TOKAR_DRAIN_SECONDS`, `TOKAR_METRICS_ADDR`, `TOKAR_SHARDS` and `TOKAR_SHARD_RANGE`;
    /// anything unset keeps its default.
    pub fn from_env() -> Result<Self, DiscordError> {
        let mut settings = Self::default();
        if let Some(raw) = non_empty_var("DISCORD_APPLICATION_ID") {
            let id = raw
                .parse::<u64>()
                .ok()
                .filter(|id| *id != 0)
                .ok_or_else(|| DiscordError::Setting {
                    name: "DISCORD_APPLICATION_ID",
                    reason: format!("`{raw}` is not an application id (a positive number)"),
                })?;
            settings.application_id = Some(id);
        }
        if let Some(raw) = non_empty_var("DISCORD_GUILD_ID") {
            let id = raw
                .parse::<u64>()
                .ok()
                .filter(|id| *id != 0)
                .ok_or_else(|| DiscordError::Setting {
                    name: "DISCORD_GUILD_ID",
                    reason: format!("`{raw}` is not a guild id (a positive number)"),
                })?;
            settings.guild_id = Some(id);
        }
        if let Some(raw) = non_empty_var("TOKAR_TICK_SECONDS") {
            let secs = raw
                .parse::<u64>()
                .ok()
                .filter(|s| (1..=86_400).contains(s))
                .ok_or_else(|| DiscordError::Setting {
                    name: "TOKAR_TICK_SECONDS",
                    reason: format!("`{raw}` is not a number of seconds between 1 and 86400"),
                })?;
            settings.tick_every = Duration::from_secs(secs);
        }
        if let Some(raw) = non_empty_var("TOKAR_DRAIN_SECONDS") {
            let secs = raw
                .parse::<u64>()
                .ok()
                .filter(|s| *s <= 600)
                .ok_or_else(|| DiscordError::Setting {
                    name: "TOKAR_DRAIN_SECONDS",
                    reason: format!("`{raw}` is not a number of seconds between 0 and 600"),
                })?;
            settings.drain = Duration::from_secs(secs);
        }
        if let Some(raw) = non_empty_var("TOKAR_METRICS_ADDR") {
            let addr = raw.parse().map_err(|_| DiscordError::Setting {
                name: "TOKAR_METRICS_ADDR",
                reason: format!("`{raw}` is not an address and port such as 127.0.0.1:9464"),
            })?;
            settings.metrics_addr = Some(addr);
        }
        settings.shards = Shards::parse(
            non_empty_var("TOKAR_SHARDS").as_deref(),
            non_empty_var("TOKAR_SHARD_RANGE").as_deref(),
        )?;
        Ok(settings)
    }
}

fn non_empty_var(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
}
