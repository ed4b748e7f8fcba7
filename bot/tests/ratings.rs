//! Ratings through the table: which games count (rulings T28-T31 in the
//! README), what they count as, /leaderboard and /stats, and ratings kept
//! across a restart.

mod common;
use common::*;

/// Plays legal moves of whoever is to act until each of `names` made `n` plays.
async fn play_each(e: &Env, id: u64, names: &[&str], n: usize) {
    let mut made = vec![0usize; names.len()];
    for _ in 0..200 {
        if made.iter().all(|m| *m >= n) {
            return;
        }
        let who = e.to_act(id, names).await.expect("someone is to act");
        let action = e.actions(who, id).await.remove(0);
        e.clock.advance(tokar_bot::duration::HOUR).unwrap();
        e.ok(&format!("@{who} /play game:{id} action:\"{action}\""))
            .await;
        made[names.iter().position(|x| *x == who).unwrap()] += 1;
    }
    panic!("the players did not get to {n} moves each");
}

async fn leaderboard(e: &Env, game: &str) -> String {
    e.ok(&format!("@alice /leaderboard game:{game}")).await[0]
        .content
        .clone()
}

fn decodes(png: &[u8]) {
    png::Decoder::new(std::io::Cursor::new(png.to_vec()))
        .read_info()
        .expect("a PNG");
}

/// T28, T29: a resignation after two moves each is a loss and rated; the
/// leaderboard shows both, the winner first, as text and as a picture.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resignation_is_a_rated_loss() {
    let e = env("ratings-resign").await;
    let (id, mover, other) = e.duel().await;
    play_each(&e, id, &["alice", "bob"], 2).await;
    e.ok(&format!("@{other} /resign game:{id} confirm:yes"))
        .await;
    let r = e.ok("@alice /leaderboard game:arcana").await;
    let text = &r[0].content;
    let first = text.lines().nth(1).unwrap();
    assert!(first.starts_with(&format!("1. {mover} 1662?")), "{text}");
    assert!(first.contains("1 game · 1/0/0"), "{text}");
    let second = text.lines().nth(2).unwrap();
    assert!(second.starts_with(&format!("2. {other} 1338?")), "{text}");
    assert!(second.ends_with("0/0/1"), "{text}");
    decodes(&r[0].images[0].png);

    let s = e
        .ok(&format!("@alice /stats user:@{other} against:@{mover}"))
        .await;
    let text = &s[0].content;
    assert!(text.contains("Arcana: 1338? · 1 game"), "{text}");
    assert!(text.contains("streak: 1 loss"), "{text}");
    assert!(text.contains("history: 1500 → 1338"), "{text}");
    assert!(text.contains("Average time to move: 1h ("), "{text}");
    assert!(text.contains("0 wins, 0 draws, 1 loss"), "{text}");
    decodes(&s[0].images[0].png);
}

/// T29: a game abandoned before each side has moved twice is not rated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_abandoned_early_is_not_rated() {
    let e = env("ratings-early").await;
    let (id, mover, other) = e.duel().await;
    play_each(&e, id, &[mover], 1).await;
    e.ok(&format!("@{other} /resign game:{id} confirm:yes"))
        .await;
    assert!(leaderboard(&e, "arcana").await.starts_with("No rated"));
}

/// T28: rated:no games are not rated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rated_no_is_not_rated() {
    let e = env("ratings-no").await;
    e.ok("@alice /new game:arcana army:human opponent:@bob rated:no")
        .await;
    e.ok("@bob /accept game:1 army:undead").await;
    play_each(&e, 1, &["alice", "bob"], 2).await;
    e.ok("@bob /resign game:1 confirm:yes").await;
    assert!(leaderboard(&e, "arcana").await.starts_with("No rated"));
    let why = e.refused("@alice /new game:arcana rated:maybe").await;
    assert!(why.contains("yes or no"), "{why}");
}

/// T28: games with Tokar's seats are never rated, and rated:yes with them is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_against_the_bot_are_not_rated() {
    let e = env("ratings-bot").await;
    let why = e
        .refused("@alice /new game:arcana army:human opponent:Tokar rated:yes")
        .await;
    assert!(why.contains("not rated"), "{why}");
    e.ok("@alice /new game:arcana army:human opponent:Tokar")
        .await;
    play_each(&e, 1, &["alice"], 3).await;
    e.ok("@alice /resign game:1 confirm:yes").await;
    assert!(leaderboard(&e, "arcana").await.starts_with("No rated"));
}

/// T28: a draw by agreement is a draw for both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agreed_draw_is_a_draw() {
    let e = env("ratings-draw").await;
    let (id, _, _) = e.duel().await;
    play_each(&e, id, &["alice", "bob"], 2).await;
    e.ok(&format!("@alice /draw game:{id}")).await;
    e.ok(&format!("@bob /draw game:{id} answer:accept")).await;
    let text = leaderboard(&e, "arcana").await;
    assert_eq!(text.matches("1500? · 1 game · 0/1/0").count(), 2, "{text}");
}

/// T28: a lost claim (the move deadline passed) is a loss; and the ratings
/// survive a restart of the table.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_claim_is_a_loss_and_ratings_survive_restart() {
    let e = env("ratings-claim").await;
    let (id, _, _) = e.duel().await;
    play_each(&e, id, &["alice", "bob"], 2).await;
    let late = e.to_act(id, &["alice", "bob"]).await.unwrap();
    let claimer = if late == "alice" { "bob" } else { "alice" };
    e.clock.advance(8 * tokar_bot::duration::DAY).unwrap();
    e.table.tick().await;
    e.ok(&format!("@{claimer} /claim game:{id}")).await;
    let before = leaderboard(&e, "arcana").await;
    assert!(before.contains(&format!("1. {claimer} 1662?")), "{before}");
    let dir = e.dir.clone();
    drop(e);
    let e = open(&dir, Some(7)).await;
    assert_eq!(leaderboard(&e, "arcana").await, before);
}

/// T30: in four-player Magic Chess the places are the order in which seats
/// fell: the last standing first, the first to fall last.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn magic_chess_places_follow_the_order_of_falling() {
    let e = env("ratings-magic").await;
    e.ok("@alice /new game:magic-chess opponent:@bob opponent2:@carol opponent3:@dave")
        .await;
    for u in ["bob", "carol", "dave"] {
        e.ok(&format!("@{u} /accept game:1")).await;
    }
    let four = ["alice", "bob", "carol", "dave"];
    play_each(&e, 1, &four, 2).await;
    for u in ["carol", "alice", "dave"] {
        e.ok(&format!("@{u} /resign game:1 confirm:yes")).await;
    }
    let text = leaderboard(&e, "magic-chess").await;
    let order: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(order, ["bob", "dave", "alice", "carol"], "{text}");
    let ratings: Vec<f64> = text
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().nth(2).unwrap().trim_end_matches('?'))
        .map(|r| r.parse().unwrap())
        .collect();
    assert!(
        ratings[0] > 25.0 && ratings[3] < 25.0,
        "Weng-Lin from 25: {text}"
    );
    assert!(text.contains("bob 32.9? · 1 game · 1/0/0"), "{text}");
}

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/ratings-1.json");

/// Not a check: writes `ratings-1.json`, the rating records (version 1) of
/// one rated duel. Run only when adding a version, into a new file:
/// `cargo test -p tokar-bot --test ratings -- --ignored write_fixture`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn write_fixture() {
    let e = env("ratings-fixture").await;
    let (id, _, other) = e.duel().await;
    play_each(&e, id, &["alice", "bob"], 2).await;
    e.ok(&format!("@{other} /resign game:{id} confirm:yes"))
        .await;
    let dir = e.dir.clone();
    drop(e);
    let store = open_store(&dir);
    let items: Vec<serde_json::Value> = store
        .dump_ratings()
        .unwrap()
        .into_iter()
        .map(|(k, v)| {
            let k: String = k.iter().map(|b| format!("{b:02x}")).collect();
            serde_json::json!([k, String::from_utf8(v).unwrap()])
        })
        .collect();
    let text = serde_json::to_string_pretty(&serde_json::json!({ "v": 1, "items": items }));
    std::fs::write(FIXTURE, text.unwrap()).unwrap();
}

/// Rating records of version 1 load, and the table reads them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn version_1_rating_records_load() {
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(FIXTURE).unwrap()).unwrap();
    let items: Vec<(Vec<u8>, Vec<u8>)> = v["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|kv| {
            let k = kv[0].as_str().unwrap();
            let k = (0..k.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&k[i..i + 2], 16).unwrap())
                .collect();
            (k, kv[1].as_str().unwrap().as_bytes().to_vec())
        })
        .collect();
    assert_eq!(
        items.len(),
        5,
        "two standings, two history entries, one game"
    );
    let dir = fresh_dir("ratings-v1");
    {
        let store = open_store(&dir);
        for (k, v) in &items {
            store.put_raw(k, v).unwrap();
        }
        let g = store.rated_game(1).unwrap().expect("game 1 was rated");
        assert_eq!(g.placings.len(), 2);
    }
    let e = open(&dir, Some(7)).await;
    let text = leaderboard(&e, "arcana").await;
    assert!(text.contains("1662? · 1 game · 1/0/0"), "{text}");
    assert!(text.contains("1338? · 1 game · 0/0/1"), "{text}");
}

/// A game record stored before ratings existed loads, as not rated (T28).
#[test]
fn an_old_game_record_loads_as_not_rated() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/format-1.json");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let record = v["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|kv| kv[0].as_str().unwrap().starts_with("67"))
        .expect("a game record");
    let rec = tokar_bot::record::decode_game(record[1].as_str().unwrap().as_bytes()).unwrap();
    assert_eq!(rec.rated, None);
}

/// The real `tokar` binary (console mode) is killed with SIGKILL right after
/// it acknowledged a rated game's end: the ratings are there after the
/// restart, since they are stored in the same transaction as the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ratings_survive_sigkill_after_the_end() {
    use std::io::Write;
    // Four legal moves under --seed 11, found in-process with the same seed.
    let e = open(&fresh_dir("ratings-kill-script"), Some(11)).await;
    let id = e.start("alice", "bob").await;
    let mut moves = Vec::new();
    while moves.len() < 4 {
        let who = e.to_act(id, &["alice", "bob"]).await.unwrap();
        let a = e.actions(who, id).await.remove(0);
        e.ok(&format!("@{who} /play action:\"{a}\"")).await;
        moves.push((who, a));
    }
    drop(e);
    let dir = fresh_dir("ratings-kill");
    let (mut child, mut stdin, mut lines) = console_process(&dir, &["--seed", "11"]);
    let mut send = |line: String| {
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    };
    // The game stays in the channel these lines are typed in (T21).
    send("@alice /server threads:off".into());
    send(format!(
        "@alice /new game:{GAME} {CREATOR_OPTIONS} opponent:@bob"
    ));
    send(format!("@bob /accept {ACCEPT_OPTIONS}"));
    for (who, a) in &moves {
        send(format!("@{who} /play action:\"{a}\""));
    }
    send("@bob /resign confirm:yes".into());
    loop {
        let line = lines.next().expect("the bot answers").unwrap();
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["ok"], true, "{v}");
        if v["content"]
            .as_str()
            .unwrap_or_default()
            .contains("is over")
        {
            break;
        }
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let e = open(&dir, Some(11)).await;
    let text = leaderboard(&e, "arcana").await;
    assert!(text.contains("1 game · 1/0/0"), "{text}");
    assert!(text.contains("bob 1338? · 1 game · 0/0/1"), "{text}");
}

/// T31: a game counts on the server it was created on and across servers;
/// another server's leaderboard does not list it unless asked for globally.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_counts_on_its_server_and_globally() {
    let e = env("ratings-scope").await;
    let on = |server: u64, line: &str| {
        let mut req = request(line);
        req.channel.guild = Some(server);
        req
    };
    let r = e
        .table
        .handle(on(7, "@alice /new game:arcana army:human opponent:@bob"))
        .await;
    assert!(r[0].ok, "{r:#?}");
    e.table
        .handle(on(7, "@bob /accept game:1 army:undead"))
        .await;
    play_each(&e, 1, &["alice", "bob"], 2).await;
    e.ok("@bob /resign game:1 confirm:yes").await;
    let board = |server, scope: &str| {
        let req = on(server, &format!("@carol /leaderboard game:arcana {scope}"));
        let table = e.table.clone();
        async move { table.handle(req).await.remove(0).content }
    };
    assert!(board(7, "").await.contains("this server"));
    assert!(board(7, "").await.contains("1/0/0"));
    assert!(board(8, "")
        .await
        .starts_with("No rated Arcana games on this server"));
    assert!(board(8, "scope:global").await.contains("1/0/0"));
    let why = board(8, "scope:nowhere").await;
    assert!(why.contains("server or global"), "{why}");
}

/// T29: the actions a game starts from (`/new record:`) are the record's, not
/// the new players' own moves: a game resigned straight after them is not rated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_from_a_record_are_not_the_players_own() {
    let e = env("ratings-record").await;
    let (id, _, other) = e.duel().await;
    play_each(&e, id, &["alice", "bob"], 2).await;
    e.ok(&format!("@{other} /resign game:{id} confirm:yes"))
        .await;
    let record = exported_record(&e.ok(&format!("@alice /export game:{id}")).await[0]);
    // Without its last action, the resignation.
    let record = record.rsplit_once('|').unwrap().0;
    e.ok(&format!("@carol /new record:\"{record}\" opponent:@dave"))
        .await;
    e.ok("@dave /accept").await;
    e.ok("@carol /resign confirm:yes").await;
    let board = leaderboard(&e, "arcana").await;
    assert!(board.contains("alice") && board.contains("bob"), "{board}");
    assert!(
        !board.contains("carol") && !board.contains("dave"),
        "{board}"
    );
}

/// T28: a server may rate games against Tokar (`/server rated-bots:on`, for
/// someone with Manage Server); its games against Tokar are then rated by default.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_may_rate_games_against_the_bot() {
    let e = env("ratings-bot-server").await;
    let in_server = |line: &str, manage: bool| {
        let mut r = request(line);
        r.channel.guild = Some(77);
        r.manage_server = manage;
        r
    };
    let r = e
        .table
        .handle(in_server("@alice /server rated-bots:on", false))
        .await;
    assert!(!r[0].ok && r[0].content.contains("Manage Server"), "{r:#?}");
    let r = e
        .table
        .handle(in_server("@alice /server threads:off rated-bots:on", true))
        .await;
    assert!(r[0].ok, "{r:#?}");
    assert!(
        r[0].content.contains("Games against Tokar are rated"),
        "{}",
        r[0].content
    );
    let r = e
        .table
        .handle(in_server(
            "@alice /new game:arcana army:human opponent:Tokar",
            false,
        ))
        .await;
    assert!(r[0].ok, "{r:#?}");
    play_each(&e, 1, &["alice"], 3).await;
    e.ok("@alice /resign game:1 confirm:yes").await;
    let board = leaderboard(&e, "arcana").await;
    assert!(
        board.contains("alice") && board.contains("0/0/1"),
        "{board}"
    );
}
