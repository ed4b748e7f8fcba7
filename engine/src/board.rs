//! Board geometry shared by every game: a set of cells with names, neighbours,
//! directions and drawing positions.
//!
//! Two shapes exist: a rectangular grid of any size (Arcana and Magic Chess on
//! 8x8, Gladiator on 10x12) and a spider web of rings and spokes with an optional
//! hub (Arachne). Games talk to cells as opaque [`Cell`] ids and walk the board
//! with [`Board::step`], so rules written against directions work on both shapes.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One cell of a board: an index into the board's cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Cell(pub u16);

impl Cell {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A direction of travel. Its meaning depends on the board's shape:
///
/// * on a grid, `Dir(0..8)` are N, NE, E, SE, S, SW, W, NW, "north" being toward
///   higher rank numbers (away from the side that sits at rank 1);
/// * on a web, [`Dir::CW`] and [`Dir::CCW`] run along a ring (wrapping around),
///   [`Dir::IN`] runs along a spoke toward the centre, and `Dir::out(s)` runs
///   outward along spoke `s` (the spoke is part of the direction so that a line
///   leaving the hub is well defined).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Dir(pub u8);

impl Dir {
    pub const N: Dir = Dir(0);
    pub const NE: Dir = Dir(1);
    pub const E: Dir = Dir(2);
    pub const SE: Dir = Dir(3);
    pub const S: Dir = Dir(4);
    pub const SW: Dir = Dir(5);
    pub const W: Dir = Dir(6);
    pub const NW: Dir = Dir(7);
    /// The four orthogonal grid directions.
    pub const ORTHOGONAL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];
    /// The four diagonal grid directions.
    pub const DIAGONAL: [Dir; 4] = [Dir::NE, Dir::SE, Dir::SW, Dir::NW];
    /// All eight grid directions.
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::NE,
        Dir::E,
        Dir::SE,
        Dir::S,
        Dir::SW,
        Dir::W,
        Dir::NW,
    ];

    /// Web: clockwise along a ring.
    pub const CW: Dir = Dir(0);
    /// Web: counter-clockwise along a ring.
    pub const CCW: Dir = Dir(1);
    /// Web: inward along a spoke.
    pub const IN: Dir = Dir(2);
    /// Web: outward along spoke `s`.
    pub const fn out(spoke: u8) -> Dir {
        Dir(3 + spoke)
    }

    /// Grid: the (file, rank) offsets of [`Dir::ORTHOGONAL`], in its order, for the
    /// games' move generators, which step by offsets.
    pub const ORTHOGONAL_STEPS: [(i32, i32); 4] = Dir::steps(Dir::ORTHOGONAL);
    /// Grid: the (file, rank) offsets of [`Dir::DIAGONAL`], in its order.
    pub const DIAGONAL_STEPS: [(i32, i32); 4] = Dir::steps(Dir::DIAGONAL);
    /// Grid: the (file, rank) offsets of [`Dir::ALL`], in its order (a King's steps).
    pub const ALL_STEPS: [(i32, i32); 8] = Dir::steps(Dir::ALL);

    const fn steps<const N: usize>(dirs: [Dir; N]) -> [(i32, i32); N] {
        let mut out = [(0, 0); N];
        let mut i = 0;
        while i < N {
            out[i] = dirs[i].grid_delta();
            i += 1;
        }
        out
    }

    /// Grid: the (file, rank) offset of one step.
    pub const fn grid_delta(self) -> (i32, i32) {
        match self.0 {
            0 => (0, 1),
            1 => (1, 1),
            2 => (1, 0),
            3 => (1, -1),
            4 => (0, -1),
            5 => (-1, -1),
            6 => (-1, 0),
            _ => (-1, 1),
        }
    }

    /// Grid: the opposite direction.
    pub fn grid_opposite(self) -> Dir {
        Dir((self.0 + 4) % 8)
    }

    /// Grid: a direction is diagonal.
    pub fn is_diagonal(self) -> bool {
        self.0 % 2 == 1
    }
}

/// Grid: the eight L-shaped (file, rank) jumps of a chess knight, clockwise from
/// (1, 2). Not a [`Dir`]: a jump has no square in between.
pub const KNIGHT_JUMPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// The shape of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Shape {
    /// `files` columns named a, b, c... and `ranks` rows numbered from 1.
    Grid { files: u8, ranks: u8 },
    /// `rings` concentric rings numbered 1 (innermost) outward, `spokes` spokes
    /// lettered a, b, c... clockwise, and optionally a hub cell at the centre.
    Web { rings: u8, spokes: u8, hub: bool },
}

/// A board: its shape, and everything derived from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    shape: Shape,
}

/// The name players type for the hub of a web.
pub const HUB_NAME: &str = "hub";

impl Board {
    pub const fn grid(files: u8, ranks: u8) -> Board {
        Board {
            shape: Shape::Grid { files, ranks },
        }
    }

    pub const fn web(rings: u8, spokes: u8, hub: bool) -> Board {
        Board {
            shape: Shape::Web { rings, spokes, hub },
        }
    }

    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// How many cells the board has; cells are `Cell(0)..Cell(len)`.
    pub fn len(&self) -> usize {
        match self.shape {
            Shape::Grid { files, ranks } => files as usize * ranks as usize,
            Shape::Web { rings, spokes, hub } => rings as usize * spokes as usize + hub as usize,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn cells(&self) -> impl Iterator<Item = Cell> {
        (0..self.len() as u16).map(Cell)
    }

    // ---- grids ----

    /// Grid: the cell at zero-based (file, rank), if on the board.
    pub fn at(&self, file: i32, rank: i32) -> Option<Cell> {
        match self.shape {
            Shape::Grid { files, ranks } => {
                if file < 0 || rank < 0 || file >= files as i32 || rank >= ranks as i32 {
                    None
                } else {
                    Some(Cell((rank * files as i32 + file) as u16))
                }
            }
            Shape::Web { .. } => None,
        }
    }

    /// Grid: zero-based (file, rank) of a cell.
    pub fn coords(&self, cell: Cell) -> (i32, i32) {
        match self.shape {
            Shape::Grid { files, .. } => {
                let f = files as i32;
                (cell.0 as i32 % f, cell.0 as i32 / f)
            }
            Shape::Web { .. } => panic!("coords() is for grids"),
        }
    }

    /// Grid: the cell `df` files and `dr` ranks away, if on the board.
    pub fn offset(&self, cell: Cell, df: i32, dr: i32) -> Option<Cell> {
        let (f, r) = self.coords(cell);
        self.at(f + df, r + dr)
    }

    /// Chebyshev distance on a grid (king moves).
    pub fn king_distance(&self, a: Cell, b: Cell) -> i32 {
        let (af, ar) = self.coords(a);
        let (bf, br) = self.coords(b);
        (af - bf).abs().max((ar - br).abs())
    }

    // ---- webs ----

    /// Web: the hub cell, if the web has one (it is the last cell).
    pub fn hub(&self) -> Option<Cell> {
        match self.shape {
            Shape::Web {
                rings,
                spokes,
                hub: true,
            } => Some(Cell(rings as u16 * spokes as u16)),
            _ => None,
        }
    }

    /// Web: the cell on `ring` (1-based, 1 innermost) and `spoke` (0-based).
    pub fn ring_spoke(&self, ring: u8, spoke: u8) -> Option<Cell> {
        match self.shape {
            Shape::Web { rings, spokes, .. } if ring >= 1 && ring <= rings && spoke < spokes => {
                Some(Cell((ring as u16 - 1) * spokes as u16 + spoke as u16))
            }
            _ => None,
        }
    }

    /// Web: (ring, spoke) of a cell, or `None` for the hub.
    pub fn web_coords(&self, cell: Cell) -> Option<(u8, u8)> {
        match self.shape {
            Shape::Web { rings, spokes, .. } => {
                if cell.0 >= rings as u16 * spokes as u16 {
                    None
                } else {
                    Some((
                        (cell.0 / spokes as u16) as u8 + 1,
                        (cell.0 % spokes as u16) as u8,
                    ))
                }
            }
            Shape::Grid { .. } => panic!("web_coords() is for webs"),
        }
    }

    // ---- both ----

    /// The directions one may leave `cell` in (some may lead off the board).
    pub fn directions(&self, cell: Cell) -> Vec<Dir> {
        match self.shape {
            Shape::Grid { .. } => Dir::ALL.to_vec(),
            Shape::Web { spokes, .. } => match self.web_coords(cell) {
                None => (0..spokes).map(Dir::out).collect(),
                Some((_, s)) => vec![Dir::CW, Dir::CCW, Dir::IN, Dir::out(s)],
            },
        }
    }

    /// One step from `cell` in `dir`: the cell reached and the direction in which
    /// a straight line continues from there (it changes only when a line crosses
    /// the centre of a web). `None` when the step leaves the board.
    pub fn step(&self, cell: Cell, dir: Dir) -> Option<(Cell, Dir)> {
        match self.shape {
            Shape::Grid { .. } => {
                let (df, dr) = dir.grid_delta();
                self.offset(cell, df, dr).map(|c| (c, dir))
            }
            Shape::Web { rings, spokes, hub } => {
                let opposite = |s: u8| (s + spokes / 2) % spokes;
                match self.web_coords(cell) {
                    None => match dir.0.checked_sub(3) {
                        Some(s) if s < spokes => Some((self.ring_spoke(1, s)?, dir)),
                        _ => None,
                    },
                    Some((ring, s)) => match dir {
                        Dir::CW => Some((self.ring_spoke(ring, (s + 1) % spokes)?, dir)),
                        Dir::CCW => Some((self.ring_spoke(ring, (s + spokes - 1) % spokes)?, dir)),
                        Dir::IN if ring > 1 => Some((self.ring_spoke(ring - 1, s)?, dir)),
                        Dir::IN if hub => Some((self.hub()?, Dir::out(opposite(s)))),
                        Dir::IN => {
                            let o = opposite(s);
                            Some((self.ring_spoke(1, o)?, Dir::out(o)))
                        }
                        d if d == Dir::out(s) && ring < rings => {
                            Some((self.ring_spoke(ring + 1, s)?, dir))
                        }
                        _ => None,
                    },
                }
            }
        }
    }

    /// The cells one step away in any direction (a grid's eight surrounding
    /// squares; a web's strand neighbours).
    pub fn neighbours(&self, cell: Cell) -> Vec<Cell> {
        let mut out: Vec<Cell> = self
            .directions(cell)
            .into_iter()
            .filter_map(|d| self.step(cell, d).map(|(c, _)| c))
            .collect();
        out.sort();
        out.dedup();
        out.retain(|&c| c != cell);
        out
    }

    /// Cells along a straight line from `cell` (not including it), until the edge.
    pub fn ray(&self, cell: Cell, dir: Dir) -> Ray<'_> {
        Ray {
            board: self,
            at: cell,
            dir,
            start: cell,
        }
    }

    /// The name players type for a cell: `e4`, `j12`; on a web the spoke letter
    /// and ring number (`c3`), or `hub`.
    pub fn name(&self, cell: Cell) -> String {
        match self.shape {
            Shape::Grid { .. } => {
                let (f, r) = self.coords(cell);
                format!("{}{}", (b'a' + f as u8) as char, r + 1)
            }
            Shape::Web { .. } => match self.web_coords(cell) {
                None => HUB_NAME.to_string(),
                Some((ring, s)) => format!("{}{}", (b'a' + s) as char, ring),
            },
        }
    }

    /// The cells an action's notation names, in order: each letter directly followed by one or
    /// two digits that names a cell of this board (`e2` and `e3` in `e2xe3`), then the hub of a
    /// web if the word `hub` stands in it. Pictures and lists use it to find the squares an
    /// action is about without reading each game's notation.
    pub fn cells_named(&self, notation: &str) -> Vec<Cell> {
        let t = notation.to_ascii_lowercase();
        let b = t.as_bytes();
        let mut out = Vec::new();
        for i in 0..b.len() {
            if !b[i].is_ascii_lowercase() {
                continue;
            }
            let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if (1..=2).contains(&digits) {
                if let Some(c) = self.parse(&t[i..i + 1 + digits]) {
                    out.push(c);
                }
            }
        }
        if t.split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| w == HUB_NAME)
        {
            out.extend(self.hub());
        }
        out
    }

    /// Parses a cell name as [`Board::name`] prints it (case-insensitive).
    pub fn parse(&self, text: &str) -> Option<Cell> {
        let t = text.trim().to_ascii_lowercase();
        if t == HUB_NAME {
            return self.hub();
        }
        let mut chars = t.chars();
        let letter = chars.next()?;
        if !letter.is_ascii_lowercase() {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) || digits.len() > 2 {
            return None;
        }
        if digits.starts_with('0') {
            return None;
        }
        let n: i32 = digits.parse().ok()?;
        let col = (letter as u8 - b'a') as i32;
        match self.shape {
            Shape::Grid { .. } => self.at(col, n - 1),
            Shape::Web { .. } => {
                if n > u8::MAX as i32 {
                    return None;
                }
                self.ring_spoke(n as u8, col as u8)
            }
        }
    }

    /// Where to draw a cell, as fractions of the picture, x to the right and y
    /// downward, before any rotation for the viewer. Grids put rank 1 at the
    /// bottom; webs put spoke `a` straight up from the centre and run clockwise.
    pub fn position(&self, cell: Cell) -> (f32, f32) {
        match self.shape {
            Shape::Grid { files, ranks } => {
                let (f, r) = self.coords(cell);
                (
                    (f as f32 + 0.5) / files as f32,
                    1.0 - (r as f32 + 0.5) / ranks as f32,
                )
            }
            Shape::Web { rings, spokes, hub } => match self.web_coords(cell) {
                None => (0.5, 0.5),
                Some((ring, s)) => {
                    let radius = self.ring_radius(ring, rings, hub);
                    let angle = std::f32::consts::TAU * s as f32 / spokes as f32;
                    (0.5 + radius * angle.sin(), 0.5 - radius * angle.cos())
                }
            },
        }
    }

    /// Web: a ring's radius as a fraction of the picture (the outer ring just
    /// inside the edge).
    pub fn ring_radius(&self, ring: u8, rings: u8, hub: bool) -> f32 {
        let inner = if hub { 1.0 } else { 0.6 };
        0.46 * (ring as f32 - 1.0 + inner) / (rings as f32 - 1.0 + inner)
    }
}

/// Iterator returned by [`Board::ray`].
pub struct Ray<'a> {
    board: &'a Board,
    at: Cell,
    dir: Dir,
    start: Cell,
}

impl Iterator for Ray<'_> {
    type Item = Cell;
    fn next(&mut self) -> Option<Cell> {
        let (c, d) = self.board.step(self.at, self.dir)?;
        if c == self.start {
            return None; // a ring wraps around: stop before repeating
        }
        self.at = c;
        self.dir = d;
        Some(c)
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Grid { files, ranks } => write!(f, "{files}x{ranks} grid"),
            Shape::Web { rings, spokes, hub } => write!(
                f,
                "web of {rings} rings and {spokes} spokes{}",
                if *hub { " with a hub" } else { "" }
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The games list their moves in the order of these tables, and that order reaches
    /// players (`/moves`) and the computer player's seeded choices: it stays as the
    /// move generators were first written with their own copies.
    #[test]
    fn step_tables_keep_their_order() {
        assert_eq!(Dir::ORTHOGONAL_STEPS, [(0, 1), (1, 0), (0, -1), (-1, 0)]);
        assert_eq!(Dir::DIAGONAL_STEPS, [(1, 1), (1, -1), (-1, -1), (-1, 1)]);
        assert_eq!(
            Dir::ALL_STEPS,
            [
                (0, 1),
                (1, 1),
                (1, 0),
                (1, -1),
                (0, -1),
                (-1, -1),
                (-1, 0),
                (-1, 1)
            ]
        );
        assert_eq!(
            KNIGHT_JUMPS,
            [
                (1, 2),
                (2, 1),
                (2, -1),
                (1, -2),
                (-1, -2),
                (-2, -1),
                (-2, 1),
                (-1, 2)
            ]
        );
    }

    #[test]
    fn grid_names_round_trip() {
        for b in [Board::grid(8, 8), Board::grid(10, 12)] {
            for c in b.cells() {
                assert_eq!(b.parse(&b.name(c)), Some(c));
            }
        }
        let g = Board::grid(10, 12);
        assert_eq!(g.name(g.at(9, 11).unwrap()), "j12");
        assert_eq!(g.parse("E4"), g.at(4, 3));
        assert_eq!(g.parse("k1"), None);
        assert_eq!(g.parse("a13"), None);
        assert_eq!(g.parse("a0"), None);
        assert_eq!(g.parse("a01"), None);
        assert_eq!(g.parse(""), None);
    }

    #[test]
    fn web_names_round_trip() {
        let w = Board::web(5, 12, true);
        assert_eq!(w.len(), 61);
        for c in w.cells() {
            assert_eq!(w.parse(&w.name(c)), Some(c));
        }
        assert_eq!(w.name(w.hub().unwrap()), "hub");
        assert_eq!(w.parse("l5"), w.ring_spoke(5, 11));
        assert_eq!(w.parse("m1"), None);
        assert_eq!(w.parse("a6"), None);
    }

    #[test]
    fn grid_steps_and_rays() {
        let b = Board::grid(8, 8);
        let a1 = b.parse("a1").unwrap();
        assert_eq!(b.step(a1, Dir::S), None);
        assert_eq!(b.step(a1, Dir::NE).map(|x| b.name(x.0)), Some("b2".into()));
        let ray: Vec<String> = b.ray(a1, Dir::N).map(|c| b.name(c)).collect();
        assert_eq!(ray.len(), 7);
        assert_eq!(ray.last().unwrap(), "a8");
        assert_eq!(b.neighbours(a1).len(), 3);
        assert_eq!(b.neighbours(b.parse("d4").unwrap()).len(), 8);
    }

    #[test]
    fn web_lines_cross_the_hub() {
        let w = Board::web(5, 12, true);
        let a2 = w.parse("a2").unwrap();
        let line: Vec<String> = w.ray(a2, Dir::IN).map(|c| w.name(c)).collect();
        assert_eq!(line, ["a1", "hub", "g1", "g2", "g3", "g4", "g5"]);
        // Around a ring the ray stops before coming back to its start.
        assert_eq!(w.ray(a2, Dir::CW).count(), 11);
        assert_eq!(w.neighbours(w.hub().unwrap()).len(), 12);
        assert_eq!(w.neighbours(a2).len(), 4);
        assert_eq!(w.neighbours(w.parse("a5").unwrap()).len(), 3);
    }

    #[test]
    fn web_without_hub_crosses_to_the_opposite_spoke() {
        let w = Board::web(4, 8, false);
        let b1 = w.parse("b1").unwrap();
        let (c, d) = w.step(b1, Dir::IN).unwrap();
        assert_eq!(w.name(c), "f1");
        assert_eq!(w.step(c, d).map(|x| w.name(x.0)), Some("f2".into()));
    }

    #[test]
    fn positions_are_inside_the_picture() {
        for b in [Board::grid(8, 8), Board::web(5, 12, true)] {
            for c in b.cells() {
                let (x, y) = b.position(c);
                assert!((0.0..=1.0).contains(&x) && (0.0..=1.0).contains(&y));
            }
        }
        let g = Board::grid(8, 8);
        let (_, y1) = g.position(g.parse("a1").unwrap());
        let (_, y8) = g.position(g.parse("a8").unwrap());
        assert!(y1 > y8, "rank 1 is drawn at the bottom");
    }
}
