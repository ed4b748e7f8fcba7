//! Legal-action counts from fixed Undead Arcana positions with mixed armies.
//! Depth 1 from a mixed start is derived by hand, unit by unit; the deeper
//! figures guard against unnoticed changes in move generation (a change must
//! be explained in engine/rules/arcana.md).

mod common;
use common::perft;
use std::collections::BTreeMap;
use tokar_engine::arcana::{Arcana, Unit};
use tokar_engine::catalog::{Options, Variant};
use tokar_engine::Game;

const MIXED: &str = "pawn:ghoul*4+skeleton*4,rook:ghost*1+mummy,knight:cultist*1+zombie,bishop:wraith*1+tomb-keeper,vampire,lich";

fn start(a: &str, b: &str) -> Arcana {
    let mut o = Options::new();
    o.insert("army.0".into(), a.into());
    o.insert("army.1".into(), b.into());
    o.insert("first".into(), "creator".into());
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
fn mixed_start_depth_one_by_hand() {
    // a1 Ghost, b1 Cultist, c1 Wraith, d1 Vampire, e1 Lich, f1 Tomb Keeper,
    // g1 Zombie, h1 Mummy; Ghouls a2-d2, Skeletons e2-h2 (U11 placement).
    let g = start(MIXED, "human");
    let expect = BTreeMap::from([
        // Diagonals (U2), burying allies except the Lich (R1, R2), walking
        // off: a2 3 (b3, b1, off), b2 4, c2 4, d2 3 (not e1).
        (Unit::Ghoul, 14),
        (Unit::Skeleton, 4),
        // Landing on a2, b2, b1; off; scaring the Ghoul on a2 up to a5 (U4).
        (Unit::Ghost, 5),
        // Landing on five allies, off; no enemy to control.
        (Unit::Cultist, 6),
        // Leaps to a3, c3, e3 (over models), off; five adjacent kills; swing (U6).
        (Unit::Wraith, 10),
        // Off; four adjacent kills (not the Lich); the same four kills then
        // stepping into the victim's square (U7).
        (Unit::Vampire, 9),
        // Nothing: no empty square on rank 1, an empty enemy graveyard (U8).
        (Unit::TombKeeper, 5),
        (Unit::Zombie, 4),
        (Unit::Mummy, 3),
    ]);
    assert_eq!(by_unit(&g), expect);
    assert_eq!(perft(&g, 1), 60);
}

#[test]
fn mixed_and_alternate_starts_deeper() {
    let g = start(MIXED, "human");
    assert_eq!(perft(&g, 2), PERFT_MIXED_HUMAN_2);
    let g = start("alternate", MIXED);
    assert_eq!(perft(&g, 1), PERFT_ALT_MIXED[0]);
    assert_eq!(perft(&g, 2), PERFT_ALT_MIXED[1]);
}

#[test]
fn midgame_counts() {
    // Undead Arcana vs Human, midgame with graveyards (soul slaves possible).
    let g = Arcana::from_text(MIDGAME).unwrap();
    assert_eq!(perft(&g, 1), PERFT_MID[0]);
    assert_eq!(perft(&g, 2), PERFT_MID[1]);
}

const MIDGAME: &str = "w1pdba1w/i1ii1ii1/2k3i1/3G1H2/1R2V3/2GC2S1/4S1G1/H2L1T1M 0 g0:GS g1:IK";
const PERFT_MIXED_HUMAN_2: u64 = 8_243;
const PERFT_ALT_MIXED: [u64; 2] = [77, 4_322];
const PERFT_MID: [u64; 2] = [114, 12_290];
