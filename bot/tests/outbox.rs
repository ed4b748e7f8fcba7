//! The outbox at the table: what a change announces is stored with it, survives a restart,
//! waits behind an interaction that may carry it, and is removed only when delivered.

mod common;
use common::*;
use tokar_bot::duration::HOUR;
use tokar_bot::outbox::{decode_entry, Target};

/// Marks every waiting entry delivered, as the console does once it printed them.
async fn deliver_all(e: &Env) {
    for r in e.table.outbox_replies().await {
        e.table
            .outbox_delivered(r.outbox.unwrap(), Vec::new())
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn a_move_and_its_announcement_are_stored_together() {
    let dir = fresh_dir("outbox-move");
    let e = open(&dir, Some(3)).await;
    let id = e.start("alice", "bob").await;
    // Whatever the lobby announced is delivered (as the console would).
    deliver_all(&e).await;
    assert_eq!(e.table.outbox_len().await, 0);

    let first = e.to_act(id, &["alice", "bob"]).await.unwrap();
    let other = if first == "alice" { "bob" } else { "alice" };
    let a = e.actions(first, id).await[0].clone();
    let replies = e.ok(&format!("@{first} /play action:\"{a}\"")).await;
    let turn = replies
        .iter()
        .find(|r| r.content.contains(" plays "))
        .expect("a turn message");
    let entry_id = turn.outbox.expect("the turn message is an outbox entry");
    assert_eq!(turn.mentions, vec![user(other)]);

    // After a restart (as after kill -9 right behind the commit) the entry is there, with its
    // ping and its picture.
    drop(e);
    let e = open(&dir, Some(3)).await;
    let due = e.table.outbox_due(10).await;
    assert_eq!(due.len(), 1, "{due:#?}");
    assert_eq!(due[0].id, entry_id);
    assert_eq!(due[0].game, Some(id));
    assert!(matches!(&due[0].target, Target::Channel(c) if c.id == channel("table").id));
    assert_eq!(due[0].mentions.len(), 1);
    // The picture is stored as its scene and drawn again: the same picture.
    assert!(
        due[0].scene(0).is_some(),
        "a game picture is stored as its scene"
    );
    let images = e.table.outbox_images(&due[0]).await;
    assert_eq!(images.len(), 1);
    assert!(images[0].png.starts_with(b"\x89PNG"));
    assert_eq!(images[0].name, turn.images[0].name);
    assert!(
        images[0].png == turn.images[0].png,
        "the picture drawn again after a restart is the one the command drew"
    );
    e.table
        .outbox_delivered(entry_id, Vec::new())
        .await
        .unwrap();
    assert_eq!(
        e.table.outbox_len().await,
        0,
        "delivered is removed, pictures too"
    );
}

#[tokio::test]
async fn private_answers_to_the_invoker_are_not_stored() {
    let e = env("outbox-private").await;
    let id = e.start("alice", "bob").await;
    let before = e.table.outbox_len().await;
    let first = e.to_act(id, &["alice", "bob"]).await.unwrap();
    let replies = e.ok(&format!("@{first} /moves")).await;
    assert!(replies.iter().all(|r| r.outbox.is_none()));
    assert_eq!(e.table.outbox_len().await, before);
}

#[tokio::test]
async fn reminders_are_stored_once_with_what_they_record() {
    let e = env("outbox-reminder").await;
    let id = e.start("alice", "bob").await;
    let first = e.to_act(id, &["alice", "bob"]).await.unwrap();
    let a = e.actions(first, id).await[0].clone();
    e.ok(&format!("@{first} /play action:\"{a}\"")).await;
    let before = e.table.outbox_len().await;
    e.clock.advance(25 * HOUR).unwrap();
    let r = e.table.tick().await;
    assert_eq!(r.len(), 1);
    assert!(r[0].outbox.is_some(), "a reminder is an outbox entry");
    assert_eq!(e.table.outbox_len().await, before + 1);
    assert!(e.table.tick().await.is_empty());
    assert_eq!(e.table.outbox_len().await, before + 1, "stored once");
}

#[tokio::test]
async fn an_interaction_holds_its_channel_until_released() {
    let e = env("outbox-claim").await;
    let id = e.start("alice", "bob").await;
    deliver_all(&e).await;
    let first = e.to_act(id, &["alice", "bob"]).await.unwrap();
    let a = e.actions(first, id).await[0].clone();
    let mut req = request(&format!("@{first} /play action:\"{a}\""));
    req.interaction_token = Some("token-1".into());
    let replies = e.table.handle(req).await;
    assert!(replies.iter().all(|r| r.ok), "{replies:#?}");
    let stored = e.table.outbox_len().await;
    assert!(stored >= 1);
    assert!(
        e.table.outbox_due(10).await.is_empty(),
        "the channel waits while the interaction may carry its announcement"
    );
    e.table.outbox_release("token-1");
    let due = e.table.outbox_due(10).await;
    assert_eq!(due.len(), stored);
    assert_eq!(
        due[0].carrier.as_ref().map(|c| c.token.as_str()),
        Some("token-1"),
        "the entry remembers the interaction, to ask Discord after a restart"
    );
}

/// Every stored format loads forever: the first outbox entry format.
#[test]
fn outbox_format_1_fixture_loads() {
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/outbox-1.json"
    ))
    .unwrap();
    let e = decode_entry(&bytes).unwrap();
    assert_eq!(e.format, 1);
    assert_eq!(e.id, 12);
    assert_eq!(e.game, Some(3));
    assert!(
        matches!(&e.target, Target::Direct { user, channel } if user.id == 22 && channel.id == 5)
    );
    assert_eq!(e.buttons[0].0, "tokar:3:8:hand");
    assert_eq!(e.images, ["game-3-8.png"]);
    assert_eq!(e.carrier.as_ref().unwrap().token, "aW50ZXJhY3Rpb24");
    assert!(decode_entry(br#"{"format":9}"#).is_err());
    assert!(decode_entry(b"not json").is_err());
}

const OUTBOX_2: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/outbox-2.json");

/// Not a check: writes `outbox-2.json`, a turn message of an Arcana game with
/// its picture's scene. Run it only when adding a format (into a new file).
#[tokio::test]
#[ignore = "writes the fixture; run with --ignored when adding a format"]
async fn write_outbox_2_fixture() {
    let e = env("outbox-2-write").await;
    let id = e.start("alice", "bob").await;
    deliver_all(&e).await;
    for _ in 0..3 {
        let who = e.to_act(id, &["alice", "bob"]).await.unwrap();
        let a = e.actions(who, id).await[0].clone();
        e.ok(&format!("@{who} /play action:\"{a}\"")).await;
    }
    let due = e.table.outbox_due(10).await;
    let last = due.last().expect("the last turn message");
    std::fs::write(OUTBOX_2, serde_json::to_string(last).unwrap()).unwrap();
}

/// Every stored format loads forever: entries with the scenes of their
/// pictures, which are drawn again from them.
#[tokio::test]
async fn outbox_format_2_fixture_loads_and_its_picture_is_drawn() {
    let bytes = std::fs::read(OUTBOX_2).unwrap();
    let entry = decode_entry(&bytes).unwrap();
    assert_eq!(entry.format, 2);
    assert_eq!(entry.images.len(), 1);
    let scene = entry.scene(0).expect("the picture's scene");
    assert_eq!(scene.view.title, "Tokar's Arcana");
    assert!(!scene.marks.is_empty(), "the last move is marked");
    // Drawn by the table for an entry delivered from the store.
    let e = env("outbox-2-load").await;
    let images = e.table.outbox_images(&entry).await;
    assert_eq!(images.len(), 1);
    assert_eq!(images[0].name, entry.images[0]);
    let reader = png::Decoder::new(std::io::Cursor::new(images[0].png.clone()))
        .read_info()
        .expect("a PNG");
    assert_eq!(reader.info().width, 800);
}
