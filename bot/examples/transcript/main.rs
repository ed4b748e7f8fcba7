//! Writes a console transcript page for docs/transcripts/: people playing a
//! whole game through the real `tokar console`, each playing their `/hint`.
//!
//! ```sh
//! cargo build --release -p tokar-bot
//! cargo run --release -p tokar-bot --example transcript -- --game magic-chess --seed 3
//! ```
//!
//! Options: `--game magic-chess|gladiator|arachne`, `--seed N`,
//! `--iterations K` (the hints' search budget, default 1000),
//! `--max-plies P` (default 2000), `--out PAGE.md` (default
//! `docs/transcripts/<game>.md`; the full session goes next to it as
//! `.log`, the last picture as `.png`), `--tokar PATH` (default: the `tokar`
//! binary of the same build profile as this example).

mod driver;

use driver::{Config, Kind};
use std::path::PathBuf;

/// Pictures above this size are saved but not shown in the page.
const MAX_SHOWN_IMAGE: u64 = 200 * 1024;

const USAGE: &str = "usage: transcript --game magic-chess|gladiator|arachne --seed N \
[--iterations K] [--max-plies P] [--out PAGE.md] [--tokar PATH]";

struct Args {
    kind: Kind,
    seed: u64,
    iterations: u32,
    max_plies: usize,
    out: Option<PathBuf>,
    tokar: Option<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut kind = None;
    let mut seed = None;
    let mut iterations = 1000;
    let mut max_plies = 2000;
    let mut out = None;
    let mut tokar = None;
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or(format!("{a} needs a value\n{USAGE}"));
        let number = |v: String| -> Result<u64, String> {
            v.parse()
                .map_err(|_| format!("{a} {v}: not a number\n{USAGE}"))
        };
        match a.as_str() {
            "--game" => {
                let g = value()?;
                kind = Some(Kind::parse(&g).ok_or(format!("no game '{g}'\n{USAGE}"))?);
            }
            "--seed" => seed = Some(number(value()?)?),
            "--iterations" => {
                iterations = u32::try_from(number(value()?)?)
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or(format!("--iterations must be from 1 to {}", u32::MAX))?
            }
            "--max-plies" => max_plies = number(value()?)? as usize,
            "--out" => out = Some(PathBuf::from(value()?)),
            "--tokar" => tokar = Some(PathBuf::from(value()?)),
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument {other}\n{USAGE}")),
        }
    }
    Ok(Args {
        kind: kind.ok_or(format!("--game is needed\n{USAGE}"))?,
        seed: seed.ok_or(format!("--seed is needed\n{USAGE}"))?,
        iterations,
        max_plies,
        out,
        tokar,
    })
}

/// `target/<profile>/tokar`, next to `target/<profile>/examples/transcript`.
fn default_tokar() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let path = exe
        .parent()
        .and_then(|examples| examples.parent())
        .map(|profile| profile.join(format!("tokar{}", std::env::consts::EXE_SUFFIX)))
        .ok_or("cannot tell where the build folder is; give --tokar PATH")?;
    if path.exists() {
        Ok(path)
    } else {
        Err(format!(
            "{} does not exist: build it first (cargo build --release -p tokar-bot) or give --tokar PATH",
            path.display()
        ))
    }
}

fn run() -> Result<(), String> {
    let args = parse_args()?;
    let tokar = match args.tokar {
        Some(t) => t,
        None => default_tokar()?,
    };
    let out = args
        .out
        .unwrap_or_else(|| PathBuf::from(format!("docs/transcripts/{}.md", args.kind.slug())));
    let cfg = Config {
        tokar,
        kind: args.kind,
        seed: args.seed,
        iterations: args.iterations,
        max_plies: args.max_plies,
        workdir: std::env::temp_dir().join(format!(
            "tokar-transcript-{}-{}",
            args.kind.slug(),
            std::process::id()
        )),
    };
    let t = driver::play(&cfg)?;
    let (log, png) = driver::outputs(&out);
    let name = |p: &PathBuf| {
        p.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut shown = None;
    if let Some(img) = &t.final_image {
        std::fs::copy(img, &png).map_err(|e| format!("{}: {e}", png.display()))?;
        let size = std::fs::metadata(&png).map_err(|e| e.to_string())?.len();
        eprintln!("{}: {size} bytes", png.display());
        if size <= MAX_SHOWN_IMAGE {
            shown = Some(name(&png));
        }
    }
    std::fs::write(&log, t.text()).map_err(|e| format!("{}: {e}", log.display()))?;
    let page = driver::page(&t, &name(&log), shown.as_deref());
    std::fs::write(&out, page).map_err(|e| format!("{}: {e}", out.display()))?;
    let _ = std::fs::remove_dir_all(&cfg.workdir);
    eprintln!(
        "{}: {} plays, {} lines, {}; {}",
        out.display(),
        t.plays,
        t.line_count(),
        if t.over { "over" } else { "unfinished" },
        t.last_status
    );
    for (what, line) in t.highlights() {
        eprintln!("  {what}: {line}");
    }
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("transcript: {e}");
        std::process::exit(1);
    }
}
