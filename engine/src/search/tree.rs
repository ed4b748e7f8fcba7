//! The ISMCTS tree: nodes are sequences of decisions shared by every guess of
//! the hidden state; edges carry (seat, action), visit and availability counts
//! and the summed reward of the seat that took the edge.

use super::reward::Rewards;
use super::{players, Playout, Settings};
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
}

struct Node<A> {
    edges: Vec<Edge<A>>,
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
            nodes: vec![Node { edges: Vec::new() }],
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
            // Match each legal move to its edge; count availability.
            let mut untried: Vec<usize> = Vec::new();
            let mut matched: Vec<usize> = Vec::with_capacity(moves.len());
            {
                let edges = &mut self.nodes[node].edges;
                for (i, (seat, action)) in moves.iter().enumerate() {
                    let hit = if edges
                        .get(i)
                        .is_some_and(|e| e.seat == *seat && e.action == *action)
                    {
                        Some(i)
                    } else {
                        edges
                            .iter()
                            .position(|e| e.seat == *seat && e.action == *action)
                    };
                    match hit {
                        Some(e) => {
                            edges[e].available += 1;
                            matched.push(e);
                        }
                        None => untried.push(i),
                    }
                }
            }
            if !untried.is_empty() {
                let pick = untried[rng.below(untried.len() as u64) as usize];
                let (seat, action) = moves[pick].clone();
                if state.play(seat, &action).is_err() {
                    // A listed action must apply; if a game breaks that, the
                    // move is simply not added and the playout starts here.
                    break;
                }
                let child = self.nodes.len();
                self.nodes.push(Node { edges: Vec::new() });
                let edges = &mut self.nodes[node].edges;
                edges.push(Edge {
                    seat,
                    action,
                    child,
                    visits: 0,
                    available: 1,
                    reward: 0.0,
                });
                path.push((node, edges.len() - 1));
                break;
            }
            let c = self.settings.exploration as f64;
            let edges = &self.nodes[node].edges;
            let mut best = matched[0];
            let mut best_score = f64::NEG_INFINITY;
            for &e in &matched {
                let edge = &edges[e];
                let n = edge.visits.max(1) as f64;
                let score = edge.reward / n + c * ((edge.available as f64).ln() / n).sqrt();
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
