//! The game's own random number generator.
//!
//! Dice and shuffles are part of a game's state so that a game replays exactly
//! from its seed and action log: the same seed and actions must throw the same
//! dice in ten years. Two generators stand behind [`Rng`], chosen by the game's
//! [`Seed`]:
//!
//! * **ChaCha20**, for every game created today: the stream cipher ChaCha with 20
//!   rounds, keyed by the seed's 256 bits, block counter from 0, stream (nonce) 0, its
//!   output words read as `rand_chacha` 0.9.0's `ChaCha20Rng` reads them (two
//!   little-endian 32-bit words make a `u64`). It is a cryptographically strong
//!   generator: from any number of dice seen nobody can compute the key, the dice to
//!   come or the cards not shown. The crate is pinned with `=` in `Cargo.toml` so that
//!   no upgrade can change a stored game's stream; `chacha_stream_is_fixed_forever`
//!   holds its first numbers.
//! * **SplitMix64**, for games stored before ChaCha20 (their records carry a plain
//!   64-bit seed). Written here, unchanged since the first stored game, and kept only so
//!   that those games replay exactly (`the_stream_is_fixed_forever`). It is invertible
//!   and has 64 bits of state: one output gives the rest of the stream. No new game
//!   may use it; `Seed::SplitMix64` exists for old records, `--seed` test runs and the
//!   computer player's own guesses (see `search`), never for a live game's chance.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::hash::{Hash, Hasher};

/// What drives a game's chance: the generator and its key. Secret until the game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seed {
    /// The generator of games stored before ChaCha20 (records of format 1).
    SplitMix64(u64),
    /// A 256-bit ChaCha20 key: every new game's.
    ChaCha20([u8; 32]),
}

impl From<u64> for Seed {
    fn from(n: u64) -> Seed {
        Seed::SplitMix64(n)
    }
}

const CHACHA_TAG: &str = "chacha20:";

/// As written in records and exports: a SplitMix64 seed as its number (as format 1
/// wrote it), a ChaCha20 key as `chacha20:` and 64 hex digits.
impl fmt::Display for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seed::SplitMix64(n) => write!(f, "{n}"),
            Seed::ChaCha20(key) => {
                f.write_str(CHACHA_TAG)?;
                key.iter().try_for_each(|b| write!(f, "{b:02x}"))
            }
        }
    }
}

impl std::str::FromStr for Seed {
    type Err = String;

    fn from_str(s: &str) -> Result<Seed, String> {
        if let Some(hex) = s.strip_prefix(CHACHA_TAG) {
            let bytes = hex.as_bytes();
            if bytes.len() != 64 || !bytes.iter().all(u8::is_ascii_hexdigit) {
                return Err("a chacha20 seed has 64 hex digits".into());
            }
            let mut key = [0u8; 32];
            for (i, k) in key.iter_mut().enumerate() {
                *k = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16)
                    .map_err(|_| "a chacha20 seed has 64 hex digits".to_string())?;
            }
            return Ok(Seed::ChaCha20(key));
        }
        s.parse::<u64>()
            .map(Seed::SplitMix64)
            .map_err(|_| format!("'{s}' is not a seed (a number, or chacha20: and 64 hex digits)"))
    }
}

impl Serialize for Seed {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Seed::SplitMix64(n) => s.serialize_u64(*n),
            Seed::ChaCha20(_) => s.serialize_str(&self.to_string()),
        }
    }
}

impl<'de> Deserialize<'de> for Seed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Seed, D::Error> {
        struct V;
        impl de::Visitor<'_> for V {
            type Value = Seed;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a seed: a number or \"chacha20:<64 hex digits>\"")
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Seed, E> {
                Ok(Seed::SplitMix64(n))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Seed, E> {
                match s.strip_prefix(CHACHA_TAG) {
                    Some(_) => s.parse().map_err(E::custom),
                    None => Err(E::custom("a seed written as text must be chacha20:<hex>")),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// A game's generator (see the module's documentation for the two kinds).
#[derive(Clone, Debug)]
pub struct Rng(Inner);

#[derive(Clone, Debug)]
enum Inner {
    SplitMix(u64),
    ChaCha(Box<ChaCha20Rng>),
}

impl Rng {
    /// A SplitMix64 generator: the one of games stored before ChaCha20, and of the
    /// computer player's own guesses.
    pub fn new(seed: u64) -> Rng {
        Rng(Inner::SplitMix(seed))
    }

    /// The generator a seed names.
    pub fn from_seed(seed: impl Into<Seed>) -> Rng {
        match seed.into() {
            Seed::SplitMix64(n) => Rng::new(n),
            Seed::ChaCha20(key) => Rng(Inner::ChaCha(Box::new(ChaCha20Rng::from_seed(key)))),
        }
    }

    /// Whether this is the strong generator (ChaCha20).
    pub fn is_strong(&self) -> bool {
        matches!(self.0, Inner::ChaCha(_))
    }

    /// A seed of the same kind as this generator, drawn from it: the whole width of
    /// the kind (64 bits for SplitMix64, exactly what games stored before ChaCha20 drew
    /// with `next_u64`; 256 bits for ChaCha20), so that a generator derived from a
    /// strong stream is as strong as it.
    pub fn draw_seed(&mut self) -> Seed {
        match &mut self.0 {
            Inner::SplitMix(_) => Seed::SplitMix64(self.next_u64()),
            Inner::ChaCha(c) => {
                let mut key = [0u8; 32];
                c.fill_bytes(&mut key);
                Seed::ChaCha20(key)
            }
        }
    }

    /// A generator of the same kind seeded from this one ([`Rng::draw_seed`]): for
    /// SplitMix64 exactly the `Rng::new(rng.next_u64())` of games stored before ChaCha20.
    pub fn fork(&mut self) -> Rng {
        Rng::from_seed(self.draw_seed())
    }

    pub fn next_u64(&mut self) -> u64 {
        match &mut self.0 {
            Inner::SplitMix(state) => {
                *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = *state;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^ (z >> 31)
            }
            Inner::ChaCha(c) => c.next_u64(),
        }
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

    /// Where a ChaCha20 generator stands: its key and how many 32-bit words it has given.
    fn chacha_position(c: &ChaCha20Rng) -> ([u8; 32], u128) {
        (c.get_seed(), c.get_word_pos())
    }
}

impl PartialEq for Rng {
    fn eq(&self, other: &Rng) -> bool {
        match (&self.0, &other.0) {
            (Inner::SplitMix(a), Inner::SplitMix(b)) => a == b,
            (Inner::ChaCha(a), Inner::ChaCha(b)) => {
                Rng::chacha_position(a) == Rng::chacha_position(b)
            }
            _ => false,
        }
    }
}

impl Eq for Rng {}

impl Hash for Rng {
    fn hash<H: Hasher>(&self, h: &mut H) {
        match &self.0 {
            Inner::SplitMix(s) => s.hash(h),
            Inner::ChaCha(c) => Rng::chacha_position(c).hash(h),
        }
    }
}

/// The generator as stored in engine snapshots: SplitMix64 as `{"state":N}` (the shape
/// every snapshot had before ChaCha20, so old snapshots load and old games' snapshots
/// stay the same), ChaCha20 as its key and the number of 32-bit words already given
/// (`{"chacha20":"<hex>","word":N}`), from which it goes on exactly.
#[derive(Serialize, Deserialize)]
struct Stored {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    state: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    chacha20: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    word: Option<u128>,
}

impl Serialize for Rng {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let stored = match &self.0 {
            Inner::SplitMix(state) => Stored {
                state: Some(*state),
                chacha20: None,
                word: None,
            },
            Inner::ChaCha(c) => {
                let (key, word) = Rng::chacha_position(c);
                let hex = Seed::ChaCha20(key).to_string();
                Stored {
                    state: None,
                    chacha20: Some(hex[CHACHA_TAG.len()..].to_string()),
                    word: Some(word),
                }
            }
        };
        stored.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Rng {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Rng, D::Error> {
        let stored = Stored::deserialize(d)?;
        match stored {
            Stored {
                state: Some(state),
                chacha20: None,
                word: None,
            } => Ok(Rng::new(state)),
            Stored {
                state: None,
                chacha20: Some(hex),
                word: Some(word),
            } => {
                let Seed::ChaCha20(key) = format!("{CHACHA_TAG}{hex}")
                    .parse::<Seed>()
                    .map_err(de::Error::custom)?
                else {
                    return Err(de::Error::custom("a chacha20 generator needs its key"));
                };
                let mut c = ChaCha20Rng::from_seed(key);
                c.set_word_pos(word);
                Ok(Rng(Inner::ChaCha(Box::new(c))))
            }
            _ => Err(de::Error::custom(
                "a generator is {\"state\":N} or {\"chacha20\":\"<hex>\",\"word\":N}",
            )),
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

    fn key(first: u8) -> Seed {
        let mut k = [0u8; 32];
        for (i, b) in k.iter_mut().enumerate() {
            *b = first.wrapping_add(i as u8);
        }
        Seed::ChaCha20(k)
    }

    #[test]
    fn chacha_stream_is_fixed_forever() {
        // Stored games depend on these exact numbers; never change them. The all-zero
        // key's first block is RFC 7539's test vector 1 (76 b8 e0 ad a0 f1 3d 90 ...).
        let mut zero = Rng::from_seed(Seed::ChaCha20([0; 32]));
        assert_eq!(zero.next_u64(), 0x903D_F1A0_ADE0_B876);
        let mut r = Rng::from_seed(key(1));
        assert_eq!(r.next_u64(), CHACHA_FIRST);
        assert_eq!(r.dice(6, 6), CHACHA_DICE.to_vec());
        assert_eq!(r.fork().next_u64(), CHACHA_FORK);
    }

    // Computed apart from `rand_chacha`, from the cipher's definition (RFC 7539's block
    // function, 64-bit counter and stream 0, words read little-endian, two to a u64).
    const CHACHA_FIRST: u64 = 1_809_961_919_142_848_945;
    const CHACHA_DICE: [u8; 6] = [6, 6, 5, 2, 4, 4];
    const CHACHA_FORK: u64 = 9_026_763_999_594_893_312;

    #[test]
    fn a_split_mix_fork_is_the_old_derivation() {
        let mut a = Rng::new(9);
        let mut b = Rng::new(9);
        assert_eq!(a.fork(), Rng::new(b.next_u64()));
        assert_eq!(a, b);
    }

    #[test]
    fn seeds_are_written_and_read_back() {
        for s in [Seed::SplitMix64(17039259473404265729), key(200)] {
            assert_eq!(s.to_string().parse::<Seed>(), Ok(s));
            let json = serde_json::to_string(&s).unwrap();
            assert_eq!(serde_json::from_str::<Seed>(&json).unwrap(), s);
        }
        assert_eq!(serde_json::to_string(&Seed::SplitMix64(5)).unwrap(), "5");
        assert!("chacha20:00".parse::<Seed>().is_err());
        assert!("x".parse::<Seed>().is_err());
        assert!(serde_json::from_str::<Seed>("\"12\"").is_err());
        assert!(serde_json::from_str::<Seed>("-1").is_err());
    }

    #[test]
    fn a_stored_generator_goes_on_exactly() {
        // Snapshots written before ChaCha20 hold {"state":N}.
        let old: Rng = serde_json::from_str("{\"state\":42}").unwrap();
        assert_eq!(old, Rng::new(42));
        assert_eq!(serde_json::to_string(&old).unwrap(), "{\"state\":42}");
        for odd in [0usize, 1, 3, 17, 200] {
            let mut r = Rng::from_seed(key(3));
            for _ in 0..odd {
                r.die(6);
            }
            r.dice(1, 8);
            let text = serde_json::to_string(&r).unwrap();
            let mut back: Rng = serde_json::from_str(&text).unwrap();
            assert_eq!(back, r);
            assert_eq!(back.dice(20, 6), r.dice(20, 6), "after {odd}");
        }
        assert!(serde_json::from_str::<Rng>("{}").is_err());
        assert!(serde_json::from_str::<Rng>("{\"state\":1,\"word\":2}").is_err());
        assert!(serde_json::from_str::<Rng>("{\"chacha20\":\"ab\",\"word\":2}").is_err());
    }

    #[test]
    fn dice_stay_in_range() {
        for mut r in [Rng::new(7), Rng::from_seed(key(7))] {
            let mut seen = [0u32; 9];
            for _ in 0..8000 {
                seen[r.die(8) as usize] += 1;
            }
            assert_eq!(seen[0], 0);
            assert!(seen[1..].iter().all(|&n| n > 800), "{seen:?}");
        }
    }
}
