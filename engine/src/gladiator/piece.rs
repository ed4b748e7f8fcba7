//! The ten kinds of Gladiator pieces, the two teams, and each kind's fixed
//! numbers (combat dice, hit points, commander).

use crate::view::Glyph;
use serde::{Deserialize, Serialize};

/// Faces of every combat die (rule 9: "1d6").
pub const DIE_SIDES: u8 = 6;
/// Dice the attacker rolls besides its own (rule 9: "an extra 1d6").
pub const ATTACK_DICE: usize = 1;
/// Dice more for a piece attacking the one its own Queen holds frozen
/// (Queen rule 10: "an extra 1d6").
pub const FROZEN_DICE: usize = 1;
/// The lengths of a Champion's move, along ranks and files (Champion rule 1, R3).
pub const CHAMPION_STEPS: [i32; 2] = [3, 5];
/// What a Footman reaching the far side may become, if its team lost one
/// (Footman rule 3); a Squire may become any piece its team lost.
pub const FOOTMAN_BECOMES: [Kind; 2] = [Kind::Warrior, Kind::Scout];

/// A side: White sits at ranks 1-2 and moves first; Black at ranks 11-12.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Team {
    White,
    Black,
}

impl Team {
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn other(self) -> Team {
        match self {
            Team::White => Team::Black,
            Team::Black => Team::White,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Team::White => "White",
            Team::Black => "Black",
        }
    }

    /// The rank direction in which this team's pawns advance.
    pub fn forward(self) -> i32 {
        match self {
            Team::White => 1,
            Team::Black => -1,
        }
    }

    /// Zero-based rank of the team's own back row.
    pub fn back_rank(self) -> i32 {
        match self {
            Team::White => 0,
            Team::Black => 11,
        }
    }

    /// Zero-based rank of the opponent's far side, where pawns are replaced.
    pub fn far_rank(self) -> i32 {
        self.other().back_rank()
    }

    pub fn from_index(i: usize) -> Team {
        if i == 0 {
            Team::White
        } else {
            Team::Black
        }
    }
}

/// The four commanders of a team, in the order they move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Commander {
    King = 0,
    Queen = 1,
    BlackKnight = 2,
    KingsKnight = 3,
}

impl Commander {
    pub const ORDER: [Commander; 4] = [
        Commander::King,
        Commander::Queen,
        Commander::BlackKnight,
        Commander::KingsKnight,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Commander::King => "King",
            Commander::Queen => "Queen",
            Commander::BlackKnight => "Black Knight",
            Commander::KingsKnight => "King's Knight",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Kind {
    King,
    Queen,
    MountedKnight,
    Footman,
    Champion,
    Warrior,
    BlackKnight,
    Scout,
    /// The table at the end of the rule text calls him the "Mounted Lancer" (ruling R1).
    KingsKnight,
    Squire,
}

impl Kind {
    pub const ALL: [Kind; 10] = [
        Kind::King,
        Kind::Queen,
        Kind::MountedKnight,
        Kind::Footman,
        Kind::Champion,
        Kind::Warrior,
        Kind::BlackKnight,
        Kind::Scout,
        Kind::KingsKnight,
        Kind::Squire,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::King => "King",
            Kind::Queen => "Queen",
            Kind::MountedKnight => "Mounted Knight",
            Kind::Footman => "Footman",
            Kind::Champion => "Champion",
            Kind::Warrior => "Warrior",
            Kind::BlackKnight => "Black Knight",
            Kind::Scout => "Scout",
            Kind::KingsKnight => "King's Knight",
            Kind::Squire => "Squire",
        }
    }

    /// The icon id the renderer draws.
    pub fn unit_id(self) -> &'static str {
        match self {
            Kind::King => "gladiator-king",
            Kind::Queen => "gladiator-queen",
            Kind::MountedKnight => "mounted-knight",
            Kind::Footman => "footman",
            Kind::Champion => "champion",
            Kind::Warrior => "warrior",
            Kind::BlackKnight => "black-knight",
            Kind::Scout => "scout",
            Kind::KingsKnight => "kings-knight",
            Kind::Squire => "squire",
        }
    }

    /// The badge letter, also typed after `=` to choose a pawn's replacement.
    pub fn letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Queen => 'Q',
            Kind::MountedKnight => 'M',
            Kind::Footman => 'F',
            Kind::Champion => 'C',
            Kind::Warrior => 'W',
            Kind::BlackKnight => 'B',
            Kind::Scout => 'S',
            Kind::KingsKnight => 'N',
            Kind::Squire => 'E',
        }
    }

    pub fn from_letter(c: char) -> Option<Kind> {
        let c = c.to_ascii_uppercase();
        Kind::ALL.into_iter().find(|k| k.letter() == c)
    }

    /// Finds a kind by its name, its icon id or its letter (for `/rules` and tests).
    pub fn lookup(text: &str) -> Option<Kind> {
        let t: String = text
            .trim()
            .to_ascii_lowercase()
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect();
        if t == "mountedlancer" || t == "lancer" {
            return Some(Kind::KingsKnight);
        }
        Kind::ALL.into_iter().find(|k| {
            let name: String = k
                .name()
                .to_ascii_lowercase()
                .chars()
                .filter(|c| c.is_ascii_alphanumeric())
                .collect();
            let id: String = k.unit_id().chars().filter(|c| *c != '-').collect();
            t == name || t == id || (t.len() == 1 && t.starts_with(k.letter().to_ascii_lowercase()))
        })
    }

    /// Six-sided dice rolled in combat (before the attacker's extra die).
    /// The Queen never fights.
    pub fn dice(self) -> usize {
        match self {
            Kind::King => 5,
            Kind::Queen => 0,
            Kind::MountedKnight => 3,
            Kind::Footman => 1,
            Kind::Champion => 4,
            Kind::Warrior => 2,
            Kind::BlackKnight => 4,
            Kind::Scout => 3,
            Kind::KingsKnight => 4,
            Kind::Squire => 1,
        }
    }

    pub fn max_hp(self) -> i32 {
        match self {
            Kind::King => 30,
            Kind::Queen => 0,
            Kind::MountedKnight => 16,
            Kind::Footman => 4,
            Kind::Champion => 20,
            Kind::Warrior => 6,
            Kind::BlackKnight => 20,
            Kind::Scout => 12,
            Kind::KingsKnight => 20,
            Kind::Squire => 2,
        }
    }

    pub fn commander(self) -> Commander {
        match self {
            Kind::King | Kind::MountedKnight | Kind::Footman => Commander::King,
            Kind::Queen | Kind::Champion | Kind::Warrior => Commander::Queen,
            Kind::BlackKnight | Kind::Scout => Commander::BlackKnight,
            Kind::KingsKnight | Kind::Squire => Commander::KingsKnight,
        }
    }

    /// Warriors, Footmen and Squires return from a won battle fully healed.
    pub fn heals_on_victory(self) -> bool {
        matches!(self, Kind::Warrior | Kind::Footman | Kind::Squire)
    }

    pub fn is_pawn(self) -> bool {
        matches!(self, Kind::Footman | Kind::Squire)
    }

    pub fn glyph(self) -> Glyph {
        Glyph {
            unit: self.unit_id().to_string(),
            letter: self.letter(),
            name: self.name().to_string(),
        }
    }
}

/// One piece on the board (or frozen on the tally).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    /// Stable identity, so that "already moved this turn" and "holds the Queen"
    /// follow the piece, not the square.
    pub id: u16,
    pub kind: Kind,
    pub team: Team,
    pub hp: i32,
}

impl Piece {
    pub fn full_name(&self) -> String {
        format!("{} {}", self.team.name(), self.kind.name())
    }
}
