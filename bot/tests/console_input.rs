//! The console reads whatever arrives: a line that is not UTF-8 and a clock
//! jump past its range are refused with one line and the console reads on;
//! names keep their ids in the store, so losing `console-names.json` hands
//! no known name to someone else. With `--parallel`, commands of different
//! games run at once and the console prints what it prints one at a time.

mod common;
use common::*;
use serde_json::Value;
use tokar_bot::clock::VIRTUAL_EPOCH;
use tokar_bot::console::{self, ConsoleConfig};
use tokar_bot::{Table, TableConfig, UserRef};

/// Runs the console on `dir` over `input` to its end; returns what it printed,
/// one JSON object a line.
async fn session(dir: &std::path::Path, input: &[u8]) -> Vec<Value> {
    session_with(dir, input, 1).await
}

/// [`session`] with up to `parallel` commands of different games at once.
async fn session_with(dir: &std::path::Path, input: &[u8], parallel: usize) -> Vec<Value> {
    let cfg = ConsoleConfig {
        data: dir.to_path_buf(),
        images: None,
        seed: Some(3),
        json: true,
        virtual_clock: true,
        robot_iterations: Some(20),
        parallel,
    };
    let mut out: Vec<u8> = Vec::new();
    console::run(cfg, input, &mut out)
        .await
        .expect("the console reads to the end of its input");
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect()
}

fn refusals(out: &[Value]) -> Vec<&str> {
    out.iter()
        .filter(|v| v["ok"] == false)
        .map(|v| v["content"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn a_line_that_is_not_utf8_is_refused_and_the_console_goes_on() {
    let dir = fresh_dir("console-utf8");
    let mut input = b"@alice /new game:arcana army:human opponent:@bob\n".to_vec();
    input.extend_from_slice(b"@bob /accept army:\xff\xfeundead\n");
    input.extend_from_slice(b"\xc3\n");
    input.extend_from_slice(b"@bob /accept army:undead\r\n");
    let out = session(&dir, &input).await;
    let refused = refusals(&out);
    assert_eq!(refused.len(), 2, "one line for each bad line: {out:#?}");
    for r in &refused {
        assert!(r.contains("not valid UTF-8"), "{r}");
        assert!(!r.contains('\n'), "{r}");
    }
    // The game then goes on in its thread (ruling T19), which the console prints after it.
    assert!(
        out.iter()
            .any(|v| v["content"].as_str().unwrap().contains("begins")),
        "the lines after it are read: {out:#?}"
    );
}

#[tokio::test]
async fn an_endless_line_is_refused_once_and_the_console_goes_on() {
    let dir = fresh_dir("console-long");
    let mut input = b"@alice /games game:".to_vec();
    input.extend(std::iter::repeat_n(b'9', 200_000));
    input.extend_from_slice(b"\n@alice /games\n");
    let out = session(&dir, &input).await;
    assert_eq!(out.len(), 2, "{out:#?}");
    assert!(
        refusals(&out)[0].contains("longer than 65536 bytes"),
        "{out:#?}"
    );
    assert_eq!(out[1]["ok"], true, "{out:#?}");
}

#[tokio::test]
async fn the_clock_does_not_jump_past_its_range() {
    let dir = fresh_dir("console-advance");
    let out = session(&dir, b"~advance 99999999w\n~advance 1h\n").await;
    let refused = refusals(&out);
    assert_eq!(refused.len(), 1, "{out:#?}");
    assert!(refused[0].contains("past the year 9999"), "{}", refused[0]);
    let now: u64 = std::fs::read_to_string(dir.join("virtual-clock"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert_eq!(now, VIRTUAL_EPOCH + 3_600_000, "only the hour moved it");
}

#[tokio::test]
async fn losing_the_names_file_gives_no_known_name_to_someone_else() {
    let dir = fresh_dir("console-names-lost");
    let out = session(
        &dir,
        b"@alice /new game:arcana army:human opponent:@bob\n@bob /accept army:undead\n",
    )
    .await;
    assert!(refusals(&out).is_empty(), "{out:#?}");
    let _ = std::fs::remove_file(dir.join("console-names.json"));
    // A newcomer gets an id of their own: not alice's, so not her seat.
    let out = session(&dir, b"@mallory /resign game:1\n@alice /games\n").await;
    let refused = refusals(&out);
    assert_eq!(refused.len(), 1, "{out:#?}");
    assert!(refused[0].contains("not playing"), "{}", refused[0]);
    assert!(
        out[1]["content"].as_str().unwrap().contains("#1"),
        "alice still plays game #1: {out:#?}"
    );
}

#[tokio::test]
async fn an_older_folders_names_file_is_imported_once() {
    let dir = fresh_dir("console-names-import");
    std::fs::write(
        dir.join("console-names.json"),
        r#"{"users":{"amy":1002,"zed":1007},"channels":{"lounge":500003}}"#,
    )
    .unwrap();
    session(&dir, b"@newbie /games\n@zed #lounge /games\n").await;
    assert!(!dir.join("console-names.json").exists());
    assert!(dir.join("console-names.json.imported").exists());
    let store = open_store(&dir);
    let names = |kind| {
        store
            .console_names(kind)
            .unwrap()
            .into_iter()
            .map(|(n, id)| format!("{n}={id}"))
            .collect::<Vec<_>>()
    };
    assert_eq!(names(b'u'), ["amy=1002", "newbie=1008", "zed=1007"]);
    assert_eq!(names(b'c'), ["lounge=500003", "table=500004"]);
}

#[tokio::test]
async fn a_folder_that_lost_its_names_file_earlier_keeps_its_users_names() {
    // A folder from before the names moved into the store, whose file is
    // gone: its users' records still say who 1001 is.
    let dir = fresh_dir("console-names-users");
    {
        let table = Table::open(TableConfig::new(&dir)).await.unwrap();
        table
            .remember_user(&UserRef {
                id: 1001,
                name: "alice".into(),
            })
            .await
            .unwrap();
    }
    session(&dir, b"@mallory /games\n@alice /games\n").await;
    let store = open_store(&dir);
    let users: Vec<(String, u64)> = store.console_names(b'u').unwrap();
    assert_eq!(
        users,
        [("alice".to_string(), 1001), ("mallory".to_string(), 1002)]
    );
}

/// Six Arcana games created, accepted and played to 12 legal actions each,
/// the games taking turns, in the channel (threads off), as
/// `scripts/parallel-games.sh` plays them.
fn six_games() -> String {
    use tokar_engine::{AnyGame, GameKind, Options, Seat};
    let mut options = Options::new();
    options.insert("army".into(), "human".into());
    options.insert("first".into(), "creator".into());
    GameKind::Arcana.stamp(&mut options, 2);
    let mut input = String::from("@op /server threads:off\n");
    let mut games = Vec::new();
    for g in 1..=6 {
        input += &format!("@g{g}a /new game:arcana army:human first:creator opponent:@g{g}b\n");
        input += &format!("@g{g}b /accept game:{g} army:undead\n");
        games.push(AnyGame::setup(GameKind::Arcana, &options, 0).unwrap());
    }
    for turn in 0..12 {
        for (i, game) in games.iter_mut().enumerate() {
            let Some(&seat) = game.to_act().first() else {
                continue;
            };
            let legal = game.legal_actions(seat);
            let Some(action) = legal.get((turn * 7 + i) % legal.len().max(1)).cloned() else {
                continue;
            };
            game.play(seat, &action).unwrap();
            let who = if seat == Seat(0) { 'a' } else { 'b' };
            input += &format!(
                "@g{}{who} /play game:{} action:\"{action}\"\n",
                i + 1,
                i + 1
            );
        }
    }
    input
}

#[tokio::test]
async fn games_played_in_parallel_print_what_they_print_one_at_a_time() {
    let input = six_games();
    let alone = session_with(&fresh_dir("console-one-at-a-time"), input.as_bytes(), 1).await;
    let together = session_with(&fresh_dir("console-parallel"), input.as_bytes(), 8).await;
    assert!(refusals(&alone).is_empty(), "{:?}", refusals(&alone));
    assert!(
        alone.len() > 6 * 12,
        "every action answered: {}",
        alone.len()
    );
    assert_eq!(alone, together);
}
