//! Playing and looking: /play, /board, /moves, /hand and the buttons under a turn message.

use super::games::{marks, squeeze, Pick};
use super::text::{self, seats_label, seats_of};
use super::{moves_list, outcome, Loaded, Reply, Request, Res, Table};
use tokar_engine::{ActionError, Seat, Viewer};
use tokar_model::command::parse_game_number;
use tokar_model::quote::excerpt;
use tokar_model::record::{LogAction, LogEntry, Phase, FORMAT};

/// Playing: /play, /board, /moves, /hand, and the buttons under the messages.
#[derive(Clone, Copy)]
pub(crate) struct Turns<'t> {
    pub(super) t: &'t Table,
}

impl Turns<'_> {
    pub(super) async fn cmd_play(
        &self,
        req: &Request,
        given: Option<u64>,
        action: &str,
    ) -> Res<Vec<Reply>> {
        let (_guard, mut l) = self.t.games().playing(req, given).await?;
        self.t.games().strengthen(&mut l)?;
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
            )
            .into());
        }
        let mut errors = Vec::new();
        let mut chosen = None;
        for &seat in &mine {
            match game.normalize(seat, action) {
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
            Some((seat, n)) if seat != mine[0] && squeeze(&n) != squeeze(action) => {
                return Err(format!(
                    "'{}' is refused in game #{id}: {} To play it as {}, type action:\"{n}\".",
                    excerpt(action),
                    errors.first().map(|e| e.to_string()).unwrap_or_default(),
                    game.seat_name(seat)
                )
                .into());
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
                return Err(format!("'{}' is refused in game #{id}: {e}", excerpt(action)).into());
            }
        };
        let events = game
            .play(seat, &notation)
            .map_err(|e| format!("'{}' is refused in game #{id}: {e}", excerpt(action)))?;
        let game = game.clone();
        let before = l.rec.turn.waiting.clone();
        // Any action voids an open draw offer; when its offerer acts, they are told (T60).
        let lapsed = l
            .rec
            .draw_offer
            .as_ref()
            .is_some_and(|o| o.at_len == l.rec.log_len && o.by == req.user.id);
        let entry = LogEntry {
            format: FORMAT,
            seq: l.rec.log_len,
            seat: seat.0,
            user: req.user.id,
            action: LogAction::Play(notation.clone()),
            at: self.t.records().now(),
            chance: events.iter().any(|e| e.chance),
            text: events.iter().map(|e| e.text.clone()).collect(),
        };
        l.rec.last_marks = marks(&events);
        let staged = self
            .t
            .games()
            .stage_entries(l.rec, &game, version, vec![entry])
            .await?;
        // One picture a turn (ruling T16): a step after which the same users
        // act again (a Gladiator team's next commander, held by the same
        // player) is told in words; the picture comes when the turn passes.
        let picture = staged.rec.turn.waiting != before || outcome(&staged.rec, &game).is_over();
        let replies = self
            .t
            .games()
            .announce(
                req,
                &staged.rec,
                &game,
                &format!(
                    "{} ({}) plays {notation}{}",
                    req.user.name,
                    game.seat_name(seat),
                    if lapsed {
                        "; the draw offer lapsed"
                    } else {
                        ""
                    }
                ),
                &events,
                &before,
                picture,
            )
            .await;
        self.t.games().store(Some(req), staged, replies).await
    }

    pub(super) async fn cmd_board(&self, req: &Request, given: Option<u64>) -> Res<Vec<Reply>> {
        let id = self.t.games().pick(req, given, Pick::View).await?;
        let l = self.t.records().load(id).await?;
        let Some(game) = &l.game else {
            return Ok(vec![Reply::public(
                &req.channel,
                text::lobby_status(&l.rec),
            )]);
        };
        let view = game.view(Viewer::Spectator);
        let content = format!("{}\n{}", text::status(&l.rec, game), text::diagram(&view));
        let mut reply = Reply::public(&req.channel, content);
        // From the asker's own side when seated, else from seat 0's (T37).
        let side = seats_of(&l.rec, req.user.id)
            .first()
            .copied()
            .unwrap_or(Seat(0));
        reply.images = self
            .t
            .games()
            .picture(
                &l.rec,
                game,
                Viewer::Spectator,
                Some(side),
                Vec::new(),
                None,
            )
            .await;
        Ok(vec![reply])
    }

    /// /moves and /hand: private, for the user's own seats.
    pub(super) async fn cmd_private(
        &self,
        req: &Request,
        what: &str,
        given: Option<u64>,
        square: Option<&str>,
        page: usize,
    ) -> Res<Vec<Reply>> {
        let id = self.t.games().pick(req, given, Pick::Member).await?;
        let l = self.t.records().load(id).await?;
        self.private_info(req, &l, what, square, page).await
    }

    pub(super) async fn private_info(
        &self,
        req: &Request,
        l: &Loaded,
        what: &str,
        square: Option<&str>,
        page: usize,
    ) -> Res<Vec<Reply>> {
        let id = l.rec.id;
        let game = match &l.game {
            Some(g) => g,
            None => return Err(text::lobby_status(&l.rec).into()),
        };
        let seats = seats_of(&l.rec, req.user.id);
        if seats.is_empty() {
            return Err(format!("You are not playing in game #{id}.").into());
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
                return Err(format!("{} has no hidden hands.", l.rec.kind.title()).into());
            }
        } else {
            if outcome(&l.rec, game).is_over() {
                return Err(format!("Game #{id} is over.").into());
            }
            let view = game.view(Viewer::Spectator);
            let board = view.board;
            let cell =
                match square {
                    None => None,
                    Some(sq) => Some(board.parse(sq).ok_or_else(|| {
                        format!("'{}' is not a square of this board.", excerpt(sq))
                    })?),
                };
            let mut targets = Vec::new();
            let mut listed = Vec::new();
            let mut colours = Vec::new();
            for &s in &seats {
                let mut actions = game.legal_actions(s);
                if let Some(c) = cell {
                    actions.retain(|a| board.cells_named(a).contains(&c));
                    for a in &actions {
                        targets.extend(board.cells_named(a).into_iter().filter(|&t| t != c));
                    }
                }
                if actions.is_empty() {
                    continue;
                }
                colours.push(view.seats.get(s.index()).map(|v| v.colour));
                listed.push(moves_list::SeatActions {
                    name: game.seat_name(s),
                    actions,
                });
            }
            if listed.is_empty() {
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
            let pages = moves_list::pages(&view, &listed, &colours);
            let count = pages.len();
            let Some(chosen) = pages.into_iter().nth(page - 1) else {
                return Err(format!(
                    "Game #{id}: your list of moves has {count} page{}; page:{page} is not one of them.",
                    if count == 1 { "" } else { "s" }
                ).into());
            };
            lines = chosen;
            lines.extend(moves_list::page_footer(page, count, square));
            targets.sort();
            targets.dedup();
            images = self
                .t
                .games()
                .picture(&l.rec, game, Viewer::Seat(seats[0]), None, targets, cell)
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

    pub(super) async fn cmd_button(&self, req: &Request, cid: &str) -> Res<Vec<Reply>> {
        let parts: Vec<&str> = cid.split(':').collect();
        let (id, len, what) = match parts.as_slice() {
            ["tokar", id, len, what @ ("hand" | "moves")] => (
                parse_game_number(id)?,
                len.parse::<u64>()
                    .map_err(|_| "That button is not one of Tokar's.".to_string())?,
                *what,
            ),
            ["tokar", id, len, answer, rest @ ..] if rest.len() <= 1 => {
                let number = |t: &str| {
                    t.parse::<u64>()
                        .map_err(|_| "That button is not one of Tokar's.".to_string())
                };
                let until = rest.first().map(|t| number(t)).transpose()?;
                return self
                    .answer_click(req, parse_game_number(id)?, number(len)?, answer, until)
                    .await;
            }
            _ => return Err("That button is not one of Tokar's.".into()),
        };
        let l = self.t.records().load(id).await?;
        if l.rec.log_len != len || l.rec.phase != Phase::Playing {
            return Err(format!(
                "That button belongs to an earlier position of game #{id}; use /{what} game:{id} for the current one."
            ).into());
        }
        self.private_info(req, &l, what, None, 1).await
    }
}
