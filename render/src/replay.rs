//! A game replayed as an animated GIF: one frame per action, each drawn as the
//! still picture of that moment is, then a pause on the final position.
//!
//! The pictures are already palette indices, so the GIF's global colour table
//! is the palette and a frame is the picture's indices as they are: nothing is
//! quantised. As lila-gif does, a frame after the first carries only the
//! rectangle that changed since the frame before; inside it, pixels that did
//! not change are the transparent entry, so that LZW codes them as long runs.
//! The `gif` crate writes the file (its LZW is `weezl`).

use crate::{Highlights, RenderError, RenderOptions, Renderer};
use gif::{DisposalMethod, Encoder, Frame, Repeat};
use tokar_engine::View;

/// The largest replay handed out: 10 MB, Discord's upload limit without boosts.
pub const MAX_REPLAY_BYTES: usize = 10_000_000;

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
    /// Frames in the GIF: the actions shown and the pause.
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
            let frame = match &previous {
                None => Frame {
                    width: width as u16,
                    height: height as u16,
                    buffer: std::borrow::Cow::Borrowed(&current),
                    delay,
                    dispose: DisposalMethod::Keep,
                    ..Frame::default()
                },
                Some(before) => {
                    changed_frame(before, &current, width, transparent, &mut rect, delay)
                }
            };
            encoder.write_frame(&frame).map_err(err)?;
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

/// The frame that turns `before` into `after` (both `width` wide, as tall):
/// the smallest rectangle holding every changed pixel, its unchanged pixels
/// `transparent` where the palette leaves an entry free. A frame with no
/// change is one transparent (or unchanged) pixel.
fn changed_frame<'a>(
    before: &[u8],
    after: &[u8],
    width: u32,
    transparent: Option<u8>,
    rect: &'a mut Vec<u8>,
    delay: u16,
) -> Frame<'a> {
    let w = width as usize;
    let rows = after.len() / w;
    let differs = |y: usize| before[y * w..(y + 1) * w] != after[y * w..(y + 1) * w];
    let Some(top) = (0..rows).find(|&y| differs(y)) else {
        rect.clear();
        rect.push(transparent.unwrap_or(after[0]));
        return Frame {
            width: 1,
            height: 1,
            buffer: std::borrow::Cow::Borrowed(rect),
            transparent,
            delay,
            dispose: DisposalMethod::Keep,
            ..Frame::default()
        };
    };
    let bottom = (top..rows).rev().find(|&y| differs(y)).unwrap_or(top);
    let (mut left, mut right) = (w, 0);
    for y in top..=bottom {
        let (b, a) = (&before[y * w..(y + 1) * w], &after[y * w..(y + 1) * w]);
        if let Some(l) = (0..left).find(|&x| b[x] != a[x]) {
            left = l;
        }
        if let Some(r) = (right..w).rev().find(|&x| b[x] != a[x]) {
            right = r.max(right);
        }
    }
    let right = right.max(left);
    rect.clear();
    for y in top..=bottom {
        let (b, a) = (
            &before[y * w + left..=y * w + right],
            &after[y * w + left..=y * w + right],
        );
        match transparent {
            Some(t) => rect.extend(b.iter().zip(a).map(|(&b, &a)| if a == b { t } else { a })),
            None => rect.extend_from_slice(a),
        }
    }
    Frame {
        left: left as u16,
        top: top as u16,
        width: (right - left + 1) as u16,
        height: (bottom - top + 1) as u16,
        buffer: std::borrow::Cow::Borrowed(rect),
        transparent,
        delay,
        dispose: DisposalMethod::Keep,
        ..Frame::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_changed_rectangle_holds_every_change_and_no_more() {
        let (w, h) = (10u32, 6usize);
        let before = vec![3u8; w as usize * h];
        let mut after = before.clone();
        after[2 * 10 + 7] = 5;
        after[4 * 10 + 2] = 6;
        let mut rect = Vec::new();
        let f = changed_frame(&before, &after, w, Some(200), &mut rect, 7);
        assert_eq!((f.left, f.top, f.width, f.height), (2, 2, 6, 3));
        assert_eq!(f.transparent, Some(200));
        assert_eq!(f.buffer[5], 5, "the change at (7, 2)");
        assert_eq!(f.buffer[2 * 6], 6, "the change at (2, 4)");
        assert_eq!(f.buffer.iter().filter(|&&i| i == 200).count(), 16);
        let mut rect = Vec::new();
        let f = changed_frame(&before, &before, w, Some(200), &mut rect, 7);
        assert_eq!((f.width, f.height, f.buffer[0]), (1, 1, 200));
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
