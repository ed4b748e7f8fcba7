//! Who a team game rates, through the table (ruling T46 in the README): the requests a
//! server sends, the store's ratings after.

mod common;
use common::*;
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
