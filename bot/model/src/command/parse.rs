//! A command's text (the console's, the tests') read into a [`Command`]: each
//! command reads its options in the order it always has, so that of several
//! mistakes the same one is told first, in the same words.

use super::args::{parse_mention, Args};
use super::{
    Answer, Command, LeagueCommand, NewGame, NewLeague, RatingScope, Reminder, UserArg,
    LEAGUE_USAGE,
};
use crate::api::Refusal;
use crate::clock::Millis;
use crate::duration;
use crate::league::rules::{Numbers, TieBreaks, Withdrawal};
use crate::quote::{bound_quotes, excerpt};
use tokar_engine::catalog::GameKind;
use tokar_engine::search::Level;
use tokar_engine::spelling::did_you_mean;

type Res<T> = Result<T, Refusal>;

impl Command {
    /// Reads command `name` (`play`, `/play`, any case) with its options as
    /// typed: (name, value) pairs, users written `<@id>`, an empty name for a
    /// value given without one (`/vacation on`). The refusal is the line the
    /// player is told, its quotes of what was typed bounded (issue #32).
    pub fn parse(name: &str, options: &[(String, String)]) -> Result<Command, Refusal> {
        read(name, options).map_err(|r| bound_quotes(r.into_text(), name, options).into())
    }
}

fn read(name: &str, options: &[(String, String)]) -> Res<Command> {
    let command = name.trim().trim_start_matches('/').to_ascii_lowercase();
    let args = |main: &str| Args::new(options, Some(main));
    // Commands that name a game and nothing else.
    let game_only = |main: &str| -> Res<Option<u64>> {
        let mut a = args(main)?;
        let game = a.game()?;
        a.finish(&command)?;
        Ok(game)
    };
    Ok(match command.as_str() {
        "new" => Command::New(new_game(args("game")?, None)?),
        "accept" | "join" => {
            let mut options = args("game")?;
            let game = options.game()?;
            if command == "accept" {
                Command::Accept { game, options }
            } else {
                Command::Join { game, options }
            }
        }
        "decline" => Command::Decline {
            game: game_only("game")?,
        },
        "play" => {
            let mut a = args("action")?;
            let game = a.game()?;
            let action = a.require(
                "action",
                "the move in notation, such as action:b1-c3 (/moves lists yours)",
            )?;
            a.finish("play")?;
            Command::Play { game, action }
        }
        "hint" => Command::Hint {
            game: game_only("game")?,
        },
        "board" => Command::Board {
            game: game_only("game")?,
        },
        "moves" => {
            let mut a = args("square")?;
            let game = a.game()?;
            let (square, page) = (a.take("square"), a.take("page"));
            a.finish("moves")?;
            Command::Moves {
                game,
                square,
                page: page_number(page)?,
            }
        }
        "hand" => {
            let mut a = Args::new(options, None)?;
            let game = a.game()?;
            a.finish("hand")?;
            Command::Hand { game }
        }
        "resign" => {
            let mut a = args("game")?;
            let game = a.game()?;
            let confirm = a.take("confirm");
            a.finish("resign")?;
            let confirm = match confirm.as_deref().map(str::to_ascii_lowercase).as_deref() {
                None => false,
                Some("yes") => true,
                Some(other) => return Err(format!("confirm:{other} must be yes.").into()),
            };
            Command::Resign { game, confirm }
        }
        "draw" | "undo" => {
            let mut a = args("answer")?;
            let game = a.game()?;
            let answer = a.take("answer").map(|a| a.to_ascii_lowercase());
            a.finish(&command)?;
            let answer = match answer.as_deref() {
                None => None,
                Some("offer") => Some(Answer::Offer),
                Some("accept") => Some(Answer::Accept),
                Some("decline") => Some(Answer::Decline),
                Some(a) => {
                    return Err(format!("answer:{a} must be offer, accept or decline.").into())
                }
            };
            if command == "draw" {
                Command::Draw { game, answer }
            } else {
                Command::Undo { game, answer }
            }
        }
        "claim" => Command::Claim {
            game: game_only("game")?,
        },
        "games" => {
            let mut a = args("scope")?;
            let scope = a.take("scope").map(|s| s.to_ascii_lowercase());
            let page = page_number(a.take("page"))?;
            a.finish("games")?;
            let server = match scope.as_deref() {
                None | Some("mine") => false,
                Some("server") => true,
                Some(other) => {
                    return Err(format!("scope:{} must be mine or server.", excerpt(other)).into())
                }
            };
            Command::Games { server, page }
        }
        "history" => Command::History {
            game: game_only("game")?,
        },
        "export" => Command::Export {
            game: game_only("game")?,
        },
        "replay" => Command::Replay {
            game: game_only("game")?,
        },
        "rules" => {
            let mut a = args("game")?;
            let game = a.take("game");
            let unit = a.take("unit");
            a.finish("rules")?;
            Command::Rules { game, unit }
        }
        "settings" => {
            let mut a = Args::new(options, None)?;
            let reminder = a.take("reminder");
            let deadline = a.take("deadline");
            a.finish("settings")?;
            Command::Settings {
                reminder: reminder.as_deref().map(settings_reminder).transpose()?,
                deadline: deadline.as_deref().map(deadline_setting).transpose()?,
            }
        }
        "vacation" => {
            let mut a = args("state")?;
            let state = a.take("state").map(|s| s.to_ascii_lowercase());
            a.finish("vacation")?;
            let state = match state.as_deref() {
                None => None,
                Some("on") => Some(true),
                Some("off") => Some(false),
                Some(other) => {
                    return Err(
                        format!("/vacation takes on or off, not '{}'.", excerpt(other)).into(),
                    )
                }
            };
            Command::Vacation { state }
        }
        "button" => {
            let mut a = args("custom_id")?;
            let custom_id = a.require("custom_id", "the button's id")?;
            a.finish("button")?;
            Command::Button { custom_id }
        }
        "resume" => {
            let mut a = args("game")?;
            let game = a
                .game()?
                .ok_or("Which game? /resume game:<number> (see /games).")?;
            a.finish("resume")?;
            Command::Resume { game }
        }
        "follow" => {
            let mut a = args("game")?;
            let game = a
                .game()?
                .ok_or("Name the game to follow: /follow game:<number>.")?;
            let stop = match a.take("stop").map(|s| s.to_ascii_lowercase()).as_deref() {
                None | Some("no") => false,
                Some("yes") => true,
                Some(other) => return Err(format!("stop:{other} must be yes or no.").into()),
            };
            a.finish("follow")?;
            Command::Follow { game, stop }
        }
        "leaderboard" => {
            let mut a = args("game")?;
            let game = match a.take("game") {
                Some(g) => game_kind(&g)?,
                None => return Err(missing_game()),
            };
            let scope = match a.take("scope").as_deref() {
                None => None,
                Some("server") => Some(RatingScope::Server),
                Some("global") => Some(RatingScope::Global),
                Some(other) => {
                    return Err(format!("scope:{other} must be server or global.").into())
                }
            };
            a.finish("leaderboard")?;
            Command::Leaderboard { game, scope }
        }
        "stats" => {
            let mut a = args("user")?;
            let user = a.take("user").map(|u| parse_mention(&u)).transpose()?;
            let against = a.take("against").map(|u| parse_mention(&u)).transpose()?;
            a.finish("stats")?;
            Command::Stats { user, against }
        }
        "league" => Command::League(league(options)?),
        "server" => {
            let mut a = args("threads")?;
            let threads = a.take("threads").map(|s| s.to_ascii_lowercase());
            let rated_bots = a.take("rated-bots").map(|s| s.to_ascii_lowercase());
            a.finish("server")?;
            let switch = |name: &str, value: Option<&str>| -> Res<Option<bool>> {
                match value {
                    None => Ok(None),
                    Some("on") => Ok(Some(true)),
                    Some("off") => Ok(Some(false)),
                    Some(other) => Err(format!("{name} is on or off, not {other}.").into()),
                }
            };
            Command::Server {
                threads: switch("threads", threads.as_deref())?,
                rated_bots: switch("rated-bots", rated_bots.as_deref())?,
            }
        }
        "help" => Command::Help,
        "" => return Err("Type a command, such as /help.".into()),
        other => {
            return Err(
                format!("There is no command /{}; /help lists them.", excerpt(other)).into(),
            )
        }
    })
}

/// Reads a game kind, as `/new game:` and `/leaderboard` take it: its slug or
/// its name, any case.
pub fn game_kind(text: &str) -> Res<GameKind> {
    GameKind::parse(text).ok_or_else(|| {
        let slugs = GameKind::ALL.map(|k| k.slug());
        format!(
            "There is no game called '{}'.{} Choose {}.",
            excerpt(text),
            did_you_mean(text, slugs),
            slugs.join(", ")
        )
        .into()
    })
}

/// The refusal of `/new` or `/leaderboard` without a game.
pub fn missing_game() -> Refusal {
    format!(
        "Missing option game: choose {}.",
        GameKind::ALL.map(|k| k.slug()).join(", ")
    )
    .into()
}

/// Reads `page:` (1 when not given).
pub fn page_number(given: Option<String>) -> Res<usize> {
    match given {
        None => Ok(1),
        Some(p) => p
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| {
                format!("page:{} must be a page number: 1, 2, 3...", excerpt(&p)).into()
            }),
    }
}

/// `/settings reminder:`: `off`, or an interval of at least an hour.
pub fn settings_reminder(text: &str) -> Res<Reminder> {
    if text.eq_ignore_ascii_case("off") {
        return Ok(Reminder::Off);
    }
    let d = duration::parse(text)?;
    if d < duration::HOUR {
        return Err("reminder must be at least 1h (or off).".into());
    }
    Ok(Reminder::Every(d))
}

/// A move deadline as `/settings` and `/league new` take it: 1 to 90 days.
pub fn deadline_setting(text: &str) -> Res<Millis> {
    let d = duration::parse(text)?;
    if !(duration::DAY..=90 * duration::DAY).contains(&d) {
        return Err("deadline must be from 1d to 90d.".into());
    }
    Ok(d)
}

/// `/new deadline:`, this game's move deadline: 1 to 90 days.
pub fn new_deadline(d: &str) -> Res<Millis> {
    duration::parse(d)
        .ok()
        .filter(|d| (duration::DAY..=90 * duration::DAY).contains(d))
        .ok_or_else(|| {
            format!(
                "deadline:{} must be from 1d to 90d (such as deadline:3d).",
                excerpt(d)
            )
            .into()
        })
}

/// `/new reminder:`, this game's reminder interval: at least an hour.
pub fn new_reminder(r: &str) -> Res<Millis> {
    duration::parse(r)
        .ok()
        .filter(|r| *r >= duration::HOUR)
        .ok_or_else(|| {
            format!(
                "reminder:{} must be at least 1h (such as reminder:12h).",
                excerpt(r)
            )
            .into()
        })
}

/// `/new level:`, the computer player's strength.
pub fn level(l: &str) -> Res<Level> {
    Level::parse(l)
        .ok_or_else(|| format!("level:{l} is not a level: choose easy, normal or hard.").into())
}

/// `on` or `off` (and their synonyms) of option `name`.
pub fn switch(name: &str, value: &str) -> Res<bool> {
    match value.to_ascii_lowercase().as_str() {
        "on" | "yes" | "true" => Ok(true),
        "off" | "no" | "false" => Ok(false),
        _ => Err(format!("{name}:{} must be on or off.", excerpt(value)).into()),
    }
}

/// `yes` or `no` (and their synonyms) of option `name`.
pub fn yes_no(name: &str, value: &str) -> Res<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "yes" | "on" | "true" => Ok(true),
        "no" | "off" | "false" => Ok(false),
        _ => Err(format!("{name}:{} must be yes or no.", excerpt(value)).into()),
    }
}

impl NewGame {
    /// `/new` as the Discord adapter has it: the game, the opponents, the number of
    /// seats and of computer seats typed by Discord; the options Discord leaves as text
    /// (`army`, `level`, `deadline`, a record, the free-text `name:value` pairs, ...) as
    /// (name, value) pairs, read as the console's are.
    pub fn from_typed(
        game: GameKind,
        opponents: Vec<UserArg>,
        players: Option<usize>,
        bots: Option<usize>,
        text: &[(String, String)],
    ) -> Res<NewGame> {
        let mut n = new_game(Args::new(text, None)?, Some(game))?;
        n.opponents.extend(opponents);
        n.players = players.or(n.players);
        n.bots = bots.unwrap_or(n.bots);
        Ok(n)
    }
}

fn new_game(mut a: Args, typed: Option<GameKind>) -> Res<NewGame> {
    let record = a.take("record");
    let game = match (&record, typed) {
        (_, Some(kind)) => Some(kind),
        // A record names its game: a `game:` beside it is not read.
        (Some(_), None) => {
            a.take("game");
            None
        }
        (None, None) => match a.take("game") {
            Some(g) => Some(game_kind(&g)?),
            None => return Err(missing_game()),
        },
    };
    let players = match a.take("players") {
        None => None,
        Some(p) => Some(
            p.parse::<usize>()
                .ok()
                .filter(|&n| (1..=8).contains(&n))
                .ok_or_else(|| format!("players:{} must be a number from 1 to 8.", excerpt(&p)))?,
        ),
    };
    a.expect("opponent");
    let mut invites = a.take_where(|k| {
        k.strip_prefix("opponent")
            .is_some_and(|n| n.is_empty() || n.parse::<u8>().is_ok())
    });
    invites.sort_by_key(|(k, _)| (k.len(), k.clone()));
    let opponents = invites.iter().map(|(_, v)| UserArg::from_text(v)).collect();
    let level = match a.take("level") {
        None => Level::Normal,
        Some(l) => level(&l)?,
    };
    let hints = match a.take("hints") {
        None => None,
        Some(h) => Some(switch("hints", &h)?),
    };
    let vacation = match a.take("vacation") {
        None => true,
        Some(v) => switch("vacation", &v)?,
    };
    let bots = match a.take("bots") {
        None => 0,
        Some(b) => b
            .parse::<usize>()
            .ok()
            .filter(|&n| n <= 7)
            .ok_or_else(|| format!("bots:{b} must be a number from 0 to 7."))?,
    };
    let rated = match a.take("rated") {
        None => None,
        Some(v) => Some(yes_no("rated", &v)?),
    };
    let deadline = a
        .take("deadline")
        .as_deref()
        .map(new_deadline)
        .transpose()?;
    let reminder = a
        .take("reminder")
        .as_deref()
        .map(new_reminder)
        .transpose()?;
    Ok(NewGame {
        game,
        record,
        players,
        opponents,
        level,
        hints,
        vacation,
        bots,
        rated,
        deadline,
        reminder,
        options: a,
    })
}

fn league(options: &[(String, String)]) -> Res<LeagueCommand> {
    let mut options = options.to_vec();
    let sub = match options.iter().position(|(k, _)| k.is_empty()) {
        Some(i) => options.remove(i).1.to_ascii_lowercase(),
        None => return Err(format!("Which /league? {LEAGUE_USAGE}").into()),
    };
    let named = |what: &str| -> Res<Option<String>> {
        let mut a = Args::new(&options, Some("name"))?;
        let name = a.take("name");
        a.finish(what)?;
        Ok(name)
    };
    Ok(match sub.as_str() {
        "new" => LeagueCommand::New(new_league(Args::new(&options, Some("players"))?)?),
        "accept" | "join" => LeagueCommand::Answer {
            yes: true,
            name: named("league accept")?,
        },
        "decline" => LeagueCommand::Answer {
            yes: false,
            name: named("league decline")?,
        },
        "table" | "standings" => LeagueCommand::Table {
            name: named("league table")?,
        },
        "list" => {
            Args::new(&options, None)?.finish("league list")?;
            LeagueCommand::List
        }
        "leave" => LeagueCommand::Leave {
            name: named("league leave")?,
        },
        "cancel" => LeagueCommand::Cancel {
            name: named("league cancel")?,
        },
        other => return Err(format!("There is no /league {other}. {LEAGUE_USAGE}").into()),
    })
}

fn new_league(mut a: Args) -> Res<NewLeague> {
    let game = game_kind(&a.require("game", "the game")?)?;
    if !game.available() {
        return Err(format!("{} cannot be played yet.", game.title()).into());
    }
    let name = a.require("name", "the league's name")?.trim().to_string();
    if name.is_empty() || name.chars().count() > 32 || name.starts_with('#') {
        return Err("A league's name is 1 to 32 characters (not starting with #).".into());
    }
    let players = a.require("players", "the players (@a @b @c ...)")?;
    let double = match a.take("double").as_deref().map(str::to_ascii_lowercase) {
        None => false,
        Some(v) if v == "yes" => true,
        Some(v) if v == "no" => false,
        Some(v) => return Err(format!("double:{v} must be yes or no.").into()),
    };
    let deadline = a
        .take("deadline")
        .as_deref()
        .map(deadline_setting)
        .transpose()?;
    let team = match a.take("team") {
        None => 1,
        Some(t) if game == GameKind::Gladiator => t
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=4).contains(n))
            .ok_or_else(|| format!("team:{t} must be a number from 1 to 4."))?,
        Some(_) => return Err("team: is for Gladiator leagues, where teams play teams.".into()),
    };
    let tiebreaks = match a.take("tiebreaks") {
        None => TieBreaks::default(),
        Some(v) => TieBreaks::parse(&v)?,
    };
    let withdrawal = match a.take("withdrawal") {
        None => Withdrawal::default(),
        Some(v) => Withdrawal::parse(&v)?,
    };
    let numbers = match a.take("numbers") {
        None => Numbers::default(),
        Some(v) => Numbers::parse(&v)?,
    };
    // Leagues are between people, so rated unless created `rated:no`.
    let rated = match a.take("rated") {
        None => true,
        Some(v) => yes_no("rated", &v)?,
    };
    let vacation = match a.take("vacation") {
        None => true,
        Some(v) => yes_no("vacation", &v)?,
    };
    a.finish("league new")?;
    Ok(NewLeague {
        game,
        name,
        players: players.split_whitespace().map(UserArg::from_text).collect(),
        double,
        deadline,
        team,
        tiebreaks,
        withdrawal,
        numbers,
        rated,
        vacation,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_numbers_are_read_and_long_text_is_quoted_short() {
        assert!(page_number(Some("0".into())).is_err());
        assert!(
            page_number(Some("x".repeat(12_000)))
                .unwrap_err()
                .text()
                .chars()
                .count()
                < 120
        );
        assert_eq!(page_number(Some(" 3 ".into())), Ok(3));
    }

    fn opts(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn a_line_reads_into_its_typed_command() {
        let play = Command::parse(
            "/Play",
            &opts(&[("game", "#2"), ("", "turncoat"), ("", "l5")]),
        );
        assert_eq!(
            play,
            Ok(Command::Play {
                game: Some(2),
                action: "turncoat l5".into()
            })
        );
        // T17: `king:` begins the action.
        let king = Command::parse("play", &opts(&[("king", "c1-b2")]));
        assert_eq!(
            king,
            Ok(Command::Play {
                game: None,
                action: "king: c1-b2".into()
            })
        );
        assert_eq!(
            Command::parse(
                "settings",
                &opts(&[("reminder", "off"), ("deadline", "3d")])
            ),
            Ok(Command::Settings {
                reminder: Some(Reminder::Off),
                deadline: Some(3 * duration::DAY)
            })
        );
        assert_eq!(
            Command::parse("draw", &opts(&[("", "Accept")])),
            Ok(Command::Draw {
                game: None,
                answer: Some(Answer::Accept)
            })
        );
        // A record names its game: a `game:` beside it is not read.
        let Ok(Command::New(n)) = Command::parse(
            "new",
            &opts(&[
                ("record", "tokar1|x"),
                ("game", "chess"),
                ("opponent", "<@7>"),
            ]),
        ) else {
            panic!("a /new with a record reads");
        };
        assert_eq!((n.game, n.opponents[0].id), (None, Some(7)));
        assert!(matches!(
            Command::parse("league", &opts(&[("", "table"), ("name", "Spring")])),
            Ok(Command::League(LeagueCommand::Table { name: Some(_) }))
        ));
    }

    #[test]
    fn a_line_that_does_not_read_is_refused_in_one_line() {
        let refused = |name: &str, list: &[(&str, &str)]| {
            Command::parse(name, &opts(list)).unwrap_err().into_text()
        };
        assert_eq!(
            refused("plya", &[]),
            "There is no command /plya; /help lists them."
        );
        assert_eq!(
            refused("play", &[("action", "a1"), ("gmae", "2")]),
            "/play does not take option 'gmae'. Did you mean game?"
        );
        assert_eq!(
            refused("vacation", &[("", "maybe")]),
            "/vacation takes on or off, not 'maybe'."
        );
        assert_eq!(
            refused("resign", &[("game", "1"), ("game", "2")]),
            "Option 'game' is given twice."
        );
        assert_eq!(
            refused("league", &[("", "rename")]),
            format!("There is no /league rename. {LEAGUE_USAGE}")
        );
        assert!(refused(&"x".repeat(5_000), &[]).chars().count() < 200);
    }
}
