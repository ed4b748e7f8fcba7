//! A server's games at a glance (`/games scope:server`), following a game (T26), and
//! invitations that nobody answers (T27).

mod common;
use common::*;
use tokar_bot::Reply;

const SERVER: u64 = 42;

/// Runs a console line in a channel of the server.
async fn on_server(e: &Env, line: &str) -> Vec<Reply> {
    for word in line.split_whitespace() {
        if let Some(name) = word.split(':').nth(1).and_then(|v| v.strip_prefix('@')) {
            e.table.remember_user(&user(name)).await.unwrap();
        }
    }
    let mut req = request(line);
    req.channel.guild = Some(SERVER);
    e.table.handle(req).await
}

async fn ok(e: &Env, line: &str) -> Vec<Reply> {
    let r = on_server(e, line).await;
    assert!(!r.is_empty() && r.iter().all(|r| r.ok), "{line}: {r:#?}");
    r
}

/// The number of the game a `/new` reply announces.
fn number(r: &[Reply]) -> u64 {
    r[0].content
        .split('#')
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[tokio::test]
async fn games_for_the_server_list_open_seats_games_in_play_and_results() {
    let e = env("server-games").await;
    // A game elsewhere (no server) is not listed.
    e.ok(&format!("@zed /new game:{GAME} players:2")).await;
    let open = ok(
        &e,
        &format!("@alice /new game:{GAME} {CREATOR_OPTIONS} players:2"),
    )
    .await;
    let open = number(&open);
    let playing = number(
        &ok(
            &e,
            &format!("@bob /new game:{GAME} {CREATOR_OPTIONS} opponent:@carol"),
        )
        .await,
    );
    ok(
        &e,
        &format!("@carol /accept game:{playing} {ACCEPT_OPTIONS}"),
    )
    .await;
    let done = number(
        &ok(
            &e,
            &format!("@dave /new game:{GAME} {CREATOR_OPTIONS} opponent:@erin"),
        )
        .await,
    );
    ok(&e, &format!("@erin /accept game:{done} {ACCEPT_OPTIONS}")).await;
    ok(&e, &format!("@erin /resign game:{done} confirm:yes")).await;
    e.clock.advance(3 * 3600 * 1000).unwrap();

    let r = ok(&e, "@frank /games scope:server").await;
    let text = &r[0].content;
    assert!(r[0].ephemeral_to.is_some());
    assert!(text.contains(&format!("#{open} Arcana")), "{text}");
    assert!(text.contains("by alice"), "{text}");
    let in_play = text
        .lines()
        .find(|l| l.starts_with(&format!("#{playing} ")))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(in_play.contains("to act for 3h"), "{in_play}");
    assert!(in_play.contains("left)"), "{in_play}");
    let result = text
        .lines()
        .find(|l| l.starts_with(&format!("#{done} ")))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(result.contains("dave"), "{result}");
    assert!(!text.contains("#1 "), "the game off the server: {text}");
    // The open seat carries its Join button.
    assert_eq!(r[0].buttons.len(), 1, "{r:#?}");
    assert!(r[0].buttons[0].custom_id.ends_with(":join"));
    // Mine stays the default.
    let mine = ok(&e, "@frank /games").await;
    assert!(mine[0].content.contains("no games"), "{}", mine[0].content);
    // Outside a server there is no server to list.
    let refused = e.refused("@frank /games scope:server").await;
    assert!(refused.contains("not on a server"), "{refused}");
}

/// T26: a follower is pinged once, when the game ends, and never for turns.
#[tokio::test]
async fn a_follower_is_pinged_once_at_the_end_and_never_for_turns() {
    let e = env("follow").await;
    let (id, mover, other) = e.duel().await;
    let r = e.ok(&format!("@carol /follow game:{id}")).await;
    assert!(r[0].ephemeral_to.is_some(), "{r:#?}");
    let again = e.refused(&format!("@carol /follow game:{id}")).await;
    assert!(again.contains("already follow"), "{again}");
    e.ok(&format!("@dave /follow game:{id}")).await;
    e.ok(&format!("@dave /follow game:{id} stop:yes")).await;
    let carol = user("carol").id;
    let dave = user("dave").id;
    let pinged = |rs: &[Reply], who: u64| rs.iter().any(|r| r.mentions.iter().any(|m| m.id == who));
    let action = e.actions(mover, id).await.remove(0);
    let turn = e
        .ok(&format!("@{mover} /play game:{id} action:{action}"))
        .await;
    assert!(!pinged(&turn, carol), "{turn:#?}");
    let end = e
        .ok(&format!("@{other} /resign game:{id} confirm:yes"))
        .await;
    assert!(pinged(&end, carol), "{end:#?}");
    assert!(!pinged(&end, dave), "dave stopped following: {end:#?}");
    // The ping is stored with the end, in the outbox, as every announcement.
    assert!(end
        .iter()
        .any(|r| r.outbox.is_some() && r.mentions.iter().any(|m| m.id == carol)));
    let over = e.refused(&format!("@carol /follow game:{id}")).await;
    assert!(over.contains("is over"), "{over}");
}

/// T27: an unanswered invitation is reminded once half-way through the deadline, then
/// expires and the game is cancelled.
#[tokio::test]
async fn an_unanswered_invitation_is_reminded_half_way_then_expires() {
    let e = env("invitation-expiry").await;
    e.ok(&format!(
        "@alice /new game:{GAME} {CREATOR_OPTIONS} opponent:@bob deadline:4d"
    ))
    .await;
    let bob = user("bob").id;
    e.clock.advance(2 * 24 * 3600 * 1000 - 60_000).unwrap();
    assert!(e.table.tick().await.is_empty());
    e.clock.advance(120_000).unwrap();
    let reminded = e.table.tick().await;
    assert_eq!(reminded.len(), 1, "{reminded:#?}");
    assert!(
        reminded[0].content.starts_with("Reminder: bob"),
        "{reminded:#?}"
    );
    assert!(reminded[0].mentions.iter().any(|m| m.id == bob));
    assert!(
        !reminded[0].buttons.is_empty(),
        "the reminder carries the buttons"
    );
    // Once only.
    e.clock.advance(24 * 3600 * 1000).unwrap();
    assert!(e.table.tick().await.is_empty());
    e.clock.advance(24 * 3600 * 1000).unwrap();
    let expired = e.table.tick().await;
    assert_eq!(expired.len(), 1, "{expired:#?}");
    assert!(
        expired[0]
            .content
            .contains("is cancelled: bob did not answer"),
        "{expired:#?}"
    );
    let late = e.refused("@bob /accept game:1").await;
    assert!(late.contains("no invitation"), "{late}");
    assert!(e.table.tick().await.is_empty());
}
