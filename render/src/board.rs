//! The board itself: squares or strands, zones, the last action, legal targets,
//! the selected piece, then the pieces and the coordinate labels.

use crate::canvas::Picture;
use crate::layout::{BoardLayout, Geometry, Spot};
use crate::palette::{self, Rgb, SeatColour};
use crate::pieces;
use crate::shape::Outline;
use crate::sketch::Sketch;
use crate::sprites::SpriteCache;
use crate::text::{Fonts, Weight};
use crate::Highlights;
use tokar_engine::{Board, Cell, Mark, Shape, View};

/// The outline of a spot, shrunk by `inset` pixels.
fn outline(spot: &Spot, inset: f32) -> Option<Outline> {
    let half = spot.size / 2.0 - inset;
    if half <= 0.0 {
        return None;
    }
    if spot.square {
        Outline::rect(spot.cx - half, spot.cy - half, 2.0 * half, 2.0 * half)
    } else {
        // A web cell's disc is a little smaller than its spot.
        Outline::circle(spot.cx, spot.cy, half * 0.92)
    }
}

pub fn wash(canvas: &mut Sketch, spot: &Spot, colour: Rgb, alpha: f32) {
    if let Some(p) = outline(spot, 0.0) {
        canvas.fill(p, colour, alpha);
    }
}

pub fn ring(
    canvas: &mut Sketch,
    spot: &Spot,
    inset: f32,
    colour: Rgb,
    width: f32,
    dash: Option<f32>,
) {
    if let Some(p) = outline(spot, inset) {
        canvas.stroke(p, colour, 1.0, width, dash);
    }
}

/// A piece's colours: its seat's, faded when the seat is out of the game but its
/// pieces still stand (Magic Chess).
pub fn piece_colour(view: &View, colours: &[SeatColour], seat: tokar_engine::Seat) -> SeatColour {
    let s = &view.seats[seat.index()];
    let c = colours[seat.index()];
    if s.eliminated {
        palette::SeatColour {
            name: c.name,
            fill: c.fill.mix(palette::FADED, 0.6),
            outline: c.outline.mix(palette::FADED, 0.5),
        }
    } else {
        c
    }
}

pub struct BoardPainter<'a> {
    pub fonts: &'a Fonts,
    pub sprites: &'a SpriteCache,
    pub view: &'a View,
    pub colours: &'a [SeatColour],
    pub geometry: &'a Geometry,
    pub highlights: &'a Highlights,
    /// Kings or Generals in check.
    pub check: &'a [Cell],
}

/// The part of a board that does not depend on the pieces: squares or strands
/// and cells, zones, edge labels. Drawn once per (board, rotation, zones) into
/// its own pixmap with the board's top at y = 0, then copied into each picture.
pub fn paint_background(
    canvas: &mut Sketch,
    fonts: &Fonts,
    view: &View,
    colours: &[SeatColour],
    geometry: &Geometry,
) {
    let spots = &geometry.spots;
    match geometry.layout {
        BoardLayout::Grid {
            x0,
            y0,
            square,
            cols,
            rows,
        } => {
            canvas.fill_rect(
                x0 - 2.0,
                y0 - 2.0,
                square * cols as f32 + 4.0,
                square * rows as f32 + 4.0,
                palette::STRAND,
                1.0,
            );
            for cell in view.board.cells() {
                let (f, r) = view.board.coords(cell);
                let colour = if (f + r) % 2 == 0 {
                    palette::DARK_SQUARE
                } else {
                    palette::LIGHT_SQUARE
                };
                let s = spots[cell.index()];
                canvas.fill_rect(
                    s.cx - s.size / 2.0,
                    s.cy - s.size / 2.0,
                    s.size,
                    s.size,
                    colour,
                    1.0,
                );
            }
        }
        BoardLayout::Web { .. } => strands(canvas, view, geometry),
    }
    for &(cell, seat) in &view.zones {
        let colour = colours
            .get(seat.index())
            .map(|c| c.fill)
            .unwrap_or(palette::MUTED);
        let s = &spots[cell.index()];
        wash(canvas, s, colour, 0.5);
        // A rim a shade darker than the seat's colour, so that light zones show too.
        ring(canvas, s, 2.0, colour.mix(palette::INK, 0.45), 3.0, None);
    }
    for label in &geometry.labels {
        fonts.draw_centred(
            canvas,
            Weight::Bold,
            label.px,
            label.x,
            label.y,
            palette::MUTED,
            &label.text,
        );
    }
}

/// The web: rings, and spokes through the centre, and a disc per cell.
fn strands(canvas: &mut Sketch, view: &View, geometry: &Geometry) {
    let BoardLayout::Web {
        cx,
        cy,
        scale,
        turn,
        rings,
        spokes,
        hub,
    } = geometry.layout
    else {
        return;
    };
    let board: &Board = &view.board;
    let outer = board.ring_radius(rings, rings, hub) * scale;
    for ring in 1..=rings {
        let r = board.ring_radius(ring, rings, hub) * scale;
        canvas.stroke_circle(cx, cy, r, palette::STRAND, 1.0, 2.5, None);
    }
    for s in 0..spokes {
        let a = std::f32::consts::TAU * s as f32 / spokes as f32 + turn;
        canvas.line(
            cx,
            cy,
            cx + outer * a.sin(),
            cy - outer * a.cos(),
            palette::STRAND,
            1.0,
            2.5,
        );
    }
    for cell in board.cells() {
        let s = &geometry.spots[cell.index()];
        let fill = if board.web_coords(cell).is_none() {
            palette::HUB_CELL
        } else {
            palette::WEB_CELL
        };
        if let Some(p) = outline(s, 0.0) {
            canvas.fill(p, fill, 1.0);
            canvas.stroke(p, palette::STRAND, 1.0, 1.5, None);
        }
    }
}

impl BoardPainter<'_> {
    /// Draws a highlight on a cell through a cached sprite: `paint` draws it
    /// once per look, cell size and sub-pixel position into a transparent
    /// canvas (the cell at the same fractional position as on the picture, so
    /// the antialiasing is the same), and each picture then blits it.
    /// Highlights stay inside their cell (strokes are inset), plus a margin.
    fn overlay(&self, canvas: &mut Picture, s: &Spot, look: &'static str) {
        let margin = 2.0;
        let left = (s.cx - s.size / 2.0 - margin).floor();
        let top = (s.cy - s.size / 2.0 - margin).floor();
        let side = (s.size + 2.0 * margin).ceil() as u32 + 2;
        let local = Spot {
            cx: s.cx - left,
            cy: s.cy - top,
            ..*s
        };
        let key = format!(
            "overlay|{look}|{}|{}|{}|{}",
            s.size.to_bits(),
            local.cx.to_bits(),
            local.cy.to_bits(),
            s.square
        );
        let sprite = self.sprites.badge(key, || {
            let mut c = Sketch::transparent(side, side)?;
            paint_look(&mut c, &local, look);
            Some(c)
        });
        if let Some(sprite) = sprite {
            canvas.blit(&sprite, left as i32, top as i32);
        }
    }

    /// Everything that depends on the pieces and highlights, over the background.
    pub fn paint(&self, canvas: &mut Picture) {
        let view = self.view;
        let spots = &self.geometry.spots;
        let occupied: Vec<bool> = {
            let mut v = vec![false; spots.len()];
            for p in &view.pieces {
                v[p.cell.index()] = true;
            }
            v
        };
        // A web's empty cells carry their names, faintly.
        if let Shape::Web { .. } = view.board.shape() {
            let faint = palette::MUTED.mix(palette::WEB_CELL, 0.35);
            for cell in view.board.cells() {
                if !occupied[cell.index()] {
                    let s = &spots[cell.index()];
                    let px = (s.size * 0.26).clamp(13.0, 15.0) as u16;
                    self.fonts.draw_centred(
                        canvas,
                        Weight::Regular,
                        px,
                        s.cx,
                        s.cy,
                        faint,
                        &view.board.name(cell),
                    );
                }
            }
        }

        // Under the pieces: where the last action started and ended, and kills.
        for &(cell, mark) in &self.highlights.marks {
            let look = match mark {
                Mark::From => "from",
                Mark::To => "to",
                Mark::Hit => "cross",
                Mark::Affected | Mark::Placed => continue,
            };
            self.overlay(canvas, &spots[cell.index()], look);
        }
        for &cell in &self.highlights.targets {
            if !occupied[cell.index()] {
                self.overlay(canvas, &spots[cell.index()], "dot");
            }
        }

        for &cell in self.check {
            self.overlay(canvas, &spots[cell.index()], "check-glow");
        }

        for piece in &view.pieces {
            let s = &spots[piece.cell.index()];
            let colour = piece_colour(view, self.colours, piece.seat);
            pieces::draw_icon(
                canvas,
                self.fonts,
                self.sprites,
                s.cx,
                s.cy,
                s.size * 0.84,
                &piece.glyph,
                colour,
            );
        }

        // Over the pieces: borders that must stay visible.
        for &(cell, mark) in &self.highlights.marks {
            let look = match mark {
                Mark::Hit => "hit",
                Mark::Affected => "affected",
                Mark::Placed => "placed",
                Mark::From | Mark::To => continue,
            };
            self.overlay(canvas, &spots[cell.index()], look);
        }
        for &cell in &self.highlights.targets {
            if occupied[cell.index()] {
                self.overlay(canvas, &spots[cell.index()], "target");
            }
        }
        if let Some(cell) = self.highlights.selected {
            self.overlay(canvas, &spots[cell.index()], "selected");
        }

        for &cell in self.check {
            self.overlay(canvas, &spots[cell.index()], "check");
        }

        for piece in &view.pieces {
            let s = &spots[piece.cell.index()];
            let colour = piece_colour(view, self.colours, piece.seat);
            pieces::draw_overlays(canvas, self.fonts, self.sprites, s, piece, colour);
        }
    }
}

/// Draws one highlight on a cell, in colour (once per look, size and position):
/// `from` and `to` washes, the `cross` under a hit piece and the `hit` border
/// over it, `affected` (dashed), `placed` (double), target `dot` (empty cell)
/// and `target` ring (occupied), `selected`, and check (`check-glow` under the
/// piece, `check` ring over it).
pub fn paint_look(c: &mut Sketch, s: &Spot, look: &str) {
    let w = (s.size * 0.05).clamp(2.0, 5.0);
    match look {
        "from" => wash(c, s, palette::MOVE_WASH, 0.25),
        "to" => wash(c, s, palette::MOVE_WASH, 0.625),
        "cross" => {
            let k = s.size * if s.square { 0.3 } else { 0.22 };
            let lw = s.size * 0.07;
            c.line(
                s.cx - k,
                s.cy - k,
                s.cx + k,
                s.cy + k,
                palette::HIT,
                0.9,
                lw,
            );
            c.line(
                s.cx - k,
                s.cy + k,
                s.cx + k,
                s.cy - k,
                palette::HIT,
                0.9,
                lw,
            );
        }
        "dot" => c.fill_circle(s.cx, s.cy, s.size * 0.15, palette::INK, 0.4),
        "hit" => ring(c, s, w / 2.0, palette::HIT, w, None),
        "affected" => ring(c, s, w / 2.0, palette::AFFECTED, w, Some(s.size * 0.1)),
        "placed" => {
            ring(c, s, w / 2.0, palette::PLACED, w, None);
            ring(c, s, w * 2.2, palette::PLACED, w * 0.6, None);
        }
        "target" => c.stroke_circle(
            s.cx,
            s.cy,
            s.size * 0.44,
            palette::INK,
            0.5,
            s.size * 0.07,
            None,
        ),
        "selected" => {
            let w = (s.size * 0.06).clamp(3.0, 6.0);
            ring(c, s, w / 2.0, palette::SELECTED, w, None);
            ring(c, s, w + 1.0, palette::PAPER, 1.5, None);
        }
        "check-glow" => c.fill_circle(s.cx, s.cy, s.size * 0.46, palette::CHECK, 0.375),
        "check" => check_ring(c, s),
        _ => {}
    }
}

/// Check: a solid round ring in the check colour with a light rim inside,
/// unlike the square or dashed borders of the last action.
pub fn check_ring(c: &mut Sketch, s: &Spot) {
    let w = (s.size * 0.07).clamp(3.0, 6.0);
    let r = s.size * 0.46 - w / 2.0;
    c.stroke_circle(s.cx, s.cy, r, palette::CHECK, 1.0, w, None);
    c.stroke_circle(
        s.cx,
        s.cy,
        r - w / 2.0 - 0.75,
        palette::PAPER,
        1.0,
        1.5,
        None,
    );
}
