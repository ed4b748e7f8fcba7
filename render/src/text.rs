//! Labels in DejaVu Sans (embedded), rasterised once per character and size by
//! imageproc's text drawing (ab_glyph underneath) into a coverage mask, and
//! blended as that mask.

// Drawing calls take a position, a size, a colour and what to draw: spelled out
// at each call rather than bundled into one-use structs.
#![allow(clippy::too_many_arguments)]

use crate::palette::Rgb;
use crate::sketch::{AlphaMask, Surface};
use ab_glyph::{CodepointIdIter, Font, FontRef, GlyphId, GlyphSvg, PxScale, ScaleFont};
use image::{GrayImage, Luma};
use rustc_hash::FxHashMap as HashMap;
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

/// A font laid out on its baseline: imageproc's text drawing puts a line's
/// first glyph at the font's ascent below its top, which would move each
/// glyph by a fraction of a pixel from where it was measured; with an ascent
/// of nought the glyph is rasterised at the pen's own position, as ab_glyph
/// outlines it.
struct OnBaseline<'a>(&'a FontRef<'static>);

impl Font for OnBaseline<'_> {
    fn units_per_em(&self) -> Option<f32> {
        self.0.units_per_em()
    }
    fn ascent_unscaled(&self) -> f32 {
        0.0
    }
    /// As far below the baseline as the font's whole height, so that the
    /// height (ascent less descent), which sets the scale, is the font's own.
    fn descent_unscaled(&self) -> f32 {
        self.0.descent_unscaled() - self.0.ascent_unscaled()
    }
    fn line_gap_unscaled(&self) -> f32 {
        self.0.line_gap_unscaled()
    }
    fn italic_angle(&self) -> f32 {
        self.0.italic_angle()
    }
    fn glyph_id(&self, c: char) -> GlyphId {
        self.0.glyph_id(c)
    }
    fn h_advance_unscaled(&self, id: GlyphId) -> f32 {
        self.0.h_advance_unscaled(id)
    }
    fn h_side_bearing_unscaled(&self, id: GlyphId) -> f32 {
        self.0.h_side_bearing_unscaled(id)
    }
    fn v_advance_unscaled(&self, id: GlyphId) -> f32 {
        self.0.v_advance_unscaled(id)
    }
    fn v_side_bearing_unscaled(&self, id: GlyphId) -> f32 {
        self.0.v_side_bearing_unscaled(id)
    }
    fn kern_unscaled(&self, first: GlyphId, second: GlyphId) -> f32 {
        self.0.kern_unscaled(first, second)
    }
    fn outline(&self, id: GlyphId) -> Option<ab_glyph::Outline> {
        self.0.outline(id)
    }
    fn glyph_count(&self) -> usize {
        self.0.glyph_count()
    }
    fn codepoint_ids(&self) -> CodepointIdIter<'_> {
        self.0.codepoint_ids()
    }
    fn glyph_raster_image2(&self, id: GlyphId, size: u16) -> Option<ab_glyph::v2::GlyphImage<'_>> {
        self.0.glyph_raster_image2(id, size)
    }
    fn glyph_svg_image(&self, id: GlyphId) -> Option<GlyphSvg<'_>> {
        self.0.glyph_svg_image(id)
    }
    fn font_data(&self) -> &[u8] {
        self.0.font_data()
    }
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
            cache: Mutex::new(HashMap::default()),
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
                // White over black is the glyph's coverage; its box's corner
                // at the mask's (0, 0).
                let mut mask = GrayImage::new(w, h);
                imageproc::drawing::draw_text_mut(
                    &mut mask,
                    Luma([255]),
                    -b.min.x as i32,
                    -b.min.y as i32,
                    PxScale::from(px as f32),
                    &OnBaseline(font),
                    &c.to_string(),
                );
                GlyphImage {
                    mask: AlphaMask {
                        width: w,
                        height: h,
                        alpha: mask.into_raw(),
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
