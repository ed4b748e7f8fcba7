//! Answering by button against the fake Discord (rulings T23, T24 in docs/rulings.md): an
//! invitation accepted with its button, a draw offer accepted with its button, a resignation
//! confirmed with its button, all as real component interactions.
//!
//! What the fake enforces here, as Discord documents it: a user can click only a button of a
//! message they can see, so an ephemeral message's button only by its user (Receiving and
//! Responding > Interaction Response Object, "ephemeral": "only the user receiving the
//! message can see it"); a component interaction is answered within 3 seconds by one of the
//! callback types for components (4 CHANNEL_MESSAGE_WITH_SOURCE, 5 DEFERRED_..., 6
//! DEFERRED_UPDATE_MESSAGE, 7 UPDATE_MESSAGE; Interaction Callback Type); a button's
//! custom_id is 1 to 100 characters and unique in its message (Message Components > Button).

use std::path::{Path, PathBuf};

use tokar_bot::{Table, TableConfig};
use tokar_tests::fake::{FakeDiscord, FakeMessage, FakeUser};
use tokar_tests::harness::{init_logging, Bot, Start};

fn data_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("tokar-e2e-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

async fn open(dir: &Path) -> Table {
    let mut config = TableConfig::new(dir);
    config.seed = Some(7);
    let table = Table::open(config).await.expect("table opens");
    // The buttons are what is tested here: the game stays in its channel (T21);
    // tests/threads.rs plays games in their threads.
    tokar_tests::harness::games_in_channels(&table).await;
    table
}

/// The custom_id of the message's button whose answer part is `answer`.
fn button(m: &FakeMessage, answer: &str) -> String {
    m.buttons
        .iter()
        .map(|b| b.custom_id.clone())
        .find(|id| id.split(':').nth(3) == Some(answer))
        .unwrap_or_else(|| panic!("no {answer} button: {m:#?}"))
}

/// Clicks and waits for the answer the clicker sees.
async fn click(fake: &FakeDiscord, who: &FakeUser, m: &FakeMessage, answer: &str) -> FakeMessage {
    let id = fake.click(who, m.id, &button(m, answer)).await.unwrap();
    fake.answer(id).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invitation_an_offer_and_a_resignation_answered_by_buttons() {
    init_logging();
    let dir = data_dir("buttons");
    let fake = FakeDiscord::start().await.expect("fake Discord binds");
    let alice = fake.add_user(111_111_111_111_111_111, "alice");
    let bob = fake.add_user(222_222_222_222_222_222, "bob");
    let carol = fake.add_user(333_333_333_333_333_333, "carol");
    let ch = fake.add_channel("buttons");
    let bot = Bot::start(open(&dir).await, &fake, Start::default());
    fake.wait_ready(1).await.unwrap();

    let invitation = fake
        .run(
            &alice,
            ch,
            "new",
            &[("game", "arcana"), ("opponent", &bob.mention())],
        )
        .await
        .unwrap();
    assert_eq!(invitation.ephemeral_to, None, "{invitation:#?}");
    let labels: Vec<&str> = invitation
        .buttons
        .iter()
        .map(|b| b.label.as_str())
        .collect();
    assert_eq!(
        labels,
        ["Accept game #1", "Decline game #1"],
        "{invitation:#?}"
    );

    // carol was not invited: refused, privately, and nothing changes.
    let refused = click(&fake, &carol, &invitation, "accept").await;
    assert_eq!(refused.ephemeral_to, Some(carol.id), "{refused:#?}");
    assert!(refused.content.contains("not one of them"), "{refused:#?}");

    // bob accepts with the button: the game starts in public, pinging who moves.
    let started = click(&fake, &bob, &invitation, "accept").await;
    assert_eq!(started.ephemeral_to, None, "{started:#?}");
    assert!(started.content.contains("bob accepted"), "{started:#?}");
    let mover_id = started.pinged_users[0];
    let (mover, other) = if mover_id == alice.id {
        (&alice, &bob)
    } else {
        (&bob, &alice)
    };

    // A draw offer carries Accept and Decline; the other player accepts with the button.
    let offer = fake.run(mover, ch, "draw", &[]).await.unwrap();
    assert!(offer.content.contains("game #1"), "{offer:#?}");
    assert_eq!(offer.pinged_users, vec![other.id], "{offer:#?}");
    let drawn = click(&fake, other, &offer, "draw-accept").await;
    assert_eq!(drawn.ephemeral_to, None, "{drawn:#?}");
    assert!(drawn.content.to_lowercase().contains("draw"), "{drawn:#?}");
    // The offer's buttons are stale now.
    let stale = click(&fake, other, &offer, "draw-accept").await;
    assert_eq!(stale.ephemeral_to, Some(other.id));
    assert!(stale.content.contains("no longer open"), "{stale:#?}");

    // A second game, resigned with the confirmation button.
    let invitation = fake
        .run(
            &alice,
            ch,
            "new",
            &[("game", "arcana"), ("opponent", &bob.mention())],
        )
        .await
        .unwrap();
    click(&fake, &bob, &invitation, "accept").await;
    let asked = fake.run(&alice, ch, "resign", &[]).await.unwrap();
    assert_eq!(
        asked.ephemeral_to,
        Some(alice.id),
        "the question is private: {asked:#?}"
    );
    // Only alice sees the question, so only she can click its button (the fake refuses
    // a click on a message the user cannot see).
    assert!(fake
        .click(&bob, asked.id, &button(&asked, "resign"))
        .await
        .is_err());
    let resigned = click(&fake, &alice, &asked, "resign").await;
    assert_eq!(resigned.ephemeral_to, None, "{resigned:#?}");
    assert!(
        resigned.content.contains("alice resigns game #2"),
        "{resigned:#?}"
    );

    assert!(fake.violations().is_empty(), "{:#?}", fake.violations());
    bot.stop().await.unwrap();
}
