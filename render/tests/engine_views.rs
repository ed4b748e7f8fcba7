//! What the engine's views carry for the pictures: a battle's dice by side
//! with their totals, the cards under pieces, check. Played from the engine's
//! own games (seeded random play), so a change in a game's view shows here.

mod samples;

use tokar_engine::{GameKind, Options, RollRole, Seat};

/// Gladiator: a battle's view holds the attacker's dice (its dice plus one)
/// and the defender's apart, each with its sum, and the same dice in `dice`.
#[test]
fn a_gladiator_battle_splits_the_dice_by_side() {
    let (view, _, _) = samples::played(GameKind::Gladiator, &Options::new(), 1, 400, |v, _| {
        v.rolls.len() == 2
    })
    .expect("a battle");
    let [attack, defence] = &view.rolls[..] else {
        unreachable!()
    };
    assert_eq!(attack.role, RollRole::Attack);
    assert_eq!(defence.role, RollRole::Defence);
    assert_ne!(
        attack.seat.index() < 4,
        defence.seat.index() < 4,
        "the two sides are of different teams"
    );
    for r in [attack, defence] {
        let sum: i32 = r.dice.iter().map(|&d| d as i32).sum();
        assert_eq!(r.total, Some(sum));
    }
    let mut all = attack.dice.clone();
    all.extend(&defence.dice);
    assert_eq!(view.dice, Some((attack.seat, all)));
}

/// Arachne (the original rules roll for captures): an attack's view holds one
/// die a side, each total with the piece's rank (and the Grunts' help) added.
#[test]
fn an_arachne_attack_splits_the_dice_by_side() {
    let (view, _, _) = samples::played(GameKind::Arachne, &Options::new(), 3, 3000, |v, _| {
        v.rolls.len() == 2
    })
    .expect("an attack with dice");
    let [attack, defence] = &view.rolls[..] else {
        unreachable!()
    };
    assert_eq!(
        (attack.role, defence.role),
        (RollRole::Attack, RollRole::Defence)
    );
    assert_ne!(attack.seat, defence.seat);
    assert_eq!((attack.dice.len(), defence.dice.len()), (1, 1));
    assert!(attack.total.unwrap() >= attack.dice[0] as i32);
    assert!(defence.total.unwrap() >= defence.dice[0] as i32);
    // A turn's own dice are a throw of their own, without a total.
    let game = tokar_engine::AnyGame::setup(GameKind::Arachne, &Options::new(), 1).expect("a game");
    let view = game.view(tokar_engine::Viewer::Spectator);
    assert_eq!(view.rolls.len(), 1);
    assert_eq!(view.rolls[0].role, RollRole::Turn);
    assert_eq!(view.rolls[0].total, None);
}

/// Magic Chess: a card played under a piece lies there in every view (played
/// cards are public, R19), one entry per card; hands stay private.
#[test]
fn magic_chess_cards_under_pieces_are_in_every_view() {
    let (view, _, _) = samples::played(GameKind::MagicChess, &Options::new(), 1, 400, |v, _| {
        !v.under.is_empty()
    })
    .expect("a card played");
    for (cell, card) in &view.under {
        let piece = view
            .pieces
            .iter()
            .find(|p| p.cell == *cell)
            .expect("a card lies under a piece");
        assert!(
            !piece.statuses.is_empty(),
            "{card} under a piece acts on it"
        );
    }
    assert!(!view.hand.is_empty(), "seat 0's view holds its hand");
    let game =
        tokar_engine::AnyGame::setup(GameKind::MagicChess, &Options::new(), 1).expect("a game");
    let public = game.view(tokar_engine::Viewer::Spectator);
    assert!(public.hand.is_empty());
    let own = game.view(tokar_engine::Viewer::Seat(Seat(2)));
    assert_eq!(own.hand.len(), 3);
}

/// Gladiator: when a team is in check, its King's square is in the view's
/// `check`, and the King's seat's notes say so.
#[test]
fn a_gladiator_king_in_check_is_in_the_views_check() {
    let (view, _, _) = (1..=6)
        .find_map(|seed| {
            samples::played(GameKind::Gladiator, &Options::new(), seed, 600, |v, _| {
                !v.check.is_empty()
            })
        })
        .expect("random play puts a King in check");
    for &cell in &view.check {
        let king = view
            .pieces
            .iter()
            .find(|p| p.cell == cell)
            .expect("a piece on the checked square");
        assert_eq!(king.glyph.name, "King");
        assert!(view.seats[king.seat.index()]
            .notes
            .iter()
            .any(|n| n == "In check"));
    }
}
