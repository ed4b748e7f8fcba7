//! Where each piece may go, what moving onto a square means (a plain move, a
//! battle, a freeze, an instant elimination, a Queen's capture), check, and
//! the legal moves of a seat.

use super::piece::{
    Commander, Kind, Piece, Team, ATTACK_DICE, CHAMPION_STEPS, DIE_SIDES, FOOTMAN_BECOMES,
    FROZEN_DICE,
};
use super::{cell_at, name, seat_of, team_of, Action, Gladiator, BOARD};
use crate::board::{Cell, Dir, KNIGHT_JUMPS};
use crate::error::ActionError;
use crate::seat::Seat;

/// What a move onto its target square does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Onto an empty square.
    Move,
    /// A battle; `frozen_bonus` when attacking a piece one's own Queen holds frozen.
    Attack { frozen_bonus: bool },
    /// The Queen lands on an enemy and freezes it.
    Freeze,
    /// A guarded King's instant elimination of the piece on the square.
    Eliminate,
    /// The enemy Queen is taken captive (no battle: she never fights).
    CaptureQueen,
}

/// How a battle may end, for judging whether a move is safe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fight {
    /// The defender is reduced to zero; the attacker takes the square.
    Kill,
    /// Both survive; the attacker stays where it was (R4).
    Stand,
    /// The attacker is reduced to zero.
    Fall,
}

fn xy(cell: Cell) -> (i32, i32) {
    BOARD.coords(cell)
}

fn at(f: i32, r: i32) -> Option<Cell> {
    BOARD.at(f, r)
}

impl Gladiator {
    fn occ(&self, f: i32, r: i32) -> bool {
        at(f, r).is_some_and(|c| self.cells[c.index()].is_some())
    }

    /// `team`'s King's Knight is alive (on the board or frozen on the tally).
    pub fn knight_lives(&self, team: Team) -> bool {
        let is_kk = |p: &Piece| p.team == team && p.kind == Kind::KingsKnight;
        self.cells.iter().flatten().any(is_kk)
            || self.frozen.iter().flatten().any(|f| is_kk(&f.piece))
    }

    /// The King is guarded: his King's Knight lives and his Queen is free.
    /// Only then does he eliminate instantly, can be checked, and cannot be
    /// attacked or frozen (King rules 3, 10, 11).
    pub fn guarded(&self, team: Team) -> bool {
        self.captive[team.index()].is_none() && self.knight_lives(team)
    }

    /// Where `team`'s King stands: his square, or the square of the Queen
    /// holding him frozen.
    pub fn king_cell(&self, team: Team) -> Option<Cell> {
        self.find(team, Kind::King).or_else(|| {
            self.frozen
                .iter()
                .flatten()
                .find(|f| f.piece.team == team && f.piece.kind == Kind::King)
                .map(|f| f.cell)
        })
    }

    /// The King moves as a Queen while his own Queen is held (King rule 11).
    fn king_as_queen(&self, team: Team) -> bool {
        self.captive[team.index()].is_some()
    }

    /// Every square the piece's movement reaches from `from`, the paths clear;
    /// the final square may hold anything (pawns: straight steps only onto
    /// empty squares, diagonal steps whatever is there).
    pub fn reach(&self, from: Cell, p: &Piece) -> Vec<Cell> {
        let (f, r) = xy(from);
        let mut out = Vec::new();
        let slide = |dirs: &[(i32, i32)], out: &mut Vec<Cell>| {
            for &(df, dr) in dirs {
                let (mut x, mut y) = (f + df, r + dr);
                while let Some(c) = at(x, y) {
                    out.push(c);
                    if self.cells[c.index()].is_some() {
                        break;
                    }
                    x += df;
                    y += dr;
                }
            }
        };
        match p.kind {
            Kind::King if self.king_as_queen(p.team) => slide(&Dir::ALL_STEPS, &mut out),
            Kind::King => out.extend(
                Dir::ALL_STEPS
                    .iter()
                    .filter_map(|&(df, dr)| at(f + df, r + dr)),
            ),
            Kind::Queen => slide(&Dir::ALL_STEPS, &mut out),
            Kind::Warrior => slide(&Dir::ORTHOGONAL_STEPS, &mut out),
            Kind::Scout => slide(&Dir::DIAGONAL_STEPS, &mut out),
            Kind::MountedKnight | Kind::BlackKnight | Kind::KingsKnight => out.extend(
                KNIGHT_JUMPS
                    .iter()
                    .filter_map(|&(df, dr)| at(f + df, r + dr)),
            ),
            Kind::Champion => {
                let far = CHAMPION_STEPS.iter().copied().max().unwrap_or(0);
                for df in -far..=far {
                    for dr in -far..=far {
                        if !CHAMPION_STEPS.contains(&(df.abs() + dr.abs())) {
                            continue;
                        }
                        if let Some(c) = at(f + df, r + dr) {
                            if self.champion_path(f, r, df, dr) {
                                out.push(c);
                            }
                        }
                    }
                }
            }
            Kind::Footman | Kind::Squire => {
                let fw = p.team.forward();
                if let Some(c) = at(f, r + fw) {
                    if self.cells[c.index()].is_none() {
                        out.push(c);
                        // Footmen may always step two; Squires only from their start rank.
                        let start = p.team.back_rank() + fw;
                        if p.kind == Kind::Footman || r == start {
                            if let Some(c2) = at(f, r + 2 * fw) {
                                if self.cells[c2.index()].is_none() {
                                    out.push(c2);
                                }
                            }
                        }
                    }
                }
                out.extend([-1, 1].iter().filter_map(|&df| at(f + df, r + fw)));
            }
        }
        out
    }

    /// A Champion's walk of `df`, `dr`: straight, or along one side then the
    /// other with a single turn; every square before the last empty (R3).
    fn champion_path(&self, f: i32, r: i32, df: i32, dr: i32) -> bool {
        let (sf, sr) = (df.signum(), dr.signum());
        let (nf, nr) = (df.abs(), dr.abs());
        // Files first, then ranks.
        let files_first = (1..=nf).all(|i| (i == nf && nr == 0) || !self.occ(f + sf * i, r))
            && (1..nr).all(|j| !self.occ(f + df, r + sr * j));
        if files_first || nf == 0 || nr == 0 {
            return files_first;
        }
        (1..=nr).all(|j| !self.occ(f, r + sr * j)) && (1..nf).all(|i| !self.occ(f + sf * i, r + dr))
    }

    /// The piece at `from` threatens `target` along its movement (for check:
    /// "any piece can place him in check", R7).
    pub(crate) fn threatens(&self, from: Cell, p: &Piece, target: Cell) -> bool {
        let (f, r) = xy(from);
        let (tf, tr) = xy(target);
        let (df, dr) = (tf - f, tr - r);
        let line = |ortho: bool, diag: bool| {
            let straight = df == 0 || dr == 0;
            let diagonal = df.abs() == dr.abs();
            if (df, dr) == (0, 0) || !((ortho && straight) || (diag && diagonal)) {
                return false;
            }
            let (sf, sr) = (df.signum(), dr.signum());
            let n = df.abs().max(dr.abs());
            (1..n).all(|i| !self.occ(f + sf * i, r + sr * i))
        };
        match p.kind {
            Kind::King if self.king_as_queen(p.team) => line(true, true),
            Kind::King => df.abs().max(dr.abs()) == 1,
            Kind::Queen => line(true, true),
            Kind::Warrior => line(true, false),
            Kind::Scout => line(false, true),
            Kind::MountedKnight | Kind::BlackKnight | Kind::KingsKnight => {
                KNIGHT_JUMPS.contains(&(df, dr))
            }
            Kind::Champion => {
                CHAMPION_STEPS.contains(&(df.abs() + dr.abs())) && self.champion_path(f, r, df, dr)
            }
            Kind::Footman | Kind::Squire => dr == p.team.forward() && df.abs() == 1,
        }
    }

    /// `team`'s King is in check: he is guarded (so check applies), on the
    /// board, and some enemy piece threatens his square.
    pub fn in_check(&self, team: Team) -> bool {
        if !self.guarded(team) {
            return false;
        }
        let Some(k) = self.find(team, Kind::King) else {
            return false;
        };
        self.pieces()
            .any(|(c, p)| p.team != team && self.threatens(c, &p, k))
    }

    /// What moving `p` from `from` onto `to` does, or why it may not.
    /// `to` is assumed within the piece's reach.
    pub fn effect(&self, from: Cell, p: &Piece, to: Cell) -> Result<Effect, String> {
        let (ff, _) = xy(from);
        let (tf, _) = xy(to);
        let pawn_diagonal = p.kind.is_pawn() && ff != tf;
        let Some(target) = self.cells[to.index()] else {
            if pawn_diagonal {
                return Err(format!(
                    "A {} moves straight ahead and only attacks diagonally.",
                    p.kind.name()
                ));
            }
            return Ok(Effect::Move);
        };
        if p.kind.is_pawn() && !pawn_diagonal {
            return Err(format!(
                "A {} cannot move straight onto an occupied square.",
                p.kind.name()
            ));
        }
        let guarded = self.guarded(p.team);
        if target.team == p.team {
            // One's own Queen standing on a piece she holds frozen: attack it (Queen rule 10).
            if target.kind == Kind::Queen {
                if self.frozen[p.team.index()].is_some_and(|f| f.cell == to) {
                    if p.kind == Kind::King && guarded {
                        return Err(
                            "The King's instant elimination never touches either Queen.".into()
                        );
                    }
                    return Ok(Effect::Attack { frozen_bonus: true });
                }
                return Err(format!("Your own Queen stands on {}.", name(to)));
            }
            if p.kind == Kind::King && guarded {
                if self.in_check(p.team) {
                    return Ok(Effect::Eliminate);
                }
                return Err(
                    "The King may eliminate one of his own pieces only to get out of check.".into(),
                );
            }
            return Err(format!(
                "Your own {} stands on {}.",
                target.kind.name(),
                name(to)
            ));
        }
        match target.kind {
            Kind::Queen => {
                let may = matches!(p.kind, Kind::BlackKnight | Kind::Scout)
                    || (p.kind == Kind::King && !guarded);
                if may {
                    Ok(Effect::CaptureQueen)
                } else if p.kind == Kind::Queen {
                    Err("A Queen cannot freeze the other Queen.".into())
                } else {
                    Err("Only the Black Knight, his Scouts, or a King who lost his King's Knight or his Queen can capture the Queen.".into())
                }
            }
            Kind::King if self.guarded(target.team) => Err(if p.kind == Kind::Queen {
                "The Queen may freeze the King only once he can no longer be checked.".into()
            } else {
                "The King cannot be attacked while his King's Knight lives and his Queen is free."
                    .into()
            }),
            _ => Ok(if p.kind == Kind::Queen {
                Effect::Freeze
            } else if p.kind == Kind::King && guarded {
                Effect::Eliminate
            } else {
                Effect::Attack {
                    frozen_bonus: false,
                }
            }),
        }
    }

    /// The attacker and defender of a battle from `from` onto `to`.
    pub(crate) fn combatants(&self, from: Cell, to: Cell, frozen_bonus: bool) -> (Piece, Piece) {
        let a = self.cells[from.index()].expect("attacker");
        let d = if frozen_bonus {
            self.frozen[a.team.index()].expect("frozen").piece
        } else {
            self.cells[to.index()].expect("defender")
        };
        (a, d)
    }

    /// The ways a battle can end, from the dice counts and hit points: the
    /// difference of the two sums takes every value between its extremes.
    pub(crate) fn possible_fights(&self, a: &Piece, d: &Piece, bonus: bool) -> Vec<Fight> {
        let an = (a.kind.dice() + ATTACK_DICE + FROZEN_DICE * bonus as usize) as i32;
        let dn = d.kind.dice() as i32;
        let sides = DIE_SIDES as i32;
        let lo = an - sides * dn;
        let hi = sides * an - dn;
        let mut out = Vec::new();
        if hi >= d.hp {
            out.push(Fight::Kill);
        }
        // Defender wins ties: a difference of 0 or less costs the attacker.
        if lo < d.hp && hi > -a.hp {
            out.push(Fight::Stand);
        }
        if lo <= -a.hp {
            out.push(Fight::Fall);
        }
        out
    }

    /// What safety checks need about the moving team, computed once per list.
    pub(crate) fn safety_context(&self, team: Team) -> Safety {
        let guarded = self.guarded(team);
        let king = if guarded {
            self.find(team, Kind::King)
        } else {
            None
        };
        Safety {
            king,
            in_check: king.is_some() && self.in_check(team),
            champions: self
                .pieces()
                .filter(|(_, p)| p.team != team && p.kind == Kind::Champion)
                .map(|(c, _)| c)
                .collect(),
        }
    }

    /// A move may not leave its team's guarded King in check, whatever the
    /// dice then say (R6).
    fn safe(&self, action: &Action, p: &Piece, effect: Effect, ctx: &Safety) -> bool {
        let team = p.team;
        let Some(k) = ctx.king else {
            return true;
        };
        if p.kind != Kind::King
            && !ctx.in_check
            && matches!(
                effect,
                Effect::Move
                    | Effect::Attack {
                        frozen_bonus: false
                    }
            )
            && !(p.kind == Kind::Queen && self.frozen[team.index()].is_some())
            && !may_expose(action.from, k, &ctx.champions)
        {
            // Vacating a square off every line to the King, with no enemy
            // Champion near him, cannot uncover a check.
            return true;
        }
        let fights = match effect {
            Effect::Attack { frozen_bonus } => {
                let (a, d) = self.combatants(action.from, action.to, frozen_bonus);
                self.possible_fights(&a, &d, frozen_bonus)
            }
            _ => vec![Fight::Kill],
        };
        fights.into_iter().all(|fight| {
            let mut sim = self.clone();
            sim.resolve(Seat(0), action, effect, Some(fight), &mut Vec::new());
            !sim.in_check(team)
        })
    }

    /// The kinds a Footman or Squire reaching the far side may become: one of
    /// its team's lost pieces (a Footman: a Warrior or a Scout only).
    pub fn promotions(&self, p: &Piece) -> Vec<Kind> {
        let mut kinds: Vec<Kind> = self.lost[p.team.index()]
            .iter()
            .copied()
            .filter(|k| p.kind == Kind::Squire || FOOTMAN_BECOMES.contains(k))
            .collect();
        kinds.sort();
        kinds.dedup();
        kinds
    }

    fn reaches_far_side(p: &Piece, to: Cell) -> bool {
        p.kind.is_pawn() && xy(to).1 == p.team.far_rank()
    }

    /// Which pieces `seat` may move now, and whether as the King's override;
    /// or why it may not act.
    fn mover_rule(&self, seat: Seat, by_king: bool) -> Result<Option<Commander>, ActionError> {
        if self.outcome.is_over() {
            return Err(ActionError::GameOver);
        }
        if seat.index() >= 8 {
            return Err(ActionError::NotYourTurn(format!("There is no {seat}.")));
        }
        let current = self.commander_to_move();
        if team_of(seat) != self.team {
            return Err(ActionError::NotYourTurn(format!(
                "It is {}'s turn ({} to move).",
                self.team.name(),
                current.name()
            )));
        }
        let role = Commander::ORDER[seat.index() % 4];
        if by_king {
            // The override is the King's seat's decision, not this one's.
            if role != Commander::King {
                return Err(ActionError::NotYourTurn(
                    "Only the King can override another commander's move.".into(),
                ));
            }
            if current == Commander::King {
                return Err(ActionError::Illegal(
                    if self.group_can_move(Commander::King) {
                        format!(
                            "The King cannot override his own move (rule 5); move {}.",
                            commanded(Commander::King)
                        )
                    } else {
                        "The King cannot override his own move (rule 5), but none of his own pieces can move: he may move any piece not yet moved, typed without 'king:' (R11).".into()
                    },
                ));
            }
            return Ok(None);
        }
        if role != current {
            return Err(ActionError::NotYourTurn(format!(
                "It is the {} {}'s move.",
                self.team.name(),
                current.name()
            )));
        }
        // A King whose own command cannot move may move any piece (R11).
        if current == Commander::King && !self.group_can_move(Commander::King) {
            return Ok(None);
        }
        Ok(Some(current))
    }

    fn group_can_move(&self, commander: Commander) -> bool {
        let mut found = false;
        self.each_move(Some(commander), false, &mut |_| {
            found = true;
            true
        });
        found
    }

    /// Calls `f` on every legal action of pieces of `group` (every unmoved
    /// piece if `None`), stopping when it returns true.
    fn each_move(
        &self,
        group: Option<Commander>,
        by_king: bool,
        f: &mut dyn FnMut(Action) -> bool,
    ) {
        let team = self.team;
        let ctx = self.safety_context(team);
        for (from, p) in self.pieces() {
            if p.team != team || self.moved.contains(&p.id) {
                continue;
            }
            if group.is_some_and(|g| p.kind.commander() != g) {
                continue;
            }
            for to in self.reach(from, &p) {
                let Ok(effect) = self.effect(from, &p, to) else {
                    continue;
                };
                let mut action = Action {
                    from,
                    to,
                    promote: None,
                    by_king,
                };
                if !self.safe(&action, &p, effect, &ctx) {
                    continue;
                }
                let options = if Self::reaches_far_side(&p, to) {
                    self.promotions(&p)
                } else {
                    Vec::new()
                };
                if options.is_empty() {
                    if f(action) {
                        return;
                    }
                } else {
                    for k in options {
                        action.promote = Some(k);
                        if f(action) {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// Every legal action of `seat` now.
    pub fn legal(&self, seat: Seat) -> Vec<Action> {
        let mut out = Vec::new();
        for by_king in [false, true] {
            if let Ok(group) = self.mover_rule(seat, by_king) {
                self.each_move(group, by_king, &mut |a| {
                    out.push(a);
                    false
                });
            }
        }
        out
    }

    /// `seat` has at least one legal action now.
    pub fn has_legal(&self, seat: Seat) -> bool {
        let mut found = false;
        for by_king in [false, true] {
            if let Ok(group) = self.mover_rule(seat, by_king) {
                self.each_move(group, by_king, &mut |_| {
                    found = true;
                    true
                });
            }
            if found {
                return true;
            }
        }
        false
    }

    /// The team to move has any legal action at the current commander's move
    /// (the King's override included).
    pub(crate) fn team_can_move(&self) -> bool {
        self.has_legal(seat_of(self.team, Commander::King))
            || self.has_legal(seat_of(self.team, self.commander_to_move()))
    }

    /// Checks `action` for `seat`, with the reason in words if refused.
    pub fn check_action(&self, seat: Seat, a: &Action) -> Result<Effect, ActionError> {
        let illegal = |s: String| Err(ActionError::Illegal(s));
        let group = self.mover_rule(seat, a.by_king)?;
        if a.from.index() >= BOARD.len() || a.to.index() >= BOARD.len() {
            return illegal("That square is not on the board.".into());
        }
        let Some(p) = self.cells[a.from.index()] else {
            return illegal(format!("There is no piece on {}.", name(a.from)));
        };
        if p.team != self.team {
            return illegal(format!(
                "The {} on {} is not yours.",
                p.full_name(),
                name(a.from)
            ));
        }
        if self.moved.contains(&p.id) {
            return illegal(format!(
                "The {} on {} has already moved this turn (rule 6).",
                p.kind.name(),
                name(a.from)
            ));
        }
        if let Some(g) = group {
            if p.kind.commander() != g {
                return illegal(format!(
                    "The {} is commanded by the {}; it is the {}'s move.",
                    p.kind.name(),
                    p.kind.commander().name(),
                    g.name()
                ));
            }
        }
        if !self.reach(a.from, &p).contains(&a.to) {
            return illegal(format!(
                "The {} on {} cannot reach {}: {}.",
                p.kind.name(),
                name(a.from),
                name(a.to),
                movement(p.kind, self.king_as_queen(p.team))
            ));
        }
        let effect = self
            .effect(a.from, &p, a.to)
            .map_err(ActionError::Illegal)?;
        if !self.safe(a, &p, effect, &self.safety_context(p.team)) {
            return illegal(if self.in_check(p.team) {
                format!(
                    "The {} King is in check, and this move does not surely end it.",
                    p.team.name()
                )
            } else {
                format!("That move could leave the {} King in check.", p.team.name())
            });
        }
        let options = if Self::reaches_far_side(&p, a.to) {
            self.promotions(&p)
        } else {
            Vec::new()
        };
        match a.promote {
            None if options.is_empty() => Ok(effect),
            None => illegal(format!(
                "Say which captured piece replaces the {}: {}.",
                p.kind.name(),
                options
                    .iter()
                    .map(|k| format!("={} ({})", k.letter(), k.name()))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            Some(k) if options.contains(&k) => Ok(effect),
            Some(k) if !Self::reaches_far_side(&p, a.to) => illegal(format!(
                "Only a Footman or Squire reaching the far side is replaced, not a {} moving to {} (asked for ={}).",
                p.kind.name(),
                name(a.to),
                k.letter()
            )),
            Some(k) => illegal(format!(
                "The {} cannot become a {}: {}.",
                p.kind.name(),
                k.name(),
                if options.is_empty() {
                    "your team has lost no piece it may bring back".to_string()
                } else {
                    format!(
                        "choose {}",
                        options
                            .iter()
                            .map(|k| k.name())
                            .collect::<Vec<_>>()
                            .join(" or ")
                    )
                }
            )),
        }
    }

    /// The first empty square next to `team`'s King: behind him first, then
    /// beside, then ahead, files from a to j; farther out if all are full (R10).
    pub(crate) fn square_near_king(&self, team: Team) -> Option<Cell> {
        let k = self.king_cell(team)?;
        let (kf, kr) = xy(k);
        let back = -team.forward();
        for dist in 1i32..12 {
            let mut ring: Vec<(i32, i32)> = Vec::new();
            for dr in -dist..=dist {
                for df in -dist..=dist {
                    if df.abs().max(dr.abs()) == dist {
                        ring.push((df, dr));
                    }
                }
            }
            ring.sort_by_key(|&(df, dr)| (-(dr * back), df.abs(), df));
            for (df, dr) in ring {
                if let Some(c) = at(kf + df, kr + dr) {
                    if self.cells[c.index()].is_none() {
                        return Some(c);
                    }
                }
            }
        }
        None
    }

    /// The empty square of `team`'s back row nearest `file` (then the next
    /// row forward if the back row is full): where a piece freed from a
    /// captured Queen goes (Queen rule 9, R12).
    pub(crate) fn square_on_back_row(&self, team: Team, file: i32) -> Option<Cell> {
        for row in 0..12 {
            let r = team.back_rank() + row * team.forward();
            let mut files: Vec<i32> = (0..10).collect();
            files.sort_by_key(|&f| ((f - file).abs(), f));
            for f in files {
                let c = cell_at(f, r);
                if self.cells[c.index()].is_none() {
                    return Some(c);
                }
            }
        }
        None
    }
}

/// What [`Gladiator::safe`] needs to know about the moving team.
pub(crate) struct Safety {
    /// The King, if he is guarded (only then can he be in check).
    king: Option<Cell>,
    in_check: bool,
    /// Enemy Champions, whose bent paths a vacated square may open.
    champions: Vec<Cell>,
}

/// Leaving `from` might open a line or a Champion's path onto the King at `k`.
fn may_expose(from: Cell, k: Cell, champions: &[Cell]) -> bool {
    let (f, r) = xy(from);
    let (kf, kr) = xy(k);
    if f == kf || r == kr || (f - kf).abs() == (r - kr).abs() {
        return true;
    }
    champions.iter().any(|&c| {
        let (cf, cr) = xy(c);
        CHAMPION_STEPS.contains(&((cf - kf).abs() + (cr - kr).abs()))
            && (cf.min(kf)..=cf.max(kf)).contains(&f)
            && (cr.min(kr)..=cr.max(kr)).contains(&r)
    })
}

/// The pieces `commander` moves, in words: "the King, the Mounted Knight
/// or a Footman" (from [`Kind::commander`]).
pub fn commanded(commander: Commander) -> String {
    let kinds: Vec<String> = Kind::ALL
        .into_iter()
        .filter(|k| k.commander() == commander)
        .map(|k| match k {
            Kind::Footman | Kind::Warrior | Kind::Scout | Kind::Squire => {
                format!("a {}", k.name())
            }
            _ => format!("the {}", k.name()),
        })
        .collect();
    match kinds.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => kinds.concat(),
    }
}

/// The lengths of a Champion's move in words: "3 or 5".
pub fn champion_steps() -> String {
    let steps: Vec<String> = CHAMPION_STEPS.iter().map(|s| s.to_string()).collect();
    match steps.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => steps.concat(),
    }
}

/// How a kind moves, in words, for refusals.
pub fn movement(kind: Kind, king_as_queen: bool) -> String {
    let fixed = match kind {
        Kind::King if king_as_queen => {
            "while his Queen is held the King moves as a Queen, any distance in a straight line"
        }
        Kind::King => "the King moves one square in any direction",
        Kind::Queen => "the Queen moves any distance along a rank, file or diagonal",
        Kind::MountedKnight | Kind::BlackKnight | Kind::KingsKnight => {
            "knights jump in an L, two squares and one aside"
        }
        Kind::Footman => {
            "a Footman moves one or two squares straight ahead and attacks one square diagonally ahead"
        }
        Kind::Squire => {
            "a Squire moves one square ahead (two from its starting rank) and attacks one square diagonally ahead"
        }
        Kind::Champion => {
            return format!(
                "the Champion moves exactly {} squares along ranks and files, turning at most once, through empty squares",
                champion_steps()
            )
        }
        Kind::Warrior => "the Warrior moves any distance along a rank or file",
        Kind::Scout => "the Scout moves any distance diagonally",
    };
    fixed.to_string()
}
