//! The ISMCTS tree: nodes are sequences of decisions shared by every guess of
//! the hidden state; edges carry (seat, action), visit and availability counts
//! and the summed reward of the seat that took the edge.

use super::reward::{result, Rewards};
use super::{players, Playout, Prior, Settings};
use crate::event::{Event, Mark};
use crate::game::Game;
use crate::rng::Rng;
use crate::seat::Seat;

struct Edge<A> {
    seat: Seat,
    action: A,
    /// The node below, once the edge has been taken.
    child: Option<usize>,
    visits: u32,
    /// How many times the edge was legal when its node was visited.
    available: u32,
    /// Summed reward of `seat` over the playouts through this edge.
    reward: f64,
    /// The move's first impression for its seat (see [`Prior`]), in 0..1.
    prior: f32,
    /// Listed but refused by `play` in some guess (a game bug): never tried again.
    broken: bool,
    /// One per chance outcome of the action ([`Game::chance`]) when a roll
    /// decides it and `Settings::chance` is on; empty otherwise.
    branches: Vec<Branch>,
}

/// One chance outcome of an edge: its exact odds and the subtree after it.
struct Branch {
    odds: f64,
    child: Option<usize>,
    /// Playouts through this outcome, counting the one that scored it at its
    /// edge's first visit.
    visits: u32,
    /// Summed reward of the edge's seat over them.
    reward: f64,
}

impl<A> Edge<A> {
    /// The edge's value for its seat: the mean reward, or for a chance edge
    /// the outcomes' means weighted by their odds (ruling S12), so that a
    /// lucky run of one outcome does not count for more than its odds.
    fn value(&self) -> f64 {
        if self.branches.is_empty() {
            return self.reward / self.visits.max(1) as f64;
        }
        let (sum, odds) = self
            .branches
            .iter()
            .filter(|b| b.visits > 0)
            .fold((0.0, 0.0), |(s, o), b| {
                (s + b.odds * b.reward / b.visits as f64, o + b.odds)
            });
        if odds > 0.0 {
            sum / odds
        } else {
            self.reward / self.visits.max(1) as f64
        }
    }
}

/// A node's edges: every move seen legal at it so far, in the order the game
/// listed them at the first visit (moves legal only in later guesses follow).
struct Node<A> {
    edges: Vec<Edge<A>>,
    /// Iterations that passed through this node and chose among its edges.
    visits: u32,
}

/// Finds `(seat, action)` among `edges`, trying index `hint` first: games list
/// their actions in a stable order, so the hint nearly always hits.
fn find<A: PartialEq>(edges: &[Edge<A>], hint: usize, seat: Seat, action: &A) -> Option<usize> {
    let hit = |e: &Edge<A>| e.seat == seat && e.action == *action;
    if edges.get(hint).is_some_and(hit) {
        Some(hint)
    } else {
        edges.iter().position(hit)
    }
}

pub(super) struct Search<G: Game> {
    root_seat: Seat,
    settings: Settings,
    nodes: Vec<Node<G::Action>>,
}

impl<G: Game> Search<G> {
    pub fn new(root_seat: Seat, settings: Settings) -> Search<G> {
        Search {
            root_seat,
            settings,
            nodes: vec![Node {
                edges: Vec::new(),
                visits: 0,
            }],
        }
    }

    /// One iteration on `state`, a fresh guess of the hidden state: select down
    /// the tree among the edges legal in this guess, add one node, play out,
    /// and credit every edge on the path with its seat's reward.
    pub fn iterate(&mut self, mut state: G, rng: &mut Rng) {
        let mut path: Vec<(usize, usize, Option<usize>)> = Vec::new();
        let mut leaf_outcomes: Vec<(f64, G)> = Vec::new();
        let mut node = 0;
        loop {
            if state.outcome().is_over() {
                break;
            }
            let moves = self.moves(&state, node == 0);
            if moves.is_empty() {
                break;
            }
            // Match each legal move to its edge (adding the new ones) and
            // count its availability.
            let mut matched: Vec<usize> = Vec::with_capacity(moves.len());
            for (i, (seat, action)) in moves.into_iter().enumerate() {
                let e = match find(&self.nodes[node].edges, i, seat, &action) {
                    Some(e) => e,
                    None => self.add_edge(node, &state, seat, action).0,
                };
                let edge = &mut self.nodes[node].edges[e];
                if !edge.broken {
                    edge.available += 1;
                    matched.push(e);
                }
            }
            if matched.is_empty() {
                break;
            }
            self.nodes[node].visits += 1;
            let edges = &self.nodes[node].edges;
            let (tried, untried): (Vec<usize>, Vec<usize>) =
                matched.iter().partition(|&&e| edges[e].child.is_some());
            let pick = if untried.is_empty() || tried.len() >= self.width(node) {
                self.select(node, &tried)
            } else if self.settings.first_play && !tried.is_empty() {
                let best = self.select(node, &tried);
                if self.score(node, best) > self.untried_score(node, &tried) {
                    best
                } else {
                    self.pick_untried(node, &untried, rng)
                }
            } else {
                self.pick_untried(node, &untried, rng)
            };
            let edge = &self.nodes[node].edges[pick];
            let odds = if self.settings.chance {
                state.chance(edge.seat, &edge.action)
            } else {
                Vec::new()
            };
            if odds.len() > 1 {
                let fresh = edge.child.is_none() && edge.branches.is_empty();
                let (b, outcomes) = match self.chance_step(node, pick, &mut state, &odds, fresh) {
                    Some(step) => step,
                    None => {
                        self.nodes[node].edges[pick].broken = true;
                        continue;
                    }
                };
                path.push((node, pick, Some(b)));
                let child = match self.nodes[node].edges[pick].branches[b].child {
                    Some(child) => child,
                    None => {
                        let child = self.nodes.len();
                        self.nodes.push(Node {
                            edges: Vec::new(),
                            visits: 0,
                        });
                        let edge = &mut self.nodes[node].edges[pick];
                        edge.branches[b].child = Some(child);
                        // Marks the edge as tried among the node's moves.
                        edge.child.get_or_insert(child);
                        leaf_outcomes = outcomes;
                        break;
                    }
                };
                node = child;
                continue;
            }
            if state.play(edge.seat, &edge.action).is_err() {
                // A listed action must apply; if a game breaks that, the edge
                // is dropped and the choice made again without it.
                self.nodes[node].edges[pick].broken = true;
                continue;
            }
            path.push((node, pick, None));
            match edge.child {
                Some(child) => node = child,
                None => {
                    let child = self.nodes.len();
                    self.nodes.push(Node {
                        edges: Vec::new(),
                        visits: 0,
                    });
                    self.nodes[node].edges[pick].child = Some(child);
                    if self.settings.win_check {
                        self.win_check(child, &mut state);
                    }
                    break;
                }
            }
        }
        // A new leaf reached through a roll is scored by the expectation over
        // every outcome of that roll, not by the one played (ruling S12).
        let mut scored: Vec<(f64, Rewards<G>)> = Vec::new();
        if self.settings.playout_plies == 0 && !leaf_outcomes.is_empty() {
            scored = leaf_outcomes
                .iter()
                .map(|(odds, s)| (*odds, Rewards::new(s)))
                .collect();
        } else {
            self.play_out(&mut state, rng);
        }
        let mut rewards = Rewards::new(&state);
        let last = path.len().saturating_sub(1);
        for (i, (node, e, branch)) in path.into_iter().enumerate() {
            let edge = &mut self.nodes[node].edges[e];
            let reward = if scored.is_empty() {
                rewards.of(edge.seat) as f64
            } else {
                scored
                    .iter_mut()
                    .map(|(odds, r)| *odds * r.of(edge.seat) as f64)
                    .sum()
            };
            edge.visits += 1;
            edge.reward += reward;
            // The last edge's outcomes were each scored when it was first
            // taken (`chance_step`); the others collect this playout.
            if let Some(b) = branch {
                if i != last || scored.is_empty() {
                    edge.branches[b].visits += 1;
                    edge.branches[b].reward += reward;
                }
            }
        }
    }

    /// Takes the chance edge `pick` of `node` in `state`: lists its outcomes
    /// by `odds` on its first visit (`fresh`), each scored by the heuristic
    /// after it, and plays the outcome furthest behind its odds (the most
    /// likely first), so that the outcomes are visited in proportion to their
    /// odds rather than as this guess's dice would fall. Returns the outcome
    /// and, when fresh, every outcome's position with its odds for scoring
    /// the new leaf; `None` if the game refuses the action.
    fn chance_step(
        &mut self,
        node: usize,
        pick: usize,
        state: &mut G,
        odds: &[f64],
        fresh: bool,
    ) -> Option<(usize, Vec<(f64, G)>)> {
        let edge = &mut self.nodes[node].edges[pick];
        let (seat, action) = (edge.seat, edge.action.clone());
        let mut outcomes = Vec::new();
        if edge.branches.len() != odds.len() {
            // First visit (or a game whose outcomes changed between guesses:
            // start the edge's outcomes afresh).
            edge.branches = odds
                .iter()
                .map(|&o| Branch {
                    odds: o,
                    child: None,
                    visits: 0,
                    reward: 0.0,
                })
                .collect();
        }
        for (branch, &o) in edge.branches.iter_mut().zip(odds) {
            branch.odds = o;
        }
        if fresh {
            for (i, &o) in odds.iter().enumerate() {
                let mut next = state.clone();
                next.play_chance(seat, &action, i).ok()?;
                let r = Rewards::new(&next).of(seat) as f64;
                let branch = &mut edge.branches[i];
                branch.visits = 1;
                branch.reward = r;
                outcomes.push((o, next));
            }
        }
        let b = edge
            .branches
            .iter()
            .enumerate()
            .max_by(|(i, x), (j, y)| {
                let fx = x.odds / (x.visits + 1) as f64;
                let fy = y.odds / (y.visits + 1) as f64;
                fx.total_cmp(&fy).then(j.cmp(i))
            })
            .map(|(i, _)| i)?;
        if fresh {
            *state = outcomes[b].1.clone();
        } else {
            state.play_chance(seat, &action, b).ok()?;
        }
        Some((b, outcomes))
    }

    /// How many edges of `node` may be tried by now (progressive widening):
    /// `widening * sqrt(visits)`, at least 2; unlimited when widening is 0.
    fn width(&self, node: usize) -> usize {
        let w = self.settings.widening;
        if w <= 0.0 {
            return usize::MAX;
        }
        ((w * (self.nodes[node].visits as f32).sqrt()).ceil() as usize).max(2)
    }

    /// The UCB score of an edge, as [`Self::select`] ranks it.
    fn score(&self, node: usize, e: usize) -> f64 {
        let c = self.settings.exploration as f64;
        let w = self.settings.prior_weight as f64;
        let edge = &self.nodes[node].edges[e];
        let n = edge.visits.max(1) as f64;
        edge.value()
            + c * ((edge.available as f64).ln() / n).sqrt()
            + w * edge.prior as f64 / (n + 1.0)
    }

    /// What an untried edge is worth with first-play urgency: as if tried
    /// once with the mean of the tried ones, so that a reply already seen to
    /// be much better (a win) is followed up before the rest are tried.
    fn untried_score(&self, node: usize, tried: &[usize]) -> f64 {
        let c = self.settings.exploration as f64;
        let edges = &self.nodes[node].edges;
        let (reward, visits) = tried.iter().fold((0.0, 0u32), |(r, v), &e| {
            (r + edges[e].reward, v + edges[e].visits)
        });
        let mean = reward / visits.max(1) as f64;
        mean + c * (self.nodes[node].visits.max(1) as f64).ln().sqrt()
    }

    /// UCB1 over the edges legal in this guess, with availability counts in
    /// place of the parent's visits, plus the fading prior.
    fn select(&self, node: usize, matched: &[usize]) -> usize {
        let mut best = matched[0];
        let mut best_score = f64::NEG_INFINITY;
        for &e in matched {
            let score = self.score(node, e);
            if score > best_score {
                best_score = score;
                best = e;
            }
        }
        best
    }

    /// The decisions open in `state`: at the root only the searching seat's.
    fn moves(&self, state: &G, root: bool) -> Vec<(Seat, G::Action)> {
        let seats = if root {
            vec![self.root_seat]
        } else {
            state.to_act()
        };
        seats
            .into_iter()
            .flat_map(|s| state.legal_actions(s).into_iter().map(move |a| (s, a)))
            .collect()
    }

    /// Adds the edge (seat, action) to `node` with its prior; returns its
    /// index and whether the action wins at once in `state`.
    fn add_edge(&mut self, node: usize, state: &G, seat: Seat, action: G::Action) -> (usize, bool) {
        let (prior, wins) = self.prior(state, seat, &action);
        let edges = &mut self.nodes[node].edges;
        edges.push(Edge {
            seat,
            action,
            child: None,
            visits: 0,
            available: 0,
            reward: 0.0,
            prior,
            broken: false,
            branches: Vec::new(),
        });
        (edges.len() - 1, wins)
    }

    /// Lists the edges of the new leaf `node` now rather than at its next
    /// visit, and if a seat to act has a move that wins at once in this
    /// guess, plays it: a leaf where the side to move takes the king is lost,
    /// whatever the material says.
    fn win_check(&mut self, node: usize, state: &mut G) {
        if state.outcome().is_over() {
            return;
        }
        let mut winning: Option<usize> = None;
        for (seat, action) in self.moves(state, false) {
            let (e, wins) = self.add_edge(node, state, seat, action);
            if wins && winning.is_none() {
                winning = Some(e);
            }
        }
        if let Some(e) = winning {
            let edge = &self.nodes[node].edges[e];
            let _ = state.play(edge.seat, &edge.action);
        }
    }

    /// How promising `action` looks to `seat` before any search, and whether
    /// it wins at once (checked whenever priors or the win check are on).
    fn prior(&self, state: &G, seat: Seat, action: &G::Action) -> (f32, bool) {
        if self.settings.prior == Prior::None && !self.settings.win_check {
            return (0.5, false);
        }
        let mut next = state.clone();
        let Ok(events) = next.play(seat, action) else {
            return (0.0, false);
        };
        if let Some(r) = result(&next.outcome(), seat) {
            return (r, r >= 1.0);
        }
        let prior = self.impression(&next, &events, seat);
        (prior, false)
    }

    fn impression(&self, next: &G, events: &[Event], seat: Seat) -> f32 {
        match self.settings.prior {
            Prior::None => 0.5,
            Prior::Heuristic => next.heuristic(seat),
            Prior::Events => {
                let hits = events
                    .iter()
                    .any(|e| e.marks.iter().any(|(_, m)| *m == Mark::Hit));
                if hits {
                    0.75
                } else {
                    0.5
                }
            }
        }
    }

    /// The untried edge to take: the best first impression, ties at random.
    fn pick_untried(&self, node: usize, untried: &[usize], rng: &mut Rng) -> usize {
        let edges = &self.nodes[node].edges;
        let top = untried
            .iter()
            .map(|&e| edges[e].prior)
            .fold(f32::NEG_INFINITY, f32::max);
        let best: Vec<usize> = untried
            .iter()
            .copied()
            .filter(|&e| edges[e].prior >= top - 1e-6)
            .collect();
        best[rng.below(best.len() as u64) as usize]
    }

    fn play_out(&self, state: &mut G, rng: &mut Rng) {
        for _ in 0..self.settings.playout_plies {
            if state.outcome().is_over() {
                return;
            }
            let seats = state.to_act();
            if seats.is_empty() {
                return;
            }
            let seat = seats[rng.below(seats.len() as u64) as usize];
            let action = match self.settings.playout {
                Playout::Random => players::random_action(state, seat, rng),
                Playout::BestOf(n) => players::best_of(state, seat, n.max(1) as usize, rng),
            };
            let Some(action) = action else { return };
            if state.play(seat, &action).is_err() {
                return;
            }
        }
    }

    /// The root actions, most visited first (ties: the better value), with
    /// their visits and values: the first is the search's answer.
    pub fn ranked(&self) -> Vec<(G::Action, u32, f32)> {
        let mut edges: Vec<&Edge<G::Action>> =
            self.nodes[0].edges.iter().filter(|e| !e.broken).collect();
        edges.sort_by(|a, b| {
            b.visits
                .cmp(&a.visits)
                .then(b.value().total_cmp(&a.value()))
        });
        edges
            .into_iter()
            .map(|e| (e.action.clone(), e.visits, e.value() as f32))
            .collect()
    }
}
