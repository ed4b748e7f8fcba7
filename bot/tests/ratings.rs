//! Ratings through the table: which games count (rulings T28-T31, T46-T48 in
//! docs/rulings.md), what they count as, /leaderboard and /stats, and ratings kept
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

/// A player's line of a game kind in /stats ("Arcana: 1662? · 1 game · …"), or
/// "No rated games yet." when they have none.
async fn rating_of(e: &Env, user: &str, title: &str) -> String {
    let text = e.ok(&format!("@{user} /stats")).await[0].content.clone();
    text.lines()
        .find(|l| l.starts_with(&format!("{title}: ")) || l.starts_with("No rated games"))
        .unwrap_or_else(|| panic!("no {title} line: {text}"))
        .to_string()
}

/// Five plays each (T48: a resignation before that leaves the game unrated).
const REAL_PLAY: usize = tokar_bot::rating::places::MIN_PLAYS_BEFORE_RESIGNING;

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

/// T28, T29: a resignation after five moves each is a loss and rated; the
/// leaderboard does not list two people who met only each other (T47).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resignation_is_a_rated_loss() {
    let e = env("ratings-resign").await;
    let (id, mover, other) = e.duel().await;
    play_each(&e, id, &["alice", "bob"], REAL_PLAY).await;
    e.ok(&format!("@{other} /resign game:{id} confirm:yes"))
        .await;
    let r = e.ok("@alice /leaderboard game:arcana").await;
    let text = &r[0].content;
    assert!(
        text.contains("2 rated players not listed until they have played rated games against 3 different people."),
        "{text}"
    );
    assert!(!text.contains("alice") && !text.contains("bob"), "{text}");
    assert!(r[0].images.is_empty(), "no table to draw");
    let line = rating_of(&e, mover, "Arcana").await;
    assert!(line.starts_with("Arcana: 1662? · 1 game · 1 win"), "{line}");

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
    for who in ["alice", "bob"] {
        let line = rating_of(&e, who, "Arcana").await;
        assert!(
            line.starts_with("Arcana: 1500? · 1 game · 0 wins, 1 draw, 0 losses"),
            "{line}"
        );
    }
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
    let before = rating_of(&e, claimer, "Arcana").await;
    assert!(
        before.starts_with("Arcana: 1662? · 1 game · 1 win"),
        "{before}"
    );
    let dir = e.dir.clone();
    drop(e);
    let e = open(&dir, Some(7)).await;
    assert_eq!(rating_of(&e, claimer, "Arcana").await, before);
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
    play_each(&e, 1, &four, REAL_PLAY).await;
    for u in ["carol", "alice", "dave"] {
        e.ok(&format!("@{u} /resign game:1 confirm:yes")).await;
    }
    // Each met three people; after one game all four are provisional (T47).
    let text = leaderboard(&e, "magic-chess").await;
    assert!(text.contains("No settled ratings yet."), "{text}");
    let listed: Vec<&str> = text.lines().filter(|l| l.starts_with("- ")).collect();
    let order: Vec<&str> = listed
        .iter()
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(order, ["bob", "dave", "alice", "carol"], "{text}");
    let ratings: Vec<f64> = listed
        .iter()
        .map(|l| l.split_whitespace().nth(2).unwrap().trim_end_matches('?'))
        .map(|r| r.parse().unwrap())
        .collect();
    assert!(
        ratings[0] > 25.0 && ratings[3] < 25.0,
        "Weng-Lin from 25: {text}"
    );
    assert!(text.contains("bob 32.9? (μ − 3σ "), "{text}");
    assert!(listed[0].ends_with(" · 1 game · 1/0/0"), "{text}");
}

const FIXTURE_1: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/ratings-1.json");
const FIXTURE_2: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/ratings-2.json");

/// Not a check: writes `ratings-2.json`, the rating records (version 2) of
/// one rated duel. Run only when adding a version, into a new file:
/// `cargo test -p tokar-bot --test ratings -- --ignored write_fixture`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn write_fixture() {
    let e = env("ratings-fixture").await;
    let (id, _, other) = e.duel().await;
    play_each(&e, id, &["alice", "bob"], REAL_PLAY).await;
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
    let text = serde_json::to_string_pretty(&serde_json::json!({ "v": 2, "items": items }));
    std::fs::write(FIXTURE_2, text.unwrap()).unwrap();
}

/// Loads a rating fixture into a fresh store and opens the table on it.
async fn load_fixture(path: &str, items_expected: usize, name: &str) -> Env {
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
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
    assert_eq!(items.len(), items_expected, "{path}");
    let dir = fresh_dir(name);
    {
        let store = open_store(&dir);
        for (k, v) in &items {
            store.put_raw(k, v).unwrap();
        }
        let g = store.rated_game(1).unwrap().expect("game 1 was rated");
        assert_eq!(g.placings.len(), 2);
    }
    open(&dir, Some(7)).await
}

/// Rating records of version 1 load, and the table reads them: a rating
/// without a date stands as it was (T47).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn version_1_rating_records_load() {
    // Two standings, two history entries, one game.
    let e = load_fixture(FIXTURE_1, 5, "ratings-v1").await;
    let both = format!(
        "{}\n{}",
        rating_of(&e, "alice", "Arcana").await,
        rating_of(&e, "bob", "Arcana").await
    );
    assert!(both.contains("1662? · 1 game · 1 win"), "{both}");
    assert!(
        both.contains("1338? · 1 game · 0 wins, 0 draws, 1 loss"),
        "{both}"
    );
}

/// Rating records of version 2 (standings with the time of the last game, the
/// games between two people) load, and the table reads them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn version_2_rating_records_load() {
    // Two standings, two history entries, one game, one pair of people.
    let e = load_fixture(FIXTURE_2, 6, "ratings-v2").await;
    let both = format!(
        "{}\n{}",
        rating_of(&e, "alice", "Arcana").await,
        rating_of(&e, "bob", "Arcana").await
    );
    assert!(both.contains("1662? · 1 game · 1 win"), "{both}");
    assert!(
        both.contains("1338? · 1 game · 0 wins, 0 draws, 1 loss"),
        "{both}"
    );
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
    // Five legal moves each (T48) under --seed 11, found in-process with the same seed.
    let e = open(&fresh_dir("ratings-kill-script"), Some(11)).await;
    let id = e.start("alice", "bob").await;
    let mut moves = Vec::new();
    let each = |moves: &[(&str, String)], who| moves.iter().filter(|(w, _)| *w == who).count();
    while each(&moves, "alice") < REAL_PLAY || each(&moves, "bob") < REAL_PLAY {
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
    // The console's users are not the test's: read the store itself.
    let store = open_store(&dir);
    let games = store.rated_games().unwrap();
    assert_eq!(games.len(), 1, "the game was rated");
    let game = &games[0];
    let mut shown = Vec::new();
    for p in &game.placings {
        let kind = tokar_engine::catalog::GameKind::Arcana;
        let s = store
            .standing(kind, tokar_bot::storage::GLOBAL, p.user)
            .unwrap()
            .expect("a standing");
        assert_eq!(s.games, 1);
        shown.push(s.rating.shown());
    }
    shown.sort();
    assert_eq!(shown, ["1338?", "1662?"]);
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
    play_each(&e, 1, &["alice", "bob"], REAL_PLAY).await;
    e.ok("@bob /resign game:1 confirm:yes").await;
    // A line that does not read (scope:nowhere) is refused before it reaches the table.
    let board = |server, scope: &str| {
        let read = read_request(&format!("@carol /leaderboard game:arcana {scope}"));
        let table = e.table.clone();
        async move {
            match read {
                Ok(mut req) => {
                    req.channel.guild = Some(server);
                    table.handle(req).await.remove(0).content
                }
                Err(refused) => refused.content,
            }
        }
    };
    assert!(board(7, "").await.contains("this server"));
    assert!(board(7, "").await.contains("2 rated players not listed"));
    assert!(board(8, "")
        .await
        .starts_with("No rated Arcana games on this server"));
    assert!(board(8, "scope:global")
        .await
        .contains("2 rated players not listed"));
    let why = board(8, "scope:nowhere").await;
    assert!(why.contains("server or global"), "{why}");
}

/// T29: the actions a game starts from (`/new record:`) are the record's, not
/// the new players' own moves: a game resigned straight after them is not rated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_from_a_record_are_not_the_players_own() {
    let e = env("ratings-record").await;
    let (id, _, other) = e.duel().await;
    play_each(&e, id, &["alice", "bob"], REAL_PLAY).await;
    e.ok(&format!("@{other} /resign game:{id} confirm:yes"))
        .await;
    let record = exported_record(&e.ok(&format!("@alice /export game:{id}")).await[0]);
    // Without its last action, the resignation.
    let record = record.rsplit_once('|').unwrap().0;
    e.ok(&format!("@carol /new record:\"{record}\" opponent:@dave"))
        .await;
    e.ok("@dave /accept").await;
    e.ok("@carol /resign confirm:yes").await;
    for who in ["alice", "bob"] {
        let line = rating_of(&e, who, "Arcana").await;
        assert!(line.starts_with("Arcana: "), "{line}");
    }
    for who in ["carol", "dave"] {
        let line = rating_of(&e, who, "Arcana").await;
        assert_eq!(line, "No rated games yet.");
    }
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
    play_each(&e, 1, &["alice"], REAL_PLAY).await;
    e.ok("@alice /resign game:1 confirm:yes").await;
    let line = rating_of(&e, "alice", "Arcana").await;
    assert!(line.contains("1 game · 0 wins, 0 draws, 1 loss"), "{line}");
}

/// The farming run (T47, T48): two accounts play twelve rated games, each
/// making two moves and one resigning. Neither account reaches the
/// leaderboard: the games are resigned before five moves each, so they are
/// not rated, and two people who only met each other are not listed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn farming_run_moves_neither_account_onto_the_leaderboard() {
    let e = env("ratings-farm").await;
    for _ in 0..12 {
        let (id, _, _) = e.duel().await;
        play_each(&e, id, &["alice", "bob"], 2).await;
        e.ok(&format!("@bob /resign game:{id} confirm:yes")).await;
    }
    let text = leaderboard(&e, "arcana").await;
    assert!(!text.contains("alice") && !text.contains("bob"), "{text}");
    for who in ["alice", "bob"] {
        assert_eq!(rating_of(&e, who, "Arcana").await, "No rated games yet.");
    }
}

/// T48: between the same two people, five rated games count in thirty days;
/// the sixth is not rated, and once they have left the window a game counts
/// again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_two_people_count_five_games_in_thirty_days() {
    async fn game(e: &Env) {
        let (id, _, _) = e.duel().await;
        play_each(e, id, &["alice", "bob"], REAL_PLAY).await;
        e.ok(&format!("@bob /resign game:{id} confirm:yes")).await;
    }
    let e = env("ratings-pair").await;
    for _ in 0..6 {
        game(&e).await;
    }
    let line = rating_of(&e, "alice", "Arcana").await;
    assert!(line.contains(" · 5 games · 5 wins"), "{line}");
    e.clock.advance(30 * tokar_bot::duration::DAY).unwrap();
    game(&e).await;
    let line = rating_of(&e, "alice", "Arcana").await;
    assert!(line.contains(" · 6 games · 6 wins"), "{line}");
}

/// /stats draws a player's rating history and streak in the order their games ended, not
/// by their numbers: #2 began after #1 and ended first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stats_follow_the_order_games_ended() {
    let e = env("ratings-stats-order").await;
    let first = e.start("alice", "bob").await;
    let second = e.start("alice", "carol").await;
    play_each(&e, first, &["alice", "bob"], REAL_PLAY).await;
    play_each(&e, second, &["alice", "carol"], REAL_PLAY).await;
    // #2 ends first, alice winning it; then alice loses #1.
    e.ok(&format!("@carol /resign game:{second} confirm:yes"))
        .await;
    e.clock.advance(tokar_bot::duration::MINUTE).unwrap();
    e.ok(&format!("@alice /resign game:{first} confirm:yes"))
        .await;
    let text = e.ok("@alice /stats").await[0].content.clone();
    assert!(text.contains("streak: 1 loss"), "{text}");
    let history = text
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("history:"))
        .unwrap_or_else(|| panic!("no history: {text}"));
    let values: Vec<f64> = history
        .split('→')
        .map(|v| v.trim().parse().unwrap())
        .collect();
    assert_eq!(values.len(), 3, "{history}");
    assert!(
        values[1] > values[0] && values[2] < values[1],
        "up with the win, then down with the loss: {history}"
    );
}

/// The first action of a game counts toward the average time to move, from the moment
/// the game began.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_move_counts_toward_the_time_to_move() {
    let e = env("ratings-first-move").await;
    let (id, mover, _) = e.duel().await;
    e.clock.advance(4 * tokar_bot::duration::HOUR).unwrap();
    let action = e.actions(mover, id).await.remove(0);
    e.ok(&format!("@{mover} /play game:{id} action:\"{action}\""))
        .await;
    e.ok(&format!("@{mover} /resign game:{id} confirm:yes"))
        .await;
    let text = e.ok(&format!("@{mover} /stats")).await[0].content.clone();
    assert!(
        text.contains("Average time to move: 4h (1 moves in finished games)."),
        "{text}"
    );
}
