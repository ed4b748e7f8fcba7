//! The line a rated game's result carries: each player's rating before and after the game
//! (ruling T39).
//!
//! Ratings are updated in the storage write that stores the end (`storage/ratings.rs`), after
//! the result message is built, since the message is stored in that same write. The line is
//! therefore computed here the same way, from the same log and the ratings as they stand just
//! before the write: the two agree unless another game of the same player is stored in
//! between, which `/stats` then shows.

use super::{Res, Table};
use tokar_model::rating::levels::level_of;
use tokar_model::rating::{assess, update, Placing, Rating};
use tokar_model::record::{GameRecord, LogEntry};
use tokar_store::{pair_of, GLOBAL};
use tracing::warn;

impl Table {
    /// Names the bot in a game stored before records did (`PlayOptions::robot`), as the
    /// game ends: its seats are then rated as its level's player like any other's (T52).
    pub(super) fn mark_robot(&self, rec: &mut GameRecord) {
        let robot = self.robot().id;
        if rec.play.robot.is_none() && rec.members.iter().any(|m| m.user.id == robot) {
            rec.play.robot = Some(robot);
        }
    }

    /// The name a rated player is shown by: a person's name, `Tokar (hard)` for the bot's
    /// level (T52), `Tokar (all levels)` for the rating the bot held before its levels were
    /// rated apart.
    pub(super) async fn rated_name(&self, player: u64) -> String {
        let bot = &self.robot().name;
        match level_of(player) {
            Some(level) => format!("{bot} ({level})"),
            None if self.is_robot(player) => format!("{bot} (all levels)"),
            None => self.name_of(player).await.name,
        }
    }

    /// `Rating (Arcana, this server): alice 1500? → 1662?, bob 1500? → 1338?` for a rated
    /// game ended by the write that appends `append`; `None` for a game that is not rated
    /// (T28, T29). A read that fails leaves the line out: the result still goes out.
    pub(super) async fn rating_line(
        &self,
        rec: &GameRecord,
        append: &[LogEntry],
    ) -> Option<String> {
        match self.rating_change(rec, append).await {
            Ok(line) => line,
            Err(e) => {
                warn!(game = rec.id, error = %e, "result sent without its rating line");
                None
            }
        }
    }

    async fn rating_change(&self, rec: &GameRecord, append: &[LogEntry]) -> Res<Option<String>> {
        if rec.rated != Some(true) {
            return Ok(None);
        }
        let id = rec.id;
        let stored = self.read(move |s| s.log(id)).await?;
        // The log as the write will store it, as the storage's rating reads it.
        let log: Vec<LogEntry> = (0..rec.log_len)
            .filter_map(|seq| {
                append
                    .iter()
                    .chain(stored.iter())
                    .find(|e| e.seq == seq)
                    .cloned()
            })
            .collect();
        let Ok(placings) = assess(rec, &log) else {
            return Ok(None);
        };
        let (kind, scope) = (
            rec.kind,
            rec.guild.filter(|g| *g != GLOBAL).unwrap_or(GLOBAL),
        );
        // The end's time as the storage takes it (T47, T48).
        let at = log.last().map_or(0, |e| e.at).max(rec.turn.since);
        if let Some((a, b)) = pair_of(&placings) {
            let pair = self.read(move |s| s.pair_games(kind, a, b)).await?;
            if pair.full(at) {
                return Ok(None);
            }
        }
        let users: Vec<u64> = placings.iter().map(|p| p.user).collect();
        let standings = self
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
