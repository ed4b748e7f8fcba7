//! Starts and stops the real Discord adapter against a [`FakeDiscord`].

use std::sync::Once;
use std::time::Duration;

use tokar_bot::discord::{self, DiscordError, DiscordSettings, NonceWindow};
use tokar_bot::table::robot::RobotConfig;
use tokar_bot::{Table, TableConfig};
use tokio::sync::watch;

use crate::fake::FakeDiscord;

/// A token of the right shape; the fake accepts any.
pub const TOKEN: &str = "MTAwMDAwMDAwMDAwMDAwMDAx.fake.tokar-end-to-end";

/// The wait before a failed delivery's first retry in these runs: short, so that a run with
/// injected failures takes seconds, not minutes; the doubling and the cap are production's.
pub const RETRY_FIRST: Duration = Duration::from_millis(100);

/// The table as the Discord binary configures it for `dir`: the bot plays as its own account
/// (the token's), answers in the background, and thinks a fixed number of iterations; the
/// random seeds are fixed so that runs repeat.
pub fn bot_table_config(dir: &std::path::Path) -> TableConfig {
    let mut config = TableConfig::new(dir);
    config.seed = Some(5);
    let mut robot = RobotConfig::for_discord_token(TOKEN, "Tokar").expect("token shape");
    robot.iterations = Some(40);
    config.robot = robot;
    config
}

/// The table as the Discord binary opens it for `dir`, threads on (the default), on a clock
/// the test moves for reminders and deadlines.
pub async fn open_on_clock(dir: &std::path::Path, clock: &SkewedClock) -> Table {
    let mut config = bot_table_config(dir);
    config.clock = std::sync::Arc::new(clock.clone());
    Table::open(config).await.expect("table opens")
}

/// Keeps the fake server's games in their channels (threads off, ruling T21): the tests
/// written about channels play there; `tests/tests/threads.rs` plays in threads.
pub async fn games_in_channels(table: &Table) {
    table
        .set_server_threads(crate::fake::GUILD_ID, false)
        .await
        .expect("the server setting is stored");
}

/// The bot's own user id, as [`TOKEN`] says.
pub fn bot_user_id() -> u64 {
    RobotConfig::for_discord_token(TOKEN, "Tokar")
        .expect("token shape")
        .user
        .id
}

/// The bot running in this process.
pub struct Bot {
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<Result<(), DiscordError>>,
}

/// Options for one bot start.
pub struct Start {
    pub guild_id: Option<u64>,
    pub defer_after: Duration,
    pub tick_every: Duration,
    pub retry_first: Duration,
    /// Discord's nonce window as the delivery worker takes it; tests that step past it
    /// shorten it (and the fake's, [`FakeDiscord::set_nonce_window`]).
    pub nonce_window: NonceWindow,
}

impl Default for Start {
    fn default() -> Self {
        Self {
            guild_id: Some(crate::fake::GUILD_ID),
            defer_after: Duration::from_millis(1500),
            tick_every: Duration::from_secs(60),
            retry_first: RETRY_FIRST,
            nonce_window: NonceWindow::default(),
        }
    }
}

impl Bot {
    /// Runs `discord::run` against the fake, as production does against Discord.
    pub fn start(table: Table, fake: &FakeDiscord, start: Start) -> Bot {
        let (stop, rx) = watch::channel(false);
        let settings = DiscordSettings {
            guild_id: start.guild_id,
            tick_every: start.tick_every,
            defer_after: start.defer_after,
            test_api_base: Some(fake.api_base()),
            stop: Some(rx),
            retry_first: start.retry_first,
            application_id: Some(crate::fake::APPLICATION_ID),
            nonce_window: start.nonce_window,
            ..DiscordSettings::default()
        };
        let task = tokio::spawn(discord::run(table, TOKEN.to_owned(), settings));
        Bot { stop, task }
    }

    /// Stops the bot the way SIGTERM does and waits for `run` to return.
    pub async fn stop(self) -> Result<(), String> {
        let _ = self.stop.send(true);
        match tokio::time::timeout(Duration::from_secs(15), self.task).await {
            Ok(Ok(Ok(()))) => Ok(()),
            Ok(Ok(Err(e))) => Err(format!("the bot stopped with an error: {e}")),
            Ok(Err(e)) => Err(format!("the bot task failed: {e}")),
            Err(_) => Err("the bot did not stop within 15 s".into()),
        }
    }
}

/// Logs to the test output (warnings, the fake's own lines); `RUST_LOG` overrides.
pub fn init_logging() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let filter = tracing_subscriber::EnvFilter::try_from_default_env()
            .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,fake_discord=info"));
        let _ = tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_test_writer()
            .try_init();
    });
}

/// The machine's clock plus an offset the test moves forward: the table's schedule (reminders,
/// deadlines) jumps hours ahead while Discord, the fake and the retries keep real time.
#[derive(Clone, Debug, Default)]
pub struct SkewedClock(std::sync::Arc<std::sync::atomic::AtomicU64>);

impl SkewedClock {
    pub fn advance(&self, by: Duration) {
        self.0
            .fetch_add(by.as_millis() as u64, std::sync::atomic::Ordering::SeqCst);
    }
}

impl tokar_bot::clock::Clock for SkewedClock {
    fn now(&self) -> tokar_bot::clock::Millis {
        tokar_bot::clock::SystemClock.now() + self.0.load(std::sync::atomic::Ordering::SeqCst)
    }
}

/// The machine's clock plus an offset kept in a file, read again at every call: bot processes
/// started with the same file (`tokar-on-fake` with `TOKAR_ON_FAKE_CLOCK`) share one table time,
/// and a test moves them all hours ahead at once with [`SharedSkew::advance`]. A missing file
/// is no offset; a file that does not hold a number is treated as none as well.
#[derive(Clone, Debug)]
pub struct SharedSkew {
    path: std::path::PathBuf,
}

impl SharedSkew {
    pub fn new(path: impl Into<std::path::PathBuf>) -> SharedSkew {
        SharedSkew { path: path.into() }
    }

    fn offset(&self) -> u64 {
        std::fs::read_to_string(&self.path)
            .ok()
            .and_then(|t| t.trim().parse().ok())
            .unwrap_or(0)
    }

    /// Moves every process's clock forward by `by`: the new offset is written whole (a
    /// renamed temporary file), so a process never reads half of it.
    pub fn advance(&self, by: Duration) {
        let next = self.offset() + by.as_millis() as u64;
        let tmp = self.path.with_extension("tmp");
        std::fs::write(&tmp, format!("{next}\n")).expect("the clock offset is written");
        std::fs::rename(&tmp, &self.path).expect("the clock offset is moved into place");
    }
}

impl tokar_bot::clock::Clock for SharedSkew {
    fn now(&self) -> tokar_bot::clock::Millis {
        tokar_bot::clock::SystemClock.now() + self.offset()
    }
}

/// One scrape of a bot's Prometheus endpoint on `port`, as text.
pub async fn scrape_metrics(port: u16) -> Result<String, String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .map_err(|e| e.to_string())?;
    s.write_all(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .await
        .map_err(|e| e.to_string())?;
    let mut body = String::new();
    s.read_to_string(&mut body)
        .await
        .map_err(|e| e.to_string())?;
    Ok(body)
}

/// A free local port (for a bot's metrics endpoint).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}
