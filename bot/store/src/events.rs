//! Events (Swiss tournaments and knockouts) in a keyspace of their own
//! (`events`), kept as leagues are (`versioned.rs`):
//!
//! | key | value |
//! | --- | --- |
//! | `E` id | [`EventRecord`] |
//! | `G` game | the event id the game belongs to (8 bytes) |
//! | `next-event` | the last event number given |
//!
//! A round's pairings are announced with the write that makes them, so they
//! are made once and never lost. A store made before events existed simply
//! has no such keyspace yet, and opens it empty.

use super::versioned::{self, Versioned};
use super::{Store, StoreError};
use tokar_model::event::{decode_event, EventRecord};
use tokar_model::outbox::NewEntry;

pub(super) const TREE: &str = "events";
const NEXT: &[u8] = b"next-event";

impl Versioned for EventRecord {
    const PREFIX: u8 = b'E';
    fn decode(bytes: &[u8]) -> Result<Self, String> {
        decode_event(bytes)
    }
    fn id(&self) -> u64 {
        self.id
    }
    fn version(&self) -> u64 {
        self.version
    }
    fn set_version(&mut self, version: u64) {
        self.version = version;
    }
    fn games(&self) -> Vec<u64> {
        self.games.iter().map(|g| g.game).collect()
    }
}

impl Store {
    /// A new event number (1, 2, ...), never given twice.
    pub fn next_event_id(&self) -> Result<u64, StoreError> {
        versioned::next_number(self.kv(), TREE, NEXT)
    }

    pub fn event(&self, id: u64) -> Result<Option<EventRecord>, StoreError> {
        versioned::read(self.kv(), TREE, id)
    }

    /// Every event, oldest first.
    pub fn events(&self) -> Result<Vec<EventRecord>, StoreError> {
        versioned::all(self.kv(), TREE)
    }

    /// The event a game was made for, if any.
    pub fn event_of_game(&self, game: u64) -> Result<Option<u64>, StoreError> {
        versioned::owner_of_game(self.kv(), TREE, game)
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
        versioned::put(self.kv(), TREE, rec, expected, outbox)
    }
}
