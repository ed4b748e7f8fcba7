//! Raw keys and values of games and users, for fixtures, for moving a game
//! between data folders, and for tests that damage a record on purpose.

use super::{index_keys, key, next_game, RawItem, Store, StoreError, NEXT_GAME};
use crate::record::decode_game;

impl Store {
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
                for k in index_keys(&rec) {
                    self.db.insert(k, &[][..])?;
                }
                let next = next_game(&self.db)?;
                if next <= rec.id {
                    self.db.insert(NEXT_GAME, &(rec.id + 1).to_be_bytes())?;
                }
            }
        }
        self.db.flush()?;
        Ok(())
    }

    /// Writes one raw key and value as given, flushed, checking nothing: for
    /// tests that damage a record on purpose.
    pub fn put_raw(&self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.db.insert(key, value)?;
        self.db.flush()?;
        Ok(())
    }
}
