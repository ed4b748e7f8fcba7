//! Random self-play of Arachne with the shared harness, per variant.

mod common;

use tokar_engine::arachne::Arachne;
use tokar_engine::catalog::Options;
use tokar_engine::{Game, Viewer};

fn run(variant: &str, games: usize) {
    let mut options = Options::new();
    options.insert("variant".into(), variant.into());
    let report = common::self_play::<Arachne>(&options, games, 400, |g| {
        // Every piece in the view stands on its own space; the dice are in range.
        let view = g.view(Viewer::Spectator);
        let sides = g.rules_variant().sides();
        assert!(g.turn_dice().iter().all(|&d| (1..=sides).contains(&d)));
        let mut cells: Vec<_> = view.pieces.iter().map(|p| p.cell).collect();
        cells.sort();
        cells.dedup();
        assert_eq!(cells.len(), view.pieces.len());
    });
    eprintln!(
        "{variant}: {} games, {} finished, {} plies, longest {}",
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
