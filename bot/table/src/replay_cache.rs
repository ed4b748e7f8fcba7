//! The replays of finished games, kept in memory once drawn.
//!
//! A finished game's replay never changes, and drawing it is the most expensive answer the
//! table gives: an 880-action game took 1.1 s and 5.6 MB each time it was asked. A replay is
//! drawn once and then served from here.
//!
//! Why in memory and not in the store: a replay is derived data, drawn again from the stored
//! log whenever it is missing, so losing it at a restart loses nothing; storing it would put
//! megabytes of GIF beside each game's record in every backup, check and restore (and in every
//! PostgreSQL row copy), for an answer that is cheap after the first ask anyway. The cache is
//! bounded by bytes ([`CACHE_BYTES`]), least recently used replays leaving first, and the key
//! holds the record's version and log length, so a game changed in any way (or a store
//! replaced under the process) is never answered from an older picture.
//!
//! The bound and the eviction are mini-moka's (already in the build through serenity's cache),
//! a small concurrent cache with a weigher, rather than a hand-written LRU.

use mini_moka::sync::Cache;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The most bytes of GIF kept: about a dozen replays of the longest games, or hundreds of
/// ordinary ones, a small part of the memory Tokar budgets (docs/bench/memory.md).
pub const CACHE_BYTES: u64 = 64 * 1024 * 1024;

/// Which replay: the game, its record's version and its log's length when drawn.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub(super) struct ReplayKey {
    pub game: u64,
    pub version: u64,
    pub log_len: u64,
}

/// A drawn replay and the words that go with it.
#[derive(Debug)]
pub(super) struct CachedReplay {
    pub gif: Vec<u8>,
    pub content: String,
}

/// The cache, and how often it answered, for the operator and for tests.
pub(super) struct ReplayCache {
    cache: Cache<ReplayKey, Arc<CachedReplay>>,
    hits: AtomicU64,
    drawn: AtomicU64,
}

/// How often `/replay` was answered from the cache, and how often a replay was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayCacheStats {
    pub hits: u64,
    pub drawn: u64,
}

impl Default for ReplayCache {
    fn default() -> Self {
        ReplayCache {
            cache: Cache::builder()
                .max_capacity(CACHE_BYTES)
                .weigher(|_, v: &Arc<CachedReplay>| {
                    u32::try_from(v.gif.len() + v.content.len()).unwrap_or(u32::MAX)
                })
                .build(),
            hits: AtomicU64::new(0),
            drawn: AtomicU64::new(0),
        }
    }
}

impl ReplayCache {
    pub fn get(&self, key: &ReplayKey) -> Option<Arc<CachedReplay>> {
        let found = self.cache.get(key);
        if found.is_some() {
            self.hits.fetch_add(1, Ordering::Relaxed);
            crate::metrics::replay_cache_hit();
        }
        found
    }

    /// Counts a replay drawn, and keeps it when it is a finished game's (`key`).
    pub fn drawn(&self, key: Option<ReplayKey>, replay: &Arc<CachedReplay>) {
        self.drawn.fetch_add(1, Ordering::Relaxed);
        crate::metrics::replay_drawn();
        if let Some(key) = key {
            self.cache.insert(key, replay.clone());
        }
    }

    pub fn stats(&self) -> ReplayCacheStats {
        ReplayCacheStats {
            hits: self.hits.load(Ordering::Relaxed),
            drawn: self.drawn.load(Ordering::Relaxed),
        }
    }

    pub fn clear(&self) {
        self.cache.invalidate_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mini_moka::sync::ConcurrentCacheExt;

    fn key(game: u64) -> ReplayKey {
        ReplayKey {
            game,
            version: 3,
            log_len: 880,
        }
    }

    #[test]
    fn a_kept_replay_is_found_by_its_exact_key_and_the_cache_stays_bounded() {
        let c = ReplayCache::default();
        let big = Arc::new(CachedReplay {
            gif: vec![0; 5_600_000],
            content: "Game #1 replayed".into(),
        });
        c.drawn(Some(key(1)), &big);
        assert!(c.get(&key(1)).is_some());
        assert!(
            c.get(&ReplayKey {
                version: 4,
                ..key(1)
            })
            .is_none(),
            "changed since"
        );
        assert!(c
            .get(&ReplayKey {
                log_len: 881,
                ..key(1)
            })
            .is_none());
        c.drawn(None, &big);
        assert_eq!(c.stats(), ReplayCacheStats { hits: 1, drawn: 2 });
        for g in 2..40 {
            c.drawn(Some(key(g)), &big);
        }
        c.cache.sync();
        assert!(
            c.cache.weighted_size() <= CACHE_BYTES,
            "{} bytes kept",
            c.cache.weighted_size()
        );
    }
}
