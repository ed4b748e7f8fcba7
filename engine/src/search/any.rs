//! The search for a game of any kind, speaking in notation like [`AnyGame`].

use super::{choose, Budget, Choice, Level};
use crate::catalog::AnyGame;
use crate::game::Game;
use crate::seat::Seat;

/// [`choose`] for a game held as an [`AnyGame`]: the chosen action comes
/// back as its notation, ready for [`AnyGame::play`].
pub fn choose_any(
    game: &AnyGame,
    seat: Seat,
    level: Level,
    budget: &Budget,
    seed: u64,
) -> Option<Choice<String>> {
    fn typed<G: Game>(
        g: &G,
        seat: Seat,
        level: Level,
        budget: &Budget,
        seed: u64,
    ) -> Option<Choice<String>> {
        choose(g, seat, level, budget, seed).map(|c| Choice {
            action: c.notation.clone(),
            notation: c.notation,
            expected: c.expected,
            visits: c.visits,
            iterations: c.iterations,
            why: c.why,
        })
    }
    match game {
        AnyGame::Arcana(g) => typed(g, seat, level, budget, seed),
        AnyGame::MagicChess(g) => typed(g, seat, level, budget, seed),
        AnyGame::Gladiator(g) => typed(g, seat, level, budget, seed),
        AnyGame::Arachne(g) => typed(g, seat, level, budget, seed),
    }
}
