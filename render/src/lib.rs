//! # tokar-render
//!
//! Draws a game's [`View`] as a PNG: a pure function of the view and the
//! highlights, with piece art prepared once and cached per size. The renderer
//! decides nothing about rules: every cell's place comes from the engine's
//! [`tokar_engine::Board`] geometry, every fact drawn comes from the view.
//!
//! Seat colours: [`tokar_engine::SeatView::colour`] indexes [`SEAT_PALETTE`]
//! (0 ivory, 1 charcoal, then the Okabe-Ito colours orange, sky blue, bluish
//! green, yellow, blue, vermillion, reddish purple; larger indexes wrap).

mod board;
mod canvas;
mod deflate;
mod layout;
mod palette;
mod panels;
mod pieces;
mod sprites;
mod text;

pub use palette::{Rgb, SeatColour, SEAT_PALETTE};
pub use sprites::ICONS;

use layout::WIDTH;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokar_engine::{Cell, Mark, View};

/// What to emphasise on top of the position.
#[derive(Default, Clone, Debug)]
pub struct Highlights {
    /// The last action's cells, from its events.
    pub marks: Vec<(Cell, Mark)>,
    /// Legal targets of the piece asked about.
    pub targets: Vec<Cell>,
    /// The piece asked about.
    pub selected: Option<Cell>,
}

/// Why a view could not be drawn. Each message is one line for the player.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    #[error("cannot draw this board: {0}")]
    Board(String),
    #[error("{what} is on cell #{cell}, which this board does not have")]
    CellOffBoard { what: String, cell: u16 },
    #[error("{what} names seat {seat}, but the game has {seats} seats")]
    UnknownSeat {
        what: String,
        seat: u8,
        seats: usize,
    },
    #[error("the board's rotation ({0}) is not a number of degrees")]
    Rotation(String),
    #[error("the picture would be too large: {0}")]
    TooLarge(String),
    #[error("the picture could not be encoded: {0}")]
    Encode(String),
}

/// The largest PNG the renderer hands out (Discord and phones both cope).
pub const MAX_BYTES: usize = 1024 * 1024;

/// Rows kept above the board in a cached background (the grid's frame reaches
/// above its squares).
const BACKGROUND_PAD: f32 = 4.0;

/// How many board backgrounds to keep (each about 3 MB).
const BACKGROUNDS_KEPT: usize = 16;

/// How many sets of render buffers to keep (about 4 MB each): one per core.
const SCRATCH_KEPT: usize = 2;

/// Draws views. Holds the embedded fonts and the sprite caches; cheap to share
/// between threads (`Send + Sync`), so make one and keep it.
pub struct Renderer {
    fonts: text::Fonts,
    sprites: sprites::SpriteCache,
    backgrounds: Mutex<HashMap<String, Arc<canvas::Canvas>>>,
    scratch: Mutex<Vec<canvas::Scratch>>,
}

impl Default for Renderer {
    fn default() -> Self {
        Renderer::new()
    }
}

impl Renderer {
    pub fn new() -> Renderer {
        Renderer {
            fonts: text::Fonts::new(),
            sprites: sprites::SpriteCache::default(),
            backgrounds: Mutex::new(HashMap::new()),
            scratch: Mutex::new(Vec::new()),
        }
    }

    /// The view as PNG bytes (at most [`MAX_BYTES`]), or why it cannot be drawn.
    pub fn render(&self, view: &View, highlights: &Highlights) -> Result<Vec<u8>, RenderError> {
        let popped = self.scratch.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut scratch = popped.unwrap_or_default();
        let result = self.draw_and_encode(view, highlights, &mut scratch);
        let mut kept = self.scratch.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() < SCRATCH_KEPT {
            kept.push(scratch);
        }
        result
    }

    fn draw_and_encode(
        &self,
        view: &View,
        highlights: &Highlights,
        scratch: &mut canvas::Scratch,
    ) -> Result<Vec<u8>, RenderError> {
        let canvas = self.draw(view, highlights, std::mem::take(&mut scratch.pixels))?;
        let mut png = canvas.encode_png(canvas::Packing::Fast, scratch)?;
        if png.len() > MAX_BYTES {
            png = canvas.encode_png(canvas::Packing::Smallest, scratch)?;
        }
        scratch.pixels = canvas.into_buffer();
        if png.len() <= MAX_BYTES {
            Ok(png)
        } else {
            Err(RenderError::TooLarge(format!("{} bytes", png.len())))
        }
    }

    /// The board without pieces, drawn once per board, rotation and zones.
    fn background(&self, view: &View) -> Result<Arc<canvas::Canvas>, RenderError> {
        let zones: Vec<(u16, u8)> = view
            .zones
            .iter()
            .map(|(c, s)| (c.0, view.seats[s.index()].colour))
            .collect();
        let key = format!(
            "{:?}|{}|{:?}",
            view.board.shape(),
            view.rotation.to_bits(),
            zones
        );
        let mut cache = self.backgrounds.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(bg) = cache.get(&key) {
            return Ok(bg.clone());
        }
        let geometry = layout::geometry(&view.board, view.rotation, BACKGROUND_PAD);
        let mut bg =
            canvas::Canvas::new(WIDTH, geometry.bottom.ceil() as u32, palette::BACKGROUND)?;
        board::paint_background(&mut bg, &self.fonts, view, &geometry);
        let bg = Arc::new(bg);
        if cache.len() >= BACKGROUNDS_KEPT {
            cache.clear();
        }
        cache.insert(key, bg.clone());
        Ok(bg)
    }

    /// The picture's pixels, drawn into `buffer`'s memory.
    fn draw(
        &self,
        view: &View,
        highlights: &Highlights,
        buffer: Vec<u8>,
    ) -> Result<canvas::Canvas, RenderError> {
        validate(view, highlights)?;
        let header = panels::header_height(view);
        let geometry = layout::geometry(&view.board, view.rotation, header);
        let legend = panels::legend_lines(&self.fonts, view);
        let legend_top = geometry.bottom + 4.0;
        let seats_top = legend_top + legend.len() as f32 * panels::LEGEND_LINE + 8.0;
        let height = (seats_top + panels::seats_height(view)).ceil() as u32;
        if height > 4096 {
            return Err(RenderError::TooLarge(format!("{height} pixels tall")));
        }
        let background = self.background(view)?;
        let mut canvas = canvas::Canvas::around(
            &background,
            (header - BACKGROUND_PAD) as u32,
            height,
            palette::BACKGROUND,
            buffer,
        )?;
        panels::draw_header(&mut canvas, &self.fonts, view);
        board::BoardPainter {
            fonts: &self.fonts,
            sprites: &self.sprites,
            view,
            geometry: &geometry,
            highlights,
        }
        .paint(&mut canvas);
        panels::draw_legend(&mut canvas, &self.fonts, &legend, legend_top);
        panels::draw_seats(&mut canvas, &self.fonts, &self.sprites, view, seats_top);
        Ok(canvas)
    }
}

/// Refuses views that name cells or seats that do not exist, before drawing anything.
fn validate(view: &View, highlights: &Highlights) -> Result<(), RenderError> {
    layout::check_board(&view.board)?;
    if !view.rotation.is_finite() {
        return Err(RenderError::Rotation(view.rotation.to_string()));
    }
    let len = view.board.len();
    let cell_ok = |what: &str, cell: Cell| {
        if cell.index() < len {
            Ok(())
        } else {
            Err(RenderError::CellOffBoard {
                what: what.to_string(),
                cell: cell.0,
            })
        }
    };
    let seats = view.seats.len();
    let seat_ok = |what: &str, seat: tokar_engine::Seat| {
        if seat.index() < seats {
            Ok(())
        } else {
            Err(RenderError::UnknownSeat {
                what: what.to_string(),
                seat: seat.0,
                seats,
            })
        }
    };
    for p in &view.pieces {
        cell_ok(&format!("the {}", p.glyph.name), p.cell)?;
        seat_ok(&format!("the {}", p.glyph.name), p.seat)?;
    }
    for &(cell, seat) in &view.zones {
        cell_ok("a zone", cell)?;
        seat_ok("a zone", seat)?;
    }
    for &seat in &view.to_act {
        seat_ok("the turn", seat)?;
    }
    if let Some((seat, _)) = &view.dice {
        seat_ok("the dice", *seat)?;
    }
    if let tokar_engine::Outcome::Won { winners, .. } = &view.outcome {
        for &seat in winners {
            seat_ok("the outcome", seat)?;
        }
    }
    for &(cell, _) in &highlights.marks {
        cell_ok("a highlight", cell)?;
    }
    for &cell in &highlights.targets {
        cell_ok("a target", cell)?;
    }
    if let Some(cell) = highlights.selected {
        cell_ok("the selected piece", cell)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renderer_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Renderer>();
    }
}
