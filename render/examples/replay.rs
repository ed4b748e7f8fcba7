//! Replays a seeded random game as an animated GIF and writes it, with its
//! size and time (for looking at, and for profilers):
//! `cargo run --release -p tokar-render --example replay -- OUT.gif [GAME] [SEED] [ACTIONS] [SEAT]`
//! (GAME: arcana, magic, gladiator, arachne; SEAT: a seat's own views
//! instead of the spectators').

#[path = "../tests/samples/mod.rs"]
mod samples;

use tokar_engine::{GameKind, Options, Seat, Viewer};

fn main() {
    let mut args = std::env::args().skip(1);
    let out = args.next().unwrap_or_else(|| "replay.gif".into());
    let kind = match args.next().as_deref() {
        Some("arcana") => GameKind::Arcana,
        Some("gladiator") => GameKind::Gladiator,
        Some("arachne") => GameKind::Arachne,
        _ => GameKind::MagicChess,
    };
    let seed: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(7);
    let actions: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(200);
    let viewer = match args.next().and_then(|n| n.parse().ok()) {
        Some(s) => Viewer::Seat(Seat(s)),
        None => Viewer::Spectator,
    };
    let (mut steps, _) = samples::game_steps(kind, &Options::new(), seed, actions, &[viewer]);
    let steps = steps.remove(0);
    let renderer = tokar_render::Renderer::new();
    let options = tokar_render::ReplayOptions::default();
    let start = std::time::Instant::now();
    let replay = renderer.replay(&steps, &options).expect("replays");
    let took = start.elapsed();
    std::fs::write(&out, &replay.gif).expect("writes the GIF");
    println!(
        "{} actions: {} frames (every {}), {} ms a frame, {} bytes, {}x{}, {:.1} ms",
        steps.len(),
        replay.frames,
        replay.every,
        replay.frame_ms,
        replay.gif.len(),
        replay.size.0,
        replay.size.1,
        took.as_secs_f64() * 1000.0
    );
    // How much of the picture the frames after the first carry.
    let mut decoder = gif::DecodeOptions::new()
        .read_info(std::io::Cursor::new(&replay.gif))
        .expect("a GIF");
    let whole = replay.size.0 as f64 * replay.size.1 as f64;
    let mut shares = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a frame") {
        shares.push(frame.width as f64 * frame.height as f64 / whole);
    }
    let later = &shares[1..shares.len() - 1];
    println!(
        "frames after the first carry {:.0} % of the picture on average",
        100.0 * later.iter().sum::<f64>() / later.len().max(1) as f64
    );
}
