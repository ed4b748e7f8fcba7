//! A command as the table takes it: one variant per command, each with its
//! options typed. The Discord adapter builds it from the options Discord has
//! already typed; the console (and the tests) parse their text into it
//! ([`Command::parse`]). What only the engine or the position can judge (an
//! action, a square, a game's own options, a record) stays text inside the
//! typed variant.

pub mod args;
pub mod declare;
mod parse;

pub use args::{parse_game_number, parse_mention, Args};
pub use parse::{
    deadline_setting, game_kind, level, missing_game, new_deadline, new_reminder, page_number,
    settings_reminder, switch, yes_no,
};

use crate::clock::Millis;
use crate::league::rules::{Numbers, TieBreaks, Withdrawal};
use tokar_engine::catalog::GameKind;
use tokar_engine::search::Level;

/// One command, its options typed.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    New(NewGame),
    /// A game's own options stay text in `options` until the game (and so
    /// its kind) is known.
    Accept {
        game: Option<u64>,
        options: Args,
    },
    Decline {
        game: Option<u64>,
    },
    Join {
        game: Option<u64>,
        options: Args,
    },
    Play {
        game: Option<u64>,
        action: String,
    },
    Hint {
        game: Option<u64>,
    },
    Board {
        game: Option<u64>,
    },
    Moves {
        game: Option<u64>,
        square: Option<String>,
        page: usize,
    },
    Hand {
        game: Option<u64>,
    },
    Resign {
        game: Option<u64>,
        confirm: bool,
    },
    Draw {
        game: Option<u64>,
        answer: Option<Answer>,
    },
    Undo {
        game: Option<u64>,
        answer: Option<Answer>,
    },
    Claim {
        game: Option<u64>,
    },
    Games {
        server: bool,
        page: usize,
    },
    History {
        game: Option<u64>,
    },
    Export {
        game: Option<u64>,
    },
    Replay {
        game: Option<u64>,
    },
    /// `game` names the game and maybe a topic (`magic chess king`), which
    /// the engine reads.
    Rules {
        game: Option<String>,
        unit: Option<String>,
    },
    Settings {
        reminder: Option<Reminder>,
        deadline: Option<Millis>,
    },
    Vacation {
        state: Option<bool>,
    },
    /// A click on one of the table's buttons: the id it gave the button.
    Button {
        custom_id: String,
    },
    Resume {
        game: u64,
    },
    Follow {
        game: u64,
        stop: bool,
    },
    Leaderboard {
        game: GameKind,
        scope: Option<RatingScope>,
    },
    Stats {
        user: Option<u64>,
        against: Option<u64>,
    },
    League(LeagueCommand),
    Server {
        threads: Option<bool>,
        rated_bots: Option<bool>,
    },
    Help,
}

/// `/new`'s options.
#[derive(Clone, Debug, PartialEq)]
pub struct NewGame {
    /// The game: `None` when it comes from `record` (whose game it is).
    pub game: Option<GameKind>,
    /// An exported game record to start from (the table reads and checks it).
    pub record: Option<String>,
    pub players: Option<usize>,
    /// `opponent`, `opponent2`, ... in that order.
    pub opponents: Vec<UserArg>,
    pub level: Level,
    pub hints: Option<bool>,
    pub vacation: bool,
    pub bots: usize,
    pub rated: Option<bool>,
    pub deadline: Option<Millis>,
    pub reminder: Option<Millis>,
    /// The game's own options (`army:undead`, `army.2:human`), judged by the
    /// engine once the game is known.
    pub options: Args,
}

/// A user named in a command: a mention (`<@id>`) or an id, or words that are
/// none (the table knows one name of its own: its computer player's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserArg {
    /// As typed (quoted in refusals).
    pub typed: String,
    /// The user's id, when `typed` is a mention.
    pub id: Option<u64>,
}

impl UserArg {
    /// A user from what was typed.
    pub fn from_text(typed: &str) -> UserArg {
        UserArg {
            typed: typed.to_string(),
            id: parse_mention(typed).ok(),
        }
    }

    /// A user the adapter knows by id.
    pub fn from_id(id: u64) -> UserArg {
        UserArg {
            typed: format!("<@{id}>"),
            id: Some(id),
        }
    }

    /// The user's id, or the refusal of what was typed.
    pub fn id(&self) -> Result<u64, crate::Refusal> {
        match self.id {
            Some(id) => Ok(id),
            None => parse_mention(&self.typed),
        }
    }
}

/// An answer to a draw or undo offer (or an offer made).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Offer,
    Accept,
    Decline,
}

/// `/settings reminder:`: an interval, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reminder {
    Off,
    Every(Millis),
}

/// Whose ratings `/leaderboard` shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RatingScope {
    Server,
    Global,
}

/// `/league`'s sub-commands.
#[derive(Clone, Debug, PartialEq)]
pub enum LeagueCommand {
    New(NewLeague),
    /// Accept (`yes`) or decline an invitation.
    Answer {
        yes: bool,
        name: Option<String>,
    },
    Table {
        name: Option<String>,
    },
    List,
    Leave {
        name: Option<String>,
    },
    Cancel {
        name: Option<String>,
    },
}

/// `/league new`'s options.
#[derive(Clone, Debug, PartialEq)]
pub struct NewLeague {
    pub game: GameKind,
    pub name: String,
    /// The players as typed, one word each.
    pub players: Vec<UserArg>,
    pub double: bool,
    /// `None`: the creator's own move deadline.
    pub deadline: Option<Millis>,
    /// Players per team (Gladiator only).
    pub team: usize,
    pub tiebreaks: TieBreaks,
    pub withdrawal: Withdrawal,
    pub numbers: Numbers,
    pub rated: bool,
    pub vacation: bool,
}

/// How to use `/league`, told when a sub-command is missing or unknown.
pub const LEAGUE_USAGE: &str = "Use /league new game:<game> name:<name> players:@a @b @c [double:yes] [deadline:7d] [team:2] \
[tiebreaks:fide|sb] [withdrawal:fide|iccf] [numbers:lot|rating|listed] [rated:yes|no] [vacation:on|off], \
/league accept name:<name>, /league decline name:<name>, /league table [name:<name>], /league list, /league leave name:<name>, \
/league cancel name:<name>.";

impl Command {
    /// The command's name, as the log and the refusals name it (`play`).
    pub fn name(&self) -> &'static str {
        match self {
            Command::New(_) => "new",
            Command::Accept { .. } => "accept",
            Command::Decline { .. } => "decline",
            Command::Join { .. } => "join",
            Command::Play { .. } => "play",
            Command::Hint { .. } => "hint",
            Command::Board { .. } => "board",
            Command::Moves { .. } => "moves",
            Command::Hand { .. } => "hand",
            Command::Resign { .. } => "resign",
            Command::Draw { .. } => "draw",
            Command::Undo { .. } => "undo",
            Command::Claim { .. } => "claim",
            Command::Games { .. } => "games",
            Command::History { .. } => "history",
            Command::Export { .. } => "export",
            Command::Replay { .. } => "replay",
            Command::Rules { .. } => "rules",
            Command::Settings { .. } => "settings",
            Command::Vacation { .. } => "vacation",
            Command::Button { .. } => "button",
            Command::Resume { .. } => "resume",
            Command::Follow { .. } => "follow",
            Command::Leaderboard { .. } => "leaderboard",
            Command::Stats { .. } => "stats",
            Command::League(_) => "league",
            Command::Server { .. } => "server",
            Command::Help => "help",
        }
    }

    /// The text the user typed into the command's free-text options, as
    /// (option, value): what a refusal may quote, and so what its quoting
    /// bound (issue #32, [`crate::quote::bound_quotes`]) looks at.
    pub fn typed(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        let mut put = |k: &str, v: Option<&str>| {
            if let Some(v) = v {
                out.push((k.to_string(), v.to_string()));
            }
        };
        match self {
            Command::New(n) => {
                put("record", n.record.as_deref());
                for o in &n.opponents {
                    put("opponent", Some(&o.typed));
                }
                for (k, v) in n.options.left() {
                    put(k, Some(v));
                }
            }
            Command::Accept { options, .. } | Command::Join { options, .. } => {
                for (k, v) in options.left() {
                    put(k, Some(v));
                }
            }
            Command::Play { action, .. } => put("action", Some(action)),
            Command::Moves { square, .. } => put("square", square.as_deref()),
            Command::Rules { game, unit } => {
                put("game", game.as_deref());
                put("unit", unit.as_deref());
            }
            Command::Button { custom_id } => put("custom_id", Some(custom_id)),
            Command::League(l) => match l {
                LeagueCommand::New(n) => {
                    put("name", Some(&n.name));
                    for p in &n.players {
                        put("players", Some(&p.typed));
                    }
                }
                LeagueCommand::Answer { name, .. }
                | LeagueCommand::Table { name }
                | LeagueCommand::Leave { name }
                | LeagueCommand::Cancel { name } => put("name", name.as_deref()),
                LeagueCommand::List => {}
            },
            _ => {}
        }
        out
    }
}
