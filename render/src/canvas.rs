//! The picture being drawn: an opaque RGBA pixmap with the few shapes Tokar
//! needs (anti-aliased by tiny-skia), alpha-mask blits for glyphs and sprites,
//! and the PNG encoder.

// Drawing calls take a position, a size, a colour and what to draw: spelled out
// at each call rather than bundled into one-use structs.
#![allow(clippy::too_many_arguments)]

use crate::deflate;
use crate::palette::Rgb;
use crate::RenderError;
use resvg::tiny_skia::{
    Color, FillRule, IntSize, Paint, Path, PathBuilder, Pixmap, Rect, Stroke, StrokeDash, Transform,
};

pub struct Canvas {
    pub pixmap: Pixmap,
}

/// An 8-bit coverage mask with its own size, blended at an integer position.
pub struct AlphaMask {
    pub width: u32,
    pub height: u32,
    pub alpha: Vec<u8>,
}

/// A premultiplied RGBA image, blended at an integer position.
pub struct Sprite {
    pub width: u32,
    pub height: u32,
    rgba: Vec<u8>,
    /// The runs of pixels that are not fully transparent: (row, first
    /// column, column after the last). Blits skip the rest (the margins of
    /// icons, the inside of rings).
    runs: Vec<(u32, u32, u32)>,
}

impl Sprite {
    pub fn new(width: u32, height: u32, rgba: Vec<u8>) -> Sprite {
        let mut runs = Vec::new();
        for (y, row) in rgba.chunks_exact((width as usize * 4).max(1)).enumerate() {
            let mut start = None;
            for (x, px) in row.chunks_exact(4).enumerate() {
                match (start, px[3] != 0) {
                    (None, true) => start = Some(x as u32),
                    (Some(s), false) => {
                        runs.push((y as u32, s, x as u32));
                        start = None;
                    }
                    _ => {}
                }
            }
            if let Some(s) = start {
                runs.push((y as u32, s, width));
            }
        }
        Sprite {
            width,
            height,
            rgba,
            runs,
        }
    }
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

impl Canvas {
    pub fn new(width: u32, height: u32, background: Rgb) -> Result<Canvas, RenderError> {
        let too_large = || RenderError::TooLarge(format!("a {width}x{height} picture"));
        let size = IntSize::from_wh(width, height).ok_or_else(too_large)?;
        // One pass that writes the background, rather than zeroing then filling.
        let data = [background.0, background.1, background.2, 255]
            .repeat(width as usize * height as usize);
        let pixmap = Pixmap::from_vec(data, size).ok_or_else(too_large)?;
        Ok(Canvas { pixmap })
    }

    /// A fully transparent canvas, for drawing a small sprite once.
    pub fn transparent(width: u32, height: u32) -> Option<Canvas> {
        Pixmap::new(width, height).map(|pixmap| Canvas { pixmap })
    }

    /// The canvas as a premultiplied sprite.
    pub fn into_sprite(self) -> Sprite {
        Sprite::new(
            self.pixmap.width(),
            self.pixmap.height(),
            self.pixmap.take(),
        )
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

    /// Blends `colour` through a coverage mask whose top-left corner lands on (x, y).
    pub fn blend_mask(&mut self, mask: &AlphaMask, x: i32, y: i32, colour: Rgb) {
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
                let i = ((py * cw + px) * 4) as usize;
                let a = a as u32;
                let inv = 255 - a;
                data[i] = ((colour.0 as u32 * a + data[i] as u32 * inv + 127) / 255) as u8;
                data[i + 1] = ((colour.1 as u32 * a + data[i + 1] as u32 * inv + 127) / 255) as u8;
                data[i + 2] = ((colour.2 as u32 * a + data[i + 2] as u32 * inv + 127) / 255) as u8;
            }
        }
    }

    /// Composites a premultiplied sprite whose top-left corner lands on (x, y).
    pub fn blit(&mut self, sprite: &Sprite, x: i32, y: i32) {
        let (cw, ch) = (self.width() as i64, self.height() as i64);
        let (sw, x, y) = (sprite.width as usize, x as i64, y as i64);
        let data = self.pixmap.data_mut();
        for &(row, start, end) in &sprite.runs {
            let py = y + row as i64;
            // The run's columns that land on the canvas.
            let from = (x + start as i64).max(0);
            let to = (x + end as i64).min(cw);
            if py < 0 || py >= ch || from >= to {
                continue;
            }
            let d = (py * cw + from) as usize * 4;
            let s = (row as usize * sw + (from - x) as usize) * 4;
            let n = (to - from) as usize * 4;
            for (d, s) in data[d..d + n]
                .chunks_exact_mut(4)
                .zip(sprite.rgba[s..s + n].chunks_exact(4))
            {
                let a = s[3];
                if a == 255 {
                    d[..3].copy_from_slice(&s[..3]);
                    continue;
                }
                let inv = 255 - a as u32;
                for c in 0..3 {
                    d[c] = (s[c] as u32 + (d[c] as u32 * inv + 127) / 255) as u8;
                }
            }
        }
    }

    /// A canvas `height` pixels tall holding `middle` from row `y` down, the
    /// background colour above and below: written in one pass into `buffer`
    /// (a previous picture's pixels, reused rather than allocated again).
    pub fn around(
        middle: &Canvas,
        y: u32,
        height: u32,
        background: Rgb,
        mut buffer: Vec<u8>,
    ) -> Result<Canvas, RenderError> {
        let width = middle.width();
        let too_large = || RenderError::TooLarge(format!("a {width}x{height} picture"));
        let size = IntSize::from_wh(width, height).ok_or_else(too_large)?;
        let rows = middle.height().min(height.saturating_sub(y));
        let pixel = [background.0, background.1, background.2, 255];
        let line = pixel.repeat(width as usize);
        let fill = |data: &mut Vec<u8>, rows: u32| {
            for _ in 0..rows {
                data.extend_from_slice(&line);
            }
        };
        buffer.clear();
        buffer.reserve(width as usize * height as usize * 4);
        fill(&mut buffer, y.min(height));
        buffer.extend_from_slice(&middle.pixmap.data()[..(width * rows * 4) as usize]);
        fill(&mut buffer, height - y.min(height) - rows);
        let pixmap = Pixmap::from_vec(buffer, size).ok_or_else(too_large)?;
        Ok(Canvas { pixmap })
    }

    /// The canvas's pixel buffer, for reuse by [`Canvas::around`].
    pub fn into_buffer(self) -> Vec<u8> {
        self.pixmap.take()
    }

    /// The picture as a PNG: 8-bit RGB, no row filters (flat colours are
    /// matched with the row above or the pixel to the left instead).
    pub fn encode_png(
        &self,
        packing: Packing,
        scratch: &mut Scratch,
    ) -> Result<Vec<u8>, RenderError> {
        let (w, h) = (self.width(), self.height());
        let zlib = match packing {
            Packing::Fast => deflate::zlib(self.pixmap.data(), w as usize, &mut scratch.deflate),
            Packing::Smallest => {
                // Each row a filter byte (0, none) and its RGB.
                let stride = w as usize * 3 + 1;
                let mut rows = vec![0u8; stride * h as usize];
                for (d, s) in rows
                    .chunks_exact_mut(stride)
                    .zip(self.pixmap.data().chunks_exact(w as usize * 4))
                {
                    deflate::rgba_to_rgb(&mut d[1..], s);
                }
                let config = zlib_rs::DeflateConfig::new(9);
                let mut out = vec![0u8; zlib_rs::compress_bound(rows.len())];
                let (z, rc) = zlib_rs::compress_slice(&mut out, &rows, config);
                if rc != zlib_rs::ReturnCode::Ok {
                    return Err(RenderError::Encode(format!("zlib returned {rc:?}")));
                }
                z.to_vec()
            }
        };
        let mut out = Vec::with_capacity(zlib.len() + 64);
        out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
        let mut header = Vec::with_capacity(13);
        header.extend_from_slice(&w.to_be_bytes());
        header.extend_from_slice(&h.to_be_bytes());
        // 8 bits per channel, RGB, deflate, adaptive filtering (method 0), no interlace.
        header.extend_from_slice(&[8, 2, 0, 0, 0]);
        chunk(&mut out, b"IHDR", &header);
        chunk(&mut out, b"IDAT", &zlib);
        chunk(&mut out, b"IEND", &[]);
        Ok(out)
    }
}

/// Buffers a render needs, kept between renders: allocating and freeing a few
/// megabytes each time had the allocator hand them back to the system and
/// fault them in again, which cost more than the encoding.
#[derive(Default)]
pub struct Scratch {
    /// The picture's RGBA pixels.
    pub pixels: Vec<u8>,
    deflate: deflate::Scratch,
}

/// How hard to compress a picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Packing {
    /// Tokar's own row-matching encoder: the normal case.
    Fast,
    /// zlib level 9: for a picture too large otherwise.
    Smallest,
}

/// Appends one PNG chunk: length, type, data, CRC of type and data.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = zlib_rs::crc32::crc32(0, &out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The chunks of a PNG, checking each one's CRC.
    fn chunks(png: &[u8]) -> Vec<([u8; 4], Vec<u8>)> {
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let mut out = Vec::new();
        let mut at = 8;
        while at < png.len() {
            let len = u32::from_be_bytes(png[at..at + 4].try_into().unwrap()) as usize;
            let body = &png[at + 4..at + 8 + len];
            let crc = u32::from_be_bytes(png[at + 8 + len..at + 12 + len].try_into().unwrap());
            assert_eq!(zlib_rs::crc32::crc32(0, body), crc, "chunk CRC");
            out.push((body[..4].try_into().unwrap(), body[4..].to_vec()));
            at += 12 + len;
        }
        out
    }

    #[test]
    fn both_packings_give_the_same_pixels() {
        // A disc and a bar of noise on flat ground; 97 is not a multiple of 8.
        let (w, h) = (97, 150);
        let mut canvas = Canvas::new(w, h, Rgb(240, 230, 200)).unwrap();
        canvas.fill_circle(40.0, 60.0, 30.0, Rgb(20, 30, 40), 0.8);
        let mut seed = 99u32;
        for px in canvas.pixmap.data_mut()[4 * 97 * 100..4 * 97 * 110].chunks_exact_mut(4) {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            px[..3].copy_from_slice(&seed.to_le_bytes()[1..]);
        }
        let mut want = Vec::new();
        for row in canvas.pixmap.data().chunks_exact(4 * w as usize) {
            want.push(0);
            for p in row.chunks_exact(4) {
                want.extend_from_slice(&p[..3]);
            }
        }
        let mut scratch = Scratch::default();
        for packing in [Packing::Fast, Packing::Smallest] {
            let png = canvas.encode_png(packing, &mut scratch).unwrap();
            let chunks = chunks(&png);
            let kinds: Vec<&[u8; 4]> = chunks.iter().map(|(k, _)| k).collect();
            assert_eq!(kinds, [b"IHDR", b"IDAT", b"IEND"]);
            assert_eq!(chunks[0].1, [0, 0, 0, 97, 0, 0, 0, 150, 8, 2, 0, 0, 0]);
            let mut got = vec![0u8; want.len() + 1];
            let (got, rc) = zlib_rs::decompress_slice(
                &mut got,
                &chunks[1].1,
                zlib_rs::InflateConfig::default(),
            );
            assert_eq!(rc, zlib_rs::ReturnCode::Ok, "{packing:?}");
            assert_eq!(got, &want[..], "{packing:?}");
        }
    }
}
