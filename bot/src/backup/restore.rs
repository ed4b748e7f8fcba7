//! Reading a backup back: the whole store into an empty folder, or one game
//! into a live (stopped) store.
//!
//! A restore reads the file twice: first to verify all of it ([`verify`]:
//! the format, every game's checksum, record, log, replay, snapshot and seat
//! owners, that no key line touches a game, every named tree's records, no
//! key twice, the counts at the end; the rules are in [`super::verify`]),
//! then to write. A backup that fails the first pass changes nothing, and
//! neither pass holds the whole file in memory (lines are read with a
//! bound).
//! Both formats are read: format 1 as one without named trees.

use super::{checksum, verify_game, End, GameItems, Header, Line, FORMAT};
use crate::rating::records::RatedGame;
use crate::record::{decode_game, decode_log, GameRecord, Phase};
use crate::storage::folder::{partial_folders, partial_pid};
use crate::storage::kv::{transaction, Kv, TxError, MAIN, NAMED};
use crate::storage::raw::{self, Key};
use crate::storage::{RawItem, Rerate, Store, StoreError, StoreSettings};
use crate::verify;
use std::path::Path;
use std::sync::Arc;
use tokar_engine::catalog::GameKind;
use tracing::warn;

/// What a restore did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Restored {
    pub identity: u64,
    pub games: u64,
    pub keys: u64,
    /// Keys of the named trees (leagues, server settings).
    pub tree_keys: u64,
}

/// Calls `each` for every line of the backup at `file`, after checking its
/// header. Returns the header and the closing counts (an error if the file
/// ends without them). Lines are read with a bound ([`verify::MAX_LINE`]):
/// a longer one is refused once that much is read, never held whole. An
/// error of `each` is told with the line's number.
fn read_lines(
    file: &Path,
    mut each: impl FnMut(Line) -> Result<(), String>,
) -> Result<(Header, End), String> {
    let f =
        std::fs::File::open(file).map_err(|e| format!("cannot open {}: {e}", file.display()))?;
    let mut reader = std::io::BufReader::new(flate2::read::GzDecoder::new(f));
    let mut header = None;
    let mut end = None;
    let mut buf = Vec::new();
    for n in 1u64.. {
        let unreadable = |e: String| {
            format!(
                "{} is not a readable Tokar backup (line {n}): {e}",
                file.display()
            )
        };
        if !verify::read_line(&mut reader, &mut buf, verify::MAX_LINE).map_err(unreadable)? {
            break;
        }
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
        let text = std::str::from_utf8(&buf).map_err(|e| unreadable(e.to_string()))?;
        if end.is_some() {
            return Err(format!("{}: lines after the end", file.display()));
        }
        if header.is_none() {
            header = Some(read_header(text).map_err(|e| format!("{}: {e}", file.display()))?);
            continue;
        }
        let line: Line = serde_json::from_str(text)
            .map_err(|e| format!("{}: line {n} unreadable: {e}", file.display()))?;
        match line {
            Line::Header(_) => return Err(format!("{}: a second header", file.display())),
            Line::Tree(_) if header.as_ref().is_some_and(|h| h.format < 2) => {
                return Err(format!(
                    "{}: line {n}: a named tree in a format-1 backup",
                    file.display()
                ))
            }
            Line::End(e) => end = Some(e),
            other => each(other).map_err(|e| format!("{}: line {n}: {e}", file.display()))?,
        }
    }
    let header = header.ok_or_else(|| format!("{} is empty", file.display()))?;
    let end = end.ok_or_else(|| format!("{} is cut short (no end line)", file.display()))?;
    Ok((header, end))
}

/// The header of any known format; a newer one is refused by name.
fn read_header(text: &str) -> Result<Header, String> {
    #[derive(serde::Deserialize)]
    struct Head {
        header: Format,
    }
    #[derive(serde::Deserialize)]
    struct Format {
        format: u32,
    }
    let not = |e: serde_json::Error| format!("not a Tokar backup ({e})");
    match serde_json::from_str::<Head>(text)
        .map_err(not)?
        .header
        .format
    {
        1 | 2 => match serde_json::from_str::<Line>(text).map_err(not)? {
            Line::Header(h) => Ok(h),
            _ => Err("not a Tokar backup (no header)".into()),
        },
        n => Err(format!(
            "backup format {n} is newer than this build of Tokar reads ({FORMAT})"
        )),
    }
}

fn raw_items(g: &GameItems) -> Result<Vec<RawItem>, String> {
    g.items.iter().map(|i| i.raw()).collect()
}

/// Checks one game of a backup: its checksum, then that it loads.
fn check_game(g: &GameItems) -> Result<Vec<RawItem>, String> {
    let items = raw_items(g).map_err(|e| format!("game #{}: {e}", g.id))?;
    if checksum(&items) != g.crc32 {
        return Err(format!("game #{}: checksum does not match", g.id));
    }
    verify_game(g.id, &items).map_err(|e| format!("game #{}: {e}", g.id))?;
    Ok(items)
}

/// Verifies a whole backup without writing anything: returns its header and
/// counts. Every game line is checked ([`check_game`]); every plain key
/// line is no game's key and decodes as its kind ([`verify::key_line`]);
/// every named tree's key decodes as its tree's record
/// ([`verify::tree_key`]); no game, key or tree key comes twice; the
/// store's identity among the keys is the header's; the counts agree with
/// the end line. The first problem is the error, in one line.
pub fn verify(file: &Path) -> Result<(Header, End), String> {
    let (mut games, mut keys, mut tree_keys) = (0, 0, 0);
    let mut seen = verify::Seen::default();
    let mut identity = None;
    let (header, end) = read_lines(file, |line| {
        match line {
            Line::Game(g) => {
                seen.game(g.id)?;
                check_game(&g)?;
                games += 1;
            }
            Line::Key(item) => {
                let (k, v) = item.raw()?;
                seen.key(&k)?;
                verify::key_line(&k, &v)?;
                if Key::of(&k) == Key::Identity {
                    identity = raw::number(&v);
                }
                keys += 1;
            }
            Line::Tree(t) => {
                if !raw::valid_tree_name(&t.tree) {
                    return Err(format!("a key of a tree named {:?}", t.tree));
                }
                let (k, v) = t.item.raw()?;
                seen.tree_key(&t.tree, &k)?;
                verify::tree_key(&t.tree, &k, &v)?;
                tree_keys += 1;
            }
            Line::Header(_) | Line::End(_) => {}
        }
        Ok(())
    })?;
    if identity.is_some_and(|id| id != header.identity) {
        return Err(format!(
            "{}: the store's identity among its keys is not the one its header names",
            file.display()
        ));
    }
    if (games, keys, tree_keys) != (end.games, end.keys, end.tree_keys) {
        return Err(format!(
            "{}: holds {games} game(s), {keys} key(s) and {tree_keys} tree key(s), \
             its end says {}, {} and {}",
            file.display(),
            end.games,
            end.keys,
            end.tree_keys
        ));
    }
    Ok((header, end))
}

fn store_err(e: StoreError) -> String {
    e.to_string()
}

/// Restores a whole backup into the data folder `data_dir`, whose store must
/// be absent or empty, in sled (see [`restore_into`]).
pub fn restore_all(file: &Path, data_dir: &Path) -> Result<Restored, String> {
    restore_into(file, data_dir, &StoreSettings::default())
}

/// Restores a whole backup: into the sled database of `data_dir`, or into
/// the PostgreSQL database of `settings.database`, whose store must be
/// absent or empty; then writes the folder's marker for it.
///
/// All or nothing. The backup is verified first. Into sled, the store is
/// built in a folder of its own inside the data folder
/// (`restore-<process id>.partial`, on the same file system as `db/`, which
/// a folder beside the data folder might not be), flushed, checked, and only
/// then moved into place as `db/` by a rename; a restore stopped before (a
/// full disk, a kill) leaves `db/` and the marker as they were. A partial
/// folder whose process is gone is removed by the next restore; one whose
/// process runs is named in the error. Into PostgreSQL, the store is written
/// in one transaction, which the server keeps whole or not at all.
pub fn restore_into(
    file: &Path,
    data_dir: &Path,
    settings: &StoreSettings,
) -> Result<Restored, String> {
    let (header, end) = verify(file)?;
    std::fs::create_dir_all(data_dir)
        .map_err(|e| format!("cannot create {}: {e}", data_dir.display()))?;
    let loaded = match &settings.database {
        Some(url) => restore_postgres(file, data_dir, url, &header)?,
        None => restore_in_folder(file, data_dir, &header)?,
    };
    if loaded.games != end.games || loaded.tree_keys != end.tree_keys {
        return Err(format!(
            "the restored store holds {} game(s) and {} key(s) in named trees, the backup {} and {}",
            loaded.games, loaded.tree_keys, end.games, end.tree_keys
        ));
    }
    Ok(Restored {
        identity: header.identity,
        games: end.games,
        keys: end.keys,
        tree_keys: end.tree_keys,
    })
}

/// What the write pass stored, counted in the store written.
struct Loaded {
    games: u64,
    tree_keys: u64,
}

/// What a backup brings, as the write pass reads it.
#[derive(Default)]
struct Read {
    games: u64,
    tree_keys: u64,
    highest_game: u64,
    /// The highest outbox id among the keys (new entries are numbered on).
    highest_entry: u64,
}

/// Where the write pass puts a line's keys: the main keyspace (`None`) or a
/// named tree.
type Put<'a> = dyn FnMut(Option<&str>, Vec<RawItem>) -> Result<(), String> + 'a;

/// Reads the backup's lines again and gives `put` every key to store: the
/// main keyspace's (`None`) or a named tree's, a line at a time, with the
/// index keys of each game rebuilt from its record.
fn load(file: &Path, put: &mut Put<'_>) -> Result<Read, String> {
    let mut read = Read::default();
    read_lines(file, |line| match line {
        Line::Game(g) => {
            let mut items = raw_items(&g)?;
            let rec = decode_game(&items[0].1)?;
            items.extend(raw::index_keys(&rec).into_iter().map(|k| (k, Vec::new())));
            read.highest_game = read.highest_game.max(g.id);
            read.games += 1;
            put(None, items)
        }
        Line::Key(item) => {
            let (k, v) = item.raw()?;
            if let Some(id) = raw::entry_of(&k) {
                read.highest_entry = read.highest_entry.max(id);
            }
            put(None, vec![(k, v)])
        }
        Line::Tree(t) => {
            read.tree_keys += 1;
            put(Some(&t.tree), vec![t.item.raw()?])
        }
        Line::Header(_) | Line::End(_) => Ok(()),
    })?;
    Ok(read)
}

/// The next game number of a restored store: above every game restored.
fn next_game_after(header: &Header, read: &Read) -> u64 {
    header.next_game.max(read.highest_game + 1)
}

/// Removes the partial folders that interrupted restores left in `dir`;
/// refuses while another restore is writing one.
fn clean_partials(dir: &Path) -> Result<(), String> {
    for p in partial_folders(dir) {
        let pid = partial_pid(&p).unwrap_or_default();
        let running = pid != std::process::id() && Path::new(&format!("/proc/{pid}")).exists();
        if running {
            return Err(format!(
                "another restore (process {pid}) is writing {}: wait for it, or stop it and run this one again",
                p.display()
            ));
        }
        std::fs::remove_dir_all(&p).map_err(|e| {
            format!(
                "an interrupted restore left {}, which cannot be removed ({e}): remove it and run the restore again",
                p.display()
            )
        })?;
        warn!(path = %p.display(), "removed what an interrupted restore left");
    }
    Ok(())
}

fn not_empty(data_dir: &Path) -> String {
    format!(
        "the store in {} is not empty: a backup is restored only into an empty data folder \
         (or restore one game with --game N)",
        data_dir.display()
    )
}

fn restore_in_folder(file: &Path, data_dir: &Path, header: &Header) -> Result<Loaded, String> {
    let target = data_dir.join("db");
    // Told before the work when the marker shows it (opening `db/` now
    // could let sled tidy its files, and a failed restore leaves them as
    // they were); checked for certain before the move into place.
    if let (true, Ok(Some(m))) = (target.exists(), crate::marker::read(data_dir)) {
        if m.games > 0 || m.generation.unwrap_or(0) > 0 {
            return Err(not_empty(data_dir));
        }
    }
    clean_partials(data_dir)?;
    let partial = data_dir.join(format!("restore-{}.partial", std::process::id()));
    std::fs::create_dir(&partial)
        .map_err(|e| format!("cannot create {}: {e}", partial.display()))?;
    let built = build_in_folder(file, &partial.join("db"), header)
        .and_then(|loaded| move_into_place(data_dir, &partial).map(|()| loaded));
    let removed = std::fs::remove_dir_all(&partial);
    match (built, removed) {
        (Ok(loaded), Err(e)) => {
            warn!(path = %partial.display(), error = %e, "restored; what the restore wrote beside it was not removed");
            Ok(loaded)
        }
        (Ok(loaded), Ok(())) => Ok(loaded),
        (Err(e), Ok(())) => Err(format!(
            "the restore stopped and changed nothing in {}: {e}",
            data_dir.display()
        )),
        (Err(e), Err(why)) => Err(format!(
            "the restore stopped and changed nothing in {}, but {} could not be removed \
             ({why}; remove it): {e}",
            data_dir.display(),
            partial.display()
        )),
    }
}

/// Writes the backup's store into a new sled database at `db_dir`, flushed
/// and counted.
fn build_in_folder(file: &Path, db_dir: &Path, header: &Header) -> Result<Loaded, String> {
    let store = Store::database_at(db_dir, db_dir.display().to_string()).map_err(store_err)?;
    let kv = store.kv();
    let read = load(file, &mut |tree, items| {
        kv.load(tree.unwrap_or(MAIN), &items).map_err(store_err)
    })?;
    let next = next_game_after(header, &read);
    kv.load(MAIN, &[next_game_item(next)]).map_err(store_err)?;
    kv.sync().map_err(store_err)?;
    // New outbox entries are numbered after the restored ones (durably).
    kv.raise_ids(read.highest_entry).map_err(store_err)?;
    store.mark().map_err(store_err)?;
    let loaded = count(&store, header)?;
    if (loaded.games, loaded.tree_keys) != (read.games, read.tree_keys) {
        return Err(format!(
            "the restored store holds {} game(s), the backup {}",
            loaded.games, read.games
        ));
    }
    Ok(loaded)
}

/// The key and value of a store's next game number.
fn next_game_item(next: u64) -> RawItem {
    (
        Key::NextGame.bytes().unwrap_or_default(),
        next.to_be_bytes().to_vec(),
    )
}

/// Counts what a restored store holds, and checks its identity.
fn count(store: &Store, header: &Header) -> Result<Loaded, String> {
    let kv = store.kv();
    let games = raw::Span::games()
        .keys(kv)
        .map_err(store_err)?
        .iter()
        .filter(|k| matches!(Key::of(k), Key::Game(_)))
        .count() as u64;
    let mut tree_keys = 0;
    for name in kv.tree_names().map_err(store_err)? {
        kv.walk(&name, &[], None, &mut |_, _| {
            tree_keys += 1;
            true
        })
        .map_err(store_err)?;
    }
    if store.identity().map_err(store_err)? != header.identity {
        return Err("the restored store's identity is not the backup's".into());
    }
    Ok(Loaded { games, tree_keys })
}

/// Moves the database built in `partial` into place as `data_dir/db`, and
/// writes the folder's marker for it. An unused `db/` already there (a
/// store opened once and never played) is moved aside into `partial`.
fn move_into_place(data_dir: &Path, partial: &Path) -> Result<(), String> {
    let target = data_dir.join("db");
    let built = partial.join("db");
    if target.exists() {
        let there = Store::database_at(&target, target.display().to_string()).map_err(store_err)?;
        if !raw::unused(there.kv()).map_err(store_err)? {
            return Err(not_empty(data_dir));
        }
        drop(there);
        std::fs::rename(&target, partial.join("replaced-db"))
            .map_err(|e| format!("cannot move {} aside: {e}", target.display()))?;
    }
    std::fs::rename(&built, &target).map_err(|e| {
        format!(
            "cannot move the restored store into place as {}: {e}",
            target.display()
        )
    })?;
    // Now the folder's store: its marker says so. (Stopped between the two
    // renames above, or before this, the folder is refused at start with the
    // ways on, never opened as something else.)
    Store::database_at(&target, data_dir.display().to_string())
        .map_err(store_err)?
        .write_marker_in(data_dir)
}

fn restore_postgres(
    file: &Path,
    data_dir: &Path,
    url: &str,
    header: &Header,
) -> Result<Loaded, String> {
    let kv = crate::storage::postgres::PgKv::connect(url).map_err(store_err)?;
    if !raw::unused(&kv).map_err(store_err)? {
        return Err(format!(
            "{} is not empty: a backup is restored only into an empty database",
            kv.describe()
        ));
    }
    let mut read = None;
    kv.transact(&mut |tx| {
        // A database's refusal, kept to end the transaction with it (a
        // conflict runs the whole restore again).
        let mut failed: Option<TxError> = None;
        let loaded = load(file, &mut |tree: Option<&str>, items: Vec<RawItem>| {
            let tree = match tree {
                None => MAIN,
                Some(name) => *NAMED.iter().find(|n| **n == name).ok_or_else(|| {
                    format!("a key of a tree named {name:?}, which this Tokar does not know")
                })?,
            };
            for (k, v) in items {
                if let Err(e) = tx.insert(tree, &k, &v) {
                    failed = Some(e);
                    return Err("the database refused a write".to_string());
                }
            }
            Ok(())
        });
        if let Some(e) = failed.take() {
            return Err(e);
        }
        let r = loaded.map_err(|e| TxError::Abort(StoreError::Corrupt(e)))?;
        let next = next_game_after(header, &r);
        let (k, v) = next_game_item(next);
        tx.insert(MAIN, &k, &v)?;
        read = Some(r);
        Ok(())
    })
    .map_err(|e| match e {
        StoreError::Corrupt(text) => text,
        e => e.to_string(),
    })?;
    let read = read.ok_or("the restore wrote nothing")?;
    kv.raise_ids(read.highest_entry).map_err(store_err)?;
    let store = Store::unmarked(Arc::new(kv));
    let loaded = count(&store, header)?;
    store.write_marker_in(data_dir)?;
    Ok(loaded)
}

/// What a restore of one game did besides putting it back: the game kinds
/// whose ratings it recomputed, and how many rated games they now count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRestored {
    pub kinds: Vec<GameKind>,
    pub rated: usize,
}

/// Replaces game `id` of the sled store in `data_dir` (Tokar stopped) with
/// its state in the backup (see [`restore_game_with`]).
pub fn restore_game(file: &Path, data_dir: &Path, id: u64) -> Result<GameRestored, String> {
    restore_game_with(file, data_dir, id, &StoreSettings::default())
}

/// Replaces game `id` of the store in `data_dir` (Tokar stopped; on
/// PostgreSQL, `settings.database`) with its state in the backup: its record,
/// its log and its index keys, in one transaction. The backup must be of the
/// same store. In the same transaction, the ratings of the game's kind are
/// recomputed from the rated games in the order they ended ([`Rerate`]): the
/// restored game counts once if it is finished and rated, not at all if it
/// is not finished.
pub fn restore_game_with(
    file: &Path,
    data_dir: &Path,
    id: u64,
    settings: &StoreSettings,
) -> Result<GameRestored, String> {
    // The whole file is read for its integrity (gzip's CRC, the lines, the
    // counts), but only this game must load: restoring one game should not
    // need every other game of the backup to.
    let mut found = None;
    let (mut games, mut keys, mut tree_keys) = (0, 0, 0);
    let (header, end) = read_lines(file, |line| {
        match line {
            Line::Game(g) => {
                games += 1;
                if g.id == id {
                    found = Some(check_game(&g)?);
                }
            }
            Line::Key(_) => keys += 1,
            Line::Tree(_) => tree_keys += 1,
            Line::Header(_) | Line::End(_) => {}
        }
        Ok(())
    })?;
    if (games, keys, tree_keys) != (end.games, end.keys, end.tree_keys) {
        return Err(format!(
            "{}: the counts at its end do not match",
            file.display()
        ));
    }
    let items = found.ok_or_else(|| format!("{} holds no game #{id}", file.display()))?;
    let store = Store::open_with(data_dir, settings).map_err(store_err)?;
    let identity = store.identity().map_err(store_err)?;
    if identity != header.identity {
        return Err(format!(
            "{} is a backup of store {:016x}, not of this folder's store {identity:016x}",
            file.display(),
            header.identity
        ));
    }
    let kv = store.kv();
    // Everything of the game as stored now, readable or not.
    let old = raw::keys_of_game(kv, id).map_err(store_err)?;
    let rec = decode_game(&items[0].1)?;
    // The ratings of its kind, and of the kind the live store rated it as (the same
    // game, so the same kind, unless the live record is not the game's).
    let mut kinds = vec![rec.kind];
    kinds.extend(store.rated_game(id).ok().flatten().map(|g| g.kind));
    let rerate = Rerate::plan(kv, kinds)
        .map_err(|e| format!("the ratings cannot be recomputed, so nothing was restored: {e}"))?;
    let restored_rated = restored_rating(&rec, &items)?;
    let mut rated = 0;
    let generation = transaction(kv, |tx| {
        for k in &old {
            tx.remove(MAIN, k)?;
        }
        for (k, v) in &items {
            tx.insert(MAIN, k, v)?;
        }
        for k in raw::index_keys(&rec) {
            tx.insert(MAIN, &k, &[])?;
        }
        let (next_key, after) = next_game_item(id + 1);
        let next = tx
            .get(MAIN, &next_key)?
            .and_then(|b| raw::number(&b))
            .unwrap_or(1);
        if next <= id {
            tx.insert(MAIN, &next_key, &after)?;
        }
        rated = rerate.run(tx, id, restored_rated.as_ref())?;
        // A game write like any other: the marker's generation moves on.
        tx.bump_generation()
    })
    .map_err(store_err)?;
    store.noted(Some(id), Some(generation));
    Ok(GameRestored {
        kinds: rerate.kinds.iter().copied().collect(),
        rated,
    })
}

/// The restored game's rated result as its record and log in the backup give
/// (`None`: not rated), worked out before the restore's transaction so that
/// the store only counts it. A finished rated game whose log in the backup is
/// incomplete or does not read stops the restore: its result would otherwise
/// quietly leave everyone's rating.
fn restored_rating(rec: &GameRecord, items: &[RawItem]) -> Result<Option<RatedGame>, String> {
    if rec.phase != Phase::Finished || rec.rated != Some(true) {
        return Ok(None);
    }
    let mut log = Vec::new();
    let of_game = |k: &[u8]| matches!(Key::of(k), Key::Log { game, .. } if game == rec.id);
    for (_, v) in items.iter().filter(|(k, _)| of_game(k)) {
        let entry = decode_log(v).map_err(|e| {
            format!(
                "game #{}: a log entry in the backup does not read: {e}",
                rec.id
            )
        })?;
        log.push(entry);
    }
    log.sort_by_key(|e| e.seq);
    let whole =
        log.len() as u64 == rec.log_len && log.iter().enumerate().all(|(i, e)| e.seq == i as u64);
    if !whole {
        return Err(format!(
            "game #{} has not all its log entries in the backup, so its rating cannot be worked out; nothing was restored",
            rec.id
        ));
    }
    match RatedGame::of(rec, &log) {
        Ok(g) => Ok(Some(g)),
        Err(why) => {
            tracing::info!(game = rec.id, why, "restored game not rated");
            Ok(None)
        }
    }
}
