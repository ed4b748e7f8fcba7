//! Output size and bad input: every picture stays under 1 MiB, and a view the
//! renderer cannot draw gets a one-line reason instead of a panic.

mod samples;

use tokar_engine::{Board, Cell, Glyph, Mark, Seat, StatusKind, View};
use tokar_render::{Highlights, RenderError, Renderer, MAX_BYTES};

fn is_png(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x89PNG\r\n\x1a\n")
}

#[test]
fn every_sample_is_a_png_under_one_mebibyte() {
    let renderer = Renderer::new();
    for (name, view, highlights) in samples::all() {
        let png = renderer
            .render(&view, &highlights)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(is_png(&png), "{name}");
        assert!(png.len() <= MAX_BYTES, "{name}: {} bytes", png.len());
    }
}

/// The busiest picture there can be: every square of the largest board filled,
/// each piece with hit points and three statuses, eight seats with long
/// graveyards and notes, everything highlighted.
#[test]
fn a_crowded_gladiator_board_stays_under_one_mebibyte() {
    let (mut view, _) = samples::gladiator();
    let b = view.board;
    let units = [
        "footman",
        "champion",
        "warrior",
        "scout",
        "squire",
        "no-such-unit",
    ];
    view.pieces = b
        .cells()
        .map(|c| {
            let mut p = samples::piece(
                &b,
                &b.name(c),
                (c.0 % 8) as u8,
                samples::glyph(units[c.index() % units.len()], 'X', "Unit"),
            );
            p.hp = Some(((c.0 % 9) as i32, 9));
            p.statuses = vec![
                samples::status(StatusKind::Frozen, Some(3)),
                samples::status(StatusKind::Firebrew, Some(2)),
                samples::status(StatusKind::Controlled, None),
            ];
            p
        })
        .collect();
    for s in &mut view.seats {
        s.lost = (0..40)
            .map(|i| samples::glyph(units[i % units.len()], 'Y', "Lost"))
            .collect();
        s.notes = (0..4)
            .map(|i| {
                format!(
                    "A rather long public note number {i} about this commander's state of affairs"
                )
            })
            .collect();
        s.hand_size = Some(7);
    }
    let highlights = Highlights {
        marks: b
            .cells()
            .map(|c| {
                (
                    c,
                    [
                        Mark::From,
                        Mark::To,
                        Mark::Hit,
                        Mark::Affected,
                        Mark::Placed,
                    ][c.index() % 5],
                )
            })
            .collect(),
        targets: b.cells().collect(),
        selected: Some(Cell(5)),
    };
    let png = Renderer::new().render(&view, &highlights).expect("renders");
    assert!(is_png(&png));
    assert!(png.len() <= MAX_BYTES, "{} bytes", png.len());
}

fn refused(view: &View, highlights: &Highlights) -> RenderError {
    let err = Renderer::new()
        .render(view, highlights)
        .expect_err("refused");
    let text = err.to_string();
    assert!(
        !text.is_empty() && !text.contains('\n'),
        "one line: {text:?}"
    );
    err
}

#[test]
fn cells_off_the_board_are_refused() {
    let (mut view, h) = samples::arcana_start();
    view.pieces[3].cell = Cell(64);
    assert!(matches!(
        refused(&view, &h),
        RenderError::CellOffBoard { cell: 64, .. }
    ));
    let (view, _) = samples::arcana_start();
    let h = Highlights {
        targets: vec![Cell(500)],
        ..Highlights::default()
    };
    assert!(matches!(
        refused(&view, &h),
        RenderError::CellOffBoard { .. }
    ));
    let h = Highlights {
        marks: vec![(Cell(64), Mark::Hit)],
        ..Highlights::default()
    };
    refused(&view, &h);
    let h = Highlights {
        selected: Some(Cell(u16::MAX)),
        ..Highlights::default()
    };
    refused(&view, &h);
    let (mut web, h) = samples::arachne_setup();
    web.zones.push((Cell(61), Seat(0)));
    refused(&web, &h);
}

#[test]
fn unknown_seats_are_refused() {
    let (mut view, h) = samples::arcana_start();
    view.pieces[0].seat = Seat(2);
    let err = refused(&view, &h);
    assert_eq!(
        err.to_string(),
        "the Blue Knight names seat 2, but the game has 2 seats"
    );
    let (mut view, h) = samples::arcana_start();
    view.to_act = vec![Seat(9)];
    refused(&view, &h);
    let (mut view, h) = samples::arcana_start();
    view.dice = Some((Seat(3), vec![1]));
    refused(&view, &h);
}

#[test]
fn boards_without_names_and_odd_rotations_are_refused() {
    let (mut view, h) = samples::arcana_start();
    view.pieces.clear();
    for board in [
        Board::grid(0, 8),
        Board::grid(27, 8),
        Board::grid(8, 100),
        Board::web(0, 8, true),
        Board::web(4, 2, false),
    ] {
        view.board = board;
        assert!(
            matches!(refused(&view, &h), RenderError::Board(_)),
            "{board:?}"
        );
    }
    let (mut view, h) = samples::arcana_start();
    view.rotation = f32::NAN;
    assert!(matches!(refused(&view, &h), RenderError::Rotation(_)));
}

#[test]
fn odd_but_drawable_views_render() {
    let renderer = Renderer::new();
    // No seats at all, nobody to act, an empty title and a tiny board.
    let (mut view, h) = samples::arcana_start();
    view.board = Board::grid(1, 1);
    view.pieces = vec![samples::piece(
        &view.board,
        "a1",
        0,
        Glyph {
            unit: String::new(),
            letter: '?',
            name: String::new(),
        },
    )];
    view.title.clear();
    view.to_act.clear();
    view.dice = Some((Seat(0), vec![0, 7, 255]));
    assert!(is_png(&renderer.render(&view, &h).expect("renders")));
    // Colour indexes past the palette wrap around; huge counts and negative hit points draw.
    let (mut view, h) = samples::gladiator();
    view.seats[0].colour = 200;
    view.pieces[0].hp = Some((-3, 0));
    view.pieces[0]
        .statuses
        .push(samples::status(StatusKind::Firebrew, Some(255)));
    view.rotation = -12345.0;
    assert!(is_png(&renderer.render(&view, &h).expect("renders")));
}
