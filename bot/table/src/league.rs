//! /league: round-robin leagues of a server (rulings T32-T36 in docs/rulings.md).
//! `new` invites the players, `accept` and `decline` answer, the games start
//! when the last one says yes; `table` shows the standings (before the start,
//! who said yes), `list` the server's leagues, `leave` gives up the games
//! left, `cancel` lets the creator call off a league not yet started. One not
//! answered by its invitation deadline expires (T45).

use super::league_games::{league_channel, LEAGUE_LOCK};
use super::{Reply, Request, Res, Table, UserRef};
use tokar_engine::catalog::GameKind;
use tokar_model::clock::Millis;
use tokar_model::command::{LeagueCommand, NewLeague};
use tokar_model::duration;
use tokar_model::league::pairing::fixtures;
use tokar_model::league::rules::Numbers;
use tokar_model::league::scores::numbers_by_lot;
use tokar_model::league::{Entrant, Fixture, LeaguePhase, LeagueRecord, LEAGUE_FORMAT};
use tokar_model::record::Named;
use tokar_store::GLOBAL;

/// /league and its subcommands: a league's entrants, answers, list and crosstable.
#[derive(Clone, Copy)]
pub(crate) struct Leagues<'t> {
    pub(super) t: &'t Table,
}

/// The most entrants a league takes: duels, and tables of four (T35).
const MOST_DUEL: usize = 16;
const MOST_TABLES: usize = 6;

pub(super) fn phase_word(p: LeaguePhase) -> &'static str {
    match p {
        LeaguePhase::Forming => "waiting for players to say yes",
        LeaguePhase::Playing => "playing",
        LeaguePhase::Finished => "finished",
        LeaguePhase::Cancelled => "cancelled",
        LeaguePhase::Expired => "expired (not everyone said yes by its invitation deadline)",
    }
}

/// Whether a league still forming is past its invitation deadline: expired,
/// whether or not the tick has stored it so yet (T45).
pub(super) fn lapsed(l: &LeagueRecord, now: Millis) -> bool {
    l.phase == LeaguePhase::Expired
        || l.phase == LeaguePhase::Forming && now >= l.invitation_deadline()
}

/// Whether a league's games are rated and may be paused by a vacation, as
/// its description says it (T49, T50).
fn play_text(l: &LeagueRecord) -> String {
    let rated = if l.rated {
        "Rated: its games count for ratings and are played without hints"
    } else {
        "Unrated: its games do not count for ratings, and /hint answers in them"
    };
    if l.vacation {
        format!("{rated}.")
    } else {
        format!("{rated}. No vacation: /vacation does not stop its games' clocks.")
    }
}

/// The league's rules as its description says them (T49, T50, T43, T44, T33).
pub(super) fn rules_text(l: &LeagueRecord) -> String {
    format!(
        "{} {}. {}. {}.",
        play_text(l),
        l.tiebreaks.describe(),
        l.withdrawal.describe(),
        {
            let mut n = l.numbers.describe().to_string();
            n[..1].make_ascii_uppercase();
            n
        }
    )
}

/// Seats at one table: four in Magic Chess, else a duel of two sides.
pub(super) fn table_size(kind: GameKind) -> usize {
    if kind == GameKind::MagicChess {
        4
    } else {
        2
    }
}

impl Leagues<'_> {
    pub(super) async fn cmd_league(&self, req: &Request, sub: &LeagueCommand) -> Res<Vec<Reply>> {
        match sub {
            LeagueCommand::New(n) => self.league_new(req, n).await,
            LeagueCommand::Answer { yes, name } => {
                self.league_answer(req, name.clone(), *yes).await
            }
            LeagueCommand::Table { name } => self.league_table(req, name.clone()).await,
            LeagueCommand::List => self.league_list(req).await,
            LeagueCommand::Leave { name } => self.league_leave(req, name.clone()).await,
            LeagueCommand::Cancel { name } => self.league_cancel(req, name.clone()).await,
        }
    }

    /// The server's leagues (the channel's, outside a server), oldest first.
    async fn leagues_here(&self, req: &Request) -> Res<Vec<LeagueRecord>> {
        let (guild, channel) = (req.channel.guild, req.channel.id);
        Ok(self
            .t
            .records()
            .blocking(|s| s.leagues())
            .await?
            .into_iter()
            .filter(|l| match guild {
                Some(g) => l.guild == Some(g),
                None => l.guild.is_none() && l.channel.id == channel,
            })
            .collect())
    }

    /// The league a command names (the newest of that name), or without a
    /// name the only one here the user is in (else the only one here).
    pub(super) async fn league_named(
        &self,
        req: &Request,
        name: Option<String>,
    ) -> Res<LeagueRecord> {
        let mut here = self.leagues_here(req).await?;
        here.retain(|l| !matches!(l.phase, LeaguePhase::Cancelled | LeaguePhase::Expired));
        if let Some(n) = name {
            return here
                .into_iter()
                .rev()
                .find(|l| l.name.eq_ignore_ascii_case(n.trim()))
                .ok_or_else(|| {
                    format!("There is no league named {n} here; /league list shows them.").into()
                });
        }
        let mine: Vec<&LeagueRecord> = here
            .iter()
            .filter(|l| l.entrant_of(req.user.id).is_some())
            .collect();
        let pick: Vec<&LeagueRecord> = if mine.is_empty() {
            here.iter().collect()
        } else {
            mine
        };
        match pick.as_slice() {
            [one] => Ok((*one).clone()),
            [] => Err("There is no league here; /league new starts one.".into()),
            many => Err(format!(
                "Name the league: {}.",
                many.iter()
                    .map(|l| format!("name:{}", l.name))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
            .into()),
        }
    }

    async fn league_new(&self, req: &Request, asked: &NewLeague) -> Res<Vec<Reply>> {
        let kind = asked.game;
        let name = asked.name.clone();
        let double = asked.double;
        let deadline = match asked.deadline {
            Some(d) => d,
            None => self.t.records().user_record(&req.user).await?.deadline,
        };
        let team = asked.team;
        let (tiebreaks, withdrawal, numbers) = (asked.tiebreaks, asked.withdrawal, asked.numbers);
        let (rated, vacation) = (asked.rated, asked.vacation);
        let mut people: Vec<u64> = Vec::new();
        for player in &asked.players {
            let word = player.typed.as_str();
            if self.t.bot().names_robot(word) {
                return Err("Leagues are between people: Tokar does not play in them.".into());
            }
            let id = player.id()?;
            if people.contains(&id) {
                return Err(format!("{word} is named twice.").into());
            }
            people.push(id);
        }
        if !people.len().is_multiple_of(team) {
            return Err(format!(
                "{} players do not make teams of {team}: name a multiple of {team}.",
                people.len()
            )
            .into());
        }
        let size = table_size(kind);
        let entrants = people.len() / team;
        let most = if size == 2 { MOST_DUEL } else { MOST_TABLES };
        if !((size..=most).contains(&entrants) || size == 2 && entrants == 2) {
            return Err(format!(
                "A {} league takes {size} to {most} {}, not {entrants}.",
                kind.title(),
                if team > 1 { "teams" } else { "players" }
            )
            .into());
        }
        if kind.seating(size * team).is_err() {
            return Err(
                format!("{} is not played by {} people.", kind.title(), size * team).into(),
            );
        }
        let here = self.leagues_here(req).await?;
        let now = self.t.records().now();
        if here.iter().any(|l| {
            l.name.eq_ignore_ascii_case(&name)
                && matches!(l.phase, LeaguePhase::Forming | LeaguePhase::Playing)
                && !lapsed(l, now)
        }) {
            return Err(format!(
                "A league named {name} is already under way here; choose another name."
            )
            .into());
        }
        let mut named = Vec::new();
        for &p in &people {
            named.push(if p == req.user.id {
                Named::from(&req.user)
            } else {
                self.t.records().name_of(p).await
            });
        }
        let id = self.t.records().blocking(|s| s.next_league_id()).await?;
        // The league's own seed: its lots (T43) and drawn pairing numbers.
        let seed = tokar_engine::Rng::from_seed(
            self.t
                .seeds()
                .draw_seed(tokar_model::entropy::Purpose::League, id)?,
        )
        .next_u64();
        let rec = LeagueRecord {
            format: LEAGUE_FORMAT,
            id,
            version: 0,
            name: name.clone(),
            kind,
            guild: req.channel.guild,
            channel: Named::from(&req.channel),
            creator: req.user.id,
            created_at: self.t.records().now(),
            double,
            deadline,
            entrants: named
                .chunks(team)
                .map(|m| Entrant {
                    members: m.to_vec(),
                    left_at: None,
                })
                .collect(),
            // Naming oneself is saying yes (T32).
            agreed: people
                .iter()
                .copied()
                .filter(|&p| p == req.user.id)
                .collect(),
            phase: LeaguePhase::Forming,
            fixtures: Vec::new(),
            winners: Vec::new(),
            seed,
            tiebreaks,
            withdrawal,
            numbers,
            rated,
            vacation,
        };
        let games = fixtures(entrants, size, double).len();
        let asked: Vec<&Named> = rec
            .people()
            .filter(|p| !rec.agreed.contains(&p.id))
            .collect();
        let mut reply = Reply::public(
            &req.channel,
            format!(
                "{} created league {name}: {}, {} round robin of {entrants} {}, {games} games, move deadline {}. {} {}: say yes with /league accept name:{name} (or /league decline name:{name}) within {}. All games start at once when everyone has said yes.",
                req.user.name,
                kind.title(),
                if double { "double (home and away)" } else { "single" },
                if team > 1 { format!("teams of {team}") } else { "players".into() },
                duration::format(deadline),
                rules_text(&rec),
                asked.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", "),
                duration::format(deadline),
            ),
        );
        reply.mentions = asked.iter().map(|p| UserRef::from(*p)).collect();
        self.t
            .league_games()
            .league_commit(Some(req), rec, None, vec![reply])
            .await
    }

    async fn league_answer(
        &self,
        req: &Request,
        name: Option<String>,
        yes: bool,
    ) -> Res<Vec<Reply>> {
        let found = self.league_named(req, name).await?;
        let _guard = self.t.records().lock(LEAGUE_LOCK | found.id).await;
        let mut l = self
            .t
            .records()
            .blocking(move |s| s.league(found.id))
            .await?
            .ok_or("That league is gone.")?;
        if l.entrant_of(req.user.id).is_none() {
            return Err(format!("You are not a player of league {}.", l.name).into());
        }
        if l.phase != LeaguePhase::Forming || lapsed(&l, self.t.records().now()) {
            let phase = if lapsed(&l, self.t.records().now()) {
                LeaguePhase::Expired
            } else {
                l.phase
            };
            return Err(format!(
                "League {} is {}; there is nothing to answer.",
                l.name,
                phase_word(phase)
            )
            .into());
        }
        if l.agreed.contains(&req.user.id) {
            return Err(format!("You already said yes to league {}.", l.name).into());
        }
        let version = l.version;
        let everyone: Vec<UserRef> = l.people().map(UserRef::from).collect();
        if !yes {
            l.phase = LeaguePhase::Cancelled;
            let mut reply = Reply::public(
                &league_channel(&l),
                format!(
                    "{} declined league {}; it is cancelled.",
                    req.user.name, l.name
                ),
            );
            reply.mentions = everyone
                .into_iter()
                .filter(|u| u.id != req.user.id)
                .collect();
            return self
                .t
                .league_games()
                .league_commit(Some(req), l, Some(version), vec![reply])
                .await;
        }
        l.agreed.push(req.user.id);
        // The name they go by now, for the standings (they may never have typed before /league new).
        for m in l.entrants.iter_mut().flat_map(|e| e.members.iter_mut()) {
            if m.id == req.user.id {
                *m = Named::from(&req.user);
            }
        }
        let waiting: Vec<String> = l
            .people()
            .filter(|p| !l.agreed.contains(&p.id))
            .map(|p| p.name.clone())
            .collect();
        if !waiting.is_empty() {
            let reply = Reply::public(
                &league_channel(&l),
                format!(
                    "{} said yes to league {}; waiting for {}.",
                    req.user.name,
                    l.name,
                    waiting.join(", ")
                ),
            );
            return self
                .t
                .league_games()
                .league_commit(Some(req), l, Some(version), vec![reply])
                .await;
        }
        // Everyone said yes: the games' numbers are reserved with the league's
        // start, then each game is made (T32, T33).
        // The pairing numbers (T33): the plan is made for numbers 1..n.
        let numbered = self.league_numbers(&l).await?;
        let plan = fixtures(l.entrants.len(), table_size(l.kind), l.double);
        for at in plan {
            let entrants = at.iter().map(|&k| numbered[k]).collect();
            let game = self.t.records().blocking(|s| s.next_game_id()).await?;
            l.fixtures.push(Fixture { entrants, game });
        }
        l.phase = LeaguePhase::Playing;
        let (lo, hi) = (l.fixtures[0].game, l.fixtures[l.fixtures.len() - 1].game);
        let reply = Reply::public(
            &league_channel(&l),
            format!(
                "{} said yes: league {} begins with {} games (#{lo} to #{hi}), all at once. Pairing numbers ({}): {}. /league table name:{} shows the standings.",
                req.user.name,
                l.name,
                l.fixtures.len(),
                match l.numbers {
                    Numbers::Lot => "drawn by lot",
                    Numbers::Rating => "by rating",
                    Numbers::Listed => "in the order named",
                },
                numbered
                    .iter()
                    .enumerate()
                    .map(|(k, &e)| format!("{}. {}", k + 1, l.entrants[e].label()))
                    .collect::<Vec<_>>()
                    .join(", "),
                l.name
            ),
        );
        let mut out = self
            .t
            .league_games()
            .league_commit(Some(req), l.clone(), Some(version), vec![reply])
            .await?;
        l.version = version + 1;
        out.extend(self.t.league_games().league_make_games(&l).await);
        Ok(out)
    }

    async fn league_list(&self, req: &Request) -> Res<Vec<Reply>> {
        let here = self.leagues_here(req).await?;
        if here.is_empty() {
            return Ok(vec![Reply::public(
                &req.channel,
                "No leagues here yet; /league new starts one.",
            )]);
        }
        let mut lines = vec!["Leagues here:".to_string()];
        let now = self.t.records().now();
        for l in here.iter().rev().take(20) {
            let phase = if lapsed(l, now) {
                LeaguePhase::Expired
            } else {
                l.phase
            };
            let left = if l.phase == LeaguePhase::Playing {
                let s = self.t.league_games().league_standings(l).await?;
                format!(", {} of {} games left", s.games_left, l.fixtures.len())
            } else {
                String::new()
            };
            let winners = if l.winners.is_empty() {
                String::new()
            } else {
                format!(
                    ", won by {}",
                    l.winners
                        .iter()
                        .map(|&w| l.entrants[w].label())
                        .collect::<Vec<_>>()
                        .join(" and ")
                )
            };
            lines.push(format!(
                "· {} — {}, {} {}, {}{left}{winners}",
                l.name,
                l.kind.title(),
                l.entrants.len(),
                if l.entrants.iter().any(|e| e.members.len() > 1) {
                    "teams"
                } else {
                    "players"
                },
                phase_word(phase)
            ));
        }
        Ok(vec![Reply::public(&req.channel, lines.join("\n"))])
    }

    async fn league_leave(&self, req: &Request, name: Option<String>) -> Res<Vec<Reply>> {
        let found = self.league_named(req, name).await?;
        let _guard = self.t.records().lock(LEAGUE_LOCK | found.id).await;
        let mut l = self
            .t
            .records()
            .blocking(move |s| s.league(found.id))
            .await?
            .ok_or("That league is gone.")?;
        let Some(e) = l.entrant_of(req.user.id) else {
            return Err(format!("You are not a player of league {}.", l.name).into());
        };
        match l.phase {
            LeaguePhase::Forming => {
                return Err(format!(
                    "League {} has not started: /league decline name:{} instead.",
                    l.name, l.name
                )
                .into())
            }
            LeaguePhase::Playing => {}
            p => return Err(format!("League {} is {}.", l.name, phase_word(p)).into()),
        }
        if l.entrants[e].left_at.is_some() {
            return Err(format!("You already left league {}.", l.name).into());
        }
        let version = l.version;
        l.entrants[e].left_at = Some(self.t.records().now());
        let reply = Reply::public(
            &league_channel(&l),
            format!(
                "{} left league {}: the games {} had left are lost at the move deadline, as if claimed.",
                req.user.name,
                l.name,
                l.entrants[e].label()
            ),
        );
        // The leaving is stored first: the games follow, now or at the next tick (T34).
        let mut out = self
            .t
            .league_games()
            .league_commit(Some(req), l.clone(), Some(version), vec![reply])
            .await?;
        l.version = version + 1;
        out.extend(self.t.league_games().league_concede_leavers(&l).await);
        Ok(out)
    }
}

impl Leagues<'_> {
    /// The entrants in the order of their pairing numbers (T33): drawn by
    /// lot with the league's seed, by rating in the league's game on its
    /// server (a team by its members' average; the unrated last, in the
    /// order named), or in the order of `players:`.
    async fn league_numbers(&self, l: &LeagueRecord) -> Res<Vec<usize>> {
        let n = l.entrants.len();
        match l.numbers {
            Numbers::Listed => Ok((0..n).collect()),
            Numbers::Lot => Ok(numbers_by_lot(l.seed, n)),
            Numbers::Rating => {
                let (kind, scope) = (l.kind, l.guild.unwrap_or(GLOBAL));
                let mut strength: Vec<Option<f64>> = Vec::new();
                for e in &l.entrants {
                    let ids: Vec<u64> = e.members.iter().map(|m| m.id).collect();
                    let values = self
                        .t
                        .records()
                        .blocking(move |s| {
                            ids.iter()
                                .map(|&u| s.standing(kind, scope, u))
                                .collect::<Result<Vec<_>, _>>()
                        })
                        .await?;
                    let rated: Vec<f64> = values
                        .iter()
                        .flatten()
                        .map(|st| st.rating.value())
                        .collect();
                    strength.push(if rated.is_empty() {
                        None
                    } else {
                        Some(rated.iter().sum::<f64>() / rated.len() as f64)
                    });
                }
                let mut order: Vec<usize> = (0..n).collect();
                // Stable: equal ratings and the unrated keep the order named.
                order.sort_by(|&a, &b| match (strength[a], strength[b]) {
                    (Some(x), Some(y)) => y.total_cmp(&x),
                    (Some(_), None) => std::cmp::Ordering::Less,
                    (None, Some(_)) => std::cmp::Ordering::Greater,
                    (None, None) => std::cmp::Ordering::Equal,
                });
                Ok(order)
            }
        }
    }

    /// `/league cancel`: the creator calls off a league that has not started
    /// (T45); everyone invited is told, and its name is free again.
    async fn league_cancel(&self, req: &Request, name: Option<String>) -> Res<Vec<Reply>> {
        let found = self.league_named(req, name).await?;
        let _guard = self.t.records().lock(LEAGUE_LOCK | found.id).await;
        let mut l = self
            .t
            .records()
            .blocking(move |s| s.league(found.id))
            .await?
            .ok_or("That league is gone.")?;
        if l.creator != req.user.id {
            return Err(format!("Only the creator of league {} can cancel it.", l.name).into());
        }
        if l.phase != LeaguePhase::Forming || lapsed(&l, self.t.records().now()) {
            let phase = if lapsed(&l, self.t.records().now()) {
                LeaguePhase::Expired
            } else {
                l.phase
            };
            return Err(format!(
                "League {} is {}: only a league not yet started can be cancelled.",
                l.name,
                phase_word(phase)
            )
            .into());
        }
        let version = l.version;
        l.phase = LeaguePhase::Cancelled;
        let mut reply = Reply::public(
            &league_channel(&l),
            format!(
                "{} cancelled league {} before it started; its name is free.",
                req.user.name, l.name
            ),
        );
        reply.mentions = l
            .people()
            .filter(|p| p.id != req.user.id)
            .map(UserRef::from)
            .collect();
        self.t
            .league_games()
            .league_commit(Some(req), l, Some(version), vec![reply])
            .await
    }

    /// The tick's part for leagues not started: each one past its invitation
    /// deadline is stored as expired and its players told, once (the write
    /// is compare-and-swapped on the league's version) (T45).
    pub(super) async fn league_expire(&self, leagues: &[LeagueRecord]) -> Vec<Reply> {
        let now = self.t.records().now();
        let mut out = Vec::new();
        for found in leagues
            .iter()
            .filter(|l| l.phase == LeaguePhase::Forming && lapsed(l, now))
        {
            let id = found.id;
            let _guard = self.t.records().lock(LEAGUE_LOCK | id).await;
            let mut l = match self.t.records().blocking(move |s| s.league(id)).await {
                Ok(Some(l)) if l.phase == LeaguePhase::Forming => l,
                _ => continue,
            };
            let version = l.version;
            let waiting: Vec<String> = l
                .people()
                .filter(|p| !l.agreed.contains(&p.id))
                .map(|p| p.name.clone())
                .collect();
            l.phase = LeaguePhase::Expired;
            let mut reply = Reply::public(
                &league_channel(&l),
                format!(
                    "League {} expired: {} did not say yes by its invitation deadline. Its name is free.",
                    l.name,
                    waiting.join(", ")
                ),
            );
            reply.mentions = l.people().map(UserRef::from).collect();
            match self
                .t
                .league_games()
                .league_commit(None, l, Some(version), vec![reply])
                .await
            {
                Ok(r) => out.extend(r),
                Err(e) => tracing::warn!(league = id, reason = %e, "league expiry not stored now"),
            }
        }
        out
    }
}
