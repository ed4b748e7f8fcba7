//! Games whose channel is lost: deleted, closed to the bot (missing permissions), or on a
//! server that removed the bot. Such a game would otherwise never end, since it is played only
//! from its channel. The table marks it, tells its players privately, holds its messages and
//! stops its move clock; any player then moves it to a channel of their choice with
//! `/resume game:N`, run there, where the held messages follow it.

use super::text::{self, is_member};
use super::{ChannelRef, Reply, Request, Res, Table, UserRef};
use tokar_model::record::{LostChannel, Named, Phase};
use tracing::{info, warn};

/// Where games are played: their threads (ruling T19), lost channels and /resume, /server.
#[derive(Clone, Copy)]
pub(crate) struct Channels<'t> {
    pub(super) t: &'t Table,
}

/// A channel the bot cannot post in is tried again this often, in case its permissions are
/// restored.
const PERMISSION_RECHECK: tokar_model::clock::Millis = tokar_model::duration::HOUR;

impl Channels<'_> {
    /// Delivery found that game `id` cannot post in `channel`: Discord answered that it does
    /// not exist or is closed to the bot (`permission`: the channel exists but the bot may not
    /// post there).
    pub(crate) async fn channel_lost(&self, id: u64, channel: u64, permission: bool) {
        if let Err(e) = self.lose_channel(id, channel, permission).await {
            warn!(game = id, error = %e, "cannot record a lost channel");
        }
    }

    /// Discord said the channel was deleted (or the bot left its server): every game in it
    /// loses its channel.
    pub(crate) async fn channel_deleted(&self, channel: u64) {
        let ids = match self
            .t
            .records()
            .blocking(move |s| s.games_in_channel(channel))
            .await
        {
            Ok(ids) => ids,
            Err(e) => {
                warn!(channel, error = %e, "cannot list the games of a deleted channel");
                return;
            }
        };
        for id in ids {
            self.channel_lost(id, channel, false).await;
        }
    }

    async fn lose_channel(&self, id: u64, channel: u64, permission: bool) -> Res<()> {
        let now = self.t.records().now();
        let hold_until = if permission {
            now + PERMISSION_RECHECK
        } else {
            u64::MAX
        };
        let _guard = self.t.records().lock(id).await;
        let mut l = self.t.records().load(id).await?;
        if l.rec.channel.id != channel && l.rec.channel_lost.is_none() {
            // Moved already: what still went to the old channel follows the game.
            let to = l.rec.channel.clone();
            self.t
                .records()
                .blocking(move |s| s.outbox_retarget(id, channel, Some(&to), 0))
                .await?;
            self.t.staging().notify();
            return Ok(());
        }
        if l.rec.channel.id != channel || matches!(l.rec.phase, Phase::Finished | Phase::Cancelled)
        {
            // Over: only its last messages wait.
            self.t
                .records()
                .blocking(move |s| s.outbox_retarget(id, channel, None, hold_until))
                .await?;
            return Ok(());
        }
        if l.rec.channel_lost.is_none() {
            info!(game = id, channel, permission, "game lost its channel");
            l.rec.channel_lost = Some(LostChannel {
                since: now,
                permission,
            });
            let version = l.rec.version;
            let why = if permission {
                "the bot may no longer post there"
            } else {
                "it was deleted, or the bot left the server"
            };
            let notes: Vec<Reply> = l
                .rec
                .members
                .iter()
                .filter(|m| !self.t.bot().is_robot(m.user.id))
                .map(|m| {
                    Reply::private(
                        &ChannelRef::from(&l.rec.channel),
                        &UserRef::from(&m.user),
                        format!(
                            "Game #{id} ({}) cannot go on in #{}: {why}. Its clock is stopped. \
                             To continue it, run /resume game:{id} in the channel where it should be played.",
                            l.rec.kind.title(),
                            l.rec.channel.name
                        ),
                    )
                })
                .collect();
            let staged = self
                .t
                .games()
                .stage(l, Some(version), super::Change::none())
                .await?;
            self.t.games().store(None, staged, notes).await?;
        }
        self.t
            .records()
            .blocking(move |s| s.outbox_retarget(id, channel, None, hold_until))
            .await?;
        Ok(())
    }

    /// `/resume game:N`: a game that lost its channel continues in this one.
    pub(super) async fn cmd_resume(&self, req: &Request, id: u64) -> Res<Vec<Reply>> {
        let _guard = self.t.records().lock(id).await;
        let mut l = self.t.records().load(id).await?;
        if !is_member(&l.rec, req.user.id) {
            return Err(format!("You are not playing in game #{id}.").into());
        }
        if l.rec.channel_lost.is_none() {
            return Err(format!(
                "Game #{id} still has its channel, #{}; play there.",
                l.rec.channel.name
            )
            .into());
        }
        let old = l.rec.channel.id;
        let version = l.rec.version;
        l.rec.channel = Named::from(&req.channel);
        l.rec.channel_lost = None;
        // The clock stood still while the game had no channel: the current move starts afresh.
        l.rec.turn.since = self.t.records().now();
        l.rec.turn.reminded_at = None;
        l.rec.turn.deadline_told = false;
        let before = Vec::new();
        let game = l.game.clone();
        let staged = self
            .t
            .games()
            .stage(l, Some(version), super::Change::none())
            .await?;
        let rec = staged.rec.clone();
        let head = format!(
            "{} moved game #{id} ({}) to this channel.",
            req.user.name,
            rec.kind.title()
        );
        let reply = match &game {
            Some(game) if rec.phase == Phase::Playing => {
                let content = format!("{head}\n{}", text::status(&rec, game));
                // Everyone waited on is pinged afresh: the game is somewhere new.
                self.t
                    .games()
                    .turn_message(&req.channel, &rec, game, content, &before)
                    .await
            }
            _ => Reply::public(&req.channel, format!("{head} {}", text::lobby_status(&rec))),
        };
        let replies = self.t.games().store(Some(req), staged, vec![reply]).await?;
        let to = Named::from(&req.channel);
        self.t
            .records()
            .blocking(move |s| s.outbox_retarget(id, old, Some(&to), 0))
            .await?;
        self.t.staging().notify();
        Ok(replies)
    }
}
