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
        }
    }

    /// The army chosen by the option value (`human`, `undead`).
    pub fn by_name(text: &str) -> Option<Army> {
        match text.trim().to_ascii_lowercase().as_str() {
            "human" | "humans" => Some(Army::human()),
            "undead" => Some(Army::undead()),
            _ => None,
        }
    }

    /// The option values [`Army::by_name`] accepts.
    pub const CHOICES: &'static [&'static str] = &["human", "undead"];
}
