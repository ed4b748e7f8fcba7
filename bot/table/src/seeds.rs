//! The seeds of new games: drawn from the operating system, or derived from
//! the `--seed` base given at open (tests and the console, never real play).

use super::Res;
use tokar_engine::Seed;
use tracing::error;

/// Where new games' seeds come from.
pub(crate) struct Seeds {
    /// Makes every new game's dice reproducible (see [`crate::TableConfig::seed`]).
    base: Option<u64>,
}

impl Seeds {
    pub(crate) fn new(base: Option<u64>) -> Seeds {
        Seeds { base }
    }

    /// A new game's seed: 256 bits from the operating system, drawn for this game
    /// alone (engine/rules/chance.md); with `--seed` (tests and the console, never real
    /// play) derived from it and the game number.
    pub(crate) fn seed_for(&self, id: u64) -> Res<Seed> {
        self.draw_seed(tokar_model::entropy::Purpose::Game, id)
    }

    /// The seed a game created from a record goes on with after the record's actions
    /// (ruling T13): nobody has seen it, unlike the record's. Drawn as a new game's is,
    /// apart from the game's own seed under `--seed`.
    pub(crate) fn secret_seed(&self, id: u64) -> Res<Seed> {
        self.draw_seed(tokar_model::entropy::Purpose::Reseed, id)
    }

    pub(crate) fn draw_seed(&self, purpose: tokar_model::entropy::Purpose, id: u64) -> Res<Seed> {
        match self.base {
            Some(base) => Ok(tokar_model::entropy::derived(base, purpose, id)),
            None => tokar_model::entropy::game_seed().map_err(|e| {
                error!(game = id, error = %e, "no seed for a game");
                "No game can be set up right now (the server has no randomness to deal \
                 with); nothing was done. The operator has been told."
                    .into()
            }),
        }
    }
}
