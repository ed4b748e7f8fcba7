//! What "verified" means for a backup's lines and a store's records: the
//! rules shared by restore's verify pass ([`crate::backup::restore::verify`]) and
//! `tokar check` ([`crate::check`]).
//!
//! # A game
//!
//! [`game`] takes a game's items (its record, then its log entries) and
//! accepts them only when:
//!
//! - the record decodes, is game `id`, and its key is game `id`'s;
//! - the log's keys are exactly entries 0, 1, 2... of this game, each once
//!   and in order (a duplicate, a gap or another game's key is refused by
//!   name), each entry decodes and says it is that entry, and there are as
//!   many as the record counts, at most [`MAX_LOG`];
//! - no seat is held by two members;
//! - once the game has started: it replays from its options, seed and log;
//!   each action played (`Play`) was played by the user the record gives
//!   that seat to, each resignation (`Concede`) by a member, each skipped
//!   turn (`Skip`) by a member or by the table (user 0);
//! - the stored snapshot (the position the table loads instead of replaying
//!   the log) is the position the log replays to. A snapshot that does not
//!   load at all is accepted: the table replays the log then, so it cannot
//!   show a position the log does not lead to.
//!
//! What about seat owners is checkable: the record holds who has each seat
//! (`members`), and every log entry names the user who acted. A seat given to
//! another user is caught when that seat has played at least once (the log
//! names the old owner); a seat that never played is not. In a store,
//! `tokar check` also finds every member in the index of their games (`m`
//! keys), which the table writes with each change and a restore rebuilds.
//! A record and log rewritten together and consistently (owners, users in
//! the log, checksum) are not detectable: a backup's checksum finds damage,
//! not a forger with write access to the file, and so must the file's
//! permissions guard it.
//!
//! # Other keys
//!
//! A backup's key lines ([`key_line`]) may not hold a game's record or log
//! (`g`, `l`) or an index key (`s`, `m`, `c`, rebuilt from the records): a
//! game comes only from its own verified game line, so nothing can overwrite
//! it. Users, outbox entries, console names and the two counters decode as
//! their kind; keys of other kinds (ratings, claims, pictures, a later
//! version's) are kept as they are. Every key of a named tree
//! ([`tree_key`]) decodes as its tree's record: leagues, their games' index
//! and counter, server settings; a tree this build does not know is refused.
//!
//! # Bounds
//!
//! A backup's line is at most [`MAX_LINE`] bytes and a value at most
//! [`MAX_VALUE`], so a damaged or hostile file never makes a restore hold
//! more than that in memory; a game's log at most [`MAX_LOG`] entries, so a
//! check's work on one game is bounded.

use crate::record::{decode_game, decode_log, decode_user, GameRecord, LogAction, LogEntry, Phase};
use crate::storage::raw::{self, Key};
use crate::storage::RawItem;
use std::collections::HashSet;

/// The longest line of a backup, in bytes: 16 MiB. A game's line holds its
/// record and whole log; a long game (900 actions) is well under 1 MiB, and
/// the largest other line, a picture as hex, under 2 MiB.
pub const MAX_LINE: usize = 16 << 20;

/// The largest stored value read, in bytes (the same 16 MiB).
pub const MAX_VALUE: usize = MAX_LINE;

/// The most log entries a game may have: 20,000, twenty times the longest
/// games played (about 900 actions). It bounds a check's work on one game.
pub const MAX_LOG: usize = 20_000;

/// Checks that a game's items are a record and its log that load and agree
/// (see the module's documentation).
pub fn game(id: u64, items: &[RawItem]) -> Result<(), String> {
    let Some((k, v)) = items.first() else {
        return Err("no game record".into());
    };
    match Key::of(k) {
        Key::Game(found) if found == id => {}
        Key::Game(other) => return Err(format!("the record's key names game #{other}")),
        _ => return Err("no game record".into()),
    }
    let rec = decode_game(bounded(v)?)?;
    if rec.id != id {
        return Err(format!("the record says it is game #{}", rec.id));
    }
    let entries = &items[1..];
    if entries.len() > MAX_LOG {
        return Err(format!(
            "a log of {} entries, more than the {MAX_LOG} a game may have",
            entries.len()
        ));
    }
    let mut log = Vec::with_capacity(entries.len());
    for (i, (k, v)) in entries.iter().enumerate() {
        let seq = i as u64;
        log_key(id, seq, k)?;
        let e = decode_log(bounded(v)?).map_err(|e| format!("log entry {}: {e}", seq + 1))?;
        if e.seq != seq {
            return Err(format!(
                "log entry {} says it is entry {}",
                seq + 1,
                e.seq.saturating_add(1)
            ));
        }
        log.push(e);
    }
    if log.len() as u64 != rec.log_len {
        return Err(format!(
            "the record counts {} log entries, the log has {}",
            rec.log_len,
            log.len()
        ));
    }
    seats(&rec)?;
    if matches!(rec.phase, Phase::Lobby | Phase::Cancelled) {
        return Ok(());
    }
    let replayed = replay(&rec, &log)?;
    actors(&rec, &log)?;
    snapshot(&rec, &replayed)
}

/// A value no larger than [`MAX_VALUE`].
fn bounded(v: &[u8]) -> Result<&[u8], String> {
    if v.len() > MAX_VALUE {
        return Err(format!(
            "a stored value of {} bytes, more than any record ({MAX_VALUE})",
            v.len()
        ));
    }
    Ok(v)
}

/// Entry `seq`'s key must be game `id`'s log key for `seq`.
fn log_key(id: u64, seq: u64, k: &[u8]) -> Result<(), String> {
    let found = match Key::of(k) {
        Key::Log { game, seq } if game == id => seq,
        _ => {
            return Err(format!(
                "log entry {}: a key that is not this game's log",
                seq + 1
            ))
        }
    };
    match found.cmp(&seq) {
        std::cmp::Ordering::Equal => Ok(()),
        std::cmp::Ordering::Less => Err(format!(
            "log entry {} appears twice (or out of order)",
            found.saturating_add(1)
        )),
        std::cmp::Ordering::Greater => Err(format!("log entry {} is missing", seq + 1)),
    }
}

/// No seat is held by two members.
fn seats(rec: &GameRecord) -> Result<(), String> {
    let mut held = HashSet::new();
    for m in &rec.members {
        for &s in &m.seats {
            if !held.insert(s) {
                return Err(format!("seat {s} is held by two members"));
            }
        }
    }
    Ok(())
}

/// Each log entry was made by someone the record allows (see the module's
/// documentation).
fn actors(rec: &GameRecord, log: &[LogEntry]) -> Result<(), String> {
    let holder = |seat: u8| {
        rec.members
            .iter()
            .find(|m| m.seats.contains(&seat))
            .map(|m| m.user.id)
    };
    let member = |user: u64| rec.members.iter().any(|m| m.user.id == user);
    for e in log {
        let n = e.seq + 1;
        match &e.action {
            LogAction::Play(_) => match holder(e.seat) {
                Some(owner) if owner == e.user => {}
                Some(owner) => {
                    return Err(format!(
                        "log entry {n}: seat {} was played by user {}, but the record gives \
                         the seat to user {owner}",
                        e.seat, e.user
                    ))
                }
                None => {
                    return Err(format!(
                        "log entry {n}: seat {} played, but no member holds it",
                        e.seat
                    ))
                }
            },
            LogAction::Concede if !member(e.user) => {
                return Err(format!(
                    "log entry {n}: a resignation by user {}, who is not a member",
                    e.user
                ))
            }
            LogAction::Skip if e.user != 0 && !member(e.user) => {
                return Err(format!(
                    "log entry {n}: a skipped turn by user {}, who is not a member",
                    e.user
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

/// The game replayed from its record and log. The engine is handed what
/// may be damaged input here, so a panic in it is caught and reported as
/// the game not replaying: one bad record must not end a check or a restore.
fn replay(rec: &GameRecord, log: &[LogEntry]) -> Result<tokar_engine::catalog::AnyGame, String> {
    let replayed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        crate::table::replay(rec, log)
    }));
    match replayed {
        Ok(Ok(game)) => Ok(game),
        Ok(Err(e)) => Err(format!("does not replay: {e}")),
        Err(p) => Err(format!(
            "does not replay: the engine failed ({})",
            panic_text(&p)
        )),
    }
}

/// The text of a caught panic.
pub(crate) fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into())
}

/// The stored snapshot, when it loads, is the replayed position. Both are
/// compared as the JSON the table writes (every map in the engine's state
/// is ordered, so equal positions give equal JSON).
fn snapshot(rec: &GameRecord, replayed: &tokar_engine::catalog::AnyGame) -> Result<(), String> {
    let Some(text) = &rec.snapshot else {
        return Ok(());
    };
    let Ok(stored) = serde_json::from_str::<tokar_engine::catalog::AnyGame>(text) else {
        return Ok(()); // the table replays the log instead
    };
    let as_json = |g: &tokar_engine::catalog::AnyGame| serde_json::to_value(g).ok();
    if as_json(&stored) != as_json(replayed) {
        return Err("its stored position (snapshot) is not the position its log replays to".into());
    }
    Ok(())
}

/// Whether a key belongs to a game: its record, its log, or an index key.
pub fn is_game_key(k: &[u8]) -> bool {
    raw::belongs_to_games(k)
}

/// Checks one of a backup's plain key lines (or a store's key outside the
/// games): see the module's documentation.
pub fn key_line(k: &[u8], v: &[u8]) -> Result<(), String> {
    let v = bounded(v)?;
    let name = || key_text(k);
    if is_game_key(k) {
        return Err(format!(
            "key {}: a game's key or index key outside its game",
            name()
        ));
    }
    main_record(k, v).map_err(|e| format!("key {}: {e}", name()))
}

/// Decodes a key of the main tree that is no game's, by its kind.
pub fn main_record(k: &[u8], v: &[u8]) -> Result<(), String> {
    let eight = |what: &str| -> Result<(), String> {
        if v.len() == 8 {
            Ok(())
        } else {
            Err(format!("{what} is {} bytes, not 8", v.len()))
        }
    };
    match Key::of(k) {
        Key::NextGame => eight("the next game number"),
        Key::Identity => eight("the store's identity"),
        Key::User(id) => {
            let u = decode_user(v)?;
            if u.user.id != id {
                return Err(format!("the user record says it is user {}", u.user.id));
            }
            Ok(())
        }
        Key::Entry(id) => {
            let e = crate::outbox::decode_entry(v)?;
            if e.id != id {
                return Err(format!("the outbox entry says it is entry {}", e.id));
            }
            Ok(())
        }
        Key::ConsoleName { text: false } => Err("a console name that is not text".into()),
        Key::ConsoleName { text: true } => eight("a console name's id"),
        _ => Ok(()),
    }
}

/// A key as the operator reads it: its text when it is printable, else hex.
pub fn key_text(k: &[u8]) -> String {
    match std::str::from_utf8(k) {
        Ok(t) if t.chars().all(|c| c.is_ascii_graphic()) => t.to_string(),
        _ => k.iter().map(|b| format!("{b:02x}")).collect(),
    }
}

/// Decodes one key of a named tree as its tree's record.
pub fn tree_key(tree: &str, k: &[u8], v: &[u8]) -> Result<(), String> {
    let v = bounded(v)?;
    let what = || format!("{tree} key {}", key_text(k));
    let eight = |v: &[u8]| {
        if v.len() == 8 {
            Ok(())
        } else {
            Err(format!("{}: a number of {} bytes, not 8", what(), v.len()))
        }
    };
    match tree {
        "leagues" => match (k.first(), k.len()) {
            (Some(b'L'), 9) => {
                let rec =
                    crate::league::decode_league(v).map_err(|e| format!("{}: {e}", what()))?;
                if Some(rec.id) != raw::number(k) {
                    return Err(format!(
                        "{}: the record says it is league {}",
                        what(),
                        rec.id
                    ));
                }
                Ok(())
            }
            (Some(b'G'), 9) => eight(v),
            _ if k == b"next-league" => eight(v),
            _ => Err(format!("{}: no key this build knows", what())),
        },
        "events" => match (k.first(), k.len()) {
            (Some(b'E'), 9) => {
                let rec =
                    tokar_model::event::decode_event(v).map_err(|e| format!("{}: {e}", what()))?;
                if Some(rec.id) != raw::number(k) {
                    return Err(format!(
                        "{}: the record says it is event {}",
                        what(),
                        rec.id
                    ));
                }
                Ok(())
            }
            (Some(b'G'), 9) => eight(v),
            _ if k == b"next-event" => eight(v),
            _ => Err(format!("{}: no key this build knows", what())),
        },
        "servers" if k.len() == 8 => crate::storage::decode_server(v)
            .map(drop)
            .map_err(|e| format!("{}: {e}", what())),
        "servers" => Err(format!("{}: not a server's id", what())),
        other => Err(format!(
            "a tree this build does not know ({other:?}): made by a newer Tokar, or not Tokar's"
        )),
    }
}

/// What a backup's verify pass has seen, to refuse a key given twice: a
/// second line for one key would silently replace the first when written.
#[derive(Default)]
pub struct Seen {
    games: HashSet<u64>,
    keys: HashSet<Vec<u8>>,
    tree_keys: HashSet<(String, Vec<u8>)>,
}

impl Seen {
    pub fn game(&mut self, id: u64) -> Result<(), String> {
        if !self.games.insert(id) {
            return Err(format!("game #{id} appears twice"));
        }
        Ok(())
    }

    pub fn key(&mut self, k: &[u8]) -> Result<(), String> {
        if !self.keys.insert(k.to_vec()) {
            return Err(format!("key {} appears twice", key_text(k)));
        }
        Ok(())
    }

    pub fn tree_key(&mut self, tree: &str, k: &[u8]) -> Result<(), String> {
        if !self.tree_keys.insert((tree.to_string(), k.to_vec())) {
            return Err(format!("{tree} key {} appears twice", key_text(k)));
        }
        Ok(())
    }
}

/// Reads one line of at most `max` bytes (without its newline) into `buf`:
/// `Ok(false)` at the end of the input. A longer line is an error once `max`
/// bytes are read, so a huge line is never held whole. Written here rather
/// than taken from a crate: it is a few lines over `BufRead::read_until`.
pub fn read_line(
    r: &mut impl std::io::BufRead,
    buf: &mut Vec<u8>,
    max: usize,
) -> Result<bool, String> {
    use std::io::{BufRead, Read};
    buf.clear();
    let n = r
        .by_ref()
        .take(max as u64 + 1)
        .read_until(b'\n', buf)
        .map_err(|e| e.to_string())?;
    if n == 0 {
        return Ok(false);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
    } else if buf.len() > max {
        return Err(format!(
            "a line longer than {} MiB, more than any backup line",
            max >> 20
        ));
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_is_refused_after_the_limit_is_read() {
        let text = format!("short\n{}\nnext\nlast", "x".repeat(100));
        let mut r = std::io::BufReader::new(text.as_bytes());
        let mut buf = Vec::new();
        assert!(read_line(&mut r, &mut buf, 50).unwrap());
        assert_eq!(buf, b"short");
        let e = read_line(&mut r, &mut buf, 50).unwrap_err();
        assert!(e.contains("longer than"), "{e}");
        assert!(buf.len() <= 51);

        let mut r = std::io::BufReader::new(&b"exactly5\nlast"[..]);
        assert!(read_line(&mut r, &mut buf, 8).unwrap());
        assert_eq!(buf, b"exactly5");
        assert!(read_line(&mut r, &mut buf, 8).unwrap());
        assert_eq!(buf, b"last");
        assert!(!read_line(&mut r, &mut buf, 8).unwrap());
    }

    #[test]
    fn game_keys_and_index_keys_are_not_plain_keys() {
        let mut g = vec![b'g'];
        g.extend_from_slice(&1u64.to_be_bytes());
        assert!(key_line(&g, b"{}").is_err());
        assert!(key_line(b"gx", b"").is_err(), "any key in the games' space");
        let mut l = vec![b'l'];
        l.extend_from_slice(&[0; 16]);
        assert!(key_line(&l, b"{}").is_err());
        let mut m = vec![b'm'];
        m.extend_from_slice(&[0; 16]);
        assert!(key_line(&m, b"").is_err());
        assert!(key_line(b"store-id", &7u64.to_be_bytes()).is_ok());
        assert!(key_line(b"store-id", b"7").is_err());
        assert!(key_line(b"next-game", &3u64.to_be_bytes()).is_ok());
        let mut u = vec![b'u'];
        u.extend_from_slice(&5u64.to_be_bytes());
        assert!(key_line(&u, b"garbage").is_err());
        assert!(key_line(b"Rsomething later", b"anything").is_ok());
    }

    #[test]
    fn tree_keys_decode_as_their_tree() {
        let mut l = vec![b'L'];
        l.extend_from_slice(&1u64.to_be_bytes());
        let e = tree_key("leagues", &l, b"{\"format\":1,\"garbage\":true}").unwrap_err();
        assert!(e.starts_with("leagues key"), "{e}");
        assert!(tree_key("leagues", b"next-league", &2u64.to_be_bytes()).is_ok());
        assert!(tree_key("leagues", b"what", b"").is_err());
        assert!(tree_key(
            "servers",
            &9u64.to_be_bytes(),
            b"{\"v\":\"1\",\"threads\":false}"
        )
        .is_ok());
        assert!(tree_key("servers", &9u64.to_be_bytes(), b"[]").is_err());
        let mut ev = vec![b'E'];
        ev.extend_from_slice(&3u64.to_be_bytes());
        let e = tree_key("events", &ev, b"{\"format\":1}").unwrap_err();
        assert!(e.starts_with("events key"), "{e}");
        assert!(tree_key("events", b"next-event", &2u64.to_be_bytes()).is_ok());
        assert!(tree_key("events", b"next-event", b"2").is_err());
        assert!(tree_key("events", b"what", b"").is_err());
        assert!(tree_key("elsewhere", b"k", b"v").is_err());
        // Every tree the store writes is one this module knows.
        for name in crate::storage::kv::NAMED {
            let e = tree_key(name, b"\xff", b"").unwrap_err();
            assert!(!e.contains("does not know"), "{name}: {e}");
        }
    }

    #[test]
    fn a_key_given_twice_is_refused() {
        let mut s = Seen::default();
        s.game(1).unwrap();
        assert!(s.game(1).is_err());
        s.key(b"k").unwrap();
        assert!(s.key(b"k").is_err());
        s.tree_key("leagues", b"k").unwrap();
        s.tree_key("servers", b"k").unwrap();
        assert!(s.tree_key("leagues", b"k").is_err());
    }
}
