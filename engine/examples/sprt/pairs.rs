//! Game pairs: pair `n` sets up one game from seed `first_seed + n` twice;
//! in the first, player A holds side `n mod sides` and B the rest, in the
//! second the roles are swapped on the same setup, with the same seeds for
//! every move. Luck in the setup and the dice (as far as both games draw them
//! alike) then favours both players once.

use crate::players::Player;
use std::time::{Duration, Instant};
use tokar_engine::{Game, Outcome, Rng, Seat, Viewer};

/// What the pair's games share.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// A game still going after this many plies counts as a draw.
    pub max_plies: usize,
    pub first_seed: u64,
}

/// One game as A saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameReport {
    pub seed: u64,
    /// The seats A played.
    pub a_seats: Vec<Seat>,
    /// A's result in half points: 2 won, 1 drawn or unfinished, 0 lost.
    pub a_half_points: usize,
    pub unfinished: bool,
    pub plies: usize,
    /// Time per move of A and of B.
    pub a_times: Vec<Duration>,
    pub b_times: Vec<Duration>,
}

/// The two games of pair `n`.
pub fn play_pair<G: Game>(
    setup: &dyn Fn(u64) -> G,
    a: &Player,
    b: &Player,
    rules: &Rules,
    n: u64,
) -> [GameReport; 2] {
    let seed = rules.first_seed.wrapping_add(n);
    let game = setup(seed);
    let sides = sides(&game);
    let side = sides[(n % sides.len() as u64) as usize].clone();
    let rest: Vec<Seat> = sides
        .iter()
        .flatten()
        .copied()
        .filter(|s| !side.contains(s))
        .collect();
    [
        play_game(game.clone(), a, b, &side, rules, seed),
        play_game(game, a, b, &rest, rules, seed),
    ]
}

/// The seats of each side: seats sharing a colour in the spectator's view
/// (a Gladiator team's four commanders and King are one side; each Magic
/// Chess army is its own).
pub fn sides<G: Game>(game: &G) -> Vec<Vec<Seat>> {
    let view = game.view(Viewer::Spectator);
    let mut sides: Vec<(u8, Vec<Seat>)> = Vec::new();
    for (i, s) in view.seats.iter().enumerate() {
        let seat = Seat(i as u8);
        match sides.iter_mut().find(|(c, _)| *c == s.colour) {
            Some((_, seats)) => seats.push(seat),
            None => sides.push((s.colour, vec![seat])),
        }
    }
    sides.into_iter().map(|(_, s)| s).collect()
}

/// One game: A plays `a_seats`, B every other seat. Where several seats may
/// act, the one that does is drawn from the game's own move generator, as
/// are the players' seeds, so both games of a pair draw the same numbers
/// ply by ply.
fn play_game<G: Game>(
    mut game: G,
    a: &Player,
    b: &Player,
    a_seats: &[Seat],
    rules: &Rules,
    seed: u64,
) -> GameReport {
    let mut rng = Rng::new(seed ^ 0x5743_0000);
    let mut report = GameReport {
        seed,
        a_seats: a_seats.to_vec(),
        a_half_points: 1,
        unfinished: false,
        plies: 0,
        a_times: Vec::new(),
        b_times: Vec::new(),
    };
    while report.plies < rules.max_plies && !game.outcome().is_over() {
        let to_act = game.to_act();
        if to_act.is_empty() {
            break;
        }
        let seat = to_act[rng.below(to_act.len() as u64) as usize];
        let s = rng.next_u64();
        let (player, times) = if a_seats.contains(&seat) {
            (a, &mut report.a_times)
        } else {
            (b, &mut report.b_times)
        };
        let start = Instant::now();
        let action = player.choose(&game, seat, s);
        times.push(start.elapsed());
        let Some(action) = action else {
            // A seat named to act with no action is a game bug; say so and
            // stop the game rather than counting it for anyone.
            eprintln!(
                "seed {seed}: {} has no action; game stopped",
                game.seat_name(seat)
            );
            break;
        };
        if let Err(e) = game.play(seat, &action) {
            eprintln!(
                "seed {seed}: {} chose a refused action ({e}); game stopped",
                game.seat_name(seat)
            );
            break;
        }
        report.plies += 1;
    }
    match game.outcome() {
        Outcome::Won { winners, .. } if winners.iter().any(|w| a_seats.contains(w)) => {
            report.a_half_points = 2
        }
        Outcome::Won { .. } => report.a_half_points = 0,
        Outcome::Drawn { .. } => report.a_half_points = 1,
        Outcome::Ongoing => report.unfinished = true,
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::{Defaults, Player, Truth};
    use tokar_engine::catalog::Options;
    use tokar_engine::{arachne::Arachne, GameKind, Variant};

    fn player(spec: &str, kind: GameKind) -> Player {
        Player::parse(spec, kind, &Defaults::default()).unwrap()
    }

    fn arachne(seed: u64) -> Arachne {
        Arachne::setup(&Options::new(), seed).unwrap()
    }

    /// The second game of a pair is the first with the roles swapped: same
    /// seed, A's seats there are B's here. With the same player on both
    /// sides the two games are then move for move alike, so every decisive
    /// first game is a 1-1 pair (a player's side decides, not its name). If
    /// the games used different seeds, or A kept its side, pairs of 2-0 or
    /// 0-2 would appear. Cited by S10 in engine/rules/search.md.
    #[test]
    fn a_pair_is_one_setup_played_twice_with_the_sides_swapped() {
        let rules = Rules {
            max_plies: 300,
            first_seed: 40,
        };
        for (spec, pairs) in [("random", 6), ("normal,iterations=20", 2)] {
            let p = player(spec, GameKind::Arachne);
            for n in 0..pairs {
                let [first, second] = play_pair(&arachne, &p, &p, &rules, n);
                assert_eq!(first.seed, 40 + n);
                assert_eq!(second.seed, first.seed);
                let mut all = first.a_seats.clone();
                all.extend(&second.a_seats);
                all.sort();
                assert_eq!(all, vec![Seat(0), Seat(1)], "{spec} pair {n}");
                assert_eq!(first.plies, second.plies, "{spec} pair {n}");
                assert_eq!(first.unfinished, second.unfinished);
                assert_eq!(
                    first.a_half_points + second.a_half_points,
                    2,
                    "{spec} pair {n}: {first:?} {second:?}"
                );
            }
        }
    }

    /// Pair `n` gives A the side `n mod 2` first, so over two pairs A opens
    /// the first game with each side once.
    #[test]
    fn pairs_alternate_the_side_a_takes_first() {
        let rules = Rules {
            max_plies: 4,
            first_seed: 0,
        };
        let p = player("random", GameKind::Arachne);
        let [even, _] = play_pair(&arachne, &p, &p, &rules, 0);
        let [odd, _] = play_pair(&arachne, &p, &p, &rules, 1);
        assert_eq!(even.a_seats, vec![Seat(0)]);
        assert_eq!(odd.a_seats, vec![Seat(1)]);
    }

    /// Half points: a game cut at the ply cap counts as a draw for both.
    #[test]
    fn an_unfinished_game_counts_as_drawn() {
        let rules = Rules {
            max_plies: 2,
            first_seed: 3,
        };
        let p = player("random", GameKind::Arachne);
        for report in play_pair(&arachne, &p, &p, &rules, 0) {
            assert!(report.unfinished);
            assert_eq!(report.a_half_points, 1);
            assert_eq!(report.plies, 2);
        }
    }

    /// S11: the seer's copies are the true game: whatever is played on one
    /// plays out identically, dice included, on the real game, while an
    /// ordinary redealt copy throws other dice on some seed.
    #[test]
    fn the_seer_searches_the_true_dice() {
        let mut differs = false;
        for seed in 0..6 {
            let truth = arachne(seed);
            let seer_copy = Truth(truth.clone()).redeal(Seat(0), 99).0;
            let guess = truth.redeal(Seat(0), 99);
            let (mut t, mut s, mut g) = (truth, seer_copy, guess);
            let mut rng = Rng::new(seed);
            for _ in 0..60 {
                if t.outcome().is_over() {
                    break;
                }
                let seat = t.to_act()[0];
                let legal = t.legal_actions(seat);
                let action = legal[rng.below(legal.len() as u64) as usize];
                let events = t.play(seat, &action).unwrap();
                assert_eq!(s.play(seat, &action).unwrap(), events);
                if g.play(seat, &action).ok().as_ref() != Some(&events) {
                    differs = true;
                    break;
                }
            }
            assert_eq!(
                serde_json::to_string(&t).unwrap(),
                serde_json::to_string(&s).unwrap()
            );
        }
        assert!(differs, "a redealt copy should throw other dice somewhere");
    }
}
