//! A whole game of Tokar's Arcana through the table service: the invitation,
//! the acceptance, every move typed by the player to act, the pings, and the
//! end with a General's death.
//!
//! The players pick their moves with a small look-ahead on a copy of the game
//! kept by the test (Arcana has no dice once `first` is chosen, so the copy
//! stays equal to the table's game); every move still goes through the table.

mod common;
use common::*;
use tokar_engine::catalog::{AnyGame, GameKind, Options};
use tokar_engine::{Outcome, Rng, Seat, Viewer};

fn material(g: &AnyGame, seat: Seat) -> i32 {
    g.view(Viewer::Spectator)
        .pieces
        .iter()
        .map(|p| if p.seat == seat { 1 } else { -1 })
        .sum()
}

/// A move for `seat`: a win now; else the best material that gives the
/// opponent no winning answer; ties broken at random.
fn choose(g: &AnyGame, seat: Seat, rng: &mut Rng) -> String {
    let mut best: Option<(i32, u64, String)> = None;
    for a in g.legal_actions(seat) {
        let mut next = g.clone();
        next.play(seat, &a).expect("listed actions apply");
        let score = match next.outcome() {
            Outcome::Won { winners, .. } if winners.contains(&seat) => 100_000,
            _ => {
                let mut s = material(&next, seat) * 10;
                for o in next.to_act() {
                    if o == seat {
                        continue;
                    }
                    let loses = next.legal_actions(o).iter().any(|r| {
                        let mut after = next.clone();
                        after.play(o, r).is_ok()
                            && matches!(after.outcome(), Outcome::Won { ref winners, .. } if winners.contains(&o))
                    });
                    if loses {
                        s -= 10_000;
                    }
                }
                s
            }
        };
        let tie = rng.next_u64();
        if best
            .as_ref()
            .is_none_or(|(bs, bt, _)| (score, tie) > (*bs, *bt))
        {
            best = Some((score, tie, a));
        }
    }
    best.expect("a seat to act has an action").2
}

#[tokio::test]
async fn a_whole_game_from_invitation_to_a_generals_death() {
    let e = env("arcana-game").await;
    let r = e
        .ok("@alice /new game:arcana army:human first:creator opponent:@bob")
        .await;
    assert_eq!(
        r[0].mentions,
        vec![user("bob")],
        "the invitation pings bob only"
    );
    assert!(r[0].content.contains("/accept"), "{}", r[0].content);
    let b = e.ok("@carol /board game:1").await;
    assert!(
        b[0].content.contains("waiting for bob to accept"),
        "{}",
        b[0].content
    );

    let r = e.ok("@bob /accept army:undead").await;
    assert!(r[0].content.contains("begins"), "{}", r[0].content);
    assert_eq!(
        r[0].mentions,
        vec![user("alice")],
        "the first player is pinged"
    );
    assert!(
        !r[0].images.is_empty(),
        "the turn message carries the picture"
    );
    assert!(r[0].images[0].png.starts_with(b"\x89PNG"));
    assert!(r[0].buttons.iter().any(|b| b.label == "My moves"));

    let mut options = Options::new();
    options.insert("army.0".into(), "human".into());
    options.insert("army.1".into(), "undead".into());
    options.insert("first".into(), "creator".into());
    let mut mirror = AnyGame::setup(GameKind::Arcana, &options, 0).unwrap();
    let names = ["alice", "bob"];
    let mut rng = Rng::new(2024);
    let mut plies = 0;
    let last = loop {
        assert!(plies < 400, "the game ends within 400 actions");
        let to_act = mirror.to_act();
        let seat = to_act[0];
        let who = names[seat.index()];
        let other = names[1 - seat.index()];
        // The table agrees on whose turn it is.
        let msg = e.refused(&format!("@{other} /play action:pass")).await;
        assert!(msg.contains("not your turn"), "{msg}");
        let action = choose(&mirror, seat, &mut rng);
        mirror.play(seat, &action).unwrap();
        let r = e.ok(&format!("@{who} /play action:\"{action}\"")).await;
        plies += 1;
        let next: Vec<&str> = mirror.to_act().iter().map(|s| names[s.index()]).collect();
        if mirror.outcome().is_over() {
            // The end pings both players, once each (ruling T39).
            assert_eq!(
                r[0].mentions,
                vec![user("alice"), user("bob")],
                "every player is pinged once the game is over"
            );
            break r;
        }
        let expected: Vec<_> = if next.contains(&who) {
            Vec::new()
        } else {
            next.iter().map(|n| user(n)).collect()
        };
        assert_eq!(r[0].mentions, expected, "ply {plies}: {}", r[0].content);
    };
    let text = &last[0].content;
    assert!(text.contains("General"), "{text}");
    assert!(text.contains("is over"), "{text}");
    assert!(last[0].buttons.is_empty());

    let h = e.ok("@carol /history game:1").await;
    assert!(h[0].content.contains("is over"), "{}", h[0].content);
    let x = e.ok("@alice /export game:1").await;
    let record = exported_record(&x[0]);
    assert_eq!(record.split('|').skip(4).count(), plies);
    assert!(
        !record.contains("seed=?"),
        "the seed is shown once the game is over: {record}"
    );
    let msg = e.refused("@alice /play action:pass game:1").await;
    assert!(msg.contains("over"), "{msg}");

    // A new game from the record reaches the same end.
    let r = e
        .ok(&format!("@alice /new record:\"{record}\" opponent:@bob"))
        .await;
    assert!(r[0].content.contains("#2"), "{}", r[0].content);
    let r = e.ok("@bob /accept game:2").await;
    assert!(r[0].content.contains("is over"), "{}", r[0].content);
    assert!(r[0].content.contains("General"), "{}", r[0].content);
}
