//! Backups: a whole store in one file, and back.
//!
//! # Format 1
//!
//! A gzip stream (flate2) of JSON lines, each one object with a single key:
//!
//! 1. `{"header":{"format":1,"created_at":MS,"identity":ID,"next_game":N}}`
//! 2. one `{"game":{"id":N,"crc32":C,"items":[ITEM,...]}}` per game: its
//!    record (key `g`) first, then its log entries (keys `l`) in order;
//! 3. one `{"key":ITEM}` per other stored key: users, outbox entries and their
//!    pictures, the next game number, the store's identity, and any key a
//!    later version of Tokar adds;
//! 4. `{"end":{"games":G,"keys":K}}`: the counts, so that a cut file is
//!    refused (gzip's own CRC also covers the whole stream).
//!
//! An ITEM is `{"k":HEX}` plus `"v":TEXT` when the value is UTF-8 (records
//! are JSON) or `"x":HEX` when it is not (pictures). `crc32` is CRC-32 (IEEE,
//! crc32fast) over the game's items in order, each as its key's length (u64,
//! little-endian), the key, its value's length (u64, little-endian), the value.
//!
//! # Format 2
//!
//! Format 1, plus the store's named sled trees (every tree but sled's default
//! one: leagues, server settings, and any tree a later version adds), which
//! format 1 left out:
//!
//! 1. the header as format 1's, with `"format":2`;
//! 2. the game lines and key lines of format 1 (the default tree);
//! 3. one `{"tree":{"tree":NAME,"k":HEX,...}}` per key of a named tree: the
//!    tree's name (text) and an ITEM's fields, trees in name order, keys in
//!    key order;
//! 4. `{"end":{"games":G,"keys":K,"tree_keys":T}}`: T counts the lines of
//!    step 3, so a file cut among them is refused as well.
//!
//! A format-1 file reads as one without named trees (`tree_keys` 0).
//!
//! # Limits and what a restore verifies
//!
//! Both formats: a line is at most [`crate::verify::MAX_LINE`] bytes (16 MiB), a
//! game's log at most [`crate::verify::MAX_LOG`] entries; key lines hold no game's
//! record, log entry or index key; no game, key or tree key comes twice;
//! every game replays to its stored snapshot, with each seat's actions by
//! its owner; every named tree's key decodes as its record. [`crate::verify`] says
//! it whole; a file that breaks any of it is refused before anything is
//! written.
//!
//! The derived indexes (schedule `s`, games of a user `m`, games of a channel
//! `c`) are not in the file: a restore rebuilds them from the game records,
//! so they always agree with the records restored.
//!
//! # Consistency while the bot runs
//!
//! On PostgreSQL the whole backup is read in one read-only `REPEATABLE READ`
//! transaction: one state of the whole store, taken while the processes
//! sharing it go on writing. The same lines are written as from sled.
//!
//! sled locks its database to one process, so a backup of a running bot is
//! taken inside that process (the daily task, or `tokar backup` asking the
//! running bot over its control socket, see [`service`]). sled's iteration is
//! not a snapshot: writers go on during it. What must agree is each game's
//! record and log, which every command writes in one transaction; so each
//! game is read in its own sled transaction (the record, then its log entries
//! by sequence number until the first one missing), which sees the game
//! either before or after any command, never half of one. Each outbox entry
//! is read with its pictures in the same way. Other keys are single values.
//! Games are independent of each other, so a backup is a consistent state of
//! every game without stopping the table; each transaction holds the table
//! only for the reads of one game. A game numbered after the header was
//! written may be in the file: a restore sets the next game number above
//! every game it restores.

pub mod cli;
pub mod files;
pub mod restore;
pub mod service;

use crate::storage::export::Source;
use crate::storage::{raw, RawItem, Store, StoreError};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The format written today. A new format keeps the reader of the old ones
/// and adds a fixture in `bot/tests/fixtures/`.
pub const FORMAT: u32 = 2;

/// The file name of a backup taken by Tokar itself, at `stamp` (UTC).
pub fn file_name(stamp: chrono::DateTime<chrono::Utc>) -> String {
    format!("tokar-{}.backup", stamp.format("%Y%m%dT%H%M%S%.3fZ"))
}

/// What a backup holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub path: PathBuf,
    pub games: u64,
    /// Keys other than games (users, outbox, pictures, counters).
    pub keys: u64,
    /// Keys of the named trees (leagues, server settings).
    pub tree_keys: u64,
    pub bytes: u64,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} game(s), {} other key(s), {} key(s) in named trees, {} bytes",
            self.path.display(),
            self.games,
            self.keys,
            self.tree_keys,
            self.bytes
        )
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    pub format: u32,
    pub created_at: u64,
    pub identity: u64,
    pub next_game: u64,
}

/// One stored key and value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item {
    pub k: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub v: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameItems {
    pub id: u64,
    pub crc32: u32,
    pub items: Vec<Item>,
}

/// One key of a named tree (format 2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TreeItem {
    pub tree: String,
    #[serde(flatten)]
    pub item: Item,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct End {
    pub games: u64,
    pub keys: u64,
    /// Absent in format 1, which has no named trees.
    #[serde(default)]
    pub tree_keys: u64,
}

/// One line of a backup.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Line {
    Header(Header),
    Game(GameItems),
    Key(Item),
    Tree(TreeItem),
    End(End),
}

fn hex(b: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(b.len() * 2);
    for x in b {
        let _ = write!(s, "{x:02x}");
    }
    s
}

fn unhex(s: &str) -> Result<Vec<u8>, String> {
    if !s.len().is_multiple_of(2) || !s.is_ascii() {
        return Err(format!("not hexadecimal: {s:.40}"));
    }
    (0..s.len())
        .step_by(2)
        .map(|i| {
            u8::from_str_radix(&s[i..i + 2], 16).map_err(|_| format!("not hexadecimal: {s:.40}"))
        })
        .collect()
}

impl Item {
    pub fn new(k: &[u8], v: &[u8]) -> Item {
        match std::str::from_utf8(v) {
            Ok(text) => Item {
                k: hex(k),
                v: Some(text.to_owned()),
                x: None,
            },
            Err(_) => Item {
                k: hex(k),
                v: None,
                x: Some(hex(v)),
            },
        }
    }

    /// The raw key and value.
    pub fn raw(&self) -> Result<(Vec<u8>, Vec<u8>), String> {
        let k = unhex(&self.k)?;
        let v = match (&self.v, &self.x) {
            (Some(t), None) => t.as_bytes().to_vec(),
            (None, Some(x)) => unhex(x)?,
            _ => return Err(format!("item {} has no single value", self.k)),
        };
        Ok((k, v))
    }
}

/// The checksum of a game's items (see the module's documentation).
pub fn checksum(items: &[RawItem]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    for (k, v) in items {
        h.update(&(k.len() as u64).to_le_bytes());
        h.update(k);
        h.update(&(v.len() as u64).to_le_bytes());
        h.update(v);
    }
    h.finalize()
}

#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("cannot write {0}: {1}")]
    Io(PathBuf, std::io::Error),
}

/// Writes a backup of `store` to `to` (through `to.partial`, synced and
/// renamed, so `to` is always a whole backup). Blocking: call it from
/// `spawn_blocking` in the running bot. A sled store is read game by game (see
/// the module), a PostgreSQL store in one snapshot; the store reads itself
/// ([`Store::export`]), this module writes the lines.
pub fn write(store: &Store, to: &Path) -> Result<Summary, BackupError> {
    store.export(|src| write_from(src, to))
}

/// Writes the backup to `to` through `to.partial`, synced and linked, never
/// over an existing file nor through a link (see `files.rs`), so `to` is
/// always a whole backup.
fn write_from(src: &mut dyn Source<BackupError>, to: &Path) -> Result<Summary, BackupError> {
    let partial = files::partial(to);
    let io = |e: std::io::Error| BackupError::Io(to.to_path_buf(), e);
    if let Some(dir) = to.parent().filter(|d| !d.as_os_str().is_empty()) {
        crate::storage::private::create_dir(dir).map_err(io)?;
    }
    let file = files::create_exclusive(&partial).map_err(io)?;
    let mut out = std::io::BufWriter::new(flate2::write::GzEncoder::new(
        file,
        flate2::Compression::default(),
    ));
    let mut line = |l: &Line| -> Result<(), BackupError> {
        serde_json::to_writer(&mut out, l).map_err(|e| io(e.into()))?;
        out.write_all(b"\n").map_err(io)
    };
    line(&Line::Header(Header {
        format: FORMAT,
        created_at: crate::marker::now_ms(),
        identity: src.identity()?,
        next_game: src.next_game()?,
    }))?;
    let mut games = 0;
    src.games(&mut |id, items| {
        games += 1;
        line(&Line::Game(GameItems {
            id,
            crc32: checksum(&items),
            items: items.iter().map(|(k, v)| Item::new(k, v)).collect(),
        }))
    })?;
    let mut keys = 0;
    src.keys(&mut |items| {
        for (k, v) in items.iter().filter(|(k, _)| !raw::own_to_database(k)) {
            line(&Line::Key(Item::new(k, v)))?;
            keys += 1;
        }
        Ok(())
    })?;
    let mut tree_keys = 0;
    for (name, items) in src.trees()? {
        for (k, v) in items {
            line(&Line::Tree(TreeItem {
                tree: name.clone(),
                item: Item::new(&k, &v),
            }))?;
            tree_keys += 1;
        }
    }
    line(&Line::End(End {
        games,
        keys,
        tree_keys,
    }))?;
    let file = out
        .into_inner()
        .map_err(|e| io(e.into_error()))?
        .finish()
        .map_err(io)?;
    file.sync_all().map_err(io)?;
    drop(file);
    files::publish(&partial, to).map_err(io)?;
    let bytes = std::fs::metadata(to).map(|m| m.len()).unwrap_or(0);
    Ok(Summary {
        path: to.to_path_buf(),
        games,
        keys,
        tree_keys,
        bytes,
    })
}

/// Checks that a game's items are a record and its log that load and
/// agree: the record decodes and is game `id`, the log is this game's
/// entries 0, 1, 2... as many as the record counts, the game replays from
/// its options, seed and log, its stored position is the replay's, and the
/// log's actions were made by the seats' owners ([`crate::verify::game`] says it
/// whole).
pub fn verify_game(id: u64, items: &[RawItem]) -> Result<(), String> {
    crate::verify::game(id, items)
}
