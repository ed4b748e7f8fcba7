//! Buttons for every answer (rulings T23, T24 in docs/rulings.md): an invitation accepted or
//! declined by button, a seat joined by button, an offer answered by button, a resignation
//! confirmed by button and one whose confirmation expired, and stale or foreign clicks refused
//! privately with the reason. Also the move deadline and reminder interval chosen per game at
//! `/new` (T25).

mod common;
use common::*;
use tokar_bot::Reply;

/// The custom_id of the button whose id ends with `:<answer>` (or `:<answer>:…`).
fn button(replies: &[Reply], answer: &str) -> String {
    replies
        .iter()
        .flat_map(|r| &r.buttons)
        .map(|b| b.custom_id.clone())
        .find(|id| id.split(':').nth(3) == Some(answer))
        .unwrap_or_else(|| panic!("no {answer} button in {replies:#?}"))
}

async fn invite(e: &Env) -> Vec<Reply> {
    e.ok(&format!(
        "@alice /new game:{GAME} {CREATOR_OPTIONS} opponent:@bob"
    ))
    .await
}

#[tokio::test]
async fn an_invitation_is_accepted_by_button() {
    let e = env("buttons-accept").await;
    let new = invite(&e).await;
    let labels: Vec<&str> = new[0].buttons.iter().map(|b| b.label.as_str()).collect();
    assert_eq!(labels, ["Accept game #1", "Decline game #1"], "{new:#?}");
    let accept = button(&new, "accept");
    let started = e.ok(&format!("@bob /button custom_id:{accept}")).await;
    assert!(
        started.iter().any(|r| r.content.contains("bob accepted")),
        "{started:#?}"
    );
    // T24: a click on an invitation that is no longer open is refused with the reason.
    let stale = e.refused(&format!("@bob /button custom_id:{accept}")).await;
    assert!(stale.contains("closed: the game has started"), "{stale}");
}

#[tokio::test]
async fn an_invitation_is_declined_by_button() {
    let e = env("buttons-decline").await;
    let new = invite(&e).await;
    let decline = button(&new, "decline");
    let r = e.ok(&format!("@bob /button custom_id:{decline}")).await;
    assert!(r[0].content.contains("bob declined game #1"), "{r:#?}");
    let accept = button(&new, "accept");
    let stale = e.refused(&format!("@bob /button custom_id:{accept}")).await;
    assert!(stale.contains("was cancelled"), "{stale}");
}

/// T24: only an invitee may answer an invitation; the click changes nothing.
#[tokio::test]
async fn a_click_on_someone_elses_invitation_is_refused() {
    let e = env("buttons-foreign-invite").await;
    let new = invite(&e).await;
    for answer in ["accept", "decline"] {
        let id = button(&new, answer);
        let refused = e.refused(&format!("@carol /button custom_id:{id}")).await;
        assert!(refused.contains("you are not one of them"), "{refused}");
    }
    // The invitation still stands for bob.
    let accept = button(&new, "accept");
    e.ok(&format!("@bob /button custom_id:{accept}")).await;
}

#[tokio::test]
async fn an_open_seat_is_joined_by_button() {
    let e = env("buttons-join").await;
    let new = e
        .ok(&format!(
            "@alice /new game:{GAME} {CREATOR_OPTIONS} players:2"
        ))
        .await;
    let join = button(&new, "join");
    assert!(
        new[0]
            .buttons
            .iter()
            .all(|b| !b.custom_id.ends_with(":accept")),
        "no invitee, no Accept: {new:#?}"
    );
    let r = e.ok(&format!("@bob /button custom_id:{join}")).await;
    assert!(r.iter().any(|r| r.content.contains("bob joined")), "{r:#?}");
    let stale = e.refused(&format!("@carol /button custom_id:{join}")).await;
    assert!(stale.contains("has started"), "{stale}");
}

#[tokio::test]
async fn a_draw_offer_is_answered_by_button() {
    let e = env("buttons-draw").await;
    let (id, mover, other) = e.duel().await;
    let offer = e.ok(&format!("@{mover} /draw game:{id}")).await;
    assert!(
        offer[0].content.contains(&format!("game #{id}")),
        "{offer:#?}"
    );
    let accept = button(&offer, "draw-accept");
    // The one who offered cannot accept their own offer; a non-player cannot answer.
    let own = e
        .refused(&format!("@{mover} /button custom_id:{accept}"))
        .await;
    assert!(own.contains("You made that draw offer"), "{own}");
    let stranger = e
        .refused(&format!("@carol /button custom_id:{accept}"))
        .await;
    assert!(stranger.contains("you are not one of them"), "{stranger}");
    let drawn = e.ok(&format!("@{other} /button custom_id:{accept}")).await;
    assert!(
        drawn
            .iter()
            .any(|r| r.content.to_lowercase().contains("draw")),
        "{drawn:#?}"
    );
    let stale = e
        .refused(&format!("@{other} /button custom_id:{accept}"))
        .await;
    assert!(stale.contains("no longer open"), "{stale}");
}

#[tokio::test]
async fn a_takeback_offer_is_declined_by_button_and_its_buttons_go_stale() {
    let e = env("buttons-undo").await;
    let (id, mover, other) = e.duel().await;
    let action = e.actions(mover, id).await.remove(0);
    e.ok(&format!("@{mover} /play game:{id} action:{action}"))
        .await;
    let offer = e.ok(&format!("@{mover} /undo game:{id}")).await;
    let decline = button(&offer, "undo-decline");
    let accept = button(&offer, "undo-accept");
    let r = e.ok(&format!("@{other} /button custom_id:{decline}")).await;
    assert!(r[0].content.contains("declines taking back"), "{r:#?}");
    let stale = e
        .refused(&format!("@{other} /button custom_id:{accept}"))
        .await;
    assert!(stale.contains("no longer open"), "{stale}");
}

/// T23: /resign in a game in play asks first; the button concedes.
#[tokio::test]
async fn a_resignation_is_confirmed_by_button() {
    let e = env("buttons-resign").await;
    let (id, mover, _) = e.duel().await;
    let asked = e.ok(&format!("@{mover} /resign game:{id}")).await;
    assert_eq!(asked.len(), 1, "{asked:#?}");
    assert!(asked[0].ephemeral_to.is_some(), "the question is private");
    assert!(asked[0].content.contains("10 minutes"), "{asked:#?}");
    let confirm = button(&asked, "resign");
    // Nothing ended yet: the game still waits for its mover.
    assert!(!e.actions(mover, id).await.is_empty());
    let foreign = e
        .refused(&format!("@carol /button custom_id:{confirm}"))
        .await;
    assert!(foreign.contains("not playing"), "{foreign}");
    let done = e.ok(&format!("@{mover} /button custom_id:{confirm}")).await;
    assert!(
        done.iter()
            .any(|r| r.content.contains(&format!("{mover} resigns game #{id}"))),
        "{done:#?}"
    );
}

/// T23: a confirmation lasts ten minutes, and no longer than the position it was asked at.
#[tokio::test]
async fn a_resignation_confirmed_too_late_or_after_a_move_is_refused() {
    let e = env("buttons-resign-late").await;
    let (id, mover, other) = e.duel().await;
    let asked = e.ok(&format!("@{other} /resign game:{id}")).await;
    let confirm = button(&asked, "resign");
    e.clock.advance(10 * 60 * 1000 + 1).unwrap();
    let late = e
        .refused(&format!("@{other} /button custom_id:{confirm}"))
        .await;
    assert!(late.contains("expired"), "{late}");
    // The game plays on.
    let action = e.actions(mover, id).await.remove(0);
    e.ok(&format!("@{mover} /play game:{id} action:{action}"))
        .await;

    let asked = e.ok(&format!("@{mover} /resign game:{id}")).await;
    let confirm = button(&asked, "resign");
    let action = e.actions(other, id).await.remove(0);
    e.ok(&format!("@{other} /play game:{id} action:{action}"))
        .await;
    let moved = e
        .refused(&format!("@{mover} /button custom_id:{confirm}"))
        .await;
    assert!(moved.contains("moved on"), "{moved}");
    // The typed confirmation still works.
    e.ok(&format!("@{mover} /resign game:{id} confirm:yes"))
        .await;
}

/// T25: the deadline given at /new is the game's, whatever the creator's setting.
#[tokio::test]
async fn a_deadline_given_at_new_is_honoured_by_the_claim() {
    let e = env("buttons-deadline").await;
    e.ok(&format!(
        "@alice /new game:{GAME} {CREATOR_OPTIONS} opponent:@bob deadline:2d"
    ))
    .await;
    e.ok(&format!("@bob /accept game:1 {ACCEPT_OPTIONS}")).await;
    let mover = e.to_act(1, &["alice", "bob"]).await.unwrap();
    let other = if mover == "alice" { "bob" } else { "alice" };
    e.clock.advance(2 * 24 * 3600 * 1000 - 60_000).unwrap();
    let early = e.refused(&format!("@{other} /claim game:1")).await;
    assert!(early.contains("left"), "{early}");
    e.clock.advance(120_000).unwrap();
    let notices = e.table.tick().await;
    assert!(
        notices.iter().any(|r| r.content.contains("/claim game:1")),
        "{notices:#?}"
    );
    e.ok(&format!("@{other} /claim game:1")).await;
}

/// T25: the reminder interval given at /new replaces the players' own (24h by default).
#[tokio::test]
async fn a_reminder_interval_given_at_new_is_honoured() {
    let e = env("buttons-reminder").await;
    e.ok(&format!(
        "@alice /new game:{GAME} {CREATOR_OPTIONS} opponent:@bob deadline:3d reminder:6h"
    ))
    .await;
    e.ok(&format!("@bob /accept game:1 {ACCEPT_OPTIONS}")).await;
    e.clock.advance(6 * 3600 * 1000 + 60_000).unwrap();
    let due = e.table.tick().await;
    let reminder = due
        .iter()
        .find(|r| r.content.starts_with("Reminder: game #1"))
        .unwrap_or_else(|| panic!("{due:#?}"));
    assert!(reminder.content.contains("2d 17h"), "{}", reminder.content);
}

#[tokio::test]
async fn a_deadline_or_reminder_out_of_range_is_refused() {
    let e = env("buttons-deadline-range").await;
    for (given, says) in [
        ("deadline:91d", "from 1d to 90d"),
        ("deadline:12h", "from 1d to 90d"),
        ("deadline:soon", "from 1d to 90d"),
        ("reminder:30m", "at least 1h"),
    ] {
        let refused = e
            .refused(&format!("@alice /new game:{GAME} opponent:@bob {given}"))
            .await;
        assert!(refused.contains(says), "{given}: {refused}");
    }
    let g = e.ok("@alice /games").await;
    assert!(g[0].content.contains("no games"), "{}", g[0].content);
}
