//! Magic Chess: one test per piece, per spell and per ruling (R1.. in
//! engine/rules/magic-chess.md), on positions set up by hand.

use tokar_engine::catalog::{AnyGame, GameKind, Options, Variant};
use tokar_engine::magic::{Action, Kind, MagicChess, Move, Position, Spell};
use tokar_engine::{ActionError, Cell, Game, Outcome, Seat, StatusKind, Viewer};

use Kind::*;
use Spell::*;

const RED: u8 = 0;
const BLUE: u8 = 1;
const YELLOW: u8 = 2;
const GREEN: u8 = 3;

fn sq(s: &str) -> Cell {
    Position::cell(s)
}

fn names(cells: &[Cell]) -> Vec<String> {
    let board = tokar_engine::Board::grid(8, 8);
    let mut v: Vec<String> = cells.iter().map(|&c| board.name(c)).collect();
    v.sort();
    v
}

/// The destinations the piece on `from` may move to now (its owner to move).
fn dests(g: &MagicChess, from: &str) -> Vec<String> {
    let seat = g.turn();
    let cells: Vec<Cell> = g
        .legal_actions(seat)
        .into_iter()
        .filter_map(|a| match a {
            Action::Move(m) if m.from == sq(from) => Some(m.to),
            _ => None,
        })
        .collect();
    let mut n = names(&cells);
    n.dedup();
    n
}

fn list(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(String::from).collect();
    v.sort();
    v
}

fn play(g: &mut MagicChess, text: &str) -> Vec<tokar_engine::Event> {
    let seat = g.turn();
    let a = g
        .parse(seat, text)
        .unwrap_or_else(|e| panic!("'{text}' refused: {e}"));
    g.play(seat, &a).expect("parsed action applies")
}

fn illegal(g: &MagicChess, text: &str) -> String {
    match g.parse(g.turn(), text) {
        Err(ActionError::Illegal(r)) => r,
        other => panic!("'{text}': expected Illegal, got {other:?}"),
    }
}

fn statuses(g: &MagicChess, at: &str) -> Vec<StatusKind> {
    g.view(Viewer::Spectator)
        .pieces
        .into_iter()
        .find(|p| p.cell == sq(at))
        .map(|p| p.statuses.into_iter().map(|s| s.kind).collect())
        .unwrap_or_default()
}

/// Kings in their corners so that nobody is eliminated by accident.
fn kings() -> Position {
    Position::empty()
        .piece("a1", RED, King)
        .piece("a8", BLUE, King)
        .piece("h8", YELLOW, King)
        .piece("h1", GREEN, King)
}

// ---------------------------------------------------------------- setup (R1, R2, R5)

#[test]
fn r1_start_layout_is_chaturaji_rotated_per_seat() {
    let g = MagicChess::setup(&Options::new(), 7).unwrap();
    let v = g.view(Viewer::Spectator);
    let at = |s: &str| {
        v.pieces
            .iter()
            .find(|p| p.cell == sq(s))
            .map(|p| (p.seat.0, p.glyph.unit.clone()))
    };
    let armies = [
        (RED, ["a1", "b1", "c1", "d1"], ["a2", "b2", "c2", "d2"]),
        (BLUE, ["a8", "a7", "a6", "a5"], ["b8", "b7", "b6", "b5"]),
        (YELLOW, ["h8", "g8", "f8", "e8"], ["h7", "g7", "f7", "e7"]),
        (GREEN, ["h1", "h2", "h3", "h4"], ["g1", "g2", "g3", "g4"]),
    ];
    for (seat, back, pawns) in armies {
        for (s, unit) in
            back.iter()
                .zip(["magic-king", "magic-wizard", "magic-fairy", "magic-frog"])
        {
            assert_eq!(at(s), Some((seat, unit.to_string())), "{s}");
        }
        for s in pawns {
            assert_eq!(at(s), Some((seat, "magic-pawn".to_string())), "{s}");
        }
    }
    assert_eq!(v.pieces.len(), 32);
    assert_eq!(v.to_act, vec![Seat(0)]);
}

#[test]
fn r1_pawns_move_toward_the_far_side_of_their_army() {
    let mut g = MagicChess::setup(&Options::new(), 7).unwrap();
    assert_eq!(dests(&g, "c2"), list("c3"));
    play(&mut g, "pass");
    assert_eq!(dests(&g, "b6"), list("c6"));
    play(&mut g, "pass");
    assert_eq!(dests(&g, "f7"), list("f6"));
    play(&mut g, "pass");
    assert_eq!(dests(&g, "g3"), list("f3"));
}

#[test]
fn r2_play_goes_clockwise_from_red() {
    let mut g = MagicChess::setup(&Options::new(), 3).unwrap();
    let mut order = Vec::new();
    for _ in 0..5 {
        order.push(g.seat_name(g.turn()));
        play(&mut g, "pass");
    }
    assert_eq!(order, ["Red", "Blue", "Yellow", "Green", "Red"]);
    assert_eq!(g.move_number(), 6);
}

#[test]
fn r5_default_deck_is_ten_of_each_and_three_are_dealt() {
    let g = MagicChess::setup(&Options::new(), 11).unwrap();
    assert_eq!(g.card_count(), 30);
    for s in 0..4 {
        assert_eq!(g.hand(Seat(s)).len(), 3);
    }
    assert_eq!(g.draw_pile_len(), 18);
    let mut all: Vec<Spell> = (0..4).flat_map(|s| g.hand(Seat(s)).to_vec()).collect();
    all.extend_from_slice(g.draw_pile());
    let count = |s: Spell| all.iter().filter(|&&c| c == s).count();
    assert_eq!((count(Freeze), count(Slow), count(AntiJump)), (10, 10, 10));
}

#[test]
fn r5_deck_options_change_the_deck_and_bad_options_are_refused() {
    let mut o = Options::new();
    o.insert("freeze-cards".into(), "2".into());
    o.insert("slow-cards".into(), "0".into());
    o.insert("anti-jump-cards".into(), "4".into());
    let g = MagicChess::setup(&o, 1).unwrap();
    assert_eq!(g.card_count(), 6);
    // Six cards: dealt one at a time in turn order while they last.
    let sizes: Vec<usize> = (0..4).map(|s| g.hand(Seat(s)).len()).collect();
    assert_eq!(sizes, [2, 2, 1, 1]);
    assert_eq!(g.draw_pile_len(), 0);
    let mut bad = Options::new();
    bad.insert("slow-cards".into(), "many".into());
    assert!(MagicChess::setup(&bad, 1).is_err());
    let mut bad = Options::new();
    bad.insert("freeze-cards".into(), "41".into());
    assert!(MagicChess::setup(&bad, 1).is_err());
    let mut bad = Options::new();
    bad.insert("jokers".into(), "1".into());
    assert!(MagicChess::setup(&bad, 1).is_err());
    let mut bad = Options::new();
    bad.insert("slow-cards.2".into(), "3".into());
    assert!(MagicChess::setup(&bad, 1).is_err());
    let mut bad = Options::new();
    bad.insert("partners".into(), "maybe".into());
    assert!(MagicChess::setup(&bad, 1).is_err());
}

#[test]
fn r15_seating_four_players_or_two_with_opposite_seats() {
    assert_eq!(
        MagicChess::seating(4).unwrap(),
        vec![vec![Seat(0)], vec![Seat(1)], vec![Seat(2)], vec![Seat(3)]]
    );
    assert_eq!(
        MagicChess::seating(2).unwrap(),
        vec![vec![Seat(0), Seat(2)], vec![Seat(1), Seat(3)]]
    );
    for n in [0, 1, 3, 5, 8] {
        assert!(MagicChess::seating(n).is_err(), "{n} players");
    }
}

#[test]
fn catalog_sets_up_and_plays_by_notation() {
    let mut g = AnyGame::setup(GameKind::MagicChess, &Options::new(), 5).unwrap();
    assert_eq!(g.kind(), GameKind::MagicChess);
    assert!(g.legal_actions(Seat(0)).contains(&"a2-a3".to_string()));
    assert_eq!(g.normalize(Seat(0), " A2 A3 ").unwrap(), "a2-a3");
    g.play(Seat(0), "a2-a3").unwrap();
    assert_eq!(g.normalize(Seat(1), "b5 c5").unwrap(), "b5-c5");
    assert!(g.play(Seat(0), "b2-b3").is_err());
    assert!(GameKind::MagicChess
        .rules(None)
        .unwrap()
        .contains("Magic Chess"));
}

// ---------------------------------------------------------------- pieces

#[test]
fn king_moves_one_square_any_direction() {
    let g = kings().piece("d4", RED, King).build();
    assert_eq!(dests(&g, "d4"), list("c3 c4 c5 d3 d5 e3 e4 e5"));
    assert_eq!(dests(&g, "a1"), list("a2 b1 b2"));
}

#[test]
fn r3_no_check_a_king_may_step_into_attack_and_be_captured() {
    let mut g = kings()
        .piece("d4", BLUE, Wizard)
        .piece("c3", RED, King)
        .clear("a1")
        .build();
    // c3-d3 steps next to nothing safe: d3 is on the Wizard's file. Allowed.
    play(&mut g, "c3-d3");
    let ev = play(&mut g, "d4-d3");
    assert!(ev.iter().any(|e| e.text.contains("Red is eliminated")));
    assert!(g.is_out(Seat(0)));
}

#[test]
fn wizard_moves_like_a_rook_and_is_stopped_by_pieces() {
    let g = kings()
        .piece("d4", RED, Wizard)
        .piece("d6", RED, Pawn)
        .piece("f4", BLUE, Pawn)
        .build();
    assert_eq!(dests(&g, "d4"), list("d1 d2 d3 d5 a4 b4 c4 e4 f4"));
}

#[test]
fn fairy_moves_like_a_bishop_or_a_two_then_one_knight() {
    let g = kings().piece("d4", RED, Fairy).build();
    let bishop = "c3 b2 e5 f6 g7 h8 c5 b6 a7 e3 f2 g1";
    let knight = "c6 e6 f5 f3 e2 c2 b3 b5";
    assert_eq!(dests(&g, "d4"), list(&format!("{bishop} {knight}")));
    // The knight move jumps: pieces on its path do not stop it.
    let g = kings()
        .piece("d4", RED, Fairy)
        .piece("d5", BLUE, Pawn)
        .piece("d6", YELLOW, Pawn)
        .build();
    let d = dests(&g, "d4");
    assert!(d.contains(&"c6".to_string()) && d.contains(&"e6".to_string()));
}

#[test]
fn frog_moves_one_or_two_squares_jumping() {
    let g = kings().piece("d4", RED, Frog).build();
    assert_eq!(
        dests(&g, "d4"),
        list("c3 c4 c5 d3 d5 e3 e4 e5 b2 b4 b6 d2 d6 f2 f4 f6")
    );
    let g = kings()
        .piece("d4", RED, Frog)
        .piece("d5", RED, Pawn)
        .piece("e5", BLUE, Pawn)
        .piece("f6", BLUE, Wizard)
        .build();
    let d = dests(&g, "d4");
    assert!(d.contains(&"d6".to_string()), "jumps its own pawn");
    assert!(d.contains(&"f6".to_string()), "jumps and captures");
    assert!(d.contains(&"e5".to_string()));
    assert!(!d.contains(&"d5".to_string()));
}

#[test]
fn pawn_steps_forward_captures_diagonally_no_double_step() {
    let g = kings()
        .piece("e2", RED, Pawn)
        .piece("d3", BLUE, Pawn)
        .piece("f3", RED, Wizard)
        .build();
    assert_eq!(dests(&g, "e2"), list("e3 d3"));
    let g = kings()
        .piece("e2", RED, Pawn)
        .piece("e3", BLUE, Pawn)
        .build();
    assert_eq!(dests(&g, "e2"), Vec::<String>::new());
    assert!(illegal(&g, "e2-e4").contains("one square forward"));
    // Blue's pawns go right, capturing up-right and down-right.
    let g = kings()
        .to_move(BLUE)
        .piece("c5", BLUE, Pawn)
        .piece("d6", RED, Pawn)
        .piece("d4", GREEN, Pawn)
        .build();
    assert_eq!(dests(&g, "c5"), list("d4 d5 d6"));
}

#[test]
fn r4_pawn_promotes_on_its_far_edge_to_a_chosen_piece() {
    let g = kings().piece("c7", RED, Pawn).build();
    let promos: Vec<String> = g
        .legal_actions(Seat(0))
        .iter()
        .filter(|a| matches!(a, Action::Move(m) if m.from == sq("c7")))
        .map(|a| g.format(a))
        .collect();
    assert_eq!(promos, ["c7-c8=wizard", "c7-c8=fairy", "c7-c8=frog"]);
    assert!(illegal(&g, "c7-c8").contains("promotes"));
    assert!(matches!(
        g.parse(Seat(0), "c7-c8=king"),
        Err(ActionError::Syntax(_))
    ));
    let mut g2 = g.clone();
    play(&mut g2, "c7-c8=r");
    assert_eq!(g2.piece_at(sq("c8")).unwrap().kind, Frog);
    // Green promotes on the a-file.
    let mut g = kings().to_move(GREEN).piece("b5", GREEN, Pawn).build();
    play(&mut g, "b5-a5=fairy");
    assert_eq!(g.piece_at(sq("a5")).unwrap().kind, Fairy);
    // A pawn not on its edge does not promote.
    let g = kings().piece("c6", RED, Pawn).build();
    assert!(illegal(&g, "c6-c7=fairy").contains("Only a pawn"));
}

#[test]
fn pieces_never_capture_their_own() {
    let g = kings().piece("b1", RED, Wizard).build();
    assert!(illegal(&g, "b1-a1").contains("your own"));
}

// ---------------------------------------------------------------- spells

#[test]
fn freeze_stops_a_piece_for_its_next_turn_only() {
    let mut g = kings()
        .piece("d4", BLUE, Wizard)
        .piece("e4", BLUE, Frog)
        .hand(RED, &[Freeze])
        .build();
    play(&mut g, "freeze d4");
    assert_eq!(statuses(&g, "d4"), [StatusKind::Frozen]);
    assert!(dests(&g, "d4").is_empty());
    assert!(illegal(&g, "d4-d5").contains("frozen"));
    assert!(!dests(&g, "e4").is_empty(), "only the target is frozen");
    play(&mut g, "e4-e5");
    // Blue's turn is over: the card went to the discard pile.
    assert!(statuses(&g, "d4").is_empty());
    assert_eq!(g.discard_pile(), [Freeze]);
    play(&mut g, "pass");
    play(&mut g, "pass");
    play(&mut g, "pass");
    assert!(!dests(&g, "d4").is_empty());
}

#[test]
fn freeze_may_target_any_enemy_piece() {
    let g = kings().piece("c3", BLUE, Pawn).hand(RED, &[Freeze]).build();
    for target in ["a8", "h8", "h1", "c3"] {
        assert!(
            g.parse(Seat(0), &format!("freeze {target}")).is_ok(),
            "{target}"
        );
    }
    assert!(illegal(&g, "freeze a1").contains("enemy"));
    assert!(illegal(&g, "freeze e5").contains("no piece"));
}

#[test]
fn a_spell_lasts_until_the_targets_owner_has_had_a_turn() {
    let mut g = kings()
        .piece("d1", RED, Frog)
        .hand(BLUE, &[Freeze])
        .to_move(BLUE)
        .build();
    play(&mut g, "freeze d1");
    play(&mut g, "pass"); // Yellow
    play(&mut g, "pass"); // Green
    assert_eq!(
        statuses(&g, "d1"),
        [StatusKind::Frozen],
        "still frozen on Red's turn"
    );
    assert!(dests(&g, "d1").is_empty());
    play(&mut g, "a1-b1");
    assert!(statuses(&g, "d1").is_empty());
}

#[test]
fn slow_limits_wizard_fairy_and_frog_to_one_square() {
    let g = kings()
        .piece("d4", RED, Wizard)
        .spell_on("d4", Slow)
        .piece("d6", RED, Fairy)
        .spell_on("d6", Slow)
        .piece("f3", RED, Frog)
        .spell_on("f3", Slow)
        .build();
    assert_eq!(dests(&g, "d4"), list("c4 d3 d5 e4"));
    assert_eq!(dests(&g, "d6"), list("c5 c7 e5 e7"), "no knight move");
    assert_eq!(dests(&g, "f3"), list("e2 e3 e4 f2 f4 g2 g3 g4"));
    assert!(illegal(&g, "d4-d1").contains("slowed"));
    assert!(illegal(&g, "d6-e8").contains("slowed"));
    assert_eq!(statuses(&g, "d4"), [StatusKind::Slowed]);
}

#[test]
fn slow_may_target_only_wizard_fairy_or_frog() {
    let g = Position::start().hand(RED, &[Slow]).build();
    assert!(g.parse(Seat(0), "slow a7").is_ok());
    assert!(g.parse(Seat(0), "slow a6").is_ok());
    assert!(g.parse(Seat(0), "slow a5").is_ok());
    assert!(illegal(&g, "slow a8").contains("Wizard, Fairy or Frog"));
    assert!(illegal(&g, "slow b7").contains("Wizard, Fairy or Frog"));
    let casts = g
        .legal_actions(Seat(0))
        .iter()
        .filter(|a| matches!(a, Action::Cast { .. }))
        .count();
    assert_eq!(casts, 9);
}

#[test]
fn anti_jump_stops_the_frog_jumping() {
    let g = kings()
        .piece("d4", RED, Frog)
        .spell_on("d4", AntiJump)
        .piece("d5", BLUE, Pawn)
        .piece("e5", RED, Pawn)
        .build();
    let d = dests(&g, "d4");
    assert!(!d.contains(&"d6".to_string()) && !d.contains(&"f6".to_string()));
    assert!(d.contains(&"d5".to_string()), "still captures next to it");
    assert!(
        d.contains(&"b6".to_string()) && d.contains(&"d2".to_string()),
        "free lines"
    );
    assert!(illegal(&g, "d4-d6").contains("Anti-Jump"));
    assert_eq!(statuses(&g, "d4"), [StatusKind::AntiJump]);
}

#[test]
fn anti_jump_blocks_the_fairy_knight_move_on_either_path_square() {
    // d4-e6 runs d5, d6 then e6; d4-f5 runs e4, f4 then f5.
    let base = || kings().piece("d4", RED, Fairy).spell_on("d4", AntiJump);
    let g = base().piece("d5", BLUE, Pawn).build();
    let d = dests(&g, "d4");
    assert!(!d.contains(&"e6".to_string()) && !d.contains(&"c6".to_string()));
    assert!(d.contains(&"f5".to_string()) && d.contains(&"e2".to_string()));
    let g = base().piece("d6", BLUE, Pawn).build();
    assert!(
        !dests(&g, "d4").contains(&"e6".to_string()),
        "the corner square counts"
    );
    let g = base().piece("e5", BLUE, Pawn).build();
    // e5 is on no path of a two-then-one move to e6 (that runs d5, d6).
    assert!(dests(&g, "d4").contains(&"e6".to_string()));
    assert!(illegal(&base().piece("d5", BLUE, Pawn).build(), "d4-e6").contains("Anti-Jump"));
    // Bishop moves are not jumps and stay.
    assert!(dests(&g, "d4").contains(&"c3".to_string()));
}

#[test]
fn anti_jump_may_target_only_fairy_or_frog() {
    let g = Position::start().hand(RED, &[AntiJump]).build();
    assert!(g.parse(Seat(0), "anti-jump a6").is_ok());
    assert!(g.parse(Seat(0), "anti jump h3").is_ok());
    assert!(g.parse(Seat(0), "cast antijump e8").is_ok());
    assert!(illegal(&g, "anti-jump a7").contains("Fairy or Frog"));
}

#[test]
fn r19_casting_plays_a_card_and_draws_one_without_naming_it() {
    let mut g = kings()
        .piece("d4", BLUE, Wizard)
        .hand(RED, &[Freeze, Slow])
        .draw_pile(&[AntiJump, Freeze])
        .build();
    let ev = play(&mut g, "cast slow d4");
    assert_eq!(g.hand(Seat(0)), [Freeze, AntiJump]);
    assert_eq!(g.draw_pile_len(), 1);
    let draw = ev
        .iter()
        .find(|e| e.secret.is_some())
        .expect("a draw event");
    assert_eq!(draw.secret.as_ref().unwrap().seat, Seat(0));
    assert!(draw.secret.as_ref().unwrap().text.contains("Anti-Jump"));
    assert!(!draw.text.contains("Anti") && !draw.text.contains("Freeze"));
    assert!(draw.chance);
}

#[test]
fn r6_an_empty_draw_pile_is_never_refilled() {
    let mut g = kings()
        .piece("d4", BLUE, Wizard)
        .hand(RED, &[Freeze])
        .hand(BLUE, &[Freeze])
        .build();
    let ev = play(&mut g, "freeze d4");
    assert!(ev.iter().any(|e| e.text.contains("draw pile is empty")));
    assert!(g.hand(Seat(0)).is_empty());
    play(&mut g, "freeze a1"); // Blue: the Freeze under d4 is discarded
    assert_eq!(g.discard_pile(), [Freeze]);
    play(&mut g, "pass");
    play(&mut g, "pass");
    play(&mut g, "pass"); // Red: the Freeze under a1 is discarded
    assert_eq!(g.discard_pile(), [Freeze, Freeze], "the discard pile stays");
    assert_eq!(g.draw_pile_len(), 0);
    assert!((0..4).all(|s| g.hand(Seat(s)).is_empty()));
    assert!(!g
        .legal_actions(Seat(1))
        .iter()
        .any(|a| matches!(a, Action::Cast { .. })));
}

#[test]
fn r7_cards_are_not_cast_on_own_partner_or_eliminated_pieces() {
    let g = kings()
        .piece("c3", BLUE, Pawn)
        .piece("e3", YELLOW, Pawn)
        .eliminated(BLUE)
        .clear("a8")
        .hand(RED, &[Freeze])
        .build();
    assert!(illegal(&g, "freeze c3").contains("out of the game"));
    assert!(g.parse(Seat(0), "freeze e3").is_ok());
    let g = kings()
        .partners()
        .piece("e3", YELLOW, Pawn)
        .hand(RED, &[Freeze])
        .build();
    assert!(illegal(&g, "freeze e3").contains("partner"));
    assert!(illegal(&g, "freeze c3").contains("no piece"));
    let g = kings().hand(RED, &[Slow]).piece("d4", BLUE, Wizard).build();
    assert!(illegal(&g, "freeze d4").contains("no Freeze"));
}

#[test]
fn r8_several_cards_may_lie_under_one_piece_and_all_are_discarded() {
    let mut g = kings()
        .piece("d4", RED, Frog)
        .hand(BLUE, &[Slow])
        .hand(YELLOW, &[AntiJump])
        .hand(GREEN, &[Freeze, Slow])
        .to_move(BLUE)
        .build();
    play(&mut g, "slow d4");
    play(&mut g, "anti-jump d4");
    play(&mut g, "slow d4");
    assert_eq!(
        statuses(&g, "d4"),
        [StatusKind::Slowed, StatusKind::AntiJump]
    );
    assert_eq!(dests(&g, "d4").len(), 8, "slowed: one square");
    let ev = play(&mut g, "pass");
    assert!(ev
        .iter()
        .any(|e| e.text.contains("discard pile: Slow, Slow, Anti-Jump")));
    assert_eq!(g.discard_pile().len(), 3);
    assert!(statuses(&g, "d4").is_empty());
}

#[test]
fn r8_freeze_outweighs_other_cards() {
    let g = kings()
        .piece("d4", RED, Frog)
        .spell_on("d4", Slow)
        .spell_on("d4", Freeze)
        .build();
    assert!(dests(&g, "d4").is_empty());
}

#[test]
fn a_captured_pieces_cards_go_to_the_discard_pile() {
    let mut g = kings()
        .piece("d4", RED, Wizard)
        .piece("d6", BLUE, Frog)
        .spell_on("d6", Slow)
        .build();
    play(&mut g, "d4-d6");
    assert_eq!(g.discard_pile(), [Slow]);
    assert_eq!(g.card_count(), 1);
}

// ---------------------------------------------------------------- eliminations (R9-R12)

#[test]
fn r9_capturing_a_king_eliminates_its_player_and_the_capturer_draws() {
    let mut g = kings()
        .piece("a7", RED, Wizard)
        .piece("b6", BLUE, Pawn)
        .piece("b7", BLUE, Fairy)
        .draw_pile(&[Slow])
        .build();
    let ev = play(&mut g, "a7-a8");
    assert!(g.is_out(Seat(1)));
    assert!(ev.iter().any(|e| e.text.contains("Blue is eliminated")));
    assert_eq!(g.hand(Seat(0)), [Slow]);
    // Blue's pieces stay; Blue is skipped.
    assert!(g.piece_at(sq("b6")).is_some() && g.piece_at(sq("b7")).is_some());
    assert_eq!(g.turn(), Seat(2));
    let v = g.view(Viewer::Spectator);
    assert!(v.seats[1].eliminated);
    assert_eq!(v.seats[1].lost[0].unit, "magic-king");
    assert!(v.seats[1]
        .notes
        .iter()
        .any(|n| n.contains("King captured by Red")));
}

#[test]
fn r10_an_eliminated_players_pieces_may_be_captured_not_passed_through() {
    let g = kings()
        .clear("a8")
        .eliminated(BLUE)
        .piece("d4", RED, Frog)
        .piece("d5", BLUE, Pawn)
        .piece("c4", BLUE, Pawn)
        .piece("f4", RED, Fairy)
        .piece("f5", BLUE, Wizard)
        .build();
    let frog = dests(&g, "d4");
    assert!(
        frog.contains(&"d5".to_string()) && frog.contains(&"c4".to_string()),
        "captures"
    );
    assert!(
        !frog.contains(&"d6".to_string()) && !frog.contains(&"b4".to_string()),
        "no jumping"
    );
    assert!(frog.contains(&"f6".to_string()), "other lines are free");
    let fairy = dests(&g, "f4");
    // f4-e6 and f4-g6 run f5, f6: blocked by the dead Wizard on f5.
    assert!(!fairy.contains(&"e6".to_string()) && !fairy.contains(&"g6".to_string()));
    assert!(fairy.contains(&"h5".to_string()));
    assert!(illegal(&g, "d4-d6").contains("eliminated"));
    // A living enemy piece is jumped as usual.
    let g = kings()
        .piece("d4", RED, Frog)
        .piece("d5", BLUE, Pawn)
        .build();
    assert!(dests(&g, "d4").contains(&"d6".to_string()));
}

#[test]
fn r11_cards_under_an_eliminated_players_pieces_are_discarded() {
    let mut g = kings()
        .piece("b1", RED, Wizard)
        .piece("h4", GREEN, Frog)
        .spell_on("h4", Slow)
        .build();
    // Green's King on h1 falls to the Wizard.
    play(&mut g, "b1-h1");
    assert!(g.is_out(Seat(3)));
    assert_eq!(g.discard_pile(), [Slow]);
    assert!(statuses(&g, "h4").is_empty());
}

#[test]
fn r12_an_eliminated_players_hand_stays_set_aside_unseen() {
    let mut g = kings()
        .piece("b1", RED, Wizard)
        .hand(GREEN, &[Freeze, Slow])
        .build();
    play(&mut g, "b1-h1");
    let v = g.view(Viewer::Seat(Seat(0)));
    assert_eq!(v.seats[3].hand_size, Some(2));
    assert!(g.view(Viewer::Spectator).hand.is_empty());
    assert_eq!(g.card_count(), 2);
}

#[test]
fn last_player_standing_wins() {
    let mut g = Position::empty()
        .piece("a1", RED, King)
        .piece("a2", BLUE, King)
        .piece("b1", RED, Wizard)
        .eliminated(YELLOW)
        .eliminated(GREEN)
        .build();
    let ev = play(&mut g, "a1-a2");
    assert_eq!(
        g.outcome(),
        Outcome::Won {
            winners: vec![Seat(0)],
            reason: "Red is the last player standing.".into()
        }
    );
    assert!(ev.iter().any(|e| e.text.contains("Red wins")));
    assert!(g.to_act().is_empty());
    assert!(g.legal_actions(Seat(0)).is_empty());
    assert_eq!(g.play(Seat(0), &Action::Pass), Err(ActionError::GameOver));
}

#[test]
fn r16_concede_eliminates_and_a_conceded_king_gives_no_card() {
    let mut g = kings()
        .piece("a7", RED, Wizard)
        .draw_pile(&[Freeze])
        .to_move(BLUE)
        .build();
    let ev = g.concede(Seat(1));
    assert!(!ev.is_empty());
    assert!(g.is_out(Seat(1)));
    assert_eq!(g.turn(), Seat(2), "the conceding seat's turn passes on");
    assert!(
        g.concede(Seat(1)).is_empty(),
        "conceding twice does nothing"
    );
    play(&mut g, "pass");
    play(&mut g, "pass");
    // The King stays and may be captured, but its player was already out.
    play(&mut g, "a7-a8");
    assert!(g.hand(Seat(0)).is_empty());
    assert_eq!(g.draw_pile_len(), 1);
    assert_eq!(g.view(Viewer::Spectator).seats[1].lost.len(), 1);
}

#[test]
fn r16_concessions_can_end_the_game() {
    let mut g = MagicChess::setup(&Options::new(), 1).unwrap();
    g.concede(Seat(3));
    g.concede(Seat(0));
    assert_eq!(g.turn(), Seat(1));
    assert!(!g.outcome().is_over());
    g.concede(Seat(2));
    assert!(matches!(g.outcome(), Outcome::Won { ref winners, .. } if winners == &[Seat(1)]));
}

#[test]
fn r17_skip_passes_the_turn_of_the_seat_to_act_only() {
    let mut g = kings()
        .piece("d4", RED, Wizard)
        .spell_on("d4", Freeze)
        .build();
    assert!(matches!(g.skip(Seat(1)), Err(ActionError::NotYourTurn(_))));
    let ev = g.skip(Seat(0)).unwrap();
    assert!(ev[0].text.contains("skipped"));
    assert_eq!(g.turn(), Seat(1));
    assert!(
        statuses(&g, "d4").is_empty(),
        "the end of turn still discards"
    );
}

#[test]
fn r18_pass_is_always_legal() {
    // Red's only piece is frozen and Red holds no card: pass is still there.
    let g = kings().spell_on("a1", Freeze).build();
    assert_eq!(g.legal_actions(Seat(0)), vec![Action::Pass]);
    // And a player with moves may pass too.
    let g = MagicChess::setup(&Options::new(), 2).unwrap();
    assert!(g.legal_actions(Seat(0)).contains(&Action::Pass));
}

#[test]
fn r13_fifty_quiet_rounds_draw_the_game() {
    let mut g = kings().quiet(4 * 50 - 1).build();
    play(&mut g, "pass");
    assert!(matches!(g.outcome(), Outcome::Drawn { .. }));
    // A pawn move or a capture starts the count again.
    let mut g = kings().piece("c2", RED, Pawn).quiet(4 * 50 - 1).build();
    play(&mut g, "c2-c3");
    assert!(!g.outcome().is_over());
    // With three players left, 150 turns suffice.
    let mut g = kings()
        .clear("a8")
        .eliminated(BLUE)
        .quiet(3 * 50 - 1)
        .build();
    play(&mut g, "pass");
    assert!(g.outcome().is_over());
}

#[test]
fn r14_partners_share_a_side_and_win_together() {
    let mut g = kings()
        .partners()
        .piece("h7", RED, Wizard)
        .piece("g8", YELLOW, Pawn)
        .piece("b8", RED, Wizard)
        .build();
    // A partner's pieces are not captured.
    assert!(illegal(&g, "h7-h8").contains("partner"));
    // Take Blue's King, then Green's: Red and Yellow win, together.
    play(&mut g, "b8-a8");
    assert!(!g.outcome().is_over());
    play(&mut g, "pass"); // Yellow
    play(&mut g, "pass"); // Green
    play(&mut g, "h7-h2");
    play(&mut g, "pass");
    play(&mut g, "pass");
    play(&mut g, "h2-h1");
    assert!(
        matches!(g.outcome(), Outcome::Won { ref winners, .. } if winners == &[Seat(0), Seat(2)])
    );
}

// ---------------------------------------------------------------- notation

#[test]
fn notation_round_trips_and_accepts_common_spellings() {
    let g = Position::start().hand(RED, &[Freeze, AntiJump]).build();
    for a in g.legal_actions(Seat(0)) {
        let t = g.format(&a);
        assert_eq!(g.parse(Seat(0), &t), Ok(a), "{t}");
    }
    let m = Action::Move(Move {
        from: sq("a2"),
        to: sq("a3"),
        promote: None,
    });
    for t in ["a2-a3", "A2-A3", "a2 a3", "a2a3", " a2 - a3 ", "a2xa3"] {
        assert_eq!(g.parse(Seat(0), t), Ok(m), "{t}");
    }
    let f = Action::Cast {
        spell: Freeze,
        target: sq("e8"),
    };
    for t in ["freeze e8", "cast freeze e8", "Cast Freeze E8"] {
        assert_eq!(g.parse(Seat(0), t), Ok(f), "{t}");
    }
    assert_eq!(g.format(&f), "freeze e8");
    assert_eq!(g.parse(Seat(0), "PASS"), Ok(Action::Pass));
}

#[test]
fn syntax_errors_differ_from_illegal_actions() {
    let g = Position::start().hand(RED, &[Freeze]).build();
    for t in [
        "",
        "e9-e8",
        "hello",
        "cast fireball e5",
        "freeze",
        "freeze e5 e6",
        "a2-",
        "a2-a3-a4",
        "a2-a3=queen",
    ] {
        assert!(
            matches!(g.parse(Seat(0), t), Err(ActionError::Syntax(_))),
            "'{t}'"
        );
    }
    for t in ["a2-a4", "e4-e5", "a8-a7", "slow e8", "freeze a1", "b1-b2"] {
        assert!(
            matches!(g.parse(Seat(0), t), Err(ActionError::Illegal(_))),
            "'{t}'"
        );
    }
    assert!(matches!(
        g.parse(Seat(1), "b7-c7"),
        Err(ActionError::NotYourTurn(_))
    ));
    assert!(illegal(&g, "e4-e5").contains("no piece on e4"));
    assert!(illegal(&g, "a8-a7").contains("not yours"));
}

#[test]
fn refused_actions_change_nothing() {
    let mut g = Position::start().hand(RED, &[Freeze]).build();
    let before = serde_json::to_string(&g).unwrap();
    let m = Action::Move(Move {
        from: sq("b1"),
        to: sq("b5"),
        promote: None,
    });
    assert!(g.play(Seat(0), &m).is_err());
    assert!(g.play(Seat(1), &Action::Pass).is_err());
    assert_eq!(serde_json::to_string(&g).unwrap(), before);
}

// ---------------------------------------------------------------- views and hidden cards

#[test]
fn r19_views_show_a_hand_only_to_its_seat_and_sizes_to_all() {
    let g = MagicChess::setup(&Options::new(), 99).unwrap();
    for s in 0..4u8 {
        let v = g.view(Viewer::Seat(Seat(s)));
        let mut own: Vec<String> = g
            .hand(Seat(s))
            .iter()
            .map(|c| c.name().to_string())
            .collect();
        own.sort();
        let mut shown = v.hand.clone();
        shown.sort();
        assert_eq!(shown, own);
        assert!(v.seats.iter().all(|x| x.hand_size == Some(3)));
        assert_eq!(v.seats[s as usize].colour, s);
    }
    assert!(g.view(Viewer::Spectator).hand.is_empty());
}

#[test]
fn r2_rotation_puts_the_viewers_army_at_the_bottom() {
    let g = MagicChess::setup(&Options::new(), 1).unwrap();
    let r: Vec<f32> = (0..4)
        .map(|s| g.view(Viewer::Seat(Seat(s))).rotation)
        .collect();
    assert_eq!(r, [0.0, 270.0, 180.0, 90.0]);
    assert_eq!(g.view(Viewer::Spectator).rotation, 0.0);
}

#[test]
fn r19_redeal_keeps_what_the_seat_knows_and_reshuffles_the_rest() {
    let g = MagicChess::setup(&Options::new(), 42).unwrap();
    let mut changed = false;
    for seed in 0..20 {
        let r = g.redeal(Seat(2), seed);
        assert_eq!(r.hand(Seat(2)), g.hand(Seat(2)));
        for s in 0..4 {
            assert_eq!(r.hand(Seat(s)).len(), g.hand(Seat(s)).len());
        }
        assert_eq!(r.draw_pile_len(), g.draw_pile_len());
        assert_eq!(r.card_count(), g.card_count());
        assert_eq!(r.view(Viewer::Seat(Seat(2))), g.view(Viewer::Seat(Seat(2))));
        assert_eq!(r.view(Viewer::Spectator), g.view(Viewer::Spectator));
        changed |= (0..4).any(|s| r.hand(Seat(s)) != g.hand(Seat(s)));
    }
    assert!(changed, "other hands are re-sampled");
    // The unseen cards, as a multiset, are the same.
    let unseen = |g: &MagicChess| {
        let mut v: Vec<Spell> = [0, 1, 3]
            .iter()
            .flat_map(|&s| g.hand(Seat(s)).to_vec())
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        unseen(&g.redeal(Seat(2), 5)).len() + g.draw_pile_len(),
        9 + 18
    );
}

#[test]
fn rules_cover_overview_pieces_and_spells() {
    assert!(MagicChess::rules(None)
        .unwrap()
        .contains("last player standing"));
    for t in [
        "king",
        "wizard",
        "fairy",
        "frog",
        "pawn",
        "freeze",
        "slow",
        "anti-jump",
    ] {
        assert!(MagicChess::rules(Some(t)).is_ok(), "{t}");
    }
    assert!(MagicChess::rules(Some("queen")).is_err());
}

#[test]
fn heuristic_uses_public_facts_and_counts_partners_together() {
    let g = MagicChess::setup(&Options::new(), 8).unwrap();
    for s in 0..4 {
        let h = g.heuristic(Seat(s));
        assert!((h - 0.25).abs() < 1e-6, "even start: {h}");
        for seed in 0..5 {
            assert_eq!(g.redeal(Seat(s), seed).heuristic(Seat(s)), h);
        }
    }
    // Up a Wizard: above an even share.
    let g = Position::start().clear("a7").build();
    assert!(g.heuristic(Seat(0)) > 0.25 && g.heuristic(Seat(1)) < 0.25);
    // Partners are one side: each partnership starts at one half.
    let g = Position::start().partners().build();
    assert!((g.heuristic(Seat(0)) - 0.5).abs() < 1e-6);
    assert_eq!(g.heuristic(Seat(0)), g.heuristic(Seat(2)));
    // Out is zero; a won game is exact.
    let g = kings().clear("a8").eliminated(BLUE).build();
    assert_eq!(g.heuristic(Seat(1)), 0.0);
}
