//! Raw keys and values of games and users, for fixtures, for moving a game
//! between data folders, and for tests that damage a record on purpose.

use super::kv::{transaction, TxError, MAIN};
use super::{index_keys, key, RawItem, Store, StoreError, NEXT_GAME};
use tokar_model::record::decode_game;

impl Store {
    /// Every stored key and value of one game (record and log), for fixtures
    /// and for moving a game between data folders.
    pub fn dump_game(&self, id: u64) -> Result<Vec<RawItem>, StoreError> {
        let mut out = Vec::new();
        if let Some(v) = self.kv().get(MAIN, &key(b'g', &[id]))? {
            out.push((key(b'g', &[id]), v));
        }
        out.extend(self.kv().scan(MAIN, &key(b'l', &[id]), usize::MAX)?);
        Ok(out)
    }

    /// A user's stored key and value, for fixtures.
    pub fn dump_user(&self, id: u64) -> Result<Option<RawItem>, StoreError> {
        Ok(self
            .kv()
            .get(MAIN, &key(b'u', &[id]))?
            .map(|v| (key(b'u', &[id]), v)))
    }

    /// Writes raw keys and values as [`Store::dump_game`] gave them, rebuilding
    /// the indexes of the games among them, in one transaction.
    pub fn load_dump(&self, items: &[RawItem]) -> Result<(), StoreError> {
        transaction(self.kv(), |tx| {
            for (k, v) in items {
                tx.insert(MAIN, k, v)?;
                if k.first() == Some(&b'g') {
                    let rec = decode_game(v).map_err(|e| TxError::Abort(StoreError::Corrupt(e)))?;
                    for k in index_keys(&rec) {
                        tx.insert(MAIN, &k, &[])?;
                    }
                    let next = tx.get(MAIN, NEXT_GAME)?.map_or(1, |b| super::tail_u64(&b));
                    if next <= rec.id {
                        tx.insert(MAIN, NEXT_GAME, &(rec.id + 1).to_be_bytes())?;
                    }
                }
            }
            Ok(())
        })
    }

    /// Writes one raw key and value as given, durably, checking nothing: for
    /// tests that damage a record on purpose.
    pub fn put_raw(&self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        transaction(self.kv(), |tx| tx.insert(MAIN, key, value))
    }
}
