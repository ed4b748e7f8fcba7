//! A league's games: making them through the table's own start of a game,
//! reading their results for the standings, conceding the games of a player
//! who left, and announcing the winner when the last game ends (T32-T36).

use super::{text, ChannelRef, Loaded, Reply, Request, Res, Table, UserRef};
use tokar_engine::catalog::{AnyGame, Options};
use tokar_engine::{Outcome, Seat, Viewer};
use tokar_model::league::pairing::interleave;
use tokar_model::league::{standings, LeaguePhase, LeagueRecord, Played, Rules, Standings};
use tokar_model::outbox::{Carrier, OutboxEntry};
use tokar_model::record::{
    GameRecord, LogAction, LogEntry, Member, Named, Phase, PlayOptions, TurnClock, FORMAT,
};
use tracing::{error, warn};

/// A league's games: made, counted and finished as the league goes (rulings T34-T36).
#[derive(Clone, Copy)]
pub(crate) struct LeagueGames<'t> {
    pub(super) t: &'t Table,
}

/// League locks share the table's lock map with games: this bit keeps their keys apart.
pub(super) const LEAGUE_LOCK: u64 = 1 << 63;

/// The channel of a league (or of a game of it), with its server.
pub(super) fn league_channel(l: &LeagueRecord) -> ChannelRef {
    ChannelRef {
        id: l.channel.id,
        name: l.channel.name.clone(),
        guild: l.guild,
        parent: None,
        threads: super::ThreadSupport::Unknown,
    }
}

/// A request made on a user's behalf by the league itself (starting its
/// games, conceding a leaver's): in the league's channel, with no interaction.
fn on_behalf(l: &LeagueRecord, user: &Named) -> Request {
    Request {
        user: UserRef::from(user),
        channel: league_channel(l),
        command: tokar_model::Command::League(tokar_model::command::LeagueCommand::List),
        interaction_token: None,
        // The league acts for the player, never as a server manager.
        manage_server: false,
    }
}

impl LeagueGames<'_> {
    /// Stores a league record (compare-and-swap on `expected`) with the
    /// outbox entries of its replies, as [`Games::store`](crate::games::Games::store) does for a game: what
    /// others must receive is stored with the change, the invoker's own
    /// private answers go direct.
    pub(super) async fn league_commit(
        &self,
        req: Option<&Request>,
        rec: LeagueRecord,
        expected: Option<u64>,
        mut replies: Vec<Reply>,
    ) -> Res<Vec<Reply>> {
        let now = self.t.records().now();
        let mut announced = Vec::new();
        let mut carried = false;
        for (i, r) in replies.iter().enumerate() {
            let to_invoker =
                matches!((&r.ephemeral_to, req), (Some(u), Some(q)) if u.id == q.user.id);
            if to_invoker || !r.ok {
                continue;
            }
            let mut new = OutboxEntry::from_reply(r, None, now);
            if let Some(q) = req {
                if !carried && r.ephemeral_to.is_none() && r.channel.id == q.channel.id {
                    if let Some(token) = &q.interaction_token {
                        new.entry.carrier = Some(Carrier {
                            token: token.clone(),
                            at: now,
                        });
                        carried = true;
                    }
                }
            }
            announced.push((i, new));
        }
        let token = req
            .and_then(|q| q.interaction_token.clone())
            .filter(|_| carried);
        if let Some(t) = &token {
            self.t.staging().claims().insert(t.clone());
        }
        let entries: Vec<_> = announced.iter().map(|(_, e)| e.clone()).collect();
        let ids = match self
            .t
            .records()
            .blocking(move |s| s.put_league(&rec, expected, &entries))
            .await
        {
            Ok(ids) => ids,
            Err(e) => {
                if let Some(t) = &token {
                    self.t.staging().claims().remove(t);
                }
                return Err(e);
            }
        };
        for ((i, _), id) in announced.iter().zip(&ids) {
            replies[*i].outbox = Some(*id);
        }
        if !ids.is_empty() {
            self.t.staging().notify();
        }
        Ok(replies)
    }

    /// Creates and starts the league's games that do not exist yet, each as
    /// the table starts any game whose seats are all taken. A game number is
    /// reserved in the league record before its game is made, and making a
    /// game that exists is refused by the store: after a crash part-way, the
    /// next tick makes the rest, none twice.
    pub(super) async fn league_make_games(&self, l: &LeagueRecord) -> Vec<Reply> {
        let mut out = Vec::new();
        for f in &l.fixtures {
            let id = f.game;
            match self.t.records().blocking(move |s| s.game(id)).await {
                Ok(None) => {}
                Ok(Some(_)) => continue,
                Err(e) => {
                    warn!(league = l.id, game = id, error = %e, "league game unreadable");
                    continue;
                }
            }
            let sides: Vec<Vec<Named>> = f
                .entrants
                .iter()
                .map(|&e| l.entrants[e].members.clone())
                .collect();
            let people: Vec<Named> = match sides.as_slice() {
                [home, away] => interleave(home, away),
                _ => sides.concat(),
            };
            let players = people.len();
            let mut options = Options::new();
            l.kind.stamp(&mut options, players);
            // The home side moves first where the game lets players choose (T33).
            let first = l
                .kind
                .options()
                .iter()
                .any(|o| o.name == "first" && o.choices.contains(&"creator"));
            if first {
                options.insert("first".into(), "creator".into());
            }
            let seed = match self.t.seeds().seed_for(id) {
                Ok(s) => s,
                Err(e) => {
                    error!(league = l.id, game = id, error = %e, "league game not started");
                    continue;
                }
            };
            // Rated unless the league was created `rated:no` (T28, T33); a rated game
            // is played without hints, an unrated one has them (T49). A league
            // created `vacation:off` gives every game that option (T50).
            let rated = l.rated;
            let play = PlayOptions {
                vacation: l.vacation,
                ..PlayOptions::for_rated(rated)
            };
            let _guard = self.t.records().lock(id).await;
            let rec = GameRecord {
                format: FORMAT,
                id,
                version: 0,
                kind: l.kind,
                channel: l.channel.clone(),
                created_at: self.t.records().now(),
                creator: people[0].id,
                players,
                members: people
                    .iter()
                    .map(|p| Member {
                        user: p.clone(),
                        seat_options: Options::new(),
                        seats: Vec::new(),
                    })
                    .collect(),
                invited: Vec::new(),
                options,
                seed,
                phase: Phase::Lobby,
                table_outcome: None,
                log_len: 0,
                snapshot: None,
                deadline: l.deadline,
                turn: TurnClock::default(),
                draw_offer: None,
                undo_offer: None,
                scheduled: None,
                last_marks: Vec::new(),
                preset: Vec::new(),
                play,
                channel_lost: None,
                reseeds: Vec::new(),
                guild: l.guild,
                rated: Some(rated),
                thread: None,
                // The players' own reminder settings (T2); nobody follows yet.
                reminder: None,
                followers: Vec::new(),
                started_at: None,
            };
            let req = on_behalf(l, &people[0]);
            match self.t.lobby().start_and_save(rec, None, &req, "").await {
                Ok(mut r) => {
                    if let Some(first) = r.first_mut() {
                        first.content = format!("League {}: {}", l.name, first.content);
                    }
                    out.extend(r);
                }
                Err(e) => error!(league = l.id, game = id, error = %e, "league game not started"),
            }
        }
        out
    }

    /// The result of each league game, for the standings.
    pub(super) async fn league_results(&self, l: &LeagueRecord) -> Res<Vec<Played>> {
        let mut out = Vec::new();
        for f in &l.fixtures {
            let id = f.game;
            let (rec, log) = self
                .t
                .records()
                .blocking(move |s| {
                    let rec = s.game(id)?;
                    let log = match &rec {
                        Some(r) if r.phase == Phase::Finished => s.log(id)?,
                        _ => Vec::new(),
                    };
                    Ok((rec, log))
                })
                .await?;
            let mut played = Played {
                entrants: f.entrants.clone(),
                places: None,
                by_claim: Vec::new(),
                forfeited: Vec::new(),
            };
            if let Some(rec) = rec.filter(|r| r.phase == Phase::Finished) {
                let Loaded { game, .. } = self.t.records().load(id).await?;
                let game = game.ok_or_else(|| super::records::unloadable(id, "no game"))?;
                played.places = Some(places(l, &rec, &game, &log, &f.entrants));
                for e in &log {
                    let holder = text::holder(&rec, Seat(e.seat)).map(|u| u.id);
                    if e.action == LogAction::Concede && holder.is_some_and(|h| h != e.user) {
                        if let Some(x) = holder.and_then(|h| l.entrant_of(h)) {
                            if !played.by_claim.contains(&x) {
                                played.by_claim.push(x);
                            }
                        }
                    }
                }
                // Lost at the deadline without a play of their own: a
                // forfeit, a game not played (T57).
                for &x in &played.by_claim {
                    let acted = log.iter().any(|e| {
                        matches!(e.action, LogAction::Play(_)) && l.entrant_of(e.user) == Some(x)
                    });
                    if !acted {
                        played.forfeited.push(x);
                    }
                }
            }
            out.push(played);
        }
        Ok(out)
    }

    pub(super) async fn league_standings(&self, l: &LeagueRecord) -> Res<Standings> {
        let results = self.league_results(l).await?;
        Ok(self.standings_from(l, &results))
    }

    /// The standings of league `l` from its games' results.
    pub(super) fn standings_from(&self, l: &LeagueRecord, results: &[Played]) -> Standings {
        let names: Vec<String> = l.entrants.iter().map(|e| e.label()).collect();
        let left: Vec<bool> = l.entrants.iter().map(|e| e.left_at.is_some()).collect();
        standings(&names, &left, results, &Rules::of(l))
    }

    /// Called after every stored game write that ended a game: if it was a
    /// league's last game, the league ends and its winner is announced, in the
    /// same transaction as the league's change (compare-and-swapped, so once).
    pub(super) async fn league_game_over(&self, game: u64) -> Vec<Reply> {
        let league = match self
            .t
            .records()
            .blocking(move |s| s.league_of_game(game))
            .await
        {
            Ok(Some(l)) => l,
            Ok(None) => return Vec::new(),
            Err(e) => {
                warn!(game, error = %e, "league index unreadable");
                return Vec::new();
            }
        };
        self.league_finish_if_over(league).await
    }

    /// Ends a league whose games are all over; nothing otherwise.
    pub(super) async fn league_finish_if_over(&self, league: u64) -> Vec<Reply> {
        let l = match self.t.records().blocking(move |s| s.league(league)).await {
            Ok(Some(l)) if l.phase == LeaguePhase::Playing => l,
            _ => return Vec::new(),
        };
        let s = match self.league_standings(&l).await {
            Ok(s) if s.games_left == 0 && !l.fixtures.is_empty() => s,
            _ => return Vec::new(),
        };
        let winners: Vec<usize> = s
            .order
            .iter()
            .zip(&s.places)
            .filter(|(_, &p)| p == 1)
            .map(|(&e, _)| e)
            .collect();
        let names: Vec<String> = winners.iter().map(|&w| l.entrants[w].label()).collect();
        let points = s.rows.first().map(|r| r[3].clone()).unwrap_or_default();
        let head = match names.as_slice() {
            [one] => format!(
                "League {} is over: {one} wins it with {points} points!",
                l.name
            ),
            many => format!(
                "League {} is over: {} share first place with {points} points each!",
                l.name,
                many.join(" and ")
            ),
        };
        let mut reply = Reply::public(
            &league_channel(&l),
            format!("{head}\n```\n{}\n```", s.text()),
        );
        reply.mentions = l
            .people()
            .filter(|p| !self.t.bot().is_robot(p.id))
            .map(UserRef::from)
            .collect();
        let version = l.version;
        let mut done = l;
        done.phase = LeaguePhase::Finished;
        done.winners = winners;
        match self
            .league_commit(None, done, Some(version), vec![reply])
            .await
        {
            Ok(r) => r,
            // Another write got there first (the same end seen twice): it announced.
            Err(e) => {
                warn!(league, reason = %e, "league end not stored now");
                Vec::new()
            }
        }
    }

    /// Concedes, as lost at the move deadline, every seat a player who left
    /// still holds in the league's unfinished games (T34). Run at `/league
    /// leave` and again by the tick, so a crash part-way loses nothing.
    pub(super) async fn league_concede_leavers(&self, l: &LeagueRecord) -> Vec<Reply> {
        let mut out = Vec::new();
        let leavers: Vec<usize> = (0..l.entrants.len())
            .filter(|&e| l.entrants[e].left_at.is_some())
            .collect();
        if leavers.is_empty() {
            return out;
        }
        for f in &l.fixtures {
            if !f.entrants.iter().any(|e| leavers.contains(e)) {
                continue;
            }
            let _guard = self.t.records().lock(f.game).await;
            let Ok(loaded) = self.t.records().load(f.game).await else {
                continue;
            };
            if loaded.rec.phase != Phase::Playing {
                continue;
            }
            let Some(game) = loaded.game.as_ref() else {
                continue;
            };
            let gone = |u: u64| l.entrant_of(u).is_some_and(|e| leavers.contains(&e));
            let seats: Vec<Seat> = loaded
                .rec
                .members
                .iter()
                .filter(|m| gone(m.user.id))
                .flat_map(|m| m.seats.iter().map(|&s| Seat(s)))
                .filter(|&s| !game.view(Viewer::Spectator).seats[s.0 as usize].eliminated)
                .collect();
            let claimer = loaded.rec.members.iter().find(|m| !gone(m.user.id));
            let (Some(claimer), false) = (claimer, seats.is_empty()) else {
                continue;
            };
            let who: Vec<&str> = loaded
                .rec
                .members
                .iter()
                .filter(|m| gone(m.user.id))
                .map(|m| m.user.name.as_str())
                .collect();
            let headline = format!(
                "League {}: {} left the league, so game #{} is lost at the move deadline",
                l.name,
                who.join(" and "),
                f.game
            );
            let req = on_behalf(l, &claimer.user);
            let version = loaded.rec.version;
            let before = loaded.rec.turn.waiting.clone();
            match self
                .t
                .offers()
                .concede_seats(&req, loaded, version, &seats, &headline, &before, true)
                .await
            {
                Ok(r) => out.extend(r),
                Err(e) => {
                    warn!(league = l.id, game = f.game, reason = %e, "leaver's game not conceded")
                }
            }
        }
        out
    }

    /// The tick's part: leagues whose games are not all made yet, leavers'
    /// games still open, and ends not yet announced (after a crash).
    pub(super) async fn league_tick(&self) -> Vec<Reply> {
        let leagues = match self.t.records().blocking(|s| s.leagues()).await {
            Ok(l) => l,
            Err(e) => {
                warn!(error = %e, "leagues unreadable");
                return Vec::new();
            }
        };
        let mut out = self.t.leagues().league_expire(&leagues).await;
        for l in leagues
            .into_iter()
            .filter(|l| l.phase == LeaguePhase::Playing)
        {
            out.extend(self.league_make_games(&l).await);
            out.extend(self.league_concede_leavers(&l).await);
            out.extend(self.league_finish_if_over(l.id).await);
        }
        out
    }
}

/// Each entrant's place in a finished game (0 is first). The winners come
/// first; in a draw, everyone still in the game shares first place. The
/// others are placed by when they fell: the later, the better (T35); in a
/// duel the loser is simply second.
fn places(
    l: &LeagueRecord,
    rec: &GameRecord,
    game: &AnyGame,
    log: &[LogEntry],
    entrants: &[usize],
) -> Vec<u32> {
    let outcome = super::outcome(rec, game);
    let seats_of = |e: usize| -> Vec<u8> {
        rec.members
            .iter()
            .filter(|m| l.entrant_of(m.user.id) == Some(e))
            .flat_map(|m| m.seats.iter().copied())
            .collect()
    };
    let fell = if entrants.len() > 2 {
        fall_times(rec, log)
    } else {
        Vec::new()
    };
    let rank: Vec<u64> = entrants
        .iter()
        .map(|&e| {
            let seats = seats_of(e);
            let top = match &outcome {
                Outcome::Won { winners, .. } => winners.iter().any(|w| seats.contains(&w.0)),
                Outcome::Drawn { .. } => seats
                    .iter()
                    .any(|s| fell.get(*s as usize).copied().flatten().is_none()),
                Outcome::Ongoing => false,
            };
            if top {
                u64::MAX
            } else {
                seats
                    .iter()
                    .filter_map(|s| fell.get(*s as usize).copied().flatten())
                    .max()
                    .map_or(0, |t| t as u64 + 1)
            }
        })
        .collect();
    rank.iter()
        .map(|r| rank.iter().filter(|o| *o > r).count() as u32)
        .collect()
}

/// After how many log entries each seat was out of the game (`None`: never),
/// by replaying the log.
fn fall_times(rec: &GameRecord, log: &[LogEntry]) -> Vec<Option<usize>> {
    let Ok(mut game) = AnyGame::setup(rec.kind, &rec.options, rec.seed) else {
        return Vec::new();
    };
    let seats = game.view(Viewer::Spectator).seats.len();
    let mut fell = vec![None; seats];
    for (i, e) in log.iter().enumerate() {
        super::reseed_at(rec, &mut game, i as u64);
        if super::apply_entry(&mut game, e).is_err() {
            break;
        }
        for (s, v) in game.view(Viewer::Spectator).seats.iter().enumerate() {
            if v.eliminated && fell[s].is_none() {
                fell[s] = Some(i);
            }
        }
    }
    fell
}
