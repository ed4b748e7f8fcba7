//! Tokar's rating per level (ruling T52 in docs/rulings.md).
//!
//! Where a server rates games against Tokar (T28), each of its levels (easy,
//! normal, hard) is a player of its own for the ratings: its seats are rated
//! under a reserved player id per level, not under the bot's user id, so a
//! person who beats the easy bot is not rated as if they had beaten the hard
//! one, and each level's rating says how strong that level plays.
//!
//! The ids are fixed (the top three of `u64`) rather than derived from the
//! bot's user id: a store serves one bot, whose id differs between the
//! console (1) and Discord (the bot's account), and a store moved from one to
//! the other keeps its levels' ratings. No person can hold them: Discord's
//! ids (snowflakes) stay below 2⁶³ until 2084, and the console numbers its
//! users upwards from a small base.

use tokar_engine::search::Level;

/// The player id Tokar's seats are rated under at `level`.
pub fn level_player(level: Level) -> u64 {
    match level {
        Level::Easy => u64::MAX - 2,
        Level::Normal => u64::MAX - 1,
        Level::Hard => u64::MAX,
    }
}

/// The level whose player id `player` is, if it is one.
pub fn level_of(player: u64) -> Option<Level> {
    Level::ALL.into_iter().find(|l| level_player(*l) == player)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_level_has_its_own_player() {
        let ids: Vec<u64> = Level::ALL.into_iter().map(level_player).collect();
        assert_eq!(ids, [u64::MAX - 2, u64::MAX - 1, u64::MAX]);
        for l in Level::ALL {
            assert_eq!(level_of(level_player(l)), Some(l));
        }
        assert_eq!(level_of(1), None);
        assert_eq!(level_of(u64::MAX - 3), None);
    }
}
