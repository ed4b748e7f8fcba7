//! The computer opponent's estimate of an Arachne position
//! (`Game::heuristic`): who is likely to capture the other's Matron.
//!
//! The Matron is the game, so the estimate is built around her: the chance
//! that the side to move captures the opposing Matron with its next action,
//! the danger to its own Matron on the turn after, and otherwise the material
//! that decides the long fights, counting the capture the side to move can
//! make now (a piece left where it can be taken is as good as lost, by the
//! odds of the dice). The Matron threats read the web directly; the capture
//! now lists the mover's actions once.

use super::{other, Action, Arachne, CaptureRules, Kind};
use crate::board::Cell;
use crate::seat::{Outcome, Seat};

/// Material by rank (the capture dice add the rank, so a Priestess both
/// captures and survives best); a Grunt still counts, for the defence bonus
/// and promotions.
fn worth(kind: Kind) -> f64 {
    match kind {
        Kind::Matron => 0.0,
        Kind::Priestess => 4.0,
        Kind::Wizard => 3.0,
        Kind::Blademaster => 2.0,
        Kind::Grunt => 1.0,
    }
}

/// What a Grunt connected to its own Matron adds to its side's material: it
/// adds 1 to her defence roll in the dice variants and blocks a line to her.
const GUARD: f64 = 0.3;

/// How much of the threat to the mover's Matron still counts: the mover acts
/// first and can often step away or block, but not always.
const UNANSWERED: f64 = 0.5;

/// The chance that `die + attack >= die + defence` with two dice of `sides`
/// faces (ruling R12: the attacker wins ties).
pub(crate) fn capture_chance(sides: u8, attack: u8, defence: u8) -> f64 {
    let n = sides as i32;
    let need = defence as i32 - attack as i32;
    let mut wins = 0;
    for a in 1..=n {
        for d in 1..=n {
            if a - d >= need {
                wins += 1;
            }
        }
    }
    wins as f64 / (n * n) as f64
}

impl Arachne {
    /// `Game::heuristic`: the side to move first tries to capture the opposing
    /// Matron (chance `p`); failing that, its material share after its best
    /// capture now (by expected gain), cut by the part of the threat to its
    /// own Matron it may not answer.
    pub(crate) fn estimate(&self, seat: Seat) -> f32 {
        match &self.outcome {
            Outcome::Won { winners, .. } => return if winners.contains(&seat) { 1.0 } else { 0.0 },
            Outcome::Drawn { .. } => return 0.5,
            Outcome::Ongoing => {}
        }
        let mover = self.to_move;
        let p = self.matron_threat(mover, self.pending.map(|p| p.cell));
        let q = self.matron_threat(other(mover), None);
        let m = self.material_share(mover, self.best_capture());
        let h = p + (1.0 - p) * (1.0 - UNANSWERED * q) * m;
        let h = h.clamp(0.0, 1.0) as f32;
        if seat == mover {
            h
        } else {
            1.0 - h
        }
    }

    /// Each side's material by rank plus its Matron's guards, sharpened by
    /// cubes as the shared default is, so that a piece up reads clearly;
    /// `gain` is taken off the other side (an expected capture).
    fn material_share(&self, seat: Seat, gain: f64) -> f64 {
        let mut sum = [0.0f64; 2];
        for (i, sq) in self.squares.iter().enumerate() {
            let Some(p) = sq else { continue };
            sum[p.seat.index() % 2] += worth(p.kind);
            if p.kind == Kind::Matron {
                sum[p.seat.index() % 2] += GUARD * self.guards(Cell(i as u16), p.seat) as f64;
            }
        }
        let theirs = &mut sum[1 - seat.index() % 2];
        *theirs = (*theirs - gain).max(0.0);
        let (a, b) = (
            sum[seat.index() % 2].powf(3.0),
            sum[1 - seat.index() % 2].powf(3.0),
        );
        if a + b <= 0.0 {
            0.5
        } else {
            a / (a + b)
        }
    }

    /// The best expected gain in material of one capture the side to move
    /// can make now: the capture chance of the dice (R12, the defender's Grunts
    /// included) times the victim's worth; during a Blademaster's second
    /// move, only his. Her Matron is left to [`Self::matron_threat`];
    /// punishments and turncoats take nothing from the other side.
    fn best_capture(&self) -> f64 {
        let mover = self.to_move;
        let mut best = 0.0f64;
        for action in self.actions() {
            let (from, target) = match action {
                Action::Move {
                    turncoat: false,
                    from,
                    capture: Some(target),
                    ..
                }
                | Action::Jump {
                    turncoat: false,
                    from,
                    capture: Some(target),
                    ..
                }
                | Action::Strike {
                    turncoat: false,
                    from,
                    target,
                    ..
                } => (from, target),
                // A Blademaster's second move, unless he is a turncoat.
                Action::Again {
                    from,
                    capture: Some(target),
                    ..
                } if !self.pending.is_some_and(|p| p.turncoat) => (from, target),
                _ => continue,
            };
            let (Some(attacker), Some(victim)) =
                (self.squares[from.index()], self.squares[target.index()])
            else {
                continue;
            };
            if victim.seat == mover || victim.kind == Kind::Matron {
                continue;
            }
            let chance = match self.rules {
                CaptureRules::Strategist => 1.0,
                rules => capture_chance(
                    rules.sides(),
                    attacker.kind.rank(),
                    victim.kind.rank() + self.guards(target, victim.seat),
                ),
            };
            best = best.max(chance * worth(victim.kind));
        }
        best
    }

    /// Grunts of `seat` connected to `cell` (the defence bonus of R12).
    fn guards(&self, cell: Cell, seat: Seat) -> u8 {
        self.geo().neighbours[cell.index()]
            .iter()
            .filter(|&&c| matches!(self.squares[c.index()], Some(p) if p.seat == seat && p.kind == Kind::Grunt))
            .count() as u8
    }

    /// The best chance `attacker` has of capturing the opposing Matron with
    /// one action of its own if it were to move now (turncoats aside: they
    /// never capture her). `only`: a Blademaster's pending second move, the
    /// one piece that may still act.
    pub(crate) fn matron_threat(&self, attacker: Seat, only: Option<Cell>) -> f64 {
        let victim = other(attacker);
        let Some(m) = self
            .squares
            .iter()
            .position(|sq| matches!(sq, Some(p) if p.seat == victim && p.kind == Kind::Matron))
            .map(|i| Cell(i as u16))
        else {
            return 1.0;
        };
        let defence = Kind::Matron.rank() + self.guards(m, victim);
        let chance = |kind: Kind| match self.rules {
            CaptureRules::Strategist => 1.0,
            rules => capture_chance(rules.sides(), kind.rank(), defence),
        };
        let geo = self.geo();
        let board = self.setup.board;
        let mut best = 0.0f64;
        let mut take = |kind: Kind| best = best.max(chance(kind));

        // Lines to her: a piece moving toward her ends on the space next to her
        // (which must be empty) and captures her, straight ahead. `stands`: the
        // empty spaces at line distance 2 or 3 with an empty way, where a
        // Blademaster's first move may end before his second move captures.
        let mut stands: Vec<Cell> = Vec::new();
        for &d in &geo.dirs[m.index()] {
            let (mut cur, mut dir) = (m, d);
            let mut dist = 0;
            let mut crossed_own = false;
            while let Some((c, nd)) = board.step(cur, dir) {
                if c == m {
                    break;
                }
                dist += 1;
                match self.squares[c.index()] {
                    None => {
                        if (2..=3).contains(&dist) && !crossed_own {
                            stands.push(c);
                        }
                    }
                    Some(p) if p.seat == attacker && dist >= 2 => {
                        let reaches = match p.kind {
                            Kind::Priestess => !crossed_own,
                            Kind::Blademaster => dist <= 3 && !crossed_own,
                            Kind::Matron => dist <= 3,
                            _ => false,
                        };
                        if reaches && only.is_none_or(|o| o == c) {
                            take(p.kind);
                        }
                        // Only the Matron passes over her own pieces.
                        if dist == 2 && !crossed_own && p.kind != Kind::Matron {
                            crossed_own = true;
                        } else {
                            break;
                        }
                    }
                    Some(_) => break,
                }
                if crossed_own && dist >= 3 {
                    break;
                }
                cur = c;
                dir = nd;
            }
        }
        if only.is_some() {
            return best;
        }
        // Any piece connected to her may capture her without moving (R10).
        for &n in &geo.neighbours[m.index()] {
            if let Some(p) = self.squares[n.index()] {
                if p.seat == attacker {
                    take(p.kind);
                }
            }
        }
        let open: Vec<Cell> = geo.neighbours[m.index()]
            .iter()
            .copied()
            .filter(|c| self.squares[c.index()].is_none())
            .collect();
        for (i, sq) in self.squares.iter().enumerate() {
            let Some(p) = sq else { continue };
            if p.seat != attacker {
                continue;
            }
            let from = Cell(i as u16);
            let reaches = match p.kind {
                // One step onto a space next to her, or three strands ending
                // there (ruling R6), then the capture around him.
                Kind::Wizard => geo.neighbours[from.index()].iter().any(|&a| {
                    open.contains(&a)
                        || geo.neighbours[a.index()].iter().any(|&b| {
                            b != from
                                && geo.neighbours[b.index()]
                                    .iter()
                                    .any(|&e| e != from && e != a && open.contains(&e))
                        })
                }),
                // A first move of up to two empty spaces onto a stand.
                Kind::Blademaster => geo.dirs[from.index()].iter().any(|&d| {
                    let (mut cur, mut dir) = (from, d);
                    for _ in 0..2 {
                        match board.step(cur, dir) {
                            Some((c, nd)) if c != from && self.squares[c.index()].is_none() => {
                                if stands.contains(&c) {
                                    return true;
                                }
                                cur = c;
                                dir = nd;
                            }
                            _ => break,
                        }
                    }
                    false
                }),
                _ => false,
            };
            if reaches {
                take(p.kind);
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arachne::{BLACK, WHITE};
    use crate::game::Game;
    use Kind::*;

    /// Black's chance to capture White's Matron on f5, Black's on a5.
    fn threat(rules: CaptureRules, pieces: &[(&str, Seat, Kind)]) -> f64 {
        let mut all = vec![("a5", BLACK, Matron)];
        all.extend_from_slice(pieces);
        threat_on_f5(rules, &all)
    }

    fn threat_on_f5(rules: CaptureRules, pieces: &[(&str, Seat, Kind)]) -> f64 {
        let mut all = vec![("f5", WHITE, Matron)];
        all.extend_from_slice(pieces);
        let g = Arachne::position(rules, BLACK, &all, 1).unwrap();
        g.matron_threat(BLACK, None)
    }

    #[test]
    fn capture_chances_follow_the_dice() {
        assert_eq!(capture_chance(8, 5, 5), 36.0 / 64.0);
        assert_eq!(capture_chance(8, 4, 5), 28.0 / 64.0);
        assert_eq!(capture_chance(8, 0, 5), 6.0 / 64.0);
        assert_eq!(capture_chance(6, 0, 6), 0.0);
        assert_eq!(capture_chance(6, 6, 0), 1.0);
    }

    #[test]
    fn lines_reach_her_only_when_open() {
        let s = CaptureRules::Strategist;
        assert_eq!(threat(s, &[("f1", BLACK, Priestess)]), 1.0);
        assert_eq!(
            threat(s, &[("f1", BLACK, Priestess), ("f3", WHITE, Grunt)]),
            0.0
        );
        assert_eq!(
            threat(s, &[("f1", BLACK, Priestess), ("f3", BLACK, Grunt)]),
            0.0
        );
        // A Blademaster reaches two spaces and captures the third, or gets
        // onto such a line with his first move.
        assert_eq!(threat(s, &[("f2", BLACK, Blademaster)]), 1.0);
        assert_eq!(threat(s, &[("j1", BLACK, Blademaster)]), 0.0);
        assert_eq!(threat(s, &[("f1", BLACK, Blademaster)]), 1.0);
        assert_eq!(threat(s, &[("d3", BLACK, Blademaster)]), 1.0);
        // The Matron passes over her own pieces, not over others.
        assert_eq!(
            threat_on_f5(s, &[("f2", BLACK, Matron), ("f3", BLACK, Grunt)]),
            1.0
        );
        assert_eq!(
            threat_on_f5(s, &[("f2", BLACK, Matron), ("f3", WHITE, Grunt)]),
            0.0
        );
        assert_eq!(threat_on_f5(s, &[("f1", BLACK, Matron)]), 0.0);
        assert_eq!(threat(s, &[("b5", BLACK, Grunt)]), 0.0);
        // A Wizard steps next to her, or ends a three-space move there.
        assert_eq!(threat(s, &[("f3", BLACK, Wizard)]), 1.0);
        assert_eq!(threat(s, &[("c4", BLACK, Wizard)]), 1.0);
        assert_eq!(threat(s, &[("b3", BLACK, Wizard)]), 0.0);
        // Anything connected to her captures without moving.
        assert_eq!(threat(s, &[("g5", BLACK, Grunt)]), 1.0);
    }

    /// The capture the mover can make now counts by its odds: a White
    /// Priestess next to a Black Wizard in line (c5, c4) takes him with
    /// 4+d8 against 3+d8 (or always, in the strategist); a Black Grunt beside
    /// him lowers the odds (R12); nothing counts where she cannot reach him,
    /// nor when her target is her own piece (a punishment takes nothing from
    /// Black) or the Matron (left to the Matron threat).
    #[test]
    fn the_capture_now_counts_by_its_odds() {
        let gain = |rules: CaptureRules, pieces: &[(&str, Seat, Kind)]| {
            let mut all = vec![("f5", WHITE, Matron), ("i1", BLACK, Matron)];
            all.extend_from_slice(pieces);
            let g = Arachne::position(rules, WHITE, &all, 1).unwrap();
            g.best_capture()
        };
        let (o, s) = (CaptureRules::Original, CaptureRules::Strategist);
        let wizard = [("c5", WHITE, Priestess), ("c4", BLACK, Wizard)];
        assert_eq!(gain(s, &wizard), 3.0);
        assert_eq!(gain(o, &wizard), 3.0 * capture_chance(8, 4, 3));
        let guarded = [
            ("c5", WHITE, Priestess),
            ("c4", BLACK, Wizard),
            ("d4", BLACK, Grunt),
        ];
        assert_eq!(gain(o, &guarded), 3.0 * capture_chance(8, 4, 4));
        assert_eq!(
            gain(
                s,
                &[
                    ("c5", WHITE, Priestess),
                    ("c3", WHITE, Grunt),
                    ("c1", BLACK, Wizard)
                ]
            ),
            0.0
        );
        assert_eq!(
            gain(s, &[("c5", WHITE, Priestess), ("c4", WHITE, Wizard)]),
            0.0
        );
        assert_eq!(gain(s, &[("i3", WHITE, Priestess)]), 0.0);
        // During a Blademaster's second move only his captures count.
        let mut g = Arachne::position(
            s,
            WHITE,
            &[
                ("f5", WHITE, Matron),
                ("i1", BLACK, Matron),
                ("c5", WHITE, Priestess),
                ("c4", BLACK, Wizard),
                ("e3", WHITE, Blademaster),
                ("hub", BLACK, Grunt),
            ],
            1,
        )
        .unwrap();
        assert_eq!(g.best_capture(), 3.0);
        let first = g.parse(WHITE, "e3-e2").unwrap();
        g.play(WHITE, &first).unwrap();
        assert!(g.pending.is_some());
        assert_eq!(g.best_capture(), 1.0);
        // The same material scores better for the side that can take now
        // (the Matrons on i5 and f1 out of every reach).
        let h = |pieces: &[(&str, Seat, Kind)]| {
            let mut all = vec![("i5", WHITE, Matron), ("f1", BLACK, Matron)];
            all.extend_from_slice(pieces);
            Arachne::position(o, WHITE, &all, 1)
                .unwrap()
                .estimate(WHITE)
        };
        let (near, far) = (
            h(&wizard),
            h(&[("c5", WHITE, Priestess), ("j3", BLACK, Wizard)]),
        );
        assert!(near > far + 0.05, "{near} against {far}");
    }

    #[test]
    fn her_grunts_and_the_dice_lower_the_chance() {
        let o = CaptureRules::Original;
        let bare = threat(o, &[("f1", BLACK, Priestess)]);
        assert_eq!(bare, 28.0 / 64.0);
        let guarded = threat(o, &[("f1", BLACK, Priestess), ("e5", WHITE, Grunt)]);
        assert_eq!(guarded, 21.0 / 64.0);
    }
}
