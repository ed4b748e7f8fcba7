//! Armies: which unit stands on each of a side's sixteen starting squares.
//!
//! An army is described from its owner's side of the table, left to right,
//! as in Figure 1-1: the back row (Lieutenant, Sergeant, Captain, Chief,
//! General, Captain, Sergeant, Lieutenant) and the front row of soldiers.
//! Undead Arcana picks a unit per rank; it builds an [`Army`] the same way, so
//! any mix of units, and any pairing of armies (Undead vs Undead), sets up here.

use super::unit::{Family, Unit};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Army {
    /// The army's name for people ("Human", "Undead").
    pub name: String,
    /// The back row, from the owner's left to right.
    pub back: [Unit; 8],
    /// The front row, from the owner's left to right.
    pub front: [Unit; 8],
    /// Built under Undead Arcana's rules: its Skeletons, Dark Priest and the
    /// loss of a General who cannot move safely follow that document (U9, U10).
    #[serde(default)]
    pub undead_arcana: bool,
}

impl Army {
    /// The Human army of Tokar's Arcana (the card sheet's order).
    pub fn human() -> Army {
        use Unit::*;
        Army {
            name: Family::Human.name().into(),
            back: [
                WindMage,
                BlueKnight,
                PriestOfTheWinds,
                Duelist,
                BattleMage,
                Alchemist,
                BlueKnight,
                WindMage,
            ],
            front: [ImperialWarrior; 8],
            undead_arcana: false,
        }
    }

    /// The Undead army of Tokar's Arcana.
    pub fn undead() -> Army {
        use Unit::*;
        Army {
            name: Family::Undead.name().into(),
            back: [
                Mummy,
                Zombie,
                TombKeeper,
                DarkPriest,
                Necromancer,
                TombKeeper,
                Zombie,
                Mummy,
            ],
            front: [Skeleton; 8],
            undead_arcana: false,
        }
    }

    /// The army chosen by the option value: a preset, or Undead Arcana picks
    /// (see [`Army::parse`]).
    pub fn by_name(text: &str) -> Option<Army> {
        Army::parse(text).ok()
    }

    /// The option values that name a whole army; Undead Arcana pick lists
    /// are accepted too (free text, checked by [`Army::parse`]).
    pub const CHOICES: &'static [&'static str] = &["human", "undead", "undead-arcana", "alternate"];
}
