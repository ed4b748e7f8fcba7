//! sled storage: one tree, keys prefixed by what they hold.
//!
//! | key | value |
//! | --- | --- |
//! | `g` id | [`GameRecord`] |
//! | `l` id seq | [`LogEntry`] |
//! | `s` due id | nothing: the schedule, ordered by due time |
//! | `m` user id | nothing: the games a user plays or is invited to |
//! | `c` channel id | nothing: the games of a channel |
//! | `u` user | [`UserRecord`] |
//! | `N` kind name | a console name's id (`kind`: `u` user, `c` channel; the name in UTF-8) |
//! | `o` id | [`OutboxEntry`]: a message to deliver |
//! | `p` id n | the raw PNG bytes of the entry's n-th picture |
//! | `next-game` | the next game number |
//! | `store-id` | the store's identity, drawn when it was created |
//! | `R` ... | ratings ([`ratings`]) |
//!
//! Leagues live in a tree of their own (`storage/leagues.rs`).
//!
//! Beside the database, `store.json` ([`crate::marker`]) records which store
//! lives in the data folder and how many games it numbered, so that a lost
//! database is refused at start instead of replaced by an empty one.
//!
//! Every write of a game is one transaction on this tree (record, log entries,
//! schedule and index keys, and the outbox entries announcing the change
//! together), guarded by a compare-and-swap on the record's version, and
//! flushed to disk before it returns. All of it is blocking: the table calls it
//! from `spawn_blocking`.

mod dump;
pub mod kv;
pub mod postgres;
mod server_games;
mod servers;
pub use servers::{decode_server, encode_server, ServerRecord};

use crate::clock::Millis;
use crate::outbox::{decode_entry, NewEntry, OutboxEntry};
use crate::record::{
    decode_game, decode_log, decode_user, encode, GameRecord, LogEntry, UserRecord,
};
use crate::table::Image;
use sled::transaction::{
    ConflictableTransactionError, TransactionError, TransactionalTree, UnabortableTransactionError,
};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use thiserror::Error;
use tracing::{error, warn};

mod ratings;
pub use ratings::{HistoryEntry, RatedGame, Standing, GLOBAL};
mod leagues;

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("storage failed: {0}")]
    Sled(#[from] sled::Error),
    /// Another write changed the game since it was read.
    #[error("the game changed meanwhile")]
    Stale,
    #[error("a stored record cannot be read: {0}")]
    Corrupt(String),
    /// The data folder's marker shows a store that the database is not (gone,
    /// empty, another one, older): Tokar refuses to start. The text says what
    /// was found and the ways on.
    #[error("{0}")]
    NotTheStore(String),
    /// Another Tokar process has the database open (sled locks it).
    #[error(
        "the store in {0} is in use by a running Tokar (stop it first, or see `tokar backup`)"
    )]
    InUse(PathBuf),
    /// The database server (PostgreSQL) failed or refused; the text says how.
    #[error("the database failed: {0}")]
    Database(String),
    /// A command that reads an existing store found none.
    #[error("there is no store in {0} (no db/ folder)")]
    NoStore(PathBuf),
}

/// How to open the store: settings an operator may change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreSettings {
    /// sled's page cache, in MiB (`TOKAR_CACHE_MB`). sled's own default is
    /// 1 GiB, more than a small machine should give a bot that mostly sleeps;
    /// the working set of a table is the games being played, a few KiB each.
    pub cache_mb: u64,
    /// Accept the database as found (even empty or missing) and record it as
    /// the data folder's store (`TOKAR_FRESH_STORE=1`), instead of refusing
    /// when it is not the store the folder had.
    pub fresh: bool,
}

impl Default for StoreSettings {
    fn default() -> StoreSettings {
        StoreSettings {
            cache_mb: 64,
            fresh: false,
        }
    }
}

impl StoreSettings {
    /// The defaults, changed by `TOKAR_CACHE_MB` and `TOKAR_FRESH_STORE`. A
    /// value that is not understood is an error (one line), never ignored.
    pub fn from_env() -> Result<StoreSettings, String> {
        let mut s = StoreSettings::default();
        if let Ok(v) = std::env::var("TOKAR_CACHE_MB") {
            s.cache_mb = v
                .trim()
                .parse()
                .ok()
                .filter(|&n| (1..=1_048_576).contains(&n))
                .ok_or_else(|| format!("TOKAR_CACHE_MB={v}: not a size in MiB (1 or more)"))?;
        }
        if let Ok(v) = std::env::var("TOKAR_FRESH_STORE") {
            s.fresh = match v.trim() {
                "1" | "yes" | "true" => true,
                "" | "0" | "no" | "false" => false,
                _ => return Err(format!("TOKAR_FRESH_STORE={v}: say 1 (or leave it unset)")),
            };
        }
        Ok(s)
    }
}

/// One write of a game.
#[derive(Clone, Debug)]
pub struct GameWrite {
    /// The version the stored record must have; `None`: it must not exist yet.
    /// The record written carries this plus one.
    pub expected: Option<u64>,
    pub record: GameRecord,
    /// Log entries to add.
    pub append: Vec<LogEntry>,
    /// Log entries from this sequence number on are removed (an undo).
    pub truncate_from: Option<u64>,
    /// What the change says to others, delivered after it is stored.
    pub outbox: Vec<NewEntry>,
}

#[derive(Clone)]
pub struct Store {
    db: sled::Db,
    /// The data folder whose `store.json` this store keeps up to date; `None`
    /// for a store opened only to be read (`tokar check`, `tokar backup`).
    marker_dir: Option<Arc<PathBuf>>,
    /// One marker write at a time.
    marker_lock: Arc<Mutex<()>>,
}

fn key(prefix: u8, parts: &[u64]) -> Vec<u8> {
    let mut k = Vec::with_capacity(1 + 8 * parts.len());
    k.push(prefix);
    for p in parts {
        k.extend_from_slice(&p.to_be_bytes());
    }
    k
}

fn tail_u64(k: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&k[k.len() - 8..]);
    u64::from_be_bytes(b)
}

/// An outbox entry as read: the entry, or its id and why it cannot be read.
pub type StoredEntry = Result<OutboxEntry, (u64, String)>;

/// One stored key and its value, as dumped for fixtures.
pub type RawItem = (Vec<u8>, Vec<u8>);

const NEXT_GAME: &[u8] = b"next-game";
/// A random number drawn when the store is created: tells stores apart (the outbox's nonces).
const IDENTITY: &[u8] = b"store-id";
/// The prefix of the console's names.
const CONSOLE_NAME: u8 = b'N';

/// Stores one outbox entry and its pictures inside a transaction, giving it
/// the next id.
fn put_entry(tx: &TransactionalTree, e: &NewEntry) -> Result<u64, UnabortableTransactionError> {
    // sled's ids only grow, across restarts too: entries sort in the order
    // they were stored.
    let id = tx.generate_id()?;
    let mut entry = e.entry.clone();
    entry.id = id;
    tx.insert(key(b'o', &[id]), encode(&entry))?;
    for (n, img) in e.images.iter().enumerate() {
        tx.insert(key(b'p', &[id, n as u64]), img.png.as_slice())?;
    }
    Ok(id)
}

fn tx_error(e: TransactionError<StoreError>) -> StoreError {
    match e {
        TransactionError::Abort(e) => e,
        TransactionError::Storage(e) => e.into(),
    }
}

/// How long opening waits for a folder whose lock is held. sled lets go of
/// its lock a moment after its last handle closes (its background threads
/// finish first), so a store reopened in the same process, or an operator
/// command run just as the bot stops, would otherwise be told the folder is in
/// use by a process that is already leaving.
const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// The database of a data folder, opened with the settings' cache size.
fn open_db(dir: &Path, settings: &StoreSettings) -> Result<sled::Db, StoreError> {
    let started = std::time::Instant::now();
    loop {
        let opened = sled::Config::new()
            .path(dir.join("db"))
            .cache_capacity(settings.cache_mb.saturating_mul(1024 * 1024))
            .open();
        match opened {
            Ok(db) => return Ok(db),
            Err(sled::Error::Io(io)) if io.to_string().contains("could not acquire lock") => {
                if started.elapsed() >= LOCK_WAIT {
                    return Err(StoreError::InUse(dir.to_path_buf()));
                }
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            Err(e) => return Err(e.into()),
        }
    }
}

/// The next game number stored (1 when none was drawn yet).
fn next_game(db: &sled::Db) -> Result<u64, StoreError> {
    Ok(db.get(NEXT_GAME)?.map(|b| tail_u64(&b)).unwrap_or(1))
}

impl Store {
    /// Opens (or creates) the store of a data folder with the default settings.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        Store::open_with(dir, &StoreSettings::default())
    }

    /// Opens the store of a data folder for the table: creates it when the
    /// folder has none, and refuses ([`StoreError::NotTheStore`]) when the
    /// folder's marker shows a store that the database is not, unless
    /// `settings.fresh`. A folder from before markers existed gets one.
    pub fn open_with(dir: &Path, settings: &StoreSettings) -> Result<Store, StoreError> {
        let marker = match crate::marker::read(dir) {
            Ok(m) => m,
            Err(e) if settings.fresh => {
                warn!(error = %e, "store marker unreadable; TOKAR_FRESH_STORE writes it anew");
                None
            }
            Err(e) => {
                return Err(StoreError::NotTheStore(format!(
                    "{e}\n  If the database is the right one, start once with TOKAR_FRESH_STORE=1 to write the marker anew."
                )))
            }
        };
        let db_dir = dir.join("db");
        if let (Some(m), false) = (&marker, settings.fresh) {
            // Checked before sled runs: it would create an empty database.
            if !db_dir.exists() {
                let found = format!("its database {} is missing", db_dir.display());
                return Err(StoreError::NotTheStore(crate::marker::refusal(
                    dir, m, &found,
                )));
            }
        }
        let db = open_db(dir, settings)?;
        let identity = db.get(IDENTITY)?.map(|b| tail_u64(&b));
        if let (Some(m), false) = (&marker, settings.fresh) {
            let games = next_game(&db)? - 1;
            let found = match identity {
                None => Some(format!("its database {} is empty", db_dir.display())),
                Some(id) if id != m.identity => {
                    Some(format!("its database holds another store, {id:016x}"))
                }
                Some(_) if games < m.games => Some(format!(
                    "its database has numbered only {games} game(s): it is older than the store was"
                )),
                Some(_) => None,
            };
            if let Some(found) = found {
                return Err(StoreError::NotTheStore(crate::marker::refusal(
                    dir, m, &found,
                )));
            }
        }
        if settings.fresh {
            warn!(data = %dir.display(), "TOKAR_FRESH_STORE: the database as found becomes this folder's store");
        }
        let store = Store::create_identity(db)?;
        let store = Store {
            marker_dir: Some(Arc::new(dir.to_path_buf())),
            ..store
        };
        store.write_marker().map_err(StoreError::NotTheStore)?;
        Ok(store)
    }

    /// Opens the existing store of a data folder to read it: no identity is
    /// drawn, no marker written, and a folder without a database is an error
    /// rather than a new store. (sled may still tidy its own files on open.)
    pub fn open_existing(dir: &Path, settings: &StoreSettings) -> Result<Store, StoreError> {
        if !dir.join("db").exists() {
            return Err(StoreError::NoStore(dir.to_path_buf()));
        }
        Ok(Store {
            db: open_db(dir, settings)?,
            marker_dir: None,
            marker_lock: Default::default(),
        })
    }

    /// Opens the database of a folder for a restore: created when absent, no
    /// identity drawn (the backup brings its own), no marker written yet.
    pub(crate) fn open_for_restore(dir: &Path) -> Result<Store, StoreError> {
        Ok(Store {
            db: open_db(dir, &StoreSettings::default())?,
            marker_dir: Some(Arc::new(dir.to_path_buf())),
            marker_lock: Default::default(),
        })
    }

    /// Records this store and its number of games in the data folder's
    /// marker (only for a store opened with [`Store::open_with`]).
    pub(crate) fn write_marker(&self) -> Result<(), String> {
        let Some(dir) = &self.marker_dir else {
            return Ok(());
        };
        let _one = self.marker_lock.lock().unwrap_or_else(|e| e.into_inner());
        let identity = self.identity().map_err(|e| e.to_string())?;
        let games = next_game(&self.db).map_err(|e| e.to_string())? - 1;
        crate::marker::write(dir, identity, games)
    }

    /// Draws the store's identity if it has none yet.
    fn create_identity(db: sled::Db) -> Result<Store, StoreError> {
        if db.get(IDENTITY)?.is_none() {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or_default();
            let identity = crate::entropy::fresh(&[nanos]);
            // Only the first writer's number counts.
            let _ = db.compare_and_swap(
                IDENTITY,
                None as Option<&[u8]>,
                Some(&identity.to_be_bytes()[..]),
            )?;
            db.flush()?;
        }
        Ok(Store {
            db,
            marker_dir: None,
            marker_lock: Default::default(),
        })
    }

    /// The database itself, for the backup and the check, which read every key.
    pub(crate) fn db(&self) -> &sled::Db {
        &self.db
    }

    /// The store's identity, drawn when it was created.
    pub fn identity(&self) -> Result<u64, StoreError> {
        Ok(self.db.get(IDENTITY)?.map(|b| tail_u64(&b)).unwrap_or(0))
    }

    /// Points the waiting entries of `game` that go to `from` at `to`, due now; with `to` as
    /// `None`, holds them until `until` (a channel the bot cannot post in). Flushed.
    pub fn outbox_retarget(
        &self,
        game: u64,
        from: u64,
        to: Option<&crate::record::Named>,
        until: crate::clock::Millis,
    ) -> Result<usize, StoreError> {
        use crate::outbox::Target;
        let mut n = 0;
        for kv in self.db.scan_prefix([b'o']) {
            let (k, v) = kv?;
            let Ok(mut e) = decode_entry(&v) else {
                continue;
            };
            if e.game != Some(game) {
                continue;
            }
            let target_channel = match &mut e.target {
                Target::Channel(c) => c,
                Target::Direct { channel, .. } => channel,
                // The request to open the game's thread stays where it is asked.
                Target::Thread { .. } => continue,
            };
            if target_channel.id != from {
                continue;
            }
            match to {
                Some(c) => {
                    *target_channel = c.clone();
                    e.not_before = 0;
                    // A new channel: the interaction that may have carried it is of no use.
                    e.carrier = None;
                }
                None => {
                    if matches!(e.target, Target::Direct { .. }) {
                        continue;
                    }
                    e.not_before = until;
                }
            }
            // Only if nobody delivered it meanwhile.
            let _ = self.db.compare_and_swap(&k, Some(v), Some(encode(&e)))?;
            n += 1;
        }
        self.db.flush()?;
        Ok(n)
    }

    /// Allocates the next game number (1, 2, 3...), durably.
    pub fn next_game_id(&self) -> Result<u64, StoreError> {
        let old = self.db.fetch_and_update(NEXT_GAME, |old| {
            let n = old.map(tail_u64).unwrap_or(1);
            Some((n + 1).to_be_bytes().to_vec())
        })?;
        // Flushed before the marker counts it: the marker never counts more
        // games than the database holds.
        self.db.flush()?;
        if let Err(e) = self.write_marker() {
            error!(error = %e, "the store marker was not refreshed");
        }
        Ok(old.map(|b| tail_u64(&b)).unwrap_or(1))
    }

    pub fn game(&self, id: u64) -> Result<Option<GameRecord>, StoreError> {
        match self.db.get(key(b'g', &[id]))? {
            None => Ok(None),
            Some(b) => decode_game(&b).map(Some).map_err(StoreError::Corrupt),
        }
    }

    pub fn log(&self, id: u64) -> Result<Vec<LogEntry>, StoreError> {
        self.db
            .scan_prefix(key(b'l', &[id]))
            .map(|kv| {
                let (_, v) = kv?;
                decode_log(&v).map_err(StoreError::Corrupt)
            })
            .collect()
    }

    fn ids(&self, prefix: Vec<u8>) -> Result<Vec<u64>, StoreError> {
        self.db
            .scan_prefix(prefix)
            .keys()
            .map(|k| Ok(tail_u64(&k?)))
            .collect()
    }

    /// Games the user plays or was invited to.
    pub fn games_of_user(&self, user: u64) -> Result<Vec<u64>, StoreError> {
        self.ids(key(b'm', &[user]))
    }

    pub fn games_in_channel(&self, channel: u64) -> Result<Vec<u64>, StoreError> {
        self.ids(key(b'c', &[channel]))
    }

    /// Games whose schedule entry is due at `now` or earlier.
    pub fn due(&self, now: Millis) -> Result<Vec<u64>, StoreError> {
        let mut out = Vec::new();
        for k in self
            .db
            .range(key(b's', &[0])..=key(b's', &[now, u64::MAX]))
            .keys()
        {
            out.push(tail_u64(&k?));
        }
        Ok(out)
    }

    pub fn user(&self, id: u64) -> Result<Option<UserRecord>, StoreError> {
        match self.db.get(key(b'u', &[id]))? {
            None => Ok(None),
            Some(b) => decode_user(&b).map(Some).map_err(StoreError::Corrupt),
        }
    }

    pub fn put_user(&self, rec: &UserRecord) -> Result<(), StoreError> {
        self.db.insert(key(b'u', &[rec.user.id]), encode(rec))?;
        self.db.flush()?;
        Ok(())
    }

    /// Game `id`'s record as stored (`None`: no such game). Every change to
    /// a game rewrites it with a higher version, so equal bytes mean the game
    /// did not change.
    pub fn game_bytes(&self, id: u64) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.db.get(key(b'g', &[id]))?.map(|v| v.to_vec()))
    }

    /// Every user record.
    pub fn users(&self) -> Result<Vec<UserRecord>, StoreError> {
        self.db
            .scan_prefix([b'u'])
            .values()
            .map(|v| decode_user(&v?).map_err(StoreError::Corrupt))
            .collect()
    }

    /// The names the console gave ids to (`kind`: `b'u'` users, `b'c'`
    /// channels). Kept here, with the users, so that a name never changes
    /// hands while the store lives.
    pub fn console_names(&self, kind: u8) -> Result<Vec<(String, u64)>, StoreError> {
        self.db
            .scan_prefix([CONSOLE_NAME, kind])
            .map(|kv| {
                let (k, v) = kv?;
                let name = String::from_utf8(k[2..].to_vec())
                    .map_err(|_| StoreError::Corrupt("a console name is not UTF-8".into()))?;
                let id = <[u8; 8]>::try_from(&v[..])
                    .map_err(|_| StoreError::Corrupt(format!("console name {name}: no id")))?;
                Ok((name, u64::from_be_bytes(id)))
            })
            .collect()
    }

    /// Gives the console name `name` the id `id` unless it has one, durably;
    /// returns the id it has.
    pub fn claim_console_name(&self, kind: u8, name: &str, id: u64) -> Result<u64, StoreError> {
        let mut k = vec![CONSOLE_NAME, kind];
        k.extend_from_slice(name.as_bytes());
        let held =
            self.db
                .compare_and_swap(&k, None as Option<&[u8]>, Some(&id.to_be_bytes()[..]))?;
        self.db.flush()?;
        match held {
            Ok(()) => Ok(id),
            Err(e) => e
                .current
                .and_then(|v| <[u8; 8]>::try_from(&v[..]).ok())
                .map(u64::from_be_bytes)
                .ok_or_else(|| StoreError::Corrupt(format!("console name {name}: no id"))),
        }
    }

    /// Writes one game atomically with its outbox entries, refusing a stale
    /// write, and flushes. Returns the ids given to the outbox entries.
    pub fn commit(&self, w: &GameWrite) -> Result<Vec<u64>, StoreError> {
        let id = w.record.id;
        let gkey = key(b'g', &[id]);
        let result = self.db.transaction(|tx| {
            let stored = match tx.get(&gkey)? {
                None => None,
                Some(b) => Some(
                    decode_game(&b)
                        .map_err(|e| ConflictableTransactionError::Abort(StoreError::Corrupt(e)))?,
                ),
            };
            let old_version = stored.as_ref().map(|r| r.version);
            if old_version != w.expected {
                return Err(ConflictableTransactionError::Abort(StoreError::Stale));
            }
            let mut record = w.record.clone();
            record.version = w.expected.map_or(0, |v| v + 1);
            if let Some(old) = stored.as_ref() {
                if let Some(due) = old.scheduled {
                    tx.remove(key(b's', &[due, id]))?;
                }
                if let Some(from) = w.truncate_from {
                    for seq in from..old.log_len {
                        tx.remove(key(b'l', &[id, seq]))?;
                    }
                }
            }
            if let Some(due) = record.scheduled {
                tx.insert(key(b's', &[due, id]), &[][..])?;
            }
            for e in &w.append {
                tx.insert(key(b'l', &[id, e.seq]), encode(e))?;
            }
            for m in &record.members {
                tx.insert(key(b'm', &[m.user.id, id]), &[][..])?;
            }
            for m in &record.invited {
                tx.insert(key(b'm', &[m.id, id]), &[][..])?;
            }
            tx.insert(key(b'c', &[record.channel.id, id]), &[][..])?;
            tx.insert(gkey.clone(), encode(&record))?;
            ratings::rate_on_finish(tx, stored.as_ref(), &record, &w.append)?;
            let mut ids = Vec::with_capacity(w.outbox.len());
            for e in &w.outbox {
                ids.push(put_entry(tx, e)?);
            }
            Ok(ids)
        });
        let ids = match result {
            Ok(ids) => ids,
            Err(TransactionError::Abort(e)) => return Err(e),
            Err(TransactionError::Storage(e)) => return Err(e.into()),
        };
        self.db.flush()?;
        Ok(ids)
    }

    /// Stores outbox entries that go with no game change (a notice about a
    /// delivery problem), flushed.
    pub fn enqueue(&self, entries: &[NewEntry]) -> Result<Vec<u64>, StoreError> {
        let ids = self
            .db
            .transaction(|tx| {
                let mut ids = Vec::new();
                for e in entries {
                    ids.push(put_entry(tx, e)?);
                }
                Ok::<_, ConflictableTransactionError<StoreError>>(ids)
            })
            .map_err(tx_error)?;
        self.db.flush()?;
        Ok(ids)
    }

    /// Up to `limit` entries waiting for delivery, oldest first. An entry that
    /// cannot be read is logged by the caller through its error and skipped
    /// here, so one damaged entry never stops the others.
    pub fn outbox(&self, limit: usize) -> Result<Vec<StoredEntry>, StoreError> {
        let mut out = Vec::new();
        for kv in self.db.scan_prefix([b'o']).take(limit) {
            let (k, v) = kv?;
            let id = tail_u64(&k);
            out.push(decode_entry(&v).map_err(|e| (id, e)));
        }
        Ok(out)
    }

    /// How many entries wait for delivery.
    pub fn outbox_len(&self) -> usize {
        self.db.scan_prefix([b'o']).count()
    }

    pub fn outbox_entry(&self, id: u64) -> Result<Option<OutboxEntry>, StoreError> {
        match self.db.get(key(b'o', &[id]))? {
            None => Ok(None),
            Some(b) => decode_entry(&b).map(Some).map_err(StoreError::Corrupt),
        }
    }

    /// The pictures stored with an entry.
    pub fn outbox_images(&self, entry: &OutboxEntry) -> Result<Vec<Image>, StoreError> {
        let mut out = Vec::new();
        for (n, name) in entry.images.iter().enumerate() {
            if let Some(png) = self.db.get(key(b'p', &[entry.id, n as u64]))? {
                out.push(Image {
                    name: name.clone(),
                    png: png.to_vec(),
                });
            }
        }
        Ok(out)
    }

    /// Records a delivery's progress or failure (attempts, parts sent, the
    /// next try), flushed. An entry already removed stays removed.
    pub fn outbox_update(&self, entry: &OutboxEntry) -> Result<(), StoreError> {
        let k = key(b'o', &[entry.id]);
        let bytes = encode(entry);
        self.db
            .transaction(|tx| {
                if tx.get(&k)?.is_some() {
                    tx.insert(k.clone(), bytes.clone())?;
                }
                Ok::<_, ConflictableTransactionError<StoreError>>(())
            })
            .map_err(tx_error)?;
        self.db.flush()?;
        Ok(())
    }

    /// Removes a delivered entry and its pictures; `then` entries are stored in
    /// the same transaction (what replaces an entry that cannot be delivered).
    /// Flushed. Returns the ids of `then`.
    pub fn outbox_done(&self, id: u64, then: &[NewEntry]) -> Result<Vec<u64>, StoreError> {
        let pictures = self
            .db
            .scan_prefix(key(b'p', &[id]))
            .keys()
            .collect::<Result<Vec<sled::IVec>, _>>()?;
        let ids = self
            .db
            .transaction(|tx| {
                tx.remove(key(b'o', &[id]))?;
                for k in &pictures {
                    tx.remove(k)?;
                }
                let mut ids = Vec::new();
                for e in then {
                    ids.push(put_entry(tx, e)?);
                }
                Ok::<_, ConflictableTransactionError<StoreError>>(ids)
            })
            .map_err(tx_error)?;
        self.db.flush()?;
        Ok(ids)
    }

    /// How many games are being played (started, not finished), for the operator's metrics.
    /// Reads every record's phase: a scan, so callers run it now and then, not per command.
    pub fn games_in_play(&self) -> Result<usize, StoreError> {
        #[derive(serde::Deserialize)]
        struct PhaseOnly {
            phase: crate::record::Phase,
        }
        let mut n = 0;
        for kv in self.db.scan_prefix([b'g']) {
            let (_, v) = kv?;
            // An unreadable record is `tokar check`'s business, not a metric's.
            if serde_json::from_slice::<PhaseOnly>(&v)
                .is_ok_and(|r| r.phase == crate::record::Phase::Playing)
            {
                n += 1;
            }
        }
        Ok(n)
    }
}

/// The key of a game record.
pub(crate) fn game_key(id: u64) -> Vec<u8> {
    key(b'g', &[id])
}

/// The prefix of a game's log entries.
pub(crate) fn log_prefix(id: u64) -> Vec<u8> {
    key(b'l', &[id])
}

/// The game number in a game record's, log entry's or index key (`None`
/// for other keys).
pub(crate) fn game_of_key(k: &[u8]) -> Option<u64> {
    match (k.first(), k.len()) {
        (Some(b'g'), 9) => Some(tail_u64(k)),
        (Some(b'l'), 17) => Some(tail_u64(&k[..9])),
        (Some(b's' | b'm' | b'c'), 17) => Some(tail_u64(k)),
        _ => None,
    }
}

/// Whether a key is an index derived from the game records (schedule, games
/// of a user, games of a channel): rebuilt from the records, never copied.
pub(crate) fn is_index_key(k: &[u8]) -> bool {
    matches!(k.first(), Some(b's' | b'm' | b'c')) && k.len() == 17
}

/// The index keys a game record implies: its schedule entry and the
/// user and channel indexes.
pub(crate) fn index_keys(rec: &GameRecord) -> Vec<Vec<u8>> {
    let id = rec.id;
    let mut out = Vec::new();
    for m in &rec.members {
        out.push(key(b'm', &[m.user.id, id]));
    }
    for m in &rec.invited {
        out.push(key(b'm', &[m.id, id]));
    }
    out.push(key(b'c', &[rec.channel.id, id]));
    if let Some(due) = rec.scheduled {
        out.push(key(b's', &[due, id]));
    }
    out
}

/// The key holding the next game number.
pub(crate) const NEXT_GAME_KEY: &[u8] = NEXT_GAME;
/// The key holding the store's identity.
pub(crate) const IDENTITY_KEY: &[u8] = IDENTITY;

pub(crate) fn be_u64(b: &[u8]) -> Option<u64> {
    (b.len() >= 8).then(|| tail_u64(b))
}
