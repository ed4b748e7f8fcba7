//! The Discord adapter: the table's commands as slash commands (poise 0.7 on serenity 0.12).
//!
//! The adapter holds no game logic. A slash command or a button click becomes one table
//! [`Request`]; the table's [`Reply`]s become the interaction's response (ephemeral when
//! private) and follow-ups; what a change announces to others (turn pings, reminders, notices,
//! private notes, results) is stored in the table's outbox and delivered by [`delivery`]'s
//! worker, which retries until Discord accepts it.

mod answer;
mod autocomplete;
mod buttons;
mod commands;
mod data;
mod delivery;
mod errors;
mod events;
mod outgoing;
mod restarts;
mod settings;
mod shards;
mod startup;
mod threads;
mod ticker;

use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use tracing::{error, info, warn};

use crate::table::Table;
pub use delivery::NonceWindow;
pub use settings::DiscordSettings;
pub use shards::Shards;

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
    /// Start-up failed before the gateway opened (command registration refused, Discord not
    /// reachable).
    #[error("start-up failed: {0}")]
    Startup(String),
    /// Discord refused the token (401): it was reset or mistyped. Nothing was sent to the
    /// gateway.
    #[error("Discord refused DISCORD_TOKEN (reset it in the Developer Portal's Bot tab and set the new one): {0}")]
    TokenRefused(String),
    /// Too few IDENTIFYs are left today to start this process's shards safely.
    #[error("not enough session starts left: {0}")]
    SessionStarts(String),
}

/// Runs the bot until it is stopped (Ctrl-C, SIGTERM or `settings.stop`) or the gateway
/// connection fails for good.
///
/// Before the gateway opens, a start that cannot work stops, with one log line and an error
/// (so the process exits non-zero), having spent no IDENTIFY: a refused token, too few
/// session starts left today, a refused registration (see `startup.rs`). With a data folder
/// (`settings.data_dir`), a start that follows failed ones first waits, longer each time (see
/// `restarts.rs`). The outbox's delivery worker and the scheduler start once the gateway is
/// ready. At a stop: new commands are refused with a line, those in flight finish, the outbox
/// drains (each for at most `settings.drain`), then the gateway closes; all of this also when
/// no shard is connected at the time.
pub async fn run(
    table: Table,
    token: String,
    settings: DiscordSettings,
) -> Result<(), DiscordError> {
    let token = token.trim().to_owned();
    serenity::utils::validate_token(&token).map_err(|e| DiscordError::Token(e.to_string()))?;
    if let Some(addr) = settings.metrics_addr {
        crate::metrics::serve(addr).map_err(|reason| DiscordError::Setting {
            name: "TOKAR_METRICS_ADDR",
            reason,
        })?;
        info!(%addr, "metrics served");
    }

    let http = match &settings.test_api_base {
        Some(base) => serenity::HttpBuilder::new(&token)
            .proxy(base.clone())
            .ratelimiter_disabled(true)
            .build(),
        None => serenity::HttpBuilder::new(&token).build(),
    };

    let starts = settings.data_dir.as_deref().map(restarts::Starts::new);
    if let Some(starts) = &starts {
        let (wait, failures) = starts.pending_wait(crate::marker::now_ms());
        if !wait.is_zero() {
            warn!(
                failures,
                wait_seconds = wait.as_secs(),
                "the last starts did not reach Discord's READY; waiting before this one connects"
            );
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = wait_for_stop(settings.stop.clone()) => {
                    info!("stopped while waiting to connect");
                    return Ok(());
                }
            }
        }
        if let Err(e) = starts.begin(crate::marker::now_ms()) {
            // Only the slowing down of later starts is lost; this one may go on.
            warn!(error = %e, "cannot record this start");
        }
    }

    prune_claims(&table).await;
    let shard_count = settings.shards.map_or(1, |s| s.count());
    let commands = commands::all();
    let asked = startup::before_gateway(
        &http,
        &commands,
        settings.guild_id,
        settings.application_id,
        shard_count,
    );
    tokio::select! {
        r = asked => if let Err(e) = r {
            error!(error = %e, "not connecting to Discord");
            return Err(e);
        },
        _ = wait_for_stop(settings.stop.clone()) => {
            info!("stopped before connecting");
            return Ok(());
        }
    }

    let gate = Arc::new(data::Gate::default());
    let data = Data::new(table.clone(), &settings, gate.clone());
    // Set by the setup when the first shard is ready; read by the lifecycle below.
    let (ready_tx, mut ready_rx) = tokio::sync::watch::channel(false);
    let options = poise::FrameworkOptions {
        commands,
        on_error: |err| Box::pin(errors::on_error(err)),
        event_handler: |framework, event| Box::pin(events::on_event(framework, event)),
        // Only the users each reply names may be pinged; never @everyone or roles.
        allowed_mentions: Some(serenity::CreateAllowedMentions::new()),
        initialize_owners: false,
        ..Default::default()
    };
    let framework = poise::Framework::builder()
        .options(options)
        .initialize_owners(false)
        .setup(move |_ctx, ready, _framework| {
            Box::pin(async move {
                info!(bot = %ready.user.name, "connected to Discord");
                let _ = ready_tx.send(true);
                Ok::<Data, CommandError>(data)
            })
        })
        .build();

    // Slash commands and buttons need no privileged intent. GUILDS brings the channel and
    // guild deletions (a game whose channel is gone must be told) and keeps the cache useful.
    let intents = serenity::GatewayIntents::GUILDS;
    let mut client = serenity::ClientBuilder::new_with_http(http, intents)
        .framework(framework)
        .event_handler(events::GatewayCounter)
        .await
        .map_err(Box::new)?;

    let shards = client.shard_manager.clone();
    let http = client.http.clone();
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let drain = settings.drain;
    let retry_first = settings.retry_first;
    let nonce_window = settings.nonce_window;
    let tick_every = settings.tick_every;
    // This process's share of Discord's global request limit: its share of the shards.
    let pace = settings
        .shards
        .map_or(delivery::requests_per_second(1, 1), |s| {
            delivery::requests_per_second(s.count(), s.total)
        });
    let embedder_stop = settings.stop.clone();
    let mut lifecycle = tokio::spawn(async move {
        // Nothing is sent before the gateway is ready: an outage at start-up leaves every
        // stored message to deliver.
        let started = tokio::select! {
            r = ready_rx.wait_for(|ready| *ready) => r.is_ok(),
            _ = wait_for_stop(embedder_stop.clone()) => false,
        };
        let mut worker = None;
        let mut ticker = None;
        let mut pruner = None;
        if started {
            crate::metrics::gateway_ready(true);
            if let Some(starts) = &starts {
                if let Err(e) = starts.reached_ready() {
                    warn!(error = %e, "cannot record that this start reached READY");
                }
            }
            pruner = Some(AbortOnDrop(tokio::spawn(prune_claims_hourly(
                table.clone(),
            ))));
            worker = Some(delivery::spawn(
                table.clone(),
                http.clone(),
                stop_rx.clone(),
                drain,
                retry_first,
                pace,
                nonce_window,
            ));
            ticker = Some(AbortOnDrop(ticker::spawn(table.clone(), tick_every)));
            wait_for_stop(embedder_stop).await;
        }
        info!("stopping: no new commands; finishing those in flight");
        drop(ticker);
        drop(pruner);
        let left = gate.close(drain).await;
        if left > 0 {
            warn!(left, "commands still running at the stop");
        }
        let _ = stop_tx.send(true);
        if let Some(w) = worker {
            let _ = w.await;
        }
        info!("closing the gateway");
        shards.shutdown_all().await;
    });

    // The client runs until its shards are shut down. When the stop sequence is done and the
    // client does not come back by itself (no shard was connected), it is dropped.
    let run_shards = settings.shards;
    match run_shards {
        Some(s) => info!(shards = %s, "running gateway shards"),
        None => info!("running gateway shard 0..1 of 1 (TOKAR_SHARDS unset)"),
    }
    crate::metrics::gateway_shards(
        run_shards.map_or(0..1, |s| s.range()),
        run_shards.map_or(1, |s| s.total),
    );
    let start = async {
        match run_shards {
            // Serenity 0.12's range is inclusive at its end (`4..7` starts shards 4 to 7), so
            // the half-open range of the setting ends one earlier.
            Some(s) => client.start_shard_range(s.first..s.end - 1, s.total).await,
            None => client.start().await,
        }
    };
    tokio::pin!(start);
    let result = tokio::select! {
        r = &mut start => {
            // The client stopped first: a failed start-up, or the gateway failed for good.
            lifecycle.abort();
            r
        }
        _ = &mut lifecycle => {
            match tokio::time::timeout(Duration::from_secs(5), &mut start).await {
                Ok(r) => r,
                Err(_) => {
                    warn!("the gateway did not close in time; stopping without it");
                    Ok(())
                }
            }
        }
    };
    crate::metrics::gateway_ready(false);
    if let Err(e) = &result {
        error!(error = %e, "Discord client stopped with an error");
    }
    info!("stopped");
    result.map_err(|e| DiscordError::from(Box::new(e)))
}

/// Removes the interaction claims older than a day (see `crate::storage`'s `claims.rs`), in
/// batches, so that no one call holds the store long. A failure is logged and left for the
/// next time: old claims cost only their bytes.
async fn prune_claims(table: &Table) {
    const BATCH: usize = 1_000;
    let store = table.store_handle();
    let before = table.now().saturating_sub(crate::storage::CLAIM_KEPT);
    let pruned = tokio::task::spawn_blocking(move || {
        let mut total = 0;
        loop {
            let n = store.prune_claims(before, BATCH)?;
            total += n;
            if n < BATCH {
                return Ok::<_, crate::storage::StoreError>(total);
            }
        }
    })
    .await;
    match pruned {
        Ok(Ok(0)) => {}
        Ok(Ok(n)) => info!(claims = n, "old interaction claims pruned"),
        Ok(Err(e)) => warn!(error = %e, "cannot prune old interaction claims"),
        Err(e) => warn!(error = %e, "pruning old interaction claims failed"),
    }
}

/// [`prune_claims`] every hour while the bot runs: a process may run for months.
async fn prune_claims_hourly(table: Table) {
    let mut every = tokio::time::interval(Duration::from_secs(3_600));
    every.tick().await; // the first tick is now: pruned at the start already
    loop {
        every.tick().await;
        prune_claims(&table).await;
    }
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
