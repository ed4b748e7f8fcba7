//! Who plays whom, and from which seat (T33).
//!
//! Duels (Arcana, Arachne, Gladiator teams): every pair of entrants once, or
//! twice (home and away) in a double league. The home side takes seat 0. In a
//! single league of an odd number of entrants, `i` is at home against `j`
//! when `j` follows `i` by at most half the circle, which gives everyone
//! exactly as many home as away games; with an even number, the last entrant
//! is added to such a circle of the others, at home against its second half,
//! so that nobody's home and away games differ by more than one. A double
//! league plays every pairing again with the sides swapped: exactly even.
//!
//! Magic Chess (tables of four): every set of four entrants meets once (twice
//! in a double league); seats go round so that each entrant sits at each of
//! the four seats as evenly as the tables allow (each table takes the seating
//! that repeats the fewest seats people already had).

/// The tables of a league: entrants in seat order, the home side first.
pub fn fixtures(entrants: usize, table_size: usize, double: bool) -> Vec<Vec<usize>> {
    let mut out = if table_size == 2 {
        duels(entrants)
    } else {
        tables(entrants, table_size, double)
    };
    if double && table_size == 2 {
        let back: Vec<Vec<usize>> = out.iter().map(|f| vec![f[1], f[0]]).collect();
        out.extend(back);
    }
    out
}

fn duels(n: usize) -> Vec<Vec<usize>> {
    let circle = if n % 2 == 1 { n } else { n.saturating_sub(1) };
    let mut out = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let home_i = if j < circle {
                j - i <= (circle - 1) / 2
            } else {
                // j is the entrant added to an odd circle.
                i < n / 2
            };
            out.push(if home_i { vec![i, j] } else { vec![j, i] });
        }
    }
    out
}

/// Every `size`-subset of the entrants (twice when `double`), each seated by
/// the permutation that repeats the fewest seats already held.
fn tables(n: usize, size: usize, double: bool) -> Vec<Vec<usize>> {
    let mut subsets = Vec::new();
    let mut pick = Vec::new();
    subsets_of(0, n, size, &mut pick, &mut subsets);
    if double {
        let again = subsets.clone();
        subsets.extend(again);
    }
    let perms = permutations(size);
    let mut held = vec![vec![0usize; size]; n];
    let mut out = Vec::new();
    for set in subsets {
        let best = perms
            .iter()
            .min_by_key(|p| {
                p.iter()
                    .enumerate()
                    .map(|(seat, &k)| held[set[k]][seat])
                    .sum::<usize>()
            })
            .cloned()
            .unwrap_or_else(|| (0..size).collect());
        let seated: Vec<usize> = best.iter().map(|&k| set[k]).collect();
        for (seat, &e) in seated.iter().enumerate() {
            held[e][seat] += 1;
        }
        out.push(seated);
    }
    out
}

fn subsets_of(
    from: usize,
    n: usize,
    size: usize,
    pick: &mut Vec<usize>,
    out: &mut Vec<Vec<usize>>,
) {
    if pick.len() == size {
        out.push(pick.clone());
        return;
    }
    for i in from..n {
        pick.push(i);
        subsets_of(i + 1, n, size, pick, out);
        pick.pop();
    }
}

fn permutations(size: usize) -> Vec<Vec<usize>> {
    if size == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for p in permutations(size - 1) {
        for at in 0..=p.len() {
            let mut q = p.clone();
            q.insert(at, size - 1);
            out.push(q);
        }
    }
    out.sort();
    out
}

/// The people of a team duel in joining order: the sides alternate (home,
/// away, home, ...), which is how Gladiator's seating gives equal teams their
/// two sides (`GameKind::seating`, R14).
pub fn interleave<T: Clone>(home: &[T], away: &[T]) -> Vec<T> {
    let mut out = Vec::new();
    for i in 0..home.len().max(away.len()) {
        out.extend(home.get(i).cloned());
        out.extend(away.get(i).cloned());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn home_away(n: usize, f: &[Vec<usize>]) -> Vec<(usize, usize)> {
        (0..n)
            .map(|e| {
                (
                    f.iter().filter(|t| t[0] == e).count(),
                    f.iter().filter(|t| t[1] == e).count(),
                )
            })
            .collect()
    }

    #[test]
    fn every_pair_meets_once_with_home_and_away_balanced() {
        for n in 2..=10 {
            let f = fixtures(n, 2, false);
            assert_eq!(f.len(), n * (n - 1) / 2);
            for i in 0..n {
                for j in i + 1..n {
                    let met = f
                        .iter()
                        .filter(|t| t.contains(&i) && t.contains(&j))
                        .count();
                    assert_eq!(met, 1, "{n}: {i}-{j}");
                }
            }
            for (h, a) in home_away(n, &f) {
                assert!(h.abs_diff(a) <= 1, "{n}: {h} home, {a} away");
                if n % 2 == 1 {
                    assert_eq!(h, a, "odd {n}");
                }
            }
        }
    }

    #[test]
    fn a_double_league_is_exactly_even() {
        for n in 2..=9 {
            let f = fixtures(n, 2, true);
            assert_eq!(f.len(), n * (n - 1));
            for (h, a) in home_away(n, &f) {
                assert_eq!(h, a);
            }
            for i in 0..n {
                for j in 0..n {
                    if i != j {
                        assert_eq!(f.iter().filter(|t| **t == vec![i, j]).count(), 1);
                    }
                }
            }
        }
    }

    #[test]
    fn tables_of_four_meet_every_set_once_and_spread_the_seats() {
        let f = fixtures(5, 4, false);
        assert_eq!(f.len(), 5);
        for e in 0..5 {
            let seats: Vec<usize> = (0..4)
                .map(|s| f.iter().filter(|t| t[s] == e).count())
                .collect();
            assert_eq!(seats, vec![1, 1, 1, 1], "entrant {e}: {f:?}");
        }
        let f = fixtures(6, 4, false);
        assert_eq!(f.len(), 15);
        for e in 0..6 {
            let seats: Vec<usize> = (0..4)
                .map(|s| f.iter().filter(|t| t[s] == e).count())
                .collect();
            let (lo, hi) = (seats.iter().min().unwrap(), seats.iter().max().unwrap());
            assert!(hi - lo <= 1, "entrant {e}: {seats:?}");
        }
    }

    #[test]
    fn teams_alternate() {
        assert_eq!(interleave(&[1, 2], &[3, 4]), vec![1, 3, 2, 4]);
    }
}
