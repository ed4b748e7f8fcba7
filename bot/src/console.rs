//! The console adapter: the same commands as on Discord, typed one a line.
//!
//! ```text
//! # a comment
//! @alice /new game:arcana army:human opponent:@bob
//! @bob /accept army:undead
//! @alice #general /play action:"b1-c3"
//! ~advance 25h          (with --virtual-clock)
//! @alice /new game:arachne opponent:@Tokar level:easy
//! ```
//!
//! `@Tokar` names the bot itself: its moves are printed right after the
//! command that gave it the turn. A line `quit` or `exit`, or the end of the
//! input (Ctrl-D), leaves. Pictures saved with `--images` are numbered on from
//! the last one already in that folder, so a new run never overwrites one.
//!
//! Users and channels named here get ids kept in the store with the users, so
//! they stay the same across restarts (an older folder's `console-names.json`
//! is imported once). A line that is not UTF-8, or any other line the console
//! cannot read, is refused with one line and the console reads on. Every outgoing message
//! is printed: as text, or with `--json` as one object a line with exactly
//! `channel`, `ephemeral_to`, `content`, `mentions`, `images`, `buttons`, `ok`.

mod delivered;
mod json;
mod parallel;
mod stdout;
mod threads;

pub use stdout::Stdout;

use crate::clock::{Clock, SystemClock, VirtualClock};

/// The latest time the virtual clock may show: the end of the year 9999.
/// Later times overflow what deadlines and reminders add to them.
const LATEST: crate::clock::Millis = 253_402_300_799_999;
use crate::duration;
use crate::table::{ChannelRef, NameKind, Reply, Request, Table, TableConfig, UserRef};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokar_model::Command;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt, AsyncWrite, AsyncWriteExt};

pub struct ConsoleConfig {
    pub data: PathBuf,
    /// Where pictures are written; without it they are not saved.
    pub images: Option<PathBuf>,
    pub seed: Option<u64>,
    pub json: bool,
    pub virtual_clock: bool,
    /// The bot's search iterations per move instead of its time budget: with
    /// `seed`, a transcript against the bot is the same on every run.
    pub robot_iterations: Option<u32>,
    /// How many commands of different games may run at once (1: one at a
    /// time); see `console/parallel.rs`.
    pub parallel: usize,
}

/// One input line, read.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    Nothing,
    Advance(u64),
    Command {
        user: String,
        channel: Option<String>,
        command: String,
        options: Vec<(String, String)>,
    },
}

fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// Splits on spaces outside quotes; quotes are removed (`action:"b1 c3"`).
fn tokens(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut started = false;
    for c in text.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => cur.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                started = true;
            }
            None if c.is_whitespace() => {
                if started || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                started = false;
            }
            None => cur.push(c),
        }
    }
    if let Some(q) = quote {
        return Err(format!("A quote ({q}) is not closed."));
    }
    if started || !cur.is_empty() {
        out.push(cur);
    }
    Ok(out)
}

/// Reads one line of console input.
pub fn parse_line(line: &str) -> Result<Line, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(Line::Nothing);
    }
    if let Some(rest) = line.strip_prefix('~') {
        let mut words = rest.split_whitespace();
        return match (words.next(), words.next(), words.next()) {
            (Some("advance"), Some(d), None) => Ok(Line::Advance(duration::parse(d)?)),
            _ => Err("The only ~ command is: ~advance <duration> (such as ~advance 25h).".into()),
        };
    }
    let toks = tokens(line)?;
    let mut it = toks.into_iter().peekable();
    let user = match it.next() {
        Some(u) if u.starts_with('@') && is_name(&u[1..]) => u[1..].to_string(),
        _ => return Err("A line starts with the user: @alice /board".into()),
    };
    let channel = match it.peek() {
        Some(c) if c.starts_with('#') => {
            let c = it.next().unwrap_or_default();
            if !is_name(&c[1..]) {
                return Err(format!(
                    "'{}' is not a channel name.",
                    crate::quote::excerpt(&c)
                ));
            }
            Some(c[1..].to_string())
        }
        _ => None,
    };
    let command = match it.next() {
        Some(c) if c.starts_with('/') && c.len() > 1 => c[1..].to_ascii_lowercase(),
        _ => return Err("After the user (and channel) comes a command: @alice /board".into()),
    };
    // Words without a name stay separate; the table joins them into the
    // command's main option (`Args::new`).
    let options = it
        .map(|t| match t.split_once(':') {
            Some((k, v)) if is_name(k) => (k.to_string(), v.to_string()),
            _ => (String::new(), t),
        })
        .collect();
    Ok(Line::Command {
        user,
        channel,
        command,
        options,
    })
}

/// The console's ids start after these: users at 1001, channels at 500001.
const USER_BASE: u64 = 1_000;
const CHANNEL_BASE: u64 = 500_000;
/// The console is one server: every channel typed on it belongs to this one, so
/// per-server settings, ratings and standings work there as on Discord.
pub const CONSOLE_SERVER: u64 = 1;
/// The longest input line read: a command is far shorter (Discord's own
/// limit is 4,000 characters), and a longer one is refused, not stored whole.
const LONGEST_LINE: usize = 64 * 1024;
/// The names file of folders from before the names were kept in the store.
const OLD_NAMES: &str = "console-names.json";

/// Names to ids, kept in the store with the users: a name keeps its id for as
/// long as the store does, whatever happens to other files in the folder.
/// This is a copy of the store's, for printing.
#[derive(Default)]
struct Names {
    users: BTreeMap<String, u64>,
    channels: BTreeMap<String, u64>,
}

/// `console-names.json` as older consoles wrote it.
#[derive(Deserialize)]
struct OldNames {
    #[serde(default)]
    users: BTreeMap<String, u64>,
    #[serde(default)]
    channels: BTreeMap<String, u64>,
}

impl Names {
    /// The store's names. An older folder's `console-names.json` is imported
    /// once (then renamed `console-names.json.imported`); and a store that had
    /// no names yet also takes back the names its users were last seen with,
    /// so that a folder which lost the file before the names moved into the
    /// store gives no known name to someone else.
    async fn load(table: &Table, dir: &Path) -> Result<Names, String> {
        let mut names = Names {
            users: table
                .console_names(NameKind::User)
                .await?
                .into_iter()
                .collect(),
            channels: table
                .console_names(NameKind::Channel)
                .await?
                .into_iter()
                .collect(),
        };
        let first = names.users.is_empty() && names.channels.is_empty();
        let file = dir.join(OLD_NAMES);
        match std::fs::read(&file) {
            Ok(b) => {
                let old: OldNames = serde_json::from_slice(&b)
                    .map_err(|e| format!("{OLD_NAMES} is damaged: {e}"))?;
                for (name, id) in old.users {
                    names.adopt(table, NameKind::User, &name, id).await?;
                }
                for (name, id) in old.channels {
                    names.adopt(table, NameKind::Channel, &name, id).await?;
                }
                let done = dir.join(format!("{OLD_NAMES}.imported"));
                std::fs::rename(&file, &done)
                    .map_err(|e| format!("cannot rename {OLD_NAMES} after importing it: {e}"))?;
                tracing::info!("console names imported from {OLD_NAMES} into the store");
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(format!("cannot read {OLD_NAMES}: {e}")),
        }
        if first {
            for u in table.users().await? {
                if (USER_BASE + 1..CHANNEL_BASE).contains(&u.user.id) && is_name(&u.user.name) {
                    names
                        .adopt(table, NameKind::User, &u.user.name, u.user.id)
                        .await?;
                }
            }
        }
        Ok(names)
    }

    fn map(&mut self, kind: NameKind) -> &mut BTreeMap<String, u64> {
        match kind {
            NameKind::User => &mut self.users,
            NameKind::Channel => &mut self.channels,
        }
    }

    /// Takes a name and id from an older source, unless the name or the id
    /// is someone else's already.
    async fn adopt(
        &mut self,
        table: &Table,
        kind: NameKind,
        name: &str,
        id: u64,
    ) -> Result<(), String> {
        let map = self.map(kind);
        if !is_name(name) || map.contains_key(name) || map.values().any(|&v| v == id) {
            return Ok(());
        }
        let held = table.claim_console_name(kind, name, id).await?;
        map.insert(name.to_string(), held);
        Ok(())
    }

    /// The id of a user (or channel); a new name gets the next id, stored
    /// before it is used.
    async fn id(&mut self, table: &Table, kind: NameKind, name: &str) -> Result<u64, String> {
        let base = match kind {
            NameKind::User => USER_BASE,
            NameKind::Channel => CHANNEL_BASE,
        };
        let map = self.map(kind);
        if let Some(&id) = map.get(name) {
            return Ok(id);
        }
        let next = map.values().copied().max().unwrap_or(base).max(base) + 1;
        let id = table.claim_console_name(kind, name, next).await?;
        map.insert(name.to_string(), id);
        Ok(id)
    }

    fn user_name(&self, id: u64) -> Option<&str> {
        self.users
            .iter()
            .find(|(_, &v)| v == id)
            .map(|(k, _)| k.as_str())
    }
}

struct Console<W> {
    cfg: ConsoleConfig,
    table: Table,
    names: Names,
    clock: Option<Arc<VirtualClock>>,
    out: W,
    images_written: usize,
    /// Threads opened by this console run: thread id to the channel it is under.
    threads: BTreeMap<u64, u64>,
    /// Commands running beside each other (`--parallel`).
    flight: parallel::InFlight,
    /// Printed outbox entries still being removed from the store.
    delivered: delivered::Delivered,
}

/// Runs the console until the input ends.
pub async fn run<R, W>(cfg: ConsoleConfig, input: R, out: W) -> Result<(), String>
where
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin,
{
    crate::storage::private::create_dir(&cfg.data)
        .map_err(|e| format!("cannot create {}: {e}", cfg.data.display()))?;
    if let Some(dir) = &cfg.images {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let (clock, vclock): (Arc<dyn Clock>, _) = if cfg.virtual_clock {
        let v = Arc::new(VirtualClock::open(&cfg.data).map_err(|e| format!("virtual clock: {e}"))?);
        (v.clone(), Some(v))
    } else {
        (Arc::new(SystemClock), None)
    };
    let table = Table::open(TableConfig {
        data_dir: cfg.data.clone(),
        clock,
        seed: cfg.seed,
        robot: crate::table::robot::RobotConfig {
            iterations: cfg.robot_iterations,
            ..Default::default()
        },
        storage: crate::storage::StoreSettings::from_env()?,
    })
    .await
    .map_err(|e| e.to_string())?;
    let names = Names::load(&table, &cfg.data).await?;
    // `tokar backup` reaches the console as it reaches the bot on Discord.
    let keep = crate::backup::service::keep_from_env()?;
    let socket = tokio::spawn(crate::backup::service::serve(
        table.clone(),
        cfg.data.clone(),
        keep,
    ));
    let ended = run_console(cfg, table, names, vclock, out, input).await;
    socket.abort();
    // Awaited, so that its handle on the store is gone when this returns.
    let _ = socket.await;
    ended
}

/// The console's loop on an open table, until the input ends.
async fn run_console<R, W>(
    cfg: ConsoleConfig,
    table: Table,
    names: Names,
    vclock: Option<Arc<VirtualClock>>,
    out: W,
    input: R,
) -> Result<(), String>
where
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut console = Console {
        cfg,
        table,
        names,
        clock: vclock,
        out,
        images_written: 0,
        threads: BTreeMap::new(),
        flight: parallel::InFlight::default(),
        delivered: delivered::Delivered::default(),
    };
    // Pictures go on from the last one an earlier run left in the folder, never over it.
    if let Some(dir) = &console.cfg.images {
        console.images_written = last_picture_number(dir);
    }
    // What an earlier run stored but did not print (it stopped in between).
    console.deliver_waiting().await?;
    let startup = console.table.tick().await;
    console.print(&startup).await?;
    let mut input = input;
    // Bytes, not `lines()`: a line that is not UTF-8 is refused, not fatal.
    // Kept across the loop: `read_until` stopped by the timer resumes here.
    let mut buf: Vec<u8> = Vec::new();
    // Inside a line longer than LONGEST_LINE, already refused: the rest of it
    // is read and dropped.
    let mut skipping = false;
    let mut timer = tokio::time::interval(std::time::Duration::from_secs(60));
    timer.tick().await;
    loop {
        let room = (LONGEST_LINE + 1).saturating_sub(buf.len()) as u64;
        let mut limited = (&mut input).take(room);
        tokio::select! {
            read = limited.read_until(b'\n', &mut buf) => {
                let n = read.map_err(|e| format!("cannot read input: {e}"))?;
                let ended = buf.last() == Some(&b'\n');
                if !ended && buf.len() > LONGEST_LINE {
                    buf.clear();
                    if !skipping {
                        skipping = true;
                        console.finish_all().await?;
                        let reply = console.error(
                            None,
                            &format!("A line longer than {LONGEST_LINE} bytes is not read; nothing was done."),
                        );
                        console.print(&[reply]).await?;
                    }
                    continue;
                }
                if n == 0 || ended {
                    let bytes = std::mem::take(&mut buf);
                    if !std::mem::take(&mut skipping) && !bytes.is_empty() {
                        if is_quit(&bytes) {
                            break;
                        }
                        console.bytes(&bytes).await?;
                    }
                }
                if n == 0 {
                    break;
                }
            }
            _ = timer.tick(), if console.clock.is_none() => {
                let due = console.table.tick().await;
                console.print(&due).await?;
            }
        }
    }
    console.finish_all().await?;
    console.delivered.settle().await;
    Ok(())
}

/// A line `quit` or `exit` (no user before it) leaves the console, as Ctrl-D does.
fn is_quit(line: &[u8]) -> bool {
    std::str::from_utf8(line).is_ok_and(|l| {
        let l = l.trim();
        l.eq_ignore_ascii_case("quit") || l.eq_ignore_ascii_case("exit")
    })
}

/// The highest number among the pictures (`NNNNN-name.png`) already in `dir`; 0 when none.
fn last_picture_number(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name();
            let (n, _) = name.to_str()?.split_once('-')?;
            n.parse::<usize>().ok()
        })
        .max()
        .unwrap_or(0)
}

impl<W: AsyncWrite + Unpin> Console<W> {
    /// One line of input as read, its end of line included.
    async fn bytes(&mut self, bytes: &[u8]) -> Result<(), String> {
        let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        match std::str::from_utf8(bytes) {
            Ok(line) => self.line(line).await,
            Err(e) => {
                self.finish_all().await?;
                let reply = self.error(
                    None,
                    &format!(
                        "This line is not valid UTF-8 (byte {} of it); nothing was done.",
                        e.valid_up_to() + 1
                    ),
                );
                self.print(&[reply]).await
            }
        }
    }

    async fn line(&mut self, line: &str) -> Result<(), String> {
        let parsed = parse_line(line);
        // With --parallel, a command that names a game by number runs beside
        // the earlier ones; anything else waits until they are done.
        let game = parsed
            .as_ref()
            .ok()
            .and_then(parallel::game_of)
            .filter(|_| self.cfg.parallel > 1);
        if game.is_none() {
            self.finish_all().await?;
        }
        let replies = match parsed {
            Ok(Line::Nothing) => return Ok(()),
            Ok(Line::Advance(by)) => match &self.clock {
                None => vec![self.error(None, "~advance needs --virtual-clock.")],
                Some(c) => match c.now().checked_add(by).filter(|&t| t <= LATEST) {
                    None => vec![self.error(
                        None,
                        "~advance cannot take the clock past the year 9999; the clock did not move.",
                    )],
                    Some(_) => {
                        c.advance(by).map_err(|e| format!("virtual clock: {e}"))?;
                        self.table.tick().await
                    }
                },
            },
            Ok(Line::Command {
                user,
                channel,
                command,
                options,
            }) => {
                match self
                    .request(
                        &user,
                        channel.as_deref().unwrap_or("table"),
                        command,
                        options,
                    )
                    .await
                {
                    Ok(Ok(req)) => match game {
                        Some(game) => return self.start(game, req).await,
                        None => self.table.handle(req).await,
                    },
                    Ok(Err(refused)) => {
                        self.finish_all().await?;
                        vec![refused]
                    }
                    Err(e) => {
                        self.finish_all().await?;
                        vec![self.error(Some(&user), &e)]
                    }
                }
            }
            Err(e) => vec![self.error(None, &e)],
        };
        self.print(&replies).await?;
        // A game that started asked for its thread: open it and show what goes there.
        self.deliver_waiting().await
    }

    /// Builds the request, turning `@bob` in options into mentions and reading the
    /// command's text into a [`Command`]; a command that does not read is the refusal
    /// to print (`Ok(Err(reply))`).
    async fn request(
        &mut self,
        user: &str,
        channel: &str,
        command: String,
        options: Vec<(String, String)>,
    ) -> Result<Result<Request, Reply>, String> {
        let uid = self.names.id(&self.table, NameKind::User, user).await?;
        let cid = self
            .names
            .id(&self.table, NameKind::Channel, channel)
            .await?;
        let mut opts = Vec::new();
        for (k, v) in options {
            let v = match v.strip_prefix('@') {
                // The bot itself: its own id, not a console user's.
                Some(name) if name.eq_ignore_ascii_case(&self.table.robot().name) => {
                    format!("<@{}>", self.table.robot().id)
                }
                Some(name) if is_name(name) => {
                    let id = self.names.id(&self.table, NameKind::User, name).await?;
                    // So that the invitation names them before they ever type.
                    let _ = self
                        .table
                        .remember_user(&UserRef {
                            id,
                            name: name.to_string(),
                        })
                        .await;
                    format!("<@{id}>")
                }
                _ => v,
            };
            opts.push((k, v));
        }
        let user = UserRef {
            id: uid,
            name: user.to_string(),
        };
        let channel = ChannelRef {
            id: cid,
            name: channel.to_string(),
            guild: Some(CONSOLE_SERVER),
            parent: self.threads.get(&cid).copied(),
            threads: crate::table::ThreadSupport::Unknown,
        };
        let command = match Command::parse(&command, &opts) {
            Ok(command) => command,
            Err(refusal) => {
                // The table records the name of whoever types, even a refused command.
                if let Err(e) = self.table.remember_user(&user).await {
                    tracing::warn!(error = %e, "cannot record the user's name");
                }
                return Ok(Err(Reply::refusal(&channel, &user, refusal.into_text())));
            }
        };
        Ok(Ok(Request {
            user,
            channel,
            command,
            interaction_token: None,
            // The console is its operator's own server (ruling T21).
            manage_server: true,
        }))
    }

    fn error(&self, user: Option<&str>, text: &str) -> Reply {
        Reply {
            channel: ChannelRef::new(0, "table"),
            ephemeral_to: user.map(|u| UserRef {
                id: 0,
                name: u.to_string(),
            }),
            content: text.to_string(),
            mentions: Vec::new(),
            images: Vec::new(),
            buttons: Vec::new(),
            ok: false,
            outbox: None,
        }
    }

    async fn print(&mut self, replies: &[Reply]) -> Result<(), String> {
        let mut text = String::new();
        for r in replies {
            let mut paths = Vec::new();
            if let Some(dir) = &self.cfg.images {
                for img in &r.images {
                    self.images_written += 1;
                    let path = dir.join(format!("{:05}-{}", self.images_written, img.name));
                    std::fs::write(&path, &img.png)
                        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                    paths.push(path.display().to_string());
                }
            }
            let name_of = |u: &UserRef| -> String {
                self.names
                    .user_name(u.id)
                    .map(str::to_string)
                    .unwrap_or_else(|| u.name.clone())
            };
            let mentions: Vec<String> = r.mentions.iter().map(name_of).collect();
            let content = self.shown(&r.content);
            let private = r.ephemeral_to.as_ref().map(name_of);
            if self.cfg.json {
                text.push_str(&json::line(
                    r,
                    private.as_deref(),
                    &content,
                    &mentions,
                    paths,
                )?);
                text.push('\n');
            } else {
                let mut head = format!("[#{}", r.channel.name);
                if let Some(p) = &private {
                    head.push_str(&format!(", only {p}"));
                }
                head.push(']');
                if !r.ok {
                    head.push_str(" refused:");
                }
                text.push_str(&format!("{head} {content}\n"));
                if !mentions.is_empty() {
                    text.push_str(&format!("  pings: {}\n", mentions.join(", ")));
                }
                // Every button with the whole line that clicks it, to copy and type as it
                // is: for each person the message is for (its reader when private, else
                // each person it pings), their name, the channel, the click (ruling T40).
                if !r.buttons.is_empty() {
                    let readers: Vec<Option<&str>> = match &private {
                        Some(p) => vec![Some(p.as_str())],
                        None if !mentions.is_empty() => {
                            mentions.iter().map(|m| Some(m.as_str())).collect()
                        }
                        None => vec![None],
                    };
                    for reader in readers {
                        let who = reader.map_or("@<name>".to_string(), |n| format!("@{n}"));
                        let each: Vec<String> = r
                            .buttons
                            .iter()
                            .map(|b| {
                                format!(
                                    "[{}] {who} #{} /button custom_id:{}",
                                    b.label, r.channel.name, b.custom_id
                                )
                            })
                            .collect();
                        text.push_str(&format!("  buttons: {}\n", each.join(" | ")));
                    }
                }
                for p in &paths {
                    text.push_str(&format!("  image: {p}\n"));
                }
            }
        }
        self.out
            .write_all(text.as_bytes())
            .await
            .map_err(|e| e.to_string())?;
        self.out.flush().await.map_err(|e| e.to_string())?;
        // Printed is delivered: the outbox entries behind these replies are
        // done.
        let ids = replies.iter().filter_map(|r| r.outbox).collect();
        self.delivered.mark(&self.table, ids);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(user: &str, channel: Option<&str>, command: &str, options: &[(&str, &str)]) -> Line {
        Line::Command {
            user: user.into(),
            channel: channel.map(Into::into),
            command: command.into(),
            options: options
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    #[test]
    fn lines_read_as_typed() {
        assert_eq!(parse_line("# hello"), Ok(Line::Nothing));
        assert_eq!(parse_line("   "), Ok(Line::Nothing));
        assert_eq!(
            parse_line("@alice /new game:arcana army:human opponent:@bob"),
            Ok(cmd(
                "alice",
                None,
                "new",
                &[("game", "arcana"), ("army", "human"), ("opponent", "@bob")]
            ))
        );
        assert_eq!(
            parse_line("@alice #general /play action:\"b1-c3\""),
            Ok(cmd(
                "alice",
                Some("general"),
                "play",
                &[("action", "b1-c3")]
            ))
        );
        assert_eq!(
            parse_line("@alice /play action:h5-h4-i4-j4 xk4 game:2"),
            Ok(cmd(
                "alice",
                None,
                "play",
                &[("action", "h5-h4-i4-j4"), ("", "xk4"), ("game", "2")]
            ))
        );
        assert_eq!(
            parse_line("@bob /vacation on"),
            Ok(cmd("bob", None, "vacation", &[("", "on")]))
        );
        assert_eq!(
            parse_line("@a /new record:tokar1|arcana||seed=?|0:b1-c3"),
            Ok(cmd(
                "a",
                None,
                "new",
                &[("record", "tokar1|arcana||seed=?|0:b1-c3")]
            ))
        );
        assert_eq!(
            parse_line("~advance 25h"),
            Ok(Line::Advance(25 * duration::HOUR))
        );
        assert!(parse_line("~advance").is_err());
        assert!(parse_line("alice /board").is_err());
        assert!(parse_line("@alice board").is_err());
        assert!(parse_line("@alice /play action:\"b1").is_err());
        assert!(parse_line("@al ice /board").is_err());
    }
}
