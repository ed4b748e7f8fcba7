//! Random self-play of complete Arcana games with the shared harness.

mod common;

use std::collections::HashSet;
use tokar_engine::arcana::{Arcana, TURN_LIMIT};
use tokar_engine::catalog::Options;
use tokar_engine::{Game, Outcome, Seat, Viewer};

/// Every game must end: the draw rules (R17) cap a game at TURN_LIMIT turns;
/// pending decisions add plies, so the ply cap is well above it and is never
/// the reason a game stops.
const MAX_PLIES: usize = 4 * TURN_LIMIT as usize;

fn invariants(g: &Arcana) {
    // Both Generals stand while the game goes on; none after it is won.
    if !g.outcome().is_over() {
        assert!(g.general(Seat(0)).is_some() && g.general(Seat(1)).is_some());
    }
    // 16 models per side, each on the board, in its graveyard, or held by a
    // pending decision (relocation, trade placement).
    let held: usize = match g.pending() {
        Some(tokar_engine::arcana::Pending::Relocate { queue, .. }) => queue.len(),
        Some(tokar_engine::arcana::Pending::TradePlace { .. }) => 1,
        _ => 0,
    };
    let total = g.pieces().count() + g.graveyard(Seat(0)).len() + g.graveyard(Seat(1)).len() + held;
    assert_eq!(
        total,
        32,
        "models are neither created nor lost: {}",
        g.to_text()
    );
    let v = g.view(Viewer::Seat(Seat(1)));
    assert_eq!(v.rotation, 180.0);
    // Each listed action is listed once, under its own notation (checked on
    // every fifth turn to keep the run short).
    if !g.move_number().is_multiple_of(5) {
        return;
    }
    if let Some(&seat) = g.to_act().first() {
        let legal = g.legal_actions(seat);
        let texts: HashSet<String> = legal.iter().map(|a| g.format(a)).collect();
        assert_eq!(
            texts.len(),
            legal.len(),
            "duplicate notation in {}",
            g.to_text()
        );
    }
}

#[test]
fn two_thousand_random_games_end() {
    let options = Options::new();
    // How games ended: [won by seat 0, won by seat 1, quiet draw, turn limit].
    let mut ends = [0usize; 4];
    let report = common::self_play::<Arcana>(&options, 2000, MAX_PLIES, |g| {
        invariants(g);
        match g.outcome() {
            Outcome::Won { winners, .. } => ends[winners[0].index()] += 1,
            Outcome::Drawn { reason } if reason.contains("turn limit") => ends[3] += 1,
            Outcome::Drawn { .. } => ends[2] += 1,
            Outcome::Ongoing => {}
        }
    });
    println!(
        "games {} finished {} plies {} (mean {}) longest {}; won by seat 0 {}, by seat 1 {}, quiet draws {}, turn-limit draws {}",
        report.games,
        report.finished,
        report.plies,
        report.plies / report.games,
        report.longest,
        ends[0],
        ends[1],
        ends[2],
        ends[3]
    );
    assert_eq!(ends.iter().sum::<usize>(), report.games);
    assert_eq!(report.finished, report.games, "every game ends");
}

#[test]
fn undead_against_undead_and_human_against_human_play_out() {
    for (a, b) in [
        ("undead", "undead"),
        ("human", "human"),
        ("undead", "human"),
    ] {
        let mut options = Options::new();
        options.insert("army.0".into(), a.into());
        options.insert("army.1".into(), b.into());
        let report = common::self_play::<Arcana>(&options, 100, MAX_PLIES, invariants);
        assert_eq!(report.finished, report.games, "{a} vs {b}");
    }
}
