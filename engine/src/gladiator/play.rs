//! Applying a move: battles, freezing, the King's instant elimination, the
//! captive Queen and her return, pawns reaching the far side, and the
//! order of commanders through a turn.

use super::moves::{Effect, Fight};
use super::piece::{Commander, Kind, Piece, Team, ATTACK_DICE, DIE_SIDES, FROZEN_DICE};
use super::{name, seat_of, team_seats, Action, Captive, Frozen, Gladiator, BOARD, HOLD_TURNS};
use crate::board::Cell;
use crate::event::{Event, Mark};
use crate::seat::{Outcome, Seat};
use crate::view::{Roll, RollRole};

impl Gladiator {
    /// Plays a checked action and moves the turn on.
    pub(crate) fn apply(&mut self, seat: Seat, action: &Action, effect: Effect) -> Vec<Event> {
        let mover = self.cells[action.from.index()].expect("a piece");
        let mut events = Vec::new();
        if action.by_king {
            events.push(Event::new(format!(
                "The {} King overrides the {}'s move.",
                self.team.name(),
                self.commander_to_move().name()
            )));
        }
        self.resolve(seat, action, effect, None, &mut events);
        self.moved.push(mover.id);
        if !self.outcome.is_over() {
            self.slot += 1;
            self.begin_slot(&mut events);
        }
        events
    }

    /// The effect of one move on the board. `forced` settles a battle without
    /// dice (to judge a move's safety); otherwise the dice are rolled.
    pub(crate) fn resolve(
        &mut self,
        seat: Seat,
        a: &Action,
        effect: Effect,
        forced: Option<Fight>,
        events: &mut Vec<Event>,
    ) {
        let mut p = self.cells[a.from.index()].expect("a piece");
        let (from, to) = (a.from, a.to);
        let who = p.full_name();
        match effect {
            Effect::Move => {
                self.cells[from.index()] = None;
                self.release_frozen(&p, from, events);
                self.cells[to.index()] = Some(p);
                events.push(
                    Event::new(format!("{who} {}-{}.", name(from), name(to)))
                        .mark(from, Mark::From)
                        .mark(to, Mark::To),
                );
                self.arrive(to, a.promote, events);
            }
            Effect::Freeze => {
                let victim = self.cells[to.index()].expect("a victim");
                self.cells[from.index()] = None;
                self.release_frozen(&p, from, events);
                self.frozen[p.team.index()] = Some(Frozen {
                    cell: to,
                    piece: victim,
                });
                self.cells[to.index()] = Some(p);
                events.push(
                    Event::new(format!(
                        "{who} {}x{} freezes the {}: it leaves the board until she leaves the square.",
                        name(from),
                        name(to),
                        victim.full_name()
                    ))
                    .mark(from, Mark::From)
                    .mark(to, Mark::Affected),
                );
            }
            Effect::Eliminate => {
                let victim = self.cells[to.index()].expect("a victim");
                self.cells[from.index()] = None;
                self.cells[to.index()] = Some(p);
                let own = if victim.team == p.team {
                    " (his own piece, to escape check)"
                } else {
                    ""
                };
                events.push(
                    Event::new(format!(
                        "{who} {}x{} instantly eliminates the {}{own}.",
                        name(from),
                        name(to),
                        victim.full_name()
                    ))
                    .mark(from, Mark::From)
                    .mark(to, Mark::Hit),
                );
                self.kill(victim, events);
            }
            Effect::CaptureQueen => self.capture_queen(p, from, to, events),
            Effect::Attack { frozen_bonus } => {
                let mut d = if frozen_bonus {
                    self.frozen[p.team.index()].expect("frozen").piece
                } else {
                    self.cells[to.index()].expect("defender")
                };
                let an = p.kind.dice() + ATTACK_DICE + FROZEN_DICE * frozen_bonus as usize;
                let dn = d.kind.dice();
                let (attacker_won, text) = match forced {
                    Some(Fight::Kill) => {
                        d.hp = 0;
                        (true, String::new())
                    }
                    Some(Fight::Fall) => {
                        p.hp = 0;
                        (false, String::new())
                    }
                    Some(Fight::Stand) => (false, String::new()),
                    None => {
                        let ar = self.roll(an);
                        let dr = self.roll(dn);
                        let (asum, dsum) = (
                            ar.iter().map(|&x| x as i32).sum::<i32>(),
                            dr.iter().map(|&x| x as i32).sum::<i32>(),
                        );
                        let won = asum > dsum;
                        if won {
                            d.hp -= asum - dsum;
                        } else {
                            p.hp -= dsum - asum;
                        }
                        let sides = DIE_SIDES;
                        let dice_text = format!(
                            "{}d{sides}+{ATTACK_DICE}d{sides}{} = {asum} vs {dn}d{sides} = {dsum}",
                            p.kind.dice(),
                            if frozen_bonus {
                                format!("+{FROZEN_DICE}d{sides}")
                            } else {
                                String::new()
                            },
                        );
                        let result = if won && d.hp <= 0 {
                            format!("{} dies", d.kind.name())
                        } else if won {
                            format!(
                                "{} loses {} ({} of {} left)",
                                d.kind.name(),
                                asum - dsum,
                                d.hp,
                                d.kind.max_hp()
                            )
                        } else if p.hp <= 0 {
                            format!("{} dies", p.kind.name())
                        } else if asum == dsum {
                            "a tie: the defender holds".to_string()
                        } else {
                            format!(
                                "{} loses {} ({} of {} left)",
                                p.kind.name(),
                                dsum - asum,
                                p.hp,
                                p.kind.max_hp()
                            )
                        };
                        let mut all = ar.clone();
                        all.extend(&dr);
                        self.last_dice = Some((seat, all));
                        self.last_rolls = vec![
                            Roll {
                                seat,
                                role: RollRole::Attack,
                                dice: ar,
                                total: Some(asum),
                            },
                            Roll {
                                seat: seat_of(d.team, d.kind.commander()),
                                role: RollRole::Defence,
                                dice: dr,
                                total: Some(dsum),
                            },
                        ];
                        (
                            won,
                            format!(
                                "{} {} attacks {} {}{}: {dice_text}, {result}.",
                                p.kind.name(),
                                name(from),
                                d.kind.name(),
                                name(to),
                                if frozen_bonus { " (frozen)" } else { "" }
                            ),
                        )
                    }
                };
                // Warriors, Footmen and Squires that win return fully healed (R5).
                if attacker_won && p.kind.heals_on_victory() {
                    p.hp = p.kind.max_hp();
                }
                if !attacker_won && d.kind.heals_on_victory() {
                    d.hp = d.kind.max_hp();
                }
                if forced.is_none() {
                    let (seat, dice) = self.last_dice.clone().expect("rolled");
                    events.push(
                        Event::new(text)
                            .mark(from, Mark::From)
                            .mark(to, Mark::Hit)
                            .dice(seat, dice),
                    );
                }
                self.settle_battle(p, d, from, to, frozen_bonus, events);
                if d.hp <= 0 && !self.outcome.is_over() {
                    self.arrive(to, a.promote, events);
                }
            }
        }
    }

    /// Puts the pieces back after a battle: the winner takes the square if the
    /// loser died; a failed attacker that lives stays where it was (R4).
    fn settle_battle(
        &mut self,
        p: Piece,
        d: Piece,
        from: Cell,
        to: Cell,
        frozen_bonus: bool,
        events: &mut Vec<Event>,
    ) {
        let team = p.team;
        if d.hp <= 0 {
            self.cells[from.index()] = None;
            if frozen_bonus {
                // The frozen piece dies; the attacker takes the square and the
                // Queen goes beside her King (Queen rule 11).
                let queen = self.cells[to.index()].expect("queen");
                self.frozen[team.index()] = None;
                self.cells[to.index()] = Some(p);
                self.return_queen(queen, events);
            } else {
                self.cells[to.index()] = Some(p);
            }
            self.kill(d, events);
        } else if p.hp <= 0 {
            self.cells[from.index()] = None;
            if frozen_bonus {
                // The frozen piece won: it stays on the square, freed, and the
                // Queen goes beside her King (Queen rule 11).
                let queen = self.cells[to.index()].expect("queen");
                self.frozen[team.index()] = None;
                self.cells[to.index()] = Some(d);
                events.push(
                    Event::new(format!("The {} is freed on {}.", d.full_name(), name(to)))
                        .mark(to, Mark::Placed),
                );
                self.return_queen(queen, events);
            } else {
                self.cells[to.index()] = Some(d);
            }
            self.kill(p, events);
        } else {
            self.cells[from.index()] = Some(p);
            if frozen_bonus {
                if let Some(f) = self.frozen[team.index()].as_mut() {
                    f.piece = d;
                }
            } else {
                self.cells[to.index()] = Some(d);
            }
        }
    }

    /// A Queen moving off a square frees the piece she held frozen there.
    fn release_frozen(&mut self, p: &Piece, from: Cell, events: &mut Vec<Event>) {
        if p.kind != Kind::Queen {
            return;
        }
        if let Some(f) = self.frozen[p.team.index()].take() {
            self.cells[from.index()] = Some(f.piece);
            events.push(
                Event::new(format!(
                    "The {} on {} is no longer frozen.",
                    f.piece.full_name(),
                    name(from)
                ))
                .mark(from, Mark::Placed),
            );
        }
    }

    fn capture_queen(&mut self, p: Piece, from: Cell, to: Cell, events: &mut Vec<Event>) {
        let queen = self.cells[to.index()].expect("queen");
        self.cells[from.index()] = None;
        self.cells[to.index()] = Some(p);
        events.push(
            Event::new(format!(
                "{} {}x{} captures the {}.",
                p.full_name(),
                name(from),
                name(to),
                queen.full_name()
            ))
            .mark(from, Mark::From)
            .mark(to, Mark::Hit),
        );
        // Her frozen piece goes to its own back row (Queen rule 9, R12).
        if let Some(f) = self.frozen[queen.team.index()].take() {
            let file = BOARD.coords(to).0;
            if let Some(c) = self.square_on_back_row(f.piece.team, file) {
                self.cells[c.index()] = Some(f.piece);
                events.push(
                    Event::new(format!(
                        "The {} is freed and goes to {}.",
                        f.piece.full_name(),
                        name(c)
                    ))
                    .mark(c, Mark::Placed),
                );
            }
        }
        if let Some(mine) = self.captive[p.team.index()].take() {
            // Capturing their Queen while they hold ours: the Queens are swapped,
            // each returning beside her own King (Queen rule 7.2, R13).
            events.push(Event::new(
                "The Queens are swapped: both return beside their Kings.",
            ));
            self.return_queen(mine.queen, events);
            self.return_queen(queen, events);
        } else {
            self.captive[queen.team.index()] = Some(Captive {
                queen,
                captor: p.id,
                held: 0,
            });
        }
    }

    /// Places a Queen on the board beside her King (Queen rule 8, R10).
    fn return_queen(&mut self, queen: Piece, events: &mut Vec<Event>) {
        if let Some(c) = self.square_near_king(queen.team) {
            self.cells[c.index()] = Some(queen);
            events.push(
                Event::new(format!(
                    "The {} returns to {} beside her King.",
                    queen.full_name(),
                    name(c)
                ))
                .mark(c, Mark::Placed),
            );
        }
    }

    /// A piece is killed (already off its square).
    fn kill(&mut self, victim: Piece, events: &mut Vec<Event>) {
        let team = victim.team;
        if victim.kind == Kind::King {
            events.push(Event::new(format!(
                "The {} King is killed: {} wins.",
                team.name(),
                team.other().name()
            )));
            self.win(team.other(), format!("the {} King was killed", team.name()));
            return;
        }
        self.lost[team.index()].push(victim.kind);
        if victim.kind == Kind::KingsKnight && !self.knight_lives(team) {
            events.push(Event::new(format!(
                "The {} King's Knight is dead: the {} King can now be attacked and can no longer be checked.",
                team.name(),
                team.name()
            )));
        }
        // Killing the abductor frees the Queen (Queen rule 7.1).
        let other = team.other();
        if let Some(c) = self.captive[other.index()] {
            if c.captor == victim.id {
                self.captive[other.index()] = None;
                events.push(Event::new(format!(
                    "The {} Queen's abductor is dead: she is free.",
                    other.name()
                )));
                self.return_queen(c.queen, events);
            }
        }
    }

    /// A Footman or Squire that ended on the far side is replaced by the piece chosen.
    fn arrive(&mut self, to: Cell, promote: Option<Kind>, events: &mut Vec<Event>) {
        let Some(kind) = promote else { return };
        let Some(p) = self.cells[to.index()].as_mut() else {
            return;
        };
        let team = p.team;
        let old = p.kind;
        p.kind = kind;
        p.hp = kind.max_hp();
        let lost = &mut self.lost[team.index()];
        if let Some(i) = lost.iter().position(|&k| k == kind) {
            lost.remove(i);
        }
        events.push(
            Event::new(format!(
                "The {} {} on {} is replaced by a {}.",
                team.name(),
                old.name(),
                name(to),
                kind.name()
            ))
            .mark(to, Mark::Placed),
        );
    }

    fn win(&mut self, team: Team, reason: String) {
        self.outcome = Outcome::Won {
            winners: team_seats(team),
            reason,
        };
    }

    /// Starts the current commander's move: ends the turn after the fourth,
    /// heals beside the Queen, passes a move nobody can make, and ends the
    /// game on checkmate.
    pub(crate) fn begin_slot(&mut self, events: &mut Vec<Event>) {
        let mut passes = 0;
        loop {
            if self.slot >= 4 {
                self.end_turn(events);
                if self.outcome.is_over() {
                    return;
                }
            }
            if self.slot == Commander::Queen as u8 {
                self.heal(events);
            }
            if self.team_can_move() {
                return;
            }
            if self.in_check(self.team) {
                events.push(Event::new(format!(
                    "The {} King is checkmated: {} wins.",
                    self.team.name(),
                    self.team.other().name()
                )));
                let t = self.team;
                self.win(t.other(), format!("the {} King was checkmated", t.name()));
                return;
            }
            events.push(Event::new(format!(
                "The {} {} has no move and neither has the King: the move passes (R11).",
                self.team.name(),
                self.commander_to_move().name()
            )));
            passes += 1;
            if passes >= 8 {
                self.outcome = Outcome::Drawn {
                    reason: "no piece on either side can move".into(),
                };
                events.push(Event::new("No piece on either side can move: a draw."));
                return;
            }
            self.slot += 1;
        }
    }

    /// After a team's fourth move: its held Queen counts one more turn (R9).
    fn end_turn(&mut self, events: &mut Vec<Event>) {
        let team = self.team;
        if let Some(c) = self.captive[team.index()].as_mut() {
            c.held += 1;
            let held = c.held;
            events.push(Event::new(format!(
                "The {} Queen has been held {held} of {HOLD_TURNS} turns.",
                team.name()
            )));
            if held >= HOLD_TURNS {
                events.push(Event::new(format!(
                    "The {} Queen was held for {HOLD_TURNS} turns: {} wins.",
                    team.name(),
                    team.other().name()
                )));
                self.win(
                    team.other(),
                    format!("the {} Queen was held for {HOLD_TURNS} turns", team.name()),
                );
                return;
            }
        }
        self.team = team.other();
        self.slot = 0;
        self.moved.clear();
        self.turn += 1;
    }

    /// At the start of her move the Queen heals every wounded friend beside her (R8).
    fn heal(&mut self, events: &mut Vec<Event>) {
        let team = self.team;
        let Some(q) = self.find(team, Kind::Queen) else {
            return;
        };
        for c in BOARD.neighbours(q) {
            if let Some(p) = self.cells[c.index()].as_mut() {
                if p.team == team && p.hp < p.kind.max_hp() {
                    p.hp = p.kind.max_hp();
                    events.push(
                        Event::new(format!(
                            "The {} Queen heals the {} on {} ({} hit points).",
                            team.name(),
                            p.kind.name(),
                            name(c),
                            p.hp
                        ))
                        .mark(c, Mark::Affected),
                    );
                }
            }
        }
    }

    /// The seat of the commander to move now.
    pub fn seat_to_move(&self) -> Seat {
        seat_of(self.team, self.commander_to_move())
    }
}
