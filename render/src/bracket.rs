//! A knockout bracket as a picture: one column per round, left to right, each
//! match a box of two lines (a name and its score), joined to the match its
//! winner goes on to. A match of a later round sits halfway between the two
//! matches that feed it, so the picture grows to the right as rounds are
//! played and reads as the brackets on paper do.
//!
//! Drawn as the sheet is (`sheet.rs`: the same sketch, fonts and encoder).
//! Like every picture here it decides nothing: the caller gives every text
//! (names, "bye", scores, the rounds' heads) and which slot won.

use crate::canvas::TextBox;
use crate::palette;
use crate::sheet::{encode, Lettering, CELL_PX, HEAD_PX, MARGIN, NOTE_H, NOTE_PX, ROW_H};
use crate::sketch::Sketch;
use crate::text::Weight;
use crate::{RenderError, Renderer};

/// One side of a match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BracketSlot {
    /// Who holds it: a name, "bye", or empty while the match before is open.
    pub name: String,
    /// The slot's score so far ("1½"), or empty.
    pub score: String,
    /// This slot won the match: drawn in bold on a light field.
    pub won: bool,
}

/// One match: the upper slot and the lower.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BracketMatch {
    pub slots: [BracketSlot; 2],
}

/// What a bracket picture shows.
#[derive(Clone, Debug, PartialEq)]
pub struct BracketPicture {
    pub title: String,
    /// One head per round ("Round of 16", "Final").
    pub heads: Vec<String>,
    /// The rounds, the first one first; each has half the matches of the one
    /// before, the last one match.
    pub rounds: Vec<Vec<BracketMatch>>,
    /// Lines under the bracket: the match rules, the champion.
    pub notes: Vec<String>,
}

/// First-round matches drawn at most: a bracket of 64 entrants. A larger one
/// is refused rather than drawn too tall to read in a channel.
pub const MAX_FIRST_ROUND: usize = 32;

/// Room between a match's two lines of text and its box.
const PAD: f32 = 10.0;
/// Between two matches of the first round.
const MATCH_GAP: f32 = 14.0;
/// Between two rounds' columns, where the connectors run.
const COLUMN_GAP: f32 = 36.0;
/// The least width of a name.
const MIN_NAME_W: f32 = 110.0;

impl Renderer {
    /// The bracket as PNG bytes.
    pub fn bracket(&self, bracket: &BracketPicture) -> Result<Vec<u8>, RenderError> {
        let (sketch, _) = self.draw_bracket(bracket)?;
        encode(self, &sketch)
    }

    /// The bracket's size and every text in it with its box, in drawing
    /// order: for layout checks.
    pub fn bracket_layout(
        &self,
        bracket: &BracketPicture,
    ) -> Result<(u32, u32, Vec<TextBox>), RenderError> {
        let (sketch, texts) = self.draw_bracket(bracket)?;
        Ok((sketch.width(), sketch.height(), texts))
    }

    fn draw_bracket(&self, b: &BracketPicture) -> Result<(Sketch, Vec<TextBox>), RenderError> {
        check_shape(b)?;
        let regular = |s: &str| self.fonts.measure(Weight::Regular, CELL_PX, s);
        let bold = |s: &str| self.fonts.measure(Weight::Bold, CELL_PX, s);
        let slots = || b.rounds.iter().flatten().flat_map(|m| m.slots.iter());
        let name_w = slots()
            .map(|s| bold(&s.name))
            .chain(
                b.heads
                    .iter()
                    .map(|h| self.fonts.measure(Weight::Bold, HEAD_PX, h)),
            )
            .fold(MIN_NAME_W, f32::max);
        let score_w = slots().map(|s| bold(&s.score)).fold(0.0, f32::max);
        let box_w = PAD + name_w + PAD + score_w + PAD;
        let box_h = 2.0 * ROW_H;
        let pitch = box_h + MATCH_GAP;
        let columns = b.rounds.len() as f32;
        let bracket_w = columns * box_w + (columns - 1.0) * COLUMN_GAP;
        let title_w = self
            .fonts
            .measure(Weight::Bold, crate::sheet::TITLE_PX, &b.title);
        let notes_w = b
            .notes
            .iter()
            .map(|n| self.fonts.measure(Weight::Regular, NOTE_PX, n))
            .fold(0.0, f32::max);
        let width = (MARGIN * 2.0 + bracket_w.max(title_w).max(notes_w))
            .ceil()
            .max(240.0) as u32;
        let head_y = MARGIN + 48.0;
        let top = head_y + ROW_H;
        let first = b.rounds[0].len() as f32;
        let bottom = top + first * pitch - MATCH_GAP;
        let notes_y = bottom + 12.0;
        let height = (notes_y + NOTE_H * b.notes.len() as f32 + MARGIN).ceil() as u32;
        let column_x = |r: usize| MARGIN + r as f32 * (box_w + COLUMN_GAP);
        // A match of round `r` is centred on the first-round matches it
        // gathers: 2^r of them, from `m * 2^r` on.
        let centre_y = |r: usize, m: usize| {
            let span = (1usize << r) as f32;
            top + pitch * (m as f32 * span + (span - 1.0) / 2.0) + box_h / 2.0
        };
        let mut sk = Sketch::new(width, height, palette::BACKGROUND)?;
        let mut ink = Lettering::new(&self.fonts);
        ink.title(&mut sk, &b.title);
        for (r, head) in b.heads.iter().enumerate() {
            ink.head(&mut sk, column_x(r), head_y + 18.0, head);
        }
        for (r, round) in b.rounds.iter().enumerate() {
            let x = column_x(r);
            for (m, game) in round.iter().enumerate() {
                let y = centre_y(r, m) - box_h / 2.0;
                sk.fill_rect(x, y, box_w, box_h, palette::PAPER, 1.0);
                for (k, slot) in game.slots.iter().enumerate() {
                    let row_y = y + ROW_H * k as f32;
                    if slot.won {
                        sk.fill_rect(x, row_y, 4.0, ROW_H, palette::PLACED, 1.0);
                    }
                    let (weight, colour) = match (slot.won, slot.name == "bye") {
                        (true, _) => (Weight::Bold, palette::INK),
                        (false, true) => (Weight::Regular, palette::FADED),
                        (false, false) => (Weight::Regular, palette::INK),
                    };
                    let base = row_y + 22.0;
                    if !slot.name.is_empty() {
                        ink.text(&mut sk, weight, CELL_PX, x + PAD, base, colour, &slot.name);
                    }
                    if !slot.score.is_empty() {
                        let w = match slot.won {
                            true => bold(&slot.score),
                            false => regular(&slot.score),
                        };
                        let sx = x + box_w - PAD - w;
                        ink.text(&mut sk, weight, CELL_PX, sx, base, colour, &slot.score);
                    }
                }
                sk.line(x, y + ROW_H, x + box_w, y + ROW_H, palette::FADED, 1.0, 1.0);
                outline(&mut sk, x, y, box_w, box_h);
                // The connector to the match the winner goes on to.
                if r + 1 < b.rounds.len() {
                    let from_y = centre_y(r, m);
                    let to_y = centre_y(r + 1, m / 2);
                    let mid_x = x + box_w + COLUMN_GAP / 2.0;
                    sk.line(x + box_w, from_y, mid_x, from_y, palette::MUTED, 1.0, 1.5);
                    sk.line(mid_x, from_y, mid_x, to_y, palette::MUTED, 1.0, 1.5);
                    sk.line(mid_x, to_y, column_x(r + 1), to_y, palette::MUTED, 1.0, 1.5);
                }
            }
        }
        ink.notes(&mut sk, notes_y, &b.notes);
        Ok((sk, ink.texts))
    }
}

fn outline(sk: &mut Sketch, x: f32, y: f32, w: f32, h: f32) {
    for (x0, y0, x1, y1) in [
        (x, y, x + w, y),
        (x, y + h, x + w, y + h),
        (x, y, x, y + h),
        (x + w, y, x + w, y + h),
    ] {
        sk.line(x0, y0, x1, y1, palette::MUTED, 1.0, 1.0);
    }
}

/// A bracket halves round by round down to one match, and has a head per
/// round: anything else is refused in one line rather than drawn wrong.
fn check_shape(b: &BracketPicture) -> Result<(), RenderError> {
    let refuse = |why: String| Err(RenderError::Board(format!("a bracket {why}")));
    let Some(first) = b.rounds.first() else {
        return refuse("without rounds".into());
    };
    if first.len() > MAX_FIRST_ROUND {
        return Err(RenderError::TooLarge(format!(
            "a bracket of {} first-round matches (at most {MAX_FIRST_ROUND})",
            first.len()
        )));
    }
    if !first.len().is_power_of_two() {
        return refuse(format!("of {} first-round matches", first.len()));
    }
    if b.heads.len() != b.rounds.len() {
        return refuse(format!(
            "of {} rounds with {} heads",
            b.rounds.len(),
            b.heads.len()
        ));
    }
    let mut expected = first.len();
    for (r, round) in b.rounds.iter().enumerate() {
        if round.len() != expected || expected == 0 {
            return refuse(format!("whose round {} has {} matches", r + 1, round.len()));
        }
        expected /= 2;
    }
    if b.rounds.last().map(Vec::len) != Some(1) {
        return refuse("that does not end in one final".into());
    }
    Ok(())
}
