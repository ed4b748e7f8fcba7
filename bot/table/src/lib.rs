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
mod rating_line;
mod replay;
mod replay_cache;
pub mod robot;
mod schedule;
mod server_games;
mod staging;
mod standings;
mod text;
mod threads;
mod turns;
mod vacation;

pub use names::NameKind;
pub use replay::MAX_REPLAY_FRAMES;
pub use replay_cache::ReplayCacheStats;
pub use threads::{thread_name, THREAD_NAME_LIMIT};
pub use tokar_model::api::{
    Button, ChannelRef, Image, Refusal, Reply, Request, ThreadRefusal, ThreadSupport, UserRef,
};
pub use tokar_model::replay::replay;
pub(crate) use tokar_model::replay::{apply_entry, reseed_at};

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use thiserror::Error;
use tokar_engine::catalog::AnyGame;
use tokar_engine::{Outcome, Seat, Seed};
use tokar_model::clock::{Clock, Millis, SystemClock};
use tokar_model::record::{GameRecord, LogEntry, Named, Phase, UserRecord};
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

struct Inner {
    store: Store,
    clock: Arc<dyn Clock>,
    seed: Option<u64>,
    /// One async mutex per game: its writes run one at a time.
    locks: std::sync::Mutex<HashMap<u64, Arc<tokio::sync::Mutex<()>>>>,
    /// This process's own unpredictable number: the computer player's seeds and the
    /// lease owner's name. Never a game's seed (each is drawn afresh, `seed_for`).
    entropy: u64,
    /// Draws positions; made once (it prepares the piece art).
    renderer: Arc<tokar_render::Renderer>,
    /// The computer opponent's settings and the games it is thinking about.
    robot: robot::Robot,
    /// The store's identity, drawn when it was created.
    identity: u64,
    /// Whether the store's reads run on the executor (see [`Table::read`]).
    local_reads: bool,
    /// Interactions that may still carry their command's announcement (see
    /// `staging.rs`): the delivery worker leaves their entries alone.
    claims: std::sync::Mutex<std::collections::HashSet<String>>,
    /// Pictures of entries just stored, for their delivery (see `drawn.rs`).
    drawn: std::sync::Mutex<drawn::Drawn>,
    /// Woken when outbox entries are stored or released.
    outbox_ready: tokio::sync::Notify,
    /// The store leases this process holds, and until when (see `leases.rs`).
    leases: std::sync::Mutex<HashMap<tokar_store::Lease, tokar_model::clock::Millis>>,
    /// Finished games' replays, drawn once (see `replay_cache.rs`).
    replays: replay_cache::ReplayCache,
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
        let entropy = tokar_model::entropy::fresh(&[SystemClock.now(), std::process::id().into()]);
        info!(store = %store.kv().describe(), "table open");
        let local_reads = store.kv().local_reads();
        Table {
            inner: Arc::new(Inner {
                store,
                clock: config.clock,
                seed: config.seed,
                locks: Default::default(),
                entropy,
                renderer: Arc::new(tokar_render::Renderer::new()),
                robot: robot::Robot::new(config.robot),
                identity,
                local_reads,
                claims: Default::default(),
                drawn: Default::default(),
                outbox_ready: tokio::sync::Notify::new(),
                leases: Default::default(),
                replays: Default::default(),
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
        if let Err(e) = self.remember_user(&req.user).await {
            warn!(error = %e, "cannot record the user's name");
        }
        let result = self.dispatch(&req).await;
        match result {
            Ok(mut replies) => {
                info!(user = %req.user.name, %command, "done");
                // A play ends the player's vacation (ruling T50).
                if matches!(req.command, tokar_model::Command::Play { .. }) {
                    replies.extend(self.vacation_ends_at_play(&req.user).await);
                }
                // The command is committed; the bot's answers follow it.
                if self.robot_answers_later() {
                    let this = self.clone();
                    let user = req.user.id;
                    tokio::spawn(async move {
                        this.robot_moves_for(user).await;
                    });
                } else {
                    replies.extend(self.robot_moves_for(req.user.id).await);
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
        let named = Named::from(user);
        // The name is nearly always the one stored: then a read is all.
        let id = named.id;
        let known = self.read(move |s| s.user(id)).await?;
        if known.is_some_and(|u| u.user.name == named.name) {
            return Ok(());
        }
        self.blocking(move |s| {
            match s.user(named.id)? {
                Some(u) if u.user.name == named.name => {}
                Some(mut u) => {
                    u.user = named;
                    s.put_user(&u)?;
                }
                None => s.put_user(&UserRecord::new(named))?,
            }
            Ok(())
        })
        .await
        .map_err(String::from)
    }

    /// The table's time: what schedules, records and the outbox's retries are reckoned in.
    pub fn now(&self) -> Millis {
        self.inner.clock.now()
    }

    /// Runs storage work off the async executor: writes (each waits for its
    /// flush) and whatever reads a store across the network.
    async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Res<T> {
        let store = self.inner.store.clone();
        match tokio::task::spawn_blocking(move || f(&store)).await {
            Ok(done) => stored(done),
            Err(e) => {
                error!(error = %e, "storage task");
                Err(STORAGE_FAILED.into())
            }
        }
    }

    /// Reads the store. A store in this process (sled) answers from memory or
    /// the local disk in microseconds, less than the two thread wake-ups of a
    /// hand-off to a blocking thread and back, so the read runs right here;
    /// other stores are read as [`Table::blocking`] does. `f` must only read.
    async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Res<T> {
        // A read that would wait for a flush (see `storage/gate.rs`) goes off the executor.
        if self.inner.local_reads && !self.inner.store.kv().reads_wait() {
            stored(f(&self.inner.store))
        } else {
            self.blocking(f).await
        }
    }

    /// The store, for what the binary does beside the table with the same open
    /// store: a backup taken from inside the running process, the Discord
    /// delivery worker's reads of the outbox.
    pub fn store_handle(&self) -> Store {
        self.inner.store.clone()
    }

    async fn lock(&self, id: u64) -> tokio::sync::OwnedMutexGuard<()> {
        let m = {
            let mut locks = self.inner.locks.lock().unwrap_or_else(|e| e.into_inner());
            locks.entry(id).or_default().clone()
        };
        m.lock_owned().await
    }

    async fn user_record(&self, user: &UserRef) -> Res<UserRecord> {
        let named = Named::from(user);
        self.read(move |s| Ok(s.user(named.id)?.unwrap_or_else(|| UserRecord::new(named))))
            .await
    }

    /// The name of a user id: the last one seen, or a mention.
    async fn name_of(&self, id: u64) -> Named {
        let rec = self.read(move |s| s.user(id)).await.ok().flatten();
        Named {
            id,
            name: rec
                .map(|u| u.user.name)
                .unwrap_or_else(|| format!("<@{id}>")),
        }
    }

    /// Reads a game: the snapshot if it loads, else a replay of the log.
    async fn load(&self, id: u64) -> Res<Loaded> {
        let (rec, log) = self
            .read(move |s| {
                let rec = s.game(id)?;
                let log = match &rec {
                    Some(r) if r.snapshot.is_none() && r.log_len > 0 => Some(s.log(id)?),
                    _ => None,
                };
                Ok((rec, log))
            })
            .await?;
        let rec = rec.ok_or_else(|| format!("There is no game #{id}."))?;
        if matches!(rec.phase, Phase::Lobby | Phase::Cancelled) {
            return Ok(Loaded { rec, game: None });
        }
        if let Some(snap) = &rec.snapshot {
            match serde_json::from_str::<AnyGame>(snap) {
                Ok(game) => {
                    return Ok(Loaded {
                        rec,
                        game: Some(game),
                    })
                }
                Err(e) => warn!(game = id, error = %e, "snapshot unreadable; replaying the log"),
            }
        }
        let log = match log {
            Some(l) => l,
            None => self.read(move |s| s.log(id)).await?,
        };
        let game = replay(&rec, &log).map_err(|e| unloadable(id, &e))?;
        Ok(Loaded {
            rec,
            game: Some(game),
        })
    }

    /// A new game's seed: 256 bits from the operating system, drawn for this game
    /// alone (engine/rules/chance.md); with `--seed` (tests and the console, never real
    /// play) derived from it and the game number.
    fn seed_for(&self, id: u64) -> Res<Seed> {
        self.draw_seed(tokar_model::entropy::Purpose::Game, id)
    }

    /// The seed a game created from a record goes on with after the record's actions
    /// (ruling T13): nobody has seen it, unlike the record's. Drawn as a new game's is,
    /// apart from the game's own seed under `--seed`.
    fn secret_seed(&self, id: u64) -> Res<Seed> {
        self.draw_seed(tokar_model::entropy::Purpose::Reseed, id)
    }

    fn draw_seed(&self, purpose: tokar_model::entropy::Purpose, id: u64) -> Res<Seed> {
        match self.inner.seed {
            Some(base) => Ok(tokar_model::entropy::derived(base, purpose, id)),
            None => tokar_model::entropy::game_seed().map_err(|e| {
                error!(game = id, error = %e, "no seed for a game");
                "No game can be set up right now (the server has no randomness to deal \
                 with); nothing was done. The operator has been told."
                    .into()
            }),
        }
    }
}

/// What a storage step did, as players are told it: the detail of a failure
/// (sled's text, a record's decoding error) is for the operator's log.
fn stored<T>(done: Result<T, StoreError>) -> Res<T> {
    match done {
        Ok(v) => Ok(v),
        Err(StoreError::Stale) => Err(
            "The game changed while your command ran; nothing was done. Look again and retry."
                .into(),
        ),
        // Told to the operator's log once per episode, by the store itself.
        Err(StoreError::Unwritable(why)) => {
            tracing::debug!(%why, "storage refused");
            Err(UNWRITABLE.into())
        }
        Err(e) => {
            error!(error = %e, "storage");
            Err(STORAGE_FAILED.into())
        }
    }
}

/// A stored game whose log does not replay: the detail to the log, one plain
/// line for the players.
fn unloadable(id: u64, detail: &str) -> String {
    error!(game = id, error = %detail, "replay failed");
    format!("Game #{id} cannot be loaded from storage; the operator has been told.")
}

/// The outcome that counts: the table's (a draw by agreement) or the game's.
fn outcome(rec: &GameRecord, game: &AnyGame) -> Outcome {
    rec.table_outcome.clone().unwrap_or_else(|| game.outcome())
}

impl Table {
    /// The picture of a position for `viewer`, drawn off the async executor,
    /// from `side`'s side when given (ruling T37), else from the view's own.
    /// A picture that cannot be drawn is logged and left out: the text of the
    /// reply still says everything.
    async fn picture(
        &self,
        rec: &GameRecord,
        game: &AnyGame,
        viewer: tokar_engine::Viewer,
        side: Option<Seat>,
        targets: Vec<tokar_engine::Cell>,
        selected: Option<tokar_engine::Cell>,
    ) -> Vec<Image> {
        let name = format!("game-{}-{}.png", rec.id, rec.log_len);
        let mut scene = tokar_model::scene::Scene {
            view: game.view(viewer),
            marks: rec
                .last_marks
                .iter()
                .map(|&(c, m)| (tokar_engine::Cell(c), m))
                .collect(),
            targets,
            selected,
            side,
            clock: None,
        };
        // The time left on the move, under the header, while someone must act.
        if rec.phase == tokar_model::record::Phase::Playing && !rec.turn.waiting.is_empty() {
            match self.effective_deadline(rec).await {
                Ok(d) => scene.clock = Some(format!("Move deadline: {}", d.describe(self.now()))),
                Err(e) => warn!(game = rec.id, error = %e, "picture drawn without its clock"),
            }
        }
        self.draw(vec![(0, name, Arc::new(scene))])
            .await
            .into_iter()
            .map(|(_, image)| image)
            .collect()
    }
}
