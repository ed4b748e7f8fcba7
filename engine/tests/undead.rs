//! Undead Arcana: army picks, each alternate unit's abilities, the changed
//! Tokar's units and the "cannot move safely" loss, on hand-set positions.
//! Each test names the ruling of engine/rules/arcana.md it checks (U<n>).

use tokar_engine::arcana::{Arcana, Army, Pending, Rank, Unit};
use tokar_engine::catalog::{Options, Variant};
use tokar_engine::{Game, Outcome, Seat, StatusKind, Viewer};

mod common;
use common::arcana::*;

fn setup(a: &str, b: &str) -> Result<Arcana, String> {
    let mut o = Options::new();
    o.insert("army.0".into(), a.into());
    o.insert("army.1".into(), b.into());
    o.insert("first".into(), "creator".into());
    Arcana::setup(&o, 1).map_err(|e| e.to_string())
}

#[test]
fn u1_ranks_pawn_rook_knight_bishop_queen_king_are_tokars_classes() {
    // rook = Lieutenant (the Mummy is both), knight = Sergeant (the Zombie).
    assert_eq!(Unit::Ghoul.rank(), Rank::Soldier);
    assert_eq!(Unit::Ghost.rank(), Rank::Lieutenant);
    assert_eq!(Unit::Cultist.rank(), Rank::Sergeant);
    assert_eq!(Unit::Wraith.rank(), Rank::Captain);
    assert_eq!(Unit::Vampire.rank(), Rank::Chief);
    assert_eq!(Unit::Lich.rank(), Rank::General);
    let g = setup("alternate", "alternate").unwrap();
    // Undead Arcana's start squares: Dark Priest/Vampire D1/E8, Necromancer/Lich E1/D8.
    assert_eq!(g.at(c("d1")).unwrap().unit, Unit::Vampire);
    assert_eq!(g.at(c("e1")).unwrap().unit, Unit::Lich);
    assert_eq!(g.at(c("e8")).unwrap().unit, Unit::Vampire);
    assert_eq!(g.at(c("d8")).unwrap().unit, Unit::Lich);
    assert_eq!(g.at(c("a1")).unwrap().unit, Unit::Ghost);
    assert_eq!(g.at(c("b8")).unwrap().unit, Unit::Cultist);
    assert_eq!(g.at(c("c8")).unwrap().unit, Unit::Wraith);
    assert_eq!(g.at(c("h7")).unwrap().unit, Unit::Ghoul);
    // Same armies on both sides are told apart (R24).
    assert_eq!(g.seat_name(Seat(0)), "Undead Arcana (south)");
}

#[test]
fn u11_army_picks_presets_mixed_ranks_and_errors() {
    use Unit::*;
    let a = Army::parse(
        "pawn:ghoul*4+skeleton*4, ghost, knight:cultist*1+zombie, wraith, vampire, lich",
    )
    .unwrap();
    assert!(a.undead_arcana);
    assert_eq!(
        a.front,
        [Ghoul, Ghoul, Ghoul, Ghoul, Skeleton, Skeleton, Skeleton, Skeleton]
    );
    assert_eq!(
        a.back,
        [Ghost, Cultist, Wraith, Vampire, Lich, Wraith, Zombie, Ghost]
    );
    // A unit without a count fills the rest of its rank, where it is written.
    let b = Army::parse("skeleton+ghoul*2,bishop:wraith*1+tomb-keeper").unwrap();
    assert_eq!(&b.front[5..], &[Skeleton, Ghoul, Ghoul][..]);
    assert_eq!((b.back[2], b.back[5]), (Wraith, TombKeeper));
    // Ranks not named keep Tokar's units.
    assert_eq!(b.back[0], Mummy);
    assert_eq!(b.back[4], Necromancer);
    // Picks may be separated by commas, semicolons or slashes (a slash keeps
    // /export records, whose options are separated by commas, readable).
    assert_eq!(
        Army::parse("ghoul/ghost/lich").unwrap(),
        Army::parse("ghoul, ghost; lich").unwrap()
    );
    // The table refuses a bad army at /new and /accept.
    assert!(Arcana::check_option("army", "pawn:ghoul*2/lich")
        .unwrap_err()
        .contains("Too few pawns"));
    assert!(Arcana::check_option("army", "purple").is_err());
    assert!(Arcana::check_option("army", "ghoul/lich").is_ok());
    // Presets.
    assert!(!Army::parse("undead").unwrap().undead_arcana);
    assert!(Army::parse("Undead-Arcana").unwrap().undead_arcana);
    assert_eq!(
        Army::parse("undead-arcana").unwrap().back,
        Army::undead().back
    );
    assert_eq!(Army::parse("alternate").unwrap().front, [Ghoul; 8]);
    assert_eq!(Army::parse("human").unwrap(), Army::human());
    // Errors name what is wrong.
    let err = |t: &str| Army::parse(t).unwrap_err();
    assert!(
        err("pawn:ghoul*9").contains("Too many pawns"),
        "{}",
        err("pawn:ghoul*9")
    );
    assert!(err("ghoul*4").contains("Too few pawns"));
    assert!(err("ghoul,skeleton").contains("picked twice"));
    assert!(err("rook:ghoul").contains("is a pawn"));
    assert!(err("blue-knight").contains("not an Undead Arcana unit"));
    assert!(err("banana").contains("'banana' is not an Undead unit"));
    assert!(err("ghoul*x").contains("count"));
    assert!(err("ghost*1+mummy*3").contains("Too many rooks"));
    assert!(err("ghoul+skeleton").contains("without a count"));
    let e = setup("ghoul*3", "human").unwrap_err();
    assert!(e.contains("ghoul*3") && e.contains("Too few pawns"), "{e}");
    // Shown to both players: the army summary in each seat's notes, and /rules.
    let g = setup("ghoul,lich", "human").unwrap();
    for viewer in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ] {
        let v = g.view(viewer);
        assert_eq!(
            v.seats[0].notes[0],
            "Army: Undead Arcana rules: 8 Ghoul, 2 Zombie, 2 Mummy, 2 Tomb Keeper, 1 Dark Priest, 1 Lich"
        );
        assert_eq!(v.seats[1].notes[0], "Army: Human");
        assert_eq!(v.title, "Undead Arcana");
    }
    let rules = Arcana::rules(Some("undead-arcana")).unwrap();
    assert!(rules.contains("pawn:ghoul*4+skeleton*4"));
    assert!(Arcana::rules(Some("lich")).unwrap().contains("Soul slave"));
    // The rulings are served by /rules too.
    assert!(Arcana::rules(Some("u10"))
        .unwrap()
        .contains("cannot move safely"));
    assert!(Arcana::rules(Some("rulings"))
        .unwrap()
        .contains("U11. Army option."));
}

#[test]
fn u2_ghoul_moves_diagonally_forward_or_backward() {
    let g = board("Gd4 Le1 ld8", "0");
    let mut moves: Vec<String> = legal(&g)
        .into_iter()
        .filter(|a| a.starts_with("d4"))
        .collect();
    moves.sort();
    assert_eq!(moves, ["d4-c3", "d4-c5", "d4-e3", "d4-e5"]);
    let mut g = g;
    let m = illegal(&mut g, "d4-d5");
    assert!(m.contains("diagonally"), "{m}");
}

#[test]
fn u3_ghoul_buries_for_good_and_cannot_bury_skeletons_or_tomb_keepers() {
    let mut g = board("Gd4 Le1 ze5 sc5 tc3 ld8", "0");
    assert!(
        !has(&g, "d4-c5") && !has(&g, "d4-c3"),
        "immune to a pawn (R25)"
    );
    play(&mut g, "d4-e5");
    assert_eq!(g.buried(Seat(1)), &[Unit::Zombie]);
    assert!(g.graveyard(Seat(1)).is_empty(), "not in the graveyard");
    let v = g.view(Viewer::Spectator);
    assert_eq!(v.seats[1].notes[1], "buried: Zombie");
    assert!(v.seats[1].lost.is_empty());
}

#[test]
fn u3_buried_models_cannot_be_revived_or_traded() {
    // The Necromancer's graveyard is empty: a buried Skeleton is not there.
    let mut g = board("Ne1 Sa2 Sb2 ld8 Gh2", "0 ua:0");
    g.play(Seat(0), &g.parse(Seat(0), "h2-g3").unwrap())
        .unwrap();
    assert!(!legal(&g).iter().any(|a| a.starts_with("revive")));
    let g = board("Ne1 Sd4 Gc3 ld8 ge5", "1");
    assert!(!has(&g, "e5-d4"), "a Ghoul cannot bury a Skeleton");
    let mut g = board("Ne1 Zd4 Kc4 ld8 ge5", "1 ua:0");
    play(&mut g, "e5-d4");
    assert_eq!(g.buried(Seat(0)), &[Unit::Zombie]);
    assert!(!legal(&g)
        .iter()
        .any(|a| a.starts_with("revive") || a.starts_with("trade")));
}

#[test]
fn u3_a_buried_general_loses_the_game() {
    let mut g = board("Gd4 Le1 ne5", "0");
    play(&mut g, "d4-e5");
    match g.outcome() {
        Outcome::Won { winners, reason } => {
            assert_eq!(winners, vec![Seat(0)]);
            assert!(reason.contains("buried"), "{reason}");
        }
        o => panic!("{o:?}"),
    }
}

#[test]
fn u4_ghost_scares_adjacent_models_three_squares_away() {
    // Enemy Dark Priest e4 to h4; ally Skeleton d5 to d8; enemy c3 stops at
    // the corner a1; d3 stops before the model on d1.
    let mut g = board("Hd4 Sd5 qe4 ic3 id3 Id1 Lh1 lh8", "0 ua:0");
    assert!(has(&g, "scare d4"));
    play(&mut g, "scare d4");
    assert_eq!(g.at(c("h4")).unwrap().unit, Unit::DarkPriest);
    assert_eq!(g.at(c("d8")).unwrap().unit, Unit::Skeleton);
    assert_eq!(g.at(c("a1")).unwrap().unit, Unit::ImperialWarrior);
    assert_eq!(g.at(c("d2")).unwrap().unit, Unit::ImperialWarrior);
    // Moved by others: the Dark Priest rests (R21).
    assert!(g.at(c("h4")).unwrap().rest > 0);
    // A Ghost that moves does not scare; with no model able to move, no scare.
    let mut g = board("Ha1 La3 Ib1 Ic1 lh8", "0");
    let m = illegal(&mut g, "scare a1");
    assert!(m.contains("U4"), "{m}");
    // It captures by ending a move on a model.
    let mut g = board("Hd4 ke5 La1 lh8", "0");
    play(&mut g, "d4-e5");
    assert_eq!(g.graveyard(Seat(1)), &[Unit::BlueKnight]);
}

#[test]
fn u5_cultist_controls_an_adjacent_enemy_for_the_next_turn() {
    let mut g = board("Cd4 La1 kd5 bh8 Ih2", "0");
    play(&mut g, "control d4>d5");
    // The Human's turn: its Blue Knight is controlled, it may not command it.
    assert_eq!(g.to_act(), vec![Seat(1)]);
    let v = g.view(Viewer::Spectator);
    let knight = v.pieces.iter().find(|p| p.cell == c("d5")).unwrap();
    assert_eq!(knight.statuses[0].kind, StatusKind::Controlled);
    assert!(!legal(&g).iter().any(|a| a.starts_with("d5")));
    play(&mut g, "h8-g8");
    // The Cultist's side commands the Blue Knight as its own.
    assert!(has(&g, "d5-e7"));
    play(&mut g, "d5-f6");
    assert_eq!(
        g.at(c("f6")).unwrap().owner,
        Seat(1),
        "still the Human's model"
    );
    // Released after the controller's turn.
    assert!(legal(&g).iter().any(|a| a.starts_with("f6")));
    let v = g.view(Viewer::Spectator);
    assert!(v
        .pieces
        .iter()
        .all(|p| p.statuses.iter().all(|s| s.kind != StatusKind::Controlled)));
}

#[test]
fn u5_no_graveyard_abilities_for_a_controlled_model() {
    // Control of a General is allowed since edition 2 of the rulings
    // (engine/tests/rulings.rs). A controlled Necromancer-side model may not revive for the controller:
    // a controlled enemy Dark Priest may smite but not explode or wind.
    let mut g = board("Cd4 La1 Ia2 qd5 sc6 nh8 Ih2 Ig2", "0 g0:I");
    play(&mut g, "control d4>d5");
    play(&mut g, "h8-g8");
    let l = legal(&g);
    assert!(l.iter().any(|a| a == "smite d5"));
    assert!(!l
        .iter()
        .any(|a| a.starts_with("wind") || a.starts_with("explode")));
}

#[test]
fn u6_wraith_leaps_captures_unless_he_leapt_two_and_swings_at_everyone() {
    let g = board("Rd4 Sd5 ke5 La1 lh8", "0");
    let l = legal(&g);
    assert!(l.contains(&"d4-d6".to_string()), "leaps over the Skeleton");
    assert!(l.contains(&"d4-f2".to_string()));
    assert!(l.contains(&"d4xe5".to_string()));
    assert!(
        l.contains(&"d4-e4xe5".to_string()),
        "capture after a one-square leap"
    );
    assert!(!l
        .iter()
        .any(|a| a.starts_with("d4-f6x") || a.starts_with("d4-d6x")));
    assert!(
        !l.contains(&"d4-e5".to_string()),
        "leaps land on empty squares"
    );
    let mut g = g;
    play(&mut g, "swing d4");
    assert_eq!(g.graveyard(Seat(0)), &[Unit::Skeleton], "allies too");
    assert_eq!(g.graveyard(Seat(1)), &[Unit::BlueKnight]);
    // Never next to his own General (R2).
    let mut g = board("Rd4 Le5 kc4 lh8", "0");
    let m = illegal(&mut g, "swing d4");
    assert!(m.contains("own General"), "{m}");
}

#[test]
fn u7_vampire_captures_before_or_after_a_move_and_takes_an_extra_turn() {
    // d4 is dark (a1 dark); c5 dark; c4 white.
    let mut g = board("Vd4 ke5 kb6 La1 lh8", "0");
    let l = legal(&g);
    assert!(l.contains(&"d4xe5".to_string()));
    assert!(l.contains(&"d4-d5xe5".to_string()));
    assert!(l.contains(&"d4xe5-e5".to_string()));
    play(&mut g, "d4xe5-c5");
    assert!(matches!(g.pending(), Some(Pending::ExtraTurn { .. })));
    assert_eq!(g.to_act(), vec![Seat(0)]);
    let v = g.view(Viewer::Spectator);
    let vamp = v.pieces.iter().find(|p| p.cell == c("c5")).unwrap();
    assert_eq!(vamp.statuses[0].kind, StatusKind::ExtraTurn);
    // Only the Vampire acts in the extra turn.
    assert!(legal(&g)
        .iter()
        .all(|a| a.starts_with("c5") || a == "decline"));
    let mut other = g.clone();
    play(&mut other, "decline");
    assert_eq!(other.to_act(), vec![Seat(1)]);
    // A capture in the extra turn gives no further one.
    play(&mut g, "c5xb6");
    assert!(g.pending().is_none());
    assert_eq!(g.to_act(), vec![Seat(1)]);
    assert!(g.buried(Seat(0)).is_empty(), "c5 is dark");
}

#[test]
fn u7_vampire_ending_his_turn_on_white_is_buried() {
    let mut g = board("Vd4 La1 lh8", "0");
    play(&mut g, "d4-c4");
    assert_eq!(g.buried(Seat(0)), &[Unit::Vampire]);
    assert!(g.at(c("c4")).is_none());
    // Standing on white without acting is no burial: d1 is white.
    let mut g = setup("alternate", "human").unwrap();
    play(&mut g, "a2-b3");
    assert_eq!(g.at(c("d1")).unwrap().unit, Unit::Vampire);
    assert!(g.buried(Seat(0)).is_empty());
}

#[test]
fn u8_lich_leaps_horizontally_never_captures_and_raises_soul_slaves() {
    let mut g = board("Le1 Sa2 Kd1 kf1 lh8", "0 g0:S g1:K");
    let l = legal(&g);
    let mut leaps: Vec<&String> = l.iter().filter(|a| a.starts_with("e1-")).collect();
    leaps.sort();
    assert_eq!(leaps, ["e1-c1", "e1-g1"]);
    assert!(!l.iter().any(|a| a.starts_with("e1x")));
    play(&mut g, "enslave e1>e2=blue-knight");
    assert!(g.graveyard(Seat(1)).is_empty());
    let slave = g.at(c("e2")).unwrap();
    assert!(slave.owner == Seat(0) && slave.slave);
    // The price: bury an ally, on the board or in the graveyard, not the
    // Lich, not the new slave.
    let mut choices = legal(&g);
    choices.sort();
    assert_eq!(choices, ["bury a2", "bury d1", "bury skeleton"]);
    play(&mut g, "bury skeleton");
    assert_eq!(g.buried(Seat(0)), &[Unit::Skeleton]);
    assert!(g.graveyard(Seat(0)).is_empty());
    assert_eq!(g.to_act(), vec![Seat(1)]);
}

#[test]
fn u8_a_soul_slave_capturing_an_enemy_costs_a_burial() {
    let mut g = board("Le1 Sa2 kf4 lh8", "0 g1:K");
    play(&mut g, "enslave e1>e2=blue-knight");
    play(&mut g, "bury a2");
    play(&mut g, "h8-g8");
    play(&mut g, "e2-f4");
    assert!(matches!(g.pending(), Some(Pending::Bury { .. })));
    // Only the Lich is left besides the slave, the graveyard is empty: the
    // slave himself pays.
    assert_eq!(legal(&g), ["bury f4"]);
    play(&mut g, "bury f4");
    assert_eq!(g.buried(Seat(0)), &[Unit::Skeleton, Unit::BlueKnight]);
    // The captured Blue Knight went to the Human graveyard.
    assert_eq!(g.graveyard(Seat(1)), &[Unit::BlueKnight]);
}

#[test]
fn u9_undead_arcana_dark_priest_strikes_all_adjacent_models() {
    let mut g = board("Qd1 Ic1 Sc2 ke2 Na8 nh8", "0 ua:0");
    play(&mut g, "smite d1");
    assert_eq!(g.graveyard(Seat(0)).len(), 2, "allies too");
    assert_eq!(g.graveyard(Seat(1)), &[Unit::BlueKnight]);
    // Tokar's Dark Priest spares allies (R1).
    let mut g = board("Qd1 Sc2 ke2 Na8 nh8", "0");
    play(&mut g, "smite d1");
    assert!(g.graveyard(Seat(0)).is_empty());
    // Never next to the own General (R2).
    let mut g = board("Qd1 Ne1 ke2 nh8", "0 ua:0");
    assert!(!has(&g, "smite d1"));
    let _ = illegal(&mut g, "smite d1");
}

#[test]
fn u9_undead_arcana_skeleton_walks_off_to_his_first_line() {
    let g = board("Sc8 Ne4 nh5", "0 ua:0");
    assert!(has(&g, "c8-off>c1"));
    assert!(!legal(&g)
        .iter()
        .any(|a| a.starts_with("c8-off>") && a != "c8-off>c1"));
    // Tokar's Skeleton reappears beside his General (R12).
    let g = board("Sc8 Ne4 nh5", "0");
    assert!(has(&g, "c8-off>d4"));
    assert!(!has(&g, "c8-off>c1"));
}

#[test]
fn u9_necromancer_trades_two_bishops_for_a_queen() {
    let mut g = board("Ne1 Tc1 Rf1 nh8", "0 g0:V");
    play(&mut g, "trade c1+f1=vampire");
    play(&mut g, "place e2");
    assert_eq!(g.at(c("e2")).unwrap().unit, Unit::Vampire);
    assert_eq!(g.graveyard(Seat(0)), &[Unit::TombKeeper, Unit::Wraith]);
}

#[test]
fn u10_a_threatened_general_with_no_safe_move_loses() {
    // The Necromancer on h8 is boxed in by his own models; the Blue Knight
    // threatens him from g6.
    let trapped = "Ke5 Be1 nh8 zg8 sg7 sh7";
    let mut g = board(trapped, "0 ua:1");
    play(&mut g, "e5-g6");
    match g.outcome() {
        Outcome::Won { winners, reason } => {
            assert_eq!(winners, vec![Seat(0)]);
            assert!(reason.contains("cannot move safely"), "{reason}");
        }
        o => panic!("{o:?}"),
    }
    // With h7 free he may step out of reach: the game goes on.
    let mut g = board("Ke5 Be1 nh8 zg8 sg7", "0 ua:1");
    play(&mut g, "e5-g6");
    assert!(!g.outcome().is_over());
    // Tokar's Arcana has no such loss (R16).
    let mut g = board(trapped, "0");
    play(&mut g, "e5-g6");
    assert!(!g.outcome().is_over());
}

#[test]
fn u10_only_commandable_attackers_threaten() {
    // The Blue Knight lands next to an enemy Mummy: paralysed at the end of
    // the turn, he threatens nothing.
    let mut g = board("Ke5 Be1 nh8 zg8 sg7 sh7 mh5", "0 ua:1");
    play(&mut g, "e5-g6");
    assert!(!g.outcome().is_over());
    // A boxed-in General nobody threatens plays on (the start position).
    let mut g = setup("alternate", "alternate").unwrap();
    play(&mut g, "a2-b3");
    assert!(!g.outcome().is_over());
}

#[test]
fn u10_an_escape_onto_a_threatened_square_is_no_escape() {
    // h7 is free but the Blue Knight on f6 could land there.
    let mut g = board("Ke5 Kf6 Be1 nh8 zg8 sg7", "0 ua:1");
    assert!(!g.general_trapped(Seat(1)), "not threatened yet");
    play(&mut g, "e5-g6");
    assert!(g.outcome().is_over());
}
