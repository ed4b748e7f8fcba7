//! What the table reads from players' typing: compact moves, a Gladiator
//! King's override typed as `/play king: c1-b2` (T17), `/rules <game>
//! <topic>` as the rule pages write it (T17), and refusals of an unknown name
//! or value that say which one was meant.

mod common;
use common::*;

/// A plain move `a-b` of `who` in game `id`.
async fn plain_move(e: &Env, who: &str, id: u64) -> (String, String) {
    e.actions(who, id)
        .await
        .into_iter()
        .find_map(|a| {
            let (from, to) = a.split_once('-')?;
            (from.len() == 2 && to.len() == 2).then(|| (from.to_string(), to.to_string()))
        })
        .expect("a plain move")
}

#[tokio::test]
async fn a_move_typed_compact_is_played_as_written() {
    let e = env("notation-compact").await;
    let (id, mover, other) = e.duel().await;
    let (from, to) = plain_move(&e, mover, id).await;
    let r = e.ok(&format!("@{mover} /play game:{id} {from} {to}")).await;
    assert!(
        r[0].content.contains(&format!("{from}-{to}")),
        "{}",
        r[0].content
    );
    let (from, to) = plain_move(&e, other, id).await;
    let r = e.ok(&format!("@{other} /play {from}{to}")).await;
    assert!(
        r[0].content.contains(&format!("{from}-{to}")),
        "{}",
        r[0].content
    );
}

#[tokio::test]
async fn a_move_past_its_end_says_which_part_is_wrong() {
    let e = env("notation-too-many").await;
    let (id, mover, _) = e.duel().await;
    let refused = e
        .refused(&format!("@{mover} /play game:{id} b1-c3-d4"))
        .await;
    assert!(refused.contains("'-d4' is one too many"), "{refused}");
}

/// T17: `king:` at the start of `/play` is the start of the action, with or
/// without a space after it.
#[tokio::test]
async fn a_kings_override_typed_after_play_is_read_as_the_action() {
    let e = env("notation-king").await;
    for (id, typed) in [(1, "king: b2-b4"), (2, "king:b2-b4")] {
        e.ok("@alice /new game:gladiator opponent:@bob").await;
        e.ok(&format!("@bob /accept game:{id}")).await;
        e.ok(&format!("@alice /play action:j2-j4 game:{id}")).await;
        let r = e.ok(&format!("@alice /play game:{id} {typed}")).await;
        assert!(
            r[0].content.contains("overrides the Queen's move"),
            "{typed}: {}",
            r[0].content
        );
    }
}

/// T17: `/rules arcana blue-knight` and `/rules arcana rulings`, as the rule
/// pages tell players to type them.
#[tokio::test]
async fn rules_read_the_game_then_the_topic() {
    let e = env("notation-rules").await;
    let card = e.ok("@alice /rules arcana blue-knight").await;
    assert!(
        card[0].content.contains("Blue Knight"),
        "{}",
        card[0].content
    );
    let same = e.ok("@alice /rules game:arcana unit:blue-knight").await;
    assert_eq!(card[0].content, same[0].content);
    let king = e.ok("@alice /rules magic chess king").await;
    assert!(
        king[0].content.starts_with("King (K)"),
        "{}",
        king[0].content
    );

    // The rulings list follows engine/rules/arcana.md.
    let rulings = e.ok("@alice /rules arcana rulings").await;
    let page = include_str!("../../engine/rules/arcana.md");
    let heads: Vec<&str> = page
        .lines()
        .filter_map(|l| l.strip_prefix("**"))
        .filter_map(|l| l.split_once(". ").map(|(id, _)| id))
        .filter(|id| id.len() > 1 && id.starts_with(['R', 'U']) && id[1..].parse::<u32>().is_ok())
        .collect();
    assert!(heads.len() > 30, "{heads:?}");
    for id in heads {
        assert!(
            rulings[0].content.contains(&format!("\n{id}. ")),
            "{id} missing: {}",
            rulings[0].content
        );
    }

    let both = e.refused("@alice /rules arcana mummy unit:zombie").await;
    assert!(both.contains("Name one topic"), "{both}");
}

#[tokio::test]
async fn unknown_names_get_did_you_mean() {
    let e = env("notation-did-you-mean").await;
    let cases = [
        (
            "@alice /rules arcana blue-knigth",
            "Did you mean blue-knight?",
        ),
        ("@alice /rules arcanna", "Did you mean arcana?"),
        ("@alice /rules gladiater king", "Did you mean gladiator?"),
        (
            "@alice /new game:arcanna opponent:@bob",
            "Did you mean arcana?",
        ),
        (
            "@alice /new game:arcana army:humen opponent:@bob",
            "Did you mean human?",
        ),
        (
            "@alice /new game:arcana first:creater opponent:@bob",
            "Did you mean creator?",
        ),
        (
            "@alice /new game:arachne variant:strategst opponent:@bob",
            "Did you mean strategist?",
        ),
        (
            "@alice /new game:arcana amry:human opponent:@bob",
            "Did you mean army?",
        ),
        (
            "@alice /new game:arcana oponent:@bob",
            "Did you mean opponent?",
        ),
        ("@alice /games gmae:1", ""),
        ("@alice /board gmae:1", "Did you mean game?"),
    ];
    for (line, says) in cases {
        let refused = e.refused(line).await;
        assert!(refused.contains(says), "{line}: {refused}");
    }
    // Nothing near: no guess.
    let refused = e.refused("@alice /new game:arcana army:dragon").await;
    assert!(!refused.contains("Did you mean"), "{refused}");
}

/// `/new deadline:` sets the game's own move deadline (T25); a value out of range is refused
/// with the range.
#[tokio::test]
async fn a_deadline_at_new_is_the_games_own() {
    let e = env("notation-deadline").await;
    let refused = e
        .refused("@alice /new game:arcana deadline:100d opponent:@bob")
        .await;
    assert!(refused.contains("from 1d to 90d"), "{refused}");
    e.ok("@alice /new game:arcana deadline:3d opponent:@bob")
        .await;
}
