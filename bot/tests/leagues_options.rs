//! The options a league is made with that its games carry: `rated:no` (T28,
//! T49) and `vacation:off` (T50), stored in the league record (format 3),
//! said in its invitation and description, and given to every game it
//! starts (docs/rulings.md, Leagues).

mod common;
use common::*;
use tokar_bot::league::{decode_league, LEAGUE_FORMAT};
use tokar_bot::Reply;

const FIXTURE_2: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/league-2.json");
const FIXTURE_3: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/league-3.json");

/// The number of the one game a league of two started.
fn only_game(replies: &[Reply]) -> u64 {
    let ids: Vec<u64> = replies
        .iter()
        .filter(|r| r.content.contains(") begins: "))
        .filter_map(|r| r.content.split("Game #").nth(1))
        .map(|rest| rest.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(ids.len(), 1, "{replies:#?}");
    ids[0]
}

/// A league of alice and bob made with `more`, accepted: its game's number.
async fn league_of_two(e: &Env, name: &str, more: &str) -> (u64, Vec<Reply>) {
    let made = e
        .ok(&format!(
            "@alice /league new game:arcana name:{name} players:@alice @bob {more}"
        ))
        .await;
    let r = e.ok(&format!("@bob /league accept name:{name}")).await;
    (only_game(&r), made)
}

async fn leaderboard(e: &Env) -> String {
    e.ok("@alice /leaderboard game:arcana").await[0]
        .content
        .clone()
}

/// Plays two actions each in game `id`, then ends it in a draw agreed by
/// both: rated unless the game is not (a person who never acted is left out,
/// T29; a draw is no resignation, T48).
async fn agree_a_draw(e: &Env, id: u64) {
    for _ in 0..4 {
        e.play_first(id, &["alice", "bob"]).await;
    }
    e.ok(&format!("@alice /draw game:{id}")).await;
    e.ok(&format!("@bob /draw game:{id} answer:accept")).await;
}

/// Leagues are rated unless created `rated:no`: the default league's game
/// refuses `/hint` as every rated game does (T49) and its draw is rated; a
/// `rated:no` league says so in its invitation and table, its game answers
/// `/hint` as an unrated game between people does, and its draw changes no
/// rating.
#[tokio::test]
async fn a_league_made_rated_no_starts_unrated_games_with_hints() {
    let e = env("league-unrated").await;
    let (id, made) = league_of_two(&e, "Friendly", "rated:no").await;
    assert!(
        made[0]
            .content
            .contains("Unrated: its games do not count for ratings"),
        "{}",
        made[0].content
    );
    let mover = e.to_act(id, &["alice", "bob"]).await.unwrap();
    let waiting = if mover == "alice" { "bob" } else { "alice" };
    // Hints are on (the game's default when unrated): the only refusal left
    // for the player who waits is whose turn it is.
    let why = e.refused(&format!("@{waiting} /hint game:{id}")).await;
    assert!(why.contains("not your turn"), "{why}");
    agree_a_draw(&e, id).await;
    assert!(leaderboard(&e).await.starts_with("No rated"));
    let t = e.ok("@alice /league table name:Friendly").await;
    assert!(t[0].content.contains("Unrated: "), "{}", t[0].content);

    let (id, made) = league_of_two(&e, "Serious", "").await;
    assert!(
        made[0]
            .content
            .contains("Rated: its games count for ratings and are played without hints"),
        "{}",
        made[0].content
    );
    let why = e.refused(&format!("@bob /hint game:{id}")).await;
    assert_eq!(
        why,
        format!("Game #{id} is rated, and rated games are played without hints.")
    );
    agree_a_draw(&e, id).await;
    assert!(!leaderboard(&e).await.starts_with("No rated"));
}

/// A league made `vacation:off` says so, and its games keep their clocks
/// running through a player's vacation (T50): the opponents are not told of
/// a vacation that does not pause them, and the deadline passes during it.
#[tokio::test]
async fn a_league_made_vacation_off_gives_its_games_vacation_off() {
    let e = env("league-no-vacation").await;
    let (id, made) = league_of_two(&e, "Strict", "vacation:off").await;
    assert!(
        made[0]
            .content
            .contains("No vacation: /vacation does not stop its games' clocks."),
        "{}",
        made[0].content
    );
    let waiting = e.to_act(id, &["alice", "bob"]).await.unwrap();
    let r = e.ok(&format!("@{waiting} /vacation on")).await;
    assert!(
        r.iter().all(|r| !r.content.contains(&format!("#{id}"))),
        "a game without vacations is not told: {r:#?}"
    );
    // The league's deadline is the creator's default, 7 days.
    e.clock.advance(7 * 24 * 3_600_000 + 3_600_000).unwrap();
    let r = e.table.tick().await;
    assert!(
        r.iter()
            .any(|r| r.content.contains(&format!("Game #{id}:")) && r.content.contains("/claim")),
        "the deadline passes during the vacation: {r:#?}"
    );
}

/// A default league's game stops for a vacation, as every game does.
#[tokio::test]
async fn a_league_with_vacations_on_pauses_for_them() {
    let e = env("league-vacation").await;
    let (id, made) = league_of_two(&e, "Easy", "").await;
    assert!(
        !made[0].content.contains("No vacation"),
        "{}",
        made[0].content
    );
    let waiting = e.to_act(id, &["alice", "bob"]).await.unwrap();
    let r = e.ok(&format!("@{waiting} /vacation on")).await;
    assert!(
        r.iter().any(|r| r.content.contains(&format!("#{id}"))),
        "the opponent is told the game is paused: {r:#?}"
    );
    e.clock.advance(7 * 24 * 3_600_000 + 3_600_000).unwrap();
    let r = e.table.tick().await;
    assert!(
        r.iter().all(|r| !r.content.contains("/claim")),
        "no deadline passes while away: {r:#?}"
    );
}

/// Values that are not yes or no are refused in one line, and nothing is made.
#[tokio::test]
async fn bad_rated_or_vacation_values_are_refused() {
    let e = env("league-bad-options").await;
    let why = e
        .refused("@alice /league new game:arcana name:X players:@alice @bob rated:maybe")
        .await;
    assert_eq!(why, "rated:maybe must be yes or no.");
    let why = e
        .refused("@alice /league new game:arcana name:X players:@alice @bob vacation:sometimes")
        .await;
    assert_eq!(why, "vacation:sometimes must be yes or no.");
    assert!(e.ok("@alice /league list").await[0]
        .content
        .contains("No leagues here yet"));
}

/// The stored league of format 3 loads with its options; one of format 2
/// (from before them) is read as rated with vacations on, as leagues were.
#[tokio::test]
async fn league_records_of_format_3_load_and_older_ones_are_rated_with_vacations() {
    let rec = decode_league(&std::fs::read(FIXTURE_3).unwrap()).unwrap();
    assert_eq!(rec.format, 3);
    assert_eq!(LEAGUE_FORMAT, 3);
    assert_eq!(rec.name, "Autumn");
    assert!(!rec.rated);
    assert!(!rec.vacation);
    let old = decode_league(&std::fs::read(FIXTURE_2).unwrap()).unwrap();
    assert_eq!(old.format, 3, "read into the current format");
    assert!(old.rated);
    assert!(old.vacation);
    let dir = fresh_dir("league-fixture-3");
    {
        let store = open_store(&dir);
        for _ in &rec.fixtures {
            store.next_game_id().unwrap();
        }
        store.put_league(&rec, None, &[]).unwrap();
    }
    let e = open(&dir, Some(7)).await;
    e.table.tick().await;
    let t = e.ok("@bob /league table name:Autumn").await;
    assert!(t[0].content.contains("Unrated: "), "{}", t[0].content);
    assert!(t[0].content.contains("No vacation: "), "{}", t[0].content);
}
