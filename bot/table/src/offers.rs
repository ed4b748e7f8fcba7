//! Ending or undoing by agreement: /resign, /draw, /undo, and /claim at the move deadline.

use super::games::Games;
use super::games::{describe, retime, Pick};
use super::schedule::Deadline;
use super::text::{self, is_member, seats_of};
use super::{replay, Change, Loaded, Reply, Request, Res, Table, UserRef};
use tokar_engine::{Outcome, Seat};
use tokar_model::command::Answer;
use tokar_model::record::{GameRecord, LogAction, LogEntry, Offer, Phase, FORMAT};

/// What players propose or claim in a game: /resign, /draw, /undo, /claim.
#[derive(Clone, Copy)]
pub(crate) struct Offers<'t> {
    pub(super) t: &'t Table,
}

impl Offers<'_> {
    pub(super) async fn cmd_resign(
        &self,
        req: &Request,
        given: Option<u64>,
        confirmed: bool,
    ) -> Res<Vec<Reply>> {
        let id = self.t.games().pick(req, given, Pick::Member).await?;
        let _guard = self.t.records().lock(id).await;
        let mut l = self.t.records().load(id).await?;
        if !is_member(&l.rec, req.user.id) {
            return Err(format!("You are not playing in game #{id}.").into());
        }
        Games::reachable(&l.rec, req)?;
        let version = l.rec.version;
        match l.rec.phase {
            Phase::Finished => {
                return Err(format!("Game #{id} is over; it cannot be changed.").into())
            }
            Phase::Cancelled => return Err(format!("Game #{id} was cancelled.").into()),
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
                let staged = self
                    .t
                    .games()
                    .stage(l, Some(version), Change::none())
                    .await?;
                let reply = Reply::public(&Games::game_channel(&staged.rec, req), content);
                return self.t.games().store(Some(req), staged, vec![reply]).await;
            }
            // A game in play ends only on a confirmation (T23).
            Phase::Playing if !confirmed => {
                drop(_guard);
                return self.t.turns().resign_question(req, id).await;
            }
            Phase::Playing => {}
        }
        let seats = seats_of(&l.rec, req.user.id);
        let before = l.rec.turn.waiting.clone();
        let headline = format!("{} resigns game #{id}", req.user.name);
        self.concede_seats(req, l, version, &seats, &headline, &before, false)
            .await
    }

    /// The other players, who must agree to an offer by `by`.
    pub(super) fn others(rec: &GameRecord, by: u64) -> Vec<u64> {
        let mut v: Vec<u64> = rec
            .members
            .iter()
            .map(|m| m.user.id)
            .filter(|&u| u != by)
            .collect();
        v.dedup();
        v
    }

    /// /draw and /undo: offer, accept, decline. Any move voids an open offer.
    pub(super) async fn offer(
        &self,
        req: &Request,
        kind: &str,
        given: Option<u64>,
        answer: Option<Answer>,
    ) -> Res<Vec<Reply>> {
        let answer = answer.map(|a| match a {
            Answer::Offer => "offer",
            Answer::Accept => "accept",
            Answer::Decline => "decline",
        });
        let user = req.user.id;
        // Without game:, the game with an open offer of this kind to answer is meant
        // (or, to withdraw, the user's own).
        let decline = answer == Some("decline");
        let open_here = |r: &GameRecord| {
            let slot = if kind == "draw" {
                &r.draw_offer
            } else {
                &r.undo_offer
            };
            slot.as_ref()
                .is_some_and(|o| o.at_len == r.log_len && (decline || !o.agreed.contains(&user)))
        };
        let id = self
            .t
            .games()
            .pick_with(req, given, Pick::Play, open_here)
            .await?;
        let (_guard, mut l) = self.t.games().playing_id(req, id).await?;
        // Ruling T49: the bot grants no takeback in a rated game; the offer is refused
        // at once rather than left waiting for an answer that never comes.
        if kind == "undo"
            && l.rec.rated == Some(true)
            && Self::others(&l.rec, user).contains(&self.t.robot().id)
        {
            return Err(format!(
                "Game #{id} is rated: {} grants no takebacks in a rated game.",
                self.t.robot().name
            )
            .into());
        }
        let version = l.rec.version;
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
        let mut offer = match (slot, answer) {
            (None, Some("accept" | "decline")) => {
                return Err(format!("Nobody has offered {what} in game #{id}.").into());
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
                let staged = self
                    .t
                    .games()
                    .stage(l, Some(version), Change::none())
                    .await?;
                let reply = Reply::public(&Games::game_channel(&staged.rec, req), content);
                return self.t.games().store(Some(req), staged, vec![reply]).await;
            }
            (Some(o), _) if o.agreed.contains(&user) => {
                return Err(format!(
                    "You already agreed to {what} in game #{id}; waiting for the others."
                )
                .into());
            }
            (Some(mut o), _) => {
                o.agreed.push(user);
                o
            }
        };
        // Ruling T11: the bot agrees to every takeback at once (as a
        // computer opponent does) and to no draw.
        let others = Self::others(&l.rec, offer.by);
        let robot = self.t.robot().id;
        if others.contains(&robot) {
            if kind == "draw" {
                return Err(format!(
                    "Game #{id}: {} does not agree to draws; play on, or /resign.",
                    self.t.robot().name
                )
                .into());
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
                "{} {} in game #{id}. {}: /{kind} game:{id} answer:accept or /{kind} game:{id} answer:decline.",
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
            let staged = self
                .t
                .games()
                .stage(l, Some(version), Change::none())
                .await?;
            let mut reply = Reply::public(&Games::game_channel(&staged.rec, req), content);
            reply.mentions = names;
            reply.buttons = super::answers::offer_buttons(&staged.rec, kind);
            return self.t.games().store(Some(req), staged, vec![reply]).await;
        }
        l.rec.draw_offer = None;
        l.rec.undo_offer = None;
        let before = l.rec.turn.waiting.clone();
        if kind == "draw" {
            l.rec.table_outcome = Some(Outcome::Drawn {
                reason: "agreed by the players".into(),
            });
            let game = l.game.clone().ok_or("The game has not started.")?;
            let ended = retime(&mut l.rec, &game, self.t.records().now());
            let mut staged = self
                .t
                .games()
                .stage(l, Some(version), Change::none())
                .await?;
            staged.ended = ended;
            let saved = &staged.rec;
            let reply = self
                .t
                .games()
                .turn_message(
                    &Games::game_channel(saved, req),
                    saved,
                    &game,
                    text::status(saved, &game),
                    &before,
                )
                .await;
            return self.t.games().store(Some(req), staged, vec![reply]).await;
        }
        let to_len = offer.to_len;
        let log = self.t.records().blocking(move |s| s.log(id)).await?;
        let kept: Vec<LogEntry> = log.into_iter().filter(|e| e.seq < to_len).collect();
        let game = replay(&l.rec, &kept).map_err(|e| super::records::unloadable(id, &e))?;
        let undone = l.rec.log_len - to_len;
        l.rec.log_len = to_len;
        // A rekey past the point undone to goes with the actions after it; the next action
        // draws a new one (`strengthen`).
        l.rec.reseeds.retain(|r| r.after <= to_len);
        l.rec.last_marks.clear();
        retime(&mut l.rec, &game, self.t.records().now());
        let staged = self
            .t
            .games()
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
            .t
            .games()
            .turn_message(
                &Games::game_channel(saved, req),
                saved,
                &game,
                content,
                &before,
            )
            .await;
        self.t.games().store(Some(req), staged, vec![reply]).await
    }

    /// Where an undo asked by `user` returns to: before the user's own last
    /// actions (those since anyone else acted, the bot's answers after them
    /// aside), never past chance, nor into the actions of the record a game
    /// was created from (T13: its chance changed there).
    pub(super) async fn undo_target(&self, l: &Loaded, user: u64) -> Res<u64> {
        let id = l.rec.id;
        let log = self.t.records().blocking(move |s| s.log(id)).await?;
        let floor = l.rec.record_actions();
        let mut to = log.len();
        // Against the bot, its answers go back with the asker's actions
        // (ruling T11): first the bot's trailing actions, then the asker's.
        let bot_answers = log
            .iter()
            .rev()
            .take_while(|e| self.t.bot().is_robot(e.user))
            .count();
        let mine = |e: &LogEntry| e.user == user;
        if bot_answers > 0 && to > floor + bot_answers && mine(&log[to - 1 - bot_answers]) {
            to -= bot_answers;
            if let Some(e) = log[to..].iter().find(|e| e.chance) {
                return Err(format!(
                    "Game #{id}: the bot's answer {} ({}) drew on chance; it cannot be taken back.",
                    e.seq + 1,
                    describe(&e.action)
                )
                .into());
            }
        }
        let trailing = to;
        while to > floor && mine(&log[to - 1]) {
            let e = &log[to - 1];
            if e.chance {
                return Err(format!(
                    "Game #{id}: action {} ({}) drew on chance; it cannot be taken back.",
                    e.seq + 1,
                    describe(&e.action)
                )
                .into());
            }
            if !matches!(e.action, LogAction::Play(_)) {
                return Err(format!(
                    "Game #{id}: a resignation or skipped turn cannot be taken back."
                )
                .into());
            }
            to -= 1;
        }
        if to == trailing {
            return Err(match log.last() {
                None => format!("Game #{id}: nothing has been played yet.").into(),
                Some(_) if to == floor && floor > 0 => format!(
                    "Game #{id} started from a record after its {floor} actions; they cannot be taken back."
                ).into(),
                Some(_) => format!("Game #{id}: the last action is not yours, so there is nothing of yours to take back.").into(),
            });
        }
        Ok(to as u64)
    }

    pub(super) async fn cmd_claim(&self, req: &Request, given: Option<u64>) -> Res<Vec<Reply>> {
        let claimable = self.claimable_here(req).await?;
        let id = self
            .t
            .games()
            .pick_with(req, given, Pick::Play, |r| claimable.contains(&r.id))
            .await?;
        let (_guard, l) = self.t.games().playing_id(req, id).await?;
        let id = l.rec.id;
        let version = l.rec.version;
        let waiting = l.rec.turn.waiting.clone();
        if waiting.contains(&req.user.id) {
            return Err(format!("Game #{id} waits for you; you cannot claim it.").into());
        }
        let now = self.t.records().now();
        match self.t.schedule().effective_deadline(&l.rec).await? {
            Deadline::At(at) if now >= at => {}
            d @ Deadline::At(_) => {
                return Err(format!(
                    "Game #{id}: the move deadline has not passed; {}.",
                    d.describe(now)
                )
                .into())
            }
            d @ Deadline::Paused(_) => {
                return Err(format!(
                    "Game #{id}: the move clock is {}; it cannot be claimed.",
                    d.describe(now)
                )
                .into())
            }
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
        self.concede_seats(req, l, version, &absent, &headline, &waiting, true)
            .await
    }

    /// The user's games in this channel that they may claim now: another player's move
    /// deadline has passed.
    async fn claimable_here(&self, req: &Request) -> Res<Vec<u64>> {
        let now = self.t.records().now();
        let mut out = Vec::new();
        for r in self.t.games().candidates(req, Pick::Play).await? {
            if r.turn.waiting.is_empty() || r.turn.waiting.contains(&req.user.id) {
                continue;
            }
            if matches!(self.t.schedule().effective_deadline(&r).await?, Deadline::At(at) if now >= at)
            {
                out.push(r.id);
            }
        }
        Ok(out)
    }

    /// Concedes `seats` (a resignation, or absent seats `claimed` at the
    /// deadline), stores the entries as `req`'s user's, and announces the
    /// result under `headline`. `before` is who was waited on until now. A
    /// claimed seat did not resign: its loss is told as a loss at the move
    /// deadline, in the announcement, the log and the game's result.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn concede_seats(
        &self,
        req: &Request,
        mut l: Loaded,
        version: u64,
        seats: &[Seat],
        headline: &str,
        before: &[u64],
        claimed: bool,
    ) -> Res<Vec<Reply>> {
        let now = self.t.records().now();
        self.t.games().strengthen(&mut l)?;
        let game = l.game.as_mut().ok_or("The game has not started.")?;
        let mut events = Vec::new();
        let mut append = Vec::new();
        for &s in seats {
            if game.outcome().is_over() {
                break;
            }
            let mut ev = game.concede(s);
            // The first event tells the concession ("resigned", "concedes"); the
            // rest (pieces leaving, the turn passing) stand as the game tells them.
            if let (true, Some(first)) = (claimed, ev.first_mut()) {
                first.text = format!(
                    "{} did not act in time and loses at the move deadline.",
                    text::seat_label(&l.rec, game, s)
                );
            }
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
        if let (true, Outcome::Won { winners, .. }) = (claimed, game.outcome()) {
            let losers: Vec<Seat> = seats.to_vec();
            l.rec.table_outcome = Some(Outcome::Won {
                winners,
                reason: format!(
                    "at the move deadline ({} did not act in time)",
                    text::seats_label(&l.rec, game, &losers)
                ),
            });
        }
        let game = game.clone();
        let staged = self
            .t
            .games()
            .stage_entries(l.rec, &game, version, append)
            .await?;
        let replies = self
            .t
            .games()
            .announce(req, &staged.rec, &game, headline, &events, before, true)
            .await;
        self.t.games().store(Some(req), staged, replies).await
    }
}
