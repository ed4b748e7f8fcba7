//! `tokar restore FILE --game N` recomputes the ratings the game touches (docs/backups.md
//! and docs/ratings.md): a game restored to before its end no longer counts, and a
//! restored finished game counts once, with every later rating as if the games had ended as
//! the store then holds them.

mod common;
use common::*;
use tokar_bot::storage::{Standing, Store, StoreSettings, GLOBAL};
use tokar_engine::catalog::GameKind;

/// Five plays each (T48: a resignation before that leaves the game unrated).
const REAL_PLAY: usize = tokar_bot::rating::places::MIN_PLAYS_BEFORE_RESIGNING;

/// Plays legal moves of whoever is to act until each of `names` made `n` plays.
async fn play_each(e: &Env, id: u64, names: &[&str], n: usize) {
    let mut made = vec![0usize; names.len()];
    while made.iter().any(|m| *m < n) {
        let who = e.to_act(id, names).await.expect("someone is to act");
        let action = e.actions(who, id).await.remove(0);
        e.clock.advance(tokar_bot::duration::HOUR).unwrap();
        e.ok(&format!("@{who} /play game:{id} action:\"{action}\""))
            .await;
        made[names.iter().position(|x| *x == who).unwrap()] += 1;
    }
}

fn backup(dir: &std::path::Path, name: &str) -> std::path::PathBuf {
    let file = dir.join(name);
    let store = Store::open_existing(dir, &StoreSettings::default()).unwrap();
    tokar_bot::backup::write(&store, &file).unwrap();
    file
}

/// The real binary's `restore FILE --data DIR --game N`; its message.
fn restore_game(file: &std::path::Path, dir: &std::path::Path, id: u64) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tokar"))
        .arg("restore")
        .arg(file)
        .arg("--data")
        .arg(dir)
        .args(["--game", &id.to_string()])
        .env_remove("TOKAR_DATABASE_URL")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Each player's Arcana standing across servers (`None`: never rated).
fn standings(dir: &std::path::Path) -> Vec<Option<Standing>> {
    let store = open_store(dir);
    ["alice", "bob", "carol"]
        .iter()
        .map(|n| {
            store
                .standing(GameKind::Arcana, GLOBAL, user(n).id)
                .unwrap()
        })
        .collect()
}

/// alice beats bob (#1), then carol (#2). Restoring #1 from a backup taken before its end
/// leaves it unrated: bob has no rating, alice's counts #2 alone, from the start, as if #1
/// had never ended. Restoring it from a backup taken after its end counts it once again,
/// and every rating is what it was.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restore_game_recomputes_the_ratings_it_touches() {
    let dir = fresh_dir("ratings-restore");
    let e = open(&dir, Some(7)).await;
    let first = e.start("alice", "bob").await;
    play_each(&e, first, &["alice", "bob"], REAL_PLAY).await;
    drop(e);
    let before_end = backup(&dir, "before-end.backup");
    let e = open(&dir, Some(7)).await;
    e.ok(&format!("@bob /resign game:{first} confirm:yes"))
        .await;
    let second = e.start("alice", "carol").await;
    play_each(&e, second, &["alice", "carol"], REAL_PLAY).await;
    e.ok(&format!("@carol /resign game:{second} confirm:yes"))
        .await;
    drop(e);
    let after_end = backup(&dir, "after-end.backup");
    let both = standings(&dir);
    assert_eq!(both[0].as_ref().unwrap().games, 2, "{both:?}");

    let said = restore_game(&before_end, &dir, first);
    assert!(
        said.contains("ratings of Arcana recomputed from 1 rated game(s)"),
        "{said}"
    );
    let [alice, bob, carol] = <[_; 3]>::try_from(standings(&dir)).unwrap();
    assert_eq!(bob, None, "#1 is not over: bob was never rated");
    let (alice, carol) = (alice.unwrap(), carol.unwrap());
    assert_eq!((alice.games, alice.wins), (1, 1));
    // #2 from the start for both: the crate's duel, 1662 and 1338 (T30).
    assert_eq!(alice.rating.shown(), "1662?");
    assert_eq!(carol.rating.shown(), "1338?");
    {
        let store = open_store(&dir);
        assert_eq!(store.rated_game(first).unwrap(), None);
        assert!(store.rated_game(second).unwrap().is_some());
        let kind = GameKind::Arcana;
        assert!(store
            .pair_games(kind, user("alice").id, user("bob").id)
            .unwrap()
            .at
            .is_empty());
        let history = store
            .rating_history(kind, GLOBAL, user("alice").id)
            .unwrap();
        assert_eq!(history.len(), 1, "{history:?}");
        assert_eq!(history[0].game, second);
    }
    // The restored game plays on, and is rated when it ends.
    let e = open(&dir, Some(7)).await;
    e.ok("@alice /board game:1").await;
    drop(e);

    let said = restore_game(&after_end, &dir, first);
    assert!(said.contains("from 2 rated game(s)"), "{said}");
    assert_eq!(
        standings(&dir),
        both,
        "#1 counts once, and all is as it was"
    );
}
