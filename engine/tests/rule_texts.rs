//! The rules as players read them (`/rules arcana <topic>` and the refusals
//! that quote a rule) against the rules the engine plays. Each test names the
//! ruling of engine/rules/arcana.md whose text it checks.

use tokar_engine::catalog::GameKind;

mod common;
use common::arcana::*;

#[test]
fn u5_the_cultists_card_and_refusals_say_he_may_control_the_general() {
    // Edition 2 of the rulings (U12) lets the Cultist control the General.
    let card = GameKind::Arcana.rules(Some("cultist")).unwrap();
    assert!(card.contains("the General too"), "{card}");
    assert!(!card.contains("other than the General"), "{card}");
    let mut g = board("Cd4 La1 be5 Ih2", "0");
    assert!(has(&g, "control d4>e5"));
    // A refusal that quotes the card: the Cultist cannot leap.
    let m = illegal(&mut g, "d4-d6");
    assert!(m.contains("the General too"), "{m}");
    assert!(!m.contains("other than the General"), "{m}");
}

#[test]
fn u9_refusing_an_undead_arcana_skeletons_walk_off_names_his_first_line() {
    // Not from the far rank: refused with Undead Arcana's first line, not
    // Tokar's reappearance beside the General (R12).
    let mut g = board("Sc7 Ne4 nh5", "0 ua:0");
    let m = illegal(&mut g, "c7-off>c1");
    assert!(m.contains("first line"), "{m}");
    assert!(!m.contains("General") && !m.contains("R12"), "{m}");
    // A refusal quoting the card says the same.
    let m = illegal(&mut g, "c7-c5");
    assert!(m.contains("first line") && !m.contains("General"), "{m}");
    // Tokar's Skeleton: beside his General.
    let mut g = board("Sc7 Ne4 nh5", "0");
    let m = illegal(&mut g, "c7-off>d4");
    assert!(m.contains("next to his General (R12)"), "{m}");
}
