//! `/new record:` replays the whole record when it is given (ruling T14, docs/rulings.md): a record that cannot be replayed,
//! or one cut from a game in play whose dice or cards decide its actions, is refused at /new,
//! not when the invitee accepts. On the console a record with spaces is quoted, so that it
//! pastes back whole.

mod common;
use common::*;
use tokar_bot::console::{parse_line, Line};

/// The record of game `id`, as /export shows it (quoted where it has spaces).
async fn shown_record(e: &Env, who: &str, id: u64) -> String {
    let x = e.ok(&format!("@{who} /export game:{id}")).await;
    x[0].content.split('`').nth(1).expect("a record").to_owned()
}

#[tokio::test]
async fn a_record_that_does_not_replay_is_refused_at_new() {
    let e = env("record-bad-action").await;
    let id = e.start("alice", "bob").await;
    let mover = e.to_act(id, &["alice", "bob"]).await.unwrap();
    let action = e.actions(mover, id).await[0].clone();
    e.ok(&format!("@{mover} /play game:{id} action:{action}"))
        .await;
    e.ok(&format!("@alice /resign game:{id} confirm:yes")).await;
    let record = shown_record(&e, "alice", id).await;
    // The first action twice: the second cannot apply.
    let mut parts: Vec<&str> = record.split('|').collect();
    parts.insert(5, parts[4]);
    let broken = parts.join("|");
    let refused = e
        .refused(&format!("@carol /new record:{broken} opponent:@dave"))
        .await;
    assert!(
        refused.contains("cannot be replayed") && refused.contains("action 2"),
        "{refused}"
    );
    // Nothing was created: dave has no invitation.
    let none = e.refused("@dave /accept").await;
    assert!(none.contains("no invitation"), "{none}");

    // The record as it is replays.
    e.ok(&format!("@carol /new record:{record} opponent:@dave"))
        .await;
    e.ok("@dave /accept").await;
}

#[tokio::test]
async fn a_record_cut_from_a_game_in_play_is_refused_where_chance_shaped_it() {
    // Who moves first in Tokar's Arcana is drawn from the game's seed, which a game in
    // play keeps secret; with the first mover chosen by an option, chance decides nothing
    // and the cut record replays.
    let e = env("record-arcana-cut").await;
    let id = e.start("alice", "bob").await;
    let mover = e.to_act(id, &["alice", "bob"]).await.unwrap();
    let action = e.actions(mover, id).await[0].clone();
    e.ok(&format!("@{mover} /play game:{id} action:{action}"))
        .await;
    let cut = shown_record(&e, "alice", id).await;
    assert!(cut.contains("seed=?"), "{cut}");
    let refused = e
        .refused(&format!("@carol /new record:{cut} opponent:@dave"))
        .await;
    assert!(refused.contains("being played"), "{refused}");

    let chosen = e
        .ok("@erin /new game:arcana army:human first:creator opponent:@frank")
        .await;
    let id: u64 = chosen[0]
        .content
        .split('#')
        .nth(1)
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    e.ok(&format!("@frank /accept game:{id} army:undead")).await;
    let action = e.actions("erin", id).await[0].clone();
    e.ok(&format!("@erin /play game:{id} action:{action}"))
        .await;
    let cut = shown_record(&e, "erin", id).await;
    assert!(cut.contains("seed=?"), "{cut}");
    e.ok(&format!("@carol /new record:{cut} opponent:@dave"))
        .await;
}

#[tokio::test]
async fn a_record_cut_from_a_game_with_dice_is_refused_until_the_game_ends() {
    let e = env("record-dice-cut").await;
    e.ok("@alice /new game:arachne opponent:@bob").await;
    e.ok("@bob /accept game:1").await;
    let mover = e.to_act(1, &["alice", "bob"]).await.unwrap();
    let action = e.actions(mover, 1).await[0].clone();
    e.ok(&format!("@{mover} /play game:1 action:{action}"))
        .await;
    let cut = shown_record(&e, "alice", 1).await;
    assert!(cut.contains("seed=?"), "{cut}");
    let refused = e
        .refused(&format!("@carol /new record:{cut} opponent:@dave"))
        .await;
    assert!(
        refused.contains("being played") && refused.contains("once the game is over"),
        "{refused}"
    );

    // Once the game is over its record carries the seed and replays.
    e.ok("@alice /resign game:1 confirm:yes").await;
    let whole = shown_record(&e, "alice", 1).await;
    assert!(!whole.contains("seed=?"), "{whole}");
    e.ok(&format!("@carol /new record:{whole} opponent:@dave"))
        .await;
}

#[tokio::test]
async fn a_record_with_spaces_is_quoted_and_pastes_back_whole_on_the_console() {
    let e = env("record-quoted").await;
    // Magic Chess actions are written with spaces ("cast ..."), and so are decisions.
    e.ok("@alice /new game:magic-chess players:2 partners:yes opponent:@bob")
        .await;
    e.ok("@bob /accept game:1").await;
    let mut spaced = false;
    for _ in 0..40 {
        let Some(mover) = e.to_act(1, &["alice", "bob"]).await else {
            break;
        };
        let actions = e.actions(mover, 1).await;
        let action = actions
            .iter()
            .find(|a| a.contains(' '))
            .unwrap_or(&actions[0])
            .clone();
        spaced |= action.contains(' ');
        e.ok(&format!("@{mover} /play game:1 action:\"{action}\""))
            .await;
        if spaced {
            break;
        }
    }
    assert!(spaced, "an action with a space was played");
    e.ok("@alice /resign game:1 confirm:yes").await;
    let shown = shown_record(&e, "alice", 1).await;
    assert!(shown.starts_with('"') && shown.ends_with('"'), "{shown}");
    let line = format!("@carol /new record:{shown} opponent:@dave");
    let Ok(Line::Command { options, .. }) = parse_line(&line) else {
        panic!("{line} does not parse");
    };
    let record = options
        .iter()
        .find(|(k, _)| k == "record")
        .map(|(_, v)| v.clone())
        .unwrap();
    assert_eq!(
        format!("\"{record}\""),
        shown,
        "the console reads the record whole"
    );
    e.ok(&line).await;
}

/// Ruling T51: a game from a record keeps the record's armies. The record below has Human
/// for seat 0 and the default (the other army, Undead) for seat 1: an `/accept` with
/// another army is refused with the record's value, and the game replays as the record's.
#[tokio::test]
async fn the_records_army_kept() {
    let e = env("record-army-kept").await;
    let r = e
        .ok("@erin /new game:arcana army:human first:creator opponent:@frank")
        .await;
    let id: u64 = r[0]
        .content
        .split('#')
        .nth(1)
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    let began = e.ok(&format!("@frank /accept game:{id}")).await[0]
        .content
        .clone();
    let action = e.actions("erin", id).await[0].clone();
    e.ok(&format!("@erin /play game:{id} action:{action}"))
        .await;
    let record = shown_record(&e, "erin", id).await;

    let r = e
        .ok(&format!("@carol /new record:{record} opponent:@dave"))
        .await;
    let copy = id + 1;
    assert!(
        r[0].content.contains(&format!("game #{copy}")),
        "{}",
        r[0].content
    );
    let why = e
        .refused(&format!("@dave /accept game:{copy} army:human"))
        .await;
    assert_eq!(
        why,
        "The record has no army: for your seat (1) (its game had the default); a game from it keeps the record's options: leave out army:."
    );
    let why = e
        .refused(&format!(
            "@carol /new record:{record} opponent:@dave army:undead"
        ))
        .await;
    assert_eq!(
        why,
        "The record sets army:human for your seat (0); a game from it keeps the record's options: leave out army:."
    );
    let why = e
        .refused(&format!(
            "@carol /new record:{record} opponent:@dave first:opponent"
        ))
        .await;
    assert!(why.starts_with("The record sets first:creator"), "{why}");

    let r = e.ok(&format!("@dave /accept game:{copy}")).await;
    let lineup = |s: &str| {
        s.split("begins: ")
            .nth(1)
            .and_then(|r| r.split('.').next())
            .map(|l| l.replace("erin", "carol").replace("frank", "dave"))
            .unwrap_or_else(|| panic!("no line-up in {s}"))
    };
    assert_eq!(lineup(&r[0].content), lineup(&began), "the record's armies");
    assert_eq!(
        e.actions("dave", copy).await,
        e.actions("frank", id).await,
        "the same position, the same Undead moves"
    );
}
