//! Plays one whole game between people through the real `tokar console`
//! binary and keeps everything it printed, so that the docs can show a game
//! exactly as the console shows it (docs/transcripts/).
//!
//! Every player asks `/hint` on their turn (private; the same search the bot
//! uses) and plays what it suggests. With the table's `--seed` and a fixed
//! `--robot-iterations` that search is deterministic, and the console runs on
//! its virtual clock, so the same seed always gives the same transcript.
//!
//! The driver sends each line followed by a marker line (`~transcript-marker`,
//! which the console refuses with one known line) and reads up to that
//! refusal: that is how it knows where the answer to a line ends. The marker
//! and its refusal are never kept in the transcript.
//!
//! Shared by the `transcript` example (which writes the pages) and
//! `bot/tests/transcript_driver.rs` (which plays a few plies of each game).

use std::io::{BufRead, BufReader, Lines, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// Sent after every line; the console refuses it with `MARKER_REPLY`.
const MARKER: &str = "~transcript-marker";
const MARKER_REPLY: &str = "[#table] refused: The only ~ command is";

/// Shown whole below this many lines; longer sessions are shown in parts.
pub const WHOLE_UP_TO: usize = 600;

/// The games the driver knows how to seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    MagicChess,
    Gladiator,
    Arachne,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::MagicChess, Kind::Gladiator, Kind::Arachne];

    pub fn parse(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.slug() == s)
    }

    /// As `/new game:` spells it, and the name of the page.
    pub fn slug(self) -> &'static str {
        match self {
            Kind::MagicChess => "magic-chess",
            Kind::Gladiator => "gladiator",
            Kind::Arachne => "arachne",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Kind::MagicChess => "Magic Chess",
            Kind::Gladiator => "Gladiator Chess",
            Kind::Arachne => "Arachne",
        }
    }

    /// The lines that create the game and fill its seats, as typed.
    pub fn setup(self) -> Vec<&'static str> {
        match self {
            // Two invitations and one open seat, so that both /accept and
            // /join appear.
            Kind::MagicChess => vec![
                "@alice /new game:magic-chess opponent:@bob opponent2:@carol players:4 rated:no",
                "@bob /accept",
                "@carol /accept",
                "@dave /join game:1",
            ],
            // Two players: each holds the four commanders of one team.
            Kind::Gladiator => vec![
                "@alice /new game:gladiator opponent:@bob rated:no",
                "@bob /accept",
            ],
            Kind::Arachne => vec![
                "@alice /new game:arachne variant:convenient opponent:@bob rated:no",
                "@bob /accept",
            ],
        }
    }

    /// Words in the console's public lines that mark an event worth showing:
    /// what the header lists and what the shown middle stretch is chosen by.
    pub fn notable(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Kind::MagicChess => &[
                (" plays freeze ", "a Freeze cast"),
                (" plays slow ", "a Slow cast"),
                (" plays anti-jump ", "an Anti-Jump cast"),
                ("eliminated", "a player eliminated"),
                ("captures", "a capture"),
                ("=", "a promotion"),
                ("last player standing", "the end"),
            ],
            Kind::Gladiator => &[
                ("dies", "a piece killed in battle"),
                ("attacks", "a battle, with its dice"),
                ("freez", "a piece frozen by a Queen"),
                ("heal", "a Queen's healing"),
                ("Queen held", "a Queen held captive"),
                ("escape check", "a King escaping check"),
                ("checkmated", "checkmate"),
            ],
            Kind::Arachne => &[
                ("spiders' eyes", "spiders' eyes rolled"),
                (" plays turncoat ", "a turncoat move"),
                ("punishes", "a punishment"),
                ("promot", "a promotion"),
                (" attacks ", "a capture roll"),
            ],
        }
    }
}

/// How to run one game.
pub struct Config {
    /// The `tokar` binary.
    pub tokar: PathBuf,
    pub kind: Kind,
    /// `tokar console --seed`: the game's dice and cards, and the hints' search.
    pub seed: u64,
    /// `tokar console --robot-iterations`: the hints' search budget.
    pub iterations: u32,
    /// Stop after this many `/play`s even if the game goes on.
    pub max_plies: usize,
    /// Emptied, then the console's working folder (`data/`, `images/`).
    pub workdir: PathBuf,
}

impl Config {
    /// The console's arguments, as the page prints them.
    pub fn console_args(&self) -> Vec<String> {
        [
            "console",
            "--seed",
            &self.seed.to_string(),
            "--robot-iterations",
            &self.iterations.to_string(),
            "--virtual-clock",
            "--data",
            "data",
            "--images",
            "images",
        ]
        .map(String::from)
        .to_vec()
    }
}

/// One reply as the console printed it in text mode.
#[derive(Debug, Default)]
pub struct Reply {
    /// `only alice`: the user a private reply is for.
    pub to: Option<String>,
    pub refused: bool,
    pub content: String,
    pub pings: Vec<String>,
    /// Whether buttons were offered (the table offers them until the game is over).
    pub buttons: bool,
    pub images: Vec<String>,
}

/// Reads the console's text output back into replies: a reply starts with
/// `[#channel]` or `[#channel, only user]`, and may go on with lines of its
/// content and the indented `pings:`, `buttons:` and `image:` lines.
pub fn parse_replies(lines: &[String]) -> Vec<Reply> {
    let mut out: Vec<Reply> = Vec::new();
    for line in lines {
        if let Some(rest) = line.strip_prefix("[#") {
            let (head, body) = rest.split_once(']').unwrap_or((rest, ""));
            let to = head.split_once(", only ").map(|(_, u)| u.to_string());
            let body = body.strip_prefix(' ').unwrap_or(body);
            let (refused, content) = match body.strip_prefix("refused: ") {
                Some(c) => (true, c),
                None => (false, body),
            };
            out.push(Reply {
                to,
                refused,
                content: content.to_string(),
                ..Reply::default()
            });
            continue;
        }
        let Some(r) = out.last_mut() else { continue };
        if let Some(p) = line.strip_prefix("  pings: ") {
            r.pings = p.split(", ").map(String::from).collect();
        } else if line.starts_with("  buttons: ") {
            r.buttons = true;
        } else if let Some(i) = line.strip_prefix("  image: ") {
            r.images.push(i.to_string());
        } else {
            r.content.push('\n');
            r.content.push_str(line);
        }
    }
    out
}

/// The users named as acting in a status line such as
/// "Game #1 (Magic Chess), move 3: Yellow (carol) to act." (several seats
/// are listed with commas; each holder once, in order).
pub fn to_act(content: &str) -> Vec<String> {
    let Some(line) = content.lines().rev().find(|l| l.contains(" to act")) else {
        return Vec::new();
    };
    let seats = line.split(" to act").next().unwrap_or("");
    let seats = seats.rsplit_once(": ").map(|(_, s)| s).unwrap_or(seats);
    let mut users: Vec<String> = Vec::new();
    for part in seats.split('(').skip(1) {
        if let Some((name, _)) = part.split_once(')') {
            if !users.iter().any(|u| u == name) {
                users.push(name.to_string());
            }
        }
    }
    users
}

/// The action a `/hint` reply suggests: "…: /play game:N action:<notation>\nWhy: …".
pub fn hinted_action(content: &str) -> Option<String> {
    let (_, rest) = content.split("/play ").nth(1)?.split_once("action:")?;
    let action = rest.lines().next()?.trim();
    (!action.is_empty()).then(|| action.to_string())
}

/// One typed line and what the console printed for it.
pub struct Exchange {
    /// `/play`s made before this line.
    pub plays_before: usize,
    pub typed: String,
    pub printed: Vec<String>,
}

impl Exchange {
    pub fn lines(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.typed.as_str()).chain(self.printed.iter().map(String::as_str))
    }

    fn len(&self) -> usize {
        1 + self.printed.len()
    }
}

/// A whole session.
pub struct Transcript {
    pub kind: Kind,
    pub seed: u64,
    pub iterations: u32,
    pub console_args: Vec<String>,
    pub exchanges: Vec<Exchange>,
    pub plays: usize,
    /// The last status line: who won, or who is to act if the game was cut short.
    pub last_status: String,
    pub over: bool,
    /// The picture of the last position, in the working folder.
    pub final_image: Option<PathBuf>,
}

impl Transcript {
    pub fn line_count(&self) -> usize {
        self.exchanges.iter().map(Exchange::len).sum()
    }

    /// Every line, typed and printed, in order.
    pub fn text(&self) -> String {
        let mut s = String::new();
        for e in &self.exchanges {
            for l in e.lines() {
                s.push_str(l);
                s.push('\n');
            }
        }
        s
    }

    /// The public lines that name a notable event, by the kind's words,
    /// with the kind of event: first occurrence of each kind, in game order.
    pub fn highlights(&self) -> Vec<(String, String)> {
        let mut found: Vec<(String, String)> = Vec::new();
        for (word, what) in self.kind.notable() {
            if let Some(line) = self.exchanges.iter().find_map(|e| {
                public_lines(e)
                    .into_iter()
                    .find(|l| l.contains(word) && !l.contains(" to act"))
            }) {
                found.push((what.to_string(), line));
            }
        }
        found
    }
}

/// The public lines of an exchange's replies (not the private ones).
fn public_lines(e: &Exchange) -> Vec<String> {
    parse_replies(&e.printed)
        .into_iter()
        .filter(|r| r.to.is_none() && !r.refused)
        .flat_map(|r| r.content.lines().map(String::from).collect::<Vec<_>>())
        .collect()
}

/// The console, started on a fresh working folder.
struct Console {
    child: Child,
    stdin: Option<ChildStdin>,
    out: Lines<BufReader<ChildStdout>>,
}

impl Console {
    fn start(cfg: &Config) -> Result<Console, String> {
        let _ = std::fs::remove_dir_all(&cfg.workdir);
        std::fs::create_dir_all(&cfg.workdir)
            .map_err(|e| format!("cannot create {}: {e}", cfg.workdir.display()))?;
        let mut child = Command::new(&cfg.tokar)
            .args(cfg.console_args())
            .current_dir(&cfg.workdir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", cfg.tokar.display()))?;
        let stdin = child.stdin.take();
        let out = child.stdout.take().ok_or("the console has no output")?;
        Ok(Console {
            child,
            stdin,
            out: BufReader::new(out).lines(),
        })
    }

    /// Sends one line and returns what the console printed for it.
    fn send(&mut self, line: &str) -> Result<Vec<String>, String> {
        let stdin = self.stdin.as_mut().ok_or("the console's input is closed")?;
        writeln!(stdin, "{line}\n{MARKER}")
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("cannot write to the console: {e}"))?;
        let mut printed = Vec::new();
        loop {
            let l = self
                .out
                .next()
                .ok_or_else(|| format!("the console stopped while answering: {line}"))?
                .map_err(|e| format!("cannot read the console: {e}"))?;
            if l.starts_with(MARKER_REPLY) {
                return Ok(printed);
            }
            printed.push(l);
        }
    }

    /// Closes the input, so the console ends, and waits for it.
    fn finish(mut self) -> Result<(), String> {
        drop(self.stdin.take());
        let status = self.child.wait().map_err(|e| e.to_string())?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("the console ended with {status}"))
        }
    }
}

impl Drop for Console {
    fn drop(&mut self) {
        if self.stdin.is_some() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

struct Session {
    console: Console,
    t: Transcript,
}

impl Session {
    /// Types a line, keeps it with its answer, and returns the replies.
    fn say(&mut self, line: &str) -> Result<Vec<Reply>, String> {
        let printed = self.console.send(line)?;
        let replies = parse_replies(&printed);
        self.t.exchanges.push(Exchange {
            plays_before: self.t.plays,
            typed: line.to_string(),
            printed,
        });
        Ok(replies)
    }

    /// As `say`, for a line that must be accepted.
    fn say_ok(&mut self, line: &str) -> Result<Vec<Reply>, String> {
        let replies = self.say(line)?;
        match replies.iter().find(|r| r.refused) {
            Some(r) => Err(format!("'{line}' was refused: {}", r.content)),
            None if replies.is_empty() => Err(format!("'{line}' got no answer")),
            None => Ok(replies),
        }
    }
}

/// A private reply for `user` (and nobody else), or an error naming `what`.
fn private_for<'a>(replies: &'a [Reply], user: &str, what: &str) -> Result<&'a Reply, String> {
    match replies.iter().find(|r| r.to.is_some()) {
        Some(r) if r.to.as_deref() == Some(user) && replies.len() == 1 => Ok(r),
        _ => Err(format!(
            "{what} for {user} was not one private reply to {user}: {replies:?}"
        )),
    }
}

/// Plays the game to its end (or `max_plies`): each player to act asks
/// `/hint` and plays it; in Magic Chess each player first looks at their
/// hand with `/hand` on their first turn.
pub fn play(cfg: &Config) -> Result<Transcript, String> {
    let console = Console::start(cfg)?;
    let mut s = Session {
        console,
        t: Transcript {
            kind: cfg.kind,
            seed: cfg.seed,
            iterations: cfg.iterations,
            console_args: cfg.console_args(),
            exchanges: Vec::new(),
            plays: 0,
            last_status: String::new(),
            over: false,
            final_image: None,
        },
    };
    // The pages show a game in its channel: threads are off on this console's server
    // (a line the pages leave out; the console's threads have their own tests).
    s.console.send("@alice /server threads:off")?;
    let mut status = String::new();
    for line in cfg.kind.setup() {
        for r in s.say_ok(line)? {
            if r.to.is_none() && r.content.contains(" to act") {
                status = r.content.clone();
            }
            if let Some(i) = r.images.last() {
                s.t.final_image = Some(cfg.workdir.join(i));
            }
        }
    }
    if status.is_empty() {
        return Err("the game did not begin after its setup lines".into());
    }
    let mut looked_at_hand: Vec<String> = Vec::new();
    while s.t.plays < cfg.max_plies {
        let user = to_act(&status)
            .into_iter()
            .next()
            .ok_or_else(|| format!("nobody is to act in: {status}"))?;
        if cfg.kind == Kind::MagicChess && !looked_at_hand.contains(&user) {
            let r = s.say_ok(&format!("@{user} /hand"))?;
            private_for(&r, &user, "/hand")?;
            looked_at_hand.push(user.clone());
        }
        let r = s.say_ok(&format!("@{user} /hint"))?;
        let hint = private_for(&r, &user, "/hint")?;
        let action = hinted_action(&hint.content)
            .ok_or_else(|| format!("no action in the hint: {}", hint.content))?;
        let typed = if action.contains(' ') {
            format!("@{user} /play action:\"{action}\"")
        } else {
            format!("@{user} /play action:{action}")
        };
        let replies = s.say_ok(&typed)?;
        s.t.plays += 1;
        let turn = replies
            .iter()
            .find(|r| r.to.is_none())
            .ok_or_else(|| format!("no public announcement for '{typed}'"))?;
        if !turn.content.starts_with(&format!("{user} (")) {
            return Err(format!("'{typed}' was announced as: {}", turn.content));
        }
        for r in &replies {
            // Cards drawn are only ever told to the one who drew them.
            if r.content.contains("You drew") && r.to.as_deref() != Some(user.as_str()) {
                return Err(format!("a drawn card was shown to others: {r:?}"));
            }
        }
        if let Some(i) = turn.images.last() {
            s.t.final_image = Some(cfg.workdir.join(i));
        }
        status = turn.content.clone();
        s.t.last_status = turn.content.lines().last().unwrap_or_default().to_string();
        if !turn.buttons {
            s.t.over = true;
            break;
        }
    }
    let Session { console, t } = s;
    console.finish()?;
    Ok(t)
}

/// What to show of a long session: whole exchanges, as (first, end) index
/// ranges, in order. A session up to `WHOLE_UP_TO` lines is shown whole;
/// a longer one as its opening, the stretch richest in notable events, and
/// its end.
pub fn shown_parts(t: &Transcript) -> Vec<(usize, usize)> {
    let n = t.exchanges.len();
    if t.line_count() <= WHOLE_UP_TO {
        return vec![(0, n)];
    }
    let take = |range: &mut dyn Iterator<Item = usize>, budget: usize| -> usize {
        let mut used = 0;
        let mut count = 0;
        for i in range {
            used += t.exchanges[i].len();
            if used > budget && count > 0 {
                break;
            }
            count += 1;
        }
        count
    };
    let head = take(&mut (0..n), 150);
    let tail = take(&mut (0..n).rev(), 130);
    let (mid_from, mid_to) = (head, n - tail);
    let score: Vec<usize> = t
        .exchanges
        .iter()
        .map(|e| {
            let lines = public_lines(e);
            t.kind
                .notable()
                .iter()
                .filter(|(w, _)| {
                    lines
                        .iter()
                        .any(|l| l.contains(w) && !l.contains(" to act"))
                })
                .count()
        })
        .collect();
    let mut best = (0, mid_from, mid_from);
    for start in mid_from..mid_to {
        let mut used = 0;
        let mut sum = 0;
        let mut end = start;
        while end < mid_to && used + t.exchanges[end].len() <= 230 {
            used += t.exchanges[end].len();
            sum += score[end];
            end += 1;
        }
        if sum > best.0 {
            best = (sum, start, end);
        }
    }
    let mut parts = vec![(0, head)];
    if best.2 > best.1 {
        // Start the stretch at a turn: on the line that asks the hint or the hand.
        let mut start = best.1;
        while start > mid_from && !t.exchanges[start - 1].typed.contains("/play ") {
            start -= 1;
        }
        parts.push((start.max(head), best.2));
    }
    parts.push((n - tail, n));
    parts
}

/// The docs page: what it shows, how to make it again, the session.
pub fn page(t: &Transcript, log_name: &str, image_name: Option<&str>) -> String {
    let mut p = String::new();
    let title = t.kind.title();
    p.push_str(&format!("# {title}: a console transcript\n\n"));
    p.push_str(&match t.kind {
        Kind::MagicChess => {
            "Four people (alice, bob, carol, dave) play a whole game of Magic Chess on the \
console: alice invites bob and carol and leaves one seat open, they `/accept`, dave `/join`s. \
Each player looks at their hand with `/hand` on their first turn: the console prints the answer \
as `[#table, only <user>]`, a private reply that only that player sees (on Discord, an ephemeral \
message). Cards drawn are told the same way (\"You drew Slow.\"); the public lines only ever say \
that a card was drawn, and a card is public once it is played under a piece.\n"
                .to_string()
        }
        Kind::Gladiator => {
            "Two people play a whole game of Gladiator Chess on the console: alice holds the \
four White commanders (King, Queen, Black Knight, King's Knight), bob the four Black ones. A \
team's turn is four commander moves, so each player acts four times in a row. Every battle's \
dice and the hit points left are in the public announcement (`· Warrior e4 attacks …: 2d6+1d6 = \
11 vs 1d6 = 3 …`).\n"
                .to_string()
        }
        Kind::Arachne => {
            "Two people play a whole game of Arachne (variant `convenient`: captures are \
rolled on six-sided dice) on the console. The message that begins the game names the first \
turn's dice, each announcement ends with the dice thrown for the next turn (`· Black rolls 2+5.`; \
a double one is spiders' eyes, which allows a turncoat move), and each capture's roll is in the \
line that reports it.\n"
                .to_string()
        }
    });
    p.push_str(
        "\nEvery player asks `/hint` on their turn (private: the action the bot's own search picks \
for their seat, and why) and plays it with `/play`. The typed lines are the lines that start \
with `@`; everything else is what the console printed for them, unedited.\n",
    );
    p.push_str(&format!(
        "\n## Make it again\n\n```sh\ncargo build --release -p tokar-bot\n\
cargo run --release -p tokar-bot --example transcript -- --game {} --seed {} --iterations {}\n```\n\n\
The example (`bot/examples/transcript/`) starts `target/release/tokar {}` in a fresh \
folder, types the lines, and writes this page, the full session (`{log_name}`) and the last \
picture. Seed {} drives the game's {} and the hints' search; with the same seed and \
iterations the session is the same, line for line. Feeding the `@` lines of `{log_name}` to \
that console command by hand prints the same session.\n",
        t.kind.slug(),
        t.seed,
        t.iterations,
        t.console_args.join(" "),
        t.seed,
        match t.kind {
            Kind::MagicChess => "deck",
            _ => "dice",
        },
    ));
    p.push_str(&format!(
        "\n## What happens\n\n{} `/play`s; {}\n",
        t.plays,
        if t.over {
            format!("the game ends: *{}*", t.last_status)
        } else {
            format!("the session stops there, unfinished: *{}*", t.last_status)
        }
    ));
    let hl = t.highlights();
    if !hl.is_empty() {
        p.push_str("\nFirst occurrences of what this game shows:\n\n");
        for (what, line) in hl {
            p.push_str(&format!("* {what}: `{}`\n", line.trim_start_matches("· ")));
        }
    }
    if let Some(img) = image_name {
        p.push_str(&format!(
            "\nThe last position, as the console saved it (`--images`):\n\n![The last position]({img})\n"
        ));
    }
    p.push_str("\n## The session\n\n");
    let parts = shown_parts(t);
    if parts.len() > 1 {
        p.push_str(&format!(
            "The session is {} lines long; shown here are its opening, the stretch richest in \
notable events, and its end. Each cut is marked; `{log_name}` holds every line.\n\n",
            t.line_count()
        ));
    }
    p.push_str("````text\n");
    let mut shown_to = 0;
    let starts: Vec<usize> = t
        .exchanges
        .iter()
        .scan(0, |acc, e| {
            let s = *acc;
            *acc += e.len();
            Some(s)
        })
        .collect();
    for (from, to) in parts {
        if from > shown_to {
            let skipped: usize = t.exchanges[shown_to..from].iter().map(Exchange::len).sum();
            p.push_str(&format!(
                "\n[… {skipped} lines left out here: lines {} to {} of {log_name}, plays {} to {} …]\n\n",
                starts[shown_to] + 1,
                starts[from],
                t.exchanges[shown_to].plays_before + 1,
                t.exchanges[from].plays_before,
            ));
        }
        for e in &t.exchanges[from..to] {
            for l in e.lines() {
                p.push_str(l);
                p.push('\n');
            }
        }
        shown_to = to;
    }
    p.push_str("````\n");
    p
}

/// Where the page, the full log and the picture go, from the page's path.
pub fn outputs(page: &Path) -> (PathBuf, PathBuf) {
    (page.with_extension("log"), page.with_extension("png"))
}
