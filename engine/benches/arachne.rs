//! Arachne's speed: legal-action generation, applying actions, and random
//! playouts, from the opening and from a crowded middle game.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use tokar_engine::arachne::{Arachne, CaptureRules, WebLayout};
use tokar_engine::{Game, Rng};

/// A position after `plies` random plies from the opening, the first seed
/// whose game is still on with no Blademaster's second move pending.
fn middle_game(plies: usize) -> Arachne {
    for seed in 0.. {
        let mut game = Arachne::new(CaptureRules::Original, &WebLayout::STANDARD, seed).unwrap();
        let mut rng = Rng::new(seed ^ 5);
        for _ in 0..plies {
            let Some(&seat) = game.to_act().first() else {
                break;
            };
            let legal = game.legal_actions(seat);
            let a = legal[rng.below(legal.len() as u64) as usize];
            game.play(seat, &a).unwrap();
        }
        if !game.to_act().is_empty() && game.pending().is_none() {
            return game;
        }
    }
    unreachable!("some seed gives an ongoing game")
}

fn bench(c: &mut Criterion) {
    let opening = Arachne::new(CaptureRules::Original, &WebLayout::STANDARD, 1).unwrap();
    let middle = middle_game(20);
    eprintln!(
        "middle game: {} pieces, {} legal actions",
        middle.pieces_of(tokar_engine::Seat(0)).count()
            + middle.pieces_of(tokar_engine::Seat(1)).count(),
        middle.legal_actions(middle.to_move()).len()
    );
    c.bench_function("arachne/legal_actions/opening", |b| {
        b.iter(|| black_box(&opening).legal_actions(opening.to_move()))
    });
    c.bench_function("arachne/legal_actions/middle", |b| {
        b.iter(|| black_box(&middle).legal_actions(middle.to_move()))
    });
    c.bench_function("arachne/play/opening", |b| {
        let legal = opening.legal_actions(opening.to_move());
        let a = legal[legal.len() / 2];
        b.iter(|| {
            let mut g = opening.clone();
            g.play(g.to_move(), black_box(&a)).unwrap();
            g
        })
    });
    c.bench_function("arachne/playout/100_plies", |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 1;
            let mut g = opening.redeal(opening.to_move(), seed);
            let mut rng = Rng::new(seed);
            for _ in 0..100 {
                let Some(&s) = g.to_act().first() else { break };
                let legal = g.legal_actions(s);
                let a = legal[rng.below(legal.len() as u64) as usize];
                g.play(s, &a).unwrap();
            }
            g
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
