//! Which side a picture is drawn from (ruling T37): the public turn picture
//! from the side of the seat to act, `/board` from the asker's side when the
//! asker is seated and from seat 0's side for everyone else. Each picture is
//! checked against the renderer's own drawing of the spectators' view from
//! that side, rebuilt from the exported record.

mod common;

use common::*;
use tokar_bot::Reply;
use tokar_engine::{Seat, View, Viewer};
use tokar_render::{Highlights, RenderOptions, Renderer};

/// The one PNG among the replies.
fn the_png(r: &[Reply]) -> Vec<u8> {
    let pngs: Vec<&Vec<u8>> = r
        .iter()
        .flat_map(|r| &r.images)
        .filter(|i| i.name.ends_with(".png"))
        .map(|i| &i.png)
        .collect();
    assert_eq!(pngs.len(), 1, "{r:#?}");
    pngs[0].clone()
}

/// The header's clock line while nobody's time has run (the default deadline).
const FULL_CLOCK: &str = "Move deadline: 7d left";

fn drawn_from(view: &View, highlights: &Highlights, side: Seat) -> Vec<u8> {
    drawn_with_clock(view, highlights, side, FULL_CLOCK)
}

fn drawn_with_clock(view: &View, highlights: &Highlights, side: Seat, clock: &str) -> Vec<u8> {
    let mut options = RenderOptions::default();
    options.side = Some(side);
    options.clock = Some(clock.to_owned());
    Renderer::new()
        .render_with(view, highlights, &options)
        .expect("a picture")
}

/// T37: after each move the public picture is drawn from the side of the seat
/// that must now think; `/board` from the asker's own side, and from seat 0's
/// for a spectator. Every picture of a game in play says the time left on the
/// move under its header.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pictures_are_drawn_from_the_readers_side() {
    let e = env("picture-side").await;
    let id = e.start("alice", "bob").await;
    let mut played = Vec::new();
    let mut turn_pictures = Vec::new();
    let mut boards = Vec::new();
    while !(played.contains(&"alice") && played.contains(&"bob")) {
        assert!(played.len() < 6, "both players act within a few actions");
        let who = e.to_act(id, &["alice", "bob"]).await.expect("someone acts");
        let action = e.actions(who, id).await[0].clone();
        let r = e
            .ok(&format!("@{who} /play action:\"{action}\" game:{id}"))
            .await;
        played.push(who);
        turn_pictures.push(the_png(&r));
        let mut asked = Vec::new();
        for asker in ["alice", "bob", "carol"] {
            asked.push(the_png(&e.ok(&format!("@{asker} /board game:{id}")).await));
        }
        boards.push(asked);
    }
    // The clock line tells the time left on the current move.
    e.clock.advance(tokar_bot::duration::HOUR).unwrap();
    let later = the_png(&e.ok(&format!("@carol /board game:{id}")).await);
    e.ok(&format!("@alice /resign game:{id} confirm:yes")).await;
    let record = exported_record(&e.ok(&format!("@carol /export game:{id}")).await[0]);
    let steps = record_steps(&record, Viewer::Spectator);
    assert_eq!(
        steps.len(),
        played.len() + 1,
        "the moves and the resignation"
    );
    let seat_of = |name: &str| steps[played.iter().position(|p| *p == name).unwrap()].2;
    let (alice, bob) = (seat_of("alice"), seat_of("bob"));
    assert_ne!(alice, bob, "the two players hold different seats");
    let mut sides = Vec::new();
    for (k, (view, highlights, _)) in steps[..played.len()].iter().enumerate() {
        let to_act = view.to_act[0];
        sides.push(to_act);
        assert_eq!(
            turn_pictures[k],
            drawn_from(view, highlights, to_act),
            "the picture after action {} is drawn from the side of {to_act:?}, to act",
            k + 1,
        );
        let asked = &boards[k];
        assert_eq!(
            asked[0],
            drawn_from(view, highlights, alice),
            "alice's /board"
        );
        assert_eq!(asked[1], drawn_from(view, highlights, bob), "bob's /board");
        assert_eq!(
            asked[2],
            drawn_from(view, highlights, Seat(0)),
            "a spectator's /board"
        );
    }
    let (view, highlights, _) = &steps[played.len() - 1];
    assert_eq!(
        later,
        drawn_with_clock(view, highlights, Seat(0), "Move deadline: 6d 23h left"),
        "an hour later, /board shows the hour gone"
    );
    assert!(
        sides.contains(&Seat(1)),
        "a picture from seat 1's side was made"
    );
    // The two sides really are different pictures: seat 1's is turned.
    let (view, highlights, _) = &steps[0];
    assert_ne!(
        drawn_from(view, highlights, Seat(0)),
        drawn_from(view, highlights, Seat(1))
    );
}
