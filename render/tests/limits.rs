//! Output size and bad input: every picture stays under 1 MiB, and a view the
//! renderer cannot draw gets a one-line reason instead of a panic.

mod samples;

use tokar_engine::{Board, Cell, Glyph, Mark, Roll, RollRole, Seat, StatusKind, View};
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

/// The 8x8 picture (the busy Arcana middle game of the golden images) is at
/// most 50 KB, the size target for a picture sent to a phone.
#[test]
fn the_8x8_middle_game_is_at_most_50_kb() {
    let (view, highlights) = samples::arcana_midgame();
    let png = Renderer::new()
        .render(&view, &highlights)
        .expect("the sample renders");
    assert!(png.len() <= 50_000, "{} bytes", png.len());
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

/// Views assembled from random parts, many of them nonsense (cells and seats out
/// of range, odd boards, odd rotations, empty names): each renders or is
/// refused with a reason, and nothing panics.
#[test]
fn random_views_render_or_are_refused_without_panicking() {
    use tokar_engine::{Outcome, PieceView, SeatView, StatusView, Viewer};
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n.max(1)
    };
    let kinds = [
        StatusKind::Paralysed,
        StatusKind::Firebrew,
        StatusKind::Resting,
        StatusKind::Frozen,
        StatusKind::Slowed,
        StatusKind::AntiJump,
        StatusKind::Controlled,
        StatusKind::ExtraTurn,
        StatusKind::Held,
        StatusKind::Guarded,
    ];
    let units = [
        "skeleton",
        "grunt",
        "magic-king",
        "",
        "no-such-unit",
        "footman",
    ];
    let renderer = Renderer::new();
    let (mut rendered, mut refused) = (0, 0);
    for _ in 0..60 {
        let board = match next(4) {
            0 => Board::grid(next(12) as u8 + 1, next(14) as u8 + 1),
            1 => Board::grid(next(40) as u8, next(120) as u8),
            2 => Board::web(next(7) as u8 + 1, next(14) as u8 + 3, next(2) == 0),
            _ => Board::web(next(25) as u8, next(30) as u8, next(2) == 0),
        };
        let len = board.len().max(1) as u64;
        let seats_n = next(9) as usize;
        let seat_range = seats_n as u64 + 1;
        let cell = |r: u64| Cell(r as u16);
        let seats: Vec<SeatView> = (0..seats_n)
            .map(|i| SeatView {
                name: ["", "Red", "A very long seat name that goes on and on"][i % 3].into(),
                colour: (i * 37) as u8,
                eliminated: i % 4 == 3,
                hand_size: if i % 2 == 0 { Some(i * 3) } else { None },
                lost: (0..i * 3)
                    .map(|k| samples::glyph(units[k % units.len()], 'L', "Lost"))
                    .collect(),
                notes: (0..i % 3).map(|k| format!("note {k}")).collect(),
            })
            .collect();
        let pieces: Vec<PieceView> = (0..next(40))
            .map(|k| PieceView {
                cell: cell(if next(40) == 0 {
                    len + next(3)
                } else {
                    next(len)
                }),
                seat: Seat(if next(40) == 0 {
                    seats_n as u64
                } else {
                    next(seats_n as u64)
                } as u8),
                glyph: samples::glyph(units[k as usize % units.len()], 'Q', "Piece"),
                hp: if next(2) == 0 {
                    Some((next(20) as i32 - 5, next(10) as i32))
                } else {
                    None
                },
                statuses: (0..next(4))
                    .map(|_| StatusView {
                        kind: kinds[next(10) as usize],
                        count: Some(next(256) as u8),
                    })
                    .collect(),
            })
            .collect();
        let view = View {
            title: "Random".into(),
            board,
            viewer: Viewer::Spectator,
            rotation: [0.0, 90.0, 180.0, 270.0, 33.3, -720.0, 1e9][next(7) as usize],
            seats,
            pieces,
            to_act: (0..next(3)).map(|_| Seat(next(seat_range) as u8)).collect(),
            move_number: next(1000) as u32,
            dice: if next(2) == 0 {
                Some((
                    Seat(next(seat_range) as u8),
                    vec![next(9) as u8; next(4) as usize],
                ))
            } else {
                None
            },
            hand: vec![],
            zones: (0..next(6))
                .map(|_| (cell(next(len)), Seat(next(seat_range) as u8)))
                .collect(),
            pending: if next(2) == 0 {
                Some("Somebody must decide something".into())
            } else {
                None
            },
            outcome: match next(3) {
                0 => Outcome::Ongoing,
                1 => Outcome::Won {
                    winners: vec![Seat(next(seat_range) as u8)],
                    reason: "won".into(),
                },
                _ => Outcome::Drawn {
                    reason: "drawn".into(),
                },
            },
            rolls: (0..next(3))
                .map(|_| Roll {
                    seat: Seat(next(seat_range) as u8),
                    role: [RollRole::Attack, RollRole::Defence, RollRole::Turn][next(3) as usize],
                    dice: vec![next(9) as u8; next(20) as usize],
                    total: (next(2) == 0).then(|| next(100) as i32 - 20),
                })
                .collect(),
            check: (0..next(3)).map(|_| cell(next(len + 1))).collect(),
            under: (0..next(5))
                .map(|_| (cell(next(len + 1)), "A card with a long name".into()))
                .collect(),
        };
        let highlights = Highlights {
            marks: (0..next(5))
                .map(|_| (cell(next(len + 1)), Mark::Hit))
                .collect(),
            targets: (0..next(5)).map(|_| cell(next(len + 1))).collect(),
            selected: if next(2) == 0 {
                Some(cell(next(len + 1)))
            } else {
                None
            },
        };
        match renderer.render(&view, &highlights) {
            Ok(png) => {
                assert!(is_png(&png) && png.len() <= MAX_BYTES);
                rendered += 1;
            }
            Err(e) => {
                assert!(!e.to_string().contains('\n'));
                refused += 1;
            }
        }
    }
    assert!(
        rendered > 5 && refused > 5,
        "{rendered} rendered, {refused} refused"
    );
}
