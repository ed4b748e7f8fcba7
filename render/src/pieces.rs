//! One piece: its icon tinted in the seat's colour, the letter badge that tells
//! units apart without colour, its hit points and its status badges.

use crate::canvas::Picture;
use crate::layout::Spot;
use crate::palette::{self, Rgb, SeatColour};
use crate::shape::Outline;
use crate::sketch::{Sketch, Surface};
use crate::sprites::SpriteCache;
use crate::text::{Fonts, Weight};
use tokar_engine::{Glyph, PieceView, StatusKind, StatusView};

/// Draws the unit's icon (or, for a unit without one, a disc with its letter)
/// `size` pixels square, centred on (cx, cy).
#[allow(clippy::too_many_arguments)]
pub fn draw_icon(
    canvas: &mut Picture,
    fonts: &Fonts,
    sprites: &SpriteCache,
    cx: f32,
    cy: f32,
    size: f32,
    glyph: &Glyph,
    colour: SeatColour,
) {
    let n = size.round().max(4.0) as u16;
    match sprites.piece(&glyph.unit, n, colour) {
        Some(sprite) => {
            let x = (cx - sprite.width as f32 / 2.0).round() as i32;
            let y = (cy - sprite.height as f32 / 2.0).round() as i32;
            canvas.blit(&sprite, x, y);
        }
        None => {
            // A disc with the letter, drawn once per letter, size and colour.
            let d = size.ceil() as u32 + 2;
            let px = (size * 0.5).round().max(13.0) as u16;
            let key = format!(
                "disc {} {n} {:?} {:?}",
                glyph.letter, colour.fill, colour.outline
            );
            let disc = sprites.badge(key, || {
                let mut c = Sketch::transparent(d, d)?;
                let (m, r) = (d as f32 / 2.0, size * 0.42);
                c.fill_circle(m, m, r, colour.fill, 1.0);
                c.stroke_circle(m, m, r, colour.outline, 1.0, (size / 24.0).max(1.5), None);
                fonts.draw_centred(
                    &mut c,
                    Weight::Bold,
                    px,
                    m,
                    m,
                    colour.fill.contrast(),
                    &glyph.letter.to_string(),
                );
                Some(c)
            });
            if let Some(disc) = disc {
                let half = d as f32 / 2.0;
                canvas.blit(
                    &disc,
                    (cx - half).round() as i32,
                    (cy - half).round() as i32,
                );
            }
            note_centred(canvas, fonts, px, cx, cy, &glyph.letter.to_string());
        }
    }
}

/// The short code drawn on a status badge, and the badge's colour.
pub fn status_code(kind: StatusKind) -> (&'static str, Rgb) {
    match kind {
        StatusKind::Paralysed => ("PAR", Rgb(0xCC, 0x79, 0xA7)),
        StatusKind::Firebrew => ("FB", Rgb(0xD5, 0x5E, 0x00)),
        StatusKind::Resting => ("RST", Rgb(0x9A, 0x96, 0x90)),
        StatusKind::Frozen => ("FRZ", Rgb(0x56, 0xB4, 0xE9)),
        StatusKind::Slowed => ("SLW", Rgb(0xF0, 0xE4, 0x42)),
        StatusKind::AntiJump => ("NJ", Rgb(0x00, 0x9E, 0x73)),
        StatusKind::Controlled => ("CTL", palette::CONTROLLED),
        StatusKind::ExtraTurn => ("+T", Rgb(0xE6, 0x9F, 0x00)),
        StatusKind::Held => ("HLD", Rgb(0x2A, 0x2A, 0x2E)),
        StatusKind::Guarded => ("GRD", Rgb(0x00, 0x72, 0xB2)),
    }
}

/// What a status code means, for the legend under the board.
pub fn status_meaning(kind: StatusKind) -> &'static str {
    match kind {
        StatusKind::Paralysed => "paralysed",
        StatusKind::Firebrew => "firebrew tokens left",
        StatusKind::Resting => "moved by others, rests next turn",
        StatusKind::Frozen => "frozen",
        StatusKind::Slowed => "slowed",
        StatusKind::AntiJump => "cannot jump",
        StatusKind::Controlled => "under enemy control",
        StatusKind::ExtraTurn => "extra turn",
        StatusKind::Held => "held captive",
        StatusKind::Guarded => "guarded",
    }
}

fn status_text(s: &StatusView) -> String {
    let (code, _) = status_code(s.kind);
    match s.count {
        Some(n) => format!("{code}{n}"),
        None => code.to_string(),
    }
}

/// Badges, hit points and the letter, drawn over the icon and the highlights.
pub fn draw_overlays(
    canvas: &mut Picture,
    fonts: &Fonts,
    sprites: &SpriteCache,
    spot: &Spot,
    piece: &PieceView,
    colour: SeatColour,
) {
    let s = spot.size;
    let (left, right) = (spot.cx - s / 2.0, spot.cx + s / 2.0);
    let bottom = spot.cy + s / 2.0;
    // On a web cell the corners fall outside the disc: keep badges near it.
    let inset = if spot.square { s * 0.04 } else { s * 0.1 };

    let mut badge_bottom = bottom - inset;
    if let Some((hp, max)) = piece.hp {
        let h = (s * 0.2).clamp(16.0, 18.0).round();
        let w = (s - 2.0 * inset - 2.0).round();
        let (x, y) = ((left + inset + 1.0).round(), (bottom - inset - h).round());
        let px = (h * 0.8).round().max(13.0) as u16;
        let text = format!("{hp}/{max}");
        let key = format!("hp {hp} {max} {w} {h}");
        let bar = sprites.badge(key, || {
            let frac = if max > 0 {
                (hp as f32 / max as f32).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let fill = if frac > 0.5 {
                palette::HP_HIGH
            } else if frac > 0.25 {
                palette::HP_MID
            } else {
                palette::HP_LOW
            };
            let mut c = Sketch::transparent(w as u32, h as u32)?;
            if let Some(p) = Outline::rounded_rect(0.0, 0.0, w, h, h / 3.0) {
                c.fill(p, palette::INK, 1.0);
            }
            if frac > 0.0 {
                if let Some(p) = Outline::rounded_rect(0.0, 0.0, w * frac, h, h / 3.0) {
                    c.fill(p, fill, 1.0);
                }
            }
            fonts.draw_centred(
                &mut c,
                Weight::Bold,
                px,
                w / 2.0,
                h / 2.0,
                palette::PAPER,
                &text,
            );
            Some(c)
        });
        if let Some(bar) = bar {
            canvas.blit(&bar, x as i32, y as i32);
        }
        note_centred(canvas, fonts, px, x + w / 2.0, y + h / 2.0, &text);
        badge_bottom = y - 1.0;
    }

    // The letter, in a disc of the seat's colour at the bottom right.
    let r = (s * 0.13).clamp(10.0, 14.0).round();
    let (bx, by) = (right - inset - r, badge_bottom - r);
    let d = (2.0 * r + 2.0) as u32;
    let key = format!(
        "letter {} {r} {:?} {:?}",
        piece.glyph.letter, colour.fill, colour.outline
    );
    let badge = sprites.badge(key, || {
        let mut c = Sketch::transparent(d, d)?;
        let m = d as f32 / 2.0;
        c.fill_circle(m, m, r, colour.fill, 1.0);
        c.stroke_circle(m, m, r, colour.outline, 1.0, (r / 7.0).max(1.0), None);
        let px = (r * 1.35).round() as u16;
        fonts.draw_centred(
            &mut c,
            Weight::Bold,
            px,
            m,
            m,
            colour.fill.contrast(),
            &piece.glyph.letter.to_string(),
        );
        Some(c)
    });
    if let Some(badge) = badge {
        canvas.blit(
            &badge,
            (bx - d as f32 / 2.0).round() as i32,
            (by - d as f32 / 2.0).round() as i32,
        );
    }
    let letter_px = (r * 1.35).round() as u16;
    note_centred(
        canvas,
        fonts,
        letter_px,
        bx,
        by,
        &piece.glyph.letter.to_string(),
    );

    // Status badges across the top, wrapping onto a second row if needed.
    let h = (s * 0.22).clamp(18.0, 22.0).round();
    let px = (h * 0.7).round().max(13.0) as u16;
    let pad = h * 0.25;
    let (mut x, mut y) = (left + inset, spot.cy - s / 2.0 + inset);
    for status in &piece.statuses {
        let text = status_text(status);
        let (_, bg) = status_code(status.kind);
        let w = (fonts.measure(Weight::Bold, px, &text) + 2.0 * pad).ceil();
        if x + w > right - inset && x > left + inset {
            x = left + inset;
            y += h + 2.0;
        }
        let key = format!("status {text} {h} {px}");
        let badge = sprites.badge(key, || {
            let mut c = Sketch::transparent(w as u32 + 2, h as u32 + 2)?;
            if let Some(p) = Outline::rounded_rect(1.0, 1.0, w, h, h / 2.5) {
                c.fill(p, bg, 1.0);
                c.stroke(p, palette::INK, 0.8, 1.0, None);
            }
            fonts.draw_centred(
                &mut c,
                Weight::Bold,
                px,
                1.0 + w / 2.0,
                1.0 + h / 2.0,
                bg.contrast(),
                &text,
            );
            Some(c)
        });
        if let Some(badge) = badge {
            canvas.blit(&badge, x.round() as i32 - 1, y.round() as i32 - 1);
        }
        note_centred(canvas, fonts, px, x + w / 2.0, y + h / 2.0, &text);
        x += w + 2.0;
    }
}

/// Notes text drawn inside a prepared sprite, centred on (cx, cy), for the
/// layout tests (nothing is drawn).
pub fn note_centred(canvas: &mut Picture, fonts: &Fonts, px: u16, cx: f32, cy: f32, text: &str) {
    if canvas.texts.is_some() {
        let w = fonts.measure(Weight::Bold, px, text);
        let h = fonts.cap_height(Weight::Bold, px);
        canvas.note_text(px, cx - w / 2.0, cy - h / 2.0, w, h, text);
    }
}
