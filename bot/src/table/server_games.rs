//! `/games scope:server`: what a server plays, at a glance: the games with seats
//! to take (each with its Join button), the games in play with whose turn it is, since when
//! and the time left, and the results of the games that ended last.

use super::answers::lobby_buttons;
use super::text::{self, open_seats, seats_label};
use super::{Reply, Request, Res, Table};
use crate::duration;
use crate::record::Phase;

/// How many finished games the server's list shows.
const FINISHED_SHOWN: usize = 10;

impl Table {
    pub(super) async fn server_games(&self, req: &Request) -> Res<Vec<Reply>> {
        let Some(guild) = req.channel.guild else {
            return Err(
                "This channel is not on a server; /games lists your own games here.".into(),
            );
        };
        let ids = self.blocking(move |s| s.games_of_server(guild)).await?;
        let recs = self.records(ids).await?;
        let now = self.now();
        let mut open = Vec::new();
        let mut playing = Vec::new();
        let mut finished = Vec::new();
        let mut buttons = Vec::new();
        for r in &recs {
            match r.phase {
                Phase::Cancelled => {}
                Phase::Finished => finished.push(r),
                Phase::Lobby => {
                    let seats = open_seats(r);
                    let by = r
                        .members
                        .iter()
                        .find(|m| m.user.id == r.creator)
                        .map_or("?", |m| m.user.name.as_str());
                    open.push(format!(
                        "#{} {} in #{} by {by}: {}",
                        r.id,
                        r.kind.title(),
                        r.channel.name,
                        text::lobby_status(r)
                    ));
                    if seats > 0 {
                        buttons.extend(
                            lobby_buttons(r)
                                .into_iter()
                                .filter(|b| b.custom_id.ends_with(":join")),
                        );
                    }
                }
                Phase::Playing => {
                    let l = self.load(r.id).await?;
                    let Some(game) = &l.game else { continue };
                    let left = self.effective_deadline(r).await?.describe(now);
                    playing.push(format!(
                        "#{} {} in #{}, move {}: {} to act for {} ({left}).",
                        r.id,
                        r.kind.title(),
                        r.channel.name,
                        game.move_number(),
                        seats_label(r, game, &game.to_act()),
                        duration::format(now.saturating_sub(r.turn.since))
                    ));
                }
            }
        }
        finished.sort_by_key(|r| std::cmp::Reverse((r.turn.since, r.id)));
        finished.truncate(FINISHED_SHOWN);
        let mut lines = vec!["Games on this server:".to_string()];
        if !open.is_empty() {
            lines.push("Open:".into());
            lines.extend(open);
        }
        if !playing.is_empty() {
            lines.push("In play:".into());
            lines.extend(playing);
        }
        if !finished.is_empty() {
            lines.push("Finished last:".into());
        }
        lines.extend(self.finished_lines(&finished).await?);
        if lines.len() == 1 {
            lines.push("none yet. /new game:arcana starts one.".into());
        }
        // Discord shows at most 25 buttons on a message.
        buttons.truncate(25);
        let mut reply = Reply::private(&req.channel, &req.user, lines.join("\n"));
        reply.buttons = buttons;
        Ok(vec![reply])
    }
}
