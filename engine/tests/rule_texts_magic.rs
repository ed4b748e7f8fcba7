//! Magic Chess as players read it (`/rules magic-chess <topic>`, the option
//! help, the refusals that state a rule) against what the engine plays: every
//! topic is walked, and each number or capability a text states is played in
//! a position where it decides what happens. Rulings (R1...) are those of
//! engine/rules/magic-chess.md.

use tokar_engine::catalog::{GameKind, Options, Variant};
use tokar_engine::magic::{Action, Kind, MagicChess, Position, Spell, SEAT_NAMES};
use tokar_engine::{ActionError, Board, Cell, Game, Outcome, Seat};

mod common;
use common::texts::{between, number, number_before, topics};

use Kind::*;
use Spell::*;

const RED: u8 = 0;
const BLUE: u8 = 1;

fn page(topic: Option<&str>) -> String {
    GameKind::MagicChess.rules(topic).unwrap()
}

fn sq(s: &str) -> Cell {
    Position::cell(s)
}

fn name(c: Cell) -> String {
    Board::grid(8, 8).name(c)
}

/// The squares the piece on `from` may move to now, sorted.
fn dests(g: &MagicChess, from: &str) -> Vec<String> {
    let mut v: Vec<String> = g
        .legal_actions(g.turn())
        .into_iter()
        .filter_map(|a| match a {
            Action::Move(m) if m.from == sq(from) => Some(name(m.to)),
            _ => None,
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

fn play(g: &mut MagicChess, text: &str) {
    let seat = g.turn();
    let a = g
        .parse(seat, text)
        .unwrap_or_else(|e| panic!("'{text}' refused: {e}"));
    g.play(seat, &a).unwrap();
}

fn illegal(g: &MagicChess, text: &str) -> String {
    match g.parse(g.turn(), text) {
        Err(ActionError::Illegal(r)) => r,
        other => panic!("'{text}': expected a refusal, got {other:?}"),
    }
}

/// Kings in their corners, so that nobody is eliminated by accident.
fn kings() -> Position {
    Position::empty()
        .piece("a1", RED, King)
        .piece("a8", BLUE, King)
        .piece("h8", 2, King)
        .piece("h1", 3, King)
}

/// The squares at king-distance 1..=`reach` from `from` along the lines in
/// `dirs`, on an empty board.
fn lines(from: &str, dirs: &[(i32, i32)], reach: i32) -> Vec<String> {
    let board = Board::grid(8, 8);
    let mut v = Vec::new();
    for &(df, dr) in dirs {
        for k in 1..=reach {
            if let Some(c) = board.offset(sq(from), df * k, dr * k) {
                v.push(name(c));
            }
        }
    }
    v.sort();
    v
}

const ROOK: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const BISHOP: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

fn all8() -> Vec<(i32, i32)> {
    ROOK.iter().chain(BISHOP.iter()).copied().collect()
}

/// The kinds a text names in `phrase` ("an enemy Wizard, Fairy or Frog");
/// "any enemy piece" names them all.
fn kinds_in(phrase: &str) -> Vec<Kind> {
    if phrase.contains("any enemy piece") {
        return Kind::ALL.to_vec();
    }
    Kind::ALL
        .into_iter()
        .filter(|k| phrase.contains(k.name()))
        .collect()
}

/// The kinds the engine lets `spell` be played under: Blue holds one piece of
/// each kind, Red holds the card.
fn playable_under(spell: Spell) -> Vec<Kind> {
    let g = kings()
        .piece("b3", BLUE, Wizard)
        .piece("c5", BLUE, Fairy)
        .piece("d6", BLUE, Frog)
        .piece("e4", BLUE, Pawn)
        .hand(RED, &[spell])
        .build();
    let mut kinds: Vec<Kind> = g
        .legal_actions(Seat(RED))
        .into_iter()
        .filter_map(|a| match a {
            Action::Cast { spell: s, target } if s == spell => g.piece_at(target).map(|p| p.kind),
            _ => None,
        })
        .collect();
    kinds.sort();
    kinds.dedup();
    kinds
}

/// The card a topic of the spell pages names, and the kinds its page says it
/// is played under agree with the engine.
fn spell_targets_agree(spell: Spell, text: &str) {
    let said = kinds_in(between(text, "played under ", "."));
    assert_eq!(
        said,
        playable_under(spell),
        "{} is played under the kinds its page names:\n{text}",
        spell.name()
    );
}

#[test]
fn every_magic_chess_topic_states_what_the_engine_plays() {
    let overview = page(None);
    let listed = topics(&overview);
    assert!(!listed.is_empty(), "{overview}");
    overview_states_what_the_engine_plays(&overview);
    for topic in &listed {
        let text = page(Some(topic));
        match topic.as_str() {
            "king" => king(&text),
            "wizard" => wizard(&text),
            "fairy" => fairy(&text),
            "frog" => frog(&text),
            "pawn" => pawn(&text),
            "freeze" => freeze(&text),
            "slow" => slow(&text),
            "anti-jump" => anti_jump(&text),
            other => panic!("the topic '{other}' has no check here: add one"),
        }
    }
}

fn overview_states_what_the_engine_plays(text: &str) {
    // The hand dealt (R5).
    let hand = number_before(text, " hidden spell cards") as usize;
    let g = MagicChess::setup(&Options::new(), 3).unwrap();
    for s in 0..4 {
        assert_eq!(g.hand(Seat(s)).len(), hand, "{text}");
    }
    // The armies and where their pawns go (R1).
    let start = MagicChess::setup(&Options::new(), 3).unwrap();
    for (s, army) in SEAT_NAMES.iter().enumerate() {
        let squares = between(text, &format!("{army} "), " (");
        let (left, right) = squares.split_once('-').expect(squares);
        let at = |sq_: &str| start.piece_at(sq(sq_)).map(|p| (p.seat, p.kind));
        assert_eq!(at(left), Some((Seat(s as u8), King)), "{army}: {text}");
        assert_eq!(at(right), Some((Seat(s as u8), Frog)), "{army}: {text}");
        let dir = between(text, &format!("{army} {squares} (Pawns move "), ")");
        let (df, dr) = match dir {
            "up" => (0, 1),
            "down" => (0, -1),
            "right" => (1, 0),
            "left" => (-1, 0),
            other => panic!("{army}'s pawns move '{other}'?"),
        };
        let g = Position::start().to_move(s as u8).build();
        let mut pawns = 0;
        for a in g.legal_actions(Seat(s as u8)) {
            if let Action::Move(m) = a {
                if g.piece_at(m.from).map(|p| p.kind) == Some(Pawn) {
                    let board = Board::grid(8, 8);
                    assert_eq!(board.offset(m.from, df, dr), Some(m.to), "{army}");
                    pawns += 1;
                }
            }
        }
        assert_eq!(pawns, 4, "{army}'s four pawns each step {dir}");
    }
    // The order of play (R2).
    let order: Vec<&str> = between(text, "Red starts; then ", " (")
        .split(", ")
        .collect();
    let mut g = MagicChess::setup(&Options::new(), 3).unwrap();
    for army in order {
        play(&mut g, "pass");
        assert_eq!(SEAT_NAMES[g.turn().index()], army, "{text}");
    }
    // The quiet draw (R13): so many rounds of every player still in.
    let rounds = number_before(text, " rounds with no capture");
    let mut g = kings().quiet(4 * rounds - 1).build();
    play(&mut g, "pass");
    assert!(matches!(g.outcome(), Outcome::Drawn { .. }), "{text}");
    let mut g = kings().quiet(4 * rounds - 2).build();
    play(&mut g, "pass");
    assert!(!g.outcome().is_over(), "{text}");
    // Capturing the King of a player still in the game eliminates and draws
    // a card (R9); an eliminated player's King gives none (R16).
    assert!(text.contains("the capturer draws a card"), "{text}");
    let mut g = kings().piece("a7", RED, Wizard).draw_pile(&[Slow]).build();
    play(&mut g, "a7-a8");
    assert!(g.is_out(Seat(BLUE)) && g.hand(Seat(RED)) == [Slow]);
    let mut g = kings()
        .piece("a7", RED, Wizard)
        .eliminated(BLUE)
        .draw_pile(&[Slow])
        .build();
    play(&mut g, "a7-a8");
    assert!(g.hand(Seat(RED)).is_empty());
    let king_rule = between(text, "Capture ", "draws a card");
    assert!(
        king_rule.contains("still in the game"),
        "the capture of an eliminated player's King draws no card; the overview says any King's does:\n{text}"
    );
    // Their pieces stay: captured, never passed through (R10).
    assert!(
        text.contains("can be captured, not passed through"),
        "{text}"
    );
    let g = kings()
        .eliminated(BLUE)
        .piece("d4", RED, Frog)
        .piece("d5", BLUE, Pawn)
        .build();
    let frog = dests(&g, "d4");
    assert!(frog.contains(&"d5".into()) && !frog.contains(&"d6".into()));
    // No check: a King steps into attack (R3).
    assert!(text.contains("No check"), "{text}");
    let g = kings()
        .clear("a1")
        .piece("d4", RED, King)
        .piece("e8", BLUE, Wizard)
        .build();
    assert!(dests(&g, "d4").contains(&"e4".into()));
    // The draw pile is never reshuffled (R6).
    assert!(text.contains("never reshuffled"), "{text}");
    let mut g = kings()
        .piece("b3", BLUE, Wizard)
        .hand(RED, &[Freeze, Freeze])
        .build();
    play(&mut g, "freeze b3");
    for _ in 0..3 {
        play(&mut g, "pass");
    }
    assert_eq!(g.discard_pile().len(), 1);
    play(&mut g, "freeze b3");
    assert!(
        g.hand(Seat(RED)).is_empty() && g.draw_pile_len() == 0,
        "{text}"
    );
}

/// The option help states the deck's range and default (R5).
#[test]
fn the_deck_options_state_the_counts_the_engine_deals() {
    for spec in GameKind::MagicChess.options() {
        let Some(spell) = spec.name.strip_suffix("-cards") else {
            continue;
        };
        let range = between(spec.help, "(", ",");
        let (lo, hi) = range.split_once('-').expect(spec.help);
        let (lo, hi) = (number(lo).unwrap(), number(hi).unwrap());
        let default = number(between(spec.help, "default ", ")")).expect(spec.help);
        let with = |n: u32| {
            let mut o = Options::new();
            o.insert(spec.name.to_string(), n.to_string());
            MagicChess::setup(&o, 1)
        };
        assert!(with(lo).is_ok() && with(hi).is_ok(), "{}", spec.help);
        assert!(with(hi + 1).is_err(), "{}", spec.help);
        let count = |g: &MagicChess| {
            let s = Spell::parse(spell).unwrap();
            let hands: usize = (0..4)
                .map(|i| g.hand(Seat(i)).iter().filter(|&&c| c == s).count())
                .sum();
            hands + g.draw_pile().iter().filter(|&&c| c == s).count()
        };
        let g = MagicChess::setup(&Options::new(), 1).unwrap();
        assert_eq!(count(&g), default as usize, "{}", spec.help);
    }
}

fn king(text: &str) {
    assert!(text.contains("one square in any direction"), "{text}");
    let g = Position::empty()
        .piece("d4", RED, King)
        .piece("h8", BLUE, King)
        .build();
    assert_eq!(dests(&g, "d4"), lines("d4", &all8(), 1), "{text}");
    // "Only Freeze may be played under a King."
    let only = kinds_spells(between(text, "Only ", " may be played under a King"));
    for spell in Spell::ALL {
        assert_eq!(
            only.contains(&spell),
            playable_under(spell).contains(&King),
            "{}: {text}",
            spell.name()
        );
    }
}

/// Kings off the Fairy's lines from d4 (Red's own King on a1 would stand on
/// her diagonal).
fn fairy_board() -> Position {
    kings().clear("a1").piece("a2", RED, King)
}

fn kinds_spells(phrase: &str) -> Vec<Spell> {
    Spell::ALL
        .into_iter()
        .filter(|s| phrase.contains(s.name()))
        .collect()
}

fn wizard(text: &str) {
    assert!(text.contains("like a rook"), "{text}");
    let g = kings().piece("d4", RED, Wizard).build();
    assert_eq!(dests(&g, "d4"), lines("d4", &ROOK, 7));
    let slowed = number_before(text, " square only") as i32;
    let g = kings()
        .piece("d4", RED, Wizard)
        .spell_on("d4", Slow)
        .build();
    assert_eq!(dests(&g, "d4"), lines("d4", &ROOK, slowed), "{text}");
}

fn fairy(text: &str) {
    assert!(
        text.contains("like a bishop") && text.contains("knight move"),
        "{text}"
    );
    let knights: Vec<String> = {
        let mut v: Vec<String> = KNIGHT
            .iter()
            .filter_map(|&(f, r)| Board::grid(8, 8).offset(sq("d4"), f, r))
            .map(name)
            .collect();
        v.sort();
        v
    };
    let g = fairy_board().piece("d4", RED, Fairy).build();
    let mut both = lines("d4", &BISHOP, 7);
    both.extend(knights.iter().cloned());
    both.sort();
    assert_eq!(dests(&g, "d4"), both, "{text}");
    // "jumps over the two squares of that path": d5 and d6 to e6.
    let g = fairy_board()
        .piece("d4", RED, Fairy)
        .piece("d5", BLUE, Pawn)
        .piece("d6", BLUE, Pawn)
        .build();
    assert!(dests(&g, "d4").contains(&"e6".into()), "{text}");
    // Under Anti-Jump both squares must be empty.
    assert!(
        text.contains("under Anti-Jump both squares must be empty"),
        "{text}"
    );
    let g = fairy_board()
        .piece("d4", RED, Fairy)
        .piece("d5", BLUE, Pawn)
        .spell_on("d4", AntiJump)
        .build();
    assert!(!dests(&g, "d4").contains(&"e6".into()), "{text}");
    // Nor over an eliminated player's piece (R10).
    let g = fairy_board()
        .piece("d4", RED, Fairy)
        .piece("d5", BLUE, Pawn)
        .eliminated(BLUE)
        .build();
    assert!(!dests(&g, "d4").contains(&"e6".into()));
    assert!(
        between(text, "The knight move", ".").contains("eliminated"),
        "the knight move never passes an eliminated player's piece; the card says it jumps:\n{text}"
    );
    // Slowed: one diagonal square, no knight move.
    let slowed = number_before(text, " diagonal square only") as i32;
    let g = fairy_board()
        .piece("d4", RED, Fairy)
        .spell_on("d4", Slow)
        .build();
    assert_eq!(dests(&g, "d4"), lines("d4", &BISHOP, slowed), "{text}");
}

fn frog(text: &str) {
    let reach = number_before(text, " squares in a straight line") as i32;
    let g = kings().piece("d4", RED, Frog).build();
    assert_eq!(dests(&g, "d4"), lines("d4", &all8(), reach), "{text}");
    // Jumping a living piece.
    let g = kings()
        .piece("d4", RED, Frog)
        .piece("d5", BLUE, Pawn)
        .build();
    assert!(dests(&g, "d4").contains(&"d6".into()), "{text}");
    // Under Anti-Jump, no jump.
    assert!(text.contains("Under Anti-Jump it may not jump"), "{text}");
    let g = kings()
        .piece("d4", RED, Frog)
        .piece("d5", BLUE, Pawn)
        .spell_on("d4", AntiJump)
        .build();
    assert!(!dests(&g, "d4").contains(&"d6".into()), "{text}");
    // Never over an eliminated player's piece (R10).
    let g = kings()
        .piece("d4", RED, Frog)
        .piece("d5", BLUE, Pawn)
        .eliminated(BLUE)
        .build();
    assert!(!dests(&g, "d4").contains(&"d6".into()));
    assert!(
        text.contains("eliminated"),
        "a Frog never jumps an eliminated player's piece; the card does not say so:\n{text}"
    );
    // Slowed: one square.
    let slowed = number_before(text, " square only") as i32;
    let g = kings().piece("d4", RED, Frog).spell_on("d4", Slow).build();
    assert_eq!(dests(&g, "d4"), lines("d4", &all8(), slowed), "{text}");
}

fn pawn(text: &str) {
    let step = number_before(text, " square straight toward") as i32;
    let g = kings().piece("c3", RED, Pawn).build();
    assert_eq!(dests(&g, "c3"), lines("c3", &[(0, 1)], step), "{text}");
    // From its starting square too: no double step.
    assert!(text.contains("No double step"), "{text}");
    let g = kings().piece("c2", RED, Pawn).build();
    assert_eq!(dests(&g, "c2"), ["c3"], "{text}");
    // Captures diagonally forward, not straight.
    let g = kings()
        .piece("c3", RED, Pawn)
        .piece("c4", BLUE, Pawn)
        .piece("d4", BLUE, Pawn)
        .build();
    assert_eq!(dests(&g, "c3"), ["d4"], "{text}");
    // The promotions it names.
    let said = kinds_in(between(text, "promotes, by the player's choice, to ", ":"));
    let g = kings().piece("c7", RED, Pawn).build();
    let mut kinds: Vec<Kind> = g
        .legal_actions(Seat(RED))
        .into_iter()
        .filter_map(|a| match a {
            Action::Move(m) if m.from == sq("c7") => m.promote,
            _ => None,
        })
        .collect();
    kinds.sort();
    assert_eq!(said, kinds, "{text}");
    for k in kinds {
        assert!(
            text.contains(&format!("={}", k.name().to_ascii_lowercase())),
            "{text}"
        );
    }
    // The refusal of a pawn that stops short of saying names them too.
    let m = illegal(&g, "c7-c8");
    for k in Kind::ALL {
        assert_eq!(
            m.contains(&format!("={}", k.name().to_ascii_lowercase())),
            said.contains(&k),
            "{m}"
        );
    }
}

fn freeze(text: &str) {
    spell_targets_agree(Freeze, text);
    assert!(
        text.contains("cannot move on its owner's next turn"),
        "{text}"
    );
    let mut g = kings()
        .piece("d4", BLUE, Wizard)
        .hand(RED, &[Freeze])
        .build();
    play(&mut g, "freeze d4");
    assert!(dests(&g, "d4").is_empty(), "{text}");
    play(&mut g, "pass");
    play(&mut g, "pass");
    play(&mut g, "pass");
    play(&mut g, "pass");
    assert!(
        !dests(&g, "d4").is_empty(),
        "{text}: the card is then discarded"
    );
}

fn slow(text: &str) {
    spell_targets_agree(Slow, text);
    let squares = number_before(text, " square only") as i32;
    let g = kings().piece("d4", RED, Frog).spell_on("d4", Slow).build();
    assert_eq!(dests(&g, "d4"), lines("d4", &all8(), squares), "{text}");
}

fn anti_jump(text: &str) {
    spell_targets_agree(AntiJump, text);
    let g = kings()
        .piece("d4", RED, Fairy)
        .piece("e4", BLUE, Pawn)
        .spell_on("d4", AntiJump)
        .build();
    assert!(
        text.contains("needs both squares of its path empty"),
        "{text}"
    );
    assert!(!dests(&g, "d4").contains(&"f5".into()), "{text}");
}
