//! What every command shares (the `Games` service): finding the game a user means, the turn
//! message, its picture and its announcement, and (in `writes.rs`) how a change is stored.

use super::text::{self, is_member, users_of};
use super::{
    outcome, Button, Change, ChannelRef, Image, Loaded, Reply, Request, Res, Table, UserRef,
};
use std::sync::Arc;
use tokar_engine::catalog::AnyGame;
use tokar_engine::{Event, Seat, Viewer};
use tokar_model::clock::Millis;
use tokar_model::record::{GameRecord, LogAction, LogEntry, Phase, Reseed, ReseedKind, TurnClock};
use tracing::warn;

/// The game-access helpers every command shares: which game a user means, whether it may be
/// reached from here, the turn message and its picture, and how a change is staged and stored.
#[derive(Clone, Copy)]
pub(crate) struct Games<'t> {
    pub(super) t: &'t Table,
}

/// Where [`Games::pick_with`] found the user's games.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// Played in the channel typed in, or moved from it into their thread.
    Here,
    /// Elsewhere on the channel's server.
    Server,
}

/// Whether `channel` is where a game is played or the channel its thread was opened under.
pub(super) fn at_home(rec: &GameRecord, channel: u64) -> bool {
    rec.channel.id == channel || rec.thread.as_ref().is_some_and(|t| t.home.id == channel)
}

/// Which of the user's games a command may mean when none is named.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Pick {
    /// A started game the user plays; the one waiting for them if several.
    Play,
    /// A game the user plays or is setting up.
    Member,
    /// As `Member`, or else the only game being played in the channel.
    View,
}

/// Sets who the game waits for; the clock restarts when that changes. True when this
/// ends the game (it was not finished before).
pub(super) fn retime(rec: &mut GameRecord, game: &AnyGame, now: Millis) -> bool {
    let waiting: Vec<u64> = if outcome(rec, game).is_over() {
        Vec::new()
    } else {
        users_of(rec, &game.to_act()).iter().map(|u| u.id).collect()
    };
    if waiting != rec.turn.waiting {
        rec.turn = TurnClock {
            since: now,
            waiting,
            reminded_at: None,
            deadline_told: false,
        };
    }
    if outcome(rec, game).is_over() && rec.phase != Phase::Finished {
        rec.phase = Phase::Finished;
        return true;
    }
    false
}

impl Games<'_> {
    pub(super) async fn records_by_id(&self, ids: Vec<u64>) -> Res<Vec<GameRecord>> {
        self.t.records().read(move |s| s.games(&ids)).await
    }

    pub(super) async fn records_of_user(&self, user: u64) -> Res<Vec<GameRecord>> {
        let ids = self
            .t
            .records()
            .read(move |s| s.games_of_user(user))
            .await?;
        self.records_by_id(ids).await
    }

    /// The game a command means: the one named, or the user's only candidate here (for
    /// [`Pick::Play`], the one waiting for them when there are several).
    pub(super) async fn pick(&self, req: &Request, given: Option<u64>, pick: Pick) -> Res<u64> {
        let user = req.user.id;
        self.pick_with(req, given, pick, |r| {
            pick == Pick::Play && r.turn.waiting.contains(&user)
        })
        .await
    }

    /// As [`Games::pick`], but among several candidates the only one `prefer` holds for
    /// is meant: the game with the offer to answer, the one whose deadline passed. The
    /// candidates are the user's games here (played here, or moved from here into their
    /// thread), else their games on this server (ruling T38).
    pub(super) async fn pick_with(
        &self,
        req: &Request,
        given: Option<u64>,
        pick: Pick,
        prefer: impl Fn(&GameRecord) -> bool,
    ) -> Res<u64> {
        if let Some(g) = given {
            return Ok(g);
        }
        let (found, scope) = self.candidates_scoped(req, pick).await?;
        let mut candidates: Vec<&GameRecord> = found.iter().collect();
        if candidates.len() > 1 {
            let preferred: Vec<&GameRecord> =
                candidates.iter().copied().filter(|r| prefer(r)).collect();
            if preferred.len() == 1 {
                candidates = preferred;
            }
        }
        let numbers = |many: &[&GameRecord]| {
            many.iter()
                .map(|r| format!("#{}", r.id))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match (candidates.as_slice(), scope) {
            ([one], _) => Ok(one.id),
            ([], _) if pick == Pick::View => self.shown_in_channel(req).await,
            ([], _) => Err(
                "You are not playing a game in this channel. /games lists yours; /new starts one."
                    .into(),
            ),
            (many, Scope::Here) => Err(format!(
                "You play several games here ({}): add game:<number>.",
                numbers(many)
            )
            .into()),
            (many, Scope::Server) => Err(format!(
                "You play several games on this server ({}): add game:<number>.",
                numbers(many)
            )
            .into()),
        }
    }

    /// The user's games in this channel that `pick` may mean, else on this server.
    pub(super) async fn candidates(&self, req: &Request, pick: Pick) -> Res<Vec<GameRecord>> {
        Ok(self.candidates_scoped(req, pick).await?.0)
    }

    /// The user's games that `pick` may mean and where they were found: those played in
    /// this channel or moved from it into their thread; when there are none, those of this
    /// server (none in a direct message). For [`Pick::View`] the server's are not looked at:
    /// a viewer who plays nothing here means the game shown here (ruling T38).
    async fn candidates_scoped(&self, req: &Request, pick: Pick) -> Res<(Vec<GameRecord>, Scope)> {
        let user = req.user.id;
        let mine: Vec<GameRecord> = self
            .records_of_user(user)
            .await?
            .into_iter()
            .filter(|r| is_member(r, user))
            .filter(|r| match pick {
                Pick::Play => r.phase == Phase::Playing,
                _ => matches!(r.phase, Phase::Lobby | Phase::Playing),
            })
            .collect();
        let (here, elsewhere): (Vec<GameRecord>, Vec<GameRecord>) =
            mine.into_iter().partition(|r| at_home(r, req.channel.id));
        if !here.is_empty() || pick == Pick::View {
            return Ok((here, Scope::Here));
        }
        let server: Vec<GameRecord> = match req.channel.guild {
            Some(g) => elsewhere
                .into_iter()
                .filter(|r| r.guild == Some(g))
                .collect(),
            None => Vec::new(),
        };
        Ok((server, Scope::Server))
    }

    /// The game a viewer who plays none here means: the only one being played in the
    /// channel, or else the one that ended last there (its board, history and record stay
    /// readable after the end).
    async fn shown_in_channel(&self, req: &Request) -> Res<u64> {
        let c = req.channel.id;
        let ids = self
            .t
            .records()
            .blocking(move |s| s.games_in_channel(c))
            .await?;
        let recs = self.records_by_id(ids).await?;
        let playing: Vec<u64> = recs
            .iter()
            .filter(|r| r.phase == Phase::Playing)
            .map(|r| r.id)
            .collect();
        match playing.as_slice() {
            [one] => Ok(*one),
            [] => recs
                .iter()
                .filter(|r| r.phase == Phase::Finished)
                // A finished game's clock last restarted when it ended.
                .max_by_key(|r| (r.turn.since, r.id))
                .map(|r| r.id)
                .ok_or_else(|| "No game is being played in this channel.".into()),
            many => Err(format!(
                "Several games are being played here ({}): add game:<number>.",
                many.iter()
                    .map(|i| format!("#{i}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
            .into()),
        }
    }

    /// The message after a change of turn: the picture, the buttons, and a
    /// ping for exactly the users who are newly waited on.
    pub(super) async fn turn_message(
        &self,
        channel: &ChannelRef,
        rec: &GameRecord,
        game: &AnyGame,
        content: String,
        before: &[u64],
    ) -> Reply {
        let mut reply = self.turn_words(channel, rec, game, content, before);
        // From the side of the seat that must think now (the first of those
        // acting together); once over, from seat 0's, as spectators see it (T37).
        let side = game.to_act().first().copied().unwrap_or(Seat(0));
        reply.images.extend(
            self.picture(rec, game, Viewer::Spectator, Some(side), Vec::new(), None)
                .await,
        );
        reply
    }

    /// [`Games::turn_message`] without its picture: the message of one step of a turn that the
    /// same users go on with (ruling T16).
    pub(super) fn turn_words(
        &self,
        channel: &ChannelRef,
        rec: &GameRecord,
        game: &AnyGame,
        content: String,
        before: &[u64],
    ) -> Reply {
        let mut reply = Reply::public(channel, content);
        reply.mentions = rec
            .turn
            .waiting
            .iter()
            .filter(|u| !before.contains(u) && !self.t.bot().is_robot(**u))
            .filter_map(|&u| rec.members.iter().find(|m| m.user.id == u))
            .map(|m| UserRef::from(&m.user))
            .collect();
        if !outcome(rec, game).is_over() {
            let view = game.view(Viewer::Spectator);
            if view.seats.iter().any(|s| s.hand_size.is_some()) {
                reply.buttons.push(Button {
                    custom_id: format!("tokar:{}:{}:hand", rec.id, rec.log_len),
                    label: "Show my hand".into(),
                });
            }
            reply.buttons.push(Button {
                custom_id: format!("tokar:{}:{}:moves", rec.id, rec.log_len),
                label: "My moves".into(),
            });
        }
        reply
    }

    /// Refuses an answer to a game's invitation from another channel than the game's own:
    /// the lobby keeps its channel (ruling T38).
    pub(super) fn own_channel(rec: &GameRecord, req: &Request) -> Res<()> {
        Self::not_lost(rec)?;
        if rec.channel.id == req.channel.id {
            Ok(())
        } else {
            Err(Self::elsewhere(rec).into())
        }
    }

    /// Refuses a change to a game that lost its channel: only `/resume` moves it on (T12).
    fn not_lost(rec: &GameRecord) -> Res<()> {
        match rec.channel_lost {
            Some(_) => Err(format!(
                "Game #{} lost its channel #{}: run /resume game:{} in the channel where it should go on.",
                rec.id, rec.channel.name, rec.id
            ).into()),
            None => Ok(()),
        }
    }

    fn elsewhere(rec: &GameRecord) -> String {
        format!(
            "Game #{} is played in {}; act there.",
            rec.id,
            super::threads::place(rec)
        )
    }

    /// Refuses a change to a game from where it may not be reached: a game is changed from
    /// its own channel (its thread once it has one), from the channel it was created in, and
    /// from any channel of its server; never from another server or a direct message
    /// (ruling T38). Discord refuses application commands in an archived thread
    /// (discord-api-docs, topics/threads.mdx, "Active & Archived Threads": users "cannot …
    /// use application commands … in archived threads"), so a game whose thread Discord
    /// archived after a quiet week must be playable from its channel.
    pub(super) fn reachable(rec: &GameRecord, req: &Request) -> Res<()> {
        Self::not_lost(rec)?;
        let same_server = rec.guild.is_some() && rec.guild == req.channel.guild;
        if at_home(rec, req.channel.id) || same_server {
            Ok(())
        } else {
            Err(Self::elsewhere(rec).into())
        }
    }

    /// Where a game's public messages go: its own channel (its thread once it has one),
    /// whatever channel the command was typed in (ruling T38).
    pub(super) fn game_channel(rec: &GameRecord, req: &Request) -> ChannelRef {
        if rec.channel.id == req.channel.id {
            return req.channel.clone();
        }
        ChannelRef {
            id: rec.channel.id,
            name: rec.channel.name.clone(),
            guild: rec.guild.or(req.channel.guild),
            parent: rec.thread.as_ref().map(|t| t.home.id),
            threads: super::ThreadSupport::Unknown,
        }
    }

    /// A started, unfinished game the user plays, locked and loaded.
    pub(super) async fn playing(
        &self,
        req: &Request,
        given: Option<u64>,
    ) -> Res<(tokio::sync::OwnedMutexGuard<()>, Loaded)> {
        let id = self.pick(req, given, Pick::Play).await?;
        self.playing_id(req, id).await
    }

    /// As [`Games::playing`], for a game already picked.
    pub(super) async fn playing_id(
        &self,
        req: &Request,
        id: u64,
    ) -> Res<(tokio::sync::OwnedMutexGuard<()>, Loaded)> {
        let guard = self.t.records().lock(id).await;
        let l = self.t.records().load(id).await?;
        match l.rec.phase {
            Phase::Lobby => return Err(text::lobby_status(&l.rec).into()),
            Phase::Cancelled => return Err(format!("Game #{id} was cancelled.").into()),
            Phase::Finished => {
                return Err(format!("Game #{id} is over; it cannot be changed.").into())
            }
            Phase::Playing => {}
        }
        if !is_member(&l.rec, req.user.id) {
            return Err(format!("You are not playing in game #{id}.").into());
        }
        Self::reachable(&l.rec, req)?;
        Ok((guard, l))
    }

    /// The public message for an applied change, and each seat's secrets.
    /// `picture`: whether the message carries the position's picture (a step
    /// after which the same users go on acting does not, ruling T16).
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn announce(
        &self,
        req: &Request,
        rec: &GameRecord,
        game: &AnyGame,
        head: &str,
        events: &[Event],
        before: &[u64],
        picture: bool,
    ) -> Vec<Reply> {
        let mut lines = vec![format!("{head}.")];
        lines.extend(
            events
                .iter()
                .filter(|e| !e.text.is_empty())
                .map(|e| format!("· {}", e.text)),
        );
        lines.push(text::status(rec, game));
        let channel = Self::game_channel(rec, req);
        let message = if picture {
            self.turn_message(&channel, rec, game, lines.join("\n"), before)
                .await
        } else {
            self.turn_words(&channel, rec, game, lines.join("\n"), before)
        };
        let mut out = vec![message];
        // A bot seat's secrets (its drawn cards) are for nobody: the bot reads
        // its own hand from the game, and Discord cannot message it.
        for e in events {
            if let Some(secret) = &e.secret {
                if let Some(u) =
                    text::holder(rec, secret.seat).filter(|u| !self.t.bot().is_robot(u.id))
                {
                    out.push(Reply::private(
                        &req.channel,
                        &UserRef::from(u),
                        format!("Game #{}: {}", rec.id, secret.text),
                    ));
                }
            }
        }
        out
    }

    /// Stages `append`, entries whose actions made `rec`'s game into `game`:
    /// the log grows by them, pending draw and undo offers lapse, the next
    /// turn's clock starts; [`Games::store`] then saves all of it at once (if
    /// `rec` is still at `version`) with what it announces.
    /// Gives a game begun with a SplitMix64 seed (record format 1, stored by a build before
    /// ChaCha20) a fresh ChaCha20 key before its next action, recorded as a rekey so the game
    /// still replays exactly. SplitMix64 seeds were derived from numbers a player could learn
    /// (engine/rules/chance.md), so an old game's dice to come and draw pile are given a key
    /// nobody has seen; what was shown stands. Nothing is stored here: the rekey is kept only
    /// if the action it comes before is.
    pub(super) fn strengthen(&self, l: &mut Loaded) -> Res<()> {
        let Some(game) = l.game.as_mut() else {
            return Ok(());
        };
        if game.chance_is_strong() || outcome(&l.rec, game).is_over() {
            return Ok(());
        }
        let seed = self
            .t
            .seeds()
            .draw_seed(tokar_model::entropy::Purpose::Rekey, l.rec.id)?;
        game.rekey(seed);
        // A ChaCha20 key came with format 2: the record is written in it from now on.
        l.rec.format = tokar_model::record::FORMAT;
        l.rec.reseeds.push(Reseed {
            after: l.rec.log_len,
            seed,
            kind: ReseedKind::Rekey,
        });
        tracing::debug!(
            game = l.rec.id,
            after = l.rec.log_len,
            "an old game's chance rekeyed"
        );
        Ok(())
    }

    pub(super) async fn stage_entries(
        &self,
        mut rec: GameRecord,
        game: &AnyGame,
        version: u64,
        append: Vec<LogEntry>,
    ) -> Res<super::writes::Staged> {
        rec.log_len += append.len() as u64;
        rec.draw_offer = None;
        rec.undo_offer = None;
        let ended = retime(&mut rec, game, self.t.records().now());
        let mut staged = self
            .stage(
                Loaded {
                    rec,
                    game: Some(game.clone()),
                },
                Some(version),
                Change {
                    append,
                    truncate_from: None,
                },
            )
            .await?;
        staged.ended = ended;
        Ok(staged)
    }

    /// The picture of a position for `viewer`, drawn off the async executor,
    /// from `side`'s side when given (ruling T37), else from the view's own.
    /// A picture that cannot be drawn is logged and left out: the text of the
    /// reply still says everything.
    pub(super) async fn picture(
        &self,
        rec: &GameRecord,
        game: &AnyGame,
        viewer: tokar_engine::Viewer,
        side: Option<Seat>,
        targets: Vec<tokar_engine::Cell>,
        selected: Option<tokar_engine::Cell>,
    ) -> Vec<Image> {
        let name = format!("game-{}-{}.png", rec.id, rec.log_len);
        let mut scene = tokar_model::scene::Scene {
            view: game.view(viewer),
            marks: rec
                .last_marks
                .iter()
                .map(|&(c, m)| (tokar_engine::Cell(c), m))
                .collect(),
            targets,
            selected,
            side,
            clock: None,
        };
        // The time left on the move, under the header, while someone must act.
        if rec.phase == tokar_model::record::Phase::Playing && !rec.turn.waiting.is_empty() {
            match self.t.schedule().effective_deadline(rec).await {
                Ok(d) => {
                    scene.clock = Some(format!(
                        "Move deadline: {}",
                        d.describe(self.t.records().now())
                    ))
                }
                Err(e) => warn!(game = rec.id, error = %e, "picture drawn without its clock"),
            }
        }
        self.t
            .pictures()
            .draw(vec![(0, name, Arc::new(scene))])
            .await
            .into_iter()
            .map(|(_, image)| image)
            .collect()
    }
}

/// An action as the history shows it.
/// A log entry as players read it: a concession made by someone other than
/// the seat's holder is a claim at the move deadline, not a resignation.
pub(super) fn describe_entry(rec: &GameRecord, e: &LogEntry) -> String {
    match e.action {
        LogAction::Concede
            if text::holder(rec, tokar_engine::Seat(e.seat)).is_some_and(|u| u.id != e.user) =>
        {
            "loses at the move deadline (claimed)".into()
        }
        _ => describe(&e.action),
    }
}

pub(super) fn describe(a: &LogAction) -> String {
    match a {
        LogAction::Play(n) => n.clone(),
        LogAction::Concede => "resigns".into(),
        LogAction::Skip => "turn skipped (deadline)".into(),
    }
}

pub(super) fn marks(events: &[Event]) -> Vec<(u16, tokar_engine::Mark)> {
    events
        .iter()
        .flat_map(|e| e.marks.iter().map(|(c, m)| (c.0, *m)))
        .collect()
}

/// A typed action compared loosely with a notation: case, spaces and dashes
/// aside (`King:B2B4` is `king: b2-b4`).
pub(super) fn squeeze(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}
