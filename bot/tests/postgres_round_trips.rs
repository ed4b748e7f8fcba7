//! Round trips to PostgreSQL per command (issue #34, "the store's speed"):
//! counted by the store (`PgKv::trips`), never timed. The tests start their
//! own PostgreSQL server (`common/postgres.rs`).

mod common;
#[path = "common/postgres.rs"]
mod postgres;

use common::*;
use tokar_bot::storage::postgres::Trips;
use tokar_bot::storage::StoreSettings;

/// The most round trips one `/play` of a running game may make (its reads,
/// and its write with the outbox entries it stores), on connections that
/// prepared their statements already.
const PLAY_TRIPS: u64 = 20;

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
