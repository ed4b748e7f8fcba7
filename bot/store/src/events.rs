//! Events (Swiss tournaments and knockouts) in a keyspace of their own
//! (`events`):
//!
//! | key | value |
//! | --- | --- |
//! | `E` id | [`EventRecord`] |
//! | `G` game | the event id the game belongs to (8 bytes) |
//! | `next-event` | the last event number given |
//!
//! An event write is one transaction over this keyspace and the main one
//! (where the outbox lives), compare-and-swapped on the record's version and
//! flushed, as a league's is: a round's pairings are announced with the write
//! that makes them, so they are made once and never lost. A store made before
//! events existed simply has no such keyspace yet, and opens it empty.

use super::kv::{transaction, TxError};
use super::{key, put_entry, tail_u64, Store, StoreError};
use tokar_model::event::{decode_event, EventRecord};
use tokar_model::outbox::NewEntry;
use tokar_model::record::encode;

pub(super) const TREE: &str = "events";
const NEXT: &[u8] = b"next-event";

impl Store {
    /// A new event number (1, 2, ...), never given twice.
    pub fn next_event_id(&self) -> Result<u64, StoreError> {
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

    pub fn event(&self, id: u64) -> Result<Option<EventRecord>, StoreError> {
        match self.kv().get(TREE, &key(b'E', &[id]))? {
            None => Ok(None),
            Some(b) => decode_event(&b).map(Some).map_err(StoreError::Corrupt),
        }
    }

    /// Every event, oldest first.
    pub fn events(&self) -> Result<Vec<EventRecord>, StoreError> {
        self.kv()
            .scan(TREE, b"E", usize::MAX)?
            .iter()
            .map(|(_, v)| decode_event(v).map_err(StoreError::Corrupt))
            .collect()
    }

    /// The event a game was made for, if any.
    pub fn event_of_game(&self, game: u64) -> Result<Option<u64>, StoreError> {
        Ok(self
            .kv()
            .get(TREE, &key(b'G', &[game]))?
            .map(|v| tail_u64(&v)))
    }

    /// Writes an event record if the stored one is still at `expected`
    /// (`None`: there is none yet), with its games' index keys and the outbox
    /// entries of what the change announces, in one flushed transaction. The
    /// record written carries `expected` plus one. Returns the entries' ids.
    pub fn put_event(
        &self,
        rec: &EventRecord,
        expected: Option<u64>,
        outbox: &[NewEntry],
    ) -> Result<Vec<u64>, StoreError> {
        let ekey = key(b'E', &[rec.id]);
        transaction(self.kv(), |tx| {
            tx.expect(outbox.len(), false);
            let stored = match tx.get(TREE, &ekey)? {
                None => None,
                Some(b) => {
                    Some(decode_event(&b).map_err(|e| TxError::Abort(StoreError::Corrupt(e)))?)
                }
            };
            if stored.as_ref().map(|r| r.version) != expected {
                return Err(TxError::Abort(StoreError::Stale));
            }
            let mut record = rec.clone();
            record.version = expected.map_or(0, |v| v + 1);
            for g in &record.games {
                tx.insert(TREE, &key(b'G', &[g.game]), &rec.id.to_be_bytes())?;
            }
            tx.insert(TREE, &ekey, &encode(&record))?;
            outbox.iter().map(|e| put_entry(tx, e)).collect()
        })
    }
}
