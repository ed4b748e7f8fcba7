//! What a user reads and sets: /games, /history, /export, /rules, /settings (/vacation is
//! in `vacation.rs`).

use super::export::{self, GameExport};
use super::games::{describe_entry, Pick};
use super::paging::{self, Item, MESSAGE_LIMIT};
use super::text::{self, seats_label};
use super::{ChannelRef, Reply, Request, Res, Table};
use tokar_engine::catalog::GameKind;
use tokar_engine::Seat;
use tokar_model::clock::Millis;
use tokar_model::command::game_kind;
use tokar_model::command::Reminder;
use tokar_model::duration;
use tokar_model::record::{GameRecord, Phase};

/// What is read about games: /games, /history, /export, /replay, /follow, /rules,
/// /settings, and the suggestions the adapters show while a command is typed.
#[derive(Clone, Copy)]
pub(crate) struct Listing<'t> {
    pub(super) t: &'t Table,
}

/// How many finished games /games lists, the last ended first.
const FINISHED_SHOWN: usize = 10;

/// The parts of a user's /games, in this order.
const WAITING_FOR_YOU: &str = "Waiting for you:";
const WAITING_FOR_OTHERS: &str = "Waiting for others:";

impl Listing<'_> {
    /// How many games are being played, for the operator (`tokar_games_in_play`); a scan of
    /// every record, so it is asked now and then.
    pub(crate) async fn games_in_play(&self) -> Option<usize> {
        match self.t.records().blocking(|s| s.games_in_play()).await {
            Ok(n) => Some(n),
            Err(e) => {
                tracing::warn!(error = %e, "cannot count the games in play");
                None
            }
        }
    }

    pub(super) async fn cmd_games(
        &self,
        req: &Request,
        server: bool,
        page: usize,
    ) -> Res<Vec<Reply>> {
        if server {
            return self.server_games(req, page).await;
        }
        let user = req.user.id;
        let mut recs = self.t.games().records_of_user(user).await?;
        // Those waiting longest first, in each part.
        recs.sort_by_key(|r| (r.turn.since, r.id));
        let now = self.t.records().now();
        // What waits for the user comes first: their turns, their invitations, their games
        // that lost their channel (which only a /resume moves on); then what waits for others.
        let mut mine = Vec::new();
        let mut others = Vec::new();
        let mut finished = Vec::new();
        for r in &recs {
            match r.phase {
                Phase::Cancelled => {}
                Phase::Finished => finished.push(r),
                Phase::Lobby => {
                    let invited = r.invited.iter().any(|i| i.id == user);
                    let line = format!(
                        "#{} {} in #{}: {}{}",
                        r.id,
                        r.kind.title(),
                        r.channel.name,
                        if invited {
                            format!("you are invited (/accept game:{}). ", r.id)
                        } else {
                            String::new()
                        },
                        text::lobby_status(r)
                    );
                    match invited {
                        true => mine.push(Item::new(WAITING_FOR_YOU, line)),
                        false => others.push(Item::new(WAITING_FOR_OTHERS, line)),
                    }
                }
                Phase::Playing if r.channel_lost.is_some() => {
                    mine.push(Item::new(WAITING_FOR_YOU, format!(
                        "#{} {} lost its channel #{}: its clock is stopped; /resume game:{} where it should go on.",
                        r.id,
                        r.kind.title(),
                        r.channel.name,
                        r.id
                    )));
                }
                Phase::Playing => {
                    let l = self.t.records().load(r.id).await?;
                    let Some(game) = &l.game else { continue };
                    let yours = r.turn.waiting.contains(&user);
                    let whose = if yours {
                        "your turn".to_string()
                    } else {
                        format!("{} to act", seats_label(r, game, &game.to_act()))
                    };
                    let left = self.t.schedule().effective_deadline(r).await?.describe(now);
                    let line = format!(
                        "#{} {} in #{}, move {}: {whose} ({left}).",
                        r.id,
                        r.kind.title(),
                        r.channel.name,
                        game.move_number()
                    );
                    match yours {
                        true => mine.push(Item::new(WAITING_FOR_YOU, line)),
                        false => others.push(Item::new(WAITING_FOR_OTHERS, line)),
                    }
                }
            }
        }
        let mut items = mine;
        items.extend(others);
        // The finished games that ended last, each with its result; /board, /history and
        // /export take their number.
        finished.sort_by_key(|r| std::cmp::Reverse((r.turn.since, r.id)));
        let earlier = finished.len().saturating_sub(FINISHED_SHOWN);
        finished.truncate(FINISHED_SHOWN);
        for line in self.finished_lines(&finished).await? {
            items.push(Item::new("Finished:", line));
        }
        if earlier > 0 {
            items.push(Item::new(
                "Finished:",
                format!(
                "({earlier} earlier finished game{}; /history game:<number> reads any of them.)",
                if earlier == 1 { "" } else { "s" }
            ),
            ));
        }
        if items.is_empty() {
            items.push(Item::new(
                "",
                "You have no games. /new game:arcana opponent:@someone starts one.".into(),
            ));
        }
        let pages = paging::paginate(items);
        let (content, _) = paging::page_text(None, &pages, page, "/games")?;
        Ok(vec![Reply::private(&req.channel, &req.user, content)])
    }

    pub(super) async fn cmd_history(&self, req: &Request, given: Option<u64>) -> Res<Vec<Reply>> {
        let id = self.t.games().pick(req, given, Pick::View).await?;
        let l = self.t.records().load(id).await?;
        let Some(game) = &l.game else {
            return Ok(vec![Reply::public(
                &req.channel,
                text::lobby_status(&l.rec),
            )]);
        };
        let log = self.t.records().blocking(move |s| s.log(id)).await?;
        let mut lines = vec![format!(
            "Game #{id} ({}): {}.",
            l.rec.kind.title(),
            text::lineup(&l.rec, game)
        )];
        const LAST: usize = 50;
        if log.len() > LAST {
            lines.push(format!(
                "({} earlier actions; /export has them all)",
                log.len() - LAST
            ));
        }
        for e in log.iter().skip(log.len().saturating_sub(LAST)) {
            lines.push(format!(
                "{}. {}: {}",
                e.seq + 1,
                text::seat_label(&l.rec, game, Seat(e.seat)),
                describe_entry(&l.rec, e)
            ));
        }
        if log.is_empty() {
            lines.push("Nothing played yet.".into());
        }
        lines.push(text::status(&l.rec, game));
        Ok(vec![Reply::public(&req.channel, lines.join("\n"))])
    }

    pub(super) async fn cmd_export(&self, req: &Request, given: Option<u64>) -> Res<Vec<Reply>> {
        let id = self.t.games().pick(req, given, Pick::View).await?;
        let l = self.t.records().load(id).await?;
        if l.game.is_none() {
            return Err(text::lobby_status(&l.rec).into());
        }
        let log = self.t.records().blocking(move |s| s.log(id)).await?;
        let over = l.rec.phase == Phase::Finished;
        let record = export::write(&GameExport {
            kind: l.rec.kind,
            options: l.rec.options.clone(),
            seed: over.then_some(l.rec.seed),
            reseeds: if over {
                l.rec.reseeds.clone()
            } else {
                Vec::new()
            },
            actions: log.iter().map(|e| (e.seat, e.action.clone())).collect(),
        });
        Ok(vec![export_reply(&req.channel, id, over, record)])
    }

    pub(super) async fn cmd_rules(
        &self,
        req: &Request,
        game: Option<String>,
        mut unit: Option<String>,
    ) -> Res<Vec<Reply>> {
        let kind = match game {
            Some(g) => {
                let (kind, topic) = game_and_topic(&g)?;
                if let Some(t) = topic {
                    if let Some(u) = &unit {
                        return Err(format!(
                            "Name one topic: /rules {} {t} or /rules {} {u}.",
                            kind.slug(),
                            kind.slug()
                        )
                        .into());
                    }
                    unit = Some(t);
                }
                kind
            }
            None => match self.game_here(req).await? {
                Some(kind) => kind,
                None => return Ok(vec![Self::rules_list(req)]),
            },
        };
        let text = kind.rules(unit.as_deref())?;
        Ok(vec![Reply::private(&req.channel, &req.user, text)])
    }

    /// The game whose rules `/rules` without a game means where it is typed (ruling T58):
    /// the only game being set up or played in this channel (a game's thread is its own
    /// channel; a game moved into its thread still counts in the channel it came from, as
    /// for /board), or, in a thread whose game has ended, that game. None elsewhere, where
    /// the list of every game is the answer.
    async fn game_here(&self, req: &Request) -> Res<Option<GameKind>> {
        let c = req.channel.id;
        let ids = self
            .t
            .records()
            .blocking(move |s| s.games_in_channel(c))
            .await?;
        let recs = self.t.games().records_by_id(ids).await?;
        let open: Vec<&GameRecord> = recs
            .iter()
            .filter(|r| matches!(r.phase, Phase::Lobby | Phase::Playing))
            .collect();
        Ok(match (open.as_slice(), recs.as_slice()) {
            ([one], _) => Some(one.kind),
            ([], [ended]) if req.channel.parent.is_some() => Some(ended.kind),
            _ => None,
        })
    }

    /// `/rules` elsewhere: every game, and how to read one.
    fn rules_list(req: &Request) -> Reply {
        let list: Vec<String> = GameKind::ALL
            .iter()
            .map(|k| {
                format!(
                    "{} ({}){}",
                    k.title(),
                    k.slug(),
                    if k.available() {
                        ""
                    } else {
                        ", not playable yet"
                    }
                )
            })
            .collect();
        Reply::private(
            &req.channel,
            &req.user,
            format!(
                "Games: {}. /rules game:<name> [unit:<unit>] shows one.",
                list.join(", ")
            ),
        )
    }

    pub(super) async fn cmd_settings(
        &self,
        req: &Request,
        reminder: Option<Reminder>,
        deadline: Option<Millis>,
    ) -> Res<Vec<Reply>> {
        let mut me = self.t.records().user_record(&req.user).await?;
        match reminder {
            None => {}
            Some(Reminder::Off) => me.reminder = None,
            Some(Reminder::Every(d)) => me.reminder = Some(d),
        }
        if let Some(d) = deadline {
            me.deadline = d;
        }
        let show = format!(
            "Reminders while a game waits for you: {}. Move deadline of games you create: {}. Vacation: {}.",
            me.reminder.map_or("off".to_string(), |r| format!("every {}", duration::format(r))),
            duration::format(me.deadline),
            if me.on_vacation() { "on" } else { "off" }
        );
        let rec = me.clone();
        self.t.records().blocking(move |s| s.put_user(&rec)).await?;
        Ok(vec![Reply::private(&req.channel, &req.user, show)])
    }
}

/// `/rules arcana blue-knight`: the words typed without option names name
/// the game and then the topic (T17). The game is the longest run of first
/// words that names one (`magic chess king`), the topic the rest.
fn game_and_topic(text: &str) -> Res<(GameKind, Option<String>)> {
    let words: Vec<&str> = text.split_whitespace().collect();
    for n in (1..=words.len()).rev() {
        if let Some(kind) = GameKind::parse(&words[..n].join(" ")) {
            let topic = words[n..].join(" ");
            return Ok((kind, (!topic.is_empty()).then_some(topic)));
        }
    }
    // Refused: quote the words that come nearest a game's name.
    let slugs = GameKind::ALL.map(|k| k.slug());
    let named = (1..=words.len().min(2))
        .rev()
        .map(|n| words[..n].join(" "))
        .find(|w| tokar_engine::spelling::nearest(w, slugs).is_some())
        .unwrap_or_else(|| words.first().copied().unwrap_or(text).to_string());
    game_kind(&named).map(|k| (k, None))
}

/// /export's answer: the record in the message, or as a `.txt` file when the message would be
/// longer than Discord takes (a record cut across messages cannot be pasted back whole).
fn export_reply(channel: &ChannelRef, id: u64, over: bool, record: String) -> Reply {
    let secret = if over {
        ""
    } else {
        " (the seed stays secret until the game ends)"
    };
    // A record with spaces in its actions is quoted, so that it pastes back whole into a
    // console line (which splits on spaces outside quotes); /new takes it quoted or not.
    let (shown, how) = match record.contains(char::is_whitespace) {
        true if record.contains('"') => (format!("'{record}'"), "<the record, quotes included>"),
        true => (format!("\"{record}\""), "<the record, quotes included>"),
        false => (record.clone(), "<the record>"),
    };
    let inline = format!(
        "Game #{id} record{secret}:\n`{shown}`\nStart a new game from it: /new record:{how}."
    );
    if inline.chars().count() <= MESSAGE_LIMIT {
        return Reply::public(channel, inline);
    }
    let name = format!("game-{id}-record.txt");
    let mut reply = Reply::public(
        channel,
        format!(
            "Game #{id} record{secret}: attached as {name} ({} characters, too long for a message). \
             Start a new game from it: /new record_file:<the file>.",
            record.chars().count()
        ),
    );
    reply
        .images
        .push(super::Image::png(name, record.into_bytes()));
    reply
}

impl Listing<'_> {
    /// One line per finished game, with its number and result, for /games (the
    /// user's and the server's): `/board`, `/history` and `/export` take the number.
    pub(super) async fn finished_lines(&self, finished: &[&GameRecord]) -> Res<Vec<String>> {
        let mut lines = Vec::new();
        for r in finished {
            let l = self.t.records().load(r.id).await?;
            let Some(game) = &l.game else { continue };
            let result = text::outcome_text(r, game, &super::outcome(r, game));
            lines.push(format!(
                "#{} {} in #{}: {result}.",
                r.id,
                r.kind.title(),
                r.channel.name
            ));
        }
        Ok(lines)
    }
}

#[cfg(test)]
mod export_tests {
    use super::*;

    #[test]
    pub(super) fn a_long_record_is_a_file_and_a_short_one_a_message() {
        let ch = ChannelRef::new(1, "t");
        let short = export_reply(&ch, 3, true, "tokar1|arcana||seed=1|0:b1-c3".into());
        assert!(short.content.contains("`tokar1|arcana"));
        assert!(short.images.is_empty());
        let long_record = format!("tokar1|arcana||{}", "0:b1-c3|1:b8-c6|".repeat(150));
        let long = export_reply(&ch, 3, false, long_record.clone());
        assert!(long.content.chars().count() <= MESSAGE_LIMIT);
        assert!(
            long.content.contains("game-3-record.txt"),
            "{}",
            long.content
        );
        assert_eq!(long.images.len(), 1);
        assert_eq!(
            long.images[0].png,
            long_record.into_bytes(),
            "the whole record, uncut"
        );
    }
}
