//! `/replay` of a finished 500-action game end to end through the table: load the record,
//! read the log, play it again and draw the GIF (a frame budget of
//! `tokar_bot::table::MAX_REPLAY_FRAMES` frames), or answer from the kept replays.
//!
//! Two measurements: `first ask` forgets the kept replays before every call, so each call
//! draws the replay (what every call cost before replays were kept); `asked again` is every
//! later ask of the same finished game. Besides criterion's estimate, the bench prints the
//! median, 95th and 99th percentile of the calls it timed and the GIF's size.
//! `docs/bench/replay.md` holds the figures.

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use std::time::{Duration, Instant};
use tokar_bot::{Reply, Request, UserRef};
use tokar_engine::catalog::{AnyGame, GameKind, Options};
use tokar_engine::Rng;

/// The length of the game replayed (actions before the resignation that ends it): as long
/// an Arcana game as its rules allow with room to spare (they end it at 600 turns, and after
/// 100 turns without a model killed, revived or placed).
const ACTIONS: usize = 500;

fn user(i: usize) -> UserRef {
    UserRef {
        id: 10 + i as u64,
        name: ["alice", "bob", "carol"][i].into(),
    }
}

fn req(u: usize, command: &str, options: &[(&str, String)]) -> Request {
    common::request(user(u), command, options)
}

/// An Arcana game of [`ACTIONS`] legal actions chosen by a seeded generator (none that ends
/// the game), as an `/export` record: the first seed whose game is still going after that many.
fn long_record() -> String {
    let mut options = Options::new();
    options.insert("army.0".into(), "human".into());
    options.insert("army.1".into(), "undead".into());
    for seed in 1.. {
        let mut game = AnyGame::setup(GameKind::Arcana, &options, seed).unwrap();
        let mut rng = Rng::new(seed);
        let mut log = Vec::new();
        while log.len() < ACTIONS && !game.outcome().is_over() {
            let seat = game.to_act()[0];
            let legal = game.legal_actions(seat);
            if legal.is_empty() {
                break;
            }
            // Random play ends a game long before 500 actions: an action that would end it
            // is passed over while another is legal.
            let start = rng.below(legal.len() as u64) as usize;
            let lasting = (0..legal.len())
                .map(|k| &legal[(start + k) % legal.len()])
                .find(|a| {
                    let mut next = game.clone();
                    next.play(seat, a).is_ok() && !next.outcome().is_over()
                });
            let Some(a) = lasting.cloned() else { break };
            game.play(seat, &a).unwrap();
            log.push(format!("{}:{a}", seat.0));
        }
        if log.len() == ACTIONS && !game.outcome().is_over() {
            return format!(
                "tokar1|arcana|army.0=human,army.1=undead|seed={seed}|{}",
                log.join("|")
            );
        }
    }
    unreachable!()
}

fn percentiles(name: &str, samples: &mut [Duration]) {
    if samples.is_empty() {
        return;
    }
    samples.sort();
    let pct = |p: f64| samples[((samples.len() - 1) as f64 * p).round() as usize];
    println!(
        "{name} over {} calls: median {:.2} ms, p95 {:.2} ms, p99 {:.2} ms",
        samples.len(),
        pct(0.5).as_secs_f64() * 1e3,
        pct(0.95).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
    );
}

fn replay(c: &mut Criterion) {
    let (dir, rt, table) = common::open_table("replay-bench", Default::default());
    let run = |u: usize, command: &str, options: &[(&str, String)]| -> Vec<Reply> {
        let table = table.clone();
        let r = req(u, command, options);
        let replies = rt.block_on(async move { table.handle(r).await });
        assert!(replies[0].ok, "{replies:?}");
        replies
    };
    let made = run(
        0,
        "new",
        &[
            ("record", long_record()),
            ("opponent", format!("<@{}>", user(1).id)),
        ],
    );
    let game: String = made[0]
        .content
        .split('#')
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .unwrap()
        .to_string();
    run(1, "accept", &[("game", game.clone())]);
    run(
        0,
        "resign",
        &[("game", game.clone()), ("confirm", "yes".into())],
    );
    let first = run(2, "replay", &[("game", game.clone())]);
    println!(
        "replay of game #{game}: {} bytes of GIF; {}",
        first[0].images[0].png.len(),
        first[0].content
    );

    let ask = |forget: bool, samples: &mut Vec<Duration>, iters: u64| {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            if forget {
                table.forget_replays();
            }
            let t = table.clone();
            let r = req(2, "replay", &[("game", game.clone())]);
            let start = Instant::now();
            let replies = rt.block_on(async move { t.handle(r).await });
            let took = start.elapsed();
            assert!(replies[0].ok, "{replies:?}");
            total += took;
            samples.push(took);
        }
        total
    };
    let mut drawn = Vec::new();
    let mut group = c.benchmark_group("replay of a 500-action finished game");
    group.sample_size(10);
    group.bench_function("first ask (drawn)", |b| {
        b.iter_custom(|iters| ask(true, &mut drawn, iters))
    });
    let mut kept = Vec::new();
    group.sample_size(50);
    group.bench_function("asked again (kept)", |b| {
        b.iter_custom(|iters| ask(false, &mut kept, iters))
    });
    group.finish();
    percentiles("first ask (drawn)", &mut drawn);
    percentiles("asked again (kept)", &mut kept);
    let stats = table.replay_cache_stats();
    println!(
        "replays drawn {}, answered from the cache {}",
        stats.drawn, stats.hits
    );
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, replay);
criterion_main!(benches);
