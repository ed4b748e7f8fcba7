//! Who a team game rates, through the table (ruling T46 in docs/rulings.md): the requests a
//! server sends, the store's ratings after.

mod common;
use common::*;
use skillratings::weng_lin::{weng_lin, WengLinConfig, WengLinRating};
use skillratings::Outcomes;
use tokar_bot::rating::{update, Placing, Rating, Score};
use tokar_bot::storage::GLOBAL;
use tokar_engine::catalog::GameKind;

/// Five plays each (T48: a resignation before that leaves the game unrated).
const REAL_PLAY: usize = tokar_bot::rating::places::MIN_PLAYS_BEFORE_RESIGNING;

/// T46: a team game (Magic Chess with partners: alice and carol against bob and dave) in
/// which dave never acts (his seat is claimed at its deadline): only dave is left out of the
/// rating; alice, carol and bob are rated, the pair's side as strong as its members'
/// average against bob alone. Before T46 the one passive person made the game unrated for
/// everyone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_person_who_never_acted_is_left_out() {
    let e = env("ratings-passive").await;
    e.ok(
        "@alice /new game:magic-chess opponent:@bob opponent2:@carol opponent3:@dave partners:yes",
    )
    .await;
    for u in ["bob", "carol", "dave"] {
        e.ok(&format!("@{u} /accept game:1")).await;
    }
    let active = ["alice", "bob", "carol"];
    let mut made = [0usize; 3];
    let mut skipped = 0;
    while made.iter().any(|m| *m < REAL_PLAY) {
        match e.to_act(1, &active).await {
            Some(who) => {
                let action = e.actions(who, 1).await.remove(0);
                e.clock.advance(tokar_bot::duration::HOUR).unwrap();
                e.ok(&format!("@{who} /play game:1 action:\"{action}\""))
                    .await;
                made[active.iter().position(|x| *x == who).unwrap()] += 1;
            }
            None => {
                // dave's turn: he never acts; the deadline passes it on (a skip is no play).
                skipped += 1;
                assert!(skipped < 20, "the game stays with dave");
                e.clock.advance(8 * tokar_bot::duration::DAY).unwrap();
                e.table.tick().await;
            }
        }
    }
    assert!(skipped > 0, "dave's turn came");
    // bob resigns; dave's seat, the last of their side, is claimed at its deadline.
    e.ok("@bob /resign game:1 confirm:yes").await;
    e.clock.advance(8 * tokar_bot::duration::DAY).unwrap();
    let r = e.ok("@alice /claim game:1").await;
    assert!(r.iter().any(|r| r.content.contains("is over")), "{r:#?}");
    let dir = e.dir.clone();
    drop(e);
    let store = open_store(&dir);
    let kind = GameKind::MagicChess;
    let standing = |name: &str| store.standing(kind, GLOBAL, user(name).id).unwrap();
    assert_eq!(standing("dave"), None, "dave is left out");
    let game = store.rated_game(1).unwrap().expect("the game is rated");
    let placed: Vec<(u64, u8, Score)> = game
        .placings
        .iter()
        .map(|p| (p.user, p.team, p.score))
        .collect();
    assert_eq!(
        placed,
        [
            (user("alice").id, 0, Score::Win),
            (user("bob").id, 1, Score::Loss),
            (user("carol").id, 0, Score::Win),
        ]
    );
    // The stored ratings are Weng-Lin's with the pair at its average against bob alone.
    let start = Rating::initial(kind);
    let p = |name: &str, team, place, score| Placing {
        user: user(name).id,
        team,
        place,
        score,
    };
    let expected = update(
        kind,
        &[
            (p("alice", 0, 1, Score::Win), start),
            (p("bob", 1, 2, Score::Loss), start),
            (p("carol", 0, 1, Score::Win), start),
        ],
    );
    for (name, want) in ["alice", "bob", "carol"].iter().zip(&expected) {
        let s = standing(name).unwrap_or_else(|| panic!("{name} is rated"));
        assert_eq!(s.games, 1);
        // As stored (JSON keeps an f64 to within its last digit).
        let (
            Rating::WengLin {
                rating,
                uncertainty,
            },
            Rating::WengLin {
                rating: r,
                uncertainty: u,
            },
        ) = (s.rating, *want)
        else {
            panic!("{name}: {:?}", s.rating)
        };
        assert!(
            (rating - r).abs() < 1e-9 && (uncertainty - u).abs() < 1e-9,
            "{name}: {:?} {want:?}",
            s.rating
        );
    }
    assert!(expected[0].value() > start.value() && expected[1].value() < start.value());
}

/// Plays the first legal action of whoever of `names` is to act in game `id`
/// until each has made `n` plays.
async fn play_each(e: &Env, id: u64, names: &[&str], n: usize) {
    let mut made = vec![0usize; names.len()];
    for _ in 0..1000 {
        if made.iter().all(|m| *m >= n) {
            return;
        }
        // Of those who may act, the one who played least.
        let mut next = None;
        for (i, who) in names.iter().enumerate() {
            let mut actions = e.actions(who, id).await;
            if !actions.is_empty() && next.as_ref().is_none_or(|(j, _)| made[i] < made[*j]) {
                next = Some((i, actions.remove(0)));
            }
        }
        let (i, action) = next.expect("someone is to act");
        e.clock.advance(tokar_bot::duration::HOUR).unwrap();
        e.ok(&format!(
            "@{} /play game:{id} action:\"{action}\"",
            names[i]
        ))
        .await;
        made[i] += 1;
    }
    panic!("the players did not get to {n} plays each");
}

/// Whether `viewer`'s /games shows `seat` ("Red (alice)") to act in game `id`.
async fn shows_to_act(e: &Env, viewer: &str, id: u64, seat: &str) -> bool {
    let text = e.ok(&format!("@{viewer} /games")).await[0].content.clone();
    text.lines()
        .any(|l| l.contains(&format!("#{id} ")) && l.contains(&format!(": {seat} to act (")))
}

/// T46: two-player Magic Chess with `partners:no`: alice holds Red and Yellow,
/// bob Blue and Green, none of them partners. Alice's Red falls first (bob
/// claims it at its deadline), then bob resigns: alice's Yellow is the last
/// army standing and she wins. She is placed by her best seat: first, and her
/// rating rises while bob's falls. Placed by her first seat only (Red, the
/// first to fall), she would have been last and lost rating to bob.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn partners_no_winner_gains() {
    let e = env("ratings-partners-no").await;
    e.ok("@alice /new game:magic-chess opponent:@bob players:2 partners:no")
        .await;
    e.ok("@bob /accept game:1").await;
    play_each(&e, 1, &["alice", "bob"], REAL_PLAY).await;
    // On to a turn of Red, alice's first seat.
    let mut turns = 0;
    while !shows_to_act(&e, "bob", 1, "Red (alice)").await {
        turns += 1;
        assert!(turns < 20, "Red's turn never came");
        e.play_first(1, &["alice", "bob"]).await;
    }
    e.clock.advance(8 * tokar_bot::duration::DAY).unwrap();
    let r = e.ok("@bob /claim game:1").await;
    assert!(
        r.iter().any(|r| r.content.contains("Red"))
            && !r.iter().any(|r| r.content.contains("is over")),
        "Red falls, the game goes on: {r:#?}"
    );
    e.ok("@bob /resign game:1 confirm:yes").await;
    let dir = e.dir.clone();
    drop(e);
    let store = open_store(&dir);
    let kind = GameKind::MagicChess;
    let game = store.rated_game(1).unwrap().expect("the game is rated");
    let placed: Vec<(u64, usize, Score)> = game
        .placings
        .iter()
        .map(|p| (p.user, p.place, p.score))
        .collect();
    assert_eq!(
        placed,
        [
            (user("alice").id, 1, Score::Win),
            (user("bob").id, 2, Score::Loss),
        ]
    );
    let start = Rating::initial(kind);
    let rating = |name: &str| {
        let s = store
            .standing(kind, GLOBAL, user(name).id)
            .unwrap()
            .unwrap_or_else(|| panic!("{name} is rated"));
        assert_eq!(s.games, 1);
        s.rating
    };
    let (alice, bob) = (rating("alice"), rating("bob"));
    assert!(alice.value() > start.value(), "alice: {alice:?}");
    assert!(bob.value() < start.value(), "bob: {bob:?}");
}

/// The Weng-Lin rating of a stored [`Rating`].
fn wl(r: Rating) -> WengLinRating {
    match r {
        Rating::WengLin {
            rating,
            uncertainty,
        } => WengLinRating {
            rating,
            uncertainty,
        },
        other => panic!("not a Weng-Lin rating: {other:?}"),
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// T46: Gladiator Chess of three people: alice holds all of White, bob and
/// carol two Black commanders each. bob lost an earlier game to alice, so the
/// three start this one with different ratings. alice resigns. The stored
/// changes are Weng-Lin's with the pair's side as strong as its members'
/// average (mean the average of theirs, variance the sum of theirs over four):
/// alice's is the plain one-against-one update against that average player,
/// and each member moves by their share of the side's move (their variance
/// over the side's, halved). With the side at the sum of its members (about
/// 47 against alice's 27), alice would have lost almost nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_against_two_uses_the_pairs_average() {
    let e = env("ratings-one-against-two").await;
    // Game 1: alice against bob; bob resigns.
    e.ok("@alice /new game:gladiator opponent:@bob").await;
    e.ok("@bob /accept game:1").await;
    play_each(&e, 1, &["alice", "bob"], REAL_PLAY).await;
    e.ok("@bob /resign game:1 confirm:yes").await;
    // Game 2: alice (White) against bob and carol (Black); alice resigns.
    e.ok("@alice /new game:gladiator opponent:@bob opponent2:@carol")
        .await;
    e.ok("@bob /accept game:2").await;
    e.ok("@carol /accept game:2").await;
    let three = ["alice", "bob", "carol"];
    play_each(&e, 2, &three, REAL_PLAY).await;
    e.ok("@alice /resign game:2 confirm:yes").await;
    let dir = e.dir.clone();
    drop(e);
    let store = open_store(&dir);
    let kind = GameKind::Gladiator;
    assert!(store.rated_game(1).unwrap().is_some(), "game 1 is rated");
    let game = store.rated_game(2).unwrap().expect("game 2 is rated");
    let placed: Vec<(u64, u8, usize, Score)> = game
        .placings
        .iter()
        .map(|p| (p.user, p.team, p.place, p.score))
        .collect();
    assert_eq!(
        placed,
        [
            (user("alice").id, 0, 2, Score::Loss),
            (user("bob").id, 1, 1, Score::Win),
            (user("carol").id, 1, 1, Score::Win),
        ]
    );
    // Each person's rating before game 2 (aged to its end) and after, as stored.
    let game2 = |name: &str| {
        let h = store.rating_history(kind, GLOBAL, user(name).id).unwrap();
        let last = h.last().unwrap_or_else(|| panic!("{name} is rated"));
        assert_eq!(last.game, 2, "{name}: {h:?}");
        let s = store
            .standing(kind, GLOBAL, user(name).id)
            .unwrap()
            .unwrap();
        assert_eq!(s.rating, last.after, "{name}");
        (wl(last.before), wl(last.after))
    };
    let (a0, a1) = game2("alice");
    let (b0, b1) = game2("bob");
    let (c0, c1) = game2("carol");
    assert!(
        a0.rating > b0.rating && (b0.rating - c0.rating).abs() > 1.0,
        "different ratings going in: {a0:?} {b0:?} {c0:?}"
    );
    // The pair as one player: the average rating, the side's variance.
    let side_var = (b0.uncertainty.powi(2) + c0.uncertainty.powi(2)) / 4.0;
    let pair = WengLinRating {
        rating: (b0.rating + c0.rating) / 2.0,
        uncertainty: side_var.sqrt(),
    };
    let config = WengLinConfig::new();
    let (alice_new, pair_new) = weng_lin(&a0, &pair, &Outcomes::LOSS, &config);
    assert!(
        close(a1.rating, alice_new.rating) && close(a1.uncertainty, alice_new.uncertainty),
        "alice: {a1:?}, against the average {alice_new:?}"
    );
    // What the sum would have made of it: a much smaller loss.
    let sum = WengLinRating {
        rating: b0.rating + c0.rating,
        uncertainty: (4.0 * side_var).sqrt(),
    };
    let (alice_sum, _) = weng_lin(&a0, &sum, &Outcomes::LOSS, &config);
    assert!(
        (alice_sum.rating - a1.rating).abs() > 0.1,
        "{alice_sum:?} {a1:?}"
    );
    // Each member: their share of the side's move.
    let side_move = pair_new.rating - pair.rating;
    let side_shrink = 1.0 - pair_new.uncertainty.powi(2) / side_var;
    for (name, before, after) in [("bob", b0, b1), ("carol", c0, c1)] {
        let share = before.uncertainty.powi(2) / (2.0 * side_var);
        let var = before.uncertainty.powi(2)
            * (1.0 - before.uncertainty.powi(2) / (4.0 * side_var) * side_shrink);
        assert!(
            close(after.rating, before.rating + share * side_move)
                && close(after.uncertainty, var.sqrt()),
            "{name}: {before:?} -> {after:?}"
        );
        assert!(after.rating > before.rating, "{name} gains");
    }
    // And the table's own update gives the same from the same ratings.
    let p = |name: &str, team, place, score| Placing {
        user: user(name).id,
        team,
        place,
        score,
    };
    let expected = update(
        kind,
        &[
            (p("alice", 0, 2, Score::Loss), a0.into()),
            (p("bob", 1, 1, Score::Win), b0.into()),
            (p("carol", 1, 1, Score::Win), c0.into()),
        ],
    );
    for (got, want) in [a1, b1, c1].iter().zip(expected) {
        let want = wl(want);
        assert!(close(got.rating, want.rating) && close(got.uncertainty, want.uncertainty));
    }
}
