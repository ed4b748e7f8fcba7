//! The bot's moves and /hint: the games that wait for the bot, played through
//! the same path as a person's `/play` (see `robot.rs` for how and why).

use super::games::Pick;
use super::leases::GAME_LEASE_MS;
use super::text::{is_member, seats_of};
use super::{outcome, Reply, Request, Res, Table};
use crate::ChannelRef;
use tokar_engine::catalog::{AnyGame, Options};
use tokar_engine::search::Level;
use tokar_engine::Seat;
use tokar_model::record::{Member, Named, Phase};
use tokar_store::Lease;
use tracing::{info, warn};

/// The bot's moves in the games that wait for it, and /hint.
#[derive(Clone, Copy)]
pub(crate) struct RobotMoves<'t> {
    pub(super) t: &'t Table,
}

/// Most moves the bot makes in one game per call: a game of bots alone
/// cannot hold one command forever; the rest follow at the next tick.
const MOVES_PER_CALL: usize = 64;

/// Refusals in a row after which the bot stops trying until the next call
/// (each one means the game moved while it thought, or a fault, logged).
const MISSES: usize = 3;

impl RobotMoves<'_> {
    /// The bot as a member of a game (it holds no options of its own: the
    /// game's defaults, or what the creator gave for its seat, apply).
    pub(super) async fn robot_member(&self) -> Member {
        let robot = self.t.robot().clone();
        if let Err(e) = self.t.records().remember_user(&robot).await {
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
        if self.t.bot().is_robot(user) {
            return Vec::new();
        }
        self.robot_moves_in_games_of(user).await
    }

    /// The bot's moves in every game that waits for it: at start-up (after a
    /// restart) and on each tick.
    pub(super) async fn robot_moves_due(&self) -> Vec<Reply> {
        self.robot_moves_in_games_of(self.t.robot().id).await
    }

    /// The bot's moves in those of `user`'s games that wait for it.
    async fn robot_moves_in_games_of(&self, user: u64) -> Vec<Reply> {
        let robot = self.t.robot().id;
        // Only the games `user` shares with the bot are read: after each
        // command of a player with hundreds of games behind them, two lists of
        // keys rather than every record they ever played.
        let shared = self
            .t
            .records()
            .read(move |s| {
                let mine = s.games_of_user(user)?;
                if user == robot {
                    return Ok(mine);
                }
                let its: std::collections::HashSet<u64> =
                    s.games_of_user(robot)?.into_iter().collect();
                Ok(mine.into_iter().filter(|id| its.contains(id)).collect())
            })
            .await;
        let recs = match shared {
            Ok(ids) => self.t.games().records_by_id(ids).await,
            Err(e) => Err(e),
        };
        let ids = match recs {
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
        let Some(_thinking) = self.t.bot().thinking_about(id) else {
            return Vec::new();
        };
        // Another process sharing the store may be thinking in this game.
        if !self.t.leases().hold(Lease::Game(id), GAME_LEASE_MS).await {
            return Vec::new();
        }
        let out = self.robot_turns(id).await;
        self.t.leases().release(Lease::Game(id)).await;
        out
    }

    /// The bot's turns in game `id`, this process holding the game.
    async fn robot_turns(&self, id: u64) -> Vec<Reply> {
        let me = self.t.robot().clone();
        let mut out = Vec::new();
        let mut moves = 0;
        let mut misses = 0;
        while moves < MOVES_PER_CALL && misses < MISSES {
            let l = match self.t.records().load(id).await {
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
            let seed = self.t.bot().robot_seed(id, l.rec.log_len);
            let Some((notation, why)) =
                self.t.bot().think(game, seat, l.rec.play.level, seed).await
            else {
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
            match self.t.dispatch(&req).await {
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

    /// /hint: the user's best action by the bot's search, shown only to them.
    pub(super) async fn cmd_hint(&self, req: &Request, given: Option<u64>) -> Res<Vec<Reply>> {
        let id = self.t.games().pick(req, given, Pick::Play).await?;
        let l = self.t.records().load(id).await?;
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
        let seed = self.t.bot().robot_seed(id, l.rec.log_len) ^ req.user.id;
        let (notation, why) = self
            .t
            .bot()
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
