//! Magic Chess: counts of legal actions from fixed positions (perft-style),
//! summed over every line of play to the given depth.

use tokar_engine::catalog::{Options, Variant};
use tokar_engine::magic::{MagicChess, Position, Spell};
use tokar_engine::Game;

fn perft(g: &MagicChess, depth: u32) -> u64 {
    if depth == 0 || g.outcome().is_over() {
        return 1;
    }
    let seat = g.to_act()[0];
    let legal = g.legal_actions(seat);
    if depth == 1 {
        return legal.len() as u64;
    }
    legal
        .iter()
        .map(|a| {
            let mut next = g.clone();
            next.play(seat, a).expect("listed action applies");
            perft(&next, depth - 1)
        })
        .sum()
}

#[test]
fn perft_from_the_start_without_cards() {
    // Each army has 13 moves at the start (4 pawn steps, the Fairy's three
    // knight moves b3 d3 e2 for Red, the Frog's six) plus pass: 14. No first
    // move of one army changes the next army's count, so depth 2 is 14 * 14.
    let g = Position::start().build();
    let counts: Vec<u64> = (1..=3).map(|d| perft(&g, d)).collect();
    assert_eq!(counts[0], 14);
    assert_eq!(counts[1], 196);
    assert_eq!(counts[2], 2_744);
}

#[test]
fn perft_from_the_start_with_known_hands() {
    // Red holds one card of each spell: 13 moves + 24 Freeze targets (every
    // enemy piece) + 9 Slow targets + 6 Anti-Jump targets + pass = 53.
    let g = Position::start()
        .hand(0, &[Spell::Freeze, Spell::Slow, Spell::AntiJump])
        .hand(1, &[Spell::Freeze])
        .hand(2, &[Spell::Slow, Spell::Slow])
        .hand(3, &[Spell::AntiJump])
        .draw_pile(&[Spell::Slow, Spell::Freeze, Spell::AntiJump])
        .build();
    let counts: Vec<u64> = (1..=3).map(|d| perft(&g, d)).collect();
    assert_eq!(counts[0], 53);
    println!("perft with hands: {counts:?}");
    // Depth 2 by hand: Blue holds one Freeze, so it has 13 moves + 24 Freeze
    // targets + pass = 38 after each of Red's 53 actions, less what Red's
    // spell took away: Freeze on a Blue pawn -1 (x4), Fairy -3, Frog -6;
    // Slow on the Fairy -3, Frog -4; Anti-Jump on the Fairy -3, Frog -2.
    assert_eq!(counts[1], 53 * 38 - (4 + 3 + 6) - (3 + 4) - (3 + 2));
    assert_eq!(counts, [53, 1_989, 44_133]);
}

#[test]
fn perft_from_a_dealt_start() {
    let g = MagicChess::setup(&Options::new(), 1).unwrap();
    let counts: Vec<u64> = (1..=3).map(|d| perft(&g, d)).collect();
    println!("perft seed 1: {counts:?}");
    // Seed 1 deals Red Freeze, Anti-Jump, Freeze: 13 moves + 24 Freeze
    // targets + 6 Anti-Jump targets + pass.
    assert_eq!(
        g.hand(tokar_engine::Seat(0)),
        [Spell::Freeze, Spell::AntiJump, Spell::Freeze]
    );
    assert_eq!(counts, [44, 1_918, 54_066]);
}
