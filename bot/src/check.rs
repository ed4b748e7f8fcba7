//! `tokar check`: reads everything in a stopped bot's store and says what
//! cannot be read or does not agree, changing nothing.
//!
//! Every game is verified as a restore verifies a backup's
//! ([`crate::verify::game`]): its record and log decode and agree,
//! it replays, its stored position is the replay's, its log's actions were
//! made by the seats' owners. Every member has the game in the index of
//! their games, the channel's index and the schedule hold it. Log entries
//! without a game, users, outbox entries, console names and counters
//! ([`crate::verify::main_record`]), and every key of every named
//! tree (leagues, server settings: [`crate::verify::tree_key`]) are
//! decoded; the data folder's marker is compared with the store. A game
//! listed as unreadable can be brought back alone from a backup with
//! `tokar restore FILE --game N`.
//!
//! # A damaged store never hangs or ends the check
//!
//! sled was not written for damaged files: on some it returns the same
//! error from an iterator again and again, on some it panics, on some it may
//! loop. So every sled iterator here stops at its first error (which is
//! reported) and where its keys stop growing (a loop), a game's log is read
//! to at most [`crate::verify::MAX_LOG`] entries, and every value is
//! bounded before it is decoded. sled's panics are caught
//! (`std::panic::catch_unwind` around each call into sled) and reported as
//! "the database files are damaged: ..." with what was being read: the check
//! exists for exactly the stores on which sled fails, and a panic would take
//! the report of everything found so far with it (sled panics, for one,
//! when a page it lists is in a blob file that is gone or cut). The check
//! then goes on with the next game or the next kind of key, so that what
//! sled still serves is checked too; the unwound call may have left one of
//! sled's locks held, and a later call waiting on it is what the watchdog
//! is for. The reading runs on a thread of its own under a watchdog: when it
//! makes no progress for [`STALL`] (`TOKAR_CHECK_STALL_SECONDS`), the check
//! reports what it found so far, and that the database stopped answering and
//! where, and returns; the stuck thread ends with the process.

use crate::storage::kv::Kv;
use crate::storage::raw::{self, Key, Span};
use crate::storage::{Store, StoreError, StoreSettings};
use crate::verify::{self, key_text, panic_text};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long the check waits for the database to make any progress (one key
/// read, one game verified) before it reports the files damaged and stops:
/// 20 s, where a sound store's slowest step (replaying the longest allowed
/// log) takes well under a second.
pub const STALL: Duration = Duration::from_secs(20);

/// What a check found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub games: u64,
    pub users: u64,
    pub outbox: u64,
    /// Keys of the named trees (leagues, server settings).
    pub tree_keys: u64,
    /// One line per thing that cannot be read or does not agree.
    pub problems: Vec<String>,
    /// The games among them, by number.
    pub bad_games: Vec<u64>,
}

impl Report {
    /// The closing line.
    pub fn summary(&self) -> String {
        let head = format!(
            "checked {} game(s), {} user(s), {} outbox entr{}, {} key(s) in named trees",
            self.games,
            self.users,
            self.outbox,
            if self.outbox == 1 { "y" } else { "ies" },
            self.tree_keys
        );
        if self.problems.is_empty() {
            return format!("{head}: all readable");
        }
        let games = if self.bad_games.is_empty() {
            String::new()
        } else {
            let list: Vec<String> = self.bad_games.iter().map(|g| format!("#{g}")).collect();
            format!(" (games {})", list.join(", "))
        };
        format!("{head}: {} problem(s){games}", self.problems.len())
    }
}

/// The stall bound: [`STALL`], or `TOKAR_CHECK_STALL_SECONDS` (for a slow
/// disk).
pub fn stall_from_env() -> Result<Duration, String> {
    match std::env::var("TOKAR_CHECK_STALL_SECONDS") {
        Err(_) => Ok(STALL),
        Ok(v) => v
            .trim()
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .map(Duration::from_secs)
            .ok_or_else(|| format!("TOKAR_CHECK_STALL_SECONDS={v}: not a number of seconds")),
    }
}

/// Checks the store of `data_dir` (the folder's, or the PostgreSQL
/// database of `TOKAR_DATABASE_URL` as the bot has it), waiting
/// [`stall_from_env`] for a database that stops answering. An error: the
/// store could not be opened at all (absent, in use by a running bot, the
/// server unreachable); damaged files are problems of the report.
pub fn check(data_dir: &Path) -> Result<Report, String> {
    check_store(data_dir, &StoreSettings::from_env()?, stall_from_env()?)
}

/// [`check`] of the folder's own store (sled) with the stall bound given.
pub fn check_with(data_dir: &Path, stall: Duration) -> Result<Report, String> {
    check_store(data_dir, &StoreSettings::default(), stall)
}

/// [`check`] of the store `settings` name (the folder's, or
/// `settings.database`), with the stall bound given. The store is read
/// through the same interface on either database; only what a database
/// cannot fail at differs (PostgreSQL has no files of its own to damage).
pub fn check_store(
    data_dir: &Path,
    settings: &StoreSettings,
    stall: Duration,
) -> Result<Report, String> {
    let shared = Arc::new(Progress::default());
    let (tx, rx) = std::sync::mpsc::channel();
    {
        let (dir, shared) = (data_dir.to_path_buf(), shared.clone());
        let settings = settings.clone();
        std::thread::Builder::new()
            .name("tokar-check".into())
            .spawn(move || {
                let done = catch_unwind(AssertUnwindSafe(|| run(&dir, &settings, &shared)));
                let _ = tx.send(done.unwrap_or_else(|p| {
                    shared.problem(format!(
                        "the check failed at {}: {}",
                        shared.stage(),
                        panic_text(&*p)
                    ));
                    Ok(())
                }));
            })
            .map_err(|e| format!("cannot start the check: {e}"))?;
    }
    let mut seen = shared.steps.load(Ordering::Relaxed);
    let mut since = Instant::now();
    loop {
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(Ok(())) => return Ok(shared.report()),
            Ok(Err(e)) => return Err(e),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                shared.problem(format!(
                    "the check's reader ended without a word at {}",
                    shared.stage()
                ));
                return Ok(shared.report());
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                let now = shared.steps.load(Ordering::Relaxed);
                if now != seen {
                    (seen, since) = (now, Instant::now());
                } else if since.elapsed() >= stall {
                    shared.problem(format!(
                        "the database files are damaged: the check made no progress for {} s \
                         at {}, and stopped there (what follows was not checked)",
                        stall.as_secs(),
                        shared.stage()
                    ));
                    return Ok(shared.report());
                }
            }
        }
    }
}

/// The report as it grows, shared with the watchdog.
#[derive(Default)]
struct Progress {
    report: Mutex<Report>,
    /// Raised at every key read and every game verified.
    steps: AtomicU64,
    /// What is being read, for a report that stops there.
    stage: Mutex<String>,
    /// sled panicked at least once.
    panicked: std::sync::atomic::AtomicBool,
}

impl Progress {
    fn with<T>(&self, f: impl FnOnce(&mut Report) -> T) -> T {
        f(&mut self.report.lock().unwrap_or_else(|e| e.into_inner()))
    }

    fn report(&self) -> Report {
        self.with(|r| r.clone())
    }

    fn problem(&self, line: String) {
        self.with(|r| r.problems.push(line));
    }

    fn bad_game(&self, id: u64, why: &str) {
        self.with(|r| {
            r.problems.push(format!("game #{id}: {why}"));
            if !r.bad_games.contains(&id) {
                r.bad_games.push(id);
            }
        });
    }

    fn step(&self) {
        self.steps.fetch_add(1, Ordering::Relaxed);
    }

    fn set_stage(&self, what: impl Into<String>) {
        *self.stage.lock().unwrap_or_else(|e| e.into_inner()) = what.into();
        self.step();
    }

    fn stage(&self) -> String {
        self.stage.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// Runs `f`, a call into sled, catching its panic: `Err` is the problem,
/// naming `what` was read, and the store is then known damaged (see
/// [`run`] for why that matters when it is closed).
fn guarded<T>(p: &Progress, what: &str, f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|e| {
        p.panicked.store(true, Ordering::Relaxed);
        format!(
            "the database files are damaged: sled failed while reading {what} ({})",
            panic_text(&*e)
        )
    })
}

/// A listing of keys and values: a call into the database that gives each
/// one to its callback until the callback says `false` ([`Kv::walk`]).
type Listing<'a> = &'a dyn Fn(&mut dyn FnMut(&[u8], &[u8]) -> bool) -> Result<(), StoreError>;

/// Walks a listing to its end, calling `each` with every key and value, at
/// most `limit` times, until `each` says `false`. Stops at the listing's
/// first error, a panic, or where its keys stop growing (the listing
/// loops): that problem, `what` named in it, is returned, not reported.
fn walk(
    p: &Progress,
    what: &str,
    listing: Listing<'_>,
    limit: usize,
    mut each: impl FnMut(&[u8], &[u8]) -> bool,
) -> Option<String> {
    let mut last: Option<Vec<u8>> = None;
    let mut seen = 0;
    let mut problem = None;
    let listed = guarded(p, what, || {
        listing(&mut |k, v| {
            if seen == limit {
                return false;
            }
            seen += 1;
            p.step();
            if let Some(before) = &last {
                if k <= &before[..] {
                    problem = Some(format!(
                        "the database files are damaged: listing {what} went back from \
                         key {} to key {}",
                        key_text(before),
                        key_text(k)
                    ));
                    return false;
                }
            }
            if !each(k, v) {
                return false;
            }
            last = Some(k.to_vec());
            true
        })
    });
    match listed {
        Err(panicked) => Some(panicked),
        Ok(Err(e)) => Some(format!("{what} cannot all be listed: {e}")),
        Ok(Ok(())) => problem,
    }
}

/// [`walk`] without a limit, reporting its problem; `false` if there was
/// one (the listing is not whole).
fn walk_all(
    p: &Progress,
    what: &str,
    listing: Listing<'_>,
    each: impl FnMut(&[u8], &[u8]) -> bool,
) -> bool {
    match walk(p, what, listing, usize::MAX, each) {
        Some(problem) => {
            p.problem(problem);
            false
        }
        None => true,
    }
}

/// What the indexes must hold for one game that verified.
struct Indexed {
    users: Vec<u64>,
    channel: u64,
    due: Option<u64>,
}

/// The check itself, on the reader's thread. After sled panicked, its
/// handle is not closed: the panic may have left its locks held, and closing
/// waits on them; the process ends it instead.
fn run(data_dir: &Path, settings: &StoreSettings, p: &Progress) -> Result<(), String> {
    p.set_stage("the marker");
    let marker = match crate::marker::read(data_dir) {
        Ok(m) => m,
        Err(e) => {
            p.problem(e);
            None
        }
    };
    // A data folder that other users of the machine can read is a problem:
    // it holds every seed and hand (see `storage/private.rs`).
    if let Some(line) = crate::storage::private::report(data_dir) {
        p.problem(line);
    }
    p.set_stage("the database files (opening them)");
    let opened = guarded(p, "the database files (opening them)", || {
        Store::open_existing(data_dir, settings)
    });
    let store = match opened {
        Err(problem) => {
            p.problem(problem);
            return Ok(());
        }
        Ok(Ok(s)) => s,
        Ok(Err(e @ (StoreError::NoStore(_) | StoreError::InUse(_)))) => return Err(e.to_string()),
        // A server that cannot be reached, or holds no store, is not damage.
        Ok(Err(e)) if settings.database.is_some() => return Err(e.to_string()),
        Ok(Err(e)) => {
            p.problem(format!(
                "the database files are damaged: they cannot be opened: {e}"
            ));
            return Ok(());
        }
    };
    let db = store.kv();
    if let Some(m) = marker {
        marker_problems(data_dir, db, &m, p);
    }
    let mut indexed = HashMap::new();
    if let Some(with_record) = games(db, p, &mut indexed) {
        orphan_logs(db, p, &with_record);
    }
    let index = other_keys(db, p);
    indexes(p, &indexed, &index);
    named_trees(db, p);
    if p.panicked.load(Ordering::Relaxed) {
        std::mem::forget(store);
    } else {
        p.set_stage("closing the database");
        drop(store);
    }
    Ok(())
}

/// The marker against the store: the same identity, and no fewer games
/// numbered than the marker counts.
fn marker_problems(data_dir: &Path, db: &dyn Kv, m: &crate::marker::Marker, p: &Progress) {
    p.set_stage("the store's identity");
    let read = |k: Key| match guarded(p, "the store's counters", || {
        db.get(crate::storage::kv::MAIN, &k.bytes().unwrap_or_default())
    }) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(format!("the store's counters cannot be read: {e}")),
        Err(problem) => Err(problem),
    };
    let marker = crate::marker::path(data_dir);
    match read(Key::Identity) {
        Err(problem) => p.problem(problem),
        Ok(None) => p.problem(format!(
            "{} names store {:016x} with {} game(s), but the database has no store identity \
             (it is empty, or lost it)",
            marker.display(),
            m.identity,
            m.games
        )),
        Ok(Some(v)) => match raw::number(&v).filter(|_| v.len() == 8) {
            Some(id) if id != m.identity => p.problem(format!(
                "{} names store {:016x}, the database is {id:016x}",
                marker.display(),
                m.identity
            )),
            Some(_) => {}
            None => p.problem(format!("the store's identity is {} bytes, not 8", v.len())),
        },
    }
    match read(Key::NextGame) {
        Err(problem) => p.problem(problem),
        Ok(v) => {
            let numbered = v
                .as_deref()
                .and_then(raw::number)
                .unwrap_or(1)
                .saturating_sub(1);
            if numbered < m.games {
                p.problem(format!(
                    "{} counts {} game(s), the database has numbered only {numbered}: \
                     it is older than the store was",
                    marker.display(),
                    m.games
                ));
            }
        }
    }
}

/// Every game record, verified with its log; returns the games that have a
/// record, if they could all be listed.
fn games(db: &dyn Kv, p: &Progress, indexed: &mut HashMap<u64, Indexed>) -> Option<HashSet<u64>> {
    p.set_stage("the game records");
    let mut ids = Vec::new();
    let whole = walk_all(
        p,
        "the game records",
        &|each| Span::games().walk(db, each),
        |k, _| {
            match Key::of(k) {
                Key::Game(id) => ids.push(id),
                _ => p.problem(format!(
                    "key {}: in the game records' space, but no game record's key",
                    key_text(k)
                )),
            }
            true
        },
    );
    let mut with_record = HashSet::new();
    for id in ids {
        p.set_stage(format!("game #{id}"));
        p.with(|r| r.games += 1);
        with_record.insert(id);
        match check_game(db, p, id) {
            Ok(rec) => {
                let mut users: Vec<u64> = rec.members.iter().map(|m| m.user.id).collect();
                users.extend(rec.invited.iter().map(|u| u.id));
                indexed.insert(
                    id,
                    Indexed {
                        users,
                        channel: rec.channel.id,
                        due: rec.scheduled,
                    },
                );
            }
            Err(why) => p.bad_game(id, &why),
        }
    }
    whole.then_some(with_record)
}

/// Reads one game's record and log and verifies them.
fn check_game(db: &dyn Kv, p: &Progress, id: u64) -> Result<crate::record::GameRecord, String> {
    let key = raw::game_key(id);
    let rec = match guarded(p, "its record", || db.get(crate::storage::kv::MAIN, &key))? {
        Err(e) => return Err(format!("record unreadable: {e}")),
        Ok(None) => return Err("record vanished during the check".into()),
        Ok(Some(rec)) => rec,
    };
    let mut items = vec![(key, rec)];
    let listing = |each: &mut dyn FnMut(&[u8], &[u8]) -> bool| Span::log_of(id).walk(db, each);
    let walked = walk(p, "its log", &listing, verify::MAX_LOG + 1, |k, v| {
        items.push((k.to_vec(), v.to_vec()));
        true
    });
    if let Some(problem) = walked {
        return Err(problem);
    }
    verify::game(id, &items)?;
    crate::record::decode_game(&items[0].1).map_err(|e| format!("record unreadable: {e}"))
}

/// Log entries whose game has no record (when every record was listed).
fn orphan_logs(db: &dyn Kv, p: &Progress, with_record: &HashSet<u64>) {
    p.set_stage("the game logs");
    let mut orphans = BTreeSet::new();
    let _whole = walk_all(
        p,
        "the game logs",
        &|each| Span::logs().walk(db, each),
        |k, _| {
            match Key::of(k) {
                Key::Log { game, .. } if !with_record.contains(&game) => {
                    orphans.insert(game);
                }
                Key::Log { .. } => {}
                _ => p.problem(format!(
                    "key {}: in the logs' space, but no log entry's key",
                    key_text(k)
                )),
            }
            true
        },
    );
    for id in orphans {
        p.bad_game(id, "log entries without a game record");
    }
}

/// The index keys found: (user, game), (channel, game), (due, game).
#[derive(Default)]
struct Index {
    /// Every key was listed (else the indexes are not compared: a key not
    /// listed is not a key missing).
    whole: bool,
    users: HashSet<(u64, u64)>,
    channels: HashSet<(u64, u64)>,
    schedule: HashSet<(u64, u64)>,
}

/// Every key of the main tree outside the games' records and logs: index
/// keys are gathered, the others decoded by kind.
fn other_keys(db: &dyn Kv, p: &Progress) -> Index {
    let mut index = Index {
        whole: true,
        ..Index::default()
    };
    for span in Span::outside_games() {
        p.set_stage("the other keys");
        let listing = |each: &mut dyn FnMut(&[u8], &[u8]) -> bool| span.walk(db, each);
        index.whole &= walk_all(p, "the other keys", &listing, |k, v| {
            match Key::of(k) {
                Key::UserGame { user, game } => {
                    index.users.insert((user, game));
                }
                Key::ChannelGame { channel, game } => {
                    index.channels.insert((channel, game));
                }
                Key::Schedule { due, game } => {
                    index.schedule.insert((due, game));
                }
                Key::User(id) => {
                    p.with(|r| r.users += 1);
                    if let Err(e) = verify::main_record(k, v) {
                        p.problem(format!("user {id}: {e}"));
                    }
                }
                Key::Entry(id) => {
                    p.with(|r| r.outbox += 1);
                    if let Err(e) = verify::main_record(k, v) {
                        p.problem(format!("outbox entry {id}: {e}"));
                    }
                }
                _ => {
                    if let Err(e) = verify::main_record(k, v) {
                        p.problem(format!("key {}: {e}", key_text(k)));
                    }
                }
            }
            true
        });
    }
    index
}

/// Each verified game is in its members' and invitees' indexes, its
/// channel's and, when it waits for a time, the schedule.
fn indexes(p: &Progress, indexed: &HashMap<u64, Indexed>, index: &Index) {
    p.set_stage("the indexes");
    if !index.whole {
        return p.problem(
            "the indexes (games of a user, of a channel, the schedule) were not compared with \
             the games: they could not all be read"
                .into(),
        );
    }
    let mut ids: Vec<&u64> = indexed.keys().collect();
    ids.sort();
    for &id in ids {
        let g = &indexed[&id];
        let mut missing = Vec::new();
        for &u in &g.users {
            if !index.users.contains(&(u, id)) {
                missing.push(format!("user {u}'s games"));
            }
        }
        if !index.channels.contains(&(g.channel, id)) {
            missing.push(format!("channel {}'s games", g.channel));
        }
        if let Some(due) = g.due {
            if !index.schedule.contains(&(due, id)) {
                missing.push("the schedule".into());
            }
        }
        if !missing.is_empty() {
            p.bad_game(
                id,
                &format!("missing from the index of {}", missing.join(", ")),
            );
        }
    }
}

/// Every key of every named tree, decoded as its tree's record.
fn named_trees(db: &dyn Kv, p: &Progress) {
    p.set_stage("the named trees");
    let trees = match guarded(p, "the named trees", || db.tree_names()) {
        Ok(Ok(t)) => t,
        Ok(Err(e)) => return p.problem(format!("the named trees cannot be listed: {e}")),
        Err(problem) => return p.problem(problem),
    };
    for name in trees {
        let what = format!("the tree {name}");
        p.set_stage(what.clone());
        // A tree this build does not know is told once, not once per key.
        let known = crate::storage::kv::NAMED.contains(&name.as_str());
        let _whole = walk_all(p, &what, &|each| db.walk(&name, &[], None, each), |k, v| {
            p.with(|r| r.tree_keys += 1);
            match verify::tree_key(&name, k, v) {
                Ok(()) => true,
                Err(e) => {
                    p.problem(e);
                    known
                }
            }
        });
    }
}
