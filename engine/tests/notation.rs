//! How players' typing is read across the games: the compact forms of a move
//! (`e2e4`, `e2 e4`) read as the written `e2-e4` wherever a move is written
//! `a-b`; a move written past its end (`b1-c3-d4`) is refused naming the
//! part that is too many; and a misspelt rules topic is answered with the
//! nearest one. Every written form still reads as before (stored games
//! replay their recorded action strings).

use tokar_engine::arcana::Arcana;
use tokar_engine::catalog::{AnyGame, GameKind, Options};
use tokar_engine::{Game, Seat};

fn game(kind: GameKind) -> AnyGame {
    let mut options = Options::new();
    if kind == GameKind::Arcana {
        options.insert("army.0".into(), "human".into());
        options.insert("army.1".into(), "undead".into());
    }
    AnyGame::setup(kind, &options, 11).expect("sets up")
}

/// Whether `s` is one square or space name: a letter and its digits.
fn is_name(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|l| l.is_ascii_lowercase())
        && !c.as_str().is_empty()
        && c.all(|d| d.is_ascii_digit())
}

/// The first seat to act and one of its legal plain moves `a-b`.
fn plain_move(g: &AnyGame) -> (Seat, String, String, String) {
    for seat in g.to_act() {
        for a in g.legal_actions(seat) {
            let a = a.strip_prefix("king: ").unwrap_or(&a).to_string();
            if let Some((from, to)) = a.split_once('-') {
                if is_name(from) && is_name(to) {
                    return (seat, a.clone(), from.into(), to.into());
                }
            }
        }
    }
    panic!("{:?} has no plain move to try", g.kind());
}

fn read(g: &AnyGame, seat: Seat, text: &str) -> String {
    g.normalize(seat, text)
        .unwrap_or_else(|e| panic!("{:?}: '{text}' is refused: {e}", g.kind()))
}

fn refusal(g: &AnyGame, seat: Seat, text: &str) -> String {
    match g.normalize(seat, text) {
        Ok(n) => panic!("{:?}: '{text}' read as {n}", g.kind()),
        Err(e) => e.to_string(),
    }
}

/// Every grid game, and Arachne's web (whose spaces are named like squares,
/// `c3`, or `hub`), reads a move's squares run together or apart.
#[test]
fn compact_moves_read_as_the_written_move_in_every_game() {
    for kind in GameKind::ALL {
        let g = game(kind);
        let (seat, written, from, to) = plain_move(&g);
        assert_eq!(read(&g, seat, &written), written, "{kind:?}");
        for typed in [
            format!("{from}{to}"),
            format!("{from} {to}"),
            format!("  {} {}  ", from.to_uppercase(), to.to_uppercase()),
            format!("{from} - {to}"),
        ] {
            assert_eq!(read(&g, seat, &typed), written, "{kind:?}: '{typed}'");
        }
    }
}

#[test]
fn arcana_reads_a_kill_written_apart() {
    // A Zombie in front of an Imperial Warrior, the Generals far apart.
    let a = Arcana::from_text("4n3/8/8/8/8/4z3/4I3/4B3 0").expect("position");
    let g = AnyGame::Arcana(a);
    let kill = g
        .legal_actions(Seat(0))
        .into_iter()
        .find(|a| a.len() == 5 && a.as_bytes()[2] == b'x')
        .expect("a kill without moving");
    let (from, target) = kill.split_once('x').unwrap();
    for typed in [
        format!("{from} x{target}"),
        format!("{from} x {target}"),
        format!("{from}x{target}"),
    ] {
        assert_eq!(read(&g, Seat(0), &typed), kill, "'{typed}'");
    }
}

#[test]
fn arachne_reads_a_wizards_path_run_together_or_apart() {
    let g = game(GameKind::Arachne);
    let seat = g.to_act()[0];
    let Some(jump) = g
        .legal_actions(seat)
        .into_iter()
        .find(|a| a.split('-').count() == 4 && !a.contains(' '))
    else {
        panic!("no three-space move at the start")
    };
    let spaces: Vec<&str> = jump.split('-').collect();
    assert_eq!(read(&g, seat, &spaces.concat()), jump);
    assert_eq!(read(&g, seat, &spaces.join(" ")), jump);
}

/// `b1-c3-d4` names the part that is one too many, in every game.
#[test]
fn a_move_past_its_end_names_the_extra_square() {
    let cases = [
        (GameKind::Arcana, "b1-c3-d4", "'-d4' is one too many"),
        (GameKind::Arcana, "d1xe2-d2-d3", "'-d3' is one too many"),
        (GameKind::MagicChess, "b1-c3-d4", "'-d4' is one too many"),
        (GameKind::Gladiator, "b1-c3-d4", "'-d4' is one too many"),
        (GameKind::Gladiator, "b1-c3xd4", "'xd4' is one too many"),
        (GameKind::Arachne, "e5-e4-e3", "without -e3"),
        (GameKind::Arachne, "e5-e4-e3-e2-e1", "'-e1' is too many"),
    ];
    for (kind, typed, says) in cases {
        let g = game(kind);
        let seat = g.to_act()[0];
        let why = refusal(&g, seat, typed);
        assert!(why.contains(says), "{kind:?} '{typed}': {why}");
        assert!(why.contains(typed), "{kind:?} quotes what was typed: {why}");
    }
}

/// The written notation reads as it always has: a game's own formatting of
/// each legal action reads back to itself.
#[test]
fn every_written_action_still_reads() {
    for kind in GameKind::ALL {
        let g = game(kind);
        for seat in g.to_act() {
            for a in g.legal_actions(seat) {
                assert_eq!(read(&g, seat, &a), a, "{kind:?}");
            }
        }
    }
}

/// A misspelt rules topic or unit is answered with the nearest one.
#[test]
fn a_misspelt_rules_topic_gets_did_you_mean() {
    let cases = [
        (GameKind::Arcana, "blue-knigth", "Did you mean blue-knight?"),
        (GameKind::Arcana, "necromacer", "Did you mean necromancer?"),
        (GameKind::Arcana, "rullings", "Did you mean rulings?"),
        (GameKind::Gladiator, "champoin", "Did you mean champion?"),
        (GameKind::MagicChess, "fary", "Did you mean fairy?"),
        (GameKind::Arachne, "matorn", "Did you mean matron?"),
    ];
    for (kind, typed, says) in cases {
        let why = kind.rules(Some(typed)).expect_err(typed);
        assert!(why.contains(says), "{kind:?} '{typed}': {why}");
    }
    // A unit or a promotion misspelt in an action.
    let arcana = game(GameKind::Arcana);
    let why = refusal(&arcana, arcana.to_act()[0], "promote a8=blue-knigth");
    assert!(why.contains("Did you mean blue-knight?"), "{why}");
    let magic = game(GameKind::MagicChess);
    let why = refusal(&magic, magic.to_act()[0], "b7-b8=fary");
    assert!(why.contains("Did you mean fairy?"), "{why}");
    let far = GameKind::Arcana.rules(Some("dragon")).expect_err("dragon");
    assert!(!far.contains("Did you mean"), "{far}");
}

/// The rulings page lists every ruling of engine/rules/arcana.md, read from
/// the file itself.
#[test]
fn arcana_rulings_follow_the_rules_page() {
    let page = include_str!("../rules/arcana.md");
    let list = GameKind::Arcana.rules(Some("rulings")).expect("rulings");
    let mut seen = 0;
    for para in page.split("\n\n") {
        let Some(rest) = para.trim_start().strip_prefix("**") else {
            continue;
        };
        let id: String = rest.chars().take_while(|c| *c != '.').collect();
        if id.len() < 2
            || !matches!(id.as_bytes()[0], b'R' | b'U')
            || !id[1..].chars().all(|c| c.is_ascii_digit())
        {
            continue;
        }
        assert!(list.contains(&format!("{id}.")), "{id} missing: {list}");
        seen += 1;
    }
    assert!(seen > 30, "only {seen} rulings found");
}

/// Gladiator's override reads with or without the space after `king:`,
/// and with its squares run together.
#[test]
fn gladiator_override_reads_in_every_spacing() {
    let mut g = game(GameKind::Gladiator);
    let king = Seat(0);
    // The King moves first; then the Queen's move can be overridden.
    let (seat, first, _, _) = plain_move(&g);
    assert_eq!(seat, king);
    match &mut g {
        AnyGame::Gladiator(gl) => {
            let a = gl.parse(seat, &first).expect("reads");
            gl.play(seat, &a).expect("plays");
        }
        _ => unreachable!(),
    }
    let Some(over) = g
        .legal_actions(king)
        .into_iter()
        .find(|a| a.starts_with("king: ") && a.contains('-'))
    else {
        panic!("no override to try")
    };
    let (from, to) = over["king: ".len()..].split_once('-').unwrap();
    for typed in [
        format!("king:{from}-{to}"),
        format!("King: {from}{to}"),
        format!("king: {from} {to}"),
    ] {
        assert_eq!(read(&g, king, &typed), over, "'{typed}'");
    }
}
