//! The console lines README.md's "Run the bot" section gives are typed as written and each
//! is accepted: the move is played in the game's thread although typed in the channel the
//! game was created in (ruling T38). The button lines the console prints are whole lines
//! that can be typed as printed (ruling T40).

mod common;
use common::*;
use serde_json::Value;
use tokar_bot::console::{self, ConsoleConfig};

/// The console lines in backquotes in README.md's "Run the bot" section.
fn quick_start() -> Vec<String> {
    let readme = include_str!("../../README.md");
    let start = readme
        .find("## Run the bot")
        .expect("a Run the bot section");
    let section = &readme[start..];
    let end = section[3..].find("\n## ").map_or(section.len(), |i| i + 3);
    let section = &section[..end];
    let lines: Vec<String> = section
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| s.starts_with('@'))
        .map(str::to_string)
        .collect();
    assert!(lines.len() >= 4, "the quick start's lines: {lines:?}");
    lines
}

fn config(dir: &std::path::Path, json: bool) -> ConsoleConfig {
    ConsoleConfig {
        data: dir.to_path_buf(),
        images: None,
        seed: Some(3),
        json,
        virtual_clock: true,
        robot_iterations: Some(20),
        parallel: 1,
    }
}

async fn session(dir: &std::path::Path, input: &str, json: bool) -> String {
    let mut out: Vec<u8> = Vec::new();
    console::run(config(dir, json), input.as_bytes(), &mut out)
        .await
        .expect("the console reads to the end of its input");
    String::from_utf8(out).unwrap()
}

#[tokio::test]
async fn the_readme_quick_start_works_as_written() {
    let lines = quick_start();
    assert_eq!(
        lines[..4],
        [
            "@alice /new game:arcana army:human opponent:@bob",
            "@bob /accept army:undead",
            "@alice /play action:b1-c3",
            "@alice /board",
        ]
    );
    let dir = fresh_dir("readme-quick-start");
    let mut seen = 0;
    for line in &lines {
        // One line at a time, so that each line's output is its own.
        let out = session(&dir, &format!("{line}\n"), true).await;
        let printed: Vec<Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
            .collect();
        assert!(!printed.is_empty(), "{line} printed nothing");
        assert!(
            printed.iter().all(|v| v["ok"] == true),
            "{line} was refused: {printed:#?}"
        );
        if line.contains("/play") {
            // The move is played in the game's thread, and alice is told where it went.
            let played = printed
                .iter()
                .find(|v| v["content"].as_str().unwrap().contains("plays"))
                .unwrap_or_else(|| panic!("no move announced: {printed:#?}"));
            assert_eq!(played["channel"], "game-1", "{printed:#?}");
            assert!(
                played["content"].as_str().unwrap().contains("c3"),
                "{played}"
            );
            assert!(
                printed.iter().any(|v| v["ephemeral_to"] == "alice"
                    && v["channel"] == "table"
                    && v["content"] == "Played in #game-1 (game #1)."),
                "{printed:#?}"
            );
            seen += 1;
        }
        if line.contains("/board") {
            // The board shows the move made: the Undead are to act.
            let board = printed[0]["content"].as_str().unwrap();
            assert!(board.contains("Game #1"), "{board}");
            assert!(board.contains("Undead (bob) to act"), "{board}");
            seen += 1;
        }
    }
    assert_eq!(seen, 2, "the quick start plays a move and shows the board");
}

/// The whole lines the console printed after `buttons: `, each `[label] line`.
fn button_lines(out: &str) -> Vec<String> {
    out.lines()
        .filter_map(|l| l.trim_start().strip_prefix("buttons: "))
        .flat_map(|l| l.split(" | "))
        .map(|b| {
            b.split_once("] ")
                .map(|(_, line)| line.to_string())
                .unwrap_or_else(|| panic!("not a button: {b}"))
        })
        .collect()
}

// Ruling T40.
#[tokio::test]
async fn a_printed_button_line_is_typed_as_printed() {
    let dir = fresh_dir("console-button-lines");
    let out = session(
        &dir,
        "@alice /new game:arcana army:human opponent:@bob\n",
        false,
    )
    .await;
    let lines = button_lines(&out);
    let accept = lines
        .iter()
        .find(|l| l.ends_with(":accept"))
        .unwrap_or_else(|| panic!("no Accept button: {out}"));
    assert_eq!(accept, "@bob #table /button custom_id:tokar:1:0:accept");

    // Typed as printed: bob accepts, the game starts in its thread.
    let out = session(&dir, &format!("{accept}\n"), false).await;
    assert!(!out.contains("refused"), "{out}");
    assert!(out.contains("[#game-1] bob accepted"), "{out}");
    // The turn message in the thread: its button line names alice and the thread.
    let lines = button_lines(&out);
    let moves = lines
        .iter()
        .find(|l| l.ends_with(":moves"))
        .unwrap_or_else(|| panic!("no My moves button: {out}"));
    assert_eq!(moves, "@alice #game-1 /button custom_id:tokar:1:0:moves");
    let out = session(&dir, &format!("{moves}\n"), false).await;
    assert!(!out.contains("refused"), "{out}");
    assert!(out.starts_with("[#game-1, only alice] Game #1"), "{out}");
}
