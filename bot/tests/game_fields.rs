//! The game record's fields for a game's own pace and its followers (T25, T26) keep loading:
//! `fixtures/format-1-follow.json` holds, as format 1 writes them, an Arcana game in play
//! created with `deadline:2d reminder:6h` and followed by carol. Regenerate (only when the
//! format changes, into a new file) with
//! `cargo test -p tokar-bot --test game_fields -- --ignored write_fixture`.

mod common;
use common::*;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/format-1-follow.json"
);

#[tokio::test]
#[ignore = "writes the fixture; run with --ignored when the format changes"]
async fn write_fixture() {
    let e = env("fields-write").await;
    e.ok("@alice /new game:arcana army:human first:creator opponent:@bob deadline:2d reminder:6h")
        .await;
    e.ok("@bob /accept army:undead").await;
    e.ok("@carol /follow game:1").await;
    let dir = e.dir.clone();
    drop(e);
    let store = open_store(&dir);
    let items = store.dump_game(1).unwrap();
    let json = serde_json::json!({
        "format": 1,
        "items": items.iter().map(|(k, v)| [hex(k), String::from_utf8(v.clone()).unwrap()]).collect::<Vec<_>>(),
    });
    std::fs::write(FIXTURE, serde_json::to_string_pretty(&json).unwrap()).unwrap();
}

#[tokio::test]
async fn a_stored_pace_and_followers_load_and_hold() {
    let items = read_fixture(FIXTURE);
    let dir = fresh_dir("fields-load");
    open_store(&dir).load_dump(&items).unwrap();
    let e = open(&dir, Some(5)).await;
    // The game's own reminder interval (6h, not the 24h default) ...
    e.clock.advance(6 * 3600 * 1000 + 60_000).unwrap();
    let due = e.table.tick().await;
    assert!(
        due.iter()
            .any(|r| r.content.starts_with("Reminder: game #1")),
        "{due:#?}"
    );
    // ... its own deadline (2d) ...
    e.clock.advance(2 * 24 * 3600 * 1000).unwrap();
    let due = e.table.tick().await;
    assert!(
        due.iter().any(|r| r.content.contains("/claim game:1")),
        "{due:#?}"
    );
    // ... and carol, who follows it, pinged at its end.
    let end = e.ok("@bob /claim game:1").await;
    let carol = user("carol").id;
    assert!(
        end.iter().any(|r| r.mentions.iter().any(|m| m.id == carol)),
        "{end:#?}"
    );
}
