//! Replays: a whole game from the engine as an animated GIF, decoded again
//! with the `gif` crate and put together frame by frame as a viewer would.

mod samples;

use tokar_engine::{GameKind, Options, Seat, View, Viewer};
use tokar_render::{Highlights, RenderOptions, Renderer, ReplayOptions};

/// A decoded GIF: each shown picture composed over the ones before (frames
/// keep what they do not cover, and their transparent pixels show what is
/// under), as RGB, with the GIF's size. An action may be several GIF frames
/// (its rectangles): the frames before its last are shown for
/// `SUB_FRAME_CS` each and the last for the rest of the action's time, so a
/// shown picture is the screen once the frames since the one before last
/// `frame_cs` hundredths together (the pause, longer, is one too). `delays`
/// are the shown pictures' times, `areas` every GIF frame's size.
struct Decoded {
    width: usize,
    height: usize,
    frames: Vec<Vec<u8>>,
    delays: Vec<u16>,
    areas: Vec<(u16, u16)>,
}

fn decode_gif(bytes: &[u8], frame_cs: u16) -> Decoded {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options
        .read_info(std::io::Cursor::new(bytes))
        .expect("a GIF header");
    let (width, height) = (decoder.width() as usize, decoder.height() as usize);
    let palette = decoder.global_palette().expect("a global palette").to_vec();
    let mut screen = vec![0u8; width * height];
    let (mut frames, mut delays, mut areas) = (Vec::new(), Vec::new(), Vec::new());
    let mut waited = 0u16;
    while let Some(frame) = decoder.read_next_frame().expect("a frame") {
        areas.push((frame.width, frame.height));
        assert!(frame.palette.is_none(), "one palette for the whole replay");
        let (left, top) = (frame.left as usize, frame.top as usize);
        let fw = frame.width as usize;
        for (i, &p) in frame.buffer.iter().enumerate() {
            if Some(p) == frame.transparent {
                continue;
            }
            let (x, y) = (left + i % fw, top + i / fw);
            assert!(x < width && y < height, "frames lie inside the GIF");
            screen[y * width + x] = p;
        }
        waited += frame.delay;
        if waited < frame_cs {
            assert_eq!(frame.delay, tokar_render::SUB_FRAME_CS);
            continue;
        }
        assert!(
            waited == frame_cs || waited == frame.delay,
            "an action's frames last its time (or the pause is one frame)"
        );
        frames.push(
            screen
                .iter()
                .flat_map(|&i| palette[i as usize * 3..i as usize * 3 + 3].to_vec())
                .collect(),
        );
        delays.push(waited);
        waited = 0;
    }
    Decoded {
        width,
        height,
        frames,
        delays,
        areas,
    }
}

/// A still picture as RGB rows (palette expanded), with its size.
fn still(renderer: &Renderer, view: &View, highlights: &Highlights) -> (usize, usize, Vec<u8>) {
    let png_bytes = renderer.render(view, highlights).expect("renders");
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a PNG header");
    let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut buf).expect("a PNG frame");
    buf.truncate(info.buffer_size());
    (info.width as usize, info.height as usize, buf)
}

/// The replay's frame shows the still picture in its top rows, and the
/// background below it (frames are as tall as the tallest picture).
fn frame_is_still(frame: &[u8], gif_height: usize, still: &(usize, usize, Vec<u8>)) -> bool {
    let (w, h, rgb) = still;
    let split = w * h * 3;
    let background = &rgb[..3];
    gif_height >= *h
        && frame[..split] == rgb[..]
        && frame[split..].chunks(3).all(|p| p == background)
}

/// A whole Arcana game (80 actions, to the end): one frame per action and
/// the pause, each frame the still picture of that moment, the last one the
/// final picture; the pause holds the final position longer.
#[test]
fn a_whole_game_replays_one_frame_per_action_then_the_pause() {
    let (mut steps, over) = samples::game_steps(
        GameKind::Arcana,
        &Options::new(),
        1,
        400,
        &[Viewer::Spectator],
    );
    assert!(over, "the game ends");
    let steps = steps.remove(0);
    let renderer = Renderer::new();
    let replay = renderer
        .replay(&steps, &ReplayOptions::default())
        .expect("a replay");
    assert_eq!((replay.every, replay.actions_shown), (1, steps.len()));
    let gif = decode_gif(&replay.gif, (replay.frame_ms / 10) as u16);
    assert_eq!(
        gif.frames.len(),
        steps.len() + 1,
        "one per action and the pause"
    );
    assert_eq!(replay.frames, gif.frames.len());
    assert_eq!((gif.width as u32, gif.height as u32), replay.size);
    for (i, (view, highlights)) in steps.iter().enumerate() {
        let picture = still(&renderer, view, highlights);
        assert_eq!(picture.0, gif.width);
        assert!(
            frame_is_still(&gif.frames[i], gif.height, &picture),
            "frame {i} is the picture after action {}",
            i + 1
        );
    }
    let (last_view, last_highlights) = steps.last().expect("actions");
    let final_picture = still(&renderer, last_view, last_highlights);
    assert!(last_view.outcome.is_over());
    assert!(frame_is_still(
        gif.frames.last().expect("frames"),
        gif.height,
        &final_picture
    ));
    let frame_cs = (replay.frame_ms / 10) as u16;
    assert!(gif.delays[..steps.len()].iter().all(|&d| d == frame_cs));
    assert!(*gif.delays.last().expect("the pause") > frame_cs);
    assert!(replay.gif.len() <= tokar_render::MAX_REPLAY_BYTES);
}

/// Frames after the first carry only what changed: each is smaller than the
/// whole picture, so the replay is far smaller than the stills' sum.
#[test]
fn frames_after_the_first_carry_only_the_changed_rectangle() {
    let (mut steps, _) = samples::game_steps(
        GameKind::Arachne,
        &Options::new(),
        4,
        400,
        &[Viewer::Spectator],
    );
    let steps = steps.remove(0);
    let replay = Renderer::new()
        .replay(&steps, &ReplayOptions::default())
        .expect("a replay");
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options
        .read_info(std::io::Cursor::new(&replay.gif))
        .expect("a GIF header");
    let (w, h) = (decoder.width(), decoder.height());
    let mut sizes = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a frame") {
        sizes.push((frame.width, frame.height));
    }
    assert_eq!(sizes[0], (w, h), "the first frame is whole");
    for &(fw, fh) in &sizes[1..] {
        assert!((fw as u32 * fh as u32) < (w as u32 * h as u32));
    }
    assert_eq!(
        *sizes.last().expect("the pause"),
        (1, 1),
        "the pause changes nothing"
    );
}

/// An action carries only its changed pixels' neighbourhoods: the header,
/// the squares and the seat rows it changed are separate small rectangles,
/// so the frames after the first hold a small part of the picture's area
/// (one rectangle around them all held 88 % of it in a 200-action game).
#[test]
fn actions_carry_a_small_part_of_the_picture() {
    let (mut steps, _) = samples::game_steps(
        GameKind::MagicChess,
        &Options::new(),
        7,
        120,
        &[Viewer::Spectator],
    );
    let steps = steps.remove(0);
    let renderer = Renderer::new();
    let replay = renderer
        .replay(&steps, &ReplayOptions::default())
        .expect("a replay");
    let gif = decode_gif(&replay.gif, (replay.frame_ms / 10) as u16);
    assert_eq!(gif.frames.len(), steps.len() + 1);
    let whole = (gif.width * gif.height) as f64;
    let later = &gif.areas[1..gif.areas.len() - 1];
    let carried: f64 = later.iter().map(|&(w, h)| w as f64 * h as f64).sum();
    let share = carried / (whole * (steps.len() - 1) as f64);
    assert!(
        share < 0.25,
        "actions after the first carry {:.0} % of the picture on average",
        share * 100.0
    );
    for (i, (view, highlights)) in steps.iter().enumerate() {
        assert!(
            frame_is_still(
                &gif.frames[i],
                gif.height,
                &still(&renderer, view, highlights)
            ),
            "picture {i} is the still after action {}",
            i + 1
        );
    }
}

/// A replay over the size asked for shows every n-th action and the last,
/// and says so.
#[test]
fn a_replay_too_large_shows_fewer_actions() {
    let (mut steps, _) = samples::game_steps(
        GameKind::Arcana,
        &Options::new(),
        1,
        400,
        &[Viewer::Spectator],
    );
    let steps = steps.remove(0);
    let renderer = Renderer::new();
    let whole = renderer
        .replay(&steps, &ReplayOptions::default())
        .expect("a replay");
    let mut options = ReplayOptions::default();
    options.max_bytes = whole.gif.len() / 2;
    let half = renderer.replay(&steps, &options).expect("a smaller replay");
    assert!(half.gif.len() <= options.max_bytes);
    assert!(half.every >= 2);
    assert_eq!(half.actions_shown, steps.len().div_ceil(half.every));
    let gif = decode_gif(&half.gif, (half.frame_ms / 10) as u16);
    assert_eq!(gif.frames.len(), half.actions_shown + 1);
    let (view, highlights) = steps.last().expect("actions");
    let last = still(&renderer, view, highlights);
    assert!(frame_is_still(
        gif.frames.last().expect("frames"),
        gif.height,
        &last
    ));
    assert!(renderer.replay(&[], &ReplayOptions::default()).is_err());
}

/// Magic Chess in public: the spectators' replay shows no hand in any frame
/// (each frame is the spectator's picture, which has no `Your hand` and none
/// of the spells held), while Red's own replay does show Red's hand.
#[test]
fn a_public_magic_chess_replay_shows_no_hand() {
    let (steps, over) = samples::game_steps(
        GameKind::MagicChess,
        &Options::new(),
        2,
        400,
        &[Viewer::Spectator, Viewer::Seat(Seat(0))],
    );
    assert!(over);
    let (public, red) = (&steps[0], &steps[1]);
    assert!(
        red.iter().any(|(v, _)| !v.hand.is_empty()),
        "Red holds spells"
    );
    assert!(public.iter().all(|(v, _)| v.hand.is_empty()));
    let renderer = Renderer::new();
    let has_hand = |steps: &[(View, Highlights)]| {
        steps.iter().any(|(v, h)| {
            let (_, _, texts) = renderer
                .text_boxes(v, h, &RenderOptions::default())
                .expect("renders");
            texts.iter().any(|t| t.text.contains("Your hand"))
        })
    };
    assert!(has_hand(red), "the check below can see a hand");
    assert!(!has_hand(public));
    let replay = renderer
        .replay(public, &ReplayOptions::default())
        .expect("a replay");
    let gif = decode_gif(&replay.gif, (replay.frame_ms / 10) as u16);
    assert_eq!(gif.frames.len(), public.len() + 1);
    for (i, (view, highlights)) in public.iter().enumerate() {
        assert!(
            frame_is_still(
                &gif.frames[i],
                gif.height,
                &still(&renderer, view, highlights)
            ),
            "frame {i} is the spectator's picture"
        );
    }
    let red_replay = renderer
        .replay(red, &ReplayOptions::default())
        .expect("Red's replay");
    assert_ne!(red_replay.gif, replay.gif);
}
