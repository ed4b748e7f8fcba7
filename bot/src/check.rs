//! `tokar check`: reads everything in a stopped bot's store and says what
//! cannot be read, changing nothing.
//!
//! Every game record is decoded, its log read and counted against the
//! record, and the game replayed from its options, seed and log (the way the
//! table loads a game whose snapshot does not load); every user record and
//! outbox entry is decoded; the data folder's marker is compared with the
//! store. A game listed as unreadable can be brought back alone from a
//! backup with `tokar restore FILE --game N`.

use crate::backup::verify_game;
use crate::storage::{be_u64, log_prefix, Store, StoreSettings};
use std::path::Path;

/// What a check found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub games: u64,
    pub users: u64,
    pub outbox: u64,
    /// One line per thing that cannot be read.
    pub problems: Vec<String>,
    /// The games among them, by number.
    pub bad_games: Vec<u64>,
}

impl Report {
    /// The closing line.
    pub fn summary(&self) -> String {
        let head = format!(
            "checked {} game(s), {} user(s), {} outbox entr{}",
            self.games,
            self.users,
            self.outbox,
            if self.outbox == 1 { "y" } else { "ies" }
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

/// Checks the store of `data_dir`. An error: the store could not be opened
/// at all (absent, in use by a running bot).
pub fn check(data_dir: &Path) -> Result<Report, String> {
    let store =
        Store::open_existing(data_dir, &StoreSettings::default()).map_err(|e| e.to_string())?;
    let db = &store.db().map_err(|e| e.to_string())?;
    let mut r = Report::default();
    privacy(data_dir, &mut r);
    match crate::marker::read(data_dir) {
        Err(e) => r.problems.push(e),
        Ok(None) => {}
        Ok(Some(m)) => match store.identity() {
            Ok(id) if id != m.identity => r.problems.push(format!(
                "the marker names store {:016x}, the database is {id:016x}",
                m.identity
            )),
            Err(e) => r.problems.push(format!("the store's identity: {e}")),
            Ok(_) => {}
        },
    }
    let mut with_record = std::collections::HashSet::new();
    for k in db.scan_prefix([b'g']).keys() {
        let k = match k {
            Ok(k) => k,
            Err(e) => {
                r.problems
                    .push(format!("the game records cannot be listed: {e}"));
                break;
            }
        };
        let Some(id) = be_u64(&k).filter(|_| k.len() == 9) else {
            continue;
        };
        r.games += 1;
        with_record.insert(id);
        if let Err(why) = check_game(db, id) {
            r.problems.push(format!("game #{id}: {why}"));
            r.bad_games.push(id);
        }
    }
    // Log entries whose game has no record.
    let mut orphans = std::collections::BTreeSet::new();
    for k in db.scan_prefix([b'l']).keys().flatten() {
        if k.len() == 17 {
            let id = be_u64(&k[..9]).unwrap_or_default();
            if !with_record.contains(&id) {
                orphans.insert(id);
            }
        }
    }
    for id in orphans {
        r.problems
            .push(format!("game #{id}: log entries without a game record"));
        r.bad_games.push(id);
    }
    for kv in db.scan_prefix([b'u']) {
        r.users += 1;
        match kv {
            Err(e) => {
                r.problems.push(format!("user records cannot be read: {e}"));
                break;
            }
            Ok((k, v)) => {
                if let Err(e) = crate::record::decode_user(&v) {
                    let id = be_u64(&k).unwrap_or_default();
                    r.problems.push(format!("user {id}: {e}"));
                }
            }
        }
    }
    for kv in db.scan_prefix([b'o']) {
        r.outbox += 1;
        match kv {
            Err(e) => {
                r.problems
                    .push(format!("outbox entries cannot be read: {e}"));
                break;
            }
            Ok((k, v)) => {
                if let Err(e) = crate::outbox::decode_entry(&v) {
                    let id = be_u64(&k).unwrap_or_default();
                    r.problems.push(format!("outbox entry {id}: {e}"));
                }
            }
        }
    }
    Ok(r)
}

/// Reads one game's record and log and replays it.
fn check_game(db: &sled::Db, id: u64) -> Result<(), String> {
    let rec = db
        .get(crate::storage::game_key(id))
        .map_err(|e| format!("record unreadable: {e}"))?
        .ok_or("record vanished during the check")?;
    let mut items = vec![(crate::storage::game_key(id), rec.to_vec())];
    for kv in db.scan_prefix(log_prefix(id)) {
        let (k, v) = kv.map_err(|e| format!("log unreadable: {e}"))?;
        items.push((k.to_vec(), v.to_vec()));
    }
    verify_game(id, &items)
}

/// A data folder that other users of the machine can read is a problem: it
/// holds every seed and hand (see `storage/private.rs`).
fn privacy(data_dir: &Path, r: &mut Report) {
    if let Some(line) = crate::storage::private::report(data_dir) {
        r.problems.push(line);
    }
}
