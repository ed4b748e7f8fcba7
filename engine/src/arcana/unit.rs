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

    /// The unit's card: the front summary and the back's specific details, as
    /// printed, followed by the rulings that concern it.
    pub fn card(self) -> &'static str {
        match self {
            Unit::ImperialWarrior => {
                "Imperial Warrior (Human, Soldier): soldiers with great attacking prowess.\n\
                 - Moves one square forward (only forward), onto an empty square.\n\
                 - Kills without moving: any one soldier class model straight in front of him, or one higher ranking model diagonally forward.\n\
                 Notation: `e2-e3` move, `e2xe3` / `e2xf3` kill. On the far rank he may be promoted by the Battle Mage."
            }
            Unit::BlueKnight => {
                "Blue Knight (Human, Sergeant): an honourable swordsman galloping through the ranks.\n\
                 - Moves in an L (1+2 or 2+1 squares in any direction), passing over allied and enemy models.\n\
                 - Kills whomever he lands upon, ally or enemy (ruling R1).\n\
                 Notation: `b1-c3`."
            }
            Unit::WindMage => {
                "Wind Mage (Human, Lieutenant): a spell caster who summons lightning.\n\
                 - Teleports diagonally 1 or 2 squares, over any model, killing whomever he lands on (ally or enemy).\n\
                 - OR strikes a lightning bolt exactly 3 squares ahead (toward the enemy lines, never sideways or back), killing whoever is there (R4).\n\
                 Notation: `a1-c3`, `bolt a1>a4`."
            }
            Unit::PriestOfTheWinds => {
                "Priest of the Winds (Human, Captain): a blessed healer protected by a guardian angel.\n\
                 - Moves one square in any direction, and/or kills one adjacent soldier class model (never above soldier) (R6).\n\
                 - OR, standing in a corner of the board, revives a soldier class model from his graveyard onto an empty adjacent square.\n\
                 SPECIAL: when killed in any manner he may at once be revived onto any empty square, once per Priest; his owner decides, even on the opponent's turn (R7).\n\
                 Notation: `c1-c2`, `c1xb2`, `c1-c2xd3`, `revive a1>b2`; when killed: `place e4` or `decline`."
            }
            Unit::Alchemist => {
                "Alchemist (Human, Captain): a cowardly chemist who engulfs his target with fire.\n\
                 - Moves horizontally 1 to 5 squares, staying in his back ranks; he never hops: each model in the way swaps places with him as he goes (R8).\n\
                 - Throws a firebrew at any model within 2 squares (any two steps, hopping over one model): it gets 3 tokens; its owner removes one each time he ends a turn and the model dies with the last. A model already burning cannot be hit again.\n\
                 - He may throw and move in the same turn, in either order (R9).\n\
                 Notation: `f1-c1`, `brew f1>e3`, `f1-c1 brew c1>e3` (move then throw), `brew f1>e3 f1-c1` (throw then move)."
            }
            Unit::Duelist => {
                "Duelist (Human, Chief): a galloping noble armed with a deadly pistol.\n\
                 - Moves any distance in one of the eight directions until obstructed.\n\
                 - Fires his pistol at any one adjacent model, after moving or without moving.\n\
                 Notation: `d1-d5`, `d1xe2`, `d1-d5xe6`."
            }
            Unit::BattleMage => {
                "Battle Mage (Human, General): a royal wizard on horseback.\n\
                 - Rides one square in any direction and/or kills one adjacent model.\n\
                 - OR rides one square (or not) and vanquishes all adjacent enemy models ranking Sergeant/Lieutenant or less; his owner relocates each of them to any empty square (R10).\n\
                 - OR promotes a soldier standing on the far rank into a Sergeant/Lieutenant unit from his graveyard; if the graveyard holds none, may instead return that soldier to a square adjacent to the Mage (R11).\n\
                 If he dies, his side loses.\n\
                 Notation: `e1-e2`, `e1xd2`, `e1-e2xe3`, `vanquish e4`, `e4-e5 vanquish`, then `place h5` per model; `promote a8=blue-knight`, `recall a8>d2`."
            }
            Unit::Skeleton => {
                "Skeleton (Undead, Soldier): unrelenting juggernauts of destruction.\n\
                 - Moves one square forward; kills by moving into a square with another model.\n\
                 - From the far rank he may walk off the board and reappear on an empty square adjacent to his General (R12).\n\
                 SPECIAL: cannot be killed by soldier class models.\n\
                 Notation: `e7-e6`, `a1-off>d7`."
            }
            Unit::Zombie => {
                "Zombie (Undead, Sergeant): messengers of death.\n\
                 - Moves up to two squares orthogonally, turning if he likes, never diagonally, never hopping; kills by moving into a square with another model.\n\
                 SPECIAL: after killing an enemy, his owner may take a unit of the victim's rank from his graveyard and place it adjacent to the Zombie (not after killing an ally).\n\
                 Notation: `b8-c7`; then `place c6` (or `place c6=mummy` where two units share the rank) or `decline`."
            }
            Unit::Mummy => {
                "Mummy (Undead, Lieutenant): an ancient horror.\n\
                 - Moves one square orthogonally; kills by moving into a square with another model.\n\
                 SPECIAL, tomb gas: enemy models adjacent to a Mummy at the end of a turn are paralysed: their owner cannot command them to move, attack or use an ability until the gas is gone at the end of a later turn. SPECIAL rules (immunities, the Priest's revival) still apply. Allies are not affected (R13).\n\
                 Notation: `a8-a7`."
            }
            Unit::TombKeeper => {
                "Tomb Keeper (Undead, Captain): loyal servant to a ruler long past.\n\
                 - Moves one square in any direction, OR kills any one adjacent model (not both) (R6).\n\
                 SPECIAL: cannot be killed by soldier class models.\n\
                 Notation: `c8-c7`, `c8xd7`."
            }
            Unit::DarkPriest => {
                "Dark Priest (Undead, Chief): a mage in constant meditation. He never moves.\n\
                 - Night wind: sacrifices an allied soldier class model (anywhere) to push every enemy model one square back, rear-most row first; a model with no empty square behind it stays (never off the board) (R14).\n\
                 - OR explodes an allied unit ranking above soldier (anywhere): it dies with every model adjacent to it, allies included; a General-class attack.\n\
                 - OR kills all adjacent enemy models.\n\
                 SPECIAL: if moved by others (swapped, pushed, relocated) he rests: he cannot be commanded on his owner's next turn.\n\
                 Notation: `wind d8>a7`, `explode d8>a8`, `smite d8`."
            }
            Unit::Necromancer => {
                "Necromancer (Undead, General): a sorcerer of death on skeletal horseback.\n\
                 - Moves one square in any direction, OR kills any one adjacent model.\n\
                 - OR revives one soldier class model from his graveyard onto an empty adjacent square.\n\
                 - OR trades two of his models on the board (2 soldiers; or 2 sergeant/lieutenants; or 2 captains) for one unit of the next class (sergeant/lieutenant; captain; chief) from his graveyard, placed adjacent to him (R15).\n\
                 If he dies, his side loses.\n\
                 Notation: `e8-e7`, `e8xd7`, `revive e8>d7`, `trade a7+b7=mummy` then `place d7`."
            }
            Unit::Ghoul => {
                "Ghoul (Undead Arcana, pawn = Soldier): a carnivorous scavenger who feeds on his victims.\n\
                 - Moves one square diagonally, forward or backward (U2).\n\
                 - Buries whatever model he lands on, ally or enemy (R1): a buried model is gone for good, not in the graveyard, never revived or traded (U3). Skeletons and Tomb Keepers cannot be buried by him.\n\
                 Notation: `b2-c3`."
            }
            Unit::Ghost => {
                "Ghost (Undead Arcana, rook = Lieutenant): a free-roaming spectre who enjoys scaring his opponents.\n\
                 - Moves one square in any direction; captures whatever model he ends on.\n\
                 - OR, without moving, scares all adjacent models, allies and enemies: each moves three squares straight away from him, stopping early at the edge or before another model (U4).\n\
                 Notation: `a1-b2`, `scare a1`."
            }
            Unit::Cultist => {
                "Cultist (Undead Arcana, knight = Sergeant): a dark mage who brainwashes his victims.\n\
                 - Moves one square in any direction; captures whatever model he ends on.\n\
                 - OR controls one adjacent enemy model not already controlled, the General too: its owner cannot command it on his next turn, and the Cultist's side may command it, as its own, on its next turn (U5).\n\
                 Notation: `b1-c2`, `control b1>c2`."
            }
            Unit::Wraith => {
                "Wraith (Undead Arcana, bishop = Captain): a ghostly reaper armed with a scythe and a smile.\n\
                 - Leaps one or two squares in any of the eight directions, over any model, onto an empty square.\n\
                 - Captures one adjacent model without moving, or after leaping one square (not after leaping two).\n\
                 - OR, without moving, swings: captures every adjacent model, allies too (refused next to his own General, R2) (U6).\n\
                 Notation: `c1-e3`, `c1xd2`, `c1-c2xd3`, `swing c1`."
            }
            Unit::Vampire => {
                "Vampire (Undead Arcana, queen = Chief): a bloodthirsty warrior entranced with battle.\n\
                 - Moves one square in any direction, and may capture one adjacent model before or after the move (or without moving).\n\
                 - Life force: after a capture his side may take one extra turn with him (`decline` to end the turn); no further extra turn from it.\n\
                 - Disability: if a turn of his (the extra one included) ends with him on a white square, he is buried (U7).\n\
                 Notation: `d1-d2`, `d1xe2`, `d1-d2xe3`, `d1xe2-d2`."
            }
            Unit::Lich => {
                "Lich (Undead Arcana, king = General): a wizard who found immortality within death.\n\
                 - Leaps one or two squares horizontally, over any model, onto an empty square. He never captures.\n\
                 - Soul slave: without moving, takes a unit from the enemy's graveyard and raises it as his own on an empty square next to him; then his side must bury one allied model, on the board or in its graveyard (not the General, not the new slave).\n\
                 - When a soul slave captures an enemy, his side must bury one allied model the same way (U8).\n\
                 If he dies, his side loses.\n\
                 Notation: `e1-g1`, `enslave e1>e2=blue-knight`, then `bury a2` (a model) or `bury skeleton` (from the graveyard)."
            }
        }
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
