//! What happened when an action was applied: for the announcement, the
//! picture's highlights, and the table's bookkeeping (undo may not cross chance).

use crate::board::Cell;
use crate::seat::Seat;
use serde::{Deserialize, Serialize};

/// How a cell was touched by an event; the renderer draws each differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Mark {
    /// Where a piece started.
    From,
    /// Where a piece ended.
    To,
    /// A piece here was killed, captured or removed.
    Hit,
    /// A piece here was pushed, swapped, relocated, frozen, paralysed...
    Affected,
    /// A piece appeared here (revived, placed, promoted).
    Placed,
}

/// One thing that happened. `text` is a public sentence ("Blue Knight b1-c3
/// kills the Skeleton on c3"); anything only one seat may learn goes in
/// `secret`, never in `text`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub text: String,
    pub marks: Vec<(Cell, Mark)>,
    /// Dice rolled in this event, and by whom.
    pub dice: Option<(Seat, Vec<u8>)>,
    /// The event drew on chance (dice, a card draw): the table never undoes past it.
    pub chance: bool,
    pub secret: Option<Secret>,
}

/// Text for one seat's eyes only ("You drew Freeze").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Secret {
    pub seat: Seat,
    pub text: String,
}

impl Event {
    pub fn new(text: impl Into<String>) -> Event {
        Event {
            text: text.into(),
            marks: Vec::new(),
            dice: None,
            chance: false,
            secret: None,
        }
    }

    pub fn mark(mut self, cell: Cell, mark: Mark) -> Event {
        self.marks.push((cell, mark));
        self
    }

    pub fn dice(mut self, seat: Seat, dice: Vec<u8>) -> Event {
        self.dice = Some((seat, dice));
        self.chance = true;
        self
    }

    pub fn chance(mut self) -> Event {
        self.chance = true;
        self
    }

    pub fn secret(mut self, seat: Seat, text: impl Into<String>) -> Event {
        self.secret = Some(Secret {
            seat,
            text: text.into(),
        });
        self
    }
}
