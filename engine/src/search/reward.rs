//! What a finished or cut-off playout is worth to each seat, and the generic
//! material estimate behind [`Game::heuristic`]'s default.

use crate::game::Game;
use crate::seat::{Outcome, Seat};
use crate::view::View;
use std::collections::BTreeMap;

/// The result of a playout for each seat, computed only for the seats asked
/// about (a heuristic may be costly and most paths involve two seats).
pub(super) struct Rewards<'a, G: Game> {
    state: &'a G,
    outcome: Outcome,
    cache: Vec<Option<f32>>,
}

impl<'a, G: Game> Rewards<'a, G> {
    pub fn new(state: &'a G) -> Rewards<'a, G> {
        Rewards {
            state,
            outcome: state.outcome(),
            cache: vec![None; state.seat_count()],
        }
    }

    pub fn of(&mut self, seat: Seat) -> f32 {
        if let Some(Some(r)) = self.cache.get(seat.index()) {
            return *r;
        }
        let r = match &self.outcome {
            Outcome::Won { winners, .. } => {
                if winners.contains(&seat) {
                    1.0
                } else {
                    0.0
                }
            }
            Outcome::Drawn { .. } => 0.5,
            Outcome::Ongoing => self.state.heuristic(seat).clamp(0.0, 1.0),
        };
        if let Some(slot) = self.cache.get_mut(seat.index()) {
            *slot = Some(r);
        }
        r
    }
}

/// The exact result of a finished game for `seat`, if it is finished.
pub(super) fn result(outcome: &Outcome, seat: Seat) -> Option<f32> {
    match outcome {
        Outcome::Ongoing => None,
        Outcome::Won { winners, .. } => Some(if winners.contains(&seat) { 1.0 } else { 0.0 }),
        Outcome::Drawn { .. } => Some(0.5),
    }
}

/// A generic estimate of `seat`'s result from what everybody can see: its
/// team's share of the material on the board.
///
/// Seats sharing a colour in the view are one team. A piece counts 1, or
/// between 0.5 and 1 by its remaining hit points where it has them; pieces of
/// eliminated seats count for nobody. The share is sharpened (cubes of each
/// team's material) so that a one-piece lead among sixteen reads as about 0.55
/// rather than 0.52. A finished game gives its exact result; an eliminated
/// seat gets 0.
pub fn material_share(view: &View, seat: Seat) -> f32 {
    if let Some(r) = result(&view.outcome, seat) {
        return r;
    }
    let Some(me) = view.seats.get(seat.index()) else {
        return 0.5;
    };
    if me.eliminated {
        return 0.0;
    }
    let mut teams: BTreeMap<u8, f64> = BTreeMap::new();
    for s in view.seats.iter().filter(|s| !s.eliminated) {
        teams.entry(s.colour).or_insert(0.0);
    }
    for piece in &view.pieces {
        let Some(owner) = view.seats.get(piece.seat.index()) else {
            continue;
        };
        if owner.eliminated {
            continue;
        }
        let weight = match piece.hp {
            Some((hp, max)) if max > 0 => 0.5 + 0.5 * (hp.clamp(0, max) as f64 / max as f64),
            _ => 1.0,
        };
        *teams.entry(owner.colour).or_insert(0.0) += weight;
    }
    let total: f64 = teams.values().map(|m| m.powi(3)).sum();
    if total <= 0.0 {
        return 1.0 / teams.len().max(1) as f32;
    }
    (teams.get(&me.colour).copied().unwrap_or(0.0).powi(3) / total) as f32
}
