//! The console's names for users and channels, kept in the store (see
//! `console.rs`): the console types names, the table works with ids. Also
//! what the console and the tests read of the store directly.

use super::Table;
use tokar_model::record::UserRecord;

/// Which names: the console's users or its channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    User,
    Channel,
}

impl NameKind {
    fn byte(self) -> u8 {
        match self {
            NameKind::User => b'u',
            NameKind::Channel => b'c',
        }
    }
}

impl Table {
    /// Every console name of `kind` with its id.
    pub async fn console_names(&self, kind: NameKind) -> Result<Vec<(String, u64)>, String> {
        self.records()
            .blocking(move |s| s.console_names(kind.byte()))
            .await
            .map_err(String::from)
    }

    /// Gives `name` the id `id` unless it has one already; returns the id
    /// it has. Durable before it returns.
    pub async fn claim_console_name(
        &self,
        kind: NameKind,
        name: &str,
        id: u64,
    ) -> Result<u64, String> {
        let name = name.to_string();
        self.records()
            .blocking(move |s| s.claim_console_name(kind.byte(), &name, id))
            .await
            .map_err(String::from)
    }

    /// Game `id`'s record as stored (`None`: no such game): equal bytes mean
    /// an unchanged game, which is how the tests check that a refused command
    /// changed nothing.
    pub async fn stored_record(&self, id: u64) -> Result<Option<Vec<u8>>, String> {
        self.records()
            .blocking(move |s| s.game_bytes(id))
            .await
            .map_err(String::from)
    }

    /// [`Table::stored_record`] of games `1..=last`, read at once.
    pub async fn stored_records(&self, last: u64) -> Result<Vec<Option<Vec<u8>>>, String> {
        self.records()
            .blocking(move |s| (1..=last).map(|id| s.game_bytes(id)).collect())
            .await
            .map_err(String::from)
    }

    /// Every user the store knows (their last names and ids).
    pub async fn users(&self) -> Result<Vec<UserRecord>, String> {
        self.records()
            .blocking(|s| s.users())
            .await
            .map_err(String::from)
    }
}
