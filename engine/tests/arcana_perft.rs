//! Perft-style tables: the number of decision sequences (plies, pending
//! decisions included) from fixed Arcana positions. Depth 1 from the start is
//! derived by hand below; deeper figures guard against unnoticed changes in
//! move generation (any change must be explained in engine/rules/arcana.md).

mod common;
use common::perft;
use std::collections::BTreeMap;
use tokar_engine::arcana::{Arcana, Unit};
use tokar_engine::catalog::{Options, Variant};
use tokar_engine::Game;

fn start(first: &str) -> Arcana {
    let mut o = Options::new();
    o.insert("first".into(), first.into());
    Arcana::setup(&o, 0).unwrap()
}

fn by_unit(g: &Arcana) -> BTreeMap<Unit, usize> {
    let seat = g.to_act()[0];
    let mut out = BTreeMap::new();
    for a in g.legal_actions(seat) {
        let unit = g.at(a.actor().unwrap()).unwrap().unit;
        *out.entry(unit).or_insert(0) += 1;
    }
    out
}

#[test]
fn start_position_depth_one_by_hand() {
    let counts = by_unit(&start("creator"));
    let expect = BTreeMap::from([
        // Eight steps forward.
        (Unit::ImperialWarrior, 8),
        // Each: the ally on b2/g2 (R1), c3/f3, walking off (R3).
        (Unit::WindMage, 6),
        // Each: a3/c3 (f3/h3), the ally on d2 (e2), walking off.
        (Unit::BlueKnight, 8),
        // Walking off, killing one of three adjacent allied soldiers.
        (Unit::PriestOfTheWinds, 4),
        // Walking off; shooting c1, c2, d2 or e2 (not his own General, R2).
        (Unit::Duelist, 5),
        // Killing d1, f1, d2, e2 or f2.
        (Unit::BattleMage, 5),
        // 7 walks + 8 throws + 8x7 throw-then-walk + 48 walk-then-throw
        // (e1 8, d1 8, c1 9, b1 7, a1 5, g1 6, h1 5 targets after the swaps).
        (Unit::Alchemist, 119),
    ]);
    assert_eq!(counts, expect);
    let undead = by_unit(&start("opponent"));
    let expect = BTreeMap::from([
        (Unit::Skeleton, 8),
        // Each: killing the allies beside and in front of him, walking off.
        (Unit::Mummy, 6),
        // Each: killing the three adjacent allies, walking off.
        (Unit::Zombie, 8),
        // c8: 4 kills (not the Necromancer) + off; f8: 5 kills + off.
        (Unit::TombKeeper, 11),
        // Explosions of a8, b8, f8, g8, h8 (c8 is next to the Necromancer, R2);
        // no night wind: no Human model has an empty square behind it.
        (Unit::DarkPriest, 5),
        // Killing c8, e8, c7, d7 or e7.
        (Unit::Necromancer, 5),
    ]);
    assert_eq!(undead, expect);
}

#[test]
fn perft_from_the_start() {
    let g = start("creator");
    assert_eq!(perft(&g, 1), 155);
    let d2 = perft(&g, 2);
    let d3 = perft(&g, 3);
    println!("start: 155 / {d2} / {d3}");
    assert_eq!((d2, d3), (PERFT_START_2, PERFT_START_3));
}

/// A busy middle game: both sides developed, graveyards stocked, Human to move.
const MIDGAME: &str = "m2nqtzm/1s1s1ss1/2z2t2/s2I1K2/2W1s3/1P3I2/I2I1AII/3DB2W 0 g0:IK g1:ss";

#[test]
fn perft_from_a_midgame() {
    let g = Arcana::from_text(MIDGAME).unwrap();
    let d1 = perft(&g, 1);
    let d2 = perft(&g, 2);
    let d3 = perft(&g, 3);
    println!("midgame: {d1} / {d2} / {d3}");
    assert_eq!((d1, d2, d3), (PERFT_MID_1, PERFT_MID_2, PERFT_MID_3));
}

const PERFT_START_2: u64 = 6847;
const PERFT_START_3: u64 = 933_203;
const PERFT_MID_1: u64 = 163;
const PERFT_MID_2: u64 = 9871;
const PERFT_MID_3: u64 = 1_379_043;
