//! The standings of a league, computed afresh from its games' results every
//! time (nothing is added up and stored, so a game's end can never be counted
//! twice or lost).
//!
//! Points are placement points (T35): in a game of `k` entrants each scores
//! one point for every entrant placed below it and half a point for every one
//! placed level with it. In a duel that is win 1, draw ½, loss 0; at a Magic
//! Chess table of four, 3/2/1/0 by place, places shared on a tie averaged.
//! Entrants level on points are ordered by their head-to-head score (the same
//! rule within the games among themselves only), then by Sonneborn-Berger
//! (for every opponent placed below in a game, that opponent's points; for
//! one placed level, half of them), then share the place.

/// The outcome of one league game, as the standings read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The entrants at the table.
    pub entrants: Vec<usize>,
    /// Each one's place (0 is first; equal places are shared), once it ended.
    pub places: Option<Vec<u32>>,
    /// Entrants of this game who lost it at the move deadline (T34).
    pub by_claim: Vec<usize>,
}

/// The standings as rows of text, ready for a text table or a picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standings {
    pub heads: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Entrants from first to last (the order of `rows`).
    pub order: Vec<usize>,
    /// Each row's place (1 is first; shared places repeat).
    pub places: Vec<usize>,
    /// Games not yet over.
    pub games_left: usize,
}

/// Half points, so that draws and shared places stay whole numbers.
fn halves_in(p: &Played, e: usize) -> Option<u32> {
    let places = p.places.as_ref()?;
    let at = p.entrants.iter().position(|&x| x == e)?;
    let mine = places[at];
    Some(
        places
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != at)
            .map(|(_, &o)| match o.cmp(&mine) {
                std::cmp::Ordering::Greater => 2,
                std::cmp::Ordering::Equal => 1,
                std::cmp::Ordering::Less => 0,
            })
            .sum(),
    )
}

/// Half points `e` took from `o` where both played: 2 placed above, 1 level.
fn halves_against(p: &Played, e: usize, o: usize) -> Option<u32> {
    let places = p.places.as_ref()?;
    let a = p.entrants.iter().position(|&x| x == e)?;
    let b = p.entrants.iter().position(|&x| x == o)?;
    Some(match places[b].cmp(&places[a]) {
        std::cmp::Ordering::Greater => 2,
        std::cmp::Ordering::Equal => 1,
        std::cmp::Ordering::Less => 0,
    })
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
pub fn standings(names: &[String], left: &[bool], games: &[Played]) -> Standings {
    let n = names.len();
    let points: Vec<u32> = (0..n)
        .map(|e| games.iter().filter_map(|g| halves_in(g, e)).sum())
        .collect();
    // Sonneborn-Berger in quarter points: opponent's halves times 2 or 1.
    let sb: Vec<u32> = (0..n)
        .map(|e| {
            games
                .iter()
                .flat_map(|g| g.entrants.iter().map(move |&o| (g, o)))
                .filter(|&(_, o)| o != e)
                .filter_map(|(g, o)| halves_against(g, e, o).map(|w| w * points[o]))
                .sum()
        })
        .collect();
    // Head-to-head among those level on points.
    let h2h: Vec<Option<u32>> = (0..n)
        .map(|e| {
            let level: Vec<usize> = (0..n)
                .filter(|&o| o != e && points[o] == points[e])
                .collect();
            if level.is_empty() {
                return None;
            }
            Some(
                games
                    .iter()
                    .flat_map(|g| level.iter().map(move |&o| (g, o)))
                    .filter_map(|(g, o)| halves_against(g, e, o))
                    .sum(),
            )
        })
        .collect();
    let key = |e: usize| (points[e], h2h[e].unwrap_or(0), sb[e]);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| key(b).cmp(&key(a)).then(names[a].cmp(&names[b])));
    let mut places = Vec::with_capacity(n);
    for (i, &e) in order.iter().enumerate() {
        let place = if i > 0 && key(order[i - 1]) == key(e) {
            places[i - 1]
        } else {
            i + 1
        };
        places.push(place);
    }
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
    let rows = order
        .iter()
        .zip(&places)
        .map(|(&e, place)| {
            let note = match (left.get(e).copied().unwrap_or(false), claims(e)) {
                (true, c) => format!("left; {c} lost at the deadline"),
                (false, 0) => String::new(),
                (false, c) => format!("{c} lost at the deadline"),
            };
            vec![
                place.to_string(),
                names[e].clone(),
                played(e).to_string(),
                show_halves(points[e]),
                h2h[e].map(show_halves).unwrap_or_default(),
                show_quarters(sb[e]),
                to_play(e).to_string(),
                note,
            ]
        })
        .collect();
    Standings {
        heads: [
            "#", "Player", "Played", "Points", "H2H", "SB", "To play", "Note",
        ]
        .map(String::from)
        .to_vec(),
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
        let used: Vec<bool> = (0..cols)
            .map(|c| self.rows.iter().any(|r| !r[c].is_empty()) || c < 7)
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
                    if c == 1 || c == 7 {
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

    /// The same table as the renderer's sheet, for the standings picture:
    /// the same columns as [`Standings::text`] (an empty note column left
    /// out), names and notes left-aligned, figures right-aligned.
    pub fn sheet(&self, title: String) -> tokar_render::Sheet {
        let used: Vec<usize> = (0..self.heads.len())
            .filter(|&c| c < 7 || self.rows.iter().any(|r| !r[c].is_empty()))
            .collect();
        tokar_render::Sheet {
            title,
            columns: used
                .iter()
                .map(|&c| tokar_render::Column {
                    head: self.heads[c].clone(),
                    numeric: c != 1 && c != 7,
                })
                .collect(),
            rows: self
                .rows
                .iter()
                .map(|r| used.iter().map(|&c| r[c].clone()).collect())
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        }
    }

    #[test]
    fn points_head_to_head_and_sonneborn_berger_by_hand() {
        let names: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        // a beats b, b beats c, c beats a: a, b, c 1 point each before d;
        // all beat d; a-d... d draws nobody.
        let games = vec![
            duel(0, 1, "1-0"),
            duel(1, 2, "1-0"),
            duel(2, 0, "1-0"),
            duel(0, 3, "1-0"),
            duel(1, 3, "1-0"),
            duel(2, 3, "½"),
        ];
        let s = standings(&names, &[false; 4], &games);
        // Points: a 2, b 2, c 1½, d ½.
        // a and b level: head-to-head a beat b, so a first.
        assert_eq!(s.order, vec![0, 1, 2, 3]);
        assert_eq!(s.rows[0][3], "2");
        assert_eq!(s.rows[0][4], "1");
        assert_eq!(s.rows[1][4], "0");
        assert_eq!(s.rows[2][3], "1½");
        // SB of a: beat b (2) + beat d (½) = 2½.
        assert_eq!(s.rows[0][5], "2½");
        // SB of c: beat a (2) + half of d (¼) = 2¼.
        assert_eq!(s.rows[2][5], "2¼");
        assert_eq!(s.games_left, 0);
    }

    #[test]
    fn a_table_of_four_scores_three_two_one_nought() {
        let names: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let g = Played {
            entrants: vec![2, 0, 3, 1],
            places: Some(vec![0, 1, 2, 2]),
            by_claim: vec![],
        };
        let s = standings(&names, &[false; 4], &[g]);
        assert_eq!(s.order, vec![2, 0, 1, 3]);
        let pts: Vec<&str> = s.rows.iter().map(|r| r[3].as_str()).collect();
        assert_eq!(pts, ["3", "2", "½", "½"]);
        assert_eq!(s.places, vec![1, 2, 3, 3]);
    }
}
