//! Every command, declared once: its name, its group, the line that says what
//! it does, whether its answer is for the invoker alone, its options with the
//! line each says, and how `/help` writes it. The help text, the Discord
//! adapter's list of private commands and the descriptions Discord shows all
//! come from here; the adapter's test checks that what it registers is
//! exactly what is declared.

/// Where a command belongs (the Discord adapter keeps one file per group).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// Starting and finding games.
    Games,
    /// Playing one.
    Turns,
    /// Reference.
    Info,
    /// Ratings.
    Standings,
    /// A player's or a server's settings.
    Account,
    /// Round-robin leagues.
    League,
}

/// One command as declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Declared {
    pub name: &'static str,
    pub group: Group,
    /// What it does, in one line (Discord's description: at most 100 characters).
    pub summary: &'static str,
    /// Its answer is for the invoker alone: Discord defers it privately.
    pub private: bool,
    /// How `/help` writes it; `None` for `/help` itself.
    pub usage: Option<&'static str>,
    /// Its options as Discord offers them, in order.
    pub options: &'static [Opt],
    /// Its sub-commands (`/league new`), each with its own options.
    pub subcommands: &'static [Declared],
}

/// One option of a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opt {
    pub name: &'static str,
    /// What it is, in one line (at most 100 characters).
    pub about: &'static str,
}

const fn opt(name: &'static str, about: &'static str) -> Opt {
    Opt { name, about }
}

/// The command named `name` (`league`), if there is one.
pub fn find(name: &str) -> Option<&'static Declared> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// Whether `name`'s answer is for the invoker alone.
pub fn is_private(name: &str) -> bool {
    find(name).is_some_and(|c| c.private)
}

/// The text of `/help`: every command's usage, in order.
pub fn help() -> String {
    let usages: Vec<&str> = COMMANDS.iter().filter_map(|c| c.usage).collect();
    format!(
        "Commands: {}. Add game:<n> when you play several games in a channel.",
        usages.join(" · ")
    )
}

/// Every command, in the order `/help` lists them.
pub const COMMANDS: &[Declared] = &[
    Declared {
        name: "new",
        group: Group::Games,
        summary: "Challenge players to a new game in this channel.",
        private: false,
        usage: Some("/new game:<arcana|magic-chess|gladiator|arachne> [options] [opponent:@user] [players:n] (Undead Arcana: /new game:arcana army:undead-arcana)"),
        options: &[
            opt("game", "Which game"),
            opt("opponent", "Who you challenge"),
            opt("opponent2", "Second opponent (games for more players)"),
            opt("opponent3", "Third opponent (games for more players)"),
            opt("players", "Number of seats (to hold several seats yourself)"),
            opt("army", "Arcana: your army (human, undead, undead-arcana, alternate, or picks)"),
            opt("first", "Arcana: who moves first (random, creator, opponent)"),
            opt("variant", "Arachne: strategist, convenient or original"),
            opt("bots", "Computer opponents filling open seats"),
            opt("level", "Computer level: easy, normal, hard"),
            opt("hints", "Allow /hint in this game: on or off"),
            opt("deadline", "Move deadline of this game, 1d-90d (default: your /settings)"),
            opt("reminder", "Reminder interval in this game, at least 1h (default: each player's)"),
            opt("rated", "Count for ratings: yes (default between people) or no"),
            opt("vacation", "Whether a player's /vacation stops this game's clock: on (default) or off"),
            opt("record", "Start from an exported game record"),
            opt("options", "Other game options as name:value pairs (e.g. partners:yes freeze-cards:12)"),
            opt("record_file", "Start from an exported game record sent as a .txt file (long records)"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "accept",
        group: Group::Games,
        summary: "Accept a challenge.",
        private: false,
        usage: Some("/accept"),
        options: &[
            opt("game", "Game number (if you have several challenges)"),
            opt("army", "Arcana: your army (human, undead, undead-arcana, alternate, or picks)"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "decline",
        group: Group::Games,
        summary: "Decline a challenge.",
        private: false,
        usage: Some("/decline"),
        options: &[
            opt("game", "Game number (if you have several challenges)"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "join",
        group: Group::Games,
        summary: "Take a free seat in an open game.",
        private: false,
        usage: Some("/join"),
        options: &[
            opt("game", "Game number"),
            opt("army", "Arcana: your army (human, undead, undead-arcana, alternate, or picks)"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "play",
        group: Group::Turns,
        summary: "Make your move.",
        private: false,
        usage: Some("/play action:<move>"),
        options: &[
            opt("action", "Your move (start typing for the legal ones)"),
            opt("game", "Game number (if you play several here)"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "hint",
        group: Group::Turns,
        summary: "Ask Tokar privately for your best action, with a line on why.",
        private: true,
        usage: Some("/hint"),
        options: &[
            opt("game", "Game number"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "board",
        group: Group::Turns,
        summary: "Show the board.",
        private: false,
        usage: Some("/board"),
        options: &[
            opt("game", "Game number"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "moves",
        group: Group::Turns,
        summary: "List the legal moves of a piece (or all of them), privately.",
        private: true,
        usage: Some("/moves [square] [page]"),
        options: &[
            opt("square", "The square of the piece"),
            opt("page", "Which page of a long list"),
            opt("game", "Game number"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "hand",
        group: Group::Turns,
        summary: "Show your hidden cards, privately.",
        private: true,
        usage: Some("/hand"),
        options: &[
            opt("game", "Game number"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "resign",
        group: Group::Turns,
        summary: "Resign the game.",
        private: false,
        usage: Some("/resign"),
        options: &[
            opt("game", "Game number"),
            opt("confirm", "True: resign at once, without the confirmation button"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "draw",
        group: Group::Turns,
        summary: "Offer, accept or decline a draw.",
        private: false,
        usage: Some("/draw [answer:accept|decline]"),
        options: &[
            opt("answer", "offer, accept or decline (default: offer)"),
            opt("game", "Game number"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "undo",
        group: Group::Turns,
        summary: "Offer, accept or decline taking back the last move.",
        private: false,
        usage: Some("/undo [answer:accept|decline]"),
        options: &[
            opt("answer", "offer, accept or decline (default: offer)"),
            opt("game", "Game number"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "claim",
        group: Group::Turns,
        summary: "Claim a win when your opponent let the move deadline pass.",
        private: false,
        usage: Some("/claim"),
        options: &[
            opt("game", "Game number"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "games",
        group: Group::Games,
        summary: "List your games and whose turn it is, or this server's games.",
        private: true,
        usage: Some("/games [scope:mine|server] [page]"),
        options: &[
            opt("scope", "mine (default) or this server's: open seats, games in play, results"),
            opt("page", "Which page of a long list"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "history",
        group: Group::Games,
        summary: "Show the moves played so far.",
        private: false,
        usage: Some("/history"),
        options: &[
            opt("game", "Game number"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "export",
        group: Group::Games,
        summary: "Export a game's record.",
        private: false,
        usage: Some("/export"),
        options: &[
            opt("game", "Game number"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "replay",
        group: Group::Games,
        summary: "Replay a game as an animated picture: a finished game for anyone, a game in play for its players.",
        private: false,
        usage: Some("/replay [game:n]"),
        options: &[
            opt("game", "Game number"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "rules",
        group: Group::Info,
        summary: "Read the rules of a game, or of one unit.",
        private: true,
        usage: Some("/rules [game] [unit]"),
        options: &[
            opt("game", "Which game"),
            opt("unit", "One unit or piece"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "leaderboard",
        group: Group::Standings,
        summary: "The best-rated players of a game, on this server or across servers.",
        private: false,
        usage: Some("/leaderboard game:<kind> [scope:server|global]"),
        options: &[
            opt("game", "Which game"),
            opt("scope", "This server (default) or all servers"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "stats",
        group: Group::Standings,
        summary: "A player's ratings, history, results and time to move.",
        private: false,
        usage: Some("/stats [user] [against]"),
        options: &[
            opt("user", "Whose statistics (you if left out)"),
            opt("against", "Head-to-head against this player"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "settings",
        group: Group::Account,
        summary: "Show or change when you are reminded and your move deadline.",
        private: true,
        usage: Some("/settings [reminder:24h] [deadline:7d]"),
        options: &[
            opt("reminder", "Remind me after (e.g. 12h, 1d, off)"),
            opt("deadline", "Move deadline for new games (e.g. 3d, 7d, off)"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "vacation",
        group: Group::Account,
        summary: "Pause your reminders and deadlines while you are away.",
        private: true,
        usage: Some("/vacation on|off"),
        options: &[
            opt("state", "on: away; off: back (empty: show)"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "follow",
        group: Group::Games,
        summary: "Be pinged once when a game ends (never for its turns).",
        private: true,
        usage: Some("/follow game:<n> [stop:yes]"),
        options: &[
            opt("game", "Game number"),
            opt("stop", "Stop following it"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "resume",
        group: Group::Games,
        summary: "Continue here a game whose channel was deleted or closed to the bot.",
        private: false,
        usage: Some("/resume game:<n> (a game whose channel was lost continues where you type it)"),
        options: &[
            opt("game", "Game number (see /games)"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "league",
        group: Group::League,
        summary: "Round-robin leagues of this server.",
        private: false,
        usage: Some("/league new|accept|decline|table|list|leave|cancel (round-robin leagues)"),
        options: &[],
        subcommands: LEAGUE,
    },
    Declared {
        name: "server",
        group: Group::Account,
        summary: "Show or change this server's settings (changing them needs Manage Server).",
        private: true,
        usage: Some("/server [threads:on|off] [rated-bots:on|off] (Manage Server: whether each game gets its own thread, whether games against Tokar are rated)"),
        options: &[
            opt("threads", "on: each game gets its own thread; off: games stay in their channel"),
            opt("rated-bots", "on: games against Tokar are rated; off: they are not (the default)"),
        ],
        subcommands: &[],
    },
    Declared {
        name: "help",
        group: Group::Info,
        summary: "List the commands, privately.",
        private: true,
        usage: None,
        options: &[],
        subcommands: &[],
    },
];

/// `/league`'s sub-commands.
const LEAGUE: &[Declared] = &[
    Declared {
        name: "new",
        group: Group::League,
        summary: "Start a league: every player is asked to say yes first.",
        private: false,
        usage: None,
        options: &[
            opt("game", "Which game"),
            opt("name", "The league's name"),
            opt("players", "The players, as mentions: @a @b @c"),
            opt("double", "Play every pairing twice, home and away"),
            opt(
                "deadline",
                "Move deadline of its games (1d to 90d; default yours)",
            ),
            opt(
                "team",
                "Gladiator: players per team (consecutive players form a team)",
            ),
            opt(
                "tiebreaks",
                "Tie-breaks: fide (DE, wins, SB, Koya, lots; default) or sb (SB, wins, lots)",
            ),
            opt(
                "withdrawal",
                "Leaving: fide (under half played: annulled; default) or iccf (games left lost)",
            ),
            opt(
                "numbers",
                "Pairing numbers: lot (default), rating, or listed (order of players)",
            ),
            opt(
                "rated",
                "Count its games for ratings: yes (default; no hints) or no",
            ),
            opt(
                "vacation",
                "Whether a player's /vacation stops its games' clocks: on (default) or off",
            ),
        ],
        subcommands: &[],
    },
    Declared {
        name: "accept",
        group: Group::League,
        summary: "Say yes to a league you are invited to.",
        private: false,
        usage: None,
        options: &[opt("name", "The league's name")],
        subcommands: &[],
    },
    Declared {
        name: "decline",
        group: Group::League,
        summary: "Say no to a league you are invited to (it is cancelled).",
        private: false,
        usage: None,
        options: &[opt("name", "The league's name")],
        subcommands: &[],
    },
    Declared {
        name: "table",
        group: Group::League,
        summary: "A league's standings.",
        private: false,
        usage: None,
        options: &[opt("name", "The league's name")],
        subcommands: &[],
    },
    Declared {
        name: "list",
        group: Group::League,
        summary: "This server's leagues.",
        private: false,
        usage: None,
        options: &[],
        subcommands: &[],
    },
    Declared {
        name: "leave",
        group: Group::League,
        summary: "Leave a league: your games left are lost at the move deadline.",
        private: false,
        usage: None,
        options: &[opt("name", "The league's name")],
        subcommands: &[],
    },
    Declared {
        name: "cancel",
        group: Group::League,
        summary: "Call off a league you created that has not started.",
        private: false,
        usage: None,
        options: &[opt("name", "The league's name")],
        subcommands: &[],
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The help text as it read when it was written by hand: players and tests know it.
    const HELP_BEFORE: &str = "Commands: /new game:<arcana|magic-chess|gladiator|arachne> [options] [opponent:@user] [players:n] \
(Undead Arcana: /new game:arcana army:undead-arcana) · \
/accept · /decline · /join · /play action:<move> · /hint · /board · /moves [square] [page] · /hand · /resign · \
/draw [answer:accept|decline] · /undo [answer:accept|decline] · /claim · /games [scope:mine|server] [page] · /history · /export · /replay [game:n] · \
/rules [game] [unit] · /leaderboard game:<kind> [scope:server|global] · /stats [user] [against] · /settings [reminder:24h] [deadline:7d] · /vacation on|off · \
/follow game:<n> [stop:yes] · /resume game:<n> (a game whose channel was lost continues where you type it) · \
/league new|accept|decline|table|list|leave|cancel (round-robin leagues) · \
/server [threads:on|off] [rated-bots:on|off] (Manage Server: whether each game gets its own thread, whether games against Tokar are rated). \
Add game:<n> when you play several games in a channel.";

    #[test]
    fn help_is_written_from_the_declaration_as_it_was() {
        assert_eq!(help(), HELP_BEFORE);
    }

    #[test]
    fn every_command_is_declared_once_and_parses_by_its_name() {
        let mut names: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), COMMANDS.len());
        for c in COMMANDS {
            // Each declared command is one the console reads (its options aside).
            match crate::Command::parse(c.name, &[]) {
                Ok(parsed) => assert_eq!(parsed.name(), c.name),
                Err(r) => assert!(
                    !r.text().starts_with("There is no command"),
                    "/{} is declared but not read: {r}",
                    c.name
                ),
            }
        }
    }
}
