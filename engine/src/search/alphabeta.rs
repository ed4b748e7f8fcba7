//! Alpha-beta search (ruling S14 of engine/rules/search.md), for a game of
//! perfect information without chance: what the searching seat sees is the
//! whole position and every action has one result (Arcana). There the
//! family's proven method beats sampling: a capture that loses the General
//! two plies later is seen for certain, not found among forty tries.
//!
//! Iterative deepening from one ply: each depth searches the root actions
//! best first by the previous depth's values; inside the tree a node with
//! two or more plies left tries its children best first by
//! [`Game::heuristic`] (playing them anyway to search them), and a node with
//! one ply left takes them as listed, since sorting would cost as much as the
//! search. Values are the searching seat's heuristic at the horizon, so a
//! turn of several decisions by one seat (a revival, then the move) is
//! maximised throughout. A win found sooner scores above one found later.
//!
//! The work is counted in positions reached (one [`Game::play`] each); the
//! budget's `should_stop` is asked every [`CHECK_EVERY`] positions. The first
//! depth is always finished, so there is always an answer; a deeper one cut
//! by the budget is dropped and the last finished depth answers. With a
//! budget of positions only, the same position gives the same choice.

use super::Budget;
use crate::event::Mark;
use crate::game::Game;
use crate::seat::Seat;

/// Positions between two calls of the budget's `should_stop`.
const CHECK_EVERY: u32 = 256;

/// How much a ply sooner is worth in a won (or later in a lost) game: far
/// below any difference of material the heuristic makes.
const SOONER: f32 = 1e-3;

/// Strikes looked at beyond the horizon (see `Search::quiet`).
const QUIET_PLIES: u32 = 4;

/// The deepest iteration tried; far beyond what any budget reaches in these
/// games, it only bounds a game with one legal action at every ply.
const MAX_DEPTH: u32 = 64;

/// What the search found.
pub(super) struct Found<A> {
    pub action: A,
    /// The seat's value of the action at the deepest finished depth, in 0..1.
    pub value: f32,
    /// That depth, in plies.
    pub depth: u32,
    /// Positions reached in all.
    pub positions: u32,
}

/// Why a depth was not finished.
struct Stopped;

struct Search<'a> {
    seat: Seat,
    cap: u32,
    budget: &'a Budget<'a>,
    positions: u32,
    /// Whether the budget may stop the search now (not during the first depth).
    may_stop: bool,
}

impl Search<'_> {
    /// Counts one position; fails when the budget is spent.
    fn count(&mut self) -> Result<(), Stopped> {
        self.positions += 1;
        if !self.may_stop {
            return Ok(());
        }
        if self.positions >= self.cap
            || (self.positions.is_multiple_of(CHECK_EVERY) && (self.budget.should_stop)())
        {
            return Err(Stopped);
        }
        Ok(())
    }

    /// The value of `state` for the searching seat, `depth` plies deep.
    fn value<G: Game>(
        &mut self,
        state: &G,
        depth: u32,
        alpha: f32,
        beta: f32,
    ) -> Result<f32, Stopped> {
        if let Some(v) = self.settled(state, depth) {
            return Ok(v);
        }
        if depth == 0 {
            return self.quiet(state, QUIET_PLIES, alpha, beta);
        }
        let to_act = state.to_act();
        let Some(&mover) = to_act.first() else {
            return Ok(state.heuristic(self.seat));
        };
        let maximise = mover == self.seat;
        let actions = state.legal_actions(mover);
        if actions.is_empty() {
            return Ok(state.heuristic(self.seat));
        }
        let mut w = Window::new(alpha, beta, maximise);
        let children = self.children(state, mover, &actions, depth, maximise)?;
        for child in children {
            let v = match child {
                Child::Scored(v) => v,
                Child::Played(next) => self.value(&next, depth - 1, w.alpha, w.beta)?,
                Child::Lazy(i) => {
                    let mut next = state.clone();
                    if next.play(mover, &actions[i]).is_err() {
                        continue;
                    }
                    self.count()?;
                    self.value(&next, depth - 1, w.alpha, w.beta)?
                }
            };
            if w.take(v) {
                break;
            }
        }
        if w.best.is_infinite() {
            // Every listed action was refused: score the position as it stands.
            return Ok(state.heuristic(self.seat));
        }
        Ok(w.best)
    }

    /// A finished game, or the horizon: the value without looking further.
    fn settled<G: Game>(&self, state: &G, depth: u32) -> Option<f32> {
        if state.outcome().is_over() {
            let v = state.heuristic(self.seat);
            // Sooner is better for the winner: more plies left means found sooner.
            return Some(if v >= 0.99 {
                v + SOONER * depth as f32
            } else if v <= 0.01 {
                v - SOONER * depth as f32
            } else {
                v
            });
        }
        None
    }

    /// The value at the horizon: the heuristic, unless the side to act can
    /// strike (an action that hits a piece or ends the game), then the best
    /// of standing and striking, `plies` strikes deep at most. Without it a
    /// horizon that falls between a capture and the recapture decides.
    fn quiet<G: Game>(
        &mut self,
        state: &G,
        plies: u32,
        alpha: f32,
        beta: f32,
    ) -> Result<f32, Stopped> {
        if let Some(v) = self.settled(state, 0) {
            return Ok(v);
        }
        let stand = state.heuristic(self.seat);
        let Some(&mover) = state.to_act().first() else {
            return Ok(stand);
        };
        // Standing pat is the first child: enough on its own for a cut.
        let mut w = Window::new(alpha, beta, mover == self.seat);
        if w.take(stand) || plies == 0 {
            return Ok(stand);
        }
        for action in state.legal_actions(mover) {
            let mut next = state.clone();
            let Ok(events) = next.play(mover, &action) else {
                continue;
            };
            self.count()?;
            let strikes = next.outcome().is_over()
                || events
                    .iter()
                    .any(|e| e.marks.iter().any(|(_, m)| *m == Mark::Hit));
            if !strikes {
                continue;
            }
            let v = self.quiet(&next, plies - 1, w.alpha, w.beta)?;
            if w.take(v) {
                break;
            }
        }
        Ok(w.best)
    }

    /// The children of a node in the order to search them: with two or more
    /// plies left, played and sorted best first for the mover by the
    /// heuristic; with one, as listed and played when reached.
    fn children<G: Game>(
        &mut self,
        state: &G,
        mover: Seat,
        actions: &[G::Action],
        depth: u32,
        maximise: bool,
    ) -> Result<Vec<Child<G>>, Stopped> {
        if depth < 2 {
            return Ok((0..actions.len()).map(Child::Lazy).collect());
        }
        let mut scored = Vec::with_capacity(actions.len());
        for a in actions {
            let mut next = state.clone();
            if next.play(mover, a).is_err() {
                continue;
            }
            self.count()?;
            if next.outcome().is_over() {
                let v = self.settled(&next, depth - 1).unwrap_or(0.5);
                scored.push((v, Child::Scored(v)));
            } else {
                scored.push((next.heuristic(self.seat), Child::Played(next)));
            }
        }
        // Stable, so equal values keep the listed order (the same choice every time).
        if maximise {
            scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        } else {
            scored.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        Ok(scored.into_iter().map(|(_, c)| c).collect())
    }
}

/// A node's bounds for the searching seat and its best value so far: the
/// mover maximises when it is the searching seat, and minimises otherwise.
struct Window {
    alpha: f32,
    beta: f32,
    best: f32,
    maximise: bool,
}

impl Window {
    fn new(alpha: f32, beta: f32, maximise: bool) -> Window {
        let best = if maximise {
            f32::NEG_INFINITY
        } else {
            f32::INFINITY
        };
        Window {
            alpha,
            beta,
            best,
            maximise,
        }
    }

    /// Takes a child's value; true when the other children cannot matter.
    fn take(&mut self, v: f32) -> bool {
        if self.maximise {
            self.best = self.best.max(v);
            self.alpha = self.alpha.max(v);
        } else {
            self.best = self.best.min(v);
            self.beta = self.beta.min(v);
        }
        self.alpha >= self.beta
    }
}

enum Child<G> {
    /// A finished game, valued already.
    Scored(f32),
    /// Played for sorting, to be searched.
    Played(G),
    /// The action at this index, to be played when reached.
    Lazy(usize),
}

/// The best of `actions` (all legal for `seat` in `game`, two or more) by
/// alpha-beta search within `cap` positions and the budget's `should_stop`.
pub(super) fn choose<G: Game>(
    game: &G,
    seat: Seat,
    actions: Vec<G::Action>,
    cap: u32,
    budget: &Budget,
) -> Option<Found<G::Action>> {
    let mut search = Search {
        seat,
        cap,
        budget,
        positions: 0,
        may_stop: false,
    };
    // The root's actions with their values, best first after each depth.
    let mut ranked: Vec<(G::Action, f32)> = actions.into_iter().map(|a| (a, 0.0)).collect();
    let mut finished = 0;
    for depth in 1..=MAX_DEPTH {
        match root(&mut search, game, &ranked, depth) {
            Ok(values) => {
                for ((_, v), new) in ranked.iter_mut().zip(values) {
                    *v = new;
                }
                // Stable: among equal values the earlier (better at the last depth) first.
                ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
                finished = depth;
            }
            Err(Stopped) => break,
        }
        search.may_stop = true;
        let decided = ranked.first().is_some_and(|(_, v)| *v > 1.0 || *v < 0.0);
        if decided || search.positions >= cap || (budget.should_stop)() {
            break;
        }
    }
    let (action, value) = ranked.into_iter().next()?;
    Some(Found {
        action,
        value: value.clamp(0.0, 1.0),
        depth: finished,
        positions: search.positions,
    })
}

/// One depth at the root: each action's value, in `ranked`'s order. An action
/// refused by the game (it never is: they are its legal ones) counts as lost.
fn root<G: Game>(
    search: &mut Search,
    game: &G,
    ranked: &[(G::Action, f32)],
    depth: u32,
) -> Result<Vec<f32>, Stopped> {
    let mut alpha = f32::NEG_INFINITY;
    let mut values = Vec::with_capacity(ranked.len());
    for (action, _) in ranked {
        let mut next = game.clone();
        if next.play(search.seat, action).is_err() {
            values.push(f32::NEG_INFINITY);
            continue;
        }
        search.count()?;
        // A window just below the best so far: an action that cannot beat it
        // is cut short and keeps a bound below the best, which orders it after.
        let v = search.value(&next, depth - 1, alpha, f32::INFINITY)?;
        alpha = alpha.max(v);
        values.push(v);
    }
    Ok(values)
}
