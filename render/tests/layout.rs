//! Legibility and layout, measured from the renderer's own list of the text it
//! puts in a picture (`Renderer::text_boxes`): sizes, boxes inside the
//! picture, nothing cut; and the side a picture is drawn from.

mod samples;

use tokar_engine::{AnyGame, GameKind, Options, Outcome, RollRole, Seat, Viewer};
use tokar_render::{seat_rotation, Highlights, RenderOptions, Renderer, TextBox};

/// The smallest text a phone shows readably at the picture's 800 px width.
const MIN_PX: u16 = 13;

fn texts(
    renderer: &Renderer,
    view: &tokar_engine::View,
    h: &Highlights,
) -> (u32, u32, Vec<TextBox>) {
    renderer
        .text_boxes(view, h, &RenderOptions::default())
        .expect("lays out")
}

#[test]
fn no_text_is_smaller_than_13_px() {
    let renderer = Renderer::new();
    for (name, view, h) in samples::all().into_iter().chain(samples::engine_all()) {
        let (_, _, boxes) = texts(&renderer, &view, &h);
        assert!(boxes.len() > 10, "{name}: the text is listed");
        for b in &boxes {
            assert!(b.px >= MIN_PX, "{name}: {:?} at {} px", b.text, b.px);
        }
        // Hit points, statuses and coordinates are among them.
        if name == "gladiator" {
            for t in [
                "9/10",
                "HLD3",
                "GRD",
                "a",
                "12",
                "Black Knight attacks",
                "= 17",
            ] {
                assert!(boxes.iter().any(|b| b.text == t), "{name}: {t} listed");
            }
        }
    }
}

#[test]
fn every_text_lies_inside_the_picture() {
    let renderer = Renderer::new();
    for (name, view, h) in samples::all().into_iter().chain(samples::engine_all()) {
        let (w, ht, boxes) = texts(&renderer, &view, &h);
        for b in &boxes {
            assert!(
                b.x >= 0.0
                    && b.y >= 0.0
                    && b.x + b.width <= w as f32
                    && b.y + b.height <= ht as f32,
                "{name}: {b:?} leaves the {w}x{ht} picture"
            );
        }
    }
}

/// All of `text` is somewhere in the picture's text, in order, perhaps over
/// several lines (a word longer than a line is broken between characters).
fn all_words_shown(boxes: &[TextBox], text: &str) -> bool {
    let squeeze = |t: &str| t.split_whitespace().collect::<String>();
    let shown: String = boxes.iter().map(|b| squeeze(&b.text)).collect();
    shown.contains(&squeeze(text))
}

#[test]
fn the_longest_names_wrap_and_are_never_cut() {
    let renderer = Renderer::new();
    let (mut view, h) = samples::magic_chess();
    let long = "Sir Reginald Bartholomew Featherstonehaugh-Cholmondeley the Third of Upper Wallop";
    view.title = format!("Magic Chess, the grand tournament final between {long} and friends");
    for (i, s) in view.seats.iter_mut().enumerate() {
        s.name = format!("{} {long}", ["Red", "Blue", "Green", "Yellow"][i]);
        s.notes
            .push(format!("A public note that goes on: {long}, {long}."));
    }
    view.to_act = vec![Seat(1), Seat(3)];
    view.pending = Some(format!("{long} must choose where the frog lands"));
    let (w, ht, boxes) = texts(&renderer, &view, &h);
    if let Some(dir) = std::env::var_os("TOKAR_LONG_NAMES_PNG") {
        let png = renderer.render(&view, &h).expect("renders");
        std::fs::write(std::path::Path::new(&dir).join("long_names.png"), png).expect("write");
    }
    for b in &boxes {
        assert!(!b.text.contains('…'), "cut: {b:?}");
        assert!(
            b.x >= 0.0 && b.x + b.width <= w as f32 && b.y + b.height <= ht as f32,
            "{b:?} leaves the {w}x{ht} picture"
        );
    }
    assert!(all_words_shown(&boxes, &view.title), "the title in full");
    for s in &view.seats {
        assert!(all_words_shown(&boxes, &s.name), "{} in full", s.name);
        assert!(
            all_words_shown(&boxes, s.notes.last().unwrap()),
            "the note in full"
        );
    }
    assert!(all_words_shown(&boxes, view.pending.as_ref().unwrap()));
    // The result line too.
    view.outcome = Outcome::Won {
        winners: vec![Seat(1), Seat(3)],
        reason: format!("the other kings were captured by {long} in a long fight"),
    };
    let (_, _, boxes) = texts(&renderer, &view, &h);
    assert!(boxes.iter().all(|b| !b.text.contains('…')));
    let Outcome::Won { reason, .. } = &view.outcome else {
        unreachable!()
    };
    assert!(all_words_shown(&boxes, reason), "the reason in full");
}

/// Gladiator's own names (eight commanders, "Black King's Knight"), all to
/// act at once, with a battle's dice and a long result line: every name and
/// the whole result are shown inside the picture.
#[test]
fn gladiator_names_and_results_are_never_cut() {
    let renderer = Renderer::new();
    let (_, mut view, h) = samples::engine_all()
        .into_iter()
        .find(|(n, _, _)| *n == "engine_gladiator_battle")
        .expect("a battle");
    view.to_act = (0..8).map(Seat).collect();
    let (w, ht, boxes) = texts(&renderer, &view, &h);
    for b in &boxes {
        assert!(b.x >= 0.0 && b.x + b.width <= w as f32 && b.y + b.height <= ht as f32);
    }
    let header: Vec<&TextBox> = boxes.iter().filter(|b| b.y < 200.0).collect();
    for s in &view.seats {
        assert!(
            header.iter().any(|b| b.text == s.name),
            "{} to act, in full",
            s.name
        );
    }
    view.outcome = Outcome::Won {
        winners: vec![Seat(4), Seat(5), Seat(6), Seat(7)],
        reason: "the White King fell to the Black King's Knight after a long battle on f2".into(),
    };
    let (w, ht, boxes) = texts(&renderer, &view, &h);
    for b in &boxes {
        assert!(b.x >= 0.0 && b.x + b.width <= w as f32 && b.y + b.height <= ht as f32);
    }
    assert!(all_words_shown(
        &boxes,
        "Black won: the White King fell to the Black King's Knight after a long battle on f2"
    ));
}

#[test]
fn a_gladiator_team_is_named_by_its_colour() {
    let renderer = Renderer::new();
    let (mut view, h) = samples::gladiator();
    view.outcome = Outcome::Won {
        winners: (0..4).map(Seat).collect(),
        reason: "the Black King fell".into(),
    };
    view.to_act = vec![];
    let (_, _, boxes) = texts(&renderer, &view, &h);
    assert!(
        boxes
            .iter()
            .any(|b| b.text.starts_with("White won: the Black King fell")),
        "{:?}",
        boxes.iter().map(|b| &b.text).collect::<Vec<_>>()
    );
    assert!(!boxes
        .iter()
        .any(|b| b.text.contains("White King and White Queen")));
}

#[test]
fn the_legend_explains_every_mark_and_check() {
    let renderer = Renderer::new();
    let (view, h) = samples::arcana_undead_view();
    let mut options = RenderOptions::default();
    options.check = vec![view.pieces[0].cell];
    let (_, _, boxes) = renderer.text_boxes(&view, &h, &options).expect("lays out");
    let has = |t: &str| boxes.iter().any(|b| b.text == t);
    for m in &h.marks {
        let t = match m.1 {
            tokar_engine::Mark::From => "moved from",
            tokar_engine::Mark::To => "moved to",
            tokar_engine::Mark::Hit => "hit or taken",
            tokar_engine::Mark::Affected => "affected",
            tokar_engine::Mark::Placed => "placed",
        };
        assert!(has(t), "{t} explained");
    }
    assert!(has("selected piece") && has("in check"));
    // Hit points, zones and the faded pieces of a seat out of the game too.
    for (sample, text) in [
        (samples::gladiator(), "hit points: left/most"),
        (samples::arachne_setup(), "shaded: a side's zone"),
        (samples::magic_chess(), "faded: out of the game"),
    ] {
        let (_, _, boxes) = texts(&renderer, &sample.0, &sample.1);
        assert!(boxes.iter().any(|b| b.text == text), "{text} explained");
    }
    assert!(has("can move here") || has("can be attacked"));
    // A King the view says is in check is marked, and the legend says so;
    // a note alone marks nothing (the renderer does not read notes).
    let (view, h) = samples::gladiator();
    assert!(!view.check.is_empty());
    let (_, _, boxes) = texts(&renderer, &view, &h);
    assert!(boxes.iter().any(|b| b.text == "in check"));
    let mut calm = view.clone();
    calm.check.clear();
    let (_, _, boxes) = texts(&renderer, &calm, &h);
    assert!(!boxes.iter().any(|b| b.text == "in check"));
    assert_ne!(
        renderer.render(&view, &h).expect("renders"),
        renderer.render(&calm, &h).expect("renders")
    );
}

#[test]
fn dice_are_labelled_with_who_rolled_them() {
    let renderer = Renderer::new();
    let game = AnyGame::setup(GameKind::Arachne, &Options::new(), 1).expect("a game");
    let view = game.view(Viewer::Spectator);
    let (_, _, boxes) = texts(&renderer, &view, &Highlights::default());
    assert!(boxes.iter().any(|b| b.text == "White rolled"));
}

/// The faces listed on the line of `label` (each die's value is listed with
/// the picture's text), left to right, and the total written after them.
fn dice_on_the_line_of(boxes: &[TextBox], label: &str) -> (Vec<u8>, Option<String>) {
    let l = boxes
        .iter()
        .find(|b| b.text == label)
        .unwrap_or_else(|| panic!("{label:?} is written"));
    let mid = l.y + l.height / 2.0;
    let mut on_line: Vec<&TextBox> = boxes
        .iter()
        .filter(|b| b.x > l.x + l.width && (b.y + b.height / 2.0 - mid).abs() < 8.0)
        .collect();
    on_line.sort_by(|a, b| a.x.total_cmp(&b.x));
    let dice = on_line
        .iter()
        .filter_map(|b| b.text.parse::<u8>().ok())
        .collect();
    let total = on_line
        .iter()
        .find(|b| b.text.contains('='))
        .map(|b| b.text.clone());
    (dice, total)
}

/// A battle's dice are two groups, the attacker's and the defender's, each on
/// its own line under its seat's name, with its total; a bonus added to the
/// faces (Arachne's rank and Grunts) is written before the total.
#[test]
fn dice_are_grouped_by_attacker_and_defender_with_totals() {
    let renderer = Renderer::new();
    let (view, h) = samples::gladiator();
    let (_, _, boxes) = texts(&renderer, &view, &h);
    assert_eq!(
        dice_on_the_line_of(&boxes, "Black Knight attacks"),
        (vec![5, 2, 6, 4], Some("= 17".into()))
    );
    assert_eq!(
        dice_on_the_line_of(&boxes, "White Knight defends"),
        (vec![3, 1, 2], Some("= 6".into()))
    );
    let (view, h) = samples::arachne_over();
    let (_, _, boxes) = texts(&renderer, &view, &h);
    assert_eq!(
        dice_on_the_line_of(&boxes, "White attacks"),
        (vec![6], Some("= 6".into()))
    );
    assert_eq!(
        dice_on_the_line_of(&boxes, "Black defends"),
        (vec![3], Some("+1 = 4".into()))
    );
    // The engine's own battle: every group of its view on a line of its own.
    let (_, view, h) = samples::engine_all()
        .into_iter()
        .find(|(n, _, _)| *n == "engine_gladiator_battle")
        .expect("a battle");
    let (_, _, boxes) = texts(&renderer, &view, &h);
    for roll in &view.rolls {
        let name = &view.seats[roll.seat.index()].name;
        let verb = match roll.role {
            RollRole::Attack => "attacks",
            RollRole::Defence => "defends",
            RollRole::Turn => "rolled",
        };
        let (dice, total) = dice_on_the_line_of(&boxes, &format!("{name} {verb}"));
        assert_eq!(dice, roll.dice);
        assert_eq!(total, roll.total.map(|t| format!("= {t}")));
    }
}

/// A seat's own picture shows its hand, as cards; a spectator's does not;
/// every picture shows the cards lying under pieces, with their squares.
#[test]
fn a_seats_picture_shows_its_hand_and_the_cards_under_pieces() {
    let renderer = Renderer::new();
    let game = AnyGame::setup(GameKind::MagicChess, &Options::new(), 1).expect("a game");
    let own = game.view(Viewer::Seat(Seat(0)));
    assert_eq!(own.hand.len(), 3);
    let (_, _, boxes) = texts(&renderer, &own, &Highlights::default());
    assert!(boxes.iter().any(|b| b.text == "Your hand"));
    for card in &own.hand {
        assert!(boxes.iter().any(|b| &b.text == card), "{card} shown");
    }
    let public = game.view(Viewer::Spectator);
    let (_, _, boxes) = texts(&renderer, &public, &Highlights::default());
    assert!(!boxes.iter().any(|b| b.text == "Your hand"));
    let (_, view, h) = samples::engine_all()
        .into_iter()
        .find(|(n, _, _)| *n == "engine_magic_chess_spell")
        .expect("a spell cast");
    let (_, _, boxes) = texts(&renderer, &view, &h);
    assert!(boxes.iter().any(|b| b.text == "Under pieces"));
    for (cell, card) in &view.under {
        let t = format!("{card} under {}", view.board.name(*cell));
        assert!(boxes.iter().any(|b| b.text == t), "{t} shown");
    }
}

/// The side a seat sees its game from, by the renderer's rule, is the
/// engine's own rotation for that seat, in every game.
#[test]
fn each_seat_is_drawn_from_its_own_side() {
    for kind in [
        GameKind::Arcana,
        GameKind::MagicChess,
        GameKind::Gladiator,
        GameKind::Arachne,
    ] {
        let game = AnyGame::setup(kind, &Options::new(), 1).expect("a game");
        let public = game.view(Viewer::Spectator);
        for s in 0..game.seat_count() {
            let seat = Seat(s as u8);
            let own = game.view(Viewer::Seat(seat)).rotation;
            let ours = seat_rotation(&public, seat);
            assert!(
                (own - ours).abs() < 0.01 || (own - ours).abs() > 359.99,
                "{kind:?} seat {s}: the engine turns by {own}, the renderer by {ours}"
            );
        }
    }
}

#[test]
fn drawing_from_a_side_turns_the_picture_and_keeps_the_default() {
    let renderer = Renderer::new();
    let game = AnyGame::setup(GameKind::Arcana, &Options::new(), 1).expect("a game");
    let public = game.view(Viewer::Spectator);
    let h = Highlights::default();
    let mut options = RenderOptions::default();
    let plain = renderer.render(&public, &h).expect("renders");
    assert_eq!(
        renderer
            .render_with(&public, &h, &options)
            .expect("renders"),
        plain
    );
    options.side = Some(Seat(1));
    let turned = renderer
        .render_with(&public, &h, &options)
        .expect("renders");
    let seat_view = game.view(Viewer::Seat(Seat(1)));
    assert_ne!(turned, plain);
    assert_eq!(turned, renderer.render(&seat_view, &h).expect("renders"));
    // The rank labels: 8 at the bottom when drawn from the north.
    let (_, _, boxes) = renderer
        .text_boxes(&public, &h, &options)
        .expect("lays out");
    let one = boxes.iter().find(|b| b.text == "1").expect("rank 1");
    let eight = boxes.iter().find(|b| b.text == "8").expect("rank 8");
    assert!(one.y < eight.y, "rank 1 at the top");
    options.side = Some(Seat(7));
    assert!(renderer.render_with(&public, &h, &options).is_err());
}

/// The caller's clock line (the time left on the move) is drawn under the
/// header, legibly and inside the picture, pushing the board down; without
/// one the picture is as before.
#[test]
fn the_clock_line_is_shown_under_the_header() {
    let renderer = Renderer::new();
    let (view, h) = samples::arcana_midgame();
    let (_, plain_h, plain) = texts(&renderer, &view, &h);
    let mut options = RenderOptions::default();
    options.clock = Some("6d 23h left to move".into());
    let (w, height, boxes) = renderer.text_boxes(&view, &h, &options).expect("lays out");
    let clock = boxes
        .iter()
        .find(|b| b.text == "6d 23h left to move")
        .expect("the clock line is drawn");
    assert!(clock.px >= MIN_PX);
    assert!(clock.x >= 0.0 && clock.x + clock.width <= w as f32);
    assert!(height > plain_h, "the header grew");
    assert!(!plain.iter().any(|b| b.text.contains("left to move")));
    // Everything under the header moved down by the same amount.
    let first_label = |bs: &[TextBox]| bs[0].y;
    assert!(first_label(&boxes) > first_label(&plain));
}
