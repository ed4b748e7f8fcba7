//! # tokar-render
//!
//! Draws a game's [`View`] as a PNG: a pure function of the view and the
//! highlights, with piece art prepared once and cached per size. The renderer
//! decides nothing about rules: every cell's place comes from the engine's
//! [`tokar_engine::Board`] geometry, every fact drawn comes from the view.
//!
//! Seat colours: a seat named after a colour ("Red", "White King") is drawn
//! in it ([`NAMED_COLOURS`]); otherwise [`tokar_engine::SeatView::colour`]
//! indexes [`SEAT_PALETTE`] (0 ivory, 1 charcoal, then the Okabe-Ito colours
//! orange, sky blue, bluish green, yellow, blue, vermillion, reddish purple;
//! larger indexes wrap).
//!
//! A picture is an 8-bit indexed PNG: the palette ([`Rgb`] entries, at most
//! 256) is fixed at start-up, and everything that does not change between
//! pictures (the board, piece art, badges, glyphs) is prepared in its indices,
//! so that drawing a picture is mostly copying.
//!
//! # Drawing a position
//!
//! ```
//! use tokar_engine::{AnyGame, GameKind, Options, Seed, Viewer};
//! use tokar_render::{Highlights, Renderer, MAX_BYTES};
//!
//! // A game one action in.
//! let mut game = AnyGame::setup(GameKind::Arcana, &Options::new(), Seed::ChaCha20([7; 32]))?;
//! let seat = game.to_act()[0];
//! let action = game.legal_actions(seat)[0].clone();
//! let events = game.play(seat, &action)?;
//!
//! // One renderer for the process: it keeps the prepared art, and is Send + Sync.
//! let renderer = Renderer::new();
//! let highlights = Highlights {
//!     marks: events.iter().flat_map(|event| event.marks.clone()).collect(),
//!     ..Highlights::default()
//! };
//! // The spectators' view: what anyone may see, without a hand.
//! let png = renderer.render(&game.view(Viewer::Spectator), &highlights)?;
//! assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
//! assert!(png.len() <= MAX_BYTES);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod board;
mod bracket;
mod canvas;
mod cards;
mod chart;
mod crosstable;
/// Public for `examples/encoders`, which compares it with other deflaters.
pub mod deflate;
mod huffman;
mod layout;
mod legend;
mod palette;
mod panels;
mod pieces;
mod replay;
mod shape;
mod sheet;
mod sketch;
mod sprites;
mod text;

pub use bracket::{BracketMatch, BracketPicture, BracketSlot, MAX_FIRST_ROUND};
pub use canvas::TextBox;
pub use chart::Chart;
pub use crosstable::{CrossRow, Crosstable, MAX_ENTRANTS};
pub use palette::{Rgb, SeatColour, NAMED_COLOURS, SEAT_PALETTE};
pub use replay::{Replay, ReplayOptions, MAX_REPLAY_BYTES, SUB_FRAME_CS};
pub use sheet::{Column, Sheet};
pub use sprites::ICONS;

use layout::WIDTH;
use rustc_hash::FxHashMap as HashMap;
use std::borrow::Cow;
use std::sync::{Arc, Mutex};
use tokar_engine::{Cell, Mark, Seat, Shape, View};

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

/// How to draw a view beyond what the view itself says (see
/// [`Renderer::render_with`]). Made with `RenderOptions::default()` and then
/// its fields set, so that fields can be added later.
#[derive(Default, Clone, Debug)]
#[non_exhaustive]
pub struct RenderOptions {
    /// Draw the board from this seat's side (its home rows at the bottom,
    /// see [`seat_rotation`]) instead of the view's own rotation.
    pub side: Option<Seat>,
    /// Kings or Generals in check, marked in their own style, besides those
    /// the view itself says are (`View.check`).
    pub check: Vec<Cell>,
    /// A line under the header's status, such as the time left on the move
    /// (`6d 23h left`): written by the caller, who keeps the clock; the
    /// renderer only draws it.
    pub clock: Option<String>,
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

/// How many board backgrounds to keep (each under 1 MB).
const BACKGROUNDS_KEPT: usize = 16;

/// How many sets of render buffers to keep (about 1 MB each): one per core.
const SCRATCH_KEPT: usize = 2;

/// Degrees clockwise that put `seat`'s home side at the bottom. Seats that
/// share a colour index are one side; the sides sit clockwise from the bottom
/// in seat order (two sides: 0 and 180 degrees; four: 0, 270, 180, 90), unless
/// the view shades the seat's zone (Arachne), whose middle then goes to the
/// bottom. Grids take the nearest quarter turn.
pub fn seat_rotation(view: &View, seat: Seat) -> f32 {
    let mut rotation = None;
    let (mut x, mut y, mut n) = (0.0f32, 0.0f32, 0.0f32);
    for &(c, s) in &view.zones {
        if s == seat && c.index() < view.board.len() {
            let (px, py) = view.board.position(c);
            x += px - 0.5;
            y += py - 0.5;
            n += 1.0;
        }
    }
    if n > 0.0 && (x.abs() > 1e-4 || y.abs() > 1e-4) {
        let angle = x.atan2(-y).to_degrees();
        rotation = Some(((180.0 - angle).rem_euclid(360.0) * 1000.0).round() / 1000.0);
    }
    let rotation = rotation.unwrap_or_else(|| {
        let mut sides: Vec<u8> = Vec::new();
        for s in &view.seats {
            if !sides.contains(&s.colour) {
                sides.push(s.colour);
            }
        }
        let Some(colour) = view.seats.get(seat.index()).map(|s| s.colour) else {
            return view.rotation;
        };
        let k = sides.iter().position(|&c| c == colour).unwrap_or(0) as f32;
        (360.0 - k * 360.0 / sides.len().max(1) as f32).rem_euclid(360.0)
    });
    match view.board.shape() {
        Shape::Grid { .. } => ((rotation / 90.0).round() * 90.0).rem_euclid(360.0),
        Shape::Web { .. } => rotation,
    }
}

/// Draws views. Holds the embedded fonts, the palette and the prepared
/// sprites; cheap to share between threads (`Send + Sync`), so make one and keep it.
pub struct Renderer {
    fonts: text::Fonts,
    palette: &'static palette::Palette,
    sprites: sprites::SpriteCache,
    backgrounds: Mutex<HashMap<String, Arc<canvas::Background>>>,
    scratch: Mutex<Vec<canvas::Scratch>>,
}

impl Default for Renderer {
    fn default() -> Self {
        Renderer::new()
    }
}

impl Renderer {
    /// A renderer with its palette and the glyphs of the sizes the pictures use.
    pub fn new() -> Renderer {
        let r = Renderer {
            fonts: text::Fonts::new(),
            palette: palette::shared(),
            sprites: sprites::SpriteCache::default(),
            backgrounds: Mutex::new(HashMap::default()),
            scratch: Mutex::new(Vec::new()),
        };
        r.fonts.prepare();
        r
    }

    /// The view as PNG bytes (at most [`MAX_BYTES`]), or why it cannot be drawn.
    pub fn render(&self, view: &View, highlights: &Highlights) -> Result<Vec<u8>, RenderError> {
        self.render_with(view, highlights, &RenderOptions::default())
    }

    /// [`Renderer::render`] with options: the side to draw from, kings in check.
    pub fn render_with(
        &self,
        view: &View,
        highlights: &Highlights,
        options: &RenderOptions,
    ) -> Result<Vec<u8>, RenderError> {
        let popped = self.scratch.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut scratch = popped.unwrap_or_default();
        let result = self.draw_and_encode(view, highlights, options, &mut scratch);
        let mut kept = self.scratch.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() < SCRATCH_KEPT {
            kept.push(scratch);
        }
        result
    }

    /// Every text the picture would hold, with its size and box, in the order
    /// drawn (the board's edge labels first): for checking legibility.
    pub fn text_boxes(
        &self,
        view: &View,
        highlights: &Highlights,
        options: &RenderOptions,
    ) -> Result<(u32, u32, Vec<TextBox>), RenderError> {
        let picture = self.draw(view, highlights, options, Vec::new(), true, 0)?;
        Ok((
            picture.width(),
            picture.height(),
            picture.texts.unwrap_or_default(),
        ))
    }

    fn draw_and_encode(
        &self,
        view: &View,
        highlights: &Highlights,
        options: &RenderOptions,
        scratch: &mut canvas::Scratch,
    ) -> Result<Vec<u8>, RenderError> {
        let buffer = std::mem::take(&mut scratch.pixels);
        let picture = self.draw(view, highlights, options, buffer, false, 0)?;
        let mut png = picture.encode_png(false, &mut scratch.encode)?;
        if png.len() > MAX_BYTES {
            png = picture.encode_png(true, &mut scratch.encode)?;
        }
        scratch.pixels = picture.into_buffer();
        if png.len() <= MAX_BYTES {
            Ok(png)
        } else {
            Err(RenderError::TooLarge(format!("{} bytes", png.len())))
        }
    }

    /// The board without pieces, drawn once per board, rotation, zones and
    /// their colours, and kept in palette indices.
    fn background(
        &self,
        view: &View,
        colours: &[SeatColour],
    ) -> Result<Arc<canvas::Background>, RenderError> {
        let zones: Vec<(u16, Rgb)> = view
            .zones
            .iter()
            .map(|(c, s)| (c.0, colours[s.index()].fill))
            .collect();
        let key = format!(
            "{:?}|{}|{:?}",
            view.board.shape(),
            view.rotation.to_bits(),
            zones
        );
        if let Some(bg) = self
            .backgrounds
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return Ok(bg.clone());
        }
        let geometry = layout::geometry(&view.board, view.rotation, BACKGROUND_PAD);
        let height = geometry.bottom.ceil() as u32;
        let mut sketch = sketch::Sketch::new(WIDTH, height, palette::BACKGROUND)?;
        board::paint_background(&mut sketch, &self.fonts, view, colours, &geometry);
        let index = self.palette.indices_of_rgba(sketch.data());
        let bg = Arc::new(canvas::Background {
            width: WIDTH,
            height,
            index,
        });
        let mut cache = self.backgrounds.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= BACKGROUNDS_KEPT {
            cache.clear();
        }
        cache.insert(key, bg.clone());
        Ok(bg)
    }

    /// The view to draw (turned to the side asked for) and the cells in
    /// check, after refusing what names cells or seats the game lacks.
    fn prepare<'v>(
        &self,
        view: &'v View,
        highlights: &Highlights,
        options: &RenderOptions,
    ) -> Result<(Cow<'v, View>, Vec<Cell>), RenderError> {
        validate(view, highlights)?;
        for &cell in &options.check {
            if cell.index() >= view.board.len() {
                return Err(RenderError::CellOffBoard {
                    what: "a check".into(),
                    cell: cell.0,
                });
            }
        }
        let view = match options.side {
            Some(seat) => {
                if seat.index() >= view.seats.len() {
                    return Err(RenderError::UnknownSeat {
                        what: "the side to draw from".into(),
                        seat: seat.0,
                        seats: view.seats.len(),
                    });
                }
                let mut v = view.clone();
                v.rotation = seat_rotation(view, seat);
                Cow::Owned(v)
            }
            None => Cow::Borrowed(view),
        };
        let check = in_check(&view, &options.check);
        Ok((view, check))
    }

    /// Where each part of the picture goes, and how tall it is.
    fn layout(
        &self,
        view: &View,
        highlights: &Highlights,
        check: &[Cell],
        clock: Option<&str>,
    ) -> Layout {
        let header = panels::header(&self.fonts, view, clock);
        let geometry = layout::geometry(&view.board, view.rotation, header.height);
        let legend = legend::legend_entries(view, highlights, !check.is_empty());
        let legend_top = geometry.bottom + 4.0;
        let legend_lines = legend::legend_lines(&self.fonts, &legend);
        let cards = cards::Cards::new(&self.fonts, view);
        let cards_top = legend_top + legend_lines as f32 * legend::LEGEND_LINE + 4.0;
        let seats_top = cards_top + cards.height() + 4.0;
        let height = (seats_top + panels::seats_height(&self.fonts, view)).ceil() as u32;
        Layout {
            header,
            geometry,
            legend,
            legend_top,
            cards,
            cards_top,
            seats_top,
            height,
        }
    }

    /// How tall the picture of this view would be, without drawing it.
    fn picture_height(
        &self,
        view: &View,
        highlights: &Highlights,
        options: &RenderOptions,
    ) -> Result<u32, RenderError> {
        let (view, check) = self.prepare(view, highlights, options)?;
        Ok(self
            .layout(&view, highlights, &check, options.clock.as_deref())
            .height)
    }

    /// The picture's indices, drawn into `buffer`'s memory, at least
    /// `min_height` rows tall (rows below the picture are background).
    fn draw(
        &self,
        view: &View,
        highlights: &Highlights,
        options: &RenderOptions,
        buffer: Vec<u8>,
        log_texts: bool,
        min_height: u32,
    ) -> Result<canvas::Picture, RenderError> {
        let (view, check) = self.prepare(view, highlights, options)?;
        let view: &View = &view;
        let colours = palette::seat_colours(view);
        let Layout {
            header,
            geometry,
            legend,
            legend_top,
            cards,
            cards_top,
            seats_top,
            height,
        } = self.layout(view, highlights, &check, options.clock.as_deref());
        let height = height.max(min_height);
        if height > 4096 {
            return Err(RenderError::TooLarge(format!("{height} pixels tall")));
        }
        let background = self.background(view, &colours)?;
        let mut picture = canvas::Picture::around(
            &background,
            (header.height - BACKGROUND_PAD) as u32,
            height,
            self.palette.index(palette::BACKGROUND),
            self.palette,
            buffer,
        )?;
        if log_texts {
            let mut texts = Vec::new();
            for l in &geometry.labels {
                let w = self.fonts.measure(text::Weight::Bold, l.px, &l.text);
                let h = self.fonts.cap_height(text::Weight::Bold, l.px);
                texts.push(TextBox {
                    text: l.text.clone(),
                    px: l.px,
                    x: l.x - w / 2.0,
                    y: l.y - h / 2.0,
                    width: w,
                    height: h,
                });
            }
            picture.texts = Some(texts);
        }
        panels::draw_header(
            &mut picture,
            &self.fonts,
            &self.sprites,
            view,
            &colours,
            &header,
        );
        board::BoardPainter {
            fonts: &self.fonts,
            sprites: &self.sprites,
            view,
            colours: &colours,
            geometry: &geometry,
            highlights,
            check: &check,
        }
        .paint(&mut picture);
        let square = matches!(view.board.shape(), Shape::Grid { .. });
        legend::draw_legend(
            &mut picture,
            &self.fonts,
            &self.sprites,
            square,
            &legend,
            legend_top,
        );
        cards.draw(&mut picture, &self.fonts, &self.sprites, cards_top);
        panels::draw_seats(
            &mut picture,
            &self.fonts,
            &self.sprites,
            view,
            &colours,
            seats_top,
        );
        Ok(picture)
    }
}

/// Where the parts of a picture go (see [`Renderer::layout`]).
struct Layout {
    header: panels::Header,
    geometry: layout::Geometry,
    legend: Vec<legend::LegendEntry>,
    legend_top: f32,
    cards: cards::Cards,
    cards_top: f32,
    seats_top: f32,
    height: u32,
}

/// Cells to mark as in check: the view's (`View.check`) and those asked for.
fn in_check(view: &View, asked: &[Cell]) -> Vec<Cell> {
    let mut out: Vec<Cell> = view.check.clone();
    for &cell in asked {
        if !out.contains(&cell) {
            out.push(cell);
        }
    }
    out
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
    for roll in &view.rolls {
        seat_ok("the dice", roll.seat)?;
    }
    for &cell in &view.check {
        cell_ok("a check", cell)?;
    }
    for &(cell, _) in &view.under {
        cell_ok("a card", cell)?;
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
mod tests;
