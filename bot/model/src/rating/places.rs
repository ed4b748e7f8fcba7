//! Who a finished game places where, and who it leaves out (rulings T29, T30,
//! T46, T48 in docs/rulings.md). The replay of the game finds the winners and the
//! order in which seats fell; [`place`] then turns seats into people.

use super::levels::level_player;
use super::{uses_glicko2, Placing, Score};
use crate::record::{GameRecord, LogAction, LogEntry, Phase};
use std::collections::{BTreeMap, BTreeSet};
use tokar_engine::catalog::GameKind;
use tokar_engine::{Outcome, Viewer};
use tracing::info;

/// The plays (skips and resignations do not count) each person must have
/// made for a game to count for them (T29).
pub const MIN_PLAYS: usize = 2;

/// The plays every person must have made before a resignation for the game
/// to be rated (T48): fewer, and the game is unrated for everyone.
pub const MIN_PLAYS_BEFORE_RESIGNING: usize = 5;

/// One person seated in a finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Person {
    pub user: u64,
    pub seats: Vec<u8>,
    /// Their plays after a record's actions (T29).
    pub plays: usize,
}

/// How a game ended, as [`place`] needs it.
#[derive(Clone, Debug, Default)]
pub struct Ending {
    /// The winning seats (none in a draw).
    pub winners: Vec<u8>,
    pub drawn: bool,
    /// After which log entry each fallen seat fell.
    pub fell: BTreeMap<u8, usize>,
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

/// Whether the game's sides are teams of several seats (Gladiator, Magic
/// Chess with partners) rather than one seat each.
fn sides_are_teams(rec: &GameRecord) -> bool {
    match rec.kind {
        GameKind::Gladiator => true,
        GameKind::MagicChess => partners(rec),
        _ => false,
    }
}

/// The places of a finished game, or why it is not rated (T28, T29, T46-T48):
/// only games marked rated at /new, finished, between at least two people on
/// two sides. Places come from the outcome and, below the winners, from the
/// order in which sides fell: a side still standing at the end is ahead of
/// every side that fell, and one that fell later ahead of one that fell
/// sooner (T30). A lost claim or a resignation is the seat leaving the game,
/// so it counts as that side's fall.
pub fn assess(rec: &GameRecord, log: &[LogEntry]) -> Result<Vec<Placing>, &'static str> {
    if rec.rated != Some(true) {
        return Err("the game was not rated");
    }
    if rec.phase != Phase::Finished {
        return Err("the game has not finished");
    }
    // A game made from a record starts with the record's actions, logged under
    // the seats' new holders: they are not these players' moves. They end where
    // the last change of seed is (T13), as /undo's floor does.
    let from_record = rec.record_actions();
    let own = log.get(from_record..).unwrap_or_default();
    let people = people(rec, own);
    if resigned_early(rec, &people, own) {
        return Err("a player resigned before everyone made five moves");
    }
    // Replay, noting after which log entry each seat fell.
    let mut game = tokar_engine::catalog::AnyGame::setup(rec.kind, &rec.options, rec.seed)
        .map_err(|_| "the game does not replay")?;
    let mut fell: BTreeMap<u8, usize> = BTreeMap::new();
    for (i, e) in log.iter().enumerate() {
        crate::replay::reseed_at(rec, &mut game, i as u64);
        crate::replay::apply_entry(&mut game, e).map_err(|_| "the game does not replay")?;
        let view = game.view(Viewer::Spectator);
        for (s, sv) in view.seats.iter().enumerate() {
            if sv.eliminated {
                fell.entry(s as u8).or_insert(i);
            }
        }
    }
    let outcome = rec.table_outcome.clone().unwrap_or_else(|| game.outcome());
    let ending = match &outcome {
        Outcome::Won { winners, .. } => Ending {
            winners: winners.iter().map(|s| s.0).collect(),
            drawn: false,
            fell,
        },
        Outcome::Drawn { .. } => Ending {
            winners: Vec::new(),
            drawn: true,
            fell,
        },
        Outcome::Ongoing => return Err("the game has no result"),
    };
    let (placings, left_out) = place(
        &people,
        |s| team_of(rec, s),
        sides_are_teams(rec),
        uses_glicko2(rec.kind),
        &ending,
    )?;
    for (user, why) in left_out {
        info!(game = rec.id, user, why, "not rated for this player");
    }
    Ok(placings)
}

/// The people seated in a game, each once with all their seats (the bot holds
/// a member entry per seat it took at /new), and their plays in `own` (the
/// log after a record's actions). The bot's seats are rated as the player of
/// the game's level (T52): the person's `user` is then that player's id.
fn people(rec: &GameRecord, own: &[LogEntry]) -> Vec<Person> {
    let mut out: Vec<(u64, Person)> = Vec::new();
    for m in rec.members.iter().filter(|m| !m.seats.is_empty()) {
        let id = m.user.id;
        match out.iter_mut().find(|(u, _)| *u == id) {
            Some((_, p)) => p.seats.extend(&m.seats),
            None => {
                let plays = own
                    .iter()
                    .filter(|e| e.user == id && matches!(e.action, LogAction::Play(_)))
                    .count();
                let user = match rec.play.robot {
                    Some(robot) if robot == id => level_player(rec.play.level),
                    _ => id,
                };
                out.push((
                    id,
                    Person {
                        user,
                        seats: m.seats.clone(),
                        plays,
                    },
                ));
            }
        }
    }
    out.into_iter().map(|(_, p)| p).collect()
}

/// Whether the game ended by a resignation (a seat conceded by its own
/// holder, not lost at a claim) before every person made
/// [`MIN_PLAYS_BEFORE_RESIGNING`] plays (T48).
fn resigned_early(rec: &GameRecord, people: &[Person], own: &[LogEntry]) -> bool {
    let Some(last) = own.last() else {
        return false;
    };
    let resigned = matches!(last.action, LogAction::Concede)
        && rec
            .members
            .iter()
            .any(|m| m.user.id == last.user && m.seats.contains(&last.seat));
    // Those left out for not playing (T29, T46) do not hold it up.
    resigned
        && people
            .iter()
            .any(|p| (MIN_PLAYS..MIN_PLAYS_BEFORE_RESIGNING).contains(&p.plays))
}

/// The people a game is not rated for, each with the reason.
pub type LeftOut = Vec<(u64, &'static str)>;

/// People's places from the sides' results: each person by the best of their
/// sides (T46); left out, with the reason, a person who holds seats on two
/// sides of a game played by teams (T46), and in a game of more than two
/// people one who made fewer than [`MIN_PLAYS`] plays (T46). In a game of two
/// people such a player makes the game unrated (T29).
pub fn place(
    people: &[Person],
    team_of: impl Fn(u8) -> u8,
    sides_are_teams: bool,
    duel: bool,
    ending: &Ending,
) -> Result<(Vec<Placing>, LeftOut), &'static str> {
    if people.len() < 2 {
        return Err("fewer than two people played");
    }
    if duel && people.len() != 2 {
        return Err("a duel's rating needs exactly two players");
    }
    let mut teams: BTreeMap<u8, Vec<u8>> = BTreeMap::new();
    for p in people {
        for &s in &p.seats {
            teams.entry(team_of(s)).or_default().push(s);
        }
    }
    if teams.len() < 2 {
        return Err("everyone played on one side");
    }
    // Sort key of a side: winners first, then standing, then by fall (later is better).
    let key = |seats: &[u8]| -> (u8, u8, usize) {
        if seats.iter().any(|s| ending.winners.contains(s)) {
            return (0, 0, 0);
        }
        match seats
            .iter()
            .map(|s| ending.fell.get(s))
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
    let mut left_out = Vec::new();
    let mut kept: Vec<(u64, u8)> = Vec::new();
    for p in people {
        if p.plays < MIN_PLAYS {
            if people.len() == 2 {
                return Err("a player made fewer than two moves");
            }
            left_out.push((p.user, "made fewer than two moves"));
            continue;
        }
        let sides: BTreeSet<u8> = p.seats.iter().map(|&s| team_of(s)).collect();
        if sides.len() > 1 && sides_are_teams {
            left_out.push((p.user, "held seats on opposing sides"));
            continue;
        }
        let Some(best) = sides.into_iter().min_by_key(|t| keys[t]) else {
            continue;
        };
        kept.push((p.user, best));
    }
    let kept_sides: BTreeSet<u8> = kept.iter().map(|(_, t)| *t).collect();
    if kept.len() < 2 || kept_sides.len() < 2 {
        return Err("fewer than two people on two sides remain to be rated");
    }
    let placings = kept
        .into_iter()
        .map(|(user, team)| {
            let k = keys[&team];
            let place = 1 + kept_sides.iter().filter(|t| keys[*t] < k).count();
            let score = match (k, ending.drawn) {
                ((0, 0, 0), false) => Score::Win,
                ((_, 0, _), true) => Score::Draw,
                _ => Score::Loss,
            };
            Placing {
                user,
                team,
                place,
                score,
            }
        })
        .collect();
    Ok((placings, left_out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rating::{update, Rating};

    fn person(user: u64, seats: &[u8], plays: usize) -> Person {
        Person {
            user,
            seats: seats.to_vec(),
            plays,
        }
    }

    /// T46: two-player Magic Chess with `partners:no`: alice holds Red (0) and
    /// Yellow (2), bob Blue (1) and Green (3). Red falls first, then Blue, then
    /// Green: Yellow wins. Alice is placed by Yellow, her best seat: first,
    /// and her rating goes up (it went down when she was placed by Red).
    #[test]
    fn partners_no_winner_gains() {
        let people = [person(1, &[0, 2], 10), person(2, &[1, 3], 10)];
        let ending = Ending {
            winners: vec![2],
            drawn: false,
            fell: BTreeMap::from([(0, 10), (1, 20), (3, 30)]),
        };
        let (placings, left_out) = place(&people, |s| s, false, false, &ending).unwrap();
        assert!(left_out.is_empty());
        assert_eq!((placings[0].place, placings[0].score), (1, Score::Win));
        assert_eq!((placings[1].place, placings[1].score), (2, Score::Loss));
        let start = Rating::initial(GameKind::MagicChess);
        let new = update(
            GameKind::MagicChess,
            &[(placings[0].clone(), start), (placings[1].clone(), start)],
        );
        assert!(new[0].value() > start.value(), "{new:?}");
        assert!(new[1].value() < start.value(), "{new:?}");
    }

    /// T46: in a game played by teams, a person with seats on both sides is
    /// left out (they could not lose); the others are still rated.
    #[test]
    fn opposing_seats_leave_their_holder_out() {
        // Gladiator-like: seats 0-3 White, 4-7 Black.
        let people = [
            person(1, &[0, 1], 10),
            person(2, &[2, 4], 10),
            person(3, &[3], 10),
            person(4, &[5, 6, 7], 10),
        ];
        let ending = Ending {
            winners: vec![0, 1, 2, 3],
            ..Ending::default()
        };
        let (placings, left_out) = place(&people, |s| s / 4, true, false, &ending).unwrap();
        assert_eq!(left_out, [(2, "held seats on opposing sides")]);
        let users: Vec<u64> = placings.iter().map(|p| p.user).collect();
        assert_eq!(users, [1, 3, 4]);
        // Without teams (each seat its own side) the same seats are placed by
        // the best one.
        let (placings, left_out) = place(&people, |s| s, false, false, &ending).unwrap();
        assert!(left_out.is_empty());
        assert_eq!(placings[1].score, Score::Win);
    }

    /// T46: in a team game, the one person who never acted is left out; the
    /// game stays rated for the other three. In a game of two, it is unrated.
    #[test]
    fn only_the_passive_person_is_left_out() {
        let people = [
            person(1, &[0, 1], 6),
            person(2, &[2, 3], 0),
            person(3, &[4, 5], 6),
            person(4, &[6, 7], 6),
        ];
        let ending = Ending {
            winners: vec![4, 5, 6, 7],
            ..Ending::default()
        };
        let (placings, left_out) = place(&people, |s| s / 4, true, false, &ending).unwrap();
        assert_eq!(left_out, [(2, "made fewer than two moves")]);
        assert_eq!(placings.len(), 3);
        assert!(placings
            .iter()
            .all(|p| (p.score == Score::Win) == (p.team == 1)));
        let two = [person(1, &[0], 6), person(2, &[1], 1)];
        assert_eq!(
            place(&two, |s| s, false, true, &ending),
            Err("a player made fewer than two moves")
        );
        // A whole side passive: nobody is left to play against.
        let alone = [
            person(1, &[0, 1], 6),
            person(2, &[2, 3], 6),
            person(3, &[4, 5], 0),
            person(4, &[6, 7], 1),
        ];
        assert!(place(&alone, |s| s / 4, true, false, &ending).is_err());
    }
}
