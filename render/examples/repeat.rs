//! Renders one sample position many times (for profilers):
//! `cargo run --release -p tokar-render --example repeat -- NAME COUNT`.

#[path = "../tests/samples/mod.rs"]
mod samples;

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "arcana_midgame".into());
    let count: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(100);
    let (_, view, highlights) = samples::all()
        .into_iter()
        .find(|(n, _, _)| *n == name)
        .unwrap_or_else(|| panic!("no sample named {name}"));
    let renderer = tokar_render::Renderer::new();
    let mut bytes = 0;
    for _ in 0..count {
        bytes = renderer.render(&view, &highlights).expect("renders").len();
    }
    println!("{name}: {bytes} bytes");
}
