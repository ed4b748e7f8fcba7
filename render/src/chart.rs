//! A small line chart: one series of values over its points in order (a
//! rating after each rated game), with the lowest and highest value marked.

use crate::palette;
use crate::sheet::encode;
use crate::sketch::Sketch;
use crate::text::Weight;
use crate::{RenderError, Renderer};

/// What a chart shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    pub title: String,
    /// The values in order; the first is where the line starts.
    pub values: Vec<f64>,
}

const WIDTH: u32 = 480;
const HEIGHT: u32 = 220;
const LEFT: f32 = 64.0;
const RIGHT: f32 = 20.0;
const TOP: f32 = 52.0;
const BOTTOM: f32 = 24.0;

impl Renderer {
    /// The chart as PNG bytes; a chart of no values is an empty frame.
    pub fn chart(&self, chart: &Chart) -> Result<Vec<u8>, RenderError> {
        let mut sk = Sketch::new(WIDTH, HEIGHT, palette::BACKGROUND)?;
        self.fonts.draw(
            &mut sk,
            Weight::Bold,
            18,
            LEFT - 44.0,
            30.0,
            palette::INK,
            &chart.title,
        );
        let (x0, x1) = (LEFT, WIDTH as f32 - RIGHT);
        let (y0, y1) = (TOP, HEIGHT as f32 - BOTTOM);
        sk.fill_rect(x0, y0, x1 - x0, y1 - y0, palette::PAPER, 1.0);
        sk.line(x0, y1, x1, y1, palette::MUTED, 1.0, 1.0);
        sk.line(x0, y0, x0, y1, palette::MUTED, 1.0, 1.0);
        let values: Vec<f64> = chart
            .values
            .iter()
            .copied()
            .filter(|v| v.is_finite())
            .collect();
        if values.is_empty() {
            return encode(self, &sk);
        }
        let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let span = if hi > lo { hi - lo } else { 1.0 };
        let at = |i: usize, v: f64| {
            let x = if values.len() > 1 {
                x0 + 8.0 + (x1 - x0 - 16.0) * i as f32 / (values.len() - 1) as f32
            } else {
                (x0 + x1) / 2.0
            };
            let y = y1 - 8.0 - (y1 - y0 - 16.0) * ((v - lo) / span) as f32;
            (x, y)
        };
        for (i, w) in values.windows(2).enumerate() {
            let (ax, ay) = at(i, w[0]);
            let (bx, by) = at(i + 1, w[1]);
            sk.line(ax, ay, bx, by, palette::AFFECTED, 1.0, 2.5);
        }
        for (i, v) in values.iter().enumerate() {
            let (x, y) = at(i, *v);
            sk.fill_circle(x, y, 3.5, palette::AFFECTED, 1.0);
        }
        let label = |v: f64| format!("{:.0}", v);
        let (_, hy) = at(0, hi);
        let (_, ly) = at(0, lo);
        self.fonts.draw(
            &mut sk,
            Weight::Regular,
            13,
            8.0,
            hy + 5.0,
            palette::MUTED,
            &label(hi),
        );
        if hi > lo {
            self.fonts.draw(
                &mut sk,
                Weight::Regular,
                13,
                8.0,
                ly + 5.0,
                palette::MUTED,
                &label(lo),
            );
        }
        encode(self, &sk)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(png: Vec<u8>) -> (u32, u32) {
        let reader = png::Decoder::new(std::io::Cursor::new(png))
            .read_info()
            .unwrap();
        (reader.info().width, reader.info().height)
    }

    #[test]
    fn charts_decode_with_one_or_many_values_or_none() {
        let r = Renderer::new();
        for values in [vec![], vec![1500.0], vec![1500.0, 1662.0, 1590.5, 1601.0]] {
            let png = r
                .chart(&Chart {
                    title: "Arcana rating".into(),
                    values,
                })
                .unwrap();
            assert_eq!(size(png), (WIDTH, HEIGHT));
        }
    }
}
