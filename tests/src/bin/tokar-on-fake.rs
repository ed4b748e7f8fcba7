//! Tokar's Discord mode as its own process, pointed at a fake Discord: the crash runs start it,
//! kill it with SIGKILL at random moments, and stop it for good with SIGTERM.
//!
//! Usage: `tokar-on-fake DATA_DIR API_BASE`. The table is configured as
//! [`tokar_tests::harness::bot_table_config`] says; the adapter's settings come from the
//! environment as in production (`TOKAR_TICK_SECONDS`, `TOKAR_DRAIN_SECONDS`,
//! `TOKAR_METRICS_ADDR`, `TOKAR_SHARDS`, `TOKAR_SHARD_RANGE`), except the REST base, the guild
//! the commands are registered in, and the first retry's wait
//! ([`tokar_tests::harness::RETRY_FIRST`]). The commands are registered in the fake's guild
//! ([`GUILD_ID`]), or globally with `TOKAR_ON_FAKE_COMMANDS=global` (runs that use other
//! guilds, e.g. to put guilds on several shards). With `TOKAR_ON_FAKE_CLOCK=FILE` the table's
//! clock is the machine's plus the offset in that file ([`tokar_tests::harness::SharedSkew`]),
//! so that several processes jump hours ahead together (reminders, leases). Exits 1 when the
//! bot stops with an error, as `tokar` does.

use std::path::PathBuf;
use std::sync::Arc;

use tokar_bot::discord::{self, DiscordSettings};
use tokar_bot::storage::StoreSettings;
use tokar_bot::Table;
use tokar_tests::fake::{APPLICATION_ID, GUILD_ID};
use tokar_tests::harness::{bot_table_config, SharedSkew, RETRY_FIRST, TOKEN};

#[tokio::main]
async fn main() {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    if let Err(e) = run().await {
        eprintln!("tokar-on-fake: {e}");
        std::process::exit(1);
    }
}

async fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [data, api_base] = args.as_slice() else {
        return Err("usage: tokar-on-fake DATA_DIR API_BASE".into());
    };
    // Read before the store opens, as `tokar` does: a bad setting touches nothing.
    let global = std::env::var("TOKAR_ON_FAKE_COMMANDS").is_ok_and(|v| v == "global");
    let settings = DiscordSettings {
        guild_id: (!global).then_some(GUILD_ID),
        test_api_base: Some(api_base.clone()),
        retry_first: RETRY_FIRST,
        // The fake serves no GET /oauth2/applications/@me: its application's id is given.
        application_id: Some(APPLICATION_ID),
        ..DiscordSettings::from_env().map_err(|e| e.to_string())?
    };
    let mut config = bot_table_config(&PathBuf::from(data));
    // TOKAR_DATABASE_URL: the shared PostgreSQL store, as in production.
    config.storage = StoreSettings::from_env()?;
    if let Some(file) = std::env::var_os("TOKAR_ON_FAKE_CLOCK") {
        config.clock = Arc::new(SharedSkew::new(file));
    }
    let table = Table::open(config).await.map_err(|e| e.to_string())?;
    tokar_tests::harness::games_in_channels(&table).await;
    discord::run(table, TOKEN.to_owned(), settings)
        .await
        .map_err(|e| e.to_string())
}
