//! Events (issue #36) in the store: the record of format 1 reads from its
//! fixture, and is written whole, compare-and-swapped on its version, with
//! its games' index and its announcements in one transaction, on sled and on
//! PostgreSQL alike; `tokar check` reads the events keyspace. The PostgreSQL
//! half starts its own server (`common/postgres.rs`).

mod common;
#[path = "common/postgres.rs"]
mod postgres;

use common::*;
use std::time::Duration;
use tokar_bot::storage::{Store, StoreError, StoreSettings};
use tokar_bot::{ChannelRef, Reply};
use tokar_model::event::{decode_event, EventPhase, EventRecord, EventStyle, Place};
use tokar_model::outbox::OutboxEntry;

const FIXTURE_1: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/event-1.json");

fn fixture() -> EventRecord {
    decode_event(&std::fs::read(FIXTURE_1).unwrap()).unwrap()
}

#[test]
fn an_event_of_format_1_reads_from_its_fixture() {
    let rec = fixture();
    assert_eq!(rec.format, 1);
    assert_eq!(rec.style, EventStyle::Swiss { rounds: 3 });
    assert_eq!(rec.phase, EventPhase::Playing);
    assert_eq!(rec.players.len(), 3);
    assert_eq!(rec.player_of(604165), Some(1));
    assert_eq!(rec.place_of(14), Some(Place::Swiss { round: 1, board: 0 }));
    assert!(rec.withdrawn_at(2, 2) && !rec.withdrawn_at(2, 1));
    assert_eq!(rec.rounds[0].bye, Some(2));
}

/// What an event write is asked to announce.
fn announcement(text: &str) -> tokar_model::outbox::NewEntry {
    let channel = ChannelRef {
        id: 5811358,
        name: "events".into(),
        guild: None,
        parent: None,
        threads: Default::default(),
    };
    OutboxEntry::from_reply(&Reply::public(&channel, text), None, 1_000)
}

/// The whole life of one event record in `store`.
fn exercise(store: &Store) {
    assert_eq!(store.next_event_id().unwrap(), 1);
    assert_eq!(store.next_event_id().unwrap(), 2);
    assert!(store.event(2).unwrap().is_none());
    assert!(store.events().unwrap().is_empty());
    let queued = store.outbox_len();

    let rec = fixture();
    let ids = store
        .put_event(&rec, None, &[announcement("Round 2 is paired.")])
        .unwrap();
    assert_eq!(ids.len(), 1);
    let stored = store.event(2).unwrap().unwrap();
    assert_eq!(stored.version, 0);
    assert_eq!(
        EventRecord {
            version: 3,
            ..stored.clone()
        },
        rec
    );
    assert_eq!(store.event_of_game(11).unwrap(), Some(2));
    assert_eq!(store.event_of_game(14).unwrap(), Some(2));
    assert_eq!(store.event_of_game(12).unwrap(), None);

    // A write that expects another version changes nothing and stores no announcement.
    for expected in [None, Some(1)] {
        let stale = store.put_event(&stored, expected, &[announcement("never")]);
        assert!(matches!(stale, Err(StoreError::Stale)), "{stale:?}");
    }
    let mut next = stored.clone();
    next.phase = EventPhase::Finished;
    next.winners = vec![0];
    store.put_event(&next, Some(0), &[]).unwrap();
    let finished = store.event(2).unwrap().unwrap();
    assert_eq!(finished.version, 1);
    assert_eq!(finished.phase, EventPhase::Finished);
    assert_eq!(store.events().unwrap(), vec![finished]);
    assert_eq!(store.outbox_len(), queued + 1);
}

#[test]
fn an_event_is_written_whole_on_sled() {
    let dir = fresh_dir("events-sled");
    let store = Store::open_with(&dir, &StoreSettings::default()).unwrap();
    exercise(&store);
    drop(store);
    // `tokar check` knows the events keyspace.
    let report =
        tokar_bot::check::check_store(&dir, &StoreSettings::default(), Duration::from_secs(30))
            .unwrap();
    assert!(report.problems.is_empty(), "{report:?}");
}

#[test]
fn an_event_is_written_whole_on_postgres() {
    let server = postgres::shared("events");
    let settings = StoreSettings {
        database: Some(server.fresh_store("events")),
        ..Default::default()
    };
    let dir = fresh_dir("events-pg");
    let store = Store::open_with(&dir, &settings).unwrap();
    exercise(&store);
    drop(store);
    let report = tokar_bot::check::check_store(&dir, &settings, Duration::from_secs(30)).unwrap();
    assert!(report.problems.is_empty(), "{report:?}");
}
