//! # tokar-table
//!
//! The table service: the one place that runs a command for a user in a
//! channel. It checks that the user may do it, validates it in the engine,
//! commits it to storage (flushed before any reply exists), schedules what
//! follows, and builds the replies. The Discord adapter, the console and the
//! tests all go through [`Table::handle`], [`Table::autocomplete`] and
//! [`Table::tick`].

mod answers;
mod autocomplete;
mod board_text;
mod channels;
mod commands;
mod crosstable;
mod drawn;
mod export;
mod follow;
mod games;
mod invitations;
mod league;
mod league_games;
mod league_table;
mod leases;
mod limits;
mod listing;
mod lobby;
pub mod metrics;
mod moves_list;
mod names;
mod offers;
mod paging;
mod pictures;
mod rating_line;
mod records;
mod replay;
mod replay_cache;
pub mod robot;
mod robot_moves;
mod schedule;
mod seeds;
mod server_games;
mod staging;
mod standings;
mod text;
mod threads;
mod turns;
mod vacation;
mod writes;

pub use names::NameKind;
pub use replay::MAX_REPLAY_FRAMES;
pub use replay_cache::ReplayCacheStats;
pub use threads::{thread_name, THREAD_NAME_LIMIT};
pub use tokar_model::api::{
    Button, ChannelRef, Image, Refusal, Reply, Request, ThreadRefusal, ThreadSupport, UserRef,
};
pub use tokar_model::replay::replay;
pub(crate) use tokar_model::replay::{apply_entry, reseed_at};

use std::path::PathBuf;
use std::sync::Arc;
use thiserror::Error;
use tokar_engine::catalog::AnyGame;
use tokar_engine::Outcome;
use tokar_model::clock::{Clock, Millis, SystemClock};
use tokar_model::outbox::OutboxEntry;
use tokar_model::record::{GameRecord, LogEntry, UserRecord};
use tokar_store::{Store, StoreError, StoreSettings};
use tracing::{error, info, warn};

/// How to open a table.
#[derive(Clone)]
pub struct TableConfig {
    /// Where the sled database (and a virtual clock's file) live.
    pub data_dir: PathBuf,
    pub clock: Arc<dyn Clock>,
    /// Makes every new game's dice reproducible: each game's seed is derived
    /// from this and its number (`entropy::derived`). Anyone who knows it knows
    /// every game's dice and cards: for tests and the console, never for real
    /// play (the Discord mode has no way to set it).
    pub seed: Option<u64>,
    /// The computer opponent: who it is, how long it thinks.
    pub robot: robot::RobotConfig,
    /// The store's cache size, and whether a store that is not the data
    /// folder's own may be started on purpose.
    pub storage: StoreSettings,
}

impl TableConfig {
    /// The system clock and random seeds.
    pub fn new(data_dir: impl Into<PathBuf>) -> TableConfig {
        TableConfig {
            data_dir: data_dir.into(),
            clock: Arc::new(SystemClock),
            seed: None,
            robot: robot::RobotConfig::default(),
            storage: StoreSettings::default(),
        }
    }
}

#[derive(Debug, Error)]
pub enum TableError {
    #[error("cannot create the data folder {0}: {1}")]
    DataDir(PathBuf, std::io::Error),
    /// The data folder's store is not the one it had (see [`tokar_store::marker`]):
    /// the text says what was found and how to go on.
    #[error("{0}")]
    NotTheStore(String),
    #[error("cannot open the database: {0}")]
    Store(#[from] StoreError),
    #[error("the storage task failed: {0}")]
    Task(String),
}

/// A handle on the table; clones share it.
#[derive(Clone)]
pub struct Table {
    inner: Arc<Inner>,
}

/// The table's services: each owns its state; those that need another hold an `Arc` of it.
struct Inner {
    records: Arc<records::Records>,
    seeds: seeds::Seeds,
    pictures: Arc<pictures::Pictures>,
    leases: Arc<leases::Leases>,
    staging: staging::Staging,
    /// The computer opponent's settings and the games it is thinking about.
    robot: robot::Robot,
}

/// A refusal: one line for the user, nothing changed.
type Res<T> = Result<T, Refusal>;

/// What players are told when the store fails or a record cannot be read;
/// the detail goes to the log (`tracing::error!`).
pub(crate) const STORAGE_FAILED: &str =
    "Tokar could not read or write its storage, so nothing was changed; the operator has been told.";

/// What players are told when a write could not reach the disk, or the store
/// refuses while it cannot (see `storage/sled_kv.rs`).
pub(crate) const UNWRITABLE: &str =
    "Tokar could not save this, so nothing changed; try again later.";

/// A game read for a command: its record, and its engine state once started.
struct Loaded {
    rec: GameRecord,
    game: Option<AnyGame>,
}

/// Everything one command writes to one game.
struct Change {
    append: Vec<LogEntry>,
    truncate_from: Option<u64>,
}

impl Change {
    /// The record alone changes.
    fn none() -> Change {
        Change {
            append: Vec::new(),
            truncate_from: None,
        }
    }
}

impl Table {
    pub async fn open(config: TableConfig) -> Result<Table, TableError> {
        let dir = config.data_dir.clone();
        tokar_store::private::create_dir(&dir).map_err(|e| TableError::DataDir(dir.clone(), e))?;
        let settings = config.storage.clone();
        let (store, identity) = tokio::task::spawn_blocking(move || {
            let store = Store::open_with(&dir, &settings)?;
            let identity = store.identity()?;
            Ok::<_, StoreError>((store, identity))
        })
        .await
        .map_err(|e| TableError::Task(e.to_string()))?
        .map_err(|e| match e {
            StoreError::NotTheStore(text) => TableError::NotTheStore(text),
            e => TableError::Store(e),
        })?;
        Ok(Table::on_store(config, store, identity))
    }

    /// A table on a store already open (`config.data_dir` and
    /// `config.storage` are not used for it): several tables on one shared
    /// store stand for several processes.
    pub fn on_store(config: TableConfig, store: Store, identity: u64) -> Table {
        // This process's own unpredictable number: the computer player's seeds and the
        // lease owner's name. Never a game's seed (each is drawn afresh, `Seeds::seed_for`).
        let entropy = tokar_model::entropy::fresh(&[SystemClock.now(), std::process::id().into()]);
        info!(store = %store.kv().describe(), "table open");
        let records = Arc::new(records::Records::new(store, config.clock));
        let pictures = Arc::new(pictures::Pictures::new());
        let leases = Arc::new(leases::Leases::new(records.clone(), entropy));
        let staging =
            staging::Staging::new(records.clone(), pictures.clone(), leases.clone(), identity);
        Table {
            inner: Arc::new(Inner {
                records,
                seeds: seeds::Seeds::new(config.seed),
                pictures,
                leases,
                staging,
                robot: robot::Robot::new(config.robot, config.seed.unwrap_or(entropy)),
            }),
        }
    }

    /// Runs one command and returns the messages to send. Never panics: a
    /// failure inside becomes a refusal.
    pub async fn handle(&self, req: Request) -> Vec<Reply> {
        let this = self.clone();
        let channel = req.channel.clone();
        let user = req.user.clone();
        let command = req.command.name();
        // A task of its own: the command completes (and commits) even if the
        // caller stops waiting, and a panic in it is caught here.
        match tokio::spawn(async move { this.run(req).await }).await {
            Ok(replies) => replies,
            Err(e) => {
                error!(%command, error = %e, "command failed");
                vec![Reply::refusal(
                    &channel,
                    &user,
                    format!("/{command} failed inside the bot; nothing was changed."),
                )]
            }
        }
    }

    async fn run(&self, req: Request) -> Vec<Reply> {
        let command = req.command.name();
        if let Err(e) = self.records().remember_user(&req.user).await {
            warn!(error = %e, "cannot record the user's name");
        }
        let result = self.dispatch(&req).await;
        match result {
            Ok(mut replies) => {
                info!(user = %req.user.name, %command, "done");
                // A play ends the player's vacation (ruling T50).
                if matches!(req.command, tokar_model::Command::Play { .. }) {
                    replies.extend(self.vacations().vacation_ends_at_play(&req.user).await);
                }
                // The command is committed; the bot's answers follow it.
                if self.bot().robot_answers_later() {
                    let this = self.clone();
                    let user = req.user.id;
                    tokio::spawn(async move {
                        this.robot_moves().robot_moves_for(user).await;
                    });
                } else {
                    replies.extend(self.robot_moves().robot_moves_for(req.user.id).await);
                }
                replies
            }
            Err(reason) => {
                info!(user = %req.user.name, %command, %reason, "refused");
                // A refusal quotes at most an excerpt of anything typed (issue #32).
                let reason = tokar_model::quote::bound_quotes(
                    reason.into_text(),
                    command,
                    &req.command.typed(),
                );
                vec![Reply::refusal(&req.channel, &req.user, reason)]
            }
        }
    }

    /// Records (or updates) the name shown for a user, so that mentions of
    /// people who have not typed anything yet read well.
    pub async fn remember_user(&self, user: &UserRef) -> Result<(), String> {
        self.records().remember_user(user).await
    }

    /// The table's time: what schedules, records and the outbox's retries are reckoned in.
    pub fn now(&self) -> Millis {
        self.records().now()
    }

    /// The store, for what the binary does beside the table with the same open
    /// store: a backup taken from inside the running process, the Discord
    /// delivery worker's reads of the outbox.
    pub fn store_handle(&self) -> Store {
        self.records().store().clone()
    }

    /// The bot's own user.
    pub fn robot(&self) -> &UserRef {
        self.inner.robot.user()
    }

    /// How often `/replay` was answered from the cache of finished games' replays, and how
    /// often one was drawn (also the metrics `tokar_replay_cache_hits_total` and
    /// `tokar_replays_drawn_total`).
    pub fn replay_cache_stats(&self) -> ReplayCacheStats {
        self.pictures().replay_cache_stats()
    }

    /// Forgets every kept replay, so that the next `/replay` of each game draws it again (for
    /// the replay bench, which measures both).
    pub fn forget_replays(&self) {
        self.pictures().forget_replays()
    }

    /// The game and user records: the store, the per-game locks, the clock.
    pub(crate) fn records(&self) -> &records::Records {
        &self.inner.records
    }

    /// New games' seeds.
    pub(crate) fn seeds(&self) -> &seeds::Seeds {
        &self.inner.seeds
    }

    /// The renderer and the replay cache.
    pub(crate) fn pictures(&self) -> &pictures::Pictures {
        &self.inner.pictures
    }

    /// The store leases this process holds.
    pub(crate) fn leases(&self) -> &leases::Leases {
        &self.inner.leases
    }

    /// The outbox: claims, pictures of entries just stored, the delivery worker's signal.
    pub(crate) fn staging(&self) -> &staging::Staging {
        &self.inner.staging
    }

    /// The computer opponent's settings and the games it is thinking about.
    pub(crate) fn bot(&self) -> &robot::Robot {
        &self.inner.robot
    }
}

/// What the adapters, the operator's tools and the tests call beside [`Table::handle`]: each
/// a thin delegation to the service that owns it.
impl Table {
    /// Suggestions (label, value) for option `option` of a command being typed.
    pub async fn autocomplete(
        &self,
        user: &UserRef,
        channel: &ChannelRef,
        option: &str,
        typed: &str,
        game: Option<u64>,
    ) -> Vec<(String, String)> {
        self.listing()
            .autocomplete(user, channel, option, typed, game)
            .await
    }

    /// Sends what is due: reminders, deadline notices, skipped turns. Run at
    /// start-up and then every minute or so.
    pub async fn tick(&self) -> Vec<Reply> {
        self.schedule().tick().await
    }

    /// Delivery found that game `id` cannot post in `channel`: Discord answered that it does
    /// not exist or is closed to the bot (`permission`: the channel exists but the bot may not
    /// post there).
    pub async fn channel_lost(&self, id: u64, channel: u64, permission: bool) {
        self.channels().channel_lost(id, channel, permission).await
    }

    /// Discord said the channel was deleted (or the bot left its server): every game in it
    /// loses its channel.
    pub async fn channel_deleted(&self, channel: u64) {
        self.channels().channel_deleted(channel).await
    }

    /// The thread an entry asked for exists: the game moves into it (see `threads.rs`).
    pub async fn thread_opened(&self, entry: u64, thread: &ChannelRef) -> Res<()> {
        self.channels().thread_opened(entry, thread).await
    }

    /// Discord would not open the thread an entry asked for: the game stays in its channel,
    /// which is told so once, in place of the entry.
    pub async fn thread_refused(&self, entry: u64, why: ThreadRefusal) -> Res<()> {
        self.channels().thread_refused(entry, why).await
    }

    /// Sets whether server `guild`'s games get their threads, as `/server threads:` does,
    /// for the operator's tools and for tests that play in channels.
    pub async fn set_server_threads(&self, guild: u64, threads: bool) -> Res<()> {
        self.channels().set_server_threads(guild, threads).await
    }

    /// How many games are being played, for the operator (`tokar_games_in_play`); a scan of
    /// every record, so it is asked now and then.
    pub async fn games_in_play(&self) -> Option<usize> {
        self.listing().games_in_play().await
    }

    /// Every console name of `kind` with its id.
    pub async fn console_names(&self, kind: NameKind) -> Result<Vec<(String, u64)>, String> {
        self.names().console_names(kind).await
    }

    /// Gives `name` the id `id` unless it has one already; returns the id
    /// it has. Durable before it returns.
    pub async fn claim_console_name(
        &self,
        kind: NameKind,
        name: &str,
        id: u64,
    ) -> Result<u64, String> {
        self.names().claim_console_name(kind, name, id).await
    }

    /// Game `id`'s record as stored (`None`: no such game): equal bytes mean
    /// an unchanged game, which is how the tests check that a refused command
    /// changed nothing.
    pub async fn stored_record(&self, id: u64) -> Result<Option<Vec<u8>>, String> {
        self.names().stored_record(id).await
    }

    /// [`Table::stored_record`] of games `1..=last`, read at once.
    pub async fn stored_records(&self, last: u64) -> Result<Vec<Option<Vec<u8>>>, String> {
        self.names().stored_records(last).await
    }

    /// Every user the store knows (their last names and ids).
    pub async fn users(&self) -> Result<Vec<UserRecord>, String> {
        self.names().users().await
    }
}

/// The outbox as the adapters' delivery takes it (see `staging.rs`).
impl Table {
    /// The store's identity (see [`tokar_store::Store::identity`]), read once at open: the
    /// delivery worker puts it in every nonce.
    pub fn store_identity(&self) -> u64 {
        self.staging().store_identity()
    }

    /// Entries waiting for delivery, oldest first, each lane (a channel, or one user's
    /// direct messages) in order and stopped at a held or not-yet-due entry.
    pub async fn outbox_due(&self, limit: usize) -> Vec<OutboxEntry> {
        self.staging().outbox_due(limit).await
    }

    /// The entry was accepted by its destination: it is removed, durably,
    /// with any entries that `then` replaces it by (about the same game).
    pub async fn outbox_delivered(&self, id: u64, then: Vec<Reply>) -> Res<()> {
        self.staging().outbox_delivered(id, then).await
    }

    /// Entries accepted by their destination, removed together, durably.
    pub async fn outbox_delivered_all(&self, ids: Vec<u64>) -> Res<()> {
        self.staging().outbox_delivered_all(ids).await
    }

    /// Records a failed or partial delivery (attempts, parts sent, when to
    /// try again).
    pub async fn outbox_progress(&self, entry: OutboxEntry) -> Res<()> {
        self.staging().outbox_progress(entry).await
    }

    /// Stores entries that belong to no game change (notices about delivery
    /// itself), flushed.
    pub async fn outbox_enqueue(&self, replies: Vec<Reply>, game: Option<u64>) -> Res<()> {
        self.staging().outbox_enqueue(replies, game).await
    }

    /// Ends an interaction's claim: what it did not carry (and report
    /// delivered) goes to the delivery worker.
    pub fn outbox_release(&self, interaction_token: &str) {
        self.staging().outbox_release(interaction_token)
    }

    /// Resolves when entries were stored or released since the call.
    pub async fn outbox_wait(&self) {
        self.staging().outbox_wait().await
    }

    /// How many entries wait for delivery.
    pub async fn outbox_len(&self) -> usize {
        self.staging().outbox_len().await
    }

    /// Every entry waiting, as replies (console delivery: printing is
    /// delivering).
    pub async fn outbox_replies(&self) -> Vec<Reply> {
        self.staging().outbox_replies().await
    }

    /// An entry's pictures, in order: those kept since its command, else drawn again
    /// from their scenes. A picture that cannot be drawn is left out.
    pub async fn outbox_images(&self, entry: &OutboxEntry) -> Vec<Image> {
        self.staging().outbox_images(entry).await
    }
}

/// The outcome that counts: the table's (a draw by agreement) or the game's.
fn outcome(rec: &GameRecord, game: &AnyGame) -> Outcome {
    rec.table_outcome.clone().unwrap_or_else(|| game.outcome())
}
