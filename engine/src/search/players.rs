//! Two simple players for comparison and for playouts: a random one and a
//! one-ply greedy one. Like the search, they look only at
//! [`Game::redeal`] copies of the position.

use super::reward::result;
use crate::game::Game;
use crate::rng::Rng;
use crate::seat::Seat;

/// How many guesses of the hidden state and the dice the greedy player
/// averages each action's score over.
const GREEDY_GUESSES: usize = 4;

/// A uniformly random legal action of `seat`, or `None` if it has none.
pub fn random<G: Game>(game: &G, seat: Seat, seed: u64) -> Option<G::Action> {
    let mut rng = Rng::new(seed);
    let guess = game.redeal(seat, rng.next_u64());
    random_action(&guess, seat, &mut rng)
}

/// The legal action of `seat` whose resulting position scores best for it by
/// [`Game::heuristic`] (a win is 1, a loss 0), ties broken at random from
/// `seed`. Each score is averaged over a few guesses of the hidden state and
/// the dice, so the player does not bet on one particular roll or card.
pub fn greedy<G: Game>(game: &G, seat: Seat, seed: u64) -> Option<G::Action> {
    greedy_by(game, seat, seed, score)
}

/// [`greedy`] scoring with `score` instead of [`Game::heuristic`] (for
/// comparisons: the strength example's material-only greedy player).
/// `score` is called on positions after the action, finished ones included.
pub fn greedy_by<G: Game>(
    game: &G,
    seat: Seat,
    seed: u64,
    score: impl Fn(&G, Seat) -> f32,
) -> Option<G::Action> {
    let mut rng = Rng::new(seed);
    let guesses: Vec<G> = (0..GREEDY_GUESSES)
        .map(|_| game.redeal(seat, rng.next_u64()))
        .collect();
    let legal = guesses[0].legal_actions(seat);
    let mut best: Vec<G::Action> = Vec::new();
    let mut best_score = f32::NEG_INFINITY;
    for action in legal {
        let mut total = 0.0;
        let mut count = 0;
        for guess in &guesses {
            let mut next = guess.clone();
            if next.play(seat, &action).is_err() {
                continue;
            }
            total += score(&next, seat);
            count += 1;
        }
        if count == 0 {
            continue;
        }
        let s = total / count as f32;
        if s > best_score + 1e-6 {
            best_score = s;
            best.clear();
            best.push(action);
        } else if (s - best_score).abs() <= 1e-6 {
            best.push(action);
        }
    }
    if best.is_empty() {
        return None;
    }
    let i = rng.below(best.len() as u64) as usize;
    Some(best.swap_remove(i))
}

fn score<G: Game>(state: &G, seat: Seat) -> f32 {
    result(&state.outcome(), seat).unwrap_or_else(|| state.heuristic(seat))
}

pub(super) fn random_action<G: Game>(state: &G, seat: Seat, rng: &mut Rng) -> Option<G::Action> {
    let mut legal = state.legal_actions(seat);
    if legal.is_empty() {
        return None;
    }
    let i = rng.below(legal.len() as u64) as usize;
    Some(legal.swap_remove(i))
}

/// The best of `n` random legal actions by the mover's score after playing it.
pub(super) fn best_of<G: Game>(
    state: &G,
    seat: Seat,
    n: usize,
    rng: &mut Rng,
) -> Option<G::Action> {
    let mut legal = state.legal_actions(seat);
    if legal.is_empty() {
        return None;
    }
    let mut best: Option<(f32, G::Action)> = None;
    for _ in 0..n.min(legal.len()) {
        let i = rng.below(legal.len() as u64) as usize;
        let action = legal.swap_remove(i);
        let mut next = state.clone();
        if next.play(seat, &action).is_err() {
            continue;
        }
        let s = score(&next, seat);
        if best.as_ref().is_none_or(|(b, _)| s > *b) {
            best = Some((s, action));
        }
    }
    best.map(|(_, a)| a)
}
