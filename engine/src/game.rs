//! The interface every game implements, and through which the table, the
//! renderer and the computer opponent use a game without knowing which it is.

use crate::error::ActionError;
use crate::event::Event;
use crate::seat::{Outcome, Seat, Viewer};
use crate::view::View;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;

/// A game's complete state: a pure value. [`Game::play`] either applies an
/// action and returns what happened, or returns why not and leaves the state
/// exactly as it was.
///
/// A turn may be a chain of small decisions (relocate each vanquished model,
/// pick a promotion, revive a fallen Priest): the state then holds a pending
/// decision, and [`Game::to_act`] names the seat that must answer it, which may
/// not be the seat whose turn it is.
pub trait Game: Clone + Debug + Serialize + DeserializeOwned + Send + Sync + 'static {
    type Action: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;

    /// How many seats the game has.
    fn seat_count(&self) -> usize;

    /// A seat's name for people ("Human", "Red", "White Queen").
    fn seat_name(&self, seat: Seat) -> String;

    /// The seats whose decision the game waits for now; empty once it is over.
    /// Usually one; more where several may act (a Gladiator King's override).
    fn to_act(&self) -> Vec<Seat>;

    /// Every action `seat` may take now (empty if it may not act).
    fn legal_actions(&self, seat: Seat) -> Vec<Self::Action>;

    /// Applies `action` for `seat`, or explains why it is refused and changes nothing.
    fn play(&mut self, seat: Seat, action: &Self::Action) -> Result<Vec<Event>, ActionError>;

    /// The action's notation in this position: short, typeable, and parsed back
    /// by [`Game::parse`] to the same action.
    fn format(&self, action: &Self::Action) -> String;

    /// Reads an action as a player types it. A text that is no action at all
    /// is a [`ActionError::Syntax`]; a well-formed action that the rules forbid
    /// now is [`ActionError::Illegal`], with the rule in words.
    fn parse(&self, seat: Seat, text: &str) -> Result<Self::Action, ActionError>;

    fn outcome(&self) -> Outcome;

    /// The move counter players see.
    fn move_number(&self) -> u32;

    /// What `viewer` may see.
    fn view(&self, viewer: Viewer) -> View;

    /// `seat` leaves the game (resignation, or a lost claim after the move
    /// deadline). With two sides the other side wins; with more, the seat is
    /// eliminated and play goes on without it.
    fn concede(&mut self, seat: Seat) -> Vec<Event>;

    /// `seat`'s turn is passed over because its player is away past the
    /// deadline (games with more than two sides). Refused where the game has no
    /// such rule or it is not `seat`'s turn.
    fn skip(&mut self, seat: Seat) -> Result<Vec<Event>, ActionError> {
        let _ = seat;
        Err(ActionError::Illegal(
            "This game has no rule for skipping a turn.".into(),
        ))
    }

    /// A copy in which everything `seat` cannot see (other hands, the deck
    /// order, the future dice) is replaced by a random guess consistent with
    /// what it can see, drawn from `seed`. The computer opponent searches only
    /// such copies, so it can never use information its seat does not have.
    fn redeal(&self, seat: Seat, seed: u64) -> Self;

    /// An estimate of how the game stands for `seat`, from 0 (lost) to 1
    /// (won); the computer opponent scores positions with it where it stops
    /// looking ahead. The default is `seat`'s team's share of the material on
    /// the board ([`crate::search::material_share`]); a game may know better.
    fn heuristic(&self, seat: Seat) -> f32 {
        crate::search::material_share(&self.view(Viewer::Spectator), seat)
    }

    /// The exact odds of the chance outcomes of `action` for `seat` when a
    /// roll with a known distribution decides its result (an Arachne capture
    /// roll, a Gladiator battle): one probability per outcome, in a fixed
    /// order, summing to 1. Empty when nothing the action does is decided by
    /// such a roll, or the game does not enumerate it (the default).
    ///
    /// The odds are computed from the position and the rules alone, never
    /// from the generator: the search scores an action by the expectation
    /// over these outcomes instead of one guessed roll (ruling S12 of
    /// engine/rules/search.md), and that must stay true on the real game too.
    fn chance(&self, seat: Seat, action: &Self::Action) -> Vec<f64> {
        let _ = (seat, action);
        Vec::new()
    }

    /// Plays `action` with its chance outcome number `outcome` (an index into
    /// [`Game::chance`]) instead of a roll of the generator; other dice the
    /// action throws (the next turn's) still come from the generator. The
    /// search calls it on its own [`Game::redeal`] copies only; the table
    /// never does. With no enumerated outcome it is [`Game::play`].
    fn play_chance(
        &mut self,
        seat: Seat,
        action: &Self::Action,
        outcome: usize,
    ) -> Result<Vec<Event>, ActionError> {
        let _ = outcome;
        self.play(seat, action)
    }
}
