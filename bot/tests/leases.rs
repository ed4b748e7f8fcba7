//! Leases (issue #21): one process at a time does a game's sweeps, the bot's
//! moves in it, and a channel's deliveries; a dead process's leases are taken
//! over once they run out. Checked on the store itself, with two owners
//! standing for two processes.

mod common;
use common::*;
use std::sync::Arc;
use tokar_bot::clock::VirtualClock;
use tokar_bot::storage::kv::TxError;
use tokar_bot::storage::{Lease, Store, StoreError};
use tokar_bot::{Table, TableConfig};

const A: u64 = 0xa;
const B: u64 = 0xb;
const TTL: u64 = 1_000;

#[test]
fn a_lease_is_one_owners_until_it_runs_out_or_is_given_back() {
    let store = open_store(&fresh_dir("leases-owners"));
    let game = Lease::Game(7);
    assert!(store.take_lease(game, A, 100, TTL).unwrap());
    assert!(!store.take_lease(game, B, 200, TTL).unwrap(), "held by A");
    // Renewed by its holder.
    assert!(store.take_lease(game, A, 900, TTL).unwrap());
    assert_eq!(store.lease_holder(game).unwrap(), Some((A, 1_900)));
    assert!(!store.take_lease(game, B, 1_500, TTL).unwrap(), "renewed");
    // Run out: B takes it over.
    assert!(store.take_lease(game, B, 1_900, TTL).unwrap());
    assert!(!store.take_lease(game, A, 2_000, TTL).unwrap());
    // Given back only by its holder.
    store.drop_lease(game, A).unwrap();
    assert_eq!(store.lease_holder(game).unwrap(), Some((B, 2_900)));
    store.drop_lease(game, B).unwrap();
    assert_eq!(store.lease_holder(game).unwrap(), None);
    assert!(store.take_lease(game, A, 2_000, TTL).unwrap());
}

#[test]
fn leases_of_games_channels_and_direct_messages_are_apart() {
    let store = open_store(&fresh_dir("leases-apart"));
    assert!(store.take_lease(Lease::Game(5), A, 0, TTL).unwrap());
    assert!(store.take_lease(Lease::Lane(false, 5), B, 0, TTL).unwrap());
    assert!(store.take_lease(Lease::Lane(true, 5), A, 0, TTL).unwrap());
    assert!(store.take_lease(Lease::Game(6), B, 0, TTL).unwrap());
    assert!(!store.take_lease(Lease::Lane(false, 5), A, 10, TTL).unwrap());
}

#[test]
fn a_store_in_a_data_folder_is_not_shared() {
    // sled locks its folder to one process: the table takes no leases there.
    assert!(!open_store(&fresh_dir("leases-sled")).shared());
}

/// sled standing in for a database that several processes share: the same
/// keys, but the table takes its leases as it would on PostgreSQL.
struct Shared(tokar_bot::storage::kv::SledKv);

impl tokar_bot::storage::kv::Kv for Shared {
    fn get(&self, t: &'static str, k: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.0.get(t, k)
    }
    fn range(
        &self,
        t: &'static str,
        s: &[u8],
        e: Option<&[u8]>,
        n: usize,
    ) -> Result<Vec<(Vec<u8>, Vec<u8>)>, StoreError> {
        self.0.range(t, s, e, n)
    }
    fn range_keys(
        &self,
        t: &'static str,
        s: &[u8],
        e: Option<&[u8]>,
        n: usize,
    ) -> Result<Vec<Vec<u8>>, StoreError> {
        self.0.range_keys(t, s, e, n)
    }
    fn transact(
        &self,
        f: &mut dyn FnMut(&mut dyn tokar_bot::storage::kv::KvTx) -> Result<(), TxError>,
    ) -> Result<(), StoreError> {
        self.0.transact(f)
    }
    fn raise_ids(&self, floor: u64) -> Result<(), StoreError> {
        self.0.raise_ids(floor)
    }
    fn shared(&self) -> bool {
        true
    }
    fn describe(&self) -> String {
        "a shared test store".into()
    }
}

/// Two tables ("processes") on one shared store, each with its own clock set
/// to the same time.
fn two_processes(name: &str) -> (Env, Env) {
    let dir = fresh_dir(name);
    let db = sled::open(dir.join("db")).unwrap();
    let kv: Arc<dyn tokar_bot::storage::kv::Kv> = Arc::new(Shared(
        tokar_bot::storage::kv::SledKv::new(db, "shared".into()).unwrap(),
    ));
    let store = Store::on(kv).unwrap();
    let identity = store.identity().unwrap();
    let mut out = Vec::new();
    for p in ["a", "b"] {
        let pdir = dir.join(p);
        std::fs::create_dir_all(&pdir).unwrap();
        let clock = Arc::new(VirtualClock::open(&pdir).unwrap());
        let mut config = TableConfig::new(&pdir);
        config.clock = clock.clone();
        config.seed = Some(7);
        out.push(Env {
            dir: pdir,
            clock,
            table: Table::on_store(config, store.clone(), identity),
        });
    }
    let b = out.pop().unwrap();
    (out.pop().unwrap(), b)
}

#[tokio::test]
async fn a_channels_messages_are_delivered_by_one_process_until_its_lease_runs_out() {
    let (a, b) = two_processes("leases-lanes");
    a.start("alice", "bob").await;
    let by_a = a.table.outbox_due(64).await;
    assert!(!by_a.is_empty(), "the start is announced");
    assert!(
        b.table.outbox_due(64).await.is_empty(),
        "the other process leaves the lanes it does not hold"
    );
    // A keeps them while it lives (each pass renews the lease).
    a.clock.advance(20_000).unwrap();
    b.clock.advance(20_000).unwrap();
    assert_eq!(a.table.outbox_due(64).await.len(), by_a.len());
    assert!(b.table.outbox_due(64).await.is_empty());
    // A stops (killed): once its lease runs out, B delivers, and A, were it
    // to come back, finds the lanes taken.
    a.clock.advance(31_000).unwrap();
    b.clock.advance(31_000).unwrap();
    let by_b = b.table.outbox_due(64).await;
    assert_eq!(
        by_b.iter().map(|e| e.id).collect::<Vec<_>>(),
        by_a.iter().map(|e| e.id).collect::<Vec<_>>()
    );
    assert!(a.table.outbox_due(64).await.is_empty());
}
