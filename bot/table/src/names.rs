//! The console's names for users and channels, kept in the store (see
//! `console.rs`): the console types names, the table works with ids. Also
//! what the console and the tests read of the store directly.

use super::Table;
use tokar_model::record::UserRecord;

/// The console's names for users and games, and stored records read as they are.
#[derive(Clone, Copy)]
pub(crate) struct Names<'t> {
    pub(super) t: &'t Table,
}

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

impl Names<'_> {
    /// Every console name of `kind` with its id.
    pub(crate) async fn console_names(&self, kind: NameKind) -> Result<Vec<(String, u64)>, String> {
        self.t
            .records()
            .blocking(move |s| s.console_names(kind.byte()))
            .await
            .map_err(String::from)
    }

    /// Gives `name` the id `id` unless it has one already; returns the id
    /// it has. Durable before it returns.
    pub(crate) async fn claim_console_name(
        &self,
        kind: NameKind,
        name: &str,
        id: u64,
    ) -> Result<u64, String> {
        let name = name.to_string();
        self.t
            .records()
            .blocking(move |s| s.claim_console_name(kind.byte(), &name, id))
            .await
            .map_err(String::from)
    }

    /// Game `id`'s record as stored (`None`: no such game): equal bytes mean
    /// an unchanged game, which is how the tests check that a refused command
    /// changed nothing.
    pub(crate) async fn stored_record(&self, id: u64) -> Result<Option<Vec<u8>>, String> {
        self.t
            .records()
            .blocking(move |s| s.game_bytes(id))
            .await
            .map_err(String::from)
    }

    /// [`Names::stored_record`] of games `1..=last`, read at once.
    pub(crate) async fn stored_records(&self, last: u64) -> Result<Vec<Option<Vec<u8>>>, String> {
        self.t
            .records()
            .blocking(move |s| (1..=last).map(|id| s.game_bytes(id)).collect())
            .await
            .map_err(String::from)
    }

    /// Every user the store knows (their last names and ids).
    pub(crate) async fn users(&self) -> Result<Vec<UserRecord>, String> {
        self.t
            .records()
            .blocking(|s| s.users())
            .await
            .map_err(String::from)
    }
}
