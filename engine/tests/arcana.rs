//! Tokar's Arcana: setup, each unit's moves and abilities, and every ruling
//! of engine/rules/arcana.md (cited as R<n>), on hand-set positions.

use tokar_engine::arcana::{Arcana, Pending, Unit};
use tokar_engine::catalog::{AnyGame, GameKind, Options, Variant};
use tokar_engine::{ActionError, Game, Outcome, Seat, StatusKind, Viewer};

mod common;
use common::arcana::*;

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
    // R23: each army from its owner's side.
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
    for bad in ["army.2", "first.1", "colour"] {
        let mut o = Options::new();
        o.insert(bad.into(), "human".into());
        assert!(Arcana::setup(&o, 3).is_err(), "{bad}");
    }
    assert_eq!(Arcana::seating(2).unwrap().len(), 2);
}

#[test]
fn the_catalog_plays_arcana_in_notation() {
    // R28: the unit cards and rulings are served by /rules.
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
    let rulings = GameKind::Arcana.rules(Some("rulings")).unwrap();
    assert!(
        rulings.contains("R1. ") && rulings.contains("R17. "),
        "{rulings}"
    );
    for u in Unit::ALL {
        assert!(Arcana::rules(Some(u.id())).unwrap().starts_with(u.name()));
        assert!(Arcana::rules(Some(u.name())).is_ok());
    }
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
            "necromancer",
            "ghoul",
            "ghost",
            "cultist",
            "wraith",
            "vampire",
            "lich"
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
    // R25: straight ahead only soldiers, diagonally only higher ranks; R5.
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
    // R26: the Duelist stops before the first model; R6: he may move then fire.
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
    // R26: two orthogonal steps, turning, no hopping, stopping at a victim.
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

// ---- rulings ----

#[test]
fn r1_a_blue_knight_may_land_on_an_ally_and_kill_it() {
    let mut g = board("Be1 Kb1 Id2 nd8", "0");
    play(&mut g, "b1-d2");
    assert_eq!(unit(&g, "d2"), Some((Unit::BlueKnight, 0)));
    assert_eq!(g.graveyard(Seat(0)), &[Unit::ImperialWarrior]);
}

#[test]
fn r1_r20_a_zombie_that_kills_an_ally_raises_nothing() {
    let mut g = board("Be1 nd8 zd5 sd4", "1 g1:s");
    play(&mut g, "d5-d4");
    assert!(g.pending().is_none(), "no recruit after killing an ally");
    assert_eq!(g.turn(), Seat(0));
}

#[test]
fn r2_no_action_may_kill_the_own_general() {
    // The Wind Mage could teleport onto his own Battle Mage; he may not.
    let mut g = board("Wc3 Be1 nd8", "0");
    assert!(!has(&g, "c3-e1"));
    assert!(illegal(&mut g, "c3-e1").contains("own General"));
    // Nor may a firebrew be thrown at him.
    let g = board("Af1 Be1 nd8", "0");
    assert!(!has(&g, "brew f1>e1") && has(&g, "f1-g1"));
    // Nor an explosion go off next to the own Necromancer.
    let mut g = board("Be1 qe8 nd8 ze7 zb5 Ib4", "1");
    assert!(!has(&g, "explode e8>e7"));
    assert!(has(&g, "explode e8>b5"));
    assert!(illegal(&mut g, "explode e8>e7").contains("R2"));
}

#[test]
fn r3_models_may_walk_off_the_board_and_die_but_not_generals() {
    let mut g = board("Be1 Kb1 Af1 nd8", "0");
    assert!(has(&g, "b1-off"));
    assert!(!has(&g, "e1-off"), "R2");
    assert!(!has(&g, "f1-off"), "the Alchemist keeps to his back ranks");
    play(&mut g, "b1-off");
    assert!(g.at(c("b1")).is_none());
    assert_eq!(g.graveyard(Seat(0)), &[Unit::BlueKnight]);
    // A Duelist rides off only along a free line.
    let g = board("Be1 Dd4 Id5 nd8", "0");
    assert!(has(&g, "d4-off"));
}

#[test]
fn r4_the_bolt_needs_a_model_on_its_square() {
    let g = board("Wa1 Be1 nd8", "0");
    assert!(!legal(&g).iter().any(|t| t.starts_with("bolt")));
    let g = board("Wa1 Ia4 Be1 nd8", "0");
    assert!(has(&g, "bolt a1>a4"), "an ally may be struck (R1)");
}

#[test]
fn r5_ahead_is_toward_the_enemy_lines_for_each_side() {
    // A Wind Mage of seat 1 (Human vs Human) bolts down the board.
    let g = board("Be1 bd8 wa8 Ia5", "1");
    assert!(has(&g, "bolt a8>a5"));
    let g = board("Be1 nd8 Wa4 sa7", "0");
    assert!(has(&g, "bolt a4>a7"));
    let g = board("Be1 nd8 Wa4 sa1", "0");
    assert!(!has(&g, "bolt a4>a1"), "never backwards");
}

#[test]
fn r6_the_priest_may_move_then_kill_the_necromancer_may_not() {
    let g = board("Pc3 Be1 nd8 se5", "0");
    assert!(has(&g, "c3-d4xe5"));
    let g = board("Bh1 nd4 Ie6", "1");
    let l = legal(&g);
    assert!(!l.iter().any(|t| t.starts_with("d4-") && t.contains('x')));
    assert!(has(&g, "d4-d5"));
}

#[test]
fn r7_a_killed_priest_is_revived_by_his_owner_on_the_opponents_turn_once() {
    let mut g = board("Pc3 Be1 nd8 td4", "1");
    play(&mut g, "d4xc3");
    assert_eq!(
        g.to_act(),
        vec![Seat(0)],
        "the Human decides, on the Undead turn"
    );
    assert!(matches!(g.pending(), Some(Pending::PriestRevival { .. })));
    assert!(g.legal_actions(Seat(1)).is_empty());
    assert!(has(&g, "decline") && has(&g, "place h8"));
    assert!(illegal(&mut g, "place d4").contains("not empty"));
    play(&mut g, "place a1");
    assert_eq!(unit(&g, "a1"), Some((Unit::PriestOfTheWinds, 0)));
    assert!(g.graveyard(Seat(0)).is_empty());
    assert_eq!(g.turn(), Seat(0), "the Undead turn ended after the revival");
    let v = g.view(Viewer::Spectator);
    assert!(v.seats[0].notes.iter().any(|n| n.contains("revival used")));
    // Killed again: no second revival.
    play(&mut g, "e1-e2");
    let mut g2 = g.clone();
    play(&mut g2, "d4-c3");
    play(&mut g2, "a1-b1");
    play(&mut g2, "c3-b2");
    play(&mut g2, "b1-c1");
    // The Tomb Keeper on b2 kills the Priest on c1: final.
    play(&mut g2, "b2xc1");
    assert!(g2.pending().is_none());
    assert_eq!(g2.graveyard(Seat(0)), &[Unit::PriestOfTheWinds]);
}

#[test]
fn r7_declining_the_revival_leaves_the_priest_in_the_graveyard() {
    let mut g = board("Pc3 Be1 nd8 td4", "1");
    play(&mut g, "d4xc3");
    play(&mut g, "decline");
    assert_eq!(g.graveyard(Seat(0)), &[Unit::PriestOfTheWinds]);
    assert_eq!(g.to_act(), vec![Seat(0)]);
}

#[test]
fn r7_r20_the_priests_revival_comes_before_the_zombies_recruit() {
    let mut g = board("Pd4 Be1 nd8 zd6", "1 g1:t");
    play(&mut g, "d6-d4");
    assert!(matches!(g.pending(), Some(Pending::PriestRevival { .. })));
    play(&mut g, "place c5");
    assert!(matches!(g.pending(), Some(Pending::Recruit { .. })));
    assert_eq!(g.to_act(), vec![Seat(1)]);
    assert!(!has(&g, "place c5"), "the Priest took c5");
    play(&mut g, "place e5");
    assert_eq!(unit(&g, "e5"), Some((Unit::TombKeeper, 1)));
    assert_eq!(g.turn(), Seat(0));
}

#[test]
fn r8_r21_the_alchemist_swaps_through_models_and_a_moved_dark_priest_rests() {
    let mut g = board("Aa1 Ib1 qc1 Be3 nd8", "0");
    play(&mut g, "a1-d1");
    assert_eq!(unit(&g, "a1"), Some((Unit::ImperialWarrior, 0)));
    assert_eq!(unit(&g, "b1"), Some((Unit::DarkPriest, 1)));
    assert_eq!(unit(&g, "d1"), Some((Unit::Alchemist, 0)));
    assert_eq!(g.at(c("b1")).unwrap().rest, 1);
    // The Undead's next turn: the Dark Priest may not act.
    assert!(!legal(&g).iter().any(|t| t.contains("b1")));
    assert!(illegal(&mut g, "smite b1").contains("moved by others"));
    play(&mut g, "d8-d7");
    assert_eq!(g.at(c("b1")).unwrap().rest, 0, "rested one turn");
    // Out of his back ranks, the Alchemist cannot walk.
    let g = board("Ad4 Be1 nd8", "0");
    assert!(!legal(&g).iter().any(|t| t.starts_with("d4-")));
}

#[test]
fn r9_firebrew_burns_three_owner_turns_and_ignores_immunity() {
    // A Tomb Keeper two squares away behind a Skeleton (the brew hops).
    let mut g = board("Af1 Be1 nd8 te3 sf2", "0");
    assert!(has(&g, "brew f1>e3"));
    assert!(has(&g, "brew f1>e3 f1-g1") && has(&g, "f1-g1 brew g1>e3"));
    play(&mut g, "brew f1>e3");
    assert_eq!(g.at(c("e3")).unwrap().tokens, 3);
    play(&mut g, "d8-d7");
    assert_eq!(g.at(c("e3")).unwrap().tokens, 2);
    assert!(illegal(&mut g, "brew f1>e3").contains("already burns"));
    play(&mut g, "f1-g1");
    play(&mut g, "d7-d8");
    assert_eq!(g.at(c("e3")).unwrap().tokens, 1);
    play(&mut g, "g1-f1");
    let events = play(&mut g, "d8-d7");
    assert!(
        g.at(c("e3")).is_none(),
        "dies as its owner ends his third turn"
    );
    assert!(events.iter().any(|e| e.text.contains("firebrew")));
    assert_eq!(g.graveyard(Seat(1)), &[Unit::TombKeeper]);
}

#[test]
fn r9_a_burning_general_dies_and_loses() {
    let mut g = board("Ae1 Bh1 nd8", "1");
    g.set_tokens(c("d8"), 1);
    play(&mut g, "d8-d7");
    assert!(matches!(g.outcome(), Outcome::Won { ref winners, .. } if winners == &vec![Seat(0)]));
}

#[test]
fn r10_the_battle_mage_may_ride_then_vanquish_and_relocates_each_model() {
    let mut g = board("Be4 nh8 sd5 ze5 tf5", "0");
    assert!(has(&g, "vanquish e4"));
    assert!(has(&g, "e4-d4 vanquish"), "Move/Vanquish");
    play(&mut g, "vanquish e4");
    assert!(g.at(c("d5")).is_none() && g.at(c("e5")).is_none());
    assert_eq!(
        unit(&g, "f5"),
        Some((Unit::TombKeeper, 1)),
        "Captains are not vanquished"
    );
    assert_eq!(g.to_act(), vec![Seat(0)]);
    let view = g.view(Viewer::Spectator);
    assert!(
        view.pending.unwrap().contains("Skeleton"),
        "board order: d5 first"
    );
    play(&mut g, "place a8");
    assert_eq!(unit(&g, "a8"), Some((Unit::Skeleton, 1)));
    assert!(has(&g, "place d5"), "vacated squares may be used");
    play(&mut g, "place h1");
    assert_eq!(unit(&g, "h1"), Some((Unit::Zombie, 1)));
    assert_eq!(g.turn(), Seat(1));
    // Nothing to vanquish: refused with the rule.
    let mut g = board("Be4 nh8 tf5", "0");
    assert!(illegal(&mut g, "vanquish e4").contains("Sergeant/Lieutenant"));
}

#[test]
fn r11_promotion_from_the_graveyard_or_recall() {
    // R22: the promoted-away soldier goes to the graveyard.
    let mut g = board("Be1 Ia8 nh5", "0 g0:KW");
    assert!(has(&g, "promote a8=blue-knight") && has(&g, "promote a8=wind-mage"));
    play(&mut g, "promote a8=blue-knight");
    assert_eq!(unit(&g, "a8"), Some((Unit::BlueKnight, 0)));
    assert_eq!(
        g.graveyard(Seat(0)),
        &[Unit::WindMage, Unit::ImperialWarrior]
    );
    // No sergeant/lieutenant in the graveyard: the soldier may come back.
    let mut g = board("Be1 Ia8 nh5", "0 g0:P");
    assert!(!legal(&g).iter().any(|t| t.starts_with("promote")));
    assert!(illegal(&mut g, "promote a8=blue-knight").contains("recall"));
    play(&mut g, "recall a8>d2");
    assert_eq!(unit(&g, "d2"), Some((Unit::ImperialWarrior, 0)));
    // A paralysed Battle Mage cannot promote (R13).
    let g = board("Be1 me2 Ia8 nh5", "0 g0:K");
    assert!(!legal(&g).iter().any(|t| t.starts_with("promote")));
}

#[test]
fn r12_skeletons_walk_off_the_far_edge_and_reappear_beside_their_general() {
    let mut g = board("Bh4 nd8 sa1", "1");
    assert!(has(&g, "a1-off>c8") && has(&g, "a1-off>d7"));
    play(&mut g, "a1-off>d7");
    assert_eq!(unit(&g, "d7"), Some((Unit::Skeleton, 1)));
    assert!(g.graveyard(Seat(1)).is_empty(), "he does not die");
    // A General with no free square beside him: no walk.
    let g = board("Bh4 na8 sb8 sa7 sb7 sa1", "1");
    assert!(!legal(&g).iter().any(|t| t.starts_with("a1-off")));
}

#[test]
fn r13_tomb_gas_paralyses_enemies_from_the_end_of_the_turn() {
    let mut g = board("Kb1 Bh1 mc3 sb2 nd8", "1");
    play(&mut g, "c3-c2");
    // The Knight is gassed; the Undead Skeleton beside the Mummy is not.
    assert!(g.at(c("b1")).unwrap().paralysed);
    assert!(!g.at(c("b2")).unwrap().paralysed, "never allies");
    assert_eq!(
        illegal(&mut g, "b1-a3"),
        "The Blue Knight on b1 is paralysed by the Mummy on c2."
    );
    play(&mut g, "h1-g1");
    play(&mut g, "c2-c3");
    assert!(
        !g.at(c("b1")).unwrap().paralysed,
        "released when the Mummy leaves"
    );
    // Mummies gas enemy Mummies (Undead vs Undead).
    let mut g = board("Ma1 Ne1 mb2 nd8", "0");
    assert_eq!(
        illegal(&mut g, "a1-a2"),
        "The Mummy on a1 is paralysed by the Mummy on b2."
    );
    // SPECIAL rules still apply: a gassed Priest still gets his revival.
    let mut g = board("Pc3 Be1 nd8 mc4 td4", "1");
    assert!(g.at(c("c3")).unwrap().paralysed);
    play(&mut g, "d4xc3");
    assert!(matches!(g.pending(), Some(Pending::PriestRevival { .. })));
}

#[test]
fn r14_night_wind_pushes_rear_most_first_never_off_the_board() {
    let mut g = board("nd8 qe8 sa7 Id3 Id2 Be1 Ic3 Kc2 Kg2 Pg1", "1");
    play(&mut g, "wind e8>a7");
    assert_eq!(
        g.graveyard(Seat(1)),
        &[Unit::Skeleton],
        "the sacrifice dies"
    );
    assert_eq!(unit(&g, "d1"), Some((Unit::ImperialWarrior, 0)));
    assert_eq!(unit(&g, "d2"), Some((Unit::ImperialWarrior, 0)));
    assert!(g.at(c("d3")).is_none());
    assert_eq!(unit(&g, "c1"), Some((Unit::BlueKnight, 0)));
    assert_eq!(unit(&g, "c2"), Some((Unit::ImperialWarrior, 0)));
    assert_eq!(
        unit(&g, "g2"),
        Some((Unit::BlueKnight, 0)),
        "nowhere to go: stays"
    );
    assert_eq!(
        unit(&g, "e1"),
        Some((Unit::BattleMage, 0)),
        "never off the board"
    );
    // Nobody could move: no wind.
    let g = board("nd8 qe8 sa7 Be1 Pg1", "1");
    assert!(!legal(&g).iter().any(|t| t.starts_with("wind")));
    // Pushed into tomb gas: paralysed at the end of the turn.
    let mut g = board("nd8 qe8 sa7 Ic4 mb3 Be1", "1");
    play(&mut g, "wind e8>a7");
    assert!(g.at(c("c3")).unwrap().paralysed);
}

#[test]
fn r14_an_explosion_kills_every_adjacent_model_ignoring_immunity() {
    let mut g = board("qe8 nh8 zc5 Ib4 Pc4 sd5 td6 Be1", "1");
    play(&mut g, "explode e8>c5");
    for sq in ["c5", "b4", "c4", "d5", "d6"] {
        assert!(g.at(c(sq)).is_none(), "{sq}");
    }
    // The Priest died too: his revival is pending for the Human.
    assert!(matches!(g.pending(), Some(Pending::PriestRevival { .. })));
}

#[test]
fn r15_the_necromancer_trades_models_on_the_board_for_one_from_the_graveyard() {
    let mut g = board("nd8 sa7 sb7 Be1", "1 g1:z");
    assert!(has(&g, "trade a7+b7=zombie"));
    play(&mut g, "trade a7+b7=zombie");
    assert_eq!(g.to_act(), vec![Seat(1)]);
    assert!(
        has(&g, "place c7") && !has(&g, "place a1"),
        "next to the Necromancer"
    );
    play(&mut g, "place c7");
    assert_eq!(unit(&g, "c7"), Some((Unit::Zombie, 1)));
    assert_eq!(g.graveyard(Seat(1)), &[Unit::Skeleton, Unit::Skeleton]);
    // Graveyard models cannot be traded away.
    let g = board("nd8 Be1", "1 g1:ssz");
    assert!(!legal(&g).iter().any(|t| t.starts_with("trade")));
    assert!(has(&g, "revive d8>d7"));
}

#[test]
fn r16_a_side_with_nothing_to_do_passes() {
    // The Battle Mage, the only Human model, is gassed.
    let mut g = board("Be1 me2 nd8", "0");
    assert_eq!(legal(&g), vec!["pass".to_string()]);
    play(&mut g, "pass");
    assert_eq!(g.turn(), Seat(1));
    let mut g = start();
    assert!(illegal(&mut g, "pass").contains("nothing else"));
}

#[test]
fn r17_quiet_and_overlong_games_are_drawn() {
    let mut g = board("Be1 nd8", "0");
    g.set_counters(10, 99);
    play(&mut g, "e1-e2");
    assert!(matches!(g.outcome(), Outcome::Drawn { .. }));
    let mut g = board("Be1 nd8", "0");
    g.set_counters(tokar_engine::arcana::TURN_LIMIT, 0);
    play(&mut g, "e1-e2");
    assert!(matches!(g.outcome(), Outcome::Drawn { .. }));
}

#[test]
fn r18_check_is_announced_when_a_general_may_die_next_turn() {
    let mut g = board("Ka5 Be1 nd8", "0");
    let ev = play(&mut g, "a5-b7");
    assert!(ev.iter().any(|e| e.text.starts_with("Check!")), "{ev:?}");
    let mut g = board("Ka5 Be1 nd8", "0");
    g.set_check(false);
    let ev = play(&mut g, "a5-b7");
    assert!(!ev.iter().any(|e| e.text.starts_with("Check!")));
    let mut g = board("Ka5 Be1 nd8", "0");
    let ev = play(&mut g, "a5-c4");
    assert!(!ev.iter().any(|e| e.text.starts_with("Check!")));
}

#[test]
fn r19_the_priest_revives_soldiers_from_a_corner() {
    let mut g = board("Pa1 Be1 nd8", "0 g0:I");
    assert!(has(&g, "revive a1>b2"));
    play(&mut g, "revive a1>b2");
    assert_eq!(unit(&g, "b2"), Some((Unit::ImperialWarrior, 0)));
    let mut g = board("Pb1 Be1 nd8", "0 g0:I");
    assert!(illegal(&mut g, "revive b1>b2").contains("corner"));
    // All adjacent squares occupied: no revival.
    let g = board("Pa1 Ia2 Ib1 Ib2 Be1 nd8", "0 g0:I");
    assert!(!legal(&g).iter().any(|t| t.starts_with("revive")));
}

#[test]
fn r20_a_zombie_may_raise_a_unit_of_the_victims_rank() {
    let mut g = board("zd5 Id4 nd8 Bh1", "1 g1:sz");
    play(&mut g, "d5-d4");
    assert!(matches!(g.pending(), Some(Pending::Recruit { .. })));
    assert!(has(&g, "place c5") && has(&g, "decline"));
    assert!(!has(&g, "place a1"), "next to the Zombie");
    play(&mut g, "place c5");
    assert_eq!(
        unit(&g, "c5"),
        Some((Unit::Skeleton, 1)),
        "a soldier for a soldier"
    );
    let mut g = board("zd5 Id4 nd8 Bh1", "1 g1:s");
    play(&mut g, "d5-d4");
    play(&mut g, "decline");
    assert_eq!(g.graveyard(Seat(1)), &[Unit::Skeleton]);
    // No unit of that rank in the graveyard: nothing pending.
    let mut g = board("zd5 Id4 nd8 Bh1", "1 g1:z");
    play(&mut g, "d5-d4");
    assert!(g.pending().is_none());
}

#[test]
fn r24_same_armies_are_told_apart_by_side() {
    let mut o = Options::new();
    o.insert("army.0".into(), "undead".into());
    o.insert("army.1".into(), "undead".into());
    let g = Arcana::setup(&o, 5).unwrap();
    assert_eq!(g.seat_name(Seat(0)), "Undead (south)");
    assert_eq!(g.seat_name(Seat(1)), "Undead (north)");
    let mut o = Options::new();
    o.insert("army.0".into(), "undead".into());
    let g = Arcana::setup(&o, 5).unwrap();
    assert_eq!(
        g.seat_name(Seat(1)),
        "Human",
        "the second player takes the other army"
    );
}

#[test]
fn r27_the_move_counter_counts_turns() {
    let mut g = start();
    assert_eq!(g.move_number(), 1);
    play(&mut g, "e2-e3");
    assert_eq!(g.move_number(), 2);
}

#[test]
fn notation_tolerates_case_and_spaces_around_signs() {
    let g = start();
    let a = g.parse(Seat(0), "E2 - E3").unwrap();
    assert_eq!(g.format(&a), "e2-e3");
    let g = board("Wa1 Ia4 Be1 nd8", "0");
    assert_eq!(
        g.format(&g.parse(Seat(0), "BOLT a1 > a4").unwrap()),
        "bolt a1>a4"
    );
    let g = board("Id4 Be1 nd8 zc5", "0");
    assert_eq!(g.format(&g.parse(Seat(0), "d4 x c5").unwrap()), "d4xc5");
}

#[test]
fn r2_r3_refusals_name_the_rule_for_walking_off() {
    let mut g = board("Be1 Af1 nd8 sa1", "0");
    assert!(illegal(&mut g, "e1-off").contains("General"));
    assert!(illegal(&mut g, "f1-off").contains("back ranks"));
}

#[test]
fn play_refuses_unlisted_actions_without_changing_anything() {
    use tokar_engine::arcana::Action;
    let mut g = start();
    let before = g.clone();
    for a in [
        Action::Move {
            from: c("e2"),
            to: c("e5"),
        },
        Action::Pass,
        Action::Decline,
        Action::Place {
            to: c("e4"),
            unit: None,
        },
        Action::Smite { from: c("e8") },
        Action::Trade {
            from: c("d8"),
            give: [c("a7"), c("b7")],
            unit: Unit::Zombie,
        },
    ] {
        assert!(g.play(Seat(0), &a).is_err(), "{a:?}");
        assert_eq!(g, before);
    }
    assert!(matches!(
        g.play(
            Seat(1),
            &Action::Move {
                from: c("e7"),
                to: c("e6")
            }
        ),
        Err(ActionError::NotYourTurn(_))
    ));
    assert_eq!(g, before);
}

#[test]
fn a_game_survives_serialization_mid_decision() {
    let mut g = board("Be4 nh8 sd5 ze5", "0");
    play(&mut g, "vanquish e4");
    let any = AnyGame::Arcana(g.clone());
    let text = serde_json::to_string(&any).unwrap();
    let back: AnyGame = serde_json::from_str(&text).unwrap();
    match back {
        AnyGame::Arcana(b) => assert_eq!(b, g),
        #[allow(unreachable_patterns)]
        _ => panic!("kind"),
    }
}

#[test]
fn r21_a_dark_priest_pushed_by_the_night_wind_rests() {
    // Undead vs Undead: the northern Dark Priest pushes the southern one.
    let mut g = board("Ne1 Qd3 Sa2 nd8 qe8 sh7", "1");
    play(&mut g, "wind e8>h7");
    assert_eq!(unit(&g, "d2"), Some((Unit::DarkPriest, 0)));
    assert_eq!(g.at(c("d2")).unwrap().rest, 1);
    assert!(
        g.legal_actions(Seat(0))
            .iter()
            .all(|a| a.actor() != Some(c("d2"))),
        "resting on his owner's next turn"
    );
    play(&mut g, "e1-f1");
    assert_eq!(g.at(c("d2")).unwrap().rest, 0);
    let v = g.view(Viewer::Spectator);
    assert!(v.pieces.iter().all(|p| p.statuses.is_empty()));
}

#[test]
fn r10_human_against_human_vanquish_relocates_enemy_knights() {
    let mut g = board("Be4 bh8 kd5 we5 df5", "0");
    play(&mut g, "vanquish e4");
    assert_eq!(unit(&g, "f5"), Some((Unit::Duelist, 1)), "a Chief stays");
    play(&mut g, "place a1");
    play(&mut g, "place b1");
    assert_eq!(unit(&g, "a1"), Some((Unit::BlueKnight, 1)));
    assert_eq!(unit(&g, "b1"), Some((Unit::WindMage, 1)));
    assert_eq!(g.turn(), Seat(1));
}

#[test]
fn heuristic_weighs_ranks_and_knows_the_result() {
    let even = start();
    let h = even.heuristic(Seat(0));
    assert!((h - 0.5).abs() < 0.05, "{h}");
    // The Undead lost its Dark Priest: the Human stands better.
    let g = pos("mztn1tzm/ssssssss/8/8/8/8/IIIIIIII/WKPDBAKW 1 g1:Q");
    assert!(g.heuristic(Seat(0)) > 0.6 && g.heuristic(Seat(1)) < 0.4);
    // A lost game scores 0 for the loser.
    let mut g = pos("3n4/8/8/8/8/8/4s3/4B3 1");
    play(&mut g, "e2-e1");
    assert_eq!(g.heuristic(Seat(0)), 0.0);
    assert_eq!(g.heuristic(Seat(1)), 1.0);
}

#[test]
fn the_computer_opponent_takes_a_general_within_reach() {
    use tokar_engine::search::{choose, Budget, Level};
    let g = board("Kc6 Be1 Ia2 Ib2 nd8 sa7 sb7 zg8", "0");
    let choice = choose(&g, Seat(0), Level::Normal, &Budget::iterations(300), 7).unwrap();
    assert_eq!(choice.notation, "c6-d8", "{}", choice.why);
}

#[test]
fn r15_every_trade_tier() {
    // Two sergeant/lieutenant class models (any mix) for a Captain.
    let g = board("nd8 zb8 mh8 Be1", "1 g1:t");
    assert!(has(&g, "trade b8+h8=tomb-keeper"));
    // Two Captains for a Chief.
    let g = board("nd8 ta5 th5 Be1", "1 g1:q");
    assert!(has(&g, "trade a5+h5=dark-priest"));
    // Two soldiers for either a Sergeant or a Lieutenant.
    let g = board("nd8 sa7 sh7 Be1", "1 g1:zm");
    assert!(has(&g, "trade a7+h7=zombie") && has(&g, "trade a7+h7=mummy"));
    // No square next to the Necromancer: no trade.
    let g = board("na8 zb8 za7 zb7 sh7 sg7 Be1", "1 g1:m");
    assert!(!legal(&g).iter().any(|t| t.starts_with("trade")));
    let g = board("na8 zb8 za7 zb7 sh7 sg7 Be1", "1 g1:t");
    assert!(
        has(&g, "trade a7+b8=tomb-keeper"),
        "the traded models' squares count"
    );
}

#[test]
fn r3_r7_a_priest_who_walks_off_the_board_may_use_his_revival() {
    let mut g = board("Pa1 Be1 nd8", "0");
    play(&mut g, "a1-off");
    assert_eq!(g.to_act(), vec![Seat(0)]);
    play(&mut g, "place h8");
    assert_eq!(unit(&g, "h8"), Some((Unit::PriestOfTheWinds, 0)));
}

#[test]
fn r11_a_warrior_marches_to_the_far_rank_and_is_promoted() {
    let mut g = board("Ia7 Be1 nh5", "0 g0:W");
    play(&mut g, "a7-a8");
    play(&mut g, "h5-h4");
    assert!(has(&g, "promote a8=wind-mage"));
    assert!(
        has(&g, "a8-off"),
        "walking off the far rank stays possible (R3)"
    );
    play(&mut g, "promote a8=wind-mage");
    assert_eq!(unit(&g, "a8"), Some((Unit::WindMage, 0)));
}

#[test]
fn r14_a_mummy_bomb_takes_the_neighbours_with_it() {
    let mut g = board("qe8 nh8 mc4 Ib3 Kc3 Dd5 Be1", "1");
    play(&mut g, "explode e8>c4");
    for sq in ["c4", "b3", "c3", "d5"] {
        assert!(g.at(c(sq)).is_none(), "{sq}");
    }
    assert_eq!(g.graveyard(Seat(1)), &[Unit::Mummy]);
    assert_eq!(g.graveyard(Seat(0)).len(), 3);
}

#[test]
fn odd_texts_never_panic_and_never_change_the_game() {
    let mut g = board("Pa1 Af1 Be1 Wh1 Ia7 nd8 qe8 sd4 zc5", "0 g0:IK g1:s");
    let before = g.clone();
    let odd = [
        "",
        " ",
        "-",
        "x",
        ">",
        "=",
        "+",
        "a1-",
        "-a1",
        "a1x",
        "a1-off>",
        "a1--a2",
        "a1-a2-a3",
        "bolt",
        "bolt >",
        "bolt a1>",
        "brew f1>e2 f1",
        "brew f1>e2 g1-h1",
        "brew f1>e2 f1-g1 x",
        "f1-g1 brew",
        "f1-g1 brew h1>e2",
        "e1-e2 vanquish now",
        "promote",
        "promote a8",
        "promote a8=",
        "promote a8=dragon",
        "recall a8",
        "revive a1",
        "revive a1>b2=",
        "revive a1>b2=skeleton",
        "trade",
        "trade a7",
        "trade a7+=zombie",
        "trade a7+b7",
        "wind",
        "explode e8",
        "smite",
        "place",
        "place a1=",
        "decline now",
        "pass pass",
        "é2-e3",
        "e2—e3",
        "a0-a1",
        "i1-a1",
        "a9",
        "h8-h9",
        "a1-off>a1",
        "🙂",
        "a1 a2 a3 a4 a5",
    ];
    for t in odd {
        if let Ok(a) = g.parse(Seat(0), t) {
            // Whatever parses is legal and plays.
            let mut copy = g.clone();
            copy.play(Seat(0), &a)
                .unwrap_or_else(|e| panic!("'{t}': {e}"));
        }
        assert_eq!(g, before, "'{t}'");
    }
    let _ = &mut g;
}

#[test]
fn r13_gas_settles_only_when_the_turn_ends() {
    // The Battle Mage rides next to a Mummy (gas has not reached him) and
    // vanquishes it with a Skeleton, relocating the Mummy next to his own Blue
    // Knight: the Knight is not gassed until the last relocation is done and
    // the turn ends.
    let mut g = board("Be3 Ka1 nh8 md5 se5", "0");
    play(&mut g, "e3-e4 vanquish");
    play(&mut g, "place b2");
    assert!(
        !g.at(c("a1")).unwrap().paralysed,
        "not yet: the turn goes on"
    );
    play(&mut g, "place h1");
    assert!(
        g.at(c("a1")).unwrap().paralysed,
        "gassed at the end of the turn"
    );
}
