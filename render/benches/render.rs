//! Render + PNG encode time for one position of each kind of board, with the
//! picture's size in bytes printed alongside; and a 200-action replay as a GIF:
//! `cargo bench -p tokar-render --bench render -- --warm-up-time 1 --measurement-time 3`.

#[path = "../tests/samples/mod.rs"]
mod samples;

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use tokar_render::Renderer;

fn render(c: &mut Criterion) {
    let renderer = Renderer::new();
    let mut group = c.benchmark_group("render");
    for (name, (view, highlights)) in [
        ("8x8 arcana midgame", samples::arcana_midgame()),
        ("10x12 gladiator", samples::gladiator()),
        ("web arachne", samples::arachne_over()),
    ] {
        let png = renderer.render(&view, &highlights).expect("renders");
        println!("{name}: {} bytes per image", png.len());
        group.bench_function(name, |b| {
            b.iter(|| {
                renderer
                    .render(black_box(&view), black_box(&highlights))
                    .expect("renders")
            })
        });
    }
    group.finish();
}

/// A 200-action Magic Chess game (seeded random play, spectator's views)
/// replayed as an animated GIF: every frame drawn and encoded.
fn replay(c: &mut Criterion) {
    let renderer = Renderer::new();
    let (mut steps, _) = samples::game_steps(
        tokar_engine::GameKind::MagicChess,
        &tokar_engine::Options::new(),
        7,
        200,
        &[tokar_engine::Viewer::Spectator],
    );
    let steps = steps.remove(0);
    let options = tokar_render::ReplayOptions::default();
    let replay = renderer.replay(&steps, &options).expect("replays");
    println!(
        "replay of {} actions: {} frames, {} bytes, {}x{}",
        steps.len(),
        replay.frames,
        replay.gif.len(),
        replay.size.0,
        replay.size.1
    );
    let mut group = c.benchmark_group("replay");
    group.sample_size(10);
    group.bench_function("200 actions", |b| {
        b.iter(|| {
            renderer
                .replay(black_box(&steps), black_box(&options))
                .expect("replays")
        })
    });
    group.finish();
}

criterion_group!(benches, render, replay);
criterion_main!(benches);
