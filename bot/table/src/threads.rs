//! A thread per game (rulings T19-T22). When a game starts on a server that
//! has not switched threads off, the start is stored with an outbox entry that
//! asks for a public thread under the game's channel. The adapter delivers
//! that entry like any other (at least once, in its channel's order) by
//! creating the thread, or finding the one an earlier attempt created, and
//! reports it with [`Channels::thread_opened`]: the game then moves into the
//! thread, what it had waiting for its channel follows it, and the channel
//! gets one line with a link. A refusal ([`Channels::thread_refused`]) leaves the
//! game in its channel and says so once. The game's end gives its channel a
//! second line.

use super::channels::Channels;
use super::{
    outcome, text, Change, ChannelRef, Reply, Request, Res, ThreadRefusal, ThreadSupport, UserRef,
};
use tokar_engine::catalog::AnyGame;
use tokar_model::outbox::{NewEntry, OutboxEntry, Target};
use tokar_model::record::{GameRecord, GameThread, Named, Phase};
use tokar_store::ServerRecord;
use tracing::info;

/// Discord's limit on a thread's name, in characters.
pub const THREAD_NAME_LIMIT: usize = 100;

/// The line a game's channel reads when the game gets no thread.
fn refusal_line(game: Option<u64>, why: ThreadRefusal) -> String {
    let game = game.map(|id| format!("Game #{id}")).unwrap_or_default();
    format!("{game} is played here in the channel: {}.", why.reason())
}

/// The thread's name: `#12 Arcana · alice vs bob`, cut to Discord's limit.
pub fn thread_name(rec: &GameRecord) -> String {
    let players: Vec<&str> = rec.members.iter().map(|m| m.user.name.as_str()).collect();
    let full = format!(
        "#{} {} · {}",
        rec.id,
        rec.kind.title(),
        players.join(" vs ")
    );
    if full.chars().count() <= THREAD_NAME_LIMIT {
        return full;
    }
    let mut cut: String = full.chars().take(THREAD_NAME_LIMIT - 1).collect();
    cut.push('…');
    cut
}

/// Where a game is played, as a refusal names it: its thread as a link, or its channel.
pub(super) fn place(rec: &GameRecord) -> String {
    match &rec.thread {
        Some(_) => format!("its thread <#{}>", rec.channel.id),
        None => format!("#{}", rec.channel.name),
    }
}

impl Channels<'_> {
    /// The entry asking for the thread of a game starting from `req`, if it gets one: the
    /// game is on a server whose setting allows threads, and was not created in a thread.
    /// Where the adapter already knows no thread can open (the channel's type, the bot's
    /// permissions), the entry is instead the line telling the channel why (ruling T20):
    /// the game is created all the same and stays in its channel.
    pub(super) async fn thread_request(
        &self,
        req: &Request,
        rec: &GameRecord,
    ) -> Res<Option<NewEntry>> {
        if rec.thread.is_some() || req.channel.parent.is_some() {
            return Ok(None);
        }
        let Some(guild) = req.channel.guild else {
            return Ok(None);
        };
        let server = self.t.records().blocking(move |s| s.server(guild)).await?;
        if !server.threads {
            return Ok(None);
        }
        let announcement = match req.channel.threads {
            ThreadSupport::Refused(why) => {
                info!(game = rec.id, ?why, "the game's channel takes no thread");
                let line = Reply::public(&req.channel, refusal_line(Some(rec.id), why));
                return Ok(Some(OutboxEntry::from_reply(
                    &line,
                    Some(rec.id),
                    self.t.records().now(),
                )));
            }
            ThreadSupport::Announcement => true,
            ThreadSupport::Public | ThreadSupport::Unknown => false,
        };
        let mut new = OutboxEntry::from_reply(
            &Reply::public(&req.channel, String::new()),
            Some(rec.id),
            self.t.records().now(),
        );
        new.entry.target = Target::Thread {
            parent: Named::from(&req.channel),
            guild: Some(guild),
            name: thread_name(rec),
            announcement,
        };
        Ok(Some(new))
    }

    /// The thread an entry asked for exists (just created, or found from an earlier
    /// attempt): the game moves into it, its waiting messages follow, its channel gets the
    /// link, and the entry is done. Reporting the same thread again changes nothing.
    pub(crate) async fn thread_opened(&self, entry: u64, thread: &ChannelRef) -> Res<()> {
        let Some(e) = self
            .t
            .records()
            .blocking(move |s| s.outbox_entry(entry))
            .await?
        else {
            return Ok(());
        };
        let Some((parent, _, _)) = e.thread() else {
            return Err(format!("outbox entry {entry} asks for no thread").into());
        };
        let parent = parent.clone();
        let to = Named::from(thread);
        if let Some(id) = e.game {
            let _guard = self.t.records().lock(id).await;
            let mut l = self.t.records().load(id).await?;
            if l.rec.thread.is_none() && l.rec.channel.id == parent.id {
                info!(game = id, thread = thread.id, "game moved into its thread");
                // What waits for the channel follows the game first, then the record and the
                // channel's link are written together. The game's lock keeps its commands
                // from storing anything in between; a stop in between does both again.
                let (from, dest) = (parent.id, to.clone());
                self.t
                    .records()
                    .blocking(move |s| s.outbox_retarget(id, from, Some(&dest), 0))
                    .await?;
                let version = l.rec.version;
                l.rec.channel = to.clone();
                l.rec.thread = Some(GameThread {
                    home: parent.clone(),
                    end_told: false,
                });
                let line = Reply::public(
                    &ChannelRef::from(&parent),
                    format!(
                        "Game #{id} ({}) is played in its thread <#{}>.",
                        thread_title(&l.rec),
                        thread.id
                    ),
                );
                let staged = self
                    .t
                    .games()
                    .stage(l, Some(version), Change::none())
                    .await?;
                self.t.games().store(None, staged, vec![line]).await?;
            }
        }
        self.t
            .records()
            .blocking(move |s| s.outbox_done(entry, &[]))
            .await?;
        self.t.staging().notify();
        Ok(())
    }

    /// Discord would not open the thread an entry asked for: the game stays in its channel,
    /// which is told so once, in place of the entry.
    pub(crate) async fn thread_refused(&self, entry: u64, why: ThreadRefusal) -> Res<()> {
        let Some(e) = self
            .t
            .records()
            .blocking(move |s| s.outbox_entry(entry))
            .await?
        else {
            return Ok(());
        };
        let Some((parent, _, _)) = e.thread() else {
            return Err(format!("outbox entry {entry} asks for no thread").into());
        };
        info!(entry, ?why, "a game's thread was refused");
        let line = Reply::public(&ChannelRef::from(parent), refusal_line(e.game, why));
        let then = vec![OutboxEntry::from_reply(
            &line,
            e.game,
            self.t.records().now(),
        )];
        self.t
            .records()
            .blocking(move |s| s.outbox_done(entry, &then))
            .await?;
        self.t.staging().notify();
        Ok(())
    }

    /// The line a game's home channel gets when the game ends, once (the record is marked).
    pub(super) fn end_line(rec: &mut GameRecord) -> Option<Reply> {
        if rec.phase != Phase::Finished {
            return None;
        }
        let thread = rec.thread.as_mut().filter(|t| !t.end_told)?;
        thread.end_told = true;
        let home = ChannelRef::from(&thread.home);
        let result = rec
            .snapshot
            .as_deref()
            .and_then(|s| serde_json::from_str::<AnyGame>(s).ok())
            .map(|g| format!(": {}", text::outcome_text(rec, &g, &outcome(rec, &g))))
            .unwrap_or_default();
        Some(Reply::public(
            &home,
            format!(
                "Game #{} ({}) is over{result}. <#{}>",
                rec.id,
                thread_title(rec),
                rec.channel.id
            ),
        ))
    }

    /// Sets whether server `guild`'s games get their threads, as `/server threads:` does,
    /// for the operator's tools and for tests that play in channels.
    pub(crate) async fn set_server_threads(&self, guild: u64, threads: bool) -> Res<()> {
        self.t
            .records()
            .blocking(move |s| {
                let rec = ServerRecord {
                    threads,
                    ..s.server(guild)?
                };
                s.put_server(guild, &rec)
            })
            .await
    }

    /// `/server [threads:on|off] [rated-bots:on|off]`: shows this server's settings;
    /// changing them needs the Manage Server permission (rulings T21, T28).
    pub(super) async fn cmd_server(
        &self,
        req: &Request,
        threads: Option<bool>,
        rated_bots: Option<bool>,
    ) -> Res<Vec<Reply>> {
        let guild = req
            .channel
            .guild
            .ok_or("Server settings are set in a server's channel, not in direct messages.")?;
        let mut rec: ServerRecord = self.t.records().blocking(move |s| s.server(guild)).await?;
        if (threads.is_some() || rated_bots.is_some()) && !req.manage_server {
            return Err(
                "Only someone with the Manage Server permission may change this server's settings."
                    .into(),
            );
        }
        let changed = threads.is_some() || rated_bots.is_some();
        rec.threads = threads.unwrap_or(rec.threads);
        rec.rate_bot_games = rated_bots.unwrap_or(rec.rate_bot_games);
        if changed {
            let stored = rec.clone();
            self.t
                .records()
                .blocking(move |s| s.put_server(guild, &stored))
                .await?;
            info!(
                guild,
                threads = rec.threads,
                rated_bots = rec.rate_bot_games,
                user = %req.user.name,
                "server setting changed"
            );
        }
        let state = if rec.threads {
            "on: each game gets its own thread under the channel where it was created"
        } else {
            "off: games are played in the channel where they were created"
        };
        let rating = if rec.rate_bot_games {
            "rated like games between people"
        } else {
            "not rated"
        };
        let content = format!(
            "{}Threads on this server are {state} (from the next game that starts). \
             Games against Tokar are {rating} (from the next game created). \
             Someone with Manage Server changes them with /server threads:on|off rated-bots:on|off.",
            if changed { "Saved. " } else { "" }
        );
        Ok(vec![Reply::private(
            &req.channel,
            &UserRef::from(&Named::from(&req.user)),
            content,
        )])
    }
}

/// `Arcana · alice vs bob`: the game and its players, as the links name them.
fn thread_title(rec: &GameRecord) -> String {
    let players: Vec<&str> = rec.members.iter().map(|m| m.user.name.as_str()).collect();
    format!("{} · {}", rec.kind.title(), players.join(" vs "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_refusals_are_told_by_discords_code() {
        let r = ThreadRefusal::from_answer;
        assert_eq!(r(400, 160006), Some(ThreadRefusal::ActiveLimit));
        assert_eq!(r(403, 50013), Some(ThreadRefusal::Permission));
        assert_eq!(r(403, 50001), Some(ThreadRefusal::Permission));
        assert_eq!(r(403, 0), Some(ThreadRefusal::Permission));
        assert_eq!(r(400, 50024), Some(ThreadRefusal::ChannelType));
        assert_eq!(r(404, 10003), Some(ThreadRefusal::Other(10003)));
        assert_eq!(r(400, 50035), Some(ThreadRefusal::Other(50035)));
        // Tried again: a rate limit, Discord's own trouble, a token the operator must fix.
        for status in [429, 500, 502, 503, 401] {
            assert_eq!(r(status, 0), None, "{status}");
        }
    }

    #[test]
    fn each_refusal_has_its_own_line() {
        let all = [
            ThreadRefusal::Permission,
            ThreadRefusal::PostInThreads,
            ThreadRefusal::ActiveLimit,
            ThreadRefusal::ChannelType,
            ThreadRefusal::Voice,
            ThreadRefusal::Stage,
            ThreadRefusal::Forum,
            ThreadRefusal::Category,
            ThreadRefusal::Other(50035),
        ];
        let lines: std::collections::HashSet<String> = all.iter().map(|w| w.reason()).collect();
        assert_eq!(lines.len(), all.len(), "{lines:#?}");
        assert_eq!(
            refusal_line(Some(1), ThreadRefusal::Permission),
            "Game #1 is played here in the channel: Tokar may not open threads in this channel."
        );
        assert!(ThreadRefusal::ActiveLimit
            .reason()
            .contains("active threads"));
        assert!(ThreadRefusal::Other(50035).reason().contains("50035"));
        assert!(all.iter().all(|w| !w.reason().ends_with('.')));
    }

    #[test]
    fn a_refusal_is_stored_in_a_channel_reference() {
        let mut c = ChannelRef::new(5, "table");
        c.threads = ThreadSupport::Refused(ThreadRefusal::ActiveLimit);
        let back: ChannelRef = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        assert_eq!(back, c);
        // A reference written before the field reads as unknown.
        let old: ChannelRef =
            serde_json::from_str(r#"{"id":5,"name":"table","guild":null,"parent":null}"#).unwrap();
        assert_eq!(old.threads, ThreadSupport::Unknown);
    }
}
