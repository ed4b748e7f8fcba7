//! Swiss pairing for two-player games: a documented simplification of the
//! FIDE Dutch system (Handbook C.04.3).
//!
//! No Rust crate pairs Swiss tournaments (we looked: the kept programs are
//! bbpPairings and JaVaFo, in C++ and Java; Python and Go ports exist), so
//! this implements the published rules, checked against bbpPairings' own
//! test files (`bot/model/tests/swiss_pairing.rs`, `docs/events.md`).
//!
//! What is implemented, in the Dutch order of precedence:
//! 1. Absolute: no pair meets twice; nobody gets a second bye; a withdrawn
//!    entrant is not paired; two players who both must have the same side
//!    (colour difference over 1, or the same side twice running) do not
//!    meet, unless the round cannot be paired otherwise.
//! 2. The bye (odd count) goes to an eligible player (no bye yet) with the
//!    lowest score, among those with the fewest rounds without a game, and
//!    the lowest-ranked of them, provided everyone else can still be paired.
//! 3. Score brackets from the top: a bracket is the players of one score
//!    plus those who floated down to it. Its pairs are the most it can make
//!    while every player below can still be paired (completion); the rest
//!    float down to the next bracket. Floaters from above are paired first,
//!    each with the highest resident it may meet; the residents left are
//!    split into halves S1 and S2 and S1's i-th meets S2's i-th, S2 being
//!    transposed in the Dutch order until the pairs are allowed.
//! 4. Among allowed candidates, the first with the fewest colour clashes
//!    (both want the same side), then the fewest strong clashes, then the
//!    fewest players floating down again who floated down last round; the
//!    first candidate without any is taken at once.
//! 5. Sides by the Dutch allocation rules ([`super::colour::allocate`]).
//!
//! The simplifications, and why they are acceptable: the Dutch exchanges
//! between S1 and S2 are replaced by a search of all pairings of the
//! bracket in rank order, used only when no transposition gives a
//! candidate without colour clashes; the score-difference, upfloater and
//! two-rounds-back float criteria are not weighed; the candidates looked at
//! are capped (the best found so far is taken), so a large bracket's
//! pairing is allowed but may not be the very first the Dutch order would
//! reach. Every absolute rule above always holds. The examples tested,
//! and where the output differs from bbpPairings', are in `docs/events.md`.

use super::colour::{absolute_clash, allocate, clash, preference, Preference};
use super::game::{Board, Round, Side, BYE_HALVES};
use super::matching::{pairable, perfect};
use std::cmp::Reverse;
use thiserror::Error;

/// Why a round could not be paired (a clear reason for the organiser).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PairingError {
    #[error("fewer than two players are left to pair")]
    TooFew,
    #[error("no pairing exists: every way of pairing the players repeats a game or a bye")]
    Impossible,
    #[error("the previous round has games still in play")]
    RoundOpen,
    #[error("round {0} names an entrant the event does not have")]
    Unknown(usize),
}

/// Candidates looked at per bracket and size before the best so far is
/// taken: bounds the time a large, tangled bracket can take.
const CANDIDATES: usize = 400;
/// Steps of the candidate search per bracket and size.
const STEPS: usize = 20_000;

/// What the pairing knows of an entrant from the rounds before.
#[derive(Clone, Debug, Default)]
pub(crate) struct History {
    /// Half points.
    pub score: u32,
    pub met: Vec<usize>,
    /// The side in each round, `None` where no game was played over the board.
    pub sides: Vec<Option<Side>>,
    pub had_bye: bool,
    /// Rounds without a game over the board (byes, forfeits, absences).
    pub unplayed: u32,
    /// Floated down last round (met a lower score, or had the bye).
    pub floated: bool,
}

impl History {
    fn preference(&self) -> Option<Preference> {
        let played: Vec<Side> = self.sides.iter().flatten().copied().collect();
        preference(&played)
    }
}

/// Every entrant's history from `rounds`. Unfinished games count no points.
pub(crate) fn histories(n: usize, rounds: &[Round]) -> Result<Vec<History>, PairingError> {
    let mut h = vec![History::default(); n];
    for (r, round) in rounds.iter().enumerate() {
        let before: Vec<u32> = h.iter().map(|x| x.score).collect();
        for x in h.iter_mut() {
            x.sides.push(None);
            x.floated = false;
        }
        for b in &round.boards {
            if b.first >= n || b.second >= n {
                return Err(PairingError::Unknown(r + 1));
            }
            h[b.first].met.push(b.second);
            h[b.second].met.push(b.first);
            let played = b.outcome.is_none_or(|o| o.played());
            for (e, side, o) in [
                (b.first, Side::First, b.second),
                (b.second, Side::Second, b.first),
            ] {
                if played {
                    h[e].sides[r] = Some(side);
                } else {
                    h[e].unplayed += 1;
                }
                if let Some(out) = b.outcome {
                    h[e].score += out.halves(side);
                }
                h[e].floated = before[o] < before[e];
            }
        }
        if let Some(e) = round.bye {
            if e >= n {
                return Err(PairingError::Unknown(r + 1));
            }
            h[e].had_bye = true;
            h[e].unplayed += 1;
            h[e].score += BYE_HALVES;
            h[e].floated = true;
        }
        for &e in &round.absent {
            if e >= n {
                return Err(PairingError::Unknown(r + 1));
            }
            h[e].unplayed += 1;
        }
    }
    Ok(h)
}

/// The colour and float quality of a candidate (lower is better).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Quality {
    clashes: u32,
    strong: u32,
    floats_again: u32,
}

impl Quality {
    fn perfect(&self) -> bool {
        *self == Quality::default()
    }
}

struct Pairer<'a> {
    h: &'a [History],
    prefs: Vec<Option<Preference>>,
    /// Whether two players with the same absolute wish are kept apart.
    strict: bool,
}

type Pairs = Vec<(usize, usize)>;

struct Best {
    found: Option<(Quality, Pairs, Vec<usize>)>,
    candidates: usize,
    steps: usize,
}

impl Best {
    fn done(&self) -> bool {
        self.candidates >= CANDIDATES
            || self.steps >= STEPS
            || self.found.as_ref().is_some_and(|f| f.0.perfect())
    }
}

impl Pairer<'_> {
    fn allowed(&self, a: usize, b: usize) -> bool {
        a != b
            && !self.h[a].met.contains(&b)
            && !(self.strict && absolute_clash(self.prefs[a], self.prefs[b]))
    }

    /// Rank order: score, then pairing number.
    fn sort(&self, v: &mut [usize]) {
        v.sort_by_key(|&e| (Reverse(self.h[e].score), e));
    }

    fn pairable(&self, players: &[usize]) -> bool {
        pairable(players, |a, b| self.allowed(a, b))
    }

    /// Looks at one candidate: the pairs of a bracket and its floaters.
    fn consider(
        &self,
        pairs: &[(usize, usize)],
        floaters: Vec<usize>,
        rest: &[usize],
        best: &mut Best,
    ) {
        best.candidates += 1;
        if rest.is_empty() && !floaters.is_empty() {
            return;
        }
        let mut q = Quality::default();
        for &(a, b) in pairs {
            let (c, s) = clash(self.prefs[a], self.prefs[b]);
            q.clashes += c as u32;
            q.strong += s as u32;
        }
        q.floats_again = floaters.iter().filter(|&&e| self.h[e].floated).count() as u32;
        if best.found.as_ref().is_some_and(|f| f.0 <= q) {
            return;
        }
        let mut below: Vec<usize> = floaters.clone();
        below.extend_from_slice(rest);
        if !self.pairable(&below) {
            return;
        }
        let mut floaters = floaters;
        self.sort(&mut floaters);
        best.found = Some((q, pairs.to_vec(), floaters));
    }

    /// The Dutch order: the first `m` floaters from above each meet a
    /// resident (highest first), then `q` pairs of the residents left, S1's
    /// i-th against a transposition of S2.
    #[allow(clippy::too_many_arguments)]
    fn dutch(
        &self,
        movers: &[usize],
        free: &mut Vec<usize>,
        q: usize,
        pairs: &mut Pairs,
        left: &[usize],
        rest: &[usize],
        best: &mut Best,
    ) {
        if best.done() {
            return;
        }
        best.steps += 1;
        let Some((&m, more)) = movers.split_first() else {
            // Residents left: the top q form S1, the others S2.
            let s1: Vec<usize> = free[..q].to_vec();
            let mut s2: Vec<usize> = free[q..].to_vec();
            self.transpose(&s1, &mut s2, pairs, left, rest, best);
            return;
        };
        for i in 0..free.len() {
            let r = free[i];
            if !self.allowed(m, r) {
                continue;
            }
            free.remove(i);
            pairs.push((m, r));
            self.dutch(more, free, q, pairs, left, rest, best);
            pairs.pop();
            free.insert(i, r);
            if best.done() {
                return;
            }
        }
    }

    /// S1's i-th against the i-th of S2's transpositions, in order.
    fn transpose(
        &self,
        s1: &[usize],
        s2: &mut Vec<usize>,
        pairs: &mut Pairs,
        left: &[usize],
        rest: &[usize],
        best: &mut Best,
    ) {
        if best.done() {
            return;
        }
        best.steps += 1;
        let Some((&a, more)) = s1.split_first() else {
            let mut floaters = left.to_vec();
            floaters.extend_from_slice(s2);
            self.consider(pairs, floaters, rest, best);
            return;
        };
        for i in 0..s2.len() {
            let b = s2[i];
            if !self.allowed(a, b) {
                continue;
            }
            s2.remove(i);
            pairs.push((a, b));
            self.transpose(more, s2, pairs, left, rest, best);
            pairs.pop();
            s2.insert(i, b);
            if best.done() {
                return;
            }
        }
    }

    /// Every way of making `want` pairs of `list` in rank order: the first
    /// player meets the next it may, or floats.
    #[allow(clippy::too_many_arguments)]
    fn any(
        &self,
        list: &mut Vec<usize>,
        want: usize,
        pairs: &mut Pairs,
        floaters: &mut Vec<usize>,
        rest: &[usize],
        best: &mut Best,
    ) {
        if best.done() {
            return;
        }
        best.steps += 1;
        if pairs.len() == want {
            let mut f = floaters.clone();
            f.extend_from_slice(list);
            self.consider(pairs, f, rest, best);
            return;
        }
        if list.len() < 2 * (want - pairs.len()) {
            return;
        }
        let a = list.remove(0);
        for i in 0..list.len() {
            let b = list[i];
            if !self.allowed(a, b) {
                continue;
            }
            list.remove(i);
            pairs.push((a, b));
            self.any(list, want, pairs, floaters, rest, best);
            pairs.pop();
            list.insert(i, b);
            if best.done() {
                break;
            }
        }
        if !best.done() {
            floaters.push(a);
            self.any(list, want, pairs, floaters, rest, best);
            floaters.pop();
        }
        list.insert(0, a);
    }

    /// Pairs one bracket: `movers` floated down to it, `residents` have its
    /// score, `rest` are the players below. Its pairs, and who floats on.
    fn bracket(
        &self,
        movers: &[usize],
        residents: &[usize],
        rest: &[usize],
    ) -> (Pairs, Vec<usize>) {
        let size = movers.len() + residents.len();
        for total in (0..=size / 2).rev() {
            let mut best = Best {
                found: None,
                candidates: 0,
                steps: 0,
            };
            for m in (0..=movers.len().min(total)).rev() {
                let q = total - m;
                if residents.len() < m + 2 * q {
                    continue;
                }
                let mut free = residents.to_vec();
                let left = movers[m..].to_vec();
                self.dutch(
                    &movers[..m],
                    &mut free,
                    q,
                    &mut Vec::new(),
                    &left,
                    rest,
                    &mut best,
                );
                if best.done() {
                    break;
                }
            }
            if !best.found.as_ref().is_some_and(|f| f.0.perfect()) {
                let mut tries = Best {
                    found: best.found.clone(),
                    candidates: 0,
                    steps: 0,
                };
                let mut list: Vec<usize> = movers.iter().chain(residents).copied().collect();
                self.any(
                    &mut list,
                    total,
                    &mut Vec::new(),
                    &mut Vec::new(),
                    rest,
                    &mut tries,
                );
                best.found = tries.found;
            }
            if let Some((_, pairs, floaters)) = best.found {
                return (pairs, floaters);
            }
        }
        // The search was cut short at every size: any pairing of the
        // bracket that lets the rest be paired (one exists: the bye and the
        // brackets above were chosen so).
        let mut all: Vec<usize> = movers
            .iter()
            .chain(residents)
            .chain(rest)
            .copied()
            .collect();
        self.sort(&mut all);
        let mine = |e: &usize| movers.contains(e) || residents.contains(e);
        let pairs = perfect(&all, |a, b| self.allowed(a, b)).unwrap_or_default();
        let inside: Pairs = pairs
            .iter()
            .copied()
            .filter(|(a, b)| mine(a) && mine(b))
            .collect();
        let mut floaters: Vec<usize> = all
            .iter()
            .copied()
            .filter(|e| mine(e) && !inside.iter().any(|&(a, b)| a == *e || b == *e))
            .collect();
        self.sort(&mut floaters);
        (inside, floaters)
    }
}

/// Pairs the next round of a Swiss event of `n` entrants (index = pairing
/// number less one: the caller numbers them by rating, then by lot), where
/// `withdrawn` entrants are no longer paired and `rounds` are the rounds
/// played, all finished. The boards come from the top down; the bye, if the
/// count is odd; the withdrawn are listed as absent.
pub fn pair_round(n: usize, withdrawn: &[bool], rounds: &[Round]) -> Result<Round, PairingError> {
    if rounds.iter().any(|r| !r.finished()) {
        return Err(PairingError::RoundOpen);
    }
    let h = histories(n, rounds)?;
    let out = |e: usize| withdrawn.get(e).copied().unwrap_or(false);
    let mut active: Vec<usize> = (0..n).filter(|&e| !out(e)).collect();
    if active.len() < 2 {
        return Err(PairingError::TooFew);
    }
    let prefs: Vec<Option<Preference>> = h.iter().map(History::preference).collect();
    for strict in [true, false] {
        let p = Pairer {
            h: &h,
            prefs: prefs.clone(),
            strict,
        };
        p.sort(&mut active);
        let Some(bye) = choose_bye(&p, &active) else {
            continue;
        };
        let players: Vec<usize> = active.iter().copied().filter(|&e| Some(e) != bye).collect();
        let mut pairs = Pairs::new();
        let mut carried: Vec<usize> = Vec::new();
        let mut at = 0;
        while at < players.len() {
            let score = h[players[at]].score;
            let end = players[at..]
                .iter()
                .position(|&e| h[e].score != score)
                .map_or(players.len(), |k| at + k);
            let (made, floaters) = p.bracket(&carried, &players[at..end], &players[end..]);
            pairs.extend(made);
            carried = floaters;
            at = end;
        }
        if !carried.is_empty() {
            continue;
        }
        return Ok(boards(&p, pairs, bye, (0..n).filter(|&e| out(e)).collect()));
    }
    Err(PairingError::Impossible)
}

/// The bye, for an odd count: `Some(None)` for an even one, `None` when no
/// eligible player leaves the others pairable.
fn choose_bye(p: &Pairer, active: &[usize]) -> Option<Option<usize>> {
    if active.len().is_multiple_of(2) {
        return p.pairable(active).then_some(None);
    }
    let mut eligible: Vec<usize> = active
        .iter()
        .copied()
        .filter(|&e| !p.h[e].had_bye)
        .collect();
    eligible.sort_by_key(|&e| (p.h[e].score, p.h[e].unplayed, Reverse(e)));
    eligible.into_iter().find_map(|b| {
        let others: Vec<usize> = active.iter().copied().filter(|&e| e != b).collect();
        p.pairable(&others).then_some(Some(b))
    })
}

/// The pairs as boards with sides, from the top: by the higher score of the
/// pair, then the sum, then the rank of the higher-ranked player.
fn boards(p: &Pairer, pairs: Pairs, bye: Option<usize>, absent: Vec<usize>) -> Round {
    let h = p.h;
    let mut pairs: Vec<(usize, usize)> = pairs
        .into_iter()
        .map(|(a, b)| {
            if (Reverse(h[a].score), a) <= (Reverse(h[b].score), b) {
                (a, b)
            } else {
                (b, a)
            }
        })
        .collect();
    pairs.sort_by_key(|&(a, b)| (Reverse(h[a].score), Reverse(h[a].score + h[b].score), a));
    let boards = pairs
        .into_iter()
        .map(|(a, b)| {
            let side = allocate(&h[a].sides, &h[b].sides, a + 1);
            let (first, second) = if side == Side::First { (a, b) } else { (b, a) };
            Board {
                first,
                second,
                outcome: None,
            }
        })
        .collect();
    Round {
        boards,
        bye,
        absent,
    }
}
