//! Whether the database found at start is the store the data folder had:
//! the comparison of the folder's marker (`store.json`, [`crate::marker`])
//! with the database, before the table may use it.
//!
//! With a marker, the database must hold the store it names (not empty, not
//! another identity), with at least as many games numbered and at least its
//! generation: an older copy of the database (a `db/` copied back, a
//! PostgreSQL dump restored) has a lower generation, since every game write
//! raises it.
//!
//! Without a marker, the folder is either new, or from before markers
//! existed, or its marker was lost. It is taken for new only when nothing of
//! Tokar's shows a store lived there: no Tokar backup in `backups/`, no control
//! socket, no interrupted restore, and (on PostgreSQL) no sled `db/`, while
//! the database is empty. A sled database holding a store is a genuine store
//! from before markers only if it was never marked: every store opened by a
//! Tokar with markers carries the key `with-marker` ([`super::kv::MARKED`]),
//! so one that has it lost its marker, and is refused, since Tokar cannot
//! tell whether it is the newest copy. (A store last opened by a Tokar whose
//! markers had format 1 has no such key and is adopted, as before.) On
//! PostgreSQL, a database holding a store and a folder without a marker is a
//! process joining the shared store, or one from before markers: adopted.
//!
//! `TOKAR_FRESH_STORE=1` skips all of this for one start.

use super::kv::{Kv, MAIN, MARKED};
use super::{next_game, StoreError, IDENTITY};
use crate::marker::{refusal, unmarked_refusal, Marker};
use std::path::Path;
use tracing::info;

/// Where the store lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Sled,
    Postgres,
}

/// What the database holds, as the comparison needs it.
pub struct Found {
    pub identity: Option<u64>,
    pub games: u64,
    pub generation: u64,
    pub marked: bool,
    /// The database, as the refusal names it.
    pub what: String,
}

impl Found {
    pub fn of(kv: &dyn Kv, dir: &Path, kind: Kind) -> Result<Found, StoreError> {
        Ok(Found {
            identity: kv.get(MAIN, IDENTITY)?.and_then(|b| super::be_u64(&b)),
            games: next_game(kv)? - 1,
            generation: kv.generation()?,
            marked: kv.get(MAIN, MARKED)?.is_some(),
            what: match kind {
                Kind::Sled => format!("its database {}", dir.join("db").display()),
                Kind::Postgres => format!("the database {}", kv.describe()),
            },
        })
    }
}

/// Checked before sled opens the folder's database (it would create an empty
/// one): a missing `db/` where the folder shows a store lived.
pub fn before_sled(dir: &Path, marker: Option<&Marker>) -> Result<(), StoreError> {
    let db = dir.join("db");
    if db.exists() {
        return Ok(());
    }
    let found = format!("its database {} is missing", db.display());
    match marker {
        Some(m) => Err(StoreError::NotTheStore(refusal(dir, m, &found))),
        None => match leftovers(dir, Kind::Sled) {
            seen if seen.is_empty() => Ok(()),
            seen => Err(StoreError::NotTheStore(unmarked_refusal(
                dir,
                &seen.join(", "),
                &found,
            ))),
        },
    }
}

/// Compares the folder's marker (if any) with the database (see the module).
pub fn judge(
    dir: &Path,
    marker: Option<&Marker>,
    found: &Found,
    kind: Kind,
) -> Result<(), StoreError> {
    let what = &found.what;
    let Some(m) = marker else {
        return match found.identity {
            None => match leftovers(dir, kind) {
                seen if seen.is_empty() => Ok(()),
                seen => Err(StoreError::NotTheStore(unmarked_refusal(
                    dir,
                    &seen.join(", "),
                    &format!("{what} is empty"),
                ))),
            },
            Some(id) if kind == Kind::Sled && found.marked => {
                Err(StoreError::NotTheStore(unmarked_refusal(
                    dir,
                    &format!("{what} holds store {id:016x}, which had a marker"),
                    "the marker is gone, so whether this is the newest copy of the store is unknown",
                )))
            }
            Some(id) => {
                info!(data = %dir.display(), store = format!("{id:016x}"), "a store from before markers: its marker is written now");
                Ok(())
            }
        };
    };
    let problem = match found.identity {
        None => Some(format!("{what} is empty")),
        Some(id) if id != m.identity => Some(format!("{what} holds another store, {id:016x}")),
        Some(_) if found.games < m.games => Some(format!(
            "{what} has numbered only {} game(s): it is older than the store was",
            found.games
        )),
        Some(_) if m.generation.is_some_and(|g| found.generation < g) => Some(format!(
            "{what} is at generation {} where the store had reached {}: it is an older copy \
             of the store, without its last writes",
            found.generation,
            m.generation.unwrap_or_default()
        )),
        Some(_) => None,
    };
    match problem {
        Some(p) => Err(StoreError::NotTheStore(refusal(dir, m, &p))),
        None => Ok(()),
    }
}

/// What in `dir` shows that a store lived there, one phrase each.
pub fn leftovers(dir: &Path, kind: Kind) -> Vec<String> {
    let mut seen = Vec::new();
    let backups = super::folder::list(&super::folder::backups_dir(dir));
    if !backups.is_empty() {
        seen.push(format!("backups/ holds {} Tokar backup(s)", backups.len()));
    }
    if dir.join(super::folder::SOCKET).exists() {
        seen.push(format!(
            "the control socket {} is there",
            super::folder::SOCKET
        ));
    }
    for partial in super::folder::partial_folders(dir) {
        seen.push(format!(
            "an interrupted restore left {}",
            partial.file_name().unwrap_or_default().to_string_lossy()
        ));
    }
    if kind == Kind::Postgres && dir.join("db").exists() {
        seen.push("a sled database db/ is there".into());
    }
    seen
}
