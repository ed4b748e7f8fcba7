//! The ISMCTS tree: nodes are sequences of decisions shared by every guess of
//! the hidden state; edges carry (seat, action), visit and availability counts
//! and the summed reward of the seat that took the edge.

use super::reward::{result, Rewards};
use super::{players, Playout, Prior, Settings};
use crate::event::Mark;
use crate::game::Game;
use crate::rng::Rng;
use crate::seat::Seat;

struct Edge<A> {
    seat: Seat,
    action: A,
    child: usize,
    visits: u32,
    /// How many times the edge was legal when its node was visited.
    available: u32,
    /// Summed reward of `seat` over the playouts through this edge.
    reward: f64,
    /// The move's first impression for its seat (see [`Prior`]), in 0..1.
    prior: f32,
}

struct Node<A> {
    edges: Vec<Edge<A>>,
    /// The first impression of each move legal at the first visit, in the
    /// order the game listed them; filled on the first visit when priors are on.
    priors: Vec<(Seat, A, f32)>,
}

impl<A> Node<A> {
    fn new() -> Node<A> {
        Node {
            edges: Vec::new(),
            priors: Vec::new(),
        }
    }
}

/// Finds `(seat, action)` in `items`, trying index `hint` first: games list
/// their actions in a stable order, so the hint nearly always hits.
fn find<T>(items: &[T], hint: usize, key: impl Fn(&T) -> bool) -> Option<usize> {
    if items.get(hint).is_some_and(&key) {
        Some(hint)
    } else {
        items.iter().position(key)
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
            nodes: vec![Node::new()],
        }
    }

    /// One iteration on `state`, a fresh guess of the hidden state: select down
    /// the tree among the edges legal in this guess, add one node, play out,
    /// and credit every edge on the path with its seat's reward.
    pub fn iterate(&mut self, mut state: G, rng: &mut Rng) {
        let mut path: Vec<(usize, usize)> = Vec::new();
        let mut node = 0;
        loop {
            if state.outcome().is_over() {
                break;
            }
            let moves = self.moves(&state, node == 0);
            if moves.is_empty() {
                break;
            }
            if self.settings.prior != Prior::None && self.nodes[node].priors.is_empty() {
                let priors = moves
                    .iter()
                    .map(|(s, a)| (*s, a.clone(), self.prior(&state, *s, a)))
                    .collect();
                self.nodes[node].priors = priors;
            }
            // Match each legal move to its edge; count availability.
            let mut untried: Vec<usize> = Vec::new();
            let mut matched: Vec<usize> = Vec::with_capacity(moves.len());
            {
                let edges = &mut self.nodes[node].edges;
                for (i, (seat, action)) in moves.iter().enumerate() {
                    match find(edges, i, |e| e.seat == *seat && e.action == *action) {
                        Some(e) => {
                            edges[e].available += 1;
                            matched.push(e);
                        }
                        None => untried.push(i),
                    }
                }
            }
            if !untried.is_empty() {
                let pick = self.pick_untried(node, &moves, &untried, rng);
                let (seat, action) = moves[pick].clone();
                if state.play(seat, &action).is_err() {
                    // A listed action must apply; if a game breaks that, the
                    // move is simply not added and the playout starts here.
                    break;
                }
                let prior = self.prior_of(node, pick, seat, &action);
                let child = self.nodes.len();
                self.nodes.push(Node::new());
                let edges = &mut self.nodes[node].edges;
                edges.push(Edge {
                    seat,
                    action,
                    child,
                    visits: 0,
                    available: 1,
                    reward: 0.0,
                    prior,
                });
                path.push((node, edges.len() - 1));
                break;
            }
            let c = self.settings.exploration as f64;
            let w = self.settings.prior_weight as f64;
            let edges = &self.nodes[node].edges;
            let mut best = matched[0];
            let mut best_score = f64::NEG_INFINITY;
            for &e in &matched {
                let edge = &edges[e];
                let n = edge.visits.max(1) as f64;
                let score = edge.reward / n
                    + c * ((edge.available as f64).ln() / n).sqrt()
                    + w * edge.prior as f64 / (n + 1.0);
                if score > best_score {
                    best_score = score;
                    best = e;
                }
            }
            let edge = &edges[best];
            let (seat, child) = (edge.seat, edge.child);
            if state.play(seat, &edge.action).is_err() {
                break;
            }
            path.push((node, best));
            node = child;
        }
        self.play_out(&mut state, rng);
        let mut rewards = Rewards::new(&state);
        for (node, e) in path {
            let edge = &mut self.nodes[node].edges[e];
            edge.visits += 1;
            edge.reward += rewards.of(edge.seat) as f64;
        }
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

    /// How promising `action` looks to `seat` before any search.
    fn prior(&self, state: &G, seat: Seat, action: &G::Action) -> f32 {
        let mut next = state.clone();
        let Ok(events) = next.play(seat, action) else {
            return 0.0;
        };
        if let Some(r) = result(&next.outcome(), seat) {
            return r;
        }
        match self.settings.prior {
            Prior::Heuristic => next.heuristic(seat),
            _ => {
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

    fn prior_of(&self, node: usize, hint: usize, seat: Seat, action: &G::Action) -> f32 {
        let priors = &self.nodes[node].priors;
        find(priors, hint, |(s, a, _)| *s == seat && a == action)
            .map(|i| priors[i].2)
            .unwrap_or(0.5)
    }

    /// The untried move to add: the best first impression, ties at random.
    fn pick_untried(
        &self,
        node: usize,
        moves: &[(Seat, G::Action)],
        untried: &[usize],
        rng: &mut Rng,
    ) -> usize {
        if self.settings.prior == Prior::None {
            return untried[rng.below(untried.len() as u64) as usize];
        }
        let scored: Vec<(usize, f32)> = untried
            .iter()
            .map(|&i| (i, self.prior_of(node, i, moves[i].0, &moves[i].1)))
            .collect();
        let top = scored.iter().map(|s| s.1).fold(f32::NEG_INFINITY, f32::max);
        let best: Vec<usize> = scored
            .iter()
            .filter(|s| s.1 >= top - 1e-6)
            .map(|s| s.0)
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

    /// The most visited root action, its visits and its mean reward.
    pub fn best(&self) -> Option<(G::Action, u32, f32)> {
        self.nodes[0]
            .edges
            .iter()
            .max_by(|a, b| {
                a.visits.cmp(&b.visits).then(
                    (a.reward / a.visits.max(1) as f64)
                        .total_cmp(&(b.reward / b.visits.max(1) as f64)),
                )
            })
            .map(|e| {
                (
                    e.action.clone(),
                    e.visits,
                    (e.reward / e.visits.max(1) as f64) as f32,
                )
            })
    }
}
