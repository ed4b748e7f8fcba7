//! Applying an action that is known to be legal: moving models, kills and
//! their consequences (graveyard, the Priest's revival, a Zombie's recruit,
//! the end of the game), pending decisions, and the end of a turn.

use super::action::Action;
use super::ruleset::Variation;
use super::state::{Arcana, Pending, Piece, BOARD, BREW_TOKENS, QUIET_TURNS, TURN_LIMIT};
use super::unit::{Rank, Unit};
use crate::board::Cell;
use crate::event::{Event, Mark};
use crate::seat::{Outcome, Seat};

fn n(cell: Cell) -> String {
    BOARD.name(cell)
}

impl Arcana {
    /// Applies a legal action for `seat`.
    pub(crate) fn apply(&mut self, seat: Seat, action: &Action) -> Vec<Event> {
        let mut ev = Vec::new();
        match *action {
            Action::Place { to, unit } => self.answer_pending(to, unit, &mut ev),
            Action::Decline => {
                if let Some(p) = self.pending.pop_front() {
                    let what = match p {
                        Pending::PriestRevival { .. } => "The Priest of the Winds is not revived.",
                        Pending::ExtraTurn { .. } => "The Vampire takes no extra turn.",
                        _ => "No unit is raised.",
                    };
                    ev.push(Event::new(format!("{}: {what}", self.seat_label(seat))));
                }
            }
            Action::Pass => {
                ev.push(Event::new(format!(
                    "{} has nothing it may do and passes.",
                    self.seat_label(seat)
                )));
            }
            Action::BuryModel { .. } | Action::BuryDead { .. } => {
                self.answer_bury(seat, action, &mut ev)
            }
            _ => self.command_turn(seat, action, &mut ev),
        }
        if !self.outcome.is_over() {
            self.advance(&mut ev);
        }
        ev
    }

    pub(super) fn command(&mut self, seat: Seat, action: &Action, ev: &mut Vec<Event>) {
        match *action {
            Action::Move { from, to } => {
                let unit = self.unit_at(from);
                if unit == Unit::Alchemist {
                    self.alchemist_move(from, to, ev);
                } else {
                    self.move_model(from, to, ev);
                }
            }
            Action::Kill { from, target } => {
                let p = self.piece(from);
                let text = format!(
                    "{} {} kills {}.",
                    p.unit.name(),
                    n(from),
                    self.describe(target)
                );
                ev.push(
                    Event::new(text)
                        .mark(from, Mark::From)
                        .mark(target, Mark::Hit),
                );
                self.kill(target, ev);
            }
            Action::MoveKill { from, to, target } => {
                self.move_model(from, to, ev);
                if !self.outcome.is_over() {
                    let p = self.piece(to);
                    let text = format!(
                        "{} {} kills {}.",
                        p.unit.name(),
                        n(to),
                        self.describe(target)
                    );
                    ev.push(Event::new(text).mark(target, Mark::Hit));
                    self.kill(target, ev);
                }
            }
            Action::Exit { from } => {
                let p = self.piece(from);
                ev.push(
                    Event::new(format!(
                        "{} {} walks off the board and dies.",
                        p.unit.name(),
                        n(from)
                    ))
                    .mark(from, Mark::Hit),
                );
                self.kill(from, ev);
            }
            Action::Walk { from, to } => {
                let p = self.board[from.index()].take().expect("skeleton");
                self.board[to.index()] = Some(p);
                ev.push(
                    Event::new(format!(
                        "Skeleton {} walks off the far edge and reappears on {} beside its General.",
                        n(from),
                        n(to)
                    ))
                    .mark(from, Mark::From)
                    .mark(to, Mark::Placed),
                );
            }
            Action::Bolt { from, target } => {
                ev.push(
                    Event::new(format!(
                        "Wind Mage {} strikes {} with a lightning bolt.",
                        n(from),
                        self.describe(target)
                    ))
                    .mark(from, Mark::From)
                    .mark(target, Mark::Hit),
                );
                self.kill(target, ev);
            }
            Action::Brew { from, target, then } => {
                self.brew(from, target, ev);
                if let Some(to) = then {
                    self.alchemist_move(from, to, ev);
                }
            }
            Action::MoveBrew { from, to, target } => {
                self.alchemist_move(from, to, ev);
                self.brew(to, target, ev);
            }
            Action::Vanquish { from, to } => {
                let at = match to {
                    Some(to) => {
                        self.move_model(from, to, ev);
                        to
                    }
                    None => from,
                };
                let mut targets = self.vanquish_targets(at, seat, at);
                targets.sort();
                let mut queue = Vec::new();
                let mut e = Event::new(format!(
                    "Battle Mage {} vanquishes {}.",
                    n(at),
                    self.describe_all(&targets)
                ));
                for &t in &targets {
                    e = e.mark(t, Mark::Affected);
                    queue.push(self.board[t.index()].take().expect("vanquished"));
                }
                ev.push(e);
                self.quiet_reset();
                self.pending.push_back(Pending::Relocate { seat, queue });
            }
            Action::Promote { soldier, unit } => {
                let old = self.piece(soldier);
                self.take_from_grave(seat, unit);
                self.graves[seat.index()].push(old.unit);
                self.board[soldier.index()] = Some(Piece::new(unit, seat));
                self.quiet_reset();
                ev.push(
                    Event::new(format!(
                        "The Battle Mage promotes the {} on {} to a {}.",
                        old.unit.name(),
                        n(soldier),
                        unit.name()
                    ))
                    .mark(soldier, Mark::Placed),
                );
            }
            Action::Recall { soldier, to } => {
                let p = self.board[soldier.index()].take().expect("soldier");
                self.board[to.index()] = Some(p);
                ev.push(
                    Event::new(format!(
                        "The Battle Mage recalls the {} from {} to {}.",
                        p.unit.name(),
                        n(soldier),
                        n(to)
                    ))
                    .mark(soldier, Mark::From)
                    .mark(to, Mark::Placed),
                );
            }
            Action::Revive { from, to, unit } => {
                self.take_from_grave(seat, unit);
                self.board[to.index()] = Some(Piece::new(unit, seat));
                self.quiet_reset();
                ev.push(
                    Event::new(format!(
                        "{} {} revives a {} on {}.",
                        self.unit_at(from).name(),
                        n(from),
                        unit.name(),
                        n(to)
                    ))
                    .mark(from, Mark::From)
                    .mark(to, Mark::Placed),
                );
            }
            Action::Trade { from, give, unit } => {
                let mut e = Event::new(format!(
                    "Necromancer {} trades {} and {} for a {}.",
                    n(from),
                    self.describe(give[0]),
                    self.describe(give[1]),
                    unit.name()
                ));
                for c in give {
                    let p = self.board[c.index()].take().expect("traded");
                    self.graves[p.owner.index()].push(p.unit);
                    e = e.mark(c, Mark::Hit);
                }
                ev.push(e);
                self.take_from_grave(seat, unit);
                self.quiet_reset();
                self.pending.push_back(Pending::TradePlace {
                    seat,
                    necro: from,
                    unit,
                });
            }
            Action::Wind { from, sacrifice } => {
                ev.push(
                    Event::new(format!(
                        "Dark Priest {} sacrifices {} to the night wind.",
                        n(from),
                        self.describe(sacrifice)
                    ))
                    .mark(sacrifice, Mark::Hit),
                );
                self.kill(sacrifice, ev);
                if !self.outcome.is_over() {
                    self.night_wind(seat, ev);
                }
            }
            Action::Explode { from, target } => {
                let mut victims = self.occupied_neighbours(target);
                victims.insert(0, target);
                let others = if victims.len() == 1 {
                    "no one else".to_string()
                } else {
                    self.describe_all(&victims[1..])
                };
                let e = Event::new(format!(
                    "Dark Priest {} explodes {}, killing {others}.",
                    n(from),
                    self.describe(target),
                ));
                self.kill_all_told(e, &victims, ev);
            }
            Action::Smite { from } => {
                // Undead Arcana's Dark Priest captures all adjacent models (U9).
                let all = self
                    .at(from)
                    .is_some_and(|p| self.holds(p.owner, Variation::DarkPriestStrikesAllies));
                let victims: Vec<Cell> = self
                    .occupied_neighbours(from)
                    .into_iter()
                    .filter(|&t| all || self.at(t).is_some_and(|q| q.owner != seat))
                    .collect();
                let e = Event::new(format!(
                    "Dark Priest {} kills {}.",
                    n(from),
                    self.describe_all(&victims)
                ))
                .mark(from, Mark::From);
                self.kill_all_told(e, &victims, ev);
            }
            Action::Scare { .. }
            | Action::Control { .. }
            | Action::Swing { .. }
            | Action::KillMove { .. }
            | Action::Enslave { .. } => self.alternate_command(seat, action, ev),
            Action::Place { .. }
            | Action::Decline
            | Action::Pass
            | Action::BuryModel { .. }
            | Action::BuryDead { .. } => unreachable!("not a command"),
        }
    }

    fn piece(&self, cell: Cell) -> Piece {
        *self.at(cell).expect("a model stands there")
    }

    fn unit_at(&self, cell: Cell) -> Unit {
        self.piece(cell).unit
    }

    pub(crate) fn seat_label(&self, seat: Seat) -> String {
        self.seat_name_of(seat)
    }

    fn quiet_reset(&mut self) {
        self.quiet = 0;
    }

    fn take_from_grave(&mut self, seat: Seat, unit: Unit) {
        let g = &mut self.graves[seat.index()];
        if let Some(i) = g.iter().rposition(|&u| u == unit) {
            g.remove(i);
        }
    }

    /// Moves the model on `from` to `to`, killing whatever stands there (a
    /// landing kill), with a Zombie's recruit or turning afterwards. A
    /// Ghoul's landing buries (U3) and is told as a burial.
    pub(super) fn move_model(&mut self, from: Cell, to: Cell, ev: &mut Vec<Event>) {
        let p = self.piece(from);
        let victim = self.at(to).copied();
        let turns = self.bite_turns(from, to);
        let head = format!("{} {}-{}", p.unit.name(), n(from), n(to));
        let text = match victim {
            None => format!("{head}."),
            Some(_) if p.unit == Unit::Ghoul => format!("{head} buries {}.", self.describe(to)),
            Some(_) if turns => format!("{head} bites {}, who turns Undead.", self.describe(to)),
            Some(_) => format!("{head} kills {}.", self.describe(to)),
        };
        let mut e = Event::new(text).mark(from, Mark::From).mark(to, Mark::To);
        if victim.is_some() {
            e = e.mark(to, Mark::Hit);
        }
        ev.push(e);
        let mut turned = None;
        if victim.is_some() {
            if p.unit == Unit::Ghoul {
                // The Ghoul buries, he does not capture (U3).
                self.bury(to, ev);
            } else if turns {
                // Neither killed nor buried: the victim rises as Undead (U9).
                turned = self.board[to.index()].take();
                self.quiet_reset();
            } else {
                self.kill(to, ev);
            }
            if self.outcome.is_over() {
                return;
            }
        }
        let moving = self.board[from.index()].take().expect("mover");
        self.board[to.index()] = Some(moving);
        if let Some(v) = victim {
            self.zombie_bite(moving, v, to, turned);
        }
    }

    fn alchemist_move(&mut self, from: Cell, to: Cell, ev: &mut Vec<Event>) {
        let moved = self.alchemist_walk(from, to);
        let mut e = Event::new(if moved.is_empty() {
            format!("Alchemist {}-{}.", n(from), n(to))
        } else {
            format!(
                "Alchemist {}-{}, swapping places with {}.",
                n(from),
                n(to),
                self.describe_all(&moved)
            )
        })
        .mark(from, Mark::From)
        .mark(to, Mark::To);
        for &c in &moved {
            e = e.mark(c, Mark::Affected);
            self.moved_by_others(c);
        }
        ev.push(e);
    }

    fn brew(&mut self, from: Cell, target: Cell, ev: &mut Vec<Event>) {
        ev.push(
            Event::new(format!(
                "Alchemist {} throws a firebrew at {}.",
                n(from),
                self.describe(target)
            ))
            .mark(target, Mark::Affected),
        );
        if let Some(p) = self.at_mut(target) {
            p.tokens = BREW_TOKENS;
        }
    }

    /// A model displaced by another's action: a Dark Priest then rests on his
    /// owner's next turn.
    pub(super) fn moved_by_others(&mut self, cell: Cell) {
        let turn = self.turn;
        if let Some(p) = self.at_mut(cell) {
            if p.unit == Unit::DarkPriest {
                p.rest = if p.owner == turn { 2 } else { 1 };
            }
        }
    }

    /// The night wind: every enemy model is pushed one square toward its own
    /// side, rear-most row first, when the square behind is empty (R14).
    fn night_wind(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        let enemy = Arcana::other(seat);
        let back = -Arcana::forward(enemy);
        let rows: Vec<i32> = if back < 0 {
            (0..8).collect()
        } else {
            (0..8).rev().collect()
        };
        let mut e = Event::new("The night wind blows the enemy back.");
        let mut pushed = 0;
        for r in rows {
            for f in 0..8 {
                let c = BOARD.at(f, r).expect("on board");
                if self.at(c).is_none_or(|p| p.owner != enemy) {
                    continue;
                }
                if let Some(b) = BOARD.at(f, r + back) {
                    if self.is_empty(b) {
                        self.board.swap(c.index(), b.index());
                        self.moved_by_others(b);
                        e = e.mark(c, Mark::From).mark(b, Mark::Affected);
                        pushed += 1;
                    }
                }
            }
        }
        e.text = format!("The night wind pushes {pushed} enemy model(s) back.");
        ev.push(e);
    }

    /// The models on `cells`, named for an event's text.
    pub(super) fn describe_all(&self, cells: &[Cell]) -> String {
        cells
            .iter()
            .map(|&c| self.describe(c))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Tells `e` with every victim marked as hit, then kills them in order.
    pub(super) fn kill_all_told(&mut self, mut e: Event, victims: &[Cell], ev: &mut Vec<Event>) {
        for &c in victims {
            e = e.mark(c, Mark::Hit);
        }
        ev.push(e);
        self.kill_all(victims, ev);
    }

    pub(super) fn kill_all(&mut self, victims: &[Cell], ev: &mut Vec<Event>) {
        for &c in victims {
            if self.outcome.is_over() {
                return;
            }
            if !self.is_empty(c) {
                self.kill(c, ev);
            }
        }
    }

    /// Removes the model on `cell` to its owner's graveyard. A General's death
    /// ends the game; a Priest's raises his revival.
    pub(crate) fn kill(&mut self, cell: Cell, ev: &mut Vec<Event>) {
        let Some(p) = self.board[cell.index()].take() else {
            return;
        };
        self.graves[p.owner.index()].push(p.unit);
        self.quiet_reset();
        if p.rank() == Rank::General {
            self.general_lost(&p, cell, "killed", ev);
            return;
        }
        if p.unit == Unit::PriestOfTheWinds && !p.revived {
            self.pending.push_back(Pending::PriestRevival {
                seat: p.owner,
                piece: p,
            });
        }
    }

    /// The end of the game when `general`, taken off `cell`, was a side's General: the
    /// other side wins. `how` is what was done to him ("killed", "buried").
    pub(super) fn general_lost(
        &mut self,
        general: &Piece,
        cell: Cell,
        how: &str,
        ev: &mut Vec<Event>,
    ) {
        let winner = Arcana::other(general.owner);
        let reason = format!(
            "{} {how} the {} General, the {} on {}.",
            self.seat_label(winner),
            self.seat_label(general.owner),
            general.unit.name(),
            n(cell)
        );
        ev.push(Event::new(format!("Game over: {reason}")).mark(cell, Mark::Hit));
        self.outcome = Outcome::Won {
            winners: vec![winner],
            reason,
        };
        self.pending.clear();
    }

    fn answer_pending(&mut self, to: Cell, unit: Option<Unit>, ev: &mut Vec<Event>) {
        let Some(pending) = self.pending.pop_front() else {
            return;
        };
        match pending {
            Pending::Relocate { seat, mut queue } => {
                let p = queue.remove(0);
                self.board[to.index()] = Some(p);
                self.moved_by_others(to);
                ev.push(
                    Event::new(format!(
                        "The vanquished {} is relocated to {}.",
                        p.unit.name(),
                        n(to)
                    ))
                    .mark(to, Mark::Placed),
                );
                if !queue.is_empty() {
                    self.pending.push_front(Pending::Relocate { seat, queue });
                }
            }
            Pending::PriestRevival { seat, .. } => {
                self.take_from_grave(seat, Unit::PriestOfTheWinds);
                let mut p = Piece::new(Unit::PriestOfTheWinds, seat);
                p.revived = true;
                self.board[to.index()] = Some(p);
                ev.push(
                    Event::new(format!(
                        "The guardian angel revives the Priest of the Winds on {}.",
                        n(to)
                    ))
                    .mark(to, Mark::Placed),
                );
            }
            p @ Pending::Recruit { .. } => {
                let unit = unit.expect("a Zombie's decision names its unit");
                self.answer_recruit(p, to, unit, ev);
            }
            Pending::ExtraTurn { .. } | Pending::Bury { .. } => {}
            Pending::TradePlace { seat, unit, .. } => {
                self.board[to.index()] = Some(Piece::new(unit, seat));
                ev.push(
                    Event::new(format!("The {} is raised on {}.", unit.name(), n(to)))
                        .mark(to, Mark::Placed),
                );
            }
        }
    }

    /// Drops pending decisions that no longer offer any choice, and ends the
    /// turn once nothing is pending.
    pub(crate) fn advance(&mut self, ev: &mut Vec<Event>) {
        loop {
            if self.outcome.is_over() {
                self.pending.clear();
                return;
            }
            match self.pending.front() {
                Some(
                    p @ Pending::Recruit {
                        turned: Some(_), ..
                    },
                ) => {
                    // A turned victim with nowhere left to rise: captured.
                    if self.pending_actions().is_empty() {
                        let p = p.clone();
                        self.turning_lapses(&p);
                        self.pending.pop_front();
                        continue;
                    }
                    return;
                }
                Some(Pending::Recruit { .. }) | Some(Pending::ExtraTurn { .. }) => {
                    // Only "decline" left: nothing to choose.
                    if self.pending_actions().len() <= 1 {
                        self.pending.pop_front();
                        continue;
                    }
                    return;
                }
                Some(Pending::Bury { .. }) => {
                    // Nothing left to bury: the cost cannot be paid (U8).
                    if self.pending_actions().is_empty() {
                        self.pending.pop_front();
                        continue;
                    }
                    return;
                }
                Some(_) => return,
                None => {}
            }
            if !self.end_turn(ev) {
                continue;
            }
            return;
        }
    }

    /// Ends the turn: the mover's firebrew tokens burn down (a model may die
    /// and a Priest's revival become pending: then this returns false to let
    /// it be answered first), tomb gas settles, the turn passes.
    fn end_turn(&mut self, ev: &mut Vec<Event>) -> bool {
        let seat = self.turn;
        if !self.ending {
            self.ending = true;
            self.vampire_burial(ev);
            if self.outcome.is_over() {
                return true;
            }
            let burning: Vec<Cell> = self
                .pieces()
                .filter(|(_, p)| p.owner == seat && p.tokens > 0)
                .map(|(c, _)| c)
                .collect();
            for c in burning {
                let Some(p) = self.at_mut(c) else { continue };
                p.tokens -= 1;
                if p.tokens == 0 {
                    let name = p.unit.name();
                    ev.push(
                        Event::new(format!(
                            "The firebrew burns out: the {name} on {} dies.",
                            n(c)
                        ))
                        .mark(c, Mark::Hit),
                    );
                    self.kill(c, ev);
                    if self.outcome.is_over() {
                        return true;
                    }
                }
            }
            if !self.pending.is_empty() {
                return false;
            }
        }
        self.ending = false;
        for p in self.board.iter_mut().flatten() {
            if p.owner == seat && p.rest > 0 {
                p.rest -= 1;
            }
        }
        self.update_paralysis();
        self.quiet += 1;
        if self.quiet >= QUIET_TURNS {
            let reason =
                format!("{QUIET_TURNS} turns passed without a model killed, revived or placed.");
            ev.push(Event::new(format!("Draw: {reason}")));
            self.outcome = Outcome::Drawn { reason };
            return true;
        }
        if self.turn_number >= TURN_LIMIT {
            let reason = format!("the turn limit of {TURN_LIMIT} turns was reached.");
            ev.push(Event::new(format!("Draw: {reason}")));
            self.outcome = Outcome::Drawn { reason };
            return true;
        }
        if self.check && self.threatens_general(seat) {
            let enemy = Arcana::other(seat);
            if let Some(g) = self.general(enemy) {
                ev.push(
                    Event::new(format!(
                        "Check! {} threatens the {} on {}.",
                        self.seat_label(seat),
                        self.unit_at(g).name(),
                        n(g)
                    )),
                    // No mark: the view's `check` marks the General in a
                    // style of its own, not as a piece that was affected.
                );
            }
        }
        self.turn = Arcana::other(seat);
        self.turn_number += 1;
        self.extra_taken = false;
        if self.undead_arcana() && self.general_trapped(self.turn) {
            let loser = self.turn;
            let winner = Arcana::other(loser);
            let g = self.general(loser).expect("trapped General stands");
            let reason = self.trapped_reason(loser);
            ev.push(Event::new(format!("Game over: {reason}")).mark(g, Mark::Affected));
            self.outcome = Outcome::Won {
                winners: vec![winner],
                reason,
            };
        }
        true
    }
}
