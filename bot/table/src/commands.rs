//! The routing of a typed command to the service of its group, and the table's handle on
//! each of those services (see docs/table.md, "How the table is built").

use super::channels::Channels;
use super::games::Games;
use super::league::Leagues;
use super::league_games::LeagueGames;
use super::listing::Listing;
use super::lobby::Lobby;
use super::names::Names;
use super::offers::Offers;
use super::rating_line::Ratings;
use super::robot_moves::RobotMoves;
use super::schedule::Schedule;
use super::standings::Standings;
use super::turns::Turns;
use super::vacation::Vacations;
use super::{Reply, Request, Res, Table};
use tokar_model::Command;

impl Table {
    pub(crate) async fn dispatch(&self, req: &Request) -> Res<Vec<Reply>> {
        match &req.command {
            Command::New(n) => self.lobby().cmd_new(req, n).await,
            Command::Accept { game, options } => self.lobby().cmd_accept(req, *game, options).await,
            Command::Decline { game } => self.lobby().cmd_decline(req, *game).await,
            Command::Join { game, options } => self.lobby().cmd_join(req, *game, options).await,
            Command::Play { game, action } => self.turns().cmd_play(req, *game, action).await,
            Command::Hint { game } => self.robot_moves().cmd_hint(req, *game).await,
            Command::Board { game } => self.turns().cmd_board(req, *game).await,
            Command::Moves { game, square, page } => {
                self.turns()
                    .cmd_private(req, "moves", *game, square.as_deref(), *page)
                    .await
            }
            Command::Hand { game } => self.turns().cmd_private(req, "hand", *game, None, 1).await,
            Command::Resign { game, confirm } => {
                self.offers().cmd_resign(req, *game, *confirm).await
            }
            Command::Draw { game, answer } => {
                self.offers().offer(req, "draw", *game, *answer).await
            }
            Command::Undo { game, answer } => {
                self.offers().offer(req, "undo", *game, *answer).await
            }
            Command::Claim { game } => self.offers().cmd_claim(req, *game).await,
            Command::Games { server, page } => self.listing().cmd_games(req, *server, *page).await,
            Command::History { game } => self.listing().cmd_history(req, *game).await,
            Command::Export { game } => self.listing().cmd_export(req, *game).await,
            Command::Replay { game } => self.listing().cmd_replay(req, *game).await,
            Command::Rules { game, unit } => {
                self.listing()
                    .cmd_rules(req, game.clone(), unit.clone())
                    .await
            }
            Command::Settings { reminder, deadline } => {
                self.listing().cmd_settings(req, *reminder, *deadline).await
            }
            Command::Vacation { state } => self.vacations().cmd_vacation(req, *state).await,
            Command::Button { custom_id } => self.turns().cmd_button(req, custom_id).await,
            Command::Resume { game } => self.channels().cmd_resume(req, *game).await,
            Command::Follow { game, stop } => self.listing().cmd_follow(req, *game, *stop).await,
            Command::Leaderboard { game, scope } => {
                self.standings().cmd_leaderboard(req, *game, *scope).await
            }
            Command::Stats { user, against } => {
                self.standings().cmd_stats(req, *user, *against).await
            }
            Command::League(l) => self.leagues().cmd_league(req, l).await,
            Command::Server {
                threads,
                rated_bots,
            } => self.channels().cmd_server(req, *threads, *rated_bots).await,
            Command::Help => Ok(vec![Reply::private(
                &req.channel,
                &req.user,
                tokar_model::command::declare::help(),
            )]),
        }
    }

    /// What every command shares: the game meant, the turn message, a change's write (`games.rs`).
    pub(crate) fn games(&self) -> Games<'_> {
        Games { t: self }
    }

    /// /new, /accept, /join, /decline and the lobby's sweep (`lobby.rs`).
    pub(crate) fn lobby(&self) -> Lobby<'_> {
        Lobby { t: self }
    }

    /// /play, /board, /moves, /hand and the buttons (`turns.rs`).
    pub(crate) fn turns(&self) -> Turns<'_> {
        Turns { t: self }
    }

    /// /resign, /draw, /undo, /claim (`offers.rs`).
    pub(crate) fn offers(&self) -> Offers<'_> {
        Offers { t: self }
    }

    /// What is read about games: /games, /history, /replay, /follow... (`listing.rs`).
    pub(crate) fn listing(&self) -> Listing<'_> {
        Listing { t: self }
    }

    /// Games' threads, lost channels, /resume, /server (`channels.rs`).
    pub(crate) fn channels(&self) -> Channels<'_> {
        Channels { t: self }
    }

    /// /vacation and its notices (`vacation.rs`).
    pub(crate) fn vacations(&self) -> Vacations<'_> {
        Vacations { t: self }
    }

    /// /league (`league.rs`).
    pub(crate) fn leagues(&self) -> Leagues<'_> {
        Leagues { t: self }
    }

    /// A league's games (`league_games.rs`).
    pub(crate) fn league_games(&self) -> LeagueGames<'_> {
        LeagueGames { t: self }
    }

    /// /leaderboard and /stats (`standings.rs`).
    pub(crate) fn standings(&self) -> Standings<'_> {
        Standings { t: self }
    }

    /// The rating of a game that ends (`rating_line.rs`).
    pub(crate) fn ratings(&self) -> Ratings<'_> {
        Ratings { t: self }
    }

    /// The schedule's sweep (`schedule.rs`).
    pub(crate) fn schedule(&self) -> Schedule<'_> {
        Schedule { t: self }
    }

    /// The bot's moves and /hint (`robot_moves.rs`).
    pub(crate) fn robot_moves(&self) -> RobotMoves<'_> {
        RobotMoves { t: self }
    }

    /// The console's names and stored records (`names.rs`).
    pub(crate) fn names(&self) -> Names<'_> {
        Names { t: self }
    }
}
