//! Random self-play of Undead Arcana: a random army per game (from the
//! game's number), Human vs Undead Arcana and Undead Arcana vs Undead Arcana,
//! with the shared harness and the Arcana invariants plus burial.

mod common;

use tokar_engine::arcana::{Arcana, Pending, TURN_LIMIT};
use tokar_engine::catalog::{GameKind, Options};
use tokar_engine::{Game, Outcome, Rng, Seat, Viewer};

const MAX_PLIES: usize = 4 * TURN_LIMIT as usize;

/// A random army option: Human, Tokar's Undead, or Undead Arcana picks with
/// a random count of each rank's alternative.
fn random_army(rng: &mut Rng) -> String {
    match rng.below(10) {
        0 | 1 => return "human".into(),
        2 => return "undead".into(),
        3 => return "alternate".into(),
        _ => {}
    }
    let ranks = [
        ("pawn", "ghoul", "skeleton", 8),
        ("rook", "ghost", "mummy", 2),
        ("knight", "cultist", "zombie", 2),
        ("bishop", "wraith", "tomb-keeper", 2),
        ("queen", "vampire", "dark-priest", 1),
        ("king", "lich", "necromancer", 1),
    ];
    ranks
        .iter()
        .map(|(rank, alt, classic, size)| {
            let k = rng.below(size + 1);
            format!("{rank}:{alt}*{k}+{classic}")
        })
        .collect::<Vec<_>>()
        .join(",")
}

fn options_for(n: usize) -> Options {
    let mut rng = Rng::new(0xDEAD_0000 + n as u64);
    let mut o = Options::new();
    let a = random_army(&mut rng);
    // At least one army plays by Undead Arcana's rules.
    let b = loop {
        let b = random_army(&mut rng);
        if !["human", "undead"].contains(&a.as_str()) || !["human", "undead"].contains(&b.as_str())
        {
            break b;
        }
    };
    o.insert("army.0".into(), a);
    o.insert("army.1".into(), b);
    // As the table sets a new game up: the current edition of the rulings.
    GameKind::Arcana.stamp(&mut o, 2);
    o
}

fn invariants(g: &Arcana) {
    if !g.outcome().is_over() {
        assert!(g.general(Seat(0)).is_some() && g.general(Seat(1)).is_some());
    }
    let held: usize = match g.pending() {
        Some(Pending::Relocate { queue, .. }) => queue.len(),
        Some(Pending::TradePlace { .. }) => 1,
        // A Zombie's victim waiting to rise as Undead (U9).
        Some(Pending::Recruit {
            turned: Some(_), ..
        }) => 1,
        _ => 0,
    };
    let total = g.pieces().count()
        + g.graveyard(Seat(0)).len()
        + g.graveyard(Seat(1)).len()
        + g.buried(Seat(0)).len()
        + g.buried(Seat(1)).len()
        + held;
    assert_eq!(
        total,
        32,
        "models are neither created nor lost: {}",
        g.to_text()
    );
    assert!(g.undead_arcana());
    let v = g.view(Viewer::Seat(Seat(1)));
    assert_eq!(v.rotation, 180.0);
    assert_eq!(v.title, "Undead Arcana");
    for s in 0..2 {
        assert!(v.seats[s].notes[0].starts_with("Army: "));
        let buried = g.buried(Seat(s as u8));
        assert_eq!(
            v.seats[s].notes.iter().any(|n| n.starts_with("buried: ")),
            !buried.is_empty()
        );
        assert_eq!(v.seats[s].lost.len(), g.graveyard(Seat(s as u8)).len());
    }
}

#[test]
fn two_thousand_random_army_games_end() {
    // [won by seat 0, won by seat 1, quiet draw, turn limit, trapped General]
    let mut ends = [0usize; 5];
    let report = common::self_play_each::<Arcana>(options_for, 2000, MAX_PLIES, |g| {
        invariants(g);
        match g.outcome() {
            Outcome::Won { winners, reason } => {
                ends[winners[0].index()] += 1;
                if reason.contains("cannot move safely") {
                    ends[4] += 1;
                }
            }
            Outcome::Drawn { reason } if reason.contains("turn limit") => ends[3] += 1,
            Outcome::Drawn { .. } => ends[2] += 1,
            Outcome::Ongoing => {}
        }
    });
    println!(
        "games {} finished {} plies {} (mean {}) longest {}; won by seat 0 {}, by seat 1 {} (of which a General could not move safely: {}), quiet draws {}, turn-limit draws {}",
        report.games,
        report.finished,
        report.plies,
        report.plies / report.games,
        report.longest,
        ends[0],
        ends[1],
        ends[4],
        ends[2],
        ends[3]
    );
    assert_eq!(ends[..4].iter().sum::<usize>(), report.games);
    assert_eq!(report.finished, report.games, "every game ends");
}
