//! Buttons that answer: Accept and Decline under an invitation, Join under an open seat,
//! Accept and Decline under a draw or takeback offer, and the confirmation `/resign` asks for.
//!
//! Each button's custom_id carries the game and the position it was made for
//! (`tokar:<game>:<log length>:<answer>`; the resign confirmation adds the time it expires).
//! A click runs the typed command it stands for, with `game:`, so it keeps every rule of that
//! command; what only a button can get wrong (a click on an answered invitation, a passed
//! position, an expired confirmation, someone the question was not put to) is refused here,
//! privately, with the reason (rulings T23, T24).

use super::offers::Offers;
use super::text::open_seats;
use super::turns::Turns;
use super::{Button, Reply, Request, Res};
use tokar_model::clock::Millis;
use tokar_model::command::{Answer, Args, Command};
use tokar_model::record::{GameRecord, Offer, Phase};

/// How long a `/resign` confirmation may be clicked (ruling T23).
pub(super) const RESIGN_CONFIRM_MS: Millis = 10 * 60 * 1000;

fn button(rec: &GameRecord, answer: &str, label: &str) -> Button {
    Button {
        custom_id: format!("tokar:{}:{}:{answer}", rec.id, rec.log_len),
        label: label.into(),
    }
}

/// Accept and Decline while anyone is invited, Join while a seat is open.
pub(super) fn lobby_buttons(rec: &GameRecord) -> Vec<Button> {
    let mut out = Vec::new();
    if rec.phase != Phase::Lobby {
        return out;
    }
    if !rec.invited.is_empty() {
        out.push(button(rec, "accept", &format!("Accept game #{}", rec.id)));
        out.push(button(rec, "decline", &format!("Decline game #{}", rec.id)));
    }
    if open_seats(rec) > 0 {
        out.push(button(rec, "join", &format!("Join game #{}", rec.id)));
    }
    out
}

/// Accept and Decline under an open offer; `kind` is `draw` or `undo`.
pub(super) fn offer_buttons(rec: &GameRecord, kind: &str) -> Vec<Button> {
    let what = if kind == "draw" { "draw" } else { "takeback" };
    vec![
        button(
            rec,
            &format!("{kind}-accept"),
            &format!("Accept the {what} (#{})", rec.id),
        ),
        button(
            rec,
            &format!("{kind}-decline"),
            &format!("Decline the {what} (#{})", rec.id),
        ),
    ]
}

/// The button that confirms a resignation, valid until `until` (ruling T23).
pub(super) fn resign_button(rec: &GameRecord, until: Millis) -> Button {
    Button {
        custom_id: format!("tokar:{}:{}:resign:{until}", rec.id, rec.log_len),
        label: format!("Resign game #{}", rec.id),
    }
}

/// The open offer of `kind` a click at position `len` answers, if it is still open.
fn open_offer(rec: &GameRecord, kind: &str, len: u64) -> Option<Offer> {
    let slot = if kind == "draw" {
        &rec.draw_offer
    } else {
        &rec.undo_offer
    };
    slot.clone()
        .filter(|o| rec.phase == Phase::Playing && rec.log_len == len && o.at_len == len)
}

impl Turns<'_> {
    /// A click on an answering button: checks that it still stands and that the clicker is
    /// one it asks, then runs the typed command it stands for.
    pub(super) async fn answer_click(
        &self,
        req: &Request,
        id: u64,
        len: u64,
        answer: &str,
        until: Option<Millis>,
    ) -> Res<Vec<Reply>> {
        let rec = self.t.records().load(id).await?.rec;
        let user = req.user.id;
        let game = Some(id);
        let command = match answer {
            "accept" | "decline" | "join" => {
                if rec.phase != Phase::Lobby {
                    return Err(format!(
                        "That button is from game #{id}'s invitation, which is closed: the game {}.",
                        match rec.phase {
                            Phase::Cancelled => "was cancelled",
                            _ => "has started",
                        }
                    ).into());
                }
                if answer != "join" && !rec.invited.iter().any(|i| i.id == user) {
                    return Err(format!(
                        "That button is for the players invited to game #{id}; you are not one of them{}.",
                        if open_seats(&rec) > 0 {
                            format!(" (/join game:{id} takes an open seat)")
                        } else {
                            String::new()
                        }
                    ).into());
                }
                match answer {
                    "accept" => Command::Accept {
                        game,
                        options: Args::default(),
                    },
                    "join" => Command::Join {
                        game,
                        options: Args::default(),
                    },
                    _ => Command::Decline { game },
                }
            }
            "draw-accept" | "draw-decline" | "undo-accept" | "undo-decline" => {
                let (kind, verb) = answer.split_once('-').unwrap_or((answer, ""));
                let what = if kind == "draw" { "draw" } else { "takeback" };
                let Some(offer) = open_offer(&rec, kind, len) else {
                    return Err(format!(
                        "That {what} offer in game #{id} is no longer open: it was answered or the game moved on."
                    ).into());
                };
                let asked = Offers::others(&rec, offer.by);
                if offer.by == user && verb == "accept" {
                    return Err(format!(
                        "You made that {what} offer in game #{id}; the other players answer it (Decline withdraws it)."
                    ).into());
                }
                if offer.by != user && !asked.contains(&user) {
                    return Err(format!(
                        "That {what} offer in game #{id} is for its players to answer; you are not one of them."
                    ).into());
                }
                let answer = Some(if verb == "accept" {
                    Answer::Accept
                } else {
                    Answer::Decline
                });
                if kind == "draw" {
                    Command::Draw { game, answer }
                } else {
                    Command::Undo { game, answer }
                }
            }
            "resign" => {
                let until = until.ok_or("That button is not one of Tokar's.")?;
                if !super::text::is_member(&rec, user) {
                    return Err(format!(
                        "That button confirms a resignation in game #{id}; you are not playing in it."
                    ).into());
                }
                if rec.phase != Phase::Playing || rec.log_len != len {
                    return Err(format!(
                        "Game #{id} moved on since you asked to resign, so that confirmation no longer stands; type /resign game:{id} again if you still mean it."
                    ).into());
                }
                if self.t.records().now() > until {
                    return Err(format!(
                        "That confirmation expired (it lasts {} minutes); type /resign game:{id} again if you still mean it.",
                        RESIGN_CONFIRM_MS / 60_000
                    ).into());
                }
                Command::Resign {
                    game,
                    confirm: true,
                }
            }
            _ => return Err("That button is not one of Tokar's.".into()),
        };
        let typed = Request {
            command,
            ..req.clone()
        };
        // Boxed: the click is itself a dispatched command.
        Box::pin(self.t.dispatch(&typed)).await
    }

    /// The question `/resign` puts before a game in play ends: a private message with the
    /// confirming button (ruling T23).
    pub(super) async fn resign_question(&self, req: &Request, id: u64) -> Res<Vec<Reply>> {
        let rec = self.t.records().load(id).await?.rec;
        let until = self.t.records().now() + RESIGN_CONFIRM_MS;
        let mut reply = Reply::private(
            &req.channel,
            &req.user,
            format!(
                "Resign game #{id}? Your seats concede. Confirm with the button within {} minutes, or type /resign game:{id} confirm:yes.",
                RESIGN_CONFIRM_MS / 60_000
            ),
        );
        reply.buttons.push(resign_button(&rec, until));
        Ok(vec![reply])
    }
}
