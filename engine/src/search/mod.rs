//! The computer opponent: one search for every game, through [`Game`] alone.
//!
//! The search is information-set Monte Carlo tree search (ISMCTS): every
//! iteration starts from a fresh [`Game::redeal`] of the position for the
//! searching seat, so what that seat cannot see (other hands, the deck order,
//! the future dice) is a new random guess each time. The true position is
//! touched only through `redeal`: the search can never use another seat's
//! hand, the deck order or the game's seed, and it never reads the future.
//!
//! One tree is shared by all guesses; a node is a sequence of (seat, action)
//! decisions, and an edge is only considered in the guesses where it is legal
//! (its "availability" is counted for the exploration term). Rewards are per
//! seat, so turns, pending decisions answered by another seat, several seats
//! able to act at once, teams and free-for-alls are all the same case: at each
//! decision the seat that acts picks what is best for itself.
//!
//! Playouts stop after a few plies and score the position with
//! [`Game::heuristic`], because random play to the end of a long chess-like
//! game says little about who stands better.
//!
//! The library has no clock: the caller passes a [`Budget`] whose
//! `should_stop` closure holds its own deadline.

mod alphabeta;
mod any;
mod explain;
mod guard;
mod players;
mod reward;
mod tree;

pub use any::{choose_any, settings_for};
pub use explain::{explain, explain_any};
pub use guard::exposure_of as exposure;
pub use players::{greedy, greedy_by, random};
pub use reward::material_share;

use crate::game::Game;
use crate::rng::Rng;
use crate::seat::Seat;
use serde::{Deserialize, Serialize};
use std::fmt;

/// How hard the computer opponent plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Level {
    Easy,
    Normal,
    Hard,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Easy, Level::Normal, Level::Hard];

    /// The search settings of this level.
    pub fn settings(self) -> Settings {
        match self {
            // Few iterations and long random playouts: makes plain mistakes.
            Level::Easy => Settings {
                max_iterations: 100,
                playout_plies: 12,
                playout: Playout::Random,
                exploration: 1.0,
                prior: Prior::None,
                prior_weight: 0.0,
                widening: 0.0,
                win_check: false,
                first_play: false,
                chance: false,
                guard: false,
                alpha_beta: false,
            },
            // Scores each new leaf with the heuristic directly: on a
            // Breakthrough test game this beat the one-ply greedy player 40
            // of 40 at 300 iterations, against 31 of 40 with 4 random plies
            // (engine/rules/search.md has the comparison).
            Level::Normal => Settings {
                max_iterations: 3_000,
                playout_plies: 0,
                playout: Playout::Random,
                exploration: 0.2,
                prior: Prior::Events,
                prior_weight: 0.0,
                widening: 0.0,
                win_check: false,
                first_play: false,
                chance: true,
                guard: true,
                alpha_beta: false,
            },
            // The caller's budget bounds the work; the cap only bounds the
            // tree's memory (a node per iteration).
            Level::Hard => Settings {
                max_iterations: 50_000,
                ..Level::Normal.settings()
            },
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }

    pub fn parse(text: &str) -> Option<Level> {
        let t = text.trim().to_ascii_lowercase();
        Level::ALL.into_iter().find(|l| l.name() == t)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a playout picks its actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Playout {
    /// A uniformly random legal action of a random seat that may act.
    Random,
    /// The best of `n` random legal actions by the mover's [`Game::heuristic`]
    /// after playing it: slower per ply, but playouts look like play.
    BestOf(u8),
}

/// How the search orders the moves of a node before it has tried them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Prior {
    /// In random order, all alike.
    None,
    /// Each move is played once on the first visit of its node: a move that
    /// wins comes first, then moves whose events hit a piece (captures,
    /// kills), then the rest. Cheap, and it finds recaptures early.
    Events,
    /// Like `Events`, but the rest are ranked by the mover's
    /// [`Game::heuristic`] after the move: better, and costlier.
    Heuristic,
}

/// What a search level is made of; [`Level::settings`] gives the standard ones.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The level's own cap on iterations (the [`Budget`] may stop it sooner).
    pub max_iterations: u32,
    /// Plies played at random after leaving the tree, before the position is
    /// scored with [`Game::heuristic`]; 0 scores the new leaf directly.
    pub playout_plies: u16,
    pub playout: Playout,
    /// The UCB exploration constant. Rewards are in 0..1, but heuristic
    /// scores of ongoing games mostly differ by a few hundredths, hence small.
    pub exploration: f32,
    pub prior: Prior,
    /// Weight of a move's prior in its score, fading as it is visited
    /// (progressive bias: `weight * prior / (visits + 1)`); 0 uses the prior
    /// only to order the untried moves.
    pub prior_weight: f32,
    /// Progressive widening: a node visited `n` times tries at most
    /// `widening * sqrt(n)` (at least 2) of its moves, the best by prior
    /// first, so that few iterations still look at the likely moves more than
    /// once; 0 tries every move before revisiting any.
    pub widening: f32,
    /// On reaching a new leaf, look for a move of a seat to act that wins at
    /// once in this guess, and if there is one, score the leaf as played.
    pub win_check: bool,
    /// First-play urgency: an untried move counts as tried once with the
    /// mean of the tried ones, instead of being tried before any revisit.
    pub first_play: bool,
    /// Chance scored by its odds (ruling S12): an action whose result a roll
    /// decides ([`Game::chance`]) gets one child per outcome, and its value is
    /// the mean of theirs weighted by the exact odds; a new leaf reached
    /// through it is scored by the expectation over all its outcomes.
    #[serde(default)]
    pub chance: bool,
    /// The root keeps its losing piece (ruling S13): an action after which the
    /// other side's next action wins at once with odds of at least
    /// [`EXPOSED`] is refused when another keeps them lower.
    #[serde(default)]
    pub guard: bool,
    /// Alpha-beta instead of the tree (ruling S14), for a game of perfect
    /// information without chance; `max_iterations` then counts positions
    /// searched. See `alphabeta.rs`.
    #[serde(default)]
    pub alpha_beta: bool,
}

/// The odds of losing the game to the other side's next action at which the
/// guard (ruling S13) calls an action exposed.
pub const EXPOSED: f64 = 0.25;

/// How much work one decision may take. The search checks `should_stop`
/// before every iteration (after the first), so a deadline closure bounds the
/// time and the iteration count bounds the work in a reproducible way.
#[derive(Clone, Copy)]
pub struct Budget<'a> {
    pub max_iterations: u32,
    pub should_stop: &'a dyn Fn() -> bool,
}

impl<'a> Budget<'a> {
    /// A budget bounded by iterations only: the result depends on nothing but
    /// the position, the seed and the count.
    pub fn iterations(max_iterations: u32) -> Budget<'static> {
        Budget {
            max_iterations,
            should_stop: &never,
        }
    }

    /// A budget bounded by `should_stop` (a deadline) and the level's own cap.
    pub fn until(should_stop: &'a dyn Fn() -> bool) -> Budget<'a> {
        Budget {
            max_iterations: u32::MAX,
            should_stop,
        }
    }
}

fn never() -> bool {
    false
}

/// The action chosen, with what the search thinks of it (for /hint).
#[derive(Clone, Debug, PartialEq)]
pub struct Choice<A> {
    pub action: A,
    /// The action's notation in the position.
    pub notation: String,
    /// The mean result for the seat over the playouts through this action, in
    /// 0..1 (1 = a win, 0.5 = a draw or an even game).
    pub expected: f32,
    /// Playouts through this action.
    pub visits: u32,
    /// Playouts in the whole search.
    pub iterations: u32,
    /// One line for people: "e2-e4: expected 0.62 after 812 of 3000 playouts".
    pub why: String,
}

/// Chooses `seat`'s action in `game`, or `None` when `seat` has nothing to
/// decide (the game is over, or it waits for someone else).
///
/// Only [`Game::redeal`] copies of `game` for `seat` are ever looked at.
/// With a budget bounded by iterations only, the same position, seat, level
/// and seed always give the same choice.
pub fn choose<G: Game>(
    game: &G,
    seat: Seat,
    level: Level,
    budget: &Budget,
    seed: u64,
) -> Option<Choice<G::Action>> {
    choose_with(game, seat, &level.settings(), budget, seed)
}

/// [`choose`] with explicit settings.
pub fn choose_with<G: Game>(
    game: &G,
    seat: Seat,
    settings: &Settings,
    budget: &Budget,
    seed: u64,
) -> Option<Choice<G::Action>> {
    let mut rng = Rng::new(seed ^ 0x15C7_5EA2_C400_0001);
    let first = game.redeal(seat, rng.next_u64());
    if first.outcome().is_over() || !first.to_act().contains(&seat) {
        return None;
    }
    let legal = first.legal_actions(seat);
    match legal.len() {
        0 => return None,
        1 => {
            let action = legal.into_iter().next()?;
            let notation = first.format(&action);
            return Some(Choice {
                why: format!("{notation}: the only legal action"),
                notation,
                action,
                expected: first.heuristic(seat),
                visits: 0,
                iterations: 0,
            });
        }
        _ => {}
    }
    let cap = settings.max_iterations.min(budget.max_iterations).max(1);
    if settings.alpha_beta {
        let found = alphabeta::choose(&first, seat, legal, cap, budget)?;
        let notation = first.format(&found.action);
        return Some(Choice {
            why: format!(
                "{notation}: expected {:.2} for {} looking {} plies ahead over {} positions",
                found.value,
                first.seat_name(seat),
                found.depth,
                found.positions
            ),
            notation,
            action: found.action,
            expected: found.value,
            visits: found.positions,
            iterations: found.positions,
        });
    }
    let mut search = tree::Search::new(seat, *settings);
    let mut iterations = 0u32;
    while iterations < cap {
        if iterations > 0 && (budget.should_stop)() {
            break;
        }
        let guess = if iterations == 0 {
            first.clone()
        } else {
            game.redeal(seat, rng.next_u64())
        };
        search.iterate(guess, &mut rng);
        iterations += 1;
    }
    let ranked = search.ranked();
    let (mut action, mut visits, mut expected) = ranked.first().cloned()?;
    if settings.guard {
        let guesses: Vec<G> = (0..guard::GUESSES)
            .map(|_| game.redeal(seat, rng.next_u64()))
            .collect();
        if guard::is_exposed(guard::exposure(&guesses, seat, &action)) {
            let safer = ranked[1..]
                .iter()
                .find(|(a, _, _)| !guard::is_exposed(guard::exposure(&guesses, seat, a)));
            if let Some(safer) = safer.cloned() {
                (action, visits, expected) = safer;
            }
        }
    }
    let notation = first.format(&action);
    Some(Choice {
        why: format!(
            "{notation}: expected {expected:.2} for {} after {visits} of {iterations} playouts",
            first.seat_name(seat)
        ),
        notation,
        action,
        expected,
        visits,
        iterations,
    })
}
