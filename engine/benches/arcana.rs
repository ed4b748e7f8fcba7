//! Arcana engine speed: legal action generation, and applying actions
//! (validation included, as the table does), from the start position and
//! from a busy middle game. Figures are recorded in engine/rules/arcana.md.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use tokar_engine::arcana::Arcana;
use tokar_engine::catalog::{Options, Variant};
use tokar_engine::{Game, Rng};

const MIDGAME: &str = "m2nqtzm/1s1s1ss1/2z2t2/s2I1K2/2W1s3/1P3I2/I2I1AII/3DB2W 0 g0:IK g1:ss";

fn positions() -> Vec<(&'static str, Arcana)> {
    let mut o = Options::new();
    o.insert("first".into(), "creator".into());
    vec![
        ("start", Arcana::setup(&o, 0).unwrap()),
        ("midgame", Arcana::from_text(MIDGAME).unwrap()),
    ]
}

fn bench(c: &mut Criterion) {
    for (name, g) in positions() {
        let seat = g.to_act()[0];
        let actions = g.legal_actions(seat);
        let mut group = c.benchmark_group(format!("arcana/{name}"));
        group.throughput(Throughput::Elements(1));
        group.bench_function("legal_actions", |b| {
            b.iter(|| black_box(g.legal_actions(black_box(seat))))
        });
        group.throughput(Throughput::Elements(actions.len() as u64));
        group.bench_function("play_each_legal_action", |b| {
            b.iter(|| {
                for a in &actions {
                    let mut next = g.clone();
                    black_box(next.play(seat, a).unwrap());
                }
            })
        });
        group.finish();
    }
}

/// Plays one whole random game (each ply: list the actions, pick one, play
/// it); returns the number of plies.
fn random_game(seed: u64) -> usize {
    let mut o = Options::new();
    o.insert("first".into(), "creator".into());
    let mut g = Arcana::setup(&o, seed).unwrap();
    let mut rng = Rng::new(seed);
    let mut plies = 0;
    while !g.outcome().is_over() {
        let seat = g.to_act()[0];
        let legal = g.legal_actions(seat);
        let a = &legal[rng.below(legal.len() as u64) as usize];
        g.play(seat, a).unwrap();
        plies += 1;
    }
    plies
}

fn bench_games(c: &mut Criterion) {
    let seeds: Vec<u64> = (1..=10).collect();
    let plies: usize = seeds.iter().map(|&s| random_game(s)).sum();
    let mut group = c.benchmark_group("arcana/random_games");
    group.throughput(Throughput::Elements(plies as u64));
    group.sample_size(10);
    group.bench_function(format!("10_games_{plies}_plies"), |b| {
        b.iter(|| {
            for &s in &seeds {
                black_box(random_game(s));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench, bench_games);
criterion_main!(benches);
