//! The line that says how a game ended is one sentence with one full stop,
//! also for games whose engine words the reason as a sentence of its own
//! (Magic Chess: "Red is the last player standing.").

mod common;
use common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_end_of_a_magic_chess_game_ends_with_one_full_stop() {
    let e = env("game-end-text").await;
    e.ok("@alice /new game:magic-chess opponent:@bob opponent2:@carol opponent3:@dave")
        .await;
    for u in ["bob", "carol", "dave"] {
        e.ok(&format!("@{u} /accept game:1")).await;
    }
    for u in ["bob", "carol"] {
        e.ok(&format!("@{u} /resign game:1 confirm:yes")).await;
    }
    let r = e.ok("@dave /resign game:1 confirm:yes").await;
    let end = r
        .iter()
        .flat_map(|r| r.content.lines())
        .find(|l| l.contains("is over"))
        .unwrap_or_else(|| panic!("no end line: {r:#?}"))
        .to_string();
    assert!(end.contains("last player standing"), "{end}");
    assert!(end.ends_with('.') && !end.ends_with(".."), "{end}");
    let b = e.ok("@alice /board game:1").await;
    assert!(!b[0].content.contains(".."), "{}", b[0].content);
}
