//! The actions of Arcana: one value per decision a seat may take.
//!
//! A turn is one command of one unit; the follow-up choices that command
//! needs (relocating each vanquished model, the Priest's revival, a Zombie's
//! recruit, placing a traded unit) are separate [`Action::Place`] /
//! [`Action::Decline`] decisions, so that every list of choices stays short.

use super::unit::Unit;
use crate::board::Cell;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// A plain move, or a move that kills whatever stands on `to` (Blue Knight,
    /// Wind Mage, Skeleton, Zombie, Mummy), or the Alchemist's swapping walk.
    Move { from: Cell, to: Cell },
    /// Kill `target` without moving.
    Kill { from: Cell, target: Cell },
    /// Move to `to`, then kill `target` (Priest, Duelist, Battle Mage).
    MoveKill { from: Cell, to: Cell, target: Cell },
    /// Walk off the board: the model dies (R3).
    Exit { from: Cell },
    /// A Skeleton walks off the far edge and reappears on `to`, beside his General.
    Walk { from: Cell, to: Cell },
    /// The Wind Mage's lightning bolt.
    Bolt { from: Cell, target: Cell },
    /// The Alchemist throws a firebrew, then perhaps moves to `then`.
    Brew {
        from: Cell,
        target: Cell,
        then: Option<Cell>,
    },
    /// The Alchemist moves to `to`, then throws a firebrew from there.
    MoveBrew { from: Cell, to: Cell, target: Cell },
    /// The Battle Mage (perhaps after riding to `to`) vanquishes his neighbours.
    Vanquish { from: Cell, to: Option<Cell> },
    /// The Battle Mage promotes the soldier on `soldier` to `unit` from the graveyard.
    Promote { soldier: Cell, unit: Unit },
    /// No unit to promote into: the soldier returns to `to`, beside the Battle Mage.
    Recall { soldier: Cell, to: Cell },
    /// The Priest (in a corner) or the Necromancer revives a soldier onto `to`.
    Revive { from: Cell, to: Cell, unit: Unit },
    /// The Necromancer trades the two models on `give` for `unit` (placed next).
    Trade {
        from: Cell,
        give: [Cell; 2],
        unit: Unit,
    },
    /// The Dark Priest sacrifices the soldier on `sacrifice`: the night wind.
    Wind { from: Cell, sacrifice: Cell },
    /// The Dark Priest explodes the ally on `target`.
    Explode { from: Cell, target: Cell },
    /// The Dark Priest kills all adjacent enemy models.
    Smite { from: Cell },
    /// Answers a pending placement: relocation, revival, recruit, trade.
    Place { to: Cell, unit: Option<Unit> },
    /// Refuses an optional pending placement (the Priest's revival, a recruit).
    Decline,
    /// Only when the side has nothing else it may do (R16).
    Pass,
    /// The Ghost scares every adjacent model three squares away (U4).
    Scare { from: Cell },
    /// The Cultist takes control of the adjacent enemy on `target` (U5).
    Control { from: Cell, target: Cell },
    /// The Wraith swings his scythe at every adjacent model (U6).
    Swing { from: Cell },
    /// The Vampire kills `target`, then moves to `to` (U7).
    KillMove { from: Cell, target: Cell, to: Cell },
    /// The Lich raises `unit` from the enemy's graveyard as a soul slave on `to` (U8).
    Enslave { from: Cell, to: Cell, unit: Unit },
    /// Answers a pending burial with the allied model on `cell` (U8).
    BuryModel { cell: Cell },
    /// Answers a pending burial with a `unit` from the own graveyard (U8).
    BuryDead { unit: Unit },
}

impl Action {
    /// The square of the unit commanded, if the action commands one.
    pub fn actor(&self) -> Option<Cell> {
        match *self {
            Action::Move { from, .. }
            | Action::Kill { from, .. }
            | Action::MoveKill { from, .. }
            | Action::Exit { from }
            | Action::Walk { from, .. }
            | Action::Bolt { from, .. }
            | Action::Brew { from, .. }
            | Action::MoveBrew { from, .. }
            | Action::Vanquish { from, .. }
            | Action::Revive { from, .. }
            | Action::Trade { from, .. }
            | Action::Wind { from, .. }
            | Action::Explode { from, .. }
            | Action::Smite { from }
            | Action::Scare { from }
            | Action::Control { from, .. }
            | Action::Swing { from }
            | Action::KillMove { from, .. }
            | Action::Enslave { from, .. } => Some(from),
            Action::BuryModel { .. } | Action::BuryDead { .. } => None,
            Action::Promote { .. } | Action::Recall { .. } => None,
            Action::Place { .. } | Action::Decline | Action::Pass => None,
        }
    }
}
