//! The position: models on the board, graveyards, whose turn, pending decisions.

use super::army::Army;
use super::unit::{Rank, Unit};
use crate::board::{Board, Cell};
use crate::seat::{Outcome, Seat};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// The Arcana board: 8x8, files a-h, ranks 1-8; seat 0 sits at ranks 1-2.
pub const BOARD: Board = Board::grid(8, 8);

/// Firebrew tokens placed on a model struck by a firebrew.
pub const BREW_TOKENS: u8 = 3;

/// Turns in a row without any model killed, revived, placed or promoted after
/// which the game is drawn (R17).
pub const QUIET_TURNS: u32 = 100;

/// The turn after which a game that is still going is drawn (R17).
pub const TURN_LIMIT: u32 = 600;

/// The edition of Tokar's own rulings new games play by. Edition 1 is the
/// first (R20's recruit for every Zombie, U5 without control of a General,
/// U10 counting only the General's moves); edition 2 revised those three
/// (engine/rules/arcana.md says what changed). A game keeps the edition it
/// began with: stored games replay their recorded actions by it.
pub const RULINGS: u8 = 2;

fn first_rulings() -> u8 {
    1
}

/// One model on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    pub unit: Unit,
    pub owner: Seat,
    /// Firebrew tokens left (0: not burning).
    pub tokens: u8,
    /// Held by tomb gas since the end of the last turn.
    pub paralysed: bool,
    /// Turns of its owner for which it may not be commanded ("moved by others").
    pub rest: u8,
    /// A Priest of the Winds who has used his once-only revival.
    pub revived: bool,
    /// A Lich's soul slave: its captures of enemies cost a burial (U8).
    #[serde(default)]
    pub slave: bool,
    /// Under a Cultist's control through this turn number (0: never) (U5).
    #[serde(default)]
    pub controlled_until: u32,
}

impl Piece {
    pub fn new(unit: Unit, owner: Seat) -> Piece {
        Piece {
            unit,
            owner,
            tokens: 0,
            paralysed: false,
            rest: 0,
            revived: false,
            slave: false,
            controlled_until: 0,
        }
    }

    pub fn rank(&self) -> Rank {
        self.unit.rank()
    }

    /// Its owner may command it now (no tomb gas, not resting).
    pub fn commandable(&self) -> bool {
        !self.paralysed && self.rest == 0
    }
}

/// A decision the game waits for before the turn can end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Pending {
    /// Relocate vanquished models, the first of `queue` next, onto any empty square.
    Relocate { seat: Seat, queue: Vec<Piece> },
    /// A Priest of the Winds was killed: his owner may revive him onto any empty square.
    PriestRevival { seat: Seat, piece: Piece },
    /// A Zombie on `zombie` killed an enemy of `rank`: his owner may raise a
    /// unit of that rank from the graveyard next to him (R20). Under Undead
    /// Arcana's rules (edition 2) the victim itself, held in `turned`, rises
    /// instead as his own unit of that rank, one of its two options (U9).
    Recruit {
        seat: Seat,
        zombie: Cell,
        rank: Rank,
        #[serde(default)]
        turned: Option<Piece>,
    },
    /// The unit a Necromancer traded for waits to be placed next to him.
    TradePlace { seat: Seat, necro: Cell, unit: Unit },
    /// A Vampire on `vampire` captured: his side may command him once more (U7).
    ExtraTurn { seat: Seat, vampire: Cell },
    /// The Lich's side must bury one allied model (on the board or in the
    /// graveyard), not the one on `spare` (a slave just raised) (U8).
    Bury { seat: Seat, spare: Option<Cell> },
}

impl Pending {
    pub fn seat(&self) -> Seat {
        match self {
            Pending::Relocate { seat, .. }
            | Pending::PriestRevival { seat, .. }
            | Pending::Recruit { seat, .. }
            | Pending::TradePlace { seat, .. }
            | Pending::ExtraTurn { seat, .. }
            | Pending::Bury { seat, .. } => *seat,
        }
    }
}

/// A game of Arcana.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arcana {
    pub(crate) armies: [Army; 2],
    pub(crate) board: Vec<Option<Piece>>,
    /// Each seat's graveyard, in order of death.
    pub(crate) graves: [Vec<Unit>; 2],
    /// Whose turn it is.
    pub(crate) turn: Seat,
    /// Turns begun so far, from 1.
    pub(crate) turn_number: u32,
    /// Decisions that must be answered before the turn ends, first one first.
    pub(crate) pending: VecDeque<Pending>,
    /// The end of the current turn has begun (firebrew tokens removed); what is
    /// pending was raised by it.
    pub(crate) ending: bool,
    /// Turns in a row with nothing killed, revived, placed or promoted.
    pub(crate) quiet: u32,
    /// Announce "Check" (the optional rule).
    pub(crate) check: bool,
    pub(crate) outcome: Outcome,
    /// Each seat's buried models (Undead Arcana): gone for good (U3).
    #[serde(default)]
    pub(crate) buried: [Vec<Unit>; 2],
    /// Where the Vampire commanded this turn stands, to test his burial (U7).
    #[serde(default)]
    pub(crate) vampire_acted: Option<Cell>,
    /// This turn's Vampire extra turn has been taken (no second one, U7).
    #[serde(default)]
    pub(crate) extra_taken: bool,
    /// The edition of the rulings this game plays by ([`RULINGS`]); games
    /// stored before editions existed play by the first.
    #[serde(default = "first_rulings")]
    pub(crate) rulings: u8,
}

impl Arcana {
    pub fn at(&self, cell: Cell) -> Option<&Piece> {
        self.board[cell.index()].as_ref()
    }

    pub(crate) fn at_mut(&mut self, cell: Cell) -> Option<&mut Piece> {
        self.board[cell.index()].as_mut()
    }

    pub fn is_empty(&self, cell: Cell) -> bool {
        self.board[cell.index()].is_none()
    }

    pub fn turn(&self) -> Seat {
        self.turn
    }

    pub fn graveyard(&self, seat: Seat) -> &[Unit] {
        &self.graves[seat.index()]
    }

    /// A seat's buried models, in order of burial (Undead Arcana, U3).
    pub fn buried(&self, seat: Seat) -> &[Unit] {
        &self.buried[seat.index()]
    }

    pub fn pending(&self) -> Option<&Pending> {
        self.pending.front()
    }

    /// The edition of the rulings this game plays by ([`RULINGS`]).
    pub fn rulings(&self) -> u8 {
        self.rulings
    }

    pub fn army(&self, seat: Seat) -> &Army {
        &self.armies[seat.index()]
    }

    /// Every model with its square.
    pub fn pieces(&self) -> impl Iterator<Item = (Cell, &Piece)> {
        self.board
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.as_ref().map(|p| (Cell(i as u16), p)))
    }

    /// The square of `seat`'s General, if alive.
    pub fn general(&self, seat: Seat) -> Option<Cell> {
        self.pieces()
            .find(|(_, p)| p.owner == seat && p.rank() == Rank::General)
            .map(|(c, _)| c)
    }

    pub fn other(seat: Seat) -> Seat {
        Seat(1 - seat.0)
    }

    /// "Ahead" for a side: toward the enemy lines (R5): seat 0 up the ranks.
    pub fn forward(seat: Seat) -> i32 {
        if seat.0 == 0 {
            1
        } else {
            -1
        }
    }

    /// The rank index (0-7) of a side's far edge: the enemy's back row.
    pub fn far_rank(seat: Seat) -> i32 {
        if seat.0 == 0 {
            7
        } else {
            0
        }
    }

    /// Whether `cell` is in one of `seat`'s own two back rows.
    pub fn in_back_ranks(seat: Seat, cell: Cell) -> bool {
        let (_, r) = BOARD.coords(cell);
        if seat.0 == 0 {
            r <= 1
        } else {
            r >= 6
        }
    }

    pub fn is_corner(cell: Cell) -> bool {
        let (f, r) = BOARD.coords(cell);
        (f == 0 || f == 7) && (r == 0 || r == 7)
    }

    /// The empty squares adjacent to `cell`.
    pub fn empty_neighbours(&self, cell: Cell) -> Vec<Cell> {
        let mut out = Vec::with_capacity(8);
        let (f, r) = BOARD.coords(cell);
        for df in -1..=1 {
            for dr in -1..=1 {
                if df == 0 && dr == 0 {
                    continue;
                }
                if let Some(c) = BOARD.at(f + df, r + dr) {
                    if self.is_empty(c) {
                        out.push(c);
                    }
                }
            }
        }
        out
    }

    /// The occupied squares adjacent to `cell`.
    pub fn occupied_neighbours(&self, cell: Cell) -> Vec<Cell> {
        let mut out = Vec::with_capacity(8);
        let (f, r) = BOARD.coords(cell);
        for df in -1..=1 {
            for dr in -1..=1 {
                if df == 0 && dr == 0 {
                    continue;
                }
                if let Some(c) = BOARD.at(f + df, r + dr) {
                    if !self.is_empty(c) {
                        out.push(c);
                    }
                }
            }
        }
        out
    }

    /// The distinct unit types of `rank` (or of the ranks `pred` accepts) in
    /// `seat`'s graveyard, in a fixed order.
    pub fn grave_units(&self, seat: Seat, pred: impl Fn(Rank) -> bool) -> Vec<Unit> {
        let mut out: Vec<Unit> = self.graves[seat.index()]
            .iter()
            .copied()
            .filter(|u| pred(u.rank()))
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// A model's description for messages: "the Skeleton on e7".
    pub fn describe(&self, cell: Cell) -> String {
        match self.at(cell) {
            Some(p) => format!("the {} on {}", p.unit.name(), BOARD.name(cell)),
            None => format!("the empty square {}", BOARD.name(cell)),
        }
    }

    /// Tomb gas: an enemy Mummy adjacent to `cell` (for `owner`'s model), if any.
    pub fn gassing_mummy(&self, cell: Cell, owner: Seat) -> Option<Cell> {
        self.occupied_neighbours(cell).into_iter().find(|&c| {
            self.at(c)
                .is_some_and(|p| p.unit == Unit::Mummy && p.owner != owner)
        })
    }

    /// Recomputes tomb gas for every model (done at the end of each turn):
    /// a model is paralysed when an enemy Mummy stands next to it.
    pub(crate) fn update_paralysis(&mut self) {
        let mut gassed = [false; 64];
        for (cell, p) in self.pieces() {
            if p.unit != Unit::Mummy {
                continue;
            }
            for n in self.occupied_neighbours(cell) {
                if self.at(n).is_some_and(|q| q.owner != p.owner) {
                    gassed[n.index()] = true;
                }
            }
        }
        for (i, slot) in self.board.iter_mut().enumerate() {
            if let Some(q) = slot {
                q.paralysed = gassed[i];
            }
        }
    }
}
