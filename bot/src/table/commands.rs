//! The commands once a game exists: playing, looking, offers, settings.

use super::args::{parse_game_number, Args};
use super::export::{self, GameExport};
use super::text::{self, is_member, seats_label, seats_of, users_of};
use super::{
    outcome, replay, Button, Change, ChannelRef, Loaded, Reply, Request, Res, Table, UserRef,
};
use crate::clock::Millis;
use crate::duration;
use crate::record::{GameRecord, LogAction, LogEntry, Offer, Phase, TurnClock, FORMAT};
use tokar_engine::catalog::{AnyGame, GameKind};
use tokar_engine::{ActionError, Event, Outcome, Seat, Viewer};

/// Which of the user's games a command may mean when none is named.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Pick {
    /// A started game the user plays; the one waiting for them if several.
    Play,
    /// A game the user plays or is setting up.
    Member,
    /// As `Member`, or else the only game being played in the channel.
    View,
}

const HELP: &str = "Commands: /new game:<arcana|magic-chess|gladiator|arachne> [options] [opponent:@user] [players:n] · \
/accept · /decline · /join · /play action:<move> · /hint · /board · /moves [square] · /hand · /resign · \
/draw [answer:accept|decline] · /undo [answer:accept|decline] · /claim · /games · /history · /export · \
/rules [game] [unit] · /settings [reminder:24h] [deadline:7d] · /vacation on|off · \
/resume game:<n> (a game whose channel was lost continues where you type it). \
Add game:<n> when you play several games in a channel.";

/// Sets who the game waits for; the clock restarts when that changes.
pub(super) fn retime(rec: &mut GameRecord, game: &AnyGame, now: Millis) {
    let waiting: Vec<u64> = if outcome(rec, game).is_over() {
        Vec::new()
    } else {
        users_of(rec, &game.to_act()).iter().map(|u| u.id).collect()
    };
    if waiting != rec.turn.waiting {
        rec.turn = TurnClock {
            since: now,
            waiting,
            reminded_at: None,
            deadline_told: false,
        };
    }
    if outcome(rec, game).is_over() {
        rec.phase = Phase::Finished;
    }
}

impl Table {
    pub(super) async fn dispatch(&self, command: &str, req: &Request) -> Res<Vec<Reply>> {
        match command {
            "new" => self.cmd_new(req).await,
            "accept" => self.cmd_accept(req).await,
            "decline" => self.cmd_decline(req).await,
            "join" => self.cmd_join(req).await,
            "play" => self.cmd_play(req).await,
            "hint" => self.cmd_hint(req).await,
            "board" => self.cmd_board(req).await,
            "moves" => self.cmd_private(req, "moves", "square").await,
            "hand" => self.cmd_private(req, "hand", "").await,
            "resign" => self.cmd_resign(req).await,
            "draw" => self.cmd_draw(req).await,
            "undo" => self.cmd_undo(req).await,
            "claim" => self.cmd_claim(req).await,
            "games" => self.cmd_games(req).await,
            "history" => self.cmd_history(req).await,
            "export" => self.cmd_export(req).await,
            "rules" => self.cmd_rules(req).await,
            "settings" => self.cmd_settings(req).await,
            "vacation" => self.cmd_vacation(req).await,
            "button" => self.cmd_button(req).await,
            "resume" => self.cmd_resume(req).await,
            "help" => Ok(vec![Reply::private(&req.channel, &req.user, HELP)]),
            "" => Err("Type a command, such as /help.".into()),
            other => Err(format!("There is no command /{other}; /help lists them.")),
        }
    }

    pub(super) async fn records(&self, ids: Vec<u64>) -> Res<Vec<GameRecord>> {
        self.blocking(move |s| {
            let mut out = Vec::new();
            for id in ids {
                if let Some(r) = s.game(id)? {
                    out.push(r);
                }
            }
            Ok(out)
        })
        .await
    }

    pub(super) async fn records_of_user(&self, user: u64) -> Res<Vec<GameRecord>> {
        let ids = self.blocking(move |s| s.games_of_user(user)).await?;
        self.records(ids).await
    }

    /// The game a command means: the one named, or the user's only candidate here.
    pub(super) async fn pick(&self, req: &Request, given: Option<u64>, pick: Pick) -> Res<u64> {
        if let Some(g) = given {
            return Ok(g);
        }
        let user = req.user.id;
        let here: Vec<GameRecord> = self
            .records_of_user(user)
            .await?
            .into_iter()
            .filter(|r| r.channel.id == req.channel.id && is_member(r, user))
            .filter(|r| match pick {
                Pick::Play => r.phase == Phase::Playing,
                _ => matches!(r.phase, Phase::Lobby | Phase::Playing),
            })
            .collect();
        let mut candidates: Vec<&GameRecord> = here.iter().collect();
        if pick == Pick::Play && candidates.len() > 1 {
            let waiting: Vec<&GameRecord> = candidates
                .iter()
                .copied()
                .filter(|r| r.turn.waiting.contains(&user))
                .collect();
            if waiting.len() == 1 {
                candidates = waiting;
            }
        }
        match candidates.as_slice() {
            [one] => Ok(one.id),
            [] if pick == Pick::View => {
                let c = req.channel.id;
                let ids = self.blocking(move |s| s.games_in_channel(c)).await?;
                let playing: Vec<u64> = self
                    .records(ids)
                    .await?
                    .into_iter()
                    .filter(|r| r.phase == Phase::Playing)
                    .map(|r| r.id)
                    .collect();
                match playing.as_slice() {
                    [one] => Ok(*one),
                    [] => Err("No game is being played in this channel.".into()),
                    many => Err(format!(
                        "Several games are being played here ({}): add game:<number>.",
                        many.iter()
                            .map(|i| format!("#{i}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                }
            }
            [] => Err(
                "You are not playing a game in this channel. /games lists yours; /new starts one."
                    .into(),
            ),
            many => Err(format!(
                "You play several games here ({}): add game:<number>.",
                many.iter()
                    .map(|r| format!("#{}", r.id))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    /// The message after a change of turn: the picture, the buttons, and a
    /// ping for exactly the users who are newly waited on.
    pub(super) async fn turn_message(
        &self,
        channel: &ChannelRef,
        rec: &GameRecord,
        game: &AnyGame,
        content: String,
        before: &[u64],
    ) -> Reply {
        let mut reply = Reply::public(channel, content);
        reply.mentions = rec
            .turn
            .waiting
            .iter()
            .filter(|u| !before.contains(u) && !self.is_robot(**u))
            .filter_map(|&u| rec.members.iter().find(|m| m.user.id == u))
            .map(|m| UserRef::from(&m.user))
            .collect();
        if !outcome(rec, game).is_over() {
            let view = game.view(Viewer::Spectator);
            if view.seats.iter().any(|s| s.hand_size.is_some()) {
                reply.buttons.push(Button {
                    custom_id: format!("tokar:{}:{}:hand", rec.id, rec.log_len),
                    label: "Show my hand".into(),
                });
            }
            reply.buttons.push(Button {
                custom_id: format!("tokar:{}:{}:moves", rec.id, rec.log_len),
                label: "My moves".into(),
            });
        }
        reply.images.extend(
            self.picture(rec, game, Viewer::Spectator, Vec::new(), None)
                .await,
        );
        reply
    }

    /// Refuses changes to a game from another channel than its own.
    fn own_channel(rec: &GameRecord, req: &Request) -> Res<()> {
        if rec.channel_lost.is_some() {
            Err(format!(
                "Game #{} lost its channel #{}: run /resume game:{} in the channel where it should go on.",
                rec.id, rec.channel.name, rec.id
            ))
        } else if rec.channel.id == req.channel.id {
            Ok(())
        } else {
            Err(format!(
                "Game #{} is played in #{}; act there.",
                rec.id, rec.channel.name
            ))
        }
    }

    /// A started, unfinished game the user plays, locked and loaded.
    async fn playing(
        &self,
        req: &Request,
        given: Option<u64>,
    ) -> Res<(tokio::sync::OwnedMutexGuard<()>, Loaded)> {
        let id = self.pick(req, given, Pick::Play).await?;
        let guard = self.lock(id).await;
        let l = self.load(id).await?;
        match l.rec.phase {
            Phase::Lobby => return Err(text::lobby_status(&l.rec)),
            Phase::Cancelled => return Err(format!("Game #{id} was cancelled.")),
            Phase::Finished => return Err(format!("Game #{id} is over; it cannot be changed.")),
            Phase::Playing => {}
        }
        if !is_member(&l.rec, req.user.id) {
            return Err(format!("You are not playing in game #{id}."));
        }
        Self::own_channel(&l.rec, req)?;
        Ok((guard, l))
    }

    async fn cmd_play(&self, req: &Request) -> Res<Vec<Reply>> {
        let mut args = Args::new(&req.options, Some("action"))?;
        let given = args.game()?;
        let action = args.require(
            "action",
            "the move in notation, such as action:b1-c3 (/moves lists yours)",
        )?;
        args.finish("play")?;
        let (_guard, mut l) = self.playing(req, given).await?;
        let id = l.rec.id;
        let version = l.rec.version;
        let seats = seats_of(&l.rec, req.user.id);
        let game = l.game.as_mut().ok_or("The game has not started.")?;
        let to_act = game.to_act();
        // In the game's order of the seats to act, not the user's: a user
        // holding a Gladiator commander and his King who types a plain move
        // makes the commander's move, and `king:` (which only the King's
        // seat reads) overrides it.
        let mine: Vec<Seat> = to_act
            .iter()
            .copied()
            .filter(|s| seats.contains(s))
            .collect();
        if mine.is_empty() {
            return Err(format!(
                "It is not your turn in game #{id}: waiting for {}.",
                seats_label(&l.rec, game, &to_act)
            ));
        }
        let mut errors = Vec::new();
        let mut chosen = None;
        for &seat in &mine {
            match game.normalize(seat, &action) {
                Ok(n) => {
                    chosen = Some((seat, n));
                    break;
                }
                Err(e) => errors.push(e),
            }
        }
        let (seat, notation) = match chosen {
            // A later seat's action is played only when typed in its full
            // notation: a user holding a Gladiator commander and his King who
            // types a plain move the commander may not make has not said "I
            // override" (rule 7), and an override costs the commander's move.
            Some((seat, n)) if seat != mine[0] && squeeze(&n) != squeeze(&action) => {
                return Err(format!(
                    "'{action}' is refused in game #{id}: {} To play it as {}, type action:\"{n}\".",
                    errors.first().map(|e| e.to_string()).unwrap_or_default(),
                    game.seat_name(seat)
                ));
            }
            Some(c) => c,
            None => {
                // The reason of a seat whose decision it was (a King's
                // override refused as a move), else the first seat's.
                let e = errors
                    .iter()
                    .find(|e| !matches!(e, ActionError::NotYourTurn(_)))
                    .or(errors.first())
                    .map(|e| e.to_string())
                    .unwrap_or_default();
                return Err(format!("'{action}' is refused in game #{id}: {e}"));
            }
        };
        let events = game
            .play(seat, &notation)
            .map_err(|e| format!("'{action}' is refused in game #{id}: {e}"))?;
        let game = game.clone();
        let before = l.rec.turn.waiting.clone();
        let entry = LogEntry {
            format: FORMAT,
            seq: l.rec.log_len,
            seat: seat.0,
            user: req.user.id,
            action: LogAction::Play(notation.clone()),
            at: self.now(),
            chance: events.iter().any(|e| e.chance),
            text: events.iter().map(|e| e.text.clone()).collect(),
        };
        l.rec.last_marks = marks(&events);
        let staged = self
            .stage_entries(l.rec, &game, version, vec![entry])
            .await?;
        let replies = self
            .announce(
                req,
                &staged.rec,
                &game,
                &format!(
                    "{} ({}) plays {notation}",
                    req.user.name,
                    game.seat_name(seat)
                ),
                &events,
                &before,
            )
            .await;
        self.store(Some(req), staged, replies).await
    }

    /// The public message for an applied change, and each seat's secrets.
    async fn announce(
        &self,
        req: &Request,
        rec: &GameRecord,
        game: &AnyGame,
        head: &str,
        events: &[Event],
        before: &[u64],
    ) -> Vec<Reply> {
        let mut lines = vec![format!("{head}.")];
        lines.extend(
            events
                .iter()
                .filter(|e| !e.text.is_empty())
                .map(|e| format!("· {}", e.text)),
        );
        lines.push(text::status(rec, game));
        let mut out = vec![
            self.turn_message(&req.channel, rec, game, lines.join("\n"), before)
                .await,
        ];
        // A bot seat's secrets (its drawn cards) are for nobody: the bot reads
        // its own hand from the game, and Discord cannot message it.
        for e in events {
            if let Some(secret) = &e.secret {
                if let Some(u) = text::holder(rec, secret.seat).filter(|u| !self.is_robot(u.id)) {
                    out.push(Reply::private(
                        &req.channel,
                        &UserRef::from(u),
                        format!("Game #{}: {}", rec.id, secret.text),
                    ));
                }
            }
        }
        out
    }

    async fn cmd_board(&self, req: &Request) -> Res<Vec<Reply>> {
        let mut args = Args::new(&req.options, Some("game"))?;
        let given = args.game()?;
        args.finish("board")?;
        let id = self.pick(req, given, Pick::View).await?;
        let l = self.load(id).await?;
        let Some(game) = &l.game else {
            return Ok(vec![Reply::public(
                &req.channel,
                text::lobby_status(&l.rec),
            )]);
        };
        let view = game.view(Viewer::Spectator);
        let mut content = format!("{}\n{}", text::status(&l.rec, game), text::diagram(&view));
        if let Some((seat, dice)) = &view.dice {
            content.push_str(&format!(
                "\nLast dice: {} rolled {:?}.",
                game.seat_name(*seat),
                dice
            ));
        }
        let mut reply = Reply::public(&req.channel, content);
        reply.images = self
            .picture(&l.rec, game, Viewer::Spectator, Vec::new(), None)
            .await;
        Ok(vec![reply])
    }

    /// /moves and /hand: private, for the user's own seats.
    async fn cmd_private(&self, req: &Request, what: &str, main: &str) -> Res<Vec<Reply>> {
        let mut args = Args::new(&req.options, (!main.is_empty()).then_some(main))?;
        let given = args.game()?;
        let square = if what == "moves" {
            args.take("square")
        } else {
            None
        };
        args.finish(what)?;
        let id = self.pick(req, given, Pick::Member).await?;
        let l = self.load(id).await?;
        self.private_info(req, &l, what, square.as_deref()).await
    }

    async fn private_info(
        &self,
        req: &Request,
        l: &Loaded,
        what: &str,
        square: Option<&str>,
    ) -> Res<Vec<Reply>> {
        let id = l.rec.id;
        let game = match &l.game {
            Some(g) => g,
            None => return Err(text::lobby_status(&l.rec)),
        };
        let seats = seats_of(&l.rec, req.user.id);
        if seats.is_empty() {
            return Err(format!("You are not playing in game #{id}."));
        }
        let mut lines = Vec::new();
        let mut images = Vec::new();
        if what == "hand" {
            let mut any_cards = false;
            for &s in &seats {
                let view = game.view(Viewer::Seat(s));
                any_cards |=
                    view.seats.iter().any(|v| v.hand_size.is_some()) || !view.hand.is_empty();
                lines.push(format!(
                    "{}: {}",
                    game.seat_name(s),
                    if view.hand.is_empty() {
                        "no cards".to_string()
                    } else {
                        view.hand.join(", ")
                    }
                ));
            }
            if !any_cards {
                return Err(format!("{} has no hidden hands.", l.rec.kind.title()));
            }
        } else {
            if outcome(&l.rec, game).is_over() {
                return Err(format!("Game #{id} is over."));
            }
            let board = game.view(Viewer::Spectator).board;
            let cell = match square {
                None => None,
                Some(sq) => Some(
                    board
                        .parse(sq)
                        .ok_or_else(|| format!("'{sq}' is not a square of this board."))?,
                ),
            };
            let mut targets = Vec::new();
            for &s in &seats {
                let mut actions = game.legal_actions(s);
                if let Some(c) = cell {
                    actions.retain(|a| cells_in(&board, a).contains(&c));
                    for a in &actions {
                        targets.extend(cells_in(&board, a).into_iter().filter(|&t| t != c));
                    }
                }
                if actions.is_empty() {
                    continue;
                }
                let total = actions.len();
                actions.truncate(60);
                lines.push(format!(
                    "{} ({total}): {}{}",
                    game.seat_name(s),
                    actions.join(", "),
                    if total > 60 { ", ..." } else { "" }
                ));
            }
            if lines.is_empty() {
                let to_act = game.to_act();
                return Ok(vec![Reply::private(
                    &req.channel,
                    &req.user,
                    match square {
                        Some(sq) if seats.iter().any(|s| to_act.contains(s)) => {
                            format!("Game #{id}: nothing of yours can act from or onto {sq}.")
                        }
                        _ => format!(
                            "Game #{id}: you have nothing to do now; waiting for {}.",
                            seats_label(&l.rec, game, &to_act)
                        ),
                    },
                )]);
            }
            targets.sort();
            targets.dedup();
            images = self
                .picture(&l.rec, game, Viewer::Seat(seats[0]), targets, cell)
                .await;
        }
        let mut reply = Reply::private(
            &req.channel,
            &req.user,
            format!("Game #{id}\n{}", lines.join("\n")),
        );
        reply.images = images;
        Ok(vec![reply])
    }

    async fn cmd_button(&self, req: &Request) -> Res<Vec<Reply>> {
        let mut args = Args::new(&req.options, Some("custom_id"))?;
        let cid = args.require("custom_id", "the button's id")?;
        args.finish("button")?;
        let parts: Vec<&str> = cid.split(':').collect();
        let (id, len, what) = match parts.as_slice() {
            ["tokar", id, len, what @ ("hand" | "moves")] => (
                parse_game_number(id)?,
                len.parse::<u64>()
                    .map_err(|_| "That button is not one of Tokar's.".to_string())?,
                *what,
            ),
            _ => return Err("That button is not one of Tokar's.".into()),
        };
        let l = self.load(id).await?;
        if l.rec.log_len != len || l.rec.phase != Phase::Playing {
            return Err(format!(
                "That button belongs to an earlier position of game #{id}; use /{what} game:{id} for the current one."
            ));
        }
        self.private_info(req, &l, what, None).await
    }

    async fn cmd_resign(&self, req: &Request) -> Res<Vec<Reply>> {
        let mut args = Args::new(&req.options, Some("game"))?;
        let given = args.game()?;
        args.finish("resign")?;
        let id = self.pick(req, given, Pick::Member).await?;
        let _guard = self.lock(id).await;
        let mut l = self.load(id).await?;
        if !is_member(&l.rec, req.user.id) {
            return Err(format!("You are not playing in game #{id}."));
        }
        Self::own_channel(&l.rec, req)?;
        let version = l.rec.version;
        match l.rec.phase {
            Phase::Finished => return Err(format!("Game #{id} is over; it cannot be changed.")),
            Phase::Cancelled => return Err(format!("Game #{id} was cancelled.")),
            Phase::Lobby => {
                let content = if l.rec.creator == req.user.id {
                    l.rec.phase = Phase::Cancelled;
                    format!("{} withdrew game #{id}; it is cancelled.", req.user.name)
                } else {
                    l.rec.members.retain(|m| m.user.id != req.user.id);
                    format!(
                        "{} left game #{id}. {}",
                        req.user.name,
                        text::lobby_status(&l.rec)
                    )
                };
                let staged = self.stage(l, Some(version), Change::none()).await?;
                let reply = Reply::public(&req.channel, content);
                return self.store(Some(req), staged, vec![reply]).await;
            }
            Phase::Playing => {}
        }
        let seats = seats_of(&l.rec, req.user.id);
        let before = l.rec.turn.waiting.clone();
        let headline = format!("{} resigns game #{id}", req.user.name);
        self.concede_seats(req, l, version, &seats, &headline, &before)
            .await
    }

    /// The other players, who must agree to an offer by `by`.
    fn others(rec: &GameRecord, by: u64) -> Vec<u64> {
        let mut v: Vec<u64> = rec
            .members
            .iter()
            .map(|m| m.user.id)
            .filter(|&u| u != by)
            .collect();
        v.dedup();
        v
    }

    async fn cmd_draw(&self, req: &Request) -> Res<Vec<Reply>> {
        self.offer(req, "draw").await
    }

    async fn cmd_undo(&self, req: &Request) -> Res<Vec<Reply>> {
        self.offer(req, "undo").await
    }

    /// /draw and /undo: offer, accept, decline. Any move voids an open offer.
    async fn offer(&self, req: &Request, kind: &str) -> Res<Vec<Reply>> {
        let mut args = Args::new(&req.options, Some("answer"))?;
        let given = args.game()?;
        let answer = args.take("answer").map(|a| a.to_ascii_lowercase());
        args.finish(kind)?;
        if let Some(a) = &answer {
            if !matches!(a.as_str(), "offer" | "accept" | "decline") {
                return Err(format!("answer:{a} must be offer, accept or decline."));
            }
        }
        let (_guard, mut l) = self.playing(req, given).await?;
        let id = l.rec.id;
        let version = l.rec.version;
        let user = req.user.id;
        let slot = if kind == "draw" {
            l.rec.draw_offer.clone()
        } else {
            l.rec.undo_offer.clone()
        };
        let slot = slot.filter(|o| o.at_len == l.rec.log_len);
        let what = if kind == "draw" {
            "a draw"
        } else {
            "taking back"
        };
        let mut offer = match (slot, answer.as_deref()) {
            (None, Some("accept" | "decline")) => {
                return Err(format!("Nobody has offered {what} in game #{id}."));
            }
            (None, _) => {
                let to_len = if kind == "undo" {
                    self.undo_target(&l, user).await?
                } else {
                    0
                };
                Offer {
                    by: user,
                    agreed: vec![user],
                    to_len,
                    at_len: l.rec.log_len,
                }
            }
            (Some(o), Some("decline")) => {
                let content = if o.by == user {
                    format!(
                        "{} withdraws the offer of {what} in game #{id}.",
                        req.user.name
                    )
                } else {
                    format!("{} declines {what} in game #{id}.", req.user.name)
                };
                if kind == "draw" {
                    l.rec.draw_offer = None
                } else {
                    l.rec.undo_offer = None
                }
                let staged = self.stage(l, Some(version), Change::none()).await?;
                let reply = Reply::public(&req.channel, content);
                return self.store(Some(req), staged, vec![reply]).await;
            }
            (Some(o), _) if o.agreed.contains(&user) => {
                return Err(format!(
                    "You already agreed to {what} in game #{id}; waiting for the others."
                ));
            }
            (Some(mut o), _) => {
                o.agreed.push(user);
                o
            }
        };
        // Ruling T11: the bot agrees to every takeback at once (as a
        // computer opponent does) and to no draw.
        let others = Self::others(&l.rec, offer.by);
        let robot = self.robot().id;
        if others.contains(&robot) {
            if kind == "draw" {
                return Err(format!(
                    "Game #{id}: {} does not agree to draws; play on, or /resign.",
                    self.robot().name
                ));
            }
            offer.agreed.push(robot);
        }
        offer.agreed.sort_unstable();
        offer.agreed.dedup();
        let missing: Vec<u64> = others
            .into_iter()
            .filter(|u| !offer.agreed.contains(u))
            .collect();
        if !missing.is_empty() {
            let names: Vec<UserRef> = l
                .rec
                .members
                .iter()
                .filter(|m| missing.contains(&m.user.id))
                .map(|m| UserRef::from(&m.user))
                .collect();
            let content = format!(
                "{} {} in game #{id}. {}: /{kind} answer:accept or /{kind} answer:decline.",
                req.user.name,
                if offer.by == user {
                    format!("offers {what}")
                } else {
                    format!("agrees to {what}")
                },
                names
                    .iter()
                    .map(|u| u.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            if kind == "draw" {
                l.rec.draw_offer = Some(offer)
            } else {
                l.rec.undo_offer = Some(offer)
            }
            let staged = self.stage(l, Some(version), Change::none()).await?;
            let mut reply = Reply::public(&req.channel, content);
            reply.mentions = names;
            return self.store(Some(req), staged, vec![reply]).await;
        }
        l.rec.draw_offer = None;
        l.rec.undo_offer = None;
        let before = l.rec.turn.waiting.clone();
        if kind == "draw" {
            l.rec.table_outcome = Some(Outcome::Drawn {
                reason: "agreed by the players".into(),
            });
            let game = l.game.clone().ok_or("The game has not started.")?;
            retime(&mut l.rec, &game, self.now());
            let staged = self.stage(l, Some(version), Change::none()).await?;
            let saved = &staged.rec;
            let reply = self
                .turn_message(
                    &req.channel,
                    saved,
                    &game,
                    text::status(saved, &game),
                    &before,
                )
                .await;
            return self.store(Some(req), staged, vec![reply]).await;
        }
        let to_len = offer.to_len;
        let log = self.blocking(move |s| s.log(id)).await?;
        let kept: Vec<LogEntry> = log.into_iter().filter(|e| e.seq < to_len).collect();
        let game = replay(&l.rec, &kept)?;
        let undone = l.rec.log_len - to_len;
        l.rec.log_len = to_len;
        l.rec.last_marks.clear();
        retime(&mut l.rec, &game, self.now());
        let staged = self
            .stage(
                Loaded {
                    rec: l.rec,
                    game: Some(game.clone()),
                },
                Some(version),
                Change {
                    append: vec![],
                    truncate_from: Some(to_len),
                },
            )
            .await?;
        let saved = &staged.rec;
        let content = format!(
            "Game #{id}: {undone} action{} taken back by agreement.\n{}",
            if undone == 1 { "" } else { "s" },
            text::status(saved, &game)
        );
        let reply = self
            .turn_message(&req.channel, saved, &game, content, &before)
            .await;
        self.store(Some(req), staged, vec![reply]).await
    }

    /// Where an undo asked by `user` returns to: before the user's own last
    /// actions (those since anyone else acted, the bot's answers after them
    /// aside), never past chance.
    async fn undo_target(&self, l: &Loaded, user: u64) -> Res<u64> {
        let id = l.rec.id;
        let log = self.blocking(move |s| s.log(id)).await?;
        let mut to = log.len();
        // Against the bot, its answers go back with the asker's actions
        // (ruling T11): first the bot's trailing actions, then the asker's.
        let bot_answers = log
            .iter()
            .rev()
            .take_while(|e| self.is_robot(e.user))
            .count();
        let mine = |e: &LogEntry| e.user == user;
        if bot_answers > 0 && to > bot_answers && mine(&log[to - 1 - bot_answers]) {
            to -= bot_answers;
            if let Some(e) = log[to..].iter().find(|e| e.chance) {
                return Err(format!(
                    "Game #{id}: the bot's answer {} ({}) drew on chance; it cannot be taken back.",
                    e.seq + 1,
                    describe(&e.action)
                ));
            }
        }
        let trailing = to;
        while to > 0 && mine(&log[to - 1]) {
            let e = &log[to - 1];
            if e.chance {
                return Err(format!(
                    "Game #{id}: action {} ({}) drew on chance; it cannot be taken back.",
                    e.seq + 1,
                    describe(&e.action)
                ));
            }
            if !matches!(e.action, LogAction::Play(_)) {
                return Err(format!(
                    "Game #{id}: a resignation or skipped turn cannot be taken back."
                ));
            }
            to -= 1;
        }
        if to == trailing {
            return Err(match log.last() {
                None => format!("Game #{id}: nothing has been played yet."),
                Some(_) => format!("Game #{id}: the last action is not yours, so there is nothing of yours to take back."),
            });
        }
        Ok(to as u64)
    }

    async fn cmd_claim(&self, req: &Request) -> Res<Vec<Reply>> {
        let mut args = Args::new(&req.options, Some("game"))?;
        let given = args.game()?;
        args.finish("claim")?;
        let (_guard, l) = self.playing(req, given).await?;
        let id = l.rec.id;
        let version = l.rec.version;
        let waiting = l.rec.turn.waiting.clone();
        if waiting.contains(&req.user.id) {
            return Err(format!("Game #{id} waits for you; you cannot claim it."));
        }
        let deadline = self.effective_deadline(&l.rec).await?;
        let now = self.now();
        if now < deadline {
            return Err(format!(
                "Game #{id}: the move deadline has not passed; {} left.",
                duration::format(deadline - now)
            ));
        }
        let game = l.game.as_ref().ok_or("The game has not started.")?;
        let absent: Vec<Seat> = game
            .to_act()
            .into_iter()
            .filter(|s| text::holder(&l.rec, *s).is_some_and(|u| waiting.contains(&u.id)))
            .collect();
        let headline = format!(
            "{} claims game #{id}: the move deadline passed",
            req.user.name
        );
        self.concede_seats(req, l, version, &absent, &headline, &waiting)
            .await
    }

    /// Concedes `seats` (a resignation, or absent seats claimed at the
    /// deadline), stores the entries as `req`'s user's, and announces the
    /// result under `headline`. `before` is who was waited on until now.
    async fn concede_seats(
        &self,
        req: &Request,
        mut l: Loaded,
        version: u64,
        seats: &[Seat],
        headline: &str,
        before: &[u64],
    ) -> Res<Vec<Reply>> {
        let now = self.now();
        let game = l.game.as_mut().ok_or("The game has not started.")?;
        let mut events = Vec::new();
        let mut append = Vec::new();
        for &s in seats {
            if game.outcome().is_over() {
                break;
            }
            let ev = game.concede(s);
            append.push(LogEntry {
                format: FORMAT,
                seq: l.rec.log_len + append.len() as u64,
                seat: s.0,
                user: req.user.id,
                action: LogAction::Concede,
                at: now,
                chance: false,
                text: ev.iter().map(|e| e.text.clone()).collect(),
            });
            events.extend(ev);
        }
        let game = game.clone();
        let staged = self.stage_entries(l.rec, &game, version, append).await?;
        let replies = self
            .announce(req, &staged.rec, &game, headline, &events, before)
            .await;
        self.store(Some(req), staged, replies).await
    }

    /// Stages `append`, entries whose actions made `rec`'s game into `game`:
    /// the log grows by them, pending draw and undo offers lapse, the next
    /// turn's clock starts; [`Table::store`] then saves all of it at once (if
    /// `rec` is still at `version`) with what it announces.
    pub(super) async fn stage_entries(
        &self,
        mut rec: GameRecord,
        game: &AnyGame,
        version: u64,
        append: Vec<LogEntry>,
    ) -> Res<super::outbox::Staged> {
        rec.log_len += append.len() as u64;
        rec.draw_offer = None;
        rec.undo_offer = None;
        retime(&mut rec, game, self.now());
        self.stage(
            Loaded {
                rec,
                game: Some(game.clone()),
            },
            Some(version),
            Change {
                append,
                truncate_from: None,
            },
        )
        .await
    }

    async fn cmd_games(&self, req: &Request) -> Res<Vec<Reply>> {
        let args = Args::new(&req.options, None)?;
        args.finish("games")?;
        let user = req.user.id;
        let mut recs = self.records_of_user(user).await?;
        recs.sort_by_key(|r| r.id);
        let now = self.now();
        let mut lines = Vec::new();
        let mut finished = 0;
        for r in &recs {
            match r.phase {
                Phase::Cancelled => {}
                Phase::Finished => finished += 1,
                Phase::Lobby => {
                    let invited = r.invited.iter().any(|i| i.id == user);
                    lines.push(format!(
                        "#{} {} in #{}: {}{}",
                        r.id,
                        r.kind.title(),
                        r.channel.name,
                        if invited {
                            format!("you are invited (/accept game:{}). ", r.id)
                        } else {
                            String::new()
                        },
                        text::lobby_status(r)
                    ));
                }
                Phase::Playing if r.channel_lost.is_some() => {
                    lines.push(format!(
                        "#{} {} lost its channel #{}: its clock is stopped; /resume game:{} where it should go on.",
                        r.id,
                        r.kind.title(),
                        r.channel.name,
                        r.id
                    ));
                }
                Phase::Playing => {
                    let l = self.load(r.id).await?;
                    let Some(game) = &l.game else { continue };
                    let whose = if r.turn.waiting.contains(&user) {
                        "your turn".to_string()
                    } else {
                        format!("{} to act", seats_label(r, game, &game.to_act()))
                    };
                    let deadline = self.effective_deadline(r).await?;
                    let left = if now >= deadline {
                        "deadline passed".to_string()
                    } else {
                        format!("{} left", duration::format(deadline - now))
                    };
                    lines.push(format!(
                        "#{} {} in #{}, move {}: {whose} ({left}).",
                        r.id,
                        r.kind.title(),
                        r.channel.name,
                        game.move_number()
                    ));
                }
            }
        }
        if finished > 0 {
            lines.push(format!(
                "{finished} finished game{}.",
                if finished == 1 { "" } else { "s" }
            ));
        }
        if lines.is_empty() {
            lines.push("You have no games. /new game:arcana opponent:@someone starts one.".into());
        }
        Ok(vec![Reply::private(
            &req.channel,
            &req.user,
            lines.join("\n"),
        )])
    }

    async fn cmd_history(&self, req: &Request) -> Res<Vec<Reply>> {
        let mut args = Args::new(&req.options, Some("game"))?;
        let given = args.game()?;
        args.finish("history")?;
        let id = self.pick(req, given, Pick::View).await?;
        let l = self.load(id).await?;
        let Some(game) = &l.game else {
            return Ok(vec![Reply::public(
                &req.channel,
                text::lobby_status(&l.rec),
            )]);
        };
        let log = self.blocking(move |s| s.log(id)).await?;
        let mut lines = vec![format!(
            "Game #{id} ({}): {}.",
            l.rec.kind.title(),
            text::lineup(&l.rec, game)
        )];
        const LAST: usize = 50;
        if log.len() > LAST {
            lines.push(format!(
                "({} earlier actions; /export has them all)",
                log.len() - LAST
            ));
        }
        for e in log.iter().skip(log.len().saturating_sub(LAST)) {
            lines.push(format!(
                "{}. {}: {}",
                e.seq + 1,
                text::seat_label(&l.rec, game, Seat(e.seat)),
                describe(&e.action)
            ));
        }
        if log.is_empty() {
            lines.push("Nothing played yet.".into());
        }
        lines.push(text::status(&l.rec, game));
        Ok(vec![Reply::public(&req.channel, lines.join("\n"))])
    }

    async fn cmd_export(&self, req: &Request) -> Res<Vec<Reply>> {
        let mut args = Args::new(&req.options, Some("game"))?;
        let given = args.game()?;
        args.finish("export")?;
        let id = self.pick(req, given, Pick::View).await?;
        let l = self.load(id).await?;
        if l.game.is_none() {
            return Err(text::lobby_status(&l.rec));
        }
        let log = self.blocking(move |s| s.log(id)).await?;
        let over = l.rec.phase == Phase::Finished;
        let record = export::write(&GameExport {
            kind: l.rec.kind,
            options: l.rec.options.clone(),
            seed: over.then_some(l.rec.seed),
            actions: log.iter().map(|e| (e.seat, e.action.clone())).collect(),
        });
        Ok(vec![export_reply(&req.channel, id, over, record)])
    }

    async fn cmd_rules(&self, req: &Request) -> Res<Vec<Reply>> {
        let mut args = Args::new(&req.options, Some("game"))?;
        let game = args.take("game");
        let unit = args.take("unit");
        args.finish("rules")?;
        let kind = match game {
            Some(g) => GameKind::parse(&g).ok_or_else(|| {
                format!(
                    "There is no game called '{g}': choose {}.",
                    GameKind::ALL.map(|k| k.slug()).join(", ")
                )
            })?,
            None => {
                let list: Vec<String> = GameKind::ALL
                    .iter()
                    .map(|k| {
                        format!(
                            "{} ({}){}",
                            k.title(),
                            k.slug(),
                            if k.available() {
                                ""
                            } else {
                                ", not playable yet"
                            }
                        )
                    })
                    .collect();
                return Ok(vec![Reply::private(
                    &req.channel,
                    &req.user,
                    format!(
                        "Games: {}. /rules game:<name> [unit:<unit>] shows one.",
                        list.join(", ")
                    ),
                )]);
            }
        };
        let text = kind.rules(unit.as_deref())?;
        Ok(vec![Reply::private(&req.channel, &req.user, text)])
    }

    async fn cmd_settings(&self, req: &Request) -> Res<Vec<Reply>> {
        let mut args = Args::new(&req.options, None)?;
        let reminder = args.take("reminder");
        let deadline = args.take("deadline");
        args.finish("settings")?;
        let mut me = self.user_record(&req.user).await?;
        if let Some(r) = reminder {
            me.reminder = if r.eq_ignore_ascii_case("off") {
                None
            } else {
                let d = duration::parse(&r)?;
                if d < duration::HOUR {
                    return Err("reminder must be at least 1h (or off).".into());
                }
                Some(d)
            };
        }
        if let Some(d) = deadline {
            let d = duration::parse(&d)?;
            if !(duration::DAY..=90 * duration::DAY).contains(&d) {
                return Err("deadline must be from 1d to 90d.".into());
            }
            me.deadline = d;
        }
        let show = format!(
            "Reminders while a game waits for you: {}. Move deadline of games you create: {}. Vacation: {}.",
            me.reminder.map_or("off".to_string(), |r| format!("every {}", duration::format(r))),
            duration::format(me.deadline),
            if me.on_vacation() { "on" } else { "off" }
        );
        let rec = me.clone();
        self.blocking(move |s| s.put_user(&rec)).await?;
        Ok(vec![Reply::private(&req.channel, &req.user, show)])
    }

    async fn cmd_vacation(&self, req: &Request) -> Res<Vec<Reply>> {
        let mut args = Args::new(&req.options, Some("state"))?;
        let state = args.take("state").map(|s| s.to_ascii_lowercase());
        args.finish("vacation")?;
        let mut me = self.user_record(&req.user).await?;
        let now = self.now();
        let content = match state.as_deref() {
            None => format!(
                "Vacation is {}. /vacation on pauses your move deadlines and reminders; /vacation off resumes them.",
                if me.on_vacation() { "on" } else { "off" }
            ),
            Some("on") if me.on_vacation() => return Err("Your vacation is already on.".into()),
            Some("off") if !me.on_vacation() => return Err("You are not on vacation.".into()),
            Some("on") => {
                me.vacations.push((now, None));
                "Vacation on: your move deadlines and reminders are paused until /vacation off.".into()
            }
            Some("off") => {
                if let Some(v) = me.vacations.last_mut() {
                    v.1 = Some(now);
                }
                "Welcome back: your move deadlines run again, extended by the time you were away.".into()
            }
            Some(other) => return Err(format!("/vacation takes on or off, not '{other}'.")),
        };
        if state.is_some() {
            let rec = me.clone();
            self.blocking(move |s| s.put_user(&rec)).await?;
        }
        Ok(vec![Reply::private(&req.channel, &req.user, content)])
    }
}

/// An action as the history shows it.
/// The longest message Discord takes (in characters).
const MESSAGE_LIMIT: usize = 2000;

/// /export's answer: the record in the message, or as a `.txt` file when the message would be
/// longer than Discord takes (a record cut across messages cannot be pasted back whole).
fn export_reply(channel: &ChannelRef, id: u64, over: bool, record: String) -> Reply {
    let secret = if over {
        ""
    } else {
        " (the seed stays secret until the game ends)"
    };
    let inline = format!(
        "Game #{id} record{secret}:\n`{record}`\nStart a new game from it: /new record:<the record>."
    );
    if inline.chars().count() <= MESSAGE_LIMIT {
        return Reply::public(channel, inline);
    }
    let name = format!("game-{id}-record.txt");
    let mut reply = Reply::public(
        channel,
        format!(
            "Game #{id} record{secret}: attached as {name} ({} characters, too long for a message). \
             Start a new game from it: /new record_file:<the file>.",
            record.chars().count()
        ),
    );
    reply.images.push(super::Image {
        name,
        png: record.into_bytes(),
    });
    reply
}

pub(super) fn describe(a: &LogAction) -> String {
    match a {
        LogAction::Play(n) => n.clone(),
        LogAction::Concede => "resigns".into(),
        LogAction::Skip => "turn skipped (deadline)".into(),
    }
}

pub(super) fn marks(events: &[Event]) -> Vec<(u16, tokar_engine::Mark)> {
    events
        .iter()
        .flat_map(|e| e.marks.iter().map(|(c, m)| (c.0, *m)))
        .collect()
}

/// The cells a notation names: each letter directly followed by one or two
/// digits (`e2`, `e3` in `e2xe3`), and the hub of a web, that the board knows.
pub(super) fn cells_in(board: &tokar_engine::Board, notation: &str) -> Vec<tokar_engine::Cell> {
    let t = notation.to_ascii_lowercase();
    let b = t.as_bytes();
    let mut out = Vec::new();
    for i in 0..b.len() {
        if !b[i].is_ascii_lowercase() {
            continue;
        }
        let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if (1..=2).contains(&digits) {
            if let Some(c) = board.parse(&t[i..i + 1 + digits]) {
                out.push(c);
            }
        }
    }
    for w in t.split(|c: char| !c.is_ascii_alphanumeric()) {
        if w == tokar_engine::board::HUB_NAME {
            out.extend(board.hub());
        }
    }
    out
}

/// A typed action compared loosely with a notation: case, spaces and dashes
/// aside (`King:B2B4` is `king: b2-b4`).
fn squeeze(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod export_tests {
    use super::*;

    #[test]
    fn a_long_record_is_a_file_and_a_short_one_a_message() {
        let ch = ChannelRef {
            id: 1,
            name: "t".into(),
        };
        let short = export_reply(&ch, 3, true, "tokar1|arcana||seed=1|0:b1-c3".into());
        assert!(short.content.contains("`tokar1|arcana"));
        assert!(short.images.is_empty());
        let long_record = format!("tokar1|arcana||{}", "0:b1-c3|1:b8-c6|".repeat(150));
        let long = export_reply(&ch, 3, false, long_record.clone());
        assert!(long.content.chars().count() <= MESSAGE_LIMIT);
        assert!(
            long.content.contains("game-3-record.txt"),
            "{}",
            long.content
        );
        assert_eq!(long.images.len(), 1);
        assert_eq!(
            long.images[0].png,
            long_record.into_bytes(),
            "the whole record, uncut"
        );
    }
}
