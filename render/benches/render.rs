//! Render + PNG encode time for one position of each kind of board, with the
//! picture's size in bytes printed alongside:
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

criterion_group!(benches, render);
criterion_main!(benches);
