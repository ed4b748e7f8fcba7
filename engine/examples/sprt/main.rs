//! A paired match between two players, decided by a sequential probability
//! ratio test, as engine authors test one version against another (fishtest,
//! OpenBench).
//!
//! ```text
//! cargo run --release -p tokar-engine --example sprt -- \
//!     --game arachne --a hard --b normal [--time 2s] [--iterations N] \
//!     [--elo0 0] [--elo1 50] [--alpha 0.05] [--beta 0.05] \
//!     [--max-pairs 1000] [--max-minutes M] [--max-plies P] [--seed 0] \
//!     [--option KEY=VALUE]... [--threads 1]
//! ```
//!
//! A player is a level (`easy`, `normal`, `hard`, `greedy`, `material`,
//! `random`, `seer`, `seer-greedy`) with optional overrides after commas, e.g.
//! `--a normal,iterations=1000,c=0.3,first-play=off` or `--b hard,time=2s`
//! (`alpha-beta=on` searches by alpha-beta, S14, `iterations` then counting positions)
//! (see `players::Player::parse`). Without `iterations` or `time` a search
//! plays its level's own cap, the bot's iteration caps (normal 3000, hard
//! 50000); `--time 2s` adds the bot's deadline to both players.
//! `seer` is the search at normal's settings over the true state: it knows
//! the future dice (Arachne's luck ceiling), and exists only here;
//! `seer-greedy` is the one-ply greedy player over the true state.
//!
//! Pair `n` plays seed `seed + n` twice with the sides swapped
//! (`pairs::play_pair`); after each pair, in pair order, the GSPRT of
//! `stats` is updated, and the match stops when its LLR leaves the bounds
//! (H0: A is `elo0` stronger, H1: `elo1`), at `--max-pairs`, or, after
//! `--max-minutes`, once the pairs under way are done (then "undecided").
//! With iteration budgets only, the result depends on nothing but the
//! arguments (threads included: pairs are counted in order, and pairs
//! finished past a decision are dropped). Progress goes to stderr, the
//! result to stdout, ending with a row for engine/rules/search.md.

mod pairs;
mod players;
mod stats;

use pairs::{play_pair, GameReport, Rules};
use players::{duration, Defaults, Player};
use stats::{estimate, Pentanomial, Sprt, Verdict};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tokar_engine::catalog::Options;
use tokar_engine::{arachne, arcana, gladiator, magic, GameKind, Variant};

struct Args {
    game: GameKind,
    a: Player,
    b: Player,
    options: Options,
    rules: Rules,
    sprt: Sprt,
    max_pairs: u64,
    max_time: Option<Duration>,
    threads: usize,
}

fn main() {
    let args = match parse_args(std::env::args().skip(1).collect()) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    match args.game {
        GameKind::Arcana => run::<arcana::Arcana>(&args),
        GameKind::MagicChess => run::<magic::MagicChess>(&args),
        GameKind::Gladiator => run::<gladiator::Gladiator>(&args),
        GameKind::Arachne => run::<arachne::Arachne>(&args),
    }
}

/// The ply cap of the strength table per game: Gladiator's ply is one
/// commander's move, so its games are longest.
fn default_max_plies(game: GameKind) -> usize {
    match game {
        GameKind::Arcana | GameKind::MagicChess => 200,
        GameKind::Arachne => 300,
        GameKind::Gladiator => 400,
    }
}

fn parse_args(argv: Vec<String>) -> Result<Args, String> {
    let mut game = None;
    let (mut a, mut b) = (None, None);
    let mut defaults = Defaults::default();
    let mut options = Options::new();
    let mut max_plies = None;
    let mut first_seed = 0;
    let mut sprt = Sprt {
        elo0: 0.0,
        elo1: 50.0,
        alpha: 0.05,
        beta: 0.05,
    };
    let mut max_pairs = 1000;
    let mut max_time = None;
    let mut threads = 1;
    let mut it = argv.into_iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        let count = |v: String| v.parse::<u64>().map_err(|_| format!("not a count: {v}"));
        let real = |v: String| v.parse::<f64>().map_err(|_| format!("not a number: {v}"));
        match flag.as_str() {
            "--game" => {
                let v = value()?;
                game = Some(GameKind::parse(&v).ok_or(format!("no game '{v}'"))?);
            }
            "--a" => a = Some(value()?),
            "--b" => b = Some(value()?),
            "--iterations" => {
                defaults.iterations = Some(count(value()?)?.clamp(1, u32::MAX as u64) as u32)
            }
            "--time" => defaults.time = Some(duration(&value()?)?),
            "--elo0" => sprt.elo0 = real(value()?)?,
            "--elo1" => sprt.elo1 = real(value()?)?,
            "--alpha" => sprt.alpha = real(value()?)?,
            "--beta" => sprt.beta = real(value()?)?,
            "--max-pairs" => max_pairs = count(value()?)?,
            "--max-minutes" => {
                max_time = Some(Duration::from_secs_f64(real(value()?)?.max(0.0) * 60.0))
            }
            "--max-plies" => max_plies = Some(count(value()?)? as usize),
            "--seed" => first_seed = count(value()?)?,
            "--threads" => threads = count(value()?)?.clamp(1, 64) as usize,
            "--option" => {
                let v = value()?;
                let (key, val) = v
                    .split_once('=')
                    .ok_or_else(|| format!("--option wants key=value, not {v}"))?;
                options.insert(key.to_string(), val.to_string());
            }
            other => return Err(format!("unknown flag {other}")),
        }
    }
    let game = game.ok_or("--game is needed (arcana, magic-chess, gladiator, arachne)")?;
    if !sprt.elo0.is_finite() || !sprt.elo1.is_finite() || sprt.elo0 >= sprt.elo1 {
        return Err("--elo0 must be below --elo1".into());
    }
    for (name, x) in [("--alpha", sprt.alpha), ("--beta", sprt.beta)] {
        if x.is_nan() || x <= 0.0 || x >= 0.5 {
            return Err(format!("{name} must be between 0 and 0.5"));
        }
    }
    let a = Player::parse(&a.ok_or("--a is needed")?, game, &defaults)?;
    let b = Player::parse(&b.ok_or("--b is needed")?, game, &defaults)?;
    Ok(Args {
        game,
        a,
        b,
        options,
        rules: Rules {
            max_plies: max_plies.unwrap_or(default_max_plies(game)),
            first_seed,
        },
        sprt,
        max_pairs,
        max_time,
        threads,
    })
}

/// The match so far, counted in pair order.
#[derive(Default)]
struct Tally {
    penta: Pentanomial,
    won: u32,
    drawn: u32,
    lost: u32,
    unfinished: u32,
    a_times: Vec<Duration>,
    b_times: Vec<Duration>,
}

impl Tally {
    fn add(&mut self, pair: [GameReport; 2]) {
        self.penta
            .add(pair[0].a_half_points + pair[1].a_half_points);
        for game in pair {
            match game.a_half_points {
                2 => self.won += 1,
                0 => self.lost += 1,
                _ => self.drawn += 1,
            }
            self.unfinished += u32::from(game.unfinished);
            self.a_times.extend(game.a_times);
            self.b_times.extend(game.b_times);
        }
    }

    fn games(&self) -> u32 {
        self.won + self.drawn + self.lost
    }

    /// "+12.3 ± 45.6 (95%: -33.3 to +57.9), score 51.8%".
    fn elo(&self) -> String {
        match estimate(&self.penta) {
            None => "no pairs".into(),
            Some(e) => format!(
                "Elo {:+.1} ± {:.1} (95%: {:+.1} to {:+.1}), score {:.1}%",
                e.elo,
                e.elo_pm,
                e.elo_low,
                e.elo_high,
                100.0 * e.score
            ),
        }
    }
}

/// The median and 90th percentile of move times, in milliseconds.
fn ms(times: &mut [Duration]) -> (f64, f64) {
    times.sort();
    let at = |q: f64| {
        times
            .get(((times.len() as f64 - 1.0) * q).round() as usize)
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    (at(0.5), at(0.9))
}

fn run<G: Variant>(args: &Args) {
    let setup = |seed: u64| -> G {
        G::setup(&args.options, seed).unwrap_or_else(|e| {
            eprintln!("these options do not set up a game: {e}");
            std::process::exit(2)
        })
    };
    setup(args.rules.first_seed);
    let (lower, upper) = args.sprt.bounds();
    println!(
        "sprt {}",
        std::env::args().skip(1).collect::<Vec<_>>().join(" ")
    );
    println!(
        "{}: A = {} against B = {}; pairs on seeds {}.., sides swapped; at most {} plies a game (then drawn)",
        args.game.title(),
        args.a.spec,
        args.b.spec,
        args.rules.first_seed,
        args.rules.max_plies
    );
    println!(
        "SPRT elo0 {} elo1 {} (logistic), alpha {} beta {}: LLR bounds {lower:.3} and {upper:.3}; at most {} pairs",
        args.sprt.elo0, args.sprt.elo1, args.sprt.alpha, args.sprt.beta, args.max_pairs
    );
    if args.a.timed() || args.b.timed() {
        println!("moves are bounded by the clock: a run is not repeatable move for move");
    }
    let started = Instant::now();
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let mut tally = Tally::default();
    let mut verdict = None;
    let mut llr = 0.0;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(u64, [GameReport; 2])>();
        for _ in 0..args.threads {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            let setup = &setup;
            scope.spawn(move || loop {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let n = next.fetch_add(1, Ordering::SeqCst);
                if n >= args.max_pairs {
                    break;
                }
                let pair = play_pair(setup, &args.a, &args.b, &args.rules, n);
                if tx.send((n, pair)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut waiting = BTreeMap::new();
        let mut counted = 0u64;
        'pairs: for (n, pair) in rx {
            waiting.insert(n, pair);
            while let Some(pair) = waiting.remove(&counted) {
                tally.add(pair);
                counted += 1;
                llr = args.sprt.llr(&tally.penta);
                let p = tally.penta.0;
                eprintln!(
                    "pair {counted}: A +{} ={} -{}, pairs {p:?}, {}, LLR {llr:.2} ({lower:.2}, {upper:.2})",
                    tally.won,
                    tally.drawn,
                    tally.lost,
                    tally.elo()
                );
                verdict = args.sprt.verdict(llr);
                if verdict.is_some() {
                    stop.store(true, Ordering::SeqCst);
                    break 'pairs;
                }
                if args.max_time.is_some_and(|t| started.elapsed() >= t) {
                    stop.store(true, Ordering::SeqCst);
                }
            }
        }
    });
    report(args, &mut tally, llr, verdict, started.elapsed());
}

fn report(args: &Args, tally: &mut Tally, llr: f64, verdict: Option<Verdict>, took: Duration) {
    let (lower, upper) = args.sprt.bounds();
    let pairs = tally.penta.pairs();
    let result = match verdict {
        Some(Verdict::H1) => format!("H1 accepted (A at least about {:+} Elo)", args.sprt.elo1),
        Some(Verdict::H0) => format!("H0 accepted (A not {:+} Elo stronger)", args.sprt.elo1),
        None => format!("undecided at {pairs} pairs"),
    };
    let (a_med, a_p90) = ms(&mut tally.a_times);
    let (b_med, b_p90) = ms(&mut tally.b_times);
    println!();
    println!(
        "pairs {pairs}, games {}: A won {}, drawn {}, lost {} ({} unfinished, counted drawn)",
        tally.games(),
        tally.won,
        tally.drawn,
        tally.lost,
        tally.unfinished
    );
    println!("pentanomial [LL, LD, LW+DD, DW, WW] = {:?}", tally.penta.0);
    println!("{}", tally.elo());
    println!("LLR {llr:.2} (bounds {lower:.2}, {upper:.2}): {result}");
    println!(
        "ms per move, median / p90: A {a_med:.1} / {a_p90:.1}, B {b_med:.1} / {b_p90:.1}; {:.1} minutes, {} thread(s)",
        took.as_secs_f64() / 60.0,
        args.threads
    );
    let elo =
        estimate(&tally.penta).map_or("-".into(), |e| format!("{:+.0} ± {:.0}", e.elo, e.elo_pm));
    let score = estimate(&tally.penta).map_or("-".into(), |e| format!("{:.1}%", 100.0 * e.score));
    println!();
    println!(
        "| {} | {} | {} | {pairs} | {} / {} / {} | {:?} | {score} | {elo} | {llr:.2} [{}, {}]: {result} | {a_med:.0} / {b_med:.0} |",
        args.game.title(),
        args.a.spec,
        args.b.spec,
        tally.won,
        tally.drawn,
        tally.lost,
        tally.penta.0,
        args.sprt.elo0,
        args.sprt.elo1,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Result<Args, String> {
        parse_args(text.split_whitespace().map(String::from).collect())
    }

    #[test]
    fn players_take_the_levels_and_the_shared_budgets() {
        let a = args("--game arachne --a hard --b normal,iterations=500 --time 2s").unwrap();
        assert_eq!(a.a.time, Some(Duration::from_secs(2)));
        assert_eq!(a.a.iterations, None);
        assert_eq!(a.a.settings.max_iterations, 50_000);
        assert!(
            a.a.settings.first_play,
            "Arachne's levels use first-play urgency (S8)"
        );
        assert_eq!(a.b.iterations, Some(500));
        assert_eq!(a.b.time, Some(Duration::from_secs(2)));
        assert_eq!(a.rules.max_plies, 300);
        let g = args("--game arcana --a normal,iterations=5000,c=0.3 --b greedy").unwrap();
        assert_eq!(g.a.settings.max_iterations, 5000);
        assert_eq!(g.a.settings.exploration, 0.3);
        assert!(!g.a.settings.first_play);
    }

    /// Bad input is refused with a reason, never a panic.
    #[test]
    fn bad_arguments_are_refused_with_a_reason() {
        for (text, reason) in [
            ("--a hard --b normal", "--game is needed"),
            ("--game chess --a hard --b normal", "no game 'chess'"),
            ("--game arachne --a expert --b normal", "no player 'expert'"),
            ("--game arachne --a hard,c=x --b normal", "not a number: x"),
            (
                "--game arachne --a hard --b normal --time 2",
                "not a time: 2",
            ),
            (
                "--game arachne --a hard --b normal --elo0 5 --elo1 0",
                "--elo0 must be below",
            ),
            (
                "--game arachne --a hard --b normal --alpha 0",
                "--alpha must be",
            ),
            (
                "--game arachne --a hard --b normal,speed=9",
                "unknown setting 'speed'",
            ),
        ] {
            let err = args(text).err().unwrap_or_default();
            assert!(err.contains(reason), "{text}: {err}");
        }
    }
}
