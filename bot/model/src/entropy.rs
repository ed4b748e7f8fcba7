//! Numbers nobody can predict: every game's seed, the seeds of records' re-seeds (ruling
//! T13), the store's identity and this process's own draws, all from the operating system's
//! randomness through the `getrandom` crate (the kept, audited interface to `getrandom(2)`
//! and its equivalents). Each game's seed is 256 bits drawn for that game alone: it owes
//! nothing to the time, the game's number, another game's seed or a number kept by the
//! process, so that a seed shown once a game ends (`/export`) says nothing of any other
//! game (engine/rules/chance.md has the whole argument).
//!
//! `--seed N` (the console and tests only) replaces the draws by [`derived`] seeds, which
//! anyone who knows N can compute: never for real play, and refused in the Discord mode.

use std::hash::{BuildHasher, Hasher};
use tokar_engine::{Rng, Seed};

/// The operating system could not give random bytes (practically never on a running system;
/// a container without `/dev/urandom` and an old kernel could). No game is created without
/// them: the reason goes to the operator's log, the player is told nothing was done.
#[derive(Debug, thiserror::Error)]
#[error("the operating system's randomness is unavailable: {0}")]
pub struct NoRandomness(getrandom::Error);

/// What a seed derived from `--seed` is for: each purpose gets its own key, so a game's seed
/// and its record re-seed are never the same stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The seed a game is set up with.
    Game = 1,
    /// The seed a game from a record goes on with after the record's actions (T13).
    Reseed = 2,
    /// The key an old game (a SplitMix64 seed) goes on with (engine/rules/chance.md).
    Rekey = 3,
    /// A league's seed, for its lots (docs/rulings.md, T43).
    League = 4,
}

/// A new game's seed: a ChaCha20 key of 256 bits fresh from the operating system.
pub fn game_seed() -> Result<Seed, NoRandomness> {
    let mut key = [0u8; 32];
    getrandom::fill(&mut key).map_err(NoRandomness)?;
    Ok(Seed::ChaCha20(key))
}

/// The seed `--seed base` gives game `id` for `purpose`: a ChaCha20 key drawn from a
/// ChaCha20 stream keyed by the three numbers. Repeatable (the same transcript on every
/// run), and as strong as the secrecy of `base`, which is none: for tests and the console.
pub fn derived(base: u64, purpose: Purpose, id: u64) -> Seed {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&base.to_le_bytes());
    key[8..16].copy_from_slice(&(purpose as u64).to_le_bytes());
    key[16..24].copy_from_slice(&id.to_le_bytes());
    key[24..].copy_from_slice(b"tokar-sd");
    Rng::from_seed(Seed::ChaCha20(key)).draw_seed()
}

/// A fresh unpredictable 64-bit number, mixed with `parts` (the store's identity, this
/// process's own number): 64 bits from the operating system. Should the operating system
/// refuse, std's `RandomState` (itself keyed from the operating system once per thread)
/// stands in, so that this never fails; the parts keep two such draws apart.
pub fn fresh(parts: &[u64]) -> u64 {
    let mut bytes = [0u8; 8];
    let os = match getrandom::fill(&mut bytes) {
        Ok(()) => u64::from_le_bytes(bytes),
        Err(e) => {
            tracing::warn!(error = %e, "no randomness from the operating system; using std's hasher keys");
            0
        }
    };
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    for &p in parts {
        h.write_u64(p);
    }
    os ^ h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_draws_differ() {
        assert_ne!(fresh(&[1]), fresh(&[1]));
        assert_ne!(game_seed().unwrap(), game_seed().unwrap());
        assert!(matches!(game_seed().unwrap(), Seed::ChaCha20(_)));
    }

    #[test]
    fn derived_seeds_repeat_and_differ_by_game_and_purpose() {
        let a = derived(7, Purpose::Game, 1);
        assert_eq!(a, derived(7, Purpose::Game, 1));
        assert!(matches!(a, Seed::ChaCha20(_)));
        assert_ne!(a, derived(7, Purpose::Game, 2));
        assert_ne!(a, derived(8, Purpose::Game, 1));
        assert_ne!(a, derived(7, Purpose::Reseed, 1));
    }
}
