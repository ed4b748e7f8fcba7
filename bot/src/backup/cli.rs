//! The data commands of `tokar`: `backup`, `restore` and `check`, their
//! arguments and what they print.

use super::{restore, service, write};
use crate::storage::{Store, StoreError, StoreSettings};
use std::path::{Path, PathBuf};

pub const USAGE: &str = "       tokar backup [--data DIR] [--to FILE]
       tokar restore FILE [--data DIR] [--game N]
       tokar check [--data DIR]";

/// The data folder when `--data` is not given: `TOKAR_DATA`, else `./tokar-data`
/// (as the Discord mode).
fn default_data() -> PathBuf {
    PathBuf::from(std::env::var("TOKAR_DATA").unwrap_or_else(|_| "tokar-data".to_string()))
}

struct Args {
    data: PathBuf,
    to: Option<PathBuf>,
    game: Option<u64>,
    file: Option<PathBuf>,
}

/// Parses `args`, allowing the options named in `allowed` and, if `file`,
/// one plain argument.
fn parse(args: &[String], allowed: &[&str], file: bool) -> Result<Args, String> {
    let mut a = Args {
        data: default_data(),
        to: None,
        game: None,
        file: None,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let name = arg.as_str();
        if name.starts_with("--") && !allowed.contains(&name) {
            return Err(format!("unknown argument {name}"));
        }
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match name {
            "--data" => a.data = PathBuf::from(value()?),
            "--to" => a.to = Some(PathBuf::from(value()?)),
            "--game" => {
                let v = value()?;
                a.game = Some(
                    v.trim_start_matches('#')
                        .parse()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| format!("--game {v}: not a game number"))?,
                );
            }
            _ if file && a.file.is_none() => a.file = Some(PathBuf::from(arg)),
            _ => return Err(format!("unexpected argument {arg}")),
        }
    }
    Ok(a)
}

/// Runs `tokar <command> args...` for the data commands; `None` if `command`
/// is not one of them. The text returned is printed; an error exits non-zero.
pub fn run(command: &str, args: &[String]) -> Option<Result<String, String>> {
    let with_usage = |e: String| format!("{e}\nusage: {}", USAGE.trim_start());
    Some(match command {
        "backup" => parse(args, &["--data", "--to"], false)
            .map_err(with_usage)
            .and_then(|a| backup(&a.data, a.to.as_deref())),
        "restore" => parse(args, &["--data", "--game"], true)
            .and_then(|a| match &a.file {
                Some(f) => Ok((f.clone(), a)),
                None => Err("restore needs the backup FILE".into()),
            })
            .map_err(with_usage)
            .and_then(|(f, a)| restore_cmd(&f, &a.data, a.game)),
        "check" => parse(args, &["--data"], false)
            .map_err(with_usage)
            .and_then(|a| check(&a.data)),
        _ => return None,
    })
}

/// Backs up the store of `data`: directly when no bot has it open, else by
/// asking the running bot (which takes it inside its own process). The bot
/// writes only into `<data>/backups/`: for `--to`, this command checks the
/// path, asks for a backup there, and copies it to the path itself, as the
/// user who runs it (never over a file, never through a link).
fn backup(data: &Path, to: Option<&Path>) -> Result<String, String> {
    let to = match to {
        Some(p) => Some(target(p)?),
        None => None,
    };
    // Asked first: opening a store that a running bot holds would wait for
    // its lock before giving up.
    if service::answers(data) {
        return through_bot(data, to.as_deref());
    }
    // TOKAR_DATABASE_URL as the bot has it: a PostgreSQL store is read in
    // one snapshot while its processes run.
    let settings = StoreSettings::from_env()?;
    match Store::open_existing(data, &settings) {
        Ok(store) => {
            let own = to.is_none();
            let dest = to.unwrap_or_else(|| {
                service::backups_dir(data).join(super::file_name(chrono::Utc::now()))
            });
            let summary = write(&store, &dest).map_err(|e| e.to_string())?;
            if own {
                service::prune(&service::backups_dir(data), keep()?);
            }
            Ok(format!("backup written: {summary}"))
        }
        Err(StoreError::InUse(_)) => through_bot(data, to.as_deref()),
        Err(e) => Err(e.to_string()),
    }
}

/// `--to PATH` made absolute and checked: its folder exists, nothing is at
/// the path (a backup never replaces a file).
fn target(p: &Path) -> Result<PathBuf, String> {
    let abs = std::path::absolute(p).map_err(|e| format!("{}: {e}", p.display()))?;
    let dir = abs
        .parent()
        .filter(|d| d.is_dir())
        .ok_or_else(|| format!("{}: its folder does not exist", abs.display()))?;
    if std::fs::symlink_metadata(&abs).is_ok() {
        return Err(format!(
            "{} already exists: a backup never replaces a file; choose another name",
            abs.display()
        ));
    }
    let dir = std::fs::canonicalize(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let name = abs
        .file_name()
        .ok_or_else(|| format!("{}: not a file name", abs.display()))?;
    Ok(dir.join(name))
}

/// A backup by the running bot: into its folder, then copied to `to`.
fn through_bot(data: &Path, to: Option<&Path>) -> Result<String, String> {
    let Some(to) = to else {
        return service::ask(data, None)
            .map(|s| format!("backup written by the running Tokar: {s}"));
    };
    let own =
        service::backups_dir(data).join(format!("copy-{}", super::file_name(chrono::Utc::now())));
    let own = std::path::absolute(&own).map_err(|e| e.to_string())?;
    let summary = service::ask(data, Some(&own))?;
    // What the backup holds, without the bot's path for it.
    let prefix = format!("{}: ", own.display());
    let holds = summary.strip_prefix(&prefix).unwrap_or(&summary).to_owned();
    let copied = super::files::copy(&own, to);
    // The bot's copy was only for this one.
    let _ = std::fs::remove_file(&own);
    copied.map_err(|e| format!("{}: {e}", to.display()))?;
    Ok(format!(
        "backup written by the running Tokar and copied to {}: {holds}",
        to.display()
    ))
}

fn keep() -> Result<usize, String> {
    service::keep_from_env()
}

fn restore_cmd(file: &Path, data: &Path, game: Option<u64>) -> Result<String, String> {
    // Into the database the bot would use: TOKAR_DATABASE_URL's, or the folder's.
    let settings = StoreSettings::from_env()?;
    match game {
        Some(id) => {
            let r = restore::restore_game_with(file, data, id, &settings)?;
            let kinds: Vec<&str> = r.kinds.iter().map(|k| k.title()).collect();
            Ok(format!(
                "game #{id} restored from {} into {}; ratings of {} recomputed from {} rated game(s)",
                file.display(),
                data.display(),
                kinds.join(", "),
                r.rated
            ))
        }
        None => {
            let r = restore::restore_into(file, data, &settings)?;
            let place = match &settings.database {
                Some(_) => format!(
                    "the database of TOKAR_DATABASE_URL (marker in {})",
                    data.display()
                ),
                None => data.display().to_string(),
            };
            Ok(format!(
                "restored store {:016x} into {place}: {} game(s), {} other key(s), {} key(s) in named trees, \
                 every game checked and replayed",
                r.identity,
                r.games,
                r.keys,
                r.tree_keys
            ))
        }
    }
}

fn check(data: &Path) -> Result<String, String> {
    let report = crate::check::check(data)?;
    for p in &report.problems {
        println!("{p}");
    }
    if report.problems.is_empty() {
        Ok(report.summary())
    } else {
        println!("{}", report.summary());
        Err(format!(
            "{} problem(s) in {}; a game can be restored alone from a backup (Tokar stopped): \
             tokar restore FILE --data {} --game N",
            report.problems.len(),
            data.display(),
            data.display()
        ))
    }
}
