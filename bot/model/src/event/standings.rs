//! The standings of a Swiss event, computed afresh from its rounds (nothing
//! added up and stored, as for leagues, T35): points, then the event's
//! tie-break list, then lots drawn with the event's seed (the league's lots,
//! [`crate::league::scores::lots`]).
//!
//! Games not played (forfeits, byes, absences) follow T57 and E3: they count
//! in the points, never as a win nor in Sonneborn-Berger, and wherever an
//! opponent's score is read (Buchholz, Sonneborn-Berger) each round that
//! opponent had no game over the board counts as a draw. A player's own
//! round without a game counts in their Buchholz as an opponent with the
//! player's own adjusted score (E3).

use super::game::{Round, Side, BYE_HALVES};
use crate::league::scores::lots;
use crate::league::standings::show_halves;
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;

/// A Swiss tie-break.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SwissTieBreak {
    /// Buchholz less the lowest of its contributions.
    BuchholzCut1,
    /// The sum of the opponents' (adjusted) scores.
    Buchholz,
    /// The scores of the opponents beaten, and half of those drawn with.
    SonnebornBerger,
    /// Games won over the board.
    Wins,
}

/// The default list (E3): Buchholz cut 1, Buchholz, Sonneborn-Berger, wins.
pub const SWISS_TIEBREAKS: [SwissTieBreak; 4] = [
    SwissTieBreak::BuchholzCut1,
    SwissTieBreak::Buchholz,
    SwissTieBreak::SonnebornBerger,
    SwissTieBreak::Wins,
];

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissRow {
    pub entrant: usize,
    /// 1 is first.
    pub place: usize,
    /// Half points.
    pub points: u32,
    /// Half points.
    pub buchholz: u32,
    /// Half points.
    pub buchholz_cut1: u32,
    /// Quarter points (half points times half points).
    pub sonneborn: u32,
    pub wins: u32,
    /// Placed by lot: level with a neighbour on everything before.
    pub by_lot: bool,
    pub withdrawn: bool,
}

impl SwissRow {
    fn value(&self, t: SwissTieBreak) -> u32 {
        match t {
            SwissTieBreak::BuchholzCut1 => self.buchholz_cut1,
            SwissTieBreak::Buchholz => self.buchholz,
            SwissTieBreak::SonnebornBerger => self.sonneborn,
            SwissTieBreak::Wins => self.wins,
        }
    }

    /// The row as text: place, name, points, the tie-breaks of `list`.
    pub fn cells(&self, name: &str, list: &[SwissTieBreak]) -> Vec<String> {
        let mut cells = vec![
            self.place.to_string(),
            name.to_string(),
            show_halves(self.points),
        ];
        for &t in list {
            cells.push(match t {
                SwissTieBreak::SonnebornBerger => show_quarters(self.sonneborn),
                SwissTieBreak::Wins => self.wins.to_string(),
                _ => show_halves(self.value(t)),
            });
        }
        cells
    }
}

/// The column heads matching [`SwissRow::cells`].
pub fn heads(list: &[SwissTieBreak]) -> Vec<String> {
    let mut h: Vec<String> = ["#", "Player", "Pts"].map(String::from).to_vec();
    h.extend(list.iter().map(|t| {
        match t {
            SwissTieBreak::BuchholzCut1 => "BH-C1",
            SwissTieBreak::Buchholz => "BH",
            SwissTieBreak::SonnebornBerger => "SB",
            SwissTieBreak::Wins => "Wins",
        }
        .to_string()
    }));
    h
}

/// "12¾", "½", "3".
pub fn show_quarters(q: u32) -> String {
    let frac = ["", "¼", "½", "¾"][(q % 4) as usize];
    match q / 4 {
        0 if q > 0 => frac.to_string(),
        w => format!("{w}{frac}"),
    }
}

/// The standings of `n` entrants after `rounds` (unfinished games count
/// for nobody yet), ordered by points, `list`, then lots drawn with `seed`.
pub fn swiss_standings(
    n: usize,
    withdrawn: &[bool],
    rounds: &[Round],
    list: &[SwissTieBreak],
    seed: u64,
) -> Vec<SwissRow> {
    let mut points = vec![0u32; n];
    // The score as opponents' tie-breaks read it: rounds without a game
    // over the board count as draws (T57).
    let mut adjusted = vec![0u32; n];
    let mut wins = vec![0u32; n];
    for round in rounds {
        for b in &round.boards {
            let Some(o) = b.outcome else { continue };
            for (e, side) in [(b.first, Side::First), (b.second, Side::Second)] {
                if e >= n {
                    continue;
                }
                points[e] += o.halves(side);
                adjusted[e] += if o.played() { o.halves(side) } else { 1 };
                wins[e] += (o.played() && o.winner() == Some(side)) as u32;
            }
        }
        for e in round.bye.into_iter().chain(round.absent.iter().copied()) {
            if e >= n {
                continue;
            }
            points[e] += if Some(e) == round.bye { BYE_HALVES } else { 0 };
            adjusted[e] += 1;
        }
    }
    let mut rows: Vec<SwissRow> = (0..n)
        .map(|e| {
            let mut parts: Vec<u32> = Vec::new();
            let mut sb = 0;
            for round in rounds {
                match round.board_of(e) {
                    Some(b) => {
                        let Some(o) = b.outcome else { continue };
                        let side = b.side_of(e).unwrap_or(Side::First);
                        let opp = b.opponent_of(e).unwrap_or(e);
                        if o.played() && opp < n {
                            parts.push(adjusted[opp]);
                            sb += o.halves(side) * adjusted[opp];
                        } else {
                            parts.push(adjusted[e]);
                        }
                    }
                    None if round.bye == Some(e) || round.absent.contains(&e) => {
                        parts.push(adjusted[e]);
                    }
                    None => {}
                }
            }
            let buchholz: u32 = parts.iter().sum();
            let cut = parts.iter().min().copied().unwrap_or(0);
            SwissRow {
                entrant: e,
                place: 0,
                points: points[e],
                buchholz,
                buchholz_cut1: buchholz - cut,
                sonneborn: sb,
                wins: wins[e],
                by_lot: false,
                withdrawn: withdrawn.get(e).copied().unwrap_or(false),
            }
        })
        .collect();
    let lot = lots(seed, n);
    let key = |r: &SwissRow| {
        let mut k = vec![r.points];
        k.extend(list.iter().map(|&t| r.value(t)));
        k
    };
    rows.sort_by_key(|r| (Reverse(key(r)), lot[r.entrant]));
    for i in 0..rows.len() {
        let level = |j: usize| key(&rows[i]) == key(&rows[j]);
        rows[i].by_lot = (i > 0 && level(i - 1)) || (i + 1 < rows.len() && level(i + 1));
        rows[i].place = i + 1;
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::game::{Board, Outcome};

    fn board(first: usize, second: usize, o: Outcome) -> Board {
        Board {
            first,
            second,
            outcome: Some(o),
        }
    }

    #[test]
    fn buchholz_sonneborn_berger_and_wins_by_hand() {
        // Four players, two rounds.
        // R1: 0 beats 1, 2 draws 3. R2: 0 draws 2, 3 wins 1 by forfeit.
        let rounds = vec![
            Round {
                boards: vec![board(0, 1, Outcome::FirstWon), board(2, 3, Outcome::Drawn)],
                ..Round::default()
            },
            Round {
                boards: vec![
                    board(0, 2, Outcome::Drawn),
                    board(3, 1, Outcome::SecondForfeited),
                ],
                ..Round::default()
            },
        ];
        let rows = swiss_standings(4, &[false; 4], &rounds, &SWISS_TIEBREAKS, 7);
        let by = |e: usize| rows.iter().find(|r| r.entrant == e).unwrap().clone();
        // Points (halves): 0: 3, 1: 0, 2: 2, 3: 3.
        assert_eq!(
            [by(0).points, by(1).points, by(2).points, by(3).points],
            [3, 0, 2, 3]
        );
        // Adjusted: 1's forfeit counts as a draw: 1; 3's forfeit win too: 2.
        // 0 met 1 (adj 1) and 2 (adj 2): BH 3, cut 1 drops 1: 2.
        assert_eq!((by(0).buchholz, by(0).buchholz_cut1), (3, 2));
        // 3 met 2 (adj 2) over the board; its forfeit round counts as its
        // own adjusted score 2: BH 4, cut 2.
        assert_eq!((by(3).buchholz, by(3).buchholz_cut1), (4, 2));
        // SB of 0: beat 1 (2 x 1) + drew 2 (1 x 2) = 4 quarters.
        assert_eq!(by(0).sonneborn, 4);
        // The forfeit win is no win and adds nothing to SB.
        assert_eq!((by(3).wins, by(3).sonneborn), (0, 2));
        // 3 is ahead of 0 on Buchholz cut 1 (2 = 2), then Buchholz (4 > 3).
        assert_eq!(rows[0].entrant, 3);
        assert_eq!(rows[1].entrant, 0);
        assert!(!rows[0].by_lot);
    }

    #[test]
    fn quarters_and_heads_read_as_a_table() {
        assert_eq!(show_quarters(0), "0");
        assert_eq!(show_quarters(1), "¼");
        assert_eq!(show_quarters(14), "3½");
        assert_eq!(heads(&SWISS_TIEBREAKS).len(), 7);
    }
}
