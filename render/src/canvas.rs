//! The picture being drawn: an opaque RGBA pixmap with the few shapes Tokar
//! needs (anti-aliased by tiny-skia), alpha-mask blits for glyphs and sprites,
//! and the PNG encoder.

// Drawing calls take a position, a size, a colour and what to draw: spelled out
// at each call rather than bundled into one-use structs.
#![allow(clippy::too_many_arguments)]

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
    pub rgba: Vec<u8>,
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
        Sprite {
            width: self.pixmap.width(),
            height: self.pixmap.height(),
            rgba: self.pixmap.take(),
        }
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
        let (cw, ch) = (self.width() as i32, self.height() as i32);
        let x0 = x.max(0);
        let x1 = (x + sprite.width as i32).min(cw);
        if x0 >= x1 {
            return;
        }
        let data = self.pixmap.data_mut();
        for sy in 0..sprite.height as i32 {
            let py = y + sy;
            if py < 0 || py >= ch {
                continue;
            }
            let src = &sprite.rgba[((sy as u32 * sprite.width) * 4) as usize..];
            let dst = &mut data[((py * cw) * 4) as usize..];
            for px in x0..x1 {
                let s = ((px - x) * 4) as usize;
                let a = src[s + 3] as u32;
                if a == 0 {
                    continue;
                }
                let d = (px * 4) as usize;
                if a == 255 {
                    dst[d..d + 3].copy_from_slice(&src[s..s + 3]);
                    continue;
                }
                let inv = 255 - a;
                for c in 0..3 {
                    dst[d + c] = (src[s + c] as u32 + (dst[d + c] as u32 * inv + 127) / 255) as u8;
                }
            }
        }
    }

    /// A canvas `height` pixels tall holding `middle` from row `y` down, the
    /// background colour above and below: written in one pass.
    pub fn around(
        middle: &Canvas,
        y: u32,
        height: u32,
        background: Rgb,
    ) -> Result<Canvas, RenderError> {
        let width = middle.width();
        let too_large = || RenderError::TooLarge(format!("a {width}x{height} picture"));
        let size = IntSize::from_wh(width, height).ok_or_else(too_large)?;
        let rows = middle.height().min(height.saturating_sub(y));
        let pixel = [background.0, background.1, background.2, 255];
        let mut data = Vec::with_capacity(width as usize * height as usize * 4);
        data.extend_from_slice(&pixel.repeat(width as usize * y.min(height) as usize));
        data.extend_from_slice(&middle.pixmap.data()[..(width * rows * 4) as usize]);
        let rest = height - y.min(height) - rows;
        data.extend_from_slice(&pixel.repeat(width as usize * rest as usize));
        let pixmap = Pixmap::from_vec(data, size).ok_or_else(too_large)?;
        Ok(Canvas { pixmap })
    }

    /// The picture as a PNG: 8-bit RGB, zlib level `level`, no row filter (on flat
    /// board colours, plain LZ matches beat filtered rows at fast levels).
    pub fn encode_png(&self, level: u8) -> Result<Vec<u8>, RenderError> {
        let (w, h) = (self.width(), self.height());
        let data = self.pixmap.data();
        let mut rgb = vec![0u8; data.len() / 4 * 3];
        // Four pixels at a time, as fixed-size arrays the compiler turns into shuffles.
        for (d, s) in rgb.chunks_exact_mut(12).zip(data.chunks_exact(16)) {
            let s: &[u8; 16] = s.try_into().expect("16 bytes");
            let d: &mut [u8; 12] = d.try_into().expect("12 bytes");
            *d = [
                s[0], s[1], s[2], s[4], s[5], s[6], s[8], s[9], s[10], s[12], s[13], s[14],
            ];
        }
        let done = data.len() / 16 * 4;
        for (d, s) in rgb[done * 3..]
            .chunks_exact_mut(3)
            .zip(data[done * 4..].chunks_exact(4))
        {
            d.copy_from_slice(&s[..3]);
        }
        let mut out = Vec::with_capacity(64 * 1024);
        {
            let mut enc = png::Encoder::new(&mut out, w, h);
            enc.set_color(png::ColorType::Rgb);
            enc.set_depth(png::BitDepth::Eight);
            enc.set_deflate_compression(png::DeflateCompression::Level(level));
            enc.set_filter(png::Filter::NoFilter);
            let mut writer = enc
                .write_header()
                .map_err(|e| RenderError::Encode(e.to_string()))?;
            writer
                .write_image_data(&rgb)
                .map_err(|e| RenderError::Encode(e.to_string()))?;
            writer
                .finish()
                .map_err(|e| RenderError::Encode(e.to_string()))?;
        }
        Ok(out)
    }
}
