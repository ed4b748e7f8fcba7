//! Random self-play of Gladiator Chess with the shared harness, plus the
//! game's own invariants after every ply.

mod common;

use tokar_engine::catalog::Options;
use tokar_engine::gladiator::{Gladiator, Kind, Team};
use tokar_engine::{Game, Outcome, Seat, Viewer};

/// Invariants of every reachable position.
fn invariants(g: &Gladiator) {
    for team in [Team::White, Team::Black] {
        // Hit points stay within the maximum; nobody lives at zero.
        for (_, p) in g.pieces() {
            if p.kind != Kind::Queen {
                assert!(p.hp > 0 && p.hp <= p.kind.max_hp(), "{p:?}");
            }
        }
        // At most one King per team.
        let kings = g
            .pieces()
            .filter(|(_, p)| p.team == team && p.kind == Kind::King)
            .count();
        assert!(kings <= 1);
        // A held Queen is never also on the board.
        if g.captive(team).is_some() {
            assert!(g.find(team, Kind::Queen).is_none());
        }
        // A frozen piece sits under its Queen.
        if let Some(f) = g.frozen_by(team) {
            let q = g.at(f.cell).expect("queen on the frozen square");
            assert_eq!((q.kind, q.team), (Kind::Queen, team));
        }
    }
    if !g.outcome().is_over() {
        // The team to move is never left in check by its own move: a check
        // exists only when the commander to move can answer it (R6).
        let to_act = g.to_act();
        assert!(!to_act.is_empty());
        for s in to_act {
            assert_eq!(s.index() / 4, g.team_to_move().index());
        }
    }
    let v = g.view(Viewer::Seat(Seat(5)));
    assert_eq!(v.rotation, 180.0);
}

#[test]
fn a_thousand_random_games() {
    let report = common::self_play::<Gladiator>(&Options::new(), 1000, 300, invariants);
    eprintln!(
        "{} games, {} finished, {} plies, longest {}",
        report.games, report.finished, report.plies, report.longest
    );
    assert!(report.finished > 0, "some random games end");
}

#[test]
fn games_end_every_way() {
    // Long random games reach each kind of win at least once: checkmate, the
    // Queen held for five turns (R9), the King killed.
    let mut reasons = std::collections::BTreeSet::new();
    for seed in 0..60u64 {
        let mut g = Gladiator::new(seed);
        let mut rng = tokar_engine::Rng::new(seed + 99);
        for _ in 0..3000 {
            if g.outcome().is_over() {
                break;
            }
            let seats = g.to_act();
            let seat = seats[rng.below(seats.len() as u64) as usize];
            let legal = g.legal_actions(seat);
            let a = legal[rng.below(legal.len() as u64) as usize];
            g.play(seat, &a).unwrap();
        }
        if let Outcome::Won { reason, .. } = g.outcome() {
            reasons.insert(reason.split(' ').skip(3).collect::<Vec<_>>().join(" "));
        }
    }
    eprintln!("{reasons:?}");
    for how in ["was checkmated", "was held for 5 turns", "was killed"] {
        assert!(
            reasons.contains(how),
            "no random game ended with: ... {how}"
        );
    }
}
