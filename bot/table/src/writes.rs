//! How a change and what it says are stored together.
//!
//! A command that changes a game first *stages* the write ([`Games::stage`]:
//! the record as it will be stored, its version and schedule included), builds
//! its replies from the staged record, and then *stores* both at once
//! ([`Games::store`]): every reply that someone other than the invoker must
//! receive becomes an outbox entry in the same flushed transaction as the
//! change. The invoker's own private answers are not stored: they are the
//! command's acknowledgement, sent directly.

use super::channels::Channels;
use super::games::Games;
use super::{Change, Loaded, Reply, Request, Res};
use tokar_model::outbox::{Carrier, NewEntry, OutboxEntry};
use tokar_model::record::GameRecord;
use tokar_store::GameWrite;

/// A game write built but not stored yet: `rec` is the record as it will be.
pub(super) struct Staged {
    pub(super) rec: GameRecord,
    version: Option<u64>,
    change: Change,
    /// The request for the game's thread, stored first (ruling T19); or, when the game can
    /// have none, the line telling its channel why, stored after its announcements (T20).
    pub(super) open_thread: Option<NewEntry>,
    /// This write ends the game: its announcement pings every player (ruling T39).
    pub(super) ended: bool,
}

impl Games<'_> {
    /// Prepares a write of a changed game: its snapshot, its schedule entry
    /// and its next version, as [`Games::store`] will write them.
    pub(super) async fn stage(
        &self,
        mut loaded: Loaded,
        version: Option<u64>,
        change: Change,
    ) -> Res<Staged> {
        if let Some(g) = &loaded.game {
            loaded.rec.snapshot = Some(serde_json::to_string(g).map_err(|e| e.to_string())?);
        }
        let now = self.t.records().now();
        let users = self.t.schedule().waiting_users(&loaded.rec).await?;
        let mut rec = loaded.rec;
        rec.scheduled = super::schedule::next_due(&rec, &users, now);
        rec.version = version.map_or(0, |v| v + 1);
        Ok(Staged {
            rec,
            version,
            change,
            open_thread: None,
            ended: false,
        })
    }

    /// Stores a staged write with the outbox entries of its replies, in one
    /// flushed transaction, and returns the replies marked with their entry
    /// ids. `req` is the command that caused it (`None` for the schedule and
    /// the bot's own turns): its user's private answers stay direct.
    pub(super) async fn store(
        &self,
        req: Option<&Request>,
        mut staged: Staged,
        mut replies: Vec<Reply>,
    ) -> Res<Vec<Reply>> {
        // A game that ends pings its players (T39) and its followers (T26) once, in its
        // ending announcement.
        if staged.ended {
            self.t.ratings().mark_robot(&mut staged.rec);
        }
        // The rating of a game this write finishes, decided here and counted by the store in
        // the same transaction. A write that finishes a game appends its last action or is an
        // agreed end (`ended`); later writes to a finished game are not assessed again.
        let finishing = staged.ended || !staged.change.append.is_empty();
        let rated = match finishing {
            true => {
                self.t
                    .ratings()
                    .rated_game(&staged.rec, &staged.change.append)
                    .await?
            }
            false => None,
        };
        if staged.ended {
            super::follow::ping_players(&staged.rec, &mut replies, |u| self.t.bot().is_robot(u));
            let line = match &rated {
                Some(rated) => self.t.ratings().rating_line(&staged.rec, rated).await,
                None => None,
            };
            if let (Some(line), Some(i)) = (line, super::follow::ending(&staged.rec, &replies)) {
                replies[i].content.push('\n');
                replies[i].content.push_str(&line);
            }
        }
        super::follow::ping_followers(&mut staged.rec, &mut replies);
        let now = self.t.records().now();
        let game = staged.rec.id;
        let ended = staged.rec.phase == tokar_model::record::Phase::Finished;
        replies.extend(Channels::end_line(&mut staged.rec));
        // The thread's request, or the line saying why the game has none (ruling T20), which
        // goes after the announcements and leaves the game in its channel.
        let (opening, note) = match staged.open_thread.take() {
            Some(e) if e.entry.thread().is_none() => (None, Some(e)),
            other => (other, None),
        };
        let mut announced = Vec::new();
        let mut carrier = None;
        for (i, r) in replies.iter().enumerate() {
            let to_invoker = match (&r.ephemeral_to, req) {
                (Some(u), Some(req)) => u.id == req.user.id,
                _ => false,
            };
            if to_invoker || !r.ok {
                continue;
            }
            let mut new = OutboxEntry::from_reply(r, Some(game), now);
            if let (Some(req), None) = (req, &opening) {
                let carries =
                    carrier.is_none() && r.ephemeral_to.is_none() && r.channel.id == req.channel.id;
                if let (true, Some(token)) = (carries, &req.interaction_token) {
                    new.entry.carrier = Some(Carrier {
                        token: token.clone(),
                        at: now,
                    });
                    carrier = Some(announced.len());
                }
            }
            announced.push((i, new));
        }
        let thread_entry = opening.is_some();
        let entries: Vec<NewEntry> = opening
            .into_iter()
            .chain(announced.iter().map(|(_, e)| e.clone()))
            .chain(note)
            .collect();
        let write = GameWrite {
            expected: staged.version,
            record: staged.rec,
            append: staged.change.append,
            truncate_from: staged.change.truncate_from,
            outbox: entries,
            rated,
        };
        let token = carrier.and_then(|_| req.and_then(|r| r.interaction_token.clone()));
        let ids = self.t.staging().commit(token, write).await?;
        let skip = usize::from(thread_entry);
        for ((i, _), id) in announced.iter().zip(ids.iter().skip(skip)) {
            replies[*i].outbox = Some(*id);
        }
        self.t.staging().keep_drawn(
            ids.iter()
                .skip(skip)
                .copied()
                .zip(announced.into_iter().map(|(_, e)| e)),
        );
        if !ids.is_empty() {
            self.t.staging().notify();
        }
        if thread_entry {
            // The announcements wait for the thread (they are stored, and go there once it
            // is open); the invoker is answered directly, and only them.
            replies.retain(|r| r.outbox.is_none());
            if let Some(req) = req {
                replies.push(Reply::private(
                    &req.channel,
                    &req.user,
                    format!("Game #{game} is starting in its own thread under this channel; the channel gets its link."),
                ));
            }
        }
        // Typed away from the game's channel: the invoker is told where its message went (T38).
        if let (Some(req), false) = (req, thread_entry) {
            replies.extend(pointer(req, game, &replies));
        }
        // A league's last game ending ends the league (T36).
        if ended {
            replies.extend(self.t.league_games().league_game_over(game).await);
        }
        Ok(replies)
    }
}

/// The invoker's line saying where a command's public message went, when it went to the
/// game's channel (its thread) and not to the channel the command was typed in (T38).
fn pointer(req: &Request, game: u64, replies: &[Reply]) -> Option<Reply> {
    let public = |r: &&Reply| r.ok && r.ephemeral_to.is_none() && r.outbox.is_some();
    if replies
        .iter()
        .filter(public)
        .any(|r| r.channel.id == req.channel.id)
    {
        return None;
    }
    let to = replies.iter().find(public)?.channel.id;
    // Only a player's own command on a game: a league acting for a player (T34) has
    // nobody typing who could be told.
    let verb = match req.command.name() {
        "play" => "Played",
        "resign" => "Resigned",
        "claim" => "Claimed",
        "draw" | "undo" => "Sent",
        _ => return None,
    };
    Some(Reply::private(
        &req.channel,
        &req.user,
        format!("{verb} in <#{to}> (game #{game})."),
    ))
}
