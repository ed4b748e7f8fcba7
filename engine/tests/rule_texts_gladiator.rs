//! Gladiator Chess as players read it (`/rules gladiator <topic>` and the
//! refusals that state a rule) against what the engine plays: every topic is
//! walked, and each number or capability a text states is played in a
//! position where it decides what happens. Rulings (R1...) are those of
//! engine/rules/gladiator.md.

use tokar_engine::catalog::GameKind;
use tokar_engine::gladiator::{seat_of, Commander, Gladiator, Kind, Team, BOARD};
use tokar_engine::{ActionError, Game, Outcome, RollRole, Seat, Viewer};

mod common;
use common::texts::{between, number, number_before, numbers, topics};

use Kind::*;
use Team::{Black as B, White as W};

fn page(topic: Option<&str>) -> String {
    GameKind::Gladiator.rules(topic).unwrap()
}

fn ok(g: &mut Gladiator, seat: Seat, text: &str) {
    let a = g
        .parse(seat, text)
        .unwrap_or_else(|e| panic!("'{text}' refused: {e}"));
    g.play(seat, &a).unwrap();
}

fn refusal(g: &Gladiator, seat: Seat, text: &str) -> String {
    match g.parse(seat, text) {
        Err(ActionError::Illegal(r)) => r,
        other => panic!("'{text}': expected a refusal, got {other:?}"),
    }
}

/// The squares `offsets` away from `from`, on the board, sorted.
fn around(from: &str, offsets: &[(i32, i32)]) -> Vec<String> {
    let c = BOARD.parse(from).unwrap();
    let mut v: Vec<String> = offsets
        .iter()
        .filter_map(|&(f, r)| BOARD.offset(c, f, r))
        .map(|c| BOARD.name(c))
        .collect();
    v.sort();
    v
}

/// Every square along `dirs` from `from` on an empty board.
fn rays(from: &str, dirs: &[(i32, i32)]) -> Vec<String> {
    let offsets: Vec<(i32, i32)> = dirs
        .iter()
        .flat_map(|&(f, r)| (1..12).map(move |k| (f * k, r * k)))
        .collect();
    around(from, &offsets)
}

/// Where the piece on `from` may go now, sorted (its commander's seat).
fn dests(g: &Gladiator, from: &str) -> Vec<String> {
    let c = BOARD.parse(from).unwrap();
    let mut v: Vec<String> = g
        .legal_actions(g.seat_to_move())
        .into_iter()
        .filter(|a| a.from == c && !a.by_king)
        .map(|a| BOARD.name(a.to))
        .collect();
    v.sort();
    v.dedup();
    v
}

/// A White piece of `kind` alone on `from`, at its commander's move.
fn alone(kind: Kind, from: &str) -> Gladiator {
    let mut g = Gladiator::empty(1);
    g.put(from, W, kind).set_turn(W, kind.commander());
    g
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

/// Where a White `kind` on e5 attacks: a square its movement reaches.
fn target_of(kind: Kind) -> &'static str {
    match kind {
        King | Warrior => "f5",
        MountedKnight | BlackKnight | KingsKnight => "f7",
        Champion => "h5",
        Footman | Squire | Scout => "f6",
        Queen => panic!("the Queen never attacks"),
    }
}

/// A White `a` on e5 (with `hp` hit points) attacks a Black `d` at full hit
/// points, with the dice of `seed`; nobody is guarded (no King's Knights).
fn battle(a: Kind, hp: Option<i32>, d: Kind, seed: u64) -> Gladiator {
    let to = target_of(a);
    let mut g = Gladiator::empty(seed);
    g.put("e5", W, a).put(to, B, d).set_turn(W, a.commander());
    if let Some(hp) = hp {
        g.set_hp("e5", hp);
    }
    ok(&mut g, seat_of(W, a.commander()), &format!("e5x{to}"));
    g
}

/// The dice thrown by `role` in the last battle.
fn rolled(g: &Gladiator, role: RollRole) -> Vec<u8> {
    g.view(Viewer::Spectator)
        .rolls
        .into_iter()
        .find(|r| r.role == role)
        .map(|r| r.dice)
        .expect("a battle was rolled")
}

/// The battle numbers a text gives a kind: its dice, the attacker's extra
/// dice, the faces of a die and its hit points, held against play: the dice
/// each side throws, the hit points it starts a game with.
fn battle_numbers_agree(kind: Kind, dice: usize, extra: usize, sides: u8, hp: i32, what: &str) {
    let g = battle(kind, None, Squire, 3);
    let attack = rolled(&g, RollRole::Attack);
    assert_eq!(attack.len(), dice + extra, "{kind:?} attacking: {what}");
    assert!(attack.iter().all(|&d| (1..=sides).contains(&d)), "{what}");
    let g = battle(Warrior, None, kind, 3);
    assert_eq!(
        rolled(&g, RollRole::Defence).len(),
        dice,
        "{kind:?} defending: {what}"
    );
    let start = Gladiator::new(1).view(Viewer::Spectator);
    let hps: Vec<Option<(i32, i32)>> = start
        .pieces
        .iter()
        .filter(|p| p.glyph.name == kind.name())
        .map(|p| p.hp)
        .collect();
    assert!(!hps.is_empty());
    assert!(
        hps.iter().all(|h| *h == Some((hp, hp))),
        "{kind:?} starts with {hps:?}: {what}"
    );
}

/// Whether the engine heals `kind` to full when it wins a battle (R5):
/// wounded to 1 hit point, it attacks until a seed gives it the win.
fn heals_on_victory(kind: Kind) -> bool {
    for seed in 0..500 {
        let g = battle(kind, Some(1), Footman, seed);
        let view = g.view(Viewer::Spectator);
        let total = |role| {
            view.rolls
                .iter()
                .find(|r| r.role == role)
                .and_then(|r| r.total)
                .unwrap()
        };
        if total(RollRole::Attack) > total(RollRole::Defence) {
            let p = g
                .pieces()
                .find(|(_, p)| p.team == W)
                .expect("the winner stands")
                .1;
            return p.hp == kind.max_hp();
        }
    }
    panic!("{kind:?} never won a battle in 500 seeds");
}

/// The kinds named in a phrase ("a Warrior or Scout"); plurals count.
fn kinds_in(phrase: &str) -> Vec<Kind> {
    let mut v: Vec<Kind> = Kind::ALL
        .into_iter()
        .filter(|k| {
            let name = k.name();
            let plural = match k {
                Footman => "Footmen".to_string(),
                _ => format!("{name}s"),
            };
            phrase.contains(name) || phrase.contains(&plural)
        })
        .collect();
    // "King's Knight" is no King; "Mounted Knight" and "Black Knight" are no
    // King's Knight.
    if v.contains(&KingsKnight) && !phrase.replace("King's Knight", "").contains("King") {
        v.retain(|&k| k != King);
    }
    v.sort();
    v
}

#[test]
fn every_gladiator_topic_states_what_the_engine_plays() {
    let overview = page(None);
    let listed = topics(&overview);
    overview_states_what_the_engine_plays(&overview);
    for topic in &listed {
        let text = page(Some(topic));
        match Kind::lookup(topic) {
            Some(kind) => card(kind, &text),
            None => match topic.as_str() {
                "combat" => combat(&text),
                "turn" => turn(&text),
                "check" => check(&text),
                "rulings" => rulings(&text),
                other => panic!("the topic '{other}' has no check here: add one"),
            },
        }
    }
    // Every piece has its card among the topics.
    for kind in Kind::ALL {
        assert!(
            listed.iter().any(|t| Kind::lookup(t) == Some(kind)),
            "{kind:?} has no topic"
        );
    }
}

/// The order of commanders a text lists, against the order the game gives
/// the move: from the opening, each commander plays its first legal move.
fn order_agrees(listed: &[&str], what: &str) {
    let mut g = Gladiator::new(5);
    for team in [W, B] {
        for name in listed {
            assert_eq!(g.team_to_move(), team, "{what}");
            assert_eq!(g.commander_to_move().name(), *name, "{what}");
            let seat = g.seat_to_move();
            let a = g.legal_actions(seat)[0];
            g.play(seat, &a).unwrap();
        }
    }
}

fn overview_states_what_the_engine_plays(text: &str) {
    // The board and where the teams start.
    let size = between(text, "Gladiator Chess: a ", " board");
    let (files, ranks) = size.split_once('x').unwrap();
    let (files, ranks) = (number(files).unwrap(), number(ranks).unwrap());
    let start = Gladiator::new(1);
    let mut seen_files = Vec::new();
    for (c, p) in start.pieces() {
        let (f, r) = BOARD.coords(c);
        seen_files.push(f);
        let rows = between(
            text,
            &format!("{} at ranks ", p.team.name()),
            match p.team {
                W => " moves first",
                B => ")",
            },
        );
        let (lo, hi) = rows.split_once('-').unwrap();
        let (lo, hi) = (number(lo).unwrap() as i32, number(hi).unwrap() as i32);
        assert!((lo - 1..hi).contains(&r), "{p:?} on rank {}: {text}", r + 1);
        assert!(r < ranks as i32);
    }
    seen_files.sort();
    seen_files.dedup();
    assert_eq!(seen_files.len() as u32, files, "{text}");
    assert_eq!(
        start.seat_to_move(),
        seat_of(W, Commander::King),
        "White first"
    );
    // The commanders, in order, each with the pieces it commands.
    let groups = between(text, "move in order every turn: ", ". Each");
    let mut order = Vec::new();
    for group in groups.split("), ") {
        let (name, pieces) = group.split_once(" (").unwrap();
        let name = name.trim_start_matches("the ");
        order.push(name);
        let commander = Commander::ORDER
            .into_iter()
            .find(|c| c.name() == name)
            .unwrap_or_else(|| panic!("no commander '{name}'"));
        let named = kinds_in(&pieces.replace("himself", name).replace("herself", name));
        let mut played: Vec<Kind> = Kind::ALL
            .into_iter()
            .filter(|k| k.commander() == commander)
            .collect();
        played.sort();
        assert_eq!(named, played, "{name} commands: {text}");
        // Played: another commander's piece is refused at this move.
        let mut g = Gladiator::empty(1);
        // A piece of another commander that could step to e6.
        let other = if commander == Commander::Queen {
            Footman
        } else {
            Warrior
        };
        g.put("e5", W, other).put("a1", W, played[played.len() - 1]);
        g.set_turn(W, commander);
        assert!(
            g.parse(seat_of(W, commander), "e5-e6").is_err(),
            "{name} moves no {other:?}"
        );
    }
    order_agrees(&order, text);
    // The hold that wins.
    let held = number_before(text, " of her team's turns");
    assert_eq!(turns_a_held_queen_lasts(), held, "{text}");
    // The attacker's extra die.
    let extra = number(between(text, "the attacker rolls its dice plus ", "d")).unwrap();
    let g = battle(Warrior, None, Squire, 1);
    assert_eq!(
        rolled(&g, RollRole::Attack).len(),
        Warrior.dice() + extra as usize,
        "{text}"
    );
}

/// How many of her team's turns a captured White Queen is held before Black
/// wins, played turn by turn.
fn turns_a_held_queen_lasts() -> u32 {
    let mut g = Gladiator::empty(3);
    g.put("a1", W, King)
        .put("e5", W, Queen)
        .put("a12", B, King)
        .put("c7", B, Scout)
        .set_turn(B, Commander::BlackKnight);
    ok(&mut g, seat_of(B, Commander::BlackKnight), "c7xe5");
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
        }
        assert!(white_turns < 100);
    }
    assert!(matches!(g.outcome(), Outcome::Won { winners, .. } if winners.contains(&Seat(4))));
    white_turns
}

/// One piece's card: its movement, its battle numbers, what it becomes and
/// whether it heals, each played.
fn card(kind: Kind, text: &str) {
    if kind == Queen {
        return queen(text);
    }
    let dice = number(between(text, "Combat: ", "d")).unwrap() as usize;
    let sides = number(between(text, &format!("Combat: {dice}d"), " ")).unwrap() as u8;
    let extra = number(between(text, "(+", "d")).unwrap() as usize;
    let hp = number_before(text, " hit points") as i32;
    battle_numbers_agree(kind, dice, extra, sides, hp, text);
    assert_eq!(
        text.contains("fully healed"),
        heals_on_victory(kind),
        "{text}"
    );
    match kind {
        King => {
            assert!(
                text.starts_with("King: Moves one square in any direction"),
                "{text}"
            );
            assert_eq!(dests(&alone(King, "e5"), "e5"), around("e5", &all8()));
        }
        MountedKnight | BlackKnight | KingsKnight => {
            assert!(text.contains("Moves as a chess knight, jumping"), "{text}");
            let mut g = alone(kind, "e5");
            for s in ["e6", "f5", "e4", "d5", "d6", "f6", "d4", "f4"] {
                g.put(s, W, Squire);
            }
            assert_eq!(dests(&g, "e5"), around("e5", &KNIGHT), "{text}");
        }
        Warrior => {
            assert!(text.contains("Moves as a rook"), "{text}");
            assert_eq!(dests(&alone(kind, "e5"), "e5"), rays("e5", &ROOK));
        }
        Scout => {
            assert!(text.contains("Moves as a bishop"), "{text}");
            assert_eq!(dests(&alone(kind, "e5"), "e5"), rays("e5", &BISHOP));
        }
        Champion => {
            let steps = numbers(between(text, "exactly ", " squares"));
            let offsets: Vec<(i32, i32)> = (-12..=12)
                .flat_map(|f| (-12..=12).map(move |r| (f, r)))
                .filter(|&(f, r): &(i32, i32)| steps.contains(&((f.abs() + r.abs()) as u32)))
                .collect();
            assert_eq!(
                dests(&alone(kind, "e5"), "e5"),
                around("e5", &offsets),
                "{text}"
            );
            // The refusal that states his move says the same.
            let g = alone(kind, "e5");
            let m = refusal(&g, seat_of(W, Commander::Queen), "e5-e6");
            assert_eq!(numbers(between(&m, "exactly ", " squares")), steps, "{m}");
        }
        Footman => {
            let n = numbers(between(
                text,
                "Moves ",
                " squares straight ahead at any time",
            ));
            let offsets: Vec<(i32, i32)> = n.iter().map(|&k| (0, k as i32)).collect();
            assert_eq!(
                dests(&alone(kind, "e5"), "e5"),
                around("e5", &offsets),
                "{text}"
            );
            promotions_agree(kind, between(text, "replaced by ", " its team lost"), text);
        }
        Squire => {
            assert!(
                text.contains("two squares from its starting rank"),
                "{text}"
            );
            assert_eq!(dests(&alone(kind, "e2"), "e2"), ["e3", "e4"], "{text}");
            assert_eq!(dests(&alone(kind, "e5"), "e5"), ["e6"], "{text}");
            promotions_agree(kind, between(text, "replaced by ", " its team lost"), text);
        }
        Queen => unreachable!(),
    }
}

/// The pieces a pawn reaching the far side may become, with every kind
/// lost: "a Warrior or Scout", "any piece".
fn promotions_agree(kind: Kind, phrase: &str, text: &str) {
    let lost = [
        MountedKnight,
        Champion,
        Warrior,
        BlackKnight,
        Scout,
        KingsKnight,
    ];
    let said: Vec<Kind> = if phrase.contains("any piece") {
        lost.to_vec()
    } else {
        kinds_in(phrase)
    };
    let mut g = alone(kind, "e11");
    g.set_lost(W, &lost);
    let mut played: Vec<Kind> = g
        .legal_actions(g.seat_to_move())
        .into_iter()
        .filter_map(|a| a.promote)
        .collect();
    played.sort();
    let mut said = said;
    said.sort();
    assert_eq!(said, played, "{text}");
}

fn queen(text: &str) {
    // No combat: she freezes the enemy she lands on, and nobody attacks her.
    assert!(text.contains("No combat"), "{text}");
    let mut g = alone(Queen, "d4");
    g.put("f6", B, Squire);
    ok(&mut g, seat_of(W, Commander::Queen), "d4xf6");
    assert!(g.frozen_by(W).is_some() && g.view(Viewer::Spectator).rolls.is_empty());
    let mut g = alone(Warrior, "d4");
    g.put("d6", B, Queen);
    assert!(g.parse(seat_of(W, Commander::Queen), "d4xd6").is_err());
    // Friends attacking the piece she holds frozen roll more dice.
    let more = number_before(text, " more die") as usize;
    let mut g = alone(Queen, "d4");
    g.put("f6", B, Footman).put("f1", W, Warrior);
    ok(&mut g, seat_of(W, Commander::Queen), "d4xf6");
    g.set_turn(W, Commander::Queen);
    ok(&mut g, seat_of(W, Commander::Queen), "f1xf6");
    let attack = rolled(&g, RollRole::Attack).len();
    let combat = page(Some("combat"));
    let extra = number(between(&combat, "the attacker rolls its dice plus ", "d")).unwrap();
    assert_eq!(attack, Warrior.dice() + extra as usize + more, "{text}");
    // Held so many turns, she loses the game.
    let held = number_before(text, " of her team's turns");
    assert_eq!(turns_a_held_queen_lasts(), held, "{text}");
}

fn combat(text: &str) {
    // "Dice: King 5d6/30, Mounted Knight 3d6/16, ...": every fighting kind.
    let list = between(text, "Dice: ", ".");
    let mut named = Vec::new();
    for item in list.split(", ") {
        let (name, numbers_) = item.rsplit_once(' ').unwrap();
        let kind = Kind::lookup(name).unwrap_or_else(|| panic!("no piece '{name}'"));
        let (dice, hp) = numbers_.split_once('/').unwrap();
        let (dice, sides) = dice.split_once('d').unwrap();
        let extra = number(between(text, "the attacker rolls its dice plus ", "d")).unwrap();
        battle_numbers_agree(
            kind,
            number(dice).unwrap() as usize,
            extra as usize,
            number(sides).unwrap() as u8,
            number(hp).unwrap() as i32,
            text,
        );
        named.push(kind);
    }
    let mut fighting: Vec<Kind> = Kind::ALL.into_iter().filter(|&k| k != Queen).collect();
    named.sort();
    fighting.sort();
    assert_eq!(named, fighting, "every piece but the Queen fights: {text}");
    // Who heals on victory (R5).
    let healers = kinds_in(between(
        text,
        "if both live, both stay where they were. ",
        " that win",
    ));
    for kind in fighting {
        assert_eq!(
            healers.contains(&kind),
            heals_on_victory(kind),
            "{kind:?}: {text}"
        );
    }
}

fn turn(text: &str) {
    let moves = number_before(text, " moves, one per commander");
    let listed: Vec<&str> = between(text, "in order: ", ".").split(", ").collect();
    assert_eq!(listed.len() as u32, moves, "{text}");
    order_agrees(&listed, text);
    // "The King cannot override his own move, except when none of his own
    // pieces can move": then he moves another commander's piece, as a plain move.
    assert!(
        text.contains("except when none of his own pieces can move"),
        "{text}"
    );
    let mut g = Gladiator::empty(1);
    g.put("a1", W, King)
        .put("b1", W, KingsKnight)
        .put("a2", W, Squire)
        .put("b2", W, Squire)
        .put("e5", W, Warrior)
        .put("a12", B, King);
    let king = seat_of(W, Commander::King);
    assert!(g.parse(king, "e5-e6").is_ok());
    // Typed as an override, the refusal says what he may do.
    let m = refusal(&g, king, "king: e5-e6");
    assert!(
        !m.contains("move the King, the Mounted Knight or a Footman"),
        "none of the King's own pieces can move, and he may move the Warrior; the refusal says otherwise: {m}"
    );
    assert!(m.contains("without 'king:'"), "{m}");
    // With a piece of his own that can move, he must move one of his own.
    g.put("c3", W, Footman);
    assert!(g.parse(king, "e5-e6").is_err());
    let m = refusal(&g, king, "king: e5-e6");
    assert!(m.contains("Footman"), "{m}");
}

fn check(text: &str) {
    assert!(text.contains("the Queen included"), "{text}");
    let mut g = Gladiator::empty(1);
    g.put("a1", W, King)
        .put("b1", W, KingsKnight)
        .put("a8", B, Queen);
    assert!(g.in_check(W), "{text}");
    // Check applies only to a guarded King.
    let mut g = Gladiator::empty(1);
    g.put("a1", W, King).put("a8", B, Queen);
    assert!(!g.in_check(W), "{text}");
}

fn rulings(text: &str) {
    let page = include_str!("../rules/gladiator.md");
    let count = page.split("\n\n").filter(|p| p.starts_with("**R")).count() as u32;
    let last = number(between(text, "R1-R", " ")).unwrap();
    assert_eq!(last, count, "{text}");
}
