//! Gladiator Chess speed: legal move lists (the autocomplete and the random
//! player both build them every move), one move applied with its checks, and
//! a whole random game.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use tokar_engine::gladiator::Gladiator;
use tokar_engine::{Game, Rng};

/// A middle-game position: 120 random plies from the opening.
fn middle_game() -> Gladiator {
    let mut g = Gladiator::new(11);
    let mut rng = Rng::new(5);
    for _ in 0..120 {
        if g.outcome().is_over() {
            break;
        }
        let seats = g.to_act();
        let seat = seats[rng.below(seats.len() as u64) as usize];
        let legal = g.legal_actions(seat);
        let a = legal[rng.below(legal.len() as u64) as usize];
        g.play(seat, &a).unwrap();
    }
    assert!(!g.outcome().is_over());
    g
}

fn random_game(seed: u64, max_plies: usize) -> usize {
    let mut g = Gladiator::new(seed);
    let mut rng = Rng::new(seed ^ 0xA5A5);
    let mut plies = 0;
    while !g.outcome().is_over() && plies < max_plies {
        let seats = g.to_act();
        let seat = seats[rng.below(seats.len() as u64) as usize];
        let legal = g.legal_actions(seat);
        let a = legal[rng.below(legal.len() as u64) as usize];
        g.play(seat, &a).unwrap();
        plies += 1;
    }
    plies
}

fn benches(c: &mut Criterion) {
    let opening = Gladiator::new(1);
    c.bench_function("gladiator/legal_actions opening", |b| {
        b.iter(|| black_box(&opening).legal_actions(black_box(tokar_engine::Seat(0))))
    });
    let mid = middle_game();
    let king = tokar_engine::Seat(mid.team_to_move().index() as u8 * 4);
    eprintln!(
        "middle game: {} actions for the King's seat",
        mid.legal_actions(king).len()
    );
    c.bench_function("gladiator/legal_actions middle game (King's seat)", |b| {
        b.iter(|| black_box(&mid).legal_actions(black_box(king)))
    });
    let seat = mid.to_act()[0];
    let action = mid.legal_actions(seat)[0];
    c.bench_function("gladiator/play one move (clone + check + apply)", |b| {
        b.iter(|| {
            let mut g = mid.clone();
            g.play(seat, black_box(&action)).unwrap()
        })
    });
    c.bench_function("gladiator/random game (up to 400 plies)", |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 1;
            random_game(seed, 400)
        })
    });
}

criterion_group!(gladiator, benches);
criterion_main!(gladiator);
