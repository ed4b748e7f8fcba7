//! The strength table of the computer opponent: for each game, the search at
//! one level against a random player and against a one-ply greedy player.
//!
//! ```text
//! cargo run --release -p tokar-engine --example strength -- \
//!     [--games 200] [--iterations 200] [--level normal] [--max-plies 400] \
//!     [--opponent random|greedy|material|both] [--game NAME]... [--option KEY=VALUE]... \
//!     [--plies N] [--playout random|best:N] [--prior none|events|heuristic] \
//!     [--c X] [--prior-weight W] [--widening W] [--win-check on|off] \
//!     [--first-play on|off] [--chance on|off] [--guard on|off]
//! ```
//!
//! The last flags change the level's settings (for trying alternatives).
//!
//! The search plays every seat of one side (the seats sharing a colour in the
//! view); the opponent plays all the others. Sides alternate from game to
//! game. The search is bounded by a fixed iteration count, not by time, so the
//! table is reproducible: game `n` uses seed `n` for its setup and for both
//! players. Time per move is wall time on the machine running it.
//!
//! These rows are unpaired and of fixed length; the paired, SPRT-decided
//! match of one player against another is the `sprt` example.

use std::time::{Duration, Instant};
use tokar_engine::catalog::{Options, Variant};
use tokar_engine::search::{self, Budget, Level, Playout, Prior, Settings};
use tokar_engine::{arachne, arcana, gladiator, magic};
use tokar_engine::{Game, Outcome, Rng, Seat, Viewer};

struct Args {
    games: usize,
    iterations: u32,
    level: Level,
    settings: Settings,
    max_plies: usize,
    opponents: Vec<Opponent>,
    only: Vec<String>,
    options: Options,
}

#[derive(Clone, Copy, PartialEq)]
enum Opponent {
    Random,
    Greedy,
    /// One-ply greedy by the material share alone (`search::material_share`
    /// of the public view), not the game's estimate: a conventional greedy
    /// capturer, for context beside the table's greedy rows.
    Material,
}

impl Opponent {
    fn name(self) -> &'static str {
        match self {
            Opponent::Random => "random",
            Opponent::Greedy => "greedy",
            Opponent::Material => "material",
        }
    }
}

/// The games this build knows, each with how to set up game number `seed`.
type Runner = fn(&Args, &str);

fn games() -> Vec<(&'static str, Runner)> {
    vec![
        ("arcana", |a, n| run_game(a, n, setup::<arcana::Arcana>)),
        ("magic-chess", |a, n| {
            run_game(a, n, setup::<magic::MagicChess>)
        }),
        ("gladiator", |a, n| {
            run_game(a, n, setup::<gladiator::Gladiator>)
        }),
        ("arachne", |a, n| run_game(a, n, setup::<arachne::Arachne>)),
    ]
}

/// Game number `seed` with the options given by `--option` (by default, for
/// Arcana: Human against Undead; Magic Chess: four players, each for itself;
/// Arachne: the original capture dice).
fn setup<G: Variant>(args: &Args, seed: u64) -> G {
    G::setup(&args.options, seed).unwrap_or_else(|e| {
        eprintln!("these options do not set up a game: {e}");
        std::process::exit(2)
    })
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let known = games();
    if known.is_empty() {
        eprintln!("No game is in this build yet.");
        std::process::exit(1);
    }
    for name in &args.only {
        if !known.iter().any(|(n, _)| n == name) {
            let names: Vec<_> = known.iter().map(|(n, _)| *n).collect();
            eprintln!("Unknown game '{name}'; known: {}", names.join(", "));
            std::process::exit(2);
        }
    }
    println!(
        "level {}, {} iterations per move, {} games per row, at most {} plies per game",
        args.level, args.iterations, args.games, args.max_plies
    );
    if args.settings != args.level.settings() {
        println!("settings changed: {:?}", args.settings);
    }
    println!();
    println!("| game | opponent | games | won | drawn | lost | unfinished | win rate | ms/move median | ms/move p90 | search moves |");
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (name, run) in known {
        if args.only.is_empty() || args.only.iter().any(|n| n == name) {
            run(&args, name);
        }
    }
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        games: 200,
        iterations: 200,
        level: Level::Normal,
        settings: Level::Normal.settings(),
        max_plies: 400,
        opponents: vec![Opponent::Random, Opponent::Greedy],
        only: Vec::new(),
        options: Options::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        let number = |v: String| v.parse::<u64>().map_err(|_| format!("not a number: {v}"));
        match flag.as_str() {
            "--games" => args.games = number(value()?)? as usize,
            "--iterations" => args.iterations = number(value()?)? as u32,
            "--max-plies" => args.max_plies = number(value()?)? as usize,
            "--level" => {
                let v = value()?;
                args.level = Level::parse(&v).ok_or(format!("no level '{v}'"))?;
                args.settings = args.level.settings();
            }
            "--plies" => args.settings.playout_plies = number(value()?)? as u16,
            "--playout" => {
                let v = value()?;
                args.settings.playout = match v.strip_prefix("best:") {
                    Some(n) => Playout::BestOf(number(n.to_string())?.min(255) as u8),
                    None if v == "random" => Playout::Random,
                    None => return Err(format!("no playout '{v}'")),
                }
            }
            "--prior" => {
                args.settings.prior = match value()?.as_str() {
                    "none" => Prior::None,
                    "events" => Prior::Events,
                    "heuristic" => Prior::Heuristic,
                    v => return Err(format!("no prior '{v}'")),
                }
            }
            "--c" => {
                let v = value()?;
                args.settings.exploration = v.parse().map_err(|_| format!("not a number: {v}"))?;
            }
            "--win-check" => args.settings.win_check = value()? == "on",
            "--first-play" => args.settings.first_play = value()? == "on",
            "--chance" => args.settings.chance = value()? == "on",
            "--guard" => args.settings.guard = value()? == "on",
            "--widening" => {
                let v = value()?;
                args.settings.widening = v.parse().map_err(|_| format!("not a number: {v}"))?;
            }
            "--prior-weight" => {
                let v = value()?;
                args.settings.prior_weight = v.parse().map_err(|_| format!("not a number: {v}"))?;
            }
            "--opponent" => {
                args.opponents = match value()?.as_str() {
                    "random" => vec![Opponent::Random],
                    "greedy" => vec![Opponent::Greedy],
                    "material" => vec![Opponent::Material],
                    "both" => vec![Opponent::Random, Opponent::Greedy],
                    v => return Err(format!("no opponent '{v}'")),
                }
            }
            "--game" => args.only.push(value()?),
            "--option" => {
                let v = value()?;
                let (key, val) = v
                    .split_once('=')
                    .ok_or_else(|| format!("--option wants key=value, not {v}"))?;
                args.options.insert(key.to_string(), val.to_string());
            }
            other => return Err(format!("unknown flag {other}")),
        }
    }
    // `--iterations` is the count played, so it lifts the level's own cap
    // (3000 at normal) rather than being silently cut to it.
    args.settings.max_iterations = args.settings.max_iterations.max(args.iterations);
    Ok(args)
}

#[derive(Default)]
struct Tally {
    won: usize,
    drawn: usize,
    lost: usize,
    unfinished: usize,
    times: Vec<Duration>,
}

/// Runs the rows of one game.
fn run_game<G: Game>(args: &Args, name: &str, setup: impl Fn(&Args, u64) -> G) {
    for &opponent in &args.opponents {
        let mut tally = Tally::default();
        for n in 0..args.games {
            let seed = n as u64;
            let game = setup(args, seed);
            let sides = sides(&game);
            let side = &sides[n % sides.len()];
            play_one(args, game, side, opponent, seed, &mut tally);
            if (n + 1) % 10 == 0 {
                eprintln!(
                    "{name} vs {}: {} games, won {} drawn {} lost {} unfinished {}",
                    opponent.name(),
                    n + 1,
                    tally.won,
                    tally.drawn,
                    tally.lost,
                    tally.unfinished
                );
            }
        }
        tally.times.sort();
        let ms = |q: f64| {
            tally
                .times
                .get(((tally.times.len() as f64 - 1.0) * q).round() as usize)
                .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
        };
        println!(
            "| {name} | {} | {} | {} | {} | {} | {} | {:.1}% | {:.1} | {:.1} | {} |",
            opponent.name(),
            args.games,
            tally.won,
            tally.drawn,
            tally.lost,
            tally.unfinished,
            100.0 * tally.won as f64 / args.games.max(1) as f64,
            ms(0.5),
            ms(0.9),
            tally.times.len(),
        );
    }
}

/// The seats of each side: seats sharing a colour in the spectator's view.
fn sides<G: Game>(game: &G) -> Vec<Vec<Seat>> {
    let view = game.view(Viewer::Spectator);
    let mut sides: Vec<(u8, Vec<Seat>)> = Vec::new();
    for (i, s) in view.seats.iter().enumerate() {
        let seat = Seat(i as u8);
        match sides.iter_mut().find(|(c, _)| *c == s.colour) {
            Some((_, seats)) => seats.push(seat),
            None => sides.push((s.colour, vec![seat])),
        }
    }
    sides.into_iter().map(|(_, s)| s).collect()
}

fn play_one<G: Game>(
    args: &Args,
    mut game: G,
    side: &[Seat],
    opponent: Opponent,
    seed: u64,
    tally: &mut Tally,
) {
    let mut rng = Rng::new(seed ^ 0x5743_0000);
    for _ in 0..args.max_plies {
        if game.outcome().is_over() {
            break;
        }
        let to_act = game.to_act();
        let seat = to_act[rng.below(to_act.len() as u64) as usize];
        let s = rng.next_u64();
        let action = if side.contains(&seat) {
            let start = Instant::now();
            let choice = search::choose_with(
                &game,
                seat,
                &args.settings,
                &Budget::iterations(args.iterations),
                s,
            );
            tally.times.push(start.elapsed());
            choice.map(|c| c.action)
        } else {
            match opponent {
                Opponent::Random => search::random(&game, seat, s),
                Opponent::Greedy => search::greedy(&game, seat, s),
                Opponent::Material => search::greedy_by(&game, seat, s, |g, seat| {
                    search::material_share(&g.view(Viewer::Spectator), seat)
                }),
            }
        };
        let action = action.expect("a seat to act has a legal action");
        game.play(seat, &action).expect("a chosen action applies");
    }
    match game.outcome() {
        Outcome::Won { winners, .. } if winners.iter().any(|w| side.contains(w)) => tally.won += 1,
        Outcome::Won { .. } => tally.lost += 1,
        Outcome::Drawn { .. } => tally.drawn += 1,
        Outcome::Ongoing => tally.unfinished += 1,
    }
}
