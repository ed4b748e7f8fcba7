//! The message that begins a game names the dice its setup threw: Arachne
//! rolls the first turn's dice before anyone acts, and every later roll is
//! announced with the action before it, so without this line the first
//! player's dice were in the picture only.

mod common;
use common::*;

/// "· White rolls 3+4." in a begin message, if there is one.
fn first_roll(content: &str) -> Option<String> {
    content
        .lines()
        .find_map(|l| l.strip_prefix("· White rolls "))
        .map(|d| d.trim_end_matches('.').to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arachne_game_begins_with_the_first_turns_dice() {
    let e = env("first-roll").await;
    let mut spiders_eyes = 0;
    // At least 60 games, and on until one begins with spiders' eyes (1 in 64 on 2d8).
    for id in 1..=400u64 {
        if id > 60 && spiders_eyes > 0 {
            break;
        }
        e.ok("@alice /new game:arachne opponent:@bob").await;
        let r = e.ok(&format!("@bob /accept game:{id}")).await;
        let begins = &r[0].content;
        let roll = first_roll(begins).unwrap_or_else(|| panic!("no first roll: {begins}"));
        let dice: Vec<u8> = roll.split('+').map(|d| d.parse().unwrap()).collect();
        assert!(
            dice.len() == 2 && dice.iter().all(|d| (1..=8).contains(d)),
            "{begins}"
        );
        // The dice named are the ones the game plays with: spiders' eyes,
        // and only they, let White move Black's pieces.
        let moves = e.ok(&format!("@alice /moves game:{id}")).await;
        let turncoat = moves[0].content.contains("turncoat");
        assert_eq!(turncoat, dice == [1, 1], "game #{id}: {begins}");
        spiders_eyes += usize::from(turncoat);
    }
    assert!(
        spiders_eyes > 0,
        "no game of the 400 began with spiders' eyes"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_without_dice_at_the_start_begin_without_a_roll() {
    let e = env("first-roll-none").await;
    e.ok("@alice /new game:gladiator opponent:@bob").await;
    let r = e.ok("@bob /accept game:1").await;
    assert!(!r[0].content.contains(" rolls "), "{}", r[0].content);
    e.ok("@alice /new game:magic-chess opponent:@bob opponent2:@carol opponent3:@dave")
        .await;
    e.ok("@bob /accept game:2").await;
    e.ok("@carol /accept game:2").await;
    let r = e.ok("@dave /accept game:2").await;
    assert!(r[0].content.contains("begins"), "{}", r[0].content);
    assert!(!r[0].content.contains(" rolls "), "{}", r[0].content);
}
