//! The picture being drawn: an 8-bit image of palette indices
//! (`image::ImageBuffer<Luma<u8>>`), built by copying the cached board and
//! prepared sprites, and encoded as an indexed PNG: rows deflated by Tokar's
//! own deflate ([`crate::deflate`]) and written by the `png` crate.

use crate::deflate::{zlib_rows, Deflater};
use crate::palette::{Palette, Rgb, OPAQUE};
use crate::sketch::{AlphaMask, Surface};
use crate::RenderError;
use image::{ImageBuffer, Luma};

/// A prepared picture in palette indices: each pixel's entry and its coverage
/// (0 transparent, [`OPAQUE`], or a level blended through the palette's table).
pub struct Sprite {
    pub width: u32,
    pub height: u32,
    index: Vec<u8>,
    level: Vec<u8>,
    /// The runs of pixels that are not transparent: (row, first column,
    /// column after the last, whether every pixel of it is opaque). Blits
    /// skip the rest and copy opaque runs whole.
    runs: Vec<(u32, u32, u32, bool)>,
}

impl Sprite {
    pub fn new(width: u32, height: u32, index: Vec<u8>, level: Vec<u8>) -> Sprite {
        let mut runs = Vec::new();
        for (y, row) in level.chunks_exact((width as usize).max(1)).enumerate() {
            // Pixels go together while their kind (transparent, partial,
            // opaque) stays the same.
            let kind = |l: u8| (l != 0) as u8 + (l == OPAQUE) as u8;
            let mut start = 0;
            for x in 1..=row.len() {
                if x == row.len() || kind(row[x]) != kind(row[start]) {
                    if row[start] != 0 {
                        runs.push((y as u32, start as u32, x as u32, row[start] == OPAQUE));
                    }
                    start = x;
                }
            }
        }
        Sprite {
            width,
            height,
            index,
            level,
            runs,
        }
    }

    /// The entry and coverage of one pixel (for tests).
    #[cfg(test)]
    pub fn pixel(&self, x: u32, y: u32) -> (u8, u8) {
        let i = (y * self.width + x) as usize;
        (self.index[i], self.level[i])
    }
}

/// The board without pieces, in palette indices, kept between pictures.
pub struct Background {
    pub width: u32,
    pub height: u32,
    pub index: Vec<u8>,
}

/// One piece of text in the picture: its size and box (for the layout tests).
#[derive(Clone, Debug, PartialEq)]
pub struct TextBox {
    pub text: String,
    /// Font size in pixels.
    pub px: u16,
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
}

/// What the picture encoder reuses between pictures (kept in [`Scratch`]):
/// the scanlines (a filter byte before each row), the deflater's symbols
/// and room for the zlib stream. Allocating them afresh had them faulted in
/// again each time.
#[derive(Default)]
pub struct EncodeBuffers {
    rows: Vec<u8>,
    zlib: Vec<u8>,
    deflater: Deflater,
}

/// The zlib stream of `pixels`' rows (`width` a row, each after filter byte
/// 0, no filter), deflated by Tokar's own deflate ([`crate::deflate`]). Indices of a
/// palette picture are symbols, not intensities, so filters that subtract
/// neighbours only blur the repeats deflate finds.
fn deflate_rows<'a>(width: usize, pixels: &[u8], buffers: &'a mut EncodeBuffers) -> &'a [u8] {
    let rows = &mut buffers.rows;
    rows.clear();
    rows.reserve(pixels.len() + pixels.len() / width.max(1));
    for row in pixels.chunks(width.max(1)) {
        rows.push(0);
        rows.extend_from_slice(row);
    }
    zlib_rows(rows, width + 1, &mut buffers.deflater, &mut buffers.zlib);
    &buffers.zlib
}

pub struct Picture {
    pub image: ImageBuffer<Luma<u8>, Vec<u8>>,
    pub palette: &'static Palette,
    /// Every text put in the picture, when asked for.
    pub texts: Option<Vec<TextBox>>,
}

impl Picture {
    /// A picture `height` pixels tall holding `middle` from row `y` down, the
    /// background colour above and below, written into `buffer` (a previous
    /// picture's pixels, reused rather than allocated again).
    pub fn around(
        middle: &Background,
        y: u32,
        height: u32,
        background: u8,
        palette: &'static Palette,
        mut buffer: Vec<u8>,
    ) -> Result<Picture, RenderError> {
        let width = middle.width;
        let too_large = || RenderError::TooLarge(format!("a {width}x{height} picture"));
        let rows = middle.height.min(height.saturating_sub(y));
        let top = y.min(height);
        buffer.clear();
        buffer.resize((width * top) as usize, background);
        buffer.extend_from_slice(&middle.index[..(width * rows) as usize]);
        buffer.resize((width * height) as usize, background);
        let image = ImageBuffer::from_raw(width, height, buffer).ok_or_else(too_large)?;
        Ok(Picture {
            image,
            palette,
            texts: None,
        })
    }

    pub fn width(&self) -> u32 {
        self.image.width()
    }

    pub fn height(&self) -> u32 {
        self.image.height()
    }

    /// The pixels' memory, for reuse by [`Picture::around`].
    pub fn into_buffer(self) -> Vec<u8> {
        self.image.into_raw()
    }

    /// Fills whole pixels from (x, y), `w` by `h`, with one entry.
    pub fn fill_rect(&mut self, x: f32, y: f32, w: f32, h: f32, colour: Rgb) {
        let c = self.palette.index(colour);
        let (cw, ch) = (self.width() as i64, self.height() as i64);
        let (x0, y0) = ((x.round() as i64).max(0), (y.round() as i64).max(0));
        let (x1, y1) = (
            ((x + w).round() as i64).min(cw),
            ((y + h).round() as i64).min(ch),
        );
        let data: &mut [u8] = &mut self.image;
        for row in y0..y1 {
            if x0 < x1 {
                data[(row * cw + x0) as usize..(row * cw + x1) as usize].fill(c);
            }
        }
    }

    /// Puts a prepared sprite with its top-left corner on (x, y).
    pub fn blit(&mut self, sprite: &Sprite, x: i32, y: i32) {
        let (cw, ch) = (self.width() as i64, self.height() as i64);
        let (sw, x, y) = (sprite.width as usize, x as i64, y as i64);
        let palette = self.palette;
        let data: &mut [u8] = &mut self.image;
        for &(row, start, end, opaque) in &sprite.runs {
            let py = y + row as i64;
            let from = (x + start as i64).max(0);
            let to = (x + end as i64).min(cw);
            if py < 0 || py >= ch || from >= to {
                continue;
            }
            let d = (py * cw + from) as usize;
            let s = row as usize * sw + (from - x) as usize;
            let n = (to - from) as usize;
            let dst = &mut data[d..d + n];
            if opaque {
                dst.copy_from_slice(&sprite.index[s..s + n]);
                continue;
            }
            let (index, level) = (&sprite.index[s..s + n], &sprite.level[s..s + n]);
            for ((d, &i), &l) in dst.iter_mut().zip(index).zip(level) {
                *d = palette.blend(i, l, *d);
            }
        }
    }

    /// The picture as an indexed PNG: the palette in PLTE and the rows
    /// unfiltered, deflated by [`deflate_rows`] into the
    /// one IDAT; or, for `smallest`, filtered as the `png` crate's adaptive
    /// choice says and deflated at zlib's best level by the `png` crate.
    pub fn encode_png(
        &self,
        smallest: bool,
        buffers: &mut EncodeBuffers,
    ) -> Result<Vec<u8>, RenderError> {
        let (w, h) = (self.width(), self.height());
        let err = |e: png::EncodingError| RenderError::Encode(e.to_string());
        let mut out = Vec::with_capacity(64 * 1024);
        let mut encoder = png::Encoder::new(&mut out, w, h);
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_palette(self.palette.plte());
        if smallest {
            encoder.set_compression(png::Compression::High);
            encoder.set_filter(png::Filter::Adaptive);
        }
        let mut writer = encoder.write_header().map_err(err)?;
        if smallest {
            writer.write_image_data(self.image.as_raw()).map_err(err)?;
        } else {
            let zlib = deflate_rows(w as usize, self.image.as_raw(), buffers);
            writer.write_chunk(png::chunk::IDAT, zlib).map_err(err)?;
        }
        writer.finish().map_err(err)?;
        Ok(out)
    }
}

impl Surface for Picture {
    fn blend_mask(&mut self, mask: &AlphaMask, x: i32, y: i32, colour: Rgb) {
        let c = self.palette.index(colour);
        let palette = self.palette;
        let size = (self.width(), self.height());
        let data: &mut [u8] = &mut self.image;
        mask.for_each_covered(x, y, size, |pixel, a| {
            let l = ((a as u32 * OPAQUE as u32 + 127) / 255) as u8;
            let d = &mut data[pixel];
            if l == OPAQUE {
                *d = c;
            } else if l != 0 {
                *d = palette.blend(c, l, *d);
            }
        });
    }

    fn note_text(&mut self, px: u16, x: f32, y: f32, w: f32, h: f32, text: &str) {
        if let Some(t) = &mut self.texts {
            t.push(TextBox {
                text: text.to_string(),
                px,
                x,
                y,
                width: w,
                height: h,
            });
        }
    }
}

/// Buffers a render needs, kept between renders: allocating and freeing the
/// picture each time had the allocator hand it back to the system and fault it
/// in again.
#[derive(Default)]
pub struct Scratch {
    /// The picture's indices.
    pub pixels: Vec<u8>,
    /// The encoder's scanlines and zlib stream.
    pub encode: EncodeBuffers,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::palette;
    use crate::sketch::Sketch;

    fn decode(png_bytes: &[u8]) -> (png::OutputInfo, Vec<u8>, Vec<u8>) {
        let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
        let mut reader = decoder.read_info().expect("a PNG header");
        let plte = reader.info().palette.as_ref().expect("a PLTE").to_vec();
        let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
        let info = reader.next_frame(&mut buf).expect("a frame");
        buf.truncate(info.buffer_size());
        (info, plte, buf)
    }

    #[test]
    fn indexed_pngs_hold_the_picture_and_its_palette() {
        let p = palette::shared();
        let bg = Background {
            width: 97,
            height: 40,
            index: vec![p.index(palette::DARK_SQUARE); 97 * 40],
        };
        let mut pic = Picture::around(&bg, 10, 150, p.index(palette::BACKGROUND), p, Vec::new())
            .expect("a picture");
        let mut sketch = Sketch::transparent(30, 30).expect("a sketch");
        sketch.fill_circle(15.0, 15.0, 12.0, palette::INK, 1.0);
        pic.blit(&sketch.to_sprite(p), 50, 100);
        pic.fill_rect(0.0, 140.0, 97.0, 2.0, palette::STRAND);
        for smallest in [false, true] {
            let png = pic
                .encode_png(smallest, &mut EncodeBuffers::default())
                .expect("encodes");
            let (info, plte, pixels) = decode(&png);
            assert_eq!(info.color_type, png::ColorType::Indexed);
            assert_eq!((info.width, info.height), (97, 150));
            assert_eq!(plte, p.plte());
            assert_eq!(pixels, pic.image.as_raw().as_slice());
        }
        let at = |x: u32, y: u32| pic.image.get_pixel(x, y).0[0];
        assert_eq!(at(0, 0), p.index(palette::BACKGROUND));
        assert_eq!(at(0, 20), p.index(palette::DARK_SQUARE));
        assert_eq!(at(65, 115), p.index(palette::INK), "the disc's middle");
        assert_eq!(at(5, 141), p.index(palette::STRAND));
    }

    /// A picture as large as a board's, with what deflate meets in one: long
    /// runs, rows repeating the row above, and rows that repeat nothing
    /// (past the 32 KiB window and the encoder's blocks).
    #[test]
    fn large_pictures_decode_to_the_same_indices() {
        let p = palette::shared();
        let (w, h) = (800u32, 1100u32);
        let mut seed = 0x2545_f491u32;
        let index = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| {
                seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                match y / 100 {
                    3 | 7 => (seed >> 24) as u8 % 139,
                    _ => (((x / 100) + (y / 100)) % 2) as u8 * 20 + (x % 7 == 0) as u8,
                }
            })
            .collect();
        let bg = Background {
            width: w,
            height: h,
            index,
        };
        let pic = Picture::around(&bg, 0, h, 0, p, Vec::new()).expect("a picture");
        let mut buffers = EncodeBuffers::default();
        for smallest in [false, true, false] {
            let png = pic.encode_png(smallest, &mut buffers).expect("encodes");
            let (info, plte, pixels) = decode(&png);
            assert_eq!((info.width, info.height), (w, h));
            assert_eq!(plte, p.plte());
            assert!(
                pixels == pic.image.as_raw().as_slice(),
                "smallest: {smallest}"
            );
        }
    }

    /// A blit, clipped on every side, puts each pixel as its own coverage
    /// says: opaque ones replace, partial ones blend, transparent ones leave.
    #[test]
    fn blits_match_pixel_by_pixel_blending() {
        let p = palette::shared();
        let mut sketch = Sketch::transparent(40, 30).expect("a sketch");
        sketch.fill_circle(12.0, 14.0, 9.3, palette::INK, 1.0);
        sketch.fill_circle(27.0, 15.0, 8.6, palette::STRAND, 0.6);
        let sprite = sketch.to_sprite(p);
        let kinds = |want: fn(u8) -> bool| {
            (0..30)
                .flat_map(|y| (0..40).map(move |x| (x, y)))
                .any(|(x, y)| want(sprite.pixel(x, y).1))
        };
        assert!(kinds(|l| l == OPAQUE) && kinds(|l| l > 0 && l < OPAQUE) && kinds(|l| l == 0));
        let (w, h) = (36u32, 26u32);
        let ground: Vec<u8> = (0..w * h).map(|i| (i % 7) as u8 * 9).collect();
        for (bx, by) in [(-5, -4), (10, 8), (0, 0), (-20, 15)] {
            let bg = Background {
                width: w,
                height: h,
                index: ground.clone(),
            };
            let mut pic = Picture::around(&bg, 0, h, 0, p, Vec::new()).expect("a picture");
            pic.blit(&sprite, bx, by);
            for (y, x) in (0..h as i32).flat_map(|y| (0..w as i32).map(move |x| (y, x))) {
                let under = ground[(y as u32 * w + x as u32) as usize];
                let (sx, sy) = (x - bx, y - by);
                let want = if sx < 0 || sy < 0 || sx >= 40 || sy >= 30 {
                    under
                } else {
                    match sprite.pixel(sx as u32, sy as u32) {
                        (_, 0) => under,
                        (i, OPAQUE) => i,
                        (i, l) => p.blend(i, l, under),
                    }
                };
                assert_eq!(
                    pic.image.get_pixel(x as u32, y as u32).0[0],
                    want,
                    "({x}, {y})"
                );
            }
        }
    }

    #[test]
    fn edges_of_sprites_blend_with_what_is_under_them() {
        let p = palette::shared();
        let mut sketch = Sketch::transparent(20, 20).expect("a sketch");
        sketch.fill_circle(10.0, 10.0, 7.3, palette::INK, 1.0);
        let sprite = sketch.to_sprite(p);
        let partial = (0..20)
            .flat_map(|y| (0..20).map(move |x| (x, y)))
            .find(|&(x, y)| {
                let (_, l) = sprite.pixel(x, y);
                l > 0 && l < OPAQUE
            })
            .expect("an anti-aliased edge");
        for ground in [palette::LIGHT_SQUARE, palette::DARK_SQUARE] {
            let bg = Background {
                width: 20,
                height: 20,
                index: vec![p.index(ground); 400],
            };
            let mut pic = Picture::around(&bg, 0, 20, 0, p, Vec::new()).expect("a picture");
            pic.blit(&sprite, 0, 0);
            let got = p.colours()[pic.image.get_pixel(partial.0, partial.1).0[0] as usize];
            assert!(got.luma() < ground.luma() && got.luma() > palette::INK.luma());
        }
    }
}
