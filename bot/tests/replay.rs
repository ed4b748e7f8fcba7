//! `/replay`: a game as an animated GIF, played again from the stored log and
//! drawn as a spectator sees it (ruling T18): the same GIF the render crate
//! makes from spectators' views of the game's actions, never a seat's own.

mod common;

use common::*;
use tokar_bot::Reply;
use tokar_engine::{Seat, View, Viewer};
use tokar_render::{Highlights, Renderer, ReplayOptions};

/// Plays `count` actions of game `id`, each the first legal one of whoever acts.
async fn play_some(e: &Env, id: u64, names: &[&str], count: usize) {
    for _ in 0..count {
        let who = e.to_act(id, names).await.expect("someone to act");
        let action = e.actions(who, id).await[0].clone();
        e.ok(&format!("@{who} /play action:\"{action}\" game:{id}"))
            .await;
    }
}

/// The views after each action of an exported record, for `viewer`.
fn steps_of(record: &str, viewer: Viewer) -> Vec<(View, Highlights)> {
    record_steps(record, viewer)
        .into_iter()
        .map(|(view, highlights, _)| (view, highlights))
        .collect()
}

fn the_gif(r: &[Reply]) -> Vec<u8> {
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].images.len(), 1, "{}", r[0].content);
    let image = &r[0].images[0];
    assert!(image.name.ends_with(".gif"), "{}", image.name);
    assert!(image.png.starts_with(b"GIF89a"));
    image.png.clone()
}

/// T18: while a game is played only its players may replay it, privately;
/// once it is over anyone may, in public. Both replay every action so far.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_replay_a_game_in_play_and_anyone_a_finished_one() {
    let e = env("replay-arcana").await;
    let id = e.start("alice", "bob").await;
    let msg = e.refused(&format!("@alice /replay game:{id}")).await;
    assert!(msg.contains("no moves"), "{msg}");
    play_some(&e, id, &["alice", "bob"], 6).await;
    let msg = e.refused(&format!("@carol /replay game:{id}")).await;
    assert!(msg.contains("only its players"), "{msg}");
    let r = e.ok(&format!("@alice /replay game:{id}")).await;
    assert_eq!(r[0].ephemeral_to, Some(user("alice")), "private in play");
    assert!(r[0].content.contains("6 actions"), "{}", r[0].content);
    let in_play = the_gif(&r);

    e.ok(&format!("@bob /resign game:{id} confirm:yes")).await;
    let r = e.ok(&format!("@carol /replay game:{id}")).await;
    assert_eq!(r[0].ephemeral_to, None, "public once over");
    assert!(r[0].content.contains("7 actions"), "{}", r[0].content);
    let finished = the_gif(&r);
    let record = exported_record(&e.ok(&format!("@carol /export game:{id}")).await[0]);
    let renderer = Renderer::new();
    let steps = steps_of(&record, Viewer::Spectator);
    assert_eq!(steps.len(), 7);
    let expected = renderer
        .replay(&steps, &ReplayOptions::default())
        .expect("a replay");
    assert_eq!(finished, expected.gif);
    let expected = renderer
        .replay(&steps[..6], &ReplayOptions::default())
        .expect("a replay");
    assert_eq!(in_play, expected.gif);
    assert!(e.refused("@carol /replay game:99").await.contains("#99"));
}

/// T18: a public replay of Magic Chess is the spectators' replay, which shows
/// no hand, not a seat's (whose pictures would show its spells).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_public_magic_chess_replay_shows_no_hand() {
    let e = env("replay-magic").await;
    let names = ["alice", "bob", "carol", "dave"];
    e.ok("@alice /new game:magic-chess opponent:@bob opponent2:@carol opponent3:@dave")
        .await;
    for n in &names[1..] {
        e.ok(&format!("@{n} /accept game:1")).await;
    }
    play_some(&e, 1, &names, 8).await;
    for n in &names[..3] {
        e.ok(&format!("@{n} /resign game:1 confirm:yes")).await;
    }
    let public = the_gif(&e.ok("@erin /replay game:1").await);
    let record = exported_record(&e.ok("@erin /export game:1").await[0]);
    let renderer = Renderer::new();
    let spectator = steps_of(&record, Viewer::Spectator);
    assert!(spectator.iter().all(|(v, _)| v.hand.is_empty()));
    let expected = renderer
        .replay(&spectator, &ReplayOptions::default())
        .expect("a replay");
    assert_eq!(public, expected.gif);
    let red = steps_of(&record, Viewer::Seat(Seat(0)));
    assert!(
        red.iter().any(|(v, _)| !v.hand.is_empty()),
        "Red holds spells"
    );
    let with_hand = renderer
        .replay(&red, &ReplayOptions::default())
        .expect("a replay");
    assert_ne!(public, with_hand.gif);
}
