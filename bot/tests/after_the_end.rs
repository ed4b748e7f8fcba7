//! A finished game stays readable: /board, /history and /export find the channel's last
//! finished game without game:, and /games lists finished games with their number and result.

mod common;
use common::*;

#[tokio::test]
async fn the_last_finished_game_is_shown_without_game() {
    let e = env("after-the-end").await;
    let id = e.start("alice", "bob").await;
    e.ok(&format!("@alice /resign game:{id} confirm:yes")).await;

    for who in ["alice", "bob", "carol"] {
        let board = e.ok(&format!("@{who} /board")).await;
        assert!(
            board[0].content.contains(&format!("Game #{id} ("))
                && board[0].content.contains("is over"),
            "{who}: {}",
            board[0].content
        );
        assert!(!board[0].images.is_empty(), "the final position's picture");
    }
    let history = e.ok("@bob /history").await;
    assert!(
        history[0].content.contains("resigns"),
        "{}",
        history[0].content
    );
    let export = e.ok("@carol /export").await;
    let record = exported_record(&export[0]);
    assert!(record.starts_with("tokar1|arcana|"), "{record}");
    assert!(
        !record.contains("seed=?"),
        "a finished game's record has its seed"
    );

    let games = e.ok("@alice /games").await;
    let text = &games[0].content;
    assert!(text.contains(&format!("#{id} ")), "{text}");
    assert!(text.contains("won"), "the result is listed: {text}");
}

#[tokio::test]
async fn the_game_that_ended_last_is_the_one_shown() {
    let e = env("after-the-end-last").await;
    let first = e.start("alice", "bob").await;
    let second = e.start("carol", "dave").await;
    e.ok(&format!("@dave /resign game:{second} confirm:yes"))
        .await;
    e.clock.advance(60_000).unwrap();
    e.ok(&format!("@alice /resign game:{first} confirm:yes"))
        .await;
    let board = e.ok("@erin /board").await;
    assert!(
        board[0].content.contains(&format!("Game #{first} (")),
        "{}",
        board[0].content
    );
    // A game still being played in the channel comes first.
    let third = e.start("alice", "bob").await;
    let board = e.ok("@erin /board").await;
    assert!(
        board[0].content.contains(&format!("Game #{third} (")),
        "{}",
        board[0].content
    );
}

#[tokio::test]
async fn games_lists_the_last_ten_finished_games_with_their_results() {
    let e = env("after-the-end-list").await;
    let mut ids = Vec::new();
    for _ in 0..12 {
        let id = e.start("alice", "bob").await;
        e.ok(&format!("@bob /resign game:{id} confirm:yes")).await;
        e.clock.advance(1000).unwrap();
        ids.push(id);
    }
    let games = e.ok("@alice /games").await;
    let text = &games[0].content;
    for id in &ids[2..] {
        assert!(text.contains(&format!("#{id} ")), "#{id} listed: {text}");
    }
    assert!(!text.contains(&format!("#{} ", ids[0])), "{text}");
    assert!(text.contains("2 earlier finished games"), "{text}");
    assert!(text.chars().count() <= 2000, "one message");
}
