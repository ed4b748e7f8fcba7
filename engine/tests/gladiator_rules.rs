//! Gladiator Chess: one test per piece, per special rule and per ruling
//! (R1... in engine/rules/gladiator.md). Dice come from the game's seeded
//! generator; tests that need a given battle result search the seeds for one
//! and then check everything that result implies.

use tokar_engine::catalog::{AnyGame, GameKind, Variant};
use tokar_engine::gladiator::{Action, Gladiator, Kind, Team, BOARD};
use tokar_engine::{ActionError, Event, Game, Outcome, Rng, Seat, StatusKind, Viewer};

use Kind::*;
use Team::{Black as B, White as W};

const W_KING: Seat = Seat(0);
const W_QUEEN: Seat = Seat(1);
const W_BK: Seat = Seat(2);
const W_KK: Seat = Seat(3);
const B_KING: Seat = Seat(4);
const B_QUEEN: Seat = Seat(5);
const B_BK: Seat = Seat(6);
const B_KK: Seat = Seat(7);

/// Both Kings in their corners, walled in by their own Squires, their
/// King's Knights alive: guarded, and out of every line through the centre.
fn base() -> Gladiator {
    let mut g = Gladiator::empty(7);
    g.put("a1", W, King)
        .put("b1", W, KingsKnight)
        .put("a2", W, Squire)
        .put("b2", W, Squire)
        .put("a12", B, King)
        .put("b12", B, KingsKnight)
        .put("a11", B, Squire)
        .put("b11", B, Squire);
    g
}

fn play(g: &mut Gladiator, seat: Seat, text: &str) -> Result<Vec<Event>, ActionError> {
    let a = g.parse(seat, text)?;
    g.play(seat, &a)
}

fn ok(g: &mut Gladiator, seat: Seat, text: &str) -> Vec<Event> {
    play(g, seat, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn illegal(g: &Gladiator, seat: Seat, text: &str) -> String {
    match g.parse(seat, text) {
        Err(ActionError::Illegal(why)) => why,
        other => panic!("{text}: expected Illegal, got {other:?}"),
    }
}

/// The squares the piece on `from` may move to now, sorted, in notation.
fn moves_from(g: &Gladiator, seat: Seat, from: &str) -> Vec<String> {
    let c = BOARD.parse(from).unwrap();
    let mut v: Vec<String> = g
        .legal_actions(seat)
        .iter()
        .filter(|a| a.from == c)
        .map(|a| BOARD.name(a.to))
        .collect();
    v.sort();
    v.dedup();
    v
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Plays `text` from copies of `g` with seeds 0.. until `want` holds after it.
fn with_seed(
    g: &Gladiator,
    seat: Seat,
    text: &str,
    want: impl Fn(&Gladiator, &[Event]) -> bool,
) -> (Gladiator, Vec<Event>) {
    for seed in 0..5000 {
        let mut c = g.clone();
        c.set_rng(Rng::new(seed));
        let ev = ok(&mut c, seat, text);
        if want(&c, &ev) {
            return (c, ev);
        }
    }
    panic!("no seed gives the wanted result for {text}");
}

fn battle(ev: &[Event]) -> &Event {
    ev.iter()
        .find(|e| e.dice.is_some())
        .expect("a battle event")
}

/// (attacker total, defender total) from a battle event, given the attacker's dice count.
fn totals(e: &Event, attacker_dice: usize) -> (i32, i32) {
    let d = &e.dice.as_ref().unwrap().1;
    let a: i32 = d[..attacker_dice].iter().map(|&x| x as i32).sum();
    let b: i32 = d[attacker_dice..].iter().map(|&x| x as i32).sum();
    (a, b)
}

// ---------------------------------------------------------------- setup

/// R1, R2: the table's layout, the Mounted Lancer read as the King's Knight.
#[test]
fn r1_r2_setup_follows_the_table() {
    let g = Gladiator::new(1);
    let back = [
        Warrior,
        MountedKnight,
        Scout,
        Champion,
        Queen,
        King,
        BlackKnight,
        Scout,
        KingsKnight,
        Warrior,
    ];
    for (f, kind) in back.iter().enumerate() {
        let file = (b'a' + f as u8) as char;
        let w = g.piece_at(&format!("{file}1")).unwrap();
        let b = g.piece_at(&format!("{file}12")).unwrap();
        assert_eq!((w.kind, w.team, b.kind, b.team), (*kind, W, *kind, B));
        // Each file: a Squire facing a Footman.
        let wp = g.piece_at(&format!("{file}2")).unwrap().kind;
        let bp = g.piece_at(&format!("{file}11")).unwrap().kind;
        assert!(
            (wp, bp) == (Squire, Footman) || (wp, bp) == (Footman, Squire),
            "{file}"
        );
    }
    assert_eq!(g.piece_at("a2").unwrap().kind, Squire);
    assert_eq!(g.piece_at("a11").unwrap().kind, Footman);
    assert_eq!(g.pieces().count(), 40);
    assert_eq!(g.piece_at("i1").unwrap().kind, KingsKnight);
    // Scouts on different colours (Scout rule 1).
    let colour = |s: &str| {
        let (f, r) = BOARD.coords(BOARD.parse(s).unwrap());
        (f + r) % 2
    };
    assert_ne!(colour("c1"), colour("h1"));
    assert_eq!(Kind::lookup("Mounted Lancer"), Some(KingsKnight));
    // Starting hit points.
    assert_eq!(g.piece_at("f1").unwrap().hp, 30);
    assert_eq!(g.piece_at("a2").unwrap().hp, 2);
    assert_eq!(g.team_to_move(), W);
    assert_eq!(g.to_act(), vec![W_KING]);
}

#[test]
fn piece_numbers() {
    let table = [
        (King, 5, 30),
        (MountedKnight, 3, 16),
        (Footman, 1, 4),
        (Champion, 4, 20),
        (Warrior, 2, 6),
        (BlackKnight, 4, 20),
        (Scout, 3, 12),
        (KingsKnight, 4, 20),
        (Squire, 1, 2),
    ];
    for (k, d, hp) in table {
        assert_eq!((k.dice(), k.max_hp()), (d, hp), "{k:?}");
    }
    assert_eq!(Queen.dice(), 0);
}

// ---------------------------------------------------------------- counts

/// Legal action counts from the opening, worked out by hand: the White King's
/// command has the Mounted Knight's two jumps and each of five Footmen's one
/// or two steps. After b2-b4 the Queen's command is boxed in (rule 7), and
/// the King's override counts every unmoved piece: King's command 10 (MK 2,
/// four Footmen 8), Black Knight's 4 (g1: f3 h3; c1 Scout: b2 a3), King's
/// Knight's 12 (i1: h3 j3; five Squires 10).
#[test]
fn opening_counts() {
    let mut g = Gladiator::new(3);
    assert_eq!(g.legal_actions(W_KING).len(), 12);
    assert!(g.legal_actions(W_QUEEN).is_empty());
    ok(&mut g, W_KING, "b2-b4");
    assert_eq!(
        g.to_act(),
        vec![W_KING],
        "the Queen cannot move: the King must override"
    );
    assert!(g.legal_actions(W_QUEEN).is_empty());
    let over = g.legal_actions(W_KING);
    assert_eq!(over.len(), 26);
    assert!(over.iter().all(|a| a.by_king));
    // Black's opening mirrors White's.
    let mut b = Gladiator::new(3);
    b.set_turn(B, tokar_engine::gladiator::Commander::King);
    assert_eq!(b.legal_actions(B_KING).len(), 12);
}

// ---------------------------------------------------------------- pieces

#[test]
fn king_moves_one_square() {
    let mut g = Gladiator::empty(1);
    g.put("e5", W, King)
        .put("j1", W, KingsKnight)
        .put("j12", B, King)
        .put("h12", B, KingsKnight);
    assert_eq!(
        moves_from(&g, W_KING, "e5"),
        sorted(&["d4", "d5", "d6", "e4", "e6", "f4", "f5", "f6"])
    );
}

#[test]
fn mounted_knight_jumps() {
    let mut g = base();
    g.put("e5", W, MountedKnight)
        .put("e6", W, Squire)
        .put("d5", B, Squire);
    assert_eq!(
        moves_from(&g, W_KING, "e5"),
        sorted(&["c4", "c6", "d3", "d7", "f3", "f7", "g4", "g6"])
    );
}

/// R18: a Footman steps one or two squares at any time, through empty squares.
#[test]
fn footman_two_steps_always_and_attacks_diagonally() {
    let mut g = base();
    g.put("e5", W, Footman)
        .put("d6", B, Squire)
        .put("f6", W, Squire);
    // Far from its start rank it still steps one or two; attacks only the enemy.
    assert_eq!(moves_from(&g, W_KING, "e5"), sorted(&["d6", "e6", "e7"]));
    g.put("e6", B, Warrior);
    assert_eq!(moves_from(&g, W_KING, "e5"), sorted(&["d6"]));
    assert!(illegal(&g, W_KING, "e5xe6").contains("cannot reach"));
    let mut g = base();
    g.put("e5", W, Footman).put("e7", B, Warrior);
    assert_eq!(moves_from(&g, W_KING, "e5"), sorted(&["e6"]));
    // Black Footmen go down the board.
    let mut g = base();
    g.put("e8", B, Footman)
        .set_turn(B, tokar_engine::gladiator::Commander::King);
    assert_eq!(moves_from(&g, B_KING, "e8"), sorted(&["e6", "e7"]));
}

/// R18: a Squire steps two only from its starting rank; no pawn captures a Queen.
#[test]
fn squire_moves_as_a_pawn() {
    let mut g = base();
    g.put("e2", W, Squire)
        .put("g5", W, Squire)
        .put("h6", B, Scout)
        .put("f6", B, Queen);
    g.set_turn(W, tokar_engine::gladiator::Commander::KingsKnight);
    assert_eq!(moves_from(&g, W_KK, "e2"), sorted(&["e3", "e4"]));
    // Away from its start rank: one step; attacks diagonally, never a Queen.
    assert_eq!(moves_from(&g, W_KK, "g5"), sorted(&["g6", "h6"]));
    assert!(illegal(&g, W_KK, "g5xf6").contains("capture the Queen"));
}

/// R3: 3 or 5 squares, one 90-degree turn at most, through empty squares.
#[test]
fn r3_champion_walks_three_or_five_with_one_turn() {
    let mut g = base();
    g.put("e6", W, Champion)
        .set_turn(W, tokar_engine::gladiator::Commander::Queen);
    let m = moves_from(&g, W_QUEEN, "e6");
    // On an open board: every square at a walking distance of exactly 3 or 5.
    let mut expect = Vec::new();
    for c in BOARD.cells() {
        let (f, r) = BOARD.coords(c);
        let d = (f - 4).abs() + (r - 5).abs();
        if (d == 3 || d == 5) && g.at(c).is_none_or(|p| p.team != W) {
            expect.push(BOARD.name(c));
        }
    }
    expect.sort();
    assert_eq!(m, expect);
    // By hand: all 12 squares at distance 3 fit; of the 20 at distance 5, e1
    // and j6 fit among the straight ones and all 16 bent ones do: 12 + 19.
    assert_eq!(m.len(), 31);
    assert!(m.contains(&"e9".to_string()) && m.contains(&"e11".to_string()));
    assert!(m.contains(&"g9".to_string()) && !m.contains(&"e10".to_string()));
    // Walls on all four first squares: no path at all.
    for s in ["d6", "f6", "e5", "e7"] {
        g.put(s, W, Warrior);
    }
    assert!(moves_from(&g, W_QUEEN, "e6").is_empty());
    // Open one side: only paths that start there and turn at most once.
    let mut g = base();
    g.put("e6", W, Champion)
        .put("d6", W, Warrior)
        .put("f6", W, Warrior)
        .put("e5", W, Warrior)
        .set_turn(W, tokar_engine::gladiator::Commander::Queen);
    let m = moves_from(&g, W_QUEEN, "e6");
    assert!(m.contains(&"e9".to_string()) && m.contains(&"f8".to_string()));
    assert!(m.contains(&"h8".to_string())); // two up, three across
    assert!(!m.contains(&"h6".to_string())); // across first is walled
}

#[test]
fn warrior_rook_and_scout_bishop() {
    let mut g = base();
    g.put("e6", W, Warrior)
        .put("e9", B, Squire)
        .put("c6", W, Squire)
        .set_turn(W, tokar_engine::gladiator::Commander::Queen);
    assert_eq!(
        moves_from(&g, W_QUEEN, "e6"),
        sorted(&[
            "d6", "e3", "e4", "e5", "e7", "e8", "e9", "f6", "g6", "h6", "i6", "j6", "e1", "e2"
        ])
    );
    let mut g = base();
    g.put("e6", W, Scout)
        .put("g8", B, Squire)
        .put("c4", W, Squire)
        .set_turn(W, tokar_engine::gladiator::Commander::BlackKnight);
    assert_eq!(
        moves_from(&g, W_BK, "e6"),
        sorted(&["d5", "f7", "g8", "f5", "g4", "h3", "i2", "j1", "d7", "c8", "b9", "a10"])
    );
}

#[test]
fn black_knight_and_kings_knight_jump_under_their_commanders() {
    let mut g = base();
    g.put("e6", W, BlackKnight)
        .set_turn(W, tokar_engine::gladiator::Commander::BlackKnight);
    assert_eq!(moves_from(&g, W_BK, "e6").len(), 8);
    assert!(
        moves_from(&g, W_BK, "b1").is_empty(),
        "the King's Knight is not his"
    );
    assert!(illegal(&g, W_BK, "b1-c3").contains("commanded by the King's Knight"));
    g.set_turn(W, tokar_engine::gladiator::Commander::KingsKnight);
    assert_eq!(moves_from(&g, W_KK, "b1"), sorted(&["a3", "c3", "d2"]));
}

#[test]
fn queen_slides_and_freezes() {
    let mut g = base();
    g.put("e5", W, Queen)
        .put("e9", B, Warrior)
        .set_turn(W, tokar_engine::gladiator::Commander::Queen);
    let ev = ok(&mut g, W_QUEEN, "e5xe9");
    assert!(
        ev[0].text.contains("freezes the Black Warrior"),
        "{:?}",
        ev[0].text
    );
    assert_eq!(g.piece_at("e9").unwrap().kind, Queen);
    let f = g.frozen_by(W).unwrap();
    assert_eq!(f.piece.kind, Warrior);
    // The frozen piece is on the tally: in the notes, not on the board.
    let v = g.view(Viewer::Spectator);
    assert!(
        v.seats[5]
            .notes
            .iter()
            .any(|n| n.starts_with("Frozen: Warrior")),
        "{:?}",
        v.seats[5]
    );
    let q = v
        .pieces
        .iter()
        .find(|p| p.glyph.unit == "gladiator-queen")
        .unwrap();
    assert!(q.statuses.iter().any(|s| s.kind == StatusKind::Frozen));
    assert_eq!(q.hp, None);
}

// ---------------------------------------------------------------- combat

/// The battle text and dice (the attacker's dice, then the defender's): "Warrior e4 attacks Squire e5: 2d6+1d6 = 11 vs 1d6 = 3, Squire dies."
#[test]
fn combat_text_dice_and_capture() {
    let mut g = base();
    g.put("e4", W, Warrior)
        .put("e5", B, Squire)
        .set_turn(W, tokar_engine::gladiator::Commander::Queen);
    let (after, ev) = with_seed(&g, W_QUEEN, "e4xe5", |g, _| {
        g.piece_at("e5").is_some_and(|p| p.kind == Warrior)
    });
    let e = battle(&ev);
    let (a, d) = totals(e, 3);
    assert_eq!(e.dice.as_ref().unwrap().1.len(), 4, "2d6+1d6 against 1d6");
    assert_eq!(e.dice.as_ref().unwrap().0, W_QUEEN);
    assert_eq!(
        e.text,
        format!("Warrior e4 attacks Squire e5: 2d6+1d6 = {a} vs 1d6 = {d}, Squire dies.")
    );
    assert!(a - d >= 2);
    assert!(
        after.piece_at("e4").is_none(),
        "the winner takes the square"
    );
    assert_eq!(after.lost(B), &[Squire]);
    assert_eq!(after.view(Viewer::Spectator).dice, e.dice);
}

/// Rule 9 and R4: the defender wins ties and the attacker, still alive, stays put.
#[test]
fn r4_ties_go_to_the_defender_and_a_failed_attacker_stays() {
    let mut g = base();
    g.put("e4", W, Champion)
        .put("e7", B, BlackKnight)
        .set_turn(W, tokar_engine::gladiator::Commander::Queen);
    let (after, ev) = with_seed(&g, W_QUEEN, "e4xe7", |_, ev| {
        let (a, d) = totals(battle(ev), 5);
        a == d
    });
    assert!(battle(&ev).text.contains("a tie: the defender holds"));
    assert_eq!(after.piece_at("e4").unwrap().hp, 20);
    assert_eq!(after.piece_at("e7").unwrap().hp, 20);
    // The defender wins and the attacker survives: it pays the difference and stays.
    let (after, ev) = with_seed(&g, W_QUEEN, "e4xe7", |_, ev| {
        let (a, d) = totals(battle(ev), 5);
        d > a
    });
    let (a, d) = totals(battle(&ev), 5);
    assert_eq!(after.piece_at("e4").unwrap().kind, Champion);
    assert_eq!(after.piece_at("e4").unwrap().hp, 20 - (d - a));
    assert_eq!(after.piece_at("e7").unwrap().hp, 20);
    // R15: it attacked, so it has moved this turn: no override moves it again.
    assert!(illegal(&after, W_KING, "king: e4xe7").contains("already moved"));
}

/// Hit points last between battles; the loser at zero or less is captured.
#[test]
fn hit_points_persist_and_zero_kills() {
    let mut g = base();
    g.put("e4", W, Scout)
        .put("f5", B, Champion)
        .set_turn(W, tokar_engine::gladiator::Commander::BlackKnight);
    let (after, ev) = with_seed(&g, W_BK, "e4xf5", |g, _| {
        g.piece_at("f5").is_some_and(|p| p.team == B && p.hp < 20)
    });
    let (a, d) = totals(battle(&ev), 4);
    assert_eq!(after.piece_at("f5").unwrap().hp, 20 - (a - d));
    assert!(battle(&ev).text.contains(&format!(
        "Champion loses {} ({} of 20 left)",
        a - d,
        20 - (a - d)
    )));
    // A wounded Champion at 1 hit point dies from any loss.
    let mut g = base();
    g.put("e4", W, Scout)
        .put("f5", B, Champion)
        .set_hp("f5", 1)
        .set_turn(W, tokar_engine::gladiator::Commander::BlackKnight);
    let (after, _) = with_seed(&g, W_BK, "e4xf5", |_, ev| {
        let (a, d) = totals(battle(ev), 4);
        a > d
    });
    assert_eq!(after.piece_at("f5").unwrap().kind, Scout);
    // The attacker can die too.
    let mut g = base();
    g.put("e4", W, Scout)
        .set_hp("e4", 1)
        .put("f5", B, Champion)
        .set_turn(W, tokar_engine::gladiator::Commander::BlackKnight);
    let (after, ev) = with_seed(&g, W_BK, "e4xf5", |_, ev| {
        let (a, d) = totals(battle(ev), 4);
        d > a
    });
    assert!(after.piece_at("e4").is_none());
    assert!(battle(&ev).text.ends_with("Scout dies."));
    assert_eq!(after.lost(W), &[Scout]);
}

/// R5: Warriors, Footmen and Squires that win a battle return fully healed;
/// other pieces keep their wounds.
#[test]
fn r5_warriors_footmen_squires_heal_on_victory() {
    let mut g = base();
    g.put("e4", W, Warrior)
        .set_hp("e4", 2)
        .put("e8", B, Champion)
        .set_turn(W, tokar_engine::gladiator::Commander::Queen);
    let (after, _) = with_seed(&g, W_QUEEN, "e4xe8", |_, ev| {
        let (a, d) = totals(battle(ev), 3);
        a > d
    });
    assert_eq!(
        after.piece_at("e4").unwrap().hp,
        6,
        "healed though the Champion lives"
    );
    // A defending Squire that holds is healed too.
    let mut g = base();
    g.put("e4", W, Footman).put("f5", B, Squire).set_hp("f5", 1);
    let (after, _) = with_seed(&g, W_KING, "e4xf5", |_, ev| {
        let (a, d) = totals(battle(ev), 2);
        d >= a && d - a < 4
    });
    assert_eq!(after.piece_at("f5").unwrap().hp, 2);
    // A Champion that wins keeps its wounds.
    let mut g = base();
    g.put("e4", W, Champion)
        .set_hp("e4", 5)
        .put("e7", B, Warrior)
        .set_turn(W, tokar_engine::gladiator::Commander::Queen);
    let (after, _) = with_seed(&g, W_QUEEN, "e4xe7", |_, ev| {
        let (a, d) = totals(battle(ev), 5);
        a > d
    });
    let hp = after
        .pieces()
        .find(|(_, p)| p.kind == Champion)
        .unwrap()
        .1
        .hp;
    assert_eq!(hp, 5);
}

/// Queen rule 13, R8: at the start of her move the Queen heals every wounded
/// friend beside her, even when the King then overrides her move.
#[test]
fn r8_queen_heals_beside_her_at_the_start_of_her_move() {
    let mut g = base();
    g.put("e5", W, Queen)
        .put("e6", W, Champion)
        .set_hp("e6", 3)
        .put("g6", W, Scout)
        .set_hp("g6", 4)
        .put("h9", W, Footman);
    let ev = ok(&mut g, W_KING, "h9-h10");
    assert!(ev
        .iter()
        .any(|e| e.text.contains("heals the Champion on e6")));
    assert_eq!(g.piece_at("e6").unwrap().hp, 20);
    assert_eq!(g.piece_at("g6").unwrap().hp, 4, "not adjacent");
}

/// Queen rule 10: attacking a piece one's Queen holds frozen adds a die;
/// rule 11, R19: the victor stands on the square, the Queen goes beside her King.
#[test]
fn r19_attacking_the_frozen_piece() {
    let mut g = base();
    g.put("e5", W, Queen)
        .put("e9", B, Scout)
        .put("e2", W, Warrior)
        .set_turn(W, tokar_engine::gladiator::Commander::Queen);
    ok(&mut g, W_QUEEN, "e5xe9");
    g.set_turn(W, tokar_engine::gladiator::Commander::Queen);
    let (after, ev) = with_seed(&g, W_QUEEN, "e2xe9", |g, _| {
        g.frozen_by(W).is_none() && g.piece_at("e9").is_some_and(|p| p.kind == Warrior)
    });
    let e = battle(&ev);
    assert_eq!(
        e.dice.as_ref().unwrap().1.len(),
        4 + 3,
        "2d6+1d6+1d6 against 3d6"
    );
    assert!(e.text.contains("2d6+1d6+1d6"));
    // The Queen returns beside her King (R10): a1's neighbours are full, so
    // the next ring, level with him first: c1.
    assert_eq!(after.piece_at("c1").map(|p| p.kind), Some(Queen));
    assert_eq!(after.lost(B), &[Scout]);
    // The frozen Scout wins instead: it is freed on the square.
    let (after, _) = with_seed(&g, W_QUEEN, "e2xe9", |g, _| {
        g.piece_at("e9").is_some_and(|p| p.kind == Scout)
    });
    assert!(after.piece_at("e2").is_none() && after.frozen_by(W).is_none());
    assert!(after.find(W, Queen).is_some());
    // Neither dies: nothing changes but the wounds (R19).
    let (after, _) = with_seed(&g, W_QUEEN, "e2xe9", |g, _| g.frozen_by(W).is_some());
    assert!(after.piece_at("e2").is_some());
    assert_eq!(after.piece_at("e9").unwrap().kind, Queen);
}

// ---------------------------------------------------------------- the King

#[test]
fn guarded_king_eliminates_instantly_but_never_a_queen() {
    let mut g = Gladiator::empty(1);
    g.put("e5", W, King)
        .put("j1", W, KingsKnight)
        .put("e6", B, Champion)
        .put("a12", B, King)
        .put("b12", B, KingsKnight);
    let ev = ok(&mut g, W_KING, "e5xe6");
    assert!(ev[0]
        .text
        .contains("instantly eliminates the Black Champion"));
    assert!(ev.iter().all(|e| e.dice.is_none()));
    assert_eq!(g.piece_at("e6").unwrap().kind, King);
    let mut g = Gladiator::empty(1);
    g.put("e5", W, King)
        .put("j1", W, KingsKnight)
        .put("d5", B, Queen)
        .put("a12", B, King)
        .put("b12", B, KingsKnight);
    assert!(illegal(&g, W_KING, "e5xd5").contains("capture the Queen"));
}

/// King rule 5: his own pieces only to get out of check.
#[test]
fn king_eliminates_his_own_piece_only_out_of_check() {
    let mut g = Gladiator::empty(1);
    g.put("e1", W, King)
        .put("j1", W, KingsKnight)
        .put("d1", W, Footman)
        .put("a12", B, King)
        .put("b12", B, KingsKnight);
    assert!(illegal(&g, W_KING, "e1xd1").contains("only to get out of check"));
    g.put("e9", B, Warrior);
    assert!(g.in_check(W));
    let ev = ok(&mut g, W_KING, "e1xd1");
    assert!(ev[0].text.contains("his own piece"));
    assert_eq!(g.lost(W), &[Footman]);
}

/// King rule 3: no attacking him while his King's Knight lives; rule 10 after it dies.
/// King rule 3: no attacking him while his King's Knight lives; rule 10 after it dies.
#[test]
fn r16_king_attackable_only_without_his_knight() {
    let mut g = Gladiator::empty(1);
    g.put("e5", W, King)
        .put("j1", W, KingsKnight)
        .put("e8", B, Warrior)
        .put("a12", B, King)
        .put("b12", B, KingsKnight)
        .set_turn(B, tokar_engine::gladiator::Commander::Queen);
    assert!(illegal(&g, B_QUEEN, "e8xe5").contains("cannot be attacked"));
    assert!(g.in_check(W));
    let v = g.view(Viewer::Spectator);
    let k = v
        .pieces
        .iter()
        .find(|p| p.glyph.unit == "gladiator-king" && p.seat == W_KING)
        .unwrap();
    assert!(k.statuses.iter().any(|s| s.kind == StatusKind::Guarded));
    // The White King's Knight gone: the King can be attacked, and is not in check.
    let mut g2 = g.clone();
    g2.put("j1", B, Squire);
    assert!(!g2.guarded(W));
    assert!(!g2.in_check(W), "no check once his Knight is dead");
    let (_, ev) = with_seed(&g2, B_QUEEN, "e8xe5", |_, _| true);
    assert_eq!(battle(&ev).dice.as_ref().unwrap().1.len(), 3 + 5);
}

/// King rule 10.1: without his Knight the King fights what he moves onto.
#[test]
fn king_without_knight_fights() {
    let mut g = Gladiator::empty(1);
    g.put("e5", W, King)
        .put("e6", B, Squire)
        .put("a12", B, King)
        .put("b12", B, KingsKnight);
    let (after, ev) = with_seed(&g, W_KING, "e5xe6", |_, _| true);
    assert_eq!(battle(&ev).dice.as_ref().unwrap().1.len(), 6 + 1);
    let _ = after;
}

/// Killing an unguarded King wins.
#[test]
fn killing_the_king_wins() {
    let mut g = Gladiator::empty(1);
    g.put("e5", W, King)
        .set_hp("e5", 1)
        .put("e8", B, Warrior)
        .put("a12", B, King)
        .put("b12", B, KingsKnight)
        .set_turn(B, tokar_engine::gladiator::Commander::Queen);
    let (after, _) = with_seed(&g, B_QUEEN, "e8xe5", |g, _| g.outcome().is_over());
    match after.outcome() {
        Outcome::Won { winners, reason } => {
            assert_eq!(winners, vec![B_KING, B_QUEEN, B_BK, B_KK]);
            assert!(reason.contains("King was killed"));
        }
        o => panic!("{o:?}"),
    }
    assert!(after.to_act().is_empty());
}

/// King rule 6 and R6: a King in check must get out with the team's next move;
/// an attack that the dice could lose does not count.
#[test]
fn r6_check_must_be_answered_surely() {
    let mut g = Gladiator::empty(1);
    g.put("e1", W, King)
        .put("j1", W, KingsKnight)
        .put("d7", W, Footman)
        .put("e8", B, Warrior)
        .put("a12", B, King)
        .put("b12", B, KingsKnight);
    assert!(g.in_check(W));
    assert_eq!(
        moves_from(&g, W_KING, "e1"),
        sorted(&["d1", "d2", "f1", "f2"])
    );
    assert!(illegal(&g, W_KING, "d7xe8").contains("in check"));
    assert_eq!(g.legal_actions(W_KING).len(), 4);
    // Not in check: a move into check is refused as well.
    let mut g = Gladiator::empty(1);
    g.put("d1", W, King)
        .put("j1", W, KingsKnight)
        .put("e8", B, Warrior)
        .put("a12", B, King)
        .put("b12", B, KingsKnight);
    assert!(illegal(&g, W_KING, "d1-e1").contains("check"));
}

/// R7: any piece gives check, the Queen included.
#[test]
fn r7_the_queen_gives_check() {
    let mut g = Gladiator::empty(1);
    g.put("e1", W, King)
        .put("j1", W, KingsKnight)
        .put("e9", B, Queen)
        .put("a12", B, King)
        .put("b12", B, KingsKnight);
    assert!(g.in_check(W));
    let v = g.view(Viewer::Spectator);
    assert!(v.seats[0].notes.contains(&"In check".to_string()));
}

/// King rule 6.3: no move ends the check: the King is checkmated.
#[test]
fn checkmate_ends_the_game() {
    let build = |scout: bool| {
        let mut g = Gladiator::empty(1);
        g.put("a1", W, King)
            .put("j6", W, KingsKnight)
            .put("f12", B, King)
            .put("d4", B, KingsKnight)
            .put("h2", B, Warrior)
            .set_turn(B, tokar_engine::gladiator::Commander::KingsKnight);
        if scout {
            g.put("d3", B, Scout);
        }
        g
    };
    let mut g = build(true);
    let ev = ok(&mut g, B_KK, "d4-b3");
    assert!(ev.iter().any(|e| e.text.contains("checkmated")));
    match g.outcome() {
        Outcome::Won { winners, reason } => {
            assert_eq!(winners[0], B_KING);
            assert!(reason.contains("checkmated"));
        }
        o => panic!("{o:?}"),
    }
    // Without the Scout covering b1 the King escapes there.
    let mut g = build(false);
    ok(&mut g, B_KK, "d4-b3");
    assert!(!g.outcome().is_over());
    assert_eq!(g.to_act(), vec![W_KING]);
    assert_eq!(g.legal_actions(W_KING).len(), 1);
    ok(&mut g, W_KING, "a1-b1");
}

/// Rules 5-7, 9, R23: the King overrides another commander, who loses the move.
#[test]
fn king_overrides_and_the_commander_forfeits() {
    let mut g = Gladiator::new(5);
    ok(&mut g, W_KING, "b2-b4");
    // The Queen cannot move, so only the King acts: any unmoved piece.
    assert_eq!(g.to_act(), vec![W_KING]);
    let ev = ok(&mut g, W_KING, "king: g1-f3");
    assert!(ev[0].text.contains("overrides the Queen's move"));
    // The Black Knight's move now: he may still move a Scout, but not himself again.
    assert_eq!(g.to_act(), vec![W_BK, W_KING]);
    assert!(illegal(&g, W_BK, "f3-g5").contains("already moved"));
    ok(&mut g, W_BK, "c1-b2");
    // The King's override of the King's Knight: typed with or without the prefix.
    assert_eq!(g.to_act(), vec![W_KK, W_KING]);
    let a = g.parse(W_KING, "i2-i4").unwrap();
    assert!(a.by_king);
    assert_eq!(g.format(&a), "king: i2-i4");
    assert!(illegal(&g, W_KING, "b4-b5").contains("already moved"));
    ok(&mut g, W_KING, "i2-i4");
    assert_eq!(g.team_to_move(), B);
    // He cannot override his own move (rule 8).
    assert!(illegal(&Gladiator::new(1), W_KING, "king: b2-b4").contains("his own move"));
    // Only the King overrides.
    let mut g = Gladiator::new(5);
    ok(&mut g, W_KING, "b2-b4");
    assert!(matches!(
        g.parse(W_BK, "g1-f3"),
        Err(ActionError::NotYourTurn(_))
    ));
    // An override is the King's decision, not this seat's (so a user holding
    // both is told the King's reason, bot/tests/whole_team.rs).
    assert!(matches!(
        g.parse(W_BK, "king: g1-f3"),
        Err(ActionError::NotYourTurn(why)) if why.contains("Only the King")
    ));
}

/// R11: a King whose own command cannot move may move any piece on his move.
#[test]
fn r11_king_with_nothing_of_his_own_moves_another_piece() {
    let mut g = base(); // the corner King is walled in; no Mounted Knight, no Footmen
    g.put("e5", W, Warrior);
    let legal = g.legal_actions(W_KING);
    assert!(!legal.is_empty());
    assert!(legal.iter().all(|a| !a.by_king));
    ok(&mut g, W_KING, "e5-e6");
    assert_eq!(
        g.commander_to_move(),
        tokar_engine::gladiator::Commander::Queen
    );
}

/// R11: a move nobody can make passes.
/// R11: a move that no piece can make passes. White's only other piece, the
/// King's Knight, is frozen (alive, so the King is guarded), and every square
/// around the King is covered: all four White moves pass.
#[test]
fn r11_a_move_no_piece_can_make_passes() {
    let mut g = Gladiator::empty(1);
    g.put("a1", W, King)
        .put("j8", W, KingsKnight)
        .put("j5", B, Queen)
        .put("b9", B, Warrior)
        .put("j2", B, Warrior)
        .put("a12", B, King)
        .put("j12", B, Scout)
        .put("h10", B, Squire)
        .set_turn(B, tokar_engine::gladiator::Commander::Queen);
    ok(&mut g, B_QUEEN, "j5xj8");
    assert!(g.guarded(W));
    ok(&mut g, B_BK, "j12-i11");
    let turn = g.turn();
    let ev = ok(&mut g, B_KK, "h10-h9");
    assert_eq!(
        ev.iter()
            .filter(|e| e.text.contains("the move passes"))
            .count(),
        4
    );
    assert_eq!(g.team_to_move(), B);
    assert_eq!(g.turn(), turn + 2);
    assert!(!g.outcome().is_over(), "not in check: no checkmate");
}

// ---------------------------------------------------------------- the Queen

fn queen_capture_position() -> Gladiator {
    let mut g = base();
    g.put("e5", W, Queen)
        .put("c7", B, Scout)
        .put("h9", B, Warrior)
        .put("j4", W, Warrior)
        .set_turn(B, tokar_engine::gladiator::Commander::BlackKnight);
    g
}

/// Queen rule 5: only the Black Knight, a Scout, or an unguarded King captures her.
#[test]
fn only_black_knight_scouts_or_unguarded_king_capture_the_queen() {
    let mut g = queen_capture_position();
    g.set_turn(B, tokar_engine::gladiator::Commander::Queen);
    g.put("h5", B, Warrior);
    assert!(illegal(&g, B_QUEEN, "h5xe5").contains("Only the Black Knight"));
    let mut g = queen_capture_position();
    let ev = ok(&mut g, B_BK, "c7xe5");
    assert!(ev[0].text.contains("captures the White Queen"));
    assert!(ev.iter().all(|e| e.dice.is_none()), "she never fights");
    let c = g.captive(W).unwrap();
    assert_eq!(c.held, 0);
    let v = g.view(Viewer::Spectator);
    assert!(v.seats[1].notes[0].starts_with("Queen held 0 of 5 by the Scout on e5"));
    let s = v
        .pieces
        .iter()
        .find(|p| p.cell == BOARD.parse("e5").unwrap())
        .unwrap();
    assert!(s.statuses.iter().any(|s| s.kind == StatusKind::Held));
}

/// King rule 11: while his Queen is held the King moves as a Queen, fights,
/// and cannot be checked.
#[test]
fn king_rule_11_after_the_queen_is_captured() {
    let mut g = queen_capture_position();
    ok(&mut g, B_BK, "c7xe5");
    assert!(!g.guarded(W));
    let mut g = g.clone();
    g.put("a1", W, Squire).put("d4", W, King);
    g.set_turn(W, tokar_engine::gladiator::Commander::King);
    let m = moves_from(&g, W_KING, "d4");
    for s in ["d10", "e5", "i4", "a4", "a7"] {
        assert!(m.contains(&s.to_string()), "{s}: {m:?}");
    }
    assert!(!m.contains(&"f6".to_string()), "not through the Scout");
    // Onto the captor: a battle (no instant elimination), and to recover her.
    let (after, ev) = with_seed(&g, W_KING, "d4xe5", |g, _| g.captive(W).is_none());
    assert_eq!(battle(&ev).dice.as_ref().unwrap().1.len(), 6 + 3);
    assert!(ev.iter().any(|e| e.text.contains("abductor is dead")));
    // She returns beside her King (R10): behind him first.
    assert_eq!(after.piece_at("e5").map(|p| p.kind), Some(King));
    assert_eq!(after.piece_at("e4").map(|p| p.kind), Some(Queen));
}

/// R21: the Queen's seat still commands the Champion and Warriors while she is held.
#[test]
fn r21_the_held_queen_still_commands() {
    let mut g = queen_capture_position();
    ok(&mut g, B_BK, "c7xe5");
    ok(&mut g, B_KK, "a11-a10");
    // White's King's own command cannot move (R11): he moves the King's Knight.
    ok(&mut g, W_KING, "b1-c3");
    assert_eq!(g.to_act(), vec![W_QUEEN, W_KING]);
    ok(&mut g, W_QUEEN, "j4-j6");
    assert_eq!(g.piece_at("j6").unwrap().kind, Warrior);
}

/// R9: the captors win when she has been held for five of her team's turns.
/// Each side has a King and one other piece at most, so every other move
/// passes (R11): White's King steps a1-a2 and back; Black's King and the
/// Scout that holds the Queen do the same.
#[test]
fn r9_held_for_five_turns_wins() {
    let mut g = Gladiator::empty(3);
    g.put("a1", W, King)
        .put("e5", W, Queen)
        .put("a12", B, King)
        .put("c7", B, Scout)
        .set_turn(B, tokar_engine::gladiator::Commander::BlackKnight);
    ok(&mut g, B_BK, "c7xe5");
    let script = ["a1-a2", "a2-a1", "a12-a11", "a11-a12", "e5-f6", "f6-e5"];
    let mut white_turns = 0;
    while !g.outcome().is_over() {
        let seat = g.to_act()[0];
        let a = script
            .iter()
            .find_map(|t| g.parse(seat, t).ok())
            .expect("a scripted move");
        let before = g.team_to_move();
        g.play(seat, &a).unwrap();
        if before == W && (g.team_to_move() == B || g.outcome().is_over()) {
            white_turns += 1;
            if !g.outcome().is_over() {
                assert_eq!(g.captive(W).unwrap().held, white_turns);
                let v = g.view(Viewer::Spectator);
                assert!(v.seats[1].notes[0].starts_with(&format!("Queen held {white_turns} of 5")));
            }
        }
        assert!(white_turns <= 5);
    }
    assert_eq!(white_turns, 5);
    match g.outcome() {
        Outcome::Won { winners, reason } => {
            assert_eq!(winners[0], B_KING);
            assert!(reason.contains("held for 5 turns"));
        }
        o => panic!("{o:?}"),
    }
}

/// Queen rule 7.2, R13: capturing their Queen while they hold ours swaps them.
/// Queen rule 7.2, R13: capturing their Queen while they hold ours swaps them.
#[test]
fn r13_queens_are_swapped() {
    let mut g = queen_capture_position();
    g.put("g10", B, Queen).put("e9", W, BlackKnight);
    ok(&mut g, B_BK, "c7xe5");
    assert!(g.captive(W).is_some());
    g.set_turn(W, tokar_engine::gladiator::Commander::BlackKnight);
    let ev = ok(&mut g, W_BK, "e9xg10");
    assert!(ev.iter().any(|e| e.text.contains("swapped")));
    assert!(g.captive(W).is_none() && g.captive(B).is_none());
    assert_eq!(g.piece_at("g10").unwrap().kind, BlackKnight);
    // Each returns beside her own King (R10: level with him first).
    assert_eq!(g.piece_at("c1").map(|p| (p.kind, p.team)), Some((Queen, W)));
    assert_eq!(
        g.piece_at("c12").map(|p| (p.kind, p.team)),
        Some((Queen, B))
    );
    assert_eq!(g.piece_at("e5").unwrap().kind, Scout);
}

/// Queen rule 9, R12: captured while holding a piece frozen, the piece goes
/// to its own back row and the captor stays on the square.
/// Queen rule 9, R12: captured while holding a piece frozen, the piece goes
/// to its own back row and the captor stays on the square.
#[test]
fn r12_frozen_piece_goes_home_when_its_jailer_is_captured() {
    let mut g = base();
    g.put("e5", W, Queen)
        .put("e9", B, Warrior)
        .put("g8", B, BlackKnight)
        .set_turn(W, tokar_engine::gladiator::Commander::Queen);
    ok(&mut g, W_QUEEN, "e5xe9");
    g.set_turn(B, tokar_engine::gladiator::Commander::BlackKnight);
    let ev = ok(&mut g, B_BK, "g8xe9");
    assert!(ev
        .iter()
        .any(|e| e.text.contains("Black Warrior is freed and goes to e12")));
    assert_eq!(g.piece_at("e12").unwrap().kind, Warrior);
    assert_eq!(g.piece_at("e9").unwrap().kind, BlackKnight);
    assert!(g.frozen_by(W).is_none());
    assert!(g.captive(W).is_some());
}

/// Queen rule 3-4: she never freezes a guarded King, the other Queen, or her own.
/// Queen rules 2-4, R20: she never freezes a guarded King or the other Queen;
/// R22: an unguarded King she can, and he then stands under her.
#[test]
fn queen_freeze_limits() {
    let mut g = Gladiator::empty(1);
    g.put("e1", W, Queen)
        .put("a1", W, King)
        .put("b1", W, KingsKnight)
        .put("e12", B, King)
        .put("j12", B, KingsKnight)
        .put("e11", B, Queen)
        .set_turn(W, tokar_engine::gladiator::Commander::Queen);
    assert!(illegal(&g, W_QUEEN, "e1xe11").contains("other Queen"));
    let mut g = Gladiator::empty(1);
    g.put("e1", W, Queen)
        .put("a1", W, King)
        .put("b1", W, KingsKnight)
        .put("e12", B, King)
        .put("j12", B, KingsKnight)
        .set_turn(W, tokar_engine::gladiator::Commander::Queen);
    assert!(illegal(&g, W_QUEEN, "e1xe12").contains("only once he can no longer be checked"));
    // Queen rule 4: an unguarded King can be frozen.
    g.put("j12", W, Squire);
    let ev = ok(&mut g, W_QUEEN, "e1xe12");
    assert!(ev[0].text.contains("freezes the Black King"));
    assert!(g.find(B, King).is_none());
    assert_eq!(g.king_cell(B), BOARD.parse("e12"));
    assert!(!g.outcome().is_over());
}

/// R20: a Queen who leaves the square frees the piece she held.
#[test]
fn leaving_the_square_frees_the_frozen_piece() {
    let mut g = base();
    g.put("e5", W, Queen)
        .put("e9", B, Warrior)
        .put("h6", B, Scout)
        .set_turn(W, tokar_engine::gladiator::Commander::Queen);
    ok(&mut g, W_QUEEN, "e5xe9");
    g.set_turn(W, tokar_engine::gladiator::Commander::Queen);
    // Onto another enemy: the first goes back, the second is frozen.
    let ev = ok(&mut g, W_QUEEN, "e9xh6");
    assert!(ev
        .iter()
        .any(|e| e.text.contains("Black Warrior on e9 is no longer frozen")));
    assert_eq!(g.piece_at("e9").unwrap().kind, Warrior);
    assert_eq!(g.frozen_by(W).unwrap().piece.kind, Scout);
}

// ---------------------------------------------------------------- pawns

/// R17: on the far side a Footman becomes a lost Warrior or Scout; a Squire any lost piece.
#[test]
fn r17_promotion_on_the_far_side() {
    let mut g = base();
    g.put("e10", W, Footman)
        .put("g11", W, Squire)
        .set_lost(W, &[Champion, Scout, Warrior]);
    let mut list: Vec<String> = g
        .legal_actions(W_KING)
        .iter()
        .filter(|a| BOARD.name(a.from) == "e10")
        .map(|a| g.format(a))
        .collect();
    list.sort();
    assert_eq!(list, vec!["e10-e11", "e10-e12=S", "e10-e12=W"]);
    assert!(illegal(&g, W_KING, "e10-e12").contains("Say which captured piece"));
    assert!(illegal(&g, W_KING, "e10-e12=C").contains("cannot become a Champion"));
    let ev = ok(&mut g, W_KING, "e10-e12=W");
    assert!(ev
        .iter()
        .any(|e| e.text.contains("Footman on e12 is replaced by a Warrior")));
    let p = g.piece_at("e12").unwrap();
    assert_eq!((p.kind, p.hp), (Warrior, 6));
    assert_eq!(g.lost(W), &[Champion, Scout]);
    // Squire: any lost piece (the Champion), through the King's Knight's move.
    let mut g2 = g.clone();
    g2.set_turn(W, tokar_engine::gladiator::Commander::KingsKnight);
    ok(&mut g2, W_KK, "g11-g12=C");
    assert_eq!(g2.piece_at("g12").unwrap().kind, Champion);
    // Nothing lost: the pawn arrives and stays a pawn.
    let mut g3 = base();
    g3.put("e10", W, Footman);
    ok(&mut g3, W_KING, "e10-e12");
    assert_eq!(g3.piece_at("e12").unwrap().kind, Footman);
    let mut g4 = base();
    g4.put("e5", W, Footman);
    assert!(
        illegal(&g4, W_KING, "e5-e6=W").contains("Only a Footman or Squire reaching the far side")
    );
}

// ---------------------------------------------------------------- notation

#[test]
fn notation_round_trips_and_refuses_with_reasons() {
    let g = Gladiator::new(1);
    for a in g.legal_actions(W_KING) {
        assert_eq!(g.parse(W_KING, &g.format(&a)).unwrap(), a);
    }
    assert_eq!(
        g.parse(W_KING, " B2 - B4 ").unwrap(),
        Action {
            from: BOARD.parse("b2").unwrap(),
            to: BOARD.parse("b4").unwrap(),
            promote: None,
            by_king: false
        }
    );
    for bad in [
        "", "e2", "hello", "e2-", "e2-e4=", "e2-e4=Z", "k1-k2", "a13-a14", "king:",
    ] {
        assert!(
            matches!(g.parse(W_KING, bad), Err(ActionError::Syntax(_))),
            "{bad}"
        );
    }
    assert!(illegal(&g, W_KING, "e5-e6").contains("no piece on e5"));
    assert!(illegal(&g, W_KING, "b1-b3").contains("cannot reach"));
    assert!(illegal(&g, W_KING, "b11-b9").contains("not yours"));
    assert!(matches!(
        g.parse(B_KING, "b11-b9"),
        Err(ActionError::NotYourTurn(_))
    ));
    // Refused plays change nothing.
    let mut c = g.clone();
    let bad = Action {
        from: BOARD.parse("f1").unwrap(),
        to: BOARD.parse("f2").unwrap(),
        promote: None,
        by_king: false,
    };
    assert!(c.play(W_KING, &bad).is_err());
    assert_eq!(
        serde_json::to_string(&c).unwrap(),
        serde_json::to_string(&g).unwrap()
    );
}

// ---------------------------------------------------------------- seats and views

/// R14: seating for 2 to 8 players, one team per player.
#[test]
fn r14_seating() {
    assert_eq!(
        Gladiator::seating(2).unwrap(),
        vec![
            vec![Seat(0), Seat(1), Seat(2), Seat(3)],
            vec![Seat(4), Seat(5), Seat(6), Seat(7)]
        ]
    );
    assert_eq!(
        Gladiator::seating(4).unwrap(),
        vec![
            vec![Seat(0), Seat(1)],
            vec![Seat(4), Seat(5)],
            vec![Seat(2), Seat(3)],
            vec![Seat(6), Seat(7)]
        ]
    );
    for n in 2..=8 {
        let s = Gladiator::seating(n).unwrap();
        assert_eq!(s.len(), n);
        let mut all: Vec<u8> = s.iter().flatten().map(|x| x.0).collect();
        all.sort();
        assert_eq!(all, (0..8).collect::<Vec<_>>());
        for p in &s {
            assert!(
                p.iter().all(|x| x.0 / 4 == p[0].0 / 4),
                "one team per player"
            );
        }
    }
    assert!(Gladiator::seating(1).is_err() && Gladiator::seating(9).is_err());
    assert_eq!(Gladiator::seating(8).unwrap()[1], vec![Seat(4)]);
}

/// R25: an absent commander's move can be passed over; nobody else's.
#[test]
fn r25_skipping_an_absent_commander() {
    let mut g = Gladiator::new(2);
    ok(&mut g, W_KING, "b2-b4");
    ok(&mut g, W_KING, "king: g1-f3");
    assert!(matches!(g.skip(W_KK), Err(ActionError::NotYourTurn(_))));
    let ev = g.skip(W_BK).unwrap();
    assert!(ev[0]
        .text
        .contains("White Black Knight's move is passed over"));
    assert_eq!(
        g.commander_to_move(),
        tokar_engine::gladiator::Commander::KingsKnight
    );
    g.skip(W_KK).unwrap();
    assert_eq!(g.team_to_move(), B);
    assert_eq!(g.to_act(), vec![B_KING]);
}

/// R24: conceding loses for the team; redeal reseeds only the dice.
#[test]
fn views_names_concede_redeal() {
    let g = Gladiator::new(9);
    assert_eq!(g.seat_name(Seat(6)), "Black Black Knight");
    assert_eq!(g.view(Viewer::Seat(Seat(4))).rotation, 180.0);
    assert_eq!(g.view(Viewer::Seat(Seat(3))).rotation, 0.0);
    let v = g.view(Viewer::Spectator);
    assert_eq!(v.pieces.len(), 40);
    let units: std::collections::BTreeSet<_> =
        v.pieces.iter().map(|p| p.glyph.unit.clone()).collect();
    assert_eq!(units.len(), 10);
    assert!(units.contains("kings-knight") && units.contains("gladiator-queen"));
    let k = v
        .pieces
        .iter()
        .find(|p| p.glyph.unit == "gladiator-king")
        .unwrap();
    assert_eq!(k.hp, Some((30, 30)));
    // Redeal changes only the dice.
    let r = g.redeal(Seat(0), 77);
    assert_eq!(r.rng(), &Rng::new(77));
    assert_eq!(r.view(Viewer::Spectator), g.view(Viewer::Spectator));
    // Conceding loses for the whole team.
    let mut c = g.clone();
    c.concede(Seat(6));
    assert_eq!(
        c.outcome(),
        Outcome::Won {
            winners: vec![W_KING, W_QUEEN, W_BK, W_KK],
            reason: "Black conceded".into()
        }
    );
    assert!(matches!(
        c.parse(W_KING, "b2-b4"),
        Err(ActionError::GameOver)
    ));
}

#[test]
fn catalog_and_rules_pages() {
    let mut any = AnyGame::setup(GameKind::Gladiator, &Default::default(), 4).unwrap();
    assert_eq!(any.kind(), GameKind::Gladiator);
    assert_eq!(any.seat_count(), 8);
    any.play(Seat(0), "b2-b4").unwrap();
    assert_eq!(any.normalize(Seat(0), "i2i4").unwrap(), "king: i2-i4");
    assert!(Gladiator::rules(None).unwrap().contains("four commanders"));
    for t in [
        "king",
        "queen",
        "mounted-knight",
        "footman",
        "champion",
        "warrior",
        "black-knight",
        "scout",
        "kings-knight",
        "squire",
        "combat",
        "turn",
        "check",
        "Mounted Lancer",
    ] {
        assert!(Gladiator::rules(Some(t)).is_ok(), "{t}");
    }
    assert!(Gladiator::rules(Some("Champion")).unwrap().contains("4d6"));
    assert!(Gladiator::rules(Some("dragon")).is_err());
}

/// The computer opponent's estimate: even at the start, worse for a team
/// whose Queen is held, and exact once the game is over.
#[test]
fn heuristic_reads_the_position() {
    let g = Gladiator::new(1);
    assert!((g.heuristic(W_KING) - 0.5).abs() < 1e-6);
    let mut g = queen_capture_position();
    let before = g.heuristic(W_QUEEN);
    ok(&mut g, B_BK, "c7xe5");
    assert!(g.heuristic(W_QUEEN) < before);
    assert!((g.heuristic(W_QUEEN) + g.heuristic(B_QUEEN) - 1.0).abs() < 1e-5);
    g.concede(W_KK);
    assert_eq!(g.heuristic(B_KK), 1.0);
}

/// The computer opponent plays Gladiator through the `Game` trait alone:
/// its choice is legal, for a commander and for the King's override.
#[test]
fn computer_opponent_chooses_legal_moves() {
    use tokar_engine::search::{choose, Budget, Level};
    let mut g = Gladiator::new(8);
    for _ in 0..6 {
        let seat = g.to_act()[0];
        let c = choose(&g, seat, Level::Normal, &Budget::iterations(60), 3).expect("a choice");
        assert!(g.legal_actions(seat).contains(&c.action));
        g.play(seat, &c.action).unwrap();
    }
    assert_eq!(g.team_to_move(), B);
}

/// R3, R6: a piece off every line to its King can still be pinned by a
/// Champion's bent path; stepping out of that path is refused.
#[test]
fn r6_champion_pin_along_a_bent_path() {
    let mut g = Gladiator::empty(1);
    g.put("e1", W, King)
        .put("j1", W, KingsKnight)
        .put("e4", W, Squire)
        .put("g2", W, Warrior)
        .put("g4", B, Champion)
        .put("a12", B, King)
        .put("b12", B, KingsKnight)
        .set_turn(W, tokar_engine::gladiator::Commander::Queen);
    assert!(!g.in_check(W));
    assert!(illegal(&g, W_QUEEN, "g2-h2").contains("could leave the White King in check"));
    ok(&mut g, W_QUEEN, "g2-g3");
}
