//! The stored bytes, for the operator's tools (`tokar check`, `backup`,
//! `restore`, `migrate`): keys read as what they hold, the spans of the main
//! keyspace where each kind lives, and the reads and writes below the
//! store's records.
//!
//! The tools read every key, damaged or not, so they cannot go through the
//! typed views of [`Store`](crate::Store), which refuse what does not
//! decode; but the key layout stays the store's (`lib.rs`): a tool learns
//! what a key holds from [`Key::of`] and reads a kind of key through a
//! [`Span`], never from the bytes. The database is reached only through
//! [`Kv`] (its raw methods, [`Kv::walk`], [`Kv::tree_names`],
//! [`Kv::read_tree`], [`Kv::load`]), so that the tools work on any database
//! the store does. The defaults of those methods are here, for a database
//! that holds only the keyspaces this build knows (PostgreSQL); sled,
//! which keeps whatever trees a later Tokar made, has its own
//! (`sled_kv/raw.rs`).

use crate::kv::{Kv, Tree, GENERATION, MAIN, MARKED, NAMED};
use crate::{key, tail_u64, RawItem, StoreError, CONSOLE_NAME, IDENTITY, NEXT_GAME};
use tokar_model::record::GameRecord;

/// What a key of the main keyspace holds, as read from its bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// A game's record.
    Game(u64),
    /// One of a game's log entries.
    Log { game: u64, seq: u64 },
    /// The schedule: `game` waits for time `due`.
    Schedule { due: u64, game: u64 },
    /// The index of a user's games.
    UserGame { user: u64, game: u64 },
    /// The index of a channel's games.
    ChannelGame { channel: u64, game: u64 },
    /// A user's record.
    User(u64),
    /// An outbox entry.
    Entry(u64),
    /// The `n`-th picture of an outbox entry, stored as bytes.
    Picture { entry: u64, n: u64 },
    /// A console name; `text`: it has a kind and a name in UTF-8.
    ConsoleName { text: bool },
    /// The next game number.
    NextGame,
    /// The store's identity.
    Identity,
    /// Anything else: ratings, leases, claims, the database's own counters,
    /// a later version's keys, or a damaged key of one of the kinds above.
    Other,
}

impl Key {
    /// What `k` holds.
    pub fn of(k: &[u8]) -> Key {
        let at = |i: usize| tail_u64(&k[..i]);
        match (k.first(), k.len()) {
            _ if k == NEXT_GAME => Key::NextGame,
            _ if k == IDENTITY => Key::Identity,
            (Some(b'g'), 9) => Key::Game(at(9)),
            (Some(b'l'), 17) => Key::Log {
                game: at(9),
                seq: at(17),
            },
            (Some(b's'), 17) => Key::Schedule {
                due: at(9),
                game: at(17),
            },
            (Some(b'm'), 17) => Key::UserGame {
                user: at(9),
                game: at(17),
            },
            (Some(b'c'), 17) => Key::ChannelGame {
                channel: at(9),
                game: at(17),
            },
            (Some(b'u'), 9) => Key::User(at(9)),
            (Some(b'o'), 9) => Key::Entry(at(9)),
            (Some(b'p'), 17) => Key::Picture {
                entry: at(9),
                n: at(17),
            },
            (Some(&CONSOLE_NAME), _) => Key::ConsoleName {
                text: k.len() >= 3 && std::str::from_utf8(&k[2..]).is_ok(),
            },
            _ => Key::Other,
        }
    }

    /// The key's bytes (`None` for [`Key::ConsoleName`] and [`Key::Other`],
    /// which a kind alone does not name).
    pub fn bytes(&self) -> Option<Vec<u8>> {
        Some(match *self {
            Key::Game(id) => key(b'g', &[id]),
            Key::Log { game, seq } => key(b'l', &[game, seq]),
            Key::Schedule { due, game } => key(b's', &[due, game]),
            Key::UserGame { user, game } => key(b'm', &[user, game]),
            Key::ChannelGame { channel, game } => key(b'c', &[channel, game]),
            Key::User(id) => key(b'u', &[id]),
            Key::Entry(id) => key(b'o', &[id]),
            Key::Picture { entry, n } => key(b'p', &[entry, n]),
            Key::NextGame => NEXT_GAME.to_vec(),
            Key::Identity => IDENTITY.to_vec(),
            Key::ConsoleName { .. } | Key::Other => return None,
        })
    }

    /// The game a record's, log entry's or index key belongs to.
    pub fn game(&self) -> Option<u64> {
        match *self {
            Key::Game(game)
            | Key::Log { game, .. }
            | Key::Schedule { game, .. }
            | Key::UserGame { game, .. }
            | Key::ChannelGame { game, .. } => Some(game),
            _ => None,
        }
    }

    /// Whether the key is an index derived from the game records (schedule,
    /// games of a user, of a channel): rebuilt from the records, never copied.
    pub fn is_index(&self) -> bool {
        matches!(
            self,
            Key::Schedule { .. } | Key::UserGame { .. } | Key::ChannelGame { .. }
        )
    }
}

/// Game `id`'s record key.
pub fn game_key(id: u64) -> Vec<u8> {
    key(b'g', &[id])
}

/// Whether `k` lies where games are kept: the records' and logs' spaces
/// (any key there, well formed or not) and the index keys.
pub fn belongs_to_games(k: &[u8]) -> bool {
    matches!(k.first(), Some(b'g' | b'l')) || Key::of(k).is_index()
}

/// The outbox id of an entry's or a picture's key (its first eight bytes
/// after the prefix, however long the key): a store moved or restored
/// numbers its new entries after every one it holds.
pub fn entry_of(k: &[u8]) -> Option<u64> {
    (matches!(k.first(), Some(b'o' | b'p')) && k.len() >= 9).then(|| tail_u64(&k[..9]))
}

/// Whether `name` may name a keyspace in a backup: not the main one, which
/// has no name, nor sled's own name for it (`__sled__default`), whose keys a
/// backup holds as plain keys.
pub fn valid_tree_name(name: &str) -> bool {
    !name.is_empty() && name != "__sled__default"
}

/// A stored number: big-endian in the last eight bytes (`None`: shorter).
pub fn number(b: &[u8]) -> Option<u64> {
    crate::be_u64(b)
}

/// A span of the main keyspace where one kind of key lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    start: Vec<u8>,
    /// Excluded; `None`: to the last key.
    end: Option<Vec<u8>>,
}

impl Span {
    fn prefix(p: Vec<u8>) -> Span {
        Span {
            end: crate::kv::prefix_end(&p),
            start: p,
        }
    }

    /// Every key of the game records' space (well formed or not).
    pub fn games() -> Span {
        Span::prefix(vec![b'g'])
    }

    /// Every key of the logs' space (well formed or not).
    pub fn logs() -> Span {
        Span::prefix(vec![b'l'])
    }

    /// Game `id`'s log entries.
    pub fn log_of(id: u64) -> Span {
        Span::prefix(key(b'l', &[id]))
    }

    /// The whole main keyspace.
    pub fn all() -> Span {
        Span {
            start: Vec::new(),
            end: None,
        }
    }

    /// The main keyspace but the games' records and logs, in key order.
    pub fn outside_games() -> [Span; 3] {
        let span = |start: &[u8], end: Option<&[u8]>| Span {
            start: start.to_vec(),
            end: end.map(<[u8]>::to_vec),
        };
        [
            span(b"", Some(b"g")),
            span(b"h", Some(b"l")),
            span(b"m", None),
        ]
    }

    /// Calls `each` with every key and value of the span in the main
    /// keyspace, in key order, until it says `false` (see [`Kv::walk`]).
    pub fn walk(
        &self,
        kv: &dyn Kv,
        each: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    ) -> Result<(), StoreError> {
        kv.walk(MAIN, &self.start, self.end.as_deref(), each)
    }

    /// Every key and value of the span, in key order.
    pub fn items(&self, kv: &dyn Kv) -> Result<Vec<RawItem>, StoreError> {
        kv.range(MAIN, &self.start, self.end.as_deref(), usize::MAX)
    }

    /// The span's keys, in key order.
    pub fn keys(&self, kv: &dyn Kv) -> Result<Vec<Vec<u8>>, StoreError> {
        kv.range_keys(MAIN, &self.start, self.end.as_deref(), usize::MAX)
    }
}

/// Game `id`'s items as stored: its record (if any), then its log entries.
pub fn game_items(kv: &dyn Kv, id: u64) -> Result<Vec<RawItem>, StoreError> {
    let mut out = Vec::new();
    if let Some(v) = kv.get(MAIN, &game_key(id))? {
        out.push((game_key(id), v));
    }
    out.extend(Span::log_of(id).items(kv)?);
    Ok(out)
}

/// Every key of game `id` as stored now, readable or not: its record, its
/// log entries and its index keys.
pub fn keys_of_game(kv: &dyn Kv, id: u64) -> Result<Vec<Vec<u8>>, StoreError> {
    let mut out = Vec::new();
    for prefix in [&game_key(id)[..], &key(b'l', &[id])[..], b"s", b"m", b"c"] {
        for k in kv.keys(MAIN, prefix)? {
            if Key::of(&k).game() == Some(id) {
                out.push(k);
            }
        }
    }
    Ok(out)
}

/// The index keys a game record implies (its schedule entry, the user and
/// channel indexes), which a restore writes with the record.
pub fn index_keys(rec: &GameRecord) -> Vec<Vec<u8>> {
    crate::index_keys(rec)
}

/// Whether a database holds nothing but what an unused store has (its
/// identity, game counter, generation and marked flag).
pub fn unused(kv: &dyn Kv) -> Result<bool, StoreError> {
    // Four keys are allowed: a fifth key shows the store is used.
    for k in kv.range_keys(MAIN, &[], None, 5)? {
        if ![IDENTITY, NEXT_GAME, GENERATION, MARKED].contains(&k.as_slice()) {
            return Ok(false);
        }
    }
    for tree in NAMED {
        if !kv.range_keys(tree, &[], None, 1)?.is_empty() {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether a main key belongs to one database rather than to the store's
/// contents (the generation, the marked flag): a backup leaves it out, a
/// restored or moved store starts its own.
pub fn own_to_database(k: &[u8]) -> bool {
    k == GENERATION || k == MARKED
}

/// Keys read at a time by the default [`Kv::walk`]: one page in memory.
const PAGE: usize = 1000;

/// The keyspace named `name` among those this build knows.
fn known(name: &str) -> Result<Tree, StoreError> {
    if name == MAIN {
        return Ok(MAIN);
    }
    NAMED
        .iter()
        .find(|n| **n == name)
        .copied()
        .ok_or_else(|| StoreError::Database(format!("no keyspace named {name:?}")))
}

/// [`Kv::tree_names`] of a database holding the known keyspaces only.
pub(crate) fn known_names() -> Vec<String> {
    let mut names: Vec<String> = NAMED.iter().map(|n| n.to_string()).collect();
    names.sort();
    names
}

/// [`Kv::walk`] a page at a time through [`Kv::range`].
pub(crate) fn walk_pages<K: Kv + ?Sized>(
    kv: &K,
    tree: &str,
    start: &[u8],
    end: Option<&[u8]>,
    each: &mut dyn FnMut(&[u8], &[u8]) -> bool,
) -> Result<(), StoreError> {
    let tree = known(tree)?;
    let mut from = start.to_vec();
    loop {
        let page = kv.range(tree, &from, end, PAGE)?;
        let full = page.len() == PAGE;
        let Some(last) = page.last().map(|(k, _)| k.clone()) else {
            return Ok(());
        };
        for (k, v) in &page {
            if !each(k, v) {
                return Ok(());
            }
        }
        if !full {
            return Ok(());
        }
        // The first key after `last`.
        from = last;
        from.push(0);
    }
}

/// [`Kv::read_tree`] in one read.
pub(crate) fn read_known<K: Kv + ?Sized>(kv: &K, tree: &str) -> Result<Vec<RawItem>, StoreError> {
    kv.range(known(tree)?, &[], None, usize::MAX)
}

/// [`Kv::load`] as one transaction.
pub(crate) fn load_in_transaction<K: Kv + ?Sized>(
    kv: &K,
    tree: &str,
    items: &[RawItem],
) -> Result<(), StoreError> {
    let tree = known(tree)?;
    kv.transact(&mut |tx| items.iter().try_for_each(|(k, v)| tx.insert(tree, k, v)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_kind_reads_back_as_written() {
        let kinds = [
            Key::Game(7),
            Key::Log { game: 7, seq: 3 },
            Key::Schedule { due: 99, game: 7 },
            Key::UserGame { user: 5, game: 7 },
            Key::ChannelGame {
                channel: 6,
                game: 7,
            },
            Key::User(5),
            Key::Entry(11),
            Key::Picture { entry: 11, n: 1 },
            Key::NextGame,
            Key::Identity,
        ];
        for kind in kinds {
            let k = kind.bytes().unwrap();
            assert_eq!(Key::of(&k), kind, "{k:?}");
        }
        assert_eq!(Key::of(b"gx"), Key::Other);
        assert!(belongs_to_games(b"gx"));
        assert!(!belongs_to_games(&Key::User(1).bytes().unwrap()));
        assert_eq!(Key::of(b"Nuana"), Key::ConsoleName { text: true });
        assert_eq!(Key::of(b"Nu"), Key::ConsoleName { text: false });
        assert_eq!(
            entry_of(&Key::Picture { entry: 4, n: 2 }.bytes().unwrap()),
            Some(4)
        );
        assert_eq!(number(&[0, 0, 0, 0, 0, 0, 1, 2]), Some(258));
        assert_eq!(number(&[1]), None);
    }

    fn sled() -> crate::kv::SledKv {
        let db = sled::Config::new().temporary(true).open().unwrap();
        crate::kv::SledKv::new(db, "test".into()).unwrap()
    }

    fn numbered(n: u64) -> Vec<RawItem> {
        (0..n)
            .map(|i| (key(b'o', &[i]), i.to_be_bytes().to_vec()))
            .collect()
    }

    /// The default walk (a page at a time, PostgreSQL's) and sled's own give
    /// the same keys, across pages, in a range, and stop when told.
    #[test]
    fn a_walk_gives_every_key_once_in_order_and_stops_when_told() {
        let kv = sled();
        let items = numbered(2 * PAGE as u64 + 7);
        kv.load(MAIN, &items).unwrap();
        kv.sync().unwrap();
        let walked = |paged: bool, start: &[u8], end: Option<&[u8]>, stop: usize| {
            let mut out = Vec::new();
            let mut each = |k: &[u8], v: &[u8]| {
                out.push((k.to_vec(), v.to_vec()));
                out.len() < stop
            };
            if paged {
                walk_pages(&kv, MAIN, start, end, &mut each).unwrap();
            } else {
                kv.walk(MAIN, start, end, &mut each).unwrap();
            }
            out
        };
        for paged in [true, false] {
            assert_eq!(walked(paged, b"", None, usize::MAX), items);
            let (from, to) = (key(b'o', &[999]), key(b'o', &[1001]));
            assert_eq!(
                walked(paged, &from, Some(&to), usize::MAX),
                items[999..1001]
            );
            assert_eq!(walked(paged, b"", None, 3), items[..3]);
        }
    }

    /// sled lists and reads a tree this build does not know (a later
    /// Tokar's), and refuses its own name for the main one.
    #[test]
    fn every_named_tree_is_listed_and_read_whole() {
        let kv = sled();
        kv.load("leagues", &[(b"next-league".to_vec(), vec![0; 8])])
            .unwrap();
        kv.load(
            "later",
            &[
                (b"b".to_vec(), b"2".to_vec()),
                (b"a".to_vec(), b"1".to_vec()),
            ],
        )
        .unwrap();
        assert_eq!(
            kv.tree_names().unwrap(),
            ["events", "later", "leagues", "servers"]
        );
        assert_eq!(
            kv.read_tree("later").unwrap(),
            [
                (b"a".to_vec(), b"1".to_vec()),
                (b"b".to_vec(), b"2".to_vec())
            ]
        );
        assert!(kv.load("__sled__default", &[]).is_err());
        assert!(!valid_tree_name("__sled__default") && !valid_tree_name(""));
        // A database that keeps the known keyspaces only (PostgreSQL) reads
        // those, and says so of another.
        assert_eq!(known_names(), ["events", "leagues", "servers"]);
        assert!(read_known(&kv, "later").is_err());
        assert_eq!(read_known(&kv, "leagues").unwrap().len(), 1);
    }

    #[test]
    fn a_store_with_only_its_counters_is_unused() {
        let kv = sled();
        kv.load(
            MAIN,
            &[
                (IDENTITY.to_vec(), vec![0; 8]),
                (NEXT_GAME.to_vec(), vec![0; 8]),
            ],
        )
        .unwrap();
        assert!(unused(&kv).unwrap());
        kv.load("servers", &[(vec![0; 8], b"{}".to_vec())]).unwrap();
        assert!(!unused(&kv).unwrap());
    }

    #[test]
    fn the_spans_outside_games_miss_exactly_the_records_and_logs() {
        let inside =
            |s: &Span, k: &[u8]| k >= &s.start[..] && s.end.as_deref().is_none_or(|e| k < e);
        for k in [&b"g\x01"[..], b"l\x00", b"g", b"l"] {
            assert!(Span::outside_games().iter().all(|s| !inside(s, k)), "{k:?}");
        }
        for k in [&b"c\x01"[..], b"h", b"m", b"next-game", b"u"] {
            assert_eq!(
                Span::outside_games()
                    .iter()
                    .filter(|s| inside(s, k))
                    .count(),
                1,
                "{k:?}"
            );
        }
    }
}
