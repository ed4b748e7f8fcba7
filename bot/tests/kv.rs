//! The guarantees the store relies on from a database (`storage/kv.rs`),
//! checked on both backends: one suite, run on sled (a folder) and on
//! PostgreSQL (a server the tests start, see `common/postgres.rs`).

#[path = "common/postgres.rs"]
mod postgres;

use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};
use tokar_bot::storage::kv::{self, Kv, KvTx, SledKv, Tree, TxError, MAIN, NAMED};
use tokar_bot::storage::postgres::PgKv;
use tokar_bot::storage::StoreError;

/// A database the suite can open, and open again as a restarted process would.
trait Backend {
    /// An empty database for the test `name`.
    fn fresh(name: &str) -> Self;
    fn open(&self) -> Box<dyn Kv>;
}

struct Sled {
    dir: std::path::PathBuf,
}

impl Backend for Sled {
    fn fresh(name: &str) -> Sled {
        let dir =
            std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("tokar-kv-{name}"));
        let _ = std::fs::remove_dir_all(&dir);
        Sled { dir }
    }

    fn open(&self) -> Box<dyn Kv> {
        // sled lets go of its lock a moment after its last handle closes.
        let started = Instant::now();
        loop {
            match sled::Config::new().path(&self.dir).open() {
                Ok(db) => {
                    return Box::new(SledKv::new(db, self.dir.display().to_string()).unwrap())
                }
                Err(e) if started.elapsed() < Duration::from_secs(5) => {
                    let _ = e;
                    std::thread::sleep(Duration::from_millis(50));
                }
                Err(e) => panic!("cannot open sled in {}: {e}", self.dir.display()),
            }
        }
    }
}

struct Pg {
    server: postgres::Lease,
    url: String,
}

impl Backend for Pg {
    fn fresh(name: &str) -> Pg {
        let server = postgres::shared("kv");
        let url = server.fresh_store(name);
        Pg { server, url }
    }

    fn open(&self) -> Box<dyn Kv> {
        Box::new(PgKv::connect(&self.url).unwrap())
    }
}

fn put(kv: &dyn Kv, tree: Tree, key: &[u8], value: &[u8]) {
    kv::transaction(kv, |tx| tx.insert(tree, key, value)).unwrap();
}

fn keys_of(items: Vec<(Vec<u8>, Vec<u8>)>) -> Vec<Vec<u8>> {
    items.into_iter().map(|(k, _)| k).collect()
}

/// Keys that tell bytewise order from signed bytes, text collation and
/// length-first order: high bytes, 0xff runs, a key and its extensions.
fn awkward_keys() -> Vec<Vec<u8>> {
    vec![
        vec![0xff, 0xff, 0x01],
        b"b".to_vec(),
        vec![0x80],
        vec![0xff],
        b"ab".to_vec(),
        vec![0x00],
        vec![0xff, 0x00],
        b"B".to_vec(),
        vec![0x7f],
        b"a".to_vec(),
        vec![0xff, 0xff],
        vec![0x00, 0xff],
        vec![0xfe, 0xff, 0xff],
    ]
}

fn scans_in_bytewise_order(b: impl Backend) {
    let kv = b.open();
    for (i, k) in awkward_keys().iter().enumerate() {
        put(&*kv, MAIN, k, &[i as u8]);
    }
    let mut sorted = awkward_keys();
    sorted.sort();
    assert_eq!(keys_of(kv.scan(MAIN, b"", usize::MAX).unwrap()), sorted);
    assert_eq!(kv.keys(MAIN, b"").unwrap(), sorted);
    let with = |p: &[u8]| {
        sorted
            .iter()
            .filter(|k| k.starts_with(p))
            .cloned()
            .collect::<Vec<_>>()
    };
    for prefix in [
        &[0xff][..],
        &[0xff, 0xff],
        &[0xff, 0xff, 0x01],
        &[0xfe],
        &[0x7f],
        &[0x00],
        b"a",
        b"B",
        b"c",
    ] {
        assert_eq!(
            keys_of(kv.scan(MAIN, prefix, usize::MAX).unwrap()),
            with(prefix),
            "prefix {prefix:?}"
        );
        assert_eq!(
            kv.keys(MAIN, prefix).unwrap(),
            with(prefix),
            "prefix {prefix:?}"
        );
    }
    // Values come with their keys.
    let found = kv.scan(MAIN, &[0x80], 10).unwrap();
    assert_eq!(found, vec![(vec![0x80], vec![2])]);
}

fn scans_stop_at_the_limit(b: impl Backend) {
    let kv = b.open();
    for n in 0u8..10 {
        put(&*kv, MAIN, &[b'k', n], &[n]);
    }
    put(&*kv, MAIN, b"l", b"other");
    assert_eq!(
        kv.scan(MAIN, b"k", 3).unwrap(),
        vec![
            (vec![b'k', 0], vec![0]),
            (vec![b'k', 1], vec![1]),
            (vec![b'k', 2], vec![2])
        ]
    );
    assert!(kv.scan(MAIN, b"k", 0).unwrap().is_empty());
    assert_eq!(kv.scan(MAIN, b"k", usize::MAX).unwrap().len(), 10);
    assert_eq!(kv.keys(MAIN, b"k").unwrap().len(), 10);
    assert_eq!(kv.get(MAIN, &[b'k', 4]).unwrap(), Some(vec![4]));
    assert_eq!(kv.get(MAIN, b"k").unwrap(), None);
}

fn named_trees_are_kept_apart(b: impl Backend) {
    let kv = b.open();
    let trees: Vec<Tree> = std::iter::once(MAIN).chain(NAMED).collect();
    for (i, tree) in trees.iter().enumerate() {
        put(&*kv, tree, b"same", &[i as u8]);
        put(&*kv, tree, &[b's', i as u8], b"own");
    }
    for (i, tree) in trees.iter().enumerate() {
        assert_eq!(kv.get(tree, b"same").unwrap(), Some(vec![i as u8]));
        let mut own = vec![b"same".to_vec(), vec![b's', i as u8]];
        own.sort();
        assert_eq!(kv.keys(tree, b"s").unwrap(), own, "tree {tree:?}");
    }
    kv::transaction(&*kv, |tx| tx.remove(NAMED[0], b"same")).unwrap();
    assert_eq!(kv.get(NAMED[0], b"same").unwrap(), None);
    assert_eq!(kv.get(MAIN, b"same").unwrap(), Some(vec![0]));
    assert_eq!(kv.get(NAMED[1], b"same").unwrap(), Some(vec![2]));
}

fn a_transaction_sees_its_own_writes(b: impl Backend) {
    let kv = b.open();
    put(&*kv, MAIN, b"gone", b"x");
    let seen = kv::transaction(&*kv, |tx| {
        tx.insert(MAIN, b"new", b"1")?;
        tx.insert(NAMED[1], b"new", b"2")?;
        tx.remove(MAIN, b"gone")?;
        Ok((
            tx.get(MAIN, b"new")?,
            tx.get(NAMED[1], b"new")?,
            tx.get(MAIN, b"gone")?,
        ))
    })
    .unwrap();
    assert_eq!(seen, (Some(b"1".to_vec()), Some(b"2".to_vec()), None));
    assert_eq!(kv.get(MAIN, b"new").unwrap(), Some(b"1".to_vec()));
    assert_eq!(kv.get(MAIN, b"gone").unwrap(), None);
}

/// Two values read in one transaction.
type Pair = (Option<Vec<u8>>, Option<Vec<u8>>);

/// A reader never sees one of a transaction's writes without the others.
fn a_transactions_writes_land_together(b: impl Backend) {
    let kv: Arc<dyn Kv> = b.open().into();
    let both = |tx: &mut dyn KvTx| -> Result<Pair, TxError> {
        Ok((tx.get(MAIN, b"left")?, tx.get(NAMED[0], b"right")?))
    };
    let writer = {
        let kv = kv.clone();
        std::thread::spawn(move || {
            for i in 1u32..=60 {
                kv::transaction(&*kv, |tx| {
                    tx.insert(MAIN, b"left", &i.to_be_bytes())?;
                    tx.insert(NAMED[0], b"right", &i.to_be_bytes())
                })
                .unwrap();
            }
        })
    };
    let mut reads = 0;
    while !writer.is_finished() || reads == 0 {
        let (left, right) = kv::transaction(&*kv, both).unwrap();
        assert_eq!(left, right, "a transaction's writes were seen apart");
        reads += 1;
    }
    writer.join().unwrap();
    let last = kv::transaction(&*kv, both).unwrap();
    assert_eq!(
        last,
        (
            Some(60u32.to_be_bytes().to_vec()),
            Some(60u32.to_be_bytes().to_vec())
        )
    );
}

fn an_aborted_transaction_leaves_nothing(b: impl Backend) {
    let kv = b.open();
    put(&*kv, MAIN, b"kept", b"before");
    let result = kv::transaction(&*kv, |tx| -> Result<(), TxError> {
        tx.insert(MAIN, b"new", b"x")?;
        tx.insert(NAMED[0], b"new", b"x")?;
        tx.insert(MAIN, b"kept", b"after")?;
        tx.remove(MAIN, b"kept")?;
        Err(TxError::Abort(StoreError::Stale))
    });
    assert!(matches!(result, Err(StoreError::Stale)), "{result:?}");
    assert_eq!(kv.get(MAIN, b"new").unwrap(), None);
    assert_eq!(kv.get(NAMED[0], b"new").unwrap(), None);
    assert_eq!(kv.get(MAIN, b"kept").unwrap(), Some(b"before".to_vec()));
}

fn ids_only_grow_across_reopening(b: impl Backend) {
    let mut ids = Vec::new();
    {
        let kv = b.open();
        for _ in 0..5 {
            ids.push(kv::transaction(&*kv, |tx| tx.generate_id()).unwrap());
        }
        let three = kv::transaction(&*kv, |tx| {
            Ok([tx.generate_id()?, tx.generate_id()?, tx.generate_id()?])
        })
        .unwrap();
        ids.extend(three);
        // An id taken by an aborted transaction is not given again either.
        let _ = kv::transaction(&*kv, |tx| -> Result<(), TxError> {
            tx.generate_id()?;
            Err(TxError::Abort(StoreError::Stale))
        });
        ids.push(kv::transaction(&*kv, |tx| tx.generate_id()).unwrap());
    }
    let kv = b.open();
    for _ in 0..3 {
        ids.push(kv::transaction(&*kv, |tx| tx.generate_id()).unwrap());
    }
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "ids {ids:?}");
}

fn writes_survive_reopening(b: impl Backend) {
    {
        let kv = b.open();
        kv::transaction(&*kv, |tx| {
            tx.insert(MAIN, b"game", &[7; 2048])?;
            tx.insert(NAMED[0], b"league", b"l")?;
            tx.insert(NAMED[1], b"server", b"s")
        })
        .unwrap();
    }
    let kv = b.open();
    assert_eq!(kv.get(MAIN, b"game").unwrap(), Some(vec![7; 2048]));
    assert_eq!(kv.get(NAMED[0], b"league").unwrap(), Some(b"l".to_vec()));
    assert_eq!(kv.get(NAMED[1], b"server").unwrap(), Some(b"s".to_vec()));
}

const THREADS: u64 = 8;
const INCREMENTS: u64 = 25;

/// `per_store` threads on each of `stores`, each running `INCREMENTS`
/// read-increment-write transactions on one counter; returns the counter.
fn race(stores: &[Arc<dyn Kv>], per_store: u64) -> u64 {
    let start = Arc::new(Barrier::new(stores.len() * per_store as usize));
    let threads: Vec<_> = stores
        .iter()
        .flat_map(|kv| std::iter::repeat_n(kv.clone(), per_store as usize))
        .map(|kv| {
            let start = start.clone();
            std::thread::spawn(move || {
                start.wait();
                for _ in 0..INCREMENTS {
                    kv::transaction(&*kv, |tx| {
                        let n = tx
                            .get(MAIN, b"counter")?
                            .map_or(0, |b| u64::from_be_bytes(b.try_into().unwrap()));
                        tx.insert(MAIN, b"counter", &(n + 1).to_be_bytes())
                    })
                    .unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let n = stores[0].get(MAIN, b"counter").unwrap().unwrap();
    u64::from_be_bytes(n.try_into().unwrap())
}

/// A lost update (two transactions reading the same count and both writing
/// it plus one) would leave the counter short.
fn concurrent_increments_are_not_lost(b: impl Backend) {
    let kv: Arc<dyn Kv> = b.open().into();
    assert_eq!(race(&[kv], THREADS), THREADS * INCREMENTS);
}

macro_rules! conformance {
    ($($test:ident),* $(,)?) => {
        mod sled_kv {
            $(#[test]
            fn $test() {
                super::$test(<super::Sled as super::Backend>::fresh(stringify!($test)));
            })*
        }
        mod pg_kv {
            $(#[test]
            fn $test() {
                super::$test(<super::Pg as super::Backend>::fresh(stringify!($test)));
            })*
        }
    };
}

conformance!(
    scans_in_bytewise_order,
    scans_stop_at_the_limit,
    named_trees_are_kept_apart,
    a_transaction_sees_its_own_writes,
    a_transactions_writes_land_together,
    an_aborted_transaction_leaves_nothing,
    ids_only_grow_across_reopening,
    writes_survive_reopening,
    concurrent_increments_are_not_lost,
);

/// PostgreSQL only: several processes on one server, its schema, its use
/// from async code. Named to run next to `pg_kv` (tests run in name order), so
/// the server the tests share is started once.
mod pg_only {
    use super::*;

    /// Two pools, as two processes would have, racing on one counter.
    /// The pool's connections all break when the server restarts; the store
    /// reads and writes on, with new ones.
    #[test]
    fn a_store_outlives_a_restart_of_the_server() {
        let server = postgres::PgServer::start("kv-restart");
        let kv: Arc<dyn Kv> = Arc::new(PgKv::connect(&server.fresh_store("restart")).unwrap());
        // Several connections at once, so several are pooled.
        let start = Arc::new(Barrier::new(4));
        let writers: Vec<_> = (0u8..4)
            .map(|n| {
                let (kv, start) = (kv.clone(), start.clone());
                std::thread::spawn(move || {
                    start.wait();
                    put(&*kv, MAIN, &[b'w', n], b"before");
                })
            })
            .collect();
        for w in writers {
            w.join().unwrap();
        }
        server.restart();
        assert_eq!(kv.get(MAIN, &[b'w', 0]).unwrap(), Some(b"before".to_vec()));
        assert_eq!(kv.keys(MAIN, b"w").unwrap().len(), 4);
        put(&*kv, MAIN, b"after", b"restart");
        assert_eq!(kv.get(MAIN, b"after").unwrap(), Some(b"restart".to_vec()));
    }

    #[test]
    fn two_stores_on_one_database_lose_no_update() {
        let b = Pg::fresh("two_stores");
        let stores: Vec<Arc<dyn Kv>> = vec![b.open().into(), b.open().into()];
        assert_eq!(race(&stores, THREADS / 2), THREADS * INCREMENTS);
    }

    #[test]
    fn processes_starting_at_once_migrate_once() {
        let b = Pg::fresh("racing_connects");
        let start = Arc::new(Barrier::new(4));
        let connects: Vec<_> = (0..4)
            .map(|_| {
                let (url, start) = (b.url.clone(), start.clone());
                std::thread::spawn(move || {
                    start.wait();
                    PgKv::connect(&url).map(drop)
                })
            })
            .collect();
        for c in connects {
            c.join().unwrap().unwrap();
        }
        let applied = b.server.psql_in_store(
            "racing_connects",
            "SELECT version FROM tokar_schema ORDER BY version",
        );
        let expected: Vec<String> = (1..=tokar_bot::storage::postgres::schema_version())
            .map(|n| n.to_string())
            .collect();
        assert_eq!(applied, expected.join("\n"));
    }

    #[test]
    fn a_database_of_a_newer_tokar_is_refused_in_one_line() {
        let b = Pg::fresh("newer_schema");
        drop(b.open());
        let newer = tokar_bot::storage::postgres::schema_version() + 1;
        b.server.psql_in_store(
            "newer_schema",
            &format!("INSERT INTO tokar_schema (version) VALUES ({newer})"),
        );
        let refused = PgKv::connect(&b.url)
            .err()
            .expect("a newer schema is refused");
        let text = refused.to_string();
        assert!(!text.contains('\n'), "{text}");
        assert!(text.contains(&format!("schema version {newer}")), "{text}");
        assert!(text.contains("newer Tokar"), "{text}");
        assert!(!text.contains("s3cret"));
    }

    #[test]
    fn a_bad_url_or_a_missing_server_is_a_one_line_error() {
        let bad = PgKv::connect("postgres://tokar:s3cret@host:notaport/db")
            .err()
            .unwrap();
        let gone_dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tokar-pg-none");
        std::fs::create_dir_all(&gone_dir).unwrap();
        let started = Instant::now();
        let gone = PgKv::connect(&format!(
            "host={} user=tokar password=s3cret dbname=x",
            gone_dir.display()
        ))
        .err()
        .unwrap();
        assert!(started.elapsed() < Duration::from_secs(15));
        let _ = std::fs::remove_dir_all(&gone_dir);
        for e in [bad, gone] {
            let text = e.to_string();
            assert!(matches!(e, StoreError::Database(_)), "{e:?}");
            assert!(!text.contains('\n') && !text.contains("s3cret"), "{text}");
        }
    }

    /// The table calls the store from inside its tokio runtime, not only from
    /// `spawn_blocking`: a `PgKv` used and dropped there must not panic.
    #[tokio::test]
    async fn a_store_works_inside_a_tokio_runtime() {
        let b = Pg::fresh("inside_tokio");
        let kv = b.open();
        put(&*kv, MAIN, b"k", b"v");
        assert_eq!(kv.get(MAIN, b"k").unwrap(), Some(b"v".to_vec()));
        drop(kv);
    }

    /// Called from a task of another executor (not tokio's), the store still
    /// answers: it waits for its own runtime without an executor of its own.
    #[test]
    fn a_store_works_inside_another_executor() {
        let b = Pg::fresh("inside_executor");
        let kv = b.open();
        futures::executor::block_on(async {
            put(&*kv, MAIN, b"k", b"v");
            assert_eq!(kv.get(MAIN, b"k").unwrap(), Some(b"v".to_vec()));
        });
    }

    /// A transaction whose closure panics is rolled back, and its connection does
    /// not carry it into the next transaction.
    #[test]
    fn a_panicking_transaction_leaves_nothing_behind() {
        let b = Pg::fresh("panicking_tx");
        let kv = b.open();
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            kv::transaction(&*kv, |tx| -> Result<(), TxError> {
                tx.insert(MAIN, b"half", b"done")?;
                panic!("the closure fails");
            })
        }));
        assert!(panicked.is_err());
        put(&*kv, MAIN, b"next", b"ok");
        assert_eq!(kv.get(MAIN, b"half").unwrap(), None);
        assert_eq!(kv.get(MAIN, b"next").unwrap(), Some(b"ok".to_vec()));
    }
}

/// Without PostgreSQL the tests fail, saying how to install it: they never
/// skip.
#[test]
fn a_missing_postgresql_fails_with_the_command_to_install_it() {
    let missing = std::panic::catch_unwind(|| {
        postgres::binaries_in(std::path::Path::new("/nonexistent/postgresql"))
    });
    let message = *missing.unwrap_err().downcast::<String>().unwrap();
    assert!(
        message.contains("run `apt-get install -y postgresql`"),
        "{message}"
    );
}

/// A typical game commit: the game read back (its version checked), then
/// eight records of about 2 KB written in one transaction.
fn commit_a_game(kv: &dyn Kv, game: u64, step: u64) {
    let record = vec![(step % 251) as u8; 2048];
    kv::transaction(kv, |tx| {
        let key = [b"g".as_slice(), &game.to_be_bytes()].concat();
        tx.get(MAIN, &key)?;
        for part in 0u8..8 {
            let mut key = key.clone();
            key.push(part);
            tx.insert(MAIN, &key, &record)?;
        }
        Ok(())
    })
    .unwrap();
}

/// Median and 99th percentile of `runs` game commits, one after another.
fn commit_figures(kv: &dyn Kv, runs: usize) -> (Duration, Duration) {
    for step in 0..20 {
        commit_a_game(kv, step % 50, step);
    }
    let mut took: Vec<Duration> = (0..runs as u64)
        .map(|step| {
            let started = Instant::now();
            commit_a_game(kv, step % 50, step);
            started.elapsed()
        })
        .collect();
    took.sort();
    (took[runs / 2], took[runs * 99 / 100])
}

/// Figures, run by hand:
/// `cargo test -p tokar-bot --test kv -- --ignored --nocapture commit_latency`
#[test]
#[ignore = "a measurement, run by hand"]
fn commit_latency() {
    const RUNS: usize = 1000;
    let sled = Sled::fresh("commit_latency");
    let pg = Pg::fresh("commit_latency");
    for (name, kv) in [("sled", sled.open()), ("PostgreSQL", pg.open())] {
        let (median, p99) = commit_figures(&*kv, RUNS);
        println!("{name}: {RUNS} game commits (1 read, 8 writes of 2 KB): median {median:?}, p99 {p99:?}");
        // Eight tables' worth of games committed at once, each on its own game.
        let kv: Arc<dyn Kv> = kv.into();
        let started = Instant::now();
        let threads: Vec<_> = (0..8u64)
            .map(|t| {
                let kv = kv.clone();
                std::thread::spawn(move || {
                    for step in 0..RUNS as u64 / 4 {
                        commit_a_game(&*kv, 100 + t, step);
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let per_second = (2 * RUNS) as f64 / started.elapsed().as_secs_f64();
        println!(
            "{name}: 8 threads, {} game commits: {per_second:.0} per second",
            2 * RUNS
        );
    }
}
