//! The control socket and the data folder's files (issue #32): the bot
//! writes backups only into its own folder, never through a planted link;
//! idle and surplus connections are closed; the console answers `tokar
//! backup`; the data folder and its files are the bot's alone.

mod common;

use common::{fresh_dir, open};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::Duration;
use tokar_bot::backup::service::{self, Limits, SOCKET};

fn limits() -> Limits {
    Limits {
        idle: Duration::from_secs(1),
        request: Duration::from_secs(60),
        connections: 3,
    }
}

/// A table on a fresh folder with its socket served (short limits).
async fn served(name: &str) -> (common::Env, tokio::task::JoinHandle<()>) {
    let env = open(&fresh_dir(name), Some(7)).await;
    env.start("alice", "bob").await;
    let task = tokio::spawn(service::serve_with(
        env.table.clone(),
        env.dir.clone(),
        7,
        limits(),
    ));
    let sock = env.dir.join(SOCKET);
    for _ in 0..100 {
        if UnixStream::connect(&sock).is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    (env, task)
}

/// Runs a blocking client off the executor.
async fn client<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    tokio::task::spawn_blocking(f).await.unwrap()
}

fn mode(p: &Path) -> u32 {
    std::fs::symlink_metadata(p).unwrap().permissions().mode() & 0o777
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_writes_backups_only_into_its_folder_and_never_through_a_link() {
    let (env, task) = served("socket-paths").await;
    let data = env.dir.clone();
    // Outside the data folder's backups/: refused, nothing written.
    let victim = fresh_dir("socket-paths-victim").join("victim");
    std::fs::write(&victim, b"keep me").unwrap();
    let (d, v) = (data.clone(), victim.clone());
    let e = client(move || service::ask_within(&d, Some(&v), Duration::from_secs(30)))
        .await
        .unwrap_err();
    assert!(e.contains("only into"), "{e}");
    assert_eq!(std::fs::read(&victim).unwrap(), b"keep me");
    // A relative path, or a name in backups/ reached through `..`, the same.
    for bad in ["relative.backup", "../backups/x.backup"] {
        let d = data.clone();
        let e =
            client(move || service::ask_within(&d, Some(Path::new(bad)), Duration::from_secs(30)))
                .await
                .unwrap_err();
        assert!(e.contains("only into"), "{bad}: {e}");
    }
    // In backups/: written, private.
    let to = data.join("backups").join("asked.backup");
    let (d, t) = (data.clone(), to.clone());
    client(move || service::ask_within(&d, Some(&t), Duration::from_secs(30)))
        .await
        .unwrap();
    assert_eq!(mode(&to), 0o600);
    assert_eq!(mode(&data.join("backups")), 0o700);
    // Never over it again, nor through a link planted at `.partial`.
    let (d, t) = (data.clone(), to.clone());
    let e = client(move || service::ask_within(&d, Some(&t), Duration::from_secs(30)))
        .await
        .unwrap_err();
    assert!(e.contains("already exists"), "{e}");
    let planted = data.join("backups").join("planted.backup");
    std::os::unix::fs::symlink(&victim, planted.with_extension("partial")).unwrap();
    let (d, t) = (data.clone(), planted.clone());
    let e = client(move || service::ask_within(&d, Some(&t), Duration::from_secs(30)))
        .await
        .unwrap_err();
    assert!(e.contains("already exists"), "{e}");
    assert_eq!(std::fs::read(&victim).unwrap(), b"keep me");
    assert!(!planted.exists());
    task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_and_surplus_connections_are_closed_and_the_client_gives_up_in_time() {
    let (env, task) = served("socket-limits").await;
    let sock = env.dir.join(SOCKET);
    // Idle: told so and closed after the idle bound.
    let s = sock.clone();
    let answer = client(move || {
        let c = UnixStream::connect(&s).unwrap();
        c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut lines = BufReader::new(c).lines();
        let first = lines.next().map(|l| l.unwrap());
        let then = lines.next();
        (first, then.is_none())
    })
    .await;
    assert_eq!(answer.0.as_deref(), Some("error no request in time"));
    assert!(answer.1, "the idle connection was not closed");

    // Many at once: beyond the limit, each is answered "busy" at once.
    let s = sock.clone();
    let answers = client(move || {
        let held: Vec<UnixStream> = (0..3).map(|_| UnixStream::connect(&s).unwrap()).collect();
        std::thread::sleep(Duration::from_millis(50));
        let extra: Vec<String> = (0..5)
            .map(|_| {
                let c = UnixStream::connect(&s).unwrap();
                c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
                let mut line = String::new();
                BufReader::new(c).read_line(&mut line).unwrap();
                line
            })
            .collect();
        drop(held);
        extra
    })
    .await;
    for a in &answers {
        assert!(a.starts_with("error busy"), "{answers:?}");
    }
    // Once they are gone, a request is served again.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let d = env.dir.clone();
    client(move || service::ask_within(&d, None, Duration::from_secs(30)))
        .await
        .unwrap();
    task.abort();

    // A bot that never answers: `tokar backup` gives up at its bound.
    let quiet = fresh_dir("socket-quiet");
    let listener = std::os::unix::net::UnixListener::bind(quiet.join(SOCKET)).unwrap();
    let e = client(move || {
        let r = service::ask_within(&quiet, None, Duration::from_millis(300));
        drop(listener);
        r
    })
    .await
    .unwrap_err();
    assert!(e.contains("did not answer within"), "{e}");
}

#[test]
fn the_console_answers_tokar_backup_and_keeps_its_folder_private() {
    let dir = fresh_dir("socket-console");
    // A folder as an older Tokar left it: open to everyone.
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let report = tokar_bot::storage::private::report(&dir).expect("an open folder is reported");
    assert!(report.contains("open to other users"), "{report}");
    let (mut child, mut stdin, mut lines) = common::console_process(&dir, &["--seed", "7"]);
    writeln!(stdin, "@alice /new game:arcana army:human opponent:@bob").unwrap();
    lines.next().unwrap().unwrap();
    let mut answered = false;
    for _ in 0..100 {
        if service::answers(&dir) {
            answered = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(answered, "the console serves no control socket");
    let to = fresh_dir("socket-console-copy").join("copy.backup");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tokar"))
        .args(["backup", "--data"])
        .arg(&dir)
        .arg("--to")
        .arg(&to)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("by the running Tokar"), "{said}");
    assert_eq!(mode(&to), 0o600);
    // The bot's own copy for it is gone; a second run never replaces the file.
    let left: Vec<_> = std::fs::read_dir(dir.join("backups"))
        .unwrap()
        .flatten()
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let again = std::process::Command::new(env!("CARGO_BIN_EXE_tokar"))
        .args(["backup", "--data"])
        .arg(&dir)
        .arg("--to")
        .arg(&to)
        .output()
        .unwrap();
    assert!(!again.status.success());
    // Modes after start: the folder, the database, the marker, the socket.
    assert_eq!(mode(&dir), 0o700);
    assert_eq!(mode(&dir.join("db")), 0o700);
    assert_eq!(mode(&dir.join(tokar_bot::marker::FILE)), 0o600);
    assert_eq!(mode(&dir.join(SOCKET)) & 0o077, 0);
    assert_eq!(tokar_bot::storage::private::report(&dir), None);
    drop(stdin);
    child.wait().unwrap();
}
