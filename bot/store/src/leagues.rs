//! Leagues in a sled tree of their own (`leagues`):
//!
//! | key | value |
//! | --- | --- |
//! | `L` id | [`LeagueRecord`] |
//! | `G` game | the league id the game belongs to (8 bytes) |
//! | `next-league` | the next league number |
//!
//! A league write is one transaction over this tree and the main one (where
//! the outbox lives), compare-and-swapped on the record's version and flushed,
//! like a game's: the winner's announcement is stored with the league's end,
//! so it is made once and never lost. A store made before leagues existed
//! simply has no such tree yet, and sled opens it empty.

use super::kv::{transaction, TxError};
use super::{key, put_entry, tail_u64, Store, StoreError};
use tokar_model::league::{decode_league, LeagueRecord};
use tokar_model::outbox::NewEntry;
use tokar_model::record::encode;

pub(super) const TREE: &str = "leagues";
const NEXT: &[u8] = b"next-league";

impl Store {
    /// A new league number (1, 2, ...), never given twice.
    pub fn next_league_id(&self) -> Result<u64, StoreError> {
        transaction(self.kv(), |tx| {
            let n = tx
                .get(TREE, NEXT)?
                .as_deref()
                .and_then(super::be_u64)
                .unwrap_or(0)
                + 1;
            tx.insert(TREE, NEXT, &n.to_be_bytes())?;
            Ok(n)
        })
    }

    pub fn league(&self, id: u64) -> Result<Option<LeagueRecord>, StoreError> {
        match self.kv().get(TREE, &key(b'L', &[id]))? {
            None => Ok(None),
            Some(b) => decode_league(&b).map(Some).map_err(StoreError::Corrupt),
        }
    }

    /// Every league, oldest first.
    pub fn leagues(&self) -> Result<Vec<LeagueRecord>, StoreError> {
        self.kv()
            .scan(TREE, b"L", usize::MAX)?
            .iter()
            .map(|(_, v)| decode_league(v).map_err(StoreError::Corrupt))
            .collect()
    }

    /// The league a game was made for, if any.
    pub fn league_of_game(&self, game: u64) -> Result<Option<u64>, StoreError> {
        Ok(self
            .kv()
            .get(TREE, &key(b'G', &[game]))?
            .map(|v| tail_u64(&v)))
    }

    /// Writes a league record if the stored one is still at `expected`
    /// (`None`: there is none yet), with its games' index keys and the outbox
    /// entries of what the change announces, in one flushed transaction. The
    /// record written carries `expected` plus one. Returns the entries' ids.
    pub fn put_league(
        &self,
        rec: &LeagueRecord,
        expected: Option<u64>,
        outbox: &[NewEntry],
    ) -> Result<Vec<u64>, StoreError> {
        let lkey = key(b'L', &[rec.id]);
        transaction(self.kv(), |tx| {
            let stored = match tx.get(TREE, &lkey)? {
                None => None,
                Some(b) => {
                    Some(decode_league(&b).map_err(|e| TxError::Abort(StoreError::Corrupt(e)))?)
                }
            };
            if stored.as_ref().map(|r| r.version) != expected {
                return Err(TxError::Abort(StoreError::Stale));
            }
            let mut record = rec.clone();
            record.version = expected.map_or(0, |v| v + 1);
            for f in &record.fixtures {
                tx.insert(TREE, &key(b'G', &[f.game]), &rec.id.to_be_bytes())?;
            }
            tx.insert(TREE, &lkey, &encode(&record))?;
            outbox.iter().map(|e| put_entry(tx, e)).collect()
        })
    }
}
