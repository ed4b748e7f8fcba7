//! The web and the armies as data. The rule book's pictures of the board are
//! missing, so the web below is a proposal (ruling R1 in `rules/arachne.md`);
//! when the original board turns up, only [`WebLayout::STANDARD`] changes.

use crate::board::{Board, Cell};
use crate::seat::Seat;
use serde::{Deserialize, Serialize};

/// The five kinds of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Kind {
    Matron,
    Priestess,
    Wizard,
    Blademaster,
    Grunt,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::Matron,
        Kind::Priestess,
        Kind::Wizard,
        Kind::Blademaster,
        Kind::Grunt,
    ];

    /// The rank used for punishment and for the capture rolls.
    pub fn rank(self) -> u8 {
        match self {
            Kind::Matron => 5,
            Kind::Priestess => 4,
            Kind::Wizard => 3,
            Kind::Blademaster => 2,
            Kind::Grunt => 0,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Matron => "Matron",
            Kind::Priestess => "Priestess",
            Kind::Wizard => "Wizard",
            Kind::Blademaster => "Blademaster",
            Kind::Grunt => "Grunt",
        }
    }

    /// The letter of the notation (`=w` promotes to a Wizard) and of the badge.
    pub fn letter(self) -> char {
        match self {
            Kind::Matron => 'M',
            Kind::Priestess => 'P',
            Kind::Wizard => 'W',
            Kind::Blademaster => 'B',
            Kind::Grunt => 'G',
        }
    }

    /// The icon id the renderer knows.
    pub fn unit(self) -> &'static str {
        match self {
            Kind::Matron => "matron",
            Kind::Priestess => "priestess",
            Kind::Wizard => "arachne-wizard",
            Kind::Blademaster => "blademaster",
            Kind::Grunt => "grunt",
        }
    }

    pub fn from_letter(c: char) -> Option<Kind> {
        Kind::ALL
            .into_iter()
            .find(|k| k.letter() == c.to_ascii_uppercase())
    }

    /// A Grunt reaching the opposing start space of one of these may be promoted.
    pub fn marks_promotion(self) -> bool {
        matches!(self, Kind::Matron | Kind::Priestess | Kind::Wizard)
    }
}

/// A web and the starting army, as data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WebLayout {
    pub rings: u8,
    pub spokes: u8,
    pub hub: bool,
    /// White's setup zone: these spokes (0 = `a`) on these rings.
    pub zone_spokes: &'static [u8],
    pub zone_rings: &'static [u8],
    /// White's army by (kind, ring, spoke). Black's army and zone are White's
    /// turned half a revolution (spoke + spokes/2), so the armies face each
    /// other across the hub, each with the same hand (Matron facing Matron).
    pub army: &'static [(Kind, u8, u8)],
}

impl WebLayout {
    /// Ruling R1: 12 spokes, 5 rings and a hub (61 spaces). White holds spokes
    /// e-h on rings 3-5, Black spokes k, l, a, b; two empty spokes on each flank.
    pub const STANDARD: WebLayout = WebLayout {
        rings: 5,
        spokes: 12,
        hub: true,
        zone_spokes: &[4, 5, 6, 7],
        zone_rings: &[3, 4, 5],
        army: &[
            (Kind::Wizard, 5, 4),
            (Kind::Matron, 5, 5),
            (Kind::Priestess, 5, 6),
            (Kind::Wizard, 5, 7),
            (Kind::Grunt, 4, 4),
            (Kind::Blademaster, 4, 5),
            (Kind::Blademaster, 4, 6),
            (Kind::Grunt, 4, 7),
            (Kind::Grunt, 3, 4),
            (Kind::Grunt, 3, 5),
            (Kind::Grunt, 3, 6),
            (Kind::Grunt, 3, 7),
        ],
    };

    pub fn board(&self) -> Board {
        Board::web(self.rings, self.spokes, self.hub)
    }

    /// The setup built from this layout; an error names what is inconsistent.
    pub fn setup(&self) -> Result<Setup, String> {
        let board = self.board();
        if self.spokes & 1 != 0 || self.spokes < 4 {
            return Err("the web needs an even number of spokes, at least 4".into());
        }
        let turn = |seat: Seat, spoke: u8| {
            if seat.0 == 0 {
                spoke
            } else {
                (spoke + self.spokes / 2) % self.spokes
            }
        };
        let mut zones = Vec::new();
        let mut army = Vec::new();
        for seat in [Seat(0), Seat(1)] {
            for &r in self.zone_rings {
                for &s in self.zone_spokes {
                    let cell = board
                        .ring_spoke(r, turn(seat, s))
                        .ok_or_else(|| format!("zone space ring {r} spoke {s} is off the web"))?;
                    zones.push((cell, seat));
                }
            }
            for &(kind, r, s) in self.army {
                let cell = board
                    .ring_spoke(r, turn(seat, s))
                    .ok_or_else(|| format!("army space ring {r} spoke {s} is off the web"))?;
                army.push((cell, seat, kind));
            }
        }
        let mut seen: Vec<Cell> = zones.iter().map(|z| z.0).collect();
        seen.sort();
        seen.dedup();
        if seen.len() != zones.len() {
            return Err("the two setup zones overlap".into());
        }
        let mut placed: Vec<Cell> = army.iter().map(|a| a.0).collect();
        placed.sort();
        placed.dedup();
        if placed.len() != army.len() {
            return Err("two pieces start on one space".into());
        }
        if army.iter().any(|&(c, s, _)| !zones.contains(&(c, s))) {
            return Err("a piece starts outside its setup zone".into());
        }
        for seat in [Seat(0), Seat(1)] {
            let matrons = army
                .iter()
                .filter(|a| a.1 == seat && a.2 == Kind::Matron)
                .count();
            if matrons != 1 {
                return Err("each army needs exactly one Matron".into());
            }
        }
        Ok(Setup { board, zones, army })
    }
}

/// A layout unrolled into cells: what a game keeps of it, so that a stored game
/// keeps its own web even if the standard layout changes later.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    pub board: Board,
    pub zones: Vec<(Cell, Seat)>,
    pub army: Vec<(Cell, Seat, Kind)>,
}
