//! Golden images: each hand-built position, and each engine position, is
//! rendered and compared with the PNG
//! checked in under tests/golden/, pixel by pixel with a small tolerance.
//!
//! Regenerate after an intended change with `TOKAR_BLESS=1 cargo test -p tokar-render`,
//! then look at the new pictures before committing them. On a mismatch the actual
//! picture and a diff (differing pixels in red over a faded golden) are written to
//! tests/failures/.

mod samples;

use std::path::PathBuf;
use tokar_render::{Highlights, Renderer};

/// A channel may differ by this much without counting (anti-aliasing, rounding).
const CHANNEL_TOLERANCE: u8 = 24;
/// At most this share of pixels may differ beyond the tolerance.
const MAX_DIFFERING: f64 = 0.001;

struct Image {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
}

fn decode(png_bytes: &[u8]) -> Image {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    // Palette indices become their RGB colours.
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a PNG header");
    assert_eq!(
        reader.info().color_type,
        png::ColorType::Indexed,
        "pictures are indexed"
    );
    let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut buf).expect("a PNG frame");
    assert_eq!(info.color_type, png::ColorType::Rgb, "expanded to RGB");
    buf.truncate(info.buffer_size());
    Image {
        width: info.width,
        height: info.height,
        rgb: buf,
    }
}

fn encode(img: &Image) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, img.width, img.height);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header().expect("header");
    w.write_image_data(&img.rgb).expect("data");
    w.finish().expect("finish");
    out
}

fn dir(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(name)
}

/// Compares `actual` with the golden picture `name`; returns why they differ.
/// Failure pictures are written under the name `out`.
fn compare(name: &str, out: &str, actual_png: &[u8]) -> Result<(), String> {
    let golden_path = dir("golden").join(format!("{name}.png"));
    if std::env::var_os("TOKAR_BLESS").is_some() {
        std::fs::create_dir_all(dir("golden")).expect("golden folder");
        std::fs::write(&golden_path, actual_png).expect("write golden");
        return Ok(());
    }
    let golden_png = std::fs::read(&golden_path).map_err(|e| {
        format!(
            "{name}: no golden picture at {} ({e}); run with TOKAR_BLESS=1",
            golden_path.display()
        )
    })?;
    let (golden, actual) = (decode(&golden_png), decode(actual_png));
    let failures = dir("failures");
    if (golden.width, golden.height) != (actual.width, actual.height) {
        std::fs::create_dir_all(&failures).expect("failures folder");
        std::fs::write(failures.join(format!("{out}.actual.png")), actual_png).expect("write");
        return Err(format!(
            "{name}: size {}x{} differs from the golden {}x{}",
            actual.width, actual.height, golden.width, golden.height
        ));
    }
    let mut diff = Vec::with_capacity(golden.rgb.len());
    let mut differing = 0usize;
    for (g, a) in golden.rgb.chunks_exact(3).zip(actual.rgb.chunks_exact(3)) {
        let off = g
            .iter()
            .zip(a)
            .any(|(x, y)| x.abs_diff(*y) > CHANNEL_TOLERANCE);
        if off {
            differing += 1;
            diff.extend_from_slice(&[255, 0, 0]);
        } else {
            diff.extend(g.iter().map(|&c| 160 + c / 3 * 2 / 3));
        }
    }
    let pixels = (golden.width * golden.height) as usize;
    if differing as f64 > MAX_DIFFERING * pixels as f64 {
        std::fs::create_dir_all(&failures).expect("failures folder");
        std::fs::write(failures.join(format!("{out}.actual.png")), actual_png).expect("write");
        let diff_img = Image {
            width: golden.width,
            height: golden.height,
            rgb: diff,
        };
        std::fs::write(failures.join(format!("{out}.diff.png")), encode(&diff_img)).expect("write");
        return Err(format!(
            "{name}: {differing} of {pixels} pixels differ; see tests/failures/{out}.diff.png"
        ));
    }
    Ok(())
}

#[test]
fn hand_built_positions_match_their_golden_pictures() {
    let renderer = Renderer::new();
    let mut errors = Vec::new();
    for (name, view, highlights) in samples::all() {
        let png = renderer
            .render(&view, &highlights)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Err(e) = compare(name, name, &png) {
            errors.push(e);
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// The engine's own games: each opening, and a busy Arcana middle game (a kill
/// on the last action, a paralysed piece, firebrew tokens, both graveyards).
/// These change when a game's rules or views change: re-bless and look.
#[test]
fn engine_positions_match_their_golden_pictures() {
    let renderer = Renderer::new();
    let mut errors = Vec::new();
    for (name, view, highlights) in samples::engine_all() {
        let png = renderer
            .render(&view, &highlights)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Err(e) = compare(name, name, &png) {
            errors.push(e);
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// A league's crosstable (`Renderer::crosstable`), drawn from the sample built
/// by hand.
#[test]
fn the_crosstable_matches_its_golden_picture() {
    let png = Renderer::new()
        .crosstable(&samples::crosstable())
        .expect("drawn");
    compare("crosstable", "crosstable", &png).unwrap();
}

#[test]
fn the_comparison_catches_a_changed_picture() {
    // Guards the guard: a view with a piece moved must not pass as the golden one.
    if std::env::var_os("TOKAR_BLESS").is_some() {
        return;
    }
    let renderer = Renderer::new();
    let (mut view, highlights) = samples::arcana_start();
    view.pieces[0].cell = samples::cell(&view.board, "d4");
    let png = renderer.render(&view, &highlights).expect("renders");
    let err = compare("arcana_start", "moved_piece", &png).expect_err("a moved piece is noticed");
    assert!(err.contains("pixels differ"), "{err}");
    let _ = std::fs::remove_file(dir("failures").join("moved_piece.actual.png"));
    let _ = std::fs::remove_file(dir("failures").join("moved_piece.diff.png"));
}

#[test]
fn rendering_is_deterministic() {
    let renderer = Renderer::new();
    let (view, highlights) = samples::arachne_over();
    let a = renderer.render(&view, &highlights).expect("renders");
    let b = renderer.render(&view, &highlights).expect("renders");
    let fresh = Renderer::new().render(&view, &highlights).expect("renders");
    assert_eq!(a, b);
    assert_eq!(a, fresh, "cached sprites draw the same as fresh ones");
    let _ = Highlights::default();
}
