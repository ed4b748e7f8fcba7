//! The legend under the board: a sample of every mark the picture uses with
//! its meaning, then every status code in use and the other looks (hit-point
//! bars, zones, faded pieces), wrapping onto more lines.

use crate::board;
use crate::canvas::Picture;
use crate::layout::Spot;
use crate::palette;
use crate::panels::{LEGEND_PX, MARGIN, RIGHT};
use crate::pieces;
use crate::sketch::Sketch;
use crate::sprites::SpriteCache;
use crate::text::{Fonts, Weight};
use tokar_engine::{StatusKind, View};

/// One entry of the legend: a sample of a mark (a highlight look) or a status
/// code, and what it means.
pub struct LegendEntry {
    pub look: Option<&'static str>,
    pub text: String,
}

/// Every mark and status code in the picture, explained.
pub fn legend_entries(
    view: &View,
    highlights: &crate::Highlights,
    check: bool,
) -> Vec<LegendEntry> {
    use tokar_engine::Mark;
    let mut out = Vec::new();
    let mut mark = |look: &'static str, text: &str| {
        if !out.iter().any(|e: &LegendEntry| e.look == Some(look)) {
            out.push(LegendEntry {
                look: Some(look),
                text: text.to_string(),
            });
        }
    };
    for (_, m) in &highlights.marks {
        match m {
            Mark::From => mark("from", "moved from"),
            Mark::To => mark("to", "moved to"),
            Mark::Hit => mark("hit", "hit or taken"),
            Mark::Affected => mark("affected", "affected"),
            Mark::Placed => mark("placed", "placed"),
        }
    }
    let occupied = |c: tokar_engine::Cell| view.pieces.iter().any(|p| p.cell == c);
    for &t in &highlights.targets {
        if occupied(t) {
            mark("target", "can be attacked");
        } else {
            mark("dot", "can move here");
        }
    }
    if highlights.selected.is_some() {
        mark("selected", "selected piece");
    }
    if check {
        mark("check", "in check");
    }
    let mut note = |text: &str| {
        out.push(LegendEntry {
            look: None,
            text: text.to_string(),
        })
    };
    if view.pieces.iter().any(|p| p.hp.is_some()) {
        note("hit points: left/most");
    }
    if !view.zones.is_empty() {
        note("shaded: a side's zone");
    }
    let out_of_game =
        |p: &tokar_engine::PieceView| view.seats.get(p.seat.index()).is_some_and(|s| s.eliminated);
    if view.pieces.iter().any(out_of_game) {
        note("faded: out of the game");
    }
    let mut kinds: Vec<StatusKind> = Vec::new();
    for p in &view.pieces {
        for s in &p.statuses {
            if !kinds.contains(&s.kind) {
                kinds.push(s.kind);
            }
        }
    }
    for k in kinds {
        out.push(LegendEntry {
            look: None,
            text: format!("{} {}", pieces::status_code(k).0, pieces::status_meaning(k)),
        });
    }
    out
}

pub const LEGEND_LINE: f32 = 28.0;
const SAMPLE: f32 = 24.0;

fn entry_width(fonts: &Fonts, e: &LegendEntry) -> f32 {
    let sample = if e.look.is_some() { SAMPLE + 6.0 } else { 0.0 };
    sample + fonts.measure(Weight::Regular, LEGEND_PX, &e.text) + 18.0
}

/// How many lines the legend takes.
pub fn legend_lines(fonts: &Fonts, entries: &[LegendEntry]) -> usize {
    let (mut lines, mut x) = (0, RIGHT);
    for e in entries {
        let w = entry_width(fonts, e);
        if x + w > RIGHT + 18.0 {
            lines += 1;
            x = MARGIN;
        }
        x += w;
    }
    lines
}

pub fn draw_legend(
    canvas: &mut Picture,
    fonts: &Fonts,
    sprites: &SpriteCache,
    square: bool,
    entries: &[LegendEntry],
    top: f32,
) {
    let (mut x, mut y) = (RIGHT, top - LEGEND_LINE);
    for e in entries {
        let w = entry_width(fonts, e);
        if x + w > RIGHT + 18.0 {
            x = MARGIN;
            y += LEGEND_LINE;
        }
        let mid = y + LEGEND_LINE / 2.0;
        let mut tx = x;
        if let Some(look) = e.look {
            let key = format!("legend {look} {square}");
            let sprite = sprites.badge(key, || {
                let n = SAMPLE as u32;
                let mut c = Sketch::transparent(n, n)?;
                let s = Spot {
                    cx: SAMPLE / 2.0,
                    cy: SAMPLE / 2.0,
                    size: SAMPLE,
                    square,
                };
                let ground = if square {
                    palette::LIGHT_SQUARE
                } else {
                    palette::WEB_CELL
                };
                board::wash(&mut c, &s, ground, 1.0);
                if look == "hit" {
                    board::paint_look(&mut c, &s, "cross");
                }
                if look == "check" {
                    board::paint_look(&mut c, &s, "check-glow");
                }
                board::paint_look(&mut c, &s, look);
                Some(c)
            });
            if let Some(s) = sprite {
                canvas.blit(&s, x.round() as i32, (mid - SAMPLE / 2.0).round() as i32);
            }
            tx += SAMPLE + 6.0;
        }
        let cap = fonts.cap_height(Weight::Regular, LEGEND_PX);
        fonts.draw(
            canvas,
            Weight::Regular,
            LEGEND_PX,
            tx,
            mid + cap / 2.0,
            palette::MUTED,
            &e.text,
        );
        x += w;
    }
}
