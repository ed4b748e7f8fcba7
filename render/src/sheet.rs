//! A table as a picture: a title, column heads, rows, numbers right-aligned.
//! Generic on purpose: leaderboards draw it, and so can any standings.

use crate::canvas::{Background, EncodeBuffers, Picture, TextBox};
use crate::palette::{self, Rgb};
use crate::sketch::Sketch;
use crate::text::{Fonts, Weight};
use crate::{RenderError, Renderer, MAX_BYTES};

/// One column: its head and whether its cells are numbers (right-aligned).
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    pub head: String,
    pub numeric: bool,
}

/// What a sheet shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Sheet {
    pub title: String,
    pub columns: Vec<Column>,
    /// Each row has one cell per column (missing cells are left blank).
    pub rows: Vec<Vec<String>>,
}

/// Sizes shared with the crosstable, so both tables read alike.
pub(crate) const TITLE_PX: u16 = 26;
pub(crate) const HEAD_PX: u16 = 17;
pub(crate) const CELL_PX: u16 = 18;
pub(crate) const MARGIN: f32 = 24.0;
const GAP: f32 = 28.0;
pub(crate) const ROW_H: f32 = 32.0;
/// The size and line height of the notes under a picture's table.
pub(crate) const NOTE_PX: u16 = 14;
pub(crate) const NOTE_H: f32 = 22.0;
/// Rows drawn at most: a picture for a channel, not a database dump.
pub const MAX_ROWS: usize = 50;

/// A sketch turned into a picture of palette indices and encoded.
pub(crate) fn encode(renderer: &Renderer, sketch: &Sketch) -> Result<Vec<u8>, RenderError> {
    let (width, height) = (sketch.width(), sketch.height());
    let index = renderer.palette.indices_of_rgba(sketch.data());
    let bg = Background {
        width,
        height,
        index,
    };
    let background = renderer.palette.index(palette::BACKGROUND);
    let picture = Picture::around(&bg, 0, height, background, renderer.palette, Vec::new())?;
    let mut buffers = EncodeBuffers::default();
    let mut png = picture.encode_png(false, &mut buffers)?;
    if png.len() > MAX_BYTES {
        png = picture.encode_png(true, &mut buffers)?;
    }
    if png.len() > MAX_BYTES {
        return Err(RenderError::TooLarge(format!("{} bytes", png.len())));
    }
    Ok(png)
}

/// Draws the texts of a table picture and keeps each one's box, in drawing
/// order, so that the layout tests read back exactly what was drawn. Shared by
/// the sheet and the crosstable.
pub(crate) struct Lettering<'a> {
    fonts: &'a Fonts,
    pub texts: Vec<TextBox>,
}

impl<'a> Lettering<'a> {
    pub fn new(fonts: &'a Fonts) -> Self {
        Lettering {
            fonts,
            texts: Vec::new(),
        }
    }

    /// `s` with its baseline at `y`, from `x`.
    #[allow(clippy::too_many_arguments)]
    pub fn text(&mut self, sk: &mut Sketch, w: Weight, px: u16, x: f32, y: f32, c: Rgb, s: &str) {
        let width = self.fonts.draw(sk, w, px, x, y, c, s);
        let height = self.fonts.cap_height(w, px);
        self.texts.push(TextBox {
            text: s.to_string(),
            px,
            x,
            y: y - height,
            width,
            height,
        });
    }

    /// A column's head: bold, muted.
    pub fn head(&mut self, sk: &mut Sketch, x: f32, y: f32, s: &str) {
        self.text(sk, Weight::Bold, HEAD_PX, x, y, palette::MUTED, s);
    }

    /// A table cell: regular, ink.
    pub fn cell(&mut self, sk: &mut Sketch, x: f32, y: f32, s: &str) {
        self.text(sk, Weight::Regular, CELL_PX, x, y, palette::INK, s);
    }

    /// Lines under a table or a bracket (what its signs mean, its rules), the
    /// first one's box starting at `top`.
    pub fn notes(&mut self, sk: &mut Sketch, top: f32, notes: &[String]) {
        for (k, note) in notes.iter().enumerate() {
            let base = top + NOTE_H * (k as f32 + 1.0) - 6.0;
            self.text(
                sk,
                Weight::Regular,
                NOTE_PX,
                MARGIN,
                base,
                palette::MUTED,
                note,
            );
        }
    }

    /// The picture's title, at the top left.
    pub fn title(&mut self, sk: &mut Sketch, title: &str) {
        self.text(
            sk,
            Weight::Bold,
            TITLE_PX,
            MARGIN,
            MARGIN + 26.0,
            palette::INK,
            title,
        );
    }
}

impl Renderer {
    /// The sheet as PNG bytes.
    pub fn sheet(&self, sheet: &Sheet) -> Result<Vec<u8>, RenderError> {
        let (sketch, _) = self.draw_sheet(sheet)?;
        encode(self, &sketch)
    }

    /// The sheet's size and every text in it with its box, in drawing order:
    /// for layout checks.
    pub fn sheet_layout(&self, sheet: &Sheet) -> Result<(u32, u32, Vec<TextBox>), RenderError> {
        let (sketch, texts) = self.draw_sheet(sheet)?;
        Ok((sketch.width(), sketch.height(), texts))
    }

    fn draw_sheet(&self, sheet: &Sheet) -> Result<(Sketch, Vec<TextBox>), RenderError> {
        let rows = &sheet.rows[..sheet.rows.len().min(MAX_ROWS)];
        let cell = |r: &Vec<String>, c: usize| r.get(c).cloned().unwrap_or_default();
        let widths: Vec<f32> = sheet
            .columns
            .iter()
            .enumerate()
            .map(|(c, col)| {
                rows.iter()
                    .map(|r| self.fonts.measure(Weight::Regular, CELL_PX, &cell(r, c)))
                    .fold(
                        self.fonts.measure(Weight::Bold, HEAD_PX, &col.head),
                        f32::max,
                    )
            })
            .collect();
        let table_w = widths.iter().sum::<f32>() + GAP * widths.len().saturating_sub(1) as f32;
        let title_w = self.fonts.measure(Weight::Bold, TITLE_PX, &sheet.title);
        let width = (MARGIN * 2.0 + table_w.max(title_w)).ceil().max(240.0) as u32;
        let head_y = MARGIN + 48.0;
        let height = (head_y + ROW_H * (rows.len() as f32 + 1.0) + MARGIN).ceil() as u32;
        let mut sk = Sketch::new(width, height, palette::BACKGROUND)?;
        let mut ink = Lettering::new(&self.fonts);
        ink.title(&mut sk, &sheet.title);
        // Banded rows under a rule, so a long row reads straight across.
        for i in 0..rows.len() {
            if i % 2 == 1 {
                let y = head_y + ROW_H * (i as f32 + 1.0);
                sk.fill_rect(
                    MARGIN / 2.0,
                    y,
                    width as f32 - MARGIN,
                    ROW_H,
                    palette::PAPER,
                    1.0,
                );
            }
        }
        let rule_y = head_y + ROW_H - 4.0;
        sk.line(
            MARGIN,
            rule_y,
            width as f32 - MARGIN,
            rule_y,
            palette::MUTED,
            1.0,
            1.5,
        );
        let mut x = MARGIN;
        for (c, col) in sheet.columns.iter().enumerate() {
            let right = x + widths[c];
            let put = |s: &str, w: Weight, px: u16| {
                if col.numeric {
                    right - self.fonts.measure(w, px, s)
                } else {
                    x
                }
            };
            let hx = put(&col.head, Weight::Bold, HEAD_PX);
            ink.head(&mut sk, hx, head_y + 18.0, &col.head);
            for (i, r) in rows.iter().enumerate() {
                let s = cell(r, c);
                let y = head_y + ROW_H * (i as f32 + 1.0) + 22.0;
                let cx = put(&s, Weight::Regular, CELL_PX);
                ink.cell(&mut sk, cx, y, &s);
            }
            x = right + GAP;
        }
        Ok((sk, ink.texts))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Sheet {
        let col = |h: &str, numeric| Column {
            head: h.into(),
            numeric,
        };
        Sheet {
            title: "Arcana leaderboard".into(),
            columns: vec![col("#", true), col("Player", false), col("Rating", true)],
            rows: vec![
                vec!["1".into(), "alice".into(), "1662?".into()],
                vec!["2".into(), "bob with a long name".into(), "987".into()],
                vec!["10".into(), "carol".into(), "1500".into()],
            ],
        }
    }

    #[test]
    fn a_sheet_decodes_as_a_png_of_its_size() {
        let r = Renderer::new();
        let png = r.sheet(&sample()).unwrap();
        let (w, h, _) = r.sheet_layout(&sample()).unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let reader = decoder.read_info().unwrap();
        assert_eq!((reader.info().width, reader.info().height), (w, h));
    }

    /// Numbers line up on their right edge, names on their left, every text
    /// inside the picture and no two rows on one line.
    #[test]
    fn numbers_are_right_aligned_and_names_left_aligned() {
        let (w, h, texts) = Renderer::new().sheet_layout(&sample()).unwrap();
        let col = |head: &str, cells: &[&str]| -> Vec<TextBox> {
            let mut out = vec![texts.iter().find(|t| t.text == head).unwrap().clone()];
            for c in cells {
                out.push(texts.iter().find(|t| t.text == *c).unwrap().clone());
            }
            out
        };
        let rating = col("Rating", &["1662?", "987", "1500"]);
        let right = rating[0].x + rating[0].width;
        for t in &rating {
            assert!((t.x + t.width - right).abs() < 0.5, "{t:?} not at {right}");
        }
        let names = col("Player", &["alice", "bob with a long name", "carol"]);
        for t in &names {
            assert!((t.x - names[0].x).abs() < 0.5, "{t:?}");
        }
        assert!(names[1].y < names[2].y && names[2].y < names[3].y);
        for t in &texts {
            assert!(t.x >= 0.0 && t.x + t.width <= w as f32, "{t:?}");
            assert!(t.y >= 0.0 && t.y + t.height <= h as f32, "{t:?}");
        }
    }
}
