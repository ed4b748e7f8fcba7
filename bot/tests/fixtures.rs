//! Every stored format must keep loading. `fixtures/format-1.json` holds the
//! raw keys and values of an Arcana game in progress (and its players'
//! records) as format 1 wrote them. Regenerate (only when adding a format,
//! into a new file) with `cargo test -p tokar-bot --test fixtures -- --ignored write_fixture`.

mod common;
use common::*;
use tokar_bot::record::{decode_game, encode};

const FIXTURE_1: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/format-1.json");

async fn loaded(name: &str, items: &[(Vec<u8>, Vec<u8>)]) -> Env {
    let dir = fresh_dir(name);
    {
        let store = open_store(&dir);
        store.load_dump(items).unwrap();
    }
    open(&dir, Some(5)).await
}

/// Not a check: writes `format-1.json`. Run it only when the format changes
/// (into a new file for the new format; the old fixture stays).
#[tokio::test]
#[ignore = "writes the fixture; run with --ignored when adding a format"]
async fn write_fixture() {
    let e = env("fixture-write").await;
    e.ok("@alice /new game:arcana army:human first:creator opponent:@bob")
        .await;
    e.ok("@bob /accept army:undead").await;
    for _ in 0..6 {
        let who = e.to_act(1, &["alice", "bob"]).await.unwrap();
        let a = e.actions(who, 1).await[0].clone();
        e.ok(&format!("@{who} /play action:\"{a}\"")).await;
    }
    e.ok("@bob /settings reminder:12h").await;
    let dir = e.dir.clone();
    drop(e);
    let store = open_store(&dir);
    let mut items = store.dump_game(1).unwrap();
    items.extend(store.dump_user(user("alice").id).unwrap());
    items.extend(store.dump_user(user("bob").id).unwrap());
    let json = serde_json::json!({
        "format": 1,
        "items": items.iter().map(|(k, v)| [hex(k), String::from_utf8(v.clone()).unwrap()]).collect::<Vec<_>>(),
    });
    std::fs::write(FIXTURE_1, serde_json::to_string_pretty(&json).unwrap()).unwrap();
}

#[tokio::test]
async fn format_1_loads_and_plays_on() {
    let items = read_fixture(FIXTURE_1);
    let e = loaded("fixture-1", &items).await;
    let h = e.ok("@alice /history game:1").await;
    assert!(h[0].content.contains("\n6. "), "{}", h[0].content);
    let s = e.ok("@bob /settings").await;
    assert!(s[0].content.contains("every 12h"), "{}", s[0].content);
    let who = e
        .to_act(1, &["alice", "bob"])
        .await
        .expect("someone is to act");
    let a = e.actions(who, 1).await[0].clone();
    e.ok(&format!("@{who} /play action:\"{a}\"")).await;
    let h = e.ok("@alice /history game:1").await;
    assert!(h[0].content.contains("\n7. "), "{}", h[0].content);
    // The next game number follows the loaded one.
    let r = e.ok("@carol /new game:arcana opponent:@dave").await;
    assert!(r[0].content.contains("#2"), "{}", r[0].content);
}

#[tokio::test]
async fn an_unreadable_snapshot_is_rebuilt_from_the_log() {
    let mut items = read_fixture(FIXTURE_1);
    let good = loaded("fixture-good", &items).await;
    let expected = good.ok("@alice /board game:1").await[0].content.clone();
    drop(good);
    for (k, v) in items.iter_mut() {
        if k[0] == b'g' {
            let mut rec = decode_game(v).unwrap();
            rec.snapshot = Some("{\"kind\":\"Arcana\",\"state\":\"from an older engine\"}".into());
            *v = encode(&rec);
        }
    }
    let e = loaded("fixture-broken", &items).await;
    let board = e.ok("@alice /board game:1").await;
    assert_eq!(board[0].content, expected);
}

#[tokio::test]
async fn an_unknown_format_is_refused_not_guessed() {
    let mut items = read_fixture(FIXTURE_1);
    for (k, v) in items.iter_mut() {
        if k[0] == b'g' {
            let s =
                String::from_utf8(v.clone())
                    .unwrap()
                    .replacen("\"format\":1", "\"format\":99", 1);
            *v = s.into_bytes();
        }
    }
    let dir = fresh_dir("fixture-99");
    let store = open_store(&dir);
    assert!(store.load_dump(&items).is_err());
}

/// Ruling U12 (engine/rules/arcana.md): a new Arcana game is marked with the
/// current edition of the rulings, and a record made without the mark plays
/// by the first, under which an Undead Arcana Zombie's bite on c4 with an
/// empty graveyard raised nothing and the Human moved next.
#[tokio::test]
async fn arcana_games_keep_the_edition_of_the_rulings_they_began_with() {
    let dir = fresh_dir("fixture-rulings-new");
    {
        let e = open(&dir, Some(5)).await;
        e.ok("@alice /new game:arcana army:undead-arcana first:creator opponent:@bob")
            .await;
        e.ok("@bob /accept army:human").await;
    }
    let store = open_store(&dir);
    let rec = store.game(1).unwrap().expect("game #1 is stored");
    assert_eq!(
        rec.options.get("rulings"),
        Some(&tokar_engine::arcana::RULINGS.to_string())
    );
    drop(store);
    let e = env("fixture-rulings-record").await;
    let record = "tokar1|arcana|army.0=undead-arcana,army.1=human,first=creator|seed=1|0:b2-b3|1:c7-c6|0:b3-b4|1:c6-c5|0:b1-b3|1:c5-c4|0:b3-c4|1:d7-d6";
    e.ok(&format!("@alice /new record:\"{record}\" opponent:@bob"))
        .await;
    e.ok("@bob /accept").await;
    let h = e.ok("@alice /history game:1").await;
    assert!(h[0].content.contains("\n8. "), "{}", h[0].content);
}

/// A game remembers the server it was created on; games stored before the
/// field existed load without one.
#[tokio::test]
async fn a_game_remembers_its_server() {
    let items = read_fixture(FIXTURE_1);
    let dir = fresh_dir("fixture-guild");
    {
        let store = open_store(&dir);
        store.load_dump(&items).unwrap();
    }
    let e = open(&dir, Some(5)).await;
    let mut req = request("@carol /new game:arcana opponent:@dave");
    req.channel.guild = Some(42);
    e.table.remember_user(&user("dave")).await.unwrap();
    let r = e.table.handle(req).await;
    assert!(r[0].ok, "{}", r[0].content);
    drop(e);
    let store = open_store(&dir);
    assert_eq!(store.game(1).unwrap().unwrap().guild, None, "the old game");
    assert_eq!(
        store.game(2).unwrap().unwrap().guild,
        Some(42),
        "the new one"
    );
}

/// Outbox entry format 3: a message whose first request may have reached Discord (its answer
/// was lost), stored with when that request was made, so that after Discord's nonce window it
/// is looked for in its channel before it is sent again.
#[test]
fn outbox_format_3_fixture_loads() {
    use tokar_bot::outbox::{decode_entry, Target};
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/outbox-3.json"
    ))
    .unwrap();
    let e = decode_entry(&bytes).unwrap();
    assert_eq!(e.format, 3);
    assert_eq!(e.id, 17);
    assert!(matches!(&e.target, Target::Channel(c) if c.id == 5_811_358));
    assert_eq!(e.attempts, 2);
    assert_eq!(e.unknown_since(), Some(1_795_824_000_000));
    let s = e.sending.as_ref().expect("the request under way");
    assert_eq!((s.part, s.since), (0, 1_795_824_000_000));
    assert_eq!(
        e.buttons,
        vec![("tokar:2:5:moves".into(), "My moves".into())]
    );
}
