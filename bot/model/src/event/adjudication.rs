//! How a game still in play at its round's closing date is scored (E1):
//! the event's description states this rule, and the table applies it when
//! the date passes, so that the next round can open.
//!
//! A side that is past its own move deadline with the move to make loses,
//! as it would at that deadline (T1, T34): without play (a forfeit, T57) if
//! it never made a move of its own. Any other game is scored a draw. The
//! engine is not asked for a verdict: players could not check it, and a
//! game with hidden hands or dice has no verdict to give.

use super::game::{Outcome, Side};
use serde::{Deserialize, Serialize};

/// What the adjudication reads of a game still in play at the closing date.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unfinished {
    /// Whether each side has made a play of its own (`[First, Second]`).
    pub moved: [bool; 2],
    /// The side to move, if it is past its own move deadline.
    pub overdue: Option<Side>,
}

/// The result E1 gives the game.
pub fn adjudicate(u: Unfinished) -> Outcome {
    match u.overdue {
        Some(Side::First) if !u.moved[0] => Outcome::FirstForfeited,
        Some(Side::First) => Outcome::SecondWon,
        Some(Side::Second) if !u.moved[1] => Outcome::SecondForfeited,
        Some(Side::Second) => Outcome::FirstWon,
        None => Outcome::Drawn,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_overdue_side_loses_and_every_other_game_is_drawn() {
        let u = |moved, overdue| adjudicate(Unfinished { moved, overdue });
        assert_eq!(u([true, true], None), Outcome::Drawn);
        assert_eq!(u([true, false], None), Outcome::Drawn);
        assert_eq!(u([true, true], Some(Side::First)), Outcome::SecondWon);
        assert_eq!(u([true, true], Some(Side::Second)), Outcome::FirstWon);
        assert_eq!(
            u([true, false], Some(Side::Second)),
            Outcome::SecondForfeited
        );
        assert_eq!(
            u([false, false], Some(Side::First)),
            Outcome::FirstForfeited
        );
    }
}
