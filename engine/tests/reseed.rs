//! `AnyGame::reseed`: a game's chance replaced part-way, the position kept.
//! The table re-seeds a game created from a record after the record's actions
//! (its ruling T13), so that the record's maker knows nothing of what follows.

use serde_json::Value;
use tokar_engine::{AnyGame, GameKind, Viewer};

/// `kind` set up from seed 1 and played `n` actions (the first legal each time).
fn played(kind: GameKind, n: usize) -> AnyGame {
    let mut g = AnyGame::setup(kind, &Default::default(), 1).unwrap();
    for _ in 0..n {
        let seat = g.to_act()[0];
        let a = g.legal_actions(seat)[0].clone();
        g.play(seat, &a).unwrap();
    }
    g
}

fn state(g: &AnyGame) -> Value {
    serde_json::to_value(g).unwrap()["state"].clone()
}

fn reseeded(g: &AnyGame, seed: u64) -> AnyGame {
    let mut g = g.clone();
    g.reseed(seed);
    g
}

#[test]
fn the_position_stays_and_the_same_seed_gives_the_same_game() {
    for kind in GameKind::ALL {
        let g = played(kind, 3);
        let a = reseeded(&g, 7);
        assert_eq!(state(&a), state(&reseeded(&g, 7)), "{kind}: deterministic");
        let (before, after) = (g.view(Viewer::Spectator), a.view(Viewer::Spectator));
        assert_eq!(before.pieces, after.pieces, "{kind}: the pieces stay");
        assert_eq!(before.to_act, after.to_act, "{kind}: the turn stays");
        assert_eq!(before.move_number, after.move_number, "{kind}");
        let sizes =
            |v: &tokar_engine::View| v.seats.iter().map(|s| s.hand_size).collect::<Vec<_>>();
        assert_eq!(sizes(&before), sizes(&after), "{kind}: hand sizes stay");
    }
}

#[test]
fn magic_chess_deals_its_hidden_cards_again() {
    let g = played(GameKind::MagicChess, 3);
    let sorted = |s: &Value| {
        let mut all: Vec<String> = s["hands"]
            .as_array()
            .unwrap()
            .iter()
            .chain([&s["draw_pile"]])
            .flat_map(|h| h.as_array().unwrap().iter().map(Value::to_string))
            .collect();
        all.sort();
        all
    };
    let deal = |s: &Value| (s["hands"].clone(), s["draw_pile"].clone());
    let (s, a, b) = (state(&g), state(&reseeded(&g, 7)), state(&reseeded(&g, 8)));
    assert_eq!(sorted(&s), sorted(&a), "the same cards");
    assert_eq!(s["discard"], a["discard"], "the face-up pile stays");
    assert_ne!(deal(&s), deal(&a), "dealt again");
    assert_ne!(deal(&a), deal(&b), "from the seed");
    assert_ne!(s["rng"], a["rng"], "later draws too");
}

#[test]
fn arachne_throws_the_dice_of_a_turn_not_begun_again() {
    let g = played(GameKind::Arachne, 2);
    // Over many seeds the turn's dice come out differently: they are thrown.
    let dice: std::collections::BTreeSet<String> = (0..40)
        .map(|seed| state(&reseeded(&g, seed))["turn_dice"].to_string())
        .collect();
    assert!(dice.len() > 5, "{dice:?}");
    assert_ne!(state(&g)["rng"], state(&reseeded(&g, 7))["rng"]);
}

#[test]
fn gladiator_and_arcana_keep_everything_but_the_generator() {
    let g = played(GameKind::Gladiator, 2);
    let (s, a) = (state(&g), state(&reseeded(&g, 7)));
    assert_ne!(s["rng"], a["rng"]);
    let strip = |mut v: Value| {
        v.as_object_mut().unwrap().remove("rng");
        v
    };
    assert_eq!(strip(s), strip(a));
    let g = played(GameKind::Arcana, 2);
    assert_eq!(
        state(&g),
        state(&reseeded(&g, 7)),
        "Arcana has no chance left"
    );
}

/// `AnyGame::rekey` (engine/rules/chance.md): a game begun with a SplitMix64 seed is given a
/// ChaCha20 key part-way. Every seat sees exactly what it saw before (dice thrown, hands
/// dealt); only what nobody has seen changes: the dice to come and Magic Chess's draw pile.
#[test]
fn a_rekey_changes_nothing_anyone_has_seen() {
    let key = |b: u8| tokar_engine::Seed::ChaCha20([b; 32]);
    for kind in GameKind::ALL {
        let g = played(kind, 5);
        let mut a = g.clone();
        a.rekey(key(1));
        let viewers = (0..kind.players() as u8)
            .map(|s| Viewer::Seat(tokar_engine::Seat(s)))
            .chain([Viewer::Spectator]);
        for v in viewers {
            assert_eq!(g.view(v), a.view(v), "{kind}: {v:?} sees what it saw");
        }
        assert!(a.chance_is_strong(), "{kind}");
        let mut b = g.clone();
        b.rekey(key(1));
        assert_eq!(state(&a), state(&b), "{kind}: the same key, the same game");
    }
    for kind in [GameKind::Arachne, GameKind::Gladiator, GameKind::MagicChess] {
        assert!(
            !played(kind, 0).chance_is_strong(),
            "{kind}: a SplitMix64 seed"
        );
    }
    assert!(
        played(GameKind::Arcana, 0).chance_is_strong(),
        "Arcana has no chance after its setup"
    );

    // Magic Chess: the hands stay as dealt, the pile holds the same cards in a new order.
    let g = played(GameKind::MagicChess, 3);
    let mut a = g.clone();
    a.rekey(key(2));
    let (s, t) = (state(&g), state(&a));
    assert_eq!(s["hands"], t["hands"]);
    let sorted = |v: &Value| {
        let mut cards: Vec<String> = v.as_array().unwrap().iter().map(Value::to_string).collect();
        cards.sort();
        cards
    };
    assert_eq!(sorted(&s["draw_pile"]), sorted(&t["draw_pile"]));
    assert_ne!(s["draw_pile"], t["draw_pile"], "the pile is shuffled again");

    // Arachne: this turn's dice stand; the later ones come from the key.
    let g = played(GameKind::Arachne, 2);
    let (mut a, mut b) = (g.clone(), g.clone());
    a.rekey(key(3));
    b.rekey(key(4));
    assert_eq!(state(&a)["turn_dice"], state(&g)["turn_dice"]);
    let later = |mut x: AnyGame| {
        (0..8)
            .map(|_| {
                let seat = x.to_act()[0];
                let action = x.legal_actions(seat)[0].clone();
                x.play(seat, &action).unwrap();
                state(&x)["turn_dice"].clone()
            })
            .collect::<Vec<_>>()
    };
    assert_ne!(later(a), later(b), "two keys, two futures");
}
