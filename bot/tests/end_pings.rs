//! The end of a game is announced to every player (ruling T39, docs/rulings.md): the
//! result message mentions each person seated in the game exactly once (never the bot's
//! own seats), whether the game ended by a resignation, a claim at the move deadline or a
//! win on the board, in a duel and in games of four.

mod common;
use common::*;
use std::sync::Arc;
use tokar_bot::clock::VirtualClock;
use tokar_bot::duration::{DAY, HOUR};
use tokar_bot::table::robot::RobotConfig;
use tokar_bot::{Reply, Table, TableConfig};
use tokar_engine::catalog::{AnyGame, GameKind, Options};
use tokar_engine::{Outcome, Rng, Seat, Viewer};

/// The public message among `replies` that says the game is over.
fn result(replies: &[Reply]) -> &Reply {
    replies
        .iter()
        .find(|r| r.ok && r.ephemeral_to.is_none() && r.content.contains("is over"))
        .unwrap_or_else(|| panic!("no result message: {replies:#?}"))
}

/// Every one of `players` is mentioned in the result exactly once, and nobody else.
fn everyone_once(replies: &[Reply], players: &[&str]) {
    let r = result(replies);
    for p in players {
        let n = r.mentions.iter().filter(|m| m.id == user(p).id).count();
        assert_eq!(n, 1, "{p} mentioned {n} times in: {r:#?}");
    }
    assert_eq!(r.mentions.len(), players.len(), "{r:#?}");
}

const FOUR: [&str; 4] = ["alice", "bob", "carol", "dave"];

async fn magic_chess(e: &Env) -> u64 {
    e.ok("@alice /new game:magic-chess opponent:@bob opponent2:@carol opponent3:@dave")
        .await;
    for u in ["bob", "carol", "dave"] {
        e.ok(&format!("@{u} /accept game:1")).await;
    }
    1
}

#[tokio::test]
async fn a_resignation_pings_both_players() {
    let e = env("end-resign-duel").await;
    let (id, mover, _) = e.duel().await;
    let r = e
        .ok(&format!("@{mover} /resign game:{id} confirm:yes"))
        .await;
    everyone_once(&r, &["alice", "bob"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_last_resignation_of_four_pings_all_four() {
    let e = env("end-resign-four").await;
    let id = magic_chess(&e).await;
    for u in ["bob", "carol"] {
        let r = e.ok(&format!("@{u} /resign game:{id} confirm:yes")).await;
        assert!(r.iter().all(|r| !r.content.contains("is over")), "{r:#?}");
    }
    let r = e.ok(&format!("@dave /resign game:{id} confirm:yes")).await;
    everyone_once(&r, &FOUR);
}

#[tokio::test]
async fn a_claim_at_the_deadline_pings_both_players() {
    let e = env("end-claim-duel").await;
    e.ok(&format!(
        "@alice /new game:{GAME} {CREATOR_OPTIONS} opponent:@bob deadline:1d"
    ))
    .await;
    e.ok(&format!("@bob /accept game:1 {ACCEPT_OPTIONS}")).await;
    let waiting = e.to_act(1, &["alice", "bob"]).await.unwrap();
    let claimer = if waiting == "alice" { "bob" } else { "alice" };
    e.clock.advance(DAY + HOUR).unwrap();
    e.table.tick().await;
    let r = e.ok(&format!("@{claimer} /claim game:1")).await;
    everyone_once(&r, &["alice", "bob"]);
}

/// Gladiator Chess with four commanders is a duel of two teams: its deadline is claimed
/// (T1), by a player of the team not waited on, and the end pings all four.
#[tokio::test]
async fn a_claim_in_a_game_of_four_pings_all_four() {
    let e = env("end-claim-four").await;
    e.ok("@alice /new game:gladiator players:4 opponent:@bob opponent2:@carol opponent3:@dave deadline:1d")
        .await;
    for u in ["bob", "carol", "dave"] {
        e.ok(&format!("@{u} /accept game:1")).await;
    }
    e.clock.advance(DAY + HOUR).unwrap();
    e.table.tick().await;
    let mut ended = None;
    for u in FOUR {
        let r = e.run(&format!("@{u} /claim game:1")).await;
        if r.iter().all(|r| r.ok) {
            ended = Some(r);
            break;
        }
    }
    let r = ended.expect("a player of the team not waited on claims");
    everyone_once(&r, &FOUR);
}

/// A move for `seat`: one that wins now, else one that takes the most, ties at random.
fn greedy(g: &AnyGame, seat: Seat, rng: &mut Rng) -> String {
    let mine = |g: &AnyGame| -> i32 {
        g.view(Viewer::Spectator)
            .pieces
            .iter()
            .map(|p| if p.seat == seat { 1 } else { -1 })
            .sum()
    };
    let mut best: Option<(i32, u64, String)> = None;
    for a in g.legal_actions(seat) {
        let mut next = g.clone();
        if next.play(seat, &a).is_err() {
            continue;
        }
        let score = match next.outcome() {
            Outcome::Won { winners, .. } if winners.contains(&seat) => i32::MAX,
            _ => mine(&next),
        };
        let tie = rng.next_u64();
        if best
            .as_ref()
            .is_none_or(|(s, t, _)| (score, tie) > (*s, *t))
        {
            best = Some((score, tie, a));
        }
    }
    best.expect("a seat to act has an action").2
}

/// A game of `kind` played by the engine until it is won: the record of every action but
/// the last, and the last action.
fn nearly_won(kind: GameKind, options: &[(&str, &str)], seed: u64) -> (String, String) {
    let mut opts = Options::new();
    for (k, v) in options {
        opts.insert((*k).into(), (*v).into());
    }
    let mut game = AnyGame::setup(kind, &opts, seed).unwrap();
    let mut rng = Rng::new(seed);
    let mut actions: Vec<(u8, String)> = Vec::new();
    for _ in 0..5_000 {
        let seat = game.to_act()[0];
        let a = greedy(&game, seat, &mut rng);
        game.play(seat, &a).unwrap();
        actions.push((seat.0, a));
        if let Outcome::Won { .. } = game.outcome() {
            let (_, last) = actions.pop().unwrap();
            let options = options
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(",");
            let mut record = format!("tokar1|{}|{options}|seed={seed}", kind.slug());
            for (s, a) in &actions {
                record.push_str(&format!("|{s}:{a}"));
            }
            return (record, last);
        }
        assert!(!game.outcome().is_over(), "the game was drawn");
    }
    panic!("no win within 5000 actions");
}

/// Plays `action` in game `id` as whichever of `names` may; returns its replies.
async fn play_as_whoever(e: &Env, id: u64, names: &[&str], action: &str) -> Vec<Reply> {
    let who = e.to_act(id, names).await.expect("someone acts");
    e.ok(&format!("@{who} /play game:{id} action:\"{action}\""))
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_win_on_the_board_pings_both_players() {
    let e = env("end-win-duel").await;
    let (record, last) = nearly_won(
        GameKind::Arcana,
        &[
            ("army.0", "human"),
            ("army.1", "undead"),
            ("first", "creator"),
        ],
        11,
    );
    e.ok(&format!("@alice /new record:\"{record}\" opponent:@bob"))
        .await;
    e.ok("@bob /accept game:1").await;
    let r = play_as_whoever(&e, 1, &["alice", "bob"], &last).await;
    assert!(result(&r).content.contains("won"), "{r:#?}");
    everyone_once(&r, &["alice", "bob"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_win_on_the_board_in_a_game_of_four_pings_all_four() {
    let e = env("end-win-four").await;
    let (record, last) = nearly_won(GameKind::MagicChess, &[], 5);
    e.ok(&format!(
        "@alice /new record:\"{record}\" opponent:@bob opponent2:@carol opponent3:@dave"
    ))
    .await;
    for u in ["bob", "carol", "dave"] {
        e.ok(&format!("@{u} /accept game:1")).await;
    }
    let r = play_as_whoever(&e, 1, &FOUR, &last).await;
    assert!(result(&r).content.contains("won"), "{r:#?}");
    everyone_once(&r, &FOUR);
}

/// The bot's own seat is not pinged: only the person it played.
#[tokio::test]
async fn the_bots_seat_is_not_pinged() {
    let dir = fresh_dir("end-robot");
    let clock = Arc::new(VirtualClock::open(&dir).unwrap());
    // The test user `Tokar` is the bot, so `@Tokar` in a line names it.
    let table = Table::open(TableConfig {
        data_dir: dir.clone(),
        storage: Default::default(),
        clock: clock.clone(),
        seed: Some(7),
        robot: RobotConfig {
            user: user("Tokar"),
            iterations: Some(20),
            ..Default::default()
        },
    })
    .await
    .unwrap();
    let e = Env { dir, clock, table };
    e.ok("@alice /new game:arcana army:human first:creator opponent:@Tokar")
        .await;
    let r = e.ok("@alice /resign game:1 confirm:yes").await;
    everyone_once(&r, &["alice"]);
}

/// A rated game's result says each player's rating change, as /stats then holds it
/// (ruling T39; the numbers are those of `tests/ratings.rs`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_result_says_the_rating_change() {
    let e = env("end-rating").await;
    let (id, mover, other) = e.duel().await;
    // Five plays each: a resignation before that is not rated (T48).
    let mut made = [0; 2];
    while made.iter().any(|m| *m < 5) {
        let who = e.to_act(id, &["alice", "bob"]).await.unwrap();
        made[usize::from(who == "bob")] += 1;
        let action = e.actions(who, id).await.remove(0);
        e.ok(&format!("@{who} /play game:{id} action:\"{action}\""))
            .await;
    }
    let r = e
        .ok(&format!("@{other} /resign game:{id} confirm:yes"))
        .await;
    let text = &result(&r).content;
    let line = text
        .lines()
        .find(|l| l.starts_with("Rating (Arcana, all servers): "))
        .unwrap_or_else(|| panic!("no rating line: {text}"));
    assert!(line.contains(&format!("{mover} 1500? → 1662?")), "{line}");
    assert!(line.contains(&format!("{other} 1500? → 1338?")), "{line}");
    let stats = e.ok(&format!("@{mover} /stats")).await;
    assert!(
        stats[0].content.contains("Arcana: 1662? · 1 game"),
        "{}",
        stats[0].content
    );
    // An unrated game's result has no such line.
    let (id, mover, _) = e.duel().await;
    let r = e
        .ok(&format!("@{mover} /resign game:{id} confirm:yes"))
        .await;
    assert!(!result(&r).content.contains("Rating ("), "{r:#?}");
}
