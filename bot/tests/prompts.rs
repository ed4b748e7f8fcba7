//! Prompts and lists that say what they mean: a move clock held by a vacation reads as paused,
//! never as a number of days that overflows, and a claim against it says why it waits; a game
//! won by a claim says so, not that someone resigned.

mod common;
use common::*;

#[tokio::test]
async fn a_vacation_shows_as_a_paused_clock() {
    let e = env("vacation-paused").await;
    let (id, mover, other) = e.duel().await;
    e.ok(&format!("@{mover} /vacation on")).await;

    let games = e.ok(&format!("@{other} /games")).await;
    let line = &games[0].content;
    assert!(
        line.contains(&format!("(paused: {mover} is on vacation)")),
        "{line}"
    );
    assert!(
        !line.contains("d ") || !line.contains("left"),
        "no days left: {line}"
    );

    let refused = e.refused(&format!("@{other} /claim game:{id}")).await;
    assert!(
        refused.contains(&format!("paused: {mover} is on vacation")),
        "{refused}"
    );
    assert!(!refused.contains("left"), "{refused}");

    // Back from vacation, the clock reads in time again.
    e.ok(&format!("@{mover} /vacation off")).await;
    let games = e.ok(&format!("@{other} /games")).await;
    assert!(games[0].content.contains(" left)"), "{}", games[0].content);
}

#[tokio::test]
async fn a_game_won_by_a_claim_says_so_and_not_resigned() {
    let e = env("claim-wording").await;
    let (id, _, other) = e.duel().await;
    e.clock.advance(8 * 24 * 3600 * 1000).unwrap();
    let claimed = e.ok(&format!("@{other} /claim game:{id}")).await;
    let text = &claimed[0].content;
    assert!(text.contains("won at the move deadline"), "{text}");
    assert!(!text.contains("resign"), "{text}");
    let board = e.ok(&format!("@{other} /board game:{id}")).await;
    assert!(
        board[0].content.contains("won at the move deadline"),
        "{}",
        board[0].content
    );
    let history = e.ok(&format!("@{other} /history game:{id}")).await;
    assert!(
        !history[0].content.contains("resign"),
        "{}",
        history[0].content
    );
}

#[tokio::test]
async fn an_offer_gives_the_whole_command_and_is_answered_without_game() {
    let e = env("offer-whole-command").await;
    let (first, _, _) = e.duel().await;
    let (second, mover, other) = e.duel().await;

    // Two games in the channel and no offer: an answer cannot know which game.
    let refused = e.refused(&format!("@{other} /draw answer:accept")).await;
    assert!(
        refused.contains("Nobody has offered") || refused.contains("several"),
        "{refused}"
    );

    let offered = e.ok(&format!("@{mover} /draw game:{second}")).await;
    let text = &offered[0].content;
    assert!(
        text.contains(&format!("/draw game:{second} answer:accept")),
        "{text}"
    );
    assert!(
        text.contains(&format!("/draw game:{second} answer:decline")),
        "{text}"
    );

    // The answer without game: finds the game with the open offer.
    let drawn = e.ok(&format!("@{other} /draw answer:accept")).await;
    assert!(drawn[0].content.contains("drawn"), "{}", drawn[0].content);
    assert!(
        drawn[0].content.contains(&format!("Game #{second} ")),
        "{}",
        drawn[0].content
    );
    let board = e.ok(&format!("@{other} /board game:{first}")).await;
    assert!(
        !board[0].content.contains("is over"),
        "{}",
        board[0].content
    );
}

#[tokio::test]
async fn a_takeback_offer_is_answered_without_game() {
    let e = env("undo-whole-command").await;
    let (first, mover, other) = e.duel().await;
    let (_second, _, _) = e.duel().await;
    let action = e.actions(mover, first).await[0].clone();
    e.ok(&format!("@{mover} /play game:{first} action:{action}"))
        .await;
    let offered = e.ok(&format!("@{mover} /undo game:{first}")).await;
    assert!(
        offered[0]
            .content
            .contains(&format!("/undo game:{first} answer:accept")),
        "{}",
        offered[0].content
    );
    let undone = e.ok(&format!("@{other} /undo answer:accept")).await;
    assert!(
        undone[0]
            .content
            .contains(&format!("Game #{first}: 1 action")),
        "{}",
        undone[0].content
    );
}

#[tokio::test]
async fn a_claim_without_game_finds_the_game_whose_deadline_passed() {
    let e = env("claim-finds-game").await;
    let (first, _, claimant) = e.duel().await;
    e.clock.advance(3 * 24 * 3600 * 1000).unwrap();
    let (second, _, _) = e.duel().await;
    // Five days on, the first game's move is eight days old (the deadline is seven), the
    // second's five.
    e.clock.advance(5 * 24 * 3600 * 1000).unwrap();
    let claimed = e.ok(&format!("@{claimant} /claim")).await;
    let text = &claimed[0].content;
    assert!(text.contains(&format!("claims game #{first}")), "{text}");
    let board = e.ok(&format!("@{claimant} /board game:{second}")).await;
    assert!(
        !board[0].content.contains("is over"),
        "{}",
        board[0].content
    );
}

#[tokio::test]
async fn a_decision_prompt_gives_the_whole_command() {
    // Captures are played first until the game waits for a decision (a Vampire's extra
    // turn, a burial, a vanquished model to place); the turn message then says how to
    // answer it, game included.
    let e = env("decision-whole-command").await;
    let id = e.start("alice", "bob").await;
    let mut prompt = None;
    for step in 0..600usize {
        let Some(mover) = e.to_act(id, &["alice", "bob"]).await else {
            break;
        };
        let actions = e.actions(mover, id).await;
        let captures: Vec<&String> = actions.iter().filter(|a| a.contains('x')).collect();
        let action = match captures.as_slice() {
            [] => &actions[step * 7 % actions.len()],
            c => c[step % c.len()],
        };
        let r = e
            .ok(&format!("@{mover} /play game:{id} action:\"{action}\""))
            .await;
        if r[0].content.contains("answer with") {
            prompt = Some(r[0].content.clone());
            break;
        }
    }
    let prompt = prompt.expect("a decision came up");
    assert!(
        prompt.contains(&format!("/play game:{id} action:")),
        "{prompt}"
    );
    assert!(prompt.contains(&format!("/moves game:{id}")), "{prompt}");
}

#[tokio::test]
async fn a_hint_gives_the_whole_command() {
    let e = env("hint-whole-command").await;
    // Hints are for unrated games (ruling T49).
    let id = e.start_with("alice", "bob", "rated:no").await;
    let mover = e.to_act(id, &["alice", "bob"]).await.unwrap();
    let hint = e.ok(&format!("@{mover} /hint game:{id}")).await;
    assert!(
        hint[0]
            .content
            .contains(&format!("/play game:{id} action:")),
        "{}",
        hint[0].content
    );
}
