//! Labels in DejaVu Sans (embedded), rasterised once per character and size and
//! blended as coverage masks.

// Drawing calls take a position, a size, a colour and what to draw: spelled out
// at each call rather than bundled into one-use structs.
#![allow(clippy::too_many_arguments)]

use crate::palette::Rgb;
use crate::sketch::{AlphaMask, Surface};
use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

static REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
static BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Weight {
    Regular,
    Bold,
}

/// One rasterised character: its coverage and where it sits relative to the pen
/// on the baseline.
struct GlyphImage {
    mask: AlphaMask,
    left: i32,
    top: i32,
    advance: f32,
}

pub struct Fonts {
    regular: FontRef<'static>,
    bold: FontRef<'static>,
    cache: Mutex<HashMap<(Weight, char, u16), Arc<GlyphImage>>>,
}

impl Fonts {
    pub fn new() -> Fonts {
        Fonts {
            // The fonts are part of the binary and known to parse: a failure here is a build defect.
            regular: FontRef::try_from_slice(REGULAR).expect("embedded DejaVuSans.ttf parses"),
            bold: FontRef::try_from_slice(BOLD).expect("embedded DejaVuSans-Bold.ttf parses"),
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// Rasterises the characters the pictures use, at the sizes they use, so
    /// that pictures only copy glyphs (others are rasterised when first met).
    pub fn prepare(&self) {
        let sizes: [(Weight, &[u16]); 2] = [
            (Weight::Regular, &[13, 14, 15, 16, 18]),
            (Weight::Bold, &[13, 14, 15, 16, 17, 18, 20, 24]),
        ];
        for (weight, sizes) in sizes {
            for &px in sizes {
                for c in (' '..='~').chain(['▶', '★', '…']) {
                    self.glyph(weight, c, px);
                }
            }
        }
    }

    fn font(&self, weight: Weight) -> &FontRef<'static> {
        match weight {
            Weight::Regular => &self.regular,
            Weight::Bold => &self.bold,
        }
    }

    fn glyph(&self, weight: Weight, c: char, px: u16) -> Arc<GlyphImage> {
        let key = (weight, c, px);
        if let Some(g) = self
            .cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return g.clone();
        }
        let font = self.font(weight);
        let scaled = font.as_scaled(PxScale::from(px as f32));
        let id = scaled.glyph_id(c);
        let advance = scaled.h_advance(id);
        let glyph = id.with_scale_and_position(px as f32, ab_glyph::point(0.0, 0.0));
        let image = match font.outline_glyph(glyph) {
            Some(outlined) => {
                let b = outlined.px_bounds();
                let (w, h) = (b.width() as u32, b.height() as u32);
                let mut alpha = vec![0u8; (w * h) as usize];
                outlined.draw(|x, y, c| {
                    if x < w && y < h {
                        alpha[(y * w + x) as usize] = (c.clamp(0.0, 1.0) * 255.0).round() as u8;
                    }
                });
                GlyphImage {
                    mask: AlphaMask {
                        width: w,
                        height: h,
                        alpha,
                    },
                    left: b.min.x as i32,
                    top: b.min.y as i32,
                    advance,
                }
            }
            None => GlyphImage {
                mask: AlphaMask {
                    width: 0,
                    height: 0,
                    alpha: Vec::new(),
                },
                left: 0,
                top: 0,
                advance,
            },
        };
        let image = Arc::new(image);
        self.cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, image.clone());
        image
    }

    /// Width of `text` in pixels.
    pub fn measure(&self, weight: Weight, px: u16, text: &str) -> f32 {
        text.chars()
            .map(|c| self.glyph(weight, c, px).advance)
            .sum()
    }

    /// Distance from the baseline to the top of capitals, for centring text vertically.
    pub fn cap_height(&self, weight: Weight, px: u16) -> f32 {
        let g = self.glyph(weight, 'H', px);
        -(g.top as f32)
    }

    /// Draws `text` with its baseline's left end at (x, y); returns the width.
    pub fn draw<S: Surface + ?Sized>(
        &self,
        canvas: &mut S,
        weight: Weight,
        px: u16,
        x: f32,
        y: f32,
        colour: Rgb,
        text: &str,
    ) -> f32 {
        let mut pen = x;
        for c in text.chars() {
            let g = self.glyph(weight, c, px);
            canvas.blend_mask(
                &g.mask,
                pen.round() as i32 + g.left,
                y.round() as i32 + g.top,
                colour,
            );
            pen += g.advance;
        }
        let cap = self.cap_height(weight, px);
        canvas.note_text(px, x, y - cap, pen - x, cap, text);
        pen - x
    }

    /// Draws `text` centred on (cx, cy).
    pub fn draw_centred<S: Surface + ?Sized>(
        &self,
        canvas: &mut S,
        weight: Weight,
        px: u16,
        cx: f32,
        cy: f32,
        colour: Rgb,
        text: &str,
    ) {
        let w = self.measure(weight, px, text);
        let h = self.cap_height(weight, px);
        self.draw(canvas, weight, px, cx - w / 2.0, cy + h / 2.0, colour, text);
    }

    /// `text` broken at spaces into lines of at most `width` pixels (a word
    /// longer than a line is broken between characters).
    pub fn wrap(&self, weight: Weight, px: u16, text: &str, width: f32) -> Vec<String> {
        let mut lines = Vec::new();
        let mut line = String::new();
        for word in text.split(' ') {
            let candidate = if line.is_empty() {
                word.to_string()
            } else {
                format!("{line} {word}")
            };
            if self.measure(weight, px, &candidate) <= width || line.is_empty() && word.is_empty() {
                line = candidate;
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            for c in word.chars() {
                let mut next = line.clone();
                next.push(c);
                if !line.is_empty() && self.measure(weight, px, &next) > width {
                    lines.push(std::mem::take(&mut line));
                    next = c.to_string();
                }
                line = next;
            }
        }
        if !line.is_empty() || lines.is_empty() {
            lines.push(line);
        }
        lines
    }
}
