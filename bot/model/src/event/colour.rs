//! Colour (here: side) preferences and allocation, after the FIDE Dutch
//! system (Handbook C.04.3, its colour articles). Only games played over
//! the board count: a bye, a forfeit or an absence gives no side.
//!
//! A player's preference comes from their colour difference (games as
//! `First` less games as `Second`) and their last two sides:
//! - **absolute**: the difference is over 1 either way, or the last two
//!   games were on the same side: they must have the other side (the
//!   pairing avoids two such players wanting the same side meeting, where
//!   it can: no three in a row, no difference of 3);
//! - **strong**: the difference is 1 either way: the side that evens it;
//! - **mild**: the difference is 0: the side other than the last one;
//! - none before the first game played.

use super::game::Side;

/// How much a player wants a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strength {
    Mild,
    Strong,
    Absolute,
}

/// A player's wish for the next game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preference {
    pub side: Side,
    pub strength: Strength,
    /// Games as `First` less games as `Second`.
    pub difference: i32,
}

/// The preference of a player who played on `sides` (oldest first).
pub fn preference(sides: &[Side]) -> Option<Preference> {
    let last = *sides.last()?;
    let difference: i32 = sides
        .iter()
        .map(|s| if *s == Side::First { 1 } else { -1 })
        .sum();
    let twice = sides.len() >= 2 && sides[sides.len() - 2] == last;
    let evening = if difference > 0 {
        Side::Second
    } else {
        Side::First
    };
    let (side, strength) = if difference.abs() > 1 {
        (evening, Strength::Absolute)
    } else if twice {
        (last.other(), Strength::Absolute)
    } else if difference.abs() == 1 {
        (evening, Strength::Strong)
    } else {
        (last.other(), Strength::Mild)
    };
    Some(Preference {
        side,
        strength,
        difference,
    })
}

/// Whether two players both must have the same side (the pairing keeps
/// them apart where it can).
pub fn absolute_clash(a: Option<Preference>, b: Option<Preference>) -> bool {
    matches!((a, b), (Some(x), Some(y)) if x.strength == Strength::Absolute
        && y.strength == Strength::Absolute && x.side == y.side)
}

/// Whether two players want the same side, and whether both want it
/// strongly (strong or absolute): the pairing's colour quality counts these.
pub fn clash(a: Option<Preference>, b: Option<Preference>) -> (bool, bool) {
    match (a, b) {
        (Some(x), Some(y)) if x.side == y.side => (
            true,
            x.strength >= Strength::Strong && y.strength >= Strength::Strong,
        ),
        _ => (false, false),
    }
}

/// The side of the higher-ranked player `a` against `b`, by the Dutch
/// allocation rules in order: grant both preferences; grant the stronger
/// (between two absolute ones, the wider colour difference); alternate from
/// the latest round where they had different sides; grant the higher-ranked
/// player's preference; with no preference on either side, the
/// higher-ranked player takes `First` with an odd pairing number and
/// `Second` with an even one (round 1 thus alternates down the boards).
/// `a_sides` and `b_sides` are their sides round by round (`None` where a
/// player had no game over the board); `a_number` is `a`'s pairing number.
pub fn allocate(a_sides: &[Option<Side>], b_sides: &[Option<Side>], a_number: usize) -> Side {
    let played = |s: &[Option<Side>]| s.iter().flatten().copied().collect::<Vec<Side>>();
    let pa = preference(&played(a_sides));
    let pb = preference(&played(b_sides));
    match (pa, pb) {
        (None, None) => {
            if a_number % 2 == 1 {
                Side::First
            } else {
                Side::Second
            }
        }
        (Some(x), None) => x.side,
        (None, Some(y)) => y.side.other(),
        (Some(x), Some(y)) if x.side != y.side => x.side,
        (Some(x), Some(y)) => {
            if x.strength != y.strength {
                return if x.strength > y.strength {
                    x.side
                } else {
                    x.side.other()
                };
            }
            if x.strength == Strength::Absolute && x.difference.abs() != y.difference.abs() {
                return if x.difference.abs() > y.difference.abs() {
                    x.side
                } else {
                    x.side.other()
                };
            }
            // The latest round in which the two had different sides: each
            // now takes the side it did not have then.
            let rounds = a_sides.len().min(b_sides.len());
            for r in (0..rounds).rev() {
                if let (Some(sa), Some(sb)) = (a_sides[r], b_sides[r]) {
                    if sa != sb {
                        return sa.other();
                    }
                }
            }
            x.side
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Side::{First as W, Second as B};

    #[test]
    fn preferences_follow_the_difference_and_the_last_two_games() {
        assert_eq!(preference(&[]), None);
        let p = preference(&[W]).unwrap();
        assert_eq!((p.side, p.strength), (B, Strength::Strong));
        let p = preference(&[W, B]).unwrap();
        assert_eq!((p.side, p.strength), (W, Strength::Mild));
        let p = preference(&[B, W, W]).unwrap();
        assert_eq!((p.side, p.strength), (B, Strength::Absolute));
        let p = preference(&[W, B, W, W, B, W]).unwrap();
        assert_eq!((p.side, p.strength), (B, Strength::Absolute));
    }

    #[test]
    fn allocation_grants_the_stronger_wish_then_alternates() {
        // a mild for First, b (First twice) absolute for Second: both granted.
        assert_eq!(allocate(&[Some(W), Some(B)], &[Some(W), Some(W)], 1), W);
        // Strong against mild: strong wins.
        assert_eq!(allocate(&[Some(B)], &[Some(W), Some(B)], 1), W);
        assert_eq!(allocate(&[Some(W), Some(B)], &[Some(B)], 1), B);
        // Equal mild wishes for First: alternate from the latest round in
        // which they differed (round 2: a had First, so a takes Second).
        let a = [Some(B), Some(W), Some(W), Some(B)];
        let b = [Some(W), Some(B), Some(W), Some(B)];
        assert_eq!(allocate(&a, &b, 1), B);
        // Never differed: the higher-ranked player's wish.
        assert_eq!(allocate(&[Some(W), Some(B)], &[Some(W), Some(B)], 2), W);
        // No history: odd pairing number takes First, even Second.
        assert_eq!(allocate(&[None], &[None], 3), W);
        assert_eq!(allocate(&[], &[], 2), B);
    }
}
