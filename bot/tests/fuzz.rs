//! Hostile command lines through [`Table::handle`], as the Discord adapter
//! and the console hand them over: lines built from the real command grammar
//! (games played legally in between, so that there is something to damage)
//! and mutated, with unknown users, wrong channels, huge numbers, unicode and
//! options out of range. No line may panic; every refusal is one line and
//! changes no stored game.
//!
//! 10,000 lines by default, from a fixed seed; `TOKAR_FUZZ_LINES` and
//! `TOKAR_FUZZ_SEED` change both (`scripts/fuzz.sh` runs 100,000 in release).

mod common;
use common::fresh_dir;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use tokar_bot::clock::VirtualClock;
use tokar_bot::console::parse_line;
use tokar_bot::table::robot::RobotConfig;
use tokar_bot::{ChannelRef, Command, Reply, Request, Table, TableConfig, UserRef};
use tokar_engine::Rng;

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

const PEOPLE: [&str; 5] = ["alice", "bob", "carol", "dave", "erin"];
const CHANNELS: [&str; 2] = ["table", "elsewhere"];
const COMMANDS: &[&str] = &[
    "new", "accept", "decline", "join", "play", "hint", "board", "moves", "hand", "resign", "draw",
    "undo", "claim", "games", "history", "export", "rules", "settings", "vacation", "button",
    "resume", "help", "", "frob", "PLAY", "/new", "new ", "ɴew", "play\0",
];
const KEYS: &[&str] = &[
    "game",
    "action",
    "record",
    "opponent",
    "opponent2",
    "opponent3",
    "opponent255",
    "opponent256",
    "players",
    "army",
    "army.0",
    "army.1",
    "army.9",
    "army.256",
    "first",
    "level",
    "hints",
    "bots",
    "reminder",
    "deadline",
    "answer",
    "custom_id",
    "square",
    "topic",
    "unit",
    "record_file",
    "partners",
    "freeze-cards",
    "slow-cards",
    "variant",
    "",
    "GAME",
    "gäme",
    "game\u{200b}",
];
const VALUES: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "-1",
    "+1",
    "007",
    "1.5",
    "1e9",
    "NaN",
    "inf",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999",
    "٣",
    "Ⅷ",
    "",
    " ",
    "\"",
    "'",
    "`",
    "|",
    "@",
    "<@>",
    "<@0>",
    "<@1>",
    "<@18446744073709551615>",
    "<@99999999999999999999>",
    "<#1>",
    "@Tokar",
    "on",
    "off",
    "yes",
    "no",
    "easy",
    "normal",
    "hard",
    "human",
    "undead",
    "random",
    "creator",
    "opponent",
    "offer",
    "accept",
    "decline",
    "24h",
    "0h",
    "1h",
    "59m",
    "91d",
    "90d",
    "1d12h",
    "999999999w",
    "99999999999999999999h",
    "arcana",
    "magic-chess",
    "gladiator",
    "arachne",
    "chess",
    "Arcana",
    "original",
    "convenient",
    "strategist",
    "a1",
    "a1-a2",
    "b1-c3",
    "e2-e4",
    "xk4",
    "h5-h4-i4-j4 xk4",
    "!concede",
    "!skip",
    "💥",
    "🦀🦀🦀",
    "zoë",
    "a\u{202e}b",
    "\u{0}",
    "\u{feff}",
    "e\u{301}",
    "ﷺ",
    "tokar1|arcana||seed=?",
    "tokar1|arcana||seed=1|0:b1-c3",
    "tokar1|magic-chess||seed=12345",
    "tokar1|arachne||seed=18446744073709551615|0:!skip",
    "tokar1|gladiator|x=y|seed=1",
    "tokar1|arcana||seed=1+0:2+0:3",
    "tokar1|arcana||seed=1+5:2|0:a|1:b",
    "tokar1|arcana||seed=1|999:b1-c3",
];

/// A game the run started legally, to play on and to aim hostile lines at.
struct Game {
    id: u64,
    channel: usize,
    players: Vec<usize>,
    invited: Vec<(usize, &'static str)>,
}

/// A command as typed (the console's text): what the fuzzer builds and mutates.
#[derive(Clone, Debug)]
struct Typed {
    user: UserRef,
    channel: ChannelRef,
    command: String,
    options: Vec<(String, String)>,
}

impl Typed {
    /// Sends it as the console does: read into a command, or refused as not reading.
    async fn send(&self, table: &Table) -> Vec<Reply> {
        match Command::parse(&self.command, &self.options) {
            Ok(command) => {
                table
                    .handle(Request {
                        user: self.user.clone(),
                        channel: self.channel.clone(),
                        command,
                        interaction_token: None,
                        manage_server: false,
                    })
                    .await
            }
            Err(r) => vec![Reply::refusal(&self.channel, &self.user, r.into_text())],
        }
    }
}

struct Fuzz {
    table: Table,
    rng: Rng,
    games: Vec<Game>,
    /// Lines that were accepted: material for mutations.
    accepted: Vec<Typed>,
    max_id: u64,
    exports: Vec<String>,
}

fn person(i: usize) -> UserRef {
    UserRef {
        id: 2_000 + i as u64,
        name: PEOPLE[i].into(),
    }
}

fn place(i: usize) -> ChannelRef {
    ChannelRef::new(700_000 + i as u64, CHANNELS[i])
}

fn mention(i: usize) -> String {
    format!("<@{}>", person(i).id)
}

/// The number of the game a reply names (`game #12`, `Game #12`).
fn game_number(text: &str) -> Option<u64> {
    let at = text.find("ame #")? + 5;
    let digits: String = text[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

impl Fuzz {
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.rng.below(items.len() as u64) as usize]
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.rng.below(100) < percent
    }

    fn request(
        user: UserRef,
        channel: ChannelRef,
        command: &str,
        options: Vec<(String, String)>,
    ) -> Typed {
        Typed {
            user,
            channel,
            command: command.into(),
            options,
        }
    }

    /// A value nobody should send.
    fn hostile_value(&mut self) -> String {
        match self.rng.below(8) {
            0 => self.rng.next_u64().to_string(),
            1 => format!("-{}", self.rng.next_u64()),
            2 => "9".repeat(1 + self.rng.below(400) as usize),
            3 => {
                let c = *self.pick(&['x', 'é', '🎲', '\u{202e}', '|', ':', '"', '\0']);
                std::iter::repeat_n(c, 1 + self.rng.below(3000) as usize).collect()
            }
            4 if !self.exports.is_empty() => {
                let e = self.pick(&self.exports.clone()).clone();
                self.mutate_text(&e)
            }
            5 => (1 + self.rng.below(self.max_id + 3)).to_string(),
            _ => self.pick(VALUES).to_string(),
        }
    }

    /// `text` with a few characters replaced, cut or doubled.
    fn mutate_text(&mut self, text: &str) -> String {
        let mut chars: Vec<char> = text.chars().collect();
        for _ in 0..1 + self.rng.below(3) {
            if chars.is_empty() {
                break;
            }
            let at = self.rng.below(chars.len() as u64) as usize;
            match self.rng.below(4) {
                0 => chars[at] = *self.pick(&['|', ':', '+', '9', '0', 'ß', '\u{0}', '=']),
                1 => chars.truncate(at),
                2 => {
                    let c = chars[at];
                    chars.insert(at, c);
                }
                _ => {
                    chars.remove(at);
                }
            }
        }
        chars.into_iter().collect()
    }

    /// Someone who is not one of the people: a stranger, the bot, nobody.
    fn stranger(&mut self) -> UserRef {
        match self.rng.below(4) {
            0 => UserRef {
                id: self.rng.next_u64(),
                name: "stranger".into(),
            },
            1 => UserRef {
                id: 1,
                name: "Tokar".into(),
            },
            2 => UserRef {
                id: 0,
                name: String::new(),
            },
            _ => UserRef {
                id: 2_000 + self.rng.below(5),
                name: self.pick(&["🦀", "a\u{202e}b", "\u{0}", "x"]).to_string(),
            },
        }
    }

    fn some_user(&mut self) -> UserRef {
        if self.chance(80) {
            person(self.rng.below(PEOPLE.len() as u64) as usize)
        } else {
            self.stranger()
        }
    }

    fn some_channel(&mut self) -> ChannelRef {
        match self.rng.below(10) {
            0 => ChannelRef::new(self.rng.next_u64(), "🎲"),
            1..=3 => place(1),
            _ => place(0),
        }
    }

    /// A line that moves a game on: a new game, an answer to an invitation,
    /// or a legal action.
    async fn progress(&mut self) -> Typed {
        let pending: Vec<(usize, usize, &'static str)> = self
            .games
            .iter()
            .enumerate()
            .flat_map(|(g, game)| game.invited.iter().map(move |&(u, o)| (g, u, o)))
            .collect();
        if !pending.is_empty() && self.chance(70) {
            let (g, u, opts) = *self.pick(&pending);
            let game = &self.games[g];
            let mut options = vec![("game".to_string(), game.id.to_string())];
            if !opts.is_empty() {
                let (k, v) = opts.split_once(':').unwrap();
                options.push((k.into(), v.into()));
            }
            return Self::request(person(u), place(game.channel), "accept", options);
        }
        if !self.games.is_empty() && (self.games.len() >= 6 || self.chance(85)) {
            let g = self.rng.below(self.games.len() as u64) as usize;
            let (id, channel, players, waiting) = {
                let game = &self.games[g];
                (
                    game.id,
                    game.channel,
                    game.players.clone(),
                    !game.invited.is_empty(),
                )
            };
            for &p in &players {
                let actions = self
                    .table
                    .autocomplete(&person(p), &place(channel), "action", "", Some(id))
                    .await;
                if !actions.is_empty() {
                    let a = self.pick(&actions).1.clone();
                    return Self::request(
                        person(p),
                        place(channel),
                        "play",
                        vec![("game".into(), id.to_string()), ("action".into(), a)],
                    );
                }
            }
            if !waiting {
                // Nobody may act: the game is over. Play the others.
                self.games.remove(g);
            }
            if !self.games.is_empty() {
                return Self::request(
                    person(players[0]),
                    place(channel),
                    "board",
                    vec![("game".into(), id.to_string())],
                );
            }
        }
        let creator = self.rng.below(PEOPLE.len() as u64) as usize;
        let other = (creator + 1 + self.rng.below(PEOPLE.len() as u64 - 1) as usize) % PEOPLE.len();
        let channel = self.rng.below(2) as usize;
        let (game, mine): (&str, &[(&str, &str)]) = *self.pick(&[
            ("arcana", &[("army", "human")][..]),
            ("arachne", &[][..]),
            ("gladiator", &[][..]),
            ("magic-chess", &[("players", "2")][..]),
        ]);
        let mut options: Vec<(String, String)> = vec![("game".into(), game.into())];
        options.extend(mine.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        if self.chance(20) {
            options.push(("opponent".into(), "@Tokar".into()));
            options.push(("level".into(), "easy".into()));
        } else {
            options.push(("opponent".into(), mention(other)));
        }
        Self::request(person(creator), place(channel), "new", options)
    }

    /// A line meant to be refused (some are accepted anyway: a look at a
    /// board, a setting).
    fn hostile(&mut self) -> Typed {
        if !self.accepted.is_empty() && self.chance(40) {
            let mut r = self.pick(&self.accepted.clone()).clone();
            match self.rng.below(6) {
                0 => r.user = self.stranger(),
                1 => r.channel = self.some_channel(),
                2 if !r.options.is_empty() => {
                    let i = self.rng.below(r.options.len() as u64) as usize;
                    r.options[i].1 = self.hostile_value();
                }
                3 if !r.options.is_empty() => {
                    let i = self.rng.below(r.options.len() as u64) as usize;
                    let o = r.options[i].clone();
                    r.options.push(o);
                }
                4 => r.command = self.pick(COMMANDS).to_string(),
                _ => {
                    let k = self.pick(KEYS).to_string();
                    let v = self.hostile_value();
                    r.options.push((k, v));
                }
            }
            return r;
        }
        let user = self.some_user();
        let channel = self.some_channel();
        let command = self.pick(COMMANDS).to_string();
        let n = self.rng.below(5);
        let mut options = Vec::new();
        for _ in 0..n {
            let k = self.pick(KEYS).to_string();
            let v = if self.chance(50) {
                self.pick(VALUES).to_string()
            } else {
                self.hostile_value()
            };
            options.push((k, v));
        }
        Self::request(user, channel, &command, options)
    }

    /// What the stored games are now: refused lines must leave it as it was.
    async fn games_digest(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.table
            .stored_records(self.max_id + 3)
            .await
            .unwrap()
            .hash(&mut h);
        h.finish()
    }

    /// Keeps track of the games a legal line started or moved on.
    fn learn(&mut self, req: &Typed, replies: &[tokar_bot::Reply]) {
        let Some(first) = replies.first() else { return };
        if req.command == "new" {
            if let Some(id) = game_number(&first.content) {
                self.max_id = self.max_id.max(id);
                let creator = PEOPLE.iter().position(|p| *p == req.user.name);
                let channel = CHANNELS.iter().position(|c| *c == req.channel.name);
                if let (Some(c), Some(ch)) = (creator, channel) {
                    let invitee = req
                        .options
                        .iter()
                        .find(|(k, _)| k == "opponent")
                        .and_then(|(_, v)| (0..PEOPLE.len()).find(|&i| mention(i) == *v));
                    let arcana = req.options.iter().any(|(_, v)| v == "arcana");
                    let mut players = vec![c];
                    let mut invited = Vec::new();
                    if let Some(o) = invitee {
                        players.push(o);
                        invited.push((o, if arcana { "army:undead" } else { "" }));
                    }
                    self.games.push(Game {
                        id,
                        channel: ch,
                        players,
                        invited,
                    });
                }
            }
        }
        if req.command == "accept" {
            let user = PEOPLE.iter().position(|p| *p == req.user.name);
            if let (Some(id), Some(u)) = (game_number(&first.content), user) {
                if let Some(g) = self.games.iter_mut().find(|g| g.id == id) {
                    g.invited.retain(|(i, _)| *i != u);
                }
            }
        }
        if req.command == "export" {
            if let Some(r) = first.content.split('`').nth(1).map(|r| r.trim_matches('"')) {
                if r.starts_with("tokar1|") && self.exports.len() < 50 {
                    self.exports.push(r.to_string());
                }
            }
        }
        if self.accepted.len() < 500 {
            self.accepted.push(req.clone());
        }
    }
}

#[derive(Debug, Default)]
struct Figures {
    lines: u64,
    accepted: u64,
    refused: u64,
    actions: u64,
    panics: u64,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_lines_never_panic_and_refusals_change_nothing() {
    let lines = setting("TOKAR_FUZZ_LINES", 10_000);
    let seed = setting("TOKAR_FUZZ_SEED", 20_261_124);
    let dir = fresh_dir("fuzz");
    let clock = std::sync::Arc::new(VirtualClock::open(&dir).unwrap());
    let table = Table::open(TableConfig {
        data_dir: dir.clone(),
        clock,
        seed: Some(seed),
        robot: RobotConfig {
            iterations: Some(8),
            ..RobotConfig::default()
        },
        storage: Default::default(),
    })
    .await
    .unwrap();
    for i in 0..PEOPLE.len() {
        table.remember_user(&person(i)).await.unwrap();
    }
    let mut f = Fuzz {
        table,
        rng: Rng::new(seed),
        games: Vec::new(),
        accepted: Vec::new(),
        max_id: 0,
        exports: Vec::new(),
    };
    let mut figures = Figures::default();
    for n in 0..lines {
        let req = if f.chance(25) {
            f.progress().await
        } else if f.chance(3) && f.max_id > 0 {
            let id = 1 + f.rng.below(f.max_id);
            let user = f.some_user();
            Fuzz::request(
                user,
                place(0),
                "export",
                vec![("game".into(), id.to_string())],
            )
        } else {
            f.hostile()
        };
        let before = f.games_digest().await;
        let replies = req.send(&f.table).await;
        figures.lines += 1;
        assert!(!replies.is_empty(), "line {n} got no answer: {req:?}");
        if replies
            .iter()
            .any(|r| r.content.contains("failed inside the bot"))
        {
            figures.panics += 1;
            eprintln!("line {n} panicked inside the table: {req:?}");
            continue;
        }
        if replies.iter().all(|r| !r.ok) {
            figures.refused += 1;
            assert_eq!(
                replies.len(),
                1,
                "line {n}: one refusal: {req:?} {replies:#?}"
            );
            assert!(
                !replies[0].content.contains('\n') && !replies[0].content.is_empty(),
                "line {n}: a refusal is one line: {req:?} {:?}",
                replies[0].content
            );
            assert_eq!(
                f.games_digest().await,
                before,
                "line {n} was refused but changed a game: {req:?} {replies:#?}"
            );
        } else {
            figures.accepted += 1;
            if req.command == "play" {
                figures.actions += 1;
            }
            f.learn(&req, &replies);
        }
    }
    eprintln!(
        "fuzz (seed {seed}): {} lines, {} accepted ({} actions), {} refused, {} games, {} panics",
        figures.lines, figures.accepted, figures.actions, figures.refused, f.max_id, figures.panics
    );
    assert_eq!(figures.panics, 0, "no line panics: {figures:?}");
    assert!(f.max_id >= 5, "the run played games: {figures:?}");
    assert!(
        figures.actions >= lines / 20,
        "the run moved games on: {figures:?}"
    );
}

/// The console's reading of a line, before any table: arbitrary text never
/// panics it and gives a line or one reason.
#[test]
fn console_lines_of_any_text_are_read_or_refused() {
    let lines = setting("TOKAR_FUZZ_LINES", 10_000);
    let mut rng = Rng::new(setting("TOKAR_FUZZ_SEED", 20_261_124));
    let pieces = [
        "@alice",
        "@",
        "#",
        "#table",
        "/new",
        "/",
        "~advance",
        "~",
        " ",
        "\"",
        "'",
        ":",
        "game:",
        "99999999999999999999w",
        "é",
        "🦀",
        "\u{202e}",
        "\t",
        "\u{0}",
        "x",
        "25h",
        "-1",
    ];
    for _ in 0..lines {
        let n = rng.below(8);
        let text: String = (0..n)
            .map(|_| pieces[rng.below(pieces.len() as u64) as usize])
            .collect::<Vec<_>>()
            .join(if rng.below(2) == 0 { " " } else { "" });
        if let Err(e) = parse_line(&text) {
            assert!(!e.contains('\n') && !e.is_empty(), "{text:?}: {e:?}");
        }
    }
}
