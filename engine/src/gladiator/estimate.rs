//! The computer opponent's estimate of a Gladiator position
//! (`Game::heuristic`): the three ways to win (hold the Queen five turns,
//! checkmate, kill the King) and the hit points that decide the battles.
//!
//! It reads the board and the tallies directly and never lists legal moves:
//! it is called at every leaf of the search.

use super::{Gladiator, Kind, Piece, Team};
use crate::board::Cell;
use crate::seat::{Outcome, Seat};

/// Worth of a piece at full hit points: its combat dice, more for the pieces
/// whose loss changes the rules (the Black Knight is the one who captures a
/// Queen; the King's Knight keeps his King from being attacked).
fn worth(kind: Kind) -> f64 {
    match kind {
        Kind::King => 5.0,
        Kind::Queen => 8.0,
        Kind::Footman => 1.0,
        Kind::Squire => 0.6,
        Kind::Warrior => 2.0,
        Kind::MountedKnight | Kind::Scout => 3.0,
        Kind::Champion => 4.0,
        Kind::BlackKnight | Kind::KingsKnight => 5.0,
    }
}

/// A captive Queen: what her captors gain at once and for each turn held
/// (at five her team has lost).
const CAPTIVE: f64 = 4.0;
const PER_TURN_HELD: f64 = 3.0;
/// A Queen an enemy Black Knight or Scout (or unguarded King) can reach:
/// the share of a capture counted, by whether the threatening team moves now.
const QUEEN_THREAT_MOVING: f64 = 0.5;
const QUEEN_THREAT_WAITING: f64 = 0.2;
/// An unguarded King's lost hit points weigh this much more than a piece's:
/// killing him wins.
const KING_WOUNDS: f64 = 10.0;
/// A guarded King in check must spend his team's next move on it, or lose.
const IN_CHECK: f64 = 1.5;

impl Gladiator {
    /// `Game::heuristic`: each team's score, sharpened by cubes as the shared
    /// default is; a finished game scores its result.
    pub(crate) fn estimate(&self, seat: Seat) -> f32 {
        match &self.outcome {
            Outcome::Won { winners, .. } => return if winners.contains(&seat) { 1.0 } else { 0.0 },
            Outcome::Drawn { .. } => return 0.5,
            Outcome::Ongoing => {}
        }
        let me = super::team_of(seat);
        let (a, b) = (self.score(me), self.score(me.other()));
        let (a, b) = (a.max(0.1).powi(3), b.max(0.1).powi(3));
        (a / (a + b)) as f32
    }

    /// `team`'s standing: material by hit points, its Queen free or held,
    /// its King's safety, and the pieces its Queen holds frozen.
    fn score(&self, team: Team) -> f64 {
        let foe = team.other();
        let mut s = 0.0;
        for (_, p) in self.pieces() {
            if p.team == team {
                s += worth(p.kind) * health(&p);
            }
        }
        // A frozen enemy is off the board (it counts for nobody above), and
        // the freezing Queen is still on it; nothing more to add.
        if let Some(c) = self.captive[foe.index()] {
            s += CAPTIVE + PER_TURN_HELD * c.held as f64;
        }
        // A held Queen's worth is already gone from the board; only a free
        // one can be threatened.
        if let Some(q) = self
            .find(team, Kind::Queen)
            .filter(|_| self.captive[team.index()].is_none())
        {
            if self.queen_reachable(q, foe) {
                let share = if self.team == foe {
                    QUEEN_THREAT_MOVING
                } else {
                    QUEEN_THREAT_WAITING
                };
                s -= share * (worth(Kind::Queen) + CAPTIVE);
            }
        }
        if !self.guarded(team) {
            if let Some(k) = self.king_piece(team) {
                s -= KING_WOUNDS * (1.0 - k.hp.max(0) as f64 / Kind::King.max_hp() as f64);
            }
        } else if self.in_check(team) {
            s -= IN_CHECK;
        }
        s
    }

    /// `team`'s King, on the board or frozen.
    fn king_piece(&self, team: Team) -> Option<Piece> {
        self.pieces()
            .map(|(_, p)| p)
            .chain(self.frozen.iter().flatten().map(|f| f.piece))
            .find(|p| p.team == team && p.kind == Kind::King)
    }

    /// Whether a piece of `foe` that may capture a Queen (Black Knight, Scout,
    /// or a King who is not guarded: Queen rule 5) reaches `queen`.
    fn queen_reachable(&self, queen: Cell, foe: Team) -> bool {
        let unguarded = !self.guarded(foe);
        self.pieces().any(|(c, p)| {
            p.team == foe
                && (matches!(p.kind, Kind::BlackKnight | Kind::Scout)
                    || (p.kind == Kind::King && unguarded))
                && (self.team != foe || !self.moved.contains(&p.id))
                && self.threatens(c, &p, queen)
        })
    }
}

/// A wounded piece is worth between half and all of a healthy one.
fn health(p: &Piece) -> f64 {
    if p.kind == Kind::Queen || p.kind.max_hp() <= 0 {
        1.0
    } else {
        0.5 + 0.5 * p.hp.clamp(0, p.kind.max_hp()) as f64 / p.kind.max_hp() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gladiator::{seat_of, Commander};
    use crate::Game;

    fn base() -> Gladiator {
        let mut g = Gladiator::empty(1);
        g.put("f1", Team::White, Kind::King)
            .put("i1", Team::White, Kind::KingsKnight)
            .put("f12", Team::Black, Kind::King)
            .put("i12", Team::Black, Kind::KingsKnight)
            .put("a12", Team::Black, Kind::BlackKnight);
        g
    }

    /// A Queen a Black Knight can reach scores worse for her team, more so
    /// when the Knight's team is the one moving.
    #[test]
    fn a_reachable_queen_is_a_danger() {
        let white = seat_of(Team::White, Commander::Queen);
        let mut safe = base();
        safe.put("e5", Team::White, Kind::Queen);
        let mut exposed = base();
        exposed.put("b10", Team::White, Kind::Queen);
        assert!(exposed.heuristic(white) < safe.heuristic(white));
        let mut waiting = exposed.clone();
        waiting.set_turn(Team::White, Commander::Queen);
        let mut moving = exposed.clone();
        moving.set_turn(Team::Black, Commander::BlackKnight);
        assert!(moving.heuristic(white) < waiting.heuristic(white));
    }

    /// Without his King's Knight the King can be killed: his wounds count.
    #[test]
    fn an_unguarded_kings_wounds_count() {
        let white = seat_of(Team::White, Commander::King);
        let mut g = Gladiator::empty(1);
        g.put("f1", Team::White, Kind::King)
            .put("f12", Team::Black, Kind::King)
            .put("i12", Team::Black, Kind::KingsKnight)
            .put("i1", Team::White, Kind::Warrior);
        let healthy = g.heuristic(white);
        g.set_hp("f1", 10);
        assert!(g.heuristic(white) < healthy - 0.05);
    }
}
