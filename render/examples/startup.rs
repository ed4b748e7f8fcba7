//! What is prepared once, timed: `Renderer::new()` (palette, blend table,
//! glyphs), then the first picture of each kind of board (its background,
//! piece art, badges and highlights drawn in colour and mapped to the
//! palette) against a second picture of the same position, which only copies:
//! `cargo run --release -p tokar-render --example startup`.

#[path = "../tests/samples/mod.rs"]
mod samples;

use std::time::Instant;

fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1000.0
}

fn main() {
    let start = Instant::now();
    let renderer = tokar_render::Renderer::new();
    println!("Renderer::new(): {:.1} ms", ms(start));
    for (name, (view, highlights)) in [
        ("8x8 arcana midgame", samples::arcana_midgame()),
        ("10x12 gladiator", samples::gladiator()),
        ("web arachne", samples::arachne_over()),
    ] {
        let start = Instant::now();
        renderer.render(&view, &highlights).expect("renders");
        let first = ms(start);
        let start = Instant::now();
        renderer.render(&view, &highlights).expect("renders");
        println!(
            "{name}: first picture {first:.1} ms, the next {:.2} ms",
            ms(start)
        );
    }
}
