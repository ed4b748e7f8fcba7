//! Undead Arcana's second way to lose (U10): a General who is threatened and
//! whom nothing he may do makes safe ("cannot move safely from").

use super::action::Action;
use super::ruleset::Variation;
use super::state::{Arcana, BOARD};
use crate::board::Cell;
use crate::seat::{Outcome, Seat};

fn n(cell: Cell) -> String {
    BOARD.name(cell)
}

impl Arcana {
    /// Undead Arcana's second way to lose, tested when a side's turn begins:
    /// its General is threatened (the enemy could kill him with one action
    /// on its next turn) and no action of his own leaves him unthreatened
    /// (U10). Under the first edition of the rulings only his moves counted.
    pub fn general_trapped(&self, seat: Seat) -> bool {
        let Some(g) = self.general(seat) else {
            return false;
        };
        let enemy = Arcana::other(seat);
        if !self.threatens_general(enemy) {
            return false;
        }
        let Some(p) = self.at(g).copied() else {
            return false;
        };
        let mut acts = Vec::new();
        self.commanded_actions(seat, g, &p, self.turn_number, &mut acts);
        !acts.iter().any(|a| {
            let moves = matches!(
                a,
                Action::Move { .. }
                    | Action::MoveKill { .. }
                    | Action::KillMove { .. }
                    | Action::Vanquish { to: Some(_), .. }
            );
            (moves || self.holds(seat, Variation::GeneralSafeByAnyAction))
                && self.leaves_general_safe(seat, a)
        })
    }

    /// Whether the General's action `a` leaves him unthreatened (U10): it
    /// wins the game, or after it (tomb gas settled, the decisions it raises
    /// not played out) the enemy has no action that would kill him.
    fn leaves_general_safe(&self, seat: Seat, a: &Action) -> bool {
        let mut sim = self.clone();
        sim.pending.clear();
        sim.check = false;
        let mut ev = Vec::new();
        sim.command(seat, a, &mut ev);
        if sim.outcome.is_over() {
            return matches!(&sim.outcome, Outcome::Won { winners, .. } if winners.contains(&seat));
        }
        sim.pending.clear();
        sim.update_paralysis();
        !sim.threatens_general(Arcana::other(seat))
    }

    /// The reason a trapped General loses (U10), for the game-over message.
    pub(crate) fn trapped_reason(&self, loser: Seat) -> String {
        let g = self.general(loser).expect("trapped General stands");
        let p = self.at(g).expect("trapped General stands");
        let who = format!(
            "the {} General, the {} on {}, cannot move safely",
            self.seat_label(loser),
            p.unit.name(),
            n(g)
        );
        if !self.holds(loser, Variation::GeneralSafeByAnyAction) {
            return format!("{who}.");
        }
        let why = if Arcana::controlled_on(p, self.turn_number) {
            "he is threatened and under the enemy's control"
        } else if !p.commandable() {
            "he is threatened and cannot act"
        } else {
            "he is threatened and nothing he may do makes him safe"
        };
        format!("{who}: {why} (U10).")
    }
}
