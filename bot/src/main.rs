//! `tokar`: the bot. With DISCORD_TOKEN set it connects to Discord; without,
//! or with `tokar console`, it reads commands from the terminal.

use std::path::PathBuf;
use tokar_bot::console::{self, ConsoleConfig};

/// `tokar --help`: every command and setting, one line each.
const USAGE: &str = "\
tokar: a Discord bot for long games of five underworld chess variants.

usage:
  tokar                      with DISCORD_TOKEN set, connects to Discord; without, the console
  tokar console [OPTIONS]    plays from the terminal (tokar console --help lists its options)
  tokar backup [--data DIR] [--to FILE]         writes a backup, also while the bot runs
  tokar restore FILE [--data DIR] [--game N]    loads a backup into an empty store, or one game
  tokar check [--data DIR]   reports every record it cannot read; changes nothing
  tokar migrate --from DIR --to URL             moves a stopped bot's store into PostgreSQL
  tokar --help | --version

settings (environment):
  DISCORD_TOKEN        the bot's token; set, tokar connects to Discord
  DISCORD_GUILD_ID     registers the commands in this server only (instant updates)
  DISCORD_APPLICATION_ID  the application's id (default: asked of Discord at each start)
  TOKAR_DATA           the data folder (default ./tokar-data)
  TOKAR_TICK_SECONDS   how often reminders and deadlines are looked at (default 60)
  TOKAR_DRAIN_SECONDS  at a stop, time to finish commands and deliver messages (default 10)
  TOKAR_METRICS_ADDR   serves Prometheus metrics there, e.g. 127.0.0.1:9464 (default off)
  TOKAR_SHARDS         the bot's gateway shards in all (default 1); from 2,500 servers
  TOKAR_SHARD_RANGE    the shards this process runs, e.g. 0..4 (default all of them)
  TOKAR_DATABASE_URL   keeps the store in PostgreSQL, shared by processes (default: sled in DATA)
  TOKAR_CACHE_MB       the storage cache (default 64)
  TOKAR_BACKUPS_KEEP   daily backups kept in DATA/backups (default 7)
  TOKAR_CHECK_STALL_SECONDS  tokar check stops on a database that answers nothing this long (default 20)
  TOKAR_FRESH_STORE=1  starts with an empty store although the data folder was used before";

/// `tokar console --help`.
const CONSOLE_USAGE: &str = "\
usage: tokar console [OPTIONS]
Reads commands a line at a time (`@alice /new game:arcana opponent:@bob`); /help lists them.
A line quit or exit, or Ctrl-D, leaves.

options:
  --data DIR              the data folder (default ./tokar-data)
  --images DIR            saves every picture there, numbered on from earlier runs
  --seed N                fixes every random choice, for repeatable sessions and tests;
                          UNSAFE for real play: whoever knows N knows every die and card
  --json                  prints one JSON object a message instead of text
  --virtual-clock         time moves only with ~advance lines (e.g. ~advance 25h)
  --robot-iterations N    how long the bot thinks per move (search iterations)
  --parallel N            runs up to N commands of different games at once (default 1)
  -h, --help              prints this";

/// `tokar --seed N`: the Discord mode never takes a fixed seed (each game's is drawn from
/// the operating system; a fixed one would let anyone who knows it compute every game's
/// dice and cards). One line, nothing started.
const SEED_REFUSED: &str = "--seed makes every game's dice and cards known in advance: it is for \
`tokar console` and tests only, never for Discord games; nothing was started.";

/// Printed to the terminal (standard error) when the console starts.
const BANNER: &str =
    "Tokar console: type commands such as `@alice /new game:arcana opponent:@bob`; \
`@alice /help` lists them. quit, exit or Ctrl-D leaves.";

fn parse_console(args: &[String]) -> Result<ConsoleConfig, String> {
    let mut cfg = ConsoleConfig {
        data: PathBuf::from("tokar-data"),
        images: None,
        seed: None,
        json: false,
        virtual_clock: false,
        robot_iterations: None,
        parallel: 1,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value\n{CONSOLE_USAGE}"))
        };
        match a.as_str() {
            "--data" => cfg.data = PathBuf::from(value("--data")?),
            "--images" => cfg.images = Some(PathBuf::from(value("--images")?)),
            "--seed" => {
                let v = value("--seed")?;
                cfg.seed = Some(v.parse().map_err(|_| format!("--seed {v}: not a number"))?);
            }
            "--robot-iterations" => {
                let v = value("--robot-iterations")?;
                cfg.robot_iterations = Some(
                    v.parse()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| format!("--robot-iterations {v}: not a positive number"))?,
                );
            }
            "--parallel" => {
                let v = value("--parallel")?;
                cfg.parallel = v
                    .parse()
                    .ok()
                    .filter(|n| (1..=256).contains(n))
                    .ok_or_else(|| format!("--parallel {v}: a number from 1 to 256"))?;
            }
            "--json" => cfg.json = true,
            "--virtual-clock" => cfg.virtual_clock = true,
            other => return Err(format!("unknown argument {other}\n{CONSOLE_USAGE}")),
        }
    }
    Ok(cfg)
}

/// Runs the bot on Discord with the table in `TOKAR_DATA` (default `./tokar-data`).
async fn run_discord(token: String) -> Result<(), String> {
    let data = std::env::var("TOKAR_DATA").unwrap_or_else(|_| "tokar-data".to_string());
    let mut config = tokar_bot::TableConfig::new(&data);
    config.storage = tokar_bot::storage::StoreSettings::from_env()?;
    let keep = tokar_bot::backup::service::keep_from_env()?;
    // Read before the store opens: a bad setting is refused with nothing touched.
    let mut settings =
        tokar_bot::discord::DiscordSettings::from_env().map_err(|e| e.to_string())?;
    // Failed starts are remembered there, so that a loop of restarts slows down.
    settings.data_dir = Some(std::path::PathBuf::from(&data));
    // The computer opponent plays as the bot's own Discord account.
    if let Some(robot) = tokar_bot::table::robot::RobotConfig::for_discord_token(&token, "Tokar") {
        config.robot = robot;
    }
    let table = tokar_bot::Table::open(config)
        .await
        .map_err(|e| e.to_string())?;
    let data = std::path::PathBuf::from(data);
    tokio::spawn(tokar_bot::backup::service::daily(
        table.clone(),
        data.clone(),
        keep,
    ));
    tokio::spawn(tokar_bot::backup::service::serve(table.clone(), data, keep));
    tokar_bot::discord::run(table, token, settings)
        .await
        .map_err(|e| e.to_string())
}

/// The console on the terminal, after a banner on standard error (standard output carries
/// only what Tokar says, so that it can be piped).
async fn run_console(cfg: ConsoleConfig) -> Result<(), String> {
    eprintln!("{BANNER}");
    console::run(
        cfg,
        tokio::io::BufReader::new(tokio::io::stdin()),
        console::Stdout::new(),
    )
    .await
}

#[tokio::main]
async fn main() {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("console") if args[1..].iter().any(|a| a == "-h" || a == "--help") => {
            println!("{CONSOLE_USAGE}");
            Ok(())
        }
        Some("console") => match parse_console(&args[1..]) {
            Ok(cfg) => run_console(cfg).await,
            Err(e) => Err(e),
        },
        Some("migrate") => tokar_bot::migrate::cli(&args[1..]).map(|text| println!("{text}")),
        Some(cmd @ ("backup" | "restore" | "check")) => {
            // Blocking file and database work, as a command line tool does.
            match tokar_bot::backup::cli::run(cmd, &args[1..]) {
                Some(Ok(text)) => {
                    println!("{text}");
                    Ok(())
                }
                Some(Err(e)) => Err(e),
                None => Err(format!("unknown command {cmd}\n{USAGE}")),
            }
        }
        Some("-h" | "--help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some("-V" | "--version") => {
            println!("tokar {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        Some(a) if a == "--seed" || a.starts_with("--seed=") => Err(SEED_REFUSED.to_string()),
        Some(other) => Err(format!("unknown command {other}\n{USAGE}")),
        None => match std::env::var("DISCORD_TOKEN") {
            Ok(token) if !token.trim().is_empty() => run_discord(token).await,
            _ => {
                eprintln!(
                    "No DISCORD_TOKEN: opening the console on ./tokar-data. \
                     To connect to Discord, set DISCORD_TOKEN to your bot's token and run `tokar` again."
                );
                match parse_console(&[]) {
                    Ok(cfg) => run_console(cfg).await,
                    Err(e) => Err(e),
                }
            }
        },
    };
    if let Err(e) = result {
        eprintln!("tokar: {e}");
        std::process::exit(1);
    }
}
