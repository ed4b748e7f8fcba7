//! Tokar as a player: the bot's own seats, its moves, and /hint.
//!
//! The bot is a user like any other (its id is [`RobotConfig::user`]: on
//! Discord the bot's own account). It takes its seats at /new at once (it
//! "accepts" its invitation itself), and when a game waits for it, it moves
//! through the very same path as a person: a `/play` request run by
//! [`Table::dispatch`], which re-validates the action against the current
//! state, commits it (flushed) and announces it, pinging whoever is waited on
//! next.
//!
//! How replies come back: a command's own replies come first, then the bot's
//! answers in the games of the user who typed it ([`Table::handle`] appends
//! them). The user's action is committed and flushed before the bot starts
//! thinking, so nothing is lost if the bot is slow or the process dies; the
//! adapter shows the command's replies and the bot's in that order (the
//! console prints them so, which makes a transcript read as a game). Games
//! that wait for the bot for any other reason (a restart, a move made by a
//! timeout) get their move from [`Table::tick`], which the adapters call at
//! start-up and every minute.
//!
//! The search runs on the blocking pool, on a copy of the game, with no lock
//! held, so other games' commands (and this game's /board) are never delayed
//! by it. If the game moved on meanwhile, the `/play` is refused by the normal
//! checks and the bot thinks again on the new position.

use super::commands::Pick;
use super::leases::GAME_LEASE_MS;
use super::text::{is_member, seats_of};
use super::{outcome, Reply, Request, Res, Table};
use crate::{ChannelRef, UserRef};
use std::collections::HashSet;
use std::time::{Duration, Instant};
use tokar_engine::catalog::{AnyGame, Options};
use tokar_engine::search::{Budget, Level};
use tokar_engine::Seat;
use tokar_model::command::parse_mention;
use tokar_model::record::{Member, Named, Phase, PlayOptions};
use tokar_store::Lease;
use tracing::{info, warn};

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

/// Most moves the bot makes in one game per call: a game of bots alone
/// cannot hold one command forever; the rest follow at the next tick.
const MOVES_PER_CALL: usize = 64;

/// Refusals in a row after which the bot stops trying until the next call
/// (each one means the game moved while it thought, or a fault, logged).
const MISSES: usize = 3;

/// The bot's state in the table.
pub(super) struct Robot {
    cfg: RobotConfig,
    /// Games the bot is thinking about now: a second caller leaves them be.
    thinking: std::sync::Mutex<HashSet<u64>>,
}

impl Robot {
    pub(super) fn new(cfg: RobotConfig) -> Robot {
        Robot {
            cfg,
            thinking: Default::default(),
        }
    }
}

/// Removes a game from the thinking set when the bot is done with it.
struct Thinking<'a> {
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

impl Table {
    /// The bot's own user.
    pub fn robot(&self) -> &UserRef {
        &self.inner.robot.cfg.user
    }

    /// Whether the bot's answers run in the background (see [`RobotConfig::answer_later`]).
    pub(super) fn robot_answers_later(&self) -> bool {
        self.inner.robot.cfg.answer_later
    }

    pub(super) fn is_robot(&self, user: u64) -> bool {
        user == self.robot().id
    }

    /// Whether an `opponent:` value names the bot: its mention, or its name
    /// typed with or without `@`.
    pub(super) fn names_robot(&self, value: &str) -> bool {
        let t = value.trim();
        t.trim_start_matches('@')
            .eq_ignore_ascii_case(&self.robot().name)
            || parse_mention(t).is_ok_and(|id| self.is_robot(id))
    }

    /// The bot as a member of a game (it holds no options of its own: the
    /// game's defaults, or what the creator gave for its seat, apply).
    pub(super) async fn robot_member(&self) -> Member {
        let robot = self.robot().clone();
        if let Err(e) = self.remember_user(&robot).await {
            warn!(error = %e, "cannot record the bot's name");
        }
        Member {
            user: Named::from(&robot),
            seat_options: Options::new(),
            seats: Vec::new(),
        }
    }

    /// The bot's moves in the games of `user` that wait for it: run after
    /// each of the user's commands, once it is committed.
    pub(super) async fn robot_moves_for(&self, user: u64) -> Vec<Reply> {
        if self.is_robot(user) {
            return Vec::new();
        }
        self.robot_moves_in_games_of(user).await
    }

    /// The bot's moves in every game that waits for it: at start-up (after a
    /// restart) and on each tick.
    pub(super) async fn robot_moves_due(&self) -> Vec<Reply> {
        self.robot_moves_in_games_of(self.robot().id).await
    }

    /// The bot's moves in those of `user`'s games that wait for it.
    async fn robot_moves_in_games_of(&self, user: u64) -> Vec<Reply> {
        let robot = self.robot().id;
        let ids = match self.records_of_user(user).await {
            Ok(recs) => recs
                .into_iter()
                .filter(|r| r.phase == Phase::Playing && r.turn.waiting.contains(&robot))
                // Its messages could not be posted; it waits for /resume.
                .filter(|r| r.channel_lost.is_none())
                .map(|r| r.id)
                .collect(),
            Err(e) => {
                warn!(error = %e, "cannot list the games waiting for the bot");
                return Vec::new();
            }
        };
        self.robot_moves(ids).await
    }

    async fn robot_moves(&self, ids: Vec<u64>) -> Vec<Reply> {
        let mut out = Vec::new();
        for id in ids {
            out.extend(self.robot_game(id).await);
        }
        out
    }

    /// Plays the bot's seats in game `id` until the game waits for someone
    /// else (or is over).
    async fn robot_game(&self, id: u64) -> Vec<Reply> {
        let robot = &self.inner.robot;
        if !robot
            .thinking
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id)
        {
            return Vec::new();
        }
        let _thinking = Thinking { robot, id };
        // Another process sharing the store may be thinking in this game.
        if !self.hold(Lease::Game(id), GAME_LEASE_MS).await {
            return Vec::new();
        }
        let out = self.robot_turns(id).await;
        self.release(Lease::Game(id)).await;
        out
    }

    /// The bot's turns in game `id`, this process holding the game.
    async fn robot_turns(&self, id: u64) -> Vec<Reply> {
        let me = self.robot().clone();
        let mut out = Vec::new();
        let mut moves = 0;
        let mut misses = 0;
        while moves < MOVES_PER_CALL && misses < MISSES {
            let l = match self.load(id).await {
                Ok(l) => l,
                Err(e) => {
                    warn!(game = id, error = %e, "the bot cannot read the game");
                    break;
                }
            };
            if l.rec.phase != Phase::Playing {
                break;
            }
            let Some(game) = l.game else { break };
            if outcome(&l.rec, &game).is_over() {
                break;
            }
            let Some(seat) = first_to_act(&game, &seats_of(&l.rec, me.id)) else {
                break;
            };
            let seed = self.robot_seed(id, l.rec.log_len);
            let Some((notation, why)) = self.think(game, seat, l.rec.play.level, seed).await else {
                warn!(
                    game = id,
                    seat = seat.0,
                    "the search found no action for the bot"
                );
                break;
            };
            let req = Request {
                user: me.clone(),
                channel: ChannelRef::from(&l.rec.channel),
                command: tokar_model::Command::Play {
                    game: Some(id),
                    action: notation.clone(),
                },
                interaction_token: None,
                manage_server: false,
            };
            match self.dispatch(&req).await {
                Ok(replies) => {
                    info!(game = id, %why, "the bot played");
                    out.extend(replies);
                    moves += 1;
                    misses = 0;
                }
                Err(reason) => {
                    warn!(game = id, %notation, %reason, "the bot's move was refused; thinking again");
                    misses += 1;
                }
            }
        }
        out
    }

    /// Runs the search on the blocking pool, on a copy of the game, within
    /// the bot's budget; `None` when the seat has nothing to decide.
    async fn think(
        &self,
        game: AnyGame,
        seat: Seat,
        level: Level,
        seed: u64,
    ) -> Option<(String, String)> {
        let think = self.inner.robot.cfg.think;
        let iterations = self.inner.robot.cfg.iterations;
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
    fn robot_seed(&self, id: u64, log_len: u64) -> u64 {
        let base = self.inner.seed.unwrap_or(self.inner.entropy);
        let mut rng = tokar_engine::Rng::new(
            base ^ 0x7AC7_0B07_5EED_0001
                ^ id.wrapping_mul(0xD1B5_4A32_D192_ED03)
                ^ log_len.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
        rng.next_u64()
    }

    /// /hint: the user's best action by the bot's search, shown only to them.
    pub(super) async fn cmd_hint(&self, req: &Request, given: Option<u64>) -> Res<Vec<Reply>> {
        let id = self.pick(req, given, Pick::Play).await?;
        let l = self.load(id).await?;
        if !is_member(&l.rec, req.user.id) {
            return Err(
                format!("You are not playing in game #{id}; hints are for its players.").into(),
            );
        }
        if l.rec.phase != Phase::Playing {
            return Err(
                format!("Game #{id} is not being played; there is nothing to hint.").into(),
            );
        }
        // Ruling T49: a rated game is unassisted, whatever its play options say (games
        // stored before the ruling have hints on).
        if l.rec.rated == Some(true) {
            return Err(
                format!("Game #{id} is rated, and rated games are played without hints.").into(),
            );
        }
        if !l.rec.play.hints {
            return Err(format!(
                "Hints are off in game #{id}: its players chose hints:off at /new."
            )
            .into());
        }
        let game = l.game.ok_or("The game has not started.")?;
        let Some(seat) = first_to_act(&game, &seats_of(&l.rec, req.user.id)) else {
            return Err(format!(
                "It is not your turn in game #{id}; a hint is for the player to act."
            )
            .into());
        };
        let name = game.seat_name(seat);
        let seed = self.robot_seed(id, l.rec.log_len) ^ req.user.id;
        let (notation, why) = self
            .think(game.clone(), seat, Level::Normal, seed)
            .await
            .ok_or_else(|| format!("Game #{id}: {name} has nothing to decide now."))?;
        let chosen = notation.clone();
        let words = tokio::task::spawn_blocking(move || {
            tokar_engine::search::explain_any(&game, seat, &chosen, seed)
        })
        .await
        .unwrap_or_else(|e| {
            warn!(error = %e, "the hint's words were not found");
            Vec::new()
        });
        Ok(vec![Reply::private(
            &req.channel,
            &req.user,
            format!(
                "Game #{id}, hint for {name}: /play game:{id} action:{notation}\n{}",
                hint_reason(&notation, &words, &why)
            ),
        )])
    }
}

/// "Why: wins the Skeleton on c5; keeps all your pieces out of the enemy's reach. The search:
/// expected 0.62 for Human after 812 of 3000 playouts." The words first, the numbers after.
fn hint_reason(notation: &str, words: &[String], why: &str) -> String {
    let numbers = why
        .strip_prefix(notation)
        .map(|r| r.trim_start_matches(':').trim())
        .unwrap_or(why);
    if words.is_empty() {
        return format!("Why: the search prefers it: {numbers}.");
    }
    format!("Why: {}. The search: {numbers}.", words.join("; "))
}

/// The first of `mine` in the game's own order of the seats to act. That
/// order matters when one user holds several of them: in Gladiator Chess it
/// is the commander to move, then the King who may override him, so a player
/// holding the whole team is advised (and the bot plays) the commander's own
/// move rather than a King's override of every move.
fn first_to_act(game: &AnyGame, mine: &[Seat]) -> Option<Seat> {
    game.to_act().into_iter().find(|s| mine.contains(s))
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
