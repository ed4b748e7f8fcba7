//! Legal action generation: what each unit may do from where it stands, and
//! the choices a pending decision offers.

use super::action::Action;
use super::ruleset::Variation;
use super::state::{Arcana, Pending, Piece, BOARD};
use super::unit::{Rank, Unit};
use crate::board::{Cell, Dir, KNIGHT_JUMPS};
use crate::seat::Seat;

/// Where a step leads: a square, or off the board.
fn step(cell: Cell, df: i32, dr: i32) -> Option<Cell> {
    BOARD.offset(cell, df, dr)
}

impl Arcana {
    /// Whether a model of `seat` attacking with the class `attacker` may kill
    /// whatever stands on `target`: there is a model, it is not the attacker's
    /// own General (R2), and it is not immune to the attacker's class.
    pub(crate) fn can_kill(&self, seat: Seat, attacker: Rank, target: Cell) -> bool {
        match self.at(target) {
            None => false,
            Some(p) => {
                let own_general = p.owner == seat && p.rank() == Rank::General;
                let immune = attacker == Rank::Soldier && p.unit.immune_to_soldiers();
                !own_general && !immune
            }
        }
    }

    /// Every action `seat` may take by commanding its units, as if it were its
    /// turn (used for the turn itself and for the "Check" announcement).
    pub fn command_actions(&self, seat: Seat) -> Vec<Action> {
        let mut out = Vec::with_capacity(96);
        for i in 0..self.board.len() {
            let cell = Cell(i as u16);
            if let Some(p) = self.board[i] {
                self.commanded_actions(seat, cell, &p, self.turn_number, &mut out);
            }
        }
        out
    }

    /// The choices of the pending decision (to be taken by its seat).
    pub fn pending_actions(&self) -> Vec<Action> {
        let Some(pending) = self.pending.front() else {
            return Vec::new();
        };
        let empties = || BOARD.cells().filter(|&c| self.is_empty(c));
        match pending {
            Pending::Relocate { .. } => empties()
                .map(|to| Action::Place { to, unit: None })
                .collect(),
            Pending::PriestRevival { .. } => {
                let mut out: Vec<Action> = empties()
                    .map(|to| Action::Place { to, unit: None })
                    .collect();
                out.push(Action::Decline);
                out
            }
            p @ Pending::Recruit { .. } => self.recruit_actions(p),
            Pending::TradePlace { necro, .. } => self
                .empty_neighbours(*necro)
                .into_iter()
                .map(|to| Action::Place { to, unit: None })
                .collect(),
            Pending::ExtraTurn { seat, vampire } => self.extra_turn_actions(*seat, *vampire),
            Pending::Bury { seat, spare } => self.bury_choices(*seat, *spare),
        }
    }

    /// The actions `seat` may take that could equal `action`: the commanded
    /// unit's own actions only (a cheap legality check for one action).
    pub(crate) fn candidates(&self, seat: Seat, action: &Action) -> Vec<Action> {
        if self.pending.front().is_some() {
            return self.pending_actions();
        }
        let actor = match action {
            Action::Promote { .. } | Action::Recall { .. } => self.general(seat),
            Action::Pass => {
                return if self.command_actions(seat).is_empty() {
                    vec![Action::Pass]
                } else {
                    Vec::new()
                };
            }
            other => other.actor(),
        };
        let mut out = Vec::new();
        if let Some(cell) = actor {
            if let Some(p) = self.at(cell) {
                self.commanded_actions(seat, cell, p, self.turn_number, &mut out);
            }
        }
        out
    }

    pub(super) fn unit_actions(&self, from: Cell, p: &Piece, out: &mut Vec<Action>) {
        let seat = p.owner;
        let fwd = Arcana::forward(seat);
        let rank = p.rank();
        match p.unit {
            Unit::ImperialWarrior => {
                match step(from, 0, fwd) {
                    None => out.push(Action::Exit { from }),
                    Some(ahead) => {
                        if self.is_empty(ahead) {
                            out.push(Action::Move { from, to: ahead });
                        } else if self.at(ahead).is_some_and(|t| t.rank() == Rank::Soldier)
                            && self.can_kill(seat, rank, ahead)
                        {
                            out.push(Action::Kill {
                                from,
                                target: ahead,
                            });
                        }
                    }
                }
                for df in [-1, 1] {
                    if let Some(t) = step(from, df, fwd) {
                        if self.at(t).is_some_and(|q| q.rank() > Rank::Soldier)
                            && self.can_kill(seat, rank, t)
                        {
                            out.push(Action::Kill { from, target: t });
                        }
                    }
                }
            }
            Unit::BlueKnight => self.landing_moves(from, seat, rank, &KNIGHT_JUMPS, out),
            Unit::WindMage => {
                let mut jumps = Vec::with_capacity(8);
                for (df, dr) in Dir::DIAGONAL_STEPS {
                    jumps.push((df, dr));
                    jumps.push((2 * df, 2 * dr));
                }
                self.landing_moves(from, seat, rank, &jumps, out);
                if let Some(t) = step(from, 0, 3 * fwd) {
                    if self.can_kill(seat, rank, t) {
                        out.push(Action::Bolt { from, target: t });
                    }
                }
            }
            Unit::PriestOfTheWinds => {
                let soldier_kill =
                    |at: Cell, skip: Cell, out: &mut Vec<Action>, to: Option<Cell>| {
                        for t in self.occupied_neighbours(at) {
                            if t == skip {
                                continue;
                            }
                            if self.at(t).is_some_and(|q| q.rank() == Rank::Soldier)
                                && self.can_kill(seat, rank, t)
                            {
                                out.push(match to {
                                    None => Action::Kill { from, target: t },
                                    Some(to) => Action::MoveKill {
                                        from,
                                        to,
                                        target: t,
                                    },
                                });
                            }
                        }
                    };
                self.step_moves(from, &Dir::ALL_STEPS, true, out);
                soldier_kill(from, from, out, None);
                for (df, dr) in Dir::ALL_STEPS {
                    if let Some(to) = step(from, df, dr) {
                        if self.is_empty(to) {
                            soldier_kill(to, from, out, Some(to));
                        }
                    }
                }
                if Arcana::is_corner(from) {
                    self.revive_actions(from, seat, out);
                }
            }
            Unit::Alchemist => self.alchemist_actions(from, seat, out),
            Unit::Duelist => {
                let mut dests = Vec::new();
                let mut exits = false;
                for (df, dr) in Dir::ALL_STEPS {
                    let mut at = from;
                    loop {
                        match step(at, df, dr) {
                            None => {
                                exits = true;
                                break;
                            }
                            Some(c) if self.is_empty(c) => {
                                dests.push(c);
                                at = c;
                            }
                            Some(_) => break,
                        }
                    }
                }
                for &to in &dests {
                    out.push(Action::Move { from, to });
                }
                if exits {
                    out.push(Action::Exit { from });
                }
                self.adjacent_kills(from, seat, rank, from, None, out);
                for &to in &dests {
                    self.adjacent_kills(to, seat, rank, from, Some((from, to)), out);
                }
            }
            Unit::BattleMage => {
                let mut dests = Vec::new();
                for (df, dr) in Dir::ALL_STEPS {
                    if let Some(to) = step(from, df, dr) {
                        if self.is_empty(to) {
                            dests.push(to);
                        }
                    }
                }
                for &to in &dests {
                    out.push(Action::Move { from, to });
                }
                self.adjacent_kills(from, seat, rank, from, None, out);
                for &to in &dests {
                    self.adjacent_kills(to, seat, rank, from, Some((from, to)), out);
                }
                if self.vanquishable(from, seat, from) {
                    out.push(Action::Vanquish { from, to: None });
                }
                for &to in &dests {
                    if self.vanquishable(to, seat, from) {
                        out.push(Action::Vanquish { from, to: Some(to) });
                    }
                }
                self.promotion_actions(from, seat, out);
            }
            Unit::Skeleton => match step(from, 0, fwd) {
                None if self.holds(seat, Variation::SkeletonToFirstLine) => {
                    self.skeleton_wrap(from, seat, out)
                }
                None => {
                    if let Some(g) = self.general(seat) {
                        for to in self.empty_neighbours(g) {
                            out.push(Action::Walk { from, to });
                        }
                    }
                }
                Some(ahead) => {
                    if self.is_empty(ahead) || self.can_kill(seat, rank, ahead) {
                        out.push(Action::Move { from, to: ahead });
                    }
                }
            },
            Unit::Zombie => {
                let mut dests: Vec<Cell> = Vec::new();
                let mut exits = false;
                for (df, dr) in Dir::ORTHOGONAL_STEPS {
                    match step(from, df, dr) {
                        None => exits = true,
                        Some(a) if self.is_empty(a) => {
                            dests.push(a);
                            for (df2, dr2) in Dir::ORTHOGONAL_STEPS {
                                match step(a, df2, dr2) {
                                    None => exits = true,
                                    Some(b) if b == from => {}
                                    Some(b) => {
                                        if self.is_empty(b) || self.can_kill(seat, rank, b) {
                                            dests.push(b);
                                        }
                                    }
                                }
                            }
                        }
                        Some(a) => {
                            if self.can_kill(seat, rank, a) {
                                dests.push(a);
                            }
                        }
                    }
                }
                dests.sort();
                dests.dedup();
                for to in dests {
                    out.push(Action::Move { from, to });
                }
                if exits {
                    out.push(Action::Exit { from });
                }
            }
            Unit::Mummy => self.landing_moves(from, seat, rank, &Dir::ORTHOGONAL_STEPS, out),
            Unit::TombKeeper => {
                self.step_moves(from, &Dir::ALL_STEPS, true, out);
                self.adjacent_kills(from, seat, rank, from, None, out);
            }
            Unit::DarkPriest => self.dark_priest_actions(from, seat, out),
            Unit::Necromancer => {
                self.step_moves(from, &Dir::ALL_STEPS, false, out);
                self.adjacent_kills(from, seat, rank, from, None, out);
                self.revive_actions(from, seat, out);
                self.trade_actions(from, seat, out);
            }
            Unit::Ghoul
            | Unit::Ghost
            | Unit::Cultist
            | Unit::Wraith
            | Unit::Vampire
            | Unit::Lich => self.alternate_actions(from, p, out),
        }
    }

    /// Jumps to fixed offsets that kill whatever they land on (Blue Knight,
    /// Wind Mage's teleport, Mummy), plus walking off the board (R3).
    pub(super) fn landing_moves(
        &self,
        from: Cell,
        seat: Seat,
        rank: Rank,
        offsets: &[(i32, i32)],
        out: &mut Vec<Action>,
    ) {
        let mut exits = false;
        for &(df, dr) in offsets {
            match step(from, df, dr) {
                None => exits = true,
                Some(to) => {
                    if self.is_empty(to) || self.can_kill(seat, rank, to) {
                        out.push(Action::Move { from, to });
                    }
                }
            }
        }
        if exits {
            out.push(Action::Exit { from });
        }
    }

    /// One-square moves onto empty squares; `exit` offers walking off the board.
    pub(super) fn step_moves(
        &self,
        from: Cell,
        offsets: &[(i32, i32)],
        exit: bool,
        out: &mut Vec<Action>,
    ) {
        let mut exits = false;
        for &(df, dr) in offsets {
            match step(from, df, dr) {
                None => exits = true,
                Some(to) => {
                    if self.is_empty(to) {
                        out.push(Action::Move { from, to });
                    }
                }
            }
        }
        if exits && exit {
            out.push(Action::Exit { from });
        }
    }

    /// Kills of one adjacent model from `at` (the actor stands on `at`, having
    /// come from `origin`; `moved` says whether it moved there first).
    pub(super) fn adjacent_kills(
        &self,
        at: Cell,
        seat: Seat,
        rank: Rank,
        origin: Cell,
        moved: Option<(Cell, Cell)>,
        out: &mut Vec<Action>,
    ) {
        for t in self.occupied_neighbours(at) {
            if t == origin {
                continue;
            }
            if self.can_kill(seat, rank, t) {
                out.push(match moved {
                    None => Action::Kill {
                        from: origin,
                        target: t,
                    },
                    Some((from, to)) => Action::MoveKill {
                        from,
                        to,
                        target: t,
                    },
                });
            }
        }
    }

    /// The enemy models a Battle Mage standing on `at` would vanquish.
    pub(crate) fn vanquish_targets(&self, at: Cell, seat: Seat, origin: Cell) -> Vec<Cell> {
        self.occupied_neighbours(at)
            .into_iter()
            .filter(|&t| {
                t != origin
                    && self
                        .at(t)
                        .is_some_and(|q| q.owner != seat && q.rank() <= Rank::Lieutenant)
            })
            .collect()
    }

    fn vanquishable(&self, at: Cell, seat: Seat, origin: Cell) -> bool {
        !self.vanquish_targets(at, seat, origin).is_empty()
    }

    fn promotion_actions(&self, mage: Cell, seat: Seat, out: &mut Vec<Action>) {
        let far = Arcana::far_rank(seat);
        let units = self.grave_units(seat, Rank::is_sergeant_or_lieutenant);
        for f in 0..8 {
            let Some(soldier) = BOARD.at(f, far) else {
                continue;
            };
            if !self
                .at(soldier)
                .is_some_and(|q| q.owner == seat && q.rank() == Rank::Soldier)
            {
                continue;
            }
            if units.is_empty() {
                for to in self.empty_neighbours(mage) {
                    out.push(Action::Recall { soldier, to });
                }
            } else {
                for &unit in &units {
                    out.push(Action::Promote { soldier, unit });
                }
            }
        }
    }

    /// Revival of a soldier class model from the graveyard onto a square next
    /// to the reviver (Priest in a corner, Necromancer).
    pub(super) fn revive_actions(&self, from: Cell, seat: Seat, out: &mut Vec<Action>) {
        let units = self.grave_units(seat, |r| r == Rank::Soldier);
        if units.is_empty() {
            return;
        }
        let empties = self.empty_neighbours(from);
        for &unit in &units {
            for &to in &empties {
                out.push(Action::Revive { from, to, unit });
            }
        }
    }

    /// The Necromancer's trades (R15): two models of his on the board of one
    /// class for one unit of the next class from his graveyard.
    pub(super) fn trade_actions(&self, from: Cell, seat: Seat, out: &mut Vec<Action>) {
        type Class = fn(Rank) -> bool;
        let tiers: [(Class, Class); 3] = [
            (|r| r == Rank::Soldier, Rank::is_sergeant_or_lieutenant),
            (Rank::is_sergeant_or_lieutenant, |r| r == Rank::Captain),
            (|r| r == Rank::Captain, |r| r == Rank::Chief),
        ];
        let free_here = self.empty_neighbours(from).len();
        for (give, get) in tiers {
            let units = self.grave_units(seat, get);
            if units.is_empty() {
                continue;
            }
            let mine: Vec<Cell> = self
                .pieces()
                .filter(|(_, q)| q.owner == seat && give(q.rank()))
                .map(|(c, _)| c)
                .collect();
            for i in 0..mine.len() {
                for j in i + 1..mine.len() {
                    let (a, b) = (mine[i], mine[j]);
                    let freed = [a, b]
                        .iter()
                        .filter(|&&c| BOARD.king_distance(c, from) == 1)
                        .count();
                    if free_here + freed == 0 {
                        continue;
                    }
                    for &unit in &units {
                        out.push(Action::Trade {
                            from,
                            give: [a, b],
                            unit,
                        });
                    }
                }
            }
        }
    }

    fn dark_priest_actions(&self, from: Cell, seat: Seat, out: &mut Vec<Action>) {
        let own_general = self.general(seat);
        for (c, q) in self.pieces() {
            if q.owner != seat || c == from {
                continue;
            }
            if q.rank() == Rank::Soldier {
                if self.wind_pushes_any(seat, Some(c)) {
                    out.push(Action::Wind { from, sacrifice: c });
                }
            } else if q.rank() != Rank::General {
                let hits_general = own_general.is_some_and(|g| BOARD.king_distance(g, c) == 1);
                if !hits_general {
                    out.push(Action::Explode { from, target: c });
                }
            }
        }
        if self.holds(seat, Variation::DarkPriestStrikesAllies) {
            // Undead Arcana: "all adjacent models", allies too (U9), never
            // next to the own General (R2).
            let near = self.occupied_neighbours(from);
            let hits_general = own_general.is_some_and(|g| near.contains(&g));
            if !near.is_empty() && !hits_general {
                out.push(Action::Smite { from });
            }
        } else if self
            .occupied_neighbours(from)
            .iter()
            .any(|&t| self.at(t).is_some_and(|q| q.owner != seat))
        {
            out.push(Action::Smite { from });
        }
    }

    /// Whether the night wind of `seat` would move at least one enemy model
    /// (with `vacated` already emptied by the sacrifice) (R14).
    fn wind_pushes_any(&self, seat: Seat, vacated: Option<Cell>) -> bool {
        self.pieces().any(|(c, q)| {
            q.owner != seat
                && step(c, 0, -Arcana::forward(q.owner))
                    .is_some_and(|b| self.is_empty(b) || Some(b) == vacated)
        })
    }

    fn alchemist_actions(&self, from: Cell, seat: Seat, out: &mut Vec<Action>) {
        let mut dests = Vec::new();
        if Arcana::in_back_ranks(seat, from) {
            for dir in [-1, 1] {
                for n in 1..=5 {
                    match step(from, dir * n, 0) {
                        Some(to) => dests.push(to),
                        None => break,
                    }
                }
            }
        }
        for &to in &dests {
            out.push(Action::Move { from, to });
        }
        let targets = self.brew_targets(from, seat);
        for &target in &targets {
            out.push(Action::Brew {
                from,
                target,
                then: None,
            });
        }
        for &target in &targets {
            for &to in &dests {
                out.push(Action::Brew {
                    from,
                    target,
                    then: Some(to),
                });
            }
        }
        let mut after = self.board.clone();
        for &to in &dests {
            after.copy_from_slice(&self.board);
            walk_board(&mut after, from, to);
            for target in brew_targets_on(&after, to, seat) {
                out.push(Action::MoveBrew { from, to, target });
            }
        }
    }

    /// Models within two squares of `at` that a firebrew may strike (R9).
    pub(crate) fn brew_targets(&self, at: Cell, seat: Seat) -> Vec<Cell> {
        brew_targets_on(&self.board, at, seat)
    }

    /// The Alchemist's walk (R8); returns the squares of the models moved.
    pub(crate) fn alchemist_walk(&mut self, from: Cell, to: Cell) -> Vec<Cell> {
        walk_board(&mut self.board, from, to)
    }

    /// Whether `seat` could kill the enemy General with one of its actions in
    /// the present position (for the "Check" announcement).
    pub fn threatens_general(&self, seat: Seat) -> bool {
        let Some(g) = self.general(Arcana::other(seat)) else {
            return false;
        };
        // Only units that can reach the General this turn need their actions
        // listed: the Duelist rides any distance and the Dark Priest's explosion
        // works anywhere; every other attack reaches at most three squares.
        let mut actions = Vec::new();
        let turn_no = self.next_turn_of(seat);
        for (cell, p) in self.pieces() {
            let far_reaching = matches!(p.unit, Unit::Duelist | Unit::DarkPriest);
            if far_reaching || BOARD.king_distance(cell, g) <= 3 {
                self.commanded_actions(seat, cell, p, turn_no, &mut actions);
            }
        }
        actions.iter().any(|a| self.direct_victims(a).contains(&g))
    }

    /// The squares whose models an action kills at once (not counting models
    /// that die later of firebrew).
    pub(crate) fn direct_victims(&self, action: &Action) -> Vec<Cell> {
        match *action {
            Action::Move { from, to } => {
                let alchemist = self.at(from).is_some_and(|p| p.unit == Unit::Alchemist);
                if !alchemist && !self.is_empty(to) {
                    vec![to]
                } else {
                    vec![]
                }
            }
            Action::Kill { target, .. }
            | Action::MoveKill { target, .. }
            | Action::Bolt { target, .. } => vec![target],
            Action::Explode { target, .. } => {
                let mut v = self.occupied_neighbours(target);
                v.push(target);
                v
            }
            Action::Smite { from } => {
                let seat = self.at(from).map(|p| p.owner);
                let all = seat.is_some_and(|s| self.holds(s, Variation::DarkPriestStrikesAllies));
                self.occupied_neighbours(from)
                    .into_iter()
                    .filter(|&t| all || self.at(t).map(|p| p.owner) != seat)
                    .collect()
            }
            Action::KillMove { target, .. } => vec![target],
            Action::Swing { from } => self.occupied_neighbours(from),
            _ => vec![],
        }
    }
}

/// Models within two squares of `at` on `board` that a firebrew may strike:
/// not already burning, not the thrower's own General (R2, R9).
fn brew_targets_on(board: &[Option<Piece>], at: Cell, seat: Seat) -> Vec<Cell> {
    let mut out = Vec::new();
    let (f, r) = BOARD.coords(at);
    for dr in -2..=2 {
        for df in -2..=2 {
            if df == 0 && dr == 0 {
                continue;
            }
            if let Some(c) = BOARD.at(f + df, r + dr) {
                if let Some(q) = &board[c.index()] {
                    if q.tokens == 0 && !(q.owner == seat && q.rank() == Rank::General) {
                        out.push(c);
                    }
                }
            }
        }
    }
    out
}

/// The Alchemist's walk from `from` to `to` along his row: each model in the
/// way swaps places with him, so every model between shifts one square toward
/// where he started (R8). Returns the squares of the models moved.
fn walk_board(board: &mut [Option<Piece>], from: Cell, to: Cell) -> Vec<Cell> {
    let (ff, r) = BOARD.coords(from);
    let (tf, _) = BOARD.coords(to);
    let dir = if tf > ff { 1 } else { -1 };
    let mut moved = Vec::new();
    let mut at = ff;
    while at != tf {
        let next = at + dir;
        let a = BOARD.at(at, r).expect("on board").index();
        let b = BOARD.at(next, r).expect("on board").index();
        if board[b].is_some() {
            moved.push(Cell(a as u16));
        }
        board.swap(a, b);
        at = next;
    }
    moved
}
