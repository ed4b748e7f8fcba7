//! Ratings: which finished games count (rulings T28-T30, T46-T48 in the
//! docs/rulings.md, in [`places`]), the places they give, the new ratings, and how a
//! rating ages while its player is away ([`aging`]). The mathematics is the
//! `skillratings` crate's: Glicko-2 for the duels of Arcana (Undead Arcana
//! included) and Arachne, Weng-Lin (OpenSkill) for Magic Chess and
//! Gladiator, whose games have several places and teams (T30). A kept
//! crate, checked against the published examples in the tests, rather than
//! formulas of our own.

pub mod aging;
pub mod board;
pub mod levels;
pub mod places;
pub mod records;

pub use places::assess;
use serde::{Deserialize, Serialize};
use skillratings::glicko2::{glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::{MultiTeamOutcome, Outcomes};
use std::collections::BTreeMap;
use tokar_engine::catalog::GameKind;

/// A Glicko-2 rating is provisional while its deviation is above this (as
/// lichess shows a `?`).
pub const GLICKO2_PROVISIONAL_RD: f64 = 110.0;
/// A Weng-Lin rating is provisional while its uncertainty (sigma) is above
/// this: a little under half the starting 25/3, which four-player games
/// reach after about a dozen games (T30).
pub const WENG_LIN_PROVISIONAL_SIGMA: f64 = 4.0;

/// One player's rating in one game kind and scope.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "model")]
pub enum Rating {
    Glicko2 {
        rating: f64,
        deviation: f64,
        volatility: f64,
    },
    WengLin {
        rating: f64,
        uncertainty: f64,
    },
}

impl Rating {
    /// The rating a player starts with in a game kind.
    pub fn initial(kind: GameKind) -> Rating {
        if uses_glicko2(kind) {
            let r = Glicko2Rating::new();
            Rating::Glicko2 {
                rating: r.rating,
                deviation: r.deviation,
                volatility: r.volatility,
            }
        } else {
            let r = WengLinRating::new();
            Rating::WengLin {
                rating: r.rating,
                uncertainty: r.uncertainty,
            }
        }
    }

    /// The number the rating is ordered and drawn by.
    pub fn value(&self) -> f64 {
        match *self {
            Rating::Glicko2 { rating, .. } | Rating::WengLin { rating, .. } => rating,
        }
    }

    pub fn provisional(&self) -> bool {
        match *self {
            Rating::Glicko2 { deviation, .. } => deviation > GLICKO2_PROVISIONAL_RD,
            Rating::WengLin { uncertainty, .. } => uncertainty > WENG_LIN_PROVISIONAL_SIGMA,
        }
    }

    /// As players read it: Glicko-2 whole, Weng-Lin with one decimal, and a
    /// `?` while provisional.
    pub fn shown(&self) -> String {
        let mark = if self.provisional() { "?" } else { "" };
        match *self {
            Rating::Glicko2 { rating, .. } => format!("{rating:.0}{mark}"),
            Rating::WengLin { rating, .. } => format!("{rating:.1}{mark}"),
        }
    }

    fn glicko2(&self, kind: GameKind) -> Glicko2Rating {
        match *self {
            Rating::Glicko2 {
                rating,
                deviation,
                volatility,
            } => Glicko2Rating {
                rating,
                deviation,
                volatility,
            },
            Rating::WengLin { .. } => match Rating::initial(kind) {
                r @ Rating::Glicko2 { .. } => r.glicko2(kind),
                Rating::WengLin { .. } => Glicko2Rating::new(),
            },
        }
    }

    fn weng_lin(&self) -> WengLinRating {
        match *self {
            Rating::WengLin {
                rating,
                uncertainty,
            } => WengLinRating {
                rating,
                uncertainty,
            },
            Rating::Glicko2 { .. } => WengLinRating::new(),
        }
    }
}

impl From<Glicko2Rating> for Rating {
    fn from(r: Glicko2Rating) -> Rating {
        Rating::Glicko2 {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

impl From<WengLinRating> for Rating {
    fn from(r: WengLinRating) -> Rating {
        Rating::WengLin {
            rating: r.rating,
            uncertainty: r.uncertainty,
        }
    }
}

/// Duels use Glicko-2; games with places and teams use Weng-Lin (T30).
pub fn uses_glicko2(kind: GameKind) -> bool {
    matches!(kind, GameKind::Arcana | GameKind::Arachne)
}

/// A player's result in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Score {
    Win,
    Draw,
    Loss,
}

/// One person's place in a rated game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placing {
    pub user: u64,
    /// The side they played on: partners and team-mates share it.
    pub team: u8,
    /// 1 for the best; tied sides share a place.
    pub place: usize,
    pub score: Score,
}

/// The Glicko-2 settings of every rated duel (T30): the crate's, which are
/// Glickman's example's (tau 0.5, volatility converged to 1e-6).
pub const GLICKO2: Glicko2Config = Glicko2Config::new();

fn outcome(score: Score) -> Outcomes {
    match score {
        Score::Win => Outcomes::WIN,
        Score::Draw => Outcomes::DRAW,
        Score::Loss => Outcomes::LOSS,
    }
}

/// One Glicko-2 rating period of `player` against `results` (each
/// opponent's rating before the period and the player's score): what a duel's
/// end computes for each of its two players, with one result each (T30:
/// each game is its own rating period, as lichess rates).
pub fn glicko2_period(kind: GameKind, player: &Rating, results: &[(Rating, Score)]) -> Rating {
    let results: Vec<(Glicko2Rating, Outcomes)> = results
        .iter()
        .map(|(r, score)| (r.glicko2(kind), outcome(*score)))
        .collect();
    glicko2_rating_period(&player.glicko2(kind), &results, &GLICKO2).into()
}

/// The ratings after a game, in the order of `players` (each with the
/// rating they had before, aged to the game's end: [`Rating::aged`]).
pub fn update(kind: GameKind, players: &[(Placing, Rating)]) -> Vec<Rating> {
    if uses_glicko2(kind) && players.len() == 2 {
        let (a, b) = (&players[0], &players[1]);
        return vec![
            glicko2_period(kind, &a.1, &[(b.1, a.0.score)]),
            glicko2_period(kind, &b.1, &[(a.1, b.0.score)]),
        ];
    }
    weng_lin_update(players)
}

/// Weng-Lin for sides of any size, a side's strength being its members'
/// average (T46 in docs/rulings.md). The crate sums a side's members
/// (its rating is the sum of theirs, its variance the sum of theirs), so one
/// player against a pair would be a heavy underdog on an even board. A side
/// that plays as the average of its `n` members is the crate's sum over
/// members whose skills are scaled by `1/n` (mean `μ/n`, deviation `σ/n`);
/// the update of each scaled member, scaled back by `n`, is exactly the
/// Weng-Lin update of the average model (the means move by the gradient of
/// the side's average, the variances shrink by the same factor as the
/// crate's). A side of one is the crate's own update unchanged.
fn weng_lin_update(players: &[(Placing, Rating)]) -> Vec<Rating> {
    // Sides in team order, each with its members' ratings.
    let mut sides: BTreeMap<u8, (usize, Vec<(usize, WengLinRating)>)> = BTreeMap::new();
    for (i, (p, r)) in players.iter().enumerate() {
        let side = sides.entry(p.team).or_insert((p.place, Vec::new()));
        side.1.push((i, r.weng_lin()));
    }
    let teams: Vec<Vec<WengLinRating>> = sides
        .values()
        .map(|(_, m)| {
            let n = m.len() as f64;
            m.iter()
                .map(|(_, r)| WengLinRating {
                    rating: r.rating / n,
                    uncertainty: r.uncertainty / n,
                })
                .collect()
        })
        .collect();
    let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = sides
        .values()
        .zip(&teams)
        .map(|((place, _), t)| (t.as_slice(), MultiTeamOutcome::new(*place)))
        .collect();
    let new = weng_lin_multi_team(&ranked, &WengLinConfig::new());
    let mut out: Vec<Rating> = players.iter().map(|(_, r)| *r).collect();
    for ((_, members), new_team) in sides.values().zip(new) {
        let n = members.len() as f64;
        for ((i, _), r) in members.iter().zip(new_team) {
            out[*i] = WengLinRating {
                rating: r.rating * n,
                uncertainty: r.uncertainty * n,
            }
            .into();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, within: f64) -> bool {
        (a - b).abs() <= within
    }

    /// Glickman, "Example of the Glicko-2 system": a player rated 1500
    /// (RD 200, volatility 0.06) beats a 1400 (RD 30) and loses to a 1550
    /// (RD 100) and a 1700 (RD 300) in one rating period: 1464.06, RD 151.52,
    /// volatility 0.05999.
    #[test]
    fn glicko2_matches_the_papers_worked_example() {
        let player = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opp = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let results = [
            (opp(1400.0, 30.0), Outcomes::WIN),
            (opp(1550.0, 100.0), Outcomes::LOSS),
            (opp(1700.0, 300.0), Outcomes::LOSS),
        ];
        let config = Glicko2Config {
            tau: 0.5,
            ..Glicko2Config::new()
        };
        let new = skillratings::glicko2::glicko2_rating_period(&player, &results, &config);
        assert!(close(new.rating, 1464.06, 0.01), "{new:?}");
        assert!(close(new.deviation, 151.52, 0.01), "{new:?}");
        assert!(close(new.volatility, 0.05999, 0.00001), "{new:?}");
    }

    fn placing(user: u64, team: u8, place: usize, score: Score) -> Placing {
        Placing {
            user,
            team,
            place,
            score,
        }
    }

    /// The crate's documented duel (1500/350 beats 1500/350: 1662 and 1338,
    /// RD 290), through Tokar's own update of a duel.
    #[test]
    fn a_duel_updates_as_the_crates_example() {
        let start = Rating::initial(GameKind::Arcana);
        let new = update(
            GameKind::Arcana,
            &[
                (placing(1, 0, 1, Score::Win), start),
                (placing(2, 1, 2, Score::Loss), start),
            ],
        );
        assert!(close(new[0].value(), 1662.0, 0.5), "{new:?}");
        assert!(close(new[1].value(), 1338.0, 0.5), "{new:?}");
        assert!(new[0].provisional(), "RD 290 is provisional");
        assert_eq!(new[0].shown(), "1662?");
    }

    /// A side of one is the crate's own Weng-Lin (its documented example of
    /// three teams, here of one player each), through Tokar's update.
    #[test]
    fn weng_lin_sides_of_one_update_as_the_crate() {
        let wl = |rating, uncertainty| WengLinRating {
            rating,
            uncertainty,
        };
        let (a, b, c) = (wl(25.0, 25.0 / 3.0), wl(41.0, 1.4), wl(17.2, 2.1));
        let crate_new = weng_lin_multi_team(
            &[
                (&[a][..], MultiTeamOutcome::new(2)),
                (&[b][..], MultiTeamOutcome::new(1)),
                (&[c][..], MultiTeamOutcome::new(3)),
            ],
            &WengLinConfig::new(),
        );
        let new = update(
            GameKind::MagicChess,
            &[
                (placing(1, 0, 2, Score::Loss), a.into()),
                (placing(2, 1, 1, Score::Win), b.into()),
                (placing(3, 2, 3, Score::Loss), c.into()),
            ],
        );
        let expected: Vec<Rating> = crate_new.into_iter().map(|t| t[0].into()).collect();
        assert_eq!(new, expected);
    }

    /// T46: a side is as strong as its members' average. One player against
    /// a pair of the same ratings is an even game: a win gains what a loss
    /// costs (with sides summed, the lone player was the underdog and gained
    /// more by winning than they lost by losing), and each of the pair moves
    /// half as far, since each is half of their side's strength.
    #[test]
    fn team_average() {
        let start = Rating::initial(GameKind::Gladiator);
        let game = |solo: Score, pair: Score, solo_place, pair_place| {
            update(
                GameKind::Gladiator,
                &[
                    (placing(1, 0, solo_place, solo), start),
                    (placing(2, 1, pair_place, pair), start),
                    (placing(3, 1, pair_place, pair), start),
                ],
            )
        };
        let won = game(Score::Win, Score::Loss, 1, 2);
        let lost = game(Score::Loss, Score::Win, 2, 1);
        let gain = won[0].value() - start.value();
        let loss = start.value() - lost[0].value();
        assert!(gain > 0.0 && (gain - loss).abs() < 1e-9, "{gain} {loss}");
        let pair_loss = start.value() - won[1].value();
        assert!((pair_loss - gain / 2.0).abs() < 1e-9, "{pair_loss} {gain}");
        assert_eq!(won[1], won[2]);
    }

    /// Glickman's worked example (1500, RD 200, volatility 0.06 beats 1400/30,
    /// loses to 1550/100 and 1700/300: 1464.06, RD 151.52, volatility
    /// 0.05999) through `glicko2_period`, the function every rated duel's end
    /// calls for each player with Tokar's settings (`update`, called by the
    /// storage's `rate_on_finish`), given the paper's three games as one
    /// period; and `update` of a duel is that function with one game each.
    #[test]
    fn glickmans_example_through_the_production_path() {
        let g2 = |rating, deviation| Rating::Glicko2 {
            rating,
            deviation,
            volatility: 0.06,
        };
        let new = glicko2_period(
            GameKind::Arcana,
            &g2(1500.0, 200.0),
            &[
                (g2(1400.0, 30.0), Score::Win),
                (g2(1550.0, 100.0), Score::Loss),
                (g2(1700.0, 300.0), Score::Loss),
            ],
        );
        let Rating::Glicko2 {
            rating,
            deviation,
            volatility,
        } = new
        else {
            panic!("{new:?}")
        };
        assert!(close(rating, 1464.06, 0.01), "{new:?}");
        assert!(close(deviation, 151.52, 0.01), "{new:?}");
        assert!(close(volatility, 0.05999, 0.00001), "{new:?}");
        let (a, b) = (g2(1500.0, 200.0), g2(1400.0, 30.0));
        let duel = update(
            GameKind::Arcana,
            &[
                (placing(1, 0, 1, Score::Win), a),
                (placing(2, 1, 2, Score::Loss), b),
            ],
        );
        assert_eq!(
            duel,
            [
                glicko2_period(GameKind::Arcana, &a, &[(b, Score::Win)]),
                glicko2_period(GameKind::Arcana, &b, &[(a, Score::Loss)]),
            ]
        );
    }

    #[test]
    fn weng_lin_is_provisional_above_its_sigma() {
        let r = Rating::initial(GameKind::Gladiator);
        assert!(r.provisional());
        assert_eq!(r.shown(), "25.0?");
        let settled = Rating::WengLin {
            rating: 27.25,
            uncertainty: 3.9,
        };
        assert_eq!(settled.shown(), "27.2");
    }
}
