//! The store's named sled trees (leagues, server settings, and any tree a
//! later version of Tokar adds): which there are, and each one's keys read as
//! one consistent state.
//!
//! sled has no snapshot and its transactions cannot iterate, so a tree is read
//! in three steps: its keys are listed, then every listed key is read in one
//! transaction over the tree (which sees the tree either before or after any
//! write to it, never half of one: a league's record and its games' keys are
//! written in one transaction), then the keys are listed again. If a key came
//! or went between the two listings the read is made again, after a pause
//! that doubles each time (a tree is written by players' commands, which come
//! in bursts); Tokar's trees are small and rarely written, so this settles at
//! once in practice.

use crate::{RawItem, StoreError};
use sled::transaction::{ConflictableTransactionError, TransactionError};

/// How often a tree is read again while keys keep changing under the read.
const TRIES: u32 = 12;

/// The first pause before a tree is read again (then 2, 4, ... up to 2 s).
const PAUSE: std::time::Duration = std::time::Duration::from_millis(1);

/// The name of every tree of `db` but the default one, in name order.
pub(crate) fn names(db: &sled::Db) -> Result<Vec<String>, StoreError> {
    let default = db.name();
    let mut out = Vec::new();
    for name in db.tree_names() {
        if name == default {
            continue;
        }
        let text = String::from_utf8(name.to_vec())
            .map_err(|_| StoreError::Corrupt(format!("a tree's name is not text: {name:?}")))?;
        out.push(text);
    }
    out.sort();
    Ok(out)
}

/// Whether `name` may be a named tree in a backup (not sled's default tree).
pub(crate) fn valid_name(db: &sled::Db, name: &str) -> bool {
    !name.is_empty() && name.as_bytes() != &*db.name()
}

fn keys(tree: &sled::Tree) -> Result<Vec<sled::IVec>, StoreError> {
    Ok(tree.iter().keys().collect::<Result<_, _>>()?)
}

/// Every key and value of `tree`, as one consistent state.
pub(crate) fn read(tree: &sled::Tree) -> Result<Vec<RawItem>, StoreError> {
    let mut listed = keys(tree)?;
    for n in 0..TRIES {
        if n > 0 {
            std::thread::sleep(PAUSE * 2u32.pow(n - 1));
        }
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
        assert_eq!(names(&db).unwrap(), ["leagues", "servers"]);
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

    /// A record and its index key written in one transaction (as a league's
    /// are) are read together or not at all, while the writes go on.
    #[test]
    fn a_tree_written_meanwhile_is_read_as_one_state() {
        let db = db();
        let t = db.open_tree("leagues").unwrap();
        let writer = {
            let t = t.clone();
            std::thread::spawn(move || {
                for i in 0u64..300 {
                    t.transaction(|tx| {
                        tx.insert([&b"G"[..], &i.to_be_bytes()].concat(), &b"1"[..])?;
                        tx.insert([&b"L"[..], &i.to_be_bytes()].concat(), &b"1"[..])?;
                        Ok::<_, ConflictableTransactionError<()>>(())
                    })
                    .unwrap();
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
            })
        };
        let mut reads = 0;
        while !writer.is_finished() {
            let items = read(&t).unwrap();
            let of = |p: u8| -> Vec<Vec<u8>> {
                items
                    .iter()
                    .filter(|(k, _)| k[0] == p)
                    .map(|(k, _)| k[1..].to_vec())
                    .collect()
            };
            assert_eq!(of(b'G'), of(b'L'), "half of a write read");
            reads += 1;
        }
        writer.join().unwrap();
        assert!(reads > 1);
        assert_eq!(read(&t).unwrap().len(), 600);
    }
}
