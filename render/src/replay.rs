//! A game replayed as an animated GIF: one frame per action, each drawn as the
//! still picture of that moment is, then a pause on the final position.
//!
//! The pictures are already palette indices, so the GIF's global colour table
//! is the palette and a frame is the picture's indices as they are: nothing is
//! quantised. As lila-gif does, an action after the first carries only what
//! changed since the one before; inside what it carries, pixels that did not
//! change are the transparent entry. An action changes the header (the move,
//! whose turn, the dice), a few squares and the seat rows, far apart: one
//! rectangle around all of them would hold most of the picture, and LZW
//! (the `gif` crate's `weezl`, most of a replay's time) takes every pixel of
//! it one at a time. So each action is drawn as a few small rectangles, one
//! per cluster of changed pixels (see `changed_rects`), as GIF frames one
//! after the other: the action's last frame carries its time, the ones before
//! it [`SUB_FRAME_CS`] each, taken off that time, so an action lasts as long
//! as before however many rectangles it has.

use crate::{Highlights, RenderError, RenderOptions, Renderer};
use gif::{DisposalMethod, Encoder, Frame, Repeat};
use tokar_engine::View;

/// The largest replay handed out: 10 MB, Discord's upload limit without boosts.
pub const MAX_REPLAY_BYTES: usize = 10_000_000;

/// Hundredths of a second each rectangle but the last of an action is shown.
/// Not 0: browsers and converters show a frame of 0 or 1 hundredth for a
/// tenth of a second, so an action of several rectangles would visibly build
/// up; 2 hundredths is honoured by them all and is too short to notice.
pub const SUB_FRAME_CS: u16 = 2;

/// Most rectangles an action is split into: its shortest time (20
/// hundredths) must keep more than half of it for the finished picture.
const MAX_RECTS: usize = 5;

/// Unchanged pixels worth carrying to save a rectangle: a frame costs about
/// 30 bytes of headers and restarts LZW's dictionary, while a transparent
/// pixel inside a rectangle costs LZW a few nanoseconds and a fraction of a bit.
const MERGE_PIXELS: usize = 3000;

/// How to pace a replay and how large it may be. Made with
/// `ReplayOptions::default()` and then its fields set.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ReplayOptions {
    /// How long each action is shown, in milliseconds, for a game of at most
    /// `full_speed_actions` actions.
    pub frame_ms: u32,
    /// Games longer than this play faster, so that the whole replay lasts
    /// about `frame_ms × full_speed_actions`, down to `min_frame_ms` a frame.
    pub full_speed_actions: usize,
    /// The shortest time an action is shown, in milliseconds.
    pub min_frame_ms: u32,
    /// The extra time the final position is held, in milliseconds.
    pub pause_ms: u32,
    /// The largest GIF to return; over it, only every second (third, …)
    /// action is shown, the last one always.
    pub max_bytes: usize,
    /// Drawn from this side, with these kings in check, as stills are.
    pub render: RenderOptions,
}

impl Default for ReplayOptions {
    fn default() -> Self {
        ReplayOptions {
            frame_ms: 1000,
            full_speed_actions: 60,
            min_frame_ms: 200,
            pause_ms: 4000,
            max_bytes: MAX_REPLAY_BYTES,
            render: RenderOptions::default(),
        }
    }
}

/// An animated GIF of a game, and how it was paced (for the message that
/// goes with it).
#[derive(Clone, Debug)]
pub struct Replay {
    /// The GIF's bytes, at most [`ReplayOptions::max_bytes`].
    pub gif: Vec<u8>,
    /// Pictures the GIF shows: the actions shown and the pause. An action
    /// after the first is one to five GIF frames (its rectangles),
    /// shown together as one picture, so the GIF holds more frames than this.
    pub frames: usize,
    /// Actions shown, one frame each.
    pub actions_shown: usize,
    /// 1 when every action is shown; `n` when every `n`-th is (and the last).
    pub every: usize,
    /// How long each action is shown, in milliseconds.
    pub frame_ms: u32,
    /// The width and height of the GIF in pixels.
    pub size: (u32, u32),
}

impl Renderer {
    /// The game as an animated GIF: `steps` holds the view after each action
    /// with that action's highlights, in order. Each action is one frame, then
    /// a pause on the final position; a game of more than
    /// `options.full_speed_actions` actions is played faster, and one whose
    /// GIF would be over `options.max_bytes` shows every `n`-th action only.
    /// The views are drawn as given: a replay for the public must be made of
    /// spectators' views, which hold no hand.
    pub fn replay(
        &self,
        steps: &[(View, Highlights)],
        options: &ReplayOptions,
    ) -> Result<Replay, RenderError> {
        if steps.is_empty() {
            return Err(RenderError::Encode(
                "a replay needs at least one action".into(),
            ));
        }
        let mut every = 1;
        loop {
            let shown: Vec<&(View, Highlights)> = sampled(steps, every);
            let frame_ms = pace(shown.len(), options);
            let (gif, size) = self.encode_gif(&shown, frame_ms, options)?;
            if gif.len() <= options.max_bytes {
                return Ok(Replay {
                    gif,
                    frames: shown.len() + 1,
                    actions_shown: shown.len(),
                    every,
                    frame_ms,
                    size,
                });
            }
            if shown.len() == 1 {
                return Err(RenderError::TooLarge(format!(
                    "a replay of {} bytes",
                    gif.len()
                )));
            }
            // Frames cost about the same each: aim a little under the limit.
            let scale = gif.len() as f64 / options.max_bytes as f64 * 1.1;
            every = ((every as f64 * scale).ceil() as usize).max(every + 1);
        }
    }

    fn encode_gif(
        &self,
        shown: &[&(View, Highlights)],
        frame_ms: u32,
        options: &ReplayOptions,
    ) -> Result<(Vec<u8>, (u32, u32)), RenderError> {
        let err = |e: gif::EncodingError| RenderError::Encode(e.to_string());
        let mut height = 0;
        for (view, highlights) in shown {
            height = height.max(self.picture_height(view, highlights, &options.render)?);
        }
        let width = crate::layout::WIDTH;
        let plte = self.palette.plte();
        let entries = plte.len() / 3;
        // The first entry the palette leaves free marks unchanged pixels.
        let transparent = (entries < 256).then_some(entries as u8);
        let mut out = Vec::with_capacity(1024 * 1024);
        let mut encoder =
            Encoder::new(&mut out, width as u16, height as u16, &plte).map_err(err)?;
        encoder.set_repeat(Repeat::Infinite).map_err(err)?;
        let delay = (frame_ms / 10).clamp(1, u16::MAX as u32) as u16;
        let mut previous: Option<Vec<u8>> = None;
        let mut spare = Vec::new();
        let mut rect = Vec::new();
        for (view, highlights) in shown {
            let picture = self.draw(
                view,
                highlights,
                &options.render,
                std::mem::take(&mut spare),
                false,
                height,
            )?;
            let current = picture.into_buffer();
            match &previous {
                None => {
                    let frame = Frame {
                        width: width as u16,
                        height: height as u16,
                        buffer: std::borrow::Cow::Borrowed(&current),
                        delay,
                        dispose: DisposalMethod::Keep,
                        ..Frame::default()
                    };
                    encoder.write_frame(&frame).map_err(err)?;
                }
                Some(before) => {
                    let rects = changed_rects(before, &current, width as usize);
                    let count = rects.len().max(1);
                    let last_delay = delay
                        .saturating_sub(SUB_FRAME_CS * (count as u16 - 1))
                        .max(1);
                    if rects.is_empty() {
                        rect.clear();
                        rect.push(transparent.unwrap_or(current[0]));
                        encoder
                            .write_frame(&Frame {
                                width: 1,
                                height: 1,
                                buffer: std::borrow::Cow::Borrowed(&rect),
                                transparent,
                                delay: last_delay,
                                dispose: DisposalMethod::Keep,
                                ..Frame::default()
                            })
                            .map_err(err)?;
                    }
                    for (i, r) in rects.iter().enumerate() {
                        cut(before, &current, width as usize, r, transparent, &mut rect);
                        let frame = Frame {
                            left: r.left as u16,
                            top: r.top as u16,
                            width: r.width() as u16,
                            height: r.height() as u16,
                            buffer: std::borrow::Cow::Borrowed(&rect),
                            transparent,
                            delay: if i + 1 == count {
                                last_delay
                            } else {
                                SUB_FRAME_CS
                            },
                            dispose: DisposalMethod::Keep,
                            ..Frame::default()
                        };
                        encoder.write_frame(&frame).map_err(err)?;
                    }
                }
            }
            if let Some(before) = previous.take() {
                spare = before;
            }
            previous = Some(current);
        }
        // The pause: nothing changes, the final position stays longer.
        let pause = Frame {
            width: 1,
            height: 1,
            buffer: std::borrow::Cow::Owned(match (transparent, &previous) {
                (Some(t), _) => vec![t],
                (None, Some(last)) => vec![last[0]],
                (None, None) => vec![0],
            }),
            transparent,
            delay: (options.pause_ms / 10).clamp(1, u16::MAX as u32) as u16,
            dispose: DisposalMethod::Keep,
            ..Frame::default()
        };
        encoder.write_frame(&pause).map_err(err)?;
        encoder.into_inner().map_err(err)?;
        Ok((out, (width, height)))
    }
}

/// Every `every`-th step, counted back from the last (which is always shown).
fn sampled(steps: &[(View, Highlights)], every: usize) -> Vec<&(View, Highlights)> {
    let last = steps.len() - 1;
    let mut shown: Vec<_> = (0..=last).rev().step_by(every).map(|i| &steps[i]).collect();
    shown.reverse();
    shown
}

/// Milliseconds per action: `frame_ms` for short games; longer ones last
/// about as long as a short one would, never under `min_frame_ms`.
fn pace(actions: usize, options: &ReplayOptions) -> u32 {
    let full = options.frame_ms as u64 * options.full_speed_actions.max(1) as u64;
    let per = (full / actions.max(1) as u64) as u32;
    let ms = per.clamp(options.min_frame_ms.min(options.frame_ms), options.frame_ms);
    ms / 10 * 10
}

/// A rectangle of the picture, bounds inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rect {
    left: usize,
    top: usize,
    right: usize,
    bottom: usize,
}

impl Rect {
    fn width(&self) -> usize {
        self.right - self.left + 1
    }
    fn height(&self) -> usize {
        self.bottom - self.top + 1
    }
    fn area(&self) -> usize {
        self.width() * self.height()
    }
    fn union(&self, o: &Rect) -> Rect {
        Rect {
            left: self.left.min(o.left),
            top: self.top.min(o.top),
            right: self.right.max(o.right),
            bottom: self.bottom.max(o.bottom),
        }
    }
}

/// The rectangles that turn `before` into `after` (both `width` wide, as
/// tall), together holding every changed pixel, in reading order; none when
/// nothing changed. Changed rows are gathered into bands from the top, a row
/// joining the band above when that adds fewer than [`MERGE_PIXELS`]
/// unchanged pixels to carry; each band is cut where its changed columns lie
/// far apart, and each piece is trimmed to its own changed rows. Past
/// [`MAX_RECTS`], the two rectangles whose union wastes least are joined.
fn changed_rects(before: &[u8], after: &[u8], width: usize) -> Vec<Rect> {
    let w = width;
    let rows = after.len() / w;
    // Each changed row's first and last changed column.
    let span = |y: usize| -> Option<(usize, usize)> {
        let (b, a) = (&before[y * w..(y + 1) * w], &after[y * w..(y + 1) * w]);
        if b == a {
            return None;
        }
        let l = (0..w).find(|&x| b[x] != a[x])?;
        let r = (l..w).rev().find(|&x| b[x] != a[x])?;
        Some((l, r))
    };
    let spans: Vec<Option<(usize, usize)>> = (0..rows).map(span).collect();
    let mut bands: Vec<(Rect, usize)> = Vec::new(); // and the changed pixels' rows' area
    for (y, s) in spans.iter().enumerate() {
        let Some((l, r)) = *s else { continue };
        let row = Rect {
            left: l,
            top: y,
            right: r,
            bottom: y,
        };
        if let Some((band, carried)) = bands.last_mut() {
            let joined = band.union(&row);
            if joined.area() <= *carried + row.area() + MERGE_PIXELS {
                *band = joined;
                *carried += row.area();
                continue;
            }
        }
        bands.push((row, row.area()));
    }
    let mut rects = Vec::new();
    for (band, _) in bands {
        // Columns changed anywhere in the band (each row looked at only
        // between its first and last change).
        let mut changed = vec![false; band.width()];
        for y in band.top..=band.bottom {
            let Some((l, r)) = spans[y] else { continue };
            let (b, a) = (
                &before[y * w + l..=y * w + r],
                &after[y * w + l..=y * w + r],
            );
            let row = &mut changed[l - band.left..=r - band.left];
            for ((c, b), a) in row.iter_mut().zip(b).zip(a) {
                *c |= b != a;
            }
        }
        let gap_limit = (MERGE_PIXELS / band.height()).max(1);
        let mut start = None;
        let mut last = 0;
        let mut pieces = Vec::new();
        for (i, &c) in changed.iter().enumerate() {
            if !c {
                continue;
            }
            match start {
                Some(s) if i - last > gap_limit => {
                    pieces.push((s, last));
                    start = Some(i);
                }
                None => start = Some(i),
                _ => {}
            }
            last = i;
        }
        if let Some(s) = start {
            pieces.push((s, last));
        }
        for (l, r) in pieces {
            let (left, right) = (band.left + l, band.left + r);
            let differs = |y: usize| {
                before[y * w + left..=y * w + right] != after[y * w + left..=y * w + right]
            };
            let top = (band.top..=band.bottom).find(|&y| differs(y));
            let bottom = (band.top..=band.bottom).rev().find(|&y| differs(y));
            if let (Some(top), Some(bottom)) = (top, bottom) {
                rects.push(Rect {
                    left,
                    top,
                    right,
                    bottom,
                });
            }
        }
    }
    while rects.len() > MAX_RECTS {
        let mut best = (usize::MAX, 0, 1);
        for i in 0..rects.len() {
            for j in i + 1..rects.len() {
                let waste = rects[i]
                    .union(&rects[j])
                    .area()
                    .saturating_sub(rects[i].area() + rects[j].area());
                if waste < best.0 {
                    best = (waste, i, j);
                }
            }
        }
        let (_, i, j) = best;
        let joined = rects[i].union(&rects[j]);
        rects.remove(j);
        rects[i] = joined;
    }
    rects
}

/// `after`'s pixels inside `r` into `out`, those equal to `before`'s as
/// `transparent` where the palette leaves an entry free.
fn cut(
    before: &[u8],
    after: &[u8],
    width: usize,
    r: &Rect,
    transparent: Option<u8>,
    out: &mut Vec<u8>,
) {
    out.clear();
    for y in r.top..=r.bottom {
        let (b, a) = (
            &before[y * width + r.left..=y * width + r.right],
            &after[y * width + r.left..=y * width + r.right],
        );
        match transparent {
            Some(t) => out.extend(b.iter().zip(a).map(|(&b, &a)| if a == b { t } else { a })),
            None => out.extend_from_slice(a),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_changed_rectangle_holds_every_change_and_no_more() {
        let (w, h) = (10usize, 6usize);
        let before = vec![3u8; w * h];
        let mut after = before.clone();
        after[2 * 10 + 7] = 5;
        after[4 * 10 + 2] = 6;
        let rects = changed_rects(&before, &after, w);
        assert_eq!(
            rects,
            vec![Rect {
                left: 2,
                top: 2,
                right: 7,
                bottom: 4
            }],
            "close changes share one rectangle"
        );
        let mut rect = Vec::new();
        cut(&before, &after, w, &rects[0], Some(200), &mut rect);
        assert_eq!(rect[5], 5, "the change at (7, 2)");
        assert_eq!(rect[2 * 6], 6, "the change at (2, 4)");
        assert_eq!(rect.iter().filter(|&&i| i == 200).count(), 16);
        assert!(changed_rects(&before, &before, w).is_empty());
    }

    /// Changes far apart (a header, a square, a seat row) are carried as
    /// separate small rectangles, not one around them all.
    #[test]
    fn changes_far_apart_are_separate_rectangles() {
        let (w, h) = (800usize, 1200usize);
        let before = vec![3u8; w * h];
        let mut after = before.clone();
        let changes = [(10, 20), (700, 30), (400, 600), (401, 606), (50, 1100)];
        for &(x, y) in &changes {
            after[y * w + x] = 9;
        }
        let rects = changed_rects(&before, &after, w);
        assert_eq!(rects.len(), 4, "{rects:?}");
        for &(x, y) in &changes {
            assert!(
                rects
                    .iter()
                    .any(|r| (r.left..=r.right).contains(&x) && (r.top..=r.bottom).contains(&y)),
                "({x}, {y}) is carried"
            );
        }
        let carried: usize = rects.iter().map(Rect::area).sum();
        assert!(carried < 100, "{carried} pixels carried for 5 changes");
    }

    /// Past [`MAX_RECTS`] clusters, the nearest are joined: every change is
    /// still carried.
    #[test]
    fn many_clusters_are_joined_down_to_the_most_rectangles() {
        let (w, h) = (800usize, 1200usize);
        let before = vec![3u8; w * h];
        let mut after = before.clone();
        let changes: Vec<(usize, usize)> = (0..12).map(|i| (i * 61 % 800, i * 97)).collect();
        for &(x, y) in &changes {
            after[y * w + x] = 9;
        }
        let rects = changed_rects(&before, &after, w);
        assert_eq!(rects.len(), MAX_RECTS);
        for &(x, y) in &changes {
            assert!(rects
                .iter()
                .any(|r| (r.left..=r.right).contains(&x) && (r.top..=r.bottom).contains(&y)));
        }
    }

    #[test]
    fn long_games_play_faster_down_to_the_shortest_frame() {
        let o = ReplayOptions::default();
        assert_eq!(pace(10, &o), 1000);
        assert_eq!(pace(60, &o), 1000);
        assert_eq!(pace(120, &o), 500);
        assert_eq!(pace(1000, &o), 200);
    }

    #[test]
    fn sampling_keeps_the_last_action() {
        let steps: Vec<(View, Highlights)> = (0..7)
            .map(|i| {
                let game = tokar_engine::AnyGame::setup(
                    tokar_engine::GameKind::Arcana,
                    &tokar_engine::Options::new(),
                    1,
                )
                .expect("a game");
                let mut v = game.view(tokar_engine::Viewer::Spectator);
                v.move_number = i;
                (v, Highlights::default())
            })
            .collect();
        let moves = |every| -> Vec<u32> {
            sampled(&steps, every)
                .iter()
                .map(|(v, _)| v.move_number)
                .collect()
        };
        assert_eq!(moves(1), vec![0, 1, 2, 3, 4, 5, 6]);
        assert_eq!(moves(3), vec![0, 3, 6]);
        assert_eq!(moves(4), vec![2, 6]);
    }
}
