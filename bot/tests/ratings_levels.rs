//! Tokar's rating per level (ruling T52 in docs/rulings.md), through the table: where a server
//! rates games against Tokar, each level is a player of its own, shown as "Tokar (hard)" on
//! /leaderboard, /stats and the result message; and the rating the bot held before levels
//! (rating records of version 2) still loads.

mod common;
use common::*;
use std::sync::Arc;
use tokar_bot::clock::VirtualClock;
use tokar_bot::duration::DAY;
use tokar_bot::rating::levels::level_player;
use tokar_bot::rating::{glicko2_period, Rating, Score};
use tokar_bot::storage::GLOBAL;
use tokar_bot::table::robot::RobotConfig;
use tokar_bot::{Reply, Table, TableConfig};
use tokar_engine::catalog::GameKind;
use tokar_engine::search::Level;

/// The server the games are played on; it rates games against Tokar.
const SERVER: u64 = 77;

/// A table on `dir` whose bot is the test user `bot`, searching a few iterations per move
/// (fast and the same on every run).
async fn open_as(dir: &std::path::Path, bot: &str) -> Env {
    let clock = Arc::new(VirtualClock::open(dir).unwrap());
    let table = Table::open(TableConfig {
        data_dir: dir.to_path_buf(),
        storage: Default::default(),
        clock: clock.clone(),
        seed: Some(5),
        robot: RobotConfig {
            user: user(bot),
            iterations: Some(24),
            ..Default::default()
        },
    })
    .await
    .unwrap();
    Env {
        dir: dir.to_path_buf(),
        clock,
        table,
    }
}

/// Runs a line on [`SERVER`] (as someone with Manage Server); it must be accepted.
async fn on_server(e: &Env, line: &str) -> Vec<Reply> {
    for word in line.split_whitespace() {
        if let Some(name) = word.split(':').nth(1).and_then(|v| v.strip_prefix('@')) {
            e.table.remember_user(&user(name)).await.unwrap();
        }
    }
    let mut req = request(line);
    req.channel.guild = Some(SERVER);
    req.manage_server = true;
    let r = e.table.handle(req).await;
    assert!(
        !r.is_empty() && r.iter().all(|r| r.ok),
        "{line} refused: {r:#?}"
    );
    r
}

fn game_number(r: &[Reply]) -> u64 {
    r[0].content
        .split('#')
        .nth(1)
        .unwrap()
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// `who` creates an Arcana game against Tokar at `level`: its number.
async fn against(e: &Env, who: &str, level: &str) -> u64 {
    let r = on_server(
        e,
        &format!("@{who} /new game:arcana army:human opponent:@Tokar level:{level}"),
    )
    .await;
    game_number(&r)
}

/// `who` plays their first legal action `n` times in game `id`; the replies of the last.
async fn plays(e: &Env, who: &str, id: u64, n: usize) -> Vec<Reply> {
    let mut last = Vec::new();
    for _ in 0..n {
        let acts = e.actions(who, id).await;
        assert!(!acts.is_empty(), "{who} cannot act in #{id}");
        last = on_server(e, &format!("@{who} /play game:{id} action:\"{}\"", acts[0])).await;
    }
    last
}

/// T52: a person beats the easy bot twice and loses to the hard one. The levels hold
/// standings of their own (and the bot's user id none: there is no shared rating), the
/// person's loss is rated against the hard level's rating (untouched by the easy games),
/// and the levels are shown as "Tokar (hard)" in the result, /stats and /leaderboard.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_bot_level_has_its_own_rating() {
    let dir = fresh_dir("ratings-levels");
    let e = open_as(&dir, "Tokar").await;
    on_server(&e, "@alice /server threads:off rated-bots:on").await;
    let easy = [
        against(&e, "alice", "easy").await,
        against(&e, "alice", "easy").await,
    ];
    for id in easy {
        plays(&e, "alice", id, 6).await;
    }
    drop(e);
    // alice beats the easy bot by claims: the table reopened with another bot account, so
    // nobody answers for Tokar's seats, which then miss their deadline.
    let e = open_as(&dir, "Robo").await;
    for id in easy {
        plays(&e, "alice", id, 1).await;
    }
    e.clock.advance(8 * DAY).unwrap();
    e.table.tick().await;
    for id in easy {
        let r = on_server(&e, &format!("@alice /claim game:{id}")).await;
        assert!(
            r.iter().any(|r| r.content.contains("is over")),
            "#{id}: {r:#?}"
        );
    }
    drop(e);
    let e = open_as(&dir, "Tokar").await;
    // alice loses to the hard bot; bob and carol too (the level then met three people).
    let hard = against(&e, "alice", "hard").await;
    plays(&e, "alice", hard, 6).await;
    let r = on_server(&e, &format!("@alice /resign game:{hard} confirm:yes")).await;
    let ending = r.iter().map(|r| r.content.as_str()).collect::<Vec<_>>();
    assert!(
        ending
            .iter()
            .any(|c| c.contains("Rating (Arcana, this server): ")
                && c.contains("Tokar (hard) 1500? → 1")),
        "{ending:#?}"
    );
    for who in ["bob", "carol"] {
        let id = against(&e, who, "hard").await;
        plays(&e, who, id, 6).await;
        on_server(&e, &format!("@{who} /resign game:{id} confirm:yes")).await;
    }
    let normal = against(&e, "alice", "normal").await;
    plays(&e, "alice", normal, 6).await;
    on_server(&e, &format!("@alice /resign game:{normal} confirm:yes")).await;

    let stats = on_server(&e, "@alice /stats user:@Tokar").await[0]
        .content
        .clone();
    assert!(
        stats.contains("Arcana (easy): ")
            && stats.contains(" · 2 games · 0 wins, 0 draws, 2 losses"),
        "{stats}"
    );
    assert!(stats.contains("Arcana (hard): "), "{stats}");
    assert!(
        stats.contains(" · 3 games · 3 wins, 0 draws, 0 losses"),
        "{stats}"
    );
    assert!(stats.contains("Arcana (normal): "), "{stats}");
    assert!(
        !stats.contains("Arcana: ") && !stats.contains("all levels"),
        "{stats}"
    );
    let h2h = on_server(&e, "@alice /stats against:@Tokar").await[0]
        .content
        .clone();
    assert!(
        h2h.contains("Against Tokar (easy): 2 wins, 0 draws, 0 losses in rated games."),
        "{h2h}"
    );
    assert!(
        h2h.contains("Against Tokar (hard): 0 wins, 0 draws, 1 loss in rated games."),
        "{h2h}"
    );
    let board = on_server(&e, "@alice /leaderboard game:arcana").await[0]
        .content
        .clone();
    assert!(board.contains("- Tokar (hard) "), "{board}");
    assert!(!board.contains("Tokar (easy)"), "met only alice: {board}");
    drop(e);

    let store = open_store(&dir);
    let kind = GameKind::Arcana;
    let bot = user("Tokar").id;
    let alice = user("alice").id;
    for scope in [GLOBAL, SERVER] {
        assert_eq!(
            store.standing(kind, scope, bot).unwrap(),
            None,
            "no shared rating"
        );
    }
    let level = |l| {
        store
            .standing(kind, GLOBAL, level_player(l))
            .unwrap()
            .unwrap()
    };
    let (e_, n_, h_) = (level(Level::Easy), level(Level::Normal), level(Level::Hard));
    assert_eq!((e_.games, e_.wins, e_.losses), (2, 0, 2));
    assert_eq!((n_.games, n_.wins, n_.losses), (1, 1, 0));
    assert_eq!((h_.games, h_.wins, h_.losses), (3, 3, 0));
    assert!(e_.rating != n_.rating && n_.rating != h_.rating && e_.rating != h_.rating);
    // alice's loss to the hard bot moved her against the hard level's rating as it stood
    // (the start: it had not played), not against the easy level's, lowered by her wins.
    let entry = |player| {
        store
            .rating_history(kind, GLOBAL, player)
            .unwrap()
            .into_iter()
            .find(|h| h.game == hard)
            .unwrap()
    };
    let (mine, theirs) = (entry(alice), entry(level_player(Level::Hard)));
    assert_eq!(theirs.before, Rating::initial(kind));
    assert_eq!(
        mine.after,
        glicko2_period(kind, &mine.before, &[(theirs.before, Score::Loss)])
    );
    let easy_then = store
        .rating_history(kind, GLOBAL, level_player(Level::Easy))
        .unwrap()
        .last()
        .unwrap()
        .after;
    assert!(easy_then.value() < 1400.0, "{easy_then:?}");
    assert_ne!(
        mine.after,
        glicko2_period(kind, &mine.before, &[(easy_then, Score::Loss)])
    );
}

/// Rating records of version 2 in which the bot held one rating for all its levels load:
/// /stats shows it as "Tokar (all levels)", as it was, and the head-to-head counts it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bots_rating_from_before_levels_loads() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/ratings-2-bot.json"
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let dir = fresh_dir("ratings-levels-v2");
    {
        let store = open_store(&dir);
        let items = v["items"].as_array().unwrap();
        assert_eq!(items.len(), 6);
        for kv in items {
            let k = kv[0].as_str().unwrap();
            let k: Vec<u8> = (0..k.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&k[i..i + 2], 16).unwrap())
                .collect();
            store
                .put_raw(&k, kv[1].as_str().unwrap().as_bytes())
                .unwrap();
        }
    }
    // The default bot: user id 1, named Tokar, as in the records.
    let e = open(&dir, Some(7)).await;
    let stats = e.ok("@alice /stats user:<@1>").await[0].content.clone();
    assert!(
        stats.contains("Arcana (all levels): 1338? · 1 game · 0 wins, 0 draws, 1 loss"),
        "{stats}"
    );
    let mine = e.ok("@alice /stats against:<@1>").await[0].content.clone();
    assert!(mine.contains("Arcana: 1662? · 1 game · 1 win"), "{mine}");
    assert!(
        mine.contains("Against Tokar (all levels): 1 win, 0 draws, 0 losses in rated games."),
        "{mine}"
    );
}
