//! /leaderboard and /stats: ratings, results and history as text and pictures.

use super::{Image, Reply, Request, Res, Table};
use tokar_engine::catalog::GameKind;
use tokar_engine::search::Level;
use tokar_model::command::RatingScope;
use tokar_model::rating::board::{Listed, MIN_OPPONENTS};
use tokar_model::rating::levels::level_player;
use tokar_model::rating::{Rating, Score};
use tokar_model::record::{LogAction, Phase};
use tokar_render::{Chart, Column, Sheet};
use tokar_store::{HistoryEntry, RatedGame, Standing, GLOBAL};

/// /leaderboard and /stats.
#[derive(Clone, Copy)]
pub(crate) struct Standings<'t> {
    pub(super) t: &'t Table,
}

/// How many players /leaderboard lists.
pub const LEADERS_SHOWN: usize = 20;

/// `1 game`, `2 games`: a count with its noun.
fn counted(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn results(s: &Standing) -> String {
    format!("{}/{}/{}", s.wins, s.draws, s.losses)
}

/// The run of equal results a history ends with ("2 wins").
fn streak(history: &[HistoryEntry]) -> Option<String> {
    let last = history.last()?.score;
    let n = history.iter().rev().take_while(|h| h.score == last).count();
    let word = match (last, n) {
        (Score::Win, 1) => "win",
        (Score::Win, _) => "wins",
        (Score::Draw, 1) => "draw",
        (Score::Draw, _) => "draws",
        (Score::Loss, 1) => "loss",
        (Score::Loss, _) => "losses",
    };
    Some(format!("{n} {word}"))
}

/// A listed player's rating (as of now), games and results; for Weng-Lin
/// also the number they are ranked by (T47).
fn entry(l: &Listed) -> String {
    let s = &l.standing;
    let ranked_by = match l.now {
        Rating::WengLin { .. } => format!(" (μ − 3σ {:.1})", l.now.rank_value()),
        Rating::Glicko2 { .. } => String::new(),
    };
    format!(
        "{}{ranked_by} · {} · {}",
        l.now.shown(),
        counted(s.games, "game", "games"),
        results(s)
    )
}

fn row(rank: String, name: String, l: &Listed) -> Vec<String> {
    let s = &l.standing;
    vec![
        rank,
        name,
        l.now.shown(),
        s.games.to_string(),
        s.wins.to_string(),
        s.draws.to_string(),
        s.losses.to_string(),
    ]
}

/// Wins, draws and losses of the players `mine` against `them` in the rated games where
/// they played on different sides, the better place winning (T31).
fn head_to_head(games: &[RatedGame], mine: &[u64], them: u64) -> (u32, u32, u32) {
    let (mut w, mut d, mut l) = (0, 0, 0);
    for g in games {
        let me = g.placings.iter().find(|p| mine.contains(&p.user));
        let other = g.placings.iter().find(|p| p.user == them);
        if let (Some(a), Some(b)) = (me, other) {
            if a.team == b.team {
                continue;
            }
            match a.place.cmp(&b.place) {
                std::cmp::Ordering::Less => w += 1,
                std::cmp::Ordering::Equal => d += 1,
                std::cmp::Ordering::Greater => l += 1,
            }
        }
    }
    (w, d, l)
}

impl Standings<'_> {
    /// The rated players a user is: a person is one; the bot is the player of each of its
    /// levels (T52), after the rating it held before they were rated apart, each with the
    /// label /stats shows it by.
    fn rated_players(&self, user: u64) -> Vec<(u64, Option<String>)> {
        if !self.t.bot().is_robot(user) {
            return vec![(user, None)];
        }
        let mut out = vec![(user, Some("all levels".to_string()))];
        out.extend(Level::ALL.map(|l| (level_player(l), Some(l.to_string()))));
        out
    }

    pub(super) async fn cmd_leaderboard(
        &self,
        req: &Request,
        kind: GameKind,
        scope: Option<RatingScope>,
    ) -> Res<Vec<Reply>> {
        // Ruling T31: on a server the server's own ratings unless asked otherwise.
        let (scope, place) = match (scope, req.channel.guild) {
            (None | Some(RatingScope::Server), Some(g)) => (g, "this server"),
            (Some(RatingScope::Global), _) | (None, None) => (GLOBAL, "all servers"),
            (Some(RatingScope::Server), None) => {
                return Err("scope:server needs a server; here only scope:global is kept.".into())
            }
        };
        let now = self.t.records().now();
        let board = self
            .t
            .records()
            .blocking(move |s| s.leaderboard(kind, scope, now))
            .await?;
        let listed = board.ranked.len() + board.provisional.len();
        if listed + board.unlisted == 0 {
            return Ok(vec![Reply::public(
                &req.channel,
                format!("No rated {} games on {place} yet.", kind.title()),
            )]);
        }
        let order = if tokar_model::rating::uses_glicko2(kind) {
            "by rating"
        } else {
            "by μ − 3σ"
        };
        let mut lines = vec![format!(
            "{} leaderboard, {place} (settled players ranked {order}; rating, games, wins/draws/losses):",
            kind.title()
        )];
        let mut rows = Vec::new();
        if board.ranked.is_empty() {
            lines.push("No settled ratings yet.".into());
        }
        for (i, l) in board.ranked.iter().take(LEADERS_SHOWN).enumerate() {
            let name = self.t.ratings().rated_name(l.standing.user).await;
            lines.push(format!("{}. {name} {}", i + 1, entry(l)));
            rows.push(row((i + 1).to_string(), name, l));
        }
        if !board.provisional.is_empty() {
            lines.push("Provisional (?), not ranked until the rating settles:".into());
        }
        for l in board.provisional.iter().take(LEADERS_SHOWN) {
            let name = self.t.ratings().rated_name(l.standing.user).await;
            lines.push(format!("- {name} {}", entry(l)));
            rows.push(row("?".into(), name, l));
        }
        if board.unlisted > 0 {
            lines.push(format!(
                "{} not listed until they have played rated games against {MIN_OPPONENTS} different people.",
                counted(board.unlisted as u32, "rated player", "rated players")
            ));
        }
        let col = |head: &str, numeric| Column {
            head: head.into(),
            numeric,
        };
        let sheet = Sheet {
            title: format!("{} · {place}", kind.title()),
            columns: vec![
                col("#", true),
                col("Player", false),
                col("Rating", true),
                col("Games", true),
                col("W", true),
                col("D", true),
                col("L", true),
            ],
            rows,
        };
        let mut reply = Reply::public(&req.channel, lines.join("\n"));
        if !sheet.rows.is_empty() {
            let name = format!("leaderboard-{}.png", kind.slug());
            reply.images.extend(self.sheet_image(sheet, name).await);
        }
        Ok(vec![reply])
    }

    /// A table picture (leaderboard, league standings), drawn off the async
    /// threads. One that cannot be drawn is left out, since the message's text
    /// holds the same table, and the reason goes to the log.
    pub(super) async fn sheet_image(&self, sheet: Sheet, name: String) -> Option<Image> {
        let renderer = self.t.pictures().renderer();
        match tokio::task::spawn_blocking(move || renderer.sheet(&sheet)).await {
            Ok(Ok(png)) => Some(Image::png(name, png)),
            other => {
                tracing::warn!(?other, picture = %name, "table picture not drawn");
                None
            }
        }
    }

    pub(super) async fn cmd_stats(
        &self,
        req: &Request,
        user: Option<u64>,
        against: Option<u64>,
    ) -> Res<Vec<Reply>> {
        let user = user.unwrap_or(req.user.id);
        let name = self.t.records().name_of(user).await.name;
        let now = self.t.records().now();
        let players = self.rated_players(user);
        let mine: Vec<u64> = players.iter().map(|(id, _)| *id).collect();
        let (standings, moves) = self
            .t
            .records()
            .blocking(move |s| {
                let mut out = Vec::new();
                for kind in GameKind::ALL {
                    for (id, label) in &players {
                        if let Some(mut st) = s.standing(kind, GLOBAL, *id)? {
                            // As of now: a rating ages while its player is away (T47).
                            st.rating = st.rating.aged(st.last, now);
                            let history = s.rating_history(kind, GLOBAL, *id)?;
                            out.push((kind, label.clone(), st, history));
                        }
                    }
                }
                // Time to move: from the moment the game turned to the player's action
                // (the entry before theirs, or the game's start for its first) to their
                // action, over their finished games. A record's actions replayed at the
                // start are nobody's moves (T13).
                let mut moves = (0u64, 0u64);
                for id in s.games_of_user(user)? {
                    let Some(rec) = s.game(id)? else { continue };
                    if rec.phase != Phase::Finished {
                        continue;
                    }
                    let log = s.log(id)?;
                    let first = rec.record_actions();
                    for (i, e) in log.iter().enumerate().skip(first) {
                        if e.user != user || !matches!(e.action, LogAction::Play(_)) {
                            continue;
                        }
                        let since = match i {
                            0 => rec.started_at,
                            i if i == first => rec.started_at.or(Some(log[i - 1].at)),
                            i => Some(log[i - 1].at),
                        };
                        if let Some(since) = since {
                            moves.0 += e.at.saturating_sub(since);
                            moves.1 += 1;
                        }
                    }
                }
                Ok((out, moves))
            })
            .await?;
        let mut lines = vec![format!("{name}'s statistics (ratings across servers):")];
        if standings.is_empty() {
            lines.push("No rated games yet.".into());
        }
        let mut charts = Vec::new();
        for (kind, label, st, history) in &standings {
            let title = match label {
                Some(level) => format!("{} ({level})", kind.title()),
                None => kind.title().to_string(),
            };
            lines.push(format!(
                "{title}: {} · {} · {}, {}, {} · streak: {}",
                st.rating.shown(),
                counted(st.games, "game", "games"),
                counted(st.wins, "win", "wins"),
                counted(st.draws, "draw", "draws"),
                counted(st.losses, "loss", "losses"),
                streak(history).unwrap_or_else(|| "none".into())
            ));
            let mut values = vec![history.first().map_or(st.rating, |h| h.before).value()];
            values.extend(history.iter().map(|h| h.after.value()));
            lines.push(format!(
                "  history: {}",
                values
                    .iter()
                    .map(|v| format!("{v:.0}"))
                    .collect::<Vec<_>>()
                    .join(" → ")
            ));
            let slug = match label {
                Some(level) => format!("{}-{}", kind.slug(), level.replace(' ', "-")),
                None => kind.slug().to_string(),
            };
            charts.push((
                slug,
                Chart {
                    title: format!("{name} · {title} rating"),
                    values,
                },
            ));
        }
        if let Some(average) = moves.0.checked_div(moves.1) {
            lines.push(format!(
                "Average time to move: {} ({} moves in finished games).",
                tokar_model::duration::format(average),
                moves.1
            ));
        }
        if let Some(other) = against {
            let games = self.t.records().blocking(|s| s.rated_games()).await?;
            // Against the bot: each of its levels it was rated as (T52).
            let theirs = self.rated_players(other);
            let results = |name: String, (w, d, l): (u32, u32, u32)| {
                format!(
                    "Against {name}: {}, {}, {} in rated games.",
                    counted(w, "win", "wins"),
                    counted(d, "draw", "draws"),
                    counted(l, "loss", "losses")
                )
            };
            let mut told = false;
            for (them, _) in theirs.iter().filter(|_| theirs.len() > 1) {
                let counts = head_to_head(&games, &mine, *them);
                if counts != (0, 0, 0) {
                    lines.push(results(self.t.ratings().rated_name(*them).await, counts));
                    told = true;
                }
            }
            if !told {
                let counts = head_to_head(&games, &mine, other);
                lines.push(results(self.t.records().name_of(other).await.name, counts));
            }
        }
        let renderer = self.t.pictures().renderer();
        let images = tokio::task::spawn_blocking(move || {
            charts
                .into_iter()
                .filter_map(|(kind, c)| {
                    renderer
                        .chart(&c)
                        .ok()
                        .map(|png| Image::png(format!("stats-{user}-{kind}.png"), png))
                })
                .collect::<Vec<_>>()
        })
        .await
        .unwrap_or_default();
        let mut reply = Reply::public(&req.channel, lines.join("\n"));
        reply.images = images;
        Ok(vec![reply])
    }
}
