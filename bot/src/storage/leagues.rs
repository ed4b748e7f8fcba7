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

use super::{key, put_entry, tail_u64, Store, StoreError};
use crate::league::{decode_league, LeagueRecord};
use crate::outbox::NewEntry;
use crate::record::encode;
use sled::transaction::ConflictableTransactionError;
use sled::Transactional;

pub(super) const TREE: &str = "leagues";
const NEXT: &[u8] = b"next-league";

impl Store {
    fn leagues_tree(&self) -> Result<sled::Tree, StoreError> {
        Ok(self.db.open_tree(TREE)?)
    }

    /// A new league number (1, 2, ...), never given twice.
    pub fn next_league_id(&self) -> Result<u64, StoreError> {
        let tree = self.leagues_tree()?;
        let next = tree.update_and_fetch(NEXT, |old| {
            let n = old.and_then(super::be_u64).unwrap_or(0) + 1;
            Some(n.to_be_bytes().to_vec())
        })?;
        tree.flush()?;
        Ok(next.as_deref().and_then(super::be_u64).unwrap_or(1))
    }

    pub fn league(&self, id: u64) -> Result<Option<LeagueRecord>, StoreError> {
        match self.leagues_tree()?.get(key(b'L', &[id]))? {
            None => Ok(None),
            Some(b) => decode_league(&b).map(Some).map_err(StoreError::Corrupt),
        }
    }

    /// Every league, oldest first.
    pub fn leagues(&self) -> Result<Vec<LeagueRecord>, StoreError> {
        let mut out = Vec::new();
        for kv in self.leagues_tree()?.scan_prefix([b'L']) {
            let (_, v) = kv?;
            out.push(decode_league(&v).map_err(StoreError::Corrupt)?);
        }
        Ok(out)
    }

    /// The league a game was made for, if any.
    pub fn league_of_game(&self, game: u64) -> Result<Option<u64>, StoreError> {
        Ok(self
            .leagues_tree()?
            .get(key(b'G', &[game]))?
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
        let tree = self.leagues_tree()?;
        let lkey = key(b'L', &[rec.id]);
        let main: &sled::Tree = &self.db;
        let result = (main, &tree).transaction(|(main, leagues)| {
            let stored = match leagues.get(&lkey)? {
                None => None,
                Some(b) => Some(
                    decode_league(&b)
                        .map_err(|e| ConflictableTransactionError::Abort(StoreError::Corrupt(e)))?,
                ),
            };
            if stored.as_ref().map(|r| r.version) != expected {
                return Err(ConflictableTransactionError::Abort(StoreError::Stale));
            }
            let mut record = rec.clone();
            record.version = expected.map_or(0, |v| v + 1);
            for f in &record.fixtures {
                leagues.insert(key(b'G', &[f.game]), &rec.id.to_be_bytes()[..])?;
            }
            leagues.insert(lkey.clone(), encode(&record))?;
            let mut ids = Vec::with_capacity(outbox.len());
            for e in outbox {
                ids.push(put_entry(main, e)?);
            }
            Ok(ids)
        });
        let ids = result.map_err(super::tx_error)?;
        self.db.flush()?;
        tree.flush()?;
        Ok(ids)
    }
}
