//! # tokar-store
//!
//! The store: what Tokar keeps, and where, in one main keyspace whose keys
//! are prefixed by what they hold. It speaks to its database through
//! [`kv::Kv`]: sled in the data folder (the default), or PostgreSQL.
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
//! | `p` id n | the raw PNG bytes of the entry's n-th picture, when it has no scene (see [`tokar_model::scene`]) |
//! | `next-game` | the next game number |
//! | `store-id` | the store's identity, drawn when it was created |
//! | `writes` | the store's generation on sled ([`kv::Kv::generation`]; PostgreSQL: a sequence) |
//! | `with-marker` | present once a data folder's marker names the store (`marker_check.rs`) |
//! | `R` ... | ratings ([`ratings`]) |
//! | `q` ... | leases, when processes share the store ([`leases`]) |
//! | `i` / `I` ... | interaction claims, each interaction run once ([`claims`]) |
//!
//! Leagues live in a tree of their own (`leagues.rs`).
//!
//! Beside the database, `store.json` ([`marker`]) records which store
//! lives in the data folder, how many games it numbered and its generation,
//! so that a lost, emptied, swapped or older database is refused at start
//! instead of used without a word (`open.rs`, `marker_check.rs`).
//!
//! Every write of a game is one transaction on this tree (record, log entries,
//! schedule and index keys, and the outbox entries announcing the change
//! together), guarded by a compare-and-swap on the record's version, and
//! flushed to disk before it returns. Delivered outbox entries without
//! stored pictures are removed key by key, flushed, without a transaction (see
//! [`kv::Kv::remove_each`]). All of it is blocking: the table writes
//! from `spawn_blocking`, and reads there unless [`Kv::local_reads`] says a
//! read is cheaper than that hand-off.

mod claims;
pub mod marker;
pub use claims::{Claim, CLAIM_KEPT};
mod dump;
mod events;
mod leases;
pub use leases::Lease;
mod delivered;
pub mod export;
pub mod folder;
mod gate;
mod group_flush;
pub mod kv;
mod marker_check;
mod marker_keeper;
mod open;
pub mod postgres;
pub mod private;
pub mod raw;
mod server_games;
mod servers;
mod sled_kv;
mod trees;
mod versioned;
pub use servers::{decode_server, encode_server, ServerRecord};

use kv::{transaction, Kv, KvTx, TxError, MAIN};
pub use sled_kv::REOPEN_EVERY;
use std::path::PathBuf;
use std::sync::Arc;
use thiserror::Error;
use tokar_model::api::Image;
use tokar_model::clock::Millis;
use tokar_model::outbox::{decode_entry, NewEntry, OutboxEntry};
use tokar_model::record::{
    decode_game, decode_log, decode_user, encode, GameRecord, LogEntry, UserRecord,
};

mod ratings;
mod rerate;
pub use ratings::{pair_of, HistoryEntry, PairGames, RatedGame, Standing, GLOBAL, RATINGS_FORMAT};
pub use rerate::Rerate;
mod leagues;

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("storage failed: {0}")]
    Sled(SledError),
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
    /// A write could not be made durable (the disk is full or failing):
    /// nothing of it is visible, and the store refuses reads and writes
    /// until it is opened again from disk. The text says why, for the log.
    #[error("the store cannot reach its disk: {0}")]
    Unwritable(String),
    /// A command that reads an existing store found none.
    #[error("there is no store in {0} (no db/ folder)")]
    NoStore(PathBuf),
}

/// sled's own failure, kept opaque: no sled type leaves the store.
#[derive(Debug)]
pub struct SledError(pub(crate) sled::Error);

impl std::fmt::Display for SledError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for SledError {}

impl From<sled::Error> for StoreError {
    fn from(e: sled::Error) -> StoreError {
        StoreError::Sled(SledError(e))
    }
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
    /// A PostgreSQL database to keep the store in (`TOKAR_DATABASE_URL`),
    /// which several processes may share; `None`: sled in the data folder.
    pub database: Option<String>,
}

impl Default for StoreSettings {
    fn default() -> StoreSettings {
        StoreSettings {
            cache_mb: 64,
            fresh: false,
            database: None,
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
        if let Ok(v) = std::env::var("TOKAR_DATABASE_URL") {
            let v = v.trim();
            if !v.is_empty() {
                if !postgres::is_url(v) {
                    return Err(
                        "TOKAR_DATABASE_URL: not a PostgreSQL URL (postgres://user@host/database)"
                            .into(),
                    );
                }
                s.database = Some(v.to_string());
            }
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
    /// The rated game this write finishes, as the table assessed it from the
    /// record and the whole log: counted in this same transaction (T28-T30),
    /// once. `None` for any other write, and for a game that is not rated.
    pub rated: Option<RatedGame>,
}

#[derive(Clone)]
pub struct Store {
    /// Keeps the data folder's `store.json` up to date; `None` for a store
    /// opened only to be read (`tokar check`, `tokar backup`) or on a
    /// database alone ([`Store::on`]). Before `kv`: dropped first, so the
    /// marker's last write is done before the database closes (and another
    /// open of the folder can read it).
    marker: Option<Arc<marker_keeper::Keeper>>,
    /// The database: sled in the data folder, or PostgreSQL.
    kv: Arc<dyn Kv>,
    /// Outbox entries this process delivered but could not remove yet.
    delivered: Arc<delivered::Delivered>,
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
fn put_entry(tx: &mut dyn KvTx, e: &NewEntry) -> Result<u64, TxError> {
    // The database's ids only grow, across restarts too: entries sort in the
    // order they were stored.
    let id = tx.generate_id()?;
    let mut entry = e.entry.clone();
    entry.id = id;
    tx.insert(MAIN, &key(b'o', &[id]), &encode(&entry))?;
    // A picture with a scene is drawn again from it; only the others are bytes.
    for (n, img) in e.images.iter().enumerate() {
        if entry.scene(n).is_none() {
            tx.insert(MAIN, &key(b'p', &[id, n as u64]), &img.png)?;
        }
    }
    Ok(id)
}

/// A record that cannot be read, inside a transaction: ends it.
fn corrupt(e: String) -> TxError {
    TxError::Abort(StoreError::Corrupt(e))
}

/// The next game number stored (1 when none was drawn yet).
fn next_game(kv: &dyn Kv) -> Result<u64, StoreError> {
    Ok(kv.get(MAIN, NEXT_GAME)?.map(|b| tail_u64(&b)).unwrap_or(1))
}

impl Store {
    /// The database the store speaks to.
    pub fn kv(&self) -> &dyn Kv {
        &*self.kv
    }

    /// The store's identity, drawn when it was created.
    pub fn identity(&self) -> Result<u64, StoreError> {
        Ok(self
            .kv
            .get(MAIN, IDENTITY)?
            .map(|b| tail_u64(&b))
            .unwrap_or(0))
    }

    /// Points the waiting entries of `game` that go to `from` at `to`, due now; with `to` as
    /// `None`, holds them until `until` (a channel the bot cannot post in). Flushed.
    pub fn outbox_retarget(
        &self,
        game: u64,
        from: u64,
        to: Option<&tokar_model::record::Named>,
        until: tokar_model::clock::Millis,
    ) -> Result<usize, StoreError> {
        use tokar_model::outbox::Target;
        let mut n = 0;
        for (k, v) in self.kv.scan(MAIN, b"o", usize::MAX)? {
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
            let new = encode(&e);
            transaction(&*self.kv, |tx| {
                if tx.get(MAIN, &k)?.as_deref() == Some(&v[..]) {
                    tx.insert(MAIN, &k, &new)?;
                }
                Ok(())
            })?;
            n += 1;
        }
        Ok(n)
    }

    /// Allocates the next game number (1, 2, 3...), durably.
    pub fn next_game_id(&self) -> Result<u64, StoreError> {
        let n = transaction(&*self.kv, |tx| {
            let n = tx.get(MAIN, NEXT_GAME)?.map_or(1, |b| tail_u64(&b));
            tx.insert(MAIN, NEXT_GAME, &(n + 1).to_be_bytes())?;
            Ok(n)
        })?;
        // Durable before the marker counts it: the marker never counts more
        // games than the database holds.
        self.noted(Some(n), None);
        Ok(n)
    }

    pub fn game(&self, id: u64) -> Result<Option<GameRecord>, StoreError> {
        match self.kv.get(MAIN, &key(b'g', &[id]))? {
            None => Ok(None),
            Some(b) => decode_game(&b).map(Some).map_err(StoreError::Corrupt),
        }
    }

    /// The records of games `ids` that exist, in the order asked: one read of
    /// the database for them all (see [`Kv::get_many`]).
    pub fn games(&self, ids: &[u64]) -> Result<Vec<GameRecord>, StoreError> {
        let keys: Vec<Vec<u8>> = ids.iter().map(|&id| key(b'g', &[id])).collect();
        self.kv
            .get_many(MAIN, &keys)?
            .into_iter()
            .flatten()
            .map(|b| decode_game(&b).map_err(StoreError::Corrupt))
            .collect()
    }

    pub fn log(&self, id: u64) -> Result<Vec<LogEntry>, StoreError> {
        self.kv
            .scan(MAIN, &key(b'l', &[id]), usize::MAX)?
            .iter()
            .map(|(_, v)| decode_log(v).map_err(StoreError::Corrupt))
            .collect()
    }

    fn ids(&self, prefix: Vec<u8>) -> Result<Vec<u64>, StoreError> {
        Ok(self
            .kv
            .keys(MAIN, &prefix)?
            .iter()
            .map(|k| tail_u64(k))
            .collect())
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
        let end = kv::prefix_end(&key(b's', &[now]));
        Ok(self
            .kv
            .range_keys(MAIN, &key(b's', &[0]), end.as_deref(), usize::MAX)?
            .iter()
            .map(|k| tail_u64(k))
            .collect())
    }

    pub fn user(&self, id: u64) -> Result<Option<UserRecord>, StoreError> {
        match self.kv.get(MAIN, &key(b'u', &[id]))? {
            None => Ok(None),
            Some(b) => decode_user(&b).map(Some).map_err(StoreError::Corrupt),
        }
    }

    pub fn put_user(&self, rec: &UserRecord) -> Result<(), StoreError> {
        let (k, v) = (key(b'u', &[rec.user.id]), encode(rec));
        transaction(&*self.kv, |tx| tx.insert(MAIN, &k, &v))
    }

    /// Game `id`'s record as stored (`None`: no such game). Every change to
    /// a game rewrites it with a higher version, so equal bytes mean the game
    /// did not change.
    pub fn game_bytes(&self, id: u64) -> Result<Option<Vec<u8>>, StoreError> {
        self.kv.get(MAIN, &key(b'g', &[id]))
    }

    /// Every user record.
    pub fn users(&self) -> Result<Vec<UserRecord>, StoreError> {
        self.kv
            .scan(MAIN, b"u", usize::MAX)?
            .iter()
            .map(|(_, v)| decode_user(v).map_err(StoreError::Corrupt))
            .collect()
    }

    /// The names the console gave ids to (`kind`: `b'u'` users, `b'c'`
    /// channels). Kept here, with the users, so that a name never changes
    /// hands while the store lives.
    pub fn console_names(&self, kind: u8) -> Result<Vec<(String, u64)>, StoreError> {
        self.kv
            .scan(MAIN, &[CONSOLE_NAME, kind], usize::MAX)?
            .into_iter()
            .map(|(k, v)| {
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
        let held = transaction(&*self.kv, |tx| {
            let held = tx.get(MAIN, &k)?;
            if held.is_none() {
                tx.insert(MAIN, &k, &id.to_be_bytes())?;
            }
            Ok(held)
        })?;
        match held {
            None => Ok(id),
            Some(v) => <[u8; 8]>::try_from(&v[..])
                .map(u64::from_be_bytes)
                .map_err(|_| StoreError::Corrupt(format!("console name {name}: no id"))),
        }
    }

    /// Writes one game atomically with its outbox entries, refusing a stale
    /// write, and flushes. Returns the ids given to the outbox entries.
    pub fn commit(&self, w: &GameWrite) -> Result<Vec<u64>, StoreError> {
        let id = w.record.id;
        let gkey = key(b'g', &[id]);
        let (ids, generation) = transaction(&*self.kv, |tx| {
            // The outbox entries' ids and the generation travel with the read
            // of the record (one round trip less each on PostgreSQL).
            tx.expect(w.outbox.len(), true);
            let stored = match tx.get(MAIN, &gkey)? {
                None => None,
                Some(b) => Some(decode_game(&b).map_err(corrupt)?),
            };
            let old_version = stored.as_ref().map(|r| r.version);
            if old_version != w.expected {
                return Err(TxError::Abort(StoreError::Stale));
            }
            let mut record = w.record.clone();
            record.version = w.expected.map_or(0, |v| v + 1);
            if let Some(old) = stored.as_ref() {
                if let Some(due) = old.scheduled {
                    tx.remove(MAIN, &key(b's', &[due, id]))?;
                }
                if let Some(from) = w.truncate_from {
                    for seq in from..old.log_len {
                        tx.remove(MAIN, &key(b'l', &[id, seq]))?;
                    }
                }
            }
            if let Some(due) = record.scheduled {
                tx.insert(MAIN, &key(b's', &[due, id]), &[])?;
            }
            for e in &w.append {
                tx.insert(MAIN, &key(b'l', &[id, e.seq]), &encode(e))?;
            }
            for m in &record.members {
                tx.insert(MAIN, &key(b'm', &[m.user.id, id]), &[])?;
            }
            for m in &record.invited {
                tx.insert(MAIN, &key(b'm', &[m.id, id]), &[])?;
            }
            tx.insert(MAIN, &key(b'c', &[record.channel.id, id]), &[])?;
            tx.insert(MAIN, &gkey, &encode(&record))?;
            ratings::rate_on_finish(tx, stored.as_ref(), &record, w.rated.as_ref())?;
            let mut ids = Vec::with_capacity(w.outbox.len());
            for e in &w.outbox {
                ids.push(put_entry(tx, e)?);
            }
            // Every game write raises the store's generation, which the
            // folder's marker records (in the same transaction: no flush more).
            Ok((ids, tx.bump_generation()?))
        })?;
        // Stored: the marker may count it.
        self.noted(None, Some(generation));
        Ok(ids)
    }

    /// Stores outbox entries that go with no game change (a notice about a
    /// delivery problem), flushed.
    pub fn enqueue(&self, entries: &[NewEntry]) -> Result<Vec<u64>, StoreError> {
        transaction(&*self.kv, |tx| {
            entries.iter().map(|e| put_entry(tx, e)).collect()
        })
    }

    /// Up to `limit` entries waiting for delivery, oldest first. An entry that
    /// cannot be read is logged by the caller through its error and skipped
    /// here, so one damaged entry never stops the others.
    /// Entries this process delivered and could not remove are left out
    /// (their removal is tried again first): never delivered twice.
    pub fn outbox(&self, limit: usize) -> Result<Vec<StoredEntry>, StoreError> {
        let held = self.delivered.retry(|ids| self.remove_entries(ids));
        Ok(self
            .kv
            .scan(MAIN, b"o", limit.saturating_add(held.len()))?
            .into_iter()
            .filter(|(k, _)| !held.contains(&tail_u64(k)))
            .take(limit)
            .map(|(k, v)| decode_entry(&v).map_err(|e| (tail_u64(&k), e)))
            .collect())
    }

    /// How many entries wait for delivery.
    pub fn outbox_len(&self) -> usize {
        self.kv.keys(MAIN, b"o").map_or(0, |k| k.len())
    }

    pub fn outbox_entry(&self, id: u64) -> Result<Option<OutboxEntry>, StoreError> {
        match self.kv.get(MAIN, &key(b'o', &[id]))? {
            None => Ok(None),
            Some(b) => decode_entry(&b).map(Some).map_err(StoreError::Corrupt),
        }
    }

    /// The pictures stored as bytes with an entry, each with its place among
    /// the entry's pictures (those with a scene are drawn by the caller).
    pub fn outbox_images(&self, entry: &OutboxEntry) -> Result<Vec<(usize, Image)>, StoreError> {
        let mut out = Vec::new();
        for (n, name) in entry.images.iter().enumerate() {
            if entry.scene(n).is_some() {
                continue;
            }
            if let Some(png) = self.kv.get(MAIN, &key(b'p', &[entry.id, n as u64]))? {
                out.push((n, Image::png(name.clone(), png)));
            }
        }
        Ok(out)
    }

    /// Records a delivery's progress or failure (attempts, parts sent, the
    /// next try), durably. An entry already removed stays removed.
    pub fn outbox_update(&self, entry: &OutboxEntry) -> Result<(), StoreError> {
        let k = key(b'o', &[entry.id]);
        let bytes = encode(entry);
        transaction(&*self.kv, |tx| {
            if tx.get(MAIN, &k)?.is_some() {
                tx.insert(MAIN, &k, &bytes)?;
            }
            Ok(())
        })
    }

    /// Removes a delivered entry and its pictures; `then` entries are stored in
    /// the same transaction (what replaces an entry that cannot be delivered).
    /// Durable. Returns the ids of `then`.
    pub fn outbox_done(&self, id: u64, then: &[NewEntry]) -> Result<Vec<u64>, StoreError> {
        if then.is_empty() {
            self.outbox_done_all(&[id])?;
            return Ok(Vec::new());
        }
        let keys = self.entry_keys(&[id])?;
        transaction(&*self.kv, |tx| {
            keys.iter().try_for_each(|k| tx.remove(MAIN, k))?;
            then.iter().map(|e| put_entry(tx, e)).collect()
        })
    }

    /// Removes several delivered entries and their pictures, durably, with one
    /// flush for a whole batch the console printed. Entries without stored
    /// pictures are one key each and are removed without a transaction; an
    /// entry with pictures goes with them in one.
    /// Entries whose removal fails are remembered as delivered (see
    /// [`Store::outbox`]).
    pub fn outbox_done_all(&self, ids: &[u64]) -> Result<(), StoreError> {
        self.remove_entries(ids)
            .inspect_err(|_| self.delivered.hold(ids))
    }

    fn remove_entries(&self, ids: &[u64]) -> Result<(), StoreError> {
        let keys = self.entry_keys(ids)?;
        if keys.len() == ids.len() {
            return self.kv.remove_each(MAIN, &keys);
        }
        transaction(&*self.kv, |tx| {
            keys.iter().try_for_each(|k| tx.remove(MAIN, k))
        })
    }

    /// The keys of outbox entries `ids` and of their pictures.
    fn entry_keys(&self, ids: &[u64]) -> Result<Vec<Vec<u8>>, StoreError> {
        let mut keys = Vec::new();
        for &id in ids {
            keys.push(key(b'o', &[id]));
            keys.extend(self.kv.keys(MAIN, &key(b'p', &[id]))?);
        }
        Ok(keys)
    }

    /// How many games are being played (started, not finished), for the operator's metrics.
    /// Reads every record's phase: a scan, so callers run it now and then, not per command.
    pub fn games_in_play(&self) -> Result<usize, StoreError> {
        #[derive(serde::Deserialize)]
        struct PhaseOnly {
            phase: tokar_model::record::Phase,
        }
        let mut n = 0;
        for (_, v) in self.kv.scan(MAIN, b"g", usize::MAX)? {
            // An unreadable record is `tokar check`'s business, not a metric's.
            if serde_json::from_slice::<PhaseOnly>(&v)
                .is_ok_and(|r| r.phase == tokar_model::record::Phase::Playing)
            {
                n += 1;
            }
        }
        Ok(n)
    }
}

/// Whether a key is an index derived from the game records (schedule, games
/// of a user, games of a channel): rebuilt from the records, never copied.
fn is_index_key(k: &[u8]) -> bool {
    matches!(k.first(), Some(b's' | b'm' | b'c')) && k.len() == 17
}

/// The index keys a game record implies: its schedule entry and the
/// user and channel indexes.
fn index_keys(rec: &GameRecord) -> Vec<Vec<u8>> {
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

/// A stored number: big-endian in the last eight bytes (`None`: shorter).
fn be_u64(b: &[u8]) -> Option<u64> {
    (b.len() >= 8).then(|| tail_u64(b))
}
