//! The search for a game of any kind, speaking in notation like [`AnyGame`].

use super::{choose_with, Budget, Choice, Level, Settings};
use crate::catalog::AnyGame;
use crate::game::Game;
use crate::seat::Seat;

/// Runs `$body` with `$g` bound to the typed game inside an [`AnyGame`].
macro_rules! typed_game {
    ($game:expr, $g:ident => $body:expr) => {
        match $game {
            AnyGame::Arcana($g) => $body,
            AnyGame::MagicChess($g) => $body,
            AnyGame::Gladiator($g) => $body,
            AnyGame::Arachne($g) => $body,
        }
    };
}
pub(super) use typed_game;

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
        settings: &Settings,
        budget: &Budget,
        seed: u64,
    ) -> Option<Choice<String>> {
        choose_with(g, seat, settings, budget, seed).map(|c| Choice {
            action: c.notation.clone(),
            notation: c.notation,
            expected: c.expected,
            visits: c.visits,
            iterations: c.iterations,
            why: c.why,
        })
    }
    let settings = &settings_for(game, level);
    match game {
        AnyGame::Arcana(g) => typed(g, seat, settings, budget, seed),
        AnyGame::MagicChess(g) => typed(g, seat, settings, budget, seed),
        AnyGame::Gladiator(g) => typed(g, seat, settings, budget, seed),
        AnyGame::Arachne(g) => typed(g, seat, settings, budget, seed),
    }
}

/// A level's settings for one kind of game. Gladiator's and Arachne's
/// searching levels use first-play urgency (S7 and S8 in
/// engine/rules/search.md): the answer that punishes a move must be followed
/// up before every quiet reply has been tried once. In Gladiator it lies deep
/// (a team's turn is four commander moves); in Arachne it is one capture roll
/// among forty replies, and averaged with the rest it would vanish.
///
/// The root guard (S13) keeps to the same two games, the ones whose captures a
/// roll decides: there a losing reply hides among forty in the tree's mean.
/// In Arcana and Magic Chess a capture is certain, the tree sees it as it is,
/// and the guard's look at every reply to every answer has not been measured
/// to pay for its time.
pub fn settings_for(game: &AnyGame, level: Level) -> Settings {
    let mut settings = level.settings();
    let rolls = matches!(game, AnyGame::Gladiator(_) | AnyGame::Arachne(_));
    if rolls && level != Level::Easy {
        settings.first_play = true;
    }
    settings.guard &= rolls;
    settings
}
