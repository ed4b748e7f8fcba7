//! The units of the Arcana family, their ranks, and the cards players read.
//!
//! One enum holds every unit of every Arcana army. Tokar's Arcana fields the
//! thirteen units below; Undead Arcana adds six undead alternatives (Ghoul,
//! Ghost, Cultist, Wraith, Vampire, Lich) as further variants of this enum.
//! Everything about a unit that does not depend on the position (its rank, its
//! names, its card, its immunities) lives here, so a new unit is one place to
//! describe plus its abilities in `moves` and `apply`.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A model's class. The order matters: "higher ranking", "ranking above
/// soldier", "Sergeant/Lieutenant or less" all compare ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Rank {
    Soldier,
    Sergeant,
    Lieutenant,
    Captain,
    Chief,
    General,
}

impl Rank {
    pub fn name(self) -> &'static str {
        match self {
            Rank::Soldier => "Soldier",
            Rank::Sergeant => "Sergeant",
            Rank::Lieutenant => "Lieutenant",
            Rank::Captain => "Captain",
            Rank::Chief => "Chief",
            Rank::General => "General",
        }
    }

    /// The text often groups Sergeant and Lieutenant as one class
    /// ("sergeant/lieutenant class model": promotion, the Necromancer's trades).
    pub fn is_sergeant_or_lieutenant(self) -> bool {
        matches!(self, Rank::Sergeant | Rank::Lieutenant)
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which family a unit belongs to (names an army in the seat's name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Family {
    Human,
    Undead,
}

impl Family {
    pub fn name(self) -> &'static str {
        match self {
            Family::Human => "Human",
            Family::Undead => "Undead",
        }
    }
}

/// A unit type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Unit {
    ImperialWarrior,
    BlueKnight,
    WindMage,
    PriestOfTheWinds,
    Alchemist,
    Duelist,
    BattleMage,
    Skeleton,
    Zombie,
    Mummy,
    TombKeeper,
    DarkPriest,
    Necromancer,
    Ghoul,
    Ghost,
    Cultist,
    Wraith,
    Vampire,
    Lich,
}

impl Unit {
    /// Every unit this build plays.
    pub const ALL: [Unit; 19] = [
        Unit::ImperialWarrior,
        Unit::BlueKnight,
        Unit::WindMage,
        Unit::PriestOfTheWinds,
        Unit::Alchemist,
        Unit::Duelist,
        Unit::BattleMage,
        Unit::Skeleton,
        Unit::Zombie,
        Unit::Mummy,
        Unit::TombKeeper,
        Unit::DarkPriest,
        Unit::Necromancer,
        Unit::Ghoul,
        Unit::Ghost,
        Unit::Cultist,
        Unit::Wraith,
        Unit::Vampire,
        Unit::Lich,
    ];

    /// Undead Arcana's alternatives, one per rank (pawn, rook, knight, bishop,
    /// queen, king) (U1).
    pub const ALTERNATES: [Unit; 6] = [
        Unit::Ghoul,
        Unit::Ghost,
        Unit::Cultist,
        Unit::Wraith,
        Unit::Vampire,
        Unit::Lich,
    ];

    pub fn rank(self) -> Rank {
        match self {
            Unit::ImperialWarrior | Unit::Skeleton | Unit::Ghoul => Rank::Soldier,
            Unit::BlueKnight | Unit::Zombie | Unit::Cultist => Rank::Sergeant,
            Unit::WindMage | Unit::Mummy | Unit::Ghost => Rank::Lieutenant,
            Unit::PriestOfTheWinds | Unit::Alchemist | Unit::TombKeeper | Unit::Wraith => {
                Rank::Captain
            }
            Unit::Duelist | Unit::DarkPriest | Unit::Vampire => Rank::Chief,
            Unit::BattleMage | Unit::Necromancer | Unit::Lich => Rank::General,
        }
    }

    pub fn family(self) -> Family {
        match self {
            Unit::ImperialWarrior
            | Unit::BlueKnight
            | Unit::WindMage
            | Unit::PriestOfTheWinds
            | Unit::Alchemist
            | Unit::Duelist
            | Unit::BattleMage => Family::Human,
            _ => Family::Undead,
        }
    }

    /// The stable id: the renderer's icon name and the word typed in notation.
    pub fn id(self) -> &'static str {
        match self {
            Unit::ImperialWarrior => "imperial-warrior",
            Unit::BlueKnight => "blue-knight",
            Unit::WindMage => "wind-mage",
            Unit::PriestOfTheWinds => "priest-of-the-winds",
            Unit::Alchemist => "alchemist",
            Unit::Duelist => "duelist",
            Unit::BattleMage => "battle-mage",
            Unit::Skeleton => "skeleton",
            Unit::Zombie => "zombie",
            Unit::Mummy => "mummy",
            Unit::TombKeeper => "tomb-keeper",
            Unit::DarkPriest => "dark-priest",
            Unit::Necromancer => "necromancer",
            Unit::Ghoul => "ghoul",
            Unit::Ghost => "ghost",
            Unit::Cultist => "cultist",
            Unit::Wraith => "wraith",
            Unit::Vampire => "vampire",
            Unit::Lich => "lich",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Unit::ImperialWarrior => "Imperial Warrior",
            Unit::BlueKnight => "Blue Knight",
            Unit::WindMage => "Wind Mage",
            Unit::PriestOfTheWinds => "Priest of the Winds",
            Unit::Alchemist => "Alchemist",
            Unit::Duelist => "Duelist",
            Unit::BattleMage => "Battle Mage",
            Unit::Skeleton => "Skeleton",
            Unit::Zombie => "Zombie",
            Unit::Mummy => "Mummy",
            Unit::TombKeeper => "Tomb Keeper",
            Unit::DarkPriest => "Dark Priest",
            Unit::Necromancer => "Necromancer",
            Unit::Ghoul => "Ghoul",
            Unit::Ghost => "Ghost",
            Unit::Cultist => "Cultist",
            Unit::Wraith => "Wraith",
            Unit::Vampire => "Vampire",
            Unit::Lich => "Lich",
        }
    }

    /// A letter badge, unique across every Arcana unit so that pieces are told
    /// apart without colour; also the letter of the position text used in tests
    /// (upper case for seat 0, lower case for seat 1).
    pub fn letter(self) -> char {
        match self {
            Unit::ImperialWarrior => 'I',
            Unit::BlueKnight => 'K',
            Unit::WindMage => 'W',
            Unit::PriestOfTheWinds => 'P',
            Unit::Alchemist => 'A',
            Unit::Duelist => 'D',
            Unit::BattleMage => 'B',
            Unit::Skeleton => 'S',
            Unit::Zombie => 'Z',
            Unit::Mummy => 'M',
            Unit::TombKeeper => 'T',
            Unit::DarkPriest => 'Q',
            Unit::Necromancer => 'N',
            Unit::Ghoul => 'G',
            Unit::Ghost => 'H',
            Unit::Cultist => 'C',
            Unit::Wraith => 'R',
            Unit::Vampire => 'V',
            Unit::Lich => 'L',
        }
    }

    pub fn from_letter(c: char) -> Option<Unit> {
        let up = c.to_ascii_uppercase();
        Unit::ALL.into_iter().find(|u| u.letter() == up)
    }

    /// Reads a unit as typed: its id, its name with or without spaces or
    /// hyphens, in any case ("blue-knight", "Blue Knight", "blueknight").
    pub fn parse(text: &str) -> Option<Unit> {
        let squash = |s: &str| {
            s.chars()
                .filter(|c| c.is_ascii_alphanumeric())
                .collect::<String>()
                .to_ascii_lowercase()
        };
        let t = squash(text);
        if t.is_empty() {
            return None;
        }
        Unit::ALL
            .into_iter()
            .find(|u| squash(u.id()) == t || squash(u.name()) == t)
    }

    /// "Cannot be killed by Soldier Class models" (Skeleton, Tomb Keeper).
    pub fn immune_to_soldiers(self) -> bool {
        matches!(self, Unit::Skeleton | Unit::TombKeeper)
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
