//! The pieces and spell cards of Magic Chess, and how each is named and drawn.

use crate::seat::Seat;
use crate::view::{Glyph, StatusKind};
use serde::{Deserialize, Serialize};

/// The four armies, in turn order (clockwise from Red, who sits at rank 1).
pub const SEAT_NAMES: [&str; 4] = ["Red", "Blue", "Yellow", "Green"];

/// A seat's name for people.
pub fn seat_name(seat: Seat) -> &'static str {
    SEAT_NAMES.get(seat.index()).copied().unwrap_or("Nobody")
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Kind {
    King,
    Wizard,
    Fairy,
    Frog,
    Pawn,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::King,
        Kind::Wizard,
        Kind::Fairy,
        Kind::Frog,
        Kind::Pawn,
    ];
    /// What a pawn may become on its far edge (ruling R4).
    pub const PROMOTIONS: [Kind; 3] = [Kind::Wizard, Kind::Fairy, Kind::Frog];

    pub fn name(self) -> &'static str {
        match self {
            Kind::King => "King",
            Kind::Wizard => "Wizard",
            Kind::Fairy => "Fairy",
            Kind::Frog => "Frog",
            Kind::Pawn => "Pawn",
        }
    }

    /// The word used in notation (`=fairy`).
    pub fn word(self) -> &'static str {
        match self {
            Kind::King => "king",
            Kind::Wizard => "wizard",
            Kind::Fairy => "fairy",
            Kind::Frog => "frog",
            Kind::Pawn => "pawn",
        }
    }

    /// The badge letter; the Frog takes R (fRog) because F is the Fairy's.
    pub fn letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Wizard => 'W',
            Kind::Fairy => 'F',
            Kind::Frog => 'R',
            Kind::Pawn => 'P',
        }
    }

    /// The stable unit id that names the piece's icon.
    pub fn unit(self) -> &'static str {
        match self {
            Kind::King => "magic-king",
            Kind::Wizard => "magic-wizard",
            Kind::Fairy => "magic-fairy",
            Kind::Frog => "magic-frog",
            Kind::Pawn => "magic-pawn",
        }
    }

    pub fn glyph(self) -> Glyph {
        Glyph {
            unit: self.unit().into(),
            letter: self.letter(),
            name: self.name().into(),
        }
    }

    /// Reads a promotion choice: the full word, or its badge letter.
    pub fn parse_promotion(text: &str) -> Option<Kind> {
        match text.trim().to_ascii_lowercase().as_str() {
            "wizard" | "w" => Some(Kind::Wizard),
            "fairy" | "f" => Some(Kind::Fairy),
            "frog" | "r" => Some(Kind::Frog),
            _ => None,
        }
    }
}

/// A spell card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Spell {
    Freeze,
    Slow,
    AntiJump,
}

impl Spell {
    pub const ALL: [Spell; 3] = [Spell::Freeze, Spell::Slow, Spell::AntiJump];

    pub fn index(self) -> usize {
        self as usize
    }

    /// The card's name as printed on it.
    pub fn name(self) -> &'static str {
        match self {
            Spell::Freeze => "Freeze",
            Spell::Slow => "Slow",
            Spell::AntiJump => "Anti-Jump",
        }
    }

    /// The word used in notation (`anti-jump e5`).
    pub fn word(self) -> &'static str {
        match self {
            Spell::Freeze => "freeze",
            Spell::Slow => "slow",
            Spell::AntiJump => "anti-jump",
        }
    }

    /// Reads a spell's name as typed: `freeze`, `slow`, `anti-jump`, `antijump`.
    pub fn parse(text: &str) -> Option<Spell> {
        match text.trim().to_ascii_lowercase().as_str() {
            "freeze" => Some(Spell::Freeze),
            "slow" => Some(Spell::Slow),
            "anti-jump" | "antijump" | "anti_jump" => Some(Spell::AntiJump),
            _ => None,
        }
    }

    /// How a card lying under a piece is shown on it.
    pub fn status(self) -> StatusKind {
        match self {
            Spell::Freeze => StatusKind::Frozen,
            Spell::Slow => StatusKind::Slowed,
            Spell::AntiJump => StatusKind::AntiJump,
        }
    }

    /// Whether the card may be played under a piece of this kind.
    pub fn may_target(self, kind: Kind) -> bool {
        match self {
            Spell::Freeze => true,
            Spell::Slow => matches!(kind, Kind::Wizard | Kind::Fairy | Kind::Frog),
            Spell::AntiJump => matches!(kind, Kind::Fairy | Kind::Frog),
        }
    }

    /// The pieces the card may be played under, in words, from
    /// [`Spell::may_target`]: the rules pages and the refusals say what a cast
    /// is checked against.
    pub fn targets(self) -> String {
        let kinds: Vec<&str> = Kind::ALL
            .into_iter()
            .filter(|&k| self.may_target(k))
            .map(Kind::name)
            .collect();
        if kinds.len() == Kind::ALL.len() {
            "any enemy piece".into()
        } else {
            format!("an enemy {}", super::moves::either(kinds))
        }
    }
}

/// A piece on the board, with the spell cards lying under it (counted by kind:
/// several players may each play a card under the same piece, ruling R8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piece {
    pub seat: Seat,
    pub kind: Kind,
    pub spells: [u8; 3],
}

impl Piece {
    pub fn new(seat: Seat, kind: Kind) -> Piece {
        Piece {
            seat,
            kind,
            spells: [0; 3],
        }
    }

    pub fn has(&self, spell: Spell) -> bool {
        self.spells[spell.index()] > 0
    }

    pub fn frozen(&self) -> bool {
        self.has(Spell::Freeze)
    }

    pub fn slowed(&self) -> bool {
        self.has(Spell::Slow)
    }

    pub fn anti_jump(&self) -> bool {
        self.has(Spell::AntiJump)
    }

    /// "Red Wizard".
    pub fn describe(&self) -> String {
        format!("{} {}", seat_name(self.seat), self.kind.name())
    }

    /// Takes every card from under the piece, in a fixed order.
    pub fn take_spells(&mut self) -> Vec<Spell> {
        let mut out = Vec::new();
        for s in Spell::ALL {
            for _ in 0..self.spells[s.index()] {
                out.push(s);
            }
        }
        self.spells = [0; 3];
        out
    }
}
