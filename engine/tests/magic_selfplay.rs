//! Magic Chess random self-play: thousands of four-player games through the
//! shared harness, with hidden-information checks after every ply.

mod common;

use common::{json, self_play};
use tokar_engine::catalog::{Options, Variant};
use tokar_engine::magic::{MagicChess, Spell};
use tokar_engine::{Event, Game, Rng, Seat, Viewer};

fn sorted_names(cards: &[Spell]) -> Vec<String> {
    let mut v: Vec<String> = cards.iter().map(|c| c.name().to_string()).collect();
    v.sort();
    v
}

/// No view holds another seat's hand: a seat's view holds exactly its own
/// hand, the spectator's holds none, and everybody sees every hand's size.
fn check_hands(g: &MagicChess) {
    let spectator = g.view(Viewer::Spectator);
    assert!(spectator.hand.is_empty(), "the spectator sees a hand");
    for s in 0..4u8 {
        let v = g.view(Viewer::Seat(Seat(s)));
        let mut shown = v.hand.clone();
        shown.sort();
        assert_eq!(
            shown,
            sorted_names(g.hand(Seat(s))),
            "seat {s} sees another hand"
        );
        for t in 0..4u8 {
            assert_eq!(v.seats[t as usize].hand_size, Some(g.hand(Seat(t)).len()));
        }
    }
    assert_eq!(g.card_count(), 30, "a card appeared or vanished");
}

/// Views do not depend on anything hidden: re-dealing what `seat` cannot see
/// changes neither its view nor the spectator's (serialized, so that every
/// field counts).
fn check_views_ignore_hidden_cards(g: &MagicChess, seed: u64) {
    let spectator = serde_json::to_string(&g.view(Viewer::Spectator)).unwrap();
    for s in 0..4u8 {
        let r = g.redeal(Seat(s), seed ^ s as u64);
        assert_eq!(r.hand(Seat(s)), g.hand(Seat(s)));
        assert_eq!(
            serde_json::to_string(&r.view(Viewer::Seat(Seat(s)))).unwrap(),
            serde_json::to_string(&g.view(Viewer::Seat(Seat(s)))).unwrap(),
            "seat {s}'s view depends on hidden cards"
        );
        assert_eq!(
            serde_json::to_string(&r.view(Viewer::Spectator)).unwrap(),
            spectator,
            "the spectator's view depends on hidden cards"
        );
    }
}

#[test]
fn two_thousand_random_four_player_games() {
    let mut ply = 0u64;
    let report = self_play::<MagicChess>(&Options::new(), 2000, 200, |g| {
        check_hands(g);
        ply += 1;
        if ply.is_multiple_of(31) {
            check_views_ignore_hidden_cards(g, ply);
        }
    });
    println!(
        "{} games, {} finished, {} plies, longest {}",
        report.games, report.finished, report.plies, report.longest
    );
    assert!(report.finished > 0, "no game ended");
}

/// What every seat but the actor learns from events must not change when the
/// cards the actor has not seen are re-dealt; only the actor's secret may.
fn public(events: &[Event]) -> Vec<(String, String)> {
    events
        .iter()
        .map(|e| (e.text.clone(), format!("{:?}{}", e.marks, e.chance)))
        .collect()
}

#[test]
fn r19_event_texts_never_name_a_drawn_card() {
    let spells = ["Freeze", "Slow", "Anti-Jump"];
    let mut draws = 0;
    for n in 0..150u64 {
        let mut rng = Rng::new(n ^ 0xC0FFEE);
        let mut g = MagicChess::setup(&Options::new(), n).unwrap();
        for ply in 0..300 {
            if g.outcome().is_over() {
                break;
            }
            let seat = g.to_act()[0];
            let legal = g.legal_actions(seat);
            let a = legal[rng.below(legal.len() as u64) as usize];
            let mut other = g.redeal(seat, n * 1000 + ply);
            let events = g.play(seat, &a).unwrap();
            let twin = other.play(seat, &a).unwrap();
            assert_eq!(
                public(&events),
                public(&twin),
                "game {n} ply {ply}: public text depends on hidden cards"
            );
            for e in &events {
                if let Some(secret) = &e.secret {
                    assert_eq!(secret.seat, seat, "a secret for another seat");
                    draws += 1;
                    assert!(
                        !spells.iter().any(|s| e.text.contains(s)),
                        "a draw names its card: {}",
                        e.text
                    );
                }
            }
        }
        assert_eq!(
            json(&g.view(Viewer::Spectator)).get("hand"),
            Some(&serde_json::json!([]))
        );
    }
    assert!(draws > 100);
}

#[test]
fn random_partner_games_with_a_small_deck() {
    // R14 and R6 under random play: partners, and a deck that runs dry early.
    let mut options = Options::new();
    options.insert("partners".into(), "yes".into());
    options.insert("freeze-cards".into(), "4".into());
    options.insert("slow-cards".into(), "3".into());
    options.insert("anti-jump-cards".into(), "2".into());
    let report = self_play::<MagicChess>(&options, 200, 240, |g| {
        assert_eq!(g.card_count(), 9);
        if let tokar_engine::Outcome::Won { winners, .. } = g.outcome() {
            assert_eq!(winners.len(), 2);
            assert_eq!(winners[0].0 % 2, winners[1].0 % 2, "partners win together");
        }
        let spectator = g.view(Viewer::Spectator);
        assert!(spectator.hand.is_empty());
        assert_eq!(
            g.heuristic(Seat(0)),
            g.heuristic(Seat(2)),
            "partners share one estimate"
        );
        for s in 0..4 {
            assert!((0.0..=1.0).contains(&g.heuristic(Seat(s))));
        }
    });
    assert!(report.finished > 0);
}
