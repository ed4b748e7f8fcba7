//! What the end-to-end suites do as players and as the operator: open the data folder the bot
//! used, wait for messages, play the first legal action, start a duel, read a game's record.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use tokar_bot::{Request, Table};

use crate::fake::{FakeDiscord, FakeMessage, FakeUser};
use crate::harness::bot_table_config;

/// A fresh data folder for one test, named for the suite and the test.
pub fn data_dir(suite: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tokar-{suite}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The table as the Discord binary opens it ([`bot_table_config`]).
pub async fn open(dir: &Path) -> Table {
    let mut tries = 0;
    loop {
        match Table::open(bot_table_config(dir)).await {
            Ok(table) => {
                crate::harness::games_in_channels(&table).await;
                return table;
            }
            Err(e) if tries < 100 => {
                tries += 1;
                let _ = e;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => panic!("table opens: {e}"),
        }
    }
}

/// Waits until `probe` holds on the fake's messages.
pub async fn wait_until(fake: &FakeDiscord, what: &str, probe: impl Fn(&[FakeMessage]) -> bool) {
    let until = Instant::now() + Duration::from_secs(90);
    loop {
        if probe(&fake.messages()) {
            return;
        }
        if Instant::now() >= until {
            let messages = fake.messages();
            let last: Vec<&str> = messages
                .iter()
                .rev()
                .take(3)
                .map(|m| m.content.as_str())
                .collect();
            panic!("timed out waiting for {what}; the last messages, newest first: {last:#?}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Every action of `game`, from its record, read through a table opened on the data folder
/// once the bot has stopped.
pub async fn recorded_actions(dir: &Path, game: u64, who: &FakeUser, channel: u64) -> Vec<String> {
    let table = open(dir).await;
    let replies = table
        .handle(Request {
            user: tokar_bot::UserRef {
                id: who.id,
                name: who.name.clone(),
            },
            channel: tokar_bot::ChannelRef::new(channel, ""),
            command: tokar_bot::Command::Export { game: Some(game) },
            interaction_token: None,
            manage_server: false,
        })
        .await;
    let content = &replies[0].content;
    let record = content
        .split('`')
        .nth(1)
        .expect("a record")
        .trim_matches('"');
    record
        .split('|')
        .skip(4)
        .filter_map(|a| a.split_once(':').map(|(_, n)| n.to_owned()))
        .collect()
}

/// The turn messages announcing `notation`, created (not deleted) in the fake.
pub fn announcing<'a>(messages: &'a [FakeMessage], notation: &str) -> Vec<&'a FakeMessage> {
    messages
        .iter()
        .filter(|m| !m.deleted && m.content.contains(&format!(" plays {notation}")))
        .collect()
}

/// Plays the first legal action for `who`, ignoring whatever happens to the answer (faults may
/// eat it); returns it and the interaction.
pub async fn play_first(fake: &FakeDiscord, who: &FakeUser, ch: u64) -> (String, u64) {
    // An autocomplete answer may itself be lost to an injected fault: type again.
    let mut tries = 0;
    let choices = loop {
        match fake
            .autocomplete(who, ch, "play", &[], ("action", ""))
            .await
        {
            Ok(c) if !c.is_empty() => break c,
            other => {
                tries += 1;
                assert!(tries < 20, "no legal actions offered: {other:?}");
            }
        }
    };
    let action = choices[0].1.as_str().unwrap().to_owned();
    let id = fake
        .slash(who, ch, "play", &[("action", &action)])
        .await
        .unwrap();
    (action, id)
}

/// Alice challenges Bob in `ch` and Bob accepts; returns (who moves first, the other) once
/// the first turn message pinged the first to move.
pub async fn duel<'a>(
    fake: &FakeDiscord,
    ch: u64,
    alice: &'a FakeUser,
    bob: &'a FakeUser,
) -> (&'a FakeUser, &'a FakeUser) {
    let mention = bob.mention();
    let invite = [("game", "arcana"), ("opponent", mention.as_str())];
    fake.run(alice, ch, "new", &invite).await.unwrap();
    fake.run(bob, ch, "accept", &[]).await.unwrap();
    let first = fake
        .wait_message("the first turn", |m| {
            m.content.contains("begins") && !m.notified.is_empty()
        })
        .await
        .unwrap();
    if first.notified[0] == alice.id {
        (alice, bob)
    } else {
        (bob, alice)
    }
}

/// A game of `kind` played by the engine until one side wins, each seat taking a move that
/// wins at once, else the one that leaves it the most pieces against the others' (ties by a
/// seeded draw): the game's record (`/export`'s format) of every action but the last, and
/// the last action. `None` when no win comes within `limit` actions or the game is drawn.
/// A test starts the game from the record with `/new record:` and plays the last action to
/// see a win on the board.
pub fn nearly_won(
    kind: tokar_engine::catalog::GameKind,
    options: &[(&str, &str)],
    seed: u64,
    limit: usize,
) -> Option<(String, String)> {
    use tokar_engine::catalog::{AnyGame, Options};
    use tokar_engine::{Outcome, Rng, Viewer};
    let mut opts = Options::new();
    for (k, v) in options {
        opts.insert((*k).into(), (*v).into());
    }
    let mut game = AnyGame::setup(kind, &opts, seed).ok()?;
    let mut rng = Rng::new(seed);
    let mut actions: Vec<(u8, String)> = Vec::new();
    for _ in 0..limit {
        let seat = *game.to_act().first()?;
        let mut best: Option<(i32, u64, String, AnyGame)> = None;
        for a in game.legal_actions(seat) {
            let mut next = game.clone();
            if next.play(seat, &a).is_err() {
                continue;
            }
            let score = match next.outcome() {
                Outcome::Won { winners, .. } if winners.contains(&seat) => i32::MAX,
                _ => next
                    .view(Viewer::Spectator)
                    .pieces
                    .iter()
                    .map(|p| if p.seat == seat { 1 } else { -1 })
                    .sum(),
            };
            let tie = rng.next_u64();
            if best
                .as_ref()
                .is_none_or(|(s, t, ..)| (score, tie) > (*s, *t))
            {
                best = Some((score, tie, a, next));
            }
        }
        let (_, _, action, next) = best?;
        game = next;
        if let Outcome::Won { .. } = game.outcome() {
            let options: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let mut record = format!("tokar1|{}|{}|seed={seed}", kind.slug(), options.join(","));
            for (s, a) in &actions {
                record.push_str(&format!("|{s}:{a}"));
            }
            return Some((record, action));
        }
        if game.outcome().is_over() {
            return None;
        }
        actions.push((seat.0, action));
    }
    None
}
