//! What a new player or operator meets first: `tokar --help` and `--version`, the console's
//! way out, its pictures kept across runs, Magic Chess's four seats, and Undead Arcana named
//! where players look for what to play.

mod common;
use common::*;
use serde_json::Value;
use std::process::Command;
use tokar_bot::console::{self, ConsoleConfig};

fn tokar(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tokar"))
        .args(args)
        .env_remove("DISCORD_TOKEN")
        .output()
        .expect("tokar runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn help_lists_every_command_and_setting_one_line_each() {
    let (ok, help, _) = tokar(&["--help"]);
    assert!(ok);
    for word in [
        "tokar console",
        "tokar backup",
        "tokar restore",
        "tokar check",
        "--version",
        "DISCORD_TOKEN",
        "DISCORD_GUILD_ID",
        "TOKAR_DATA",
        "TOKAR_TICK_SECONDS",
        "TOKAR_DRAIN_SECONDS",
        "TOKAR_METRICS_ADDR",
        "TOKAR_CACHE_MB",
        "TOKAR_BACKUPS_KEEP",
        "TOKAR_FRESH_STORE",
    ] {
        let lines: Vec<&str> = help.lines().filter(|l| l.contains(word)).collect();
        assert!(!lines.is_empty(), "{word} is in --help:\n{help}");
    }
    // Every setting the binary reads is listed.
    let main = include_str!("../src/main.rs");
    let sources = [
        main,
        include_str!("../src/discord/settings.rs"),
        include_str!("../store/src/lib.rs"),
        include_str!("../src/backup/service.rs"),
        include_str!("../store/src/marker.rs"),
        include_str!("../src/check.rs"),
    ];
    for src in sources {
        for (i, _) in src.match_indices("\"TOKAR_") {
            let name: String = src[i + 1..]
                .chars()
                .take_while(|c| c.is_ascii_uppercase() || *c == '_')
                .collect();
            assert!(help.contains(&name), "{name} is read but not in --help");
        }
    }

    let (ok, console_help, _) = tokar(&["console", "--help"]);
    assert!(ok);
    for option in [
        "--data",
        "--images",
        "--seed",
        "--json",
        "--virtual-clock",
        "--robot-iterations",
        "quit",
        "Ctrl-D",
        "/help",
    ] {
        assert!(
            console_help.contains(option),
            "{option} in console --help:\n{console_help}"
        );
    }

    let (ok, version, _) = tokar(&["--version"]);
    assert!(ok);
    assert_eq!(
        version.trim(),
        format!("tokar {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn the_console_says_how_to_leave_and_quit_leaves() {
    let dir = fresh_dir("console-quit");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tokar"))
        .args(["console", "--json", "--data"])
        .arg(&dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("tokar console starts");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        // `quit` leaves although the input stays open: the line after it is never read.
        stdin
            .write_all(b"@alice /help\nquit\n@alice /games\n")
            .unwrap();
        let out = child
            .wait_with_output()
            .expect("the console leaves on quit");
        drop(stdin);
        assert!(out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("Ctrl-D") && stderr.contains("/help"),
            "{stderr}"
        );
        let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 1, "only /help was answered: {lines:#?}");
        assert!(lines[0]["content"].as_str().unwrap().contains("Commands:"));
    }
}

/// Runs the console with `--images` over `input`; returns the picture paths it printed.
async fn pictures(dir: &std::path::Path, images: &std::path::Path, input: &str) -> Vec<String> {
    let cfg = ConsoleConfig {
        data: dir.to_path_buf(),
        images: Some(images.to_path_buf()),
        seed: Some(3),
        json: true,
        virtual_clock: true,
        robot_iterations: Some(20),
        parallel: 1,
    };
    let mut out: Vec<u8> = Vec::new();
    console::run(cfg, input.as_bytes(), &mut out).await.unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .flat_map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            v["images"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        })
        .collect()
}

#[tokio::test]
async fn console_pictures_of_a_later_run_do_not_overwrite_earlier_ones() {
    let dir = fresh_dir("console-images");
    let images = dir.join("images");
    let first = pictures(
        &dir,
        &images,
        "@alice /new game:arcana army:human opponent:@bob\n@bob /accept\n",
    )
    .await;
    assert!(!first.is_empty(), "the start has a picture");
    let before: Vec<Vec<u8>> = first.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let second = pictures(&dir, &images, "@alice /board game:1\n").await;
    assert!(!second.is_empty(), "/board has a picture");
    for p in &second {
        assert!(!first.contains(p), "{p} was written by the first run");
    }
    let after: Vec<Vec<u8>> = first.iter().map(|p| std::fs::read(p).unwrap()).collect();
    assert_eq!(before, after, "the first run's pictures are unchanged");
}

#[tokio::test]
async fn magic_chess_has_four_seats_unless_players_says_otherwise() {
    let e = env("magic-seats").await;
    let r = e.ok("@alice /new game:magic-chess opponent:@bob").await;
    assert!(
        r[0].content.contains("2 open seats: /join game:1"),
        "four seats: alice, bob and two open: {}",
        r[0].content
    );
    let r = e
        .ok("@carol /new game:magic-chess players:2 opponent:@dave")
        .await;
    assert!(
        !r[0].content.contains("open seat"),
        "players:2 asks for two: {}",
        r[0].content
    );
    // Two players are partners (R15): when one player's two armies are out, the game ends.
    e.ok("@dave /accept game:2").await;
    let r = e.ok("@carol /resign game:2 confirm:yes").await;
    assert!(
        r.iter().any(|r| r.content.contains("is over")),
        "two players of Magic Chess are partners: {r:#?}"
    );
    // The other games keep two seats.
    let r = e.ok("@erin /new game:arachne opponent:@frank").await;
    assert!(!r[0].content.contains("open seat"), "{}", r[0].content);
}

#[tokio::test]
async fn undead_arcana_is_named_in_help_and_rules() {
    let e = env("undead-named").await;
    let help = e.ok("@alice /help").await;
    assert!(
        help[0].content.contains("army:undead-arcana"),
        "{}",
        help[0].content
    );
    let rules = e.ok("@alice /rules game:arcana").await;
    assert!(
        rules[0]
            .content
            .contains("/new game:arcana army:undead-arcana"),
        "{}",
        rules[0].content
    );
}
