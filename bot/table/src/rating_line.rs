//! The line a rated game's result carries: each player's rating before and after the game
//! (ruling T39).
//!
//! The table assesses a game that ends ([`Ratings::rated_game`]: who is rated, their places, when
//! it ended) and hands that to the store with the write that stores the end, which counts it in
//! the same transaction. The result message is stored in that same write, so its line is
//! computed here from the same assessment and the ratings as they stand just before the write:
//! the two agree unless another game of the same player is stored in between, which `/stats`
//! then shows.

use super::{Res, Table};
use tokar_model::rating::levels::level_of;
use tokar_model::rating::records::RatedGame;
use tokar_model::rating::{update, Placing, Rating};
use tokar_model::record::{GameRecord, LogEntry, Phase};
use tokar_store::{pair_of, GLOBAL};
use tracing::{info, warn};

/// The rating of a game that ends: who is rated, and the line announcing the change.
#[derive(Clone, Copy)]
pub(crate) struct Ratings<'t> {
    pub(super) t: &'t Table,
}

impl Ratings<'_> {
    /// Names the bot in a game stored before records did (`PlayOptions::robot`), as the
    /// game ends: its seats are then rated as its level's player like any other's (T52).
    pub(super) fn mark_robot(&self, rec: &mut GameRecord) {
        let robot = self.t.robot().id;
        if rec.play.robot.is_none() && rec.members.iter().any(|m| m.user.id == robot) {
            rec.play.robot = Some(robot);
        }
    }

    /// The name a rated player is shown by: a person's name, `Tokar (hard)` for the bot's
    /// level (T52), `Tokar (all levels)` for the rating the bot held before its levels were
    /// rated apart.
    pub(super) async fn rated_name(&self, player: u64) -> String {
        let bot = &self.t.robot().name;
        match level_of(player) {
            Some(level) => format!("{bot} ({level})"),
            None if self.t.bot().is_robot(player) => format!("{bot} (all levels)"),
            None => self.t.records().name_of(player).await.name,
        }
    }

    /// The rated game a write that ends `rec` and appends `append` gives: its places from the
    /// whole log (the stored entries and `append`), assessed once, here, for the store to count
    /// and the result message to show. `None` for a game that is not rated (the reason is
    /// logged, T28, T29).
    pub(super) async fn rated_game(
        &self,
        rec: &GameRecord,
        append: &[LogEntry],
    ) -> Res<Option<RatedGame>> {
        if rec.rated != Some(true) || rec.phase != Phase::Finished {
            return Ok(None);
        }
        let id = rec.id;
        let stored = self.t.records().read(move |s| s.log(id)).await?;
        // The log as the write will store it.
        let log: Vec<LogEntry> = (0..rec.log_len)
            .filter_map(|seq| {
                append
                    .iter()
                    .chain(stored.iter())
                    .find(|e| e.seq == seq)
                    .cloned()
            })
            .collect();
        match RatedGame::of(rec, &log) {
            Ok(rated) => Ok(Some(rated)),
            Err(why) => {
                info!(game = id, why, "not rated");
                Ok(None)
            }
        }
    }

    /// `Rating (Arcana, this server): alice 1500? → 1662?, bob 1500? → 1338?` for the rated
    /// game `rated` that `rec`'s end gives; `None` when the pair limit leaves it unrated
    /// (T48). A line that cannot be worked out is logged and left out: the result is sent
    /// without it.
    pub(super) async fn rating_line(&self, rec: &GameRecord, rated: &RatedGame) -> Option<String> {
        match self.rating_change(rec, rated).await {
            Ok(line) => line,
            Err(e) => {
                warn!(game = rec.id, error = %e, "result sent without its rating line");
                None
            }
        }
    }

    async fn rating_change(&self, rec: &GameRecord, rated: &RatedGame) -> Res<Option<String>> {
        let (placings, at) = (&rated.placings, rated.at);
        let (kind, scope) = (
            rec.kind,
            rec.guild.filter(|g| *g != GLOBAL).unwrap_or(GLOBAL),
        );
        if let Some((a, b)) = pair_of(placings) {
            let pair = self
                .t
                .records()
                .read(move |s| s.pair_games(kind, a, b))
                .await?;
            if pair.full(at) {
                return Ok(None);
            }
        }
        let users: Vec<u64> = placings.iter().map(|p| p.user).collect();
        let standings = self
            .t
            .records()
            .read(move |s| {
                users
                    .iter()
                    .map(|&u| s.standing(kind, scope, u))
                    .collect::<Result<Vec<_>, _>>()
            })
            .await?;
        let pairs: Vec<(Placing, Rating)> = placings
            .iter()
            .cloned()
            .zip(standings)
            .map(|(p, s)| {
                let before = s.map_or_else(|| Rating::initial(kind), |s| s.rating.aged(s.last, at));
                (p, before)
            })
            .collect();
        let after = update(kind, &pairs);
        let mut parts = Vec::new();
        for ((p, before), after) in pairs.iter().zip(after) {
            let name = match rec.members.iter().find(|m| m.user.id == p.user) {
                Some(m) => m.user.name.clone(),
                None => self.rated_name(p.user).await,
            };
            parts.push(format!("{name} {} → {}", before.shown(), after.shown()));
        }
        let place = if scope == GLOBAL {
            "all servers"
        } else {
            "this server"
        };
        Ok(Some(format!(
            "Rating ({}, {place}): {}.",
            kind.title(),
            parts.join(", ")
        )))
    }
}
