//! The game and user records as commands read and write them: the store
//! handle, one lock per game, the table's clock, and whether reads may run on
//! the executor. Every other service reaches storage through this one, so that
//! what players are told when storage fails is decided in one place
//! ([`stored`]).

use super::{replay, Loaded, Res, STORAGE_FAILED, UNWRITABLE};
use std::collections::HashMap;
use std::sync::Arc;
use tokar_engine::catalog::AnyGame;
use tokar_model::api::UserRef;
use tokar_model::clock::{Clock, Millis};
use tokar_model::record::{Named, Phase, UserRecord};
use tokar_store::{Store, StoreError};
use tracing::{error, warn};

/// The store, the per-game locks and the clock.
pub(crate) struct Records {
    store: Store,
    clock: Arc<dyn Clock>,
    /// One async mutex per game: its writes run one at a time.
    locks: std::sync::Mutex<HashMap<u64, Arc<tokio::sync::Mutex<()>>>>,
    /// Whether the store's reads run on the executor (see [`Records::read`]).
    local_reads: bool,
}

impl Records {
    pub(crate) fn new(store: Store, clock: Arc<dyn Clock>) -> Records {
        let local_reads = store.kv().local_reads();
        Records {
            store,
            clock,
            locks: Default::default(),
            local_reads,
        }
    }

    /// The open store itself.
    pub(crate) fn store(&self) -> &Store {
        &self.store
    }

    /// Records (or updates) the name shown for a user, so that mentions of
    /// people who have not typed anything yet read well.
    pub(crate) async fn remember_user(&self, user: &UserRef) -> Result<(), String> {
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
    pub(crate) fn now(&self) -> Millis {
        self.clock.now()
    }

    /// Runs storage work off the async executor: writes (each waits for its
    /// flush) and whatever reads a store across the network.
    pub(crate) async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Res<T> {
        let store = self.store.clone();
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
    /// other stores are read as [`Records::blocking`] does. `f` must only read.
    pub(crate) async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Res<T> {
        // A read that would wait for a flush (see `storage/gate.rs`) goes off the executor.
        if self.local_reads && !self.store.kv().reads_wait() {
            stored(f(&self.store))
        } else {
            self.blocking(f).await
        }
    }

    pub(crate) async fn lock(&self, id: u64) -> tokio::sync::OwnedMutexGuard<()> {
        let m = {
            let mut locks = self.locks.lock().unwrap_or_else(|e| e.into_inner());
            locks.entry(id).or_default().clone()
        };
        m.lock_owned().await
    }

    pub(crate) async fn user_record(&self, user: &UserRef) -> Res<UserRecord> {
        let named = Named::from(user);
        self.read(move |s| Ok(s.user(named.id)?.unwrap_or_else(|| UserRecord::new(named))))
            .await
    }

    /// The name of a user id: the last one seen, or a mention.
    pub(crate) async fn name_of(&self, id: u64) -> Named {
        let rec = self.read(move |s| s.user(id)).await.ok().flatten();
        Named {
            id,
            name: rec
                .map(|u| u.user.name)
                .unwrap_or_else(|| format!("<@{id}>")),
        }
    }

    /// Reads a game: the snapshot if it loads, else a replay of the log.
    pub(crate) async fn load(&self, id: u64) -> Res<Loaded> {
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
}

/// What a storage step did, as players are told it: the detail of a failure
/// (sled's text, a record's decoding error) is for the operator's log.
pub(crate) fn stored<T>(done: Result<T, StoreError>) -> Res<T> {
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
pub(crate) fn unloadable(id: u64, detail: &str) -> String {
    error!(game = id, error = %detail, "replay failed");
    format!("Game #{id} cannot be loaded from storage; the operator has been told.")
}
