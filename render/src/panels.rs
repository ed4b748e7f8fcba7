//! Everything around the board: the header (title, move number, whose turn or
//! the outcome, the last dice, a pending decision), the status legend, and one
//! row per seat (name, hand size, lost pieces, public notes).

use crate::canvas::Canvas;
use crate::layout::WIDTH;
use crate::palette::{self, seat_colour, Rgb};
use crate::pieces;
use crate::sprites::SpriteCache;
use crate::text::{Fonts, Weight};
use tokar_engine::{Outcome, Seat, StatusKind, View};

const MARGIN: f32 = 16.0;
const RIGHT: f32 = WIDTH as f32 - MARGIN;

fn seat_name(view: &View, seat: Seat) -> String {
    view.seats
        .get(seat.index())
        .map(|s| s.name.clone())
        .unwrap_or_else(|| seat.to_string())
}

fn swatch(canvas: &mut Canvas, view: &View, seat: Seat, cx: f32, cy: f32, r: f32) {
    let c = seat_colour(view.seats.get(seat.index()).map(|s| s.colour).unwrap_or(0));
    canvas.fill_circle(cx, cy, r, c.fill, 1.0);
    canvas.stroke_circle(cx, cy, r, palette::INK, 1.0, 1.5, None);
}

pub fn header_height(view: &View) -> f32 {
    if view.pending.is_some() {
        104.0
    } else {
        82.0
    }
}

pub fn draw_header(canvas: &mut Canvas, fonts: &Fonts, view: &View) {
    let move_text = format!("Move {}", view.move_number);
    let move_w = fonts.measure(Weight::Bold, 20, &move_text);
    fonts.draw(
        canvas,
        Weight::Bold,
        20,
        RIGHT - move_w,
        34.0,
        palette::MUTED,
        &move_text,
    );
    let title = fonts.fit(
        Weight::Bold,
        24,
        &view.title,
        RIGHT - move_w - 24.0 - MARGIN,
    );
    fonts.draw(canvas, Weight::Bold, 24, MARGIN, 34.0, palette::INK, &title);

    // Dice on the right of the second line, so the turn text knows its room.
    let mut right_edge = RIGHT;
    if let Some((seat, dice)) = &view.dice {
        let d = 28.0;
        for value in dice.iter().rev() {
            die(canvas, fonts, right_edge - d, 66.0 - d + 6.0, d, *value);
            right_edge -= d + 6.0;
        }
        let who = format!("{} rolled", seat_name(view, *seat));
        let w = fonts.measure(Weight::Regular, 15, &who);
        fonts.draw(
            canvas,
            Weight::Regular,
            15,
            right_edge - w - 2.0,
            66.0,
            palette::MUTED,
            &who,
        );
        right_edge -= w + 18.0;
    }

    let y = 66.0;
    let mut x = MARGIN;
    match &view.outcome {
        Outcome::Ongoing => {
            x += fonts.draw(
                canvas,
                Weight::Regular,
                18,
                x,
                y,
                palette::MUTED,
                "To act: ",
            );
            if view.to_act.is_empty() {
                fonts.draw(canvas, Weight::Bold, 18, x, y, palette::INK, "nobody");
            }
            for (i, seat) in view.to_act.iter().enumerate() {
                if i > 0 {
                    x += fonts.draw(canvas, Weight::Regular, 18, x, y, palette::MUTED, ", ");
                }
                swatch(canvas, view, *seat, x + 9.0, y - 6.0, 8.0);
                x += 22.0;
                let name = fonts.fit(
                    Weight::Bold,
                    18,
                    &seat_name(view, *seat),
                    (right_edge - x).max(20.0),
                );
                x += fonts.draw(canvas, Weight::Bold, 18, x, y, palette::INK, &name);
            }
        }
        Outcome::Won { winners, reason } => {
            for seat in winners {
                swatch(canvas, view, *seat, x + 9.0, y - 6.0, 8.0);
                x += 22.0;
            }
            let names: Vec<String> = winners.iter().map(|s| seat_name(view, *s)).collect();
            let text = format!("{} won: {}", names.join(" and "), reason);
            let text = fonts.fit(Weight::Bold, 18, &text, right_edge - x);
            fonts.draw(canvas, Weight::Bold, 18, x, y, palette::HIT, &text);
        }
        Outcome::Drawn { reason } => {
            let text = fonts.fit(
                Weight::Bold,
                18,
                &format!("Drawn: {reason}"),
                right_edge - x,
            );
            fonts.draw(canvas, Weight::Bold, 18, x, y, palette::HIT, &text);
        }
    }
    if let Some(p) = &view.pending {
        let text = fonts.fit(
            Weight::Regular,
            16,
            &format!("Waiting: {p}"),
            RIGHT - MARGIN,
        );
        fonts.draw(
            canvas,
            Weight::Regular,
            16,
            MARGIN,
            92.0,
            palette::INK,
            &text,
        );
    }
}

/// A die face: pips for 1 to 6, the number otherwise.
fn die(canvas: &mut Canvas, fonts: &Fonts, x: f32, y: f32, d: f32, value: u8) {
    if let Some(p) = Canvas::rounded_rect(x, y, d, d, d * 0.18) {
        canvas.fill_path(&p, palette::PAPER, 1.0);
        canvas.stroke_path(&p, palette::INK, 1.0, 1.5, None);
    }
    let (l, c, r) = (x + d * 0.27, x + d * 0.5, x + d * 0.73);
    let (t, m, b) = (y + d * 0.27, y + d * 0.5, y + d * 0.73);
    let pips: &[(f32, f32)] = match value {
        1 => &[(c, m)],
        2 => &[(l, t), (r, b)],
        3 => &[(l, t), (c, m), (r, b)],
        4 => &[(l, t), (r, t), (l, b), (r, b)],
        5 => &[(l, t), (r, t), (c, m), (l, b), (r, b)],
        6 => &[(l, t), (r, t), (l, m), (r, m), (l, b), (r, b)],
        _ => {
            fonts.draw_centred(
                canvas,
                Weight::Bold,
                (d * 0.55) as u16,
                c,
                m,
                palette::INK,
                &value.to_string(),
            );
            &[]
        }
    };
    for &(px, py) in pips {
        canvas.fill_circle(px, py, d * 0.09, palette::INK, 1.0);
    }
}

/// The status codes shown on the board, explained, wrapped into lines.
pub fn legend_lines(fonts: &Fonts, view: &View) -> Vec<String> {
    let mut kinds: Vec<StatusKind> = Vec::new();
    for p in &view.pieces {
        for s in &p.statuses {
            if !kinds.contains(&s.kind) {
                kinds.push(s.kind);
            }
        }
    }
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for k in kinds {
        let entry = format!("{} {}", pieces::status_code(k).0, pieces::status_meaning(k));
        let candidate = if line.is_empty() {
            entry.clone()
        } else {
            format!("{line}  ·  {entry}")
        };
        if !line.is_empty() && fonts.measure(Weight::Regular, 14, &candidate) > RIGHT - MARGIN {
            lines.push(std::mem::replace(&mut line, entry));
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

pub const LEGEND_LINE: f32 = 20.0;

pub fn draw_legend(canvas: &mut Canvas, fonts: &Fonts, lines: &[String], top: f32) {
    for (i, line) in lines.iter().enumerate() {
        fonts.draw(
            canvas,
            Weight::Regular,
            14,
            MARGIN,
            top + 15.0 + i as f32 * LEGEND_LINE,
            palette::MUTED,
            line,
        );
    }
}

const LOST_X: f32 = 318.0;
const LOST_ICONS_X: f32 = 366.0;
const LOST_STEP: f32 = 32.0;
const NOTE_LINE: f32 = 19.0;

fn lost_per_line() -> usize {
    ((RIGHT - LOST_ICONS_X) / LOST_STEP).floor() as usize
}

fn seat_row_height(view: &View, i: usize) -> f32 {
    let s = &view.seats[i];
    let lost_lines = s.lost.len().div_ceil(lost_per_line());
    (lost_lines as f32 * LOST_STEP + 4.0).max(36.0) + s.notes.len() as f32 * NOTE_LINE + 8.0
}

pub fn seats_height(view: &View) -> f32 {
    8.0 + (0..view.seats.len())
        .map(|i| seat_row_height(view, i))
        .sum::<f32>()
        + 8.0
}

pub fn draw_seats(
    canvas: &mut Canvas,
    fonts: &Fonts,
    sprites: &SpriteCache,
    view: &View,
    top: f32,
) {
    canvas.fill_rect(MARGIN, top, RIGHT - MARGIN, 1.5, palette::STRAND, 1.0);
    let mut y = top + 8.0;
    for (i, seat) in view.seats.iter().enumerate() {
        let to_act = view.to_act.iter().any(|s| s.index() == i);
        let winner = matches!(&view.outcome, Outcome::Won { winners, .. } if winners.iter().any(|s| s.index() == i));
        let colour = seat_colour(seat.colour);
        swatch(canvas, view, Seat(i as u8), MARGIN + 10.0, y + 16.0, 10.0);
        let mut name = String::new();
        if to_act && !view.outcome.is_over() {
            name.push_str("▶ ");
        }
        name.push_str(&seat.name);
        if winner {
            name.push_str(" ★");
        }
        let ink: Rgb = if seat.eliminated {
            palette::MUTED
        } else {
            palette::INK
        };
        let mut extra = String::new();
        if seat.eliminated {
            extra.push_str("  out");
        }
        if let Some(n) = seat.hand_size {
            extra.push_str(&format!("  {n} card{}", if n == 1 { "" } else { "s" }));
        }
        let room = LOST_X - (MARGIN + 28.0) - 8.0;
        let extra_w = fonts.measure(Weight::Regular, 15, &extra);
        let name = fonts.fit(Weight::Bold, 17, &name, (room - extra_w).max(40.0));
        let mut x = MARGIN + 28.0;
        x += fonts.draw(canvas, Weight::Bold, 17, x, y + 22.0, ink, &name);
        let extra = fonts.fit(Weight::Regular, 15, &extra, (LOST_X - 8.0 - x).max(0.0));
        fonts.draw(
            canvas,
            Weight::Regular,
            15,
            x,
            y + 22.0,
            palette::MUTED,
            &extra,
        );
        if !seat.lost.is_empty() {
            fonts.draw(
                canvas,
                Weight::Regular,
                14,
                LOST_X,
                y + 21.0,
                palette::MUTED,
                "lost",
            );
            for (k, glyph) in seat.lost.iter().enumerate() {
                let (line, col) = (k / lost_per_line(), k % lost_per_line());
                let cx = LOST_ICONS_X + col as f32 * LOST_STEP + LOST_STEP / 2.0;
                let cy = y + 16.0 + line as f32 * LOST_STEP;
                pieces::draw_icon(
                    canvas,
                    fonts,
                    sprites,
                    cx,
                    cy,
                    LOST_STEP - 2.0,
                    glyph,
                    colour,
                );
            }
        }
        let lost_lines = seat.lost.len().div_ceil(lost_per_line());
        let mut ny = y + (lost_lines as f32 * LOST_STEP + 4.0).max(36.0) + 12.0;
        for note in &seat.notes {
            let note = fonts.fit(Weight::Regular, 14, note, RIGHT - MARGIN - 28.0);
            fonts.draw(
                canvas,
                Weight::Regular,
                14,
                MARGIN + 28.0,
                ny,
                palette::MUTED,
                &note,
            );
            ny += NOTE_LINE;
        }
        y += seat_row_height(view, i);
    }
}
