//! One `/play` end to end through the table: parse the options, load the game,
//! validate and apply the action in the engine, commit it to sled with a
//! flush (or to PostgreSQL, with `TOKAR_DATABASE_URL` set), schedule the
//! next reminder, draw the picture and build the replies.
//!
//! Criterion reports the mean and median; the bench also prints the median
//! and 99th percentile of every call it timed, and the calls a second over the
//! time spent in them; on PostgreSQL, the round trips to the server a call
//! made on average (`PgKv::trips`).
//!
//! Several bench processes may share one PostgreSQL database
//! (`scripts/play-bench-processes.sh`): `TOKAR_BENCH_PROCESS=k` gives process
//! `k` players of its own (ids `10 + 2k` and `11 + 2k`), and each process
//! reads its games' numbers from the table's answers, so the games of all of
//! them are numbered once by the store.

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use std::time::{Duration, Instant};
use tokar_bot::{Request, Table, UserRef};
use tokar_engine::catalog::{AnyGame, GameKind, Options};
use tokar_engine::Seat;

/// This bench process's number among several on one database (`TOKAR_BENCH_PROCESS`).
fn process() -> u64 {
    std::env::var("TOKAR_BENCH_PROCESS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

fn user(i: usize) -> UserRef {
    let k = process();
    UserRef {
        id: 10 + 2 * k + i as u64,
        name: format!("{}{k}", ["alice", "bob"][i]),
    }
}

fn req(u: usize, command: &str, options: &[(&str, String)]) -> Request {
    common::request(user(u), command, options)
}

struct Bench {
    table: Table,
    rt: tokio::runtime::Runtime,
    mirror: Option<AnyGame>,
    game: u64,
    step: u64,
}

impl Bench {
    /// A new game on the table, and a copy of it to pick legal moves from.
    fn new_game(&mut self) {
        let table = self.table.clone();
        let r = self.rt.block_on(async move {
            table
                .handle(req(
                    0,
                    "new",
                    &[
                        ("game", "arcana".into()),
                        ("army", "human".into()),
                        ("first", "creator".into()),
                        ("opponent", format!("<@{}>", user(1).id)),
                    ],
                ))
                .await
        });
        assert!(r[0].ok, "{r:?}");
        self.game = r[0]
            .content
            .split('#')
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let table = self.table.clone();
        let g = self.game;
        let r = self.rt.block_on(async move {
            table
                .handle(req(
                    1,
                    "accept",
                    &[("game", g.to_string()), ("army", "undead".into())],
                ))
                .await
        });
        assert!(r[0].ok, "{r:?}");
        let mut options = Options::new();
        options.insert("army.0".into(), "human".into());
        options.insert("army.1".into(), "undead".into());
        options.insert("first".into(), "creator".into());
        self.mirror = Some(AnyGame::setup(GameKind::Arcana, &options, 0).unwrap());
    }

    /// The next (seat, action) of the game, starting a new game when it ends.
    fn next_action(&mut self) -> (Seat, String) {
        loop {
            if let Some(m) = &self.mirror {
                if !m.outcome().is_over() {
                    let seat = m.to_act()[0];
                    let legal = m.legal_actions(seat);
                    self.step += 1;
                    return (seat, legal[(self.step as usize * 7) % legal.len()].clone());
                }
            }
            self.new_game();
        }
    }
}

fn play(c: &mut Criterion) {
    // TOKAR_DATABASE_URL set: the same calls on PostgreSQL (an empty database).
    let (dir, rt, table) = common::open_table(
        "bench",
        tokar_bot::storage::StoreSettings::from_env().unwrap(),
    );
    let mut b = Bench {
        table,
        rt,
        mirror: None,
        game: 0,
        step: 0,
    };
    let store = b.table.store_handle();
    // Round trips of the timed calls (PostgreSQL only).
    let trips = || store.kv().postgres().map(|pg| pg.trips().round_trips);
    let mut round_trips = 0;
    let mut samples: Vec<Duration> = Vec::new();
    // Each timed call's time, round trips and whether it ended its game: the
    // tail is told apart from the ordinary calls below.
    let mut calls: Vec<(Duration, u64, bool)> = Vec::new();
    c.bench_function("play end to end (flushed commit, picture)", |bench| {
        bench.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let (seat, action) = b.next_action();
                let r = req(
                    seat.index(),
                    "play",
                    &[("action", action.clone()), ("game", b.game.to_string())],
                );
                let table = b.table.clone();
                let trips_before = trips();
                let start = Instant::now();
                let replies = b.rt.block_on(async move { table.handle(r).await });
                let took = start.elapsed();
                let mut made = 0;
                if let (Some(after), Some(before)) = (trips(), trips_before) {
                    made = after - before;
                    round_trips += made;
                }
                assert!(replies[0].ok, "{replies:?}");
                let mirror = b.mirror.as_mut().unwrap();
                mirror.play(seat, &action).unwrap();
                total += took;
                samples.push(took);
                calls.push((took, made, mirror.outcome().is_over()));
            }
            total
        })
    });
    samples.sort();
    if !samples.is_empty() {
        let pct = |p: f64| samples[((samples.len() - 1) as f64 * p) as usize];
        let busy: Duration = samples.iter().sum();
        println!(
            "play end to end over {} calls: median {:.2} ms, p99 {:.2} ms, {:.0} calls a second",
            samples.len(),
            pct(0.5).as_secs_f64() * 1e3,
            pct(0.99).as_secs_f64() * 1e3,
            samples.len() as f64 / busy.as_secs_f64()
        );
        if trips().is_some() {
            println!(
                "round trips to PostgreSQL: {:.1} a call",
                round_trips as f64 / samples.len() as f64
            );
        }
        print_tail(&mut calls);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// What the slowest hundredth of the calls were: how many ended their game
/// (ratings, the final picture) and their round trips, beside the others'.
fn print_tail(calls: &mut [(Duration, u64, bool)]) {
    calls.sort_by_key(|c| std::cmp::Reverse(c.0));
    let tail = calls.len().div_ceil(100);
    let (slow, rest) = calls.split_at(tail);
    let ended = |part: &[(Duration, u64, bool)]| part.iter().filter(|c| c.2).count();
    let mean_trips = |part: &[(Duration, u64, bool)]| {
        part.iter().map(|c| c.1).sum::<u64>() as f64 / part.len().max(1) as f64
    };
    println!(
        "slowest {tail} calls: {} ended their game, {:.1} round trips each; \
         the other {}: {} ended their game, {:.1} round trips each",
        ended(slow),
        mean_trips(slow),
        rest.len(),
        ended(rest),
        mean_trips(rest)
    );
}

criterion_group!(benches, play);
criterion_main!(benches);
