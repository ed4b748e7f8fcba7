//! Ratings: which finished games count (rulings T28-T30 in the README), the
//! places they give, and the new ratings. The mathematics is the
//! `skillratings` crate's: Glicko-2 for the duels of Arcana (Undead Arcana
//! included) and Arachne, Weng-Lin (OpenSkill) for Magic Chess and
//! Gladiator, whose games have several places and teams (T30). A kept
//! crate, checked against the published examples in the tests, rather than
//! formulas of our own.

use crate::record::{GameRecord, LogAction, LogEntry, Phase};
use serde::{Deserialize, Serialize};
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::{MultiTeamOutcome, Outcomes};
use std::collections::BTreeMap;
use tokar_engine::catalog::GameKind;
use tokar_engine::{Outcome, Seat, Viewer};

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

/// The side a seat plays on: Gladiator's White (seats 0-3) and Black (4-7),
/// Magic Chess partners (opposite armies, seats 0 and 2 against 1 and 3),
/// otherwise the seat itself.
fn team_of(rec: &GameRecord, seat: u8) -> u8 {
    match rec.kind {
        GameKind::Gladiator => seat / 4,
        GameKind::MagicChess if partners(rec) => seat % 2,
        _ => seat,
    }
}

fn partners(rec: &GameRecord) -> bool {
    rec.options
        .get("partners")
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("yes"))
}

/// The places of a finished game, or why it is not rated (T28, T29): only
/// games marked rated at /new, finished, between at least two people on two
/// sides, in which every person made at least two plays. Places come from the
/// outcome and, below the winners, from the order in which sides fell: a side
/// still standing at the end is ahead of every side that fell, and one that
/// fell later ahead of one that fell sooner (T30). A lost claim or a
/// resignation is the seat leaving the game, so it counts as that side's fall.
pub fn assess(rec: &GameRecord, log: &[LogEntry]) -> Result<Vec<Placing>, &'static str> {
    if rec.rated != Some(true) {
        return Err("the game was not rated");
    }
    if rec.phase != Phase::Finished {
        return Err("the game has not finished");
    }
    let people: Vec<(u64, &[u8])> = rec
        .members
        .iter()
        .filter(|m| !m.seats.is_empty())
        .map(|m| (m.user.id, m.seats.as_slice()))
        .collect();
    if people.len() < 2 {
        return Err("fewer than two people played");
    }
    if uses_glicko2(rec.kind) && people.len() != 2 {
        return Err("a duel's rating needs exactly two players");
    }
    // A game made from a record starts with the record's actions, logged under
    // the seats' new holders: they are not these players' moves. They end where
    // the last change of seed is (T13), as /undo's floor does.
    let from_record = rec.record_actions();
    for (user, _) in &people {
        let plays = log
            .iter()
            .skip(from_record)
            .filter(|e| e.user == *user && matches!(e.action, LogAction::Play(_)))
            .count();
        if plays < 2 {
            return Err("a player made fewer than two moves");
        }
    }
    let mut teams: BTreeMap<u8, Vec<u8>> = BTreeMap::new();
    for (_, seats) in &people {
        for &s in *seats {
            teams.entry(team_of(rec, s)).or_default().push(s);
        }
    }
    if teams.len() < 2 {
        return Err("everyone played on one side");
    }
    // Replay, noting after which log entry each seat fell.
    let mut game = tokar_engine::catalog::AnyGame::setup(rec.kind, &rec.options, rec.seed)
        .map_err(|_| "the game does not replay")?;
    let mut fell: BTreeMap<u8, usize> = BTreeMap::new();
    for (i, e) in log.iter().enumerate() {
        crate::table::reseed_at(rec, &mut game, i as u64);
        crate::table::apply_entry(&mut game, e).map_err(|_| "the game does not replay")?;
        let view = game.view(Viewer::Spectator);
        for (s, sv) in view.seats.iter().enumerate() {
            if sv.eliminated {
                fell.entry(s as u8).or_insert(i);
            }
        }
    }
    let outcome = rec.table_outcome.clone().unwrap_or_else(|| game.outcome());
    let winners: Vec<Seat> = match &outcome {
        Outcome::Won { winners, .. } => winners.clone(),
        Outcome::Drawn { .. } => Vec::new(),
        Outcome::Ongoing => return Err("the game has no result"),
    };
    // Sort key of a side: winners first, then standing, then by fall (later is better).
    let key = |seats: &[u8]| -> (u8, u8, usize) {
        if seats.iter().any(|s| winners.contains(&Seat(*s))) {
            return (0, 0, 0);
        }
        match seats
            .iter()
            .map(|s| fell.get(s))
            .collect::<Option<Vec<_>>>()
        {
            Some(falls) => (
                1,
                1,
                usize::MAX - falls.into_iter().max().copied().unwrap_or(0),
            ),
            None => (1, 0, 0),
        }
    };
    let keys: BTreeMap<u8, (u8, u8, usize)> = teams.iter().map(|(t, s)| (*t, key(s))).collect();
    let drawn = matches!(outcome, Outcome::Drawn { .. });
    let mut out = Vec::new();
    for (user, seats) in people {
        let team = team_of(rec, seats[0]);
        let k = keys[&team];
        let place = 1 + keys.values().filter(|o| **o < k).count();
        let score = match (k, drawn) {
            ((0, 0, 0), false) => Score::Win,
            ((_, 0, _), true) => Score::Draw,
            _ => Score::Loss,
        };
        out.push(Placing {
            user,
            team,
            place,
            score,
        });
    }
    Ok(out)
}

/// The ratings after a game, in the order of `players` (each with the
/// rating they had before).
pub fn update(kind: GameKind, players: &[(Placing, Rating)]) -> Vec<Rating> {
    if uses_glicko2(kind) && players.len() == 2 {
        let (a, b) = (&players[0], &players[1]);
        let outcome = match (a.0.score, b.0.score) {
            (Score::Win, _) => Outcomes::WIN,
            (_, Score::Win) => Outcomes::LOSS,
            _ => Outcomes::DRAW,
        };
        let (na, nb) = glicko2(
            &a.1.glicko2(kind),
            &b.1.glicko2(kind),
            &outcome,
            &Glicko2Config::new(),
        );
        return vec![na.into(), nb.into()];
    }
    // Sides in team order, each with its members' ratings.
    let mut sides: BTreeMap<u8, (usize, Vec<(usize, WengLinRating)>)> = BTreeMap::new();
    for (i, (p, r)) in players.iter().enumerate() {
        let side = sides.entry(p.team).or_insert((p.place, Vec::new()));
        side.1.push((i, r.weng_lin()));
    }
    let teams: Vec<Vec<WengLinRating>> = sides
        .values()
        .map(|(_, m)| m.iter().map(|(_, r)| *r).collect())
        .collect();
    let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = sides
        .values()
        .zip(&teams)
        .map(|((place, _), t)| (t.as_slice(), MultiTeamOutcome::new(*place)))
        .collect();
    let new = weng_lin_multi_team(&ranked, &WengLinConfig::new());
    let mut out: Vec<Rating> = players.iter().map(|(_, r)| *r).collect();
    for ((_, members), new_team) in sides.values().zip(new) {
        for ((i, _), r) in members.iter().zip(new_team) {
            out[*i] = r.into();
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

    /// The crate's documented Weng-Lin example of three teams of three
    /// (`weng_lin_multi_team`: places 2, 1, 3), through Tokar's update.
    #[test]
    fn weng_lin_teams_update_as_the_crates_example() {
        let wl = |rating, uncertainty| Rating::WengLin {
            rating,
            uncertainty,
        };
        let d = Rating::initial(GameKind::MagicChess);
        let players = [
            (placing(1, 0, 2, Score::Loss), d),
            (placing(2, 0, 2, Score::Loss), wl(30.0, 1.2)),
            (placing(3, 0, 2, Score::Loss), wl(21.0, 6.5)),
            (placing(4, 1, 1, Score::Win), d),
            (placing(5, 1, 1, Score::Win), wl(41.0, 1.4)),
            (placing(6, 1, 1, Score::Win), wl(19.2, 4.3)),
            (placing(7, 2, 3, Score::Loss), d),
            (placing(8, 2, 3, Score::Loss), wl(29.4, 1.6)),
            (placing(9, 2, 3, Score::Loss), wl(17.2, 2.1)),
        ];
        let new: Vec<f64> = update(GameKind::MagicChess, &players)
            .iter()
            .map(|r| (r.value() * 100.0).round())
            .collect();
        assert_eq!(
            new,
            [2538.0, 3001.0, 2123.0, 2796.0, 4108.0, 1999.0, 2166.0, 2928.0, 1699.0]
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
