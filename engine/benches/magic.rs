//! Magic Chess speed: listing the legal actions, and playing random games
//! (list the legal actions, pick one, apply it) ply by ply.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use tokar_engine::catalog::{Options, Variant};
use tokar_engine::magic::MagicChess;
use tokar_engine::{Game, Rng};

/// Plays `plies` random plies (or to the end) and returns the game and how
/// many plies were played.
fn playout(mut g: MagicChess, seed: u64, plies: usize) -> (MagicChess, u64) {
    let mut rng = Rng::new(seed);
    let mut n = 0;
    while n < plies && !g.outcome().is_over() {
        let seat = g.to_act()[0];
        let legal = g.legal_actions(seat);
        let a = legal[rng.below(legal.len() as u64) as usize];
        g.play(seat, &a).expect("legal");
        n += 1;
    }
    (g, n as u64)
}

fn bench(c: &mut Criterion) {
    let start = MagicChess::setup(&Options::new(), 1).expect("setup");
    let (mid, _) = playout(start.clone(), 7, 60);
    let mut group = c.benchmark_group("magic");
    group.bench_function("legal_actions/start", |b| {
        b.iter(|| black_box(&start).legal_actions(start.to_act()[0]).len())
    });
    group.bench_function("legal_actions/after-60-plies", |b| {
        let seat = mid.to_act()[0];
        b.iter(|| black_box(&mid).legal_actions(seat).len())
    });
    let (_, plies) = playout(start.clone(), 3, 200);
    group.throughput(Throughput::Elements(plies));
    group.bench_function("random-playout/legal+apply-per-ply", |b| {
        b.iter(|| playout(black_box(start.clone()), 3, 200).1)
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
