//! /hint's words (ruling S9 in engine/rules/search.md): what an action wins, told from the
//! seat's own copy of the position, and an attack whose dice decide told as an attack, never
//! as its guessed result.

use tokar_engine::catalog::{AnyGame, GameKind, Options};
use tokar_engine::search::explain_any;
use tokar_engine::{Rng, Seat, Viewer};

fn options(pairs: &[(&str, &str)]) -> Options {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Plays random actions from `seed` until `wanted` finds an action of the seat to act; returns
/// the position, the seat and what `wanted` returned.
fn find<T>(
    kind: GameKind,
    opts: &Options,
    seed: u64,
    mut wanted: impl FnMut(&AnyGame, Seat, &str) -> Option<T>,
) -> Option<(AnyGame, Seat, T)> {
    let mut game = AnyGame::setup(kind, opts, seed).unwrap();
    let mut rng = Rng::new(seed);
    for _ in 0..300 {
        let seat = *game.to_act().first()?;
        let actions = game.legal_actions(seat);
        for a in &actions {
            if let Some(t) = wanted(&game, seat, a) {
                return Some((game, seat, t));
            }
        }
        let a = actions[rng.below(actions.len() as u64) as usize].clone();
        game.play(seat, &a).unwrap();
    }
    None
}

/// The pieces on the board, as "Name on cell".
fn pieces(game: &AnyGame) -> Vec<(Seat, String)> {
    let v = game.view(Viewer::Spectator);
    v.pieces
        .iter()
        .map(|p| {
            (
                p.seat,
                format!("{} on {}", p.glyph.name, v.board.name(p.cell)),
            )
        })
        .collect()
}

#[test]
fn hint_words_name_what_a_capture_wins() {
    let opts = options(&[("army.0", "human"), ("army.1", "undead")]);
    let mut checked = 0;
    for seed in 1..40 {
        // An action that takes exactly one enemy piece off the board, with no chance.
        let found = find(GameKind::Arcana, &opts, seed, |g, seat, a| {
            let mut after = g.clone();
            let events = after.play(seat, a).ok()?;
            if events.iter().any(|e| e.chance) {
                return None;
            }
            let was = pieces(g);
            let now = pieces(&after);
            let enemy_before = was.iter().filter(|(s, _)| *s != seat).count();
            let enemy_after = now.iter().filter(|(s, _)| *s != seat).count();
            if enemy_before != enemy_after + 1 {
                return None;
            }
            // The one whose square is empty of it now.
            let taken = was
                .iter()
                .find(|(s, p)| *s != seat && !now.iter().any(|(t, q)| t == s && q == p))?;
            Some((a.to_string(), taken.1.clone()))
        });
        let Some((game, seat, (action, taken))) = found else {
            continue;
        };
        let words = explain_any(&game, seat, &action, seed);
        let text = words.join("; ");
        assert!(
            text.contains(&format!("wins the {taken}")),
            "{action} takes the {taken}: {text}"
        );
        assert!(!text.contains("dice"), "{text}");
        checked += 1;
        if checked >= 3 {
            break;
        }
    }
    assert!(checked > 0, "no capture found in random Arcana games");
}

#[test]
fn an_attack_whose_dice_decide_is_told_as_an_attack() {
    let mut checked = 0;
    for seed in 1..40 {
        let found = find(GameKind::Gladiator, &Options::new(), seed, |g, seat, a| {
            let mut after = g.clone();
            let events = after.play(seat, a).ok()?;
            events
                .iter()
                .any(|e| matches!(&e.dice, Some((s, _)) if *s == seat))
                .then(|| a.to_string())
        });
        let Some((game, seat, action)) = found else {
            continue;
        };
        let text = explain_any(&game, seat, &action, seed).join("; ");
        assert!(
            text.contains("attacks the") && text.contains("the dice decide"),
            "{action}: {text}"
        );
        assert!(!text.contains("wins"), "a guessed roll is no fact: {text}");
        checked += 1;
        if checked >= 2 {
            break;
        }
    }
    assert!(checked > 0, "no attack found in random Gladiator games");
}

#[test]
fn a_quiet_move_says_where_it_goes_and_what_stays_safe() {
    let opts = options(&[("army.0", "human"), ("army.1", "undead")]);
    let game = AnyGame::setup(GameKind::Arcana, &opts, 3).unwrap();
    let seat = game.to_act()[0];
    let action = game
        .legal_actions(seat)
        .into_iter()
        .find(|a| a.contains('-') && !a.contains('x') && !a.contains(' '))
        .expect("a plain move at the start");
    let text = explain_any(&game, seat, &action, 9).join("; ");
    let to = action.split('-').nth(1).unwrap();
    assert!(text.contains("brings the "), "{action}: {text}");
    assert!(text.contains(&format!(" to {to}")), "{action}: {text}");
    assert!(
        text.contains("out of the enemy's reach") || text.contains("within the enemy's reach"),
        "{action}: {text}"
    );
}
