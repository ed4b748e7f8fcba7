//! The exact odds of a capture roll, for the search's expectation over chance
//! outcomes ([`crate::game::Game::chance`]; ruling S12 of engine/rules/search.md).

use super::*;

/// What decides one capture roll: the attacker's rank against the victim's
/// rank plus its Grunts' bonus, each side adding one die of `sides` faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct CaptureRoll {
    pub attack: u8,
    pub defence: u8,
    pub sides: u8,
}

impl CaptureRoll {
    /// The dice pairs (attacker's, defender's) that capture, then those that fail.
    fn pairs(self) -> impl Iterator<Item = (u8, u8, bool)> {
        let s = self.sides;
        (1..=s).flat_map(move |a| (1..=s).map(move |d| (a, d, a + self.attack >= d + self.defence)))
    }

    /// The chance that the capture succeeds: pairs that capture over all pairs.
    pub fn success(self) -> f64 {
        let hits = self.pairs().filter(|&(_, _, ok)| ok).count();
        hits as f64 / (self.sides as f64 * self.sides as f64)
    }

    /// A dice pair giving the outcome (`true`: captured), if any does.
    pub fn dice_for(self, captured: bool) -> Option<[u8; 2]> {
        self.pairs()
            .find(|&(_, _, ok)| ok == captured)
            .map(|(a, d, _)| [a, d])
    }
}

impl Arachne {
    /// The capture roll `action` throws in this position, if it throws one:
    /// the same ranks and Grunt bonus as `apply` uses once the piece has moved
    /// (ruling R12), computed without moving it.
    pub(super) fn capture_roll(&self, action: &Action) -> Option<CaptureRoll> {
        if self.outcome.is_over() || !self.rules.rolls_for_captures() {
            return None;
        }
        let (from, at, target, turncoat) = match *action {
            Action::Move {
                turncoat,
                from,
                to,
                capture: Some(target),
                ..
            }
            | Action::Jump {
                turncoat,
                from,
                to,
                capture: Some(target),
            } => (from, to, target, turncoat),
            Action::Strike {
                turncoat,
                from,
                target,
                ..
            } => (from, from, target, turncoat),
            Action::Again {
                from,
                to,
                capture: Some(target),
            } => (from, to, target, self.pending.is_some_and(|p| p.turncoat)),
            _ => return None,
        };
        let attacker = self.piece(from)?;
        let victim = self.piece(target)?;
        if !turncoat && victim.seat == self.to_move {
            // Punishing one's own piece needs no roll.
            return None;
        }
        // The attacker has left `from` and stands on `at` when the dice are
        // thrown; neither square lends the defender a Grunt.
        let bonus = self.geo().neighbours[target.index()]
            .iter()
            .filter(|&&c| c != at && c != from)
            .filter(|&&c| {
                matches!(self.squares[c.index()], Some(p) if p.seat == victim.seat && p.kind == Kind::Grunt)
            })
            .count() as u8
            * GRUNT_BONUS;
        Some(CaptureRoll {
            attack: attacker.kind.rank(),
            defence: victim.kind.rank() + bonus,
            sides: self.rules.sides(),
        })
    }

    /// The odds of [`Game::chance`]: `[captured, failed]` for an action whose
    /// capture is rolled and may go either way, empty otherwise.
    pub(super) fn capture_odds(&self, seat: Seat, action: &Action) -> Vec<f64> {
        if seat != self.to_move {
            return Vec::new();
        }
        match self.capture_roll(action) {
            Some(roll) if self.is_legal(action) => {
                let p = roll.success();
                if p > 0.0 && p < 1.0 {
                    vec![p, 1.0 - p]
                } else {
                    Vec::new()
                }
            }
            _ => Vec::new(),
        }
    }

    /// [`Game::play_chance`]: loads a dice pair that gives the outcome, then plays.
    pub(super) fn play_capture_outcome(
        &mut self,
        seat: Seat,
        action: &Action,
        outcome: usize,
    ) -> Result<Vec<Event>, ActionError> {
        let dice = if self.capture_odds(seat, action).is_empty() {
            None
        } else {
            self.capture_roll(action)
                .and_then(|roll| roll.dice_for(outcome == 0))
        };
        let Some(dice) = dice else {
            return self.play(seat, action);
        };
        // The pair replaces the queue while the action plays, so that the
        // capture takes it and the next turn's dice come from the generator.
        let queued = std::mem::replace(&mut self.loaded, dice.to_vec());
        let played = self.play(seat, action);
        self.loaded = queued;
        played
    }
}
