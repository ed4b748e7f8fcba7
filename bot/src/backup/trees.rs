//! The store's named sled trees (leagues, server settings, and any tree a
//! later version of Tokar adds): which there are, and each one's keys read as
//! one consistent state.
//!
//! sled has no snapshot and its transactions cannot iterate, so a tree is read
//! in three steps: its keys are listed, then every listed key is read in one
//! transaction over the tree (which sees the tree either before or after any
//! write to it, never half of one: a league's record and its games' keys are
//! written in one transaction), then the keys are listed again. If a key came
//! or went between the two listings the read is made again; Tokar's trees are
//! small and rarely written, so this settles at once in practice.

use crate::storage::{RawItem, StoreError};
use sled::transaction::{ConflictableTransactionError, TransactionError};

/// How often a tree is read again while keys keep changing under the read.
const TRIES: usize = 20;

/// Every tree of `db` but the default one, by name, in name order.
pub fn named(db: &sled::Db) -> Result<Vec<(String, sled::Tree)>, StoreError> {
    let default = db.name();
    let mut out = Vec::new();
    for name in db.tree_names() {
        if name == default {
            continue;
        }
        let text = String::from_utf8(name.to_vec())
            .map_err(|_| StoreError::Corrupt(format!("a tree's name is not text: {name:?}")))?;
        out.push((text, db.open_tree(&name)?));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// Whether `name` may be a named tree in a backup (not sled's default tree).
pub fn valid_name(db: &sled::Db, name: &str) -> bool {
    !name.is_empty() && name.as_bytes() != &*db.name()
}

fn keys(tree: &sled::Tree) -> Result<Vec<sled::IVec>, StoreError> {
    Ok(tree.iter().keys().collect::<Result<_, _>>()?)
}

/// Every key and value of `tree`, as one consistent state.
pub fn read(tree: &sled::Tree) -> Result<Vec<RawItem>, StoreError> {
    let mut listed = keys(tree)?;
    for _ in 0..TRIES {
        let items = tree.transaction(|tx| {
            let mut items = Vec::with_capacity(listed.len());
            for k in &listed {
                if let Some(v) = tx.get(k)? {
                    items.push((k.to_vec(), v.to_vec()));
                }
            }
            Ok::<_, ConflictableTransactionError<()>>(items)
        });
        let items = match items {
            Ok(items) => items,
            Err(TransactionError::Storage(e)) => return Err(e.into()),
            Err(TransactionError::Abort(())) => {
                return Err(StoreError::Corrupt("aborted read".into()))
            }
        };
        let now = keys(tree)?;
        if now == listed && items.len() == listed.len() {
            return Ok(items);
        }
        listed = now;
    }
    Err(StoreError::Corrupt(format!(
        "the tree {} kept changing while it was read",
        String::from_utf8_lossy(&tree.name())
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn db() -> sled::Db {
        sled::Config::new().temporary(true).open().unwrap()
    }

    #[test]
    fn every_named_tree_is_found_but_the_default_one() {
        let db = db();
        db.insert(b"main", &b"x"[..]).unwrap();
        db.open_tree("servers").unwrap();
        db.open_tree("leagues").unwrap();
        let names: Vec<String> = named(&db).unwrap().into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["leagues", "servers"]);
        assert!(valid_name(&db, "leagues"));
        assert!(!valid_name(&db, "__sled__default"));
        assert!(!valid_name(&db, ""));
    }

    #[test]
    fn a_tree_is_read_whole_in_key_order() {
        let db = db();
        let t = db.open_tree("leagues").unwrap();
        t.insert(b"L\x01", &b"{\"v\":1}"[..]).unwrap();
        t.insert(b"G\x02", &[0, 1][..]).unwrap();
        assert_eq!(
            read(&t).unwrap(),
            vec![
                (b"G\x02".to_vec(), vec![0, 1]),
                (b"L\x01".to_vec(), b"{\"v\":1}".to_vec())
            ]
        );
    }
}
