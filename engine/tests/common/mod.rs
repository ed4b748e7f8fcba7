//! Random self-play with invariant checks, shared by every game's tests.
//!
//! Each ply: a seat that the game waits for picks a random legal action; the
//! action's notation must parse back to it; it must apply. Every few plies the
//! state must survive a serde round trip, and a random typed text must either be
//! refused without changing anything or be one of the legal actions. At the end
//! the game must replay to the same state from its seed and action log.

#![allow(dead_code)]

pub mod arcana;
pub mod texts;

use serde_json::Value;
use tokar_engine::catalog::{Options, Variant};
use tokar_engine::{Game, Rng, Seat, Viewer};

pub struct Report {
    pub games: usize,
    pub finished: usize,
    pub plies: usize,
    pub longest: usize,
}

pub fn json<T: serde::Serialize>(t: &T) -> Value {
    serde_json::to_value(t).expect("serializes")
}

/// Plays `games` random games of `G` from `options`, each with its own seed,
/// at most `max_plies` plies each; `check` runs after every ply (for a game's
/// own invariants, such as "no view leaks a hand").
pub fn self_play<G: Variant>(
    options: &Options,
    games: usize,
    max_plies: usize,
    check: impl FnMut(&G),
) -> Report {
    self_play_each(|_| options.clone(), games, max_plies, check)
}

/// As [`self_play`], with each game's options chosen from its number (a
/// random army per game, say).
pub fn self_play_each<G: Variant>(
    options_for: impl Fn(usize) -> Options,
    games: usize,
    max_plies: usize,
    mut check: impl FnMut(&G),
) -> Report {
    let mut report = Report {
        games,
        finished: 0,
        plies: 0,
        longest: 0,
    };
    for n in 0..games {
        let seed = 0x5EED_0000 + n as u64;
        let mut rng = Rng::new(seed ^ 0xA5A5);
        let options = &options_for(n);
        let mut game = G::setup(options, seed).expect("setup");
        let mut log: Vec<(Seat, G::Action)> = Vec::new();
        let mut plies = 0;
        while !game.outcome().is_over() && plies < max_plies {
            let to_act = game.to_act();
            assert!(!to_act.is_empty(), "game {n}: ongoing but nobody to act");
            let seat = to_act[rng.below(to_act.len() as u64) as usize];
            let legal = game.legal_actions(seat);
            assert!(
                !legal.is_empty(),
                "game {n} ply {plies}: {seat} must act but has no legal action"
            );
            let action = legal[rng.below(legal.len() as u64) as usize].clone();
            let text = game.format(&action);
            let parsed = game
                .parse(seat, &text)
                .unwrap_or_else(|e| panic!("game {n} ply {plies}: '{text}' does not parse: {e}"));
            assert_eq!(
                parsed, action,
                "game {n} ply {plies}: '{text}' parses to another action"
            );
            if plies % 17 == 0 {
                refuse_garbage(&game, seat, &legal, &mut rng);
            }
            game.play(seat, &action).unwrap_or_else(|e| {
                panic!("game {n} ply {plies}: listed action '{text}' refused: {e}")
            });
            log.push((seat, action));
            if plies % 23 == 0 {
                let back: G = serde_json::from_value(json(&game)).expect("deserializes");
                assert_eq!(
                    json(&back),
                    json(&game),
                    "game {n}: serde round trip differs"
                );
                let _ = game.view(Viewer::Spectator);
            }
            check(&game);
            plies += 1;
        }
        // Replay from the seed and the log.
        let mut replay = G::setup(options, seed).expect("setup");
        for (seat, action) in &log {
            replay.play(*seat, action).expect("replay applies");
        }
        assert_eq!(json(&replay), json(&game), "game {n}: replay differs");
        report.plies += plies;
        report.longest = report.longest.max(plies);
        if game.outcome().is_over() {
            report.finished += 1;
            assert!(
                game.to_act().is_empty(),
                "game {n}: over but someone is to act"
            );
        }
    }
    report
}

/// A random text built from cell names and words must either parse to a legal
/// action or be refused; a refused play leaves the game unchanged.
fn refuse_garbage<G: Game>(game: &G, seat: Seat, legal: &[G::Action], rng: &mut Rng) {
    let board = game.view(Viewer::Spectator).board;
    let cells: Vec<String> = board.cells().map(|c| board.name(c)).collect();
    let words = ["", "-", "x", " ", "bolt", "revive", "=", "@", "zz", "99"];
    for _ in 0..4 {
        let mut text = String::new();
        for _ in 0..rng.below(4) + 1 {
            if rng.below(2) == 0 {
                text.push_str(&cells[rng.below(cells.len() as u64) as usize]);
            } else {
                text.push_str(words[rng.below(words.len() as u64) as usize]);
            }
        }
        if let Ok(action) = game.parse(seat, &text) {
            if !legal.contains(&action) {
                let mut copy = game.clone();
                let before = json(&copy);
                assert!(
                    copy.play(seat, &action).is_err(),
                    "'{text}' parsed to an unlisted action that applied"
                );
                assert_eq!(json(&copy), before, "a refused action changed the game");
            }
        }
    }
}

/// Leaf count of the decision tree at `depth` from `g`, following the first
/// seat to act (bulk-counted at the last level): the perft tables' measure.
pub fn perft<G: Game>(g: &G, depth: u32) -> u64 {
    if g.outcome().is_over() {
        return 0;
    }
    let seat = g.to_act()[0];
    let actions = g.legal_actions(seat);
    if depth == 1 {
        return actions.len() as u64;
    }
    actions
        .iter()
        .map(|a| {
            let mut next = g.clone();
            next.play(seat, a).expect("listed action applies");
            perft(&next, depth - 1)
        })
        .sum()
}
