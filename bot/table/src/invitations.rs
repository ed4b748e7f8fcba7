//! Invitations that nobody answers (ruling T27): the invitees are reminded once half-way
//! through the game's move deadline, and at the deadline the invitation expires and the game
//! is cancelled, as a decline cancels it. Both go through the schedule like move reminders;
//! the lobby's clock is [`TurnClock::since`](tokar_model::record::TurnClock) set at `/new`, and the
//! half-way reminder is recorded in its `reminded_at`, so a restart says nothing twice.

use super::answers::lobby_buttons;
use super::lobby::Lobby;
use super::{Change, ChannelRef, Loaded, Reply, Res, UserRef};
use tokar_model::clock::Millis;
use tokar_model::duration;
use tokar_model::record::{GameRecord, Phase};

/// When an unanswered invitation next needs the schedule: its half-way reminder, then its
/// expiry. `None` without invitees, and for lobbies stored before the lobby had a clock
/// (`since` 0), which never expire.
pub(super) fn lobby_due(rec: &GameRecord) -> Option<Millis> {
    if rec.phase != Phase::Lobby || rec.invited.is_empty() || rec.turn.since == 0 {
        return None;
    }
    let half = rec.turn.since + rec.deadline / 2;
    Some(if rec.turn.reminded_at.is_none() {
        half
    } else {
        rec.turn.since + rec.deadline
    })
}

impl Lobby<'_> {
    /// The schedule's work on a game in the lobby: the half-way reminder or the expiry.
    pub(super) async fn sweep_lobby(&self, mut l: Loaded) -> Res<Vec<Reply>> {
        let Some(due) = lobby_due(&l.rec) else {
            return Ok(Vec::new());
        };
        let now = self.t.records().now();
        if now < due {
            return Ok(Vec::new());
        }
        let id = l.rec.id;
        let version = l.rec.version;
        let channel = ChannelRef::from(&l.rec.channel);
        let invitees: Vec<UserRef> = l.rec.invited.iter().map(UserRef::from).collect();
        let names = invitees
            .iter()
            .map(|u| u.name.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        let expires = l.rec.turn.since + l.rec.deadline;
        let reply = if now < expires {
            l.rec.turn.reminded_at = Some(now);
            let mut r = Reply::public(
                &channel,
                format!(
                    "Reminder: {names}, you are invited to game #{id} ({}); the invitation expires in {}. /accept game:{id} or /decline game:{id}.",
                    l.rec.kind.title(),
                    duration::format(expires - now)
                ),
            );
            r.mentions = invitees;
            r.buttons = lobby_buttons(&l.rec);
            r
        } else {
            l.rec.phase = Phase::Cancelled;
            let mut r = Reply::public(
                &channel,
                format!(
                    "Game #{id} ({}) is cancelled: {names} did not answer the invitation within {}.",
                    l.rec.kind.title(),
                    duration::format(l.rec.deadline)
                ),
            );
            r.mentions = l
                .rec
                .members
                .iter()
                .map(|m| UserRef::from(&m.user))
                .collect();
            r
        };
        let staged = self
            .t
            .games()
            .stage(l, Some(version), Change::none())
            .await?;
        self.t.games().store(None, staged, vec![reply]).await
    }
}
