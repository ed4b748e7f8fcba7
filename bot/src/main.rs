//! `tokar`: the bot. With DISCORD_TOKEN set it connects to Discord; without,
//! or with `tokar console`, it reads commands from the terminal.

use std::path::PathBuf;
use tokar_bot::console::{self, ConsoleConfig};

const USAGE: &str = "usage: tokar [console [--data DIR] [--images DIR] [--seed N] [--json] [--virtual-clock]\n                      [--robot-iterations N]]\n       tokar backup [--data DIR] [--to FILE]\n       tokar restore FILE [--data DIR] [--game N]\n       tokar check [--data DIR]";

fn parse_console(args: &[String]) -> Result<ConsoleConfig, String> {
    let mut cfg = ConsoleConfig {
        data: PathBuf::from("tokar-data"),
        images: None,
        seed: None,
        json: false,
        virtual_clock: false,
        robot_iterations: None,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value\n{USAGE}"))
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
            "--json" => cfg.json = true,
            "--virtual-clock" => cfg.virtual_clock = true,
            other => return Err(format!("unknown argument {other}\n{USAGE}")),
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
    // The computer opponent plays as the bot's own Discord account.
    if let Some(robot) = tokar_bot::table::robot::RobotConfig::for_discord_token(&token, "Tokar") {
        config.robot = robot;
    }
    let table = tokar_bot::Table::open(config)
        .await
        .map_err(|e| e.to_string())?;
    let settings = tokar_bot::discord::DiscordSettings::from_env().map_err(|e| e.to_string())?;
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
        Some("console") => match parse_console(&args[1..]) {
            Ok(cfg) => {
                console::run(
                    cfg,
                    tokio::io::BufReader::new(tokio::io::stdin()),
                    tokio::io::stdout(),
                )
                .await
            }
            Err(e) => Err(e),
        },
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
            println!("{USAGE}\nWith DISCORD_TOKEN set, `tokar` connects to Discord.");
            Ok(())
        }
        Some(other) => Err(format!("unknown command {other}\n{USAGE}")),
        None => match std::env::var("DISCORD_TOKEN") {
            Ok(token) if !token.trim().is_empty() => run_discord(token).await,
            _ => {
                eprintln!(
                    "No DISCORD_TOKEN: opening the console on ./tokar-data. Type commands such as\n  @alice /new game:arcana opponent:@bob\n\
                     To connect to Discord, set DISCORD_TOKEN to your bot's token and run `tokar` again."
                );
                match parse_console(&[]) {
                    Ok(cfg) => {
                        console::run(
                            cfg,
                            tokio::io::BufReader::new(tokio::io::stdin()),
                            tokio::io::stdout(),
                        )
                        .await
                    }
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
