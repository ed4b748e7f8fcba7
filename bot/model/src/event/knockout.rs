//! Knockout events: seeding, the bracket and its matches, as values a
//! renderer can draw (round by round, each match's two slots and games).
//!
//! Seeds go into the bracket in the standard order (for 16: 1-16, 8-9,
//! 4-13, 5-12, 2-15, 7-10, 3-14, 6-11), so the top two can meet only in the
//! final. A count that is not a power of two is filled with byes, which fall
//! to the top seeds. A match is one or two games (sides swapped in the
//! second); a match level after them goes on with a further game, its sides
//! swapped from the game before, until one wins a game more (E4).

use super::game::{Outcome, Side};
use crate::league::scores::{lots, numbers_by_lot};
use serde::{Deserialize, Serialize};
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum KnockoutError {
    #[error("a knockout needs at least two players")]
    TooFew,
    #[error("a match is of one or two games")]
    Games,
    #[error("that match has no game in play")]
    NoGame,
}

/// How the entrants are seeded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seeding {
    /// By rating, highest first; equal ratings by lot.
    Rating,
    /// All by lot.
    Lot,
}

/// The entrants in seed order (seed 1 first): by `ratings` or by lot,
/// the lots drawn with `seed` as the leagues draw theirs.
pub fn seed_order(ratings: &[i32], seeding: Seeding, seed: u64) -> Vec<usize> {
    let n = ratings.len();
    match seeding {
        Seeding::Lot => numbers_by_lot(seed, n),
        Seeding::Rating => {
            let lot = lots(seed, n);
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by_key(|&e| (std::cmp::Reverse(ratings[e]), lot[e]));
            order
        }
    }
}

/// The seeds (1-based) down the first round's lines of a bracket of `size`
/// (a power of two): 1, size, then each half mirrored so that the sum of
/// two seeds that meet is size + 1.
pub fn line_order(size: usize) -> Vec<usize> {
    let mut order = vec![1];
    while order.len() < size {
        let m = 2 * order.len() + 1;
        order = order.iter().flat_map(|&s| [s, m - s]).collect();
    }
    order
}

/// One place in a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Slot {
    Entrant(usize),
    /// Nobody: the other entrant goes through.
    Bye,
    /// The winner of a match of the round before, not yet known.
    Open,
}

/// One game of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnockoutGame {
    pub first: usize,
    pub second: usize,
    pub outcome: Option<Outcome>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Match {
    /// The upper slot (the better seed in round 1) and the lower.
    pub slots: [Slot; 2],
    pub games: Vec<KnockoutGame>,
    pub winner: Option<usize>,
}

impl Match {
    /// Half points of each slot's entrant.
    pub fn score(&self) -> [u32; 2] {
        let mut s = [0, 0];
        for g in &self.games {
            let Some(o) = g.outcome else { continue };
            for (i, slot) in self.slots.iter().enumerate() {
                if let Slot::Entrant(e) = slot {
                    let side = if g.first == *e {
                        Side::First
                    } else {
                        Side::Second
                    };
                    s[i] += o.halves(side);
                }
            }
        }
        s
    }
}

/// A knockout bracket: `rounds[0]` is the first round, the last holds the
/// final.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bracket {
    /// Games each match is of before any decider: 1 or 2.
    pub games_per_match: u8,
    pub rounds: Vec<Vec<Match>>,
}

impl Bracket {
    /// A bracket for `seeded` entrants (seed 1 first).
    pub fn new(seeded: &[usize], games_per_match: u8) -> Result<Bracket, KnockoutError> {
        if seeded.len() < 2 {
            return Err(KnockoutError::TooFew);
        }
        if !(1..=2).contains(&games_per_match) {
            return Err(KnockoutError::Games);
        }
        let size = seeded.len().next_power_of_two();
        let line = line_order(size);
        let slot = |s: usize| seeded.get(s - 1).map_or(Slot::Bye, |&e| Slot::Entrant(e));
        let mut rounds = vec![line
            .chunks(2)
            .map(|p| Match {
                slots: [slot(p[0]), slot(p[1])],
                games: Vec::new(),
                winner: None,
            })
            .collect::<Vec<_>>()];
        let mut width = size / 4;
        while width >= 1 {
            rounds.push(
                (0..width)
                    .map(|_| Match {
                        slots: [Slot::Open, Slot::Open],
                        games: Vec::new(),
                        winner: None,
                    })
                    .collect(),
            );
            width /= 2;
        }
        let mut b = Bracket {
            games_per_match,
            rounds,
        };
        for m in 0..b.rounds[0].len() {
            b.settle(0, m);
        }
        Ok(b)
    }

    /// Starts the next game of a match that needs one, and moves a decided
    /// match's winner on.
    fn settle(&mut self, r: usize, m: usize) {
        let per = self.games_per_match as usize;
        let mt = &mut self.rounds[r][m];
        if mt.winner.is_some() {
            return;
        }
        let winner = match mt.slots {
            [Slot::Entrant(a), Slot::Bye] => Some(a),
            [Slot::Bye, Slot::Entrant(b)] => Some(b),
            [Slot::Entrant(a), Slot::Entrant(b)] => {
                if mt.games.last().is_some_and(|g| g.outcome.is_none()) {
                    return;
                }
                let [sa, sb] = mt.score();
                if mt.games.len() >= per && sa != sb {
                    Some(if sa > sb { a } else { b })
                } else {
                    // The next game: the upper slot opens the first, and
                    // each game after swaps the sides of the one before.
                    let (first, second) = match mt.games.last() {
                        None => (a, b),
                        Some(g) => (g.second, g.first),
                    };
                    mt.games.push(KnockoutGame {
                        first,
                        second,
                        outcome: None,
                    });
                    None
                }
            }
            _ => None,
        };
        let Some(w) = winner else { return };
        mt.winner = Some(w);
        if r + 1 < self.rounds.len() {
            self.rounds[r + 1][m / 2].slots[m % 2] = Slot::Entrant(w);
            self.settle(r + 1, m / 2);
        }
    }

    /// The games in play: (round, match, the game).
    pub fn in_play(&self) -> Vec<(usize, usize, KnockoutGame)> {
        let mut v = Vec::new();
        for (r, round) in self.rounds.iter().enumerate() {
            for (m, mt) in round.iter().enumerate() {
                if let Some(g) = mt.games.last().filter(|g| g.outcome.is_none()) {
                    v.push((r, m, *g));
                }
            }
        }
        v
    }

    /// Records how the game in play of match `m` of round `r` ended.
    pub fn record(&mut self, r: usize, m: usize, outcome: Outcome) -> Result<(), KnockoutError> {
        let g = self
            .rounds
            .get_mut(r)
            .and_then(|round| round.get_mut(m))
            .and_then(|mt| mt.games.last_mut())
            .filter(|g| g.outcome.is_none())
            .ok_or(KnockoutError::NoGame)?;
        g.outcome = Some(outcome);
        self.settle(r, m);
        Ok(())
    }

    /// The winner of the final, once it is decided.
    pub fn champion(&self) -> Option<usize> {
        self.rounds.last()?.first()?.winner
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_meet_in_the_standard_order() {
        assert_eq!(line_order(2), [1, 2]);
        assert_eq!(line_order(8), [1, 8, 4, 5, 2, 7, 3, 6]);
        assert_eq!(
            line_order(16),
            [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
        );
    }

    #[test]
    fn byes_fall_to_the_top_seeds() {
        // 13 entrants in a bracket of 16: seeds 1, 2, 3 meet byes (14-16)
        // and are in round 2 at once.
        let seeded: Vec<usize> = (0..13).collect();
        let b = Bracket::new(&seeded, 1).unwrap();
        let byes: Vec<usize> = b.rounds[0]
            .iter()
            .filter(|m| m.slots.contains(&Slot::Bye))
            .map(|m| m.winner.unwrap())
            .collect();
        assert_eq!(byes, [0, 1, 2]);
        assert_eq!(b.rounds[1][0].slots[0], Slot::Entrant(0));
        assert_eq!(b.in_play().len(), 5);
    }

    #[test]
    fn a_drawn_match_goes_on_with_the_sides_swapped() {
        let mut b = Bracket::new(&[7, 3], 2).unwrap();
        let g = |b: &Bracket| b.in_play()[0].2;
        assert_eq!((g(&b).first, g(&b).second), (7, 3));
        b.record(0, 0, Outcome::FirstWon).unwrap();
        assert_eq!((g(&b).first, g(&b).second), (3, 7));
        b.record(0, 0, Outcome::FirstWon).unwrap();
        // 1-1: a decider, sides swapped again.
        assert_eq!((g(&b).first, g(&b).second), (7, 3));
        b.record(0, 0, Outcome::Drawn).unwrap();
        assert_eq!((g(&b).first, g(&b).second), (3, 7));
        b.record(0, 0, Outcome::SecondWon).unwrap();
        assert_eq!(b.champion(), Some(7));
        assert_eq!(b.rounds[0][0].score(), [5, 3]);
        assert_eq!(b.record(0, 0, Outcome::Drawn), Err(KnockoutError::NoGame));
    }

    #[test]
    fn bad_brackets_are_refused() {
        assert_eq!(Bracket::new(&[1], 1), Err(KnockoutError::TooFew));
        assert_eq!(Bracket::new(&[1, 2], 3), Err(KnockoutError::Games));
    }
}
