//! Who a leaderboard lists, and in what order (ruling T47 in docs/rulings.md):
//! settled players ranked, provisional ones apart, and nobody who has not yet
//! met [`MIN_OPPONENTS`] different people in rated games of the kind.

use super::Rating;
use crate::clock::Millis;
use crate::rating::records::{RatedGame, Standing, GLOBAL};
use std::collections::{BTreeMap, BTreeSet};
use tokar_engine::catalog::GameKind;

/// The different people someone must have met in rated games of a kind (on
/// the other side) to be listed (T47): two accounts, or three, playing only
/// each other never appear.
pub const MIN_OPPONENTS: usize = 3;

/// One listed player: their standing with the rating aged to now.
#[derive(Clone, Debug, PartialEq)]
pub struct Listed {
    pub standing: Standing,
    /// The rating as of now (T47: it ages from their last rated game).
    pub now: Rating,
}

/// A leaderboard: the ranked players, the provisional ones, and how many
/// rated players are not listed yet for lack of opponents.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Board {
    pub ranked: Vec<Listed>,
    pub provisional: Vec<Listed>,
    pub unlisted: usize,
}

impl Rating {
    /// The number a leaderboard ranks by: Glicko-2's rating, as lichess
    /// ranks; Weng-Lin's `μ − 3σ`, as OpenSkill's `ordinal` ranks, so that a
    /// player is ranked by what the model is nearly sure of.
    pub fn rank_value(&self) -> f64 {
        match *self {
            Rating::Glicko2 { rating, .. } => rating,
            Rating::WengLin {
                rating,
                uncertainty,
            } => rating - 3.0 * uncertainty,
        }
    }
}

/// Each person's distinct opponents and last rated game in a kind and scope,
/// from the rated games.
fn met(games: &[RatedGame], kind: GameKind, scope: u64) -> BTreeMap<u64, (BTreeSet<u64>, u64)> {
    let mut out: BTreeMap<u64, (BTreeSet<u64>, u64)> = BTreeMap::new();
    for g in games
        .iter()
        .filter(|g| g.kind == kind && (scope == GLOBAL || g.guild == Some(scope)))
    {
        for p in &g.placings {
            let entry = out.entry(p.user).or_default();
            entry.1 = entry.1.max(g.at);
            entry.0.extend(
                g.placings
                    .iter()
                    .filter(|o| o.team != p.team && o.user != p.user)
                    .map(|o| o.user),
            );
        }
    }
    out
}

/// The leaderboard of a kind and scope at `now`, from everyone's standing
/// there and the rated games.
pub fn board(
    standings: Vec<Standing>,
    games: &[RatedGame],
    kind: GameKind,
    scope: u64,
    now: Millis,
) -> Board {
    let met = met(games, kind, scope);
    let mut out = Board::default();
    for s in standings {
        let (opponents, last_game) = met
            .get(&s.user)
            .map_or((0, None), |(o, at)| (o.len(), Some(*at)));
        if opponents < MIN_OPPONENTS {
            out.unlisted += 1;
            continue;
        }
        let last = s.last.max(last_game);
        let listed = Listed {
            now: s.rating.aged(last, now),
            standing: s,
        };
        if listed.now.provisional() {
            out.provisional.push(listed);
        } else {
            out.ranked.push(listed);
        }
    }
    for list in [&mut out.ranked, &mut out.provisional] {
        list.sort_by(|a, b| {
            b.now
                .rank_value()
                .total_cmp(&a.now.rank_value())
                .then(b.standing.games.cmp(&a.standing.games))
                .then(a.standing.user.cmp(&b.standing.user))
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rating::records::RATINGS_FORMAT;
    use crate::rating::{Placing, Score};

    fn standing(user: u64, rating: Rating) -> Standing {
        Standing {
            v: RATINGS_FORMAT,
            user,
            rating,
            games: 10,
            wins: 5,
            draws: 0,
            losses: 5,
            last: Some(0),
        }
    }

    fn duel(game: u64, a: u64, b: u64) -> RatedGame {
        let p = |user, team, place, score| Placing {
            user,
            team,
            place,
            score,
        };
        RatedGame {
            v: RATINGS_FORMAT,
            game,
            kind: GameKind::Arcana,
            at: 0,
            guild: None,
            placings: vec![p(a, 0, 1, Score::Win), p(b, 1, 2, Score::Loss)],
        }
    }

    fn g2(rating: f64, deviation: f64) -> Rating {
        Rating::Glicko2 {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    /// T47: a one-game player (RD 290) is listed apart from the settled,
    /// however high their number; a player who met fewer than three people is
    /// not listed; a year away makes a settled player provisional again.
    #[test]
    fn provisional_players_apart_on_the_leaderboard() {
        let standings = vec![
            standing(1, g2(1600.0, 80.0)),
            standing(2, g2(1728.0, 290.0)),
            standing(3, g2(1550.0, 70.0)),
            standing(4, g2(1500.0, 90.0)),
            standing(5, g2(1900.0, 60.0)),
        ];
        // 1, 2, 3 and 4 each met the three others; 5 met only 1.
        let mut games = Vec::new();
        for a in 1..=4 {
            for b in (a + 1)..=4 {
                games.push(duel(games.len() as u64, a, b));
            }
        }
        games.push(duel(99, 5, 1));
        let b = board(standings.clone(), &games, GameKind::Arcana, GLOBAL, 0);
        let users = |l: &[Listed]| l.iter().map(|x| x.standing.user).collect::<Vec<_>>();
        assert_eq!(users(&b.ranked), [1, 3, 4]);
        assert_eq!(users(&b.provisional), [2]);
        assert_eq!(b.unlisted, 1);
        // A year later every settled player here is provisional again.
        let later = board(
            standings,
            &games,
            GameKind::Arcana,
            GLOBAL,
            365 * crate::duration::DAY,
        );
        assert!(later.ranked.is_empty(), "{later:?}");
        assert_eq!(users(&later.provisional), [2, 1, 3, 4]);
    }

    /// T47: Weng-Lin is ranked by μ − 3σ, not μ.
    #[test]
    fn weng_lin_ranks_by_mu_minus_three_sigma() {
        let wl = |rating, uncertainty| Rating::WengLin {
            rating,
            uncertainty,
        };
        let mut standings = vec![standing(1, wl(30.0, 3.9)), standing(2, wl(28.0, 1.0))];
        for s in &mut standings {
            s.last = None;
        }
        let mut games: Vec<RatedGame> = Vec::new();
        for (i, (a, b)) in [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4)].iter().enumerate() {
            let mut g = duel(i as u64, *a, *b);
            g.kind = GameKind::MagicChess;
            games.push(g);
        }
        let b = board(standings, &games, GameKind::MagicChess, GLOBAL, 0);
        let users: Vec<u64> = b.ranked.iter().map(|x| x.standing.user).collect();
        assert_eq!(users, [2, 1], "25 = 28 − 3 ahead of 18.3 = 30 − 3·3.9");
    }
}
