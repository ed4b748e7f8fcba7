//! Everything around the board but the legend (`legend.rs`) and the cards
//! (`cards.rs`): the header (title, move number, whose turn or the outcome,
//! the last dice by side, a pending decision) and one row per seat (name,
//! hand size, lost pieces, public notes). Long text wraps onto more lines;
//! nothing is cut.

use crate::board;
use crate::canvas::Picture;
use crate::layout::WIDTH;
use crate::palette::{self, Rgb, SeatColour};
use crate::pieces;
use crate::shape::Outline;
use crate::sketch::Sketch;
use crate::sprites::SpriteCache;
use crate::text::{Fonts, Weight};
use tokar_engine::{Outcome, RollRole, Seat, View};

pub(crate) const MARGIN: f32 = 16.0;
pub(crate) const RIGHT: f32 = WIDTH as f32 - MARGIN;

/// Text sizes (pixels at the 800 px width): none under 13.
pub const TITLE_PX: u16 = 24;
pub const MOVE_PX: u16 = 20;
pub const STATUS_PX: u16 = 18;
pub const DICE_PX: u16 = 16;
pub const PENDING_PX: u16 = 16;
pub const LEGEND_PX: u16 = 14;
pub const SEAT_PX: u16 = 17;
pub const SEAT_EXTRA_PX: u16 = 15;
pub const NOTE_PX: u16 = 14;

fn seat_name(view: &View, seat: Seat) -> String {
    view.seats
        .get(seat.index())
        .map(|s| s.name.clone())
        .unwrap_or_else(|| seat.to_string())
}

/// The name of a group of seats: a whole team (seats sharing a colour index,
/// more than one) by the words its seats' names begin with ("White" for
/// "White King", "White Queen"...), other seats by their own names.
pub fn seats_name(view: &View, seats: &[Seat]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut done: Vec<u8> = Vec::new();
    for &seat in seats {
        let Some(sv) = view.seats.get(seat.index()) else {
            parts.push(seat.to_string());
            continue;
        };
        let team: Vec<&str> = view
            .seats
            .iter()
            .filter(|s| s.colour == sv.colour)
            .map(|s| s.name.as_str())
            .collect();
        let whole = team.len() > 1
            && view
                .seats
                .iter()
                .enumerate()
                .filter(|(_, s)| s.colour == sv.colour)
                .all(|(i, _)| seats.iter().any(|s| s.index() == i));
        if whole {
            if done.contains(&sv.colour) {
                continue;
            }
            done.push(sv.colour);
            let first: Vec<&str> = team[0].split_whitespace().collect();
            let common = (0..first.len())
                .take_while(|&k| {
                    team.iter()
                        .all(|n| n.split_whitespace().nth(k) == Some(first[k]))
                })
                .count();
            if common > 0 {
                parts.push(first[..common].join(" "));
                continue;
            }
        }
        parts.push(sv.name.clone());
    }
    parts.join(" and ")
}

fn swatch(
    canvas: &mut Picture,
    sprites: &SpriteCache,
    colour: SeatColour,
    cx: f32,
    cy: f32,
    r: f32,
) {
    let d = (2.0 * r).ceil() as u32 + 4;
    let key = format!("swatch {:?} {r}", colour.fill);
    let sprite = sprites.badge(key, || {
        let mut c = Sketch::transparent(d, d)?;
        let m = d as f32 / 2.0;
        c.fill_circle(m, m, r, colour.fill, 1.0);
        c.stroke_circle(m, m, r, palette::INK, 1.0, 1.5, None);
        Some(c)
    });
    if let Some(s) = sprite {
        let half = d as f32 / 2.0;
        canvas.blit(&s, (cx - half).round() as i32, (cy - half).round() as i32);
    }
}

/// Dice thrown together by one side, and the total they count for.
pub struct DiceGroup {
    pub label: String,
    pub dice: Vec<u8>,
    /// The total the game compares, bonuses included; `None` where the
    /// faces count as they are.
    pub total: Option<i32>,
}

impl DiceGroup {
    /// "= 14", or "+3 = 7" when the total adds a bonus to the faces.
    pub fn total_text(&self) -> Option<String> {
        let total = self.total?;
        let faces: i32 = self.dice.iter().map(|&d| d as i32).sum();
        Some(match total - faces {
            0 => format!("= {total}"),
            bonus => format!("{bonus:+} = {total}"),
        })
    }
}

/// The view's dice, grouped by who rolled them: the attacker's and the
/// defender's apart, each with its total (`View.rolls`); a view without
/// them has its dice as one seat's throw, without a total.
pub fn dice_groups(view: &View) -> Vec<DiceGroup> {
    if !view.rolls.is_empty() {
        return view
            .rolls
            .iter()
            .filter(|r| !r.dice.is_empty())
            .map(|r| {
                let name = seat_name(view, r.seat);
                DiceGroup {
                    label: match r.role {
                        RollRole::Attack => format!("{name} attacks"),
                        RollRole::Defence => format!("{name} defends"),
                        RollRole::Turn => format!("{name} rolled"),
                    },
                    dice: r.dice.clone(),
                    total: r.total,
                }
            })
            .collect();
    }
    match &view.dice {
        Some((seat, dice)) if !dice.is_empty() => vec![DiceGroup {
            label: format!("{} rolled", seat_name(view, *seat)),
            dice: dice.clone(),
            total: None,
        }],
        _ => Vec::new(),
    }
}

const DIE: f32 = 28.0;
const LINE: f32 = 26.0;

/// Where each line of the header goes.
pub struct Header {
    title: Vec<String>,
    move_text: String,
    /// Seats to act, each with its name's lines.
    turn: Vec<(Seat, Vec<String>)>,
    /// The outcome's lines and the seats whose swatches lead it.
    outcome: Vec<String>,
    winners: Vec<Seat>,
    dice: DiceLayout,
    pending: Vec<String>,
    /// The caller's clock line (`RenderOptions::clock`).
    clock: Vec<String>,
    pub height: f32,
}

/// The dice under the header's status line: one block per group, its label
/// (wrapped) on the left, its dice in a column of their own (wrapping onto
/// more rows when many), and its total after the last die.
struct DiceLayout {
    groups: Vec<(DiceGroup, Vec<String>)>,
    /// Where every group's dice start, so the groups line up.
    start: f32,
    per_row: usize,
}

const DICE_LABEL_MAX: f32 = 300.0;
const DICE_LABEL_LINE: f32 = 20.0;
/// Room kept after the dice for the total ("+12 = 99").
const TOTAL_ROOM: f32 = 96.0;

impl DiceLayout {
    fn new(fonts: &Fonts, groups: Vec<DiceGroup>) -> DiceLayout {
        let groups: Vec<(DiceGroup, Vec<String>)> = groups
            .into_iter()
            .map(|g| {
                let label = fonts.wrap(Weight::Regular, DICE_PX, &g.label, DICE_LABEL_MAX);
                (g, label)
            })
            .collect();
        let label_w = groups
            .iter()
            .flat_map(|(_, l)| l.iter())
            .map(|l| fonts.measure(Weight::Regular, DICE_PX, l))
            .fold(0.0f32, f32::max);
        let start = MARGIN + label_w + 12.0;
        let per_row = (((RIGHT - TOTAL_ROOM - start) / (DIE + 6.0)).floor() as usize).max(1);
        DiceLayout {
            groups,
            start,
            per_row,
        }
    }

    /// Rows of dice and the block's height, for one group.
    fn block(&self, group: &(DiceGroup, Vec<String>)) -> (usize, f32) {
        let rows = group.0.dice.len().div_ceil(self.per_row).max(1);
        let dice_h = rows as f32 * (DIE + 6.0) - 6.0;
        let label_h = (group.1.len() - 1) as f32 * DICE_LABEL_LINE + DIE;
        (rows, dice_h.max(label_h))
    }

    fn height(&self) -> f32 {
        self.groups.iter().map(|g| self.block(g).1 + 10.0).sum()
    }
}

pub fn header(fonts: &Fonts, view: &View, clock: Option<&str>) -> Header {
    let move_text = format!("Move {}", view.move_number);
    let move_w = fonts.measure(Weight::Bold, MOVE_PX, &move_text);
    let title = fonts.wrap(
        Weight::Bold,
        TITLE_PX,
        &view.title,
        RIGHT - move_w - 24.0 - MARGIN,
    );
    let mut y = 34.0 + (title.len() - 1) as f32 * 30.0 + 32.0;
    let to_act_w = fonts.measure(Weight::Regular, STATUS_PX, "To act: ");
    let mut turn = Vec::new();
    let mut outcome = Vec::new();
    let mut winners = Vec::new();
    match &view.outcome {
        Outcome::Ongoing => {
            let room = RIGHT - MARGIN - to_act_w - 22.0;
            for &seat in &view.to_act {
                turn.push((
                    seat,
                    fonts.wrap(Weight::Bold, STATUS_PX, &seat_name(view, seat), room),
                ));
            }
            let (mut x, mut lines) = (MARGIN + to_act_w, 1);
            for (i, (_, name)) in turn.iter().enumerate() {
                let w = 22.0 + fonts.measure(Weight::Bold, STATUS_PX, &name[0]) + 14.0;
                if i > 0 && x + w > RIGHT {
                    lines += 1;
                    x = MARGIN + to_act_w;
                }
                x += w;
                lines += name.len() - 1;
            }
            y += (lines - 1) as f32 * LINE;
        }
        Outcome::Won { winners: w, reason } => {
            winners = w.clone();
            let text = format!("{} won: {}", seats_name(view, w), reason);
            let room = RIGHT - MARGIN - 22.0 * w.len().min(8) as f32;
            outcome = fonts.wrap(Weight::Bold, STATUS_PX, &text, room);
            y += (outcome.len() - 1) as f32 * LINE;
        }
        Outcome::Drawn { reason } => {
            outcome = fonts.wrap(
                Weight::Bold,
                STATUS_PX,
                &format!("Drawn: {reason}"),
                RIGHT - MARGIN,
            );
            y += (outcome.len() - 1) as f32 * LINE;
        }
    }
    let dice = DiceLayout::new(fonts, dice_groups(view));
    y += dice.height();
    let pending = view
        .pending
        .as_ref()
        .map(|p| {
            fonts.wrap(
                Weight::Regular,
                PENDING_PX,
                &format!("Waiting: {p}"),
                RIGHT - MARGIN,
            )
        })
        .unwrap_or_default();
    if !pending.is_empty() {
        y += 4.0 + pending.len() as f32 * 22.0;
    }
    let clock = clock
        .map(|c| fonts.wrap(Weight::Regular, PENDING_PX, c, RIGHT - MARGIN))
        .unwrap_or_default();
    if !clock.is_empty() {
        y += 4.0 + clock.len() as f32 * 22.0;
    }
    Header {
        title,
        move_text,
        turn,
        outcome,
        winners,
        dice,
        pending,
        clock,
        height: y + 16.0,
    }
}

pub fn draw_header(
    canvas: &mut Picture,
    fonts: &Fonts,
    sprites: &SpriteCache,
    view: &View,
    colours: &[SeatColour],
    h: &Header,
) {
    let move_w = fonts.measure(Weight::Bold, MOVE_PX, &h.move_text);
    let (ink, muted) = (palette::INK, palette::MUTED);
    fonts.draw(
        canvas,
        Weight::Bold,
        MOVE_PX,
        RIGHT - move_w,
        34.0,
        muted,
        &h.move_text,
    );
    let mut y = 34.0;
    for line in &h.title {
        fonts.draw(canvas, Weight::Bold, TITLE_PX, MARGIN, y, ink, line);
        y += 30.0;
    }
    y += 2.0;
    let colour = |seat: Seat| {
        colours
            .get(seat.index())
            .copied()
            .unwrap_or(palette::SEAT_PALETTE[0])
    };
    match &view.outcome {
        Outcome::Ongoing => {
            let start = MARGIN
                + fonts.draw(
                    canvas,
                    Weight::Regular,
                    STATUS_PX,
                    MARGIN,
                    y,
                    muted,
                    "To act: ",
                );
            if h.turn.is_empty() {
                fonts.draw(canvas, Weight::Bold, STATUS_PX, start, y, ink, "nobody");
            }
            let mut x = start;
            for (i, (seat, name)) in h.turn.iter().enumerate() {
                let w = 22.0 + fonts.measure(Weight::Bold, STATUS_PX, &name[0]) + 14.0;
                if i > 0 && x + w > RIGHT {
                    x = start;
                    y += LINE;
                }
                swatch(canvas, sprites, colour(*seat), x + 9.0, y - 6.0, 8.0);
                for (k, line) in name.iter().enumerate() {
                    if k > 0 {
                        y += LINE;
                    }
                    fonts.draw(canvas, Weight::Bold, STATUS_PX, x + 22.0, y, ink, line);
                }
                x += w;
            }
        }
        Outcome::Won { .. } | Outcome::Drawn { .. } => {
            let mut x = MARGIN;
            for seat in &h.winners {
                let c = colour(*seat);
                if h.winners.len() > 1
                    && h.winners
                        .iter()
                        .any(|s| s.index() < seat.index() && colour(*s).fill == c.fill)
                {
                    continue;
                }
                swatch(canvas, sprites, c, x + 9.0, y - 6.0, 8.0);
                x += 22.0;
            }
            for (k, line) in h.outcome.iter().enumerate() {
                if k > 0 {
                    y += LINE;
                }
                fonts.draw(canvas, Weight::Bold, STATUS_PX, x, y, palette::HIT, line);
            }
        }
    }
    let cap = fonts.cap_height(Weight::Regular, DICE_PX);
    for block in &h.dice.groups {
        let (group, label) = block;
        let top = y + 10.0;
        for (k, line) in label.iter().enumerate() {
            let baseline = top + DIE / 2.0 + cap / 2.0 + k as f32 * DICE_LABEL_LINE;
            fonts.draw(
                canvas,
                Weight::Regular,
                DICE_PX,
                MARGIN,
                baseline,
                muted,
                line,
            );
        }
        let (mut x, mut row_top) = (h.dice.start, top);
        for (k, &value) in group.dice.iter().enumerate() {
            if k > 0 && k % h.dice.per_row == 0 {
                x = h.dice.start;
                row_top += DIE + 6.0;
            }
            die(canvas, fonts, sprites, x, row_top, value);
            x += DIE + 6.0;
        }
        if let Some(total) = group.total_text() {
            fonts.draw(
                canvas,
                Weight::Bold,
                DICE_PX,
                x + 2.0,
                row_top + DIE / 2.0 + cap / 2.0,
                ink,
                &total,
            );
        }
        y += h.dice.block(block).1 + 10.0;
    }
    if !h.pending.is_empty() {
        y += 4.0;
        for line in &h.pending {
            y += 22.0;
            fonts.draw(canvas, Weight::Regular, PENDING_PX, MARGIN, y, ink, line);
        }
    }
    if !h.clock.is_empty() {
        y += 4.0;
        for line in &h.clock {
            y += 22.0;
            fonts.draw(canvas, Weight::Regular, PENDING_PX, MARGIN, y, muted, line);
        }
    }
}

/// A die face: pips for 1 to 6, the number otherwise.
fn die(canvas: &mut Picture, fonts: &Fonts, sprites: &SpriteCache, x: f32, y: f32, value: u8) {
    let d = DIE;
    let px = (d * 0.55) as u16;
    let sprite = sprites.badge(format!("die {value} {d}"), || {
        let mut c = Sketch::transparent(d as u32 + 2, d as u32 + 2)?;
        let (x, y) = (1.0, 1.0);
        if let Some(p) = Outline::rounded_rect(x, y, d, d, d * 0.18) {
            c.fill(p, palette::PAPER, 1.0);
            c.stroke(p, palette::INK, 1.0, 1.5, None);
        }
        let (l, m, r) = (x + d * 0.27, x + d * 0.5, x + d * 0.73);
        let (t, b) = (y + d * 0.27, y + d * 0.73);
        let pips: &[(f32, f32)] = match value {
            1 => &[(m, m)],
            2 => &[(l, t), (r, b)],
            3 => &[(l, t), (m, m), (r, b)],
            4 => &[(l, t), (r, t), (l, b), (r, b)],
            5 => &[(l, t), (r, t), (m, m), (l, b), (r, b)],
            6 => &[(l, t), (r, t), (l, m), (r, m), (l, b), (r, b)],
            _ => {
                fonts.draw_centred(
                    &mut c,
                    Weight::Bold,
                    px,
                    m,
                    m,
                    palette::INK,
                    &value.to_string(),
                );
                &[]
            }
        };
        for &(px, py) in pips {
            c.fill_circle(px, py, d * 0.09, palette::INK, 1.0);
        }
        Some(c)
    });
    if let Some(s) = sprite {
        canvas.blit(&s, x.round() as i32 - 1, y.round() as i32 - 1);
    }
    // Every face's value is listed with the picture's text (pips at the size
    // a number on the face has), so that the layout tests find each die.
    pieces::note_centred(
        canvas,
        fonts,
        px,
        x + d / 2.0,
        y + d / 2.0,
        &value.to_string(),
    );
}

const LOST_X: f32 = 318.0;
const LOST_ICONS_X: f32 = 366.0;
const LOST_STEP: f32 = 32.0;
/// Graveyard icons, in pixels.
pub const LOST_ICON: f32 = LOST_STEP - 2.0;
const NAME_LINE: f32 = 22.0;
const NOTE_LINE: f32 = 19.0;

fn lost_per_line() -> usize {
    ((RIGHT - LOST_ICONS_X) / LOST_STEP).floor() as usize
}

/// One seat's row, laid out.
struct SeatRow {
    name: Vec<String>,
    extra: String,
    /// The extra text goes on a line of its own under the name.
    extra_below: bool,
    notes: Vec<String>,
    height: f32,
}

fn seat_row(fonts: &Fonts, view: &View, i: usize) -> SeatRow {
    let seat = &view.seats[i];
    let to_act = view.to_act.iter().any(|s| s.index() == i);
    let winner = matches!(&view.outcome, Outcome::Won { winners, .. } if winners.iter().any(|s| s.index() == i));
    let mut name = String::new();
    if to_act && !view.outcome.is_over() {
        name.push_str("▶ ");
    }
    name.push_str(&seat.name);
    if winner {
        name.push_str(" ★");
    }
    let mut extra = String::new();
    if seat.eliminated {
        extra.push_str("out");
    }
    if let Some(n) = seat.hand_size {
        if !extra.is_empty() {
            extra.push_str("  ");
        }
        extra.push_str(&format!("{n} card{}", if n == 1 { "" } else { "s" }));
    }
    let room = LOST_X - (MARGIN + 28.0) - 8.0;
    let name = fonts.wrap(Weight::Bold, SEAT_PX, &name, room);
    let last_w = fonts.measure(
        Weight::Bold,
        SEAT_PX,
        name.last().map(|s| s.as_str()).unwrap_or(""),
    );
    let extra_w = fonts.measure(Weight::Regular, SEAT_EXTRA_PX, &extra);
    let extra_below = !extra.is_empty() && last_w + 10.0 + extra_w > room;
    let name_lines = name.len() + extra_below as usize;
    let lost_lines = seat.lost.len().div_ceil(lost_per_line());
    let top_block = (name_lines as f32 * NAME_LINE + 14.0)
        .max(lost_lines as f32 * LOST_STEP + 4.0)
        .max(36.0);
    let notes: Vec<String> = seat
        .notes
        .iter()
        .flat_map(|n| fonts.wrap(Weight::Regular, NOTE_PX, n, RIGHT - MARGIN - 28.0))
        .collect();
    let height = top_block + notes.len() as f32 * NOTE_LINE + 8.0;
    SeatRow {
        name,
        extra,
        extra_below,
        notes,
        height,
    }
}

pub fn seats_height(fonts: &Fonts, view: &View) -> f32 {
    8.0 + (0..view.seats.len())
        .map(|i| seat_row(fonts, view, i).height)
        .sum::<f32>()
        + 8.0
}

pub fn draw_seats(
    canvas: &mut Picture,
    fonts: &Fonts,
    sprites: &SpriteCache,
    view: &View,
    colours: &[SeatColour],
    top: f32,
) {
    canvas.fill_rect(MARGIN, top, RIGHT - MARGIN, 2.0, palette::STRAND);
    let mut y = top + 8.0;
    for (i, seat) in view.seats.iter().enumerate() {
        let row = seat_row(fonts, view, i);
        let colour = board::piece_colour(view, colours, Seat(i as u8));
        swatch(canvas, sprites, colour, MARGIN + 10.0, y + 16.0, 10.0);
        let ink: Rgb = if seat.eliminated {
            palette::MUTED
        } else {
            palette::INK
        };
        let x0 = MARGIN + 28.0;
        let mut ny = y + 22.0;
        let mut x = x0;
        for (k, line) in row.name.iter().enumerate() {
            if k > 0 {
                ny += NAME_LINE;
            }
            x = x0 + fonts.draw(canvas, Weight::Bold, SEAT_PX, x0, ny, ink, line);
        }
        if !row.extra.is_empty() {
            let (ex, ey) = if row.extra_below {
                (x0, ny + NAME_LINE)
            } else {
                (x + 10.0, ny)
            };
            fonts.draw(
                canvas,
                Weight::Regular,
                SEAT_EXTRA_PX,
                ex,
                ey,
                palette::MUTED,
                &row.extra,
            );
        }
        if !seat.lost.is_empty() {
            fonts.draw(
                canvas,
                Weight::Regular,
                NOTE_PX,
                LOST_X,
                y + 21.0,
                palette::MUTED,
                "lost",
            );
            for (k, glyph) in seat.lost.iter().enumerate() {
                let (line, col) = (k / lost_per_line(), k % lost_per_line());
                let cx = LOST_ICONS_X + col as f32 * LOST_STEP + LOST_STEP / 2.0;
                let cy = y + 16.0 + line as f32 * LOST_STEP;
                pieces::draw_icon(canvas, fonts, sprites, cx, cy, LOST_ICON, glyph, colour);
            }
        }
        let mut ny = y + row.height - 8.0 - row.notes.len() as f32 * NOTE_LINE + 12.0;
        for note in &row.notes {
            fonts.draw(
                canvas,
                Weight::Regular,
                NOTE_PX,
                x0,
                ny,
                palette::MUTED,
                note,
            );
            ny += NOTE_LINE;
        }
        y += row.height;
    }
}
