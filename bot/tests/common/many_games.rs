//! Many games written straight through the store's API: copies of one
//! played game under new numbers, for tests that need a store of a thousand
//! games without playing them.
//!
//! Include it with `#[path = "common/many_games.rs"] mod many_games;`.

#![allow(dead_code)]

use tokar_bot::record::{decode_game, encode};
use tokar_bot::storage::Store;

/// Writes `count` copies of game `template` as games `first`, `first + 1`...,
/// in transactions of 50 games (the next game number moves past them).
pub fn copies(store: &Store, template: u64, first: u64, count: u64) {
    let items = store.dump_game(template).unwrap();
    let (gk, rec) = items.first().cloned().expect("the template game is stored");
    assert_eq!(gk[0], b'g');
    let rec = decode_game(&rec).unwrap();
    let ids: Vec<u64> = (first..first + count).collect();
    for chunk in ids.chunks(50) {
        let mut out = Vec::new();
        for &id in chunk {
            let mut r = rec.clone();
            r.id = id;
            let mut k = vec![b'g'];
            k.extend_from_slice(&id.to_be_bytes());
            out.push((k, encode(&r)));
            for (lk, lv) in &items[1..] {
                let mut k = vec![b'l'];
                k.extend_from_slice(&id.to_be_bytes());
                k.extend_from_slice(&lk[9..]);
                out.push((k, lv.clone()));
            }
        }
        store.load_dump(&out).unwrap();
    }
}
