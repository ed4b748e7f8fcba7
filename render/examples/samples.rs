//! Writes every hand-built sample position as a PNG into a folder, for looking at:
//! `cargo run -p tokar-render --example samples -- OUT_DIR`.

#[path = "../tests/samples/mod.rs"]
mod samples;

fn main() {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "target/samples".into());
    std::fs::create_dir_all(&out).expect("output folder");
    let renderer = tokar_render::Renderer::new();
    for (name, view, highlights) in samples::all().into_iter().chain(samples::engine_all()) {
        match renderer.render(&view, &highlights) {
            Ok(png) => {
                let path = format!("{out}/{name}.png");
                std::fs::write(&path, &png).expect("write");
                println!("{path}: {} bytes", png.len());
            }
            Err(e) => println!("{name}: {e}"),
        }
    }
}
