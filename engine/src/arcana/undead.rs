//! Undead Arcana (`shared/rules/undead-arcana.txt`; rulings U1... in
//! `engine/rules/arcana.md`): army building by picks, the six alternate units'
//! actions and their consequences, burial, and the loss of a General who cannot
//! move safely.

use super::action::Action;
use super::army::Army;
use super::ruleset::Variation;
use super::state::{Arcana, Pending, Piece, BOARD};
use super::unit::{Rank, Unit};
use crate::board::{Cell, Dir};
use crate::event::{Event, Mark};
use crate::seat::Seat;

fn n(cell: Cell) -> String {
    BOARD.name(cell)
}

/// The six ranks of an army in Undead Arcana's words and Tokar's (U1):
/// (rank, its words, how many the army fields, the two Undead options).
const RANKS: [(Rank, [&str; 2], usize, [Unit; 2]); 6] = [
    (
        Rank::Soldier,
        ["pawn", "soldier"],
        8,
        [Unit::Skeleton, Unit::Ghoul],
    ),
    (
        Rank::Lieutenant,
        ["rook", "lieutenant"],
        2,
        [Unit::Mummy, Unit::Ghost],
    ),
    (
        Rank::Sergeant,
        ["knight", "sergeant"],
        2,
        [Unit::Zombie, Unit::Cultist],
    ),
    (
        Rank::Captain,
        ["bishop", "captain"],
        2,
        [Unit::TombKeeper, Unit::Wraith],
    ),
    (
        Rank::Chief,
        ["queen", "chief"],
        1,
        [Unit::DarkPriest, Unit::Vampire],
    ),
    (
        Rank::General,
        ["king", "general"],
        1,
        [Unit::Necromancer, Unit::Lich],
    ),
];

impl Army {
    /// Reads an army option (U11):
    /// - `human`; `undead` (Tokar's Arcana's Undead army, Tokar's rules);
    /// - `undead-arcana` (the same units under Undead Arcana's rules);
    /// - `alternate` (every rank's Undead Arcana alternative);
    /// - picks separated by commas, each `[rank:]unit[*count]` joined by `+`
    ///   within a rank: `ghoul,ghost,lich` or `pawn:ghoul*4+skeleton*4,wraith`.
    ///   A unit without a count fills the rest of its rank; ranks not named
    ///   keep Tokar's unit (Skeleton, Mummy, Zombie, Tomb Keeper, Dark Priest,
    ///   Necromancer). Every rank must end with exactly its army size.
    pub fn parse(text: &str) -> Result<Army, String> {
        let t: String = text
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase();
        match t.as_str() {
            "human" | "humans" => return Ok(Army::human()),
            "undead" => return Ok(Army::undead()),
            "undead-arcana" | "undeadarcana" => return Ok(Army::from_picks(&vec![None; 6])),
            "alternate" | "alternates" | "undead-alternate" => {
                let picks: Vec<Option<Vec<Unit>>> = RANKS
                    .iter()
                    .map(|(_, _, size, opts)| Some(vec![opts[1]; *size]))
                    .collect();
                return Ok(Army::from_picks(&picks));
            }
            "" => return Err("The army is empty: write human, undead, undead-arcana, alternate or a list of picks such as ghoul,ghost,lich.".into()),
            _ => {}
        }
        let mut picks: Vec<Option<Vec<Unit>>> = vec![None; 6];
        for item in t.split([',', ';', '/']).filter(|i| !i.is_empty()) {
            let (rank_word, body) = match item.split_once(':') {
                Some((r, b)) => (Some(r), b),
                None => (None, item),
            };
            let mut entries: Vec<(Unit, Option<usize>)> = Vec::new();
            for part in body.split('+') {
                let (name, count) = match part.split_once('*') {
                    Some((u, k)) => {
                        let k: usize = k.parse().map_err(|_| {
                            format!("Cannot read the count '{k}' in '{part}' (write ghoul*4).")
                        })?;
                        (u, Some(k))
                    }
                    None => (part, None),
                };
                let unit = Unit::parse(name).ok_or_else(|| {
                    format!(
                        "'{name}' is not an Undead unit (ranks' options: {}).",
                        options_text()
                    )
                })?;
                entries.push((unit, count));
            }
            let Some(&(first, _)) = entries.first() else {
                return Err(format!("'{item}' names no unit."));
            };
            let r = RANKS
                .iter()
                .position(|(_, _, _, opts)| opts.contains(&first))
                .ok_or_else(|| {
                    format!(
                        "The {} is not an Undead Arcana unit (ranks' options: {}).",
                        first.name(),
                        options_text()
                    )
                })?;
            let (rank, words, size, opts) = RANKS[r];
            if let Some(w) = rank_word {
                let named = RANKS
                    .iter()
                    .position(|(rk, ws, _, _)| ws.contains(&w) || rk.name().eq_ignore_ascii_case(w))
                    .ok_or_else(|| {
                        format!("'{w}' is not a rank (pawn, rook, knight, bishop, queen, king, or soldier..general).")
                    })?;
                if named != r {
                    return Err(format!(
                        "The {} is a {} ({}), not a {w}.",
                        first.name(),
                        words[0],
                        rank.name()
                    ));
                }
            }
            if picks[r].is_some() {
                return Err(format!(
                    "The {} rank ({}) is picked twice.",
                    words[0],
                    rank.name()
                ));
            }
            let mut units = Vec::new();
            let mut fill = None;
            for &(u, k) in &entries {
                if !opts.contains(&u) {
                    return Err(format!(
                        "The {} is not a {} option (choose {} or {}).",
                        u.name(),
                        words[0],
                        opts[0].id(),
                        opts[1].id()
                    ));
                }
                match k {
                    Some(k) => units.extend(std::iter::repeat_n(u, k)),
                    None if fill.is_some() => {
                        return Err(format!(
                            "Only one {} unit may go without a count (the rest of the rank).",
                            words[0]
                        ))
                    }
                    None => fill = Some((u, units.len())),
                }
            }
            if units.len() > size {
                return Err(format!(
                    "Too many {}s: {} picked, the army has {size}.",
                    words[0],
                    units.len()
                ));
            }
            if let Some((u, at)) = fill {
                let rest = size - units.len();
                units.splice(at..at, std::iter::repeat_n(u, rest));
            }
            if units.len() != size {
                return Err(format!(
                    "Too few {}s: {} picked, the army has {size} (leave one unit without a count to fill the rank).",
                    words[0],
                    units.len()
                ));
            }
            picks[r] = Some(units);
        }
        Ok(Army::from_picks(&picks))
    }

    /// An Undead Arcana army from per-rank unit lists (in [`RANKS`] order;
    /// `None`: Tokar's unit), each list placed from its owner's left.
    pub fn from_picks(picks: &[Option<Vec<Unit>>]) -> Army {
        let list = |r: usize| -> Vec<Unit> {
            let (_, _, size, opts) = RANKS[r];
            picks
                .get(r)
                .cloned()
                .flatten()
                .unwrap_or_else(|| vec![opts[0]; size])
        };
        let (lt, sg, cp) = (list(1), list(2), list(3));
        let back = [
            lt[0],
            sg[0],
            cp[0],
            list(4)[0],
            list(5)[0],
            cp[1],
            sg[1],
            lt[1],
        ];
        let mut front = [Unit::Skeleton; 8];
        front.copy_from_slice(&list(0));
        Army {
            name: "Undead Arcana".into(),
            back,
            front,
            undead_arcana: true,
        }
    }

    /// A short account of the army for both players: "Undead Arcana: 4 Ghoul,
    /// 4 Skeleton, 2 Ghost, ...".
    pub fn summary(&self) -> String {
        let mut counts: Vec<(Unit, usize)> = Vec::new();
        for &u in self.front.iter().chain(self.back.iter()) {
            match counts.iter_mut().find(|(v, _)| *v == u) {
                Some((_, k)) => *k += 1,
                None => counts.push((u, 1)),
            }
        }
        counts.sort_by_key(|&(u, _)| (u.rank(), u));
        format!(
            "{}{}: {}",
            self.name,
            if self.undead_arcana { " rules" } else { "" },
            counts
                .iter()
                .map(|(u, k)| format!("{k} {}", u.name()))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

/// The two Undead Arcana units of a rank (for a Zombie's turned victim, U9).
pub(crate) fn rank_options(rank: Rank) -> [Unit; 2] {
    RANKS
        .iter()
        .find(|(r, ..)| *r == rank)
        .map(|&(_, _, _, opts)| opts)
        .expect("every rank has its options")
}

fn options_text() -> String {
    RANKS
        .iter()
        .map(|(_, w, _, o)| format!("{} {}/{}", w[0], o[0].id(), o[1].id()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether a square is white: the board is checkered as a chessboard, a1
/// dark, h1 white (U7).
pub fn is_white(cell: Cell) -> bool {
    let (f, r) = BOARD.coords(cell);
    (f + r) % 2 == 1
}

/// Actions a controlled model may not take for its controller: those that
/// draw on graveyards, sacrifice or relocate the controller's army (U5).
pub(crate) fn allowed_under_control(a: &Action) -> bool {
    !matches!(
        a,
        Action::Revive { .. }
            | Action::Trade { .. }
            | Action::Promote { .. }
            | Action::Recall { .. }
            | Action::Wind { .. }
            | Action::Explode { .. }
            | Action::Walk { .. }
            | Action::Vanquish { .. }
            | Action::Enslave { .. }
            | Action::Control { .. }
    )
}

impl Arcana {
    /// Whether `seat`'s army plays by Undead Arcana's rules.
    pub fn ua(&self, seat: Seat) -> bool {
        self.armies[seat.index()].undead_arcana
    }

    /// Whether either army plays by Undead Arcana's rules: the game is then
    /// an Undead Arcana game and its loss condition holds for both (U10).
    pub fn undead_arcana(&self) -> bool {
        self.ua(Seat(0)) || self.ua(Seat(1))
    }

    /// The turn number of `seat`'s next turn (this one if it is moving now
    /// and its turn has not ended).
    pub(crate) fn next_turn_of(&self, seat: Seat) -> u32 {
        if self.turn == seat {
            self.turn_number + 2
        } else {
            self.turn_number + 1
        }
    }

    /// Whether the model is under a Cultist's control on turn `turn_no`.
    pub fn controlled_on(p: &Piece, turn_no: u32) -> bool {
        p.controlled_until >= turn_no
    }

    /// The actions `seat` may take with the model `p` on `cell` on turn
    /// `turn_no`: its own models unless controlled by the enemy, and enemy
    /// models it controls (acting as its own, within [`allowed_under_control`]).
    pub(crate) fn commanded_actions(
        &self,
        seat: Seat,
        cell: Cell,
        p: &Piece,
        turn_no: u32,
        out: &mut Vec<Action>,
    ) {
        if !p.commandable() {
            return;
        }
        let controlled = Arcana::controlled_on(p, turn_no);
        if p.owner == seat && !controlled {
            self.unit_actions(cell, p, out);
        } else if p.owner != seat && controlled {
            let mut as_own = *p;
            as_own.owner = seat;
            let mut mine = Vec::new();
            self.unit_actions(cell, &as_own, &mut mine);
            out.extend(mine.into_iter().filter(allowed_under_control));
        }
    }

    /// The Skeleton of an Undead Arcana army walks off the far edge and
    /// appears on his own first line, on the same file (U9).
    pub(crate) fn skeleton_wrap(&self, from: Cell, seat: Seat, out: &mut Vec<Action>) {
        let (f, _) = BOARD.coords(from);
        let first = 7 - Arcana::far_rank(seat);
        if let Some(to) = BOARD.at(f, first) {
            if self.is_empty(to) {
                out.push(Action::Walk { from, to });
            }
        }
    }

    /// The actions of the six Undead Arcana alternatives.
    pub(crate) fn alternate_actions(&self, from: Cell, p: &Piece, out: &mut Vec<Action>) {
        let seat = p.owner;
        let rank = p.rank();
        match p.unit {
            Unit::Ghoul => self.landing_moves(from, seat, rank, &Dir::DIAGONAL_STEPS, out),
            Unit::Ghost => {
                self.landing_moves(from, seat, rank, &Dir::ALL_STEPS, out);
                if !self.scare_moves(from).is_empty() {
                    out.push(Action::Scare { from });
                }
            }
            Unit::Cultist => {
                self.landing_moves(from, seat, rank, &Dir::ALL_STEPS, out);
                for t in self.occupied_neighbours(from) {
                    if self.at(t).is_some_and(|q| {
                        q.owner != seat
                            && (self.holds(seat, Variation::CultistControlsGeneral)
                                || q.rank() != Rank::General)
                            && !Arcana::controlled_on(q, self.turn_number)
                    }) {
                        out.push(Action::Control { from, target: t });
                    }
                }
            }
            Unit::Wraith => {
                let mut exits = false;
                let mut near = Vec::new();
                for (df, dr) in Dir::ALL_STEPS {
                    for k in 1..=2 {
                        match BOARD.offset(from, df * k, dr * k) {
                            None => {
                                exits = true;
                                break;
                            }
                            Some(to) if self.is_empty(to) => {
                                out.push(Action::Move { from, to });
                                if k == 1 {
                                    near.push(to);
                                }
                            }
                            Some(_) => {}
                        }
                    }
                }
                if exits {
                    out.push(Action::Exit { from });
                }
                self.adjacent_kills(from, seat, rank, from, None, out);
                for to in near {
                    self.adjacent_kills(to, seat, rank, from, Some((from, to)), out);
                }
                let adjacent = self.occupied_neighbours(from);
                let general = self.general(seat);
                if !adjacent.is_empty() && !general.is_some_and(|g| adjacent.contains(&g)) {
                    out.push(Action::Swing { from });
                }
            }
            Unit::Vampire => {
                self.step_moves(from, &Dir::ALL_STEPS, true, out);
                self.adjacent_kills(from, seat, rank, from, None, out);
                let dests = self.empty_neighbours(from);
                for &to in &dests {
                    self.adjacent_kills(to, seat, rank, from, Some((from, to)), out);
                }
                for target in self.occupied_neighbours(from) {
                    if !self.can_kill(seat, rank, target) {
                        continue;
                    }
                    let mut after = dests.clone();
                    after.push(target);
                    after.sort();
                    for to in after {
                        out.push(Action::KillMove { from, target, to });
                    }
                }
            }
            Unit::Lich => {
                for df in [-2, -1, 1, 2] {
                    if let Some(to) = BOARD.offset(from, df, 0) {
                        if self.is_empty(to) {
                            out.push(Action::Move { from, to });
                        }
                    }
                }
                let enemy = Arcana::other(seat);
                let units = self.grave_units(enemy, |_| true);
                let empties = self.empty_neighbours(from);
                let payable = self
                    .pieces()
                    .any(|(_, q)| q.owner == seat && q.rank() != Rank::General)
                    || !self.graves[seat.index()].is_empty();
                if payable {
                    for &unit in &units {
                        for &to in &empties {
                            out.push(Action::Enslave { from, to, unit });
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// Where the Ghost on `ghost` would scare each adjacent model: (from, to)
    /// for each model that moves (U4).
    pub(crate) fn scare_moves(&self, ghost: Cell) -> Vec<(Cell, Cell)> {
        let mut out = Vec::new();
        for c in self.occupied_neighbours(ghost) {
            let (gf, gr) = BOARD.coords(ghost);
            let (cf, cr) = BOARD.coords(c);
            let (df, dr) = (cf - gf, cr - gr);
            let mut to = c;
            for _ in 0..3 {
                match BOARD.offset(to, df, dr) {
                    Some(next) if self.is_empty(next) => to = next,
                    _ => break,
                }
            }
            if to != c {
                out.push((c, to));
            }
        }
        out
    }

    /// The choices of a Vampire's extra turn: his own actions, or decline.
    pub(crate) fn extra_turn_actions(&self, seat: Seat, vampire: Cell) -> Vec<Action> {
        let mut out = Vec::new();
        if let Some(p) = self.at(vampire) {
            if p.unit == Unit::Vampire {
                self.commanded_actions(seat, vampire, p, self.turn_number, &mut out);
            }
        }
        out.push(Action::Decline);
        out
    }

    /// The choices of a burial: an allied model on the board (not the
    /// General, not `spare`), or a unit of the own graveyard (U8).
    pub(crate) fn bury_choices(&self, seat: Seat, spare: Option<Cell>) -> Vec<Action> {
        let mut out: Vec<Action> = self
            .pieces()
            .filter(|&(c, q)| q.owner == seat && q.rank() != Rank::General && Some(c) != spare)
            .map(|(cell, _)| Action::BuryModel { cell })
            .collect();
        for unit in self.grave_units(seat, |_| true) {
            out.push(Action::BuryDead { unit });
        }
        out
    }

    /// Commands a unit (also in a Vampire's extra turn), then raises what
    /// Undead Arcana adds after it: the Vampire's extra turn and burial test,
    /// the burial a soul slave's capture costs.
    pub(crate) fn command_turn(&mut self, seat: Seat, action: &Action, ev: &mut Vec<Event>) {
        if matches!(self.pending.front(), Some(Pending::ExtraTurn { .. })) {
            self.pending.pop_front();
            self.extra_taken = true;
        }
        let actor = action.actor().and_then(|c| self.at(c).copied());
        let victims: Vec<Piece> = self
            .direct_victims(action)
            .iter()
            .filter_map(|&c| self.at(c).copied())
            .collect();
        self.command(seat, action, ev);
        if self.outcome.is_over() {
            return;
        }
        let Some(p) = actor else { return };
        if p.slave && p.owner == seat && victims.iter().any(|v| v.owner != seat) {
            self.pending.push_back(Pending::Bury { seat, spare: None });
        }
        if p.unit == Unit::Vampire && p.owner == seat {
            let at = match *action {
                Action::Move { to, .. }
                | Action::MoveKill { to, .. }
                | Action::KillMove { to, .. } => Some(to),
                Action::Kill { from, .. } => Some(from),
                _ => None,
            };
            let at = at.filter(|&c| self.at(c).is_some_and(|q| q.unit == Unit::Vampire));
            self.vampire_acted = at;
            if let Some(at) = at {
                if !victims.is_empty() && !self.extra_taken {
                    self.pending
                        .push_back(Pending::ExtraTurn { seat, vampire: at });
                }
            }
        }
    }

    /// Undead Arcana's own commands.
    pub(crate) fn alternate_command(&mut self, seat: Seat, action: &Action, ev: &mut Vec<Event>) {
        match *action {
            Action::Scare { from } => {
                let moves = self.scare_moves(from);
                let mut e = Event::new(format!(
                    "Ghost {} scares {}.",
                    n(from),
                    moves
                        .iter()
                        .map(|&(c, to)| format!("{} to {}", self.describe(c), n(to)))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
                .mark(from, Mark::From);
                for &(c, to) in &moves {
                    self.board.swap(c.index(), to.index());
                    self.moved_by_others(to);
                    e = e.mark(c, Mark::From).mark(to, Mark::Affected);
                }
                ev.push(e);
            }
            Action::Control { from, target } => {
                let until = self.turn_number + 2;
                ev.push(
                    Event::new(format!(
                        "Cultist {} takes control of {} for {}'s next turn.",
                        n(from),
                        self.describe(target),
                        self.seat_label(seat)
                    ))
                    .mark(from, Mark::From)
                    .mark(target, Mark::Affected),
                );
                if let Some(q) = self.at_mut(target) {
                    q.controlled_until = until;
                }
            }
            Action::Swing { from } => {
                let victims = self.occupied_neighbours(from);
                let e = Event::new(format!(
                    "Wraith {} swings his scythe, killing {}.",
                    n(from),
                    self.describe_all(&victims)
                ))
                .mark(from, Mark::From);
                self.kill_all_told(e, &victims, ev);
            }
            Action::KillMove { from, target, to } => {
                ev.push(
                    Event::new(format!(
                        "Vampire {} kills {}.",
                        n(from),
                        self.describe(target)
                    ))
                    .mark(from, Mark::From)
                    .mark(target, Mark::Hit),
                );
                self.kill(target, ev);
                if !self.outcome.is_over() && self.at(from).is_some() {
                    self.move_model(from, to, ev);
                }
            }
            Action::Enslave { from, to, unit } => {
                let enemy = Arcana::other(seat);
                let g = &mut self.graves[enemy.index()];
                if let Some(i) = g.iter().rposition(|&u| u == unit) {
                    g.remove(i);
                }
                let mut p = Piece::new(unit, seat);
                p.slave = true;
                self.board[to.index()] = Some(p);
                self.quiet = 0;
                ev.push(
                    Event::new(format!(
                        "Lich {} raises the enemy's {} as a soul slave on {}.",
                        n(from),
                        unit.name(),
                        n(to)
                    ))
                    .mark(from, Mark::From)
                    .mark(to, Mark::Placed),
                );
                self.pending.push_back(Pending::Bury {
                    seat,
                    spare: Some(to),
                });
            }
            _ => unreachable!("not an Undead Arcana command"),
        }
    }

    /// Answers a pending burial (U8).
    pub(crate) fn answer_bury(&mut self, seat: Seat, action: &Action, ev: &mut Vec<Event>) {
        self.pending.pop_front();
        match *action {
            Action::BuryModel { cell } => {
                ev.push(
                    Event::new(format!(
                        "{} buries {}.",
                        self.seat_label(seat),
                        self.describe(cell)
                    ))
                    .mark(cell, Mark::Hit),
                );
                self.bury(cell, ev);
            }
            Action::BuryDead { unit } => {
                let g = &mut self.graves[seat.index()];
                if let Some(i) = g.iter().rposition(|&u| u == unit) {
                    g.remove(i);
                }
                self.buried[seat.index()].push(unit);
                ev.push(Event::new(format!(
                    "{} buries the {} from its graveyard.",
                    self.seat_label(seat),
                    unit.name()
                )));
            }
            _ => {}
        }
    }

    /// Buries the model on `cell`: gone for good, not in the graveyard (U3).
    /// A buried General loses the game.
    pub(crate) fn bury(&mut self, cell: Cell, ev: &mut Vec<Event>) {
        let Some(p) = self.board[cell.index()].take() else {
            return;
        };
        self.buried[p.owner.index()].push(p.unit);
        self.quiet = 0;
        if p.rank() == Rank::General {
            self.general_lost(&p, cell, "buried", ev);
        }
    }

    /// The end of a Vampire's turn: on a white square he is buried (U7).
    pub(crate) fn vampire_burial(&mut self, ev: &mut Vec<Event>) {
        let Some(c) = self.vampire_acted.take() else {
            return;
        };
        if is_white(c) && self.at(c).is_some_and(|p| p.unit == Unit::Vampire) {
            ev.push(
                Event::new(format!(
                    "The Vampire ends his turn on the white square {} and is buried.",
                    n(c)
                ))
                .mark(c, Mark::Hit),
            );
            self.bury(c, ev);
        }
    }
}
