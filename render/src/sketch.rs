//! Drawing in colour, at start-up only: the board without pieces, piece art,
//! badges and highlights are drawn once with tiny-skia (anti-aliased) into an
//! RGBA sketch, then turned into palette indices ([`Sketch::to_sprite`]).
//! Pictures are never drawn here.

// Drawing calls take a position, a size, a colour and what to draw: spelled out
// at each call rather than bundled into one-use structs.
#![allow(clippy::too_many_arguments)]

use crate::canvas::Sprite;
use crate::palette::{Palette, Rgb, OPAQUE};
use crate::RenderError;
use resvg::tiny_skia::{
    Color, FillRule, IntSize, Paint, Path, PathBuilder, Pixmap, Rect, Stroke, StrokeDash, Transform,
};

pub struct Sketch {
    pub pixmap: Pixmap,
}

/// An 8-bit coverage mask with its own size, blended at an integer position.
pub struct AlphaMask {
    pub width: u32,
    pub height: u32,
    pub alpha: Vec<u8>,
}

fn paint(colour: Rgb, alpha: f32) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color(Color::from_rgba8(
        colour.0,
        colour.1,
        colour.2,
        (alpha.clamp(0.0, 1.0) * 255.0).round() as u8,
    ));
    p.anti_alias = true;
    p
}

impl Sketch {
    pub fn new(width: u32, height: u32, background: Rgb) -> Result<Sketch, RenderError> {
        let too_large = || RenderError::TooLarge(format!("a {width}x{height} picture"));
        let size = IntSize::from_wh(width, height).ok_or_else(too_large)?;
        // One pass that writes the background, rather than zeroing then filling.
        let data = [background.0, background.1, background.2, 255]
            .repeat(width as usize * height as usize);
        let pixmap = Pixmap::from_vec(data, size).ok_or_else(too_large)?;
        Ok(Sketch { pixmap })
    }

    /// A fully transparent canvas, for drawing a small sprite once.
    pub fn transparent(width: u32, height: u32) -> Option<Sketch> {
        Pixmap::new(width, height).map(|pixmap| Sketch { pixmap })
    }

    pub fn width(&self) -> u32 {
        self.pixmap.width()
    }

    pub fn height(&self) -> u32 {
        self.pixmap.height()
    }

    pub fn fill_rect(&mut self, x: f32, y: f32, w: f32, h: f32, colour: Rgb, alpha: f32) {
        if let Some(r) = Rect::from_xywh(x, y, w, h) {
            self.pixmap
                .fill_rect(r, &paint(colour, alpha), Transform::identity(), None);
        }
    }

    pub fn fill_path(&mut self, path: &Path, colour: Rgb, alpha: f32) {
        self.pixmap.fill_path(
            path,
            &paint(colour, alpha),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    }

    pub fn stroke_path(
        &mut self,
        path: &Path,
        colour: Rgb,
        alpha: f32,
        width: f32,
        dash: Option<f32>,
    ) {
        let stroke = Stroke {
            width,
            dash: dash.and_then(|d| StrokeDash::new(vec![d, d * 0.8], 0.0)),
            ..Stroke::default()
        };
        self.pixmap.stroke_path(
            path,
            &paint(colour, alpha),
            &stroke,
            Transform::identity(),
            None,
        );
    }

    pub fn fill_circle(&mut self, cx: f32, cy: f32, r: f32, colour: Rgb, alpha: f32) {
        if let Some(p) = PathBuilder::from_circle(cx, cy, r) {
            self.fill_path(&p, colour, alpha);
        }
    }

    pub fn stroke_circle(
        &mut self,
        cx: f32,
        cy: f32,
        r: f32,
        colour: Rgb,
        alpha: f32,
        width: f32,
        dash: Option<f32>,
    ) {
        if let Some(p) = PathBuilder::from_circle(cx, cy, r) {
            self.stroke_path(&p, colour, alpha, width, dash);
        }
    }

    pub fn line(
        &mut self,
        x0: f32,
        y0: f32,
        x1: f32,
        y1: f32,
        colour: Rgb,
        alpha: f32,
        width: f32,
    ) {
        let mut pb = PathBuilder::new();
        pb.move_to(x0, y0);
        pb.line_to(x1, y1);
        if let Some(p) = pb.finish() {
            self.stroke_path(&p, colour, alpha, width, None);
        }
    }

    /// A rectangle with rounded corners.
    pub fn rounded_rect(x: f32, y: f32, w: f32, h: f32, r: f32) -> Option<Path> {
        let r = r.min(w / 2.0).min(h / 2.0).max(0.0);
        let k = 0.447_715 * r; // (1 - 0.552285) * r: cubic approximation of a quarter circle
        let mut pb = PathBuilder::new();
        pb.move_to(x + r, y);
        pb.line_to(x + w - r, y);
        pb.cubic_to(x + w - k, y, x + w, y + k, x + w, y + r);
        pb.line_to(x + w, y + h - r);
        pb.cubic_to(x + w, y + h - k, x + w - k, y + h, x + w - r, y + h);
        pb.line_to(x + r, y + h);
        pb.cubic_to(x + k, y + h, x, y + h - k, x, y + h - r);
        pb.line_to(x, y + r);
        pb.cubic_to(x, y + k, x + k, y, x + r, y);
        pb.close();
        pb.finish()
    }

    /// The sketch as prepared indices: each pixel's nearest palette entry
    /// and how much of it covers (premultiplied colours are divided back out).
    pub fn to_sprite(&self, palette: &Palette) -> Sprite {
        let (w, h) = (self.width(), self.height());
        let n = (w * h) as usize;
        let mut index = vec![0u8; n];
        let mut level = vec![0u8; n];
        for (i, px) in self.pixmap.data().chunks_exact(4).enumerate() {
            let a = px[3] as u32;
            if a == 0 {
                continue;
            }
            let l = ((a * OPAQUE as u32 + 127) / 255) as u8;
            if l == 0 {
                continue;
            }
            let un = |c: u8| ((c as u32 * 255 + a / 2) / a).min(255) as u8;
            index[i] = palette.index(Rgb(un(px[0]), un(px[1]), un(px[2])));
            level[i] = l;
        }
        Sprite::new(w, h, index, level)
    }
}

/// Drawing with coverage masks (glyphs), on a sketch or on the picture.
pub trait Surface {
    /// Blends `colour` through a coverage mask whose top-left corner lands on (x, y).
    fn blend_mask(&mut self, mask: &AlphaMask, x: i32, y: i32, colour: Rgb);

    /// Notes that text was put at this box (the picture keeps a list when asked).
    fn note_text(&mut self, _px: u16, _x: f32, _y: f32, _w: f32, _h: f32, _text: &str) {}
}

impl Surface for Sketch {
    fn blend_mask(&mut self, mask: &AlphaMask, x: i32, y: i32, colour: Rgb) {
        let (cw, ch) = (self.width() as i32, self.height() as i32);
        let data = self.pixmap.data_mut();
        for my in 0..mask.height as i32 {
            let py = y + my;
            if py < 0 || py >= ch {
                continue;
            }
            let row = &mask.alpha[(my as u32 * mask.width) as usize..][..mask.width as usize];
            for (mx, &a) in row.iter().enumerate() {
                let px = x + mx as i32;
                if a == 0 || px < 0 || px >= cw {
                    continue;
                }
                // Premultiplied source over premultiplied destination.
                let i = ((py * cw + px) * 4) as usize;
                let a = a as u32;
                let inv = 255 - a;
                let over = |s: u8, d: u8| ((s as u32 * a + d as u32 * inv + 127) / 255) as u8;
                data[i] = over(colour.0, data[i]);
                data[i + 1] = over(colour.1, data[i + 1]);
                data[i + 2] = over(colour.2, data[i + 2]);
                data[i + 3] = over(255, data[i + 3]);
            }
        }
    }
}
