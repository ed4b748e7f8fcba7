//! The store counts the rating the table gives with the write that ends a game, once, and
//! works nothing out itself: it replays no game (the table assesses the game from its whole
//! log and passes the result in `GameWrite::rated`).

use std::path::PathBuf;
use tokar_model::rating::records::{RatedGame, GLOBAL, RATINGS_FORMAT};
use tokar_model::rating::{Placing, Score};
use tokar_model::record::{decode_game, GameRecord, Phase};
use tokar_store::{GameWrite, Store};

/// A fresh, empty data folder of this test's own.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tokar-store-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The Arcana game of `format-1.json` (alice against bob, six actions in), as finished and
/// rated, numbered `id`. Its log entries are not stored: a store that replayed the game to
/// rate it could not.
fn finished(id: u64) -> GameRecord {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/format-1.json"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let value = json["items"][0][1].as_str().unwrap();
    let mut rec = decode_game(value.as_bytes()).unwrap();
    rec.id = id;
    rec.phase = Phase::Finished;
    rec.rated = Some(true);
    rec
}

fn write(rec: &GameRecord, rated: Option<RatedGame>) -> GameWrite {
    GameWrite {
        expected: None,
        record: rec.clone(),
        append: Vec::new(),
        truncate_from: None,
        outbox: Vec::new(),
        rated,
    }
}

fn alice_beats_bob(rec: &GameRecord) -> RatedGame {
    let (alice, bob) = (rec.members[0].user.id, rec.members[1].user.id);
    RatedGame {
        v: RATINGS_FORMAT,
        game: rec.id,
        kind: rec.kind,
        at: 1_767_300_000_000,
        guild: None,
        placings: vec![
            Placing {
                user: alice,
                team: 0,
                place: 1,
                score: Score::Win,
            },
            Placing {
                user: bob,
                team: 1,
                place: 2,
                score: Score::Loss,
            },
        ],
    }
}

#[test]
fn a_finishing_write_counts_the_rating_it_is_given_and_replays_nothing() {
    let store = Store::open(&fresh_dir("given")).unwrap();
    let rec = finished(1);
    let alice = rec.members[0].user.id;
    store
        .commit(&write(&rec, Some(alice_beats_bob(&rec))))
        .unwrap();
    assert_eq!(store.rated_game(1).unwrap(), Some(alice_beats_bob(&rec)));
    let standing = store.standing(rec.kind, GLOBAL, alice).unwrap().unwrap();
    assert_eq!((standing.games, standing.wins), (1, 1));
}

#[test]
fn without_a_rating_a_finished_rated_game_is_not_counted() {
    let store = Store::open(&fresh_dir("none")).unwrap();
    let rec = finished(1);
    store.commit(&write(&rec, None)).unwrap();
    assert_eq!(store.rated_game(1).unwrap(), None);
    assert_eq!(
        store
            .standing(rec.kind, GLOBAL, rec.members[0].user.id)
            .unwrap(),
        None
    );
}

#[test]
fn a_game_is_counted_once_and_only_by_the_write_that_finishes_it() {
    let store = Store::open(&fresh_dir("once")).unwrap();
    let rec = finished(1);
    let alice = rec.members[0].user.id;
    store
        .commit(&write(&rec, Some(alice_beats_bob(&rec))))
        .unwrap();
    // A later write to the finished game, even one that carries a rating, counts nothing.
    let mut again = write(&rec, Some(alice_beats_bob(&rec)));
    again.expected = Some(0);
    store.commit(&again).unwrap();
    let standing = store.standing(rec.kind, GLOBAL, alice).unwrap().unwrap();
    assert_eq!(standing.games, 1);
    // A rating given for another game than the one written is not counted.
    let other = finished(2);
    store
        .commit(&write(&other, Some(alice_beats_bob(&rec))))
        .unwrap();
    assert_eq!(store.rated_game(2).unwrap(), None);
    assert_eq!(
        store
            .standing(rec.kind, GLOBAL, alice)
            .unwrap()
            .unwrap()
            .games,
        1
    );
}
