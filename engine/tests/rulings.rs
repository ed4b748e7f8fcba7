//! Rulings revised in edition 2 of Tokar's own Arcana rulings (U12: U5, U9's
//! Zombie, U10) and the refusals and narration that name what happened. Each
//! test names the ruling of engine/rules/arcana.md it checks.

use tokar_engine::arcana::{Arcana, Pending, Unit, RULINGS};
use tokar_engine::catalog::{GameKind, Options, Variant};
use tokar_engine::{Game, Outcome, Seat};

mod common;
use common::arcana::*;

/// A game set up as the table does: `stamped` marks it as new (the current
/// edition of the rulings); without the mark it is a game stored before
/// editions existed.
fn setup(a: &str, b: &str, stamped: bool) -> Result<Arcana, String> {
    let mut o = Options::new();
    if stamped {
        GameKind::Arcana.stamp(&mut o, 2);
    }
    o.insert("army.0".into(), a.into());
    o.insert("army.1".into(), b.into());
    o.insert("first".into(), "creator".into());
    Arcana::setup(&o, 1).map_err(|e| e.to_string())
}

/// Plays `text` and returns the lines it told.
fn told(g: &mut Arcana, text: &str) -> Vec<String> {
    let seat = g.to_act()[0];
    let action = g
        .parse(seat, text)
        .unwrap_or_else(|e| panic!("'{text}' refused: {e}\n{}", g.to_text()));
    g.play(seat, &action)
        .unwrap()
        .into_iter()
        .map(|e| e.text)
        .collect()
}

fn won_by(g: &Arcana) -> (Seat, String) {
    match g.outcome() {
        Outcome::Won { winners, reason } => (winners[0], reason),
        o => panic!("expected a win, got {o:?}"),
    }
}

/// The Undead Arcana army's Zombie (b1) reaches the Human Imperial Warrior
/// that stepped to c4, with both graveyards empty.
const ZOMBIE_OPENING: [&str; 6] = ["b2-b3", "c7-c6", "b3-b4", "c6-c5", "b1-b3", "c5-c4"];

#[test]
fn u12_the_tables_new_games_play_by_the_current_rulings_and_stored_ones_by_the_first() {
    assert_eq!(RULINGS, 2);
    assert_eq!(setup("undead-arcana", "human", true).unwrap().rulings(), 2);
    assert_eq!(setup("undead-arcana", "human", false).unwrap().rulings(), 1);
    let mut o = Options::new();
    o.insert("rulings".into(), "7".into());
    assert!(
        Arcana::setup(&o, 1).is_err(),
        "an unknown edition is refused"
    );
    // Players read the ruling with /rules arcana u12.
    let text = GameKind::Arcana.rules(Some("u12")).unwrap();
    assert!(text.contains("Editions of these rulings"), "{text}");
}

#[test]
fn u9_an_undead_arcana_zombie_turns_his_victim_into_an_undead_unit_of_its_rank() {
    let mut g = setup("undead-arcana", "human", true).unwrap();
    for m in ZOMBIE_OPENING {
        play(&mut g, m);
    }
    let lines = told(&mut g, "b3-c4");
    assert_eq!(
        lines,
        ["Zombie b3-c4 bites the Imperial Warrior on c4, who turns Undead."]
    );
    // Not captured: not in the Human graveyard; the Undead graveyard is empty,
    // yet the victim rises, as the owner's pick of the pawn rank's two units.
    assert!(g.graveyard(Seat(1)).is_empty());
    assert!(matches!(
        g.pending(),
        Some(Pending::Recruit {
            turned: Some(_),
            ..
        })
    ));
    let mut choices = legal(&g);
    choices.sort();
    assert!(
        choices.contains(&"place b3=ghoul".to_string()),
        "{choices:?}"
    );
    assert!(choices.contains(&"place b3=skeleton".to_string()));
    assert!(choices
        .iter()
        .all(|a| a.ends_with("=ghoul") || a.ends_with("=skeleton")));
    // Next to the Zombie on c4 (b3, the square he left, included; b4 holds
    // the Skeleton): 7 empty squares.
    assert_eq!(choices.len(), 2 * 7, "{choices:?}");
    // "Becomes": the turning cannot be declined.
    let m = illegal(&mut g, "decline");
    assert!(m.contains("U9"), "{m}");
    let m = illegal(&mut g, "place c6=ghoul");
    assert!(m.contains("next to the Zombie on c4"), "{m}");
    let lines = told(&mut g, "place d3=ghoul");
    assert_eq!(
        lines,
        ["The Imperial Warrior bitten by the Zombie on c4 rises as a Ghoul on d3."]
    );
    let ghoul = g.at(c("d3")).unwrap();
    assert_eq!((ghoul.unit, ghoul.owner), (Unit::Ghoul, Seat(0)));
    assert!(g.graveyard(Seat(1)).is_empty() && g.buried(Seat(1)).is_empty());
    assert_eq!(g.to_act(), vec![Seat(1)]);
}

#[test]
fn u12_stored_games_and_tokars_zombie_keep_the_recruit_from_the_graveyard() {
    // U12, U9, R20: a game stored before edition 2 replays its actions by R20: with an empty
    // graveyard the bite raises nothing and the victim is captured.
    let mut g = setup("undead-arcana", "human", false).unwrap();
    for m in ZOMBIE_OPENING {
        play(&mut g, m);
    }
    play(&mut g, "b3-c4");
    assert!(g.pending().is_none());
    assert_eq!(g.graveyard(Seat(1)), &[Unit::ImperialWarrior]);
    assert_eq!(g.to_act(), vec![Seat(1)]);
    // Tokar's Undead army keeps R20 in a new game too.
    let mut g = setup("undead", "human", true).unwrap();
    for m in ZOMBIE_OPENING {
        play(&mut g, m);
    }
    play(&mut g, "b3-c4");
    assert!(g.pending().is_none());
    assert_eq!(g.graveyard(Seat(1)), &[Unit::ImperialWarrior]);
}

#[test]
fn u10_a_general_who_can_kill_his_attacker_where_he_stands_is_safe() {
    // The Battle Mage on a1 is boxed in by his own Imperial Warriors; the
    // Zombie steps next to him. He cannot move, but he can kill the Zombie.
    let mut g = board("Ba1 Ia2 Ib2 zd1 nh8", "1 ua:1");
    play(&mut g, "d1-b1");
    assert!(!g.outcome().is_over(), "{:?}", g.outcome());
    assert!(has(&g, "a1xb1"));
    play(&mut g, "a1xb1");
    assert_eq!(g.graveyard(Seat(1)), &[Unit::Zombie]);
}

#[test]
fn u12_under_edition_1_only_moves_count_and_no_general_is_controlled() {
    // A game stored before edition 2 ends as it ended then (U10, U5 of
    // edition 1).
    let mut g = board("Ba1 Ia2 Ib2 zd1 nh8", "1 ua:1");
    g.set_rulings(1);
    play(&mut g, "d1-b1");
    let (winner, reason) = won_by(&g);
    assert_eq!(winner, Seat(1));
    assert_eq!(
        reason,
        "the Human General, the Battle Mage on a1, cannot move safely."
    );
    let mut g = board("Cd4 La1 be5 Ih2", "0");
    g.set_rulings(1);
    let m = illegal(&mut g, "control d4>e5");
    assert!(m.contains("other than the General"), "{m}");
}

#[test]
fn u10_the_game_over_message_says_nothing_he_may_do_makes_him_safe() {
    // The Necromancer on h8 is boxed in by his own models; the Blue Knight
    // lands on g6. Killing one of his own models does not help him.
    let mut g = board("Ke5 Be1 nh8 zg8 sg7 sh7", "0 ua:1");
    play(&mut g, "e5-g6");
    let (winner, reason) = won_by(&g);
    assert_eq!(winner, Seat(0));
    assert_eq!(
        reason,
        "the Undead Arcana General, the Necromancer on h8, cannot move safely: he is threatened and nothing he may do makes him safe (U10)."
    );
}

#[test]
fn u5_a_cultist_may_control_the_enemy_general_who_then_cannot_act() {
    // "Any 1 adjacent enemy piece": the General too. Standing next to him,
    // the Cultist threatens him, and a General under control cannot act for
    // his owner: he loses when his side's turn begins (U10).
    let mut g = board("Cd4 La1 be5 Ih2", "0");
    assert!(has(&g, "control d4>e5"));
    play(&mut g, "control d4>e5");
    let (winner, reason) = won_by(&g);
    assert_eq!(winner, Seat(0));
    assert!(reason.contains("under the enemy's control"), "{reason}");
}

#[test]
fn u5_the_owner_of_a_controlled_model_is_told_it_is_controlled() {
    let mut g = board("Cd4 La1 kd5 bh8 Ih2", "0");
    play(&mut g, "control d4>d5");
    let m = illegal(&mut g, "d5-e7");
    assert_eq!(
        m,
        "The Blue Knight on d5 is under the enemy Cultist's control this turn: you cannot command it (U5)."
    );
    play(&mut g, "h8-g8");
    // The controller may not use it for what draws on an army.
    let mut g = board("Cd4 La1 qd5 sc6 nh8 Ih2", "0 g0:I");
    play(&mut g, "control d4>d5");
    play(&mut g, "h8-g8");
    let m = illegal(&mut g, "wind d5>c6");
    assert!(m.contains("under your control"), "{m}");
}

#[test]
fn r26_a_blocked_slide_names_the_model_in_the_way() {
    let mut g = board("Dd1 sd4 Be1 nh8", "0");
    let m = illegal(&mut g, "d1-d6");
    assert_eq!(
        m,
        "The Duelist on d1 cannot ride to d6: the Skeleton on d4 blocks the way."
    );
    let m = illegal(&mut g, "d1-d6xd7");
    assert!(m.contains("the Skeleton on d4 blocks the way"), "{m}");
    // The Zombie never hops: straight, and round a corner both ways.
    let mut g = board("Zd4 id5 ie4 Nh1 bh8", "0");
    let m = illegal(&mut g, "d4-d6");
    assert_eq!(
        m,
        "The Zombie on d4 cannot walk to d6: the Imperial Warrior on d5 blocks the way."
    );
    let m = illegal(&mut g, "d4-e5");
    assert_eq!(
        m,
        "The Zombie on d4 cannot walk to e5: the Imperial Warrior on e4 and the Imperial Warrior on d5 block the way."
    );
}

#[test]
fn u3_a_ghouls_landing_is_told_as_a_burial_and_kills_as_kills() {
    let mut g = board("Gb6 ic5 Le1 bh8", "0");
    assert_eq!(
        told(&mut g, "b6-c5"),
        ["Ghoul b6-c5 buries the Imperial Warrior on c5."]
    );
    assert_eq!(g.buried(Seat(1)), &[Unit::ImperialWarrior]);
    let mut g = board("Hd4 ke5 La1 lh8", "0");
    assert_eq!(
        told(&mut g, "d4-e5"),
        ["Ghost d4-e5 kills the Blue Knight on e5."]
    );
}
