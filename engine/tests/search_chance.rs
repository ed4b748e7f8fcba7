//! Chance scored by its odds (ruling S12 in engine/rules/search.md): the odds
//! a game gives for an action's roll are exact, come from the position and
//! the rules rather than the generator, and each outcome can be played.

use tokar_engine::arachne::{Arachne, CaptureRules, Kind, BLACK, WHITE};
use tokar_engine::gladiator::{Gladiator, Kind as GKind, Team};
use tokar_engine::{Game, Outcome, Seat};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

fn arachne(rules: CaptureRules, pieces: &[(&str, Seat, Kind)]) -> Arachne {
    let mut g = Arachne::position(rules, WHITE, pieces, 7).unwrap();
    g.set_turn_dice([2, 5]);
    g
}

fn action(g: &Arachne, text: &str) -> tokar_engine::arachne::Action {
    g.parse(g.to_move(), text).unwrap()
}

#[test]
fn a_capture_roll_is_listed_with_its_exact_odds() {
    // A Wizard (rank 3) against the Matron (rank 5), one d8 each: the
    // capture needs the attacker's die 2 more than the defender's, 21 of 64.
    let g = arachne(
        CaptureRules::Original,
        &[
            ("c5", WHITE, Kind::Wizard),
            ("f5", WHITE, Kind::Matron),
            ("c4", BLACK, Kind::Matron),
        ],
    );
    let strike = action(&g, "c5 xc4");
    let odds = g.chance(WHITE, &strike);
    assert_eq!(odds.len(), 2, "{odds:?}");
    assert!(
        close(odds[0], 21.0 / 64.0) && close(odds[1], 43.0 / 64.0),
        "{odds:?}"
    );
    // Captured: the game is won; failed: the Matron stands. Whatever the
    // generator holds, on any copy.
    for seed in 0..5 {
        let copy = g.redeal(WHITE, seed);
        assert_eq!(copy.chance(WHITE, &strike), odds, "the odds read no die");
        let mut won = copy.clone();
        won.play_chance(WHITE, &strike, 0).unwrap();
        assert!(matches!(won.outcome(), Outcome::Won { ref winners, .. } if winners == &[WHITE]));
        let mut failed = copy.clone();
        failed.play_chance(WHITE, &strike, 1).unwrap();
        assert_eq!(failed.outcome(), Outcome::Ongoing);
        assert_eq!(failed.piece_at("c4").map(|p| p.kind), Some(Kind::Matron));
    }
    // A move without a capture, or another seat's action, has no odds.
    let quiet = g.legal_actions(WHITE);
    let quiet = quiet
        .iter()
        .find(|a| !g.format(a).contains('x'))
        .expect("a quiet move");
    assert!(g.chance(WHITE, quiet).is_empty());
    assert!(g.chance(BLACK, &strike).is_empty());
    // Sure captures (the strategist variant) have no odds either.
    let sure = arachne(
        CaptureRules::Strategist,
        &[
            ("c5", WHITE, Kind::Wizard),
            ("f5", WHITE, Kind::Matron),
            ("c4", BLACK, Kind::Matron),
        ],
    );
    assert!(sure.chance(WHITE, &action(&sure, "c5 xc4")).is_empty());
}

#[test]
fn the_odds_count_the_defenders_grunts() {
    // Grunt against Grunt with two connected defending Grunts, d6: the
    // attacker needs its die 2 above the defender's, 10 of 36 (R12).
    let g = arachne(
        CaptureRules::Convenient,
        &[
            ("c3", WHITE, Kind::Grunt),
            ("c4", BLACK, Kind::Grunt),
            ("b4", BLACK, Kind::Grunt),
            ("c5", BLACK, Kind::Grunt),
            ("f5", WHITE, Kind::Matron),
            ("l5", BLACK, Kind::Matron),
        ],
    );
    let strike = action(&g, "c3 xc4");
    let odds = g.chance(WHITE, &strike);
    assert!(close(odds[0], 10.0 / 36.0), "{odds:?}");
    let mut taken = g.clone();
    taken.play_chance(WHITE, &strike, 0).unwrap();
    assert_eq!(taken.piece_at("c4").map(|p| p.seat), Some(WHITE));
    let mut held = g.clone();
    held.play_chance(WHITE, &strike, 1).unwrap();
    assert_eq!(held.piece_at("c4").map(|p| p.seat), Some(BLACK));
    assert_eq!(held.piece_at("c3").map(|p| p.seat), Some(WHITE));
}

#[test]
fn a_battle_is_listed_by_its_distinct_results() {
    // A Footman (1 die and the attacker's extra) attacks a Squire (1 die)
    // with 2 hit points left.
    let mut g = Gladiator::empty(7);
    g.put("a1", Team::White, GKind::King)
        .put("b1", Team::White, GKind::KingsKnight)
        .put("a2", Team::White, GKind::Squire)
        .put("b2", Team::White, GKind::Squire)
        .put("a12", Team::Black, GKind::King)
        .put("b12", Team::Black, GKind::KingsKnight)
        .put("a11", Team::Black, GKind::Squire)
        .put("b11", Team::Black, GKind::Squire)
        .put("e4", Team::White, GKind::Footman)
        .put("f5", Team::Black, GKind::Squire)
        .set_hp("f5", 2);
    let seat = Seat(0);
    let attack = g.parse(seat, "e4xf5").unwrap();
    let odds = g.chance(seat, &attack);
    assert!(close(odds.iter().sum(), 1.0), "{odds:?}");
    // Counted die by die: the Squire dies when the attack beats it by 2 or more.
    let mut killed = 0.0;
    for a1 in 1..=6 {
        for a2 in 1..=6 {
            for d in 1..=6 {
                if a1 + a2 - d >= 2 {
                    killed += 1.0 / 216.0;
                }
            }
        }
    }
    let mut seen = Vec::new();
    let mut killed_by_odds = 0.0;
    for (i, p) in odds.iter().enumerate() {
        let mut after = g.redeal(seat, i as u64);
        after.play_chance(seat, &attack, i).unwrap();
        let state = (
            after.piece_at("e4").map(|p| p.hp),
            after.piece_at("f5").map(|p| (p.team, p.hp)),
        );
        assert!(!seen.contains(&state), "outcome {i} repeats {state:?}");
        if state.1.is_some_and(|(team, _)| team == Team::White) {
            killed_by_odds += p;
        }
        seen.push(state);
    }
    assert!(close(killed, killed_by_odds), "{killed} {killed_by_odds}");
    assert!(g.chance(seat, &g.parse(seat, "e4-e5").unwrap()).is_empty());
}

/// S13: the root keeps its losing piece. In this game (seed 0, the
/// original dice), after six actions the normal level as it was, without the
/// guard, captures on k5 and leaves its Matron to an attack that wins the game
/// with odds of about one in three; with the guard (the level as it is) it
/// plays an action that keeps those odds below one in four.
#[test]
fn s13_the_root_keeps_its_matron_out_of_likely_reach() {
    use tokar_engine::arachne::WebLayout;
    use tokar_engine::search::{self, Budget, Level, EXPOSED};
    use tokar_engine::AnyGame;
    let mut g = Arachne::new(CaptureRules::Original, &WebLayout::STANDARD, 0).unwrap();
    for text in [
        "h5-h4-i4-j4 xk4",
        "l4-k4 xj4",
        "end",
        "g5-j5 xk5",
        "k5 xj5",
        "j5 xk5",
    ] {
        let seat = g.to_move();
        let a = g.parse(seat, text).unwrap();
        g.play(seat, &a).unwrap();
    }
    let seat = g.to_move();
    let settings = search::settings_for(&AnyGame::Arachne(g.clone()), Level::Normal);
    assert!(settings.guard && settings.chance);
    let budget = Budget::iterations(3000);
    let today = search::choose_with(
        &g,
        seat,
        &search::Settings {
            guard: false,
            ..settings
        },
        &budget,
        6,
    )
    .unwrap();
    assert_eq!(today.notation, "l5 xk5");
    let exposed = search::exposure(&g, seat, &today.action, 1);
    assert!(exposed >= EXPOSED, "{exposed}");
    let guarded = search::choose_with(&g, seat, &settings, &budget, 6).unwrap();
    assert_ne!(guarded.notation, today.notation);
    let kept = search::exposure(&g, seat, &guarded.action, 1);
    assert!(kept < EXPOSED, "{}: {kept}", guarded.notation);
    // What "exposed" means, on the same position: some legal action of the
    // other side after it wins the game by a capture roll.
    let mut after = g.clone();
    after.play(seat, &today.action).unwrap();
    let other = after.to_move();
    let winning: Vec<String> = after
        .legal_actions(other)
        .iter()
        .filter(|a| {
            (0..2).any(|i| {
                let mut next = after.clone();
                next.play_chance(other, a, i).is_ok() && next.outcome().is_over()
            })
        })
        .map(|a| after.format(a))
        .collect();
    assert!(!winning.is_empty());
}

/// S13: the guard is on only in the games whose captures a roll decides;
/// chance scoring (S12) is on wherever a level searches, and easy does neither.
#[test]
fn s13_the_guard_keeps_to_the_games_of_rolls() {
    use tokar_engine::catalog::{AnyGame, GameKind, Options};
    use tokar_engine::search::{settings_for, Level};
    for kind in GameKind::ALL {
        let game = AnyGame::setup(kind, &Options::new(), 1).unwrap();
        let rolls = matches!(kind, GameKind::Gladiator | GameKind::Arachne);
        for level in [Level::Normal, Level::Hard] {
            let s = settings_for(&game, level);
            assert_eq!(s.guard, rolls, "{kind:?} {level:?}");
            assert!(s.chance, "{kind:?} {level:?}");
        }
        let easy = settings_for(&game, Level::Easy);
        assert!(!easy.guard && !easy.chance, "{kind:?}");
    }
}
