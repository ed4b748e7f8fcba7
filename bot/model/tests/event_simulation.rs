//! Events played out with random results (a seeded ChaCha generator, so
//! every run plays the same events): a Swiss of 33 players over 7 rounds
//! and a knockout of 16. The rounds are printed (`--nocapture` shows them);
//! the tests check the rules every round and the Swiss standings against a
//! computation of their own, written here from the definitions (T57, E3).

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use tokar_model::event::knockout::{seed_order, Bracket, Seeding, Slot};
use tokar_model::event::standings::{heads, SWISS_TIEBREAKS};
use tokar_model::event::{pair_round, swiss_standings, Outcome, Round, Side};

fn random_outcome(rng: &mut ChaCha8Rng) -> Outcome {
    match rng.next_u32() % 20 {
        0 => Outcome::FirstForfeited,
        1 => Outcome::SecondForfeited,
        2..=7 => Outcome::Drawn,
        8..=13 => Outcome::FirstWon,
        _ => Outcome::SecondWon,
    }
}

/// One entrant's round as the independent computation reads it.
#[derive(Clone, Copy)]
enum Seen {
    /// Against an opponent: half points scored, whether played over the board.
    Game(usize, u32, bool),
    Bye,
    Absent,
}

#[test]
fn a_swiss_of_33_players_and_7_rounds() {
    let n = 33;
    let mut rng = ChaCha8Rng::seed_from_u64(36);
    let mut withdrawn = vec![false; n];
    let mut rounds: Vec<Round> = Vec::new();
    for r in 0..7 {
        // Two players withdraw after round 3 (the count turns odd, then even).
        if r == 3 {
            withdrawn[30] = true;
            withdrawn[5] = true;
        }
        let mut round = pair_round(n, &withdrawn, &rounds).expect("the round pairs");
        println!("round {}: bye {:?}", r + 1, round.bye.map(|b| b + 1));
        for b in round.boards.iter_mut() {
            b.outcome = Some(random_outcome(&mut rng));
            println!(
                "  {:>2} - {:<2} {:?}",
                b.first + 1,
                b.second + 1,
                b.outcome.unwrap()
            );
        }
        rounds.push(round);
    }

    // Every active player is paired once a round; the withdrawn never.
    let mut met = HashSet::new();
    let mut byes = vec![0; n];
    for (r, round) in rounds.iter().enumerate() {
        let mut seen = vec![0; n];
        for b in &round.boards {
            seen[b.first] += 1;
            seen[b.second] += 1;
            let pair = (b.first.min(b.second), b.first.max(b.second));
            assert!(met.insert(pair), "{pair:?} met twice (round {})", r + 1);
        }
        if let Some(e) = round.bye {
            seen[e] += 1;
            byes[e] += 1;
        }
        for (e, &count) in seen.iter().enumerate() {
            let out = r >= 3 && (e == 30 || e == 5);
            assert_eq!(
                count,
                usize::from(!out),
                "entrant {} in round {}",
                e + 1,
                r + 1
            );
            assert_eq!(round.absent.contains(&e), out);
        }
        // An odd count of active players has exactly one bye.
        let active = if r >= 3 { n - 2 } else { n };
        assert_eq!(round.bye.is_some(), active % 2 == 1);
    }
    assert!(byes.iter().all(|&b| b <= 1), "a second bye: {byes:?}");

    // Sides: nobody with a colour difference over 2, nor three the same in
    // a row where the round could be paired otherwise (here: ever).
    for e in 0..n {
        let sides: Vec<Side> = rounds
            .iter()
            .filter_map(|r| r.board_of(e))
            .filter(|b| b.outcome.unwrap().played())
            .map(|b| b.side_of(e).unwrap())
            .collect();
        let diff: i32 = sides
            .iter()
            .map(|s| if *s == Side::First { 1 } else { -1 })
            .sum();
        assert!(diff.abs() <= 2, "entrant {} sides {sides:?}", e + 1);
        assert!(
            !sides.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]),
            "entrant {} sides {sides:?}",
            e + 1
        );
    }

    // The standings, against a computation of our own.
    let rows = swiss_standings(n, &withdrawn, &rounds, &SWISS_TIEBREAKS, 99);
    let seen: Vec<Vec<Seen>> = (0..n)
        .map(|e| {
            rounds
                .iter()
                .map(|round| {
                    if round.bye == Some(e) {
                        return Seen::Bye;
                    }
                    for b in &round.boards {
                        let o = b.outcome.unwrap();
                        let won = |side: Side| o.winner() == Some(side);
                        if b.first == e {
                            let h = if won(Side::First) {
                                2
                            } else if o == Outcome::Drawn {
                                1
                            } else {
                                0
                            };
                            return Seen::Game(b.second, h, o.played());
                        }
                        if b.second == e {
                            let h = if won(Side::Second) {
                                2
                            } else if o == Outcome::Drawn {
                                1
                            } else {
                                0
                            };
                            return Seen::Game(b.first, h, o.played());
                        }
                    }
                    Seen::Absent
                })
                .collect()
        })
        .collect();
    let points = |e: usize| -> u32 {
        seen[e]
            .iter()
            .map(|s| match s {
                Seen::Game(_, h, _) => *h,
                Seen::Bye => 2,
                Seen::Absent => 0,
            })
            .sum()
    };
    let adjusted = |e: usize| -> u32 {
        seen[e]
            .iter()
            .map(|s| match s {
                Seen::Game(_, h, true) => *h,
                _ => 1,
            })
            .sum()
    };
    for row in &rows {
        let e = row.entrant;
        let mut bh: Vec<u32> = seen[e]
            .iter()
            .map(|s| match s {
                Seen::Game(o, _, true) => adjusted(*o),
                _ => adjusted(e),
            })
            .collect();
        let sb: u32 = seen[e]
            .iter()
            .map(|s| match s {
                Seen::Game(o, h, true) => h * adjusted(*o),
                _ => 0,
            })
            .sum();
        let wins = seen[e]
            .iter()
            .filter(|s| matches!(s, Seen::Game(_, 2, true)))
            .count() as u32;
        bh.sort();
        let total: u32 = bh.iter().sum();
        assert_eq!(row.points, points(e), "points of {}", e + 1);
        assert_eq!(row.buchholz, total, "Buchholz of {}", e + 1);
        assert_eq!(
            row.buchholz_cut1,
            total - bh[0],
            "Buchholz cut 1 of {}",
            e + 1
        );
        assert_eq!(row.sonneborn, sb, "Sonneborn-Berger of {}", e + 1);
        assert_eq!(row.wins, wins, "wins of {}", e + 1);
    }
    // Ordered by points, then the list, each row no better than the one above.
    let key = |r: &tokar_model::event::SwissRow| {
        (r.points, r.buchholz_cut1, r.buchholz, r.sonneborn, r.wins)
    };
    for w in rows.windows(2) {
        assert!(key(&w[0]) >= key(&w[1]));
    }
    assert_eq!(
        rows.iter().map(|r| r.place).collect::<Vec<_>>(),
        (1..=n).collect::<Vec<_>>()
    );
    println!("{}", heads(&SWISS_TIEBREAKS).join(" | "));
    for r in &rows {
        println!(
            "{}",
            r.cells(&format!("P{}", r.entrant + 1), &SWISS_TIEBREAKS)
                .join(" | ")
        );
    }
}

#[test]
fn a_knockout_of_16() {
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    let ratings: Vec<i32> = (0..16)
        .map(|_| 1200 + (rng.next_u32() % 1000) as i32)
        .collect();
    let seeded = seed_order(&ratings, Seeding::Rating, 5);
    for w in seeded.windows(2) {
        assert!(ratings[w[0]] >= ratings[w[1]]);
    }
    let mut b = Bracket::new(&seeded, 2).unwrap();
    // Round 1 is 1-16, 8-9, 4-13, 5-12, 2-15, 7-10, 3-14, 6-11.
    let first: Vec<[usize; 2]> = b.rounds[0]
        .iter()
        .map(|m| {
            let seed = |s: Slot| match s {
                Slot::Entrant(e) => seeded.iter().position(|&x| x == e).unwrap() + 1,
                other => panic!("{other:?} in round 1"),
            };
            [seed(m.slots[0]), seed(m.slots[1])]
        })
        .collect();
    assert_eq!(
        first,
        [
            [1, 16],
            [8, 9],
            [4, 13],
            [5, 12],
            [2, 15],
            [7, 10],
            [3, 14],
            [6, 11]
        ]
    );
    let mut games = 0;
    while b.champion().is_none() {
        let open = b.in_play();
        assert!(!open.is_empty(), "the bracket stalled");
        for (r, m, g) in open {
            let o = random_outcome(&mut rng);
            println!(
                "round {} match {}: {} - {} {:?}",
                r + 1,
                m + 1,
                g.first,
                g.second,
                o
            );
            b.record(r, m, o).unwrap();
            games += 1;
            assert!(games < 1000, "the matches never end");
        }
    }
    // 15 matches decided; every entrant but the champion lost exactly one;
    // each winner won its match on points, after at least two games.
    let mut losers = Vec::new();
    for (r, round) in b.rounds.iter().enumerate() {
        assert_eq!(round.len(), 8 >> r);
        for m in round {
            let w = m.winner.unwrap();
            let [a, c] = m.slots.map(|s| match s {
                Slot::Entrant(e) => e,
                other => panic!("{other:?} in a played match"),
            });
            let score = m.score();
            let (ws, ls) = if w == a {
                (score[0], score[1])
            } else {
                (score[1], score[0])
            };
            assert!(ws > ls && m.games.len() >= 2);
            // Sides alternate game by game.
            for g in m.games.windows(2) {
                assert_eq!((g[0].first, g[0].second), (g[1].second, g[1].first));
            }
            losers.push(if w == a { c } else { a });
        }
    }
    losers.sort();
    losers.dedup();
    assert_eq!(losers.len(), 15);
    assert!(!losers.contains(&b.champion().unwrap()));
    println!("champion: {}", b.champion().unwrap());
}
