//! Writes a console input of parallel Arcana games (for measuring the console
//! with pictures, `scripts/parallel-games.sh`): each game is created and
//! accepted, then the games take turns, one action each, every action a
//! legal one chosen by seeded random play of the engine:
//! `cargo run --release -p tokar-render --example arcana_games -- [GAMES] [ACTIONS] [SEED]`.
//!
//! The games are set up as the table sets up `/new game:arcana army:human
//! first:creator` with the current rulings: Arcana draws on chance only for
//! who moves first, which `first:creator` fixes, so the table's games are
//! the engine's games here and every action is legal there too. Game `i`
//! (numbered from 1 in a fresh data folder) is played by `g<i>a` (seat 0,
//! Human) and `g<i>b` (seat 1, Undead).

use tokar_engine::{AnyGame, GameKind, Options, Seat};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(50);
    let actions: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(60);
    let mut seed: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut random = move |n: usize| {
        // xorshift64*: enough to pick among legal actions.
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    };
    let mut options = Options::new();
    options.insert("army".into(), "human".into());
    options.insert("first".into(), "creator".into());
    GameKind::Arcana.stamp(&mut options, 2);
    let mut played: Vec<AnyGame> = Vec::new();
    for g in 1..=games {
        println!("@g{g}a /new game:arcana army:human first:creator opponent:@g{g}b");
        println!("@g{g}b /accept game:{g} army:undead");
        played.push(AnyGame::setup(GameKind::Arcana, &options, 0).expect("an Arcana game"));
    }
    for _ in 0..actions {
        for (i, game) in played.iter_mut().enumerate() {
            if game.outcome().is_over() {
                continue;
            }
            let Some(&seat) = game.to_act().first() else {
                continue;
            };
            let legal = game.legal_actions(seat);
            if legal.is_empty() {
                continue;
            }
            let action = legal[random(legal.len())].clone();
            game.play(seat, &action).expect("a legal action");
            let who = if seat == Seat(0) { 'a' } else { 'b' };
            println!("@g{}{who} /play game:{} action:\"{action}\"", i + 1, i + 1);
        }
    }
}
