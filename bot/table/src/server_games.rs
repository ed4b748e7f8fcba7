//! `/games scope:server`: what a server plays, at a glance: the games with seats
//! to take (each with its Join button), the games in play with whose turn it is, since when
//! and the time left, and the results of the games that ended last; in pages that each fit
//! one message (ruling T41).

use super::answers::lobby_buttons;
use super::listing::Listing;
use super::paging::{self, Item};
use super::text::{self, open_seats, seats_label};
use super::{Reply, Request, Res};
use tokar_model::duration;
use tokar_model::record::Phase;

/// How many finished games the server's list shows.
const FINISHED_SHOWN: usize = 10;

impl Listing<'_> {
    /// The server's games, page `page` of them (ruling T41: every game on some page).
    pub(super) async fn server_games(&self, req: &Request, page: usize) -> Res<Vec<Reply>> {
        let Some(guild) = req.channel.guild else {
            return Err(
                "This channel is not on a server; /games lists your own games here.".into(),
            );
        };
        let ids = self
            .t
            .records()
            .blocking(move |s| s.games_of_server(guild))
            .await?;
        let mut recs = self.t.games().records_by_id(ids).await?;
        // Those waiting longest first: the open seats nobody took yet, the turns pending longest.
        recs.sort_by_key(|r| (r.turn.since, r.id));
        let now = self.t.records().now();
        let mut open = Vec::new();
        let mut playing = Vec::new();
        let mut finished = Vec::new();
        for r in &recs {
            match r.phase {
                Phase::Cancelled => {}
                Phase::Finished => finished.push(r),
                Phase::Lobby => {
                    let by = r
                        .members
                        .iter()
                        .find(|m| m.user.id == r.creator)
                        .map_or("?", |m| m.user.name.as_str());
                    let mut item = Item::new(
                        "Open:",
                        format!(
                            "#{} {} in #{} by {by}: {}",
                            r.id,
                            r.kind.title(),
                            r.channel.name,
                            text::lobby_status(r)
                        ),
                    );
                    if open_seats(r) > 0 {
                        item.buttons.extend(
                            lobby_buttons(r)
                                .into_iter()
                                .filter(|b| b.custom_id.ends_with(":join")),
                        );
                    }
                    open.push(item);
                }
                Phase::Playing => {
                    let l = self.t.records().load(r.id).await?;
                    let Some(game) = &l.game else { continue };
                    let left = self.t.schedule().effective_deadline(r).await?.describe(now);
                    playing.push(Item::new(
                        "In play:",
                        format!(
                            "#{} {} in #{}, move {}: {} to act for {} ({left}).",
                            r.id,
                            r.kind.title(),
                            r.channel.name,
                            game.move_number(),
                            seats_label(r, game, &game.to_act()),
                            duration::format(now.saturating_sub(r.turn.since))
                        ),
                    ));
                }
            }
        }
        finished.sort_by_key(|r| std::cmp::Reverse((r.turn.since, r.id)));
        finished.truncate(FINISHED_SHOWN);
        let mut items = open;
        items.extend(playing);
        for line in self.finished_lines(&finished).await? {
            items.push(Item::new("Finished last:", line));
        }
        if items.is_empty() {
            items.push(Item::new(
                "",
                "none yet. /new game:arcana starts one.".into(),
            ));
        }
        let pages = paging::paginate(items);
        let (content, buttons) = paging::page_text(
            Some("Games on this server:"),
            &pages,
            page,
            "/games scope:server",
        )?;
        let mut reply = Reply::private(&req.channel, &req.user, content);
        reply.buttons = buttons;
        Ok(vec![reply])
    }
}
