//! The search on the real games: over seeded games against a random player,
//! every action it chooses is one the true game lists and accepts, the answer
//! is the same for the same seed and budget, and for games with hidden cards
//! it looks only at redealt copies.

use tokar_engine::catalog::{Options, Variant};
use tokar_engine::search::{self, choose, Budget, Level};
use tokar_engine::{arachne, arcana, gladiator, magic};
use tokar_engine::{Game, Rng, Seat, Viewer};

/// Plays `games` games of at most `plies` plies: seat `n % seats` of game `n`
/// uses the search at `level` with `iterations`, the other seats play at
/// random. Returns how many search decisions were checked.
fn search_stays_legal<G: Variant>(
    games: u64,
    plies: usize,
    level: Level,
    iterations: u32,
) -> usize {
    let mut checked = 0;
    for n in 0..games {
        let mut game = G::setup(&Options::new(), 0xB07 + n).expect("setup");
        let me = Seat((n % game.seat_count() as u64) as u8);
        let mut rng = Rng::new(n);
        for ply in 0..plies {
            if game.outcome().is_over() {
                break;
            }
            let to_act = game.to_act();
            assert!(!to_act.is_empty(), "game {n} ply {ply}: nobody to act");
            let seat = if to_act.contains(&me) {
                me
            } else {
                to_act[rng.below(to_act.len() as u64) as usize]
            };
            let legal = game.legal_actions(seat);
            let action = if seat == me {
                let choice = choose(
                    &game,
                    seat,
                    level,
                    &Budget::iterations(iterations),
                    rng.next_u64(),
                )
                .unwrap_or_else(|| panic!("game {n} ply {ply}: the search found no action"));
                assert_eq!(choice.notation, game.format(&choice.action));
                checked += 1;
                choice.action
            } else {
                search::random(&game, seat, rng.next_u64()).expect("a legal action")
            };
            assert!(
                legal.contains(&action),
                "game {n} ply {ply}: {seat} chose '{}', which is not listed",
                game.format(&action)
            );
            game.play(seat, &action).unwrap_or_else(|e| {
                panic!(
                    "game {n} ply {ply}: '{}' refused: {e}",
                    game.format(&action)
                )
            });
        }
    }
    checked
}

/// The same seed and iteration budget give the same choice, from a position a
/// few random plies into game `seed`.
fn deterministic<G: Variant>(seed: u64) {
    let mut game = G::setup(&Options::new(), seed).expect("setup");
    let mut rng = Rng::new(seed);
    for _ in 0..6 {
        let seat = game.to_act()[0];
        let a = search::random(&game, seat, rng.next_u64()).unwrap();
        game.play(seat, &a).unwrap();
    }
    let seat = game.to_act()[0];
    let a = choose(&game, seat, Level::Normal, &Budget::iterations(40), 11).unwrap();
    let b = choose(&game, seat, Level::Normal, &Budget::iterations(40), 11).unwrap();
    assert_eq!(a, b);
    assert_eq!(
        search::greedy(&game, seat, 5),
        search::greedy(&game, seat, 5)
    );
}

#[test]
fn arcana_search_plays_only_legal_actions() {
    assert!(search_stays_legal::<arcana::Arcana>(3, 80, Level::Normal, 15) > 20);
    assert!(search_stays_legal::<arcana::Arcana>(2, 60, Level::Easy, 15) > 10);
    deterministic::<arcana::Arcana>(1);
}

#[test]
fn magic_chess_search_plays_only_legal_actions() {
    assert!(search_stays_legal::<magic::MagicChess>(4, 120, Level::Normal, 15) > 10);
    assert!(search_stays_legal::<magic::MagicChess>(2, 80, Level::Easy, 15) > 5);
    deterministic::<magic::MagicChess>(2);
}

#[test]
fn gladiator_search_plays_only_legal_actions() {
    assert!(search_stays_legal::<gladiator::Gladiator>(2, 80, Level::Normal, 10) > 5);
    assert!(search_stays_legal::<gladiator::Gladiator>(1, 60, Level::Easy, 10) > 3);
    deterministic::<gladiator::Gladiator>(3);
}

#[test]
fn arachne_search_plays_only_legal_actions() {
    assert!(search_stays_legal::<arachne::Arachne>(6, 80, Level::Normal, 20) > 10);
    assert!(search_stays_legal::<arachne::Arachne>(3, 60, Level::Easy, 20) > 5);
    deterministic::<arachne::Arachne>(4);
}

/// Magic Chess hides hands and the deck: a choice must not depend on what the
/// other seats hold. Two games that differ only in the hands of the other
/// seats (one is a redeal of the other for the searching seat) look the same
/// to that seat, so the search must choose the same for both.
#[test]
fn magic_chess_choice_ignores_the_other_hands() {
    for seed in 0..4 {
        let game = magic::MagicChess::setup(&Options::new(), seed).expect("setup");
        let seat = game.to_act()[0];
        let other = game.redeal(seat, 0xD1FF + seed);
        assert_eq!(
            game.view(Viewer::Seat(seat)),
            other.view(Viewer::Seat(seat)),
            "a redeal changed what the seat sees"
        );
        let a = choose(&game, seat, Level::Normal, &Budget::iterations(40), 3).unwrap();
        let b = choose(&other, seat, Level::Normal, &Budget::iterations(40), 3).unwrap();
        assert_eq!(a.action, b.action, "{} / {}", a.why, b.why);
        assert_eq!(a.visits, b.visits);
    }
}

/// The table's entry point: a game of any kind, answered in notation that
/// the game accepts.
#[test]
fn choose_any_answers_in_notation_the_game_accepts() {
    use tokar_engine::{AnyGame, GameKind};
    for (n, kind) in GameKind::ALL.into_iter().enumerate() {
        let mut game = AnyGame::setup(kind, &Options::new(), n as u64).expect("setup");
        for _ in 0..3 {
            let seat = game.to_act()[0];
            let choice = search::choose_any(&game, seat, Level::Normal, &Budget::iterations(20), 5)
                .expect("a choice");
            assert!(
                game.legal_actions(seat).contains(&choice.action),
                "{kind}: {}",
                choice.why
            );
            assert!(choice.why.starts_with(&choice.action), "{}", choice.why);
            game.play(seat, &choice.action).expect("the notation plays");
        }
    }
}

/// S7 and S8 (engine/rules/search.md): the bot searches Gladiator and
/// Arachne with first-play urgency at the searching levels and nothing else
/// changes for the other games; the urgency path chooses only listed actions
/// over whole turns.
#[test]
fn gladiator_and_arachne_search_with_first_play_urgency() {
    use tokar_engine::{AnyGame, GameKind};
    for kind in GameKind::ALL {
        let game = AnyGame::setup(kind, &Options::new(), 1).expect("setup");
        for level in Level::ALL {
            let s = search::settings_for(&game, level);
            let want =
                matches!(kind, GameKind::Gladiator | GameKind::Arachne) && level != Level::Easy;
            assert_eq!(s.first_play, want, "{kind} {level}");
            assert_eq!(
                search::Settings {
                    first_play: false,
                    guard: level.settings().guard,
                    ..s
                },
                level.settings(),
                "only first_play and the guard (S13, tested in search_chance.rs) differ"
            );
        }
    }
    for kind in [GameKind::Gladiator, GameKind::Arachne] {
        let mut game = AnyGame::setup(kind, &Options::new(), 7).expect("setup");
        let mut rng = Rng::new(7);
        for ply in 0..24 {
            if game.outcome().is_over() {
                break;
            }
            let to_act = game.to_act();
            let seat = to_act[rng.below(to_act.len() as u64) as usize];
            let choice = search::choose_any(
                &game,
                seat,
                Level::Normal,
                &Budget::iterations(200),
                rng.next_u64(),
            )
            .unwrap_or_else(|| panic!("{kind} ply {ply}: no choice for {seat}"));
            assert!(
                game.legal_actions(seat).contains(&choice.action),
                "{kind} ply {ply}: {}",
                choice.why
            );
            game.play(seat, &choice.action).expect("the choice plays");
        }
    }
}
