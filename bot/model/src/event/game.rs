//! The values an event's rounds are made of: the side a player takes, how a
//! game ended, a board and a round. Plain serde values, so the table can
//! store them as they are.

use serde::{Deserialize, Serialize};

/// The side a player takes in a two-player game: `First` makes the first
/// move (chess's white; in Arcana and Arachne the side that opens).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    First,
    Second,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
}

/// How a game of an event ended. A forfeit is a game lost without a play of
/// the loser's own (T57): it scores as a loss, but it is no game played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    FirstWon,
    Drawn,
    SecondWon,
    /// The first side lost without play.
    FirstForfeited,
    /// The second side lost without play.
    SecondForfeited,
}

impl Outcome {
    /// Half points of the player on `side`: 2 for a win, 1 for a draw.
    pub fn halves(self, side: Side) -> u32 {
        match (self, side) {
            (Outcome::Drawn, _) => 1,
            (Outcome::FirstWon | Outcome::SecondForfeited, Side::First) => 2,
            (Outcome::SecondWon | Outcome::FirstForfeited, Side::Second) => 2,
            _ => 0,
        }
    }

    /// Whether the game was played over the board (no side forfeited it).
    pub fn played(self) -> bool {
        !matches!(self, Outcome::FirstForfeited | Outcome::SecondForfeited)
    }

    /// The side that won, if one did.
    pub fn winner(self) -> Option<Side> {
        match self {
            Outcome::FirstWon | Outcome::SecondForfeited => Some(Side::First),
            Outcome::SecondWon | Outcome::FirstForfeited => Some(Side::Second),
            Outcome::Drawn => None,
        }
    }
}

/// One game of a round: entrants by their index (the pairing number less
/// one), and its outcome once it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    pub first: usize,
    pub second: usize,
    pub outcome: Option<Outcome>,
}

impl Board {
    /// The side `e` held, if `e` sat at this board.
    pub fn side_of(&self, e: usize) -> Option<Side> {
        if self.first == e {
            Some(Side::First)
        } else if self.second == e {
            Some(Side::Second)
        } else {
            None
        }
    }

    /// The other entrant at the board.
    pub fn opponent_of(&self, e: usize) -> Option<usize> {
        match self.side_of(e)? {
            Side::First => Some(self.second),
            Side::Second => Some(self.first),
        }
    }
}

/// One round of a Swiss event: its boards from the top down, the entrant
/// given the bye (a point without play, E2), and those not paired because
/// they withdrew (they score nothing for the round).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    pub boards: Vec<Board>,
    pub bye: Option<usize>,
    pub absent: Vec<usize>,
}

impl Round {
    /// The board `e` sat at.
    pub fn board_of(&self, e: usize) -> Option<&Board> {
        self.boards.iter().find(|b| b.side_of(e).is_some())
    }

    /// Whether every game of the round has ended.
    pub fn finished(&self) -> bool {
        self.boards.iter().all(|b| b.outcome.is_some())
    }
}

/// Half points a pairing-allocated bye is worth: a whole point, FIDE's
/// default (E2).
pub const BYE_HALVES: u32 = 2;
