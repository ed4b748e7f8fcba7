//! Tokar's Arcana: setup, each unit's moves and abilities, and every ruling
//! of engine/rules/arcana.md (cited as R<n>), on hand-set positions.

use tokar_engine::arcana::{Action, Arcana, Pending, Unit, BOARD};
use tokar_engine::catalog::{AnyGame, GameKind, Options, Variant};
use tokar_engine::{ActionError, Cell, Event, Game, Outcome, Seat, StatusKind, Viewer};

fn c(name: &str) -> Cell {
    BOARD.parse(name).unwrap()
}

fn pos(text: &str) -> Arcana {
    Arcana::from_text(text).unwrap_or_else(|e| panic!("bad position '{text}': {e}"))
}

/// Plays `text` for the seat the game waits for; panics if refused.
fn play(g: &mut Arcana, text: &str) -> Vec<Event> {
    let seat = g.to_act()[0];
    let action = g
        .parse(seat, text)
        .unwrap_or_else(|e| panic!("'{text}' refused: {e}\n{}", g.to_text()));
    g.play(seat, &action).unwrap()
}

/// The refusal of `text` for the seat to act; checks the game did not change.
fn refuse(g: &mut Arcana, text: &str) -> ActionError {
    let seat = g.to_act()[0];
    let before = g.clone();
    let err = g.parse(seat, text).expect_err(text);
    assert_eq!(*g, before);
    err
}

fn legal(g: &Arcana) -> Vec<String> {
    let seat = g.to_act()[0];
    g.legal_actions(seat).iter().map(|a| g.format(a)).collect()
}

fn has(g: &Arcana, text: &str) -> bool {
    legal(g).iter().any(|t| t == text)
}

fn unit(g: &Arcana, cell: &str) -> Option<(Unit, u8)> {
    g.at(c(cell)).map(|p| (p.unit, p.owner.0))
}

fn start() -> Arcana {
    let mut o = Options::new();
    o.insert("first".into(), "creator".into());
    Arcana::setup(&o, 1).unwrap()
}

// ---- setup ----

#[test]
fn armies_stand_as_in_figure_1_1_from_each_owners_side() {
    let g = start();
    assert_eq!(
        g.to_text(),
        "mztnqtzm/ssssssss/8/8/8/8/IIIIIIII/WKPDBAKW 0",
        "the Undead's left is h8: Mummy h8 ... General d8 (as Undead Arcana's D8 Necromancer)"
    );
    assert_eq!(g.seat_name(Seat(0)), "Human");
    assert_eq!(g.seat_name(Seat(1)), "Undead");
    assert_eq!(unit(&g, "e1"), Some((Unit::BattleMage, 0)));
    assert_eq!(unit(&g, "d8"), Some((Unit::Necromancer, 1)));
}

#[test]
fn first_player_follows_the_option_or_the_seed() {
    let mut seen = [false; 2];
    for seed in 0..20 {
        let g = Arcana::setup(&Options::new(), seed).unwrap();
        seen[g.turn().index()] = true;
        assert_eq!(g, Arcana::setup(&Options::new(), seed).unwrap());
    }
    assert_eq!(seen, [true, true], "random first player");
    let mut o = Options::new();
    o.insert("first".into(), "opponent".into());
    assert_eq!(Arcana::setup(&o, 3).unwrap().turn(), Seat(1));
    o.insert("first".into(), "sometimes".into());
    assert!(Arcana::setup(&o, 3).is_err());
    let mut o = Options::new();
    o.insert("army.1".into(), "elves".into());
    assert!(Arcana::setup(&o, 3).is_err());
    assert!(Arcana::seating(3).is_err());
    assert_eq!(Arcana::seating(2).unwrap().len(), 2);
}

#[test]
fn the_catalog_plays_arcana_in_notation() {
    let mut o = Options::new();
    o.insert("first".into(), "creator".into());
    let mut g = AnyGame::setup(GameKind::Arcana, &o, 9).unwrap();
    assert_eq!(g.kind(), GameKind::Arcana);
    assert!(GameKind::Arcana.available());
    assert!(g.legal_actions(Seat(0)).contains(&"e2-e3".to_string()));
    assert!(g.legal_actions(Seat(1)).is_empty());
    g.play(Seat(0), "e2-e3").unwrap();
    assert_eq!(g.to_act(), vec![Seat(1)]);
    assert!(matches!(
        g.play(Seat(0), "e3-e4"),
        Err(ActionError::NotYourTurn(_))
    ));
    assert!(GameKind::Arcana
        .rules(Some("mummy"))
        .unwrap()
        .contains("tomb gas"));
    assert!(GameKind::Arcana.rules(None).unwrap().contains("General"));
    assert!(GameKind::Arcana.rules(Some("dragon")).is_err());
}

#[test]
fn view_shows_glyphs_graveyards_statuses_and_turns_the_board() {
    let mut g = pos("3n4/8/8/8/8/1m6/1I6/4B3 0 g0:I");
    g.set_tokens(c("e1"), 2);
    let v = g.view(Viewer::Seat(Seat(0)));
    assert_eq!(v.rotation, 0.0);
    assert_eq!(g.view(Viewer::Seat(Seat(1))).rotation, 180.0);
    assert_eq!(g.view(Viewer::Spectator).rotation, 0.0);
    let ids: Vec<&str> = v.pieces.iter().map(|p| p.glyph.unit.as_str()).collect();
    assert!(ids.contains(&"battle-mage") && ids.contains(&"necromancer") && ids.contains(&"mummy"));
    assert_eq!(v.seats[0].lost[0].unit, "imperial-warrior");
    let warrior = v.pieces.iter().find(|p| p.cell == c("b2")).unwrap();
    assert_eq!(warrior.statuses[0].kind, StatusKind::Paralysed);
    let mage = v.pieces.iter().find(|p| p.cell == c("e1")).unwrap();
    assert_eq!(mage.statuses[0].kind, StatusKind::Firebrew);
    assert_eq!(mage.statuses[0].count, Some(2));
    let all: Vec<String> = Unit::ALL.iter().map(|u| u.id().to_string()).collect();
    assert_eq!(
        all,
        [
            "imperial-warrior",
            "blue-knight",
            "wind-mage",
            "priest-of-the-winds",
            "alchemist",
            "duelist",
            "battle-mage",
            "skeleton",
            "zombie",
            "mummy",
            "tomb-keeper",
            "dark-priest",
            "necromancer"
        ]
    );
}

#[test]
fn every_listed_action_round_trips_through_notation() {
    let g = start();
    for seat in [Seat(0)] {
        for a in g.legal_actions(seat) {
            let t = g.format(&a);
            assert_eq!(g.parse(seat, &t).unwrap(), a, "{t}");
        }
    }
}

#[test]
fn bad_text_is_a_syntax_error_and_forbidden_moves_are_illegal() {
    let mut g = start();
    assert!(matches!(refuse(&mut g, "e9-e10"), ActionError::Syntax(_)));
    assert!(matches!(refuse(&mut g, "hello"), ActionError::Syntax(_)));
    assert!(matches!(refuse(&mut g, ""), ActionError::Syntax(_)));
    assert!(matches!(refuse(&mut g, "bolt a1"), ActionError::Syntax(_)));
    match refuse(&mut g, "e2-e4") {
        ActionError::Illegal(m) => assert!(m.contains("Imperial Warrior"), "{m}"),
        e => panic!("{e:?}"),
    }
    match refuse(&mut g, "e7-e6") {
        ActionError::Illegal(m) => assert!(m.contains("not yours"), "{m}"),
        e => panic!("{e:?}"),
    }
    match refuse(&mut g, "e4-e5") {
        ActionError::Illegal(m) => assert!(m.contains("no model"), "{m}"),
        e => panic!("{e:?}"),
    }
}

// ---- each unit's moves and kills ----

#[test]
fn imperial_warrior_moves_forward_and_kills_without_moving() {
    // Warrior d4; Zombie c5 (higher rank, diagonal), Tomb Keeper e5 (immune).
    let mut g = pos("3n4/8/8/2z1t3/3I4/8/8/4B3 0");
    let l = legal(&g);
    assert!(l.contains(&"d4-d5".into()) && l.contains(&"d4xc5".into()));
    assert!(
        !l.contains(&"d4xe5".into()),
        "Tomb Keeper: no soldier may kill him"
    );
    assert!(!l.contains(&"d4-d3".into()), "only forward");
    match refuse(&mut g, "d4xe5") {
        ActionError::Illegal(m) => assert!(m.contains("cannot be killed by soldier"), "{m}"),
        e => panic!("{e:?}"),
    }
    play(&mut g, "d4xc5");
    assert_eq!(
        unit(&g, "d4"),
        Some((Unit::ImperialWarrior, 0)),
        "he does not move to attack"
    );
    assert!(g.at(c("c5")).is_none());
    assert_eq!(g.graveyard(Seat(1)), &[Unit::Zombie]);
    // A soldier straight ahead: only a soldier class model (not a higher one).
    let g = pos("3n4/8/8/3z4/3I4/8/8/4B3 0");
    assert!(!has(&g, "d4xd5"), "straight ahead only soldiers");
    // Undead side moves the other way (R5): a Human warrior of seat 1 in a
    // Human vs Human game goes down the board.
    let g = pos("3b4/8/8/3i4/8/8/8/4B3 1");
    assert!(has(&g, "d5-d4") && !has(&g, "d5-d6"));
}

#[test]
fn blue_knight_jumps_in_an_l_and_kills_where_he_lands() {
    let mut g = pos("3n4/8/8/8/8/2s5/3I4/1K2B3 0");
    let l = legal(&g);
    for t in ["b1-a3", "b1-c3", "b1-d2"] {
        assert!(l.contains(&t.to_string()), "{t} in {l:?}");
    }
    play(&mut g, "b1-c3");
    assert_eq!(unit(&g, "c3"), Some((Unit::BlueKnight, 0)));
    assert_eq!(g.graveyard(Seat(1)), &[Unit::Skeleton]);
}

#[test]
fn wind_mage_teleports_diagonally_and_bolts_three_ahead() {
    let mut g = pos("3n4/8/8/8/3s4/1I6/8/3W2B1 0");
    let l = legal(&g);
    assert!(
        l.contains(&"d1-f3".into()) && l.contains(&"d1-b3".into()) && l.contains(&"d1-c2".into())
    );
    assert!(l.contains(&"bolt d1>d4".into()));
    play(&mut g, "bolt d1>d4");
    assert!(g.at(c("d4")).is_none());
    assert_eq!(unit(&g, "d1"), Some((Unit::WindMage, 0)));
}

#[test]
fn priest_moves_and_kills_adjacent_soldiers_only() {
    let g = pos("3n4/8/8/8/2sz4/3P4/8/6B1 0");
    let l = legal(&g);
    assert!(l.contains(&"d3xc4".into()), "a Skeleton is a soldier");
    assert!(!l.contains(&"d3xd4".into()), "a Zombie ranks above soldier");
    assert!(l.contains(&"d3-e3".into()));
    let mut g = g;
    match refuse(&mut g, "d3xd4") {
        ActionError::Illegal(m) => assert!(m.contains("above soldier"), "{m}"),
        e => panic!("{e:?}"),
    }
}

#[test]
fn duelist_rides_until_obstructed_and_fires_at_an_adjacent_model() {
    let mut g = pos("3n4/8/3s4/8/8/8/8/3D2B1 0");
    let l = legal(&g);
    assert!(
        l.contains(&"d1-d5".into()) && !l.contains(&"d1-d6".into()) && !l.contains(&"d1-d7".into())
    );
    assert!(l.contains(&"d1-d5xd6".into()));
    assert!(l.contains(&"d1-h5".into()));
    play(&mut g, "d1-d5xd6");
    assert_eq!(unit(&g, "d5"), Some((Unit::Duelist, 0)));
    assert!(g.at(c("d6")).is_none());
}

#[test]
fn battle_mage_rides_one_square_and_kills() {
    let mut g = pos("3n4/8/8/8/8/3s4/8/4B3 0");
    let l = legal(&g);
    assert!(l.contains(&"e1-e2".into()) && l.contains(&"e1-e2xd3".into()));
    assert!(!l.contains(&"e1xd3".into()), "d3 is not adjacent to e1");
    play(&mut g, "e1-d2xd3");
    assert_eq!(unit(&g, "d2"), Some((Unit::BattleMage, 0)));
    assert!(g.at(c("d3")).is_none());
}

#[test]
fn skeleton_walks_forward_and_kills_by_moving_in() {
    let mut g = pos("3n4/8/8/8/3s4/3I4/8/4B3 1");
    assert!(has(&g, "d4-d3"));
    play(&mut g, "d4-d3");
    assert_eq!(unit(&g, "d3"), Some((Unit::Skeleton, 1)));
    assert_eq!(g.graveyard(Seat(0)), &[Unit::ImperialWarrior]);
    // Skeletons may not kill Skeletons or Tomb Keepers (soldier class attack).
    let g = pos("3n4/8/8/8/3s4/3t4/8/4B3 1");
    assert!(!has(&g, "d4-d3"));
}

#[test]
fn zombie_moves_two_orthogonal_squares_turning_without_hopping() {
    let g = pos("3n4/8/8/8/3z4/3I4/8/4B3 1");
    let l = legal(&g);
    assert!(l.contains(&"d4-d3".into()), "kills by moving in");
    assert!(!l.contains(&"d4-d2".into()), "no hopping over d3");
    assert!(
        l.contains(&"d4-c3".into()) && l.contains(&"d4-e5".into()) && l.contains(&"d4-d6".into())
    );
    // Blocked on both sides of a corner: no way around.
    let g = pos("3n4/8/8/8/2Iz4/3I4/8/4B3 1");
    let l = legal(&g);
    assert!(l.contains(&"d4-e3".into()), "around by e4");
    assert!(!l.contains(&"d4-b4".into()), "no hopping over c4");
}

#[test]
fn mummy_moves_orthogonally_and_kills_by_moving_in() {
    let mut g = pos("3n4/8/8/8/8/3I4/3m4/6B1 1");
    let l = legal(&g);
    assert!(
        l.contains(&"d2-d3".into()) && l.contains(&"d2-c2".into()) && !l.contains(&"d2-c3".into())
    );
    play(&mut g, "d2-d3");
    assert_eq!(unit(&g, "d3"), Some((Unit::Mummy, 1)));
}

#[test]
fn tomb_keeper_moves_or_kills_but_not_both() {
    let g = pos("3n4/8/8/8/3t4/3I4/8/6B1 1");
    let l = legal(&g);
    assert!(l.contains(&"d4xd3".into()) && l.contains(&"d4-e4".into()));
    assert!(
        !l.iter().any(|t| t.starts_with("d4-") && t.contains('x')),
        "R6: no move-then-kill"
    );
}

#[test]
fn dark_priest_never_moves_and_kills_all_adjacent_enemies() {
    let mut g = pos("3n4/8/8/8/2IKs3/3q4/8/6B1 1");
    let l = legal(&g);
    assert!(
        !l.iter().any(|t| t.starts_with("d3-")),
        "a Dark Priest may not move"
    );
    play(&mut g, "smite d3");
    assert!(g.at(c("c4")).is_none() && g.at(c("d4")).is_none());
    assert_eq!(
        unit(&g, "e4"),
        Some((Unit::Skeleton, 1)),
        "allies are spared"
    );
}

#[test]
fn necromancer_moves_or_kills_an_adjacent_model() {
    let mut g = pos("8/8/8/8/3n4/3I4/8/6B1 1");
    let l = legal(&g);
    assert!(l.contains(&"d4xd3".into()) && l.contains(&"d4-e5".into()));
    play(&mut g, "d4xd3");
    assert!(g.at(c("d3")).is_none());
}

#[test]
fn killing_the_general_ends_the_game() {
    let mut g = pos("3n4/8/8/8/8/8/4s3/4B3 1");
    // A Skeleton kills the Battle Mage (Generals are not immune).
    play(&mut g, "e2-e1");
    match g.outcome() {
        Outcome::Won { winners, reason } => {
            assert_eq!(winners, vec![Seat(1)]);
            assert!(reason.contains("Battle Mage"), "{reason}");
        }
        o => panic!("{o:?}"),
    }
    assert!(g.to_act().is_empty());
    assert!(matches!(
        g.parse(Seat(0), "e1-e2"),
        Err(ActionError::GameOver)
    ));
}
