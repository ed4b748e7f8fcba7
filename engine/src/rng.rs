//! The game's own random number generator.
//!
//! Dice and shuffles are part of a game's state so that a game replays exactly
//! from its seed and action log. The algorithm is written here (SplitMix64)
//! rather than taken from a crate, so that its stream can never change under a
//! dependency upgrade: a game stored today must roll the same dice in ten years.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..n` (`n > 0`), without modulo bias.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below(0)");
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }

    /// One roll of a die with `sides` faces: `1..=sides`.
    pub fn die(&mut self, sides: u8) -> u8 {
        self.below(sides as u64) as u8 + 1
    }

    /// `count` dice of `sides` faces.
    pub fn dice(&mut self, count: usize, sides: u8) -> Vec<u8> {
        (0..count).map(|_| self.die(sides)).collect()
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_fixed_forever() {
        // Stored games depend on these exact numbers; never change them.
        let mut r = Rng::new(42);
        assert_eq!(r.next_u64(), 0xBDD7_3226_2FEB_6E95);
        assert_eq!(r.dice(6, 6), vec![2, 1, 1, 5, 1, 2]);
    }

    #[test]
    fn dice_stay_in_range() {
        let mut r = Rng::new(7);
        let mut seen = [0u32; 9];
        for _ in 0..8000 {
            seen[r.die(8) as usize] += 1;
        }
        assert_eq!(seen[0], 0);
        assert!(seen[1..].iter().all(|&n| n > 800), "{seen:?}");
    }
}
