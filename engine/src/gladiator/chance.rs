//! The exact odds of a battle, for the search's expectation over chance
//! outcomes ([`crate::game::Game::chance`]; ruling S12 of engine/rules/search.md).

use super::moves::Effect;
use super::piece::{ATTACK_DICE, DIE_SIDES, FROZEN_DICE};
use super::{Action, Gladiator};
use crate::error::ActionError;
use crate::event::Event;
use crate::game::Game;
use crate::seat::Seat;
use std::collections::BTreeMap;

/// One battle's outcomes, each a distinct result on the board: the defender
/// loses `k` hit points (the last of them: it dies), or the attacker does
/// (`k` = 0 is a tie, which the defender wins). Each with its exact chance and
/// one pair of dice totals (attacker's, defender's) that gives it.
struct Battle {
    outcomes: Vec<(f64, i32, i32)>,
    attack_dice: usize,
    defence_dice: usize,
}

/// The chance of each total of `n` six-sided dice, indexed by the total.
fn totals(n: usize) -> Vec<f64> {
    let sides = DIE_SIDES as usize;
    let mut dist = vec![1.0];
    for _ in 0..n {
        let mut next = vec![0.0; dist.len() + sides];
        for (total, p) in dist.iter().enumerate() {
            for face in 1..=sides {
                next[total + face] += p / sides as f64;
            }
        }
        dist = next;
    }
    dist
}

/// `n` dice showing `total` (which `totals(n)` gives a chance to).
fn dice_showing(n: usize, total: i32) -> Vec<u8> {
    let mut left = total - n as i32;
    (0..n)
        .map(|_| {
            let extra = left.clamp(0, DIE_SIDES as i32 - 1);
            left -= extra;
            1 + extra as u8
        })
        .collect()
}

impl Gladiator {
    /// The battle `action` starts, if it starts one and is legal for `seat`.
    fn battle(&self, seat: Seat, action: &Action) -> Option<Battle> {
        let Ok(Effect::Attack { frozen_bonus }) = self.check_action(seat, action) else {
            return None;
        };
        let p = self.cells[action.from.index()]?;
        let d = if frozen_bonus {
            self.frozen[p.team.index()]?.piece
        } else {
            self.cells[action.to.index()]?
        };
        let attack_dice = p.kind.dice() + ATTACK_DICE + FROZEN_DICE * frozen_bonus as usize;
        let defence_dice = d.kind.dice();
        let (a, dd) = (totals(attack_dice), totals(defence_dice));
        // Keyed by (the attacker won, hit points lost, capped at death).
        let mut by_result: BTreeMap<(bool, i32), (f64, i32, i32)> = BTreeMap::new();
        for (asum, pa) in a.iter().enumerate().filter(|(_, p)| **p > 0.0) {
            for (dsum, pd) in dd.iter().enumerate().filter(|(_, p)| **p > 0.0) {
                let (asum, dsum) = (asum as i32, dsum as i32);
                let key = if asum > dsum {
                    (true, (asum - dsum).min(d.hp.max(1)))
                } else {
                    (false, (dsum - asum).min(p.hp.max(0)))
                };
                by_result.entry(key).or_insert((0.0, asum, dsum)).0 += pa * pd;
            }
        }
        Some(Battle {
            outcomes: by_result.into_values().collect(),
            attack_dice,
            defence_dice,
        })
    }

    /// The odds of [`Game::chance`]: one per distinct result of the battle.
    pub(super) fn battle_odds(&self, seat: Seat, action: &Action) -> Vec<f64> {
        match self.battle(seat, action) {
            Some(b) if b.outcomes.len() > 1 => b.outcomes.iter().map(|o| o.0).collect(),
            _ => Vec::new(),
        }
    }

    /// [`Game::play_chance`]: loads dice that give the outcome, then plays.
    pub(super) fn play_battle_outcome(
        &mut self,
        seat: Seat,
        action: &Action,
        outcome: usize,
    ) -> Result<Vec<Event>, ActionError> {
        let dice = self.battle(seat, action).and_then(|b| {
            let &(_, asum, dsum) = b.outcomes.get(outcome)?;
            let mut dice = dice_showing(b.attack_dice, asum);
            dice.extend(dice_showing(b.defence_dice, dsum));
            Some(dice)
        });
        let Some(dice) = dice else {
            return self.play(seat, action);
        };
        let queued = std::mem::replace(&mut self.loaded, dice);
        let played = self.play(seat, action);
        self.loaded = queued;
        played
    }

    /// `n` battle dice: loaded ones first (the search's chosen outcome), then
    /// the generator's.
    pub(super) fn roll(&mut self, n: usize) -> Vec<u8> {
        (0..n)
            .map(|_| {
                if self.loaded.is_empty() {
                    self.rng.die(DIE_SIDES)
                } else {
                    self.loaded.remove(0)
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_are_a_distribution_and_dice_show_them() {
        for n in 1..6 {
            let t = totals(n);
            assert!((t.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            for (total, p) in t.iter().enumerate() {
                if *p > 0.0 {
                    let dice = dice_showing(n, total as i32);
                    assert_eq!(dice.len(), n);
                    assert!(dice.iter().all(|&x| (1..=DIE_SIDES).contains(&x)));
                    assert_eq!(dice.iter().map(|&x| x as usize).sum::<usize>(), total);
                }
            }
        }
        // Two dice: 7 is the likeliest total, 6 of 36.
        assert!((totals(2)[7] - 6.0 / 36.0).abs() < 1e-12);
    }
}
