//! A builder of hand-made positions, for tests, puzzles and rule examples.

use super::moves::at;
use super::pieces::{Kind, Piece, Spell};
use super::{Exit, MagicChess};
use crate::board::Cell;
use crate::rng::Seed;
use crate::seat::Seat;

/// Builds a [`MagicChess`] position square by square. Squares are written as
/// players write them (`e4`); a bad square name is a mistake in the calling
/// code and panics with the name.
#[derive(Clone, Debug)]
pub struct Position {
    game: MagicChess,
}

fn square(text: &str) -> Cell {
    let b = text.as_bytes();
    assert!(
        b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]),
        "no such square: {text}"
    );
    at((b[0] - b'a') as i32, (b[1] - b'1') as i32).expect("on the board")
}

impl Default for Position {
    fn default() -> Self {
        Position::empty()
    }
}

impl Position {
    /// An empty board, empty hands and piles, Red to move.
    pub fn empty() -> Position {
        Position {
            game: MagicChess::bare(Seed::SplitMix64(1)),
        }
    }

    /// The four armies in their starting squares, with empty hands and piles.
    pub fn start() -> Position {
        Position {
            game: MagicChess::start(Vec::new(), false, Seed::SplitMix64(1)),
        }
    }

    /// The square named `sq` as a cell.
    pub fn cell(sq: &str) -> Cell {
        square(sq)
    }

    /// Puts a piece of `seat` (0 Red, 1 Blue, 2 Yellow, 3 Green) on `sq`.
    pub fn piece(mut self, sq: &str, seat: u8, kind: Kind) -> Position {
        self.game.cells[square(sq).index()] = Some(Piece::new(Seat(seat), kind));
        self
    }

    /// Empties `sq`.
    pub fn clear(mut self, sq: &str) -> Position {
        self.game.cells[square(sq).index()] = None;
        self
    }

    /// Lays a spell card under the piece on `sq` (there must be one).
    pub fn spell_on(mut self, sq: &str, spell: Spell) -> Position {
        let p = self.game.cells[square(sq).index()]
            .as_mut()
            .unwrap_or_else(|| panic!("no piece on {sq}"));
        p.spells[spell.index()] += 1;
        self
    }

    pub fn hand(mut self, seat: u8, cards: &[Spell]) -> Position {
        self.game.hands[seat as usize] = cards.to_vec();
        self
    }

    /// The draw pile, the first card drawn first.
    pub fn draw_pile(mut self, cards: &[Spell]) -> Position {
        self.game.draw_pile = cards.iter().rev().copied().collect();
        self
    }

    pub fn to_move(mut self, seat: u8) -> Position {
        self.game.turn = Seat(seat);
        self
    }

    /// Marks `seat` as eliminated (its King captured by the seat before it).
    pub fn eliminated(mut self, seat: u8) -> Position {
        self.game.out[seat as usize] = Some(Exit::KingCaptured {
            by: Seat((seat + 3) % 4),
        });
        self
    }

    /// Red and Yellow against Blue and Green.
    pub fn partners(mut self) -> Position {
        self.game.partners = true;
        self
    }

    /// Turns already played without a capture or a pawn move.
    pub fn quiet(mut self, turns: u32) -> Position {
        self.game.quiet = turns;
        self
    }

    pub fn build(self) -> MagicChess {
        self.game
    }
}
