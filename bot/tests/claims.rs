//! Interaction claims (`storage/claims.rs`): an interaction received by two
//! sessions of one shard runs once. Checked on both backends: sled (one
//! process, its threads racing) and PostgreSQL (a server the tests start, two
//! stores on it standing for two processes).

#[path = "common/postgres.rs"]
mod postgres;

use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};
use tokar_bot::storage::kv::{Kv, SledKv};
use tokar_bot::storage::postgres::PgKv;
use tokar_bot::storage::{Claim, Store, CLAIM_KEPT};

/// A database the suite can open, and open again as a restarted process would.
trait Backend {
    fn fresh(name: &str) -> Self;
    fn open(&self) -> Store;
    /// Stores standing for the processes that race for one claim.
    fn racers(&self) -> Vec<Store>;
}

struct Sled {
    dir: std::path::PathBuf,
}

impl Backend for Sled {
    fn fresh(name: &str) -> Sled {
        let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("tokar-claims-{name}"));
        let _ = std::fs::remove_dir_all(&dir);
        Sled { dir }
    }

    fn open(&self) -> Store {
        // sled lets go of its lock a moment after its last handle closes.
        let started = Instant::now();
        loop {
            match sled::Config::new().path(&self.dir).open() {
                Ok(db) => {
                    let kv = SledKv::new(db, self.dir.display().to_string()).unwrap();
                    return Store::on(Arc::new(kv) as Arc<dyn Kv>).unwrap();
                }
                Err(_) if started.elapsed() < Duration::from_secs(5) => {
                    std::thread::sleep(Duration::from_millis(50));
                }
                Err(e) => panic!("cannot open sled in {}: {e}", self.dir.display()),
            }
        }
    }

    /// sled is one process's: its threads share one store.
    fn racers(&self) -> Vec<Store> {
        vec![self.open()]
    }
}

struct Pg {
    _server: postgres::Lease,
    url: String,
}

impl Backend for Pg {
    fn fresh(name: &str) -> Pg {
        let server = postgres::shared("claims");
        let url = server.fresh_store(name);
        Pg {
            _server: server,
            url,
        }
    }

    fn open(&self) -> Store {
        Store::on(Arc::new(PgKv::connect(&self.url).unwrap()) as Arc<dyn Kv>).unwrap()
    }

    fn racers(&self) -> Vec<Store> {
        vec![self.open(), self.open()]
    }
}

const A: u64 = 0xa;
const B: u64 = 0xb;

fn an_interaction_is_claimed_once(b: impl Backend) {
    let store = b.open();
    assert!(store.claim_interaction(41, A, 1_000).unwrap());
    assert!(
        !store.claim_interaction(41, B, 1_001).unwrap(),
        "B found A's"
    );
    assert!(
        !store.claim_interaction(41, A, 1_002).unwrap(),
        "once, even for A"
    );
    assert_eq!(
        store.interaction_claim(41).unwrap(),
        Some(Claim {
            at: 1_000,
            owner: A
        })
    );
    assert!(store.claim_interaction(42, B, 1_003).unwrap(), "another id");
    assert_eq!(store.interaction_claim(43).unwrap(), None);
}

/// The claim is on disk when the call returns: a restarted process finds it.
fn a_claim_survives_reopening(b: impl Backend) {
    let store = b.open();
    assert!(store.claim_interaction(7, A, 5).unwrap());
    drop(store);
    let again = b.open();
    assert!(!again.claim_interaction(7, B, 6).unwrap());
}

/// Many claimants at once, on several ids: each id is won exactly once.
fn racing_claimants_win_each_id_once(b: impl Backend) {
    const THREADS: usize = 8;
    const IDS: u64 = 25;
    let racers = b.racers();
    let barrier = Arc::new(Barrier::new(THREADS));
    let threads: Vec<_> = (0..THREADS)
        .map(|t| {
            let store = racers[t % racers.len()].clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                barrier.wait();
                (0..IDS)
                    .filter(|id| store.claim_interaction(1_000 + id, t as u64, 1).unwrap())
                    .count()
            })
        })
        .collect();
    let won: usize = threads.into_iter().map(|t| t.join().unwrap()).sum();
    assert_eq!(won, IDS as usize, "every id claimed exactly once");
}

/// Pruning removes the claims older than the cut, oldest first and at most
/// the limit, and leaves the newer ones holding.
fn old_claims_are_pruned(b: impl Backend) {
    let store = b.open();
    let day = CLAIM_KEPT;
    for (id, at) in [(1, 10), (2, 20), (3, 30), (4, day + 40)] {
        assert!(store.claim_interaction(id, A, at).unwrap());
    }
    assert_eq!(store.prune_claims(25, 1).unwrap(), 1);
    assert_eq!(store.interaction_claim(1).unwrap(), None);
    assert!(store.interaction_claim(2).unwrap().is_some());
    assert_eq!(store.prune_claims(31, 100).unwrap(), 2);
    assert_eq!(store.interaction_claim(2).unwrap(), None);
    assert_eq!(store.interaction_claim(3).unwrap(), None);
    assert!(!store.claim_interaction(4, B, day + 50).unwrap(), "kept");
    assert_eq!(store.prune_claims(31, 100).unwrap(), 0);
    // A pruned id is claimable again (Discord never sends it again by then).
    assert!(store.claim_interaction(1, B, day + 60).unwrap());
}

macro_rules! both {
    ($($test:ident),* $(,)?) => {
        mod sled_claims {
            $(#[test]
            fn $test() {
                super::$test(<super::Sled as super::Backend>::fresh(stringify!($test)));
            })*
        }
        mod pg_claims {
            $(#[test]
            fn $test() {
                super::$test(<super::Pg as super::Backend>::fresh(stringify!($test)));
            })*
        }
    };
}

both!(
    an_interaction_is_claimed_once,
    a_claim_survives_reopening,
    racing_claimants_win_each_id_once,
    old_claims_are_pruned,
);
