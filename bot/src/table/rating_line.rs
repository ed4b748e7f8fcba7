//! The line a rated game's result carries: each player's rating before and after the game
//! (ruling T39).
//!
//! Ratings are updated in the storage write that stores the end (`storage/ratings.rs`), after
//! the result message is built, since the message is stored in that same write. The line is
//! therefore computed here the same way, from the same log and the ratings as they stand just
//! before the write: the two agree unless another game of the same player is stored in
//! between, which `/stats` then shows.

use super::{Res, Table};
use crate::rating::{assess, update, Placing, Rating};
use crate::record::{GameRecord, LogEntry};
use crate::storage::{pair_of, GLOBAL};
use tracing::warn;

impl Table {
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
        let parts: Vec<String> = pairs
            .iter()
            .zip(after)
            .map(|((p, before), after)| {
                let name = rec
                    .members
                    .iter()
                    .find(|m| m.user.id == p.user)
                    .map_or_else(|| format!("<@{}>", p.user), |m| m.user.name.clone());
                format!("{name} {} → {}", before.shown(), after.shown())
            })
            .collect();
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
