//! The standings of a league, computed afresh from its games' results every
//! time (nothing is added up and stored, so a game's end can never be counted
//! twice or lost).
//!
//! Points are placement points (T35; the pair-by-pair counting is in
//! [`super::scores`]); entrants level on points are ordered by the league's
//! tie-break list, then by lot ([`super::ranking`], T43); a withdrawal may
//! annul an entrant's results (T44).

use super::ranking::rank;
use super::record::LeagueRecord;
use super::rules::{TieBreak, TieBreaks, Withdrawal};
use super::scores::Scores;

/// The outcome of one league game, as the standings read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The entrants at the table.
    pub entrants: Vec<usize>,
    /// Each one's place (0 is first; equal places are shared), once it ended.
    pub places: Option<Vec<u32>>,
    /// Entrants of this game who lost it at the move deadline (T34).
    pub by_claim: Vec<usize>,
    /// Those of `by_claim` who lost it without having made a play of their
    /// own in it: a forfeit, a game not played (T57).
    pub forfeited: Vec<usize>,
}

/// The standings as rows of text, ready for a text table or a picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standings {
    pub heads: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Entrants from first to last (the order of `rows`).
    pub order: Vec<usize>,
    /// Each row's place (1 is first; 0 for an entrant whose results were
    /// annulled, listed last).
    pub places: Vec<usize>,
    /// Games not yet over.
    pub games_left: usize,
}

/// What the standings are judged by: the league's tie-break list, its
/// withdrawal rule and the seed its lots are drawn with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub tiebreaks: TieBreaks,
    pub withdrawal: Withdrawal,
    pub seed: u64,
}

impl Rules {
    pub fn of(l: &LeagueRecord) -> Rules {
        Rules {
            tiebreaks: l.tiebreaks,
            withdrawal: l.withdrawal,
            seed: l.seed,
        }
    }
}

/// "2½", "3", "½".
pub fn show_halves(h: u32) -> String {
    match (h / 2, h % 2) {
        (0, 1) => "½".into(),
        (w, 0) => w.to_string(),
        (w, _) => format!("{w}½"),
    }
}

/// Computes the standings. `names` are the entrants' labels, `left` whether
/// each has left the league.
pub fn standings(names: &[String], left: &[bool], games: &[Played], rules: &Rules) -> Standings {
    let n = names.len();
    let s = Scores::new(n, left, games, rules.withdrawal, rules.seed);
    let list = rules.tiebreaks.list();
    let active: Vec<usize> = (0..n).filter(|&e| !s.annulled[e]).collect();
    let ranked = rank(&s, list, &active);
    // Direct encounter as shown: within the whole group level on points,
    // once all of it has met (the deeper re-applications are not shown).
    let direct = |e: usize| {
        let level: Vec<usize> = active
            .iter()
            .copied()
            .filter(|&o| s.points[o] == s.points[e])
            .collect();
        if level.len() > 1 && s.all_met(&level) {
            show_halves(s.direct(e, &level))
        } else {
            String::new()
        }
    };
    let played = |e: usize| {
        games
            .iter()
            .filter(|g| g.places.is_some() && g.entrants.contains(&e))
            .count()
    };
    let to_play = |e: usize| {
        games
            .iter()
            .filter(|g| g.places.is_none() && g.entrants.contains(&e))
            .count()
    };
    let claims = |e: usize| games.iter().filter(|g| g.by_claim.contains(&e)).count();
    let mut order: Vec<usize> = ranked.iter().map(|&(e, _)| e).collect();
    let mut places: Vec<usize> = (1..=order.len()).collect();
    let mut rows: Vec<Vec<String>> = Vec::new();
    for (&(e, by_lot), place) in ranked.iter().zip(&places) {
        let mut row = vec![
            place.to_string(),
            names[e].clone(),
            played(e).to_string(),
            show_halves(s.points[e]),
        ];
        row.extend(list.iter().map(|t| match t {
            TieBreak::Direct => direct(e),
            TieBreak::Wins => s.wins[e].to_string(),
            TieBreak::Sonneborn => show_quarters(s.sb[e]),
            TieBreak::Koya => show_halves(s.koya[e]),
        }));
        row.push(to_play(e).to_string());
        let mut note = match (left.get(e).copied().unwrap_or(false), claims(e)) {
            (true, c) => vec![format!("left; {c} lost at the deadline")],
            (false, 0) => vec![],
            (false, c) => vec![format!("{c} lost at the deadline")],
        };
        if by_lot {
            note.push("placed by lot".into());
        }
        row.push(note.join("; "));
        rows.push(row);
    }
    // Annulled results (T44): listed last, without a place or figures.
    for e in (0..n).filter(|&e| s.annulled[e]) {
        let mut row = vec![
            "–".to_string(),
            names[e].clone(),
            played(e).to_string(),
            "–".to_string(),
        ];
        row.extend(list.iter().map(|_| String::new()));
        row.push(to_play(e).to_string());
        row.push("left under half way; results annulled".into());
        rows.push(row);
        order.push(e);
        places.push(0);
    }
    let mut heads: Vec<String> = ["#", "Player", "Played", "Points"]
        .map(String::from)
        .to_vec();
    heads.extend(list.iter().map(|t| t.head().to_string()));
    heads.extend(["To play", "Note"].map(String::from));
    Standings {
        heads,
        rows,
        order,
        places,
        games_left: games.iter().filter(|g| g.places.is_none()).count(),
    }
}

/// Sonneborn-Berger is kept in quarter points (half points times half points).
fn show_quarters(q: u32) -> String {
    let whole = q / 4;
    let frac = match q % 4 {
        0 => "",
        1 => "¼",
        2 => "½",
        _ => "¾",
    };
    match (whole, frac) {
        (0, "") => "0".into(),
        (0, f) => f.into(),
        (w, f) => format!("{w}{f}"),
    }
}

impl Standings {
    /// The standings as aligned text (for a code block): columns padded to
    /// their widest cell, empty trailing columns left out.
    pub fn text(&self) -> String {
        let cols = self.heads.len();
        let note = cols - 1;
        let used: Vec<bool> = (0..cols)
            .map(|c| self.rows.iter().any(|r| !r[c].is_empty()) || c < note)
            .collect();
        let width = |c: usize| {
            std::iter::once(&self.heads[c])
                .chain(self.rows.iter().map(|r| &r[c]))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..cols).map(width).collect();
        let line = |cells: &[String]| {
            let parts: Vec<String> = (0..cols)
                .filter(|&c| used[c])
                .map(|c| {
                    let pad = widths[c] - cells[c].chars().count();
                    // Names and notes read left-aligned; figures right-aligned.
                    if c == 1 || c == note {
                        format!("{}{}", cells[c], " ".repeat(pad))
                    } else {
                        format!("{}{}", " ".repeat(pad), cells[c])
                    }
                })
                .collect();
            parts.join("  ").trim_end().to_string()
        };
        let mut out = vec![line(&self.heads)];
        out.extend(self.rows.iter().map(|r| line(r)));
        out.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIDE: Rules = Rules {
        tiebreaks: TieBreaks::Fide,
        withdrawal: Withdrawal::Fide,
        seed: 7,
    };

    fn duel(a: usize, b: usize, r: &str) -> Played {
        Played {
            entrants: vec![a, b],
            places: match r {
                "1-0" => Some(vec![0, 1]),
                "0-1" => Some(vec![1, 0]),
                "½" => Some(vec![0, 0]),
                _ => None,
            },
            by_claim: Vec::new(),
            forfeited: Vec::new(),
        }
    }

    fn names(n: usize) -> Vec<String> {
        (0..n)
            .map(|i| ((b'a' + i as u8) as char).to_string())
            .collect()
    }

    /// Columns under the FIDE list: # Player Played Points DE Wins SB Koya To-play Note.
    #[test]
    fn points_direct_encounter_and_sonneborn_berger_by_hand() {
        // a beats b, b beats c, c beats a; all beat d but c, who draws.
        let games = vec![
            duel(0, 1, "1-0"),
            duel(1, 2, "1-0"),
            duel(2, 0, "1-0"),
            duel(0, 3, "1-0"),
            duel(1, 3, "1-0"),
            duel(2, 3, "½"),
        ];
        let s = standings(&names(4), &[false; 4], &games, &FIDE);
        // Points: a 2, b 2, c 1½, d ½; a and b level, a beat b.
        assert_eq!(s.order, vec![0, 1, 2, 3]);
        assert_eq!(s.rows[0][3], "2");
        assert_eq!(s.rows[0][4], "1");
        assert_eq!(s.rows[1][4], "0");
        assert_eq!(s.rows[2][3], "1½");
        // SB of a: beat b (2) + beat d (½) = 2½; of c: beat a (2) + half of d (¼).
        assert_eq!(s.rows[0][6], "2½");
        assert_eq!(s.rows[2][6], "2¼");
        assert_eq!(s.games_left, 0);
    }

    #[test]
    fn a_table_of_four_scores_three_two_one_nought() {
        let g = Played {
            entrants: vec![2, 0, 3, 1],
            places: Some(vec![0, 1, 2, 2]),
            by_claim: vec![],
            forfeited: vec![],
        };
        let s = standings(&names(4), &[false; 4], &[g], &FIDE);
        let pts: Vec<&str> = s.rows.iter().map(|r| r[3].as_str()).collect();
        assert_eq!(pts, ["3", "2", "½", "½"]);
        assert_eq!(&s.order[..2], &[2, 0]);
        // b and d shared the place and drew their pair: only the lot parts them.
        assert_eq!(s.places, vec![1, 2, 3, 4]);
        assert!(s.rows[2][9].contains("placed by lot"), "{:?}", s.rows);
        assert!(s.rows[3][9].contains("placed by lot"), "{:?}", s.rows);
    }

    /// Seven players; a, b, c, d finish level on 3½ (g has 4). Among the
    /// four, a and b score 2 each (a beat b), c 1½, d ½. Sonneborn-Berger
    /// favours b (11¾ against a's 9¼): computing head-to-head once over the
    /// four and then SB would put b above a, though a beat b. FIDE (C.07)
    /// applies direct encounter again between a and b alone: a first.
    fn disagreeing() -> Vec<Played> {
        let (a, b, c, d, e, f, g) = (0, 1, 2, 3, 4, 5, 6);
        vec![
            duel(a, b, "1-0"),
            duel(c, a, "1-0"),
            duel(b, c, "1-0"),
            duel(a, d, "1-0"),
            duel(b, d, "1-0"),
            duel(c, d, "½"),
            duel(a, e, "1-0"),
            duel(a, f, "½"),
            duel(g, a, "1-0"),
            duel(b, g, "1-0"),
            duel(b, f, "½"),
            duel(e, b, "1-0"),
            duel(c, e, "1-0"),
            duel(c, f, "1-0"),
            duel(g, c, "1-0"),
            duel(d, e, "1-0"),
            duel(d, f, "1-0"),
            duel(d, g, "1-0"),
            duel(g, e, "1-0"),
            duel(g, f, "1-0"),
            duel(e, f, "½"),
        ]
    }

    #[test]
    fn fide_order_when_direct_encounter_and_sonneborn_berger_disagree() {
        let s = standings(&names(7), &[false; 7], &disagreeing(), &FIDE);
        let pts: Vec<&str> = s.rows.iter().map(|r| r[3].as_str()).collect();
        assert_eq!(pts, ["4", "3½", "3½", "3½", "3½", "1½", "1½"]);
        // g; then a before b (DE re-applied between them), c, d; then e
        // before f (they drew: level DE; e has a win, f none).
        assert_eq!(s.order, vec![6, 0, 1, 2, 3, 4, 5]);
        let sb = |e: usize| s.rows[s.order.iter().position(|&x| x == e).unwrap()][6].clone();
        assert_eq!((sb(0), sb(1)), ("9¼".to_string(), "11¾".to_string()));
        // DE within the four level on 3½: a 2, b 2, c 1½, d ½.
        let de: Vec<&str> = s.rows[1..5].iter().map(|r| r[4].as_str()).collect();
        assert_eq!(de, ["2", "2", "1½", "½"]);
        assert!(s.rows.iter().all(|r| !r[9].contains("lot")), "{:?}", s.rows);
    }

    #[test]
    fn the_sb_list_puts_sonneborn_berger_before_the_game_between_them() {
        let rules = Rules {
            tiebreaks: TieBreaks::Sb,
            ..FIDE
        };
        let s = standings(&names(7), &[false; 7], &disagreeing(), &rules);
        // SB: b 11¾, a 9¼, d 8¾, c 8¼; e and f both 4¼, e has a win.
        assert_eq!(s.order, vec![6, 1, 0, 3, 2, 4, 5]);
        assert_eq!(s.heads[4..6], ["SB".to_string(), "Wins".to_string()]);
        assert_eq!(s.rows[5][4], "4¼");
        assert_eq!(s.rows[6][4], "4¼");
    }

    #[test]
    fn lots_part_the_level_by_the_league_seed_alone() {
        // Two players who drew: level on everything.
        let games = [duel(0, 1, "½")];
        let order = |seed| standings(&names(2), &[false; 2], &games, &Rules { seed, ..FIDE }).order;
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..32 {
            assert_eq!(order(seed), order(seed), "the same seed, the same lots");
            seen.insert(order(seed));
        }
        assert_eq!(seen.len(), 2, "either can win the draw");
    }

    #[test]
    fn direct_encounter_waits_until_the_level_players_have_met() {
        // a and b level on 1 (each beat c... and d), not yet played each other.
        let games = vec![
            duel(0, 2, "1-0"),
            duel(1, 3, "1-0"),
            duel(0, 1, "-"),
            duel(2, 3, "-"),
        ];
        let s = standings(&names(4), &[false; 4], &games, &FIDE);
        assert_eq!(s.rows[0][4], "", "no DE before they meet");
    }

    #[test]
    fn koya_counts_points_against_the_upper_half() {
        // a beat b and drew c; b beat c. a 1½ (of 2), b 1, c ½.
        let games = vec![duel(0, 1, "1-0"), duel(0, 2, "½"), duel(1, 2, "1-0")];
        let s = standings(&names(3), &[false; 3], &games, &FIDE);
        // Koya: points against those who made at least half of theirs (a, b).
        let koya: Vec<&str> = s.rows.iter().map(|r| r[7].as_str()).collect();
        assert_eq!(koya, ["1", "0", "½"]);
    }

    /// T57: a game lost without play counts in the points and in direct
    /// encounter, not in the wins, Sonneborn-Berger or Koya; where those read
    /// an opponent's score, it counts as a draw. d 3, then a and b level on
    /// 2½ (they drew). a's two wins include a forfeit by x, who drew b over
    /// the board, lost to c and left: counted as a win, a would be ahead on
    /// wins (2 to 1); without it they are level on one win each, and
    /// Sonneborn-Berger puts b ahead (5 to 2¾), by hand below.
    #[test]
    fn forfeits_count_in_points_not_in_wins_sonneborn_berger_or_koya() {
        let (a, b, c, d, x) = (0, 1, 2, 3, 4);
        let forfeit = |winner: usize| Played {
            by_claim: vec![x],
            forfeited: vec![x],
            ..duel(winner, x, "1-0")
        };
        let games = vec![
            duel(a, b, "½"),
            duel(a, c, "1-0"),
            duel(d, a, "1-0"),
            forfeit(a),
            duel(b, d, "1-0"),
            duel(b, c, "½"),
            duel(b, x, "½"),
            duel(d, c, "1-0"),
            duel(c, x, "1-0"),
            forfeit(d),
        ];
        let left = [false, false, false, false, true];
        let rules = Rules {
            withdrawal: Withdrawal::Iccf,
            ..FIDE
        };
        let s = standings(&names(5), &left, &games, &rules);
        let pts: Vec<&str> = s.rows.iter().map(|r| r[3].as_str()).collect();
        assert_eq!(pts, ["3", "2½", "2½", "1½", "½"]);
        assert_eq!(s.order, vec![d, b, a, c, x], "{:?}", s.rows);
        let row = |e: usize| &s.rows[s.order.iter().position(|&o| o == e).unwrap()];
        // Wins: a beat c (the forfeit is none), b beat d.
        assert_eq!((row(a)[5].as_str(), row(b)[5].as_str()), ("1", "1"));
        // Scores as the tie-breaks read them, a pair not played a draw:
        // a 2 (½ for x), b 2½, c 1½, d 2½ (½ for x), x 1½ (½ each for a, d).
        // SB of a: ½·b 2½ + c 1½ = 2¾ (nothing for x); of b: ½·a 2 + d 2½ +
        // ½·c 1½ + ½·x 1½ = 5.
        assert_eq!((row(a)[6].as_str(), row(b)[6].as_str()), ("2¾", "5"));
        // Koya: at least half of 4 (a, b, d): a ½ (b), b 1½ (a ½, d 1).
        assert_eq!((row(a)[7].as_str(), row(b)[7].as_str()), ("½", "1½"));
        // d's forfeit win is no win either: d beat a and c.
        assert_eq!(row(d)[5], "2");
    }

    /// T44: d leaves having played one game of three (under half): under
    /// FIDE's rule d's results are annulled for everyone; under ICCF's they stand.
    #[test]
    fn fide_annuls_the_results_of_an_early_withdrawal() {
        let mut games = vec![
            duel(3, 0, "1-0"),
            duel(0, 1, "1-0"),
            duel(1, 2, "1-0"),
            duel(0, 2, "½"),
        ];
        // d's two games left, conceded at the move deadline before d moved.
        for o in [1, 2] {
            let mut g = duel(o, 3, "1-0");
            g.by_claim = vec![3];
            g.forfeited = vec![3];
            games.push(g);
        }
        let left = [false, false, false, true];
        let s = standings(&names(4), &left, &games, &FIDE);
        assert_eq!(s.order, vec![0, 1, 2, 3]);
        let pts: Vec<&str> = s.rows.iter().map(|r| r[3].as_str()).collect();
        // a 1½ (b, ½ c: the loss to d annulled), b 1, c ½; d annulled.
        assert_eq!(pts, ["1½", "1", "½", "–"]);
        assert_eq!(s.places, vec![1, 2, 3, 0]);
        assert!(s.rows[3][9].contains("annulled"), "{:?}", s.rows[3]);
        let iccf = Rules {
            withdrawal: Withdrawal::Iccf,
            ..FIDE
        };
        let s = standings(&names(4), &left, &games, &iccf);
        // a 1½, b 2 (c, d), c 1½ (½ a, d), d 1: b first.
        assert_eq!(s.order[0], 1);
        let pts: Vec<&str> = s.rows.iter().map(|r| r[3].as_str()).collect();
        assert_eq!(pts[0], "2");
        // Two of three played by d: half or more, so the games left are lost.
        let left_late = vec![
            duel(3, 0, "1-0"),
            duel(1, 3, "0-1"),
            duel(0, 1, "1-0"),
            duel(1, 2, "1-0"),
            duel(0, 2, "½"),
            Played {
                by_claim: vec![3],
                ..duel(2, 3, "1-0")
            },
        ];
        let s = standings(&names(4), &left, &left_late, &FIDE);
        assert!(!s.places.contains(&0), "nobody annulled: {:?}", s.rows);
    }

    /// T44 counts a game as T57 does: d leaves with two games lost at the
    /// deadline after having moved in them, so d played three of three and
    /// keeps the results (FIDE annuls only a brief appearance).
    #[test]
    fn games_a_leaver_moved_in_count_as_played_for_the_annulment() {
        let mut games = vec![
            duel(3, 0, "1-0"),
            duel(0, 1, "1-0"),
            duel(1, 2, "1-0"),
            duel(0, 2, "½"),
        ];
        for o in [1, 2] {
            let mut g = duel(o, 3, "1-0");
            g.by_claim = vec![3];
            games.push(g);
        }
        let left = [false, false, false, true];
        let s = standings(&names(4), &left, &games, &FIDE);
        assert!(s.places.iter().all(|&p| p > 0), "{:?}", s.rows);
        let pts: Vec<&str> = s.rows.iter().map(|r| r[3].as_str()).collect();
        // Nobody's results are annulled, and d keeps the win over a.
        assert!(!pts.contains(&"–"), "{pts:?}");
        let d = s.order.iter().position(|&e| e == 3).unwrap();
        assert_eq!(s.rows[d][3], "1", "{:?}", s.rows);
    }
}
