//! A position written as text, for tests, puzzles and bug reports.
//!
//! Eight rows from rank 8 down to rank 1, separated by `/`; in each row a
//! unit letter (upper case: seat 0, lower case: seat 1; see
//! [`Unit::letter`]) or a digit for that many empty squares, as in chess FEN.
//! Then, separated by spaces: whose turn (`0` or `1`), and optionally each
//! seat's graveyard as `g0:ISS` / `g1:ss` (letters, case ignored).
//!
//! `"3nq3/8/8/8/8/8/8/4B3 0 g1:ss"`: a Necromancer on d8, a Dark Priest on e8,
//! the Battle Mage on e1, the Human to move, two Skeletons in the Undead graveyard.

use super::army::Army;
use super::state::{Arcana, Piece, BOARD};
use super::unit::{Family, Unit};
use crate::board::Cell;
use crate::seat::Seat;

impl Arcana {
    /// Builds a position from its text (see the module notes). The armies are
    /// named after the units each side fields (Human unless it has only
    /// undead units); tomb gas is settled as at the end of a turn.
    pub fn from_text(text: &str) -> Result<Arcana, String> {
        let mut parts = text.split_whitespace();
        let rows: Vec<&str> = parts.next().ok_or("empty position")?.split('/').collect();
        if rows.len() != 8 {
            return Err(format!("expected 8 rows, found {}", rows.len()));
        }
        let mut g = Arcana::new([Army::human(), Army::undead()], Seat(0), true);
        g.board = vec![None; BOARD.len()];
        for (i, row) in rows.iter().enumerate() {
            let rank = 7 - i as i32;
            let mut file = 0i32;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as i32;
                    continue;
                }
                let unit =
                    Unit::from_letter(c).ok_or_else(|| format!("unknown unit letter '{c}'"))?;
                let seat = if c.is_ascii_uppercase() {
                    Seat(0)
                } else {
                    Seat(1)
                };
                let cell = BOARD
                    .at(file, rank)
                    .ok_or_else(|| format!("row {} is longer than 8 squares", 8 - i))?;
                g.board[cell.index()] = Some(Piece::new(unit, seat));
                file += 1;
            }
            if file != 8 {
                return Err(format!("row for rank {} has {file} squares", rank + 1));
            }
        }
        if let Some(t) = parts.next() {
            g.turn = match t {
                "0" => Seat(0),
                "1" => Seat(1),
                _ => return Err(format!("turn must be 0 or 1, not '{t}'")),
            };
        }
        let mut ua = [false; 2];
        for part in parts {
            let (who, letters) = part
                .split_once(':')
                .ok_or_else(|| format!("cannot read '{part}'"))?;
            if who == "ua" {
                for ch in letters.chars() {
                    match ch {
                        '0' => ua[0] = true,
                        '1' => ua[1] = true,
                        _ => return Err(format!("cannot read '{part}': ua:0, ua:1 or ua:01")),
                    }
                }
                continue;
            }
            let seat = match who {
                "g0" => 0,
                "g1" => 1,
                _ => return Err(format!("cannot read '{part}'")),
            };
            for c in letters.chars() {
                let unit =
                    Unit::from_letter(c).ok_or_else(|| format!("unknown unit letter '{c}'"))?;
                g.graves[seat].push(unit);
            }
        }
        for s in 0..2u8 {
            let human = g
                .pieces()
                .any(|(_, p)| p.owner == Seat(s) && p.unit.family() == Family::Human);
            let undead = g
                .pieces()
                .any(|(_, p)| p.owner == Seat(s) && p.unit.family() == Family::Undead);
            let army = if undead && !human {
                Army::undead()
            } else if human || s == 0 {
                Army::human()
            } else {
                Army::undead()
            };
            let alternates = g
                .pieces()
                .any(|(_, p)| p.owner == Seat(s) && Unit::ALTERNATES.contains(&p.unit));
            g.armies[s as usize] = if ua[s as usize] || alternates {
                Army::from_picks(&[])
            } else {
                army
            };
        }
        g.update_paralysis();
        Ok(g)
    }

    /// The position as text (the inverse of [`Arcana::from_text`], without
    /// statuses).
    pub fn to_text(&self) -> String {
        let mut rows = Vec::new();
        for rank in (0..8).rev() {
            let mut row = String::new();
            let mut gap = 0;
            for file in 0..8 {
                let c = BOARD.at(file, rank).expect("on board");
                match self.at(c) {
                    None => gap += 1,
                    Some(p) => {
                        if gap > 0 {
                            row.push_str(&gap.to_string());
                            gap = 0;
                        }
                        let l = p.unit.letter();
                        row.push(if p.owner.0 == 0 {
                            l
                        } else {
                            l.to_ascii_lowercase()
                        });
                    }
                }
            }
            if gap > 0 {
                row.push_str(&gap.to_string());
            }
            rows.push(row);
        }
        let mut out = format!("{} {}", rows.join("/"), self.turn.0);
        let ua: String = (0..2u8)
            .filter(|&s| self.ua(Seat(s)))
            .map(|s| char::from(b'0' + s))
            .collect();
        for s in 0..2 {
            if !self.graves[s].is_empty() {
                out.push_str(&format!(
                    " g{s}:{}",
                    self.graves[s]
                        .iter()
                        .map(|u| u.letter())
                        .collect::<String>()
                ));
            }
        }
        if !ua.is_empty() {
            out.push_str(&format!(" ua:{ua}"));
        }
        out
    }

    /// Test and puzzle helper: sets the firebrew tokens of the model on `cell`.
    pub fn set_tokens(&mut self, cell: Cell, tokens: u8) {
        if let Some(p) = self.at_mut(cell) {
            p.tokens = tokens;
        }
    }

    /// Test and puzzle helper: marks the Priest on `cell` as already revived once.
    pub fn set_revived(&mut self, cell: Cell) {
        if let Some(p) = self.at_mut(cell) {
            p.revived = true;
        }
    }

    /// Test and puzzle helper: turns the optional "Check" announcement on or off.
    pub fn set_check(&mut self, on: bool) {
        self.check = on;
    }

    /// Test helper: the edition of the rulings the position plays by (U12;
    /// clamped to the editions that exist).
    pub fn set_rulings(&mut self, edition: u8) {
        self.rulings = edition.clamp(1, super::state::RULINGS);
    }

    /// Test helper: counts of turns used by the draw rules (R17).
    pub fn set_counters(&mut self, turn_number: u32, quiet: u32) {
        self.turn_number = turn_number;
        self.quiet = quiet;
    }
}
