//! The rules as players read them (`/rules arcana <topic>` and the refusals
//! that quote a rule) against the rules the engine plays. Each test names the
//! ruling of engine/rules/arcana.md whose text it checks.

use tokar_engine::arcana::{
    card_page, card_under, rulesets_of, Arcana, Pending, Ruleset, Unit, Variation, RULINGS,
};
use tokar_engine::catalog::GameKind;
use tokar_engine::{Game, Seat};

mod common;
use common::arcana::*;

#[test]
fn u5_the_cultists_card_and_refusals_say_he_may_control_the_general() {
    // Edition 2 of the rulings (U12) lets the Cultist control the General;
    // the page gives edition 1's reading only as edition 1's, after it.
    let page = GameKind::Arcana.rules(Some("cultist")).unwrap();
    let now = page.find("the General too").expect(&page);
    for (at, _) in page.match_indices("other than the General") {
        let line = page[..at].rsplit('\n').next().unwrap();
        assert!(line.starts_with("[edition 1]") && at > now, "{page}");
    }
    let card = card_under(Unit::Cultist, Ruleset::current(true));
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

/// A position of `models` and `tail` played by `rules`: `ua:0` marks seat 0's
/// army as playing by Undead Arcana's rules (its alternatives mark it anyway).
fn under(rules: Ruleset, models: &str, tail: &str) -> Arcana {
    let ua = if rules.undead_arcana { " ua:0" } else { "" };
    let mut g = board(models, &format!("{tail}{ua}"));
    g.set_rulings(rules.edition);
    g
}

/// The unit whose card states `v` (None: a rule of the game, on the Undead
/// Arcana page).
fn unit_of(v: Variation) -> Option<Unit> {
    match v {
        Variation::CultistControlsGeneral => Some(Unit::Cultist),
        Variation::ZombieTurnsVictim => Some(Unit::Zombie),
        Variation::SkeletonToFirstLine => Some(Unit::Skeleton),
        Variation::DarkPriestStrikesAllies => Some(Unit::DarkPriest),
        Variation::GeneralSafeByAnyAction => None,
    }
}

/// Whether the engine plays the rule `v` under `rules`, found by playing a
/// position where it decides what happens. A new variation fails to compile
/// here until it has a position.
fn plays(v: Variation, rules: Ruleset) -> bool {
    match v {
        // A Cultist next to the enemy General.
        Variation::CultistControlsGeneral => {
            has(&under(rules, "Cd4 La1 be5 Ih2", "0"), "control d4>e5")
        }
        // A Zombie lands on an enemy soldier, with an Imperial Warrior in his
        // own graveyard to recruit.
        Variation::ZombieTurnsVictim => {
            let mut g = under(rules, "Zd4 id5 Nh1 bh8", "0 g0:I");
            play(&mut g, "d4-d5");
            matches!(
                g.pending(),
                Some(Pending::Recruit {
                    turned: Some(_),
                    ..
                })
            )
        }
        // A Skeleton on the far rank, his General on e4.
        Variation::SkeletonToFirstLine => {
            let g = under(rules, "Sc8 Ne4 nh5", "0");
            let first_line = has(&g, "c8-off>c1");
            assert_ne!(first_line, has(&g, "c8-off>d4"), "one of the two");
            first_line
        }
        // A Dark Priest with an ally and an enemy next to him.
        Variation::DarkPriestStrikesAllies => {
            let mut g = under(rules, "Qd1 Sc2 ke2 Na8 nh8", "0");
            play(&mut g, "smite d1");
            !g.graveyard(Seat(0)).is_empty()
        }
        // The Battle Mage on a1, boxed in by his own soldiers, can kill the
        // Zombie that steps next to him but cannot step away (an Undead
        // Arcana game: the Zombie's army plays by its rules).
        Variation::GeneralSafeByAnyAction => {
            let mut g = board("Ba1 Ia2 Ib2 zd1 nh8", "1 ua:1");
            g.set_rulings(rules.edition);
            play(&mut g, "d1-b1");
            !g.outcome().is_over()
        }
    }
}

/// Words a text stating `v` has when the rule holds, and when it does not;
/// written here, apart from the engine's texts, so a text that states the
/// other reading is caught.
fn words(v: Variation) -> (&'static str, &'static str) {
    match v {
        Variation::CultistControlsGeneral => ("the General too", "other than the General"),
        Variation::ZombieTurnsVictim => ("turns", "from his graveyard"),
        Variation::SkeletonToFirstLine => ("first line", "his General"),
        Variation::DarkPriestStrikesAllies => ("allies too", "adjacent enem"),
        Variation::GeneralSafeByAnyAction => ("nothing he may do", "no move of his"),
    }
}

/// `text` states `v` the way the engine plays it under `rules`.
fn agrees(text: &str, v: Variation, rules: Ruleset, what: &str) {
    let (yes, no) = words(v);
    let (said, unsaid) = if plays(v, rules) {
        (yes, no)
    } else {
        (no, yes)
    };
    assert!(
        text.contains(said) && !text.contains(unsaid),
        "{what} under {rules:?} does not say what the engine plays ({v:?}: '{said}', not '{unsaid}'):\n{text}"
    );
}

/// Where a text states `v` both ways (the /rules pages), it states what the
/// engine plays under `rules` too.
fn mentions(text: &str, v: Variation, rules: Ruleset, what: &str) {
    let (yes, no) = words(v);
    let said = if plays(v, rules) { yes } else { no };
    assert!(
        text.contains(said),
        "{what} does not say what the engine plays under {rules:?} ({v:?}: '{said}'):\n{text}"
    );
}

/// The rulesets a variation applies under: those of its unit, or, for the
/// game's loss rule, the Undead Arcana games of every edition.
fn rulesets_for(v: Variation) -> Vec<Ruleset> {
    match unit_of(v) {
        Some(u) => rulesets_of(u),
        None => Ruleset::all()
            .into_iter()
            .filter(|r| r.undead_arcana)
            .collect(),
    }
}

#[test]
fn u12_every_card_and_rules_page_states_the_rules_the_engine_plays_under_every_edition() {
    let page = |topic: &str| GameKind::Arcana.rules(Some(topic)).unwrap();
    let undead_arcana = page("undead-arcana");
    for v in Variation::ALL {
        for rules in rulesets_for(v) {
            if let Some(u) = unit_of(v) {
                // The card of a game played by these rules.
                agrees(&card_under(u, rules), v, rules, &format!("{u}'s card"));
                // The /rules page gives every reading, labelled.
                mentions(
                    &page(u.id()),
                    v,
                    rules,
                    &format!("/rules arcana {}", u.id()),
                );
            }
            if rules.undead_arcana {
                mentions(&undead_arcana, v, rules, "/rules arcana undead-arcana");
            }
        }
    }
    // The overview speaks of Tokar's Arcana, Tokar's Skeleton.
    agrees(
        &page("overview"),
        Variation::SkeletonToFirstLine,
        Ruleset::current(false),
        "the overview",
    );
}

#[test]
fn u12_every_refusal_that_quotes_a_card_states_the_rules_the_engine_plays() {
    for rules in Ruleset::all() {
        let quote = |models: &str, text: &str, v: Variation| {
            let mut g = under(rules, models, "0");
            let m = illegal(&mut g, text);
            agrees(&m, v, rules, &format!("the refusal of {text}"));
        };
        // Each unit's one-line summary, quoted when it cannot do that.
        quote("Sc8 Ne4 nh5", "c8-b8", Variation::SkeletonToFirstLine);
        quote(
            "Qd1 Sc2 ke2 Na8 nh8",
            "d1-d2",
            Variation::DarkPriestStrikesAllies,
        );
        quote("Zd4 id5 Nh1 bh8", "d4-e6", Variation::ZombieTurnsVictim);
        // The refusals of the very action a rule governs.
        let skeleton = under(rules, "Sc8 Ne4 nh5", "0");
        let wrong = if has(&skeleton, "c8-off>c1") {
            "c8-off>d4"
        } else {
            "c8-off>c1"
        };
        quote("Sc8 Ne4 nh5", wrong, Variation::SkeletonToFirstLine);
        for models in ["Qd1 Sc2 Na8 nh8", "Qd1 Ne1 ke2 nh8"] {
            if !has(&under(rules, models, "0"), "smite d1") {
                quote(models, "smite d1", Variation::DarkPriestStrikesAllies);
            }
        }
        if rules.undead_arcana {
            quote(
                "Cd4 La1 be5 Ih2",
                "d4-d6",
                Variation::CultistControlsGeneral,
            );
            let g = under(rules, "Cd4 La1 be5 Ih2", "0");
            let wrong = if has(&g, "control d4>e5") {
                "control d4>h2"
            } else {
                "control d4>e5"
            };
            quote("Cd4 La1 be5 Ih2", wrong, Variation::CultistControlsGeneral);
        }
    }
}

#[test]
fn u12_cards_without_a_rule_that_differs_read_the_same_in_every_game() {
    for u in Unit::ALL {
        let cards: Vec<String> = rulesets_of(u)
            .into_iter()
            .map(|r| card_under(u, r))
            .collect();
        let differs = Variation::ALL.iter().any(|&v| unit_of(v) == Some(u));
        assert_eq!(
            cards.iter().any(|c| *c != cards[0]),
            differs,
            "{u}: a card differs between games exactly where a rule does"
        );
        // The page gives the card of the current edition's games first.
        let page = card_page(u);
        assert!(page.starts_with(u.name()), "{page}");
        assert!(!page.contains('{') && !page.contains("[]"), "{page}");
        if !differs {
            assert_eq!(page, cards[0]);
        }
    }
    // Every edition is walked, under both armies' rules.
    let all = Ruleset::all();
    assert_eq!(all.len(), 2 * RULINGS as usize);
    assert!(all.iter().any(|r| r.edition == 1) && all.iter().any(|r| r.edition == RULINGS));
}
