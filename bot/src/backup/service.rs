//! Backups of the running bot: one every day into `<data>/backups/`, keeping
//! the last N, and on demand through the control socket `<data>/tokar.sock`,
//! which `tokar backup` uses when the bot has the store open.
//!
//! Each backup runs in `spawn_blocking`: the table goes on answering, held
//! only for the reads of one game at a time (see the module above).

use super::{file_name, write, Summary};
pub use crate::storage::folder::{backups_dir, list, SOCKET};
use crate::Table;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};
use tracing::{error, info, warn};

/// How many daily backups are kept when `TOKAR_BACKUPS_KEEP` is not set.
pub const DEFAULT_KEEP: usize = 7;

const DAY: Duration = Duration::from_secs(24 * 3600);

/// After a failed backup, the next try waits this long (not a busy loop).
const RETRY: Duration = Duration::from_secs(3600);

/// `TOKAR_BACKUPS_KEEP`: how many of Tokar's own backups to keep (at least 1).
pub fn keep_from_env() -> Result<usize, String> {
    match std::env::var("TOKAR_BACKUPS_KEEP") {
        Err(_) => Ok(DEFAULT_KEEP),
        Ok(v) => {
            v.trim().parse().ok().filter(|&n| n >= 1).ok_or_else(|| {
                format!("TOKAR_BACKUPS_KEEP={v}: not a number of backups (1 or more)")
            })
        }
    }
}

/// Removes Tokar's own backups in `dir` but the newest `keep`.
pub fn prune(dir: &Path, keep: usize) {
    let all = list(dir);
    for old in &all[..all.len().saturating_sub(keep)] {
        match std::fs::remove_file(old) {
            Ok(()) => info!(path = %old.display(), "old backup removed"),
            Err(e) => warn!(path = %old.display(), error = %e, "cannot remove an old backup"),
        }
    }
}

/// Takes a backup of the running table into `to` (default: a new file in
/// `<data>/backups/`, after which the old ones beyond `keep` go).
pub async fn take(
    table: &Table,
    data: &Path,
    to: Option<PathBuf>,
    keep: usize,
) -> Result<Summary, String> {
    let store = table.store_handle();
    let dir = backups_dir(data);
    let own = to.is_none();
    let to = to.unwrap_or_else(|| dir.join(file_name(chrono::Utc::now())));
    let summary = tokio::task::spawn_blocking(move || write(&store, &to))
        .await
        .map_err(|e| format!("the backup task failed: {e}"))?
        .map_err(|e| e.to_string())?;
    if own {
        prune(&dir, keep);
    }
    Ok(summary)
}

/// Takes a backup every day (the first at once when the newest is a day old
/// or there is none), keeping the last `keep`. Runs until the process ends.
pub async fn daily(table: Table, data: PathBuf, keep: usize) {
    loop {
        let newest = list(&backups_dir(&data))
            .last()
            .and_then(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
        // From the newest backup: a restart does not start the day over.
        let wait = newest
            .and_then(|t| (t + DAY).duration_since(SystemTime::now()).ok())
            .unwrap_or_default();
        tokio::time::sleep(wait).await;
        match take(&table, &data, None, keep).await {
            Ok(s) => info!(backup = %s, "daily backup taken"),
            Err(e) => {
                error!(error = %e, "daily backup failed; trying again in an hour");
                tokio::time::sleep(RETRY).await;
            }
        }
    }
}

/// The control socket's bounds: one slow or idle client, or thousands of
/// them, cannot hold the bot's descriptors or a backup forever.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// How long a connection may take to send its request line.
    pub idle: Duration,
    /// How long a backup asked for may take before the client is told it failed.
    pub request: Duration,
    /// Connections served at once; more are answered "busy" and closed.
    pub connections: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            idle: Duration::from_secs(10),
            request: Duration::from_secs(30 * 60),
            connections: 8,
        }
    }
}

/// How long `tokar backup` waits for the running bot's answer: the bot's own
/// request bound and a margin.
pub const ASK_TIMEOUT: Duration = Duration::from_secs(31 * 60);

/// Answers `tokar backup` run beside the bot: one request a connection, the
/// line `backup` or `backup PATH`, answered `ok SUMMARY` or `error TEXT`.
/// The socket is readable by the bot's user alone. The bot writes backups
/// only into `<data>/backups/` (see [`allowed`]); `tokar backup --to` copies
/// one elsewhere itself.
pub async fn serve(table: Table, data: PathBuf, keep: usize) {
    serve_with(table, data, keep, Limits::default()).await
}

/// [`serve`] with other bounds (tests use short ones).
pub async fn serve_with(table: Table, data: PathBuf, keep: usize, limits: Limits) {
    let path = data.join(SOCKET);
    // A socket left by a killed process. No other Tokar uses this folder:
    // this one holds the store's lock.
    let _ = std::fs::remove_file(&path);
    let listener = match tokio::net::UnixListener::bind(&path) {
        Ok(l) => l,
        Err(e) => {
            warn!(path = %path.display(), error = %e, "no control socket: `tokar backup` cannot reach this bot (daily backups go on)");
            return;
        }
    };
    {
        use std::os::unix::fs::PermissionsExt;
        if let Err(e) = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)) {
            warn!(error = %e, "cannot restrict the control socket");
        }
    }
    let slots = std::sync::Arc::new(tokio::sync::Semaphore::new(limits.connections.max(1)));
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(s) => s,
            Err(e) => {
                warn!(error = %e, "control socket");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            // Answered and closed at once: the descriptor is not kept.
            tokio::spawn(async move {
                let (_, mut write) = stream.into_split();
                let busy = "error busy: too many connections to the control socket; try again\n";
                let _ = tokio::time::timeout(limits.idle, write.write_all(busy.as_bytes())).await;
            });
            continue;
        };
        let table = table.clone();
        let data = data.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let (read, mut write) = stream.into_split();
            let mut line = String::new();
            let read = tokio::time::timeout(
                limits.idle,
                tokio::io::BufReader::new(read.take(4096)).read_line(&mut line),
            )
            .await;
            let answer = match read {
                Err(_) => "error no request in time".to_string(),
                Ok(Err(e)) => format!("error {e}"),
                Ok(Ok(_)) => {
                    let to =
                        match line.trim_end().split_once(' ') {
                            _ if line.trim_end() == "backup" => Ok(None),
                            Some(("backup", to)) => allowed(&data, Path::new(to)).map(Some),
                            _ => Err("unknown request (say `backup` or `backup /absolute/path`)"
                                .to_string()),
                        };
                    match to {
                        Err(e) => format!("error {e}"),
                        Ok(to) => {
                            match tokio::time::timeout(
                                limits.request,
                                take(&table, &data, to, keep),
                            )
                            .await
                            {
                                Ok(r) => reply(r),
                                Err(_) => reply(Err(format!(
                                    "the backup took more than {} s; it may still finish",
                                    limits.request.as_secs()
                                ))),
                            }
                        }
                    }
                }
            };
            let _ = tokio::time::timeout(
                limits.idle,
                write.write_all(format!("{answer}\n").as_bytes()),
            )
            .await;
        });
    }
}

/// Where the bot accepts to write a backup asked for on the socket: a new
/// file directly in `<data>/backups/`, by an absolute path. Anything else is
/// refused: the bot's user may write files that whoever asks may not.
pub fn allowed(data: &Path, to: &Path) -> Result<PathBuf, String> {
    let refuse = || {
        format!(
            "the running Tokar writes backups only into {}; `tokar backup --to` copies one elsewhere",
            backups_dir(data).display()
        )
    };
    if !to.is_absolute() {
        return Err(refuse());
    }
    let (Some(dir), Some(name)) = (to.parent(), to.file_name()) else {
        return Err(refuse());
    };
    let plain = name
        .to_str()
        .is_some_and(|n| !n.starts_with('.') && n.ends_with(".backup"));
    let own = backups_dir(data);
    crate::storage::private::create_dir(&own).map_err(|e| format!("{}: {e}", own.display()))?;
    let same = match (std::fs::canonicalize(dir), std::fs::canonicalize(&own)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if !plain || !same {
        return Err(refuse());
    }
    Ok(own.join(name))
}

fn reply(r: Result<Summary, String>) -> String {
    match r {
        Ok(s) => {
            info!(backup = %s, "backup taken on request");
            format!("ok {s}")
        }
        Err(e) => {
            error!(error = %e, "backup on request failed");
            format!("error {e}")
        }
    }
}

/// Whether a running Tokar answers on the data folder's control socket (a
/// socket file left by a killed process does not answer).
pub fn answers(data: &Path) -> bool {
    std::os::unix::net::UnixStream::connect(data.join(SOCKET)).is_ok()
}

/// Asks the bot running on `data` for a backup (blocking: for the command
/// line). `None`: the bot's own folder and name; else a path [`allowed`].
/// Gives up after [`ASK_TIMEOUT`].
pub fn ask(data: &Path, to: Option<&Path>) -> Result<String, String> {
    ask_within(data, to, ASK_TIMEOUT)
}

/// [`ask`], waiting at most `timeout` for the answer.
pub fn ask_within(data: &Path, to: Option<&Path>, timeout: Duration) -> Result<String, String> {
    use std::io::{BufRead, Write};
    let path = data.join(SOCKET);
    let mut s = std::os::unix::net::UnixStream::connect(&path).map_err(|e| {
        format!(
            "the store in {} is in use by a running Tokar, and its control socket {} does not answer ({e})",
            data.display(),
            path.display()
        )
    })?;
    s.set_read_timeout(Some(timeout))
        .and_then(|()| s.set_write_timeout(Some(Duration::from_secs(10))))
        .map_err(|e| e.to_string())?;
    let request = match to {
        Some(p) => format!("backup {}\n", p.display()),
        None => "backup\n".into(),
    };
    s.write_all(request.as_bytes()).map_err(|e| e.to_string())?;
    let mut answer = String::new();
    std::io::BufReader::new(s)
        .read_line(&mut answer)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => format!(
                "the running Tokar did not answer within {} s",
                timeout.as_secs()
            ),
            _ => format!("no answer from the running Tokar: {e}"),
        })?;
    match answer.trim_end().split_once(' ') {
        Some(("ok", s)) => Ok(s.to_owned()),
        Some(("error", e)) => Err(e.to_owned()),
        _ => Err(format!("the running Tokar answered: {}", answer.trim_end())),
    }
}
