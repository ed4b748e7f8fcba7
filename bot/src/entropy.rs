//! Numbers nobody can predict, for the store's identity and the seeds of games. std's
//! `RandomState` is keyed from the operating system's randomness (afresh for each one), which
//! is all Tokar needs; the parts mixed in (a time, the process, a game) keep two draws apart
//! even where that keying is weak. A random-number crate would add nothing here.

use std::hash::{BuildHasher, Hasher};

/// A fresh unpredictable number, mixed with `parts`.
pub fn fresh(parts: &[u64]) -> u64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    for &p in parts {
        h.write_u64(p);
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    #[test]
    fn two_draws_differ() {
        assert_ne!(super::fresh(&[1]), super::fresh(&[1]));
    }
}
