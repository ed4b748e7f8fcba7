//! Where each cell goes in the picture, from the engine's own geometry
//! ([`Board::position`], [`Board::ring_radius`]) turned by the view's rotation.

use crate::RenderError;
use tokar_engine::{Board, Cell, Shape};

/// The picture's width: readable on a phone without zooming.
pub const WIDTH: u32 = 800;

/// Where one cell is drawn: its centre and size (a square's side, a disc's diameter).
#[derive(Clone, Copy, Debug)]
pub struct Spot {
    pub cx: f32,
    pub cy: f32,
    pub size: f32,
    pub square: bool,
}

/// A coordinate label on the board's edge.
pub struct Label {
    pub x: f32,
    pub y: f32,
    pub text: String,
    /// Text size in pixels.
    pub px: u16,
}

/// Everything about the board's drawing that does not depend on the pieces.
pub enum BoardLayout {
    Grid {
        /// Top-left corner of the squares and the side of one square.
        x0: f32,
        y0: f32,
        square: f32,
        cols: u32,
        rows: u32,
    },
    Web {
        cx: f32,
        cy: f32,
        /// Pixels per unit of [`Board::position`].
        scale: f32,
        /// The rotation in radians, clockwise.
        turn: f32,
        rings: u8,
        spokes: u8,
        hub: bool,
    },
}

pub struct Geometry {
    pub layout: BoardLayout,
    /// One spot per cell, indexed by [`Cell::index`].
    pub spots: Vec<Spot>,
    pub labels: Vec<Label>,
    /// The board's area, including its labels: from `top` to `bottom`.
    pub bottom: f32,
}

/// Checks the board is one the renderer can draw: sizes that have names.
pub fn check_board(board: &Board) -> Result<(), RenderError> {
    match board.shape() {
        Shape::Grid { files, ranks } => {
            if !(1..=26).contains(&files) || !(1..=99).contains(&ranks) {
                return Err(RenderError::Board(format!(
                    "a grid of {files}x{ranks} cannot be drawn (1 to 26 files, 1 to 99 ranks)"
                )));
            }
        }
        Shape::Web { rings, spokes, .. } => {
            if !(1..=20).contains(&rings) || !(3..=26).contains(&spokes) {
                return Err(RenderError::Board(format!(
                    "a web of {rings} rings and {spokes} spokes cannot be drawn (1 to 20 rings, 3 to 26 spokes)"
                )));
            }
        }
    }
    Ok(())
}

/// Quarter turns clockwise for a grid: the rotation rounded to a multiple of 90 degrees.
fn quarters(rotation: f32) -> u32 {
    ((rotation / 90.0).round() as i64).rem_euclid(4) as u32
}

/// A grid position (fractions of the picture) turned by `q` quarter turns clockwise.
fn turn_quarters(x: f32, y: f32, q: u32) -> (f32, f32) {
    match q {
        1 => (1.0 - y, x),
        2 => (1.0 - x, 1.0 - y),
        3 => (y, 1.0 - x),
        _ => (x, y),
    }
}

pub fn geometry(board: &Board, rotation: f32, top: f32) -> Geometry {
    match board.shape() {
        Shape::Grid { files, ranks } => grid(board, files, ranks, rotation, top),
        Shape::Web { rings, spokes, hub } => web(board, rings, spokes, hub, rotation, top),
    }
}

fn grid(board: &Board, files: u8, ranks: u8, rotation: f32, top: f32) -> Geometry {
    let q = quarters(rotation);
    let (cols, rows) = if q & 1 == 0 {
        (files as u32, ranks as u32)
    } else {
        (ranks as u32, files as u32)
    };
    let (left, right, bottom_margin) = (30.0, 14.0, 30.0);
    let avail = WIDTH as f32 - left - right;
    let square = (avail / cols as f32).min(920.0 / rows as f32).floor();
    let x0 = left + ((avail - square * cols as f32) / 2.0).floor();
    let y0 = top;
    let mut spots = Vec::with_capacity(board.len());
    // The cell drawn at each display (col, row), for the edge labels.
    let mut at = vec![None; (cols * rows) as usize];
    for cell in board.cells() {
        let (x, y) = board.position(cell);
        let (x, y) = turn_quarters(x, y, q);
        let col = ((x * cols as f32).floor() as u32).min(cols - 1);
        let row = ((y * rows as f32).floor() as u32).min(rows - 1);
        at[(row * cols + col) as usize] = Some(cell);
        spots.push(Spot {
            cx: x0 + (col as f32 + 0.5) * square,
            cy: y0 + (row as f32 + 0.5) * square,
            size: square,
            square: true,
        });
    }
    // Columns are named by files when the board is upright or upside down, by
    // ranks when it lies on its side; rows the other way round.
    let name_part = |cell: Cell, files_part: bool| {
        let (f, r) = board.coords(cell);
        if files_part {
            ((b'a' + f as u8) as char).to_string()
        } else {
            (r + 1).to_string()
        }
    };
    let mut labels = Vec::new();
    let board_bottom = y0 + square * rows as f32;
    for col in 0..cols {
        if let Some(cell) = at[((rows - 1) * cols + col) as usize] {
            labels.push(Label {
                x: x0 + (col as f32 + 0.5) * square,
                y: board_bottom + bottom_margin / 2.0,
                text: name_part(cell, q & 1 == 0),
                px: 16,
            });
        }
    }
    for row in 0..rows {
        if let Some(cell) = at[(row * cols) as usize] {
            labels.push(Label {
                x: x0 - left / 2.0,
                y: y0 + (row as f32 + 0.5) * square,
                text: name_part(cell, q & 1 == 1),
                px: 16,
            });
        }
    }
    Geometry {
        layout: BoardLayout::Grid {
            x0,
            y0,
            square,
            cols,
            rows,
        },
        spots,
        labels,
        bottom: board_bottom + bottom_margin,
    }
}

fn web(board: &Board, rings: u8, spokes: u8, hub: bool, rotation: f32, top: f32) -> Geometry {
    let side = WIDTH as f32;
    let scale = 740.0;
    let (cx, cy) = (side / 2.0, top + side / 2.0);
    let turn = rotation.to_radians();
    let (sin, cos) = turn.sin_cos();
    let place = |x: f32, y: f32| {
        let (dx, dy) = (x - 0.5, y - 0.5);
        (
            cx + (dx * cos - dy * sin) * scale,
            cy + (dx * sin + dy * cos) * scale,
        )
    };
    let radius = |ring: u8| board.ring_radius(ring, rings, hub);
    // A cell's size: what fits between its ring and the next one in, and between
    // neighbours on its ring.
    let ring_size = |ring: u8| {
        let gap = if ring > 1 {
            radius(ring) - radius(ring - 1)
        } else if hub {
            radius(1)
        } else {
            2.0 * radius(1)
        };
        let arc = 2.0 * radius(ring) * (std::f32::consts::PI / spokes as f32).sin();
        (gap.min(arc) * scale * 0.92).floor()
    };
    let mut spots = Vec::with_capacity(board.len());
    for cell in board.cells() {
        let (x, y) = place(board.position(cell).0, board.position(cell).1);
        let size = match board.web_coords(cell) {
            Some((ring, _)) => ring_size(ring),
            None => (radius(1) * scale * 0.92).floor(),
        };
        spots.push(Spot {
            cx: x,
            cy: y,
            size,
            square: false,
        });
    }
    let mut labels = Vec::new();
    let outer = radius(rings) * scale + ring_size(rings) / 2.0 + 13.0;
    for s in 0..spokes {
        let a = std::f32::consts::TAU * s as f32 / spokes as f32 + turn;
        labels.push(Label {
            x: cx + outer * a.sin(),
            y: cy - outer * a.cos(),
            text: ((b'a' + s) as char).to_string(),
            px: 18,
        });
    }
    Geometry {
        layout: BoardLayout::Web {
            cx,
            cy,
            scale,
            turn,
            rings,
            spokes,
            hub,
        },
        spots,
        labels,
        bottom: top + side,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spot_of(board: &Board, rotation: f32, name: &str) -> Spot {
        let g = geometry(board, rotation, 0.0);
        g.spots[board.parse(name).unwrap().index()]
    }

    #[test]
    fn grids_turn_by_quarters_clockwise() {
        let b = Board::grid(8, 8);
        let upright = spot_of(&b, 0.0, "a1");
        let h8 = spot_of(&b, 0.0, "h8");
        assert!(
            upright.cx < h8.cx && upright.cy > h8.cy,
            "a1 bottom left when upright"
        );
        let turned = spot_of(&b, 180.0, "a1");
        assert!(
            (turned.cx - h8.cx).abs() < 0.5 && (turned.cy - h8.cy).abs() < 0.5,
            "a1 where h8 was"
        );
        // A quarter turn clockwise takes the bottom-left corner to the top left.
        let quarter = spot_of(&b, 90.0, "a1");
        let a8 = spot_of(&b, 0.0, "a8");
        assert!((quarter.cx - a8.cx).abs() < 0.5 && (quarter.cy - a8.cy).abs() < 0.5);
        // Rotations are rounded to the nearest quarter and taken modulo a full turn.
        let same = spot_of(&b, -270.0 + 3.0, "a1");
        assert!((same.cx - quarter.cx).abs() < 0.5 && (same.cy - quarter.cy).abs() < 0.5);
    }

    #[test]
    fn sideways_grid_labels_ranks_along_the_bottom() {
        let b = Board::grid(10, 12);
        let g = geometry(&b, 90.0, 0.0);
        let bottom: Vec<&str> = g.labels.iter().take(12).map(|l| l.text.as_str()).collect();
        assert_eq!(
            bottom,
            ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"]
        );
        let left: Vec<&str> = g.labels.iter().skip(12).map(|l| l.text.as_str()).collect();
        assert_eq!(left, ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]);
        let upside_down = geometry(&b, 180.0, 0.0);
        assert_eq!(upside_down.labels[0].text, "j");
        assert_eq!(upside_down.labels[10].text, "1", "rank 1 at the top row");
    }

    #[test]
    fn every_cell_gets_its_own_place_inside_the_picture() {
        for (b, rot) in [
            (Board::grid(8, 8), 0.0),
            (Board::grid(10, 12), 270.0),
            (Board::web(5, 12, true), 0.0),
            (Board::web(4, 8, false), 22.5),
        ] {
            let g = geometry(&b, rot, 0.0);
            for (i, a) in g.spots.iter().enumerate() {
                assert!(a.cx - a.size / 2.0 >= 0.0 && a.cx + a.size / 2.0 <= WIDTH as f32);
                assert!(a.cy - a.size / 2.0 >= 0.0 && a.cy + a.size / 2.0 <= g.bottom);
                for c in &g.spots[i + 1..] {
                    let d = ((a.cx - c.cx).powi(2) + (a.cy - c.cy).powi(2)).sqrt();
                    assert!(d >= (a.size + c.size) / 2.0 - 1.0, "cells overlap on {b:?}");
                }
            }
        }
    }
}
