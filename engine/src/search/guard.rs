//! The root keeps its losing piece (ruling S13 of engine/rules/search.md):
//! an action after which the other side's next action wins the game at once
//! with odds of at least [`EXPOSED`] is refused when another action keeps them
//! lower. The odds are the exact ones of the rolls ([`Game::chance`]),
//! averaged over a few guesses of what the seat cannot see (the other side's
//! turn dice), so the guard knows no more than the search.
//!
//! Why a rule beside the tree: the tree meets the losing reply only if it
//! happens to try it among some forty, and a mean over replies hides a one in
//! three chance of losing the game; a player sees it at a glance.

use super::reward::result;
use super::EXPOSED;
use crate::game::Game;
use crate::seat::Seat;

/// Guesses of the hidden state (Arachne: the other side's turn dice) the odds
/// are averaged over.
pub(super) const GUESSES: usize = 6;

/// The odds that the other side's next action wins the game at once after
/// `seat` plays `action`, averaged over `guesses` (each a redealt copy).
pub(super) fn exposure<G: Game>(guesses: &[G], seat: Seat, action: &G::Action) -> f64 {
    let total: f64 = guesses.iter().map(|g| after(g, seat, action, true)).sum();
    total / guesses.len().max(1) as f64
}

/// Exposure after `seat` plays `action` in `state`, over the action's own
/// outcomes by their odds. `again`: the seat may still answer a decision of
/// its own that follows (a Blademaster's second move) before it is judged.
fn after<G: Game>(state: &G, seat: Seat, action: &G::Action, again: bool) -> f64 {
    let odds = state.chance(seat, action);
    if odds.len() > 1 {
        odds.iter()
            .enumerate()
            .map(|(i, p)| {
                let mut next = state.clone();
                match next.play_chance(seat, action, i) {
                    Ok(_) => p * exposed(&next, seat, again),
                    Err(_) => 0.0,
                }
            })
            .sum()
    } else {
        let mut next = state.clone();
        match next.play(seat, action) {
            Ok(_) => exposed(&next, seat, again),
            Err(_) => 0.0,
        }
    }
}

/// The odds that the next action in `state` wins the game against `seat`: 1
/// if it is lost already; when another seat acts, its best action's odds of
/// winning at once; when `seat` itself acts again, its safest answer's.
fn exposed<G: Game>(state: &G, seat: Seat, again: bool) -> f64 {
    if let Some(r) = result(&state.outcome(), seat) {
        return if r <= 0.0 { 1.0 } else { 0.0 };
    }
    let to_act = state.to_act();
    if to_act.contains(&seat) {
        if !again {
            return 0.0;
        }
        return state
            .legal_actions(seat)
            .iter()
            .map(|a| after(state, seat, a, false))
            .fold(f64::INFINITY, f64::min)
            .min(1.0);
    }
    let mut worst: f64 = 0.0;
    for other in to_act {
        for action in state.legal_actions(other) {
            worst = worst.max(wins_at_once(state, other, &action, seat));
            if worst >= 1.0 {
                return 1.0;
            }
        }
    }
    worst
}

/// The odds that `other` playing `action` in `state` ends the game lost for `seat`.
fn wins_at_once<G: Game>(state: &G, other: Seat, action: &G::Action, seat: Seat) -> f64 {
    let lost = |g: &G| result(&g.outcome(), seat).is_some_and(|r| r <= 0.0);
    let odds = state.chance(other, action);
    if odds.len() > 1 {
        odds.iter()
            .enumerate()
            .filter(|(i, _)| {
                let mut next = state.clone();
                next.play_chance(other, action, *i).is_ok() && lost(&next)
            })
            .map(|(_, p)| p)
            .sum()
    } else {
        let mut next = state.clone();
        (next.play(other, action).is_ok() && lost(&next)) as u8 as f64
    }
}

/// Whether odds of losing at once make an action exposed.
pub(super) fn is_exposed(odds: f64) -> bool {
    odds >= EXPOSED - 1e-9
}

/// The odds (0..1) that the other side's next action wins the game at once
/// after `seat` plays `action` in `game`, as the guard judges them (ruling
/// S13): exact for the rolls, averaged over guesses drawn from `seed` of what
/// `seat` cannot see. Only [`Game::redeal`] copies are read.
pub fn exposure_of<G: Game>(game: &G, seat: Seat, action: &G::Action, seed: u64) -> f64 {
    let mut rng = crate::rng::Rng::new(seed);
    let guesses: Vec<G> = (0..GUESSES)
        .map(|_| game.redeal(seat, rng.next_u64()))
        .collect();
    exposure(&guesses, seat, action)
}
