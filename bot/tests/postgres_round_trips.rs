//! Round trips to PostgreSQL (issue #34, "the store's speed"): counted by
//! the store (`PgKv::trips`), never timed. A transaction's writes go out with
//! its `COMMIT`, and what the server refused among them is never reported
//! stored. The tests start their own PostgreSQL server (`common/postgres.rs`).

mod common;
#[path = "common/postgres.rs"]
mod postgres;

use common::*;
use tokar_bot::storage::kv::{self, Kv, MAIN};
use tokar_bot::storage::postgres::{PgKv, Trips};
use tokar_bot::storage::StoreSettings;

/// The most round trips one `/play` of a running game may make (its reads,
/// and its write with the outbox entries it stores), on connections that
/// prepared their statements already.
const PLAY_TRIPS: u64 = 9;

fn trips(e: &Env) -> Trips {
    e.table
        .store_handle()
        .kv()
        .postgres()
        .expect("a store on PostgreSQL")
        .trips()
}

/// The table on its own multi-thread runtime, as the bot runs it, so that the
/// store's calls take the path they take in production.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_play_makes_a_bounded_number_of_round_trips() {
    let server = postgres::shared("trips");
    let url = server.fresh_store("play");
    let dir = fresh_dir("pg-trips-play");
    let storage = StoreSettings {
        database: Some(url),
        ..Default::default()
    };
    let e = open_with(&dir, Some(7), storage).await;
    let id = e.start("alice", "bob").await;
    // Other games of the same players: a /play reads none of them, so its
    // round trips do not grow with a player's games.
    for _ in 0..5 {
        e.start("alice", "bob").await;
    }
    // The connections prepare their statements on their first use.
    for _ in 0..4 {
        e.play_first(id, &["alice", "bob"]).await;
    }
    let mut per_play = Vec::new();
    for _ in 0..6 {
        let who = e.to_act(id, &["alice", "bob"]).await.expect("someone acts");
        let action = e.actions(who, id).await[0].clone();
        let before = trips(&e);
        e.ok(&format!("@{who} /play game:{id} action:\"{action}\""))
            .await;
        per_play.push(trips(&e) - before);
    }
    println!("round trips of one /play: {per_play:?}");
    // Opened on the table's multi-thread runtime, the store runs on it.
    let store = e.table.store_handle();
    assert!(!store.kv().postgres().unwrap().runs_own_runtime());
    for t in &per_play {
        assert!(t.round_trips >= 1, "{per_play:?}");
        assert!(t.round_trips <= PLAY_TRIPS, "{per_play:?}");
    }
}

/// A store of its own on the binary's server, opened outside any runtime.
fn store(name: &str) -> (postgres::Lease, PgKv) {
    let server = postgres::shared("trips");
    let kv = PgKv::connect(&server.fresh_store(name)).unwrap();
    (server, kv)
}

/// The round trips `f` makes on `kv`.
fn round_trips(kv: &PgKv, f: impl FnOnce()) -> u64 {
    let before = kv.trips();
    f();
    (kv.trips() - before).round_trips
}

#[test]
fn a_transaction_sends_its_writes_with_its_commit_and_reads_its_own_writes() {
    let (_server, kv) = store("writes_at_commit");
    kv::transaction(&kv, |tx| tx.insert(MAIN, b"gone", b"0")).unwrap();
    let trips = round_trips(&kv, || {
        kv::transaction(&kv, |tx| {
            tx.insert(MAIN, b"a", b"1")?;
            tx.insert(MAIN, b"b", b"1")?;
            tx.insert(MAIN, b"b", b"2")?;
            tx.remove(MAIN, b"gone")?;
            tx.insert("leagues", b"a", b"3")?;
            // Answered from the transaction's own writes, not the server.
            assert_eq!(tx.get(MAIN, b"b")?, Some(b"2".to_vec()));
            assert_eq!(tx.get(MAIN, b"gone")?, None);
            Ok(())
        })
        .unwrap()
    });
    assert_eq!(trips, 1, "writes, BEGIN and COMMIT in one round trip");
    assert_eq!(kv.get(MAIN, b"a").unwrap(), Some(b"1".to_vec()));
    assert_eq!(kv.get(MAIN, b"b").unwrap(), Some(b"2".to_vec()));
    assert_eq!(kv.get(MAIN, b"gone").unwrap(), None);
    assert_eq!(kv.get("leagues", b"a").unwrap(), Some(b"3".to_vec()));
    // A read the closure needs is a round trip (BEGIN goes with it), and the
    // writes still go with COMMIT.
    let trips = round_trips(&kv, || {
        kv::transaction(&kv, |tx| {
            let n = tx.get(MAIN, b"a")?.unwrap();
            tx.insert(MAIN, b"a", &[n[0] + 1])
        })
        .unwrap()
    });
    assert_eq!(trips, 2);
    assert_eq!(kv.get(MAIN, b"a").unwrap(), Some(b"2".to_vec()));
    // A transaction that does nothing sends nothing.
    assert_eq!(
        round_trips(&kv, || kv::transaction(&kv, |_| Ok(())).unwrap()),
        0
    );
    // Writes of a closure that gives up are never sent.
    let trips = round_trips(&kv, || {
        let refused = kv::transaction(&kv, |tx| {
            tx.insert(MAIN, b"a", b"9")?;
            Err::<(), _>(kv::TxError::Abort(tokar_bot::storage::StoreError::Stale))
        });
        assert!(refused.is_err());
    });
    assert_eq!(trips, 0);
    assert_eq!(kv.get(MAIN, b"a").unwrap(), Some(b"2".to_vec()));
}

/// PostgreSQL answers the `COMMIT` of a transaction that a pipelined write
/// broke with a rollback, not an error: the store must still report the
/// failure, and nothing of the transaction is kept.
#[test]
fn a_write_refused_beside_its_commit_fails_the_transaction_and_keeps_nothing() {
    let server = postgres::shared("trips");
    let url = server.fresh_store("refused_write");
    let kv = PgKv::connect(&url).unwrap();
    server.psql_in_store(
        "refused_write",
        "CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN \
           IF NEW.key = '\\x706f69736f6e'::bytea THEN RAISE EXCEPTION 'refused'; END IF; \
           RETURN NEW; END $$ LANGUAGE plpgsql; \
         CREATE TRIGGER refuse BEFORE INSERT OR UPDATE ON tokar_kv \
           FOR EACH ROW EXECUTE FUNCTION refuse();",
    );
    let trips = round_trips(&kv, || {
        let refused = kv::transaction(&kv, |tx| {
            tx.insert(MAIN, b"fine", b"1")?;
            tx.insert(MAIN, b"poison", b"2")
        });
        let e = refused.expect_err("a refused write is not stored");
        assert!(e.to_string().contains("refused"), "{e}");
        assert!(!e.to_string().contains('\n'), "{e}");
    });
    assert_eq!(trips, 1);
    assert_eq!(kv.get(MAIN, b"fine").unwrap(), None);
    assert_eq!(kv.get(MAIN, b"poison").unwrap(), None);
    // The connection is fit for the next transaction.
    kv::transaction(&kv, |tx| tx.insert(MAIN, b"fine", b"2")).unwrap();
    assert_eq!(kv.get(MAIN, b"fine").unwrap(), Some(b"2".to_vec()));
}

/// Numbers asked for ahead (`KvTx::expect`) go out with the transaction's
/// next read: the ids and the generation a game's write takes cost no round
/// trip of their own, and stay unique and growing.
#[test]
fn numbers_asked_for_ahead_travel_with_the_next_read() {
    let (_server, kv) = store("asked_ahead");
    kv::transaction(&kv, |tx| tx.insert(MAIN, b"game", b"1")).unwrap();
    let first_id = kv::transaction(&kv, |tx| tx.generate_id()).unwrap();
    let generation = kv.generation().unwrap();
    let mut taken = (Vec::new(), 0);
    let trips = round_trips(&kv, || {
        taken = kv::transaction(&kv, |tx| {
            tx.expect(3, true);
            let game = tx.get(MAIN, b"game")?;
            assert_eq!(game, Some(b"1".to_vec()));
            let ids = (0..3)
                .map(|_| tx.generate_id())
                .collect::<Result<Vec<_>, _>>()?;
            tx.insert(MAIN, b"game", b"2")?;
            Ok((ids, tx.bump_generation()?))
        })
        .unwrap()
    });
    assert_eq!(
        trips, 2,
        "the read with its asks, then the writes with COMMIT"
    );
    let (ids, bumped) = taken;
    assert!(
        ids[0] > first_id && ids[0] < ids[1] && ids[1] < ids[2],
        "{ids:?}"
    );
    assert!(bumped > generation);
    assert!(kv.generation().unwrap() >= bumped);
    // A number asked for beyond those taken is asked of the server again.
    let more = kv::transaction(&kv, |tx| {
        tx.expect(1, false);
        tx.get(MAIN, b"game")?;
        Ok((tx.generate_id()?, tx.generate_id()?))
    })
    .unwrap();
    assert!(ids[2] < more.0 && more.0 < more.1, "{more:?}");
    assert_eq!(kv.get(MAIN, b"game").unwrap(), Some(b"2".to_vec()));
}

/// Several keys read in one round trip, answered in the order asked, an
/// absent key as `None`.
#[test]
fn several_keys_are_read_in_one_round_trip() {
    let (_server, kv) = store("get_many");
    kv::transaction(&kv, |tx| {
        tx.insert(MAIN, b"a", b"1")?;
        tx.insert(MAIN, b"c", b"3")?;
        tx.insert("leagues", b"b", b"other keyspace")
    })
    .unwrap();
    let keys = [b"c".to_vec(), b"b".to_vec(), b"a".to_vec(), b"c".to_vec()];
    let mut got = Vec::new();
    let trips = round_trips(&kv, || got = kv.get_many(MAIN, &keys).unwrap());
    assert_eq!(trips, 1);
    assert_eq!(
        got,
        vec![
            Some(b"3".to_vec()),
            None,
            Some(b"1".to_vec()),
            Some(b"3".to_vec())
        ]
    );
    assert_eq!(
        round_trips(&kv, || assert!(kv.get_many(MAIN, &[]).unwrap().is_empty())),
        0
    );
}
