//! Following a game: `/follow game:N` asks for one ping when the game ends (ruling T26).
//!
//! Followers are kept in the game's record, so following, the end and the ping are written
//! together: the ping is a mention added to the game's ending announcement, which is stored in
//! the outbox in the same transaction as the end, and the list is emptied then, so a follower
//! is pinged once and never for turns.

use super::listing::Listing;
use super::{Change, Reply, Request, Res, UserRef};
use tokar_model::record::{GameRecord, Named, Phase};

/// The announcement of a game's end among `replies`: the first public one in the game's
/// channel, else the first public one.
pub(super) fn ending(rec: &GameRecord, replies: &[Reply]) -> Option<usize> {
    let channel = rec.channel.id;
    let public = |r: &Reply| r.ok && r.ephemeral_to.is_none();
    replies
        .iter()
        .position(|r| public(r) && r.channel.id == channel)
        .or_else(|| replies.iter().position(public))
}

/// Adds every person seated in a game that just ended to the mentions of its ending
/// announcement, once each (a user holding several seats is one mention), leaving out the
/// bot's own seats (`robot`): a game may last months, and the players who did not make the
/// last move learn that it is over from this ping (ruling T39).
pub(super) fn ping_players(rec: &GameRecord, replies: &mut [Reply], robot: impl Fn(u64) -> bool) {
    let Some(end) = ending(rec, replies).map(|i| &mut replies[i]) else {
        return;
    };
    for m in &rec.members {
        if !robot(m.user.id) && !end.mentions.iter().any(|x| x.id == m.user.id) {
            end.mentions.push(UserRef::from(&m.user));
        }
    }
}

/// Adds the game's followers to the mentions of its ending announcement and forgets them;
/// nothing happens while the game goes on.
pub(super) fn ping_followers(rec: &mut GameRecord, replies: &mut [Reply]) {
    if !matches!(rec.phase, Phase::Finished | Phase::Cancelled) || rec.followers.is_empty() {
        return;
    }
    let Some(end) = ending(rec, replies).map(|i| &mut replies[i]) else {
        return;
    };
    for f in rec.followers.drain(..) {
        if !end.mentions.iter().any(|m| m.id == f.id) {
            end.mentions.push(UserRef::from(&f));
        }
    }
}

impl Listing<'_> {
    pub(super) async fn cmd_follow(&self, req: &Request, id: u64, stop: bool) -> Res<Vec<Reply>> {
        let _guard = self.t.records().lock(id).await;
        let mut l = self.t.records().load(id).await?;
        let version = l.rec.version;
        let following = l.rec.followers.iter().any(|f| f.id == req.user.id);
        let content = match (l.rec.phase, stop, following) {
            (Phase::Finished | Phase::Cancelled, false, _) => {
                return Err(
                    format!("Game #{id} is over; /board game:{id} shows how it ended.").into(),
                )
            }
            (_, false, true) => {
                return Err(format!(
                    "You already follow game #{id}; /follow game:{id} stop:yes stops."
                )
                .into())
            }
            (_, true, false) => return Err(format!("You do not follow game #{id}.").into()),
            (_, false, false) => {
                l.rec.followers.push(Named::from(&req.user));
                format!(
                    "You follow game #{id} ({}): you will be pinged once when it ends, never for turns. /follow game:{id} stop:yes stops.",
                    l.rec.kind.title()
                )
            }
            (_, true, true) => {
                l.rec.followers.retain(|f| f.id != req.user.id);
                format!("You no longer follow game #{id}.")
            }
        };
        let staged = self
            .t
            .games()
            .stage(l, Some(version), Change::none())
            .await?;
        let reply = Reply::private(&req.channel, &req.user, content);
        self.t.games().store(Some(req), staged, vec![reply]).await
    }
}
