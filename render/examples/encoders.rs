//! Encodes sample pictures as indexed PNGs with each setting the `png` crate
//! offers that could meet the 8x8 targets (at most 50 KB, about 1.2 ms for the
//! whole picture), and prints bytes and the median encode time of each:
//! `cargo run --release -p tokar-render --example encoders -- [NAME...] [--runs N]`.
//! The pictures are the renderer's own, decoded back to palette indices, so
//! only the encoding differs between the rows. Then the same with fewer
//! shades: palette entries within a distance (RGB, Euclidean) of an earlier
//! kept entry are drawn as that entry, to see what fewer distinct symbols
//! would save.

#[path = "../tests/samples/mod.rs"]
mod samples;

use png::{Compression, DeflateCompression, Filter};
use std::time::Instant;

fn encode(width: u32, height: u32, plte: &[u8], indices: &[u8], setting: &Setting) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 * 1024);
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(plte.to_vec());
    match setting.deflate {
        Some(level) => encoder.set_deflate_compression(DeflateCompression::Level(level)),
        None => encoder.set_compression(Compression::Fast),
    }
    encoder.set_filter(setting.filter);
    let mut writer = encoder.write_header().expect("a header");
    writer.write_image_data(indices).expect("the rows");
    writer.finish().expect("the end");
    out
}

struct Setting {
    name: &'static str,
    /// zlib-rs level, or None for fdeflate (`Compression::Fast`).
    deflate: Option<u8>,
    filter: Filter,
}

/// Encodes `runs` times; prints the bytes and the median time with the 10th
/// and 90th percentiles.
fn measure(width: u32, height: u32, plte: &[u8], indices: &[u8], s: &Setting, runs: usize) {
    let mut times = Vec::with_capacity(runs);
    let mut bytes = 0;
    for _ in 0..runs {
        let start = Instant::now();
        bytes = encode(width, height, plte, indices, s).len();
        times.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(|a, b| a.total_cmp(b));
    println!(
        "  {:<28} {:>7} bytes  median {:.3} ms  [{:.3}-{:.3}]",
        s.name,
        bytes,
        times[runs / 2],
        times[runs / 10],
        times[runs * 9 / 10]
    );
}

fn main() {
    let mut names = Vec::new();
    let mut runs = 200usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--runs" {
            runs = args.next().and_then(|n| n.parse().ok()).unwrap_or(runs);
        } else {
            names.push(a);
        }
    }
    if names.is_empty() {
        names = vec![
            "arcana_midgame".into(),
            "gladiator".into(),
            "arachne_over".into(),
        ];
    }
    let settings = [
        ("fdeflate, adaptive", None, Filter::Adaptive),
        ("fdeflate, Sub", None, Filter::Sub),
        ("fdeflate, Up", None, Filter::Up),
        ("fdeflate, Paeth", None, Filter::Paeth),
        ("zlib-rs 1, none", Some(1), Filter::NoFilter),
        ("zlib-rs 1, Sub", Some(1), Filter::Sub),
        ("zlib-rs 1, Up", Some(1), Filter::Up),
        ("zlib-rs 1, adaptive", Some(1), Filter::Adaptive),
        ("zlib-rs 2, none (kept)", Some(2), Filter::NoFilter),
        ("zlib-rs 2, Sub", Some(2), Filter::Sub),
        ("zlib-rs 2, Up", Some(2), Filter::Up),
        ("zlib-rs 2, Paeth", Some(2), Filter::Paeth),
        ("zlib-rs 2, adaptive", Some(2), Filter::Adaptive),
        ("zlib-rs 3, none", Some(3), Filter::NoFilter),
        ("zlib-rs 3, Up", Some(3), Filter::Up),
    ]
    .map(|(name, deflate, filter)| Setting {
        name,
        deflate,
        filter,
    });
    let renderer = tokar_render::Renderer::new();
    let all = samples::all();
    for name in &names {
        let (_, view, highlights) = all
            .iter()
            .find(|(n, _, _)| n == name)
            .unwrap_or_else(|| panic!("no sample named {name}"));
        let png_bytes = renderer.render(view, highlights).expect("renders");
        let decoder = png::Decoder::new(std::io::Cursor::new(&png_bytes));
        let mut reader = decoder.read_info().expect("a PNG");
        let plte = reader.info().palette.as_ref().expect("a palette").to_vec();
        let mut indices = vec![0; reader.output_buffer_size().expect("a size")];
        let info = reader.next_frame(&mut indices).expect("a frame");
        indices.truncate(info.buffer_size());
        println!(
            "{name}: {}x{}, {} bytes as rendered",
            info.width,
            info.height,
            png_bytes.len()
        );
        for s in &settings {
            measure(info.width, info.height, &plte, &indices, s, runs);
        }
        for distance in [4.0f32, 6.0, 8.0, 10.0, 12.0, 16.0, 24.0] {
            let rgb = |i: usize| [plte[i * 3], plte[i * 3 + 1], plte[i * 3 + 2]].map(|c| c as f32);
            let entries = plte.len() / 3;
            let mut map: Vec<u8> = (0..entries).map(|i| i as u8).collect();
            let mut kept: Vec<usize> = Vec::new();
            for (i, m) in map.iter_mut().enumerate() {
                let near = kept.iter().copied().find(|&k| {
                    let (a, b) = (rgb(i), rgb(k));
                    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
                        <= distance
                });
                match near {
                    Some(k) => *m = k as u8,
                    None => kept.push(i),
                }
            }
            let fewer: Vec<u8> = indices.iter().map(|&i| map[i as usize]).collect();
            let mut used = [false; 256];
            fewer.iter().for_each(|&i| used[i as usize] = true);
            println!(
                "  shades within {distance} as one: {} entries, {} used",
                kept.len(),
                used.iter().filter(|&&u| u).count()
            );
            for s in settings.iter().filter(|s| {
                matches!(
                    (s.deflate, s.filter),
                    (None, Filter::Adaptive)
                        | (None, Filter::Paeth)
                        | (Some(2), Filter::NoFilter)
                        | (Some(3), Filter::NoFilter)
                )
            }) {
                measure(info.width, info.height, &plte, &fewer, s, runs);
            }
        }
    }
}
