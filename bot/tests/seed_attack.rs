//! Nobody can compute a live game's chance from what they can see (engine/rules/chance.md).
//!
//! The attack: a player makes throw-away games against a second account of their own,
//! resigns them and exports them (a finished game's record shows its seed, ruling T13), then
//! plays a real game. From everything they saw (the exported seeds, the games' numbers, the
//! times each began to the millisecond, the real game's actions and what each showed them)
//! they list every seed the table could have drawn and keep those that show what they saw.
//! A seed that survives predicts the rest: the dice to come, every hand.
//!
//! Against the derivation the table used before (one 64-bit number per process, mixed with
//! the time and the game's number through SplitMix64, which is invertible), [`candidates`]
//! finds the game's seed and foretells ten Arachne throws out of ten, and narrows a Magic
//! Chess deal to a few with the real one among them: the first test shows that, so the
//! second can fail. Against the table as it is (every seed 256 bits drawn from the operating
//! system for that game alone) the same attack foretells no throw and finds no deal.

mod common;
use common::*;
use tokar_bot::clock::Clock;
use tokar_engine::catalog::{AnyGame, GameKind, Options};
use tokar_engine::{Rng, Seat, Seed, Viewer};

/// SplitMix64's increment, and the multiplier the old derivation gave the game's number.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;
/// How far from the time a player saw (a message's timestamp) the table's own clock may be.
const WINDOW_MS: u64 = 50;

/// What the attacker saw of one finished throw-away game.
struct Exported {
    id: u64,
    began_ms: u64,
    seed: Seed,
}

/// What the attacker sees of the game they attack: its number, when it began, and after
/// each step (the setup, then each action) what the attacker's seat was shown.
struct Sight {
    kind: GameKind,
    id: u64,
    began_ms: u64,
    seat: Seat,
    actions: Vec<(Seat, String)>,
    views: Vec<serde_json::Value>,
}

/// The game `seed` sets up, after the first `n` actions of `sight`.
fn game_after(sight: &Sight, seed: Seed, n: usize) -> Option<AnyGame> {
    let mut game = AnyGame::setup(sight.kind, &Options::new(), seed).ok()?;
    for (seat, action) in &sight.actions[..n] {
        game.play(*seat, action).ok()?;
    }
    Some(game)
}

fn view_json(game: &AnyGame, seat: Seat) -> serde_json::Value {
    serde_json::to_value(game.view(Viewer::Seat(seat))).unwrap()
}

/// Whether `seed` shows the attacker everything they were shown, step by step.
fn consistent(sight: &Sight, seed: Seed) -> bool {
    let Ok(mut game) = AnyGame::setup(sight.kind, &Options::new(), seed) else {
        return false;
    };
    for (i, seen) in sight.views.iter().enumerate() {
        if i > 0 {
            let (seat, action) = &sight.actions[i - 1];
            if game.play(*seat, action).is_err() {
                return false;
            }
        }
        if &view_json(&game, sight.seat) != seen {
            return false;
        }
    }
    true
}

/// The inverse of `x * c` modulo 2^64 for an odd `c` (Newton's iteration).
fn inverse(c: u64) -> u64 {
    let mut inv = c;
    for _ in 0..6 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(c.wrapping_mul(inv)));
    }
    inv
}

/// The inverse of `x ^ (x >> s)`.
fn unshift(y: u64, s: u32) -> u64 {
    let mut x = y;
    for _ in 0..64 / s + 1 {
        x = y ^ (x >> s);
    }
    x
}

/// The SplitMix64 state whose next output is `out`: SplitMix64 has no secret.
fn state_before(out: u64) -> u64 {
    let mut z = unshift(out, 31);
    z = unshift(z.wrapping_mul(inverse(0x94D0_49BB_1331_11EB)), 27);
    z = unshift(z.wrapping_mul(inverse(0xBF58_476D_1CE4_E5B9)), 30);
    z.wrapping_sub(GOLDEN)
}

/// The seed the old derivation gave game `id` begun at `now` in a process holding `entropy`.
fn legacy_seed(entropy: u64, now: u64, id: u64) -> u64 {
    Rng::new(entropy ^ now ^ id.wrapping_mul(GOLDEN)).next_u64()
}

/// The times the table's clock may have read when a game shown as begun at `ms` began.
fn window(ms: u64) -> impl Iterator<Item = u64> {
    ms.saturating_sub(WINDOW_MS)..=ms + WINDOW_MS
}

/// Every seed the attacker can think of for the attacked game, from the exported seeds:
/// - each 64-bit number an exported seed holds (a SplitMix seed, each word of a ChaCha key),
///   taken as an output of the old derivation and inverted to the process's number, kept
///   where every exported game agrees on it (each game's own where none is agreed on), then
///   carried forward to the attacked game's
///   number and time;
/// - the exported keys themselves, their neighbours (each word moved by up to 8), and the keys
///   a ChaCha stream keyed by each of them would draw next, as if seeds came one from another;
/// - the keys `--seed` derives from each of those words and from small numbers (a careless
///   operator's seeds).
fn candidates(exported: &[Exported], sight: &Sight) -> Vec<Seed> {
    let words = |s: &Seed| -> Vec<u64> {
        match s {
            Seed::SplitMix64(n) => vec![*n],
            Seed::ChaCha20(key) => key
                .chunks(8)
                .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
                .collect(),
        }
    };
    let mut out = Vec::new();
    // The process's number, from each exported game: base = entropy ^ now.
    let entropies = |e: &Exported, w: u64| -> std::collections::HashSet<u64> {
        let base = state_before(w) ^ e.id.wrapping_mul(GOLDEN);
        window(e.began_ms).map(|t| base ^ t).collect()
    };
    let word_count = words(&exported[0].seed).len();
    for i in 0..word_count {
        let each: Vec<_> = exported
            .iter()
            .map(|e| entropies(e, words(&e.seed)[i]))
            .collect();
        let mut common = each[0].clone();
        for theirs in &each[1..] {
            common.retain(|x| theirs.contains(x));
        }
        // Where the games agree on no number, every game's own numbers are tried.
        if common.is_empty() {
            common = each.into_iter().flatten().collect();
        }
        for entropy in common {
            for t in window(sight.began_ms) {
                out.push(Seed::SplitMix64(legacy_seed(entropy, t, sight.id)));
            }
        }
    }
    for e in exported {
        out.push(e.seed);
        if let Seed::ChaCha20(key) = e.seed {
            out.push(Rng::from_seed(e.seed).draw_seed());
            for w in 0..4 {
                for d in 1..=8u64 {
                    for sign in [false, true] {
                        let mut k = key;
                        let word = u64::from_le_bytes(k[w * 8..w * 8 + 8].try_into().unwrap());
                        let moved = if sign {
                            word.wrapping_sub(d)
                        } else {
                            word.wrapping_add(d)
                        };
                        k[w * 8..w * 8 + 8].copy_from_slice(&moved.to_le_bytes());
                        out.push(Seed::ChaCha20(k));
                    }
                }
            }
        }
        for w in words(&e.seed) {
            out.push(tokar_bot::entropy::derived(
                w,
                tokar_bot::entropy::Purpose::Game,
                sight.id,
            ));
        }
    }
    for base in 0..64 {
        out.push(tokar_bot::entropy::derived(
            base,
            tokar_bot::entropy::Purpose::Game,
            sight.id,
        ));
    }
    out
}

/// The seeds among [`candidates`] that show the attacker what they saw.
fn surviving(exported: &[Exported], sight: &Sight) -> Vec<Seed> {
    let mut all = candidates(exported, sight);
    all.sort_by_key(|s| format!("{s}"));
    all.dedup();
    all.into_iter().filter(|s| consistent(sight, *s)).collect()
}

/// First legal actions from `game`'s setup, `n` of them: (seat, action) pairs.
fn first_actions(game: &mut AnyGame, n: usize) -> Vec<(Seat, String)> {
    let mut played = Vec::new();
    for _ in 0..n {
        let Some(&seat) = game.to_act().first() else {
            break;
        };
        let action = game.legal_actions(seat)[0].clone();
        game.play(seat, &action).unwrap();
        played.push((seat, action));
    }
    played
}

/// The attack against a table of the old kind: one process number, games begun at known
/// times, seeds from [`legacy_seed`]. Returns what the attacker saw and the real game.
fn legacy_table(kind: GameKind, seen_actions: usize) -> (Vec<Exported>, Sight, AnyGame) {
    let entropy = tokar_bot::entropy::fresh(&[]);
    // Each game began a few milliseconds off the time its message showed.
    let began = [(1, 1_795_000_000_000u64, 17), (2, 1_795_000_360_000, 3)];
    let exported = began
        .iter()
        .map(|&(id, ms, off)| Exported {
            id,
            began_ms: ms,
            seed: Seed::SplitMix64(legacy_seed(entropy, ms + off, id)),
        })
        .collect();
    let (id, ms, off) = (3, 1_795_003_600_000u64, 41);
    let seed = Seed::SplitMix64(legacy_seed(entropy, ms + off, id));
    let mut real = AnyGame::setup(kind, &Options::new(), seed).unwrap();
    let seat = Seat(0);
    let mut views = vec![view_json(&real, seat)];
    let mut actions = Vec::new();
    for _ in 0..seen_actions {
        let step = first_actions(&mut real, 1);
        actions.extend(step);
        views.push(view_json(&real, seat));
    }
    let sight = Sight {
        kind,
        id,
        began_ms: ms,
        seat,
        actions,
        views,
    };
    (exported, sight, real)
}

/// The throws each of `actions` shows when played from `game`: `None` where one of them
/// cannot be played there.
fn throws_along(mut game: AnyGame, actions: &[(Seat, String)]) -> Option<Vec<serde_json::Value>> {
    let mut throws = Vec::new();
    for (seat, action) in actions {
        game.play(*seat, action).ok()?;
        throws.push(serde_json::to_value(game.view(Viewer::Spectator).rolls).unwrap());
    }
    Some(throws)
}

/// Everything a Magic Chess deal decided: every hand and the draw pile's order.
fn deal(game: &AnyGame) -> serde_json::Value {
    let state = &serde_json::to_value(game).unwrap()["state"];
    serde_json::json!([state["hands"], state["draw_pile"]])
}

/// How many of `survivors` foretell the ten throws after the ones seen.
fn foretelling(
    sight: &Sight,
    survivors: &[Seed],
    later: &[(Seat, String)],
    real: &[serde_json::Value],
) -> usize {
    survivors
        .iter()
        .filter(|s| {
            let guess = game_after(sight, **s, sight.actions.len()).unwrap();
            throws_along(guess, later).as_deref() == Some(real)
        })
        .count()
}

/// How many of `survivors` deal every hand and the draw pile as the real game did.
fn dealing(sight: &Sight, survivors: &[Seed], real: &AnyGame) -> usize {
    survivors
        .iter()
        .filter(|s| deal(&game_after(sight, **s, 0).unwrap()) == deal(real))
        .count()
}

#[test]
fn the_attack_finds_the_seeds_of_the_old_derivation() {
    // Arachne: the first four throws (the setup's and three actions') give the seed away.
    let (exported, sight, real) = legacy_table(GameKind::Arachne, 3);
    let found = surviving(&exported, &sight);
    assert_eq!(found.len(), 1, "one seed shows what the attacker saw");
    let mut ahead = real.clone();
    let later = first_actions(&mut ahead, 10);
    assert_eq!(later.len(), 10);
    let throws = throws_along(real, &later).unwrap();
    assert_eq!(
        foretelling(&sight, &found, &later, &throws),
        1,
        "ten throws of ten"
    );

    // Magic Chess: the attacker's own hand narrows the deal to a few, the real one among them.
    let (exported, sight, real) = legacy_table(GameKind::MagicChess, 0);
    let found = surviving(&exported, &sight);
    let tried = candidates(&exported, &sight).len();
    assert!(
        found.len() * 20 < tried,
        "{} of {tried} deals show the attacker's hand",
        found.len()
    );
    assert_eq!(
        dealing(&sight, &found, &real),
        1,
        "the real deal is among them"
    );
}

/// What the attack on a table seeded as in production saw and could not see.
struct Attacked {
    exported: Vec<Exported>,
    sight: Sight,
    /// The actions played after the ones seen, and the throws they showed.
    later: Vec<(Seat, String)>,
    throws: Vec<serde_json::Value>,
    /// The real game as it stood after the actions seen.
    real: AnyGame,
}

/// Plays two throw-away games (resigned and exported) and the attacked game on a table
/// seeded as in production; the attacker sees `seen` actions of it, and `later` more are
/// played after.
async fn attack_the_table(kind: GameKind, name: &str, seen: usize, later: usize) -> Attacked {
    let e = open(&fresh_dir(name), None).await;
    let players: &[&str] = match kind {
        GameKind::MagicChess => &["mallory", "mallet", "mal3", "mal4"],
        _ => &["mallory", "mallet"],
    };
    let mut invite = format!("@{} /new game:{}", players[0], kind.slug());
    invite.push_str(&opponents(&players[1..]));
    let mut began = Vec::new();
    let mut attacked = 0;
    // Games #1 and #2 are thrown away; the attacked game is the first after them that lasts
    // `seen + later` actions (a game of first legal actions can end sooner).
    for id in 1..=8u64 {
        e.ok(&invite).await;
        began.push(e.clock.now());
        for p in &players[1..] {
            e.ok(&format!("@{p} /accept game:{id}")).await;
        }
        e.clock.advance(360_000).unwrap();
        if id < 3 {
            for p in &players[..players.len() - 1] {
                e.ok(&format!("@{p} /resign game:{id} confirm:yes")).await;
            }
            continue;
        }
        let mut played = 0;
        while played < seen + later && e.to_act(id, players).await.is_some() {
            e.play_first(id, players).await;
            played += 1;
        }
        if played == seen + later {
            attacked = id;
            break;
        }
    }
    assert!(attacked > 0, "a game lasted {} actions", seen + later);
    let mut exported = Vec::new();
    for id in 1..=2u64 {
        let r = e.ok(&format!("@{} /export game:{id}", players[0])).await;
        let record = exported_record(&r[0]);
        let seed = record
            .split('|')
            .find_map(|p| p.strip_prefix("seed="))
            .expect("a finished game's record shows its seed")
            .parse::<Seed>()
            .expect("a seed");
        assert!(matches!(seed, Seed::ChaCha20(_)), "{record}");
        exported.push(Exported {
            id,
            began_ms: began[id as usize - 1],
            seed,
        });
    }
    let dir = e.dir.clone();
    drop(e);
    // What the attacker's seat was shown after each step of the attacked game.
    let store = open_store(&dir);
    let rec = store.game(attacked).unwrap().unwrap();
    let log = store.log(attacked).unwrap();
    assert_eq!(log.len(), seen + later);
    let seat = Seat(
        rec.members
            .iter()
            .find(|m| m.user.id == user(players[0]).id)
            .expect("the attacker plays the attacked game")
            .seats[0],
    );
    let after = |n: usize| tokar_bot::table::replay(&rec, &log[..n]).unwrap();
    let views = (0..=seen).map(|n| view_json(&after(n), seat)).collect();
    let mut actions: Vec<(Seat, String)> = log
        .iter()
        .map(|l| match &l.action {
            tokar_bot::record::LogAction::Play(a) => (Seat(l.seat), a.clone()),
            other => panic!("not a play: {other:?}"),
        })
        .collect();
    let later = actions.split_off(seen);
    let throws = (seen + 1..=seen + later.len())
        .map(|n| serde_json::to_value(after(n).view(Viewer::Spectator).rolls).unwrap())
        .collect();
    Attacked {
        exported,
        sight: Sight {
            kind,
            id: attacked,
            began_ms: began[attacked as usize - 1],
            seat,
            actions,
            views,
        },
        later,
        throws,
        real: after(seen),
    }
}

#[tokio::test]
async fn the_same_attack_foretells_nothing_at_the_table() {
    // Four throws of 2d8 leave one seed in 2^24 showing them by chance: a stray survivor
    // is possible, one that also foretells the next ten throws (2^-60) is not.
    let a = attack_the_table(GameKind::Arachne, "seed-attack-arachne", 3, 10).await;
    let tried = candidates(&a.exported, &a.sight).len();
    assert!(tried > 10_000, "the attack tries its candidates ({tried})");
    let found = surviving(&a.exported, &a.sight);
    assert!(
        found.len() <= 2,
        "{} of {tried} seeds show the first four throws",
        found.len()
    );
    assert_eq!(foretelling(&a.sight, &found, &a.later, &a.throws), 0);

    // Three cards of a deck of three spells are shown by many deals (several candidates may
    // deal the same hands by chance); none of them also orders the draw pile as it is.
    let a = attack_the_table(GameKind::MagicChess, "seed-attack-magic", 0, 0).await;
    let found = surviving(&a.exported, &a.sight);
    assert_eq!(
        dealing(&a.sight, &found, &a.real),
        0,
        "no candidate deals the real hands and pile"
    );
}

/// `--seed` makes every game computable: the Discord mode refuses it with one line and
/// starts nothing (the console keeps it, for repeatable runs).
#[test]
fn the_discord_mode_refuses_a_fixed_seed() {
    for args in [&["--seed", "7"][..], &["--seed=7"][..]] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tokar"))
            .args(args)
            .env("DISCORD_TOKEN", "not-a-token")
            .env("TOKAR_DATA", fresh_dir("seed-refused"))
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--seed makes every game's dice and cards known in advance"),
            "{args:?}: {err}"
        );
        assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    }
}
