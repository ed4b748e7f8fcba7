//! Lists a person can read: `/moves` one line a piece, in pages that never cut silently
//! (ruling T15); the text `/board` carrying what the picture shows; `/hint` saying why in words
//! before its numbers (ruling S9, engine/rules/search.md); and one picture a Gladiator turn
//! when one player moves a whole team (ruling T16). In all five games where the item applies.

mod common;
use common::*;
use std::collections::BTreeSet;
use std::sync::Arc;
use tokar_bot::clock::VirtualClock;
use tokar_bot::table::robot::RobotConfig;
use tokar_bot::{Reply, Table, TableConfig};
use tokar_engine::catalog::{AnyGame, GameKind, Options};
use tokar_engine::view::RollRole;
use tokar_engine::{Rng, StatusKind, View, Viewer};

const MESSAGE_LIMIT: usize = 2000;
const FOUR: [&str; 4] = ["alice", "bob", "carol", "dave"];
const TWO: [&str; 2] = ["alice", "bob"];

/// The five games: Tokar's Arcana, Undead Arcana armies, Magic Chess, Gladiator, Arachne.
fn games() -> Vec<(
    &'static str,
    GameKind,
    &'static str,
    &'static [&'static str],
)> {
    vec![
        (
            "arcana",
            GameKind::Arcana,
            "army.0=human,army.1=undead,first=creator",
            &TWO,
        ),
        (
            "undead-arcana",
            GameKind::Arcana,
            "army.0=alternate,army.1=undead-arcana,first=creator",
            &TWO,
        ),
        ("magic-chess", GameKind::MagicChess, "", &FOUR),
        ("gladiator", GameKind::Gladiator, "", &TWO),
        ("arachne", GameKind::Arachne, "", &TWO),
    ]
}

fn parse_options(options: &str) -> Options {
    options
        .split(',')
        .filter(|kv| !kv.is_empty())
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap();
            (k.to_string(), v.to_string())
        })
        .collect()
}

/// How much a position has to show in words: kinds of conditions, lost pieces, wounds, notes.
fn richness(v: &View) -> usize {
    let mut kinds: Vec<StatusKind> = v
        .pieces
        .iter()
        .flat_map(|p| p.statuses.iter().map(|s| s.kind))
        .collect();
    kinds.sort_by_key(|k| format!("{k:?}"));
    kinds.dedup();
    let lost = v.seats.iter().filter(|s| !s.lost.is_empty()).count();
    let hurt = v
        .pieces
        .iter()
        .any(|p| matches!(p.hp, Some((h, m)) if h < m));
    let notes: usize = v.seats.iter().map(|s| s.notes.len()).sum();
    kinds.len() * 10 + lost * 3 + usize::from(hurt) * 3 + notes.min(5)
}

/// A record whose actions lead from a known seed to the richest ongoing position that random
/// play finds, and that position.
fn rich_record(kind: GameKind, options: &str) -> (String, AnyGame) {
    let opts = parse_options(options);
    let mut best: Option<(usize, String, AnyGame)> = None;
    for seed in 1..=8u64 {
        let mut game = AnyGame::setup(kind, &opts, seed).unwrap();
        let mut record = format!("tokar1|{}|{options}|seed={seed}", kind.slug());
        let mut rng = Rng::new(seed);
        for _ in 0..120 {
            let Some(&seat) = game.to_act().first() else {
                break;
            };
            let actions = game.legal_actions(seat);
            let a = actions[rng.below(actions.len() as u64) as usize].clone();
            let mut next = game.clone();
            next.play(seat, &a).unwrap();
            if next.outcome().is_over() {
                break;
            }
            game = next;
            record.push_str(&format!("|{}:{a}", seat.0));
            let score = richness(&game.view(Viewer::Spectator));
            if best.as_ref().is_none_or(|(b, _, _)| score > *b) {
                best = Some((score, record.clone(), game.clone()));
            }
        }
    }
    let (_, record, game) = best.expect("a position");
    (record, game)
}

/// Starts game #1 from `record` among `players`.
async fn start_record(e: &Env, record: &str, players: &[&str]) {
    start_record_with(e, record, players, "").await
}

/// As [`start_record`], with more options for `/new` (`rated:no`).
async fn start_record_with(e: &Env, record: &str, players: &[&str], more: &str) {
    let mut line = format!("@{} /new record:\"{record}\"{more}", players[0]);
    line.push_str(&opponents(&players[1..]));
    e.ok(&line).await;
    for p in &players[1..] {
        e.ok(&format!("@{p} /accept game:1")).await;
    }
}

/// Starts a fresh game #1 of one of [`games`].
async fn start_fresh(e: &Env, kind: GameKind, options: &str, players: &[&str]) {
    let record = format!("tokar1|{}|{options}|seed=5", kind.slug());
    start_record(e, &record, players).await;
}

/// The user among `players` whom game #1 waits for.
async fn mover<'a>(e: &Env, players: &[&'a str]) -> &'a str {
    e.to_act(1, players).await.expect("someone is to act")
}

/// A condition in the words of the text board.
fn status_words(kind: StatusKind, count: Option<u8>, cards: bool) -> String {
    let n = count.unwrap_or(0);
    let s = |n: u8| if n == 1 { "" } else { "s" };
    let card = |what: &str, card: &str| {
        if cards {
            format!("{what} (a {card} card under it)")
        } else {
            what.to_string()
        }
    };
    match kind {
        StatusKind::Paralysed => "paralysed".into(),
        StatusKind::Firebrew => format!("firebrew, {n} token{} left", s(n)),
        StatusKind::Resting => match count {
            Some(n) => format!("resting (moved by others), {n} turn{}", s(n)),
            None => "resting (moved by others)".into(),
        },
        StatusKind::Frozen => card("frozen", "Freeze"),
        StatusKind::Slowed => card("slowed", "Slow"),
        StatusKind::AntiJump => card("cannot jump", "Anti-Jump"),
        StatusKind::Controlled => "controlled by the enemy".into(),
        StatusKind::ExtraTurn => "takes an extra turn".into(),
        StatusKind::Held => match count {
            Some(n) => format!("holds the captured Queen, {n} turn{}", s(n)),
            None => "holds the captured Queen".into(),
        },
        StatusKind::Guarded => "guarded".into(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_text_board_says_what_the_picture_shows() {
    let mut shown: BTreeSet<String> = BTreeSet::new();
    for (name, kind, options, players) in games() {
        let (record, game) = rich_record(kind, options);
        let e = env(&format!("lists-board-{name}")).await;
        start_record(&e, &record, players).await;
        let board = e.ok("@alice /board game:1").await[0].content.clone();
        let view = game.view(Viewer::Spectator);
        let cards = view.seats.iter().any(|s| s.hand_size.is_some());
        for s in &view.seats {
            let line = board
                .lines()
                .find(|l| {
                    l.starts_with(&format!("{}:", s.name))
                        || l.starts_with(&format!("{} (out):", s.name))
                })
                .unwrap_or_else(|| panic!("{name}: no line for {}:\n{board}", s.name));
            if !s.lost.is_empty() {
                let lost: Vec<&str> = s.lost.iter().map(|g| g.name.as_str()).collect();
                assert!(
                    line.contains(&format!("lost: {}", lost.join(", "))),
                    "{name}: {line}"
                );
                shown.insert("lost".into());
            }
            if let Some(n) = s.hand_size {
                let plural = if n == 1 { "" } else { "s" };
                assert!(
                    line.contains(&format!("{n} card{plural} in hand")),
                    "{name}: {line}"
                );
                shown.insert("hand".into());
            }
            // Arachne's roll is thrown again after a record's actions (ruling T13).
            for note in s.notes.iter().filter(|n| !n.starts_with("Rolled")) {
                assert!(line.contains(note.as_str()), "{name}: {note}: {line}");
                if note.starts_with("buried") || note.starts_with("Draw pile") {
                    shown.insert(note.split(':').next().unwrap().into());
                }
                if note.starts_with("Queen held") {
                    shown.insert("Queen held".into());
                }
            }
        }
        for p in &view.pieces {
            let who = format!(
                "{} {} ({})",
                view.board.name(p.cell),
                p.glyph.name,
                view.seats[p.seat.index()].name
            );
            for st in &p.statuses {
                let words = status_words(st.kind, st.count, cards);
                assert!(
                    board.contains(&who) && board.contains(&words),
                    "{name}: {who} is {words}:\n{board}"
                );
                let piece_part = board
                    .split(&format!("{who}: "))
                    .nth(1)
                    .unwrap_or_else(|| panic!("{name}: {who} has no conditions:\n{board}"));
                let piece_part = piece_part.split(';').next().unwrap();
                assert!(piece_part.contains(&words), "{name}: {who}: {piece_part}");
                shown.insert(format!("{:?}", st.kind));
            }
            if let Some((hp, max)) = p.hp {
                if hp < max {
                    assert!(
                        board.contains(&format!("{who} {hp}/{max}")),
                        "{name}: {who} has {hp}/{max}:\n{board}"
                    );
                    shown.insert("hit points".into());
                }
            }
        }
        // A battle's dice by side, with the totals the game compares, as the picture shows them.
        for r in view.rolls.iter().filter(|r| r.role != RollRole::Turn) {
            let verb = if r.role == RollRole::Attack {
                "attacks with"
            } else {
                "defends with"
            };
            assert!(
                board.contains(&format!("{} {verb} ", view.seats[r.seat.index()].name)),
                "{name}: {r:?}\n{board}"
            );
            shown.insert("dice by side".into());
        }
        for (cell, card) in &view.under {
            assert!(
                board.contains(&format!("{card} under {}", view.board.name(*cell))),
                "{name}: {card} under {cell:?}\n{board}"
            );
            shown.insert("cards under pieces".into());
        }
        let battle = view.rolls.iter().any(|r| r.role != RollRole::Turn);
        if battle {
            assert!(board.contains("Last dice: "), "{board}");
        } else if kind != GameKind::Arachne {
            if let Some((seat, dice)) = &view.dice {
                assert!(
                    board.contains(&format!(
                        "Last dice: {} rolled",
                        view.seats[seat.index()].name
                    )),
                    "{name}: {dice:?}\n{board}"
                );
                shown.insert("dice".into());
            }
        } else {
            assert!(board.contains("Last dice: "), "{board}");
        }
        if kind == GameKind::Gladiator {
            assert!(board.contains("Hit points: "), "{board}");
        }
        assert!(!board.contains('['), "no internals: {board}");
    }
    // What the five positions showed in words, among them lost pieces, hands and conditions.
    for wanted in ["lost", "hand", "Draw pile"] {
        assert!(shown.contains(wanted), "{wanted} never shown: {shown:?}");
    }
    let kinds = [
        "Paralysed",
        "Firebrew",
        "Resting",
        "Frozen",
        "Slowed",
        "AntiJump",
        "Controlled",
        "ExtraTurn",
        "Held",
        "Guarded",
    ];
    assert!(
        kinds.iter().filter(|k| shown.contains(**k)).count() >= 4,
        "few conditions shown: {shown:?}"
    );
}

/// The actions a /moves page lists, read back from its lines, and the totals its headings
/// give.
fn read_moves(page: &str) -> (Vec<String>, usize) {
    let mut actions = Vec::new();
    let mut total = 0;
    let mut lines: Vec<String> = Vec::new();
    for l in page.lines().skip(1) {
        match l.strip_prefix("  ") {
            Some(more) => {
                let last = lines
                    .last_mut()
                    .unwrap_or_else(|| panic!("a continued line: {page}"));
                last.push(' ');
                last.push_str(more);
            }
            None => lines.push(l.to_string()),
        }
    }
    for l in lines {
        if l.starts_with("Page ") {
            continue;
        }
        if l.ends_with("):") {
            let n = l.rsplit_once(" (").unwrap().1;
            total += n.split(' ').next().unwrap().parse::<usize>().unwrap();
            continue;
        }
        let (head, rest) = l.split_once(": ").unwrap_or((l.as_str(), ""));
        let square = head.split(' ').next().unwrap();
        let is_piece = square == "hub"
            || (square.len() >= 2
                && square.as_bytes()[0].is_ascii_lowercase()
                && square[1..].chars().all(|c| c.is_ascii_digit()));
        if rest.is_empty() {
            actions.push(head.to_string());
            continue;
        }
        for part in rest.split("; ") {
            let (to, items) = match part.strip_prefix("to ") {
                Some(t) => (true, t),
                None => (false, part.strip_prefix("also ").unwrap_or(part)),
            };
            for item in items.split(", ") {
                actions.push(if to {
                    format!("{square}-{item}")
                } else if is_piece {
                    item.to_string()
                } else {
                    format!("{head} {item}")
                });
            }
        }
    }
    (actions, total)
}

/// Every page of `who`'s /moves in game #1 (with `square` when given).
async fn all_pages(e: &Env, who: &str, square: Option<&str>) -> Vec<Reply> {
    let sq = square.map(|s| format!(" square:{s}")).unwrap_or_default();
    let first = e.ok(&format!("@{who} /moves game:1{sq}")).await;
    let mut pages = vec![first[0].clone()];
    let count = first[0]
        .content
        .lines()
        .last()
        .and_then(|l| l.strip_prefix("Page 1 of "))
        .map(|r| r.split('.').next().unwrap().parse::<usize>().unwrap())
        .unwrap_or(1);
    for p in 2..=count {
        pages.push(e.ok(&format!("@{who} /moves game:1{sq} page:{p}")).await[0].clone());
    }
    pages
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_are_one_line_a_piece_and_never_cut() {
    for (name, kind, options, players) in games() {
        let e = env(&format!("lists-moves-{name}")).await;
        start_fresh(&e, kind, options, players).await;
        let who = mover(&e, players).await;
        let pages = all_pages(&e, who, None).await;
        let mut listed = Vec::new();
        let mut total = 0;
        for p in &pages {
            assert!(
                p.content.chars().count() <= MESSAGE_LIMIT,
                "{name}: a page of {} characters",
                p.content.chars().count()
            );
            assert!(!p.content.contains("..."), "{name}: cut: {}", p.content);
            let (a, t) = read_moves(&p.content);
            listed.extend(a);
            total += t;
        }
        if pages.len() > 1 {
            let first = &pages[0].content;
            assert!(
                first.contains(&format!("Page 1 of {}", pages.len()))
                    && first.contains("/moves page:2")
                    && first.contains("/moves <square>"),
                "{name}: {first}"
            );
        }
        let unique: BTreeSet<&String> = listed.iter().collect();
        assert_eq!(
            unique.len(),
            listed.len(),
            "{name}: listed twice: {listed:?}"
        );
        assert_eq!(listed.len(), total, "{name}: {listed:?}");
        // Every action the autocomplete offers is among them, read back exactly.
        for a in e.actions(who, 1).await {
            assert!(
                listed.contains(&a),
                "{name}: {a} is missing from {listed:?}"
            );
        }
        // A piece's line: its square and name, then where it goes.
        let text = &pages[0].content;
        let piece_line = text
            .lines()
            .find(|l| l.contains(": to "))
            .unwrap_or_else(|| panic!("{name}: no piece line:\n{text}"));
        let square = piece_line.split(' ').next().unwrap();
        let of_piece: Vec<String> = read_moves(&format!("x\n{piece_line}")).0;
        // One piece's list shows all of its actions.
        let one = all_pages(&e, who, Some(square)).await;
        assert_eq!(one.len(), 1, "{name}: one piece fits one page");
        let (filtered, _) = read_moves(&one[0].content);
        for a in &of_piece {
            assert!(filtered.contains(a), "{name}: /moves {square} lacks {a}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_that_does_not_exist_is_refused() {
    // Ruling T15; the pages themselves: `a_long_list_comes_in_pages_that_fit_a_message`
    // (bot/table/src/moves_list.rs).
    let e = env("lists-pages").await;
    start_fresh(&e, GameKind::Gladiator, "", &TWO).await;
    let who = mover(&e, &TWO).await;
    let pages = all_pages(&e, who, None).await;
    let why = e
        .refused(&format!("@{who} /moves game:1 page:{}", pages.len() + 1))
        .await;
    let count = pages.len();
    let plural = if count == 1 { "" } else { "s" };
    assert!(why.contains(&format!("{count} page{plural}")), "{why}");
    let why = e.refused(&format!("@{who} /moves game:1 page:0")).await;
    assert!(why.contains("page"), "{why}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_team_turn_sends_one_picture() {
    // Ruling T16.
    let e = env("lists-picture").await;
    start_fresh(&e, GameKind::Gladiator, "", &TWO).await;
    let first = mover(&e, &TWO).await;
    let mut steps = Vec::new();
    for _ in 0..12 {
        let who = mover(&e, &TWO).await;
        if who != first {
            break;
        }
        let action = e
            .actions(who, 1)
            .await
            .into_iter()
            .find(|a| !a.starts_with("king:"))
            .expect("a commander's move");
        let r = e
            .ok(&format!("@{who} /play game:1 action:\"{action}\""))
            .await;
        steps.push(r[0].clone());
    }
    assert!(steps.len() > 1, "one user made several steps");
    let (last, earlier) = steps.split_last().unwrap();
    for s in earlier {
        assert!(s.images.is_empty(), "a step in words only: {}", s.content);
    }
    assert_eq!(last.images.len(), 1, "the turn passes with the picture");
    assert_ne!(mover(&e, &TWO).await, first);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_explains_in_words_then_numbers() {
    // Ruling S9 (engine/rules/search.md).
    for (name, kind, options, players) in games() {
        let dir = fresh_dir(&format!("lists-hint-{name}"));
        let clock = Arc::new(VirtualClock::open(&dir).unwrap());
        let table = Table::open(TableConfig {
            data_dir: dir.clone(),
            storage: Default::default(),
            clock: clock.clone(),
            seed: Some(7),
            robot: RobotConfig {
                iterations: Some(200),
                ..RobotConfig::default()
            },
        })
        .await
        .unwrap();
        let e = Env { dir, clock, table };
        // Hints are for unrated games (ruling T49).
        let record = format!("tokar1|{}|{options}|seed=5", kind.slug());
        start_record_with(&e, &record, players, " rated:no").await;
        let who = mover(&e, players).await;
        let hint = e.ok(&format!("@{who} /hint game:1")).await[0]
            .content
            .clone();
        let why = hint
            .split("Why: ")
            .nth(1)
            .unwrap_or_else(|| panic!("{name}: {hint}"));
        let (words, numbers) = why
            .split_once(". The search: ")
            .unwrap_or_else(|| panic!("{name}: words, then the numbers: {hint}"));
        assert!(
            [
                "brings the ",
                "wins ",
                "uses the ",
                "targets the ",
                "attacks the ",
                // S9: a hint names what its action gives up (Arachne's answer since S13's
                // guard, which keeps the Matron out of a likely capture).
                "gives up "
            ]
            .iter()
            .any(|w| words.contains(w)),
            "{name}: {words}"
        );
        assert!(numbers.contains("expected"), "{name}: {numbers}");
        assert!(!words.contains("expected"), "{name}: {words}");
        // The hinted action is played as advised.
        let action = hinted_action(&hint);
        e.ok(&format!("@{who} /play game:1 action:\"{action}\""))
            .await;
    }
}
