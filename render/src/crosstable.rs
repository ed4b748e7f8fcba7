//! A league's crosstable as a picture: one row per entrant in standing order
//! (place, pairing number, name), a grid with one column per pairing number
//! whose cells hold the results against that opponent, the entrant's own
//! cell shaded, then the points and tie-break columns.
//!
//! Drawn as the sheet is (`sheet.rs`: the same sketch, fonts and encoder).
//! Like every picture here it decides nothing: the caller gives every text
//! (results, points, tie-breaks, notes) and which cell of each row is the
//! entrant's own.

use crate::canvas::TextBox;
use crate::palette;
use crate::sheet::{encode, Lettering, CELL_PX, HEAD_PX, MARGIN, NOTE_H, NOTE_PX, ROW_H, TITLE_PX};
use crate::sketch::Sketch;
use crate::text::Weight;
use crate::{RenderError, Renderer};

/// One entrant's row.
#[derive(Clone, Debug, PartialEq)]
pub struct CrossRow {
    /// The place ("1", or "–" for results annulled).
    pub place: String,
    /// The pairing number as shown ("3").
    pub number: String,
    pub name: String,
    /// One cell per grid column, in the order of [`Crosstable::opponents`]:
    /// the results against that opponent ("1", "½ 0", "+", "" unplayed).
    pub cells: Vec<String>,
    /// The grid column that is the entrant's own, shaded (none: no shading).
    pub own: Option<usize>,
    /// One cell per [`Crosstable::tail`] head: points, tie-breaks.
    pub tail: Vec<String>,
}

/// What a crosstable shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Crosstable {
    pub title: String,
    /// The grid's column heads, the opponents' pairing numbers ("1", "2", ...).
    pub opponents: Vec<String>,
    /// The heads of the columns after the grid ("Pts", "DE", "Wins", "SB").
    pub tail: Vec<String>,
    pub rows: Vec<CrossRow>,
    /// Lines under the table: what its signs mean.
    pub notes: Vec<String>,
}

const GAP: f32 = 20.0;
/// The least width of a grid cell (room for "½ ½" at most takes more).
const MIN_CELL_W: f32 = 34.0;
const CELL_PAD: f32 = 12.0;
/// Rows and grid columns drawn at most: a league is at most 16 entrants; more
/// than this is not a league's crosstable, and is refused rather than drawn
/// unreadably.
pub const MAX_ENTRANTS: usize = 40;

impl Renderer {
    /// The crosstable as PNG bytes.
    pub fn crosstable(&self, table: &Crosstable) -> Result<Vec<u8>, RenderError> {
        let (sketch, _) = self.draw_crosstable(table)?;
        encode(self, &sketch)
    }

    /// The crosstable's size and every text in it with its box, in drawing
    /// order: for layout checks.
    pub fn crosstable_layout(
        &self,
        table: &Crosstable,
    ) -> Result<(u32, u32, Vec<TextBox>), RenderError> {
        let (sketch, texts) = self.draw_crosstable(table)?;
        Ok((sketch.width(), sketch.height(), texts))
    }

    fn draw_crosstable(&self, t: &Crosstable) -> Result<(Sketch, Vec<TextBox>), RenderError> {
        if t.rows.len() > MAX_ENTRANTS || t.opponents.len() > MAX_ENTRANTS {
            return Err(RenderError::TooLarge(format!(
                "a crosstable of {} rows and {} columns (at most {MAX_ENTRANTS})",
                t.rows.len(),
                t.opponents.len()
            )));
        }
        let regular = |s: &str| self.fonts.measure(Weight::Regular, CELL_PX, s);
        let bold = |s: &str| self.fonts.measure(Weight::Bold, HEAD_PX, s);
        let widest = |head: &str, cells: &mut dyn Iterator<Item = &String>| {
            cells.map(|c| regular(c)).fold(bold(head), f32::max)
        };
        let place_w = widest("#", &mut t.rows.iter().map(|r| &r.place));
        let number_w = widest("No", &mut t.rows.iter().map(|r| &r.number));
        let name_w = widest("Player", &mut t.rows.iter().map(|r| &r.name));
        let cell_w = t
            .rows
            .iter()
            .flat_map(|r| r.cells.iter())
            .map(|c| regular(c) + CELL_PAD)
            .chain(t.opponents.iter().map(|h| bold(h) + CELL_PAD))
            .fold(MIN_CELL_W, f32::max);
        let tail_w: Vec<f32> = t
            .tail
            .iter()
            .enumerate()
            .map(|(c, head)| widest(head, &mut t.rows.iter().filter_map(|r| r.tail.get(c))))
            .collect();
        let grid_x = MARGIN + place_w + GAP + number_w + GAP + name_w + GAP;
        let grid_w = cell_w * t.opponents.len() as f32;
        let table_w = grid_x - MARGIN + grid_w + tail_w.iter().map(|w| GAP + w).sum::<f32>();
        let title_w = self.fonts.measure(Weight::Bold, TITLE_PX, &t.title);
        let notes_w = t
            .notes
            .iter()
            .map(|n| self.fonts.measure(Weight::Regular, NOTE_PX, n))
            .fold(0.0, f32::max);
        let width = (MARGIN * 2.0 + table_w.max(title_w).max(notes_w))
            .ceil()
            .max(240.0) as u32;
        let head_y = MARGIN + 48.0;
        let grid_top = head_y + ROW_H;
        let grid_bottom = grid_top + ROW_H * t.rows.len() as f32;
        let notes_y = grid_bottom + 12.0;
        let height = (notes_y + NOTE_H * t.notes.len() as f32 + MARGIN).ceil() as u32;
        let mut sk = Sketch::new(width, height, palette::BACKGROUND)?;
        let mut ink = Lettering::new(&self.fonts);
        ink.title(&mut sk, &t.title);
        // Banded rows, as the sheet's, so a long row reads straight across.
        for i in (1..t.rows.len()).step_by(2) {
            let y = grid_top + ROW_H * i as f32;
            sk.fill_rect(
                MARGIN / 2.0,
                y,
                width as f32 - MARGIN,
                ROW_H,
                palette::PAPER,
                1.0,
            );
        }
        // The grid: a white field, each entrant's own cell shaded, thin rules.
        sk.fill_rect(
            grid_x,
            grid_top,
            grid_w,
            grid_bottom - grid_top,
            palette::PAPER,
            1.0,
        );
        for (i, row) in t.rows.iter().enumerate() {
            if let Some(own) = row.own.filter(|&c| c < t.opponents.len()) {
                sk.fill_rect(
                    grid_x + cell_w * own as f32,
                    grid_top + ROW_H * i as f32,
                    cell_w,
                    ROW_H,
                    palette::FADED,
                    1.0,
                );
            }
        }
        for c in 0..=t.opponents.len() {
            let x = grid_x + cell_w * c as f32;
            sk.line(x, grid_top, x, grid_bottom, palette::MUTED, 1.0, 1.0);
        }
        for i in 0..=t.rows.len() {
            let y = grid_top + ROW_H * i as f32;
            sk.line(grid_x, y, grid_x + grid_w, y, palette::MUTED, 1.0, 1.0);
        }
        let rule_y = head_y + ROW_H - 4.0;
        sk.line(
            MARGIN,
            rule_y,
            grid_x - GAP / 2.0,
            rule_y,
            palette::MUTED,
            1.0,
            1.5,
        );
        let head_base = head_y + 18.0;
        let row_base = |i: usize| grid_top + ROW_H * i as f32 + 22.0;
        // Place and pairing number right-aligned, names left-aligned.
        let mut x = MARGIN;
        for (head, w, cells) in [
            (
                "#",
                place_w,
                t.rows.iter().map(|r| &r.place).collect::<Vec<_>>(),
            ),
            ("No", number_w, t.rows.iter().map(|r| &r.number).collect()),
        ] {
            let right = x + w;
            ink.head(&mut sk, right - bold(head), head_base, head);
            for (i, s) in cells.into_iter().enumerate() {
                let cx = right - regular(s);
                ink.cell(&mut sk, cx, row_base(i), s);
            }
            x = right + GAP;
        }
        ink.head(&mut sk, x, head_base, "Player");
        for (i, r) in t.rows.iter().enumerate() {
            ink.cell(&mut sk, x, row_base(i), &r.name);
        }
        // The grid's heads and cells, centred in their columns.
        for (c, head) in t.opponents.iter().enumerate() {
            let mid = grid_x + cell_w * (c as f32 + 0.5);
            ink.head(&mut sk, mid - bold(head) / 2.0, head_base, head);
            for (i, r) in t.rows.iter().enumerate() {
                let Some(s) = r.cells.get(c).filter(|s| !s.is_empty()) else {
                    continue;
                };
                let cx = mid - regular(s) / 2.0;
                ink.cell(&mut sk, cx, row_base(i), s);
            }
        }
        // Points and tie-breaks, right-aligned.
        let mut x = grid_x + grid_w;
        for (c, head) in t.tail.iter().enumerate() {
            let right = x + GAP + tail_w[c];
            ink.head(&mut sk, right - bold(head), head_base, head);
            for (i, r) in t.rows.iter().enumerate() {
                let Some(s) = r.tail.get(c).filter(|s| !s.is_empty()) else {
                    continue;
                };
                let cx = right - regular(s);
                ink.cell(&mut sk, cx, row_base(i), s);
            }
            x = right;
        }
        ink.notes(&mut sk, notes_y, &t.notes);
        Ok((sk, ink.texts))
    }
}
