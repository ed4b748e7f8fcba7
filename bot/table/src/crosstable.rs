//! The crosstable of a league, as the renderer draws it: one row per entrant
//! in standing order with their pairing number, one column per pairing
//! number, each cell the results of the games between the two, then the
//! points and the league's tie-break columns. Everything shown is decided
//! here; the renderer only draws it.

use tokar_model::league::pairing::fixtures;
use tokar_model::league::record::LeagueRecord;
use tokar_model::league::scores::halves_against;
use tokar_model::league::standings::{show_halves, Played, Standings};
use tokar_render::{CrossRow, Crosstable};

/// The entrants in the order of their pairing numbers (the first holds
/// number 1), read back from the league's games: they were made from the
/// plan for numbers 1..n ([`fixtures`]) with each number replaced by its
/// entrant, so the plan and the games side by side give every number's
/// entrant. Read back rather than computed again because numbers given by
/// rating would come out otherwise once ratings have moved. A league whose
/// games do not match the plan (none yet) is numbered in the order named.
pub fn numbered(l: &LeagueRecord) -> Vec<usize> {
    let n = l.entrants.len();
    let listed: Vec<usize> = (0..n).collect();
    let Some(size) = l.fixtures.first().map(|f| f.entrants.len()) else {
        return listed;
    };
    let plan = fixtures(n, size, l.double);
    if plan.len() != l.fixtures.len() {
        return listed;
    }
    let mut by_number: Vec<Option<usize>> = vec![None; n];
    for (at, f) in plan.iter().zip(&l.fixtures) {
        if at.len() != f.entrants.len() {
            return listed;
        }
        for (&k, &e) in at.iter().zip(&f.entrants) {
            match by_number.get(k).copied().flatten() {
                Some(known) if known != e => return listed,
                _ if k < n && e < n => by_number[k] = Some(e),
                _ => return listed,
            }
        }
    }
    let order: Vec<usize> = by_number.iter().flatten().copied().collect();
    let mut seen = order.clone();
    seen.sort_unstable();
    seen.dedup();
    if order.len() == n && seen.len() == n {
        order
    } else {
        listed
    }
}

/// One game's result for `e` against `o`, as a crosstable writes it: 1, ½
/// and 0 over the board; + and − for a game won or lost without play (a
/// forfeit, T57); `None` while it is being played.
fn result(g: &Played, e: usize, o: usize) -> Option<&'static str> {
    let halves = halves_against(g, e, o)?;
    let forfeit = g.forfeited.contains(&e) || g.forfeited.contains(&o);
    Some(match (halves, forfeit) {
        (2, true) => "+",
        (0, true) => "−",
        (2, false) => "1",
        (1, _) => "½",
        _ => "0",
    })
}

/// The crosstable of league `l`, whose standings are `s`, from its games.
pub fn crosstable(l: &LeagueRecord, s: &Standings, games: &[Played]) -> Crosstable {
    let numbers = numbered(l);
    let number_of = |e: usize| numbers.iter().position(|&x| x == e);
    let tables = games.iter().any(|g| g.entrants.len() > 2);
    let annulled: Vec<usize> = s
        .order
        .iter()
        .zip(&s.places)
        .filter(|(_, &p)| p == 0)
        .map(|(&e, _)| e)
        .collect();
    // Points, then the tie-break columns, as the standings' heads have them:
    // `#, Player, Played, Points, <tie-breaks>, To play, Note`.
    let tail_cols = 3..s.heads.len().saturating_sub(2).max(4);
    let rows = s
        .order
        .iter()
        .zip(&s.rows)
        .map(|(&e, row)| {
            let cells = numbers
                .iter()
                .map(|&o| {
                    if o == e {
                        return String::new();
                    }
                    let met: Vec<&Played> = games
                        .iter()
                        .filter(|g| g.entrants.contains(&e) && g.entrants.contains(&o))
                        .collect();
                    let cell = if tables {
                        // Several tables of four may hold the same two: the
                        // points taken from that opponent at them all (T35).
                        let done: Vec<u32> =
                            met.iter().filter_map(|g| halves_against(g, e, o)).collect();
                        if done.is_empty() {
                            String::new()
                        } else {
                            show_halves(done.iter().sum())
                        }
                    } else {
                        met.iter()
                            .filter_map(|g| result(g, e, o))
                            .collect::<Vec<_>>()
                            .join(" ")
                    };
                    if !cell.is_empty() && (annulled.contains(&e) || annulled.contains(&o)) {
                        format!("({cell})")
                    } else {
                        cell
                    }
                })
                .collect();
            CrossRow {
                place: row[0].clone(),
                number: number_of(e).map_or(String::new(), |k| (k + 1).to_string()),
                name: row[1].clone(),
                cells,
                own: number_of(e),
                tail: tail_cols
                    .clone()
                    .filter_map(|c| row.get(c).cloned())
                    .collect(),
            }
        })
        .collect();
    let mut notes = vec![if tables {
        "Each cell: the points taken from that opponent at the tables both sat at (3, 2, 1, 0 by place, pair by pair).".to_string()
    } else {
        "1 won, ½ drawn, 0 lost; + won and − lost without play (lost at the move deadline before moving); blank: not yet played.".to_string()
    }];
    if !annulled.is_empty() {
        notes.push("( ): results annulled, counted for nobody (T44).".into());
    }
    Crosstable {
        title: format!("League {} · {} · crosstable", l.name, l.kind.title()),
        opponents: (1..=numbers.len()).map(|k| k.to_string()).collect(),
        tail: tail_cols
            .filter_map(|c| s.heads.get(c).cloned())
            .map(|h| if h == "Points" { "Pts".into() } else { h })
            .collect(),
        rows,
        notes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokar_model::league::rules::{TieBreaks, Withdrawal};
    use tokar_model::league::standings::{standings, Rules};
    use tokar_model::league::{decode_league, Fixture};

    fn league(n: usize, double: bool, numbers: &[usize]) -> LeagueRecord {
        // A stored league of n entrants whose games follow the plan with
        // these pairing numbers (numbers[k] holds number k + 1).
        let entrants: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#"{{"members":[{{"id":{},"name":"{}"}}],"left_at":null}}"#,
                    i + 1,
                    (b'a' + i as u8) as char
                )
            })
            .collect();
        let json = format!(
            r#"{{"format":3,"id":1,"version":1,"name":"T","kind":"Arcana","guild":null,"channel":{{"id":1,"name":"t"}},"creator":1,"created_at":0,"double":{double},"deadline":1,"entrants":[{}],"agreed":[],"phase":"Playing","fixtures":[],"winners":[]}}"#,
            entrants.join(",")
        );
        let mut l = decode_league(json.as_bytes()).unwrap();
        l.fixtures = fixtures(n, 2, double)
            .into_iter()
            .enumerate()
            .map(|(i, at)| Fixture {
                entrants: at.iter().map(|&k| numbers[k]).collect(),
                game: i as u64 + 1,
            })
            .collect();
        l
    }

    fn games_of(
        l: &LeagueRecord,
        result: impl Fn(usize, usize) -> Option<Vec<u32>>,
    ) -> Vec<Played> {
        l.fixtures
            .iter()
            .map(|f| Played {
                entrants: f.entrants.clone(),
                places: result(f.entrants[0], f.entrants[1]),
                by_claim: Vec::new(),
                forfeited: Vec::new(),
            })
            .collect()
    }

    #[test]
    fn pairing_numbers_are_read_back_from_the_games() {
        let l = league(5, false, &[3, 0, 4, 1, 2]);
        assert_eq!(numbered(&l), vec![3, 0, 4, 1, 2]);
        let l = league(4, true, &[2, 3, 1, 0]);
        assert_eq!(numbered(&l), vec![2, 3, 1, 0]);
        let mut none = league(3, false, &[0, 1, 2]);
        none.fixtures.clear();
        assert_eq!(numbered(&none), vec![0, 1, 2]);
    }

    /// Rows in standing order with their numbers, columns by number, each
    /// cell the result against that number's entrant, the own cell shaded,
    /// a forfeit written + and −, a game not played blank, then points and
    /// the tie-break columns of the standings.
    #[test]
    fn cells_hold_each_pairs_results_by_pairing_number() {
        // Numbers: 1 = c, 2 = a, 3 = b.
        let l = league(3, false, &[2, 0, 1]);
        let mut games = games_of(&l, |x, y| match (x.min(y), x.max(y)) {
            // a beat b; a and c drew; b against c not played yet.
            (0, 1) => Some(if x == 0 { vec![0, 1] } else { vec![1, 0] }),
            (0, 2) => Some(vec![0, 0]),
            _ => None,
        });
        let names: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let rules = Rules {
            tiebreaks: TieBreaks::Fide,
            withdrawal: Withdrawal::Iccf,
            seed: 1,
        };
        let s = standings(&names, &[false; 3], &games, &rules);
        let t = crosstable(&l, &s, &games);
        assert_eq!(t.opponents, ["1", "2", "3"]);
        assert_eq!(t.tail, ["Pts", "DE", "Wins", "SB", "Koya"]);
        // a 1½ first; c ½ and b 0 below.
        let a = &t.rows[0];
        assert_eq!((a.name.as_str(), a.number.as_str()), ("a", "2"));
        assert_eq!(a.cells, ["½", "", "1"]);
        assert_eq!(a.own, Some(1));
        assert_eq!(a.tail[0], "1½");
        let c = &t.rows[1];
        assert_eq!((c.name.as_str(), c.own), ("c", Some(0)));
        assert_eq!(c.cells, ["", "½", ""], "b against c not played yet");
        // b loses the game against c without moving: a forfeit.
        let bc = games
            .iter()
            .position(|g| g.entrants.contains(&1) && g.entrants.contains(&2))
            .unwrap();
        let g = &mut games[bc];
        g.places = Some(g.entrants.iter().map(|&e| u32::from(e == 1)).collect());
        g.by_claim = vec![1];
        g.forfeited = vec![1];
        let s = standings(&names, &[false; 3], &games, &rules);
        let t = crosstable(&l, &s, &games);
        let row = |n: &str| t.rows.iter().find(|r| r.name == n).unwrap();
        assert_eq!(row("b").cells, ["−", "0", ""]);
        assert_eq!(row("c").cells, ["", "½", "+"]);
        assert!(t.notes[0].contains("+ won and − lost without play"));
    }

    #[test]
    fn a_double_league_shows_both_games_in_a_cell() {
        let l = league(2, true, &[0, 1]);
        // Home wins both.
        let games = games_of(&l, |_, _| Some(vec![0, 1]));
        let names: Vec<String> = ["a", "b"].map(String::from).to_vec();
        let rules = Rules {
            tiebreaks: TieBreaks::Sb,
            withdrawal: Withdrawal::Fide,
            seed: 1,
        };
        let s = standings(&names, &[false; 2], &games, &rules);
        let t = crosstable(&l, &s, &games);
        let a = t.rows.iter().find(|r| r.name == "a").unwrap();
        assert_eq!(a.cells, ["", "1 0"]);
        assert_eq!(t.tail, ["Pts", "SB", "Wins"]);
    }
}
