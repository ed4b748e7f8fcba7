//! Whether a set of players can all be paired: a perfect matching in the
//! graph of allowed pairs, by petgraph's Edmonds (Gabow) maximum matching,
//! a kept crate rather than a search of our own that could take
//! exponential time on a late round with few allowed pairs.

use petgraph::algo::maximum_matching;
use petgraph::graph::UnGraph;

/// Whether `players` can be split into pairs that `allowed` accepts.
pub fn pairable(players: &[usize], allowed: impl Fn(usize, usize) -> bool) -> bool {
    perfect(players, allowed).is_some()
}

/// A split of `players` into pairs that `allowed` accepts, if one exists.
pub fn perfect(
    players: &[usize],
    allowed: impl Fn(usize, usize) -> bool,
) -> Option<Vec<(usize, usize)>> {
    if players.len() % 2 == 1 {
        return None;
    }
    let mut g: UnGraph<usize, ()> = UnGraph::default();
    let nodes: Vec<_> = players.iter().map(|&p| g.add_node(p)).collect();
    for i in 0..players.len() {
        for j in i + 1..players.len() {
            if allowed(players[i], players[j]) {
                g.add_edge(nodes[i], nodes[j], ());
            }
        }
    }
    let m = maximum_matching(&g);
    if !m.is_perfect() {
        return None;
    }
    Some(m.edges().map(|(a, b)| (g[a], g[b])).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_perfect_matching_is_found_or_refused() {
        assert!(pairable(&[], |_, _| false));
        assert!(!pairable(&[1, 2, 3], |_, _| true));
        // 0-1 and 2-3 forbidden: 0-2, 1-3 remain.
        let ok =
            |a: usize, b: usize| (a.min(b), a.max(b)) != (0, 1) && (a.min(b), a.max(b)) != (2, 3);
        assert!(pairable(&[0, 1, 2, 3], ok));
        // Only 0-1 allowed among four: nobody pairs 2 and 3.
        assert!(!pairable(&[0, 1, 2, 3], |a, b| a.min(b) == 0 && a.max(b) == 1));
    }
}
