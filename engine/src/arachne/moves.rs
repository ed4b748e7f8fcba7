//! Which actions are legal, and why another one is not.

use super::{
    colour, Action, Arachne, Kind, Pending, Piece, BLADEMASTER_REACH, MATRON_REACH, SPIDERS_EYES,
    WIZARD_JUMP,
};
use crate::board::{Board, Cell, Dir};
use crate::seat::Seat;

/// The web's strands, computed once per game: the connected spaces of each
/// space (ruling R2) and the directions one may leave it in.
#[derive(Debug)]
pub(crate) struct Geo {
    pub neighbours: Vec<Vec<Cell>>,
    pub dirs: Vec<Vec<Dir>>,
}

impl Geo {
    pub fn new(board: &Board) -> Geo {
        Geo {
            neighbours: board.cells().map(|c| board.neighbours(c)).collect(),
            dirs: board.cells().map(|c| board.directions(c)).collect(),
        }
    }
}

const FAR: u8 = u8::MAX;

impl Arachne {
    /// The piece on `c`, seeing `vacated` as empty (the moving piece has left it).
    fn occupant(&self, c: Cell, vacated: Cell) -> Option<Piece> {
        if c == vacated {
            None
        } else {
            self.squares[c.index()]
        }
    }

    /// Whether `attacker` (moved by the seat to move, as a turncoat or not) may
    /// try to capture the piece on `target`: an opposing piece; an own piece of
    /// lower rank (punishment); a turncoat takes pieces of its own colour but
    /// never the Matron (ruling R11).
    fn can_take(&self, attacker: Piece, turncoat: bool, target: Cell, vacated: Cell) -> bool {
        let Some(t) = self.occupant(target, vacated) else {
            return false;
        };
        if turncoat {
            t.seat == attacker.seat && t.kind != Kind::Matron
        } else if t.seat != attacker.seat {
            true
        } else {
            t.kind.rank() < attacker.kind.rank()
        }
    }

    /// Spaces where a Grunt of `seat` may be promoted: where the opposing
    /// Matron, Priestess or Wizards started.
    pub(crate) fn is_promotion_cell(&self, seat: Seat, cell: Cell) -> bool {
        self.setup
            .army
            .iter()
            .any(|&(c, s, k)| c == cell && s != seat && k.marks_promotion())
    }

    /// The kinds a Grunt of `seat` may become: its lost pieces other than Grunts.
    pub(crate) fn promotable(&self, seat: Seat) -> Vec<Kind> {
        let mut kinds: Vec<Kind> = self.lost[seat.index()]
            .iter()
            .copied()
            .filter(|&k| k != Kind::Grunt && k != Kind::Matron)
            .collect();
        kinds.sort();
        kinds.dedup();
        kinds
    }

    /// Strand distances from every piece opposing `seat` (ruling R7: pieces in
    /// between do not lengthen the way).
    pub(crate) fn distances_to_opponents(&self, seat: Seat) -> Vec<u8> {
        let geo = self.geo();
        let mut dist = vec![FAR; self.squares.len()];
        let mut queue: Vec<Cell> = Vec::with_capacity(self.squares.len());
        for (i, sq) in self.squares.iter().enumerate() {
            if matches!(sq, Some(p) if p.seat != seat) {
                dist[i] = 0;
                queue.push(Cell(i as u16));
            }
        }
        let mut head = 0;
        while head < queue.len() {
            let c = queue[head];
            head += 1;
            for &n in &geo.neighbours[c.index()] {
                if dist[n.index()] == FAR {
                    dist[n.index()] = dist[c.index()] + 1;
                    queue.push(n);
                }
            }
        }
        dist
    }

    /// Every action of the seat to move.
    pub(crate) fn actions(&self) -> Vec<Action> {
        if let Some(p) = self.pending {
            return self.again_actions(p);
        }
        let me = self.to_move;
        let mut out = Vec::new();
        let mut mine: Vec<(Cell, Piece)> = self.pieces_of(me).collect();
        if self.spiders_eyes() {
            mine.extend(self.pieces_of(super::other(me)));
        }
        let mut dist: [Option<Vec<u8>>; 2] = [None, None];
        for (cell, piece) in mine {
            let turncoat = piece.seat != me;
            self.piece_actions(cell, piece, turncoat, &mut dist, &mut out);
        }
        if out.is_empty() {
            out.push(Action::Pass);
        }
        out
    }

    /// Whether `action` is legal now; it generates only the moving piece's
    /// actions, which keeps `play` and `parse` cheap.
    pub(crate) fn is_legal(&self, action: &Action) -> bool {
        if let Some(p) = self.pending {
            return self.again_actions(p).contains(action);
        }
        let me = self.to_move;
        let (turncoat, from) = match *action {
            Action::Pass => return self.actions() == [Action::Pass],
            Action::End | Action::Again { .. } => return false,
            Action::Move { turncoat, from, .. }
            | Action::Jump { turncoat, from, .. }
            | Action::Strike { turncoat, from, .. } => (turncoat, from),
        };
        let Some(p) = self.piece(from) else {
            return false;
        };
        let allowed = if turncoat {
            self.spiders_eyes() && p.seat != me
        } else {
            p.seat == me
        };
        if !allowed {
            return false;
        }
        let mut own = Vec::new();
        self.piece_actions(from, p, turncoat, &mut [None, None], &mut own);
        own.contains(action)
    }

    /// The actions of one piece (moved by the seat to move).
    pub(crate) fn piece_actions(
        &self,
        from: Cell,
        p: Piece,
        turncoat: bool,
        dist: &mut [Option<Vec<u8>>; 2],
        out: &mut Vec<Action>,
    ) {
        let start = out.len();
        let mv = |to, capture| Action::Move {
            turncoat,
            from,
            to,
            capture,
            promote: None,
        };
        match p.kind {
            Kind::Matron => self.lines(from, p, turncoat, MATRON_REACH, true, None, &mv, out),
            Kind::Priestess => self.lines(from, p, turncoat, usize::MAX, false, None, &mv, out),
            Kind::Blademaster => {
                self.lines(from, p, turncoat, BLADEMASTER_REACH, false, None, &mv, out)
            }
            Kind::Wizard => self.wizard(from, p, turncoat, out),
            Kind::Grunt => {
                let d =
                    dist[p.seat.index()].get_or_insert_with(|| self.distances_to_opponents(p.seat));
                let here = d[from.index()];
                for &n in &self.geo().neighbours[from.index()] {
                    if d[n.index()] != FAR
                        && d[n.index()] + 1 == here
                        && self.squares[n.index()].is_none()
                    {
                        out.push(mv(n, None));
                        if !turncoat && self.is_promotion_cell(p.seat, n) {
                            for k in self.promotable(p.seat) {
                                out.push(Action::Move {
                                    turncoat,
                                    from,
                                    to: n,
                                    capture: None,
                                    promote: Some(k),
                                });
                            }
                        }
                    }
                }
            }
        }
        // Capturing without moving (ruling R10): any connected piece.
        for &n in &self.geo().neighbours[from.index()] {
            if self.can_take(p, turncoat, n, from) {
                out.push(Action::Strike {
                    turncoat,
                    from,
                    target: n,
                    promote: None,
                });
                if p.kind == Kind::Grunt && !turncoat && self.is_promotion_cell(p.seat, n) {
                    for k in self.promotable(p.seat) {
                        out.push(Action::Strike {
                            turncoat,
                            from,
                            target: n,
                            promote: Some(k),
                        });
                    }
                }
            }
        }
        // Two directions may reach one space (around a ring both ways).
        let mut seen = Vec::with_capacity(out.len() - start);
        let mut i = start;
        while i < out.len() {
            if seen.contains(&out[i]) {
                out.remove(i);
            } else {
                seen.push(out[i]);
                i += 1;
            }
        }
    }

    /// Straight moves of up to `max` spaces in each direction, each ending on
    /// an empty space, with the capture of the piece next in that direction.
    /// `over_own`: the Matron passes over pieces of her colour. `forbidden`:
    /// a space the move may not end on (the Blademaster's starting space).
    #[allow(clippy::too_many_arguments)]
    fn lines(
        &self,
        from: Cell,
        p: Piece,
        turncoat: bool,
        max: usize,
        over_own: bool,
        forbidden: Option<Cell>,
        make: &dyn Fn(Cell, Option<Cell>) -> Action,
        out: &mut Vec<Action>,
    ) {
        let board = self.setup.board;
        for &d in &self.geo().dirs[from.index()] {
            let (mut cur, mut dir) = (from, d);
            let mut steps = 0;
            while steps < max {
                let Some((c, nd)) = board.step(cur, dir) else {
                    break;
                };
                if c == from {
                    break;
                }
                steps += 1;
                match self.occupant(c, from) {
                    Some(q) if over_own && q.seat == p.seat => {}
                    Some(_) => break,
                    None => {
                        if Some(c) != forbidden {
                            out.push(make(c, None));
                            if let Some((n, _)) = board.step(c, nd) {
                                if self.can_take(p, turncoat, n, from) {
                                    out.push(make(c, Some(n)));
                                }
                            }
                        }
                    }
                }
                cur = c;
                dir = nd;
            }
        }
    }

    /// The Wizard's one step (capture around, follow up) and his three-space
    /// moves (capture around, no follow-up).
    fn wizard(&self, from: Cell, p: Piece, turncoat: bool, out: &mut Vec<Action>) {
        let nb = &self.geo().neighbours;
        for &n in &nb[from.index()] {
            if self.occupant(n, from).is_some() {
                continue;
            }
            out.push(Action::Move {
                turncoat,
                from,
                to: n,
                capture: None,
                promote: None,
            });
            for &m in &nb[n.index()] {
                if self.can_take(p, turncoat, m, from) {
                    out.push(Action::Move {
                        turncoat,
                        from,
                        to: n,
                        capture: Some(m),
                        promote: None,
                    });
                }
            }
        }
        for to in self.jump_ends(from) {
            out.push(Action::Jump {
                turncoat,
                from,
                to,
                capture: None,
            });
            for &m in &nb[to.index()] {
                if self.can_take(p, turncoat, m, from) {
                    out.push(Action::Jump {
                        turncoat,
                        from,
                        to,
                        capture: Some(m),
                    });
                }
            }
        }
    }

    /// Empty spaces at the end of a path of exactly three strands from `from`
    /// that visits no space twice (occupied spaces may be crossed).
    pub(crate) fn jump_ends(&self, from: Cell) -> Vec<Cell> {
        // The search and the notation ([Cell; 4]) are written out for three
        // strands: another length fails to compile here until they follow.
        const _: () = assert!(WIZARD_JUMP == 3);
        let nb = &self.geo().neighbours;
        let mut ends = Vec::new();
        for &a in &nb[from.index()] {
            for &b in &nb[a.index()] {
                if b == from {
                    continue;
                }
                for &c in &nb[b.index()] {
                    if c != from
                        && c != a
                        && self.squares[c.index()].is_none()
                        && !ends.contains(&c)
                    {
                        ends.push(c);
                    }
                }
            }
        }
        ends.sort();
        ends
    }

    /// One path of three strands from `from` to `to`, for the notation.
    pub(crate) fn jump_path(&self, from: Cell, to: Cell) -> Option<[Cell; 4]> {
        let nb = &self.geo().neighbours;
        for &a in &nb[from.index()] {
            for &b in &nb[a.index()] {
                if b != from && nb[b.index()].contains(&to) && to != a && to != from {
                    return Some([from, a, b, to]);
                }
            }
        }
        None
    }

    /// Whether `path` is three strands visiting no space twice.
    pub(crate) fn is_jump_path(&self, path: &[Cell]) -> bool {
        let nb = &self.geo().neighbours;
        path.len() == 4
            && path.windows(2).all(|w| nb[w[0].index()].contains(&w[1]))
            && (0..4).all(|i| (i + 1..4).all(|j| path[i] != path[j]))
    }

    fn again_actions(&self, pending: Pending) -> Vec<Action> {
        let mut out = Vec::new();
        if let Some(p) = self.squares[pending.cell.index()] {
            let from = pending.cell;
            let make = |to, capture| Action::Again { from, to, capture };
            self.lines(
                from,
                p,
                pending.turncoat,
                BLADEMASTER_REACH,
                false,
                Some(pending.origin),
                &make,
                &mut out,
            );
            out.sort();
            out.dedup();
        }
        out.push(Action::End);
        out
    }

    /// Why `action` is not legal now, in words (it is known not to be).
    pub(crate) fn explain(&self, action: &Action) -> String {
        let me = self.to_move;
        if let Some(p) = self.pending {
            return match action {
                Action::Again { from, .. } if *from == p.cell => format!(
                    "The Blademaster on {} moves up to {BLADEMASTER_REACH} empty spaces in one direction, not back to {}, and captures only the piece next in that direction.",
                    self.name(p.cell),
                    self.name(p.origin)
                ),
                _ => format!(
                    "The Blademaster on {} must move again (e.g. {}) or end the turn (type end).",
                    self.name(p.cell),
                    self.again_actions(p)
                        .first()
                        .map(|a| self.format_action(a))
                        .unwrap_or_else(|| "end".into())
                ),
            };
        }
        let (turncoat, from) = match *action {
            Action::Pass => return "You may pass only when no piece can move or capture.".into(),
            Action::End | Action::Again { .. } => {
                return "Only a Blademaster who has just made his first move may move again or end."
                    .into()
            }
            Action::Move { turncoat, from, .. }
            | Action::Jump { turncoat, from, .. }
            | Action::Strike { turncoat, from, .. } => (turncoat, from),
        };
        let Some(p) = self.piece(from) else {
            return format!("There is no piece on {}.", self.name(from));
        };
        let what = format!("The {} on {}", self.piece_name(p), self.name(from));
        if turncoat {
            if !self.spiders_eyes() {
                let [a, b] = self.turn_dice;
                let [x, y] = SPIDERS_EYES;
                return format!(
                    "A turncoat needs spiders' eyes ({x}+{y}); this turn's dice show {a}+{b}."
                );
            }
            if p.seat == me {
                return format!("{what} is yours: a turncoat moves one of the opponent's pieces.");
            }
        } else if p.seat != me {
            return if self.spiders_eyes() {
                format!("{what} is not yours; to move it as a turncoat, begin with 'turncoat'.")
            } else {
                format!("{what} is not yours.")
            };
        }
        let (target, promote) = match *action {
            Action::Move {
                capture, promote, ..
            } => (capture, promote),
            Action::Jump { capture, .. } => (capture, None),
            Action::Strike {
                target, promote, ..
            } => (Some(target), promote),
            _ => (None, None),
        };
        if let Some(t) = target {
            match self.piece(t) {
                None => return format!("There is no piece on {} to capture.", self.name(t)),
                Some(v) if turncoat && v.kind == Kind::Matron => {
                    return "A turncoat can never capture the Matron.".into()
                }
                Some(v) if turncoat && v.seat == me => {
                    return "A turncoat captures only pieces of its own colour.".into()
                }
                Some(v) if !turncoat && v.seat == me && v.kind.rank() >= p.kind.rank() => {
                    return "A punishment captures only your own pieces of lower rank than the punishing piece.".into()
                }
                _ => {}
            }
        }
        if let Some(k) = promote {
            if p.kind != Kind::Grunt {
                return "Only a Grunt is promoted.".into();
            }
            if turncoat {
                return "A Grunt moved as a turncoat is not promoted.".into();
            }
            let to = match *action {
                Action::Move { to, .. } => to,
                Action::Strike { target, .. } => target,
                _ => from,
            };
            if !self.is_promotion_cell(p.seat, to) {
                return format!(
                    "{} is not a start space of the opposing Matron, Priestess or a Wizard.",
                    self.name(to)
                );
            }
            if !self.promotable(p.seat).contains(&k) {
                return format!(
                    "{} has lost no {} for the Grunt to become.",
                    colour(p.seat),
                    k.name()
                );
            }
        }
        if let Action::Strike { target, .. } = *action {
            if !self.geo().neighbours[from.index()].contains(&target) {
                return "A capture without moving takes a piece on a connected space.".into();
            }
        }
        if matches!(action, Action::Jump { .. }) && p.kind != Kind::Wizard {
            return format!("Only a Wizard moves exactly {WIZARD_JUMP} spaces.");
        }
        let mut own = Vec::new();
        let mut dist = [None, None];
        self.piece_actions(from, p, turncoat, &mut dist, &mut own);
        let how = match p.kind {
            Kind::Matron => format!("moves up to {MATRON_REACH} spaces in one direction, over her own pieces but not the opponent's, and captures only the piece next in that direction"),
            Kind::Priestess => "moves any number of empty spaces in one direction and captures only the piece next in that direction".into(),
            Kind::Wizard => format!("moves one space or exactly {WIZARD_JUMP}, and captures a piece on a space connected to where he ends"),
            Kind::Blademaster => format!("moves up to {BLADEMASTER_REACH} empty spaces in one direction and captures only the piece next in that direction (then moves again)"),
            Kind::Grunt => "moves one space toward the closest opposing piece, or captures a connected piece without moving".into(),
        };
        let examples: Vec<String> = own.iter().take(8).map(|a| self.format_action(a)).collect();
        if examples.is_empty() {
            format!("{what} {how}; it can do nothing now.")
        } else {
            format!(
                "{what} {how}; it can play {}{}.",
                examples.join(", "),
                if own.len() > 8 { ", ..." } else { "" }
            )
        }
    }
}
