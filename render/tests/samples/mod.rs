//! Positions built by hand as `View` values, one family per kind of board, shared
//! by the golden-image tests and the benchmark.
#![allow(dead_code)]

use tokar_engine::{
    Board, Cell, Glyph, Mark, Outcome, PieceView, Roll, RollRole, Seat, SeatView, StatusKind,
    StatusView, View, Viewer,
};
use tokar_render::Highlights;

pub fn glyph(unit: &str, letter: char, name: &str) -> Glyph {
    Glyph {
        unit: unit.into(),
        letter,
        name: name.into(),
    }
}

pub fn seat(name: &str, colour: u8) -> SeatView {
    SeatView {
        name: name.into(),
        colour,
        eliminated: false,
        hand_size: None,
        lost: vec![],
        notes: vec![],
    }
}

pub fn cell(board: &Board, name: &str) -> Cell {
    board
        .parse(name)
        .unwrap_or_else(|| panic!("{name} is on the board"))
}

pub fn piece(board: &Board, at: &str, seat: u8, g: Glyph) -> PieceView {
    PieceView {
        cell: cell(board, at),
        seat: Seat(seat),
        glyph: g,
        hp: None,
        statuses: vec![],
    }
}

pub fn status(kind: StatusKind, count: Option<u8>) -> StatusView {
    StatusView { kind, count }
}

fn base(title: &str, board: Board, seats: Vec<SeatView>) -> View {
    View {
        title: title.into(),
        board,
        viewer: Viewer::Spectator,
        rotation: 0.0,
        seats,
        pieces: vec![],
        to_act: vec![Seat(0)],
        move_number: 1,
        dice: None,
        hand: vec![],
        zones: vec![],
        pending: None,
        outcome: Outcome::Ongoing,
        rolls: vec![],
        check: vec![],
        under: vec![],
    }
}

fn human(unit: &str) -> Glyph {
    match unit {
        "imperial-warrior" => glyph(unit, 'W', "Imperial Warrior"),
        "blue-knight" => glyph(unit, 'K', "Blue Knight"),
        "wind-mage" => glyph(unit, 'M', "Wind Mage"),
        "priest-of-the-winds" => glyph(unit, 'P', "Priest of the Winds"),
        "alchemist" => glyph(unit, 'A', "Alchemist"),
        "duelist" => glyph(unit, 'D', "Duelist"),
        _ => glyph(unit, 'B', "Battle Mage"),
    }
}

fn undead(unit: &str) -> Glyph {
    match unit {
        "skeleton" => glyph(unit, 'S', "Skeleton"),
        "zombie" => glyph(unit, 'Z', "Zombie"),
        "mummy" => glyph(unit, 'M', "Mummy"),
        "tomb-keeper" => glyph(unit, 'T', "Tomb Keeper"),
        "dark-priest" => glyph(unit, 'P', "Dark Priest"),
        "necromancer" => glyph(unit, 'N', "Necromancer"),
        "ghoul" => glyph(unit, 'G', "Ghoul"),
        "ghost" => glyph(unit, 'H', "Ghost"),
        "cultist" => glyph(unit, 'C', "Cultist"),
        "wraith" => glyph(unit, 'R', "Wraith"),
        "vampire" => glyph(unit, 'V', "Vampire"),
        _ => glyph(unit, 'L', "Lich"),
    }
}

const HUMAN_BACK: [&str; 8] = [
    "blue-knight",
    "wind-mage",
    "alchemist",
    "battle-mage",
    "priest-of-the-winds",
    "duelist",
    "wind-mage",
    "blue-knight",
];
const UNDEAD_BACK: [&str; 8] = [
    "tomb-keeper",
    "mummy",
    "dark-priest",
    "necromancer",
    "vampire",
    "lich",
    "mummy",
    "tomb-keeper",
];

/// An Arcana-like opening: both armies on their first two ranks.
pub fn arcana_start() -> (View, Highlights) {
    let b = Board::grid(8, 8);
    let mut v = base(
        "Tokar's Arcana",
        b,
        vec![seat("Human", 0), seat("Undead", 1)],
    );
    for (f, unit) in HUMAN_BACK.iter().enumerate() {
        let file = (b'a' + f as u8) as char;
        v.pieces
            .push(piece(&b, &format!("{file}1"), 0, human(unit)));
        v.pieces
            .push(piece(&b, &format!("{file}2"), 0, human("imperial-warrior")));
        v.pieces
            .push(piece(&b, &format!("{file}8"), 1, undead(UNDEAD_BACK[f])));
        v.pieces.push(piece(
            &b,
            &format!("{file}7"),
            1,
            undead(if f % 2 == 0 { "skeleton" } else { "zombie" }),
        ));
    }
    v.viewer = Viewer::Seat(Seat(0));
    (v, Highlights::default())
}

/// A busy middle game: a kill on the last move, a paralysed piece, a firebrew
/// token, graveyards, notes and a decision pending.
pub fn arcana_midgame() -> (View, Highlights) {
    let b = Board::grid(8, 8);
    let mut human_seat = seat("Human", 0);
    human_seat.lost = vec![
        human("imperial-warrior"),
        human("imperial-warrior"),
        human("duelist"),
    ];
    human_seat.notes = vec!["Priest revival used".into()];
    let mut undead_seat = seat("Undead", 1);
    undead_seat.lost = vec![
        undead("skeleton"),
        undead("zombie"),
        undead("zombie"),
        undead("mummy"),
        undead("ghoul"),
    ];
    undead_seat.notes = vec![
        "General: Lich".into(),
        "Necromancer may raise once more".into(),
    ];
    let mut v = base("Tokar's Arcana", b, vec![human_seat, undead_seat]);
    v.move_number = 23;
    v.to_act = vec![Seat(1)];
    let mut push = |at: &str, s: u8, g: Glyph, st: Vec<StatusView>| {
        let mut p = piece(&b, at, s, g);
        p.statuses = st;
        v.pieces.push(p);
    };
    push("a1", 0, human("blue-knight"), vec![]);
    push("e1", 0, human("priest-of-the-winds"), vec![]);
    push("d3", 0, human("battle-mage"), vec![]);
    push("c4", 0, human("alchemist"), vec![]);
    push("f5", 0, human("blue-knight"), vec![]);
    push("b2", 0, human("imperial-warrior"), vec![]);
    push(
        "g2",
        0,
        human("imperial-warrior"),
        vec![status(StatusKind::Paralysed, Some(1))],
    );
    push("h3", 0, human("wind-mage"), vec![]);
    push(
        "e6",
        1,
        undead("mummy"),
        vec![status(StatusKind::Firebrew, Some(2))],
    );
    push("d8", 1, undead("necromancer"), vec![]);
    push("f8", 1, undead("lich"), vec![]);
    push(
        "g6",
        1,
        undead("tomb-keeper"),
        vec![status(StatusKind::Resting, None)],
    );
    push("c6", 1, undead("skeleton"), vec![]);
    push("h6", 1, undead("vampire"), vec![]);
    push("b7", 1, undead("dark-priest"), vec![]);
    push(
        "e4",
        1,
        undead("ghost"),
        vec![
            status(StatusKind::Paralysed, None),
            status(StatusKind::Firebrew, Some(1)),
        ],
    );
    v.pending = Some("Undead: place the revived Zombie on an empty square of rank 7 or 8".into());
    let h = Highlights {
        marks: vec![
            (cell(&b, "d5"), Mark::From),
            (cell(&b, "f5"), Mark::To),
            (cell(&b, "f5"), Mark::Hit),
            (cell(&b, "g6"), Mark::Affected),
            (cell(&b, "c6"), Mark::Placed),
        ],
        targets: vec![],
        selected: None,
    };
    (v, h)
}

/// The Undead player's view of the middle game: upside down, a piece selected
/// with its legal targets.
pub fn arcana_undead_view() -> (View, Highlights) {
    let (mut v, _) = arcana_midgame();
    let b = v.board;
    v.viewer = Viewer::Seat(Seat(1));
    v.rotation = 180.0;
    v.pending = None;
    let h = Highlights {
        marks: vec![],
        targets: ["e5", "e7", "d6", "f6", "d7", "f7", "f5"]
            .iter()
            .map(|n| cell(&b, n))
            .collect(),
        selected: Some(cell(&b, "e6")),
    };
    (v, h)
}

/// Magic Chess: four armies in the corners, hidden hands, spells on pieces, a
/// seat eliminated with its pieces still standing, and an unknown unit id.
pub fn magic_chess() -> (View, Highlights) {
    let b = Board::grid(8, 8);
    let mut seats = vec![
        seat("Red", 7),
        seat("Blue", 6),
        seat("Green", 4),
        seat("Yellow", 5),
    ];
    for (i, s) in seats.iter_mut().enumerate() {
        s.hand_size = Some(3 + i % 2);
    }
    seats[2].eliminated = true;
    seats[2].hand_size = Some(0);
    seats[1].notes = vec!["Freeze on e5 until Blue's next turn".into()];
    seats[0].lost = vec![
        glyph("magic-pawn", 'P', "Pawn"),
        glyph("magic-frog", 'F', "Frog"),
    ];
    let mut v = base("Magic Chess", b, seats);
    v.move_number = 9;
    v.to_act = vec![Seat(3)];
    let king = || glyph("magic-king", 'K', "King");
    let wizard = || glyph("magic-wizard", 'W', "Wizard");
    let fairy = || glyph("magic-fairy", 'F', "Fairy");
    let frog = || glyph("magic-frog", 'R', "Frog");
    let pawn = || glyph("magic-pawn", 'P', "Pawn");
    for (s, cells) in [
        (0u8, ["a1", "b1", "a2", "b2", "c1"]),
        (1, ["h1", "g1", "h2", "g2", "f1"]),
        (2, ["a8", "b8", "a7", "b7", "c8"]),
        (3, ["h8", "g8", "h7", "g7", "f8"]),
    ] {
        for (k, at) in cells.iter().enumerate() {
            let g = [king(), wizard(), fairy(), frog(), pawn()][k].clone();
            v.pieces.push(piece(&b, at, s, g));
        }
    }
    let mut frozen = piece(&b, "e5", 1, pawn());
    frozen.statuses = vec![
        status(StatusKind::Frozen, Some(2)),
        status(StatusKind::Slowed, None),
    ];
    v.pieces.push(frozen);
    let mut ctl = piece(&b, "d4", 0, wizard());
    ctl.statuses = vec![
        status(StatusKind::Controlled, Some(1)),
        status(StatusKind::AntiJump, None),
    ];
    v.pieces.push(ctl);
    let mut extra = piece(&b, "c5", 3, fairy());
    extra.statuses = vec![status(StatusKind::ExtraTurn, None)];
    v.pieces.push(extra);
    v.pieces
        .push(piece(&b, "f4", 3, glyph("magic-dragon", 'D', "Dragon")));
    v.under = vec![
        (cell(&b, "e5"), "Freeze".into()),
        (cell(&b, "e5"), "Freeze".into()),
        (cell(&b, "e5"), "Slow".into()),
        (cell(&b, "d4"), "Anti-Jump".into()),
    ];
    let h = Highlights {
        marks: vec![
            (cell(&b, "c4"), Mark::From),
            (cell(&b, "c5"), Mark::To),
            (cell(&b, "e5"), Mark::Affected),
        ],
        targets: vec![],
        selected: None,
    };
    (v, h)
}

/// The same Magic Chess position as Yellow sees it: its own hand, its side
/// (the right edge) turned to the bottom.
pub fn magic_chess_yellow() -> (View, Highlights) {
    let (mut v, h) = magic_chess();
    v.viewer = Viewer::Seat(Seat(3));
    v.rotation = 90.0;
    v.hand = vec![
        "Anti-Jump".into(),
        "Freeze".into(),
        "Slow".into(),
        "Slow".into(),
    ];
    (v, h)
}

/// Gladiator Chess: 10x12, two teams of four commanders, hit points, a held
/// Queen, a guarded King, a dice combat.
pub fn gladiator() -> (View, Highlights) {
    let b = Board::grid(10, 12);
    let names = [
        "White King",
        "White Queen",
        "White Knight",
        "White Footman",
        "Black King",
        "Black Queen",
        "Black Knight",
        "Black Footman",
    ];
    let mut seats: Vec<SeatView> = names
        .iter()
        .enumerate()
        .map(|(i, n)| seat(n, if i < 4 { 0 } else { 1 }))
        .collect();
    seats[1].notes = vec!["Queen held 3 of 5 turns".into()];
    seats[4].lost = vec![
        glyph("footman", 'F', "Footman"),
        glyph("squire", 'S', "Squire"),
        glyph("scout", 'C', "Scout"),
    ];
    let mut v = base("Gladiator Chess", b, seats);
    v.move_number = 41;
    v.to_act = vec![Seat(6)];
    // The Black Knight's Black Knight (e9-e8) attacked the White Mounted
    // Knight on e7 and killed it: 3d6+1d6 against 3d6.
    v.dice = Some((Seat(6), vec![5, 2, 6, 4, 3, 1, 2]));
    v.rolls = vec![
        Roll {
            seat: Seat(6),
            role: RollRole::Attack,
            dice: vec![5, 2, 6, 4],
            total: Some(17),
        },
        Roll {
            seat: Seat(2),
            role: RollRole::Defence,
            dice: vec![3, 1, 2],
            total: Some(6),
        },
    ];
    // White's King is in check (his Knight guards him).
    v.seats[0].notes.push("In check".into());
    v.check = vec![cell(&b, "e1")];
    let mut push = |at: &str, s: u8, g: Glyph, hp: (i32, i32), st: Vec<StatusView>| {
        let mut p = piece(&b, at, s, g);
        p.hp = Some(hp);
        p.statuses = st;
        v.pieces.push(p);
    };
    push(
        "e1",
        0,
        glyph("gladiator-king", 'K', "King"),
        (10, 10),
        vec![status(StatusKind::Guarded, None)],
    );
    push(
        "f1",
        0,
        glyph("kings-knight", 'N', "King's Knight"),
        (6, 8),
        vec![],
    );
    push(
        "f7",
        1,
        glyph("gladiator-queen", 'Q', "Queen"),
        (4, 9),
        vec![status(StatusKind::Held, Some(3))],
    );
    push(
        "c3",
        2,
        glyph("mounted-knight", 'M', "Mounted Knight"),
        (7, 7),
        vec![],
    );
    push("d4", 3, glyph("footman", 'F', "Footman"), (2, 5), vec![]);
    push("g4", 3, glyph("champion", 'C', "Champion"), (5, 6), vec![]);
    push("h2", 3, glyph("warrior", 'W', "Warrior"), (1, 6), vec![]);
    push(
        "f12",
        4,
        glyph("gladiator-king", 'K', "King"),
        (9, 10),
        vec![],
    );
    push(
        "e11",
        5,
        glyph("gladiator-queen", 'Q', "Queen"),
        (8, 9),
        vec![],
    );
    push(
        "e8",
        6,
        glyph("black-knight", 'B', "Black Knight"),
        (5, 8),
        vec![],
    );
    push(
        "c9",
        6,
        glyph("mounted-knight", 'M', "Mounted Knight"),
        (3, 7),
        vec![],
    );
    push("h10", 7, glyph("footman", 'F', "Footman"), (5, 5), vec![]);
    push("i9", 7, glyph("scout", 'S', "Scout"), (3, 3), vec![]);
    push("b10", 7, glyph("squire", 'Q', "Squire"), (0, 4), vec![]);
    let h = Highlights {
        marks: vec![
            (cell(&b, "e9"), Mark::From),
            (cell(&b, "e8"), Mark::To),
            (cell(&b, "e7"), Mark::Hit),
        ],
        targets: vec![],
        selected: None,
    };
    (v, h)
}

/// The same Gladiator position seen by a seat sitting on the side (a quarter turn).
pub fn gladiator_sideways() -> (View, Highlights) {
    let (mut v, h) = gladiator();
    v.rotation = 90.0;
    v.viewer = Viewer::Seat(Seat(2));
    (v, h)
}

fn arachne_glyph(unit: &str) -> Glyph {
    match unit {
        "matron" => glyph(unit, 'M', "Matron"),
        "priestess" => glyph(unit, 'P', "Priestess"),
        "arachne-wizard" => glyph(unit, 'W', "Wizard"),
        "blademaster" => glyph(unit, 'B', "Blademaster"),
        _ => glyph(unit, 'G', "Grunt"),
    }
}

/// Arachne during setup: the web with its hub, each side's zone shaded.
pub fn arachne_setup() -> (View, Highlights) {
    let b = Board::web(5, 12, true);
    let mut v = base("Arachne", b, vec![seat("White", 0), seat("Black", 1)]);
    for ring in 3..=5u8 {
        for s in 0..12u8 {
            let c = b.ring_spoke(ring, s).expect("cell");
            let side = if (3..=8).contains(&s) { 1 } else { 0 };
            if (s >= 10 || s <= 1) || (4..=7).contains(&s) {
                v.zones.push((c, Seat(side)));
            }
        }
    }
    v.pieces.push(piece(&b, "a5", 0, arachne_glyph("matron")));
    v.pieces
        .push(piece(&b, "l4", 0, arachne_glyph("priestess")));
    v.pieces.push(piece(&b, "b4", 0, arachne_glyph("grunt")));
    v.pending = Some("White: place the Wizard in your zone".into());
    (v, Highlights::default())
}

/// Arachne in play: dice for a capture, a turncoat move, the outcome decided.
pub fn arachne_over() -> (View, Highlights) {
    let b = Board::web(5, 12, true);
    let mut white = seat("White", 0);
    white.lost = vec![
        arachne_glyph("grunt"),
        arachne_glyph("grunt"),
        arachne_glyph("blademaster"),
    ];
    let mut black = seat("Black", 1);
    black.lost = vec![arachne_glyph("grunt"), arachne_glyph("matron")];
    black.notes = vec!["Position repeated 2 times".into()];
    let mut v = base("Arachne", b, vec![white, black]);
    v.move_number = 57;
    v.to_act = vec![];
    // White's Grunt (rank 0) captured on a1, against a Grunt helped by one
    // other Grunt: 6 against 3+1 = 4.
    v.dice = Some((Seat(0), vec![6, 3]));
    v.rolls = vec![
        Roll {
            seat: Seat(0),
            role: RollRole::Attack,
            dice: vec![6],
            total: Some(6),
        },
        Roll {
            seat: Seat(1),
            role: RollRole::Defence,
            dice: vec![3],
            total: Some(4),
        },
    ];
    v.outcome = Outcome::Won {
        winners: vec![Seat(0)],
        reason: "the Black Matron was captured".into(),
    };
    let layout: [(&str, u8, &str); 12] = [
        ("hub", 0, "priestess"),
        ("a1", 0, "grunt"),
        ("c2", 0, "arachne-wizard"),
        ("g5", 0, "matron"),
        ("e3", 0, "grunt"),
        ("k4", 0, "blademaster"),
        ("g1", 1, "priestess"),
        ("h3", 1, "arachne-wizard"),
        ("d5", 1, "grunt"),
        ("f4", 1, "blademaster"),
        ("j2", 1, "grunt"),
        ("i5", 1, "grunt"),
    ];
    for (at, s, unit) in layout {
        v.pieces.push(piece(&b, at, s, arachne_glyph(unit)));
    }
    let h = Highlights {
        marks: vec![
            (cell(&b, "b1"), Mark::From),
            (cell(&b, "a1"), Mark::To),
            (cell(&b, "a1"), Mark::Hit),
        ],
        targets: vec![],
        selected: None,
    };
    (v, h)
}

/// A web without a hub, turned by an angle that is not a quarter, with targets.
pub fn small_web_turned() -> (View, Highlights) {
    let b = Board::web(4, 8, false);
    let mut v = base(
        "Arachne (small web)",
        b,
        vec![seat("Red", 7), seat("Blue", 6)],
    );
    v.rotation = 22.5;
    v.outcome = Outcome::Drawn {
        reason: "the same position came up four times".into(),
    };
    v.pieces
        .push(piece(&b, "a1", 0, arachne_glyph("arachne-wizard")));
    v.pieces.push(piece(&b, "e1", 1, arachne_glyph("grunt")));
    v.pieces.push(piece(&b, "c4", 1, arachne_glyph("matron")));
    let h = Highlights {
        marks: vec![],
        targets: ["b1", "h1", "a2", "e1"]
            .iter()
            .map(|n| cell(&b, n))
            .collect(),
        selected: Some(cell(&b, "a1")),
    };
    (v, h)
}

/// Every hand-built position, by name.
pub fn all() -> Vec<(&'static str, View, Highlights)> {
    let mut out = Vec::new();
    for (name, f) in [
        ("arcana_start", arcana_start as fn() -> (View, Highlights)),
        ("arcana_midgame", arcana_midgame),
        ("arcana_undead_view", arcana_undead_view),
        ("magic_chess", magic_chess),
        ("magic_chess_yellow", magic_chess_yellow),
        ("gladiator", gladiator),
        ("gladiator_sideways", gladiator_sideways),
        ("arachne_setup", arachne_setup),
        ("arachne_over", arachne_over),
        ("small_web_turned", small_web_turned),
    ] {
        let (v, h) = f();
        out.push((name, v, h));
    }
    out
}

/// A small deterministic generator for picking among legal actions.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// Real Arcana positions from the engine: plays seeded random legal actions
/// until `want` accepts the position after a ply, and returns that view with the
/// last ply's marks. `None` if no position within `max_plies` qualifies.
pub fn arcana_played(
    seed: u64,
    max_plies: usize,
    want: impl Fn(&View, &[tokar_engine::Event]) -> bool,
) -> Option<(View, Highlights, usize)> {
    let options = tokar_engine::Options::new();
    played(
        tokar_engine::GameKind::Arcana,
        &options,
        seed,
        max_plies,
        want,
    )
}

/// Real positions of any game from the engine, as [`arcana_played`] finds
/// them; the view is seat 0's.
pub fn played(
    kind: tokar_engine::GameKind,
    options: &tokar_engine::Options,
    seed: u64,
    max_plies: usize,
    want: impl Fn(&View, &[tokar_engine::Event]) -> bool,
) -> Option<(View, Highlights, usize)> {
    use tokar_engine::AnyGame;
    let mut game = AnyGame::setup(kind, options, seed).ok()?;
    let mut pick = Lcg(seed);
    for ply in 0..max_plies {
        let seat = *game.to_act().first()?;
        let actions = game.legal_actions(seat);
        if actions.is_empty() {
            return None;
        }
        let action = actions[pick.next(actions.len())].clone();
        let events = game.play(seat, &action).ok()?;
        let view = game.view(Viewer::Seat(Seat(0)));
        if want(&view, &events) {
            let marks = events.iter().flat_map(|e| e.marks.clone()).collect();
            return Some((
                view,
                Highlights {
                    marks,
                    ..Highlights::default()
                },
                ply + 1,
            ));
        }
    }
    None
}

/// A busy Arcana middle game: the last action killed, some piece is paralysed,
/// some carries firebrew tokens, and both sides have lost pieces.
pub fn arcana_engine_busy(view: &View, events: &[tokar_engine::Event]) -> bool {
    let has = |k: StatusKind| {
        view.pieces
            .iter()
            .any(|p| p.statuses.iter().any(|s| s.kind == k))
    };
    events
        .iter()
        .any(|e| e.marks.iter().any(|(_, m)| *m == Mark::Hit))
        && has(StatusKind::Paralysed)
        && has(StatusKind::Firebrew)
        && view.seats.iter().all(|s| !s.lost.is_empty())
        && !view.outcome.is_over()
}

/// Positions from the engine's own games: each game's opening as its first seat
/// sees it, and a busy Arcana middle game from seeded random play (seat 0's
/// side, and the Undead side's view of the same moment).
pub fn engine_all() -> Vec<(&'static str, View, Highlights)> {
    use tokar_engine::{AnyGame, GameKind, Options};
    let mut out = Vec::new();
    for (name, kind) in [
        ("engine_arcana_start", GameKind::Arcana),
        ("engine_magic_chess_start", GameKind::MagicChess),
        ("engine_gladiator_start", GameKind::Gladiator),
        ("engine_arachne_start", GameKind::Arachne),
    ] {
        let game =
            AnyGame::setup(kind, &Options::new(), 1).unwrap_or_else(|e| panic!("{name}: {e}"));
        out.push((
            name,
            game.view(Viewer::Seat(Seat(0))),
            Highlights::default(),
        ));
    }
    let (view, highlights, _) = arcana_played(1, 300, arcana_engine_busy)
        .expect("seeded random play reaches a busy position");
    out.push(("engine_arcana_busy", view, highlights));
    let (view, highlights, _) = played(GameKind::Gladiator, &Options::new(), 1, 400, |v, _| {
        v.rolls.len() == 2
    })
    .expect("seeded random play reaches a battle");
    out.push(("engine_gladiator_battle", view, highlights));
    let (view, highlights, _) = played(GameKind::MagicChess, &Options::new(), 1, 400, |v, _| {
        !v.under.is_empty() && v.pieces.iter().any(|p| !p.statuses.is_empty())
    })
    .expect("seeded random play reaches a cast spell");
    out.push(("engine_magic_chess_spell", view, highlights));
    out
}

/// A whole game from the engine by seeded random play: after each action, the
/// view of each of `viewers` with that action's marks (one list per viewer,
/// one entry per action), and whether the game ended within `max_plies`.
pub fn game_steps(
    kind: tokar_engine::GameKind,
    options: &tokar_engine::Options,
    seed: u64,
    max_plies: usize,
    viewers: &[Viewer],
) -> (Vec<Vec<(View, Highlights)>>, bool) {
    use tokar_engine::AnyGame;
    let mut game = AnyGame::setup(kind, options, seed).expect("a game");
    let mut pick = Lcg(seed);
    let mut out = vec![Vec::new(); viewers.len()];
    for _ in 0..max_plies {
        let Some(&seat) = game.to_act().first() else {
            break;
        };
        let actions = game.legal_actions(seat);
        if actions.is_empty() {
            break;
        }
        let action = actions[pick.next(actions.len())].clone();
        let events = game.play(seat, &action).expect("a legal action");
        let marks: Vec<_> = events.iter().flat_map(|e| e.marks.clone()).collect();
        for (list, &viewer) in out.iter_mut().zip(viewers) {
            let highlights = Highlights {
                marks: marks.clone(),
                ..Highlights::default()
            };
            list.push((game.view(viewer), highlights));
        }
        if game.view(Viewer::Spectator).outcome.is_over() {
            return (out, true);
        }
    }
    (out, false)
}

/// A league's crosstable built by hand: five players in standing order, each
/// with their pairing number, a double game ("1 ½"), a forfeit (+ and −), a
/// game not yet played, the own cells shaded, points and four tie-breaks.
pub fn crosstable() -> tokar_render::Crosstable {
    let row = |place: &str, number: usize, name: &str, cells: [&str; 5], tail: [&str; 5]| {
        tokar_render::CrossRow {
            place: place.into(),
            number: number.to_string(),
            name: name.into(),
            cells: cells.map(String::from).to_vec(),
            own: Some(number - 1),
            tail: tail.map(String::from).to_vec(),
        }
    };
    tokar_render::Crosstable {
        title: "League Spring · Arcana · crosstable".into(),
        opponents: (1..=5).map(|k| k.to_string()).collect(),
        tail: ["Pts", "DE", "Wins", "SB", "Koya"].map(String::from).to_vec(),
        rows: vec![
            row("1", 3, "alice", ["1", "½", "", "1", "0"], ["2½", "1", "2", "5¾", "1½"]),
            row("2", 1, "bob", ["", "1", "0", "1", "½"], ["2½", "0", "2", "5¼", "1"]),
            row("3", 5, "erin", ["½", "½", "1", "+", ""], ["2½", "", "1", "4", "1"]),
            row("4", 2, "carol with a long name", ["0", "", "½", "1", "½"], ["2", "", "1", "3¼", "½"]),
            row("5", 4, "dave", ["0", "0", "0", "", "−"], ["0", "", "0", "0", "0"]),
        ],
        notes: vec![
            "1 won, ½ drawn, 0 lost; + won and − lost without play (lost at the move deadline before moving); blank: not yet played.".into(),
        ],
    }
}
