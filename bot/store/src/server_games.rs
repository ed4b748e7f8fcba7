//! The games of one server (Discord guild), for `/games scope:server`.
//!
//! There is no index by server: the game records are scanned, reading only the two fields
//! needed, as [`Store::games_in_play`] does. Nothing new is stored, so backups, restores and
//! `tokar check` need nothing more. At the 100,000 games of the memory measurement this is
//! a scan of every record per call; an index key beside the channel index is the step to take
//! when one server's listing must stay fast at that size.

use super::{Store, StoreError};

impl Store {
    /// The numbers of the games created on `guild`, lowest first. Records that cannot be read
    /// are left out here (`tokar check` reports them).
    pub fn games_of_server(&self, guild: u64) -> Result<Vec<u64>, StoreError> {
        #[derive(serde::Deserialize)]
        struct ServerOnly {
            id: u64,
            #[serde(default)]
            guild: Option<u64>,
        }
        let mut out = Vec::new();
        for (_, v) in self.kv().scan(super::kv::MAIN, b"g", usize::MAX)? {
            if let Ok(r) = serde_json::from_slice::<ServerOnly>(&v) {
                if r.guild == Some(guild) {
                    out.push(r.id);
                }
            }
        }
        out.sort_unstable();
        Ok(out)
    }
}
