//! The figures the standings are made of, computed from the games' results:
//! points, direct encounters, wins, Sonneborn-Berger, Koya, the lots, and
//! which withdrawn entrants' results are annulled (T35, T43, T44).
//!
//! Everything is counted pair by pair: at a table, an entrant takes two half
//! points from each opponent placed below it and one from each placed level.
//! In a duel that is win 1, draw ½, loss 0; at a Magic Chess table of four
//! 3, 2, 1, 0 by place. An entrant whose results are annulled is left out of
//! every pair, so a table of four they sat at still counts among the others.
//!
//! A pair whose game one of the two lost without play (a forfeit:
//! [`Played::forfeited`]) counts in the points and in direct encounter, but
//! not in the number of wins, Sonneborn-Berger or Koya, and wherever those
//! read an opponent's score it counts as a draw (T57).

use super::rules::Withdrawal;
use super::standings::Played;
use std::cmp::Ordering;
use tokar_engine::{Rng, Seed};

pub struct Scores {
    /// Half points.
    pub points: Vec<u32>,
    /// Games won: placed first alone (among those whose results count).
    pub wins: Vec<u32>,
    /// Sonneborn-Berger in quarter points (half points times half points).
    pub sb: Vec<u32>,
    /// Koya in half points.
    pub koya: Vec<u32>,
    /// Each entrant's lot: 0 is drawn first.
    pub lot: Vec<usize>,
    /// Withdrawn under FIDE's rule having played under half their games (T44).
    pub annulled: Vec<bool>,
    /// Each entrant's score as the tie-breaks read it (half points): the
    /// points, with every pair not played counted as a draw (T57).
    pub adjusted: Vec<u32>,
    /// The finished games whose results count (annulled entrants aside).
    games: Vec<Played>,
    /// Every game of the league, finished or not.
    scheduled: Vec<Played>,
}

/// Half points `e` took from `o` where both played: 2 placed above, 1 level.
pub fn halves_against(p: &Played, e: usize, o: usize) -> Option<u32> {
    let places = p.places.as_ref()?;
    let a = p.entrants.iter().position(|&x| x == e)?;
    let b = p.entrants.iter().position(|&x| x == o)?;
    Some(match places[b].cmp(&places[a]) {
        Ordering::Greater => 2,
        Ordering::Equal => 1,
        Ordering::Less => 0,
    })
}

/// Whether the pair `e`, `o` of game `p` was not played: one of them lost it
/// without having made a play in it (T57).
fn unplayed(p: &Played, e: usize, o: usize) -> bool {
    p.forfeited.contains(&e) || p.forfeited.contains(&o)
}

/// Whether `e` played game `p` over the board: it ended, and neither `e` nor
/// every opponent of `e` forfeited it (lost it at the move deadline without a
/// play of their own, T57). A game lost at the deadline after playing, or
/// conceded by leaving after playing, was played (T44 counts as T57 does).
fn played_by(p: &Played, e: usize) -> bool {
    p.places.is_some()
        && p.entrants.contains(&e)
        && !p.forfeited.contains(&e)
        && !p
            .entrants
            .iter()
            .filter(|&&o| o != e)
            .all(|o| p.forfeited.contains(o))
}

/// The lots of `n` entrants drawn with `seed`: a shuffle by a ChaCha20
/// generator keyed with it, so the same league always draws the same lots.
/// Each entrant's lot (0 is drawn first).
pub fn lots(seed: u64, n: usize) -> Vec<usize> {
    draw(seed, b"tokar-league-lot", n)
}

/// The entrants in the order of their pairing numbers drawn by lot with
/// `seed` (a draw of its own, apart from the tie-break lots).
pub fn numbers_by_lot(seed: u64, n: usize) -> Vec<usize> {
    let lot = draw(seed, b"tokar-league-num", n);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&e| lot[e]);
    order
}

fn draw(seed: u64, label: &[u8; 16], n: usize) -> Vec<usize> {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..24].copy_from_slice(label);
    let mut drawn: Vec<usize> = (0..n).collect();
    Rng::from_seed(Seed::ChaCha20(key)).shuffle(&mut drawn);
    let mut lot = vec![0; n];
    for (at, &e) in drawn.iter().enumerate() {
        lot[e] = at;
    }
    lot
}

impl Scores {
    pub fn new(
        n: usize,
        left: &[bool],
        games: &[Played],
        withdrawal: Withdrawal,
        seed: u64,
    ) -> Scores {
        let annulled: Vec<bool> = (0..n)
            .map(|e| {
                let all = games.iter().filter(|g| g.entrants.contains(&e)).count();
                let played = games.iter().filter(|g| played_by(g, e)).count();
                withdrawal == Withdrawal::Fide
                    && left.get(e).copied().unwrap_or(false)
                    && 2 * played < all
            })
            .collect();
        let counted: Vec<Played> = games
            .iter()
            .filter(|g| g.places.is_some())
            .map(|g| {
                let keep: Vec<usize> = (0..g.entrants.len())
                    .filter(|&i| !annulled[g.entrants[i]])
                    .collect();
                Played {
                    entrants: keep.iter().map(|&i| g.entrants[i]).collect(),
                    places: g
                        .places
                        .as_ref()
                        .map(|p| keep.iter().map(|&i| p[i]).collect()),
                    by_claim: g.by_claim.clone(),
                    forfeited: g.forfeited.clone(),
                }
            })
            .filter(|g| g.entrants.len() > 1)
            .collect();
        let against = |e: usize| {
            counted.iter().flat_map(move |g| {
                g.entrants
                    .iter()
                    .filter(move |&&o| o != e)
                    .filter_map(move |&o| halves_against(g, e, o).map(|h| (g, o, h)))
            })
        };
        let points: Vec<u32> = (0..n)
            .map(|e| against(e).map(|(_, _, h)| h).sum())
            .collect();
        // The pairs played over the board, and the scores as the tie-breaks
        // read them: a pair not played is a draw there (T57).
        let played = |e: usize| against(e).filter(move |&(g, o, _)| !unplayed(g, e, o));
        let adjusted: Vec<u32> = (0..n)
            .map(|e| {
                against(e)
                    .map(|(g, o, h)| if unplayed(g, e, o) { 1 } else { h })
                    .sum()
            })
            .collect();
        // A win: placed above every opponent at the table, one of them at
        // least over the board (a game won without play is no win, T57).
        let wins = (0..n)
            .map(|e| {
                counted
                    .iter()
                    .filter(|g| g.entrants.contains(&e))
                    .filter(|g| {
                        let others = || g.entrants.iter().filter(|&&o| o != e);
                        others().all(|&o| halves_against(g, e, o) == Some(2))
                            && others().any(|&o| !unplayed(g, e, o))
                    })
                    .count() as u32
            })
            .collect();
        let sb = (0..n)
            .map(|e| played(e).map(|(_, o, h)| h * adjusted[o]).sum())
            .collect();
        // Koya counts the opponents who made at least half the points their
        // games offered (two halves from each opponent at each table).
        let most: Vec<u32> = (0..n)
            .map(|e| {
                counted
                    .iter()
                    .filter(|g| g.entrants.contains(&e))
                    .map(|g| 2 * (g.entrants.len() as u32 - 1))
                    .sum()
            })
            .collect();
        let koya = (0..n)
            .map(|e| {
                played(e)
                    .filter(|&(_, o, _)| most[o] > 0 && 2 * adjusted[o] >= most[o])
                    .map(|(_, _, h)| h)
                    .sum()
            })
            .collect();
        Scores {
            points,
            wins,
            sb,
            koya,
            lot: lots(seed, n),
            annulled,
            adjusted,
            games: counted,
            scheduled: games.to_vec(),
        }
    }

    /// Half points `e` scored in the counted games against the members of `group`.
    pub fn direct(&self, e: usize, group: &[usize]) -> u32 {
        self.games
            .iter()
            .flat_map(|g| group.iter().map(move |&o| (g, o)))
            .filter(|&(_, o)| o != e)
            .filter_map(|(g, o)| halves_against(g, e, o))
            .sum()
    }

    /// Whether every pair of `group` has met and finished every game
    /// scheduled between them.
    pub fn all_met(&self, group: &[usize]) -> bool {
        let scheduled = &self.scheduled;
        group.iter().enumerate().all(|(i, &a)| {
            group[i + 1..].iter().all(|&b| {
                let together = |g: &&Played| g.entrants.contains(&a) && g.entrants.contains(&b);
                scheduled.iter().filter(together).count() > 0
                    && scheduled
                        .iter()
                        .filter(together)
                        .all(|g| g.places.is_some())
            })
        })
    }
}
