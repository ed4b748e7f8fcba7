//! The Zombie's bite: Tokar's recruit from the graveyard (R20), and Undead
//! Arcana's turning of the victim itself (U9, edition 2 of the rulings).

use super::action::Action;
use super::ruleset::Variation;
use super::state::{Arcana, Pending, Piece, BOARD};
use super::undead::rank_options;
use super::unit::{Rank, Unit};
use crate::board::Cell;
use crate::event::{Event, Mark};

fn n(cell: Cell) -> String {
    BOARD.name(cell)
}

impl Arcana {
    /// Whether the Zombie moving from `from` onto the model on `to` turns it
    /// (U9): an Undead Arcana army's Zombie, commanded by his own side, biting
    /// an enemy other than the General, in a game under edition 2 of the
    /// rulings, with an empty square next to `to` once he stands there (the
    /// square he leaves counts).
    pub(crate) fn bite_turns(&self, from: Cell, to: Cell) -> bool {
        let (Some(z), Some(v)) = (self.at(from), self.at(to)) else {
            return false;
        };
        z.unit == Unit::Zombie
            && self.holds(z.owner, Variation::ZombieTurnsVictim)
            && v.owner != z.owner
            && v.rank() != Rank::General
            && !Arcana::controlled_on(z, self.turn_number)
            && (!self.empty_neighbours(to).is_empty() || BOARD.king_distance(from, to) == 1)
    }

    /// After a Zombie's landing on `to`: the decision his bite raises, if any.
    /// `turned` holds a victim that rises as Undead (U9); otherwise the
    /// Zombie's owner may recruit a unit of the victim's rank from his
    /// graveyard (R20), unless the victim was an ally or the Zombie was
    /// commanded by the enemy (U5).
    pub(crate) fn zombie_bite(
        &mut self,
        moving: Piece,
        victim: Piece,
        to: Cell,
        turned: Option<Piece>,
    ) {
        if moving.unit != Unit::Zombie {
            return;
        }
        let rank = victim.rank();
        if turned.is_some() {
            self.pending.push_back(Pending::Recruit {
                seat: moving.owner,
                zombie: to,
                rank,
                turned,
            });
            return;
        }
        let controlled = Arcana::controlled_on(&moving, self.turn_number);
        if victim.owner != moving.owner
            && !controlled
            && !self.grave_units(moving.owner, |r| r == rank).is_empty()
        {
            self.pending.push_back(Pending::Recruit {
                seat: moving.owner,
                zombie: to,
                rank,
                turned: None,
            });
        }
    }

    /// The unit kinds a Zombie's decision may raise: for a turned victim the
    /// two Undead Arcana units of his rank (U9), for a recruit those of the
    /// rank in the graveyard (R20).
    pub(crate) fn recruit_units(&self, pending: &Pending) -> Vec<Unit> {
        match pending {
            Pending::Recruit {
                turned: Some(_),
                rank,
                ..
            } => rank_options(*rank).to_vec(),
            Pending::Recruit { seat, rank, .. } => self.grave_units(*seat, |r| r == *rank),
            _ => Vec::new(),
        }
    }

    /// The choices of a Zombie's decision: a unit on an empty square next to
    /// him; a recruit may also be declined, a turning may not ("becomes").
    pub(crate) fn recruit_actions(&self, pending: &Pending) -> Vec<Action> {
        let Pending::Recruit { zombie, turned, .. } = pending else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for unit in self.recruit_units(pending) {
            for to in self.empty_neighbours(*zombie) {
                out.push(Action::Place {
                    to,
                    unit: Some(unit),
                });
            }
        }
        if turned.is_none() {
            out.push(Action::Decline);
        }
        out
    }

    /// Answers a Zombie's decision: the raised unit stands on `to`.
    pub(crate) fn answer_recruit(
        &mut self,
        pending: Pending,
        to: Cell,
        unit: Unit,
        ev: &mut Vec<Event>,
    ) {
        let Pending::Recruit {
            seat,
            zombie,
            turned,
            ..
        } = pending
        else {
            return;
        };
        let text = match turned {
            Some(v) => format!(
                "The {} bitten by the Zombie on {} rises as a {} on {}.",
                v.unit.name(),
                n(zombie),
                unit.name(),
                n(to)
            ),
            None => {
                let g = &mut self.graves[seat.index()];
                if let Some(i) = g.iter().rposition(|&u| u == unit) {
                    g.remove(i);
                }
                format!(
                    "The Zombie on {}'s victim rises: a {} is raised on {}.",
                    n(zombie),
                    unit.name(),
                    n(to)
                )
            }
        };
        self.board[to.index()] = Some(Piece::new(unit, seat));
        ev.push(Event::new(text).mark(to, Mark::Placed));
    }

    /// A turned victim with nowhere left to rise is captured after all: to
    /// its owner's graveyard.
    pub(crate) fn turning_lapses(&mut self, pending: &Pending) {
        if let Pending::Recruit {
            turned: Some(v), ..
        } = pending
        {
            self.graves[v.owner.index()].push(v.unit);
        }
    }
}
