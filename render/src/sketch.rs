//! Drawing in colour, at start-up only: the board without pieces, piece art,
//! badges and highlights are drawn once into an RGBA sketch, then turned into
//! palette indices ([`Sketch::to_sprite`]). Pictures are never drawn here.
//!
//! Shapes are drawn by imageproc. Its filled shapes are not anti-aliased, so
//! each drawing call is drawn [`SAMPLES`] times larger into coverage masks
//! (`GrayImage`s, 255 inside, 0 outside, one a 64 px tile where the shapes
//! are), averaged down to a coverage per pixel and laid over the sketch in its
//! colour (source-over); a rectangle on whole pixels needs one sample a
//! pixel. Thick lines are polygons (`shape.rs`). This costs more than a
//! scanline rasteriser, but it runs once per look, never per picture (tables
//! and charts, drawn per call, are the exception; see docs/render.md).

// Drawing calls take a position, a size, a colour and what to draw: spelled out
// at each call rather than bundled into one-use structs.
#![allow(clippy::too_many_arguments)]

use crate::canvas::Sprite;
use crate::palette::{Palette, Rgb, OPAQUE};
use crate::shape::{self, Outline, Pt};
use crate::RenderError;
use image::{GrayImage, Luma, RgbaImage};
use imageproc::drawing::{draw_filled_rect_mut, draw_polygon_mut};
use imageproc::point::Point;
use imageproc::rect::Rect;

/// Samples per pixel along each axis: 4 gives 17 coverage levels, more than
/// the 8 a prepared sprite keeps.
pub const SAMPLES: u32 = 4;

/// How far a flattened curve may stray from the true one, in pixels (a fifth
/// of a sample).
const TOLERANCE: f32 = 0.05;

/// imageproc's polygons take in every sample their edges touch, half a sample
/// more than the shape on every side: polygons are drawn this much smaller.
const HALF_SAMPLE: f32 = 0.5 / SAMPLES as f32;

/// Colours premultiplied by their alpha, as resvg draws them.
pub struct Sketch {
    pub image: RgbaImage,
}

/// An 8-bit coverage mask with its own size, blended at an integer position.
pub struct AlphaMask {
    pub width: u32,
    pub height: u32,
    pub alpha: Vec<u8>,
}

impl AlphaMask {
    /// Calls `f` for each pixel of a `width` by `height` surface that the mask covers
    /// when its top-left corner lands on (x, y), with the pixel's index (row by row) and
    /// its coverage, never 0; what falls outside the surface is skipped. One walk for the
    /// sketch's blend and the picture's, which differ only in what they do with a pixel.
    pub(crate) fn for_each_covered(
        &self,
        x: i32,
        y: i32,
        (width, height): (u32, u32),
        mut f: impl FnMut(usize, u8),
    ) {
        let (cw, ch) = (width as i32, height as i32);
        for my in 0..self.height as i32 {
            let py = y + my;
            if py < 0 || py >= ch {
                continue;
            }
            let row = &self.alpha[(my as u32 * self.width) as usize..][..self.width as usize];
            for (mx, &a) in row.iter().enumerate() {
                let px = x + mx as i32;
                if a == 0 || px < 0 || px >= cw {
                    continue;
                }
                f((py * cw + px) as usize, a);
            }
        }
    }
}

/// One drawing call's coverage: a mask of `samples` by `samples` a pixel
/// over the pixels from (`left`, `top`), `width` by `height`.
struct Coverage {
    left: i32,
    top: i32,
    width: u32,
    height: u32,
    samples: u32,
    mask: GrayImage,
}

/// A sample inside the shape.
const IN: Luma<u8> = Luma([255]);

/// What a drawing call marks in its mask, in pixels: a rectangle (exact to
/// the sample) or a polygon (drawn half a sample smaller already).
enum Mark {
    Rect(f32, f32, f32, f32),
    Polygon(Vec<Pt>),
}

impl Mark {
    /// The outline's marks: a rectangle as it is, other shapes as a polygon.
    fn of(outline: Outline) -> Vec<Mark> {
        match outline {
            Outline::Rect { x, y, w, h } => vec![Mark::Rect(x, y, w, h)],
            _ => outline
                .grown(-HALF_SAMPLE)
                .map(|o| Mark::Polygon(o.points(TOLERANCE)))
                .into_iter()
                .collect(),
        }
    }

    /// Left, top, right, bottom.
    fn bounds(&self) -> (f32, f32, f32, f32) {
        match self {
            Mark::Rect(x, y, w, h) => (*x, *y, x + w, y + h),
            Mark::Polygon(p) => p.iter().fold(
                (
                    f32::INFINITY,
                    f32::INFINITY,
                    f32::NEG_INFINITY,
                    f32::NEG_INFINITY,
                ),
                |(l, t, r, b), &(x, y)| (l.min(x), t.min(y), r.max(x), b.max(y)),
            ),
        }
    }
}

/// Masks are made a tile of this many pixels square at a time, and only
/// where a shape is: a ring as large as the web would otherwise take a mask
/// of millions of samples, nearly all empty. Tiles split pixels, not shapes,
/// so every pixel gets its whole coverage from one mask and no seam shows.
const TILE: i32 = 64;

/// The pixels a box touches (and one more on each side), within `w` by `h`.
fn pixel_box(bounds: (f32, f32, f32, f32), w: u32, h: u32) -> Option<(i32, i32, i32, i32)> {
    let (l, t, r, b) = bounds;
    if ![l, t, r, b].iter().all(|v| v.is_finite()) {
        return None;
    }
    let left = (l.floor() as i64 - 1).clamp(0, w as i64) as i32;
    let top = (t.floor() as i64 - 1).clamp(0, h as i64) as i32;
    let right = (r.ceil() as i64 + 1).clamp(0, w as i64) as i32;
    let bottom = (b.ceil() as i64 + 1).clamp(0, h as i64) as i32;
    (right > left && bottom > top).then_some((left, top, right, bottom))
}

impl Coverage {
    /// A blank mask over the pixels of `tile` (left, top, right, bottom).
    fn new(tile: (i32, i32, i32, i32), samples: u32) -> Coverage {
        let (left, top, right, bottom) = tile;
        let (width, height) = ((right - left) as u32, (bottom - top) as u32);
        Coverage {
            left,
            top,
            width,
            height,
            samples,
            mask: GrayImage::new(width * samples, height * samples),
        }
    }

    fn mark(&mut self, mark: &Mark) {
        match mark {
            Mark::Rect(x, y, w, h) => self.rect(*x, *y, *w, *h),
            Mark::Polygon(poly) => self.polygon(poly),
        }
    }

    /// A point in the mask's samples, counted from the first sample's middle.
    fn sample(&self, p: Pt) -> Point<i32> {
        let s = self.samples as f32;
        // Halves round up wherever the tile begins (`round` would take them
        // away from nought, down left of a tile's corner).
        let at = |v: f32, origin: i32| ((v - origin as f32) * s).floor() as i32;
        Point::new(at(p.0, self.left), at(p.1, self.top))
    }

    /// Marks the samples inside `poly`.
    fn polygon(&mut self, poly: &[Pt]) {
        let mut pts: Vec<Point<i32>> = Vec::with_capacity(poly.len());
        for &p in poly {
            let q = self.sample(p);
            if pts.last() != Some(&q) {
                pts.push(q);
            }
        }
        while pts.len() > 1 && pts.first() == pts.last() {
            pts.pop();
        }
        // imageproc draws nothing sensible of fewer points, and panics when
        // the first and last are one point.
        if pts.len() >= 3 {
            draw_polygon_mut(&mut self.mask, &pts, IN);
        }
    }

    /// Marks the samples whose middles lie inside the rectangle (exact, so
    /// not made smaller like polygons).
    fn rect(&mut self, x: f32, y: f32, w: f32, h: f32) {
        let s = self.samples as f32;
        let first = |v: f32, origin: i32| ((v - origin as f32) * s - 0.5).ceil() as i64;
        let (x0, y0) = (first(x, self.left), first(y, self.top));
        let (x1, y1) = (first(x + w, self.left), first(y + h, self.top));
        let clamp = |v: i64, max: u32| v.clamp(0, max as i64);
        let (x0, x1) = (clamp(x0, self.mask.width()), clamp(x1, self.mask.width()));
        let (y0, y1) = (clamp(y0, self.mask.height()), clamp(y1, self.mask.height()));
        if x1 > x0 && y1 > y0 {
            let r = Rect::at(x0 as i32, y0 as i32).of_size((x1 - x0) as u32, (y1 - y0) as u32);
            draw_filled_rect_mut(&mut self.mask, r, IN);
        }
    }

    /// The coverage of each pixel, 0..=255.
    fn levels(self) -> Vec<u8> {
        if self.samples == 1 {
            return self.mask.into_raw();
        }
        let (s, mw) = (self.samples as usize, self.mask.width() as usize);
        let full = (s * s * 255) as u32;
        let mut out = vec![0u8; (self.width * self.height) as usize];
        let mut sums = vec![0u32; self.width as usize];
        // Each pixel's samples summed a row of samples at a time.
        for (row, band) in out
            .chunks_exact_mut(self.width as usize)
            .zip(self.mask.as_raw().chunks_exact(s * mw))
        {
            sums.fill(0);
            for samples in band.chunks_exact(mw) {
                for (sum, pixel) in sums.iter_mut().zip(samples.chunks_exact(s)) {
                    *sum += pixel.iter().map(|&v| v as u32).sum::<u32>();
                }
            }
            for (level, &sum) in row.iter_mut().zip(&sums) {
                *level = ((sum * 255 + full / 2) / full) as u8;
            }
        }
        out
    }
}

impl Sketch {
    pub fn new(width: u32, height: u32, background: Rgb) -> Result<Sketch, RenderError> {
        let too_large = || RenderError::TooLarge(format!("a {width}x{height} picture"));
        let n = (width as usize)
            .checked_mul(height as usize)
            .filter(|&n| n > 0 && n <= i32::MAX as usize / 4)
            .ok_or_else(too_large)?;
        // One pass that writes the background, rather than zeroing then filling.
        let data = [background.0, background.1, background.2, 255].repeat(n);
        let image = RgbaImage::from_raw(width, height, data).ok_or_else(too_large)?;
        Ok(Sketch { image })
    }

    /// A fully transparent canvas, for drawing a small sprite once.
    pub fn transparent(width: u32, height: u32) -> Option<Sketch> {
        (width > 0 && height > 0 && (width as u64 * height as u64) <= i32::MAX as u64 / 4).then(
            || Sketch {
                image: RgbaImage::new(width, height),
            },
        )
    }

    /// A sketch of premultiplied RGBA pixels, row by row.
    pub fn from_premultiplied(width: u32, height: u32, rgba: Vec<u8>) -> Option<Sketch> {
        RgbaImage::from_raw(width, height, rgba).map(|image| Sketch { image })
    }

    pub fn width(&self) -> u32 {
        self.image.width()
    }

    pub fn height(&self) -> u32 {
        self.image.height()
    }

    /// The premultiplied RGBA pixels, row by row.
    pub fn data(&self) -> &[u8] {
        self.image.as_raw()
    }

    /// Draws `colour` through the coverage of `marks`, at `samples` by
    /// `samples` a pixel, tile by tile.
    fn paint(&mut self, marks: &[Mark], samples: u32, colour: Rgb, alpha: f32) {
        let alpha = alpha.clamp(0.0, 1.0);
        if alpha == 0.0 || marks.is_empty() {
            return;
        }
        let (w, h) = (self.width(), self.height());
        let boxes: Vec<Option<(i32, i32, i32, i32)>> =
            marks.iter().map(|m| pixel_box(m.bounds(), w, h)).collect();
        let Some((left, top, right, bottom)) = boxes
            .iter()
            .flatten()
            .copied()
            .reduce(|a, b| (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3)))
        else {
            return;
        };
        // The alpha of each coverage level, and the pixel a whole one makes.
        let opacity: Vec<u32> = (0..=255u32)
            .map(|l| (l as f32 * alpha).round() as u32)
            .collect();
        let solid = [colour.0, colour.1, colour.2, 255];
        for ty in (top..bottom).step_by(TILE as usize) {
            for tx in (left..right).step_by(TILE as usize) {
                let tile = (tx, ty, (tx + TILE).min(right), (ty + TILE).min(bottom));
                let meets = |b: &(i32, i32, i32, i32)| {
                    b.0 < tile.2 && b.2 > tile.0 && b.1 < tile.3 && b.3 > tile.1
                };
                let mut cov = None;
                for (mark, b) in marks.iter().zip(&boxes) {
                    if b.as_ref().is_some_and(meets) {
                        cov.get_or_insert_with(|| Coverage::new(tile, samples))
                            .mark(mark);
                    }
                }
                if let Some(cov) = cov {
                    self.lay(cov, &opacity, &solid, colour);
                }
            }
        }
    }

    /// Lays a coverage mask over the sketch.
    fn lay(&mut self, cov: Coverage, opacity: &[u32], solid: &[u8; 4], colour: Rgb) {
        let (left, top, cw) = (cov.left as usize, cov.top as usize, cov.width as usize);
        let levels = cov.levels();
        let width = self.width() as usize;
        let data: &mut [u8] = &mut self.image;
        for (y, row) in levels.chunks_exact(cw).enumerate() {
            let start = ((top + y) * width + left) * 4;
            for (x, &level) in row.iter().enumerate() {
                let a = opacity[level as usize];
                let px = &mut data[start + x * 4..start + x * 4 + 4];
                match a {
                    0 => {}
                    255 => px.copy_from_slice(solid),
                    _ => over(px, colour, a),
                }
            }
        }
    }

    pub fn fill_rect(&mut self, x: f32, y: f32, w: f32, h: f32, colour: Rgb, alpha: f32) {
        if let Some(r) = Outline::rect(x, y, w, h) {
            self.fill(r, colour, alpha);
        }
    }

    pub fn fill(&mut self, outline: Outline, colour: Rgb, alpha: f32) {
        // A rectangle on whole pixels covers each pixel wholly or not at all:
        // one sample a pixel draws it exactly (the tables' and charts'
        // backgrounds and bands, drawn per call, stay as cheap as before).
        let whole = |v: f32| v.fract() == 0.0;
        let samples = match outline {
            Outline::Rect { x, y, w, h } if [x, y, w, h].into_iter().all(whole) => 1,
            _ => SAMPLES,
        };
        self.paint(&Mark::of(outline), samples, colour, alpha);
    }

    /// A line `width` wide along the outline, its middle on the outline:
    /// mitred corners, and dashes `dash` long with gaps of 0.8 `dash` when
    /// asked.
    pub fn stroke(
        &mut self,
        outline: Outline,
        colour: Rgb,
        alpha: f32,
        width: f32,
        dash: Option<f32>,
    ) {
        let half = width / 2.0;
        // Also refuses a width that is not a number.
        if half.is_nan() || half <= 0.0 {
            return;
        }
        let centre = outline.points(TOLERANCE);
        let pieces = match dash {
            Some(d) => shape::dashes(&centre, d, d * 0.8)
                .iter()
                .flat_map(|piece| {
                    let piece = shape::trimmed(piece, HALF_SAMPLE);
                    shape::stroke(&piece, false, half - HALF_SAMPLE)
                })
                .collect(),
            None => shape::stroke(&centre, true, half - HALF_SAMPLE),
        };
        let marks: Vec<Mark> = pieces.into_iter().map(Mark::Polygon).collect();
        self.paint(&marks, SAMPLES, colour, alpha);
    }

    pub fn fill_circle(&mut self, cx: f32, cy: f32, r: f32, colour: Rgb, alpha: f32) {
        if let Some(c) = Outline::circle(cx, cy, r) {
            self.fill(c, colour, alpha);
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
        if let Some(c) = Outline::circle(cx, cy, r) {
            self.stroke(c, colour, alpha, width, dash);
        }
    }

    /// A straight line `width` wide with square ends flush with its end points.
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
        let ends = shape::trimmed(&[(x0, y0), (x1, y1)], HALF_SAMPLE);
        let marks: Vec<Mark> = shape::stroke(&ends, false, width / 2.0 - HALF_SAMPLE)
            .into_iter()
            .map(Mark::Polygon)
            .collect();
        self.paint(&marks, SAMPLES, colour, alpha);
    }

    /// The sketch as prepared indices: each pixel's nearest palette entry
    /// and how much of it covers (premultiplied colours are divided back out).
    pub fn to_sprite(&self, palette: &Palette) -> Sprite {
        let (w, h) = (self.width(), self.height());
        let n = (w * h) as usize;
        let mut index = vec![0u8; n];
        let mut level = vec![0u8; n];
        for (i, px) in self.data().chunks_exact(4).enumerate() {
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

/// `colour` at alpha `a` (0..=255) over a premultiplied pixel.
fn over(px: &mut [u8], colour: Rgb, a: u32) {
    let inv = 255 - a;
    let mix = |s: u8, d: u8| ((s as u32 * a + d as u32 * inv + 127) / 255) as u8;
    px[0] = mix(colour.0, px[0]);
    px[1] = mix(colour.1, px[1]);
    px[2] = mix(colour.2, px[2]);
    px[3] = mix(255, px[3]);
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
        let size = (self.width(), self.height());
        let data: &mut [u8] = &mut self.image;
        mask.for_each_covered(x, y, size, |pixel, a| {
            let i = pixel * 4;
            over(&mut data[i..i + 4], colour, a as u32);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::palette::INK;

    /// The alpha of every pixel, summed: the area drawn, in pixels.
    fn area(s: &Sketch) -> f32 {
        s.data().chunks_exact(4).map(|p| p[3] as f32 / 255.0).sum()
    }

    fn alpha(s: &Sketch, x: u32, y: u32) -> u8 {
        s.image.get_pixel(x, y).0[3]
    }

    #[test]
    fn rectangles_cover_their_edge_pixels_in_part() {
        let mut s = Sketch::transparent(10, 10).expect("a sketch");
        s.fill_rect(2.5, 2.5, 4.0, 4.0, INK, 1.0);
        assert_eq!(alpha(&s, 3, 3), 255);
        assert_eq!(alpha(&s, 2, 4), 128, "half of a pixel");
        assert_eq!(alpha(&s, 2, 2), 64, "a quarter in the corner");
        assert_eq!(alpha(&s, 7, 7), 0);
        assert!((area(&s) - 16.0).abs() < 0.05, "{}", area(&s));
    }

    #[test]
    fn circles_and_rings_cover_their_area() {
        // imageproc's polygons take in half a sample too many on every side:
        // 2.5 % of this disc's area, were it not made up for.
        let mut s = Sketch::transparent(40, 40).expect("a sketch");
        s.fill_circle(20.3, 19.6, 10.0, INK, 1.0);
        let disc = std::f32::consts::PI * 100.0;
        assert!((area(&s) - disc).abs() / disc < 0.01, "{}", area(&s));
        assert_eq!(alpha(&s, 20, 20), 255);
        let mut s = Sketch::transparent(40, 40).expect("a sketch");
        s.stroke_circle(20.0, 20.0, 12.0, INK, 1.0, 3.0, None);
        let band = std::f32::consts::PI * (13.5f32.powi(2) - 10.5f32.powi(2));
        assert!((area(&s) - band).abs() / band < 0.02, "{}", area(&s));
        assert_eq!(alpha(&s, 20, 20), 0, "the middle stays clear");
        // Dashes 4 on and 3.2 off round 75.4 px: ten whole and 3.4 px of
        // the eleventh, which joins the first.
        let mut d = Sketch::transparent(40, 40).expect("a sketch");
        d.stroke_circle(20.0, 20.0, 12.0, INK, 1.0, 3.0, Some(4.0));
        let share = area(&d) / area(&s);
        let drawn = (10.0 * 4.0 + 3.4) / (24.0 * std::f32::consts::PI);
        assert!((share - drawn).abs() < 0.02, "{share} against {drawn}");
    }

    #[test]
    fn shapes_over_many_tiles_show_no_seams() {
        let mut s = Sketch::transparent(240, 240).expect("a sketch");
        s.fill_rect(10.5, 10.25, 190.0, 190.0, INK, 1.0);
        // Each of the 760 edge pixels' alpha is rounded to a 255th.
        assert!((area(&s) - 190.0 * 190.0).abs() < 1.5, "{}", area(&s));
        for i in 11..200 {
            assert_eq!(alpha(&s, i, 100), 255, "({i}, 100)");
            assert_eq!(alpha(&s, 100, i), 255, "(100, {i})");
        }
        let mut s = Sketch::transparent(240, 240).expect("a sketch");
        s.stroke_circle(120.0, 120.0, 100.0, INK, 1.0, 6.0, None);
        let band = std::f32::consts::PI * (103.0f32.powi(2) - 97.0f32.powi(2));
        assert!((area(&s) - band).abs() / band < 0.01, "{}", area(&s));
        // Across the band's middle, wherever tiles meet, every pixel is whole.
        for y in 60..180 {
            let x = (120.0 + (100.0f32.powi(2) - (y as f32 + 0.5 - 120.0).powi(2)).sqrt()) as u32;
            assert_eq!(alpha(&s, x, y), 255, "({x}, {y})");
        }
    }

    #[test]
    fn lines_are_as_wide_as_asked_and_alpha_scales_coverage() {
        let mut s = Sketch::transparent(30, 30).expect("a sketch");
        s.line(5.0, 5.0, 25.0, 25.0, INK, 0.5, 2.0);
        let expected = 0.5 * 2.0 * 20.0 * std::f32::consts::SQRT_2;
        assert!(
            (area(&s) - expected).abs() / expected < 0.03,
            "{}",
            area(&s)
        );
        assert_eq!(alpha(&s, 15, 15), 128);
        // Nothing drawn for shapes that are not there.
        let mut s = Sketch::transparent(10, 10).expect("a sketch");
        s.fill_circle(5.0, 5.0, f32::NAN, INK, 1.0);
        s.stroke_circle(5.0, 5.0, 3.0, INK, 1.0, -1.0, None);
        s.line(1.0, 1.0, 1.0, 1.0, INK, 1.0, 2.0);
        s.fill_rect(-50.0, -50.0, 10.0, 10.0, INK, 1.0);
        assert_eq!(area(&s), 0.0);
    }
}
