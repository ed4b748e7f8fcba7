//! What one viewer may see of a game: the only thing the renderer and every
//! public message are built from. A view never holds another seat's hand, the
//! deck order or the seed.

use crate::board::{Board, Cell};
use crate::seat::{Outcome, Seat, Viewer};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct View {
    /// The game's display title ("Tokar's Arcana").
    pub title: String,
    pub board: Board,
    pub viewer: Viewer,
    /// Degrees clockwise to turn the board so that the viewer's own army is at
    /// the bottom (spectators get the game's fixed side). Grids use multiples of 90.
    pub rotation: f32,
    pub seats: Vec<SeatView>,
    pub pieces: Vec<PieceView>,
    /// Seats whose decision the game waits for now.
    pub to_act: Vec<Seat>,
    /// The move counter players see ("move 12").
    pub move_number: u32,
    /// The last dice thrown, by whom.
    pub dice: Option<(Seat, Vec<u8>)>,
    /// The viewer's own hidden cards, if the game has any; empty for spectators.
    pub hand: Vec<String>,
    /// Cells shaded as a seat's zone (Arachne's setup zones).
    pub zones: Vec<(Cell, Seat)>,
    /// A decision waiting for an answer, in words ("Human: place the vanquished Mummy").
    pub pending: Option<String>,
    pub outcome: Outcome,
    /// The last dice again, one entry per side that threw them (an attack's
    /// dice apart from the defence's), each with the total the game compares;
    /// empty where the game throws no dice or has not yet.
    #[serde(default)]
    pub rolls: Vec<Roll>,
    /// Kings or Generals in check now (Gladiator's check, Arcana's optional
    /// "Check" announcement), drawn in a style of their own.
    #[serde(default)]
    pub check: Vec<Cell>,
    /// Cards lying face up under pieces (Magic Chess spells), one entry per
    /// card with its name; played cards are public, so every view has them.
    #[serde(default)]
    pub under: Vec<(Cell, String)>,
}

/// Dice one side threw together.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    pub seat: Seat,
    pub role: RollRole,
    pub dice: Vec<u8>,
    /// What the throw counts for, every bonus included (Arachne adds the
    /// piece's rank and the Grunts' help to its die), where the game compares
    /// totals; `None` where the faces count as they are (a turn's dice).
    pub total: Option<i32>,
}

/// What a throw of dice was for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RollRole {
    /// The attacker's dice in a battle or capture.
    Attack,
    /// The defender's dice against that attack.
    Defence,
    /// Dice thrown for the turn itself (Arachne's spiders' eyes).
    Turn,
}

/// One seat as everybody may see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatView {
    /// "Human", "Undead", "Red", "White King"...
    pub name: String,
    /// Index into the renderer's palette: seats of one team share a colour.
    pub colour: u8,
    pub eliminated: bool,
    /// How many hidden cards the seat holds (never which), if the game has cards.
    pub hand_size: Option<usize>,
    /// The seat's graveyard or the pieces it lost, as glyphs.
    pub lost: Vec<Glyph>,
    /// Short public facts ("Queen held 3 of 5 turns", "Priest revival used").
    pub notes: Vec<String>,
}

/// How to draw one piece.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Glyph {
    /// The unit's stable id, which names its icon ("skeleton", "blue-knight").
    pub unit: String,
    /// A letter badge, so that pieces are told apart without colour.
    pub letter: char,
    /// The unit's name for people ("Skeleton").
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PieceView {
    pub cell: Cell,
    pub seat: Seat,
    pub glyph: Glyph,
    /// (current, maximum) hit points, in games that have them.
    pub hp: Option<(i32, i32)>,
    pub statuses: Vec<StatusView>,
}

/// A condition on a piece, drawn as a badge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusView {
    pub kind: StatusKind,
    /// Turns or tokens left, where the status counts down.
    pub count: Option<u8>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum StatusKind {
    Paralysed,
    /// Firebrew: `count` tokens left before the model dies.
    Firebrew,
    /// Moved by others: may not act on its owner's next turn.
    Resting,
    Frozen,
    Slowed,
    AntiJump,
    /// Under an enemy's control for a turn.
    Controlled,
    /// Its owner takes another turn after this one.
    ExtraTurn,
    /// Held captive (Gladiator's captured Queen).
    Held,
    /// Cannot be attacked now (a King guarded by his Knight).
    Guarded,
}
