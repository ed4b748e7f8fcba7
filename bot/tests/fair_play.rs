//! Ruling T13 (docs/rulings.md): a record's seed serves only to replay the
//! actions it carries. From the first action not in it, the game's chance
//! comes from a secret seed, and what the record's seed already decided but
//! nobody was shown (Magic Chess's hands and draw pile, an Arachne turn's
//! dice) is drawn again. The game still replays exactly.

mod common;
use common::*;
use serde_json::Value;
use tokar_bot::record::{GameRecord, LogEntry};
use tokar_engine::catalog::{AnyGame, GameKind, Options};

/// The seed a record's maker chose, knowing what it deals and throws.
const RECORD_SEED: u64 = 12345;

/// A record made by someone who knows its seed: the first `n` legal actions
/// from the setup of `kind` under [`RECORD_SEED`], and the game its maker
/// expects after them.
fn crafted(kind: GameKind, options: &str, n: usize) -> (String, AnyGame) {
    let mut opts = Options::new();
    for kv in options.split(',').filter(|kv| !kv.is_empty()) {
        let (k, v) = kv.split_once('=').unwrap();
        opts.insert(k.into(), v.into());
    }
    let mut game = AnyGame::setup(kind, &opts, RECORD_SEED).unwrap();
    let mut record = format!("tokar1|{}|{options}|seed={RECORD_SEED}", kind.slug());
    for _ in 0..n {
        let seat = game.to_act()[0];
        let action = game.legal_actions(seat)[0].clone();
        game.play(seat, &action).unwrap();
        record.push_str(&format!("|{}:{action}", seat.0));
    }
    (record, game)
}

/// Game #1 as stored in `dir`: its record, log and engine state.
fn stored(dir: &std::path::Path) -> (GameRecord, Vec<LogEntry>, Value) {
    let store = open_store(dir);
    let rec = store.game(1).unwrap().expect("game #1 is stored");
    let log = store.log(1).unwrap();
    let state = serde_json::from_str(rec.snapshot.as_deref().expect("a started game")).unwrap();
    (rec, log, state)
}

/// Starts game #1 from `record` in a fresh folder with a table seeded from
/// the system (as in production) among `players`; returns the folder and the
/// invitation's text.
async fn start_from(name: &str, record: &str, players: &[&str]) -> (std::path::PathBuf, String) {
    let e = open(&fresh_dir(name), None).await;
    let mut line = format!("@{} /new record:\"{record}\"", players[0]);
    line.push_str(&opponents(&players[1..]));
    let invitation = e.ok(&line).await[0].content.clone();
    for p in &players[1..] {
        e.ok(&format!("@{p} /accept game:1")).await;
    }
    let dir = e.dir.clone();
    drop(e);
    (dir, invitation)
}

fn json(game: &AnyGame) -> Value {
    serde_json::to_value(game).unwrap()
}

/// Every card in the hands and the draw pile, sorted.
fn cards(state: &Value) -> Vec<String> {
    let mut all: Vec<String> = state["hands"]
        .as_array()
        .unwrap()
        .iter()
        .chain([&state["draw_pile"]])
        .flat_map(|h| h.as_array().unwrap().iter().map(|c| c.to_string()))
        .collect();
    all.sort();
    all
}

const FOUR: [&str; 4] = ["alice", "bob", "carol", "dave"];

#[tokio::test]
async fn a_record_cannot_choose_the_cards_that_follow_it() {
    let (record, expected) = crafted(GameKind::MagicChess, "", 3);
    let expected = json(&expected)["state"].clone();
    let (dir_a, invitation) = start_from("fair-magic-a", &record, &FOUR).await;
    assert!(
        invitation.contains("starts from a record, after its 3 actions"),
        "{invitation}"
    );
    let (dir_b, _) = start_from("fair-magic-b", &record, &FOUR).await;
    let (rec_a, log_a, a) = stored(&dir_a);
    let (_, _, b) = stored(&dir_b);
    let a = a["state"].clone();
    let b = b["state"].clone();
    assert_eq!(log_a.len(), 3, "the record's actions were replayed");
    assert_eq!(
        rec_a.seed,
        tokar_engine::Seed::SplitMix64(RECORD_SEED),
        "its actions replay with its seed"
    );
    assert_eq!(
        a["cells"], expected["cells"],
        "the position is the record's"
    );
    assert_eq!(cards(&a), cards(&expected), "the same cards, dealt again");
    for (x, y) in a["hands"]
        .as_array()
        .unwrap()
        .iter()
        .zip(expected["hands"].as_array().unwrap())
    {
        assert_eq!(x.as_array().unwrap().len(), y.as_array().unwrap().len());
    }
    let deal = |s: &Value| (s["hands"].clone(), s["draw_pile"].clone());
    assert_ne!(deal(&a), deal(&expected), "the maker knows no hand");
    assert_ne!(deal(&a), deal(&b), "each table deals its own");
    assert_ne!(a["rng"], expected["rng"], "nor the later draws");

    // After a restart the game is what it was, and its log replays to it.
    let e = open(&dir_a, None).await;
    let before = e.ok("@alice /hand game:1").await[0].content.clone();
    drop(e);
    let (rec, log, state) = stored(&dir_a);
    let replayed = tokar_bot::table::replay(&rec, &log).unwrap();
    assert_eq!(json(&replayed), state, "the log replays exactly");
    let without = GameRecord {
        reseeds: Vec::new(),
        ..rec.clone()
    };
    assert_ne!(
        json(&tokar_bot::table::replay(&without, &log).unwrap()),
        state,
        "the change of seed is what the replay follows"
    );
    let e = open(&dir_a, None).await;
    assert_eq!(e.ok("@alice /hand game:1").await[0].content, before);
    let who = e.to_act(1, &FOUR).await.expect("someone is to act");
    let action = e.actions(who, 1).await[0].clone();
    e.ok(&format!("@{who} /play game:1 action:\"{action}\""))
        .await;
    drop(e);
    let (rec, log, state) = stored(&dir_a);
    assert_eq!(log.len(), 4);
    assert_eq!(json(&tokar_bot::table::replay(&rec, &log).unwrap()), state);
}

#[tokio::test]
async fn a_record_cannot_choose_the_dice_that_follow_it() {
    for (kind, name) in [
        (GameKind::Arachne, "arachne"),
        (GameKind::Gladiator, "gladiator"),
    ] {
        let (record, expected) = crafted(kind, "", 2);
        let expected = json(&expected)["state"].clone();
        let (dir_a, _) = start_from(&format!("fair-{name}-a"), &record, &["alice", "bob"]).await;
        let (dir_b, _) = start_from(&format!("fair-{name}-b"), &record, &["alice", "bob"]).await;
        let (rec, log, a) = stored(&dir_a);
        let (_, _, b) = stored(&dir_b);
        assert_eq!(log.len(), 2);
        assert_eq!(rec.reseeds.len(), 1);
        assert_eq!(rec.reseeds[0].after, 2);
        assert_ne!(
            a["state"]["rng"], expected["rng"],
            "{name}: the maker knows no die"
        );
        assert_ne!(
            a["state"]["rng"], b["state"]["rng"],
            "{name}: each table throws its own"
        );
        assert_eq!(
            json(&tokar_bot::table::replay(&rec, &log).unwrap()),
            a,
            "{name}: the log replays exactly"
        );
    }
}

#[tokio::test]
async fn a_record_without_actions_lends_the_game_nothing_but_its_options() {
    let (record, expected) = crafted(GameKind::MagicChess, "freeze-cards=12", 0);
    let (dir, invitation) = start_from("fair-empty", &record, &FOUR).await;
    assert!(!invitation.contains("starts from a record"), "{invitation}");
    let (rec, log, state) = stored(&dir);
    assert!(log.is_empty());
    assert_ne!(
        rec.seed,
        tokar_engine::Seed::SplitMix64(RECORD_SEED),
        "a fresh seed from the first deal"
    );
    assert!(rec.reseeds.is_empty());
    assert_eq!(
        rec.options.get("freeze-cards").map(String::as_str),
        Some("12")
    );
    let expected = json(&expected)["state"].clone();
    assert_ne!(state["state"]["hands"], expected["hands"]);
}

#[tokio::test]
async fn an_undo_does_not_reach_into_the_record() {
    let (record, _) = crafted(
        GameKind::Arcana,
        "army.0=human,army.1=undead,first=creator",
        2,
    );
    let e = env("fair-undo").await;
    e.ok(&format!("@alice /new record:\"{record}\" opponent:@bob"))
        .await;
    e.ok("@bob /accept").await;
    // The record's last action is bob's seat's: before the rule it could
    // be taken back, with the record's seed behind it.
    let why = e.refused("@bob /undo").await;
    assert!(
        why.contains("started from a record after its 2 actions"),
        "{why}"
    );
    // An action of the game itself can be.
    let a = e.actions("alice", 1).await[0].clone();
    e.ok(&format!("@alice /play action:\"{a}\"")).await;
    e.ok("@alice /undo").await;
}
