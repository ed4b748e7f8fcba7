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
//! | `next-game` | the next game number |
//!
//! Every write of a game is one transaction on this tree (record, log entries,
//! schedule and index keys together), guarded by a compare-and-swap on the
//! record's version, and flushed to disk before it returns. All of it is
//! blocking: the table calls it from `spawn_blocking`.

use crate::clock::Millis;
use crate::record::{
    decode_game, decode_log, decode_user, encode, GameRecord, LogEntry, UserRecord,
};
use sled::transaction::{ConflictableTransactionError, TransactionError};
use std::path::Path;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("storage failed: {0}")]
    Sled(#[from] sled::Error),
    /// Another write changed the game since it was read.
    #[error("the game changed meanwhile")]
    Stale,
    #[error("a stored record cannot be read: {0}")]
    Corrupt(String),
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
}

#[derive(Clone)]
pub struct Store {
    db: sled::Db,
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

/// One stored key and its value, as dumped for fixtures.
pub type RawItem = (Vec<u8>, Vec<u8>);

const NEXT_GAME: &[u8] = b"next-game";

impl Store {
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        let db = sled::Config::new().path(dir.join("db")).open()?;
        Ok(Store { db })
    }

    /// Allocates the next game number (1, 2, 3...), durably.
    pub fn next_game_id(&self) -> Result<u64, StoreError> {
        let old = self.db.fetch_and_update(NEXT_GAME, |old| {
            let n = old.map(tail_u64).unwrap_or(1);
            Some((n + 1).to_be_bytes().to_vec())
        })?;
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

    /// Writes one game atomically, refusing a stale write, and flushes.
    pub fn commit(&self, w: &GameWrite) -> Result<(), StoreError> {
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
            Ok(())
        });
        match result {
            Ok(()) => {}
            Err(TransactionError::Abort(e)) => return Err(e),
            Err(TransactionError::Storage(e)) => return Err(e.into()),
        }
        self.db.flush()?;
        Ok(())
    }

    /// Every stored key and value of one game (record and log), for fixtures
    /// and for moving a game between data folders.
    pub fn dump_game(&self, id: u64) -> Result<Vec<RawItem>, StoreError> {
        let mut out = Vec::new();
        if let Some(v) = self.db.get(key(b'g', &[id]))? {
            out.push((key(b'g', &[id]), v.to_vec()));
        }
        for kv in self.db.scan_prefix(key(b'l', &[id])) {
            let (k, v) = kv?;
            out.push((k.to_vec(), v.to_vec()));
        }
        Ok(out)
    }

    /// A user's stored key and value, for fixtures.
    pub fn dump_user(&self, id: u64) -> Result<Option<RawItem>, StoreError> {
        Ok(self
            .db
            .get(key(b'u', &[id]))?
            .map(|v| (key(b'u', &[id]), v.to_vec())))
    }

    /// Writes raw keys and values as [`Store::dump_game`] gave them, rebuilding
    /// the indexes of the games among them.
    pub fn load_dump(&self, items: &[RawItem]) -> Result<(), StoreError> {
        for (k, v) in items {
            self.db.insert(k.as_slice(), v.as_slice())?;
            if k.first() == Some(&b'g') {
                let rec = decode_game(v).map_err(StoreError::Corrupt)?;
                let id = rec.id;
                for m in &rec.members {
                    self.db.insert(key(b'm', &[m.user.id, id]), &[][..])?;
                }
                for m in &rec.invited {
                    self.db.insert(key(b'm', &[m.id, id]), &[][..])?;
                }
                self.db.insert(key(b'c', &[rec.channel.id, id]), &[][..])?;
                if let Some(due) = rec.scheduled {
                    self.db.insert(key(b's', &[due, id]), &[][..])?;
                }
                let next = self.db.get(NEXT_GAME)?.map(|b| tail_u64(&b)).unwrap_or(1);
                if next <= id {
                    self.db.insert(NEXT_GAME, &(id + 1).to_be_bytes())?;
                }
            }
        }
        self.db.flush()?;
        Ok(())
    }
}
