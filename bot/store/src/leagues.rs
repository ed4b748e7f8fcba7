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

use super::versioned::{self, Versioned};
use super::{Store, StoreError};
use tokar_model::league::{decode_league, LeagueRecord};
use tokar_model::outbox::NewEntry;

pub(super) const TREE: &str = "leagues";
const NEXT: &[u8] = b"next-league";

impl Versioned for LeagueRecord {
    const PREFIX: u8 = b'L';
    fn decode(bytes: &[u8]) -> Result<Self, String> {
        decode_league(bytes)
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
        self.fixtures.iter().map(|f| f.game).collect()
    }
}

impl Store {
    /// A new league number (1, 2, ...), never given twice.
    pub fn next_league_id(&self) -> Result<u64, StoreError> {
        versioned::next_number(self.kv(), TREE, NEXT)
    }

    pub fn league(&self, id: u64) -> Result<Option<LeagueRecord>, StoreError> {
        versioned::read(self.kv(), TREE, id)
    }

    /// Every league, oldest first.
    pub fn leagues(&self) -> Result<Vec<LeagueRecord>, StoreError> {
        versioned::all(self.kv(), TREE)
    }

    /// The league a game was made for, if any.
    pub fn league_of_game(&self, game: u64) -> Result<Option<u64>, StoreError> {
        versioned::owner_of_game(self.kv(), TREE, game)
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
        versioned::put(self.kv(), TREE, rec, expected, outbox)
    }
}
