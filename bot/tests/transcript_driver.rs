//! The driver behind docs/transcripts/ (`bot/examples/transcript/`) still
//! plays each game through the real `tokar` binary: a few plies of each,
//! the same twice, and a page without the driver's own marker lines.

#[allow(dead_code)]
#[path = "../examples/transcript/driver.rs"]
mod driver;

use driver::{Config, Kind};
use std::path::PathBuf;

const PLIES: usize = 5;

fn config(kind: Kind, seed: u64) -> Config {
    Config {
        tokar: PathBuf::from(env!("CARGO_BIN_EXE_tokar")),
        kind,
        seed,
        iterations: 24,
        max_plies: PLIES,
        workdir: std::env::temp_dir().join(format!(
            "tokar-transcript-test-{}-{seed}-{}",
            kind.slug(),
            std::process::id()
        )),
    }
}

#[test]
fn the_transcript_driver_plays_every_game_through_the_console() {
    for kind in Kind::ALL {
        let cfg = config(kind, 5);
        let t = driver::play(&cfg).unwrap_or_else(|e| panic!("{}: {e}", kind.slug()));
        // Arachne may end within a few plies (a Matron taken early).
        assert!(
            t.plays == PLIES || (t.over && t.plays > 0),
            "{}: {} plays",
            kind.slug(),
            t.plays
        );
        let text = t.text();
        assert!(!text.contains("transcript-marker"), "{text}");
        assert!(!text.contains("The only ~ command"), "{text}");
        // Each /play is the action the player's own private /hint named.
        let plays: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with('@') && l.contains(" /play "))
            .collect();
        assert_eq!(plays.len(), t.plays, "{text}");
        for p in &plays {
            let (user, action) = p.split_once(" /play action:").unwrap();
            let action = action.trim_matches('"');
            let hint = format!("[#table, only {}] ", &user[1..]);
            assert!(
                text.lines().any(|l| l.starts_with(&hint)
                    && l.ends_with(&format!(" action:{action}"))
                    && l.contains(": /play game:")),
                "{p} was not hinted: {text}"
            );
        }
        if kind == Kind::MagicChess {
            // Hands are answered privately to their holder only.
            for l in text.lines().filter(|l| l.ends_with("/hand")) {
                assert!(text.contains(&format!(
                    "[#table, only {}] Game #1",
                    &l[1..l.find(' ').unwrap()]
                )));
            }
            for r in driver::parse_replies(&text.lines().map(String::from).collect::<Vec<_>>()) {
                if r.to.is_none() {
                    assert!(!r.content.contains("You drew"), "{}", r.content);
                    assert!(!r.content.contains(": Freeze"), "{}", r.content);
                }
            }
        }
        let page = driver::page(&t, "x.log", Some("x.png"));
        assert!(
            page.contains(&format!("--game {} --seed 5", kind.slug())),
            "{page}"
        );
        assert!(page.contains(kind.setup()[0]), "{page}");
        assert!(page.contains("![The last position](x.png)"), "{page}");
        assert!(t.final_image.as_ref().is_some_and(|p| p.exists()));
        let _ = std::fs::remove_dir_all(&cfg.workdir);
    }
}

#[test]
fn the_same_seed_gives_the_same_transcript() {
    let run = || {
        let cfg = config(Kind::Arachne, 9);
        let t = driver::play(&cfg).unwrap();
        let _ = std::fs::remove_dir_all(&cfg.workdir);
        t.text()
    };
    assert_eq!(run(), run());
}

#[test]
fn the_status_line_tells_who_acts() {
    assert_eq!(
        driver::to_act("Game #1 (Magic Chess), move 3: Yellow (carol) to act."),
        vec!["carol"]
    );
    assert_eq!(
        driver::to_act(
            "x.\nGame #1 (Gladiator Chess), move 2: White Queen (alice), White King (alice) to act."
        ),
        vec!["alice"]
    );
    assert_eq!(
        driver::to_act(
            "Game #1 (Arachne), move 4: Black (bob) to act (Black: the Blademaster on j4 may move again, or end)."
        ),
        vec!["bob"]
    );
    assert!(driver::to_act("Game #1 (Arachne) is over: White (alice) won.").is_empty());
    assert_eq!(
        driver::hinted_action(
            "Game #1, hint for Black: /play game:1 action:turncoat g4 xf4\nWhy: …"
        ),
        Some("turncoat g4 xf4".to_string())
    );
}

/// A session too long to show whole is shown as its opening, the stretch
/// with the notable events, and its end, with each cut marked.
#[test]
fn a_long_session_is_shown_in_parts() {
    let exchange = |i: usize, notable: bool| driver::Exchange {
        plays_before: i,
        typed: format!("@alice /play action:a{i}"),
        printed: vec![
            if notable {
                format!("[#table] alice (White) plays turncoat a{i}.")
            } else {
                format!("[#table] alice (White) plays a{i}.")
            },
            "Game #1 (Arachne), move 2: Black (bob) to act.".to_string(),
        ],
    };
    let t = driver::Transcript {
        kind: Kind::Arachne,
        seed: 1,
        iterations: 1,
        console_args: Vec::new(),
        exchanges: (0..600).map(|i| exchange(i, i == 300)).collect(),
        plays: 600,
        last_status: "Game #1 (Arachne) is over.".into(),
        over: true,
        final_image: None,
    };
    let parts = driver::shown_parts(&t);
    assert_eq!(parts.len(), 3, "{parts:?}");
    assert_eq!(parts[0].0, 0);
    assert_eq!(parts[2].1, 600);
    assert!(parts[1].0 <= 300 && 300 < parts[1].1, "{parts:?}");
    let page = driver::page(&t, "x.log", None);
    assert_eq!(page.matches("lines left out here").count(), 2, "{page}");
    assert!(page.contains("plays turncoat a300."), "{page}");
    assert!(!page.contains("plays a200."), "{page}");
    assert!(
        page.lines().count() < driver::WHOLE_UP_TO,
        "{}",
        page.lines().count()
    );
}
