//! How each piece moves: the destinations of a piece, and in words why a
//! destination is not one of them.

use super::pieces::{seat_name, Kind, Piece};
use super::MagicChess;
use crate::board::{Cell, Dir};
use crate::seat::Seat;
use serde::{Deserialize, Serialize};

/// A piece's move; `promote` is set exactly when a pawn reaches its far edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    pub from: Cell,
    pub to: Cell,
    pub promote: Option<Kind>,
}

/// How far a Frog moves in one straight line: it jumps the squares between
/// (the rule text: "one or two squares in any direction").
pub const FROG_REACH: i32 = 2;

/// The 8x8 square at zero-based (file, rank), if on the board.
pub(super) fn at(file: i32, rank: i32) -> Option<Cell> {
    if (0..8).contains(&file) && (0..8).contains(&rank) {
        Some(Cell((rank * 8 + file) as u16))
    } else {
        None
    }
}

pub(super) fn coords(cell: Cell) -> (i32, i32) {
    (cell.0 as i32 % 8, cell.0 as i32 / 8)
}

fn offset(cell: Cell, df: i32, dr: i32) -> Option<Cell> {
    let (f, r) = coords(cell);
    at(f + df, r + dr)
}

/// The square name (`e4`).
pub(super) fn name(cell: Cell) -> String {
    let (f, r) = coords(cell);
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

/// The way a seat's pawns advance: toward the far side of its own army.
pub fn forward(seat: Seat) -> (i32, i32) {
    match seat.0 {
        0 => (0, 1),
        1 => (1, 0),
        2 => (0, -1),
        _ => (-1, 0),
    }
}

/// A pawn of `seat` on `cell` stands on its far edge (where it promotes).
pub fn on_far_edge(seat: Seat, cell: Cell) -> bool {
    let (df, dr) = forward(seat);
    offset(cell, df, dr).is_none()
}

/// "a, b or c": a list of alternatives as the texts write it.
pub(crate) fn either<S: AsRef<str>>(items: impl IntoIterator<Item = S>) -> String {
    let items: Vec<String> = items.into_iter().map(|s| s.as_ref().to_string()).collect();
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// Why a square cannot be passed over by a jumping piece.
enum Wall {
    /// The jumper carries an Anti-Jump card and the square is occupied.
    AntiJump(Piece),
    /// An eliminated player's piece, which nobody may pass through (ruling R10).
    Dead(Piece),
}

impl MagicChess {
    /// The piece on a square.
    pub fn piece_at(&self, cell: Cell) -> Option<Piece> {
        self.cells.get(cell.index()).copied().flatten()
    }

    /// `owner`'s pieces are on `mover`'s side: the same seat, or (with
    /// partners) the partner while still in the game (ruling R14).
    pub(super) fn friend(&self, mover: Seat, owner: Seat) -> bool {
        mover == owner || (self.partners && mover.0 % 2 == owner.0 % 2 && !self.is_out(owner))
    }

    /// The piece may land on `cell`: empty, or holding a piece it may capture.
    fn may_land(&self, mover: Seat, cell: Cell) -> bool {
        match self.piece_at(cell) {
            None => true,
            Some(p) => !self.friend(mover, p.seat),
        }
    }

    fn wall(&self, jumper: &Piece, cell: Cell) -> Option<Wall> {
        let p = self.piece_at(cell)?;
        if jumper.anti_jump() {
            Some(Wall::AntiJump(p))
        } else if self.is_out(p.seat) {
            Some(Wall::Dead(p))
        } else {
            None
        }
    }

    /// Every destination of the piece on `from`, as its owner may move it now.
    pub(super) fn destinations(&self, from: Cell, out: &mut Vec<Cell>) {
        let Some(piece) = self.piece_at(from) else {
            return;
        };
        if piece.frozen() {
            return;
        }
        let me = piece.seat;
        let slow = piece.slowed();
        match piece.kind {
            Kind::King => {
                for (df, dr) in Dir::ALL_STEPS {
                    if let Some(c) = offset(from, df, dr) {
                        if self.may_land(me, c) {
                            out.push(c);
                        }
                    }
                }
            }
            Kind::Wizard => self.slide(me, from, &Dir::ORTHOGONAL_STEPS, slow, out),
            Kind::Fairy => {
                self.slide(me, from, &Dir::DIAGONAL_STEPS, slow, out);
                if !slow {
                    for (df, dr) in Dir::ORTHOGONAL_STEPS {
                        for (pf, pr) in [(-dr, df), (dr, -df)] {
                            let (Some(s1), Some(s2)) =
                                (offset(from, df, dr), offset(from, 2 * df, 2 * dr))
                            else {
                                continue;
                            };
                            let Some(to) = offset(s2, pf, pr) else {
                                continue;
                            };
                            if self.wall(&piece, s1).is_none()
                                && self.wall(&piece, s2).is_none()
                                && self.may_land(me, to)
                            {
                                out.push(to);
                            }
                        }
                    }
                }
            }
            Kind::Frog => {
                let reach = if slow { 1 } else { FROG_REACH };
                for (df, dr) in Dir::ALL_STEPS {
                    for k in 1..=reach {
                        let Some(c) = offset(from, k * df, k * dr) else {
                            break;
                        };
                        if self.may_land(me, c) {
                            out.push(c);
                        }
                        // Beyond an occupied square only as a jump.
                        if self.wall(&piece, c).is_some() {
                            break;
                        }
                    }
                }
            }
            Kind::Pawn => {
                let (df, dr) = forward(me);
                if let Some(c) = offset(from, df, dr) {
                    if self.piece_at(c).is_none() {
                        out.push(c);
                    }
                }
                // Diagonally forward: the forward step plus one step to either side.
                for (sf, sr) in [(dr, df), (-dr, -df)] {
                    if let Some(c) = offset(from, df + sf, dr + sr) {
                        if matches!(self.piece_at(c), Some(p) if !self.friend(me, p.seat)) {
                            out.push(c);
                        }
                    }
                }
            }
        }
    }

    fn slide(&self, me: Seat, from: Cell, dirs: &[(i32, i32)], slow: bool, out: &mut Vec<Cell>) {
        for &(df, dr) in dirs {
            let mut at = from;
            while let Some(c) = offset(at, df, dr) {
                match self.piece_at(c) {
                    None => out.push(c),
                    Some(p) => {
                        if !self.friend(me, p.seat) {
                            out.push(c);
                        }
                        break;
                    }
                }
                if slow {
                    break;
                }
                at = c;
            }
        }
    }

    /// Every move of `seat` now (promotions once per choice).
    pub(super) fn moves(&self, seat: Seat, out: &mut Vec<Move>) {
        let mut dests = Vec::with_capacity(32);
        for (i, p) in self.cells.iter().enumerate() {
            let Some(p) = p else { continue };
            if p.seat != seat {
                continue;
            }
            let from = Cell(i as u16);
            dests.clear();
            self.destinations(from, &mut dests);
            for &to in &dests {
                if p.kind == Kind::Pawn && on_far_edge(seat, to) {
                    for k in Kind::PROMOTIONS {
                        out.push(Move {
                            from,
                            to,
                            promote: Some(k),
                        });
                    }
                } else {
                    out.push(Move {
                        from,
                        to,
                        promote: None,
                    });
                }
            }
        }
    }

    /// Why `seat` may not move the piece on `from` to `to` (`None`: it may).
    pub(super) fn refuse_move(&self, seat: Seat, m: &Move) -> Option<String> {
        let (from, to) = (m.from, m.to);
        let Some(piece) = self.piece_at(from) else {
            return Some(format!("There is no piece on {}.", name(from)));
        };
        let what = format!("The {} on {}", piece.describe(), name(from));
        if piece.seat != seat {
            return Some(format!("{what} is not yours."));
        }
        if from == to {
            return Some("A piece must move to another square.".into());
        }
        if piece.frozen() {
            return Some(format!("{what} is frozen: it cannot move this turn."));
        }
        if let Some(p) = self.piece_at(to) {
            if self.friend(seat, p.seat) {
                return Some(format!(
                    "{} holds your own {}: a piece captures only enemy pieces.",
                    name(to),
                    if p.seat == seat {
                        p.kind.name().to_string()
                    } else {
                        format!("partner's {}", p.kind.name())
                    }
                ));
            }
        }
        let mut dests = Vec::new();
        self.destinations(from, &mut dests);
        if !dests.contains(&to) {
            return Some(self.explain(&piece, from, to, &what));
        }
        let edge = piece.kind == Kind::Pawn && on_far_edge(seat, to);
        match (edge, m.promote) {
            (true, None) => Some(format!(
                "A pawn reaching {} promotes: add {}.",
                name(to),
                either(Kind::PROMOTIONS.map(|k| format!("={}", k.word())))
            )),
            (false, Some(_)) => Some("Only a pawn reaching its far edge promotes.".into()),
            (true, Some(k)) if !Kind::PROMOTIONS.contains(&k) => Some(format!(
                "A pawn promotes to a {}, not a {}.",
                either(Kind::PROMOTIONS.map(|k| k.name().to_string())),
                k.name()
            )),
            _ => None,
        }
    }

    /// Why a destination outside the piece's moves is out of reach, in words.
    fn explain(&self, piece: &Piece, from: Cell, to: Cell, what: &str) -> String {
        let (ff, fr) = coords(from);
        let (tf, tr) = coords(to);
        let (df, dr) = (tf - ff, tr - fr);
        let (adf, adr) = (df.abs(), dr.abs());
        let dist = adf.max(adr);
        let straight = df == 0 || dr == 0;
        let diagonal = adf == adr;
        let knight = (adf == 1 && adr == 2) || (adf == 2 && adr == 1);
        let first_blocker = |step: (i32, i32)| -> Option<(Cell, Piece)> {
            let mut at = from;
            loop {
                at = offset(at, step.0, step.1)?;
                if at == to {
                    return None;
                }
                if let Some(p) = self.piece_at(at) {
                    return Some((at, p));
                }
            }
        };
        let blocked = |c: Cell, p: Piece| {
            format!(
                "{what} is blocked by the {} on {}.",
                self.describe_on_board(&p),
                name(c)
            )
        };
        let slowed = format!("{what} is slowed: it may move one square only this turn.");
        let wall_text = |c: Cell| {
            match self.wall(piece, c) {
            Some(Wall::AntiJump(p)) => format!(
                "{what} is under Anti-Jump: it may not jump over the {} on {}.",
                self.describe_on_board(&p),
                name(c)
            ),
            Some(Wall::Dead(p)) => format!(
                "{what} may not pass through the {} on {}: an eliminated player's pieces cannot be passed through.",
                self.describe_on_board(&p),
                name(c)
            ),
            None => format!("{what} cannot move to {}.", name(to)),
        }
        };
        let step = (df.signum(), dr.signum());
        match piece.kind {
            Kind::King => format!("{what} moves one square only, like a chess king."),
            Kind::Wizard => {
                if !straight {
                    format!("{what} moves like a rook: along a rank or a file.")
                } else if piece.slowed() && dist > 1 {
                    slowed
                } else if let Some((c, p)) = first_blocker(step) {
                    blocked(c, p)
                } else {
                    format!("{what} cannot move to {}.", name(to))
                }
            }
            Kind::Fairy => {
                if knight {
                    if piece.slowed() {
                        return slowed;
                    }
                    // The path: two squares along the longer leg, then the turn.
                    let (lf, lr) = if adf == 2 { (step.0, 0) } else { (0, step.1) };
                    let s1 = offset(from, lf, lr);
                    let s2 = offset(from, 2 * lf, 2 * lr);
                    for c in [s1, s2].into_iter().flatten() {
                        if self.wall(piece, c).is_some() {
                            return wall_text(c);
                        }
                    }
                    format!("{what} cannot move to {}.", name(to))
                } else if !diagonal {
                    format!(
                        "{what} moves like a bishop, or two squares straight then one to the side."
                    )
                } else if piece.slowed() && dist > 1 {
                    slowed
                } else if let Some((c, p)) = first_blocker(step) {
                    blocked(c, p)
                } else {
                    format!("{what} cannot move to {}.", name(to))
                }
            }
            Kind::Frog => {
                if !(straight || diagonal) || dist > FROG_REACH {
                    format!(
                        "{what} moves 1 to {FROG_REACH} squares in a straight line, any direction."
                    )
                } else if piece.slowed() && dist > 1 {
                    slowed
                } else {
                    // The first square it would have to jump and may not.
                    (1..dist)
                        .filter_map(|k| offset(from, k * step.0, k * step.1))
                        .find(|&c| self.wall(piece, c).is_some())
                        .map(wall_text)
                        .unwrap_or_else(|| format!("{what} cannot move to {}.", name(to)))
                }
            }
            Kind::Pawn => {
                let (fw_f, fw_r) = forward(piece.seat);
                if (df, dr) == (fw_f, fw_r) {
                    format!(
                        "{what} moves straight ahead only onto an empty square; {} is taken.",
                        name(to)
                    )
                } else if dist == 1 && diagonal && (df * fw_f + dr * fw_r) == 1 {
                    format!(
                        "{what} moves diagonally only to capture, and {} holds no enemy piece.",
                        name(to)
                    )
                } else {
                    format!(
                        "{what} moves one square forward (toward {}), capturing diagonally forward.",
                        match piece.seat.0 {
                            0 => "rank 8",
                            1 => "the h-file",
                            2 => "rank 1",
                            _ => "the a-file",
                        }
                    )
                }
            }
        }
    }

    /// "Blue Pawn", or "dead Blue Pawn" for an eliminated player's piece.
    pub(super) fn describe_on_board(&self, p: &Piece) -> String {
        if self.is_out(p.seat) {
            format!("eliminated {} {}", seat_name(p.seat), p.kind.name())
        } else {
            p.describe()
        }
    }
}
