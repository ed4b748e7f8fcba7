//! `/league table`: a league's standings as text with its crosstable picture
//! beside them (T35, T43, T56), or before its start who has said yes (T45).

use super::crosstable::crosstable;
use super::league::Leagues;
use super::league::{lapsed, phase_word, rules_text, table_size};
use super::{Image, Reply, Request, Res};
use tokar_model::clock::Millis;
use tokar_model::duration;
use tokar_model::league::{LeaguePhase, LeagueRecord, Standings};
use tokar_model::record::Named;

impl Leagues<'_> {
    pub(super) async fn league_table(
        &self,
        req: &Request,
        name: Option<String>,
    ) -> Res<Vec<Reply>> {
        let l = self.league_named(req, name).await?;
        if l.phase == LeaguePhase::Forming {
            return Ok(vec![Reply::public(
                &req.channel,
                forming_text(&l, self.t.records().now()),
            )]);
        }
        let games = self.t.league_games().league_results(&l).await?;
        let s = self.t.league_games().standings_from(&l, &games);
        let mut reply = Reply::public(&req.channel, league_table_text(&l, &s));
        let table = crosstable(&l, &s, &games);
        let name = format!("league-{}-crosstable.png", l.id);
        let renderer = self.t.pictures().renderer();
        // Drawn off the async threads. One that cannot be drawn is left out,
        // since the message's text holds the standings, and the reason goes to
        // the log.
        match tokio::task::spawn_blocking(move || renderer.crosstable(&table)).await {
            Ok(Ok(png)) => reply.images.push(Image::png(name, png)),
            other => tracing::warn!(?other, league = l.id, "crosstable not drawn"),
        }
        Ok(vec![reply])
    }
}

/// The standings as a message: a heading, the aligned table, the rules.
fn league_table_text(l: &LeagueRecord, s: &Standings) -> String {
    let played = l.fixtures.len() - s.games_left;
    format!(
        "League {} ({}, {} round robin): {played} of {} games played, {} left{}.\n```\n{}\n```\nPoints: {}. {}",
        l.name,
        l.kind.title(),
        if l.double { "double" } else { "single" },
        l.fixtures.len(),
        s.games_left,
        if l.phase == LeaguePhase::Finished {
            "; finished"
        } else {
            ""
        },
        s.text(),
        if table_size(l.kind) == 4 {
            "3, 2, 1, 0 by place at each table, shared places averaged"
        } else {
            "win 1, draw ½"
        },
        rules_text(l),
    )
}

/// `/league table` before the start: who said yes, who is still invited,
/// until when, and the rules it will be played by (T45).
fn forming_text(l: &LeagueRecord, now: Millis) -> String {
    {
        if lapsed(l, now) {
            return format!("League {} {}.", l.name, phase_word(LeaguePhase::Expired));
        }
        let (yes, asked): (Vec<&Named>, Vec<&Named>) =
            l.people().partition(|p| l.agreed.contains(&p.id));
        let names = |v: &[&Named]| {
            if v.is_empty() {
                "nobody".to_string()
            } else {
                v.iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        format!(
            "League {} ({}) has not started. Said yes: {}. Still invited: {}. It expires in {} unless everyone has said yes. {}",
            l.name,
            l.kind.title(),
            names(&yes),
            names(&asked),
            duration::format(l.invitation_deadline() - now),
            rules_text(l),
        )
    }
}
