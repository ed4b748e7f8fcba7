//! Ratings as they are kept: each player's standing per game kind and scope,
//! one history entry per rated game, the rated game with everyone's place, and
//! the count of rated games between two people (T48). The store keeps them
//! under the keys its `ratings` area lists.

use super::{assess, Placing, Rating, Score};
use crate::clock::Millis;
use crate::duration::DAY;
use crate::record::{GameRecord, LogEntry};
use serde::{Deserialize, Serialize};
use tokar_engine::catalog::GameKind;

/// The format of the records below; raise it with a reader of the old one.
/// Version 2 added [`Standing::last`] and the [`PairGames`] records; version 1
/// records read as version 2 ones without a date. Version 3 rates the bot's
/// seats as the player of its level ([`crate::rating::levels`], T52): its
/// records are laid out as version 2's, and a version 1 or 2 record under the
/// bot's own user id is its rating from before, all levels together, kept
/// as it was.
pub const RATINGS_FORMAT: u32 = 3;

/// Rated games between the same two people that count within
/// [`PAIR_WINDOW`] (T48); later ones in the window are not rated.
pub const PAIR_GAMES: usize = 5;

/// The window of [`PAIR_GAMES`]: thirty days, rolling.
pub const PAIR_WINDOW: Millis = 30 * DAY;

/// The scope of the rating kept across servers.
pub const GLOBAL: u64 = 0;

/// A player's rating and results in one game kind and scope.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    pub v: u32,
    pub user: u64,
    pub rating: Rating,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// When their last rated game here ended (version 2; `None` in version 1
    /// records): the rating ages from then (T47).
    #[serde(default)]
    pub last: Option<Millis>,
}

/// The rated games two people played against each other in a kind (the
/// times they ended, those within [`PAIR_WINDOW`] of the last), across
/// servers (T48).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PairGames {
    pub v: u32,
    pub at: Vec<Millis>,
}

impl PairGames {
    /// Whether a game ending `at` would be one too many (T48).
    pub fn full(&self, at: Millis) -> bool {
        self.at
            .iter()
            .filter(|t| at.saturating_sub(**t) < PAIR_WINDOW)
            .count()
            >= PAIR_GAMES
    }

    /// Counts a game ending `at`, forgetting those out of the window.
    pub fn add(&mut self, at: Millis) {
        self.at.retain(|t| at.saturating_sub(*t) < PAIR_WINDOW);
        self.at.push(at);
        self.v = RATINGS_FORMAT;
    }
}

/// The two people of a rated game of two people (others are not limited, T48).
pub fn pair_of(placings: &[Placing]) -> Option<(u64, u64)> {
    match placings {
        [a, b] => Some((a.user, b.user)),
        _ => None,
    }
}
/// One rated game in a player's history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryEntry {
    pub v: u32,
    pub game: u64,
    pub at: u64,
    pub before: Rating,
    pub after: Rating,
    pub score: Score,
    pub place: usize,
}

/// A game that was rated, with everyone's place: head-to-head results come
/// from these.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatedGame {
    pub v: u32,
    pub game: u64,
    pub kind: GameKind,
    pub at: u64,
    pub guild: Option<u64>,
    pub placings: Vec<Placing>,
}

impl RatedGame {
    /// The rated game that a finished game's record and whole log give: the
    /// places of [`assess`] and the time the game ended (its last action, or
    /// the moment its clock last changed hands when that is later: a draw
    /// agreed or a game ended at its deadline), which T47's ageing and T48's
    /// window read. `Err` says why the game is not rated. The table decides
    /// this before the write that ends the game, and `tokar restore` before it
    /// writes a game back; the store only counts what it is given.
    pub fn of(rec: &GameRecord, log: &[LogEntry]) -> Result<RatedGame, &'static str> {
        Ok(RatedGame {
            v: RATINGS_FORMAT,
            game: rec.id,
            kind: rec.kind,
            at: log.last().map_or(0, |e| e.at).max(rec.turn.since),
            guild: rec.guild,
            placings: assess(rec, log)?,
        })
    }
}
