//! Suggestions while a user types an option: their legal actions for /play,
//! their game numbers, game names, squares.

use super::games::Pick;
use super::listing::Listing;
use super::text::{is_member, seats_of};
use super::{ChannelRef, Request, UserRef};
use tokar_engine::catalog::GameKind;
use tokar_engine::Viewer;
use tokar_model::record::Phase;

/// Discord shows at most 25 suggestions.
const MAX: usize = 25;

/// Keeps the entries matching `typed`: those starting with it first, then
/// those containing it.
fn filter(items: Vec<(String, String)>, typed: &str) -> Vec<(String, String)> {
    let t = typed.trim().to_ascii_lowercase();
    let (mut first, rest): (Vec<_>, Vec<_>) = items
        .into_iter()
        .filter(|(l, v)| {
            t.is_empty()
                || l.to_ascii_lowercase().contains(&t)
                || v.to_ascii_lowercase().contains(&t)
        })
        .partition(|(l, v)| {
            l.to_ascii_lowercase().starts_with(&t) || v.to_ascii_lowercase().starts_with(&t)
        });
    first.extend(rest);
    first.truncate(MAX);
    first
}

impl Listing<'_> {
    /// Suggestions (label, value) for option `option` of a command being typed.
    pub(crate) async fn autocomplete(
        &self,
        user: &UserRef,
        channel: &ChannelRef,
        option: &str,
        typed: &str,
        game: Option<u64>,
    ) -> Vec<(String, String)> {
        let req = Request {
            user: user.clone(),
            channel: channel.clone(),
            command: tokar_model::Command::Help,
            interaction_token: None,
            manage_server: false,
        };
        match option.to_ascii_lowercase().as_str() {
            "action" | "square" => {
                let Ok(id) = self.t.games().pick(&req, game, Pick::Play).await else {
                    return Vec::new();
                };
                let Ok(l) = self.t.records().load(id).await else {
                    return Vec::new();
                };
                let Some(g) = &l.game else { return Vec::new() };
                let seats = seats_of(&l.rec, user.id);
                if option.eq_ignore_ascii_case("square") {
                    let view = g.view(Viewer::Spectator);
                    let mut squares: Vec<String> = view
                        .pieces
                        .iter()
                        .filter(|p| seats.contains(&p.seat))
                        .map(|p| view.board.name(p.cell))
                        .collect();
                    squares.sort();
                    squares.dedup();
                    return filter(squares.into_iter().map(|s| (s.clone(), s)).collect(), typed);
                }
                let mut actions = Vec::new();
                for s in seats {
                    actions.extend(g.legal_actions(s));
                }
                filter(actions.into_iter().map(|a| (a.clone(), a)).collect(), typed)
            }
            // /new picks a game by name: the adapter offers fixed choices, or
            // asks for option "kind".
            "kind" => filter(
                GameKind::ALL
                    .iter()
                    .filter(|k| k.available())
                    .map(|k| (k.title().to_string(), k.slug().to_string()))
                    .collect(),
                typed,
            ),
            "game" => {
                let Ok(recs) = self.t.games().records_of_user(user.id).await else {
                    return Vec::new();
                };
                let mut mine: Vec<(String, String)> = recs
                    .iter()
                    .filter(|r| matches!(r.phase, Phase::Lobby | Phase::Playing))
                    .filter(|r| is_member(r, user.id) || r.invited.iter().any(|i| i.id == user.id))
                    .map(|r| {
                        let state = if r.phase == Phase::Lobby {
                            "not started"
                        } else if r.turn.waiting.contains(&user.id) {
                            "your turn"
                        } else {
                            "waiting"
                        };
                        (
                            format!(
                                "#{} {} in #{} ({state})",
                                r.id,
                                r.kind.title(),
                                r.channel.name
                            ),
                            r.id.to_string(),
                        )
                    })
                    .collect();
                mine.sort_by_key(|(_, v)| v.parse::<u64>().unwrap_or(0));
                filter(mine, typed.trim_start_matches('#'))
            }
            _ => Vec::new(),
        }
    }
}
