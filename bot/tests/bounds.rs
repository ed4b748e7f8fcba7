//! Bounded answers (issue #32): a user with 1,000 games reads `/games` (and a server's
//! `/games scope:server`) in pages that each fit a Discord message, every game on one of them;
//! a refusal quotes at most a short excerpt of what was typed, however long; one user may
//! have at most 25 games nobody else joined (ruling T41); a long game's replay keeps to its
//! frame budget and says so, and a finished game's second replay is not drawn again.

mod common;
use common::*;
use std::collections::BTreeSet;
use tokar_bot::console::parse_line;
use tokar_bot::table::MAX_REPLAY_FRAMES;
use tokar_bot::Reply;
use tokar_engine::catalog::{AnyGame, GameKind, Options};
use tokar_engine::{Rng, Viewer};
use tokar_render::{Renderer, ReplayOptions};

const SERVER: u64 = 42;
const MESSAGE_LIMIT: usize = 2000;

/// Runs a console line in a channel of the server.
async fn on_server(e: &Env, line: &str) -> Vec<Reply> {
    for word in line.split_whitespace() {
        if let Some(name) = word.split(':').nth(1).and_then(|v| v.strip_prefix('@')) {
            e.table.remember_user(&user(name)).await.unwrap();
        }
    }
    let mut req = request(line);
    req.channel.guild = Some(SERVER);
    e.table.handle(req).await
}

async fn ok(e: &Env, line: &str) -> Vec<Reply> {
    let r = on_server(e, line).await;
    assert!(!r.is_empty() && r.iter().all(|r| r.ok), "{line}: {r:#?}");
    r
}

/// The number of the game a `/new` reply announces.
fn number(r: &[Reply]) -> u64 {
    r[0].content
        .split('#')
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no game number: {r:#?}"))
}

/// The games a page lists (its lines that begin with a game's number), and its page line.
fn listed(text: &str) -> (Vec<u64>, Option<String>) {
    let ids = text
        .lines()
        .filter_map(|l| l.strip_prefix('#'))
        .filter_map(|l| l.split(' ').next()?.parse().ok())
        .collect();
    let footer = text
        .lines()
        .last()
        .filter(|l| l.starts_with("Page "))
        .map(str::to_string);
    (ids, footer)
}

/// Reads every page of `command` (`/games`, `/games scope:server`) as `who`: each fits a
/// message and says how to read the next; returns the games listed, in order, and the pages.
async fn all_pages(e: &Env, who: &str, command: &str) -> (Vec<u64>, Vec<String>) {
    let first = ok(e, &format!("@{who} {command}")).await;
    let (mut ids, footer) = listed(&first[0].content);
    let footer =
        footer.unwrap_or_else(|| panic!("a list of many pages says so: {}", first[0].content));
    // "Page 1 of 12 — /games page:2 shows the next."
    let count: usize = footer
        .split(" of ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{footer}"));
    assert!(footer.contains(&format!("{command} page:2")), "{footer}");
    let mut pages = vec![first[0].content.clone()];
    for n in 2..=count {
        let r = ok(e, &format!("@{who} {command} page:{n}")).await;
        assert_eq!(r.len(), 1);
        let (more, footer) = listed(&r[0].content);
        let footer = footer.unwrap_or_else(|| panic!("{}", r[0].content));
        assert!(
            footer.starts_with(&format!("Page {n} of {count}")),
            "{footer}"
        );
        ids.extend(more);
        pages.push(r[0].content.clone());
    }
    for (i, p) in pages.iter().enumerate() {
        assert!(
            p.chars().count() <= MESSAGE_LIMIT,
            "page {} is {} characters",
            i + 1,
            p.chars().count()
        );
    }
    let past = on_server(e, &format!("@{who} {command} page:{}", count + 1)).await;
    assert!(!past[0].ok, "a page past the last is refused");
    assert!(
        past[0].content.contains(&format!("{count} pages")),
        "{}",
        past[0].content
    );
    (ids, pages)
}

/// One user with 1,000 games: every page of /games and of /games scope:server fits one
/// message, each game is on exactly one page, and what waits for the user comes first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_games_come_in_pages_that_each_fit_a_message() {
    let e = env("bounds-thousand").await;
    let mut invited = Vec::new();
    let mut waiting_on_others = Vec::new();
    for i in 0..1000 {
        let creator = format!("p{i}");
        let id = number(
            &ok(
                &e,
                &format!("@{creator} /new game:{GAME} {CREATOR_OPTIONS} opponent:@bob"),
            )
            .await,
        );
        invited.push(id);
        // A few accepted: in play, some on bob's move and some on the other's.
        if i % 100 == 7 {
            ok(&e, &format!("@bob /accept game:{id} {ACCEPT_OPTIONS}")).await;
            invited.pop();
            waiting_on_others.push(id);
        }
    }
    let (ids, pages) = all_pages(&e, "bob", "/games").await;
    assert!(pages.len() >= 10, "{} pages", pages.len());
    let mut expected: Vec<u64> = invited.iter().chain(&waiting_on_others).copied().collect();
    expected.sort_unstable();
    let mut got = ids.clone();
    got.sort_unstable();
    assert_eq!(got, expected, "every game of bob's, each on one page");
    // What waits for bob (his invitations, his turns) before what waits for others; a page
    // that goes on with a part says again which part it is.
    let mut parts = Vec::new();
    for page in &pages {
        let mut part = "";
        for line in page.lines() {
            if line.ends_with(':') && !line.starts_with('#') {
                part = line;
            } else if let Some(&id) = listed(line).0.first() {
                assert!(!part.is_empty(), "a page begins with its part: {page}");
                parts.push((part.to_string(), id));
            }
        }
    }
    assert_eq!(parts.len(), 1000);
    let first_other = parts
        .iter()
        .position(|(p, _)| p == "Waiting for others:")
        .expect("some games wait for the other player");
    assert!(parts[..first_other]
        .iter()
        .all(|(p, _)| p == "Waiting for you:"));
    assert!(parts[first_other..]
        .iter()
        .all(|(p, id)| p == "Waiting for others:" && waiting_on_others.contains(id)));
    assert!(invited
        .iter()
        .all(|id| parts[..first_other].iter().any(|(_, i)| i == id)));

    let (ids, pages) = all_pages(&e, "carol", "/games scope:server").await;
    let unique: BTreeSet<u64> = ids.iter().copied().collect();
    assert_eq!(unique.len(), ids.len(), "each game once");
    assert_eq!(ids.len(), 1000, "every game of the server is listed");
    assert!(pages.iter().all(|p| p.starts_with("Games on this server:")));
    // The open games (waiting longest first) come before the games in play.
    let in_play: Vec<usize> = waiting_on_others
        .iter()
        .map(|g| ids.iter().position(|i| i == g).unwrap())
        .collect();
    assert!(
        in_play.iter().all(|&p| p >= ids.len() - in_play.len()),
        "{in_play:?}"
    );
}

/// What a 12,000-character value looks like in a refusal: never more than an excerpt. The
/// text repeats every three characters, so any 61 characters of it are one of three.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusal_quotes_at_most_an_excerpt_of_what_was_typed() {
    let e = env("bounds-excerpt").await;
    let (id, mover, _) = e.duel().await;
    let long: String = (0..12_000).map(|i| ['x', 'é', '7'][i % 3]).collect();
    let windows: Vec<String> = (0..3)
        .map(|s| long.chars().skip(s).take(61).collect())
        .collect();
    let quotes_too_much = |text: &str| windows.iter().any(|w| text.contains(w.as_str()));
    let lines = [
        format!("@{mover} /play game:{id} action:{long}"),
        format!("@{mover} /play game:{id} {long} {long}"),
        format!("@{mover} /moves game:{id} {long}"),
        format!("@{mover} /moves game:{id} page:{long}"),
        format!("@alice /games scope:{long}"),
        format!("@alice /games page:{long}"),
        format!("@alice /games {long}:1"),
        format!("@alice /board game:{long}"),
        format!("@alice /{long}"),
        format!("@alice /new game:{long}"),
        format!("@alice /new game:arcana army:{long}"),
        format!("@alice /new game:arcana players:{long}"),
        format!("@alice /new game:arcana deadline:{long}"),
        format!("@alice /new game:arcana reminder:{long}"),
        format!("@alice /new game:arcana opponent:{long}"),
        format!("@alice /new game:arcana level:{long}"),
        format!("@alice /new game:arcana rated:{long}"),
        format!("@alice /new record:{long}"),
        format!("@alice /new record:tokar1|{long}"),
        format!("@alice /new record:tokar1|arcana|{long}|seed=1"),
        format!("@alice /new record:tokar1|arcana||seed={long}"),
        format!("@alice /new record:tokar1|arcana||seed=1|{long}"),
        format!("@alice /new record:tokar1|arcana||seed=1|0:{long}"),
        format!("@alice /rules {long}"),
        format!("@alice /settings reminder:{long}"),
        format!("@alice /settings deadline:{long}"),
        format!("@alice /vacation {long}"),
        format!("@alice /follow game:{id} stop:{long}"),
        format!("@{mover} /draw game:{id} answer:{long}"),
        format!("@{mover} /resign game:{id} confirm:{long}"),
        format!("@alice /league {long}"),
        format!("@alice /leaderboard game:{long}"),
    ];
    for line in &lines {
        let refused = e.refused(line).await;
        assert!(
            !quotes_too_much(&refused),
            "{}…: {} characters: {}",
            &line[..line.char_indices().nth(40).map_or(line.len(), |(i, _)| i)],
            refused.chars().count(),
            refused
        );
        assert!(refused.chars().count() < 600, "{refused}");
    }
    // The refusal still says what was refused: its beginning.
    let refused = e.refused(&format!("@alice /new game:{long}")).await;
    assert!(
        refused.contains(&format!(
            "'{}…'",
            &long.chars().take(59).collect::<String>()
        )),
        "{refused}"
    );
    // The console's own reading of a line too.
    let err = parse_line(&format!("@alice #{long}! /board")).unwrap_err();
    assert!(!quotes_too_much(&err), "{err}");
}

/// Ruling T41: a user may have at most 25 unfinished games they created that nobody else
/// joined; the 26th is refused with the reason and how to make room, and a game somebody
/// accepted does not count.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_user_may_have_at_most_25_games_nobody_else_joined() {
    let e = env("bounds-cap").await;
    let mut lobbies = Vec::new();
    for _ in 0..25 {
        let r = e
            .ok(&format!(
                "@alice /new game:{GAME} {CREATOR_OPTIONS} players:2"
            ))
            .await;
        lobbies.push(number(&r));
    }
    let refused = e
        .refused(&format!(
            "@alice /new game:{GAME} {CREATOR_OPTIONS} opponent:@bob"
        ))
        .await;
    assert!(
        refused.contains("25 games that nobody else has joined"),
        "{refused}"
    );
    assert!(refused.contains(&format!("#{}", lobbies[0])), "{refused}");
    assert!(refused.contains("/resign game:"), "{refused}");
    // Nothing was made: bob has no invitation.
    let bobs = e.ok("@bob /games").await;
    assert!(bobs[0].content.contains("no games"), "{}", bobs[0].content);
    // Someone joins one: it no longer counts, and alice may start another (which counts
    // until bob accepts it).
    e.ok(&format!("@bob /join game:{} {ACCEPT_OPTIONS}", lobbies[0]))
        .await;
    let id = e.start("alice", "bob").await;
    assert!(id > lobbies[24]);
    e.ok(&format!("@alice /new game:{GAME} players:2")).await;
    // Her own lobby cancelled makes room too.
    e.refused(&format!("@alice /new game:{GAME} players:2"))
        .await;
    e.ok(&format!("@alice /resign game:{}", lobbies[1])).await;
    e.ok(&format!("@alice /new game:{GAME} players:2")).await;
    // Others are not limited by her games.
    e.ok(&format!("@carol /new game:{GAME} players:2")).await;
}

/// A game of `actions` actions played by the engine (pseudo-random legal actions), as an
/// `/export` record with its seed: the first seed whose game lasts that long.
fn long_record(actions: usize) -> String {
    let mut options = Options::new();
    options.insert("army.0".into(), "human".into());
    options.insert("army.1".into(), "undead".into());
    for seed in 1.. {
        let mut game = AnyGame::setup(GameKind::Arcana, &options, seed).unwrap();
        let mut rng = Rng::new(seed);
        let mut log = Vec::new();
        while log.len() < actions && !game.outcome().is_over() {
            let seat = game.to_act()[0];
            let legal = game.legal_actions(seat);
            if legal.is_empty() {
                break;
            }
            let a = legal[rng.below(legal.len() as u64) as usize].clone();
            game.play(seat, &a).unwrap();
            log.push(format!("{}:{a}", seat.0));
        }
        if log.len() == actions && !game.outcome().is_over() {
            return format!(
                "tokar1|arcana|army.0=human,army.1=undead|seed={seed}|{}",
                log.join("|")
            );
        }
    }
    unreachable!()
}

/// A finished game longer than the frame budget is replayed with every n-th action (and the
/// last), and the message says how many of how many; asked again, the kept replay answers
/// (the table's count of replays drawn does not move) with the same picture.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_games_replay_keeps_to_its_frame_budget_and_is_drawn_once() {
    let e = env("bounds-replay").await;
    let actions = MAX_REPLAY_FRAMES + 50;
    let record = long_record(actions);
    let id = number(
        &e.ok(&format!("@alice /new record:\"{record}\" opponent:@bob"))
            .await,
    );
    e.ok(&format!("@bob /accept game:{id}")).await;
    e.ok(&format!("@alice /resign game:{id} confirm:yes")).await;
    let total = actions + 1;

    let before = e.table.replay_cache_stats();
    let r = e.ok(&format!("@carol /replay game:{id}")).await;
    let every = total.div_ceil(MAX_REPLAY_FRAMES);
    let shown = total.div_ceil(every);
    assert!(shown <= MAX_REPLAY_FRAMES);
    let text = &r[0].content;
    assert!(
        text.contains(&format!("showing {shown} of its {total} actions")),
        "{text}"
    );
    assert!(
        text.contains(&format!("at most {MAX_REPLAY_FRAMES} frames")),
        "{text}"
    );
    let gif = r[0].images[0].png.clone();
    let drawn = e.table.replay_cache_stats();
    assert_eq!(drawn.drawn, before.drawn + 1);

    // The picture is the spectators' views of every `every`-th action counted back from the
    // last. The record's change of seed after the preset actions touches only the concession.
    let exported = exported_record(&e.ok(&format!("@carol /export game:{id}")).await[0]);
    let plain: Vec<String> = exported
        .split('|')
        .map(|p| match p.strip_prefix("seed=") {
            Some(s) => format!("seed={}", s.split('+').next().unwrap()),
            None => p.to_string(),
        })
        .collect();
    let steps: Vec<_> = record_steps(&plain.join("|"), Viewer::Spectator)
        .into_iter()
        .enumerate()
        .filter(|(i, _)| (total - 1 - i).is_multiple_of(every))
        .map(|(_, (view, highlights, _))| (view, highlights))
        .collect();
    assert_eq!(steps.len(), shown);
    let expected = Renderer::new()
        .replay(&steps, &ReplayOptions::default())
        .unwrap();
    assert_eq!(gif, expected.gif);

    let again = e.ok(&format!("@dave /replay game:{id}")).await;
    let after = e.table.replay_cache_stats();
    assert_eq!(after.drawn, drawn.drawn, "not drawn again");
    assert_eq!(after.hits, drawn.hits + 1, "answered from the cache");
    assert_eq!(again[0].images[0].png, gif);
    assert_eq!(again[0].content, *text);
}
