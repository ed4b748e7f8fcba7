//! Encodes sample pictures as indexed PNGs with each setting the `png` crate
//! offers that could meet the 8x8 targets (at most 50 KB, about 1.2 ms for the
//! whole picture), and prints bytes and the median encode time of each:
//! `cargo run --release -p tokar-render --example encoders -- [NAME...] [--runs N]
//! [--only PREFIX] [--no-shades]` (`--only`: the settings whose name begins so;
//! `--no-shades`: not the rows with fewer shades).
//! The pictures are the renderer's own, decoded back to palette indices, so
//! only the encoding differs between the rows. Then the same with fewer
//! shades: palette entries within a distance (RGB, Euclidean) of an earlier
//! kept entry are drawn as that entry, to see what fewer distinct symbols
//! would save.
//!
//! Beside the `png` crate's own deflaters: Tokar's own (`tokar rows`, the one
//! pictures use, `tokar_render::deflate`), libdeflate (through `libdeflater`)
//! and miniz_oxide, each given the scanlines (a filter byte before each row)
//! and its zlib stream written as the one IDAT chunk.

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

/// Who deflates the scanlines the example filters itself.
#[derive(Clone, Copy)]
enum Deflater {
    Libdeflate(i32),
    Miniz(u8),
    /// zlib-rs called directly (one call over the whole image): level,
    /// window bits, memory level, strategy.
    Zlib(i32, i32, i32, zlib_rs::Strategy),
    /// zlib-rs with its state kept and reset between pictures: level.
    ZlibKept(i32),
    /// zlib-rs on two threads, each deflating half the rows (the second
    /// with the first's last 32 KiB as its dictionary), the streams joined.
    ZlibSplit(i32),
    /// Tokar's own (`tokar_render::deflate`).
    Rows,
}

/// The zlib stream of `raw` deflated by zlib-rs at `level` on two threads:
/// the top half ends on a sync flush (byte-aligned, not the last block), the
/// bottom half starts from the top's last 32 KiB, so matches still reach
/// across the cut.
fn split_zlib(raw: &[u8], width: usize, level: i32) -> Vec<u8> {
    let stride = width + 1;
    let cut = raw.len() / stride / 2 * stride;
    let (top, bottom) = raw.split_at(cut);
    let deflate = |input: &[u8], dictionary: &[u8], flush| {
        let mut d = zlib_rs::Deflate::new(level, false, 15);
        if !dictionary.is_empty() {
            d.set_dictionary(dictionary).expect("a dictionary");
        }
        let mut out = vec![0; zlib_rs::compress_bound(input.len()) + 16];
        d.compress(input, &mut out, flush).expect("compresses");
        out.truncate(d.total_out() as usize);
        out
    };
    let dictionary = &top[top.len().saturating_sub(32 * 1024)..];
    let (first, second) = std::thread::scope(|s| {
        let first = s.spawn(|| deflate(top, &[], zlib_rs::DeflateFlush::SyncFlush));
        let second = deflate(bottom, dictionary, zlib_rs::DeflateFlush::Finish);
        (first.join().expect("the top half"), second)
    });
    let adler = zlib_rs::adler32::adler32(1, raw);
    let mut z = vec![0x78, 0x5e];
    z.extend_from_slice(&first);
    z.extend_from_slice(&second);
    z.extend_from_slice(&adler.to_be_bytes());
    z
}

/// The compressors kept between encodes.
#[derive(Default)]
struct Kept {
    libdeflate: Option<libdeflater::Compressor>,
    zlib: Option<zlib_rs::Deflate>,
    out: Vec<u8>,
    rows: tokar_render::deflate::Deflater,
}

/// The scanlines with a filter byte before each row (PNG filter types for
/// one byte a pixel: 0 none, 1 Sub, 2 Up, 4 Paeth; 5 here means the png
/// crate's adaptive choice, the smallest sum of absolute values).
fn scanlines(width: usize, indices: &[u8], filter: u8, out: &mut Vec<u8>) {
    out.clear();
    let zero = vec![0u8; width];
    let mut tries = [vec![0u8; width], vec![0u8; width], vec![0u8; width]];
    for (y, row) in indices.chunks_exact(width).enumerate() {
        let up = if y == 0 {
            &zero[..]
        } else {
            &indices[(y - 1) * width..y * width]
        };
        if filter == 0 {
            out.push(0);
            out.extend_from_slice(row);
            continue;
        }
        let kinds: &[u8] = if filter == 5 {
            &[1, 2, 4]
        } else {
            std::slice::from_ref(&filter)
        };
        for (t, &k) in tries.iter_mut().zip(kinds) {
            for x in 0..width {
                let a = if x == 0 { 0 } else { row[x - 1] };
                let c = if x == 0 { 0 } else { up[x - 1] };
                let b = up[x];
                let pred = match k {
                    1 => a,
                    2 => b,
                    _ => {
                        let p = a as i16 + b as i16 - c as i16;
                        let (pa, pb, pc) = (
                            (p - a as i16).abs(),
                            (p - b as i16).abs(),
                            (p - c as i16).abs(),
                        );
                        if pa <= pb && pa <= pc {
                            a
                        } else if pb <= pc {
                            b
                        } else {
                            c
                        }
                    }
                };
                t[x] = row[x].wrapping_sub(pred);
            }
        }
        let score = |t: &[u8]| {
            t.iter()
                .map(|&v| (v as i8).unsigned_abs() as u64)
                .sum::<u64>()
        };
        let best = (0..kinds.len())
            .min_by_key(|&i| score(&tries[i]))
            .unwrap_or(0);
        out.push(kinds[best]);
        out.extend_from_slice(&tries[best]);
    }
}

/// The picture as a PNG whose IDAT is `deflater`'s zlib stream of the
/// scanlines filtered with `filter`.
fn encode_with(
    width: u32,
    height: u32,
    plte: &[u8],
    indices: &[u8],
    deflater: Deflater,
    filter: u8,
    kept: &mut Kept,
) -> Vec<u8> {
    let mut raw = Vec::with_capacity(indices.len() + height as usize);
    scanlines(width as usize, indices, filter, &mut raw);
    let zlib = match deflater {
        Deflater::Libdeflate(level) => {
            let lvl = libdeflater::CompressionLvl::new(level).expect("a level");
            let c = kept
                .libdeflate
                .get_or_insert_with(|| libdeflater::Compressor::new(lvl));
            let mut z = vec![0; c.zlib_compress_bound(raw.len())];
            let n = c.zlib_compress(&raw, &mut z).expect("fits its bound");
            z.truncate(n);
            z
        }
        Deflater::Miniz(level) => miniz_oxide::deflate::compress_to_vec_zlib(&raw, level),
        Deflater::Zlib(level, window_bits, mem_level, strategy) => {
            let config = zlib_rs::DeflateConfig {
                level,
                window_bits,
                mem_level,
                strategy,
                ..Default::default()
            };
            let mut z = vec![0; zlib_rs::compress_bound(raw.len())];
            let (done, code) = zlib_rs::compress_slice(&mut z, &raw, config);
            assert_eq!(code, zlib_rs::ReturnCode::Ok, "zlib-rs");
            let n = done.len();
            z.truncate(n);
            z
        }
        Deflater::ZlibSplit(level) => split_zlib(&raw, width as usize, level),
        Deflater::Rows => {
            let mut z = Vec::new();
            tokar_render::deflate::zlib_rows(&raw, width as usize + 1, &mut kept.rows, &mut z);
            z
        }
        Deflater::ZlibKept(level) => {
            let d = kept
                .zlib
                .get_or_insert_with(|| zlib_rs::Deflate::new(level, true, 15));
            d.reset();
            let z = &mut kept.out;
            z.resize(zlib_rs::compress_bound(raw.len()), 0);
            let status = d
                .compress(&raw, z, zlib_rs::DeflateFlush::Finish)
                .expect("compresses");
            assert_eq!(status, zlib_rs::Status::StreamEnd);
            z[..d.total_out() as usize].to_vec()
        }
    };
    let mut out = Vec::with_capacity(zlib.len() + plte.len() + 128);
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(plte.to_vec());
    let mut writer = encoder.write_header().expect("a header");
    writer
        .write_chunk(png::chunk::IDAT, &zlib)
        .expect("the IDAT");
    writer.finish().expect("the end");
    out
}

/// Like [`measure`] for a deflater of the example's own; `fresh` makes a new
/// libdeflate compressor for every encode (as a renderer without one kept
/// would), otherwise one is kept across encodes. Checks the PNG decodes to
/// the same indices.
#[allow(clippy::too_many_arguments)]
fn measure_with(
    name: &str,
    width: u32,
    height: u32,
    plte: &[u8],
    indices: &[u8],
    deflater: Deflater,
    filter: u8,
    fresh: bool,
    runs: usize,
) {
    let mut times = Vec::with_capacity(runs);
    let mut bytes = Vec::new();
    let mut kept = Kept::default();
    for _ in 0..runs {
        let start = Instant::now();
        if fresh {
            kept = Kept::default();
        }
        bytes = encode_with(width, height, plte, indices, deflater, filter, &mut kept);
        times.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    let decoder = png::Decoder::new(std::io::Cursor::new(&bytes));
    let mut reader = decoder.read_info().expect("our PNG reads");
    let mut back = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut back).expect("our frame decodes");
    back.truncate(info.buffer_size());
    assert!(back == indices, "{name}: decodes to other indices");
    times.sort_by(|a, b| a.total_cmp(b));
    println!(
        "  {:<28} {:>7} bytes  median {:.3} ms  [{:.3}-{:.3}]",
        name,
        bytes.len(),
        times[runs / 2],
        times[runs / 10],
        times[runs * 9 / 10]
    );
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
    let mut shades = true;
    let mut only = String::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--runs" {
            runs = args.next().and_then(|n| n.parse().ok()).unwrap_or(runs);
        } else if a == "--no-shades" {
            shades = false;
        } else if a == "--only" {
            only = args.next().unwrap_or_default();
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
        ("zlib-rs 2, none", Some(2), Filter::NoFilter),
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
        for s in settings.iter().filter(|s| s.name.starts_with(&only)) {
            measure(info.width, info.height, &plte, &indices, s, runs);
        }
        let (w, h) = (info.width, info.height);
        let own = |name: &str, d: Deflater, filter: u8, fresh: bool| {
            if name.starts_with(&only) {
                measure_with(name, w, h, &plte, &indices, d, filter, fresh, runs)
            }
        };
        own("tokar rows (kept)", Deflater::Rows, 0, false);
        for level in 1..=12 {
            own(
                &format!("libdeflate {level}, none"),
                Deflater::Libdeflate(level),
                0,
                false,
            );
        }
        for level in [1, 2, 4, 6] {
            own(
                &format!("libdeflate {level}, none, new"),
                Deflater::Libdeflate(level),
                0,
                true,
            );
        }
        for level in [1, 3, 6] {
            for (f, fname) in [(1, "Sub"), (2, "Up"), (4, "Paeth"), (5, "adaptive")] {
                own(
                    &format!("libdeflate {level}, {fname}"),
                    Deflater::Libdeflate(level),
                    f,
                    false,
                );
            }
        }
        use zlib_rs::Strategy;
        for level in 1..=3 {
            for (wb, ml) in [(15, 8), (15, 9), (11, 8), (12, 9), (15, 4)] {
                let name = format!("zlib-rs* {level} w{wb} m{ml}");
                own(
                    &name,
                    Deflater::Zlib(level, wb, ml, Strategy::Default),
                    0,
                    false,
                );
            }
        }
        for level in 1..=3 {
            own(
                &format!("zlib-rs kept {level}"),
                Deflater::ZlibKept(level),
                0,
                false,
            );
        }
        for level in 2..=3 {
            own(
                &format!("zlib-rs split {level}"),
                Deflater::ZlibSplit(level),
                0,
                false,
            );
        }
        own(
            "zlib-rs* 2 rle",
            Deflater::Zlib(2, 15, 8, Strategy::Rle),
            0,
            false,
        );
        own(
            "zlib-rs* 2 filtered",
            Deflater::Zlib(2, 15, 8, Strategy::Filtered),
            0,
            false,
        );
        for level in 1..=3 {
            own(
                &format!("miniz_oxide {level}, none"),
                Deflater::Miniz(level),
                0,
                false,
            );
        }
        if !shades {
            continue;
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
