//! How an action changes an Arachne position: moving, capturing (with the dice where the
//! variant rolls them), promotion, and the end of a turn with the next turn's dice.

use super::*;

impl Arachne {
    /// Applies a legal action.
    pub(super) fn apply(&mut self, action: Action) -> Vec<Event> {
        let me = self.to_move;
        let mut events = Vec::new();
        let mut irreversible = false;
        match action {
            Action::Move {
                turncoat,
                from,
                to,
                capture,
                promote,
            } => {
                let piece = self.shift(from, to, turncoat, &mut events);
                let mut at = to;
                if let Some(target) = capture {
                    let (ok, now) = self.capture(to, target, true, turncoat, &mut events);
                    irreversible |= ok;
                    at = now;
                }
                if let Some(kind) = promote {
                    irreversible |= self.promote(at, kind, &mut events);
                }
                if piece.kind == Kind::Blademaster && !self.outcome.is_over() {
                    self.pending = Some(Pending {
                        cell: at,
                        origin: from,
                        turncoat,
                    });
                    return events;
                }
            }
            Action::Jump {
                turncoat,
                from,
                to,
                capture,
            } => {
                self.shift(from, to, turncoat, &mut events);
                if let Some(target) = capture {
                    irreversible |= self.capture(to, target, false, turncoat, &mut events).0;
                }
            }
            Action::Strike {
                turncoat,
                from,
                target,
                promote,
            } => {
                let (ok, at) = self.capture(from, target, true, turncoat, &mut events);
                irreversible |= ok;
                if let (true, Some(kind)) = (ok, promote) {
                    irreversible |= self.promote(at, kind, &mut events);
                }
            }
            Action::Again { from, to, capture } => {
                let turncoat = self.pending.map(|p| p.turncoat).unwrap_or(false);
                self.shift(from, to, turncoat, &mut events);
                if let Some(target) = capture {
                    irreversible |= self.capture(to, target, true, turncoat, &mut events).0;
                }
            }
            Action::End => {
                events.push(Event::new(format!(
                    "{} ends the Blademaster's turn.",
                    colour(me)
                )));
            }
            Action::Pass => {
                events.push(Event::new(format!(
                    "{} cannot move or capture and passes.",
                    colour(me)
                )));
            }
        }
        self.end_turn(irreversible, &mut events);
        events
    }

    /// Moves the piece on `from` to `to`, announcing it.
    fn shift(&mut self, from: Cell, to: Cell, turncoat: bool, events: &mut Vec<Event>) -> Piece {
        let piece = self.squares[from.index()]
            .take()
            .expect("legal actions move a piece");
        self.squares[to.index()] = Some(piece);
        let who = if turncoat {
            format!(
                "{} (turncoat, moved by {})",
                self.piece_name(piece),
                colour(self.to_move)
            )
        } else {
            self.piece_name(piece)
        };
        events.push(
            Event::new(format!("{who} {}-{}.", self.name(from), self.name(to)))
                .mark(from, Mark::From)
                .mark(to, Mark::To),
        );
        piece
    }

    /// The piece on `at` tries to capture the piece on `target`. Returns whether
    /// it succeeded and where the capturing piece stands afterwards.
    fn capture(
        &mut self,
        at: Cell,
        target: Cell,
        follow: bool,
        turncoat: bool,
        events: &mut Vec<Event>,
    ) -> (bool, Cell) {
        let me = self.to_move;
        let attacker = self.squares[at.index()].expect("an attacker");
        let victim = self.squares[target.index()].expect("a target");
        let punishment = !turncoat && victim.seat == me;
        let what = format!(
            "{} on {} {} the {} on {}",
            self.piece_name(attacker),
            self.name(at),
            if punishment { "punishes" } else { "attacks" },
            self.piece_name(victim),
            self.name(target)
        );
        let mut event;
        let success = if punishment || !self.rules.rolls_for_captures() {
            event = Event::new(format!("{what}: captured."));
            true
        } else {
            let a_die = self.die();
            let d_die = self.die();
            let bonus = self.grunt_bonus(target, victim.seat, at);
            let attack = a_die + attacker.kind.rank();
            let defence = d_die + victim.kind.rank() + bonus;
            let ok = attack >= defence;
            let bonus_text = if bonus > 0 {
                format!("+{bonus} Grunt{}", if bonus > 1 { "s" } else { "" })
            } else {
                String::new()
            };
            event = Event::new(format!(
                "{what}: {a_die}+{} = {attack} against {d_die}+{}{bonus_text} = {defence}, {}.",
                attacker.kind.rank(),
                victim.kind.rank(),
                if ok { "captured" } else { "the capture fails" }
            ))
            .dice(me, vec![a_die, d_die]);
            self.last_dice = Some((me, vec![a_die, d_die]));
            self.last_rolls = vec![
                Roll {
                    seat: me,
                    role: RollRole::Attack,
                    dice: vec![a_die],
                    total: Some(attack as i32),
                },
                Roll {
                    seat: victim.seat,
                    role: RollRole::Defence,
                    dice: vec![d_die],
                    total: Some(defence as i32),
                },
            ];
            ok
        };
        let mut now = at;
        if success {
            self.squares[target.index()] = None;
            self.lost[victim.seat.index()].push(victim.kind);
            if follow {
                self.squares[target.index()] = self.squares[at.index()].take();
                now = target;
                event = event
                    .mark(at, Mark::From)
                    .mark(target, Mark::Hit)
                    .mark(target, Mark::To);
            } else {
                event = event.mark(at, Mark::Affected).mark(target, Mark::Hit);
            }
            if victim.kind == Kind::Matron {
                self.outcome = Outcome::Won {
                    winners: vec![me],
                    reason: format!("{} captured the {} Matron", colour(me), colour(victim.seat)),
                };
            }
        } else {
            event = event.mark(at, Mark::Affected).mark(target, Mark::Affected);
        }
        events.push(event);
        (success, now)
    }

    /// The defender's bonus: its Grunts connected to the target, not counting
    /// the attacking piece itself (ruling R12).
    fn grunt_bonus(&self, target: Cell, defender: Seat, attacker_at: Cell) -> u8 {
        self.geo().neighbours[target.index()]
            .iter()
            .filter(|&&c| c != attacker_at)
            .filter(|&&c| {
                matches!(self.squares[c.index()], Some(p) if p.seat == defender && p.kind == Kind::Grunt)
            })
            .count() as u8
            * GRUNT_BONUS
    }

    /// Replaces the Grunt on `at` by a lost piece of `kind`. False when the
    /// Grunt is not there any more (a failed capture) or no such piece is lost.
    fn promote(&mut self, at: Cell, kind: Kind, events: &mut Vec<Event>) -> bool {
        let Some(p) = self.squares[at.index()] else {
            return false;
        };
        let lost = &mut self.lost[p.seat.index()];
        let Some(i) = lost.iter().position(|&k| k == kind) else {
            return false;
        };
        if p.kind != Kind::Grunt {
            return false;
        }
        lost.remove(i);
        self.squares[at.index()] = Some(Piece { seat: p.seat, kind });
        events.push(
            Event::new(format!(
                "The {} Grunt on {} is promoted to a {}.",
                colour(p.seat),
                self.name(at),
                kind.name()
            ))
            .mark(at, Mark::Placed),
        );
        true
    }

    fn end_turn(&mut self, irreversible: bool, events: &mut Vec<Event>) {
        self.pending = None;
        if self.outcome.is_over() {
            if let Outcome::Won { reason, .. } = &self.outcome {
                events.push(Event::new(format!("{reason} and wins.")));
            }
            return;
        }
        self.turn += 1;
        self.to_move = other(self.to_move);
        if irreversible {
            self.history.clear();
        }
        let h = self.position_hash();
        self.history.push(h);
        if self.history.iter().filter(|&&x| x == h).count() >= REPETITION_DRAW {
            self.outcome = Outcome::Drawn {
                reason: "the same position occurred for the fourth time".into(),
            };
            events.push(Event::new(
                "The same position occurred for the fourth time: the game is drawn.",
            ));
            return;
        }
        self.begin_dice();
        let dice = self.turn_dice;
        let eyes = if dice == SPIDERS_EYES {
            ": spiders' eyes, a turncoat is allowed"
        } else {
            ""
        };
        events.push(
            Event::new(format!(
                "{} rolls {}+{}{eyes}.",
                colour(self.to_move),
                dice[0],
                dice[1]
            ))
            .dice(self.to_move, dice.to_vec()),
        );
    }
}
