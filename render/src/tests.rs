//! Unit tests that read pictures back: seat colours by name, each seat's
//! side at the bottom, the check mark's own style.

use super::*;
use tokar_engine::{AnyGame, GameKind, Options, Viewer};

#[test]
fn renderer_is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Renderer>();
}

/// Hue in degrees (0 red, 120 green, 240 blue), saturation and lightness.
fn hsl(c: Rgb) -> (f32, f32, f32) {
    let (r, g, b) = (c.0 as f32 / 255.0, c.1 as f32 / 255.0, c.2 as f32 / 255.0);
    let (max, min) = (r.max(g).max(b), r.min(g).min(b));
    let l = (max + min) / 2.0;
    let d = max - min;
    if d < 1e-6 {
        return (0.0, 0.0, l);
    }
    let s = d / (1.0 - (2.0 * l - 1.0).abs());
    let h = if max == r {
        60.0 * ((g - b) / d).rem_euclid(6.0)
    } else if max == g {
        60.0 * ((b - r) / d + 2.0)
    } else {
        60.0 * ((r - g) / d + 4.0)
    };
    (h, s, l)
}

/// A PNG read back with the png crate: width and RGB pixels.
fn decode(png: &[u8]) -> (u32, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a PNG");
    let mut rgb = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut rgb).expect("a frame");
    (info.width, rgb)
}

/// Where the board's cells are in the picture of `view`.
fn spots(renderer: &Renderer, view: &View) -> Vec<layout::Spot> {
    let header = panels::header(&renderer.fonts, view, None);
    layout::geometry(&view.board, view.rotation, header.height).spots
}

/// The most common colour inside the piece on `cell` that is not the
/// cell's ground, read back from the PNG with the png crate.
fn piece_fill(renderer: &Renderer, view: &View, cell: Cell) -> Rgb {
    let png = renderer
        .render(view, &Highlights::default())
        .expect("renders");
    let (width, rgb) = decode(&png);
    let spot = spots(renderer, view)[cell.index()];
    let grounds = [
        palette::LIGHT_SQUARE,
        palette::DARK_SQUARE,
        palette::WEB_CELL,
        palette::HUB_CELL,
    ];
    let mut counts: HashMap<Rgb, usize> = HashMap::default();
    let half = spot.size * 0.3;
    for y in (spot.cy - half) as u32..(spot.cy + half) as u32 {
        for x in (spot.cx - half) as u32..(spot.cx + half) as u32 {
            let i = ((y * width + x) * 3) as usize;
            let c = Rgb(rgb[i], rgb[i + 1], rgb[i + 2]);
            if !grounds.contains(&c) {
                *counts.entry(c).or_default() += 1;
            }
        }
    }
    counts
        .into_iter()
        .max_by_key(|&(c, n)| (n, c.0, c.1, c.2))
        .expect("the piece has pixels")
        .0
}

/// Checks that every seat's pieces are filled with the colour its name says.
fn check_seat_colours(renderer: &Renderer, view: &View) {
    for (i, seat) in view.seats.iter().enumerate() {
        let Some(piece) = view.pieces.iter().find(|p| p.seat.index() == i) else {
            continue;
        };
        let fill = piece_fill(renderer, view, piece.cell);
        let (h, s, l) = hsl(fill);
        let word = seat.name.split_whitespace().next().unwrap_or("");
        let ok = match word {
            "Red" => !(15.0..=345.0).contains(&h) && s > 0.5,
            "Yellow" => (40.0..65.0).contains(&h) && s > 0.5,
            "Green" => (90.0..160.0).contains(&h) && s > 0.3,
            "Blue" => (200.0..240.0).contains(&h) && s > 0.5,
            "White" => l > 0.85,
            "Black" => l < 0.25,
            other => panic!("{}: no colour expected for seat {other}", view.title),
        };
        assert!(
            ok,
            "{}: {} pieces are filled with {fill:?} (hue {h:.0}, saturation {s:.2}, lightness {l:.2})",
            view.title, seat.name
        );
    }
}

#[test]
fn every_seat_is_drawn_in_the_colour_its_name_says() {
    let renderer = Renderer::new();
    for kind in [GameKind::MagicChess, GameKind::Gladiator, GameKind::Arachne] {
        let game = AnyGame::setup(kind, &Options::new(), 1).expect("a game");
        check_seat_colours(&renderer, &game.view(Viewer::Spectator));
    }
}

#[test]
fn arcana_armies_are_light_and_dark() {
    let renderer = Renderer::new();
    let game = AnyGame::setup(GameKind::Arcana, &Options::new(), 1).expect("a game");
    let view = game.view(Viewer::Spectator);
    let light = view.pieces.iter().find(|p| p.seat.0 == 0).expect("a piece");
    let dark = view.pieces.iter().find(|p| p.seat.0 == 1).expect("a piece");
    let (_, _, l0) = hsl(piece_fill(&renderer, &view, light.cell));
    let (_, _, l1) = hsl(piece_fill(&renderer, &view, dark.cell));
    assert!(l0 > 0.85 && l1 < 0.25, "lightness {l0:.2} and {l1:.2}");
}

#[test]
fn graveyard_icons_are_large_enough_to_tell_apart() {
    const { assert!(panels::LOST_ICON >= 28.0) };
}

/// Pixels of exactly `colour` within `spot` (a little beyond its edge).
fn count_in_spot(png: &[u8], spot: &layout::Spot, colour: Rgb) -> usize {
    let (width, rgb) = decode(png);
    let half = spot.size / 2.0 + 2.0;
    let mut n = 0;
    for y in (spot.cy - half) as u32..(spot.cy + half) as u32 {
        for x in (spot.cx - half) as u32..(spot.cx + half) as u32 {
            let i = ((y * width + x) * 3) as usize;
            n += (Rgb(rgb[i], rgb[i + 1], rgb[i + 2]) == colour) as usize;
        }
    }
    n
}

/// The picture is turned as `View.rotation` says: in every game, the picture
/// drawn for a seat has that seat's army at the bottom (the pixels of its
/// fill colour on the board lie, on average, below the board's middle) and,
/// in two-sided games, the other side's at the top. Seat 1's picture of
/// Arcana has the Undead at the bottom.
#[test]
fn a_seats_picture_has_its_army_at_the_bottom() {
    let renderer = Renderer::new();
    for kind in [GameKind::Arcana, GameKind::MagicChess, GameKind::Gladiator] {
        let game = AnyGame::setup(kind, &Options::new(), 1).expect("a game");
        for s in 0..game.seat_count() {
            let seat = Seat(s as u8);
            let view = game.view(Viewer::Seat(seat));
            let png = renderer
                .render(&view, &Highlights::default())
                .expect("renders");
            let (width, rgb) = decode(&png);
            let spots = spots(&renderer, &view);
            let top = spots
                .iter()
                .map(|p| p.cy - p.size / 2.0)
                .fold(f32::MAX, f32::min);
            let bottom = spots
                .iter()
                .map(|p| p.cy + p.size / 2.0)
                .fold(0.0, f32::max);
            let middle = (top + bottom) / 2.0;
            let colours = palette::seat_colours(&view);
            // The mean height of the pixels filled with `colour` on the board.
            let mean_y = |colour: Rgb| {
                let (mut sum, mut n) = (0.0f64, 0usize);
                for y in top as u32..bottom as u32 {
                    for x in 0..width {
                        let i = ((y * width + x) * 3) as usize;
                        if Rgb(rgb[i], rgb[i + 1], rgb[i + 2]) == colour {
                            sum += y as f64;
                            n += 1;
                        }
                    }
                }
                assert!(n > 100, "{kind:?}: pieces of {colour:?} are drawn");
                (sum / n as f64) as f32
            };
            let own = mean_y(colours[s].fill);
            assert!(
                own > middle + (bottom - top) * 0.15,
                "{kind:?} seat {s}'s picture (rotation {}): its army at y {own:.0}, the board's middle at {middle:.0}",
                view.rotation
            );
            if game.seat_count() == 2 {
                let other = mean_y(colours[1 - s].fill);
                assert!(other < middle, "{kind:?} seat {s}: the enemy at the top");
            }
        }
    }
}

/// Check is marked on the General in a style of its own (the check colour,
/// a ring and a glow), not as a piece that was affected: Arcana's "Check!"
/// no longer marks the General `Affected`; the view's `check` says it.
#[test]
fn check_is_marked_in_its_own_style_not_as_affected() {
    use tokar_engine::arcana::Arcana;
    use tokar_engine::{Game, Mark};
    let renderer = Renderer::new();
    // A Blue Knight on a5 jumps to b7, from where it can kill the Necromancer
    // (the Undead General) on d8 next turn (R18).
    let mut game = Arcana::from_text("3n4/8/8/K7/8/8/8/4B3 0").expect("a position");
    let seat = game.to_act()[0];
    let action = game.parse(seat, "a5-b7").expect("a move");
    let events = game.play(seat, &action).expect("played");
    assert!(events.iter().any(|e| e.text.starts_with("Check!")));
    let marks: Vec<(Cell, Mark)> = events.iter().flat_map(|e| e.marks.clone()).collect();
    let view = game.view(Viewer::Seat(Seat(1)));
    let d8 = view.board.parse("d8").expect("d8");
    assert_eq!(
        view.check,
        vec![d8],
        "the view says the General is in check"
    );
    assert!(
        !marks.contains(&(d8, Mark::Affected)),
        "the General is not marked as affected: {marks:?}"
    );
    let highlights = Highlights {
        marks,
        ..Highlights::default()
    };
    let png = renderer.render(&view, &highlights).expect("renders");
    let spot = spots(&renderer, &view)[d8.index()];
    assert!(
        count_in_spot(&png, &spot, palette::CHECK) > 100,
        "the check ring"
    );
    assert_eq!(count_in_spot(&png, &spot, palette::AFFECTED), 0);
    // An affected piece that is not in check looks otherwise.
    let mut calm = view.clone();
    calm.check.clear();
    let affected = Highlights {
        marks: vec![(d8, Mark::Affected)],
        ..Highlights::default()
    };
    let png = renderer.render(&calm, &affected).expect("renders");
    assert!(
        count_in_spot(&png, &spot, palette::AFFECTED) > 50,
        "the dashed border"
    );
    assert_eq!(count_in_spot(&png, &spot, palette::CHECK), 0);
    // With the rule off, nothing is announced and nothing is marked.
    let mut game = Arcana::from_text("3n4/8/8/K7/8/8/8/4B3 0").expect("a position");
    game.set_check(false);
    let action = game.parse(seat, "a5-b7").expect("a move");
    game.play(seat, &action).expect("played");
    assert!(game.view(Viewer::Spectator).check.is_empty());
}
