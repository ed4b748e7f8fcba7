//! The cards a picture shows, under the legend: the viewer's own hand (only a
//! seat's own view holds one, so only its private picture shows it) and every
//! card lying face up under a piece (public: every view has them), each as a
//! small labelled card.

use crate::canvas::Picture;
use crate::palette;
use crate::panels::{MARGIN, RIGHT};
use crate::shape::Outline;
use crate::sketch::Sketch;
use crate::sprites::SpriteCache;
use crate::text::{Fonts, Weight};
use tokar_engine::View;

/// Text on a card and the row's label, in pixels at the 800 px width.
pub const CARD_PX: u16 = 15;
const CARD_H: f32 = 30.0;
const CARD_PAD: f32 = 10.0;
const CARD_GAP: f32 = 8.0;
const ROW_STEP: f32 = CARD_H + 8.0;

/// One row of cards: its label and each card's text and place.
struct Row {
    label: &'static str,
    /// (x, line, width, text) of each card; lines count from the row's top.
    cards: Vec<(f32, usize, f32, String)>,
    lines: usize,
}

/// The cards panel, laid out.
pub struct Cards {
    rows: Vec<Row>,
}

impl Cards {
    /// Lays out the hand and the cards under pieces; empty when the view has
    /// neither.
    pub fn new(fonts: &Fonts, view: &View) -> Cards {
        let mut texts: Vec<(&'static str, Vec<String>)> = Vec::new();
        if !view.hand.is_empty() {
            texts.push(("Your hand", view.hand.clone()));
        }
        if !view.under.is_empty() {
            let under = view
                .under
                .iter()
                .map(|(cell, card)| format!("{card} under {}", view.board.name(*cell)))
                .collect();
            texts.push(("Under pieces", under));
        }
        let start = MARGIN
            + texts
                .iter()
                .map(|(l, _)| fonts.measure(Weight::Regular, CARD_PX, l))
                .fold(0.0f32, f32::max)
            + 12.0;
        let rows = texts
            .into_iter()
            .map(|(label, texts)| {
                let (mut x, mut line) = (start, 0);
                let mut cards = Vec::new();
                for text in texts {
                    let w = (fonts.measure(Weight::Bold, CARD_PX, &text) + 2.0 * CARD_PAD)
                        .ceil()
                        .min(RIGHT - start);
                    if x > start && x + w > RIGHT {
                        x = start;
                        line += 1;
                    }
                    cards.push((x, line, w, text));
                    x += w + CARD_GAP;
                }
                Row {
                    label,
                    cards,
                    lines: line + 1,
                }
            })
            .collect();
        Cards { rows }
    }

    /// The panel's height (0 without cards).
    pub fn height(&self) -> f32 {
        if self.rows.is_empty() {
            return 0.0;
        }
        self.rows
            .iter()
            .map(|r| r.lines as f32 * ROW_STEP)
            .sum::<f32>()
            + 6.0
    }

    /// Draws the panel with its top at `top`.
    pub fn draw(&self, canvas: &mut Picture, fonts: &Fonts, sprites: &SpriteCache, top: f32) {
        let cap = fonts.cap_height(Weight::Regular, CARD_PX);
        let mut y = top + 4.0;
        for row in &self.rows {
            let mid = y + CARD_H / 2.0;
            fonts.draw(
                canvas,
                Weight::Regular,
                CARD_PX,
                MARGIN,
                mid + cap / 2.0,
                palette::MUTED,
                row.label,
            );
            for (x, line, w, text) in &row.cards {
                let cy = y + *line as f32 * ROW_STEP;
                card(canvas, sprites, *x, cy, *w);
                // A text too long for a card (never met) may run to the right
                // edge; it is never cut short.
                let tw = fonts.measure(Weight::Bold, CARD_PX, text);
                let tx = (x + (w - tw) / 2.0).max(MARGIN);
                fonts.draw(
                    canvas,
                    Weight::Bold,
                    CARD_PX,
                    tx,
                    cy + CARD_H / 2.0 + cap / 2.0,
                    palette::INK,
                    text,
                );
            }
            y += row.lines as f32 * ROW_STEP;
        }
    }
}

/// A blank card `w` pixels wide: light face, dark edge, a thin inner frame.
fn card(canvas: &mut Picture, sprites: &SpriteCache, x: f32, y: f32, w: f32) {
    let sprite = sprites.badge(format!("card {w}"), || {
        let mut c = Sketch::transparent(w as u32 + 2, CARD_H as u32 + 2)?;
        if let Some(p) = Outline::rounded_rect(1.0, 1.0, w, CARD_H, 5.0) {
            c.fill(p, palette::PAPER, 1.0);
            c.stroke(p, palette::INK, 1.0, 1.5, None);
        }
        if let Some(p) = Outline::rounded_rect(4.0, 4.0, w - 6.0, CARD_H - 6.0, 3.0) {
            c.stroke(p, palette::MUTED, 0.6, 1.0, None);
        }
        Some(c)
    });
    if let Some(s) = sprite {
        canvas.blit(&s, x.round() as i32 - 1, y.round() as i32 - 1);
    }
}
