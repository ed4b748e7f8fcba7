//! Tokar as a player: who the bot is and its search (its moves and /hint are the
//! `RobotMoves` service, `robot_moves.rs`).
//!
//! The bot is a user like any other (its id is [`RobotConfig::user`]: on
//! Discord the bot's own account). It takes its seats at /new at once (it
//! "accepts" its invitation itself), and when a game waits for it, it moves
//! through the very same path as a person: a `/play` request run by
//! [`Table::dispatch`](crate::Table::dispatch), which re-validates the action
//! against the current state, commits it (flushed) and announces it, pinging
//! whoever is waited on next.
//!
//! How replies come back: a command's own replies come first, then the bot's
//! answers in the games of the user who typed it
//! ([`Table::handle`](crate::Table::handle) appends them). The user's action is
//! committed and flushed before the bot starts thinking, so nothing is lost if the
//! bot is slow or the process dies; the adapter shows the command's replies and the
//! bot's in that order (the console prints them so, which makes a transcript read
//! as a game). Games that wait for the bot for any other reason (a restart, a move
//! made by a timeout) get their move from [`Table::tick`](crate::Table::tick),
//! which the adapters call at start-up and every minute.
//!
//! The search runs on the blocking pool, on a copy of the game, with no lock
//! held, so other games' commands (and this game's /board) are never delayed
//! by it. If the game moved on meanwhile, the `/play` is refused by the normal
//! checks and the bot thinks again on the new position.

use super::Res;
use crate::UserRef;
use std::collections::HashSet;
use std::time::{Duration, Instant};
use tokar_engine::catalog::AnyGame;
use tokar_engine::search::{Budget, Level};
use tokar_engine::Seat;
use tokar_model::command::parse_mention;
use tokar_model::record::PlayOptions;
use tracing::warn;

/// Who the bot is and how long it thinks.
#[derive(Clone, Debug)]
pub struct RobotConfig {
    /// The bot's own user. On Discord: the bot account's id and name; on the
    /// console: the name `Tokar` (typed `@Tokar`).
    pub user: UserRef,
    /// Time for one move (and one hint) when `iterations` is not set.
    pub think: Duration,
    /// A fixed number of search iterations per move instead of a time: the
    /// bot's moves then depend only on the position and the table's seed
    /// (tests, reproducible console transcripts).
    pub iterations: Option<u32>,
    /// The bot answers a person's move in the background instead of before
    /// the person's command returns: its moves reach the players through the
    /// outbox. On Discord, so that the person's own answer is not held up by
    /// the bot's thinking; the console and tests keep the answer in order.
    pub answer_later: bool,
}

impl Default for RobotConfig {
    fn default() -> RobotConfig {
        RobotConfig {
            user: UserRef {
                id: DEFAULT_ID,
                name: "Tokar".into(),
            },
            think: Duration::from_secs(2),
            iterations: None,
            answer_later: false,
        }
    }
}

impl RobotConfig {
    /// The bot's own Discord user from its token, whose first part is the
    /// bot account's id in base64: the table is opened before the gateway
    /// says who the bot is. `None` when the token does not have that shape.
    pub fn for_discord_token(token: &str, name: &str) -> Option<RobotConfig> {
        let id = discord_user_id(token)?;
        Some(RobotConfig {
            user: UserRef {
                id,
                name: name.to_string(),
            },
            answer_later: true,
            ..RobotConfig::default()
        })
    }
}

/// Decodes the first, base64 part of a Discord bot token into the user id.
fn discord_user_id(token: &str) -> Option<u64> {
    let first = token.trim().split('.').next()?;
    let mut bits = 0u32;
    let mut nbits = 0;
    let mut out = Vec::new();
    for c in first.bytes().take_while(|&c| c != b'=') {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        };
        bits = (bits << 6) | v as u32;
        nbits += 6;
        if nbits >= 8 {
            nbits -= 8;
            out.push((bits >> nbits) as u8);
            bits &= (1 << nbits) - 1;
        }
    }
    std::str::from_utf8(&out).ok()?.parse().ok()
}

/// The bot's user id when none is configured (no person gets id 1: Discord ids
/// are large, console ids start at 1001).
pub const DEFAULT_ID: u64 = 1;

/// The bot's state in the table.
pub(super) struct Robot {
    cfg: RobotConfig,
    /// Games the bot is thinking about now: a second caller leaves them be.
    thinking: std::sync::Mutex<HashSet<u64>>,
    /// What the search's seeds are derived from: the table's `--seed`, else this
    /// process's own unpredictable number.
    seed_base: u64,
}

impl Robot {
    pub(super) fn new(cfg: RobotConfig, seed_base: u64) -> Robot {
        Robot {
            cfg,
            thinking: Default::default(),
            seed_base,
        }
    }

    /// The bot's own user.
    pub(super) fn user(&self) -> &UserRef {
        &self.cfg.user
    }

    /// Marks game `id` as being thought about, until the guard is dropped; `None` when
    /// another caller already thinks about it.
    pub(super) fn thinking_about(&self, id: u64) -> Option<Thinking<'_>> {
        if !self
            .thinking
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id)
        {
            return None;
        }
        Some(Thinking { robot: self, id })
    }

    /// Whether the bot's answers run in the background (see [`RobotConfig::answer_later`]).
    pub(super) fn robot_answers_later(&self) -> bool {
        self.cfg.answer_later
    }

    pub(super) fn is_robot(&self, user: u64) -> bool {
        user == self.user().id
    }

    /// Whether an `opponent:` value names the bot: its mention, or its name
    /// typed with or without `@`.
    pub(super) fn names_robot(&self, value: &str) -> bool {
        let t = value.trim();
        t.trim_start_matches('@')
            .eq_ignore_ascii_case(&self.user().name)
            || parse_mention(t).is_ok_and(|id| self.is_robot(id))
    }

    /// Runs the search on the blocking pool, on a copy of the game, within
    /// the bot's budget; `None` when the seat has nothing to decide.
    pub(super) async fn think(
        &self,
        game: AnyGame,
        seat: Seat,
        level: Level,
        seed: u64,
    ) -> Option<(String, String)> {
        let think = self.cfg.think;
        let iterations = self.cfg.iterations;
        let task = tokio::task::spawn_blocking(move || match iterations {
            Some(n) => game.suggest(seat, level, &Budget::iterations(n), seed),
            None => {
                let deadline = Instant::now() + think;
                let stop = move || Instant::now() >= deadline;
                game.suggest(seat, level, &Budget::until(&stop), seed)
            }
        });
        match task.await {
            Ok(choice) => choice,
            Err(e) => {
                warn!(error = %e, "the search task failed");
                None
            }
        }
    }

    /// The search's own seed for a position: from the table's seed (or this
    /// process's entropy), the game and the move, never from the game's seed,
    /// which decides the dice and the deck.
    pub(super) fn robot_seed(&self, id: u64, log_len: u64) -> u64 {
        let base = self.seed_base;
        let mut rng = tokar_engine::Rng::new(
            base ^ 0x7AC7_0B07_5EED_0001
                ^ id.wrapping_mul(0xD1B5_4A32_D192_ED03)
                ^ log_len.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
        rng.next_u64()
    }
}

/// Removes a game from the thinking set when the bot is done with it.
pub(super) struct Thinking<'a> {
    robot: &'a Robot,
    id: u64,
}

impl Drop for Thinking<'_> {
    fn drop(&mut self) {
        self.robot
            .thinking
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.id);
    }
}

/// What /new said about how the game is played: the bot's level, `hints:` if given (it
/// depends on whether the game is rated, known only later: [`PlayAsked::for_game`]),
/// `vacation:` (ruling T50), and how many seats the bot takes (`bots:`).
pub(super) struct PlayAsked {
    pub(super) level: Level,
    pub(super) hints: Option<bool>,
    pub(super) vacation: bool,
    pub(super) bots: usize,
}

impl PlayAsked {
    /// The game's play options once it is known whether it is `rated`: a rated game has no
    /// hints, and `hints:on` in one is refused rather than quietly dropped (ruling T49): the
    /// creator who wants hints makes the game unrated.
    pub(super) fn for_game(&self, rated: bool) -> Res<PlayOptions> {
        if rated && self.hints == Some(true) {
            return Err(
                "A rated game is played without hints: leave out hints:on, or add rated:no for a game with hints."
                    .into(),
            );
        }
        Ok(PlayOptions {
            level: self.level,
            hints: self.hints.unwrap_or(!rated),
            vacation: self.vacation,
            bound_to_record: false,
            robot: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bot_id_is_read_from_a_token() {
        // "123456789012345678" in base64, then two made-up parts.
        let token = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GAbCdE.abcdefghijklmnopqrstuvwxyz0123456789AB";
        let cfg = RobotConfig::for_discord_token(token, "Tokar").unwrap();
        assert_eq!(cfg.user.id, 123_456_789_012_345_678);
        assert_eq!(cfg.think, Duration::from_secs(2));
        assert!(RobotConfig::for_discord_token("not a token!", "Tokar").is_none());
        assert!(RobotConfig::for_discord_token("", "Tokar").is_none());
    }
}
