//! `tokar migrate --from DIR --to URL`: moves a store from its data folder
//! (sled) into PostgreSQL, for a community that outgrows one process.
//!
//! Every key of every keyspace is copied as it is: records keep their
//! formats, so nothing is decoded or rewritten on the way, and a record an
//! older Tokar wrote loads in PostgreSQL exactly as it did in sled. The
//! target must be empty (a store is never merged into another), the copy is
//! made in transactions of a few hundred keys, and then checked: the number
//! of keys of each keyspace, and a CRC-32 of each game's record and log,
//! read back from the target. The outbox's ids go on after the moved ones.
//!
//! The bot must be stopped: sled keeps its folder to one process, so while
//! it runs the source cannot be opened (and nothing can change under the
//! copy).

use crate::storage::kv::{transaction, Kv, Tree, MAIN, NAMED};
use crate::storage::raw::{self, Key, Span};
use crate::storage::{Store, StoreSettings};
use std::collections::BTreeMap;
use std::path::Path;

/// Keys written per transaction.
const BATCH: usize = 500;

/// What was moved.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Moved {
    /// Keys per keyspace (`""` is the main one).
    pub keys: BTreeMap<Tree, usize>,
    /// Games whose record and log were checked.
    pub games: usize,
}

impl std::fmt::Display for Moved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let trees: Vec<String> = self
            .keys
            .iter()
            .map(|(t, n)| format!("{} {n}", if t.is_empty() { "main" } else { t }))
            .collect();
        write!(
            f,
            "{} games checked; keys copied: {}",
            self.games,
            trees.join(", ")
        )
    }
}

/// Copies the store of the data folder `from` into the empty database `to`,
/// then checks the copy. Errors are one line for the operator.
pub fn migrate(from: &Path, to: &dyn Kv) -> Result<Moved, String> {
    let source = Store::open_existing(from, &StoreSettings::default())
        .map_err(|e| format!("cannot open the store in {}: {e}", from.display()))?;
    for name in source.kv().tree_names().map_err(err)? {
        if !NAMED.contains(&name.as_str()) {
            return Err(format!(
                "the store in {} has a keyspace {name} that this Tokar does not know: migrate with the Tokar that wrote it",
                from.display()
            ));
        }
    }
    for tree in std::iter::once(MAIN).chain(NAMED) {
        if !to.range(tree, &[], None, 1).map_err(err)?.is_empty() {
            return Err(format!(
                "{} already holds a store: migrate only into an empty database",
                to.describe()
            ));
        }
    }
    let mut moved = Moved::default();
    let mut highest_id = 0;
    for tree in std::iter::once(MAIN).chain(NAMED) {
        // The `with-marker` key says a marker names the source's database;
        // the target is marked when its own folder's marker is written.
        let items: Vec<_> = source
            .kv()
            .range(tree, &[], None, usize::MAX)
            .map_err(err)?
            .into_iter()
            .filter(|(k, _)| tree != MAIN || k.as_slice() != crate::storage::kv::MARKED)
            .collect();
        if tree == MAIN {
            highest_id = items
                .iter()
                .filter_map(|(k, _)| raw::entry_of(k))
                .max()
                .unwrap_or(0);
        }
        for chunk in items.chunks(BATCH) {
            transaction(to, |tx| {
                for (k, v) in chunk {
                    tx.insert(tree, k, v)?;
                }
                Ok(())
            })
            .map_err(err)?;
        }
        moved.keys.insert(tree, items.len());
    }
    to.raise_ids(highest_id).map_err(err)?;
    // The data folder's marker recorded the source's generation: the target
    // starts from it, so the same folder opens on the moved store.
    to.raise_generation(source.kv().generation().map_err(err)?)
        .map_err(err)?;
    moved.games = verify(source.kv(), to, &moved)?;
    Ok(moved)
}

fn err(e: crate::storage::StoreError) -> String {
    e.to_string()
}

/// Counts each keyspace of the target and compares every game's checksum
/// with the source's; returns how many games were checked.
fn verify(source: &dyn Kv, target: &dyn Kv, moved: &Moved) -> Result<usize, String> {
    for (&tree, n) in &moved.keys {
        let found = target
            .range_keys(tree, &[], None, usize::MAX)
            .map_err(err)?
            .len();
        if found != *n {
            return Err(format!(
                "the copy is incomplete: keyspace {tree:?} has {found} keys where {n} were written"
            ));
        }
    }
    let mut games = 0;
    for k in Span::games().keys(source).map_err(err)? {
        let Key::Game(id) = Key::of(&k) else {
            continue;
        };
        if checksum(source, id)? != checksum(target, id)? {
            return Err(format!("game #{id} differs after the copy"));
        }
        games += 1;
    }
    Ok(games)
}

/// A CRC-32 of a game's record and log as stored.
fn checksum(kv: &dyn Kv, id: u64) -> Result<u32, String> {
    let mut h = crc32fast::Hasher::new();
    h.update(
        &kv.get(MAIN, &raw::game_key(id))
            .map_err(err)?
            .unwrap_or_default(),
    );
    for (k, v) in Span::log_of(id).items(kv).map_err(err)? {
        h.update(&k);
        h.update(&v);
    }
    Ok(h.finalize())
}

/// `tokar migrate` on the command line.
pub const USAGE: &str = "usage: tokar migrate --from DIR --to postgres://USER@HOST/DATABASE";

/// Runs `tokar migrate ARGS`: the text to print, or a one-line error.
pub fn cli(args: &[String]) -> Result<String, String> {
    let (mut from, mut to) = (None, None);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let slot = match arg.as_str() {
            "--from" => &mut from,
            "--to" => &mut to,
            other => return Err(format!("unexpected argument {other}\n{USAGE}")),
        };
        *slot = Some(
            it.next()
                .cloned()
                .ok_or_else(|| format!("{arg} needs a value\n{USAGE}"))?,
        );
    }
    let (Some(from), Some(to)) = (from, to) else {
        return Err(format!("migrate needs --from and --to\n{USAGE}"));
    };
    if !crate::storage::postgres::is_url(&to) {
        return Err(format!("--to {to}: not a PostgreSQL URL\n{USAGE}"));
    }
    let target = crate::storage::postgres::PgKv::connect(&to).map_err(|e| e.to_string())?;
    let moved = migrate(Path::new(&from), &target)?;
    Ok(format!(
        "moved the store of {from} into {}: {moved}",
        target.describe()
    ))
}
