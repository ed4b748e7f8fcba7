//! Reading a backup back: the whole store into an empty folder, or one game
//! into a live (stopped) store.
//!
//! A restore reads the file twice: first to verify all of it (the format,
//! every game's checksum, that every game's record and log load and replay,
//! the counts at the end), then to write. A backup that fails the first pass
//! changes nothing, and neither pass holds the whole file in memory.
//! Both formats are read: format 1 as one without named trees.

use super::{checksum, trees, verify_game, End, GameItems, Header, Line, FORMAT};
use crate::record::decode_game;
use crate::storage::{
    game_of_key, index_keys, log_prefix, RawItem, Store, StoreError, StoreSettings,
};
use std::io::BufRead;
use std::path::Path;

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
/// ends without them).
fn read_lines(
    file: &Path,
    mut each: impl FnMut(Line) -> Result<(), String>,
) -> Result<(Header, End), String> {
    let f =
        std::fs::File::open(file).map_err(|e| format!("cannot open {}: {e}", file.display()))?;
    let reader = std::io::BufReader::new(flate2::read::GzDecoder::new(f));
    let mut header = None;
    let mut end = None;
    for (n, text) in reader.lines().enumerate() {
        let text = text.map_err(|e| {
            format!(
                "{} is not a readable Tokar backup (line {}): {e}",
                file.display(),
                n + 1
            )
        })?;
        if end.is_some() {
            return Err(format!("{}: lines after the end", file.display()));
        }
        if header.is_none() {
            header = Some(read_header(&text).map_err(|e| format!("{}: {e}", file.display()))?);
            continue;
        }
        let line: Line = serde_json::from_str(&text)
            .map_err(|e| format!("{}: line {} unreadable: {e}", file.display(), n + 1))?;
        match line {
            Line::Header(_) => return Err(format!("{}: a second header", file.display())),
            Line::Tree(_) if header.as_ref().is_some_and(|h| h.format < 2) => {
                return Err(format!(
                    "{}: line {}: a named tree in a format-1 backup",
                    file.display(),
                    n + 1
                ))
            }
            Line::End(e) => end = Some(e),
            other => each(other)?,
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
/// counts.
pub fn verify(file: &Path) -> Result<(Header, End), String> {
    let (mut games, mut keys, mut tree_keys) = (0, 0, 0);
    let (header, end) = read_lines(file, |line| {
        match line {
            Line::Game(g) => {
                check_game(&g)?;
                games += 1;
            }
            Line::Key(item) => {
                item.raw()?;
                keys += 1;
            }
            Line::Tree(t) => {
                if t.tree.is_empty() || t.tree == DEFAULT_TREE {
                    return Err(format!("a key of a tree named {:?}", t.tree));
                }
                t.item.raw()?;
                tree_keys += 1;
            }
            Line::Header(_) | Line::End(_) => {}
        }
        Ok(())
    })?;
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

/// sled's name for its default tree, which a backup holds as plain keys.
const DEFAULT_TREE: &str = "__sled__default";

fn store_err(e: StoreError) -> String {
    e.to_string()
}

/// Restores a whole backup into `data_dir`, whose store must be absent or
/// empty. Verifies first; writes the folder's marker last.
pub fn restore_all(file: &Path, data_dir: &Path) -> Result<Restored, String> {
    let (header, end) = verify(file)?;
    std::fs::create_dir_all(data_dir)
        .map_err(|e| format!("cannot create {}: {e}", data_dir.display()))?;
    let store = Store::open_for_restore(data_dir).map_err(store_err)?;
    let db = &store.db().map_err(store_err)?;
    // Only the keys an unused store may have: its identity and counter.
    for k in db.iter().keys() {
        let k = k.map_err(|e| store_err(e.into()))?;
        if k.as_ref() != crate::storage::IDENTITY_KEY && k.as_ref() != crate::storage::NEXT_GAME_KEY
        {
            return Err(format!(
                "the store in {} is not empty: a backup is restored only into an empty data folder \
                 (or restore one game with --game N)",
                data_dir.display()
            ));
        }
    }
    for (name, tree) in trees::named(db).map_err(store_err)? {
        if !tree.is_empty() {
            return Err(format!(
                "the store in {} is not empty (its tree {name} has keys): a backup is restored \
                 only into an empty data folder",
                data_dir.display()
            ));
        }
    }
    let mut max_id = 0;
    let mut restored_games = 0;
    let mut restored_tree_keys = 0;
    read_lines(file, |line| {
        let mut batch = sled::Batch::default();
        match line {
            Line::Game(g) => {
                let items = raw_items(&g)?;
                let rec = decode_game(&items[0].1)?;
                for (k, v) in &items {
                    batch.insert(k.as_slice(), v.as_slice());
                }
                for k in index_keys(&rec) {
                    batch.insert(k, &[][..]);
                }
                max_id = max_id.max(g.id);
                restored_games += 1;
            }
            Line::Key(item) => {
                let (k, v) = item.raw()?;
                batch.insert(k, v);
            }
            Line::Tree(t) => {
                if !trees::valid_name(db, &t.tree) {
                    return Err(format!("a key of a tree named {:?}", t.tree));
                }
                let (k, v) = t.item.raw()?;
                let tree = db.open_tree(&t.tree).map_err(|e| store_err(e.into()))?;
                tree.insert(k, v).map_err(|e| store_err(e.into()))?;
                restored_tree_keys += 1;
            }
            Line::Header(_) | Line::End(_) => {}
        }
        db.apply_batch(batch).map_err(|e| store_err(e.into()))
    })?;
    let next = db
        .get(crate::storage::NEXT_GAME_KEY)
        .map_err(|e| store_err(e.into()))?
        .and_then(|b| crate::storage::be_u64(&b))
        .unwrap_or(1)
        .max(header.next_game)
        .max(max_id + 1);
    db.insert(crate::storage::NEXT_GAME_KEY, &next.to_be_bytes())
        .map_err(|e| store_err(e.into()))?;
    db.flush().map_err(|e| store_err(e.into()))?;
    let stored = db
        .scan_prefix([b'g'])
        .keys()
        .filter(|k| matches!(k, Ok(k) if k.len() == 9))
        .count() as u64;
    if stored != end.games || restored_games != end.games {
        return Err(format!(
            "the restored store holds {stored} game(s), the backup {}",
            end.games
        ));
    }
    let stored_tree_keys: u64 = trees::named(db)
        .map_err(store_err)?
        .iter()
        .map(|(_, t)| t.len() as u64)
        .sum();
    if stored_tree_keys != end.tree_keys || restored_tree_keys != end.tree_keys {
        return Err(format!(
            "the restored store holds {stored_tree_keys} key(s) in named trees, the backup {}",
            end.tree_keys
        ));
    }
    if store.identity().map_err(store_err)? != header.identity {
        return Err("the restored store's identity is not the backup's".into());
    }
    store.write_marker()?;
    Ok(Restored {
        identity: header.identity,
        games: end.games,
        keys: end.keys,
        tree_keys: end.tree_keys,
    })
}

/// Replaces game `id` of the store in `data_dir` (Tokar stopped) with its
/// state in the backup: its record, its log and its index keys, in one
/// atomic batch. The backup must be of the same store.
pub fn restore_game(file: &Path, data_dir: &Path, id: u64) -> Result<(), String> {
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
    let store = Store::open_with(data_dir, &StoreSettings::default()).map_err(store_err)?;
    let identity = store.identity().map_err(store_err)?;
    if identity != header.identity {
        return Err(format!(
            "{} is a backup of store {:016x}, not of this folder's store {identity:016x}",
            file.display(),
            header.identity
        ));
    }
    let db = &store.db().map_err(store_err)?;
    let mut batch = sled::Batch::default();
    // Everything of the game as stored now, readable or not.
    for prefix in [&[b'g'][..], &log_prefix(id)[..], b"s", b"m", b"c"] {
        for k in db.scan_prefix(prefix).keys() {
            let k = k.map_err(|e| store_err(e.into()))?;
            if game_of_key(&k) == Some(id) {
                batch.remove(k);
            }
        }
    }
    let rec = decode_game(&items[0].1)?;
    for (k, v) in &items {
        batch.insert(k.as_slice(), v.as_slice());
    }
    for k in index_keys(&rec) {
        batch.insert(k, &[][..]);
    }
    db.apply_batch(batch).map_err(|e| store_err(e.into()))?;
    let next = db
        .get(crate::storage::NEXT_GAME_KEY)
        .map_err(|e| store_err(e.into()))?
        .and_then(|b| crate::storage::be_u64(&b))
        .unwrap_or(1);
    if next <= id {
        db.insert(crate::storage::NEXT_GAME_KEY, &(id + 1).to_be_bytes())
            .map_err(|e| store_err(e.into()))?;
    }
    db.flush().map_err(|e| store_err(e.into()))?;
    Ok(())
}
