//! Games stored before the game's generator became ChaCha20 (record format 1, SplitMix64
//! seeds) replay exactly: `fixtures/format-1-dice.json` holds an Arachne, a Magic Chess and a
//! Gladiator game in progress as format 1 wrote them (dice thrown, hands dealt), with each
//! game's board as that build showed it. Regenerate it never: it is what an old build wrote.
//! (`cargo test -p tokar-bot --test seed_replay -- --ignored write_dice_fixture` wrote it.)

mod common;
use common::*;
use tokar_bot::record::decode_game;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/format-1-dice.json"
);

/// The games of the fixture: (number, kind slug, its two players).
const GAMES: [(u64, &str, &[&str]); 3] = [
    (1, "arachne", &["alice", "bob"]),
    (2, "magic-chess", &["carol", "dave", "erin", "frank"]),
    (3, "gladiator", &["gina", "hal"]),
];

/// Not a check: writes the fixture (it was run once, by the build that wrote format 1).
#[tokio::test]
#[ignore = "writes the fixture; the format-1 fixture must never be rewritten"]
async fn write_dice_fixture() {
    let e = env("seed-fixture-write").await;
    let mut boards = serde_json::Map::new();
    for (id, kind, players) in GAMES {
        let a = players[0];
        let mut line = format!("@{a} /new game:{kind}");
        line.push_str(&opponents(&players[1..]));
        e.ok(&line).await;
        for p in &players[1..] {
            e.ok(&format!("@{p} /accept game:{id}")).await;
        }
        for _ in 0..12 {
            e.play_first(id, players).await;
        }
        let board = e.ok(&format!("@{a} /board game:{id}")).await;
        boards.insert(id.to_string(), board[0].content.clone().into());
    }
    let dir = e.dir.clone();
    drop(e);
    let store = open_store(&dir);
    let mut items = Vec::new();
    for (id, _, players) in GAMES {
        items.extend(store.dump_game(id).unwrap());
        for p in players {
            items.extend(store.dump_user(user(p).id).unwrap());
        }
    }
    let json = serde_json::json!({
        "format": 1,
        "boards": boards,
        "items": items.iter().map(|(k, v)| [hex(k), String::from_utf8(v.clone()).unwrap()]).collect::<Vec<_>>(),
    });
    std::fs::write(FIXTURE, serde_json::to_string_pretty(&json).unwrap()).unwrap();
}

/// Each game of the fixture, loaded as format 1 stored it, replays from its SplitMix64
/// seed and log to exactly the engine state (dice, hands, draw pile, generator) that the
/// old build stored, and the table shows the board that build showed.
#[tokio::test]
async fn format_1_dice_games_replay_exactly() {
    let fixture: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(FIXTURE).unwrap()).unwrap();
    let items = read_fixture(FIXTURE);
    let dir = fresh_dir("seed-fixture-1");
    {
        let store = open_store(&dir);
        store.load_dump(&items).unwrap();
        for (id, _, _) in GAMES {
            let rec = store.game(id).unwrap().expect("stored");
            let bytes = store.game_bytes(id).unwrap().unwrap();
            assert_eq!(decode_game(&bytes).unwrap().format, 1);
            assert!(matches!(rec.seed, tokar_engine::Seed::SplitMix64(_)));
            let log = store.log(id).unwrap();
            assert_eq!(log.len(), 12);
            let replayed = tokar_bot::table::replay(&rec, &log).unwrap();
            let stored: serde_json::Value =
                serde_json::from_str(rec.snapshot.as_deref().unwrap()).unwrap();
            assert_eq!(
                serde_json::to_value(&replayed).unwrap(),
                stored,
                "game #{id} replays to the stored state"
            );
        }
    }
    let e = open(&dir, Some(5)).await;
    for (id, _, players) in GAMES {
        let board = e.ok(&format!("@{} /board game:{id}", players[0])).await;
        assert_eq!(
            board[0].content,
            fixture["boards"][id.to_string()].as_str().unwrap(),
            "game #{id}"
        );
    }
}

/// A format-1 game (a SplitMix64 seed, which the old derivation made computable) gets a
/// ChaCha20 key of its own at its next action, recorded as a rekey: the position and the
/// dice already shown stand, the game still replays exactly (after a restart too), and its
/// finished record carries the rekey (`+12~chacha20:…`) and replays.
#[tokio::test]
async fn format_1_games_get_a_new_key_at_their_next_action() {
    let items = read_fixture(FIXTURE);
    let dir = fresh_dir("seed-fixture-rekey");
    open_store(&dir).load_dump(&items).unwrap();
    // As in production: keys from the operating system.
    let e = open(&dir, None).await;
    for (id, _, players) in GAMES {
        e.play_first(id, players).await;
    }
    drop(e);
    let store = open_store(&dir);
    for (id, _, _) in GAMES {
        let rec = store.game(id).unwrap().unwrap();
        let rekeys: Vec<_> = rec
            .reseeds
            .iter()
            .filter(|r| r.kind == tokar_bot::record::ReseedKind::Rekey)
            .collect();
        assert_eq!(rekeys.len(), 1, "game #{id}: {:?}", rec.reseeds);
        assert_eq!(rekeys[0].after, 12, "game #{id}: before its 13th action");
        assert!(matches!(rekeys[0].seed, tokar_engine::Seed::ChaCha20(_)));
        assert_eq!(rec.record_actions(), 0, "game #{id}: a rekey is no record");
        let bytes = store.game_bytes(id).unwrap().unwrap();
        assert_eq!(decode_game(&bytes).unwrap().format, 2, "game #{id}");
        let log = store.log(id).unwrap();
        let replayed = tokar_bot::table::replay(&rec, &log).unwrap();
        assert!(replayed.chance_is_strong(), "game #{id}");
        let stored: serde_json::Value =
            serde_json::from_str(rec.snapshot.as_deref().unwrap()).unwrap();
        assert_eq!(
            serde_json::to_value(&replayed).unwrap(),
            stored,
            "game #{id}"
        );
        // Without the rekey the log does not replay to the stored game.
        let without = tokar_bot::record::GameRecord {
            reseeds: Vec::new(),
            ..rec.clone()
        };
        let old = tokar_bot::table::replay(&without, &log).unwrap();
        assert!(!old.chance_is_strong(), "game #{id}");
    }
    drop(store);
    // A later action adds no second rekey; the finished game's record replays.
    let e = open(&dir, None).await;
    let (id, _, players) = GAMES[0];
    e.play_first(id, players).await;
    e.ok(&format!("@{} /resign game:{id} confirm:yes", players[0]))
        .await;
    let record = exported_record(&e.ok(&format!("@{} /export game:{id}", players[1])).await[0]);
    assert!(record.contains("+12~chacha20:"), "{record}");
    let copy = e
        .ok(&format!(
            "@{} /new record:\"{record}\" opponent:@{}",
            players[0], players[1]
        ))
        .await;
    assert!(
        copy[0].ok,
        "a record with a rekey replays: {}",
        copy[0].content
    );
    drop(e);
    let rec = open_store(&dir).game(id).unwrap().unwrap();
    assert_eq!(rec.reseeds.len(), 1, "{:?}", rec.reseeds);
}
