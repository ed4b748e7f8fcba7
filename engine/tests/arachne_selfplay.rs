//! Random self-play of Arachne with the shared harness, per variant.

mod common;

use tokar_engine::arachne::{Arachne, Kind, BLACK, WHITE};
use tokar_engine::catalog::Options;
use tokar_engine::{Game, Outcome, Viewer};

fn run(variant: &str, games: usize) {
    let mut options = Options::new();
    options.insert("variant".into(), variant.into());
    let mut plies = 0usize;
    let mut next_view = 50;
    let mut drawn = 0;
    let report = common::self_play::<Arachne>(&options, games, 400, |g| {
        // The dice are in range; both Matrons stand while the game goes on;
        // every few plies the view shows each piece once.
        let sides = g.rules_variant().sides();
        assert!(g.turn_dice().iter().all(|&d| (1..=sides).contains(&d)));
        if !g.outcome().is_over() {
            for seat in [WHITE, BLACK] {
                let matrons = g.pieces_of(seat).filter(|p| p.1.kind == Kind::Matron);
                assert_eq!(matrons.count(), 1);
            }
        }
        // A game's last ply is the only one after which it is drawn.
        if let Outcome::Drawn { reason } = g.outcome() {
            assert!(reason.contains("fourth time"));
            drawn += 1;
        }
        plies += 1;
        if plies == next_view {
            next_view += 50;
            let view = g.view(Viewer::Spectator);
            let mut cells: Vec<_> = view.pieces.iter().map(|p| p.cell).collect();
            cells.sort();
            cells.dedup();
            assert_eq!(cells.len(), view.pieces.len());
        }
    });
    eprintln!(
        "{variant}: {} games, {} finished ({drawn} drawn by repetition), {} plies, longest {}",
        report.games, report.finished, report.plies, report.longest
    );
    assert!(report.finished > 0);
}

#[test]
fn self_play_strategist() {
    run("strategist", 2000);
}

#[test]
fn self_play_convenient() {
    run("convenient", 2000);
}

#[test]
fn self_play_original() {
    run("original", 2000);
}
