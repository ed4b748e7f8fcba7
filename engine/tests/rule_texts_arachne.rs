//! Arachne as players read it (`/rules arachne <topic>`, the variant option's
//! help and the refusals that state a rule) against what the engine plays:
//! every topic is walked, and each number or capability a text states is
//! played in a position where it decides what happens. Rulings (R1...) are
//! those of engine/rules/arachne.md.

use tokar_engine::arachne::{Action, Arachne, CaptureRules, Kind, WebLayout, BLACK, WHITE};
use tokar_engine::catalog::{Options, Variant};
use tokar_engine::{ActionError, Board, Cell, Game, GameKind, Outcome, Seat};

mod common;
use common::texts::{between, number, number_after, number_before, topics};

use CaptureRules::{Convenient, Original, Strategist};
use Kind::{Blademaster, Grunt, Matron, Priestess, Wizard};

fn page(topic: Option<&str>) -> String {
    GameKind::Arachne.rules(topic).unwrap()
}

/// A position with both Matrons far off (f5, l5) besides `pieces`, White to
/// move, no spiders' eyes.
fn pos(rules: CaptureRules, pieces: &[(&str, Seat, Kind)]) -> Arachne {
    let mut all = vec![("f5", WHITE, Matron), ("l5", BLACK, Matron)];
    all.retain(|(c, s, _)| {
        !pieces
            .iter()
            .any(|p| p.0 == *c || (p.1 == *s && p.2 == Matron))
    });
    all.extend_from_slice(pieces);
    let mut g = Arachne::position(rules, WHITE, &all, 7).unwrap();
    g.set_turn_dice([2, 5]);
    g
}

fn play(g: &mut Arachne, text: &str) -> Vec<tokar_engine::Event> {
    let seat = g.to_move();
    let a = g
        .parse(seat, text)
        .unwrap_or_else(|e| panic!("'{text}' refused: {e}"));
    g.play(seat, &a).unwrap()
}

/// The attack's and the defence's totals of the capture roll `text` made, as
/// its event reports them ("3+5 = 8 against 6+0+1 Grunt = 7").
fn totals(g: &mut Arachne, text: &str) -> (u32, u32) {
    let events = play(g, text);
    let roll = events
        .iter()
        .find(|e| e.text.contains(" against "))
        .unwrap_or_else(|| panic!("{text} rolled nothing: {events:?}"));
    let (attack, defence) = roll.text.split_once(" against ").unwrap();
    let total = |s: &str| number_after(s, " = ");
    (total(attack), total(defence))
}

fn refusal(g: &Arachne, text: &str) -> String {
    match g.parse(g.to_move(), text) {
        Err(ActionError::Illegal(r)) => r,
        other => panic!("'{text}': expected a refusal, got {other:?}"),
    }
}

fn names(board: Board, cells: impl IntoIterator<Item = Cell>) -> Vec<String> {
    let mut v: Vec<String> = cells.into_iter().map(|c| board.name(c)).collect();
    v.sort();
    v.dedup();
    v
}

/// Where the piece on `from` moves without capturing (plain moves only).
fn moves_of(g: &Arachne, from: &str) -> Vec<String> {
    let c = g.board().parse(from).unwrap();
    let ends = g
        .legal_actions(g.to_move())
        .into_iter()
        .filter_map(|a| match a {
            Action::Move {
                from,
                to,
                capture: None,
                promote: None,
                ..
            } if from == c => Some(to),
            _ => None,
        });
    names(g.board(), ends)
}

/// The spaces `reach` steps or fewer along each straight line from `from`,
/// stopping before a space `stops` (and before coming back round).
fn straight(g: &Arachne, from: &str, reach: usize, stops: &dyn Fn(Cell) -> bool) -> Vec<String> {
    let board = g.board();
    let start = board.parse(from).unwrap();
    let mut out = Vec::new();
    for d in board.directions(start) {
        let (mut cur, mut dir) = (start, d);
        for _ in 0..reach {
            let Some((c, nd)) = board.step(cur, dir) else {
                break;
            };
            if c == start || stops(c) {
                break;
            }
            out.push(c);
            cur = c;
            dir = nd;
        }
    }
    names(board, out)
}

/// The rank a page gives `kind`, against the capture roll: the attacker's
/// total is its die plus its rank (a Convenient capture with loaded dice).
fn rank_agrees(kind: Kind, text: &str) {
    let rank = number_after(text, "(rank ");
    let mut g = pos(Convenient, &[("c3", WHITE, kind), ("c4", BLACK, Grunt)]);
    g.load_dice(&[3, 6]);
    let (attack, _) = totals(&mut g, "c3 xc4");
    assert_eq!(attack, 3 + rank, "{kind:?}: {text}");
}

#[test]
fn every_arachne_topic_states_what_the_engine_plays() {
    let overview = page(None);
    let listed = topics(&overview);
    overview_states_what_the_engine_plays(&overview);
    for topic in &listed {
        let text = page(Some(topic));
        match topic.as_str() {
            "matron" => matron(&text),
            "priestess" => priestess(&text),
            "wizard" => wizard(&text),
            "blademaster" => blademaster(&text),
            "grunt" => grunt(&text),
            "capture" => capture(&text),
            "turncoat" => turncoat(&text),
            "punishment" => punishment(&text),
            "web" => web(&text),
            "strategist" => dice_of(Strategist, &text),
            "convenient" => convenient(&text),
            "original" => dice_of(Original, &text),
            other => panic!("the topic '{other}' has no check here: add one"),
        }
    }
}

fn overview_states_what_the_engine_plays(text: &str) {
    let g = Arachne::new(Original, &WebLayout::STANDARD, 1).unwrap();
    let board = g.board();
    // The web: spokes a.., rings 1.., a hub.
    let spokes = number_before(text, " spokes (a-");
    let rings = number_before(text, " rings (1 innermost)");
    let last = between(text, " spokes (a-", ",");
    assert_eq!(
        last.as_bytes()[0],
        b'a' + spokes as u8 - 1,
        "spokes a-{last}: {text}"
    );
    for s in 0..spokes as u8 + 1 {
        for r in 1..=rings + 1 {
            let name = format!("{}{r}", (b'a' + s) as char);
            let on = s < spokes as u8 && r <= rings;
            assert_eq!(board.parse(&name).is_some(), on, "{name}: {text}");
        }
    }
    assert!(board.parse("hub").is_some(), "{text}");
    // The zones: each side's pieces on its spokes and rings.
    let white_spokes = between(text, "White starts on spokes ", ",");
    let (a, b) = white_spokes.split_once('-').unwrap();
    let white: Vec<u8> = (a.as_bytes()[0]..=b.as_bytes()[0]).collect();
    let ring_span = between(text, &format!("spokes {white_spokes}, rings "), ";");
    let (lo, hi) = ring_span.split_once('-').unwrap();
    let (lo, hi) = (number(lo).unwrap() as u8, number(hi).unwrap() as u8);
    let black: Vec<u8> = between(text, "; Black on ", ".")
        .split(", ")
        .map(|s| s.as_bytes()[0])
        .collect();
    for (seat, spokes_of) in [(WHITE, &white), (BLACK, &black)] {
        let mine: Vec<Cell> = g.pieces_of(seat).map(|(c, _)| c).collect();
        assert_eq!(
            mine.len(),
            spokes_of.len() * (hi - lo + 1) as usize,
            "{text}"
        );
        for c in mine {
            let name = board.name(c);
            let (s, r) = (name.as_bytes()[0], number(&name[1..]).unwrap() as u8);
            assert!(
                spokes_of.contains(&s) && (lo..=hi).contains(&r),
                "{name}: {text}"
            );
        }
    }
    assert!(
        text.contains("White moves first") && g.to_move() == WHITE,
        "{text}"
    );
    // Connected spaces: two on the ring, one in, one out; the hub to ring 1.
    let on_ring = number_before(text, " on the ring");
    let on_spoke = number_before(text, " in and one out");
    let mut surrounded = vec![("c3", WHITE, Grunt)];
    let around = ["b3", "d3", "c2", "c4", "b2", "d4", "b4", "d2"];
    for c in around {
        surrounded.push((c, BLACK, Grunt));
    }
    let g2 = pos(Strategist, &surrounded);
    let strikes = g2
        .legal_actions(WHITE)
        .into_iter()
        .filter(|a| matches!(a, Action::Strike { .. }))
        .count() as u32;
    assert_eq!(strikes, on_ring + on_spoke + 1, "{text}");
    assert!(
        text.contains("the hub is connected to every space of ring 1"),
        "{text}"
    );
    let mut hub = vec![("hub", WHITE, Grunt)];
    let ring1: Vec<String> = (0..spokes as u8)
        .map(|s| format!("{}1", (b'a' + s) as char))
        .collect();
    for c in &ring1 {
        hub.push((c.as_str(), BLACK, Grunt));
    }
    let g3 = pos(Strategist, &hub);
    let strikes = g3
        .legal_actions(WHITE)
        .into_iter()
        .filter(|a| matches!(a, Action::Strike { .. }))
        .count() as u32;
    assert_eq!(strikes, spokes, "{text}");
    // Spiders' eyes allow a turncoat, no other throw does.
    spiders_eyes_agree(text);
    // The same position for the n-th time draws (R16).
    let nth = number_before(text, " time draws");
    let mut g = pos(Strategist, &[]);
    let shuffle = ["f5-e5", "l5-k5", "e5-f5", "k5-l5"];
    for ply in 0..4 * (nth - 1) {
        assert_eq!(g.outcome(), Outcome::Ongoing, "{text}");
        play(&mut g, shuffle[(ply % 4) as usize]);
    }
    assert!(matches!(g.outcome(), Outcome::Drawn { .. }), "{text}");
}

/// "spiders' eyes (1+1)": the throw a text names, the only one that allows a
/// turncoat.
fn spiders_eyes_agree(text: &str) {
    let throw = between(text, "spiders' eyes (", ")");
    let (a, b) = throw.split_once('+').unwrap();
    let eyes = [number(a).unwrap() as u8, number(b).unwrap() as u8];
    for dice in [[1, 1], [1, 2], [2, 1], [2, 2], [6, 6]] {
        let mut g = pos(Original, &[("c3", BLACK, Grunt)]);
        g.set_turn_dice(dice);
        let turncoat = g
            .legal_actions(WHITE)
            .iter()
            .any(|a| g.format(a).starts_with("turncoat"));
        assert_eq!(turncoat, dice == eyes, "{dice:?}: {text}");
    }
}

fn matron(text: &str) {
    rank_agrees(Matron, text);
    let reach = number_before(text, " spaces in one direction") as usize;
    let g = pos(Strategist, &[("c3", WHITE, Matron), ("f5", WHITE, Grunt)]);
    assert_eq!(
        moves_of(&g, "c3"),
        straight(&g, "c3", reach, &|_| false),
        "{text}"
    );
    // Over her own pieces, not the opponent's.
    let g = pos(
        Strategist,
        &[
            ("c3", WHITE, Matron),
            ("f5", WHITE, Grunt),
            ("d3", WHITE, Grunt),
        ],
    );
    assert!(moves_of(&g, "c3").contains(&"e3".into()), "{text}");
    let g = pos(
        Strategist,
        &[
            ("c3", WHITE, Matron),
            ("f5", WHITE, Grunt),
            ("d3", BLACK, Grunt),
        ],
    );
    assert!(!moves_of(&g, "c3").contains(&"e3".into()), "{text}");
    // The refusal that states her move says the same.
    if let Err(ActionError::Illegal(m)) = g.parse(WHITE, "c3-f3") {
        assert_eq!(number_after(&m, "moves up to ") as usize, reach, "{m}");
    } else {
        panic!("c3-f3 is beyond her reach");
    }
    // A turncoat never captures her.
    assert!(
        text.contains("can never be captured by a turncoat"),
        "{text}"
    );
    let mut g = pos(Original, &[("l4", BLACK, Grunt)]);
    g.set_turn_dice([1, 1]);
    assert!(!g
        .legal_actions(WHITE)
        .iter()
        .any(|a| g.format(a).contains("xl5")));
}

fn priestess(text: &str) {
    rank_agrees(Priestess, text);
    assert!(
        text.contains("any number of empty spaces in one direction"),
        "{text}"
    );
    let g = pos(
        Strategist,
        &[("c3", WHITE, Priestess), ("c5", BLACK, Grunt)],
    );
    let board = g.board();
    let taken = |c: Cell| g.piece(c).is_some();
    let _ = board;
    assert_eq!(moves_of(&g, "c3"), straight(&g, "c3", 99, &taken), "{text}");
}

fn wizard(text: &str) {
    rank_agrees(Wizard, text);
    let jump = number_before(text, " spaces along strands") as usize;
    let g = pos(Strategist, &[("c3", WHITE, Wizard), ("c2", BLACK, Grunt)]);
    let board = g.board();
    // Ends of paths of exactly `jump` strands visiting no space twice.
    let start = board.parse("c3").unwrap();
    let mut paths = vec![vec![start]];
    for _ in 0..jump {
        let mut longer = Vec::new();
        for p in &paths {
            for n in board.neighbours(*p.last().unwrap()) {
                if !p.contains(&n) {
                    let mut q = p.clone();
                    q.push(n);
                    longer.push(q);
                }
            }
        }
        paths = longer;
    }
    let expected = names(
        board,
        paths
            .iter()
            .map(|p| *p.last().unwrap())
            .filter(|&c| g.piece(c).is_none()),
    );
    let ends = names(
        board,
        g.legal_actions(WHITE).into_iter().filter_map(|a| match a {
            Action::Jump { to, .. } => Some(to),
            _ => None,
        }),
    );
    assert_eq!(ends, expected, "{text}");
}

fn blademaster(text: &str) {
    rank_agrees(Blademaster, text);
    let reach = number_before(text, " empty spaces in one direction each time") as usize;
    let g = pos(
        Strategist,
        &[("c3", WHITE, Blademaster), ("c5", BLACK, Grunt)],
    );
    let taken = |c: Cell| g.piece(c).is_some();
    assert_eq!(
        moves_of(&g, "c3"),
        straight(&g, "c3", reach, &taken),
        "{text}"
    );
    // Twice: after the first move he owes a second decision.
    let mut g = g.clone();
    play(&mut g, "c3-d3");
    assert!(g.pending().is_some(), "{text}");
    let m = refusal(&g, "d3-g3");
    assert_eq!(number_after(&m, "moves up to ") as usize, reach, "{m}");
    assert!(g.parse(WHITE, "end").is_ok());
}

fn grunt(text: &str) {
    rank_agrees(Grunt, text);
    let step = number_before(text, " space toward the closest opposing piece");
    let g = pos(Strategist, &[("c3", WHITE, Grunt), ("c5", BLACK, Grunt)]);
    assert_eq!(moves_of(&g, "c3"), ["c4"], "{step}: {text}");
    assert_eq!(step, 1);
    grunt_bonus_agrees(text);
}

/// The defender's Grunts (R12): each connected to the target adds to the
/// defence, the attacking piece itself never (a turned Grunt).
fn grunt_bonus_agrees(text: &str) {
    let each = number_before(text, " to the defence");
    // One Black Grunt beside the target: + each.
    let mut g = pos(
        Convenient,
        &[
            ("c3", WHITE, Grunt),
            ("c4", BLACK, Wizard),
            ("d4", BLACK, Grunt),
        ],
    );
    g.load_dice(&[1, 1]);
    assert_eq!(totals(&mut g, "c3 xc4").1, 1 + 3 + each, "{text}");
    // A turned Black Grunt attacking its own Wizard does not defend him.
    let mut g = pos(Convenient, &[("c3", BLACK, Grunt), ("c4", BLACK, Wizard)]);
    g.set_turn_dice([1, 1]);
    g.load_dice(&[1, 1]);
    assert_eq!(
        totals(&mut g, "turncoat c3 xc4").1,
        1 + 3,
        "the attacker adds nothing"
    );
    assert!(
        text.contains("not counting the attacker"),
        "a turned Grunt never adds to the defence of the piece it attacks; the text says every connected Grunt does:\n{text}"
    );
}

fn capture(text: &str) {
    assert!(
        text.contains("a failed capture leaves the attacker where its move ended"),
        "{text}"
    );
    let mut g = pos(
        Convenient,
        &[
            ("c1", WHITE, Priestess),
            ("c4", BLACK, Matron),
            ("l5", BLACK, Grunt),
        ],
    );
    g.load_dice(&[1, 6]);
    play(&mut g, "c1-c3 xc4");
    assert_eq!(g.piece_at("c3").map(|p| p.kind), Some(Priestess), "{text}");
    // It follows up on success, not the Wizard after his long move.
    let mut g = pos(Strategist, &[("c2", WHITE, Grunt), ("c3", BLACK, Grunt)]);
    play(&mut g, "c2 xc3");
    assert_eq!(g.piece_at("c3").map(|p| p.seat), Some(WHITE), "{text}");
}

fn turncoat(text: &str) {
    spiders_eyes_agree(text);
    assert!(text.contains("never the Matron"), "{text}");
    // A turned Grunt is not promoted.
    assert!(text.contains("is not promoted"), "{text}");
    let mut g = pos(Strategist, &[("e4", BLACK, Grunt)]);
    g.set_lost(BLACK, &[Wizard]);
    g.set_turn_dice([1, 1]);
    let turned: Vec<Action> = g
        .legal_actions(WHITE)
        .into_iter()
        .filter(|a| matches!(a, Action::Move { turncoat: true, from, .. } if g.board().name(*from) == "e4"))
        .collect();
    assert!(
        turned.iter().any(|a| g.format(a) == "turncoat e4-e5"),
        "{turned:?}"
    );
    assert!(
        turned
            .iter()
            .all(|a| matches!(a, Action::Move { promote: None, .. })),
        "{text}"
    );
}

fn punishment(text: &str) {
    assert!(text.contains("of lower rank"), "{text}");
    assert!(text.contains("It always succeeds"), "{text}");
    let mut g = pos(Convenient, &[("c3", WHITE, Wizard), ("c4", WHITE, Grunt)]);
    g.load_dice(&[1, 6]);
    play(&mut g, "c3 xc4");
    assert_eq!(g.piece_at("c4").map(|p| p.kind), Some(Wizard), "{text}");
    let g = pos(Convenient, &[("c3", WHITE, Wizard), ("c4", WHITE, Wizard)]);
    assert!(g.parse(WHITE, "c3 xc4").is_err(), "equal rank: {text}");
}

fn web(text: &str) {
    let g = Arachne::new(Original, &WebLayout::STANDARD, 1).unwrap();
    let board = g.board();
    let spaces = number_before(text, " spaces.");
    assert_eq!(board.len() as u32, spaces, "{text}");
    let spokes = number_before(text, " spokes (a-");
    let rings = number_before(text, " rings around a hub");
    assert_eq!(spokes * rings + 1, spaces, "{text}");
    // The back rows as listed: "White: e5 W, f5 M, g5 P, h5 W; Black: ...".
    for (seat, side) in [(WHITE, "White: "), (BLACK, "Black: ")] {
        let list = between(text, side, if seat == WHITE { ";" } else { "." });
        for item in list.split(", ") {
            let (cell, letter) = item.split_once(' ').unwrap();
            let kind = Kind::from_letter(letter.chars().next().unwrap()).unwrap();
            let p = g.piece_at(cell).unwrap_or_else(|| panic!("{cell}: {text}"));
            assert_eq!((p.seat, p.kind), (seat, kind), "{cell}: {text}");
        }
    }
    // Each ring of the zone, spoke by spoke clockwise (White's e, f, g, h),
    // and the same pieces in Black's zone.
    let rows = between(text, "spoke by spoke clockwise, ", ". White:");
    for row in rows.split("; ") {
        let (ring, kinds) = row.split_once(": ").unwrap();
        let ring = number_after(ring, "ring ");
        let said: Vec<&str> = kinds.split(", ").collect();
        let on = |seat: Seat| {
            let mut v: Vec<(String, &'static str)> = g
                .pieces_of(seat)
                .map(|(c, p)| (board.name(c), p.kind.name()))
                .filter(|(n, _)| number(&n[1..]) == Some(ring))
                .collect();
            v.sort();
            v
        };
        let white: Vec<&str> = on(WHITE).into_iter().map(|(_, k)| k).collect();
        assert_eq!(white, said, "ring {ring}: {text}");
        let mut black: Vec<&str> = on(BLACK).into_iter().map(|(_, k)| k).collect();
        let mut said = said.clone();
        black.sort();
        said.sort();
        assert_eq!(black, said, "ring {ring}: {text}");
    }
}

/// The dice a variant's page names ("d6", "eight-sided", "2d8") against the
/// faces thrown; "every capture succeeds" against a capture that would fail
/// under the dice.
fn dice_of(rules: CaptureRules, text: &str) {
    let sides: u8 = if text.contains("on 2d") {
        number(between(text, "on 2d", ")")).unwrap() as u8
    } else {
        number(between(text, "(d", ")")).unwrap() as u8
    };
    let mut seen = Vec::new();
    for seed in 0..60u64 {
        let g = Arachne::new(rules, &WebLayout::STANDARD, seed).unwrap();
        seen.extend(g.turn_dice());
    }
    assert!(seen.iter().all(|&d| (1..=sides).contains(&d)), "{text}");
    assert!(seen.contains(&sides), "{text}");
    if text.contains("every capture succeeds") {
        let mut g = pos(rules, &[("c3", WHITE, Grunt), ("c4", BLACK, Priestess)]);
        g.load_dice(&[1, 6]);
        play(&mut g, "c3 xc4");
        assert_eq!(g.piece_at("c4").map(|p| p.seat), Some(WHITE), "{text}");
    }
    option_help_agrees(rules);
}

/// The `variant` option's help says which dice each variant throws.
fn option_help_agrees(rules: CaptureRules) {
    let help = GameKind::Arachne.options()[0].help;
    let said = between(help, &format!("{} (", rules.slug()), ")");
    let mut o = Options::new();
    o.insert("variant".into(), rules.slug().into());
    let g = Arachne::setup(&o, 1).unwrap();
    if rules == Strategist {
        assert!(said.contains("always succeed"), "{help}");
    } else {
        assert!(said.contains(&format!("d{}", rules.sides())), "{help}");
    }
    assert_eq!(g.rules_variant(), rules);
}

fn convenient(text: &str) {
    dice_of(Convenient, text);
    // "Equal or higher: the capture succeeds."
    assert!(
        text.contains("Equal or higher: the capture succeeds"),
        "{text}"
    );
    let mut g = pos(Convenient, &[("c3", WHITE, Grunt), ("c4", BLACK, Grunt)]);
    g.load_dice(&[4, 4]);
    play(&mut g, "c3 xc4");
    assert_eq!(g.piece_at("c4").map(|p| p.seat), Some(WHITE), "{text}");
    assert!(text.contains("Punishment needs no roll"), "{text}");
    let eyes = between(text, "Spiders' eyes on ", ".");
    assert_eq!(eyes, format!("2d{}", Convenient.sides()), "{text}");
    grunt_bonus_agrees(text);
}
