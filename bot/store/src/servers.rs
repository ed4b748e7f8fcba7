//! Per-server settings (a Discord guild; the console is one server): whether
//! a game gets its own thread (rulings T19, T21) and whether games against
//! Tokar are rated (T28). Kept in a sled tree
//! of their own, keyed by the server's id, so that game records and their
//! indexes stay as they are.

use super::{Store, StoreError};
use serde::{Deserialize, Serialize};

/// The tree holding one [`ServerRecord`] per server that changed a setting.
pub(super) const TREE: &str = "servers";

/// A server's settings as stored. Versioned: a later shape adds a variant and
/// keeps reading this one (fixture `tests/fixtures/server-1.json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "v")]
pub enum StoredServer {
    #[serde(rename = "1")]
    V1(ServerRecord),
}

/// What one server chose.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerRecord {
    /// Each game opens a public thread under its channel when it starts.
    pub threads: bool,
    /// Games with Tokar's seats are rated like games between people (T28).
    /// Records stored before the setting existed load as `false`, and `false`
    /// is not written, so such records are stored as they were.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rate_bot_games: bool,
}

impl Default for ServerRecord {
    /// A server that never chose: games get their threads, and games against
    /// Tokar are not rated.
    fn default() -> ServerRecord {
        ServerRecord {
            threads: true,
            rate_bot_games: false,
        }
    }
}

/// Reads a stored server record of any known version.
pub fn decode_server(bytes: &[u8]) -> Result<ServerRecord, String> {
    match serde_json::from_slice::<StoredServer>(bytes) {
        Ok(StoredServer::V1(r)) => Ok(r),
        Err(e) => Err(format!("server settings: {e}")),
    }
}

/// The bytes stored for a server record (today's version).
pub fn encode_server(rec: &ServerRecord) -> Vec<u8> {
    serde_json::to_vec(&StoredServer::V1(rec.clone())).unwrap_or_default()
}

use super::kv::transaction;

impl Store {
    /// The settings of server `guild` (the defaults where it never chose).
    pub fn server(&self, guild: u64) -> Result<ServerRecord, StoreError> {
        match self.kv().get(TREE, &guild.to_be_bytes())? {
            None => Ok(ServerRecord::default()),
            Some(b) => decode_server(&b).map_err(StoreError::Corrupt),
        }
    }

    /// Stores the settings of server `guild`, flushed.
    pub fn put_server(&self, guild: u64, rec: &ServerRecord) -> Result<(), StoreError> {
        let value = encode_server(rec);
        transaction(self.kv(), |tx| {
            tx.insert(TREE, &guild.to_be_bytes(), &value)
        })
    }
}
