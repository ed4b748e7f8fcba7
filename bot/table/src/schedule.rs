//! Reminders and move deadlines.
//!
//! Each game in play has at most one entry in the schedule index, at the time
//! something may next be due: a reminder (every reminder interval of the
//! waiting players, default 24 h) or the move deadline (default 7 days; time a
//! waiting player spends on vacation does not count, in a game that allows vacations,
//! and what is said counts only the time on the clock: ruling T50). [`Schedule::tick`] sweeps
//! the entries that are due, at start-up and then on a timer. What is said is
//! recorded in the game's [`TurnClock`](tokar_model::record::TurnClock) and stored in
//! the outbox in the same flushed write, so a restart catches up without
//! saying anything twice and a message that could not be sent yet is sent
//! later: after downtime a player gets one reminder, not one per missed
//! interval.
//!
//! At the deadline (ruling T1): the table first asks the game to skip the
//! absent seats ([`AnyGame::skip`]); games with more than two sides that have
//! such a rule go on without waiting. Where the game refuses (two-sided games),
//! the other players are told once that they may `/claim` the win, which
//! concedes the absent seats; until someone claims, the absent player may
//! still move.

use super::games::{describe_entry, marks};
use super::leases::GAME_LEASE_MS;
use super::text::{self, seats_label};
use super::{Change, ChannelRef, Reply, Res, Table, UserRef};
use tokar_engine::Seat;
use tokar_model::clock::Millis;
use tokar_model::duration::{self, HOUR};
use tokar_model::record::{GameRecord, LogAction, LogEntry, Named, Phase, UserRecord, FORMAT};
use tokar_store::Lease;
use tracing::warn;

/// The schedule's sweep: reminders, deadlines, timeouts, and the clock on a picture.
#[derive(Clone, Copy)]
pub(crate) struct Schedule<'t> {
    pub(super) t: &'t Table,
}

/// While a waiting player is on vacation, look again this often.
const VACATION_RECHECK: Millis = 6 * HOUR;

/// The game's own interval if its creator chose one (T25), else the smallest among the
/// waiting users' settings (T2).
fn reminder_interval(rec: &GameRecord, users: &[UserRecord]) -> Option<Millis> {
    rec.reminder
        .or_else(|| users.iter().filter_map(|u| u.reminder).min())
}

/// Time since `from` during which the game's clock stood still for a waiting player's
/// vacation: the most of any of them.
fn vacation_pause_since(users: &[UserRecord], from: Millis, now: Millis) -> Millis {
    users
        .iter()
        .map(|u| u.vacation_within(from, now))
        .max()
        .unwrap_or(0)
}

fn vacation_pause(rec: &GameRecord, users: &[UserRecord], now: Millis) -> Millis {
    vacation_pause_since(users, rec.turn.since, now)
}

/// When the reminder after the last one (or after the wait began) is due: an interval of
/// time on the clock later (T50).
fn reminder_due(rec: &GameRecord, users: &[UserRecord], every: Millis, now: Millis) -> Millis {
    let from = rec.turn.reminded_at.unwrap_or(rec.turn.since);
    from + every + vacation_pause_since(users, from, now)
}

/// How long the game has waited, on its clock: vacations left out (T50), so a reminder
/// says "has waited 2d", not the months someone was away.
fn clock_time(rec: &GameRecord, users: &[UserRecord], now: Millis) -> Millis {
    now.saturating_sub(rec.turn.since)
        .saturating_sub(vacation_pause(rec, users, now))
}

/// When a game's move deadline falls, as players are told it.
pub(super) enum Deadline {
    At(Millis),
    /// The clock stands still while these waiting players are on vacation.
    Paused(Vec<String>),
}

impl Deadline {
    /// "3d 4h left", "deadline passed", or "paused: bob is on vacation".
    pub(super) fn describe(&self, now: Millis) -> String {
        match self {
            Deadline::At(at) if now >= *at => "deadline passed".into(),
            Deadline::At(at) => format!("{} left", duration::format(at - now)),
            Deadline::Paused(names) => format!(
                "paused: {} {} on vacation",
                names.join(", "),
                if names.len() == 1 { "is" } else { "are" }
            ),
        }
    }
}

/// When the game's schedule entry is next due, given the waiting users.
pub(super) fn next_due(rec: &GameRecord, users: &[UserRecord], now: Millis) -> Option<Millis> {
    if rec.phase == Phase::Lobby {
        return super::invitations::lobby_due(rec);
    }
    // A game without a channel has its clock stopped until it is resumed.
    if rec.phase != Phase::Playing || rec.turn.waiting.is_empty() || rec.channel_lost.is_some() {
        return None;
    }
    if users.iter().any(|u| u.on_vacation()) {
        // Looked at again when the first budget runs out (T50), or after a while.
        let out = users
            .iter()
            .filter_map(tokar_model::vacation::runs_out)
            .min();
        return Some(out.map_or(now + VACATION_RECHECK, |o| o.min(now + VACATION_RECHECK)));
    }
    let mut due: Option<Millis> = None;
    if !rec.turn.deadline_told {
        due = Some(rec.turn.since + rec.deadline + vacation_pause(rec, users, now));
        if let Some(every) = reminder_interval(rec, users) {
            let r = reminder_due(rec, users, every, now);
            due = due.map(|d| d.min(r));
        }
    }
    due
}

impl Schedule<'_> {
    /// The waiting users' records, as the game's clock reads them (T50): a vacation whose
    /// budget ran out ended then, and in a game created with `vacation:off` nobody is away.
    pub(super) async fn waiting_users(&self, rec: &GameRecord) -> Res<Vec<UserRecord>> {
        let ids = rec.turn.waiting.clone();
        let now = self.t.records().now();
        let allowed = rec.play.vacation;
        self.t
            .records()
            .read(move |s| {
                ids.iter()
                    .map(|&u| {
                        let mut user = s.user(u)?.unwrap_or_else(|| {
                            UserRecord::new(Named {
                                id: u,
                                name: String::new(),
                            })
                        });
                        tokar_model::vacation::close_if_spent(&mut user, now);
                        if !allowed {
                            user.vacations.clear();
                        }
                        Ok(user)
                    })
                    .collect()
            })
            .await
    }

    /// Ends (and tells) the vacations of the users game `id` waits for whose budget ran out
    /// (T50), before the game's sweep reads its clock.
    async fn end_spent_vacations(&self, id: u64) -> Res<Vec<Reply>> {
        let rec = self.t.records().load(id).await?.rec;
        let now = self.t.records().now();
        let ids = rec.turn.waiting.clone();
        let spent: Vec<u64> = self
            .t
            .records()
            .read(move |s| {
                let mut out = Vec::new();
                for u in ids {
                    if let Some(mut user) = s.user(u)? {
                        if user.on_vacation()
                            && tokar_model::vacation::close_if_spent(&mut user, now)
                        {
                            out.push(u);
                        }
                    }
                }
                Ok(out)
            })
            .await?;
        let mut out = Vec::new();
        for u in spent {
            out.extend(
                self.t
                    .vacations()
                    .end_vacation(u, super::vacation::Ending::Spent)
                    .await?,
            );
        }
        Ok(out)
    }

    /// When the current wait runs out, counting the waiting players' vacations.
    pub(super) async fn effective_deadline(&self, rec: &GameRecord) -> Res<Deadline> {
        let users = self.waiting_users(rec).await?;
        let now = self.t.records().now();
        let away: Vec<String> = users
            .iter()
            .filter(|u| u.on_vacation())
            .map(|u| u.user.name.clone())
            .collect();
        if !away.is_empty() {
            return Ok(Deadline::Paused(away));
        }
        Ok(Deadline::At(
            rec.turn.since + rec.deadline + vacation_pause(rec, &users, now),
        ))
    }

    /// Sends what is due: reminders, deadline notices, skipped turns. Run at
    /// start-up and then every minute or so.
    pub(crate) async fn tick(&self) -> Vec<Reply> {
        let now = self.t.records().now();
        let due = match self.t.records().blocking(move |s| s.due(now)).await {
            Ok(d) => d,
            Err(e) => {
                warn!(error = %e, "schedule sweep failed");
                return Vec::new();
            }
        };
        let mut out = Vec::new();
        for id in due {
            // Another process sharing the store sweeps this game.
            if !self.t.leases().hold(Lease::Game(id), GAME_LEASE_MS).await {
                continue;
            }
            match self.end_spent_vacations(id).await {
                Ok(r) => out.extend(r),
                Err(e) => warn!(game = id, error = %e, "a spent vacation was not ended"),
            }
            match self.sweep_game(id).await {
                Ok(r) => out.extend(r),
                Err(e) => warn!(game = id, error = %e, "schedule sweep of a game failed"),
            }
            self.t.leases().release(Lease::Game(id)).await;
        }
        // Games waiting for the bot (after a restart, or a turn passed by the schedule).
        out.extend(self.t.robot_moves().robot_moves_due().await);
        // Leagues: games still to make, leavers' games, ends to announce.
        out.extend(self.t.league_games().league_tick().await);
        out
    }

    async fn sweep_game(&self, id: u64) -> Res<Vec<Reply>> {
        let _guard = self.t.records().lock(id).await;
        let mut l = self.t.records().load(id).await?;
        if l.rec.phase == Phase::Lobby {
            return self.t.lobby().sweep_lobby(l).await;
        }
        let version = l.rec.version;
        let now = self.t.records().now();
        let channel = ChannelRef::from(&l.rec.channel);
        let users = self.waiting_users(&l.rec).await?;
        let mut replies = Vec::new();
        let mut append = Vec::new();
        let on_vacation = users.iter().any(|u| u.on_vacation());
        if l.rec.phase == Phase::Playing && !on_vacation && !l.rec.turn.waiting.is_empty() {
            let deadline = l.rec.turn.since + l.rec.deadline + vacation_pause(&l.rec, &users, now);
            let game = l.game.as_mut().ok_or("The game has not started.")?;
            let waiting_refs: Vec<UserRef> = users.iter().map(|u| UserRef::from(&u.user)).collect();
            if !l.rec.turn.deadline_told && now >= deadline {
                let absent: Vec<Seat> = game
                    .to_act()
                    .into_iter()
                    .filter(|s| {
                        text::holder(&l.rec, *s).is_some_and(|u| l.rec.turn.waiting.contains(&u.id))
                    })
                    .collect();
                // An old game's chance is rekeyed before the skip draws on it, as before /play.
                if !absent.is_empty() && !game.chance_is_strong() {
                    self.t.games().strengthen(&mut l)?;
                }
                let game = l.game.as_mut().ok_or("The game has not started.")?;
                let mut trial = game.clone();
                let mut events = Vec::new();
                let mut skipped = true;
                for &s in &absent {
                    match trial.skip(s) {
                        Ok(ev) => {
                            append.push(LogEntry {
                                format: FORMAT,
                                seq: l.rec.log_len + append.len() as u64,
                                seat: s.0,
                                user: 0,
                                action: LogAction::Skip,
                                at: now,
                                chance: ev.iter().any(|e| e.chance),
                                text: ev.iter().map(|e| e.text.clone()).collect(),
                            });
                            events.extend(ev);
                        }
                        Err(_) => {
                            skipped = false;
                            break;
                        }
                    }
                }
                let who = seats_label(&l.rec, game, &absent);
                if skipped && !absent.is_empty() {
                    *game = trial;
                    let game = game.clone();
                    let before = l.rec.turn.waiting.clone();
                    l.rec.last_marks = marks(&events);
                    let staged = self
                        .t
                        .games()
                        .stage_entries(l.rec, &game, version, append)
                        .await?;
                    let saved = &staged.rec;
                    let mut lines = vec![format!(
                        "Game #{id}: {who} did not act within {}; the turn is skipped.",
                        duration::format(saved.deadline)
                    )];
                    lines.extend(events.iter().map(|e| format!("· {}", e.text)));
                    lines.push(text::status(saved, &game));
                    replies.push(
                        self.t
                            .games()
                            .turn_message(&channel, saved, &game, lines.join("\n"), &before)
                            .await,
                    );
                    return self.t.games().store(None, staged, replies).await;
                }
                append.clear();
                l.rec.turn.deadline_told = true;
                // The bot never claims (ruling T10): it is neither offered the
                // win nor pinged, and a game against it alone just waits.
                let claimants: Vec<UserRef> = l
                    .rec
                    .members
                    .iter()
                    .filter(|m| {
                        !l.rec.turn.waiting.contains(&m.user.id)
                            && !self.t.bot().is_robot(m.user.id)
                    })
                    .map(|m| UserRef::from(&m.user))
                    .collect();
                let idle = duration::format(clock_time(&l.rec, &users, now));
                let text = if claimants.is_empty() {
                    format!("Game #{id}: {who} has not acted for {idle}. The game waits; the bot does not claim the win.")
                } else {
                    format!(
                        "Game #{id}: {who} has not acted for {idle}. {}: /claim game:{id} takes the win, or keep waiting.",
                        claimants.iter().map(|u| u.name.as_str()).collect::<Vec<_>>().join(", ")
                    )
                };
                let mut r = Reply::public(&channel, text);
                r.mentions = claimants;
                replies.push(r);
            } else if !l.rec.turn.deadline_told {
                if let Some(every) = reminder_interval(&l.rec, &users) {
                    if now >= reminder_due(&l.rec, &users, every, now) {
                        l.rec.turn.reminded_at = Some(now);
                        let last = self.last_action(&l.rec).await;
                        let mut r = Reply::public(
                            &channel,
                            format!(
                                "Reminder: game #{id} ({}, move {}) has waited {} for {}{}. {} left before the deadline.",
                                l.rec.kind.title(),
                                game.move_number(),
                                duration::format(clock_time(&l.rec, &users, now)),
                                seats_label(&l.rec, game, &game.to_act()),
                                last.map(|a| format!(" (last action: {a})")).unwrap_or_default(),
                                duration::format(deadline.saturating_sub(now))
                            ),
                        );
                        r.mentions = waiting_refs;
                        replies.push(r);
                    }
                }
            }
        }
        // What is said is stored with what it records (the reminder's time,
        // the deadline told), or only the schedule entry moves.
        let due = next_due(&l.rec, &users, now);
        if replies.is_empty() && due == l.rec.scheduled {
            return Ok(replies);
        }
        let staged = self
            .t
            .games()
            .stage(
                l,
                Some(version),
                Change {
                    append,
                    truncate_from: None,
                },
            )
            .await?;
        self.t.games().store(None, staged, replies).await
    }

    async fn last_action(&self, rec: &GameRecord) -> Option<String> {
        let id = rec.id;
        let log = self.t.records().blocking(move |s| s.log(id)).await.ok()?;
        log.last().map(|e| describe_entry(rec, e))
    }
}
