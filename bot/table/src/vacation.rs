//! `/vacation`, with a budget (ruling T50, [`tokar_model::vacation`]): starting and ending a
//! vacation, and telling the opponents of every game it touches.
//!
//! The user record is written (flushed) first; each game's notice is then stored with a
//! write of that game, under its lock, as every message to other players is (the outbox,
//! `staging.rs`). That write also moves the game's schedule entry, since its clock
//! now runs or stands still. A game whose write fails keeps running by the user record
//! (its clock reads the vacations from there); the missed notice is in the operator's log.

use super::{Change, ChannelRef, Reply, Request, Res, Table, UserRef};
use tokar_model::clock::Millis;
use tokar_model::duration;
use tokar_model::record::{GameRecord, Phase, UserRecord};
use tokar_model::vacation::{self, MINIMUM};
use tracing::warn;

/// /vacation and the notices about players away (ruling T50).
#[derive(Clone, Copy)]
pub(crate) struct Vacations<'t> {
    pub(super) t: &'t Table,
}

/// Why a vacation ended, as the opponents are told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ending {
    /// `/vacation off`.
    Off,
    /// The player's `/play` in any game.
    Action,
    /// The budget ran out.
    Spent,
}

/// "12d 3h of vacation time left".
fn time_left(user: &UserRecord, now: Millis) -> String {
    match vacation::left(user, now) {
        0 => "no vacation time left".into(),
        left => format!("{} of vacation time left", duration::format(left)),
    }
}

impl Vacations<'_> {
    pub(super) async fn cmd_vacation(&self, req: &Request, state: Option<bool>) -> Res<Vec<Reply>> {
        let mut me = self.t.records().user_record(&req.user).await?;
        let now = self.t.records().now();
        // A vacation whose budget ran out ended then, whether or not a game's sweep saw it.
        let spent = vacation::close_if_spent(&mut me, now);
        let on = me.on_vacation();
        match state {
            None => {
                if spent {
                    self.end_vacation(req.user.id, Ending::Spent).await?;
                }
                let content = format!(
                    "Vacation is {}; you have {}. /vacation on stops the clock of your games while they wait for you (each vacation costs at least {}; you earn 1 day on the 1st and the 15th of each month, up to {}); your next /play or /vacation off ends it.",
                    if on { "on" } else { "off" },
                    time_left(&me, now),
                    duration::format(MINIMUM),
                    duration::format(vacation::CAP),
                );
                Ok(vec![Reply::private(&req.channel, &req.user, content)])
            }
            Some(true) if on => Err("Your vacation is already on.".into()),
            Some(false) if !on => Err(if spent {
                "Your vacation ended when its time ran out.".into()
            } else {
                "You are not on vacation.".into()
            }),
            Some(true) => {
                if spent {
                    self.end_vacation(req.user.id, Ending::Spent).await?;
                }
                let left = vacation::left(&me, now);
                if left < MINIMUM {
                    return Err(format!(
                        "You have {} of vacation time, and a vacation takes at least {}: you earn 1 day on the 1st and the 15th of each month.",
                        duration::format(left),
                        duration::format(MINIMUM)
                    ).into());
                }
                me.vacation_budget_since = vacation::since(&me).or(Some(now));
                me.vacations.push((now, None));
                let rec = me.clone();
                self.t.records().blocking(move |s| s.put_user(&rec)).await?;
                let mut out = vec![Reply::private(
                    &req.channel,
                    &req.user,
                    format!(
                        "Vacation on: the clock of your games stands still while they wait for you, for up to {} ({} charged now). Your next /play or /vacation off ends it.",
                        duration::format(left),
                        duration::format(MINIMUM)
                    ),
                )];
                let line = |id: u64| {
                    format!(
                        "{} is on vacation ({} at most): game #{id}'s clock stands still while it waits for them.",
                        req.user.name,
                        duration::format(left)
                    )
                };
                out.extend(self.vacation_notices(&me, &line).await);
                Ok(out)
            }
            Some(false) => {
                let mut out = vec![Reply::private(
                    &req.channel,
                    &req.user,
                    "Welcome back: your move deadlines run again, extended by the time you were away."
                        .to_string(),
                )];
                out.extend(self.end_vacation(req.user.id, Ending::Off).await?);
                Ok(out)
            }
        }
    }

    /// After a user's `/play`: their vacation, if on, ends (ruling T50), and their opponents
    /// are told. Failures are logged: the play itself is stored.
    pub(super) async fn vacation_ends_at_play(&self, user: &UserRef) -> Vec<Reply> {
        match self.end_vacation(user.id, Ending::Action).await {
            Ok(r) => r,
            Err(e) => {
                warn!(user = user.id, error = %e, "the vacation did not end at a play");
                Vec::new()
            }
        }
    }

    /// Ends `user`'s open vacation (now, or where its budget ran out), stores it, and tells
    /// the opponents in every game it stopped. Nothing when no vacation is open (or, for
    /// [`Ending::Spent`], when its budget is not spent).
    pub(super) async fn end_vacation(&self, user: u64, why: Ending) -> Res<Vec<Reply>> {
        let now = self.t.records().now();
        let Some(mut me) = self.t.records().read(move |s| s.user(user)).await? else {
            return Ok(Vec::new());
        };
        if !me.on_vacation() {
            return Ok(Vec::new());
        }
        let spent = vacation::close_if_spent(&mut me, now);
        match why {
            Ending::Spent if !spent => return Ok(Vec::new()),
            _ if spent => {}
            _ => {
                me.vacation_budget_since = vacation::since(&me);
                if let Some(v) = me.vacations.last_mut() {
                    v.1 = Some(now);
                }
            }
        }
        let rec = me.clone();
        self.t.records().blocking(move |s| s.put_user(&rec)).await?;
        let name = me.user.name.clone();
        let left = time_left(&me, now);
        let line = |id: u64| match (why, spent) {
            (_, true) => {
                format!("{name}'s vacation time is used up: game #{id}'s clock runs again.")
            }
            (Ending::Action, _) => {
                format!("{name} is back from vacation ({left}): game #{id}'s clock runs again.")
            }
            _ => format!("{name} ended their vacation ({left}): game #{id}'s clock runs again."),
        };
        Ok(self.vacation_notices(&me, &line).await)
    }

    /// One notice per game in play of `user` that their vacation stops (not those created
    /// with `vacation:off`, nor games without a channel), pinging the other players (the
    /// bot never), each stored with a write of its game.
    async fn vacation_notices(
        &self,
        user: &UserRecord,
        line: &(dyn Fn(u64) -> String + Sync),
    ) -> Vec<Reply> {
        let who = user.user.id;
        let games = match self.t.games().records_of_user(who).await {
            Ok(g) => g,
            Err(e) => {
                warn!(user = who, error = %e, "the vacation's notices were not sent");
                return Vec::new();
            }
        };
        let touched = |r: &GameRecord| {
            r.phase == Phase::Playing && r.play.vacation && r.channel_lost.is_none()
        };
        let mut out = Vec::new();
        for id in games.iter().filter(|r| touched(r)).map(|r| r.id) {
            match self.vacation_notice(id, who, touched, line(id)).await {
                Ok(r) => out.extend(r),
                Err(e) => {
                    warn!(game = id, user = who, error = %e, "a vacation notice was not stored")
                }
            }
        }
        out
    }

    async fn vacation_notice(
        &self,
        id: u64,
        who: u64,
        touched: impl Fn(&GameRecord) -> bool,
        content: String,
    ) -> Res<Vec<Reply>> {
        let _guard = self.t.records().lock(id).await;
        let l = self.t.records().load(id).await?;
        if !touched(&l.rec) {
            return Ok(Vec::new());
        }
        let version = l.rec.version;
        let mut reply = Reply::public(&ChannelRef::from(&l.rec.channel), content);
        reply.mentions = l
            .rec
            .members
            .iter()
            .filter(|m| m.user.id != who && !self.t.bot().is_robot(m.user.id))
            .map(|m| UserRef::from(&m.user))
            .collect();
        reply.mentions.dedup();
        let staged = self
            .t
            .games()
            .stage(l, Some(version), Change::none())
            .await?;
        self.t.games().store(None, staged, vec![reply]).await
    }
}
